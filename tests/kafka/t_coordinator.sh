#!/bin/sh
# t_coordinator.sh: first the fixture broker with a broker down (the others' groups stay fresh, the
# silent one is named); then three Kafka 4.x brokers; the coordinator of a watched group is killed (SIGKILL):
# the Java admin client finds the new coordinator (the truth), kgtop follows it, and says meanwhile
# that its picture of the group is old (the group's data time behind, and the source stale or
# naming the broker that does not answer).
. "${top_srcdir:-.}/tests/cli/lib.sh"
. "$top_srcdir/tests/kafka/kafka.sh"

# first the fixture broker (tests/fixture): three brokers, a group coordinated by each; broker 2
# goes down (it stops listening: the metadata still names it, as Kafka's does until the controller
# fences a dead broker). The truth is the scenario's: g-two's coordinator is down from the step on.
cat >"$T_TMP/down.json" <<'EOF'
{"comment": "a group per coordinator; broker 2 goes down", "brokers": 3,
 "topics": [{"name": "t1", "partitions": 3, "log_end": [100, 100, 100]}],
 "groups": [
  {"id": "g-one", "coordinator": 1, "state": "Stable", "assignor": "range",
   "members": [{"client_id": "a", "assignment": {"t1": [0, 1, 2]}}], "committed": {"t1": {"all": 90}}},
  {"id": "g-two", "coordinator": 2, "state": "Stable", "assignor": "range",
   "members": [{"client_id": "b", "assignment": {"t1": [0, 1, 2]}}], "committed": {"t1": {"all": 80}}},
  {"id": "g-three", "coordinator": 3, "state": "Stable", "assignor": "range",
   "members": [{"client_id": "c", "assignment": {"t1": [0, 1, 2]}}], "committed": {"t1": {"all": 70}}}],
 "steps": [{"comment": "broker 2 goes down", "faults": [{"kind": "down", "broker": 2, "for": 600}]}]}
EOF
fixture_start "$T_TMP/down.json" --manual
kgtop_bg "$T_TMP/f.json" -b "$BOOTSTRAP" --json -i 1 --timeout 10
FP=$KG_PID
t_wait_for 30 grep -q '"id":"g-two"' "$T_TMP/f.json"
kill -USR1 "$FIXTURE_PID"
t_wait_for 10 grep -q '"step":1' "$FIXTURE_STATS"
tdown=$(date +%s%3N)
# data_ms GROUP: how long after broker 2 went down the group's data in kgtop's last line was asked (ms)
data_ms() { echo $(($(date -u -d "$(kg_group "$T_TMP/f.json" "$1" | jstr data_time)" +%s%3N) - tdown)); }
fresh() { [ "$(data_ms g-one)" -gt 1000 ] && [ "$(data_ms g-three)" -gt 1000 ]; }
t_wait_for 30 fresh
t_ok $? "fixture, broker 2 down: g-one's and g-three's data are asked again"
line=$(tail -1 "$T_TMP/f.json")
age=$(($(echo "$line" | jnum time_us) / 1000 - $(date -u -d "$(kg_group "$T_TMP/f.json" g-one | jstr data_time)" +%s%3N)))
le "$age" 9999
t_ok $? "fixture: g-one's data is $age ms old on kgtop's line, less than a request timeout (10 s), broker 2 silent"
echo "$line" | "$JSONQ" .source.kafka.message | grep -q "no answer from broker 2"
t_ok $? "fixture: the source says broker 2 does not answer"
kg_group "$T_TMP/f.json" g-two | jstr error | grep -q "broker 2"
t_ok $? "fixture: g-two's error names its coordinator, broker 2"
le "$(data_ms g-two)" 0
t_ok $? "fixture: g-two's data is from before broker 2 went down ($(data_ms g-two) ms after)"
kgtop_stop "$FP"
fixture_stop

kafka_up 3
fleet topic t1 6 && fleet produce t1 30
owns() { o=$(fleet_owned "$1"); [ -n "$o" ] && [ "$o" != "[]" ]; }
fleet join m1 group=g-move topic=t1 session=10000 && fleet join m2 group=g-move topic=t1 session=10000
t_wait_for 60 owns m1 && t_wait_for 60 owns m2
t_ok $? "g-move formed on the 3-broker cluster"
fleet describe g-move
c1=$(grep '"described","group":"g-move"' "$FLEET" | tail -1 | sed 's/.*"coordinator":"\([0-9]*\)".*/\1/')
kgtop_bg "$T_TMP/k.json" -b "$KAFKA_BOOT" --json -i 1
KP=$KG_PID
# kg_coord: the coordinator of g-move in kgtop's last line
kg_coord() { kg_group "$T_TMP/k.json" g-move | jnum coordinator; }
coord_is() { [ "$(kg_coord)" = "$1" ]; }
t_wait_for 60 coord_is "$c1"
t_ok $? "kgtop names the coordinator the Java admin client does (broker $c1)"

