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
 * have a function.  Defaults come from model/defaults.h, and --help prints
 * them from there.  Repeatable options (-X, -g, -G, -t, --trace)
 * accumulate from the file and the command line in that order.
 *
 * A new option: a member in kg_options (options.h), a row here, the man
 * page (doc/kgtop.1); a default other than zero goes in model/defaults.h
 * and options_defaults().
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
#include "sources/kafka/rdprops.h"
#include "util/secfile.h"
#include "util/util.h"

typedef int (*opt_apply)(kg_options *o, const char *arg, char *err, size_t errsz);

/* How a row's argument is read, and the type of the kg_options member it sets. */
typedef enum opt_type {
	OPT_CUSTOM,   /* a function of its own (apply) */
	OPT_FLAG,     /* bool: true */
	OPT_COUNT,    /* int: one more each time (-v -v) */
	OPT_STRING,   /* char *: replaced */
	OPT_REGEXES,  /* kg_strlist: one more extended regex (repeatable) */
	OPT_DURATION, /* int64_t microseconds, positive and at least lo; a bare number counts in unit */
	OPT_INT,      /* int: a whole number from lo to hi */
	OPT_SIZE,     /* int64_t bytes (100M, 4K), at least lo */
	OPT_FACTOR,   /* double from lo to hi, "2" or "2x" */
	OPT_TYPE_COUNT
} opt_type;

typedef struct opt_def {
	const char *name;  /* long name, also the config file key */
	int letter;        /* short option or 0 */
	int arg;           /* no_argument, required_argument, optional_argument */
	const char *metavar;
	const char *help;
	opt_type type;
	size_t off;        /* the member of kg_options it sets (not OPT_CUSTOM) */
	int64_t unit;      /* OPT_DURATION: microseconds of a bare number */
	double lo, hi;     /* bounds: OPT_INT and OPT_FACTOR both, OPT_DURATION and OPT_SIZE lo */
	const char *low;   /* OPT_DURATION, OPT_SIZE: what to say below lo */
	opt_apply apply;   /* OPT_CUSTOM */
	bool cli_only;     /* not accepted in the config file */
} opt_def;

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
static void
set_string(char **dst, const char *s)
{
	free(*dst);
	*dst = xstrdup(s);
}

/* Trim spaces at both ends in place. */
static char *
trim(char *s)
{
	char *e;
	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n' || e[-1] == '\r'))
		*--e = '\0';
	return s;
}

/* The first word of a line, for messages: a value (perhaps a password) after it is never repeated. */
static const char *
first_word(const char *s, char *buf, size_t n)
{
	size_t i = strcspn(s, " \t=:");
	snprintf(buf, n, "%.*s", (int)(i < n ? i : n - 1), s);
	return buf;
}

/* A name safe to repeat in a message: an option's shape (lower case, digits, '.', '_', '-'). */
static bool
name_shown(const char *k)
{
	size_t n = strlen(k);
	return n > 0 && n <= 64 && strspn(k, "abcdefghijklmnopqrstuvwxyz0123456789._-") == n;
}

/* Add a librdkafka property to a list (the options', or a named cluster's), set at origin ("FILE:LINE", judged by rdprops; NULL: -X, taken as typed). */
static int
add_kv_pair(kg_kv **list, size_t *n, const char *k, const char *v, const char *origin, char *err, size_t errsz)
{
	if (*k == '\0')
		return util_err(err, errsz, "%s: empty key before '='", origin ? origin : "-X");
	if (origin != NULL && rdprops_check_file(k, v, origin, err, errsz) < 0)
		return -1;
	*list = xreallocarray(*list, *n + 1, sizeof **list);
	(*list)[*n].key = xstrdup(k);
	(*list)[*n].value = xstrdup(v);
	(*list)[*n].origin = origin ? xstrdup(origin) : NULL;
	(*n)++;
	return 0;
}

