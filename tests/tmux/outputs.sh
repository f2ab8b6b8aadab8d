#!/bin/sh
# tests/tmux/outputs.sh: the dashboard keeps the one output rule (issue 25).
# The fixture broker serves groups whose ids, members' client ids, hosts and
# instance ids, and topics carry every unsafe class of character at four
# places (tests/cli/hostile.sh).  kgtop draws them in a tmux pane whose
# output is copied byte by byte (pipe-pane) and read by tests/tools/
# safebytes (terminal mode: curses' own sequences only, never a string
# sequence such as a title or the clipboard's OSC 52); tmux honours those
# sequences (set-clipboard on), and a control pane shows that it does: the
# pane's title changes and a buffer appears.  kgtop's panes must keep their
# title, leave no buffer, and show the plain part of every case drawn.
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
KGTOP="$top_builddir/kgtop"
BROKER="$top_builddir/tests/fixture-broker"
SAFE="$top_builddir/tests/tools/safebytes"
. "$top_srcdir/tests/tmux/lib.sh"
. "$top_srcdir/tests/cli/hostile.sh"
tenv
hostile_payloads "$work/payloads"
NPAY=$(wc -l <"$work/payloads")
hostile_dash_scenario "$work/payloads" "$work/dash.json"
"$BROKER" --port 0 --manual --scenario "$work/dash.json" >"$work/ready" 2>"$work/broker.err" &
bpid=$!
trap 'kill "$bpid" 2>/dev/null; wait "$bpid" 2>/dev/null; tcleanup; rm -rf "$work"' EXIT INT TERM
tpoll 10 grep -q '^ready ' "$work/ready" || { echo "not ok 1 - fixture broker ready"; cat "$work/broker.err"; exit 1; }
bootstrap=$(sed -n 's/^ready //p' "$work/ready")

tmx has-session -t keep >/dev/null 2>&1 || tmx new-session -d -s keep 'exec cat'
tmx set-option -g set-clipboard on
title() { tfmt '#{pane_title}'; }
buffers() { tmx list-buffers 2>/dev/null | wc -l | tr -d ' '; }

# the control: this tmux acts on a title and on OSC 52, so a kgtop that let one through would be seen
tstart 80 24 "printf '\\033]2;PWNED\\033\\\\\\033]52;c;UFdORUQ=\\007ready\\n'; exec cat"
check "control: a pane's printf draws" twait "ready" 5
check "control: tmux takes a title from OSC 2" tpoll 5 sh -c "[ \"\$(tmux -L $T_SOCK display-message -p -t t '#{pane_title}')\" = PWNED ]"
check "control: and a buffer from OSC 52" tpoll 5 sh -c "[ \"\$(tmux -L $T_SOCK list-buffers 2>/dev/null | wc -l)\" -ge 1 ]"
while tmx delete-buffer 2>/dev/null; do :; done

# shown FIELDS: every case of the fields shows on the screen (T_LAST)
shown() {
	printf '%s\n' "$T_LAST" >"$work/screen"
	missing=$(hostile_missing "$work/screen" "$1" "$NPAY")
	[ -z "$missing" ]
}

# run NAME FIELDS KEYS ARGS...: kgtop in a 220x130 pane copied to $work/NAME.raw; KEYS (a view, Enter)
# once the groups show; then every case of FIELDS must show, the bytes keep the rule, the title and
# the buffers stay, and q quits with the terminal restored
run() {
	name=$1 fields=$2 keys=$3
	shift 3
	tstart 220 130 "$KGTOP -b $bootstrap -i 0.5 $*; $T_AFTER"
	tmx pipe-pane -o -t t "cat >>'$work/$name.raw'"
	twait "kafka ok" 15 || echo "# $name: kafka not ok"
	[ -n "$keys" ] && tkeys $keys
	check "$name: every case drawn" tpoll 20 shown "$fields"
	[ -z "$missing" ] || echo "#   missing:$missing"
	tkeys q
	check "$name: q quits, the terminal restored" twait "kgtop exited 0" 10
	tmx pipe-pane -t t
	if "$SAFE" terminal "$work/$name.raw" >"$work/$name.safe"; then
		ok "$name: the bytes written to the terminal keep the rule ($(wc -c <"$work/$name.raw") bytes)"
	else
		T_LAST=$(cat "$work/$name.safe")
		not_ok "$name: the bytes written to the terminal keep the rule"
	fi
	check "$name: the pane's title is its own" test "$(title)" != PWNED
	check "$name: no buffer (nothing reached the clipboard)" test "$(buffers)" = 0
}

run list 0 "" -g "'v0c|^A$'"
run clients 1 "Enter" -g "'^zz-clients$'"
run hosts 2 "Enter m" -g "'^zz-hosts$'"
run instances 4 "Enter m" -g "'^zz-instances$'"
run topics 5 "5 Enter" -g "'^zz-topics$'"
finish
