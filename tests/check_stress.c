// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Concurrency tests for vfs/: a few threads, bounded iteration counts.
 * Path walks racing renames, unlinks and rmdirs must give a valid errno
 * (never a crash or a wrong file); a shared fd table under open, close,
 * dup2 and expansion keeps its invariants and every installed fd points
 * at the file it should; fstat on one shared fd keeps file counts exact
 * under both refcount variants. At quiescence every refcount is back at
 * its baseline and vfs_destroy() finds nothing leaked.
 */
#include "tests/vfs_test.h"

#define WALK_ITERS 10000
#define MUTATE_ITERS 2000
#define FD_ITERS 10000
#define NWORKERS 3

/* Per-thread tallies: results by errno, and the first unexpected one. */
struct tally {
	long ok, enoent, enotdir, ebadf, ebusy, other;
	long first_other;
	const char *first_what;
};

static void tally(struct tally *t, long r, const char *what)
{
	if (r >= 0)
		t->ok++;
	else if (r == -ENOENT)
		t->enoent++;
	else if (r == -ENOTDIR)
		t->enotdir++;
	else if (r == -EBADF)
		t->ebadf++;
	else if (r == -EBUSY)
		t->ebusy++;
	else if (!t->other++) {
		t->first_other = r;
		t->first_what = what;
	}
}

static void no_other(const struct tally *t, int i)
{
	ck_assert_msg(!t->other, "thread %d: %s gave %ld (%s), %ld such", i, t->first_what,
		      t->first_other, vt_ename(t->first_other), t->other);
}

/* ---- walks against renames ---- */

struct walker {
	struct task *t;
	int role; /* 0: walker, 1: mutator */
	unsigned long ino_f, ino_g;
	struct tally res;
	long wrong_file; /* an open of .../f that found another inode */
	long mutate_fail;
	long mutate_first;
	int mutate_step;
};

static void *walk_main(void *p)
{
	struct walker *w = p;
	struct stat st;

	if (w->role == 1) {
		/* Every change the walkers can observe, in a loop. */
		for (int i = 0; i < MUTATE_ITERS; i++) {
			long r[12];
			int k = 0, fd;

			r[k++] = sys_rename(w->t, "/d/a", "/d/b");
			r[k++] = sys_rename(w->t, "/d/b", "/d/a");
			r[k++] = sys_unlink(w->t, "/d/a/sub/g");
			r[k++] = sys_rmdir(w->t, "/d/a/sub");
			r[k++] = sys_mkdir(w->t, "/d/a/sub", 0755);
			r[k++] = sys_link(w->t, "/d/a/f", "/d/a/sub/g");
			r[k++] = sys_rename(w->t, "/d/a", "/d/x");
			fd = sys_open(w->t, "/d/a", O_CREAT | O_EXCL | O_WRONLY, 0644);
			r[k++] = fd;
			r[k++] = fd >= 0 ? sys_close(w->t, fd) : fd;
			r[k++] = sys_unlink(w->t, "/d/a");
			r[k++] = sys_rename(w->t, "/d/x", "/d/a");
			for (int j = 0; j < k; j++) {
				if (r[j] < 0 && !w->mutate_fail++) {
					w->mutate_first = r[j];
					w->mutate_step = j;
				}
			}
		}
		return NULL;
	}
	for (int i = 0; i < WALK_ITERS; i++) {
		long fd;

		tally(&w->res, sys_stat(w->t, "/d/a/f", &st), "stat /d/a/f");
		tally(&w->res, sys_lstat(w->t, "/d/a/sub/g", &st), "lstat /d/a/sub/g");
		tally(&w->res, sys_stat(w->t, "/d/b/../a/sub/../f", &st), "stat dotdot");
		tally(&w->res, sys_access(w->t, "/d/x/f", R_OK), "access /d/x/f");
		fd = sys_open(w->t, "/d/a/f", O_RDONLY, 0);
		tally(&w->res, fd, "open /d/a/f");
		if (fd >= 0) {
			/* Whatever path it came by, it is f's inode. */
			if (sys_fstat(w->t, fd, &st) || st.st_ino != w->ino_f)
				w->wrong_file++;
			tally(&w->res, sys_close(w->t, fd), "close");
		}
		fd = sys_open(w->t, "/d/a/sub", O_RDONLY | O_DIRECTORY, 0);
		tally(&w->res, fd, "open /d/a/sub");
		if (fd >= 0) {
			tally(&w->res, sys_fstatat(w->t, fd, "g", &st, 0), "fstatat sub g");
			tally(&w->res, sys_close(w->t, fd), "close sub");
		}
	}
	return NULL;
}

