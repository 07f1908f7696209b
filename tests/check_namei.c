// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Tests for vfs/namei.c: the path walk's edge cases as the syscalls see
 * them (dots, slashes, *at dirfds, trailing slashes, symlinks and their
 * limits, NAME_MAX and PATH_MAX, search permission), and the RCU-walk
 * counters of a stat. The expected errnos are the host kernel's on tmpfs.
 */
#include "tests/vfs_test.h"

/* / -> a -> b -> c -> f, plus a file at the top. */
static void make_tree(struct task *t)
{
	VT_EQ(sys_mkdir(t, "/a", 0755), 0);
	VT_EQ(sys_mkdir(t, "/a/b", 0755), 0);
	VT_EQ(sys_mkdir(t, "/a/b/c", 0755), 0);
	vt_touch(t, "/a/b/c/f");
	vt_touch(t, "/f");
}

START_TEST(test_dots)
{
	struct vt e;
	unsigned long root, a, b;
	struct stat st;

	vt_begin(&e, "");
	make_tree(e.t);
	root = vt_ino(e.t, "/");
	a = vt_ino(e.t, "/a");
	b = vt_ino(e.t, "/a/b");
	ck_assert_uint_ne(root, a);
	/* ".." of the root is the root, however often. */
	ck_assert_uint_eq(vt_ino(e.t, "/.."), root);
	ck_assert_uint_eq(vt_ino(e.t, "/../../.."), root);
	ck_assert_uint_eq(vt_ino(e.t, ".."), root);
	ck_assert_uint_eq(vt_ino(e.t, "."), root);
	ck_assert_uint_eq(vt_ino(e.t, "a/b/c/../.."), a);
	ck_assert_uint_eq(vt_ino(e.t, "a/./b/."), b);
	ck_assert_uint_eq(vt_ino(e.t, "/a/b/c/../../../a/b"), b);
	ck_assert_uint_eq(vt_ino(e.t, "/../a/../../a/b/./c/.."), b);
	/* ".." inside a missing directory is a missing directory. */
	VT_EQ(sys_stat(e.t, "/nope/..", &st), -ENOENT);
	/* A file is no directory, so "f/." and "f/.." fail. */
	VT_EQ(sys_stat(e.t, "/f/.", &st), -ENOTDIR);
	VT_EQ(sys_stat(e.t, "/f/..", &st), -ENOTDIR);
	/* From a deeper cwd. */
	VT_EQ(sys_chdir(e.t, "/a/b/c"), 0);
	ck_assert_uint_eq(vt_ino(e.t, "../.."), a);
	ck_assert_uint_eq(vt_ino(e.t, "../../../../../.."), root);
	ck_assert_uint_eq(vt_ino(e.t, "./f"), vt_ino(e.t, "/a/b/c/f"));
	VT_EQ(sys_chdir(e.t, "/"), 0);
	vt_end(&e);
}
END_TEST

START_TEST(test_slashes)
{
	struct vt e;
	unsigned long b;
	struct stat st;

	vt_begin(&e, "");
	make_tree(e.t);
	b = vt_ino(e.t, "/a/b");
	ck_assert_uint_eq(vt_ino(e.t, "//a//b/"), b);
	ck_assert_uint_eq(vt_ino(e.t, "///a///b///"), b);
	ck_assert_uint_eq(vt_ino(e.t, "a//b"), b);
	ck_assert_uint_eq(vt_ino(e.t, "///"), vt_ino(e.t, "/"));
	VT_EQ(sys_stat(e.t, "//a//nope/", &st), -ENOENT);
	/* The final component after repeated slashes is still looked up. */
	ck_assert_uint_eq(vt_ino(e.t, "//a//b//c//f"), vt_ino(e.t, "/a/b/c/f"));
	vt_end(&e);
}
END_TEST

