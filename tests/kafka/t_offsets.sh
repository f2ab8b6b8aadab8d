#!/bin/sh
# t_offsets.sh: --trace offsets (issue 23), the coordinator's own records in __consumer_offsets, against a
# real Kafka 4.x broker and the truth of the fleet's callbacks and commits and the coordinator's log:
#   A. groups formed before kgtop starts: their generations and the rebalances before kgtop watched;
#   B. a 4th member joins an eager and a cooperative group: rounds exact, the end at the record, the
#      durations (and, with the coordinator's log read too, the same episodes, measured);
#   C. a static member restarts within its session: no generation, said exactly;
#   D. a member stops polling: STALLED since its last commit, the commit's own time; --check run fresh
#      (as from cron) knows when commits stopped;
#   E. a KIP-848 group grows: the group epoch's record and the last member's bound the rebalance;
#   F. every record the broker wrote was read, none unknown, none unreadable.
# Each value kgtop gives is printed beside the truth (# lines), for DISAGREEMENTS.md.
. "${top_srcdir:-.}/tests/cli/lib.sh"
. "$top_srcdir/tests/kafka/kafka.sh"

kafka_up 1
fleet topic t1 6 && fleet produce t1 30 && fleet topic p2 2 && fleet produce p2 10
owns() { o=$(fleet_owned "$1"); [ -n "$o" ] && [ "$o" != "[]" ]; }
for c in r1 r2 r3; do fleet join $c group=g-range topic=t1 assignor=range session=6000; done
for c in c1 c2 c3; do fleet join $c group=g-coop topic=t1 assignor=cooperative-sticky session=6000 poll=8000; done
fleet join s1 group=g-static topic=t1 instance=i1 session=8000
fleet join s2 group=g-static topic=t1 instance=i2 session=8000
fleet join v1 group=g-stall topic=p2
fleet join k1 group=g-848 topic=t1 protocol=consumer
for c in r1 r2 r3 c1 c2 c3 s1 s2 v1 k1; do t_wait_for 60 owns $c || break; done
t_ok $? "the groups formed before kgtop starts (fleet callbacks)"
# the history is what the coordinator wrote before now
t_wait_for 10 sh -c "[ \$(grep -c 'Assignment received from leader' '$KAFKA_LOG1') -ge 3 ]"
TS=$(date +%s%3N)
# gen_of GROUP: the last generation the fleet's callbacks saw in GROUP
gen_of() { fleet_tsv | awk -v g="$1" '$4 == g { n = $5 } END { print n }'; }

SERVE=$(kafka_free_port)
kgtop_bg "$T_TMP/off.json" -b "$KAFKA_BOOT" --json -i 1 --trace offsets --lag-window 60 --serve "127.0.0.1:$SERVE"
KO=$KG_PID
kgtop_bg "$T_TMP/both.json" -b "$KAFKA_BOOT" --json -i 1 --trace offsets --trace "log:file://$KAFKA_LOG1"
KB=$KG_PID
# src_msg FILE: the offsets source's health in the last line
src_msg() { tail -n 1 "$1" | "$JSONQ" .source.offsets.message 2>/dev/null; }
live() { src_msg "$1" | grep -q '^live, loaded in '; }
t_wait_for 60 live "$T_TMP/off.json" && t_wait_for 60 live "$T_TMP/both.json"
t_ok $? "both kgtops loaded __consumer_offsets and follow it live ($(src_msg "$T_TMP/off.json"))"
seen() { for g in g-range g-coop g-static; do kg_group "$1" $g | grep -q '"generation":' || return 1; done; }
t_wait_for 30 seen "$T_TMP/off.json"
t_ok $? "every classic group has its generation"

# ---- A. before kgtop watched
# A formation of several generations (the first member alone, then the rest) is one rebalance before kgtop
# watched; its records after the first are told together, retimed, once they settled (3 s after the last:
# a next generation may follow). Every record of it is older than TS: A counts once kgtop's lines are past
# TS + 4 s (read at once, the counts raced that: "rounds before kgtop watched 1, the coordinator's syncs 2").
past_settled() { [ "$(tail -n 1 "$1" | jnum time_us)" -ge $(((TS + 4000) * 1000)) ]; }
t_wait_for 30 past_settled "$T_TMP/off.json"
t_ok $? "A: kgtop's lines passed the formation's settling (TS + 4 s)"
# syncs_before GROUP: the coordinator's syncs of GROUP before TS
syncs_before() {
	grep "Assignment received from leader .* for group $1 for generation" "$KAFKA_LOG1" | while read -r l; do
		[ "$(line_ms "$l")" -lt "$TS" ] && echo x
	done | wc -l
}
for g in g-range g-coop g-static; do
	t_is "$(kg_group "$T_TMP/off.json" $g | jnum generation)" "$(gen_of $g)" "A: $g's generation at start is the callbacks' ($(gen_of $g))"
