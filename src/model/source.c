/*
 * source.c: the source record.
 */
#include "config.h"

#include "model/source.h"

#include <stdlib.h>
#include <string.h>

#include "util/util.h"

/* Allocate a source record. */
kg_source *
source_new(const kg_source_ops *ops, const char *name, void *impl)
{
	kg_source *s = xcalloc(1, sizeof *s);
	s->ops = ops;
	s->impl = impl;
	util_strlcpy(s->name, name ? name : ops->kind, sizeof s->name);
	return s;
}

/* Close and free. */
void
source_free(kg_source *s)
{
	if (s == NULL)
		return;
	if (s->ops->close != NULL)
		s->ops->close(s);
	free(s);
}

/* A recorded source's role from the name it was recorded under. */
kg_src_role
source_recorded_role(const char *name)
{
	if (strcmp(name, "kafka") == 0)
		return KG_ROLE_CLUSTER;
	if (strcmp(name, "demo") == 0)
		return KG_ROLE_DEMO;
	return KG_ROLE_TRACE;
}
