#!/bin/sh
# deps/librdkafka.sh: the pinned librdkafka that kgtop links statically by default.
#
# ./configure runs it (and make, should the cached build have gone). It makes sure that a
# build of the pinned librdkafka exists in the cache, then prints its prefix (include/librdkafka/,
# lib/librdkafka.a, lib/pkgconfig/rdkafka-static.pc) on standard output; progress and errors go
# to standard error.
#
# - Source: Debian's source package, fetched with Debian's own apt-get against a private apt
#   configuration in a temporary directory (one deb-src line, its own lists and cache; the system's
#   apt.conf.d is read for proxies and the like, its update hooks are cleared; the machine's sources,
#   lists and caches are neither read nor changed). apt checks the Release file's signature
#   (debian-archive-keyring) and the hashes of what it fetched; the upstream tarball is then checked
#   against the sha256 pinned below, whichever Debian revision of the version carried it. Debian's
#   own patches (options for an external cJSON and nanopb) are not applied: upstream's vendored
#   nanopb is used, and its cJSON is replaced by the system's after the build (below).
# - Patches: kgtop's own, in deps/ beside this script (PATCHES below, each hashed into the key), applied
#   to the unpacked source with patch -p1. librdkafka-coord-cache.patch: the coordinator cache keeps 4,096
#   groups instead of 11, so a group asked every refresh costs its OffsetFetch, not a FindCoordinator
#   too (kafka_sched.h), and finds them by their key's hash (a walk of the list, a strcmp an entry,
#   was a fifth of kgtop's CPU at 10,000 groups). librdkafka-tp-index.patch: offsets_for_times (the log ends)
#   matches a call's partitions to their leaders' lists and to the answers through a hash index of (topic,
#   partition) instead of walking the other list for each partition (a call of n partitions cost n^2 string
#   compares: a third of kgtop's refresh thread at rest on 100 groups). A build against the distribution's librdkafka (--with-librdkafka=system) has
#   librdkafka's 11, and kgtop plans for that.
# - Build: the C library only (librdkafka.a) with a fixed recipe that names every feature, so that
#   a missing -dev package fails here instead of silently building a weaker library, and that is
#   independent of the caller's CFLAGS (the plain, sanitizer and Debian builds share one build).
#   mklove's --enable-static is not used: it folds static copies of OpenSSL, Cyrus SASL, curl... into
#   librdkafka-static.a. librdkafka itself is static; its dependencies stay the distribution's shared
#   libraries (security updates reach them, and a package's Depends list them). Its vendored copy of
#   cJSON is taken out of librdkafka.a and libcjson required instead (as Debian's own package builds
#   it, --enable-cjson-ext): linked statically, that copy's cJSON_* symbols would also serve kgtop's
#   calls, so kgtop would run librdkafka's cJSON against the system's headers and lose libcjson1.
# - Cache: $KGTOP_CACHE_DIR, else $XDG_CACHE_HOME/kgtop, else ~/.cache/kgtop (or --cache DIR):
#   librdkafka-VERSION-KEY/ where KEY hashes the version, the tarball's sha256, the recipe and the
#   compiler (its version and target); src/ keeps the checked tarball, so a new recipe needs no
#   network. A build is made in DIR.build and renamed into place when complete, under a lock, so
#   concurrent configures wait for one build. `rm -rf ~/.cache/kgtop` at any time is safe.
#
# The prefix also has share/doc/librdkafka-LICENSES.txt (librdkafka's licence and those of the code it
# carries), which make install puts beside kgtop's documentation: the binary carries librdkafka.
#
# usage: deps/librdkafka.sh [--cache DIR] [--tarball FILE] [--pinned]
#   --tarball FILE: use this librdkafka_VERSION.orig.tar.gz instead of fetching (checked the same)
#   --pinned: print the pinned version and exit
#   environment: CC (the compiler), KGTOP_CACHE_DIR, KGTOP_DEBIAN_MIRROR (default
#   http://deb.debian.org/debian), KGTOP_DEBIAN_SUITE (default unstable)
set -u

