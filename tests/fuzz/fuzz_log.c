/*
 * fuzz_log.c: libFuzzer target for the broker log parser and the line assembler.
 *
 * The input is fed in two pieces (split at its first byte's value) through
 * a small line cap, every line is parsed, and every observation must come
 * out with sanitized strings (no control characters, valid UTF-8).
 */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model/obs.h"
#include "sources/trace/parse_lines.h"
#include "sources/trace/parse_log.h"
#include "util/util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct ctx {
	kg_log_parser p;
	kg_obsq q;
} ctx;

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

/* Parse one line and check what came out. */
static void
on_line(void *arg, const char *line, size_t len)
{
	ctx *c = arg;
	size_t i;
	parse_log_line(&c->p, line, len, &c->q);
	for (i = 0; i < c->q.n; i++) {
		kg_obs *o = c->q.v[i];
		check_text(o->member_id);
		check_text(o->client_id);
		check_text(o->instance_id);
		check_text(o->host);
		check_text(o->text);
	}
	obsq_clear(&c->q);
}

/* One input. */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	ctx c;
	kg_lines l;
	size_t cut = size > 0 ? data[0] % (size + 1) : 0;
	int64_t t;
	memset(&c, 0, sizeof c);
	parse_log_init(&c.p);
	parse_lines_init(&l, 4096);
	parse_lines_feed(&l, (const char *)data, cut, on_line, &c);
	parse_lines_feed(&l, (const char *)data + cut, size - cut, on_line, &c);
	parse_lines_free(&l);
	parse_log_time(&c.p, (const char *)data, size < 32 ? size : 32, &t);
	check_text(NULL);
	free(c.q.v);
	parse_log_free(&c.p);
	return 0;
}
