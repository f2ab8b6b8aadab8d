#!/bin/sh
# screenshots/make.sh: regenerate screenshots/ from real runs (make screenshots).
# The dashboard runs in a private tmux server: tests/tmux/ui_driver (ui_run
# over the real collector, the seeds' scene), and the real kgtop against the
# fixture broker.  Each shot is saved as NAME.txt (capture-pane -p), NAME.ansi
# (capture-pane -e, colours) and NAME.png: the ANSI capture rendered to HTML
# by screenshots/ansi2html.py and photographed by headless Chromium
# (apt-get install -y chromium; without it the PNGs are skipped).
: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
OUT="$top_srcdir/screenshots"
DRIVER="$top_builddir/tests/tmux/ui_driver"
. "$top_srcdir/tests/tmux/lib.sh"
export KGTOP_THEMES="$top_srcdir/themes" LANG=C.UTF-8 LC_ALL=C.UTF-8 TZ=UTC KGTOP_CONFIG=none
unset NO_COLOR
CHROME=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
profile=$(mktemp -d /tmp/kgtop-shot-XXXXXX)
# an empty home: no ~/.config/kgtop themes leak into the shots, and Chromium writes its caches here
mkdir -p "$profile/home" && export HOME="$profile/home"

# twait_closed SECONDS: poll until no episode on screen is still open (its line says "open")
twait_closed() {
	deadline=$(( $(date +%s) + $1 ))
	while tcap | grep -q " open "; do
		[ "$(date +%s)" -ge "$deadline" ] && return 1
		sleep 0.05 # poll interval, bounded by the deadline above
	done
}

# shot NAME COLS ROWS: save the current screen of session t
shot() {
	tmx capture-pane -p -t t > "$OUT/$1.txt"
	tmx capture-pane -p -e -t t > "$OUT/$1.ansi"
	python3 "$top_srcdir/screenshots/ansi2html.py" "$OUT/$1.ansi" "kgtop $1" > "$profile/$1.html"
	if [ -n "$CHROME" ]; then
		w=$(( $2 * 84 / 10 + 16 )); h=$(( $3 * 17 + 16 ))
		"$CHROME" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
			--disable-background-networking --disable-component-update --disable-sync \
			--user-data-dir="$profile/chrome" --hide-scrollbars --window-size="$w,$h" \
			--screenshot="$OUT/$1.png" "file://$profile/$1.html" >/dev/null 2>&1 \
			&& echo "screenshots: $1.png" || echo "screenshots: $1.png failed"
	else
		echo "screenshots: $1 (text only: no chromium for the PNG)"
	fi
}

# the seeds' scene, wide
# (once worker-3 has left the ledger, p freezes the screen: shots are deterministic)
tstart 160 48 "$DRIVER --speed 2"
twait "weird" 10 && twait "eager    2     6" 20
tkeys p j j j 2; twait "eager  1 round" 10; shot timeline-eager-160x48 160 48
tkeys k; twait "cooperative  2 rounds" 10; shot timeline-cooperative-160x48 160 48
tkeys m; twait "p4" 5; shot timeline-cooperative-partitions-160x48 160 48
tkeys m 1; twait "member" 5; shot grid-cooperative-160x48 160 48
tkeys 4; twait "incremental" 5; shot events-cooperative-160x48 160 48
tkeys j j 3; twait "left: max.poll.interval" 5; shot health-160x48 160 48
tkeys q

# narrow
tstart 80 24 "$DRIVER --speed 2"
twait "weird" 10 && twait "eager    2     6" 20
tkeys p j j j 2; twait "eager  1 round" 10; shot timeline-eager-80x24 80 24
tkeys k 4; twait "incremental" 10; shot events-cooperative-80x24 80 24
tkeys 1 '?'; twait "kgtop keys" 5; shot help-80x24 80 24
tkeys Escape q

# themes and modes
for theme in light high-contrast mono; do
	tstart 120 40 "$DRIVER --speed 2 --theme $theme"
	twait "weird" 10; twait "eager    2     6" 20; tkeys p j j 2; twait "cooperative  2 rounds" 10; shot "theme-$theme-120x40" 120 40; tkeys q
done
tstart 120 40 "LANG=C LC_ALL=C $DRIVER --speed 2"
twait "weird" 10; twait "eager    2     6" 20; tkeys p j j j 2; twait "eager  1 round" 10; shot ascii-timeline-eager-120x40 120 40; tkeys q

# the embedded demo: kgtop with no arguments, real librdkafka consumers on the mock cluster
if [ -x "$top_builddir/kgtop" ]; then
	tstart 160 45 "cd $top_builddir && ./kgtop"
	twait "kgtop-demo-eager" 20
	tkeys 2
	# both groups (the demo compares them from the start): wait until consumer-d's join is over in
	# the cooperative group (its moves are counted then) and in the eager one
	if twait "joined: consumer-d  0" 90 && twait "joined: consumer-d  3" 30 && twait_closed 30; then
		tkeys p
		shot demo-compare-timeline-160x45 160 45
		tkeys v; twait "joined: consumer-d  0" 5
		shot demo-coop-timeline-160x45 160 45
		tkeys m; twait "p0" 5; shot demo-coop-partitions-160x45 160 45
		tkeys m 1; twait "member" 5; shot demo-coop-grid-160x45 160 45
		tkeys 4; twait "incremental" 5; shot demo-coop-events-160x45 160 45
		tkeys j 2; twait "joined: consumer-d  3" 5; shot demo-eager-timeline-160x45 160 45
		tkeys 4; twait "stop-the-world" 5; shot demo-eager-events-160x45 160 45
		tkeys 3; twait "heartbeat" 5; shot demo-health-160x45 160 45
	fi
	tkeys q
	tstart 80 24 "cd $top_builddir && ./kgtop"
	twait "kgtop-demo-eager" 20
	tkeys 2
	twait "joined: consumer-d  0" 90 && twait "joined: consumer-d  3" 30 && twait_closed 30 && { tkeys p; shot demo-80x24 80 24; }
	tkeys q
fi

# the real kgtop against the fixture broker
BROKER="$top_builddir/tests/fixture-broker"
if [ -x "$BROKER" ] && [ -x "$top_builddir/kgtop" ]; then
	"$BROKER" --port 0 --manual --scenario "$top_srcdir/tests/fixture/scenarios/join-range.json" > "$profile/ready" 2>/dev/null &
	bpid=$!
	deadline=$(( $(date +%s) + 10 ))
	until grep -q '^ready ' "$profile/ready" 2>/dev/null || [ "$(date +%s)" -ge "$deadline" ]; do
		sleep 0.05 # poll interval, bounded by the deadline
	done
	tstart 120 40 "$top_builddir/kgtop -b $(sed -n 's/^ready //p' "$profile/ready") -i 0.5"
	twait "kafka ok" 15; tkeys 2
	for st in PreparingRebalance CompletingRebalance "Stable range"; do
		kill -USR1 "$bpid"; twait "g-range $st" 10
	done
	twait "1 round" 10
	shot kgtop-fixture-range-120x40 120 40
	tkeys q
	kill "$bpid" 2>/dev/null
fi
rm -rf "$profile"
