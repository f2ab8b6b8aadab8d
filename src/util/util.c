/*
 * util.c: allocation, time, buffers and small parsers shared by every layer.
 */
#include "config.h"

#include "util/util.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>


static void (*oom_hook)(void);

/* Register a function run before abort() on out-of-memory. */
void
util_set_oom_hook(void (*hook)(void))
{
	oom_hook = hook;
}

/* Report out-of-memory and abort. */
void
util_oom(void)
{
	static const char msg[] = "kgtop: out of memory\n";
	if (oom_hook != NULL)
		oom_hook();
	if (write(STDERR_FILENO, msg, sizeof msg - 1) < 0) {
		/* nothing more we can do */
	}
	abort();
}

/* malloc that aborts on failure. */
void *
xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (p == NULL)
		util_oom();
	return p;
}

/* calloc that aborts on failure. */
void *
xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (p == NULL)
		util_oom();
	return p;
}

/* realloc that aborts on failure. */
void *
xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);
	if (q == NULL)
		util_oom();
	return q;
}

/* realloc of an array, checking for overflow. */
void *
xreallocarray(void *p, size_t n, size_t size)
{
	if (size != 0 && n > SIZE_MAX / size)
		util_oom();
	return xrealloc(p, n * size);
}

/* strdup that aborts on failure. */
char *
xstrdup(const char *s)
{
	if (s == NULL)
		return NULL;
	return xstrndup(s, strlen(s));
}