static void walk_vs_rename(const char *spec)
{
	struct walker w[NWORKERS + 1];
	struct vt_inuse before, after;
	struct vt e;
	long total = 0;

	vt_begin(&e, spec);
	VT_EQ(sys_mkdir(e.t, "/d", 0755), 0);
	VT_EQ(sys_mkdir(e.t, "/d/a", 0755), 0);
	VT_EQ(sys_mkdir(e.t, "/d/a/sub", 0755), 0);
	vt_touch(e.t, "/d/a/f");
	VT_EQ(sys_link(e.t, "/d/a/f", "/d/a/sub/g"), 0);
	before = vt_inuse(e.v);
	memset(w, 0, sizeof(w));
	for (int i = 0; i <= NWORKERS; i++) {
		w[i].t = task_fork(e.t, 0);
		ck_assert_ptr_nonnull(w[i].t);
		w[i].role = i == NWORKERS;
		w[i].ino_f = vt_ino(e.t, "/d/a/f");
	}
	vt_run_threads(NWORKERS + 1, walk_main, w, sizeof(w[0]));
	ck_assert_msg(!w[NWORKERS].mutate_fail, "mutator step %d failed: %s (%ld failures)",
		      w[NWORKERS].mutate_step, vt_ename(w[NWORKERS].mutate_first),
		      w[NWORKERS].mutate_fail);
	for (int i = 0; i < NWORKERS; i++) {
		no_other(&w[i].res, i);
		ck_assert_int_eq(w[i].res.ebadf, 0);
		ck_assert_int_eq(w[i].res.ebusy, 0);
		ck_assert_int_eq(w[i].wrong_file, 0);
		total += w[i].res.ok;
	}
	ck_assert_int_gt(total, 0);
	for (int i = 0; i <= NWORKERS; i++)
		task_exit(w[i].t);
	/* Quiescent: the tree is as it was, every count at its baseline. */
	shrink_dcache_lru(e.v, 0);
	ck_assert_int_eq(vt_dcount(e.t, "/d/a/f"), 1);
	ck_assert_int_eq(vt_dcount(e.t, "/d/a/sub/g"), 1);
	ck_assert_int_eq(vt_dcount(e.t, "/d/a/sub"), 2);
	ck_assert_int_eq(vt_dcount(e.t, "/d/a"), 3);
	ck_assert_int_eq(vt_dcount(e.t, "/d"), 2);
	VT_EQ(sys_stat(e.t, "/d/b", &(struct stat){ 0 }), -ENOENT);
	VT_EQ(sys_stat(e.t, "/d/x", &(struct stat){ 0 }), -ENOENT);
	shrink_dcache_lru(e.v, 0);
	after = vt_inuse(e.v);
	ck_assert_int_eq(after.dentries, before.dentries);
	ck_assert_int_eq(after.inodes, before.inodes);
	ck_assert_int_eq(after.files, 0);
	vt_end(&e);
}

START_TEST(test_walk_vs_rename)
{
	walk_vs_rename("");
}
END_TEST

START_TEST(test_walk_vs_rename_dlock_lru)
{
	walk_vs_rename("dcount=dlock,dcache-max-unused=16,dentry=v6.7");
}
END_TEST

