# tests/fuzz: file lists (see Makefile.am)
# Parser fuzz targets (libFuzzer, clang only).  They link the pure parsers
# with the model and util code they use, never curses, curl or librdkafka.
# "make check" runs each for a few seconds (tests/fuzz/smoke.sh); "make
# fuzz" runs each for FUZZ_TIME seconds (default 60).
FUZZ_TARGETS = tests/fuzz/fuzz_log tests/fuzz/fuzz_jsonl tests/fuzz/fuzz_jolokia tests/fuzz/fuzz_rdstats \
	tests/fuzz/fuzz_config tests/fuzz/fuzz_props tests/fuzz/fuzz_cmdline tests/fuzz/fuzz_replay tests/fuzz/fuzz_offsets
FUZZ_DEPS = src/sources/trace/parse_lines.c src/sources/trace/parse_log.c src/record/jsonl.c src/record/obs_codec.c \
	src/record/json.c src/sources/trace/parse_jolokia.c src/sources/trace/parse_rdstats.c src/model/event.c \
	src/model/obs.c src/model/tp.c src/model/intern.c src/model/arena.c src/model/snapshot.c src/model/snapshot_finish.c src/model/rows.c src/model/names.c src/model/group.c \
	src/util/util.c src/util/filter.c src/util/hmap.c
# the config file, the properties file and the command line: the option
# parser, which tries file properties on librdkafka (linked, not fuzzed)
# and names the trace kinds from their table (with their parsers)
FUZZ_OPTIONS_DEPS = src/core/options.c src/core/options_file.c src/sources/kafka/rdprops.c src/util/util.c src/util/secfile.c \
	src/sources/trace/trace_kinds.c $(FUZZ_DEPS)
# the recording reader, replayed through the collector and the tracker, each frame as --json
FUZZ_REPLAY_DEPS = src/record/replay.c src/record/replay_file.c src/record/replay_stage.c src/record/obs_codec.c \
	src/record/json.c src/record/jsonl.c src/core/collector.c src/report/report.c src/report/groupcol.c \
	src/model/event.c src/model/history.c src/model/intern.c src/model/obs.c src/model/arena.c src/model/snapshot.c src/model/snapshot_finish.c src/model/rows.c \
	src/model/names.c src/model/progress.c $(KG_TRACKER_C) \
	src/model/source.c src/model/tp.c src/model/group.c src/model/lint.c \
	src/util/util.c src/util/filter.c src/util/hmap.c src/util/log.c src/util/secfile.c \
	$(FUZZ_OPTIONS_DEPS)
FUZZ_FLAGS = -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
	-I$(top_builddir) -I$(top_srcdir)/src $(CJSON_CFLAGS) -pthread
FUZZ_LINK = $(CJSON_LIBS) -lm
FUZZ_TIME = 60

tests/fuzz/fuzz_log: tests/fuzz/fuzz_log.c $(FUZZ_DEPS)
	@$(MKDIR_P) tests/fuzz
	$(AM_V_CCLD)$(CLANG) $(FUZZ_FLAGS) -o $@ $^ $(FUZZ_LINK)
tests/fuzz/fuzz_jsonl: tests/fuzz/fuzz_jsonl.c $(FUZZ_DEPS)
	@$(MKDIR_P) tests/fuzz
	$(AM_V_CCLD)$(CLANG) $(FUZZ_FLAGS) -o $@ $^ $(FUZZ_LINK)
tests/fuzz/fuzz_jolokia: tests/fuzz/fuzz_jolokia.c $(FUZZ_DEPS)
	@$(MKDIR_P) tests/fuzz
	$(AM_V_CCLD)$(CLANG) $(FUZZ_FLAGS) -o $@ $^ $(FUZZ_LINK)
tests/fuzz/fuzz_rdstats: tests/fuzz/fuzz_rdstats.c $(FUZZ_DEPS)
	@$(MKDIR_P) tests/fuzz
	$(AM_V_CCLD)$(CLANG) $(FUZZ_FLAGS) -o $@ $^ $(FUZZ_LINK)
tests/fuzz/fuzz_config: tests/fuzz/fuzz_config.c $(FUZZ_OPTIONS_DEPS)
	@$(MKDIR_P) tests/fuzz
	$(AM_V_CCLD)$(CLANG) $(FUZZ_FLAGS) $(RDKAFKA_CFLAGS) -o $@ $^ $(RDKAFKA_LIBS) $(FUZZ_LINK)
tests/fuzz/fuzz_props: tests/fuzz/fuzz_config.c $(FUZZ_OPTIONS_DEPS)
	@$(MKDIR_P) tests/fuzz
	$(AM_V_CCLD)$(CLANG) $(FUZZ_FLAGS) -DFUZZ_PROPERTIES $(RDKAFKA_CFLAGS) -o $@ $^ $(RDKAFKA_LIBS) $(FUZZ_LINK)
