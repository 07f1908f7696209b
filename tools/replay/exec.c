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
#include <unistd.h>

#include "tools/replay/replay.h"
#include "tools/replay/sys.h"
#include "tools/sys/sys.h"
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

/* ---- the calls ---- */

const struct sys_ops *rp_exec_sys(const struct rp_exec *x, struct sys_vfs *v)
{
	*v = (struct sys_vfs){ .task = x->task, .entry_loops = x->entry_loops };
	return x->host ? &sys_ops_host : &sys_ops_vfslab;
}

/* The logged call as the syscall the table has for it (see the top). */
static long xcall(struct rp_exec *x, const struct rp_call *c)
{
	struct sys_vfs v;
	const struct sys_ops *s = rp_exec_sys(x, &v);
	const long *a = c->a;
	const char *p0 = P(x, 0, c->p[0]), *p1 = P(x, 1, c->p[1]);
	struct stat *st = &x->st;

	switch (c->sys) {
	case RP_OPEN:
		return s->open(&v, p0, (int)a[0], (mode_t)a[1]);
	case RP_OPENAT:
		return s->openat(&v, tr(x, a[0]), p0, (int)a[1], (mode_t)a[2]);
	case RP_CREAT:
		return s->creat(&v, p0, (mode_t)a[0]);
	case RP_CLOSE:
		return s->close(&v, tr(x, a[0]));
	case RP_STAT:
		return s->stat(&v, p0, st);
	case RP_LSTAT:
		return s->lstat(&v, p0, st);
	case RP_FSTAT:
		return s->fstat(&v, tr(x, a[0]), st);
	case RP_NEWFSTATAT:
	case RP_STATX:
		return s->fstatat(&v, tr(x, a[0]), p0, st, (int)a[1]);
	case RP_ACCESS:
		return s->access(&v, p0, (int)a[0]);
	case RP_FACCESSAT:
		return s->faccessat(&v, tr(x, a[0]), p0, (int)a[1], 0);
	case RP_FACCESSAT2:
		return s->faccessat(&v, tr(x, a[0]), p0, (int)a[1], (int)a[2]);
	case RP_READ:
	case RP_READV:
		return s->read(&v, tr(x, a[0]), x->buf, a[1]);
	case RP_PREAD64:
	case RP_PREADV:
		return s->pread64(&v, tr(x, a[0]), x->buf, a[1], a[2]);
	case RP_WRITE:
	case RP_WRITEV:
		return s->write(&v, tr(x, a[0]), x->buf, a[1]);
	case RP_PWRITE64:
	case RP_PWRITEV:
		return s->pwrite64(&v, tr(x, a[0]), x->buf, a[1], a[2]);
	case RP_LSEEK:
		return s->lseek(&v, tr(x, a[0]), a[1], (int)a[2]);
	case RP_DUP:
		return s->dup(&v, tr(x, a[0]));
	case RP_FCNTL:
		return s->fcntl(&v, tr(x, a[0]), (int)a[1], (unsigned long)a[2]);
	case RP_RENAME:
		return s->rename(&v, p0, p1);
	case RP_RENAMEAT:
		return s->renameat(&v, tr(x, a[0]), p0, tr(x, a[1]), p1);
	case RP_RENAMEAT2:
		return s->renameat2(&v, tr(x, a[0]), p0, tr(x, a[1]), p1, (unsigned int)a[2]);
	case RP_UNLINK:
		return s->unlink(&v, p0);
	case RP_UNLINKAT:
		return s->unlinkat(&v, tr(x, a[0]), p0, (int)a[1]);
	case RP_MKDIR:
		return s->mkdir(&v, p0, (mode_t)a[0]);
	case RP_MKDIRAT:
		return s->mkdirat(&v, tr(x, a[0]), p0, (mode_t)a[1]);
	case RP_RMDIR:
		return s->rmdir(&v, p0);
	case RP_LINK:
		return s->link(&v, p0, p1);
	case RP_LINKAT:
		return s->linkat(&v, tr(x, a[0]), p0, tr(x, a[1]), p1, (int)a[2]);
	case RP_SYMLINK:
		return s->symlink(&v, p0, p1);
	case RP_SYMLINKAT:
		return s->symlinkat(&v, p0, tr(x, a[0]), p1);
	case RP_READLINK:
		return s->readlink(&v, p0, x->buf, a[0]);
	case RP_READLINKAT:
		return s->readlinkat(&v, tr(x, a[0]), p0, x->buf, a[1]);
	case RP_GETDENTS64:
		return s->getdents64(&v, tr(x, a[0]), x->buf, a[1]);
	case RP_CHDIR:
		return s->chdir(&v, p0);
	case RP_FCHDIR:
		return s->fchdir(&v, tr(x, a[0]));
	case RP_CHMOD:
		return s->chmod(&v, p0, (mode_t)a[0]);
	case RP_FCHMOD:
		return s->fchmod(&v, tr(x, a[0]), (mode_t)a[1]);
	case RP_FCHMODAT:
		return s->fchmodat(&v, tr(x, a[0]), p0, (mode_t)a[1], (int)a[2]);
	case RP_CHOWN:
		return s->chown(&v, p0, (uid_t)a[0], (gid_t)a[1]);
	case RP_LCHOWN:
		return s->lchown(&v, p0, (uid_t)a[0], (gid_t)a[1]);
	case RP_FCHOWN:
		return s->fchown(&v, tr(x, a[0]), (uid_t)a[1], (gid_t)a[2]);
	case RP_FCHOWNAT:
		return s->fchownat(&v, tr(x, a[0]), p0, (uid_t)a[1], (gid_t)a[2], (int)a[3]);
	case RP_TRUNCATE:
		return s->truncate(&v, p0, a[0]);
	case RP_FTRUNCATE:
		return s->ftruncate(&v, tr(x, a[0]), a[1]);
	case RP_FALLOCATE:
		return s->fallocate(&v, tr(x, a[0]), (int)a[1], a[2], a[3]);
	case RP_GETCWD:
		return s->getcwd(&v, x->buf, a[0]);
	case RP_UMASK:
		return s->umask(&v, (mode_t)a[0]);
	case RP_UTIMENSAT:
		return s->utimensat(&v, tr(x, a[0]), p0, (const struct timespec *)c->aux,
				    (int)a[2]);
	case RP_MKNOD:
		return s->mknod(&v, p0, (mode_t)a[0], (dev_t)a[1]);
	case RP_MKNODAT:
		return s->mknodat(&v, tr(x, a[0]), p0, (mode_t)a[1], (dev_t)a[2]);
	/* A minimal ACL where there are xattrs; its mode where there are none. */
	case RP_SETXATTR:
		if (s->setxattr)
			return s->setxattr(&v, p0, p1, c->aux, c->auxlen, (int)a[1]);
		return s->chmod(&v, p0, (mode_t)a[0]);
	case RP_LSETXATTR:
		if (s->lsetxattr)
			return s->lsetxattr(&v, p0, p1, c->aux, c->auxlen, (int)a[1]);
		return s->fchmodat(&v, AT_FDCWD, p0, (mode_t)a[0], AT_SYMLINK_NOFOLLOW);
	case RP_FSETXATTR:
		if (s->fsetxattr)
			return s->fsetxattr(&v, tr(x, a[0]), p1, c->aux, c->auxlen, (int)a[2]);
		return s->fchmod(&v, tr(x, a[0]), (mode_t)a[1]);
	case RP_EXECVE:
		return s->access(&v, p0, X_OK);
	case RP_EXECVEAT:
		return s->faccessat(&v, tr(x, a[0]), p0, X_OK,
				    (int)(a[1] & (AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW)));
	default:
		return -ENOSYS;
	}
}

