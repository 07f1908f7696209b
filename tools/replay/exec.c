// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * One logged call, executed on a vfslab task or on the host, with the log's
 * descriptor numbers translated through an fd map. The map is what keeps a
 * replay aligned when numbers differ (a stream's inherited fds reopened at
 * other numbers, or a vfslab bug): every fd argument goes through it, every
 * fd a call creates goes into it, and a log fd that is not in it becomes
 * RP_BADFD, so the host side never touches a descriptor it did not open.
 *
 * Calls vfslab has no syscall for are emulated with the nearest one that
 * walks the same path: statx as fstatat, faccessat2 as faccessat, readv and
 * writev as read and write of the iovecs' total, execve as faccessat(X_OK)
 * followed by exec's effect on the fd table (unshare, close-on-exec).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "tools/bench/sysops.h"
#include "tools/replay/replay.h"
#include "tools/replay/sys.h"
#include "vfs/vfs.h"

/* ---- the fd map ---- */

struct rp_fdmap *rp_fdmap_new(void)
{
	struct rp_fdmap *m = calloc(1, sizeof(*m));

	if (m)
		m->refs = 1;
	return m;
}

struct rp_fdmap *rp_fdmap_copy(const struct rp_fdmap *m)
{
	struct rp_fdmap *n = rp_fdmap_new();

	if (!n)
		return NULL;
	for (int i = 0; i < m->nr; i++)
		if (m->e[i].real >= 0)
			rp_fdmap_set(n, i, m->e[i].real, m->e[i].flags, m->e[i].oflags,
				     m->e[i].path);
	return n;
}

void rp_fdmap_put(struct rp_fdmap *m)
{
	if (!m || --m->refs)
		return;
	for (int i = 0; i < m->nr; i++)
		free(m->e[i].path);
	free(m->e);
	free(m);
}

void rp_fdmap_set(struct rp_fdmap *m, long logfd, int real, unsigned char flags, int oflags,
		  const char *path)
{
	struct rp_fdent *e;

	if (logfd < 0 || logfd >= RP_BADFD)
		return;
	if (logfd >= m->nr) {
		int nr = m->nr ? m->nr : 64;

		while (nr <= logfd)
			nr *= 2;
		e = realloc(m->e, nr * sizeof(*e));
		if (!e)
			return;
		for (int i = m->nr; i < nr; i++) {
			e[i].real = -1;
			e[i].path = NULL;
		}
		m->e = e;
		m->nr = nr;
	}
	e = &m->e[logfd];
	free(e->path);
	e->real = real;
	e->flags = flags;
	e->oflags = oflags;
	e->path = path ? strdup(path) : NULL;
}

void rp_fdmap_clear(struct rp_fdmap *m, long logfd)
{
	if (logfd < 0 || logfd >= m->nr)
		return;
	free(m->e[logfd].path);
	m->e[logfd].path = NULL;
	m->e[logfd].real = -1;
}

const struct rp_fdent *rp_fdmap_get(const struct rp_fdmap *m, long logfd)
{
	if (logfd < 0 || logfd >= m->nr || m->e[logfd].real < 0)
		return NULL;
	return &m->e[logfd];
}

static bool real_used(const struct rp_fdmap *m, long real)
{
	for (int i = 0; i < m->nr; i++)
		if (m->e[i].real == real)
			return true;
	return false;
}

static int tr(const struct rp_exec *x, long logfd)
{
	const struct rp_fdent *e;

	if (logfd == AT_FDCWD)
		return AT_FDCWD;
	e = rp_fdmap_get(x->map, logfd);
	return e ? e->real : RP_BADFD;
}

int rp_exec_tr(const struct rp_exec *x, long logfd)
{
	return tr(x, logfd);
}

bool rp_same(const struct rp_exec *x, const struct rp_call *c, long r)
{
	bool creates = rp_makes_lowest_fd(c);

	if (creates && !x->identity)
		return r < 0 ? r == c->ret : c->ret >= 0;
	return r == c->ret;
}

bool rp_exec_buf(struct rp_exec *x, size_t n)
{
	char *b;

	if (n <= x->bufsz)
		return true;
	b = realloc(x->buf, n);
	if (!b)
		return false;
	memset(b + x->bufsz, 0, n - x->bufsz);
	x->buf = b;
	x->bufsz = n;
	return true;
}

/* Absolute paths get the copy's prefix. */
static const char *P(struct rp_exec *x, int i, const char *p)
{
	if (!p || p[0] != '/' || !x->prefix || !x->prefix[0])
		return p;
	snprintf(x->path[i], sizeof(x->path[i]), "%s%s", x->prefix, p);
	return x->path[i];
}

