# themes: file lists (see Makefile.am)
