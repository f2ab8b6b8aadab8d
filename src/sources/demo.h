/*
 * demo.h: the embedded demo: librdkafka's mock cluster (or a real
 * cluster), a producer, and fleets of real librdkafka consumers driven by
 * a scenario script, reported as a source (exact callbacks, heartbeats,
 * polls) next to the kafka source that polls the same cluster.
 */
#ifndef KGTOP_SOURCES_DEMO_H
#define KGTOP_SOURCES_DEMO_H

#include <stdbool.h>
#include <stddef.h>

#include "core/options.h"
#include "sources/source.h"

typedef struct kg_demo_config {
	const char *scenario;      /* NULL or "default" */
	const char *brokers;       /* NULL: start the mock cluster */
	const kg_kv *props;        /* -X properties for a real cluster */
	size_t nprops;
	int partitions;            /* topic partitions (default 6) */
	const char *export_trace;  /* write every observation as jsonl here, NULL none */
	kg_source *kafka;          /* the kafka source to register demo groups with (watch) */
} kg_demo_config;

/* Print the scenario names and one line each to stdout. */
void demo_list_scenarios(void);
/* True when name is a known scenario (or NULL / "default"). */
bool demo_scenario_known(const char *name, bool real_cluster);
/*
 * Start the demo (mock cluster, topic, producer, consumers) and create its
 * source.  *bootstrap receives the cluster's bootstrap servers (owned by
 * the source; valid until it closes) for the kafka source to poll.
 */
int demo_source_new(const kg_demo_config *cfg, kg_source **out, const char **bootstrap, char *err,
		    size_t errsz);

#endif
