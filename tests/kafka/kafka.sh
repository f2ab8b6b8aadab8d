# kafka.sh: Apache Kafka in the test loop (issue 20). Sourced by tests/kafka/t_*.sh after
# tests/cli/lib.sh (TAP helpers). It starts a KRaft cluster on loopback from the jars
# `make kafka-deps` fetched (tests/kafka/pom.xml), the consumer fleet (kgtop.harness.Fleet) and the
# tools, each a JVM with a bounded heap, and stops every process it started, by its pid, on any
# exit (a trap): no JVM is left behind. Every wait has a deadline; a broker that does not start
# fails with the tail of its log.
#
#   kafka_start [N]        N=1: one combined broker+controller; N=3: three of them (a quorum of 3)
#                          sets KAFKA_BOOT (host:port,...), KAFKA_LOG1.. (each broker's log)
#   kafka_kill I           SIGKILL broker I (coordinator movement)
#   fleet_start [JVM-OPT]  the consumer fleet; fleet CMD... sends a command and waits for its ack
#   fleet_wait SECONDS ERE waits for a fleet output line matching ERE (grep -E)
#   kcg ARGS...            kafka-consumer-groups.sh (ConsumerGroupCommand) against the cluster
#   kafka_stop             stops everything (also done at exit)
# Environment: KAFKA_START_TIMEOUT (seconds, default 120), KAFKA_START_TRIES (default 3),
# KGTOP_KEEP_TEST_FILES=1 keeps the run directory (logs, data) under tests/kafka/run/.

KAFKA_DIR="$top_builddir/tests/kafka/target"
KAFKA_SRC="$top_srcdir/tests/kafka"
KRUN="$(cd "$top_builddir" && pwd)/tests/kafka/run/$(basename "$0" .sh).$$"
KAFKA_PIDS=""
FLEET_PID=""
FLEET_N=0
KAFKA_HEAP="${KAFKA_HEAP:--Xmx384m}"
# the brokers' log times, date(1) and kgtop read the same zone
TZ=UTC
export TZ
# C1 only and the serial collector: these JVMs start faster and take less of 2 cores
JAVA_OPTS_K="-Xms64m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -Djava.awt.headless=true"

if [ ! -s "$KAFKA_DIR/classpath.txt" ] || [ ! -d "$KAFKA_DIR/classes" ]; then
	echo "Bail out! tests/kafka: no $KAFKA_DIR/classpath.txt: run make kafka-deps (make check does)"
	exit 1
fi
KAFKA_CP="$(cd "$KAFKA_DIR" && pwd)/classes:$(cat "$KAFKA_DIR/classpath.txt")"
mkdir -p "$KRUN" || exit 1

# kafka_cleanup: SIGKILL what this script started (the data is thrown away: no clean shutdown needed)
kafka_cleanup() {
	for p in $FLEET_PID $KAFKA_PIDS; do kill -9 "$p" 2>/dev/null; done
	for p in $FLEET_PID $KAFKA_PIDS; do wait "$p" 2>/dev/null; done
	FLEET_PID=""
	KAFKA_PIDS=""
	exec 7>&- 2>/dev/null
	[ -n "${KGTOP_KEEP_TEST_FILES:-}" ] || rm -rf "$KRUN"
}
trap 'kafka_cleanup; t_cleanup' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

# kjava HEAP-OPTS LOG4J-CONFIG CLASS ARGS...: a JVM on the harness' classpath, in the foreground
kjava() {
	_kh=$1
	_kl=$2
	shift 2
	# shellcheck disable=SC2086
	java $_kh $JAVA_OPTS_K -Dkgtop.run="$KRUN" -Dlog4j2.configurationFile="$KAFKA_SRC/$_kl" -cp "$KAFKA_CP" "$@"
}

