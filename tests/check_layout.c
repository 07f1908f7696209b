// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Tests for vfs/layout.c and vfs/variant.c: the presets' offsets against
 * the kernel's (x86-64 pahole), the layout-file parser's errors, seeded
 * randomization, PRESET+FIELD@OFF, the variant-spec parser, and the rule
 * that a variant changes speed, never semantics: one syscall script gives
 * identical answers under every layout and algorithm switch.
 */
#include <unistd.h>

#include "tests/vfs_test.h"
#include "vfs/layout.h"

static struct layout build(enum layout_struct s, const char *spec)
{
	struct layout l;
	char err[256] = "";

	ck_assert_msg(!layout_build(&l, s, spec, err, sizeof(err)), "layout %s: %s", spec, err);
	return l;
}

#define D(f) DENTRY_F_##f
#define F(f) FILE_F_##f
#define S(f) FILES_F_##f

START_TEST(test_dentry_presets)
{
	struct layout l = build(LS_DENTRY, "v6.7");

	/* v6.7: 32-byte d_iname, d_lockref right after it. */
	ck_assert_uint_eq(l.off[D(d_iname)], 56);
	ck_assert_uint_eq(l.slot[D(d_iname)], 32);
	ck_assert_uint_eq(l.off[D(d_lockref)], 88);
	ck_assert_uint_eq(l.off[D(d_op)], 96);
	ck_assert_uint_eq(l.off[D(d_lru)], 128);
	ck_assert_uint_eq(l.off[D(d_u)], 176);
	ck_assert_uint_eq(l.size, 192);
	/* v6.8-v6.10: 40-byte name, d_lockref at 96 in the name's line. */
	l = build(LS_DENTRY, "v6.10");
	ck_assert_uint_eq(l.slot[D(d_iname)], 40);
	ck_assert_uint_eq(l.off[D(d_lockref)], 96);
	ck_assert_uint_eq(l.off[D(d_op)], 104);
	ck_assert_uint_eq(l.off[D(d_fsdata)], 128);
	ck_assert_uint_eq(l.off[D(d_u)], 176);
	ck_assert_uint_eq(l.size, 192);
	/* v6.11+: d_lockref alone at the start of line 2. */
	l = build(LS_DENTRY, "v6.11");
	ck_assert_uint_eq(l.off[D(d_flags)], 0);
	ck_assert_uint_eq(l.off[D(d_seq)], 4);
	ck_assert_uint_eq(l.off[D(d_hash)], 8);
	ck_assert_uint_eq(l.off[D(d_parent)], 24);
	ck_assert_uint_eq(l.off[D(d_name)], 32);
	ck_assert_uint_eq(l.off[D(d_inode)], 48);
	ck_assert_uint_eq(l.off[D(d_iname)], 56);
	ck_assert_uint_eq(l.off[D(d_op)], 96);
	ck_assert_uint_eq(l.off[D(d_lockref)], 128);
	ck_assert_uint_eq(l.off[D(d_sib)], 152);
	ck_assert_uint_eq(l.off[D(d_u)], 176);
	ck_assert_uint_eq(l.size, 192);
	/* The default is v6.11. */
	l = build(LS_DENTRY, "");
	ck_assert_uint_eq(l.off[D(d_lockref)], 128);
	ck_assert_str_eq(layout_default_name(LS_DENTRY), "v6.11");
}
END_TEST

START_TEST(test_file_presets)
{
	struct layout l = build(LS_FILE, "v6.12");

	/* v6.12-v6.14: the count at 0, in f_mode's line. */
	ck_assert_uint_eq(l.off[F(f_ref)], 0);
	ck_assert_uint_eq(l.off[F(f_lock)], 8);
	ck_assert_uint_eq(l.off[F(f_mode)], 12);
	ck_assert_uint_eq(l.off[F(f_op)], 16);
	ck_assert_uint_eq(l.off[F(f_path)], 64);
	ck_assert_uint_eq(l.off[F(f_pos)], 112);
	ck_assert_uint_eq(l.off[F(f_owner)], 128);
	ck_assert_uint_eq(l.size, 184);
	ck_assert_uint_eq(l.align, 64);
	/* v6.15+: f_ref moved to line 2. */
	l = build(LS_FILE, "v6.15");
	ck_assert_uint_eq(l.off[F(f_lock)], 0);
	ck_assert_uint_eq(l.off[F(f_mode)], 4);
	ck_assert_uint_eq(l.off[F(f_op)], 8);
	ck_assert_uint_eq(l.off[F(f_path)], 64);
	ck_assert_uint_eq(l.off[F(f_wb_err)], 128);
	ck_assert_uint_eq(l.off[F(f_ref)], 176);
	ck_assert_uint_eq(l.size, 184);
	ck_assert_str_eq(layout_default_name(LS_FILE), "v6.15");
	/* Objects are cache-aligned: 184 bytes take 192 in the slab. */
	ck_assert_uint_eq(layout_stride(&l), 192);
}
END_TEST

