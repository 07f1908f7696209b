// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Parallel lookups of missing names: d_alloc_parallel() and the in-lookup
 * hash (vfs/dcache.c), under the directory's shared lock (vfs/namei.c's
 * lookup_slow()). This program has its own copies of both files with their
 * delay points on (lib/fault_inject.h), so one test can hold the first
 * lookup inside ->lookup until every other one is waiting for it.
 *
 * What must hold, however the lookups interleave: one ->lookup per name
 * (VFS_EV_DCACHE_MISS), every caller handed the same dentry, negative,
 * out of lookup; and once the callers drop it, every count back where it
 * was (vfs_check_tree() and vt_end()'s leak check).
 */
#include <sched.h>
#include <time.h>

#include "lib/fault_inject.h"
#include "tests/vfs_test.h"
#include "vfs/check.h"

#define NTHREADS 8

static unsigned int sleepers, want_sleepers;

/* A waiter queued on an in-lookup dentry. */
static void count_sleeper(void *arg)
{
	(void)arg;
	__atomic_add_fetch(&sleepers, 1, __ATOMIC_RELEASE);
}

/* The one lookup that owns the name: hold it until every other one waits. */
static void hold_owner(void *arg)
{
	time_t end = time(NULL) + 20;

	(void)arg;
	while (__atomic_load_n(&sleepers, __ATOMIC_ACQUIRE) < want_sleepers && time(NULL) < end)
		sched_yield();
}

struct looker {
	pthread_t th;
	struct vfs *v;
	struct dentry *dir;
	const char *name;
	unsigned int *go;
	struct dentry *got;
};

static struct qstr vt_qstr(struct vfs *v, struct dentry *dir, const char *name)
{
	struct qstr q;
	unsigned int len = strlen(name);

	q.name = (const unsigned char *)name;
	q.hash_len = hashlen_create(
		full_name_hash(name_hash_salt(v, dir, d_inode(v, dir)), name, len), len);
	return q;
}

static void *look_up(void *arg)
{
	struct looker *l = arg;
	struct qstr q = vt_qstr(l->v, l->dir, l->name);

	vfs_thread_enter();
	while (!__atomic_load_n(l->go, __ATOMIC_ACQUIRE))
		sched_yield();
	l->got = lookup_one_unlocked(l->v, &q, l->dir);
	vfs_thread_exit();
	return NULL;
}

/*
 * @n lookups of @name under @dir at once, the first to own it held in
 * ->lookup until the other n - 1 wait on its dentry.
 */
static void run_lookers(struct looker *l, unsigned int n, struct vfs *v, struct dentry *dir,
			const char *name)
{
	unsigned int go = 0;

	sleepers = 0;
	want_sleepers = n - 1;
	fault_inject_arm("d_wait_lookup:sleep", count_sleeper, NULL);
	fault_inject_arm("d_alloc_parallel:in-lookup", hold_owner, NULL);
	for (unsigned int i = 0; i < n; i++) {
		l[i] = (struct looker){ .v = v, .dir = dir, .name = name, .go = &go };
		ck_assert_int_eq(pthread_create(&l[i].th, NULL, look_up, &l[i]), 0);
	}
	__atomic_store_n(&go, 1, __ATOMIC_RELEASE);
	for (unsigned int i = 0; i < n; i++)
		ck_assert_int_eq(pthread_join(l[i].th, NULL), 0);
	fault_inject_disarm("d_alloc_parallel:in-lookup");
	fault_inject_disarm("d_wait_lookup:sleep");
}

static void check_tree(struct vfs *v)
{
	char err[512];

	ck_assert_msg(!vfs_check_tree(v, err, sizeof(err)), "%s", err);
}

/*
 * NTHREADS lookups of one missing name, the first held in ->lookup until
 * the other NTHREADS - 1 wait on its dentry: one ->lookup, NTHREADS - 1
 * waits, one dentry for all.
 */
START_TEST(test_waiters_share_one_lookup)
{
	struct looker l[NTHREADS];
	uint64_t before[VFS_EV_NR], after[VFS_EV_NR];
	struct dentry *dir;
	long waits;
	int base;
	struct vt e;

	vt_begin(&e, "");
	VT_EQ(sys_mkdir(e.t, "/d", 0755), 0);
	dir = vt_dentry(e.t, "/d");
	base = vt_dcount(e.t, "/d");
	waits = atomic_long_read(&e.v->lookup_waits);
	vfs_events_read(before);
	run_lookers(l, NTHREADS, e.v, dir, "missing");
	vfs_events_read(after);

	ck_assert_uint_eq(after[VFS_EV_DCACHE_MISS] - before[VFS_EV_DCACHE_MISS], 1);
	ck_assert_uint_eq(sleepers, NTHREADS - 1);
	ck_assert_int_eq(atomic_long_read(&e.v->lookup_waits) - waits, NTHREADS - 1);
	for (int i = 0; i < NTHREADS; i++) {
		ck_assert(!IS_ERR_OR_NULL(l[i].got));
		ck_assert_ptr_eq(l[i].got, l[0].got);
	}
	ck_assert(d_is_negative(e.v, l[0].got));
	ck_assert(!d_in_lookup(e.v, l[0].got));
	ck_assert(!d_unhashed(e.v, l[0].got));
	ck_assert_int_eq(d_count(e.v, l[0].got), NTHREADS);
	for (int i = 0; i < NTHREADS; i++)
		dput(e.v, l[i].got);
	/* tmpfs keeps no negative dentry: the last dput killed it, and its ref on /d. */
	ck_assert_int_eq(vt_dcount(e.t, "/d"), base);
	VT_EQ(sys_stat(e.t, "/d/missing", &(struct stat){ 0 }), -ENOENT);
	check_tree(e.v);
	vt_end(&e);
}
END_TEST

/* A name too long for ->lookup: every waiter gets the error, none a dentry. */
START_TEST(test_failed_lookup_wakes_waiters)
{
	char name[NAME_MAX_LEN + 2];
	struct looker l[4];
	struct dentry *dir;
	int base;
	struct vt e;

	memset(name, 'n', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	vt_begin(&e, "");
	VT_EQ(sys_mkdir(e.t, "/d", 0755), 0);
	dir = vt_dentry(e.t, "/d");
	base = vt_dcount(e.t, "/d");
	run_lookers(l, 4, e.v, dir, name);
	/*
	 * The failed dentry was never hashed: each waiter looked again and
	 * ran ->lookup itself, which failed the same way.
	 */
	ck_assert_uint_ge(sleepers, 3);
	for (int i = 0; i < 4; i++)
		ck_assert_int_eq(PTR_ERR(l[i].got), -ENAMETOOLONG);
	ck_assert_int_eq(vt_dcount(e.t, "/d"), base);
	check_tree(e.v);
	vt_end(&e);
}
END_TEST

struct statter {
	pthread_t th;
	struct task *t;
	unsigned int *go;
	unsigned int rounds, wrong;
};

#define NNAMES 16

/* Every thread stats the same NNAMES missing names, round after round. */
static void *stat_missing(void *arg)
{
	struct statter *s = arg;
	char path[32];
	struct stat st;

	vfs_thread_enter();
	while (!__atomic_load_n(s->go, __ATOMIC_ACQUIRE))
		sched_yield();
	for (unsigned int r = 0; r < s->rounds; r++) {
		for (unsigned int n = 0; n < NNAMES; n++) {
			snprintf(path, sizeof(path), "/d/m%u", n);
			if (sys_stat(s->t, path, &st) != -ENOENT)
				s->wrong++;
		}
	}
	vfs_thread_exit();
	return NULL;
}

static uint64_t stat_storm(struct vt *e, unsigned int rounds)
{
	struct statter s[NTHREADS];
	uint64_t before[VFS_EV_NR], after[VFS_EV_NR];
	unsigned int go = 0;

	vfs_events_read(before);
	for (int i = 0; i < NTHREADS; i++) {
		s[i] = (struct statter){ .t = task_fork(e->t, TASK_CLONE_FILES),
					 .go = &go,
					 .rounds = rounds };
		ck_assert_ptr_nonnull(s[i].t);
		ck_assert_int_eq(pthread_create(&s[i].th, NULL, stat_missing, &s[i]), 0);
	}
	__atomic_store_n(&go, 1, __ATOMIC_RELEASE);
	for (int i = 0; i < NTHREADS; i++) {
		ck_assert_int_eq(pthread_join(s[i].th, NULL), 0);
		ck_assert_uint_eq(s[i].wrong, 0);
		task_exit(s[i].t);
	}
	vfs_events_read(after);
	return after[VFS_EV_DCACHE_MISS] - before[VFS_EV_DCACHE_MISS];
}

/*
 * With negative dentries kept (a disk filesystem's dcache), each name is
 * looked up once however many threads miss it at once, and one unused
 * negative dentry per name stays; tmpfs drops them, so lookups repeat,
 * and no reference is left.
 */
static const struct {
	const char *variant;
	bool kept;
} storms[] = {
	{ "dcache-max-unused=1000", true },
	{ "", false },
};

START_TEST(test_storm)
{
	struct vt e;
	uint64_t lookups;
	int base;

	vt_begin(&e, storms[_i].variant);
	VT_EQ(sys_mkdir(e.t, "/d", 0755), 0);
	base = vt_dcount(e.t, "/d");
	lookups = stat_storm(&e, 50);
	if (storms[_i].kept) {
		ck_assert_uint_eq(lookups, NNAMES);
		ck_assert_int_eq(vt_dcount(e.t, "/d"), base + NNAMES);
	} else {
		ck_assert_uint_ge(lookups, NNAMES);
		ck_assert_int_eq(vt_dcount(e.t, "/d"), base);
	}
	check_tree(e.v);
	vt_end(&e);
}
END_TEST

static Suite *dcache_parallel_suite(void)
{
	Suite *s = suite_create("dcache_parallel");
	TCase *tc = tcase_create("d_alloc_parallel");

	tcase_add_test(tc, test_waiters_share_one_lookup);
	tcase_add_test(tc, test_failed_lookup_wakes_waiters);
	tcase_add_loop_test(tc, test_storm, 0, ARRAY_SIZE(storms));
	suite_add_tcase(s, tc);
	return s;
}

VT_MAIN(dcache_parallel_suite)