START_TEST(test_trailing_slash)
{
	struct vt e;
	struct stat st;
	long fd;

	vt_begin(&e, "");
	make_tree(e.t);
	VT_EQ(sys_mkdir(e.t, "/d", 0755), 0);
	/* A trailing slash demands a directory. */
	VT_EQ(sys_stat(e.t, "/f/", &st), -ENOTDIR);
	VT_EQ(sys_lstat(e.t, "/f/", &st), -ENOTDIR);
	VT_EQ(sys_stat(e.t, "/f//", &st), -ENOTDIR);
	VT_EQ(sys_open(e.t, "/f/", O_RDONLY, 0), -ENOTDIR);
	VT_EQ(sys_open(e.t, "/f/", O_CREAT | O_WRONLY, 0644), -EISDIR);
	VT_EQ(sys_open(e.t, "/g/", O_CREAT | O_WRONLY, 0644), -EISDIR);
	VT_EQ(sys_stat(e.t, "/g", &st), -ENOENT);
	VT_EQ(sys_unlink(e.t, "/f/"), -ENOTDIR);
	VT_EQ(sys_rmdir(e.t, "/f/"), -ENOTDIR);
	VT_EQ(sys_unlink(e.t, "/d/"), -EISDIR);
	VT_EQ(sys_rename(e.t, "/f/", "/g"), -ENOTDIR);
	VT_EQ(sys_rename(e.t, "/f", "/g/"), -ENOTDIR);
	VT_EQ(sys_stat(e.t, "/f", &st), 0);
	/* ...which a directory is. */
	VT_EQ(sys_stat(e.t, "/d/", &st), 0);
	ck_assert(S_ISDIR(st.st_mode));
	VT_EQ(sys_mkdir(e.t, "/e/", 0755), 0);
	VT_EQ(sys_rename(e.t, "/e/", "/e2/"), 0);
	VT_EQ(sys_rmdir(e.t, "/e2//"), 0);
	VT_EQ(sys_stat(e.t, "/e2", &st), -ENOENT);
	/* A trailing slash follows a symlink to a directory, even for lstat. */
	VT_EQ(sys_symlink(e.t, "d", "/ld"), 0);
	VT_EQ(sys_lstat(e.t, "/ld", &st), 0);
	ck_assert(S_ISLNK(st.st_mode));
	VT_EQ(sys_lstat(e.t, "/ld/", &st), 0);
	ck_assert(S_ISDIR(st.st_mode));
	fd = VT_OK(sys_open(e.t, "/ld/", O_RDONLY | O_NOFOLLOW, 0));
	ck_assert_uint_eq(vt_fino(e.t, fd), vt_ino(e.t, "/d"));
	VT_EQ(sys_close(e.t, fd), 0);
	VT_EQ(sys_open(e.t, "/ld", O_RDONLY | O_NOFOLLOW | O_DIRECTORY, 0), -ENOTDIR);
	/* ...but not through a symlink to a file. */
	VT_EQ(sys_symlink(e.t, "f", "/lf"), 0);
	VT_EQ(sys_stat(e.t, "/lf/", &st), -ENOTDIR);
	vt_end(&e);
}
END_TEST

