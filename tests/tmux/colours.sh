#!/bin/sh
# tests/tmux/colours.sh: the colour of each role, as the terminal shows it
# (tmux capture-pane -e, read by tests/tools/sgr), on every kind of
# terminal a bastion host gives: TERM=xterm-256color, xterm-16color, xterm,
# screen, linux (8 colours), vt100 (none) and NO_COLOR.  The dashboard is
# the real one (tests/tmux/ui_driver, the seeds' scene) on demo-coop's
# timeline; each role is found by a text it draws: secondary text
# ("250ms/column", "episodes", a member's note), the time axis, a Stable
# state, the lanes' member letters, a partly stopped and a stopped lane, an
# episode's mark, the header.  On 8 colours grey is never the warning's
# yellow, the axis never black on the background, Stable green, and the
# first members' colours differ.
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
DRIVER="$top_builddir/tests/tmux/ui_driver"
SGR="$top_builddir/tests/tools/sgr"
. "$top_srcdir/tests/tmux/lib.sh"
command -v tmux >/dev/null || { echo "1..0 # SKIP tmux not installed"; exit 77; }
export KGTOP_THEMES="$top_srcdir/themes" LANG=C.UTF-8 LC_ALL=C.UTF-8 HOME=/nonexistent
unset NO_COLOR

# role TEXT [N]: the attributes at the Nth TEXT of the screen (T_LAST holds the screen's text)
role() { tmx capture-pane -e -p -t t | "$SGR" "$@"; }

# expect TERM DESCRIPTION TEXT N WANT: the role at TEXT is exactly WANT
expect() {
	got=$(role "$3" "$4")
	if [ "$got" = "$5" ]; then
		ok "$1: $2 is $5"
	else
		not_ok "$1: $2 is $5 (got: ${got:-not on the screen})"
	fi
}

# differ TERM DESCRIPTION TEXT1 N1 TEXT2 N2: two roles look different
differ() {
	a=$(role "$3" "$4")
	b=$(role "$5" "$6")
	if [ -n "$a" ] && [ "$a" != "$b" ]; then
		ok "$1: $2 ($a / $b)"
	else
		not_ok "$1: $2 (both: $a)"
	fi
}

# start TERM [NO_COLOR]: the dashboard on demo-coop's timeline, once its first rebalance is told
start() {
	tstart 120 40 "TERM=$1 ${2:+NO_COLOR=1} $DRIVER --speed 4"
	twait "weird" 10 || return 1
	tkeys / d e m o - c o Enter Escape 2 # demo-coop, found (the list is worst first)
	twait "got [4] in round 2" 15 && twait "demo-coop Stable cooperative" 5
}

for term in xterm-256color xterm-16color xterm screen linux vt100 NO_COLOR; do
	t=$term
	[ "$term" = NO_COLOR ] && t=xterm-256color
	if ! infocmp "$t" >/dev/null 2>&1; then
		# every TERM is part of the promise: a missing entry (apt-get install ncurses-term) fails
		not_ok "TERM=$t: no terminfo entry (install ncurses-term)"
		continue
	fi
	nc=""
	[ "$term" = NO_COLOR ] && nc=1
	if ! start "$t" $nc; then
		not_ok "$term: the dashboard on demo-coop's timeline"
		tkeys q
		continue
	fi
	case $term in
	xterm-256color)
		expect $term "secondary text (the scale)" "ms/column" 1 "fg=244 bg=default"
		expect $term "the time axis" "┈" 1 "fg=240 bg=default"
		expect $term "Stable" "Stable" 1 "fg=114 bg=default"
		expect $term "member A" "A consumer-a" 1 "fg=214 bg=default bold"
		expect $term "member B" "B consumer-b" 1 "fg=74 bg=default bold"
		expect $term "member C" "C consumer-c" 1 "fg=35 bg=default bold"
		expect $term "partly stopped (a warning)" "▒" 1 "fg=221 bg=default"
		expect $term "stopped (an error)" "░" 1 "fg=210 bg=default"
		;;
	xterm-16color)
		expect $term "secondary text (the scale)" "ms/column" 1 "fg=8 bg=default"
		expect $term "the time axis" "┈" 1 "fg=8 bg=default"
		expect $term "Stable" "Stable" 1 "fg=10 bg=default"
		expect $term "member A" "A consumer-a" 1 "fg=14 bg=default"
		expect $term "member B" "B consumer-b" 1 "fg=13 bg=default"
		expect $term "member C" "C consumer-c" 1 "fg=10 bg=default"
		expect $term "partly stopped (a warning)" "▒" 1 "fg=11 bg=default"
		expect $term "stopped (an error)" "░" 1 "fg=9 bg=default"
		;;
	xterm | screen | linux)
		# 8 colours: grey is dim, never the warning's yellow (3) nor black (0)
		expect $term "secondary text (the scale)" "ms/column" 1 "fg=default bg=default dim"
		expect $term "an episode's note" "untouched" 1 "fg=default bg=default dim"
		expect $term "the episodes label" "episodes" 1 "fg=default bg=default dim"
		expect $term "the time axis (not black on black)" "┈" 1 "fg=default bg=default dim"
		expect $term "Stable (green, not white)" "Stable" 1 "fg=2 bg=default"
		expect $term "member A" "A consumer-a" 1 "fg=6 bg=default"
		expect $term "member B" "B consumer-b" 1 "fg=5 bg=default"
		expect $term "member C" "C consumer-c" 1 "fg=2 bg=default"
		expect $term "partly stopped (the warning's yellow)" "▒" 1 "fg=3 bg=default"
		expect $term "stopped (the error's red)" "░" 1 "fg=1 bg=default"
		expect $term "the header" " kgtop " 1 "fg=7 bg=4 bold"
		;;
	vt100)
		# no colour at all: attributes only, and what the terminal lacks (dim) is plain
		expect $term "member A (bold)" "A consumer-a" 1 "fg=default bg=default bold"
		expect $term "member B (plain)" "B consumer-b" 1 "fg=default bg=default"
		expect $term "the header (reverse)" " kgtop " 1 "fg=default bg=default bold reverse"
		expect $term "Stable" "Stable" 1 "fg=default bg=default"
		;;
	NO_COLOR)
		expect $term "secondary text (dim)" "ms/column" 1 "fg=default bg=default dim"
		expect $term "member A (bold)" "A consumer-a" 1 "fg=default bg=default bold"
		expect $term "member B (plain)" "B consumer-b" 1 "fg=default bg=default"
		expect $term "the header (reverse)" " kgtop " 1 "fg=default bg=default bold reverse"
		expect $term "Stable" "Stable" 1 "fg=default bg=default"
		;;
	esac
	case $term in
	vt100 | NO_COLOR) ;;
	*)
		differ $term "secondary text is not the warning's colour" "ms/column" 1 "▒" 1
		differ $term "members A and B differ" "A consumer-a" 1 "B consumer-b" 1
		differ $term "members B and C differ" "B consumer-b" 1 "C consumer-c" 1
		;;
	esac
	tkeys q
done
finish
