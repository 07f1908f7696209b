/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Shared fixtures for the Check suites of vfs/ (tests/check_<module>.c).
 *
 * Check forks every test, and liburcu starts its threads lazily, so each
 * test builds its VFS itself (vt_begin) and tears it down at its end
 * (vt_end), which asserts vfs_destroy()'s leak count is 0. The helpers
 * reach into vfs/internal.h for white-box checks (d_count, file_count, the
 * fd table) and report errno values by name.
 */
#ifndef VFSLAB_TESTS_VFS_TEST_H
#define VFSLAB_TESTS_VFS_TEST_H

#include <check.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/sys/names.h"
#include "vfs/internal.h"

/* One instance and its init task (pid 1, root, cwd "/"). */
struct vt {
	struct vfs *v;
	struct task *t;
};

static inline const char *vt_ename(long r)
{
	const char *n;

	if (r >= 0 || r < -4095)
		return "ok";
	n = sys_errno_name(-r);
	return n ? n : "E?";
}

/* expr must return want (a value, or -EXXX). */
#define VT_EQ(expr, want)                                                             \
	do {                                                                          \
		long _r = (long)(expr), _w = (long)(want);                            \
		ck_assert_msg(_r == _w, "%s: got %ld (%s), want %ld (%s)", #expr, _r, \
			      vt_ename(_r), _w, vt_ename(_w));                        \
	} while (0)

