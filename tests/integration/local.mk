# tests/integration: file lists (see Makefile.am)
