#!/bin/sh
# cli.sh: the kgtop binary from the command line: usage, exit codes, --once
# and --json against the fixture broker, errors with a message, secrets.
. "${top_srcdir:-.}/tests/cli/lib.sh"

"$KGTOP" --help >"$T_TMP/help" 2>&1
t_ok $? "--help exits 0"
t_contains "$T_TMP/help" "Usage: kgtop" "--help prints usage"
t_contains "$T_TMP/help" "--brokers" "--help lists -b"
t_contains "$T_TMP/help" "read-only" "--help states the read-only guarantee"
"$KGTOP" --version >"$T_TMP/version" 2>&1
t_ok $? "--version exits 0"
t_contains "$T_TMP/version" "kgtop " "--version prints the version"

"$KGTOP" --no-such-option >"$T_TMP/out" 2>&1
t_is "$?" 2 "an unknown option exits 2"
t_contains "$T_TMP/out" "Try 'kgtop --help'" "an unknown option says how to get help"
"$KGTOP" -i 0 -b x >"$T_TMP/out" 2>&1
t_is "$?" 2 "-i 0 exits 2"
"$KGTOP" -g '(' -b x >"$T_TMP/out" 2>&1
t_is "$?" 2 "a bad regex exits 2"
t_contains "$T_TMP/out" "-g '('" "a bad regex is named"
printf 'interval = 2\nbogus = 1\n' >"$T_TMP/config"
"$KGTOP" -c "$T_TMP/config" -b x --once >"$T_TMP/out" 2>&1
t_is "$?" 2 "a bad config file exits 2"
t_contains "$T_TMP/out" "config:2: unknown option 'bogus'" "a bad config line is named file:line"
"$KGTOP" -X group.id=mine -b x --once >"$T_TMP/out" 2>&1
t_is "$?" 2 "setting group.id is refused (read-only)"

fixture_start stable.json --manual || exit 1
"$KGTOP" -b "$BOOTSTRAP" --once >"$T_TMP/once" 2>"$T_TMP/once.err"
t_ok $? "--once exits 0 against a cluster"
t_contains "$T_TMP/once" "GROUP g-coop" "--once lists groups"
t_contains "$T_TMP/once" "CURRENT-OFFSET" "--once has kafka-consumer-groups.sh's columns"
t_contains "$T_TMP/once" "LOG-END-OFFSET" "--once has LOG-END-OFFSET"
t_contains "$T_TMP/once" "cooperative-sticky (cooperative)" "--once says eager or cooperative"
t_contains "$T_TMP/once" "pay-host-1" "--once shows instance ids"

"$KGTOP" -b "$BOOTSTRAP" --once -g '^g-multi$' >"$T_TMP/once-g" 2>&1
t_contains "$T_TMP/once-g" "GROUP g-multi" "-g keeps the matching group"
if grep -q "GROUP g-coop" "$T_TMP/once-g"; then t_ok 1 "-g drops the others"; else t_ok 0 "-g drops the others"; fi
"$KGTOP" -b "$BOOTSTRAP" --once -G 'multi|idle' >"$T_TMP/once-G" 2>&1
if grep -q "GROUP g-multi" "$T_TMP/once-G"; then t_ok 1 "-G excludes"; else t_ok 0 "-G excludes"; fi

"$KGTOP" -b "$BOOTSTRAP" --once --json >"$T_TMP/json" 2>"$T_TMP/json.err"
t_ok $? "--once --json exits 0"
"$JSONQ" -v <"$T_TMP/json"
t_ok $? "--once --json prints valid JSON"
t_is "$("$JSONQ" .version <"$T_TMP/json")" 10 "the JSON is versioned (schema version 10)"
t_is "$("$JSONQ" '.groups|length' <"$T_TMP/json")" 4 "the JSON lists every group"
t_is "$("$JSONQ" .source.kafka.status <"$T_TMP/json")" ok "the JSON carries the source health"
t_is "$("$JSONQ" .groups[0].id <"$T_TMP/json")" g-coop "groups are sorted by name"
t_is "$("$JSONQ" .groups[0].protocol <"$T_TMP/json")" cooperative "the JSON says eager or cooperative"
t_is "$("$JSONQ" .groups[0].partitions[3].lag <"$T_TMP/json")" 1000 "the JSON has lag per partition"
t_is "$("$JSONQ" .groups[0].members[0].assignment[0].topic <"$T_TMP/json")" payments "members carry assignments"

"$KGTOP" -b "$BOOTSTRAP" --json --duration 2 -i 0.3 >"$T_TMP/jsonl" 2>&1
t_ok $? "--json --duration exits 0"
"$JSONQ" -l -v <"$T_TMP/jsonl"
t_ok $? "every --json line is valid JSON"
n=$(wc -l <"$T_TMP/jsonl")
[ "$n" -ge 3 ]
t_ok $? "--json prints a line per refresh ($n lines in 2 s at 0.3 s)"

