#!/bin/sh
# dashboard.sh (issue 24, item 3): make bench-dashboard. The live dashboard at 10,000 groups, thread by thread:
# the real kgtop (-c none -b BROKER, its defaults) in a tmux pane of 160x48 on the fixture broker's
# cost-10k cluster (tests/fixture/scenarios/cost-10k.json: 10,000 groups x 20 partitions, 1,000 Stable groups
# of 3 members whose topics grow and whose commits keep up, 9,000 Empty ones on idle topics; DASH_SCENARIO
# names another). Over DASH_SECONDS (default 30) after DASH_WARM (default 60: the first refreshes ask every
# group), each thread's CPU as the scheduler counts it (/proc/PID/task/*/schedstat, nanoseconds), summed by
# thread name: the model (kg-collector: the snapshot built and derived each refresh), the dashboard (the main
# thread), the refresh worker (kg-refresh: the plan, the answers), the log ends (kg-logend) and librdkafka's
# own (rdk:*); the requests a second the fixture broker answered; DASH_RUNS runs (default 3), medians.
# Figures and shares, never a verdict.
set -u
: "${top_srcdir:=.}" "${top_builddir:=.}"
KGTOP="$top_builddir/kgtop"
RUNS=${DASH_RUNS:-3}
SECS=${DASH_SECONDS:-30}
WARM=${DASH_WARM:-60}
SCEN=${DASH_SCENARIO:-cost-10k.json}
SOCK="kgtop-dash-$$"
. "$top_srcdir/tests/bench/lib.sh"
bench_init dashboard
command -v tmux >/dev/null || { echo "bench-dashboard: tmux is not installed"; exit 1; }
[ -r /proc/self/schedstat ] || { echo "bench-dashboard: this kernel gives no /proc/PID/task/*/schedstat"; exit 1; }
bench_fixture dash "$SCEN" 600 # the broker builds 10,000 groups first
B=$B_dash

# threads PID: "name nanoseconds" of each thread, its name's digits and dashes dropped (rdk:broker1 -> rdk:broker)
threads() {
	for t in /proc/"$1"/task/*; do
		n=$(cat "$t/comm" 2>/dev/null) || continue
		c=$(awk '{ print $1 }' "$t/schedstat" 2>/dev/null) || continue
		echo "$(basename "$t") $n $c"
	done
}

echo "bench-dashboard: the dashboard (160x48) on $(basename "$SCEN"), ${SECS} s after ${WARM} s, $RUNS runs"
echo "  load average before: $(cut -d' ' -f1 /proc/loadavg)"
: >"$TMP/all"
j=0
while [ $j -lt "$RUNS" ]; do
	tmux -L "$SOCK" -f /dev/null new-session -d -s dash -x 160 -y 48 \
		"exec env TERM=xterm-256color LANG=C.UTF-8 HOME=/nonexistent $KGTOP -c none -b $B" || exit 1
	tmux -L "$SOCK" set-option -t dash status off >/dev/null
	p=$(tmux -L "$SOCK" display-message -p -t dash '#{pane_pid}')
	sleep "$WARM" # the bench's span, not a synchronisation
	threads "$p" | sort >"$TMP/a"
	r0=$(bench_requests dash)
	sleep "$SECS"
	threads "$p" | sort >"$TMP/b"
	r1=$(bench_requests dash)
	if ! kill -0 "$p" 2>/dev/null; then
		echo "  run $((j + 1)): kgtop ended early"
		tmux -L "$SOCK" capture-pane -p -t dash 2>/dev/null | head -5
		exit 1
	fi
	# per thread kind: percent of a core over the span (a thread started within it counts from 0)
	join -a 2 -e 0 -o 2.2,1.3,2.3 "$TMP/a" "$TMP/b" |
		awk -v s="$SECS" -v run=$j '{ k = $1; sub(/[-0-9]+$/, "", k); c[k] += ($3 - $2) / 1e9 / s * 100; t += ($3 - $2) / 1e9 / s * 100 }
			END { for (k in c) printf "%d %s %.3f\n", run, k, c[k]; printf "%d total %.3f\n", run, t }' >>"$TMP/all"
	awk -v r="$((r1 - r0))" -v s="$SECS" -v run=$j 'BEGIN { printf "%d requests/s %.1f\n", run, r / s }' >>"$TMP/all"
	tmux -L "$SOCK" send-keys -t dash q 2>/dev/null
	k=0
	while [ $k -lt 50 ] && tmux -L "$SOCK" has-session 2>/dev/null; do
		k=$((k + 1))
		sleep 0.1 # poll for the session's end
	done
	tmux -L "$SOCK" kill-server 2>/dev/null
	j=$((j + 1))
done
# medians by kind, with the share of the total
awk '{ v[$2] = v[$2] " " $3 } END { for (k in v) print k v[k] }' "$TMP/all" |
	awk '{ n = NF - 1; for (i = 2; i <= NF; i++) a[i - 1] = $i
		for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { x = a[i]; a[i] = a[j]; a[j] = x }
		printf "%s %s", $1, a[int((n + 1) / 2)]; for (i = 1; i <= n; i++) printf " %s", a[i]; printf "\n" }' >"$TMP/med"
tot=$(awk '$1 == "total" { print $2 }' "$TMP/med")
label() {
	case $1 in
	total) echo "the whole process" ;;
	kgtop) echo "the dashboard (main thread)" ;;
	kg-collector) echo "the model (kg-collector)" ;;
	kg-refresh) echo "the refresh worker (kg-refresh)" ;;
	kg-logend) echo "the log ends (kg-logend)" ;;
	rdk:main) echo "librdkafka's main thread" ;;
	rdk:broker) echo "librdkafka's broker threads" ;;
	*) echo "$1" ;;
	esac
}
sort -k2 -nr "$TMP/med" | while read -r k m rest; do
	if [ "$k" = requests/s ]; then
		printf '  %-34s %8.1f            runs: %s\n' "requests a second" "$m" "$rest"
	elif [ "$k" = total ]; then
		printf '  %-34s %7.2f %% of a core        runs: %s\n' "$(label "$k")" "$m" "$rest"
	else
		printf '  %-34s %7.2f %% of a core (%4.1f %%)  runs: %s\n' "$(label "$k")" "$m" \
			"$(awk -v a="$m" -v b="$tot" 'BEGIN { if (b > 0) print a / b * 100; else print 0 }')" "$rest"
	fi
done
echo "  load average after: $(cut -d' ' -f1 /proc/loadavg)"
echo "  (shares: of the whole process's median; CPU: the scheduler's nanoseconds, /proc/PID/task/*/schedstat)"
