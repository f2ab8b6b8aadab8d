# src/sources: file lists (see Makefile.am)
libkgtop_a_SOURCES += src/sources/source.c src/sources/source.h
libkgtop_a_SOURCES += src/sources/kafka.c src/sources/kafka.h
libkgtop_a_SOURCES += src/sources/sources.c src/sources/sources.h
# the embedded demo (mock cluster, producer, consumer fleets, scenarios)
libkgtop_a_SOURCES += src/sources/demo.c src/sources/demo.h \
	src/sources/demo_consumer.c src/sources/demo_int.h \
	src/sources/demo_script.c src/sources/demo_script.h
