#!/bin/sh
# cost.sh (issue 24): make bench-cost. What kgtop's outputs cost at 10,000 groups x 20 partitions on the
# fixture broker (tests/fixture/scenarios/cost-10k.json: 1,000 Stable groups on topics that grow, their
# commits keeping up, 9,000 Empty groups on idle topics), figures and ratios, never a verdict:
#  - --json -i 1 as it is (a line carries what changed, a keyframe every --keyframe) against --json --full
#    (every group every line, the previous behaviour): lines, bytes per line (mean and largest) and keyframes
#    over a steady window after a warm-up (every group described once: --full-refresh is 30 s), and kgtop's
#    CPU over that window (the scheduler's nanoseconds of all its threads, lib.sh, over the wall time) as a share of one core;
#  - /metrics of kgtop --serve: series, bytes and seconds per scrape (curl), for this build and, when
#    KGTOP_BEFORE names another kgtop binary (an earlier build), for it beside (its --json -i 1 too).
# COST_WARM and COST_SECS set the warm-up and the window (default 40 and 30 s); COST_SCRAPES the scrapes (5);
# COST_WINDOW the --lag-window (30s: the lag sparks, which change at each of their 16 steps while the window
# fills, are full before the measured window, as they are in any run longer than its --lag-window).
set -u
: "${top_srcdir:=.}" "${top_builddir:=.}"
KGTOP="$top_builddir/kgtop"
WARM=${COST_WARM:-40}
WINDOW=${COST_WINDOW:-30s} # --lag-window: each partition's lag_spark fills in over it, a change a step; filled before the window
SECS=${COST_SECS:-30}
SCRAPES=${COST_SCRAPES:-5}
BEFORE=${KGTOP_BEFORE:-}
. "$top_srcdir/tests/bench/lib.sh"
bench_init cost
bench_fixture cost cost-10k.json 300 # the broker builds 10,000 groups before it is ready
B=$B_cost

# cpu PID: the process's CPU time so far, in nanoseconds (lib.sh)
cpu() {
	bench_cpu_ns "$1"
}

# json NAME BINARY ARGS...: a --json -i 1 run; prints "lines bytes_mean bytes_max keyframes cpu_percent" of the window
json() {
	name=$1
	bin=$2
	shift 2
	# each line's length and whether it is a keyframe, as it comes (a --full line at this size is tens of MB)
	mkfifo "$TMP/$name.fifo"
	# (perl: mawk stalls on lines of tens of MB, which would block kgtop's writes)
	perl -ne '$| = 1; print length($_), " ", (substr($_, 0, 40) =~ /"keyframe":true/ ? 1 : 0), "\n"' \
		<"$TMP/$name.fifo" >"$TMP/$name.len" &
	"$bin" -c none -b "$B" --json -i 1 --lag-window "$WINDOW" --duration $((WARM + SECS + 10)) "$@" >"$TMP/$name.fifo" \
		2>"$TMP/$name.err" &
	pid=$!
	sleep "$WARM"
	n0=$(wc -l <"$TMP/$name.len")
	c0=$(cpu "$pid")
	t0=$(date +%s.%N)
	sleep "$SECS"
	n1=$(wc -l <"$TMP/$name.len")
	c1=$(cpu "$pid")
	t1=$(date +%s.%N)
	kill "$pid" 2>/dev/null
	wait
	awk -v a="$n0" -v b="$n1" -v c0="$c0" -v c1="$c1" -v t0="$t0" -v t1="$t1" '
		NR > a && NR <= b { n++; s += $1; if ($1 > m) m = $1; k += $2 }
		END { printf "%d %.0f %d %d %.1f\n", n, n ? s / n : 0, m, k, (c1 - c0) / 1e9 / (t1 - t0) * 100 }' "$TMP/$name.len"
}

