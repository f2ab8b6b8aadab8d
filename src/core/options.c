/*
 * options.c: one table of options, read from the config file, the
 * environment and the command line, in that order (later wins).
 *
 * Every option is a row (long name, short letter, argument, help text, and
 * how it is set); the config file uses the same long names ("interval =
 * 2"), so the file, the command line and --help never disagree.  A simple
 * option is set by its row alone: a type (flag, count, string, regex list,
 * duration, whole number, size, factor), the kg_options member it sets and
 * its bounds, with one parser and one wording of errors per type (opt_set).
 * Options with rules of their own (-b, -X, -F, --json, --demo, --trace)
 * have a function.  A setting's default is written once, in its row, as
 * it would be typed ("1h", "8M"): options_defaults() reads it with the
 * row's own parser, --help prints it, and the embedded demo's own default
 * (a shorter lag window) is the row's too.  Everything else reads the
 * value it is handed.  options_given() tells a value the user set from a
 * default, so a recording's settings can win over the defaults only.
 * Repeatable options (-X, -g, -G, -t, --trace) accumulate from the file
 * and the command line in that order.  --help and the messages name the
 * trace kinds from their table (sources/trace/trace_kinds.c).
 *
 * A new option: a member in kg_options (options.h), a row here with its
 * default, the man page (doc/kgtop.1).
 *
 * A value is never taken from the next word when that word is one of the
 * options ("-b --once" is refused; "--brokers=--x" is a value), and the
 * reports (--once, --json) never fall back to the embedded demo: they
 * need -b, $KGTOP_BROKERS, -C NAME, a trace, a replay or --demo.
 */
#include "config.h"

#include "core/options.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <regex.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "model/defaults.h"
#include "sources/trace/trace_kinds.h"
#include "core/options_int.h"
#include "util/util.h"

/* Append to a list. */
static void
list_add(kg_strlist *l, const char *s)
{
	l->v = xreallocarray(l->v, l->n + 1, sizeof *l->v);
	l->v[l->n++] = xstrdup(s);
}

