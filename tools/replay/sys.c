// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The replay's syscall table: one row per enum rp_sys (sys.h says what
 * each column means), strace's other names for them, and rp_call_format()
 * which prints a call the way its row says.
 */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>

#include "lib/compiler.h"
#include "tools/replay/sys.h"

/* A path relative to the cwd, or to the dirfd in a[D - 1]. */
#define CWD(n, w, f)                     \
	{                                \
		0, (n), RPW_##w, RPN_##f \
	}
#define AT(d, n, w, f)                     \
	{                                  \
		(d), (n), RPW_##w, RPN_##f \
	}
#define P1(x) .npath = 1, .path = { x }
#define P2(x, y) .npath = 2, .path = { x, y }
#define A0 0x1 /* a[0] is a descriptor */
#define A01 0x3 /* a[0] and a[1] */

static const struct rp_sysdesc descs[RP_NR] = {
	[RP_NONE] = { "?", "" },
	[RP_OPEN] = { "open", "pnn", .flags_arg = 1, P1(CWD(0, OPEN, OPEN)), .fdop = RPD_NEW,
		      .makes = RPM_OPEN, .undo = RPU_UNLINK, .fmt = RPF_OPEN },
	[RP_OPENAT] = { "openat", "fpnn", .fds = A0, .flags_arg = 2, P1(AT(1, 0, OPEN, OPEN)),
			.fdop = RPD_NEW, .makes = RPM_OPEN, .undo = RPU_UNLINK, .fmt = RPF_OPENAT },
	[RP_CREAT] = { "creat", "pn", P1(CWD(0, FOLLOW, NO)), .fdop = RPD_NEW,
		       .fmt = RPF_PATH_OCT },
	[RP_CLOSE] = { "close", "f", .fds = A0, .fdop = RPD_CLOSE },
	[RP_CLOSE_RANGE] = { "close_range", "nnn", .flags = RPS_NO_INHERIT,
			     .fdop = RPD_CLOSE_RANGE },
	[RP_STAT] = { "stat", "po", P1(CWD(0, FOLLOW, YES)), .out = RPX_STAT, .fmt = RPF_PATH },
	[RP_LSTAT] = { "lstat", "po", P1(CWD(0, NOFOLLOW, YES)), .out = RPX_STAT, .fmt = RPF_PATH },
	[RP_FSTAT] = { "fstat", "fo", .fds = A0, .object = RPO_ARG, .out = RPX_STAT },
	[RP_NEWFSTATAT] = { "newfstatat", "fpon", .flags = RPS_EMPTY_PATH, .fds = A0,
			    .flags_arg = 2, P1(AT(1, 0, AT, YES)), .object = RPO_EMPTY,
			    .out = RPX_STAT, .fmt = RPF_AT_HEX },
	[RP_STATX] = { "statx", "fpnxo", .flags = RPS_EMPTY_PATH, .fds = A0, .flags_arg = 2,
		       P1(AT(1, 0, AT, YES)), .object = RPO_EMPTY, .out = RPX_STAT,
		       .fmt = RPF_AT_HEX },
	[RP_ACCESS] = { "access", "pn", .mode_arg = 1, P1(CWD(0, FOLLOW, YES)), .makes = RPM_ACCESS,
			.fmt = RPF_PATH_OCT },
	[RP_FACCESSAT] = { "faccessat", "fpn", .flags = RPS_EMPTY_PATH, .fds = A0, .mode_arg = 2,
			   P1(AT(1, 0, FOLLOW, YES)), .makes = RPM_ACCESS, .fmt = RPF_AT_HEX },
	[RP_FACCESSAT2] = { "faccessat2", "fpnn", .flags = RPS_EMPTY_PATH, .fds = A0,
			    .flags_arg = 3, .mode_arg = 2, P1(AT(1, 0, AT, YES)),
			    .object = RPO_EMPTY, .makes = RPM_ACCESS, .fmt = RPF_AT_HEX },
	[RP_READ] = { "read", "fxn", .fds = A0, .object = RPO_ARG, .repair = RPR_READ },
	[RP_PREAD64] = { "pread64", "fxnn", .flags = RPS_POS, .fds = A0, .object = RPO_ARG,
			 .repair = RPR_READ },
	[RP_READV] = { "readv", "fvx", .flags = RPS_VEC, .fds = A0, .object = RPO_ARG,
		       .repair = RPR_READ },
	[RP_PREADV] = { "preadv", "fvxn", .flags = RPS_VEC | RPS_POS, .fds = A0, .object = RPO_ARG,
			.repair = RPR_READ },
	[RP_WRITE] = { "write", "fxn", .fds = A0, .object = RPO_ARG },
	[RP_PWRITE64] = { "pwrite64", "fxnn", .flags = RPS_POS, .fds = A0, .object = RPO_ARG },
	[RP_WRITEV] = { "writev", "fvx", .flags = RPS_VEC, .fds = A0, .object = RPO_ARG },
	[RP_PWRITEV] = { "pwritev", "fvxn", .flags = RPS_VEC | RPS_POS, .fds = A0,
			 .object = RPO_ARG },
	[RP_LSEEK] = { "lseek", "fnn", .fds = A0, .object = RPO_ARG, .repair = RPR_SEEK_END },
	[RP_DUP] = { "dup", "f", .fds = A0, .fdop = RPD_NEW },
	[RP_DUP2] = { "dup2", "ff", .fds = A0, .fdop = RPD_DUP2 },
	[RP_DUP3] = { "dup3", "ffn", .fds = A0, .flags_arg = 3, .fdop = RPD_DUP2 },
	[RP_FCNTL] = { "fcntl", "fnN", .fds = A0, .object = RPO_FCNTL, .fdop = RPD_FCNTL },
	[RP_RENAME] = { "rename", "pp", P2(CWD(0, NOFOLLOW, YES), CWD(1, NOFOLLOW, EEXIST)),
			.fmt = RPF_PATH2 },
	[RP_RENAMEAT] = { "renameat", "fpfp", .fds = A01,
			  P2(AT(1, 0, NOFOLLOW, YES), AT(2, 1, NOFOLLOW, EEXIST)), .fmt = RPF_AT2 },
	[RP_RENAMEAT2] = { "renameat2", "fpfpn", .fds = A01,
			   P2(AT(1, 0, NOFOLLOW, YES), AT(2, 1, NOFOLLOW, EEXIST)),
			   .undo = RPU_RENAME, .fmt = RPF_AT2 },
	[RP_UNLINK] = { "unlink", "p", P1(CWD(0, NOFOLLOW, YES)), .fmt = RPF_PATH },
	[RP_UNLINKAT] = { "unlinkat", "fpn", .fds = A0, .flags_arg = 2, P1(AT(1, 0, NOFOLLOW, YES)),
			  .makes = RPM_REMOVEDIR, .fmt = RPF_AT_HEX },
	[RP_MKDIR] = { "mkdir", "pn", P1(CWD(0, NOFOLLOW, EEXIST)), .makes = RPM_MKDIR,
		       .undo = RPU_RMDIR, .fmt = RPF_PATH_OCT },
	[RP_MKDIRAT] = { "mkdirat", "fpn", .fds = A0, P1(AT(1, 0, NOFOLLOW, EEXIST)),
			 .makes = RPM_MKDIR, .undo = RPU_RMDIR, .fmt = RPF_AT_HEX },
	[RP_RMDIR] = { "rmdir", "p", P1(CWD(0, NOFOLLOW, YES)), .makes = RPM_DIR, .fmt = RPF_PATH },
	[RP_LINK] = { "link", "pp", P2(CWD(0, NOFOLLOW, YES), CWD(1, NOFOLLOW, EEXIST)),
		      .undo = RPU_UNLINK, .fmt = RPF_PATH2 },
	[RP_LINKAT] = { "linkat", "fpfpn", .fds = A01, .flags_arg = 3,
			P2(AT(1, 0, LINKAT, YES), AT(2, 1, NOFOLLOW, EEXIST)), .undo = RPU_UNLINK,
			.fmt = RPF_AT2 },
	[RP_SYMLINK] = { "symlink", "pp", P1(CWD(1, NOFOLLOW, EEXIST)), .undo = RPU_UNLINK,
			 .fmt = RPF_PATH2 },
	[RP_SYMLINKAT] = { "symlinkat", "pfp", .flags = RPS_NO_INHERIT, .fds = A0,
			   P1(AT(1, 1, NOFOLLOW, EEXIST)), .undo = RPU_UNLINK,
			   .fmt = RPF_SYMLINKAT },
	[RP_READLINK] = { "readlink", "prn", P1(CWD(0, NOFOLLOW, YES)), .makes = RPM_SYMLINK,
			  .repair = RPR_READLINK, .out = RPX_LINK, .fmt = RPF_PATH },
	[RP_READLINKAT] = { "readlinkat", "fprn", .fds = A0, P1(AT(1, 0, NOFOLLOW, YES)),
			    .object = RPO_EMPTY, .makes = RPM_SYMLINK, .repair = RPR_READLINK,
			    .out = RPX_LINK, .fmt = RPF_AT },
	[RP_GETDENTS64] = { "getdents64", "fdn", .flags = RPS_DIRFD, .fds = A0, .object = RPO_ARG,
			    .repair = RPR_LISTING, .out = RPX_DENTS },
	[RP_CHDIR] = { "chdir", "p", P1(CWD(0, FOLLOW, YES)), .makes = RPM_DIR, .fmt = RPF_PATH },
	[RP_FCHDIR] = { "fchdir", "f", .flags = RPS_DIRFD, .fds = A0, .object = RPO_ARG },
	[RP_CHMOD] = { "chmod", "pn", P1(CWD(0, FOLLOW, YES)), .fmt = RPF_PATH_OCT },
	[RP_FCHMOD] = { "fchmod", "fn", .fds = A0, .object = RPO_ARG },
	[RP_FCHMODAT] = { "fchmodat", "fpnn", .flags = RPS_EMPTY_PATH, .fds = A0,
			  P1(AT(1, 0, FOLLOW, YES)), .object = RPO_EMPTY, .fmt = RPF_AT_HEX },
	[RP_CHOWN] = { "chown", "pnn", P1(CWD(0, FOLLOW, YES)) },
	[RP_LCHOWN] = { "lchown", "pnn", P1(CWD(0, NOFOLLOW, YES)) },
	[RP_FCHOWN] = { "fchown", "fnn", .fds = A0, .object = RPO_ARG },
	[RP_FCHOWNAT] = { "fchownat", "fpnnn", .flags = RPS_EMPTY_PATH, .fds = A0, .flags_arg = 4,
			  P1(AT(1, 0, AT, YES)), .object = RPO_EMPTY, .fmt = RPF_AT },
	[RP_TRUNCATE] = { "truncate", "pn", P1(CWD(0, FOLLOW, YES)), .fmt = RPF_PATH_OCT },
	[RP_FTRUNCATE] = { "ftruncate", "fn", .fds = A0, .object = RPO_ARG },
	[RP_FALLOCATE] = { "fallocate", "fnnn", .fds = A0, .object = RPO_ARG },
	[RP_GETCWD] = { "getcwd", "rn", .out = RPX_CWD, .fmt = RPF_DEC },
	[RP_UMASK] = { "umask", "n", .fmt = RPF_OCT },
	[RP_UTIMENSAT] = { "utimensat", "fptn", .flags = RPS_EMPTY_PATH, .fds = A0, .flags_arg = 3,
			   P1(AT(1, 0, AT, YES)), .object = RPO_EMPTY_NULL, .fmt = RPF_AT },
	[RP_MKNOD] = { "mknod", "pnn", P1(CWD(0, NOFOLLOW, EEXIST)), .undo = RPU_UNLINK },
	[RP_MKNODAT] = { "mknodat", "fpnn", .fds = A0, P1(AT(1, 0, NOFOLLOW, EEXIST)),
			 .undo = RPU_UNLINK, .fmt = RPF_AT },
	[RP_COPY_FILE_RANGE] = { "copy_file_range", "fOfOnx" },
	[RP_SENDFILE] = { "sendfile", "ffOn" },
	[RP_SETXATTR] = { "setxattr", "ppann", .flags = RPS_ACL, .mode_arg = 1,
			  P1(CWD(0, FOLLOW, YES)) },
	[RP_LSETXATTR] = { "lsetxattr", "ppann", .flags = RPS_ACL, .mode_arg = 1,
			   P1(CWD(0, NOFOLLOW, YES)) },
	[RP_FSETXATTR] = { "fsetxattr", "fpann", .flags = RPS_ACL, .mode_arg = 2,
			   .object = RPO_ARG },
	[RP_EXECVE] = { "execve", "pxx", P1(CWD(0, FOLLOW, YES)), .fdop = RPD_EXEC,
			.makes = RPM_EXEC, .repair = RPR_EXEC, .fmt = RPF_PATH },
	[RP_EXECVEAT] = { "execveat", "fpxxn", .flags = RPS_EMPTY_PATH, .fds = A0,
			  P1(AT(1, 0, FOLLOW, YES)), .fdop = RPD_EXEC, .makes = RPM_EXEC,
			  .repair = RPR_EXEC, .fmt = RPF_AT },
	[RP_FOREIGN] = { "pipe", "P", .flags = RPS_NO_INHERIT, .flags_arg = 4,
			 .fdop = RPD_FOREIGN },
	[RP_CLONE] = { "clone", "", .fmt = RPF_HEX },
	[RP_EXIT] = { "exit", "", .fmt = RPF_NAME },
};

