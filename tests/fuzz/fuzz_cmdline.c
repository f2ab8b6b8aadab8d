/*
 * fuzz_cmdline.c: libFuzzer target for the command line.
 *
 * The input is split at NUL bytes and newlines into at most 64 arguments
 * after "kgtop"; options_parse() reads them as main() would (stdout, where
 * --help goes, is /dev/null; no config file of the user's is read), and
 * the options are freed.  A crash or a sanitizer report is a finding, and
 * so is a result other than 0, 1 (--help, --version) or -1.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/options.h"
#include "util/util.h"

#define MAX_ARGS 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* No config file of the user's, no environment. */
static void
init(void)
{
	static char dir[64];
	snprintf(dir, sizeof dir, "/tmp/kgtop-fuzz-cli-XXXXXX");
	if (mkdtemp(dir) == NULL)
		abort();
	setenv("XDG_CONFIG_HOME", dir, 1);
	unsetenv("KGTOP_CONFIG");
	unsetenv("KGTOP_BROKERS");
	if (freopen("/dev/null", "w", stdout) == NULL)
		abort();
}

/* One input. */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static bool ready;
	char *copy = xmalloc(size + 1), *argv[MAX_ARGS + 2];
	char err[1024];
	kg_options o;
	int argc = 1, rc;
	size_t at = 0;
	if (!ready) {
		init();
		ready = true;
	}
	memcpy(copy, data, size);
	copy[size] = '\0';
	argv[0] = (char *)"kgtop";
	while (at <= size && argc <= MAX_ARGS) {
		size_t n = strcspn(copy + at, "\n");
		copy[at + n] = '\0';
		argv[argc++] = copy + at;
		at += n + 1;
	}
	argv[argc] = NULL;
	options_defaults(&o);
	rc = options_parse(&o, argc, argv, err, sizeof err);
	if (rc != 0 && rc != 1 && rc != -1)
		abort();
	options_free(&o);
	free(copy);
	return 0;
}
