#!/bin/sh
# json_delta.sh: --json lines carry what changed (schema 10), a keyframe first, each --keyframe and on
# SIGUSR1; a reader that applies the deltas as kgtop(1) says (tests/tools/json_rebuild) holds, after every
# line, exactly the groups --full prints.  Both read one recording of the fixture broker's churn.json
# (joins, leaves, rebalances, a group new and one gone, a rewind, retention, a stall, a topic that starts
# moving, late record reads) replayed tick by tick.  Every wait polls with a deadline.
. "${top_srcdir:-.}/tests/cli/lib.sh"
REBUILD="$top_builddir/tests/tools/json_rebuild"

fixture_start churn.json || { t_ok 1 "fixture broker starts"; t_done; exit 1; }
"$KGTOP" -b "$BOOTSTRAP" --json -i 0.2 --duration 16 --lag-window 10s --keyframe 4 --record "$T_TMP/rec" \
	>"$T_TMP/live" 2>"$T_TMP/live.err" &
LIVE=$!
T_PIDS="$T_PIDS $LIVE"
# on request: SIGUSR1 makes the next line a keyframe (the first is one, --keyframe 4 makes more later)
t_wait_for 20 sh -c "[ \$(grep -c . '$T_TMP/live') -ge 5 ]"
t_ok $? "live --json writes lines"
before=$(grep -c '"keyframe":true' "$T_TMP/live")
kill -USR1 $LIVE
t_wait_for 5 sh -c "[ \$(grep -c '\"keyframe\":true' '$T_TMP/live') -gt $before ]"
t_ok $? "SIGUSR1 brings a keyframe"
wait $LIVE
t_is $? 0 "the live run ends at --duration"
fixture_stop
t_is "$(head -1 "$T_TMP/live" | grep -c '"version":10,"keyframe":true')" 1 "the first line is a version 10 keyframe"
t_is "$(awk '/"keyframe":true/{k++} END{print (k >= 4)}' "$T_TMP/live")" 1 \
	"keyframes come each --keyframe (4 s of a 16 s run) besides the first and the one asked"
t_is "$(grep -c '"keyframe":false' "$T_TMP/live" | awk '{print ($1 > 40)}')" 1 "the lines between are deltas"

"$KGTOP" --replay "$T_TMP/rec" --json >"$T_TMP/deltas" 2>"$T_TMP/d.err"
t_is $? 0 "the recording replays with --json"
"$KGTOP" --replay "$T_TMP/rec" --json --full >"$T_TMP/full" 2>"$T_TMP/f.err"
t_is $? 0 "and with --json --full"
t_is "$(grep -c . "$T_TMP/deltas")" "$(grep -c . "$T_TMP/full")" "a line per recorded tick either way"
t_is "$(grep -c '"keyframe":false' "$T_TMP/full")" 0 "--full: every line a keyframe"
"$REBUILD" "$T_TMP/deltas" "$T_TMP/full" >"$T_TMP/rebuild" 2>&1
t_is $? 0 "keyframe + deltas rebuild exactly what --full prints, line by line"
sed 's/^/#   /' "$T_TMP/rebuild"
# the deltas are worth having: the replay's lines are a fraction of --full's
t_is "$(awk -v d="$(wc -c <"$T_TMP/deltas")" -v f="$(wc -c <"$T_TMP/full")" 'BEGIN{print (d * 2 < f)}')" 1 \
	"the deltas are less than half of --full"
# each kind of patch occurred, or the rebuild proved less than it says
for what in '"gone":["' '"unset":[' '"members@":[' '"partitions@":[' '"topic_partitions":[{' '"lag_spark_steps":[['; do
	t_is "$(grep -cF "$what" "$T_TMP/deltas" | awk '{print ($1 > 0)}')" 1 "the run has $what"
done
# the rebuild covered full sparks: the last --full line has a partition whose lag_spark has no empty cell
# (the 10 s --lag-window filled), and the deltas after it stepped sparks rather than sending them whole
t_is "$(tail -1 "$T_TMP/full" | grep -c '"lag_spark":\[[1-9][0-9]*\(,[1-9][0-9]*\)\{15\}\]')" 1 \
	"the sparks are full by the end of the run"
t_is "$(grep '"keyframe":false' "$T_TMP/deltas" | tail -8 | grep -c '"lag_spark_steps":\[' | awk '{print ($1 > 0)}')" 1 \
	"the last deltas step sparks"
t_is "$(grep '"keyframe":false' "$T_TMP/deltas" | tail -5 | grep -c '"partitions@":\[[^]]*"lag_spark"')" 0 \
	"a delta's partition patch never carries a spark whole"
