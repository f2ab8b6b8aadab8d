/*
 * util.h: allocation that cannot fail silently, time, growable buffers.
 *
 * Allocation failure is not recoverable in kgtop: util_oom() runs the hook
 * the UI registered (to restore the terminal) and aborts.  Nothing here
 * calls exit().
 */
#ifndef KGTOP_UTIL_H
#define KGTOP_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define KG_ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))
#define KG_MIN(a, b) ((a) < (b) ? (a) : (b))
#define KG_MAX(a, b) ((a) > (b) ? (a) : (b))

#if defined(__GNUC__)
#define KG_PRINTF(f, a) __attribute__((format(printf, f, a)))
#define KG_UNUSED __attribute__((unused))
#else
#define KG_PRINTF(f, a)
#define KG_UNUSED
#endif

/* Register a function run before abort() on out-of-memory (restores the terminal). */
void util_set_oom_hook(void (*hook)(void));
/* Report out-of-memory and abort. */
void util_oom(void) __attribute__((noreturn));

/* malloc that aborts through util_oom() on failure. */
void *xmalloc(size_t n);
/* calloc that aborts through util_oom() on failure. */
void *xcalloc(size_t n, size_t size);
/* realloc that aborts through util_oom() on failure. */
void *xrealloc(void *p, size_t n);
/* realloc of an array of n elements of size bytes, checking overflow. */
void *xreallocarray(void *p, size_t n, size_t size);
/* strdup that aborts on failure; NULL gives NULL. */
char *xstrdup(const char *s);
/* strndup that aborts on failure. */
char *xstrndup(const char *s, size_t n);
/* asprintf that aborts on failure. */
char *xasprintf(const char *fmt, ...) KG_PRINTF(1, 2);

/* Grow *arr (element size esz) so that it holds at least need elements, from first at first (at least 1), doubling. */
void util_grow_from(void *arrp, size_t *cap, size_t need, size_t esz, size_t first);
/*
 * Likewise, 8 at first.  Inline: most calls find room (an append per
 * field, per byte run of a --json line: millions a line) and cost a
 * comparison, not a call.
 */
static inline void
util_grow(void *arrp, size_t *cap, size_t need, size_t esz)
{
	if (need > *cap)
		util_grow_from(arrp, cap, need, esz, 8);
}
/* FNV-1a over n bytes (hash tables: hmap, the name pools, the JSON delta's alike patches). */
uint32_t util_hash(const void *p, size_t n);

/* Wall-clock time in microseconds since the epoch. */
int64_t util_now_us(void);
/* Monotonic time in microseconds. */
int64_t util_mono_us(void);

/*
 * What a function that fails returns, with err saying why: KG_ERR for
 * what went wrong at run time (main exits 1), KG_ERR_USAGE for what the
 * user typed (main exits 2), KG_ERR_STOPPED when a stop signal or the
 * user ended a wait (nothing went wrong: main ends as asked).  Success is
 * 0.
 */
enum { KG_ERR = -1, KG_ERR_USAGE = -2, KG_ERR_STOPPED = -3 };
/* snprintf into err/errsz (if err is non-NULL); always returns KG_ERR (-1). */
int util_err(char *err, size_t errsz, const char *fmt, ...) KG_PRINTF(3, 4);
/* Likewise for a usage error: returns KG_ERR_USAGE (-2). */
int util_usage_err(char *err, size_t errsz, const char *fmt, ...) KG_PRINTF(3, 4);

/* Copy src into dst of size n, always NUL-terminated; returns strlen(src). */
size_t util_strlcpy(char *dst, const char *src, size_t n);
/*
 * Compare names as people sort them: runs of digits by their value
 * ("consumer-2" before "consumer-10"), the rest byte by byte; names equal
 * that way fall back to strcmp(), so the order is total.
 */
int util_natcmp(const char *a, const char *b);

/* A growable string buffer. */
typedef struct sbuf {
	char *s;
	size_t len;
	size_t cap;
} sbuf;

