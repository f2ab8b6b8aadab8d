# src/ui: file lists (see Makefile.am)
