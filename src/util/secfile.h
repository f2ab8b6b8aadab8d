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
 * Files kgtop writes (recordings, exports, logs) may hold group names,
 * hosts and errors: they are created readable and writable by their owner
 * only (0600, whatever the umask); a file that already exists keeps its
 * mode.
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
/* Open path for writing (mode "w" or "a"), created 0600; NULL with errno set. */
FILE *secfile_create(const char *path, const char *mode);

#endif
