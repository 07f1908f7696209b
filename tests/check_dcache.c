// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Tests for vfs/dcache.c, white-box through vfs/internal.h: d_count at
 * rest and after use, the life of an unlinked-but-open dentry, rename's
 * names (inline and external) and refcounts, the dlock variant, the
 * bounded LRU of negative dentries, and the inline-name size per layout.
 */
#include "tests/vfs_test.h"
#include "vfs/check.h"

#define N_ROUNDS 50

static bool d_external(struct vfs *v, const struct dentry *d)
{
	return dentry_name(v, d)->name != dentry_iname(v, d);
}

static void d_name_is(struct vfs *v, const struct dentry *d, const char *want)
{
	struct dentry_info info;

	vfs_dentry_info(v, d, &info);
	ck_assert_str_eq(info.name, want);
	ck_assert_uint_eq(d_name_len(v, d), strlen(want));
}

/* A name of len bytes: a prefix letter, then digits. */
static void make_name(char *buf, char c, size_t len)
{
	buf[0] = c;
	for (size_t i = 1; i < len; i++)
		buf[i] = '0' + i % 10;
	buf[len] = '\0';
}

/* Every way of counting ends where it started (_i: the dcount variant). */
static const char *const dcount_modes[] = { "", "dcount=dlock", "dcount=atomic" };

START_TEST(test_dcount_at_rest)
{
	struct vt e;
	struct stat st;
	long fds[4];

	vt_begin(&e, dcount_modes[_i]);
	VT_EQ(sys_mkdir(e.t, "/d", 0755), 0);
	vt_touch(e.t, "/d/f");
	/* tmpfs pins each positive dentry: one reference at rest. */
	ck_assert_int_eq(vt_dcount(e.t, "/d/f"), 1);
	/* The directory also holds one per child. */
	ck_assert_int_eq(vt_dcount(e.t, "/d"), 2);
	for (int i = 0; i < N_ROUNDS; i++) {
		long fd = VT_OK(sys_open(e.t, "/d/f", O_RDONLY, 0));

		VT_EQ(sys_fstat(e.t, fd, &st), 0);
		VT_EQ(sys_stat(e.t, "/d/f", &st), 0);
		VT_EQ(sys_lstat(e.t, "/d/../d/./f", &st), 0);
		VT_EQ(sys_stat(e.t, "/d/missing", &st), -ENOENT);
		VT_EQ(sys_access(e.t, "/d/f", R_OK), 0);
		VT_EQ(sys_close(e.t, fd), 0);
	}
	ck_assert_int_eq(vt_dcount(e.t, "/d/f"), 1);
	ck_assert_int_eq(vt_dcount(e.t, "/d"), 2);
	/* Each open file holds the path; dup and fstat add nothing. */
	for (int i = 0; i < 4; i++)
		fds[i] = VT_OK(sys_open(e.t, "/d/f", O_RDONLY, 0));
	ck_assert_int_eq(vt_dcount(e.t, "/d/f"), 5);
	VT_EQ(sys_dup2(e.t, fds[0], 20), 20);
	VT_EQ(sys_fstat(e.t, 20, &st), 0);
	ck_assert_int_eq(vt_dcount(e.t, "/d/f"), 5);
	for (int i = 0; i < 4; i++)
		VT_EQ(sys_close(e.t, fds[i]), 0);
	ck_assert_int_eq(vt_dcount(e.t, "/d/f"), 2);
	VT_EQ(sys_close(e.t, 20), 0);
	ck_assert_int_eq(vt_dcount(e.t, "/d/f"), 1);
	/* A cwd is a reference too. */
	VT_EQ(sys_chdir(e.t, "/d"), 0);
	ck_assert_int_eq(vt_dcount(e.t, "/d"), 3);
	VT_EQ(sys_chdir(e.t, "/"), 0);
	ck_assert_int_eq(vt_dcount(e.t, "/d"), 2);
	vt_end(&e);
}
END_TEST

