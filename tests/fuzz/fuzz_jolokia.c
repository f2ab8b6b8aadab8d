/*
 * fuzz_jolokia.c: libFuzzer target for Jolokia bulk answers and MBean names.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/obs.h"
#include "sources/trace/parse_jolokia.h"
#include "util/util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* One input. */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	kg_obsq q = { 0 };
	kg_jolokia_result res;
	char err[200], v[64];
	char *s = xstrndup((const char *)data, size);
	size_t i;
	if (parse_jolokia_response((const char *)data, size, 1, &q, &res, err, sizeof err) == 0) {
		if ((size_t)res.clients != q.n || res.failed > res.reads + (int)size)
			abort();
		for (i = 0; i < q.n; i++) {
			if (q.v[i]->kind != KG_OBS_METRICS || q.v[i]->group != -1 || q.v[i]->client_id == NULL)
				abort();
		}
	}
	parse_jolokia_mbean_prop(s, "client-id", v, sizeof v);
	parse_jolokia_mbean_prop(s, "type", v, 1);
	free(s);
	obsq_clear(&q);
	free(q.v);
	return 0;
}