done
# rounds of the rebalances before kgtop watched, summed (an episode's last word: its end, or a later retiming)
past_rounds() {
	kg_events "$T_TMP/off.json" | grep "\"group\":\"$1\"" | grep '"kind":"\(rebalance_end\|retimed\)"' |
		awk -v ts="$TS" '{ if (match($0, /"episode":[0-9]+/)) { e = substr($0, RSTART + 10, RLENGTH - 10) }
			if (match($0, /"round":[0-9]+/)) { r[e] = substr($0, RSTART + 8, RLENGTH - 8) }
			if ($0 ~ /before kgtop watched/) past[e] = 1 }
			END { for (e in past) s += r[e]; print s + 0 }'
}
for g in g-range g-coop g-static; do
	truth=$(syncs_before $g)
	got=$(past_rounds $g)
	echo "# A: $g: rounds before kgtop watched $got, the coordinator's syncs $truth"
	t_is "$got" "$truth" "A: $g's rebalances before kgtop watched count every generation the coordinator synced"
done

# ---- B. a fourth member joins
LB0=$(kg_lines "$T_TMP/off.json")
LB0B=$(kg_lines "$T_TMP/both.json")
oldr=$(gen_of g-range)
oldc=$(gen_of g-coop)
fleet join r4 group=g-range topic=t1 assignor=range session=6000
fleet join c4 group=g-coop topic=t1 assignor=cooperative-sticky session=6000 poll=8000
t_wait_for 60 owns r4 && t_wait_for 60 owns c4
t_ok $? "B: r4 and c4 got partitions (fleet callbacks)"
t_wait_for 30 sh -c "[ \$(grep -c 'Assignment received from leader .* for group g-coop for generation $((oldc + 2))\\.' '$KAFKA_LOG1') -ge 1 ]"
newr=$(gen_of g-range)
newc=$(gen_of g-coop)
ended() { kg_events "$1" "$2" | grep '"kind":"rebalance_end"' | grep -q "\"group\":\"$3\""; }
for g in g-range g-coop; do
	t_wait_for 30 ended "$T_TMP/off.json" "$LB0" $g && t_wait_for 30 ended "$T_TMP/both.json" "$LB0B" $g
	t_ok $? "B: both kgtops ended $g's rebalance"
done
# records and log lines read after polling ended an episode retime it, told once they settle (3 s)
last_measured() { kg_events "$1" "$2" | grep '"kind":"\(rebalance_end\|retimed\)"' | grep "\"group\":\"$3\"" | tail -1 | grep -q '"duration_ms":'; }
for g in g-range g-coop; do
	t_wait_for 30 last_measured "$T_TMP/off.json" "$LB0" $g && t_wait_for 30 last_measured "$T_TMP/both.json" "$LB0B" $g