/* N and the rest of a magic fd link path; false if p is none. */
static bool magic_fd(const char *p, long *fd, const char **rest)
{
	const char *k;
	char *e;

	if (!p)
		return false;
	if (!strncmp(p, "/proc/self/fd/", 14))
		k = p + 14;
	else if (!strncmp(p, "/proc/thread-self/fd/", 21))
		k = p + 21;
	else if (!strncmp(p, "/dev/fd/", 8))
		k = p + 8;
	else if (!strncmp(p, "/proc/", 6) && p[6] >= '0' && p[6] <= '9' &&
		 (k = strchr(p + 6, '/')) && !strncmp(k, "/fd/", 4))
		k += 4;
	else
		return false;
	if (*k < '0' || *k > '9')
		return false;
	*fd = strtol(k, &e, 10);
	if (*e && *e != '/')
		return false;
	while (*e == '/')
		e++;
	*rest = e;
	return true;
}

bool rp_magic_call(const struct rp_call *c, struct rp_call *out)
{
	long fd;
	const char *rest;
	bool empty;
	long dfd_at = -1;

	switch (c->sys) {
	case RP_NEWFSTATAT:
	case RP_STATX:
	case RP_FCHMODAT:
	case RP_FACCESSAT:
	case RP_FACCESSAT2:
	case RP_FCHOWNAT:
	case RP_UTIMENSAT:
	case RP_OPENAT:
		dfd_at = c->a[0];
		break;
	default:
		break;
	}
	if ((dfd_at != -1 && dfd_at != AT_FDCWD) || !magic_fd(c->p[0], &fd, &rest))
		return false;
	empty = !*rest;
	*out = *c;
	out->p[0] = (char *)rest;
	switch (c->sys) {
	case RP_CHMOD:
		out->sys = RP_FCHMODAT;
		out->a[1] = c->a[0];
		out->a[2] = empty ? AT_EMPTY_PATH : 0;
		break;
	case RP_STAT:
	case RP_LSTAT:
		out->sys = RP_NEWFSTATAT;
		out->a[1] = (c->sys == RP_LSTAT ? AT_SYMLINK_NOFOLLOW : 0) |
			    (empty ? AT_EMPTY_PATH : 0);
		break;
	case RP_NEWFSTATAT:
	case RP_STATX:
	case RP_FCHMODAT:
		out->a[c->sys == RP_FCHMODAT ? 2 : 1] |= empty ? AT_EMPTY_PATH : 0;
		break;
	case RP_ACCESS:
		out->sys = RP_FACCESSAT2;
		out->a[1] = c->a[0];
		out->a[2] = empty ? AT_EMPTY_PATH : 0;
		break;
	case RP_FACCESSAT:
		out->sys = RP_FACCESSAT2;
		out->a[2] = empty ? AT_EMPTY_PATH : 0;
		break;
	case RP_FACCESSAT2:
		out->a[2] |= empty ? AT_EMPTY_PATH : 0;
		break;
	case RP_CHOWN:
	case RP_LCHOWN:
		out->sys = RP_FCHOWNAT;
		out->a[1] = c->a[0];
		out->a[2] = c->a[1];
		out->a[3] = (c->sys == RP_LCHOWN ? AT_SYMLINK_NOFOLLOW : 0) |
			    (empty ? AT_EMPTY_PATH : 0);
		break;
	case RP_FCHOWNAT:
		out->a[3] |= empty ? AT_EMPTY_PATH : 0;
		break;
	case RP_UTIMENSAT:
		if (empty)
			out->p[0] = NULL; /* futimens() */
		break;
	case RP_OPEN:
	case RP_OPENAT:
		/* reopening the fd itself is a new open of its inode: no form */
		if (empty)
			return false;
		out->sys = RP_OPENAT;
		out->a[1] = c->sys == RP_OPEN ? c->a[0] : c->a[1];
		out->a[2] = c->sys == RP_OPEN ? c->a[1] : c->a[2];
		break;
	default:
		return false;
	}
	out->a[0] = fd;
	return true;
}

static bool fcntl_supported(long cmd)
{
	return cmd == F_DUPFD || cmd == F_DUPFD_CLOEXEC || cmd == F_GETFD || cmd == F_SETFD ||
	       cmd == F_GETFL || cmd == F_SETFL;
}

/* ---- vfslab ---- */

