// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * statloop: vfslab as a library, the smallest workload. Builds a VFS,
 * creates a file in it, stat()s it N times (default 1000000) and prints
 * the rate. Built against an installed vfslab:
 *
 *	cc statloop.c $(pkg-config --cflags --libs vfslab) -o statloop
 *	./statloop [N]
 *
 * Exits 1 if a call fails or stat() reports other than what was created.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <vfs/vfs.h>

static const char data[] = "hello, vfslab\n";

/* The file the loop stats: a regular file, 0644, holding data. */
static int make_file(struct task *t, const char *path)
{
	long fd = sys_open(t, path, O_CREAT | O_WRONLY | O_EXCL, 0644);
	long n;

	if (fd < 0)
		return (int)fd;
	n = sys_write(t, (int)fd, data, sizeof(data) - 1);
	if (n != sizeof(data) - 1)
		return n < 0 ? (int)n : -EIO;
	return (int)sys_close(t, (int)fd);
}

static int stat_loop(struct task *t, const char *path, unsigned long n)
{
	struct stat st;

	for (unsigned long i = 0; i < n; i++) {
		long ret = sys_stat(t, path, &st);

		if (ret) {
			fprintf(stderr, "statloop: stat %s: %s\n", path, strerror((int)-ret));
			return -1;
		}
	}
	if (!S_ISREG(st.st_mode) || (st.st_mode & 07777) != 0644 ||
	    st.st_size != sizeof(data) - 1) {
		fprintf(stderr, "statloop: %s: mode %o, size %lld\n", path,
			(unsigned int)st.st_mode, (long long)st.st_size);
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 10) : 1000000;
	struct timespec start, end;
	struct vfs_config cfg;
	struct task *t;
	struct vfs *vfs;
	char err[256];
	double secs;
	int ret;

	vfs_thread_enter();
	vfs_config_default(&cfg);
	vfs = vfs_new(&cfg, err, sizeof(err));
	if (!vfs) {
		fprintf(stderr, "statloop: vfs_new: %s\n", err);
		return 1;
	}
	t = task_create_init(vfs);
	ret = make_file(t, "/file");
	if (ret) {
		fprintf(stderr, "statloop: creating /file: %s\n", strerror(-ret));
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &start);
	ret = stat_loop(t, "/file", n);
	clock_gettime(CLOCK_MONOTONIC, &end);
	if (ret)
		return 1;
	secs = (double)(end.tv_sec - start.tv_sec) + (end.tv_nsec - start.tv_nsec) / 1e9;
	printf("statloop: %lu stat() calls in %.3f s: %.0f ops/s\n", n, secs,
	       secs > 0 ? n / secs : 0.0);
	task_exit(t);
	if (vfs_destroy(vfs)) {
		fprintf(stderr, "statloop: vfs_destroy: objects leaked\n");
		return 1;
	}
	vfs_thread_exit();
	return 0;
}
