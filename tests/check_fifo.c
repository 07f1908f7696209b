// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Fifos that block, AF_UNIX socket inodes, statfs and pathconf: what one
 * task sees (Linux's answers, checked on the host's tmpfs) and what
 * threads blocked on each other see (opens that wait for the other end,
 * PIPE_BUF-sized writes never interleaved, EOF and EINTR wake-ups).
 */
#include <signal.h>
#include <sys/socket.h>
#include <sys/statfs.h>
#include <time.h>
#include <unistd.h>

#include "vfs_test.h"

/* A thread with a task of its own (a process), running one call. */
struct worker {
	pthread_t thread;
	struct task *t;
	const char *path;
	int flags;
	int fd; /* the fd a reader or writer uses (its fork has the same) */
	int close_first; /* an inherited fd the reader closes first, or 0 */
	long ret;
	bool done;
	size_t count; /* bytes to read or write */
	unsigned char id; /* the byte a writer fills its messages with */
	unsigned char *buf;
};

static void nap(long ms)
{
	struct timespec ts = { .tv_sec = 0, .tv_nsec = ms * 1000000L };

	nanosleep(&ts, NULL);
}

static void *open_thread(void *arg)
{
	struct worker *w = arg;

	vfs_thread_enter();
	w->ret = sys_open(w->t, w->path, w->flags, 0);
	vfs_thread_exit();
	__atomic_store_n(&w->done, true, __ATOMIC_RELEASE);
	return NULL;
}

static void *read_thread(void *arg)
{
	struct worker *w = arg;

	vfs_thread_enter();
	if (w->close_first)
		sys_close(w->t, w->close_first);
	w->ret = sys_read(w->t, w->fd, w->buf, w->count);
	vfs_thread_exit();
	__atomic_store_n(&w->done, true, __ATOMIC_RELEASE);
	return NULL;
}

static void start(struct worker *w, struct vt *e, void *(*fn)(void *))
{
	w->t = task_fork(e->t, 0);
	ck_assert_ptr_nonnull(w->t);
	ck_assert_int_eq(pthread_create(&w->thread, NULL, fn, w), 0);
}

static bool finished(struct worker *w)
{
	return __atomic_load_n(&w->done, __ATOMIC_ACQUIRE);
}

static void join(struct worker *w)
{
	ck_assert_int_eq(pthread_join(w->thread, NULL), 0);
	task_exit(w->t);
}

START_TEST(test_open_waits_for_the_other_end)
{
	struct vt e;
	struct worker r = { .path = "/f", .flags = O_RDONLY };
	char buf[8];
	long wfd;

	vt_begin(&e, "");
	VT_EQ(sys_mknod(e.t, "/f", S_IFIFO | 0644, 0), 0);
	start(&r, &e, open_thread);
	nap(50);
	ck_assert_msg(!finished(&r), "O_RDONLY opened with no writer");
	wfd = VT_OK(sys_open(e.t, "/f", O_WRONLY, 0));
	while (!finished(&r))
		nap(1);
	VT_OK(r.ret);
	/* The reader is open until its task exits. */
	VT_EQ(sys_write(e.t, wfd, "hi", 2), 2);
	join(&r);
	VT_EQ(sys_close(e.t, wfd), 0);

	/* A writer waits for a reader the same way. */
	r = (struct worker){ .path = "/f", .flags = O_WRONLY };
	start(&r, &e, open_thread);
	nap(50);
	ck_assert_msg(!finished(&r), "O_WRONLY opened with no reader");
	wfd = VT_OK(sys_open(e.t, "/f", O_RDONLY, 0));
	join(&r);
	VT_OK(r.ret);
	/* The last close before forgot "hi"; the writer is gone: EOF. */
	VT_EQ(sys_fcntl(e.t, wfd, F_SETFL, O_NONBLOCK), 0);
	VT_EQ(sys_read(e.t, wfd, buf, sizeof(buf)), 0);
	VT_EQ(sys_close(e.t, wfd), 0);
	vt_end(&e);
}
END_TEST

