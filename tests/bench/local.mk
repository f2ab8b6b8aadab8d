# tests/bench: benchmarks (make bench); they print figures and ratios, never fail on timing.
EXTRA_PROGRAMS = tests/bench/bench_refresh tests/bench/bench_model
tests_bench_bench_refresh_SOURCES = tests/bench/bench_refresh.c \
	tests/integration/fixture_util.c tests/integration/fixture_util.h
tests_bench_bench_refresh_CFLAGS = $(TEST_CFLAGS)
tests_bench_bench_refresh_LDADD = $(TEST_LIBS)
CLEANFILES += $(EXTRA_PROGRAMS)

bench: bench-refresh
bench-refresh: tests/bench/bench_refresh tests/fixture-broker
	top_srcdir='$(abs_top_srcdir)' top_builddir='$(abs_top_builddir)' tests/bench/bench_refresh
.PHONY: bench-refresh
tests_bench_bench_model_SOURCES = tests/bench/bench_model.c
tests_bench_bench_model_CFLAGS = $(TEST_CFLAGS)
tests_bench_bench_model_LDADD = $(TEST_LIBS)

bench: bench-model
bench-model: tests/bench/bench_model
	tests/bench/bench_model
.PHONY: bench-model
EXTRA_DIST += tests/bench/big-1ms.json

# ui (issue 3): make bench-ui
EXTRA_PROGRAMS += tests/bench/bench_ui
tests_bench_bench_ui_SOURCES = tests/bench/bench_ui.c $(UI_TEST_SCENE)
tests_bench_bench_ui_CFLAGS = $(TEST_CFLAGS)
tests_bench_bench_ui_LDADD = $(KG_LIBS)
.PHONY: bench-ui
bench: bench-ui
bench-ui: tests/bench/bench_ui tests/tmux/ui_driver
	tests/bench/bench_ui tests/tmux/ui_driver
# tests/bench: file lists (see Makefile.am)
# trace streams: log parse rate and following a 1 GiB log from its end
check_PROGRAMS += tests/bench/bench_trace
tests_bench_bench_trace_SOURCES = tests/bench/bench_trace.c tests/http/httpd.c tests/http/httpd.h
tests_bench_bench_trace_CFLAGS = $(libkgtop_a_CFLAGS)
tests_bench_bench_trace_LDADD = $(KG_LIBS)
bench: bench-trace
bench-trace: tests/bench/bench_trace
	./tests/bench/bench_trace
.PHONY: bench-trace

# record and replay: make bench-replay (one hour of 200 groups: size, as fast as possible, 32x in real time)
EXTRA_PROGRAMS += tests/bench/bench_replay
tests_bench_bench_replay_SOURCES = tests/bench/bench_replay.c tests/unit/record_fake.c tests/unit/record_fake.h
tests_bench_bench_replay_CFLAGS = $(TEST_CFLAGS)
tests_bench_bench_replay_LDADD = $(TEST_LIBS)
bench: bench-replay
bench-replay: tests/bench/bench_replay
	tests/bench/bench_replay
.PHONY: bench-replay

# scale (issue 15): the librdkafka floor of one full refresh, set against kgtop by bench_scale
EXTRA_PROGRAMS += tests/bench/bare_refresh
tests_bench_bare_refresh_SOURCES = tests/bench/bare_refresh.c
tests_bench_bare_refresh_CFLAGS = $(AM_CFLAGS) $(RDKAFKA_CFLAGS)
tests_bench_bare_refresh_LDADD = $(RDKAFKA_LIBS) $(LIBS)
EXTRA_PROGRAMS += tests/bench/bench_scale
tests_bench_bench_scale_SOURCES = tests/bench/bench_scale.c \
	tests/integration/fixture_util.c tests/integration/fixture_util.h
tests_bench_bench_scale_CFLAGS = $(TEST_CFLAGS)
tests_bench_bench_scale_LDADD = $(TEST_LIBS)
EXTRA_DIST += tests/fixture/scenarios/groups-10k.json tests/fixture/scenarios/idle-100.json \
	tests/fixture/scenarios/partitions-100k.json
