#!/bin/sh
# outputs.sh: the one output rule end to end (issue 25).  The fixture broker
# serves 728 groups whose ids, client ids, hosts, member ids, instance ids,
# topics and assignors carry every unsafe class of character (tests/cli/
# hostile.sh: C0, DEL, ESC sequences among them the window title and the
# clipboard's OSC 52, C1 encoded and raw, bidirectional formatting, NUL,
# invalid UTF-8) at the start, in the middle, at the end and 150 characters
# into a value; a jsonl trace adds member ids, reasons in words, silent texts
# and triggers.  Every output of the real binary is read byte by byte with
# tests/tools/safebytes (its own decoder and list, not kgtop's): --once,
# --once --json, --json, --check, a recording, --replay --once and --json of
# it, /metrics, /stream and /ready of --serve, the --log file and stderr of
# every run.  Each output must also show every case it carries (the plain
# part of each value, found by its marker), and no name may begin a line.
# The dashboard is tests/tmux/outputs.sh.
. "${top_srcdir:-.}/tests/cli/lib.sh"
. "${top_srcdir:-.}/tests/cli/hostile.sh"
export KGTOP_CONFIG=none LC_ALL=C.UTF-8
unset KGTOP_BROKERS
SAFE="$top_builddir/tests/tools/safebytes"

hostile_payloads "$T_TMP/payloads"
NPAY=$(wc -l <"$T_TMP/payloads")
hostile_scenario "$T_TMP/payloads" "$T_TMP/hostile.json"
hostile_trace "$T_TMP/payloads" "$T_TMP/trace.jsonl"
GROUPS_ALL=$((7 * NPAY * 4))
fixture_start "$T_TMP/hostile.json" --manual || exit 1

