# tests/unit: cmocka unit tests (TAP output through CMOCKA_MESSAGE_OUTPUT).
check_PROGRAMS += tests/unit/test_model tests/unit/test_tracker
TESTS += tests/unit/test_model tests/unit/test_tracker
tests_unit_test_model_SOURCES = tests/unit/test_model.c
tests_unit_test_model_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_model_LDADD = $(TEST_LIBS)
tests_unit_test_tracker_SOURCES = tests/unit/test_tracker.c tests/unit/scenario.c tests/unit/scenario.h
tests_unit_test_tracker_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_tracker_LDADD = $(TEST_LIBS)
# record and replay: the round trip through the real collector and tracker, damage, rotation, --at, real time.
check_PROGRAMS += tests/unit/test_record
TESTS += tests/unit/test_record
tests_unit_test_record_SOURCES = tests/unit/test_record.c tests/unit/record_fake.c tests/unit/record_fake.h
tests_unit_test_record_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_record_LDADD = $(TEST_LIBS)
