/*
 * test_outputs.c: the one output rule (util_char_unsafe, issue 25) as a
 * property of every output kgtop writes from data it did not write.
 *
 * Every unsafe character class (C0 controls, DEL, escape sequences among
 * them the window-title and clipboard (OSC 52) ones, C1 controls encoded
 * and raw, bidirectional formatting, invalid UTF-8) is put at every
 * position of a short name and at the start, middle and end of a long one,
 * in every string field of the model one at a time: the cluster label, a
 * source's name and message, a broker's host, a topic, a group id, its
 * protocol type, assignor and error, a member's id, client id, host,
 * instance id and why it is silent, the commit policy, an event's text and
 * ids, and an observation's reason text.  Each case is written by every
 * output: the --once text report, a --json line, the --check line, the
 * /metrics exposition, the recording's (and /stream's) lines, the log
 * file and stderr; and the bytes written are checked: valid UTF-8, no NUL,
 * no unsafe character (text keeps only its own line breaks; JSON has none
 * raw and must parse; a name never adds a line).  A field that an output shows with a plain name
 * (found with a marker first, not listed by hand) must show the plain part
 * of the hostile one too, so a case cannot pass by losing the field.  The
 * end-to-end forms (the real binary on the fixture broker, the dashboard
 * in tmux) are tests/cli/outputs.sh.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>

#include "model/event.h"
#include "model/intern.h"
#include "model/obs.h"
#include "model/snapshot.h"
#include "model/tap.h"
#include "record/recorder.h"
#include "report/check.h"
#include "report/metrics.h"
#include "report/report.h"
#include "util/log.h"
#include "util/util.h"

/* Every class of character the rule keeps out, as the bytes a hostile peer sends. */
static const struct {
	const char *name;
	const char *bytes;
} payloads[] = {
	{ "C0 BEL", "\x07" },
	{ "C0 backspace", "\x08" },
	{ "carriage return", "\r" },
	{ "line feed", "\n" },
	{ "tab", "\t" },
	{ "DEL", "\x7f" },
	{ "ESC alone", "\x1b" },
	{ "CSI clear screen", "\x1b[2J\x1b[H" },
	{ "OSC 0 window title", "\x1b]0;PWNED\x07" },
	{ "OSC 2 title, ST", "\x1b]2;PWNED\x1b\\" },
	{ "OSC 52 clipboard", "\x1b]52;c;UFdORUQ=\x07" },
	{ "DCS", "\x1bPq#0;2;0;0;0\x1b\\" },
	{ "C1 CSI (UTF-8)", "\xc2\x9b"
			    "2J" },
	{ "C1 OSC title (UTF-8)", "\xc2\x9d"
				  "0;PWNED\xc2\x9c" },
	{ "C1 NEL", "\xc2\x85" },
	{ "raw C1 byte", "\x9b"
			 "2J" },
	{ "RLO", "\xe2\x80\xae" },
	{ "LRI..PDI", "\xe2\x81\xa6x\xe2\x81\xa9" },
	{ "RLM", "\xe2\x80\x8f" },
	{ "ALM", "\xd8\x9c" },
	{ "invalid 0xff", "\xff" },
	{ "overlong '/'", "\xc0\xaf" },
	{ "surrogate", "\xed\xa0\x80" },
	{ "past U+10FFFF", "\xf4\x90\x80\x80" },
	{ "cut short", "\xe2\x80" },
};

/* The string fields of the model, each filled with the hostile value in turn. */
typedef enum field {
	F_CLUSTER,
	F_SOURCE_NAME,
	F_SOURCE_MSG,
	F_BROKER_HOST,
	F_TOPIC,
	F_GROUP,
	F_PROTOCOL_TYPE,
	F_ASSIGNOR,
	F_GROUP_ERROR,
	F_MEMBER_ID,
	F_CLIENT_ID,
	F_HOST,
	F_INSTANCE_ID,
	F_SILENT_WHY,
	F_COMMIT_POLICY,
	F_EVENT_TEXT,
	F_EVENT_IDS,
	F_OBS_TEXT,
	F_COUNT
} field;

