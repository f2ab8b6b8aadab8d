#!/bin/sh
# progress.sh: lag verdicts, time lag and --check against the fixture broker's progress.json
# (frozen commits while the log grows, a slow consumer, a rewind, retention past a committed
# offset, a compacted topic, records without timestamps), through --once, --json and --check.
# The scenario's steps advance on SIGUSR1 only (--manual); every wait polls with a deadline.
. "${top_srcdir:-.}/tests/cli/lib.sh"

fixture_start progress.json --manual || { t_ok 1 "fixture broker starts"; t_done; exit 1; }
B="$BOOTSTRAP"

# check_until SECONDS WANT-RC OUT ARGS...: run `kgtop --check ARGS` until it exits WANT-RC (deadline), line in OUT
check_until() {
	cu_deadline=$(($(date +%s) + $1))
	cu_want=$2
	cu_out=$3
	shift 3
	while :; do
		"$KGTOP" -b "$B" --check "$@" >"$cu_out" 2>"$cu_out.err"
		cu_rc=$?
		[ "$cu_rc" -eq "$cu_want" ] && return 0
		[ "$(date +%s)" -ge "$cu_deadline" ] && { echo "#   last exit $cu_rc: $(cat "$cu_out")"; return 1; }
	done
}

# ---------------------------------------------------------------- --once
"$KGTOP" -b "$B" --once >"$T_TMP/once" 2>"$T_TMP/once.err"
t_is $? 0 "--once exits 0"
t_is "$(grep -m1 '^GROUP  *TOPIC' "$T_TMP/once" | tr -s ' ')" \
	"GROUP TOPIC PARTITION CURRENT-OFFSET LOG-END-OFFSET LAG CONSUMER-ID HOST CLIENT-ID TIME-LAG STATUS" \
	"--once has kafka-consumer-groups.sh --describe's columns in its order, then TIME-LAG and STATUS"
# every row of every partition table has 11 fields: nothing blank, '-' where unknown
t_is "$(awk '/^GROUP  *TOPIC/{t=1;next} /^$/{t=0} t && NF!=11{print}' "$T_TMP/once")" "" \
	"every partition row has eleven fields"
t_is "$(awk '$1=="g-stall" && $2=="events" && $3==2 {print $4, $7 != "-", $9}' "$T_TMP/once")" "4990 1 worker-2" \
	"a row carries the committed offset, the consumer and its client id"
t_is "$(awk '$1=="g-stall" && $2=="events" && $3==2 {print ($10 ~ /^[0-9]/)}' "$T_TMP/once")" 1 \
	"--once reads the record at the committed offset: an exact time lag"
t_contains "$T_TMP/once" "time lag     no timestamp: legacy 0" "a record without a timestamp says so"
t_contains "$T_TMP/once" "time lag     compacted gap: profiles 0" "a compacted gap says so"
t_is "$(awk '$1=="g-odd" && $2=="legacy" {print ($10 == "-" || $10 ~ /^>/)}' "$T_TMP/once")" 1 \
	"and its TIME-LAG is no measurement: '-' or a lower bound ('>')"

# records stamped an hour ahead of kgtop's clock: the time lag is clamped at zero, and says so
"$KGTOP" -b "$B" -g '^g-skew$' --once >"$T_TMP/skew" 2>&1
t_contains "$T_TMP/skew" "time lag     clock skew (clamped at 0): ahead 0" "a record stamped ahead of the clock says clock skew"
t_is "$(awk '$1=="g-skew" && $2=="ahead" {print $10}' "$T_TMP/skew")" "0.0s" "and its time lag is clamped at zero"
"$KGTOP" -b "$B" -g '^g-skew$' --once --json >"$T_TMP/skew.json" 2>&1
t_is "$("$JSONQ" .groups[0].partitions[0].time_lag_ms <"$T_TMP/skew.json") $("$JSONQ" .groups[0].partitions[0].time_lag_reason <"$T_TMP/skew.json")" \
	"0 clock_skew" "--json: time_lag_ms 0, time_lag_reason clock_skew"

# ---------------------------------------------------------------- --json
"$KGTOP" -b "$B" -g '^g-(stall|odd)$' --once --json >"$T_TMP/json" 2>"$T_TMP/json.err"
t_is $? 0 "--once --json exits 0"
t_is "$("$JSONQ" .version <"$T_TMP/json")" 10 "the JSON is schema version 10"
t_is "$("$JSONQ" .groups[1].partitions[2].committed <"$T_TMP/json") $("$JSONQ" .groups[1].partitions[2].log_start <"$T_TMP/json")" \
	"4990 0" "a partition carries its committed offset and log start"
