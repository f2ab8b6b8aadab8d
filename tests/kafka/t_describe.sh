#!/bin/sh
# t_describe.sh: kgtop --once and kafka-consumer-groups.sh --describe --all-groups against the same
# groups of a real Kafka 4.x broker, the fleet frozen (no commit moves between the two calls):
# the nine shared columns equal row by row; kgtop's members and assignments (--json) equal the
# consumers' own callbacks. Also the facts of issue 20: librdkafka talks to Kafka 4.x at all, and
# what kgtop sees of a KIP-848 (group.protocol=consumer) group: with librdkafka >= 2.10 its state
# and members as the Java admin client and kafka-consumer-groups.sh say (issue 21); with 2.0.2
# Dead without members, as Kafka answers its DescribeGroups.
. "${top_srcdir:-.}/tests/cli/lib.sh"
. "$top_srcdir/tests/kafka/kafka.sh"
# librdkafka's minor version (2.0.2: 0, 2.14.2: 14): from 2.10 on it describes consumer groups
RDK_MINOR=$("$KGTOP" --version | sed -n 's/^librdkafka 2\.\([0-9]*\)\..*/\1/p')
DESCRIBES=0
[ "${RDK_MINOR:-0}" -ge 10 ] && DESCRIBES=1

kafka_up 1
fleet topic t1 6 && fleet topic t2 3 && fleet produce t1 50 && fleet produce t2 50
t_ok $? "topics t1 (6 partitions) and t2 (3) with 50 records each"

# groups: eager range, cooperative-sticky, roundrobin on another topic, static, KIP-848, and one emptied
for c in r1 r2 r3; do fleet join $c group=g-range topic=t1 assignor=range; done
for c in c1 c2; do fleet join $c group=g-coop topic=t1 assignor=cooperative-sticky; done
for c in o1 o2; do fleet join $c group=g-rr topic=t2 assignor=roundrobin; done
fleet join s1 group=g-static topic=t2 assignor=range instance=s1-inst
for c in k1 k2; do fleet join $c group=g-848 topic=t1 protocol=consumer assignor=uniform; done
fleet join e1 group=g-empty topic=t2
# every group has committed everything (50 per partition) before the fleet freezes
caught_up() {
	for g in g-range g-coop g-848; do
		for p in 0 1 2 3 4 5; do [ "$(fleet_committed $g t1-$p)" = 50 ] || return 1; done
	done
	for g in g-rr g-static g-empty; do
		for p in 0 1 2; do [ "$(fleet_committed $g t2-$p)" = 50 ] || return 1; done
	done
}
t_wait_for 90 caught_up
t_ok $? "every group committed offset 50 on all its partitions (fleet callbacks)"
# g-848 reconciled: the Java admin client describes it Stable, k1 and k2 each at its target and
# holding what its callbacks say (one of them may have caught up alone before the other joined)
fset() { tr -d '[]" ' | tr ',' '\n' | grep . | sort -t- -k2n | paste -sd, -; }
k848() { grep '"ev":"described","group":"g-848"' "$FLEET" | tail -1 | "$JSONQ" '.members[]' | grep "\"client\":\"$1\"" | "$JSONQ" ".$2" | fset; }
settled848() {
	fleet describe g-848 >/dev/null || return 1
	grep '"ev":"described","group":"g-848"' "$FLEET" | tail -1 | grep -q '"state":"Stable"' || return 1
	for c in k1 k2; do
		[ -n "$(k848 $c assignment)" ] && [ "$(k848 $c assignment)" = "$(k848 $c target)" ] &&
			[ "$(k848 $c assignment)" = "$(fleet_owned $c | fset)" ] || return 1
	done
}
t_wait_for 60 settled848
t_ok $? "g-848 reconciled: Stable, k1 and k2 at their targets, holding what their callbacks say (the Java admin client)"
fleet leave e1
fleet freeze all && fleet produce t1 20 && fleet produce t2 7
t_ok $? "the fleet frozen, 20 more records on t1, 7 on t2 (lag 20 and 7)"

"$KGTOP" -b "$KAFKA_BOOT" --once --timeout 60 >"$T_TMP/once.txt" 2>"$T_TMP/once.err"
t_is "$?" 0 "kgtop (librdkafka $("$KGTOP" --version | sed -n 's/^librdkafka //p')) --once against Kafka 4.x exits 0"
kcg --describe --all-groups >"$T_TMP/kcg.txt" 2>"$T_TMP/kcg.err"
t_is "$?" 0 "kafka-consumer-groups.sh --describe --all-groups exits 0"
"$KGTOP" -b "$KAFKA_BOOT" --once --timeout 60 >"$T_TMP/once2.txt" 2>>"$T_TMP/once.err"

