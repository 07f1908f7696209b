// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The advisor's search over field orders. The fields fall in three groups
 * by the profile: write-shared (written at N CPUs and missing there), the
 * unshared path's (touched at 1 CPU), cold; pinned fields travel with
 * their leader (layout_pin_leader). Orders of the groups, each group in
 * the input's order or by size, with nothing, cold fields up to the line's
 * end, or a line boundary between the first two, are then improved by
 * moving one field at a time. The model only ranks: it charges the
 * accesses other fields take on a line a write-shared field is on (each
 * then misses at N), then the lines the unshared path touches, the lines
 * the struct takes and its holes. The simulator has the last word.
 */
#include <stdlib.h>
#include <string.h>

#include "tools/advise/advise.h"
#include "tools/layout/pahole.h"

#define BUILT_MAX 512

struct search {
	enum layout_struct s;
	const struct layout *in;
	const struct adv_field *fields;
	unsigned int nitems, nf; /* fields first, then the input's pads */
	unsigned int size[ADV_MAX_ITEMS], align[ADV_MAX_ITEMS];
	unsigned int lines1_in;
};

static unsigned int pow2_of(unsigned int size)
{
	unsigned int a = 1;

	while (a < 8 && !(size % (2 * a)))
		a *= 2;
	return a;
}

static bool is_pad(const struct search *sr, int t)
{
	return t >= (int)sr->nf;
}

static enum adv_class cls(const struct search *sr, int t)
{
	return is_pad(sr, t) ? ADV_COLD : sr->fields[t].cls;
}

/* The unshared path's lines and the model's cost of c's offsets and size. */
static void score(const struct search *sr, struct adv_cand *c, unsigned int holes)
{
	unsigned int nlines = (c->size + PAHOLE_CL - 1) / PAHOLE_CL;
	double shared_cost = 0;

	c->lines1 = 0;
	for (unsigned int n = 0; n < nlines; n++) {
		bool shared = false;
		unsigned int hot = 0;
		double others = 0;

		for (unsigned int i = 0; i < sr->nf; i++) {
			unsigned int s = c->off[i] / PAHOLE_CL,
				     e = (c->off[i] + sr->size[i] - 1) / PAHOLE_CL;

			if (n < s || n > e)
				continue;
			if (sr->fields[i].cls == ADV_SHARED)
				shared = true;
			else
				others += sr->fields[i].rn + sr->fields[i].wn;
			/* The objects touching a field touch those of the rarer ones too. */
			if (sr->fields[i].objs1 > hot)
				hot = sr->fields[i].objs1;
		}
		if (shared)
			shared_cost += others;
		c->lines1 += hot;
	}
	c->cost = 1000 * shared_cost + 10 * c->lines1 + nlines + holes / 64.0;
}

/* Place c's items in order, each at its natural alignment; the end. */
static unsigned int evaluate(const struct search *sr, struct adv_cand *c)
{
	unsigned int pos = 0, holes = 0;

	for (unsigned int k = 0; k < c->ntok; k++) {
		int t = c->tok[k];
		unsigned int a, off;

		if (t == ADV_ALIGN) {
			pos = (pos + PAHOLE_CL - 1) / PAHOLE_CL * PAHOLE_CL;
			continue;
		}
		a = sr->align[t];
		off = (pos + a - 1) / a * a;
		holes += off - pos;
		c->off[t] = off;
		pos = off + sr->size[t];
	}
	c->size = (pos + 7) / 8 * 8;
	if (sr->fields)
		score(sr, c, holes);
	return pos;
}

/* Append item t and whatever is pinned right after it. */
static void put(const struct search *sr, struct adv_cand *c, int t)
{
	c->tok[c->ntok++] = t;
	if (is_pad(sr, t))
		return;
	for (unsigned int i = 0; i < sr->nf; i++)
		if (layout_pin_leader(sr->s, i) == t)
			put(sr, c, i);
}

static bool pinned(const struct search *sr, int t)
{
	return !is_pad(sr, t) && layout_pin_leader(sr->s, t) >= 0;
}

