/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A kernel's own struct layout, imported from its BTF (layout_btf.c, with
 * libbpf) or from pahole's text (layout_pahole.c, for DWARF-only kernels),
 * as a tree of members; layout_import.c turns the tree into a layout.
 */
#ifndef VFSLAB_VFS_LAYOUT_IMPORT_H
#define VFSLAB_VFS_LAYOUT_IMPORT_H

#include <stddef.h>

#include "vfs/layout.h"

#define KSTRUCT_MAX_MEMBERS 512

/* One member of the kernel's struct, in declaration order, parents first. */
struct kmember {
	char name[48]; /* "" for an anonymous struct or union */
	unsigned int off, size; /* bytes, from the struct's start */
	unsigned int bits; /* a bit-field's width; off/size: the bytes it spans */
	char kind; /* 'm': a member; 's', 'u': an anonymous struct, union */
	int parent; /* index of the anonymous struct/union it is in, or -1 */
};

struct kstruct {
	char name[48];
	unsigned int size;
	unsigned int nr;
	struct kmember m[KSTRUCT_MAX_MEMBERS];
};

/* Read struct ks->name from BTF at path (raw or ELF); 0, or -1 with err. */
int kstruct_from_btf(struct kstruct *ks, const char *path, char *err, size_t errlen);
/* Read struct ks->name from pahole's text output at path; 0, or -1 with err. */
int kstruct_from_pahole(struct kstruct *ks, const char *path, char *err, size_t errlen);

/*
 * Build l from "btf", "btf:FILE" or "pahole:FILE" (the spec also names it).
 * Returns 1 if spec is none of these, else 0, or -1 with a message in err.
 */
int layout_import(struct layout *l, enum layout_struct s, const char *spec, char *err,
		  size_t errlen);

#endif /* VFSLAB_VFS_LAYOUT_IMPORT_H */