static const char *const field_names[F_COUNT] = {
	"cluster label", "source name", "source message", "broker host", "topic", "group id",
	"protocol type", "assignor", "group error", "member id", "client id", "member host",
	"instance id", "silent why", "commit policy", "event text", "event ids", "observation text",
};

/* The outputs checked. */
typedef enum output {
	O_ONCE,
	O_JSON,
	O_CHECK,
	O_METRICS,
	O_RECORDING,
	O_LOG,
	O_STDERR,
	O_COUNT
} output;

static const char *const output_names[O_COUNT] = { "--once", "--json", "--check", "/metrics",
						   "recording and /stream", "--log", "stderr" };

/* A value in field f, everything else plain. */
static const char *
val(field f, field which, const char *value, const char *plain)
{
	return f == which ? value : plain;
}

/* One snapshot, its events and observations, with value in field f. */
static kg_snapshot *
build(field f, const char *v, kg_evlist *ev, kg_obsq *obs)
{
	kg_builder *b = builder_new(1700000000000000LL);
	int32_t t = intern_topic(val(f, F_TOPIC, v, "orders"));
	int32_t gid = intern_group(val(f, F_GROUP, v, "g-plain"));
	kg_tp asg[2] = { { t, 0 }, { t, 1 } };
	kg_source_health h;
	kg_bgroup *g;
	kg_bmember *m;
	kg_snapshot *s;
	kg_event *e;
	kg_obs *o;
	builder_cluster(b, val(f, F_CLUSTER, v, "b1:9092"));
	memset(&h, 0, sizeof h);
	h.name = val(f, F_SOURCE_NAME, v, "kafka");
	h.role = KG_ROLE_CLUSTER;
	/* a source in trouble says why everywhere (--check's line is its message then) */
	h.status = f == F_SOURCE_NAME || f == F_SOURCE_MSG ? KG_SRC_ERROR : KG_SRC_OK;
	h.message = f == F_SOURCE_NAME || f == F_SOURCE_MSG ? val(f, F_SOURCE_MSG, v, "all brokers down") : NULL;
	h.last_ok_us = 1700000000000000LL;
	builder_source(b, &h);
	builder_broker(b, 2, val(f, F_BROKER_HOST, v, "broker-2"), 9092);
	builder_topic(b, t, 2);
	builder_partition(b, asg[0], 2, 100);
	builder_partition(b, asg[1], 2, 100);
	g = builder_group(b, gid);
	bgroup_state(g, KG_STATE_STABLE);
	bgroup_protocol(g, val(f, F_PROTOCOL_TYPE, v, "consumer"), val(f, F_ASSIGNOR, v, "range"));
	bgroup_coordinator(g, 2);
	if (f == F_GROUP_ERROR)
		bgroup_error(g, v);
	if (f == F_COMMIT_POLICY)
		bgroup_reprocessed(g, 3, v);
	bgroup_committed(g, asg[0], 90);
	bgroup_committed(g, asg[1], 40);
	m = bgroup_member(g, val(f, F_MEMBER_ID, v, "c-1-4f2a"));
	bmember_ids(m, val(f, F_CLIENT_ID, v, "c-1"), val(f, F_HOST, v, "/10.0.0.1"), val(f, F_INSTANCE_ID, v, "i-1"));
	bmember_assignment(m, asg, 2);
	s = builder_finish(b);
	if (f == F_SILENT_WHY) {
		s->groups[0].members[0].status = KG_MEMBER_SILENT;
		s->groups[0].members[0].silent_since_us = 1699999990000000LL;
		s->groups[0].members[0].silent_why = v;
	}
	/* events: a member left (ids, reason text), a source's message */
	e = event_new(KG_EV_MEMBER_LEFT, 1700000000000000LL, gid);
	event_member(e, val(f, F_EVENT_IDS, v, "c-1-4f2a"), val(f, F_EVENT_IDS, v, "c-1"), val(f, F_EVENT_IDS, v, "i-1"), 0);
	event_text(e, val(f, F_EVENT_TEXT, v, "left the group"));
	evlist_push(ev, e);
	e = event_new(KG_EV_SOURCE, 1700000000000000LL, -1);
	event_text(e, val(f, F_EVENT_TEXT, v, "kafka: ok"));
	evlist_push(ev, e);
	/* an observation: a member left, with a reason text (a trace's) */
	o = obs_new(KG_OBS_LEFT, 1700000000000000LL, gid, "log");
	obs_member(o, val(f, F_MEMBER_ID, v, "c-1-4f2a"), val(f, F_CLIENT_ID, v, "c-1"), NULL,
		   val(f, F_HOST, v, "/10.0.0.1"));
	obs_text(o, val(f, F_OBS_TEXT, v, "consumer poll timeout has expired"));
	obsq_push(obs, o);
	return s;
}

