#!/bin/sh
# idle.sh (issue 24, item 5): make bench-idle [KGTOP_BEFORE=an/earlier/kgtop]. The dashboard idle against htop
# on the same terminal and cluster: the real kgtop (-c none -b BROKER, its default interval) on the fixture
# broker's idle cluster of 100 groups (tests/fixture/scenarios/idle-100.json: 50 Stable, 50 Empty, nothing
# moves) and htop (its default settings, no user config: a refresh each 1.5 s; and beside it htop -d 10, a refresh
# each second as kgtop's default interval) run side by side, each in its own tmux session of the
# same size (80x24, then 160x48; IDLE_SIZES="COLSxROWS ..." for others), at the same time; KGTOP_BEFORE, when set, runs beside them too.
# Beside htop, this build also at htop's cadence (-i 1.5, a refresh each 1.5 s): each at its own default compares a
# refresh each second with one each 1.5 s; kgtop -i 1.5 against htop and kgtop against htop -d 10 compare like with like. Each kgtop has a
# fixture broker of its own (its requests a second are its own; IDLE_SCENARIO names another scenario). Each process's
# CPU is read from /proc/PID/stat (utime + stime, all threads; kgtop's main thread, the dashboard, also alone) over IDLE_SECONDS (default 30) after IDLE_WARM
# (default 60: the 50 frozen lags are asked every refresh until their freeze is settled, the STALLED rule's
# threshold, two refreshes and twice their gap between commits, 45-60 s here; a 10 s warm-up measured that
# phase, 83-163 requests a second, not the rest after it, about 20) and the bytes it wrote to its pane (tmux pipe-pane) over the same span; IDLE_RUNS runs (default
# 3) per size, medians printed with the ratio kgtop/htop. Figures and ratios, never a verdict (target: <= 1).
# CPU is each thread's time on a CPU as the scheduler counts it, in nanoseconds (/proc/PID/task/*/schedstat;
# /proc ticks of 1/100 s where that file is missing: one tick over 30 s is 0.033 % of a core, a tenth of htop's).
# Beside them, when tests/bench/bare_refresh is built (make bench-idle builds it), the floor: a bare
# librdkafka program on its own fixture broker asking each second only what any monitor refreshing each
# second must ask to see a change within it, the listing and the log ends of the topics the groups with
# members use (bare_refresh -F: no committed offsets, no model, no screen); kgtop/floor is what kgtop
# spends at rest beyond that floor, floor/htop whether the target (kgtop <= htop) is within a 1 s refresh's reach.
# Each process's wakeups a second are the kernel's count of its threads' voluntary context switches
# (/proc/PID/task/*/status: a thread that slept and was woken), like the requests a second not bound to
# the machine's load as CPU % is (kgtop's threads are named: kg-refresh, kg-logend, kg-collector, rdk:*).
set -u
: "${top_srcdir:=.}" "${top_builddir:=.}"
KGTOP="$top_builddir/kgtop"
BARE="$top_builddir/tests/bench/bare_refresh"
RUNS=${IDLE_RUNS:-3}
SECS=${IDLE_SECONDS:-30}
WARM=${IDLE_WARM:-60}
SIZES=${IDLE_SIZES:-80x24 160x48}
BEFORE=${KGTOP_BEFORE:-}
HTOP=$(command -v htop 2>/dev/null || true)
# a tmux server of its own for each run (SOCK, run by run: the cleanup ends the current one): a new session on the
# socket of a server still exiting from the last run's kill-server failed with "server exited unexpectedly"
SOCKBASE="kgtop-idle-$$"
SOCK=$SOCKBASE
RUNNO=0
. "$top_srcdir/tests/bench/lib.sh"
bench_init idle

command -v tmux >/dev/null || { echo "bench-idle: tmux is not installed"; exit 1; }
[ -n "$HTOP" ] || echo "bench-idle: htop is not installed (apt-get install htop): kgtop alone"
SCEN=${IDLE_SCENARIO:-idle-100.json}
# fixture NAME: a fixture broker of its own for kgtop NAME (its requests are that kgtop's); sets B_NAME
fixture() { bench_fixture "$1" "$SCEN"; }
requests() { bench_requests "$1"; }
fixture now
[ -n "$BEFORE" ] && fixture before
[ -n "$HTOP" ] && fixture cad
FLOOR=""
[ -x "$BARE" ] && FLOOR=1 && fixture floor && fixture plan

