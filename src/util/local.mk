# src/util: allocation, time, buffers, key/value lists, the debug log.
libkgtop_a_SOURCES += src/util/util.c src/util/util.h src/util/filter.c src/util/filter.h \
	src/util/kv.h src/util/log.c src/util/log.h src/util/hmap.c src/util/hmap.h \
	src/util/secfile.c src/util/secfile.h
