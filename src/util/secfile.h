/*
 * secfile.h: opening files that can change what kgtop does, and creating
 * files only their owner reads.
 *
 * A config file or a librdkafka properties file can set credentials and
 * point librdkafka at files; a file someone else can write would let them
 * do that.  So, as ssh does with its config, such a file is read only when
 * it is a regular file owned by the user (or root) and writable by nobody
 * else, and every directory on its real path (symbolic links resolved) is
 * owned by the user or root and writable by nobody else, unless it is
 * sticky (/tmp: others cannot replace what is not theirs).  A refusal
 * names the file or directory, its mode, and the chmod that fixes it.
 *
 * A secret (the --serve-auth passwords, the --serve-key private key, the
 * --trace-headers lines) must in addition be readable by its owner only,
 * as ssh wants a private key: a group or other read bit, or an execute
 * bit, is refused.
 *
 * Files kgtop writes (recordings, exports, logs) may hold group names,
 * hosts and errors: they are created readable and writable by their owner
 * only (0600, whatever the umask), never through a symbolic link; a
 * recording or an export is a new file (one that exists is refused), a log
 * may be added to when it is a regular file of the user's that nobody else
 * may read or write.
 */
#ifndef KGTOP_UTIL_SECFILE_H
#define KGTOP_UTIL_SECFILE_H

#include <stdio.h>

/*
 * Open path for reading if it passes the rules above; what names it in
 * messages ("-F", "config").  NULL with err filled (errno ENOENT when it
 * does not exist, EACCES when it was refused by the rules).
 */
FILE *secfile_open(const char *path, const char *what, char *err, size_t errsz);
/* The same for a secret: refused too when its group or others may read it (or execute it). */
FILE *secfile_open_secret(const char *path, const char *what, char *err, size_t errsz);
/*
 * Open path for writing: "w" a new file (refused when it exists), "a"
 * appending (an existing file must be the user's, regular, mode 0600 or
 * less); created 0600, never through a symbolic link.  NULL with errno
 * and err ("WHAT PATH: why").
 */
FILE *secfile_create(const char *path, const char *mode, const char *what, char *err, size_t errsz);

#endif
