#!/bin/sh
# tests/tmux/attach.sh: one collector, three viewers, one set of requests.
# The real kgtop's dashboard serves (--serve) the fixture broker's
# cluster in one tmux session; three kgtop --attach dashboards in three
# others.  A cooperative rebalance in two rounds is stepped through the
# fixture: all four screens show the same events, word for word (the same
# durations), and the viewers say whose stream they read.  The fixture's
# request log (--log) shows that the brokers saw one client: no connection
# accepted after the viewers started, every request of that time on the
# collector's own connections.  A flood of 2,000 connections on the
# server does not stop the collector's screen (its clock keeps moving).
# The viewers quit with q, status 0, the terminal restored.  A viewer of a
# server that never answers says that it waits, and q or Ctrl-C ends it at
# once.
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
KGTOP="$top_builddir/kgtop"
BROKER="$top_builddir/tests/fixture-broker"
HTTPLOAD="$top_builddir/tests/tools/httpload"
. "$top_srcdir/tests/tmux/lib.sh"
tenv
tbroker join-coop.json --log "$work/requests.log"
port=$("$HTTPLOAD" port)
url="http://127.0.0.1:$port"

# sessions by name: the collector "c", the viewers v1 v2 v3
sstart() { n=$1; shift; tmx kill-session -t "$n" >/dev/null 2>&1; tmx new-session -d -s "$n" -x 120 -y 40 "$*"; }
scap() { tmx capture-pane -p -t "$1" 2>/dev/null; }
# swait SESSION TEXT [SECONDS]: poll the session's screen until TEXT shows
swait() {
	deadline=$(($(date +%s%N) / 1000000 + ${3:-10} * 1000))
	while :; do
		T_LAST=$(scap "$1")
		case "$T_LAST" in *"$2"*) return 0 ;; esac
		[ "$(($(date +%s%N) / 1000000))" -ge "$deadline" ] && return 1
		sleep 0.05 # poll interval, bounded by the deadline above
	done
}
skeys() { n=$1; shift; tmx send-keys -t "$n" "$@"; }

tmx has-session -t keep >/dev/null 2>&1 || tmx new-session -d -s keep 'exec cat'
sstart c "$KGTOP -b $bootstrap -i 0.3 --serve 127.0.0.1:$port; $T_AFTER"
check "the collector's dashboard shows the group" swait c "g-coop" 15
check "and serves: the sources overlay lists serve" swait c "serve" 5
for v in v1 v2 v3; do
	sstart "$v" "$KGTOP --attach $url; $T_AFTER"
done
for v in v1 v2 v3; do
	check "$v: attached to 127.0.0.1:$port, N s behind" swait "$v" "attached to 127.0.0.1:$port, " 15
	check "$v: the group" swait "$v" "g-coop" 5
done
# from here on every broker request must come from the collector
mark=$(wc -l <"$work/requests.log")

step() { kill -USR1 "$bpid"; swait c "g-coop $1" 10 || echo "# step to $1 not seen"; }
step PreparingRebalance
step CompletingRebalance
step "Stable cooperative"
step PreparingRebalance
step CompletingRebalance
step "Stable cooperative"
for s in c v1 v2 v3; do
	skeys "$s" 4
	check "$s: round one, consumer-a revoked [3] of [0 3] (incremental)" swait "$s" "consumer-a revoked [3] of [0 3] (incremental)" 15
	check "$s: round two, consumer-d assigned [3]" swait "$s" "consumer-d assigned [3]" 10
	swait "$s" "rebalance ended after" 10
	printf '%s\n' "$T_LAST" | grep -o 'rebalance ended after [^;]*' | head -1 >"$work/ended.$s"
done
for v in v1 v2 v3; do
	if [ -s "$work/ended.c" ] && cmp -s "$work/ended.c" "$work/ended.$v"; then
		ok "$v shows the collector's episode to the millisecond: $(cat "$work/ended.c")"
	else
		T_LAST="collector: $(cat "$work/ended.c") / $v: $(cat "$work/ended.$v")"
		not_ok "$v shows the collector's episode to the millisecond"
	fi
done