/*
 * The items of class k: in the input's order (by offset, mode 0), biggest
 * first (1), or those more objects touch first, then biggest (2).
 */
static unsigned int group(const struct search *sr, enum adv_class k, int mode, int *out)
{
	unsigned int n = 0;
	unsigned int off[ADV_MAX_ITEMS];

	for (unsigned int t = 0; t < sr->nitems; t++) {
		if (cls(sr, t) != k || pinned(sr, t))
			continue;
		off[t] = is_pad(sr, t) ? sr->in->pads[t - sr->nf].off : sr->in->off[t];
		out[n++] = t;
	}
	/* Insertion sort: stable, and n is small. */
	for (unsigned int i = 1; i < n; i++) {
		for (unsigned int j = i; j > 0; j--) {
			int a = out[j - 1], b = out[j];
			unsigned int oa = is_pad(sr, a) ? 0 : sr->fields[a].objs1,
				     ob = is_pad(sr, b) ? 0 : sr->fields[b].objs1;
			bool bigger = sr->size[b] > sr->size[a] ||
				      (sr->size[b] == sr->size[a] && off[b] < off[a]);
			bool swap = mode == 2 ? ob > oa || (ob == oa && bigger) :
				    mode == 1 ? bigger :
						off[b] < off[a];

			if (!swap)
				break;
			out[j - 1] = b;
			out[j] = a;
		}
	}
	return n;
}

static bool same(const struct search *sr, const struct adv_cand *a, const struct adv_cand *b)
{
	return a->size == b->size && !memcmp(a->off, b->off, sr->nitems * sizeof(a->off[0]));
}

/* The item at c->tok[k] and its pinned followers: how many tokens move as one. */
static unsigned int span_at(const struct search *sr, const struct adv_cand *c, unsigned int k)
{
	unsigned int span = 1;

	while (k + span < c->ntok && c->tok[k + span] != ADV_ALIGN && pinned(sr, c->tok[k + span]))
		span++;
	return span;
}

/* x = c with the span tokens at k moved to before the at'th of the others; evaluated. */
static void move_span(const struct search *sr, const struct adv_cand *c, unsigned int k,
		      unsigned int span, unsigned int at, struct adv_cand *x)
{
	int rest[2 * ADV_MAX_ITEMS];
	unsigned int nr = 0;

	memset(x, 0, sizeof(*x));
	for (unsigned int j = 0; j < c->ntok; j++)
		if (j < k || j >= k + span)
			rest[nr++] = c->tok[j];
	for (unsigned int j = 0; j <= nr; j++) {
		if (j == at)
			for (unsigned int m = 0; m < span; m++)
				x->tok[x->ntok++] = c->tok[k + m];
		if (j < nr)
			x->tok[x->ntok++] = rest[j];
	}
	evaluate(sr, x);
	memcpy(x->how, c->how, sizeof(x->how));
}

/* Into *best, if cheaper: c with the item at k moved anywhere else; lines1 capped if cap. */
static void best_move(const struct search *sr, const struct adv_cand *c, unsigned int k, bool cap,
		      struct adv_cand *best)
{
	unsigned int span = span_at(sr, c, k);

	for (unsigned int at = 0; at + span <= c->ntok; at++) {
		struct adv_cand x;

		if (at == k)
			continue;
		move_span(sr, c, k, span, at, &x);
		if (cap && x.lines1 > sr->lines1_in)
			continue;
		if (x.cost < best->cost - 1e-9)
			*best = x;
	}
}

/* Move one item at a time while the cost drops; lines1 capped if cap. */
static void improve(const struct search *sr, struct adv_cand *c, bool cap)
{
	for (int round = 0; round < 64; round++) {
		struct adv_cand best = *c;

		for (unsigned int k = 0; k < c->ntok; k++)
			if (c->tok[k] != ADV_ALIGN && !pinned(sr, c->tok[k]))
				best_move(sr, c, k, cap, &best);
		if (best.cost >= c->cost - 1e-9)
			return;
		*c = best;
	}
}

/*
 * The smallest change: the input's order with each write-shared field
 * (and what is pinned to it) moved, one field at a time, to the place the
 * model likes best, everything else where it was. v6.11's dentry is
 * v6.10's with this one move of d_lockref.
 */
