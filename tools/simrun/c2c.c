// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The contention report, in the spirit of perf c2c but exact: every cache
 * line that cost time, ranked by the time the vCPUs lost on it, resolved to
 * its object (a slab object by cache name, a global by symbol) and, for
 * dentry, file and files_struct, to the fields the run's layout puts there;
 * then, per field and function, the coherence events it took part in.
 * Built while the VFS still exists (a dentry's name is read then).
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "lib/compiler.h"
#include "tools/bench/bench.h"
#include "tools/simrun/simrun.h"
#include "vfs/layout.h"

#define C2C_ROWS 8

struct cand {
	struct coh_line *l;
	uint64_t line;
};

struct collect {
	struct cand *v;
	size_t n, cap;
	struct coh_stats *total;
	struct c2c_struct_lines *structs;
};

static int layout_of(const char *tag);

/* A line of a dentry, file or files_struct: its accesses, by line index in the object. */
static void struct_line(struct c2c_struct_lines *structs, const struct coh_stats *st, uint64_t line)
{
	uintptr_t addr = (uintptr_t)line << sim.coh.line_shift, base;
	const char *tag;
	size_t size;
	uint32_t seq;
	unsigned int i;
	int k;

	if (!sim_arena_object(addr, &base, &size, &tag, &seq) || !tag[0] ||
	    (k = layout_of(tag)) < 0)
		return;
	i = (addr - base) >> sim.coh.line_shift;
	if (i >= C2C_OBJ_LINES)
		return;
	structs[k].touched++;
	structs[k].line[i].objects++;
	structs[k].line[i].loads += st->loads;
	structs[k].line[i].stores += st->stores;
	structs[k].line[i].rmws += st->rmws;
	structs[k].line[i].hitm += st->hitm_local + st->hitm_remote;
	structs[k].line[i].rfo += st->rfo;
	structs[k].line[i].stall_ps += st->stall_ps;
}

static void add_stats(struct coh_stats *t, const struct coh_stats *s)
{
	t->loads += s->loads;
	t->stores += s->stores;
	t->rmws += s->rmws;
	t->hitm_local += s->hitm_local;
	t->hitm_remote += s->hitm_remote;
	t->clean_fetch += s->clean_fetch;
	t->mem_fetch += s->mem_fetch;
	t->rfo += s->rfo;
	t->upgrade += s->upgrade;
	t->inval += s->inval;
	t->rmw_xfer += s->rmw_xfer;
	t->stall_ps += s->stall_ps;
	t->queue_ps += s->queue_ps;
}

static void collect(void *ctx, struct coh_line *l, uint64_t line)
{
	struct collect *c = ctx;

	add_stats(c->total, l->st);
	struct_line(c->structs, l->st, line);
	if (!l->st->contribs)
		return;
	if (c->n == c->cap) {
		c->cap = c->cap ? 2 * c->cap : 256;
		c->v = realloc(c->v, c->cap * sizeof(*c->v));
		if (!c->v)
			abort();
	}
	c->v[c->n].l = l;
	c->v[c->n].line = line;
	c->n++;
}

static int by_stall(const void *a, const void *b)
{
	const struct cand *x = a, *y = b;

	if (x->l->st->stall_ps != y->l->st->stall_ps)
		return x->l->st->stall_ps > y->l->st->stall_ps ? -1 : 1;
	return x->l->id < y->l->id ? -1 : x->l->id > y->l->id;
}

static int layout_of(const char *tag)
{
	if (!strcmp(tag, "dentry"))
		return LS_DENTRY;
	if (!strcmp(tag, "filp"))
		return LS_FILE;
	if (!strcmp(tag, "files_cache"))
		return LS_FILES;
	return -1;
}

static const char *field_name(const struct layout *l, unsigned int i)
{
	return l->alias[i][0] ? l->alias[i] : l->desc->fields[i].name;
}

/* The field of @l at byte @off, or a description of the gap. */
static void field_at(const struct layout *l, unsigned int off, char *out, size_t n)
{
	for (unsigned int i = 0; i < l->desc->nr_fields; i++) {
		if (off >= l->off[i] && off < l->off[i] + l->slot[i]) {
			snprintf(out, n, "%s", field_name(l, i));
			return;
		}
	}
	snprintf(out, n, off >= l->size ? "(slab padding)" : "(hole)");
}

static void fields_in(const struct layout *l, unsigned int lo, unsigned int bytes, char *out,
		      size_t n)
{
	size_t used = 0;

	out[0] = '\0';
	for (unsigned int o = lo; o < lo + bytes && used + 1 < n;) {
		unsigned int i, next = lo + bytes;

		for (i = 0; i < l->desc->nr_fields; i++)
			if (o >= l->off[i] && o < l->off[i] + l->slot[i])
				break;
		if (i < l->desc->nr_fields) {
			unsigned int end = l->off[i] + l->slot[i];

			used += snprintf(out + used, n - used, "%s%s +%u", used ? ", " : "",
					 field_name(l, i), l->off[i]);
			next = end;
		} else {
			/* Skip to the next field that starts in this line. */
			for (unsigned int k = 0; k < l->desc->nr_fields; k++)
				if (l->off[k] > o && l->off[k] < next)
					next = l->off[k];
		}
		o = next;
	}
}

/* A dentry's inline name, if it reads as one. */
static void dentry_name(const struct layout *l, uintptr_t base, char *out, size_t n)
{
	const char *p = (const char *)base + l->off[DENTRY_F_d_iname];
	unsigned int slot = l->slot[DENTRY_F_d_iname], i;

	out[0] = '\0';
	for (i = 0; i < slot && p[i]; i++)
		if (!isprint((unsigned char)p[i]))
			return;
	if (i == slot || i == 0 || i + 1 >= n)
		return;
	memcpy(out, p, i);
	out[i] = '\0';
}

static void resolve(struct c2c_line *cl, uint64_t line, const struct layout *ls)
{
	uintptr_t addr = (uintptr_t)line << sim.coh.line_shift, base, start;
	unsigned int last = (1u << sim.coh.line_shift) - 1;
	const char *tag, *sym;
	size_t size;
	uint32_t seq;
	int k;

	cl->obj_off = 0;
	if (sim_arena_object(addr, &base, &size, &tag, &seq)) {
		cl->obj_off = addr - base;
		k = tag[0] ? layout_of(tag) : -1;
		if (k == LS_DENTRY) {
			char name[64];

			dentry_name(&ls[k], base, name, sizeof(name));
			snprintf(cl->object, sizeof(cl->object),
				 name[0] ? "dentry \"%s\"" : "dentry", name);
		} else if (tag[0]) {
			snprintf(cl->object, sizeof(cl->object), "%s", tag);
		} else {
			snprintf(cl->object, sizeof(cl->object), "kmalloc-%zu", size);
		}
		if (k >= 0)
			fields_in(&ls[k], cl->obj_off, last + 1, cl->fields, sizeof(cl->fields));
		else
			snprintf(cl->fields, sizeof(cl->fields), "bytes %u-%u of %zu", cl->obj_off,
				 cl->obj_off + last, size);
		return;
	}
	sym = sim_symbol(addr + last, true, &start);
	if (sym && start <= addr + last) {
		snprintf(cl->object, sizeof(cl->object), "global %s", sym);
		cl->obj_off = start < addr ? addr - start : 0;
		snprintf(cl->fields, sizeof(cl->fields), "%s", sym);
		return;
	}
	snprintf(cl->object, sizeof(cl->object), "host memory");
	cl->fields[0] = '\0';
}

static int row_cmp(const void *a, const void *b)
{
	const struct c2c_row *x = a, *y = b;
	int c;

	if (x->stall_ps != y->stall_ps)
		return x->stall_ps > y->stall_ps ? -1 : 1;
	c = strcmp(x->field, y->field);
	return c ? c : strcmp(x->func, y->func);
}

static void rows(struct c2c_line *cl, const struct coh_line *l, uint64_t line,
		 const struct layout *ls)
{
	uintptr_t addr = (uintptr_t)line << sim.coh.line_shift, base;
	const char *tag = "";
	size_t size, n = 0, cap = 16;
	uint32_t seq;
	int k = -1;
	struct c2c_row *v = calloc(cap, sizeof(*v));

	if (sim_arena_object(addr, &base, &size, &tag, &seq) && tag[0])
		k = layout_of(tag);
	for (const struct coh_contrib *c = l->st->contribs; c; c = c->next) {
		char field[40], func[64];
		const char *f = sim_symbol(c->pc, false, NULL);
		size_t i;

		if (k >= 0)
			field_at(&ls[k], cl->obj_off + c->off, field, sizeof(field));
		else
			snprintf(field, sizeof(field), "+%u", cl->obj_off + c->off);
		snprintf(func, sizeof(func), "%s", f ? f : "?");
		for (i = 0; i < n; i++)
			if (!strcmp(v[i].field, field) && !strcmp(v[i].func, func))
				break;
		if (i == n) {
			if (n == cap) {
				cap *= 2;
				v = realloc(v, cap * sizeof(*v));
			}
			memset(&v[n], 0, sizeof(v[n]));
			memcpy(v[n].field, field, sizeof(field));
			memcpy(v[n].func, func, sizeof(func));
			n++;
		}
		v[i].events += c->events;
		v[i].hitm += c->hitm;
		v[i].rfo += c->rfo;
		v[i].inval += c->inval;
		v[i].rmw_xfer += c->rmw_xfer;
		v[i].stall_ps += c->stall_ps;
		v[i].kinds |= c->kind_mask;
	}
	qsort(v, n, sizeof(*v), row_cmp);
	cl->rows = v;
	cl->nrows = n < C2C_ROWS ? n : C2C_ROWS;
}

/* One (struct, field, function) of the heat map while it is summed. */
struct heat_fn {
	int k, i;
	char name[64];
	uint64_t events, stall_ps;
	unsigned int kinds;
};

static int heat_fn_cmp(const void *a, const void *b)
{
	const struct heat_fn *x = a, *y = b;

	if (x->stall_ps != y->stall_ps)
		return x->stall_ps > y->stall_ps ? -1 : 1;
	if (x->events != y->events)
		return x->events > y->events ? -1 : 1;
	return strcmp(x->name, y->name);
}

/* Sum line @l's contributions into the fields of its object, if it is one of ours. */
static void heat_line(struct c2c_heat *h, struct heat_fn **fv, size_t *nf, size_t *cap,
		      const struct coh_line *l, uint64_t line, const struct layout *ls)
{
	uintptr_t addr = (uintptr_t)line << sim.coh.line_shift, base;
	const char *tag;
	size_t size;
	uint32_t seq;
	int k;

	if (!sim_arena_object(addr, &base, &size, &tag, &seq) || (k = layout_of(tag)) < 0)
		return;
	for (const struct coh_contrib *c = l->st->contribs; c; c = c->next) {
		unsigned int off = addr - base + c->off, i;
		const char *f = sim_symbol(c->pc, false, NULL);
		struct c2c_heat_field *hf;
		size_t j;

		if (off / 64 < C2C_HEAT_LINES) {
			h->line[k][off / 64].events += c->events;
			h->line[k][off / 64].stall_ps += c->stall_ps;
		}
		for (i = 0; i < ls[k].desc->nr_fields; i++)
			if (off >= ls[k].off[i] && off < ls[k].off[i] + ls[k].slot[i])
				break;
		if (i == ls[k].desc->nr_fields)
			continue; /* a hole or the slab's padding */
		hf = &h->f[k][i];
		hf->events += c->events;
		hf->hitm += c->hitm;
		hf->rfo += c->rfo;
		hf->stall_ps += c->stall_ps;
		f = f ? f : "?";
		for (j = 0; j < *nf; j++)
			if ((*fv)[j].k == k && (*fv)[j].i == (int)i && !strcmp((*fv)[j].name, f))
				break;
		if (j == *nf) {
			if (*nf == *cap) {
				*cap = *cap ? 2 * *cap : 32;
				*fv = realloc(*fv, *cap * sizeof(**fv));
				if (!*fv)
					abort();
			}
			memset(&(*fv)[j], 0, sizeof(**fv));
			(*fv)[j].k = k;
			(*fv)[j].i = (int)i;
			snprintf((*fv)[j].name, sizeof((*fv)[j].name), "%s", f);
			(*nf)++;
		}
		(*fv)[j].events += c->events;
		(*fv)[j].stall_ps += c->stall_ps;
		(*fv)[j].kinds |= c->kind_mask;
	}
}

static struct c2c_heat *heat_build(const struct cand *v, size_t n, const struct layout *ls)
{
	struct c2c_heat *h = calloc(1, sizeof(*h));
	struct heat_fn *fv = NULL;
	size_t nf = 0, cap = 0;

	if (!h)
		abort();
	for (size_t i = 0; i < n; i++)
		heat_line(h, &fv, &nf, &cap, v[i].l, v[i].line, ls);
	if (nf)
		qsort(fv, nf, sizeof(*fv), heat_fn_cmp);
	for (size_t j = 0; j < nf; j++) {
		struct c2c_heat_field *hf = &h->f[fv[j].k][fv[j].i];

		if (hf->nfuncs == C2C_HEAT_FUNCS)
			continue;
		memcpy(hf->funcs[hf->nfuncs].name, fv[j].name, sizeof(fv[j].name));
		hf->funcs[hf->nfuncs].events = fv[j].events;
		hf->funcs[hf->nfuncs].stall_ps = fv[j].stall_ps;
		hf->funcs[hf->nfuncs].kinds = fv[j].kinds;
		hf->nfuncs++;
	}
	free(fv);
	return h;
}

void c2c_build(struct c2c_report *r, const struct vfs_config *cfg, unsigned int top)
{
	struct layout ls[LS_NR];
	struct collect c = { .total = &r->total, .structs = r->structs };
	char err[256];

	memset(r, 0, sizeof(*r));
	if (vfs_config_layouts(cfg, ls, err, sizeof(err)))
		return;
	coh_for_each_stats(&sim.coh, collect, &c);
	if (c.n) /* c.v is NULL when no line saw an event */
		qsort(c.v, c.n, sizeof(*c.v), by_stall);
	r->lines_with_events = c.n;
	r->nlines = c.n < top ? c.n : top;
	r->lines = calloc(r->nlines ? r->nlines : 1, sizeof(*r->lines));
	for (unsigned int i = 0; i < r->nlines; i++) {
		struct c2c_line *cl = &r->lines[i];

		cl->s = *c.v[i].l->st;
		cl->s.contribs = NULL;
		resolve(cl, c.v[i].line, ls);
		rows(cl, c.v[i].l, c.v[i].line, ls);
	}
	r->heat = heat_build(c.v, c.n, ls);
	free(c.v);
}

void c2c_free(struct c2c_report *r)
{
	for (unsigned int i = 0; i < r->nlines; i++)
		free(r->lines[i].rows);
	free(r->lines);
	free(r->heat);
	memset(r, 0, sizeof(*r));
}

static const char *kinds(unsigned int m)
{
	static const char *const names[8] = { "-",   "load",	 "store",     "load+store",
					      "rmw", "load+rmw", "store+rmw", "all" };

	return names[m & 7];
}

const char *c2c_kind_name(unsigned int mask)
{
	return kinds(mask);
}

void c2c_print(FILE *f, const struct c2c_report *r, uint64_t ops, const char *label)
{
	double n = ops ? (double)ops : 1;

	fprintf(f, "\n== contention report: %s ==\n", label);
	fprintf(f,
		"per operation: HITM (modified in another CPU) %.3f, ownership requests %.3f, "
		"invalidations %.3f,\n               RMW transfers %.3f, clean fetches %.3f, "
		"time lost %.1f ns; %llu lines took misses\n",
		(r->total.hitm_local + r->total.hitm_remote) / n, r->total.rfo / n,
		r->total.inval / n, r->total.rmw_xfer / n, r->total.clean_fetch / n,
		r->total.stall_ps / 1000.0 / n, (unsigned long long)r->lines_with_events);
	for (unsigned int i = 0; i < r->nlines; i++) {
		const struct c2c_line *cl = &r->lines[i];
		const struct coh_stats *s = &cl->s;

		fprintf(f, "\n#%u %s, line at +%u: %.1f ns/op lost (%.1f queueing)\n", i + 1,
			cl->object, cl->obj_off, s->stall_ps / 1000.0 / n,
			s->queue_ps / 1000.0 / n);
		if (cl->fields[0])
			fprintf(f, "   holds: %s\n", cl->fields);
		fprintf(f,
			"   per op: loads %.2f stores %.2f rmw %.2f | HITM %.3f (remote %.3f) "
			"RFO %.3f inval %.3f RMW-xfer %.3f clean %.3f\n",
			s->loads / n, s->stores / n, s->rmws / n,
			(s->hitm_local + s->hitm_remote) / n, s->hitm_remote / n, s->rfo / n,
			s->inval / n, s->rmw_xfer / n, s->clean_fetch / n);
		fprintf(f, "   %-18s %-28s %-10s %8s %7s %7s %7s %8s %9s\n", "field", "function",
			"accesses", "miss/op", "HITM", "RFO", "inval", "RMW-xfer", "ns/op");
		for (unsigned int k = 0; k < cl->nrows; k++) {
			const struct c2c_row *w = &cl->rows[k];

			fprintf(f,
				"   %-18.18s %-28.28s %-10s %8.3f %7.3f %7.3f %7.3f %8.3f %9.1f\n",
				w->field, w->func, kinds(w->kinds), w->events / n, w->hitm / n,
				w->rfo / n, w->inval / n, w->rmw_xfer / n,
				w->stall_ps / 1000.0 / n);
		}
	}
}

json_t *c2c_json(const struct c2c_report *r, uint64_t ops)
{
	double n = ops ? (double)ops : 1;
	json_t *root = json_object(), *lines = json_array();

	json_object_set_new(root, "hitm_per_op",
			    out_json_num((r->total.hitm_local + r->total.hitm_remote) / n, 6));
	json_object_set_new(root, "rfo_per_op", out_json_num(r->total.rfo / n, 6));
	json_object_set_new(root, "inval_per_op", out_json_num(r->total.inval / n, 6));
	json_object_set_new(root, "rmw_xfer_per_op", out_json_num(r->total.rmw_xfer / n, 6));
	json_object_set_new(root, "stall_ns_per_op",
			    out_json_num(r->total.stall_ps / 1000.0 / n, 3));
	for (unsigned int i = 0; i < r->nlines; i++) {
		const struct c2c_line *cl = &r->lines[i];
		json_t *line = json_object(), *rows = json_array();

		json_object_set_new(line, "object", out_json_str(cl->object));
		json_object_set_new(line, "offset", json_integer(cl->obj_off));
		json_object_set_new(line, "holds", out_json_str(cl->fields));
		json_object_set_new(line, "stall_ns_per_op",
				    out_json_num(cl->s.stall_ps / 1000.0 / n, 3));
		json_object_set_new(line, "hitm_per_op",
				    out_json_num((cl->s.hitm_local + cl->s.hitm_remote) / n, 6));
		json_object_set_new(line, "rfo_per_op", out_json_num(cl->s.rfo / n, 6));
		json_object_set_new(line, "inval_per_op", out_json_num(cl->s.inval / n, 6));
		json_object_set_new(line, "rmw_xfer_per_op", out_json_num(cl->s.rmw_xfer / n, 6));
		for (unsigned int k = 0; k < cl->nrows; k++) {
			const struct c2c_row *w = &cl->rows[k];
			json_t *row = json_object();

			json_object_set_new(row, "field", out_json_str(w->field));
			json_object_set_new(row, "function", out_json_str(w->func));
			json_object_set_new(row, "misses_per_op", out_json_num(w->events / n, 6));
			json_object_set_new(row, "hitm_per_op", out_json_num(w->hitm / n, 6));
			json_object_set_new(row, "rfo_per_op", out_json_num(w->rfo / n, 6));
			json_object_set_new(row, "inval_per_op", out_json_num(w->inval / n, 6));
			json_object_set_new(row, "rmw_xfer_per_op",
					    out_json_num(w->rmw_xfer / n, 6));
			json_object_set_new(row, "stall_ns_per_op",
					    out_json_num(w->stall_ps / 1000.0 / n, 3));
			json_array_append_new(rows, row);
		}
		json_object_set_new(line, "rows", rows);
		json_array_append_new(lines, line);
	}
	json_object_set_new(root, "lines", lines);
	return root;
}
