/*
 * trace_url.h: a trace stream's URL and credentials.
 *
 * A --trace URL is checked once, before any source exists, with libcurl's
 * URL parser: http://, https:// or file:// (when the kind accepts files),
 * with a host or a path.  Its parts are kept apart so that nothing shows
 * the credentials: the URL curl gets keeps its userinfo, the one shown in
 * names, messages and the log does not, and the decoded user and password
 * are kept only to scrub them from messages (curl's errors may repeat
 * them).  The --trace-headers file ("Header: value" lines) is read here
 * too; its values never reach a message.  What a file:// URL names is
 * checked here as well: that it can be read as a file, and whether it is
 * still the file read so far (a rotation by rename).
 */
#ifndef KGTOP_SOURCES_TRACE_TRACE_URL_H
#define KGTOP_SOURCES_TRACE_TRACE_URL_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

struct curl_slist;

/* A checked URL, taken apart. */
typedef struct kg_trace_url {
	char *url;          /* as given, with credentials: for curl only */
	char *shown;        /* without userinfo, sanitized: for names and messages */
	char *user, *pass;  /* decoded userinfo, to scrub messages; NULL when none */
	char *host, *port;  /* as in the URL; NULL when absent (file://) */
	char *path;         /* file://: the decoded path */
	char *file;         /* file://: the last part of the path as written */
	bool is_file;
	bool is_https;      /* TLS: what --trace-insecure turns verification off for */
} kg_trace_url;

/* Initialize libcurl once per process (any thread, any number of times). */
void trace_url_init(void);
/*
 * Check a URL of a --trace KIND: http://, https:// or file:// (only when
 * file_ok), with a host or a path.  Messages start "--trace KIND: ".
 * Returns 0 with out filled, or -1 with err and nothing to free.
 */
int trace_url_parse(const char *kind, const char *text, bool file_ok, kg_trace_url *out, char *err, size_t errsz);
/* Free what trace_url_parse() filled. */
void trace_url_free(kg_trace_url *u);
/* Mask the URL's user and password in s (capacity cap) with "***". */
void trace_url_scrub(const kg_trace_url *u, char *s, size_t cap);
/* Read a --trace-headers file of "Header: value" lines ('#' comments); values never reach err. */
int trace_url_headers(const char *path, struct curl_slist **out, char *err, size_t errsz);
/* Free a headers list. */
void trace_url_headers_free(struct curl_slist *h);

/* The identity of a file (device and inode), to tell a rotation by rename from growth. */
typedef struct kg_file_id {
	bool known;
	dev_t dev;
	ino_t ino;
} kg_file_id;

/*
 * What stops a file:// URL's path from being read, with the OS's words:
 * missing, unreadable, or no regular file (a directory, a pipe or a
 * terminal).  Fills why; false when it can be read (and for other URLs).
 */
bool trace_url_file_problem(const kg_trace_url *u, char *why, size_t n);
/* file://: whether the path now names another file than *id; *id then follows the path. */
bool trace_url_file_replaced(const kg_trace_url *u, kg_file_id *id);

#endif
