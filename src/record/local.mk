# src/record: the recording format in one place: the recorder (--record),
# replay (--replay, a source; fed line by line for --attach), the JSON-lines trace reader and writer
# (--trace jsonl:, --export-trace), and the one table of observation
# fields their codecs share.  Includes only util/ and model/.
libkgtop_a_SOURCES += \
	src/record/format.h \
	src/record/json.c src/record/json.h \
	src/record/obs_codec.c src/record/obs_codec.h \
	src/record/jsonl.c src/record/jsonl.h \
	src/record/recorder.c src/record/recorder.h \
	src/record/replay.c src/record/replay.h src/record/replay_int.h \
	src/record/replay_file.c \
	src/record/replay_stage.c \
	src/record/replay_feed.c src/record/replay_feed.h
