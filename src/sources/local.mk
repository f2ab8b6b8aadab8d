# src/sources: file lists (see Makefile.am)
libkgtop_a_SOURCES += src/sources/source.c src/sources/source.h
