# src/util: allocation, time, buffers.
libkgtop_a_SOURCES += src/util/util.c src/util/util.h src/util/filter.c src/util/filter.h