/* ------------------------------------------------------------ outputs */

typedef struct sinkbuf {
	sbuf lines;
} sinkbuf;

static bool
want(void *arg)
{
	(void)arg;
	return true;
}

static void
on_line(void *arg, int64_t n, const char *line, size_t len)
{
	(void)n;
	sbuf_addn(&((sinkbuf *)arg)->lines, line, len);
}

static void
on_key(void *arg, int64_t n, const char *buf, size_t hlen, size_t len)
{
	(void)n;
	(void)hlen;
	sbuf_addn(&((sinkbuf *)arg)->lines, buf, len);
}

/* The whole content of a file, appended to out; the file emptied. */
static void
slurp(const char *path, sbuf *out)
{
	FILE *f = fopen(path, "rb");
	char chunk[4096];
	size_t n;
	assert_non_null(f);
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
		sbuf_addn(out, chunk, n);
	fclose(f);
	f = fopen(path, "wb");
	assert_non_null(f);
	fclose(f);
}

static char log_path[64], err_path[64];

/* What output o writes for the case, into out. */
static void
write_output(output o, field f, const char *v, sbuf *out)
{
	kg_evlist ev = { 0 };
	kg_obsq obs = { 0 };
	kg_snapshot *s = build(f, v, &ev, &obs);
	switch (o) {
	case O_ONCE:
		report_text(out, s);
		break;
	case O_JSON:
		report_json(out, s, ev.v, ev.n, s->time_us);
		break;
	case O_CHECK: {
		kg_check_limits l = { 0, 0, 0, 0, 0 };
		check_snapshot(s, &l, NULL, out);
		check_guard_lines(out);
		break;
	}
	case O_METRICS: {
		kg_metrics_ctx ctx;
		kg_metrics *m = metrics_new();
		memset(&ctx, 0, sizeof ctx);
		ctx.partitions = true;
		metrics_count(m, &ev);
		metrics_render(m, s, &ctx, out);
		metrics_unref(m);
		break;
	}
	case O_RECORDING: {
		sinkbuf sb = { { 0 } };
		kg_record_sink sink = { &sb, want, on_line, want, on_key };
		kg_recorder *r;
		kg_tap tap;
		recorder_open_sink(&sink, &r);
		recorder_tap(r, &tap);
		tap.before(tap.arg, &obs, s);
		tap.after(tap.arg, s, &ev);
		tap.before(tap.arg, &obs, s); /* a second tick: a line against the keyframe */
		tap.after(tap.arg, s, &ev);
		recorder_close(r);
		sbuf_addn(out, sb.lines.s, sb.lines.len);
		sbuf_free(&sb.lines);
		break;
	}
	case O_LOG:
		/* the log and stderr quote what they are given: a name, a message, a source's words */
		log_msg(KG_LOG_WARN, "group %s: %s", s->groups[0].name, v);
		slurp(log_path, out);
		break;
	case O_STDERR: {
		/* stderr into a file of this test while kgtop says it (the test's own messages stay) */
		int fd = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0600), saved = dup(STDERR_FILENO);
		assert_true(fd >= 0 && saved >= 0);
		fflush(stderr);
		dup2(fd, STDERR_FILENO);
		log_say("group %s: %s", s->groups[0].name, v);
		dup2(saved, STDERR_FILENO);
		close(saved);
		close(fd);
		slurp(err_path, out);
		break;
	}
	default:
		break;
	}
	snapshot_unref(s);
	evlist_clear(&ev);
	free(ev.v);
	obsq_clear(&obs);
	free(obs.v);
}