printf '# a config file\ninclude = ^g-coop$\nX.client.id = from-config\n' >"$T_TMP/kgconf"
"$KGTOP" -c "$T_TMP/kgconf" -b "$BOOTSTRAP" --once >"$T_TMP/conf-once" 2>&1
t_contains "$T_TMP/conf-once" "GROUP g-coop" "the config file's include applies"
if grep -q "GROUP g-multi" "$T_TMP/conf-once"; then t_ok 1 "the config file's include filters"; else t_ok 0 "the config file's include filters"; fi
KGTOP_BROKERS="$BOOTSTRAP" "$KGTOP" -c none --once >"$T_TMP/env-once" 2>&1
t_contains "$T_TMP/env-once" "GROUP g-multi" "\$KGTOP_BROKERS is used without -b"
KGTOP_BROKERS=127.0.0.1:1 "$KGTOP" -c none -b "$BOOTSTRAP" --once >"$T_TMP/env-cli" 2>&1
t_ok $? "the command line beats the environment"
KGTOP_CONFIG="$T_TMP/kgconf" KGTOP_BROKERS="$BOOTSTRAP" "$KGTOP" --once -g '^g-multi$' >"$T_TMP/cli-conf" 2>&1
t_contains "$T_TMP/cli-conf" "GROUP g-multi" "\$KGTOP_CONFIG is read, and -g adds to its includes"
t_contains "$T_TMP/cli-conf" "GROUP g-coop" "repeatable options accumulate from the file and the command line"

"$KGTOP" -b "$BOOTSTRAP" --once -X sasl.password=hunter2 -X ssl.key.password=hunter3 >"$T_TMP/secret" 2>&1
if grep -q hunter "$T_TMP/secret"; then t_ok 1 "secret properties are never printed"; else t_ok 0 "secret properties are never printed"; fi
t_is "$(awk -F'"JoinGroup":' '/rejected_writes/{split($3,a,","); print a[1]}' "$FIXTURE_STATS")" 0 "no JoinGroup was ever sent"
# librdkafka's own diagnosis reaches the message: TLS spoken to a plaintext broker
"$KGTOP" -c none -b "$BOOTSTRAP" -X security.protocol=SSL --once >"$T_TMP/tls" 2>&1
t_is "$?" 1 "TLS against a plaintext listener exits 1"
# (librdkafka 2.14.2 words it either way, by timing: "SSL handshake failed: Disconnected: SSL connection
# closed by peer: connecting to a PLAINTEXT broker listener?" or "Disconnected: SSL connection closed by
# peer (after 0ms in state SSL_HANDSHAKE)"; 2.0.2 "SSL handshake failed: ...unexpected eof...")
if grep -q "SSL handshake failed\|(in state SSL_HANDSHAKE)" "$T_TMP/tls"; then
	t_ok 0 "and says the TLS handshake failed, in librdkafka's words"
else
	t_ok 1 "and says the TLS handshake failed, in librdkafka's words"
	sed 's/^/#   /' "$T_TMP/tls"
fi
# --once with --record answers (the recorder is no source to wait for) and writes a recording
"$KGTOP" -c none -b "$BOOTSTRAP" --once --record "$T_TMP/once.kgrec" >"$T_TMP/once-rec" 2>&1
t_is "$?" 0 "--once --record exits 0"
t_contains "$T_TMP/once-rec" "GROUP g-multi" "and prints the report"
t_contains "$T_TMP/once.kgrec" '"kgtop_record":5' "and writes the recording"
fixture_stop

# a group's coordinator partition of __consumer_offsets, from the partition count in the metadata
# (abs(Java hashCode(group id)) mod 50: g-coop 15, payments-ledger 47, as Kafka's partitionFor says)
fixture_start offsets-topic.json || exit 1
"$KGTOP" -c none -b "$BOOTSTRAP" --once --json >"$T_TMP/offsets.json" 2>&1
t_is "$?" 0 "--once --json on a cluster listing __consumer_offsets exits 0"
t_is "$("$JSONQ" '.groups[0].offsets_partition' <"$T_TMP/offsets.json")" 15 "g-coop's offsets live in __consumer_offsets-15"
t_is "$("$JSONQ" '.groups[1].offsets_partition' <"$T_TMP/offsets.json")" 47 "payments-ledger's in __consumer_offsets-47"
fixture_stop

