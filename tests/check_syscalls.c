// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Tests for the syscall layer (vfs/read_write.c, vfs/open.c, vfs/readdir.c,
 * vfs/shmem.c): what the tests/fstest scripts do not cover. Data round trips
 * across pages and holes, O_APPEND and O_TRUNC, truncation, getdents64
 * across concurrent changes, getcwd, umask, fifos and O_TMPFILE. Expected
 * values are the host kernel's on tmpfs.
 */
#include <dirent.h>
#include <limits.h>
#include <linux/falloc.h>
#include <sys/mount.h>

#include "tests/vfs_test.h"

#define PAGE 4096

static void fill(unsigned char *buf, size_t len, unsigned int seed)
{
	for (size_t i = 0; i < len; i++)
		buf[i] = (unsigned char)(i * 131 + seed + (i >> 12));
}

START_TEST(test_rw_across_pages)
{
	enum { LEN = 3 * PAGE + 123 };
	static unsigned char data[LEN], back[LEN + 100];
	struct vt e;
	struct stat st;
	long fd, done;

	vt_begin(&e, "");
	fill(data, LEN, 7);
	fd = VT_OK(sys_open(e.t, "/f", O_CREAT | O_RDWR, 0644));
	/* Odd-sized writes cross each page boundary mid-chunk. */
	for (done = 0; done < LEN; done += 1000)
		VT_EQ(sys_write(e.t, fd, data + done, LEN - done < 1000 ? LEN - done : 1000),
		      LEN - done < 1000 ? LEN - done : 1000);
	VT_EQ(sys_lseek(e.t, fd, 0, SEEK_CUR), LEN);
	VT_EQ(sys_fstat(e.t, fd, &st), 0);
	ck_assert_int_eq(st.st_size, LEN);
	/* Read back in other chunks; a read at EOF returns 0. */
	VT_EQ(sys_lseek(e.t, fd, 0, SEEK_SET), 0);
	for (done = 0; done < LEN;)
		done += VT_OK(sys_read(e.t, fd, back + done, 777));
	ck_assert_int_eq(done, LEN);
	ck_assert_int_eq(memcmp(data, back, LEN), 0);
	VT_EQ(sys_read(e.t, fd, back, 10), 0);
	/* pread/pwrite straddling a boundary; f_pos stays put. */
	VT_EQ(sys_lseek(e.t, fd, 5, SEEK_SET), 5);
	VT_EQ(sys_pwrite64(e.t, fd, "ABCDEFGH", 8, PAGE - 4), 8);
	VT_EQ(sys_pread64(e.t, fd, back, 10, PAGE - 5), 10);
	ck_assert_int_eq(back[0], data[PAGE - 5]);
	ck_assert_int_eq(memcmp(back + 1, "ABCDEFGH", 8), 0);
	ck_assert_int_eq(back[9], data[PAGE + 4]);
	VT_EQ(sys_lseek(e.t, fd, 0, SEEK_CUR), 5);
	VT_EQ(sys_pread64(e.t, fd, back, 100, LEN - 10), 10);
	VT_EQ(sys_pread64(e.t, fd, back, 100, LEN + 10), 0);
	VT_EQ(sys_pread64(e.t, fd, back, 10, -1), -EINVAL);
	VT_EQ(sys_pwrite64(e.t, fd, back, 10, -1), -EINVAL);
	/* lseek's whences. */
	VT_EQ(sys_lseek(e.t, fd, -10, SEEK_END), LEN - 10);
	VT_EQ(sys_lseek(e.t, fd, 3, SEEK_CUR), LEN - 7);
	VT_EQ(sys_lseek(e.t, fd, -1, SEEK_SET), -EINVAL);
	VT_EQ(sys_lseek(e.t, fd, 0, 99), -EINVAL);
	VT_EQ(sys_lseek(e.t, fd, LEN - 7, SEEK_SET), LEN - 7);
	/* Access modes. */
	VT_EQ(sys_close(e.t, fd), 0);
	fd = VT_OK(sys_open(e.t, "/f", O_RDONLY, 0));
	VT_EQ(sys_write(e.t, fd, "x", 1), -EBADF);
	VT_EQ(sys_pwrite64(e.t, fd, "x", 1, 0), -EBADF);
	VT_EQ(sys_close(e.t, fd), 0);
	fd = VT_OK(sys_open(e.t, "/f", O_WRONLY, 0));
	VT_EQ(sys_read(e.t, fd, back, 1), -EBADF);
	VT_EQ(sys_read(e.t, fd, back, 0), -EBADF);
	VT_EQ(sys_close(e.t, fd), 0);
	vt_end(&e);
}
END_TEST

START_TEST(test_sparse_read_zeros)
{
	static unsigned char buf[3 * PAGE];
	struct vt e;
	struct stat st;
	long fd;

	vt_begin(&e, "");
	fd = VT_OK(sys_open(e.t, "/s", O_CREAT | O_RDWR, 0644));
	VT_EQ(sys_pwrite64(e.t, fd, "x", 1, 1 << 20), 1);
	VT_EQ(sys_fstat(e.t, fd, &st), 0);
	ck_assert_int_eq(st.st_size, (1 << 20) + 1);
	/* A hole reads as zeros, up to the data. */
	memset(buf, 0xff, sizeof(buf));
	VT_EQ(sys_pread64(e.t, fd, buf, sizeof(buf), 5 * PAGE - 7), sizeof(buf));
	for (size_t i = 0; i < sizeof(buf); i++)
		ck_assert_msg(buf[i] == 0, "hole byte %zu = %d", i, buf[i]);
	memset(buf, 0xff, sizeof(buf));
	VT_EQ(sys_pread64(e.t, fd, buf, sizeof(buf), (1 << 20) - 2), 3);
	ck_assert_int_eq(buf[0], 0);
	ck_assert_int_eq(buf[1], 0);
	ck_assert_int_eq(buf[2], 'x');
	/* Seeking past the end and writing makes another hole. */
	VT_EQ(sys_lseek(e.t, fd, 3 << 20, SEEK_SET), 3 << 20);
	VT_EQ(sys_read(e.t, fd, buf, 10), 0);
	VT_EQ(sys_write(e.t, fd, "y", 1), 1);
	VT_EQ(sys_pread64(e.t, fd, buf, 2, (2 << 20)), 2);
	ck_assert_int_eq(buf[0] | buf[1], 0);
	VT_EQ(sys_close(e.t, fd), 0);
	vt_end(&e);
}
END_TEST

/*
 * tmpfs finds holes: SEEK_DATA skips to the first page with data and
 * SEEK_HOLE stops at the first page without. Linux 6.18 on /dev/shm:
 * SEEK_DATA(0) = 1048576, SEEK_HOLE(0) = 0, SEEK_HOLE(1048576) = 1048577 (the
 * size), and after ftruncate to 3 MiB, SEEK_HOLE(1048581) = 1052672.
 */
START_TEST(test_seek_data_hole_sparse)
{
	struct vt e;
	long fd;

	vt_begin(&e, "");
	fd = VT_OK(sys_open(e.t, "/s", O_CREAT | O_RDWR, 0644));
	VT_EQ(sys_pwrite64(e.t, fd, "x", 1, 1 << 20), 1);
	VT_EQ(sys_lseek(e.t, fd, 0, SEEK_DATA), 1 << 20);
	VT_EQ(sys_lseek(e.t, fd, 0, SEEK_HOLE), 0);
	VT_EQ(sys_lseek(e.t, fd, 1 << 20, SEEK_HOLE), (1 << 20) + 1);
	VT_EQ(sys_lseek(e.t, fd, (1 << 20) + 5, SEEK_HOLE), -ENXIO);
	VT_EQ(sys_ftruncate(e.t, fd, 3 << 20), 0);
	VT_EQ(sys_lseek(e.t, fd, (1 << 20) + 5, SEEK_HOLE), (1 << 20) + PAGE);
	VT_EQ(sys_lseek(e.t, fd, (1 << 20) + PAGE, SEEK_DATA), -ENXIO);
	VT_EQ(sys_close(e.t, fd), 0);
	vt_end(&e);
}
END_TEST

