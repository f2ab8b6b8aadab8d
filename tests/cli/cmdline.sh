#!/bin/sh
# cmdline.sh: the command line as a bastion host meets it: the reports never
# fall back to the demo's mock data, a value that is an option is refused,
# an unknown theme is an error in every mode, --duration ends kgtop by
# itself, --version names the libraries, named clusters ([cluster NAME],
# -C NAME, -C list), and one vocabulary in what the binary prints.
. "${top_srcdir:-.}/tests/cli/lib.sh"

export KGTOP_CONFIG=none HOME=/nonexistent KGTOP_THEMES="$top_srcdir/themes"
unset KGTOP_BROKERS NO_COLOR

# --once and --json without a cluster: a usage error, never a report of the demo's mock data
for mode in --once --json "--once --json"; do
	"$KGTOP" $mode >"$T_TMP/nob" 2>&1
	t_is "$?" 2 "$mode without -b is a usage error (exit 2)"
	t_contains "$T_TMP/nob" "give -b BROKERS, \$KGTOP_BROKERS or -C NAME (or --demo" "$mode says what to give"
	t_lacks "$T_TMP/nob" "GROUP" "$mode prints no report"
done
"$KGTOP" --demo --once >"$T_TMP/demo-once" 2>&1
t_ok $? "--demo --once: the demo on purpose exits 0"
t_contains "$T_TMP/demo-once" "demo (mock cluster)" "and says it is the demo"

# a value that is an option is refused, with the way to give such a value
"$KGTOP" -b --once >"$T_TMP/opt" 2>&1
t_is "$?" 2 "-b --once is a usage error"
t_contains "$T_TMP/opt" "-b needs a value, and '--once' is an option" "saying --once is an option, not the brokers"
t_contains "$T_TMP/opt" "--brokers=VALUE" "and how to give a value that starts with '-'"
"$KGTOP" -g -v -b x --once >"$T_TMP/opt" 2>&1
t_is "$?" 2 "-g -v is a usage error"
t_contains "$T_TMP/opt" "-g needs a value, and '-v' is an option" "a short option too"
"$KGTOP" --theme --once >"$T_TMP/opt" 2>&1
t_is "$?" 2 "--theme --once is a usage error"
"$KGTOP" -c none --brokers=-odd-host:1 --once --timeout 1 >"$T_TMP/opt" 2>&1
t_is "$?" 1 "--brokers=VALUE takes a value that starts with '-' (it fails later, on the cluster)"
t_lacks "$T_TMP/opt" "is an option" "and is not taken for an option"

# an unknown theme is an error everywhere, before anything starts
"$KGTOP" -b x --theme nosuch --once >"$T_TMP/theme" 2>&1
t_is "$?" 2 "--theme nosuch --once exits 2"
t_contains "$T_TMP/theme" "theme 'nosuch': no nosuch.theme" "and names the theme"
t_contains "$T_TMP/theme" "(themes: default, mono" "and lists the themes there are"
"$KGTOP" -b x --theme nosuch --json >"$T_TMP/theme" 2>&1
t_is "$?" 2 "--theme nosuch --json exits 2"
"$KGTOP" --theme nosuch </dev/null >"$T_TMP/theme" 2>&1
t_is "$?" 2 "--theme nosuch for the dashboard exits 2 (before it asks for a terminal)"
printf 'theme = nosuch\n' >"$T_TMP/theme.conf"
"$KGTOP" -c "$T_TMP/theme.conf" --demo --once >"$T_TMP/theme" 2>&1
t_is "$?" 2 "theme = nosuch in the config file exits 2"
mkdir -p "$T_TMP/themes"
printf '[8]\ndim = fg=colour244\n' >"$T_TMP/themes/broken.theme"
KGTOP_THEMES="$T_TMP/themes" "$KGTOP" --theme broken --demo --once >"$T_TMP/theme" 2>&1
t_is "$?" 2 "a theme file that does not parse exits 2"
t_contains "$T_TMP/theme" "broken.theme:2: [8] takes the 8 colours" "naming the file, the line and why"
"$KGTOP" --theme light --demo --once >"$T_TMP/theme" 2>&1
rc=$?
[ "$rc" = 0 ] || sed 's/^/# /' "$T_TMP/theme" | tail -5 # what it said, when it failed
t_ok "$rc" "a theme that is there: --once runs"
# a theme file of one's own, by its path (the README says "a file of yours")
printf '[256]\nheader = fg=colour16,bg=colour214\n' >"$T_TMP/mine.theme"
(cd "$T_TMP" && "$KGTOP" --theme ./mine.theme --demo --once) >"$T_TMP/theme" 2>&1
t_ok "$?" "--theme ./mine.theme (a path): accepted"
"$KGTOP" --theme "$T_TMP/nosuch.theme" --demo --once >"$T_TMP/theme" 2>&1
t_is "$?" 2 "--theme with a path that is not there exits 2"
t_contains "$T_TMP/theme" "nosuch.theme': No such file" "and says so"

