// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Running one op in its task, through the vfslab syscall table, and the
 * checks after it.
 */
#include "tools/torture/engine.h"

int torture_live_slot(const struct worker *w, unsigned int want)
{
	for (unsigned int i = 0; i < NSLOTS; i++) {
		unsigned int s = (want + i) % NSLOTS;

		if (w->slot[s])
			return s;
	}
	return -1;
}

static unsigned int live_count(const struct worker *w)
{
	unsigned int n = 0;

	for (unsigned int i = 0; i < NSLOTS; i++)
		n += !!w->slot[i];
	return n;
}

/* Checks that hold while other threads run: the dentries an op just handed out. */
static int post_checks(struct task *t, const struct op *op, long ret, char *msg, size_t len)
{
	char p[PATH_BUF];
	int fd = -1;

	if (ret < 0 || ret == RET_SKIP)
		return 0;
	switch (op->kind) {
	case OP_OPEN:
	case OP_OPENAT:
	case OP_DUP:
	case OP_DUP2:
		fd = (int)ret;
		break;
	case OP_FSTAT:
		fd = op->fd;
		break;
	case OP_STAT:
	case OP_CHMOD:
		return vfs_check_path(t, torture_path_str(op->p1, p, sizeof(p), false), true, msg,
				      len) < 0;
	case OP_LSTAT:
	case OP_READLINK:
	case OP_MKDIR:
		return vfs_check_path(t, torture_path_str(op->p1, p, sizeof(p), false), false, msg,
				      len) < 0;
	case OP_CHDIR:
	case OP_FCHDIR:
		/* The cwd the task now pins. */
		return vfs_check_path(t, ".", false, msg, len) < 0;
	case OP_RENAME:
	case OP_EXCHANGE:
	case OP_NOREPLACE:
	case OP_WHITEOUT:
	case OP_LINK:
	case OP_SYMLINK:
	case OP_LINKAT_FD:
		return vfs_check_path(t, torture_path_str(op->p2, p, sizeof(p), false), false, msg,
				      len) < 0;
	default:
		break;
	}
	return fd >= 0 && vfs_check_fd(t, fd, msg, len) < 0;
}

#define RMTREE_DEPTH 48

/*
 * rm -rf path with the task's own syscalls, not following symlinks; other
 * threads may create in it meanwhile. Returns 0 or the first error.
 */
static long rmtree(struct sys_vfs *t, char *path, size_t cap, int depth)
{
	size_t len = strlen(path);
	const struct sys_ops *vfs = &sys_ops_vfslab;
	long fd, n, ret = 0, r;
	struct stat st;
	char *buf;

	r = vfs->lstat(t, path, &st);
	if (r)
		return r;
	if (!S_ISDIR(st.st_mode))
		return vfs->unlink(t, path);
	if (depth >= RMTREE_DEPTH)
		return -ELOOP;
	fd = vfs->open(t, path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW, 0);
	if (fd < 0)
		return fd;
	buf = malloc(2048);
	if (!buf) {
		vfs->close(t, (int)fd);
		return -ENOMEM;
	}
	while ((n = vfs->getdents64(t, (int)fd, buf, 2048)) > 0) {
		for (long off = 0; off < n;) {
			const struct linux_dirent64 *d = (const void *)(buf + off);
			size_t nl = strlen(d->d_name);

			off += d->d_reclen;
			if (!strcmp(d->d_name, ".") || !strcmp(d->d_name, ".."))
				continue;
			if (len + 1 + nl >= cap) {
				ret = ret ? ret : -ENAMETOOLONG;
				continue;
			}
			path[len] = '/';
			memcpy(path + len + 1, d->d_name, nl + 1);
			r = rmtree(t, path, cap, depth + 1);
			path[len] = '\0';
			if (r && r != -ENOENT && !ret)
				ret = r;
		}
	}
	free(buf);
	if (n < 0 && !ret)
		ret = n;
	vfs->close(t, (int)fd);
	r = vfs->rmdir(t, path);
	return ret ? ret : r;
}

