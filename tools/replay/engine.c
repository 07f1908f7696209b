// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The single-threaded replay: every call of the log in log order, each
 * log pid on its own vfslab task (forked as the log's clone/fork/vfork
 * lines say, CLONE_FILES sharing the fd table, exited at "+++ exited"),
 * results compared with the log's.
 *
 * Discovery mode starts from the near-empty tree and repairs as it goes:
 * when a call the log saw succeed fails here because a path component is
 * missing, the component is created (typed by what the call or a later
 * call on its fd showed: stat output, O_DIRECTORY, getdents), and if its
 * directory was there from the start it becomes part of the initial tree.
 * Reads that came back short grow the file, stat sizes set it, a listing
 * that came back smaller gets filler entries of the right name lengths,
 * an fd used before any call made it becomes an inherited placeholder.
 * Regular files keep an O_RDWR descriptor in a holder task of their own,
 * so they can be resized however the log reaches them later.
 *
 * The check mode replays a fresh VFS built from that tree without repairs:
 * what still differs is either a vfslab bug or a limit of the replay.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "tools/replay/replay.h"
#include "vfs/vfs.h"

struct proc {
	int pid;
	struct task *task;
	struct rp_fdmap *map;
	size_t info; /* index in res->pids */
	char cwd[4096];
	mode_t umask;
};

struct engine {
	struct vfs *vfs;
	const struct rp_log *log;
	struct rp_tree *tree;
	struct rp_result *res;
	bool discover, listings, verbose;
	struct task *base;
	struct proc *procs;
	size_t nr_procs, cap_procs;
	bool root_started;
	struct rp_exec x;
	size_t cur;
	size_t inj_next, fdinj_next;
	struct task **holders;
	size_t nr_holders, cap_holders;
	unsigned int filler_seq;
};

/* ---- paths ---- */

/* base + "/" + rel, normalised lexically ("." and ".." resolved). */
static void path_join(char *out, size_t len, const char *base, const char *rel)
{
	char tmp[8192];
	char *parts[1024], *save = NULL;
	int n = 0;
	size_t o = 0;

	if (rel[0] == '/')
		snprintf(tmp, sizeof(tmp), "%s", rel);
	else
		snprintf(tmp, sizeof(tmp), "%s/%s", base, rel);
	for (char *c = strtok_r(tmp, "/", &save); c; c = strtok_r(NULL, "/", &save)) {
		if (!strcmp(c, "."))
			continue;
		if (!strcmp(c, "..")) {
			if (n)
				n--;
			continue;
		}
		if (n < 1024)
			parts[n++] = c;
	}
	out[0] = '\0';
	if (!n)
		snprintf(out, len, "/");
	for (int i = 0; i < n && o < len; i++)
		o += snprintf(out + o, len - o, "/%s", parts[i]);
}

/* The absolute path a (dfd, path) pair names, when the log lets us know. */
static bool abs_path(const struct proc *p, long dfd, const char *path, char *out, size_t len)
{
	const struct rp_fdent *e;

	if (!path)
		return false;
	if (path[0] == '/' || dfd == AT_FDCWD) {
		path_join(out, len, p->cwd, path);
		return true;
	}
	e = rp_fdmap_get(p->map, dfd);
	if (!e || !e->path)
		return false;
	path_join(out, len, e->path, path);
	return true;
}

/* ---- processes ---- */

static struct proc *find_proc(struct engine *e, int pid)
{
	for (size_t i = 0; i < e->nr_procs; i++)
		if (e->procs[i].pid == pid)
			return &e->procs[i];
	return NULL;
}

static void record_pidinfo(struct engine *e, struct proc *p, int parent, unsigned int flags)
{
	struct rp_result *res = e->res;
	struct rp_pidinfo *pi;

	if (res->nr_pids % 64 == 0) {
		struct rp_pidinfo *n = realloc(res->pids, (res->nr_pids + 64) * sizeof(*n));

		if (!n)
			return;
		res->pids = n;
	}
	pi = &res->pids[res->nr_pids];
	memset(pi, 0, sizeof(*pi));
	pi->pid = p->pid;
	pi->parent = parent;
	pi->clone_flags = flags;
	pi->cwd = strdup(p->cwd);
	pi->umask = p->umask;
	for (int i = 0; i < p->map->nr; i++) {
		const struct rp_fdent *fe = rp_fdmap_get(p->map, i);
		struct rp_inherit *in;

		if (!fe)
			continue;
		in = realloc(pi->fds, (pi->nr_fds + 1) * sizeof(*in));
		if (!in)
			break;
		pi->fds = in;
		in += pi->nr_fds++;
		in->logfd = i;
		in->foreign = fe->flags & RPF_FOREIGN;
		in->flags = fe->oflags;
		in->path = fe->path ? strdup(fe->path) : NULL;
	}
	p->info = res->nr_pids++;
}

