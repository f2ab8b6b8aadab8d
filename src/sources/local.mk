# src/sources: file lists (see Makefile.am)
libkgtop_a_SOURCES += src/sources/kafka.c src/sources/kafka.h \
	src/sources/kafka_refresh.c src/sources/kafka_int.h \
	src/sources/kafka_sched.c src/sources/kafka_sched.h src/sources/kafka_groups.c src/sources/kafka_stamp.c
libkgtop_a_SOURCES += src/sources/sources.c src/sources/sources.h
# trace streams (libcurl + cJSON) and their pure parsers
libkgtop_a_SOURCES += \
	src/sources/parse_lines.c src/sources/parse_lines.h \
	src/sources/parse_log.c src/sources/parse_log.h \
	src/sources/parse_jolokia.c src/sources/parse_jolokia.h \
	src/sources/parse_rdstats.c src/sources/parse_rdstats.h
libkgtop_a_SOURCES += src/sources/trace.c src/sources/trace.h \
	src/sources/trace_kinds.c src/sources/trace_kinds.h \
	src/sources/trace_transport.c src/sources/trace_transport.h \
	src/sources/trace_url.c src/sources/trace_url.h \
	src/sources/trace_groups.c src/sources/trace_groups.h \
	src/sources/trace_backlog.c src/sources/trace_backlog.h \
	src/sources/rdprops.c src/sources/rdprops.h
# the embedded demo (mock cluster, producer, consumer fleets, scenarios)
libkgtop_a_SOURCES += src/sources/demo.c src/sources/demo.h \
	src/sources/demo_consumer.c src/sources/demo_int.h \
	src/sources/demo_script.c src/sources/demo_script.h \
	src/sources/demo_cluster.c src/sources/demo_view.c
# --attach: another kgtop's /stream, through the trace transport and the replay feed
libkgtop_a_SOURCES += src/sources/attach.c src/sources/attach.h