/* strace's other names for a row, with their own argument kinds. */
static const struct {
	const char *name;
	enum rp_sys sys;
	const char *sig; /* NULL: the row's */
} aliases[] = {
	{ "fchmodat2", RP_FCHMODAT, NULL },
	{ "pipe2", RP_FOREIGN, "Pn" },
	{ "socketpair", RP_FOREIGN, "xxxP" },
	{ "socket", RP_FOREIGN, "" },
	{ "accept", RP_FOREIGN, "" },
	{ "accept4", RP_FOREIGN, "" },
	{ "eventfd", RP_FOREIGN, "" },
	{ "eventfd2", RP_FOREIGN, "" },
	{ "epoll_create", RP_FOREIGN, "" },
	{ "epoll_create1", RP_FOREIGN, "" },
	{ "memfd_create", RP_FOREIGN, "" },
	{ "timerfd_create", RP_FOREIGN, "" },
	{ "signalfd", RP_FOREIGN, "" },
	{ "signalfd4", RP_FOREIGN, "" },
	{ "inotify_init", RP_FOREIGN, "" },
	{ "inotify_init1", RP_FOREIGN, "" },
	{ "fanotify_init", RP_FOREIGN, "" },
	{ "userfaultfd", RP_FOREIGN, "" },
	{ "pidfd_open", RP_FOREIGN, "" },
	{ "pidfd_getfd", RP_FOREIGN, "" },
	{ "perf_event_open", RP_FOREIGN, "" },
	{ "open_tree", RP_FOREIGN, "" },
	{ "fsopen", RP_FOREIGN, "" },
	{ "fsmount", RP_FOREIGN, "" },
	{ "fspick", RP_FOREIGN, "" },
	{ "openat2", RP_FOREIGN, "" },
	{ "open_by_handle_at", RP_FOREIGN, "" },
	{ "clone3", RP_CLONE, NULL },
	{ "fork", RP_CLONE, NULL },
	{ "vfork", RP_CLONE, NULL },
};

