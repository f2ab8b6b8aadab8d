/*
 * log.h: the debug log.
 *
 * Messages go to the --log file when one is open, and to stderr only when
 * the caller allows it (reporters, before curses starts): never while the
 * dashboard owns the terminal.  Thread-safe; secrets never reach it (the
 * callers mask them).
 */
#ifndef KGTOP_UTIL_LOG_H
#define KGTOP_UTIL_LOG_H

#include <stdbool.h>

#include "util/util.h"

typedef enum kg_log_level {
	KG_LOG_ERROR,
	KG_LOG_WARN,
	KG_LOG_INFO,
	KG_LOG_DEBUG,
	KG_LOG_LEVEL_COUNT
} kg_log_level;

/* Open the log file (NULL: none) with the verbosity (0: warnings, 1: info, 2+: debug). */
int log_open(const char *path, int verbose, char *err, size_t errsz);
/* Allow or forbid warnings and errors on stderr (forbid while curses runs). */
void log_set_stderr(bool on);
/* Log a message. */
void log_msg(kg_log_level level, const char *fmt, ...) KG_PRINTF(2, 3);
/* Say one line on stderr, "kgtop: " first, made safe (controls, line breaks, invalid UTF-8 as '?'). */
void log_say(const char *fmt, ...) KG_PRINTF(1, 2);
/* Say lines on stderr as they are, line breaks kept and the rest made safe. */
void log_say_lines(const char *fmt, ...) KG_PRINTF(1, 2);
/* True when a message of this level would be written (to skip costly formatting). */
bool log_enabled(kg_log_level level);
/* Close the log file. */
void log_close(void);

#endif