# safe FILE... DESCRIPTION: every file keeps the rule
safe() {
	d=$(eval echo "\${$#}")
	files=""
	while [ $# -gt 1 ]; do files="$files $1"; shift; done
	# shellcheck disable=SC2086
	"$SAFE" text $files >"$T_TMP/safe.out" 2>&1
	rc=$?
	t_ok $rc "$d"
	[ $rc -eq 0 ] || sed 's/^/#   /' "$T_TMP/safe.out"
}

# shows FILE FIELDS DESCRIPTION: every case of the fields (a list of digits) shows by its marker
shows() {
	missing=$(hostile_missing "$1" "$2" "$NPAY")
	[ -z "$missing" ]
	t_ok $? "$3"
	[ -z "$missing" ] || echo "#   missing:$missing"
}

# no_line_starts FILE DESCRIPTION: no line begins with what follows a line break in a value
# (payload 3 is the line feed: "\nv1c03p0zq", "v1c03p1\nzq", "v1c03p3000...\nzq")
no_line_starts() {
	LC_ALL=C grep -n -e '^v[0-9]c03p0' -e '^zq' "$1" >"$T_TMP/starts" 2>&1
	[ ! -s "$T_TMP/starts" ]
	t_ok $? "$2"
	[ -s "$T_TMP/starts" ] && head -3 "$T_TMP/starts" | sed 's/^/#   /'
}

# ------------------------------------------------------------------ --once
"$KGTOP" -b "$BOOTSTRAP" --once --log "$T_TMP/once.log" -vv >"$T_TMP/once.txt" 2>"$T_TMP/once.err"
t_is "$?" 0 "--once on $GROUPS_ALL hostile groups"
t_is "$(LC_ALL=C grep '^GROUP ' "$T_TMP/once.txt" | LC_ALL=C grep -cv '^GROUP  *TOPIC  *PARTITION')" "$GROUPS_ALL" "--once lists every group"
safe "$T_TMP/once.txt" "--once writes no unsafe byte"
shows "$T_TMP/once.txt" 0123456 "--once shows every group id, client id, host, member id, instance id, topic and assignor"
no_line_starts "$T_TMP/once.txt" "--once: no name begins a line"

# ------------------------------------------------------------------ --json
"$KGTOP" -b "$BOOTSTRAP" --once --json >"$T_TMP/once.json" 2>"$T_TMP/oncej.err"
t_is "$?" 0 "--once --json"
"$JSONQ" -v <"$T_TMP/once.json"
t_ok $? "--once --json is valid JSON"
safe "$T_TMP/once.json" "--once --json writes no unsafe byte"
shows "$T_TMP/once.json" 0123456 "--once --json shows every case"
"$KGTOP" -b "$BOOTSTRAP" --json -i 0.3 --duration 3 --trace "jsonl:file://$T_TMP/trace.jsonl" --trace-from-start \
	>"$T_TMP/live.json" 2>"$T_TMP/live.err"
t_is "$?" 0 "--json with a hostile trace"
"$JSONQ" -v <"$T_TMP/live.json"
t_ok $? "--json lines are valid JSON"
safe "$T_TMP/live.json" "--json writes no unsafe byte (the trace's ids, reasons, texts and triggers too)"
[ "$(wc -l <"$T_TMP/live.json")" -ge 2 ]
t_ok $? "--json wrote its lines ($(wc -l <"$T_TMP/live.json"))"

# ------------------------------------------------------------------ --check
# the 8 KB a plugin's output keeps holds some of the 104 hostile group ids: one class (4 groups) a run
: >"$T_TMP/check.txt"
c=0
lines_ok=0
while [ "$c" -lt "$NPAY" ]; do
	"$KGTOP" -b "$BOOTSTRAP" --check -g "v0c$(printf %02d "$c")p" >"$T_TMP/check1.txt" 2>>"$T_TMP/check.err"
	# its lines: the status, one per group not OK (the long output) and the notes of what did not fit
	nbad=$(head -1 "$T_TMP/check1.txt" | sed -n 's/^KGTOP [A-Z]* - \([0-9]*\) of [0-9]* groups not OK.*/\1/p')
	notes=$(grep -c -e '^and [0-9]* more' -e '^performance data for ' "$T_TMP/check1.txt")
	[ "$(wc -l <"$T_TMP/check1.txt")" -eq $((1 + ${nbad:-0} + notes)) ] || lines_ok=1
	cat "$T_TMP/check1.txt" >>"$T_TMP/check.txt"
	c=$((c + 1))
done
t_is "$(grep -c '^KGTOP ' "$T_TMP/check.txt")" "$NPAY" "--check: a status line a run"
t_ok "$lines_ok" "--check: then a line per group not OK (long output), none of a name's own"
safe "$T_TMP/check.txt" "--check writes no unsafe byte"
shows "$T_TMP/check.txt" 0 "--check names every hostile group"
no_line_starts "$T_TMP/check.txt" "--check: no name begins a line"

# ------------------------------------------------------------ recordings
"$KGTOP" -b "$BOOTSTRAP" --once --record "$T_TMP/h.kgrec" >/dev/null 2>"$T_TMP/rec.err"
t_is "$?" 0 "--once --record"
safe "$T_TMP/h.kgrec" "the recording holds no unsafe byte"
shows "$T_TMP/h.kgrec" 0123456 "and every case"
"$KGTOP" --replay "$T_TMP/h.kgrec" --once >"$T_TMP/replay.txt" 2>"$T_TMP/replay.err"
t_is "$?" 0 "--replay --once of it"
safe "$T_TMP/replay.txt" "--replay --once writes no unsafe byte"
shows "$T_TMP/replay.txt" 0123456 "and shows every case"
no_line_starts "$T_TMP/replay.txt" "--replay --once: no name begins a line"
"$KGTOP" --replay "$T_TMP/h.kgrec" --json >"$T_TMP/replay.json" 2>"$T_TMP/replayj.err"
safe "$T_TMP/replay.json" "--replay --json writes no unsafe byte"

# --------------------------------------------------------------- --serve
"$KGTOP" -b "$BOOTSTRAP" -i 0.5 --serve 127.0.0.1:0 --metrics-partitions --trace "jsonl:file://$T_TMP/trace.jsonl" --trace-from-start \
	>"$T_TMP/serve.out" 2>"$T_TMP/serve.err" &
KPID=$!
T_PIDS="$T_PIDS $KPID"
t_wait_for 15 grep -q '^kgtop: serving ' "$T_TMP/serve.err"
URL=$(sed -n 's/^kgtop: serving \([^ ]*\) .*/\1/p' "$T_TMP/serve.err")
# every hostile topic's partition once a refresh asked every group (they are asked in turn, oldest first)
metrics_ready() {
	curl -s "$URL/metrics" >"$T_TMP/metrics.txt" &&
		[ "$(LC_ALL=C grep -c '^kgtop_partition_lag_messages{.*topic="[^"]*v5c' "$T_TMP/metrics.txt")" -ge $((NPAY * 4 - 1)) ]
}
t_wait_for 60 metrics_ready
t_ok $? "/metrics answers with every group's partitions"
safe "$T_TMP/metrics.txt" "/metrics writes no unsafe byte"
shows "$T_TMP/metrics.txt" 05 "/metrics labels every hostile group and topic"
no_line_starts "$T_TMP/metrics.txt" "/metrics: no label value begins a line"
curl -s -N --max-time 3 "$URL/stream" >"$T_TMP/stream.txt" 2>/dev/null
safe "$T_TMP/stream.txt" "/stream writes no unsafe byte"
shows "$T_TMP/stream.txt" 0123456 "/stream carries every case"
curl -s "$URL/ready" >"$T_TMP/ready.txt" 2>/dev/null
safe "$T_TMP/ready.txt" "/ready writes no unsafe byte"
kill -TERM "$KPID"
wait "$KPID"
safe "$T_TMP/serve.out" "--serve's stdout keeps the rule"

# ------------------------------------------------ stderr and the log file
safe "$T_TMP/once.err" "$T_TMP/oncej.err" "$T_TMP/live.err" "$T_TMP/check.err" "$T_TMP/rec.err" "$T_TMP/replay.err" \
	"$T_TMP/replayj.err" "$T_TMP/serve.err" "stderr of every run keeps the rule"
safe "$T_TMP/once.log" "the --log file keeps the rule"
[ -s "$T_TMP/once.log" ]
t_ok $? "and was written"
fixture_stop

# a source's message quoting the cluster: a trace stream that names a hostile file
printf '\033]0;PWNED\007\n' >"$T_TMP/bad.jsonl"
"$KGTOP" --trace "jsonl:file://$T_TMP/bad.jsonl" --trace-from-start --once >"$T_TMP/bad.out" 2>"$T_TMP/bad.err"
safe "$T_TMP/bad.out" "$T_TMP/bad.err" "a trace line that is an escape sequence is said without it"

# the checker itself must catch what it is there for (it would pass anything otherwise)
printf 'ok\n\033]52;c;UFdORUQ=\007\n' >"$T_TMP/osc.txt"
"$SAFE" text "$T_TMP/osc.txt" >/dev/null
t_is "$?" 1 "safebytes refuses OSC 52"
printf 'ok \342\200\256\n' >"$T_TMP/rlo.txt"
"$SAFE" text "$T_TMP/rlo.txt" >/dev/null
t_is "$?" 1 "safebytes refuses U+202E"
printf 'ok \302\233\n' >"$T_TMP/c1.txt"
"$SAFE" text "$T_TMP/c1.txt" >/dev/null
t_is "$?" 1 "safebytes refuses U+009B"
printf 'ok\000\n' >"$T_TMP/nul.txt"
"$SAFE" text "$T_TMP/nul.txt" >/dev/null
t_is "$?" 1 "safebytes refuses NUL"
t_done
