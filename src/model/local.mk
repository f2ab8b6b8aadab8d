# src/model: plain C, no curses / librdkafka / curl types.
# the tracker's files (tracker_int.h says what each holds); the fuzz targets link them too
KG_TRACKER_C = src/model/tracker.c src/model/tracker_base.c src/model/tracker_lanes.c \
	src/model/tracker_episode.c src/model/tracker_episode_cause.c src/model/tracker_episode_cost.c src/model/tracker_obs.c src/model/tracker_poll.c \
	src/model/tracker_annotate.c src/model/tracker_progress.c src/model/tracker_live.c src/model/tracker_records.c \
	src/model/tracker_kip.c
libkgtop_a_SOURCES += \
	src/model/intern.c src/model/intern.h \
	src/model/tp.c src/model/tp.h \
	src/model/arena.c src/model/arena.h src/model/snapshot.c src/model/snapshot_finish.c src/model/builder_int.h src/model/snapshot.h src/model/rows.c src/model/rows.h src/model/names.c src/model/group.c src/model/lint.c src/model/lint.h \
	src/model/obs.c src/model/obs.h \
	src/model/event.c src/model/event.h \
	src/model/history.c src/model/history.h \
	src/model/tracker.h src/model/tracker_int.h src/model/tracker_live.h \
	src/model/tracker_lanes.h src/model/tracker_episode.h src/model/tracker_progress.h \
	src/model/tracker_annotate.h src/model/tracker_fold.h src/model/tracker_kip.h $(KG_TRACKER_C) \
	src/model/progress.c src/model/progress.h \
	src/model/source.c src/model/source.h
libkgtop_a_SOURCES += src/model/defaults.h
# hooks on the collector (the recorder), the verdicts of trace line parsers
libkgtop_a_SOURCES += src/model/tap.h src/model/parse_rc.h
