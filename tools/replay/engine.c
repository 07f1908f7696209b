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
 *
 * repair.c holds the repairs, compare.c the field checks, prescan.c the
 * search for descriptors no traced call made.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tools/replay/engine.h"
#include "tools/replay/sys.h"
#include "vfs/vfs.h"

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
bool rp_abs_path(const struct proc *p, long dfd, const char *path, char *out, size_t len)
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

struct proc *rp_proc_find(struct engine *e, int pid)
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

	p = rp_grow(e->procs, &e->cap_procs, e->nr_procs, sizeof(*p), 16);
	if (!p)
		return NULL;
	e->procs = p;
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

struct proc *rp_proc_get(struct engine *e, int pid)
{
	struct proc *p = rp_proc_find(e, pid);

	return p ? p : start_proc(e, pid);
}

static void do_clone(struct engine *e, const struct rp_call *c)
{
	struct proc *parent = rp_proc_get(e, c->pid), *child, *old;
	unsigned int flags = 0;
	struct rp_fdmap *m;
	struct task *t;

	if (!parent || c->ret <= 0)
		return;
	old = rp_proc_find(e, (int)c->ret);
	if (old) /* a pid reused without an exit line */
		del_proc(e, old);
	parent = rp_proc_find(e, c->pid);
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

/* ---- the loop ---- */

/* What a call that ended as the log says changed in its process. */
static void track(struct proc *p, const struct rp_call *c, long r)
{
	const struct rp_sysdesc *d = rp_sys(c->sys);
	char path[sizeof(p->cwd)];

	if (r < 0)
		return;
	if (d->fdop == RPD_NEW && d->npath) {
		/* an open: the path its descriptor was opened by */
		const struct rp_fdent *fe = rp_fdmap_get(p->map, c->ret);
		long dfd = d->path[0].dfd ? c->a[d->path[0].dfd - 1] : AT_FDCWD;

		if (fe && rp_abs_path(p, dfd, c->p[0], path, sizeof(path)))
			rp_fdmap_set(p->map, c->ret, fe->real, fe->flags, fe->oflags, path);
	} else if (c->sys == RP_CHDIR) {
		path_join(path, sizeof(path), p->cwd, c->p[0]);
		snprintf(p->cwd, sizeof(p->cwd), "%s", path);
	} else if (c->sys == RP_FCHDIR) {
		const struct rp_fdent *fe = rp_fdmap_get(p->map, c->a[0]);

		if (fe && fe->path)
			snprintf(p->cwd, sizeof(p->cwd), "%s", fe->path);
	} else if (c->sys == RP_UMASK) {
		p->umask = (mode_t)c->a[0] & 0777;
	}
}

/* Open a placeholder at the log's number fd in p. */
void rp_placeholder_at(struct engine *e, struct proc *p, int fd)
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
		struct proc *p = rp_proc_get(e, in->pid);

		if (p)
			rp_placeholder_at(e, p, in->fd);
	}
	while (e->inj_next < t->nr_inj && t->inj[e->inj_next].before <= e->cur) {
		const struct rp_inject *in = &t->inj[e->inj_next++];
		struct proc *p = rp_proc_get(e, in->pid);

		if (!p)
			continue;
		e->x.task = p->task;
		e->x.map = p->map;
		rp_create_live(e, p->task,
			       in->dfd == AT_FDCWD ? AT_FDCWD : rp_exec_tr(&e->x, in->dfd),
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
		p = rp_proc_find(e, c->pid);
		if (p)
			del_proc(e, p);
		return;
	}
	p = rp_proc_get(e, c->pid);
	if (!p) {
		res->outcome[RP_SKIP_NOTASK]++;
		return;
	}
	e->x.task = p->task;
	e->x.map = p->map;
	r = rp_exec(&e->x, c, &skip);
	for (int tries = 0; !skip && e->discover && !rp_same(&e->x, c, r) && tries < 16; tries++) {
		if (!rp_repair(e, p, c, r))
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
		rp_add_mismatch(e, r, NULL);
	} else {
		res->outcome[RP_MATCH]++;
		if (e->discover && rp_fields_differ(e, c, r, what, sizeof(what)) &&
		    rp_repair_fields(e, p, c))
			r = rp_exec(&e->x, c, &skip);
		if (!skip && rp_fields_differ(e, c, r, what, sizeof(what))) {
			res->field_mismatches++;
			rp_add_mismatch(e, r, what);
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
			rp_add_holder(e, h);
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
