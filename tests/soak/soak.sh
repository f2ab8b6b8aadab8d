#!/bin/sh
# make soak [SOAK_TIME=seconds]: kgtop for a long time under steady load,
# sampling what it holds.  Not part of make check.
#
# Two kgtop processes run side by side for the duration (default 600 s):
#   demo:    the embedded demo (mock cluster, real consumers rebalancing)
#            with a jsonl trace flood: a writer appends lines naming members
#            from a pool much larger than a group (new ids keep coming until
#            the pool wraps), and truncates the file when it passes 64 MB;
#            the run records to a file rotated at 1 MB; --history 2m, so
#            what kgtop keeps must expire within the run;
#   cluster: -b on the fixture broker, whose scenario moves a step every
#            5 s (groups rebalancing, lag growing and shrinking, members
#            coming and going), 120 steps that the broker loops through;
#   serve:   --serve on a second fixture broker's 2,000 groups over 20,000
#            partitions (tests/fixture/scenarios/big.json) with
#            --history SOAK_SERVE_HISTORY (default a third of the run, at
#            least a minute), /metrics scraped at every sample and one
#            /stream viewer reading all along.  What it holds grows while
#            its history window fills and must stop there: each group keeps
#            600 lag points per window (one every window/600), 16 bytes
#            each, in a vector that doubles, so at most groups x 1,024 x
#            16 bytes (31 MiB at 2,000 groups, whatever --history), full
#            once a window has passed; the script prints that bound and
#            the growth it measured after the window.
# Every 10 s the script samples each process's resident memory, CPU time
# and open descriptors into soak.tsv and prints the row.  After a warm-up
# (a fifth of the run, at least 60 s) it fails when a process grew: its
# resident memory in the last quarter of the run above its highest in the
# first quarter after warm-up by more than 20% and 8 MB, its CPU share
# by more than half and 10 points, or its descriptors by more than 4.
# The verdict and a summary per process are the last lines.
set -u
srcdir=${top_srcdir:-.}
builddir=${top_builddir:-.}
KGTOP="$builddir/kgtop"
FIXTURE="$builddir/tests/fixture-broker"
duration=${SOAK_TIME:-${1:-600}}
[ -n "$duration" ] || duration=600
rate=${SOAK_RATE:-200}           # flood lines per second
pool=${SOAK_POOL:-3000}          # distinct member ids before they repeat (every 15 s)
every=10
out=${SOAK_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/kgtop-soak.XXXXXX")}
mkdir -p "$out"
tck=$(getconf CLK_TCK)
pids=""

cleanup() {
	for p in $pids; do kill "$p" 2>/dev/null; done
	wait 2>/dev/null
}
trap cleanup EXIT INT TERM

# A scenario of 120 steps without "at": the script sends SIGUSR1 every 5 s.
scenario="$out/soak.json"
awk 'BEGIN {
	printf "{\"comment\":\"make soak: a changing cluster\",\"brokers\":3,\"seed\":5,\n"
	printf " \"topics\":[{\"name\":\"orders\",\"partitions\":12,\"log_end\":100000,\"rate\":50},\n"
	printf "  {\"name\":\"clicks\",\"partitions\":6,\"log_end\":5000,\"rate\":200}],\n"
	printf " \"groups\":[{\"id\":\"soak-range\",\"state\":\"Stable\",\"assignor\":\"range\",\"members\":["
	for (m = 0; m < 4; m++) printf "%s{\"client_id\":\"c-%d\",\"assignment\":{\"orders\":[%d,%d,%d]}}", m ? "," : "", m, 3*m, 3*m+1, 3*m+2
	printf "],\"committed\":{\"orders\":{\"all\":99000}}},\n"
	printf "  {\"id\":\"soak-coop\",\"state\":\"Stable\",\"assignor\":\"cooperative-sticky\",\"members\":[{\"client_id\":\"k-0\",\"assignment\":{\"clicks\":[0,1,2,3,4,5]}}],\"committed\":{\"clicks\":{\"all\":4000}}}],\n"
	printf " \"steps\":["
	for (s = 0; s < 120; s++) {
		n = 2 + s % 4
		st = (s % 3 == 0) ? "PreparingRebalance" : "Stable"
		printf "%s\n  {\"groups\":[{\"id\":\"soak-range\",\"state\":\"%s\",\"members\":[", s ? "," : "", st
		for (m = 0; m < n; m++) {
			printf "%s{\"client_id\":\"c-%d\",\"new_member_id\":%s,\"assignment\":{\"orders\":[", m ? "," : "", m, (s % 7 == m) ? "true" : "false"
			first = 1
			for (p = m; p < 12; p += n) { printf "%s%d", first ? "" : ",", p; first = 0 }
			printf "]}}"
		}
		printf "],\"committed\":{\"orders\":{\"all\":%d}}}", 99000 + s * 250
		if (s % 10 == 5) printf ",{\"id\":\"soak-tmp-%d\",\"state\":\"Empty\",\"committed\":{\"clicks\":{\"all\":%d}}}", s, s
		if (s % 10 == 8) printf ",{\"id\":\"soak-tmp-%d\",\"remove\":true}", s - 3
		printf "]}"
	}
	printf "\n ]}\n"
}' >"$scenario"

