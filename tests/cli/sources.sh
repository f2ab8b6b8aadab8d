#!/bin/sh
# sources.sh: trace streams and the embedded demo from the command line:
# their error messages, --export-trace, the debug log, failing fast.
. "${top_srcdir:-.}/tests/cli/lib.sh"

SRC=$(cd "$top_srcdir" && pwd)

# messages name the option once
"$KGTOP" --trace bogus:file:///x --once >"$T_TMP/kind" 2>&1
t_is "$?" 2 "an unknown trace kind exits 2"
t_contains "$T_TMP/kind" 'kgtop: --trace: unknown kind "bogus"' "an unknown kind is named"
t_lacks "$T_TMP/kind" "--trace: --trace" "and --trace is not said twice"
"$KGTOP" --trace log:ftp://host/server.log --once >"$T_TMP/scheme" 2>&1
t_is "$?" 2 "an unsupported scheme exits 2"
t_contains "$T_TMP/scheme" 'kgtop: --trace log: unsupported URL scheme "ftp"' "an unsupported scheme is named"
t_lacks "$T_TMP/scheme" "--trace: --trace" "and --trace is not said twice"
"$KGTOP" --trace log:file:///x --trace-headers "$T_TMP/no-such-headers" --once >"$T_TMP/hdr" 2>&1
t_is "$?" 2 "a missing headers file exits 2"
t_contains "$T_TMP/hdr" "kgtop: --trace-headers $T_TMP/no-such-headers: No such file or directory" "a missing headers file is named with the OS error"
t_lacks "$T_TMP/hdr" "--trace: --trace" "and without a second prefix"

# a coordinator's fencing reason is not repeated
"$KGTOP" --trace "log:file://$SRC/tests/data/logs/kafka-4.0-consumer.log" --trace-from-start --once --json >"$T_TMP/fence.json" 2>&1
"$JSONQ" '.events[]' <"$T_TMP/fence.json" | "$JSONQ" -l .message >"$T_TMP/fence.events"
t_contains "$T_TMP/fence.events" "left (fenced: it failed to transition from epoch 7 within 300000ms)" "a fenced member's reason reads once"
t_lacks "$T_TMP/fence.events" "fenced: fenced" "never 'fenced: fenced'"

# --demo-partitions out of the demo's range is a usage error, before anything starts
"$KGTOP" --demo --demo-partitions 500 --once >"$T_TMP/parts" 2>&1
t_is "$?" 2 "--demo-partitions 500 is a usage error"
t_contains "$T_TMP/parts" "--demo-partitions '500': expected a whole number from 1 to 256" "with the demo's own bound"

# --export-trace says why it cannot write, before starting anything
"$KGTOP" --demo --json --duration 5 --export-trace "$T_TMP/no/such/dir/x.jsonl" >"$T_TMP/export" 2>&1
t_is "$?" 1 "an unwritable --export-trace exits 1"
t_contains "$T_TMP/export" "--export-trace $T_TMP/no/such/dir/x.jsonl: No such file or directory" "with the OS error"
"$KGTOP" --demo --json --duration 5 --export-trace "$T_TMP" >"$T_TMP/export-dir" 2>&1
t_contains "$T_TMP/export-dir" "--export-trace $T_TMP: Is a directory" "a directory is named as one"

# -v --log follows trace streams: where they read, connections, failures and their retry
"$KGTOP" --trace "log:file://$SRC/tests/data/logs/kafka-3.7-classic.log" --trace "jsonl:http://bob:hunter2@127.0.0.1:1/x" \
	--trace-from-start --json --duration 2 -v --log "$T_TMP/trace.log" >/dev/null 2>&1
t_contains "$T_TMP/trace.log" "info  trace log:kafka-3.7-classic.log: file://$SRC/tests/data/logs/kafka-3.7-classic.log, from its start" "the log says where a stream reads"
t_contains "$T_TMP/trace.log" "info  trace log:kafka-3.7-classic.log: connected (file)" "when it connects"
t_contains "$T_TMP/trace.log" "info  trace jsonl:127.0.0.1: http://127.0.0.1:1/x: " "and why a stream fails"
t_contains "$T_TMP/trace.log" "(failure 1)" "counting the failures"
t_lacks "$T_TMP/trace.log" "hunter2" "never a password"
t_lacks "$T_TMP/trace.log" "bob" "nor a user name"

# the demo on a cluster nobody answers for fails at once, with the cause
t0=$(date +%s)
"$KGTOP" --demo -b 127.0.0.1:1 --duration 8 --json >"$T_TMP/demo-down" 2>&1
rc=$?
t1=$(date +%s)
t_is "$rc" 1 "--demo on an unreachable cluster exits 1"
t_contains "$T_TMP/demo-down" "kgtop: demo: 127.0.0.1:1: metadata: all brokers down" "and says no broker answers"
[ $((t1 - t0)) -le 3 ]
t_ok $? "within 3 s, not after a fixed 15 s ($((t1 - t0)) s)"