tk=$(date +%s%3N)
kafka_kill "$c1"
# the truth: the Java admin client's next description (it retries until the group is served again)
fleet describe g-move
t2=$(grep '"described","group":"g-move"' "$FLEET" | tail -1 | sed 's/^{"t":\([0-9]*\).*/\1/')
c2=$(grep '"described","group":"g-move"' "$FLEET" | tail -1 | sed 's/.*"coordinator":"\([0-9]*\)".*/\1/')
[ -n "$c2" ] && [ "$c2" != "$c1" ]
t_ok $? "truth: broker $c1 killed, broker $c2 coordinates g-move $((t2 - tk)) ms later (the Java admin client)"
t_wait_for 90 coord_is "$c2"
t_ok $? "kgtop follows the group to broker $c2"
tf=$(date +%s%3N)
# what kgtop said meanwhile: each line's time, source status and the group's data time (ms)
n=$(kg_lines "$T_TMP/k.json")
sed -n "1,${n}p" "$T_TMP/k.json" | while read -r l; do
	lt=$(echo "$l" | jnum time_us)
	st=$(echo "$l" | "$JSONQ" .source.kafka.status)
	g=$(echo "$l" | "$JSONQ" '.groups[]' | grep '^{"id":"g-move"')
	dt=$(date -u -d "$(echo "$g" | jstr data_time)" +%s%3N 2>/dev/null)
	echo "$((lt / 1000)) $st ${dt:-0} $(echo "$g" | jnum coordinator) $(echo "$l" | jnum refresh) |$(echo "$l" | "$JSONQ" .source.kafka.message)"
done >"$T_TMP/ages"
awk -v tk="$tk" '$1 > tk { m = substr($0, index($0, "|") + 1); print "#   +" $1 - tk " ms: source " $2 ", data " $1 - $3 " ms old, coordinator " $4 ", " m }' "$T_TMP/ages" | head -16
# how long the refreshes took while the broker was dead (the gaps between new refreshes' lines)
awk -v tk="$tk" '$1 > tk && $5 != r { if (t) { g = $1 - t; if (g > m) m = g }; t = $1; r = $5 } END { print "# the longest gap between refreshes after the kill: " m + 0 " ms" }' "$T_TMP/ages"
echo "# kgtop followed in $((tf - tk)) ms, the Java admin client in $((t2 - tk)) ms"
blind=$(awk -v tk="$tk" '$1 > tk && $1 - $3 > m { m = $1 - $3 } END { print m + 0 }' "$T_TMP/ages")
le 2000 "$blind"
t_ok $? "kgtop said its picture of g-move was old after the kill (at most $blind ms old; interval 1 s)"
awk -v tk="$tk" -v c="no answer from broker $c1" '$1 > tk && ($2 == "stale" || index($0, c)) { f = 1 } END { exit !f }' "$T_TMP/ages"
t_ok $? "kgtop said meanwhile that its kafka source is stale or that broker $c1 does not answer"
le "$((t2 - tk - 2000))" "$blind"
t_ok $? "kgtop's blind time ($blind ms) is not shorter than the truth's ($((t2 - tk)) ms, less 2 s of the Java client's own retries)"
# after the move the cluster answers at once (the Java admin client), so should each refresh
fleet describe g-move
t_wait_for 30 sh -c "[ \$(wc -l <'$T_TMP/k.json') -ge $((n + 4)) ]"
n2=$(kg_lines "$T_TMP/k.json")
age=$(sed -n "${n2}p" "$T_TMP/k.json" | { read -r l; lt=$(echo "$l" | jnum time_us); g=$(echo "$l" | "$JSONQ" '.groups[]' | grep '^{"id":"g-move"'); echo $((lt / 1000 - $(date -u -d "$(echo "$g" | jstr data_time)" +%s%3N))); })
le "$age" 2000
t_ok $? "a refresh's age once the group is served by broker $c2: $age ms (interval 1 s; at most 2 s)"
kgtop_stop "$KP"
kafka_stop
t_ok "$(kafka_no_jvm_left; echo $?)" "no JVM of this test is left"
t_done
