#!/bin/sh
# t_static.sh: static membership (KIP-345) on a real Kafka 4.x broker, seen by a polling kgtop and one
# reading the coordinator's log: a static member that restarts within session.timeout.ms gets its
# partitions back with no rebalance; later both members close (static members send no LeaveGroup),
# the coordinator drops them on their session timeout and the group empties.
. "${top_srcdir:-.}/tests/cli/lib.sh"
. "$top_srcdir/tests/kafka/kafka.sh"

kafka_up 1
fleet topic t1 4 && fleet produce t1 30
owns() { o=$(fleet_owned "$1"); [ -n "$o" ] && [ "$o" != "[]" ]; }
fleet join s1 group=g-static topic=t1 instance=i1 session=8000
fleet join s2 group=g-static topic=t1 instance=i2 session=8000
t_wait_for 60 owns s1 && t_wait_for 60 owns s2
t_ok $? "two static members (i1, i2) share t1"
kgtop_bg "$T_TMP/poll.json" -b "$KAFKA_BOOT" --json -i 1
KP=$KG_PID
kgtop_bg "$T_TMP/log.json" -b "$KAFKA_BOOT" --json -i 1 --trace "log:file://$KAFKA_LOG1"
KL=$KG_PID
seen2() { [ "$(kg_group "$1" g-static | grep -o '"member_id":' | wc -l)" -eq 2 ]; }
t_wait_for 60 seen2 "$T_TMP/poll.json" && t_wait_for 60 seen2 "$T_TMP/log.json"
t_ok $? "both kgtops see the 2 members"

# s1 restarts within its session: the coordinator replaces its member id, no rebalance
L0P=$(kg_lines "$T_TMP/poll.json")
L0L=$(kg_lines "$T_TMP/log.json")
before=$(fleet_owned s1)
np=$(grep -c 'Preparing to rebalance group g-static' "$KAFKA_LOG1")
fleet restart s1
t_wait_for 30 grep -q 'Static member with groupInstanceId=i1 and unknown member id joins group g-static in Stable state. Replacing previously mapped member' "$KAFKA_LOG1"
t_ok $? "truth: the coordinator replaces i1's member id (its log)"
t_wait_for 30 owns s1
t_is "$(fleet_owned s1)" "$before" "truth: s1 gets its partitions back ($before)"
back() { kg_events "$1" | grep '"kind":"member_back"' | grep -q '"client_id":"s1"'; }
t_wait_for 30 back "$T_TMP/poll.json" && t_wait_for 30 back "$T_TMP/log.json"
t_ok $? "both kgtops say s1 is back with its partitions"
n=$(kg_lines "$T_TMP/poll.json")
t_wait_for 10 sh -c "[ \$(wc -l <'$T_TMP/poll.json') -ge $((n + 2)) ]"
t_is "$(grep -c 'Preparing to rebalance group g-static' "$KAFKA_LOG1")" "$np" "truth: no rebalance after the restart (the coordinator prepares none)"
for f in poll log; do
	if [ $f = poll ]; then l=$L0P; else l=$L0L; fi
	t_is "$(kg_events "$T_TMP/$f.json" "$l" | grep -c '"kind":"rebalance_start"')" 0 "$f: no rebalance for the static restart"
done

# both close: no LeaveGroup; dropped session.timeout.ms (8 s) later, the group empties
TC=$(date +%s%3N)
L1P=$(kg_lines "$T_TMP/poll.json")
L1L=$(kg_lines "$T_TMP/log.json")
fleet leave s1 && fleet leave s2
t_wait_for 30 sh -c "[ \$(grep -c 'in group g-static has failed' '$KAFKA_LOG1') -eq 2 ]"
t_ok $? "truth: the coordinator drops both on their session timeout (no LeaveGroup from static members)"
tend=$(log_ms "$KAFKA_LOG1" 'Group g-static with generation [0-9]* is now empty')
stopped=$(grep -E '"ev":"revoked","c":"s[12]"' "$FLEET" | awk -v since="$TC" -F'[:,]' '$2 >= since { n++ } END { print n + 0 }')
t_is "$stopped" 2 "truth: both members stopped consuming at their close (their revoke callbacks)"
upms=$(fleet_tsv | awk -v since="$TC" -v end="$tend" '$1 >= since && $2 == "revoked" && $6 != "-" { n = split($6, p, ","); s += n * (end - $1) } END { print s + 0 }')
empty() { kg_group "$1" g-static | grep -q '"state":"Empty"'; }
t_wait_for 30 empty "$T_TMP/poll.json" && t_wait_for 30 empty "$T_TMP/log.json"
t_ok $? "both kgtops see g-static Empty"
ended() { kg_events "$1" "$2" | grep -q '"kind":"rebalance_end"'; }
t_wait_for 30 ended "$T_TMP/log.json" "$L1L"
t_ok $? "log: a rebalance ends as the group empties"
# polling that sees Stable then Empty (both dropped between two refreshes) counts that rebalance (issue 22)
t_is "$(kg_events "$T_TMP/poll.json" "$L1P" | grep -q '"kind":"rebalance_end"' && echo yes || echo no)" yes \
	"poll: the rebalance that emptied the group is counted"
echo "# poll:"
kg_dump "$T_TMP/poll.json" "$L1P"
echo "# log:"
kg_dump "$T_TMP/log.json" "$L1L"
lst() { kg_events "$T_TMP/log.json" "$L1L" | grep '"kind":"member_left"' | grep "\"client_id\":\"$1\"" | grep -q '"reason":"session_timeout"'; }
for c in s1 s2; do
	t_wait_for 20 lst $c
	t_ok $? "log: $c left on its session timeout"
	r=$(kg_events "$T_TMP/poll.json" "$L1P" | grep '"kind":"member_left"' | grep "\"client_id\":\"$c\"" | head -1 | jstr reason)
	case "$r" in unknown | timeout | session_timeout) t_ok 0 "poll: $c's leave reason '$r' claims nothing false" ;; *) t_ok 1 "poll: $c's leave reason '$r' is false" ;; esac
done
ev=$(kg_events "$T_TMP/poll.json" "$L1P" | grep '"kind":"rebalance_end"' | tail -1)
# members_stopped counts the members that stayed in the group owning nothing (kgtop(1)): both closed and
# were removed by this rebalance, so none; what their closes cost is in the unconsumed partition-seconds
t_is "$(echo "$ev" | jnum members_stopped)" 0 "poll: no member stayed stopped (both closed members were removed)"
lo=$(echo "$ev" | jnum unconsumed_partition_ms_min)
hi=$(echo "$ev" | jnum unconsumed_partition_ms_max)
within "$ev" unconsumed_partition_ms "$upms"
t_ok $? "poll: unconsumed partition-ms $lo-$hi contain the truth ($upms: from the closes to the group's end)"
# an episode's last word: its end, or a retiming when the log's lines came after polling saw the group empty
last_word() { kg_events "$T_TMP/log.json" "$L1L" | grep '"kind":"\(rebalance_end\|retimed\)"' | tail -1; }
one_round() { [ "$(last_word | jnum round)" = 1 ]; }
t_wait_for 15 one_round
t_is "$(last_word | jnum round)" 1 "log: the emptying rebalance has 1 round (generation 1 -> 2)"
kgtop_stop "$KP"
kgtop_stop "$KL"
kafka_stop
t_ok "$(kafka_no_jvm_left; echo $?)" "no JVM of this test is left"
t_done
