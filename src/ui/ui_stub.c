/*
 * ui_stub.c: placeholder until the dashboard lands (ui.c replaces it).
 */
#include "config.h"

#include "ui/ui.h"

#include "util/util.h"

/* Not available. */
int
ui_run(kg_collector *c, const kg_options *o, const kg_ui_info *info, char *err, size_t errsz)
{
	(void)c;
	(void)o;
	(void)info;
	return util_err(err, errsz, "the dashboard is not built into this kgtop yet: use --once or --json");
}