static long x_close(struct rp_exec *x, int real)
{
	struct sys_vfs v;

	return rp_exec_sys(x, &v)->close(&v, real);
}

static long x_dup2(struct rp_exec *x, int old, int new, int flags, bool three)
{
	struct sys_vfs v;
	const struct sys_ops *s = rp_exec_sys(x, &v);

	return three ? s->dup3(&v, old, new, flags) : s->dup2(&v, old, new);
}

static long x_fcntl(struct rp_exec *x, int fd, int cmd, unsigned long arg)
{
	struct sys_vfs v;

	return rp_exec_sys(x, &v)->fcntl(&v, fd, cmd, arg);
}

static long x_close_range(struct rp_exec *x, unsigned int first, unsigned int last,
			  unsigned int flags)
{
	struct sys_vfs v;

	return rp_exec_sys(x, &v)->close_range(&v, first, last, flags);
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
	struct sys_vfs v;

	return rp_exec_sys(x, &v)->open(&v, P(x, 0, RP_PLACEHOLDER), O_RDWR, 0);
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
	struct sys_vfs v;
	const struct sys_ops *s = rp_exec_sys(x, &v);

	if (off >= 0)
		return write ? s->pwrite64(&v, fd, x->buf, n, off) :
			       s->pread64(&v, fd, x->buf, n, off);
	return write ? s->write(&v, fd, x->buf, n) : s->read(&v, fd, x->buf, n);
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
			r = x_close_range(x, ~0U, ~0U, CLOSE_RANGE_UNSHARE);
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
		r = x_close_range(x, (unsigned int)first, (unsigned int)last,
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
			x_close_range(x, ~0U, ~0U, CLOSE_RANGE_UNSHARE);
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

/* pipe2, socket and friends: placeholders at the log's numbers. */
static long exec_foreign(struct rp_exec *x, const struct rp_call *c)
{
	long first = -1, r;

	if (c->ret < 0)
		return c->ret; /* nothing was made; nothing to model */
	for (int i = 0; i < c->a[0] && i < 2; i++)
		release(x, c->a[1 + i]);
	for (int i = 0; i < c->a[0] && i < 2; i++) {
		r = rp_exec_placeholder(x);
		if (r < 0)
			return r;
		rp_fdmap_set(x->map, c->a[1 + i], (int)r,
			     RPF_FOREIGN | (c->a[3] & O_CLOEXEC ? RPF_CLOEXEC : 0), O_RDWR, NULL);
		if (first < 0)
			first = r;
		if (x->identity && r != c->a[1 + i])
			first = -EBADFD; /* numbers moved: report a mismatch */
	}
	return c->a[0] == 1 ? first : (first >= 0 ? c->ret : first);
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
	case RP_FOREIGN:
		return exec_foreign(x, c);
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