done
n=$(kg_lines "$T_TMP/both.json")
t_wait_for 10 sh -c "[ \$(wc -l <'$T_TMP/both.json') -ge $((n + 2)) ]" # late log lines read
for g in g-range g-coop; do
	if [ $g = g-range ]; then o=$oldr n=$newr; else o=$oldc n=$newc; fi
	prep=$(log_ms "$KAFKA_LOG1" "Preparing to rebalance group $g in state .* with old generation $o ")
	asg=$(log_ms "$KAFKA_LOG1" "Assignment received from leader .* for group $g for generation $n\\.")
	stab=$(log_ms "$KAFKA_LOG1" "Stabilized group $g generation $n ")
	echo "# truth $g: generation $o -> $n ($((n - o)) rounds), preparing $prep, last stabilized +$((stab - prep)) ms, last assignment +$((asg - prep)) ms"
	for f in off both; do
		if [ $f = off ]; then l=$LB0; else l=$LB0B; fi
		ev=$(kg_events "$T_TMP/$f.json" "$l" | grep '"kind":"rebalance_end"' | grep "\"group\":\"$g\"" | tail -1)
		rt=$(kg_events "$T_TMP/$f.json" "$l" | grep '"kind":"retimed"' | grep "\"group\":\"$g\"" | tail -1)
		[ -n "$rt" ] && ev=$rt
		lr=$(kg_group "$T_TMP/$f.json" $g | sed 's/.*"last_rebalance":\({[^}]*}\).*/\1/')
		end=$(date -u -d "$(echo "$ev" | jstr time)" +%s%3N)
		lo=$(echo "$lr" | jnum duration_min_ms)
		hi=$(echo "$lr" | jnum duration_max_ms)
		echo "# $f $g: rounds $(echo "$lr" | jnum rounds) (at least: $(echo "$lr" | grep -o '"rounds_at_least":[a-z]*' | cut -d: -f2)), generation $(kg_group "$T_TMP/$f.json" $g | jnum generation), end $end (the record: $((end - asg)) ms from the last assignment), duration $lo-$hi ms"
		t_is "$(echo "$lr" | jnum rounds) $(echo "$lr" | grep -o '"rounds_at_least":[a-z]*' | cut -d: -f2)" "$((n - o)) false" \
			"B $f: $g's rounds are exact: the generations the callbacks saw ($((n - o)))"
		t_is "$(kg_group "$T_TMP/$f.json" $g | jnum generation)" "$n" "B $f: $g's generation is the callbacks' ($n)"
		le "$((asg - 1))" "$end" && le "$end" "$((asg + 20))"
		t_ok $? "B $f: $g's rebalance ends at its last generation's record ($((end - asg)) ms from the coordinator's 'Assignment received')"
		le "$lo" "$((asg - prep + 20))" && le "$((stab - prep))" "$hi"
		t_ok $? "B $f: $g's duration $lo-$hi ms contains the coordinator's $((stab - prep))-$((asg - prep)) ms"
	done
	# the coordinator's log and its records: one rebalance, measured
	t_is "$(kg_events "$T_TMP/both.json" "$LB0B" | grep '"kind":"rebalance_start"' | grep -c "\"group\":\"$g\"")" 1 \
		"B both: one rebalance of $g for the join (the log and the records in one episode)"
	d=$(kg_group "$T_TMP/both.json" $g | sed 's/.*"last_rebalance":\({[^}]*}\).*/\1/' | jnum duration_ms)
	le "$((asg - prep - 2))" "$d" && le "$d" "$((asg - prep + 20))"
	t_ok $? "B both: $g's duration is measured, $d ms, the coordinator's $((asg - prep)) ms"
done

# ---- C. a static member restarts within its session: no generation
LC0=$(kg_lines "$T_TMP/off.json")
gs=$(gen_of g-static)
np=$(grep -c 'Preparing to rebalance group g-static' "$KAFKA_LOG1")
fleet restart s1
t_wait_for 30 grep -q 'Static member with groupInstanceId=i1 and unknown member id joins group g-static in Stable state' "$KAFKA_LOG1"
t_ok $? "C: truth: the coordinator replaces i1's member id"
back() { kg_events "$T_TMP/off.json" "$LC0" | grep '"kind":"member_back"' | grep -q "generation $gs kept, no rebalance"; }
t_wait_for 30 back
t_ok $? "C: the static restart said exactly: $(kg_events "$T_TMP/off.json" "$LC0" | grep '"kind":"member_back"' | jstr text)"
t_wait_for 30 owns s1
n=$(kg_lines "$T_TMP/off.json")
t_wait_for 10 sh -c "[ \$(wc -l <'$T_TMP/off.json') -ge $((n + 2)) ]"
t_is "$(grep -c 'Preparing to rebalance group g-static' "$KAFKA_LOG1") $(gen_of g-static)" "$np $gs" "C: truth: no rebalance, generation $gs kept"
t_is "$(kg_events "$T_TMP/off.json" "$LC0" | grep '"kind":"rebalance_start"' | grep -c '"group":"g-static"') $(kg_group "$T_TMP/off.json" g-static | jnum generation)" \
	"0 $gs" "C: no rebalance for it, generation $gs"