# --duration: the dashboard's and --json's end by themselves (the time it takes: make bench-duration)
# (4 s: --json exits 1 when the cluster never answered, and under load the demo's mock cluster with its
# consumers took longer than 2 s to answer a first refresh)
"$KGTOP" --demo --json --duration 4 >"$T_TMP/dur" 2>"$T_TMP/dur.err"
rc=$?
t_ok $rc "--demo --json --duration 4 ends by itself with status 0 ($rc)"
[ "$rc" -eq 0 ] || sed 's/^/#   /' "$T_TMP/dur.err" | tail -5
n=$(wc -l <"$T_TMP/dur")
[ "$n" -ge 1 ]
t_ok $? "and printed JSON lines before ($n)"

# --version: kgtop and the libraries, as kcat -V
"$KGTOP" --version >"$T_TMP/version" 2>&1
t_ok $? "--version exits 0"
for lib in "kgtop " "librdkafka " "libcurl " "ncurses " "cJSON "; do
	t_contains "$T_TMP/version" "$lib" "--version names $lib"
done
"$KGTOP" -V >"$T_TMP/v" 2>&1
t_is "$(cat "$T_TMP/v")" "$(cat "$T_TMP/version")" "-V says the same"
# which librdkafka: the version configure built against (the bundled pin, or the system's), and how
# it is linked as the binary's own needs show (no librdkafka.so: the bundled one, static)
rdk=$(sed -n 's/^KG_RDKAFKA_VERSION = //p' "$top_builddir/Makefile")
if ldd "$KGTOP" | grep -q 'librdkafka\.so'; then how="system shared library"; else how="bundled, linked statically"; fi
t_is "$(grep '^librdkafka ' "$T_TMP/version")" "librdkafka $rdk ($how)" \
	"--version says which librdkafka runs ($rdk) and how it is linked ($how)"
# one cJSON, the system's: the binary imports it (a static librdkafka's vendored copy would define it)
t_ok "$(nm -D "$KGTOP" | grep -q ' U cJSON_Parse$'; echo $?)" "cJSON comes from the system's libcjson, not from a copy linked in"