/* tmpfs' st_blocks counts the pages it holds, not the size. */
START_TEST(test_st_blocks_sparse)
{
	struct vt e;
	struct stat st;
	long fd;

	vt_begin(&e, "");
	fd = VT_OK(sys_open(e.t, "/s", O_CREAT | O_RDWR, 0644));
	VT_EQ(sys_write(e.t, fd, "0123456789", 10), 10);
	VT_EQ(sys_fstat(e.t, fd, &st), 0);
	ck_assert_int_eq(st.st_blocks, 8);
	VT_EQ(sys_pwrite64(e.t, fd, "x", 1, 1 << 20), 1);
	VT_EQ(sys_fstat(e.t, fd, &st), 0);
	ck_assert_int_eq(st.st_blocks, 16);
	VT_EQ(sys_ftruncate(e.t, fd, 3 << 20), 0);
	VT_EQ(sys_fstat(e.t, fd, &st), 0);
	ck_assert_int_eq(st.st_blocks, 16);
	VT_EQ(sys_ftruncate(e.t, fd, 100), 0);
	VT_EQ(sys_fstat(e.t, fd, &st), 0);
	ck_assert_int_eq(st.st_blocks, 8);
	VT_EQ(sys_ftruncate(e.t, fd, 0), 0);
	VT_EQ(sys_fstat(e.t, fd, &st), 0);
	ck_assert_int_eq(st.st_blocks, 0);
	/* fallocate allocates, KEEP_SIZE too (Linux 6.18: 16, then 24). */
	VT_EQ(sys_fallocate(e.t, fd, 0, 0, 2 * PAGE), 0);
	VT_EQ(sys_fstat(e.t, fd, &st), 0);
	ck_assert_int_eq(st.st_size, 2 * PAGE);
	ck_assert_int_eq(st.st_blocks, 16);
	VT_EQ(sys_fallocate(e.t, fd, FALLOC_FL_KEEP_SIZE, 2 * PAGE, PAGE), 0);
	VT_EQ(sys_fstat(e.t, fd, &st), 0);
	ck_assert_int_eq(st.st_size, 2 * PAGE);
	ck_assert_int_eq(st.st_blocks, 24);
	VT_EQ(sys_close(e.t, fd), 0);
	vt_end(&e);
}
END_TEST

START_TEST(test_append)
{
	struct vt e;
	char buf[16];
	long a, w;

	vt_begin(&e, "");
	vt_put(e.t, "/f", "0123456789", 10);
	a = VT_OK(sys_open(e.t, "/f", O_WRONLY | O_APPEND, 0));
	w = VT_OK(sys_open(e.t, "/f", O_RDWR, 0));
	/* Every write lands at the end, wherever f_pos was. */
	VT_EQ(sys_lseek(e.t, a, 0, SEEK_SET), 0);
	VT_EQ(sys_write(e.t, a, "A", 1), 1);
	VT_EQ(sys_lseek(e.t, a, 0, SEEK_CUR), 11);
	VT_EQ(sys_write(e.t, w, "ab", 2), 2); /* at 0 */
	VT_EQ(sys_write(e.t, a, "B", 1), 1);
	VT_EQ(sys_lseek(e.t, a, 0, SEEK_CUR), 12);
	/* Linux: pwrite on an O_APPEND file appends too; f_pos stays. */
	VT_EQ(sys_pwrite64(e.t, a, "C", 1, 0), 1);
	VT_EQ(sys_lseek(e.t, a, 0, SEEK_CUR), 12);
	VT_EQ(sys_pread64(e.t, w, buf, sizeof(buf), 0), 13);
	ck_assert_int_eq(memcmp(buf, "ab23456789ABC", 13), 0);
	/* F_SETFL can drop O_APPEND. */
	VT_EQ(sys_fcntl(e.t, a, F_SETFL, 0), 0);
	VT_EQ(sys_lseek(e.t, a, 0, SEEK_SET), 0);
	VT_EQ(sys_write(e.t, a, "Z", 1), 1);
	VT_EQ(sys_pread64(e.t, w, buf, 2, 0), 2);
	ck_assert_int_eq(memcmp(buf, "Zb", 2), 0);
	VT_EQ(sys_close(e.t, a), 0);
	VT_EQ(sys_close(e.t, w), 0);
	vt_end(&e);
}
END_TEST

START_TEST(test_truncate)
{
	static unsigned char data[2 * PAGE + 100], buf[2 * PAGE + 100];
	struct vt e;
	struct stat st;
	long fd;

	vt_begin(&e, "");
	fill(data, sizeof(data), 3);
	vt_put(e.t, "/f", data, sizeof(data));
	/* O_TRUNC empties, even with O_RDONLY. */
	fd = VT_OK(sys_open(e.t, "/f", O_RDONLY | O_TRUNC, 0));
	VT_EQ(sys_fstat(e.t, fd, &st), 0);
	ck_assert_int_eq(st.st_size, 0);
	VT_EQ(sys_ftruncate(e.t, fd, 10), -EINVAL);
	VT_EQ(sys_close(e.t, fd), 0);
	vt_put(e.t, "/f", data, sizeof(data));
	fd = VT_OK(sys_open(e.t, "/f", O_RDWR, 0));
	/* Shrink into the middle of a page, then extend: the tail reads 0. */
	VT_EQ(sys_ftruncate(e.t, fd, PAGE + 10), 0);
	VT_EQ(sys_fstat(e.t, fd, &st), 0);
	ck_assert_int_eq(st.st_size, PAGE + 10);
	VT_EQ(sys_ftruncate(e.t, fd, sizeof(data)), 0);
	VT_EQ(sys_pread64(e.t, fd, buf, sizeof(buf), 0), sizeof(data));
	ck_assert_int_eq(memcmp(buf, data, PAGE + 10), 0);
	for (size_t i = PAGE + 10; i < sizeof(data); i++)
		ck_assert_msg(buf[i] == 0, "byte %zu = %d after shrink+extend", i, buf[i]);
	/* Shrink to a page boundary and to 0. */
	VT_EQ(sys_ftruncate(e.t, fd, PAGE), 0);
	VT_EQ(sys_pread64(e.t, fd, buf, sizeof(buf), 0), PAGE);
	VT_EQ(sys_truncate(e.t, "/f", 0), 0);
	VT_EQ(sys_pread64(e.t, fd, buf, sizeof(buf), 0), 0);
	VT_EQ(sys_truncate(e.t, "/f", 3), 0);
	VT_EQ(sys_pread64(e.t, fd, buf, sizeof(buf), 0), 3);
	ck_assert_int_eq(buf[0] | buf[1] | buf[2], 0);
	VT_EQ(sys_ftruncate(e.t, fd, -1), -EINVAL);
	VT_EQ(sys_ftruncate(e.t, 99, -1), -EINVAL);
	VT_EQ(sys_ftruncate(e.t, 99, 0), -EBADF);
	VT_EQ(sys_truncate(e.t, "/", 0), -EISDIR);
	VT_EQ(sys_close(e.t, fd), 0);
	vt_end(&e);
}
END_TEST

/* Linux's tmpfs directories read as EISDIR, whatever the count. */
START_TEST(test_read_directory)
{
	struct vt e;
	char buf[16];
	long d, p;

	vt_begin(&e, "");
	d = VT_OK(sys_open(e.t, "/", O_RDONLY | O_DIRECTORY, 0));
	VT_EQ(sys_read(e.t, d, buf, sizeof(buf)), -EISDIR);
	VT_EQ(sys_pread64(e.t, d, buf, 5, 0), -EISDIR);
	VT_EQ(sys_write(e.t, d, buf, 0), -EBADF);
	VT_EQ(sys_lseek(e.t, d, 0, SEEK_END), -EINVAL);
	VT_EQ(sys_lseek(e.t, d, 5, SEEK_SET), 5);
	VT_EQ(sys_lseek(e.t, d, -1, SEEK_CUR), 4);
	VT_EQ(sys_lseek(e.t, d, 0, SEEK_DATA), -EINVAL);
	p = VT_OK(sys_open(e.t, "/", O_PATH, 0));
	VT_EQ(sys_read(e.t, p, buf, 0), -EBADF);
	VT_EQ(sys_lseek(e.t, p, 0, SEEK_SET), -EBADF);
	VT_EQ(sys_close(e.t, p), 0);
	/* The zero-length cases, checked on Linux 6.18. */
	VT_EQ(sys_read(e.t, d, buf, 0), -EISDIR);
	VT_EQ(sys_pread64(e.t, d, buf, 0, 0), -EISDIR);
	VT_EQ(sys_close(e.t, d), 0);
	vt_end(&e);
}
END_TEST