# --once makes exactly one refresh, even when it takes longer than the interval: one ListGroups per broker (3)
fixture_start "$top_srcdir/tests/integration/scenarios/slow-describe.json" || exit 1
"$KGTOP" -c none -b "$BOOTSTRAP" -i 0.1 --once --json >"$T_TMP/one.json" 2>&1
t_is "$?" 0 "--once -i 0.1 exits 0"
t_is "$("$JSONQ" .refresh <"$T_TMP/one.json")" 1 "its JSON says refresh 1"
fixture_stop
t_is "$(awk -F'"ListGroups":' '/requests/{split($2,a,","); print a[1]}' "$FIXTURE_STATS")" 3 "--once listed the groups once (one ListGroups per broker)"

# --json writes a line per refresh, numbered, each group with the time of its data
fixture_start stable.json --manual || exit 1
"$KGTOP" -c none -b "$BOOTSTRAP" -i 0.2 --json --duration 2 >"$T_TMP/lines.json" 2>&1
t_is "$?" 0 "--json --duration exits 0"
# a line marked "stale" (the cadence kept while a refresh is late, as on a loaded machine) repeats
# the last refresh's number: every other line carries a new one
"$JSONQ" -l .refresh <"$T_TMP/lines.json" >"$T_TMP/lines.refresh"
"$JSONQ" -l .stale <"$T_TMP/lines.json" >"$T_TMP/lines.stale"
t_is "$(paste -d' ' "$T_TMP/lines.refresh" "$T_TMP/lines.stale" | awk '$2 == "true" { st++; next } n > 0 && $1 <= p { bad++ } { p = $1; n++ } END { print (n >= 3 && !bad) ? "increasing" : "not: " n " lines, " bad " repeats" }')" increasing "each --json line but a stale one carries a new refresh number"
t_is "$("$JSONQ" -l '.groups[0].data_time' <"$T_TMP/lines.json" | grep -c '^20')" "$(wc -l <"$T_TMP/lines.json" | tr -d ' ')" "each line's groups say when their data was asked"
"$KGTOP" -c none -b "$BOOTSTRAP" --max-requests 5 --once >"$T_TMP/out" 2>&1
t_is "$?" 2 "--max-requests below 10 is a usage error"
"$KGTOP" -c none -b "$BOOTSTRAP" --full-refresh 0.5 --once >"$T_TMP/out" 2>&1
t_is "$?" 2 "--full-refresh below a second is a usage error"
"$KGTOP" -c none -b "$BOOTSTRAP" --max-requests 50 --full-refresh 10 --once >"$T_TMP/out" 2>&1
t_is "$?" 0 "--max-requests and --full-refresh are accepted"
fixture_stop

# names from the cluster never reach the terminal raw (escape sequences)
fixture_stop
fixture_start "$top_srcdir/tests/integration/scenarios/hostile.json" --manual || exit 1
"$KGTOP" -b "$BOOTSTRAP" --once >"$T_TMP/hostile" 2>&1
t_ok $? "--once with hostile names exits 0"
if LC_ALL=C grep -q "$(printf '\033')" "$T_TMP/hostile" || LC_ALL=C grep -q "$(printf '\302\233')" "$T_TMP/hostile"; then
	t_ok 1 "--once prints no escape sequence from the cluster"
else
	t_ok 0 "--once prints no escape sequence from the cluster"
fi
t_contains "$T_TMP/hostile" "GROUP g-?[31mred" "the hostile group name is shown, defused"
"$KGTOP" -b "$BOOTSTRAP" --once --json >"$T_TMP/hostile.json" 2>&1
"$JSONQ" -v <"$T_TMP/hostile.json"
t_ok $? "--json stays valid with hostile names"
fixture_stop

