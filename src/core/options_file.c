/*
 * options_file.c: the files options come from: the config file ("name =
 * value" lines with the options' long names, "X.key = value" librdkafka
 * properties, [cluster NAME] sections), -F properties files, and the
 * named clusters -C chooses among.  A line goes to the row of the option
 * it names (options.c), set as the command line sets it; a message never
 * repeats a value of a file (it may be a password), only the names of
 * options and properties.  Files are kept to the rules of secfile.h.
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/options.h"
#include "core/options_int.h"
#include "sources/kafka/rdprops.h"
#include "util/secfile.h"
#include "util/util.h"

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
int
options_add_property(kg_options *o, const char *kv, const char *origin, char *err, size_t errsz)
{
	return add_kv(&o->rdkafka, &o->nrdkafka, kv, origin, err, errsz);
}

/* Free a list of properties. */
void
options_free_props(kg_kv *v, size_t n)
{
	size_t i;
	for (i = 0; i < n; i++) {
		free(v[i].key);
		free(v[i].value);
		free(v[i].origin);
	}
	free(v);
}

/* One line of a properties file. */
static int
properties_line(void *ctx, char *s, const char *where, char *err, size_t errsz)
{
	return options_add_property(ctx, s, where, err, errsz);
}

/* -F: a librdkafka properties file (kept to the rules of secfile.h). */
int
options_read_properties(kg_options *o, const char *path, char *err, size_t errsz)
{
	FILE *f = secfile_open(path, "-F", err, errsz);
	if (f == NULL)
		return -1;
	return read_lines(f, path, properties_line, o, err, errsz);
}

/*
 * A line of the config file that is about named clusters: "[cluster
 * NAME]" opens a section (*sec: the new cluster); in a section, "brokers
 * = LIST" sets its brokers and "trace = SPEC" adds one of its traces.  Returns 1 when the line was one of these, 0
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
	if (eq != NULL && strcmp(k, "trace") == 0) {
		/* a trace of this cluster (its broker logs, offsets), asked for when the cluster is chosen */
		char *v = trim(eq + 1), *colon = strchr(v, ':');
		kg_strlist *l = &(*sec)->traces;
		if (strcmp(v, "offsets") != 0 && (colon == NULL || colon == v || colon[1] == '\0'))
			return util_err(err, errsz, "%s: trace: expected KIND:URL or offsets (the value is not shown)", where);
		l->v = xreallocarray(l->v, l->n + 1, sizeof *l->v);
		l->v[l->n++] = xstrdup(v);
		return 1;
	}
	if (strcmp(k, "brokers") != 0 || eq == NULL)
		return util_err(err, errsz, "%s: %s: a [cluster] section holds brokers = LIST, trace = SPEC and X.key = value lines",
				where, eq != NULL && name_shown(k) ? k : "(the line is not shown)");
	k = trim(eq + 1);
	if (k[strspn(k, " \t,")] == '\0')
		return util_err(err, errsz, "%s: brokers: expected host:port[,host:port...]", where);
	options_set_string(&(*sec)->brokers, k);
	return 1;
}

/*
 * Set an option from the config file: a message never repeats the value.
 * The rows' messages quote the value ('VALUE'): that is taken out, and a
 * message that would still show some of it says only which option.
 */
static int
file_row_set(const opt_def *d, kg_options *o, const char *v, const char *where, char *err, size_t errsz)
{
	size_t n = strlen(v) * 2 + 1024;
	char *msg = xmalloc(n), *q, *quoted = xasprintf("'%s'", v);
	int rc = 0;
	if (options_row_set(d, o, v, msg, n) < 0) {
		while (*v != '\0' && (q = strstr(msg, quoted)) != NULL) {
			memmove(q + 7, q + strlen(quoted), strlen(q + strlen(quoted)) + 1);
			memcpy(q, "(value)", 7); /* short: the message must fit its buffer */
		}
		/* -F names its file: the file is what the message is about */
		if (strcmp(d->name, "properties") == 0 || strlen(v) < 4 || strstr(msg, v) == NULL)
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
		if (options_row_find(k) != NULL || (strncmp(k, "X.", 2) == 0 && rdprops_key_shown(k + 2)))
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
	d = options_row_find(k);
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
			return options_row_set(d, o, "", err, errsz);
		if (strcasecmp(v, "false") == 0 || strcasecmp(v, "no") == 0 || strcmp(v, "0") == 0)
			return 0;
		return util_err(err, errsz, "%s: %s takes true or false", where, k);
	}
	if (v == NULL && d->arg == required_argument)
		return util_err(err, errsz, "%s: %s needs a value", where, k);
	if (strcmp(d->name, "property") == 0)
		return options_add_property(o, v ? v : "", where, err, errsz); /* from a file: judged as one */
	return file_row_set(d, o, v ? v : "", where, err, errsz);
}

/* Read the config file (kept to the rules of secfile.h): lines of any length, [cluster NAME] sections. */
static int
read_config(kg_options *o, const char *path, bool must_exist, char *err, size_t errsz)
{
	FILE *f = secfile_open(path, "config", err, errsz);
	config_ctx cx = { o, NULL };
	if (f == NULL)
		return !must_exist && errno == ENOENT ? 0 : -1;
	options_set_string(&o->config_file, path);
	return read_lines(f, path, config_line, &cx, err, errsz);
}

/* -C list: the config file's named clusters, one a line with its brokers. */
void
options_list_clusters(const kg_options *o)
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
int
options_use_cluster(kg_options *o, size_t nfile, bool brokers_cli, bool named_cli, char *err, size_t errsz)
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
	options_set_string(&o->brokers, c->brokers);
	for (k = 0; k < c->traces.n; k++) {
		if (options_row_set(options_row_find("trace"), o, c->traces.v[k], err, errsz) < 0)
			return -1;
	}
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
int
options_read_config(kg_options *o, const char *config, char *err, size_t errsz)
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