# kjava_bg IN OUT ERR HEAP-OPTS LOG4J-CONFIG CLASS ARGS...: the same in the background; KJ_PID is
# the JVM's own pid (started from this function's shell, not from a subshell that a kill would miss)
kjava_bg() {
	_ki=$1
	_ko=$2
	_ke=$3
	_kh=$4
	_kl=$5
	shift 5
	# shellcheck disable=SC2086
	java $_kh $JAVA_OPTS_K -Dkgtop.run="$KRUN" -Dlog4j2.configurationFile="$KAFKA_SRC/$_kl" -cp "$KAFKA_CP" "$@" \
		<"$_ki" >"$_ko" 2>"$_ke" &
	KJ_PID=$!
}

# kafka_free_port: a loopback port nobody listens on now (a taken one makes the broker fail
# quickly, with its log: the caller then tries new ports)
kafka_free_port() {
	while :; do
		p=$((15000 + $(od -An -N2 -tu2 /dev/urandom) % 17000))
		hex=$(printf '%04X' "$p")
		grep -q ":$hex 00000000:0000 0A\|:$hex 00000000000000000000000000000000:0000 0A" \
			/proc/net/tcp /proc/net/tcp6 2>/dev/null || { echo "$p"; return; }
	done
}

# kafka_props I N PORT CPORT VOTERS: broker I's server.properties
kafka_props() {
	cat <<EOF
process.roles=broker,controller
node.id=$1
listeners=PLAINTEXT://127.0.0.1:$3,CONTROLLER://127.0.0.1:$4
advertised.listeners=PLAINTEXT://127.0.0.1:$3
controller.listener.names=CONTROLLER
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT
inter.broker.listener.name=PLAINTEXT
controller.quorum.voters=$5
log.dirs=$KRUN/node$1/data
num.partitions=1
default.replication.factor=$2
offsets.topic.replication.factor=$2
offsets.topic.num.partitions=50
transaction.state.log.replication.factor=$2
transaction.state.log.min.isr=1
min.insync.replicas=1
auto.create.topics.enable=false
group.initial.rebalance.delay.ms=0
group.min.session.timeout.ms=1000
group.consumer.min.session.timeout.ms=1000
group.consumer.session.timeout.ms=6000
group.consumer.min.heartbeat.interval.ms=500
group.consumer.heartbeat.interval.ms=500
log.retention.check.interval.ms=1000
num.network.threads=2
num.io.threads=2
num.recovery.threads.per.data.dir=1
background.threads=2
EOF
}

# kafka_tail I: broker I's errors, the end of its log and of its standard error, as TAP comments
kafka_tail() {
	echo "# --- broker $1's errors ($KRUN/node$1/server.log)"
	grep -E '^\[[^]]*\] (ERROR|FATAL) |^(Caused by: )?[a-zA-Z0-9_.$]+(Exception|Error)(: |$)' "$KRUN/node$1/server.log" 2>/dev/null |
		tail -n 10 | cut -c1-400 | sed 's/^/#   /'
	echo "# --- the last lines of broker $1's log"
	tail -n 15 "$KRUN/node$1/server.log" 2>/dev/null | cut -c1-400 | sed 's/^/#   /'
	tail -n 10 "$KRUN/node$1/stderr" 2>/dev/null | sed 's/^/#   stderr: /'
}

