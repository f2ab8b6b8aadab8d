#!/bin/sh
# t_progress.sh: kgtop's progress verdicts and time lag against a real Kafka 4.x broker and the
# fleet's own commits and the producer's record timestamps:
#   - a member that stops polling (its heartbeat goes on) turns its partitions STALLED, "since"
#     its last commit; a member that goes on stays OK;
#   - the exact time lag of a frozen group equals now minus the timestamp the producer gave the
#     record at its committed offset;
#   - records deleted below a committed offset (DeleteRecords, what kafka-delete-records.sh sends)
#     turn the partition LOST by exactly that many records: --json, --once, --check and /metrics.
. "${top_srcdir:-.}/tests/cli/lib.sh"
. "$top_srcdir/tests/kafka/kafka.sh"

kafka_up 1
now=$(date +%s%3N)
ts0=$((now - 3600000))
fleet topic p1 3 && fleet topic p2 2 && fleet produce p1 100 ts=$ts0 step=1000 && fleet produce p2 10
t_ok $? "topics p1 (3 partitions, 100 records stamped an hour ago, a second apart) and p2 (2)"
fleet join l1 group=g-lag topic=p1
fleet join s1 group=g-stall topic=p2
fleet join v1 group=g-live topic=p2
lag_done() { for p in 0 1 2; do [ "$(fleet_committed g-lag p1-$p)" = 100 ] || return 1; done; }
t_wait_for 60 lag_done
t_ok $? "g-lag committed offset 100 on p1's 3 partitions"
fleet freeze l1
ts1=$((now - 600000))
fleet produce p1 50 ts=$ts1 step=1000
t_ok $? "g-lag frozen; 50 more records on p1, the first (offset 100) stamped $ts1 (10 minutes ago)"

SERVE=$(kafka_free_port)
kgtop_bg "$T_TMP/k.json" -b "$KAFKA_BOOT" --json -i 1 --lag-window 60 --serve "127.0.0.1:$SERVE"
KP=$KG_PID
# cycle: produce on p2, wait for both p2 groups to commit it, then for kgtop's next refresh
end2=10
both_at() { for g in "$@"; do for p in 0 1; do [ "$(fleet_committed "$g" p2-$p)" = "$end2" ] || return 1; done; done; }
cycle() {
	fleet produce p2 3 || return 1
	end2=$((end2 + 3))
	t_wait_for 30 both_at "$@" || return 1
	n=$(kg_lines "$T_TMP/k.json")
	t_wait_for 10 sh -c "[ \$(wc -l <'$T_TMP/k.json') -gt $n ]"
}
i=0
ok=0
while [ $i -lt 8 ]; do cycle g-stall g-live || ok=1; i=$((i + 1)); done
t_ok $ok "8 refreshes of commits moving in g-stall and g-live"

# s1 stops polling: its commits freeze while p2 goes on growing; v1 goes on
fleet stall s1
tc=$(grep '"ev":"commit","c":"s1"' "$FLEET" | tail -1 | sed 's/^{"t":\([0-9]*\).*/\1/')
stalled() { kg_group "$T_TMP/k.json" g-stall | grep -q '"verdict":"STALLED"'; }
i=0
until stalled || [ $i -ge 40 ]; do cycle g-live || break; i=$((i + 1)); done
stalled
t_ok $? "g-stall turns STALLED ($i refreshes after s1's last commit)"
ev=$(kg_events "$T_TMP/k.json" | grep '"kind":"verdict"' | grep '"group":"g-stall"' | grep '"verdict":"STALLED"' | head -1)
since=$(kg_group "$T_TMP/k.json" g-stall | sed 's/.*"verdict_since":"\([^"]*\)".*/\1/')
since_ms=$(date -u -d "$since" +%s%3N 2>/dev/null)
echo "# truth: s1's last commit $tc; kgtop: STALLED since $since ($since_ms), event $(echo "$ev" | jstr time)"
le $((tc - 1000)) "$since_ms" && le "$since_ms" $((tc + 2000))
t_ok $? "STALLED since $((since_ms - tc)) ms from s1's last commit (commit times are known to two refreshes)"
evt=$(date -u -d "$(echo "$ev" | jstr time)" +%s%3N)
le $((tc + 6000 - 2000)) "$evt"
t_ok $? "not judged before a tenth of --lag-window (6 s) after the last commit: $((evt - tc)) ms"
t_is "$(kg_events "$T_TMP/k.json" | grep '"kind":"verdict"' | grep '"group":"g-live"' | grep -c '"verdict":"\(STALLED\|STOPPED\)"')" 0 \
	"g-live, whose commits go on, is never STALLED or STOPPED"