VERSION=2.14.2
TARBALL=librdkafka_$VERSION.orig.tar.gz
SHA256=4d53568c13717b167d12c7b2a0fe12aeb5d6bfe02de53df5b68f86d870a81b33
# Bump RECIPE_REV when the build steps change in a way the options below do not show.
RECIPE_REV=4
PATCHES="librdkafka-coord-cache.patch librdkafka-tp-index.patch"
FEATURES="--no-download --enable-ssl --enable-gssapi --enable-zlib --enable-zstd --enable-lz4-ext \
--enable-curl --enable-c11threads --enable-regex-ext"
RECIPE_CFLAGS="-fPIC -fstack-protector-strong -D_FORTIFY_SOURCE=2"
ALTERNATIVE="or build kgtop against the distribution's librdkafka instead: ./configure --with-librdkafka=system (apt-get install librdkafka-dev)"

me=deps/librdkafka.sh
here=$(cd "$(dirname "$0")" && pwd)

# say TEXT: a progress line on standard error.
say() {
	echo "$me: $*" >&2
}

# fail TEXT: the error, the way out, and exit 1.
fail() {
	echo "$me: error: $*" >&2
	echo "$me: $ALTERNATIVE" >&2
	exit 1
}

# sha256_of FILE: the file's sha256, or nothing.
sha256_of() {
	sha256sum "$1" 2>/dev/null | cut -d' ' -f1
}

cache=""
tarball=""
while [ $# -gt 0 ]; do
	case $1 in
	--cache) cache=${2:-}; shift ;;
	--cache=*) cache=${1#--cache=} ;;
	--tarball) tarball=${2:-}; shift ;;
	--tarball=*) tarball=${1#--tarball=} ;;
	--pinned) echo "$VERSION"; exit 0 ;;
	*) echo "usage: $me [--cache DIR] [--tarball FILE] [--pinned]" >&2; exit 2 ;;
	esac
	shift
done

CC=${CC:-cc}
if [ -z "$cache" ]; then
	if [ -n "${KGTOP_CACHE_DIR:-}" ]; then
		cache=$KGTOP_CACHE_DIR
	elif [ -n "${XDG_CACHE_HOME:-}" ]; then
		cache=$XDG_CACHE_HOME/kgtop
	elif [ -n "${HOME:-}" ]; then
		cache=$HOME/.cache/kgtop
	else
		fail "no cache directory: set KGTOP_CACHE_DIR or give ./configure --with-librdkafka-cache=DIR"
	fi
