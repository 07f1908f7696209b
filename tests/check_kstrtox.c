// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Tests for lib/kstrtox: the whole string is the number - no sign, no
 * space, no junk after it, no wrap past 2^64-1 - and the result is left
 * alone on an error.
 */
#include <check.h>
#include <errno.h>
#include <stdlib.h>

#include "lib/kstrtox.h"

START_TEST(test_accepts)
{
	unsigned long long v;

	ck_assert_int_eq(kstrtoull("0", 10, &v), 0);
	ck_assert_uint_eq(v, 0);
	ck_assert_int_eq(kstrtoull("18446744073709551615", 10, &v), 0);
	ck_assert_uint_eq(v, ~0ull);
	ck_assert_int_eq(kstrtoull("0x1f", 0, &v), 0);
	ck_assert_uint_eq(v, 31);
	ck_assert_int_eq(kstrtoull("010", 10, &v), 0);
	ck_assert_uint_eq(v, 10);
}
END_TEST

START_TEST(test_rejects)
{
	static const char *const bad[] = {
		"", "-1", "+1", " 1", "1 ", "1x", "0x", "x1", "1e3", "-0"
	};
	unsigned long long v = 42;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_msg(kstrtoull(bad[i], 0, &v) == -EINVAL, "'%s' parsed", bad[i]);
	ck_assert_int_eq(kstrtoull("18446744073709551616", 10, &v), -ERANGE);
	ck_assert_int_eq(kstrtoull("99999999999999999999999", 0, &v), -ERANGE);
	ck_assert_uint_eq(v, 42);
}
END_TEST

static Suite *kstrtox_suite(void)
{
	Suite *s = suite_create("kstrtox");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_accepts);
	tcase_add_test(tc, test_rejects);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(kstrtox_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
