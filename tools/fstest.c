// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * fstest - pjdfstest's command language over a pluggable backend.
 *
 * A line is parsed and checked completely before anything runs (syntax,
 * argument counts, numbers, flag names, descriptor indexes, backend
 * support), so a malformed line prints nothing on stdout.  Then, like one
 * run of pjdfstest's binary, the chain runs call by call: each success
 * prints its line, the first failure prints its errno name and ends the
 * chain.
 */
/* Before any libc header: O_PATH, AT_*, RENAME_*, asprintf. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "tools/fstest.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/close_range.h>

#include "tools/sys/names.h"
#include "tools/sys/sys.h"

#define MAX_ARGS 8
/* Bounds on what a script may ask for in one call or one token. */
#define MAX_IO (1U << 20)
#define MAX_TOKEN (1U << 20)
#define MAX_DIRENTS 100000
/* What a forked child can hand back per line. */
#define CHILD_OUT_SIZE (4U << 20)
#define CHILD_ERR_SIZE (64U << 10)

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* ---- names ---- */

/* Names an argument takes: those of @t, or only the ones @only lists. */
struct names {
	const struct sys_name *t;
	const char *only; /* "A,B,C", or NULL for all */
};

/* mknod's type letter, as pjdfstest spells it ('s' is ours). */
static const struct sys_name mknod_types[] = {
	{ "c", S_IFCHR }, { "b", S_IFBLK },  { "f", S_IFIFO }, { "d", S_IFDIR },
	{ "o", S_IFREG }, { "s", S_IFSOCK }, { NULL, 0 },
};

const char *fstest_strerror(int err)
{
	static char num[16];

	if (sys_errno_pjdfstest(err))
		return sys_errno_name(err);
	snprintf(num, sizeof(num), "%d", err);
	return num;
}

/* ---- small helpers ---- */

struct diag {
	char msg[512];
};

static void __attribute__((format(printf, 2, 3))) set_diag(struct diag *d, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(d->msg, sizeof(d->msg), fmt, ap);
	va_end(ap);
}

static void report(FILE *err, const char *name, unsigned long lineno, const char *msg)
{
	if (lineno)
		fprintf(err, "%s:%lu: %s\n", name, lineno, msg);
	else
		fprintf(err, "%s: %s\n", name, msg);
}

/* strtoll(base 0) over the whole string, as pjdfstest reads numbers. */
static bool parse_ll(const char *s, int base, long long *v)
{
	char *end;
	long long x;

	errno = 0;
	x = strtoll(s, &end, base);
	if (end == s || errno == ERANGE)
		return false;
	while (isspace((unsigned char)*end))
		end++;
	if (*end != '\0')
		return false;
	*v = x;
	return true;
}

/* Is @s one of the comma-separated words of @list? */
static bool listed(const char *list, const char *s)
{
	size_t n = strlen(s);

	for (const char *p = list;; p++) {
		if (strncmp(p, s, n) == 0 && (p[n] == ',' || p[n] == '\0'))
			return true;
		p = strchr(p, ',');
		if (!p)
			return false;
	}
}

static const struct sys_name *find_name(const struct names *t, const char *s)
{
	const struct sys_name *f = t->t ? sys_name_find(t->t, s) : NULL;

	return f && (!t->only || listed(t->only, s)) ? f : NULL;
}

/*
 * pjdfstest's str2flags(): names joined by ',' or '|', "none" or "0" for
 * none.  Numbers are accepted too, so scripts can pass unknown bits.
 */
static bool parse_flags(const struct names *t, const char *s, long long *v, struct diag *d)
{
	char *copy, *tok, *save;
	long long flags = 0, n;
	bool ok = true;

	if (strcmp(s, "none") == 0 || strcmp(s, "0") == 0) {
		*v = 0;
		return true;
	}
	copy = strdup(s);
	if (!copy) {
		set_diag(d, "out of memory");
		return false;
	}
	for (tok = strtok_r(copy, ",|", &save); tok; tok = strtok_r(NULL, ",|", &save)) {
		const struct sys_name *f = find_name(t, tok);

		if (f) {
			flags |= f->value;
		} else if (parse_ll(tok, 0, &n)) {
			flags |= n;
		} else {
			set_diag(d, "unknown flag '%s'", tok);
			ok = false;
			break;
		}
	}
	free(copy);
	*v = flags;
	return ok;
}

static void put_escaped(FILE *out, const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '\\')
			fputs("\\\\", out);
		else if (c == '\n')
			fputs("\\n", out);
		else if (c == '\t')
			fputs("\\t", out);
		else if (c < 0x20 || c >= 0x7f)
			fprintf(out, "\\x%02x", c);
		else
			fputc(c, out);
	}
}

/* Names of the set bits of @v from @t, leftover bits in octal, or "0". */
static void put_flags(FILE *out, const struct sys_name *t, long long v)
{
	char buf[512];

	sys_flags_format(buf, sizeof(buf), t, v);
	fputs(buf, out);
}

/* F_GETFL's answer: access mode first, then the status flags. */
static void put_open_flags(FILE *out, long long v)
{
	static const char *const acc[] = { "O_RDONLY", "O_WRONLY", "O_RDWR", "O_ACCMODE" };
	long long rest = v & ~(long long)O_ACCMODE;

	/* An O_PATH descriptor has no access mode to speak of. */
	if ((v & O_PATH) && !(v & O_ACCMODE)) {
		put_flags(out, sys_open_flags, rest);
		return;
	}
	fputs(acc[v & O_ACCMODE], out);
	if (rest) {
		fputc(',', out);
		put_flags(out, sys_open_flags, rest);
	}
}

static const char *type_name(mode_t mode)
{
	switch (mode & S_IFMT) {
	case S_IFIFO:
		return "fifo";
	case S_IFCHR:
		return "char";
	case S_IFDIR:
		return "dir";
	case S_IFBLK:
		return "block";
	case S_IFREG:
		return "regular";
	case S_IFLNK:
		return "symlink";
	case S_IFSOCK:
		return "socket";
	default:
		return "unknown";
	}
}

/* pjdfstest's show_stat(): one field, by name; "unknown" for others. */
static void put_stat_field(FILE *out, const struct stat *st, const char *w, size_t n)
{
#define IS(name) (n == sizeof(name) - 1 && memcmp(w, name, n) == 0)
	if (IS("mode"))
		fprintf(out, "0%o", (unsigned int)(st->st_mode & 07777));
	else if (IS("inode"))
		fprintf(out, "%lld", (long long)st->st_ino);
	else if (IS("nlink"))
		fprintf(out, "%lld", (long long)st->st_nlink);
	else if (IS("uid"))
		fprintf(out, "%d", (int)st->st_uid);
	else if (IS("gid"))
		fprintf(out, "%d", (int)st->st_gid);
	else if (IS("size"))
		fprintf(out, "%lld", (long long)st->st_size);
	else if (IS("blocks"))
		fprintf(out, "%lld", (long long)st->st_blocks);
	else if (IS("atime"))
		fprintf(out, "%lld", (long long)st->st_atim.tv_sec);
	else if (IS("atime_ns"))
		fprintf(out, "%lld", (long long)st->st_atim.tv_nsec);
	else if (IS("ctime"))
		fprintf(out, "%lld", (long long)st->st_ctim.tv_sec);
	else if (IS("ctime_ns"))
		fprintf(out, "%lld", (long long)st->st_ctim.tv_nsec);
	else if (IS("mtime"))
		fprintf(out, "%lld", (long long)st->st_mtim.tv_sec);
	else if (IS("mtime_ns"))
		fprintf(out, "%lld", (long long)st->st_mtim.tv_nsec);
	else if (IS("major"))
		fprintf(out, "%u", (unsigned int)major(st->st_rdev));
	else if (IS("minor"))
		fprintf(out, "%u", (unsigned int)minor(st->st_rdev));
	else if (IS("type"))
		fputs(type_name(st->st_mode), out);
	else
		fputs("unknown", out);
#undef IS
}