START_TEST(test_files_struct_presets)
{
	struct layout l = build(LS_FILES, "kernel");

	ck_assert_uint_eq(l.off[S(count)], 0);
	ck_assert_uint_eq(l.off[S(fdt)], 32);
	ck_assert_uint_eq(l.off[S(fdtab)], 40);
	ck_assert_uint_eq(l.off[S(file_lock)], 128);
	ck_assert_uint_eq(l.off[S(next_fd)], 132);
	ck_assert_uint_eq(l.off[S(close_on_exec_init)], 136);
	ck_assert_uint_eq(l.off[S(fd_array)], 160);
	/* ____cacheline_aligned_in_smp file_lock aligns the struct: 672 rounds to 704. */
	ck_assert_uint_eq(l.size, 704);
	ck_assert_uint_eq(l.align, 64);
	ck_assert_uint_eq(layout_stride(&l), 704);
	/* The what-if: the lock and next_fd in line 0 with count and fdt. */
	l = build(LS_FILES, "shared-lock");
	ck_assert_uint_lt(l.off[S(file_lock)], 64);
	ck_assert_uint_lt(l.off[S(next_fd)], 64);
	ck_assert_uint_lt(l.off[S(fdt)], 64);
	ck_assert_uint_eq(l.off[S(count)], 0);
}
END_TEST

/* Every preset validates, and a VFS built with it uses its offsets. */
START_TEST(test_every_preset_builds)
{
	static const char *const key[LS_NR] = { "dentry", "file", "files" };
	const struct layout_preset *p;
	unsigned int nr;

	p = layout_presets(&nr);
	ck_assert_uint_ge(nr, 7);
	for (unsigned int i = 0; i < nr; i++) {
		struct layout l = build(p[i].s, p[i].name);
		const struct layout *used;
		char spec[128];
		struct vt e;

		ck_assert_int_eq(layout_validate(&l, NULL, 0), 0);
		snprintf(spec, sizeof(spec), "%s=%s", key[p[i].s], p[i].name);
		vt_begin(&e, spec);
		used = p[i].s == LS_DENTRY ? &e.v->dl : p[i].s == LS_FILE ? &e.v->fl : &e.v->sl;
		ck_assert_int_eq(memcmp(used->off, l.off, sizeof(l.off)), 0);
		ck_assert_uint_eq(used->size, l.size);
		vt_end(&e);
	}
}
END_TEST

/* struct dentry, v6.11's order, one field a line. */
static const char *const dentry_lines[] = {
	"struct dentry", "d_flags",    "d_seq", "d_hash",     "d_parent", "d_name",
	"d_inode",	 "d_iname 40", "d_op",	"d_sb",	      "d_time",	  "d_fsdata",
	"d_lockref",	 "d_lru",      "d_sib", "d_children", "d_u",
};

/* The lines above, with line `at` (1-based) replaced, or dropped if NULL. */
static char *text_with(size_t at, const char *replace)
{
	static char buf[1024];

	buf[0] = '\0';
	for (size_t i = 0; i < ARRAY_SIZE(dentry_lines); i++) {
		const char *line = i + 1 == at ? replace : dentry_lines[i];

		if (i + 1 == at && !replace)
			continue;
		strcat(buf, line);
		strcat(buf, "\n");
	}
	return buf;
}