# trace streams alone, read by the binary: a coordinator log, and consumers' callbacks (jsonl)
"$KGTOP" --trace "log:file://$(cd "$top_srcdir" && pwd)/tests/data/logs/kafka-3.7-classic.log" --trace-from-start --once --json >"$T_TMP/log.json" 2>&1
t_ok $? "--trace log: with --once exits 0"
"$JSONQ" '.events[]' <"$T_TMP/log.json" | "$JSONQ" -l .message >"$T_TMP/log.events"
t_contains "$T_TMP/log.events" "rebalance started (unknown, left: worker-3 (max.poll.interval), from generation 20)" "a poll timeout in the log is the trigger, in short"
t_contains "$T_TMP/log.events" "rebalance ended after 2.5s, 1 round, generation 21" "the log gives the episode its duration and generation"
"$KGTOP" --trace "log:file://$(cd "$top_srcdir" && pwd)/tests/data/logs/kafka-3.7-classic.log" --trace-from-start --once >"$T_TMP/log.txt" 2>&1
t_contains "$T_TMP/log.txt" "GROUP payments-ledger" "a log trace alone lists the groups its coordinator named"
t_contains "$T_TMP/log.txt" "trace streams only" "and says there is no cluster to poll"
"$KGTOP" --trace "jsonl:file://$(cd "$top_srcdir" && pwd)/tests/data/trace/seed-coop.jsonl" --trace-from-start --once --json >"$T_TMP/jsonl.json" 2>&1
t_ok $? "--trace jsonl: with --once exits 0"
t_is "$("$JSONQ" '.groups[0].members|length' <"$T_TMP/jsonl.json")" 4 "a jsonl stream describes its group's members"
t_is "$("$JSONQ" '.groups[0].protocol' <"$T_TMP/jsonl.json")" cooperative "and its protocol"
"$JSONQ" '.events[]' <"$T_TMP/jsonl.json" | "$JSONQ" -l .message >"$T_TMP/jsonl.events"
t_contains "$T_TMP/jsonl.events" "consumer-a revoked [4] of [0 4] (incremental)" "callbacks read from jsonl are classified as the seed says"
"$KGTOP" --trace "log:file://$(cd "$top_srcdir" && pwd)/tests/data/logs/kafka-3.7-classic.log" --trace-from-start --once --json -g '^orders' >"$T_TMP/log-g.json" 2>&1
"$JSONQ" '.events[]' <"$T_TMP/log-g.json" | "$JSONQ" -l .group | sort -u >"$T_TMP/log-g.groups"
t_is "$(cat "$T_TMP/log-g.groups" | tr '\n' ' ')" "orders-v2 " "-g filters trace streams too"
"$KGTOP" --trace bogus:file:///x --once >"$T_TMP/bad-trace" 2>&1
t_is "$?" 2 "an unknown trace kind exits 2"
"$KGTOP" -c none --trace "log:file://$T_TMP/no-such.log" --once >"$T_TMP/no-trace" 2>"$T_TMP/no-trace.err"
t_is "$?" 1 "--once when no source can be read exits 1"
t_contains "$T_TMP/no-trace.err" "no source could be read" "and says so on stderr"

"$KGTOP" -c none -b 127.0.0.1:1 --once --timeout 30 >"$T_TMP/down" 2>&1
t_is "$?" 1 "an unreachable cluster exits 1"
t_contains "$T_TMP/down" "Connect to ipv4#127.0.0.1:1 failed: Connection refused" "saying why, in librdkafka's words"
t_is "$(grep -o '127\.0\.0\.1:1\b' "$T_TMP/down" | wc -l)" 1 "naming the broker once"
if grep -q "no answer within" "$T_TMP/down"; then
	t_ok 1 "without waiting for the timeout (librdkafka said so)"
else
	t_ok 0 "without waiting for the timeout (librdkafka said so)"
fi
"$KGTOP" -c none -b 127.0.0.1:1 --json --duration 3 >"$T_TMP/down.json" 2>&1
t_is "$(head -1 "$T_TMP/down.json" | "$JSONQ" .source.kafka.status)" error "--json says at once that the cluster cannot be reached"
t_contains "$T_TMP/down.json" "Connection refused" "in librdkafka's words"
"$KGTOP" -c none -b nosuchhost.invalid:9092 --once >"$T_TMP/resolve" 2>&1
t_contains "$T_TMP/resolve" "Failed to resolve 'nosuchhost.invalid:9092': Name or service not known" "an unknown host is named as such, in librdkafka's words"
t_is "$(grep -o 'nosuchhost' "$T_TMP/resolve" | wc -l)" 1 "once"

# option errors: usage status, where the mistake is, never a secret
"$KGTOP" -c none -b '' --once >"$T_TMP/empty-b" 2>&1
t_is "$?" 2 "-b '' is a usage error"
printf 'client.id=x\nsasl.pasword=hunter5\n' >"$T_TMP/props"
"$KGTOP" -c none -b 127.0.0.1:1 -F "$T_TMP/props" --once >"$T_TMP/props.err" 2>&1
t_contains "$T_TMP/props.err" "$T_TMP/props:2: sasl.pasword:" "-F errors name the file and line"
printf 'X.sasl.password hunter6\n' >"$T_TMP/badconf"
"$KGTOP" -c "$T_TMP/badconf" --once >"$T_TMP/badconf.err" 2>&1
t_is "$?" 2 "a malformed config line is a usage error"
t_contains "$T_TMP/badconf.err" "badconf:1: X.sasl.password: expected X.key = value" "naming the key"
if grep -q hunter6 "$T_TMP/badconf.err"; then t_ok 1 "without its value"; else t_ok 0 "without its value"; fi
printf 'once = yes\n' >"$T_TMP/cliconf"
"$KGTOP" -c "$T_TMP/cliconf" >"$T_TMP/cliconf.err" 2>&1
t_contains "$T_TMP/cliconf.err" "once is for the command line only" "command-line-only options are named as such in a config file"

t_done
