# src/sources: file lists (see Makefile.am)
libkgtop_a_SOURCES += src/sources/source.c src/sources/source.h
libkgtop_a_SOURCES += src/sources/kafka.c src/sources/kafka.h src/sources/demo.h
libkgtop_a_SOURCES += src/sources/sources.c src/sources/sources.h src/sources/demo_stub.c
libkgtop_a_SOURCES += src/sources/replay.c src/sources/replay.h
