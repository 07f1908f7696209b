// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Tests for tools/out: the CSV writer quotes by RFC 4180, and the JSON
 * helpers keep every string valid UTF-8 (a bad byte becomes U+FFFD, its
 * bytes kept in KEY_hex) and numbers finite and rounded.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tests/vfs_test.h"
#include "tools/out/csv.h"
#include "tools/out/json.h"

/* One CSV record of the fields, as the writer prints it. */
static char *csv_record(const char *const *fields, int n)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct csv c;

	ck_assert_ptr_nonnull(f);
	csv_start(&c, f);
	for (int i = 0; i < n; i++)
		csv_str(&c, fields[i]);
	csv_end(&c);
	fclose(f);
	return buf;
}

START_TEST(test_csv_quoting)
{
	static const char *const plain[] = { "a", "", "b c", "x\377y" };
	static const char *const odd[] = { "a,b", "say \"hi\"", "two\nlines", "cr\r" };
	char *s = csv_record(plain, 4);

	/* Nothing to quote: as is, bytes included. */
	ck_assert_str_eq(s, "a,,b c,x\377y\n");
	free(s);
	s = csv_record(odd, 4);
	ck_assert_str_eq(s, "\"a,b\",\"say \"\"hi\"\"\",\"two\nlines\",\"cr\r\"\n");
	free(s);
}
END_TEST

START_TEST(test_csv_fmt_and_empty)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct csv c;

	csv_start(&c, f);
	csv_fmt(&c, "%d", 42);
	csv_empty(&c);
	csv_fmt(&c, "%.2f", 1.5);
	csv_end(&c);
	csv_fmt(&c, "%s", "1,5");
	csv_end(&c);
	fclose(f);
	ck_assert_str_eq(buf, "42,,1.50\n\"1,5\"\n");
	free(buf);
}
END_TEST

/* out_json_str(in) must be the string want. */
static void str_is(const char *in, const char *want)
{
	json_t *j = out_json_str(in);

	ck_assert_ptr_nonnull(j);
	ck_assert_str_eq(json_string_value(j), want);
	json_decref(j);
}

START_TEST(test_json_utf8)
{
	/* Valid: ASCII, 2-, 3- and 4-byte sequences, the highest code point. */
	str_is("plain", "plain");
	str_is("\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\xf4\x8f\xbf\xbf",
	       "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\xf4\x8f\xbf\xbf");
	/* A stray byte, a lone continuation byte. */
	str_is("a\377b", "a\xef\xbf\xbd"
			 "b");
	str_is("\x80", "\xef\xbf\xbd");
	/* Overlong '/', a surrogate, past U+10FFFF: each byte replaced. */
	str_is("\xc0\xaf", "\xef\xbf\xbd\xef\xbf\xbd");
	str_is("\xe0\x80\xaf", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");
	str_is("\xed\xa0\x80", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");
	str_is("\xf4\x90\x80\x80", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");
	/* Cut short at the end, then a valid character after a cut one. */
	str_is("x\xe2\x82", "x\xef\xbf\xbd\xef\xbf\xbd");
	str_is("\xe2\xc3\xa9", "\xef\xbf\xbd\xc3\xa9");
}
END_TEST

START_TEST(test_json_name_hex)
{
	json_t *o = json_object();

	out_json_set_name(o, "side", "ok \xc3\xa9");
	ck_assert_str_eq(json_string_value(json_object_get(o, "side")), "ok \xc3\xa9");
	ck_assert_ptr_null(json_object_get(o, "side_hex"));
	out_json_set_name(o, "dir", "a,\"\n\377");
	ck_assert_str_eq(json_string_value(json_object_get(o, "dir")), "a,\"\n\xef\xbf\xbd");
	ck_assert_str_eq(json_string_value(json_object_get(o, "dir_hex")), "612c220aff");
	json_decref(o);
}
END_TEST

START_TEST(test_json_numbers)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	json_t *a = json_pack("[o,o,o,o,o,o]", out_json_num(1234567.6, 0),
			      out_json_num(0.12345678, 4), out_json_num(NAN, 3),
			      out_json_num(INFINITY, 0), out_json_num(2.0, 3),
			      out_json_num(-0.0000004, 6));

	ck_assert_ptr_nonnull(a);
	ck_assert_int_eq(out_json_dump(f, a), 0);
	fclose(f);
	ck_assert_str_eq(buf, "[1234568,0.1235,null,null,2.0,0.0]\n");
	free(buf);
	json_decref(a);
}
END_TEST

START_TEST(test_json_dump_error)
{
	FILE *f = fopen("/dev/full", "w");
	json_t *o = json_pack("{s:s}", "k", "v");

	if (!f)
		return;
	setvbuf(f, NULL, _IONBF, 0);
	ck_assert_int_eq(out_json_dump(f, o), -1);
	fclose(f);
	json_decref(o);
}
END_TEST

static Suite *out_suite(void)
{
	Suite *s = suite_create("out");
	TCase *tc = tcase_create("formats");

	tcase_add_test(tc, test_csv_quoting);
	tcase_add_test(tc, test_csv_fmt_and_empty);
	tcase_add_test(tc, test_json_utf8);
	tcase_add_test(tc, test_json_name_hex);
	tcase_add_test(tc, test_json_numbers);
	tcase_add_test(tc, test_json_dump_error);
	suite_add_tcase(s, tc);
	return s;
}

VT_MAIN(out_suite)
