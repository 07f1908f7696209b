// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Before the replay: the descriptors the log's processes had that no
 * traced call made, from the log's own fd numbers.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tools/replay/replay.h"
#include "tools/replay/sys.h"
#include "vfs/vfs.h"

/* ---- descriptors no traced call made ---- */

#define PS_MAXFD 4096

struct fset {
	int refs;
	unsigned char open[PS_MAXFD], seen[PS_MAXFD], cloexec[PS_MAXFD];
};

struct pset {
	int pid;
	struct fset *s;
};

struct prescan {
	const struct rp_log *log;
	struct rp_tree *tree;
	struct pset *p;
	size_t nr, cap;
	size_t cur;
};

static void fset_put(struct fset *s)
{
	if (s && !--s->refs)
		free(s);
}

static struct pset *ps_find(struct prescan *ps, int pid)
{
	for (size_t i = 0; i < ps->nr; i++)
		if (ps->p[i].pid == pid)
			return &ps->p[i];
	return NULL;
}

static struct pset *ps_add(struct prescan *ps, int pid, struct fset *s)
{
	struct pset *p = ps_find(ps, pid);

	if (p) {
		fset_put(p->s);
		p->s = s;
		return p;
	}
	p = rp_grow(ps->p, &ps->cap, ps->nr, sizeof(*p), 16);
	if (!p)
		return NULL;
	ps->p = p;
	p = &ps->p[ps->nr++];
	p->pid = pid;
	p->s = s;
	return p;
}

static struct fset *ps_get(struct prescan *ps, int pid)
{
	struct pset *p = ps_find(ps, pid);
	struct fset *s;

	if (p)
		return p->s;
	s = calloc(1, sizeof(*s));
	if (!s)
		return NULL;
	s->refs = 1;
	/* what the first process inherited, every other process has too */
	for (size_t i = 0; i < ps->tree->nr_fds; i++)
		if (ps->tree->fds[i] < PS_MAXFD)
			s->open[ps->tree->fds[i]] = s->seen[ps->tree->fds[i]] = 1;
	if (!ps_add(ps, pid, s)) {
		free(s);
		return NULL;
	}
	return s;
}

/* The log shows fd in use in s: if nothing traced made it, something else did. */
static void ps_require(struct prescan *ps, int pid, struct fset *s, long fd)
{
	if (fd < 0 || fd >= PS_MAXFD || s->open[fd])
		return;
	if (!s->seen[fd]) {
		/* never seen in this lineage: there from the start */
		rp_tree_add_fd(ps->tree, (int)fd);
		for (size_t i = 0; i < ps->nr; i++)
			ps->p[i].s->open[fd] = ps->p[i].s->seen[fd] = 1;
		return;
	}
	{
		struct rp_tree *t = ps->tree;
		struct rp_fdinj *in;

		in = rp_grow(t->fdinj, &t->cap_fdinj, t->nr_fdinj, sizeof(*in), 16);
		if (!in)
			return;
		t->fdinj = in;
		in = &t->fdinj[t->nr_fdinj++];
		in->before = ps->cur;
		in->pid = pid;
		in->fd = (int)fd;
		s->open[fd] = 1;
	}
}

static void ps_make(struct fset *s, long fd, bool cloexec)
{
	if (fd < 0 || fd >= PS_MAXFD)
		return;
	s->open[fd] = s->seen[fd] = 1;
	s->cloexec[fd] = cloexec;
}

/* The log shows c using these descriptors: its object, dirfds, the fd it closes or dups. */
static void ps_used(struct prescan *ps, struct fset *s, const struct rp_call *c)
{
	const struct rp_sysdesc *d = rp_sys(c->sys);
	long ofd = rp_object_fd(c);
	unsigned int dirfds = 0;

	if (ofd >= 0)
		ps_require(ps, c->pid, s, ofd);
	/* a dirfd counts when it resolves a relative path */
	for (int i = 0; i < d->npath; i++) {
		const struct rp_path *p = &d->path[i];
		long dfd = p->dfd ? c->a[p->dfd - 1] : AT_FDCWD;
		const char *path = c->p[p->name];

		if (!p->dfd)
			continue;
		dirfds |= 1u << (p->dfd - 1);
		if (path && path[0] != '/' && dfd != AT_FDCWD)
			ps_require(ps, c->pid, s, dfd);
	}
	for (int k = 0; d->fds >> k; k++)
		if ((d->fds & ~dirfds) >> k & 1)
			ps_require(ps, c->pid, s, c->a[k]);
}

