/*
 * trace_util.c: helpers for the trace and parser tests (see trace_util.h).
 */
#include "config.h"

#include "trace_util.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "record/jsonl.h"

/* The source tree. */
const char *
tu_srcdir(void)
{
	const char *s = getenv("top_srcdir");
	return s != NULL && *s != '\0' ? s : ".";
}

/* Read a whole file. */
char *
tu_read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	sbuf b = { 0 };
	char buf[65536];
	size_t n;
	if (f == NULL)
		return NULL;
	while ((n = fread(buf, 1, sizeof buf, f)) > 0)
		sbuf_addn(&b, buf, n);
	fclose(f);
	sbuf_addc(&b, '\0');
	if (len != NULL)
		*len = b.len - 1;
	return b.s;
}

/* Write a file. */
int
tu_write_file(const char *path, const char *data, size_t len)
{
	FILE *f = fopen(path, "wb");
	int rc = 0;
	if (f == NULL)
		return -1;
	if (len > 0 && fwrite(data, 1, len, f) != len)
		rc = -1;
	if (fclose(f) != 0)
		rc = -1;
	return rc;
}

/* Append to a file. */
int
tu_append_file(const char *path, const char *data, size_t len)
{
	FILE *f = fopen(path, "ab");
	int rc = 0;
	if (f == NULL)
		return -1;
	if (len > 0 && fwrite(data, 1, len, f) != len)
		rc = -1;
	if (fclose(f) != 0)
		rc = -1;
	return rc;
}

/* Compare with a golden file. */
int
tu_golden(const char *rel, const char *actual)
{
	char path[4096], apath[4200];
	char *want;
	snprintf(path, sizeof path, "%s/%s", tu_srcdir(), rel);
	snprintf(apath, sizeof apath, "%s.actual", path);
	want = tu_read_file(path, NULL);
	if (want != NULL && strcmp(want, actual) == 0) {
		free(want);
		unlink(apath);
		return 0;
	}
	if (tu_write_file(apath, actual, strlen(actual)) == 0)
		fprintf(stderr, "# golden mismatch: %s (%s); see %s\n", rel, want ? "differs" : "missing", apath);
	else
		fprintf(stderr, "# golden mismatch: %s (%s); cannot write %s: %s\n", rel,
			want ? "differs" : "missing", apath, strerror(errno));
	free(want);
	return -1;
}

/* Poll a condition with a deadline. */
bool
tu_wait(bool (*cond)(void *), void (*step)(void *), void *arg, int64_t timeout_us)
{
	int64_t end = util_mono_us() + timeout_us;
	for (;;) {
		if (cond(arg))
			return true;
		if (util_mono_us() >= end)
			return false;
		if (step != NULL) {
			step(arg);
		} else {
			struct timespec ts = { 0, 5 * 1000 * 1000 };
			nanosleep(&ts, NULL);
		}
	}
}

/* Observations as jsonl. */
void
tu_format_obs(sbuf *out, const kg_obsq *q)
{
	size_t i;
	for (i = 0; i < q->n; i++) {
		jsonl_write_format(out, q->v[i]);
		sbuf_addc(out, '\n');
	}
}

/* A fresh temporary directory. */
char *
tu_tmpdir(const char *tag)
{
	const char *base = getenv("TMPDIR");
	char *p = xasprintf("%s/kgtop-%s-XXXXXX", base != NULL && *base ? base : "/tmp", tag);
	if (mkdtemp(p) == NULL) {
		free(p);
		return NULL;
	}
	return p;
}

/* Remove a directory and its files. */
void
tu_rmdir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	if (d == NULL)
		return;
	while ((e = readdir(d)) != NULL) {
		char *p;
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		p = xasprintf("%s/%s", dir, e->d_name);
		unlink(p);
		free(p);
	}
	closedir(d);
	rmdir(dir);
}

/* A log4j local time. */
void
tu_log_time(char *buf, size_t n, int64_t t_us)
{
	time_t t = (time_t)(t_us / 1000000);
	struct tm tm;
	char s[32];
	localtime_r(&t, &tm);
	strftime(s, sizeof s, "%Y-%m-%d %H:%M:%S", &tm);
	snprintf(buf, n, "%s,%03d", s, (int)(t_us % 1000000 / 1000));
}
