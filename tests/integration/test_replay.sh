#!/bin/sh
# test_replay.sh: --record and --replay with the real binary.
#  - scripted questions on tests/data/recordings/fixture-demo.kgrec (made
#    by the real kgtop polling the fixture broker): --once --at in every
#    time form, --json to the end of the recording without a signal, the
#    events re-derived equal the events recorded;
#  - damaged files: garbage, a cut last line, a missing header, a newer
#    format, not a recording; exit codes and the line on stderr;
#  - a recording with a gap (a full disk: the recorder went on with a
#    keyframe) replays past it, saying so (issue 25);
#  - a live recording against the fixture broker replays to the same
#    events, and --record-max rotates into FILE.1.
. "${top_srcdir:-.}/tests/cli/lib.sh"
REC="$top_srcdir/tests/data/recordings/fixture-demo.kgrec"
export TZ=UTC KGTOP_CONFIG=none
unset KGTOP_BROKERS

# g-audit, g-coop, g-orders, g-range: groups are sorted by name
once_json() { "$KGTOP" --replay "$REC" --once --json --at "$1" >"$T_TMP/at.json" 2>"$T_TMP/at.err"; }

once_json +15
t_ok $? "--once --json --at +15 exits 0"
t_is "$("$JSONQ" .groups[3].id <"$T_TMP/at.json")" g-range "the groups of the recording"
t_is "$("$JSONQ" .groups[3].state <"$T_TMP/at.json")" Stable "at +15 g-range is Stable again"
t_is "$("$JSONQ" '.groups[3].members|length' <"$T_TMP/at.json")" 4 "at +15 g-range has 4 members (consumer-d joined)"
t_is "$("$JSONQ" .source.replay.status <"$T_TMP/at.json")" ok "the replay reports its health"
t_contains "$T_TMP/at.json" '"message":"at ' "the replay says where it stopped (--at)"
once_json +11
t_is "$("$JSONQ" .groups[3].state <"$T_TMP/at.json")" PreparingRebalance "at +11 g-range is rebalancing"
once_json +21
t_is "$("$JSONQ" .groups[1].state <"$T_TMP/at.json")" Stable "at +21 g-coop is Stable after round one"
t_is "$("$JSONQ" .groups[1].in_flight <"$T_TMP/at.json")" 1 "at +21 partition 3 is owned by nobody: in flight between the rounds"
t_is "$("$JSONQ" .groups[1].in_rebalance <"$T_TMP/at.json")" true "at +21 the cooperative rebalance is still open"
once_json +40
t_is "$("$JSONQ" .groups[0].state <"$T_TMP/at.json")" Empty "at +40 g-audit is Empty"

start_us=$(head -1 "$REC" | "$JSONQ" .start_us)
start_s=$((start_us / 1000000))
hms=$(date -u -d "@$((start_s + 16))" +%H:%M:%S)
iso=$(date -u -d "@$((start_s + 11))" +%Y-%m-%dT%H:%M:%SZ)
once_json "$hms"
t_ok $? "--at HH:MM:SS ($hms) exits 0"
t_is "$("$JSONQ" '.groups[3].members|length' <"$T_TMP/at.json")" 4 "--at HH:MM:SS is local time on the first day"
once_json "$iso"
t_is "$("$JSONQ" .groups[3].state <"$T_TMP/at.json")" PreparingRebalance "--at ISO time with Z"

"$KGTOP" --replay "$REC" --once --at +25 >"$T_TMP/once.txt" 2>"$T_TMP/once.err"
t_ok $? "--once (text) --at exits 0"
t_contains "$T_TMP/once.txt" "GROUP g-coop" "the text report lists the groups"
t_contains "$T_TMP/once.txt" "source replay: ok: at " "the text report says where the replay stopped"

