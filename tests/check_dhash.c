// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The dentry hash's size (vfs/dhash.c): the kernel's boot-time sizing for a
 * given RAM, one bucket per entry for a tree of known size, hash-shift=auto
 * through the config, and the chain counts vfs_inspect_hash() reports. Then
 * the phase clocks (vfs/phase.h): an open's steps are charged, and only
 * while a thread has them on.
 */
#include "tests/vfs_test.h"

#define GIB (1ull << 30)

START_TEST(test_shift_for_memory)
{
	/* One bucket per 8 KiB, rounded up to a power of two. */
	ck_assert_uint_eq(vfs_hash_shift_for_memory(1 * GIB), 17);
	ck_assert_uint_eq(vfs_hash_shift_for_memory(16 * GIB), 21);
	/* 24 GiB: 3 Mi buckets, rounded up to 4 Mi, as dmesg shows on such a machine. */
	ck_assert_uint_eq(vfs_hash_shift_for_memory(24 * GIB), 22);
	ck_assert_uint_eq(vfs_hash_shift_for_memory(24 * GIB - 4096), 22);
	ck_assert_uint_eq(vfs_hash_shift_for_memory(64 * GIB), 23);
	/* Past 64 GiB, each 4x more memory gets 2x (not 4x) more buckets. */
	ck_assert_uint_eq(vfs_hash_shift_for_memory(256 * GIB), 24);
	ck_assert_uint_eq(vfs_hash_shift_for_memory(1024 * GIB), 25);
	/* The table stays within 1/16 of memory (256 bytes: 32 buckets); never under 2^4. */
	ck_assert_uint_eq(vfs_hash_shift_for_memory(16ull << 20), 11);
	ck_assert_uint_eq(vfs_hash_shift_for_memory(4096), 5);
	ck_assert_uint_eq(vfs_hash_shift_for_memory(0), VFS_HASH_SHIFT_MIN);
	ck_assert_uint_eq(vfs_hash_shift_for_memory(1ull << 50), VFS_HASH_SHIFT_MAX);
}
END_TEST

START_TEST(test_shift_for_entries)
{
	ck_assert_uint_eq(vfs_hash_shift_for_entries(0), VFS_HASH_SHIFT_MIN);
	ck_assert_uint_eq(vfs_hash_shift_for_entries(1u << 20), 20);
	ck_assert_uint_eq(vfs_hash_shift_for_entries((1u << 20) + 1), 21);
	ck_assert_uint_eq(vfs_hash_shift_for_entries(10010002), 24);
	ck_assert_uint_eq(vfs_hash_shift_for_entries(100100002), VFS_HASH_SHIFT_MAX);
}
END_TEST

START_TEST(test_config_auto)
{
	struct vfs_config cfg;
	char err[256], desc[1024];
	struct vfs *v;

	vfs_config_default(&cfg);
	ck_assert_uint_eq(cfg.d_hash_shift, 16);
	ck_assert_int_eq(vfs_config_parse(&cfg, "hash-shift=auto", err, sizeof(err)), 0);
	ck_assert_uint_eq(cfg.d_hash_shift, VFS_HASH_SHIFT_AUTO);
	/* The canonical spec says auto, and parses back to it. */
	vfs_config_describe(&cfg, desc, sizeof(desc));
	ck_assert_ptr_nonnull(strstr(desc, ",hash-shift=auto,"));
	cfg.d_hash_shift = 9;
	ck_assert_int_eq(vfs_config_parse(&cfg, desc, err, sizeof(err)), 0);
	ck_assert_uint_eq(cfg.d_hash_shift, VFS_HASH_SHIFT_AUTO);
	ck_assert_int_eq(vfs_config_parse(&cfg, "hash-shift=automatic", err, sizeof(err)), -1);
	ck_assert_ptr_nonnull(strstr(err, "automatic"));
	ck_assert_int_eq(vfs_config_parse(&cfg, "hash-shift=3", err, sizeof(err)), -1);
	ck_assert_int_eq(vfs_config_parse(&cfg, "hash-shift=27", err, sizeof(err)), -1);

	/* An instance resolves auto to this machine's size. */
	vfs_thread_enter();
	v = vt_vfs_new("hash-shift=auto");
	ck_assert_uint_eq(vfs_hash_shift_for_memory(vfs_phys_ram()), v->d_hash_shift);
	ck_assert_uint_eq(v->cfg.d_hash_shift, v->d_hash_shift);
	ck_assert_int_eq(vfs_destroy(v), 0);
	vfs_thread_exit();
}
END_TEST

