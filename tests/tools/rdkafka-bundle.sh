#!/bin/sh
# rdkafka-bundle.sh: deps/librdkafka.sh, the bundled librdkafka's fetch and build, when it cannot
# succeed: a tarball that is not the pinned one, no network (a mirror nobody answers at), a build
# that fails. Each stops with a clear message naming ./configure --with-librdkafka=system, leaves
# no build behind, and the machine's apt configuration and lists are as they were. Where this tree
# was configured with the bundled librdkafka (the default), also: its cached build is found again
# without any network, and a failed build (a compiler that cannot compile) is said with its log.
. "${top_srcdir:-.}/tests/cli/lib.sh"

SCRIPT="$top_srcdir/deps/librdkafka.sh"
pinned=$(sh "$SCRIPT" --pinned)
t_ok "$(echo "$pinned" | grep -q '^[0-9][0-9.]*$'; echo $?)" "the script names its pinned version ($pinned)"

# apt_state: the machine's apt configuration (names, sizes, times), and its lists of the mirror tried below
apt_state() {
	ls -l --time-style=full-iso /etc/apt /etc/apt/sources.list.d /etc/apt/apt.conf.d 2>/dev/null
	find /var/lib/apt/lists -name '127.0.0.1*' 2>/dev/null
}
apt_state >"$T_TMP/apt.before"
# the script's temporary files go here, to be seen gone
mkdir -p "$T_TMP/tmp"
export TMPDIR="$T_TMP/tmp"

# no build of the pinned version in CACHE, and nothing half-made
no_build() {
	[ -z "$(find "$1" -maxdepth 1 -name "librdkafka-$pinned-*" ! -name '*.log' ! -name '*.lock' 2>/dev/null)" ]
}

# ---------------------------------------------------------------- a tarball that is not the pinned one
cache="$T_TMP/cache-sum"
printf 'not librdkafka\n' >"$T_TMP/librdkafka_$pinned.orig.tar.gz"
sh "$SCRIPT" --cache "$cache" --tarball "$T_TMP/librdkafka_$pinned.orig.tar.gz" >"$T_TMP/sum.out" 2>"$T_TMP/sum.err"
t_is "$?" 1 "a tarball whose sha256 is not the pinned one: exit 1"
t_contains "$T_TMP/sum.err" "is not librdkafka $pinned's pinned tarball: its sha256 is $(sha256sum "$T_TMP/librdkafka_$pinned.orig.tar.gz" | cut -d' ' -f1)" \
	"saying which sha256 it has"
t_contains "$T_TMP/sum.err" "./configure --with-librdkafka=system" "and naming --with-librdkafka=system"
t_is "$(cat "$T_TMP/sum.out")" "" "printing no prefix"
t_ok "$(no_build "$cache"; echo $?)" "building nothing"
t_ok "$([ ! -e "$cache/src/librdkafka_$pinned.orig.tar.gz" ]; echo $?)" "nor keeping the tarball"

# ---------------------------------------------------------------- no network
cache="$T_TMP/cache-net"
KGTOP_DEBIAN_MIRROR=http://127.0.0.1:1/debian sh "$SCRIPT" --cache "$cache" >"$T_TMP/net.out" 2>"$T_TMP/net.err"
t_is "$?" 1 "no network (a mirror that refuses): exit 1"
t_contains "$T_TMP/net.err" "cannot fetch librdkafka $pinned" "saying it cannot fetch librdkafka"
t_contains "$T_TMP/net.err" "127.0.0.1:1" "naming the mirror it tried"
t_contains "$T_TMP/net.err" "./configure --with-librdkafka-tarball=FILE" "how to give the tarball without network"
t_contains "$T_TMP/net.err" "./configure --with-librdkafka=system" "and naming --with-librdkafka=system"
t_ok "$(no_build "$cache"; echo $?)" "building nothing"
t_is "$(ls "$TMPDIR")" "" "its private apt directory is gone"
apt_state >"$T_TMP/apt.after"
t_is "$(diff "$T_TMP/apt.before" "$T_TMP/apt.after")" "" "the machine's apt configuration and lists are untouched"

# ---------------------------------------------------------------- this tree's bundled build
prefix=$(sed -n 's/^KG_RDKAFKA_PREFIX = //p' "$top_builddir/Makefile")
if [ -n "$prefix" ]; then
	real=$(dirname "$prefix")
	# found again, with no network at all
	got=$(KGTOP_DEBIAN_MIRROR=http://127.0.0.1:1/debian sh "$SCRIPT" --cache "$real" 2>"$T_TMP/hit.err")
	t_is "$got" "$prefix" "the cached build is found again (its prefix), without network"
	t_is "$(cat "$T_TMP/hit.err")" "" "saying nothing"

	# a failed build: a compiler that identifies itself but compiles nothing
	cache="$T_TMP/cache-cc"
	mkdir -p "$cache/src"
	cp "$real/src/librdkafka_$pinned.orig.tar.gz" "$cache/src/"
	cat >"$T_TMP/badcc" <<'EOF'
#!/bin/sh
case "$1" in
--version) echo "badcc (test) 1.0" ;;
-dumpmachine) echo "x86_64-linux-gnu" ;;
*) echo "badcc: cannot compile" >&2; exit 1 ;;
esac
EOF
	chmod +x "$T_TMP/badcc"
	CC="$T_TMP/badcc" KGTOP_DEBIAN_MIRROR=http://127.0.0.1:1/debian sh "$SCRIPT" --cache "$cache" >"$T_TMP/cc.out" 2>"$T_TMP/cc.err"
	t_is "$?" 1 "a build that fails: exit 1"
	t_contains "$T_TMP/cc.err" "building librdkafka $pinned failed" "saying the build failed"
	log=$(sed -n 's/.*the whole log is \(.*\)$/\1/p' "$T_TMP/cc.err")
	t_ok "$([ -s "$log" ]; echo $?)" "naming its log ($log), which is there"
	t_contains "$T_TMP/cc.err" "./configure --with-librdkafka=system" "and naming --with-librdkafka=system"
	t_ok "$(no_build "$cache"; echo $?)" "leaving no build, half-made or whole"
fi

t_done
