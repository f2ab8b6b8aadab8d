#!/bin/sh
# tests/tmux/oncall.sh: ten seconds to the answer (issue 26), the real kgtop
# in tmux against the fixture broker: the list starts worst first (the
# group that LOST records on top) and F6 opens htop's sort menu; the
# header keeps the cluster's address and its health first at 80 and 40
# columns, paused too; the events view has wall-clock times on a cluster
# (w: relative); g and G go to the list's top and bottom; and a viewer
# (--attach) whose collector died says how old its data is, as a stale
# cluster does.
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
KGTOP="$top_builddir/kgtop"
BROKER="$top_builddir/tests/fixture-broker"
HTTPLOAD="$top_builddir/tests/tools/httpload"
. "$top_srcdir/tests/tmux/lib.sh"
command -v tmux >/dev/null || { echo "1..0 # SKIP tmux not installed"; exit 77; }
[ -x "$BROKER" ] || { echo "1..0 # SKIP no fixture broker"; exit 77; }
export KGTOP_THEMES="$top_srcdir/themes" LANG=C.UTF-8 LC_ALL=C.UTF-8 HOME=/nonexistent KGTOP_CONFIG=none TZ=UTC
unset NO_COLOR KGTOP_BROKERS
work=$(mktemp -d /tmp/kgtop-tmux-XXXXXX)
tbroker stable.json

# The first group row of the list (the line under the column titles).
first_row() { printf '%s\n' "$T_LAST" | awk '/GROUP \(/ { getline; print; exit }'; }
first_is() { first_row | grep -q "$1"; }
# The header (the first line).
header_has() { printf '%s\n' "$T_LAST" | head -1 | grep -qF -- "$1"; }

tstart 80 24 "$KGTOP -b $bootstrap -i 0.5; $T_AFTER"
check "the groups" twait "g-range" 15
check "worst first: the group that LOST records is the first row" tpoll 20 first_is "g-idle .*LOST"
check "the sort mark is on VERDICT" twait "▾VERDICT" 5
tkeys F6; check "F6: the sort menu, as htop's" twait "sort by  (Enter chooses" 5
tkeys k k Enter; check "up and Enter: sorted by lag" twait "sorted by lag" 5
check "the menu closed" tgone "sort by  (Enter" 5
tkeys S; check "S reverses it" twait "sorted by lag, reversed" 5
tkeys S F6 j j Enter; check "back to worst first" tgone "sorted by" 5
# the events view: clock times, as logs and alerts have them; w: since kgtop's start
clock_times() { printf '%s\n' "$T_LAST" | grep -qE '^ \[[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3}\] '; }
relative_times() { printf '%s\n' "$T_LAST" | grep -qE '^ \[[0-9]+\.[0-9]{3}s\] '; }
tkeys 4; check "events: clock times on a cluster" tpoll 10 clock_times
check "events: the footer offers relative times" twait "w relative" 5
tkeys w; check "w: times since kgtop's start" tpoll 5 relative_times
tkeys w 1
# g and G: the first and the last group, as in less and k9s; the grid's letter is o now, said in the footer
rows_list() { printf '%s\n' "$T_LAST" | awk '/GROUP \(/ { on = 1; next } / 1 grid / { on = 0 } on && NF > 1 { print }'; }
sel_is_last() { rows_list | tail -n 1 | grep -q '^▶'; }
sel_is_first() { rows_list | head -n 1 | grep -q '^▶'; }
tkeys G; check "G: the last group" tpoll 5 sel_is_last
tkeys g; check "g: the first group" tpoll 5 sel_is_first
check "g says once where the grid went" twait "the grid view is o" 5
tkeys t; check "t: the timeline" twait "/column" 5
tmx resize-window -t t -x 160 -y 40
check "the footer says o shows the grid" twait "o grid" 5
tkeys o; check "o: the grid" twait "member" 5
check "the grid shown, the footer no longer offers it" tgone "o grid" 5
tmx resize-window -t t -x 80 -y 24
# the header: the whole address and its health at 80 columns (it was cut to 20 there)
check "80x24: the cluster's whole address, then kafka ok" tpoll 5 header_has "kgtop $bootstrap  kafka ok"
tmx resize-window -t t -x 40 -y 12
tkeys p
check "40x12, paused: the cluster's health stays" tpoll 5 header_has "kafka ok"
check "40x12, paused: and the pause shows" tpoll 5 header_has "PAUSED"
tkeys p
tmx resize-window -t t -x 80 -y 24
tkeys q; check "q quits" twait "kgtop exited 0" 5