/* OP_INIT, OP_SPAWN: a thread's first task, made or forked from another's. */
static int exec_spawn(struct run *r, struct worker *w, const struct op *op, long index, long *retp,
		      int *slotp)
{
	struct worker *src = op->kind == OP_SPAWN && op->fd >= 0 &&
					     (unsigned int)op->fd < r->tt->ntasks ?
				     &r->w[op->fd] :
				     NULL;
	struct sys_vfs sv = { 0 };
	struct task *t;

	if (w->slot[0] || (op->kind == OP_SPAWN && (!src || !src->slot[0])))
		return 0;
	t = op->kind == OP_INIT ? task_create_init(r->vfs) :
				  task_fork(src->slot[0], (unsigned int)op->flags);
	if (!t) {
		torture_report(r, FK_INVARIANT, op, index, "%s: no task (out of memory)",
			       torture_ops[op->kind].name);
		return -1;
	}
	sv.task = t;
	if (op->kind == OP_INIT)
		sys_ops_vfslab.umask(&sv, 0);
	if (op->mode)
		task_set_creds(t, op->mode, op->mode, op->mode, op->mode, NULL, 0);
	w->slot[0] = t;
	*retp = 0;
	*slotp = 0;
	return 0;
}

/* The op's syscall, on sv's task. */
static long exec_call(struct worker *w, const struct op *op, struct sys_vfs *sv, struct stat *st)
{
	const struct sys_ops *vfs = &sys_ops_vfslab;
	char p1[PATH_BUF], p2[PATH_BUF];

	torture_path_str(op->p1, p1, sizeof(p1), false);
	torture_path_str(op->p2, p2, sizeof(p2), false);
	switch (op->kind) {
	case OP_OPEN:
		return vfs->open(sv, p1, op->flags, op->mode);
	case OP_OPENAT:
		return vfs->openat(sv, op->fd, p1, op->flags, op->mode);
	case OP_CLOSE:
		return vfs->close(sv, op->fd);
	case OP_DUP:
		return vfs->dup(sv, op->fd);
	case OP_DUP2:
		return vfs->dup2(sv, op->fd, op->fd2);
	case OP_STAT:
		return vfs->stat(sv, p1, st);
	case OP_LSTAT:
		return vfs->lstat(sv, p1, st);
	case OP_LOOKUP_MISSING:
		return vfs->stat(sv, torture_missing_str(op, p1, sizeof(p1), false), st);
	case OP_FSTAT:
		return vfs->fstat(sv, op->fd, st);
	case OP_READ:
		return vfs->read(sv, op->fd, w->buf, op->count);
	case OP_PREAD:
		return vfs->pread64(sv, op->fd, w->buf, op->count, op->off);
	case OP_WRITE:
	case OP_PWRITE:
		memset(w->buf, 'x', op->count);
		return op->kind == OP_WRITE ? vfs->write(sv, op->fd, w->buf, op->count) :
					      vfs->pwrite64(sv, op->fd, w->buf, op->count, op->off);
	case OP_LSEEK:
		return vfs->lseek(sv, op->fd, op->off, op->flags);
	case OP_RENAME:
		return vfs->rename(sv, p1, p2);
	case OP_EXCHANGE:
		return vfs->renameat2(sv, AT_FDCWD, p1, AT_FDCWD, p2, RENAME_EXCHANGE);
	case OP_NOREPLACE:
		return vfs->renameat2(sv, AT_FDCWD, p1, AT_FDCWD, p2, RENAME_NOREPLACE);
	case OP_WHITEOUT:
		return vfs->renameat2(sv, AT_FDCWD, p1, AT_FDCWD, p2, RENAME_WHITEOUT);
	case OP_UNLINK:
		return vfs->unlink(sv, p1);
	case OP_MKDIR:
		return vfs->mkdir(sv, p1, op->mode);
	case OP_RMDIR:
		return vfs->rmdir(sv, p1);
	case OP_LINK:
		return vfs->link(sv, p1, p2);
	case OP_SYMLINK:
		return vfs->symlink(sv, p1, p2);
	case OP_READLINK:
		return vfs->readlink(sv, p1, w->buf, op->count);
	case OP_CHMOD:
		return vfs->chmod(sv, p1, op->mode);
	case OP_FTRUNCATE:
		return vfs->ftruncate(sv, op->fd, op->off);
	case OP_GETDENTS:
		return vfs->getdents64(sv, op->fd, w->buf, op->count);
	case OP_CLOSE_RANGE:
		return vfs->close_range(sv, (unsigned int)op->fd, (unsigned int)op->fd2,
					(unsigned int)op->flags);
	case OP_CHDIR:
		return vfs->chdir(sv, p1);
	case OP_FCHDIR:
		return vfs->fchdir(sv, op->fd);
	case OP_LINKAT_FD:
		return vfs->linkat(sv, op->fd, "", AT_FDCWD, p2, AT_EMPTY_PATH);
	case OP_MOUNT:
		switch (op->flags) {
		case MOUNT_TMPFS:
			return vfs->mount(sv, "none", p1, "tmpfs", 0, NULL);
		case MOUNT_BIND:
		case MOUNT_RBIND:
			return vfs->mount(sv, p2, p1, NULL,
					  MS_BIND | (op->flags == MOUNT_RBIND ? MS_REC : 0), NULL);
		default:
			return vfs->mount(sv, NULL, p1, NULL, MS_BIND | MS_REMOUNT | MS_RDONLY,
					  NULL);
		}
	case OP_UMOUNT:
		return vfs->umount2(sv, p1, op->flags);
	case OP_RMTREE: {
		char path[4096];

		snprintf(path, sizeof(path), "%s", p1);
		return rmtree(sv, path, sizeof(path), 0);
	}
	}
	return -ENOSYS;
}

