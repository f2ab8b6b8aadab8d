# tests/unit: cmocka unit tests (TAP output through CMOCKA_MESSAGE_OUTPUT).
check_PROGRAMS += tests/unit/test_model tests/unit/test_tracker
UNIT_TESTS = tests/unit/test_model tests/unit/test_tracker
tests_unit_test_model_SOURCES = tests/unit/test_model.c
tests_unit_test_model_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_model_LDADD = $(TEST_LIBS)
tests_unit_test_tracker_SOURCES = tests/unit/test_tracker.c tests/unit/scenario.c tests/unit/scenario.h
tests_unit_test_tracker_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_tracker_LDADD = $(TEST_LIBS)
# episodes exactly as the protocol ran them (issue 11): its findings, pinned
check_PROGRAMS += tests/unit/test_episodes
UNIT_TESTS += tests/unit/test_episodes
tests_unit_test_episodes_SOURCES = tests/unit/test_episodes.c tests/unit/scenario.c tests/unit/scenario.h
tests_unit_test_episodes_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_episodes_LDADD = $(TEST_LIBS)
# the tracker's shortcuts for groups whose input did not change derive what the full derivation does (issue 24)
check_PROGRAMS += tests/unit/test_quiet
UNIT_TESTS += tests/unit/test_quiet
tests_unit_test_quiet_SOURCES = tests/unit/test_quiet.c
tests_unit_test_quiet_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_quiet_LDADD = $(TEST_LIBS)
# KIP-848 consumer groups: epochs, members' reconciliation, the consumer protocol's episodes (issue 21)
check_PROGRAMS += tests/unit/test_kip
UNIT_TESTS += tests/unit/test_kip
tests_unit_test_kip_SOURCES = tests/unit/test_kip.c tests/unit/scenario.c tests/unit/scenario.h
tests_unit_test_kip_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_kip_LDADD = $(TEST_LIBS)
# util: the hash index
check_PROGRAMS += tests/unit/test_util
UNIT_TESTS += tests/unit/test_util
tests_unit_test_util_SOURCES = tests/unit/test_util.c
tests_unit_test_util_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_util_LDADD = $(TEST_LIBS)

# ui (issue 3): golden screens, keys and layout, themes.
UI_TEST_SCENE = tests/unit/test_ui_scene.c tests/unit/test_ui_scene.h
check_PROGRAMS += tests/unit/test_ui_golden tests/unit/test_ui tests/unit/test_theme
UNIT_TESTS += tests/unit/test_ui_golden tests/unit/test_ui tests/unit/test_theme
tests_unit_test_ui_golden_SOURCES = tests/unit/test_ui_golden.c $(UI_TEST_SCENE)
tests_unit_test_ui_golden_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_ui_golden_LDADD = $(TEST_LIBS)
tests_unit_test_ui_SOURCES = tests/unit/test_ui.c $(UI_TEST_SCENE)
tests_unit_test_ui_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_ui_LDADD = $(TEST_LIBS)
tests_unit_test_theme_SOURCES = tests/unit/test_theme.c
tests_unit_test_theme_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_theme_LDADD = $(TEST_LIBS)
# the group table and the --once text report
check_PROGRAMS += tests/unit/test_report
UNIT_TESTS += tests/unit/test_report
tests_unit_test_report_SOURCES = tests/unit/test_report.c tests/unit/two_groups.c tests/unit/two_groups.h
tests_unit_test_report_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_report_LDADD = $(TEST_LIBS)
include tests/golden/local.mk
# tests/unit: file lists (see Makefile.am)
# trace streams and their parsers
TRACE_TEST_UTIL = tests/unit/trace_util.c tests/unit/trace_util.h
check_PROGRAMS += tests/unit/test_parse_log
UNIT_TESTS += tests/unit/test_parse_log
tests_unit_test_parse_log_SOURCES = tests/unit/test_parse_log.c $(TRACE_TEST_UTIL)
tests_unit_test_parse_log_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_parse_log_LDADD = $(TEST_LIBS)
check_PROGRAMS += tests/unit/test_trace_http
UNIT_TESTS += tests/unit/test_trace_http
tests_unit_test_trace_http_SOURCES = tests/unit/test_trace_http.c $(TRACE_TEST_UTIL) \
	tests/http/httpd.c tests/http/httpd.h
tests_unit_test_trace_http_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_trace_http_LDADD = $(TEST_LIBS)
EXTRA_DIST += tests/data/trace/jolokia-bulk.json
check_PROGRAMS += tests/unit/test_trace_tracker
UNIT_TESTS += tests/unit/test_trace_tracker
tests_unit_test_trace_tracker_SOURCES = tests/unit/test_trace_tracker.c $(TRACE_TEST_UTIL)
tests_unit_test_trace_tracker_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_trace_tracker_LDADD = $(TEST_LIBS)
check_PROGRAMS += tests/unit/test_trace_collector
UNIT_TESTS += tests/unit/test_trace_collector
tests_unit_test_trace_collector_SOURCES = tests/unit/test_trace_collector.c $(TRACE_TEST_UTIL)
tests_unit_test_trace_collector_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_trace_collector_LDADD = $(TEST_LIBS)
check_PROGRAMS += tests/unit/test_trace_kinds
UNIT_TESTS += tests/unit/test_trace_kinds
tests_unit_test_trace_kinds_SOURCES = tests/unit/test_trace_kinds.c
tests_unit_test_trace_kinds_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_trace_kinds_LDADD = $(TEST_LIBS)
check_PROGRAMS += tests/unit/test_parse_json
UNIT_TESTS += tests/unit/test_parse_json
tests_unit_test_parse_json_SOURCES = tests/unit/test_parse_json.c $(TRACE_TEST_UTIL)
tests_unit_test_parse_json_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_parse_json_LDADD = $(TEST_LIBS)
EXTRA_DIST += tests/data/logs/kafka-2.8-classic.log tests/data/logs/kafka-3.7-classic.log \
	tests/data/logs/kafka-4.0-classic.log tests/data/logs/kafka-4.0-consumer.log \
	tests/data/trace/kafka-2.8-classic.obs tests/data/trace/kafka-3.7-classic.obs \
	tests/data/trace/kafka-4.0-classic.obs tests/data/trace/kafka-4.0-consumer.obs \
	tests/data/trace/kafka-2.8-classic.events tests/data/trace/kafka-3.7-classic.events \
	tests/data/trace/kafka-4.0-classic.events tests/data/trace/kafka-4.0-consumer.events \
	tests/data/logs/kafka-4.3-classic.log tests/data/logs/kafka-4.3-consumer.log \
	tests/data/trace/kafka-4.3-classic.obs tests/data/trace/kafka-4.3-consumer.obs \
	tests/data/trace/kafka-4.3-classic.events tests/data/trace/kafka-4.3-consumer.events