static void parse_fails(const char *text, const char *want1, const char *want2)
{
	struct layout l;
	char err[256] = "";

	ck_assert_int_eq(layout_parse(&l, LS_DENTRY, text, "t.layout", err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, want1), "error '%s' lacks '%s'", err, want1);
	if (want2)
		ck_assert_msg(strstr(err, want2), "error '%s' lacks '%s'", err, want2);
}

START_TEST(test_parse_valid)
{
	struct layout a, b = build(LS_DENTRY, "v6.11");
	char err[256] = "";

	ck_assert_int_eq(layout_parse(&a, LS_DENTRY, text_with(0, NULL), "t", err, sizeof(err)), 0);
	ck_assert_int_eq(memcmp(a.off, b.off, sizeof(a.off)), 0);
	ck_assert_int_eq(memcmp(a.slot, b.slot, sizeof(a.slot)), 0);
	ck_assert_uint_eq(a.size, b.size);
	/* Comments, blank lines, pad, align, @ and as. */
	ck_assert_int_eq(layout_parse(&a, LS_DENTRY,
				      "# a what-if\n\nstruct dentry hwcache\nd_flags  # first\n"
				      "d_seq\npad 8\nd_hash\nalign 64\nd_parent\nd_name\nd_inode\n"
				      "d_iname 40\nd_op\nd_sb\nd_time\nd_fsdata\nd_lockref @256\n"
				      "d_lru\nd_sib 16 as d_child\nd_children\nd_u\n",
				      "t", err, sizeof(err)),
			 0);
	ck_assert_uint_eq(a.off[D(d_hash)], 16);
	ck_assert_uint_eq(a.off[D(d_parent)], 64);
	ck_assert_uint_eq(a.off[D(d_lockref)], 256);
	ck_assert_uint_eq(a.off[D(d_lru)], 264);
	ck_assert_uint_eq(a.align, 64);
	ck_assert_int_eq(layout_field_index(&a, "d_child"), D(d_sib));
	ck_assert_int_eq(layout_field_index(&a, "nope"), -1);
	/* An `align` aligns the struct too, as an aligned member does in C: sizeof rounds up. */
	ck_assert_int_eq(layout_parse(&a, LS_FILES,
				      "struct files_struct\ncount\nresize_in_progress\n"
				      "resize_wait 24\nfdt\nfdtab\nalign 128\nfile_lock\nnext_fd\n"
				      "close_on_exec_init\nopen_fds_init\nfull_fds_bits_init\n"
				      "fd_array\n",
				      "t", err, sizeof(err)),
			 0);
	ck_assert_uint_eq(a.off[S(file_lock)], 128);
	ck_assert_uint_eq(a.off[S(fd_array)], 160);
	ck_assert_uint_eq(a.size, 768);
	ck_assert_uint_eq(a.align, 128);
	ck_assert_uint_eq(layout_stride(&a), 768);
	/* Already aligned, it still counts: 640 bytes round to 768. */
	ck_assert_int_eq(layout_parse(&a, LS_FILES,
				      "struct files_struct\nalign 256\ncount\nresize_in_progress\n"
				      "resize_wait 24\nfdt\nfdtab\nfile_lock\nnext_fd\n"
				      "close_on_exec_init\nopen_fds_init\nfull_fds_bits_init\n"
				      "fd_array\n",
				      "t", err, sizeof(err)),
			 0);
	ck_assert_uint_eq(a.size, 768);
	ck_assert_uint_eq(a.align, 256);
}
END_TEST

START_TEST(test_parse_errors)
{
	/* Each message names the place (origin:line) and the field. */
	parse_fails(text_with(9, "d_bogus"), "t.layout:9:", "d_bogus");
	parse_fails(text_with(9, "d_flags"), "t.layout:9:", "d_flags");
	parse_fails(text_with(17, NULL), "d_u", "missing");
	parse_fails(text_with(8, "d_iname abc"), "t.layout:8:", "abc");
	parse_fails(text_with(8, "d_iname 8"), "t.layout:8:", "d_iname");
	parse_fails(text_with(9, "d_op @x"), "t.layout:9:", "d_op");
	parse_fails(text_with(9, "d_op @70000"), "t.layout:9:", "d_op");
	parse_fails(text_with(1, "struct file"), "t.layout:1:", "file");
	parse_fails(text_with(1, "struct dentry wide"), "t.layout:1:", "wide");
	parse_fails(text_with(1, "d_flags"), "t.layout:1:", "struct dentry");
	parse_fails("d_flags\n", "t.layout:1:", NULL);
	parse_fails("", "empty", NULL);
	parse_fails("# only a comment\n", "empty", NULL);
	parse_fails(text_with(9, "pad"), "t.layout:9:", "pad");
	parse_fails(text_with(9, "align 24"), "t.layout:9:", "24");
}
END_TEST