/* Fields split on ',' with empty ones skipped, as strtok() does. */
static void put_stat(FILE *out, const struct stat *st, const char *what)
{
	const char *sep = "";

	while (*what) {
		size_t n = strcspn(what, ",");

		if (n) {
			fputs(sep, out);
			put_stat_field(out, st, what, n);
			sep = ",";
		}
		what += n;
		if (*what == ',')
			what++;
	}
	fputc('\n', out);
}

/* ---- parsed lines ---- */

struct arg {
	const char *s; /* strings; NULL or FSTEST_BAD_PTR for paths */
	size_t len;
	long long n; /* number, flags, name value, descriptor index */
	bool raw_fd; /* descriptor given as AT_FDCWD, BADFD or =N */
	bool present; /* optional arguments may be absent */
};

struct call;
struct run;
struct tok;

enum {
	CMD_ADDS_FD = 1 << 0, /* success returns a descriptor for the table */
	CMD_TAIL = 1 << 1, /* one more word, read by the check (fcntl) */
};

/*
 * Argument letters: p path (NULL, DEADCODE allowed), s string, n number,
 * z size (0..MAX_IO), d descriptor, f flags from @flags1, g flags from
 * @flags2, e one name from @names or a number, k one name from @names,
 * t nanoseconds (UTIME_NOW, UTIME_OMIT or decimal); a trailing '?' makes
 * the last argument optional.
 */
struct cmd {
	const char *name;
	const char *args;
	long (*run)(struct run *r, const struct call *c);
	unsigned int flags;
	struct names flags1;
	struct names flags2;
	struct names names;
	/* The call it makes that a backend may lack, as SYS_NR_<call> + 1. */
	unsigned int need;
	/* Checks across arguments; @tail is the CMD_TAIL word or NULL. */
	bool (*check)(struct call *c, const struct tok *tail, struct diag *d);
};

struct call {
	const struct cmd *cmd;
	struct arg a[MAX_ARGS];
	bool adds_fd;
};

struct line {
	bool is_cd;
	const char *cd_path;
	struct fstest_cred cred;
	struct call *calls;
	int ncalls;
};

struct run {
	const struct sys_ops *sys;
	void *sc; /* the sys_ops' ctx */
	FILE *out;
	int *fds;
	int nfds;
};

/* ---- commands ---- */

#define S(i) (c->a[i].s)
#define N(i) (c->a[i].n)
#define FD(i) fd_of(r, &c->a[i])

static int fd_of(const struct run *r, const struct arg *a)
{
	return a->raw_fd ? (int)a->n : r->fds[a->n];
}

static long ok0(struct run *r, long res)
{
	if (res >= 0)
		fputs("0\n", r->out);
	return res;
}

static long oknum(struct run *r, long res)
{
	if (res >= 0)
		fprintf(r->out, "%ld\n", res);
	return res;
}

static long run_open(struct run *r, const struct call *c)
{
	return ok0(r, r->sys->openat(r->sc, AT_FDCWD, S(0), (int)N(1), (mode_t)N(2)));
}

static long run_openat(struct run *r, const struct call *c)
{
	return ok0(r, r->sys->openat(r->sc, FD(0), S(1), (int)N(2), (mode_t)N(3)));
}

static long run_create(struct run *r, const struct call *c)
{
	long fd = r->sys->openat(r->sc, AT_FDCWD, S(0), O_CREAT | O_EXCL, (mode_t)N(1));

	if (fd >= 0)
		r->sys->close(r->sc, (int)fd);
	return ok0(r, fd);
}

static long run_unlink(struct run *r, const struct call *c)
{
	return ok0(r, r->sys->unlinkat(r->sc, AT_FDCWD, S(0), 0));
}

static long run_unlinkat(struct run *r, const struct call *c)
{
	return ok0(r, r->sys->unlinkat(r->sc, FD(0), S(1), (int)N(2)));
}

static long run_mkdir(struct run *r, const struct call *c)
{
	return ok0(r, r->sys->mkdirat(r->sc, AT_FDCWD, S(0), (mode_t)N(1)));
}

static long run_mkdirat(struct run *r, const struct call *c)
{
	return ok0(r, r->sys->mkdirat(r->sc, FD(0), S(1), (mode_t)N(2)));
}

static long run_rmdir(struct run *r, const struct call *c)
{
	return ok0(r, r->sys->unlinkat(r->sc, AT_FDCWD, S(0), AT_REMOVEDIR));
}

static long run_link(struct run *r, const struct call *c)
{
	return ok0(r, r->sys->linkat(r->sc, AT_FDCWD, S(0), AT_FDCWD, S(1), 0));
}

static long run_linkat(struct run *r, const struct call *c)
{
	return ok0(r, r->sys->linkat(r->sc, FD(0), S(1), FD(2), S(3), (int)N(4)));
}

static long run_symlink(struct run *r, const struct call *c)
{
	return ok0(r, r->sys->symlinkat(r->sc, S(0), AT_FDCWD, S(1)));
}

static long run_symlinkat(struct run *r, const struct call *c)
{
	return ok0(r, r->sys->symlinkat(r->sc, S(0), FD(1), S(2)));
}

static long run_rename(struct run *r, const struct call *c)
{
	return ok0(r, r->sys->renameat2(r->sc, AT_FDCWD, S(0), AT_FDCWD, S(1), 0));
}

static long run_renameat(struct run *r, const struct call *c)
{
	return ok0(r, r->sys->renameat2(r->sc, FD(0), S(1), FD(2), S(3), 0));
}

static long run_renameat2(struct run *r, const struct call *c)
{
	return ok0(r, r->sys->renameat2(r->sc, FD(0), S(1), FD(2), S(3), (unsigned int)N(4)));
}

/* glibc's mkfifo is mknodat(S_IFIFO | mode). */
static long run_mkfifo(struct run *r, const struct call *c)
{
	return ok0(r, r->sys->mknodat(r->sc, AT_FDCWD, S(0), S_IFIFO | (mode_t)N(1), 0));
}

static long run_mkfifoat(struct run *r, const struct call *c)
{
	return ok0(r, r->sys->mknodat(r->sc, FD(0), S(1), S_IFIFO | (mode_t)N(2), 0));
}

/* pjdfstest's mknod: type letter | mode, makedev(major, minor). */
static long do_mknod(struct run *r, const struct call *c, int dfd, int i)
{
	dev_t dev = makedev((unsigned int)N(i + 2), (unsigned int)N(i + 3));

	/* glibc refuses what the syscall's 32-bit dev cannot carry. */
	if (dev > UINT32_MAX)
		return -EINVAL;
	return ok0(r, r->sys->mknodat(r->sc, dfd, S(i - 1), (mode_t)(N(i) | N(i + 1)), dev));
}

static long run_mknod(struct run *r, const struct call *c)
{
	return do_mknod(r, c, AT_FDCWD, 1);
}

static long run_mknodat(struct run *r, const struct call *c)
{
	return do_mknod(r, c, FD(0), 2);
}

static long run_bind(struct run *r, const struct call *c)
{
	return ok0(r, r->sys->bind(r->sc, S(0)));
}

static long run_connect(struct run *r, const struct call *c)
{
	return ok0(r, r->sys->connect(r->sc, S(0)));
}

static long run_chmod(struct run *r, const struct call *c)
{
	return ok0(r, r->sys->fchmodat(r->sc, AT_FDCWD, S(0), (mode_t)N(1), 0));
}

static long run_fchmod(struct run *r, const struct call *c)
{
	return ok0(r, r->sys->fchmod(r->sc, FD(0), (mode_t)N(1)));
}