static long vfs_call(struct rp_exec *x, const struct rp_call *c)
{
	struct task *t = x->task;
	const long *a = c->a;
	const char *p0 = P(x, 0, c->p[0]), *p1 = P(x, 1, c->p[1]);
	struct stat *st = &x->st;

	if (x->entry_loops)
		bench_spin(x->entry_loops);
	switch (c->sys) {
	case RP_OPEN:
		return sys_open(t, p0, (int)a[0], (mode_t)a[1]);
	case RP_OPENAT:
		return sys_openat(t, tr(x, a[0]), p0, (int)a[1], (mode_t)a[2]);
	case RP_CREAT:
		return sys_creat(t, p0, (mode_t)a[0]);
	case RP_CLOSE:
		return sys_close(t, tr(x, a[0]));
	case RP_STAT:
		return sys_stat(t, p0, st);
	case RP_LSTAT:
		return sys_lstat(t, p0, st);
	case RP_FSTAT:
		return sys_fstat(t, tr(x, a[0]), st);
	case RP_NEWFSTATAT:
	case RP_STATX:
		return sys_fstatat(t, tr(x, a[0]), p0, st, (int)a[1]);
	case RP_ACCESS:
		return sys_access(t, p0, (int)a[0]);
	case RP_FACCESSAT:
		return sys_faccessat(t, tr(x, a[0]), p0, (int)a[1], 0);
	case RP_FACCESSAT2:
		return sys_faccessat(t, tr(x, a[0]), p0, (int)a[1], (int)a[2]);
	case RP_READ:
	case RP_READV:
		return sys_read(t, tr(x, a[0]), x->buf, a[1]);
	case RP_PREAD64:
	case RP_PREADV:
		return sys_pread64(t, tr(x, a[0]), x->buf, a[1], a[2]);
	case RP_WRITE:
	case RP_WRITEV:
		return sys_write(t, tr(x, a[0]), x->buf, a[1]);
	case RP_PWRITE64:
	case RP_PWRITEV:
		return sys_pwrite64(t, tr(x, a[0]), x->buf, a[1], a[2]);
	case RP_LSEEK:
		return sys_lseek(t, tr(x, a[0]), a[1], (int)a[2]);
	case RP_DUP:
		return sys_dup(t, tr(x, a[0]));
	case RP_FCNTL:
		return sys_fcntl(t, tr(x, a[0]), (int)a[1], (unsigned long)a[2]);
	case RP_RENAME:
		return sys_rename(t, p0, p1);
	case RP_RENAMEAT:
		return sys_renameat(t, tr(x, a[0]), p0, tr(x, a[1]), p1);
	case RP_RENAMEAT2:
		return sys_renameat2(t, tr(x, a[0]), p0, tr(x, a[1]), p1, (unsigned int)a[2]);
	case RP_UNLINK:
		return sys_unlink(t, p0);
	case RP_UNLINKAT:
		return sys_unlinkat(t, tr(x, a[0]), p0, (int)a[1]);
	case RP_MKDIR:
		return sys_mkdir(t, p0, (mode_t)a[0]);
	case RP_MKDIRAT:
		return sys_mkdirat(t, tr(x, a[0]), p0, (mode_t)a[1]);
	case RP_RMDIR:
		return sys_rmdir(t, p0);
	case RP_LINK:
		return sys_link(t, p0, p1);
	case RP_LINKAT:
		return sys_linkat(t, tr(x, a[0]), p0, tr(x, a[1]), p1, (int)a[2]);
	case RP_SYMLINK:
		return sys_symlink(t, p0, p1);
	case RP_SYMLINKAT:
		return sys_symlinkat(t, p0, tr(x, a[0]), p1);
	case RP_READLINK:
		return sys_readlink(t, p0, x->buf, a[0]);
	case RP_READLINKAT:
		return sys_readlinkat(t, tr(x, a[0]), p0, x->buf, a[1]);
	case RP_GETDENTS64:
		return sys_getdents64(t, tr(x, a[0]), x->buf, a[1]);
	case RP_CHDIR:
		return sys_chdir(t, p0);
	case RP_FCHDIR:
		return sys_fchdir(t, tr(x, a[0]));
	case RP_CHMOD:
		return sys_chmod(t, p0, (mode_t)a[0]);
	case RP_FCHMOD:
		return sys_fchmod(t, tr(x, a[0]), (mode_t)a[1]);
	case RP_FCHMODAT:
		return sys_fchmodat(t, tr(x, a[0]), p0, (mode_t)a[1], (int)a[2]);
	case RP_CHOWN:
		return sys_chown(t, p0, (uid_t)a[0], (gid_t)a[1]);
	case RP_LCHOWN:
		return sys_lchown(t, p0, (uid_t)a[0], (gid_t)a[1]);
	case RP_FCHOWN:
		return sys_fchown(t, tr(x, a[0]), (uid_t)a[1], (gid_t)a[2]);
	case RP_FCHOWNAT:
		return sys_fchownat(t, tr(x, a[0]), p0, (uid_t)a[1], (gid_t)a[2], (int)a[3]);
	case RP_TRUNCATE:
		return sys_truncate(t, p0, a[0]);
	case RP_FTRUNCATE:
		return sys_ftruncate(t, tr(x, a[0]), a[1]);
	case RP_FALLOCATE:
		return sys_fallocate(t, tr(x, a[0]), (int)a[1], a[2], a[3]);
	case RP_GETCWD:
		return sys_getcwd(t, x->buf, a[0]);
	case RP_UMASK:
		return sys_umask(t, (mode_t)a[0]);
	case RP_UTIMENSAT:
		return sys_utimensat(t, tr(x, a[0]), p0, (const struct timespec *)c->aux,
				     (int)a[2]);
	case RP_MKNOD:
		return sys_mknod(t, p0, (mode_t)a[0], (dev_t)a[1]);
	case RP_MKNODAT:
		return sys_mknodat(t, tr(x, a[0]), p0, (mode_t)a[1], (dev_t)a[2]);
	case RP_SETXATTR:
		return sys_chmod(t, p0, (mode_t)a[0]);
	case RP_LSETXATTR:
		return sys_fchmodat(t, AT_FDCWD, p0, (mode_t)a[0], AT_SYMLINK_NOFOLLOW);
	case RP_FSETXATTR:
		return sys_fchmod(t, tr(x, a[0]), (mode_t)a[1]);
	case RP_EXECVE:
		return sys_access(t, p0, X_OK);
	case RP_EXECVEAT:
		return sys_faccessat(t, tr(x, a[0]), p0, X_OK,
				     (int)(a[1] & (AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW)));
	default:
		return -ENOSYS;
	}
}

