// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Run-time struct layouts: descriptors, presets, the layout-file parser and
 * the validator. The offsets of every preset are the x86-64 ones from the
 * kernel headers of each release (no lockdep, no RANDSTRUCT).
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/kstrtox.h"
#include "vfs/layout.h"
#include "vfs/layout_import.h"

#define FIELD_dentry(n, acc, type, sz, al, access) { #n, #type, sz, al, access },
static const struct layout_field_desc dentry_fields[] = {
#include "vfs/layout_fields.def"
};
#define FIELD_file(n, acc, type, sz, al, access) { #n, #type, sz, al, access },
static const struct layout_field_desc file_fields[] = {
#include "vfs/layout_fields.def"
};
#define FIELD_files_struct(n, acc, type, sz, al, access) { #n, #type, sz, al, access },
static const struct layout_field_desc files_fields[] = {
#include "vfs/layout_fields.def"
};

static const struct layout_desc descs[LS_NR] = {
	[LS_DENTRY] = { "dentry", dentry_fields, DENTRY_F_NR },
	[LS_FILE] = { "file", file_fields, FILE_F_NR },
	[LS_FILES] = { "files_struct", files_fields, FILES_F_NR },
};

_Static_assert(DENTRY_F_NR <= LAYOUT_MAX_FIELDS, "raise LAYOUT_MAX_FIELDS");
_Static_assert(FILE_F_NR <= LAYOUT_MAX_FIELDS, "raise LAYOUT_MAX_FIELDS");
_Static_assert(FILES_F_NR <= LAYOUT_MAX_FIELDS, "raise LAYOUT_MAX_FIELDS");

/*
 * The presets. Offsets are in the comments so a reader can check them
 * against the kernel's pahole output; check_layout.c asserts them.
 */
