# src/report: file lists (see Makefile.am)