/*
 * OP_FORK and OP_EXIT, on the task in slot s: 0 with *retp set, 1 if the
 * op cannot run (no free slot, or the thread's last task), -1 after
 * torture_report(). *tp becomes NULL when the task exited.
 */
static int exec_task(struct run *r, struct worker *w, const struct op *op, long index, int s,
		     long *retp, struct task **tp)
{
	struct task *t = *tp;
	long ret = 0;

	switch (op->kind) {
	case OP_FORK: {
		int d = -1;
		struct task *child;

		for (int i = 0; i < NSLOTS && d < 0; i++)
			if (!w->slot[(s + 1 + i) % NSLOTS])
				d = (s + 1 + i) % NSLOTS;
		if (d < 0)
			return 1;
		child = task_fork(t, (unsigned int)op->flags);
		if (!child) {
			torture_report(r, FK_INVARIANT, op, index, "fork: task_fork() failed");
			return -1;
		}
		w->slot[d] = child;
		ret = d;
		break;
	}
	case OP_EXIT:
		if (live_count(w) < 2)
			return 1;
		task_exit(t);
		w->slot[s] = NULL;
		t = NULL;
		break;
	}
	*retp = ret;
	*tp = t;
	return 0;
}

/* Count the result, ask the oracle, check the invariants: 0, or -1 after torture_report(). */
static int check_result(struct run *r, struct worker *w, const struct op *op, long index, long ret,
			struct task *t, const struct stat *st)
{
	char msg[1024], e[32];
	int kind;

	if (ret < 0) {
		w->err[op->kind]++;
		if (ret > -134)
			w->errnos[op->kind][-ret]++;
	} else
		w->ok[op->kind]++;

	kind = torture_oracle(r->tt, op, ret, w->buf, st, msg, sizeof(msg));
	if (kind) {
		torture_report(r, kind, op, index, "%s", msg);
		return -1;
	}
	if (t && post_checks(t, op, ret, msg, sizeof(msg))) {
		torture_report(r, FK_INVARIANT, op, index, "after %s = %s: %s",
			       torture_ops[op->kind].name, torture_ret_str(ret, e, sizeof(e)), msg);
		return -1;
	}
	if (t && ((w->done + 1) % 32 == 0 || !r->threaded) &&
	    vfs_check_task_fds(t, msg, sizeof(msg))) {
		torture_report(r, FK_INVARIANT, op, index, "fd table after %s: %s",
			       torture_ops[op->kind].name, msg);
		return -1;
	}
	if (vfs_check_warnings() != r->warns) {
		torture_report(r, FK_WARN, op, index,
			       "a WARN_ON fired during or before %s (see stderr)",
			       torture_ops[op->kind].name);
		return -1;
	}
	return 0;
}

/*
 * Run op in its thread's task. Returns 0, or -1 after torture_report(). *retp is
 * the syscall's value (RET_SKIP if it did not run), *slotp the slot used.
 */
int torture_exec_op(struct run *r, const struct op *op, long index, long *retp, int *slotp)
{
	struct worker *w = &r->w[op->thread];
	struct sys_vfs sv = { 0 };
	struct stat st;
	struct task *t;
	long ret = 0;
	int s, rc;

	*retp = RET_SKIP;
	*slotp = -1;
	memset(&st, 0, sizeof(st));
	if (op->thread >= r->tt->ntasks)
		return 0;
	if (op->kind == OP_INIT || op->kind == OP_SPAWN)
		return exec_spawn(r, w, op, index, retp, slotp);
	s = torture_live_slot(w, op->slot);
	if (s < 0)
		return 0;
	*slotp = s;
	t = w->slot[s];
	sv.task = t;
	if (op->kind == OP_FORK || op->kind == OP_EXIT) {
		rc = exec_task(r, w, op, index, s, &ret, &t);
		if (rc)
			return rc < 0 ? -1 : 0;
	} else {
		ret = exec_call(w, op, &sv, &st);
	}
	*retp = ret;
	return check_result(r, w, op, index, ret, t, &st);
}