START_TEST(test_dirfd)
{
	struct vt e;
	struct stat st;
	long dfd, ffd, pfd, fd;

	vt_begin(&e, "");
	make_tree(e.t);
	dfd = VT_OK(sys_open(e.t, "/a", O_RDONLY | O_DIRECTORY, 0));
	ffd = VT_OK(sys_open(e.t, "/f", O_RDONLY, 0));
	pfd = VT_OK(sys_open(e.t, "/a/b", O_PATH, 0));
	/* Relative to a directory fd, an O_PATH one, or the cwd. */
	ck_assert_uint_eq(vt_fino(e.t, dfd), vt_ino(e.t, "/a"));
	VT_EQ(sys_fstatat(e.t, dfd, "b/c/f", &st, 0), 0);
	ck_assert_uint_eq(st.st_ino, vt_ino(e.t, "/a/b/c/f"));
	VT_EQ(sys_mkdirat(e.t, dfd, "x", 0755), 0);
	VT_EQ(sys_fstatat(e.t, dfd, "x/..", &st, 0), 0);
	ck_assert_uint_eq(st.st_ino, vt_ino(e.t, "/a"));
	VT_EQ(sys_fstatat(e.t, pfd, "c", &st, 0), 0);
	ck_assert_uint_eq(st.st_ino, vt_ino(e.t, "/a/b/c"));
	fd = VT_OK(sys_openat(e.t, pfd, "c/f", O_RDONLY, 0));
	VT_EQ(sys_close(e.t, fd), 0);
	VT_EQ(sys_chdir(e.t, "/a/b"), 0);
	VT_EQ(sys_fstatat(e.t, AT_FDCWD, "c", &st, 0), 0);
	ck_assert_uint_eq(st.st_ino, vt_ino(e.t, "/a/b/c"));
	VT_EQ(sys_chdir(e.t, "/"), 0);
	/* A bad dirfd is EBADF, a file dirfd ENOTDIR, even for "." and "..". */
	VT_EQ(sys_openat(e.t, 99, "x", O_RDONLY, 0), -EBADF);
	VT_EQ(sys_fstatat(e.t, -1, "f", &st, 0), -EBADF);
	VT_EQ(sys_mkdirat(e.t, 99, "x", 0755), -EBADF);
	VT_EQ(sys_openat(e.t, ffd, "x", O_RDONLY, 0), -ENOTDIR);
	VT_EQ(sys_openat(e.t, ffd, ".", O_RDONLY, 0), -ENOTDIR);
	VT_EQ(sys_openat(e.t, ffd, "..", O_RDONLY, 0), -ENOTDIR);
	VT_EQ(sys_mkdirat(e.t, ffd, "x", 0755), -ENOTDIR);
	/* An absolute path ignores the dirfd, bad or not. */
	fd = VT_OK(sys_openat(e.t, -5, "/f", O_RDONLY, 0));
	VT_EQ(sys_close(e.t, fd), 0);
	fd = VT_OK(sys_openat(e.t, ffd, "/a/b/c/f", O_RDONLY, 0));
	VT_EQ(sys_close(e.t, fd), 0);
	/* The empty path names the dirfd itself only with AT_EMPTY_PATH. */
	VT_EQ(sys_fstatat(e.t, ffd, "", &st, AT_EMPTY_PATH), 0);
	ck_assert_uint_eq(st.st_ino, vt_ino(e.t, "/f"));
	VT_EQ(sys_fstatat(e.t, ffd, "", &st, 0), -ENOENT);
	VT_EQ(sys_fstatat(e.t, AT_FDCWD, "f", &st, 0x12345), -EINVAL);
	VT_EQ(sys_close(e.t, dfd), 0);
	VT_EQ(sys_close(e.t, ffd), 0);
	VT_EQ(sys_close(e.t, pfd), 0);
	vt_end(&e);
}
END_TEST

START_TEST(test_symlink_bodies)
{
	struct vt e;
	unsigned long f, c;
	long fd;

	vt_begin(&e, "");
	make_tree(e.t);
	f = vt_ino(e.t, "/a/b/c/f");
	c = vt_ino(e.t, "/a/b/c");
	/* Absolute body, relative body (from the link's directory), nested. */
	VT_EQ(sys_symlink(e.t, "/a/b/c/f", "/abs"), 0);
	VT_EQ(sys_symlink(e.t, "c/f", "/a/b/rel"), 0);
	VT_EQ(sys_symlink(e.t, "../b/./c", "/a/b/up"), 0);
	VT_EQ(sys_symlink(e.t, "//a///b", "/slashy"), 0);
	VT_EQ(sys_symlink(e.t, "rel", "/a/b/chain"), 0);
	VT_EQ(vt_sino(e.t, "/abs"), f);
	VT_EQ(vt_sino(e.t, "/a/b/rel"), f);
	VT_EQ(vt_sino(e.t, "/a/b/chain"), f);
	/* Links as intermediate components, with ".." after them. */
	VT_EQ(vt_sino(e.t, "/a/b/up/f"), f);
	VT_EQ(vt_sino(e.t, "/slashy/c"), c);
	/* ".." after a link is the target's parent, not the link's. */
	VT_EQ(vt_sino(e.t, "/slashy/.."), vt_ino(e.t, "/a"));
	VT_EQ(vt_sino(e.t, "/a/b/up/.."), vt_ino(e.t, "/a/b"));
	/* Open through the links. */
	fd = VT_OK(sys_open(e.t, "/a/b/up/f", O_RDONLY, 0));
	ck_assert_uint_eq(vt_fino(e.t, fd), f);
	VT_EQ(sys_close(e.t, fd), 0);
	/* A dangling link: stat fails, lstat works, O_CREAT creates the target. */
	VT_EQ(sys_symlink(e.t, "target", "/dang"), 0);
	VT_EQ(vt_sino(e.t, "/dang"), -ENOENT);
	VT_EQ(sys_open(e.t, "/dang", O_CREAT | O_EXCL | O_WRONLY, 0644), -EEXIST);
	fd = VT_OK(sys_open(e.t, "/dang", O_CREAT | O_WRONLY, 0644));
	ck_assert_uint_eq(vt_fino(e.t, fd), vt_ino(e.t, "/target"));
	VT_EQ(sys_close(e.t, fd), 0);
	vt_end(&e);
}
END_TEST

