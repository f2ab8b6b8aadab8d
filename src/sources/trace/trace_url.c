/*
 * trace_url.c: a trace stream's URL and credentials (see trace_url.h).
 */
#include "config.h"

#include "sources/trace/trace_url.h"

#include <curl/curl.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/secfile.h"
#include "util/util.h"

/* Initialize libcurl once per process. */
static void
global_init(void)
{
	curl_global_init(CURL_GLOBAL_DEFAULT);
}

/* Initialize libcurl once. */
void
trace_url_init(void)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	pthread_once(&once, global_init);
}

/* Free a checked URL. */
void
trace_url_free(kg_trace_url *u)
{
	free(u->url);
	free(u->shown);
	free(u->user);
	free(u->pass);
	free(u->host);
	free(u->port);
	free(u->path);
	free(u->file);
	memset(u, 0, sizeof *u);
}

/* Take the decoded user and password of u into out. */
static void
url_credentials(CURLU *u, kg_trace_url *out)
{
	char *user = NULL, *pass = NULL;
	if (curl_url_get(u, CURLUPART_USER, &user, CURLU_URLDECODE) == CURLUE_OK && user != NULL) {
		out->user = xstrdup(user);
		curl_free(user);
	}
	if (curl_url_get(u, CURLUPART_PASSWORD, &pass, CURLU_URLDECODE) == CURLUE_OK && pass != NULL) {
		out->pass = xstrdup(pass);
		curl_free(pass);
	}
}

/* Check a URL of a --trace KIND and take it apart. */
int
trace_url_parse(const char *kind, const char *text, bool file_ok, kg_trace_url *out, char *err, size_t errsz)
{
	CURLU *u;
	char *scheme = NULL, *host = NULL, *port = NULL, *path = NULL, *shown = NULL;
	int rc = -1;
	memset(out, 0, sizeof *out);
	u = curl_url();
	if (u == NULL)
		util_oom();
	if (curl_url_set(u, CURLUPART_URL, text, 0) != CURLUE_OK ||
	    curl_url_get(u, CURLUPART_SCHEME, &scheme, 0) != CURLUE_OK) {
		util_err(err, errsz, "--trace %s: not a valid URL", kind);
		goto done;
	}
	if (strcasecmp(scheme, "http") != 0 && strcasecmp(scheme, "https") != 0 && strcasecmp(scheme, "file") != 0) {
		util_err(err, errsz, "--trace %s: unsupported URL scheme \"%s\" (http, https or file)", kind, scheme);
		goto done;
	}
	out->is_file = strcasecmp(scheme, "file") == 0;
	out->is_https = strcasecmp(scheme, "https") == 0;
	if (out->is_file && !file_ok) {
		util_err(err, errsz, "--trace %s: needs an http:// or https:// URL", kind);
		goto done;
	}
	if (curl_url_get(u, CURLUPART_PATH, &path, 0) != CURLUE_OK || path == NULL ||
	    (out->is_file && (path[0] == '\0' || strcmp(path, "/") == 0))) {
		util_err(err, errsz, "--trace %s: the URL has no path", kind);
		goto done;
	}
	if (!out->is_file && (curl_url_get(u, CURLUPART_HOST, &host, 0) != CURLUE_OK || host == NULL || *host == '\0')) {
		util_err(err, errsz, "--trace %s: the URL has no host", kind);
		goto done;
	}
	url_credentials(u, out);
	curl_url_get(u, CURLUPART_PORT, &port, 0);
	curl_url_set(u, CURLUPART_USER, NULL, 0);
	curl_url_set(u, CURLUPART_PASSWORD, NULL, 0);
	if (curl_url_get(u, CURLUPART_URL, &shown, 0) != CURLUE_OK || shown == NULL) {
		util_err(err, errsz, "--trace %s: not a valid URL", kind);
		goto done;
	}
	out->url = xstrdup(text);
	out->shown = xstrdup(shown);
	util_sanitize_text(out->shown);
	out->host = host != NULL ? xstrdup(host) : NULL;
	out->port = port != NULL ? xstrdup(port) : NULL;
	if (out->is_file) {
		const char *base = strrchr(path, '/');
		char *dpath = NULL;
		if (curl_url_get(u, CURLUPART_PATH, &dpath, CURLU_URLDECODE) == CURLUE_OK && dpath != NULL)
			out->path = xstrdup(dpath);
		curl_free(dpath);
		out->file = xstrdup(base && base[1] ? base + 1 : path);
	}
	rc = 0;
done:
	curl_free(scheme);
	curl_free(host);
	curl_free(port);
	curl_free(path);
	curl_free(shown);
	curl_url_cleanup(u);
	if (rc < 0)
		trace_url_free(out);
	return rc;
}