static struct proc *add_proc(struct engine *e, int pid, struct task *t, struct rp_fdmap *map)
{
	struct proc *p;

	if (e->nr_procs == e->cap_procs) {
		size_t cap = e->cap_procs ? e->cap_procs * 2 : 16;

		p = realloc(e->procs, cap * sizeof(*p));
		if (!p)
			return NULL;
		e->procs = p;
		e->cap_procs = cap;
	}
	p = &e->procs[e->nr_procs++];
	memset(p, 0, sizeof(*p));
	p->pid = pid;
	p->task = t;
	p->map = map;
	return p;
}

static void del_proc(struct engine *e, struct proc *p)
{
	task_exit(p->task);
	rp_fdmap_put(p->map);
	*p = e->procs[--e->nr_procs];
}

/* A process the log shows no clone for: the first one, or an orphan. */
static struct proc *start_proc(struct engine *e, int pid)
{
	struct task *t = task_fork(e->base, 0);
	struct rp_fdmap *m = rp_fdmap_new();
	struct proc *p;

	if (!t || !m) {
		if (t)
			task_exit(t);
		rp_fdmap_put(m);
		return NULL;
	}
	for (size_t i = 0; i < e->tree->nr_fds; i++)
		rp_fdmap_set(m, e->tree->fds[i], e->tree->fds[i], RPF_FOREIGN, O_RDWR, NULL);
	p = add_proc(e, pid, t, m);
	if (!p)
		return NULL;
	snprintf(p->cwd, sizeof(p->cwd), "%s", e->log->cwd);
	p->umask = e->log->umask;
	if (pid != e->log->root_pid || e->root_started)
		e->res->pids_without_clone++;
	if (pid == e->log->root_pid)
		e->root_started = true;
	record_pidinfo(e, p, 0, 0);
	return p;
}

static struct proc *get_proc(struct engine *e, int pid)
{
	struct proc *p = find_proc(e, pid);

	return p ? p : start_proc(e, pid);
}

static void do_clone(struct engine *e, const struct rp_call *c)
{
	struct proc *parent = get_proc(e, c->pid), *child, *old;
	unsigned int flags = 0;
	struct rp_fdmap *m;
	struct task *t;

	if (!parent || c->ret <= 0)
		return;
	old = find_proc(e, (int)c->ret);
	if (old) /* a pid reused without an exit line */
		del_proc(e, old);
	parent = find_proc(e, c->pid);
	if (c->a[0] & CLONE_FILES)
		flags |= TASK_CLONE_FILES;
	if (c->a[0] & CLONE_FS)
		flags |= TASK_CLONE_FS;
	t = task_fork(parent->task, flags);
	if (!t)
		return;
	if (flags & TASK_CLONE_FILES) {
		m = parent->map;
		m->refs++;
	} else {
		m = rp_fdmap_copy(parent->map);
	}
	{
		char cwd[4096];
		mode_t um = parent->umask;

		snprintf(cwd, sizeof(cwd), "%s", parent->cwd);
		child = add_proc(e, (int)c->ret, t, m);
		if (!child)
			return;
		snprintf(child->cwd, sizeof(child->cwd), "%s", cwd);
		child->umask = um;
	}
	record_pidinfo(e, child, c->pid, (unsigned int)c->a[0]);
}

/* ---- creating what the log needs ---- */

static void add_holder(struct engine *e, struct task *h)
{
	if (e->nr_holders == e->cap_holders) {
		size_t cap = e->cap_holders ? e->cap_holders * 2 : 64;
		struct task **n = realloc(e->holders, cap * sizeof(*n));

		if (!n) {
			task_exit(h); /* the handle is lost; resizes fail */
			return;
		}
		e->holders = n;
		e->cap_holders = cap;
	}
	e->holders[e->nr_holders++] = h;
}