/* The documented contract (vfs/layout.h): errors name the line too. */
START_TEST(test_parse_errors_name_the_line)
{
	/* Misaligned: d_parent needs 8-byte alignment. */
	parse_fails(text_with(5, "d_parent @12"), "t.layout:5:", "d_parent");
	/* Overlap: d_op pinned onto d_flags. */
	parse_fails(text_with(9, "d_op @0"), "t.layout:9:", "d_op");
}
END_TEST

/* vfs.h: vfs_config_describe() gives "the canonical spec of cfg (every key)". */
START_TEST(test_describe_round_trips)
{
	struct vfs_config cfg, back;
	char err[256] = "", desc[512];

	vfs_config_default(&cfg);
	ck_assert_int_eq(vfs_config_parse(&cfg,
					  "dentry=v6.7,file=v6.12,files=shared-lock,dcount=dlock,"
					  "lockref-retry=7,fref=inc-not-zero,alloc-fd=v6.10,"
					  "nr-open=4096,dcache-max-unused=10,hash-shift=8",
					  err, sizeof(err)),
			 0);
	vfs_config_describe(&cfg, desc, sizeof(desc));
	vfs_config_default(&back);
	ck_assert_msg(!vfs_config_parse(&back, desc, err, sizeof(err)), "%s: %s", desc, err);
	ck_assert_str_eq(back.dentry_layout, cfg.dentry_layout);
	ck_assert_int_eq(back.lockref_retry, cfg.lockref_retry);
	ck_assert_msg(back.nr_open == cfg.nr_open, "'%s' loses nr-open", desc);
	ck_assert_msg(back.dentry_unused_max == cfg.dentry_unused_max,
		      "'%s' loses dcache-max-unused", desc);
	ck_assert_msg(back.d_hash_shift == cfg.d_hash_shift, "'%s' loses hash-shift", desc);
}
END_TEST

/* Blank lines count: the error is on line 4 of the file as written. */
START_TEST(test_parse_error_line_after_blank)
{
	parse_fails("struct dentry\n\nd_flags\nd_bogus\n", "t.layout:4:", "d_bogus");
	parse_fails("\n\nstruct file\n", "t.layout:3:", "file");
}
END_TEST

START_TEST(test_layout_file_spec)
{
	char path[] = "/tmp/vfslab-layout-XXXXXX";
	char err[256] = "", spec[64];
	struct layout l, ref = build(LS_DENTRY, "v6.11");
	int fd = mkstemp(path);
	const char *text = text_with(0, NULL);
	struct vfs_config cfg;

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, text, strlen(text)), (long)strlen(text));
	close(fd);
	ck_assert_int_eq(layout_build(&l, LS_DENTRY, path, err, sizeof(err)), 0);
	ck_assert_int_eq(memcmp(l.off, ref.off, sizeof(l.off)), 0);
	/* A bad file is named with its path and line. */
	fd = open(path, O_WRONLY | O_TRUNC);
	text = text_with(3, "d_nope");
	ck_assert_int_eq(write(fd, text, strlen(text)), (long)strlen(text));
	close(fd);
	ck_assert_int_eq(layout_build(&l, LS_DENTRY, path, err, sizeof(err)), -1);
	snprintf(spec, sizeof(spec), "%s:3:", path);
	ck_assert_msg(strstr(err, spec) && strstr(err, "d_nope"), "error: %s", err);
	vfs_config_default(&cfg);
	snprintf(spec, sizeof(spec), "dentry=%s", path);
	ck_assert_int_eq(vfs_config_parse(&cfg, spec, err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, "d_nope"), "error: %s", err);
	unlink(path);
	ck_assert_int_eq(layout_build(&l, LS_DENTRY, path, err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, path), "error: %s", err);
}
END_TEST