/* Read every record of a getdents64 buffer into names[]. */
static int parse_dirents(const char *buf, long len, char names[][32], int max, int n)
{
	for (long off = 0; off < len;) {
		const struct linux_dirent64 *d = (const void *)(buf + off);

		ck_assert_int_lt(n, max);
		ck_assert_int_gt(d->d_reclen, 0);
		ck_assert_int_eq(d->d_reclen % 8, 0);
		snprintf(names[n++], 32, "%s", d->d_name);
		off += d->d_reclen;
	}
	return n;
}

static int count_name(char names[][32], int n, const char *name)
{
	int c = 0;

	for (int i = 0; i < n; i++)
		c += !strcmp(names[i], name);
	return c;
}

START_TEST(test_getdents_stable)
{
	enum { NF = 60, MAXN = 200 };
	static char names[MAXN][32];
	char buf[256], p[64], seen[NF] = { 0 };
	struct vt e;
	long dfd, len;
	int n = 0;

	vt_begin(&e, "");
	VT_EQ(sys_mkdir(e.t, "/d", 0755), 0);
	for (int i = 0; i < NF; i++) {
		snprintf(p, sizeof(p), "/d/f%02d", i);
		vt_touch(e.t, p);
	}
	dfd = VT_OK(sys_open(e.t, "/d", O_RDONLY | O_DIRECTORY, 0));
	VT_EQ(sys_getdents64(e.t, dfd, buf, 10), -EINVAL);
	/* A first small batch. */
	len = VT_OK(sys_getdents64(e.t, dfd, buf, sizeof(buf)));
	n = parse_dirents(buf, len, names, MAXN, 0);
	ck_assert_int_gt(n, 2);
	ck_assert_int_lt(n, 20);
	for (int i = 0; i < n; i++)
		if (names[i][0] == 'f')
			seen[atoi(names[i] + 1)] = 1;
	/* Between calls: unlink seen and unseen names, create new ones. */
	for (int i = 0; i < NF; i += 3) {
		snprintf(p, sizeof(p), "/d/f%02d", i);
		VT_EQ(sys_unlink(e.t, p), 0);
	}
	for (int i = 0; i < 10; i++) {
		snprintf(p, sizeof(p), "/d/new%d", i);
		vt_touch(e.t, p);
	}
	for (int batch = 0; (len = VT_OK(sys_getdents64(e.t, dfd, buf, sizeof(buf)))) > 0;
	     batch++) {
		n = parse_dirents(buf, len, names, MAXN, n);
		/* And again, mid-listing (a few times: each new name is listed). */
		if (batch < 3) {
			snprintf(p, sizeof(p), "/d/late%d", batch);
			vt_touch(e.t, p);
		}
	}
	/* Each name at most once; survivors exactly once; gone ones never. */
	ck_assert_int_eq(count_name(names, n, "."), 1);
	ck_assert_int_eq(count_name(names, n, ".."), 1);
	for (int i = 0; i < n; i++)
		ck_assert_msg(count_name(names, n, names[i]) == 1, "%s listed twice", names[i]);
	for (int i = 0; i < NF; i++) {
		snprintf(p, sizeof(p), "f%02d", i);
		if (i % 3)
			ck_assert_msg(count_name(names, n, p) == 1, "%s missing", p);
		else if (!seen[i])
			ck_assert_msg(count_name(names, n, p) == 0, "%s listed after unlink", p);
	}
	/*
	 * Names made mid-listing may or may not show up: 6.14+ (newest
	 * first, the default) does not list them, readdir=v6.6 does.
	 */
	/* Rewind: exactly what the directory holds now. */
	VT_EQ(sys_lseek(e.t, dfd, 0, SEEK_SET), 0);
	n = 0;
	while ((len = VT_OK(sys_getdents64(e.t, dfd, buf, sizeof(buf)))) > 0)
		n = parse_dirents(buf, len, names, MAXN, n);
	ck_assert_int_eq(count_name(names, n, "f00"), 0);
	ck_assert_int_eq(count_name(names, n, "f01"), 1);
	ck_assert_int_eq(count_name(names, n, "new9"), 1);
	{
		struct stat st;

		VT_EQ(sys_stat(e.t, "/d", &st), 0);
		/* ".", ".." and every name, each once; 20 bytes a name in i_size. */
		ck_assert_int_eq(n, 2 + (st.st_size - 40) / 20);
	}
	VT_EQ(sys_getdents64(e.t, 99, buf, sizeof(buf)), -EBADF);
	{
		long f = VT_OK(sys_open(e.t, "/d/f01", O_RDONLY, 0));

		VT_EQ(sys_getdents64(e.t, f, buf, sizeof(buf)), -ENOTDIR);
		VT_EQ(sys_close(e.t, f), 0);
	}
	VT_EQ(sys_close(e.t, dfd), 0);
	vt_end(&e);
}
END_TEST

/* d_off is a cookie: seeking to one resumes right after that record. */
START_TEST(test_getdents_seek_to_d_off)
{
	static char names[64][32], again[64][32];
	char buf[4096], p[32];
	struct vt e;
	long dfd, len;
	int n, m;
	int64_t off3 = 0;

	vt_begin(&e, "");
	VT_EQ(sys_mkdir(e.t, "/d", 0755), 0);
	for (int i = 0; i < 10; i++) {
		snprintf(p, sizeof(p), "/d/x%d", i);
		vt_touch(e.t, p);
	}
	dfd = VT_OK(sys_open(e.t, "/d", O_RDONLY | O_DIRECTORY, 0));
	len = VT_OK(sys_getdents64(e.t, dfd, buf, sizeof(buf)));
	n = parse_dirents(buf, len, names, 64, 0);
	ck_assert_int_eq(n, 12);
	for (long o = 0, k = 0; o < len; k++) {
		const struct linux_dirent64 *d = (const void *)(buf + o);

		if (k == 3)
			off3 = d->d_off;
		o += d->d_reclen;
	}
	VT_EQ(sys_getdents64(e.t, dfd, buf, sizeof(buf)), 0);
	VT_EQ(sys_lseek(e.t, dfd, off3, SEEK_SET), off3);
	len = VT_OK(sys_getdents64(e.t, dfd, buf, sizeof(buf)));
	m = parse_dirents(buf, len, again, 64, 0);
	ck_assert_int_eq(m, n - 4);
	for (int i = 0; i < m; i++)
		ck_assert_str_eq(again[i], names[i + 4]);
	VT_EQ(sys_close(e.t, dfd), 0);
	vt_end(&e);
}
END_TEST

/* One getdents64 call, as "name@d_off name@d_off ..." in @out. */
static long dents_str(struct vt *e, long dfd, size_t size, char *out, size_t len)
{
	char buf[4096];
	long n = sys_getdents64(e->t, dfd, buf, size);
	size_t used = 0;

	out[0] = '\0';
	for (long o = 0; n > 0 && o < n;) {
		const struct linux_dirent64 *d = (const void *)(buf + o);

		used += snprintf(out + used, len - used, "%s%s@%lld", used ? " " : "", d->d_name,
				 (long long)d->d_off);
		o += d->d_reclen;
	}
	return n;
}