/* ------------------------------------------------------------ the rule */

/* NULL when the bytes keep the rule (text: its own line breaks only), else what broke it. */
static const char *
rule_broken(const char *s, size_t n, bool newlines, size_t *at)
{
	size_t i = 0;
	while (i < n) {
		long cp;
		size_t used = util_utf8_decode(s + i, n - i, &cp);
		*at = i;
		if (s[i] == '\0')
			return "a NUL byte";
		if (cp < 0)
			return "invalid UTF-8";
		if (cp == '\n' && !newlines)
			return "a raw line break";
		if (cp != '\n' && util_char_unsafe(cp))
			return "an unsafe character";
		i += used;
	}
	return NULL;
}

/* The plain part a field must still show: the longer of what stands before and after the payload. */
static void
plain_part(const char *base, size_t pos, char *out, size_t n)
{
	size_t len = strlen(base);
	if (pos >= len - pos)
		snprintf(out, n, "%.*s", (int)pos, base);
	else
		snprintf(out, n, "%s", base + pos);
}

/* Where each field shows at all, found with a marker (no list by hand to fall out of date), and the lines then. */
static bool shows[F_COUNT][O_COUNT];
static size_t lines_plain[F_COUNT][O_COUNT];

/* Line breaks in an output. */
static size_t
count_lines(const sbuf *out)
{
	size_t i, n = 0;
	for (i = 0; i < out->len; i++)
		n += out->s[i] == '\n';
	return n;
}

/* Check one output's bytes; fail naming the case. */
static void
check_bytes(output o, field f, const char *pname, size_t pos, const sbuf *out, const char *must_show)
{
	size_t at = 0;
	bool json = o == O_JSON || o == O_RECORDING;
	/* --check's long output has line breaks of its own: lines_plain below says a name adds none */
	const char *why = rule_broken(out->s ? out->s : "", out->len, o != O_JSON, &at);
	if (why == NULL && o == O_RECORDING) {
		/* JSON lines: each parses, no raw line break inside */
		size_t i = 0;
		while (why == NULL && i < out->len) {
			const char *nl = memchr(out->s + i, '\n', out->len - i);
			size_t end = nl ? (size_t)(nl - out->s) : out->len;
			char *line = xstrndup(out->s + i, end - i);
			cJSON *j = cJSON_Parse(line);
			if (j == NULL && end > i) {
				why = "a line that is not JSON";
				at = i;
			}
			cJSON_Delete(j);
			free(line);
			i = end + 1;
		}
	} else if (why == NULL && json) {
		char *line = xstrndup(out->s, out->len);
		cJSON *j = cJSON_Parse(line);
		if (j == NULL)
			why = "not JSON";
		cJSON_Delete(j);
		free(line);
	}
	if (why == NULL && count_lines(out) != lines_plain[f][o]) {
		why = "a line more or less than with a plain name (a name started a line of its own)";
		at = 0;
	}
	if (why == NULL && must_show != NULL && strstr(sbuf_str(out), must_show) == NULL) {
		why = "the field is missing (its plain part is not shown)";
		at = 0;
	}
	if (why != NULL) {
		/* the bytes around, printable ASCII as it is and the rest as \xNN (the log may be read on a terminal) */
		size_t from = at > 60 ? at - 60 : 0, i;
		sbuf ex = { 0 };
		for (i = from; i < out->len && i < from + 160; i++) {
			unsigned char c = (unsigned char)out->s[i];
			if (c >= 0x20 && c < 0x7f)
				sbuf_addc(&ex, (char)c);
			else
				sbuf_addf(&ex, "\\x%02x", c);
		}
		print_error("%s: %s with %s at %zu: %s at byte %zu:\n...%s...\n", output_names[o], field_names[f], pname,
			    pos, why, at, sbuf_str(&ex));
		sbuf_free(&ex);
		fail();
	}
}