START_TEST(test_randomize)
{
	static const enum layout_struct ss[] = { LS_DENTRY, LS_FILE };
	int differ = 0;

	for (size_t k = 0; k < ARRAY_SIZE(ss); k++) {
		struct layout a = build(ss[k], "randomize:42"), b = build(ss[k], "randomize:42");
		struct layout c = build(ss[k], "randomize:43");

		/* Deterministic per seed, different between seeds. */
		ck_assert_int_eq(memcmp(a.off, b.off, sizeof(a.off)), 0);
		ck_assert_uint_eq(a.size, b.size);
		ck_assert_int_ne(memcmp(a.off, c.off, sizeof(a.off)), 0);
		ck_assert_str_eq(a.name, "randomize:42");
		/* Always valid, whatever the seed. */
		for (int seed = 0; seed < 200; seed++) {
			char spec[32], err[256] = "";
			struct layout r;

			snprintf(spec, sizeof(spec), "randomize:%d", seed);
			ck_assert_msg(!layout_build(&r, ss[k], spec, err, sizeof(err)), "%s: %s",
				      spec, err);
			ck_assert_int_eq(layout_validate(&r, NULL, 0), 0);
			differ += memcmp(r.off, a.off, sizeof(r.off)) != 0;
		}
	}
	ck_assert_int_gt(differ, 300);
	{
		struct layout l;
		char err[256] = "";

		ck_assert_int_eq(layout_build(&l, LS_DENTRY, "randomize:x", err, sizeof(err)), -1);
		ck_assert_msg(strstr(err, "randomize:x"), "error: %s", err);
	}
}
END_TEST

START_TEST(test_move_field)
{
	struct layout base = build(LS_DENTRY, "v6.11"), l = build(LS_DENTRY, "v6.11+d_lockref@192");
	char err[256] = "";

	ck_assert_uint_eq(l.off[D(d_lockref)], 192);
	ck_assert_uint_eq(l.size, 200);
	for (int i = 0; i < DENTRY_F_NR; i++)
		if (i != D(d_lockref))
			ck_assert_uint_eq(l.off[i], base.off[i]);
	ck_assert_ptr_nonnull(strstr(l.name, "d_lockref@192"));
	ck_assert_int_eq(layout_build(&l, LS_FILE, "v6.15+f_ref@0", err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, "f_ref") && strstr(err, "overlap"), "error: %s", err);
	ck_assert_int_eq(layout_build(&l, LS_DENTRY, "v6.11+d_nope@8", err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, "d_nope"), "error: %s", err);
	ck_assert_int_eq(layout_build(&l, LS_DENTRY, "v6.11+d_lockref", err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, "PRESET+FIELD@OFFSET"), "error: %s", err);
	ck_assert_int_eq(layout_build(&l, LS_DENTRY, "v6.11+d_lockref@12", err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, "d_lockref"), "error: %s", err);
	ck_assert_int_eq(layout_build(&l, LS_DENTRY, "v9.99+d_lockref@192", err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, "v9.99"), "error: %s", err);
}
END_TEST

START_TEST(test_move_field_gives_working_vfs)
{
	struct vt e;
	struct stat st;

	vt_begin(&e, "dentry=v6.11+d_lockref@192,file=v6.15+f_ref@192");
	ck_assert_uint_eq(e.v->dl.off[D(d_lockref)], 192);
	ck_assert_uint_eq(e.v->fl.off[F(f_ref)], 192);
	vt_touch(e.t, "/f");
	ck_assert_int_eq(vt_dcount(e.t, "/f"), 1);
	VT_EQ(sys_stat(e.t, "/f", &st), 0);
	vt_end(&e);
}
END_TEST

static void config_fails(const char *spec, const char *want1, const char *want2)
{
	struct vfs_config cfg;
	char err[256] = "";

	vfs_config_default(&cfg);
	ck_assert_int_eq(vfs_config_parse(&cfg, spec, err, sizeof(err)), -1);
	ck_assert_msg(strstr(err, want1), "'%s': error '%s' lacks '%s'", spec, err, want1);
	if (want2)
		ck_assert_msg(strstr(err, want2), "'%s': error '%s' lacks '%s'", spec, err, want2);
}

