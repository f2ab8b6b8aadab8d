# tests/unit: cmocka unit tests (TAP output through CMOCKA_MESSAGE_OUTPUT).
check_PROGRAMS += tests/unit/test_model tests/unit/test_tracker
TESTS += tests/unit/test_model tests/unit/test_tracker
tests_unit_test_model_SOURCES = tests/unit/test_model.c
tests_unit_test_model_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_model_LDADD = $(TEST_LIBS)
tests_unit_test_tracker_SOURCES = tests/unit/test_tracker.c tests/unit/scenario.c tests/unit/scenario.h
tests_unit_test_tracker_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_tracker_LDADD = $(TEST_LIBS)

# ui (issue 3): golden screens, keys and layout, themes.
UI_TEST_SCENE = tests/unit/test_ui_scene.c tests/unit/test_ui_scene.h
check_PROGRAMS += tests/unit/test_ui_golden tests/unit/test_ui tests/unit/test_theme
TESTS += tests/unit/test_ui_golden tests/unit/test_ui tests/unit/test_theme
tests_unit_test_ui_golden_SOURCES = tests/unit/test_ui_golden.c $(UI_TEST_SCENE)
tests_unit_test_ui_golden_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_ui_golden_LDADD = $(TEST_LIBS)
tests_unit_test_ui_SOURCES = tests/unit/test_ui.c $(UI_TEST_SCENE)
tests_unit_test_ui_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_ui_LDADD = $(TEST_LIBS)
tests_unit_test_theme_SOURCES = tests/unit/test_theme.c
tests_unit_test_theme_CFLAGS = $(TEST_CFLAGS)
tests_unit_test_theme_LDADD = $(TEST_LIBS)
include tests/golden/local.mk
