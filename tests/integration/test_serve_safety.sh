#!/bin/sh
# test_serve_safety.sh: clients that misbehave cannot reach the collector.
# The real kgtop serves (--serve-clients 16: at most 14 from one address)
# while printing --json lines every 0.2 s; each attack runs for a few
# seconds and the test counts the collector's ticks meanwhile and their
# largest gap (printed), then checks the server answers again:
#  - slowloris: 40 requests whose headers trickle in (a line every 2 s,
#    for longer than the 10 s idle timeout): at most 14 are held, the rest
#    refused;
#  - a request with a 100 KiB header: refused (431), nothing else stops;
#  - 2,000 connections at once: all but the limit closed at once;
#  - a /stream client that never reads.
. "${top_srcdir:-.}/tests/cli/lib.sh"
export KGTOP_CONFIG=none
unset KGTOP_BROKERS
HTTPLOAD="$top_builddir/tests/tools/httpload"
if ! command -v curl >/dev/null; then
	echo "Bail out! curl not found: the --serve tests need it (apt-get install -y curl)"
	exit 1
fi

lines_of() { wc -l <"$1" | tr -d ' '; }
metrics_ok() { [ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 3 "$URL/metrics")" = 200 ]; }

# attack NAME COMMAND...: run it while counting the collector's ticks; prints the count and the largest gap
attack() {
	name=$1
	shift
	before=$(lines_of "$T_TMP/coll.out")
	t0=$(date +%s%N)
	"$@" >"$T_TMP/$name.res"
	t1=$(date +%s%N)
	after=$(lines_of "$T_TMP/coll.out")
	TICKS=$((after - before))
	MS=$(((t1 - t0) / 1000000))
	tail -n +"$before" "$T_TMP/coll.out" | head -n $((TICKS + 1)) | "$JSONQ" -l .time >"$T_TMP/ticks"
	GAP=$(awk -F'[T:Z]' '{ s = $2 * 3600 + $3 * 60 + $4; if (NR > 1 && s - p > g) g = s - p; p = s } END { printf "%.3f", g }' "$T_TMP/ticks")
	echo "# $name: $(cat "$T_TMP/$name.res"); the collector ticked $TICKS times in $MS ms (-i 0.2), largest gap ${GAP} s"
}
# kept_pace: at least half the ticks the interval asks for, and no gap of a second
kept_pace() { [ "$TICKS" -ge $((MS / 400)) ] && awk -v g="$GAP" 'BEGIN { exit !(g < 1.0) }'; }

fixture_start join-range.json --manual || exit 1
"$KGTOP" -b "$BOOTSTRAP" -i 0.2 --json --serve 127.0.0.1:0 --serve-clients 16 >"$T_TMP/coll.out" 2>"$T_TMP/coll.err" &
KPID=$!
T_PIDS="$T_PIDS $KPID"
t_wait_for 10 grep -q '^kgtop: serving ' "$T_TMP/coll.err" || { cat "$T_TMP/coll.err"; exit 1; }
URL=$(sed -n 's/^kgtop: serving \([^ ]*\) .*/\1/p' "$T_TMP/coll.err")
HP=${URL#http://}
t_wait_for 10 metrics_ok
t_ok $? "the server answers"

attack slowloris "$HTTPLOAD" slowloris "$HP" 40 12
held=$(sed -n 's/held \([0-9]*\) .*/\1/p' "$T_TMP/slowloris.res")
t_ok "$([ "${held:-99}" -le 14 ]; echo $?)" "slowloris: at most 14 slow requests held from one address ($held)"
t_ok "$(kept_pace; echo $?)" "slowloris: the collector kept its pace"
t_wait_for 15 metrics_ok
t_ok $? "after the slowloris the server answers again"

attack bigheader "$HTTPLOAD" bigheader "$HP" 102400
t_ok "$(grep -qx '431\|413\|400\|closed' "$T_TMP/bigheader.res"; echo $?)" "a 100 KiB header is refused ($(cat "$T_TMP/bigheader.res"))"
t_wait_for 5 metrics_ok
t_ok $? "after the huge header the server answers"

attack flood "$HTTPLOAD" flood "$HP" 2000 5
closed=$(sed -n 's/.*closed \([0-9]*\)/\1/p' "$T_TMP/flood.res")
t_ok "$([ "${closed:-0}" -ge 1984 ]; echo $?)" "2,000 connections at once: all but 16 closed by the server ($closed)"
t_ok "$(kept_pace; echo $?)" "the flood: the collector kept its pace"
t_wait_for 15 metrics_ok
t_ok $? "after the flood the server answers again"

attack stall "$HTTPLOAD" stall "$HP" /stream 5
t_ok "$(kept_pace; echo $?)" "a /stream client that never reads: the collector kept its pace"
t_wait_for 5 metrics_ok
t_ok $? "and the server answers"

kill -TERM "$KPID"
wait "$KPID"
t_ok $? "kgtop ends on SIGTERM with status 0 after all that"
fixture_stop
t_done
