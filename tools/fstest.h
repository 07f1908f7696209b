/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * fstest - an interpreter for pjdfstest's command language.
 *
 * One input line is one pjdfstest invocation:
 *
 *	[-U umask] [-u uid] [-g gid[,gid...]] [--] syscall args
 *		[: syscall args ...]
 *
 * and what it writes to stdout is, line for line, what pjdfstest's own
 * binary prints on Linux for the same arguments.  The syscalls themselves
 * go through a backend (struct fstest_backend), so one script can run
 * against the host kernel and against vfslab's VFS and the two outputs can
 * be diffed.  The language, the output of every command and the vfslab
 * extensions are described in tests/fstest/README.
 */
#ifndef VFSLAB_TOOLS_FSTEST_H
#define VFSLAB_TOOLS_FSTEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <time.h>

/* Supplementary groups one -g option may list. */
#define FSTEST_MAX_GROUPS 64

/*
 * RLIMIT_NOFILE of every invocation.  Both backends use the same limit so
 * that F_DUPFD / dup2 boundary cases give the same answer.
 */
#define FSTEST_NOFILE 1024

/*
 * The pointer a path argument written as DEADCODE becomes (pjdfstest passes
 * 0xdeadc0de).  A backend must treat it as an unreadable user address: the
 * host hands it to the kernel, which answers EFAULT; a VFS backend must
 * answer -EFAULT wherever the kernel would copy the string in (getname).
 * NULL is passed as NULL and needs the same care.
 */
#define FSTEST_BAD_PTR ((const char *)0xdeadc0deUL)

/*
 * The credentials of one invocation, as pjdfstest sets them.  pjdfstest
 * (running as root) does, in this order:
 *
 *	-g: setgroups(ngroups, groups); setegid(groups[0]);
 *	-u: setuid(uid);
 *	always: umask(umask), 0 without -U.
 *
 * so with -u the real, effective, saved and fs uids all become uid, and
 * with -g the supplementary list is groups[] and the effective (and fs)
 * gid is groups[0] while the real and saved gids keep the caller's value
 * (0 when run as root).  access() checks the real ids, so this matters.
 * Without -u or -g those ids stay the caller's: root with gid 0 for the
 * scripts in tests/fstest, which always give -u and -g together.
 */
struct fstest_cred {
	bool has_uid; /* -u given (and not -1) */
	uid_t uid;
	bool has_groups; /* -g given */
	gid_t gid; /* groups[0]: the new effective gid */
	int ngroups; /* 1..FSTEST_MAX_GROUPS when has_groups */
	gid_t groups[FSTEST_MAX_GROUPS];
	bool has_umask; /* -U given; informational, umask is always set */
	mode_t umask; /* 0 unless -U */
};

/*
 * A backend: one member per syscall, with the Linux signature plus @ctx,
 * returning the syscall's value (>= 0) or a negative errno, exactly what
 * Linux returns for the same call on tmpfs.  Host types are used
 * (struct stat, struct timespec, linux_dirent64 records, O_* / AT_* values
 * of <fcntl.h>).  Descriptors are the invocation's own fd numbers; the
 * interpreter maps pjdfstest's descriptor indexes onto them.
 *
 * begin, end and cd are required.  A syscall member left NULL falls back,
 * where Linux implements the two identically, to the *at variant with
 * AT_FDCWD (open -> openat, mkdir -> mkdirat, unlink/rmdir -> unlinkat,
 * link -> linkat, symlink -> symlinkat, rename -> renameat -> renameat2,
 * mknod/mkfifo -> mknodat, chmod -> fchmodat, chown/lchown -> fchownat,
 * stat/lstat -> fstatat, access -> faccessat, readlink -> readlinkat).
 * A command whose member is still missing is reported as unsupported by
 * the backend, and its line counts as an error.
 */
struct fstest_backend {
	const char *name;
	/*
	 * Run every invocation in a forked child: begin(), the calls and
	 * end() happen there, cd() in the parent.  The host backend needs
	 * it (credentials cannot be taken back); an in-process VFS does not.
	 */
	bool fork_per_line;

	/*
	 * Start one invocation, as a freshly started process would: a new fd
	 * table holding exactly 0, 1 and 2 (what they refer to is the
	 * backend's business), RLIMIT_NOFILE = FSTEST_NOFILE, the working
	 * directory left by the last cd(), @cred applied as described above.
	 * Returns 0 or a negative errno (the line is then not run).
	 */
	int (*begin)(void *ctx, const struct fstest_cred *cred);
	/* End the invocation: close every fd it left open, drop its creds. */
	void (*end)(void *ctx);
	/*
	 * The `cd PATH` line (a vfslab extension): change the working
	 * directory of all later invocations, with the caller's (root's)
	 * credentials.  Returns 0 or a negative errno.
	 */
	int (*cd)(void *ctx, const char *path);

