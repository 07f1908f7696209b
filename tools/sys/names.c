// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The flag, command and errno names of tools/sys/names.h.
 */
/* Before any libc header: O_PATH, O_TMPFILE, AT_*, RENAME_*, F_OFD_*. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "tools/sys/names.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include <linux/close_range.h>

#include "vfs/vfs.h"

/* The kernel's O_LARGEFILE, which F_GETFL reports even where glibc's is 0. */
#if O_LARGEFILE != 0
#define K_O_LARGEFILE O_LARGEFILE
#elif defined(__x86_64__) || defined(__i386__) || defined(__riscv) || defined(__s390__) || \
	defined(__loongarch__)
#define K_O_LARGEFILE 0100000
#elif defined(__aarch64__) || defined(__arm__)
#define K_O_LARGEFILE 0400000
#else
#define K_O_LARGEFILE 0
#endif

#define N(x)                       \
	{                          \
#x, (long long)(x) \
	}
#define END             \
	{               \
		NULL, 0 \
	}

/*
 * O_CREAT, O_EXCL and O_TRUNC first, as an open's flags are written; then
 * the status flags in the order F_GETFL's answer is printed.
 */
const struct sys_name sys_open_flags[] = {
	N(O_RDONLY),
	N(O_WRONLY),
	N(O_RDWR),
	N(O_CREAT),
	N(O_EXCL),
	N(O_TRUNC),
	N(O_APPEND),
	N(O_NONBLOCK),
	N(O_SYNC),
	N(O_DSYNC),
	N(O_ASYNC),
	N(O_DIRECT),
	{ "O_LARGEFILE", K_O_LARGEFILE },
	N(O_TMPFILE), /* O_DIRECTORY's bit and its own */
	N(O_DIRECTORY),
	N(O_NOFOLLOW),
	N(O_NOATIME),
	N(O_CLOEXEC),
	N(O_PATH),
	N(O_NOCTTY),
	N(O_FSYNC),
	N(O_NDELAY),
	END,
};

const struct sys_name sys_at_flags[] = {
	N(AT_SYMLINK_NOFOLLOW),
	N(AT_REMOVEDIR),
	N(AT_SYMLINK_FOLLOW),
	N(AT_NO_AUTOMOUNT),
	N(AT_EMPTY_PATH),
	N(AT_EACCESS),
	N(AT_STATX_SYNC_AS_STAT),
	N(AT_STATX_FORCE_SYNC),
	N(AT_STATX_DONT_SYNC),
	{ "AT_RECURSIVE", 0x8000 },
	END,
};

const struct sys_name sys_access_modes[] = {
	N(F_OK), N(R_OK), N(W_OK), N(X_OK), END,
};

const struct sys_name sys_rename_flags[] = {
	N(RENAME_NOREPLACE),
	N(RENAME_EXCHANGE),
	N(RENAME_WHITEOUT),
	END,
};

const struct sys_name sys_close_range_flags[] = {
	N(CLOSE_RANGE_UNSHARE),
	N(CLOSE_RANGE_CLOEXEC),
	END,
};

const struct sys_name sys_fd_flags[] = {
	N(FD_CLOEXEC),
	END,
};

const struct sys_name sys_seek_whences[] = {
	N(SEEK_SET), N(SEEK_CUR), N(SEEK_END), N(SEEK_DATA), N(SEEK_HOLE), END,
};

/* The ones vfslab implements first. */
const struct sys_name sys_fcntl_cmds[] = {
	N(F_DUPFD),
	N(F_DUPFD_CLOEXEC),
	N(F_GETFD),
	N(F_SETFD),
	N(F_GETFL),
	N(F_SETFL),
	N(F_GETLK),
	N(F_SETLK),
	N(F_SETLKW),
	N(F_SETOWN),
	N(F_GETOWN),
	N(F_SETSIG),
	N(F_GETSIG),
	N(F_SETLEASE),
	N(F_GETLEASE),
	N(F_NOTIFY),
	N(F_SETPIPE_SZ),
	N(F_GETPIPE_SZ),
	N(F_OFD_GETLK),
	N(F_OFD_SETLK),
	N(F_OFD_SETLKW),
	{ "F_ADD_SEALS", 1033 },
	{ "F_GET_SEALS", 1034 },
	END,
};

