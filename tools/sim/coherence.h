/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The coherence model: every line (64 bytes, or the profile's size) the
 * simulated code touches, who
 * holds it and in which MESI state, and when it is free for the next
 * transfer. A CPU's caches are one private cache of unbounded size (nothing
 * is evicted), so every miss is a coherence miss or a first touch.
 *
 * Costs come from the machine profile: a clean fetch from the shared cache,
 * a transfer from the CPU holding the line (by distance), the invalidation
 * of S copies (the farthest sharer; a fraction of it to upgrade a copy we
 * hold), a locked RMW's own latency. A hit costs nothing here: its
 * instruction is in the core model's block time (tools/sim/runtime.c).
 * Transfers of one line are serialised: a request reserves the slot after
 * the last one reserved (busy_until), and is not served before the last
 * transfer done has ended (served_until), which can be later when the line
 * changed hands after a slot was reserved and its transfer took longer.
 */
#ifndef VFSLAB_TOOLS_SIM_COHERENCE_H
#define VFSLAB_TOOLS_SIM_COHERENCE_H

#include <stdbool.h>
#include <stdint.h>

#include "tools/sim/profile.h"

#define SIM_MAX_CPUS 512

enum coh_kind { COH_READ, COH_WRITE, COH_RMW };

/* One (offset in line, code address) that caused coherence events. */
struct coh_contrib {
	struct coh_contrib *next;
	uintptr_t pc;
	uint8_t off;
	uint8_t kind_mask; /* 1 << enum coh_kind of the accesses */
	uint64_t events; /* accesses that were not plain hits */
	uint64_t hitm; /* found the line modified in another CPU */
	uint64_t rfo; /* needed ownership (write or RMW miss, upgrade) */
	uint64_t inval; /* copies it invalidated */
	uint64_t rmw_xfer; /* RMWs among the rfo */
	uint64_t stall_ps; /* time it waited, queue included */
};

struct coh_stats {
	uint64_t loads, stores, rmws; /* every access, hits included */
	uint64_t hitm_local, hitm_remote; /* modified elsewhere: same / other socket */
	uint64_t clean_fetch; /* read miss served clean (LLC or S copy) */
	uint64_t mem_fetch; /* nobody had it */
	uint64_t rfo, upgrade; /* ownership requests; S->M without a transfer */
	uint64_t inval; /* copies invalidated */
	uint64_t rmw_xfer; /* RMWs that needed a transfer or an upgrade */
	uint64_t stall_ps, queue_ps; /* time lost on the line; waiting for it */
	struct coh_contrib *contribs;
};

struct coh_line {
	uint64_t key; /* line number + 1; 0: empty slot */
	int32_t owner; /* the CPU holding it E or M, or -1 */
	uint8_t dirty; /* M rather than E */
	uint8_t ignore; /* not simulated (per-thread storage) */
	uint16_t nsharers;
	uint8_t waiters; /* parked spinners read it (tools/sim/sched.c) */
	uint32_t id; /* first-touch order: stable across runs */
	uint64_t busy_until; /* ps: the last transfer, reserved or done, ends */
	uint64_t served_until; /* ps: the last transfer coh_miss() did ends */
	struct coh_stats *st;
	uint64_t sharers[]; /* struct coh's words: as many as the CPUs need */
};

struct coh {
	struct coh_line *tab; /* entries of @stride bytes: coh_slot() */
	size_t stride;
	uint64_t mask, used;
	uint32_t next_id;
	unsigned int ncpus;
	struct sim_place place[SIM_MAX_CPUS];
	/*
	 * Distances precomputed, so that a miss costs the same at 512 CPUs
	 * as at 64: every pair's enum sim_dist (ncpus x ncpus), and for each
	 * CPU and distance the other CPUs that far (bitmaps of @words words).
	 */
	uint8_t *dist;
	uint64_t *at_dist;
	unsigned int words;
	uint64_t xfer_ps[SIM_DIST_NR];
	uint64_t llc_ps, mem_ps, atomic_ps;
	unsigned int upgrade_pm; /* an upgrade's cost, per mille of a transfer */
	bool dirty_read_moves; /* a read of a modified line takes it (profile.h) */
	unsigned int line_shift; /* log2 of the coherence line (profile.h) */
	/*
	 * A transfer's time is drawn uniformly over its mean +- half this many
	 * thousandths of it (the profile's xfer_jitter: sd = width / sqrt(12)),
	 * from a hash of @seed, the line and the time it starts.
	 */
	unsigned int jitter_pm;
	uint64_t seed;
	bool counting;
	/* Called when a line with waiters is written by another CPU. */
	void (*wake)(uint64_t line, uint64_t when);
};

