/*
 * rdprops.h: librdkafka properties that come from files (-F FILE, and
 * "X.key = value" lines of the config file).
 *
 * A file can be copied, shared or generated; a command line is typed.  So
 * the properties with which librdkafka 2.0.2 loads code or runs commands
 * are taken only from -X on the command line (its CONFIGURATION.md lists
 * them: plugin.library.paths loads shared libraries when it is set,
 * sasl.kerberos.kinit.cmd is a shell command, ssl.engine.location and
 * ssl.engine.id load an OpenSSL engine, ssl.providers OpenSSL 3 providers,
 * which may be paths to modules).  The kinit command pastes the values of
 * sasl.kerberos.keytab, .principal and .service.name into the shell, so
 * from a file those must be plain (letters, digits and @ . _ / + = : , -).
 * Every other property from a file is tried on a scratch configuration
 * at once, so a bad one fails while kgtop starts, and librdkafka's message
 * is passed on with the value taken out: a file's values are never shown.
 */
#ifndef KGTOP_SOURCES_KAFKA_RDPROPS_H
#define KGTOP_SOURCES_KAFKA_RDPROPS_H

#include <stdbool.h>
#include <stddef.h>

/* A key shaped like a librdkafka property name (lower case, digits, '.', '_'), safe to show. */
bool rdprops_key_shown(const char *key);
/*
 * Judge key = value read at where ("FILE:LINE"): 0, or -1 with a message
 * that names where and the key, never the value.
 */
int rdprops_check_file(const char *key, const char *value, const char *where, char *err, size_t errsz);

#endif
