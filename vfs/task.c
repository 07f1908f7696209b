// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Tasks: credentials, fs_struct (root, cwd, umask) and the files_struct a
 * task shares (CLONE_FILES: threads) or copies (fork). Models the parts of
 * kernel/fork.c, fs/fs_struct.c and kernel/exit.c the VFS sees.
 */
#include <stdlib.h>

#include "vfs/internal.h"

#define INIT_NOFILE_CUR 1024
#define INIT_NOFILE_MAX 1048576

static struct fs_struct *fs_alloc(struct vfs *v, const struct path *root, const struct path *pwd,
				  mode_t umask)
{
	struct fs_struct *fs = kmem_cache_zalloc(v->fs_cache);

	if (!fs)
		return NULL;
	fs->users = 1;
	spin_lock_init(&fs->lock);
	seqcount_init(&fs->seq);
	fs->umask = umask;
	fs->root = *root;
	fs->pwd = *pwd;
	path_get(v, &fs->root);
	path_get(v, &fs->pwd);
	return fs;
}

static void put_fs_struct(struct vfs *v, struct fs_struct *fs)
{
	bool last;

	spin_lock(&fs->lock);
	last = --fs->users == 0;
	spin_unlock(&fs->lock);
	if (!last)
		return;
	path_put(v, &fs->root);
	path_put(v, &fs->pwd);
	kmem_cache_free(v->fs_cache, fs);
}

static unsigned long new_cred_id(struct vfs *v)
{
	unsigned long id;

	spin_lock(&v->task_lock);
	id = ++v->next_cred_id;
	spin_unlock(&v->task_lock);
	return id;
}

static struct task *task_alloc(struct vfs *v)
{
	struct task *t = kmem_cache_zalloc(v->task_cache);

	if (!t)
		return NULL;
	t->vfs = v;
	spin_lock(&v->task_lock);
	t->pid = ++v->next_pid;
	list_add_tail(&t->node, &v->tasks);
	spin_unlock(&v->task_lock);
	return t;
}

static void task_free(struct task *t)
{
	struct vfs *v = t->vfs;

	spin_lock(&v->task_lock);
	list_del(&t->node);
	spin_unlock(&v->task_lock);
	kmem_cache_free(v->task_cache, t);
}

/* A task whose fs_struct or files_struct could not be had: undo it. */
static struct task *task_abort(struct task *t)
{
	if (t->fs)
		put_fs_struct(t->vfs, t->fs);
	if (t->files)
		put_files_struct(t->vfs, t->files);
	task_free(t);
	return NULL;
}

/* The first task: pid 1, root, cwd at the root, umask 022. */
struct task *task_create_init(struct vfs *v)
{
	struct path root = { v->root_mnt, v->root };
	struct task *t = task_alloc(v);

	if (!t)
		return NULL;
	t->tgid = t->pid;
	t->cred.id = new_cred_id(v);
	t->rlim_nofile_cur = INIT_NOFILE_CUR;
	t->rlim_nofile_max = INIT_NOFILE_MAX;
	t->fs = fs_alloc(v, &root, &root, 022);
	t->files = files_alloc(v);
	if (!t->fs || !t->files)
		return task_abort(t);
	return t;
}

/* Models copy_process()'s copy_files()/copy_fs(). */
struct task *task_fork(struct task *parent, unsigned int clone_flags)
{
	struct vfs *v = parent->vfs;
	struct task *t = task_alloc(v);
	int err = 0;

	if (!t)
		return NULL;
	t->cred = parent->cred;
	t->ppid = parent->pid;
	t->tgid = (clone_flags & TASK_CLONE_FILES) ? parent->tgid : t->pid;
	t->rlim_nofile_cur = parent->rlim_nofile_cur;
	t->rlim_nofile_max = parent->rlim_nofile_max;
	if (clone_flags & TASK_CLONE_FS) {
		spin_lock(&parent->fs->lock);
		parent->fs->users++;
		spin_unlock(&parent->fs->lock);
		t->fs = parent->fs;
	} else {
		spin_lock(&parent->fs->lock);
		t->fs = fs_alloc(v, &parent->fs->root, &parent->fs->pwd, current_umask(parent));
		spin_unlock(&parent->fs->lock);
	}
	if (clone_flags & TASK_CLONE_FILES) {
		get_files_struct(v, parent->files);
		t->files = parent->files;
	} else {
		t->files = dup_fd(v, parent->files, &err);
	}
	if (!t->fs || !t->files)
		return task_abort(t);
	return t;
}

/* Models do_exit()'s exit_files() and exit_fs(). */
void task_exit(struct task *t)
{
	struct vfs *v = t->vfs;

	put_files_struct(v, t->files);
	put_fs_struct(v, t->fs);
	task_free(t);
}

/* What setgroups() + setresgid() + setresuid() leave: fs ids follow the e ids. */
int task_set_creds(struct task *t, uid_t ruid, uid_t euid, gid_t rgid, gid_t egid,
		   const gid_t *groups, int ngroups)
{
	if (ngroups < 0 || ngroups > TASK_NGROUPS_MAX)
		return -EINVAL;
	t->cred.id = new_cred_id(t->vfs); /* new creds: a new identity */
	t->cred.uid = ruid;
	t->cred.euid = t->cred.fsuid = euid;
	t->cred.gid = rgid;
	t->cred.egid = t->cred.fsgid = egid;
	t->cred.ngroups = ngroups;
	for (int i = 0; i < ngroups; i++)
		t->cred.groups[i] = groups[i];
	return 0;
}

int task_set_nofile(struct task *t, unsigned long soft, unsigned long hard)
{
	if (soft > hard || hard > t->vfs->cfg.nr_open)
		return -EINVAL;
	t->rlim_nofile_cur = soft;
	t->rlim_nofile_max = hard;
	return 0;
}

struct vfs *task_vfs(const struct task *t)
{
	return t->vfs;
}

long sys_getpid(struct task *t)
{
	return t->tgid;
}

long sys_getppid(struct task *t)
{
	return t->ppid;
}

long sys_getuid(struct task *t)
{
	return t->cred.uid;
}

long sys_getgid(struct task *t)
{
	return t->cred.gid;
}
