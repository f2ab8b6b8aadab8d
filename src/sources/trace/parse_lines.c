/*
 * parse_lines.c: bounded line assembly (see parse_lines.h).
 */
#include "config.h"

#include "sources/trace/parse_lines.h"

#include <stdlib.h>
#include <string.h>

#include "util/util.h"

/* Prepare an assembler. */
void
parse_lines_init(kg_lines *l, size_t max)
{
	memset(l, 0, sizeof *l);
	l->max = max > 0 ? max : 65536;
}

/* Deliver one line, without a trailing carriage return. */
static void
deliver(const char *p, size_t n, kg_line_fn fn, void *arg)
{
	if (n > 0 && p[n - 1] == '\r')
		n--;
	fn(arg, p, n);
}

/* Feed bytes. */
void
parse_lines_feed(kg_lines *l, const char *p, size_t n, kg_line_fn fn, void *arg)
{
	while (n > 0) {
		const char *nl = memchr(p, '\n', n);
		size_t take = nl != NULL ? (size_t)(nl - p) : n;
		if (l->skipping) {
			if (nl == NULL)
				return;
			l->skipping = false;
		} else if (l->len == 0 && nl != NULL) {
			/* a whole line inside the piece: no copy */
			if (take > l->max)
				l->oversize++;
			else
				deliver(p, take, fn, arg);
		} else if (l->len + take > l->max) {
			/* too long: drop what we have and the rest of the line */
			l->len = 0;
			l->oversize++;
			if (nl == NULL) {
				l->skipping = true;
				return;
			}
		} else {
			if (l->len + take > l->cap) {
				size_t c = l->cap ? l->cap : 256;
				while (c < l->len + take)
					c *= 2;
				if (c > l->max)
					c = l->max;
				l->buf = xrealloc(l->buf, c);
				l->cap = c;
			}
			memcpy(l->buf + l->len, p, take);
			l->len += take;
			if (nl == NULL)
				return;
			deliver(l->buf, l->len, fn, arg);
			l->len = 0;
		}
		p += take + 1;
		n -= take + 1;
	}
}

/* Drop a partial line. */
size_t
parse_lines_reset(kg_lines *l)
{
	size_t n = l->len;
	l->len = 0;
	l->skipping = false;
	return n;
}

/* Skip through the next newline. */
void
parse_lines_resync(kg_lines *l)
{
	l->len = 0;
	l->skipping = true;
}

/* Release memory. */
void
parse_lines_free(kg_lines *l)
{
	free(l->buf);
	l->buf = NULL;
	l->len = l->cap = 0;
}

/* Name of a verdict. */
const char *
parse_rc_name(kg_parse_rc rc)
{
	static const char *const names[KG_PARSE_COUNT] = {
		[KG_PARSE_OBS] = "obs",
		[KG_PARSE_KNOWN] = "known",
		[KG_PARSE_SKIPPED] = "skipped",
		[KG_PARSE_UNPARSED] = "unparsed",
		[KG_PARSE_MALFORMED] = "malformed",
	};
	return (unsigned)rc < KG_PARSE_COUNT ? names[rc] : "?";
}
