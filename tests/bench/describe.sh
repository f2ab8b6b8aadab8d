#!/bin/sh
# describe.sh (make bench-describe): the describe path at 2,000 and 10,000 groups (every group Stable
# with 3 members, so every one is described), against the fixture broker playing a broker before
# Kafka 3.7 (no ConsumerGroupDescribe) and a Kafka 4 broker (it advertises ConsumerGroupDescribe and
# answers it for a classic group GROUP_ID_NOT_FOUND, so librdkafka >= 2.10 asks twice per group).
# For the librdkafka this tree was built with (run it in a bundled and a --with-librdkafka=system
# build to compare), it prints:
#   - the bare librdkafka program's describe phase alone (tests/bench/bare_refresh -D: the listing,
#     then DescribeConsumerGroups in calls of 50, 500 in flight): wall and CPU, medians of RUNS
#     after a warm-up, and the requests it sent per group, by API;
#   - one kgtop --once (the whole refresh: descriptions, offsets, log ends, record reads): wall and
#     CPU (medians of RUNS) and its describe requests per group.
# Figures, never a verdict. Environment: top_builddir, top_srcdir, KG_BENCH_RUNS (default 3).
set -u
top_builddir=${top_builddir:-.}
top_srcdir=${top_srcdir:-.}
runs=${KG_BENCH_RUNS:-3}
tmp=$(mktemp -d /tmp/kgtop-bench-describe.XXXXXX)
trap 'kill $fx 2>/dev/null; rm -rf "$tmp"' EXIT
fx=""
KGTOP="$top_builddir/kgtop"
BARE="$top_builddir/tests/bench/bare_refresh"
FIXTURE="$top_builddir/tests/fixture-broker"

# median: the median of the numbers on standard input
median() {
	sort -n | awk '{v[NR] = $1} END {if (NR == 0) print "-"; else if (NR % 2) print v[(NR + 1) / 2]; else printf "%.1f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2}'
}

# requests API: the count of API in the fixture's stats
requests() {
	grep -o "\"$1\":[0-9]*" "$tmp/stats.json" | head -n 1 | cut -d: -f2
}

# per_group API BEFORE N GROUPS: (count now - BEFORE) / (N refreshes x GROUPS)
per_group() {
	awk -v a="$(requests "$1")" -v b="$2" -v n="$3" -v g="$4" 'BEGIN {printf "%.2f", (a - b) / (n * g)}'
}

echo "librdkafka: $("$KGTOP" --version | sed -n 's/^librdkafka //p')"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
for n in 2000 10000; do
	for broker in old kafka4; do
		cgd=""
		[ "$broker" = kafka4 ] && cgd='"consumer_group_describe_max": 1,'
		cat >"$tmp/scen.json" <<EOF
{ $cgd "brokers": 3, "seed": 23,
  "generate": {"groups": $n, "topics": $((n / 10)), "partitions": 10, "live_groups": $n, "members": 3,
               "topics_per_group": 1, "log_end": 1000000, "lag": 250, "rate": 0, "assignor": "range"} }
EOF
		rm -f "$tmp/stats.json" "$tmp/fx.out"
		"$FIXTURE" --port 0 --brokers 3 --scenario "$tmp/scen.json" --stats "$tmp/stats.json" >"$tmp/fx.out" 2>"$tmp/fx.err" &
		fx=$!
		b=""
		for i in $(seq 1 200); do
			b=$(sed -n 's/^ready //p' "$tmp/fx.out")
			[ -n "$b" ] && break
			sleep 0.1 # the fixture's ready line, polled with a deadline
		done
		[ -n "$b" ] || { echo "the fixture broker did not start: $(cat "$tmp/fx.err")"; exit 1; }
		"$BARE" "$b" -D -n 1 >/dev/null # warm-up
		sleep 0.2                      # the stats file is rewritten every 50 ms
		fc=$(requests FindCoordinator); dg=$(requests DescribeGroups); cg=$(requests ConsumerGroupDescribe)
		"$BARE" "$b" -D -n "$runs" >"$tmp/bare.out"
		sleep 0.2
		dw=$(sed -n 's/.* describe_wall_ms \([0-9.]*\).*/\1/p' "$tmp/bare.out" | median)
		dc=$(sed -n 's/.* describe_cpu_ms \([0-9.]*\).*/\1/p' "$tmp/bare.out" | median)
		printf '%6d groups, %-6s broker: bare describe %8s ms wall %8s ms CPU; per group FindCoordinator %s DescribeGroups %s ConsumerGroupDescribe %s\n' \
			"$n" "$broker" "$dw" "$dc" "$(per_group FindCoordinator "$fc" "$runs" "$n")" \
			"$(per_group DescribeGroups "$dg" "$runs" "$n")" "$(per_group ConsumerGroupDescribe "$cg" "$runs" "$n")"
		fc=$(requests FindCoordinator); dg=$(requests DescribeGroups); cg=$(requests ConsumerGroupDescribe)
		: >"$tmp/kg.times"
		for i in $(seq 1 "$runs"); do
			/usr/bin/time -f '%e %U %S' -a -o "$tmp/kg.times" "$KGTOP" -c none -b "$b" --once --timeout 120 >/dev/null 2>"$tmp/kg.err" ||
				echo "  kgtop --once failed: $(tail -n 3 "$tmp/kg.err")"
		done
		sleep 0.2
		kw=$(awk '{print $1 * 1000}' "$tmp/kg.times" | median)
		kc=$(awk '{print ($2 + $3) * 1000}' "$tmp/kg.times" | median)
		printf '%6d groups, %-6s broker: kgtop --once %8s ms wall %8s ms CPU; per group FindCoordinator %s DescribeGroups %s ConsumerGroupDescribe %s\n' \
			"$n" "$broker" "$kw" "$kc" "$(per_group FindCoordinator "$fc" "$runs" "$n")" \
			"$(per_group DescribeGroups "$dg" "$runs" "$n")" "$(per_group ConsumerGroupDescribe "$cg" "$runs" "$n")"
		kill "$fx"
		wait "$fx" 2>/dev/null
		fx=""
	done
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