# ---- D. v1 stops polling: its commits stop, STALLED since the last one
end2=10
at2() { for p in 0 1; do [ "$(fleet_committed g-stall p2-$p)" = "$end2" ] || return 1; done; }
fleet produce p2 3 && end2=13 && t_wait_for 30 at2
t_ok $? "D: v1 commits offset 13 on p2's partitions"
fleet stall v1
fleet produce p2 5
stalled() { kg_group "$T_TMP/off.json" g-stall | grep -q '"verdict":"STALLED"'; }
t_wait_for 60 stalled
t_ok $? "D: g-stall turns STALLED"
g=$(kg_group "$T_TMP/off.json" g-stall)
since=$(date -u -d "$(echo "$g" | jstr verdict_since)" +%s%3N)
for p in 0 1; do
	# the truth: the last commit of v1 that named this partition, between its sending and its answer
	last=$(grep '"ev":"commit","c":"v1"' "$FLEET" | grep "\"p2-$p\":" | tail -1)
	tc=$(echo "$last" | sed 's/^{"t":\([0-9]*\).*/\1/')
	ts=$(echo "$last" | jnum sent)
	pp=$(echo "$g" | sed 's/.*"partitions":\[//' | grep -o "{\"topic\":\"p2\",\"partition\":$p,[^}]*}")
	mv=$(date -u -d "$(echo "$pp" | jstr committed_moved)" +%s%3N)
	mva=$(date -u -d "$(echo "$pp" | jstr committed_moved_after)" +%s%3N)
	echo "# D: truth: v1's last commit sent $ts, answered $tc; kgtop: p2-$p's last commit $mva-$mv, STALLED since $since ($(echo "$g" | jstr verdict_since_kind))"
	t_is "$mva" "$mv" "D: p2-$p's last commit time is exact (the coordinator's record of it)"
	le "$ts" "$mv" && le "$mv" "$tc"
	t_ok $? "D: p2-$p's last commit is v1's: $((mv - ts)) ms after v1 sent it, $((tc - mv)) ms before its answer"
done
le "$mv" "$since"
t_ok $? "D: STALLED since $since: not before the last commit (the later of it and the first record waiting)"
"$KGTOP" -b "$KAFKA_BOOT" --check --trace offsets -g '^g-stall$' --lag-window 60 --timeout 60 >"$T_TMP/check.txt" 2>&1
t_is "$?" 2 "D: --check run fresh (as from cron) exits 2, CRITICAL"
hms=$(date -u -d "@$((mv / 1000))" +%H:%M:%S)
echo "# D: $(cut -c1-300 "$T_TMP/check.txt")"
t_contains "$T_TMP/check.txt" "STALLED [0 1] since " "D: --check says STALLED, from a fresh process"
t_contains "$T_TMP/check.txt" ", last commit $hms," "D: --check says when commits stopped: the last commit's time ($hms)"
"$KGTOP" -b "$KAFKA_BOOT" --check -g '^g-stall$' --lag-window 60 --timeout 60 >"$T_TMP/check-poll.txt" 2>&1
echo "# D: without --trace offsets: $(cut -c1-200 "$T_TMP/check-poll.txt")"

# ---- E. a KIP-848 group grows
LE0=$(kg_lines "$T_TMP/off.json")
e0=$(kg_group "$T_TMP/off.json" g-848 | jnum generation)
fleet join k2 group=g-848 topic=t1 protocol=consumer
t_wait_for 60 owns k2
t_ok $? "E: k2 got partitions (fleet callbacks)"
t_wait_for 30 ended "$T_TMP/off.json" "$LE0" g-848
t_ok $? "E: the KIP-848 rebalance ended"
# the episode's last word: its end, or a retiming when a description closed it before the records came
e_last() { kg_events "$T_TMP/off.json" "$LE0" | grep '"kind":"\(rebalance_end\|retimed\)"' | grep '"group":"g-848"' | tail -1; }
e_measured() { e_last | grep -q '"duration_ms":[0-9]'; }
t_wait_for 15 e_measured
ev=$(e_last)
end=$(date -u -d "$(echo "$ev" | jstr time)" +%s%3N)
asg=$(grep '"ev":"assigned","c":"k2"' "$FLEET" | grep -v '"parts":\[\]' | tail -1 | sed 's/^{"t":\([0-9]*\).*/\1/')
rev=$(grep '"ev":"revoked","c":"k1"' "$FLEET" | tail -1 | sed 's/^{"t":\([0-9]*\).*/\1/')
e1=$(grep '"ev":"assigned","c":"k2"' "$FLEET" | tail -1 | jnum gen)
echo "# E: epoch $e0 -> $(kg_group "$T_TMP/off.json" g-848 | jnum generation) (k2's callbacks: $e1); end $end; k1 revoked at $rev, k2 assigned at $asg; duration $(echo "$ev" | jnum duration_ms) ms ($(echo "$ev" | jstr kind))"
t_is "$(kg_group "$T_TMP/off.json" g-848 | jnum generation)" "$e1" "E: the group epoch is k2's callbacks' ($e1)"
le "$rev" "$end" && le "$end" "$asg"
t_ok $? "E: it ends at the last member's record, after k1 gave up its partitions and before k2's callback got them"
# measured with any librdkafka: < 2.10 cannot describe g-848 (its members not known to polling), the
# records alone tell it (DISAGREEMENTS.md, kip-old-start: a lower bound there before)
t_is "$(echo "$ev" | grep -o '"duration_ms":[0-9.]*' | wc -l)" 1 "E: its duration is measured: two records bound it"
t_ok "$(kg_events "$T_TMP/off.json" "$LE0" | grep '"group":"g-848"' | grep -c '"kind":"round"\|rebalance round')" \
	"E: no JoinGroup round told of the KIP-848 group"

