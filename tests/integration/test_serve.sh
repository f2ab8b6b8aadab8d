#!/bin/sh
# test_serve.sh: --serve and --attach with the real binary on the fixture broker.
#  - headless (no terminal): /healthz, /ready before and after the first
#    refresh, /metrics linted by promtool (Debian's prometheus package) before
#    and after a scripted rebalance, with --metrics-partitions, the counter
#    and the histogram of the episode; /stream's header and keyframe;
#    read-only (405), 404, HEAD; SIGTERM ends it with status 0; a busy port
#    and a bad address fail with a message;
#  - --serve-auth: 401 without or with a wrong password, /healthz open, the
#    password in no response; --serve-cert/--serve-key: HTTPS;
#  - --attach: a viewer derives the collector's events (the same words, the
#    same durations) and names whose stream it reads; --once on a stream; a
#    URL with the password; the errors of a bad URL, a closed port, a
#    password missing and a URL that is no stream; the viewer reconnects by
#    itself when the collector comes back;
#  - a viewer that stops reading (SIGSTOP) is cut off while the collector
#    keeps its pace (the gaps between its ticks are measured and printed),
#    then reconnects and is attached again; one that stops reading with the
#    default --serve-buffer is cut off for not reading, counted, and reads
#    the cut-off line, on a line of its own, when it reads again;
#  - issue 25: two different Content-Length headers are refused (400); a
#    password followed by a NUL and more is a wrong password; HTTPS refuses
#    TLS 1.2 without forward secrecy (AES128-SHA) and CBC, takes ECDHE with
#    AES-GCM and TLS 1.3.
. "${top_srcdir:-.}/tests/cli/lib.sh"
export KGTOP_CONFIG=none
unset KGTOP_BROKERS
HTTPLOAD="$top_builddir/tests/tools/httpload"
PROMTOOL=${PROMTOOL:-promtool}
TLS="$top_srcdir/tests/data/tls"
if ! command -v curl >/dev/null; then
	echo "Bail out! curl not found: the --serve tests need it (apt-get install -y curl)"
	exit 1
fi
if ! command -v "$PROMTOOL" >/dev/null; then
	echo "Bail out! promtool not found: install Debian's prometheus package (apt-get install -y prometheus), then ./configure"
	exit 1
fi