/* Read a headers file into a list ("Header: value" lines; '#' comments). Values never reach err. */
int
trace_url_headers(const char *path, struct curl_slist **out, char *err, size_t errsz)
{
	FILE *f = secfile_open_secret(path, "--trace-headers", err, errsz); /* it holds credentials */
	char line[8192];
	int n = 0;
	*out = NULL;
	if (f == NULL)
		return -1;
	while (fgets(line, sizeof line, f) != NULL) {
		size_t len = strlen(line);
		char *p = line, *c;
		n++;
		if (len == sizeof line - 1 && line[len - 1] != '\n') {
			fclose(f);
			curl_slist_free_all(*out);
			*out = NULL;
			return util_err(err, errsz, "--trace-headers %s:%d: line too long", path, n);
		}
		while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = '\0';
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '\0' || *p == '#')
			continue;
		c = strchr(p, ':');
		if (c == NULL || c == p || strpbrk(p, "\r\n") != NULL || strcspn(p, " \t") < (size_t)(c - p)) {
			fclose(f);
			curl_slist_free_all(*out);
			*out = NULL;
			return util_err(err, errsz, "--trace-headers %s:%d: expected \"Header: value\"", path, n);
		}
		*out = curl_slist_append(*out, p);
		if (*out == NULL)
			util_oom();
	}
	fclose(f);
	return 0;
}

/* Free a headers list. */
void
trace_url_headers_free(struct curl_slist *h)
{
	curl_slist_free_all(h);
}

/* Replace every occurrence of secret in s (in place) by "***" (when it fits). */
static void
scrub_one(char *s, size_t cap, const char *secret)
{
	size_t sl;
	char *p;
	if (secret == NULL || (sl = strlen(secret)) < 3)
		return;
	p = s;
	while ((p = strstr(p, secret)) != NULL) {
		size_t rest = strlen(p + sl);
		if ((size_t)(p - s) + 3 + rest + 1 > cap)
			break;
		memmove(p + 3, p + sl, rest + 1);
		memcpy(p, "***", 3);
		p += 3; /* past the mask: a secret that is "***" itself must not loop */
	}
}

/* Mask the URL's credentials in s. */
void
trace_url_scrub(const kg_trace_url *u, char *s, size_t cap)
{
	scrub_one(s, cap, u->user);
	scrub_one(s, cap, u->pass);
}

/*
 * What stops a file:// path from being read, with the OS's words (curl
 * only says "Couldn't open file"): missing, unreadable, or no regular file
 * (a directory reads as empty, and a pipe or a terminal would block the
 * collector inside curl: file:// is read synchronously).  Fills why; false
 * when the file can be read.
 */
bool
trace_url_file_problem(const kg_trace_url *u, char *why, size_t n)
{
	struct stat sb;
	int fd;
	if (!u->is_file || u->path == NULL)
		return false;
	if (stat(u->path, &sb) < 0) {
		snprintf(why, n, "%s", strerror(errno));
		return true;
	}
	if (S_ISDIR(sb.st_mode)) {
		snprintf(why, n, "a directory, not a file");
		return true;
	}
	if (S_ISFIFO(sb.st_mode) || S_ISSOCK(sb.st_mode)) {
		snprintf(why, n, "a pipe, not a file: kgtop reads files by their offsets (give the file itself, or "
				 "serve it over http://)");
		return true;
	}
	if (!S_ISREG(sb.st_mode)) {
		snprintf(why, n, "not a regular file: kgtop reads files by their offsets");
		return true;
	}
	fd = open(u->path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		snprintf(why, n, "%s", strerror(errno));
		return true;
	}
	close(fd);
	return false;
}

/* file://: whether the path now names another file than *id (renamed away, a new one made); id follows it. */
bool
trace_url_file_replaced(const kg_trace_url *u, kg_file_id *id)
{
	struct stat sb;
	bool replaced;
	if (!u->is_file || u->path == NULL || stat(u->path, &sb) < 0)
		return false;
	replaced = id->known && (sb.st_ino != id->ino || sb.st_dev != id->dev);
	id->dev = sb.st_dev;
	id->ino = sb.st_ino;
	id->known = true;
	return replaced;
}
