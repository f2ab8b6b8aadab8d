#!/bin/sh
# tests/tmux/ui.sh: the real dashboard (ui_run over the real collector and
# tracker) in tmux, fed by tests/tmux/ui_driver's scripted scene: start,
# select, views, filter, sort, pause and scrub, rebalance walk, resize,
# theme, demo keys and replies, quit, --duration, signals and crashes
# restoring the terminal, ASCII, TERM values.
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
DRIVER="$top_builddir/tests/tmux/ui_driver"
. "$top_srcdir/tests/tmux/lib.sh"
command -v tmux >/dev/null || { echo "1..0 # SKIP tmux not installed"; exit 77; }
export KGTOP_THEMES="$top_srcdir/themes" LANG=C.UTF-8 LC_ALL=C.UTF-8 HOME=/nonexistent
unset NO_COLOR

# Run the driver, then report how it ended and the terminal's state.
after='echo "driver exited $?"; stty -a | tr " ;" "\n\n" | grep -xE -- "-?(icanon|echo)" | tr "\n" " "; echo; exec cat'

t0=$(date +%s%N)
tstart 120 40 "$DRIVER --speed 4; $after"
if twait " kgtop " 5; then
	ms=$(( ($(date +%s%N) - t0) / 1000000 ))
	ok "first frame after ${ms} ms (tmux start included)"
else
	not_ok "first frame"
fi
check "groups listed" twait "demo-coop" 5
check "worst first: sorted by verdict from the start" twait "▾VERDICT" 5
# F6: htop's sort menu; g, the first order (by name), Enter chooses it: the steps below walk the names' order
tkeys F6; check "F6 opens the sort menu" twait "sort by  (Enter chooses" 5
check "the menu lists the orders with what they mean" twait "the worst partition's progress" 5
tkeys g Enter; check "Enter: sorted by the name chosen" twait "▾GROUP" 5
check "the menu closed" tgone "sort by  (Enter" 5
tkeys Home
check "first group selected" twait "audit-archiver Empty" 5
check "the demo opens on the timeline" twait "/column" 5

tkeys j j; check "j selects the next groups" twait "demo-coop Stable" 5
tkeys 2; check "2: timeline" twait "/column" 5
check "cooperative episode: two rounds (its line says what it cost)" twait "2 rounds  50" 10 # 500-509 ms: the driver plays the scene in real time
check "a partly stopped lane (incremental revoke)" twait "▒" 5
tkeys j; check "j: demo-range timeline" twait "eager  1 round" 5
check "eager: every member stopped, and what it cost" twait "3 of 3 stopped 7.5 member-s" 5
tkeys 4; check "4: events in the seeds' words" twait "consumer-a revoked [0 1] (all: stop-the-world)" 5
tkeys k; check "k: back to demo-coop's events" twait "consumer-a revoked [4] of [0 4] (incremental)" 5
tkeys 3; check "3: health says the demo's consumers report heartbeats" twait "heartbeats and poll gaps: none yet" 5
check "3: and nothing about --trace in the demo" tgone "--trace" 5
tkeys 1; check "1: grid" twait "member" 5
tkeys Tab; check "Tab cycles to the timeline" twait "/column" 5
tkeys m; check "m: one strip per partition" twait "p4" 5
tkeys m o

tkeys '\'; check "\\ opens the filter" twait "filter (regex" 5
tkeys c o o; check "the filter applies as it is typed" twait "GROUP (1 filtered)" 5
tkeys p Enter; check "Enter keeps it" twait "filter coop: 1 group" 5
tkeys F4 BSpace BSpace BSpace BSpace r a n g e Enter; check "F4 edits the filter in force" twait "filter range: 1 group" 5
tkeys '\' x; check "the pattern typed shows in the prompt" twait "cancels): rangex" 5
tkeys Escape; check "Esc while typing puts the filter back" tgone "cancels): rangex" 5
check "the filter of before in force" twait "GROUP (1 filtered)" 5
tkeys '\' BSpace BSpace BSpace BSpace BSpace Enter; check "an empty pattern clears the filter" twait "GROUP (7)" 5
tkeys '\' c o o p Enter; twait "GROUP (1 filtered)" 5
tkeys Escape; check "Esc clears the filter" twait "GROUP (7)" 5
tkeys s; check "s sorts by state (the columns' order)" twait "sorted by state" 5
tkeys s; check "s again: by lag" twait "sorted by lag" 5
tkeys S; check "S reverses it" twait "sorted by lag, reversed" 5
tkeys S s s s s; check "back to name order" twait "sorted by name" 5

tkeys Home /; check "/ opens the search" twait "search groups" 5
tkeys d e; check "the search selects as it is typed" twait "demo-coop Stable" 5
tkeys m o '-' r; check "each key searches again" twait "demo-range Stable" 5
tkeys BSpace BSpace Enter; tkeys n; check "n finds the next" twait "demo-range Stable" 5
tkeys n; check "n wraps" twait "demo-coop Stable" 5
tkeys N; check "N the previous" twait "demo-range Stable" 5
tkeys Escape