/* glibc's lchmod is fchmodat(AT_SYMLINK_NOFOLLOW): EOPNOTSUPP on links. */
static long run_lchmod(struct run *r, const struct call *c)
{
	return ok0(r, r->sys->fchmodat(r->sc, AT_FDCWD, S(0), (mode_t)N(1), AT_SYMLINK_NOFOLLOW));
}

static long run_fchmodat(struct run *r, const struct call *c)
{
	return ok0(r, r->sys->fchmodat(r->sc, FD(0), S(1), (mode_t)N(2), (int)N(3)));
}

static long run_chown(struct run *r, const struct call *c)
{
	return ok0(r, r->sys->fchownat(r->sc, AT_FDCWD, S(0), (uid_t)N(1), (gid_t)N(2), 0));
}

static long run_fchown(struct run *r, const struct call *c)
{
	return ok0(r, r->sys->fchown(r->sc, FD(0), (uid_t)N(1), (gid_t)N(2)));
}

static long run_lchown(struct run *r, const struct call *c)
{
	return ok0(r, r->sys->fchownat(r->sc, AT_FDCWD, S(0), (uid_t)N(1), (gid_t)N(2),
				       AT_SYMLINK_NOFOLLOW));
}

static long run_fchownat(struct run *r, const struct call *c)
{
	return ok0(r, r->sys->fchownat(r->sc, FD(0), S(1), (uid_t)N(2), (gid_t)N(3), (int)N(4)));
}

static long run_truncate(struct run *r, const struct call *c)
{
	return ok0(r, r->sys->truncate(r->sc, S(0), (off_t)N(1)));
}

static long run_ftruncate(struct run *r, const struct call *c)
{
	return ok0(r, r->sys->ftruncate(r->sc, FD(0), (off_t)N(1)));
}

static long run_posix_fallocate(struct run *r, const struct call *c)
{
	return ok0(r, r->sys->fallocate(r->sc, FD(0), 0, (off_t)N(1), (off_t)N(2)));
}

static long put_stat_res(struct run *r, long res, const struct stat *st, const char *what)
{
	if (res >= 0)
		put_stat(r->out, st, what);
	return res;
}

static long run_stat(struct run *r, const struct call *c)
{
	struct stat st;

	return put_stat_res(r, r->sys->fstatat(r->sc, AT_FDCWD, S(0), &st, 0), &st, S(1));
}

static long run_lstat(struct run *r, const struct call *c)
{
	struct stat st;

	return put_stat_res(r, r->sys->fstatat(r->sc, AT_FDCWD, S(0), &st, AT_SYMLINK_NOFOLLOW),
			    &st, S(1));
}

static long run_fstat(struct run *r, const struct call *c)
{
	struct stat st;

	return put_stat_res(r, r->sys->fstat(r->sc, FD(0), &st), &st, S(1));
}

static long run_fstatat(struct run *r, const struct call *c)
{
	struct stat st;

	return put_stat_res(r, r->sys->fstatat(r->sc, FD(0), S(1), &st, (int)N(2)), &st, S(3));
}

static long put_pathconf(struct run *r, long res, long value)
{
	if (res < 0)
		return res;
	if (value == -1)
		fputs("unlimited\n", r->out);
	else
		fprintf(r->out, "%ld\n", value);
	return res;
}

static long run_pathconf(struct run *r, const struct call *c)
{
	long v = -1, res = r->sys->pathconf(r->sc, S(0), (int)N(1), &v);

	return put_pathconf(r, res, v);
}

static long run_fpathconf(struct run *r, const struct call *c)
{
	long v = -1, res = r->sys->fpathconf(r->sc, FD(0), (int)N(1), &v);

	return put_pathconf(r, res, v);
}

/* pjdfstest prints 0, not the byte count. */
static long run_write(struct run *r, const struct call *c)
{
	return ok0(r, r->sys->write(r->sc, FD(0), S(1), c->a[1].len));
}

static long run_utimensat(struct run *r, const struct call *c)
{
	struct timespec ts[2] = {
		{ .tv_sec = (time_t)N(2), .tv_nsec = (long)N(3) },
		{ .tv_sec = (time_t)N(4), .tv_nsec = (long)N(5) },
	};

	/* What glibc's wrapper answers before making the syscall. */
	if (!S(1))
		return -EINVAL;
	return ok0(r, r->sys->utimensat(r->sc, FD(0), S(1), ts, (int)N(6)));
}

static long run_futimens(struct run *r, const struct call *c)
{
	struct timespec ts[2] = {
		{ .tv_sec = (time_t)N(1), .tv_nsec = (long)N(2) },
		{ .tv_sec = (time_t)N(3), .tv_nsec = (long)N(4) },
	};

	return ok0(r, r->sys->utimensat(r->sc, FD(0), NULL, ts, 0));
}

static long run_close(struct run *r, const struct call *c)
{
	return ok0(r, r->sys->close(r->sc, FD(0)));
}

static long run_close_range(struct run *r, const struct call *c)
{
	return ok0(r, r->sys->close_range(r->sc, (unsigned int)N(0), (unsigned int)N(1),
					  (unsigned int)N(2)));
}

/* A count beyond the buffer is a backend bug: report it as EIO. */
static long put_data(struct run *r, long res, const char *buf, size_t size)
{
	if (res < 0)
		return res;
	if ((size_t)res > size)
		return -EIO;
	fprintf(r->out, "%ld", res);
	if (res > 0) {
		fputc(' ', r->out);
		put_escaped(r->out, buf, (size_t)res);
	}
	fputc('\n', r->out);
	return res;
}

static long run_read(struct run *r, const struct call *c)
{
	size_t n = (size_t)N(1);
	char *buf = malloc(n ? n : 1);
	long res;

	if (!buf)
		return -ENOMEM;
	res = put_data(r, r->sys->read(r->sc, FD(0), buf, n), buf, n);
	free(buf);
	return res;
}

static long run_pread(struct run *r, const struct call *c)
{
	size_t n = (size_t)N(1);
	char *buf = malloc(n ? n : 1);
	long res;

	if (!buf)
		return -ENOMEM;
	res = r->sys->pread64(r->sc, FD(0), buf, n, (off_t)N(2));
	res = put_data(r, res, buf, n);
	free(buf);
	return res;
}

static long run_pwrite(struct run *r, const struct call *c)
{
	return oknum(r, r->sys->pwrite64(r->sc, FD(0), S(1), c->a[1].len, (off_t)N(2)));
}

static long run_lseek(struct run *r, const struct call *c)
{
	return oknum(r, r->sys->lseek(r->sc, FD(0), (off_t)N(1), (int)N(2)));
}

static long run_dup(struct run *r, const struct call *c)
{
	return oknum(r, r->sys->dup(r->sc, FD(0)));
}

static long run_dup2(struct run *r, const struct call *c)
{
	return oknum(r, r->sys->dup2(r->sc, FD(0), (int)N(1)));
}

static long run_dup3(struct run *r, const struct call *c)
{
	return oknum(r, r->sys->dup3(r->sc, FD(0), (int)N(1), (int)N(2)));
}

static long run_fcntl(struct run *r, const struct call *c)
{
	int cmd = (int)N(1);
	long res = r->sys->fcntl(r->sc, FD(0), cmd, (unsigned long)N(2));

	if (res < 0)
		return res;
	switch (cmd) {
	case F_GETFD:
		put_flags(r->out, sys_fd_flags, res);
		fputc('\n', r->out);
		break;
	case F_GETFL:
		put_open_flags(r->out, res);
		fputc('\n', r->out);
		break;
	case F_SETFD:
	case F_SETFL:
		fputs("0\n", r->out);
		break;
	default:
		fprintf(r->out, "%ld\n", res);
		break;
	}
	return res;
}