/* l1 -> l2 -> ... -> l41 -> f: from l(k) a walk follows 42 - k links. */
static void make_chain(struct task *t, int n)
{
	char name[32], body[32];

	vt_touch(t, "/f");
	for (int i = 1; i <= n; i++) {
		snprintf(name, sizeof(name), "/l%d", i);
		if (i == n)
			snprintf(body, sizeof(body), "f");
		else
			snprintf(body, sizeof(body), "l%d", i + 1);
		VT_EQ(sys_symlink(t, body, name), 0);
	}
}

START_TEST(test_symlink_limits)
{
	struct vt e;
	struct stat st;
	long fd;

	vt_begin(&e, "");
	make_chain(e.t, 41);
	/* 40 links is MAXSYMLINKS: fine; 41: ELOOP. */
	VT_EQ(sys_stat(e.t, "/l2", &st), 0);
	ck_assert_uint_eq(st.st_ino, vt_ino(e.t, "/f"));
	VT_EQ(sys_stat(e.t, "/l1", &st), -ELOOP);
	fd = VT_OK(sys_open(e.t, "/l2", O_RDONLY, 0));
	VT_EQ(sys_close(e.t, fd), 0);
	VT_EQ(sys_open(e.t, "/l1", O_RDONLY, 0), -ELOOP);
	VT_EQ(sys_lstat(e.t, "/l1", &st), 0);
	ck_assert(S_ISLNK(st.st_mode));
	/* A loop. */
	VT_EQ(sys_symlink(e.t, "lb", "/la"), 0);
	VT_EQ(sys_symlink(e.t, "la", "/lb"), 0);
	VT_EQ(sys_stat(e.t, "/la", &st), -ELOOP);
	VT_EQ(sys_stat(e.t, "/la/x", &st), -ELOOP);
	VT_EQ(sys_open(e.t, "/la", O_CREAT | O_WRONLY, 0644), -ELOOP);
	VT_EQ(sys_lstat(e.t, "/la", &st), 0);
	/* O_NOFOLLOW refuses a final link; O_PATH|O_NOFOLLOW opens the link. */
	VT_EQ(sys_open(e.t, "/la", O_RDONLY | O_NOFOLLOW, 0), -ELOOP);
	VT_EQ(sys_open(e.t, "/l40", O_RDONLY | O_NOFOLLOW, 0), -ELOOP);
	fd = VT_OK(sys_open(e.t, "/la", O_PATH | O_NOFOLLOW, 0));
	VT_EQ(sys_fstat(e.t, fd, &st), 0);
	ck_assert(S_ISLNK(st.st_mode));
	ck_assert_uint_eq(st.st_ino, vt_ino(e.t, "/la"));
	VT_EQ(sys_close(e.t, fd), 0);
	VT_EQ(sys_fstatat(e.t, AT_FDCWD, "/l1", &st, AT_SYMLINK_NOFOLLOW), 0);
	ck_assert(S_ISLNK(st.st_mode));
	/* O_NOFOLLOW only concerns the last component. */
	VT_EQ(sys_mkdir(e.t, "/d", 0755), 0);
	vt_touch(e.t, "/d/g");
	VT_EQ(sys_symlink(e.t, "d", "/ld"), 0);
	fd = VT_OK(sys_open(e.t, "/ld/g", O_RDONLY | O_NOFOLLOW, 0));
	VT_EQ(sys_close(e.t, fd), 0);
	vt_end(&e);
}
END_TEST