# kafka_try N: format and start N brokers on fresh ports; 0 once all say started
kafka_try() {
	n=$1
	voters=""
	i=1
	while [ "$i" -le "$n" ]; do
		eval "KPORT$i=\${KAFKA_PORT$i:-$(kafka_free_port)}" # KAFKA_PORTi: a port of the caller's (t_harness.sh)
		eval "KCPORT$i=$(kafka_free_port)"
		eval "voters=\"\${voters:+\$voters,}$i@127.0.0.1:\$KCPORT$i\""
		i=$((i + 1))
	done
	# a cluster id: 16 random bytes in base64url, none of '-' or '_' (a leading '-' reads as an option)
	cid=$(head -c 16 /dev/urandom | base64 | tr '+/' 'AB' | cut -c1-22)
	KAFKA_BOOT=""
	i=1
	while [ "$i" -le "$n" ]; do
		eval "p=\$KPORT$i; c=\$KCPORT$i"
		rm -rf "$KRUN/node$i"
		mkdir -p "$KRUN/node$i"
		kafka_props "$i" "$n" "$p" "$c" "$voters" >"$KRUN/node$i/server.properties"
		KAFKA_BOOT="${KAFKA_BOOT:+$KAFKA_BOOT,}127.0.0.1:$p"
		# format the storage (what kafka-storage.sh format does), each node in turn
		if ! kjava -Xmx128m log4j2-tools.properties kafka.tools.StorageTool format -t "$cid" \
			-c "$KRUN/node$i/server.properties" >"$KRUN/node$i/format.out" 2>&1; then
			echo "# formatting broker $i failed:"
			tail -n 15 "$KRUN/node$i/format.out" | sed 's/^/#   /'
			return 1
		fi
		i=$((i + 1))
	done
	i=1
	while [ "$i" -le "$n" ]; do
		kjava_bg /dev/null "$KRUN/node$i/stdout" "$KRUN/node$i/stderr" "$KAFKA_HEAP" log4j2-broker.properties \
			-Dkgtop.log="$KRUN/node$i/server.log" kafka.Kafka "$KRUN/node$i/server.properties"
		eval "KPID$i=$KJ_PID"
		KAFKA_PIDS="$KAFKA_PIDS $KJ_PID"
		eval "KAFKA_LOG$i=\$KRUN/node$i/server.log"
		i=$((i + 1))
	done
	deadline=$(($(date +%s) + ${KAFKA_START_TIMEOUT:-120}))
	i=1
	while [ "$i" -le "$n" ]; do
		eval "pid=\$KPID$i"
		while ! grep -q 'Kafka Server started' "$KRUN/node$i/server.log" 2>/dev/null; do
			if ! kill -0 "$pid" 2>/dev/null; then
				echo "# broker $i (pid $pid) exited before it started"
				kafka_tail "$i"
				return 2
			fi
			if [ "$(date +%s)" -ge "$deadline" ]; then
				echo "# broker $i did not start within ${KAFKA_START_TIMEOUT:-120} s"
				kafka_tail "$i"
				return 1
			fi
			sleep 0.2 # poll the broker's log until the deadline
		done
		i=$((i + 1))
	done
	return 0
}

# kafka_start [N]: a cluster of N brokers (default 1); a broker that exits at once (a port taken
# between the choice and the bind) is tried again on new ports, twice at most
kafka_start() {
	tries=0
	while :; do
		kafka_try "${1:-1}"
		rc=$?
		[ "$rc" -eq 0 ] && return 0
		for p in $KAFKA_PIDS; do kill -9 "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
		KAFKA_PIDS=""
		tries=$((tries + 1))
		if [ "$rc" -ne 2 ] || [ "$tries" -ge "${KAFKA_START_TRIES:-3}" ] ||
			! grep -q 'Address already in use' "$KRUN"/node*/server.log "$KRUN"/node*/stderr 2>/dev/null; then
			return 1
		fi
		echo "# a port was taken: again on other ports"
	done
}

# kafka_kill I: SIGKILL broker I (no controlled shutdown: its groups' coordinator disappears)
kafka_kill() {
	eval "pid=\$KPID$1"
	kill -9 "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
}

