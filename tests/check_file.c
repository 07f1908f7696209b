// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Tests for vfs/file.c and vfs/fcntl.c: the fd table. alloc_fd's lowest
 * free fd and next_fd hint across bitmap word boundaries, expansion and its
 * limits (RLIMIT_NOFILE, nr_open), dup/dup2/dup3/F_DUPFD, close_range,
 * FD_CLOEXEC, fork and CLONE_FILES, and both alloc_fd and both file
 * refcount variants; filp_flush() on every path that closes an fd.
 * files_check_invariants() runs after every change.
 */
#include "tests/vfs_test.h"

#define MAXFD 2048

/* What the table should hold: a bitmap kept beside it. */
struct model {
	bool open[MAXFD];
};

static int model_lowest(const struct model *m, int from)
{
	for (int i = from; i < MAXFD; i++)
		if (!m->open[i])
			return i;
	return -1;
}

/* Every fd below next_fd is open: next_fd never passes the lowest free. */
static void check_table(struct task *t, const struct model *m)
{
	vt_check_fds(t);
	if (m) {
		ck_assert_int_le(vt_next_fd(t), model_lowest(m, 0));
		for (int i = 0; i < (int)files_max_fds(t) && i < MAXFD; i++)
			ck_assert_msg((vt_file(t, i) != NULL) == m->open[i],
				      "fd %d: table %d model %d", i, vt_file(t, i) != NULL,
				      m->open[i]);
	}
}

static int open_f(struct task *t, struct model *m)
{
	long fd = sys_open(t, "/f", O_RDONLY, 0);

	if (fd >= 0 && m) {
		ck_assert_int_eq(fd, model_lowest(m, 0));
		m->open[fd] = true;
	}
	return fd;
}

static void close_f(struct task *t, struct model *m, int fd)
{
	VT_EQ(sys_close(t, fd), 0);
	if (m)
		m->open[fd] = false;
}

START_TEST(test_lowest_free)
{
	static struct model m;
	struct vt e;

	vt_begin(&e, "");
	vt_touch(e.t, "/f");
	for (int i = 0; i < 10; i++) {
		VT_EQ(open_f(e.t, &m), i);
		check_table(e.t, &m);
	}
	/* Holes are refilled lowest first. */
	close_f(e.t, &m, 7);
	close_f(e.t, &m, 3);
	close_f(e.t, &m, 5);
	check_table(e.t, &m);
	ck_assert_uint_eq(vt_next_fd(e.t), 3);
	VT_EQ(open_f(e.t, &m), 3);
	VT_EQ(open_f(e.t, &m), 5);
	check_table(e.t, &m);
	VT_EQ(open_f(e.t, &m), 7);
	VT_EQ(open_f(e.t, &m), 10);
	check_table(e.t, &m);
	/* Closing fd 0 brings next_fd all the way down. */
	close_f(e.t, &m, 0);
	ck_assert_uint_eq(vt_next_fd(e.t), 0);
	VT_EQ(open_f(e.t, &m), 0);
	check_table(e.t, &m);
	VT_EQ(sys_close(e.t, 0), 0);
	VT_EQ(sys_close(e.t, 0), -EBADF);
	VT_EQ(sys_close(e.t, -1), -EBADF);
	VT_EQ(sys_close(e.t, 5000), -EBADF);
	m.open[0] = false;
	check_table(e.t, &m);
	vt_end(&e);
}
END_TEST

START_TEST(test_word_boundaries)
{
	static struct model m;
	static const int edges[] = { 63, 64, 127, 128, 0, 65, 126 };
	struct vt e;

	vt_begin(&e, "");
	vt_touch(e.t, "/f");
	for (int i = 0; i < 130; i++) {
		VT_EQ(open_f(e.t, &m), i);
		check_table(e.t, &m);
	}
	/* One hole at a time at each edge, refilled exactly there. */
	for (size_t i = 0; i < ARRAY_SIZE(edges); i++) {
		close_f(e.t, &m, edges[i]);
		check_table(e.t, &m);
		VT_EQ(open_f(e.t, &m), edges[i]);
		check_table(e.t, &m);
	}
	/* Several holes straddling the words: filled in increasing order. */
	for (int i = ARRAY_SIZE(edges) - 1; i >= 0; i--) {
		close_f(e.t, &m, edges[i]);
		check_table(e.t, &m);
	}
	for (int k = 0; k < (int)ARRAY_SIZE(edges); k++) {
		VT_OK(open_f(e.t, &m)); /* asserts the lowest */
		check_table(e.t, &m);
	}
	ck_assert_int_eq(model_lowest(&m, 0), 130);
	/* Empty a whole word, then fill it back. */
	for (int i = 64; i < 128; i++)
		close_f(e.t, &m, i);
	check_table(e.t, &m);
	for (int i = 64; i < 128; i++)
		VT_EQ(open_f(e.t, &m), i);
	check_table(e.t, &m);
	VT_EQ(sys_close_range(e.t, 0, ~0U, 0), 0);
	memset(&m, 0, sizeof(m));
	check_table(e.t, &m);
	vt_end(&e);
}
END_TEST