# the demo's health message leads with its script step (the header shows it up to the first "; ")
"$KGTOP" --demo --once --json --timeout 60 >"$T_TMP/demo.json" 2>&1 # a busy machine: no 10 s limit
msg=$("$JSONQ" .source.demo.message <"$T_TMP/demo.json")
case "$msg" in "default: 1/7 three members settle ("*"); "*" consumers, "*) r=0 ;; *) r=1 ;; esac
t_ok $r "the demo's health message begins with its step: $msg"
"$KGTOP" --demo=manual --once --json --timeout 60 >"$T_TMP/manual.json" 2>&1
msg=$("$JSONQ" .source.demo.message <"$T_TMP/manual.json")
case "$msg" in "manual: no script (the demo keys drive it); "*) r=0 ;; *) r=1 ;; esac
t_ok $r "and says when there is no script: $msg"

# --export-trace read back (20 s: the first settle can take three rounds on a busy machine): the first
# rebalance lasts as long as it did live (from the first
# JoinGroup, not from the first assignment)
"$KGTOP" --demo --json --duration 20 --export-trace "$T_TMP/exp.jsonl" -vv --log "$T_TMP/demo.log" >"$T_TMP/live.json" 2>"$T_TMP/live.err"
t_ok $? "--demo --export-trace runs"
# ... and -vv --log tells the demo's story
t_contains "$T_TMP/demo.log" "info  demo: scenario default on the mock cluster: topic demo-groups, 6 partitions" "the log says what the demo runs"
t_contains "$T_TMP/demo.log" "info  demo: kgtop-demo-eager/consumer-a: created (range)" "the log has consumers created"
t_contains "$T_TMP/demo.log" "info  demo: kgtop-demo-coop/consumer-c: joined as member " "joined, with their member id"
t_contains "$T_TMP/demo.log" "debug demo: kgtop-demo-eager/consumer-b: rebalance callback: assign " "their callbacks (-vv)"
t_contains "$T_TMP/demo.log" "info  demo: default: step 1/7: three members settle" "the script's steps"
t_contains "$T_TMP/demo.log" "info  demo: default: step 1/7 settled after " "how long each took to settle"
t_contains "$T_TMP/demo.log" "info  demo: kgtop-demo-coop/consumer-a: clos" "consumers closing at exit (closed, or close timed out)"
t_contains "$T_TMP/demo.log" "info  demo: closed in " "and the demo closed"
t_lacks "$T_TMP/live.err" "demo:" "nothing of it reaches stderr"
grep -q '"kind":"join_sent"' "$T_TMP/exp.jsonl"
t_ok $? "the export has the newcomers' JoinGroups (join_sent)"
"$KGTOP" --trace "jsonl:file://$T_TMP/exp.jsonl" --trace-from-start --once --json >"$T_TMP/back.json" 2>&1
t_ok $? "the export reads back"
first_end() { # FILE: whole ms of the eager group's first rebalance_end (JSON lines)
	"$JSONQ" -l '.events[]' <"$1" | grep '"kind":"rebalance_end"' | grep '"group":"kgtop-demo-eager"' | head -1 |
		"$JSONQ" .duration_ms | cut -d. -f1
}
live=$(first_end "$T_TMP/live.json")
back=$(first_end "$T_TMP/back.json")
[ -n "$back" ] && [ "$back" -ge 2000 ]
t_ok $? "the first rebalance read back lasts seconds, not a millisecond (${back:-none} ms; live ${live:-none} ms)"
[ -n "$back" ] && [ -n "$live" ] && [ $((back - live)) -le 500 ] && [ $((live - back)) -le 500 ]
t_ok $? "within half a second of the live run's"
"$JSONQ" -l '.events[]' <"$T_TMP/back.json" | "$JSONQ" -l .message >"$T_TMP/back.events"
t_lacks "$T_TMP/back.events" "from the coordinator's log" "consumers' callbacks are not taken for a coordinator's log"
t_contains "$T_TMP/back.events" "rebalance started (eager, joined: consumer-" "the first rebalance says its protocol and trigger"

# A coordinator's log is read whole from before the cluster's first description: a stream begins at
# its end when first polled (KG_OBS_LOG_FROM), and the traces are polled before the cluster source
# first asks (a join a moment after kgtop started was bounded, not timed, in t_rebalance.sh)
if fixture_start idle-100.json; then
	: >"$T_TMP/empty.log"
	"$KGTOP" -c none -b "$BOOTSTRAP" --json -i 1 --trace "log:file://$T_TMP/empty.log" --record "$T_TMP/lf.rec" \
		--duration 2 >/dev/null 2>"$T_TMP/lf.err"
	lf=$(grep -o '"log_from","time":[0-9]*' "$T_TMP/lf.rec" | head -1 | grep -o '[0-9]*$')
	dt=$(grep -o '"data_time":[0-9]*' "$T_TMP/lf.rec" | head -1 | grep -o '[0-9]*$')
	[ -n "$lf" ] && [ -n "$dt" ] && [ "$lf" -lt "$dt" ]
	t_ok $? "the log is read whole from before the first description was asked (log from ${lf:-?}, asked ${dt:-?})"
	fixture_stop
else
	t_ok 1 "the fixture broker starts"
fi

t_done