/* Free a list. */
static void
list_free(kg_strlist *l)
{
	size_t i;
	for (i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	l->v = NULL;
	l->n = 0;
}

/* Replace a string option. */
void
options_set_string(char **dst, const char *s)
{
	free(*dst);
	*dst = xstrdup(s);
}

/*
 * Whether glibc's regcomp() would need a great deal of memory for re: it
 * copies what a repetition applies to, so repetition bounds multiply
 * (a{100}{100} is ten thousand copies of a) and stacked repetitions
 * double (a++++...): their product is kept to 1000, a repetition may not
 * follow another, and the pattern is at most 4 KiB.
 */
static bool
regex_too_big(const char *re)
{
	double product = 1;
	const char *p;
	bool after_rep = false;
	for (p = re; *p != '\0'; p++) {
		char *e;
		long lo, hi;
		bool rep = *p == '*' || *p == '+' || *p == '?' || (*p == '{' && isdigit((unsigned char)p[1]));
		if (rep && after_rep)
			return true;
		after_rep = rep;
		if (*p == '\\' && p[1] != '\0') {
			p++;
			continue;
		}
		if (*p != '{' || !isdigit((unsigned char)p[1]))
			continue;
		lo = hi = strtol(p + 1, &e, 10);
		if (*e == ',' && isdigit((unsigned char)e[1]))
			hi = strtol(e + 1, &e, 10);
		else if (*e == ',')
			e++;
		if (*e == '}') {
			product *= (double)KG_MAX(KG_MAX(lo, hi), 1);
			p = e; /* the next character follows the bounds */
		}
	}
	return product > 1000 || strlen(re) > 4096;
}

/* Check that a regex compiles, and is not too big. */
static int
check_regex(const char *what, const char *re, char *err, size_t errsz)
{
	regex_t r;
	int rc;
	if (regex_too_big(re))
		return util_err(err, errsz,
				"%s '%s': pattern too large (over 4 KiB, repetition bounds past 1000, or a repetition of a "
				"repetition)",
				what, re);
	rc = regcomp(&r, re, REG_EXTENDED | REG_NOSUB);
	if (rc != 0) {
		char msg[128];
		regerror(rc, &r, msg, sizeof msg);
		return util_err(err, errsz, "%s '%s': %s", what, re, msg);
	}
	regfree(&r);
	return 0;
}

/* Parse a positive duration; bare numbers in unit_us. */
static int
parse_duration(const char *what, const char *arg, int64_t unit_us, int64_t *out, char *err, size_t errsz)
{
	char *end;
	double v;
	int64_t us;
	errno = 0;
	v = strtod(arg, &end);
	if (end != arg && *end == '\0' && errno == 0 && v > 0 && v * (double)unit_us < 9e18)
		us = (int64_t)(v * (double)unit_us);
	else if (end != arg && *end == '\0')
		us = -1; /* a bare number out of range */
	else
		us = util_parse_duration_us(arg);
	if (us <= 0)
		return util_err(err, errsz, "%s '%s': expected a positive duration (e.g. 2, 500ms, 1h)", what, arg);
	*out = us;
	return 0;
}

/* Parse a positive integer. */
static int
parse_int(const char *what, const char *arg, int lo, int hi, int *out, char *err, size_t errsz)
{
	char *end;
	long v;
	errno = 0;
	v = strtol(arg, &end, 10);
	if (end == arg || *end != '\0' || errno != 0 || v < lo || v > hi)
		return util_err(err, errsz, "%s '%s': expected a whole number from %d to %d", what, arg, lo, hi);
	*out = (int)v;
	return 0;
}

/* Options with code of their own (the others are set through their row's type). */

/* Apply --brokers. */
static int
a_brokers(kg_options *o, const char *a, char *e, size_t n)
{
	if (a[strspn(a, " \t,")] == '\0')
		return util_err(e, n, "-b '%s': expected host:port[,host:port...]", a);
	options_set_string(&o->brokers, a);
	return 0;
}

/* Apply --property. */
static int
a_property(kg_options *o, const char *a, char *e, size_t n)
{
	return options_add_property(o, a, NULL, e, n);
}

/* Apply --properties. */
static int
a_props_file(kg_options *o, const char *a, char *e, size_t n)
{
	return options_read_properties(o, a, e, n);
}

/* Apply --json. */
static int
a_json(kg_options *o, const char *a, char *e, size_t n)
{
	(void)a;
	(void)e;
	(void)n;
	o->json = true;
	if (o->mode != KG_MODE_CHECK)
		o->mode = KG_MODE_JSON; /* with --check: refused, as --check (options_check) */
	return 0;
}

/* Apply --check. */
static int
a_check(kg_options *o, const char *a, char *e, size_t n)
{
	(void)a;
	(void)e;
	(void)n;
	o->mode = KG_MODE_CHECK;
	return 0;
}

/* Apply --demo. */
static int
a_demo(kg_options *o, const char *a, char *e, size_t n)
{
	(void)e;
	(void)n;
	o->demo = true;
	options_set_string(&o->demo_scenario, a);
	return 0;
}

/* Apply --trace. */
static int
a_trace(kg_options *o, const char *a, char *e, size_t n)
{
	const char *colon = strchr(a, ':');
	char kinds[128];
	size_t i;
	if (strcmp(a, "offsets") == 0) {
		/* the cluster's own __consumer_offsets: one reader, however often it is asked for */
		for (i = 0; i < o->traces.n; i++) {
			if (strcmp(o->traces.v[i], "offsets") == 0)
				return 0;
		}
	} else if (colon == NULL || colon == a || colon[1] == '\0') {
		trace_kinds_list(kinds, sizeof kinds);
		return util_err(e, n, "--trace '%s': expected KIND:URL (%s) or offsets", a, kinds);
	}
	list_add(&o->traces, a);
	return 0;
}

/* Apply --config. */
static int
a_config(kg_options *o, const char *a, char *e, size_t n)
{
	(void)o;
	(void)a;
	(void)e;
	(void)n;
	return 0; /* read before everything else */
}

/*
 * The rows.  A row's type says how its argument is read and where it goes
 * (FIELD: its member of kg_options, checked against the type); the bounds
 * and their messages are the row's too.  Messages name the option as
 * "-i" when it has a letter, else "--timeout".
 */
#define FIELD(f, T) (offsetof(kg_options, f) + 0 * sizeof((T *)0 == &((kg_options *)0)->f))
#define CUSTOM(fn) .type = OPT_CUSTOM, .apply = (fn)
#define FLAG(f) .type = OPT_FLAG, .off = FIELD(f, bool)
#define COUNT(f) .type = OPT_COUNT, .off = FIELD(f, int)
#define STRING(f) .type = OPT_STRING, .off = FIELD(f, char *)
#define REGEXES(f) .type = OPT_REGEXES, .off = FIELD(f, kg_strlist)
#define DURATION(f, u, min, why) .type = OPT_DURATION, .off = FIELD(f, int64_t), .unit = (u), .lo = (min), .low = (why)
#define INT(f, min, max) .type = OPT_INT, .off = FIELD(f, int), .lo = (min), .hi = (max)
#define SIZE(f, min, why) .type = OPT_SIZE, .off = FIELD(f, int64_t), .lo = (min), .low = (why)
#define FACTOR(f, min, max) .type = OPT_FACTOR, .off = FIELD(f, double), .lo = (min), .hi = (max)
#define CLI_ONLY .cli_only = true
#define DEFAULT(v) .def = (v)
#define DEMO(v) .demo = (v)
#define NOTE(s) .note = (s)
#define SEC KG_SEC_US
#define MSEC 1000
#define SPEED_MIN 0.25 /* --speed's bounds, as --help prints them */
#define SPEED_MAX 32

static const opt_def table[] = {
	{ "brokers", 'b', required_argument, "LIST", "bootstrap servers (host:port,...); default $KGTOP_BROKERS; none: the embedded demo (the dashboard only)", CUSTOM(a_brokers) },
	{ "cluster", 'C', required_argument, "NAME", "a named cluster of the config file (a [cluster NAME] section: brokers and X. properties); -C list lists them", STRING(cluster) },
	{ "property", 'X', required_argument, "KEY=VALUE", "librdkafka property (repeatable), e.g. -X security.protocol=SASL_SSL", CUSTOM(a_property) },
	{ "properties", 'F', required_argument, "FILE", "file of librdkafka properties (key=value lines)", CUSTOM(a_props_file) },
	{ "include", 'g', required_argument, "REGEX", "show only groups matching REGEX (repeatable)", REGEXES(include) },
	{ "exclude", 'G', required_argument, "REGEX", "hide groups matching REGEX (repeatable)", REGEXES(exclude) },
	{ "topic", 't', required_argument, "REGEX", "only these topics' partitions, and the groups that use them (repeatable)", REGEXES(topics) },
	{ "interval", 'i', required_argument, "SECONDS", "refresh interval",
	  DURATION(interval_us, SEC, SEC / 10, "refresh at most ten times a second (0.1 or more)"), DEFAULT("1") },
	{ "timeout", 0, required_argument, "SECONDS", "how long --once waits for the cluster", DURATION(timeout_us, SEC, 0, NULL),
	  DEFAULT("10"), NOTE("; the embedded demo at least " KG_STR(KG_DEMO_ONCE_TIMEOUT_S)) },
	{ "full-refresh", 0, required_argument, "SECONDS",
	  "ask every group's members and offsets at least this often; the selected, shown, changed and rebalancing ones every refresh, those with members and lag as often as --max-requests leaves room",
	  DURATION(full_refresh_us, SEC, SEC, "ask every group at most once a second (1 or more)"), DEFAULT("30") },
	/* 10,000 groups, half of them Empty, cost about 1,000 requests a second with the default --full-refresh; 10,000 Stable ones about 1,340 */
	{ "max-requests", 0, required_argument, "N",
	  "requests per second kgtop may send the cluster", INT(max_requests, 10, 1000000), DEFAULT("1500") },
	{ "once", 0, no_argument, NULL, "print one report and exit: each group's facts and members, then kafka-consumer-groups.sh --describe's columns and TIME-LAG and STATUS (the verdict)", FLAG(once), CLI_ONLY },
	{ "json", 0, no_argument, NULL, "print JSON lines, one object per refresh (with --once: one object)", CUSTOM(a_json), CLI_ONLY },
	{ "full", 0, no_argument, NULL, "--json: every group in every line (else a line carries what changed, with every group each --keyframe)", FLAG(json_full), CLI_ONLY },
	{ "keyframe", 0, required_argument, "SECONDS", "--json: a line with every group at least this often (and on SIGUSR1); the lines between carry the groups that changed",
	  DURATION(keyframe_us, SEC, SEC, "a keyframe at most once a second (1 or more)"), DEFAULT("10m") },
	{ "duration", 0, required_argument, "SECONDS", "exit after this long", DURATION(duration_us, SEC, 0, NULL), CLI_ONLY },
	{ "history", 0, required_argument, "DURATION", "history kept per group",
	  DURATION(history_us, SEC, 60 * SEC, "keep at least one minute"), DEFAULT("1h") },
	{ "session-timeout", 0, required_argument, "MS", "session.timeout.ms to judge members by when no trace says",
	  DURATION(session_timeout_us, MSEC, 0, NULL), DEFAULT("45000") },
	{ "max-poll-interval", 0, required_argument, "MS", "max.poll.interval.ms likewise", DURATION(max_poll_us, MSEC, 0, NULL), DEFAULT("300000") },
	{ "storm-window", 0, required_argument, "DURATION",
	  "window in which rebalances count towards a storm",
	  DURATION(storm_window_us, SEC, 0, NULL), DEFAULT("5m"), DEMO("1m") },
	{ "storm-rebalances", 0, required_argument, "N",
	  "a storm: the same member joins or leaves in N rebalances within the window, or N rebalances nothing "
	  "explains; a group forming or restarted member by member is none",
	  INT(storm_rebalances, 2, 1000), DEFAULT("3"), DEMO("8") },
	{ "lag-window", 0, required_argument, "DURATION",
	  "window of the progress verdicts: OK, SLOW, REWIND, STALLED (committed offset frozen with lag for a tenth of it), STOPPED (no commit for all of it), LOST",
	  DURATION(lag_window_us, SEC, 10 * SEC, "judge over at least ten seconds"), DEFAULT("5m"), DEMO("20s"),
	  NOTE(", so a stall shows before max.poll.interval.ms") },
	{ "check", 0, no_argument, NULL,
	  "monitoring-plugin check: one line \"KGTOP STATUS - text | perfdata\", exit 0 OK, 1 WARNING, 2 CRITICAL (STALLED, STOPPED, LOST; or a threshold), 3 UNKNOWN (no cluster, no group); one refresh, or --duration's to judge commits",
	  CUSTOM(a_check), CLI_ONLY },
	{ "warn-lag", 0, required_argument, "N", "--check: WARNING from this lag of a group (records)", INT(warn_lag, 1, 2000000000), CLI_ONLY },
	{ "crit-lag", 0, required_argument, "N", "--check: CRITICAL from this lag of a group", INT(crit_lag, 1, 2000000000), CLI_ONLY },
	{ "warn-time-lag", 0, required_argument, "DURATION", "--check: WARNING from this time lag (how old the oldest record waiting is)",
	  DURATION(warn_time_lag_us, SEC, 0, NULL), CLI_ONLY },
	{ "crit-time-lag", 0, required_argument, "DURATION", "--check: CRITICAL from this time lag", DURATION(crit_time_lag_us, SEC, 0, NULL),
	  CLI_ONLY },
	{ "theme", 0, required_argument, "NAME", "colour theme: default, light, mono, high-contrast, a theme's name, or a theme file's path (with a /)", STRING(theme) },
	{ "no-color", 0, no_argument, NULL, "no colours (also when $NO_COLOR is set)", FLAG(no_color) },
	{ "ascii", 0, no_argument, NULL, "ASCII glyphs only (automatic when the locale is not UTF-8)", FLAG(ascii) },
	{ "no-mouse", 0, no_argument, NULL, "leave the mouse to the terminal (to select text); else a click selects, the wheel scrolls", FLAG(no_mouse) },
	{ "select", 0, required_argument, "GROUP", "select this group at start (or when it appears)", STRING(select_group) },
	{ "demo", 0, optional_argument, "SCENARIO", "run the embedded demo (--demo=list lists scenarios); with -b, on that cluster, deleting its groups and topic at exit (what stays is named with the command that removes it)", CUSTOM(a_demo), CLI_ONLY },
	{ "demo-partitions", 0, required_argument, "N", "partitions of the demo topic",
	  INT(demo_partitions, 1, KG_MAX_DEMO_PARTITIONS_N), DEFAULT("6") },
	{ "export-trace", 0, required_argument, "FILE", "write the demo's consumer events as JSON lines (another kgtop reads them with --trace jsonl:file://FILE, plus --trace-from-start for a finished file)", STRING(export_trace), CLI_ONLY },
	{ "trace", 0, required_argument, "KIND:URL", "read a trace stream: {kinds} over http(s):// or file:// (repeatable); offsets: the cluster's own __consumer_offsets (exact generations and commit times; it needs Describe and Read on the topic)", CUSTOM(a_trace) },
	{ "trace-from-start", 0, no_argument, NULL, "read line streams ({streams}) from their start instead of their end", FLAG(trace_from_start) },
	{ "trace-insecure", 0, no_argument, NULL, "do not verify TLS certificates of https:// trace streams and --attach URLs (shown in the header)", FLAG(trace_insecure) },
	{ "trace-headers", 0, required_argument, "FILE", "extra HTTP headers for trace streams (\"Name: value\" lines; never shown)", STRING(trace_headers) },
	{ "record", 0, required_argument, "FILE", "record what kgtop sees to FILE (JSON lines)", STRING(record), CLI_ONLY },
	{ "record-max", 0, required_argument, "SIZE", "rotate the recording into FILE.1 beyond SIZE (e.g. 100M)",
	  SIZE(record_max, 4096, "expected a size of at least 4K (e.g. 100M)") },
	{ "replay", 0, required_argument, "FILE", "replay a recording instead of reading a cluster", STRING(replay), CLI_ONLY },
	{ "speed", 0, required_argument, "X", "replay speed, " KG_STR(SPEED_MIN) " to " KG_STR(SPEED_MAX), FACTOR(speed, SPEED_MIN, SPEED_MAX),
	  DEFAULT("1") },
	{ "at", 0, required_argument, "TIME", "with --replay --once or --check: the moment to report (HH:MM:SS, ISO time, or +SECONDS)", STRING(at), CLI_ONLY },
	{ "serve", 0, required_argument, "[ADDR:]PORT", "serve /metrics (Prometheus), /stream (for --attach), /healthz and /ready over HTTP on ADDR (default 127.0.0.1); without a terminal kgtop serves until SIGTERM", STRING(serve) },
	{ "serve-auth", 0, required_argument, "FILE", "ask --serve's clients for a user and password (\"user:password\" lines of FILE; never shown)", STRING(serve_auth) },
	{ "serve-cert", 0, required_argument, "FILE", "serve HTTPS with this certificate (PEM, with --serve-key)", STRING(serve_cert) },
	{ "serve-key", 0, required_argument, "FILE", "the private key of --serve-cert (PEM)", STRING(serve_key) },
	{ "serve-clients", 0, required_argument, "N", "connections --serve answers at once", INT(serve_clients, 2, 4096), DEFAULT("64") },
	{ "serve-buffer", 0, required_argument, "SIZE", "stream an --attach viewer may fall behind before it is cut off",
	  SIZE(serve_buffer, 65536, "expected a size of at least 64K (e.g. 8M)"), DEFAULT("8M") },
	{ "metrics-partitions", 0, no_argument, NULL, "/metrics: lag, time lag and verdict per partition too (series per group and partition)", FLAG(metrics_partitions) },
	{ "attach", 0, required_argument, "URL", "watch what another kgtop serves (its --serve address, http://host:port; with --serve-auth a ~/.netrc line \"machine HOST login USER password PASSWORD\", or http://user:password@host:port, hidden from ps once read)", STRING(attach), CLI_ONLY },
	{ "verbose", 'v', no_argument, NULL, "log more (to --log FILE; repeatable)", COUNT(verbose) },
	{ "log", 0, required_argument, "FILE", "write a debug log to FILE", STRING(log_file) },
	{ "config", 'c', required_argument, "FILE", "config file (default $KGTOP_CONFIG or ~/.config/kgtop/config; 'none' reads none)", CUSTOM(a_config), CLI_ONLY },
};

/* The option as messages name it: "-i" when it has a letter, else "--timeout". */
static const char *
opt_what(const opt_def *d, char *buf, size_t n)
{
	if (d->letter)
		snprintf(buf, n, "-%c", d->letter);
	else
		snprintf(buf, n, "--%s", d->name);
	return buf;
}

/* Parse a factor from lo to hi, with or without an "x" after it ("2", "2x"). */
static int
parse_factor(const char *what, const char *arg, double lo, double hi, double *out, char *err, size_t errsz)
{
	char *end;
	double v = strtod(arg, &end);
	if (end == arg || (*end != '\0' && strcmp(end, "x") != 0) || !(v >= lo && v <= hi)) /* NaN too */
		return util_err(err, errsz, "%s '%s': expected a factor from %g to %g", what, arg, lo, hi);
	*out = v;
	return 0;
}

_Static_assert(sizeof table / sizeof table[0] <= 64 * sizeof((kg_options *)0)->given / sizeof(uint64_t),
	       "kg_options.given holds a bit per row");

/* Read one option's argument as its row says (what the user typed, or the row's default). */
static int
opt_parse(const opt_def *d, kg_options *o, const char *a, char *e, size_t n)
{
	char what[64];
	void *field = (char *)o + d->off;
	int64_t v = 0;
	opt_what(d, what, sizeof what);
	switch (d->type) {
	case OPT_CUSTOM:
		return d->apply(o, a, e, n);
	case OPT_FLAG:
		*(bool *)field = true;
		return 0;
	case OPT_COUNT:
		(*(int *)field)++;
		return 0;
	case OPT_STRING:
		options_set_string((char **)field, a);
		return 0;
	case OPT_REGEXES:
		if (check_regex(what, a, e, n) < 0)
			return -1;
		list_add((kg_strlist *)field, a);
		return 0;
	case OPT_DURATION:
		if (parse_duration(what, a, d->unit, &v, e, n) < 0)
			return -1;
		if ((double)v < d->lo)
			return util_err(e, n, "%s '%s': %s", what, a, d->low);
		*(int64_t *)field = v;
		return 0;
	case OPT_INT:
		return parse_int(what, a, (int)d->lo, (int)d->hi, (int *)field, e, n);
	case OPT_SIZE:
		v = util_parse_size(a);
		if ((double)v < d->lo)
			return util_err(e, n, "%s '%s': %s", what, a, d->low);
		*(int64_t *)field = v;
		return 0;
	case OPT_FACTOR:
		return parse_factor(what, a, d->lo, d->hi, (double *)field, e, n);
	default:
		return util_err(e, n, "%s: no way to set it", what);
	}
}

/* Set an option the user gave (command line or config file) as its row says; options_given() knows it after. */
int
options_row_set(const opt_def *d, kg_options *o, const char *a, char *e, size_t n)
{
	size_t i = (size_t)(d - table);
	if (opt_parse(d, o, a, e, n) < 0)
		return -1;
	o->given[i / 64] |= (uint64_t)1 << (i % 64);
	return 0;
}

/* Set a row's default v (its default, or the demo's): read by the row's own parser, as the user's value is. */
static void
set_default(const opt_def *d, kg_options *o, const char *v)
{
	char err[256];
	if (opt_parse(d, o, v, err, sizeof err) < 0)
		abort(); /* a default its own row refuses: every test that runs kgtop runs this first */
}

/* Every row's default. */
void
options_defaults(kg_options *o)
{
	size_t i;
	memset(o, 0, sizeof *o);
	for (i = 0; i < KG_ARRAY_LEN(table); i++) {
		if (table[i].def != NULL)
			set_default(&table[i], o, table[i].def);
	}
	o->mode = KG_MODE_UI;
	o->start_mono_us = util_mono_us(); /* --duration counts from kgtop's start, not from its first frame */
}

/* Whether the user set the member of o (a row's), not its default. */
bool
options_given(const kg_options *o, const void *member)
{
	size_t i, off = (size_t)((const char *)member - (const char *)o);
	for (i = 0; i < KG_ARRAY_LEN(table); i++) {
		if (table[i].type != OPT_CUSTOM && table[i].off == off)
			return (o->given[i / 64] >> (i % 64)) & 1;
	}
	return false;
}

/* The embedded demo's own defaults, for the settings the user left alone. */
static void
demo_defaults(kg_options *o)
{
	size_t i;
	for (i = 0; i < KG_ARRAY_LEN(table); i++) {
		if (table[i].demo != NULL && !options_given(o, (char *)o + table[i].off))
			set_default(&table[i], o, table[i].demo);
	}
}

/* The tracker's settings: the user's, else a recording's, else the defaults. */
void
options_model(const kg_options *o, const kg_tracker_config *rec, kg_tracker_config *tc)
{
	memset(tc, 0, sizeof *tc);
	tc->window_us = o->history_us;
	tc->storm_window_us = o->storm_window_us;
	tc->storm_episodes = o->storm_rebalances;
	tc->session_timeout_us = o->session_timeout_us;
	tc->session_src = options_given(o, &o->session_timeout_us) ? KG_LIMIT_CONFIG : KG_LIMIT_DEFAULT;
	tc->max_poll_us = o->max_poll_us;
	tc->max_poll_src = options_given(o, &o->max_poll_us) ? KG_LIMIT_CONFIG : KG_LIMIT_DEFAULT;
	tc->lag_window_us = o->lag_window_us;
	if (rec == NULL)
		return;
	/* the model's own constants, as the recording has them (0: the tracker's) */
	tc->storm_ratio = rec->storm_ratio;
	tc->orphan_grace_us = rec->orphan_grace_us;
	if (rec->storm_window_us > 0 && !options_given(o, &o->storm_window_us))
		tc->storm_window_us = rec->storm_window_us;
	if (rec->storm_episodes > 0 && !options_given(o, &o->storm_rebalances))
		tc->storm_episodes = rec->storm_episodes;
	if (rec->session_timeout_us > 0 && !options_given(o, &o->session_timeout_us)) {
		tc->session_timeout_us = rec->session_timeout_us;
		tc->session_src = rec->session_src;
	}
	if (rec->max_poll_us > 0 && !options_given(o, &o->max_poll_us)) {
		tc->max_poll_us = rec->max_poll_us;
		tc->max_poll_src = rec->max_poll_src;
	}
	/* < 0: a recording older than verdicts, replayed without them unless --lag-window asks */
	if (rec->lag_window_us != 0 && !options_given(o, &o->lag_window_us))
		tc->lag_window_us = rec->lag_window_us;
}

/* The tracker's settings at the options' defaults. */
kg_tracker_config
options_model_defaults(void)
{
	kg_options o;
	kg_tracker_config tc;
	options_defaults(&o);
	options_model(&o, NULL, &tc);
	options_free(&o);
	return tc;
}

/* Free: the rows' strings and lists, then what the custom options and the parser keep. */
void
options_free(kg_options *o)
{
	size_t i;
	for (i = 0; i < KG_ARRAY_LEN(table); i++) {
		if (table[i].type == OPT_STRING)
			free(*(char **)((char *)o + table[i].off));
		else if (table[i].type == OPT_REGEXES)
			list_free((kg_strlist *)((char *)o + table[i].off));
	}
	free(o->brokers);
	options_free_props(o->rdkafka, o->nrdkafka);
	for (i = 0; i < o->nclusters; i++) {
		free(o->clusters[i].name);
		free(o->clusters[i].brokers);
		options_free_props(o->clusters[i].props, o->clusters[i].nprops);
		list_free(&o->clusters[i].traces);
	}
	free(o->clusters);
	list_free(&o->traces);
	free(o->demo_scenario);
	free(o->config_file);
	memset(o, 0, sizeof *o);
}

/* Find a row by long name. */
const opt_def *
options_row_find(const char *name)
{
	size_t i;
	for (i = 0; i < KG_ARRAY_LEN(table); i++) {
		if (strcmp(table[i].name, name) == 0)
			return &table[i];
	}
	return NULL;
}

/* One option in --help: the left column, then the help wrapped within 80 columns. */
static void
print_wrapped(const char *left, const char *help)
{
	enum { LEFT = 30, WIDTH = 79 };
	const char *p = help;
	bool first = true;
	if ((int)strlen(left) > LEFT) {
		printf("  %s\n", left);
		first = false;
	}
	while (*p) {
		int room = WIDTH - LEFT - 3, n = (int)strlen(p);
		if (n > room) {
			n = room;
			while (n > 0 && p[n] != ' ')
				n--;
			if (n == 0)
				n = room;
		}
		printf("  %-*s %.*s\n", LEFT, first ? left : "", n, p);
		first = false;
		p += n;
		while (*p == ' ')
			p++;
	}
}

/*
 * A row's help as --help prints it: {kinds} and {streams} replaced by the
 * trace kinds' table, then the default, the demo's, and the row's note.
 */
static const char *
row_help(const opt_def *d, char *buf, size_t n)
{
	char kinds[128];
	const char *p = d->help, *mark;
	size_t at = 0;
	buf[0] = '\0';
	while ((mark = strchr(p, '{')) != NULL && at < n) {
		bool all = strncmp(mark, "{kinds}", 7) == 0, streams = strncmp(mark, "{streams}", 9) == 0;
		if (all)
			trace_kinds_list(kinds, sizeof kinds);
		else if (streams)
			trace_kinds_list_streams(kinds, sizeof kinds);
		at += (size_t)snprintf(buf + at, n - at, "%.*s%s", (int)(mark - p + !(all || streams)), p,
				       all || streams ? kinds : "");
		p = mark + (all ? 7 : streams ? 9 : 1);
	}
	if (at < n)
		at += (size_t)snprintf(buf + at, n - at, "%s", p);
	if (d->def != NULL && at < n)
		snprintf(buf + at, n - at, " (default %s%s%s%s)", d->def, d->demo ? "; the demo " : "", d->demo ? d->demo : "",
			 d->note ? d->note : "");
	return buf;
}

/* Print usage. */
static void
options_usage(void)
{
	size_t i;
	printf("Usage: kgtop [OPTION]...\n"
	       "top for Kafka consumer groups: who owns which partition, every rebalance\n"
	       "(eager, cooperative or KIP-848's consumer protocol), member health, lag,\n"
	       "time lag and whether each partition makes progress, live.  With no cluster\n"
	       "the dashboard starts an embedded demo (--once and --json need -b, -C or\n"
	       "--demo; --check needs -b, -C or --replay): an eager, a cooperative and a\n"
	       "consumer-protocol group side by side (--demo=list says what this build runs).\n\n"
	       "Options:\n");
	for (i = 0; i < KG_ARRAY_LEN(table); i++) {
		const opt_def *d = &table[i];
		char left[64], help[1024];
		if (d->letter)
			snprintf(left, sizeof left, "-%c, --%s%s%s%s", d->letter, d->name,
				 d->metavar ? (d->arg == optional_argument ? "[=" : " ") : "", d->metavar ? d->metavar : "",
				 d->metavar && d->arg == optional_argument ? "]" : "");
		else
			snprintf(left, sizeof left, "    --%s%s%s%s", d->name,
				 d->metavar ? (d->arg == optional_argument ? "[=" : " ") : "", d->metavar ? d->metavar : "",
				 d->metavar && d->arg == optional_argument ? "]" : "");
		print_wrapped(left, row_help(d, help, sizeof help));
	}
	print_wrapped("-V, --version", "print the versions of kgtop and of its libraries and exit");
	print_wrapped("-h, --help", "print this help and exit");
	printf("\nSettings come from defaults, then the config file (\"name = value\" lines\n"
	       "with the long option names; \"X.key = value\" for librdkafka properties),\n"
	       "then the environment ($KGTOP_BROKERS, $KGTOP_CONFIG, $NO_COLOR), then the\n"
	       "command line: later wins.  Named clusters are [cluster NAME] sections of\n"
	       "the config file (brokers = LIST and X.key = value lines), chosen with\n"
	       "-C NAME.  The config file and -F files must be writable by their owner\n"
	       "only (else kgtop says which chmod fixes them); librdkafka properties that\n"
	       "load code or run commands (plugin.library.paths, sasl.kerberos.kinit.cmd,\n"
	       "ssl.engine.*, ssl.providers) come only from -X.  Files kgtop writes are\n"
	       "created 0600.  kgtop is read-only: it never joins a group and never\n"
	       "commits an offset.  It needs Describe on the cluster, on the groups and\n"
	       "on the topics it shows.\n\n"
	       "Keys (htop's, less's, k9s's): F1 or ? help, F10 or q quit, up/down select,\n"
	       "g/G top/bottom, Enter a group's view alone and Esc back, Tab or 1-5 the\n"
	       "views (o grid, t timeline, h health, e events, L lag), F3 or / search\n"
	       "(n N), F4 or \\ filter, F6 sort menu, s next order (S reverses), p pause,\n"
	       "left/right scrub.  See kgtop(1), kgtop-trace(5), kgtop-record(5).\n"
	       "Exit status: 0 ok, 1 cluster or runtime error, 2 usage error; --check: 0 OK,\n"
	       "1 WARNING, 2 CRITICAL, 3 UNKNOWN (a usage error too).\n");
}

/*
 * Start getopt_long() over.  glibc keeps the place inside a cluster of
 * short options ("-vT") across calls and forgets it only when optind is 0:
 * with 1, a parse that stopped early (an error) would leave the next one
 * reading the old, maybe freed, arguments.
 */
static void
getopt_restart(void)
{
#ifdef __GLIBC__
	optind = 0;
#else
	optind = 1;
#endif
}

/*
 * True when a value taken from the next word of the command line is one
 * of the options ("-b --once", "-g -v"): the option before it lacks its
 * value.
 */
static bool
looks_like_option(const char *arg, const char *shorts)
{
	size_t n, i;
	if (arg[0] != '-' || arg[1] == '\0')
		return false;
	if (arg[1] != '-')
		return arg[1] != ':' && strchr(shorts, arg[1]) != NULL;
	n = strcspn(arg + 2, "=");
	if (n == 0)
		return true; /* "--" ends the options */
	if ((n == 7 && strncmp(arg + 2, "version", 7) == 0) || (n == 4 && strncmp(arg + 2, "help", 4) == 0))
		return true;
	for (i = 0; i < KG_ARRAY_LEN(table); i++) {
		if (strlen(table[i].name) == n && strncmp(arg + 2, table[i].name, n) == 0)
			return true;
	}
	return false;
}

/* What the command line said that the consistency rules need. */
typedef struct cli_seen {
	bool brokers; /* -b */
	bool cluster; /* -C */
} cli_seen;

/* The command line's options, in order (after the file and the environment). */
static int
read_command_line(kg_options *o, int argc, char **argv, const char *shorts, const struct option *lopts, cli_seen *seen,
		  char *err, size_t errsz)
{
	int c, idx;
	size_t i;
	opterr = 0;
	getopt_restart();
	while ((c = getopt_long(argc, argv, shorts, lopts, &idx)) != -1) {
		const opt_def *d = NULL;
		if (c == '?' || c == ':') {
			if (optopt && optopt < 256)
				return util_err(err, errsz, "-%c: %s", optopt,
						strchr(shorts, optopt) ? "needs a value" : "unknown option");
			return util_err(err, errsz, "%s: unknown option or missing value", argv[optind - 1]);
		}
		if (c == 'h' || c == 'V')
			continue;
		if (c >= 1000)
			d = &table[c - 1000];
		for (i = 0; c < 1000 && i < KG_ARRAY_LEN(table); i++) {
			if (table[i].letter == c)
				d = &table[i];
		}
		if (d == NULL)
			return util_err(err, errsz, "unknown option");
		if (optarg != NULL && d->arg == required_argument && optarg == argv[optind - 1] &&
		    looks_like_option(optarg, shorts)) {
			char what[64];
			return util_err(err, errsz, "%s needs a value, and '%s' is an option (a value that starts with '-': --%s=VALUE)",
					opt_what(d, what, sizeof what), optarg, d->name);
		}
		seen->brokers = seen->brokers || d->letter == 'b';
		seen->cluster = seen->cluster || d->letter == 'C';
		if (options_row_set(d, o, optarg ? optarg : "", err, errsz) < 0)
			return -1;
	}
	if (optind < argc)
		return util_err(err, errsz, "unexpected argument '%s' (options start with -)", argv[optind]);
	return 0;
}

/* The rules between options; 0, 1 when done (-C list printed), or -1 with err. */
static int
options_check(kg_options *o, size_t nfile, const cli_seen *seen, bool brokers_env, char *err, size_t errsz)
{
	if (o->cluster != NULL && strcmp(o->cluster, "list") == 0) {
		options_list_clusters(o);
		return 1;
	}
	if (o->cluster != NULL && !seen->cluster && (seen->brokers || brokers_env)) {
		/* -b or $KGTOP_BROKERS beat the file's "cluster = NAME" */
		free(o->cluster);
		o->cluster = NULL;
	}
	if (o->cluster != NULL && options_use_cluster(o, nfile, seen->brokers, seen->cluster, err, errsz) < 0)
		return -1;
	if (o->once && o->mode == KG_MODE_UI)
		o->mode = KG_MODE_ONCE;
	/* a report of the demo's mock data would pass for a cluster's: only the dashboard starts it by itself */
	if (o->mode != KG_MODE_UI && o->replay == NULL && o->attach == NULL && o->brokers == NULL &&
	    ((o->traces.n == 0 && !o->demo) || o->mode == KG_MODE_CHECK))
		return util_err(err, errsz, "%s reports on a cluster: give -b BROKERS, $KGTOP_BROKERS or -C NAME%s",
				o->mode == KG_MODE_JSON ? "--json" : o->mode == KG_MODE_CHECK ? "--check" : "--once",
				o->mode == KG_MODE_CHECK ? " (or --replay FILE)" : " (or --demo for the embedded demo)");
	if (o->mode == KG_MODE_CHECK && (o->json || o->once))
		return util_err(err, errsz, "--check prints one status line: drop %s", o->json && o->once ? "--json and --once"
										      : o->json ? "--json" : "--once");
	if (o->mode == KG_MODE_CHECK && (o->demo || o->attach != NULL || o->serve != NULL || o->record != NULL))
		return util_err(err, errsz, "--check judges a cluster or a recording: drop --demo, --attach, --serve and --record");
	if (o->mode != KG_MODE_CHECK && (o->warn_lag || o->crit_lag || o->warn_time_lag_us || o->crit_time_lag_us))
		return util_err(err, errsz, "--warn-lag, --crit-lag, --warn-time-lag and --crit-time-lag are thresholds of --check");
	if ((o->warn_lag && o->crit_lag && o->warn_lag > o->crit_lag) ||
	    (o->warn_time_lag_us && o->crit_time_lag_us && o->warn_time_lag_us > o->crit_time_lag_us))
		return util_err(err, errsz, "a warning threshold above its critical one: warnings come first");
	if (o->at != NULL && (o->replay == NULL || (!o->once && o->mode != KG_MODE_CHECK)))
		return util_err(err, errsz, "--at needs --replay FILE and --once or --check");
	if (o->replay != NULL && (o->demo || o->record != NULL))
		return util_err(err, errsz, "--replay cannot be combined with --demo or --record");
	if (o->replay != NULL && o->brokers != NULL && getenv("KGTOP_BROKERS") == NULL)
		return util_err(err, errsz, "--replay reads a recording: drop -b");
	if (options_offsets(o) && o->replay == NULL && o->attach == NULL && o->brokers == NULL)
		return util_err(err, errsz, "--trace offsets reads the cluster's own __consumer_offsets: give -b BROKERS, "
				"$KGTOP_BROKERS or -C NAME");
	if (o->attach != NULL && (o->demo || o->replay != NULL || o->traces.n > 0 ||
				  (o->brokers != NULL && getenv("KGTOP_BROKERS") == NULL)))
		return util_err(err, errsz, "--attach watches another kgtop: drop -b, --demo, --replay and --trace");
	/* nothing to watch at all: the embedded demo (trace streams alone are enough to watch) */
	if (o->replay == NULL && o->attach == NULL && o->brokers == NULL && o->traces.n == 0)
		o->demo = true;
	if (o->demo_scenario != NULL && *o->demo_scenario == '\0') {
		free(o->demo_scenario);
		o->demo_scenario = NULL;
	}
	if (o->export_trace != NULL && !o->demo)
		return util_err(err, errsz, "--export-trace writes the demo's consumer events: use it with --demo");
	if (o->demo)
		demo_defaults(o);
	return 0;
}

/* True when --trace offsets was asked. */
bool
options_offsets(const kg_options *o)
{
	size_t i;
	for (i = 0; i < o->traces.n; i++) {
		if (strcmp(o->traces.v[i], "offsets") == 0)
			return true;
	}
	return false;
}

/* Parse everything. */
int
options_parse(kg_options *o, int argc, char **argv, char *err, size_t errsz)
{
	struct option lopts[KG_ARRAY_LEN(table) + 3];
	char shorts[128];
	size_t i, ns = 0, nfile;
	const char *config = NULL;
	cli_seen seen = { false, false };
	bool brokers_env = getenv("KGTOP_BROKERS") != NULL && *getenv("KGTOP_BROKERS");
	int c, idx;

	/* long and short option tables from the rows */
	for (i = 0; i < KG_ARRAY_LEN(table); i++) {
		lopts[i].name = table[i].name;
		lopts[i].has_arg = table[i].arg;
		lopts[i].flag = NULL;
		lopts[i].val = 1000 + (int)i;
		if (table[i].letter) {
			shorts[ns++] = (char)table[i].letter;
			if (table[i].arg == required_argument)
				shorts[ns++] = ':';
		}
	}
	lopts[i] = (struct option){ "version", no_argument, NULL, 'V' };
	lopts[i + 1] = (struct option){ "help", no_argument, NULL, 'h' };
	lopts[i + 2] = (struct option){ NULL, 0, NULL, 0 };
	shorts[ns++] = 'V';
	shorts[ns++] = 'h';
	shorts[ns] = '\0';

	/* first pass: --help, --version, --config */
	opterr = 0;
	getopt_restart();
	while ((c = getopt_long(argc, argv, shorts, lopts, &idx)) != -1) {
		if (c == 'h') {
			options_usage();
			return 1;
		}
		if (c == 'V') {
			o->show_version = true; /* main prints the libraries' versions too */
			return 1;
		}
		if (c == 'c' || (c >= 1000 && strcmp(table[c - 1000].name, "config") == 0))
			config = optarg;
	}
	if (options_read_config(o, config, err, errsz) < 0)
		return -1;
	nfile = o->nrdkafka;
	/* the environment */
	if (brokers_env)
		options_set_string(&o->brokers, getenv("KGTOP_BROKERS"));
	if (getenv("NO_COLOR") != NULL && *getenv("NO_COLOR"))
		o->no_color = true;
	if (read_command_line(o, argc, argv, shorts, lopts, &seen, err, errsz) < 0)
		return -1;
	return options_check(o, nfile, &seen, brokers_env, err, errsz);
}
