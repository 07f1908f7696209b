// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The MESI model behind coh_access(). A line has at most one owner (E or
 * M) or a set of sharers (S); a directory (this table) knows both, so a
 * miss goes straight to whoever has the line, as a snoop filter does.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "lib/compiler.h"
#include "tools/sim/coherence.h"

/*
 * The table's first size and its hash fix the order coh_stats_reset() frees
 * the statistics in, so where the next run's set-up objects land on the host
 * heap: changing them moves results on 128-byte lines (Kunpeng's f_count).
 */
#define COH_MIN_SHIFT 16

static uint64_t ns_to_ps(double ns)
{
	return (uint64_t)(ns * 1000 + 0.5);
}

static struct coh_line *tab_alloc(const struct coh *c, uint64_t n)
{
	void *p = mmap(NULL, n * c->stride, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

static void tab_free(const struct coh *c, struct coh_line *t, uint64_t n)
{
	if (t)
		munmap(t, n * c->stride);
}

/*
 * c->dist and c->at_dist, from c->place, in a mapping of their own: the
 * simulated code reads some host-heap objects (a worker's done[]), whose
 * addresses, and so lines, must not move with the run's CPU count.
 */
static size_t dist_bytes(const struct coh *c)
{
	return (size_t)c->ncpus * c->ncpus +
	       (size_t)c->ncpus * SIM_DIST_NR * c->words * sizeof(*c->at_dist);
}

static int dist_init(struct coh *c)
{
	unsigned int n = c->ncpus;
	void *p;

	c->words = (n + 63) / 64;
	p = mmap(NULL, dist_bytes(c), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return -1;
	/* The bitmaps first: they need their alignment. */
	c->at_dist = p;
	c->dist = (uint8_t *)(c->at_dist + (size_t)n * SIM_DIST_NR * c->words);
	for (unsigned int a = 0; a < n; a++) {
		uint64_t *m = c->at_dist + (size_t)a * SIM_DIST_NR * c->words;

		for (unsigned int b = 0; b < n; b++) {
			enum sim_dist d = sim_place_dist(&c->place[a], &c->place[b]);

			c->dist[(size_t)a * n + b] = (uint8_t)d;
			if (b != a)
				m[d * c->words + b / 64] |= 1ull << (b % 64);
		}
	}
	return 0;
}

int coh_init(struct coh *c, const struct sim_profile *p, unsigned int ncpus)
{
	memset(c, 0, sizeof(*c));
	c->ncpus = ncpus;
	for (unsigned int i = 0; i < ncpus; i++)
		sim_profile_place(p, i, &c->place[i]);
	if (dist_init(c))
		return -1;
	c->stride = sizeof(struct coh_line) + c->words * sizeof(uint64_t);
	for (int d = 0; d < SIM_DIST_NR; d++)
		c->xfer_ps[d] = ns_to_ps(p->xfer_ns[d]);
	c->llc_ps = ns_to_ps(p->llc_ns);
	c->mem_ps = ns_to_ps(p->mem_ns);
	c->atomic_ps = ns_to_ps(p->atomic_ns);
	c->upgrade_pm = (unsigned int)(p->upgrade * 1000 + 0.5);
	c->dirty_read_moves = p->dirty_read_moves;
	c->jitter_pm = (unsigned int)(p->xfer_jitter * sqrt(12.0) * 1000 + 0.5);
	c->line_shift = p->line_bytes ? (unsigned int)__builtin_ctz(p->line_bytes) : 6;
	c->mask = (1ull << COH_MIN_SHIFT) - 1;
	c->tab = tab_alloc(c, c->mask + 1);
	return c->tab ? 0 : -1;
}

static void stats_free(struct coh_stats *st)
{
	struct coh_contrib *k, *next;

	if (!st)
		return;
	for (k = st->contribs; k; k = next) {
		next = k->next;
		free(k);
	}
	free(st);
}

void coh_stats_reset(struct coh *c, bool counting)
{
	for (uint64_t i = 0; i <= c->mask; i++) {
		stats_free(coh_slot(c, i)->st);
		coh_slot(c, i)->st = NULL;
	}
	c->counting = counting;
}

void coh_reset(struct coh *c)
{
	coh_stats_reset(c, false);
	tab_free(c, c->tab, c->mask + 1);
	c->mask = (1ull << COH_MIN_SHIFT) - 1;
	c->tab = tab_alloc(c, c->mask + 1);
	c->used = 0;
	c->next_id = 0;
}

void coh_fini(struct coh *c)
{
	coh_stats_reset(c, false);
	tab_free(c, c->tab, c->mask + 1);
	c->tab = NULL;
	if (c->at_dist)
		munmap(c->at_dist, dist_bytes(c));
	c->dist = NULL;
	c->at_dist = NULL;
}

/* Double the table; lines move, their statistics do not. */
static void grow(struct coh *c)
{
	struct coh_line *old = c->tab;
	uint64_t n = c->mask + 1;
	struct coh_line *t = tab_alloc(c, 2 * n);

	if (!t)
		abort(); /* the simulator cannot go on without its directory */
	c->tab = t;
	c->mask = 2 * n - 1;
	for (uint64_t i = 0; i < n; i++) {
		const struct coh_line *o = (const struct coh_line *)((char *)old + i * c->stride);
		uint64_t s;

		if (!o->key)
			continue;
		for (s = coh_slot_of(c, o->key); coh_slot(c, s)->key; s = (s + 1) & c->mask)
			;
		memcpy(coh_slot(c, s), o, c->stride);
	}
	tab_free(c, old, n);
}

struct coh_line *coh_line_find(const struct coh *c, uint64_t line)
{
	uint64_t key = line + 1;

	for (uint64_t s = coh_slot_of(c, key);; s = (s + 1) & c->mask) {
		struct coh_line *l = coh_slot(c, s);

		if (l->key == key)
			return l;
		if (!l->key)
			return NULL;
	}
}

struct coh_line *coh_line_get_slow(struct coh *c, uint64_t line)
{
	uint64_t key = line + 1, s;
	struct coh_line *l;

	for (s = coh_slot_of(c, key);; s = (s + 1) & c->mask) {
		l = coh_slot(c, s);
		if (__builtin_expect(l->key == key, 1))
			return l;
		if (!l->key)
			break;
	}
	if (2 * (c->used + 1) > c->mask + 1) {
		grow(c);
		for (s = coh_slot_of(c, key); coh_slot(c, s)->key; s = (s + 1) & c->mask)
			;
	}
	l = coh_slot(c, s);
	l->key = key;
	l->owner = -1;
	l->id = c->next_id++;
	c->used++;
	return l;
}

void coh_ignore(struct coh *c, uintptr_t addr, uintptr_t size)
{
	for (uint64_t line = addr >> c->line_shift; line <= (addr + size - 1) >> c->line_shift;
	     line++)
		coh_line_get(c, line)->ignore = 1;
}

struct coh_stats *coh_stats_get(struct coh_line *l)
{
	if (!l->st) {
		l->st = calloc(1, sizeof(*l->st));
		if (!l->st)
			abort();
	}
	return l->st;
}

static uint64_t dist_ps(const struct coh *c, unsigned int a, unsigned int b)
{
	return c->xfer_ps[c->dist[(size_t)a * c->ncpus + b]];
}

/* Above this many sharers, look distances up by level rather than by sharer. */
#define COH_SCAN_SHARERS 8

/* The nearest and the farthest sharer other than @cpu, as transfer costs. */
static void sharer_span(const struct coh *c, const struct coh_line *l, unsigned int cpu,
			uint64_t *nearest, uint64_t *farthest)
{
	*nearest = UINT64_MAX;
	*farthest = 0;
	if (l->nsharers > COH_SCAN_SHARERS) {
		/* Which distances have a sharer: a few words per level, whatever their number. */
		const uint64_t *m = c->at_dist + (size_t)cpu * SIM_DIST_NR * c->words;

		for (int d = 0; d < SIM_DIST_NR; d++, m += c->words) {
			unsigned int w = 0;

			while (w < c->words && !(l->sharers[w] & m[w]))
				w++;
			if (w == c->words)
				continue;
			if (c->xfer_ps[d] < *nearest)
				*nearest = c->xfer_ps[d];
			if (c->xfer_ps[d] > *farthest)
				*farthest = c->xfer_ps[d];
		}
		return;
	}
	for (unsigned int w = 0; w < c->words; w++) {
		for (uint64_t m = l->sharers[w]; m; m &= m - 1) {
			unsigned int s = w * 64 + __builtin_ctzll(m);
			uint64_t d;

			if (s == cpu)
				continue;
			d = dist_ps(c, s, cpu);
			if (d < *nearest)
				*nearest = d;
			if (d > *farthest)
				*farthest = d;
		}
	}
}

/*
 * Ownership of a line others hold S: invalidate every other copy, in
 * parallel, so the farthest one sets the time. If we hold a copy, no data
 * moves: an upgrade, the profile's fraction of that time (`vfslab sim
 * calibrate` measures it: a locked RMW on a line both CPUs hold clean).
 */
static uint64_t inval_cost(const struct coh *c, uint64_t farthest, bool mine)
{
	uint64_t full = farthest > c->llc_ps ? farthest : c->llc_ps;

	return mine ? full * c->upgrade_pm / 1000 : full;
}

static void sharers_clear(const struct coh *c, struct coh_line *l)
{
	memset(l->sharers, 0, c->words * sizeof(l->sharers[0]));
	l->nsharers = 0;
}

static void sharer_add(struct coh_line *l, unsigned int cpu)
{
	if (!coh_has(l, cpu)) {
		l->sharers[cpu / 64] |= 1ull << (cpu % 64);
		l->nsharers++;
	}
}

static struct coh_contrib *contrib_get(struct coh_stats *st, unsigned int off, uintptr_t pc)
{
	struct coh_contrib **pp, *k;

	for (pp = &st->contribs; (k = *pp); pp = &k->next) {
		if (k->pc == pc && k->off == off) {
			/* Move to front: a line's hot accesses come back. */
			*pp = k->next;
			k->next = st->contribs;
			st->contribs = k;
			return k;
		}
	}
	k = calloc(1, sizeof(*k));
	if (!k)
		abort();
	k->pc = pc;
	k->off = off;
	k->next = st->contribs;
	st->contribs = k;
	return k;
}

/*
 * A transfer's time: its mean @cost moved by a draw of the profile's
 * spread. The draw depends only on the run's seed, the line and @start, so
 * a queue slot reserved with coh_estimate() is what coh_miss() then takes.
 */
static uint64_t xfer_time(const struct coh *c, const struct coh_line *l, uint64_t start,
			  uint64_t cost)
{
	uint64_t w = cost * c->jitter_pm / 1000, h;

	if (!w)
		return cost;
	/* the line by its first-touch order, not its address */
	h = sim_mix64(c->seed ^ ((uint64_t)l->id * 0x9e3779b97f4a7c15ull) ^
		      (start * 0xd1b54a32d192ed03ull));
	return cost - w / 2 + h % w;
}

/* A read of a line others hold S: the shared cache, or the nearest copy, or memory if nearer. */
static uint64_t shared_read_cost(const struct coh *c, uint64_t nearest)
{
	uint64_t cost = nearest <= c->xfer_ps[SIM_DIST_CLUSTER] ? c->llc_ps : nearest;

	return cost > c->mem_ps ? c->mem_ps : cost;
}

uint64_t coh_estimate(const struct coh *c, const struct coh_line *l, unsigned int cpu,
		      enum coh_kind kind, uint64_t start)
{
	uint64_t cost, nearest, farthest;

	if (l->owner >= 0 && l->owner != (int32_t)cpu)
		cost = dist_ps(c, l->owner, cpu);
	else if (l->owner == (int32_t)cpu)
		cost = 0;
	else if (l->nsharers) {
		sharer_span(c, l, cpu, &nearest, &farthest);
		if (kind == COH_READ)
			cost = shared_read_cost(c, nearest);
		else
			cost = inval_cost(c, farthest, coh_has(l, cpu));
	} else {
		return c->mem_ps + (kind == COH_RMW ? c->atomic_ps : 0);
	}
	return xfer_time(c, l, start, cost) + (kind == COH_RMW ? c->atomic_ps : 0);
}

uint64_t coh_miss(struct coh *c, struct coh_line *l, unsigned int cpu, uint64_t now,
		  enum coh_kind kind, unsigned int off, uintptr_t pc, bool count, uint64_t issued,
		  bool reserved)
{
	uint64_t cost, start = now, done, nearest, farthest;
	bool serial = true, hitm = false, remote = false, rfo = false, upgrade = false;
	bool from_mem = false;
	unsigned int inval = 0;
	struct coh_stats *st;

	if (l->ignore)
		return now;
	if (coh_is_hit(l, cpu, kind)) {
		/* A reserved access found the line already here. */
		done = coh_hit(c, l, now, kind, count);
		if (count) {
			st = coh_stats_get(l);
			st->stall_ps += done - issued;
			st->queue_ps += now - issued;
		}
		return done;
	}
	if (l->owner >= 0 && l->owner != (int32_t)cpu) {
		/* Another CPU has it E or M: it forwards the line. */
		unsigned int o = l->owner;

		cost = dist_ps(c, o, cpu);
		hitm = l->dirty;
		remote = c->place[o].socket != c->place[cpu].socket;
		l->owner = -1;
		l->dirty = 0;
		if (kind == COH_READ && hitm && c->dirty_read_moves) {
			/*
			 * A modified line read by another core moves: the owner
			 * writes it back and drops its copy, the reader gets it
			 * clean and exclusive, so its own RMW that follows needs
			 * no second request (what `vfslab sim calibrate` sees on
			 * Intel cores; MOESI's Owned state keeps both copies).
			 */
			inval = 1;
			l->owner = cpu;
		} else if (kind == COH_READ) {
			sharer_add(l, o);
			sharer_add(l, cpu);
		} else {
			rfo = true;
			inval = 1;
			l->owner = cpu;
			l->dirty = 1;
		}
	} else if (l->owner == (int32_t)cpu) {
		/* Only a read can miss... and it cannot: a write to our E/M line. */
		cost = 0;
		serial = false;
	} else if (l->nsharers) {
		bool mine = coh_has(l, cpu);

		sharer_span(c, l, cpu, &nearest, &farthest);
		if (kind == COH_READ) {
			cost = shared_read_cost(c, nearest);
			sharer_add(l, cpu);
			serial = false;
		} else {
			/* Ownership: invalidate every other copy, in parallel. */
			inval = l->nsharers - mine;
			upgrade = mine && !inval;
			cost = inval_cost(c, farthest, mine);
			rfo = true;
			sharers_clear(c, l);
			l->owner = cpu;
			l->dirty = 1;
		}
	} else {
		/* Nobody has it: memory. The first reader gets it E. */
		cost = c->mem_ps;
		serial = false;
		from_mem = true;
		l->owner = cpu;
		l->dirty = kind != COH_READ;
	}
	if (!reserved && l->busy_until > start)
		start = l->busy_until;
	if (!from_mem)
		cost = xfer_time(c, l, start, cost);
	if (kind == COH_RMW)
		cost += c->atomic_ps;
	done = start + cost;
	if (serial) {
		if (done > l->busy_until)
			l->busy_until = done;
		if (done > l->served_until)
			l->served_until = done;
	}
	if (inval && l->waiters && c->wake) {
		/* Spinners parked on this line see the new value from now on. */
		l->waiters = 0;
		c->wake(l->key - 1, done);
	}
	if (!count)
		return done;

	st = coh_stats_get(l);
	if (kind == COH_READ)
		st->loads++;
	else if (kind == COH_WRITE)
		st->stores++;
	else
		st->rmws++;
	if (hitm && remote)
		st->hitm_remote++;
	else if (hitm)
		st->hitm_local++;
	else if (from_mem)
		st->mem_fetch++;
	else if (kind == COH_READ)
		st->clean_fetch++;
	st->rfo += rfo;
	st->upgrade += upgrade;
	st->inval += inval;
	st->rmw_xfer += rfo && kind == COH_RMW;
	st->stall_ps += done - issued;
	st->queue_ps += start - issued;
	{
		struct coh_contrib *k = contrib_get(st, off, pc);

		k->kind_mask |= 1u << kind;
		k->events++;
		k->hitm += hitm;
		k->rfo += rfo;
		k->inval += inval;
		k->rmw_xfer += rfo && kind == COH_RMW;
		k->stall_ps += done - issued;
	}
	return done;
}

static int by_id(const void *a, const void *b)
{
	const struct coh_line *x = *(struct coh_line *const *)a, *y = *(struct coh_line *const *)b;

	return x->id < y->id ? -1 : x->id > y->id;
}

void coh_for_each_stats(struct coh *c, void (*fn)(void *ctx, struct coh_line *l, uint64_t line),
			void *ctx)
{
	struct coh_line **v;
	uint64_t n = 0;

	for (uint64_t i = 0; i <= c->mask; i++)
		n += coh_slot(c, i)->st != NULL;
	v = malloc((n + 1) * sizeof(*v));
	if (!v)
		abort();
	n = 0;
	for (uint64_t i = 0; i <= c->mask; i++)
		if (coh_slot(c, i)->st)
			v[n++] = coh_slot(c, i);
	qsort(v, n, sizeof(*v), by_id);
	for (uint64_t i = 0; i < n; i++)
		fn(ctx, v[i], v[i]->key - 1);
	free(v);
}