START_TEST(test_config_parse)
{
	struct vfs_config cfg, def;
	char err[256] = "", desc[512];

	vfs_config_default(&def);
	cfg = def;
	ck_assert_int_eq(
		vfs_config_parse(&cfg,
				 "dentry=v6.10,dcount=dlock,lockref-retry=unbounded,"
				 "fref=inc-not-zero,file=v6.12,files=shared-lock,"
				 "alloc-fd=v6.10,nr-open=4096,dcache-max-unused=10,hash-shift=8",
				 err, sizeof(err)),
		0);
	ck_assert_str_eq(cfg.dentry_layout, "v6.10");
	ck_assert_str_eq(cfg.file_layout, "v6.12");
	ck_assert_str_eq(cfg.files_layout, "shared-lock");
	ck_assert_int_eq(cfg.dcount, DCOUNT_DLOCK);
	ck_assert_int_eq(cfg.fref, FREF_INC_NOT_ZERO);
	ck_assert_int_eq(cfg.alloc_fd, ALLOC_FD_V610);
	ck_assert_uint_eq(cfg.nr_open, 4096);
	ck_assert_uint_eq(cfg.dentry_unused_max, 10);
	ck_assert_uint_eq(cfg.d_hash_shift, 8);
	vfs_config_describe(&cfg, desc, sizeof(desc));
	ck_assert_ptr_nonnull(strstr(desc, "dentry=v6.10"));
	ck_assert_ptr_nonnull(strstr(desc, "dcount=dlock"));
	ck_assert_ptr_nonnull(strstr(desc, "lockref-retry=unbounded"));
	ck_assert_ptr_nonnull(strstr(desc, "alloc-fd=v6.10"));
	/* The canonical spec parses back to the same switches. */
	cfg = def;
	ck_assert_int_eq(vfs_config_parse(&cfg, desc, err, sizeof(err)), 0);
	ck_assert_int_eq(cfg.dcount, DCOUNT_DLOCK);
	ck_assert_str_eq(cfg.file_layout, "v6.12");
	/* Every bad item is named, with its key. */
	config_fails("bogus=1", "bogus", NULL);
	config_fails("dcount=spin", "spin", "dcount");
	config_fails("fref=maybe", "maybe", "fref");
	config_fails("alloc-fd=v5.0", "v5.0", "alloc-fd");
	config_fails("lockref-retry=0", "0", "lockref-retry");
	config_fails("lockref-retry=-3", "-3", "lockref-retry");
	config_fails("nr-open=10", "10", "nr-open");
	config_fails("nr-open=12x", "12x", "nr-open");
	config_fails("hash-shift=40", "40", "hash-shift");
	config_fails("dcache-max-unused=-1", "-1", "dcache-max-unused");
	config_fails("dentry=v9.99", "v9.99", NULL);
	config_fails("file=v6.11", "v6.11", NULL);
	config_fails("files=v6.15", "v6.15", NULL);
	config_fails("dcount", "dcount", "KEY=VALUE");
	config_fails("=lockref", "=lockref", NULL);
	config_fails("dcount=", "dcount=", NULL);
	config_fails("dcount=dlock,fref=bad", "bad", "fref");
	ck_assert_ptr_nonnull(strstr(vfs_config_help(), "alloc-fd="));
}
END_TEST

START_TEST(test_vfs_new_rejects)
{
	struct vfs_config cfg;
	char err[256] = "";

	vfs_config_default(&cfg);
	cfg.d_hash_shift = 2;
	ck_assert_ptr_null(vfs_new(&cfg, err, sizeof(err)));
	ck_assert_ptr_nonnull(strstr(err, "d_hash_shift"));
	vfs_config_default(&cfg);
	cfg.nr_open = 10;
	ck_assert_ptr_null(vfs_new(&cfg, err, sizeof(err)));
	ck_assert_ptr_nonnull(strstr(err, "nr_open"));
	vfs_config_default(&cfg);
	strcpy(cfg.dentry_layout, "v1.0");
	ck_assert_ptr_null(vfs_new(&cfg, err, sizeof(err)));
	ck_assert_ptr_nonnull(strstr(err, "v1.0"));
}
END_TEST

/* ---- one script, every variant ---- */

struct record {
	long v[512];
	int n;
};