# ---- F. every record read, none unknown or unreadable
kjava -Xmx256m log4j2-tools.properties kgtop.harness.OffsetsDump "$KAFKA_BOOT" >"$T_TMP/dump.jsonl"
t_is "$?" 0 "F: Kafka's own reader decoded the topic"
t_is "$(grep -c '"error"' "$T_TMP/dump.jsonl")" 0 "F: truth: Kafka decodes every record"
total=$(wc -l <"$T_TMP/dump.jsonl")
counted() { src_msg "$T_TMP/off.json" | grep -q "^live, loaded in [^:]*: $total records"; }
t_wait_for 30 counted
t_ok $? "F: kgtop read all $total records: $(src_msg "$T_TMP/off.json")"
t_lacks "$T_TMP/off.json.err" "rror" "F: no error written"
src_msg "$T_TMP/off.json" | grep -q 'unknown and\|unreadable\|not yet named'
t_ok $((1 - $?)) "F: none unknown, none unreadable, every topic id named"
for k in 1 2 3 5 6 7 8; do echo "# F: records of type $k: $(grep -c "\"type\":$k," "$T_TMP/dump.jsonl")"; done
# E against Kafka's own decoding: the bump is g-848's group epoch record of epoch e1, the end its
# last member's assignment record at e1, stable (ConsumerGroupMetadata, ConsumerGroupCurrentMemberAssignment)
rec_t() { grep "\"type\":$1," "$T_TMP/dump.jsonl" | grep '"groupId":"g-848"' | grep "$2" | tail -1 | sed 's/^{"p":[0-9]*,"o":[0-9]*,"t":\([0-9]*\),.*/\1/'; }
bump=$(rec_t 3 "\"epoch\":$e1,")
last=$(rec_t 8 "\"memberEpoch\":$e1,\"previousMemberEpoch\":[0-9]*,\"state\":0,")
echo "# E: truth (Kafka's decoding): epoch $e1's record $bump, the last member's stable record at it $last, $((last - bump)) ms; kgtop: end $end, $(echo "$ev" | jnum duration_ms) ms"
t_is "$end" "$last" "E: its end is the last member's record at epoch $e1 (not an earlier member's)"
t_is "$(echo "$ev" | jnum duration_ms | cut -d. -f1)" "$((last - bump))" "E: its duration is the two records' ($((last - bump)) ms)"
t_is "$(kg_events "$T_TMP/off.json" "$LE0" | grep '"kind":"rebalance_start"' | grep -c '"group":"g-848"')" 1 \
	"E: one rebalance for k2's join (no description opened another)"

curl -s "http://127.0.0.1:$SERVE/metrics" >"$T_TMP/metrics.txt"
echo "# /metrics: $(grep '^kgtop_rebalances_total{' "$T_TMP/metrics.txt" | grep 'g-range' | tr '\n' ' ')"
kgtop_stop "$KO"
kgtop_stop "$KB"
kafka_stop
t_ok "$(kafka_no_jvm_left; echo $?)" "no JVM of this test is left"
t_done
