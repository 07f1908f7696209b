// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The fs.protected_* sysctls as variant keys (vfs/namei.c's may_follow_link,
 * may_linkat and may_create_in_sticky), each case as fs/namei.c decides it.
 * The sysctls are global, so the host could not be switched to check them
 * all: difftest checks vfslab against the host at the host's values (here
 * symlinks 0, hardlinks 1, regular 0, fifos 0), sticky_create.t the cases
 * no value decides. The kernel's built-in default, 0 for all four, is
 * vfslab's.
 */
#include <sys/sysmacros.h>

#include "tests/vfs_test.h"

#define OWNER 1000 /* owns the files */
#define OTHER 2000 /* tries to use them */

static struct task *as_user(struct task *parent, uid_t uid, gid_t gid)
{
	struct task *t = task_fork(parent, 0);

	ck_assert_ptr_nonnull(t);
	VT_EQ(task_set_creds(t, uid, uid, gid, gid, NULL, 0), 0);
	return t;
}

/* A root-owned sticky directory of @mode holding OWNER's file "f" (0666) and link "l" -> f. */
static void sticky_dir(struct vt *e, const char *variant, mode_t mode)
{
	vt_begin(e, variant);
	VT_EQ(sys_mkdir(e->t, "/s", 0), 0);
	VT_EQ(sys_chmod(e->t, "/s", mode), 0);
	vt_touch(e->t, "/s/f");
	VT_EQ(sys_chmod(e->t, "/s/f", 0666), 0);
	VT_EQ(sys_chown(e->t, "/s/f", OWNER, OWNER), 0);
	VT_EQ(sys_symlink(e->t, "f", "/s/l"), 0);
	VT_EQ(sys_lchown(e->t, "/s/l", OWNER, OWNER), 0);
}

static long open_close(struct task *t, const char *path, int flags)
{
	long fd = sys_open(t, path, flags, 0644);

	if (fd >= 0)
		VT_EQ(sys_close(t, fd), 0);
	return fd < 0 ? fd : 0;
}

START_TEST(test_symlinks)
{
	struct stat st;
	struct task *u;
	struct vt e;

	/* 0: any link is followed. */
	sticky_dir(&e, "", 01777);
	u = as_user(e.t, OTHER, OTHER);
	VT_EQ(sys_stat(u, "/s/l", &st), 0);
	task_exit(u);
	vt_end(&e);

	sticky_dir(&e, "protected-symlinks=1", 01777);
	u = as_user(e.t, OTHER, OTHER);
	VT_EQ(sys_stat(u, "/s/l", &st), -EACCES);
	/* Only the last component is checked, and lstat follows nothing. */
	VT_EQ(sys_lstat(u, "/s/l", &st), 0);
	task_exit(u);
	/* The link's owner follows it; so does everyone when the directory owner owns it. */
	u = as_user(e.t, OWNER, OWNER);
	VT_EQ(sys_stat(u, "/s/l", &st), 0);
	task_exit(u);
	VT_EQ(sys_lchown(e.t, "/s/l", 0, 0), 0);
	u = as_user(e.t, OTHER, OTHER);
	VT_EQ(sys_stat(u, "/s/l", &st), 0);
	task_exit(u);
	/* Not world-writable: no restriction. */
	VT_EQ(sys_lchown(e.t, "/s/l", OWNER, OWNER), 0);
	VT_EQ(sys_chmod(e.t, "/s", 01775), 0);
	u = as_user(e.t, OTHER, OTHER);
	VT_EQ(sys_stat(u, "/s/l", &st), 0);
	task_exit(u);
	vt_end(&e);
}
END_TEST

START_TEST(test_hardlinks)
{
	struct task *u;
	struct vt e;

	vt_begin(&e, "");
	VT_EQ(sys_mkdir(e.t, "/d", 0), 0);
	VT_EQ(sys_chmod(e.t, "/d", 0777), 0);
	vt_touch(e.t, "/secret");
	VT_EQ(sys_chmod(e.t, "/secret", 0600), 0);
	u = as_user(e.t, OTHER, OTHER);
	VT_EQ(sys_link(u, "/secret", "/d/x"), 0);
	task_exit(u);
	vt_end(&e);

	vt_begin(&e, "protected-hardlinks=1");
	VT_EQ(sys_mkdir(e.t, "/d", 0), 0);
	VT_EQ(sys_chmod(e.t, "/d", 0777), 0);
	vt_touch(e.t, "/secret");
	VT_EQ(sys_chmod(e.t, "/secret", 0600), 0);
	vt_touch(e.t, "/open");
	VT_EQ(sys_chmod(e.t, "/open", 0666), 0);
	vt_touch(e.t, "/suid");
	VT_EQ(sys_chmod(e.t, "/suid", 04666), 0);
	VT_EQ(sys_mkdir(e.t, "/dir", 0777), 0);
	u = as_user(e.t, OTHER, OTHER);
	VT_EQ(sys_link(u, "/secret", "/d/x"), -EPERM);
	VT_EQ(sys_link(u, "/open", "/d/y"), 0);
	VT_EQ(sys_link(u, "/suid", "/d/z"), -EPERM);
	/* Directories are EPERM either way (vfs_link()). */
	VT_EQ(sys_link(u, "/dir", "/d/w"), -EPERM);
	task_exit(u);
	/* The owner, and root, link anything. */
	VT_EQ(sys_link(e.t, "/secret", "/d/x"), 0);
	vt_end(&e);
}
END_TEST