START_TEST(test_expand)
{
	static struct model m;
	struct vt e;
	struct vt_ev a, b;
	int fd;

	vt_begin(&e, "");
	vt_touch(e.t, "/f");
	ck_assert_uint_eq(files_max_fds(e.t), 64);
	a = vt_events();
	for (int i = 0; i < 64; i++)
		VT_EQ(open_f(e.t, &m), i);
	b = vt_events();
	ck_assert_uint_eq(vt_delta(&a, &b, VFS_EV_FD_EXPAND), 0);
	/* fd 64 needs a real table: 128 slots, then doubling. */
	VT_EQ(open_f(e.t, &m), 64);
	b = vt_events();
	ck_assert_uint_eq(vt_delta(&a, &b, VFS_EV_FD_EXPAND), 1);
	ck_assert_uint_eq(files_max_fds(e.t), 128);
	check_table(e.t, &m);
	for (int i = 65; i < 1024; i++)
		VT_EQ(open_f(e.t, &m), i);
	b = vt_events();
	ck_assert_uint_eq(vt_delta(&a, &b, VFS_EV_FD_EXPAND), 4);
	ck_assert_uint_eq(files_max_fds(e.t), 1024);
	check_table(e.t, &m);
	/* The soft limit is 1024. */
	VT_EQ(open_f(e.t, NULL), -EMFILE);
	VT_EQ(sys_open(e.t, "/missing", O_RDONLY, 0), -EMFILE);
	/* Raise it: the table grows past 1024, and old fds survive the copy. */
	VT_EQ(task_set_nofile(e.t, 4096, 4096), 0);
	VT_EQ(open_f(e.t, &m), 1024);
	b = vt_events();
	ck_assert_uint_eq(vt_delta(&a, &b, VFS_EV_FD_EXPAND), 5);
	ck_assert_uint_eq(files_max_fds(e.t), 2048);
	check_table(e.t, &m);
	fd = VT_OK(sys_dup2(e.t, 5, 2047));
	ck_assert_int_eq(fd, 2047);
	ck_assert_ptr_eq(file_path(e.v, vt_file(e.t, 2047))->dentry, vt_dentry(e.t, "/f"));
	vt_end(&e);
}
END_TEST

START_TEST(test_rlimit)
{
	static struct model m;
	struct vt e;
	long fd;

	vt_begin(&e, "");
	vt_touch(e.t, "/f");
	VT_EQ(task_set_nofile(e.t, 10, 10), 0);
	for (int i = 0; i < 10; i++)
		VT_EQ(open_f(e.t, &m), i);
	/* EMFILE comes before the walk: even a missing path reports it. */
	VT_EQ(open_f(e.t, NULL), -EMFILE);
	VT_EQ(sys_open(e.t, "/missing", O_RDONLY, 0), -EMFILE);
	VT_EQ(sys_dup(e.t, 0), -EMFILE);
	VT_EQ(sys_fcntl(e.t, 0, F_DUPFD, 0), -EMFILE);
	VT_EQ(sys_fcntl(e.t, 0, F_DUPFD, 9), -EMFILE);
	VT_EQ(sys_fcntl(e.t, 0, F_DUPFD, 10), -EINVAL);
	VT_EQ(sys_dup2(e.t, 0, 9), 9);
	VT_EQ(sys_dup2(e.t, 0, 10), -EBADF);
	check_table(e.t, &m);
	close_f(e.t, &m, 4);
	VT_EQ(open_f(e.t, &m), 4);
	/* Lowering the limit below open fds leaves them alone. */
	VT_EQ(task_set_nofile(e.t, 3, 3), 0);
	ck_assert_uint_eq(vt_fino(e.t, 9), vt_ino(e.t, "/f"));
	close_f(e.t, &m, 5);
	VT_EQ(open_f(e.t, NULL), -EMFILE);
	close_f(e.t, &m, 1);
	fd = VT_OK(open_f(e.t, &m));
	ck_assert_int_eq(fd, 1);
	VT_EQ(task_set_nofile(e.t, 20, 10), -EINVAL);
	check_table(e.t, &m);
	vt_end(&e);
}
END_TEST

START_TEST(test_nr_open)
{
	static struct model m;
	struct vt e;

	vt_begin(&e, "nr-open=256");
	vt_touch(e.t, "/f");
	/* RLIMIT_NOFILE is 1024, but the table stops at nr_open. */
	for (int i = 0; i < 256; i++)
		VT_EQ(open_f(e.t, &m), i);
	ck_assert_uint_eq(files_max_fds(e.t), 256);
	VT_EQ(open_f(e.t, NULL), -EMFILE);
	VT_EQ(sys_dup(e.t, 0), -EMFILE);
	VT_EQ(sys_fcntl(e.t, 0, F_DUPFD, 300), -EMFILE);
	VT_EQ(sys_dup2(e.t, 0, 300), -EBADF);
	VT_EQ(sys_dup3(e.t, 0, 256, O_CLOEXEC), -EBADF);
	VT_EQ(sys_dup2(e.t, 0, 255), 255);
	ck_assert_uint_eq(files_max_fds(e.t), 256);
	check_table(e.t, &m);
	vt_end(&e);
}
END_TEST