tkeys p; check "p pauses" twait "PAUSED" 5
check "paused: no live clock, no interval" tgone "every 1s" 5
tkeys Left Left; check "left scrubs back" twait "PAUSED -10s" 5
tkeys Right; check "right scrubs forward" twait "PAUSED -5s" 5
tkeys p; check "p resumes" tgone "PAUSED" 5
tkeys 1 Left; check "left pauses by itself (less stops following)" twait "PAUSED -5s" 5
check "and says so: never HISTORY" tgone "HISTORY" 5
tkeys p; tgone "PAUSED" 5

# [ walks back through billing-events' three rebalances one by one, ] forward
walk_msg() { printf '%s\n' "$T_LAST" | grep -o 'rebalance of billing-events began -[^,]*' | head -1; }
walk_new() { m=$(walk_msg); [ -n "$m" ] && [ "$m" != "${1-}" ] && [ "$m" != "${2-}" ] && [ "$m" != "${3-}" ]; }
tkeys Home j; check "billing-events selected" twait "billing-events Stable" 5
tkeys p; twait "PAUSED" 5
tkeys '['; check "[ shows the last rebalance" tpoll 5 walk_new; w1=$(walk_msg)
tkeys '['; check "[ again: the one before ($w1 then)" tpoll 5 walk_new "$w1"; w2=$(walk_msg)
tkeys '['; check "[ again: the first ($w2 then)" tpoll 5 walk_new "$w1" "$w2"; w3=$(walk_msg)
tkeys '['; check "[ past the first: none earlier" twait "no earlier rebalance" 5
tkeys ']'; check "] walks forward again: $w2" twait "$w2" 5
tkeys p; check "p resumes live" tgone "PAUSED" 5
tkeys Home j j; twait "demo-coop Stable" 5

tmx resize-window -t t -x 79 -y 40 2>/dev/null || tmx resize-pane -t t -x 79 -y 40
check "79x40 (a half-split): the group list alone, no refusal" twait "Enter view" 5
check "79x40: not too small" tgone "too small" 5
tkeys Enter; check "Enter: the selected group's view alone" twait "Esc groups" 5
check "the view alone has no list" tgone "GROUP (7)" 5
tkeys Tab; check "Tab: the next view" twait "/column" 5
tkeys Escape; check "Esc: back to the groups" twait "GROUP (7)" 5
tmx resize-window -t t -x 40 -y 12 2>/dev/null
check "40x12: still a screen" twait "Enter view" 5
tmx resize-window -t t -x 39 -y 12 2>/dev/null
check "39x12: terminal too small" twait "terminal too small: 39x12" 5
tmx resize-window -t t -x 120 -y 40 2>/dev/null || tmx resize-pane -t t -x 120 -y 40
check "back to 120x40" twait "GROUP (7)" 5
tmx resize-window -t t -x 80 -y 24 2>/dev/null
check "80x24: the detail line keeps the protocol and the members" twait "demo-coop Stable cooperative  4 members" 5
check "80x24: the timeline keeps a note per member" twait "untouched" 5
tmx resize-window -t t -x 120 -y 40 2>/dev/null

tkeys T; check "T: next theme" twait "theme mono" 5
tkeys T; check "T: and the next" twait "theme high-contrast" 5
tkeys a; check "a: a demo command reaches the source" twait "driver: add-member demo-coop" 5
tkeys P; check "P: the demo pauses its script, the footer offers to resume" twait "P resume script" 5
tkeys P; check "P again: resumed" twait "P pause script" 5
tkeys A; check "A: the assignor of new members" twait "members added next use roundrobin" 5
tkeys a; check "a refused: the reason from its start" twait "demo-coop uses another assignor" 5
check "a refused: to its end, on a second line" twait "or use a real cluster)" 5
tkeys '?'; check "? opens the help" twait "kgtop keys" 5
tkeys z; check "another key leaves it open" twait "kgtop keys" 5
tkeys q; check "q closes it without quitting" tgone "kgtop keys" 5
tkeys F1; check "F1 opens the help" twait "kgtop keys" 5
tkeys Escape; check "Esc closes it" tgone "kgtop keys" 5
check "the alternate screen is on" test "$(tfmt '#{alternate_on}')" = 1
tkeys F10; check "F10 quits with status 0" twait "driver exited 0" 5
check "terminal restored: canonical mode, echo" twait "icanon echo" 5
check "terminal restored: main screen" test "$(tfmt '#{alternate_on}')" = 0
check "terminal restored: cursor visible" test "$(tfmt '#{cursor_flag}')" = 1

