#!/bin/sh
# offsets.sh: --trace offsets (issue 23) against the fixture broker serving __consumer_offsets as a Kafka
# 4.3.1 broker wrote it (tests/data/offsets/kafka-4.3.jsonl, byte for byte): every record read, none
# unknown or unreadable, the groups' generations the last records'; the limits said: a reader refused
# (the ACL it needs, polling goes on), the log start moved past what was read (read again from it);
# the options (a named cluster's trace line, no cluster, the demo's mock). Steps advance on SIGUSR1.
. "${top_srcdir:-.}/tests/cli/lib.sh"

DATA="$top_srcdir/tests/data/offsets/kafka-4.3.jsonl"
total=$(wc -l <"$DATA" | tr -d ' ')
# the truth of the captured records: each classic group's last generation
lastgen() { grep "\"type\":2,\"key\":{\"group\":\"$1\"}" "$DATA" | grep -o '"generation":[0-9]*' | tail -1 | cut -d: -f2; }

fixture_start offsets-records.json --manual || { t_ok 1 "fixture starts"; t_done; exit 1; }
"$KGTOP" -c none -b "$BOOTSTRAP" --trace offsets --once --json --timeout 30 >"$T_TMP/once.json" 2>"$T_TMP/once.err"
t_is "$?" 0 "--once --json --trace offsets exits 0"
msg=$("$JSONQ" .source.offsets.message <"$T_TMP/once.json")
echo "# $msg"
case "$msg" in "live, loaded in "*": $total records: "*) r=0 ;; *) r=1 ;; esac
t_ok $r "every one of the $total records read"
echo "$msg" | grep -q 'unknown and\|unreadable\|not yet named'
t_ok $((1 - $?)) "none unknown, none unreadable, every topic id named: the fixture served them as Kafka wrote them"
for g in cls-coop cls-static; do
	got=$("$JSONQ" '.groups[]' <"$T_TMP/once.json" | grep "^{\"id\":\"$g\"" | grep -o '"generation":[0-9]*' | cut -d: -f2)
	t_is "$got" "$(lastgen $g)" "$g's generation is its last record's ($(lastgen $g))"
done
"$KGTOP" -c none -b "$BOOTSTRAP" --trace offsets --once --timeout 30 >"$T_TMP/once.txt" 2>&1
t_contains "$T_TMP/once.txt" "source offsets: ok: live, loaded in" "--once's report says the source and what it read"

# a recording carries what the records told: a replay derives the same generations
"$KGTOP" -c none -b "$BOOTSTRAP" --trace offsets --once --json --record "$T_TMP/off.kgrec" --timeout 30 >/dev/null 2>&1
t_contains "$T_TMP/off.kgrec" '"kind":"generation"' "the recording carries the generations the records told"
t_contains "$T_TMP/off.kgrec" '"member_list":[{"member_id":' "with their members"
"$KGTOP" --replay "$T_TMP/off.kgrec" --once --json >"$T_TMP/replay.json" 2>&1
got=$("$JSONQ" '.groups[]' <"$T_TMP/replay.json" | grep '^{"id":"cls-coop"' | grep -o '"generation":[0-9]*' | cut -d: -f2)
t_is "$got" "$(lastgen cls-coop)" "the replay derives cls-coop's generation"

# the limits: the log start moves under the reader, then the reader is refused
"$KGTOP" -c none -b "$BOOTSTRAP" --trace offsets --json -i 0.2 >"$T_TMP/live.json" 2>"$T_TMP/live.err" &
KPID=$!
T_PIDS="$T_PIDS $KPID"
smsg() { tail -n 1 "$T_TMP/live.json" 2>/dev/null | "$JSONQ" .source.offsets.message 2>/dev/null; }
sstatus() { tail -n 1 "$T_TMP/live.json" 2>/dev/null | "$JSONQ" .source.offsets.status 2>/dev/null; }
live() { smsg | grep -q '^live'; }
t_wait_for 30 live
t_ok $? "the reader loads and follows live"
kill -USR1 "$FIXTURE_PID" # every partition's log start moves to 1000, past what the reader read
restarted() { smsg | grep -q 'compacted or deleted while read): read again from its log start'; }
t_wait_for 30 restarted
t_ok $? "the log start moved under the reader: said, read again from it ($(smsg | grep -o 'partition [0-9]*: [^;]*' | head -1))"
t_is "$(sstatus)" ok "and the source stays up"
kill "$KPID"
wait "$KPID" 2>/dev/null
kill -USR1 "$FIXTURE_PID" # Fetch refused: TOPIC_AUTHORIZATION_FAILED
"$KGTOP" -c none -b "$BOOTSTRAP" --trace offsets -X sasl.username=kgtop-reader --json -i 0.2 >"$T_TMP/denied.json" \
	2>"$T_TMP/denied.err" &
DPID=$!
T_PIDS="$T_PIDS $DPID"
denied() { tail -n 1 "$T_TMP/denied.json" 2>/dev/null | "$JSONQ" .source.offsets.status 2>/dev/null | grep -q error; }
t_wait_for 30 denied
t_ok $? "refused: the offsets source is in error"
dm=$(tail -n 1 "$T_TMP/denied.json" | "$JSONQ" .source.offsets.message)
echo "# $dm"
echo "$dm" | grep -q -- "--allow-principal User:kgtop-reader --operation Describe --operation Read --topic __consumer_offsets"
t_ok $? "it names the ACL it needs (Describe and Read on __consumer_offsets, the principal of -X sasl.username)"
t_is "$(tail -n 1 "$T_TMP/denied.json" | "$JSONQ" .source.kafka.status)" ok "and the cluster is polled as ever"
t_is "$(tail -n 1 "$T_TMP/denied.json" | "$JSONQ" '.groups[]' | grep -c '^{"id":"cls-')" 2 "its groups still listed"
kill "$DPID"
wait "$DPID" 2>/dev/null
fixture_stop

# options
printf '[cluster lab]\nbrokers = 127.0.0.1:1\ntrace = offsets\n' >"$T_TMP/config"
chmod 600 "$T_TMP/config"
"$KGTOP" -c "$T_TMP/config" -C lab --json -i 0.5 --duration 2 >"$T_TMP/lab.json" 2>"$T_TMP/lab.err"
tail -n 1 "$T_TMP/lab.json" | "$JSONQ" .source.offsets.status | grep -q .
t_ok $? "a named cluster's trace = offsets line reads that cluster's __consumer_offsets"
"$KGTOP" -c none --trace offsets --once >"$T_TMP/nob.out" 2>&1
t_is "$?" 2 "--trace offsets without a cluster: usage error"
t_contains "$T_TMP/nob.out" "--trace offsets reads the cluster's own __consumer_offsets: give -b BROKERS" "and says what it needs"
"$KGTOP" -c none --trace offsetz --once -b 127.0.0.1:1 >"$T_TMP/bad.out" 2>&1
t_is "$?" 2 "a kind without a URL that is not offsets: usage error"
t_contains "$T_TMP/bad.out" "expected KIND:URL (log, jsonl, rdstats, jolokia) or offsets" "and lists the kinds"
"$KGTOP" -c none --trace offsets -X group.id=mine -b 127.0.0.1:1 --once >"$T_TMP/gid.out" 2>&1
t_is "$?" 2 "-X group.id with --trace offsets: refused"
t_contains "$T_TMP/gid.out" "kgtop is read-only and sets this itself" "kgtop never joins or commits"
t_done