static void evict_shared(const struct search *sr, const struct adv_cand *input, struct adv_cand *c)
{
	*c = *input;
	evaluate(sr, c);
	for (unsigned int t = 0; t < sr->nf; t++) {
		struct adv_cand best = *c;
		unsigned int k = 0;

		if (sr->fields[t].cls != ADV_SHARED || pinned(sr, (int)t))
			continue;
		while (k < c->ntok && c->tok[k] != (int)t)
			k++;
		if (k == c->ntok)
			continue;
		best_move(sr, c, k, false, &best);
		*c = best;
	}
	snprintf(c->how, sizeof(c->how), "input, write-shared moved");
}

static void search_init(struct search *sr, const struct layout *in, const struct adv_field *fields)
{
	const struct layout_desc *d = in->desc;

	memset(sr, 0, sizeof(*sr));
	if (layout_struct_find(d->name, &sr->s))
		sr->s = LS_DENTRY;
	sr->in = in;
	sr->fields = fields;
	sr->nf = d->nr_fields;
	for (unsigned int i = 0; i < d->nr_fields; i++) {
		sr->size[i] = in->slot[i];
		sr->align[i] = d->fields[i].align;
	}
	sr->nitems = sr->nf;
	for (unsigned int p = 0; p < in->nr_pads; p++) {
		if (in->pads[p].align)
			continue; /* an `align`: the search places line boundaries itself */
		sr->size[sr->nitems] = in->pads[p].size;
		sr->align[sr->nitems++] = pow2_of(in->pads[p].size);
	}
}

/* The offset the input gives item t. */
static unsigned int input_off(const struct search *sr, int t)
{
	unsigned int p = 0;

	if (!is_pad(sr, t))
		return sr->in->off[t];
	/* The input's (t - nf)th pad that is no `align`. */
	for (unsigned int seen = 0;; p++)
		if (!sr->in->pads[p].align && seen++ == t - sr->nf)
			return sr->in->pads[p].off;
}

void adv_input(const struct layout *in, const struct adv_field *fields, struct adv_cand *c)
{
	struct search sr;
	unsigned int holes, used = 0;

	search_init(&sr, in, fields);
	memset(c, 0, sizeof(*c));
	for (unsigned int t = 0; t < sr.nitems; t++) {
		unsigned int k = c->ntok++;

		c->off[t] = input_off(&sr, t);
		used += sr.size[t];
		/* Insertion into offset order. */
		for (; k > 0 && c->off[c->tok[k - 1]] > c->off[t]; k--)
			c->tok[k] = c->tok[k - 1];
		c->tok[k] = t;
	}
	c->size = in->size;
	holes = in->size > used ? in->size - used : 0;
	score(&sr, c, holes);
	snprintf(c->how, sizeof(c->how), "input");
}

unsigned int adv_search(const struct layout *in, const struct adv_field *fields,
			struct adv_cand *out, unsigned int max, unsigned int *built)
{
	static const enum adv_class perms[6][3] = {
		{ ADV_HOT, ADV_SHARED, ADV_COLD }, { ADV_HOT, ADV_COLD, ADV_SHARED },
		{ ADV_SHARED, ADV_HOT, ADV_COLD }, { ADV_SHARED, ADV_COLD, ADV_HOT },
		{ ADV_COLD, ADV_HOT, ADV_SHARED }, { ADV_COLD, ADV_SHARED, ADV_HOT },
	};
	static const char *const letters = "CHS", *const seps[4] = { "", " fill", " line",
								     " fill+line" };
	struct search sr;
	struct adv_cand *all = calloc(BUILT_MAX, sizeof(*all)), input;
	unsigned int n = 0, nout = 0;