bench: bench-scale
bench-scale: tests/bench/bench_scale tests/bench/bare_refresh tests/fixture-broker kgtop
	top_srcdir='$(abs_top_srcdir)' top_builddir='$(abs_top_builddir)' tests/bench/bench_scale
.PHONY: bench-scale
# serve (issue 14): make bench-serve (a scrape at 2,000 groups; 50 /stream viewers against none)
EXTRA_PROGRAMS += tests/bench/bench_serve
tests_bench_bench_serve_SOURCES = tests/bench/bench_serve.c \
	tests/integration/fixture_util.c tests/integration/fixture_util.h
tests_bench_bench_serve_CFLAGS = $(TEST_CFLAGS)
tests_bench_bench_serve_LDADD = $(TEST_LIBS)
bench: bench-serve
bench-serve: tests/bench/bench_serve tests/fixture-broker kgtop
	top_srcdir='$(abs_top_srcdir)' top_builddir='$(abs_top_builddir)' tests/bench/bench_serve
.PHONY: bench-serve
# issue 12: how long after --duration kgtop ends (the demo's teardown included): make bench-duration
EXTRA_DIST += tests/bench/duration.sh
bench: bench-duration
bench-duration: kgtop
	top_srcdir='$(abs_top_srcdir)' top_builddir='$(abs_top_builddir)' sh $(top_srcdir)/tests/bench/duration.sh
.PHONY: bench-duration
# issue 26: does the demo tell the same story every run (rounds, seconds, flags per group over 20 runs, ~7 min):
# make bench-demo (RUNS=, PAR=, DURATION= to change them)
EXTRA_DIST += tests/bench/demo_story.sh
bench: bench-demo
bench-demo: kgtop tests/tools/jsonq
	top_srcdir='$(abs_top_srcdir)' top_builddir='$(abs_top_builddir)' sh $(top_srcdir)/tests/bench/demo_story.sh
.PHONY: bench-demo
# progress (issue 10): make bench-progress (verdicts and time lag at 2,000 groups / 20,000 partitions;
# the broker requests they add, against the fixture broker)
EXTRA_PROGRAMS += tests/bench/bench_progress
tests_bench_bench_progress_SOURCES = tests/bench/bench_progress.c
tests_bench_bench_progress_CFLAGS = $(TEST_CFLAGS)
tests_bench_bench_progress_LDADD = $(TEST_LIBS)
EXTRA_DIST += tests/bench/progress_requests.sh tests/fixture/scenarios/progress-20k.json
bench: bench-progress
bench-progress: tests/bench/bench_progress tests/fixture-broker kgtop
	tests/bench/bench_progress
	top_srcdir='$(abs_top_srcdir)' top_builddir='$(abs_top_builddir)' sh $(top_srcdir)/tests/bench/progress_requests.sh
.PHONY: bench-progress
# librdkafka (issue 21): the describe path at 2,000 and 10,000 groups, against a broker before Kafka 3.7
# and a Kafka 4 one, for this build's librdkafka: make bench-describe
EXTRA_DIST += tests/bench/describe.sh
bench: bench-describe
bench-describe: tests/bench/bare_refresh tests/fixture-broker kgtop
	top_srcdir='$(abs_top_srcdir)' top_builddir='$(abs_top_builddir)' sh $(top_srcdir)/tests/bench/describe.sh
.PHONY: bench-describe
# __consumer_offsets (issue 23): make bench-offsets (10,000 groups, 1,000,000 records the fixture broker serves, loaded by kgtop)
EXTRA_PROGRAMS += tests/bench/bench_offsets
tests_bench_bench_offsets_SOURCES = tests/bench/bench_offsets.c
tests_bench_bench_offsets_CFLAGS = $(TEST_CFLAGS)
tests_bench_bench_offsets_LDADD = $(TEST_LIBS)
bench: bench-offsets
bench-offsets: tests/bench/bench_offsets tests/fixture-broker kgtop
	top_builddir='$(abs_top_builddir)' tests/bench/bench_offsets