# lags follow the offsets: the topic partitions' log ends moved, yet no partition's patch and no group's
# carries a "lag" (log_end - committed and the sums give them all; the rebuild above derived them)
t_is "$(grep '"keyframe":false' "$T_TMP/deltas" | grep -c '"topic_partitions":\[{"topic":"[^"]*","partitions":\[[0-9,]*\][^}]*"log_end":\[' | awk '{print ($1 > 10)}')" 1 \
	"log ends move in the deltas (schema 8: a topic's partitions and a log end each)"
t_is "$(grep -c ' 0 lags in patches,' "$T_TMP/rebuild")" 1 "and no patch sends a lag: the reader derives them"
t_is "$(sed -n 's/.* \([0-9]*\) partitions set from topic_partitions,.*/\1/p' "$T_TMP/rebuild" | awk '{print ($1 > 0)}')" 1 \
	"the reader set each partition's facts from its topic's entry"
t_is "$(grep -c ' 0 aged time lags in patches,' "$T_TMP/rebuild")" 1 "nor a time lag the reader ages from its origin"
# a commit seen moving was seen by its group's read: a partition patch that gives "committed" leaves out
# "committed_moved" and "frozen_since_max" (its group's data_time) and "committed_moved_after" (its
# data_time before) where they are that (schema 8), and the reader puts them back
t_is "$(grep '"keyframe":false' "$T_TMP/deltas" | grep -c '"partitions@":\[{"i":[^{}]*"committed":[0-9]' | awk '{print ($1 > 10)}')" 1 \
	"commits move in the deltas"
t_is "$(grep '"keyframe":false' "$T_TMP/deltas" | grep -c '{"i":[^{}]*"committed":[0-9][^{}]*"committed_moved\(_after\)\{0,1\}":"[=<]"')" 0 \
	"a patch that gives \"committed\" leaves out the times its group's reads say"
t_is "$(sed -n 's/.* \([0-9]*\) moved commit times put,.*/\1/p' "$T_TMP/rebuild" | awk '{print ($1 > 0)}')" 1 \
	"and the reader put its group's data times in their place"
# any other partition time that is its group's data_time is written "=", one that is its data_time
# before "<" (a verdict's since: the rewind), and read so
t_is "$(sed -n 's/.* \([0-9]*\) data_time "=" read,.*/\1/p' "$T_TMP/rebuild" | awk '{print ($1 > 0)}')" 1 \
	"the reader put the group's data_time where a patch wrote \"=\""
t_is "$(sed -n 's/.* \([0-9]*\) last data_time "<" read,.*/\1/p' "$T_TMP/rebuild" | awk '{print ($1 > 0)}')" 1 \
	"and its last data_time where it wrote \"<\""
# an event's message holds its text: a line of the deltas writes the message around it, "message_head" and
# "message_tail" (schema 8), --full the message whole; the rebuild above joined them and compared each line's
# events with --full's
t_is "$(grep -c '"message_head":' "$T_TMP/deltas" | awk '{print ($1 > 0)}')" 1 "the deltas split an event's message around its text"
t_is "$(grep -c '"message_head":' "$T_TMP/full")" 0 "--full writes it whole"
t_is "$(sed -n 's/.* \([0-9]*\) event messages joined$/\1/p' "$T_TMP/rebuild" | awk '{print ($1 > 0)}')" 1 \
	"and the reader joined them into --full's events"
# partitions whose patches say the same share one: "i" a list (the rebuild above applied each to all it names)
t_is "$(grep '"keyframe":false' "$T_TMP/deltas" | grep -c '"partitions@":\[\([^]]*,\)\{0,1\}{"i":\[[0-9]*,[0-9]' | awk '{print ($1 > 0)}')" 1 \
	"partitions that changed alike share a patch (\"i\" a list)"
t_is "$(sed -n 's/.* \([0-9]*\) patches of several partitions,.*/\1/p' "$T_TMP/rebuild" | awk '{print ($1 > 0)}')" 1 \
	"and the reader applied each to every partition it names"
t_is "$(grep '"keyframe":false' "$T_TMP/deltas" | grep -c '"time_lag_from_us":[0-9\[]' | awk '{print ($1 > 0)}')" 1 \
	"while origins of time lags changed"
# rebuilt NAME SECONDS WHAT: a run of SECONDS on the fixture broker of $T_TMP/NAME.json, recorded, replayed with
# --json and --json --full into NAME.deltas and NAME.full, and the deltas rebuilt (NAME.rebuild): three test points
rebuilt() {
	fixture_start "$T_TMP/$1.json" || { t_ok 1 "the fixture broker of $3 starts"; t_done; exit 1; }
	"$KGTOP" -b "$BOOTSTRAP" -c none --json -i 0.5 --duration "$2" --record "$T_TMP/$1.rec" >/dev/null 2>"$T_TMP/$1.err"
	t_is $? 0 "a run on $3"
	fixture_stop
	"$KGTOP" --replay "$T_TMP/$1.rec" --json >"$T_TMP/$1.deltas" 2>>"$T_TMP/$1.err" &&
		"$KGTOP" --replay "$T_TMP/$1.rec" --json --full >"$T_TMP/$1.full" 2>>"$T_TMP/$1.err"
	t_is $? 0 "replays with --json and --json --full"
	"$REBUILD" "$T_TMP/$1.deltas" "$T_TMP/$1.full" >"$T_TMP/$1.rebuild" 2>&1
	t_is $? 0 "keyframe + deltas rebuild --full there too"
	sed 's/^/#   /' "$T_TMP/$1.rebuild"
}

