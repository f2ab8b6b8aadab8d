/*
 * test_options.c: a setting's default is its row's, and --help tells it.
 *
 * The ground truth is kgtop's own --help: for every option it says
 * "(default X)" of (and "; the demo Y" where the demo has its own), the
 * options parsed from "--NAME=X" must equal the defaults, member for
 * member (a default that is not what --help says, or that the row's own
 * parser reads otherwise, fails here).  Then the tracker's settings: the
 * user's win over a recording's, a recording's over the defaults.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/options.h"
#include "util/util.h"

#define SEC 1000000LL

/* Parse argv (NULL-terminated) into o, from the defaults; the return of options_parse(). */
static int
parse(kg_options *o, const char *const *argv)
{
	char *v[16], err[512];
	int n = 0, rc;
	while (argv[n] != NULL) {
		v[n] = (char *)argv[n];
		n++;
	}
	v[n] = NULL;
	options_defaults(o);
	rc = options_parse(o, n, v, err, sizeof err);
	if (rc < 0)
		print_message("# %s\n", err);
	return rc;
}

/* kgtop --help, as it prints it, into a string the caller frees. */
static char *
help_text(void)
{
	static const char *const argv[] = { "kgtop", "--help", NULL };
	kg_options o;
	FILE *f = tmpfile();
	int saved = dup(STDOUT_FILENO);
	sbuf b = { 0 };
	char line[512];
	assert_non_null(f);
	fflush(stdout);
	dup2(fileno(f), STDOUT_FILENO);
	assert_int_equal(parse(&o, argv), 1);
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	options_free(&o);
	rewind(f);
	while (fgets(line, sizeof line, f) != NULL)
		sbuf_adds(&b, line);
	fclose(f);
	return xstrdup(sbuf_str(&b));
}

/* o and p hold the same settings (what the user gave aside); the brokers are compared, then dropped. */
static bool
same(kg_options *o, kg_options *p)
{
	bool brokers = (o->brokers == NULL) == (p->brokers == NULL) &&
		       (o->brokers == NULL || strcmp(o->brokers, p->brokers) == 0);
	free(o->brokers);
	free(p->brokers);
	o->brokers = p->brokers = NULL;
	memset(o->given, 0, sizeof o->given);
	memset(p->given, 0, sizeof p->given);
	p->start_mono_us = o->start_mono_us;
	return brokers && memcmp(o, p, sizeof *o) == 0;
}

/*
 * One option of --help: its long name and the default its help states
 * (and the demo's), read from the lines of its entry.
 */
typedef struct said {
	char name[64];
	char def[32], demo[32];
} said;

/* True when line starts an option's entry: "  -i, --interval ..." or "      --timeout ...". */
static bool
entry_start(const char *line)
{
	return strncmp(line, "  -", 3) == 0 || strncmp(line, "      --", 8) == 0;
}

/* Note the entry in e (its lines joined) in out when its help ends with the default it states. */
static bool
entry_default(const char *e, said *out)
{
	const char *d = strstr(e, "(default "), *demo;
	size_t n = strlen(e);
	/* the row's default ends its help ("on ADDR (default 127.0.0.1); ..." is the address's) */
	if (d == NULL || strchr(d, ')') != e + n - 1 || sscanf(strstr(e, "--"), "--%63[a-z-]", out->name) != 1 ||
	    sscanf(d, "(default %31[^;) ]", out->def) != 1 || out->def[0] == '$')
		return false;
	out->demo[0] = '\0';
	demo = strstr(d, "; the demo ");
	if (demo != NULL)
		sscanf(demo, "; the demo %31[^;), ]", out->demo);
	return true;
}

/* Read every entry of --help that ends with the default it states; returns how many. */
static int
read_help(const char *help, said *out, int max)
{
	sbuf entry = { 0 };
	const char *p = help;
	int n = 0;
	while (*p != '\0' && n < max) {
		size_t len = strcspn(p, "\n");
		bool cont = strncmp(p, "                              ", 30) == 0;
		if (!cont && entry.len > 0) {
			n += entry_default(sbuf_str(&entry), &out[n]);
			entry.len = 0;
			entry.s[0] = '\0';
		}
		if (entry_start(p) || (cont && entry.len > 0)) {
			/* a wrapped line goes on at a space */
			if (entry.len > 0)
				sbuf_addc(&entry, ' ');
			sbuf_addn(&entry, p + strspn(p, " "), len - strspn(p, " "));
		}
		p += len + (p[len] == '\n');
	}
	sbuf_free(&entry);
	return n;
}

