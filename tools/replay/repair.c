// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Discovery's repairs: when a call the log saw succeed ends otherwise
 * here, create what it needed (a missing component typed by what the call
 * or a later call on its fd showed, a size, directory entries, an fd
 * inherited from outside) and record it in the tree.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "tools/replay/engine.h"
#include "tools/replay/sys.h"
#include "vfs/vfs.h"

/* ---- creating what the log needs ---- */

void rp_add_holder(struct engine *e, struct task *h)
{
	struct task **n = rp_grow(e->holders, &e->cap_holders, e->nr_holders, sizeof(*n), 64);

	if (!n) {
		task_exit(h); /* the handle is lost; resizes fail */
		return;
	}
	e->holders = n;
	e->holders[e->nr_holders++] = h;
}

/* Create an object at (dfdr, path) in t; a holder keeps regular files open. */
long rp_create_live(struct engine *e, struct task *t, int dfdr, const char *path, mode_t mode,
		    long long size, const char *target, struct task **holder, int *hfd)
{
	long r;

	switch (mode & S_IFMT) {
	case S_IFDIR:
		r = sys_mkdirat(t, dfdr, path, 0700);
		if (!r)
			r = sys_fchmodat(t, dfdr, path, mode & 07777, 0);
		return r;
	case S_IFREG: {
		long fd = sys_openat(t, dfdr, path, O_CREAT | O_EXCL | O_RDWR | O_NOFOLLOW, 0600);

		if (fd < 0)
			return fd;
		r = size ? sys_ftruncate(t, (int)fd, size) : 0;
		if (!r)
			r = sys_fchmod(t, (int)fd, mode & 07777);
		if (!r && holder) {
			struct task *h = task_fork(t, 0);

			if (h) {
				if (fd > 0)
					sys_close_range(h, 0, (unsigned int)fd - 1, 0);
				sys_close_range(h, (unsigned int)fd + 1, ~0U, 0);
				*holder = h;
				*hfd = (int)fd;
				rp_add_holder(e, h);
			}
		}
		sys_close(t, (int)fd);
		return r;
	}
	case S_IFLNK:
		return sys_symlinkat(t, target ? target : "?", dfdr, path);
	default:
		r = sys_mknodat(t, dfdr, path, mode, makedev(1, 3));
		if (!r) /* past the umask */
			r = sys_fchmodat(t, dfdr, path, mode & 07777, 0);
		return r;
	}
}

/* A symlink body of len characters that resolves nowhere. */
static char *placeholder_target(const char *known, size_t known_len, long len)
{
	char *s;

	if (len <= 0)
		len = 1;
	s = malloc(len + 1);
	if (!s)
		return NULL;
	memset(s, '?', len);
	if (known)
		memcpy(s, known, known_len < (size_t)len ? known_len : (size_t)len);
	s[len] = '\0';
	return s;
}

/*
 * Create name as the component at prefix (relative to dfd like the call's
 * path), whose directory has inode parent_ino. Part of the initial tree if
 * that directory is, else injected before this call.
 */
static bool inject(struct engine *e, struct proc *p, long dfd, const char *prefix, const char *name,
		   unsigned long parent_ino, struct want *w)
{
	int dfdr = prefix[0] == '/' ? AT_FDCWD : rp_exec_tr(&e->x, dfd);
	int pnode = rp_tree_node_of_ino(e->tree, parent_ino);
	struct task *holder = NULL;
	int hfd = -1;
	struct stat st;
	long r = rp_create_live(e, p->task, dfdr, prefix, w->mode, w->size, w->target, &holder,
				&hfd);

	if (r < 0) {
		free(w->target);
		return false;
	}
	e->res->repairs++;
	if (pnode >= 0) {
		int node = rp_tree_add(e->tree, pnode, name, w->mode);
		struct rp_node *n;

		if (node < 0)
			return false;
		n = &e->tree->nodes[node];
		n->size = w->size;
		n->target = w->target;
		n->line = e->log->calls[e->cur].line;
		n->guessed = w->guessed;
		n->holder = holder;
		n->holder_fd = hfd;
		if (!sys_fstatat(p->task, dfdr, prefix, &st, AT_SYMLINK_NOFOLLOW))
			rp_tree_set_ino(e->tree, node, st.st_ino);
	} else {
		struct rp_tree *t = e->tree;
		struct rp_inject *in;

		in = rp_grow(t->inj, &t->cap_inj, t->nr_inj, sizeof(*in), 16);
		if (!in)
			return false;
		t->inj = in;
		in = &t->inj[t->nr_inj++];
		in->before = e->cur;
		in->pid = p->pid;
		in->dfd = prefix[0] == '/' ? AT_FDCWD : (int)dfd;
		in->path = strdup(prefix);
		in->mode = w->mode;
		in->size = w->size;
		in->target = w->target;
	}
	if (e->verbose)
		fprintf(stderr, "replay: line %u: created %s %s (mode %o, size %lld)%s\n",
			e->log->calls[e->cur].line, prefix,
			S_ISDIR(w->mode) ? "dir" :
			S_ISREG(w->mode) ? "file" :
			S_ISLNK(w->mode) ? "symlink" :
					   "node",
			w->mode & 07777, w->size, pnode >= 0 ? "" : " mid-log");
	return true;
}