static void rec(struct record *r, long x)
{
	ck_assert_int_lt(r->n, (int)ARRAY_SIZE(r->v));
	r->v[r->n++] = x;
}

static void rec_stat(struct record *r, struct task *t, const char *path)
{
	struct stat st;
	long err = sys_lstat(t, path, &st);

	rec(r, err);
	if (!err) {
		rec(r, st.st_ino);
		rec(r, st.st_mode);
		rec(r, st.st_nlink);
		rec(r, st.st_size);
		rec(r, st.st_uid);
	}
}

static void run_script(const char *spec, struct record *r)
{
	static char longname[128];
	char buf[512], p[160];
	struct task *child, *th;
	struct vt e;
	long fd, dfd, len;

	memset(r, 0, sizeof(*r));
	vt_begin(&e, spec);
	memset(longname, 'L', 100);
	longname[100] = '\0';
	rec(r, sys_mkdir(e.t, "/a", 0755));
	rec(r, sys_mkdir(e.t, "/a/b", 0700));
	fd = sys_open(e.t, "/a/b/f", O_CREAT | O_RDWR, 0640);
	rec(r, fd);
	rec(r, sys_write(e.t, fd, "hello, world", 12));
	rec(r, sys_pwrite64(e.t, fd, "X", 1, 5000));
	rec(r, sys_lseek(e.t, fd, 0, SEEK_SET));
	rec(r, sys_read(e.t, fd, buf, 5));
	rec(r, memcmp(buf, "hello", 5));
	rec(r, sys_dup(e.t, fd));
	rec(r, sys_dup2(e.t, fd, 70));
	rec(r, sys_fcntl(e.t, 70, F_DUPFD_CLOEXEC, 3));
	rec_stat(r, e.t, "/a/b/f");
	rec(r, sys_symlink(e.t, "b/f", "/a/sl"));
	rec(r, sys_link(e.t, "/a/b/f", "/a/hard"));
	rec_stat(r, e.t, "/a/sl");
	rec_stat(r, e.t, "/a/hard");
	snprintf(p, sizeof(p), "/a/%s", longname);
	rec(r, sys_rename(e.t, "/a/hard", p));
	rec_stat(r, e.t, p);
	rec(r, sys_renameat2(e.t, AT_FDCWD, p, AT_FDCWD, "/a/sl", RENAME_EXCHANGE));
	rec_stat(r, e.t, p);
	rec_stat(r, e.t, "/a/sl");
	rec(r, sys_rename(e.t, "/a/b", "/a/c"));
	rec(r, sys_stat(e.t, "/a/b/f", (struct stat *)buf));
	rec_stat(r, e.t, "/a/c/f");
	rec(r, sys_chdir(e.t, "/a/c"));
	rec(r, sys_getcwd(e.t, buf, sizeof(buf)));
	child = task_fork(e.t, 0);
	th = task_fork(e.t, TASK_CLONE_FILES | TASK_CLONE_FS);
	rec(r, task_set_creds(child, 1000, 1000, 1000, 1000, NULL, 0));
	rec(r, sys_stat(child, "/a/c/f", (struct stat *)buf));
	rec(r, sys_chdir(child, "/"));
	rec(r, sys_open(child, "/a/c/f", O_RDONLY, 0));
	rec(r, sys_read(child, fd, buf, 100));
	rec(r, sys_close(child, fd));
	rec(r, sys_read(th, fd, buf, 100));
	rec(r, sys_open(th, "f", O_RDONLY, 0));
	task_exit(child);
	task_exit(th);
	rec(r, sys_chdir(e.t, "/"));
	dfd = sys_open(e.t, "/a", O_RDONLY | O_DIRECTORY, 0);
	rec(r, dfd);
	/* Listing order is the filesystem's; record length and names. */
	len = sys_getdents64(e.t, dfd, buf, sizeof(buf));
	rec(r, len);
	for (long o = 0; len > 0 && o < len;) {
		const struct linux_dirent64 *d = (const void *)(buf + o);

		rec(r, d->d_ino);
		rec(r, d->d_type);
		rec(r, d->d_name[0]);
		rec(r, strlen(d->d_name));
		o += d->d_reclen;
	}
	rec(r, sys_close_range(e.t, 0, ~0U, 0));
	rec(r, sys_unlink(e.t, "/a/sl"));
	rec(r, sys_unlink(e.t, p));
	rec(r, sys_rmdir(e.t, "/a/c"));
	rec(r, sys_unlink(e.t, "/a/c/f"));
	rec(r, sys_rmdir(e.t, "/a/c"));
	rec(r, sys_rmdir(e.t, "/a"));
	rec_stat(r, e.t, "/");
	/* Cached negative dentries (dcache-max-unused) are no semantics. */
	shrink_dcache_lru(e.v, 0);
	rec(r, vt_dcount(e.t, "/"));
	{
		struct vt_inuse in = vt_inuse(e.v);

		rec(r, in.dentries);
		rec(r, in.inodes);
		rec(r, in.files);
	}
	vt_end(&e);
}