static const struct layout_preset presets[] = {
	{ LS_DENTRY, "v6.11",
	  "v6.11+: d_lockref moved to offset 128, out of the RCU lookup lines (Guzik 2024)",
	  "struct dentry\n"
	  "d_flags\nd_seq\nd_hash\nd_parent\nd_name\nd_inode\n"
	  "d_iname 40\t# 56..95: cacheline 1 starts 8 bytes in\n"
	  "d_op\nd_sb\nd_time\nd_fsdata\n"
	  "d_lockref\t# 128: cacheline 2, apart from the name\n"
	  "d_lru\nd_sib\nd_children\nd_u\n" },
	{ LS_DENTRY, "v6.10",
	  "v6.8-v6.10: hlist children, 40-byte inline name, d_lockref at 96 in the line "
	  "RCU lookup reads the name from",
	  "struct dentry\n"
	  "d_flags\nd_seq\nd_hash\nd_parent\nd_name\nd_inode\n"
	  "d_iname 40\n"
	  "d_lockref\t# 96: shares cacheline 1 with name bytes 8..39\n"
	  "d_op\nd_sb\nd_time\nd_fsdata\n"
	  "d_lru\nd_sib\nd_children\nd_u\n" },
	{ LS_DENTRY, "v6.7",
	  "v6.7 and earlier: 32-byte inline name, d_lockref at 88, list_head children",
	  "struct dentry\n"
	  "d_flags\nd_seq\nd_hash\nd_parent\nd_name\nd_inode\n"
	  "d_iname 32\n"
	  "d_lockref\t# 88\n"
	  "d_op\nd_sb\nd_time\nd_fsdata\n"
	  "d_lru\n"
	  "d_sib 16 as d_child\n"
	  "d_children 16 as d_subdirs\n"
	  "d_u\n" },
	{ LS_FILE, "v6.15",
	  "v6.15+: f_ref at 176 in cacheline 2, away from f_mode/f_op (Pan Deng 2025)",
	  "struct file hwcache\n"
	  "f_lock\nf_mode\nf_op\nf_mapping\nprivate_data\nf_inode\nf_flags\n"
	  "f_iocb_flags\nf_cred\nf_owner\n"
	  "f_path\t# 64: cacheline 1\n"
	  "f_pos_lock 32\nf_pos\nf_security\n"
	  "f_wb_err\t# 128: cacheline 2\n"
	  "f_sb_err\nf_ep\n"
	  "f_ra 32\t# {f_task_work | f_llist | f_ra | f_freeptr}\n"
	  "f_ref\t# 176\n" },
	{ LS_FILE, "v6.12",
	  "v6.12-v6.14: struct file packed to 184 bytes, the count at offset 0 beside f_mode",
	  "struct file hwcache\n"
	  "f_ref\t# 0: same line as f_mode, f_op, f_inode, f_flags\n"
	  "f_lock\nf_mode\nf_op\nf_mapping\nprivate_data\nf_inode\nf_flags\n"
	  "f_iocb_flags\nf_cred\n"
	  "f_path\nf_pos_lock 32\nf_pos\nf_security\n"
	  "f_owner\t# 128\n"
	  "f_wb_err\nf_sb_err\nf_ep\n"
	  "f_ra 32\n" },
	{ LS_FILE, "v5.8",
	  "v5.8 (2020): f_count at 56 beside f_op and f_inode; f_mode at 68, just past the line",
	  "struct file hwcache\n"
	  "f_ra 16 as f_u\t# {fu_llist | fu_rcuhead}\n"
	  "f_path\nf_inode\nf_op\nf_lock\n"
	  "f_iocb_flags as f_write_hint\n"
	  "f_ref as f_count\t# 56\n"
	  "f_flags\t# 64: cacheline 1\n"
	  "f_mode\t# 68\n"
	  "f_pos_lock 32\nf_pos\n"
	  "f_owner 32\t# struct fown_struct, embedded then\n"
	  "f_cred\n"
	  "pad 32\t# f_ra (struct file_ra_state)\n"
	  "pad 8\t# f_version\n"
	  "f_security\nprivate_data\n"
	  "f_ep 16 as f_ep_links\n"
	  "pad 16\t# f_tfile_llink\n"
	  "f_mapping\nf_wb_err\nf_sb_err\n" },
	{ LS_FILE, "zhang-2020",
	  "the rejected 2020 patch: v5.8 with f_count moved to the end, away from f_mode",
	  "struct file hwcache\n"
	  "f_ra 16 as f_u\n"
	  "f_path\nf_inode\nf_op\nf_lock\n"
	  "f_iocb_flags as f_write_hint\n"
	  "f_flags\nf_mode\t# 60: now in line 0, with f_op\n"
	  "f_pos_lock 32\nf_pos\n"
	  "f_owner 32\nf_cred\n"
	  "pad 32\t# f_ra\n"
	  "pad 8\t# f_version\n"
	  "f_security\nprivate_data\n"
	  "f_ep 16 as f_ep_links\n"
	  "pad 16\t# f_tfile_llink\n"
	  "f_mapping\nf_wb_err\nf_sb_err\n"
	  "f_ref as f_count\t# 248: cacheline 3\n" },
	{ LS_FILES, "kernel", "files_struct as the kernel has it: file_lock on its own cache line",
	  "struct files_struct\n"
	  "count\nresize_in_progress\nresize_wait 24\nfdt\nfdtab\n"
	  "align 64\t# the written part, ____cacheline_aligned_in_smp\n"
	  "file_lock\nnext_fd\nclose_on_exec_init\nopen_fds_init\nfull_fds_bits_init\n"
	  "fd_array\n" },
	{ LS_FILES, "shared-lock",
	  "what-if: file_lock and next_fd in the read-mostly line with count and fdt",
	  "struct files_struct\n"
	  "count\nresize_in_progress\nfile_lock\nnext_fd\nresize_wait 24\nfdt\nfdtab\n"
	  "close_on_exec_init\nopen_fds_init\nfull_fds_bits_init\nfd_array\n" },
};

/*
 * What must stay together, in one table: d_iname right after d_name (the
 * name compare reads the qstr and then the inline bytes). A union's members
 * need no entry: each union is one field here (d_u, f_ra's slot).
 */
static const struct {
	enum layout_struct s;
	const char *leader, *follower;
} pins[] = {
	{ LS_DENTRY, "d_name", "d_iname" },
};

static int desc_index(enum layout_struct s, const char *name)
{
	for (unsigned int i = 0; i < descs[s].nr_fields; i++)
		if (!strcmp(descs[s].fields[i].name, name))
			return i;
	return -1;
}

