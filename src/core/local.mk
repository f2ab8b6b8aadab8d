# src/core: the collector thread, options.
libkgtop_a_SOURCES += \
	src/core/collector.c src/core/collector.h \
	src/core/options.c src/core/options.h src/core/options_int.h src/core/options_file.c
