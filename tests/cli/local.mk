# tests/cli: the binary from the command line (TAP shell tests).
check_PROGRAMS += tests/tools/jsonq
tests_tools_jsonq_SOURCES = tests/tools/jsonq.c
tests_tools_jsonq_CFLAGS = $(AM_CFLAGS) $(CJSON_CFLAGS)
tests_tools_jsonq_LDADD = $(CJSON_LIBS) -lm
TESTS += tests/cli/cli.sh tests/cli/sources.sh tests/cli/harden.sh
EXTRA_DIST += tests/cli/cli.sh tests/cli/sources.sh tests/cli/lib.sh tests/cli/harden.sh tests/cli/harden-names.json
EXTRA_DIST += tests/data/trace/seed-coop.jsonl
# the shape of src/: layers, file and function sizes (doc/DESIGN.md)
TESTS += tests/tools/layout.sh
EXTRA_DIST += tests/tools/layout.sh
