// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Tests for tools/sys/names.c's flag-word decoder: the field (access mode,
 * entry type) named first, the bits after it, leftovers in the style's base.
 */
#include <check.h>
#include <fcntl.h>
#include <stdlib.h>

#include "tools/sys/names.h"
#include "vfs/vfs.h"

static const char *fmt(const struct sys_flag_word *w, long long v, enum sys_flags_style style)
{
	static char buf[256];

	sys_flag_word_format(buf, sizeof(buf), w, v, style);
	return buf;
}

START_TEST(test_file_flags)
{
#ifdef __x86_64__
	/* What open(2) leaves in f_flags on x86-64: O_LARGEFILE is 0100000 there. */
	ck_assert_str_eq(fmt(&sys_file_flags, 0x8002, SYS_FLAGS_C), "O_RDWR|O_LARGEFILE");
#endif
	ck_assert_str_eq(fmt(&sys_file_flags, 0, SYS_FLAGS_C), "O_RDONLY");
	ck_assert_str_eq(fmt(&sys_file_flags, O_WRONLY | O_APPEND | O_NONBLOCK, SYS_FLAGS_C),
			 "O_WRONLY|O_APPEND|O_NONBLOCK");
	ck_assert_str_eq(fmt(&sys_file_flags, O_RDWR | O_DIRECT | O_NOATIME | O_CLOEXEC,
			     SYS_FLAGS_C),
			 "O_RDWR|O_DIRECT|O_NOATIME|O_CLOEXEC");
	/* O_TMPFILE holds O_DIRECTORY's bit: named whole, not as O_DIRECTORY and a rest. */
	ck_assert_str_eq(fmt(&sys_file_flags, O_RDWR | O_TMPFILE, SYS_FLAGS_C), "O_RDWR|O_TMPFILE");
	ck_assert_str_eq(fmt(&sys_file_flags, O_RDONLY | O_DIRECTORY, SYS_FLAGS_C),
			 "O_RDONLY|O_DIRECTORY");
	/* O_PATH has no access mode; 3 is one no open(2) gives but an fd may hold. */
	ck_assert_str_eq(fmt(&sys_file_flags, O_PATH, SYS_FLAGS_C), "O_PATH");
	ck_assert_str_eq(fmt(&sys_file_flags, 3, SYS_FLAGS_C), "O_ACCMODE");
	/* A bit no name covers: hex for C, octal (fstest's scripts) otherwise. */
	ck_assert_str_eq(fmt(&sys_file_flags, O_RDWR | 0x40000000, SYS_FLAGS_C),
			 "O_RDWR|0x40000000");
	ck_assert_str_eq(fmt(&sys_file_flags, O_RDWR | 0x40000000 | O_APPEND, SYS_FLAGS_FSTEST),
			 "O_RDWR,O_APPEND,010000000000");
}
END_TEST

START_TEST(test_dentry_flags)
{
	ck_assert_str_eq(fmt(&sys_dentry_flags, 0, SYS_FLAGS_C), "DCACHE_MISS_TYPE");
	ck_assert_str_eq(fmt(&sys_dentry_flags,
			     DCACHE_DIRECTORY_TYPE | DCACHE_REFERENCED | DCACHE_LRU_LIST,
			     SYS_FLAGS_C),
			 "DCACHE_DIRECTORY_TYPE|DCACHE_REFERENCED|DCACHE_LRU_LIST");
	ck_assert_str_eq(fmt(&sys_dentry_flags, DCACHE_SYMLINK_TYPE | DCACHE_OP_HASH, SYS_FLAGS_C),
			 "DCACHE_SYMLINK_TYPE|DCACHE_OP_HASH");
	/* An entry type vfs/ has no name for (the kernel's whiteout) stays a number. */
	ck_assert_str_eq(fmt(&sys_dentry_flags, 0x00100000 | DCACHE_MOUNTED, SYS_FLAGS_C),
			 "DCACHE_MOUNTED|0x100000");
}
END_TEST

/* The older list decoder is unchanged: ',' and octal, "0" for none. */
START_TEST(test_flags_format)
{
	char buf[64];

	sys_flags_format(buf, sizeof(buf), sys_at_flags, 0);
	ck_assert_str_eq(buf, "0");
	sys_flags_format(buf, sizeof(buf), sys_open_flags, O_CREAT | O_EXCL | 0x40000000);
	ck_assert_str_eq(buf, "O_CREAT,O_EXCL,010000000000");
	/* Truncated as snprintf truncates, with the length it would have had. */
	ck_assert_int_eq(sys_flags_format(buf, 4, sys_open_flags, O_CREAT), 7);
	ck_assert_str_eq(buf, "O_C");
}
END_TEST

static Suite *names_suite(void)
{
	Suite *s = suite_create("names");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_file_flags);
	tcase_add_test(tc, test_dentry_flags);
	tcase_add_test(tc, test_flags_format);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(names_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
