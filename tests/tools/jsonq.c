/*
 * jsonq.c: a tiny jq for tests: reads JSON (one document, or JSON lines
 * with -l) from stdin and prints the value at a path per document.
 *
 *   jsonq PATH        PATH like .groups[0].id, .groups|length, .events[]
 *   jsonq -l PATH     every line is a document
 *   jsonq -v          only validate (exit 1 on the first invalid document)
 *
 * Strings print without quotes, numbers as they are, objects and arrays as
 * compact JSON, null as null.  ".x[]" prints each element on a line.
 * "|length" prints the size of an array or object.  An event's ".message"
 * that a --json line wrote around its text (schema 8: "message_head",
 * "text", "message_tail") prints joined, as --full writes it.
 */
#include "config.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Print one value. */
static void
print_value(const cJSON *v)
{
	char *s;
	if (v == NULL) {
		puts("null");
		return;
	}
	if (cJSON_IsString(v)) {
		puts(v->valuestring);
		return;
	}
	/* whole numbers print whole (cJSON would print 1.7959674301697e+15) */
	if (cJSON_IsNumber(v) && v->valuedouble == floor(v->valuedouble) && fabs(v->valuedouble) < 9007199254740992.0) {
		printf("%.0f\n", v->valuedouble);
		return;
	}
	s = cJSON_PrintUnformatted(v);
	puts(s ? s : "null");
	free(s);
}

/* Print an event's message that a --json line split around its text (kgtop(1)); false when it did not. */
static int
print_joined(const cJSON *ev)
{
	const cJSON *h = cJSON_GetObjectItemCaseSensitive(ev, "message_head"), *t = cJSON_GetObjectItemCaseSensitive(ev, "text"),
		    *tail = cJSON_GetObjectItemCaseSensitive(ev, "message_tail");
	if (!cJSON_IsString(h) || !cJSON_IsString(t))
		return 0;
	printf("%s%s%s\n", h->valuestring, t->valuestring, cJSON_IsString(tail) ? tail->valuestring : "");
	return 1;
}

/* Walk a path; returns 0, prints results. */
static int
walk(const cJSON *v, const char *p)
{
	while (*p && v != NULL) {
		if (*p == '.') {
			char key[256];
			size_t n = 0;
			p++;
			while (*p && *p != '.' && *p != '[' && *p != '|' && n < sizeof key - 1)
				key[n++] = *p++;
			key[n] = '\0';
			if (n > 0 && *p == '\0' && strcmp(key, "message") == 0 &&
			    cJSON_GetObjectItemCaseSensitive(v, key) == NULL && print_joined(v))
				return 0;
			if (n > 0)
				v = cJSON_GetObjectItemCaseSensitive(v, key);
		} else if (*p == '[') {
			char *end;
			long idx;
			p++;
			if (*p == ']') {
				const cJSON *e;
				p++;
				cJSON_ArrayForEach(e, v) walk(e, p);
				return 0;
			}
			idx = strtol(p, &end, 10);
			p = end;
			if (*p == ']')
				p++;
			if (idx < 0)
				idx += cJSON_GetArraySize(v);
			v = cJSON_GetArrayItem(v, (int)idx);
		} else if (strncmp(p, "|length", 7) == 0) {
			printf("%d\n", cJSON_IsArray(v) || cJSON_IsObject(v) ? cJSON_GetArraySize(v)
					     : cJSON_IsString(v) ? (int)strlen(v->valuestring) : 0);
			return 0;
		} else {
			return 1;
		}
	}
	print_value(v);
	return 0;
}

/* Read all of stdin. */
static char *
slurp(size_t *len)
{
	size_t cap = 65536, n = 0, r;
	char *buf = malloc(cap);
	while (buf != NULL && (r = fread(buf + n, 1, cap - n - 1, stdin)) > 0) {
		n += r;
		if (n + 1 >= cap) {
			cap *= 2;
			buf = realloc(buf, cap);
		}
	}
	if (buf != NULL)
		buf[n] = '\0';
	*len = n;
	return buf;
}

/* Entry point. */
int
main(int argc, char **argv)
{
	int lines = 0, validate = 0, i = 1, rc = 0;
	const char *path = ".";
	size_t len;
	char *buf, *line, *save = NULL;
	for (; i < argc && argv[i][0] == '-'; i++) {
		if (strcmp(argv[i], "-l") == 0)
			lines = 1;
		else if (strcmp(argv[i], "-v") == 0)
			validate = 1;
	}
	if (i < argc)
		path = argv[i];
	buf = slurp(&len);
	if (buf == NULL)
		return 2;
	if (!lines) {
		cJSON *doc = cJSON_Parse(buf);
		if (doc == NULL) {
			fprintf(stderr, "jsonq: invalid JSON\n");
			free(buf);
			return 1;
		}
		if (!validate)
			rc = walk(doc, path);
		cJSON_Delete(doc);
		free(buf);
		return rc;
	}
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		cJSON *doc = cJSON_Parse(line);
		if (doc == NULL) {
			fprintf(stderr, "jsonq: invalid JSON line: %.80s\n", line);
			rc = 1;
			break;
		}
		if (!validate)
			walk(doc, path);
		cJSON_Delete(doc);
	}
	free(buf);
	return rc;
}
