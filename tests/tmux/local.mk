# tests/tmux: file lists (see Makefile.am)
# ui (issue 3): the dashboard in tmux, driven by a scripted source.
check_PROGRAMS += tests/tmux/ui_driver
tests_tmux_ui_driver_SOURCES = tests/tmux/ui_driver.c $(UI_TEST_SCENE)
tests_tmux_ui_driver_CFLAGS = $(TEST_CFLAGS) -I$(top_srcdir)/tests/unit
tests_tmux_ui_driver_LDADD = $(KG_LIBS)
TESTS += tests/tmux/ui.sh tests/tmux/kgtop.sh tests/tmux/colours.sh
EXTRA_DIST += tests/tmux/lib.sh tests/tmux/ui.sh tests/tmux/kgtop.sh tests/tmux/colours.sh
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
