#!/bin/sh
# Run every fuzz target (the four trace parsers, the config file, the
# properties file, the command line, the recording reader, the
# __consumer_offsets decoder and state) briefly on its
# seed corpus (make check), or longer with FUZZ_TIME=seconds (make fuzz).  New inputs go to a temporary
# directory; a crash leaves its input as tests/fuzz/crash-TARGET-* in the
# build tree.  Output is TAP: one test point per target.
set -u
srcdir=${top_srcdir:-.}
builddir=${top_builddir:-.}
time=${FUZZ_TIME:-4}
status=0
echo "1..9"
for t in log jsonl jolokia rdstats config props cmdline replay offsets; do
	bin="$builddir/tests/fuzz/fuzz_$t"
	if [ ! -x "$bin" ]; then
		echo "not ok - fuzz_$t: not built"
		status=1
		continue
	fi
	work=$(mktemp -d "${TMPDIR:-/tmp}/kgtop-fuzz-$t.XXXXXX") || exit 1
	dict=""
	[ -f "$srcdir/tests/fuzz/$t.dict" ] && dict="-dict=$srcdir/tests/fuzz/$t.dict"
	len=8192
	[ "$t" = replay ] && len=65536
	if "$bin" -max_total_time="$time" -rss_limit_mb=1024 -max_len="$len" -timeout=20 -print_final_stats=1 \
		-artifact_prefix="$builddir/tests/fuzz/crash-$t-" $dict \
		"$work" "$srcdir/tests/fuzz/corpus/$t" >"$work.log" 2>&1; then
		runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work.log")
		echo "ok - fuzz_$t: ${runs:-?} runs in ${time}s"
	else
		echo "not ok - fuzz_$t: see the output below"
		tail -n 40 "$work.log"
		status=1
	fi
	rm -rf "$work" "$work.log"
done
exit $status
