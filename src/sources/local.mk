# src/sources: file lists (see Makefile.am)