START_TEST(test_unlinked_open_file)
{
	struct vt e;
	struct vt_inuse before, mid, after;
	struct dentry *d;
	struct stat st;
	char buf[8];
	long fd;

	vt_begin(&e, "");
	vt_put(e.t, "/f", "old", 3);
	fd = VT_OK(sys_open(e.t, "/f", O_RDONLY, 0));
	d = file_path(e.v, vt_file(e.t, fd))->dentry;
	before = vt_inuse(e.v);
	VT_EQ(sys_unlink(e.t, "/f"), 0);
	/* Unhashed, but positive while the file holds it. */
	mid = vt_inuse(e.v);
	ck_assert_int_eq(mid.dentries, before.dentries);
	ck_assert_int_eq(mid.inodes, before.inodes);
	ck_assert(d_unhashed(e.v, d));
	ck_assert(d_is_positive(e.v, d));
	ck_assert_int_eq(d_count(e.v, d), 1);
	VT_EQ(sys_stat(e.t, "/f", &st), -ENOENT);
	VT_EQ(sys_fstat(e.t, fd, &st), 0);
	ck_assert_uint_eq(st.st_nlink, 0);
	/* A new file of the same name is another dentry and inode. */
	vt_put(e.t, "/f", "new", 3);
	ck_assert_ptr_ne(vt_dentry(e.t, "/f"), d);
	VT_EQ(sys_pread64(e.t, fd, buf, sizeof(buf), 0), 3);
	ck_assert_int_eq(memcmp(buf, "old", 3), 0);
	VT_EQ(sys_unlink(e.t, "/f"), 0);
	/* The last close frees dentry, inode and file. */
	VT_EQ(sys_close(e.t, fd), 0);
	after = vt_inuse(e.v);
	ck_assert_int_eq(after.dentries, before.dentries - 1);
	ck_assert_int_eq(after.inodes, before.inodes - 1);
	ck_assert_int_eq(after.files, before.files - 1);
	/* Without an open file, unlink frees at once. */
	vt_touch(e.t, "/g");
	before = vt_inuse(e.v);
	VT_EQ(sys_unlink(e.t, "/g"), 0);
	after = vt_inuse(e.v);
	ck_assert_int_eq(after.dentries, before.dentries - 1);
	ck_assert_int_eq(after.inodes, before.inodes - 1);
	vt_end(&e);
}
END_TEST

START_TEST(test_rmdir_with_open_fd)
{
	struct vt e;
	struct vt_inuse before, after;
	struct stat st;
	char buf[256];
	long fd;
	int root;

	vt_begin(&e, "");
	root = vt_dcount(e.t, "/");
	VT_EQ(sys_mkdir(e.t, "/d", 0755), 0);
	fd = VT_OK(sys_open(e.t, "/d", O_RDONLY | O_DIRECTORY, 0));
	before = vt_inuse(e.v);
	VT_EQ(sys_rmdir(e.t, "/d"), 0);
	VT_EQ(sys_fstat(e.t, fd, &st), 0);
	ck_assert_uint_eq(st.st_nlink, 0);
	/* A removed directory lists nothing and takes no new names. */
	VT_EQ(sys_getdents64(e.t, fd, buf, sizeof(buf)), -ENOENT);
	VT_EQ(sys_mkdirat(e.t, fd, "x", 0755), -ENOENT);
	VT_EQ(sys_openat(e.t, fd, "x", O_CREAT | O_WRONLY, 0644), -ENOENT);
	/* The unhashed child still holds its parent. */
	ck_assert_int_eq(vt_dcount(e.t, "/"), root + 1);
	VT_EQ(sys_close(e.t, fd), 0);
	ck_assert_int_eq(vt_dcount(e.t, "/"), root);
	after = vt_inuse(e.v);
	ck_assert_int_eq(after.dentries, before.dentries - 1);
	ck_assert_int_eq(after.inodes, before.inodes - 1);
	vt_end(&e);
}
END_TEST