START_TEST(test_dup_family)
{
	struct vt e;
	struct vt_inuse before, after;
	long f, g;

	vt_begin(&e, "");
	vt_touch(e.t, "/f");
	vt_touch(e.t, "/g");
	f = VT_OK(sys_open(e.t, "/f", O_RDONLY, 0));
	g = VT_OK(sys_open(e.t, "/g", O_RDONLY, 0));
	/* dup: the lowest free fd, the same file, one more reference. */
	VT_EQ(sys_dup(e.t, f), 2);
	ck_assert_ptr_eq(vt_file(e.t, 2), vt_file(e.t, f));
	ck_assert_uint_eq(vt_fcount(e.t, f), 2);
	VT_EQ(sys_dup(e.t, 77), -EBADF);
	VT_EQ(sys_dup(e.t, -1), -EBADF);
	/* dup2 onto itself is a validity check; dup3 refuses it. */
	VT_EQ(sys_dup2(e.t, f, f), f);
	VT_EQ(sys_dup2(e.t, 50, 50), -EBADF);
	VT_EQ(sys_dup2(e.t, -1, -1), -EBADF);
	VT_EQ(sys_dup3(e.t, f, f, 0), -EINVAL);
	VT_EQ(sys_dup3(e.t, f, 10, O_NONBLOCK), -EINVAL);
	VT_EQ(sys_dup3(e.t, 50, 11, 0), -EBADF);
	VT_EQ(sys_dup3(e.t, -1, 11, 0), -EBADF);
	VT_EQ(sys_dup2(e.t, f, -1), -EBADF);
	VT_EQ(sys_dup2(e.t, f, 1024), -EBADF);
	VT_EQ(sys_dup2(e.t, f, 1023), 1023);
	vt_check_fds(e.t);
	/* dup3 sets FD_CLOEXEC on request; dup2 never. */
	VT_EQ(sys_dup3(e.t, f, 10, O_CLOEXEC), 10);
	VT_EQ(sys_fcntl(e.t, 10, F_GETFD, 0), FD_CLOEXEC);
	VT_EQ(sys_dup2(e.t, g, 10), 10);
	VT_EQ(sys_fcntl(e.t, 10, F_GETFD, 0), 0);
	ck_assert_uint_eq(vt_fino(e.t, 10), vt_ino(e.t, "/g"));
	/* dup2 onto an open fd closes what was there: the last ref frees it. */
	VT_EQ(sys_close(e.t, 10), 0);
	VT_EQ(sys_close(e.t, g), 0);
	g = VT_OK(sys_open(e.t, "/g", O_RDONLY, 0));
	before = vt_inuse(e.v);
	VT_EQ(sys_dup2(e.t, f, g), g);
	after = vt_inuse(e.v);
	ck_assert_int_eq(after.files, before.files - 1);
	ck_assert_ptr_eq(vt_file(e.t, g), vt_file(e.t, f));
	ck_assert_uint_eq(vt_fino(e.t, g), vt_ino(e.t, "/f"));
	ck_assert_uint_eq(vt_fcount(e.t, f), 4); /* f, 2, 1023, g */
	vt_check_fds(e.t);
	VT_EQ(sys_close_range(e.t, 0, ~0U, 0), 0);
	after = vt_inuse(e.v);
	ck_assert_int_eq(after.files, 0);
	vt_end(&e);
}
END_TEST

START_TEST(test_f_dupfd)
{
	struct vt e;
	long f;

	vt_begin(&e, "");
	vt_touch(e.t, "/f");
	f = VT_OK(sys_open(e.t, "/f", O_RDONLY, 0));
	/* The lowest free fd at or above the start. */
	VT_EQ(sys_fcntl(e.t, f, F_DUPFD, 10), 10);
	VT_EQ(sys_fcntl(e.t, f, F_DUPFD, 10), 11);
	VT_EQ(sys_fcntl(e.t, f, F_DUPFD, 5), 5);
	VT_EQ(sys_fcntl(e.t, f, F_DUPFD_CLOEXEC, 5), 6);
	VT_EQ(sys_fcntl(e.t, 6, F_GETFD, 0), FD_CLOEXEC);
	VT_EQ(sys_fcntl(e.t, 5, F_GETFD, 0), 0);
	/* A start above next_fd leaves the hint alone. */
	ck_assert_uint_eq(vt_next_fd(e.t), 1);
	VT_EQ(sys_fcntl(e.t, f, F_DUPFD, 0), 1);
	vt_check_fds(e.t);
	/* At or over the limit: EINVAL; the last slot, then EMFILE. */
	VT_EQ(sys_fcntl(e.t, f, F_DUPFD, 1024), -EINVAL);
	VT_EQ(sys_fcntl(e.t, f, F_DUPFD, (unsigned long)-1), -EINVAL);
	VT_EQ(sys_fcntl(e.t, f, F_DUPFD, 1023), 1023);
	VT_EQ(sys_fcntl(e.t, f, F_DUPFD, 1023), -EMFILE);
	VT_EQ(sys_fcntl(e.t, 99, F_DUPFD, 0), -EBADF);
	VT_EQ(sys_fcntl(e.t, f, 12345, 0), -EINVAL);
	ck_assert_uint_eq(vt_fcount(e.t, f), 7);
	vt_check_fds(e.t);
	vt_end(&e);
}
END_TEST

