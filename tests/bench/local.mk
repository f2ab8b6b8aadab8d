# tests/bench: file lists (see Makefile.am)
# trace streams: log parse rate and following a 1 GiB log from its end
check_PROGRAMS += tests/bench/bench_trace
tests_bench_bench_trace_SOURCES = tests/bench/bench_trace.c tests/http/httpd.c tests/http/httpd.h
tests_bench_bench_trace_CFLAGS = $(libkgtop_a_CFLAGS)
tests_bench_bench_trace_LDADD = $(KG_LIBS)
bench: bench-trace
bench-trace: tests/bench/bench_trace
	./tests/bench/bench_trace
.PHONY: bench-trace
