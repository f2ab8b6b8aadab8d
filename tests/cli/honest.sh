#!/bin/sh
# honest.sh: issue 22 from the command line, against the fixture broker: what cannot be judged is
# UNKNOWN, never OK (progress.json's six groups, one of them frozen); --check on 2,000 groups (big.json)
# stays within the 8 KB Nagios keeps, a short first line and the groups' details after it, labels
# apart; two --once runs read the same partitions' records (the report's order); --json of an
# unreachable cluster exits 1; --check with --json or --once is a usage error (UNKNOWN, 3).
. "${top_srcdir:-.}/tests/cli/lib.sh"

# ---------------------------------------------------------------- conflicting modes, an unreachable cluster
"$KGTOP" -b 127.0.0.1:1 --once --json --check >"$T_TMP/modes" 2>"$T_TMP/modes.err"
t_is $? 3 "--once --json --check: a usage error, UNKNOWN in check mode (it ran --check)"
t_contains "$T_TMP/modes" "KGTOP UNKNOWN - usage: --check prints one status line: drop --json and --once" "said on the status line"
"$KGTOP" -b 127.0.0.1:1 --check --json >"$T_TMP/modes2" 2>&1
t_is $? 3 "--check --json (either order): refused"
timeout 30 "$KGTOP" -b 127.0.0.1:1 --json --duration 2 >"$T_TMP/unreach.json" 2>"$T_TMP/unreach.err"
t_is $? 1 "--json --duration against an unreachable cluster exits 1 (it exited 0)"
t_contains "$T_TMP/unreach.err" "kgtop: kafka: never answered: " "and says the cluster never answered"

# ---------------------------------------------------------------- never OK before judged
fixture_start progress.json --manual || { t_ok 1 "fixture broker starts"; t_done; exit 1; }
"$KGTOP" -b "$BOOTSTRAP" --check >"$T_TMP/six" 2>&1
t_is $? 3 "six groups, one frozen, one refresh: UNKNOWN (it said KGTOP OK - 6 groups OK, exit 0)"
t_contains "$T_TMP/six" "KGTOP UNKNOWN - " "the line says UNKNOWN"
t_lacks "$T_TMP/six" "groups OK |" "and never that every group is OK"
t_contains "$T_TMP/six" "g-stall UNKNOWN: " "naming the group"
t_contains "$T_TMP/six" "not judged yet [0 1 2 3] (--duration 32 judges commits)" "its partitions and the --duration that judges them"
"$KGTOP" -b "$BOOTSTRAP" -g '^g-stall$' --once --json >"$T_TMP/six.json" 2>&1
t_is "$("$JSONQ" .groups[0].verdict <"$T_TMP/six.json")" PENDING \
	"--json: g-stall's verdict is PENDING (it was null: not judged)"
t_is "$("$JSONQ" .groups[0].time_lag_kind <"$T_TMP/six.json")" exact \
	"its time lag is exact: every lagging partition's record was read"
"$KGTOP" -b "$BOOTSTRAP" --once >"$T_TMP/six.txt" 2>&1
t_is "$(awk '$1=="g-stall" && NF==11 {print $11}' "$T_TMP/six.txt" | sort -u | tr '\n' ' ')" "PENDING " \
	"--once: the STATUS of g-stall's lagging partitions is PENDING (it was -)"
"$KGTOP" -b "$BOOTSTRAP" --once --json >"$T_TMP/all.json" 2>&1
t_is "$(for g in 0 1 2 3 4 5; do "$JSONQ" ".groups[$g].partitions[]" <"$T_TMP/all.json"; done | grep -c '"time_lag_kind":"exact"')" 13 \
	"--once --json of the six groups: 13 exact time lags, every lagging partition's record read (it was 9)"
t_is "$(grep -c '"time_lag_reason":"no_samples"' "$T_TMP/all.json")" 0 \
	"no partition left without its read because another group reads the same partition at another offset"