/*
 * F_GETFL shows the open flags minus the open-time ones; Linux strips
 * O_CLOEXEC in build_open_flags() and forces O_LARGEFILE (not for O_PATH).
 * The octal values are Linux 6.18's on x86-64.
 */
#define GETFL_IS(t, fd, want)                                                                   \
	do {                                                                                    \
		long _fl = sys_fcntl(t, fd, F_GETFL, 0);                                        \
		ck_assert_msg(_fl == (want), "F_GETFL of fd %ld: 0%lo, Linux 0%lo", (long)(fd), \
			      _fl, (long)(want));                                               \
	} while (0)

START_TEST(test_getfl)
{
	struct vt e;
	long fd;

	vt_begin(&e, "");
	fd = VT_OK(sys_open(e.t, "/f",
			    O_CREAT | O_RDWR | O_TRUNC | O_CLOEXEC | O_EXCL | O_NOCTTY | O_SYNC,
			    0644));
	GETFL_IS(e.t, fd, 04110002);
	VT_EQ(sys_fcntl(e.t, fd, F_SETFL, O_APPEND | O_NONBLOCK | O_WRONLY | O_TRUNC), 0);
	GETFL_IS(e.t, fd, 04116002);
	fd = VT_OK(sys_open(e.t, "/f", O_PATH | O_RDWR | O_CLOEXEC | O_NOFOLLOW, 0));
	GETFL_IS(e.t, fd, 010400000);
	VT_EQ(sys_fcntl(e.t, fd, F_SETFL, 0), -EBADF);
	fd = VT_OK(sys_open(e.t, "/", O_RDONLY | O_DIRECTORY, 0));
	GETFL_IS(e.t, fd, 0300000);
	fd = VT_OK(sys_open(e.t, "/f", O_RDONLY | O_NOATIME | O_DIRECT, 0));
	GETFL_IS(e.t, fd, 01140000);
	vt_end(&e);
}
END_TEST

START_TEST(test_close_range)
{
	struct vt e;
	struct task *th;
	long f;

	vt_begin(&e, "");
	vt_touch(e.t, "/f");
	f = VT_OK(sys_open(e.t, "/f", O_RDONLY, 0));
	for (int i = 1; i <= 20; i++)
		VT_EQ(sys_dup(e.t, f), i);
	VT_EQ(sys_close_range(e.t, 5, 3, 0), -EINVAL);
	VT_EQ(sys_close_range(e.t, 3, 5, 8), -EINVAL);
	VT_EQ(sys_close_range(e.t, 5, 10, 0), 0);
	for (int i = 0; i <= 20; i++)
		ck_assert_msg((vt_file(e.t, i) != NULL) == (i < 5 || i > 10), "fd %d", i);
	ck_assert_uint_eq(vt_fcount(e.t, f), 15);
	vt_check_fds(e.t);
	/* CLOEXEC marks, closes nothing; a later fd in the range starts clean. */
	VT_EQ(sys_close_range(e.t, 3, 4, CLOSE_RANGE_CLOEXEC), 0);
	VT_EQ(sys_fcntl(e.t, 3, F_GETFD, 0), FD_CLOEXEC);
	VT_EQ(sys_fcntl(e.t, 4, F_GETFD, 0), FD_CLOEXEC);
	VT_EQ(sys_fcntl(e.t, 2, F_GETFD, 0), 0);
	VT_EQ(sys_fcntl(e.t, 11, F_GETFD, 0), 0);
	VT_EQ(sys_close_range(e.t, 5, 8, CLOSE_RANGE_CLOEXEC), 0);
	VT_EQ(sys_dup(e.t, f), 5);
	VT_EQ(sys_fcntl(e.t, 5, F_GETFD, 0), 0);
	VT_EQ(sys_close_range(e.t, 100, ~0U, CLOSE_RANGE_CLOEXEC), 0);
	vt_check_fds(e.t);
	/* UNSHARE: a thread's close_range leaves the shared table alone. */
	th = task_fork(e.t, TASK_CLONE_FILES);
	ck_assert_ptr_nonnull(th);
	ck_assert_ptr_eq(th->files, e.t->files);
	VT_EQ(sys_close_range(th, 12, ~0U, CLOSE_RANGE_UNSHARE), 0);
	ck_assert_ptr_ne(th->files, e.t->files);
	ck_assert_ptr_null(vt_file(th, 12));
	ck_assert_ptr_null(vt_file(th, 20));
	ck_assert_ptr_nonnull(vt_file(th, 11));
	ck_assert_ptr_nonnull(vt_file(e.t, 12));
	ck_assert_ptr_nonnull(vt_file(e.t, 20));
	VT_EQ(sys_fcntl(th, 3, F_GETFD, 0), FD_CLOEXEC);
	vt_check_fds(th);
	vt_check_fds(e.t);
	task_exit(th);
	/* Unshared and alone: nothing to copy. */
	VT_EQ(sys_close_range(e.t, 1, ~0U, CLOSE_RANGE_UNSHARE), 0);
	ck_assert_uint_eq(vt_fcount(e.t, f), 1);
	vt_end(&e);
}
END_TEST

