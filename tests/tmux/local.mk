# tests/tmux: file lists (see Makefile.am)
# ui (issue 3): the dashboard in tmux, driven by a scripted source.
check_PROGRAMS += tests/tmux/ui_driver
tests_tmux_ui_driver_SOURCES = tests/tmux/ui_driver.c $(UI_TEST_SCENE)
tests_tmux_ui_driver_CFLAGS = $(TEST_CFLAGS) -I$(top_srcdir)/tests/unit
tests_tmux_ui_driver_LDADD = $(KG_LIBS)
TESTS += tests/tmux/ui.sh tests/tmux/kgtop.sh tests/tmux/colours.sh
EXTRA_DIST += tests/tmux/lib.sh tests/tmux/ui.sh tests/tmux/kgtop.sh tests/tmux/colours.sh
# scale (issue 15): the dashboard tells the kafka source what it shows
TESTS += tests/tmux/tiers.sh
EXTRA_DIST += tests/tmux/tiers.sh
# at rest (issue 24, item 5): a whole frame a snapshot, the header alone for the clock between
TESTS += tests/tmux/rest.sh
EXTRA_DIST += tests/tmux/rest.sh
# between refreshes (issue 24, item 5): the kafka source's worker sleeps until the next
TESTS += tests/tmux/between.sh
EXTRA_DIST += tests/tmux/between.sh
# the metadata kept between refreshes (issue 24, item 5): every 10 s at rest, at the next refresh once something says it changed
TESTS += tests/tmux/metadata.sh
EXTRA_DIST += tests/tmux/metadata.sh
# attention by risk (issue 24): a stall in a group off screen, named in the status line, counted in the header
TESTS += tests/tmux/attention.sh
EXTRA_DIST += tests/tmux/attention.sh
# serve (issue 14): three --attach viewers on one --serve collector, one set of broker requests
TESTS += tests/tmux/attach.sh
EXTRA_DIST += tests/tmux/attach.sh
# make screenshots: regenerate screenshots/ (not run by CI; PNGs need chromium)
EXTRA_DIST += screenshots/make.sh screenshots/ansi2html.py screenshots/README.md
screenshots: kgtop
	top_srcdir='$(abs_top_srcdir)' top_builddir='$(abs_top_builddir)' sh $(top_srcdir)/screenshots/make.sh
# sgr: the colours at some text in a capture-pane -e (tests/tmux/colours.sh)
check_PROGRAMS += tests/tools/sgr
tests_tools_sgr_SOURCES = tests/tools/sgr.c
tests_tools_sgr_CFLAGS = $(AM_CFLAGS)
# progress (issue 10): TIME-LAG and VERDICT in the list, the lag view, a stall STALLED before the kick, on the demo
TESTS += tests/tmux/lag.sh
EXTRA_DIST += tests/tmux/lag.sh
# on call (issue 26): worst first, the sort menu, the header's cluster, the clock, a viewer whose collector died
TESTS += tests/tmux/oncall.sh
EXTRA_DIST += tests/tmux/oncall.sh
# the output rule (issue 25): hostile names on the dashboard, its bytes read by tests/tools/safebytes
TESTS += tests/tmux/outputs.sh
EXTRA_DIST += tests/tmux/outputs.sh