const struct sys_name sys_mode_bits[] = {
	N(S_IFREG),  N(S_IFDIR), N(S_IFLNK), N(S_IFCHR), N(S_IFBLK), N(S_IFIFO),
	N(S_IFSOCK), N(S_ISUID), N(S_ISGID), N(S_ISVTX), N(S_IRWXU), N(S_IRUSR),
	N(S_IWUSR),  N(S_IXUSR), N(S_IRWXG), N(S_IRGRP), N(S_IWGRP), N(S_IXGRP),
	N(S_IRWXO),  N(S_IROTH), N(S_IWOTH), N(S_IXOTH), END,
};

const struct sys_name sys_utime_nsec[] = {
	N(UTIME_NOW),
	N(UTIME_OMIT),
	END,
};

const struct sys_name sys_falloc_flags[] = {
	{ "FALLOC_FL_KEEP_SIZE", 0x01 },
	{ "FALLOC_FL_PUNCH_HOLE", 0x02 },
	{ "FALLOC_FL_ZERO_RANGE", 0x10 },
	END,
};

const struct sys_name sys_pathconf_names[] = {
	/* pjdfstest's four first, then the rest of glibc's */
	N(_PC_LINK_MAX),	  N(_PC_NAME_MAX),
	N(_PC_PATH_MAX),	  N(_PC_SYMLINK_MAX),
	N(_PC_MAX_CANON),	  N(_PC_MAX_INPUT),
	N(_PC_PIPE_BUF),	  N(_PC_CHOWN_RESTRICTED),
	N(_PC_NO_TRUNC),	  N(_PC_VDISABLE),
	N(_PC_SYNC_IO),		  N(_PC_ASYNC_IO),
	N(_PC_PRIO_IO),		  N(_PC_SOCK_MAXBUF),
	N(_PC_FILESIZEBITS),	  N(_PC_REC_INCR_XFER_SIZE),
	N(_PC_REC_MAX_XFER_SIZE), N(_PC_REC_MIN_XFER_SIZE),
	N(_PC_REC_XFER_ALIGN),	  N(_PC_ALLOC_SIZE_MIN),
	N(_PC_2_SYMLINKS),	  END,
};

const struct sys_name sys_resolve_flags[] = {
	N(RESOLVE_NO_XDEV),
	N(RESOLVE_NO_MAGICLINKS),
	N(RESOLVE_NO_SYMLINKS),
	N(RESOLVE_BENEATH),
	N(RESOLVE_IN_ROOT),
	N(RESOLVE_CACHED),
	END,
};

/* mount(2)'s flags, the ones vfslab's tmpfs and namespace act on first. */
const struct sys_name sys_mount_flags[] = {
	N(MS_RDONLY),	   N(MS_NOSUID),
	N(MS_NODEV),	   N(MS_NOEXEC),
	N(MS_REMOUNT),	   N(MS_BIND),
	N(MS_REC),	   N(MS_NOATIME),
	N(MS_NODIRATIME),  N(MS_RELATIME),
	N(MS_STRICTATIME), N(MS_PRIVATE),
	N(MS_SHARED),	   N(MS_SLAVE),
	N(MS_UNBINDABLE),  N(MS_MOVE),
	N(MS_SYNCHRONOUS), N(MS_DIRSYNC),
	N(MS_MANDLOCK),	   N(MS_SILENT),
	N(MS_NOUSER),	   END,
};

const struct sys_name sys_umount_flags[] = {
	N(MNT_FORCE), N(MNT_DETACH), N(MNT_EXPIRE), N(UMOUNT_NOFOLLOW), END,
};

const struct sys_name sys_clone_flags[] = {
	N(CLONE_VM),
	N(CLONE_FS),
	N(CLONE_FILES),
	N(CLONE_SIGHAND),
	N(CLONE_PIDFD),
	N(CLONE_PTRACE),
	N(CLONE_VFORK),
	N(CLONE_PARENT),
	N(CLONE_THREAD),
	N(CLONE_NEWNS),
	N(CLONE_SYSVSEM),
	N(CLONE_SETTLS),
	N(CLONE_PARENT_SETTID),
	N(CLONE_CHILD_CLEARTID),
	N(CLONE_DETACHED),
	N(CLONE_UNTRACED),
	N(CLONE_CHILD_SETTID),
	N(CLONE_NEWCGROUP),
	N(CLONE_NEWUTS),
	N(CLONE_NEWIPC),
	N(CLONE_NEWUSER),
	N(CLONE_NEWPID),
	N(CLONE_NEWNET),
	N(CLONE_IO),
	{ "CLONE_CLEAR_SIGHAND", 0x100000000LL },
	{ "CLONE_INTO_CGROUP", 0x200000000LL },
	END,
};

