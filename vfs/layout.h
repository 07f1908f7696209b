/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Run-time struct layouts for struct dentry, struct file and struct
 * files_struct.
 *
 * The fields are listed once (layout_fields.def); a layout assigns each an
 * offset and a slot size. Presets are written in the same small text format
 * a user writes, so the kernel's historical layouts and a user's what-if go
 * through one parser and one validator:
 *
 *	# comment
 *	struct dentry [hwcache]
 *	d_flags
 *	d_iname 40          # slot size (default: the field's own size)
 *	d_sib 16 as d_child # print under the kernel's older name
 *	pad 8               # explicit hole
 *	align 64            # next field starts on a 64-byte boundary, and the
 *	                    # struct is 64-byte aligned (____cacheline_aligned)
 *	d_lockref @128      # or at an exact offset
 *	pad 8 @184 as f_x   # a member vfslab does not model, at an offset
 *
 * Fields are placed in the order given at their natural alignment unless an
 * '@offset' pins them; every field must appear exactly once.
 */
#ifndef VFSLAB_VFS_LAYOUT_H
#define VFSLAB_VFS_LAYOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum layout_struct { LS_DENTRY, LS_FILE, LS_FILES, LS_NR };

/* Who touches a field on the hot paths (see layout_fields.def). */
#define LA_RCU 0x01u
#define LA_FD 0x02u
#define LA_REF 0x04u
#define LA_LOCK 0x08u
#define LA_WRITE 0x10u
#define LA_READ_HOT (LA_RCU | LA_FD)
#define LA_WRITE_HOT (LA_REF | LA_LOCK | LA_WRITE)

#define FIELD_dentry(name, acc, type, size, align, access) DENTRY_F_##name,
enum dentry_field {
#include "vfs/layout_fields.def"
	DENTRY_F_NR
};
#define FIELD_file(name, acc, type, size, align, access) FILE_F_##name,
enum file_field {
#include "vfs/layout_fields.def"
	FILE_F_NR
};
#define FIELD_files_struct(name, acc, type, size, align, access) FILES_F_##name,
enum files_field {
#include "vfs/layout_fields.def"
	FILES_F_NR
};

#define LAYOUT_MAX_FIELDS 24
#define LAYOUT_MAX_PADS 32
#define LAYOUT_NAME_MAX 64

struct layout_field_desc {
	const char *name;
	const char *type; /* the C type, for the printer */
	unsigned short size; /* what vfslab stores in it */
	unsigned short align;
	unsigned char access; /* LA_* */
};

struct layout_desc {
	const char *name; /* "dentry" */
	const struct layout_field_desc *fields;
	unsigned int nr_fields;
};

struct layout {
	char name[LAYOUT_NAME_MAX];
	const struct layout_desc *desc;
	unsigned int size; /* sizeof(): a multiple of the largest `align` */
	unsigned int align; /* object alignment: 64 with hwcache, or the largest `align` */
	unsigned short off[LAYOUT_MAX_FIELDS];
	unsigned short slot[LAYOUT_MAX_FIELDS];
	char alias[LAYOUT_MAX_FIELDS][24]; /* printed name, or "" */
	unsigned short line[LAYOUT_MAX_FIELDS]; /* layout-file line, 0 if none */
	unsigned int nr_pads;
	struct {
		unsigned short off, size;
		unsigned short
			align; /* N of the `align N` that left it (maybe 0 bytes), 0 for `pad` */
		char name[24]; /* the kernel member a `pad ... as NAME` stands for, or "" */
	} pads[LAYOUT_MAX_PADS];
};

const struct layout_desc *layout_desc(enum layout_struct s);
/* Look a struct up by name ("dentry", "file", "files_struct"). */
int layout_struct_find(const char *name, enum layout_struct *s);
/* The stride objects have in their slab cache. */
unsigned int layout_stride(const struct layout *l);

/*
 * Build a layout from a spec: a preset name ("v6.11"), "randomize[:SEED]",
 * a kernel's own ("btf[:FILE]", "pahole:FILE": layout_import.c), a layout
 * file's path, or "" / NULL for the default. Returns 0, or -1 with
 * a message in err naming the line and field at fault.
 */
int layout_build(struct layout *l, enum layout_struct s, const char *spec, char *err,
		 size_t errlen);
/* Parse layout text (the file format above). */
int layout_parse(struct layout *l, enum layout_struct s, const char *text, const char *origin,
		 char *err, size_t errlen);
/* Move one field to an offset (the command-line form "field@offset"). */
int layout_move_field(struct layout *l, const char *field, unsigned int off, char *err,
		      size_t errlen);
/* Every field once, natural alignment, no overlap, inside the object. */
int layout_validate(const struct layout *l, char *err, size_t errlen);
int layout_field_index(const struct layout *l, const char *name);

/*
 * Pins: fields the kernel keeps together, which randomize:SEED and vfslab
 * advise never part. The field l's field i must follow right after, or -1.
 */
int layout_pin_leader(enum layout_struct s, unsigned int i);

/* The three layouts a vfs_config names (vfs/variant.c). */
struct vfs_config;
int vfs_config_layouts(const struct vfs_config *cfg, struct layout ls[LS_NR], char *err,
		       size_t errlen);

/* Presets, for `vfslab layout --list` and the tests. */
struct layout_preset {
	enum layout_struct s;
	const char *name;
	const char *summary;
	const char *text;
};
const struct layout_preset *layout_presets(unsigned int *nr);
const char *layout_default_name(enum layout_struct s);

#endif /* VFSLAB_VFS_LAYOUT_H */