const struct rp_sysdesc *rp_sys(unsigned int sys)
{
	return &descs[sys < RP_NR ? sys : RP_NONE];
}

const char *rp_sys_name(unsigned int sys)
{
	return rp_sys(sys)->name;
}

static bool name_is(const char *s, const char *name, size_t len)
{
	return strlen(s) == len && !memcmp(s, name, len);
}

bool rp_sys_find(const char *name, size_t len, unsigned int *sys, const char **sig)
{
	/* RP_EXIT is "+++ exited +++", never a call by that name */
	for (unsigned int i = RP_NONE + 1; i < RP_EXIT; i++)
		if (name_is(descs[i].name, name, len)) {
			*sys = i;
			*sig = descs[i].sig;
			return true;
		}
	for (size_t i = 0; i < ARRAY_SIZE(aliases); i++)
		if (name_is(aliases[i].name, name, len)) {
			*sys = aliases[i].sys;
			*sig = aliases[i].sig ? aliases[i].sig : descs[*sys].sig;
			return true;
		}
	return false;
}

long rp_sys_flags(const struct rp_call *c)
{
	unsigned int k = rp_sys(c->sys)->flags_arg;

	return k ? c->a[k - 1] : 0;
}

long rp_sys_mode(const struct rp_call *c)
{
	unsigned int k = rp_sys(c->sys)->mode_arg;

	return k ? c->a[k - 1] : 0;
}

