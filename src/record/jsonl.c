/*
 * jsonl.c: the JSON-lines trace reader and writer (see jsonl.h and
 * kgtop-trace(5)); the fields are the observation table's (obs_codec.c).
 */
#include "config.h"

#include "record/jsonl.h"

#include <cjson/cJSON.h>
#include <stdbool.h>

#include "record/obs_codec.h"

#define SRC "jsonl"

/* Kinds that may name only a client: the tracker finds the group by client id. */
static bool
client_keyed(kg_obs_kind k)
{
	return k == KG_OBS_METRICS || k == KG_OBS_CLIENT_STATE || k == KG_OBS_HEARTBEAT || k == KG_OBS_POLL;
}

/* Parse one line. */
kg_parse_rc
jsonl_parse_line(const char *line, size_t len, kg_obsq *out)
{
	cJSON *j;
	kg_obs *o = NULL;
	kg_parse_rc rc;
	char err[256];
	size_t i = 0;
	while (i < len && (line[i] == ' ' || line[i] == '\t'))
		i++;
	if (i == len)
		return KG_PARSE_SKIPPED;
	j = cJSON_ParseWithLength(line, len);
	switch (obs_codec_read(j, OBS_TRACE, SRC, &o, err, sizeof err)) {
	case 0:
		if (o->group < 0 && !client_keyed(o->kind)) {
			obs_free(o);
			rc = KG_PARSE_MALFORMED;
			break;
		}
		obsq_push(out, o);
		rc = KG_PARSE_OBS;
		break;
	case OBS_UNKNOWN_KIND:
	case OBS_OTHER_VERSION:
		rc = KG_PARSE_UNPARSED;
		break;
	default:
		rc = KG_PARSE_MALFORMED;
		break;
	}
	cJSON_Delete(j);
	return rc;
}

/* Append one observation as JSON. */
void
jsonl_write_format(sbuf *b, const kg_obs *o)
{
	obs_codec_write(b, o, OBS_TRACE);
}

/* Write one line and flush. */
int
jsonl_write_obs(FILE *f, const kg_obs *o)
{
	sbuf b = { 0 };
	int rc = 0;
	jsonl_write_format(&b, o);
	sbuf_addc(&b, '\n');
	if (fwrite(b.s, 1, b.len, f) != b.len || fflush(f) != 0)
		rc = -1;
	sbuf_free(&b);
	return rc;
}