int rp_path_specs(const struct rp_call *c, struct pspec s[2])
{
	const struct rp_sysdesc *d = rp_sys(c->sys);
	long flags = rp_sys_flags(c);
	bool eexist = c->ret == -EEXIST;
	struct rp_call magic;

	/* an fd's magic link: nothing to create, whatever it names exists */
	if (rp_magic_call(c, &magic))
		return 0;
	if ((d->flags & RPS_EMPTY_PATH) && (!c->p[0] || !c->p[0][0]))
		return 0;
	for (int i = 0; i < d->npath; i++) {
		const struct rp_path *p = &d->path[i];
		bool follow = p->walk == RPW_FOLLOW, final = p->final == RPN_YES;

		if (p->walk == RPW_OPEN)
			follow = !(flags & O_NOFOLLOW);
		else if (p->walk == RPW_AT)
			follow = !(flags & AT_SYMLINK_NOFOLLOW);
		else if (p->walk == RPW_LINKAT)
			follow = flags & AT_SYMLINK_FOLLOW;
		if (p->final == RPN_EEXIST)
			final = eexist;
		else if (p->final == RPN_OPEN)
			final = !(flags & O_CREAT) || eexist;
		s[i] = (struct pspec){ p->dfd ? c->a[p->dfd - 1] : AT_FDCWD, c->p[p->name], follow,
				       final };
	}
	return d->npath;
}

/* What a successful call's final component is, by its row's rp_makes. */
static void made_as(const struct rp_call *c, unsigned int makes, struct want *w)
{
	switch (makes) {
	case RPM_OPEN:
		if (c->flags & RPC_HINT_VALID) {
			w->mode = c->hint_mode;
			w->guessed = false;
			if (c->flags & RPC_HINT_SIZE)
				w->size = c->hint_size;
		} else if (rp_sys_flags(c) & O_DIRECTORY) {
			w->mode = S_IFDIR | 0755;
			w->guessed = false;
		}
		break;
	case RPM_REMOVEDIR:
		if (!(rp_sys_flags(c) & AT_REMOVEDIR))
			break;
		/* fall through */
	case RPM_DIR:
		w->mode = S_IFDIR | 0755;
		w->guessed = false;
		break;
	case RPM_SYMLINK:
		w->mode = S_IFLNK | 0777;
		w->guessed = false;
		w->target = placeholder_target(c->aux, c->aux ? strlen(c->aux) : 0,
					       c->ret > 0 ? c->ret : 1);
		break;
	case RPM_ACCESS:
		if (!(rp_sys_mode(c) & X_OK))
			break;
		/* fall through */
	case RPM_EXEC:
		w->mode = S_IFREG | 0755;
		break;
	default:
		break;
	}
}

/* What the final component must be for the call to end as the log says. */
static void final_want(const struct rp_call *c, int spec, struct want *w)
{
	const struct rp_sysdesc *d = rp_sys(c->sys);
	long err = c->ret < 0 ? -c->ret : 0;

	memset(w, 0, sizeof(*w));
	w->mode = S_IFREG | 0644;
	w->guessed = true;
	switch (err) {
	case ENOTDIR:
		return;
	case ELOOP:
		w->mode = S_IFLNK | 0777;
		w->target = placeholder_target(NULL, 0, 1);
		w->guessed = false;
		return;
	case EISDIR:
		w->mode = S_IFDIR | 0755;
		w->guessed = false;
		return;
	case ENXIO:
	case ENODEV:
		w->mode = S_IFCHR | 0666;
		w->guessed = false;
		return;
	case EEXIST:
		if (d->makes == RPM_MKDIR)
			w->mode = S_IFDIR | 0755;
		return;
	default:
		break;
	}
	if (spec != 0 || c->ret < 0)
		return;
	if (c->flags & RPC_ST_VALID) {
		w->mode = c->st_mode;
		w->size = c->st_size;
		w->guessed = false;
		if (S_ISLNK(c->st_mode))
			w->target = placeholder_target(NULL, 0, (long)c->st_size);
		return;
	}
	made_as(c, d->makes, w);
}

