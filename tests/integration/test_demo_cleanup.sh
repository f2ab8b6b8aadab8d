#!/bin/sh
# test_demo_cleanup.sh: the demo on a "real" cluster (the fixture broker)
# cleans up at exit as kgtop(1) says: it deletes its groups and its topic
# and checks each answer; whatever it could not remove is named once the
# run is over, with the command that removes it.  The fixture takes no
# DeleteGroups or DeleteTopics (nor any group write), so here every
# removal fails and all of it must be named; a real Kafka deletes them.
. "${top_srcdir:-.}/tests/cli/lib.sh"

fixture_start "$top_srcdir/tests/integration/scenarios/demo-cleanup.json" || exit 1

"$KGTOP" --demo -b "$BOOTSTRAP" --json --duration 3 --timeout 5 >"$T_TMP/out.json" 2>"$T_TMP/err.txt"
rc=$?
t_is "$rc" 0 "the demo on the fixture broker runs and exits 0"
for g in kgtop-demo-eager kgtop-demo-coop; do
	t_contains "$T_TMP/err.txt" "demo: group $g was not deleted" "the group $g that could not be deleted is named"
	t_contains "$T_TMP/err.txt" "kafka-consumer-groups.sh --bootstrap-server $BOOTSTRAP --delete --group $g" \
		"with the command that deletes $g"
done
t_contains "$T_TMP/err.txt" "demo: topic kgtop-demo-groups was not deleted" "the topic that could not be deleted is named"
t_contains "$T_TMP/err.txt" "kafka-topics.sh --bootstrap-server $BOOTSTRAP --delete --topic kgtop-demo-groups" \
	"with the command that deletes it"
# kgtop wrote nothing else to the cluster than what the demo's consumers tried (the fixture refuses group writes)
grep -q '"version":10' "$T_TMP/out.json"
t_ok $? "the --json output is version 9"
fixture_stop
t_done