/* ---- the host ---- */

static long R(long r)
{
	return r < 0 ? -errno : r;
}

static long host_call(struct rp_exec *x, const struct rp_call *c)
{
	const long *a = c->a;
	const char *p0 = c->p[0], *p1 = c->p[1];
	struct stat *st = &x->st;

	switch (c->sys) {
	case RP_OPEN:
		return R(syscall(SYS_open, p0, a[0], a[1]));
	case RP_OPENAT:
		return R(syscall(SYS_openat, tr(x, a[0]), p0, a[1], a[2]));
	case RP_CREAT:
		return R(syscall(SYS_creat, p0, a[0]));
	case RP_CLOSE:
		return R(syscall(SYS_close, tr(x, a[0])));
	case RP_STAT:
		return R(syscall(SYS_stat, p0, st));
	case RP_LSTAT:
		return R(syscall(SYS_lstat, p0, st));
	case RP_FSTAT:
		return R(syscall(SYS_fstat, tr(x, a[0]), st));
	case RP_NEWFSTATAT:
	case RP_STATX:
		return R(syscall(SYS_newfstatat, tr(x, a[0]), p0, st, a[1]));
	case RP_ACCESS:
		return R(syscall(SYS_access, p0, a[0]));
	case RP_FACCESSAT:
		return R(syscall(SYS_faccessat, tr(x, a[0]), p0, a[1]));
	case RP_FACCESSAT2:
#ifdef SYS_faccessat2
		return R(syscall(SYS_faccessat2, tr(x, a[0]), p0, a[1], a[2]));
#else
		return R(syscall(SYS_faccessat, tr(x, a[0]), p0, a[1]));
#endif
	case RP_READ:
	case RP_READV:
		return R(syscall(SYS_read, tr(x, a[0]), x->buf, a[1]));
	case RP_PREAD64:
	case RP_PREADV:
		return R(syscall(SYS_pread64, tr(x, a[0]), x->buf, a[1], a[2]));
	case RP_WRITE:
	case RP_WRITEV:
		return R(syscall(SYS_write, tr(x, a[0]), x->buf, a[1]));
	case RP_PWRITE64:
	case RP_PWRITEV:
		return R(syscall(SYS_pwrite64, tr(x, a[0]), x->buf, a[1], a[2]));
	case RP_LSEEK:
		return R(syscall(SYS_lseek, tr(x, a[0]), a[1], a[2]));
	case RP_DUP:
		return R(syscall(SYS_dup, tr(x, a[0])));
	case RP_FCNTL:
		return R(syscall(SYS_fcntl, tr(x, a[0]), a[1], a[2]));
	case RP_RENAME:
		return R(syscall(SYS_rename, p0, p1));
	case RP_RENAMEAT:
		return R(syscall(SYS_renameat, tr(x, a[0]), p0, tr(x, a[1]), p1));
	case RP_RENAMEAT2:
		return R(syscall(SYS_renameat2, tr(x, a[0]), p0, tr(x, a[1]), p1, a[2]));
	case RP_UNLINK:
		return R(syscall(SYS_unlink, p0));
	case RP_UNLINKAT:
		return R(syscall(SYS_unlinkat, tr(x, a[0]), p0, a[1]));
	case RP_MKDIR:
		return R(syscall(SYS_mkdir, p0, a[0]));
	case RP_MKDIRAT:
		return R(syscall(SYS_mkdirat, tr(x, a[0]), p0, a[1]));
	case RP_RMDIR:
		return R(syscall(SYS_rmdir, p0));
	case RP_LINK:
		return R(syscall(SYS_link, p0, p1));
	case RP_LINKAT:
		return R(syscall(SYS_linkat, tr(x, a[0]), p0, tr(x, a[1]), p1, a[2]));
	case RP_SYMLINK:
		return R(syscall(SYS_symlink, p0, p1));
	case RP_SYMLINKAT:
		return R(syscall(SYS_symlinkat, p0, tr(x, a[0]), p1));
	case RP_READLINK:
		return R(syscall(SYS_readlink, p0, x->buf, a[0]));
	case RP_READLINKAT:
		return R(syscall(SYS_readlinkat, tr(x, a[0]), p0, x->buf, a[1]));
	case RP_GETDENTS64:
		return R(syscall(SYS_getdents64, tr(x, a[0]), x->buf, a[1]));
	case RP_CHDIR:
		return R(syscall(SYS_chdir, p0));
	case RP_FCHDIR:
		return R(syscall(SYS_fchdir, tr(x, a[0])));
	case RP_CHMOD:
		return R(syscall(SYS_chmod, p0, a[0]));
	case RP_FCHMOD:
		return R(syscall(SYS_fchmod, tr(x, a[0]), a[1]));
	case RP_FCHMODAT:
		return R(syscall(SYS_fchmodat, tr(x, a[0]), p0, a[1]));
	case RP_CHOWN:
		return R(syscall(SYS_chown, p0, a[0], a[1]));
	case RP_LCHOWN:
		return R(syscall(SYS_lchown, p0, a[0], a[1]));
	case RP_FCHOWN:
		return R(syscall(SYS_fchown, tr(x, a[0]), a[1], a[2]));
	case RP_FCHOWNAT:
		return R(syscall(SYS_fchownat, tr(x, a[0]), p0, a[1], a[2], a[3]));
	case RP_TRUNCATE:
		return R(syscall(SYS_truncate, p0, a[0]));
	case RP_FTRUNCATE:
		return R(syscall(SYS_ftruncate, tr(x, a[0]), a[1]));
	case RP_FALLOCATE:
		return R(syscall(SYS_fallocate, tr(x, a[0]), a[1], a[2], a[3]));
	case RP_GETCWD:
		return R(syscall(SYS_getcwd, x->buf, a[0]));
	case RP_UMASK:
		return R(syscall(SYS_umask, a[0]));
	case RP_UTIMENSAT:
		return R(syscall(SYS_utimensat, tr(x, a[0]), p0, c->aux, a[2]));
	case RP_MKNOD:
		return R(syscall(SYS_mknod, p0, a[0], a[1]));
	case RP_MKNODAT:
		return R(syscall(SYS_mknodat, tr(x, a[0]), p0, a[1], a[2]));
	case RP_SETXATTR:
		return R(syscall(SYS_setxattr, p0, p1, c->aux, c->auxlen, a[1]));
	case RP_LSETXATTR:
		return R(syscall(SYS_lsetxattr, p0, p1, c->aux, c->auxlen, a[1]));
	case RP_FSETXATTR:
		return R(syscall(SYS_fsetxattr, tr(x, a[0]), p1, c->aux, c->auxlen, a[2]));
	case RP_EXECVE:
		return R(syscall(SYS_access, p0, X_OK));
	case RP_EXECVEAT:
		return R(syscall(SYS_faccessat, tr(x, a[0]), p0, X_OK));
	default:
		return -ENOSYS;
	}
}