/* The descriptors c made or closed: lowest free, so every lower one was in use. */
static void ps_made(struct prescan *ps, struct fset *s, const struct rp_call *c)
{
	long ret = c->ret;

	switch (rp_sys(c->sys)->fdop) {
	case RPD_NEW: {
		long fl = rp_sys_flags(c);

		for (long f = 0; f < ret && f < PS_MAXFD; f++)
			ps_require(ps, c->pid, s, f);
		ps_make(s, ret, fl & O_CLOEXEC);
		break;
	}
	case RPD_FCNTL:
		if (c->a[1] == F_DUPFD || c->a[1] == F_DUPFD_CLOEXEC) {
			for (long f = c->a[2] > 0 ? c->a[2] : 0; f < ret && f < PS_MAXFD; f++)
				ps_require(ps, c->pid, s, f);
			ps_make(s, ret, c->a[1] == F_DUPFD_CLOEXEC);
		} else if (c->a[1] == F_SETFD && c->a[0] >= 0 && c->a[0] < PS_MAXFD) {
			s->cloexec[c->a[0]] = c->a[2] & FD_CLOEXEC;
		}
		break;
	case RPD_FOREIGN:
		for (int i = 0; i < c->a[0] && i < 2; i++) {
			for (long f = i ? c->a[1] + 1 : 0; f < c->a[1 + i] && f < PS_MAXFD; f++)
				ps_require(ps, c->pid, s, f);
			ps_make(s, c->a[1 + i], rp_sys_flags(c) & O_CLOEXEC);
		}
		break;
	case RPD_DUP2:
		ps_make(s, c->a[1], rp_sys_flags(c) & O_CLOEXEC);
		break;
	case RPD_CLOSE:
		if (c->a[0] >= 0 && c->a[0] < PS_MAXFD)
			s->open[c->a[0]] = 0;
		break;
	case RPD_CLOSE_RANGE:
		for (long f = c->a[0]; f <= c->a[1] && f < PS_MAXFD; f++) {
			if (c->a[2] & CLOSE_RANGE_CLOEXEC)
				s->cloexec[f] = 1;
			else
				s->open[f] = 0;
		}
		break;
	case RPD_EXEC:
		if (s->refs > 1) {
			struct fset *n = malloc(sizeof(*n));

			if (!n)
				break;
			*n = *s;
			n->refs = 1;
			ps_add(ps, c->pid, n);
			s = n;
		}
		for (int f = 0; f < PS_MAXFD; f++)
			if (s->cloexec[f])
				s->open[f] = s->cloexec[f] = 0;
		break;
	default:
		break;
	}
}

static void ps_call(struct prescan *ps, const struct rp_call *c)
{
	struct fset *s;
	long ret = c->ret;
	bool ok = ret >= 0 && !(c->flags & (RPC_INTERRUPTED | RPC_RET_UNKNOWN));

	if (c->sys == RP_EXIT) {
		struct pset *p = ps_find(ps, c->pid);

		if (p) {
			fset_put(p->s);
			*p = ps->p[--ps->nr];
		}
		return;
	}
	s = ps_get(ps, c->pid);
	if (!s)
		return;
	if (c->sys == RP_CLONE) {
		struct fset *n;

		if (ret <= 0)
			return;
		if (c->a[0] & CLONE_FILES) {
			n = s;
			n->refs++;
		} else {
			n = malloc(sizeof(*n));
			if (!n)
				return;
			*n = *s;
			n->refs = 1;
		}
		if (!ps_add(ps, (int)ret, n))
			fset_put(n);
		return;
	}
	if (c->flags & (RPC_INTERRUPTED | RPC_RET_UNKNOWN) || ret == -EBADF)
		return;
	ps_used(ps, s, c);
	if (!ok)
		return;
	ps_made(ps, s, c);
}

void rp_prescan_fds(const struct rp_log *log, struct rp_tree *tree)
{
	struct prescan ps;

	memset(&ps, 0, sizeof(ps));
	ps.log = log;
	ps.tree = tree;
	for (ps.cur = 0; ps.cur < log->nr; ps.cur++)
		ps_call(&ps, &log->calls[ps.cur]);
	for (size_t i = 0; i < ps.nr; i++)
		fset_put(ps.p[i].s);
	free(ps.p);
}
