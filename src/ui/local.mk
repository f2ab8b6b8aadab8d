# src/ui: the curses dashboard.
libkgtop_a_SOURCES += src/ui/ui.h src/ui/ui_stub.c
