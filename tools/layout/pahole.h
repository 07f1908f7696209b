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

/* The struct with offsets, sizes, holes and cache-line boundaries. */
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