# the brokers saw one client: no connection after the viewers came, every request on an older one
tail -n +"$((mark + 1))" "$work/requests.log" >"$work/after.log"
# lines: "SECONDS bBROKER cCONN accepted" and "SECONDS bBROKER cCONN API(KEY) vVERSION ..."
before_conns=$(head -n "$mark" "$work/requests.log" | awk '$4 == "accepted" { print $3 }' | sort -u)
new_conns=$(awk '$4 == "accepted"' "$work/after.log" | wc -l)
requests=$(awk '$4 ~ /\(/' "$work/after.log" | wc -l)
strangers=$(awk '$4 ~ /\(/ { print $3 }' "$work/after.log" | sort -u | while read -r c; do
	printf '%s\n' "$before_conns" | grep -qx "$c" || echo "$c"
done)
nconns=$(printf '%s\n' "$before_conns" | sed '/^$/d' | wc -l)
if [ "$new_conns" -eq 0 ] && [ -z "$strangers" ] && [ "$requests" -gt 0 ]; then
	ok "the brokers saw one collector: $requests requests while four screens watched, all on its $nconns connections, none accepted since"
else
	T_LAST="accepted since: $new_conns; requests from unknown connections: $strangers"
	not_ok "the brokers saw one collector"
fi
echo "# request log: $(wc -l <"$work/requests.log") lines, $nconns connections, all opened before the viewers attached"

# a flood of connections on the server: the collector's screen goes on (its clock moves)
"$HTTPLOAD" flood "127.0.0.1:$port" 2000 6 >"$work/flood.res" &
fpid=$!
clock0=$(scap c | head -1 | grep -oE '[0-9]{2}:[0-9]{2}:[0-9]{2}' | tail -1)
moved() { c1=$(scap c | head -1 | grep -oE '[0-9]{2}:[0-9]{2}:[0-9]{2}' | tail -1); [ -n "$c1" ] && [ "$c1" != "$clock0" ]; }
deadline=$(($(date +%s) + 4))
mv=1
while [ "$(date +%s)" -le "$deadline" ]; do
	if moved; then mv=0; break; fi
	sleep 0.05 # poll interval, bounded by the deadline above
done
if [ "$mv" -eq 0 ]; then ok "during a flood of 2,000 connections the collector's screen goes on ($clock0 -> $c1)"; else T_LAST=$(scap c); not_ok "during a flood the collector's screen goes on"; fi
wait "$fpid"
echo "# flood: $(cat "$work/flood.res")"

for v in v1 v2 v3; do
	skeys "$v" q
	check "$v: q quits with status 0" swait "$v" "kgtop exited 0" 5
	check "$v: terminal restored" swait "$v" "icanon echo" 5
done
skeys c q
check "the collector: q quits with status 0" swait c "kgtop exited 0" 5

# a server that accepts and never answers (issue 25): the screen says the viewer waits, and q, or Ctrl-C,
# ends it at once (it waited for --timeout on a blank screen before), the terminal restored
mkdir -p "$work/www"
"$top_builddir/tests/http-serve" "$work/www" >"$work/silent.out" 2>&1 &
spid=$!
trap 'kill "$bpid" "$spid" 2>/dev/null; wait "$bpid" "$spid" 2>/dev/null; tcleanup; rm -rf "$work"' EXIT INT TERM
tpoll 10 grep -q '^ready ' "$work/silent.out"
silent="http://127.0.0.1:$(awk '/^ready /{print $2}' "$work/silent.out")/silent"
for key in q C-c; do
	sstart s "$KGTOP --attach $silent --timeout 60; $T_AFTER"
	check "a silent server ($key): the screen says the viewer waits and how to stop" swait s "waiting for the stream of $silent" 10
	t0=$(date +%s%N)
	skeys s "$key"
	want=$([ "$key" = q ] && echo 0 || echo 130)
	check "a silent server: $key ends the wait with status $want" swait s "kgtop exited $want" 5
	ms=$((($(date +%s%N) - t0) / 1000000))
	echo "# $key took $ms ms (the screen polled every 50 ms; --timeout was 60 s)"
	check "a silent server ($key): terminal restored" swait s "icanon echo" 5
done
finish