"$FIXTURE" --port 0 --brokers 3 --scenario "$scenario" --manual >"$out/fixture.out" 2>"$out/fixture.err" &
fixture=$!
pids="$pids $fixture"
"$FIXTURE" --port 0 --scenario "$srcdir/tests/fixture/scenarios/big.json" >"$out/big.out" 2>"$out/big.err" &
pids="$pids $!"
i=0
while ! grep -q '^ready ' "$out/fixture.out" 2>/dev/null || ! grep -q '^ready ' "$out/big.out" 2>/dev/null; do
	i=$((i + 1))
	if [ $i -gt 300 ]; then echo "soak: the fixture brokers did not start"; cat "$out/fixture.err" "$out/big.err"; exit 1; fi
	sleep 0.1
done
brokers=$(sed -n 's/^ready //p' "$out/fixture.out")
big=$(sed -n 's/^ready //p' "$out/big.out")
serve_history=${SOAK_SERVE_HISTORY:-$((duration / 3 > 60 ? duration / 3 : 60))s}

# The flood: batches every 0.25 s; member ids from a pool, the file truncated past 64 MB.
flood="$out/flood.jsonl"
: >"$flood"
(
	n=0
	while :; do
		if [ "$(wc -c <"$flood")" -gt 67108864 ]; then : >"$flood"; fi
		awk -v n="$n" -v k=$((rate / 4)) -v pool="$pool" -v t="$(date +%s)" 'BEGIN {
			for (i = 0; i < k; i++) {
				id = (n + i) % pool
				kind = (i % 3 == 2) ? "revoked" : "assigned"
				printf "{\"v\":1,\"ts\":%d%03d,\"kind\":\"%s\",\"group\":\"flood-%d\",\"member\":\"consumer-%d-5f1c2a9e-7d3b-4c61-9a0e-%012d\",\"partitions\":{\"flood\":[%d]}}\n", t, i % 1000, kind, id % 3, id, id, id % 32
			}
		}' >>"$flood"
		n=$((n + rate / 4))
		sleep 0.25
	done
) &
writer=$!
pids="$pids $writer"

"$KGTOP" -c none --demo --json --history 2m --trace "jsonl:file://$flood" --trace-from-start \
	--record "$out/demo.kgrec" --record-max 1M --duration "$((duration + 30))" >/dev/null 2>"$out/demo.err" &
demo=$!
"$KGTOP" -c none -b "$brokers" --json -i 1 --duration "$((duration + 30))" >/dev/null 2>"$out/cluster.err" &
cluster=$!
"$KGTOP" -c none -b "$big" --serve 127.0.0.1:0 --history "$serve_history" --duration "$((duration + 30))" \
	</dev/null >/dev/null 2>"$out/serve.err" &
serve=$!
pids="$pids $demo $cluster $serve"
i=0
while ! grep -q '^kgtop: serving ' "$out/serve.err" 2>/dev/null; do
	i=$((i + 1))
	if [ $i -gt 300 ]; then echo "soak: kgtop --serve did not start"; cat "$out/serve.err"; exit 1; fi
	sleep 0.1
done
url=$(sed -n 's/^kgtop: serving \([^ ]*\) .*/\1/p' "$out/serve.err")
curl -sN "$url/stream" >/dev/null 2>&1 &
pids="$pids $!"

# One sample of a process: resident KiB, CPU ticks, descriptors.
sample() {
	rss=$(awk '/^VmRSS:/ { print $2 }' "/proc/$1/status" 2>/dev/null)
	cpu=$(awk '{ print $14 + $15 }' "/proc/$1/stat" 2>/dev/null)
	fds=$(ls "/proc/$1/fd" 2>/dev/null | wc -l)
	echo "${rss:-0} ${cpu:-0} $fds"
}

