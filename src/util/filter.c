/*
 * filter.c: include / exclude regular expressions over names.
 */
#include "config.h"

#include "util/filter.h"

#include <regex.h>
#include <stdlib.h>

#include "util/util.h"

struct kg_filter {
	regex_t *inc;
	size_t ninc;
	regex_t *exc;
	size_t nexc;
};

/* Compile a list. */
static int
compile(const char *const *v, size_t n, regex_t **out, size_t *nout, char *err, size_t errsz)
{
	size_t i;
	*nout = 0;
	if (n == 0)
		return 0;
	*out = xcalloc(n, sizeof **out);
	for (i = 0; i < n; i++) {
		int rc = regcomp(&(*out)[i], v[i], REG_EXTENDED | REG_NOSUB);
		if (rc != 0) {
			char msg[128];
			regerror(rc, &(*out)[i], msg, sizeof msg);
			return util_err(err, errsz, "bad regular expression '%s': %s", v[i], msg);
		}
		(*nout)++;
	}
	return 0;
}

/* Compile a filter. */
int
filter_new(const char *const *inc, size_t ninc, const char *const *exc, size_t nexc, kg_filter **out, char *err,
	   size_t errsz)
{
	kg_filter *f = xcalloc(1, sizeof *f);
	*out = NULL;
	if (compile(inc, ninc, &f->inc, &f->ninc, err, errsz) < 0 ||
	    compile(exc, nexc, &f->exc, &f->nexc, err, errsz) < 0) {
		filter_free(f);
		return -1;
	}
	*out = f;
	return 0;
}

/* True when the name passes. */
bool
filter_match(const kg_filter *f, const char *name)
{
	size_t i;
	bool in;
	if (f == NULL)
		return true;
	in = f->ninc == 0;
	for (i = 0; i < f->ninc && !in; i++)
		in = regexec(&f->inc[i], name, 0, NULL, 0) == 0;
	for (i = 0; i < f->nexc && in; i++)
		in = regexec(&f->exc[i], name, 0, NULL, 0) != 0;
	return in;
}

/* True when everything passes. */
bool
filter_empty(const kg_filter *f)
{
	return f == NULL || (f->ninc == 0 && f->nexc == 0);
}

/* Free. */
void
filter_free(kg_filter *f)
{
	size_t i;
	if (f == NULL)
		return;
	for (i = 0; i < f->ninc; i++)
		regfree(&f->inc[i]);
	for (i = 0; i < f->nexc; i++)
		regfree(&f->exc[i]);
	free(f->inc);
	free(f->exc);
	free(f);
}