# /metrics before anything is judged: g-stall is pending, not ok
KPORT=$("$top_builddir/tests/tools/httpload" port)
KGTOP_CONFIG=none "$KGTOP" -b "$BOOTSTRAP" -i 0.5 --serve "127.0.0.1:$KPORT" >/dev/null 2>"$T_TMP/serve.err" &
KPID=$!
T_PIDS="$T_PIDS $KPID"
# metrics_has LINE: true when /metrics has that line
metrics_has() {
	curl -s --max-time 2 "http://127.0.0.1:$KPORT/metrics" >"$T_TMP/metrics" 2>/dev/null && grep -qF "$1" "$T_TMP/metrics"
}
t_wait_for 15 metrics_has 'group="g-stall",verdict="pending"} 1'
t_ok $? "/metrics: g-stall's verdict is pending before kgtop could judge it (it said verdict=\"ok\")"
t_is "$(grep '^kgtop_group_verdict{' "$T_TMP/metrics" | grep -F 'group="g-stall",verdict="ok"}' | awk '{print $2}')" 0 \
	"and its ok series is 0"
kill "$KPID"
wait "$KPID" 2>/dev/null
fixture_stop

# ---------------------------------------------------------------- 2,000 groups: --check within 8 KB, --once in report order
fixture_start big.json || { t_ok 1 "fixture broker starts (big)"; t_done; exit 1; }
"$KGTOP" -b "$BOOTSTRAP" --check --timeout 60 >"$T_TMP/big.check" 2>&1
t_is $? 3 "--check on 2,000 groups, one refresh: UNKNOWN"
t_is "$(wc -c <"$T_TMP/big.check" | awk '{print ($1 <= 8000)}')" 1 "the whole output within the 8 KB Nagios keeps (it was one line of 380 KB at 2,000 groups)"
t_is "$(head -1 "$T_TMP/big.check" | wc -c | awk '{print ($1 <= 3200)}')" 1 "a short first line: counts, the worst named, performance data within its share"
t_is "$(wc -l <"$T_TMP/big.check" | awk '{print ($1 >= 10)}')" 1 "the groups' details on lines of their own (the plugins' long output)"
t_contains "$T_TMP/big.check" "performance data for " "and says for how many groups the performance data are"
t_is "$(head -1 "$T_TMP/big.check" | sed 's/^[^|]*|//' | tr ' ' '\n' | grep -o "^'[^']*'" | sort | uniq -d | wc -l | tr -d ' ')" 0 \
	"every performance data label once"
"$KGTOP" -b "$BOOTSTRAP" --once --timeout 60 >"$T_TMP/once1" 2>&1
"$KGTOP" -b "$BOOTSTRAP" --once --timeout 60 >"$T_TMP/once2" 2>&1
awk 'NF == 11 && $10 ~ /^[0-9]/ {print $1, $2, $3}' "$T_TMP/once1" | sort >"$T_TMP/exact1"
awk 'NF == 11 && $10 ~ /^[0-9]/ {print $1, $2, $3}' "$T_TMP/once2" | sort >"$T_TMP/exact2"
t_is "$(wc -l <"$T_TMP/exact1" | awk '{print ($1 > 0)}')" 1 "--once reads records for an exact time lag"
cmp -s "$T_TMP/exact1" "$T_TMP/exact2"
t_ok $? "two --once runs read the same partitions (the budget of 1,000 reads in the report's order)"
# the report's order: the groups with a read are the first ones of the report with lag, then others sharing their partitions
t_is "$(awk 'NF == 11 && $1 != "GROUP" && $6 > 0 {print $1}' "$T_TMP/once1" | uniq | head -1)" \
	"$(awk 'NF == 11 && $1 != "GROUP" && $10 ~ /^[0-9]/ {print $1}' "$T_TMP/once1" | uniq | head -1)" \
	"the first group of the report with lag is read first"
fixture_stop
t_done