START_TEST(test_nonblocking_answers)
{
	struct vt e;
	char buf[8];
	long rfd, wfd;

	vt_begin(&e, "");
	VT_EQ(sys_mknod(e.t, "/f", S_IFIFO | 0644, 0), 0);
	VT_EQ(sys_open(e.t, "/f", O_WRONLY | O_NONBLOCK, 0), -ENXIO);
	rfd = VT_OK(sys_open(e.t, "/f", O_RDONLY | O_NONBLOCK, 0));
	/* No writer yet: EOF, not EAGAIN. */
	VT_EQ(sys_read(e.t, rfd, buf, sizeof(buf)), 0);
	wfd = VT_OK(sys_open(e.t, "/f", O_WRONLY | O_NONBLOCK, 0));
	VT_EQ(sys_read(e.t, rfd, buf, sizeof(buf)), -EAGAIN);
	VT_EQ(sys_close(e.t, rfd), 0);
	ck_assert_int_eq(task_sigpending(e.t), 0);
	VT_EQ(sys_write(e.t, wfd, "x", 1), -EPIPE);
	ck_assert_int_eq(task_sigpending(e.t), 1UL << (SIGPIPE - 1));
	ck_assert_int_eq(task_sigpending(e.t), 0);
	VT_EQ(sys_close(e.t, wfd), 0);
	/* O_RDWR is both ends: it never waits, and EAGAIN when empty. */
	rfd = VT_OK(sys_open(e.t, "/f", O_RDWR | O_NONBLOCK, 0));
	VT_EQ(sys_read(e.t, rfd, buf, sizeof(buf)), -EAGAIN);
	VT_EQ(sys_close(e.t, rfd), 0);
	vt_end(&e);
}
END_TEST

/* Writers fill 512-byte messages with their id; none may be interleaved. */
#define MSG 512
#define MSGS 400
#define WRITERS 4

static void *write_thread(void *arg)
{
	struct worker *w = arg;
	unsigned char msg[MSG];

	memset(msg, w->id, sizeof(msg));
	vfs_thread_enter();
	w->ret = 0;
	for (int i = 0; i < MSGS && w->ret >= 0; i++) {
		long n = sys_write(w->t, w->fd, msg, sizeof(msg));

		w->ret = n == MSG ? 0 : n < 0 ? n : -EIO;
	}
	vfs_thread_exit();
	__atomic_store_n(&w->done, true, __ATOMIC_RELEASE);
	return NULL;
}

START_TEST(test_pipe_buf_writes_are_atomic)
{
	struct worker w[WRITERS];
	unsigned char buf[3 * MSG + 7];
	size_t got = 0, seen[WRITERS + 1] = { 0 };
	unsigned char cur = 0;
	size_t in_msg = 0;
	struct vt e;
	long rfd, n;

	vt_begin(&e, "");
	VT_EQ(sys_mknod(e.t, "/f", S_IFIFO | 0644, 0), 0);
	/* The writers' forks write to the same fd: one reader, many writers. */
	rfd = VT_OK(sys_open(e.t, "/f", O_RDWR, 0));
	for (int i = 0; i < WRITERS; i++) {
		w[i] = (struct worker){ .id = (unsigned char)(i + 1), .fd = (int)rfd };
		start(&w[i], &e, write_thread);
	}
	/* Reads of odd sizes: each message must still come out whole. */
	while (got < (size_t)WRITERS * MSGS * MSG) {
		n = VT_OK(sys_read(e.t, rfd, buf, sizeof(buf)));
		for (long i = 0; i < n; i++) {
			if (!in_msg)
				cur = buf[i];
			ck_assert_msg(buf[i] == cur, "writer %d's bytes inside writer %d's message",
				      buf[i], cur);
			in_msg = (in_msg + 1) % MSG;
			seen[cur]++;
		}
		got += (size_t)n;
	}
	for (int i = 0; i < WRITERS; i++) {
		join(&w[i]);
		VT_EQ(w[i].ret, 0);
		ck_assert_uint_eq(seen[i + 1], (size_t)MSGS * MSG);
	}
	VT_EQ(sys_close(e.t, rfd), 0);
	vt_end(&e);
}
END_TEST

