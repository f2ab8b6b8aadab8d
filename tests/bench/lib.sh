# tests/bench/lib.sh: what the bench scripts share, sourced (. "$top_srcdir/tests/bench/lib.sh") after they set
# top_srcdir and top_builddir. bench_init makes the temp dir ($TMP) and the trap that ends every fixture broker
# started (and the tmux server $SOCK when the script names one) and removes the dir; bench_fixture starts a fixture
# broker and waits for its ready line; bench_requests reads the requests one answered; bench_cpu_ns reads a
# process's CPU time. No verdict here: the scripts print figures and ratios.
FIXTURE="$top_builddir/tests/fixture-broker"
FX=""
SOCK=${SOCK:-}

# bench_init NAME: $TMP, a fresh temp dir kgtop-NAME.XXXXXX, and the cleanup on exit or signal
bench_init() {
	BENCH=$1
	TMP=$(mktemp -d "${TMPDIR:-/tmp}/kgtop-$1.XXXXXX") || exit 1
	trap bench_cleanup EXIT INT TERM
}
bench_cleanup() {
	[ -n "$SOCK" ] && tmux -L "$SOCK" kill-server 2>/dev/null
	[ -n "$FX" ] && kill $FX 2>/dev/null
	rm -rf "$TMP"
}

# bench_scenario FILE: the scenario's path (a bare name is one of tests/fixture/scenarios)
bench_scenario() {
	case "$1" in */*) echo "$1" ;; *) echo "$top_srcdir/tests/fixture/scenarios/$1" ;; esac
}

# bench_fixture NAME SCENARIO [TRIES]: a fixture broker of its own (its stats in $TMP/NAME.stats, rewritten every
# 50 ms), its ready line polled every 0.1 s at most TRIES times (default 100; a broker building 10,000 groups
# needs more); sets B_NAME to its bootstrap, or exits with its error
bench_fixture() {
	"$FIXTURE" --port 0 --scenario "$(bench_scenario "$2")" --stats "$TMP/$1.stats" >"$TMP/$1.fx.out" \
		2>"$TMP/$1.fx.err" &
	FX="$FX $!"
	b=""
	i=0
	while [ -z "$b" ] && [ $i -lt "${3:-100}" ]; do
		b=$(awk '/^ready /{print $2}' "$TMP/$1.fx.out" 2>/dev/null)
		i=$((i + 1))
		[ -n "$b" ] || sleep 0.1 # poll the ready line
	done
	[ -n "$b" ] || { echo "bench-$BENCH: the fixture broker did not start: $(cat "$TMP/$1.fx.err")"; exit 1; }
	eval "B_$1=\$b"
}

# bench_requests NAME: the requests the fixture broker NAME answered so far
bench_requests() {
	sed 's/.*"requests":{\([^}]*\)}.*/\1/' "$TMP/$1.stats" 2>/dev/null | tr ',' '\n' |
		awk -F: '{ s += $2 } END { print s + 0 }'
}

# bench_cpu_ns PID: the process's CPU time so far (all its threads), in nanoseconds: the scheduler's count where
# /proc/PID/task/*/schedstat is there, else utime + stime in clock ticks
bench_cpu_ns() {
	if [ -r "/proc/$1/schedstat" ]; then
		cat /proc/"$1"/task/*/schedstat 2>/dev/null | awk '{ s += $1 } END { if (NR) printf "%.0f\n", s }'
	else
		# the command name (field 2) may hold spaces: count from the last ')'
		sed 's/.*) //' "/proc/$1/stat" 2>/dev/null |
			awk -v hz="$(getconf CLK_TCK)" '{ printf "%.0f\n", ($12 + $13) * 1e9 / hz }'
	fi
}
