/*
 * log.c: the debug log (see log.h).
 */
#include "config.h"

#include "util/log.h"

#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "util/secfile.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static FILE *log_file;
static int level_max = KG_LOG_WARN;
static bool to_stderr;

static const char *const names[KG_LOG_LEVEL_COUNT] = { "error", "warn", "info", "debug" };

/* Open the log file. */
int
log_open(const char *path, int verbose, char *err, size_t errsz)
{
	pthread_mutex_lock(&lock);
	level_max = verbose <= 0 ? KG_LOG_WARN : verbose == 1 ? KG_LOG_INFO : KG_LOG_DEBUG;
	if (path != NULL) {
		FILE *f = secfile_create(path, "a", "--log", err, errsz); /* 0600: it may name hosts and groups */
		if (f == NULL) {
			pthread_mutex_unlock(&lock);
			return -1;
		}
		setvbuf(f, NULL, _IOLBF, 0);
		log_file = f;
	}
	pthread_mutex_unlock(&lock);
	return 0;
}

/* Allow stderr. */
void
log_set_stderr(bool on)
{
	pthread_mutex_lock(&lock);
	to_stderr = on;
	pthread_mutex_unlock(&lock);
}

/* Log a message. */
void
log_msg(kg_log_level level, const char *fmt, ...)
{
	va_list ap;
	char msg[1024];
	if ((int)level > level_max)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	util_sanitize_text(msg);
	pthread_mutex_lock(&lock);
	if (log_file != NULL) {
		char ts[32];
		struct timespec now;
		struct tm tm;
		clock_gettime(CLOCK_REALTIME, &now);
		localtime_r(&now.tv_sec, &tm);
		strftime(ts, sizeof ts, "%Y-%m-%d %H:%M:%S", &tm);
		fprintf(log_file, "%s.%03ld %-5s %s\n", ts, now.tv_nsec / 1000000, names[level], msg);
	}
	if (to_stderr && level <= KG_LOG_WARN)
		fprintf(stderr, "kgtop: %s\n", msg); /* msg is safe: sanitized above */
	pthread_mutex_unlock(&lock);
}

/*
 * Say something on stderr: "kgtop: " and the message, made safe (names and
 * messages in it may come from the cluster, a stream or a file: controls
 * and invalid UTF-8 become '?', a line break too unless the message is
 * lines of kgtop's own, see log_say_lines), then a line break.  The one
 * way kgtop writes to stderr.
 */
static void
say(bool lines, const char *prefix, const char *fmt, va_list ap)
{
	sbuf b = { 0 };
	sbuf_adds(&b, prefix);
	sbuf_vaddf(&b, fmt, ap);
	sbuf_sanitize(&b, 0, lines);
	if (b.len == 0 || b.s[b.len - 1] != '\n')
		sbuf_addc(&b, '\n');
	pthread_mutex_lock(&lock);
	fwrite(b.s, 1, b.len, stderr);
	fflush(stderr);
	pthread_mutex_unlock(&lock);
	sbuf_free(&b);
}

/* Say one line on stderr, "kgtop: " first (see say()). */
void
log_say(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	say(false, "kgtop: ", fmt, ap);
	va_end(ap);
}

/* Say text of several lines on stderr as it is (line breaks kept, the rest made safe). */
void
log_say_lines(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	say(true, "", fmt, ap);
	va_end(ap);
}

/* Would a message of this level go anywhere? */
bool
log_enabled(kg_log_level level)
{
	bool on;
	pthread_mutex_lock(&lock);
	on = (int)level <= level_max && (log_file != NULL || (to_stderr && level <= KG_LOG_WARN));
	pthread_mutex_unlock(&lock);
	return on;
}

/* Close the log. */
void
log_close(void)
{
	pthread_mutex_lock(&lock);
	if (log_file != NULL)
		fclose(log_file);
	log_file = NULL;
	pthread_mutex_unlock(&lock);
}
