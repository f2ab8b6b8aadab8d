#!/bin/sh
# tests/tmux/lag.sh: progress on the dashboard (issue 10), the real kgtop
# on its embedded demo: the group list's TIME-LAG and VERDICT columns and
# their sort orders; the lag view (L): a row per partition, shown alone,
# scrolled to its end and searched; and a member stalled past
# max.poll.interval.ms shown STALLED in the health view while it is still
# a member, before the coordinator kicks it out.
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
KGTOP="$top_builddir/kgtop"
. "$top_srcdir/tests/tmux/lib.sh"
command -v tmux >/dev/null || { echo "1..0 # SKIP tmux not installed"; exit 77; }
export KGTOP_THEMES="$top_srcdir/themes" LANG=C.UTF-8 LC_ALL=C.UTF-8 HOME=/nonexistent KGTOP_CONFIG=none
unset NO_COLOR KGTOP_BROKERS

# The partitions of the lag view's rows on the screen (T_LAST), one a line.
rows() { printf '%s\n' "$T_LAST" | awk '$1 == "demo-groups" { print $2 }'; }
# True when the lag view shows at least $1 rows.
has_rows() { [ "$(rows | wc -l)" -ge "$1" ]; }
# True when the rows shown are not these ($1: partitions, blank-separated).
rows_not() { [ "$(rows | tr '\n' ' ')" != "$1" ]; }
# True when partition $1 has no row on the screen; has_row when it has.
no_row() { ! rows | grep -qx "$1"; }
has_row() { rows | grep -qx "$1"; }
# True when the health view says a member's partitions froze: "STALLED" then "since 18:07:19-20 on [4]" (a since
# within bounds: between two refreshes, "<18:07:20" before kgtop's first look).
health_stalled() {
	printf '%s\n' "$T_LAST" | grep -qE 'consumer-[a-z] .*(STALLED|silent) *$' &&
		printf '%s\n' "$T_LAST" | grep -qE 'since <?[0-9]{2}:[0-9]{2}:[0-9]{2}(-[0-9:]+)? on \['
}
# True when the list's row of group $1 has a verdict.
judged() { printf '%s\n' "$T_LAST" | grep -qE "$1 .* (OK|SLOW|REWIND|STALLED|STOPPED|LOST) "; }

# a demo without a script, 120 partitions: more rows than the screen
tstart 120 40 "$KGTOP --demo=manual --demo-partitions 120 -i 0.5; $T_AFTER"
check "list: TIME-LAG and VERDICT columns" twait "TIME-LAG▾VERDICT" 20
check "list: the groups are judged" tpoll 30 judged kgtop-demo-coop
check "list: worst first from the start (by verdict)" twait "▾VERDICT" 5
tkeys s; tkeys s; check "s s: by names" twait "▾GROUP" 5
tkeys s; tkeys s; tkeys s
check "s: sorted by time lag" twait "▾TIME-LAG" 5
tkeys s; check "s: back to the verdict, the worst first" twait "▾VERDICT" 5

tkeys L
check "L: the lag view's columns" twait "PARTITION OWNER" 10
check "L: its title is the verdicts' window" twait "LAG OVER 20.0s" 5
check "L: the group's partitions counted" twait "120 partitions" 5
check "L: a row per partition" tpoll 10 has_rows 10
# alone (Enter), paused so that the rows keep their order while scrolled
tkeys Enter; tkeys p
check "Enter: the lag view alone, more rows" twait "PAUSED" 5
tpoll 5 has_rows 30
top=$(rows | tr '\n' ' ')
tkeys End
check "End: the last rows" tpoll 5 rows_not "$top"
T_LAST=$(tcap)
last=$(rows | tail -n 1)
case " $top " in *" $last "*) not_ok "End: partition $last was not on the first page" ;; *) ok "End: partition $last was not on the first page" ;; esac
tkeys Home
check "Home: the first rows again" tpoll 5 no_row "$last"
# search a partition of the end: the view scrolls to its row
tkeys / "$last" Enter
check "search: n N named in the status line" twait "the next, the previous that holds \"$last\"" 5
check "search: the view scrolled to partition $last" tpoll 15 has_row "$last" # 5 s was short once with Kafka JVMs beside it (make -j2 check)
tkeys Escape; tkeys Escape
tkeys p; check "resume" tgone "PAUSED" 5
tkeys q; check "q quits with status 0" twait "kgtop exited 0" 10

# a member stalls: its partitions turn STALLED before max.poll.interval.ms (6 s in the demo) kicks it out
tstart 120 40 "$KGTOP --demo=manual -i 0.5; $T_AFTER"
check "demo: three members consume" twait "kgtop-demo-coop" 20
tkeys h; check "health view" twait "heartbeat age" 10
check "health: members consuming" twait "consuming" 20
# once the group is stable and its partitions judged (the first rebalance over)
check "list: the group judged OK" tpoll 30 judged "kgtop-demo-coop +Stable"
tkeys x; check "x: a member stalls" twait "stall" 5
check "health: the stalled member's partitions STALLED" tpoll 20 health_stalled
case "$T_LAST" in
*"left: max.poll"*) not_ok "health: STALLED while it is still a member (not kicked out yet)" ;;
*) ok "health: STALLED while it is still a member (not kicked out yet)" ;;
esac
check "health: then max.poll.interval.ms kicks it out" twait "left: max.poll.interval" 30
tkeys q; check "q quits with status 0" twait "kgtop exited 0" 10
check "terminal restored" twait "icanon echo" 5
finish