HZ=$(getconf CLK_TCK)
cpu() { bench_cpu_ns "$1"; }
# uicpu PID: the same for its main thread alone (kgtop's: the dashboard; the collector and librdkafka have their own)
uicpu() {
	if [ -r "/proc/$1/task/$1/schedstat" ]; then
		awk '{ print $1 }' "/proc/$1/task/$1/schedstat" 2>/dev/null
	else
		sed 's/.*) //' "/proc/$1/task/$1/stat" 2>/dev/null | awk -v hz="$HZ" '{ printf "%.0f\n", ($12 + $13) * 1e9 / hz }'
	fi
}
# wakeups PID: the voluntary context switches of all its threads so far (each a thread that slept and was woken)
wakeups() {
	cat /proc/"$1"/task/*/status 2>/dev/null | awk '/^voluntary_ctxt_switches/ { s += $2 } END { print s + 0 }'
}
# bytes NAME: what the pane of NAME has written so far
bytes() {
	stat -c %s "$TMP/$1.pipe" 2>/dev/null || echo 0
}

# start NAME COLS ROWS COMMAND...: a detached session of that size running COMMAND (exec'd: the pane's pid is it)
start() {
	n=$1 c=$2 r=$3
	shift 3
	: >"$TMP/$n.pipe"
	tmux -L "$SOCK" -f /dev/null new-session -d -s "$n" -x "$c" -y "$r" \
		"exec env TERM=xterm-256color LANG=C.UTF-8 HOME=/nonexistent $*" || return 1
	tmux -L "$SOCK" set-option -t "$n" status off >/dev/null
	tmux -L "$SOCK" resize-window -t "$n" -x "$c" -y "$r" 2>/dev/null
	tmux -L "$SOCK" pipe-pane -t "$n" -O "cat >>'$TMP/$n.pipe'"
	tmux -L "$SOCK" display-message -p -t "$n" '#{pane_pid}'
}

# one size: runs side by side, medians
NAMES="now"
[ -n "$BEFORE" ] && NAMES="$NAMES before"
[ -n "$HTOP" ] && NAMES="$NAMES cad htop htop1"
[ -n "$FLOOR" ] && NAMES="$NAMES floor plan"
echo "bench-idle: the dashboard idle on 100 groups against htop, side by side in tmux, ${SECS} s after ${WARM} s, $RUNS runs a size"
echo "  this build: $KGTOP${BEFORE:+; before: $BEFORE}; htop: ${HTOP:-none} (default settings, a refresh each 1.5 s; and -d 10, each second as kgtop); floor: $([ -n "$FLOOR" ] && echo "$BARE -F, -F -O" || echo "none (make tests/bench/bare_refresh)")"
echo "  load average before: $(cut -d' ' -f1 /proc/loadavg)"
for size in $SIZES; do
	cols=${size%x*} rows=${size#*x}
	for n in $NAMES; do : >"$TMP/$n.cpu"; : >"$TMP/$n.ui"; : >"$TMP/$n.req"; : >"$TMP/$n.bps"; : >"$TMP/$n.wk"; done
	j=0
	while [ $j -lt "$RUNS" ]; do
		pids=""
		RUNNO=$((RUNNO + 1))
		SOCK="$SOCKBASE-$RUNNO"
		for n in $NAMES; do
			case $n in
			now) p=$(start now "$cols" "$rows" "$KGTOP" -c none -b "$B_now") ;;
			before) p=$(start before "$cols" "$rows" "$BEFORE" -c none -b "$B_before") ;;
			cad) p=$(start cad "$cols" "$rows" "$KGTOP" -c none -i 1.5 -b "$B_cad") ;;
			htop) p=$(start htop "$cols" "$rows" "$HTOP") ;;
			htop1) p=$(start htop1 "$cols" "$rows" "$HTOP" -d 10) ;;
			floor)
				: >"$TMP/floor.pipe"
				"$BARE" -p 200 -F $((WARM + SECS + 30)) "$B_floor" >"$TMP/floor.out" 2>&1 &
				p=$!
				;;
			plan)
				: >"$TMP/plan.pipe"
				"$BARE" -p 200 -O -F $((WARM + SECS + 30)) "$B_plan" >"$TMP/plan.out" 2>&1 &
				p=$!
				;;
			esac
			[ -n "$p" ] || { echo "bench-idle: $n did not start (tmux: $(tmux -L "$SOCK" ls 2>&1 | head -1))"; exit 1; }
			eval "pid_$n=\$p"
		done
		sleep "$WARM" # the bench's span, not a synchronisation
		for n in $NAMES; do
			eval "p=\$pid_$n"
			eval "t0_$n=$(cpu "$p") u0_$n=$(uicpu "$p") w0_$n=$(wakeups "$p")"
			eval "b0_$n=$(bytes $n) r0_$n=$(requests $n)"
		done
		sleep "$SECS"
		for n in $NAMES; do
			eval "p=\$pid_$n"
			t1=$(cpu "$p") u1=$(uicpu "$p") w1=$(wakeups "$p")
			b1=$(bytes $n) r1=$(requests $n)
			eval "t0=\$t0_$n u0=\$u0_$n b0=\$b0_$n r0=\$r0_$n w0=\$w0_$n"
			if [ -z "$t1" ]; then
				echo "  $size run $((j + 1)): $n ended early" >&2
				tmux -L "$SOCK" capture-pane -p -t "$n" 2>/dev/null | head -5 >&2
				continue
			fi
			awk -v t="$((t1 - t0))" -v s="$SECS" 'BEGIN { printf "%.3f\n", t / 1e9 / s * 100 }' >>"$TMP/$n.cpu"
			awk -v t="$((u1 - u0))" -v s="$SECS" 'BEGIN { printf "%.3f\n", t / 1e9 / s * 100 }' >>"$TMP/$n.ui"
			awk -v r="$((r1 - r0))" -v s="$SECS" 'BEGIN { printf "%.1f\n", r / s }' >>"$TMP/$n.req"
			awk -v b="$((b1 - b0))" -v s="$SECS" 'BEGIN { printf "%.0f\n", b / s }' >>"$TMP/$n.bps"
			awk -v w="$((w1 - w0))" -v s="$SECS" 'BEGIN { printf "%.1f\n", w / s }' >>"$TMP/$n.wk"
		done
		for n in $NAMES; do
			tmux -L "$SOCK" send-keys -t "$n" q 2>/dev/null
		done
		[ -n "$FLOOR" ] && kill "$pid_floor" "$pid_plan" 2>/dev/null && wait "$pid_floor" "$pid_plan" 2>/dev/null
		k=0
		while [ $k -lt 30 ] && tmux -L "$SOCK" has-session 2>/dev/null; do
			k=$((k + 1))
			sleep 0.1 # poll for the sessions' end
		done
		tmux -L "$SOCK" kill-server 2>/dev/null
		j=$((j + 1))
	done
	med() { sort -n "$1" | awk '{ v[NR] = $1 } END { if (NR) printf "%s", v[int((NR + 1) / 2)]; else printf "nan" }'; }
	all() { sort -n "$1" | tr '\n' ' ' | sed 's/ $//'; }
	h="" h1="" f=""
	[ -n "$HTOP" ] && h=$(med "$TMP/htop.cpu") && h1=$(med "$TMP/htop1.cpu")
	pl=""
	[ -n "$FLOOR" ] && f=$(med "$TMP/floor.cpu") && pl=$(med "$TMP/plan.cpu")
	# ratio NAME A B: ", NAME A/B" (or NAME's B is 0)
	ratio() { awk -v n="$1" -v a="$2" -v b="$3" 'BEGIN { if (b > 0) printf ", %s %.2f", n, a / b; else printf ", %s: 0", n }'; }
	for n in $NAMES; do
		c=$(med "$TMP/$n.cpu") u=$(med "$TMP/$n.ui") rq=$(med "$TMP/$n.req") bps=$(med "$TMP/$n.bps") wk=$(med "$TMP/$n.wk")
		case $n in now) label="kgtop (this build)" ;; cad) label="kgtop -i 1.5" ;; before) label="kgtop (before)" ;; floor) label="floor (bare -F)" ;; plan) label="plan (bare -F -O)" ;; htop1) label="htop -d 10 (1 s)" ;; *) label="htop" ;; esac
		ratios=""
		case $n in
		now | before)
			[ -n "$h" ] && ratios="$(ratio kgtop/htop "$c" "$h")$(ratio "kgtop/htop -d 10" "$c" "$h1")"
			[ -n "$f" ] && ratios="$ratios$(ratio kgtop/floor "$c" "$f")$(ratio kgtop/plan "$c" "$pl")"
			;;
		cad) ratios=$(ratio "kgtop -i 1.5/htop (both a refresh each 1.5 s)" "$c" "$h") ;;
		floor) [ -n "$h" ] && ratios=$(ratio floor/htop "$c" "$h") ;;
		plan) [ -n "$h" ] && ratios=$(ratio plan/htop "$c" "$h") ;;
		esac
		main=""
		case $n in
		now | before | cad) main=$(printf ' (its dashboard thread %.2f %%; %.1f requests/s)' "$u" "$rq") ;;
		floor | plan) main=$(printf ' (%.1f requests/s)' "$rq") ;;
		esac
		main="$main; $wk wakeups/s"
		term="; $bps bytes/s to the terminal"
		case $n in floor | plan) term="" ;; esac
		printf '  %-7s %-19s CPU %5.3f %% of a core%s%s%s; runs: %s\n' \
			"$size" "$label" "$c" "$main" "$ratios" "$term" "$(all "$TMP/$n.cpu")"
	done
done
echo "  load average after: $(cut -d' ' -f1 /proc/loadavg)"
if [ -r /proc/self/schedstat ]; then
	echo "  (CPU: the scheduler's nanoseconds, /proc/PID/task/*/schedstat)"
else
	echo "  (CPU: /proc ticks of 1/$HZ s: over $SECS s one tick is $(awk -v hz="$HZ" -v s="$SECS" 'BEGIN { printf "%.3f", 100 / hz / s }') % of a core)"
fi
