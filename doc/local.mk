# doc: file lists (see Makefile.am)