struct miss {
	int comp, ncomp; /* the missing component (1-based), 0: none, -1: cannot tell */
	char prefix[4096]; /* the path up to it */
	char name[256];
	unsigned long parent_ino;
};

/* Find the first missing component of s's path, up to the final or its parent. */
static void walk_missing(struct engine *e, struct proc *p, const struct pspec *s, struct miss *m)
{
	char copy[4096], *comps[512], *save = NULL;
	int n = 0, dfdr;
	bool abs;
	struct stat st;
	long r;
	size_t o = 0;

	m->comp = -1;
	if (!s->path || !s->path[0] || strlen(s->path) >= sizeof(copy))
		return;
	abs = s->path[0] == '/';
	dfdr = abs ? AT_FDCWD : rp_exec_tr(&e->x, s->dfd);
	snprintf(copy, sizeof(copy), "%s", s->path);
	for (char *c = strtok_r(copy, "/", &save); c && n < 512; c = strtok_r(NULL, "/", &save))
		comps[n++] = c;
	m->ncomp = n;
	if (abs)
		r = sys_fstatat(p->task, AT_FDCWD, "/", &st, 0);
	else if (dfdr == AT_FDCWD)
		r = sys_fstatat(p->task, AT_FDCWD, ".", &st, 0);
	else
		r = sys_fstatat(p->task, dfdr, "", &st, AT_EMPTY_PATH);
	if (r)
		return;
	m->parent_ino = st.st_ino;
	m->prefix[0] = '\0';
	if (abs)
		o = snprintf(m->prefix, sizeof(m->prefix), "/");
	for (int i = 0; i < n - !s->need_final; i++) {
		bool last = i == n - 1;

		o += snprintf(m->prefix + o, sizeof(m->prefix) - o, "%s%s",
			      i && m->prefix[o - 1] != '/' ? "/" : "", comps[i]);
		r = sys_fstatat(p->task, dfdr, m->prefix, &st,
				last && !s->follow ? AT_SYMLINK_NOFOLLOW : 0);
		if (!r) {
			m->parent_ino = st.st_ino;
			continue;
		}
		if (r != -ENOENT || !strcmp(comps[i], ".") || !strcmp(comps[i], ".."))
			return;
		/* a dangling symlink: its target is what is missing; leave it */
		if (!sys_fstatat(p->task, dfdr, m->prefix, &st, AT_SYMLINK_NOFOLLOW))
			return;
		m->comp = i + 1;
		snprintf(m->name, sizeof(m->name), "%s", comps[i]);
		return;
	}
	m->comp = 0;
}

static struct rp_node *node_of(struct engine *e, unsigned long ino)
{
	int n = rp_tree_node_of_ino(e->tree, ino);

	return n > 0 ? &e->tree->nodes[n] : NULL;
}

/* A missing path component: create it. */
static bool repair_missing(struct engine *e, struct proc *p, const struct rp_call *c)
{
	struct pspec s[2];
	int ns = rp_path_specs(c, s);

	for (int i = 0; i < ns; i++) {
		struct miss m;
		struct want w;

		walk_missing(e, p, &s[i], &m);
		if (m.comp <= 0)
			continue;
		if (m.comp == m.ncomp) {
			final_want(c, i, &w);
			if (S_ISLNK(w.mode) && c->ret == -ELOOP) {
				/* a symlink to itself: ELOOP however it is followed */
				free(w.target);
				w.target = strdup(m.name);
			}
		} else {
			memset(&w, 0, sizeof(w));
			w.mode = c->ret == -ENOTDIR ? S_IFREG | 0644 : S_IFDIR | 0755;
			w.guessed = true;
		}
		return inject(e, p, s[i].dfd, m.prefix, m.name, m.parent_ino, &w);
	}
	return false;
}

