# tests/unit: file lists (see Makefile.am)
# trace streams and their parsers
TRACE_TEST_UTIL = tests/unit/test_trace_util.c tests/unit/test_trace_util.h
check_PROGRAMS += tests/unit/test_parse_log
TESTS += tests/unit/test_parse_log
tests_unit_test_parse_log_SOURCES = tests/unit/test_parse_log.c $(TRACE_TEST_UTIL)
tests_unit_test_parse_log_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_parse_log_LDADD = $(TEST_LIBS)
