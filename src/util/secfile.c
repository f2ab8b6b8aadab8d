/*
 * secfile.c: files that can change what kgtop does, and private files
 * (see secfile.h).
 *
 * The file is opened first and judged by fstat() of what was opened, so it
 * cannot be swapped between the check and the read; the directories are
 * those of its real path, from its own up to the root.
 */
#include "config.h"

#include "util/secfile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/util.h"

/* Who besides the owner may write: "group", "others", "group and others". */
static const char *
writers(mode_t m)
{
	if ((m & S_IWGRP) && (m & S_IWOTH))
		return "group and others";
	return (m & S_IWGRP) ? "group" : "others";
}

/* The owner is the user or root. */
static bool
owner_ok(uid_t uid)
{
	return uid == geteuid() || uid == 0;
}

/* Judge one directory of the real path; -1 with err. */
static int
dir_check(const char *dir, const char *file, const char *what, char *err, size_t errsz)
{
	struct stat sb;
	mode_t m;
	if (stat(dir, &sb) < 0)
		return util_err(err, errsz, "%s %s: directory %s: %s", what, file, dir, strerror(errno));
	m = sb.st_mode & 07777;
	if (!owner_ok(sb.st_uid))
		return util_err(err, errsz,
				"%s %s: directory %s belongs to uid %ld, not to you or root, so it could replace the "
				"file: kgtop refuses it (keep the file in a directory of your own)",
				what, file, dir, (long)sb.st_uid);
	if ((m & (S_IWGRP | S_IWOTH)) && !(m & S_ISVTX))
		return util_err(err, errsz,
				"%s %s: directory %s has mode %04o: %s could replace the file, so kgtop refuses it "
				"(fix: chmod go-w %s)",
				what, file, dir, (unsigned)m, writers(m), dir);
	return 0;
}

/* Judge every directory of the real path, from the file's up to the root. */
static int
dirs_check(const char *real, const char *file, const char *what, char *err, size_t errsz)
{
	char *dir = xstrdup(real);
	char *slash;
	int rc = 0;
	while ((slash = strrchr(dir, '/')) != NULL && rc == 0) {
		if (slash == dir)
			slash[1] = '\0'; /* the root */
		else
			*slash = '\0';
		rc = dir_check(dir, file, what, err, errsz);
		if (slash == dir)
			break;
	}
	free(dir);
	return rc;
}

/* Judge the opened file itself; -1 with err. */
static int
file_check(int fd, const char *path, const char *what, char *err, size_t errsz)
{
	struct stat sb;
	mode_t m;
	if (fstat(fd, &sb) < 0)
		return util_err(err, errsz, "%s %s: %s", what, path, strerror(errno));
	if (S_ISDIR(sb.st_mode))
		return util_err(err, errsz, "%s %s: %s", what, path, strerror(EISDIR));
	if (!S_ISREG(sb.st_mode))
		return util_err(err, errsz, "%s %s: not a regular file", what, path);
	m = sb.st_mode & 07777;
	if (!owner_ok(sb.st_uid))
		return util_err(err, errsz,
				"%s %s: the file belongs to uid %ld, not to you or root: kgtop refuses it (copy it to a "
				"file of your own, mode 0600)",
				what, path, (long)sb.st_uid);
	if (m & (S_IWGRP | S_IWOTH))
		return util_err(err, errsz,
				"%s %s: mode %04o lets %s write it, so kgtop refuses it (fix: chmod go-w %s)", what,
				path, (unsigned)m, writers(m), path);
	return 0;
}

static FILE *secfile_open_as(const char *path, const char *what, bool secret, char *err, size_t errsz);

/* Who besides the owner may read: "group", "others", "group and others". */
static const char *
readers(mode_t m)
{
	if ((m & S_IRGRP) && (m & S_IROTH))
		return "group and others";
	return (m & S_IRGRP) ? "group" : "others";
}

/* A secret: nobody but its owner may read or write it (as ssh wants a private key); -1 with err. */
static int
secret_check(int fd, const char *path, const char *what, char *err, size_t errsz)
{
	struct stat sb;
	mode_t m;
	if (fstat(fd, &sb) < 0)
		return util_err(err, errsz, "%s %s: %s", what, path, strerror(errno));
	m = sb.st_mode & 07777;
	if (m & (S_IRGRP | S_IROTH))
		return util_err(err, errsz,
				"%s %s: mode %04o lets %s read it: a secret must be its owner's alone, so kgtop refuses "
				"it (fix: chmod 600 %s)",
				what, path, (unsigned)m, readers(m), path);
	if (m & (S_IXUSR | S_IXGRP | S_IXOTH))
		return util_err(err, errsz, "%s %s: mode %04o: a secret is no program, so kgtop refuses it (fix: chmod 600 %s)",
				what, path, (unsigned)m, path);
	return 0;
}

