#!/bin/sh
# once.sh (issue 24, item 4): make bench-once. The wall time of kgtop --once at 100 groups on the fixture
# broker (tests/fixture/scenarios/once-100.json: 50 Stable groups, 50 Empty, 100 topics x 6 partitions, lags of
# 0 to 4 records, so one Fetch reads a partition to its log end; the brokers hold a Fetch with nothing to give
# for its max wait, as Kafka does). The time-lag reads start one partition after another on one handle: a read
# started while the fetch of a partition already at its end is held waits for it, fetch.wait.max.ms (librdkafka's
# default 500 ms). Prints the median, fastest and slowest of ONCE_RUNS runs (default 9), the refresh's own time
# from kgtop's debug log (without the process's start and end), and the same for KGTOP_BEFORE beside when set
# (an earlier build, e.g. KGTOP_BEFORE=/work/main/kgtop). Figures and ratios, never a verdict (target: 150 ms).
set -u
: "${top_srcdir:=.}" "${top_builddir:=.}"
KGTOP="$top_builddir/kgtop"
RUNS=${ONCE_RUNS:-9}
BEFORE=${KGTOP_BEFORE:-}
. "$top_srcdir/tests/bench/lib.sh"
bench_init once
bench_fixture once once-100.json
B=$B_once

# runs BINARY NAME: RUNS runs of --once; prints "wall_median wall_min wall_max refresh_median reads" (ms)
runs() {
	j=0
	: >"$TMP/$2.wall"
	: >"$TMP/$2.refresh"
	while [ $j -lt "$RUNS" ]; do
		rm -f "$TMP/$2.log"
		t0=$(date +%s%N)
		"$1" -c none -b "$B" --once -v -v --log "$TMP/$2.log" >/dev/null 2>"$TMP/$2.err" ||
			{ echo "bench-once: $1 --once failed: $(cat "$TMP/$2.err")" >&2; }
		t1=$(date +%s%N)
		echo $(((t1 - t0) / 1000000)) >>"$TMP/$2.wall"
		# "kafka: refresh of 100 groups (...) in 68.1 ms (...)": the refresh alone
		sed -n 's/.*kafka: refresh of .* in \([0-9.]*\) ms (metadata.*/\1/p' "$TMP/$2.log" | tail -1 >>"$TMP/$2.refresh"
		sed -n 's/.*log-start, \([0-9]*\) records read).*/\1/p' "$TMP/$2.log" | tail -1 >"$TMP/$2.reads"
		j=$((j + 1))
	done
	w=$(sort -n "$TMP/$2.wall" | awk '{ v[NR] = $1 } END { printf "%d %d %d", v[int((NR + 1) / 2)], v[1], v[NR] }')
	r=$(sort -n "$TMP/$2.refresh" | awk '{ v[NR] = $1 } END { printf "%.1f", NR ? v[int((NR + 1) / 2)] : 0 }')
	echo "$w $r $(cat "$TMP/$2.reads" 2>/dev/null || echo 0)"
}

echo "bench-once: kgtop --once at 100 groups (600 partitions, 3 brokers holding an empty Fetch its max wait), $RUNS runs each"
set -- $(runs "$KGTOP" now)
n_med=$1
printf '  this build       --once %5d ms median (%d-%d), the refresh alone %6.1f ms, %d records read\n' "$1" "$2" "$3" "$4" "$5"
if [ -n "$BEFORE" ]; then
	set -- $(runs "$BEFORE" before)
	printf '  KGTOP_BEFORE     --once %5d ms median (%d-%d), the refresh alone %6.1f ms, %d records read\n' "$1" "$2" "$3" "$4" "$5"
	awk -v a="$n_med" -v b="$1" 'BEGIN { printf "  ratio (this / before): %.2f (target: --once <= 150 ms)\n", b ? a / b : 0 }'
else
	echo "  (KGTOP_BEFORE=path/to/an/earlier/kgtop puts it beside; target: --once <= 150 ms)"
fi
