#!/bin/sh
# t_demo.sh: kgtop --demo -b on a real Kafka 4.x cluster: the demo's fleets run there (their groups
# seen by kgtop with members and rebalances), and at exit kgtop deletes its topic and groups: the
# broker's own listings (ListGroups, ListTopics through the Java admin client) have none of them.
. "${top_srcdir:-.}/tests/cli/lib.sh"
. "$top_srcdir/tests/kafka/kafka.sh"

kafka_up 1
"$KGTOP" --demo -b "$KAFKA_BOOT" --json --full --duration 25 --timeout 30 >"$T_TMP/demo.json" 2>"$T_TMP/demo.err"
t_is "$?" 0 "kgtop --demo -b on Kafka 4.x runs 25 s and exits 0"
for g in kgtop-demo-eager kgtop-demo-coop; do
	m=$(kg_events "$T_TMP/demo.json" >/dev/null; sed -n "$(kg_lines "$T_TMP/demo.json")p" "$T_TMP/demo.json" |
		"$JSONQ" '.groups[]' | grep "^{\"id\":\"$g\"" | grep -o '"member_id":' | wc -l)
	le 3 "$m"
	t_ok $? "$g ran on the cluster with $m members at the end"
	kg_events "$T_TMP/demo.json" | grep '"kind":"rebalance_end"' | grep -q "\"group\":\"$g\""
	t_ok $? "$g rebalanced at least once (the script's 4th member)"
done
fleet list && fleet topics
t_is "$(grep '"ev":"groups"' "$FLEET" | tail -1 | grep -o '"id":"kgtop-demo-[^"]*"' | paste -sd' ' -)" "" \
	"afterwards the broker lists no kgtop-demo-* group"
t_is "$(grep '"ev":"topics"' "$FLEET" | tail -1 | grep -o '"kgtop-demo-[^"]*"' | paste -sd' ' -)" "" \
	"afterwards the broker has no kgtop-demo-groups topic"
t_lacks "$T_TMP/demo.err" "not deleted" "kgtop names no leftover"
grep -q 'Created topic kgtop-demo-groups\|kgtop-demo-groups' "$KAFKA_LOG1"
t_ok $? "the broker's log shows the demo's topic was there"
kafka_stop
t_ok "$(kafka_no_jvm_left; echo $?)" "no JVM of this test is left"
t_done