/* O_CREAT of OTHER's regular file or fifo "f" by OTHER + 1 in /s. */
static long creat_other(struct vt *e, const char *what)
{
	struct task *u = as_user(e->t, OTHER + 1, OTHER);
	long r = open_close(u, what, O_RDWR | O_CREAT);

	task_exit(u);
	return r;
}

START_TEST(test_regular_and_fifos)
{
	static const struct {
		const char *variant;
		mode_t dir;
		long reg, fifo;
	} cases[] = {
		{ "", 01777, 0, 0 },
		{ "protected-regular=1", 01777, -EACCES, 0 },
		{ "protected-fifos=1", 01777, 0, -EACCES },
		{ "protected-regular=1,protected-fifos=1", 01770, 0, 0 },
		{ "protected-regular=2,protected-fifos=2", 01770, -EACCES, -EACCES },
		{ "protected-regular=2,protected-fifos=2", 0777, 0, 0 },
	};

	for (unsigned int i = 0; i < ARRAY_SIZE(cases); i++) {
		struct vt e;

		sticky_dir(&e, cases[i].variant, 01777);
		VT_EQ(sys_mknod(e.t, "/s/p", S_IFIFO, 0), 0);
		VT_EQ(sys_chmod(e.t, "/s/p", 0666), 0);
		VT_EQ(sys_chown(e.t, "/s/p", OWNER, OTHER), 0);
		VT_EQ(sys_chown(e.t, "/s/f", OWNER, OTHER), 0);
		VT_EQ(sys_chown(e.t, "/s", 0, OTHER), 0);
		VT_EQ(sys_chmod(e.t, "/s", cases[i].dir), 0);
		ck_assert_msg(creat_other(&e, "/s/f") == cases[i].reg, "case %u: regular", i);
		ck_assert_msg(creat_other(&e, "/s/p") == cases[i].fifo, "case %u: fifo", i);
		/* Without O_CREAT, or as the file's owner, nothing is refused. */
		{
			struct task *u = as_user(e.t, OTHER + 1, OTHER);

			VT_EQ(open_close(u, "/s/f", O_RDWR), 0);
			task_exit(u);
			u = as_user(e.t, OWNER, OTHER);
			VT_EQ(open_close(u, "/s/f", O_RDWR | O_CREAT), 0);
			task_exit(u);
		}
		vt_end(&e);
	}
}
END_TEST

/* Other types are refused whatever the values, root included (checked on the host). */
START_TEST(test_other_types_in_sticky)
{
	struct vt e;

	sticky_dir(&e, "", 01777);
	VT_EQ(sys_mknod(e.t, "/s/null", S_IFCHR | 0666, makedev(1, 3)), 0);
	VT_EQ(sys_chown(e.t, "/s/null", OWNER, OWNER), 0);
	VT_EQ(open_close(e.t, "/s/null", O_WRONLY | O_CREAT), -EACCES);
	/* A symlink not followed: EACCES before may_open()'s ELOOP. */
	VT_EQ(open_close(e.t, "/s/l", O_WRONLY | O_CREAT | O_NOFOLLOW), -EACCES);
	VT_EQ(open_close(e.t, "/s/l", O_WRONLY | O_NOFOLLOW), -ELOOP);
	/* Followed, it is the regular file's case: allowed at 0. */
	VT_EQ(open_close(e.t, "/s/l", O_WRONLY | O_CREAT), 0);
	vt_end(&e);
}
END_TEST

START_TEST(test_variant_keys)
{
	struct vfs_config cfg;
	char err[256], desc[1024];

	vfs_config_default(&cfg);
	vfs_config_describe(&cfg, desc, sizeof(desc));
	ck_assert_ptr_null(strstr(desc, "protected"));
	ck_assert_int_eq(vfs_config_parse(&cfg, "protected-symlinks=2", err, sizeof(err)), -1);
	ck_assert_str_eq(err, "bad value '2' for variant key 'protected-symlinks'");
	ck_assert_int_eq(vfs_config_parse(&cfg, "protected-fifos=3", err, sizeof(err)), -1);
	ck_assert_int_eq(vfs_config_parse(&cfg, "protected-regular=2,protected-hardlinks=1", err,
					  sizeof(err)),
			 0);
	vfs_config_describe(&cfg, desc, sizeof(desc));
	ck_assert_ptr_nonnull(strstr(desc, ",protected-symlinks=0,protected-hardlinks=1,"
					   "protected-regular=2,protected-fifos=0"));
}
END_TEST

static Suite *protected_suite(void)
{
	Suite *s = suite_create("protected");
	TCase *tc = tcase_create("sysctls");

	tcase_add_test(tc, test_symlinks);
	tcase_add_test(tc, test_hardlinks);
	tcase_add_test(tc, test_regular_and_fifos);
	tcase_add_test(tc, test_other_types_in_sticky);
	tcase_add_test(tc, test_variant_keys);
	suite_add_tcase(s, tc);
	return s;
}

VT_MAIN(protected_suite)
