#!/bin/sh
# t_kip848.sh: a KIP-848 group (group.protocol=consumer, Kafka 4.x's consumer rebalance protocol) on
# a real broker, shown exactly (issue 21). Java consumers join, a third joins (in a JVM of its own),
# crashes (SIGKILL: fenced at its session), one stalls past max.poll.interval.ms, the last leaves;
# after each step kgtop's picture is compared with the truth: the fleet's callbacks (what each member
# owns, and its member epoch: a KIP-848 consumer's groupMetadata().generationId()), the Java admin
# client's ConsumerGroupDescribe (group epoch, target assignment epoch, each member's current and
# target assignment) and kafka-consumer-groups.sh --describe --members --verbose.
#   - kgtop polling alone: librdkafka >= 2.10 describes the group (members, current and target
#     assignments); librdkafka 2.0.2 cannot (DescribeGroups answers Dead, no member, no error): kgtop
#     then says so, with the listed state, never Dead;
#   - kgtop with the coordinator's log (--trace log:): the group epoch and the target assignment
#     epoch ("Bumped group epoch to N", "Computed a new target assignment for epoch N"), joins and
#     leaves with their reasons.
# The exactness of every step is printed as "# exact:" lines (kgtop's value, then the truth).
. "${top_srcdir:-.}/tests/cli/lib.sh"
. "$top_srcdir/tests/kafka/kafka.sh"
PROBE="$top_builddir/tests/kafka/rdprobe"
# librdkafka's minor version (2.0.2: 0, 2.14.2: 14): from 2.10 on it describes consumer groups
RDK_MINOR=$("$KGTOP" --version | sed -n 's/^librdkafka 2\.\([0-9]*\)\..*/\1/p')
DESCRIBES=0
[ "${RDK_MINOR:-0}" -ge 10 ] && DESCRIBES=1
echo "# librdkafka $("$KGTOP" --version | sed -n 's/^librdkafka //p'): describes consumer groups: $DESCRIBES"

kafka_up 1
fleet topic t1 6 && fleet produce t1 30
owns() { o=$(fleet_owned "$1"); [ -n "$o" ] && [ "$o" != "[]" ]; }

# sets as "t1-0,t1-1": the fleet's ["t1-0",...]; kgtop's [{"topic":"t1","partition":0},...]
fset() { tr -d '[]" ' | tr ',' '\n' | grep . | sort -t- -k2n | paste -sd, -; }
kset() { grep -o '"topic":"[^"]*","partition":[0-9]*' | sed 's/"topic":"\([^"]*\)","partition":\([0-9]*\)/\1-\2/' |
	sort -t- -k2n | paste -sd, -; }