static long xcall(struct rp_exec *x, const struct rp_call *c)
{
	return x->host ? host_call(x, c) : vfs_call(x, c);
}

static long x_close(struct rp_exec *x, int real)
{
	return x->host ? R(close(real)) : sys_close(x->task, real);
}

static long x_dup2(struct rp_exec *x, int old, int new, int flags, bool three)
{
	if (x->host)
		return three ? R(syscall(SYS_dup3, old, new, flags)) :
			       R(syscall(SYS_dup2, old, new));
	return three ? sys_dup3(x->task, old, new, flags) : sys_dup2(x->task, old, new);
}

static long x_fcntl(struct rp_exec *x, int fd, int cmd, unsigned long arg)
{
	return x->host ? R(syscall(SYS_fcntl, fd, cmd, arg)) : sys_fcntl(x->task, fd, cmd, arg);
}

/*
 * The log got fd from a call that takes the lowest free number: a
 * placeholder still there was gone by then (closed by an untraced call, or
 * the number went to a thread whose call began before another thread's
 * close ended).
 */
static void release(struct rp_exec *x, long fd)
{
	const struct rp_fdent *e = rp_fdmap_get(x->map, fd);

	if (e && (e->flags & RPF_FOREIGN)) {
		x_close(x, e->real);
		rp_fdmap_clear(x->map, fd);
	}
}