static long run_access(struct run *r, const struct call *c)
{
	return ok0(r, r->sys->faccessat(r->sc, AT_FDCWD, S(0), (int)N(1), 0));
}

static long run_faccessat(struct run *r, const struct call *c)
{
	return ok0(r, r->sys->faccessat(r->sc, FD(0), S(1), (int)N(2), (int)N(3)));
}

static long put_link(struct run *r, long res, const char *buf, size_t size)
{
	if (res >= 0 && (size_t)res > size)
		return -EIO;
	if (res >= 0) {
		put_escaped(r->out, buf, (size_t)res);
		fputc('\n', r->out);
	}
	return res;
}

static long run_readlink(struct run *r, const struct call *c)
{
	size_t n = c->a[1].present ? (size_t)N(1) : PATH_MAX;
	char *buf = malloc(n ? n : 1);
	long res;

	if (!buf)
		return -ENOMEM;
	res = put_link(r, r->sys->readlinkat(r->sc, AT_FDCWD, S(0), buf, n), buf, n);
	free(buf);
	return res;
}

static long run_readlinkat(struct run *r, const struct call *c)
{
	size_t n = c->a[2].present ? (size_t)N(2) : PATH_MAX;
	char *buf = malloc(n ? n : 1);
	long res;

	if (!buf)
		return -ENOMEM;
	res = put_link(r, r->sys->readlinkat(r->sc, FD(0), S(1), buf, n), buf, n);
	free(buf);
	return res;
}

static long run_getcwd(struct run *r, const struct call *c)
{
	size_t n = c->a[0].present ? (size_t)N(0) : PATH_MAX;
	char *buf = malloc(n ? n : 1);
	long res;

	if (!buf)
		return -ENOMEM;
	res = r->sys->getcwd(r->sc, buf, n);
	/* The syscall counts the NUL. */
	if (res >= 0)
		res = put_link(r, res ? res - 1 : 0, buf, n);
	free(buf);
	return res;
}

static long run_chdir(struct run *r, const struct call *c)
{
	return ok0(r, r->sys->chdir(r->sc, S(0)));
}

static long run_fchdir(struct run *r, const struct call *c)
{
	return ok0(r, r->sys->fchdir(r->sc, FD(0)));
}

static long run_umask(struct run *r, const struct call *c)
{
	long res = r->sys->umask(r->sc, (mode_t)N(0));

	if (res >= 0)
		fprintf(r->out, "0%lo\n", (unsigned long)res);
	return res;
}

/* No syscall: the number a descriptor index stands for (BADFD is -1). */
static long run_fdnum(struct run *r, const struct call *c)
{
	fprintf(r->out, "%d\n", FD(0));
	return 0;
}

struct dent {
	char *name;
	unsigned char type;
};

static int dent_cmp(const void *a, const void *b)
{
	return strcmp(((const struct dent *)a)->name, ((const struct dent *)b)->name);
}

static const char *dtype_name(unsigned char t)
{
	switch (t) {
	case DT_FIFO:
		return "fifo";
	case DT_CHR:
		return "char";
	case DT_DIR:
		return "dir";
	case DT_BLK:
		return "block";
	case DT_REG:
		return "regular";
	case DT_LNK:
		return "symlink";
	case DT_SOCK:
		return "socket";
	case DT_WHT:
		return "whiteout";
	default:
		return "unknown";
	}
}

/*
 * Split one getdents64 buffer into @v.  Returns 0, or -EIO for records a
 * backend got wrong, so that a broken VFS shows up as a failure.
 */
static long collect_dents(const char *buf, long len, struct dent **v, size_t *n, size_t *cap)
{
	/* struct linux_dirent64: u64 ino, s64 off, u16 reclen, u8 type, name */
	const size_t hdr = 19;
	long pos = 0;

	while (pos < len) {
		unsigned short reclen;
		const char *name;

		if ((size_t)(len - pos) < hdr + 1)
			return -EIO;
		memcpy(&reclen, buf + pos + 16, sizeof(reclen));
		if (reclen < hdr + 1 || reclen > len - pos)
			return -EIO;
		name = buf + pos + hdr;
		if (!memchr(name, '\0', reclen - hdr))
			return -EIO;
		if (*n == *cap) {
			size_t ncap = *cap ? *cap * 2 : 64;
			struct dent *nv;

			if (ncap > MAX_DIRENTS)
				return -EIO;
			nv = realloc(*v, ncap * sizeof(*nv));
			if (!nv)
				return -ENOMEM;
			*v = nv;
			*cap = ncap;
		}
		(*v)[*n].name = strdup(name);
		if (!(*v)[*n].name)
			return -ENOMEM;
		(*v)[*n].type = (unsigned char)buf[pos + 18];
		(*n)++;
		pos += reclen;
	}
	return 0;
}

static long run_getdents(struct run *r, const struct call *c)
{
	size_t size = c->a[1].present ? (size_t)N(1) : 32768;
	char *buf = malloc(size ? size : 1);
	struct dent *v = NULL;
	size_t n = 0, cap = 0;
	long res;

	if (!buf)
		return -ENOMEM;
	for (;;) {
		res = r->sys->getdents64(r->sc, FD(0), buf, size);
		if (res <= 0)
			break;
		if (res > (long)size) {
			res = -EIO;
			break;
		}
		res = collect_dents(buf, res, &v, &n, &cap);
		if (res < 0)
			break;
	}
	if (res == 0) {
		if (n)
			qsort(v, n, sizeof(*v), dent_cmp);
		for (size_t i = 0; i < n; i++) {
			if (i)
				fputc(',', r->out);
			put_escaped(r->out, v[i].name, strlen(v[i].name));
			fprintf(r->out, ":%s", dtype_name(v[i].type));
		}
		fputc('\n', r->out);
	}
	for (size_t i = 0; i < n; i++)
		free(v[i].name);
	free(v);
	free(buf);
	return res;
}

static bool check_open(struct call *c, const struct tok *tail, struct diag *d);
static bool check_fcntl(struct call *c, const struct tok *tail, struct diag *d);

#define NEED(m) (SYS_NR_##m + 1)
/* The commands vfslab's fcntl implements. */
#define FCNTL_CMDS "F_DUPFD,F_DUPFD_CLOEXEC,F_GETFD,F_SETFD,F_GETFL,F_SETFL"