# kafka_up [N [FLEET-JVM-OPTION...]]: N brokers (default 1) and the fleet, each a test point; the
# test ends (failed) when either does not start
kafka_up() {
	_n=${1:-1}
	[ $# -gt 0 ] && shift
	if ! kafka_start "$_n"; then
		t_ok 1 "$_n Kafka broker(s) start"
		t_done
		exit 1
	fi
	t_ok 0 "$_n Kafka broker(s) start ($KAFKA_BOOT)"
	if ! fleet_start "$@"; then
		t_ok 1 "the fleet starts"
		t_done
		exit 1
	fi
	t_ok 0 "the fleet starts${1:+ ($*)}"
}

# fleet_start [JVM-OPTION...]: the consumer fleet on the cluster, fed through a FIFO held open on fd 7
fleet_start() {
	rm -f "$KRUN/fleet.in"
	mkfifo "$KRUN/fleet.in" || return 1
	kjava_bg "$KRUN/fleet.in" "$KRUN/fleet.out" "$KRUN/fleet.err" -Xmx256m log4j2-tools.properties \
		"$@" kgtop.harness.Fleet "$KAFKA_BOOT"
	FLEET_PID=$KJ_PID
	exec 7>"$KRUN/fleet.in"
	FLEET=$KRUN/fleet.out
	fleet_wait 60 '"ev":"ready"' || { echo "# the fleet did not start:"; tail -n 20 "$KRUN/fleet.err" | sed 's/^/#   /'; return 1; }
}

# fleet_wait SECONDS ERE: wait for a line of the fleet's output matching ERE
fleet_wait() {
	t_wait_for "$1" grep -qE -- "$2" "$FLEET"
}

# fleet_count ERE: how many lines of the fleet's output match ERE
fleet_count() {
	grep -cE -- "$1" "$FLEET"
}

# fleet CMD...: send one command and wait for its ack (60 s); 1 and the error on failure
fleet() {
	FLEET_N=$((FLEET_N + 1))
	echo "$*" >&7
	if ! fleet_wait 60 "\"ev\":\"(ack|error)\",\"n\":$FLEET_N,"; then
		echo "# fleet: no answer to '$*' within 60 s"
		tail -n 10 "$KRUN/fleet.err" | sed 's/^/#   /'
		return 1
	fi
	if grep -q "\"ev\":\"error\",\"n\":$FLEET_N," "$FLEET"; then
		echo "# fleet: $(grep "\"ev\":\"error\",\"n\":$FLEET_N," "$FLEET")"
		return 1
	fi
}

# kcg ARGS...: kafka-consumer-groups.sh, i.e. Kafka's ConsumerGroupCommand, from the same jars
kcg() {
	kjava -Xmx256m log4j2-tools.properties org.apache.kafka.tools.consumer.group.ConsumerGroupCommand \
		--bootstrap-server "$KAFKA_BOOT" "$@"
}

# kafka_none_left: 0 when no JVM of this run is alive (pgrep leaves itself out)
kafka_none_left() {
	! pgrep -f -- "-Dkgtop.run=$KRUN" >/dev/null
}

# kafka_no_jvm_left: 0 when no process of this run directory is alive (naming those that are)
kafka_no_jvm_left() {
	# a child JVM of the fleet (jvm=child) ends on its own once the fleet's pipe closes: 10 s for that
	t_wait_for 10 kafka_none_left
	left=$(pgrep -f -- "-Dkgtop.run=$KRUN")
	[ -z "$left" ] && return 0
	for p in $left; do echo "# left: $(tr '\0' ' ' </proc/$p/cmdline | cut -c1-200)"; done
	return 1
}

# kafka_stop: stop the fleet and the brokers now (the test then checks that none is left)
kafka_stop() {
	for p in $FLEET_PID $KAFKA_PIDS; do kill -9 "$p" 2>/dev/null; done
	for p in $FLEET_PID $KAFKA_PIDS; do wait "$p" 2>/dev/null; done
	FLEET_PID=""
	KAFKA_PIDS=""
	exec 7>&- 2>/dev/null
}

# fleet_committed GROUP TOPIC-PARTITION: the last offset the fleet committed there for GROUP (or -1)
fleet_committed() {
	v=$(grep "\"ev\":\"commit\",\"c\":\"[^\"]*\",\"group\":\"$1\"," "$FLEET" | grep -o "\"$2\":[0-9]*" | tail -1 | cut -d: -f2)
	echo "${v:--1}"
}

# fleet_owned CLIENT: what the member last said it owns (its callbacks' "owned", as JSON)
fleet_owned() {
	grep -E "\"ev\":\"(assigned|revoked|lost)\",\"c\":\"$1\"," "$FLEET" | tail -1 | sed 's/.*"owned":\(\[[^]]*\]\).*/\1/'
}

