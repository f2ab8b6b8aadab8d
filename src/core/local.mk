# src/core: the collector thread, options, logging.
libkgtop_a_SOURCES += \
	src/core/collector.c src/core/collector.h \
	src/core/options.c src/core/options.h \
	src/core/log.c src/core/log.h
