/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Struct layouts as pahole prints them (pahole.c), with the hot-line
 * warnings, and the --check rules that keep fields on separate cache
 * lines (rules.c). vfslab layout and the shell's `layout` print them.
 */
#ifndef VFSLAB_TOOLS_LAYOUT_PAHOLE_H
#define VFSLAB_TOOLS_LAYOUT_PAHOLE_H

#include <stdbool.h>
#include <stdio.h>

#include "vfs/layout.h"

#define PAHOLE_CL 64u /* the cache line the printer and the rules assume */

#define PAHOLE_UNION_MAX 4

/* One member as the kernel declares it. */
struct pahole_member {
	const char *type;
	const char *name; /* a union member's; NULL for a field's one member */
	unsigned short size; /* sizeof(type) */
	bool array; /* of type, as many as the slot holds */
};

/*
 * How the kernel declares a field (decls.c): one member, or a union of
 * several at the field's offset.
 */
struct pahole_decl {
	enum layout_struct s;
	const char *name; /* the field's name, or the older one a preset gives with `as` */
	unsigned short slot; /* only for a slot of this size; 0: any */
	const char *only; /* only in these layouts ("v6.12 v6.15"); NULL: any */
	const char *union_name; /* NULL: m[0] alone; "": an anonymous union; or its name */
	struct pahole_member m[PAHOLE_UNION_MAX];
};

/* The kernel's declaration of l's field i, or NULL if none fits its slot. */
const struct pahole_decl *pahole_decl(const struct layout *l, int i);
/* The bytes d takes in a slot of that size (an array fills it), or 0 if it does not fit. */
unsigned int pahole_decl_size(const struct pahole_decl *d, unsigned int slot);

/*
 * The struct with offsets, sizes, holes and cache-line boundaries: each
 * field as the kernel declares it (arrays with their length, unions with
 * their members), or as vfslab stores it where no declaration fits.
 */
void pahole_print(const struct layout *l, FILE *f);
/* Warn where a write-hot field shares a line with read-hot lookup fields; how many. */
int pahole_warnings(const struct layout *l, FILE *f);
/* Does field i touch cache line n? */
bool pahole_on_line(const struct layout *l, int i, unsigned int n);
/* The named presets, one a line, the default marked. */
void pahole_list_presets(FILE *f);
/*
 * Check the rules read from in (named name) against ls[] (one layout per
 * struct), printing each rule's verdict and a summary on out; the
 * violations, or -1 after a malformed rule, a read error or no rule at
 * all (said on stderr).
 */
int pahole_check(FILE *in, const char *name, const struct layout *ls, FILE *out);

#endif /* VFSLAB_TOOLS_LAYOUT_PAHOLE_H */