fi
case $cache in
/*) ;;
*) cache=$(pwd)/$cache ;;
esac
mkdir -p "$cache/src" 2>/dev/null && [ -w "$cache" ] ||
	fail "cannot write the cache directory $cache: give another with KGTOP_CACHE_DIR=DIR or ./configure --with-librdkafka-cache=DIR"

# The key: what the build depends on, hashed.
# the compiler's identity without the name it was called by (cc and gcc are one compiler)
cc_id=$($CC --version 2>/dev/null | head -n 1 | cut -d' ' -f2-)
cc_target=$($CC -dumpmachine 2>/dev/null)
[ -n "$cc_id" ] || fail "the C compiler '$CC' does not run ($CC --version failed)"
patches_id=""
for p in $PATCHES; do
	[ -r "$here/$p" ] || fail "the patch $here/$p is missing (it comes with kgtop's source)"
	patches_id="$patches_id $p $(sha256_of "$here/$p")"
done
key="librdkafka $VERSION sha256 $SHA256 recipe $RECIPE_REV $FEATURES CFLAGS=$RECIPE_CFLAGS cc $cc_id target $cc_target patches$patches_id"
hash=$(printf '%s\n' "$key" | sha256sum | cut -c1-12)
dir=$cache/librdkafka-$VERSION-$hash
log=$dir.log

if [ -f "$dir/key" ] && [ -f "$dir/lib/librdkafka.a" ]; then
	echo "$dir"
	exit 0
fi

# One build at a time per key: another configure waits for it, then finds it done.
if command -v flock >/dev/null 2>&1; then
	exec 9>"$dir.lock"
	if ! flock -n 9; then
		say "waiting for another build of librdkafka $VERSION in $cache (lock $dir.lock)"
		flock 9
	fi
	if [ -f "$dir/key" ] && [ -f "$dir/lib/librdkafka.a" ]; then
		echo "$dir"
		exit 0
	fi
fi

# A build or a fetch cut short leaves nothing behind but its log.
apt=""
build=""
trap 'rm -rf ${apt:+"$apt"} ${build:+"$build" "$dir.tmp"}' EXIT
trap 'exit 130' INT TERM HUP

# check_tarball FILE: 0 when FILE is the pinned tarball.
check_tarball() {
	[ "$(sha256_of "$1")" = "$SHA256" ]
}

# fetch_apt DEST: Debian's source package of the pinned version, with apt-get and a private configuration.
fetch_apt() {
	mirror=${KGTOP_DEBIAN_MIRROR:-http://deb.debian.org/debian}
	suite=${KGTOP_DEBIAN_SUITE:-unstable}
	keyring=/usr/share/keyrings/debian-archive-keyring.gpg
	command -v apt-get >/dev/null 2>&1 ||
		fail "apt-get not found, so librdkafka $VERSION cannot be fetched: give its tarball ($TARBALL, sha256 $SHA256) with ./configure --with-librdkafka-tarball=FILE"
	[ -r "$keyring" ] ||
		fail "$keyring not found: apt-get install debian-archive-keyring (it verifies the Debian archive's signature)"
	apt=$(mktemp -d "${TMPDIR:-/tmp}/kgtop-apt.XXXXXX") || fail "mktemp failed"
	mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$apt/sources.list.d" "$apt/dl"
	echo "deb-src [signed-by=$keyring] $mirror $suite main" >"$apt/sources.list"
	cat >"$apt/apt.conf" <<EOF
Dir::Etc::sourcelist "$apt/sources.list";
Dir::Etc::sourceparts "$apt/sources.list.d";
Dir::State::Lists "$apt/lists";
Dir::Cache "$apt/cache";
#clear APT::Update::Pre-Invoke;
#clear APT::Update::Post-Invoke;
#clear APT::Update::Post-Invoke-Success;
EOF
	# as root apt downloads as the unprivileged _apt, which must be able to write there
	if [ "$(id -u)" = 0 ] && id _apt >/dev/null 2>&1; then
		chmod 755 "$apt"
		chown -R _apt "$apt/dl"
	fi
	say "fetching Debian's source package of librdkafka $VERSION ($suite, $mirror) with apt-get"
	# apt-get update may exit 0 with no index fetched (a warning per failure): the index is the proof
	if ! apt-get -q -c "$apt/apt.conf" update >>"$log" 2>&1 || [ -z "$(find "$apt/lists" -name '*_Sources*' 2>/dev/null)" ]; then
		why=$(grep '^[EW]:' "$log" | head -n 2 | tr '\n' ' ')
		rm -rf "$apt"
		fail "cannot fetch librdkafka $VERSION: apt-get update got no source index from $mirror ($suite): ${why:-see $log}. Without network, give the tarball ($TARBALL, sha256 $SHA256) with ./configure --with-librdkafka-tarball=FILE"
	fi
	rev=$(apt-cache -c "$apt/apt.conf" showsrc librdkafka 2>>"$log" | sed -n "s/^Version: \($VERSION-.*\)/\1/p" | head -n 1)
	if [ -z "$rev" ]; then
		rm -rf "$apt"
		fail "$suite at $mirror no longer carries librdkafka $VERSION (set KGTOP_DEBIAN_MIRROR and KGTOP_DEBIAN_SUITE to an archive that does, e.g. a snapshot.debian.org date, or give the tarball with ./configure --with-librdkafka-tarball=FILE)"
	fi
	if ! (cd "$apt/dl" && apt-get -q -c "$apt/apt.conf" source --download-only "librdkafka=$rev") >>"$log" 2>&1; then
		why=$(grep '^[EW]:' "$log" | tail -n 2 | tr '\n' ' ')
		rm -rf "$apt"
		fail "cannot fetch librdkafka $rev's source: ${why:-see $log}"
	fi
	cp "$apt/dl/$TARBALL" "$1.tmp" && mv "$1.tmp" "$1"
	rm -rf "$apt"
	say "fetched Debian's librdkafka $rev (apt verified the signature and the hashes)"
}

: >"$log"
src=$cache/src/$TARBALL
if [ -f "$src" ] && ! check_tarball "$src"; then
	say "$src is not the pinned tarball (sha256 $(sha256_of "$src")): fetching it again"
	rm -f "$src"
fi
if [ ! -f "$src" ]; then
	if [ -n "$tarball" ]; then
		[ -r "$tarball" ] || fail "cannot read $tarball"
		check_tarball "$tarball" ||
			fail "$tarball is not librdkafka $VERSION's pinned tarball: its sha256 is $(sha256_of "$tarball"), the pinned one $SHA256; give $TARBALL from Debian"
		cp "$tarball" "$src.tmp" && mv "$src.tmp" "$src" || fail "cannot copy $tarball into $cache/src"
	else
		fetch_apt "$src"
	fi
fi
if ! check_tarball "$src"; then
	bad=$(sha256_of "$src")
	rm -f "$src"
	fail "what was fetched is not librdkafka $VERSION's pinned tarball: its sha256 is $bad, the pinned one $SHA256 (nothing was built)"
fi

say "building librdkafka $VERSION (once; one to two minutes of CPU on two cores) into $dir, log $log"
build=$dir.build
rm -rf "$build" "$dir.tmp"
mkdir -p "$build" "$dir.tmp/include/librdkafka" "$dir.tmp/lib/pkgconfig" "$dir.tmp/share/doc"
started=$(date +%s)
# build_install: unpack, configure, build the C library, install it into $dir.tmp; non-zero at the
# first step that fails (each step checked: set -e does not hold in a condition's subshell).
build_install() {
	tar -xzf "$src" -C "$build" --strip-components=1 || return 1
	cd "$build" || return 1
	for p in $PATCHES; do
		patch -p1 --forward --batch <"$here/$p" || return 1
	done
	unset CFLAGS CPPFLAGS CXXFLAGS LDFLAGS LIBS MAKEFLAGS MFLAGS MAKELEVEL
	jobs=$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)
	CC=$CC CFLAGS="$RECIPE_CFLAGS -ffile-prefix-map=$build=librdkafka-$VERSION" \
		./configure --prefix="$dir" $FEATURES || return 1
	make -C src -j"$jobs" librdkafka.a rdkafka-static.pc || return 1
	cp src/rdkafka.h src/rdkafka_mock.h "$dir.tmp/include/librdkafka/" &&
		cp src/librdkafka.a "$dir.tmp/lib/" &&
		cp LICENSES.txt "$dir.tmp/share/doc/librdkafka-LICENSES.txt" || return 1
	# the system's cJSON, not the vendored copy (see above)
	ar d "$dir.tmp/lib/librdkafka.a" cJSON.o || return 1
	if nm -g --defined-only "$dir.tmp/lib/librdkafka.a" 2>/dev/null | grep -q ' T cJSON_'; then
		echo "librdkafka.a still defines cJSON_ symbols"
		return 1
	fi
	sed 's/^Requires: .*/& libcjson/' src/rdkafka-static.pc >"$dir.tmp/lib/pkgconfig/rdkafka-static.pc"
}

if ! (build_install) >>"$log" 2>&1; then
	esc=$(printf '\033')
	tail -n 15 "$log" | sed "s/$esc\[[0-9;]*m//g; s/$esc(B//g" >&2
	rm -rf "$build" "$dir.tmp"
	# librdkafka's configure names the packages that would help ("sudo apt install -y ...")
	missing=$(sed -n 's/^sudo apt install -y *//p' "$log" | tail -n 1)
	fail "building librdkafka $VERSION failed${missing:+ (its configure suggests apt-get install -y $missing; ./autogen.sh --deps installs them)}: the last lines are above, the whole log is $log"
fi
printf '%s\n' "$key" >"$dir.tmp/key"
echo "built in $(($(date +%s) - started)) s" >>"$dir.tmp/key"
rm -rf "$build" "$dir"
mv "$dir.tmp" "$dir"
build=""
say "librdkafka $VERSION built in $(($(date +%s) - started)) s"
echo "$dir"