START_TEST(test_cloexec_per_fd)
{
	struct vt e;
	long a, b;

	vt_begin(&e, "");
	vt_touch(e.t, "/f");
	a = VT_OK(sys_open(e.t, "/f", O_RDONLY | O_CLOEXEC, 0));
	VT_EQ(sys_fcntl(e.t, a, F_GETFD, 0), FD_CLOEXEC);
	/* The flag belongs to the fd, not the file: dup does not copy it. */
	b = VT_OK(sys_dup(e.t, a));
	VT_EQ(sys_fcntl(e.t, b, F_GETFD, 0), 0);
	VT_EQ(sys_fcntl(e.t, b, F_SETFD, FD_CLOEXEC | 0x10), 0);
	VT_EQ(sys_fcntl(e.t, b, F_GETFD, 0), FD_CLOEXEC);
	VT_EQ(sys_fcntl(e.t, a, F_SETFD, 0), 0);
	VT_EQ(sys_fcntl(e.t, a, F_GETFD, 0), 0);
	VT_EQ(sys_fcntl(e.t, b, F_GETFD, 0), FD_CLOEXEC);
	/* A closed fd's flag does not leak into the next open there. */
	VT_EQ(sys_close(e.t, b), 0);
	b = VT_OK(sys_open(e.t, "/f", O_RDONLY, 0));
	VT_EQ(sys_fcntl(e.t, b, F_GETFD, 0), 0);
	VT_EQ(sys_fcntl(e.t, 30, F_GETFD, 0), -EBADF);
	VT_EQ(sys_fcntl(e.t, 30, F_SETFD, 1), -EBADF);
	vt_check_fds(e.t);
	vt_end(&e);
}
END_TEST

/* A seeded mix of opens, closes, dups and dup2s; the fds it got. */
static void random_fds(const char *spec, uint32_t seed, int *out, int n, uint64_t *fast)
{
	static struct model m;
	struct vt e;
	struct vt_ev a, b;

	memset(&m, 0, sizeof(m));
	vt_begin(&e, spec);
	vt_touch(e.t, "/f");
	VT_EQ(task_set_nofile(e.t, 300, 300), 0);
	a = vt_events();
	for (int i = 0; i < n; i++) {
		uint32_t r = vt_rand(&seed);
		int fd = r % 300, op = (r >> 16) % 8;

		if (op < 4) {
			out[i] = open_f(e.t, &m);
		} else if (op < 6) {
			out[i] = m.open[fd] ? 1000 + fd : -1;
			if (m.open[fd])
				close_f(e.t, &m, fd);
		} else if (op == 6) {
			int src = m.open[0] ? 0 : -1;

			out[i] = src < 0 ? -1 : sys_fcntl(e.t, src, F_DUPFD, fd);
			if (out[i] >= 0)
				m.open[out[i]] = true;
		} else {
			out[i] = m.open[0] ? sys_dup2(e.t, 0, fd) : -1;
			if (out[i] >= 0)
				m.open[out[i]] = true;
		}
		if (i % 64 == 0)
			check_table(e.t, &m);
	}
	b = vt_events();
	*fast = vt_delta(&a, &b, VFS_EV_ALLOC_FD_FAST);
	check_table(e.t, &m);
	vt_end(&e);
}

START_TEST(test_alloc_fd_variants_identical)
{
	enum { N = 3000 };
	static int a[N], b[N];
	uint64_t fast13, fast10;
	int opens = 0;

	random_fds("alloc-fd=v6.13", 12345, a, N, &fast13);
	random_fds("alloc-fd=v6.10", 12345, b, N, &fast10);
	for (int i = 0; i < N; i++) {
		ck_assert_msg(a[i] == b[i], "step %d: v6.13 %d, v6.10 %d", i, a[i], b[i]);
		opens += a[i] >= 0 && a[i] < 1000;
	}
	ck_assert_int_gt(opens, N / 3);
	/* Only v6.13 answers from next_fd's word. */
	ck_assert_uint_gt(fast13, 0);
	ck_assert_uint_eq(fast10, 0);
}
END_TEST

