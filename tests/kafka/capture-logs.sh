#!/bin/sh
# capture-logs.sh: run the group events kgtop's log trace must read on a real Kafka broker (the
# version make kafka-deps fetched) and keep the group coordinator's lines about them as test data:
#   tests/data/logs/kafka-VERSION-classic.log   classic-protocol groups (eager, cooperative, static)
#   tests/data/logs/kafka-VERSION-consumer.log  KIP-848 consumer groups (group.protocol=consumer)
# Not part of make check (the files are committed; tests/unit/test_parse_log.c reads them):
#   make kafka-deps && top_srcdir=. top_builddir=. sh tests/kafka/capture-logs.sh
. "${top_srcdir:-.}/tests/cli/lib.sh"
. "$top_srcdir/tests/kafka/kafka.sh"

kafka_start 1 || exit 1
fleet_start || exit 1
v=$(tr ':' '\n' <"$KAFKA_DIR/classpath.txt" | sed -n 's|.*/kafka_2.13-\([0-9]*\.[0-9]*\)\.[0-9]*\.jar$|\1|p')
fleet topic cap 4 && fleet produce cap 20
owns() { o=$(fleet_owned "$1"); [ -n "$o" ] && [ "$o" != "[]" ]; }
leftlog() { grep -q "$1" "$KAFKA_LOG1"; }
# classic: joins, a graceful leave, a crash (session timeout), a stall past max.poll.interval.ms, static members
fleet join a1 group=cls-range topic=cap assignor=range session=6000 poll=6000
fleet join a2 group=cls-range topic=cap assignor=range session=6000 poll=6000
t_wait_for 60 owns a2
fleet join a3 group=cls-coop topic=cap assignor=cooperative-sticky session=6000
fleet join a4 group=cls-coop topic=cap assignor=cooperative-sticky session=6000
t_wait_for 60 owns a4
fleet join a5 group=cls-range topic=cap assignor=range session=6000 poll=6000
t_wait_for 60 owns a5
fleet leave a5
fleet crash a1
t_wait_for 30 leftlog "in group cls-range has failed"
fleet stall a2
t_wait_for 30 leftlog "consumer poll timeout has expired"
fleet join s1 group=cls-static topic=cap instance=cls-s1 session=6000
fleet join s2 group=cls-static topic=cap instance=cls-s2 session=6000
t_wait_for 60 owns s2
fleet restart s1
t_wait_for 30 leftlog "groupInstanceId=cls-s1 and unknown member id joins group cls-static"
fleet leave s2
t_wait_for 30 sh -c "grep -q 'cls-static' '$KAFKA_LOG1' && grep 'cls-static' '$KAFKA_LOG1' | grep -q 'failed\|left'"
# consumer protocol: joins, a leave, a crash (session timeout), a stall past max.poll.interval.ms, static members
fleet join k1 group=kip-uniform topic=cap protocol=consumer poll=6000 jvm=child
fleet join k2 group=kip-uniform topic=cap protocol=consumer poll=6000
t_wait_for 60 owns k2
fleet join k3 group=kip-uniform topic=cap protocol=consumer poll=6000
t_wait_for 60 owns k3
fleet leave k3
fleet crash k1
t_wait_for 30 leftlog "kip-uniform.* fenced from the group because the member session expired"
fleet stall k2
t_wait_for 30 sh -c "[ \$(grep 'kip-uniform' '$KAFKA_LOG1' | grep -c 'left the consumer group') -ge 2 ]"
fleet join ks1 group=kip-static topic=cap protocol=consumer instance=kip-s1 assignor=range
fleet join ks2 group=kip-static topic=cap protocol=consumer instance=kip-s2 assignor=range
t_wait_for 60 owns ks2
fleet restart ks1
t_wait_for 30 leftlog "instance id kip-s1 re-joins"
fleet leave ks2
t_wait_for 30 leftlog "instance id kip-s2 temporarily left"
grep 'GroupCoordinator id=' "$KAFKA_LOG1" | grep -E 'group cls-|Group cls-|GroupId cls-|groupInstanceId=cls-' \
	>"$top_srcdir/tests/data/logs/kafka-$v-classic.log"
grep 'GroupCoordinator id=' "$KAFKA_LOG1" | grep -E 'kip-' >"$top_srcdir/tests/data/logs/kafka-$v-consumer.log"
wc -l "$top_srcdir/tests/data/logs/kafka-$v-classic.log" "$top_srcdir/tests/data/logs/kafka-$v-consumer.log"
cp "$KAFKA_LOG1" "${CAPTURE_FULL_LOG:-/dev/null}"