static const struct cmd cmds[] = {
	/* pjdfstest */
	{ .name = "open",
	  .args = "pfn?",
	  .run = run_open,
	  .flags = CMD_ADDS_FD,
	  .flags1 = { sys_open_flags },
	  .need = NEED(openat),
	  .check = check_open },
	{ .name = "openat",
	  .args = "dpfn?",
	  .run = run_openat,
	  .flags = CMD_ADDS_FD,
	  .flags1 = { sys_open_flags },
	  .need = NEED(openat),
	  .check = check_open },
	{ .name = "create", .args = "pn", .run = run_create, .need = NEED(openat) },
	{ .name = "unlink", .args = "p", .run = run_unlink, .need = NEED(unlinkat) },
	{ .name = "unlinkat",
	  .args = "dpf",
	  .run = run_unlinkat,
	  .flags1 = { sys_at_flags, "AT_REMOVEDIR" },
	  .need = NEED(unlinkat) },
	{ .name = "mkdir", .args = "pn", .run = run_mkdir, .need = NEED(mkdirat) },
	{ .name = "mkdirat", .args = "dpn", .run = run_mkdirat, .need = NEED(mkdirat) },
	{ .name = "rmdir", .args = "p", .run = run_rmdir, .need = NEED(unlinkat) },
	{ .name = "link", .args = "pp", .run = run_link, .need = NEED(linkat) },
	{ .name = "linkat",
	  .args = "dpdpf",
	  .run = run_linkat,
	  .flags1 = { sys_at_flags, "AT_SYMLINK_FOLLOW,AT_EMPTY_PATH" },
	  .need = NEED(linkat) },
	{ .name = "symlink", .args = "pp", .run = run_symlink, .need = NEED(symlinkat) },
	{ .name = "symlinkat", .args = "pdp", .run = run_symlinkat, .need = NEED(symlinkat) },
	{ .name = "rename", .args = "pp", .run = run_rename, .need = NEED(renameat2) },
	{ .name = "renameat", .args = "dpdp", .run = run_renameat, .need = NEED(renameat2) },
	{ .name = "mkfifo", .args = "pn", .run = run_mkfifo, .need = NEED(mknodat) },
	{ .name = "mkfifoat", .args = "dpn", .run = run_mkfifoat, .need = NEED(mknodat) },
	{ .name = "mknod",
	  .args = "pknnn",
	  .run = run_mknod,
	  .names = { mknod_types },
	  .need = NEED(mknodat) },
	{ .name = "mknodat",
	  .args = "dpknnn",
	  .run = run_mknodat,
	  .names = { mknod_types },
	  .need = NEED(mknodat) },
	{ .name = "bind", .args = "s", .run = run_bind, .need = NEED(bind) },
	{ .name = "connect", .args = "s", .run = run_connect, .need = NEED(connect) },
	{ .name = "chmod", .args = "pn", .run = run_chmod, .need = NEED(fchmodat) },
	{ .name = "fchmod", .args = "dn", .run = run_fchmod, .need = NEED(fchmod) },
	{ .name = "lchmod", .args = "pn", .run = run_lchmod, .need = NEED(fchmodat) },
	{ .name = "fchmodat",
	  .args = "dpnf",
	  .run = run_fchmodat,
	  .flags1 = { sys_at_flags, "AT_SYMLINK_NOFOLLOW,AT_EMPTY_PATH" },
	  .need = NEED(fchmodat) },
	{ .name = "chown", .args = "pnn", .run = run_chown, .need = NEED(fchownat) },
	{ .name = "fchown", .args = "dnn", .run = run_fchown, .need = NEED(fchown) },
	{ .name = "lchown", .args = "pnn", .run = run_lchown, .need = NEED(fchownat) },
	{ .name = "fchownat",
	  .args = "dpnnf",
	  .run = run_fchownat,
	  .flags1 = { sys_at_flags, "AT_SYMLINK_NOFOLLOW,AT_EMPTY_PATH" },
	  .need = NEED(fchownat) },
	{ .name = "truncate", .args = "pn", .run = run_truncate, .need = NEED(truncate) },
	{ .name = "ftruncate", .args = "dn", .run = run_ftruncate, .need = NEED(ftruncate) },
	{ .name = "posix_fallocate",
	  .args = "dnn",
	  .run = run_posix_fallocate,
	  .need = NEED(fallocate) },
	{ .name = "stat", .args = "ps", .run = run_stat, .need = NEED(fstatat) },
	{ .name = "fstat", .args = "ds", .run = run_fstat, .need = NEED(fstat) },
	{ .name = "lstat", .args = "ps", .run = run_lstat, .need = NEED(fstatat) },
	{ .name = "fstatat",
	  .args = "dpfs",
	  .run = run_fstatat,
	  .flags1 = { sys_at_flags, "AT_SYMLINK_NOFOLLOW,AT_EMPTY_PATH" },
	  .need = NEED(fstatat) },
	{ .name = "pathconf",
	  .args = "pk",
	  .run = run_pathconf,
	  .names = { sys_pathconf_names },
	  .need = NEED(pathconf) },
	{ .name = "fpathconf",
	  .args = "dk",
	  .run = run_fpathconf,
	  .names = { sys_pathconf_names },
	  .need = NEED(fpathconf) },
	{ .name = "write", .args = "ds", .run = run_write, .need = NEED(write) },
	{ .name = "utimensat",
	  .args = "dpntntf",
	  .run = run_utimensat,
	  .flags1 = { sys_at_flags, "AT_SYMLINK_NOFOLLOW" },
	  .need = NEED(utimensat) },
	/* vfslab extensions */
	{ .name = "close", .args = "d", .run = run_close, .need = NEED(close) },
	{ .name = "close_range",
	  .args = "nnf",
	  .run = run_close_range,
	  .flags1 = { sys_close_range_flags },
	  .need = NEED(close_range) },
	{ .name = "read", .args = "dz", .run = run_read, .need = NEED(read) },
	{ .name = "pread", .args = "dzn", .run = run_pread, .need = NEED(pread64) },
	{ .name = "pwrite", .args = "dsn", .run = run_pwrite, .need = NEED(pwrite64) },
	{ .name = "lseek",
	  .args = "dne",
	  .run = run_lseek,
	  .names = { sys_seek_whences },
	  .need = NEED(lseek) },
	{ .name = "dup", .args = "d", .run = run_dup, .flags = CMD_ADDS_FD, .need = NEED(dup) },
	{ .name = "dup2", .args = "dn", .run = run_dup2, .flags = CMD_ADDS_FD, .need = NEED(dup2) },
	{ .name = "dup3",
	  .args = "dnf",
	  .run = run_dup3,
	  .flags = CMD_ADDS_FD,
	  .flags1 = { sys_open_flags, "O_CLOEXEC" },
	  .need = NEED(dup3) },
	{ .name = "fcntl",
	  .args = "de",
	  .run = run_fcntl,
	  .flags = CMD_TAIL,
	  .names = { sys_fcntl_cmds, FCNTL_CMDS },
	  .need = NEED(fcntl),
	  .check = check_fcntl },
	{ .name = "access",
	  .args = "pf",
	  .run = run_access,
	  .flags1 = { sys_access_modes },
	  .need = NEED(faccessat) },
	{ .name = "faccessat",
	  .args = "dpfg",
	  .run = run_faccessat,
	  .flags1 = { sys_access_modes },
	  .flags2 = { sys_at_flags, "AT_EACCESS,AT_SYMLINK_NOFOLLOW,AT_EMPTY_PATH" },
	  .need = NEED(faccessat) },
	{ .name = "readlink", .args = "pz?", .run = run_readlink, .need = NEED(readlinkat) },
	{ .name = "readlinkat", .args = "dpz?", .run = run_readlinkat, .need = NEED(readlinkat) },
	{ .name = "renameat2",
	  .args = "dpdpf",
	  .run = run_renameat2,
	  .flags1 = { sys_rename_flags },
	  .need = NEED(renameat2) },
	{ .name = "getcwd", .args = "z?", .run = run_getcwd, .need = NEED(getcwd) },
	{ .name = "chdir", .args = "p", .run = run_chdir, .need = NEED(chdir) },
	{ .name = "fchdir", .args = "d", .run = run_fchdir, .need = NEED(fchdir) },
	{ .name = "umask", .args = "n", .run = run_umask, .need = NEED(umask) },
	{ .name = "getdents", .args = "dz?", .run = run_getdents, .need = NEED(getdents64) },
	{ .name = "futimens", .args = "dntnt", .run = run_futimens, .need = NEED(utimensat) },
	{ .name = "fdnum", .args = "d", .run = run_fdnum },
};
#undef NEED

static const struct cmd *find_cmd(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(cmds); i++)
		if (strcmp(cmds[i].name, name) == 0)
			return &cmds[i];
	return NULL;
}

/* ---- tokenizer ---- */

struct tok {
	char *s;
	size_t len;
	bool quoted; /* some part was quoted: NULL, DEADCODE, ':' are literal */
};

struct toks {
	struct tok *v;
	int n, cap;
};

struct sbuf {
	char *s;
	size_t len, cap;
};

