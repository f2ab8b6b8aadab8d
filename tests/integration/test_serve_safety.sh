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
#  - a /stream client that never reads;
#  - slowloris from two addresses (issue 25): 40 connections each from
#    127.0.0.2 and 127.0.0.3 sending their headers a byte every 8 s and
#    reopened as soon as they are closed, for 24 s, against the default
#    --serve-clients: a third address (127.0.0.4) asks /healthz every
#    0.5 s meanwhile and must never wait 2 s for an answer (it waited for
#    the whole attack before: the per-address limit left an eighth of the
#    slots to others, and the timeout counted idle time only), no
#    attacking connection lives past its deadline (10 s, and a second's
#    grace), and one address holds 8 at most;
#  - 200 scrapes at once from 25 addresses (with room for them:
#    --serve-clients 256) are all answered.
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

# collector ARGS...: kgtop -b the fixture -i 0.2 --json --serve 127.0.0.1:0 ARGS in the background, its lines in
# coll.out; sets KPID, URL, HP once it serves and answers /metrics (the status of that wait)
collector() {
	"$KGTOP" -b "$BOOTSTRAP" -i 0.2 --json --serve 127.0.0.1:0 "$@" >"$T_TMP/coll.out" 2>"$T_TMP/coll.err" &
	KPID=$!
	T_PIDS="$T_PIDS $KPID"
	t_wait_for 10 grep -q '^kgtop: serving ' "$T_TMP/coll.err" || { cat "$T_TMP/coll.err"; exit 1; }
	URL=$(sed -n 's/^kgtop: serving \([^ ]*\) .*/\1/p' "$T_TMP/coll.err")
	HP=${URL#http://}
	t_wait_for 10 metrics_ok
}

fixture_start join-range.json --manual || exit 1
collector --serve-clients 16
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

# ------------------------------------------ slowloris from two addresses
collector
HTTPLOAD_FROM=127.0.0.2 "$HTTPLOAD" trickle "$HP" 40 24 8000 >"$T_TMP/loris2" &
L2=$!
HTTPLOAD_FROM=127.0.0.3 "$HTTPLOAD" trickle "$HP" 40 24 8000 >"$T_TMP/loris3" &
L3=$!
attack two-address-slowloris env HTTPLOAD_FROM=127.0.0.4 "$HTTPLOAD" probe "$HP" /healthz 22 500
wait "$L2" "$L3"
echo "# 127.0.0.2: $(cat "$T_TMP/loris2"); 127.0.0.3: $(cat "$T_TMP/loris3")"
wait_ms=$(sed -n 's/.*longest_wait \([0-9]*\).*/\1/p' "$T_TMP/two-address-slowloris.res")
t_ok "$([ "${wait_ms:-99999}" -lt 2000 ]; echo $?)" "slowloris from two addresses: a third never waited 2 s for an answer (longest ${wait_ms} ms)"
for f in loris2 loris3; do
	longest=$(sed -n 's/.*longest \([0-9]*\).*/\1/p' "$T_TMP/$f")
	held=$(sed -n 's/held \([0-9]*\) .*/\1/p' "$T_TMP/$f")
	t_ok "$([ "${longest:-99999}" -le 11500 ] && [ "${held:-99}" -le 8 ]; echo $?)" \
		"$f: no trickling connection lived past its deadline (longest ${longest} ms), 8 held at most (${held})"
done
t_ok "$(kept_pace; echo $?)" "slowloris from two addresses: the collector kept its pace"
curl -s "$URL/metrics" >/dev/null
t_wait_for 5 sh -c "\"$JSONQ\" -l '.source[].message' <'$T_TMP/coll.out' | grep -q 'connections refused (8 per address at most), [1-9][0-9]* closed at their deadline'"
t_ok $? "the server's health says how many it refused and closed at their deadline"
kill -TERM "$KPID"
wait "$KPID"

# ------------------------------------------ 200 scrapes at once, 25 addresses
"$KGTOP" -b "$BOOTSTRAP" -i 0.5 --serve 127.0.0.1:0 --serve-clients 256 >/dev/null 2>"$T_TMP/many.err" &
KPID=$!
T_PIDS="$T_PIDS $KPID"
t_wait_for 10 grep -q '^kgtop: serving ' "$T_TMP/many.err"
URL=$(sed -n 's/^kgtop: serving \([^ ]*\) .*/\1/p' "$T_TMP/many.err")
HP=${URL#http://}
t_wait_for 10 metrics_ok
pids=""
for i in $(seq 10 34); do
	HTTPLOAD_FROM=127.0.0.$i "$HTTPLOAD" scrapes "$HP" /metrics 8 >"$T_TMP/scr.$i" &
	pids="$pids $!"
done
# shellcheck disable=SC2086
wait $pids
ok=$(cat "$T_TMP"/scr.* | awk '{ n += $2 } END { print n + 0 }')
t_is "$ok" 200 "200 scrapes at once from 25 addresses: every one answered 200"
kill -TERM "$KPID"
wait "$KPID"
fixture_stop
t_done
