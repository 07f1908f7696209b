// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A create racing a ref-walk that holds the same negative dentry, hit on
 * purpose (lib/fault_inject.h; this program's copy of vfs/namei.c has its
 * delay points on).
 *
 * stat("/a/l") misses in the dcache, leaves RCU walk, and lookup_slow()
 * hands step_into() a new negative dentry for "l". Right after the walk
 * reads that dentry's type, another task makes "l" a symlink in it. The
 * walk must answer from one state or the other: ENOENT (what it read), or
 * the link's target. Reading d_inode before the type, as vfslab once did,
 * pairs the old NULL inode with the new symlink type, and pick_link()
 * follows a NULL inode: what a ThreadSanitizer torture run saw, and what a
 * guard not in the kernel hid.
 */
#include "lib/fault_inject.h"
#include "tests/vfs_test.h"

static struct task *creator;
static int creates;

/* One symlink(), by another task, the first time a ref-walk reads a type. */
static void create_link(void *arg)
{
	(void)arg;
	fault_inject_disarm("handle_mounts:type-read");
	creates++;
	VT_EQ(sys_symlink(creator, "f", "/a/l"), 0);
}

START_TEST(test_symlink_created_under_ref_walk)
{
	struct vt e;
	struct stat st;
	long f;

	vt_begin(&e, "");
	VT_EQ(sys_mkdir(e.t, "/a", 0755), 0);
	vt_touch(e.t, "/a/f");
	f = (long)vt_ino(e.t, "/a/f");
	creator = task_fork(e.t, 0);
	ck_assert_ptr_nonnull(creator);
	creates = 0;

	fault_inject_arm("handle_mounts:type-read", create_link, NULL);
	VT_EQ(sys_stat(e.t, "/a/l", &st), -ENOENT);
	ck_assert_int_eq(creates, 1);
	/* The link is there for the next walk, RCU or ref. */
	ck_assert_int_eq(vt_sino(e.t, "/a/l"), f);
	VT_EQ(sys_lstat(e.t, "/a/l", &st), 0);
	ck_assert(S_ISLNK(st.st_mode));

	task_exit(creator);
	vt_end(&e);
}
END_TEST

static Suite *namei_race_suite(void)
{
	Suite *s = suite_create("namei_race");
	TCase *tc = tcase_create("ref-walk");

	tcase_add_test(tc, test_symlink_created_under_ref_walk);
	suite_add_tcase(s, tc);
	return s;
}

VT_MAIN(namei_race_suite)