/* The log says EEXIST; ours created it: take it back, then make it pre-exist. */
static bool repair_eexist(struct engine *e, struct proc *p, const struct rp_call *c)
{
	struct pspec s[2];
	int ns = rp_path_specs(c, s), i = ns - 1, dfdr;
	const char *path;

	if (ns < 1 || !s[i].need_final)
		return false;
	path = s[i].path;
	dfdr = path && path[0] == '/' ? AT_FDCWD : rp_exec_tr(&e->x, s[i].dfd);
	switch (rp_sys(c->sys)->undo) {
	case RPU_RMDIR:
		if (sys_unlinkat(p->task, dfdr, path, AT_REMOVEDIR))
			return false;
		break;
	case RPU_RENAME:
		if (sys_renameat2(p->task, dfdr, path, rp_exec_tr(&e->x, s[0].dfd), s[0].path, 0))
			return false;
		break;
	case RPU_UNLINK:
		if (sys_unlinkat(p->task, dfdr, path, 0))
			return false;
		break;
	default:
		return false;
	}
	return repair_missing(e, p, c);
}

/* Resize an injected, untouched regular file through its holder. */
static bool resize(struct engine *e, struct rp_node *n, long long size)
{
	struct stat st;

	(void)e;
	if (!n || !S_ISREG(n->mode) || !n->holder || size < 0)
		return false;
	if (sys_fstat(n->holder, n->holder_fd, &st) || st.st_size != n->size)
		return false; /* the log wrote to it: not ours to change */
	if (sys_ftruncate(n->holder, n->holder_fd, size))
		return false;
	n->size = size;
	e->res->repairs++;
	return true;
}

static bool repair_read(struct engine *e, struct proc *p, const struct rp_call *c, long r)
{
	int fdr = rp_exec_tr(&e->x, c->a[0]);
	bool positional = rp_sys(c->sys)->flags & RPS_POS;
	long long before, want;
	struct stat st;

	if (r < 0 || c->ret < 0 || sys_fstat(p->task, fdr, &st))
		return false;
	if (positional) {
		before = c->a[2];
	} else {
		long cur = sys_lseek(p->task, fdr, 0, SEEK_CUR);

		if (cur < 0)
			return false;
		before = cur - r;
	}
	want = before + c->ret;
	if (r > c->ret && c->ret >= c->a[1])
		return false; /* the log's read was full: it says nothing of the end */
	if (!resize(e, node_of(e, st.st_ino), want))
		return false;
	if (!positional)
		sys_lseek(p->task, fdr, before, SEEK_SET);
	return true;
}

/* Make the listing as long as the log's with entries no call touches. */
static bool repair_getdents(struct engine *e, struct proc *p, const struct rp_call *c, long r)
{
	int fdr = rp_exec_tr(&e->x, c->a[0]);
	long deficit = c->ret - r, extra;
	int have = 0, need;
	struct stat st;

	if (r < 0 || c->ret <= r || c->nents <= 0 || c->a[1] < c->ret + 280)
		return false;
	for (long o = 0; o < r;) {
		const struct linux_dirent64 *d = (const void *)(e->x.buf + o);

		if (!d->d_reclen)
			break;
		o += d->d_reclen;
		have++;
	}
	need = c->nents - have;
	if (need <= 0 || deficit < 24L * need || deficit % 8)
		return false;
	if (sys_fstat(p->task, fdr, &st))
		return false;
	extra = deficit - 24L * need;
	for (int i = 0; i < need; i++) {
		/* reclen = ALIGN(19 + len + 1, 8): 24 for 4 characters, 8 more per 8 */
		long add = extra > 31 * 8 ? 31 * 8 : extra;
		size_t len = 4 + add;
		char name[256];
		struct want w = { .mode = S_IFREG | 0644 };

		extra -= add;
		if (e->filler_seq > 0xfff)
			return false;
		snprintf(name, sizeof(name), "~%03x", e->filler_seq++);
		memset(name + 4, '_', len - 4);
		name[len] = '\0';
		/* relative to the listing's fd: inject() decides initial or mid-log */
		if (!inject(e, p, c->a[0], name, name, st.st_ino, &w))
			return false;
	}
	sys_lseek(p->task, fdr, 0, SEEK_SET);
	return true;
}

