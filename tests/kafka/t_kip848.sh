#!/bin/sh
# t_kip848.sh: a KIP-848 group (group.protocol=consumer, Kafka 4.x's new rebalance protocol) on a
# real broker. Records what librdkafka 2.0.2 (kgtop's) is answered for it (ListGroups lists it;
# DescribeGroups says it is not there: kgtop shows it Dead without members, issue 21), and checks
# what kgtop knows of it from the coordinator's log (--trace log:file://): joins, a crash fenced on
# its session timeout, a stall and a close (the log words both alike), the group epoch.
. "${top_srcdir:-.}/tests/cli/lib.sh"
. "$top_srcdir/tests/kafka/kafka.sh"
PROBE="$top_builddir/tests/kafka/rdprobe"

kafka_up 1
fleet topic t1 6 && fleet produce t1 30
owns() { o=$(fleet_owned "$1"); [ -n "$o" ] && [ "$o" != "[]" ]; }
fleet join k1 group=g-kip topic=t1 protocol=consumer poll=8000
fleet join k2 group=g-kip topic=t1 protocol=consumer poll=8000
fleet join k3 group=g-kip topic=t1 protocol=consumer poll=8000 jvm=child
t_wait_for 60 owns k1 && t_wait_for 60 owns k2 && t_wait_for 60 owns k3
t_ok $? "three KIP-848 consumers share t1 (k3 in a JVM of its own)"

# what the broker answers librdkafka 2.0.2 for it
"$PROBE" "$KAFKA_BOOT" g-kip >"$T_TMP/probe.txt" 2>&1
sed 's/^/# /' "$T_TMP/probe.txt"
# its state is KIP-848's (Stable, Assigning, Reconciling, Empty); 2.0.2 names only the classic ones
grep -qE '^ListGroups: g-kip state=(Stable|Unknown) ' "$T_TMP/probe.txt"
t_ok $? "ListGroups (v4, librdkafka 2.0.2) lists the consumer group: Stable, or Unknown while it reconciles"
t_contains "$T_TMP/probe.txt" "DescribeGroups: g-kip state=Dead members=0 error=none" \
	"DescribeGroups answers it Dead, no member, no error: as it answers a group that does not exist"

kgtop_bg "$T_TMP/k.json" -b "$KAFKA_BOOT" --json -i 1 --trace "log:file://$KAFKA_LOG1" --trace-from-start
KP=$KG_PID
joined() { kg_events "$T_TMP/k.json" | grep '"kind":"member_joined"' | grep -q "\"member_id\":\"$1\""; }
for c in k1 k2 k3; do
	mid=$(grep "\"ev\":\"assigned\",\"c\":\"$c\"" "$FLEET" | tail -1 | sed 's/.*"member":"\([^"]*\)".*/\1/')
	t_wait_for 30 joined "$mid"
	t_ok $? "kgtop saw $c join ($mid) in the coordinator's log"
done
fleet describe g-kip
ep=$(grep '"ev":"described","group":"g-kip"' "$FLEET" | tail -1 | jnum group_epoch)
gen() { [ "$(kg_group "$T_TMP/k.json" g-kip | jnum generation)" = "$ep" ]; }
t_wait_for 30 gen
t_ok $? "kgtop's generation of g-kip is the group epoch the broker describes ($ep)"
kafka_pending 21 "kgtop's members of g-kip (ConsumerGroupDescribe)" "$(kg_group "$T_TMP/k.json" g-kip | grep -o '"member_id":' | wc -l)" 3

# k3 crashes (SIGKILL of its JVM): fenced when its session (6 s, the broker's) expires
k3=$(grep '"ev":"assigned","c":"k3"' "$FLEET" | tail -1 | sed 's/.*"member":"\([^"]*\)".*/\1/')
fleet crash k3
t_wait_for 30 grep -q "Member $k3 fenced from the group because the member session expired" "$KAFKA_LOG1"
t_ok $? "truth: the coordinator fences the crashed k3 when its session expires"
tf=$(log_ms "$KAFKA_LOG1" "Member $k3 fenced")
tc=$(fleet_t '"ev":"crashed","c":"k3"')
le 5000 $((tf - tc)) && le $((tf - tc)) 9000
t_ok $? "truth: $((tf - tc)) ms after the crash (group.consumer.session.timeout.ms 6000)"
left() { kg_events "$T_TMP/k.json" | grep '"kind":"member_left"' | grep "\"member_id\":\"$1\"" | grep -q "\"reason\":\"$2\""; }
t_wait_for 30 left "$k3" session_timeout
t_ok $? "kgtop: k3 left on its session timeout"

# k2 stalls past max.poll.interval.ms (8 s): it sends a leaving heartbeat, logged as a plain leave
k2=$(grep '"ev":"assigned","c":"k2"' "$FLEET" | tail -1 | sed 's/.*"member":"\([^"]*\)".*/\1/')
fleet stall k2
t_wait_for 30 grep -q "Member $k2 left the consumer group" "$KAFKA_LOG1"
t_ok $? "truth: the stalled k2 leaves; the coordinator's words: 'Member $k2 left the consumer group.'"
t_wait_for 30 left "$k2" unknown
t_ok $? "kgtop: k2 left, reason unknown (not 'graceful': the log cannot tell a stall from a close)"
k1=$(grep '"ev":"assigned","c":"k1"' "$FLEET" | tail -1 | sed 's/.*"member":"\([^"]*\)".*/\1/')
fleet leave k1
t_wait_for 30 grep -q "Member $k1 left the consumer group" "$KAFKA_LOG1"
t_ok $? "truth: k1's close is logged with the same words"
t_wait_for 30 left "$k1" unknown
t_ok $? "kgtop: k1 left, reason unknown"
kgtop_stop "$KP"
kafka_stop
t_ok "$(kafka_no_jvm_left; echo $?)" "no JVM of this test is left (the child JVM included)"
t_done
