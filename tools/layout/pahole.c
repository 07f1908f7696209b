// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A layout printed the way pahole prints a struct: offsets, sizes, holes,
 * cache-line boundaries, the fields hot paths read and write; and the
 * warning where a write-hot field shares a line with read-hot ones.
 */
#include <stdlib.h>
#include <string.h>

#include "tools/layout/pahole.h"

static const char *access_tag(unsigned int a)
{
	static char buf[32];

	buf[0] = '\0';
	if (a & LA_RCU)
		strcat(buf, " rcu-read");
	if (a & LA_FD)
		strcat(buf, " fd-read");
	if (a & LA_REF)
		strcat(buf, " ref-write");
	if (a & LA_LOCK)
		strcat(buf, " lock-write");
	if (a & LA_WRITE)
		strcat(buf, " write");
	return buf;
}

struct item {
	unsigned int off, size;
	int field; /* -1: pad */
};

static int cmp_item(const void *a, const void *b)
{
	const struct item *x = a, *y = b;

	return (int)x->off - (int)y->off;
}

/* Does field i touch cache line n? */
bool pahole_on_line(const struct layout *l, int i, unsigned int n)
{
	unsigned int s = l->off[i], e = l->off[i] + l->desc->fields[i].size - 1;

	return s / PAHOLE_CL <= n && n <= e / PAHOLE_CL;
}

/* Warn where a write-hot field shares a line with read-hot lookup fields. */
int pahole_warnings(const struct layout *l, FILE *f)
{
	const struct layout_desc *d = l->desc;
	int warnings = 0;

	for (unsigned int n = 0; n <= (l->size - 1) / PAHOLE_CL; n++) {
		char writers[256] = "", readers[256] = "";

		for (unsigned int i = 0; i < d->nr_fields; i++) {
			if (!pahole_on_line(l, i, n))
				continue;
			if (d->fields[i].access & LA_WRITE_HOT) {
				strncat(writers, " ", sizeof(writers) - strlen(writers) - 1);
				strncat(writers, d->fields[i].name,
					sizeof(writers) - strlen(writers) - 1);
			} else if (d->fields[i].access & LA_READ_HOT) {
				strncat(readers, " ", sizeof(readers) - strlen(readers) - 1);
				strncat(readers, d->fields[i].name,
					sizeof(readers) - strlen(readers) - 1);
			}
		}
		if (writers[0] && readers[0]) {
			fprintf(f,
				"warning: cacheline %u: write-hot%s shares the line with "
				"read-mostly lookup fields%s\n",
				n, writers, readers);
			warnings++;
		}
	}
	return warnings;
}

/* One member's line: type, name, offset, size, what touches it; depth 1 or 2. */
static void put_member(FILE *f, int depth, const char *type, const char *name, unsigned int off,
		       unsigned int size, const char *tag)
{
	fprintf(f, "%.*s%-*s %-20s /* %5u %5u */%s\n", depth, "\t\t", 40 - 8 * depth, type, name,
		off, size, tag);
}

/*
 * Field i at its offset, as the kernel declares it where a declaration
 * fits the slot, else as vfslab's own type; the bytes printed.
 */
static unsigned int put_field(const struct layout *l, int i, FILE *f)
{
	const struct layout_field_desc *fd = &l->desc->fields[i];
	const struct pahole_decl *d = pahole_decl(l, i);
	const char *alias = l->alias[i], *tag = access_tag(fd->access);
	unsigned int off = l->off[i], size;
	char label[80], count[16] = "";

	if (!d) {
		/* The whole slot: an imported kernel's member may be bigger than vfslab's. */
		snprintf(label, sizeof(label), "%s%s%s", fd->name, *alias ? " as " : "", alias);
		put_member(f, 1, fd->type, label, off, l->slot[i], tag);
		return l->slot[i];
	}
	size = pahole_decl_size(d, l->slot[i]);
	if (!d->union_name) {
		if (d->m[0].array)
			snprintf(count, sizeof(count), "[%u]", size / d->m[0].size);
		snprintf(label, sizeof(label), "%s%s%s%s", fd->name, count, *alias ? " as " : "",
			 alias);
		put_member(f, 1, d->m[0].type, label, off, size, tag);
		return size;
	}
	fprintf(f, "\tunion {\n");
	for (int k = 0; k < PAHOLE_UNION_MAX && d->m[k].type; k++)
		put_member(f, 2, d->m[k].type, d->m[k].name, off, d->m[k].size, "");
	if (!*d->union_name)
		snprintf(label, sizeof(label), "}");
	else if (*alias)
		snprintf(label, sizeof(label), "} %s as %s", fd->name, alias);
	else
		snprintf(label, sizeof(label), "} %s", d->union_name);
	fprintf(f, "\t%-53s /* %5u %5u */%s\n", label, off, size, tag);
	return size;
}

