/*
 * fuzz_jsonl.c: libFuzzer target for the jsonl reader and writer.
 *
 * Whatever the reader accepts, the writer must write back, and reading
 * that must give the same text again (a fixed point after one round).
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/obs.h"
#include "record/json.h"
#include "record/jsonl.h"
#include "util/util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* One input. */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	kg_obsq q = { 0 }, back = { 0 };
	sbuf a = { 0 }, b = { 0 };
	int64_t t;
	char *s;
	if (jsonl_parse_line((const char *)data, size, &q) == KG_PARSE_OBS) {
		if (q.n != 1)
			abort();
		jsonl_write_format(&a, q.v[0]);
		if (jsonl_parse_line(a.s, a.len, &back) != KG_PARSE_OBS || back.n != 1)
			abort();
		back.v[0]->source = q.v[0]->source;
		jsonl_write_format(&b, back.v[0]);
		if (strcmp(sbuf_str(&a), sbuf_str(&b)) != 0)
			abort();
	}
	s = xstrndup((const char *)data, size);
	json_parse_time(s, &t);
	free(s);
	obsq_clear(&q);
	obsq_clear(&back);
	free(q.v);
	free(back.v);
	sbuf_free(&a);
	sbuf_free(&b);
	return 0;
}
