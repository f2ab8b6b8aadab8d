#!/bin/sh
# harden.sh: the findings of issue 13 against the real binary: config files
# never show a value and never run code, files that others can write are
# refused, every output escapes controls and bidirectional overrides alike,
# files kgtop writes are private, and a flood of trace lines never stops
# kgtop from answering or ending.
. "${top_srcdir:-.}/tests/cli/lib.sh"

umask 022
SRC=$(cd "$top_srcdir" && pwd)
LONG=$(awk 'BEGIN { while (n++ < 6000) printf "A" }')

# ---------------------------------------------------------------- secrets
# a line longer than any buffer is one line: its tail is never parsed as a line of its own, nor shown
printf 'interval = 2\n%sTAILSECRET\n' "$LONG" >"$T_TMP/long.conf"
"$KGTOP" -c "$T_TMP/long.conf" --once >"$T_TMP/long.err" 2>&1
t_is "$?" 2 "a config line of 6000 bytes that is no option is a usage error"
t_contains "$T_TMP/long.err" "long.conf:2: not an option (the line is not shown)" "named by file and line"
t_lacks "$T_TMP/long.err" "SECRET" "without the end of the line"
t_lacks "$T_TMP/long.err" "AAAA" "nor its start"
printf 'client.id=x\n%sTAILSECRETXYZ\n' "$LONG" >"$T_TMP/long.props"
"$KGTOP" -c none -F "$T_TMP/long.props" --once >"$T_TMP/longp.err" 2>&1
t_is "$?" 2 "so is a properties line of 6000 bytes without '='"
t_contains "$T_TMP/longp.err" "long.props:2: expected key=value (the line is not shown)" "named by file and line"
t_lacks "$T_TMP/longp.err" "SECRET" "without its end"
# a long value is a value like any other (an inline PEM, a JAAS line)
printf 'X.sasl.password = %sEND\n' "$LONG" >"$T_TMP/pem.conf"
"$KGTOP" -c "$T_TMP/pem.conf" -b 127.0.0.1:1 --once --timeout 1 >"$T_TMP/pem.err" 2>&1
t_is "$?" 1 "a 6000-byte value in the config file is taken (the cluster fails, not the file)"
t_lacks "$T_TMP/pem.err" "AAAA" "and never shown"
# every option whose value the config file gives wrong: the message never repeats the value
for kv in 'interval=SECRET1x' 'timeout=SECRET2x' 'history=SECRET3x' 'session-timeout=SECRET4x' \
	'max-poll-interval=SECRET5x' 'storm-window=SECRET6x' 'storm-rebalances=SECRET7x' \
	'demo-partitions=SECRET8x' 'record-max=SECRET9x' 'speed=SECRETAx' 'include=SECRETB(' \
	'exclude=SECRETC(' 'topic=SECRETD(' 'trace=SECRETE' 'brokers= ' 'X.security.protocol=SECRETF' \
	'X.debug=SECRETG' 'X.socket.timeout.ms=SECRETH' 'property=security.protocol=SECRETI' 'property=SECRETJ'; do
	printf '%s\n' "$kv" >"$T_TMP/v.conf"
	"$KGTOP" -c "$T_TMP/v.conf" -b 127.0.0.1:1 --once --timeout 1 >"$T_TMP/v.err" 2>&1
	rc=$?
	if [ "$rc" -eq 2 ] && grep -q "v.conf:1: " "$T_TMP/v.err" && ! grep -q SECRET "$T_TMP/v.err"; then
		t_ok 0 "config '${kv%%=*} = bad value': refused at v.conf:1 without the value"
	else
		t_ok 1 "config '${kv%%=*} = bad value': refused at v.conf:1 without the value (exit $rc)"
		sed 's/^/#   /' "$T_TMP/v.err"
	fi
done
printf 'security.protocol=SECRETK\n' >"$T_TMP/v.props"
"$KGTOP" -c none -F "$T_TMP/v.props" -b 127.0.0.1:1 --once --timeout 1 >"$T_TMP/vp.err" 2>&1
t_is "$?" 2 "-F with a value librdkafka refuses is a usage error"
t_contains "$T_TMP/vp.err" 'v.props:1: security.protocol: Invalid value (value not shown)' "with librdkafka's words, the value taken out"

