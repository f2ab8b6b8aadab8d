# tests/fuzz: file lists (see Makefile.am)