int layout_pin_leader(enum layout_struct s, unsigned int i)
{
	for (size_t k = 0; k < sizeof(pins) / sizeof(pins[0]); k++)
		if (pins[k].s == s && !strcmp(pins[k].follower, descs[s].fields[i].name))
			return desc_index(s, pins[k].leader);
	return -1;
}

static const char *const default_names[LS_NR] = {
	[LS_DENTRY] = "v6.11",
	[LS_FILE] = "v6.15",
	[LS_FILES] = "kernel",
};

const struct layout_desc *layout_desc(enum layout_struct s)
{
	return &descs[s];
}

const struct layout_preset *layout_presets(unsigned int *nr)
{
	*nr = sizeof(presets) / sizeof(presets[0]);
	return presets;
}

const char *layout_default_name(enum layout_struct s)
{
	return default_names[s];
}

int layout_struct_find(const char *name, enum layout_struct *s)
{
	for (int i = 0; i < LS_NR; i++) {
		if (!strcmp(name, descs[i].name)) {
			*s = i;
			return 0;
		}
	}
	return -1;
}

int layout_field_index(const struct layout *l, const char *name)
{
	for (unsigned int i = 0; i < l->desc->nr_fields; i++) {
		if (!strcmp(name, l->desc->fields[i].name))
			return i;
		if (l->alias[i][0] && !strcmp(name, l->alias[i]))
			return i;
	}
	return -1;
}

unsigned int layout_stride(const struct layout *l)
{
	return (l->size + l->align - 1) / l->align * l->align;
}

