/*
 * rdprops.c: librdkafka properties from files (see rdprops.h).
 */
#include "config.h"

#include "sources/kafka/rdprops.h"

#include <librdkafka/rdkafka.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

/* The properties of librdkafka 2.0.2 that load code or run commands: only from -X. */
static const struct {
	const char *key;
	const char *why;
} danger[] = {
	{ "plugin.library.paths", "loads shared libraries (librdkafka plugins)" },
	{ "sasl.kerberos.kinit.cmd", "is a shell command librdkafka runs" },
	{ "ssl.engine.location", "loads an OpenSSL engine (a shared library)" },
	{ "ssl.engine.id", "names the OpenSSL engine librdkafka loads" },
	{ "ssl.providers", "loads OpenSSL providers (shared libraries)" },
};

/* Properties the default kinit command pastes into the shell: plain values only from files. */
static const char *const pasted[] = { "sasl.kerberos.keytab", "sasl.kerberos.principal",
				      "sasl.kerberos.service.name" };

/* What a property does that keeps it off files ("loads shared libraries"); NULL when nothing. */
static const char *
rdprops_danger(const char *key)
{
	size_t i;
	for (i = 0; i < KG_ARRAY_LEN(danger); i++) {
		if (strcmp(key, danger[i].key) == 0)
			return danger[i].why;
	}
	return NULL;
}

/* A key shaped like a property name. */
bool
rdprops_key_shown(const char *key)
{
	size_t n = strlen(key);
	return n > 0 && n <= 64 && strspn(key, "abcdefghijklmnopqrstuvwxyz0123456789._") == n;
}

/* A value the shell would take as one plain word. */
static bool
plain_word(const char *v)
{
	static const char ok[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789@._/+=:,-";
	return strspn(v, ok) == strlen(v);
}

/* Whether msg holds six bytes in a row of value (or value is too long to tell). */
static bool
shares_piece(const char *msg, const char *value)
{
	size_t vn = strlen(value), mn = strlen(msg), i;
	if (vn > 4096)
		return true;
	for (i = 0; i + 6 <= vn; i++) {
		if (memmem(msg, mn, value + i, 6) != NULL)
			return true;
	}
	return false; /* a shorter value is only taken out where it is quoted */
}

/*
 * librdkafka's message with the value taken out: it quotes what it refuses
 * (Invalid value "VALUE" for configuration property "KEY"; of a list, the
 * one bad item), so every quoted piece of the value goes.  False when some
 * of the value would still show.
 */
static bool
mask_value(char *msg, size_t cap, const char *key, const char *value)
{
	static const char hidden[] = "(value not shown)";
	char *q = msg, *end;
	while ((q = strchr(q, '"')) != NULL && (end = strchr(q + 1, '"')) != NULL) {
		size_t n = (size_t)(end - q - 1), tail = strlen(end + 1);
		char save = *end;
		bool part;
		*end = '\0';
		part = n > 0 && strcmp(q + 1, key) != 0 && strstr(value, q + 1) != NULL;
		*end = save;
		if (!part || (q - msg) + sizeof hidden + tail >= cap) {
			q = end + 1;
			continue;
		}
		memmove(q + sizeof hidden - 1, end + 1, tail + 1);
		memcpy(q, hidden, sizeof hidden - 1);
		q += sizeof hidden - 1;
	}
	return !shares_piece(msg, value);
}

/* Judge one property from a file. */
int
rdprops_check_file(const char *key, const char *value, const char *where, char *err, size_t errsz)
{
	const char *why;
	rd_kafka_conf_t *conf;
	size_t i, n;
	char *msg;
	int rc = 0;
	if (!rdprops_key_shown(key))
		return util_err(err, errsz, "%s: not a librdkafka property (the line is not shown)", where);
	if ((why = rdprops_danger(key)) != NULL)
		return util_err(err, errsz,
				"%s: %s %s: kgtop takes it only from -X on the command line, never from a file", where,
				key, why);
	for (i = 0; i < KG_ARRAY_LEN(pasted); i++) {
		if (strcmp(key, pasted[i]) == 0 && !plain_word(value))
			return util_err(err, errsz,
					"%s: %s goes into the kinit shell command: from a file only letters, digits and "
					"@._/+=:,- (give other values with -X)",
					where, key);
	}
	/* try it on a scratch configuration: a bad value fails now, and its message is ours to clean */
	n = strlen(value) + 1024;
	msg = xmalloc(n);
	msg[0] = '\0';
	conf = rd_kafka_conf_new();
	if (rd_kafka_conf_set(conf, key, value, msg, n) != RD_KAFKA_CONF_OK) {
		if (mask_value(msg, n, key, value))
			rc = util_err(err, errsz, "%s: %s: %s", where, key, msg);
		else
			rc = util_err(err, errsz, "%s: %s: librdkafka refuses the value (not shown)", where, key);
	}
	rd_kafka_conf_destroy(conf);
	free(msg);
	return rc;
}