# named clusters: [cluster NAME] sections, -C NAME, -C list
cat >"$T_TMP/clusters" <<EOF
interval = 2
[cluster prod]
brokers = 127.0.0.1:1
X.client.id = from-prod
[cluster stage]
brokers = 127.0.0.1:2
EOF
"$KGTOP" -c "$T_TMP/clusters" -C list >"$T_TMP/list" 2>&1
t_ok $? "-C list exits 0"
t_contains "$T_TMP/list" "prod" "-C list names prod"
t_contains "$T_TMP/list" "127.0.0.1:2" "and stage's brokers"
"$KGTOP" -c "$T_TMP/clusters" -C stage --once --timeout 5 >"$T_TMP/stage" 2>&1
t_is "$?" 1 "-C stage --once polls stage (down here: exit 1)"
t_contains "$T_TMP/stage" "127.0.0.1:2" "stage's brokers, not prod's"
"$KGTOP" -c "$T_TMP/clusters" -C nosuch --once >"$T_TMP/nosuch" 2>&1
t_is "$?" 2 "-C nosuch is a usage error"
t_contains "$T_TMP/nosuch" "no [cluster nosuch] section" "naming the cluster"
# a name the file gives is the file's value: the message does not repeat it (found by fuzz_config)
printf 'cluster = hunter2-typo\n[cluster prod]\nbrokers = 127.0.0.1:1\n' >"$T_TMP/fileclus"
chmod 600 "$T_TMP/fileclus"
"$KGTOP" -c "$T_TMP/fileclus" --once >"$T_TMP/fileclus.out" 2>&1
t_is "$?" 2 "a config file naming no section is a usage error"
t_contains "$T_TMP/fileclus.out" "has no [cluster] section" "which it says"
t_lacks "$T_TMP/fileclus.out" "hunter2" "without repeating the file's value"
"$KGTOP" -c "$T_TMP/clusters" -C prod -b x:1 --once >"$T_TMP/both" 2>&1
t_is "$?" 2 "-C and -b together are a usage error"
printf '[cluster prod]\ninterval = 3\n' >"$T_TMP/badsec"
"$KGTOP" -c "$T_TMP/badsec" -C prod --once >"$T_TMP/badsec.out" 2>&1
t_is "$?" 2 "an option inside a [cluster] section is a usage error"
t_contains "$T_TMP/badsec.out" "badsec:2: interval: a [cluster] section holds" "naming the file and line"
printf 'cluster = prod\n[cluster prod]\nbrokers = 127.0.0.1:1\n' >"$T_TMP/default-cluster"
KGTOP_BROKERS=127.0.0.1:3 "$KGTOP" -c "$T_TMP/default-cluster" --once --timeout 5 >"$T_TMP/env" 2>&1
t_contains "$T_TMP/env" "127.0.0.1:3" "\$KGTOP_BROKERS beats the file's cluster = NAME"
fixture_start stable.json --manual || exit 1
printf '[cluster fixture]\nbrokers = %s\nX.client.id = kgtop-named\n' "$BOOTSTRAP" >"$T_TMP/fixture.conf"
"$KGTOP" -c "$T_TMP/fixture.conf" -C fixture --once >"$T_TMP/named" 2>&1
t_ok $? "-C fixture --once against the fixture broker exits 0"
t_contains "$T_TMP/named" "fixture ($BOOTSTRAP)" "the report names the cluster"
t_contains "$T_TMP/named" "GROUP g-coop" "and reports its groups"
fixture_stop

# one vocabulary in what the binary prints
"$KGTOP" --demo=list >"$T_TMP/dlist" 2>&1
t_lacks "$T_TMP/dlist" "seeds' bench" "--demo=list speaks of the demo, not of the seeds' bench"
t_contains "$T_TMP/dlist" "-consumer (group.protocol=consumer" "--demo=list names the third group and its protocol (issue 21)"
# the consumer-protocol group runs with librdkafka >= 2.12 (the bundled 2.14.2); a build against an older one says it is left out
rdk=$("$KGTOP" --version | sed -n 's/^librdkafka \([0-9]*\)\.\([0-9]*\)\..*/\1 \2/p')
if [ -n "$rdk" ] && [ "${rdk% *}" -eq 2 ] && [ "${rdk#* }" -lt 12 ]; then
	t_contains "$T_TMP/dlist" "here without kgtop-demo-consumer: group.protocol=consumer needs librdkafka >= 2.12 (this build: 2." \
		"--demo=list says this build's demo runs without the consumer-protocol group, and why (librdkafka ${rdk% *}.${rdk#* })"
else
	t_lacks "$T_TMP/dlist" "here without" "--demo=list: this build's demo runs every group (librdkafka ${rdk% *}.${rdk#* })"
fi
"$KGTOP" --help >"$T_TMP/help" 2>&1
t_contains "$T_TMP/help" "the dashboard starts an embedded demo" "--help: only the dashboard starts the demo by itself"
t_contains "$T_TMP/help" "-C, --cluster NAME" "--help lists -C"
t_contains "$T_TMP/help" "F1" "--help names the F keys"
# the man page's FILES: every file its own .TP item (two ran together, issue 26)
awk '/^\.SH FILES/ { on = 1; next } /^\.SH/ { on = 0 } on && /^\.I / && prev != ".TP" { bad = bad $0 "; " } { prev = $0 }
	END { if (bad != "") { print bad; exit 1 } }' "$top_srcdir/doc/kgtop.1" >"$T_TMP/files" 2>&1
t_ok "$?" "kgtop(1) FILES: each entry under its own .TP"
t_done