# time lag of the frozen g-lag; the truth: now minus the stamp of the record at offset 100
# (--json live estimates it from its own log-end samples; --once reads the record: exact)
line=$(sed -n "$(kg_lines "$T_TMP/k.json")p" "$T_TMP/k.json")
lt=$(echo "$line" | jnum time_us)
p0=$(echo "$line" | "$JSONQ" '.groups[]' | grep '^{"id":"g-lag"' | sed 's/.*"partitions":\[//' | grep -o '{"topic":"p1","partition":0,[^}]*}')
t_is "$(echo "$p0" | jnum committed) $(echo "$p0" | jnum log_end)" "100 150" "--json: g-lag p1-0 committed 100, log end 150"
k=$(echo "$p0" | jstr time_lag_kind)
got=$(echo "$p0" | jnum time_lag_ms)
want=$((lt / 1000 - ts1))
case "$k" in
at_least) le "$got" "$want" ;;
*) le "$((want - 1500))" "$got" && le "$got" "$((want + 1500))" ;;
esac
t_ok $? "--json: its time lag ($k $got ms) contains the truth ($want ms)"
"$KGTOP" -b "$KAFKA_BOOT" --once --json -g '^g-lag$' --timeout 60 >"$T_TMP/once.json" 2>"$T_TMP/once.err"
lt=$("$JSONQ" .time_us <"$T_TMP/once.json")
p0=$("$JSONQ" '.groups[0].partitions[0]' <"$T_TMP/once.json")
want=$((lt / 1000 - ts1))
got=$(echo "$p0" | jnum time_lag_ms)
t_is "$(echo "$p0" | jnum partition) $(echo "$p0" | jstr time_lag_kind)" "0 exact" "--once --json: p1-0's time lag is exact (the record read)"
le "$((want - 1000))" "$got" && le "$got" "$((want + 1000))"
t_ok $? "--once --json: its time lag $got ms is the report's time minus the record's stamp ($want ms), within a second"
"$KGTOP" -b "$KAFKA_BOOT" --once -g '^g-lag$' --timeout 60 >"$T_TMP/once.txt" 2>&1
cells=$(awk '$1 == "g-lag" && $2 == "p1" { print $(NF - 1) }' "$T_TMP/once.txt" | paste -sd' ' -)
echo "$cells" | grep -qE '^[0-9][0-9hms.]* [0-9][0-9hms.]* [0-9][0-9hms.]*$'
t_ok $? "--once: TIME-LAG of p1's three partitions measured, not estimated ($cells)"

# LOST: delete the records below offset 120 of p1-0; g-lag committed 100
fleet delete-records p1 0 120
lw=$(grep '"ev":"deleted"' "$FLEET" | tail -1 | jnum low_watermark)
t_is "$lw" 120 "truth: p1-0's log start is 120 (DeleteRecords' low watermark)"
lost() { kg_group "$T_TMP/k.json" g-lag | grep -q '"verdict":"LOST"'; }
t_wait_for 30 lost
t_ok $? "--json: g-lag turns LOST"
g=$(kg_group "$T_TMP/k.json" g-lag)
p0=$(echo "$g" | sed 's/.*"partitions":\[//' | grep -o '{"topic":"p1","partition":0,[^}]*}')
t_is "$(echo "$p0" | jnum log_start) $(echo "$p0" | jnum lost) $(echo "$p0" | jstr verdict)" "120 20 LOST" \
	"--json: p1-0 log start 120, 20 records lost (120 - 100), LOST"
t_is "$(echo "$g" | grep -o '"lost":[0-9]*' | tail -1 | cut -d: -f2)" 20 "--json: the group lost 20 records"
curl -s "http://127.0.0.1:$SERVE/metrics" >"$T_TMP/metrics.txt"
t_is "$(grep '^kgtop_group_lost_messages{' "$T_TMP/metrics.txt" | grep 'group="g-lag"' | awk '{ print $NF }')" 20 \
	"/metrics: kgtop_group_lost_messages of g-lag is 20"
"$KGTOP" -b "$KAFKA_BOOT" --once -g '^g-lag$' --timeout 60 >"$T_TMP/once.txt" 2>&1
t_is "$(awk '$1 == "g-lag" && $2 == "p1" && $3 == "0" { print $4, $5, $NF }' "$T_TMP/once.txt")" "100 150 LOST" \
	"--once: p1-0 committed 100, log end 150, LOST"
"$KGTOP" -b "$KAFKA_BOOT" --check -g '^g-lag$' --timeout 60 >"$T_TMP/check.txt" 2>&1
t_is "$?" 2 "--check exits 2 (CRITICAL) for the lost records"
t_contains "$T_TMP/check.txt" "20 records lost" "--check says 20 records lost"

kgtop_stop "$KP"
kafka_stop
t_ok "$(kafka_no_jvm_left; echo $?)" "no JVM of this test is left"
t_done