# kg_member FILE CLIENT: kgtop's member object of CLIENT in g-kip (the last line)
kg_member() { kg_group "$1" g-kip | "$JSONQ" '.members[]' | grep "\"client_id\":\"$2\"" | head -1; }
# kg_key_set FILE CLIENT KEY: kgtop's set KEY (assignment, target) of CLIENT
kg_key_set() { kg_member "$1" "$2" | "$JSONQ" ".$3" | kset; }
# truth_set CLIENT KEY: the Java admin client's last description of CLIENT's KEY (assignment, target)
truth_set() {
	grep '"ev":"described","group":"g-kip"' "$FLEET" | tail -1 | "$JSONQ" '.members[]' | grep "\"client\":\"$1\"" |
		"$JSONQ" ".$2" | fset
}
# kg_clients FILE: kgtop's members of g-kip by client id, sorted
kg_clients() { kg_group "$1" g-kip | "$JSONQ" '.members[]' | sed -n 's/.*"client_id":"\([^"]*\)".*/\1/p' | sort | paste -sd, -; }
# the step's picture: kgtop's members hold what their callbacks say they own, and their targets are the broker's
# (same CLIENTS...): 0 when kgtop's last line says exactly that
# (a target that differs from the admin's last description asks the admin again, at most once a second:
# in a run on 2026-12-04 kgtop's targets were the callbacks' and the last description, read 30 s
# long, still had the targets before k3's partitions were given out)
PICTURE_ASKED=0
picture() {
	[ "$(kg_clients "$KJ")" = "$(echo "$@" | tr ' ' '\n' | sort | paste -sd, -)" ] || return 1
	for c in "$@"; do
		[ "$(kg_key_set "$KJ" "$c" assignment)" = "$(fleet_owned "$c" | fset)" ] || return 1
	done
	for c in "$@"; do
		[ "$(kg_key_set "$KJ" "$c" target)" = "$(truth_set "$c" target)" ] && continue
		[ "$(date +%s)" -gt "$PICTURE_ASKED" ] || return 1
		PICTURE_ASKED=$(date +%s)
		fleet describe g-kip >/dev/null || return 1
		[ "$(kg_key_set "$KJ" "$c" target)" = "$(truth_set "$c" target)" ] || return 1
	done
}
# exact STEP CLIENTS...: the "# exact:" lines of a step (kgtop, then the truth)
exact() {
	_s=$1
	shift
	for c in "$@"; do
		echo "# exact: $_s $c holds: kgtop $(kg_key_set "$KJ" "$c" assignment) / callbacks $(fleet_owned "$c" | fset) / admin $(truth_set "$c" assignment)"
		echo "# exact: $_s $c target: kgtop $(kg_key_set "$KJ" "$c" target) / admin $(truth_set "$c" target)"
	done
}
# admin_end T0 N: the time of the first Java admin description after T0 (ms) in which the group's N
# members each hold their target: by then the broker saw the reconciliation end (an upper bound of
# its end)
admin_end() {
	grep '"ev":"described","group":"g-kip"' "$FLEET" | while read -r l; do
		[ "$(echo "$l" | jnum t)" -ge "$1" ] || continue
		[ "$(echo "$l" | "$JSONQ" '.members[]' | grep -c '"member"')" = "$2" ] || continue
		echo "$l" | "$JSONQ" '.members[]' | while read -r m; do
			[ "$(echo "$m" | "$JSONQ" .assignment | fset)" = "$(echo "$m" | "$JSONQ" .target | fset)" ] || echo no
		done | grep -q no && continue
		echo "$l" | jnum t
		break
	done
}
# settled CLIENTS...: the fleet's description shows these members (and no other) at their targets, holding
# what their callbacks say, all six partitions between them (the group reconciled)
settled() {
	fleet describe g-kip >/dev/null || return 1
	[ "$(grep '"ev":"described","group":"g-kip"' "$FLEET" | tail -1 | grep -o '"client":"[^"]*"' | cut -d'"' -f4 | sort | paste -sd, -)" = \
		"$(echo "$@" | tr ' ' '\n' | sort | paste -sd, -)" ] || return 1
	for c in "$@"; do
		[ "$(truth_set "$c" assignment)" = "$(truth_set "$c" target)" ] && [ "$(truth_set "$c" assignment)" = "$(fleet_owned "$c" | fset)" ] || return 1
	done
	[ "$(for c in "$@"; do fleet_owned "$c" | fset | tr ',' '\n'; done | grep . | sort -t- -k2n | paste -sd, -)" = "t1-0,t1-1,t1-2,t1-3,t1-4,t1-5" ]
}

# step2_truth: when the broker had every member at its target after the join (sets tb, tr, te, ta and th).
# The episode starts at the bump (tb, the coordinator's log). The coordinator gives a member its new
# partitions in the answer to its heartbeat and counts them its own as it answers (Kafka's
# CurrentAssignmentBuilder adds them to the member's assigned set at once): the broker's end comes
# after the revoking members' callbacks (tr: each acknowledges its revoke at the heartbeat after its
# callback, and only then are its partitions given out) and before the last member's callback on its
# new partitions (te), and by the first Java admin description that shows it (ta). On 2026-12-05 a
# CI run had kgtop's description show every member at its target 1,100 ms after the bump, the last
# callback coming at 1,182 ms.
step2_truth() {
	tb=$(log_ms "$KAFKA_LOG1" "GroupId g-kip\] Bumped group epoch" last)
	tr=$(fleet_tsv | awk -v s="$t2" '$4 == "g-kip" && $1 >= s && $2 == "revoked" && $6 != "-" { t = $1 } END { print t }')
	te=$(fleet_tsv | awk -v s="$t2" '$4 == "g-kip" && $1 >= s { t = $1 } END { print t }')
	ta=$(admin_end "$t2" 3)
	[ -n "$tr" ] || tr=$tb
	th=${ta:-$te}
	[ "$te" -lt "$th" ] && th=$te
	return 0
}

KJ=$T_TMP/poll.json
KL=$T_TMP/log.json
kgtop_bg "$KJ" -b "$KAFKA_BOOT" --json -i 1
KP=$KG_PID
kgtop_bg "$KL" -b "$KAFKA_BOOT" --json -i 1 --trace "log:file://$KAFKA_LOG1" --trace-from-start
KPL=$KG_PID

# --- step 1: k1 and k2 join
fleet join k1 group=g-kip topic=t1 protocol=consumer poll=8000
fleet join k2 group=g-kip topic=t1 protocol=consumer poll=8000
t_wait_for 60 owns k1 && t_wait_for 60 owns k2 && t_wait_for 60 settled k1 k2
t_ok $? "truth: k1 and k2 share t1, each at its target (the Java admin client's ConsumerGroupDescribe)"
"$PROBE" "$KAFKA_BOOT" g-kip >"$T_TMP/probe.txt" 2>&1
sed 's/^/# probe: /' "$T_TMP/probe.txt"
grep -qE '^ListGroups: g-kip state=(Stable|Unknown) ' "$T_TMP/probe.txt"
t_ok $? "librdkafka's listing has the consumer group: Stable (or Unknown while it reconciles: 2.0.2 has no name for KIP-848's states)"
if [ "$DESCRIBES" = 1 ]; then
	t_contains "$T_TMP/probe.txt" "DescribeGroups: g-kip state=Stable members=2 error=none assignor='uniform'" \
		"librdkafka >= 2.10 describes it (ConsumerGroupDescribe): Stable, 2 members, the uniform assignor"
	t_wait_for 30 picture k1 k2
	t_ok $? "step 1 (two members): kgtop's members, what each holds and its target are the callbacks' and the broker's"
else
	t_contains "$T_TMP/probe.txt" "DescribeGroups: g-kip state=Dead members=0 error=none" \
		"librdkafka 2.0.2's DescribeGroups: Dead, no member, no error (as for a group that does not exist)"
	note() { kg_group "$KJ" g-kip | grep -q '"note":"members need librdkafka >= 2.10 (this build: 2\.0\.2)"'; }
	t_wait_for 30 note
	t_ok $? "kgtop says why it shows no member: 'members need librdkafka >= 2.10 (this build: 2.0.2)'"
fi
exact "step1" k1 k2
kg_group "$KJ" g-kip | grep -q '"type":"consumer"'
t_ok $? "kgtop: g-kip is a consumer group (type consumer, protocol consumer)"
st=$(kg_group "$KJ" g-kip | jstr state)
[ "$st" = Stable ] || [ "$st" = Reconciling ] || [ "$st" = Unknown ]
t_ok $? "kgtop: its state is the listing's (Stable, Reconciling, or Unknown with the name librdkafka lost), never Dead (got $st)"
fleet describe g-kip
ep=$(grep '"ev":"described","group":"g-kip"' "$FLEET" | tail -1 | jnum group_epoch)
aep=$(grep '"ev":"described","group":"g-kip"' "$FLEET" | tail -1 | jnum assignment_epoch)
epochs() {
	g=$(kg_group "$KL" g-kip)
	[ "$(echo "$g" | "$JSONQ" .group_epoch.value)" = "$ep" ] && [ "$(echo "$g" | "$JSONQ" .assignment_epoch.value)" = "$aep" ]
}
t_wait_for 30 epochs
t_ok $? "kgtop with the coordinator's log: group epoch $ep and target assignment epoch $aep, as the broker describes them"
echo "# exact: step1 epochs: kgtop $(kg_group "$KL" g-kip | "$JSONQ" .group_epoch.value)/$(kg_group "$KL" g-kip | "$JSONQ" .assignment_epoch.value) (source $(kg_group "$KL" g-kip | "$JSONQ" .group_epoch.source)) / admin $ep/$aep"
t_is "$(kg_group "$KJ" g-kip | "$JSONQ" .group_epoch)" null "kgtop polling alone: the group epoch is not known (librdkafka gives none), and says so (null)"

# --- step 2: k3 joins (a JVM of its own): the targets move, k1 and k2 revoke, k3 gets what they released
L2=$(kg_lines "$KJ")
L2L=$(kg_lines "$KL")
t2=$(date +%s%3N)
fleet join k3 group=g-kip topic=t1 protocol=consumer poll=8000 jvm=child
t_wait_for 60 owns k3 && t_wait_for 60 settled k1 k2 k3
t_ok $? "truth: k3 joined, every member at its target"
if [ "$DESCRIBES" = 1 ]; then
	t_wait_for 30 picture k1 k2 k3
	t_ok $? "step 2 (k3 joined): kgtop's members, holdings and targets are the callbacks' and the broker's"
	ended() { kg_events "$KJ" "$L2" | grep '"kind":"rebalance_end","group":"g-kip"' | grep -q 'joined: k3'; }
	t_wait_for 30 ended
	t_ok $? "kgtop polling: the reconciliation is one episode, ended"
	e=$(kg_events "$KJ" "$L2" | grep '"kind":"rebalance_end","group":"g-kip"' | grep 'joined: k3' | head -1)
	kg_dump "$KJ" "$L2" | sed "s/^#  /# KJ/"
	fleet_tsv | awk -v s="$t2" '$4 == "g-kip" && $1 >= s' | sed 's/^/#   callback: /'
	t_is "$(kg_events "$KJ" "$L2" | grep '"kind":"rebalance_start","group":"g-kip"' | grep -c 'joined: k3')" 1 "one episode for the join (no rounds: no second one)"
	step2_truth
	dmin=$(echo "$e" | jnum duration_min_ms)
	dmax=$(echo "$e" | jnum duration_max_ms)
	echo "# exact: step2 duration: kgtop ${dmin}-${dmax} ms / truth $((tr - tb))-$((th - tb)) ms (the bump to the last revoke's callback, to the last callback or the first settled description; callbacks: last at $((te - tb)), the description at $((ta - tb)))"
	le "$dmin" "$((th - tb))" && le "$((tr - tb))" "$dmax"
	t_ok $? "its duration's bounds (${dmin}-${dmax} ms) meet the truth ($((tr - tb))-$((th - tb)) ms)"
	echo "$e" | grep -q '"members_stopped":0'
	t_ok $? "no member stopped for a barrier (members_stopped 0): k1 and k2 kept consuming what they kept"
	# its cost: partitions without a consuming owner, from their revoke to their new owner's assignment
	set -- $(truth_cost g-kip "$t2")
	umin=$(echo "$e" | jnum unconsumed_partition_ms_min)
	umax=$(echo "$e" | jnum unconsumed_partition_ms_max)
	echo "# exact: step2 cost: kgtop $(echo "$e" | jnum partitions_unconsumed) partitions ${umin}-${umax} partition-ms / callbacks $3 partitions $4 partition-ms, $1 members stopped"
	t_is "$(echo "$e" | jnum partitions_unconsumed)" "$3" "as many partitions went unconsumed as the callbacks say"
	# no upper bound (null) where a moved partition was never seen consumed (no commit moved it: t1 is
	# idle here), and then the end event claims none ("at least", or "for an unknown time" when the
	# least is 0); the lower bound always holds the truth
	if [ -n "$umax" ]; then le "$umin" "$4" && le "$4" "$umax"; else
		le "$umin" "$4" && echo "$e" | grep -q 'unconsumed for an unknown time\|unconsumed \\u2265\|unconsumed ≥'
	fi
	t_ok $? "the unconsumed partition-ms bounds (${umin}-${umax:-no upper bound}) hold the callbacks' $4"
	for c in k1 k2; do
		rv=$(fleet_tsv | awk -v s="$t2" -v c="$c" '$1 >= s && $3 == c && $2 == "revoked" && $6 != "-" { print $6 }' | tr ',' '\n' | sort -t- -k2n | paste -sd, -)
		kr=$(kg_events "$KJ" "$L2" | grep "\"kind\":\"revoked\",\"group\":\"g-kip\"" | grep "\"client_id\":\"$c\"" | kg_parts | tr ',' '\n' | sort -t- -k2n | paste -sd, -)
		echo "# exact: step2 $c revoked: kgtop ${kr:--} / callbacks ${rv:--}"
		t_is "$kr" "$rv" "$c revoked what its callback says it revoked"
	done
	ka=$(kg_events "$KJ" "$L2" | grep '"kind":"assigned","group":"g-kip"' | grep '"client_id":"k3"' | kg_parts | tr ',' '\n' | sort -t- -k2n | paste -sd, -)
	t_is "$ka" "$(fleet_owned k3 | fset)" "k3 was assigned what its callbacks say it owns"
	# kafka-consumer-groups.sh --describe --members --verbose: the same holdings and targets
	kcg --describe --group g-kip --members --verbose >"$T_TMP/kcg.txt" 2>&1
	sed 's/^/# kcg: /' "$T_TMP/kcg.txt"
	for c in k1 k2 k3; do
		row=$(awk -v c="$c" '$4 == c' "$T_TMP/kcg.txt")
		cur=$(echo "$row" | awk '{print $7}' | sed 's/^t1://' | tr ',' '\n' | grep -v '^-$' | sed 's/^/t1-/' | paste -sd, -)
		tgt=$(echo "$row" | awk '{print $9}' | sed 's/^t1://' | tr ',' '\n' | grep -v '^-$' | sed 's/^/t1-/' | paste -sd, -)
		t_is "$(kg_key_set "$KJ" "$c" assignment) $(kg_key_set "$KJ" "$c" target)" "$cur $tgt" \
			"$c: kgtop's current and target assignment are kafka-consumer-groups.sh's CURRENT-ASSIGNMENT and TARGET-ASSIGNMENT"
	done
fi
exact "step2" k1 k2 k3
# with the coordinator's log the episode starts at the bump, measured (retimed when the log is read late)
endl() { kg_events "$KL" "$L2L" | grep -q '"kind":"rebalance_end","group":"g-kip"'; }
if [ "$DESCRIBES" = 1 ]; then
	t_wait_for 30 endl
	t_ok $? "kgtop with the log: the join's episode ended"
	# the log's lines of the join read (a line read after the end retimes the episode in the same tick)
	fleet describe g-kip
	ep=$(grep '"ev":"described","group":"g-kip"' "$FLEET" | tail -1 | jnum group_epoch)
	aep=$(grep '"ev":"described","group":"g-kip"' "$FLEET" | tail -1 | jnum assignment_epoch)
	t_wait_for 30 epochs
	t_is "$(kg_events "$KL" "$L2L" | grep -c '"kind":"rebalance_start","group":"g-kip"')" 1 "with the log too, one episode for one join" ||
		true
	kg_dump "$KL" "$L2L" | sed "s/^#  /# KL/"
	el=$(kg_events "$KL" "$L2L" | grep -E '"kind":"(rebalance_end|retimed)","group":"g-kip"' | tail -1)
	step2_truth
	lmin=$(echo "$el" | jnum duration_min_ms)
	lmax=$(echo "$el" | jnum duration_max_ms)
	echo "# exact: step2 duration with the log: kgtop ${lmin}-${lmax} ms / truth $((tr - tb))-$((th - tb)) ms; $(echo "$el" | jstr message)"
	le "$lmin" "$((th - tb))" && le "$((tr - tb))" "$lmax"
	t_ok $? "with the log its bounds (${lmin}-${lmax} ms, the start measured) meet the truth ($((tr - tb))-$((th - tb)) ms)" || {
		echo "# bump $tb, last revoke's callback $tr, last callback $te, first settled description $ta"
		kg_events "$KL" "$L2L" | sed 's/.*"time":"\([^"]*\)".*"kind":"\([a-z_]*\)".*"message":"\([^"]*\)".*/# KLt \1 \2 \3/'
		grep -n '"data_time"' "$KL" | tail -4 | "$JSONQ" -l '.groups[0].data_time' 2>/dev/null | sed 's/^/# KL data_time /'
	}
	# what it cost and who triggered it: the log changes the times, not the partitions nor the names
	elend=$(kg_events "$KL" "$L2L" | grep '"kind":"rebalance_end","group":"g-kip"' | tail -1)
	set -- $(truth_cost g-kip "$t2")
	t_is "$(echo "$elend" | jnum partitions_unconsumed)" "$3" "with the log too, as many partitions went unconsumed as the callbacks say"
	echo "$elend" | grep -q 'joined: k3[;,"]'
	t_ok $? "with the log too, the episode names its joiner by its client id (the log names it by its member id alone)" ||
		echo "# $(echo "$elend" | jstr message)"
fi
fleet describe g-kip
ep=$(grep '"ev":"described","group":"g-kip"' "$FLEET" | tail -1 | jnum group_epoch)
aep=$(grep '"ev":"described","group":"g-kip"' "$FLEET" | tail -1 | jnum assignment_epoch)
t_wait_for 30 epochs
t_ok $? "kgtop with the log: group epoch $ep, target assignment epoch $aep after the join"
e3=$(grep '"ev":"assigned","c":"k3"' "$FLEET" | tail -1 | jnum gen)
echo "# exact: step2 k3's member epoch (its callback): $e3; the group's target assignment epoch $aep; kgtop: not known (no source gives member epochs at INFO)"

# the log read alone (no cluster polled, any librdkafka): members' reconciliation is not in the log,
# so an episode's length is a lower bound; a bump after the last one's target was computed is a
# reconciliation of its own (a quiet spell of 3 s took k1's and k2's formation and k3's join for one
# "rebalance ended after >=3.5s": no reconciliation lasted that long; DISAGREEMENTS' log-only).
# k3's join: an episode begun at its own bump (group epoch $ep), its lower bound within the truth's.
lonly() {
	"$KGTOP" -c none --trace "log:file://$KAFKA_LOG1" --trace-from-start --once --json >"$T_TMP/lonly.json" 2>"$T_TMP/lonly.err" &&
		kg_events "$T_TMP/lonly.json" | grep '"kind":"rebalance_end","group":"g-kip"' | grep -q "\"generation\":$ep[,}]"
}
t_wait_for 30 lonly
t_ok $? "log alone: a kgtop reading only the coordinator's log ended k3's join at group epoch $ep"
lj=$(kg_events "$T_TMP/lonly.json" | grep '"kind":"rebalance_end","group":"g-kip"' | grep "\"generation\":$ep[,}]" | head -1)
lje=$(echo "$lj" | jnum episode)
t_is "$(kg_events "$T_TMP/lonly.json" | grep '"kind":"rebalance_start","group":"g-kip"' | grep "\"episode\":$lje," | jnum generation)" "$ep" \
	"log alone: that episode began at the join's bump (group epoch $ep), not at the formation's"