/* A whole listing from @pos on, in order. */
static void listing(struct vt *e, const char *dir, long long pos, char *out, size_t len)
{
	long dfd = VT_OK(sys_open(e->t, dir, O_RDONLY | O_DIRECTORY, 0));

	VT_EQ(sys_lseek(e->t, dfd, pos, SEEK_SET), pos);
	VT_OK(dents_str(e, dfd, 4096, out, len));
	VT_EQ(sys_close(e->t, dfd), 0);
}

/*
 * Linux 6.14+ tmpfs, checked on 6.18: offsets from 3, newest first, each
 * d_off the next entry's offset (".." too), the end at 2^31-1; a rename
 * goes first, onto a name with that name's offset; an exchange swaps
 * offsets; a whiteout comes after the renamed name with a new offset.
 */
START_TEST(test_getdents_order)
{
	char out[512];
	struct vt e;
	long dfd;

	vt_begin(&e, "");
	VT_EQ(sys_mkdir(e.t, "/d", 0755), 0);
	vt_touch(e.t, "/d/a");
	vt_touch(e.t, "/d/b");
	vt_touch(e.t, "/d/c");
	dfd = VT_OK(sys_open(e.t, "/d", O_RDONLY | O_DIRECTORY, 0));
	/* Room for ".", ".." and c (24 bytes each): f_pos is b's offset. */
	VT_EQ(dents_str(&e, dfd, 72, out, sizeof(out)), 72);
	ck_assert_str_eq(out, ".@1 ..@5 c@4");
	VT_EQ(sys_lseek(e.t, dfd, 0, SEEK_CUR), 4);
	VT_EQ(dents_str(&e, dfd, 4096, out, sizeof(out)), 48);
	ck_assert_str_eq(out, "b@3 a@2147483647");
	VT_EQ(sys_lseek(e.t, dfd, 0, SEEK_CUR), 2147483647);
	VT_EQ(dents_str(&e, dfd, 1, out, sizeof(out)), 0);
	/* Only "." fits: f_pos 1. */
	VT_EQ(sys_lseek(e.t, dfd, 0, SEEK_SET), 0);
	VT_EQ(dents_str(&e, dfd, 30, out, sizeof(out)), 24);
	ck_assert_str_eq(out, ".@1");
	VT_EQ(sys_lseek(e.t, dfd, 0, SEEK_CUR), 1);
	VT_EQ(dents_str(&e, dfd, 10, out, sizeof(out)), -EINVAL);
	VT_EQ(sys_lseek(e.t, dfd, 0, SEEK_END), -EINVAL);
	VT_EQ(sys_lseek(e.t, dfd, LLONG_MAX, SEEK_SET), LLONG_MAX);
	VT_EQ(sys_lseek(e.t, dfd, 1, SEEK_CUR), -EINVAL);
	VT_EQ(sys_close(e.t, dfd), 0);

	listing(&e, "/d", 2, out, sizeof(out));
	ck_assert_str_eq(out, "c@4 b@3 a@2147483647");
	listing(&e, "/d", 4, out, sizeof(out));
	ck_assert_str_eq(out, "b@3 a@2147483647");
	listing(&e, "/d", 1000, out, sizeof(out));
	ck_assert_str_eq(out, "c@4 b@3 a@2147483647");
	listing(&e, "/d", 2147483647, out, sizeof(out));
	ck_assert_str_eq(out, "");

	/* rename a e: e (6) first. */
	VT_EQ(sys_rename(e.t, "/d/a", "/d/e"), 0);
	listing(&e, "/d", 0, out, sizeof(out));
	ck_assert_str_eq(out, ".@1 ..@6 e@5 c@4 b@2147483647");
	/* rename c b: "b" takes b's offset (4) and goes first. */
	VT_EQ(sys_rename(e.t, "/d/c", "/d/b"), 0);
	listing(&e, "/d", 0, out, sizeof(out));
	ck_assert_str_eq(out, ".@1 ..@4 b@6 e@2147483647");
	/* A position whose name is gone, with none older: from the first. */
	listing(&e, "/d", 3, out, sizeof(out));
	ck_assert_str_eq(out, "b@6 e@2147483647");
	listing(&e, "/d", 5, out, sizeof(out));
	ck_assert_str_eq(out, "b@6 e@2147483647");
	VT_EQ(sys_mkdir(e.t, "/t", 0755), 0);
	vt_touch(e.t, "/t/a");
	vt_touch(e.t, "/t/b");
	vt_touch(e.t, "/t/c");
	VT_EQ(sys_renameat2(e.t, AT_FDCWD, "/t/a", AT_FDCWD, "/t/c", RENAME_WHITEOUT), 0);
	listing(&e, "/t", 0, out, sizeof(out));
	ck_assert_str_eq(out, ".@1 ..@5 c@6 a@4 b@2147483647");
	VT_EQ(sys_renameat2(e.t, AT_FDCWD, "/t/b", AT_FDCWD, "/t/a", RENAME_WHITEOUT), 0);
	listing(&e, "/t", 0, out, sizeof(out));
	ck_assert_str_eq(out, ".@1 ..@6 a@7 b@5 c@2147483647");
	/*
	 * Exchange c (5) and b (7): they swap offsets and names, the target
	 * goes to the head, then the renamed one: "b" (7), "c" (5), a (6).
	 */
	VT_EQ(sys_renameat2(e.t, AT_FDCWD, "/t/c", AT_FDCWD, "/t/b", RENAME_EXCHANGE), 0);
	listing(&e, "/t", 0, out, sizeof(out));
	ck_assert_str_eq(out, ".@1 ..@7 b@5 c@6 a@2147483647");
	listing(&e, "/t", 6, out, sizeof(out));
	ck_assert_str_eq(out, "a@2147483647");
	vt_end(&e);
}
END_TEST

/* readdir=v6.6: Linux 6.6-6.13, oldest first, offsets from 2. */
START_TEST(test_getdents_order_v66)
{
	char out[512];
	struct vt e;

	vt_begin(&e, "readdir=v6.6");
	VT_EQ(sys_mkdir(e.t, "/d", 0755), 0);
	vt_touch(e.t, "/d/a");
	vt_touch(e.t, "/d/b");
	vt_touch(e.t, "/d/c");
	listing(&e, "/d", 0, out, sizeof(out));
	ck_assert_str_eq(out, ".@1 ..@2 a@3 b@4 c@5");
	listing(&e, "/d", 3, out, sizeof(out));
	ck_assert_str_eq(out, "b@4 c@5");
	VT_EQ(sys_rename(e.t, "/d/a", "/d/b"), 0);
	listing(&e, "/d", 2, out, sizeof(out));
	ck_assert_str_eq(out, "c@5 b@6");
	vt_end(&e);
}
END_TEST

/* Cached negative dentries do not change the order: a new name is first. */
START_TEST(test_getdents_order_negative_cache)
{
	struct stat st;
	char out[512];
	struct vt e;

	vt_begin(&e, "dcache-max-unused=64");
	VT_EQ(sys_mkdir(e.t, "/d", 0755), 0);
	VT_EQ(sys_stat(e.t, "/d/b", &st), -ENOENT);
	vt_touch(e.t, "/d/a");
	VT_EQ(sys_stat(e.t, "/d/c", &st), -ENOENT);
	vt_touch(e.t, "/d/b");
	vt_touch(e.t, "/d/c");
	listing(&e, "/d", 2, out, sizeof(out));
	ck_assert_str_eq(out, "c@4 b@3 a@2147483647");
	VT_EQ(sys_unlink(e.t, "/d/b"), 0);
	vt_touch(e.t, "/d/b");
	listing(&e, "/d", 2, out, sizeof(out));
	ck_assert_str_eq(out, "b@5 c@3 a@2147483647");
	vt_end(&e);
}
END_TEST

/*
 * fallocate() pages are holes to SEEK_DATA until written or fallocated a
 * second time; with little room (tmpfs-size=), ENOSPC at once for a range
 * bigger than the filesystem, else after the room is gone, taking back
 * this call's new pages. Linux 6.18, tmpfs size=12k, the same calls.
 */
