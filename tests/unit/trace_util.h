/*
 * trace_util.h: helpers shared by the trace and parser tests.
 *
 * Paths to data are relative to $top_srcdir (set by the test harness, "."
 * otherwise).  A golden comparison that fails writes NAME.actual beside
 * the golden (when the directory is writable) and says so; a missing
 * golden fails the same way, so a new golden is made by reviewing the
 * .actual and renaming it.
 */
#ifndef KGTOP_TEST_TRACE_UTIL_H
#define KGTOP_TEST_TRACE_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/obs.h"
#include "util/util.h"

/* The source tree ($top_srcdir or "."). */
const char *tu_srcdir(void);
/* Read a whole file (NUL-terminated); NULL when unreadable. */
char *tu_read_file(const char *path, size_t *len);
/* Write a whole file; 0 or -1. */
int tu_write_file(const char *path, const char *data, size_t len);
/* Append to a file; 0 or -1. */
int tu_append_file(const char *path, const char *data, size_t len);
/* Compare text with the golden file at srcdir/rel; 0 on a match, else -1 (and rel.actual written). */
int tu_golden(const char *rel, const char *actual);
/* Poll cond(arg) until it holds or timeout_us passes, calling step(arg) between tries; true when it held. */
bool tu_wait(bool (*cond)(void *), void (*step)(void *), void *arg, int64_t timeout_us);
/* Append observations as jsonl lines to out. */
void tu_format_obs(sbuf *out, const kg_obsq *q);
/* A fresh temporary directory (mkdtemp under $TMPDIR or /tmp); the caller frees the string. */
char *tu_tmpdir(const char *tag);
/* Remove a directory and the files directly inside it. */
void tu_rmdir(const char *dir);
/* Format a local time "YYYY-MM-DD HH:MM:SS,mmm" of t_us (log4j style). */
void tu_log_time(char *buf, size_t n, int64_t t_us);

#endif