# kafka_pending ISSUE DESCRIPTION GOT TRUTH: a disagreement another issue fixes (tests/kafka/DISAGREEMENTS.md).
# Not a test point unless KGTOP_PENDING lists ISSUE (e.g. KGTOP_PENDING="21 23"): then it must hold.
kafka_pending() {
	case " ${KGTOP_PENDING:-} " in
	*" $1 "*) t_is "$3" "$4" "$2 (issue $1)" ;;
	*)
		if [ "$3" = "$4" ]; then
			echo "# pending issue $1 now agrees: $2 (turn it on: KGTOP_PENDING=$1)"
		else
			echo "# pending issue $1: $2: kgtop '$3', the truth '$4'"
		fi
		;;
	esac
}

# kgtop_rows FILE: kgtop --once's partition rows, the nine columns it shares with kafka-consumer-groups.sh
kgtop_rows() {
	awk '/^[^ ]/ && NF >= 11 && $1 != "GROUP" && $3 ~ /^[0-9]+$/ { print $1, $2, $3, $4, $5, $6, $7, $8, $9 }' "$1" | sort
}

# kcg_rows FILE: kafka-consumer-groups.sh --describe's rows
kcg_rows() {
	awk 'NF >= 9 && $1 != "GROUP" && $3 ~ /^[0-9]+$/ { print $1, $2, $3, $4, $5, $6, $7, $8, $9 }' "$1" | sort
}

# fleet_tsv: the fleet's callbacks as "t ev client group gen parts owned" lines (parts and owned
# t1-0,t1-1 or -), in the order they were written
fleet_tsv() {
	sed -n 's/^{"t":\([0-9]*\),"ev":"\(assigned\|revoked\|lost\)","c":"\([^"]*\)","group":"\([^"]*\)","gen":\(-*[0-9]*\),"member":"[^"]*","parts":\[\([^]]*\)\],"owned":\[\([^]]*\)\].*/\1 \2 \3 \4 \5 P\6 O\7/p' "$FLEET" |
		tr -d '"' | sed 's/ P$/ -/; s/ P / - /; s/ P/ /; s/ O$/ -/; s/ O/ /'
}

# truth_cost GROUP SINCE-MS [UNTIL-MS]: from the fleet's callbacks from SINCE to UNTIL, what an episode cost:
# "members_stopped stopped_member_ms partitions_unconsumed unconsumed_partition_ms" (a member is
# stopped from a revoke that leaves it nothing to its next assignment; a partition is unconsumed
# from its revoke to its next owner's assignment)
truth_cost() {
	fleet_tsv | awk -v g="$1" -v since="$2" -v until="${3:-99999999999999}" '
	$4 != g || $1 < since || $1 > until { next }
	$2 == "revoked" && $6 != "-" {
		n = split($6, ps, ",")
		for (i = 1; i <= n; i++) if (!(ps[i] in rev)) rev[ps[i]] = $1
		if ($7 == "-" && !($3 in stop)) stop[$3] = $1
	}
	$2 == "assigned" {
		if (($3 in stop) && !($3 in back)) { back[$3] = 1; sms += $1 - stop[$3]; ms++ }
		if ($6 != "-") {
			n = split($6, ps, ",")
			for (i = 1; i <= n; i++) if ((ps[i] in rev) && !(ps[i] in done)) { done[ps[i]] = 1; pms += $1 - rev[ps[i]]; pn++ }
		}
	}
	END { printf "%d %d %d %d\n", ms, sms, pn, pms }'
}

# fleet_t ERE: the time (ms) of the first fleet line matching ERE
fleet_t() {
	grep -E -- "$1" "$FLEET" | head -1 | sed 's/^{"t":\([0-9]*\).*/\1/'
}

# line_ms LINE: the epoch milliseconds of a broker log line ("[2026-12-04 16:39:32,663] INFO ...")
line_ms() {
	date -u -d "$(echo "$1" | sed 's/^\[\([0-9-]* [0-9:]*\),\([0-9]*\)\].*/\1.\2/')" +%s%3N
}