long rp_exec_placeholder(struct rp_exec *x)
{
	const char *p = P(x, 0, RP_PLACEHOLDER);

	return x->host ? R(open(p, O_RDWR)) : sys_open(x->task, p, O_RDWR, 0);
}

void rp_exec_close_all(struct rp_exec *x)
{
	for (int i = 0; i < x->map->nr; i++)
		if (x->map->e[i].real >= 0) {
			x_close(x, x->map->e[i].real);
			rp_fdmap_clear(x->map, i);
		}
}

static long x_rw(struct rp_exec *x, bool write, int fd, size_t n, long long off)
{
	if (x->host) {
		if (off >= 0)
			return R(write ? pwrite(fd, x->buf, n, off) : pread(fd, x->buf, n, off));
		return R(write ? syscall(SYS_write, fd, x->buf, n) :
				 syscall(SYS_read, fd, x->buf, n));
	}
	if (off >= 0)
		return write ? sys_pwrite64(x->task, fd, x->buf, n, off) :
			       sys_pread64(x->task, fd, x->buf, n, off);
	return write ? sys_write(x->task, fd, x->buf, n) : sys_read(x->task, fd, x->buf, n);
}

/*
 * copy_file_range and sendfile: vfslab has neither, and what they leave
 * behind (the copy) matters to every later call on the file, so they are
 * a read and write loop. Into a placeholder (a terminal, a pipe) the data
 * go nowhere: the read alone.
 */
static long exec_copy(struct rp_exec *x, const struct rp_call *c)
{
	bool cfr = c->sys == RP_COPY_FILE_RANGE;
	long in = cfr ? c->a[0] : c->a[1], out = cfr ? c->a[2] : c->a[0];
	long long off_in = cfr ? c->a[1] : c->a[2], off_out = cfr ? c->a[3] : -1;
	long long left = cfr ? c->a[4] : c->a[3], done = 0;
	const struct rp_fdent *oe = rp_fdmap_get(x->map, out);
	bool discard = oe && (oe->flags & RPF_FOREIGN);

	if (left > (64 << 20))
		left = 64 << 20;
	if (!rp_exec_buf(x, 1 << 20))
		return -ENOMEM;
	while (left > 0) {
		size_t n = left < (1 << 20) ? left : (1 << 20);
		long r = x_rw(x, false, tr(x, in), n, off_in >= 0 ? off_in + done : -1), w = r;

		if (r > 0 && !discard)
			w = x_rw(x, true, tr(x, out), r, off_out >= 0 ? off_out + done : -1);
		if (r < 0 || w < 0)
			return done ? done : (r < 0 ? r : w);
		done += w;
		left -= w;
		if (w < (long)n)
			break;
	}
	return done;
}

/* dup2/dup3: the new number is the log's; keep it where it is mapped. */
static long exec_dup2(struct rp_exec *x, const struct rp_call *c)
{
	bool three = c->sys == RP_DUP3;
	int flags = three ? (int)c->a[2] : 0;
	const struct rp_fdent *oe = rp_fdmap_get(x->map, c->a[0]);
	const struct rp_fdent *ne = rp_fdmap_get(x->map, c->a[1]);
	int oldr = tr(x, c->a[0]), newr = -1;
	long r;

	if (ne)
		newr = ne->real;
	else if (x->identity && !x->host && c->a[1] >= 0 && c->a[1] < RP_BADFD &&
		 !real_used(x->map, c->a[1]))
		newr = (int)c->a[1];
	if (c->a[1] < 0)
		newr = (int)c->a[1]; /* let the syscall say EBADF */
	if (newr != -1 || !oe)
		r = x_dup2(x, oldr, newr == -1 ? RP_BADFD : newr, flags, three);
	else /* a number we cannot reuse: any free one stands in for it */
		r = x_fcntl(x, oldr, flags & O_CLOEXEC ? F_DUPFD_CLOEXEC : F_DUPFD, 0);
	if (r < 0)
		return r;
	if (oe && c->a[0] != c->a[1]) {
		struct rp_fdent old = *oe;

		rp_fdmap_set(x->map, c->a[1], (int)r,
			     (old.flags & RPF_FOREIGN) | (flags & O_CLOEXEC ? RPF_CLOEXEC : 0),
			     old.oflags, old.path);
	}
	return c->a[1];
}