START_TEST(test_rename_moves_name_and_refs)
{
	struct vt e;
	struct vt_inuse before, after;
	struct dentry *d;
	struct stat st;
	char buf[8];
	long fd;

	vt_begin(&e, "");
	VT_EQ(sys_mkdir(e.t, "/a", 0755), 0);
	VT_EQ(sys_mkdir(e.t, "/b", 0755), 0);
	vt_put(e.t, "/a/src", "data", 4);
	d = vt_dentry(e.t, "/a/src");
	before = vt_inuse(e.v);
	VT_EQ(sys_rename(e.t, "/a/src", "/b/dst"), 0);
	/* The same dentry, renamed and moved; refcounts at baseline. */
	ck_assert_ptr_eq(vt_dentry(e.t, "/b/dst"), d);
	d_name_is(e.v, d, "dst");
	ck_assert_ptr_eq(d_parent(e.v, d), vt_dentry(e.t, "/b"));
	ck_assert_int_eq(vt_dcount(e.t, "/b/dst"), 1);
	ck_assert_int_eq(vt_dcount(e.t, "/a"), 1);
	ck_assert_int_eq(vt_dcount(e.t, "/b"), 2);
	VT_EQ(sys_stat(e.t, "/a/src", &st), -ENOENT);
	after = vt_inuse(e.v);
	ck_assert_int_eq(after.dentries, before.dentries);
	/* Over an existing name: the victim's dentry and inode go. */
	vt_put(e.t, "/b/victim", "x", 1);
	before = vt_inuse(e.v);
	VT_EQ(sys_rename(e.t, "/b/dst", "/b/victim"), 0);
	after = vt_inuse(e.v);
	ck_assert_int_eq(after.dentries, before.dentries - 1);
	ck_assert_int_eq(after.inodes, before.inodes - 1);
	ck_assert_int_eq(vt_dcount(e.t, "/b/victim"), 1);
	ck_assert_int_eq(vt_dcount(e.t, "/b"), 2);
	fd = VT_OK(sys_open(e.t, "/b/victim", O_RDONLY, 0));
	VT_EQ(sys_read(e.t, fd, buf, sizeof(buf)), 4);
	VT_EQ(sys_close(e.t, fd), 0);
	vt_end(&e);
}
END_TEST

/*
 * Names of DNAME_INLINE_LEN bytes or more live in a separate allocation
 * shared by reference on rename; run every inline/external combination.
 */
