# tests/bench: file lists (see Makefile.am)
