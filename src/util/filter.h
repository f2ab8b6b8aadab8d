/*
 * filter.h: include / exclude regular expressions over names (-g / -G, -t).
 *
 * A name passes when it matches one of the includes (or there are none)
 * and none of the excludes.  Extended POSIX regular expressions.
 */
#ifndef KGTOP_UTIL_FILTER_H
#define KGTOP_UTIL_FILTER_H

#include <stdbool.h>
#include <stddef.h>

typedef struct kg_filter kg_filter;

/* Compile; NULL lists are empty; -1 with err on a bad expression. */
int filter_new(const char *const *inc, size_t ninc, const char *const *exc, size_t nexc, kg_filter **out,
	       char *err, size_t errsz);
/* True when name passes (a NULL filter passes everything). */
bool filter_match(const kg_filter *f, const char *name);
/* True when the filter lets everything through. */
bool filter_empty(const kg_filter *f);
/* Free. */
void filter_free(kg_filter *f);

#endif
