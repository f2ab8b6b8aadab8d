# lib.sh: TAP helpers and the fixture broker for shell tests.
# Sourced by tests/cli/*.sh and tests/tmux/*.sh; no fixed sleeps: poll with deadlines.

: "${top_builddir:=.}"
: "${top_srcdir:=.}"
KGTOP="$top_builddir/kgtop"
JSONQ="$top_builddir/tests/tools/jsonq"
FIXTURE="$top_builddir/tests/fixture-broker"
T_N=0
T_FAILED=0
T_TMP=$(mktemp -d /tmp/kgtop-sh-XXXXXX)
T_PIDS=""

t_cleanup() {
	for p in $T_PIDS; do kill "$p" 2>/dev/null; done
	[ -n "${KGTOP_KEEP_TEST_FILES:-}" ] || rm -rf "$T_TMP"
}
trap t_cleanup EXIT

# ok CONDITION-EXIT-STATUS DESCRIPTION
t_ok() {
	T_N=$((T_N + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $T_N - $2"
	else
		echo "not ok $T_N - $2"
		T_FAILED=$((T_FAILED + 1))
	fi
}

# t_is GOT WANT DESCRIPTION
t_is() {
	if [ "$1" = "$2" ]; then
		t_ok 0 "$3"
	else
		t_ok 1 "$3"
		echo "#   got:  '$1'"
		echo "#   want: '$2'"
	fi
}

# t_contains FILE TEXT DESCRIPTION
t_contains() {
	if grep -qF -- "$2" "$1"; then
		t_ok 0 "$3"
	else
		t_ok 1 "$3"
		echo "#   '$2' not in $1:"
		head -20 "$1" | sed 's/^/#   /'
	fi
}

# t_lacks FILE TEXT DESCRIPTION
t_lacks() {
	if grep -qF -- "$2" "$1"; then
		t_ok 1 "$3"
		echo "#   '$2' in $1:"
		head -20 "$1" | sed 's/^/#   /'
	else
		t_ok 0 "$3"
	fi
}

# t_wait_for SECONDS COMMAND...: poll COMMAND until it succeeds or the deadline passes
t_wait_for() {
	t_deadline=$(($(date +%s) + $1))
	shift
	while [ "$(date +%s)" -le "$t_deadline" ]; do
		"$@" && return 0
		sleep 0.05 # poll until the deadline
	done
	return 1
}

t_done() {
	echo "1..$T_N"
	[ "$T_FAILED" -eq 0 ]
}

# fixture_start SCENARIO [--manual]: sets BOOTSTRAP, FIXTURE_PID, FIXTURE_STATS
fixture_start() {
	scen="$1"
	shift
	case "$scen" in */*) ;; *) scen="$top_srcdir/tests/fixture/scenarios/$scen" ;; esac
	FIXTURE_STATS="$T_TMP/stats.$$.json"
	# a broker started before left its ready line here: gone before this one starts, or it would be read
	rm -f "$T_TMP/fixture.out" "$FIXTURE_STATS"
	"$FIXTURE" --port 0 --scenario "$scen" --stats "$FIXTURE_STATS" "$@" >"$T_TMP/fixture.out" 2>"$T_TMP/fixture.err" &
	FIXTURE_PID=$!
	T_PIDS="$T_PIDS $FIXTURE_PID"
	BOOTSTRAP=""
	t_deadline=$(($(date +%s) + 10))
	while [ "$(date +%s)" -lt "$t_deadline" ]; do
		BOOTSTRAP=$(awk '/^ready /{print $2}' "$T_TMP/fixture.out" 2>/dev/null)
		[ -n "$BOOTSTRAP" ] && return 0
		sleep 0.05 # poll the ready line until the deadline
	done
	echo "# fixture did not start: $(cat "$T_TMP/fixture.err")"
	return 1
}

fixture_stop() {
	kill "$FIXTURE_PID" 2>/dev/null
	wait "$FIXTURE_PID" 2>/dev/null
}
