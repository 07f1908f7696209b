// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Tests for vfs/check.c: the invariant checkers pass on a healthy VFS and
 * catch each kind of corruption `vfslab torture` relies on them for. Each
 * test breaks one thing through vfs/internal.h (a d_count, an fd bitmap
 * bit, a d_parent, a hash, an f_count, an i_nlink, a slab object, the
 * namespace's count of its mounts), asserts
 * the checker names it, repairs it, and ends with vfs_destroy() at 0.
 */
#include "tests/vfs_test.h"
#include "vfs/check.h"
#include "vfs/mount.h"

static char err[1024];

/* The checker must fail, and its message must mention what. */
#define CK_FAILS(call, what)                                                                       \
	do {                                                                                       \
		err[0] = '\0';                                                                     \
		ck_assert_msg((call) < 0, "%s passed on a corrupted VFS", #call);                  \
		ck_assert_msg(strstr(err, what), "%s: message '%s' lacks '%s'", #call, err, what); \
	} while (0)

#define CK_PASSES(call)                                                                   \
	do {                                                                              \
		err[0] = '\0';                                                            \
		ck_assert_msg((call) == 0, "%s failed on a healthy VFS: %s", #call, err); \
	} while (0)

/* /a (dir), /a/b (dir), /a/f (file, 3 bytes), /a/l -> f, /a/h (link to f); fd open on /a/f. */
static int build(struct vt *e)
{
	struct task *t = e->t;
	long fd;

	VT_EQ(sys_mkdir(t, "/a", 0755), 0);
	VT_EQ(sys_mkdir(t, "/a/b", 0755), 0);
	vt_put(t, "/a/f", "abc", 3);
	VT_EQ(sys_symlink(t, "f", "/a/l"), 0);
	VT_EQ(sys_link(t, "/a/f", "/a/h"), 0);
	fd = VT_OK(sys_open(t, "/a/f", O_RDWR, 0));
	return (int)fd;
}

static void check_healthy(struct vt *e, int fd)
{
	CK_PASSES(vfs_check_tree(e->v, err, sizeof(err)));
	CK_PASSES(vfs_check_slabs(e->v, err, sizeof(err)));
	CK_PASSES(vfs_check_task_fds(e->t, err, sizeof(err)));
	if (fd >= 0)
		CK_PASSES(vfs_check_fd(e->t, fd, err, sizeof(err)));
	CK_PASSES(vfs_check_path(e->t, "/a/b", true, err, sizeof(err)));
	CK_PASSES(vfs_check_path(e->t, "/a/l", false, err, sizeof(err)));
}

/* Close, exit, and the quiescent check and vfs_destroy() must both be clean. */
static void finish(struct vt *e, int fd)
{
	if (fd >= 0)
		VT_EQ(sys_close(e->t, fd), 0);
	task_exit(e->t);
	CK_PASSES(vfs_check_quiescent(e->v, err, sizeof(err)));
	ck_assert_int_eq(vfs_destroy(e->v), 0);
	vfs_thread_exit();
}

START_TEST(test_healthy)
{
	struct vt e;
	struct task *child;
	int fd;

	vt_begin(&e, "");
	fd = build(&e);
	check_healthy(&e, fd);
	/* A thread sharing the table and a process with its own copy. */
	child = task_fork(e.t, TASK_CLONE_FILES);
	ck_assert_ptr_nonnull(child);
	check_healthy(&e, fd);
	task_exit(child);
	child = task_fork(e.t, 0);
	ck_assert_ptr_nonnull(child);
	check_healthy(&e, fd);
	task_exit(child);
	/* Unlinked while open: an unhashed positive dentry held by the file. */
	VT_EQ(sys_unlink(e.t, "/a/f"), 0);
	VT_EQ(sys_unlink(e.t, "/a/h"), 0);
	check_healthy(&e, fd);
	/* Not a bad fd, not a missing path: those say 1, not -1. */
	ck_assert_int_eq(vfs_check_fd(e.t, 99, err, sizeof(err)), 1);
	ck_assert_int_eq(vfs_check_path(e.t, "/nope", true, err, sizeof(err)), 1);
	finish(&e, fd);
}
END_TEST

START_TEST(test_live_task_is_not_quiescent)
{
	struct vt e;

	vt_begin(&e, "");
	CK_FAILS(vfs_check_quiescent(e.v, err, sizeof(err)), "tasks");
	finish(&e, -1);
}
END_TEST

START_TEST(test_d_count)
{
	struct vt e;
	struct dentry *d;
	int fd;

	vt_begin(&e, _i ? "dcount=dlock" : "");
	fd = build(&e);
	d = vt_dentry(e.t, "/a/b");
	dentry_lockref(e.v, d)->count++;
	CK_FAILS(vfs_check_tree(e.v, err, sizeof(err)), "d_count");
	CK_FAILS(vfs_check_slabs(e.v, err, sizeof(err)), "/a/b");
	dentry_lockref(e.v, d)->count -= 2;
	CK_FAILS(vfs_check_tree(e.v, err, sizeof(err)), "expected 1");
	dentry_lockref(e.v, d)->count++;
	check_healthy(&e, fd);
	/* At quiescence too: a leaked reference on the root. */
	VT_EQ(sys_close(e.t, fd), 0);
	task_exit(e.t);
	dentry_lockref(e.v, e.v->root)->count++;
	CK_FAILS(vfs_check_quiescent(e.v, err, sizeof(err)), "d_count");
	dentry_lockref(e.v, e.v->root)->count--;
	CK_PASSES(vfs_check_quiescent(e.v, err, sizeof(err)));
	ck_assert_int_eq(vfs_destroy(e.v), 0);
	vfs_thread_exit();
}
END_TEST

START_TEST(test_fd_bitmaps)
{
	struct vt e;
	struct fdtable *fdt;
	int fd;

	vt_begin(&e, _i ? "alloc-fd=v6.10" : "");
	fd = build(&e);
	fdt = *files_fdt(e.v, e.t->files);
	/* An installed file whose open_fds bit is clear (and so below next_fd). */
	__clear_bit(fd, fdt->open_fds);
	CK_FAILS(vfs_check_task_fds(e.t, err, sizeof(err)), "not open");
	CK_FAILS(vfs_check_tree(e.v, err, sizeof(err)), "not open");
	__set_bit(fd, fdt->open_fds);
	/* A word marked full that is not. */
	__set_bit(0, fdt->full_fds_bits);
	CK_FAILS(vfs_check_task_fds(e.t, err, sizeof(err)), "full_fds_bits");
	__clear_bit(0, fdt->full_fds_bits);
	/* next_fd past a free slot. */
	*files_next_fd(e.v, e.t->files) = fd + 5;
	CK_FAILS(vfs_check_task_fds(e.t, err, sizeof(err)), "next_fd");
	*files_next_fd(e.v, e.t->files) = fd + 1;
	check_healthy(&e, fd);
	finish(&e, fd);
}
END_TEST

START_TEST(test_parent_link)
{
	struct vt e;
	struct dentry *b;
	int fd;

	vt_begin(&e, "");
	fd = build(&e);
	b = vt_dentry(e.t, "/a/b");
	/* On /a's d_children, but claiming the root as parent. */
	*dentry_parent(e.v, b) = e.v->root;
	CK_FAILS(vfs_check_tree(e.v, err, sizeof(err)), "d_parent");
	*dentry_parent(e.v, b) = vt_dentry(e.t, "/a");
	check_healthy(&e, fd);
	finish(&e, fd);
}
END_TEST

START_TEST(test_hash)
{
	struct vt e;
	struct dentry *f;
	int fd;

	vt_begin(&e, "");
	fd = build(&e);
	f = vt_dentry(e.t, "/a/h");
	/* A stale hash: the name is no longer where d_lookup looks. */
	dentry_name(e.v, f)->hash ^= 1;
	CK_FAILS(vfs_check_tree(e.v, err, sizeof(err)), "hash");
	dentry_name(e.v, f)->hash ^= 1;
	/* Unhashed behind the filesystem's back: the pin no longer adds up. */
	d_drop(e.v, f);
	CK_FAILS(vfs_check_tree(e.v, err, sizeof(err)), "/a/h");
	spin_lock(d_lock(e.v, f));
	d_rehash_locked(e.v, f);
	spin_unlock(d_lock(e.v, f));
	check_healthy(&e, fd);
	finish(&e, fd);
}
END_TEST

START_TEST(test_hash_orphan)
{
	struct vt e;
	struct dentry *a, *o;
	struct qstr name = { .name = (const unsigned char *)"zz" };
	int fd;

	vt_begin(&e, "");
	fd = build(&e);
	a = vt_dentry(e.t, "/a");
	name.hash_len = hashlen_create(full_name_hash(a, "zz", 2), 2);
	/* A hashed negative dentry on no parent's d_children: only the table has it. */
	o = d_alloc(e.v, a, &name);
	ck_assert_ptr_nonnull(o);
	spin_lock(d_lock(e.v, a));
	hlist_del(dentry_sib(e.v, o));
	dentry_lockref(e.v, a)->count--;
	spin_unlock(d_lock(e.v, a));
	d_add(e.v, o, NULL);
	CK_FAILS(vfs_check_tree(e.v, err, sizeof(err)), "hash bucket");
	/* Back on the list with its parent reference, then dropped for good. */
	d_drop(e.v, o);
	spin_lock(d_lock(e.v, a));
	hlist_add_head(dentry_sib(e.v, o), dentry_children(e.v, a));
	dentry_lockref(e.v, a)->count++;
	spin_unlock(d_lock(e.v, a));
	dput(e.v, o);
	check_healthy(&e, fd);
	finish(&e, fd);
}
END_TEST

START_TEST(test_dead_dentry)
{
	struct vt e;
	struct dentry *d;
	int fd;

	vt_begin(&e, "");
	fd = build(&e);
	d = vt_dentry(e.t, "/a/f");
	*dentry_flags(e.v, d) |= DCACHE_DENTRY_KILLED;
	CK_FAILS(vfs_check_fd(e.t, fd, err, sizeof(err)), "dead");
	CK_FAILS(vfs_check_path(e.t, "/a/f", true, err, sizeof(err)), "dead");
	CK_FAILS(vfs_check_task_fds(e.t, err, sizeof(err)), "dead");
	CK_FAILS(vfs_check_tree(e.v, err, sizeof(err)), "killed");
	*dentry_flags(e.v, d) &= ~DCACHE_DENTRY_KILLED;
	check_healthy(&e, fd);
	finish(&e, fd);
}
END_TEST

START_TEST(test_f_count)
{
	struct vt e;
	struct file *f;
	int fd;

	vt_begin(&e, _i ? "fref=inc-not-zero" : "");
	fd = build(&e);
	f = vt_file(e.t, fd);
	get_file(e.v, f);
	CK_FAILS(vfs_check_tree(e.v, err, sizeof(err)), "f_count");
	fput(e.v, f);
	check_healthy(&e, fd);
	finish(&e, fd);
}
END_TEST

START_TEST(test_inode_counts)
{
	struct vt e;
	struct inode *f, *a;
	int fd;

	vt_begin(&e, "");
	fd = build(&e);
	f = d_inode(e.v, vt_dentry(e.t, "/a/f"));
	a = d_inode(e.v, vt_dentry(e.t, "/a"));
	f->i_nlink++;
	CK_FAILS(vfs_check_tree(e.v, err, sizeof(err)), "i_nlink");
	f->i_nlink--;
	ihold(f);
	CK_FAILS(vfs_check_tree(e.v, err, sizeof(err)), "i_count");
	atomic_dec(&f->i_count);
	a->i_nlink--;
	CK_FAILS(vfs_check_tree(e.v, err, sizeof(err)), "subdirectories");
	a->i_nlink++;
	a->i_size += 20;
	CK_FAILS(vfs_check_tree(e.v, err, sizeof(err)), "i_size");
	a->i_size -= 20;
	check_healthy(&e, fd);
	finish(&e, fd);
}
END_TEST

START_TEST(test_slab_leak)
{
	struct vt e;
	void *obj;
	int fd;

	vt_begin(&e, "");
	fd = build(&e);
	obj = kmem_cache_alloc(e.v->file_cache);
	ck_assert_ptr_nonnull(obj);
	/* The tree is fine; only the slab count knows. */
	CK_PASSES(vfs_check_tree(e.v, err, sizeof(err)));
	CK_FAILS(vfs_check_slabs(e.v, err, sizeof(err)), "leaked");
	kmem_cache_free(e.v->file_cache, obj);
	check_healthy(&e, fd);
	finish(&e, fd);
}
END_TEST

START_TEST(test_lru)
{
	struct vt e;
	struct stat st;
	int fd;

	/* Unused negative dentries stay on the LRU with count 0. */
	vt_begin(&e, "dcache-max-unused=16");
	fd = build(&e);
	VT_EQ(sys_stat(e.t, "/a/nope", &st), -ENOENT);
	check_healthy(&e, fd);
	ck_assert_uint_ge(e.v->nr_unused, 1);
	e.v->nr_unused++;
	CK_FAILS(vfs_check_tree(e.v, err, sizeof(err)), "LRU");
	e.v->nr_unused--;
	check_healthy(&e, fd);
	finish(&e, fd);
}
END_TEST

/* A lookup left unfinished: its dentry in lookup and in the in-lookup hash. */
START_TEST(test_in_lookup)
{
	struct lookup_wq wq;
	struct dentry *dir, *d;
	struct qstr q;
	struct vt e;
	int fd;

	vt_begin(&e, "");
	fd = build(&e);
	dir = vt_dentry(e.t, "/a");
	q.name = (const unsigned char *)"m";
	q.hash_len = hashlen_create(
		full_name_hash(name_hash_salt(e.v, dir, d_inode(e.v, dir)), "m", 1), 1);
	d = d_alloc_parallel(e.v, dir, &q, &wq);
	ck_assert(!IS_ERR(d) && d_in_lookup(e.v, d));
	CK_FAILS(vfs_check_tree(e.v, err, sizeof(err)), "in lookup");
	d_lookup_done(e.v, d);
	dput(e.v, d);
	check_healthy(&e, fd);
	finish(&e, fd);
}
END_TEST

START_TEST(test_mount_count)
{
	struct vt e;
	int fd;

	vt_begin(&e, "");
	fd = build(&e);
	VT_EQ(sys_mount(e.t, "none", "/a/b", "tmpfs", 0, NULL), 0);
	check_healthy(&e, fd);
	e.v->mnt_ns->mounts++;
	CK_FAILS(vfs_check_tree(e.v, err, sizeof(err)), "the namespace counts 3 mounts, 2");
	e.v->mnt_ns->mounts--;
	VT_EQ(sys_umount2(e.t, "/a/b", 0), 0);
	check_healthy(&e, fd);
	finish(&e, fd);
}
END_TEST

static Suite *check_suite(void)
{
	Suite *s = suite_create("check");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_healthy);
	tcase_add_test(tc, test_live_task_is_not_quiescent);
	tcase_add_loop_test(tc, test_d_count, 0, 2);
	tcase_add_loop_test(tc, test_fd_bitmaps, 0, 2);
	tcase_add_test(tc, test_parent_link);
	tcase_add_test(tc, test_hash);
	tcase_add_test(tc, test_hash_orphan);
	tcase_add_test(tc, test_dead_dentry);
	tcase_add_loop_test(tc, test_f_count, 0, 2);
	tcase_add_test(tc, test_inode_counts);
	tcase_add_test(tc, test_slab_leak);
	tcase_add_test(tc, test_lru);
	tcase_add_test(tc, test_in_lookup);
	tcase_add_test(tc, test_mount_count);
	suite_add_tcase(s, tc);
	return s;
}

VT_MAIN(check_suite)