step2_truth
le "$(echo "$lj" | jnum duration_min_ms)" "$((th - tb))"
t_ok $? "log alone: its length, at least $(echo "$lj" | jnum duration_min_ms) ms, is not beyond the truth ($((tr - tb))-$((th - tb)) ms)"

# --- step 3: k3 crashes (SIGKILL of its JVM): fenced when its session (6 s, the broker's) expires
L3=$(kg_lines "$KJ")
k3=$(grep '"ev":"assigned","c":"k3"' "$FLEET" | tail -1 | sed 's/.*"member":"\([^"]*\)".*/\1/')
fleet crash k3
t_wait_for 30 grep -q "Member $k3 fenced from the group because the member session expired" "$KAFKA_LOG1"
t_ok $? "truth: the coordinator fences the crashed k3 when its session expires"
t_wait_for 60 settled k1 k2
t_ok $? "truth: k1 and k2 took k3's partitions"
if [ "$DESCRIBES" = 1 ]; then
	t_wait_for 30 picture k1 k2
	t_ok $? "step 3 (k3 crashed): kgtop's members, holdings and targets are the callbacks' and the broker's" ||
		{ kg_dump "$KJ" "$L3"; echo "# kgtop: $(kg_group "$KJ" g-kip | "$JSONQ" '.members[]' | cut -c1-300)"; tail -3 "$FLEET" | cut -c1-300 | sed 's/^/# fleet: /'; }
	gone() { kg_events "$KJ" "$L3" | grep '"kind":"member_left","group":"g-kip"' | grep -q '"client_id":"k3"'; }
	t_wait_for 30 gone
	t_ok $? "kgtop polling: k3 left"
