# doc: file lists (see Makefile.am)
dist_man_MANS += doc/kgtop-trace.5
