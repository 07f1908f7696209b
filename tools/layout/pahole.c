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

void pahole_print(const struct layout *l, FILE *f)
{
	const struct layout_desc *d = l->desc;
	struct item items[LAYOUT_MAX_FIELDS + LAYOUT_MAX_PADS];
	unsigned int n = 0, pos = 0, holes = 0, hole_bytes = 0, line = 0;

	for (unsigned int i = 0; i < d->nr_fields; i++)
		items[n++] = (struct item){ l->off[i], l->slot[i], (int)i };
	for (unsigned int i = 0; i < l->nr_pads; i++)
		items[n++] = (struct item){ l->pads[i].off, l->pads[i].size, -1 };
	qsort(items, n, sizeof(items[0]), cmp_item);

	fprintf(f, "struct %s {\t/* layout %s */\n", d->name, l->name);
	for (unsigned int k = 0; k < n; k++) {
		const struct item *it = &items[k];
		char label[80];

		if (it->off > pos) {
			fprintf(f, "\n\t/* XXX %u bytes hole, try to pack */\n\n", it->off - pos);
			holes++;
			hole_bytes += it->off - pos;
		}
		while ((line + 1) * PAHOLE_CL <= it->off) {
			line++;
			if (line * PAHOLE_CL == it->off)
				fprintf(f, "\t/* --- cacheline %u boundary (%u bytes) --- */\n",
					line, line * PAHOLE_CL);
			else
				fprintf(f,
					"\t/* --- cacheline %u boundary (%u bytes) was %u bytes ago --- */\n",
					line, line * PAHOLE_CL, it->off - line * PAHOLE_CL);
		}
		if (it->field < 0) {
			fprintf(f, "\t%-32s %-20s /* %5u %5u */\n", "char", "__pad[]", it->off,
				it->size);
		} else {
			const struct layout_field_desc *fd = &d->fields[it->field];

			snprintf(label, sizeof(label), "%s%s%s%s", fd->name,
				 l->slot[it->field] > fd->size ? "[]" : "",
				 l->alias[it->field][0] ? " as " : "", l->alias[it->field]);
			fprintf(f, "\t%-32s %-20s /* %5u %5u */%s\n", fd->type, label, it->off,
				it->size, access_tag(fd->access));
		}
		if (it->off + it->size > pos)
			pos = it->off + it->size;
	}
	if (l->size > pos) {
		fprintf(f, "\n\t/* XXX %u bytes hole at the end */\n", l->size - pos);
		hole_bytes += l->size - pos;
	}
	fprintf(f, "\n\t/* size: %u, cachelines: %u, members: %u */\n", l->size,
		(l->size + PAHOLE_CL - 1) / PAHOLE_CL, d->nr_fields);
	if (holes || hole_bytes)
		fprintf(f, "\t/* holes: %u, sum holes: %u */\n", holes, hole_bytes);
	if (layout_stride(l) != l->size)
		fprintf(f, "\t/* slab stride: %u (aligned to %u) */\n", layout_stride(l), l->align);
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
