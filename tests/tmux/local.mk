# tests/tmux: file lists (see Makefile.am)