t_is "$("$JSONQ" .groups[1].partitions[2].time_lag_kind <"$T_TMP/json")" exact "its time lag is exact (the record read)"
t_is "$("$JSONQ" .groups[0].partitions[0].time_lag_reason <"$T_TMP/json")" no_timestamp "a record without a timestamp: the reason"
t_is "$("$JSONQ" .groups[0].partitions[1].time_lag_reason <"$T_TMP/json")" gap "a compacted gap: the reason"
t_is "$("$JSONQ" .groups[1].verdicts.PENDING <"$T_TMP/json")" 4 "one refresh judges no partition with lag: not judged yet"
t_is "$("$JSONQ" .groups[1].verdict <"$T_TMP/json") $("$JSONQ" .groups[1].partitions[0].verdict <"$T_TMP/json")" \
	"PENDING PENDING" "and the group is not judged either (never OK before judged)"
t_wait_for 5 grep -q '"rejected_writes":{' "$FIXTURE_STATS" || { echo "# stats: $(ls -la "$T_TMP")"; cat "$FIXTURE_STATS"; }
t_is "$(grep -o '"rejected_writes":{[^}]*}' "$FIXTURE_STATS" | grep -o ':[0-9][0-9]*' | sort -u)" ":0" \
	"reading records never joined, committed, left a group or produced"

# ---------------------------------------------------------------- --check: OK, WARNING, UNKNOWN
"$KGTOP" -b "$B" -g '^g-rewind$' --check >"$T_TMP/once-check" 2>&1
t_is $? 3 "--check of one refresh on a group with lag: its commits are not judged yet, UNKNOWN (never OK)"
t_contains "$T_TMP/once-check" "KGTOP UNKNOWN - g-rewind UNKNOWN: 4 partitions not judged yet [0 1 2 3] (--duration 32 judges commits)" \
	"naming the partitions and the --duration that would judge them"
"$KGTOP" -b "$B" -g '^g-rewind$' -i 0.3 --lag-window 10 --duration 3 --check >"$T_TMP/ok" 2>&1
t_is $? 0 "--check --duration on a group that keeps up exits 0"
t_is "$(cut -c1-18 "$T_TMP/ok")" "KGTOP OK - g-rewin" "the line says KGTOP OK"
t_contains "$T_TMP/ok" "| 'g-rewind lag'=" "with performance data after '|'"
"$KGTOP" -b "$B" -g '^g-stall$' --check --warn-lag 10 --crit-lag 1000000000 >"$T_TMP/warn" 2>&1
t_is $? 1 "--check over --warn-lag exits 1"
t_contains "$T_TMP/warn" "KGTOP WARNING - g-stall WARNING: " "the line says WARNING"
t_contains "$T_TMP/warn" ", lag " "and why"
t_contains "$T_TMP/warn" "'g-stall lag'=" "perfdata carries the lag"
t_contains "$T_TMP/warn" ";10;1000000000;0;" "and the thresholds"
"$KGTOP" -b "$B" -g '^g-slow$' --check --crit-lag 100 >"$T_TMP/critlag" 2>&1
t_is $? 2 "--check over --crit-lag exits 2"
"$KGTOP" -b "$B" -g '^no-such-group$' --check >"$T_TMP/absent" 2>&1
t_is $? 3 "--check on an absent group exits 3"
t_contains "$T_TMP/absent" "KGTOP UNKNOWN - no consumer group matches" "and says UNKNOWN"
"$KGTOP" -b 127.0.0.1:1 --check --timeout 5 >"$T_TMP/down" 2>&1
t_is $? 3 "--check on an unreachable cluster exits 3"
t_contains "$T_TMP/down" "KGTOP UNKNOWN - kafka:" "in the cluster's words"
"$KGTOP" --check >"$T_TMP/usage" 2>&1
t_is $? 3 "--check without a cluster is a usage error: UNKNOWN"
t_contains "$T_TMP/usage" "KGTOP UNKNOWN - usage: --check reports on a cluster" "said on the status line"
"$KGTOP" -b "$B" --check --demo >/dev/null 2>&1
t_is $? 3 "--check never judges the demo"
"$KGTOP" -b "$B" --once --warn-lag 5 >/dev/null 2>&1
t_is $? 2 "thresholds without --check are a usage error"

# ---------------------------------------------------------------- frozen commits: STALLED
check_until 40 2 "$T_TMP/stall" -g '^g-stall$' -i 0.3 --lag-window 10 --duration 3
t_is $? 0 "frozen commits while the log grows: --check exits 2"
t_contains "$T_TMP/stall" "g-stall CRITICAL: 2 partitions STALLED [2 3] since between " "two partitions STALLED, named, since when"
t_contains "$T_TMP/stall" " (the waiting record's time) and " "the since bounded by the record waiting at the committed offset"
t_contains "$T_TMP/stall" "'g-stall stalled'=2;" "perfdata counts them"