START_TEST(test_fork_copies_table)
{
	struct vt e;
	struct task *child;
	struct vt_inuse before, after;
	long f, g;

	vt_begin(&e, "");
	vt_touch(e.t, "/f");
	vt_touch(e.t, "/g");
	f = VT_OK(sys_open(e.t, "/f", O_RDONLY | O_CLOEXEC, 0));
	for (int i = 1; i < 200; i++)
		VT_EQ(sys_dup(e.t, f), i);
	VT_EQ(sys_close(e.t, 100), 0);
	ck_assert_uint_eq(vt_fcount(e.t, f), 199);
	child = task_fork(e.t, 0);
	ck_assert_ptr_nonnull(child);
	/* The same files in a separate table, each with one more reference. */
	ck_assert_ptr_ne(child->files, e.t->files);
	ck_assert_uint_eq(vt_fcount(e.t, f), 398);
	ck_assert_uint_ge(files_max_fds(child), 200);
	for (int i = 0; i < 200; i++)
		ck_assert_ptr_eq(vt_file(child, i), vt_file(e.t, i));
	VT_EQ(sys_fcntl(child, f, F_GETFD, 0), FD_CLOEXEC);
	VT_EQ(sys_fcntl(child, 1, F_GETFD, 0), 0);
	vt_check_fds(child);
	/* Closing in the child closes nothing in the parent. */
	VT_EQ(sys_close(child, 5), 0);
	VT_EQ(sys_close(child, f), 0);
	ck_assert_ptr_nonnull(vt_file(e.t, 5));
	ck_assert_uint_eq(vt_fino(e.t, f), vt_ino(e.t, "/f"));
	/* Each table allocates from its own holes. */
	g = VT_OK(sys_open(child, "/g", O_RDONLY, 0));
	ck_assert_int_eq(g, 0);
	VT_EQ(sys_open(child, "/g", O_RDONLY, 0), 5);
	VT_EQ(sys_open(child, "/g", O_RDONLY, 0), 100);
	VT_EQ(sys_dup(e.t, f), 100);
	ck_assert_uint_eq(vt_fino(e.t, 100), vt_ino(e.t, "/f"));
	ck_assert_uint_eq(vt_fino(child, 100), vt_ino(e.t, "/g"));
	vt_check_fds(child);
	vt_check_fds(e.t);
	before = vt_inuse(e.v);
	task_exit(child);
	after = vt_inuse(e.v);
	ck_assert_int_eq(after.files, before.files - 3); /* its three of /g */
	ck_assert_int_eq(after.files_structs, before.files_structs - 1);
	ck_assert_uint_eq(vt_fcount(e.t, f), 200);
	vt_end(&e);
}
END_TEST

START_TEST(test_threads_share_table)
{
	struct vt e;
	struct task *th;
	long f, g;

	vt_begin(&e, "");
	vt_touch(e.t, "/f");
	f = VT_OK(sys_open(e.t, "/f", O_RDONLY, 0));
	th = task_fork(e.t, TASK_CLONE_FILES);
	ck_assert_ptr_nonnull(th);
	/* One table: no extra file references, changes seen both ways. */
	ck_assert_ptr_eq(th->files, e.t->files);
	ck_assert_int_eq(atomic_read(files_count(e.v, e.t->files)), 2);
	ck_assert_uint_eq(vt_fcount(e.t, f), 1);
	g = VT_OK(sys_open(th, "/f", O_RDONLY, 0));
	ck_assert_int_eq(g, 1);
	ck_assert_uint_eq(vt_fino(e.t, g), vt_ino(e.t, "/f"));
	VT_EQ(sys_close(e.t, g), 0);
	VT_EQ(sys_fstat(th, g, &(struct stat){ 0 }), -EBADF);
	VT_EQ(sys_dup2(th, f, 7), 7);
	VT_EQ(sys_fcntl(e.t, 7, F_GETFD, 0), 0);
	ck_assert_uint_eq(vt_fcount(e.t, f), 2);
	/* Shared, fget takes a real reference (no light fdget). */
	{
		struct fd fd = fdget(th, f);

		ck_assert(fd.word & FDPUT_FPUT);
		ck_assert_uint_eq(vt_fcount(e.t, f), 3);
		fdput(th, fd);
	}
	task_exit(th);
	ck_assert_int_eq(atomic_read(files_count(e.v, e.t->files)), 1);
	ck_assert_ptr_nonnull(vt_file(e.t, 7));
	/* Alone again: the light fdget borrows. */
	{
		struct fd fd = fdget(e.t, f);

		ck_assert(!(fd.word & FDPUT_FPUT));
		ck_assert_uint_eq(vt_fcount(e.t, f), 2);
		fdput(e.t, fd);
	}
	vt_check_fds(e.t);
	vt_end(&e);
}
END_TEST

