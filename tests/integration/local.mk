# tests/integration: the real sources against the fixture broker.
check_PROGRAMS += tests/integration/test_kafka
TESTS += tests/integration/test_kafka
tests_integration_test_kafka_SOURCES = tests/integration/test_kafka.c \
	tests/integration/fixture_util.c tests/integration/fixture_util.h
tests_integration_test_kafka_CFLAGS = $(TEST_CFLAGS)
tests_integration_test_kafka_LDADD = $(TEST_LIBS)
EXTRA_DIST += tests/integration/scenarios/outage.json
# record and replay with the real binary: scripted questions, damage, a live recording, rotation, the dashboard.
TESTS += tests/integration/test_replay.sh tests/integration/test_replay_ui.sh
EXTRA_DIST += tests/integration/test_replay.sh tests/integration/test_replay_ui.sh \
	tests/data/recordings/fixture-demo.kgrec tests/data/recordings/fixture-demo-v1.kgrec \
	tests/data/recordings/fixture-demo.json \
	tests/data/recordings/make-fixture-demo.sh
# The default demo scenario, headless: demo + kafka source + collector + tracker (about 80 s).
check_PROGRAMS += tests/integration/test_demo
TESTS += tests/integration/test_demo
tests_integration_test_demo_SOURCES = tests/integration/test_demo.c
tests_integration_test_demo_CFLAGS = $(TEST_CFLAGS)
tests_integration_test_demo_LDADD = $(TEST_LIBS)
# The demo's controls through collector_command() on the manual scenario (about 40 s).
check_PROGRAMS += tests/integration/test_demo_commands
TESTS += tests/integration/test_demo_commands
tests_integration_test_demo_commands_SOURCES = tests/integration/test_demo_commands.c
tests_integration_test_demo_commands_CFLAGS = $(TEST_CFLAGS)
tests_integration_test_demo_commands_LDADD = $(TEST_LIBS)
EXTRA_DIST += tests/integration/scenarios/hostile.json
# the demo's cleanup of a real cluster (the fixture broker refuses it: every leftover is named)
TESTS += tests/integration/test_demo_cleanup.sh tests/integration/test_topic_filter.sh
EXTRA_DIST += tests/integration/test_demo_cleanup.sh tests/integration/scenarios/demo-cleanup.json \
	tests/integration/test_topic_filter.sh
EXTRA_DIST += tests/integration/scenarios/old-broker.json tests/integration/scenarios/slow-describe.json \
	tests/integration/scenarios/tiered.json tests/integration/scenarios/stall-off.json \
	tests/integration/scenarios/quiet-topic.json tests/integration/scenarios/slow-logend.json \
	tests/integration/scenarios/silent-leader.json tests/integration/scenarios/wide.json \
	tests/integration/scenarios/reads-rest.json tests/integration/scenarios/settled-topic.json \
	tests/integration/scenarios/quiet-many.json
# issue 22's polled symptoms: formation and a rolling restart are no storms, a crash loop is; a crash is
# silent before its removal, inferred a session timeout; the members taking over never silent (about 20 s)
TESTS += tests/integration/test_honest.sh
EXTRA_DIST += tests/integration/test_honest.sh tests/integration/scenarios/honest.json
# The fault table (issue 13): each fault against the real binary, time to detect and to recover (about 2 min).
check_PROGRAMS += tests/integration/test_faults
TESTS += tests/integration/test_faults
tests_integration_test_faults_SOURCES = tests/integration/test_faults.c \
	tests/integration/fixture_util.c tests/integration/fixture_util.h tests/http/httpd.c tests/http/httpd.h
tests_integration_test_faults_CFLAGS = $(TEST_CFLAGS)
tests_integration_test_faults_LDADD = $(TEST_LIBS)
# --serve and --attach with the real binary: /metrics linted by promtool, /stream, authentication, TLS,
# viewers deriving the collector's events, reconnection, a viewer that stops reading
TESTS += tests/integration/test_serve.sh tests/integration/test_serve_safety.sh
EXTRA_DIST += tests/integration/test_serve.sh tests/integration/test_serve_safety.sh tests/integration/scenarios/churn.json \
	tests/data/tls/cert.pem tests/data/tls/key.pem
check_PROGRAMS += tests/tools/httpload
tests_tools_httpload_SOURCES = tests/tools/httpload.c
tests_tools_httpload_CFLAGS = $(AM_CFLAGS)
AM_TESTS_ENVIRONMENT += PROMTOOL='$(PROMTOOL)'; PROMETHEUS='$(PROMETHEUS)'; export PROMTOOL PROMETHEUS;
# a real Prometheus scrapes kgtop through an eager and a cooperative rebalance (queried through its HTTP API)
TESTS += tests/integration/test_prometheus.sh
EXTRA_DIST += tests/integration/test_prometheus.sh tests/integration/scenarios/range-then-coop.json
EXTRA_DIST += tests/integration/alerts-test.yml