# ---------------------------------------------------------- permissions
printf 'interval = 2\n' >"$T_TMP/open.conf"
chmod 666 "$T_TMP/open.conf"
"$KGTOP" -c "$T_TMP/open.conf" --once >"$T_TMP/open.err" 2>&1
t_is "$?" 2 "a config file others can write is refused"
t_contains "$T_TMP/open.err" "config $T_TMP/open.conf: mode 0666 lets group and others write it" "naming the file and its mode"
t_contains "$T_TMP/open.err" "chmod go-w $T_TMP/open.conf" "and the chmod that fixes it"
printf 'client.id=x\n' >"$T_TMP/open.props"
chmod 620 "$T_TMP/open.props"
"$KGTOP" -c none -F "$T_TMP/open.props" --once >"$T_TMP/openp.err" 2>&1
t_is "$?" 2 "so is a properties file its group can write"
t_contains "$T_TMP/openp.err" "-F $T_TMP/open.props: mode 0620 lets group write it" "named with its mode"
mkdir -p "$T_TMP/xdg/kgtop"
printf 'interval = 2\n' >"$T_TMP/xdg/kgtop/config"
chmod 777 "$T_TMP/xdg/kgtop"
XDG_CONFIG_HOME="$T_TMP/xdg" "$KGTOP" --once >"$T_TMP/dir.err" 2>&1
t_is "$?" 2 "the default config file in a directory anyone can write is refused"
t_contains "$T_TMP/dir.err" "directory $T_TMP/xdg/kgtop has mode 0777" "naming the directory and its mode"
t_contains "$T_TMP/dir.err" "chmod go-w $T_TMP/xdg/kgtop" "and the chmod that fixes it"
chmod 755 "$T_TMP/xdg/kgtop"
if [ "$(id -u)" -eq 0 ] && chown nobody "$T_TMP/xdg/kgtop/config" 2>/dev/null; then
	XDG_CONFIG_HOME="$T_TMP/xdg" "$KGTOP" --once >"$T_TMP/owner.err" 2>&1
	t_is "$?" 2 "a config file another user owns is refused"
	t_contains "$T_TMP/owner.err" "belongs to uid $(id -u nobody), not to you or root" "saying whose it is"
else
	t_ok 0 "# SKIP a file of another user needs root to make"
	t_ok 0 "# SKIP (the same)"
fi

# ------------------------------------------------- code from files: never
printf 'X.plugin.library.paths = %s/no-such-plugin\n' "$T_TMP" >"$T_TMP/plugin.conf"
"$KGTOP" -c "$T_TMP/plugin.conf" -b 127.0.0.1:1 --once --timeout 1 >"$T_TMP/plugin.err" 2>&1
t_is "$?" 2 "plugin.library.paths from the config file is refused"
t_contains "$T_TMP/plugin.err" "plugin.library.paths loads shared libraries (librdkafka plugins): kgtop takes it only from -X" "saying why and where it is taken"
t_lacks "$T_TMP/plugin.err" "dlopen" "before librdkafka tries to load it"
printf 'security.protocol=SASL_PLAINTEXT\nsasl.mechanisms=GSSAPI\nsasl.kerberos.kinit.cmd=touch %s/kinit-ran\n' "$T_TMP" >"$T_TMP/kinit.props"
"$KGTOP" -c none -F "$T_TMP/kinit.props" -b 127.0.0.1:1 --once --timeout 2 >"$T_TMP/kinit.err" 2>&1
t_is "$?" 2 "sasl.kerberos.kinit.cmd from -F is refused"
[ ! -e "$T_TMP/kinit-ran" ]
t_ok $? "and the command never ran"
for kv in 'ssl.engine.location=/x' 'ssl.engine.id=x' 'ssl.providers=legacy'; do
	printf '%s\n' "$kv" >"$T_TMP/code.props"
	"$KGTOP" -c none -F "$T_TMP/code.props" -b 127.0.0.1:1 --once --timeout 1 >"$T_TMP/code.err" 2>&1
	rc=$?
	[ "$rc" -eq 2 ] && grep -q "kgtop takes it only from -X" "$T_TMP/code.err"
	t_ok $? "${kv%%=*} from -F is refused"