bool rp_uses_fd(const struct rp_call *c, long fd)
{
	unsigned int fds = rp_sys(c->sys)->fds;

	for (int k = 0; fds >> k; k++)
		if ((fds >> k & 1) && c->a[k] == fd)
			return true;
	return false;
}

bool rp_makes_lowest_fd(const struct rp_call *c)
{
	switch (rp_sys(c->sys)->fdop) {
	case RPD_NEW:
	case RPD_FOREIGN:
		return true;
	case RPD_FCNTL:
		return c->a[1] == F_DUPFD || c->a[1] == F_DUPFD_CLOEXEC;
	default:
		return false;
	}
}

long rp_object_fd(const struct rp_call *c)
{
	switch (rp_sys(c->sys)->object) {
	case RPO_ARG:
		return c->a[0];
	case RPO_FCNTL:
		return c->a[1] == F_GETFL || c->a[1] == F_SETFL ? c->a[0] : -1;
	case RPO_EMPTY:
		return c->p[0] && !c->p[0][0] ? c->a[0] : -1;
	case RPO_EMPTY_NULL:
		return !c->p[0] || !c->p[0][0] ? c->a[0] : -1;
	default:
		return -1;
	}
}

/* ---- printing a call ---- */

static void fmt_str(char *buf, size_t len, const char *s)
{
	size_t o = 0;

	if (!s) {
		snprintf(buf, len, "NULL");
		return;
	}
	if (o + 1 < len)
		buf[o++] = '"';
	for (; *s && o + 5 < len; s++) {
		if (*s == '"' || *s == '\\') {
			buf[o++] = '\\';
			buf[o++] = *s;
		} else if ((unsigned char)*s < 0x20 || (unsigned char)*s >= 0x7f) {
			o += snprintf(buf + o, len - o, "\\%o", (unsigned char)*s);
		} else {
			buf[o++] = *s;
		}
	}
	if (o + 1 < len)
		buf[o++] = '"';
	buf[o < len ? o : len - 1] = '\0';
}