# record and replay: the round trip through the real collector and tracker, damage, rotation, --at, real time.
check_PROGRAMS += tests/unit/test_record
UNIT_TESTS += tests/unit/test_record
tests_unit_test_record_SOURCES = tests/unit/test_record.c tests/unit/record_fake.c tests/unit/record_fake.h
tests_unit_test_record_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_record_LDADD = $(TEST_LIBS)
# the demo's script engine, commands, names, and the tracker on demo-like sequences
check_PROGRAMS += tests/unit/test_demo
UNIT_TESTS += tests/unit/test_demo
tests_unit_test_demo_SOURCES = tests/unit/test_demo.c tests/unit/scenario.c tests/unit/scenario.h
tests_unit_test_demo_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_demo_LDADD = $(TEST_LIBS)
# the kafka source's scheduler (issue 15)
check_PROGRAMS += tests/unit/test_kafka_sched
UNIT_TESTS += tests/unit/test_kafka_sched
tests_unit_test_kafka_sched_SOURCES = tests/unit/test_kafka_sched.c
tests_unit_test_kafka_sched_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_kafka_sched_LDADD = $(TEST_LIBS)
# every unit test above; `make check-unit` runs only these (CI's sanitizer build does)
TESTS += $(UNIT_TESTS)
check-unit:
	$(MAKE) $(AM_MAKEFLAGS) check TESTS="$(UNIT_TESTS)"
.PHONY: check-unit
# --serve's /metrics: the exposition of fixed snapshots and events
check_PROGRAMS += tests/unit/test_metrics
UNIT_TESTS += tests/unit/test_metrics
tests_unit_test_metrics_SOURCES = tests/unit/test_metrics.c tests/unit/two_groups.c tests/unit/two_groups.h
tests_unit_test_metrics_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_metrics_LDADD = $(TEST_LIBS)
EXTRA_DIST += tests/data/metrics/two-groups.prom
# progress (issue 10): verdicts, time lag, rates, rule by rule
check_PROGRAMS += tests/unit/test_progress
UNIT_TESTS += tests/unit/test_progress
tests_unit_test_progress_SOURCES = tests/unit/test_progress.c
tests_unit_test_progress_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_progress_LDADD = $(TEST_LIBS)
check_PROGRAMS += tests/unit/test_check
UNIT_TESTS += tests/unit/test_check
tests_unit_test_check_SOURCES = tests/unit/test_check.c tests/unit/two_groups.c tests/unit/two_groups.h
tests_unit_test_check_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_check_LDADD = $(TEST_LIBS)
# __consumer_offsets records (issue 23): the decoder against Kafka's own decoding of a real broker's records
check_PROGRAMS += tests/unit/test_offsets_record
UNIT_TESTS += tests/unit/test_offsets_record
tests_unit_test_offsets_record_SOURCES = tests/unit/test_offsets_record.c $(TRACE_TEST_UTIL)
tests_unit_test_offsets_record_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_offsets_record_LDADD = $(TEST_LIBS)
EXTRA_DIST += tests/data/offsets/kafka-4.3.jsonl tests/kafka/capture-offsets.sh
# issue 22: every bound kgtop reports contains the truth of a simulated group it polls (10,000 random schedules)
check_PROGRAMS += tests/unit/test_bounds
UNIT_TESTS += tests/unit/test_bounds
tests_unit_test_bounds_SOURCES = tests/unit/test_bounds.c tests/unit/sim.c tests/unit/sim.h
tests_unit_test_bounds_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_bounds_LDADD = $(TEST_LIBS)
# the one output rule (issue 25): every unsafe character class at every position of every field, through every output
check_PROGRAMS += tests/unit/test_outputs
UNIT_TESTS += tests/unit/test_outputs
tests_unit_test_outputs_SOURCES = tests/unit/test_outputs.c
tests_unit_test_outputs_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_outputs_LDADD = $(TEST_LIBS)
# the options: every default is its row's, as --help states it; the tracker's settings' precedence
check_PROGRAMS += tests/unit/test_options
UNIT_TESTS += tests/unit/test_options
tests_unit_test_options_SOURCES = tests/unit/test_options.c
tests_unit_test_options_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_options_LDADD = $(TEST_LIBS)
# the collector's promises: no event lost to a slow reader, the newest snapshot wins, a stop seen at once
check_PROGRAMS += tests/unit/test_collector
UNIT_TESTS += tests/unit/test_collector
tests_unit_test_collector_SOURCES = tests/unit/test_collector.c
tests_unit_test_collector_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_collector_LDADD = $(TEST_LIBS)