# the member whose commits froze is not "consuming" any more; the one that commits is
"$KGTOP" -b "$B" -g '^g-stall$' -i 0.3 --lag-window 10 --json --full --duration 6 >"$T_TMP/frozen.jsonl" 2>"$T_TMP/frozen.err"
t_is $? 0 "--json --duration on g-stall exits 0"
tail -1 "$T_TMP/frozen.jsonl" >"$T_TMP/frozen.json"
t_is "$("$JSONQ" .groups[0].members[1].client_id <"$T_TMP/frozen.json") $("$JSONQ" .groups[0].members[1].status <"$T_TMP/frozen.json")" \
	"worker-2 silent" "worker-2, whose commits froze, is silent"
t_contains "$T_TMP/frozen.json" "commits overdue" "and says why: its commits are overdue"
t_is "$("$JSONQ" .groups[0].members[0].client_id <"$T_TMP/frozen.json") $("$JSONQ" .groups[0].members[0].status <"$T_TMP/frozen.json")" \
	"worker-1 consuming" "worker-1, whose commits move, is consuming"
t_is "$("$JSONQ" .groups[0].partitions[2].verdict <"$T_TMP/frozen.json") $("$JSONQ" .groups[0].partitions[0].verdict <"$T_TMP/frozen.json")" \
	"STALLED OK" "--json: its partitions STALLED, worker-1's OK"
grep -q '"verdict":"STALLED","verdict_from":' "$T_TMP/frozen.jsonl"
t_ok $? "--json carries the verdict change as an event"

# ---------------------------------------------------------------- a slow consumer: SLOW
check_until 60 1 "$T_TMP/slow" -g '^g-slow$' -i 0.3 --lag-window 10 --duration 7
t_is $? 0 "a slow consumer: --check exits 1"
t_contains "$T_TMP/slow" "g-slow WARNING: 2 partitions SLOW" "its partitions are SLOW"

# ---------------------------------------------------------------- /metrics: verdicts and time lag
"$KGTOP" -b "$B" -g '^g-(stall|odd)$' -i 0.3 --lag-window 10 --serve 127.0.0.1:0 --metrics-partitions \
	>"$T_TMP/serve.out" 2>"$T_TMP/serve.err" &
SPID=$!
T_PIDS="$T_PIDS $SPID"
t_wait_for 10 grep -q '^kgtop: serving ' "$T_TMP/serve.err"
URL=$(sed -n 's/^kgtop: serving \([^ ]*\) .*/\1/p' "$T_TMP/serve.err")
metrics_has() { curl -s "$URL/metrics" >"$T_TMP/metrics" 2>/dev/null && grep -q "$1" "$T_TMP/metrics"; }
t_wait_for 30 metrics_has 'kgtop_group_verdict{[^}]*group="g-stall",verdict="stalled"} 1'
t_is $? 0 "/metrics: g-stall's verdict is stalled"
t_wait_for 10 metrics_has 'kgtop_group_verdict_partitions{[^}]*group="g-stall",verdict="stalled"} 2'
t_is $? 0 "/metrics: two of its partitions stalled"
t_wait_for 10 metrics_has 'kgtop_partition_verdict{[^}]*group="g-stall",topic="events",partition="2",verdict="stalled"} 1'
t_is $? 0 "/metrics --metrics-partitions: the partition's verdict"
t_contains "$T_TMP/metrics" 'kgtop_group_time_lag_seconds{' "/metrics: the group's time lag"
t_contains "$T_TMP/metrics" 'kgtop_partition_time_lag_seconds{' "/metrics: a partition's time lag"
t_contains "$T_TMP/metrics" 'kgtop_source_refresh_duration_seconds{' "/metrics: the refresh's duration"
if command -v promtool >/dev/null 2>&1; then
	promtool check metrics <"$T_TMP/metrics" >"$T_TMP/promtool" 2>&1
	t_is $? 0 "promtool check metrics passes"
fi
kill "$SPID" 2>/dev/null
wait "$SPID" 2>/dev/null

# ---------------------------------------------------------------- a rewind: REWIND (step 1)
"$KGTOP" -b "$B" -g '^g-rewind$' -i 0.3 --lag-window 10 --json --duration 30 >"$T_TMP/rewind" 2>"$T_TMP/rewind.err" &
JPID=$!
T_PIDS="$T_PIDS $JPID"
t_wait_for 20 grep -q '"verdict":"OK"' "$T_TMP/rewind"
t_is $? 0 "before the rewind g-rewind is OK"
kill -USR1 "$FIXTURE_PID"
t_wait_for 20 grep -q '"verdict":"REWIND","verdict_from":"OK"' "$T_TMP/rewind"
t_is $? 0 "after the rewind --json carries the verdict's change to REWIND"
t_wait_for 10 grep -q '"verdict":"REWIND"' "$T_TMP/rewind"
t_is $? 0 "and the partitions' verdict REWIND"
kill "$JPID" 2>/dev/null
wait "$JPID" 2>/dev/null
"$KGTOP" -b "$B" -g '^g-rewind$' --once >"$T_TMP/rw-once" 2>&1
t_is "$(awk '$1=="g-rewind" && $3==0 {print ($4 < 4000)}' "$T_TMP/rw-once")" 1 "--once shows the committed offset gone back"