# --json runs to the end of the recording by itself
lines=$(($(wc -l <"$REC") - 1))
timeout 60 "$KGTOP" --replay "$REC" --json >"$T_TMP/all.jsonl" 2>"$T_TMP/all.err"
t_ok $? "--replay --json exits 0 at the end of the recording (no signal needed)"
t_is "$(wc -l <"$T_TMP/all.jsonl" | tr -d ' ')" "$lines" "one JSON line per recorded tick"
"$JSONQ" -l -v <"$T_TMP/all.jsonl"
t_ok $? "every line is valid JSON"
tail -1 "$T_TMP/all.jsonl" >"$T_TMP/last.json"
t_contains "$T_TMP/last.json" '"message":"ended at ' "the last line says the recording ended"
tail -n +2 "$REC" | "$JSONQ" -l '.events[]' | grep -v '^null$' | "$JSONQ" -l .message >"$T_TMP/recorded.msgs"
"$JSONQ" -l '.events[]' <"$T_TMP/all.jsonl" | grep -v '^null$' | "$JSONQ" -l .message >"$T_TMP/replayed.msgs"
cmp -s "$T_TMP/recorded.msgs" "$T_TMP/replayed.msgs"
t_ok $? "the replay derives the events the live run derived ($(wc -l <"$T_TMP/recorded.msgs" | tr -d ' ') events)"
t_contains "$T_TMP/replayed.msgs" "worker-a revoked [3] of [0 3] (incremental)" "the cooperative round one"
t_contains "$T_TMP/replayed.msgs" "≥2 rounds; joined: worker-d; 0 of 3 members stopped, 1 partition unconsumed" \
	"one episode, at least two rounds (polled): only the moving partition stopped"
t_contains "$T_TMP/replayed.msgs" "consumer-a revoked [0 1] (all: stop-the-world)" "the eager join"

# damage
sed '10s/^{"t":/{"t":@@/' "$REC" >"$T_TMP/garbage.kgrec"
"$KGTOP" --replay "$T_TMP/garbage.kgrec" --json >"$T_TMP/g.jsonl" 2>"$T_TMP/g.err"
t_is "$?" 1 "garbage mid-file: exit 1"
t_contains "$T_TMP/g.err" "stopped at line 10: not JSON" "garbage: stderr names the line and why"
t_is "$(wc -l <"$T_TMP/g.jsonl" | tr -d ' ')" 8 "garbage: the ticks before it are replayed"
tail -1 "$T_TMP/g.jsonl" | "$JSONQ" .source.replay.status >"$T_TMP/g.status"
t_is "$(cat "$T_TMP/g.status")" error "garbage: the replay's health is an error"
"$KGTOP" --replay "$T_TMP/garbage.kgrec" --once --at +3 >/dev/null 2>"$T_TMP/g2.err"
t_is "$?" 0 "damage after --at: exit 0, the answer is complete"

size=$(wc -c <"$REC")
head -c $((size - 200)) "$REC" >"$T_TMP/cut.kgrec"
"$KGTOP" --replay "$T_TMP/cut.kgrec" --once >"$T_TMP/cut.txt" 2>"$T_TMP/cut.err"
t_is "$?" 1 "a cut last line: exit 1"
t_contains "$T_TMP/cut.err" "stopped at line $((lines + 1)): cut short" "a cut last line: stderr says where"
t_contains "$T_TMP/cut.txt" "GROUP g-range" "a cut last line: the report up to it is printed"

tail -n +2 "$REC" >"$T_TMP/nohead.kgrec"
"$KGTOP" --replay "$T_TMP/nohead.kgrec" --once >/dev/null 2>"$T_TMP/nohead.err"
t_is "$?" 0 "a missing header: the first keyframe still replays"
t_contains "$T_TMP/nohead.err" "line 1 is not a header" "a missing header is reported"

REC1="$top_srcdir/tests/data/recordings/fixture-demo-v1.kgrec"
t_is "$(head -c 17 "$REC1")" '{"kgtop_record":1' "the same scenario recorded in format 1 (before commit observations)"
"$KGTOP" --replay "$REC1" --once --at +25 >"$T_TMP/once-v1.txt" 2>"$T_TMP/once-v1.err"
t_ok $? "a kgtop of format 5 replays a recording of format 1"
t_contains "$T_TMP/once-v1.txt" "GROUP g-coop" "and reports its groups"
t_is "$(head -c 17 "$REC")" '{"kgtop_record":2' "the shipped recording is of format 2 (before the coordinator's records), and replays above"
sed '1s/"kgtop_record":2/"kgtop_record":6/' "$REC" >"$T_TMP/v3.kgrec"
"$KGTOP" --replay "$T_TMP/v3.kgrec" --once >"$T_TMP/v3.out" 2>"$T_TMP/v3.err"
t_is "$?" 1 "a newer format version: exit 1"
t_contains "$T_TMP/v3.err" "recording format 6 (written by kgtop" "a newer version: a clear message"
t_is "$(wc -c <"$T_TMP/v3.out" | tr -d ' ')" 0 "a newer version: nothing replayed"

