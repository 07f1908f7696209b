// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * /dev/random and /dev/urandom (vfs/mem_devs.c): a deterministic stream
 * per instance, so a run repeats. The devices' Linux semantics (offsets,
 * ENOSPC, ENXIO) are tests/fstest/memdev.t, checked against the host.
 */
#include <sys/sysmacros.h>

#include "tests/vfs_test.h"

/* The first @n bytes a fresh instance's /dev/urandom (1,9) gives, twice. */
static void read_fresh(unsigned char *a, unsigned char *b, size_t n)
{
	struct vt e;
	long fd;

	vt_begin(&e, "");
	VT_EQ(sys_mknod(e.t, "/urandom", S_IFCHR | 0666, makedev(1, 9)), 0);
	VT_EQ(sys_mknod(e.t, "/random", S_IFCHR | 0666, makedev(1, 8)), 0);
	fd = VT_OK(sys_open(e.t, "/urandom", O_RDONLY, 0));
	VT_EQ(sys_read(e.t, fd, a, n), n);
	VT_EQ(sys_close(e.t, fd), 0);
	fd = VT_OK(sys_open(e.t, "/random", O_RDONLY, 0));
	VT_EQ(sys_read(e.t, fd, b, n), n);
	/* Reads leave the offset alone, as Linux's do. */
	VT_EQ(sys_lseek(e.t, fd, 0, SEEK_CUR), 0);
	VT_EQ(sys_close(e.t, fd), 0);
	vt_end(&e);
}

START_TEST(test_random_stream)
{
	unsigned char a1[61], b1[61], a2[61], b2[61], zero[61] = { 0 };

	read_fresh(a1, b1, sizeof(a1));
	read_fresh(a2, b2, sizeof(a2));
	/* The same in every instance, one stream for both devices. */
	ck_assert_mem_eq(a1, a2, sizeof(a1));
	ck_assert_mem_eq(b1, b2, sizeof(b1));
	ck_assert(memcmp(a1, b1, sizeof(a1)));
	ck_assert(memcmp(a1, zero, sizeof(a1)));
	ck_assert(memcmp(b1, zero, sizeof(b1)));
}
END_TEST

static Suite *mem_devs_suite(void)
{
	Suite *s = suite_create("mem_devs");
	TCase *tc = tcase_create("random");

	tcase_add_test(tc, test_random_stream);
	suite_add_tcase(s, tc);
	return s;
}

VT_MAIN(mem_devs_suite)