START_TEST(test_inspect_hash)
{
	struct dhash_info h;
	struct vt e;
	char name[32];

	/* 2^4 buckets for 65 dentries (root, /d, 63 files): chains of 4 on average. */
	vt_begin(&e, "hash-shift=4");
	VT_EQ(sys_mkdir(e.t, "/d", 0755), 0);
	for (int i = 0; i < 63; i++) {
		snprintf(name, sizeof(name), "/d/f%d", i);
		vt_touch(e.t, name);
	}
	vfs_inspect_hash(e.v, &h);
	ck_assert_uint_eq(h.shift, 4);
	/* The root is never hashed. */
	ck_assert_uint_eq(h.entries, 64);
	ck_assert_uint_le(h.used, 16);
	ck_assert_uint_ge(h.used, 12);
	ck_assert_uint_ge(h.longest, 4);
	ck_assert_uint_le(h.longest, 20);
	VT_EQ(sys_unlink(e.t, "/d/f0"), 0);
	vfs_inspect_hash(e.v, &h);
	ck_assert_uint_eq(h.entries, 63);
	vt_end(&e);
}
END_TEST

START_TEST(test_phases)
{
	struct vfs_phases ph, idle;
	uint64_t sum = 0;
	struct vt e;
	long fd;

	vt_begin(&e, "");
	memset(&ph, 0, sizeof(ph));
	memset(&idle, 0, sizeof(idle));
	vfs_phases_start(&ph);
	fd = VT_OK(sys_open(e.t, "/new", O_CREAT | O_EXCL | O_WRONLY, 0644));
	vfs_phases_stop();
	/* A create runs every step of the open. */
	for (int i = 0; i < VFS_PH_NR; i++) {
		if (i != VFS_PH_D_LOOKUP_RCU)
			ck_assert_msg(ph.ticks[i] > 0, "step %s not charged", vfs_phase_name(i));
		sum += ph.ticks[i];
	}
	ck_assert_uint_gt(sum, 0);
	/* Each step ran once: one stretch each; the syscall's own, between them, more. */
	ck_assert_uint_eq(ph.segs[VFS_PH_D_LOOKUP], 1);
	ck_assert_uint_eq(ph.segs[VFS_PH_D_ALLOC], 1);
	ck_assert_uint_eq(ph.segs[VFS_PH_INODE], 1);
	ck_assert_uint_gt(ph.segs[VFS_PH_SYSCALL], 5);
	ck_assert(vfs_phases_switch_ticks() > 0);
	/* Off, nothing is charged anywhere. */
	memcpy(&idle, &ph, sizeof(ph));
	VT_EQ(sys_close(e.t, fd), 0);
	vt_touch(e.t, "/other");
	ck_assert_int_eq(memcmp(&idle, &ph, sizeof(ph)), 0);
	ck_assert_str_eq(vfs_phase_name(VFS_PH_D_LOOKUP), "d_lookup");
	ck_assert_str_eq(vfs_phase_name(VFS_PH_NR), "?");
	vt_end(&e);
}
END_TEST

static Suite *dhash_suite(void)
{
	Suite *s = suite_create("dhash");
	TCase *tc = tcase_create("dhash");

	tcase_add_test(tc, test_shift_for_memory);
	tcase_add_test(tc, test_shift_for_entries);
	tcase_add_test(tc, test_config_auto);
	tcase_add_test(tc, test_inspect_hash);
	tcase_add_test(tc, test_phases);
	suite_add_tcase(s, tc);
	return s;
}

VT_MAIN(dhash_suite)
