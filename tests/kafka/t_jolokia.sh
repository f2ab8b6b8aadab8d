#!/bin/sh
# t_jolokia.sh: the Jolokia JVM agent (org.jolokia:jolokia-agent-jvm, from Maven Central) in the
# fleet's JVM, where the Java consumers' MBeans are; kgtop --trace jolokia reads them at the URL its
# documentation gives (http://HOST:PORT/jolokia, which Jolokia 2 serves only as /jolokia/):
# heartbeat age and poll gap per member, against the fleet's own last poll when a member stalls.
. "${top_srcdir:-.}/tests/cli/lib.sh"
. "$top_srcdir/tests/kafka/kafka.sh"

[ -s "$KAFKA_DIR/jolokia-agent.jar" ] || { echo "Bail out! no $KAFKA_DIR/jolokia-agent.jar: make kafka-deps"; exit 1; }
JP=$(kafka_free_port)
kafka_up 1 "-javaagent:$(cd "$KAFKA_DIR" && pwd)/jolokia-agent.jar=host=127.0.0.1,port=$JP"
curl -s "http://127.0.0.1:$JP/jolokia/version" >"$T_TMP/version.json"
t_contains "$T_TMP/version.json" '"agent":"' "Jolokia answers ($(grep -o '"agent":"[^"]*"' "$T_TMP/version.json"))"
fleet topic t1 4 && fleet produce t1 30
owns() { o=$(fleet_owned "$1"); [ -n "$o" ] && [ "$o" != "[]" ]; }
fleet join j1 group=g-jol topic=t1 session=6000 heartbeat=500 poll=60000
fleet join j2 group=g-jol topic=t1 session=6000 heartbeat=500 poll=60000
t_wait_for 60 owns j1 && t_wait_for 60 owns j2
t_ok $? "g-jol formed (j1, j2)"
kgtop_bg "$T_TMP/k.json" -b "$KAFKA_BOOT" --json -i 1 --trace "jolokia:http://127.0.0.1:$JP/jolokia"
KP=$KG_PID
# health CLIENT KEY: the member's health value in kgtop's last line
health() { kg_group "$T_TMP/k.json" g-jol | "$JSONQ" '.members[]' 2>/dev/null | grep "\"client_id\":\"$1\"" | jnum "$2"; }
seen() { [ -n "$(health j1 poll_gap_ms)" ] && [ "$(health j1 poll_gap_ms)" != null ] && [ -n "$(health j2 heartbeat_age_ms)" ]; }
t_wait_for 30 seen
t_ok $? "kgtop has both members' poll gaps and heartbeat ages from Jolokia"
t_contains "$T_TMP/k.json" '"message":"2 clients"' "the jolokia source reads 2 clients"
le "$(health j1 poll_gap_ms)" 2000 && le "$(health j2 heartbeat_age_ms)" 2000
t_ok $? "polling members: poll gap $(health j1 poll_gap_ms) ms, heartbeat age $(health j2 heartbeat_age_ms) ms"

fleet stall j2
lp=$(grep '"ev":"stalled","c":"j2"' "$FLEET" | sed 's/.*"last_poll":\([0-9]*\).*/\1/')
grown() { le 5000 "$(health j2 poll_gap_ms)"; }
t_wait_for 30 grown
t_ok $? "j2's poll gap grows past 5 s once it stops polling"
n=$(kg_lines "$T_TMP/k.json")
l=$(sed -n "${n}p" "$T_TMP/k.json")
lt=$(($(echo "$l" | jnum time_us) / 1000))
gap=$(echo "$l" | "$JSONQ" '.groups[]' | grep '^{"id":"g-jol"' | "$JSONQ" '.members[]' | grep '"client_id":"j2"' | jnum poll_gap_ms)
want=$((lt - lp))
le $((want - 2000)) "$gap" && le "$gap" $((want + 2000))
t_ok $? "j2's poll gap $gap ms is the time since its last poll ($want ms) within 2 s (Jolokia says seconds; one refresh)"
hb=$(echo "$l" | "$JSONQ" '.groups[]' | grep '^{"id":"g-jol"' | "$JSONQ" '.members[]' | grep '"client_id":"j2"' | jnum heartbeat_age_ms)
le "$hb" 2000
t_ok $? "its heartbeat goes on meanwhile (age $hb ms): a stall, not a crash"
le "$(health j1 poll_gap_ms)" 2000
t_ok $? "j1 goes on polling (gap $(health j1 poll_gap_ms) ms)"
kgtop_stop "$KP"
kafka_stop
t_ok "$(kafka_no_jvm_left; echo $?)" "no JVM of this test is left"
t_done