"$KGTOP" --replay "$T_TMP/all.jsonl" --once >/dev/null 2>"$T_TMP/notrec.err"
t_is "$?" 1 "--json output is not a recording: exit 1"
t_contains "$T_TMP/notrec.err" "kgtop --json output" "and says what it is"
"$KGTOP" --replay "$T_TMP/missing.kgrec" --once >/dev/null 2>"$T_TMP/missing.err"
t_is "$?" 1 "a missing file: exit 1"
t_contains "$T_TMP/missing.err" "No such file" "a missing file is named"
"$KGTOP" --replay "$REC" --once --at soon >/dev/null 2>"$T_TMP/at.err"
t_is "$?" 2 "a malformed --at: exit 2"
"$KGTOP" --replay "$REC" --once --at 2001-01-01T00:00:00Z >/dev/null 2>"$T_TMP/at.err"
t_is "$?" 2 "--at before the recording: exit 2"
t_contains "$T_TMP/at.err" "before the recording starts" "--at before the recording: says so"
"$KGTOP" --replay "$REC" --record "$T_TMP/x.kgrec" --once >/dev/null 2>&1
t_is "$?" 2 "--replay with --record: exit 2"
"$KGTOP" --replay "$REC" --trace "log:file:///dev/null" --once >/dev/null 2>&1
t_is "$?" 2 "--replay with --trace: exit 2"

# a live recording against the fixture broker replays to the same events
lines_at_least() { [ "$(wc -l 2>/dev/null <"$1")" -ge "$2" ] 2>/dev/null; }
fixture_start join-coop.json --manual || exit 1
"$KGTOP" -b "$BOOTSTRAP" -i 0.2 --json --duration 30 --record "$T_TMP/live.kgrec" >"$T_TMP/live.jsonl" 2>"$T_TMP/live.err" &
kpid=$!
T_PIDS="$T_PIDS $kpid"
t_wait_for 10 grep -qs '"g-coop"' "$T_TMP/live.kgrec"
for step in 1 2 3 4 5 6; do
	kill -USR1 "$FIXTURE_PID"
	t_wait_for 5 grep -q "\"step\":$step," "$FIXTURE_STATS"
	n=$(wc -l <"$T_TMP/live.kgrec")
	t_wait_for 5 lines_at_least "$T_TMP/live.kgrec" $((n + 2)) # two more polls of this step
done
kill -TERM "$kpid"
wait "$kpid"
t_ok $? "kgtop --record --json against the fixture exits 0 on SIGTERM"
fixture_stop
"$KGTOP" --replay "$T_TMP/live.kgrec" --json >"$T_TMP/relive.jsonl" 2>"$T_TMP/relive.err"
t_ok $? "the live recording replays"
"$JSONQ" -l '.events[]' <"$T_TMP/live.jsonl" | grep -v '^null$' | "$JSONQ" -l .message >"$T_TMP/live.msgs"
"$JSONQ" -l '.events[]' <"$T_TMP/relive.jsonl" | grep -v '^null$' | "$JSONQ" -l .message >"$T_TMP/relive.msgs"
cmp -s "$T_TMP/live.msgs" "$T_TMP/relive.msgs"
t_ok $? "live --json and its replay derive the same events ($(wc -l <"$T_TMP/live.msgs" | tr -d ' '))"
t_contains "$T_TMP/relive.msgs" "consumer-d assigned [3]" "including the cooperative round two"

# --record-max rotates into FILE.1; each file starts with a header and a keyframe
fixture_start stable.json --manual || exit 1
"$KGTOP" -b "$BOOTSTRAP" -i 0.1 --json --duration 3 --record "$T_TMP/rot.kgrec" --record-max 4K >/dev/null 2>"$T_TMP/rot.err"
t_ok $? "--record-max: kgtop exits 0"
fixture_stop
t_ok "$(test -s "$T_TMP/rot.kgrec.1"; echo $?)" "--record-max: FILE.1 exists"
t_is "$(head -c 16 "$T_TMP/rot.kgrec")" '{"kgtop_record":' "the new file starts with a header"
t_is "$(sed -n 2p "$T_TMP/rot.kgrec" | "$JSONQ" .key)" true "and a keyframe"
t_ok "$(test "$(wc -c <"$T_TMP/rot.kgrec.1")" -le 4096; echo $?)" "FILE.1 is within the limit"
"$KGTOP" --replay "$T_TMP/rot.kgrec" --once >/dev/null 2>&1
t_ok $? "the rotated file replays on its own"