static void fmt_fd(char *buf, size_t len, long fd)
{
	if (fd == AT_FDCWD)
		snprintf(buf, len, "AT_FDCWD");
	else
		snprintf(buf, len, "%ld", fd);
}

/* The numeric arguments, as many as the syscall's signature has. */
static void fmt_nums(const struct rp_call *c, const char *sig, char *buf, size_t len)
{
	char f[16];
	size_t o;
	int n = 0;

	o = snprintf(buf, len, "%s(", rp_sys_name(c->sys));
	for (; *sig && o < len; sig++) {
		if (!strchr("fnNv", *sig) || n >= 5)
			continue;
		if (*sig == 'f')
			fmt_fd(f, sizeof(f), c->a[n]);
		else
			snprintf(f, sizeof(f), "%ld", c->a[n]);
		o += snprintf(buf + o, len - o, "%s%s", n ? ", " : "", f);
		n++;
	}
	if (o < len)
		snprintf(buf + o, len - o, ")");
}

void rp_call_format(const struct rp_call *c, char *buf, size_t len)
{
	const struct rp_sysdesc *d = rp_sys(c->sys);
	const char *name = d->name;
	char p0[300], p1[300], f0[16], f1[16];
	const long *a = c->a;

	fmt_str(p0, sizeof(p0), c->p[0]);
	fmt_str(p1, sizeof(p1), c->p[1]);
	fmt_fd(f0, sizeof(f0), a[0]);
	fmt_fd(f1, sizeof(f1), a[1]);
	switch (d->fmt) {
	case RPF_OPEN:
		snprintf(buf, len, "%s(%s, %#lo, %#lo)", name, p0, a[0], a[1]);
		break;
	case RPF_OPENAT:
		snprintf(buf, len, "%s(%s, %s, %#lo, %#lo)", name, f0, p0, a[1], a[2]);
		break;
	case RPF_PATH:
		snprintf(buf, len, "%s(%s)", name, p0);
		break;
	case RPF_PATH_OCT:
		snprintf(buf, len, "%s(%s, %#lo)", name, p0, a[0]);
		break;
	case RPF_PATH2:
		snprintf(buf, len, "%s(%s, %s)", name, p0, p1);
		break;
	case RPF_AT:
		snprintf(buf, len, "%s(%s, %s)", name, f0, p0);
		break;
	case RPF_AT_HEX:
		snprintf(buf, len, "%s(%s, %s, %#lx)", name, f0, p0, a[1]);
		break;
	case RPF_AT2:
		snprintf(buf, len, "%s(%s, %s, %s, %s, %#lx)", name, f0, p0, f1, p1, a[2]);
		break;
	case RPF_SYMLINKAT:
		snprintf(buf, len, "%s(%s, %s, %s)", name, p0, f0, p1);
		break;
	case RPF_DEC:
		snprintf(buf, len, "%s(%ld)", name, a[0]);
		break;
	case RPF_OCT:
		snprintf(buf, len, "%s(%#lo)", name, a[0]);
		break;
	case RPF_HEX:
		snprintf(buf, len, "%s(%#lx)", name, a[0]);
		break;
	case RPF_NAME:
		snprintf(buf, len, "%s", name);
		break;
	default:
		fmt_nums(c, d->sig, buf, len);
	}
}