START_TEST(test_blocked_read_wakes)
{
	unsigned char buf[16];
	struct worker r;
	struct vt e;
	long fd, wfd;

	vt_begin(&e, "");
	VT_EQ(sys_mknod(e.t, "/f", S_IFIFO | 0644, 0), 0);
	fd = VT_OK(sys_open(e.t, "/f", O_RDONLY | O_NONBLOCK, 0));
	r = (struct worker){ .buf = buf, .count = sizeof(buf), .fd = (int)fd };
	VT_EQ(sys_fcntl(e.t, fd, F_SETFL, 0), 0);
	wfd = VT_OK(sys_open(e.t, "/f", O_WRONLY, 0));
	/* Data wakes a blocked reader. */
	start(&r, &e, read_thread);
	nap(50);
	ck_assert_msg(!finished(&r), "read returned from an empty fifo with a writer");
	VT_EQ(sys_write(e.t, wfd, "data", 4), 4);
	join(&r);
	VT_EQ(r.ret, 4);
	/* The last writer leaving wakes it with EOF (its fork's copy closed). */
	r = (struct worker){
		.buf = buf, .count = sizeof(buf), .fd = (int)fd, .close_first = (int)wfd
	};
	start(&r, &e, read_thread);
	nap(50);
	ck_assert(!finished(&r));
	VT_EQ(sys_close(e.t, wfd), 0);
	join(&r);
	VT_EQ(r.ret, 0);
	/* A kill ends a blocked open with EINTR; later calls block again. */
	VT_EQ(sys_close(e.t, fd), 0);
	r = (struct worker){ .path = "/f", .flags = O_RDONLY };
	start(&r, &e, open_thread);
	nap(50);
	ck_assert(!finished(&r));
	vfs_kill_waiters(e.v);
	join(&r);
	VT_EQ(r.ret, -EINTR);
	VT_EQ(sys_open(e.t, "/f", O_WRONLY | O_NONBLOCK, 0), -ENXIO);
	vt_end(&e);
}
END_TEST

START_TEST(test_sockets)
{
	struct stat st;
	struct vt e;
	long s, c, f;

	vt_begin(&e, "");
	s = VT_OK(sys_socket(e.t, AF_UNIX, SOCK_STREAM, 0));
	VT_EQ(sys_fstat(e.t, s, &st), 0);
	ck_assert_uint_eq(st.st_mode, S_IFSOCK | 0777);
	VT_EQ(sys_socket(e.t, AF_INET, SOCK_STREAM, 0), -EAFNOSUPPORT);
	VT_EQ(sys_listen(e.t, s, 1), -EINVAL);
	VT_OK(sys_umask(e.t, 022));
	VT_EQ(sys_bind_path(e.t, s, "/s"), 0);
	VT_EQ(sys_bind_path(e.t, s, "/s2"), -EINVAL);
	VT_EQ(sys_lstat(e.t, "/s", &st), 0);
	ck_assert_uint_eq(st.st_mode, S_IFSOCK | 0755);
	c = VT_OK(sys_socket(e.t, AF_UNIX, SOCK_STREAM, 0));
	VT_EQ(sys_bind_path(e.t, c, "/s"), -EADDRINUSE);
	/* Bound, not listening: refused; listening: connected. */
	VT_EQ(sys_connect_path(e.t, c, "/s"), -ECONNREFUSED);
	VT_EQ(sys_listen(e.t, s, 1), 0);
	VT_EQ(sys_connect_path(e.t, c, "/s"), 0);
	VT_EQ(sys_connect_path(e.t, c, "/s"), -EISCONN);
	VT_EQ(sys_close(e.t, c), 0);
	/* The binder gone, the inode stays and refuses. */
	VT_EQ(sys_close(e.t, s), 0);
	c = VT_OK(sys_socket(e.t, AF_UNIX, SOCK_STREAM, 0));
	VT_EQ(sys_connect_path(e.t, c, "/s"), -ECONNREFUSED);
	VT_EQ(sys_connect_path(e.t, c, "/nope"), -ENOENT);
	/* A name that fills sun_path has no room for its NUL. */
	{
		char longname[120];

		memset(longname, 'x', sizeof(longname) - 1);
		longname[sizeof(longname) - 1] = '\0';
		VT_EQ(sys_bind_path(e.t, c, longname), -EINVAL);
	}
	f = VT_OK(sys_open(e.t, "/reg", O_CREAT | O_RDWR, 0644));
	VT_EQ(sys_bind_path(e.t, f, "/s3"), -ENOTSOCK);
	VT_EQ(sys_listen(e.t, 99, 1), -EBADF);
	VT_EQ(sys_connect_path(e.t, c, "/reg"), -ECONNREFUSED);
	VT_EQ(sys_open(e.t, "/s", O_RDONLY, 0), -ENXIO);
	VT_EQ(sys_close(e.t, c), 0);
	VT_EQ(sys_close(e.t, f), 0);
	vt_end(&e);
}
END_TEST