static bool sb_add(struct sbuf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > MAX_TOKEN)
		return false;
	if (b->len + n + 1 > b->cap) {
		size_t cap = b->cap ? b->cap : 64;
		char *ns;

		while (cap < b->len + n + 1)
			cap *= 2;
		ns = realloc(b->s, cap);
		if (!ns)
			return false;
		b->s = ns;
		b->cap = cap;
	}
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
	return true;
}

static void toks_free(struct toks *t)
{
	for (int i = 0; i < t->n; i++)
		free(t->v[i].s);
	free(t->v);
	t->v = NULL;
	t->n = t->cap = 0;
}

static bool toks_push(struct toks *t, struct sbuf *b, bool quoted)
{
	if (t->n == t->cap) {
		int cap = t->cap ? t->cap * 2 : 16;
		struct tok *nv = realloc(t->v, (size_t)cap * sizeof(*nv));

		if (!nv)
			return false;
		t->v = nv;
		t->cap = cap;
	}
	if (!b->s && !sb_add(b, "", 0))
		return false;
	t->v[t->n].s = b->s;
	t->v[t->n].len = b->len;
	t->v[t->n].quoted = quoted;
	t->n++;
	b->s = NULL;
	b->len = b->cap = 0;
	return true;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static bool too_long(struct diag *d)
{
	set_diag(d, "out of memory or word longer than %u bytes", MAX_TOKEN);
	return false;
}

/*
 * If @s (up to @end) opens `{N*TEXT}`, append TEXT N times and return
 * the length consumed; 0 if it is no such thing, -1 on overflow.
 */
static long add_repeat(struct sbuf *b, const char *s, const char *end)
{
	const char *close = memchr(s, '}', (size_t)(end - s));
	const char *star = close ? memchr(s, '*', (size_t)(close - s)) : NULL;
	unsigned long count = 0;
	const char *p;

	if (!star || star == s + 1 || star + 1 == close)
		return 0;
	for (p = s + 1; p < star && isdigit((unsigned char)*p); p++) {
		count = count * 10 + (unsigned long)(*p - '0');
		if (count > MAX_TOKEN)
			return 0;
	}
	if (p != star)
		return 0;
	while (count--)
		if (!sb_add(b, star + 1, (size_t)(close - star - 1)))
			return -1;
	return close + 1 - s;
}

/*
 * An unquoted run of text: `{N*TEXT}` stands for TEXT repeated N times
 * (long names without kilobyte-long lines); other text is literal.
 */
static bool add_unquoted(struct sbuf *b, const char *s, size_t n, struct diag *d)
{
	const char *end = s + n;

	while (s < end) {
		const char *open = memchr(s, '{', (size_t)(end - s));
		long used;

		if (!open)
			return sb_add(b, s, (size_t)(end - s)) || too_long(d);
		if (!sb_add(b, s, (size_t)(open - s)))
			return too_long(d);
		used = add_repeat(b, open, end);
		if (used < 0)
			return too_long(d);
		if (!used && !sb_add(b, "{", 1))
			return too_long(d);
		s = open + (used ? used : 1);
	}
	return true;
}

/* A "..." string at *@pp: \\ \" \n \t \r \xHH are its escapes. */
static bool add_double(struct sbuf *b, const char **pp, struct diag *d)
{
	const char *p = *pp + 1;

	for (; *p && *p != '"'; p++) {
		char ch = *p;
		int hi, lo;

		if (ch == '\\') {
			switch (*++p) {
			case '\\':
			case '"':
				ch = *p;
				break;
			case 'n':
				ch = '\n';
				break;
			case 't':
				ch = '\t';
				break;
			case 'r':
				ch = '\r';
				break;
			case 'x':
				hi = hexval(p[1]);
				lo = hi < 0 ? -1 : hexval(p[2]);
				if (lo < 0) {
					set_diag(d, "bad \\x escape");
					return false;
				}
				ch = (char)(hi * 16 + lo);
				p += 2;
				break;
			default:
				set_diag(d, "unknown escape '\\%c'", *p ? *p : ' ');
				return false;
			}
		}
		if (!sb_add(b, &ch, 1))
			return too_long(d);
	}
	if (*p != '"') {
		set_diag(d, "unterminated \"");
		return false;
	}
	*pp = p + 1;
	return true;
}

/*
 * Split a line into words: blanks separate, '...' is literal, "..." has
 * escapes, and an unquoted word starting with '#' starts a comment.
 */
static bool tokenize(const char *line, struct toks *t, struct diag *d)
{
	const char *p = line;
	struct sbuf b = { 0 };

	for (;;) {
		bool quoted = false;

		while (isspace((unsigned char)*p))
			p++;
		if (!*p || *p == '#')
			return true;
		while (*p && !isspace((unsigned char)*p)) {
			const char *e;
			size_t n;

			if (*p == '"') {
				if (!add_double(&b, &p, d))
					goto fail;
				quoted = true;
			} else if (*p == '\'') {
				e = strchr(p + 1, '\'');
				if (!e) {
					set_diag(d, "unterminated '");
					goto fail;
				}
				if (!sb_add(&b, p + 1, (size_t)(e - p - 1))) {
					too_long(d);
					goto fail;
				}
				quoted = true;
				p = e + 1;
			} else {
				n = strcspn(p, "'\" \t\n\r\v\f");
				if (!add_unquoted(&b, p, n, d))
					goto fail;
				p += n;
			}
		}
		if (!toks_push(t, &b, quoted)) {
			too_long(d);
			goto fail;
		}
	}
fail:
	free(b.s);
	return false;
}

/* ---- parser ---- */

static bool tok_is(const struct tok *t, const char *s)
{
	return !t->quoted && strcmp(t->s, s) == 0;
}

static bool parse_groups(const char *s, struct fstest_cred *cred, struct diag *d)
{
	const char *p = s;

	cred->ngroups = 0;
	while (*p) {
		size_t n = strcspn(p, ",");
		char word[32];
		long long v;

		if (n) {
			if (cred->ngroups == FSTEST_MAX_GROUPS) {
				set_diag(d, "-g: more than %d groups", FSTEST_MAX_GROUPS);
				return false;
			}
			snprintf(word, sizeof(word), "%.*s",
				 (int)(n < sizeof(word) ? n : sizeof(word) - 1), p);
			if (n >= sizeof(word) || !parse_ll(word, 0, &v) || v < 0 ||
			    v > UINT32_MAX - 1) {
				set_diag(d, "-g: invalid gid '%.*s'", (int)n, p);
				return false;
			}
			cred->groups[cred->ngroups++] = (gid_t)v;
		}
		p += n;
		if (*p == ',')
			p++;
	}
	if (!cred->ngroups) {
		set_diag(d, "-g: no gid given");
		return false;
	}
	cred->has_groups = true;
	cred->gid = cred->groups[0];
	return true;
}

/* pjdfstest's options; they end at the first word not starting with '-'. */
static int parse_options(struct toks *t, struct fstest_cred *cred, struct diag *d)
{
	int i = 0;

	memset(cred, 0, sizeof(*cred));
	while (i < t->n && !t->v[i].quoted && t->v[i].s[0] == '-') {
		const char *o = t->v[i].s, *val;
		long long v;

		if (strcmp(o, "--") == 0)
			return i + 1;
		if (strlen(o) < 2 || !strchr("Uug", o[1])) {
			set_diag(d, "unknown option '%s'", o);
			return -1;
		}
		if (o[2]) {
			val = o + 2;
		} else if (i + 1 < t->n) {
			val = t->v[++i].s;
		} else {
			set_diag(d, "option -%c needs a value", o[1]);
			return -1;
		}
		i++;
		if (o[1] == 'g') {
			if (!parse_groups(val, cred, d))
				return -1;
			continue;
		}
		if (!parse_ll(val, 0, &v) || v < -1 || v > UINT32_MAX - 1) {
			set_diag(d, "invalid %s '%s' - number expected",
				 o[1] == 'u' ? "uid" : "umask", val);
			return -1;
		}
		if (o[1] == 'u') {
			/* pjdfstest takes -1 as "no -u". */
			cred->has_uid = v != -1;
			cred->uid = (uid_t)v;
		} else {
			if (v < 0) {
				set_diag(d, "invalid umask '%s'", val);
				return -1;
			}
			cred->has_umask = true;
			cred->umask = (mode_t)v;
		}
	}
	return i;
}

static bool parse_fd(const struct tok *t, struct arg *a, int nfds, struct diag *d)
{
	long long v;

	if (tok_is(t, "AT_FDCWD")) {
		a->n = AT_FDCWD;
		a->raw_fd = true;
		return true;
	}
	if (tok_is(t, "BADFD")) {
		a->n = -1;
		a->raw_fd = true;
		return true;
	}
	/* "=N" names fd number N itself (ours). */
	if (!t->quoted && t->s[0] == '=') {
		if (!parse_ll(t->s + 1, 0, &v) || v < INT_MIN || v > INT_MAX) {
			set_diag(d, "invalid fd number '%s'", t->s);
			return false;
		}
		a->n = v;
		a->raw_fd = true;
		return true;
	}
	if (!parse_ll(t->s, 0, &v)) {
		set_diag(d, "descriptor index expected, got '%s'", t->s);
		return false;
	}
	if (v < 0 || v >= nfds) {
		set_diag(d, "invalid descriptor %lld (%d opened before it)", v, nfds);
		return false;
	}
	a->n = v;
	return true;
}

static bool parse_arg(const struct cmd *cmd, char type, const struct tok *t, struct arg *a,
		      int nfds, struct diag *d)
{
	static const struct names utime = { sys_utime_nsec };
	const struct sys_name *f;

	a->present = true;
	a->s = t->s;
	a->len = t->len;
	switch (type) {
	case 'p':
		if (tok_is(t, "NULL"))
			a->s = NULL;
		else if (tok_is(t, "DEADCODE"))
			a->s = FSTEST_BAD_PTR;
		return true;
	case 's':
		return true;
	case 'n':
		if (parse_ll(t->s, 0, &a->n))
			return true;
		set_diag(d, "number expected, got '%s'", t->s);
		return false;
	case 'z':
		if (parse_ll(t->s, 0, &a->n) && a->n >= 0 && a->n <= MAX_IO)
			return true;
		set_diag(d, "size 0..%u expected, got '%s'", MAX_IO, t->s);
		return false;
	case 'd':
		return parse_fd(t, a, nfds, d);
	case 'f':
		return parse_flags(&cmd->flags1, t->s, &a->n, d);
	case 'g':
		return parse_flags(&cmd->flags2, t->s, &a->n, d);
	case 'e':
	case 'k':
		f = find_name(&cmd->names, t->s);
		if (f) {
			a->n = f->value;
			return true;
		}
		if (type == 'e' && parse_ll(t->s, 0, &a->n))
			return true;
		set_diag(d, "unknown name '%s'", t->s);
		return false;
	case 't':
		f = find_name(&utime, t->s);
		if (f) {
			a->n = f->value;
			return true;
		}
		if (parse_ll(t->s, 10, &a->n))
			return true;
		set_diag(d, "nanoseconds expected, got '%s'", t->s);
		return false;
	}
	return false;
}

/* pjdfstest wants a mode exactly when the file may be created. */
static bool check_open(struct call *c, const struct tok *tail, struct diag *d)
{
	int fi = c->cmd->run == run_open ? 1 : 2;
	long long fl = c->a[fi].n;
	bool need_mode = (fl & O_CREAT) || (fl & O_TMPFILE) == O_TMPFILE;

	(void)tail;
	if (need_mode && !c->a[fi + 1].present) {
		set_diag(d, "too few arguments (mode needed)");
		return false;
	}
	if (!need_mode && c->a[fi + 1].present) {
		set_diag(d, "too many arguments (mode without O_CREAT)");
		return false;
	}
	return true;
}

/* fcntl's third word: open flags, FD_CLOEXEC or a number, per command. */
static bool check_fcntl(struct call *c, const struct tok *tail, struct diag *d)
{
	static const struct names open_flags = { sys_open_flags }, fd_flags = { sys_fd_flags };
	long long cmd = c->a[1].n;
	struct arg *a = &c->a[2];
	struct diag sub;
	bool ok;

	c->adds_fd = cmd == F_DUPFD || cmd == F_DUPFD_CLOEXEC;
	if (!tail)
		return true;
	a->present = true;
	if (cmd == F_SETFL) {
		ok = parse_flags(&open_flags, tail->s, &a->n, &sub);
	} else if (cmd == F_SETFD) {
		ok = parse_flags(&fd_flags, tail->s, &a->n, &sub);
	} else {
		ok = parse_ll(tail->s, 0, &a->n);
		set_diag(&sub, "number expected, got '%s'", tail->s);
	}
	if (!ok)
		set_diag(d, "argument 3: %s", sub.msg);
	return ok;
}

static bool parse_call(const struct fstest_backend *be, struct toks *t, int start, int end,
		       int nfds, struct call *c, struct diag *d)
{
	const struct tok *name = &t->v[start], *tail = NULL;
	const struct cmd *cmd = name->quoted ? NULL : find_cmd(name->s);
	const char *spec;
	int i = start + 1, k = 0;
	struct diag sub;

	memset(c, 0, sizeof(*c));
	if (!cmd) {
		set_diag(d, "syscall '%s' not supported", name->s);
		return false;
	}
	c->cmd = cmd;
	for (spec = cmd->args; *spec && *spec != '?'; spec++, k++) {
		if (i >= end) {
			if (spec[1] == '?')
				break;
			set_diag(d, "%s: too few arguments", cmd->name);
			return false;
		}
		if (!parse_arg(cmd, *spec, &t->v[i], &c->a[k], nfds, &sub)) {
			set_diag(d, "%s: argument %d: %s", cmd->name, k + 1, sub.msg);
			return false;
		}
		i++;
	}
	if ((cmd->flags & CMD_TAIL) && i < end)
		tail = &t->v[i++];
	if (i < end) {
		set_diag(d, "%s: too many arguments [%s]", cmd->name, t->v[i].s);
		return false;
	}
	c->adds_fd = cmd->flags & CMD_ADDS_FD;
	if (cmd->check && !cmd->check(c, tail, &sub)) {
		set_diag(d, "%s: %s", cmd->name, sub.msg);
		return false;
	}
	if (cmd->need && !sys_ops_has(be->sys, (enum sys_nr)(cmd->need - 1))) {
		set_diag(d, "%s: not supported by the %s backend", cmd->name, be->name);
		return false;
	}
	return true;
}

static bool parse_line(const struct fstest_backend *be, struct toks *t, struct line *ln,
		       struct diag *d)
{
	int i, nfds = 0, ncalls = 1;

	memset(ln, 0, sizeof(*ln));
	if (tok_is(&t->v[0], "cd")) {
		if (t->n != 2) {
			set_diag(d, "cd: exactly one directory expected");
			return false;
		}
		ln->is_cd = true;
		ln->cd_path = t->v[1].s;
		return true;
	}
	i = parse_options(t, &ln->cred, d);
	if (i < 0)
		return false;
	if (i >= t->n) {
		set_diag(d, "too few arguments: no syscall");
		return false;
	}
	for (int k = i; k < t->n; k++)
		if (tok_is(&t->v[k], ":"))
			ncalls++;
	ln->calls = calloc((size_t)ncalls, sizeof(*ln->calls));
	if (!ln->calls) {
		set_diag(d, "out of memory");
		return false;
	}
	while (i <= t->n) {
		int end = i;

		while (end < t->n && !tok_is(&t->v[end], ":"))
			end++;
		if (end == i) {
			set_diag(d, "empty call %s ':'", i == t->n ? "after" : "before");
			return false;
		}
		if (!parse_call(be, t, i, end, nfds, &ln->calls[ln->ncalls], d))
			return false;
		if (ln->calls[ln->ncalls].adds_fd)
			nfds++;
		ln->ncalls++;
		i = end + 1;
	}
	return true;
}

/* ---- execution ---- */

/* Run a parsed chain in the current process.  Returns 0, or 1 on trouble. */
static int exec_chain(const struct fstest_backend *be, void *ctx, const struct line *ln, FILE *out,
		      FILE *err, const char *name, unsigned long lineno)
{
	struct run r = { .sys = be->sys, .sc = be->sys_ctx(ctx), .out = out };
	char msg[128];
	int res;

	r.fds = calloc((size_t)ln->ncalls, sizeof(*r.fds));
	if (!r.fds) {
		report(err, name, lineno, "out of memory");
		return 1;
	}
	res = be->begin(ctx, &ln->cred);
	if (res < 0) {
		snprintf(msg, sizeof(msg), "cannot start the invocation: %s", strerror(-res));
		report(err, name, lineno, msg);
		free(r.fds);
		return 1;
	}
	for (int i = 0; i < ln->ncalls; i++) {
		const struct call *c = &ln->calls[i];
		long ret = c->cmd->run(&r, c);

		if (ret < 0) {
			/* Like pjdfstest: print the error, run nothing more. */
			fprintf(out, "%s\n", fstest_strerror(ret < -INT_MAX ? INT_MAX : (int)-ret));
			break;
		}
		if (c->adds_fd)
			r.fds[r.nfds++] = (int)ret;
	}
	be->end(ctx);
	free(r.fds);
	return 0;
}

struct child_buf {
	size_t out_len, err_len;
	bool out_trunc, err_trunc;
	char out[CHILD_OUT_SIZE];
	char err[CHILD_ERR_SIZE];
};

static size_t child_stream_done(FILE *f, bool *trunc)
{
	long pos;

	*trunc = fflush(f) != 0 || ferror(f);
	pos = ftell(f);
	fclose(f);
	return pos > 0 ? (size_t)pos : 0;
}

/*
 * Run the chain in a forked child, as pjdfstest runs in a process of its
 * own.  The child's output comes back through shared memory, not a pipe,
 * so the child's fd table holds nothing of ours.
 */
static int fork_chain(const struct fstest_backend *be, void *ctx, const struct line *ln, FILE *out,
		      FILE *err, const char *name, unsigned long lineno)
{
	struct child_buf *cb;
	char msg[128];
	int status, rc = 0;
	pid_t pid;

	cb = mmap(NULL, sizeof(*cb), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (cb == MAP_FAILED) {
		report(err, name, lineno, "cannot map the child's buffer");
		return 1;
	}
	fflush(out);
	fflush(err);
	pid = fork();
	if (pid < 0) {
		report(err, name, lineno, "fork failed");
		munmap(cb, sizeof(*cb));
		return 1;
	}
	if (pid == 0) {
		FILE *o = fmemopen(cb->out, sizeof(cb->out), "w");
		FILE *e = fmemopen(cb->err, sizeof(cb->err), "w");

		if (!o || !e)
			_exit(2);
		/* A write to a pipe nobody reads is EPIPE, not death. */
		signal(SIGPIPE, SIG_IGN);
		rc = exec_chain(be, ctx, ln, o, e, name, lineno);
		cb->out_len = child_stream_done(o, &cb->out_trunc);
		cb->err_len = child_stream_done(e, &cb->err_trunc);
		_exit(rc);
	}
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			report(err, name, lineno, "waitpid failed");
			munmap(cb, sizeof(*cb));
			return 1;
		}
	}
	fwrite(cb->out, 1, cb->out_len, out);
	fwrite(cb->err, 1, cb->err_len, err);
	if (WIFSIGNALED(status)) {
		snprintf(msg, sizeof(msg), "child killed by signal %d%s", WTERMSIG(status),
			 WTERMSIG(status) == SIGALRM ? " (timed out)" : "");
		report(err, name, lineno, msg);
		rc = 1;
	} else if (WEXITSTATUS(status) != 0) {
		if (WEXITSTATUS(status) == 2)
			report(err, name, lineno, "child could not start");
		rc = 1;
	}
	if (cb->out_trunc || cb->err_trunc) {
		report(err, name, lineno, "output truncated");
		rc = 1;
	}
	munmap(cb, sizeof(*cb));
	return rc;
}