# the classic groups: all nine columns, row by row
kgtop_rows "$T_TMP/once.txt" | grep -v '^g-848 ' >"$T_TMP/k.rows"
kcg_rows "$T_TMP/kcg.txt" | grep -v '^g-848 ' >"$T_TMP/c.rows"
t_is "$(wc -l <"$T_TMP/k.rows")" 21 "kgtop prints the 21 partition rows of the five classic groups"
diff "$T_TMP/c.rows" "$T_TMP/k.rows" >"$T_TMP/rows.diff"
t_ok $? "the nine shared columns equal kafka-consumer-groups.sh's row by row (classic groups)"
sed 's/^/#   /' "$T_TMP/rows.diff" | head -20
kgtop_rows "$T_TMP/once2.txt" | grep -v '^g-848 ' | diff - "$T_TMP/k.rows" >/dev/null
t_ok $? "a second kgtop --once after the tool prints the same rows (the fleet is frozen)"
t_is "$(grep -c '^g-range t1 [0-9] 50 70 20 r[123]-' "$T_TMP/k.rows")" 6 "g-range: committed 50, log end 70, lag 20, a consumer id on each row"
t_is "$(grep -c '^g-empty t2 [0-2] 50 57 7 - - -$' "$T_TMP/k.rows")" 3 "g-empty (its member left): offsets, no consumer, as the tool"

# the KIP-848 group: the offsets agree; the members are issue 21's (ConsumerGroupDescribe)
kgtop_rows "$T_TMP/once.txt" | grep '^g-848 ' | cut -d' ' -f1-6 >"$T_TMP/k848"
kcg_rows "$T_TMP/kcg.txt" | grep '^g-848 ' | cut -d' ' -f1-6 >"$T_TMP/c848"
t_is "$(cat "$T_TMP/k848")" "$(cat "$T_TMP/c848")" "g-848 (group.protocol=consumer): offsets, log end and lag equal the tool's"
t_is "$(wc -l <"$T_TMP/k848")" 6 "kgtop lists the KIP-848 group with its 6 partitions"
k848ids="$(kgtop_rows "$T_TMP/once.txt" | grep '^g-848 ' | cut -d' ' -f7-9 | sort -u | tr '\n' ' ')"
c848ids="$(kcg_rows "$T_TMP/kcg.txt" | grep '^g-848 ' | cut -d' ' -f7-9 | sort -u | tr '\n' ' ')"
k848st="$(awk '/^GROUP g-848$/{f=1} f && /state/{print $2; exit}' "$T_TMP/once.txt")"
if [ "$DESCRIBES" = 1 ]; then
	# librdkafka >= 2.10 asks ConsumerGroupDescribe: kgtop shows the group as Kafka's own tool does
	t_is "$(kgtop_rows "$T_TMP/once.txt" | grep '^g-848 ')" "$(kcg_rows "$T_TMP/kcg.txt" | grep '^g-848 ')" \
		"g-848: the nine shared columns equal kafka-consumer-groups.sh's row by row (who consumes each partition)"
	t_is "$k848st" "$(grep '"ev":"described","group":"g-848"' "$FLEET" | tail -1 | jstr state)" \
		"g-848's state is the Java admin client's (Stable)"
else
	kafka_pending 21 "g-848's consumer ids, hosts and client ids" "$k848ids" "$c848ids"
	kafka_pending 21 "g-848's state" "$k848st" Stable
fi

# --json: members and assignments equal the consumers' own callbacks
"$KGTOP" -b "$KAFKA_BOOT" --once --json --timeout 60 >"$T_TMP/once.json" 2>>"$T_TMP/once.err"
n=$("$JSONQ" '.groups|length' <"$T_TMP/once.json")
i=0
bad=0
checked=0
while [ "$i" -lt "${n:-0}" ]; do
	g=$("$JSONQ" ".groups[$i].id" <"$T_TMP/once.json")
	m=$("$JSONQ" ".groups[$i].members|length" <"$T_TMP/once.json")
	j=0
	while [ "$j" -lt "$m" ]; do
		c=$("$JSONQ" ".groups[$i].members[$j].client_id" <"$T_TMP/once.json")
		got=$("$JSONQ" ".groups[$i].members[$j].assignment[]" <"$T_TMP/once.json" |
			sed 's/.*"topic":"\([^"]*\)","partition":\([0-9]*\).*/\1-\2/' | sort | tr '\n' ' ')
		want=$(fleet_owned "$c" | tr -d '[]"' | tr ',' '\n' | grep . | sort | tr '\n' ' ')
		checked=$((checked + 1))
		if [ "$got" != "$want" ]; then
			bad=$((bad + 1))
			echo "# $g $c: kgtop '$got', its callbacks '$want'"
		fi
		j=$((j + 1))
	done
	i=$((i + 1))
