# src/report: reporters without curses (--once, --json).
libkgtop_a_SOURCES += src/report/report.c src/report/report.h
libkgtop_a_SOURCES += src/report/json_delta.c src/report/json_delta.h src/report/json_scan.c src/report/json_scan.h
libkgtop_a_SOURCES += src/report/groupcol.c src/report/groupcol.h
libkgtop_a_SOURCES += src/report/run.c src/report/run.h
libkgtop_a_SOURCES += src/report/metrics.c src/report/metrics.h
libkgtop_a_SOURCES += src/report/check.c src/report/check.h