fi
exact "step3" k1 k2
left() { kg_events "$KL" | grep '"kind":"member_left"' | grep "\"member_id\":\"$1\"" | grep -q "\"reason\":\"$2\""; }
t_wait_for 30 left "$k3" session_timeout
t_ok $? "kgtop with the log: k3 left on its session timeout"

# --- step 4: k2 stalls past max.poll.interval.ms (8 s): it sends a leaving heartbeat
L4=$(kg_lines "$KJ")
k2=$(grep '"ev":"assigned","c":"k2"' "$FLEET" | tail -1 | sed 's/.*"member":"\([^"]*\)".*/\1/')
fleet stall k2
t_wait_for 30 grep -q "Member $k2 left the consumer group" "$KAFKA_LOG1"
t_ok $? "truth: the stalled k2 leaves ('Member $k2 left the consumer group.')"
allk1() { fleet describe g-kip >/dev/null && [ "$(truth_set k1 assignment)" = "t1-0,t1-1,t1-2,t1-3,t1-4,t1-5" ] && [ "$(fleet_owned k1 | fset)" = "t1-0,t1-1,t1-2,t1-3,t1-4,t1-5" ]; }
t_wait_for 60 allk1
t_ok $? "truth: k1 owns all six"
if [ "$DESCRIBES" = 1 ]; then
	t_wait_for 30 picture k1
	t_ok $? "step 4 (k2 stalled): kgtop shows k1 alone with all six, at its target"
