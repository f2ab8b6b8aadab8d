#!/bin/sh
# test_honest.sh: issue 22's polled symptoms end to end, against the fixture broker's script
# (scenarios/honest.json, 20 s): a group forming member by member and a rolling restart are not
# storms, a member leaving and coming back again and again is; a crashed member (its commits stop at
# 4 s, the coordinator removes it at 12 s) is called silent from its overdue commits before the
# removal, the removal is a timeout, inferred ("session or max.poll": the limits are not told), and the
# members that take its partitions over are never called silent; a member gone a refresh after its own
# commit (sooner than any timeout fires) "left", not "unknown".
. "${top_srcdir:-.}/tests/cli/lib.sh"

fixture_start "$top_srcdir/tests/integration/scenarios/honest.json" || { t_ok 1 "fixture broker starts"; t_done; exit 1; }
"$KGTOP" -b "$BOOTSTRAP" -i 0.5 --json --duration 20 >"$T_TMP/h.json" 2>"$T_TMP/h.err"
t_is $? 0 "--json -i 0.5 --duration 20 on honest.json exits 0"
fixture_stop
"$JSONQ" -l '.events[]' <"$T_TMP/h.json" >"$T_TMP/ev" 2>/dev/null
# ev KIND GROUP: the events of that kind in that group, one a line
ev() { grep -F "\"kind\":\"$1\",\"group\":\"$2\"" "$T_TMP/ev"; }

t_ok "$([ "$(ev rebalance_end g-form | wc -l)" -ge 4 ] && echo 0 || echo 1)" \
	"g-form: its formation was seen, a rebalance per member joining ($(ev rebalance_end g-form | wc -l))"
t_is "$(ev storm_begin g-form | wc -l)" 0 "g-form: six members joining 1.5 s apart is no storm (it was: 3 rebalances in 5m)"
t_ok "$([ "$(ev member_left g-roll | wc -l)" -ge 3 ] && echo 0 || echo 1)" \
	"g-roll: the rolling restart's leaves were seen ($(ev member_left g-roll | wc -l))"
t_is "$(ev storm_begin g-roll | wc -l)" 0 "g-roll: a rolling restart of 4 is no storm (it was)"
t_is "$(ev member_left g-roll | grep -c '"reason":"left"')" "$(ev member_left g-roll | wc -l)" \
	"g-roll: each member gone right after its own commits 'left' (it was 'unknown')"
t_ok "$([ "$(ev storm_begin g-storm | wc -l)" -ge 1 ] && echo 0 || echo 1)" "g-storm: s2 leaving and coming back again and again is a storm"
t_contains "$T_TMP/ev" "s2 joined or left in 3 rebalances" "g-storm: the storm names the member that churns"

silent=$(ev member_silent g-crash)
t_is "$(echo "$silent" | grep -c '"client_id":"c3"')" 1 "g-crash: c3 is called silent once (it was not, until removed)"
t_contains "$T_TMP/ev" "commits overdue on [4 5]" "g-crash: from its overdue commits, naming its partitions"
t_is "$(echo "$silent" | grep -c '"client_id":"c[12]"')" 0 "g-crash: c1 and c2, who took [4 5] over, are never called silent"
seq_silent=$(echo "$silent" | grep '"client_id":"c3"' | sed 's/^{"seq":\([0-9]*\).*/\1/')
left=$(ev member_left g-crash)
seq_left=$(echo "$left" | sed 's/^{"seq":\([0-9]*\).*/\1/')
t_ok "$([ -n "$seq_silent" ] && [ -n "$seq_left" ] && [ "$seq_silent" -lt "$seq_left" ] && echo 0 || echo 1)" \
	"g-crash: silent (event $seq_silent) before the coordinator removed c3 (event $seq_left)"
t_is "$(echo "$left" | grep -c '"reason":"timeout"')" 1 "g-crash: c3's removal after silence is a timeout"
t_contains "$T_TMP/ev" "left: c3 (session or max.poll timeout, inferred)" "g-crash: said inferred (it was 'left: c3 (unknown)')"
t_done