/* strndup that aborts on failure. */
char *
xstrndup(const char *s, size_t n)
{
	size_t len = strnlen(s, n);
	char *p = xmalloc(len + 1);
	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

/* asprintf that aborts on failure. */
char *
xasprintf(const char *fmt, ...)
{
	sbuf b = { 0 };
	va_list ap;
	va_start(ap, fmt);
	sbuf_vaddf(&b, fmt, ap);
	va_end(ap);
	if (b.s == NULL)
		return xstrdup("");
	return b.s;
}

/* Grow an array so that it holds at least need elements, from first at first, doubling. */
void
util_grow_from(void *arrp, size_t *cap, size_t need, size_t esz, size_t first)
{
	void **arr = arrp;
	size_t ncap;
	if (need <= *cap)
		return;
	ncap = *cap ? *cap : first ? first : 1;
	while (ncap < need)
		ncap *= 2;
	*arr = xreallocarray(*arr, ncap, esz);
	*cap = ncap;
}

/* Wall-clock time in microseconds. */
int64_t
util_now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* Monotonic time in microseconds. */
int64_t
util_mono_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* Format an error into err (when there is one); returns rc. */
static int KG_PRINTF(4, 0)
err_say(int rc, char *err, size_t errsz, const char *fmt, va_list ap)
{
	if (err != NULL && errsz > 0)
		vsnprintf(err, errsz, fmt, ap);
	return rc;
}

/* Format an error into err; returns KG_ERR (-1). */
int
util_err(char *err, size_t errsz, const char *fmt, ...)
{
	va_list ap;
	int rc;
	va_start(ap, fmt);
	rc = err_say(KG_ERR, err, errsz, fmt, ap);
	va_end(ap);
	return rc;
}

/* Format a usage error into err; returns KG_ERR_USAGE (-2). */
int
util_usage_err(char *err, size_t errsz, const char *fmt, ...)
{
	va_list ap;
	int rc;
	va_start(ap, fmt);
	rc = err_say(KG_ERR_USAGE, err, errsz, fmt, ap);
	va_end(ap);
	return rc;
}

/* Bounded string copy, always terminated. */
size_t
util_strlcpy(char *dst, const char *src, size_t n)
{
	size_t len = strlen(src);
	if (n > 0) {
		size_t c = len < n - 1 ? len : n - 1;
		memcpy(dst, src, c);
		dst[c] = '\0';
	}
	return len;
}

/* Append len bytes. */
void
sbuf_addn(sbuf *b, const char *s, size_t len)
{
	util_grow(&b->s, &b->cap, b->len + len + 1, 1);
	memcpy(b->s + b->len, s, len);
	b->len += len;
	b->s[b->len] = '\0';
}

/* Append a string. */
void
sbuf_adds(sbuf *b, const char *s)
{
	sbuf_addn(b, s, strlen(s));
}

/* Append one character. */
void
sbuf_addc(sbuf *b, char c)
{
	sbuf_addn(b, &c, 1);
}

/* Append n copies of a character. */
void
sbuf_pad(sbuf *b, char c, size_t n)
{
	util_grow(&b->s, &b->cap, b->len + n + 1, 1);
	memset(b->s + b->len, c, n);
	b->len += n;
	b->s[b->len] = '\0';
}

/* Append formatted text from a va_list. */
void
sbuf_vaddf(sbuf *b, const char *fmt, va_list ap)
{
	va_list aq;
	int n;
	size_t room;
	/* formatted once into the room there is; a second time only when it did not fit */
	if (b->cap < b->len + 64)
		util_grow(&b->s, &b->cap, b->len + 64, 1);
	room = b->cap - b->len;
	va_copy(aq, ap);
	n = vsnprintf(b->s + b->len, room, fmt, aq);
	va_end(aq);
	if (n < 0) {
		b->s[b->len] = '\0';
		return;
	}
	if ((size_t)n >= room) {
		util_grow(&b->s, &b->cap, b->len + (size_t)n + 1, 1);
		vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
	}
	b->len += (size_t)n;
}

/* Append formatted text. */
void
sbuf_addf(sbuf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	sbuf_vaddf(b, fmt, ap);
	va_end(ap);
}

/* Append a decimal integer, without printf. */
void
sbuf_addi(sbuf *b, long long v)
{
	char buf[24], *p = buf + sizeof buf;
	unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
	do {
		*--p = (char)('0' + u % 10);
		u /= 10;
	} while (u > 0);
	if (v < 0)
		*--p = '-';
	sbuf_addn(b, p, (size_t)(buf + sizeof buf - p));
}

/* True for a byte a JSON string takes as it is (printable ASCII but the quote and the backslash). */
static bool
json_plain(unsigned char c)
{
	return c >= 0x20 && c < 0x7f && c != '"' && c != '\\';
}

/* Append a JSON string literal: unsafe characters (util_char_unsafe) as \uXXXX, invalid UTF-8 as \ufffd. */
void
sbuf_add_json_str(sbuf *b, const char *s)
{
	const char *p = s ? s : "";
	size_t n = strlen(p);
	sbuf_addc(b, '"');
	while (n > 0) {
		long cp;
		size_t used = 0;
		/* a run of plain ASCII in one piece (names are) */
		while (used < n && json_plain((unsigned char)p[used]))
			used++;
		if (used > 0) {
			sbuf_addn(b, p, used);
			p += used;
			n -= used;
			continue;
		}
		used = util_utf8_decode(p, n, &cp);
		if (cp < 0)
			sbuf_adds(b, "\\ufffd");
		else if (cp == '"' || cp == '\\')
			sbuf_addf(b, "\\%c", (char)cp);
		else if (cp == '\n')
			sbuf_adds(b, "\\n");
		else if (cp == '\t')
			sbuf_adds(b, "\\t");
		else if (cp == '\r')
			sbuf_adds(b, "\\r");
		else if (util_char_unsafe(cp))
			sbuf_addf(b, "\\u%04lx", cp);
		else
			sbuf_addn(b, p, used);
		p += used;
		n -= used;
	}
	sbuf_addc(b, '"');
}

/* Empty the buffer. */
void
sbuf_reset(sbuf *b)
{
	b->len = 0;
	if (b->s)
		b->s[0] = '\0';
}

/* Free the buffer. */
void
sbuf_free(sbuf *b)
{
	free(b->s);
	b->s = NULL;
	b->len = b->cap = 0;
}

/* Contents as a C string. */
const char *
sbuf_str(const sbuf *b)
{
	return b->s ? b->s : "";
}

/* Open a regular file for reading. */
FILE *
util_fopen_regular(const char *path)
{
	FILE *f = fopen(path, "r");
	struct stat st;
	if (f != NULL && fstat(fileno(f), &st) == 0 && !S_ISREG(st.st_mode)) {
		fclose(f);
		errno = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
		return NULL;
	}
	return f;
}

/* Index of a name in a table. */
int
util_name_index(const char *const *names, int n, const char *s)
{
	int i;
	for (i = 0; s != NULL && i < n; i++) {
		if (names[i] != NULL && strcmp(names[i], s) == 0)
			return i;
	}
	return -1;
}

/* n digits at s. */
bool
util_digits(const char *s, int n, int *v)
{
	int i, x = 0;
	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		x = x * 10 + (s[i] - '0');
	}
	*v = x;
	return true;
}

