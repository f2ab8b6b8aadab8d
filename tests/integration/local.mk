# tests/integration: the real sources against the fixture broker.
check_PROGRAMS += tests/integration/test_kafka
TESTS += tests/integration/test_kafka
tests_integration_test_kafka_SOURCES = tests/integration/test_kafka.c \
	tests/integration/fixture_util.c tests/integration/fixture_util.h
tests_integration_test_kafka_CFLAGS = $(TEST_CFLAGS)
tests_integration_test_kafka_LDADD = $(TEST_LIBS)
EXTRA_DIST += tests/integration/scenarios/outage.json