START_TEST(test_variants_same_semantics)
{
	static const char *const specs[] = {
		"dentry=v6.7",
		"dentry=v6.10",
		"dentry=v6.11",
		"dentry=randomize:1",
		"dentry=randomize:7",
		"dentry=v6.11+d_lockref@192",
		"file=v6.12",
		"file=v6.15",
		"file=randomize:3",
		"files=kernel",
		"files=shared-lock",
		"dcount=dlock",
		"lockref-retry=unbounded",
		"lockref-retry=1",
		"fref=inc-not-zero",
		"alloc-fd=v6.10",
		"nr-open=128",
		"hash-shift=4",
		"dcache-max-unused=4",
		"dentry=v6.7,file=v6.12,files=shared-lock,dcount=dlock,fref=inc-not-zero,"
		"alloc-fd=v6.10",
	};
	static struct record ref, got;
	const struct layout_preset *p;
	unsigned int nr;

	run_script("", &ref);
	ck_assert_int_gt(ref.n, 60);
	for (size_t i = 0; i < ARRAY_SIZE(specs); i++) {
		run_script(specs[i], &got);
		ck_assert_int_eq(got.n, ref.n);
		for (int k = 0; k < ref.n; k++)
			ck_assert_msg(got.v[k] == ref.v[k], "%s: value %d is %ld, default %ld",
				      specs[i], k, got.v[k], ref.v[k]);
	}
	/* Presets added later are held to the same rule. */
	p = layout_presets(&nr);
	for (unsigned int i = 0; i < nr; i++) {
		static const char *const key[LS_NR] = { "dentry", "file", "files" };
		char spec[128];

		snprintf(spec, sizeof(spec), "%s=%s", key[p[i].s], p[i].name);
		run_script(spec, &got);
		ck_assert_int_eq(got.n, ref.n);
		for (int k = 0; k < ref.n; k++)
			ck_assert_msg(got.v[k] == ref.v[k], "%s: value %d is %ld, default %ld",
				      spec, k, got.v[k], ref.v[k]);
	}
}
END_TEST

static Suite *layout_suite(void)
{
	Suite *s = suite_create("layout");
	TCase *tc = tcase_create("layout");
	TCase *bugs = tcase_create("contract");

	tcase_add_test(tc, test_dentry_presets);
	tcase_add_test(tc, test_file_presets);
	tcase_add_test(tc, test_files_struct_presets);
	tcase_add_test(tc, test_every_preset_builds);
	tcase_add_test(tc, test_parse_valid);
	tcase_add_test(tc, test_parse_errors);
	tcase_add_test(tc, test_layout_file_spec);
	tcase_add_test(tc, test_randomize);
	tcase_add_test(tc, test_move_field);
	tcase_add_test(tc, test_move_field_gives_working_vfs);
	tcase_add_test(tc, test_config_parse);
	tcase_add_test(tc, test_vfs_new_rejects);
	tcase_add_test(tc, test_variants_same_semantics);
	suite_add_tcase(s, tc);
	/* Where vfs/layout.c did not do what vfs/layout.h promises, when written. */
	tcase_add_test(bugs, test_parse_errors_name_the_line);
	tcase_add_test(bugs, test_parse_error_line_after_blank);
	tcase_add_test(bugs, test_describe_round_trips);
	suite_add_tcase(s, bugs);
	return s;
}

VT_MAIN(layout_suite)
