#!/bin/sh
# flood.sh: a trace source floods one group with new members (issue 25,
# item 3: 5,000 new members joining a 20,000-member group made `q` take
# 4.1-10.6 s).  Prints the CPU kgtop --once spends folding 20,000 + 5,000
# members told by a JSON-lines trace, and how long after `q` the dashboard
# ends while the 5,000 arrive.  Figures, not assertions.   make bench-flood
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
KGTOP="$top_builddir/kgtop"
export KGTOP_CONFIG=none HOME=/nonexistent KGTOP_THEMES="$top_srcdir/themes" LANG=C.UTF-8 LC_ALL=C.UTF-8
dir=$(mktemp -d /tmp/kgtop-flood.XXXXXX) || exit 1
trap 'rm -rf "$dir"' EXIT
ms() { echo $(( $(date +%s%N) / 1000000 )); }
# members FROM TO START: an assignment told for each new member (one partition each)
members() {
	awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { for (i = a; i < b; i++)
		printf "{\"v\":1,\"ts\":%d,\"kind\":\"assigned\",\"group\":\"big\",\"member\":\"m-%d\",\"client\":\"c-%d\",\"protocol\":\"cooperative\",\"partitions\":{\"t\":[%d]}}\n", t + i * 100, i, i, i }'
}
members 0 20000 1795959900000000 >"$dir/first.jsonl"
members 20000 25000 1795959990000000 >"$dir/more.jsonl"
cat "$dir/first.jsonl" "$dir/more.jsonl" >"$dir/all.jsonl"
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
echo "kgtop --once --trace jsonl (25,000 members joining one group): CPU"
for i in 1 2 3; do
	/usr/bin/env time -f '%U %S' "$KGTOP" --trace "jsonl:file://$dir/all.jsonl" --trace-from-start --once \
		>/dev/null 2>"$dir/time" || true
	tail -1 "$dir/time" | awk '{ printf "%d\n", ($1 + $2) * 1000 }'
done | median | awk '{ printf "   median of 3: %d ms of CPU\n", $1 }'
command -v tmux >/dev/null || { echo "tmux missing: no quit figures"; exit 0; }
echo "dashboard: q while 5,000 new members arrive in a 20,000-member group (target: well under 1 s)"
sock="kgtop-flood-$$"
for i in 1 2 3 4 5; do
	cp "$dir/first.jsonl" "$dir/live.jsonl"
	rm -f "$dir/end"
	tmux -L "$sock" -f /dev/null new-session -d -x 120 -y 40 \
		"$KGTOP --trace jsonl:file://$dir/live.jsonl --trace-from-start; date +%s%N > $dir/end"
	n=0
	until tmux -L "$sock" capture-pane -p 2>/dev/null | grep -q 'big'; do
		n=$((n + 1)); [ "$n" -gt 600 ] && { echo "   the group never showed"; break; }
		sleep 0.05 # poll interval
	done
	cat "$dir/more.jsonl" >>"$dir/live.jsonl"
	sleep 0.2 # let the collector start folding the 5,000
	t0=$(ms); tmux -L "$sock" send-keys q
	n=0
	until [ -s "$dir/end" ]; do n=$((n + 1)); [ "$n" -gt 600 ] && break; sleep 0.02; done # poll interval
	[ -s "$dir/end" ] && echo $(( $(cat "$dir/end") / 1000000 - t0 ))
	tmux -L "$sock" kill-server 2>/dev/null
done | tee "$dir/quits" | awk '{ printf "   q to exit: %d ms\n", $1 }'
median <"$dir/quits" | awk '{ printf "   median of 5: %d ms\n", $1 }'