/* stat output: type, permissions, size of an injected object. */
static bool repair_stat(struct engine *e, struct proc *p, const struct rp_call *c)
{
	struct stat *st = &e->x.st;
	struct rp_node *n = node_of(e, st->st_ino);
	bool changed = false;
	struct pspec s[2];
	long ofd = rp_object_fd(c);

	if (!n || !(c->flags & RPC_ST_VALID))
		return false;
	if ((st->st_mode & S_IFMT) != (c->st_mode & S_IFMT)) {
		/* a guessed type: remove and make it again, if a path names it */
		int dfdr;
		struct want w;

		if (!n->guessed || ofd >= 0 || rp_path_specs(c, s) < 1)
			return false;
		dfdr = s[0].path[0] == '/' ? AT_FDCWD : rp_exec_tr(&e->x, s[0].dfd);
		if (sys_unlinkat(p->task, dfdr, s[0].path, S_ISDIR(n->mode) ? AT_REMOVEDIR : 0))
			return false;
		final_want(c, 0, &w);
		if (rp_create_live(e, p->task, dfdr, s[0].path, w.mode, w.size, w.target,
				   &n->holder, &n->holder_fd)) {
			free(w.target);
			return false;
		}
		n->mode = w.mode;
		n->size = w.size;
		free(n->target);
		n->target = w.target;
		n->guessed = false;
		if (!sys_fstatat(p->task, dfdr, s[0].path, st, AT_SYMLINK_NOFOLLOW))
			rp_tree_set_ino(e->tree, (int)(n - e->tree->nodes), st->st_ino);
		e->res->repairs++;
		return true;
	}
	if ((st->st_mode & 07777) != (c->st_mode & 07777) && !S_ISLNK(c->st_mode) &&
	    (st->st_mode & 07777) == (n->mode & 07777)) {
		long r;

		if (ofd >= 0) {
			r = sys_fchmod(p->task, rp_exec_tr(&e->x, ofd), c->st_mode & 07777);
		} else if (rp_path_specs(c, s) >= 1) {
			int dfdr = s[0].path[0] == '/' ? AT_FDCWD : rp_exec_tr(&e->x, s[0].dfd);

			r = sys_fchmodat(p->task, dfdr, s[0].path, c->st_mode & 07777, 0);
		} else {
			r = -1;
		}
		if (!r) {
			n->mode = (n->mode & S_IFMT) | (c->st_mode & 07777);
			changed = true;
		}
	}
	if (S_ISREG(c->st_mode) && st->st_size != c->st_size && resize(e, n, c->st_size))
		changed = true;
	if (S_ISLNK(c->st_mode) && st->st_size != c->st_size && rp_path_specs(c, s) >= 1) {
		int dfdr = s[0].path[0] == '/' ? AT_FDCWD : rp_exec_tr(&e->x, s[0].dfd);
		char *t = placeholder_target(n->target, n->target ? strlen(n->target) : 0,
					     (long)c->st_size);

		if (t && !sys_unlinkat(p->task, dfdr, s[0].path, 0) &&
		    !sys_symlinkat(p->task, t, dfdr, s[0].path)) {
			free(n->target);
			n->target = t;
			if (!sys_fstatat(p->task, dfdr, s[0].path, st, AT_SYMLINK_NOFOLLOW))
				rp_tree_set_ino(e->tree, (int)(n - e->tree->nodes), st->st_ino);
			changed = true;
		} else {
			free(t);
		}
	}
	if (changed)
		e->res->repairs++;
	return changed;
}

/* readlink saw another body: an injected symlink takes the log's. */
static bool repair_readlink(struct engine *e, struct proc *p, const struct rp_call *c)
{
	struct pspec s[2];
	struct stat st;
	struct rp_node *n;
	int dfdr;
	char *t;

	if (c->ret <= 0 || rp_path_specs(c, s) < 1)
		return false;
	dfdr = s[0].path[0] == '/' ? AT_FDCWD : rp_exec_tr(&e->x, s[0].dfd);
	if (sys_fstatat(p->task, dfdr, s[0].path, &st, AT_SYMLINK_NOFOLLOW))
		return false;
	n = node_of(e, st.st_ino);
	/* a symlink, or something whose type was only a guess (execve) */
	if (!n || (!S_ISLNK(n->mode) && (!n->guessed || S_ISDIR(n->mode))))
		return false;
	t = placeholder_target(c->aux, c->aux ? strlen(c->aux) : 0, c->ret);
	if (!t || (S_ISLNK(n->mode) && n->target && !strcmp(n->target, t)) ||
	    sys_unlinkat(p->task, dfdr, s[0].path, 0) ||
	    sys_symlinkat(p->task, t, dfdr, s[0].path)) {
		free(t);
		return false;
	}
	if (n->holder) {
		/* the old file's handle: nothing left to resize */
		n->holder = NULL;
		n->holder_fd = -1;
	}
	n->mode = S_IFLNK | 0777;
	n->size = 0;
	n->guessed = false;
	free(n->target);
	n->target = t;
	if (!sys_fstatat(p->task, dfdr, s[0].path, &st, AT_SYMLINK_NOFOLLOW))
		rp_tree_set_ino(e->tree, (int)(n - e->tree->nodes), st.st_ino);
	e->res->repairs++;
	return true;
}

