#!/bin/sh
# t_harness.sh: the harness fails a broker that does not start, within its deadline and with the
# tail of the broker's log, and leaves no JVM behind: a port another process holds, a JVM too slow
# for the deadline.
. "${top_srcdir:-.}/tests/cli/lib.sh"
. "$top_srcdir/tests/kafka/kafka.sh"

# a port held by another process (the fixture broker listens on it)
fixture_start stable.json || { t_ok 1 "a fixture broker holds a port"; t_done; exit 1; }
held=${BOOTSTRAP##*:}
t0=$(date +%s)
KAFKA_PORT1=$held KAFKA_START_TRIES=1 kafka_start 1 >"$T_TMP/taken.out" 2>&1
rc=$?
t_is "$rc" 1 "a broker on a port already taken ($held) fails its start"
t_contains "$T_TMP/taken.out" "exited before it started" "it says the broker exited"
t_contains "$T_TMP/taken.out" "Address already in use" "with the broker's own words from the tail of its log"
le "$(($(date +%s) - t0))" 60
t_ok $? "within $(($(date +%s) - t0)) s"
fixture_stop
t_ok "$(kafka_no_jvm_left; echo $?)" "no JVM is left"

# a JVM slower than the deadline (0 s: on a quiet machine Kafka 4.3 starts within 2 s, so a 1 s deadline
# was sometimes met)
t0=$(date +%s)
KAFKA_START_TIMEOUT=0 KAFKA_START_TRIES=1 kafka_start 1 >"$T_TMP/slow.out" 2>&1
rc=$?
t_is "$rc" 1 "a broker that is not up within KAFKA_START_TIMEOUT=0 fails its start"
t_contains "$T_TMP/slow.out" "did not start within 0 s" "it says so"
t_contains "$T_TMP/slow.out" "the last lines of broker 1's log" "with the tail of the broker's log"
le "$(($(date +%s) - t0))" 30
t_ok $? "within $(($(date +%s) - t0)) s (the storage format included)"
kafka_stop
t_ok "$(kafka_no_jvm_left; echo $?)" "no JVM is left"
t_done