/* Days from 1970-01-01 (the days-from-civil algorithm: eras of 400 years). */
int64_t
util_days_from_civil(int64_t y, int m, int d)
{
	int64_t era, yoe, doy, doe;
	y -= m <= 2;
	era = (y >= 0 ? y : y - 399) / 400;
	yoe = y - era * 400;
	doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

/* Seconds since the epoch of a local civil time. */
int64_t
util_local_time(int y, int mo, int d, int h, int mi, int s)
{
	struct tm tm;
	time_t t;
	memset(&tm, 0, sizeof tm);
	tm.tm_year = y - 1900;
	tm.tm_mon = mo - 1;
	tm.tm_mday = d;
	tm.tm_hour = h;
	tm.tm_min = mi;
	tm.tm_sec = s;
	tm.tm_isdst = -1;
	t = mktime(&tm);
	return t == (time_t)-1 ? -1 : (int64_t)t;
}

/* Parse a duration into microseconds. */
int64_t
util_parse_duration_us(const char *s)
{
	char *end;
	double v;
	double mult = 1e6;
	if (s == NULL || *s == '\0')
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (errno != 0 || end == s || v < 0)
		return -1;
	while (isspace((unsigned char)*end))
		end++;
	if (*end == '\0' || strcmp(end, "s") == 0)
		mult = 1e6;
	else if (strcmp(end, "ms") == 0)
		mult = 1e3;
	else if (strcmp(end, "us") == 0)
		mult = 1;
	else if (strcmp(end, "m") == 0 || strcmp(end, "min") == 0)
		mult = 60e6;
	else if (strcmp(end, "h") == 0)
		mult = 3600e6;
	else if (strcmp(end, "d") == 0)
		mult = 86400e6;
	else
		return -1;
	if (!(v * mult <= 9e18)) /* past int64_t (or NaN) */
		return -1;
	return (int64_t)(v * mult + 0.5);
}

/* Parse a size into bytes. */
int64_t
util_parse_size(const char *s)
{
	char *end;
	double v;
	double mult = 1;
	if (s == NULL || *s == '\0')
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (errno != 0 || end == s || v < 0)
		return -1;
	switch (toupper((unsigned char)*end)) {
	case '\0': mult = 1; break;
	case 'K': mult = 1024.0; end++; break;
	case 'M': mult = 1024.0 * 1024; end++; break;
	case 'G': mult = 1024.0 * 1024 * 1024; end++; break;
	default: return -1;
	}
	if (*end == 'B' || *end == 'b' || (*end == 'i' && (end[1] == 'B' || end[1] == 'b')))
		end += (*end == 'i') ? 2 : 1;
	if (*end != '\0' || !(v * mult < 9e18)) /* past int64_t (or NaN): converting would be undefined */
		return -1;
	return (int64_t)(v * mult);
}

/* Format a count compactly. */
void
util_fmt_count(char *buf, size_t n, int64_t v)
{
	const char *sfx = "kMGTP";
	double d;
	int i = -1;
	if (v < 0) {
		snprintf(buf, n, "-");
		return;
	}
	if (v < 1000) {
		snprintf(buf, n, "%lld", (long long)v);
		return;
	}
	d = (double)v;
	while (d >= 999.5 && i < 4) {
		d /= 1000.0;
		i++;
	}
	if (d < 9.95)
		snprintf(buf, n, "%.1f%c", d, sfx[i]);
	else
		snprintf(buf, n, "%.0f%c", d, sfx[i]);
}

/*
 * Format a count compactly in at most width characters: as many decimals
 * as fit, two at most ("1.95M", "19.5k"), else none ("20k", rounded to
 * the nearest, as util_fmt_count does past 9.95 of a unit).
 */
void
util_fmt_count_fit(char *buf, size_t n, int64_t v, int width)
{
	const char *sfx = "kMGTP";
	double d = (double)v;
	int i = -1, dec;
	if (v < 1000 || width <= 0) {
		util_fmt_count(buf, n, v);
		return;
	}
	while (d >= 999.5 && i < 4) {
		d /= 1000.0;
		i++;
	}
	for (dec = 2; dec > 0; dec--) {
		snprintf(buf, n, "%.*f%c", dec, d, sfx[i]);
		if ((int)strlen(buf) <= width)
			return;
	}
	snprintf(buf, n, "%.0f%c", d, sfx[i]);
}

/* Format a duration compactly. */
void
util_fmt_duration(char *buf, size_t n, int64_t us)
{
	if (us < 0) {
		snprintf(buf, n, "-");
	} else if (us < 1000000) {
		snprintf(buf, n, "%lldms", (long long)(us / 1000));
	} else if (us < 60000000) {
		snprintf(buf, n, "%.1fs", (double)us / 1e6);
	} else if (us < 3600LL * 1000000) {
		long long s = us / 1000000;
		snprintf(buf, n, "%lldm%02llds", s / 60, s % 60);
	} else {
		long long m = us / 60000000;
		snprintf(buf, n, "%lldh%02lldm", m / 60, m % 60);
	}
}

/* Compare names naturally (see util.h). */
int
util_natcmp(const char *a, const char *b)
{
	const unsigned char *p = (const unsigned char *)a, *q = (const unsigned char *)b;
	while (*p && *q) {
		if (*p >= '0' && *p <= '9' && *q >= '0' && *q <= '9') {
			const unsigned char *pe, *qe;
			size_t lp, lq;
			while (*p == '0' && p[1] >= '0' && p[1] <= '9')
				p++;
			while (*q == '0' && q[1] >= '0' && q[1] <= '9')
				q++;
			for (pe = p; *pe >= '0' && *pe <= '9'; pe++)
				;
			for (qe = q; *qe >= '0' && *qe <= '9'; qe++)
				;
			lp = (size_t)(pe - p);
			lq = (size_t)(qe - q);
			if (lp != lq)
				return lp < lq ? -1 : 1;
			for (; p < pe; p++, q++) {
				if (*p != *q)
					return *p < *q ? -1 : 1;
			}
			continue;
		}
		if (*p != *q)
			return *p < *q ? -1 : 1;
		p++;
		q++;
	}
	if (*p != *q)
		return *p ? 1 : -1;
	return strcmp(a, b);
}

/* Decode one UTF-8 sequence (see util.h). */
size_t
util_utf8_decode(const char *str, size_t n, long *cp)
{
	const unsigned char *p = (const unsigned char *)str;
	unsigned c = p[0];
	size_t len, k;
	long v;
	if (c < 0x80) {
		*cp = (long)c;
		return 1;
	}
	if ((c & 0xE0) == 0xC0) {
		len = 2;
		v = c & 0x1F;
	} else if ((c & 0xF0) == 0xE0) {
		len = 3;
		v = c & 0x0F;
	} else if ((c & 0xF8) == 0xF0) {
		len = 4;
		v = c & 0x07;
	} else {
		*cp = -1;
		return 1;
	}
	if (len > n) {
		*cp = -1;
		return 1;
	}
	for (k = 1; k < len; k++) {
		if ((p[k] & 0xC0) != 0x80) {
			*cp = -1;
			return k;
		}
		v = (v << 6) | (p[k] & 0x3F);
	}
	if ((len == 2 && v < 0x80) || (len == 3 && v < 0x800) || (len == 4 && v < 0x10000) || v > 0x10FFFF ||
	    (v >= 0xD800 && v <= 0xDFFF)) {
		*cp = -1;
		return len;
	}
	*cp = v;
	return len;
}

/* Length of the valid UTF-8 prefix. */
size_t
util_utf8_valid_prefix(const char *str, size_t n)
{
	size_t i = 0;
	while (i < n) {
		long cp;
		size_t used = util_utf8_decode(str + i, n - i, &cp);
		if (cp < 0)
			break;
		i += used;
	}
	return i;
}

/*
 * The one rule of every output (the screen, --once, --json, recordings,
 * the log): C0 and C1 controls and DEL (a C1 CSI starts an escape sequence
 * on some terminals), and the bidirectional formatting characters (marks,
 * embeddings, overrides, isolates: U+202E shows text backwards).
 */
bool
util_char_unsafe(long cp)
{
	return cp < 0x20 || (cp >= 0x7f && cp < 0xa0) || cp == 0x061c || cp == 0x200e || cp == 0x200f ||
	       (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069);
}

/*
 * Replace invalid UTF-8 and unsafe characters (util_char_unsafe) in the n
 * bytes at s with one '?' each, in place, moving what follows back over
 * the bytes saved; '\n' stays when keep_newlines.  The new length.
 */
size_t
util_sanitize_span(char *s, size_t n, bool keep_newlines)
{
	size_t r = 0, w = 0;
	while (r < n) {
		long cp;
		size_t used;
		if ((unsigned char)s[r] >= 0x20 && (unsigned char)s[r] < 0x7f) {
			s[w++] = s[r++]; /* printable ASCII, most of every output: no decoding */
			continue;
		}
		used = util_utf8_decode(s + r, n - r, &cp);
		if (cp == '\n' && keep_newlines) {
			s[w++] = '\n';
		} else if (cp < 0 || util_char_unsafe(cp)) {
			s[w++] = '?';
		} else {
			memmove(s + w, s + r, used);
			w += used;
		}
		r += used;
	}
	return w;
}

/* Replace invalid UTF-8 and unsafe characters (util_char_unsafe) with one '?' each, in place. */
void
util_sanitize_text(char *s)
{
	s[util_sanitize_span(s, strlen(s), false)] = '\0';
}

/* The text of b from byte from on made safe (util_sanitize_span); its length follows. */
void
sbuf_sanitize(sbuf *b, size_t from, bool keep_newlines)
{
	if (b->s == NULL || from >= b->len)
		return;
	b->len = from + util_sanitize_span(b->s + from, b->len - from, keep_newlines);
	b->s[b->len] = '\0';
}

/* FNV-1a over n bytes. */
uint32_t
util_hash(const void *p, size_t n)
{
	const unsigned char *c = p;
	uint32_t h = 2166136261u;
	while (n-- > 0) {
		h ^= *c++;
		h *= 16777619u;
	}
	return h;
}
