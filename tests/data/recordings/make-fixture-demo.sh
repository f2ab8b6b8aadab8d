#!/bin/sh
# make-fixture-demo.sh: remake fixture-demo.kgrec: the fixture broker plays
# fixture-demo.json (timed steps) while the real kgtop polls it once a second
# and records.  Run from a built tree: tests/data/recordings/make-fixture-demo.sh
set -e
here=$(cd "$(dirname "$0")" && pwd)
build=${top_builddir:-.}
out=$(mktemp -d /tmp/kgtop-rec-XXXXXX)
"$build/tests/fixture-broker" --port 0 --scenario "$here/fixture-demo.json" >"$out/fixture.out" 2>"$out/fixture.err" &
pid=$!
trap 'kill $pid 2>/dev/null; rm -rf "$out"' EXIT
i=0
until grep -q '^ready ' "$out/fixture.out"; do
	i=$((i + 1))
	[ $i -lt 200 ] || { echo "fixture did not start" >&2; exit 1; }
	sleep 0.05 # poll the ready line
done
bootstrap=$(awk '/^ready /{print $2}' "$out/fixture.out")
"$build/kgtop" -b "$bootstrap" -i 1 --json --duration 42 --record "$here/fixture-demo.kgrec" >/dev/null
echo "wrote $here/fixture-demo.kgrec ($(wc -l <"$here/fixture-demo.kgrec") lines)"
