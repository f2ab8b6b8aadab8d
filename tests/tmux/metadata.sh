#!/bin/sh
# tests/tmux/metadata.sh: the kafka source keeps the cluster's metadata between refreshes (issue 24,
# item 5).  At rest it asks it every 10 s, not every refresh (the fixture broker's stats count the
# Metadata requests); a refresh that sees what the kept one may not know has the next refresh ask it
# (the debug log says "metadata due" and why, and the next refresh "metadata asked"): a group listed
# anew on a new topic, whose lag is then shown; offsets on partitions the metadata has not.
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
KGTOP="$top_builddir/kgtop"
BROKER="$top_builddir/tests/fixture-broker"
. "$top_srcdir/tests/tmux/lib.sh"
tenv
tbroker metadata.json
ok "fixture broker ready at $bootstrap"
log="$work/kgtop.log"

# the Metadata requests the broker answered so far (its stats file)
metadata() { sed 's/.*"requests":{\([^}]*\)}.*/\1/' "$work/stats.json" | tr ',' '\n' | sed -n 's/^"Metadata"://p'; }
mark=0
since() { tail -n +"$((mark + 1))" "$log"; }
refreshes() { since | grep -c 'kafka: refresh of '; }
at_least() { [ "$("$1")" -ge "$2" ]; }
# after_due: the line of the refresh after the one that found the metadata due (the first "metadata
# due" line since the mark; its own refresh's line follows it)
after_due() { since | sed -n '/kafka: metadata due/,$p' | grep 'kafka: refresh of ' | sed -n 2p; }
due_then_refresh() { [ -n "$(after_due)" ]; }

tstart 80 24 "$KGTOP -b $bootstrap --log $log -vv; $T_AFTER"
check "the list shows the group" twait "GROUP (1)" 20
# at rest from the first refresh that keeps the metadata (the start asks it, and again once the
# time-lag reads' handle is made, which asks its own), and one refresh later, so that the broker's
# stats file (rewritten within 50 ms of a request) counts everything before the mark (mark is 0 here)
kept_then_one() { since | sed -n '/(metadata kept)/,$p' | grep -c 'kafka: refresh of '; }
check "a refresh keeps the metadata, and one more follows" tpoll 40 at_least kept_then_one 2
mark=$(wc -l <"$log")
m0=$(metadata)
check "twelve refreshes at rest" tpoll 40 at_least refreshes 12
m1=$(metadata) n=$(refreshes) own=$(since | grep 'kafka: refresh of ' | grep -c '(metadata asked)')
check "kgtop's refreshes asked it at most twice in $n (asked $own)" test "$own" -le 2
# at the broker: those two, and one more should the time-lag reads' handle, dropped at rest, be made again
check "the metadata asked at most 3 times in $n refreshes (every 10 s; asked $((m1 - m0)))" test $((m1 - m0)) -le 3

# step 1: topic b and g-b on it: listed anew, the metadata due, the next refresh asks it
mark=$(wc -l <"$log")
kill -USR1 "$bpid"
check "the new group is listed" twait "GROUP (2)" 20
check "a metadata due (the listing), then a refresh" tpoll 20 due_then_refresh
T_LAST=$(since | grep -m1 'kafka: metadata due')
check "due for the listing ($T_LAST)" eval 'printf "%s\n" "$T_LAST" | grep -q "listed anew, gone or in another state"'
T_LAST=$(after_due)
check "the next refresh asks the metadata" eval 'printf "%s\n" "$T_LAST" | grep -q "(metadata asked)"'
gb_lag() { printf '%s\n' "$T_LAST" | grep 'g-b' | grep -qw '28'; }
check "g-b's lag on its new topic is shown (28 on its row)" tpoll 10 gb_lag

# step 2: topic a grows; g-a commits on partitions 3 and 4, which the kept metadata has not
mark=$(wc -l <"$log")
kill -USR1 "$bpid"
check "a metadata due (offsets on new partitions), then a refresh" tpoll 20 due_then_refresh
T_LAST=$(since | grep -m1 'kafka: metadata due')
check "due for g-a's offsets on topic a ($T_LAST)" eval 'printf "%s\n" "$T_LAST" | grep -q "g-a has a:[34], which the metadata has not"'
T_LAST=$(after_due)
check "the next refresh asks the metadata" eval 'printf "%s\n" "$T_LAST" | grep -q "(metadata asked)"'
tkeys q
check "q quits with status 0" twait "kgtop exited 0" 10
finish