/* The atomic d_count's lockless gets and puts race the locked ones. */
START_TEST(test_walk_vs_rename_atomic_lru)
{
	walk_vs_rename("dcount=atomic,dcache-max-unused=16");
}
END_TEST

/* ---- names nobody touches never vanish, whatever their siblings do ---- */

struct churner {
	struct task *t;
	int role; /* 0: stat the stable names, 1: churn siblings */
	long bad, first_bad, ok;
};

static void *churn_main(void *p)
{
	struct churner *c = p;
	char a[32], b[32];
	struct stat st;

	for (int i = 0; i < WALK_ITERS; i++) {
		if (c->role) {
			if (i >= MUTATE_ITERS)
				break;
			snprintf(a, sizeof(a), "/s/x%d", i % 8);
			snprintf(b, sizeof(b), "/s/y%d", i % 8);
			/* Rehashes, unhashes and negative dentries in the same buckets. */
			vt_touch(c->t, a);
			if (sys_rename(c->t, a, b) || sys_rename(c->t, b, a) || sys_unlink(c->t, a))
				c->bad++;
			sys_stat(c->t, b, &st);
			if (sys_mkdir(c->t, b, 0755) || sys_rename(c->t, b, "/s/sub/z") ||
			    sys_rmdir(c->t, "/s/sub/z"))
				c->bad++;
			continue;
		}
		for (int k = 0; k < 4; k++) {
			long r;

			snprintf(a, sizeof(a), "/s/stable%d", k);
			r = sys_stat(c->t, a, &st);
			if (r && !c->bad++)
				c->first_bad = r;
			c->ok += !r;
		}
		if (sys_stat(c->t, "/s/sub/deep/file", &st) && !c->bad++)
			c->first_bad = -1000;
	}
	return NULL;
}

static void stable_names(const char *spec)
{
	struct churner c[4];
	struct vt e;
	char p[32];

	vt_begin(&e, spec);
	VT_EQ(sys_mkdir(e.t, "/s", 0755), 0);
	VT_EQ(sys_mkdir(e.t, "/s/sub", 0755), 0);
	VT_EQ(sys_mkdir(e.t, "/s/sub/deep", 0755), 0);
	vt_touch(e.t, "/s/sub/deep/file");
	for (int k = 0; k < 4; k++) {
		snprintf(p, sizeof(p), "/s/stable%d", k);
		vt_touch(e.t, p);
	}
	memset(c, 0, sizeof(c));
	for (int i = 0; i < 4; i++) {
		c[i].t = task_fork(e.t, 0);
		c[i].role = i == 3;
	}
	vt_run_threads(4, churn_main, c, sizeof(c[0]));
	ck_assert_int_eq(c[3].bad, 0);
	for (int i = 0; i < 3; i++)
		ck_assert_msg(!c[i].bad, "%s: thread %d: %ld failed stats, first %ld (%s)", spec, i,
			      c[i].bad, c[i].first_bad, vt_ename(c[i].first_bad));
	for (int i = 0; i < 4; i++)
		task_exit(c[i].t);
	shrink_dcache_lru(e.v, 0);
	ck_assert_int_eq(vt_dcount(e.t, "/s/stable0"), 1);
	ck_assert_int_eq(vt_dcount(e.t, "/s"), 1 + 5);
	ck_assert_int_eq(vt_dcount(e.t, "/s/sub"), 2);
	vt_end(&e);
}

START_TEST(test_stable_names_under_churn)
{
	stable_names("hash-shift=4");
	stable_names("hash-shift=4,dcache-max-unused=32,dcount=dlock");
}
END_TEST

/* ---- many threads on one dentry ---- */

struct statter {
	struct task *t;
	struct tally res;
};

static void *stat_main(void *p)
{
	struct statter *s = p;
	struct stat st;

	for (int i = 0; i < FD_ITERS; i++)
		tally(&s->res, sys_stat(s->t, "/d/f", &st), "stat");
	return NULL;
}