# the demo at 80x24: the compare form shows two groups' lanes and the cost line of every group the
# demo runs (it showed one group; with three, COMPARE_GROUPS 3 cut every group's lanes): three groups,
# or two where --demo=list says this build runs without the consumer-protocol one (librdkafka < 2.12)
ngroups=3
"$KGTOP" --demo=list | grep -q "here without kgtop-demo-consumer" && ngroups=2
# compare_shows N: N groups' lanes drawn (a title under the first), the cost line names the protocols of all
compare_shows() {
	cost=$(printf '%s\n' "$T_LAST" | grep -E '(partition-s|no rebalance seen yet).* \| ' | head -1)
	[ "$(printf '%s\n' "$T_LAST" | grep -cE '^  kgtop-demo-(eager|coop|consumer) Stable')" -ge $(($1 - 1)) ] &&
		[ "$(printf '%s\n' "$T_LAST" | grep -cE '^ [A-D] consumer-[a-d] ')" -ge $((3 * $1)) ] &&
		[ "$(printf '%s\n' "$cost" | grep -o ' | ' | wc -l)" -eq $((ngroups - 1)) ] &&
		printf '%s\n' "$cost" | grep -q 'eager' && printf '%s\n' "$cost" | grep -q 'cooperative' &&
		{ [ "$ngroups" -eq 2 ] || printf '%s\n' "$cost" | grep -q ' consumer'; }
}
tstart 80 24 "$KGTOP; $T_AFTER"
check "demo at 80x24: two groups' lanes, the cost line of all $ngroups" tpoll 60 compare_shows 2
# wide: the compare form takes the whole width, the list above it (no list beside it)
tmx resize-window -t t -x 160 -y 45
full_width() { printf '%s\n' "$T_LAST" | grep -q '^ 1 ' && ! printf '%s\n' "$T_LAST" | grep -q '│'; }
check "demo at 160x45: the compare form is as wide as the screen" tpoll 10 full_width
check "demo at 160x45: all $ngroups groups' lanes, the cost line" tpoll 10 compare_shows "$ngroups"
tkeys q; check "the demo quits" twait "kgtop exited 0" 10

# a viewer whose collector dies: its data ages in the header and the list, as a stale cluster's does
port=$("$HTTPLOAD" port)
tmx new-session -d -s c -x 120 -y 30 "$KGTOP -b $bootstrap -i 0.5 --serve 127.0.0.1:$port"
# the viewer once the collector serves (it failed to connect when started first)
end=$(($(date +%s) + 20))
until "$HTTPLOAD" get "127.0.0.1:$port" /metrics >/dev/null 2>&1 || [ "$(date +%s)" -gt "$end" ]; do
	sleep 0.1 # poll until the deadline
done
tstart 120 30 "$KGTOP --attach http://127.0.0.1:$port; $T_AFTER"
check "the viewer reads the stream" twait "attached to 127.0.0.1:$port" 20
check "the viewer: kafka ok" twait "kafka ok" 10
tmx kill-session -t c
check "collector gone: the viewer calls the cluster's data stale" twait "kafka stale" 15
check "and the list says how old it is" twait "as of " 5
stale_age() { printf '%s\n' "$T_LAST" | head -1 | grep -oE 'kafka stale [0-9]+s' | grep -oE '[0-9]+'; }
old_rows() { printf '%s\n' "$T_LAST" | grep -qE 'g-range .* [0-9]+s old'; }
check "the rows say their age" tpoll 10 old_rows
has_age() { a1=$(stale_age); [ -n "$a1" ]; }
check "the header says for how long (kafka stale Ns)" tpoll 5 has_age
grows() { a2=$(stale_age); [ -n "$a2" ] && [ -n "$a1" ] && [ "$a2" -gt "$a1" ]; }
check "the age grows (${a1}s, then more)" tpoll 5 grows
tkeys q; check "the viewer quits" twait "kgtop exited 0" 5
finish