	if (!all)
		return 0;
	search_init(&sr, in, fields);
	adv_input(in, fields, &input);
	sr.lines1_in = input.lines1;
	for (int p = 0; p < 6; p++) {
		for (int v = 0; v < 6; v++) {
			for (int sep = 0; sep < 4; sep++) {
				struct adv_cand *c = &all[n];
				int g[3][ADV_MAX_ITEMS];
				unsigned int ng[3];
				bool used[ADV_MAX_ITEMS] = { false };

				memset(c, 0, sizeof(*c));
				for (int k = 0; k < 3; k++)
					ng[k] = group(&sr, perms[p][k],
						      perms[p][k] == ADV_COLD ? v / 3 : v % 3,
						      g[k]);
				for (unsigned int j = 0; j < ng[0]; j++)
					put(&sr, c, g[0][j]);
				if (sep & 1) {
					/* Cold items that fit before the line ends. */
					unsigned int end = evaluate(&sr, c),
						     edge = (end + PAHOLE_CL - 1) / PAHOLE_CL *
							    PAHOLE_CL;

					for (int k = 1; k < 3; k++) {
						if (perms[p][k] != ADV_COLD)
							continue;
						for (unsigned int j = 0; j < ng[k]; j++) {
							struct adv_cand x = *c;

							put(&sr, &x, g[k][j]);
							if (evaluate(&sr, &x) <= edge) {
								*c = x;
								used[g[k][j]] = true;
							}
						}
					}
				}
				if (sep & 2)
					c->tok[c->ntok++] = ADV_ALIGN;
				for (int k = 1; k < 3; k++)
					for (unsigned int j = 0; j < ng[k]; j++)
						if (!used[g[k][j]])
							put(&sr, c, g[k][j]);
				evaluate(&sr, c);
				snprintf(c->how, sizeof(c->how), "%c%c%c%s%s%s",
					 letters[perms[p][0]], letters[perms[p][1]],
					 letters[perms[p][2]],
					 v % 3 == 2 ? " by-objects" :
					 v % 3 == 1 ? " by-size" :
						      "",
					 v / 3 ? " cold-by-size" : "", seps[sep]);
				n++;
			}
		}
	}
	/* The input's own order, each item at its natural alignment, as one more start. */
	all[n] = input;
	evaluate(&sr, &all[n]);
	snprintf(all[n++].how, sizeof(all[0].how), "input order");
	/* Two searches from every order: the model's best, and the best within the input's lines. */
	for (unsigned int i = 0, m = n; i < m && n + 1 < BUILT_MAX; i++) {
		all[n] = all[i];
		improve(&sr, &all[n], false);
		snprintf(all[n].how + strlen(all[n].how), sizeof(all[n].how) - strlen(all[n].how),
			 " +moves");
		n++;
		if (all[i].lines1 <= sr.lines1_in) {
			all[n] = all[i];
			improve(&sr, &all[n], true);
			snprintf(all[n].how + strlen(all[n].how),
				 sizeof(all[n].how) - strlen(all[n].how), " +moves<=lines");
			n++;
		}
	}
	/* The smallest change is always simulated, if it is one. */
	if (n < BUILT_MAX && max) {
		evict_shared(&sr, &input, &all[n]);
		if (!same(&sr, &all[n], &input))
			out[nout++] = all[n];
		n++;
	}
	*built = n;
	/*
	 * A third of the picks by cost within the input's lines, a third the
	 * fewest lines (then cost), the rest by cost alone.
	 */
	for (int pass = 0; pass < 3; pass++) {
		while (nout < (pass == 2 ? max : (pass + 1) * max / 3)) {
			int best = -1;

			for (unsigned int i = 0; i < n; i++) {
				bool dup = same(&sr, &all[i], &input);

				for (unsigned int j = 0; j < nout && !dup; j++)
					dup = same(&sr, &all[i], &out[j]);
				if (dup || (!pass && all[i].lines1 > sr.lines1_in))
					continue;
				if (best < 0 || (pass == 1 && all[i].lines1 != all[best].lines1 ?
							 all[i].lines1 < all[best].lines1 :
							 all[i].cost < all[best].cost))
					best = i;
			}
			if (best < 0)
				break;
			out[nout++] = all[best];
		}
	}
	free(all);
	return nout;
}