	/* pjdfstest's syscalls (Linux set). */
	long (*open)(void *ctx, const char *path, int flags, mode_t mode);
	long (*openat)(void *ctx, int dirfd, const char *path, int flags, mode_t mode);
	long (*unlink)(void *ctx, const char *path);
	long (*unlinkat)(void *ctx, int dirfd, const char *path, int flags);
	long (*mkdir)(void *ctx, const char *path, mode_t mode);
	long (*mkdirat)(void *ctx, int dirfd, const char *path, mode_t mode);
	long (*rmdir)(void *ctx, const char *path);
	long (*link)(void *ctx, const char *oldpath, const char *newpath);
	long (*linkat)(void *ctx, int olddirfd, const char *oldpath, int newdirfd,
		       const char *newpath, int flags);
	long (*symlink)(void *ctx, const char *target, const char *linkpath);
	long (*symlinkat)(void *ctx, const char *target, int newdirfd, const char *linkpath);
	long (*rename)(void *ctx, const char *oldpath, const char *newpath);
	long (*renameat)(void *ctx, int olddirfd, const char *oldpath, int newdirfd,
			 const char *newpath);
	long (*mknod)(void *ctx, const char *path, mode_t mode, dev_t dev);
	long (*mknodat)(void *ctx, int dirfd, const char *path, mode_t mode, dev_t dev);
	/*
	 * pjdfstest's bind/connect: create an AF_UNIX stream socket, then
	 * bind (creating a socket inode at @path) or connect it.  The
	 * socket's descriptor stays open until end(), as in pjdfstest, so
	 * it takes the lowest free fd.  Optional.
	 */
	long (*bind)(void *ctx, const char *path);
	long (*connect)(void *ctx, const char *path);
	long (*chmod)(void *ctx, const char *path, mode_t mode);
	long (*fchmod)(void *ctx, int fd, mode_t mode);
	/* fchmodat2(): @flags may hold AT_SYMLINK_NOFOLLOW, AT_EMPTY_PATH. */
	long (*fchmodat)(void *ctx, int dirfd, const char *path, mode_t mode, int flags);
	long (*chown)(void *ctx, const char *path, uid_t owner, gid_t group);
	long (*fchown)(void *ctx, int fd, uid_t owner, gid_t group);
	long (*lchown)(void *ctx, const char *path, uid_t owner, gid_t group);
	long (*fchownat)(void *ctx, int dirfd, const char *path, uid_t owner, gid_t group,
			 int flags);
	long (*truncate)(void *ctx, const char *path, off_t length);
	long (*ftruncate)(void *ctx, int fd, off_t length);
	/* posix_fallocate calls this with @mode 0.  Optional. */
	long (*fallocate)(void *ctx, int fd, int mode, off_t offset, off_t len);
	long (*stat)(void *ctx, const char *path, struct stat *st);
	long (*fstat)(void *ctx, int fd, struct stat *st);
	long (*lstat)(void *ctx, const char *path, struct stat *st);
	long (*fstatat)(void *ctx, int dirfd, const char *path, struct stat *st, int flags);
	/*
	 * pathconf(3)/fpathconf(3) as glibc answers them (_PC_LINK_MAX,
	 * _PC_NAME_MAX, _PC_PATH_MAX, _PC_SYMLINK_MAX): 0 and *@value, with
	 * *@value = -1 for "no limit", or a negative errno.  Optional.
	 */
	long (*pathconf)(void *ctx, const char *path, int name, long *value);
	long (*fpathconf)(void *ctx, int fd, int name, long *value);
	long (*write)(void *ctx, int fd, const void *buf, size_t count);
	/*
	 * The utimensat syscall: @path NULL means the file @dirfd itself.
	 * (glibc's wrapper refuses a NULL path with EINVAL; the interpreter
	 * does that for pjdfstest's utimensat command, so a backend only
	 * sees NULL from the futimens extension.)
	 */
	long (*utimensat)(void *ctx, int dirfd, const char *path, const struct timespec times[2],
			  int flags);

