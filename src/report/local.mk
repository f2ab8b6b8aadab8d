# src/report: reporters without curses (--once, --json), the recorder.
libkgtop_a_SOURCES += src/report/report.c src/report/report.h
libkgtop_a_SOURCES += src/report/groupcol.c src/report/groupcol.h
libkgtop_a_SOURCES += src/report/record.c src/report/record.h
libkgtop_a_SOURCES += src/report/run.c src/report/run.h