/* An fd the process used before any call made it: inherited from outside. */
static bool repair_inherited(struct engine *e, struct proc *p, const struct rp_call *c)
{
	const struct rp_sysdesc *d = rp_sys(c->sys);
	long fd = -1;

	if (d->flags & RPS_NO_INHERIT)
		return false;
	if (d->fds & 2) {
		/* renameat, linkat: either dirfd */
		if (c->a[0] >= 0 && !rp_fdmap_get(p->map, c->a[0]))
			fd = c->a[0];
		else if (c->a[1] >= 0 && !rp_fdmap_get(p->map, c->a[1]))
			fd = c->a[1];
	} else if (c->a[0] >= 0 && c->a[0] < 65536 && !rp_fdmap_get(p->map, c->a[0])) {
		fd = c->a[0];
	}
	if (fd < 0 || fd >= 65536)
		return false;
	rp_placeholder_at(e, p, (int)fd);
	rp_tree_add_fd(e->tree, (int)fd);
	e->res->repairs++;
	if (e->verbose)
		fprintf(stderr, "replay: line %u: fd %ld inherited from outside the log\n", c->line,
			fd);
	return true;
}

/* lseek(SEEK_END) came back elsewhere: the file's size is the log's. */
static bool repair_seek_end(struct engine *e, struct proc *p, const struct rp_call *c, long r)
{
	struct stat st;
	int fdr = rp_exec_tr(&e->x, c->a[0]);

	if (c->a[2] != SEEK_END || c->ret < 0 || r < 0 || sys_fstat(p->task, fdr, &st))
		return false;
	return resize(e, node_of(e, st.st_ino), c->ret - c->a[1]);
}

/* execve() the log saw succeed was EACCES: the file is executable. */
static bool repair_exec(struct engine *e, struct proc *p, const struct rp_call *c)
{
	struct pspec s[2];
	struct stat st;
	struct rp_node *n;
	int dfdr;

	if (rp_path_specs(c, s) < 1)
		return false;
	dfdr = s[0].path[0] == '/' ? AT_FDCWD : rp_exec_tr(&e->x, s[0].dfd);
	if (sys_fstatat(p->task, dfdr, s[0].path, &st, 0))
		return false;
	n = node_of(e, st.st_ino);
	if (!n || sys_fchmodat(p->task, dfdr, s[0].path, (st.st_mode | 0111) & 07777, 0))
		return false;
	n->mode |= 0111;
	return true;
}

/* One repair for a call that did not end as the log says; true to retry. */
bool rp_repair(struct engine *e, struct proc *p, const struct rp_call *c, long r)
{
	if (r == -EBADF && c->ret != -EBADF)
		return repair_inherited(e, p, c);
	if (r == -ENOENT && c->ret != -ENOENT)
		return repair_missing(e, p, c);
	if (c->ret == -EEXIST && r >= 0)
		return repair_eexist(e, p, c);
	switch (rp_sys(c->sys)->repair) {
	case RPR_READ:
		return repair_read(e, p, c, r);
	case RPR_SEEK_END:
		return repair_seek_end(e, p, c, r);
	case RPR_LISTING:
		return e->listings && repair_getdents(e, p, c, r);
	case RPR_READLINK:
		return repair_readlink(e, p, c);
	case RPR_EXEC:
		return r == -EACCES && c->ret == 0 && repair_exec(e, p, c);
	default:
		return false;
	}
}

/* A call that matched but whose output fields differ: stat, readlink. */
bool rp_repair_fields(struct engine *e, struct proc *p, const struct rp_call *c)
{
	switch (rp_sys(c->sys)->out) {
	case RPX_STAT:
		return repair_stat(e, p, c);
	case RPX_LINK:
		return repair_readlink(e, p, c);
	default:
		return false;
	}
}
