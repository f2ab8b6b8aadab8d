/*
 * options_int.h: what the two rooms of the options share: the rows of the
 * option table (options.c: the table, the parsers by type, the defaults,
 * the command line, the rules between options) and the files options come
 * from (options_file.c: the config file, -F properties files, the named
 * clusters).
 */
#ifndef KGTOP_CORE_OPTIONS_INT_H
#define KGTOP_CORE_OPTIONS_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/options.h"

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
	const char *def;   /* the default as it would be typed, read by the row's own parser (NULL: zero, off) */
	const char *demo;  /* the embedded demo's own default, where it has one (read when the demo runs) */
	const char *note;  /* what --help says after the default ("; the embedded demo at least 60") */
} opt_def;

/* options.c */
/* Replace a string option. */
void options_set_string(char **dst, const char *s);
/* The row of a long name, NULL when none. */
const opt_def *options_row_find(const char *name);
/* Set an option the user gave (command line or config file) as its row says; 0, or -1 with err. */
int options_row_set(const opt_def *d, kg_options *o, const char *a, char *err, size_t errsz);

/* options_file.c */
/* Add a librdkafka property key=value to the options, set at origin ("FILE:LINE", judged as a file's; NULL: -X). */
int options_add_property(kg_options *o, const char *kv, const char *origin, char *err, size_t errsz);
/* -F: a librdkafka properties file's lines as properties. */
int options_read_properties(kg_options *o, const char *path, char *err, size_t errsz);
/* Free a list of properties. */
void options_free_props(kg_kv *v, size_t n);
/* The config file: config (-c FILE), else $KGTOP_CONFIG ("none" reads none), else the default one if it is there. */
int options_read_config(kg_options *o, const char *config, char *err, size_t errsz);
/* -C list: the config file's named clusters, one a line with its brokers. */
void options_list_clusters(const kg_options *o);
/*
 * -C NAME: the named cluster's brokers, and its properties before those of
 * the command line (nfile: how many the files gave), so -X still wins.
 */
int options_use_cluster(kg_options *o, size_t nfile, bool brokers_cli, bool named_cli, char *err, size_t errsz);

#endif