char *adv_text(const struct layout *in, const struct adv_cand *c)
{
	const struct layout_desc *d = in->desc;
	size_t len = 0;
	char *text = NULL;
	FILE *f = open_memstream(&text, &len);
	struct search sr;
	unsigned int end = 0;

	if (!f)
		return NULL;
	search_init(&sr, in, NULL);
	fprintf(f, "# vfslab advise: from %s (%s)\n", in->name, c->how);
	fprintf(f, "struct %s%s\n", d->name, in->align >= 64 ? " hwcache" : "");
	for (unsigned int k = 0; k < c->ntok; k++) {
		int t = c->tok[k];

		if (t == ADV_ALIGN)
			continue;
		if (c->off[t] + sr.size[t] > end)
			end = c->off[t] + sr.size[t];
		if (!is_pad(&sr, t)) {
			fprintf(f, "%s %u @%u%s%s\n", d->fields[t].name, in->slot[t], c->off[t],
				in->alias[t][0] ? " as " : "", in->alias[t]);
		} else {
			unsigned int p = 0;

			for (unsigned int seen = 0;; p++)
				if (!in->pads[p].align && seen++ == t - sr.nf)
					break;
			fprintf(f, "pad %u @%u%s%s\n", in->pads[p].size, c->off[t],
				in->pads[p].name[0] ? " as " : "", in->pads[p].name);
		}
	}
	/* The input's tail (an aligned struct's): kept by an `align`. */
	for (unsigned int a = 16; a <= 64 && (end + 7) / 8 * 8 != c->size; a *= 2) {
		if ((end + a - 1) / a * a == c->size) {
			fprintf(f, "align %u\n", a);
			break;
		}
	}
	if (fclose(f)) {
		free(text);
		return NULL;
	}
	return text;
}

/* Fields in offset order under c (or the input, if c is NULL). */
static unsigned int field_order(const struct layout *in, const struct adv_cand *c, int *out)
{
	unsigned int n = in->desc->nr_fields;

	for (unsigned int i = 0; i < n; i++)
		out[i] = i;
	for (unsigned int i = 1; i < n; i++) {
		for (unsigned int j = i; j > 0; j--) {
			unsigned int a = c ? c->off[out[j - 1]] : in->off[out[j - 1]],
				     b = c ? c->off[out[j]] : in->off[out[j]];
			int t;

			if (b >= a)
				break;
			t = out[j - 1];
			out[j - 1] = out[j];
			out[j] = t;
		}
	}
	return n;
}

void adv_print_moves(FILE *f, const struct layout *in, const struct adv_cand *c)
{
	int a[LAYOUT_MAX_FIELDS], b[LAYOUT_MAX_FIELDS];
	unsigned int n = field_order(in, NULL, a),
		     lcs[LAYOUT_MAX_FIELDS + 1][LAYOUT_MAX_FIELDS + 1];
	unsigned int i = 0, j = 0, moved = 0;

	field_order(in, c, b);
	/* The longest common subsequence stays; the rest moved. */
	memset(lcs, 0, sizeof(lcs));
	for (int x = n - 1; x >= 0; x--)
		for (int y = n - 1; y >= 0; y--)
			lcs[x][y] = a[x] == b[y]		  ? lcs[x + 1][y + 1] + 1 :
				    lcs[x + 1][y] > lcs[x][y + 1] ? lcs[x + 1][y] :
								    lcs[x][y + 1];
	fprintf(f, "field order, input -> advised (- leaves its place, + takes a new one):\n");
	while (i < n || j < n) {
		const char *name;

		if (i < n && j < n && a[i] == b[j]) {
			name = in->desc->fields[a[i]].name;
			fprintf(f, "    %-20s @%-4u -> @%u\n", name, in->off[a[i]], c->off[a[i]]);
			i++;
			j++;
		} else if (j == n || (i < n && lcs[i + 1][j] >= lcs[i][j + 1])) {
			fprintf(f, "  - %-20s @%u\n", in->desc->fields[a[i]].name, in->off[a[i]]);
			i++;
		} else {
			fprintf(f, "  + %-20s       -> @%u\n", in->desc->fields[b[j]].name,
				c->off[b[j]]);
			j++;
			moved++;
		}
	}
	fprintf(f, "%u field%s moved\n", moved, moved == 1 ? "" : "s");
}