void pahole_print(const struct layout *l, FILE *f)
{
	const struct layout_desc *d = l->desc;
	struct item items[LAYOUT_MAX_FIELDS + LAYOUT_MAX_PADS];
	unsigned int n = 0, pos = 0, holes = 0, hole_bytes = 0, line = 0, members = 0;
	unsigned int forced = 0, forced_holes = 0, forced_bytes = 0, struct_align = 0;

	for (unsigned int i = 0; i < d->nr_fields; i++)
		items[n++] = (struct item){ l->off[i], l->slot[i], (int)i };
	for (unsigned int i = 0; i < l->nr_pads; i++)
		items[n++] = (struct item){ l->pads[i].off, l->pads[i].size, -1 - (int)i };
	qsort(items, n, sizeof(items[0]), cmp_item);

	fprintf(f, "struct %s {\t/* layout %s */\n", d->name, l->name);
	for (unsigned int k = 0; k < n; k++) {
		const struct item *it = &items[k];
		unsigned int size;

		/* An `align` leaves a hole, as the kernel's aligned member does. */
		if (it->field < 0 && l->pads[-1 - it->field].align) {
			if (l->pads[-1 - it->field].align > struct_align)
				struct_align = l->pads[-1 - it->field].align;
			forced++;
			forced_holes += it->size > 0;
			forced_bytes += it->size;
			continue;
		}
		if (it->off > pos) {
			fprintf(f, "\n\t/* XXX %u bytes hole, try to pack */\n\n", it->off - pos);
			holes++;
			hole_bytes += it->off - pos;
		}
		/* As pahole: the boundary of the line this member starts in, once. */
		if (it->off / PAHOLE_CL > line) {
			line = it->off / PAHOLE_CL;
			if (line * PAHOLE_CL == it->off)
				fprintf(f, "\t/* --- cacheline %u boundary (%u bytes) --- */\n",
					line, line * PAHOLE_CL);
			else
				fprintf(f,
					"\t/* --- cacheline %u boundary (%u bytes) was %u bytes ago --- */\n",
					line, line * PAHOLE_CL, it->off - line * PAHOLE_CL);
		}
		if (it->field < 0) {
			char label[32];

			/* Bytes a preset keeps for a member vfslab does not model. */
			snprintf(label, sizeof(label), "%s[%u]",
				 l->pads[-1 - it->field].name[0] ? l->pads[-1 - it->field].name :
								   "__pad",
				 it->size);
			put_member(f, 1, "char", label, it->off, it->size, "");
			size = it->size;
		} else {
			size = put_field(l, it->field, f);
		}
		members += size;
		if (it->off + size > pos)
			pos = it->off + size;
	}
	fprintf(f, "\n\t/* size: %u, cachelines: %u, members: %u */\n", l->size,
		(l->size + PAHOLE_CL - 1) / PAHOLE_CL, d->nr_fields);
	if (holes)
		fprintf(f, "\t/* sum members: %u, holes: %u, sum holes: %u */\n", members, holes,
			hole_bytes);
	if (l->size > pos)
		fprintf(f, "\t/* padding: %u */\n", l->size - pos);
	if (forced)
		fprintf(f,
			"\t/* forced alignments: %u, forced holes: %u, sum forced holes: %u */\n",
			forced, forced_holes, forced_bytes);
	if (l->size % PAHOLE_CL)
		fprintf(f, "\t/* last cacheline: %u bytes */\n", l->size % PAHOLE_CL);
	if (layout_stride(l) != l->size)
		fprintf(f, "\t/* slab stride: %u (aligned to %u) */\n", layout_stride(l), l->align);
	if (struct_align)
		fprintf(f, "} __attribute__((__aligned__(%u)));\n", struct_align);
	else
		fprintf(f, "};\n");
}

void pahole_list_presets(FILE *f)
{
	unsigned int nr;
	const struct layout_preset *p = layout_presets(&nr);

	for (unsigned int i = 0; i < nr; i++)
		fprintf(f, "%-13s %-12s %s%s\n", layout_desc(p[i].s)->name, p[i].name, p[i].summary,
			!strcmp(p[i].name, layout_default_name(p[i].s)) ? " [default]" : "");
}
