#!/bin/sh
# progress_requests.sh (make bench-progress): the broker requests progress adds per refresh, against the
# fixture broker, from kgtop's own debug log ("about N requests (L log-start, R records read)"):
#  - at 2,000 groups / 20,000 partitions (progress-20k.json), --json (no group selected): the log-start
#    query is one ListOffsets per leader and chunk of 500 partitions, like the log-end query; no record read;
#  - the same under --once: one refresh reads the record at each lagging committed offset (at most 1,000);
#  - progress.json under --check --duration (every group judged, as the selected group is in the
#    dashboard): the first refresh reads every lagging partition, the next ones only those whose
#    committed offset moved (g-stall's worker-1: 2 of 4).
# Figures only: it never fails on them.
: "${top_srcdir:=.}"
: "${top_builddir:=.}"
KGTOP="$top_builddir/kgtop"
FIXTURE="$top_builddir/tests/fixture-broker"
TMP=$(mktemp -d /tmp/kgtop-bench-progress-XXXXXX)
FPID=""
trap '[ -n "$FPID" ] && kill "$FPID" 2>/dev/null; rm -rf "$TMP"' EXIT

start() {
	rm -f "$TMP/ready"
	"$FIXTURE" --port 0 --scenario "$top_srcdir/tests/fixture/scenarios/$1" --stats "$TMP/stats.json" >"$TMP/ready" 2>"$TMP/fx.err" &
	FPID=$!
	i=0
	while [ $i -lt 400 ]; do
		B=$(awk '/^ready /{print $2}' "$TMP/ready" 2>/dev/null)
		[ -n "$B" ] && return 0
		sleep 0.05 # poll the ready line (20 s at most)
		i=$((i + 1))
	done
	echo "fixture broker did not start: $(cat "$TMP/fx.err")"
	exit 1
}
stop() { kill "$FPID" 2>/dev/null; wait "$FPID" 2>/dev/null; FPID=""; }
# refreshes LOG: one line per refresh: requests, log-start calls, records read, milliseconds, of them the offsets and reads
refreshes() {
	sed -n 's/.*kafka: refresh of .*about \([0-9]*\) requests (\([0-9]*\) log-start, \([0-9]*\) records read) in \([0-9.]*\) ms.*log-start and reads \([0-9.]*\)).*/\1 \2 \3 \4 \5/p' "$1"
}

echo "broker requests of progress, per refresh (fixture broker, 3 brokers):"
start progress-20k.json
"$KGTOP" -b "$B" --json -i 2 --duration 9 --timeout 30 -vv --log "$TMP/json.log" >/dev/null 2>&1
refreshes "$TMP/json.log" | awk '
	NR == 1 { next } # the first refresh asks every group: the others keep to the budget
	{ n++; req += $1; ls += $2; rd += $3; off += $5 }
	END { if (n) printf "  2,000 groups / 20,000 partitions, --json (no group selected), %d refreshes: %.0f requests each, of them %.0f log-start (ListOffsets, one per leader and chunk of 500: 3 leaders x ceil(6,667 / 500) = 42), %.0f records read; log-end and log-start %.0f ms\n", n, req / n, ls / n, rd / n, off / n }'
"$KGTOP" -b "$B" --once --timeout 60 -vv --log "$TMP/once.log" >/dev/null 2>&1
refreshes "$TMP/once.log" | awk '{ printf "  the same, --once: %d requests, %d log-start, %d records read (the lagging committed offsets, at most 1,000); the refresh %.0f ms, of it log-end, log-start and reads %.0f ms\n", $1, $2, $3, $4, $5 }'
stop
start progress.json
"$KGTOP" -b "$B" -g '^g-stall$' --check -i 1 --lag-window 10 --duration 6 -vv --log "$TMP/check.log" >/dev/null 2>&1
refreshes "$TMP/check.log" | awk '
	{ printf "%s%d", NR == 1 ? "  progress.json, g-stall (4 lagging partitions, 2 committing), --check: records read per refresh: " : ", ", $3; ms = ms (NR == 1 ? "" : ", ") $4 }
	END { print " (the first refresh reads all four, then only the two whose committed offset moved); refreshes of " ms " ms" }'
stop