/* Add key=value to a list, set at origin (NULL: -X); a file's line is never repeated. */
static int
add_kv(kg_kv **list, size_t *n, const char *kv, const char *origin, char *err, size_t errsz)
{
	char *copy, *eq, w[128];
	int rc;
	if (strchr(kv, '=') == NULL) {
		if (origin != NULL)
			return util_err(err, errsz, "%s: expected key=value (the line is not shown)", origin);
		return util_err(err, errsz, "-X %s: expected key=value", first_word(kv, w, sizeof w));
	}
	copy = xstrdup(kv);
	eq = strchr(copy, '=');
	*eq = '\0';
	rc = add_kv_pair(list, n, trim(copy), trim(eq + 1), origin, err, errsz);
	free(copy);
	return rc;
}

/* Read a file's lines, of any length, trimmed; each not empty nor a comment goes to fn with "FILE:N". */
static int
read_lines(FILE *f, const char *path, int (*fn)(void *, char *, const char *, char *, size_t), void *ctx,
	   char *err, size_t errsz)
{
	char *buf = NULL, *where;
	size_t cap = 0;
	int lineno = 0, rc = 0;
	while (rc == 0 && getline(&buf, &cap, f) >= 0) {
		char *s = trim(buf);
		lineno++;
		if (*s == '\0' || *s == '#' || *s == '!')
			continue;
		where = xasprintf("%s:%d", path, lineno);
		rc = fn(ctx, s, where, err, errsz);
		free(where);
	}
	if (buf != NULL)
		memset(buf, 0, cap); /* the lines may hold secrets */
	free(buf);
	fclose(f);
	return rc;
}

/* Add a librdkafka property key=value to the options, set at origin (NULL: -X). */
static int
add_property(kg_options *o, const char *kv, const char *origin, char *err, size_t errsz)
{
	return add_kv(&o->rdkafka, &o->nrdkafka, kv, origin, err, errsz);
}