# ---------------------------------------------------------------- retention past the commits: LOST (step 2)
kill -USR1 "$FIXTURE_PID"
t_wait_for 10 grep -q '"step":2' "$FIXTURE_STATS"
t_is $? 0 "retention moved the log start"
"$KGTOP" -b "$B" -g '^g-lost$' --once >"$T_TMP/lost" 2>&1
t_is "$(awk '$1=="g-lost" && $2=="audit" {print $11}' "$T_TMP/lost" | sort -u)" LOST "--once: the partitions are LOST"
t_contains "$T_TMP/lost" "time lag     record deleted: audit 0, audit 1" "and have no time lag: the record is deleted"
"$KGTOP" -b "$B" -g '^g-lost$' --once --json >"$T_TMP/lost.json" 2>&1
t_is "$("$JSONQ" .groups[0].partitions[0].verdict <"$T_TMP/lost.json")" LOST "--json: verdict LOST"
t_is "$(($("$JSONQ" .groups[0].partitions[0].log_start <"$T_TMP/lost.json") - $("$JSONQ" .groups[0].partitions[0].committed <"$T_TMP/lost.json")))" \
	"$("$JSONQ" .groups[0].partitions[0].lost <"$T_TMP/lost.json")" "records lost = log start - committed"
"$KGTOP" -b "$B" -g '^g-lost$' --check >"$T_TMP/lost.check" 2>&1
t_is $? 2 "--check: LOST is CRITICAL by default"
t_contains "$T_TMP/lost.check" "2 partitions LOST" "the line says LOST"
t_contains "$T_TMP/lost.check" "records lost" "and how many records"

# ---------------------------------------------------------------- the record read gets no answer (step 3)
kill -USR1 "$FIXTURE_PID"
t_wait_for 10 grep -q '"step":3' "$FIXTURE_STATS"
t_is $? 0 "Fetch answers late from now"
"$KGTOP" -b "$B" -g '^g-slow$' --once --json --timeout 4 >"$T_TMP/noans.json" 2>"$T_TMP/noans.err"
t_is $? 0 "--once still answers when the record read does not"
t_is "$("$JSONQ" .groups[0].partitions[0].time_lag_reason <"$T_TMP/noans.json")" no_answer \
	"the partition has no time lag: the broker did not answer"
t_is "$("$JSONQ" .groups[0].partitions[0].lag <"$T_TMP/noans.json" | awk '{print ($1 > 0)}')" 1 "and keeps its lag"

# ---------------------------------------------------------------- a recording judged again: --replay --check --at
"$KGTOP" -b "$B" -g '^g-stall$' -i 0.3 --lag-window 10 --json --duration 4 --record "$T_TMP/rec.jsonl" >/dev/null 2>&1
t_is $? 0 "a recording of g-stall"
"$KGTOP" --replay "$T_TMP/rec.jsonl" --check >"$T_TMP/rp.check" 2>&1
t_is $? 2 "--replay --check judges the recording: exit 2"
t_contains "$T_TMP/rp.check" "partitions STALLED" "its frozen commits STALLED, as live"
"$KGTOP" --replay "$T_TMP/rec.jsonl" --check --at +0.5s >"$T_TMP/rp.at" 2>&1
t_is $? 3 "--at its first moments: not judged yet, UNKNOWN"
t_contains "$T_TMP/rp.at" "partitions not judged yet" "and says so"
t_is "$(grep -c '"log_start":\[' "$T_TMP/rec.jsonl" | awk '{print ($1 > 0)}')" 1 "the recording carries log-start offsets"
"$KGTOP" -b "$B" -g '^g-(stall|odd)$' --once --record "$T_TMP/once.jsonl" >"$T_TMP/live.txt" 2>&1
"$KGTOP" --replay "$T_TMP/once.jsonl" --once >"$T_TMP/replayed.txt" 2>&1
t_is "$(awk '/^GROUP  *TOPIC/{t=1} t' "$T_TMP/replayed.txt")" "$(awk '/^GROUP  *TOPIC/{t=1} t' "$T_TMP/live.txt")" \
	"a replay of --once --record prints the same partition tables (time lags read, reasons and all)"

fixture_stop
t_done