static int run_tokens(const struct fstest_backend *be, void *ctx, struct toks *t, FILE *out,
		      FILE *err, const char *name, unsigned long lineno)
{
	struct line ln;
	struct diag d;
	int rc;

	if (!t->n)
		return 0;
	if (!parse_line(be, t, &ln, &d)) {
		report(err, name, lineno, d.msg);
		free(ln.calls);
		return 1;
	}
	if (!be->begin || !be->end || !be->cd) {
		report(err, name, lineno, "backend without begin, end or cd");
		free(ln.calls);
		return 1;
	}
	if (ln.is_cd) {
		rc = be->cd(ctx, ln.cd_path);
		if (rc < 0) {
			snprintf(d.msg, sizeof(d.msg), "cd %s: %s", ln.cd_path,
				 fstest_strerror(-rc));
			report(err, name, lineno, d.msg);
			return 1;
		}
		return 0;
	}
	if (be->fork_per_line) {
		rc = fork_chain(be, ctx, &ln, out, err, name, lineno);
	} else {
		rc = exec_chain(be, ctx, &ln, out, err, name, lineno);
		/* Should the VFS crash, what it printed so far is kept. */
		fflush(out);
	}
	free(ln.calls);
	return rc;
}

int fstest_run_line(const struct fstest_backend *be, void *ctx, const char *line, FILE *out,
		    FILE *err, const char *name, unsigned long lineno)
{
	struct toks t = { 0 };
	struct diag d;
	int rc;

	if (!tokenize(line, &t, &d)) {
		report(err, name, lineno, d.msg);
		toks_free(&t);
		return 1;
	}
	rc = run_tokens(be, ctx, &t, out, err, name, lineno);
	toks_free(&t);
	return rc;
}