/* Open a file that may change what kgtop does. */
FILE *
secfile_open(const char *path, const char *what, char *err, size_t errsz)
{
	return secfile_open_as(path, what, false, err, errsz);
}

/* Open a secret (a password file, a private key): secfile_open's rules, and readable by its owner only. */
FILE *
secfile_open_secret(const char *path, const char *what, char *err, size_t errsz)
{
	return secfile_open_as(path, what, true, err, errsz);
}

/* Open a file by the rules; a secret also by secret_check's. */
static FILE *
secfile_open_as(const char *path, const char *what, bool secret, char *err, size_t errsz)
{
	char *real = realpath(path, NULL);
	int fd, e;
	FILE *f;
	if (real == NULL) {
		e = errno;
		util_err(err, errsz, "%s %s: %s", what, path, strerror(e));
		errno = e;
		return NULL;
	}
	fd = open(real, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0) {
		e = errno;
		util_err(err, errsz, "%s %s: %s", what, path, strerror(e));
		free(real);
		errno = e;
		return NULL;
	}
	if (file_check(fd, path, what, err, errsz) < 0 || (secret && secret_check(fd, path, what, err, errsz) < 0) ||
	    dirs_check(real, path, what, err, errsz) < 0) {
		close(fd);
		free(real);
		errno = EACCES;
		return NULL;
	}
	free(real);
	f = fdopen(fd, "r");
	if (f == NULL) {
		e = errno;
		close(fd);
		util_err(err, errsz, "%s %s: %s", what, path, strerror(e));
		errno = e;
	}
	return f;
}

/* What kgtop writes to: a regular file of the user's that nobody else may read or write; -1 with err. */
static int
append_check(int fd, const char *path, const char *what, char *err, size_t errsz)
{
	struct stat sb;
	if (fstat(fd, &sb) < 0)
		return util_err(err, errsz, "%s %s: %s", what, path, strerror(errno));
	if (!S_ISREG(sb.st_mode))
		return util_err(err, errsz, "%s %s: not a regular file", what, path);
	if (!owner_ok(sb.st_uid))
		return util_err(err, errsz, "%s %s: the file belongs to uid %ld, not to you: kgtop does not write to it",
				what, path, (long)sb.st_uid);
	if ((sb.st_mode & 077) != 0)
		return util_err(err, errsz,
				"%s %s: mode %04o lets others at what kgtop writes: kgtop refuses to add to it (fix: chmod "
				"600 %s)",
				what, path, (unsigned)(sb.st_mode & 07777), path);
	return 0;
}

/*
 * Open a file for writing: never through a symbolic link (O_NOFOLLOW);
 * "w" creates it (0600) and refuses one that exists (O_EXCL); "a" appends
 * to one that exists only when it is a regular file of the user that
 * nobody else may read or write, else creates it (0600).
 */
FILE *
secfile_create(const char *path, const char *mode, const char *what, char *err, size_t errsz)
{
	int flags = O_WRONLY | O_CREAT | O_CLOEXEC | O_NOCTTY | O_NOFOLLOW;
	int fd, e;
	FILE *f;
	flags |= mode[0] == 'a' ? O_APPEND : O_EXCL;
	fd = open(path, flags, 0600);
	if (fd < 0) {
		struct stat sb;
		e = errno;
		if (e == EEXIST && lstat(path, &sb) == 0 && S_ISLNK(sb.st_mode))
			e = ELOOP; /* O_EXCL says a link exists, whatever it points to */
		if (e == EEXIST && stat(path, &sb) == 0 && S_ISDIR(sb.st_mode))
			util_err(err, errsz, "%s %s: %s", what, path, strerror(EISDIR));
		else if (e == EEXIST)
			util_err(err, errsz, "%s %s: the file exists: kgtop writes a new file, never over another (remove it, "
					     "or name a new one)", what, path);
		else if (e == ELOOP)
			util_err(err, errsz, "%s %s: a symbolic link: kgtop does not write through links (name the file itself)",
				 what, path);
		else
			util_err(err, errsz, "%s %s: %s", what, path, strerror(e));
		errno = e;
		return NULL;
	}
	if (append_check(fd, path, what, err, errsz) < 0) {
		close(fd);
		errno = EACCES;
		return NULL;
	}
	f = fdopen(fd, mode);
	if (f == NULL) {
		e = errno;
		close(fd);
		util_err(err, errsz, "%s %s: %s", what, path, strerror(e));
		errno = e;
	}
	return f;
}