/* Append len bytes to b. */
void sbuf_addn(sbuf *b, const char *s, size_t len);
/* Append a NUL-terminated string. */
void sbuf_adds(sbuf *b, const char *s);
/* Append one character. */
void sbuf_addc(sbuf *b, char c);
/* Append n copies of c (padding). */
void sbuf_pad(sbuf *b, char c, size_t n);
/* Append formatted text (a va_list). */
void sbuf_vaddf(sbuf *b, const char *fmt, va_list ap) KG_PRINTF(2, 0);
/* Append formatted text. */
void sbuf_addf(sbuf *b, const char *fmt, ...) KG_PRINTF(2, 3);
/* Append a decimal integer (no printf: the JSON and /metrics writers' hot path). */
void sbuf_addi(sbuf *b, long long v);
/* Append s as a JSON string literal (quoted; unsafe characters as \uXXXX, invalid UTF-8 as \ufffd). */
void sbuf_add_json_str(sbuf *b, const char *s);
/* Empty the buffer, keeping its memory. */
void sbuf_reset(sbuf *b);
/* Release the buffer's memory. */
void sbuf_free(sbuf *b);
/* Return the NUL-terminated contents ("" when empty). */
const char *sbuf_str(const sbuf *b);

/*
 * Open a regular file for reading; NULL with errno set (EISDIR for a
 * directory, which fopen would open and then read as empty).
 */
FILE *util_fopen_regular(const char *path);
/* Index of s in a table of n names (NULL entries skipped); -1 when absent. */
int util_name_index(const char *const *names, int n, const char *s);
/* Days from 1970-01-01 to the civil date y-m-d (proleptic Gregorian, any year). */
int64_t util_days_from_civil(int64_t y, int m, int d);
/* Exactly n decimal digits at s into *v; false when one is not a digit. */
bool util_digits(const char *s, int n, int *v);
/* Seconds since the epoch of a local civil time (mktime); -1 when it does not exist. */
int64_t util_local_time(int y, int mo, int d, int h, int mi, int s);
/* Parse a duration like "500ms", "4s", "1h", "90" (seconds) into microseconds; -1 on error. */
int64_t util_parse_duration_us(const char *s);
/* Parse a size like "10M", "1G", "4096" into bytes; -1 on error. */
int64_t util_parse_size(const char *s);
/* Format a count compactly: 999, 1.2k, 34k, 1.2M, 5.6G. */
void util_fmt_count(char *buf, size_t n, int64_t v);
/* Format a count in at most width characters: "1.95M", "19.5k" as they fit, else "20k" (width 0: util_fmt_count). */
void util_fmt_count_fit(char *buf, size_t n, int64_t v, int width);
/* Format a duration compactly: 850ms, 2.4s, 1m05s, 3h12m. */
void util_fmt_duration(char *buf, size_t n, int64_t us);
/*
 * Decode the UTF-8 sequence at s (n > 0 bytes left): returns the bytes it
 * takes and sets *cp to its code point, or to -1 when it is invalid
 * (overlong, a surrogate, past U+10FFFF, cut short or a stray byte); the
 * bytes returned then make one bad character.  The one decoder of kgtop.
 */
size_t util_utf8_decode(const char *s, size_t n, long *cp);
/* Length of the valid UTF-8 prefix of s (up to n bytes). */
size_t util_utf8_valid_prefix(const char *s, size_t n);
/*
 * The one output rule: true for the characters that never reach an output
 * as they are (C0 and C1 controls, DEL, bidirectional formatting).  Text
 * (the screen, --once, the log) shows each as '?'; JSON (--json,
 * recordings) writes it as \uXXXX.
 */
bool util_char_unsafe(long cp);
/*
 * Replace invalid UTF-8 and unsafe characters in the n bytes at s with one
 * '?' each, in place (a NUL is unsafe too); '\n' stays when keep_newlines.
 * Returns the new length: the text may shrink, and what follows it up to
 * n is left as it was, so a writer writes the length returned.
 */
size_t util_sanitize_span(char *s, size_t n, bool keep_newlines);
/* Replace invalid UTF-8 and unsafe characters in s (in place, it may shrink) with '?'. */
void util_sanitize_text(char *s);
/* Text output's guard: sanitize b from byte from to its end (util_sanitize_span), b->len follows. */
void sbuf_sanitize(sbuf *b, size_t from, bool keep_newlines);

#endif