static void stat_same_path(const char *spec)
{
	struct statter s[4];
	struct vt e;

	vt_begin(&e, spec);
	VT_EQ(sys_mkdir(e.t, "/d", 0755), 0);
	vt_touch(e.t, "/d/f");
	memset(s, 0, sizeof(s));
	for (int i = 0; i < 4; i++)
		s[i].t = task_fork(e.t, TASK_CLONE_FILES | TASK_CLONE_FS);
	vt_run_threads(4, stat_main, s, sizeof(s[0]));
	for (int i = 0; i < 4; i++) {
		ck_assert_int_eq(s[i].res.ok, FD_ITERS);
		task_exit(s[i].t);
	}
	ck_assert_int_eq(vt_dcount(e.t, "/d/f"), 1);
	ck_assert_int_eq(vt_dcount(e.t, "/d"), 2);
	vt_end(&e);
}

START_TEST(test_stat_same_path)
{
	stat_same_path("");
	stat_same_path("dcount=dlock");
	stat_same_path("lockref-retry=1");
}
END_TEST

/* ---- a shared fd table under open, close and dup2 ---- */

struct fdworker {
	struct task *t;
	uint32_t seed;
	struct tally res;
};

static void *fd_main(void *p)
{
	struct fdworker *w = p;

	for (int i = 0; i < FD_ITERS; i++) {
		uint32_t r = vt_rand(&w->seed);
		long fd = sys_open(w->t, "/f", O_RDONLY, 0);
		int target = 64 + r % 64;

		tally(&w->res, fd, "open");
		if (fd < 0)
			continue;
		if (r & 0x10000) {
			long d = sys_dup2(w->t, fd, target);

			/* EBUSY: the slot was reserved by a racing open. */
			if (d >= 0 && d != target)
				tally(&w->res, -EIO, "dup2 returned another fd");
			tally(&w->res, d, "dup2");
			if (r & 0x20000)
				tally(&w->res, sys_close(w->t, target), "close target");
		}
		if (r & 0x40000) {
			long d = sys_fcntl(w->t, fd, F_DUPFD, r % 200);

			tally(&w->res, d, "F_DUPFD");
			if (d >= 0)
				tally(&w->res, sys_close(w->t, d), "close F_DUPFD");
		}
		/* Another thread's dup2 or close may have hit fd: EBADF is fine. */
		tally(&w->res, sys_close(w->t, fd), "close");
	}
	return NULL;
}

/* Each file's count is the number of slots holding it. */
static void check_file_counts(struct task *t)
{
	unsigned int max = files_max_fds(t);

	for (unsigned int i = 0; i < max; i++) {
		struct file *f = vt_file(t, i);
		unsigned long slots = 0;

		if (!f)
			continue;
		for (unsigned int j = 0; j < max; j++)
			slots += vt_file(t, j) == f;
		ck_assert_msg(file_count(t->vfs, f) == slots, "fd %u: file_count %lu, %lu slots", i,
			      file_count(t->vfs, f), slots);
	}
}

START_TEST(test_shared_table_open_close_dup2)
{
	struct fdworker w[4];
	struct vt e;

	vt_begin(&e, "");
	vt_touch(e.t, "/f");
	memset(w, 0, sizeof(w));
	for (int i = 0; i < 4; i++) {
		w[i].t = task_fork(e.t, TASK_CLONE_FILES);
		ck_assert_ptr_nonnull(w[i].t);
		w[i].seed = 0x9e3779b9u * (i + 1);
	}
	vt_run_threads(4, fd_main, w, sizeof(w[0]));
	for (int i = 0; i < 4; i++) {
		no_other(&w[i].res, i);
		ck_assert_int_gt(w[i].res.ok, FD_ITERS);
		task_exit(w[i].t);
	}
	vt_check_fds(e.t);
	check_file_counts(e.t);
	VT_EQ(sys_close_range(e.t, 0, ~0U, 0), 0);
	vt_check_fds(e.t);
	ck_assert_int_eq(vt_inuse(e.v).files, 0);
	ck_assert_int_eq(vt_dcount(e.t, "/f"), 1);
	vt_end(&e);
}
END_TEST