tests/fuzz/fuzz_cmdline: tests/fuzz/fuzz_cmdline.c $(FUZZ_OPTIONS_DEPS)
	@$(MKDIR_P) tests/fuzz
	$(AM_V_CCLD)$(CLANG) $(FUZZ_FLAGS) $(RDKAFKA_CFLAGS) -o $@ $^ $(RDKAFKA_LIBS) $(FUZZ_LINK)
tests/fuzz/fuzz_replay: tests/fuzz/fuzz_replay.c $(FUZZ_REPLAY_DEPS)
	@$(MKDIR_P) tests/fuzz
	$(AM_V_CCLD)$(CLANG) $(FUZZ_FLAGS) $(RDKAFKA_CFLAGS) -o $@ $^ $(RDKAFKA_LIBS) $(FUZZ_LINK)
# __consumer_offsets records: the decoder and the reader's folded state (no librdkafka), their observations recorded
tests/fuzz/fuzz_offsets: tests/fuzz/fuzz_offsets.c src/sources/offsets/offsets_record.c src/sources/offsets/offsets_state.c $(FUZZ_DEPS)
	@$(MKDIR_P) tests/fuzz
	$(AM_V_CCLD)$(CLANG) $(FUZZ_FLAGS) -o $@ $^ $(FUZZ_LINK)

if HAVE_CLANG
check_SCRIPTS += $(FUZZ_TARGETS)
TESTS += tests/fuzz/smoke.sh
endif
CLEANFILES += $(FUZZ_TARGETS)

fuzz: fuzz-trace
fuzz-trace: $(FUZZ_TARGETS)
	FUZZ_TIME=$(FUZZ_TIME) top_srcdir=$(top_srcdir) top_builddir=$(top_builddir) $(SHELL) $(top_srcdir)/tests/fuzz/smoke.sh
.PHONY: fuzz-trace

EXTRA_DIST += tests/fuzz/fuzz_log.c tests/fuzz/fuzz_jsonl.c tests/fuzz/fuzz_jolokia.c tests/fuzz/fuzz_rdstats.c \
	tests/fuzz/fuzz_config.c tests/fuzz/fuzz_cmdline.c tests/fuzz/fuzz_replay.c \
	tests/fuzz/fuzz_offsets.c tests/fuzz/corpus/offsets/all tests/fuzz/corpus/offsets/p03 tests/fuzz/corpus/offsets/p08 \
	tests/fuzz/corpus/offsets/p32 tests/fuzz/corpus/offsets/p43 tests/fuzz/corpus/offsets/p47 tests/fuzz/corpus/offsets/neg-offset \
	tests/fuzz/config.dict tests/fuzz/props.dict tests/fuzz/cmdline.dict \
	tests/fuzz/corpus/config/basic tests/fuzz/corpus/config/properties \
	tests/fuzz/corpus/config/cluster-name-from-file tests/fuzz/corpus/props/sasl \
	tests/fuzz/corpus/props/ssl tests/fuzz/corpus/cmdline/json tests/fuzz/corpus/cmdline/trace \
	tests/fuzz/corpus/replay/fixture-demo \
	tests/fuzz/smoke.sh tests/fuzz/log.dict tests/fuzz/jsonl.dict \
	tests/fuzz/corpus/log/preparing-2x tests/fuzz/corpus/log/stabilized-2x tests/fuzz/corpus/log/failed-2x \
	tests/fuzz/corpus/log/left-bracket-2x tests/fuzz/corpus/log/static-replaced tests/fuzz/corpus/log/now-empty \
	tests/fuzz/corpus/log/member-metadata-3x tests/fuzz/corpus/log/synced-3x tests/fuzz/corpus/log/removed-dynamic \
	tests/fuzz/corpus/log/left-4x tests/fuzz/corpus/log/preparing-leave-4x tests/fuzz/corpus/log/static-left-4x \
	tests/fuzz/corpus/log/epoch-848 tests/fuzz/corpus/log/fenced-848 tests/fuzz/corpus/log/static-rejoin-848 \
	tests/fuzz/corpus/log/temporarily-left-848 tests/fuzz/corpus/log/multi-line \
	tests/fuzz/corpus/jsonl/preparing tests/fuzz/corpus/jsonl/left-settings tests/fuzz/corpus/jsonl/joined-static \
	tests/fuzz/corpus/jsonl/revoked tests/fuzz/corpus/jsonl/metrics tests/fuzz/corpus/jsonl/assigned \
	tests/fuzz/corpus/jolokia/bulk tests/fuzz/corpus/jolokia/single tests/fuzz/corpus/jolokia/refused \
	tests/fuzz/corpus/rdstats/consumer tests/fuzz/corpus/rdstats/producer tests/fuzz/corpus/rdstats/maxpoll
# the __consumer_offsets fuzzer and its corpus (make distcheck builds it)