fi
exact "step4" k1
t_wait_for 30 left "$k2" unknown
t_ok $? "kgtop with the log: k2 left, reason unknown (the log cannot tell a stall from a close)"

# --- step 5: k1 leaves: the group is empty
k1=$(grep '"ev":"assigned","c":"k1"' "$FLEET" | tail -1 | sed 's/.*"member":"\([^"]*\)".*/\1/')
fleet leave k1
t_wait_for 30 grep -q "Member $k1 left the consumer group" "$KAFKA_LOG1"
t_ok $? "truth: k1's close is logged with the same words"
empty() { g=$(kg_group "$KJ" g-kip) && [ "$(echo "$g" | jstr state)" = Empty ] && ! echo "$g" | grep -q '"member_id"'; }
t_wait_for 30 empty
t_ok $? "kgtop polling: g-kip is Empty, no member"
t_wait_for 30 left "$k1" unknown
t_ok $? "kgtop with the log: k1 left, reason unknown"
t_is "$(kg_events "$KJ" | grep -c '"kind":"group_gone","group":"g-kip"')" 0 "the group never vanished from kgtop's picture"
if [ "$DESCRIBES" = 0 ]; then
	t_is "$(kg_events "$KJ" | grep -c '"kind":"state","group":"g-kip".*"to":"Dead"')" 0 "never shown Dead"
fi
kgtop_stop "$KP"
kgtop_stop "$KPL"
kafka_stop
t_ok "$(kafka_no_jvm_left; echo $?)" "no JVM of this test is left (the child JVM included)"
t_done