# alike patches are shared however many partitions changed: a group of 1,100 partitions whose commits all
# move alike (more than the 1,024 patches merging once stopped at) writes lists, and still rebuilds
awk 'BEGIN {
	printf "{\"brokers\": 1, \"seed\": 3, \"topics\": [{\"name\": \"wide\", \"partitions\": 1100, \"log_end\": 5000, \"rate\": 20}],\n"
	printf "\"groups\": [{\"id\": \"g-wide\", \"state\": \"Stable\", \"assignor\": \"range\", \"members\": [{\"client_id\": \"w1\", \"assignment\": {\"wide\": [0"
	for (i = 1; i < 1100; i++) printf ",%d", i
	printf "]}}], \"committed\": {\"wide\": 4990}, \"commit_rate\": {\"wide\": 20}}]}\n"
}' >"$T_TMP/wide.json"
rebuilt wide 3 "a group of 1,100 partitions"
t_is "$(sed -n 's/.* \([0-9]*\) patches of several partitions,.*/\1/p' "$T_TMP/wide.rebuild" | awk '{print ($1 > 0)}')" 1 \
	"its 1,100 alike patches are shared"
# partitions whose patches give the same keys, their values apart, share the keys (schema 10): a group whose
# six partitions commit at six rates writes {"is":[0,1,...],"committed":[v0,v1,...],...}, and still rebuilds
cat >"$T_TMP/apart.json" <<'EOF2'
{"brokers": 1, "seed": 5, "topics": [{"name": "apart", "partitions": 6, "log_end": 50000, "rate": 40}],
 "groups": [{"id": "g-apart", "state": "Stable", "assignor": "range",
   "members": [{"client_id": "a1", "assignment": {"apart": [0, 1, 2]}}, {"client_id": "a2", "assignment": {"apart": [3, 4, 5]}}],
   "committed": {"apart": [1000, 2000, 3000, 4000, 5000, 6000]}, "commit_rate": {"apart": [5, 7, 11, 13, 17, 19]}}]}
EOF2
rebuilt apart 4 "a group whose partitions commit at six rates"
t_is "$(grep '"keyframe":false' "$T_TMP/apart.deltas" | grep -c '"partitions@":\[{"is":\[0,1,2,3,4,5\],"committed":\[[0-9]*,[0-9]*,' | awk '{print ($1 > 2)}')" 1 \
	"its partitions' patches are columns: \"is\" the partitions, a value each"
t_is "$(sed -n 's/.* \([0-9]*\) column patches,.*/\1/p' "$T_TMP/apart.rebuild" | awk '{print ($1 > 2)}')" 1 \
	"and the reader expanded them into the patches they stand for"
# a budget short of the groups at risk (--max-requests 60): some are asked their committed offsets alone,
# their "offsets_time" newer than their "data_time" (schema 9); a partition patch's "=" and "<" and a moved
# commit's times left out are that read, and the deltas still rebuild --full
fixture_start churn.json || { t_ok 1 "the fixture broker starts again"; t_done; exit 1; }
"$KGTOP" -b "$BOOTSTRAP" --json -i 0.2 --duration 8 --lag-window 10s --max-requests 60 --record "$T_TMP/short.rec" \
	>/dev/null 2>"$T_TMP/short.err"
t_is $? 0 "a run on a budget short of the groups at risk"
fixture_stop
"$KGTOP" --replay "$T_TMP/short.rec" --json >"$T_TMP/short.deltas" 2>>"$T_TMP/short.err" &&
	"$KGTOP" --replay "$T_TMP/short.rec" --json --full >"$T_TMP/short.full" 2>>"$T_TMP/short.err"
t_is $? 0 "replays with --json and --json --full"
t_is "$(grep -c '"offsets_time":' "$T_TMP/short.full" | awk '{print ($1 > 0)}')" 1 \
	"some groups' offsets were asked alone (\"offsets_time\")"
"$REBUILD" "$T_TMP/short.deltas" "$T_TMP/short.full" >"$T_TMP/short.rebuild" 2>&1
t_is $? 0 "keyframe + deltas rebuild --full there too"
sed 's/^/#   /' "$T_TMP/short.rebuild"
t_is "$(sed -n 's/.* \([0-9]*\) moved commit times put,.*/\1/p' "$T_TMP/short.rebuild" | awk '{print ($1 > 0)}')" 1 \
	"the reader put the groups' offsets' reads in place of the moved commits' times"
t_done