/* The 40-link budget is per walk, shared by intermediate components. */
START_TEST(test_symlink_budget_spans_components)
{
	struct vt e;
	struct stat st;
	char name[32], body[32];

	vt_begin(&e, "");
	VT_EQ(sys_mkdir(e.t, "/d", 0755), 0);
	vt_touch(e.t, "/d/f");
	/* m1 -> m2 -> ... -> m20 -> d: 20 links each time "mK/" is crossed. */
	for (int i = 1; i <= 20; i++) {
		snprintf(name, sizeof(name), "/m%d", i);
		snprintf(body, sizeof(body), i == 20 ? "d" : "m%d", i + 1);
		VT_EQ(sys_symlink(e.t, body, name), 0);
	}
	VT_EQ(sys_symlink(e.t, "/m1/f", "/d/back"), 0);
	VT_EQ(sys_symlink(e.t, "/m2/f", "/d/back2"), 0);
	/* 20 + 1 + 19 = 40 links: fine. 20 + 1 + 20 = 41: ELOOP. */
	VT_EQ(sys_stat(e.t, "/m1/back2", &st), 0);
	VT_EQ(sys_stat(e.t, "/m1/back", &st), -ELOOP);
	VT_EQ(sys_stat(e.t, "/m2/back", &st), 0);
	vt_end(&e);
}
END_TEST

START_TEST(test_name_max)
{
	struct vt e;
	struct stat st;
	char n255[300], n256[300], p[700];

	vt_begin(&e, "");
	memset(n255, 'a', 255);
	n255[255] = '\0';
	memset(n256, 'b', 256);
	n256[256] = '\0';
	snprintf(p, sizeof(p), "/%s", n255);
	VT_EQ(sys_mkdir(e.t, p, 0755), 0);
	VT_EQ(sys_stat(e.t, p, &st), 0);
	ck_assert(S_ISDIR(st.st_mode));
	snprintf(p, sizeof(p), "/%s/%s", n255, n255);
	vt_touch(e.t, p);
	VT_EQ(sys_stat(e.t, p, &st), 0);
	snprintf(p, sizeof(p), "/%s", n256);
	VT_EQ(sys_mkdir(e.t, p, 0755), -ENAMETOOLONG);
	VT_EQ(sys_stat(e.t, p, &st), -ENAMETOOLONG);
	VT_EQ(sys_open(e.t, p, O_CREAT | O_WRONLY, 0644), -ENAMETOOLONG);
	VT_EQ(sys_symlink(e.t, "x", p), -ENAMETOOLONG);
	/* A missing directory earlier in the path wins. */
	snprintf(p, sizeof(p), "/nope/%s", n256);
	VT_EQ(sys_stat(e.t, p, &st), -ENOENT);
	snprintf(p, sizeof(p), "/%s/x", n256);
	VT_EQ(sys_stat(e.t, p, &st), -ENAMETOOLONG);
	vt_end(&e);
}
END_TEST

START_TEST(test_path_max)
{
	struct vt e;
	struct stat st;
	static char p[8192];
	size_t n;

	vt_begin(&e, "");
	VT_EQ(sys_mkdir(e.t, "/d", 0755), 0);
	vt_touch(e.t, "/d/f");
	/* 4095 bytes and the NUL fit in PATH_MAX; 4096 do not. */
	memset(p, '/', 4095);
	p[4095] = '\0';
	VT_EQ(sys_stat(e.t, p, &st), 0);
	ck_assert_uint_eq(st.st_ino, vt_ino(e.t, "/"));
	p[4095] = '/';
	p[4096] = '\0';
	VT_EQ(sys_stat(e.t, p, &st), -ENAMETOOLONG);
	VT_EQ(sys_open(e.t, p, O_RDONLY, 0), -ENAMETOOLONG);
	VT_EQ(sys_mkdir(e.t, p, 0755), -ENAMETOOLONG);
	/* A real file at exactly 4095 bytes: "d/./././.../f". */
	strcpy(p, "/d");
	for (n = strlen(p); n + 2 <= 4095 - 2; n += 2)
		strcat(p, "/.");
	while (strlen(p) < 4095 - 2)
		strcat(p, "/");
	strcat(p, "/f");
	ck_assert_uint_eq(strlen(p), 4095);
	VT_EQ(sys_stat(e.t, p, &st), 0);
	ck_assert_uint_eq(st.st_ino, vt_ino(e.t, "/d/f"));
	memmove(p + 1, p, 4096);
	p[0] = '/';
	VT_EQ(sys_stat(e.t, p, &st), -ENAMETOOLONG);
	vt_end(&e);
}
END_TEST