# log_ms FILE ERE [last]: the epoch milliseconds of the first (or last) log line matching ERE
log_ms() {
	l=$(grep -E -- "$2" "$1" | if [ "${3:-}" = last ]; then tail -1; else head -1; fi)
	[ -n "$l" ] || { echo ""; return; }
	line_ms "$l"
}

# kg_events JSONFILE [FROM [TO]]: the events of kgtop's complete --json lines (those after line
# FROM up to line TO), one compact object a line
kg_events() {
	_n=$(wc -l <"$1")
	_to=${3:-$_n}
	[ "$_to" -le "$_n" ] || _to=$_n
	[ "$_to" -gt "${2:-0}" ] || return 0
	sed -n "$((${2:-0} + 1)),${_to}p" "$1" | "$JSONQ" -l '.events[]' | grep '^{'
}

# kg_lines JSONFILE: how many complete lines kgtop has written (a phase's boundary for kg_events)
kg_lines() {
	wc -l <"$1"
}

# kg_group JSONLINE-FILE GROUP: the group's object in the last --json line of the file
kg_group() {
	_n=$(wc -l <"$1")
	[ "$_n" -gt 0 ] || return 1
	sed -n "${_n}p" "$1" | "$JSONQ" '.groups[]' | grep "^{\"id\":\"$2\""
}

# jnum KEY: the first number of "KEY": in standard input (compact JSON)
jnum() {
	grep -o "\"$1\":[-0-9.]*" | head -1 | cut -d: -f2
}

# jstr KEY: the first string of "KEY": in standard input
jstr() {
	grep -o "\"$1\":\"[^\"]*\"" | head -1 | cut -d'"' -f4
}

# kg_parts: an event's "partitions" (a set, {"t1":[0,1]}: --json schema 6) as t1-0,t1-1 (standard input: one event)
kg_parts() {
	sed 's/.*"partitions":{\([^}]*\)}.*/\1/' | grep -o '"[^"]*":\[[0-9,]*\]' |
		awk -F'"' '{ n = split(substr($3, 3, length($3) - 3), p, ","); for (i = 1; i <= n; i++) print $2 "-" p[i] }' |
		sort -t- -k2n | paste -sd, -
}

# le A B: A <= B for decimal numbers
le() {
	awk -v a="$1" -v b="$2" 'BEGIN { exit !(a != "" && b != "" && a + 0 <= b + 0) }'
}

# within JSON KEY TRUTH: KEY_min <= TRUTH <= KEY_max in the JSON object, KEY_max null meaning no upper bound
within() {
	le "$(echo "$1" | jnum "$2_min")" "$3" || return 1
	echo "$1" | grep -q "\"$2_max\":null" && return 0
	le "$3" "$(echo "$1" | jnum "$2_max")"
}

# kgtop_bg OUT ARGS...: kgtop in the background (KG_PID), killed at exit
kgtop_bg() {
	_o=$1
	shift
	# --json: every group every line (--full), since kg_group reads the last line's groups
	case " $* " in
	*" --json "*) set -- "$@" --full ;;
	esac
	"$KGTOP" "$@" >"$_o" 2>"$_o.err" &
	KG_PID=$!
	T_PIDS="$T_PIDS $KG_PID"
}

# kgtop_stop PID: SIGTERM, and wait for it (at most 10 s, then SIGKILL)
kgtop_stop() {
	kill "$1" 2>/dev/null
	t_wait_for 10 sh -c "! kill -0 $1 2>/dev/null" || kill -9 "$1" 2>/dev/null
	wait "$1" 2>/dev/null
}

# kg_dump JSONFILE [FROM]: kgtop's events (kind, group, client, reason, message) as TAP comments
kg_dump() {
	kg_events "$1" "${2:-0}" | grep -v '"kind":"\(source\|group_appeared\)"' |
		sed 's/.*"t":\([0-9.]*\),"kind":"\([a-z_]*\)","group":"\([^"]*\)".*"message":"\([^"]*\)".*/#   \1 \2 \3: \4/' | tail -n 30
}