static void rename_long_names(const char *spec, unsigned int inline_len)
{
	struct vt e;
	struct vt_inuse before, after;
	char l1[80], l2[80], p[96], q[96];
	struct dentry *d, *x;

	vt_begin(&e, spec);
	ck_assert_uint_eq(e.v->dname_inline_len, inline_len);
	make_name(l1, 'L', 60);
	make_name(l2, 'M', 70);
	snprintf(p, sizeof(p), "/%s", l1);
	vt_put(e.t, p, "long", 4);
	d = vt_dentry(e.t, p);
	ck_assert(d_external(e.v, d));
	d_name_is(e.v, d, l1);
	before = vt_inuse(e.v);
	/* long -> short -> long -> long */
	VT_EQ(sys_rename(e.t, p, "/short"), 0);
	ck_assert(!d_external(e.v, d));
	d_name_is(e.v, d, "short");
	snprintf(q, sizeof(q), "/%s", l2);
	VT_EQ(sys_rename(e.t, "/short", q), 0);
	ck_assert(d_external(e.v, d));
	d_name_is(e.v, d, l2);
	VT_EQ(sys_rename(e.t, q, p), 0);
	d_name_is(e.v, d, l1);
	ck_assert_ptr_eq(vt_dentry(e.t, p), d);
	/* Over a long-named victim: d keeps the victim's name after it dies. */
	vt_put(e.t, q, "victim", 6);
	VT_EQ(sys_rename(e.t, p, q), 0);
	rcu_barrier();
	d_name_is(e.v, d, l2);
	ck_assert_ptr_eq(vt_dentry(e.t, q), d);
	ck_assert_int_eq(vt_dcount(e.t, q), 1);
	/* Exchange long with short, both ways, then two long names. */
	vt_put(e.t, "/s", "s", 1);
	x = vt_dentry(e.t, "/s");
	VT_EQ(sys_renameat2(e.t, AT_FDCWD, q, AT_FDCWD, "/s", RENAME_EXCHANGE), 0);
	d_name_is(e.v, d, "s");
	d_name_is(e.v, x, l2);
	ck_assert(!d_external(e.v, d));
	ck_assert(d_external(e.v, x));
	ck_assert_ptr_eq(vt_dentry(e.t, "/s"), d);
	ck_assert_ptr_eq(vt_dentry(e.t, q), x);
	VT_EQ(sys_renameat2(e.t, AT_FDCWD, "/s", AT_FDCWD, q, RENAME_EXCHANGE), 0);
	d_name_is(e.v, d, l2);
	d_name_is(e.v, x, "s");
	VT_EQ(sys_rename(e.t, "/s", p), 0);
	VT_EQ(sys_renameat2(e.t, AT_FDCWD, p, AT_FDCWD, q, RENAME_EXCHANGE), 0);
	d_name_is(e.v, d, l1);
	d_name_is(e.v, x, l2);
	ck_assert_int_eq(vt_dcount(e.t, p), 1);
	ck_assert_int_eq(vt_dcount(e.t, q), 1);
	/* Short names of inline_len - 1 and inline_len bytes straddle the edge. */
	make_name(l1, 'a', inline_len - 1);
	make_name(l2, 'b', inline_len);
	snprintf(p, sizeof(p), "/%s", l1);
	snprintf(q, sizeof(q), "/%s", l2);
	vt_touch(e.t, p);
	ck_assert(!d_external(e.v, vt_dentry(e.t, p)));
	VT_EQ(sys_rename(e.t, p, q), 0);
	ck_assert(d_external(e.v, vt_dentry(e.t, q)));
	d_name_is(e.v, vt_dentry(e.t, q), l2);
	VT_EQ(sys_unlink(e.t, q), 0);
	after = vt_inuse(e.v);
	ck_assert_int_eq(after.dentries, before.dentries + 1); /* x */
	vt_end(&e);
}

START_TEST(test_rename_long_names)
{
	rename_long_names("", 40);
}
END_TEST

START_TEST(test_rename_long_names_v67)
{
	rename_long_names("dentry=v6.7", 32);
}
END_TEST

/* One script, its d_counts and answers recorded, for comparing variants. */
static void dcount_script(const char *spec, long *out, int *n, struct vt_ev *ev)
{
	struct vt e;
	struct task *child;
	struct stat st;
	struct vt_ev a, b;
	long fd;

	*n = 0;
	vt_begin(&e, spec);
	VT_EQ(sys_mkdir(e.t, "/d", 0755), 0);
	vt_touch(e.t, "/d/f");
	a = vt_events();
	for (int i = 0; i < N_ROUNDS; i++)
		VT_EQ(sys_stat(e.t, "/d/f", &st), 0);
	b = vt_events();
	*ev = b;
	for (int i = 0; i < VFS_EV_NR; i++)
		ev->n[i] = b.n[i] - a.n[i];
	out[(*n)++] = vt_dcount(e.t, "/d/f");
	fd = VT_OK(sys_open(e.t, "/d/f", O_RDWR, 0));
	out[(*n)++] = vt_dcount(e.t, "/d/f");
	child = task_fork(e.t, 0);
	ck_assert_ptr_nonnull(child);
	out[(*n)++] = vt_dcount(e.t, "/d/f");
	out[(*n)++] = vt_dcount(e.t, "/");
	VT_EQ(sys_chdir(child, "/d"), 0);
	out[(*n)++] = vt_dcount(e.t, "/d");
	out[(*n)++] = sys_rename(child, "f", "g");
	out[(*n)++] = vt_dcount(e.t, "/d/g");
	out[(*n)++] = sys_unlink(e.t, "/d/g");
	out[(*n)++] = sys_rmdir(e.t, "/d");
	task_exit(child);
	out[(*n)++] = vt_dcount(e.t, "/");
	out[(*n)++] = sys_close(e.t, fd);
	out[(*n)++] = sys_rmdir(e.t, "/d");
	out[(*n)++] = vt_dcount(e.t, "/");
	vt_end(&e);
}

