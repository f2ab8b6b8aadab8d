#!/bin/sh
# tests/tmux/tiers.sh: the real dashboard in tmux tells the kafka source what
# it shows (issue 15): against the fixture broker, the groups in the list's
# rows are described and asked their offsets every refresh, the others once
# in a minute (--full-refresh 60), an Empty group on screen is not described
# (its listing says it), and scrolling the list down moves the requests to
# the groups that come into view.  The broker's request log counts them.
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
KGTOP="$top_builddir/kgtop"
BROKER="$top_builddir/tests/fixture-broker"
. "$top_srcdir/tests/tmux/lib.sh"
command -v tmux >/dev/null || { echo "1..0 # SKIP tmux not installed"; exit 77; }
[ -x "$BROKER" ] || { echo "1..0 # SKIP no fixture broker"; exit 77; }
export KGTOP_THEMES="$top_srcdir/themes" LANG=C.UTF-8 LC_ALL=C.UTF-8 HOME=/nonexistent KGTOP_CONFIG=none
unset NO_COLOR KGTOP_BROKERS
work=$(mktemp -d /tmp/kgtop-tmux-XXXXXX)
tbroker ../../integration/scenarios/tiered.json --log "$work/broker.log"
ok "fixture broker ready at $bootstrap"

# requests the broker logged for a group: describes GROUP, fetches GROUP
describes() { grep -c "DescribeGroups.*first=$1\$" "$work/broker.log"; }
fetches() { grep -c "OffsetFetch.*group=$1 " "$work/broker.log"; }
at_least() { [ "$("$1" "$2")" -ge "$3" ]; }

# a 100x24 terminal shows five of the eleven groups, g-empty-1 to g-off-3 by name (at 80 columns the
# TIME-LAG and VERDICT columns leave the names five characters)
tstart 100 24 "$KGTOP -b $bootstrap -i 0.2 --full-refresh 60; $T_AFTER"
check "the list shows the first groups" twait "g-off-3" 15
check "a group in view is described every refresh" tpoll 20 at_least describes g-off-3 6
check "and asked its offsets every refresh" at_least fetches g-off-3 6
check "a group out of view was described once, its turn comes in a minute" test "$(describes g-shown-3)" = 1
check "and asked its offsets once" test "$(fetches g-shown-3)" = 1
check "an Empty group in view is never described (the listing says it)" test "$(describes g-empty-2)" = 0
check "but its offsets are asked every refresh" at_least fetches g-empty-2 6
# down to the last group: the list scrolls and g-shown-3 comes into view
tkeys Down Down Down Down Down Down Down Down Down Down
check "the list scrolled to the last groups" twait "g-wake" 10
check "a group that came into view is described every refresh" tpoll 20 at_least describes g-shown-3 6
tkeys q
check "q quits with status 0" twait "kgtop exited 0" 5
if grep -q '"rejected_writes":{"JoinGroup":0,"SyncGroup":0,"Heartbeat":0,"OffsetCommit":0,"LeaveGroup":0,"Produce":0}' "$work/stats.json"; then
	ok "kgtop wrote nothing to the groups"
else
	T_LAST=$(cat "$work/stats.json"); not_ok "kgtop wrote nothing to the groups"
fi
finish