done
printf 'property = ssl.providers=legacy\n' >"$T_TMP/prop.conf"
"$KGTOP" -c "$T_TMP/prop.conf" -b 127.0.0.1:1 --once --timeout 1 >"$T_TMP/prop.err" 2>&1
t_contains "$T_TMP/prop.err" "prop.conf:1: ssl.providers loads OpenSSL providers" "so is one in a config file's 'property =' line"
printf 'sasl.kerberos.keytab=/k/$(touch x).keytab\n' >"$T_TMP/keytab.props"
"$KGTOP" -c none -F "$T_TMP/keytab.props" -b 127.0.0.1:1 --once --timeout 1 >"$T_TMP/keytab.err" 2>&1
t_contains "$T_TMP/keytab.err" "sasl.kerberos.keytab goes into the kinit shell command" "a keytab with shell characters from -F is refused"
printf 'sasl.kerberos.keytab=/etc/kgtop/client.keytab\nsasl.kerberos.principal=kgtop@EXAMPLE.COM\n' >"$T_TMP/keytab.props"
"$KGTOP" -c none -F "$T_TMP/keytab.props" -b 127.0.0.1:1 --once --timeout 1 >"$T_TMP/keytab.err" 2>&1
t_is "$?" 1 "a plain keytab and principal from -F are taken"
"$KGTOP" -c none -X "plugin.library.paths=$T_TMP/no-such-plugin" -b 127.0.0.1:1 --once --timeout 1 >"$T_TMP/x.err" 2>&1
t_contains "$T_TMP/x.err" "dlopen" "-X plugin.library.paths on the command line is passed to librdkafka"

# ---------------------------------------------------------------- outputs
fixture_start "$SRC/tests/cli/harden-names.json" --manual || exit 1
"$KGTOP" -c none -b "$BOOTSTRAP" --once --json >"$T_TMP/names.json" 2>&1
"$JSONQ" -v <"$T_TMP/names.json"
t_ok $? "--json with a C1 CSI and bidirectional overrides in names is valid"
LC_ALL=C grep -q "$(printf '\302\233')" "$T_TMP/names.json"
t_ok $((1 - $?)) "--json never writes U+009B raw"
LC_ALL=C grep -q "$(printf '\342\200\256')" "$T_TMP/names.json"
t_ok $((1 - $?)) "nor U+202E"
t_contains "$T_TMP/names.json" '/h\u009b2J' "it escapes U+009B as \\u009b"
t_contains "$T_TMP/names.json" 'g-\u202eevil' "and U+202E as \\u202e"
t_contains "$T_TMP/names.json" 'c-\u2066x\u2069' "and the isolates too"
"$KGTOP" -c none -b "$BOOTSTRAP" --once >"$T_TMP/names.txt" 2>&1
LC_ALL=C grep -q "$(printf '\342\200\256')" "$T_TMP/names.txt"
t_ok $((1 - $?)) "--once text never writes U+202E raw"
LC_ALL=C grep -q "$(printf '\302\233')" "$T_TMP/names.txt"
t_ok $((1 - $?)) "nor U+009B"
t_contains "$T_TMP/names.txt" "GROUP g-?evil" "it shows '?' as the dashboard does"
"$KGTOP" -c none -b "$BOOTSTRAP" --once --record "$T_TMP/names.kgrec" >/dev/null 2>&1
LC_ALL=C grep -q "$(printf '\342\200\256')" "$T_TMP/names.kgrec"
t_ok $((1 - $?)) "a recording escapes it too"
fixture_stop

# ----------------------------------------------------- files kgtop writes
"$KGTOP" -c none --demo --once --record "$T_TMP/r.kgrec" --log "$T_TMP/k.log" --export-trace "$T_TMP/e.jsonl" \
	>/dev/null 2>&1
for f in r.kgrec k.log e.jsonl; do
	t_is "$(stat -c %a "$T_TMP/$f" 2>/dev/null)" 600 "$f is created 0600 (umask 022)"
done

# ------------------------------------------- secrets and written files (issue 25)
fixture_start join-range.json --manual || exit 1
mkdir -p "$T_TMP/sec"
chmod 700 "$T_TMP/sec"
printf 'alice:s3cret-pw\n' >"$T_TMP/sec/auth"
for mode in 666 622 640 604; do
	chmod "$mode" "$T_TMP/sec/auth"
	"$KGTOP" -c none -b "$BOOTSTRAP" --serve 127.0.0.1:0 --serve-auth "$T_TMP/sec/auth" --duration 1 >/dev/null 2>"$T_TMP/sec.err"
	rc=$?
	if [ "$rc" -eq 2 ] && grep -q "auth: mode 0$mode lets .* so kgtop refuses it (fix: chmod" "$T_TMP/sec.err"; then
		t_ok 0 "--serve-auth at $mode is refused with the chmod that fixes it"
	else
		t_ok 1 "--serve-auth at $mode is refused with the chmod that fixes it (exit $rc)"
		sed 's/^/#   /' "$T_TMP/sec.err"
	fi