START_TEST(test_dlock_variant_identical)
{
	long a[32], b[32];
	int na, nb;
	struct vt_ev ea, eb;

	dcount_script("", a, &na, &ea);
	dcount_script("dcount=dlock", b, &nb, &eb);
	ck_assert_int_eq(na, nb);
	for (int i = 0; i < na; i++)
		ck_assert_msg(a[i] == b[i], "step %d: lockref %ld, dlock %ld", i, a[i], b[i]);
	/* The variant really switched: dlock never takes the cmpxchg path. */
	ck_assert_uint_ge(ea.n[VFS_EV_LOCKREF_FAST], N_ROUNDS);
	ck_assert_uint_eq(eb.n[VFS_EV_LOCKREF_FAST], 0);
	ck_assert_uint_eq(ea.n[VFS_EV_UNLAZY_OK], N_ROUNDS);
	ck_assert_uint_eq(eb.n[VFS_EV_UNLAZY_OK], N_ROUNDS);
}
END_TEST

START_TEST(test_lru_bounded)
{
	const unsigned long max = 8;
	struct vt e;
	struct vt_ev a, b;
	struct stat st;
	char p[64];
	int root;

	vt_begin(&e, "dcache-max-unused=8");
	root = vt_dcount(e.t, "/");
	VT_EQ(sys_mkdir(e.t, "/d", 0755), 0);
	for (int i = 0; i < 100; i++) {
		snprintf(p, sizeof(p), "/d/miss%d", i);
		VT_EQ(sys_stat(e.t, p, &st), -ENOENT);
		ck_assert_uint_le(e.v->nr_unused, max);
	}
	ck_assert_uint_eq(e.v->nr_unused, max);
	/* The most recent misses are cached negative dentries: no fs lookup. */
	a = vt_events();
	VT_EQ(sys_stat(e.t, "/d/miss99", &st), -ENOENT);
	b = vt_events();
	ck_assert_uint_eq(vt_delta(&a, &b, VFS_EV_DCACHE_MISS), 0);
	/* The oldest were shrunk away. */
	a = vt_events();
	VT_EQ(sys_stat(e.t, "/d/miss0", &st), -ENOENT);
	b = vt_events();
	ck_assert_uint_eq(vt_delta(&a, &b, VFS_EV_DCACHE_MISS), 1);
	/* A cached negative name can be created, and is then found. */
	vt_touch(e.t, "/d/miss98");
	VT_EQ(sys_stat(e.t, "/d/miss98", &st), 0);
	ck_assert(S_ISREG(st.st_mode));
	ck_assert_int_eq(vt_dcount(e.t, "/d/miss98"), 1);
	VT_EQ(sys_rmdir(e.t, "/d"), -ENOTEMPTY);
	VT_EQ(sys_unlink(e.t, "/d/miss98"), 0);
	/* Negative children do not make a directory busy. */
	VT_EQ(sys_rmdir(e.t, "/d"), 0);
	VT_EQ(sys_stat(e.t, "/d", &st), -ENOENT);
	VT_EQ(sys_stat(e.t, "/d/miss99", &st), -ENOENT);
	ck_assert_uint_le(e.v->nr_unused, max);
	/* The removed /d is itself a cached negative dentry holding "/". */
	ck_assert_int_eq(vt_dcount(e.t, "/"), root + 1);
	shrink_dcache_lru(e.v, 0);
	ck_assert_uint_eq(e.v->nr_unused, 0);
	ck_assert_int_eq(vt_dcount(e.t, "/"), root);
	vt_end(&e);
}
END_TEST

