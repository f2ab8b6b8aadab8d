/*
 * demo_stub.c: placeholder until the embedded demo lands (demo.c replaces it).
 */
#include "config.h"

#include "sources/demo.h"

#include <stdio.h>

#include "util/util.h"

/* No scenarios yet. */
void
demo_list_scenarios(void)
{
	printf("default  (the embedded demo is not built into this kgtop yet)\n");
}

/* Only the default name is known. */
bool
demo_scenario_known(const char *name, bool real_cluster)
{
	(void)real_cluster;
	return name == NULL;
}

/* Not available. */
int
demo_source_new(const kg_demo_config *cfg, kg_source **out, const char **bootstrap, char *err, size_t errsz)
{
	(void)cfg;
	*out = NULL;
	*bootstrap = NULL;
	return util_err(err, errsz, "the embedded demo is not built into this kgtop yet: give -b BROKERS");
}
