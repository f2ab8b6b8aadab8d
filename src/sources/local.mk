# src/sources: file lists (see Makefile.am).  One sub-folder per source
# concept; sources.c (the libraries' process-wide setup) serves them all.
libkgtop_a_SOURCES += src/sources/sources.c src/sources/sources.h
# kafka/: the Kafka admin source (librdkafka) and librdkafka properties from files
libkgtop_a_SOURCES += src/sources/kafka/kafka.c src/sources/kafka/kafka.h src/sources/kafka/kafka_int.h \
	src/sources/kafka/kafka_refresh.c \
	src/sources/kafka/kafka_requests.c src/sources/kafka/kafka_requests.h \
	src/sources/kafka/kafka_logend.c src/sources/kafka/kafka_logend.h \
	src/sources/kafka/kafka_stamp.c src/sources/kafka/kafka_stamp.h \
	src/sources/kafka/kafka_table.c src/sources/kafka/kafka_table.h \
	src/sources/kafka/kafka_sched.c src/sources/kafka/kafka_sched.h \
	src/sources/kafka/kafka_errors.c src/sources/kafka/kafka_errors.h \
	src/sources/kafka/rdprops.c src/sources/kafka/rdprops.h
# trace/: trace streams (libcurl + cJSON), their transport and their pure parsers
libkgtop_a_SOURCES += \
	src/sources/trace/parse_lines.c src/sources/trace/parse_lines.h \
	src/sources/trace/parse_log.c src/sources/trace/parse_log.h \
	src/sources/trace/parse_jolokia.c src/sources/trace/parse_jolokia.h \
	src/sources/trace/parse_rdstats.c src/sources/trace/parse_rdstats.h
libkgtop_a_SOURCES += src/sources/trace/trace.c src/sources/trace/trace.h \
	src/sources/trace/trace_kinds.c src/sources/trace/trace_kinds.h \
	src/sources/trace/trace_transport.c src/sources/trace/trace_transport.h \
	src/sources/trace/trace_url.c src/sources/trace/trace_url.h \
	src/sources/trace/trace_groups.c src/sources/trace/trace_groups.h \
	src/sources/trace/trace_backlog.c src/sources/trace/trace_backlog.h
# demo/: the embedded demo (mock cluster, producer, consumer fleets, scenarios)
libkgtop_a_SOURCES += src/sources/demo/demo.c src/sources/demo/demo.h \
	src/sources/demo/demo_consumer.c src/sources/demo/demo_int.h \
	src/sources/demo/demo_script.c src/sources/demo/demo_script.h \
	src/sources/demo/demo_cluster.c src/sources/demo/demo_view.c
# attach/: --attach, another kgtop's /stream, through trace/'s transport and the replay feed
libkgtop_a_SOURCES += src/sources/attach/attach.c src/sources/attach/attach.h
# offsets/: __consumer_offsets, the group coordinator's own records (--trace offsets): the decoder (pure) and the reader
libkgtop_a_SOURCES += src/sources/offsets/offsets_record.c src/sources/offsets/offsets_record.h \
	src/sources/offsets/offsets_state.c src/sources/offsets/offsets_state.h \
	src/sources/offsets/offsets.c src/sources/offsets/offsets.h
