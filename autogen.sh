#!/bin/sh
# Bootstrap the autotools build.  With --deps, install the Debian build
# dependencies first (as root) or print the apt-get command (otherwise).
# ./configure then fetches and builds the bundled librdkafka once (deps/librdkafka.sh).
set -e
cd "$(dirname "$0")"

DEPS="build-essential autoconf automake pkg-config libncurses-dev librdkafka-dev \
libcurl4-openssl-dev libcjson-dev libmicrohttpd-dev libcmocka-dev tmux ncurses-term clang valgrind \
prometheus curl"
# tests/kafka: make check runs Apache Kafka (its jars from Maven Central) with a JDK and Maven
DEPS="$DEPS default-jdk-headless maven"

# The bundled librdkafka (deps/librdkafka.sh, run by ./configure): apt-get fetches its source
# (the archive's keyring checks it), and its features need these (GSSAPI: libsasl2-dev).
RDKAFKA_DEPS="debian-archive-keyring libssl-dev libsasl2-dev zlib1g-dev libzstd-dev liblz4-dev"
DEPS="$DEPS $RDKAFKA_DEPS"

if [ "${1:-}" = "--deps" ]; then
	shift
	if [ "$(id -u)" = 0 ]; then
		missing=""
		for p in $DEPS; do
			dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"
		done
		if [ -n "$missing" ]; then
			echo "autogen.sh: installing:$missing"
			apt-get update -qq
			DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing
		else
			echo "autogen.sh: all build dependencies are installed"
		fi
	else
		echo "autogen.sh: run as root to install, or run:"
		echo "  sudo apt-get install -y $DEPS"
	fi
fi

autoreconf --force --install -Wall