	/* vfslab extensions. */
	/* RENAME_NOREPLACE, RENAME_EXCHANGE, RENAME_WHITEOUT. */
	long (*renameat2)(void *ctx, int olddirfd, const char *oldpath, int newdirfd,
			  const char *newpath, unsigned int flags);
	long (*close)(void *ctx, int fd);
	long (*close_range)(void *ctx, unsigned int first, unsigned int last, unsigned int flags);
	long (*read)(void *ctx, int fd, void *buf, size_t count);
	long (*pread)(void *ctx, int fd, void *buf, size_t count, off_t offset);
	long (*pwrite)(void *ctx, int fd, const void *buf, size_t count, off_t offset);
	/* Returns the new offset (off_t fits a long on LP64). */
	long (*lseek)(void *ctx, int fd, off_t offset, int whence);
	long (*dup)(void *ctx, int fd);
	long (*dup2)(void *ctx, int oldfd, int newfd);
	long (*dup3)(void *ctx, int oldfd, int newfd, int flags);
	/* F_DUPFD, F_DUPFD_CLOEXEC, F_GETFD, F_SETFD, F_GETFL, F_SETFL. */
	long (*fcntl)(void *ctx, int fd, int cmd, unsigned long arg);
	long (*access)(void *ctx, const char *path, int mode);
	/* faccessat2(): @flags may hold AT_EACCESS, AT_SYMLINK_NOFOLLOW. */
	long (*faccessat)(void *ctx, int dirfd, const char *path, int mode, int flags);
	/* Return the number of bytes placed in @buf, no NUL added. */
	long (*readlink)(void *ctx, const char *path, char *buf, size_t bufsiz);
	long (*readlinkat)(void *ctx, int dirfd, const char *path, char *buf, size_t bufsiz);
	/* The getcwd syscall: the length including the NUL, or -errno. */
	long (*getcwd)(void *ctx, char *buf, size_t size);
	long (*chdir)(void *ctx, const char *path);
	long (*fchdir)(void *ctx, int fd);
	/* Returns the previous mask. */
	long (*umask)(void *ctx, mode_t mask);
	/* Fills @dirp with struct linux_dirent64 records; 0 at the end. */
	long (*getdents64)(void *ctx, int fd, void *dirp, size_t count);
};

/*
 * Run a script: one invocation per line.  Blank lines and lines whose first
 * word starts with '#' are skipped; `cd PATH` changes the directory later
 * lines start in.  Results go to @out; diagnostics about the script (a
 * malformed line, an unsupported command, a child that died) go to @err as
 * "NAME:LINE: message", and the line produces no output.
 * Returns the number of lines that got such a diagnostic (0: clean run),
 * or -1 if @in could not be read.
 */
int fstest_run(const struct fstest_backend *be, void *ctx, FILE *in, FILE *out, FILE *err,
	       const char *name);

/*
 * Run one line of a script (same syntax, @line need not end in '\n').
 * Returns 0, or 1 if it got a diagnostic on @err.
 */
int fstest_run_line(const struct fstest_backend *be, void *ctx, const char *line, FILE *out,
		    FILE *err, const char *name, unsigned long lineno);

/*
 * Run one invocation given as pjdfstest's own argv (options first, then
 * the chain with ":" as separate words), e.g. from a command line.
 * Returns 0, or 1 after a diagnostic on @err.
 */
int fstest_run_argv(const struct fstest_backend *be, void *ctx, int argc, char *const argv[],
		    FILE *out, FILE *err);

/*
 * What fstest prints for @err (a positive errno): pjdfstest's name for it,
 * or its decimal value for the errnos pjdfstest has no name for (ENODATA,
 * EUCLEAN, ...).  Points to static storage for the decimal case.
 */
const char *fstest_strerror(int err);

/* The host backend (tools/fstest_host.c): real syscalls, fork per line. */
struct fstest_host {
	/*
	 * Directory each child chroot()s into before running (absolute), or
	 * NULL.  With it absolute paths and getcwd stay inside the run's
	 * directory, as they do in a VFS of its own.
	 */
	char *root;
	/* Seconds a line may run before its child is killed (0: none). */
	unsigned int timeout;
};

extern const struct fstest_backend fstest_host_backend;

/*
 * Set @host up.  With @chroot_cwd, each child is confined to the current
 * directory (needs root; ignored with a warning on @err otherwise).
 * Returns 0 or a negative errno.
 */
int fstest_host_init(struct fstest_host *host, bool chroot_cwd, FILE *err);
void fstest_host_fini(struct fstest_host *host);

#endif /* VFSLAB_TOOLS_FSTEST_H */