START_TEST(test_fallocate_holes_enospc)
{
	struct vt e;
	struct stat st;
	long f, g;

	vt_begin(&e, "tmpfs-size=12k");
	g = VT_OK(sys_open(e.t, "/g", O_CREAT | O_RDWR, 0644));
	VT_EQ(sys_pwrite64(e.t, g, "x", 1, 0), 1);
	f = VT_OK(sys_open(e.t, "/f", O_CREAT | O_RDWR, 0644));
	VT_EQ(sys_fallocate(e.t, f, 0, 0, 100), 0);
	VT_EQ(sys_lseek(e.t, f, 0, SEEK_DATA), -ENXIO);
	VT_EQ(sys_fallocate(e.t, f, 0, 50, 1), 0);
	VT_EQ(sys_lseek(e.t, f, 0, SEEK_DATA), 0);
	VT_EQ(sys_lseek(e.t, f, 0, SEEK_HOLE), 100);
	VT_EQ(sys_ftruncate(e.t, f, 0), 0);
	VT_EQ(sys_pwrite64(e.t, f, "x", 1, 2 * PAGE), 1);
	VT_EQ(sys_fallocate(e.t, f, 0, 0, 4 * PAGE), -ENOSPC);
	VT_EQ(sys_fallocate(e.t, f, 0, 0, 3 * PAGE), -ENOSPC);
	VT_EQ(sys_fstat(e.t, f, &st), 0);
	ck_assert_int_eq(st.st_size, 2 * PAGE + 1);
	ck_assert_int_eq(st.st_blocks, 8);
	VT_EQ(sys_lseek(e.t, f, 0, SEEK_DATA), 2 * PAGE);
	VT_EQ(sys_ftruncate(e.t, f, 0), 0);
	VT_EQ(sys_fallocate(e.t, f, 0, 0, 2 * PAGE), 0);
	VT_EQ(sys_pwrite64(e.t, g, "x", 1, PAGE), -ENOSPC);
	VT_EQ(sys_close(e.t, f), 0);
	VT_EQ(sys_close(e.t, g), 0);
	vt_end(&e);
}
END_TEST

/*
 * Sparse files of any size cost only their pages. Linux 6.18 on tmpfs,
 * quirk included: the last page a file can have ends at 2^63, which
 * mapping_seek_hole_data() overflows to LLONG_MIN, so its data is not
 * found and SEEK_HOLE in it returns LLONG_MIN.
 */
START_TEST(test_sparse_huge_offsets)
{
	const long long tib = 1ll << 40, last = LLONG_MAX & ~(long long)(PAGE - 1);
	struct vt e;
	struct stat st;
	char buf[8];
	long fd;

	vt_begin(&e, "");
	fd = VT_OK(sys_open(e.t, "/s", O_CREAT | O_RDWR | O_APPEND, 0644));
	VT_EQ(sys_ftruncate(e.t, fd, tib), 0);
	VT_EQ(sys_write(e.t, fd, "abc", 3), 3);
	VT_EQ(sys_close(e.t, fd), 0);
	fd = VT_OK(sys_open(e.t, "/s", O_RDWR, 0));
	VT_EQ(sys_pwrite64(e.t, fd, "z", 1, 1ll << 52), 1);
	VT_EQ(sys_fstat(e.t, fd, &st), 0);
	ck_assert_int_eq(st.st_size, (1ll << 52) + 1);
	ck_assert_int_eq(st.st_blocks, 16);
	VT_EQ(sys_lseek(e.t, fd, 0, SEEK_DATA), tib);
	VT_EQ(sys_lseek(e.t, fd, tib, SEEK_HOLE), tib + PAGE);
	VT_EQ(sys_lseek(e.t, fd, tib + PAGE, SEEK_DATA), 1ll << 52);
	VT_EQ(sys_pread64(e.t, fd, buf, 4, tib - 1), 4);
	ck_assert_mem_eq(buf, "\0abc", 4);
	VT_EQ(sys_close(e.t, fd), 0);
	fd = VT_OK(sys_open(e.t, "/s", O_RDWR, 0644));
	VT_EQ(sys_pwrite64(e.t, fd, "x", 1, last), 1);
	VT_EQ(sys_pwrite64(e.t, fd, "yy", 2, LLONG_MAX - 1), -EINVAL);
	VT_EQ(sys_pwrite64(e.t, fd, "y", 1, LLONG_MAX - 1), 1);
	VT_EQ(sys_pwrite64(e.t, fd, "y", 1, LLONG_MAX), -EINVAL);
	VT_EQ(sys_fstat(e.t, fd, &st), 0);
	ck_assert_int_eq(st.st_size, LLONG_MAX);
	ck_assert_int_eq(st.st_blocks, 24);
	VT_EQ(sys_lseek(e.t, fd, (1ll << 52) + 1, SEEK_DATA), (1ll << 52) + 1);
	VT_EQ(sys_lseek(e.t, fd, (1ll << 52) + PAGE, SEEK_DATA), -ENXIO);
	VT_EQ(sys_lseek(e.t, fd, last - 1, SEEK_HOLE), last - 1);
	VT_EQ(sys_lseek(e.t, fd, last, SEEK_HOLE), LLONG_MIN);
	VT_EQ(sys_lseek(e.t, fd, 0, SEEK_CUR), last - 1); /* not moved by that */
	VT_EQ(sys_ftruncate(e.t, fd, tib + 1), 0);
	VT_EQ(sys_fstat(e.t, fd, &st), 0);
	ck_assert_int_eq(st.st_blocks, 8);
	VT_EQ(sys_ftruncate(e.t, fd, 0), 0);
	VT_EQ(sys_fstat(e.t, fd, &st), 0);
	ck_assert_int_eq(st.st_blocks, 0);
	/* The filesystem's page count (tmpfs' used_blocks) is back to 0. */
	ck_assert_int_eq(atomic_long_read(&d_inode(e.v, e.v->root)->i_sb->shmem_pages), 0);
	VT_EQ(sys_close(e.t, fd), 0);
	vt_end(&e);
}
END_TEST

/*
 * Fifos keep 16 page-sized buffers: a write that fits merges into the
 * last one, else it needs a free buffer (Linux 6.18: after 16 full pages
 * and a 1-byte read, a 1-byte write is EAGAIN).
 */
START_TEST(test_fifo_buffers)
{
	static char page[PAGE], big[17 * PAGE];
	struct vt e;
	long fd;

	vt_begin(&e, "");
	VT_EQ(sys_mknod(e.t, "/p", S_IFIFO | 0644, 0), 0);
	fd = VT_OK(sys_open(e.t, "/p", O_RDWR | O_NONBLOCK, 0));
	for (int i = 0; i < 16; i++)
		VT_EQ(sys_write(e.t, fd, page, PAGE), PAGE);
	VT_EQ(sys_read(e.t, fd, big, 1), 1);
	VT_EQ(sys_write(e.t, fd, "x", 1), -EAGAIN);
	VT_EQ(sys_read(e.t, fd, big, PAGE - 1), PAGE - 1);
	VT_EQ(sys_write(e.t, fd, "x", 1), 1);
	VT_EQ(sys_write(e.t, fd, page, PAGE), -EAGAIN);
	VT_EQ(sys_write(e.t, fd, "abc", 3), 3);
	VT_EQ(sys_read(e.t, fd, big, sizeof(big)), 15 * PAGE + 4);
	VT_EQ(sys_read(e.t, fd, big, 1), -EAGAIN);
	/* Packets: each write a buffer, each read one packet at most. */
	VT_EQ(sys_fcntl(e.t, fd, F_SETFL, O_DIRECT | O_NONBLOCK), 0);
	VT_EQ(sys_write(e.t, fd, big, PAGE + 10), PAGE + 10);
	VT_EQ(sys_write(e.t, fd, "hello", 5), 5);
	VT_EQ(sys_read(e.t, fd, big, 100), 100);
	VT_EQ(sys_read(e.t, fd, big, sizeof(big)), 10);
	VT_EQ(sys_read(e.t, fd, big, sizeof(big)), 5);
	VT_EQ(sys_read(e.t, fd, big, sizeof(big)), -EAGAIN);
	VT_EQ(sys_close(e.t, fd), 0);
	vt_end(&e);
}
END_TEST