# serve_start NAME ARGS...: kgtop --serve in the background, stdout not a terminal; sets URL, HP (host:port), KPID.
serve_start() {
	name=$1
	shift
	"$KGTOP" "$@" >"$T_TMP/$name.out" 2>"$T_TMP/$name.err" &
	KPID=$!
	T_PIDS="$T_PIDS $KPID"
	URL=""
	t_wait_for 10 grep -q '^kgtop: serving ' "$T_TMP/$name.err" || {
		echo "# $name did not start serving:"
		sed 's/^/#   /' "$T_TMP/$name.err"
		return 1
	}
	URL=$(sed -n 's/^kgtop: serving \([^ ]*\) .*/\1/p' "$T_TMP/$name.err")
	HP=${URL#*://}
}
# get PATH [CURL ARGS...]: the body into $T_TMP/body, the status into $T_TMP/status (headers in $T_TMP/head).
get() {
	p=$1
	shift
	curl -s -D "$T_TMP/head" -o "$T_TMP/body" -w '%{http_code}' "$@" "$URL$p" >"$T_TMP/status" 2>/dev/null
}
status() { cat "$T_TMP/status"; }
ready_ok() { get /ready && [ "$(status)" = 200 ]; }
metrics_has() { get /metrics && grep -q "$1" "$T_TMP/body"; }
# step_to GROUP STATE: step the fixture, then wait until kgtop (at $URL) shows the group in that state
step_to() {
	kill -USR1 "$FIXTURE_PID"
	t_wait_for 10 metrics_has "kgtop_group_state{[^}]*group=\"$1\",state=\"$2\"} 1" || echo "# $1 $2 not seen"
}
lines_of() { wc -l <"$1" | tr -d ' '; }
more_lines() { [ "$(lines_of "$1")" -ge "$2" ]; }

# ---------------------------------------------------------------- the documentation's alert rules and options
RULES="$top_srcdir/doc/kgtop-alerts.yml"
"$PROMTOOL" check rules "$RULES" >"$T_TMP/rules.out" 2>&1
t_ok $? "promtool check rules passes on doc/kgtop-alerts.yml"
sed "s|@RULES@|$RULES|" "$top_srcdir/tests/integration/alerts-test.yml" >"$T_TMP/alerts-test.yml"
"$PROMTOOL" test rules "$T_TMP/alerts-test.yml" >"$T_TMP/rules.out" 2>&1
t_ok $? "promtool test rules: storm, stopped group, slow and frequent rebalances, no progress, data lost, time lag, source down fire on kgtop-shaped series"
grep -q SUCCESS "$T_TMP/rules.out" || sed "s/^/#   /" "$T_TMP/rules.out"
sed -n '/^<!-- doc\/kgtop-alerts.yml -->$/,/^```$/p' "$top_srcdir/README.md" | sed '1,2d;$d' >"$T_TMP/readme.rules"
cmp -s "$RULES" "$T_TMP/readme.rules"
t_ok $? "README's alert rules are doc/kgtop-alerts.yml"
sed -n '/^Alert rules for the storm/,/^\.RE$/p' "$top_srcdir/doc/kgtop.1" | sed -n '/^\.RS 4$/,/^\.RE$/p' | sed '1d;$d' |
	sed 's/\\-/-/g; s/^\\&//' >"$T_TMP/man.rules"
grep -v '^#' "$RULES" | cmp -s - "$T_TMP/man.rules"
t_ok $? "the man page's alert rules are doc/kgtop-alerts.yml"
"$KGTOP" --help >"$T_TMP/help"
t_contains "$T_TMP/help" "--serve [ADDR:]PORT" "--help lists --serve"
t_contains "$T_TMP/help" "--attach URL" "--help lists --attach"

# ---------------------------------------------------------------- headless, /metrics, /stream
fixture_start join-range.json --manual || exit 1
serve_start main -b "$BOOTSTRAP" -i 0.2 --serve 127.0.0.1:0 || exit 1
MAIN_PID=$KPID
MAIN_HP=$HP
t_contains "$T_TMP/main.err" "kgtop: serving http://127.0.0.1:" "headless: says where it serves"
get /healthz
t_is "$(status) $(cat "$T_TMP/body")" "200 ok" "/healthz: 200 ok"
t_wait_for 10 ready_ok
t_ok $? "/ready: 200 once the cluster answered"
get /metrics
t_is "$(status)" 200 "/metrics: 200"
t_contains "$T_TMP/head" "Content-Type: text/plain; version=0.0.4" "/metrics: the exposition format's content type"
"$PROMTOOL" check metrics <"$T_TMP/body" >"$T_TMP/lint" 2>&1
t_ok $? "promtool check metrics passes on kgtop's /metrics"
sed 's/^/#   /' "$T_TMP/lint"
t_contains "$T_TMP/body" 'kgtop_group_state{group="g-range",state="Stable"} 1' "/metrics: the group's state (no cluster label on a group's series: a target label)"
t_contains "$T_TMP/body" 'group="g-range"} 3' "/metrics: its members"
t_contains "$T_TMP/body" 'kgtop_source_up{cluster="'"$BOOTSTRAP"'",source="kafka",role="cluster"} 1' "/metrics: the kafka source is up"
curl -sN --max-time 3 "$URL/stream" >"$T_TMP/stream" 2>/dev/null
head -1 "$T_TMP/stream" | "$JSONQ" .kgtop_record >"$T_TMP/v"
t_is "$(cat "$T_TMP/v")" 5 "/stream starts with a recording header (format 5)"
t_is "$(head -1 "$T_TMP/stream" | "$JSONQ" .model.storm_episodes)" 3 "the header carries the model's settings"
t_is "$(sed -n 2p "$T_TMP/stream" | "$JSONQ" .key)" true "then a keyframe"
n2=$(sed -n 2p "$T_TMP/stream" | "$JSONQ" .n)
n3=$(sed -n 3p "$T_TMP/stream" | "$JSONQ" .n)
t_is "$n3" "$((n2 + 1))" "then every tick, numbered without gaps"
head -n 4 "$T_TMP/stream" >"$T_TMP/stream.kgrec"
echo '{"kgtop_stream_end":"the collector stopped"}' >>"$T_TMP/stream.kgrec"
"$KGTOP" --replay "$T_TMP/stream.kgrec" --once >"$T_TMP/rs.txt" 2>&1
t_ok $? "what /stream sent, saved to a file with its end line, replays as a recording"
t_contains "$T_TMP/rs.txt" "GROUP g-range" "and reports the groups"

# consumer-d joins
step_to g-range PreparingRebalance
step_to g-range CompletingRebalance
step_to g-range Stable
t_wait_for 10 metrics_has 'kgtop_rebalances_total{group="g-range",protocol="eager",trigger="join"} 1'
t_ok $? "the eager join counted: kgtop_rebalances_total{protocol=eager,trigger=join} 1"
t_contains "$T_TMP/body" 'kgtop_group_rebalance_duration_seconds_count{group="g-range",protocol="eager"} 1' "the group's durations count the episode"
t_contains "$T_TMP/body" 'kgtop_rebalance_duration_seconds_bucket{cluster="'"$BOOTSTRAP"'",protocol="eager",le="+Inf"} 1' "and the cluster's histogram, in its +Inf bucket"
t_contains "$T_TMP/body" 'kgtop_group_last_rebalance_duration_seconds{group="g-range"}' "and the last duration"
"$PROMTOOL" check metrics <"$T_TMP/body" >"$T_TMP/lint" 2>&1
t_ok $? "promtool passes with counters and a histogram"
get /metrics -X POST
t_is "$(status)" 405 "POST: 405, read-only"
t_contains "$T_TMP/head" "Allow: GET, HEAD" "405 says what is allowed"
get /nope
t_is "$(status)" 404 "an unknown path: 404"
curl -s -I -o /dev/null -w '%{http_code}' "$URL/metrics" >"$T_TMP/status"
t_is "$(status)" 200 "HEAD /metrics: 200"
printf 'GET /metrics HTTP/1.1\r\nHost: kgtop\r\nContent-Length: 0\r\nContent-Length: 5\r\n\r\nhello' >"$T_TMP/cl2.req"
t_is "$("$HTTPLOAD" raw "$HP" "$T_TMP/cl2.req")" 400 "two different Content-Length headers: 400"
printf 'GET /metrics HTTP/1.1\r\nHost: kgtop\r\nContent-Length: 0, 5\r\n\r\n' >"$T_TMP/cl3.req"
t_is "$("$HTTPLOAD" raw "$HP" "$T_TMP/cl3.req")" 400 "two lengths in one Content-Length header: 400"
printf 'GET /metrics HTTP/1.1\r\nHost: kgtop\r\nContent-Length: 0\r\nContent-Length: 0\r\n\r\n' >"$T_TMP/cl4.req"
t_is "$("$HTTPLOAD" raw "$HP" "$T_TMP/cl4.req")" 200 "the same Content-Length twice: 200"

serve_start parts -b "$BOOTSTRAP" -i 0.2 --serve 127.0.0.1:0 --metrics-partitions || exit 1
t_wait_for 10 metrics_has 'kgtop_partition_lag_messages{'
t_ok $? "--metrics-partitions: lag per partition"
t_contains "$T_TMP/body" 'group="g-range",topic="events",partition="5"} 100' "labelled with topic and partition"
"$PROMTOOL" check metrics <"$T_TMP/body" >"$T_TMP/lint" 2>&1
t_ok $? "promtool passes with --metrics-partitions"
kill -TERM "$KPID"
wait "$KPID"
t_ok $? "--metrics-partitions: SIGTERM ends it with status 0"
"$KGTOP" -b "$BOOTSTRAP" --serve "$MAIN_HP" >/dev/null 2>"$T_TMP/busy.err" </dev/null
t_is "$?" 1 "a port in use: exit 1"
t_contains "$T_TMP/busy.err" "cannot listen" "a port in use: says so"
kill -TERM "$MAIN_PID"
wait "$MAIN_PID"
t_ok $? "headless: SIGTERM ends it with status 0"


"$KGTOP" -b "$BOOTSTRAP" --serve "127.0.0.1:http" >/dev/null 2>"$T_TMP/bad.err" </dev/null
t_is "$?" 2 "a malformed --serve: exit 2"
t_contains "$T_TMP/bad.err" "expected [ADDRESS:]PORT" "a malformed --serve: says what it expects"
"$KGTOP" -b "$BOOTSTRAP" --serve 9 --serve-cert "$TLS/cert.pem" >/dev/null 2>"$T_TMP/bad.err" </dev/null
t_is "$?" 2 "--serve-cert without --serve-key: exit 2"

# ---------------------------------------------------------------- authentication, TLS
printf '# who may read\nalice:s3cret-pw\n' >"$T_TMP/auth"
chmod 600 "$T_TMP/auth"
serve_start auth -b "$BOOTSTRAP" -i 0.2 --serve 127.0.0.1:0 --serve-auth "$T_TMP/auth" || exit 1
get /metrics
t_is "$(status)" 401 "--serve-auth: 401 without credentials"
t_contains "$T_TMP/head" 'WWW-Authenticate: Basic realm="kgtop"' "401 asks for basic authentication"
cat "$T_TMP/head" "$T_TMP/body" >"$T_TMP/all-responses"
get /metrics -u alice:wrong
t_is "$(status)" 401 "--serve-auth: 401 with a wrong password"
cat "$T_TMP/head" "$T_TMP/body" >>"$T_TMP/all-responses"
get /healthz
t_is "$(status)" 200 "--serve-auth: /healthz needs none"
t_wait_for 10 get /metrics -u alice:s3cret-pw
get /metrics -u alice:s3cret-pw
t_is "$(status)" 200 "--serve-auth: 200 with the user and password"
cat "$T_TMP/head" "$T_TMP/body" >>"$T_TMP/all-responses"
get /ready -u alice:s3cret-pw
cat "$T_TMP/head" "$T_TMP/body" >>"$T_TMP/all-responses"
"$KGTOP" --attach "http://alice:s3cret-pw@$HP" --once >"$T_TMP/att-auth.txt" 2>&1
t_ok $? "--attach with the user and password in the URL"
t_contains "$T_TMP/att-auth.txt" "GROUP g-range" "and it reports the groups"
"$KGTOP" --attach "http://alice:s3cret-pw@$HP" --json --duration 1 >"$T_TMP/att-auth.jsonl" 2>&1
cat "$T_TMP/att-auth.txt" "$T_TMP/att-auth.jsonl" >>"$T_TMP/all-responses"
"$KGTOP" --attach "http://$HP" --once >"$T_TMP/att-noauth.txt" 2>&1
t_is "$?" 1 "--attach without the password: exit 1"
t_contains "$T_TMP/att-noauth.txt" "it asks for a password" "and says what is missing"
printf 'GET /metrics HTTP/1.1\r\nHost: kgtop\r\nAuthorization: Basic %s\r\nConnection: close\r\n\r\n' \
	"$(printf 'alice:s3cret-pw\000junk' | base64)" >"$T_TMP/nul.req"
t_is "$("$HTTPLOAD" raw "$HP" "$T_TMP/nul.req")" 401 "--serve-auth: the password followed by a NUL and junk: 401"
printf 'GET /metrics HTTP/1.1\r\nHost: kgtop\r\nAuthorization: Basic %s\r\nConnection: close\r\n\r\n' \
	"$(printf 'alice:s3cret-pw' | base64)" >"$T_TMP/good.req"
t_is "$("$HTTPLOAD" raw "$HP" "$T_TMP/good.req")" 200 "--serve-auth: the same request without them: 200"
if grep -q "s3cret" "$T_TMP/all-responses" "$T_TMP/auth.err"; then t_ok 1 "the password is in no response, output or message"; else t_ok 0 "the password is in no response, output or message"; fi
kill -TERM "$KPID"
wait "$KPID"

# a key must be readable by its owner only (issue 25): a copy, 0600
cp "$TLS/key.pem" "$T_TMP/key.pem"
chmod 600 "$T_TMP/key.pem"
cp "$TLS/cert.pem" "$T_TMP/cert.pem"
chmod 644 "$T_TMP/cert.pem" # a tree from git archive has it 664, which kgtop refuses
serve_start tls -b "$BOOTSTRAP" -i 0.2 --serve 127.0.0.1:0 --serve-cert "$T_TMP/cert.pem" --serve-key "$T_TMP/key.pem" || exit 1
case "$URL" in https://*) t_ok 0 "--serve-cert: an https:// URL" ;; *) t_ok 1 "--serve-cert: an https:// URL (got $URL)" ;; esac
t_wait_for 10 get /metrics --cacert "$TLS/cert.pem"
t_is "$(status)" 200 "HTTPS: /metrics with the certificate verified"
curl -s -o /dev/null --max-time 5 "http://$HP/metrics"
t_ok "$(test $? -ne 0; echo $?)" "HTTPS: plain http:// gets no answer"
"$KGTOP" --attach "https://$HP" --trace-insecure --once >"$T_TMP/att-tls.txt" 2>&1
t_ok $? "--attach https:// (the test certificate is self-signed: --trace-insecure)"
"$KGTOP" --attach "https://$HP" --once >"$T_TMP/att-tls2.txt" 2>&1
t_is "$?" 1 "--attach https:// with an unknown certificate: exit 1"
# tls_cipher ARGS...: the cipher openssl s_client agreed on with ARGS, "none" when the handshake failed
tls_cipher() { openssl s_client -connect "$HP" "$@" </dev/null 2>/dev/null | sed -n 's/^ *Cipher *: *//p; s/.*, Cipher is //p' | grep -v '^(NONE)$\|^0000$' | head -1 | grep . || echo none; }
if command -v openssl >/dev/null; then
	t_is "$(tls_cipher -tls1_2 -cipher AES128-SHA)" none "HTTPS: TLS 1.2 without forward secrecy (AES128-SHA) refused"
	t_is "$(tls_cipher -tls1_2 -cipher 'kRSA')" none "HTTPS: no static RSA key exchange at all"
	t_is "$(tls_cipher -tls1_2 -cipher 'ECDHE-RSA-AES128-SHA256:ECDHE-RSA-AES256-SHA384')" none "HTTPS: nor CBC with ECDHE"
	t_is "$(tls_cipher -tls1_2 -cipher ECDHE-RSA-AES128-GCM-SHA256)" ECDHE-RSA-AES128-GCM-SHA256 "HTTPS: TLS 1.2 with ECDHE and AES-GCM taken"
	case "$(tls_cipher -tls1_3)" in TLS_*) t_ok 0 "HTTPS: TLS 1.3 taken" ;; *) t_ok 1 "HTTPS: TLS 1.3 taken" ;; esac