.PHONY: bench-offsets
# cost of change (issue 24): --json's bytes a line and CPU against --full, /metrics' size and scrape time, at
# 10,000 groups x 20 partitions on the fixture broker: make bench-cost [KGTOP_BEFORE=an/earlier/kgtop]
EXTRA_DIST += tests/bench/cost.sh tests/bench/lib.sh
bench: bench-cost
bench-cost: tests/fixture-broker kgtop
	top_srcdir='$(abs_top_srcdir)' top_builddir='$(abs_top_builddir)' KGTOP_BEFORE='$(KGTOP_BEFORE)' sh $(top_srcdir)/tests/bench/cost.sh
.PHONY: bench-cost
# a flood of new members (issue 25, item 3): make bench-flood
bench: bench-flood
bench-flood: kgtop
	top_srcdir='$(abs_top_srcdir)' top_builddir='$(abs_top_builddir)' sh $(top_srcdir)/tests/bench/flood.sh
.PHONY: bench-flood
EXTRA_DIST += tests/bench/flood.sh
# --once at 100 groups (issue 24, item 4): the time-lag reads against brokers that hold an empty Fetch its
# max wait: make bench-once [KGTOP_BEFORE=an/earlier/kgtop]
EXTRA_DIST += tests/bench/once.sh tests/fixture/scenarios/once-100.json
bench: bench-once
bench-once: tests/fixture-broker kgtop
	top_srcdir='$(abs_top_srcdir)' top_builddir='$(abs_top_builddir)' KGTOP_BEFORE='$(KGTOP_BEFORE)' sh $(top_srcdir)/tests/bench/once.sh
.PHONY: bench-once
# attention by risk (issue 24, item 2): stall -> STALLED for the selected group and one off screen at
# 10,000 groups, and the requests a second: make bench-attention
EXTRA_PROGRAMS += tests/bench/bench_attention
tests_bench_bench_attention_SOURCES = tests/bench/bench_attention.c \
	tests/integration/fixture_util.c tests/integration/fixture_util.h
tests_bench_bench_attention_CFLAGS = $(TEST_CFLAGS)
tests_bench_bench_attention_LDADD = $(TEST_LIBS)
EXTRA_DIST += tests/fixture/scenarios/stall-10k.json
bench: bench-attention
bench-attention: tests/bench/bench_attention tests/fixture-broker
	top_srcdir='$(abs_top_srcdir)' top_builddir='$(abs_top_builddir)' tests/bench/bench_attention
.PHONY: bench-attention
# idle dashboard against htop (issue 24, item 5): kgtop and htop side by side in tmux at 80x24 and 160x48 on
# an idle 100-group cluster, CPU and bytes to the terminal: make bench-idle [KGTOP_BEFORE=an/earlier/kgtop]
EXTRA_DIST += tests/bench/idle.sh
bench: bench-idle
bench-idle: tests/fixture-broker kgtop tests/bench/bare_refresh
	top_srcdir='$(abs_top_srcdir)' top_builddir='$(abs_top_builddir)' KGTOP_BEFORE='$(KGTOP_BEFORE)' sh $(top_srcdir)/tests/bench/idle.sh
.PHONY: bench-idle

# the live dashboard at 10,000 groups thread by thread (issue 24, item 3): the model's share beside the refresh
# worker's and librdkafka's: make bench-dashboard [DASH_RUNS=3 DASH_WARM=60 DASH_SECONDS=30 DASH_SCENARIO=cost-10k.json]
EXTRA_DIST += tests/bench/dashboard.sh
bench: bench-dashboard
bench-dashboard: tests/fixture-broker kgtop
	top_srcdir='$(abs_top_srcdir)' top_builddir='$(abs_top_builddir)' sh $(top_srcdir)/tests/bench/dashboard.sh
.PHONY: bench-dashboard