const struct sys_name *sys_name_findn(const struct sys_name *t, const char *s, size_t len)
{
	for (; t->name; t++)
		if (strlen(t->name) == len && memcmp(t->name, s, len) == 0)
			return t;
	return NULL;
}

const struct sys_name *sys_name_find(const struct sys_name *t, const char *s)
{
	return sys_name_findn(t, s, strlen(s));
}

const char *sys_name_of(const struct sys_name *t, long long v)
{
	for (; t->name; t++)
		if (t->value == v)
			return t->name;
	return NULL;
}

/* Appends to buf as snprintf would at pos; returns the new pos. */
static size_t put(char *buf, size_t len, size_t pos, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static size_t put(char *buf, size_t len, size_t pos, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf + (pos < len ? pos : 0), pos < len ? len - pos : 0, fmt, ap);
	va_end(ap);
	return pos + (n > 0 ? (size_t)n : 0);
}

/* The names of v's bits from t after pos (sep before each if *first is false). */
static size_t put_bits(char *buf, size_t len, size_t pos, const struct sys_name *t, long long v,
		       enum sys_flags_style style, bool *first)
{
	const char *sep = style == SYS_FLAGS_C ? "|" : ",";

	for (; t->name && v; t++) {
		if (t->value && (v & t->value) == t->value) {
			pos = put(buf, len, pos, "%s%s", *first ? "" : sep, t->name);
			v &= ~t->value;
			*first = false;
		}
	}
	if (v) {
		pos = put(buf, len, pos, style == SYS_FLAGS_C ? "%s%#llx" : "%s0%llo",
			  *first ? "" : sep, (unsigned long long)v);
		*first = false;
	}
	return pos;
}

int sys_flags_format(char *buf, size_t len, const struct sys_name *t, long long v)
{
	bool first = true;
	size_t pos = put_bits(buf, len, 0, t, v, SYS_FLAGS_FSTEST, &first);

	if (first)
		pos = put(buf, len, pos, "0");
	return (int)pos;
}

/* Linux's access modes: 3 is no mode of open(2)'s, but an fd may carry it. */
static const struct sys_name open_accmodes[] = {
	N(O_RDONLY), N(O_WRONLY), N(O_RDWR), { "O_ACCMODE", O_ACCMODE }, END,
};

const struct sys_flag_word sys_file_flags = {
	.bits = sys_open_flags,
	.field_mask = O_ACCMODE,
	.field = open_accmodes,
	/* An O_PATH descriptor has no access mode to speak of. */
	.field_unless = O_PATH,
};

/* vfs/'s DCACHE_* bits, which mirror include/linux/dcache.h. */
static const struct sys_name dentry_flag_bits[] = {
	N(DCACHE_OP_HASH),
	N(DCACHE_OP_COMPARE),
	N(DCACHE_OP_REVALIDATE),
	N(DCACHE_OP_DELETE),
	N(DCACHE_REFERENCED),
	N(DCACHE_DONTCACHE),
	N(DCACHE_MOUNTED),
	N(DCACHE_LRU_LIST),
	N(DCACHE_DENTRY_KILLED),
	N(DCACHE_DISCONNECTED),
	END,
};

static const struct sys_name dentry_types[] = {
	N(DCACHE_MISS_TYPE),	N(DCACHE_DIRECTORY_TYPE), N(DCACHE_REGULAR_TYPE),
	N(DCACHE_SPECIAL_TYPE), N(DCACHE_SYMLINK_TYPE),	  END,
};

const struct sys_flag_word sys_dentry_flags = {
	.bits = dentry_flag_bits,
	.field_mask = DCACHE_ENTRY_TYPE,
	.field = dentry_types,
};

int sys_flag_word_format(char *buf, size_t len, const struct sys_flag_word *w, long long v,
			 enum sys_flags_style style)
{
	long long field = v & w->field_mask;
	const char *name = sys_name_of(w->field, field);
	bool first = true;
	size_t pos = 0;

	/* A field without a name is written as leftover bits. */
	if (name && (field || !(v & w->field_unless))) {
		pos = put(buf, len, pos, "%s", name);
		v &= ~w->field_mask;
		first = false;
	}
	pos = put_bits(buf, len, pos, w->bits, v, style, &first);
	if (first)
		pos = put(buf, len, pos, "0");
	return (int)pos;
}

