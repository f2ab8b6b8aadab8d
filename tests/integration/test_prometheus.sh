#!/bin/sh
# test_prometheus.sh: a real Prometheus (Debian's package) scrapes kgtop.
# kgtop serves headless on the fixture broker; Prometheus on loopback
# scrapes it every 500 ms and evaluates every second; the fixture steps an
# eager rebalance (g-range: a member joins), then a cooperative one in two
# rounds (g-coop).  Through Prometheus' HTTP query API (polled with a
# deadline) the test asserts that kgtop_rebalances_total rose by one with
# protocol="eager" and trigger="join" after the first, by one more with
# protocol="cooperative" after the second (the eager one unchanged), and
# that the duration histogram holds each episode.
. "${top_srcdir:-.}/tests/cli/lib.sh"
export KGTOP_CONFIG=none
unset KGTOP_BROKERS
HTTPLOAD="$top_builddir/tests/tools/httpload"
PROMETHEUS=${PROMETHEUS:-prometheus}
if ! command -v "$PROMETHEUS" >/dev/null; then
	echo "Bail out! prometheus not found: install Debian's prometheus package (apt-get install -y prometheus), then ./configure"
	exit 1
fi
if ! command -v curl >/dev/null; then
	echo "Bail out! curl not found: the --serve tests need it (apt-get install -y curl)"
	exit 1
fi

# q EXPR: the first value of an instant query ("none" when the result is empty)
q() {
	curl -s --max-time 5 "http://127.0.0.1:$PPORT/api/v1/query" --data-urlencode "query=$1" >"$T_TMP/q.json" 2>/dev/null
	if [ "$("$JSONQ" '.data.result|length' <"$T_TMP/q.json" 2>/dev/null)" = 0 ]; then
		echo none
	else
		"$JSONQ" '.data.result[0].value[1]' <"$T_TMP/q.json" 2>/dev/null
	fi
}
# q_is EXPR WANT: true when the query answers WANT
q_is() { [ "$(q "$1")" = "$2" ]; }
# step_to GROUP STATE: step the fixture, then wait until Prometheus has scraped kgtop seeing the state
step_to() {
	kill -USR1 "$FIXTURE_PID"
	t_wait_for 15 q_is "kgtop_group_state{group=\"$1\",state=\"$2\"}" 1 || echo "# $1 $2 not seen through Prometheus"
}

fixture_start "$top_srcdir/tests/integration/scenarios/range-then-coop.json" --manual || exit 1
KPORT=$("$HTTPLOAD" port)
"$KGTOP" -b "$BOOTSTRAP" -i 0.2 --serve "127.0.0.1:$KPORT" >"$T_TMP/kgtop.out" 2>"$T_TMP/kgtop.err" &
KPID=$!
T_PIDS="$T_PIDS $KPID"
t_wait_for 10 grep -q '^kgtop: serving ' "$T_TMP/kgtop.err"
t_ok $? "kgtop serves headless on 127.0.0.1:$KPORT"

PPORT=$("$HTTPLOAD" port)
cat >"$T_TMP/prometheus.yml" <<EOF
global:
  scrape_interval: 500ms
  scrape_timeout: 400ms
  evaluation_interval: 1s
scrape_configs:
  - job_name: kgtop
    static_configs:
      - targets: ['127.0.0.1:$KPORT']
EOF
"$PROMETHEUS" --config.file="$T_TMP/prometheus.yml" --storage.tsdb.path="$T_TMP/tsdb" \
	--web.listen-address="127.0.0.1:$PPORT" --log.level=warn >"$T_TMP/prometheus.log" 2>&1 &
PPID_=$!
T_PIDS="$T_PIDS $PPID_"
t_wait_for 30 q_is 'up{job="kgtop"}' 1
t_ok $? "Prometheus scrapes kgtop (up{job=\"kgtop\"} 1)"
[ "$(q 'up{job="kgtop"}')" = 1 ] || sed 's/^/#   /' "$T_TMP/prometheus.log"
t_wait_for 15 q_is 'kgtop_group_members{group="g-range"}' 3
t_ok $? "Prometheus has kgtop's view: g-range has 3 members"
t_is "$(q 'sum(kgtop_rebalances_total)')" none "before the rebalances: no rebalance counted"

step_to g-range PreparingRebalance
step_to g-range CompletingRebalance
step_to g-range Stable
t_wait_for 15 q_is 'kgtop_rebalances_total{group="g-range",protocol="eager",trigger="join"}' 1
t_ok $? "the eager rebalance: kgtop_rebalances_total{group=g-range,protocol=eager,trigger=join} rose to 1"
t_is "$(q 'count(kgtop_rebalances_total)')" 1 "one series counted, no other protocol or trigger"
t_is "$(q 'kgtop_group_rebalance_duration_seconds_count{group="g-range",protocol="eager"}')" 1 "the group's durations hold the episode"
t_is "$(q 'kgtop_rebalance_duration_seconds_count{protocol="eager"}')" 1 "and so does the cluster's histogram"
d=$(q 'kgtop_group_rebalance_duration_seconds_sum{group="g-range",protocol="eager"}')
t_ok "$(awk -v d="$d" 'BEGIN { exit !(d > 0 && d < 60) }'; echo $?)" "its duration: ${d} s"
b=$(q 'kgtop_rebalance_duration_seconds_bucket{protocol="eager",le="60"}')
t_is "$b" 1 "in the buckets up to 60 s"
m=$(q 'histogram_quantile(0.5, sum by (le) (kgtop_rebalance_duration_seconds_bucket{protocol="eager"}))')
t_ok "$(awk -v m="$m" 'BEGIN { exit !(m > 0 && m <= 60) }'; echo $?)" "histogram_quantile reads it: median ${m} s"

step_to g-coop PreparingRebalance
step_to g-coop CompletingRebalance
step_to g-coop Stable
step_to g-coop PreparingRebalance
step_to g-coop CompletingRebalance
step_to g-coop Stable
t_wait_for 15 q_is 'kgtop_rebalances_total{group="g-coop",protocol="cooperative",trigger="join"}' 1
t_ok $? "the cooperative rebalance: kgtop_rebalances_total{group=g-coop,protocol=cooperative,trigger=join} 1"
t_is "$(q 'sum(kgtop_rebalances_total)')" 2 "the total rose by one: two rebalances, one episode each"
t_is "$(q 'sum(kgtop_rebalances_total{protocol="eager"})')" 1 "the eager count did not move"
t_is "$(q 'kgtop_group_rebalance_duration_seconds_count{group="g-coop",protocol="cooperative"}')" 1 "the group's durations hold the cooperative episode (one, of two rounds)"
t_is "$(q 'kgtop_rebalance_duration_seconds_count{protocol="cooperative"}')" 1 "and the cluster's histogram"
t_is "$(q 'kgtop_group_rebalancing{group="g-coop"}')" 0 "and the rebalance is no longer open"

kill -TERM "$PPID_" "$KPID"
wait "$KPID"
t_ok $? "kgtop ends on SIGTERM with status 0"
wait "$PPID_"
fixture_stop
t_done