/* expr must succeed; its value is the result (an fd, a length). */
#define VT_OK(expr)                                                                  \
	({                                                                           \
		long _v = (long)(expr);                                              \
		ck_assert_msg(_v >= 0, "%s: got %ld (%s)", #expr, _v, vt_ename(_v)); \
		_v;                                                                  \
	})

static inline struct vfs *vt_vfs_new(const char *spec)
{
	struct vfs_config cfg;
	char err[256] = "";
	struct vfs *v;

	vfs_config_default(&cfg);
	if (spec && *spec)
		ck_assert_msg(!vfs_config_parse(&cfg, spec, err, sizeof(err)), "variant '%s': %s",
			      spec, err);
	v = vfs_new(&cfg, err, sizeof(err));
	ck_assert_msg(v != NULL, "vfs_new('%s'): %s", spec ? spec : "", err);
	return v;
}

/* A fresh VFS built with variant spec ("" for the defaults). */
static inline void vt_begin(struct vt *e, const char *spec)
{
	vfs_thread_enter();
	e->v = vt_vfs_new(spec);
	e->t = task_create_init(e->v);
	ck_assert_ptr_nonnull(e->t);
}

/* Exit the init task (the caller exits the others) and check for leaks. */
static inline void vt_end(struct vt *e)
{
	task_exit(e->t);
	ck_assert_int_eq(vfs_destroy(e->v), 0);
	vfs_thread_exit();
}

/* Create (or truncate) a regular file holding len bytes of data. */
static inline void vt_put(struct task *t, const char *path, const void *data, size_t len)
{
	long fd = VT_OK(sys_open(t, path, O_CREAT | O_WRONLY | O_TRUNC, 0644));

	if (len)
		VT_EQ(sys_write(t, fd, data, len), len);
	VT_EQ(sys_close(t, fd), 0);
}

static inline void vt_touch(struct task *t, const char *path)
{
	vt_put(t, path, NULL, 0);
}

static inline unsigned long vt_ino(struct task *t, const char *path)
{
	struct stat st;

	VT_EQ(sys_lstat(t, path, &st), 0);
	return st.st_ino;
}

/* The inode number path resolves to (following links), or -errno. */
static inline long vt_sino(struct task *t, const char *path)
{
	struct stat st;
	long r = sys_stat(t, path, &st);

	return r ? r : (long)st.st_ino;
}

static inline unsigned long vt_fino(struct task *t, int fd)
{
	struct stat st;

	VT_EQ(sys_fstat(t, fd, &st), 0);
	return st.st_ino;
}

/* The dentry path names (not following a final symlink); no ref kept. */
static inline struct dentry *vt_dentry(struct task *t, const char *path)
{
	struct path p;
	int err = user_path_at(t, AT_FDCWD, path, 0, &p, NULL);

	ck_assert_msg(!err, "lookup %s: %s", path, vt_ename(err));
	path_put(t->vfs, &p);
	return p.dentry;
}

/* d_count of the dentry path names, not counting the lookup's own ref. */
static inline int vt_dcount(struct task *t, const char *path)
{
	struct path p;
	int err = user_path_at(t, AT_FDCWD, path, 0, &p, NULL);
	int n;

	ck_assert_msg(!err, "lookup %s: %s", path, vt_ename(err));
	n = d_count(t->vfs, p.dentry) - 1;
	path_put(t->vfs, &p);
	return n;
}

/* Objects allocated after every queued RCU free has run. */
struct vt_inuse {
	long dentries, inodes, files, files_structs;
};

static inline struct vt_inuse vt_inuse(struct vfs *v)
{
	rcu_barrier();
	return (struct vt_inuse){ kmem_cache_inuse(v->dentry_cache),
				  kmem_cache_inuse(v->inode_cache), kmem_cache_inuse(v->file_cache),
				  kmem_cache_inuse(v->files_cache) };
}

/* The struct file in slot fd of t's table (no reference taken). */
static inline struct file *vt_file(struct task *t, int fd)
{
	struct fdtable *fdt;
	struct file *f = NULL;

	rcu_read_lock();
	fdt = rcu_dereference(*files_fdt(t->vfs, t->files));
	if ((unsigned int)fd < fdt->max_fds)
		f = rcu_dereference(fdt->fd[fd]);
	rcu_read_unlock();
	return f;
}

static inline unsigned long vt_fcount(struct task *t, int fd)
{
	struct file *f = vt_file(t, fd);

	ck_assert_msg(f != NULL, "fd %d is not installed", fd);
	return file_count(t->vfs, f);
}

static inline unsigned int vt_next_fd(struct task *t)
{
	unsigned int n;

	spin_lock(files_file_lock(t->vfs, t->files));
	n = *files_next_fd(t->vfs, t->files);
	spin_unlock(files_file_lock(t->vfs, t->files));
	return n;
}

#define vt_check_fds(t)                                                                          \
	do {                                                                                     \
		char _err[160] = "";                                                             \
		ck_assert_msg(!files_check_invariants((t)->vfs, (t)->files, _err, sizeof(_err)), \
			      "fd table invariant: %s", _err);                                   \
	} while (0)

/* This thread's event counters; take two snapshots and subtract. */
struct vt_ev {
	uint64_t n[VFS_EV_NR];
};

static inline struct vt_ev vt_events(void)
{
	struct vt_ev e;

	vfs_events_read_self(e.n);
	return e;
}

static inline uint64_t vt_delta(const struct vt_ev *a, const struct vt_ev *b, enum vfs_event ev)
{
	return b->n[ev] - a->n[ev];
}

/* A small deterministic generator (xorshift32) for seeded sequences. */
static inline uint32_t vt_rand(uint32_t *s)
{
	uint32_t x = *s;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return *s = x;
}

/*
 * Run fn(arg[i]) on n threads and join them. Each thread registers with
 * RCU around fn, as every thread calling into a VFS must.
 */
struct vt_thread {
	pthread_t tid;
	void *(*fn)(void *);
	void *arg;
	void *ret;
};

static inline void *vt_thread_main(void *p)
{
	struct vt_thread *th = p;
	void *ret;

	vfs_thread_enter();
	ret = th->fn(th->arg);
	vfs_thread_exit();
	return ret;
}

static inline void vt_run_threads(int n, void *(*fn)(void *), void *args, size_t argsize)
{
	struct vt_thread th[16];

	ck_assert_int_le(n, 16);
	for (int i = 0; i < n; i++) {
		th[i].fn = fn;
		th[i].arg = (char *)args + i * argsize;
		ck_assert_int_eq(pthread_create(&th[i].tid, NULL, vt_thread_main, &th[i]), 0);
	}
	for (int i = 0; i < n; i++)
		ck_assert_int_eq(pthread_join(th[i].tid, &th[i].ret), 0);
}

/* The boilerplate main() of a suite. */
#define VT_MAIN(suite_fn)                                    \
	int main(void)                                       \
	{                                                    \
		SRunner *sr = srunner_create(suite_fn());    \
		int failed;                                  \
                                                             \
		srunner_run_all(sr, CK_NORMAL);              \
		failed = srunner_ntests_failed(sr);          \
		srunner_free(sr);                            \
		return failed ? EXIT_FAILURE : EXIT_SUCCESS; \
	}

#endif /* VFSLAB_TESTS_VFS_TEST_H */