/*
 * Every Linux errno. pjd marks those pjdfstest's err2str() names on Linux;
 * it prints the others as decimal numbers.
 */
static const struct errname {
	int err;
	bool pjd;
	const char *name;
} errnames[] = {
	{ EPERM, true, "EPERM" },
	{ ENOENT, true, "ENOENT" },
	{ ESRCH, true, "ESRCH" },
	{ EINTR, true, "EINTR" },
	{ EIO, true, "EIO" },
	{ ENXIO, true, "ENXIO" },
	{ E2BIG, true, "E2BIG" },
	{ ENOEXEC, true, "ENOEXEC" },
	{ EBADF, true, "EBADF" },
	{ ECHILD, true, "ECHILD" },
	{ EAGAIN, true, "EAGAIN" },
	{ ENOMEM, true, "ENOMEM" },
	{ EACCES, true, "EACCES" },
	{ EFAULT, true, "EFAULT" },
	{ ENOTBLK, true, "ENOTBLK" },
	{ EBUSY, true, "EBUSY" },
	{ EEXIST, true, "EEXIST" },
	{ EXDEV, true, "EXDEV" },
	{ ENODEV, true, "ENODEV" },
	{ ENOTDIR, true, "ENOTDIR" },
	{ EISDIR, true, "EISDIR" },
	{ EINVAL, true, "EINVAL" },
	{ ENFILE, true, "ENFILE" },
	{ EMFILE, true, "EMFILE" },
	{ ENOTTY, true, "ENOTTY" },
	{ ETXTBSY, true, "ETXTBSY" },
	{ EFBIG, true, "EFBIG" },
	{ ENOSPC, true, "ENOSPC" },
	{ ESPIPE, true, "ESPIPE" },
	{ EROFS, true, "EROFS" },
	{ EMLINK, true, "EMLINK" },
	{ EPIPE, true, "EPIPE" },
	{ EDOM, true, "EDOM" },
	{ ERANGE, true, "ERANGE" },
	{ EDEADLK, true, "EDEADLK" },
	{ ENAMETOOLONG, true, "ENAMETOOLONG" },
	{ ENOLCK, true, "ENOLCK" },
	{ ENOSYS, true, "ENOSYS" },
	{ ENOTEMPTY, true, "ENOTEMPTY" },
	{ ELOOP, true, "ELOOP" },
	{ ENOMSG, true, "ENOMSG" },
	{ EIDRM, true, "EIDRM" },
	{ ECHRNG, false, "ECHRNG" },
	{ EL2NSYNC, false, "EL2NSYNC" },
	{ EL3HLT, false, "EL3HLT" },
	{ EL3RST, false, "EL3RST" },
	{ ELNRNG, false, "ELNRNG" },
	{ EUNATCH, false, "EUNATCH" },
	{ ENOCSI, false, "ENOCSI" },
	{ EL2HLT, false, "EL2HLT" },
	{ EBADE, false, "EBADE" },
	{ EBADR, false, "EBADR" },
	{ EXFULL, false, "EXFULL" },
	{ ENOANO, false, "ENOANO" },
	{ EBADRQC, false, "EBADRQC" },
	{ EBADSLT, false, "EBADSLT" },
	{ EBFONT, false, "EBFONT" },
	{ ENOSTR, false, "ENOSTR" },
	{ ENODATA, false, "ENODATA" },
	{ ETIME, false, "ETIME" },
	{ ENOSR, false, "ENOSR" },
	{ ENONET, false, "ENONET" },
	{ ENOPKG, false, "ENOPKG" },
	{ EREMOTE, true, "EREMOTE" },
	{ ENOLINK, true, "ENOLINK" },
	{ EADV, false, "EADV" },
	{ ESRMNT, false, "ESRMNT" },
	{ ECOMM, false, "ECOMM" },
	{ EPROTO, true, "EPROTO" },
	{ EMULTIHOP, true, "EMULTIHOP" },
	{ EDOTDOT, false, "EDOTDOT" },
	{ EBADMSG, true, "EBADMSG" },
	{ EOVERFLOW, true, "EOVERFLOW" },
	{ ENOTUNIQ, false, "ENOTUNIQ" },
	{ EBADFD, false, "EBADFD" },
	{ EREMCHG, false, "EREMCHG" },
	{ ELIBACC, false, "ELIBACC" },
	{ ELIBBAD, false, "ELIBBAD" },
	{ ELIBSCN, false, "ELIBSCN" },
	{ ELIBMAX, false, "ELIBMAX" },
	{ ELIBEXEC, false, "ELIBEXEC" },
	{ EILSEQ, true, "EILSEQ" },
	{ ERESTART, false, "ERESTART" },
	{ ESTRPIPE, false, "ESTRPIPE" },
	{ EUSERS, true, "EUSERS" },
	{ ENOTSOCK, true, "ENOTSOCK" },
	{ EDESTADDRREQ, true, "EDESTADDRREQ" },
	{ EMSGSIZE, true, "EMSGSIZE" },
	{ EPROTOTYPE, true, "EPROTOTYPE" },
	{ ENOPROTOOPT, true, "ENOPROTOOPT" },
	{ EPROTONOSUPPORT, true, "EPROTONOSUPPORT" },
	{ ESOCKTNOSUPPORT, true, "ESOCKTNOSUPPORT" },
	{ EOPNOTSUPP, true, "EOPNOTSUPP" },
	{ EPFNOSUPPORT, true, "EPFNOSUPPORT" },
	{ EAFNOSUPPORT, true, "EAFNOSUPPORT" },
	{ EADDRINUSE, true, "EADDRINUSE" },
	{ EADDRNOTAVAIL, true, "EADDRNOTAVAIL" },
	{ ENETDOWN, true, "ENETDOWN" },
	{ ENETUNREACH, true, "ENETUNREACH" },
	{ ENETRESET, true, "ENETRESET" },
	{ ECONNABORTED, true, "ECONNABORTED" },
	{ ECONNRESET, true, "ECONNRESET" },
	{ ENOBUFS, true, "ENOBUFS" },
	{ EISCONN, true, "EISCONN" },
	{ ENOTCONN, true, "ENOTCONN" },
	{ ESHUTDOWN, true, "ESHUTDOWN" },
	{ ETOOMANYREFS, true, "ETOOMANYREFS" },
	{ ETIMEDOUT, true, "ETIMEDOUT" },
	{ ECONNREFUSED, true, "ECONNREFUSED" },
	{ EHOSTDOWN, true, "EHOSTDOWN" },
	{ EHOSTUNREACH, true, "EHOSTUNREACH" },
	{ EALREADY, true, "EALREADY" },
	{ EINPROGRESS, true, "EINPROGRESS" },
	{ ESTALE, true, "ESTALE" },
	{ EUCLEAN, false, "EUCLEAN" },
	{ ENOTNAM, false, "ENOTNAM" },
	{ ENAVAIL, false, "ENAVAIL" },
	{ EISNAM, false, "EISNAM" },
	{ EREMOTEIO, false, "EREMOTEIO" },
	{ EDQUOT, true, "EDQUOT" },
	{ ENOMEDIUM, false, "ENOMEDIUM" },
	{ EMEDIUMTYPE, false, "EMEDIUMTYPE" },
	{ ECANCELED, true, "ECANCELED" },
	{ ENOKEY, false, "ENOKEY" },
	{ EKEYEXPIRED, false, "EKEYEXPIRED" },
	{ EKEYREVOKED, false, "EKEYREVOKED" },
	{ EKEYREJECTED, false, "EKEYREJECTED" },
	{ EOWNERDEAD, false, "EOWNERDEAD" },
	{ ENOTRECOVERABLE, false, "ENOTRECOVERABLE" },
	{ ERFKILL, false, "ERFKILL" },
	{ EHWPOISON, false, "EHWPOISON" },
};

static const struct errname *errname(int err)
{
	for (size_t i = 0; i < sizeof(errnames) / sizeof(errnames[0]); i++)
		if (errnames[i].err == err)
			return &errnames[i];
	return NULL;
}

const char *sys_errno_name(int err)
{
	const struct errname *e = errname(err);

	return e ? e->name : NULL;
}

bool sys_errno_pjdfstest(int err)
{
	const struct errname *e = errname(err);

	return e && e->pjd;
}

int sys_errno_by_name(const char *name)
{
	for (size_t i = 0; i < sizeof(errnames) / sizeof(errnames[0]); i++)
		if (strcmp(errnames[i].name, name) == 0)
			return errnames[i].err;
	return 0;
}

const char *sys_ret_name(long ret, char *buf, size_t len)
{
	const char *n;

	if (ret >= 0 || ret < -4095) {
		snprintf(buf, len, "%ld", ret);
		return buf;
	}
	n = sys_errno_name((int)-ret);
	if (n)
		return n;
	snprintf(buf, len, "errno %ld", -ret);
	return buf;
}
