#!/bin/sh
# tests/tmux/kgtop.sh: the real kgtop binary in tmux against the fixture
# broker (the real librdkafka admin client end to end): start, the group
# and its source health, select, every view, a cooperative rebalance
# stepped with SIGUSR1 showing in the events and the timeline, pause and
# scrub, resize, every theme found from the build tree, quit with the
# terminal restored, --duration, and no group writes by kgtop (the
# fixture counts them).
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
KGTOP="$top_builddir/kgtop"
BROKER="$top_builddir/tests/fixture-broker"
. "$top_srcdir/tests/tmux/lib.sh"
tenv
tbroker join-coop.json
ok "fixture broker ready at $bootstrap"

# without $KGTOP_THEMES and nothing installed: the themes are found beside the binary (or in the source tree)
log="$work/kgtop.log"
tstart 120 40 "env -u KGTOP_THEMES $KGTOP -b $bootstrap -i 0.3 --log $log -vv; $T_AFTER"
check "first frame: header with the cluster" twait "kgtop ${bootstrap%%,*}" 5
check "the group appears" twait "g-coop" 15
check "the kafka source is healthy" twait "kafka ok" 15
check "cooperative protocol" twait "g-coop Stable cooperative-sticky (cooperative)" 10
tkeys 1; check "grid: members by letter" twait "A consumer-a" 5
check "grid: the key says what a dot is" twait "not this member's" 5
tkeys 4; check "events view" twait "events" 5

# a cooperative rebalance in two rounds, stepped through the fixture
# step the fixture and wait until kgtop's tab line shows the state it serves
step() { kill -USR1 "$bpid"; twait "g-coop $1" 10 || echo "# step to $1 not seen"; }
step PreparingRebalance; step CompletingRebalance; step "Stable cooperative"
check "round one: the moving partition is revoked (incremental)" twait "consumer-a revoked [3] of [0 3] (incremental)" 10
# round two under a paused screen: the collector goes on (its log says it built snapshots with
# events), the events view stands still with the rest of the screen, and shows them on resume
tkeys p; check "paused before round two" twait "PAUSED" 5
mark=$(wc -l <"$log")
snaps_since() { tail -n +"$((mark + 1))" "$log" | grep -c 'collector: snapshot '; }
events_since() { tail -n +"$((mark + 1))" "$log" | sed -n 's/.*collector: snapshot .*(\([0-9]*\) events)$/\1/p' | awk '{ n += $1 } END { print n + 0 }'; }
# step the fixture while paused: three snapshots after each step (at -i 0.3) let kgtop see each state
pstep() { kill -USR1 "$bpid"; want=$(($(snaps_since) + 3)); tpoll 10 test "$(snaps_since)" -ge "$want"; }
pstep; pstep; pstep
check "paused: the collector derived round two's events" tpoll 10 test "$(events_since)" -gt 0
check "paused: the events view does not show them (the screen stands still)" tgone "consumer-d assigned [3]" 1
tkeys p; check "resumed: round two: consumer-d assigned [3]" twait "consumer-d assigned [3]" 10
check "one episode, two rounds" twait "2 rounds" 10
tkeys 2; check "timeline shows the episode (at least two rounds: polling alone saw it)" twait "≥2 rounds" 5
tkeys 3; check "health: no heartbeats from the admin API" twait "heartbeats and poll gaps: none" 5
check "health: the traces that report them are named" twait "--trace jolokia:URL" 5
check "health: no word of the demo on a real cluster" tgone "demo" 5

tkeys p; check "pause" twait "PAUSED" 5
tkeys Left; check "scrub" twait "PAUSED -5s" 5
tkeys p; check "resume" tgone "PAUSED" 5
tmx resize-window -t t -x 60 -y 20
check "resize to 60x20: the group list alone" twait "Enter view" 5
tmx resize-window -t t -x 30 -y 10
check "resize to 30x10: terminal too small" twait "terminal too small" 5
tmx resize-window -t t -x 120 -y 40
check "and back" twait "g-coop" 5
tkeys T; check "theme switch" twait "theme mono" 5
tkeys T; check "from the build tree: theme high-contrast" twait "theme high-contrast" 5
tkeys T; check "from the build tree: theme light" twait "theme light" 5
tkeys T; check "T cycles back to the default" twait "theme default" 5
tkeys q; check "q quits with status 0" twait "kgtop exited 0" 5
check "terminal restored" twait "icanon echo" 5
check "main screen back" test "$(tfmt '#{alternate_on}')" = 0
# --duration: the dashboard quits by itself, status 0, terminal restored
tstart 100 30 "$KGTOP -b $bootstrap -i 0.3 --duration 2; $T_AFTER"
check "--duration 2: the dashboard draws" twait "g-coop" 10
check "--duration 2: quits by itself with status 0" twait "kgtop exited 0" 10
check "--duration: terminal restored" twait "icanon echo" 5
check "--duration: main screen back" test "$(tfmt '#{alternate_on}')" = 0
if grep -q '"rejected_writes":{"JoinGroup":0,"SyncGroup":0,"Heartbeat":0,"OffsetCommit":0,"LeaveGroup":0,"Produce":0}' "$work/stats.json"; then
	ok "kgtop wrote nothing to the group"
else
	T_LAST=$(cat "$work/stats.json"); not_ok "kgtop wrote nothing to the group"
fi
finish
