# src/core: the collector thread, options, logging.
libkgtop_a_SOURCES += \
	src/core/collector.c src/core/collector.h