START_TEST(test_getcwd)
{
	struct vt e;
	struct stat st;
	char buf[256];

	vt_begin(&e, "");
	VT_EQ(sys_getcwd(e.t, buf, sizeof(buf)), 2);
	ck_assert_str_eq(buf, "/");
	VT_EQ(sys_mkdir(e.t, "/a", 0755), 0);
	VT_EQ(sys_mkdir(e.t, "/a/b", 0755), 0);
	VT_EQ(sys_mkdir(e.t, "/a/b/c", 0755), 0);
	VT_EQ(sys_chdir(e.t, "/a/b/c"), 0);
	VT_EQ(sys_getcwd(e.t, buf, sizeof(buf)), 7);
	ck_assert_str_eq(buf, "/a/b/c");
	/* Renaming an ancestor renames the cwd's path. */
	VT_EQ(sys_rename(e.t, "/a", "/zz"), 0);
	VT_EQ(sys_getcwd(e.t, buf, sizeof(buf)), 8);
	ck_assert_str_eq(buf, "/zz/b/c");
	VT_EQ(sys_rename(e.t, "/zz/b", "/b2"), 0);
	VT_EQ(sys_getcwd(e.t, buf, sizeof(buf)), 6);
	ck_assert_str_eq(buf, "/b2/c");
	/* The path is the dentries', not the one chdir() was given. */
	VT_EQ(sys_symlink(e.t, "/b2/c", "/link"), 0);
	VT_EQ(sys_chdir(e.t, "/link/."), 0);
	VT_EQ(sys_getcwd(e.t, buf, sizeof(buf)), 6);
	ck_assert_str_eq(buf, "/b2/c");
	VT_EQ(sys_getcwd(e.t, buf, 5), -ERANGE);
	VT_EQ(sys_getcwd(e.t, buf, 6), 6);
	/* Removed: getcwd is ENOENT, "." still stats, nothing can be created. */
	VT_EQ(sys_rmdir(e.t, "/b2/c"), 0);
	VT_EQ(sys_getcwd(e.t, buf, sizeof(buf)), -ENOENT);
	VT_EQ(sys_stat(e.t, ".", &st), 0);
	ck_assert_uint_eq(st.st_nlink, 0);
	VT_EQ(sys_open(e.t, "newfile", O_CREAT | O_RDWR, 0644), -ENOENT);
	VT_EQ(sys_mkdir(e.t, "x", 0755), -ENOENT);
	VT_EQ(sys_stat(e.t, "..", &st), 0);
	ck_assert_uint_eq(st.st_ino, vt_ino(e.t, "/b2"));
	VT_EQ(sys_chdir(e.t, ".."), 0);
	VT_EQ(sys_getcwd(e.t, buf, sizeof(buf)), 4);
	ck_assert_str_eq(buf, "/b2");
	VT_EQ(sys_chdir(e.t, "/"), 0);
	vt_end(&e);
}
END_TEST

/* getcwd fits a path of 4095 bytes and its NUL; one more is ENAMETOOLONG. */
START_TEST(test_getcwd_path_max)
{
	static char buf[8192];
	char n[256], m[256];
	struct vt e;

	vt_begin(&e, "");
	memset(n, 'a', 255);
	n[255] = '\0';
	memset(m, 'b', 254);
	m[254] = '\0';
	for (int i = 0; i < 15; i++) {
		VT_EQ(sys_mkdir(e.t, n, 0755), 0);
		VT_EQ(sys_chdir(e.t, n), 0);
	}
	VT_EQ(sys_mkdir(e.t, m, 0755), 0);
	VT_EQ(sys_chdir(e.t, m), 0);
	VT_EQ(sys_getcwd(e.t, buf, sizeof(buf)), 4096);
	ck_assert_uint_eq(strlen(buf), 4095);
	VT_EQ(sys_getcwd(e.t, buf, 4095), -ERANGE);
	VT_EQ(sys_mkdir(e.t, "x", 0755), 0);
	VT_EQ(sys_chdir(e.t, "x"), 0);
	VT_EQ(sys_getcwd(e.t, buf, sizeof(buf)), -ENAMETOOLONG);
	/* The walk itself is not limited by depth, only by each path's length. */
	VT_EQ(sys_stat(e.t, "..", &(struct stat){ 0 }), 0);
	VT_EQ(sys_chdir(e.t, "/"), 0);
	vt_end(&e);
}
END_TEST

START_TEST(test_umask)
{
	struct vt e;
	struct task *child, *thr;
	struct stat st;

	vt_begin(&e, "");
	VT_EQ(sys_umask(e.t, 027), 022);
	VT_EQ(sys_close(e.t, VT_OK(sys_creat(e.t, "/c", 0666))), 0);
	VT_EQ(sys_stat(e.t, "/c", &st), 0);
	ck_assert_uint_eq(st.st_mode, S_IFREG | 0640);
	VT_EQ(sys_mkdir(e.t, "/d", 0777), 0);
	VT_EQ(sys_stat(e.t, "/d", &st), 0);
	ck_assert_uint_eq(st.st_mode, S_IFDIR | 0750);
	VT_EQ(sys_mknod(e.t, "/p", S_IFIFO | 0666, 0), 0);
	VT_EQ(sys_stat(e.t, "/p", &st), 0);
	ck_assert_uint_eq(st.st_mode, S_IFIFO | 0640);
	VT_EQ(sys_symlink(e.t, "c", "/l"), 0);
	VT_EQ(sys_lstat(e.t, "/l", &st), 0);
	ck_assert_uint_eq(st.st_mode, S_IFLNK | 0777);
	/* Only the permission bits; sticky survives a zero umask. */
	VT_EQ(sys_umask(e.t, 0777 | S_ISVTX), 027);
	VT_EQ(sys_umask(e.t, 0), 0777);
	VT_EQ(sys_mkdir(e.t, "/t", 01777), 0);
	VT_EQ(sys_stat(e.t, "/t", &st), 0);
	ck_assert_uint_eq(st.st_mode, S_IFDIR | 01777);
	/* Open with an existing file keeps its mode. */
	VT_EQ(sys_umask(e.t, 077), 0);
	VT_EQ(sys_close(e.t, VT_OK(sys_open(e.t, "/c", O_CREAT | O_WRONLY, 0666))), 0);
	VT_EQ(sys_stat(e.t, "/c", &st), 0);
	ck_assert_uint_eq(st.st_mode, S_IFREG | 0640);
	/* fork copies the umask; CLONE_FS shares it. */
	child = task_fork(e.t, 0);
	thr = task_fork(e.t, TASK_CLONE_FS | TASK_CLONE_FILES);
	ck_assert_ptr_nonnull(child);
	ck_assert_ptr_nonnull(thr);
	VT_EQ(sys_umask(child, 0), 077);
	VT_EQ(sys_umask(e.t, 077), 077);
	VT_EQ(sys_umask(thr, 002), 077);
	VT_EQ(sys_umask(e.t, 022), 002);
	VT_EQ(sys_umask(child, 0), 0);
	task_exit(child);
	task_exit(thr);
	vt_end(&e);
}
END_TEST

