# tests/bench: file lists (see Makefile.am)
# ui (issue 3): make bench-ui
check_PROGRAMS += tests/bench/bench_ui
tests_bench_bench_ui_SOURCES = tests/bench/bench_ui.c $(UI_TEST_SCENE)
tests_bench_bench_ui_CFLAGS = $(TEST_CFLAGS)
tests_bench_bench_ui_LDADD = $(KG_LIBS)
.PHONY: bench-ui
bench: bench-ui
bench-ui: tests/bench/bench_ui tests/tmux/ui_driver
	tests/bench/bench_ui tests/tmux/ui_driver