else
	echo "Bail out! openssl not found: the TLS tests need it (apt-get install -y openssl)"
	exit 1
fi
kill -TERM "$KPID"
wait "$KPID"
fixture_stop

# ---------------------------------------------------------------- --attach: the same rebalance
fixture_start join-coop.json --manual || exit 1
port=$("$HTTPLOAD" port)
serve_start coll -b "$BOOTSTRAP" -i 0.2 --json --serve "127.0.0.1:$port" || exit 1
t_wait_for 10 grep -q '"g-coop"' "$T_TMP/coll.out"
"$KGTOP" --attach "$URL" --json >"$T_TMP/view.jsonl" 2>"$T_TMP/view.err" &
vpid=$!
T_PIDS="$T_PIDS $vpid"
t_wait_for 10 grep -q '"attached to 127.0.0.1:'"$port"', ' "$T_TMP/view.jsonl"
t_ok $? "the viewer says whose stream it reads: attached to 127.0.0.1:$port, N s behind"
t_is "$(tail -1 "$T_TMP/view.jsonl" | "$JSONQ" .source.kafka.status)" ok "the viewer shows the collector's sources"
# a cooperative join in two rounds
for st in PreparingRebalance CompletingRebalance Stable PreparingRebalance CompletingRebalance Stable; do
	step_to g-coop "$st"
