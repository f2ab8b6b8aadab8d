# tests/integration: file lists (see Makefile.am)
# The default demo scenario, headless: demo + kafka source + collector + tracker (about 80 s).
check_PROGRAMS += tests/integration/test_demo
TESTS += tests/integration/test_demo
tests_integration_test_demo_SOURCES = tests/integration/test_demo.c
tests_integration_test_demo_CFLAGS = $(TEST_CFLAGS)
tests_integration_test_demo_LDADD = $(TEST_LIBS)
# The demo's controls through collector_command() on the manual scenario (about 40 s).
check_PROGRAMS += tests/integration/test_demo_commands
TESTS += tests/integration/test_demo_commands
tests_integration_test_demo_commands_SOURCES = tests/integration/test_demo_commands.c
tests_integration_test_demo_commands_CFLAGS = $(TEST_CFLAGS)
tests_integration_test_demo_commands_LDADD = $(TEST_LIBS)