START_TEST(test_empty_path)
{
	struct vt e;
	struct stat st;

	vt_begin(&e, "");
	vt_touch(e.t, "/f");
	VT_EQ(sys_stat(e.t, "", &st), -ENOENT);
	VT_EQ(sys_lstat(e.t, "", &st), -ENOENT);
	VT_EQ(sys_open(e.t, "", O_RDONLY, 0), -ENOENT);
	VT_EQ(sys_open(e.t, "", O_CREAT | O_WRONLY, 0644), -ENOENT);
	VT_EQ(sys_mkdir(e.t, "", 0755), -ENOENT);
	VT_EQ(sys_unlink(e.t, ""), -ENOENT);
	VT_EQ(sys_rmdir(e.t, ""), -ENOENT);
	VT_EQ(sys_rename(e.t, "", "/g"), -ENOENT);
	VT_EQ(sys_rename(e.t, "/f", ""), -ENOENT);
	VT_EQ(sys_symlink(e.t, "", "/l"), -ENOENT);
	VT_EQ(sys_chdir(e.t, ""), -ENOENT);
	VT_EQ(sys_access(e.t, "", F_OK), -ENOENT);
	VT_EQ(sys_stat(e.t, "/f", &st), 0);
	vt_end(&e);
}
END_TEST

START_TEST(test_search_permission_unprivileged)
{
	static const gid_t grp[] = { 500 };
	struct vt e;
	struct task *u;
	struct stat st;

	vt_begin(&e, "");
	make_tree(e.t);
	VT_EQ(sys_mkdir(e.t, "/mine", 0755), 0);
	VT_EQ(sys_chown(e.t, "/mine", 1000, 1000), 0);
	vt_touch(e.t, "/mine/f");
	u = task_fork(e.t, 0);
	ck_assert_ptr_nonnull(u);
	VT_EQ(task_set_creds(u, 1000, 1000, 1000, 1000, NULL, 0), 0);
	VT_EQ(sys_stat(u, "/a/b/c/f", &st), 0);
	/* No x on b for others: everything below b is out of reach. */
	VT_EQ(sys_chmod(e.t, "/a/b", 0700), 0);
	VT_EQ(sys_stat(u, "/a/b/c/f", &st), -EACCES);
	VT_EQ(sys_stat(u, "/a/b/nope", &st), -EACCES);
	VT_EQ(sys_stat(u, "/a/b/..", &st), -EACCES);
	VT_EQ(sys_stat(u, "/a/b", &st), 0);
	VT_EQ(sys_open(u, "/a/b/c/f", O_RDONLY, 0), -EACCES);
	VT_EQ(sys_access(u, "/a/b/c/f", F_OK), -EACCES);
	VT_EQ(sys_mkdir(u, "/a/b/x", 0755), -EACCES);
	VT_EQ(sys_chdir(u, "/a/b"), -EACCES);
	VT_EQ(sys_chdir(u, "/a/b/c"), -EACCES);
	/* x without r: walk through, but no listing. */
	VT_EQ(sys_chmod(e.t, "/a/b", 0711), 0);
	VT_EQ(sys_stat(u, "/a/b/c/f", &st), 0);
	VT_EQ(sys_stat(u, "/a/b/nope", &st), -ENOENT);
	VT_EQ(sys_open(u, "/a/b", O_RDONLY, 0), -EACCES);
	/* r and w without x do not help. */
	VT_EQ(sys_chmod(e.t, "/a/b", 0766), 0);
	VT_EQ(sys_stat(u, "/a/b/c/f", &st), -EACCES);
	VT_EQ(sys_open(u, "/a/b/c/../c/f", O_RDONLY, 0), -EACCES);
	/* The group's bits decide for a member. */
	VT_EQ(sys_chown(e.t, "/a/b", 0, 500), 0);
	VT_EQ(sys_chmod(e.t, "/a/b", 0710), 0);
	VT_EQ(sys_stat(u, "/a/b/c/f", &st), -EACCES);
	VT_EQ(task_set_creds(u, 1000, 1000, 1000, 1000, grp, 1), 0);
	VT_EQ(sys_stat(u, "/a/b/c/f", &st), 0);
	/* The owner's bits decide for the owner, even where others may. */
	VT_EQ(sys_chmod(e.t, "/mine", 0077), 0);
	VT_EQ(sys_stat(u, "/mine/f", &st), -EACCES);
	/* Root searches anything. */
	VT_EQ(sys_stat(e.t, "/mine/f", &st), 0);
	task_exit(u);
	vt_end(&e);
}
END_TEST

