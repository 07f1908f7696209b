/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * What replay knows of each syscall, one row per enum rp_sys (sys.c): how
 * strace prints its arguments, which are descriptors, paths and flags,
 * what it does to the fd table, what its final path must be, how
 * discovery repairs it and what it outputs beyond its return value. The
 * parser, the engine, the repairs and the prescan read this row instead
 * of switching on the syscall.
 */
#ifndef VFSLAB_TOOLS_REPLAY_SYS_H
#define VFSLAB_TOOLS_REPLAY_SYS_H

#include <stdbool.h>
#include <stddef.h>

#include "tools/replay/replay.h"

/* How the final component of a path is walked. */
enum rp_walk {
	RPW_NOFOLLOW,
	RPW_FOLLOW,
	RPW_OPEN, /* followed unless O_NOFOLLOW in the flags */
	RPW_AT, /* followed unless AT_SYMLINK_NOFOLLOW in the flags */
	RPW_LINKAT, /* followed only with AT_SYMLINK_FOLLOW in the flags */
};

/* When the final component must exist for the call to end as logged. */
enum rp_final {
	RPN_NO,
	RPN_YES,
	RPN_EEXIST, /* only when the log says EEXIST */
	RPN_OPEN, /* unless O_CREAT in the flags, or the log says EEXIST */
};

/* A path the call walks. */
struct rp_path {
	unsigned char dfd; /* a[] slot + 1 of its dirfd; 0: AT_FDCWD */
	unsigned char name; /* p[] slot */
	unsigned char walk; /* enum rp_walk */
	unsigned char final; /* enum rp_final */
};

/* The descriptor a call works on as an object (read, fstat...). */
enum rp_object {
	RPO_NONE,
	RPO_ARG, /* a[0] */
	RPO_FCNTL, /* a[0] for F_GETFL and F_SETFL */
	RPO_EMPTY, /* a[0] when the path is "" */
	RPO_EMPTY_NULL, /* a[0] when the path is "" or NULL (futimens) */
};

/* The call's effect on the fd table. */
enum rp_fdop {
	RPD_NONE,
	RPD_NEW, /* returns the lowest free descriptor */
	RPD_FCNTL, /* F_DUPFD*: as RPD_NEW from a[2]; F_SETFD */
	RPD_FOREIGN, /* a[0] descriptors at a[1], a[2] (pipe) */
	RPD_DUP2, /* makes a[1] */
	RPD_CLOSE,
	RPD_CLOSE_RANGE,
	RPD_EXEC, /* closes the close-on-exec ones */
};

/* What the final component of a successful call must be. */
enum rp_makes {
	RPM_ANY,
	RPM_OPEN, /* what later calls on the fd showed, or O_DIRECTORY */
	RPM_DIR,
	RPM_REMOVEDIR, /* a directory with AT_REMOVEDIR */
	RPM_MKDIR, /* a directory when the log says EEXIST */
	RPM_SYMLINK, /* a symlink with the log's body */
	RPM_EXEC, /* an executable file */
	RPM_ACCESS, /* executable when the mode asks for X_OK */
};

/* How an object the log says already existed is taken back (EEXIST). */
enum rp_undo {
	RPU_NONE,
	RPU_UNLINK,
	RPU_RMDIR,
	RPU_RENAME, /* renameat2(RENAME_NOREPLACE): rename it back */
};

/* Discovery's repair when the call's result differs. */
enum rp_repair {
	RPR_NONE,
	RPR_READ, /* a short read: grow the file */
	RPR_SEEK_END, /* lseek(SEEK_END): size the file */
	RPR_LISTING, /* a short listing: filler entries */
	RPR_READLINK, /* another body: the log's */
	RPR_EXEC, /* EACCES: make it executable */
};

/* Output beyond the return value, compared with the log's. */
enum rp_out {
	RPX_NONE,
	RPX_STAT,
	RPX_DENTS, /* the number of entries */
	RPX_LINK, /* the symlink body: ret bytes */
	RPX_CWD, /* the cwd: ret bytes with the NUL */
};

/* How rp_call_format() prints the call. */
enum rp_fmt {
	RPF_NUMS, /* the numeric arguments of its signature */
	RPF_OPEN, /* open(p0, a0, a1) */
	RPF_OPENAT, /* openat(f0, p0, a1, a2) */
	RPF_PATH, /* name(p0) */
	RPF_PATH_OCT, /* name(p0, a0) */
	RPF_PATH2, /* name(p0, p1) */
	RPF_AT, /* name(f0, p0) */
	RPF_AT_HEX, /* name(f0, p0, a1) */
	RPF_AT2, /* name(f0, p0, f1, p1, a2) */
	RPF_SYMLINKAT, /* name(p0, f0, p1) */
	RPF_DEC, /* name(a0) */
	RPF_OCT,
	RPF_HEX,
	RPF_NAME, /* name */
};

/* rp_sysdesc.flags */
#define RPS_EMPTY_PATH 0x1 /* an empty path is the dirfd itself: no walk */
#define RPS_ACL 0x2 /* xattr calls: only a minimal ACL, as a mode in the mode slot */
#define RPS_VEC 0x4 /* readv and friends: an iovec total */
#define RPS_POS 0x8 /* at an offset in a[2], not the file position */
#define RPS_DIRFD 0x10 /* its descriptor is a directory (getdents, fchdir) */
#define RPS_NO_INHERIT 0x20 /* an EBADF is no sign of an inherited descriptor */

struct rp_sysdesc {
	const char *name; /* strace's */
	/*
	 * Argument kinds, as strace prints them: f descriptor, p path, n
	 * number or flags, N the same but 0 if unparsable, o stat output, r
	 * output string, d dirent output (entries count), v iovec array
	 * (total length), t utimensat times, P fd pair output, a a data
	 * string (kept), O an offset pointer (-1 for NULL), x ignored.
	 */
	const char *sig;
	unsigned char flags; /* RPS_* */
	unsigned char fds; /* bit k: a[k] is a descriptor it uses */
	unsigned char flags_arg; /* a[] slot + 1 of its flags word; 0: none */
	unsigned char mode_arg; /* a[] slot + 1 of an access mask or ACL mode */
	unsigned char npath;
	struct rp_path path[2];
	unsigned char object; /* enum rp_object */
	unsigned char fdop; /* enum rp_fdop */
	unsigned char makes; /* enum rp_makes */
	unsigned char undo; /* enum rp_undo */
	unsigned char repair; /* enum rp_repair */
	unsigned char out; /* enum rp_out */
	unsigned char fmt; /* enum rp_fmt */
};

/* The row of sys (RP_NONE's for anything out of range). */
const struct rp_sysdesc *rp_sys(unsigned int sys);
/* The syscall strace calls name, and how its arguments read; false if none. */
bool rp_sys_find(const char *name, size_t len, unsigned int *sys, const char **sig);

/* The flags word, the access mask or mode, per the row (0 if none). */
long rp_sys_flags(const struct rp_call *c);
long rp_sys_mode(const struct rp_call *c);
/* Does c use fd as a descriptor (object or dirfd)? */
bool rp_uses_fd(const struct rp_call *c, long fd);
/* Does c return the lowest free descriptor (open, dup, F_DUPFD, pipe...)? */
bool rp_makes_lowest_fd(const struct rp_call *c);

#endif /* VFSLAB_TOOLS_REPLAY_SYS_H */
