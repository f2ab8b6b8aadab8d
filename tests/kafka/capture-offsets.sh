#!/bin/sh
# capture-offsets.sh: run group events on a real Kafka broker (the version make kafka-deps fetched)
# and keep every record its group coordinator wrote to __consumer_offsets as test data, with Kafka's
# own decoding of each (kgtop.harness.OffsetsDump: the coordinator's record serde and JSON converters):
#   tests/data/offsets/kafka-VERSION.jsonl   {"p","o","t","k","v","type","vv","key","value"} a line
# Classic groups (eager, cooperative, static: a restart with no generation, an emptied group), KIP-848
# groups (joins, a leave, a static restart), commits, and what deletes leave: a deleted group's and
# deleted offsets' tombstones.  Not part of make check (the file is committed; test_offsets_record.c
# decodes every record and compares it with Kafka's decoding; the fixture broker serves them):
#   make kafka-deps && top_srcdir=. top_builddir=. sh tests/kafka/capture-offsets.sh
. "${top_srcdir:-.}/tests/cli/lib.sh"
. "$top_srcdir/tests/kafka/kafka.sh"

kafka_start 1 || exit 1
fleet_start || exit 1
v=$(tr ':' '\n' <"$KAFKA_DIR/classpath.txt" | sed -n 's|.*/kafka_2.13-\([0-9]*\.[0-9]*\)\.[0-9]*\.jar$|\1|p')
fleet topic cap 4 && fleet produce cap 20
owns() { o=$(fleet_owned "$1"); [ -n "$o" ] && [ "$o" != "[]" ]; }
leftlog() { grep -q "$1" "$KAFKA_LOG1"; }
# classic: an eager group that grows and empties, a cooperative one that grows, a static one restarting
fleet join a1 group=cls-range topic=cap assignor=range session=6000 poll=6000
fleet join a2 group=cls-range topic=cap assignor=range session=6000 poll=6000
t_wait_for 60 owns a2
fleet join a3 group=cls-coop topic=cap assignor=cooperative-sticky session=6000
fleet join a4 group=cls-coop topic=cap assignor=cooperative-sticky session=6000
t_wait_for 60 owns a4
fleet join a5 group=cls-coop topic=cap assignor=cooperative-sticky session=6000
t_wait_for 60 owns a5
fleet join s1 group=cls-static topic=cap instance=cls-s1 session=6000
fleet join s2 group=cls-static topic=cap instance=cls-s2 session=6000
t_wait_for 60 owns s2
fleet restart s1
t_wait_for 30 leftlog "groupInstanceId=cls-s1 and unknown member id joins group cls-static"
t_wait_for 30 owns s1
fleet leave a1 && fleet leave a2
t_wait_for 30 leftlog "Group cls-range with generation [0-9]* is now empty"
# KIP-848: joins, a leave, a static restart
fleet join k1 group=kip-uniform topic=cap protocol=consumer
fleet join k2 group=kip-uniform topic=cap protocol=consumer
t_wait_for 60 owns k2
fleet leave k2
fleet join ks1 group=kip-static topic=cap protocol=consumer instance=kip-s1 assignor=range
t_wait_for 60 owns ks1
fleet restart ks1
t_wait_for 30 leftlog "instance id kip-s1 re-joins"
t_wait_for 30 owns ks1
# deletes: the emptied eager group's offsets of one partition, then the whole group
kcg --delete-offsets --group cls-range --topic cap:0 >/dev/null 2>&1
kcg --delete --group cls-range >/dev/null 2>&1
mkdir -p "$top_srcdir/tests/data/offsets"
out="$top_srcdir/tests/data/offsets/kafka-$v.jsonl"
kjava -Xmx256m log4j2-tools.properties kgtop.harness.OffsetsDump "$KAFKA_BOOT" >"$out" || exit 1
echo "# $(wc -l <"$out") records in $out"
for t in 0 1 2 3 4 5 6 7 8; do printf '# type %s: %s\n' "$t" "$(grep -c "\"type\":$t," "$out")"; done
printf '# tombstones: %s, errors: %s\n' "$(grep -c '"v":null' "$out")" "$(grep -c '"error"' "$out")"
