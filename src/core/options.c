/*
 * options.c: one table of options, read from the config file, the
 * environment and the command line, in that order (later wins).
 *
 * Every option is a row (long name, short letter, argument, help text and
 * the function that applies it); the config file uses the same long names
 * ("interval = 2"), so the file, the command line and --help never
 * disagree.  Repeatable options (-X, -g, -G, -t, --trace) accumulate from
 * the file and the command line in that order.
 */
#include "config.h"

#include "core/options.h"

#include <errno.h>
#include <getopt.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util/util.h"

typedef int (*opt_apply)(kg_options *o, const char *arg, char *err, size_t errsz);

typedef struct opt_def {
	const char *name;  /* long name, also the config file key */
	int letter;        /* short option or 0 */
	int arg;           /* no_argument, required_argument, optional_argument */
	const char *metavar;
	const char *help;
	opt_apply apply;
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

/* Add a librdkafka property key=value, set at origin (NULL: -X). */
static int
add_property(kg_options *o, const char *kv, const char *origin, char *err, size_t errsz)
{
	char *copy = xstrdup(kv), *eq = strchr(copy, '='), *k, *v, w[128];
	if (eq == NULL) {
		free(copy);
		return util_err(err, errsz, "%s%s%s: expected key=value", origin ? origin : "-X ", origin ? ": " : "",
				first_word(kv, w, sizeof w));
	}
	*eq = '\0';
	k = trim(copy);
	v = trim(eq + 1);
	if (*k == '\0') {
		free(copy);
		return util_err(err, errsz, "%s: empty key before '='", origin ? origin : "-X");
	}
	o->rdkafka = xreallocarray(o->rdkafka, o->nrdkafka + 1, sizeof *o->rdkafka);
	o->rdkafka[o->nrdkafka].key = xstrdup(k);
	o->rdkafka[o->nrdkafka].value = xstrdup(v);
	o->rdkafka[o->nrdkafka].origin = origin ? xstrdup(origin) : NULL;
	o->nrdkafka++;
	free(copy);
	return 0;
}

/* Check that a regex compiles. */
static int
check_regex(const char *what, const char *re, char *err, size_t errsz)
{
	regex_t r;
	int rc = regcomp(&r, re, REG_EXTENDED | REG_NOSUB);
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

/* -F: a librdkafka properties file. */
static int
apply_properties_file(kg_options *o, const char *path, char *err, size_t errsz)
{
	FILE *f = util_fopen_regular(path);
	char line[4096];
	int lineno = 0;
	if (f == NULL)
		return util_err(err, errsz, "-F %s: %s", path, strerror(errno));
	while (fgets(line, sizeof line, f) != NULL) {
		char *s = trim(line), where[600];
		lineno++;
		if (*s == '\0' || *s == '#')
			continue;
		snprintf(where, sizeof where, "%s:%d", path, lineno);
		if (add_property(o, s, where, err, errsz) < 0) {
			fclose(f);
			return -1;
		}
	}
	fclose(f);
	return 0;
}

/* Option handlers, one per row. */

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

/* Apply --include (-g). */
static int
a_include(kg_options *o, const char *a, char *e, size_t n)
{
	if (check_regex("-g", a, e, n) < 0)
		return -1;
	list_add(&o->include, a);
	return 0;
}

/* Apply --exclude (-G). */
static int
a_exclude(kg_options *o, const char *a, char *e, size_t n)
{
	if (check_regex("-G", a, e, n) < 0)
		return -1;
	list_add(&o->exclude, a);
	return 0;
}

/* Apply --topic (-t). */
static int
a_topic(kg_options *o, const char *a, char *e, size_t n)
{
	if (check_regex("-t", a, e, n) < 0)
		return -1;
	list_add(&o->topics, a);
	return 0;
}

/* Apply --interval. */
static int
a_interval(kg_options *o, const char *a, char *e, size_t n)
{
	if (parse_duration("-i", a, 1000000, &o->interval_us, e, n) < 0)
		return -1;
	if (o->interval_us < 100000)
		return util_err(e, n, "-i '%s': refresh at most ten times a second (0.1 or more)", a);
	return 0;
}

/* Apply --timeout. */
static int
a_timeout(kg_options *o, const char *a, char *e, size_t n)
{
	return parse_duration("--timeout", a, 1000000, &o->timeout_us, e, n);
}

/* Apply --once. */
static int
a_once(kg_options *o, const char *a, char *e, size_t n)
{
	(void)a;
	(void)e;
	(void)n;
	o->once = true;
	return 0;
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

/* Apply --verbose. */
static int
a_verbose(kg_options *o, const char *a, char *e, size_t n)
{
	(void)a;
	(void)e;
	(void)n;
	o->verbose++;
	return 0;
}

/* Apply --log. */
static int
a_log(kg_options *o, const char *a, char *e, size_t n)
{
	(void)e;
	(void)n;
	set_string(&o->log_file, a);
	return 0;
}

/* Apply --duration. */
static int
a_duration(kg_options *o, const char *a, char *e, size_t n)
{
	return parse_duration("--duration", a, 1000000, &o->duration_us, e, n);
}

/* Apply --history. */
static int
a_history(kg_options *o, const char *a, char *e, size_t n)
{
	if (parse_duration("--history", a, 1000000, &o->history_us, e, n) < 0)
		return -1;
	if (o->history_us < 60LL * 1000000)
		return util_err(e, n, "--history '%s': keep at least one minute", a);
	return 0;
}

/* Apply --session-timeout. */
static int
a_session(kg_options *o, const char *a, char *e, size_t n)
{
	return parse_duration("--session-timeout", a, 1000, &o->session_timeout_us, e, n);
}

/* Apply --max-poll-interval. */
static int
a_maxpoll(kg_options *o, const char *a, char *e, size_t n)
{
	return parse_duration("--max-poll-interval", a, 1000, &o->max_poll_us, e, n);
}

/* Apply --storm-window. */
static int
a_storm_window(kg_options *o, const char *a, char *e, size_t n)
{
	return parse_duration("--storm-window", a, 1000000, &o->storm_window_us, e, n);
}

/* Apply --storm-rebalances. */
static int
a_storm_rebalances(kg_options *o, const char *a, char *e, size_t n)
{
	return parse_int("--storm-rebalances", a, 2, 1000, &o->storm_rebalances, e, n);
}

/* Apply --theme. */
static int
a_theme(kg_options *o, const char *a, char *e, size_t n)
{
	(void)e;
	(void)n;
	set_string(&o->theme, a);
	return 0;
}

/* Apply --no-color. */
static int
a_no_color(kg_options *o, const char *a, char *e, size_t n)
{
	(void)a;
	(void)e;
	(void)n;
	o->no_color = true;
	return 0;
}

/* Apply --ascii. */
static int
a_ascii(kg_options *o, const char *a, char *e, size_t n)
{
	(void)a;
	(void)e;
	(void)n;
	o->ascii = true;
	return 0;
}

/* Apply --select. */
static int
a_select(kg_options *o, const char *a, char *e, size_t n)
{
	(void)e;
	(void)n;
	set_string(&o->select_group, a);
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

/* Apply --demo-partitions. */
static int
a_demo_partitions(kg_options *o, const char *a, char *e, size_t n)
{
	return parse_int("--demo-partitions", a, 1, 256, &o->demo_partitions, e, n); /* the demo's own bound */
}

/* Apply --export-trace. */
static int
a_export_trace(kg_options *o, const char *a, char *e, size_t n)
{
	(void)e;
	(void)n;
	set_string(&o->export_trace, a);
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

/* Apply --trace-from-start. */
static int
a_trace_from_start(kg_options *o, const char *a, char *e, size_t n)
{
	(void)a;
	(void)e;
	(void)n;
	o->trace_from_start = true;
	return 0;
}

/* Apply --trace-insecure. */
static int
a_trace_insecure(kg_options *o, const char *a, char *e, size_t n)
{
	(void)a;
	(void)e;
	(void)n;
	o->trace_insecure = true;
	return 0;
}

/* Apply --trace-headers. */
static int
a_trace_headers(kg_options *o, const char *a, char *e, size_t n)
{
	(void)e;
	(void)n;
	set_string(&o->trace_headers, a);
	return 0;
}

/* Apply --record. */
static int
a_record(kg_options *o, const char *a, char *e, size_t n)
{
	(void)e;
	(void)n;
	set_string(&o->record, a);
	return 0;
}

/* Apply --record-max. */
static int
a_record_max(kg_options *o, const char *a, char *e, size_t n)
{
	int64_t v = util_parse_size(a);
	if (v < 4096)
		return util_err(e, n, "--record-max '%s': expected a size of at least 4K (e.g. 100M)", a);
	o->record_max = v;
	return 0;
}

/* Apply --replay. */
static int
a_replay(kg_options *o, const char *a, char *e, size_t n)
{
	(void)e;
	(void)n;
	set_string(&o->replay, a);
	return 0;
}

/* Apply --speed. */
static int
a_speed(kg_options *o, const char *a, char *e, size_t n)
{
	char *end;
	double v = strtod(a, &end);
	if (end == a || (*end != '\0' && strcmp(end, "x") != 0) || v < 0.25 || v > 32)
		return util_err(e, n, "--speed '%s': expected a factor from 0.25 to 32", a);
	o->speed = v;
	return 0;
}

/* Apply --at. */
static int
a_at(kg_options *o, const char *a, char *e, size_t n)
{
	(void)e;
	(void)n;
	set_string(&o->at, a);
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

static const opt_def table[] = {
	{ "brokers", 'b', required_argument, "LIST", "bootstrap servers (host:port,...); default $KGTOP_BROKERS; none: the embedded demo", a_brokers, false },
	{ "property", 'X', required_argument, "KEY=VALUE", "librdkafka property (repeatable), e.g. -X security.protocol=SASL_SSL", a_property, false },
	{ "properties", 'F', required_argument, "FILE", "file of librdkafka properties (key=value lines)", a_props_file, false },
	{ "include", 'g', required_argument, "REGEX", "show only groups matching REGEX (repeatable)", a_include, false },
	{ "exclude", 'G', required_argument, "REGEX", "hide groups matching REGEX (repeatable)", a_exclude, false },
	{ "topic", 't', required_argument, "REGEX", "only these topics' partitions (repeatable)", a_topic, false },
	{ "interval", 'i', required_argument, "SECONDS", "refresh interval (default 1)", a_interval, false },
	{ "timeout", 0, required_argument, "SECONDS", "how long --once waits for the cluster (default 10)", a_timeout, false },
	{ "once", 0, no_argument, NULL, "print one report and exit", a_once, true },
	{ "json", 0, no_argument, NULL, "print JSON lines, one object per refresh (with --once: one object)", a_json, true },
	{ "duration", 0, required_argument, "SECONDS", "exit after this long", a_duration, true },
	{ "history", 0, required_argument, "DURATION", "history kept per group (default 1h)", a_history, false },
	{ "session-timeout", 0, required_argument, "MS", "session.timeout.ms to judge members by when no trace says (default 45000)", a_session, false },
	{ "max-poll-interval", 0, required_argument, "MS", "max.poll.interval.ms likewise (default 300000)", a_maxpoll, false },
	{ "storm-window", 0, required_argument, "DURATION", "window in which rebalances count towards a storm (default 5m; the demo 1m)", a_storm_window, false },
	{ "storm-rebalances", 0, required_argument, "N", "rebalances within the window that make a storm (default 3; the demo 8)", a_storm_rebalances, false },
	{ "theme", 0, required_argument, "NAME", "colour theme: default, light, mono, high-contrast, or a file's name", a_theme, false },
	{ "no-color", 0, no_argument, NULL, "no colours (also when $NO_COLOR is set)", a_no_color, false },
	{ "ascii", 0, no_argument, NULL, "ASCII glyphs only (automatic when the locale is not UTF-8)", a_ascii, false },
	{ "select", 0, required_argument, "GROUP", "select this group at start", a_select, false },
	{ "demo", 0, optional_argument, "SCENARIO", "run the embedded demo (--demo=list lists scenarios); with -b, on that cluster", a_demo, true },
	{ "demo-partitions", 0, required_argument, "N", "partitions of the demo topic (default 6)", a_demo_partitions, false },
	{ "export-trace", 0, required_argument, "FILE", "write the demo's consumer events as JSON lines (another kgtop reads them with --trace jsonl:file://FILE, plus --trace-from-start for a finished file)", a_export_trace, true },
	{ "trace", 0, required_argument, "KIND:URL", "read a trace stream: log, jolokia, jsonl, rdstats over http(s):// or file:// (repeatable)", a_trace, false },
	{ "trace-from-start", 0, no_argument, NULL, "read line streams (log, jsonl, rdstats) from their start instead of their end", a_trace_from_start, false },
	{ "trace-insecure", 0, no_argument, NULL, "do not verify TLS certificates of https:// trace streams (shown in the header)", a_trace_insecure, false },
	{ "trace-headers", 0, required_argument, "FILE", "extra HTTP headers for trace streams (\"Name: value\" lines; never shown)", a_trace_headers, false },
	{ "record", 0, required_argument, "FILE", "record what kgtop sees to FILE (JSON lines)", a_record, true },
	{ "record-max", 0, required_argument, "SIZE", "rotate the recording into FILE.1 beyond SIZE (e.g. 100M)", a_record_max, false },
	{ "replay", 0, required_argument, "FILE", "replay a recording instead of reading a cluster", a_replay, true },
	{ "speed", 0, required_argument, "X", "replay speed, 0.25 to 32 (default 1)", a_speed, false },
	{ "at", 0, required_argument, "TIME", "with --replay --once: the moment to report (HH:MM:SS, ISO time, or +SECONDS)", a_at, true },
	{ "verbose", 'v', no_argument, NULL, "log more (to --log FILE; repeatable)", a_verbose, false },
	{ "log", 0, required_argument, "FILE", "write a debug log to FILE", a_log, false },
	{ "config", 'c', required_argument, "FILE", "config file (default $KGTOP_CONFIG or ~/.config/kgtop/config; 'none' reads none)", a_config, true },
};

/* Defaults. */
void
options_defaults(kg_options *o)
{
	memset(o, 0, sizeof *o);
	o->interval_us = 1000000;
	o->timeout_us = 10LL * 1000000;
	o->history_us = 3600LL * 1000000;
	o->demo_partitions = 6;
	o->speed = 1.0;
	o->mode = KG_MODE_UI;
}

/* Free. */
void
options_free(kg_options *o)
{
	size_t i;
	free(o->brokers);
	for (i = 0; i < o->nrdkafka; i++) {
		free(o->rdkafka[i].key);
		free(o->rdkafka[i].value);
		free(o->rdkafka[i].origin);
	}
	free(o->rdkafka);
	list_free(&o->include);
	list_free(&o->exclude);
	list_free(&o->topics);
	list_free(&o->traces);
	free(o->log_file);
	free(o->theme);
	free(o->select_group);
	free(o->demo_scenario);
	free(o->export_trace);
	free(o->trace_headers);
	free(o->record);
	free(o->replay);
	free(o->at);
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

/* Read the config file: "name = value" lines, "X.key = value" librdkafka properties. */
static int
read_config(kg_options *o, const char *path, bool must_exist, char *err, size_t errsz)
{
	FILE *f = util_fopen_regular(path);
	char line[4096];
	int lineno = 0;
	if (f == NULL) {
		if (!must_exist && errno == ENOENT)
			return 0;
		return util_err(err, errsz, "config %s: %s", path, strerror(errno));
	}
	set_string(&o->config_file, path);
	while (fgets(line, sizeof line, f) != NULL) {
		char *s = trim(line), *eq, *k, *v;
		const opt_def *d;
		char sub[4352]; /* a whole line fits: long values (PEM, JAAS) are not cut */
		lineno++;
		if (*s == '\0' || *s == '#')
			continue;
		eq = strchr(s, '=');
		if (eq != NULL) {
			*eq = '\0';
			k = trim(s);
			v = trim(eq + 1);
		} else {
			k = s;
			v = NULL;
		}
		if (strncmp(k, "X.", 2) == 0) {
			char where[600];
			snprintf(where, sizeof where, "%s:%d", path, lineno);
			if ((size_t)snprintf(sub, sizeof sub, "%s=%s", k + 2, v != NULL ? v : "") >= sizeof sub) {
				fclose(f);
				/* a long value (an inline PEM, a JAAS line) would be cut: say so, never show it */
				return util_err(err, errsz, "%s: %s: value too long for the config file (use -F FILE)",
						where, first_word(k, sub, sizeof sub));
			}
			if (v == NULL) {
				fclose(f);
				/* only the key: what follows it may be a secret */
				return util_err(err, errsz, "%s: %s: expected X.key = value", where,
						first_word(k, sub, sizeof sub));
			}
			if (add_property(o, sub, where, err, errsz) < 0) {
				fclose(f);
				return -1;
			}
			continue;
		}
		d = find_opt(k);
		if (d == NULL) {
			fclose(f);
			return util_err(err, errsz, "%s:%d: unknown option '%s'", path, lineno,
					first_word(k, sub, sizeof sub));
		}
		if (d->cli_only) {
			fclose(f);
			return util_err(err, errsz, "%s:%d: %s is for the command line only, not the config file", path,
					lineno, k);
		}
		if (d->arg == no_argument) {
			if (v != NULL && strcasecmp(v, "true") != 0 && strcasecmp(v, "yes") != 0 && strcmp(v, "1") != 0) {
				if (strcasecmp(v, "false") == 0 || strcasecmp(v, "no") == 0 || strcmp(v, "0") == 0)
					continue;
				fclose(f);
				return util_err(err, errsz, "%s:%d: %s takes true or false", path, lineno, k);
			}
			v = NULL;
		} else if (v == NULL && d->arg == required_argument) {
			fclose(f);
			return util_err(err, errsz, "%s:%d: %s needs a value", path, lineno, k);
		}
		if (d->apply(o, v ? v : "", err, errsz) < 0)
			goto bad;
	}
	fclose(f);
	return 0;
bad:
	{
		char inner[512];
		util_strlcpy(inner, err, sizeof inner);
		util_err(err, errsz, "%s:%d: %s", path, lineno, inner);
	}
	fclose(f);
	return -1;
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
void
options_usage(void)
{
	size_t i;
	printf("Usage: kgtop [OPTION]...\n"
	       "top for Kafka consumer groups: who owns which partition, every rebalance\n"
	       "(eager or cooperative), member health and lag, live.  With no brokers it\n"
	       "starts an embedded demo.\n\n"
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
	print_wrapped("-V, --version", "print the version and exit");
	print_wrapped("-h, --help", "print this help and exit");
	printf("\nSettings come from defaults, then the config file (\"name = value\" lines\n"
	       "with the long option names; \"X.key = value\" for librdkafka properties),\n"
	       "then the environment ($KGTOP_BROKERS, $KGTOP_CONFIG, $NO_COLOR), then the\n"
	       "command line: later wins.  kgtop is read-only: it never joins a group and\n"
	       "never commits an offset.  It needs Describe on the cluster, on the groups\n"
	       "and on the topics it shows.\n\n"
	       "Keys: arrows/jk move, Enter/Tab views, 1-4 grid/timeline/health/events,\n"
	       "/ filter, s sort, p pause, left/right scrub, ? help, q quit.  See kgtop(1),\n"
	       "kgtop-trace(5), kgtop-record(5).\n"
	       "Exit status: 0 ok, 1 cluster or runtime error, 2 usage error.\n");
}

/* Parse everything. */
int
options_parse(kg_options *o, int argc, char **argv, char *err, size_t errsz)
{
	struct option lopts[KG_ARRAY_LEN(table) + 3];
	char shorts[128];
	size_t i, ns = 0;
	const char *config = NULL;
	int c, idx;
	char path[4096];

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
	optind = 1;
	while ((c = getopt_long(argc, argv, shorts, lopts, &idx)) != -1) {
		if (c == 'h') {
			options_usage();
			return 1;
		}
		if (c == 'V') {
			printf("kgtop %s (librdkafka, ncursesw, libcurl, cJSON)\n", PACKAGE_VERSION);
			return 1;
		}
		if (c == 'c' || (c >= 1000 && strcmp(table[c - 1000].name, "config") == 0))
			config = optarg;
	}

	/* the config file */
	if (config == NULL)
		config = getenv("KGTOP_CONFIG");
	if (config != NULL && strcmp(config, "none") != 0) {
		if (read_config(o, config, true, err, errsz) < 0)
			return -1;
	} else if (config == NULL) {
		const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");
		path[0] = '\0';
		if (xdg != NULL && *xdg)
			snprintf(path, sizeof path, "%s/kgtop/config", xdg);
		else if (home != NULL && *home)
			snprintf(path, sizeof path, "%s/.config/kgtop/config", home);
		if (path[0] && read_config(o, path, false, err, errsz) < 0)
			return -1;
	}

	/* the environment */
	if (getenv("KGTOP_BROKERS") != NULL && *getenv("KGTOP_BROKERS"))
		set_string(&o->brokers, getenv("KGTOP_BROKERS"));
	if (getenv("NO_COLOR") != NULL && *getenv("NO_COLOR"))
		o->no_color = true;

	/* the command line */
	opterr = 0;
	optind = 1;
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
		else {
			for (i = 0; i < KG_ARRAY_LEN(table); i++) {
				if (table[i].letter == c)
					d = &table[i];
			}
		}
		if (d == NULL)
			return util_err(err, errsz, "unknown option");
		if (d->apply(o, optarg ? optarg : "", err, errsz) < 0)
			return -1;
	}
	if (optind < argc)
		return util_err(err, errsz, "unexpected argument '%s' (options start with -)", argv[optind]);

	/* consistency */
	if (o->once && o->mode == KG_MODE_UI)
		o->mode = KG_MODE_ONCE;
	if (o->at != NULL && (o->replay == NULL || !o->once))
		return util_err(err, errsz, "--at needs --replay FILE and --once");
	if (o->replay != NULL && (o->demo || o->record != NULL))
		return util_err(err, errsz, "--replay cannot be combined with --demo or --record");
	if (o->replay != NULL && o->brokers != NULL && getenv("KGTOP_BROKERS") == NULL)
		return util_err(err, errsz, "--replay reads a recording: drop -b");
	/* nothing to watch at all: the embedded demo (trace streams alone are enough to watch) */
	if (o->replay == NULL && o->brokers == NULL && o->traces.n == 0)
		o->demo = true;
	if (o->demo_scenario != NULL && *o->demo_scenario == '\0') {
		free(o->demo_scenario);
		o->demo_scenario = NULL;
	}
	if (o->export_trace != NULL && !o->demo)
		return util_err(err, errsz, "--export-trace writes the demo's consumer events: use it with --demo");
	return 0;
}