START_TEST(test_root_permission_overrides)
{
	struct vt e;
	struct task *u;
	struct stat st;

	vt_begin(&e, "");
	make_tree(e.t);
	/* Root searches and reads directories without any bit... */
	VT_EQ(sys_chmod(e.t, "/a/b", 0), 0);
	VT_EQ(sys_stat(e.t, "/a/b/c/f", &st), 0);
	VT_EQ(sys_access(e.t, "/a/b", X_OK), 0);
	VT_EQ(sys_access(e.t, "/a/b", R_OK | W_OK | X_OK), 0);
	VT_EQ(sys_chdir(e.t, "/a/b"), 0);
	VT_EQ(sys_chdir(e.t, "/"), 0);
	/* ...and reads and writes files, but exec needs some x bit. */
	VT_EQ(sys_chmod(e.t, "/f", 0644), 0);
	VT_EQ(sys_access(e.t, "/f", X_OK), -EACCES);
	VT_EQ(sys_chmod(e.t, "/f", 0), 0);
	VT_EQ(sys_access(e.t, "/f", R_OK | W_OK), 0);
	VT_EQ(sys_access(e.t, "/f", X_OK), -EACCES);
	VT_EQ(sys_chmod(e.t, "/f", 0010), 0);
	VT_EQ(sys_access(e.t, "/f", X_OK), 0);
	VT_EQ(sys_access(e.t, "/f", R_OK | X_OK), 0);
	/* access() checks with the real uid; AT_EACCESS with the effective. */
	VT_EQ(sys_chmod(e.t, "/f", 0600), 0);
	u = task_fork(e.t, 0);
	ck_assert_ptr_nonnull(u);
	VT_EQ(task_set_creds(u, 1000, 0, 1000, 0, NULL, 0), 0);
	VT_EQ(sys_access(u, "/f", R_OK), -EACCES);
	VT_EQ(sys_faccessat(u, AT_FDCWD, "/f", R_OK, AT_EACCESS), 0);
	VT_EQ(sys_access(u, "/a/b/c/f", F_OK), -EACCES);
	VT_EQ(sys_stat(u, "/a/b/c/f", &st), 0);
	VT_EQ(sys_access(u, "/f", 8), -EINVAL);
	task_exit(u);
	vt_end(&e);
}
END_TEST

/* Records what a traced walk did. */
struct trace_log {
	int perms, perm_fail, hits, misses, starts_rcu, starts_ref, unlazy_ok, done;
	int done_err;
};

static void trace_event(void *ctx, enum walk_event ev, const struct dentry *d, const char *name,
			unsigned int len, uint64_t a, uint64_t b, int err)
{
	struct trace_log *l = ctx;

	(void)d, (void)name, (void)len, (void)b;
	switch (ev) {
	case WALK_EV_START:
		if (a)
			l->starts_rcu++;
		else
			l->starts_ref++;
		break;
	case WALK_EV_PERMISSION:
		l->perms++;
		l->perm_fail += err != 0;
		break;
	case WALK_EV_HIT:
		l->hits++;
		break;
	case WALK_EV_MISS:
		l->misses++;
		break;
	case WALK_EV_UNLAZY:
		l->unlazy_ok += a == 1;
		break;
	case WALK_EV_DONE:
		l->done++;
		l->done_err = err;
		break;
	default:
		break;
	}
}