/* Every default --help states is the default kgtop uses, read as the user's would be. */
static void
test_help_says_the_defaults(void **state)
{
	char *help = help_text();
	said s[64];
	int n = read_help(help, s, 64), i, demos = 0;
	(void)state;
	assert_true(n >= 12); /* interval, timeout, full refresh, ... serve buffer */
	for (i = 0; i < n; i++) {
		kg_options def, typed;
		char arg[128];
		const char *d[] = { "kgtop", "-b", "k:9092", NULL }, *t[] = { "kgtop", "-b", "k:9092", arg, NULL };
		const char *dd[] = { "kgtop", "--demo", NULL }, *dt[] = { "kgtop", "--demo", arg, NULL };
		snprintf(arg, sizeof arg, "--%s=%s", s[i].name, s[i].def);
		assert_int_equal(parse(&def, d), 0);
		assert_int_equal(parse(&typed, t), 0);
		if (!same(&def, &typed))
			fail_msg("--help says --%s defaults to %s; kgtop's default differs", s[i].name, s[i].def);
		options_free(&def);
		options_free(&typed);
		if (s[i].demo[0] == '\0')
			continue;
		/* the demo's own, where the user gave none */
		demos++;
		snprintf(arg, sizeof arg, "--%s=%s", s[i].name, s[i].demo);
		assert_int_equal(parse(&def, dd), 0);
		assert_int_equal(parse(&typed, dt), 0);
		if (!same(&def, &typed))
			fail_msg("--help says --%s is %s in the demo; the demo's default differs", s[i].name, s[i].demo);
		options_free(&def);
		options_free(&typed);
	}
	assert_int_equal(demos, 3); /* --storm-window, --storm-rebalances, --lag-window */
	free(help);
}

/* What the user gave, and only that, is given; the demo's defaults never override it. */
static void
test_given(void **state)
{
	static const char *const argv[] = { "kgtop", "--demo", "--lag-window", "1m", "-i", "2", NULL };
	kg_options o;
	(void)state;
	assert_int_equal(parse(&o, argv), 0);
	assert_true(options_given(&o, &o.lag_window_us));
	assert_true(options_given(&o, &o.interval_us));
	assert_false(options_given(&o, &o.storm_window_us));
	assert_false(options_given(&o, &o.history_us));
	assert_true(o.lag_window_us == 60 * SEC);
	assert_true(o.interval_us == 2 * SEC);
	options_free(&o);
}

/* The tracker's settings: the user's, else a recording's, else the defaults; the history always the options'. */
static void
test_model(void **state)
{
	static const char *const plain[] = { "kgtop", "--replay", "r.jsonl", NULL };
	static const char *const typed[] = { "kgtop",	   "--replay",	"r.jsonl", "--lag-window", "30s", "--session-timeout",
					     "20000", "--storm-rebalances", "5", "--history", "2h", NULL };
	kg_tracker_config rec, tc, def;
	kg_options o;
	(void)state;
	memset(&rec, 0, sizeof rec);
	rec.window_us = 7 * 60 * SEC;
	rec.storm_window_us = 9 * 60 * SEC;
	rec.storm_episodes = 4;
	rec.storm_ratio = 0.25;
	rec.session_timeout_us = 12 * SEC;
	rec.session_src = KG_LIMIT_TRACE;
	rec.max_poll_us = 33 * SEC;
	rec.max_poll_src = KG_LIMIT_CONFIG;
	rec.orphan_grace_us = 5 * SEC;
	rec.lag_window_us = -1; /* a recording older than verdicts */
	/* no recording: the options' */
	assert_int_equal(parse(&o, plain), 0);
	options_model(&o, NULL, &def);
	assert_true(def.window_us == o.history_us && def.lag_window_us == o.lag_window_us);
	assert_true(def.session_timeout_us == o.session_timeout_us && def.session_src == KG_LIMIT_DEFAULT);
	assert_true(def.storm_ratio == 0 && def.orphan_grace_us == 0); /* the tracker's own constants */
	/* the recording's where the user gave nothing, the history aside */
	options_model(&o, &rec, &tc);
	assert_true(tc.window_us == o.history_us);
	assert_true(tc.storm_window_us == rec.storm_window_us && tc.storm_episodes == rec.storm_episodes);
	assert_true(tc.storm_ratio == rec.storm_ratio && tc.orphan_grace_us == rec.orphan_grace_us);
	assert_true(tc.session_timeout_us == rec.session_timeout_us && tc.session_src == KG_LIMIT_TRACE);
	assert_true(tc.max_poll_us == rec.max_poll_us && tc.max_poll_src == KG_LIMIT_CONFIG);
	assert_true(tc.lag_window_us == -1);
	/* a recording that does not say: the options' */
	rec.storm_window_us = 0;
	options_model(&o, &rec, &tc);
	assert_true(tc.storm_window_us == def.storm_window_us);
	options_free(&o);
	/* what the user typed wins */
	assert_int_equal(parse(&o, typed), 0);
	options_model(&o, &rec, &tc);
	assert_true(tc.lag_window_us == 30 * SEC);
	assert_true(tc.session_timeout_us == 20 * SEC && tc.session_src == KG_LIMIT_CONFIG);
	assert_true(tc.storm_episodes == 5);
	assert_true(tc.window_us == 2 * 3600 * SEC);
	assert_true(tc.max_poll_us == rec.max_poll_us); /* not typed: the recording's */
	options_free(&o);
}

/* Entry point. */
int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_help_says_the_defaults),
		cmocka_unit_test(test_given),
		cmocka_unit_test(test_model),
	};
	setenv("KGTOP_CONFIG", "none", 1);
	unsetenv("KGTOP_BROKERS");
	unsetenv("NO_COLOR");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
