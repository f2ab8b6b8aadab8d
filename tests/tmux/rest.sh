#!/bin/sh
# tests/tmux/rest.sh: the dashboard at rest (issue 24, item 5) against the fixture broker's idle
# cluster (idle-100: nothing moves; 100 topics of 6 partitions, 200 a broker).  A snapshot draws a whole
# frame, and at the default interval (a snapshot a second) the frames draw the header's clock too: one draw
# a second, no clock-only draw between them (there was one each second); with snapshots 3 s apart the
# clock's tick draws the header alone between them (never a whole frame built to send a clock's digits).
# The debug log (--log -vv) says which each draw was ("ui: drew a frame" / "ui: drew the clock") and
# when the collector built each snapshot.  The clock still moves and stays within a second or two of the
# wall clock, a key still redraws at once, and an overlay (the help) makes every draw whole.
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
KGTOP="$top_builddir/kgtop"
BROKER="$top_builddir/tests/fixture-broker"
. "$top_srcdir/tests/tmux/lib.sh"
tenv
tbroker idle-100.json --log "$work/broker.log"
ok "fixture broker ready at $bootstrap"
log="$work/kgtop.log"

# counts in the log since the mark: snapshots built, whole frames drawn, clock-only draws
mark=0
since() { tail -n +"$((mark + 1))" "$log"; }
snaps() { since | grep -c 'collector: snapshot '; }
frames() { since | grep -c 'ui: drew a frame'; }
clocks() { since | grep -c 'ui: drew the clock'; }
at_least() { [ "$("$1")" -ge "$2" ]; }
clock() { printf '%s\n' "$T_LAST" | head -1 | grep -oE '[0-9]{2}:[0-9]{2}:[0-9]{2}' | tail -1; }

# at_rest WHAT N SECONDS ARGS...: kgtop (ARGS) started at 80x24, its list shown, then N snapshots counted from a
# mark in its log; sets n_snaps, n_frames, n_clocks and T_LAST
at_rest() {
	what=$1 want=$2 secs=$3
	shift 3
	tstart 80 24 "$KGTOP -b $bootstrap $* --log $log -vv; $T_AFTER"
	check "${what}the list shows the groups" twait "GROUP (100)" 20
	mark=$(wc -l <"$log")
	check "${what}$want snapshots" tpoll "$secs" at_least snaps "$want"
	n_snaps=$(snaps) n_frames=$(frames) n_clocks=$(clocks)
	T_LAST="$n_snaps snapshots, $n_frames frames, $n_clocks clock draws"
}

at_rest "" 10 40
check "at rest the frames draw the clock: clock-only draws fewer than half the snapshots ($T_LAST)" \
	test "$((n_clocks * 2))" -lt "$n_snaps"
check "a whole frame a snapshot, no more ($T_LAST)" test "$n_frames" -le $((n_snaps + 1))
# the log starts (read every 10 s, for LOST): when they all fit in one call a leader, all together
# (the topics' turns spread over the 10 s cost three calls each, 24 every 10 s); the broker's log
# from the 12th snapshot on (10 s since the mark at least)
starts() { tail -n +"$((bmark + 1))" "$work/broker.log" | grep 'ListOffsets' | grep -v ' earliest=0$'; }
bmark=$(wc -l <"$work/broker.log") mark=$(wc -l <"$log")
check "twelve snapshots more" tpoll 40 at_least snaps 12
T_LAST=$(starts)
check "the log starts were read" test -n "$T_LAST"
check "each call reads a leader's 200 log starts at once" eval '! printf "%s\n" "$T_LAST" | grep -qv " earliest=200$"'
c1=$(tcap | head -1 | grep -oE '[0-9]{2}:[0-9]{2}:[0-9]{2}' | tail -1)
moved() { c2=$(clock); [ -n "$c2" ] && [ "$c2" != "$c1" ]; }
check "the header's clock moves ($c1, then another)" tpoll 5 moved
# the clock shown against the wall clock (seconds of the day; midnight between them is not a lag): at most the
# frame's lateness (under a second) and a capture's time
secs() { printf '%s\n' "$1" | awk -F: '{ print ($1 * 3600 + $2 * 60 + $3) }'; }
late() {
	c2=$(clock) w=$(date +%H:%M:%S)
	[ -n "$c2" ] || return 1
	behind=$(( ($(secs "$w") - $(secs "$c2") + 86400) % 86400 ))
	[ "$behind" -le 2 ]
}
tpoll 5 late
check "the header's clock is at most 2 s behind the wall clock ($c2 at $w)" test "$behind" -le 2
tkeys Down
check "a key redraws at once: the second group is selected" twait "▶ group-0001" 5
# the help over the screen: every draw whole (the header alone would be drawn over it)
tkeys '?'
check "the help opens" twait "quit" 5
mark=$(wc -l <"$log")
check "three snapshots with the help open" tpoll 20 at_least snaps 3
check "no clock-only draw under the help" test "$(clocks)" = 0
tkeys Escape
tkeys q
check "q quits with status 0" twait "kgtop exited 0" 10

# snapshots 3 s apart: the clock's tick draws the header alone between them, at each second
at_rest "-i 3: " 3 30 -i 3
check "-i 3: between snapshots the clock's tick draws the header alone ($T_LAST)" test "$n_clocks" -ge "$n_snaps"
check "-i 3: a whole frame a snapshot, no more ($T_LAST)" test "$n_frames" -le $((n_snaps + 1))
tkeys q
check "-i 3: q quits with status 0" twait "kgtop exited 0" 10

# one write to the terminal a draw: ncurses wrote a frame a cursor move at a time until its screen had been left
# and taken back once (ui.c; 46 writes a frame at rest at 160x48, 7 at 80x24).  Counted in the main thread's
# write calls (/proc/PID/task/PID/io), without --log (the log's lines are writes of their own) over five seconds
# of the header's clock: a frame a second at rest, each one write (and a margin of a frame a second)
tstart 160 48 "$KGTOP -b $bootstrap; $T_AFTER"
check "160x48: the list shows the groups" twait "GROUP (100)" 20
kpid=$(pgrep -P "$(tfmt '#{pane_pid}')" | head -1)
writes() { awk '/^syscw:/ { print $2 }' "/proc/$kpid/task/$kpid/io"; }
check "160x48: kgtop's write calls are counted (pid $kpid)" test -n "$(writes)"
c1=$(clock) w0=$(writes)
five() { c2=$(clock); [ -n "$c2" ] && [ $(( ($(secs "$c2") - $(secs "$c1") + 86400) % 86400 )) -ge 5 ]; }
check "160x48: five seconds pass on the header's clock ($c1)" tpoll 10 five
w1=$(writes)
check "160x48: at rest a draw is one write to the terminal: $((w1 - w0)) writes from $c1 to $c2 (at most 12)" \
	test "$((w1 - w0))" -le 12
tkeys q
check "160x48: q quits with status 0, the terminal's modes back" twait "kgtop exited 0" 10
check "160x48: terminal restored" twait "icanon echo" 5
finish
