# tests/cli: the binary from the command line (TAP shell tests).
check_PROGRAMS += tests/tools/jsonq
tests_tools_jsonq_SOURCES = tests/tools/jsonq.c
tests_tools_jsonq_CFLAGS = $(AM_CFLAGS) $(CJSON_CFLAGS)
tests_tools_jsonq_LDADD = $(CJSON_LIBS) -lm
TESTS += tests/cli/cli.sh tests/cli/sources.sh tests/cli/cmdline.sh tests/cli/harden.sh tests/cli/progress.sh tests/cli/describe.sh tests/cli/outputs.sh \
	tests/cli/honest.sh tests/cli/offsets.sh
# --json deltas against --full (issue 24): a reader of schema 5 as kgtop(1) tells
check_PROGRAMS += tests/tools/json_rebuild
tests_tools_json_rebuild_SOURCES = tests/tools/json_rebuild.c
tests_tools_json_rebuild_CFLAGS = $(AM_CFLAGS) $(CJSON_CFLAGS)
tests_tools_json_rebuild_LDADD = $(CJSON_LIBS)
TESTS += tests/cli/json_delta.sh
EXTRA_DIST += tests/cli/json_delta.sh tests/fixture/scenarios/churn.json tests/fixture/scenarios/cost-10k.json
EXTRA_DIST += tests/cli/describe.sh tests/cli/progress.sh tests/cli/cli.sh tests/cli/sources.sh tests/cli/cmdline.sh tests/cli/lib.sh tests/cli/harden.sh \
	tests/cli/harden-names.json tests/cli/outputs.sh tests/cli/hostile.sh tests/cli/honest.sh \
	tests/cli/offsets.sh tests/fixture/scenarios/offsets-records.json
# the output rule's own checker (tests/cli/outputs.sh, tests/tmux/outputs.sh)
check_PROGRAMS += tests/tools/safebytes
tests_tools_safebytes_SOURCES = tests/tools/safebytes.c
tests_tools_safebytes_CFLAGS = $(AM_CFLAGS)
EXTRA_DIST += tests/data/trace/seed-coop.jsonl
# the shape of src/: layers, file and function sizes (doc/DESIGN.md)
TESTS += tests/tools/layout.sh
EXTRA_DIST += tests/tools/layout.sh
# the test HTTP server as a program (tests/cli/harden.sh, the fault table)
check_PROGRAMS += tests/http-serve
tests_http_serve_SOURCES = tests/http/serve.c tests/http/httpd.c tests/http/httpd.h
tests_http_serve_CFLAGS = $(AM_CFLAGS) -I$(top_srcdir)/tests/http