static void fref_exact(const char *spec)
{
	struct vt e;
	struct task *child;
	struct file *file;
	long f;

	vt_begin(&e, spec);
	vt_touch(e.t, "/f");
	f = VT_OK(sys_open(e.t, "/f", O_RDWR, 0));
	file = vt_file(e.t, f);
	ck_assert_uint_eq(file_count(e.v, file), 1);
	for (int i = 0; i < 5; i++)
		VT_OK(sys_dup(e.t, f));
	ck_assert_uint_eq(file_count(e.v, file), 6);
	child = task_fork(e.t, 0);
	ck_assert_ptr_nonnull(child);
	ck_assert_uint_eq(file_count(e.v, file), 12);
	ck_assert_ptr_eq(fget(child, 3), file);
	ck_assert_uint_eq(file_count(e.v, file), 13);
	fput(e.v, file);
	VT_EQ(sys_close_range(child, 1, ~0U, 0), 0);
	ck_assert_uint_eq(file_count(e.v, file), 7);
	task_exit(child);
	ck_assert_uint_eq(file_count(e.v, file), 6);
	VT_EQ(sys_close_range(e.t, 1, ~0U, 0), 0);
	ck_assert_uint_eq(file_count(e.v, file), 1);
	/* f_pos needs no lock for a file nobody else holds. */
	ck_assert(!file_needs_f_pos_lock(e.v, file));
	VT_EQ(sys_dup(e.t, f), 1);
	ck_assert(file_needs_f_pos_lock(e.v, file));
	VT_EQ(sys_close(e.t, 1), 0);
	ck_assert(!file_needs_f_pos_lock(e.v, file));
	VT_EQ(sys_close(e.t, f), 0);
	ck_assert_int_eq(vt_inuse(e.v).files, 0);
	vt_end(&e);
}

START_TEST(test_fref_file_ref)
{
	fref_exact("fref=file_ref");
}
END_TEST

START_TEST(test_fref_inc_not_zero)
{
	fref_exact("fref=inc-not-zero");
}
END_TEST

/*
 * filp_flush(): every way an fd is closed flushes the file first, while the
 * fd's reference is still held, with the table as the lock owner id, and
 * close(2) returns ->flush's error (a restart code as EINTR) with the fd
 * gone all the same. No vfslab file system has ->flush; a hook stands in.
 */
static struct {
	int calls;
	int ret;
	struct file *file;
	struct files_struct *id;
	unsigned long count;
} flushed;

static int flush_hook(struct vfs *v, struct file *f, struct files_struct *id)
{
	flushed.calls++;
	flushed.file = f;
	flushed.id = id;
	flushed.count = file_count(v, f);
	return flushed.ret;
}

/* Give fd's file a copy of its f_op with ->flush set; ops: where to keep it. */
static struct file *hook_flush(struct task *t, int fd, struct file_operations *ops)
{
	struct file *file = vt_file(t, fd);

	*ops = **file_op(t->vfs, file);
	ops->flush = flush_hook;
	*file_op(t->vfs, file) = ops;
	return file;
}

#define VT_FLUSHED(n, f, files, cnt)                     \
	do {                                             \
		ck_assert_int_eq(flushed.calls, (n));    \
		ck_assert_ptr_eq(flushed.file, (f));     \
		ck_assert_ptr_eq(flushed.id, (files));   \
		ck_assert_uint_eq(flushed.count, (cnt)); \
	} while (0)

