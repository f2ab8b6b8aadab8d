#!/bin/sh
# tests/tmux/between.sh: between two refreshes the kafka source's worker sleeps (issue 24, item 5).
# The dashboard on the fixture broker's idle cluster at -i 30: once the first refresh is on screen the
# worker (its thread named kg-refresh) waits for the next, 30 s on, and wakes for nothing meanwhile;
# it waited in slices of 200 ms, five wakeups a second at rest.  Its wakeups are the kernel's count
# (/proc/PID/task/TID/status, voluntary_ctxt_switches), read while the dashboard's own thread wakes
# for its clock (once a second): five of those, and the worker's count has not moved (one allowed).
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
KGTOP="$top_builddir/kgtop"
BROKER="$top_builddir/tests/fixture-broker"
. "$top_srcdir/tests/tmux/lib.sh"
tenv
[ -r /proc/self/task/$$/status ] || { echo "1..0 # SKIP no /proc/PID/task"; exit 77; }
tbroker idle-100.json
ok "fixture broker ready at $bootstrap"

tstart 80 24 "exec $KGTOP -b $bootstrap -i 30"
check "the list shows the groups" twait "GROUP (100)" 20
pid=$(tfmt '#{pane_pid}')
# tid NAME: the thread of kgtop named NAME
tid() {
	for t in /proc/"$pid"/task/*; do
		[ "$(cat "$t/comm" 2>/dev/null)" = "$1" ] && { echo "${t##*/}"; return 0; }
	done
	return 1
}
# wakeups TID: its voluntary context switches so far
wakeups() { awk '/^voluntary_ctxt_switches/ { print $2 }' "/proc/$pid/task/$1/status" 2>/dev/null; }
worker=$(tid kg-refresh)
check "the worker is a thread named kg-refresh" test -n "$worker"
w0=$(wakeups "$worker") d0=$(wakeups "$pid")
clock_ticked() { [ "$(wakeups "$pid")" -ge $((d0 + 5)) ]; }
check "the dashboard's thread woke five times (its clock)" tpoll 20 clock_ticked
w1=$(wakeups "$worker")
check "meanwhile the worker woke at most once ($w0, then $w1)" test "$((w1 - w0))" -le 1
tkeys q
finish
