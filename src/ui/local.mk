# src/ui: the curses dashboard (the only code that calls curses).
libkgtop_a_SOURCES += \
	src/ui/ui.c src/ui/ui.h \
	src/ui/screen.c src/ui/screen.h \
	src/ui/render.c \
	src/ui/overlay.c \
	src/ui/list.c \
	src/ui/keys.c \
	src/ui/text.c \
	src/ui/dump.c \
	src/ui/theme.c src/ui/theme.h \
	src/ui/glyph.c src/ui/glyph.h \
	src/ui/view_grid.c \
	src/ui/view_timeline.c src/ui/view_timeline.h \
	src/ui/view_timeline_note.c \
	src/ui/view_compare.c \
	src/ui/view_health.c \
	src/ui/view_events.c \
	src/ui/view_lag.c
