#!/bin/sh
# screenshots/make.sh: regenerate screenshots/ from real runs (make screenshots).
# Every shot is the real kgtop on its embedded demo (./kgtop with no cluster:
# librdkafka's mock cluster and real consumers), in a private tmux server,
# as a user sees it; nothing from the test suite's fixtures.  Each shot is
# saved as NAME.txt (capture-pane -p), NAME.ansi (capture-pane -e, colours)
# and NAME.png: the ANSI capture rendered to HTML by screenshots/ansi2html.py
# and photographed by headless Chromium (apt-get install -y chromium; without
# it the PNGs are skipped).  The captions are in screenshots/README.md.
: "${top_srcdir:=$(cd "$(dirname "$0")/.." && pwd)}"
: "${top_builddir:=$top_srcdir}"
: "${OUT:=$top_srcdir/screenshots}" # OUT=DIR writes the shots elsewhere (a trial run)
KGTOP="$top_builddir/kgtop"
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

# twait_stable SECONDS: poll until every demo group the list shows is Stable with no rebalance open
# (a group the compare form does not draw may still be rebalancing, between a cooperative join's two
# rounds Stable and flagged "rebal": its cost would be an older episode's)
twait_stable() {
	deadline=$(( $(date +%s) + $1 ))
	while tcap | grep -E '^[ ▶] kgtop-demo-[a-z]+  ' | grep -qvE ' Stable .* [0-9]+ *$'; do
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

# demo COLS ROWS ENV [ARGS]: the demo in a session of that size (ENV: variables for kgtop, ARGS: its
# options), on the timeline once consumer-d's join is over in both groups (the demo compares them
# from the start); then p freezes the screen
demo() {
	tstart "$1" "$2" "cd $top_builddir && env $3 $KGTOP ${4:-}"
	twait "kgtop-demo-eager" 20 || return 1
	tkeys 2
	[ "$1" -lt 80 ] || [ "$2" -lt 24 ] && tkeys Enter # one pane at a time: the view
	twait "joined: consumer-d" 90 && twait_closed 30 && { twait_stable 30 || echo "screenshots: a demo group still rebalancing"; } && tkeys p && twait "PAUSED" 5
}

[ -x "$KGTOP" ] || { echo "screenshots: build kgtop first"; exit 1; }

# minimal: true when consumer-d's join ran in the protocol's minimum in both groups (eager 1
# round, cooperative 2). librdkafka's mock sometimes runs extra generations (a follower's late
# SyncGroup); kgtop shows them as the coordinator ran them ("3 rounds, gen 2->5"), true but not the
# comparison the captions describe, so the headline is taken again (test_demo waits the same way)
minimal() {
	# (where the line has room, the episode's start follows its number: "▲ 2 +8.765s  cooperative")
	tcap | grep -qE "▲ 2 (\+[0-9.ms]+ )? cooperative  2 rounds" && tcap | grep -qE "▲ 2 (\+[0-9.ms]+ )? eager  1 round "
}

# the headline and each view, wide
tries=0 ok=
while demo 160 45 TERM=xterm-256color && ok=1 && ! minimal && [ "$tries" -lt 4 ]; do
	tries=$((tries + 1))
	echo "screenshots: the mock ran extra generations in the join; again ($tries)" # tstart ends the old one
done
minimal || echo "screenshots: WARNING: the headline's join is not the protocol's minimum: read the captions against it"
if [ -n "$ok" ]; then
	shot demo-compare-timeline-160x45 160 45
	# each group alone (v): searched for (the list is worst first, the selected one changes), Esc clears the search
	tkeys v / c o o p Enter Escape 2; twait "lag   kgtop-demo-coop Stable" 5
	shot demo-coop-timeline-160x45 160 45
	tkeys m; twait "p0" 5; shot demo-coop-partitions-160x45 160 45
	tkeys m 1; twait "member" 5; shot demo-coop-grid-160x45 160 45
	tkeys 4; twait "incremental" 5; shot demo-coop-events-160x45 160 45
	# the eager group: searched for (the list is worst first, its place there changes), Esc clears the search
	tkeys / e a g e r Enter Escape 2; twait "kgtop-demo-eager Stable" 5; shot demo-eager-timeline-160x45 160 45
	tkeys 4; twait "stop-the-world" 5; shot demo-eager-events-160x45 160 45
	# the consumer protocol's group (KIP-848) where this build runs it
	if tcap | grep -q "kgtop-demo-consumer"; then
		tkeys / c o n s u m e r Enter Escape 2; twait "lag   kgtop-demo-consumer Stable" 5
		shot demo-consumer-timeline-160x45 160 45
		tkeys 4; twait "consumer-d joined" 5; shot demo-consumer-events-160x45 160 45
		tkeys / e a g e r Enter Escape 2; twait "lag   kgtop-demo-eager Stable" 5
	fi
	tkeys 3; twait "heartbeat" 5; shot demo-health-160x45 160 45
	tkeys 5; twait "PARTITION OWNER" 5; shot demo-lag-160x45 160 45
fi
tkeys q

# 80x24: two groups in the compare form's short one and the cost line of all three, the script step in the
# header, a note per member, the demo's keys in the footer; the help; the sort menu
if demo 80 24 TERM=xterm-256color; then
	shot demo-80x24 80 24
	tkeys '?'; twait "kgtop keys" 5; shot demo-help-80x24 80 24
	tkeys Escape F6; twait "sort by  (Enter" 5; shot demo-sort-menu-80x24 80 24
fi
tkeys q

# a half-split (60x20): one pane at a time, the group list, then Enter: the view
if demo 60 20 TERM=xterm-256color; then
	tkeys Escape; twait "Enter view" 5; shot demo-narrow-list-60x20 60 20
	tkeys Enter; twait "Esc groups" 5; shot demo-narrow-timeline-60x20 60 20
fi
tkeys q

# the themes, 8 colours (TERM=xterm), ASCII (a C locale)
for theme in light high-contrast mono; do
	if demo 120 40 TERM=xterm-256color "--theme $theme"; then shot "demo-theme-$theme-120x40" 120 40; fi
	tkeys q
done
if demo 120 40 TERM=xterm; then shot demo-xterm-8-colours-120x40 120 40; fi
tkeys q
if demo 120 40 "TERM=xterm-256color LANG=C LC_ALL=C"; then shot demo-ascii-120x40 120 40; fi
tkeys q
rm -rf "$profile"