/* Free a list of properties. */
static void
kv_free(kg_kv *v, size_t n)
{
	size_t i;
	for (i = 0; i < n; i++) {
		free(v[i].key);
		free(v[i].value);
		free(v[i].origin);
	}
	free(v);
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

/* One line of a properties file. */
static int
properties_line(void *ctx, char *s, const char *where, char *err, size_t errsz)
{
	return add_property(ctx, s, where, err, errsz);
}

/* -F: a librdkafka properties file (kept to the rules of secfile.h). */
static int
apply_properties_file(kg_options *o, const char *path, char *err, size_t errsz)
{
	FILE *f = secfile_open(path, "-F", err, errsz);
	if (f == NULL)
		return -1;
	return read_lines(f, path, properties_line, o, err, errsz);
}

/* Options with code of their own (the others are set through their row's type). */

/* Apply --brokers. */
static int
a_brokers(kg_options *o, const char *a, char *e, size_t n)
{
	if (a[strspn(a, " \t,")] == '\0')
		return util_err(e, n, "-b '%s': expected host:port[,host:port...]", a);
	set_string(&o->brokers, a);
	return 0;
}

/* Apply --property. */
static int
a_property(kg_options *o, const char *a, char *e, size_t n)
{
	return add_property(o, a, NULL, e, n);
}

/* Apply --properties. */
static int
a_props_file(kg_options *o, const char *a, char *e, size_t n)
{
	return apply_properties_file(o, a, e, n);
}

/* Apply --json. */
static int
a_json(kg_options *o, const char *a, char *e, size_t n)
{
	(void)a;
	(void)e;
	(void)n;
	o->mode = KG_MODE_JSON;
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
	set_string(&o->demo_scenario, a);
	return 0;
}

/* Apply --trace. */
static int
a_trace(kg_options *o, const char *a, char *e, size_t n)
{
	const char *colon = strchr(a, ':');
	if (colon == NULL || colon == a || colon[1] == '\0')
		return util_err(e, n, "--trace '%s': expected KIND:URL (log, jolokia, jsonl, rdstats)", a);
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
#define SEC KG_SEC_US
#define MSEC 1000

static const opt_def table[] = {
	{ "brokers", 'b', required_argument, "LIST", "bootstrap servers (host:port,...); default $KGTOP_BROKERS; none: the embedded demo (the dashboard only)", CUSTOM(a_brokers) },
	{ "cluster", 'C', required_argument, "NAME", "a named cluster of the config file (a [cluster NAME] section: brokers and X. properties); -C list lists them", STRING(cluster) },
	{ "property", 'X', required_argument, "KEY=VALUE", "librdkafka property (repeatable), e.g. -X security.protocol=SASL_SSL", CUSTOM(a_property) },
	{ "properties", 'F', required_argument, "FILE", "file of librdkafka properties (key=value lines)", CUSTOM(a_props_file) },
	{ "include", 'g', required_argument, "REGEX", "show only groups matching REGEX (repeatable)", REGEXES(include) },
	{ "exclude", 'G', required_argument, "REGEX", "hide groups matching REGEX (repeatable)", REGEXES(exclude) },
	{ "topic", 't', required_argument, "REGEX", "only these topics' partitions, and the groups that use them (repeatable)", REGEXES(topics) },
	{ "interval", 'i', required_argument, "SECONDS", "refresh interval (default " KG_STR(KG_DEFAULT_INTERVAL_S) ")",
	  DURATION(interval_us, SEC, KG_MIN_INTERVAL_US, "refresh at most ten times a second (0.1 or more)") },
	{ "timeout", 0, required_argument, "SECONDS", "how long --once waits for the cluster (default " KG_STR(KG_DEFAULT_TIMEOUT_S) "; the embedded demo at least 60)", DURATION(timeout_us, SEC, 0, NULL) },
	{ "full-refresh", 0, required_argument, "SECONDS",
	  "ask every group's members and offsets at least this often; the selected, shown, changed and rebalancing ones every refresh (default " KG_STR(KG_DEFAULT_FULL_REFRESH_S) ")",
	  DURATION(full_refresh_us, SEC, KG_SEC_US, "ask every group at most once a second (1 or more)") },
	{ "max-requests", 0, required_argument, "N",
	  "requests per second kgtop may send the cluster (default " KG_STR(KG_DEFAULT_MAX_REQUESTS) ")",
	  INT(max_requests, 10, 1000000) },
	{ "once", 0, no_argument, NULL, "print one report and exit: each group's facts and members, then kafka-consumer-groups.sh --describe's columns and TIME-LAG and STATUS (the verdict)", FLAG(once), CLI_ONLY },
	{ "json", 0, no_argument, NULL, "print JSON lines, one object per refresh (with --once: one object)", CUSTOM(a_json), CLI_ONLY },
	{ "duration", 0, required_argument, "SECONDS", "exit after this long", DURATION(duration_us, SEC, 0, NULL), CLI_ONLY },
	{ "history", 0, required_argument, "DURATION", "history kept per group (default " KG_STR(KG_DEFAULT_HISTORY_H) "h)",
	  DURATION(history_us, SEC, KG_MIN_HISTORY_US, "keep at least one minute") },
	{ "session-timeout", 0, required_argument, "MS", "session.timeout.ms to judge members by when no trace says (default " KG_STR(KG_DEFAULT_SESSION_TIMEOUT_MS) ")",
	  DURATION(session_timeout_us, MSEC, 0, NULL) },
	{ "max-poll-interval", 0, required_argument, "MS", "max.poll.interval.ms likewise (default " KG_STR(KG_DEFAULT_MAX_POLL_MS) ")", DURATION(max_poll_us, MSEC, 0, NULL) },
	{ "storm-window", 0, required_argument, "DURATION",
	  "window in which rebalances count towards a storm (default " KG_STR(KG_DEFAULT_STORM_WINDOW_MIN) "m; the demo " KG_STR(KG_DEMO_STORM_WINDOW_MIN) "m)",
	  DURATION(storm_window_us, SEC, 0, NULL) },
	{ "storm-rebalances", 0, required_argument, "N",
	  "rebalances within the window that make a storm (default " KG_STR(KG_DEFAULT_STORM_REBALANCES_N) "; the demo " KG_STR(KG_DEMO_STORM_REBALANCES_N) ")",
	  INT(storm_rebalances, 2, 1000) },
	{ "lag-window", 0, required_argument, "DURATION",
	  "window of the progress verdicts: OK, SLOW, REWIND, STALLED (committed offset frozen with lag for a tenth of it), STOPPED (no commit for all of it), LOST (default " KG_STR(KG_DEFAULT_LAG_WINDOW_MIN) "m; the demo " KG_STR(KG_DEMO_LAG_WINDOW_S) "s, so a stall shows before max.poll.interval.ms)",
	  DURATION(lag_window_us, SEC, KG_MIN_LAG_WINDOW_US, "judge over at least ten seconds") },
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
	{ "select", 0, required_argument, "GROUP", "select this group at start", STRING(select_group) },
	{ "demo", 0, optional_argument, "SCENARIO", "run the embedded demo (--demo=list lists scenarios); with -b, on that cluster, deleting its groups and topic at exit (what stays is named with the command that removes it)", CUSTOM(a_demo), CLI_ONLY },
	{ "demo-partitions", 0, required_argument, "N", "partitions of the demo topic (default " KG_STR(KG_DEFAULT_DEMO_PARTITIONS_N) ")",
	  INT(demo_partitions, 1, KG_MAX_DEMO_PARTITIONS_N) },
	{ "export-trace", 0, required_argument, "FILE", "write the demo's consumer events as JSON lines (another kgtop reads them with --trace jsonl:file://FILE, plus --trace-from-start for a finished file)", STRING(export_trace), CLI_ONLY },
	{ "trace", 0, required_argument, "KIND:URL", "read a trace stream: log, jolokia, jsonl, rdstats over http(s):// or file:// (repeatable)", CUSTOM(a_trace) },
	{ "trace-from-start", 0, no_argument, NULL, "read line streams (log, jsonl, rdstats) from their start instead of their end", FLAG(trace_from_start) },
	{ "trace-insecure", 0, no_argument, NULL, "do not verify TLS certificates of https:// trace streams and --attach URLs (shown in the header)", FLAG(trace_insecure) },
	{ "trace-headers", 0, required_argument, "FILE", "extra HTTP headers for trace streams (\"Name: value\" lines; never shown)", STRING(trace_headers) },
	{ "record", 0, required_argument, "FILE", "record what kgtop sees to FILE (JSON lines)", STRING(record), CLI_ONLY },
	{ "record-max", 0, required_argument, "SIZE", "rotate the recording into FILE.1 beyond SIZE (e.g. 100M)",
	  SIZE(record_max, 4096, "expected a size of at least 4K (e.g. 100M)") },
	{ "replay", 0, required_argument, "FILE", "replay a recording instead of reading a cluster", STRING(replay), CLI_ONLY },
	{ "speed", 0, required_argument, "X", "replay speed, " KG_STR(KG_MIN_SPEED) " to " KG_STR(KG_MAX_SPEED) " (default " KG_STR(KG_DEFAULT_SPEED) ")",
	  FACTOR(speed, KG_MIN_SPEED, KG_MAX_SPEED) },
	{ "at", 0, required_argument, "TIME", "with --replay --once or --check: the moment to report (HH:MM:SS, ISO time, or +SECONDS)", STRING(at), CLI_ONLY },
	{ "serve", 0, required_argument, "[ADDR:]PORT", "serve /metrics (Prometheus), /stream (for --attach), /healthz and /ready over HTTP on ADDR (default 127.0.0.1); without a terminal kgtop serves until SIGTERM", STRING(serve) },
	{ "serve-auth", 0, required_argument, "FILE", "ask --serve's clients for a user and password (\"user:password\" lines of FILE; never shown)", STRING(serve_auth) },
	{ "serve-cert", 0, required_argument, "FILE", "serve HTTPS with this certificate (PEM, with --serve-key)", STRING(serve_cert) },
	{ "serve-key", 0, required_argument, "FILE", "the private key of --serve-cert (PEM)", STRING(serve_key) },
	{ "serve-clients", 0, required_argument, "N", "connections --serve answers at once (default " KG_STR(KG_DEFAULT_SERVE_CLIENTS_N) ")",
	  INT(serve_clients, 2, 4096) },
	{ "serve-buffer", 0, required_argument, "SIZE", "stream an --attach viewer may fall behind before it is cut off (default " KG_STR(KG_DEFAULT_SERVE_BUFFER_MIB) "M)",
	  SIZE(serve_buffer, 65536, "expected a size of at least 64K (e.g. 8M)") },
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

/* Apply one option's argument as its row says (from the command line or the config file). */
static int
opt_set(const opt_def *d, kg_options *o, const char *a, char *e, size_t n)
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
		set_string((char **)field, a);
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

/* Defaults. */
void
options_defaults(kg_options *o)
{
	memset(o, 0, sizeof *o);
	o->interval_us = KG_DEFAULT_INTERVAL_US;
	o->timeout_us = KG_DEFAULT_TIMEOUT_US;
	o->full_refresh_us = KG_DEFAULT_FULL_REFRESH_US;
	o->max_requests = KG_DEFAULT_MAX_REQUESTS;
	o->history_us = KG_DEFAULT_HISTORY_US;
	o->demo_partitions = KG_DEFAULT_DEMO_PARTITIONS_N;
	o->speed = KG_DEFAULT_SPEED;
	o->serve_clients = KG_DEFAULT_SERVE_CLIENTS_N;
	o->serve_buffer = KG_DEFAULT_SERVE_BUFFER;
	o->mode = KG_MODE_UI;
	o->start_mono_us = util_mono_us(); /* --duration counts from kgtop's start, not from its first frame */
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
	kv_free(o->rdkafka, o->nrdkafka);
	for (i = 0; i < o->nclusters; i++) {
		free(o->clusters[i].name);
		free(o->clusters[i].brokers);
		kv_free(o->clusters[i].props, o->clusters[i].nprops);
	}
	free(o->clusters);
	list_free(&o->traces);
	free(o->demo_scenario);
	free(o->config_file);
	memset(o, 0, sizeof *o);
}

/* Find a row by long name. */
static const opt_def *
find_opt(const char *name)
{
	size_t i;
	for (i = 0; i < KG_ARRAY_LEN(table); i++) {
		if (strcmp(table[i].name, name) == 0)
			return &table[i];
	}
	return NULL;
}

/*
 * A line of the config file that is about named clusters: "[cluster
 * NAME]" opens a section (*sec: the new cluster); in a section, "brokers
 * = LIST" sets its brokers.  Returns 1 when the line was one of these, 0
 * when it is for read_config() (an option before any section, an X.
 * property anywhere), -1 with err.
 */
static int
config_cluster_line(kg_options *o, kg_cluster **sec, char *line, const char *where, char *err, size_t errsz)
{
	char *eq, *k, name[128];
	size_t i, n;
	if (*line == '[') {
		n = strlen(line);
		if (strncmp(line, "[cluster ", 9) != 0 || line[n - 1] != ']' || n - 10 == 0 || n - 10 >= sizeof name ||
		    strspn(line + 9, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") != n - 10)
			return util_err(err, errsz, "%s: expected [cluster NAME] (letters, digits, . _ -)", where);
		snprintf(name, sizeof name, "%.*s", (int)(n - 10), line + 9);
		for (i = 0; i < o->nclusters; i++) {
			if (strcmp(o->clusters[i].name, name) == 0)
				return util_err(err, errsz, "%s: [cluster %s] again", where, name);
		}
		o->clusters = xreallocarray(o->clusters, o->nclusters + 1, sizeof *o->clusters);
		memset(&o->clusters[o->nclusters], 0, sizeof *o->clusters);
		o->clusters[o->nclusters].name = xstrdup(name);
		*sec = &o->clusters[o->nclusters++];
		return 1;
	}
	if (*sec == NULL || strncmp(line, "X.", 2) == 0)
		return 0;
	eq = strchr(line, '=');
	if (eq != NULL)
		*eq = '\0';
	k = trim(line);
	if (strcmp(k, "brokers") != 0 || eq == NULL)
		return util_err(err, errsz, "%s: %s: a [cluster] section holds brokers = LIST and X.key = value lines", where,
				eq != NULL && name_shown(k) ? k : "(the line is not shown)");
	k = trim(eq + 1);
	if (k[strspn(k, " \t,")] == '\0')
		return util_err(err, errsz, "%s: brokers: expected host:port[,host:port...]", where);
	set_string(&(*sec)->brokers, k);
	return 1;
}

/*
 * Set an option from the config file: a message never repeats the value.
 * The rows' messages quote the value ('VALUE'): that is taken out, and a
 * message that would still show some of it says only which option.
 */
static int
file_opt_set(const opt_def *d, kg_options *o, const char *v, const char *where, char *err, size_t errsz)
{
	size_t n = strlen(v) * 2 + 1024;
	char *msg = xmalloc(n), *q, *quoted = xasprintf("'%s'", v);
	int rc = 0;
	if (opt_set(d, o, v, msg, n) < 0) {
		while (*v != '\0' && (q = strstr(msg, quoted)) != NULL) {
			memmove(q + 7, q + strlen(quoted), strlen(q + strlen(quoted)) + 1);
			memcpy(q, "(value)", 7); /* short: the message must fit its buffer */
		}
		/* -F names its file: the file is what the message is about */
		if (d->apply == a_props_file || strlen(v) < 4 || strstr(msg, v) == NULL)
			rc = util_err(err, errsz, "%s: %s", where, msg);
		else
			rc = util_err(err, errsz, "%s: %s: invalid value (not shown)", where, d->name);
	}
	free(quoted);
	free(msg);
	return rc;
}

/* Where the config file's lines go: the options, or the [cluster NAME] section they are in. */
typedef struct config_ctx {
	kg_options *o;
	kg_cluster *sec; /* NULL before any section */
} config_ctx;

/* One line of the config file: "name = value", "name" (a flag), "X.key = value", [cluster NAME] sections. */
static int
config_line(void *arg, char *s, const char *where, char *err, size_t errsz)
{
	config_ctx *cx = arg;
	kg_options *o = cx->o;
	char *eq, *k = s, *v = NULL;
	const opt_def *d;
	int cl = config_cluster_line(o, &cx->sec, s, where, err, errsz);
	if (cl != 0)
		return cl < 0 ? -1 : 0;
	eq = strchr(s, '=');
	if (eq != NULL) {
		*eq = '\0';
		k = trim(s);
		v = trim(eq + 1);
	}
	if (v == NULL && k[strcspn(k, " \t")] != '\0') {
		/* "name value": the first word is shown when it names an option or a property */
		k[strcspn(k, " \t")] = '\0';
		if (find_opt(k) != NULL || (strncmp(k, "X.", 2) == 0 && rdprops_key_shown(k + 2)))
			return util_err(err, errsz, "%s: %s: expected %s = value", where, k,
					strncmp(k, "X.", 2) == 0 ? "X.key" : "name");
		return util_err(err, errsz, "%s: not an option (the line is not shown)", where);
	}
	if (strncmp(k, "X.", 2) == 0) {
		if (v == NULL)
			return util_err(err, errsz, "%s: expected X.key = value (the line is not shown)", where);
		return add_kv_pair(cx->sec ? &cx->sec->props : &o->rdkafka, cx->sec ? &cx->sec->nprops : &o->nrdkafka, k + 2,
				   v, where, err, errsz);
	}
	d = find_opt(k);
	if (d == NULL) {
		/* a line that names no option may be a stray secret: repeat only a name before '=' */
		if (v != NULL && name_shown(k))
			return util_err(err, errsz, "%s: unknown option '%s'", where, k);
		return util_err(err, errsz, "%s: not an option (the line is not shown)", where);
	}
	if (d->cli_only)
		return util_err(err, errsz, "%s: %s is for the command line only, not the config file", where, k);
	if (d->arg == no_argument) {
		if (v == NULL || strcasecmp(v, "true") == 0 || strcasecmp(v, "yes") == 0 || strcmp(v, "1") == 0)
			return opt_set(d, o, "", err, errsz);
		if (strcasecmp(v, "false") == 0 || strcasecmp(v, "no") == 0 || strcmp(v, "0") == 0)
			return 0;
		return util_err(err, errsz, "%s: %s takes true or false", where, k);
	}
	if (v == NULL && d->arg == required_argument)
		return util_err(err, errsz, "%s: %s needs a value", where, k);
	if (d->apply == a_property)
		return add_property(o, v ? v : "", where, err, errsz); /* from a file: judged as one */
	return file_opt_set(d, o, v ? v : "", where, err, errsz);
}

/* Read the config file (kept to the rules of secfile.h): lines of any length, [cluster NAME] sections. */
static int
read_config(kg_options *o, const char *path, bool must_exist, char *err, size_t errsz)
{
	FILE *f = secfile_open(path, "config", err, errsz);
	config_ctx cx = { o, NULL };
	if (f == NULL)
		return !must_exist && errno == ENOENT ? 0 : -1;
	set_string(&o->config_file, path);
	return read_lines(f, path, config_line, &cx, err, errsz);
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

/* Print usage. */
static void
options_usage(void)
{
	size_t i;
	printf("Usage: kgtop [OPTION]...\n"
	       "top for Kafka consumer groups: who owns which partition, every rebalance\n"
	       "(eager or cooperative), member health, lag, time lag and whether each\n"
	       "partition makes progress, live.  With no cluster\n"
	       "the dashboard starts an embedded demo (--once and --json need -b, -C or\n"
	       "--demo; --check needs -b, -C or --replay).\n\n"
	       "Options:\n");
	for (i = 0; i < KG_ARRAY_LEN(table); i++) {
		const opt_def *d = &table[i];
		char left[64];
		if (d->letter)
			snprintf(left, sizeof left, "-%c, --%s%s%s%s", d->letter, d->name,
				 d->metavar ? (d->arg == optional_argument ? "[=" : " ") : "", d->metavar ? d->metavar : "",
				 d->metavar && d->arg == optional_argument ? "]" : "");
		else
			snprintf(left, sizeof left, "    --%s%s%s%s", d->name,
				 d->metavar ? (d->arg == optional_argument ? "[=" : " ") : "", d->metavar ? d->metavar : "",
				 d->metavar && d->arg == optional_argument ? "]" : "");
		print_wrapped(left, d->help);
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

/* -C list: the config file's named clusters, one a line with its brokers. */
static void
list_clusters(const kg_options *o)
{
	size_t i;
	if (o->nclusters == 0) {
		printf("no named cluster: a [cluster NAME] section of %s holds one\n",
		       o->config_file ? o->config_file : "the config file (~/.config/kgtop/config)");
		return;
	}
	for (i = 0; i < o->nclusters; i++)
		printf("%-20s %s\n", o->clusters[i].name, o->clusters[i].brokers ? o->clusters[i].brokers : "(no brokers)");
}

/*
 * -C NAME: the named cluster's brokers, and its properties before those
 * of the command line (nfile: how many the files gave), so -X still wins.
 */
static int
use_cluster(kg_options *o, size_t nfile, bool brokers_cli, bool named_cli, char *err, size_t errsz)
{
	const kg_cluster *c = NULL;
	size_t i, k;
	for (i = 0; i < o->nclusters; i++) {
		if (strcmp(o->clusters[i].name, o->cluster) == 0)
			c = &o->clusters[i];
	}
	/* a name the file gave is a value of the file: never shown (-C NAME is the user's own words) */
	if (c == NULL && !named_cli)
		return util_err(err, errsz, "the cluster the config file names (cluster = ...) has no [cluster] section in %s "
				"(-C list lists them)", o->config_file ? o->config_file : "the config file");
	if (c == NULL)
		return util_err(err, errsz, "-C %s: no [cluster %s] section in %s (-C list lists them)", o->cluster,
				o->cluster, o->config_file ? o->config_file : "the config file");
	if (brokers_cli)
		return util_err(err, errsz, "-C %s and -b both name the cluster: give one", o->cluster);
	if (c->brokers == NULL)
		return util_err(err, errsz, "[cluster %s] has no brokers = LIST line", c->name);
	set_string(&o->brokers, c->brokers);
	o->rdkafka = xreallocarray(o->rdkafka, o->nrdkafka + c->nprops + 1, sizeof *o->rdkafka);
	memmove(o->rdkafka + nfile + c->nprops, o->rdkafka + nfile, (o->nrdkafka - nfile) * sizeof *o->rdkafka);
	for (k = 0; k < c->nprops; k++) {
		o->rdkafka[nfile + k].key = xstrdup(c->props[k].key);
		o->rdkafka[nfile + k].value = xstrdup(c->props[k].value);
		o->rdkafka[nfile + k].origin = c->props[k].origin ? xstrdup(c->props[k].origin) : NULL;
	}
	o->nrdkafka += c->nprops;
	return 0;
}

/* The config file: -c FILE (or $KGTOP_CONFIG; "none" reads none), else the default one if it is there. */
static int
read_config_files(kg_options *o, const char *config, char *err, size_t errsz)
{
	char path[4096];
	if (config == NULL)
		config = getenv("KGTOP_CONFIG");
	if (config != NULL && strcmp(config, "none") != 0)
		return read_config(o, config, true, err, errsz);
	if (config == NULL) {
		const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
		path[0] = '\0';
		if (xdg != NULL && *xdg)
			snprintf(path, sizeof path, "%s/kgtop/config", xdg);
		else if (home != NULL && *home)
			snprintf(path, sizeof path, "%s/.config/kgtop/config", home);
		if (path[0] && read_config(o, path, false, err, errsz) < 0)
			return -1;
	}
	return 0;
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
		if (opt_set(d, o, optarg ? optarg : "", err, errsz) < 0)
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
		list_clusters(o);
		return 1;
	}
	if (o->cluster != NULL && !seen->cluster && (seen->brokers || brokers_env)) {
		/* -b or $KGTOP_BROKERS beat the file's "cluster = NAME" */
		free(o->cluster);
		o->cluster = NULL;
	}
	if (o->cluster != NULL && use_cluster(o, nfile, seen->brokers, seen->cluster, err, errsz) < 0)
		return -1;
	if (o->once && o->mode == KG_MODE_UI)
		o->mode = KG_MODE_ONCE;
	/* a report of the demo's mock data would pass for a cluster's: only the dashboard starts it by itself */
	if (o->mode != KG_MODE_UI && o->replay == NULL && o->attach == NULL && o->brokers == NULL &&
	    ((o->traces.n == 0 && !o->demo) || o->mode == KG_MODE_CHECK))
		return util_err(err, errsz, "%s reports on a cluster: give -b BROKERS, $KGTOP_BROKERS or -C NAME%s",
				o->mode == KG_MODE_JSON ? "--json" : o->mode == KG_MODE_CHECK ? "--check" : "--once",
				o->mode == KG_MODE_CHECK ? " (or --replay FILE)" : " (or --demo for the embedded demo)");
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
	return 0;
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
	if (read_config_files(o, config, err, errsz) < 0)
		return -1;
	nfile = o->nrdkafka;
	/* the environment */
	if (brokers_env)
		set_string(&o->brokers, getenv("KGTOP_BROKERS"));
	if (getenv("NO_COLOR") != NULL && *getenv("NO_COLOR"))
		o->no_color = true;
	if (read_command_line(o, argc, argv, shorts, lopts, &seen, err, errsz) < 0)
		return -1;
	return options_check(o, nfile, &seen, brokers_env, err, errsz);
}