START_TEST(test_statfs_pathconf)
{
	struct statfs a, b;
	struct vt e;
	long v;

	vt_begin(&e, "tmpfs-size=1m");
	VT_EQ(sys_statfs(e.t, "/", &a), 0);
	ck_assert_uint_eq(a.f_type, 0x01021994);
	ck_assert_int_eq(a.f_bsize, 4096);
	ck_assert_int_eq(a.f_namelen, 255);
	ck_assert_uint_eq(a.f_blocks, 256);
	ck_assert_uint_eq(a.f_bfree, 256);
	vt_put(e.t, "/f", "data", 4);
	VT_EQ(sys_statfs(e.t, "/f", &b), 0);
	ck_assert_uint_eq(b.f_bfree, 255);
	ck_assert_uint_eq(b.f_ffree, a.f_ffree - 1);
	VT_EQ(sys_statfs(e.t, "/nope", &b), -ENOENT);
	VT_EQ(sys_fstatfs(e.t, 42, &b), -EBADF);
	VT_EQ(sys_pathconf(e.t, "/f", _PC_NAME_MAX, &v), 0);
	ck_assert_int_eq(v, 255);
	VT_EQ(sys_pathconf(e.t, "/nope", _PC_PATH_MAX, &v), 0);
	ck_assert_int_eq(v, 4096);
	VT_EQ(sys_pathconf(e.t, "/nope", _PC_LINK_MAX, &v), -ENOENT);
	VT_EQ(sys_pathconf(e.t, "/", 99, &v), -EINVAL);
	VT_EQ(sys_pathconf(e.t, "", _PC_PATH_MAX, &v), -ENOENT);
	VT_EQ(sys_fpathconf(e.t, -1, _PC_PATH_MAX, &v), -EBADF);
	VT_EQ(sys_fpathconf(e.t, 42, _PC_PATH_MAX, &v), 0);
	VT_EQ(sys_fpathconf(e.t, 42, _PC_FILESIZEBITS, &v), -EBADF);
	vt_end(&e);
}
END_TEST

static Suite *fifo_suite(void)
{
	Suite *s = suite_create("fifo");
	TCase *tc = tcase_create("fifo");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_open_waits_for_the_other_end);
	tcase_add_test(tc, test_nonblocking_answers);
	tcase_add_test(tc, test_pipe_buf_writes_are_atomic);
	tcase_add_test(tc, test_blocked_read_wakes);
	tcase_add_test(tc, test_sockets);
	tcase_add_test(tc, test_statfs_pathconf);
	suite_add_tcase(s, tc);
	return s;
}

VT_MAIN(fifo_suite)
