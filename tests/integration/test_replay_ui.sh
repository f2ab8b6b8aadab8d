#!/bin/sh
# test_replay_ui.sh: kgtop --replay drives the real dashboard in tmux:
# the REPLAY marker with the recorded time, pause and play, speed, the
# next rebalance, the answer to going back, every event of the recording
# reaching the event log, and q quits with the terminal restored.
: "${top_srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
KGTOP="$top_builddir/kgtop"
REC="$top_srcdir/tests/data/recordings/fixture-demo.kgrec"
. "$top_srcdir/tests/tmux/lib.sh"
command -v tmux >/dev/null || { echo "1..0 # SKIP tmux not installed"; exit 77; }
export KGTOP_THEMES="$top_srcdir/themes" LANG=C.UTF-8 LC_ALL=C.UTF-8 HOME=/nonexistent KGTOP_CONFIG=none TZ=UTC
unset NO_COLOR KGTOP_BROKERS
after='echo "kgtop exited $?"; stty -a | tr " ;" "\n\n" | grep -xE -- "-?(icanon|echo)" | tr "\n" " "; echo; exec cat'
start_s=$(( $(head -1 "$REC" | sed 's/.*"start_us":\([0-9]*\).*/\1/') / 1000000 ))
day=$(date -u -d "@$start_s" +%Y-%m-%d)

tstart 160 40 "$KGTOP --replay $REC --speed 2; $after"
check "the REPLAY marker with the recorded day" twait "REPLAY $day " 10
check "and the speed" twait " x2" 10
check "one clock: no refresh interval in a replay" tgone "every " 5
check "the recording's groups" twait "g-range" 10
tkeys ' '
check "space pauses the replay" twait "replay: paused at" 5
tkeys '['
check "no rebalance before the start" twait "replay: no rebalance started before" 5
tkeys ']'
check "] jumps to the next rebalance" twait "replay: rebalance of g-range" 5
check "g-range is rebalancing there" twait "Prep" 5
tkeys '['
check "going back: scrub with left/right" twait "scrub back with left/right" 5
tkeys '>'
check "> doubles the speed" twait "replay: 4x" 5
tkeys '>' '>' '>'
check "up to 32x" twait "replay: 32x" 5
tkeys ' '
check "space plays again" twait "replay: playing 32x" 5
tkeys j 4
check "the cooperative round two reaches the event log" twait "worker-d assigned [3]" 15
check "the recording plays to its end (g-audit goes Empty)" twait "Empty" 15
tkeys q
check "q quits with status 0" twait "kgtop exited 0" 5
check "the terminal is restored" twait "icanon echo" 5

# a damaged recording: the dashboard shows it, and after quitting stderr says where and the status is 1
T_TMP=$(mktemp -d /tmp/kgtop-replay-ui-XXXXXX)
head -n 20 "$REC" >"$T_TMP/damaged.kgrec"
echo '{"t":' >>"$T_TMP/damaged.kgrec"
tstart 160 40 "$KGTOP --replay $T_TMP/damaged.kgrec --speed 32 2>$T_TMP/damaged.err; $after"
check "a damaged recording shows as a replay error" twait "replay error" 20
tkeys q
check "q after damage quits with status 1" twait "kgtop exited 1" 5
check "stderr names the damage after the screen is gone" grep -q "stopped at line 21" "$T_TMP/damaged.err"
rm -rf "$T_TMP"
finish