static long exec_close_range(struct rp_exec *x, const struct rp_call *c)
{
	unsigned long first = (unsigned long)c->a[0], last = (unsigned long)c->a[1];
	unsigned int flags = (unsigned int)c->a[2];
	bool identity = !x->host;
	long r = 0;

	if (flags & CLOSE_RANGE_UNSHARE) {
		if (!x->host)
			r = sys_close_range(x->task, ~0U, ~0U, CLOSE_RANGE_UNSHARE);
		if (x->map->refs > 1) {
			struct rp_fdmap *n = rp_fdmap_copy(x->map);

			if (n) {
				rp_fdmap_put(x->map);
				x->map = n;
			}
		}
	}
	for (int i = 0; i < x->map->nr && identity; i++)
		if (x->map->e[i].real >= 0 &&
		    ((unsigned long)i >= first && (unsigned long)i <= last) !=
			    ((unsigned long)x->map->e[i].real >= first &&
			     (unsigned long)x->map->e[i].real <= last))
			identity = false;
	if (identity && first <= last)
		r = sys_close_range(x->task, (unsigned int)first, (unsigned int)last,
				    flags & ~CLOSE_RANGE_UNSHARE);
	else if (first > last)
		r = -EINVAL;
	for (int i = 0; i < x->map->nr && r >= 0; i++) {
		if (x->map->e[i].real < 0 || (unsigned long)i < first || (unsigned long)i > last)
			continue;
		if (flags & CLOSE_RANGE_CLOEXEC) {
			if (!identity)
				x_fcntl(x, x->map->e[i].real, F_SETFD, FD_CLOEXEC);
			x->map->e[i].flags |= RPF_CLOEXEC;
		} else {
			if (!identity)
				x_close(x, x->map->e[i].real);
			rp_fdmap_clear(x->map, i);
		}
	}
	return r;
}

/* What exec does to the fd table: unshare it, close the close-on-exec fds. */
static void exec_effects(struct rp_exec *x)
{
	if (x->map->refs > 1) {
		struct rp_fdmap *n = rp_fdmap_copy(x->map);

		if (!x->host)
			sys_close_range(x->task, ~0U, ~0U, CLOSE_RANGE_UNSHARE);
		if (n) {
			rp_fdmap_put(x->map);
			x->map = n;
		}
	}
	for (int i = 0; i < x->map->nr; i++)
		if (x->map->e[i].real >= 0 && (x->map->e[i].flags & RPF_CLOEXEC)) {
			x_close(x, x->map->e[i].real);
			rp_fdmap_clear(x->map, i);
		}
}

/* The call's fd-table effects on x->map, now that ours returned r. */
static void map_result(struct rp_exec *x, const struct rp_call *c, long r)
{
	switch (c->sys) {
	case RP_OPEN:
	case RP_OPENAT:
	case RP_CREAT:
	case RP_DUP:
	case RP_FCNTL:
		if (c->sys == RP_FCNTL) {
			if (c->a[1] == F_SETFD && r >= 0) {
				struct rp_fdent *fe =
					(struct rp_fdent *)rp_fdmap_get(x->map, c->a[0]);

				if (fe)
					fe->flags = (fe->flags & ~RPF_CLOEXEC) |
						    (c->a[2] & FD_CLOEXEC ? RPF_CLOEXEC : 0);
			}
			if (c->a[1] != F_DUPFD && c->a[1] != F_DUPFD_CLOEXEC)
				break;
		}
		if (r >= 0 && c->ret < 0) {
			/* the log's call failed: do not keep what ours made */
			x_close(x, (int)r);
		} else if (r >= 0) {
			const struct rp_fdent *src = NULL;
			int oflags = 0;
			bool cloexec = false;

			if (c->sys == RP_DUP || c->sys == RP_FCNTL) {
				src = rp_fdmap_get(x->map, c->a[0]);
				cloexec = c->sys == RP_FCNTL && c->a[1] == F_DUPFD_CLOEXEC;
			} else {
				oflags = (int)(c->sys == RP_OPEN   ? c->a[0] :
					       c->sys == RP_OPENAT ? c->a[1] :
								     O_CREAT | O_WRONLY | O_TRUNC);
				cloexec = oflags & O_CLOEXEC;
			}
			if (src) {
				struct rp_fdent s = *src;

				rp_fdmap_set(x->map, c->ret, (int)r,
					     (s.flags & RPF_FOREIGN) | (cloexec ? RPF_CLOEXEC : 0),
					     s.oflags, s.path);
			} else {
				rp_fdmap_set(x->map, c->ret, (int)r, cloexec ? RPF_CLOEXEC : 0,
					     oflags, NULL);
			}
		}
		break;
	case RP_CLOSE:
		if (r == 0 || c->ret == 0)
			rp_fdmap_clear(x->map, c->a[0]);
		break;
	case RP_EXECVE:
	case RP_EXECVEAT:
		if (c->ret == 0 && r == 0)
			exec_effects(x);
		break;
	default:
		break;
	}
}