done
chmod 600 "$T_TMP/sec/auth"
chmod 777 "$T_TMP/sec"
"$KGTOP" -c none -b "$BOOTSTRAP" --serve 127.0.0.1:0 --serve-auth "$T_TMP/sec/auth" --duration 1 >/dev/null 2>"$T_TMP/sec.err"
t_is "$?" 2 "--serve-auth at 600 in a directory anyone can write is refused"
t_contains "$T_TMP/sec.err" "directory $T_TMP/sec has mode 0777" "naming the directory"
chmod 700 "$T_TMP/sec"
"$KGTOP" -c none -b "$BOOTSTRAP" --serve 127.0.0.1:0 --serve-auth "$T_TMP/sec/auth" --duration 1 >/dev/null 2>"$T_TMP/sec.err"
t_is "$?" 0 "--serve-auth at 600 in a directory of its own is taken"
cp "$SRC/tests/data/tls/key.pem" "$T_TMP/sec/key.pem"
chmod 644 "$T_TMP/sec/key.pem"
# the certificate at 644 (a tree from git archive has it 664, which kgtop refuses first)
cp "$SRC/tests/data/tls/cert.pem" "$T_TMP/sec/cert.pem"
chmod 644 "$T_TMP/sec/cert.pem"
"$KGTOP" -c none -b "$BOOTSTRAP" --serve 127.0.0.1:0 --serve-cert "$T_TMP/sec/cert.pem" --serve-key "$T_TMP/sec/key.pem" \
	--duration 1 >/dev/null 2>"$T_TMP/sec.err"
t_is "$?" 2 "a TLS key at 644 is refused"
t_contains "$T_TMP/sec.err" "--serve-key $T_TMP/sec/key.pem: mode 0644 lets group and others read it" "saying who may read it"
printf 'X-Token: s3cret\n' >"$T_TMP/sec/headers"
chmod 644 "$T_TMP/sec/headers"
"$KGTOP" -c none --trace "log:file:///dev/null" --trace-headers "$T_TMP/sec/headers" --once >/dev/null 2>"$T_TMP/sec.err"
t_is "$?" 2 "a --trace-headers file at 644 is refused"
t_lacks "$T_TMP/sec.err" "s3cret" "without a word of it"

# --attach's password without ps: ~/.netrc; a password in the URL is hidden from ps once read
"$KGTOP" -c none -b "$BOOTSTRAP" -i 0.3 --serve 127.0.0.1:0 --serve-auth "$T_TMP/sec/auth" >/dev/null 2>"$T_TMP/srv.err" &
spid=$!
T_PIDS="$T_PIDS $spid"
t_wait_for 10 grep -q '^kgtop: serving ' "$T_TMP/srv.err"
HP=$(sed -n 's|^kgtop: serving http://\([^ ]*\) .*|\1|p' "$T_TMP/srv.err")
mkdir -p "$T_TMP/home"
printf 'machine %s login alice password s3cret-pw\n' "${HP%:*}" >"$T_TMP/home/.netrc"
chmod 600 "$T_TMP/home/.netrc"
HOME="$T_TMP/home" "$KGTOP" -c none --attach "http://$HP" --once >"$T_TMP/netrc.out" 2>&1
t_is "$?" 0 "--attach reads its password from ~/.netrc"
t_contains "$T_TMP/netrc.out" "GROUP g-range" "and reports the groups"
HOME=/nonexistent "$KGTOP" -c none --attach "http://$HP" --once >"$T_TMP/nonetrc.out" 2>&1
t_contains "$T_TMP/nonetrc.out" 'a line "machine HOST login USER password PASSWORD" in ~/.netrc' "without it, the 401 says where a password goes"
HOME=/nonexistent "$KGTOP" -c none --attach "http://alice:s3cret-pw@$HP" --json >/dev/null 2>&1 &
apid=$!
t_wait_for 10 sh -c "tr '\\0' ' ' </proc/$apid/cmdline | grep -q 'alice:\*\**@'"
t_ok $? "a password in the --attach URL is hidden from ps once read ($(tr '\0' ' ' </proc/$apid/cmdline 2>/dev/null | sed 's/^.*--attach //'))"
kill "$apid"
wait "$apid"
kill "$spid"
wait "$spid"
fixture_stop