/* Set up for @ncpus CPUs of @p; 0 or -1 (no memory). */
int coh_init(struct coh *c, const struct sim_profile *p, unsigned int ncpus);
void coh_fini(struct coh *c);
/* Forget every line (and its statistics). */
void coh_reset(struct coh *c);
/* Drop the statistics and start counting (or stop). */
void coh_stats_reset(struct coh *c, bool counting);
/* Accesses to these bytes cost nothing and are not tracked. */
void coh_ignore(struct coh *c, uintptr_t addr, uintptr_t size);

/*
 * The slow path of coh_access(): everything but a plain hit. @issued: when
 * the access was issued (for the statistics); @now: when it is served. If
 * !@reserved it first waits for the line's previous transfer.
 */
uint64_t coh_miss(struct coh *c, struct coh_line *l, unsigned int cpu, uint64_t now,
		  enum coh_kind kind, unsigned int off, uintptr_t pc, bool count, uint64_t issued,
		  bool reserved);
/* What a miss starting at @start would cost, without doing it (to reserve a queue slot). */
uint64_t coh_estimate(const struct coh *c, const struct coh_line *l, unsigned int cpu,
		      enum coh_kind kind, uint64_t start);

/* coh_line_get() past its first probe. */
struct coh_line *coh_line_get_slow(struct coh *c, uint64_t line);
struct coh_stats *coh_stats_get(struct coh_line *l);

/* splitmix64's finaliser: the simulator's draws, each a hash of what it depends on. */
static inline uint64_t sim_mix64(uint64_t x)
{
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

static inline uint64_t coh_slot_of(const struct coh *c, uint64_t key)
{
	return (key * 0x9e3779b97f4a7c15ull >> 20) & c->mask;
}

/* Slot @s of the table: a line's sharer bitmap is as long as the run's CPUs need. */
static inline struct coh_line *coh_slot(const struct coh *c, uint64_t s)
{
	return (struct coh_line *)((char *)c->tab + s * c->stride);
}

/* @line's entry, created on first touch. The first probe inline: most find it there. */
static inline struct coh_line *coh_line_get(struct coh *c, uint64_t line)
{
	struct coh_line *l = coh_slot(c, coh_slot_of(c, line + 1));

	if (__builtin_expect(l->key == line + 1, 1))
		return l;
	return coh_line_get_slow(c, line);
}

static inline bool coh_has(const struct coh_line *l, unsigned int cpu)
{
	return (l->sharers[cpu / 64] >> (cpu % 64)) & 1;
}

static inline bool coh_is_hit(const struct coh_line *l, unsigned int cpu, enum coh_kind kind)
{
	if (kind == COH_READ)
		return l->owner == (int32_t)cpu || coh_has(l, cpu);
	return l->owner == (int32_t)cpu;
}

/* A hit: count it, mark a written line dirty, return when it completes. */
static inline uint64_t coh_hit(struct coh *c, struct coh_line *l, uint64_t now, enum coh_kind kind,
			       bool count)
{
	if (count) {
		struct coh_stats *st = l->st ? l->st : coh_stats_get(l);

		if (kind == COH_READ)
			st->loads++;
		else if (kind == COH_WRITE)
			st->stores++;
		else
			st->rmws++;
	}
	if (kind == COH_READ)
		return now;
	l->dirty = 1;
	return now + (kind == COH_RMW ? c->atomic_ps : 0);
}

/* @addr's offset in its line. */
static inline unsigned int coh_line_off(const struct coh *c, uintptr_t addr)
{
	return addr & ((1u << c->line_shift) - 1);
}

/*
 * coh_access - one access by @cpu at time @now (ps) to the byte at @addr
 * (the caller splits accesses that cross a line). Returns when it completes.
 * @pc names the code for the contention report; @count: record statistics.
 */
static inline uint64_t coh_access(struct coh *c, unsigned int cpu, uint64_t now, uintptr_t addr,
				  enum coh_kind kind, uintptr_t pc, bool count)
{
	struct coh_line *l = coh_line_get(c, addr >> c->line_shift);

	if (__builtin_expect(!coh_is_hit(l, cpu, kind), 0))
		return coh_miss(c, l, cpu, now, kind, coh_line_off(c, addr), pc, count, now, false);
	return coh_hit(c, l, now, kind, count);
}

/* Look a line up without creating it (NULL if never touched). */
struct coh_line *coh_line_find(const struct coh *c, uint64_t line);
/* Call @fn for every line with statistics, in first-touch order. */
void coh_for_each_stats(struct coh *c, void (*fn)(void *ctx, struct coh_line *l, uint64_t line),
			void *ctx);

#endif /* VFSLAB_TOOLS_SIM_COHERENCE_H */
