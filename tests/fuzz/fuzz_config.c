/*
 * fuzz_config.c: libFuzzer target for the config file (-c FILE) and, built
 * with -DFUZZ_PROPERTIES, the librdkafka properties file (-F FILE).
 *
 * The input becomes the file, each of its lines ending in a marker that no
 * message may ever show (a line may be a secret, and a value always is);
 * the file is read by options_parse() as kgtop would read it, from a
 * private directory, and the options freed.  A message that shows the
 * marker, or a crash, or a sanitizer report, is a finding.  A config line
 * "properties = FILE" names a file, which its messages must name: those
 * lines get no marker.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/options.h"
#include "util/util.h"

#define MARK "QZJXSECRET"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[64];
static char path[128];

/* A private directory for the file, and no default config of the user's. */
static void
init(void)
{
	snprintf(dir, sizeof dir, "/tmp/kgtop-fuzz-cfg-XXXXXX");
	if (mkdtemp(dir) == NULL)
		abort();
	snprintf(path, sizeof path, "%s/input", dir);
	setenv("XDG_CONFIG_HOME", dir, 1);
	unsetenv("KGTOP_CONFIG");
	unsetenv("KGTOP_BROKERS");
	if (freopen("/dev/null", "w", stdout) == NULL)
		abort();
}

/* Whether a line names a file ("properties = FILE"): its messages say the name. */
static bool
names_file(const char *line, size_t n)
{
	size_t i = 0;
	while (i < n && (line[i] == ' ' || line[i] == '\t'))
		i++;
	return n - i >= 10 && strncmp(line + i, "properties", 10) == 0;
}

/* The input as a file: every line marked. */
static void
write_input(const uint8_t *data, size_t size)
{
	FILE *f = fopen(path, "w");
	size_t at = 0;
	if (f == NULL)
		abort();
	while (at < size) {
		const uint8_t *nl = memchr(data + at, '\n', size - at);
		size_t n = nl ? (size_t)(nl - (data + at)) : size - at;
		fwrite(data + at, 1, n, f);
		if (!names_file((const char *)data + at, n))
			fputs(MARK, f);
		fputc('\n', f);
		at += n + 1;
	}
	if (fclose(f) != 0)
		abort();
}

/* One input. */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	kg_options o;
	char err[1024] = "";
#ifdef FUZZ_PROPERTIES
	char *argv[] = { (char *)"kgtop", (char *)"-c", (char *)"none", (char *)"-F", path, NULL };
#else
	char *argv[] = { (char *)"kgtop", (char *)"-c", path, NULL };
#endif
	if (dir[0] == '\0')
		init();
	write_input(data, size);
	options_defaults(&o);
	options_parse(&o, (int)(sizeof argv / sizeof argv[0]) - 1, argv, err, sizeof err);
	/* (unless the input has the marker itself, say on a line naming a file) */
	if (strstr(err, MARK) != NULL && memmem(data, size, MARK, strlen(MARK)) == NULL) {
		fprintf(stderr, "a message shows a value: %s\n", err);
		abort();
	}
	options_free(&o);
	return 0;
}