/* Create an object at (dfdr, path) in t; a holder keeps regular files open. */
static long create_live(struct engine *e, struct task *t, int dfdr, const char *path, mode_t mode,
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
				add_holder(e, h);
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

struct want {
	mode_t mode;
	long long size;
	char *target; /* owned */
	bool guessed;
};

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
	long r = create_live(e, p->task, dfdr, prefix, w->mode, w->size, w->target, &holder, &hfd);

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

		if (t->nr_inj == t->cap_inj) {
			size_t cap = t->cap_inj ? t->cap_inj * 2 : 16;

			in = realloc(t->inj, cap * sizeof(*in));
			if (!in)
				return false;
			t->inj = in;
			t->cap_inj = cap;
		}
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

/* The paths a call walks: which must exist, which only need a parent. */
struct pspec {
	long dfd;
	const char *path;
	bool follow;
	bool need_final;
};

static int path_specs(const struct rp_call *c, struct pspec s[2])
{
	const long *a = c->a;
	bool eexist = c->ret == -EEXIST;
	struct rp_call magic;

	/* an fd's magic link: nothing to create, whatever it names exists */
	if (rp_magic_call(c, &magic))
		return 0;

#define SPEC(i, d, p, f, n) (s[i] = (struct pspec){ (d), (p), (f), (n) })
	switch (c->sys) {
	case RP_OPEN:
		SPEC(0, AT_FDCWD, c->p[0], !(a[0] & O_NOFOLLOW), !(a[0] & O_CREAT) || eexist);
		return 1;
	case RP_OPENAT:
		SPEC(0, a[0], c->p[0], !(a[1] & O_NOFOLLOW), !(a[1] & O_CREAT) || eexist);
		return 1;
	case RP_CREAT:
		SPEC(0, AT_FDCWD, c->p[0], true, false);
		return 1;
	case RP_STAT:
	case RP_ACCESS:
	case RP_CHDIR:
	case RP_CHMOD:
	case RP_CHOWN:
	case RP_TRUNCATE:
	case RP_EXECVE:
		SPEC(0, AT_FDCWD, c->p[0], true, true);
		return 1;
	case RP_LSTAT:
	case RP_UNLINK:
	case RP_RMDIR:
	case RP_READLINK:
	case RP_LCHOWN:
	case RP_LSETXATTR:
		SPEC(0, AT_FDCWD, c->p[0], false, true);
		return 1;
	case RP_SETXATTR:
		SPEC(0, AT_FDCWD, c->p[0], true, true);
		return 1;
	case RP_NEWFSTATAT:
	case RP_STATX:
		SPEC(0, a[0], c->p[0], !(a[1] & AT_SYMLINK_NOFOLLOW), true);
		return c->p[0] && c->p[0][0];
	case RP_FACCESSAT:
	case RP_FCHMODAT:
	case RP_EXECVEAT:
		SPEC(0, a[0], c->p[0], true, true);
		return c->p[0] && c->p[0][0];
	case RP_FACCESSAT2:
		SPEC(0, a[0], c->p[0], !(a[2] & AT_SYMLINK_NOFOLLOW), true);
		return c->p[0] && c->p[0][0];
	case RP_FCHOWNAT:
		SPEC(0, a[0], c->p[0], !(a[3] & AT_SYMLINK_NOFOLLOW), true);
		return c->p[0] && c->p[0][0];
	case RP_UTIMENSAT:
		SPEC(0, a[0], c->p[0], !(a[2] & AT_SYMLINK_NOFOLLOW), true);
		return c->p[0] && c->p[0][0];
	case RP_UNLINKAT:
	case RP_READLINKAT:
		SPEC(0, a[0], c->p[0], false, true);
		return 1;
	case RP_RENAME:
		SPEC(0, AT_FDCWD, c->p[0], false, true);
		SPEC(1, AT_FDCWD, c->p[1], false, eexist);
		return 2;
	case RP_RENAMEAT:
	case RP_RENAMEAT2:
		SPEC(0, a[0], c->p[0], false, true);
		SPEC(1, a[1], c->p[1], false, eexist);
		return 2;
	case RP_LINK:
		SPEC(0, AT_FDCWD, c->p[0], false, true);
		SPEC(1, AT_FDCWD, c->p[1], false, eexist);
		return 2;
	case RP_LINKAT:
		SPEC(0, a[0], c->p[0], a[2] & AT_SYMLINK_FOLLOW, true);
		SPEC(1, a[1], c->p[1], false, eexist);
		return 2;
	case RP_MKDIR:
	case RP_MKNOD:
		SPEC(0, AT_FDCWD, c->p[0], false, eexist);
		return 1;
	case RP_MKDIRAT:
	case RP_MKNODAT:
		SPEC(0, a[0], c->p[0], false, eexist);
		return 1;
	case RP_SYMLINK:
		SPEC(0, AT_FDCWD, c->p[1], false, eexist);
		return 1;
	case RP_SYMLINKAT:
		SPEC(0, a[0], c->p[1], false, eexist);
		return 1;
	default:
		return 0;
	}
#undef SPEC
}

/* What the final component must be for the call to end as the log says. */
static void final_want(const struct rp_call *c, int spec, struct want *w)
{
	long err = c->ret < 0 ? -c->ret : 0;
	long oflags = c->sys == RP_OPEN ? c->a[0] : c->sys == RP_OPENAT ? c->a[1] : 0;

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
		if (c->sys == RP_MKDIR || c->sys == RP_MKDIRAT)
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
	switch (c->sys) {
	case RP_OPEN:
	case RP_OPENAT:
		if (c->flags & RPC_HINT_VALID) {
			w->mode = c->hint_mode;
			w->guessed = false;
			if (c->flags & RPC_HINT_SIZE)
				w->size = c->hint_size;
		} else if (oflags & O_DIRECTORY) {
			w->mode = S_IFDIR | 0755;
			w->guessed = false;
		}
		break;
	case RP_CHDIR:
	case RP_RMDIR:
		w->mode = S_IFDIR | 0755;
		w->guessed = false;
		break;
	case RP_UNLINKAT:
		if (c->a[1] & AT_REMOVEDIR) {
			w->mode = S_IFDIR | 0755;
			w->guessed = false;
		}
		break;
	case RP_READLINK:
	case RP_READLINKAT:
		w->mode = S_IFLNK | 0777;
		w->guessed = false;
		w->target = placeholder_target(c->aux, c->aux ? strlen(c->aux) : 0,
					       c->ret > 0 ? c->ret : 1);
		break;
	case RP_EXECVE:
	case RP_EXECVEAT:
		w->mode = S_IFREG | 0755;
		break;
	case RP_ACCESS:
	case RP_FACCESSAT:
	case RP_FACCESSAT2:
		if (c->a[c->sys == RP_ACCESS ? 0 : 1] & X_OK)
			w->mode = S_IFREG | 0755;
		break;
	default:
		break;
	}
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
	int ns = path_specs(c, s);

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
	int ns = path_specs(c, s), i = ns - 1, dfdr;
	const char *path;

	if (ns < 1 || !s[i].need_final)
		return false;
	path = s[i].path;
	dfdr = path && path[0] == '/' ? AT_FDCWD : rp_exec_tr(&e->x, s[i].dfd);
	switch (c->sys) {
	case RP_MKDIR:
	case RP_MKDIRAT:
		if (sys_unlinkat(p->task, dfdr, path, AT_REMOVEDIR))
			return false;
		break;
	case RP_RENAMEAT2:
		if (sys_renameat2(p->task, dfdr, path, rp_exec_tr(&e->x, s[0].dfd), s[0].path, 0))
			return false;
		break;
	case RP_OPEN:
	case RP_OPENAT:
	case RP_SYMLINK:
	case RP_SYMLINKAT:
	case RP_LINK:
	case RP_LINKAT:
	case RP_MKNOD:
	case RP_MKNODAT:
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
	bool positional = c->sys == RP_PREAD64 || c->sys == RP_PREADV;
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

		if (!n->guessed || ofd >= 0 || path_specs(c, s) < 1)
			return false;
		dfdr = s[0].path[0] == '/' ? AT_FDCWD : rp_exec_tr(&e->x, s[0].dfd);
		if (sys_unlinkat(p->task, dfdr, s[0].path, S_ISDIR(n->mode) ? AT_REMOVEDIR : 0))
			return false;
		final_want(c, 0, &w);
		if (create_live(e, p->task, dfdr, s[0].path, w.mode, w.size, w.target, &n->holder,
				&n->holder_fd)) {
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
		} else if (path_specs(c, s) >= 1) {
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
	if (S_ISLNK(c->st_mode) && st->st_size != c->st_size && path_specs(c, s) >= 1) {
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

	if (c->ret <= 0 || path_specs(c, s) < 1)
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

static void placeholder_at(struct engine *e, struct proc *p, int fd);

/* An fd the process used before any call made it: inherited from outside. */
static bool repair_inherited(struct engine *e, struct proc *p, const struct rp_call *c)
{
	long fd = -1;

	switch (c->sys) {
	case RP_RENAMEAT:
	case RP_RENAMEAT2:
	case RP_LINKAT:
		if (c->a[0] >= 0 && !rp_fdmap_get(p->map, c->a[0]))
			fd = c->a[0];
		else if (c->a[1] >= 0 && !rp_fdmap_get(p->map, c->a[1]))
			fd = c->a[1];
		break;
	case RP_SYMLINKAT:
	case RP_CLOSE_RANGE:
	case RP_FOREIGN:
		return false;
	default:
		if (c->a[0] >= 0 && c->a[0] < 65536 && !rp_fdmap_get(p->map, c->a[0]))
			fd = c->a[0];
	}
	if (fd < 0 || fd >= 65536)
		return false;
	placeholder_at(e, p, (int)fd);
	rp_tree_add_fd(e->tree, (int)fd);
	e->res->repairs++;
	if (e->verbose)
		fprintf(stderr, "replay: line %u: fd %ld inherited from outside the log\n", c->line,
			fd);
	return true;
}

/* One repair for a call that did not end as the log says; true to retry. */
static bool repair(struct engine *e, struct proc *p, const struct rp_call *c, long r)
{
	if (r == -EBADF && c->ret != -EBADF)
		return repair_inherited(e, p, c);
	if (r == -ENOENT && c->ret != -ENOENT)
		return repair_missing(e, p, c);
	if (c->ret == -EEXIST && r >= 0)
		return repair_eexist(e, p, c);
	switch (c->sys) {
	case RP_READ:
	case RP_READV:
	case RP_PREAD64:
	case RP_PREADV:
		return repair_read(e, p, c, r);
	case RP_LSEEK: {
		struct stat st;
		int fdr = rp_exec_tr(&e->x, c->a[0]);

		if (c->a[2] != SEEK_END || c->ret < 0 || r < 0 || sys_fstat(p->task, fdr, &st))
			return false;
		return resize(e, node_of(e, st.st_ino), c->ret - c->a[1]);
	}
	case RP_GETDENTS64:
		return e->listings && repair_getdents(e, p, c, r);
	case RP_READLINK:
	case RP_READLINKAT:
		return repair_readlink(e, p, c);
	case RP_EXECVE:
	case RP_EXECVEAT:
		if (r == -EACCES && c->ret == 0) {
			struct pspec s[2];
			struct stat st;
			struct rp_node *n;
			int dfdr;

			if (path_specs(c, s) < 1)
				return false;
			dfdr = s[0].path[0] == '/' ? AT_FDCWD : rp_exec_tr(&e->x, s[0].dfd);
			if (sys_fstatat(p->task, dfdr, s[0].path, &st, 0))
				return false;
			n = node_of(e, st.st_ino);
			if (!n ||
			    sys_fchmodat(p->task, dfdr, s[0].path, (st.st_mode | 0111) & 07777, 0))
				return false;
			n->mode |= 0111;
			return true;
		}
		return false;
	default:
		return false;
	}
}

/* ---- comparing ---- */

static bool pseudo_prefix(const char *p)
{
	if (!p || !strncmp(p, "/dev/shm/", 9) || !strcmp(p, "/dev/shm"))
		return false;
	return !strncmp(p, "/proc/", 6) || !strncmp(p, "/sys/", 5) || !strncmp(p, "/dev/", 5) ||
	       !strcmp(p, "/proc") || !strcmp(p, "/sys") || !strcmp(p, "/dev");
}

/* /proc, /sys and /dev are not tmpfs: what they answer, a tree cannot. */
static bool pseudo_path(struct engine *e, const struct rp_call *c)
{
	long ofd = rp_object_fd(c);
	const struct rp_fdent *fe;
	struct proc *p = find_proc(e, c->pid);
	char path[8192];

	if (pseudo_prefix(c->p[0]) || pseudo_prefix(c->p[1]))
		return true;
	if (!p)
		return false;
	if (ofd >= 0 && (fe = rp_fdmap_get(p->map, ofd)) && pseudo_prefix(fe->path))
		return true;
	{
		struct pspec s[2];
		int n = path_specs(c, s);

		for (int i = 0; i < n; i++)
			if (abs_path(p, s[i].dfd, s[i].path, path, sizeof(path)) &&
			    pseudo_prefix(path))
				return true;
	}
	return false;
}

static void add_mismatch(struct engine *e, long r, const char *what)
{
	struct rp_result *res = e->res;
	struct rp_mismatch *m;

	if (res->nr_mm == res->cap_mm) {
		size_t cap = res->cap_mm ? res->cap_mm * 2 : 32;

		m = realloc(res->mm, cap * sizeof(*m));
		if (!m)
			return;
		res->mm = m;
		res->cap_mm = cap;
	}
	m = &res->mm[res->nr_mm++];
	m->call = e->cur;
	m->got = r;
	m->pseudo = pseudo_path(e, &e->log->calls[e->cur]);
	snprintf(m->what, sizeof(m->what), "%s", what ? what : "");
}

static bool is_stat(unsigned int sys)
{
	return sys == RP_STAT || sys == RP_LSTAT || sys == RP_FSTAT || sys == RP_NEWFSTATAT ||
	       sys == RP_STATX;
}

/* Fields beyond the return value: stat output, readlink and getcwd bodies. */
static bool fields_differ(struct engine *e, const struct rp_call *c, long r, char *what, size_t len)
{
	const struct stat *st = &e->x.st;

	if (r < 0 || r != c->ret)
		return false;
	if (is_stat(c->sys) && (c->flags & RPC_ST_VALID)) {
		bool injected = rp_tree_node_of_ino(e->tree, st->st_ino) >= 0;

		if ((st->st_mode & (S_IFMT | 07777)) != (c->st_mode & (S_IFMT | 07777))) {
			snprintf(what, len, "st_mode %06o, vfslab %06o", (unsigned int)c->st_mode,
				 (unsigned int)st->st_mode);
			return true;
		}
		/* a directory's size is its filesystem's; compare tmpfs's only */
		if ((S_ISREG(c->st_mode) || S_ISLNK(c->st_mode) ||
		     (S_ISDIR(c->st_mode) && !injected)) &&
		    st->st_size != c->st_size) {
			snprintf(what, len, "st_size %lld, vfslab %lld", c->st_size,
				 (long long)st->st_size);
			return true;
		}
	}
	if (c->sys == RP_GETDENTS64 && c->nents >= 0) {
		/* the same bytes can hold other entries: count them too */
		int n = 0;

		for (long o = 0; o < r && o + 19 <= (long)e->x.bufsz;) {
			const struct linux_dirent64 *d = (const void *)(e->x.buf + o);

			if (!d->d_reclen)
				break;
			o += d->d_reclen;
			n++;
		}
		if (n != c->nents) {
			snprintf(what, len, "%d entries, vfslab %d", c->nents, n);
			return true;
		}
	}
	if ((c->sys == RP_READLINK || c->sys == RP_READLINKAT || c->sys == RP_GETCWD) && c->aux &&
	    r > 0) {
		size_t n = c->sys == RP_GETCWD ? (size_t)r - 1 : (size_t)r;
		size_t known = strlen(c->aux);

		if (c->flags & RPC_AUX_TRUNC)
			n = known < n ? known : n;
		if (memcmp(e->x.buf, c->aux, n)) {
			snprintf(what, len, "\"%.*s\", vfslab \"%.*s\"", (int)(n < 60 ? n : 60),
				 c->aux, (int)(n < 60 ? n : 60), e->x.buf);
			return true;
		}
	}
	return false;
}

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
	if (ps->nr == ps->cap) {
		size_t cap = ps->cap ? ps->cap * 2 : 16;

		p = realloc(ps->p, cap * sizeof(*p));
		if (!p)
			return NULL;
		ps->p = p;
		ps->cap = cap;
	}
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

		if (t->nr_fdinj == t->cap_fdinj) {
			size_t cap = t->cap_fdinj ? t->cap_fdinj * 2 : 16;

			in = realloc(t->fdinj, cap * sizeof(*in));
			if (!in)
				return;
			t->fdinj = in;
			t->cap_fdinj = cap;
		}
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

static void ps_call(struct prescan *ps, const struct rp_call *c)
{
	struct fset *s;
	long ofd = rp_object_fd(c), ret = c->ret;
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
	/* descriptors the call used */
	if (ofd >= 0)
		ps_require(ps, c->pid, s, ofd);
	switch (c->sys) {
	case RP_CLOSE:
	case RP_DUP:
	case RP_DUP2:
	case RP_DUP3:
	case RP_FCNTL:
		ps_require(ps, c->pid, s, c->a[0]);
		break;
	case RP_OPENAT:
	case RP_NEWFSTATAT:
	case RP_STATX:
	case RP_FACCESSAT:
	case RP_FACCESSAT2:
	case RP_UNLINKAT:
	case RP_MKDIRAT:
	case RP_READLINKAT:
	case RP_FCHMODAT:
	case RP_FCHOWNAT:
	case RP_MKNODAT:
	case RP_UTIMENSAT:
	case RP_EXECVEAT:
		if (c->p[0] && c->p[0][0] != '/' && c->a[0] != AT_FDCWD)
			ps_require(ps, c->pid, s, c->a[0]);
		break;
	case RP_RENAMEAT:
	case RP_RENAMEAT2:
	case RP_LINKAT:
		if (c->p[0] && c->p[0][0] != '/' && c->a[0] != AT_FDCWD)
			ps_require(ps, c->pid, s, c->a[0]);
		if (c->p[1] && c->p[1][0] != '/' && c->a[1] != AT_FDCWD)
			ps_require(ps, c->pid, s, c->a[1]);
		break;
	case RP_SYMLINKAT:
		if (c->p[1] && c->p[1][0] != '/' && c->a[0] != AT_FDCWD)
			ps_require(ps, c->pid, s, c->a[0]);
		break;
	default:
		break;
	}
	if (!ok)
		return;
	/* descriptors it made: lowest free, so every lower one was in use */
	switch (c->sys) {
	case RP_OPEN:
	case RP_OPENAT:
	case RP_CREAT:
	case RP_DUP: {
		long fl = c->sys == RP_OPEN ? c->a[0] : c->sys == RP_OPENAT ? c->a[1] : 0;

		for (long f = 0; f < ret && f < PS_MAXFD; f++)
			ps_require(ps, c->pid, s, f);
		ps_make(s, ret, fl & O_CLOEXEC);
		break;
	}
	case RP_FCNTL:
		if (c->a[1] == F_DUPFD || c->a[1] == F_DUPFD_CLOEXEC) {
			for (long f = c->a[2] > 0 ? c->a[2] : 0; f < ret && f < PS_MAXFD; f++)
				ps_require(ps, c->pid, s, f);
			ps_make(s, ret, c->a[1] == F_DUPFD_CLOEXEC);
		} else if (c->a[1] == F_SETFD && c->a[0] >= 0 && c->a[0] < PS_MAXFD) {
			s->cloexec[c->a[0]] = c->a[2] & FD_CLOEXEC;
		}
		break;
	case RP_FOREIGN:
		for (int i = 0; i < c->a[0] && i < 2; i++) {
			for (long f = i ? c->a[1] + 1 : 0; f < c->a[1 + i] && f < PS_MAXFD; f++)
				ps_require(ps, c->pid, s, f);
			ps_make(s, c->a[1 + i], c->a[3] & O_CLOEXEC);
		}
		break;
	case RP_DUP2:
	case RP_DUP3:
		ps_make(s, c->a[1], c->sys == RP_DUP3 && (c->a[2] & O_CLOEXEC));
		break;
	case RP_CLOSE:
		if (c->a[0] >= 0 && c->a[0] < PS_MAXFD)
			s->open[c->a[0]] = 0;
		break;
	case RP_CLOSE_RANGE:
		for (long f = c->a[0]; f <= c->a[1] && f < PS_MAXFD; f++) {
			if (c->a[2] & CLOSE_RANGE_CLOEXEC)
				s->cloexec[f] = 1;
			else
				s->open[f] = 0;
		}
		break;
	case RP_EXECVE:
	case RP_EXECVEAT:
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

/* ---- the loop ---- */

static void track(struct proc *p, const struct rp_call *c, long r)
{
	char path[sizeof(p->cwd)];

	if (r < 0)
		return;
	switch (c->sys) {
	case RP_OPEN:
	case RP_CREAT:
	case RP_OPENAT: {
		const struct rp_fdent *fe = rp_fdmap_get(p->map, c->ret);
		long dfd = c->sys == RP_OPENAT ? c->a[0] : AT_FDCWD;

		if (fe && abs_path(p, dfd, c->p[0], path, sizeof(path)))
			rp_fdmap_set(p->map, c->ret, fe->real, fe->flags, fe->oflags, path);
		break;
	}
	case RP_CHDIR:
		path_join(path, sizeof(path), p->cwd, c->p[0]);
		snprintf(p->cwd, sizeof(p->cwd), "%s", path);
		break;
	case RP_FCHDIR: {
		const struct rp_fdent *fe = rp_fdmap_get(p->map, c->a[0]);

		if (fe && fe->path)
			snprintf(p->cwd, sizeof(p->cwd), "%s", fe->path);
		break;
	}
	case RP_UMASK:
		p->umask = (mode_t)c->a[0] & 0777;
		break;
	default:
		break;
	}
}

/* Open a placeholder at the log's number fd in p. */
static void placeholder_at(struct engine *e, struct proc *p, int fd)
{
	long tmp;

	e->x.task = p->task;
	e->x.map = p->map;
	tmp = rp_exec_placeholder(&e->x);
	if (tmp < 0)
		return;
	if (tmp != fd) {
		sys_dup2(p->task, (int)tmp, fd);
		sys_close(p->task, (int)tmp);
	}
	rp_fdmap_set(p->map, fd, fd, RPF_FOREIGN, O_RDWR, NULL);
}

static void run_injections(struct engine *e)
{
	struct rp_tree *t = e->tree;

	while (e->fdinj_next < t->nr_fdinj && t->fdinj[e->fdinj_next].before <= e->cur) {
		const struct rp_fdinj *in = &t->fdinj[e->fdinj_next++];
		struct proc *p = get_proc(e, in->pid);

		if (p)
			placeholder_at(e, p, in->fd);
	}
	while (e->inj_next < t->nr_inj && t->inj[e->inj_next].before <= e->cur) {
		const struct rp_inject *in = &t->inj[e->inj_next++];
		struct proc *p = get_proc(e, in->pid);

		if (!p)
			continue;
		e->x.task = p->task;
		e->x.map = p->map;
		create_live(e, p->task, in->dfd == AT_FDCWD ? AT_FDCWD : rp_exec_tr(&e->x, in->dfd),
			    in->path, in->mode, in->size, in->target, NULL, NULL);
	}
}

static void one_call(struct engine *e, const struct rp_call *c)
{
	struct rp_result *res = e->res;
	struct proc *p;
	int skip;
	long r;
	char what[200];

	if (c->sys == RP_CLONE) {
		do_clone(e, c);
		return;
	}
	if (c->sys == RP_EXIT) {
		p = find_proc(e, c->pid);
		if (p)
			del_proc(e, p);
		return;
	}
	p = get_proc(e, c->pid);
	if (!p) {
		res->outcome[RP_SKIP_NOTASK]++;
		return;
	}
	e->x.task = p->task;
	e->x.map = p->map;
	r = rp_exec(&e->x, c, &skip);
	for (int tries = 0; !skip && e->discover && !rp_same(&e->x, c, r) && tries < 16; tries++) {
		if (!repair(e, p, c, r))
			break;
		e->x.map = p->map;
		r = rp_exec(&e->x, c, &skip);
	}
	p->map = e->x.map;
	if (skip) {
		res->outcome[skip]++;
		return;
	}
	res->pids[p->info].nr_calls++;
	if (!rp_same(&e->x, c, r)) {
		res->outcome[RP_MISMATCH]++;
		add_mismatch(e, r, NULL);
	} else {
		res->outcome[RP_MATCH]++;
		if (e->discover && fields_differ(e, c, r, what, sizeof(what)) &&
		    (is_stat(c->sys)				      ? repair_stat(e, p, c) :
		     c->sys == RP_READLINK || c->sys == RP_READLINKAT ? repair_readlink(e, p, c) :
									false))
			r = rp_exec(&e->x, c, &skip);
		if (!skip && fields_differ(e, c, r, what, sizeof(what))) {
			res->field_mismatches++;
			add_mismatch(e, r, what);
		}
	}
	track(p, c, r >= 0 && rp_same(&e->x, c, r) ? r : -1);
}

/* After a build, the inode of every node: which objects were there first. */
static void register_inos(struct engine *e)
{
	char path[8192];
	struct stat st;

	for (size_t i = 0; i < e->tree->nr; i++) {
		struct rp_node *n = &e->tree->nodes[i];

		rp_tree_path(e->tree, (int)i, path, sizeof(path));
		if (sys_lstat(e->base, path, &st))
			continue;
		rp_tree_set_ino(e->tree, (int)i, st.st_ino);
		if (e->discover && S_ISREG(n->mode)) {
			/* a handle for resizing, as inject() keeps for what it makes */
			struct task *h = task_fork(e->base, 0);
			long fd = h ? sys_open(h, path, O_RDWR | O_NOFOLLOW, 0) : -1;

			if (fd < 0) {
				if (h)
					task_exit(h);
				continue;
			}
			n->holder = h;
			n->holder_fd = (int)fd;
			add_holder(e, h);
		}
	}
}

int rp_replay(struct vfs *vfs, const struct rp_log *log, struct rp_tree *tree, enum rp_mode mode,
	      bool verbose, struct rp_result *res)
{
	struct engine e;
	uint64_t ev0[VFS_EV_NR], ev1[VFS_EV_NR];
	long r;
	int err = 0;

	memset(&e, 0, sizeof(e));
	memset(res, 0, sizeof(*res));
	e.vfs = vfs;
	e.log = log;
	e.tree = tree;
	e.res = res;
	e.discover = mode != RP_CHECK;
	e.listings = mode == RP_DISCOVER_LISTINGS;
	e.verbose = verbose;
	e.x.identity = true;
	e.x.prefix = "";
	e.base = task_create_init(vfs);
	if (!e.base)
		return -ENOMEM;
	r = rp_tree_build(tree, &rp_build_vfs, e.base, "", false);
	if (r < 0) {
		fprintf(stderr, "replay: building the tree failed: %s\n", strerror((int)-r));
		err = (int)r;
		goto out;
	}
	/* an earlier discovery appended injections as it met them */
	for (size_t i = 1; i < tree->nr_inj; i++)
		for (size_t j = i; j > 0 && tree->inj[j - 1].before > tree->inj[j].before; j--) {
			struct rp_inject tmp = tree->inj[j];

			tree->inj[j] = tree->inj[j - 1];
			tree->inj[j - 1] = tmp;
		}
	free(tree->ino2node);
	tree->ino2node = NULL;
	tree->nr_ino = 0;
	register_inos(&e);
	sys_chdir(e.base, log->cwd);
	sys_umask(e.base, log->umask);
	/* the first process's inherited descriptors, at their numbers */
	for (int fd = 0; fd < 65536; fd++) {
		long tmp;

		if (!rp_tree_has_fd(tree, fd))
			continue;
		tmp = sys_open(e.base, RP_PLACEHOLDER, O_RDWR, 0);
		if (tmp >= 0 && tmp != fd) {
			sys_dup2(e.base, (int)tmp, fd);
			sys_close(e.base, (int)tmp);
		}
	}
	vfs_events_read(ev0);
	for (e.cur = 0; e.cur < log->nr; e.cur++) {
		run_injections(&e);
		one_call(&e, &log->calls[e.cur]);
	}
	vfs_events_read(ev1);
	for (int k = 0; k < VFS_EV_NR && k < 16; k++)
		res->events[k] = ev1[k] - ev0[k];
out:
	while (e.nr_procs)
		del_proc(&e, &e.procs[e.nr_procs - 1]);
	for (size_t i = 0; i < e.nr_holders; i++)
		task_exit(e.holders[i]);
	for (size_t i = 0; i < tree->nr; i++) {
		tree->nodes[i].holder = NULL;
		tree->nodes[i].holder_fd = -1;
	}
	task_exit(e.base);
	free(e.procs);
	free(e.holders);
	free(e.x.buf);
	return err;
}

void rp_result_free(struct rp_result *res)
{
	for (size_t i = 0; i < res->nr_pids; i++) {
		for (size_t k = 0; k < res->pids[i].nr_fds; k++)
			free(res->pids[i].fds[k].path);
		free(res->pids[i].fds);
		free(res->pids[i].cwd);
	}
	free(res->pids);
	free(res->mm);
	memset(res, 0, sizeof(*res));
}