long rp_exec(struct rp_exec *x, const struct rp_call *c, int *skip)
{
	long ofd, r;
	const struct rp_fdent *e;
	struct rp_call magic;

	if (rp_magic_call(c, &magic))
		c = &magic;
	ofd = rp_object_fd(c);
	*skip = 0;
	if (c->flags & (RPC_INTERRUPTED | RPC_RET_UNKNOWN)) {
		*skip = RP_SKIP_INTERRUPTED;
		return 0;
	}
	if (ofd >= 0 && (e = rp_fdmap_get(x->map, ofd)) && (e->flags & RPF_FOREIGN)) {
		*skip = RP_SKIP_FOREIGN;
		return 0;
	}
	switch (c->sys) {
	case RP_SETXATTR:
	case RP_LSETXATTR:
	case RP_FSETXATTR:
		if (c->a[c->sys == RP_FSETXATTR] < 0) {
			*skip = RP_SKIP_UNSUPPORTED;
			return 0;
		}
		break;
	case RP_FCNTL:
		if (!fcntl_supported(c->a[1])) {
			*skip = RP_SKIP_UNSUPPORTED;
			return 0;
		}
		break;
	case RP_READ:
	case RP_PREAD64:
	case RP_READV:
	case RP_PREADV:
	case RP_WRITE:
	case RP_PWRITE64:
	case RP_WRITEV:
	case RP_PWRITEV:
	case RP_GETDENTS64:
		if (c->a[1] < 0 || !rp_exec_buf(x, (size_t)c->a[1] < (64u << 20) ? c->a[1] : 1)) {
			*skip = RP_SKIP_UNSUPPORTED;
			return 0;
		}
		if ((size_t)c->a[1] >= (64u << 20)) {
			*skip = RP_SKIP_UNSUPPORTED;
			return 0;
		}
		break;
	case RP_READLINK:
	case RP_GETCWD:
		if (!rp_exec_buf(x, c->a[0] > 0 && c->a[0] < (1 << 20) ? c->a[0] : 1))
			return -ENOMEM;
		break;
	case RP_READLINKAT:
		if (!rp_exec_buf(x, c->a[1] > 0 && c->a[1] < (1 << 20) ? c->a[1] : 1))
			return -ENOMEM;
		break;
	case RP_DUP2:
	case RP_DUP3:
		return exec_dup2(x, c);
	case RP_COPY_FILE_RANGE:
	case RP_SENDFILE: {
		const struct rp_fdent *ie =
			rp_fdmap_get(x->map, c->sys == RP_SENDFILE ? c->a[1] : c->a[0]);

		/* the log's failures (EXDEV, EINVAL) are the filesystems' say */
		if (c->ret < 0 || (ie && (ie->flags & RPF_FOREIGN))) {
			*skip = c->ret < 0 ? RP_SKIP_UNSUPPORTED : RP_SKIP_FOREIGN;
			return 0;
		}
		return exec_copy(x, c);
	}
	case RP_CLOSE_RANGE:
		return exec_close_range(x, c);
	case RP_FOREIGN: {
		long first = -1;

		if (c->ret < 0)
			return c->ret; /* nothing was made; nothing to model */
		/* pipe2 and friends: placeholders at the log's numbers */
		for (int i = 0; i < c->a[0] && i < 2; i++)
			release(x, c->a[1 + i]);
		for (int i = 0; i < c->a[0] && i < 2; i++) {
			r = rp_exec_placeholder(x);
			if (r < 0)
				return r;
			rp_fdmap_set(x->map, c->a[1 + i], (int)r,
				     RPF_FOREIGN | (c->a[3] & O_CLOEXEC ? RPF_CLOEXEC : 0), O_RDWR,
				     NULL);
			if (first < 0)
				first = r;
			if (x->identity && r != c->a[1 + i])
				first = -EBADFD; /* numbers moved: report a mismatch */
		}
		return c->a[0] == 1 ? first : (first >= 0 ? c->ret : first);
	}
	case RP_CLONE:
	case RP_EXIT:
	case RP_NONE:
		*skip = RP_SKIP_UNSUPPORTED;
		return 0;
	default:
		break;
	}
	if (rp_makes_lowest_fd(c))
		release(x, c->ret);
	r = xcall(x, c);
	map_result(x, c, r);
	return r;
}