# --record and --log never write through a link, never over a file that exists, never to one others may read
printf 'precious\n' >"$T_TMP/target"
ln -s "$T_TMP/target" "$T_TMP/link.kgrec"
"$KGTOP" -c none --demo --once --record "$T_TMP/link.kgrec" >/dev/null 2>"$T_TMP/link.err"
t_is "$?" 1 "--record through a planted symbolic link is refused"
t_contains "$T_TMP/link.err" "a symbolic link: kgtop does not write through links" "saying why"
t_is "$(cat "$T_TMP/target")" precious "and the link's target is untouched"
ln -s "$T_TMP/target" "$T_TMP/link.log"
"$KGTOP" -c none --demo --once --log "$T_TMP/link.log" >/dev/null 2>"$T_TMP/link.err"
t_is "$?" 2 "--log through a planted symbolic link is refused"
t_is "$(cat "$T_TMP/target")" precious "and the link's target is untouched"
printf 'old\n' >"$T_TMP/old.kgrec"
"$KGTOP" -c none --demo --once --record "$T_TMP/old.kgrec" >/dev/null 2>"$T_TMP/old.err"
t_is "$?" 1 "--record onto a file that exists is refused"
t_contains "$T_TMP/old.err" "the file exists: kgtop writes a new file" "saying why"
t_is "$(cat "$T_TMP/old.kgrec")" old "and the file is untouched"
printf 'old log\n' >"$T_TMP/open.log"
chmod 644 "$T_TMP/open.log"
"$KGTOP" -c none --demo --once --log "$T_TMP/open.log" >/dev/null 2>"$T_TMP/openlog.err"
t_is "$?" 2 "--log onto a log others may read is refused"
t_contains "$T_TMP/openlog.err" "mode 0644 lets others at what kgtop writes" "with its mode"
chmod 600 "$T_TMP/open.log"
"$KGTOP" -c none -vv --demo --once --log "$T_TMP/open.log" >/dev/null 2>&1
t_is "$(head -1 "$T_TMP/open.log")" "old log" "a log of 0600 is added to"
[ "$(wc -l <"$T_TMP/open.log")" -gt 1 ]
t_ok $? "after what it held"

# ------------------------------------------------------------------ floods
# wait_dog PID SECONDS: wait for it, a watchdog SIGKILLs it after SECONDS (rc 137); sets rc, and ms since t0
wait_dog() {
	(sleep "$2" && kill -KILL "$1" 2>/dev/null) &
	dog=$!
	wait "$1"
	rc=$?
	ms=$((($(date +%s%N) - t0) / 1000000))
	kill "$dog" 2>/dev/null
}

# term_wait PID: SIGTERM, then wait_dog 10 s; sets rc and ms
term_wait() {
	t0=$(date +%s%N)
	kill -TERM "$1"
	wait_dog "$1" 10
}

# an endless HTTP stream of jsonl lines, each naming a new member
mkdir -p "$T_TMP/www"
"$top_builddir/tests/http-serve" "$T_TMP/www" >"$T_TMP/serve.out" 2>&1 &
T_PIDS="$T_PIDS $!"
t_wait_for 10 grep -q '^ready ' "$T_TMP/serve.out"
FLOOD="jsonl:http://127.0.0.1:$(awk '/^ready /{print $2}' "$T_TMP/serve.out")/flood"
t0=$(date +%s%N)
"$KGTOP" -c none --trace "$FLOOD" --json --duration 2 >"$T_TMP/flood.out" 2>&1 &
wait_dog $! 30
t_is "$rc" 0 "--json --duration 2 on an endless flood of new member ids exits 0"
[ "$ms" -le 12000 ]
t_ok $? "and ends on time ($ms ms)"
[ "$(wc -l <"$T_TMP/flood.out")" -ge 2 ]
t_ok $? "after a line per refresh ($(wc -l <"$T_TMP/flood.out") lines)"
"$JSONQ" -l '.source[].message' <"$T_TMP/flood.out" >"$T_TMP/flood.msgs" 2>/dev/null
t_contains "$T_TMP/flood.msgs" "B behind (at most 5000 events and 50 ms of parsing a refresh)" "the source's health shows its backlog"
"$KGTOP" -c none --trace "$FLOOD" --json >"$T_TMP/term.out" 2>&1 &
pid=$!
t_wait_for 30 grep -q 'B behind' "$T_TMP/term.out"
t_ok $? "a --json run on the flood says it is behind"
term_wait "$pid"
[ "$rc" -ne 137 ]
t_ok $? "SIGTERM in the middle of the flood ends kgtop by itself ($ms ms, exit $rc)"

# a reader that stopped reading: kgtop blocked writing a long line into a full pipe still hears SIGTERM
mkfifo "$T_TMP/full"
exec 3<>"$T_TMP/full" # held open, never read
"$KGTOP" -c none --trace "$FLOOD" --json >"$T_TMP/full" 2>"$T_TMP/full.err" &
pid=$!
t_wait_for 30 grep -q 'pipe_write' "/proc/$pid/wchan"
t_ok $? "a --json run whose reader stopped reading blocks in a write to the full pipe"
term_wait "$pid"
exec 3<&-
[ "$rc" -ne 137 ]
t_ok $? "SIGTERM gets through that write: kgtop ends by itself ($ms ms, exit $rc)"

t_done