/* ---- fstat on one shared fd, with its slot being swapped ---- */

struct fstatter {
	struct task *t;
	int role; /* 0: fstat fd 5, 1: swap fd 5 between f and g */
	unsigned long ino_f, ino_g;
	long ok, bad;
};

static void *fstat_main(void *p)
{
	struct fstatter *s = p;
	struct stat st;

	for (int i = 0; i < FD_ITERS; i++) {
		if (s->role) {
			/* dup2 replaces the slot in one store: never empty. */
			if (sys_dup2(s->t, i & 1 ? 3 : 4, 5) == 5)
				s->ok++;
			else
				s->bad++;
			continue;
		}
		if (!sys_fstat(s->t, 5, &st) && (st.st_ino == s->ino_f || st.st_ino == s->ino_g))
			s->ok++;
		else
			s->bad++;
	}
	return NULL;
}

static void fstat_shared_fd(const char *spec)
{
	struct fstatter s[4];
	struct vt e;
	struct file *f, *g;

	vt_begin(&e, spec);
	vt_touch(e.t, "/f");
	vt_touch(e.t, "/g");
	VT_EQ(sys_dup2(e.t, VT_OK(sys_open(e.t, "/f", O_RDONLY, 0)), 3), 3);
	VT_EQ(sys_dup2(e.t, VT_OK(sys_open(e.t, "/g", O_RDONLY, 0)), 4), 4);
	VT_EQ(sys_close_range(e.t, 0, 2, 0), 0);
	VT_EQ(sys_dup2(e.t, 3, 5), 5);
	f = vt_file(e.t, 3);
	g = vt_file(e.t, 4);
	memset(s, 0, sizeof(s));
	for (int i = 0; i < 4; i++) {
		s[i].t = task_fork(e.t, TASK_CLONE_FILES);
		s[i].role = i == 3;
		s[i].ino_f = vt_ino(e.t, "/f");
		s[i].ino_g = vt_ino(e.t, "/g");
	}
	vt_run_threads(4, fstat_main, s, sizeof(s[0]));
	for (int i = 0; i < 4; i++) {
		ck_assert_msg(s[i].bad == 0, "thread %d: %ld bad answers", i, s[i].bad);
		ck_assert_int_eq(s[i].ok, FD_ITERS);
		task_exit(s[i].t);
	}
	/* The last dup2 (i = FD_ITERS - 1, odd) put f back in slot 5. */
	ck_assert_ptr_eq(vt_file(e.t, 5), f);
	ck_assert_uint_eq(file_count(e.v, f), 2);
	ck_assert_uint_eq(file_count(e.v, g), 1);
	check_file_counts(e.t);
	vt_check_fds(e.t);
	vt_end(&e);
}

START_TEST(test_fstat_shared_fd_file_ref)
{
	fstat_shared_fd("fref=file_ref");
}
END_TEST

START_TEST(test_fstat_shared_fd_inc_not_zero)
{
	fstat_shared_fd("fref=inc-not-zero,file=v6.12");
}
END_TEST

/* ---- fd table expansion while other threads install ---- */

#define GROW_FDS 1100
#define SMALL_FDS 24

struct grower {
	struct task *t;
	int role; /* 0: grow to GROW_FDS fds, 1: churn a few */
	char path[16];
	unsigned long ino;
	int fds[GROW_FDS];
	int nfds;
	long wrong, failed;
};