static int fail(char *err, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int fail(char *err, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (err && len) {
		va_start(ap, fmt);
		vsnprintf(err, len, fmt, ap);
		va_end(ap);
	}
	return -1;
}

static void layout_reset(struct layout *l, enum layout_struct s)
{
	memset(l, 0, sizeof(*l));
	l->desc = &descs[s];
	for (unsigned int i = 0; i < LAYOUT_MAX_FIELDS; i++)
		l->off[i] = USHRT_MAX;
	l->align = 8;
}

/* Split one line into at most 8 words, dropping a '#' comment. */
static int split_words(char *line, char **w, int max)
{
	char *hash = strchr(line, '#');
	int n = 0;

	if (hash)
		*hash = '\0';
	for (char *p = strtok(line, " \t\r"); p && n < max; p = strtok(NULL, " \t\r"))
		w[n++] = p;
	return n;
}

static int parse_uint(const char *s, unsigned int *v)
{
	unsigned long long x;

	if (kstrtoull(s, 0, &x) || x > 65535)
		return -1;
	*v = x;
	return 0;
}

int layout_parse(struct layout *l, enum layout_struct s, const char *text, const char *origin,
		 char *err, size_t errlen)
{
	const struct layout_desc *d = &descs[s];
	char *copy = strdup(text), *save = NULL, *line;
	unsigned int pos = 0, lineno = 0, placed = 0, struct_align = 8;
	bool seen_struct = false;
	int ret = -1;

	if (!copy)
		return fail(err, errlen, "%s: out of memory", origin);
	layout_reset(l, s);
	snprintf(l->name, sizeof(l->name), "%s", origin);

	for (line = copy; line; line = save) {
		char *w[8];
		int n, idx;
		unsigned int v, size, at, align = 0;

		/* Line by line, blank ones included, so numbers match the file. */
		save = strchr(line, '\n');
		if (save)
			*save++ = '\0';
		lineno++;
		n = split_words(line, w, 8);
		if (!n)
			continue;
		if (!strcmp(w[0], "struct")) {
			if (seen_struct || n < 2 || n > 3) {
				fail(err, errlen, "%s:%u: expected 'struct %s [hwcache]' once",
				     origin, lineno, d->name);
				goto out;
			}
			if (strcmp(w[1], d->name)) {
				fail(err, errlen,
				     "%s:%u: layout is for struct %s, expected struct %s", origin,
				     lineno, w[1], d->name);
				goto out;
			}
			if (n == 3) {
				if (strcmp(w[2], "hwcache")) {
					fail(err, errlen, "%s:%u: unknown struct option '%s'",
					     origin, lineno, w[2]);
					goto out;
				}
				l->align = 64;
			}
			seen_struct = true;
			continue;
		}
		if (!seen_struct) {
			fail(err, errlen, "%s:%u: first line must be 'struct %s'", origin, lineno,
			     d->name);
			goto out;
		}
		if (!strcmp(w[0], "pad") || !strcmp(w[0], "align")) {
			const char *pname = "";

			if (n < 2 || parse_uint(w[1], &v) || !v) {
				fail(err, errlen, "%s:%u: '%s' needs one positive number", origin,
				     lineno, w[0]);
				goto out;
			}
			/* pad N [@OFF] [as NAME]: a kernel member vfslab does not model. */
			for (int k = 2; k < n; k++) {
				if (w[0][0] == 'p' && w[k][0] == '@') {
					if (parse_uint(w[k] + 1, &at) || at < pos) {
						fail(err, errlen,
						     "%s:%u: pad at '%s': not a number at or past "
						     "offset %u, the end so far",
						     origin, lineno, w[k], pos);
						goto out;
					}
					pos = at;
				} else if (w[0][0] == 'p' && !strcmp(w[k], "as") && k + 1 < n) {
					pname = w[++k];
				} else {
					fail(err, errlen, "%s:%u: %s: unexpected '%s'", origin,
					     lineno, w[0], w[k]);
					goto out;
				}
			}
			if (w[0][0] == 'a') {
				if (v & (v - 1)) {
					fail(err, errlen, "%s:%u: align %u is not a power of two",
					     origin, lineno, v);
					goto out;
				}
				/* As an aligned member: the struct is aligned so too. */
				if (v > struct_align)
					struct_align = v;
				align = v;
				/* Kept even when empty: the struct's alignment. */
				v = (pos + v - 1) / v * v - pos;
			}
			if (l->nr_pads == LAYOUT_MAX_PADS) {
				fail(err, errlen, "%s:%u: more than %d pads", origin, lineno,
				     LAYOUT_MAX_PADS);
				goto out;
			}
			l->pads[l->nr_pads].off = pos;
			l->pads[l->nr_pads].align = align;
			snprintf(l->pads[l->nr_pads].name, sizeof(l->pads[0].name), "%s", pname);
			l->pads[l->nr_pads++].size = v;
			pos += v;
			continue;
		}
		idx = -1;
		for (unsigned int i = 0; i < d->nr_fields; i++)
			if (!strcmp(w[0], d->fields[i].name))
				idx = i;
		if (idx < 0) {
			fail(err, errlen, "%s:%u: struct %s has no field '%s'", origin, lineno,
			     d->name, w[0]);
			goto out;
		}
		if (l->off[idx] != USHRT_MAX) {
			fail(err, errlen, "%s:%u: field '%s' appears twice", origin, lineno, w[0]);
			goto out;
		}
		size = d->fields[idx].size;
		at = USHRT_MAX;
		for (int k = 1; k < n; k++) {
			if (!strcmp(w[k], "as") && k + 1 < n) {
				snprintf(l->alias[idx], sizeof(l->alias[idx]), "%s", w[++k]);
			} else if (w[k][0] == '@') {
				if (parse_uint(w[k] + 1, &at)) {
					fail(err, errlen, "%s:%u: field '%s': bad offset '%s'",
					     origin, lineno, w[0], w[k]);
					goto out;
				}
			} else if (!parse_uint(w[k], &v)) {
				if (v < d->fields[idx].size) {
					fail(err, errlen,
					     "%s:%u: field '%s' needs at least %u bytes, got %u",
					     origin, lineno, w[0], d->fields[idx].size, v);
					goto out;
				}
				size = v;
			} else {
				fail(err, errlen, "%s:%u: field '%s': unexpected '%s'", origin,
				     lineno, w[0], w[k]);
				goto out;
			}
		}
		if (at == USHRT_MAX) {
			unsigned int a = d->fields[idx].align;

			at = (pos + a - 1) / a * a;
		}
		l->off[idx] = at;
		l->slot[idx] = size;
		l->line[idx] = lineno;
		if (at + size > pos)
			pos = at + size;
		placed++;
	}
	if (!seen_struct) {
		fail(err, errlen, "%s: empty layout (expected 'struct %s')", origin, d->name);
		goto out;
	}
	for (unsigned int i = 0; i < d->nr_fields; i++) {
		if (l->off[i] == USHRT_MAX) {
			fail(err, errlen, "%s: field '%s' of struct %s is missing", origin,
			     d->fields[i].name, d->name);
			goto out;
		}
	}
	/* sizeof(): a multiple of the struct's alignment, as C has it. */
	l->size = (pos + struct_align - 1) / struct_align * struct_align;
	if (struct_align > l->align)
		l->align = struct_align;
	ret = layout_validate(l, err, errlen);
out:
	free(copy);
	return ret;
}

/* "origin:line" for a field placed by a layout file's line, else "origin". */
static const char *where(const struct layout *l, unsigned int i, char *buf, size_t len)
{
	if (l->line[i])
		snprintf(buf, len, "%s:%u", l->name, l->line[i]);
	else
		snprintf(buf, len, "%s", l->name);
	return buf;
}

int layout_validate(const struct layout *l, char *err, size_t errlen)
{
	const struct layout_desc *d = l->desc;
	char at[LAYOUT_NAME_MAX + 16];

	for (unsigned int i = 0; i < d->nr_fields; i++) {
		const struct layout_field_desc *f = &d->fields[i];

		if (l->off[i] == USHRT_MAX)
			return fail(err, errlen, "%s: field '%s' has no offset", l->name, f->name);
		if (l->off[i] % f->align)
			return fail(err, errlen,
				    "%s: field '%s' at offset %u is not %u-byte aligned",
				    where(l, i, at, sizeof(at)), f->name, l->off[i], f->align);
		if (l->slot[i] < f->size)
			return fail(err, errlen, "%s: field '%s' slot of %u bytes < %u",
				    where(l, i, at, sizeof(at)), f->name, l->slot[i], f->size);
		if (l->off[i] + l->slot[i] > l->size)
			return fail(err, errlen, "%s: field '%s' ends past the object (%u > %u)",
				    where(l, i, at, sizeof(at)), f->name, l->off[i] + l->slot[i],
				    l->size);
		for (unsigned int j = 0; j < i; j++) {
			if (l->off[i] < l->off[j] + l->slot[j] &&
			    l->off[j] < l->off[i] + l->slot[i])
				return fail(
					err, errlen, "%s: field '%s' (%u+%u) overlaps '%s' (%u+%u)",
					where(l, l->line[i] >= l->line[j] ? i : j, at, sizeof(at)),
					f->name, l->off[i], l->slot[i], d->fields[j].name,
					l->off[j], l->slot[j]);
		}
	}
	if (l->size > 4096)
		return fail(err, errlen, "%s: object of %u bytes is too big", l->name, l->size);
	return 0;
}

int layout_move_field(struct layout *l, const char *field, unsigned int off, char *err,
		      size_t errlen)
{
	int idx = layout_field_index(l, field);

	if (idx < 0)
		return fail(err, errlen, "struct %s has no field '%s'", l->desc->name, field);
	l->off[idx] = off;
	if (off + l->slot[idx] > l->size)
		l->size = (off + l->slot[idx] + 7) / 8 * 8;
	snprintf(l->name + strnlen(l->name, sizeof(l->name) - 1),
		 sizeof(l->name) - strnlen(l->name, sizeof(l->name) - 1), "+%s@%u", field, off);
	return layout_validate(l, err, errlen);
}

/* xorshift64*: a tiny deterministic generator for randomize:SEED. */
static uint64_t next_rand(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545F4914F6CDD1DULL;
}

/*
 * Mimics __randomize_layout (scripts/gcc-plugins/randomize_layout_plugin.c's
 * full shuffle): a seeded permutation of the fields, each placed at its
 * natural alignment, pins kept. Slot sizes follow the default layout.
 */
static int layout_randomize(struct layout *l, enum layout_struct s, uint64_t seed, char *err,
			    size_t errlen)
{
	const struct layout_desc *d = &descs[s];
	struct layout def;
	unsigned int order[LAYOUT_MAX_FIELDS], kept[LAYOUT_MAX_FIELDS], pos = 0;
	uint64_t st = seed * 2654435761u + 0x9E3779B97F4A7C15ULL;

	if (layout_build(&def, s, NULL, err, errlen))
		return -1;
	layout_reset(l, s);
	snprintf(l->name, sizeof(l->name), "randomize:%llu", (unsigned long long)seed);
	l->align = def.align;
	for (unsigned int i = 0; i < d->nr_fields; i++)
		order[i] = i;
	for (unsigned int i = d->nr_fields - 1; i > 0; i--) {
		unsigned int j = next_rand(&st) % (i + 1), t = order[i];

		order[i] = order[j];
		order[j] = t;
	}
	/* A pinned field goes right after its leader, wherever that fell. */
	for (unsigned int k = 0, n = 0; k < d->nr_fields; k++)
		if (layout_pin_leader(s, order[k]) < 0)
			kept[n++] = order[k];
	for (unsigned int k = 0, n = 0; n < d->nr_fields; k++) {
		order[n++] = kept[k];
		for (unsigned int i = 0; i < d->nr_fields; i++)
			if (layout_pin_leader(s, i) == (int)kept[k])
				order[n++] = i;
	}
	for (unsigned int k = 0; k < d->nr_fields; k++) {
		unsigned int i = order[k], a = d->fields[i].align;

		pos = (pos + a - 1) / a * a;
		l->off[i] = pos;
		l->slot[i] = def.slot[i];
		pos += def.slot[i];
	}
	l->size = (pos + 7) / 8 * 8;
	return layout_validate(l, err, errlen);
}

static char *read_file(const char *path, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long n;

	if (!f) {
		fail(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	if (fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || n > 65536 || fseek(f, 0, SEEK_SET)) {
		fail(err, errlen, "%s: not a readable layout file (64 KiB at most)", path);
		fclose(f);
		return NULL;
	}
	buf = malloc(n + 1);
	if (buf && fread(buf, 1, n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	if (!buf) {
		fail(err, errlen, "%s: read failed", path);
		return NULL;
	}
	buf[n] = '\0';
	return buf;
}

int layout_build(struct layout *l, enum layout_struct s, const char *spec, char *err, size_t errlen)
{
	bool given = spec && *spec;
	const char *at;
	struct stat st;
	char *text;
	int ret;

	if (!given)
		spec = default_names[s];
	for (size_t i = 0; i < sizeof(presets) / sizeof(presets[0]); i++) {
		if (presets[i].s != s || strcmp(presets[i].name, spec))
			continue;
		/* A layout file of that name here may be what the user meant. */
		if (given && !stat(spec, &st) && S_ISREG(st.st_mode))
			return fail(err, errlen,
				    "'%s' is both a preset and a file here: write ./%s for the "
				    "file, or rename it to use the preset",
				    spec, spec);
		return layout_parse(l, s, presets[i].text, presets[i].name, err, errlen);
	}
	ret = layout_import(l, s, spec, err, errlen);
	if (ret <= 0)
		return ret;
	if (!strncmp(spec, "randomize", 9) && (spec[9] == '\0' || spec[9] == ':')) {
		unsigned long long seed = 0;

		if (spec[9] == ':' && kstrtoull(spec + 10, 0, &seed))
			return fail(err, errlen,
				    "%s: bad seed (want randomize:NUMBER, 0 to 2^64-1)", spec);
		return layout_randomize(l, s, seed, err, errlen);
	}
	/* "PRESET+field@off": a preset with one field moved. */
	at = strchr(spec, '+');
	if (at && !strchr(spec, '/')) {
		char base[LAYOUT_NAME_MAX], field[64];
		unsigned int off;
		const char *o = strchr(at, '@');

		if (!o || (size_t)(at - spec) >= sizeof(base) ||
		    (size_t)(o - at - 1) >= sizeof(field) || parse_uint(o + 1, &off))
			return fail(err, errlen, "%s: expected PRESET+FIELD@OFFSET", spec);
		memcpy(base, spec, at - spec);
		base[at - spec] = '\0';
		memcpy(field, at + 1, o - at - 1);
		field[o - at - 1] = '\0';
		if (layout_build(l, s, base, err, errlen))
			return -1;
		return layout_move_field(l, field, off, err, errlen);
	}
	if (!strchr(spec, '/') && !strchr(spec, '.'))
		goto unknown;
	text = read_file(spec, err, errlen);
	if (!text) {
		if (strchr(spec, '/'))
			return -1;
		goto unknown;
	}
	ret = layout_parse(l, s, text, spec, err, errlen);
	free(text);
	return ret;
unknown:
	return fail(
		err, errlen,
		"unknown %s layout '%s' (try `vfslab layout --list`, a file, or randomize:SEED)",
		descs[s].name, spec);
}
