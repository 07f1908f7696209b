// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The advisor's profile: a probe layout with every field on a line of its
 * own, so the simulator's per-line accounting of the struct's objects
 * (c2c.c) is per field: the reads and writes each takes per operation at
 * 1 CPU (the unshared path) and at N, and the misses it takes at N.
 */
#include <stdlib.h>
#include <string.h>

#include "tools/advise/advise.h"
#include "tools/layout/pahole.h"

char *adv_probe_text(const struct layout *in)
{
	const struct layout_desc *d = in->desc;
	unsigned int pos = 0;
	size_t len = 0;
	char *text = NULL;
	FILE *f = open_memstream(&text, &len);

	if (!f)
		return NULL;
	fprintf(f, "# vfslab advise's probe: each field on a line of its own\n");
	fprintf(f, "struct %s hwcache\n", d->name);
	for (unsigned int i = 0; i < d->nr_fields; i++) {
		fprintf(f, "%s %u @%u\n", d->fields[i].name, in->slot[i], pos);
		pos = (pos + in->slot[i] + PAHOLE_CL - 1) / PAHOLE_CL * PAHOLE_CL;
	}
	if (fclose(f)) {
		free(text);
		return NULL;
	}
	return text;
}

static const char *class_name(enum adv_class c)
{
	return c == ADV_SHARED ? "write-shared" : c == ADV_HOT ? "unshared path" : "cold";
}

void adv_profile(const struct adv_opts *o, const struct layout *probe, const struct adv_result *r,
		 struct adv_field *fields, FILE *f)
{
	const struct layout_desc *d = probe->desc;

	fprintf(f,
		"profile, per operation (a probe layout with every field on its own line, "
		"simulated):\n"
		"  %-20s %8s %8s %7s | %3u CPUs %8s %8s %9s | %s\n",
		"field", "1 CPU rd", "wr", "objects", o->cpus, "wr", "misses", "ns lost", "class");
	for (unsigned int i = 0; i < d->nr_fields; i++) {
		struct adv_field *x = &fields[i];
		unsigned int first = probe->off[i] / PAHOLE_CL,
			     last = (probe->off[i] + probe->slot[i] - 1) / PAHOLE_CL;

		memset(x, 0, sizeof(*x));
		for (unsigned int w = 0; w < o->nwl; w++) {
			for (int k = 0; k < 2; k++) {
				const struct adv_run *run = &r->run[w][k];
				double n = run->ops ? (double)run->ops : 1;

				for (unsigned int l = first; l <= last && l < C2C_OBJ_LINES; l++) {
					double rd = run->lines.line[l].loads / n,
					       wr = (run->lines.line[l].stores +
						     run->lines.line[l].rmws) /
						    n;

					if (!k) {
						x->r1 += rd;
						x->w1 += wr;
						if (run->lines.line[l].objects > x->objs1)
							x->objs1 = run->lines.line[l].objects;
						continue;
					}
					x->rn += rd;
					x->wn += wr;
					x->missn +=
						(run->lines.line[l].hitm + run->lines.line[l].rfo) /
						n;
					x->stalln += run->lines.line[l].stall_ps / 1000.0 / n;
				}
			}
		}
		/* Written and missing at N: other CPUs write the same object's field. */
		if (x->wn > 0 && x->missn >= 0.01)
			x->cls = ADV_SHARED;
		else if (x->r1 + x->w1 > 0)
			x->cls = ADV_HOT;
		else
			x->cls = ADV_COLD;
		fprintf(f, "  %-20s %8.3f %8.3f %7u | %8.3f %8.3f %8.3f %9.1f | %s\n",
			d->fields[i].name, x->r1, x->w1, x->objs1, x->rn, x->wn, x->missn,
			x->stalln, class_name(x->cls));
	}
}