/*
 * An umount with the LRU on while other trees' unused dentries are busy
 * (their d_locks held, as pruners and walkers on other CPUs hold them):
 * every dentry of the unmounted tree still goes, as
 * shrink_dcache_for_umount() does not give up. Pruning the whole LRU did,
 * after as many busy entries as it held, and left "/m/a" there with its
 * superblock gone (the torture, seed 103, 16 tasks).
 */
START_TEST(test_umount_busy_lru)
{
	struct dentry *busy[3];
	unsigned int n = 0;
	struct list_head *l;
	struct stat st;
	char err[256];
	struct vt e;

	vt_begin(&e, "dcache-max-unused=16");
	VT_EQ(sys_mkdir(e.t, "/m", 0755), 0);
	VT_EQ(sys_mount(e.t, "none", "/m", "tmpfs", 0, NULL), 0);
	VT_EQ(sys_mkdir(e.t, "/m/a", 0755), 0);
	VT_EQ(sys_mkdir(e.t, "/m/a/b", 0755), 0);
	VT_EQ(sys_stat(e.t, "/x1", &st), -ENOENT);
	VT_EQ(sys_stat(e.t, "/x2", &st), -ENOENT);
	VT_EQ(sys_stat(e.t, "/x3", &st), -ENOENT);
	ck_assert_uint_eq(e.v->nr_unused, 3);
	for (l = e.v->lru.next; l != &e.v->lru && n < 3; l = l->next)
		busy[n++] = (struct dentry *)((char *)l - e.v->dl.off[DENTRY_F_d_lru]);
	ck_assert_uint_eq(n, 3);
	for (unsigned int i = 0; i < n; i++)
		spin_lock(d_lock(e.v, busy[i]));
	VT_EQ(sys_umount(e.t, "/m"), 0);
	for (unsigned int i = 0; i < n; i++)
		spin_unlock(d_lock(e.v, busy[i]));
	/* Only the three are left: nothing of the tmpfs that went. */
	ck_assert_uint_eq(e.v->nr_unused, 3);
	ck_assert_msg(!vfs_check_tree(e.v, err, sizeof(err)), "%s", err);
	vt_end(&e);
}
END_TEST

/* Names that are cached negative dentries can be renamed onto and made. */
START_TEST(test_lru_negative_reuse)
{
	struct vt e;
	struct vt_ev a, b;
	struct stat st;
	unsigned long ino;

	vt_begin(&e, "dcache-max-unused=8");
	vt_put(e.t, "/f", "data", 4);
	ino = vt_ino(e.t, "/f");
	VT_EQ(sys_stat(e.t, "/neg", &st), -ENOENT);
	VT_EQ(sys_stat(e.t, "/dneg", &st), -ENOENT);
	VT_EQ(sys_stat(e.t, "/lneg", &st), -ENOENT);
	ck_assert_uint_eq(e.v->nr_unused, 3);
	/* Rename onto a negative name: it is found, not looked up again. */
	a = vt_events();
	VT_EQ(sys_rename(e.t, "/f", "/neg"), 0);
	b = vt_events();
	ck_assert_uint_eq(vt_delta(&a, &b, VFS_EV_DCACHE_MISS), 0);
	VT_EQ(sys_stat(e.t, "/neg", &st), 0);
	ck_assert_uint_eq(st.st_ino, ino);
	ck_assert_int_eq(vt_dcount(e.t, "/neg"), 1);
	/* The old name is now a negative dentry of its own. */
	VT_EQ(sys_stat(e.t, "/f", &st), -ENOENT);
	VT_EQ(sys_mkdir(e.t, "/dneg", 0755), 0);
	VT_EQ(sys_symlink(e.t, "neg", "/lneg"), 0);
	VT_EQ(sys_stat(e.t, "/lneg", &st), 0);
	ck_assert_uint_eq(st.st_ino, ino);
	ck_assert_int_eq(vt_dcount(e.t, "/dneg"), 1);
	ck_assert_int_eq(vt_dcount(e.t, "/lneg"), 1);
	/*
	 * Removal turns a name negative in place and caches it; a rename's
	 * victim (here the negative "/f") is unhashed and freed instead.
	 */
	VT_EQ(sys_rmdir(e.t, "/dneg"), 0);
	VT_EQ(sys_unlink(e.t, "/lneg"), 0);
	VT_EQ(sys_rename(e.t, "/neg", "/f"), 0);
	ck_assert_uint_eq(e.v->nr_unused, 2);
	VT_EQ(sys_stat(e.t, "/f", &st), 0);
	vt_end(&e);
}
END_TEST

