/*
 * options.h: every setting of kgtop, from defaults, the config file, the
 * environment and the command line (in that order of precedence).
 *
 * Flags follow kcat's habits: -b brokers, -X key=value passed to
 * librdkafka, -F file of librdkafka properties.  The config file
 * (~/.config/kgtop/config, or $KGTOP_CONFIG, or -c FILE) holds lines
 * "option = value" with the long option names (e.g. "interval = 2",
 * "theme = light", "trace = log:file:///var/log/kafka/server.log"); lines
 * of the form "X.key = value" are librdkafka properties.  Named clusters,
 * as kcat and k9s users keep them, are sections
 *   [cluster prod]
 *   brokers = kafka1:9092,kafka2:9092
 *   X.security.protocol = SASL_SSL
 *   trace = offsets
 * chosen with -C prod (or "cluster = prod" before any section); -C list
 * lists them.
 */
#ifndef KGTOP_CORE_OPTIONS_H
#define KGTOP_CORE_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/tracker.h"
#include "util/kv.h"

typedef enum kg_mode {
	KG_MODE_UI,    /* the curses dashboard (default) */
	KG_MODE_ONCE,  /* --once: one text report */
	KG_MODE_JSON,  /* --json: JSON lines (with --once, one object) */
	KG_MODE_SERVE, /* --serve without a terminal: serve until a signal (main decides) */
	KG_MODE_CHECK, /* --check: one status line, the monitoring-plugin exit status */
} kg_mode;

/* A named cluster of the config file: [cluster NAME] with its brokers and librdkafka properties. */
typedef struct kg_cluster {
	char *name;
	char *brokers;
	kg_kv *props;
	size_t nprops;
	kg_strlist traces;        /* its trace = SPEC lines, asked for when it is chosen */
} kg_cluster;

typedef struct kg_options {
	/* cluster */
	char *brokers;            /* -b, $KGTOP_BROKERS, or the named cluster's; NULL: demo */
	char *cluster;            /* -C NAME (or "cluster = NAME"): a named cluster of the config file */
	kg_cluster *clusters;     /* the config file's [cluster NAME] sections */
	size_t nclusters;
	kg_kv *rdkafka;           /* -X key=value and -F file, in order */
	size_t nrdkafka;
	kg_strlist include;       /* -g REGEX */
	kg_strlist exclude;       /* -G REGEX */
	kg_strlist topics;        /* -t REGEX */
	int64_t interval_us;      /* -i SECONDS (every default is its row's in options.c) */
	int64_t timeout_us;       /* --timeout: how long --once waits */
	int64_t full_refresh_us;  /* --full-refresh: every group asked at least this often */
	int max_requests;         /* --max-requests: requests per second to the cluster */
	/* output */
	kg_mode mode;
	bool once;                /* --once (with --json: a single object) */
	bool json;                /* --json was given (--check with it is refused) */
	int verbose;              /* -v (repeatable): log to --log file */
	char *log_file;           /* --log FILE */
	int64_t duration_us;      /* --duration: exit after this long (0: never) */
	int64_t start_mono_us;    /* when the options were parsed (monotonic): --duration counts from it */
	/* model */
	int64_t history_us;       /* --history */
	int64_t session_timeout_us; /* --session-timeout (Kafka's default unless given: a trace's wins then) */
	int64_t max_poll_us;      /* --max-poll-interval */
	int64_t storm_window_us;  /* --storm-window */
	int storm_rebalances;     /* --storm-rebalances */
	int64_t lag_window_us;    /* --lag-window: the progress verdicts' window (the demo's is shorter) */
	/* --check's thresholds (0: not given) */
	int warn_lag, crit_lag;   /* --warn-lag, --crit-lag: a group's lag, records */
	int64_t warn_time_lag_us; /* --warn-time-lag, --crit-time-lag */
	int64_t crit_time_lag_us;
	/* ui */
	char *theme;              /* --theme NAME */
	bool no_color;            /* --no-color, $NO_COLOR */
	bool ascii;               /* --ascii (also when the locale is not UTF-8) */
	bool no_mouse;            /* --no-mouse: the terminal keeps the mouse (to select text) */
	char *select_group;       /* --group NAME: select it at start */
	/* demo */
	bool demo;                /* --demo, or no brokers at all */
	char *demo_scenario;      /* --demo=SCENARIO ("list" lists them) */
	int demo_partitions;      /* --demo-partitions N */
	char *export_trace;       /* --export-trace FILE (jsonl) */
	/* traces */
	kg_strlist traces;        /* --trace KIND:URL, or "offsets" (once) */
	bool trace_from_start;
	bool trace_insecure;
	char *trace_headers;      /* --trace-headers FILE: extra HTTP headers (secrets) */
	/* record / replay */
	char *record;             /* --record FILE */
	int64_t record_max;       /* --record-max SIZE (bytes, 0 unlimited) */
	char *replay;             /* --replay FILE */
	double speed;             /* --speed X (replay) */
	char *at;                 /* --at TIME (replay --once) */
	/* serve and attach */
	char *serve;              /* --serve [ADDR:]PORT */
	char *serve_auth;         /* --serve-auth FILE: "user:password" lines */
	char *serve_cert;         /* --serve-cert FILE (PEM) */
	char *serve_key;          /* --serve-key FILE (PEM) */
	int serve_clients;        /* --serve-clients N */
	int64_t serve_buffer;     /* --serve-buffer SIZE */
	bool metrics_partitions;  /* --metrics-partitions */
	char *attach;             /* --attach URL: another kgtop's --serve */
	/* where settings came from, for --help and messages */
	char *config_file;        /* the file read, NULL when none */
	bool show_version;        /* -V: options_parse() returned 1, main prints the versions */
	uint64_t given[2];        /* the rows the config file or the command line set: options_given() */
} kg_options;

/* Every setting at its default (the one its row in options.c states). */
void options_defaults(kg_options *o);
/*
 * Parse: defaults, then the config file, then the environment, then argv.
 * Returns 0, 1 when the program should exit 0 (--help or -C list printed;
 * --version: show_version set, for main to print the libraries'), or -1
 * with err (usage error, exit 2).
 */
int options_parse(kg_options *o, int argc, char **argv, char *err, size_t errsz);
/* Free what options own. */
void options_free(kg_options *o);
/* True when --trace offsets was asked (the cluster's own __consumer_offsets). */
bool options_offsets(const kg_options *o);
/* Whether the config file or the command line set member (&o->lag_window_us), rather than its default. */
bool options_given(const kg_options *o, const void *member);
/*
 * The tracker's settings: what the user gave, else what a recording (or
 * the kgtop attached to) was made with (rec, NULL when none; its zeros:
 * not recorded), else the options' defaults (the demo's where it runs).
 * The history kept is always the options'.
 */
void options_model(const kg_options *o, const kg_tracker_config *rec, kg_tracker_config *tc);
/* The tracker's settings with every option at its default (tests and benchmarks). */
kg_tracker_config options_model_defaults(void);

#endif