static void *grow_main(void *p)
{
	struct grower *g = p;
	struct stat st;

	if (g->role == 0) {
		for (int i = 0; i < GROW_FDS; i++) {
			long fd = sys_open(g->t, g->path, O_RDONLY, 0);

			if (fd < 0) {
				g->failed++;
				continue;
			}
			g->fds[g->nfds++] = fd;
		}
		return NULL;
	}
	/* Open a handful, check each is ours, close them; again and again. */
	for (int round = 0; round < 60; round++) {
		int fds[SMALL_FDS];

		for (int i = 0; i < SMALL_FDS; i++) {
			fds[i] = sys_open(g->t, g->path, O_RDONLY, 0);
			if (fds[i] < 0)
				g->failed++;
		}
		for (int i = 0; i < SMALL_FDS; i++) {
			if (fds[i] < 0)
				continue;
			if (sys_fstat(g->t, fds[i], &st) || st.st_ino != g->ino)
				g->wrong++;
			if (sys_close(g->t, fds[i]))
				g->wrong++;
		}
	}
	return NULL;
}

START_TEST(test_expand_while_installing)
{
	static struct grower g[3];
	struct vt e;
	struct task *leader;
	uint64_t before[VFS_EV_NR], after[VFS_EV_NR];

	vt_begin(&e, "");
	for (int round = 0; round < 5; round++) {
		/* A new process: a fresh 64-slot table to grow. */
		leader = task_fork(e.t, 0);
		ck_assert_ptr_nonnull(leader);
		VT_EQ(task_set_nofile(leader, 4096, 4096), 0);
		memset(g, 0, sizeof(g));
		for (int i = 0; i < 3; i++) {
			snprintf(g[i].path, sizeof(g[i].path), "/g%d", i);
			vt_touch(e.t, g[i].path);
			g[i].ino = vt_ino(e.t, g[i].path);
			g[i].t = task_fork(leader, TASK_CLONE_FILES);
			ck_assert_ptr_nonnull(g[i].t);
			g[i].role = i != 0;
		}
		vfs_events_read(before);
		vt_run_threads(3, grow_main, g, sizeof(g[0]));
		vfs_events_read(after);
		ck_assert_uint_ge(after[VFS_EV_FD_EXPAND] - before[VFS_EV_FD_EXPAND], 5);
		for (int i = 0; i < 3; i++) {
			ck_assert_int_eq(g[i].failed, 0);
			ck_assert_int_eq(g[i].wrong, 0);
		}
		/* Every fd the grower got still holds its file, counted once. */
		ck_assert_int_eq(g[0].nfds, GROW_FDS);
		ck_assert_uint_ge(files_max_fds(leader), 2048);
		for (int i = 0; i < g[0].nfds; i++) {
			struct file *f = vt_file(leader, g[0].fds[i]);

			ck_assert_ptr_nonnull(f);
			ck_assert_uint_eq(file_count(e.v, f), 1);
			ck_assert_uint_eq(vt_fino(leader, g[0].fds[i]), g[0].ino);
		}
		vt_check_fds(leader);
		for (int i = 0; i < 3; i++)
			task_exit(g[i].t);
		task_exit(leader);
		ck_assert_int_eq(vt_inuse(e.v).files, 0);
		ck_assert_int_eq(vt_dcount(e.t, "/g0"), 1);
	}
	vt_end(&e);
}
END_TEST

static Suite *stress_suite(void)
{
	Suite *s = suite_create("stress");
	TCase *tc = tcase_create("stress");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_walk_vs_rename);
	tcase_add_test(tc, test_walk_vs_rename_dlock_lru);
	tcase_add_test(tc, test_walk_vs_rename_atomic_lru);
	tcase_add_test(tc, test_stable_names_under_churn);
	tcase_add_test(tc, test_stat_same_path);
	tcase_add_test(tc, test_shared_table_open_close_dup2);
	tcase_add_test(tc, test_fstat_shared_fd_file_ref);
	tcase_add_test(tc, test_fstat_shared_fd_inc_not_zero);
	tcase_add_test(tc, test_expand_while_installing);
	suite_add_tcase(s, tc);
	return s;
}

VT_MAIN(stress_suite)
