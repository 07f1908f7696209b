// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The simulator's profile files (tools/sim/profile.c): the built-in
 * profiles parse and survive a write and a re-read, and a bad file is an
 * error that names its line, never a half-read profile.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/sim/profile.h"

START_TEST(test_builtins_round_trip)
{
	unsigned int n;
	const struct sim_profile *all = sim_profile_all(&n);

	ck_assert_uint_ge(n, 4);
	for (unsigned int i = 0; i < n; i++) {
		struct sim_profile back;
		char *text = NULL, err[256];
		size_t len = 0;
		FILE *f = open_memstream(&text, &len);

		ck_assert_ptr_nonnull(f);
		sim_profile_write(f, &all[i]);
		fclose(f);
		ck_assert_int_eq(sim_profile_parse(&back, text, err, sizeof(err)), 0);
		ck_assert_str_eq(back.name, all[i].name);
		ck_assert_uint_eq(sim_profile_cpus(&back), sim_profile_cpus(&all[i]));
		/* %.4g keeps four significant digits. */
		ck_assert_double_eq_tol(back.cpi, all[i].cpi, all[i].cpi * 1e-3);
		ck_assert_double_eq_tol(back.xfer_ns[SIM_DIST_REMOTE],
					all[i].xfer_ns[SIM_DIST_REMOTE], 0.1);
		ck_assert_uint_eq(back.store_buffer, all[i].store_buffer);
		ck_assert(all[i].cpi > 0 && all[i].ghz > 0);
		free(text);
	}
	ck_assert_ptr_nonnull(sim_profile_find("spr"));
	ck_assert_ptr_null(sim_profile_find("nope"));
}
END_TEST

/* A complete profile to break one line at a time. */
static char good_text[4096];

static char *good(void)
{
	FILE *f = fmemopen(good_text, sizeof(good_text), "w");

	ck_assert_ptr_nonnull(f);
	sim_profile_write(f, sim_profile_find("zen4"));
	fclose(f);
	return good_text;
}

static void expect_error(const char *text, const char *needle)
{
	struct sim_profile p;
	char err[256] = "";

	ck_assert_int_eq(sim_profile_parse(&p, text, err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, needle), "error '%s' lacks '%s'", err, needle);
}

START_TEST(test_bad_files)
{
	char *text = good(), buf[8192];
	struct sim_profile p;
	char err[256];

	ck_assert_int_eq(sim_profile_parse(&p, text, err, sizeof(err)), 0);
	/* Comments and blank lines are fine. */
	snprintf(buf, sizeof(buf), "# a comment\n\n%s", text);
	ck_assert_int_eq(sim_profile_parse(&p, buf, err, sizeof(err)), 0);
	snprintf(buf, sizeof(buf), "%sbogus = 1\n", text);
	expect_error(buf, "unknown key 'bogus'");
	/* Blank lines count: the error names the line an editor shows. */
	expect_error("\n\nbogus = 1\n", "line 3: unknown key 'bogus'");
	snprintf(buf, sizeof(buf), "%scpi = 2\n", text);
	expect_error(buf, "cpi given twice");
	snprintf(buf, sizeof(buf), "%snot a pair\n", text);
	expect_error(buf, "expected `key = value`");
	/* Drop the cpi line: missing. */
	{
		char *c = strstr(text, "cpi = "), *e = strchr(c, '\n');

		snprintf(buf, sizeof(buf), "%.*s%s", (int)(c - text), text, e + 1);
		expect_error(buf, "cpi is missing");
		/* A value that is not a number, or out of range. */
		snprintf(buf, sizeof(buf), "%.*scpi = fast\n%s", (int)(c - text), text, e + 1);
		expect_error(buf, "cpi = 'fast' is not a valid value");
		snprintf(buf, sizeof(buf), "%.*scpi = -1\n%s", (int)(c - text), text, e + 1);
		expect_error(buf, "is not a valid value");
		snprintf(buf, sizeof(buf), "%.*scpi = 1 # measured\n%s", (int)(c - text), text,
			 e + 1);
		ck_assert_int_eq(sim_profile_parse(&p, buf, err, sizeof(err)), 0);
		ck_assert_double_eq(p.cpi, 1);
	}
	/* A profile calibrated before the hold probe: the error says what to do. */
	{
		char *c = strstr(text, "hold = "), *e = strchr(c, '\n');

		snprintf(buf, sizeof(buf), "%.*s%s", (int)(c - text), text, e + 1);
		expect_error(buf, "hold is missing (profiles calibrated before 2026-12-03");
		snprintf(buf, sizeof(buf), "%.*shold = 1.5\n%s", (int)(c - text), text, e + 1);
		expect_error(buf, "hold = '1.5' is not a valid value");
	}
	ck_assert_int_eq(sim_profile_load(&p, "/nonexistent/x.prof", err, sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "/nonexistent/x.prof"));
	ck_assert_ptr_null(sim_profile_get("nonesuch", err, sizeof(err)));
	ck_assert_ptr_nonnull(strstr(err, "unknown profile"));
}
END_TEST

/* cpi.NAME: a workload's own speed, optional, written back, looked up. */
START_TEST(test_workload_cpi)
{
	char *text = good(), buf[8192], *back = NULL, err[256];
	struct sim_profile p, q;
	size_t len = 0;
	FILE *f;

	snprintf(buf, sizeof(buf), "%scpi.stat2 = 0.2\ncpi.open1 = 0.25 # measured\n", text);
	ck_assert_int_eq(sim_profile_parse(&p, buf, err, sizeof(err)), 0);
	ck_assert_uint_eq(p.nr_wl_cpi, 2);
	ck_assert_double_eq(sim_profile_cpi(&p, "stat2"), 0.2);
	ck_assert_double_eq(sim_profile_cpi(&p, "open1"), 0.25);
	/* A workload the profile did not time runs at cpi. */
	ck_assert_double_eq(sim_profile_cpi(&p, "dup1"), p.cpi);
	f = open_memstream(&back, &len);
	ck_assert_ptr_nonnull(f);
	sim_profile_write(f, &p);
	fclose(f);
	ck_assert_int_eq(sim_profile_parse(&q, back, err, sizeof(err)), 0);
	ck_assert_double_eq_tol(sim_profile_cpi(&q, "open1"), 0.25, 1e-6);
	free(back);
	snprintf(buf, sizeof(buf), "%scpi.stat2 = 0.2\ncpi.stat2 = 0.3\n", text);
	expect_error(buf, "cpi.stat2 given twice");
	snprintf(buf, sizeof(buf), "%scpi. = 0.2\n", text);
	expect_error(buf, "needs a workload name");
	snprintf(buf, sizeof(buf), "%scpi.stat2 = 0\n", text);
	expect_error(buf, "cpi.stat2 = '0' is not a valid value");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("sim_profile");
	TCase *tc = tcase_create("profile");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, test_builtins_round_trip);
	tcase_add_test(tc, test_bad_files);
	tcase_add_test(tc, test_workload_cpi);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
