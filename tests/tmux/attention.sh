#!/bin/sh
# tests/tmux/attention.sh: trouble off screen is shown on screen (issue 24, item 2).  Against the fixture
# broker (stall-off.json), the dashboard lists seven groups by name in an 80x24 terminal, five rows: g-sel
# selected, g-stall the row below the last shown.  g-stall's commits freeze (a step) while its topic grows;
# it has members and lag, so the kafka source asks it every refresh although nobody looks at it, and the
# STALLED rule fires after its threshold: a tenth of --lag-window 10s (1 s), at least two refreshes (-i 0.5:
# 1 s) and twice the usual gap between its commits (asked every refresh: 0.5 s).  Within that threshold and
# two refreshes (2 s), and a few seconds more for a loaded machine (6 s in all; before issue 24 it was asked
# every --full-refresh, 30 s), the status line names it and the header counts the groups in trouble.
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
KGTOP="${KGTOP_UNDER_TEST:-$top_builddir/kgtop}"
BROKER="$top_builddir/tests/fixture-broker"
. "$top_srcdir/tests/tmux/lib.sh"
tenv
tbroker ../../integration/scenarios/stall-off.json
ok "fixture broker ready at $bootstrap"

tstart 80 24 "$KGTOP -b $bootstrap -i 0.5 --lag-window 10s; $T_AFTER"
twait "GROUP (7)" 15
tkeys F6 g Enter
check "sorted by name" twait "sorted by name" 5
# g-calm-1..3, g-empty-1..2, g-sel, g-stall: the top, then five down selects g-sel, the sixth row; g-stall
# stays below (the Empty groups' offsets stand still with lag, STALLED: no consumer's trouble, not counted)
tkeys g Down Down Down Down Down
# tpoll hands the screen to its command in T_LAST; a command reading it must see the newest capture
sel_ok() { printf '%s\n' "$T_LAST" | grep -q 'g-sel.*OK'; }
check "g-sel selected, judged OK" tpoll 15 sel_ok
check "g-stall is off screen" tgone "g-stall" 1
check "nothing in trouble yet" tgone "in trouble" 1
kill -USR1 "$bpid"
check "the status line names g-stall, STALLED off screen" twait "off screen: g-stall STALLED" 6
check "the header counts it" twait " 1 in trouble " 1
check "and g-stall is still not a row of the list" tgone "g-stall  " 1
tkeys q
check "q quits with status 0" twait "kgtop exited 0" 5
finish