START_TEST(test_fifo)
{
	struct vt e;
	char buf[16];
	long r, w, rw;

	vt_begin(&e, "");
	VT_EQ(sys_mknod(e.t, "/fifo", S_IFIFO | 0644, 0), 0);
	/* A non-blocking writer needs a reader. */
	VT_EQ(sys_open(e.t, "/fifo", O_WRONLY | O_NONBLOCK, 0), -ENXIO);
	r = VT_OK(sys_open(e.t, "/fifo", O_RDONLY | O_NONBLOCK, 0));
	VT_EQ(sys_read(e.t, r, buf, sizeof(buf)), 0); /* no writer: EOF */
	w = VT_OK(sys_open(e.t, "/fifo", O_WRONLY | O_NONBLOCK, 0));
	VT_EQ(sys_read(e.t, r, buf, sizeof(buf)), -EAGAIN);
	VT_EQ(sys_write(e.t, w, "abc", 3), 3);
	VT_EQ(sys_write(e.t, w, "de", 2), 2);
	VT_EQ(sys_read(e.t, r, buf, 4), 4);
	ck_assert_int_eq(memcmp(buf, "abcd", 4), 0);
	VT_EQ(sys_read(e.t, r, buf, sizeof(buf)), 1);
	ck_assert_int_eq(buf[0], 'e');
	/* No seeking, no positioned I/O. */
	VT_EQ(sys_lseek(e.t, w, 0, SEEK_SET), -ESPIPE);
	VT_EQ(sys_pread64(e.t, r, buf, 1, 0), -ESPIPE);
	VT_EQ(sys_pwrite64(e.t, w, "x", 1, 0), -ESPIPE);
	/* The reader gone, writes break the pipe. */
	VT_EQ(sys_close(e.t, r), 0);
	VT_EQ(sys_write(e.t, w, "abc", 3), -EPIPE);
	rw = VT_OK(sys_open(e.t, "/fifo", O_RDWR, 0));
	VT_EQ(sys_write(e.t, w, "xy", 2), 2);
	VT_EQ(sys_read(e.t, rw, buf, sizeof(buf)), 2);
	VT_EQ(sys_close(e.t, rw), 0);
	VT_EQ(sys_close(e.t, w), 0);
	VT_EQ(sys_open(e.t, "/fifo", O_WRONLY | O_NONBLOCK, 0), -ENXIO);
	vt_end(&e);
}
END_TEST

START_TEST(test_tmpfile)
{
	struct vt e;
	struct vt_inuse before, after;
	struct stat st;
	char buf[256];
	long dfd, tf, tx, len;

	vt_begin(&e, "");
	VT_EQ(sys_mkdir(e.t, "/d", 0755), 0);
	vt_touch(e.t, "/f");
	before = vt_inuse(e.v);
	tf = VT_OK(sys_open(e.t, "/d", O_TMPFILE | O_RDWR, 0666));
	VT_EQ(sys_fstat(e.t, tf, &st), 0);
	ck_assert_uint_eq(st.st_mode, S_IFREG | 0644); /* umask 022 */
	ck_assert_uint_eq(st.st_nlink, 0);
	VT_EQ(sys_write(e.t, tf, "hello", 5), 5);
	/* Nameless: the directory lists nothing. */
	dfd = VT_OK(sys_open(e.t, "/d", O_RDONLY | O_DIRECTORY, 0));
	len = VT_OK(sys_getdents64(e.t, dfd, buf, sizeof(buf)));
	ck_assert_int_eq(len, 24 + 24); /* "." and ".." */
	/* linkat(fd, "", AT_EMPTY_PATH) gives it names. */
	VT_EQ(sys_linkat(e.t, tf, "", AT_FDCWD, "/d/named", AT_EMPTY_PATH), 0);
	VT_EQ(sys_stat(e.t, "/d/named", &st), 0);
	ck_assert_uint_eq(st.st_nlink, 1);
	ck_assert_int_eq(st.st_size, 5);
	VT_EQ(sys_linkat(e.t, tf, "", AT_FDCWD, "/d/named2", AT_EMPTY_PATH), 0);
	VT_EQ(sys_fstat(e.t, tf, &st), 0);
	ck_assert_uint_eq(st.st_nlink, 2);
	ck_assert_uint_eq(st.st_ino, vt_ino(e.t, "/d/named2"));
	VT_EQ(sys_linkat(e.t, tf, "", AT_FDCWD, "/d/named", AT_EMPTY_PATH), -EEXIST);
	VT_EQ(sys_linkat(e.t, tf, "", AT_FDCWD, "/d/x", 0), -ENOENT);
	/* O_EXCL: never linkable. */
	tx = VT_OK(sys_open(e.t, "/d", O_TMPFILE | O_RDWR | O_EXCL, 0600));
	VT_EQ(sys_linkat(e.t, tx, "", AT_FDCWD, "/d/x", AT_EMPTY_PATH), -ENOENT);
	VT_EQ(sys_close(e.t, tx), 0);
	/* Bad combinations. */
	VT_EQ(sys_open(e.t, "/d", O_TMPFILE | O_RDONLY, 0600), -EINVAL);
	VT_EQ(sys_open(e.t, "/d", O_TMPFILE | O_CREAT | O_RDWR, 0600), -EINVAL);
	VT_EQ(sys_open(e.t, "/f", O_TMPFILE | O_RDWR, 0600), -ENOTDIR);
	VT_EQ(sys_open(e.t, "/nope", O_TMPFILE | O_RDWR, 0600), -ENOENT);
	VT_EQ(sys_close(e.t, dfd), 0);
	VT_EQ(sys_close(e.t, tf), 0);
	VT_EQ(sys_unlink(e.t, "/d/named"), 0);
	VT_EQ(sys_unlink(e.t, "/d/named2"), 0);
	/* An unlinked tmpfile leaves nothing behind once closed. */
	tx = VT_OK(sys_open(e.t, "/d", O_TMPFILE | O_WRONLY, 0600));
	VT_EQ(sys_close(e.t, tx), 0);
	after = vt_inuse(e.v);
	ck_assert_int_eq(after.dentries, before.dentries);
	ck_assert_int_eq(after.inodes, before.inodes);
	ck_assert_int_eq(after.files, before.files);
	vt_end(&e);
}
END_TEST

/*
 * Since Linux 6.10 (commit 42bd2af59504, "vfs: relax linkat() AT_EMPTY_PATH
 * - aka flink() - requirements") anyone may link a file they opened
 * themselves; a file opened with other credentials still needs
 * CAP_DAC_READ_SEARCH. Checked on 6.18 as uid 1000.
 */
START_TEST(test_tmpfile_flink_unprivileged)
{
	struct vt e;
	struct task *u;
	long tf, rf;

	vt_begin(&e, "");
	VT_EQ(sys_chmod(e.t, "/", 0777), 0);
	vt_touch(e.t, "/rootfile");
	rf = VT_OK(sys_open(e.t, "/rootfile", O_RDONLY, 0));
	u = task_fork(e.t, 0);
	ck_assert_ptr_nonnull(u);
	VT_EQ(task_set_creds(u, 1000, 1000, 1000, 1000, NULL, 0), 0);
	tf = VT_OK(sys_open(u, "/", O_TMPFILE | O_RDWR, 0600));
	VT_EQ(sys_linkat(u, rf, "", AT_FDCWD, "/stolen", AT_EMPTY_PATH), -ENOENT);
	VT_EQ(sys_linkat(u, tf, "", AT_FDCWD, "/flink", AT_EMPTY_PATH), 0);
	task_exit(u);
	VT_EQ(sys_close(e.t, rf), 0);
	vt_end(&e);
}
END_TEST

/*
 * relatime, as the host's tmpfs showed: a read (even of 0 bytes, even at
 * EOF), getdents and readlink or following a link set atime when it is not
 * newer than mtime/ctime; never when it is, never with O_NOATIME, never on
 * a read-only mount; opening alone never.
 */
static long long atime_of(struct task *t, const char *path, bool follow)
{
	struct stat st;

	VT_EQ(follow ? sys_stat(t, path, &st) : sys_lstat(t, path, &st), 0);
	return st.st_atim.tv_sec;
}

/* atime 100 s after the epoch, mtime 200: older than the last change. */
static void set_old_atime(struct task *t, const char *path)
{
	const struct timespec ts[2] = { { 100, 0 }, { 200, 0 } };

	VT_EQ(sys_utimensat(t, AT_FDCWD, path, ts, AT_SYMLINK_NOFOLLOW), 0);
}