# a full disk while recording (a file size limit: writes fail with EFBIG): the recording pauses, then goes on
# with a keyframe; its replay crosses the gap, says so, and carries on to the end (issue 25; it stopped there)
fixture_start stable.json --manual || exit 1
mkfifo "$T_TMP/gap.pipe" # stdout through a pipe: a file size limit on a file would stop it too
cat "$T_TMP/gap.pipe" >"$T_TMP/gap.jsonl" &
"$KGTOP" -b "$BOOTSTRAP" -i 0.2 --json --record "$T_TMP/gap.kgrec" >"$T_TMP/gap.pipe" 2>"$T_TMP/gap.err" &
kpid=$!
T_PIDS="$T_PIDS $kpid"
t_wait_for 10 lines_at_least "$T_TMP/gap.kgrec" 6
prlimit --pid "$kpid" --fsize="$(wc -c <"$T_TMP/gap.kgrec")":unlimited # the soft limit only: the hard one stays
recorder_says() { tail -n 1 "$T_TMP/gap.jsonl" | "$JSONQ" .source.record.message | grep -q "$1"; }
t_wait_for 10 recorder_says "write failed"
t_ok $? "the recorder says its writes fail"
n=$(wc -l <"$T_TMP/gap.jsonl")
t_wait_for 10 lines_at_least "$T_TMP/gap.jsonl" $((n + 8)) # ticks that cannot be written
prlimit --pid "$kpid" --fsize=unlimited:unlimited
t_wait_for 10 recorder_says "going on after a write error"
t_ok $? "then goes on"
n=$(wc -l <"$T_TMP/gap.kgrec")
t_wait_for 10 lines_at_least "$T_TMP/gap.kgrec" $((n + 5)) # ticks after the gap
kill -TERM "$kpid"
wait "$kpid"
fixture_stop
last_n=$(tail -n 1 "$T_TMP/gap.kgrec" | "$JSONQ" .n)
last_t=$(tail -n 1 "$T_TMP/gap.kgrec" | "$JSONQ" .t)
# the gap in the file: two ticks numbered apart, the second a keyframe
gap=$(awk -F'"n":' 'NR > 1 { split($2, a, ","); n = a[1] + 0; if (p != "" && n > p + 1) { print n - p - 1; exit } p = n }' "$T_TMP/gap.kgrec")
t_ok "$([ "${gap:-0}" -ge 1 ]; echo $?)" "the recording has a gap of ${gap:-0} ticks"
"$KGTOP" --replay "$T_TMP/gap.kgrec" --json >"$T_TMP/regap.jsonl" 2>"$T_TMP/regap.err"
t_ok $? "its replay exits 0"
"$JSONQ" -l .source.replay.message <"$T_TMP/regap.jsonl" >"$T_TMP/regap.msgs"
t_contains "$T_TMP/regap.msgs" "a gap in the recording: $gap ticks missing from " "the replay says the gap and how many ticks it missed"
t_contains "$T_TMP/regap.msgs" "carried on from the keyframe after it" "and that it carried on"
"$JSONQ" -l '.events[]' <"$T_TMP/regap.jsonl" | grep -v '^null$' | "$JSONQ" -l .message >"$T_TMP/regap.events"
t_contains "$T_TMP/regap.events" "source replay: stale: " "the events tell the gap"
t_contains "$T_TMP/regap.events" "source replay: ok: " "and the replay going on"
t_is "$(tail -n 1 "$T_TMP/regap.jsonl" | "$JSONQ" .time_us)" "$last_t" "it replays to the recording's last tick (n $last_n), past the gap"
t_lacks "$T_TMP/regap.err" "stopped at" "and nothing says it stopped"
"$KGTOP" --replay "$T_TMP/gap.kgrec" --once >"$T_TMP/regap.txt" 2>&1
t_contains "$T_TMP/regap.txt" "1 gap crossed ($gap ticks missing)" "--once at the end says a gap was crossed"

t_done