done
t_wait_for 10 grep -q "rebalance ended after" "$T_TMP/view.jsonl"
t_ok $? "the viewer saw the rebalance end"
"$JSONQ" -l '.events[]' <"$T_TMP/coll.out" | grep -v '^null$' | "$JSONQ" -l .message | grep -v '^source ' >"$T_TMP/coll.msgs"
"$JSONQ" -l '.events[]' <"$T_TMP/view.jsonl" | grep -v '^null$' | "$JSONQ" -l .message >"$T_TMP/view.msgs"
cmp -s "$T_TMP/coll.msgs" "$T_TMP/view.msgs"
t_ok $? "the viewer derives the collector's events, word for word ($(lines_of "$T_TMP/view.msgs") events)"
t_contains "$T_TMP/view.msgs" "consumer-a revoked [3] of [0 3] (incremental)" "round one: incremental"
t_contains "$T_TMP/view.msgs" "consumer-d assigned [3]" "round two: consumer-d assigned [3]"
"$KGTOP" --attach "http://$HP/stream" --once >"$T_TMP/att-once.txt" 2>&1
t_ok $? "--attach URL/stream --once exits 0"
t_contains "$T_TMP/att-once.txt" "GROUP g-coop" "--attach --once reports the groups"

# the collector goes away and comes back: the viewer reconnects by itself
kill -TERM "$KPID"
wait "$KPID"
t_wait_for 10 grep -q '"status":"error".*reconnecting in' "$T_TMP/view.jsonl"
t_ok $? "the collector gone: the viewer says so and when it tries again"
n=$(lines_of "$T_TMP/view.jsonl")
serve_start coll2 -b "$BOOTSTRAP" -i 0.2 --serve "127.0.0.1:$port" || exit 1
t_wait_for 40 sh -c "tail -n +$((n + 1)) '$T_TMP/view.jsonl' | grep -q '\"attached to 127.0.0.1:$port, '"
t_ok $? "the collector back on its port: the viewer attached again by itself"
kill -TERM "$vpid" "$KPID"
wait "$vpid"
t_ok $? "the viewer ends on SIGTERM with status 0"
wait "$KPID"
fixture_stop