START_TEST(test_relatime)
{
	const struct timespec future[2] = { { 4000000000, 0 }, { 200, 0 } };
	char buf[64];
	struct vt e;
	long fd;

	vt_begin(&e, "");
	vt_put(e.t, "/f", "hello", 5);
	VT_OK(sys_mkdir(e.t, "/d", 0755));
	VT_OK(sys_mkdir(e.t, "/m", 0755));
	vt_put(e.t, "/m/h", "hello", 5);
	VT_EQ(sys_symlink(e.t, "f", "/l"), 0);

	set_old_atime(e.t, "/f");
	fd = VT_OK(sys_open(e.t, "/f", O_RDONLY, 0));
	ck_assert_int_eq(atime_of(e.t, "/f", true), 100); /* open alone: no */
	VT_EQ(sys_pread64(e.t, fd, buf, 0, 0), 0);
	ck_assert_int_gt(atime_of(e.t, "/f", true), 200); /* a 0-byte read: yes */
	set_old_atime(e.t, "/f");
	VT_EQ(sys_pread64(e.t, fd, buf, sizeof(buf), 100), 0);
	ck_assert_int_gt(atime_of(e.t, "/f", true), 200); /* at EOF: yes */
	VT_EQ(sys_close(e.t, fd), 0);

	/* Newer than every change: relatime leaves it. */
	VT_EQ(sys_utimensat(e.t, AT_FDCWD, "/f", future, 0), 0);
	fd = VT_OK(sys_open(e.t, "/f", O_RDONLY, 0));
	VT_EQ(sys_read(e.t, fd, buf, sizeof(buf)), 5);
	ck_assert_int_eq(atime_of(e.t, "/f", true), 4000000000);
	VT_EQ(sys_close(e.t, fd), 0);

	set_old_atime(e.t, "/f");
	fd = VT_OK(sys_open(e.t, "/f", O_RDONLY | O_NOATIME, 0));
	VT_EQ(sys_read(e.t, fd, buf, sizeof(buf)), 5);
	ck_assert_int_eq(atime_of(e.t, "/f", true), 100);
	VT_EQ(sys_close(e.t, fd), 0);

	set_old_atime(e.t, "/d");
	fd = VT_OK(sys_open(e.t, "/d", O_RDONLY | O_DIRECTORY, 0));
	VT_OK(sys_getdents64(e.t, fd, buf, sizeof(buf)));
	ck_assert_int_gt(atime_of(e.t, "/d", true), 200);
	VT_EQ(sys_close(e.t, fd), 0);

	set_old_atime(e.t, "/l");
	VT_EQ(sys_readlink(e.t, "/l", buf, sizeof(buf)), 1);
	ck_assert_int_gt(atime_of(e.t, "/l", false), 200);
	set_old_atime(e.t, "/l");
	set_old_atime(e.t, "/f");
	ck_assert_int_eq(atime_of(e.t, "/l", true), 100); /* stat follows it... */
	ck_assert_int_gt(atime_of(e.t, "/l", false), 200); /* ...and reads the link */

	/* Through a read-only bind mount, reads leave atime. */
	set_old_atime(e.t, "/m/h");
	VT_EQ(sys_mount(e.t, "/m", "/m", NULL, MS_BIND, NULL), 0);
	VT_EQ(sys_mount(e.t, NULL, "/m", NULL, MS_BIND | MS_REMOUNT | MS_RDONLY, NULL), 0);
	fd = VT_OK(sys_open(e.t, "/m/h", O_RDONLY, 0));
	VT_EQ(sys_read(e.t, fd, buf, sizeof(buf)), 5);
	ck_assert_int_eq(atime_of(e.t, "/m/h", true), 100);
	VT_EQ(sys_close(e.t, fd), 0);
	VT_EQ(sys_umount2(e.t, "/m", 0), 0);
	vt_end(&e);
}
END_TEST

/* Lockref operations done without the lock, on this thread, so far. */
static uint64_t lockref_fast(void)
{
	uint64_t v[STAT_NR];

	stat_read_self(v);
	return v[STAT_LOCKREF_FAST];
}

/*
 * In a watched directory (fsnotify-parent=on) every read and write that
 * moves data notifies, pread and pwrite included, as vfs_read() and
 * vfs_write() call fsnotify_access() and fsnotify_modify(): one
 * dget_parent() and one dput() of the directory, both lockref fast paths
 * for a lone task. Nothing moved, nothing notified; unwatched, never.
 */
START_TEST(test_rw_notify_parent)
{
	static const char *const spec[] = { "fsnotify-parent=on", "fsnotify-parent=off" };
	const uint64_t want = _i == 0 ? 2 : 0;
	struct vt e;
	char buf[8] = "abcdefg";
	uint64_t before;
	long fd;
	int refs;

	vt_begin(&e, spec[_i]);
	VT_EQ(sys_mkdir(e.t, "/d", 0755), 0);
	fd = VT_OK(sys_open(e.t, "/d/f", O_CREAT | O_RDWR, 0644));
	refs = vt_dcount(e.t, "/d");
	before = lockref_fast();
	VT_EQ(sys_write(e.t, fd, buf, 4), 4);
	ck_assert_uint_eq(lockref_fast() - before, want);
	before = lockref_fast();
	VT_EQ(sys_pwrite64(e.t, fd, buf, 4, 4), 4);
	ck_assert_uint_eq(lockref_fast() - before, want);
	before = lockref_fast();
	VT_EQ(sys_pread64(e.t, fd, buf, 8, 0), 8);
	ck_assert_uint_eq(lockref_fast() - before, want);
	VT_EQ(sys_lseek(e.t, fd, 0, SEEK_SET), 0);
	before = lockref_fast();
	VT_EQ(sys_read(e.t, fd, buf, 8), 8);
	ck_assert_uint_eq(lockref_fast() - before, want);
	before = lockref_fast();
	VT_EQ(sys_read(e.t, fd, buf, 8), 0); /* at the end: nothing to notify */
	VT_EQ(sys_pwrite64(e.t, fd, buf, 0, 0), 0);
	VT_EQ(sys_pread64(e.t, fd, buf, 8, -1), -EINVAL);
	ck_assert_uint_eq(lockref_fast() - before, 0);
	ck_assert_int_eq(vt_dcount(e.t, "/d"), refs); /* every get put back */
	VT_EQ(sys_close(e.t, fd), 0);
	vt_end(&e);
}
END_TEST

static Suite *syscalls_suite(void)
{
	Suite *s = suite_create("syscalls");
	TCase *tc = tcase_create("syscalls");
	TCase *bugs = tcase_create("linux-divergence");

	tcase_add_test(tc, test_rw_across_pages);
	tcase_add_test(tc, test_sparse_read_zeros);
	tcase_add_test(tc, test_append);
	tcase_add_test(tc, test_truncate);
	tcase_add_test(tc, test_st_blocks_sparse);
	tcase_add_test(tc, test_getdents_stable);
	tcase_add_test(tc, test_getdents_seek_to_d_off);
	tcase_add_test(tc, test_getdents_order);
	tcase_add_test(tc, test_getdents_order_v66);
	tcase_add_test(tc, test_getdents_order_negative_cache);
	tcase_add_test(tc, test_fallocate_holes_enospc);
	tcase_add_test(tc, test_sparse_huge_offsets);
	tcase_add_test(tc, test_fifo_buffers);
	tcase_add_test(tc, test_getcwd);
	tcase_add_test(tc, test_getcwd_path_max);
	tcase_add_test(tc, test_umask);
	tcase_add_test(tc, test_fifo);
	tcase_add_test(tc, test_tmpfile);
	tcase_add_test(tc, test_relatime);
	tcase_add_loop_test(tc, test_rw_notify_parent, 0, 2);
	suite_add_tcase(s, tc);
	/* Where vfslab answered differently from Linux when written. */
	tcase_add_test(bugs, test_seek_data_hole_sparse);
	tcase_add_test(bugs, test_read_directory);
	tcase_add_test(bugs, test_tmpfile_flink_unprivileged);
	suite_add_tcase(s, bugs);
	return s;
}

VT_MAIN(syscalls_suite)