START_TEST(test_filp_flush)
{
	static struct file_operations fops, path_fops;
	struct vt e;
	struct task *child, *th;
	struct file *file;
	struct files_struct *cfiles;
	long f, g, p;

	vt_begin(&e, _i ? "fref=inc-not-zero" : "");
	memset(&flushed, 0, sizeof(flushed));
	vt_touch(e.t, "/f");
	vt_touch(e.t, "/g");
	f = VT_OK(sys_open(e.t, "/f", O_RDWR, 0));
	g = VT_OK(sys_open(e.t, "/g", O_RDONLY, 0));
	file = hook_flush(e.t, f, &fops);
	/* vfslab has no file locks: no inode has a lock context. */
	ck_assert_ptr_null(file_inode(e.v, file)->i_flctx);
	/* close(2), as UnixBench's close(dup(fd)): flushed before the put. */
	VT_EQ(sys_close(e.t, VT_OK(sys_dup(e.t, f))), 0);
	VT_FLUSHED(1, file, e.t->files, 2);
	ck_assert_uint_eq(vt_fcount(e.t, f), 1);
	VT_EQ(sys_close(e.t, 40), -EBADF);
	ck_assert_int_eq(flushed.calls, 1);
	/* dup2/dup3 onto an empty slot closes nothing; onto an open one, flushes. */
	VT_EQ(sys_dup2(e.t, f, 5), 5);
	VT_EQ(sys_dup2(e.t, f, 5), 5);
	ck_assert_int_eq(flushed.calls, 2);
	VT_EQ(sys_dup3(e.t, g, 5, 0), 5);
	VT_FLUSHED(3, file, e.t->files, 2);
	ck_assert_uint_eq(vt_fcount(e.t, f), 1);
	VT_EQ(sys_dup2(e.t, f, f), f); /* a validity check only */
	ck_assert_int_eq(flushed.calls, 3);
	/* close_range: one flush per open fd in the range. */
	for (int i = 6; i <= 8; i++)
		VT_EQ(sys_dup2(e.t, f, i), i);
	VT_EQ(sys_close_range(e.t, 6, 20, 0), 0);
	VT_FLUSHED(6, file, e.t->files, 2);
	VT_EQ(sys_close_range(e.t, 6, 20, CLOSE_RANGE_CLOEXEC), 0);
	ck_assert_int_eq(flushed.calls, 6);
	/* exit: close_files() flushes the dying table's files with it as id. */
	child = task_fork(e.t, 0);
	ck_assert_ptr_nonnull(child);
	cfiles = child->files;
	ck_assert_uint_eq(vt_fcount(e.t, f), 2);
	task_exit(child);
	VT_FLUSHED(7, file, cfiles, 2);
	/* A thread's exit leaves the shared table, and the files, alone. */
	th = task_fork(e.t, TASK_CLONE_FILES);
	ck_assert_ptr_nonnull(th);
	task_exit(th);
	ck_assert_int_eq(flushed.calls, 7);
	/* ->flush's error is close(2)'s, and the fd is closed anyway. */
	flushed.ret = -EIO;
	VT_EQ(sys_close(e.t, VT_OK(sys_dup(e.t, f))), -EIO);
	ck_assert_ptr_null(vt_file(e.t, 2));
	flushed.ret = -ERESTARTSYS;
	VT_EQ(sys_close(e.t, VT_OK(sys_dup(e.t, f))), -EINTR);
	ck_assert_ptr_null(vt_file(e.t, 2));
	ck_assert_int_eq(flushed.calls, 9);
	/* ... but not dup2's or close_range's. */
	VT_EQ(sys_dup2(e.t, f, 9), 9);
	VT_EQ(sys_dup2(e.t, g, 9), 9);
	VT_EQ(sys_dup2(e.t, f, 10), 10);
	VT_EQ(sys_close_range(e.t, 10, 10, 0), 0);
	ck_assert_int_eq(flushed.calls, 11);
	flushed.ret = 0;
	ck_assert_uint_eq(vt_fcount(e.t, f), 1);
	/* O_PATH files are flushed too (FMODE_PATH only skips dnotify and locks). */
	p = VT_OK(sys_open(e.t, "/g", O_PATH, 0));
	file = hook_flush(e.t, p, &path_fops);
	VT_EQ(sys_close(e.t, p), 0);
	VT_FLUSHED(12, file, e.t->files, 1);
	/* The last close flushes with the last reference still held. */
	file = vt_file(e.t, f);
	VT_EQ(sys_close(e.t, f), 0);
	VT_FLUSHED(13, file, e.t->files, 1);
	VT_EQ(sys_close_range(e.t, 0, ~0U, 0), 0);
	ck_assert_int_eq(flushed.calls, 13);
	ck_assert_int_eq(vt_inuse(e.v).files, 0);
	vt_end(&e);
}
END_TEST

static Suite *file_suite(void)
{
	Suite *s = suite_create("file");
	TCase *tc = tcase_create("fdtable");
	TCase *bugs = tcase_create("linux-divergence");

	tcase_add_test(tc, test_lowest_free);
	tcase_add_test(tc, test_word_boundaries);
	tcase_add_test(tc, test_expand);
	tcase_add_test(tc, test_rlimit);
	tcase_add_test(tc, test_nr_open);
	tcase_add_test(tc, test_dup_family);
	tcase_add_test(tc, test_f_dupfd);
	tcase_add_test(tc, test_close_range);
	tcase_add_test(tc, test_cloexec_per_fd);
	tcase_add_test(tc, test_alloc_fd_variants_identical);
	tcase_add_test(tc, test_fork_copies_table);
	tcase_add_test(tc, test_threads_share_table);
	tcase_add_test(tc, test_fref_file_ref);
	tcase_add_test(tc, test_fref_inc_not_zero);
	tcase_add_loop_test(tc, test_filp_flush, 0, 2);
	suite_add_tcase(s, tc);
	/* Where vfslab answered differently from Linux when written. */
	tcase_add_test(bugs, test_getfl);
	suite_add_tcase(s, bugs);
	return s;
}

VT_MAIN(file_suite)
