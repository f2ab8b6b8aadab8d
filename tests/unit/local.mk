# tests/unit: file lists (see Makefile.am)