# the mouse (xterm's SGR reports): a click selects a group, a click on a tab shows that view, the wheel moves
# click BUTTON X Y: a press and (for buttons, not the wheel) its release, 1-based cells
click() {
	tkeys -l "$(printf '\033[<%d;%d;%dM' "$1" "$2" "$3")"
	[ "$1" -lt 64 ] && tkeys -l "$(printf '\033[<%d;%d;%dm' "$1" "$2" "$3")"
}
tab_col() { tmx capture-pane -p -t t | grep -m1 " $1 " | awk -v t=" $1 " '{ print index($0, t) + 1 }'; }
tstart 120 40 "TERM=xterm-256color $DRIVER --speed 4; $after"
if twait "weird" 10; then
	tkeys F6 g Enter Home 1 # by name: the rows below are the names' order
	click 0 5 6; check "mouse: a click selects demo-range" twait "demo-range Stable range (eager)" 5
	click 0 "$(tab_col "3 health")" 10; check "mouse: a click on a tab shows that view" twait "heartbeat" 5
	click 65 5 4; check "mouse: the wheel over the list moves the selection three groups" twait "日本 Stable range (eager)" 5
	tkeys q; twait "driver exited 0" 5
else
	not_ok "start for the mouse"
fi
tstart 120 40 "TERM=xterm-256color $DRIVER --speed 4 --no-mouse; $after"
if twait "weird" 10; then
	tkeys F6 g Enter g 1 # by name, the first selected (g: the top)
	click 0 5 6
	tkeys 3 # keys come in order: once the health view shows, the click has been read
	twait "heartbeats and poll gaps" 5
	check "--no-mouse: the mouse is the terminal's (a click selects nothing)" twait "audit-archiver Empty" 2
	tkeys q; twait "driver exited 0" 5
else
	not_ok "start with --no-mouse"
fi

# a demo without a script refuses P: the footer does not change
tstart 120 40 "$DRIVER --no-script; $after"
if twait "demo-coop" 5; then
	tkeys P; check "no script: P is refused" twait "scenario manual has no script" 5
	check "no script: the footer does not offer to pause it" sh -c "! tmux -L '$T_SOCK' -f /dev/null capture-pane -p -t t | grep -q 'pause script'"
	tkeys q; twait "driver exited" 5
else
	not_ok "start without a script"
fi

# --duration: the dashboard quits by itself, status 0, terminal restored
tstart 100 30 "$DRIVER --duration 1.5; $after"
check "--duration: quits by itself with status 0" twait "driver exited 0" 10
check "--duration: terminal restored" twait "icanon echo" 5
check "--duration: main screen" test "$(tfmt '#{alternate_on}')" = 0

# signals: SIGTERM and SIGHUP end cleanly, SIGSEGV dies of it but restores first
for sig in TERM HUP SEGV; do
	tstart 100 30 "sh -c 'echo \$\$ > /tmp/kgtop-test-$$.pid; exec $DRIVER'; $after"
	if twait " kgtop " 5; then
		kill -"$sig" "$(cat /tmp/kgtop-test-$$.pid)"
		case $sig in SEGV) want="driver exited 139" ;; TERM) want="driver exited 143" ;; HUP) want="driver exited 129" ;; esac
		check "SIG$sig ends it" twait "$want" 5
		check "SIG$sig: terminal restored" twait "icanon echo" 5
		check "SIG$sig: main screen" test "$(tfmt '#{alternate_on}')" = 0
	else
		not_ok "start for SIG$sig"
	fi
done
rm -f /tmp/kgtop-test-$$.pid

# not UTF-8: nothing outside ASCII reaches the screen
tstart 120 40 "LANG=C LC_ALL=C $DRIVER --speed 4; $after"
if twait "demo-coop" 5; then
	tkeys 2; twait "/column" 5
	twait "12.118s" 10
	if printf '%s' "$T_LAST" | LC_ALL=C grep -q '[^ -~]'; then not_ok "C locale: ASCII only"; else ok "C locale: ASCII only"; fi
	tkeys q
else
	not_ok "C locale start"
fi

# a terminal that cannot address the cursor is refused with a message, nothing drawn
tstart 100 30 "TERM=dumb $DRIVER 2>&1; $after"
check "TERM=dumb: refused with a reason" twait "cannot move the cursor" 5
check "TERM=dumb: exit status 1" twait "driver exited 1" 5

# TERM values
for term in xterm-256color screen tmux-256color vt100 linux; do
	if ! infocmp "$term" >/dev/null 2>&1; then ok "TERM=$term # SKIP no terminfo entry"; continue; fi
	tstart 100 30 "TERM=$term $DRIVER; $after"
	if twait "demo-coop" 5; then
		tkeys q
		check "TERM=$term: draws and quits" twait "driver exited 0" 5
	else
		not_ok "TERM=$term"
	fi
done
finish
