/*
 * trace_backlog.c: bytes received but not yet parsed (see trace_backlog.h).
 *
 * One buffer with a read offset; fed bytes are reclaimed by moving the
 * rest to the front once they are at least half of it, so each byte is
 * moved at most once on average.
 */
#include "config.h"

#include "sources/trace/trace_backlog.h"

#include <stdlib.h>
#include <string.h>

#include "util/util.h"

/* Append n bytes. */
void
trace_backlog_add(kg_backlog *b, const char *p, size_t n)
{
	if (n == 0)
		return;
	if (b->off > 0 && b->off >= b->len / 2) {
		memmove(b->buf, b->buf + b->off, b->len - b->off);
		b->len -= b->off;
		b->off = 0;
	}
	util_grow(&b->buf, &b->cap, b->len + n, 1);
	memcpy(b->buf + b->len, p, n);
	b->len += n;
}

/* Bytes waiting. */
size_t
trace_backlog_size(const kg_backlog *b)
{
	return b->len - b->off;
}

/* Feed whole lines while there is room. */
size_t
trace_backlog_feed(kg_backlog *b, kg_lines *l, kg_line_fn fn, void *fn_arg, bool (*more)(void *arg), void *more_arg)
{
	size_t lines = 0;
	while (b->off < b->len && more(more_arg)) {
		const char *p = b->buf + b->off;
		const char *nl = memchr(p, '\n', b->len - b->off);
		size_t n = nl != NULL ? (size_t)(nl - p) + 1 : b->len - b->off;
		b->off += n;
		parse_lines_feed(l, p, n, fn, fn_arg);
		lines += nl != NULL;
	}
	if (b->off == b->len)
		b->off = b->len = 0;
	return lines;
}

/* Release the memory. */
void
trace_backlog_free(kg_backlog *b)
{
	free(b->buf);
	memset(b, 0, sizeof *b);
}
