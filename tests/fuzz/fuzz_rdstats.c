/*
 * fuzz_rdstats.c: libFuzzer target for librdkafka statistics lines.
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/obs.h"
#include "sources/trace/parse_rdstats.h"
#include "util/util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* One input. */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	kg_obsq q = { 0 };
	char *s;
	if (parse_rdstats_line((const char *)data, size, 1, &q) == KG_PARSE_OBS &&
	    (q.n != 1 || q.v[0]->kind != KG_OBS_CLIENT_STATE || q.v[0]->client_id == NULL))
		abort();
	s = xstrndup((const char *)data, size);
	parse_rdstats_reason(s);
	free(s);
	obsq_clear(&q);
	free(q.v);
	return 0;
}
