# tests/tmux/lib.sh: drive a program in a private tmux server and poll its
# screen with deadlines (no fixed sleeps).  Sourced by the tests/tmux/*.sh.
#   T_SOCK    private server (tmux -L), killed on exit
#   tstart W H CMD...   start CMD in a detached W x H session named t
#   twait TEXT [SECONDS]   poll capture-pane until TEXT shows (default 10 s)
#   tgone TEXT [SECONDS]   poll until TEXT no longer shows
#   tpoll SECONDS CMD...   poll until CMD succeeds (it reads the screen in T_LAST)
#   tkeys KEY...        send-keys
#   ok / not_ok / finish   TAP-ish output; finish exits non-zero on failure
#   tbroker SCENARIO [ARGS...]   the fixture broker (--manual) in $work: sets bpid, bootstrap
#   T_AFTER   what a session runs after kgtop: its exit status, the terminal's modes
set -u
T_SOCK="kgtop-test-$$"
T_N=0
T_FAIL=0
T_LAST=""

tmx() { tmux -L "$T_SOCK" -f /dev/null "$@"; }
tcleanup() { tmx kill-server >/dev/null 2>&1 || true; }
trap tcleanup EXIT INT TERM

# Start a session; the command runs under sh so its exit status and the
# terminal state afterwards can be shown in the pane.
tstart() {
	w=$1; h=$2; shift 2
	# a session that outlives the tests keeps the server up between them
	tmx has-session -t keep >/dev/null 2>&1 || tmx new-session -d -s keep 'exec cat'
	tmx kill-session -t t >/dev/null 2>&1 || true
	tmx new-session -d -s t -x "$w" -y "$h" "$*"
}

tcap() { tmx capture-pane -p -t t 2>/dev/null; }

# Wait (polling) until the screen contains $1, for at most $2 seconds.
twait() {
	deadline=$(( $(date +%s%N) / 1000000 + ${2:-10} * 1000 ))
	while :; do
		T_LAST=$(tcap)
		case "$T_LAST" in *"$1"*) return 0 ;; esac
		[ "$(( $(date +%s%N) / 1000000 ))" -ge "$deadline" ] && return 1
		sleep 0.05 # poll interval, bounded by the deadline above
	done
}

# Wait (polling) until the screen no longer contains $1.
tgone() {
	deadline=$(( $(date +%s%N) / 1000000 + ${2:-10} * 1000 ))
	while :; do
		T_LAST=$(tcap)
		case "$T_LAST" in *"$1"*) ;; *) return 0 ;; esac
		[ "$(( $(date +%s%N) / 1000000 ))" -ge "$deadline" ] && return 1
		sleep 0.05 # poll interval, bounded by the deadline above
	done
}

# Poll the screen (into T_LAST) until CMD... succeeds, for at most $1 seconds.
tpoll() {
	deadline=$(( $(date +%s%N) / 1000000 + $1 * 1000 )); shift
	while :; do
		T_LAST=$(tcap)
		"$@" && return 0
		[ "$(( $(date +%s%N) / 1000000 ))" -ge "$deadline" ] && return 1
		sleep 0.05 # poll interval, bounded by the deadline above
	done
}

tkeys() { tmx send-keys -t t "$@"; }

# After kgtop in a session: "kgtop exited N" and whether the terminal is back in icanon and echo.
T_AFTER='echo "kgtop exited $?"; stty -a | tr " ;" "\n\n" | grep -xE -- "-?(icanon|echo)" | tr "\n" " "; echo; exec cat'

# Start the fixture broker ($BROKER) on scenario (in tests/fixture/scenarios) with --manual and the
# stats in $work (a fresh directory); sets bpid and bootstrap.  On exit the broker, the tmux server
# and $work go.  A broker that is not ready within 10 s fails the test.
tbroker() {
	scen=$1
	shift
	"$BROKER" --port 0 --manual --scenario "$top_srcdir/tests/fixture/scenarios/$scen" \
		--stats "$work/stats.json" "$@" >"$work/ready" 2>"$work/broker.err" &
	bpid=$!
	trap 'kill "$bpid" 2>/dev/null; wait "$bpid" 2>/dev/null; tcleanup; rm -rf "$work"' EXIT INT TERM
	deadline=$(($(date +%s) + 10))
	until grep -q '^ready ' "$work/ready" 2>/dev/null; do
		[ "$(date +%s)" -ge "$deadline" ] && { echo "not ok 1 - fixture broker ready"; cat "$work/broker.err"; echo "1..1"; exit 1; }
		sleep 0.05 # poll interval, bounded by the deadline above
	done
	bootstrap=$(sed -n 's/^ready //p' "$work/ready")
}
# tenv: skip without tmux or the fixture broker ($BROKER); the environment of a UI test against the
# fixture broker (the tree's themes, UTF-8, no config, no colours or brokers from outside); $work, a new folder
tenv() {
	command -v tmux >/dev/null || { echo "1..0 # SKIP tmux not installed"; exit 77; }
	[ -x "$BROKER" ] || { echo "1..0 # SKIP no fixture broker"; exit 77; }
	export KGTOP_THEMES="$top_srcdir/themes" LANG=C.UTF-8 LC_ALL=C.UTF-8 HOME=/nonexistent KGTOP_CONFIG=none
	unset NO_COLOR KGTOP_BROKERS
	work=$(mktemp -d /tmp/kgtop-tmux-XXXXXX)
}
tfmt() { tmx display-message -p -t t "$1"; }

ok() { T_N=$((T_N + 1)); echo "ok $T_N - $1"; }
not_ok() {
	T_N=$((T_N + 1)); T_FAIL=$((T_FAIL + 1))
	echo "not ok $T_N - $1"
	printf '%s\n' "$T_LAST" | sed 's/^/#   | /'
}
# check DESCRIPTION COMMAND...: ok when the command succeeds.
check() { d=$1; shift; if "$@"; then ok "$d"; else not_ok "$d"; fi; }
finish() { echo "1..$T_N"; [ "$T_FAIL" -eq 0 ]; }