"$KGTOP" --attach "ftp://127.0.0.1/x" --once >/dev/null 2>"$T_TMP/e1"
t_is "$?" 2 "--attach with a URL that is not http(s): exit 2"
t_contains "$T_TMP/e1" "--attach: unsupported URL scheme" "and says why"
"$KGTOP" --attach "http://127.0.0.1:$port" --once --timeout 3 >/dev/null 2>"$T_TMP/e2"
t_is "$?" 1 "--attach to a closed port: exit 1"
t_contains "$T_TMP/e2" "--attach: http://127.0.0.1:$port/stream:" "and names the stream"
"$KGTOP" --attach "http://127.0.0.1:$port" -b x:9092 --once >/dev/null 2>"$T_TMP/e3"
t_is "$?" 2 "--attach with -b: exit 2"

# ---------------------------------------------------------------- a viewer that stops reading
fixture_start "$top_srcdir/tests/integration/scenarios/churn.json" || exit 1
serve_start busy -b "$BOOTSTRAP" -i 0.1 --json --serve 127.0.0.1:0 --serve-buffer 64K || exit 1
t_wait_for 10 grep -q '"group-0000"' "$T_TMP/busy.out"
"$KGTOP" --attach "$URL" --json >"$T_TMP/slow.jsonl" 2>"$T_TMP/slow.err" &
spid=$!
T_PIDS="$T_PIDS $spid"
t_wait_for 10 grep -q '"attached to ' "$T_TMP/slow.jsonl"
t_ok $? "a viewer of a busy collector is attached"
kill -STOP "$spid"
before=$(lines_of "$T_TMP/busy.out")
t0=$(date +%s%N)
t_wait_for 60 metrics_has 'kgtop_stream_viewers_dropped_total{[^}]*} 1'
t_ok $? "the viewer that stopped reading is cut off (kgtop_stream_viewers_dropped_total 1)"
t1=$(date +%s%N)
after=$(lines_of "$T_TMP/busy.out")
# the collector's pace meanwhile: the largest gap between two of its ticks
tail -n +"$before" "$T_TMP/busy.out" | head -n $((after - before + 1)) | "$JSONQ" -l .time >"$T_TMP/ticks"
gap=$(awk -F'[T:Z]' '{ s = $2 * 3600 + $3 * 60 + $4; if (NR > 1 && s - p > g) g = s - p; p = s } END { printf "%.3f", g }' "$T_TMP/ticks")
echo "# while the viewer was stopped: $((after - before)) ticks in $(((t1 - t0) / 1000000)) ms (-i 0.1), largest gap between ticks ${gap} s"
t_ok "$(awk -v g="$gap" 'BEGIN { exit !(g > 0 && g < 1.0) }'; echo $?)" "the collector kept its pace: no gap of a second between its ticks (largest ${gap} s)"
kill -CONT "$spid"
t_wait_for 20 grep -q 'cut off: this viewer fell more than 64 KiB of stream behind' "$T_TMP/slow.jsonl"
t_ok $? "the viewer says it was cut off, and why"
n=$(grep -n 'cut off: this viewer' "$T_TMP/slow.jsonl" | head -1 | cut -d: -f1)
t_wait_for 30 sh -c "tail -n +$((n + 1)) '$T_TMP/slow.jsonl' | grep -q '\"attached to '"
t_ok $? "then reconnects by itself and is attached again"
kill -TERM "$spid" "$KPID"
wait "$spid"
wait "$KPID"

# the default --serve-buffer (8 MiB): a reader that stops reading is cut off for not reading, before it falls that far behind
serve_start stall -b "$BOOTSTRAP" -i 0.1 --json --serve 127.0.0.1:0 || exit 1
t_wait_for 10 grep -q '"group-0000"' "$T_TMP/stall.out"
"$HTTPLOAD" pause "$HP" /stream 28 10 "$T_TMP/paused.jsonl" &
ppid=$!
t_wait_for 40 metrics_has 'kgtop_stream_viewers_dropped_total{[^}]*} 1'
t_ok $? "a reader that stopped reading on the default --serve-buffer is cut off and counted (kgtop_stream_viewers_dropped_total 1)"
wait "$ppid"
last=$(tail -n 1 "$T_TMP/paused.jsonl")
case "$last" in
'{"kgtop_stream_end":"cut off: this viewer read nothing for 15 s while stream waited for it"}') t_ok 0 "when it reads again, its last line says it was cut off, and why" ;;
*) t_ok 1 "when it reads again, its last line says it was cut off, and why"; echo "#   last line: $(printf '%.200s' "$last")" ;;
esac
kill -TERM "$KPID"
wait "$KPID"
fixture_stop

t_done