int fstest_run_argv(const struct fstest_backend *be, void *ctx, int argc, char *const argv[],
		    FILE *out, FILE *err)
{
	struct toks t = { 0 };
	int rc = 1;

	for (int i = 0; i < argc; i++) {
		struct sbuf b = { 0 };

		if (!sb_add(&b, argv[i], strlen(argv[i])) || !toks_push(&t, &b, false)) {
			free(b.s);
			report(err, "fstest", 0, "out of memory");
			goto out;
		}
	}
	if (!t.n) {
		report(err, "fstest", 0, "too few arguments: no syscall");
		goto out;
	}
	rc = run_tokens(be, ctx, &t, out, err, "fstest", 0);
out:
	toks_free(&t);
	return rc;
}

int fstest_run(const struct fstest_backend *be, void *ctx, FILE *in, FILE *out, FILE *err,
	       const char *name)
{
	char *line = NULL;
	size_t cap = 0;
	unsigned long lineno = 0;
	int bad = 0;

	while (getline(&line, &cap, in) >= 0) {
		lineno++;
		bad += fstest_run_line(be, ctx, line, out, err, name, lineno);
	}
	free(line);
	if (ferror(in)) {
		report(err, name, lineno + 1, "read error");
		return -1;
	}
	fflush(out);
	return bad;
}