/* Without the bound, tmpfs keeps no unused dentry at all. */
START_TEST(test_tmpfs_keeps_no_negative)
{
	struct vt e;
	struct vt_inuse before, after;
	struct stat st;
	char p[64];

	vt_begin(&e, "");
	before = vt_inuse(e.v);
	for (int i = 0; i < 100; i++) {
		snprintf(p, sizeof(p), "/miss%d", i);
		VT_EQ(sys_stat(e.t, p, &st), -ENOENT);
	}
	after = vt_inuse(e.v);
	ck_assert_uint_eq(e.v->nr_unused, 0);
	ck_assert_int_eq(after.dentries, before.dentries);
	vt_end(&e);
}
END_TEST

START_TEST(test_layout_inline_name)
{
	static const struct {
		const char *spec;
		unsigned int inl, lockref;
	} cases[] = {
		{ "", 40, 128 },
		{ "dentry=v6.11", 40, 128 },
		{ "dentry=v6.10", 40, 96 },
		{ "dentry=v6.7", 32, 88 },
	};

	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		struct vt e;
		struct dentry_info info;
		char n[64], p[80];

		vt_begin(&e, cases[i].spec);
		ck_assert_uint_eq(e.v->dname_inline_len, cases[i].inl);
		for (unsigned int len = cases[i].inl - 2; len <= cases[i].inl + 1; len++) {
			make_name(n, 'n', len);
			snprintf(p, sizeof(p), "/%s", n);
			vt_touch(e.t, p);
			ck_assert_msg(d_external(e.v, vt_dentry(e.t, p)) == (len >= cases[i].inl),
				      "%s: name of %u bytes", cases[i].spec, len);
			vfs_dentry_info(e.v, vt_dentry(e.t, p), &info);
			ck_assert_str_eq(info.name, n);
			ck_assert_int_eq(info.count, 1);
			ck_assert_uint_eq(info.lockref_offset, cases[i].lockref);
		}
		vt_end(&e);
	}
}
END_TEST

static Suite *dcache_suite(void)
{
	Suite *s = suite_create("dcache");
	TCase *tc = tcase_create("dcache");

	tcase_add_loop_test(tc, test_dcount_at_rest, 0, 3);
	tcase_add_test(tc, test_unlinked_open_file);
	tcase_add_test(tc, test_rmdir_with_open_fd);
	tcase_add_test(tc, test_rename_moves_name_and_refs);
	tcase_add_test(tc, test_rename_long_names);
	tcase_add_test(tc, test_rename_long_names_v67);
	tcase_add_test(tc, test_dlock_variant_identical);
	tcase_add_test(tc, test_lru_bounded);
	tcase_add_test(tc, test_lru_negative_reuse);
	tcase_add_test(tc, test_umount_busy_lru);
	tcase_add_test(tc, test_tmpfs_keeps_no_negative);
	tcase_add_test(tc, test_layout_inline_name);
	suite_add_tcase(s, tc);
	return s;
}

VT_MAIN(dcache_suite)