START_TEST(test_rcu_walk_counters)
{
	struct vt e;
	struct vt_ev a, b;
	struct stat st;

	vt_begin(&e, "");
	make_tree(e.t);
	VT_EQ(sys_stat(e.t, "/a/b/c/f", &st), 0); /* warm */
	/* An existing 4-component path: all in RCU mode, one unlazy at the end. */
	a = vt_events();
	VT_EQ(sys_stat(e.t, "/a/b/c/f", &st), 0);
	b = vt_events();
	ck_assert_uint_eq(vt_delta(&a, &b, VFS_EV_RCU_WALK), 1);
	ck_assert_uint_eq(vt_delta(&a, &b, VFS_EV_UNLAZY_OK), 1);
	ck_assert_uint_eq(vt_delta(&a, &b, VFS_EV_UNLAZY_FAIL), 0);
	ck_assert_uint_eq(vt_delta(&a, &b, VFS_EV_REF_WALK), 0);
	ck_assert_uint_eq(vt_delta(&a, &b, VFS_EV_DCACHE_MISS), 0);
	/* The same from a cwd, relatively. */
	VT_EQ(sys_chdir(e.t, "/a"), 0);
	a = vt_events();
	VT_EQ(sys_stat(e.t, "b/c/f", &st), 0);
	b = vt_events();
	ck_assert_uint_eq(vt_delta(&a, &b, VFS_EV_RCU_WALK), 1);
	ck_assert_uint_eq(vt_delta(&a, &b, VFS_EV_UNLAZY_OK), 1);
	ck_assert_uint_eq(vt_delta(&a, &b, VFS_EV_REF_WALK), 0);
	VT_EQ(sys_chdir(e.t, "/"), 0);
	/* A missing name goes to the filesystem, after leaving RCU mode. */
	a = vt_events();
	VT_EQ(sys_stat(e.t, "/a/b/c/nope", &st), -ENOENT);
	b = vt_events();
	ck_assert_uint_eq(vt_delta(&a, &b, VFS_EV_RCU_WALK), 1);
	ck_assert_uint_eq(vt_delta(&a, &b, VFS_EV_DCACHE_MISS), 1);
	/* lookup_fast() unlazies in place and goes on: no restart. */
	ck_assert_uint_eq(vt_delta(&a, &b, VFS_EV_UNLAZY_OK), 1);
	ck_assert_uint_eq(vt_delta(&a, &b, VFS_EV_REF_WALK), 0);
	/* tmpfs keeps no negative dentry: the next stat misses again. */
	a = vt_events();
	VT_EQ(sys_stat(e.t, "/a/b/c/nope", &st), -ENOENT);
	b = vt_events();
	ck_assert_uint_eq(vt_delta(&a, &b, VFS_EV_DCACHE_MISS), 1);
	vt_end(&e);
}
END_TEST

START_TEST(test_walk_trace_checks_every_directory)
{
	struct vt e;
	struct trace_log log = { 0 };
	struct walk_trace tr = { trace_event, &log };
	struct task *u;

	vt_begin(&e, "");
	make_tree(e.t);
	VT_EQ(vfs_walk(e.t, AT_FDCWD, "/a/b/c/f", true, 0, &tr), 0);
	/* MAY_EXEC on /, a, b and c; a dcache hit for each component. */
	ck_assert_int_eq(log.perms, 4);
	ck_assert_int_eq(log.perm_fail, 0);
	ck_assert_int_eq(log.hits, 4);
	ck_assert_int_eq(log.misses, 0);
	ck_assert_int_eq(log.starts_rcu, 1);
	ck_assert_int_eq(log.starts_ref, 0);
	ck_assert_int_eq(log.unlazy_ok, 1);
	ck_assert_int_eq(log.done, 1);
	/* An unprivileged walk stops at the first directory it may not search. */
	VT_EQ(sys_chmod(e.t, "/a/b", 0700), 0);
	u = task_fork(e.t, 0);
	ck_assert_ptr_nonnull(u);
	VT_EQ(task_set_creds(u, 1000, 1000, 1000, 1000, NULL, 0), 0);
	memset(&log, 0, sizeof(log));
	VT_EQ(vfs_walk(u, AT_FDCWD, "/a/b/c/f", true, 0, &tr), -EACCES);
	ck_assert_int_eq(log.perms, 3);
	ck_assert_int_eq(log.perm_fail, 1);
	ck_assert_int_eq(log.hits, 2);
	ck_assert_int_eq(log.done_err, -EACCES);
	task_exit(u);
	vt_end(&e);
}
END_TEST

static Suite *namei_suite(void)
{
	Suite *s = suite_create("namei");
	TCase *tc = tcase_create("walk");

	tcase_add_test(tc, test_dots);
	tcase_add_test(tc, test_slashes);
	tcase_add_test(tc, test_trailing_slash);
	tcase_add_test(tc, test_dirfd);
	tcase_add_test(tc, test_symlink_bodies);
	tcase_add_test(tc, test_symlink_limits);
	tcase_add_test(tc, test_symlink_budget_spans_components);
	tcase_add_test(tc, test_name_max);
	tcase_add_test(tc, test_path_max);
	tcase_add_test(tc, test_empty_path);
	tcase_add_test(tc, test_search_permission_unprivileged);
	tcase_add_test(tc, test_root_permission_overrides);
	tcase_add_test(tc, test_rcu_walk_counters);
	tcase_add_test(tc, test_walk_trace_checks_every_directory);
	suite_add_tcase(s, tc);
	return s;
}

VT_MAIN(namei_suite)
