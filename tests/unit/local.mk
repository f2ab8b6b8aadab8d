# tests/unit: cmocka unit tests (TAP output through CMOCKA_MESSAGE_OUTPUT).
check_PROGRAMS += tests/unit/test_model tests/unit/test_tracker
TESTS += tests/unit/test_model tests/unit/test_tracker
tests_unit_test_model_SOURCES = tests/unit/test_model.c
tests_unit_test_model_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_model_LDADD = $(TEST_LIBS)
tests_unit_test_tracker_SOURCES = tests/unit/test_tracker.c tests/unit/scenario.c tests/unit/scenario.h
tests_unit_test_tracker_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_tracker_LDADD = $(TEST_LIBS)
# the demo's script engine, commands, names, and the tracker on demo-like sequences
check_PROGRAMS += tests/unit/test_demo
TESTS += tests/unit/test_demo
tests_unit_test_demo_SOURCES = tests/unit/test_demo.c tests/unit/scenario.c tests/unit/scenario.h
tests_unit_test_demo_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_demo_LDADD = $(TEST_LIBS)