done
if [ "$DESCRIBES" = 1 ]; then
	t_is "$bad/$checked" "0/10" "--json: the 10 members' assignments equal their callbacks' (r1-3, c1-2, o1-2, s1; KIP-848 k1-2)"
else
	t_is "$bad/$checked" "0/8" "--json: the 8 classic members' assignments equal their callbacks' (r1-3, c1-2, o1-2, s1)"
fi
t_is "$("$JSONQ" '.groups[]' <"$T_TMP/once.json" | grep -c '"instance_id":"s1-inst"')" 1 "--json: the static member's group.instance.id"
t_lacks "$T_TMP/once.err" "rror" "kgtop said no error (librdkafka's ApiVersions, ListGroups, DescribeGroups or ConsumerGroupDescribe, OffsetFetch accepted by Kafka 4.x)"

# the same groups on the fixture broker (tests/fixture): a scenario made from the Java admin
# client's answers; kgtop must report both alike (member ids aside: the fixture makes its own)
fleet scenario "$T_TMP/fx.json" g-range g-coop g-rr g-static g-empty g-848
t_ok $? "a fixture scenario of the six groups, from the Java admin client's answers"
# heads FILE: each group's state, type, assignor and member count lines of kgtop --once
heads() { awk '/^GROUP [^ ]+$/ { g = $2 } g != "" && /^  (state|type|assignor|members) / { print g, $1, $2 } g != "" && /^  coordinator / { print g, "offsets", $NF }' "$1"; }
# rows FILE: the partition rows without the consumer id
rows() { kgtop_rows "$1" | cut -d' ' -f1-6,8-9; }
fx_once() {
	fixture_start "$1" || return 1
	"$KGTOP" -b "$BOOTSTRAP" --once --timeout 30 >"$2" 2>&1
	fixture_stop
}
fx_once "$T_TMP/fx.json" "$T_TMP/fx-once.txt"
t_ok $? "kgtop --once on the fixture broker"
t_is "$(heads "$T_TMP/fx-once.txt")" "$(heads "$T_TMP/once.txt")" "fixture and Kafka: kgtop gives each group the same state, type, assignor, member count and __consumer_offsets partition"
t_is "$(rows "$T_TMP/fx-once.txt")" "$(rows "$T_TMP/once.txt")" "fixture and Kafka: the same partition rows (offsets, log ends, lag, host, client id)"
off848=$(heads "$T_TMP/once.txt" | awk '$1 == "g-848" && $2 == "offsets" { print $3 }')
if [ "$DESCRIBES" = 1 ]; then
	# the truth: the Java admin client's description (state, assignor, members)
	d848=$(grep '"ev":"described","group":"g-848"' "$FLEET" | tail -1)
	t_is "$(heads "$T_TMP/fx-once.txt" | grep '^g-848 ')" "g-848 state $(echo "$d848" | jstr state)
g-848 type consumer
g-848 assignor $(echo "$d848" | jstr assignor)
g-848 offsets $off848
g-848 members $(echo "$d848" | "$JSONQ" '.members[]' | grep -c '"member"')" \
		"fixture: the KIP-848 group described (ConsumerGroupDescribe) as the Java admin client describes it on Kafka"
else
	# Kafka 4.3.1 answers librdkafka 2.0.2's DescribeGroups for it Dead, without members: kgtop shows the
	# state the listing gave (the Java admin client's), never Dead, and its members as not known (issue 21)
	d848=$(grep '"ev":"described","group":"g-848"' "$FLEET" | tail -1)
	t_is "$(heads "$T_TMP/fx-once.txt" | grep '^g-848 ')" "g-848 state $(echo "$d848" | jstr state)
g-848 type consumer
g-848 assignor -
g-848 offsets $off848
g-848 members not" "fixture: through librdkafka 2.0.2 the KIP-848 group has its listed state, never Dead, and members not known"
fi
# the fixture as it was (a KIP-848 group described as a classic one) answered unlike Kafka
sed 's/"group_protocol":"consumer"/"group_protocol":"classic"/' "$T_TMP/fx.json" >"$T_TMP/fx-old.json"
fx_once "$T_TMP/fx-old.json" "$T_TMP/fx-old.txt"
[ "$(heads "$T_TMP/fx-old.txt" | grep '^g-848 ')" != "$(heads "$T_TMP/once.txt" | grep '^g-848 ')" ]
t_ok $? "without group_protocol consumer the fixture would describe g-848 unlike Kafka ($(heads "$T_TMP/fx-old.txt" | grep '^g-848 \(state\|type\)' | tr '\n' ' '))"

kafka_stop
t_ok "$(kafka_no_jvm_left; echo $?)" "no JVM of this test is left (pgrep -f $KRUN)"
t_done
