#!/bin/sh
# duration.sh: how long after --duration kgtop ends (issue 12: within half a
# second), for the embedded demo (its mock cluster and consumers stop too)
# and for the dashboard in a pseudo-terminal (tmux).  Figures, not
# assertions.   make bench-duration
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
KGTOP="$top_builddir/kgtop"
export KGTOP_CONFIG=none HOME=/nonexistent KGTOP_THEMES="$top_srcdir/themes" LANG=C.UTF-8 LC_ALL=C.UTF-8
ms() { echo $(( $(date +%s%N) / 1000000 )); }
echo "kgtop --duration: time past the duration until the process ended (target <= 500 ms)"
worst=0
for d in 2 3 4 5 6 7; do
	t0=$(ms); "$KGTOP" --demo --json --duration "$d" >/dev/null 2>&1; t1=$(ms)
	over=$(( t1 - t0 - d * 1000 )); [ "$over" -gt "$worst" ] && worst=$over
	printf '   --demo --json --duration %s   %5d ms over\n' "$d" "$over"
done
if command -v tmux >/dev/null; then
	sock="kgtop-bench-$$"
	for d in 3 5; do
		rm -f "/tmp/$sock.end"
		t0=$(ms)
		tmux -L "$sock" -f /dev/null new-session -d -x 120 -y 40 "$KGTOP --duration $d; date +%s%N > /tmp/$sock.end"
		until [ -s "/tmp/$sock.end" ]; do sleep 0.05; done # poll interval
		t1=$(( $(cat "/tmp/$sock.end") / 1000000 ))
		over=$(( t1 - t0 - d * 1000 )); [ "$over" -gt "$worst" ] && worst=$over
		printf '   dashboard --duration %s (demo)  %5d ms over (tmux start included)\n' "$d" "$over"
		tmux -L "$sock" kill-server 2>/dev/null
	done
	rm -f "/tmp/$sock.end"
fi
echo "   worst: $worst ms ($(awk "BEGIN{printf \"%.2f\", $worst/500}") of the target)"