static void
find_where_fields_show(void)
{
	int f, o;
	for (f = 0; f < F_COUNT; f++) {
		for (o = 0; o < O_COUNT; o++) {
			sbuf out = { 0 };
			write_output((output)o, (field)f, "Mk7q2Zv", &out);
			shows[f][o] = strstr(sbuf_str(&out), "Mk7q2Zv") != NULL;
			lines_plain[f][o] = count_lines(&out);
			sbuf_free(&out);
		}
		print_message("# %-17s shows in%s%s%s%s%s%s%s\n", field_names[f], shows[f][0] ? " --once" : "",
			      shows[f][1] ? " --json" : "", shows[f][2] ? " --check" : "", shows[f][3] ? " /metrics" : "",
			      shows[f][4] ? " recording" : "", shows[f][5] ? " --log" : "", shows[f][6] ? " stderr" : "");
	}
}

/* Every class at every position of a short name and at the ends and middle of a long one, in every field, through every output. */
static void
test_every_class_everywhere(void **state)
{
	static const char shortb[] = "Kq7ZxWv3";
	char longb[241];
	size_t p, k, i, cases = 0, shown = 0;
	int f, o;
	(void)state;
	for (i = 0; i < sizeof longb - 1; i++)
		longb[i] = "Lm4Tn8Rs"[i % 8];
	longb[sizeof longb - 1] = '\0';
	find_where_fields_show();
	for (f = 0; f < F_COUNT; f++) {
		int n = 0;
		for (o = 0; o < O_COUNT; o++)
			n += shows[f][o];
		if (n == 0)
			print_error("%s shows in no output\n", field_names[f]);
		assert_true(n > 0); /* a field no output shows tests nothing */
	}
	for (k = 0; k < KG_ARRAY_LEN(payloads); k++) {
		for (f = 0; f < F_COUNT; f++) {
			size_t positions[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 1000, 1120, 1240 };
			for (p = 0; p < KG_ARRAY_LEN(positions); p++) {
				const char *base = positions[p] >= 1000 ? longb : shortb;
				size_t pos = positions[p] >= 1000 ? positions[p] - 1000 : positions[p];
				char *v = xasprintf("%.*s%s%s", (int)pos, base, payloads[k].bytes, base + pos);
				char plain[256];
				plain_part(base, pos, plain, sizeof plain);
				for (o = 0; o < O_COUNT; o++) {
					sbuf out = { 0 };
					write_output((output)o, (field)f, v, &out);
					check_bytes((output)o, (field)f, payloads[k].name, pos, &out,
						    shows[f][o] && o != O_METRICS ? plain : NULL);
					shown += shows[f][o];
					cases++;
					sbuf_free(&out);
				}
				free(v);
			}
		}
	}
	print_message("# %zu cases (%zu where the field shows)\n", cases, shown);
}

/* NUL and the rest in the middle of a text a writer holds: the length written follows what the guard made of it. */
static void
test_guard_length(void **state)
{
	static const char in[] = "GROUP \xe2\x80\xae\xe2\x80\xae\xe2\x80\xae"
				 "abc\0\x1b]0;PWNED\x07tail\n"
				 "next \xc2\x9b"
				 "2J line\n";
	sbuf b = { 0 };
	size_t at;
	(void)state;
	sbuf_adds(&b, "kept\n");
	sbuf_addn(&b, in, sizeof in - 1);
	sbuf_sanitize(&b, 5, true);
	assert_null(rule_broken(b.s, b.len, true, &at));
	assert_int_equal(b.len, strlen(b.s)); /* nothing after the text: the writer writes b.len */
	assert_string_equal(b.s, "kept\nGROUP ???abc??]0;PWNED?tail\nnext ?2J line\n");
	sbuf_free(&b);
}

/* log and stderr go to files of this test. */
static int
setup(void **state)
{
	(void)state;
	snprintf(log_path, sizeof log_path, "/tmp/kgtop-outputs-log-%ld", (long)getpid());
	snprintf(err_path, sizeof err_path, "/tmp/kgtop-outputs-err-%ld", (long)getpid());
	unlink(log_path);
	return log_open(log_path, 0, NULL, 0);
}

static int
teardown(void **state)
{
	(void)state;
	log_close();
	unlink(log_path);
	unlink(err_path);
	return 0;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_guard_length),
		cmocka_unit_test(test_every_class_everywhere),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
