#!/bin/sh
# tests/tmux/tiers.sh: the real dashboard in tmux tells the kafka source what
# it shows (issue 15): against the fixture broker, the groups in the list's
# rows at zero lag or Empty (nothing they can commit until their log end
# moves) are asked once their data is 10 s old (issue 24, item 5), the
# others at zero lag once in a minute (--full-refresh 60), those with
# members and lag every refresh on screen or not (issue 24: at risk), an
# Empty group on screen is not described (its listing says it), and moving
# down the list moves the requests to the groups that come into view: one
# whose data is that old is asked at once.  The broker's request log counts
# them; g-risk's fetches, one a refresh, are the clock.
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
KGTOP="$top_builddir/kgtop"
BROKER="$top_builddir/tests/fixture-broker"
. "$top_srcdir/tests/tmux/lib.sh"
tenv
tbroker ../../integration/scenarios/tiered.json --log "$work/broker.log"
ok "fixture broker ready at $bootstrap"

# requests the broker logged for a group since the mark: describes GROUP, fetches GROUP
mark=0
since() { tail -n +"$((mark + 1))" "$work/broker.log"; }
describes() { since | grep -c "DescribeGroups.*first=$1\$"; }
fetches() { since | grep -c "OffsetFetch.*group=$1 "; }
at_least() { [ "$("$1" "$2")" -ge "$3" ]; }
at_most() { [ "$("$1" "$2")" -le "$3" ]; }

# an 80x24 terminal shows five of the twelve groups, g-empty-1 to g-off-3 by name (F6 g Enter: the list
# starts worst first); the requests count from then
tstart 80 24 "$KGTOP -b $bootstrap -i 0.2 --full-refresh 60; $T_AFTER"
twait "GROUP (12)" 15
tkeys F6 g Enter
check "sorted by name" twait "sorted by name" 5
mark=$(wc -l <"$work/broker.log")
check "the list shows the first groups" twait "g-off-3" 15
check "a group out of view with members and lag is asked its offsets every refresh (50 refreshes: 10 s at least)" \
	tpoll 60 at_least fetches g-risk 50
check "and described every refresh" at_least describes g-risk 50
check "a group in view at zero lag is described once its data is 10 s old" at_least describes g-off-3 1
check "not every refresh" at_most describes g-off-3 3
check "and asked its offsets so" at_most fetches g-off-3 3
check "a group out of view at zero lag was described at most once, its turn comes in a minute" at_most describes g-off-5 1
check "and asked its offsets at most once" at_most fetches g-off-5 1
check "an Empty group in view is never described (the listing says it)" test "$(describes g-empty-2)" = 0
check "but its offsets are asked once they are 10 s old" at_least fetches g-empty-2 1
check "not every refresh" at_most fetches g-empty-2 3
# the rows in view are all quiet (zero lag or Empty), asked every 10 s: none says its age (a quiet screen
# stays still), where before any row more than two refreshes old did ("3s old"); each screen is looked at
# until g-risk's next 25 fetches (5 s at -i 0.2)
mark=$(wc -l <"$work/broker.log")
seen_old=""
quiet_watch() {
	printf '%s\n' "$T_LAST" | grep -qE ' [0-9]s old' && seen_old=${seen_old:-$T_LAST}
	at_least fetches g-risk 25
}
check "5 s of screens watched" tpoll 60 quiet_watch
T_LAST=$seen_old
check "a quiet row in view asked at its pace never says its age" test -z "$seen_old"
# stale data still says so: the broker stopped, the rows' data grows older than their pace
kill -STOP "$bpid"
old_row() { printf '%s\n' "$T_LAST" | grep -qE 'g-off-3 .* [0-9]+m?[0-9]*s old'; }
check "the broker stopped: a quiet row says its age once its data is older than its pace" tpoll 40 old_row
kill -CONT "$bpid"
check "the broker back: the row is asked and says no age" tpoll 40 eval '! old_row'
# down to the seventh group: the list scrolls and g-off-5 comes into view (from then on)
mark=$(wc -l <"$work/broker.log")
tkeys Down Down Down Down Down Down
check "the list scrolled to g-off-5" twait "g-off-5" 10
check "a group that came into view is described within 10 s (once its data is that old)" tpoll 15 at_least describes g-off-5 1
tkeys q
check "q quits with status 0" twait "kgtop exited 0" 5
if grep -qE '"rejected_writes":\{"JoinGroup":0,"SyncGroup":0,"Heartbeat":0,"OffsetCommit":0,"LeaveGroup":0(,"Produce":0)?\}' "$work/stats.json"; then
	ok "kgtop wrote nothing to the groups"
else
	T_LAST=$(cat "$work/stats.json"); not_ok "kgtop wrote nothing to the groups"
fi
finish
