#!/bin/sh
# demo_story.sh: does the default demo tell the same story every run (issue
# 26 point 8)?  Runs `kgtop --demo --json --duration D` RUNS times (PAR at
# once) and reports, per group the demo has, from kgtop's own events: the
# rounds and seconds of the join (the fourth member, consumer-d), the
# rounds of every rebalance of the run, the late SyncGroups the mock
# cluster refused (as the demo said on screen), storms and
# members called silent for overdue commits.  Figures, not assertions.
#   make bench-demo                       (20 runs, 4 at once, 80 s each)
#   RUNS=5 PAR=2 DURATION=80 tests/bench/demo_story.sh
#   KEEP=FILE saves the runs' events (tab-separated), EVENTS=FILE analyses them again
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
: "${RUNS:=20}" "${PAR:=4}" "${DURATION:=80}"
: "${KGTOP:=$top_builddir/kgtop}"
JSONQ="$top_builddir/tests/tools/jsonq"
export KGTOP_CONFIG=none HOME=/nonexistent KGTOP_THEMES="$top_srcdir/themes" LANG=C.UTF-8 LC_ALL=C.UTF-8
for f in "$KGTOP" "$JSONQ"; do
	[ -x "$f" ] || { echo "demo_story.sh: $f is not built (make kgtop tests/tools/jsonq)" >&2; exit 1; }
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kgtop-demo-story.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT INT TERM
if [ -n "$EVENTS" ]; then # analyse the events of earlier runs (KEEP=FILE saved them)
	cp "$EVENTS" "$tmp/events.tsv" || exit 1
	RUNS=$(cut -f1 "$tmp/events.tsv" | sort -n | tail -1)
	echo "$EVENTS: $RUNS runs"
else
	echo "kgtop --demo --json --duration $DURATION, $RUNS runs ($PAR at once), load $(cut -d' ' -f1 /proc/loadavg 2>/dev/null)"
	i=1
	while [ "$i" -le "$RUNS" ]; do
		j=0
		while [ "$j" -lt "$PAR" ] && [ "$i" -le "$RUNS" ]; do
			"$KGTOP" --demo --json --duration "$DURATION" >"$tmp/run$i.json" 2>"$tmp/run$i.err" &
			i=$((i + 1)) j=$((j + 1))
		done
		wait
	done
	# One line per event of each run, deduplicated by seq: run, kind, group, round, duration_ms, verdict, text.
	i=1
	while [ "$i" -le "$RUNS" ]; do
		"$JSONQ" -l '.events[]' <"$tmp/run$i.json" | awk -v run="$i" '
		function field(s, k,    m) {
			if (match(s, "\"" k "\":(\"([^\"\\\\]|\\\\.)*\"|[^,}]*)")) {
				m = substr(s, RSTART + length(k) + 3, RLENGTH - length(k) - 3)
				gsub(/^"|"$/, "", m)
				return m
			}
			return ""
		}
		{
			seq = field($0, "seq")
			if (seq in seen) next
			seen[seq] = 1
			printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", run, field($0, "kind"), field($0, "group"), field($0, "round"),
			       field($0, "duration_ms"), field($0, "verdict"), field($0, "text")
		}'
		# the demo's health line: a fresh "the mock cluster refused" note (its age went down)
		"$JSONQ" -l '.source.demo.message' <"$tmp/run$i.json" | awk -v run="$i" '
		match($0, /[^ ;]+: the mock cluster refused /) {
			g = substr($0, RSTART, RLENGTH - 27)
			age = $0; sub(/.*which can add a round \(/, "", age); age += 0
			if (!(g in prev) || age < prev[g]) printf "%s\tmock_note\t%s\t\t\t\t\n", run, g
			prev[g] = age
		}'
		i=$((i + 1))
	done >"$tmp/events.tsv"
fi
awk -F'\t' -v runs="$RUNS" '
function median(a, n,    i, j, t) {
	for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j-1] > a[j]; j--) { t = a[j]; a[j] = a[j-1]; a[j-1] = t }
	return n == 0 ? 0 : (n % 2 ? a[(n+1)/2] : (a[n/2] + a[n/2+1]) / 2)
}
{
	g = $3
	if (g == "" || g == "null") next
	if (!(g in known)) { known[g] = 1; order[++ng] = g }
	if ($2 == "rebalance_end") {
		eps[g]++; rounds[g] += $4
		if ($7 ~ /^joined: consumer-d;/ && !((g SUBSEP $1) in joined)) {
			joined[g, $1] = 1; nj[g]++
			jr[g, $4]++; js[g, nj[g]] = $5 / 1000
			if ($5 / 1000 < jmin[g] || nj[g] == 1) jmin[g] = $5 / 1000
			if ($5 / 1000 > jmax[g]) jmax[g] = $5 / 1000
		}
	}
	if ($2 == "storm_begin") { storms[g]++; stormrun[g, $1] = 1 }
	if ($2 == "member_silent" && $7 ~ /^commits overdue/) overdue[g]++
	if ($2 == "mock_note") extra[g]++
}
END {
	for (k = 1; k <= ng; k++) {
		g = order[k]
		printf "%s\n", g
		printf "   join (consumer-d): %d of %d runs;", nj[g], runs
		for (r = 1; r <= 6; r++) if (jr[g, r]) printf " %d round%s x%d", r, (r > 1 ? "s" : ""), jr[g, r]
		n = 0
		for (r = 1; r <= nj[g]; r++) s[++n] = js[g, r]
		printf "; %.1f-%.1f s, median %.1f s\n", jmin[g], jmax[g], median(s, n)
		nstorm = 0
		for (r = 1; r <= runs; r++) if ((g SUBSEP r) in stormrun) nstorm++
		printf "   rebalances: %d, rounds %d (%.2f a rebalance); late SyncGroups the mock refused (said on screen): %d\n",
		       eps[g], rounds[g], eps[g] ? rounds[g] / eps[g] : 0, extra[g]
		printf "   storms begun: %d (in %d of %d runs); members called silent for overdue commits: %d\n",
		       storms[g], nstorm, runs, overdue[g]
	}
}' "$tmp/events.tsv"
if [ -n "$KEEP" ]; then cp "$tmp/events.tsv" "$KEEP" && echo "events: $KEEP"; fi
