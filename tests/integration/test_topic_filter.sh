#!/bin/sh
# test_topic_filter.sh: -t REGEX lists only the groups that use a matching
# topic (issue 11, finding 8: groups without one were listed as empty
# rows), in --once, --json and the group count alike.
. "${top_srcdir:-.}/tests/cli/lib.sh"

fixture_start stable.json --manual || exit 1

"$KGTOP" -b "$BOOTSTRAP" -t payments --once >"$T_TMP/once.txt" 2>"$T_TMP/once.err"
t_is "$?" 0 "--once -t payments exits 0"
t_is "$(grep -E '^GROUP [^ ]+$' "$T_TMP/once.txt" | tr '\n' ' ')" "GROUP g-coop GROUP g-idle " \
	"-t payments lists the groups that use payments, and only them"
grep -q "2 groups" "$T_TMP/once.txt"
t_ok $? "the report counts 2 groups"
"$KGTOP" -b "$BOOTSTRAP" -t 'orders|clicks' --json --full --duration 1 >"$T_TMP/out.json" 2>/dev/null
last=$(tail -1 "$T_TMP/out.json")
t_is "$(echo "$last" | "$JSONQ" '.groups|length') $(echo "$last" | "$JSONQ" '.groups[0].id') $(echo "$last" | "$JSONQ" '.groups[1].id')" \
	"2 g-multi g-range" "--json -t 'orders|clicks' lists g-multi and g-range"
"$KGTOP" -b "$BOOTSTRAP" --once >"$T_TMP/all.txt" 2>/dev/null
t_is "$(grep -Ec '^GROUP [^ ]+$' "$T_TMP/all.txt")" 4 "without -t every group is listed"
fixture_stop
t_done
