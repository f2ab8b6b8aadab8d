/*
 * demo.h: the embedded demo: librdkafka's mock cluster (or a real
 * cluster), a producer, and fleets of real librdkafka consumers driven by
 * a scenario script, reported as a source (exact callbacks, heartbeats,
 * polls) next to the kafka source that polls the same cluster.
 *
 * Order of creation: the mock cluster's bootstrap servers are known only
 * once the demo runs, and the kafka source needs them; so create the demo
 * (cfg->kafka may be NULL), then the kafka source with *bootstrap, then
 * hand it over with demo_source_set_kafka().  The demo registers its
 * groups (kafka_source_watch) from its first poll on the collector thread.
 *
 * On a real cluster (cfg->brokers set) the topic is kgtop-demo-groups
 * (created if missing), every group is named kgtop-demo-*, and at exit
 * the groups and the topic are deleted and the answers checked (a static
 * member's group once its session ended); nothing else is touched.  What
 * could not be removed is written to cfg->leftovers, one line each with
 * the command that removes it, for the caller to print once the terminal
 * is restored.
 */
#ifndef KGTOP_SOURCES_DEMO_DEMO_H
#define KGTOP_SOURCES_DEMO_DEMO_H

#include <stdbool.h>
#include <stddef.h>

#include "util/kv.h"
#include "model/source.h"

typedef struct kg_demo_config {
	const char *scenario;      /* NULL or "default" */
	const char *brokers;       /* NULL: start the mock cluster */
	const kg_kv *props;        /* -X properties for a real cluster */
	size_t nprops;
	int partitions;            /* topic partitions (--demo-partitions), 1 to KG_MAX_DEMO_PARTITIONS_N */
	const char *export_trace;  /* write every observation as jsonl here, NULL none */
	int64_t timeout_us;        /* a real cluster's metadata and topic creation wait at most this (0: 15 s) */
	kg_source *kafka;          /* the kafka source to register demo groups with (watch) */
	char *leftovers;           /* a real cluster: what the demo could not remove at exit ("" when all went) */
	size_t leftovers_size;
} kg_demo_config;

/*
 * Print the scenario names and one line each to stdout, and under a
 * scenario whose consumer-protocol group this build cannot run, a line
 * saying so (demo_kip848_missing).
 */
void demo_list_scenarios(void);
/*
 * Why this build's demo runs no consumer-protocol group (KIP-848), e.g.
 * "group.protocol=consumer needs librdkafka >= 2.12 (this build: 2.0.2)";
 * NULL when it runs them.
 */
const char *demo_kip848_missing(void);
/*
 * The groups a scenario (NULL: the default) runs in this build, at most
 * max names into names (the table's, static); how many, -1 unknown.
 */
int demo_scenario_groups(const char *name, const char **names, int max);
/* True when name is a known scenario (or NULL / "default") that can run there. */
bool demo_scenario_known(const char *name, bool real_cluster);
/*
 * Why a scenario cannot run there (for the UI and main's error), NULL when
 * it can: e.g. static membership needs a real cluster.
 */
const char *demo_scenario_why_not(const char *name, bool real_cluster);
/*
 * True when the scenario (NULL: the default) runs a script, so that the
 * script can be paused ("pause-script"); false for manual and unknown ones.
 * For the UI's keys: the footer offers P only then.
 */
bool demo_scenario_scripted(const char *name);
/*
 * Start the demo (mock cluster, topic, producer, consumers) and create its
 * source.  *bootstrap receives the cluster's bootstrap servers (owned by
 * the source; valid until it closes) for the kafka source to poll.
 */
int demo_source_new(const kg_demo_config *cfg, kg_source **out, const char **bootstrap, char *err,
		    size_t errsz);
/* Give the demo the kafka source to register its groups with (before the collector starts). */
void demo_source_set_kafka(kg_source *demo, kg_source *kafka);

#endif