# metrics NAME BINARY: a headless --serve run; prints "series bytes seconds_median seconds_max" of the scrapes
metrics() {
	"$2" -c none -b "$B" -i 1 --serve 127.0.0.1:0 --duration $((WARM + 30)) </dev/null >/dev/null 2>"$TMP/$1.err" &
	mpid=$!
	sleep "$WARM"
	url=$(sed -n 's/^kgtop: serving \([^ ]*\) .*/\1/p' "$TMP/$1.err" | head -1)
	[ -n "$url" ] || { echo "0 0 0 0"; kill "$mpid" 2>/dev/null; wait "$mpid" 2>/dev/null; return; }
	curl -s -o "$TMP/$1.prom" "$url/metrics"
	j=0
	while [ $j -lt "$SCRAPES" ]; do
		curl -s -o /dev/null -w '%{time_total}\n' "$url/metrics"
		j=$((j + 1))
	done >"$TMP/$1.times"
	kill "$mpid" 2>/dev/null
	wait "$mpid" 2>/dev/null
	series=$(grep -vc '^#' "$TMP/$1.prom")
	bytes=$(wc -c <"$TMP/$1.prom")
	sort -n "$TMP/$1.times" | awk -v s="$series" -v b="$bytes" '{ v[NR] = $1 } END { printf "%d %d %.3f %.3f\n", s, b, v[int((NR + 1) / 2)], v[NR] }'
}

echo "bench-cost: 10,000 groups x 20 partitions (1,000 live) on the fixture broker, warm-up $WARM s, window $SECS s, --lag-window $WINDOW"
set -- $(json delta "$KGTOP")
d_lines=$1 d_mean=$2 d_max=$3 d_keys=$4 d_cpu=$5
set -- $(json full "$KGTOP" --full)
f_lines=$1 f_mean=$2 f_max=$3 f_keys=$4 f_cpu=$5
printf '  --json -i 1          %3d lines (%d keyframes), %10d bytes a line on average, largest %10d, CPU %5.1f %% of a core\n' \
	"$d_lines" "$d_keys" "$d_mean" "$d_max" "$d_cpu"
printf '  --json --full -i 1   %3d lines (%d keyframes), %10d bytes a line on average, largest %10d, CPU %5.1f %% of a core\n' \
	"$f_lines" "$f_keys" "$f_mean" "$f_max" "$f_cpu"
awk -v dm="$d_mean" -v fm="$f_mean" -v dc="$d_cpu" -v fc="$f_cpu" 'BEGIN {
	printf "  ratio (--json / --full): bytes a line %.4f (%.0fx fewer), CPU %.2f (targets: <= 1 MB a line, <= 25 %% of a core)\n",
		fm ? dm / fm : 0, dm ? fm / dm : 0, fc ? dc / fc : 0 }'
if [ -n "$BEFORE" ]; then
	# the same --json run of the earlier build, under the same load as this one's
	set -- $(json before "$BEFORE")
	printf '  --json -i 1 (KGTOP_BEFORE) %3d lines (%d keyframes), %10d bytes a line on average, largest %10d, CPU %5.1f %% of a core\n' \
		"$1" "$4" "$2" "$3" "$5"
	awk -v dm="$d_mean" -v bm="$2" -v dc="$d_cpu" -v bc="$5" 'BEGIN {
		printf "  ratio (--json: this / before): bytes a line %.2f, CPU %.2f\n", bm ? dm / bm : 0, bc ? dc / bc : 0 }'
fi

set -- $(metrics now "$KGTOP")
printf '  /metrics (this build)    %7d series, %9d bytes, scrape %.3f s median, %.3f s max of %d\n' "$1" "$2" "$3" "$4" "$SCRAPES"
if [ -n "$BEFORE" ]; then
	n_series=$1 n_bytes=$2 n_med=$3
	set -- $(metrics before "$BEFORE")
	printf '  /metrics (KGTOP_BEFORE)  %7d series, %9d bytes, scrape %.3f s median, %.3f s max of %d\n' "$1" "$2" "$3" "$4" "$SCRAPES"
	awk -v a="$n_bytes" -v b="$2" -v sa="$n_series" -v sb="$1" -v ta="$n_med" -v tb="$3" 'BEGIN {
		printf "  ratio (this / before): series %.2f, bytes %.2f, scrape time %.2f (targets: <= 5 MB, <= 0.1 s)\n",
			sb ? sa / sb : 0, b ? a / b : 0, tb ? ta / tb : 0 }'
else
	echo "  (KGTOP_BEFORE=path/to/an/earlier/kgtop puts its /metrics beside; targets: <= 5 MB, <= 0.1 s)"
fi
