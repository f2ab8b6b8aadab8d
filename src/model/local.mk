# src/model: file lists (see Makefile.am)
