/*
 * fuzz_offsets.c: libFuzzer target for the __consumer_offsets decoder and
 * the reader's folded state (src/sources/offsets/offsets_record.c,
 * offsets_state.c).
 *
 * The input is a run of records, each: a flags byte (bit 0: the value is
 * null, a tombstone; bit 1: read live; bits 2-4: the topic's partition),
 * the key's and the value's lengths (two bytes each, big-endian), then the
 * key and the value.  Each record is decoded and folded; at the end every
 * partition's load is told.  Every observation made must carry clean
 * strings (no control characters, valid UTF-8) and survive the
 * recording's writer and reader.  The seed corpus is records a Kafka 4.3.1
 * broker wrote (tests/data/offsets/), grouped by partition.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "model/obs.h"
#include "record/obs_codec.h"
#include "sources/offsets/offsets_state.h"
#include "util/util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Abort unless s is clean text. */
static void
check_text(const char *s)
{
	size_t i, n;
	if (s == NULL)
		return;
	n = strlen(s);
	if (util_utf8_valid_prefix(s, n) != n)
		abort();
	for (i = 0; i < n; i++) {
		if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
			abort();
	}
}

/* Check an observation and put it through the recording's writer and reader. */
static void
check_obs(const kg_obs *o)
{
	sbuf b = { 0 };
	cJSON *j;
	kg_obs *back = NULL;
	char err[256];
	int i;
	check_text(o->member_id);
	check_text(o->client_id);
	check_text(o->instance_id);
	check_text(o->host);
	check_text(o->text);
	for (i = 0; i < o->nmlist; i++) {
		check_text(o->mlist[i].member_id);
		check_text(o->mlist[i].client_id);
		check_text(o->mlist[i].instance_id);
		check_text(o->mlist[i].host);
	}
	obs_codec_write(&b, o, OBS_RECORDING);
	j = cJSON_Parse(sbuf_str(&b));
	if (j == NULL || obs_codec_read(j, OBS_RECORDING, "offsets", &back, err, sizeof err) != 0 || back == NULL ||
	    back->kind != o->kind || back->nmlist != o->nmlist || back->nparts != o->nparts || back->npending != o->npending) {
		fprintf(stderr, "round trip: %s: %s\n", err, sbuf_str(&b));
		abort();
	}
	obs_free(back);
	cJSON_Delete(j);
	sbuf_free(&b);
}

/* One input. */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	kg_costate *s = offsets_state_new();
	kg_obsq q = { 0 };
	char err[256];
	size_t at = 0, i;
	int p;
	while (size - at >= 5) {
		uint8_t flags = data[at];
		size_t klen = (size_t)data[at + 1] << 8 | data[at + 2], vlen = (size_t)data[at + 3] << 8 | data[at + 4];
		at += 5;
		klen = klen < size - at ? klen : size - at;
		vlen = vlen < size - at - klen ? vlen : size - at - klen;
		offsets_state_read(s, (flags >> 2) & 7, data + at, klen, (flags & 1) ? NULL : data + at + klen, vlen,
				   1700000000000LL + (int64_t)at, (flags & 2) != 0, &q, err, sizeof err);
		at += klen + vlen;
	}
	for (p = 0; p < 8; p++)
		offsets_state_loaded(s, p, 1700000001000000LL, 3600LL * 1000000, &q);
	for (i = 0; i < q.n; i++)
		check_obs(q.v[i]);
	obsq_clear(&q);
	free(q.v);
	offsets_state_free(s);
	return 0;
}