printf 't\tproc\trss_kb\tcpu_pct\tfds\n' >"$out/soak.tsv"
echo "# soak: ${duration}s, samples every ${every}s, flood ${rate} lines/s over ${pool} member ids; serve: 2,000 groups, --history $serve_history; files in $out"
printf '#%6s %-8s %10s %8s %5s\n' t proc rss_kb cpu_% fds
start=$(date +%s)
last_cpu_demo=0
last_cpu_cluster=0
last_cpu_serve=0
elapsed=0
step_at=0
while [ "$elapsed" -lt "$duration" ]; do
	sleep 1
	elapsed=$(($(date +%s) - start))
	if [ $((elapsed - step_at)) -ge 5 ]; then
		kill -USR1 "$fixture" 2>/dev/null
		step_at=$elapsed
	fi
	for p in $demo $cluster $serve; do
		if ! kill -0 "$p" 2>/dev/null; then
			echo "not ok - soak: a kgtop process ended early"
			tail -n 5 "$out/demo.err" "$out/cluster.err"
			exit 1
		fi
	done
	[ $((elapsed % every)) -eq 0 ] || continue
	curl -s "$url/metrics" >/dev/null 2>&1 # a scrape at every sample
	for name in demo cluster serve; do
		eval "p=\$$name; prev=\$last_cpu_$name"
		set -- $(sample "$p")
		pct=$(awk -v a="$2" -v b="$prev" -v tck="$tck" -v e="$every" 'BEGIN { printf "%.1f", (a - b) * 100 / tck / e }')
		[ "$prev" -eq 0 ] && pct=0
		eval "last_cpu_$name=$2"
		printf '%s\t%s\t%s\t%s\t%s\n' "$elapsed" "$name" "$1" "$pct" "$3" >>"$out/soak.tsv"
		printf ' %6s %-8s %10s %8s %5s\n' "$elapsed" "$name" "$1" "$pct" "$3"
	done
done

# The verdict, per process, from the table.
warm=$((duration / 5))
[ "$warm" -lt 60 ] && warm=60
awk -F'\t' -v warm="$warm" -v dur="$duration" '
NR > 1 && $1 >= warm {
	q = ($1 - warm) / (dur - warm + 1)
	p = $2
	if (q < 0.25) { if ($3 > r0[p]) r0[p] = $3; c0[p] += $4; n0[p]++; if ($5 > f0[p]) f0[p] = $5 }
	if (q >= 0.75) { if ($3 > r1[p]) r1[p] = $3; c1[p] += $4; n1[p]++; if ($5 > f1[p]) f1[p] = $5 }
	procs[p] = 1
}
END {
	bad = 0
	for (p in procs) {
		if (n0[p] == 0 || n1[p] == 0) { printf "not ok - soak %s: too short to judge\n", p; bad = 1; continue }
		a = c0[p] / n0[p]; b = c1[p] / n1[p]
		grew = ""
		if (r1[p] > r0[p] * 1.2 && r1[p] - r0[p] > 8192) grew = grew " memory"
		if (b > a * 1.5 && b - a > 10) grew = grew " cpu"
		if (f1[p] > f0[p] + 4) grew = grew " descriptors"
		printf "%s - soak %s: rss %d -> %d KiB, cpu %.1f%% -> %.1f%%, fds %d -> %d%s\n", grew == "" ? "ok" : "not ok", p, r0[p], r1[p], a, b, f0[p], f1[p], grew == "" ? "" : " (grew:" grew ")"
		if (grew != "") bad = 1
	}
	exit bad
}' "$out/soak.tsv"
rc=$?
# serve: the history's bound and what it grew once its window had passed (every group keeps 600 lag points
# of 16 bytes a window, in a vector that doubles: 1,024 at most)
win=$(awk -v h="$serve_history" 'BEGIN { n = h + 0; u = substr(h, length(n "") + 1); print n * (u == "h" ? 3600 : u == "m" ? 60 : 1) }')
awk -F'\t' -v win="$win" -v dur="$duration" '
$2 == "serve" && $1 <= win { at = $3 }
$2 == "serve" && $1 > win { if ($3 > top) top = $3; last = $3; if (first == "") first = $3 }
END {
	bound = 2000 * 1024 * 16 / 1024
	if (first == "") { printf "# serve: the run is shorter than its history window (%d s)\n", win; exit }
	printf "# serve: history bound (2,000 groups x 1,024 lag points x 16 bytes) %d KiB; rss at the window (%d s) %d KiB, after it %d..%d KiB (grew %d KiB, %.1f%% of the bound), at the end %d KiB\n", bound, win, at, first, top, top - at, (top - at) * 100 / bound, last
}' "$out/soak.tsv"
echo "# the samples: $out/soak.tsv"
exit $rc
