// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * RCU for the simulator: the port's flavour of lib/arch.h's RCU entry
 * points, where lib/rcu.h and lib/rcu.c use liburcu natively.
 *
 * A read section is a per-vCPU nesting count, as in a non-preemptible
 * kernel (rcu_read_lock costs nothing). A grace period starts by noting
 * every vCPU inside a read section and ends when the last of them leaves
 * it. Callbacks wait in two per-vCPU segments (as the kernel's rcu_segcblist
 * does) and run on the vCPU that queued them, at its next quiescent point:
 * a syscall exit. rcu_defer_free() batches frees per vCPU like kfree_rcu().
 * All of it is driven by the simulation alone, so it is deterministic.
 */
#include <stdio.h>
#include <stdlib.h>

#include "lib/rcu.h"
#include "tools/sim/sim.h"

#define DEFER_BATCH 62
#define RCU_POLL_PS 1000000 /* a synchronize_rcu() waiter looks every 1 us */

struct defer_batch {
	struct rcu_head head;
	unsigned int n;
	struct {
		void (*fn)(void *ctx, void *obj);
		void *ctx;
		void *obj;
	} e[DEFER_BATCH];
};

static struct {
	uint64_t gp_seq; /* completed grace periods */
	uint64_t gp_wanted; /* the highest one somebody waits for */
	bool gp_active;
	unsigned int gp_waiting; /* readers the current one waits for */
	struct defer_batch *defer[SIM_MAX_CPUS + 1];
} R;

static struct sim_vcpu *all_vcpus(unsigned int i)
{
	return i < sim.nr ? &sim.vcpus[i] : &sim_host;
}

static void gp_start(void);

static void gp_complete(void)
{
	R.gp_seq++;
	R.gp_active = false;
	if (R.gp_wanted > R.gp_seq)
		gp_start();
}

static void gp_start(void)
{
	if (R.gp_active)
		return;
	R.gp_active = true;
	R.gp_waiting = 0;
	for (unsigned int i = 0; i <= sim.nr; i++) {
		struct sim_vcpu *v = all_vcpus(i);

		if (v->rcu_nest) {
			v->rcu_qs_needed = true;
			R.gp_waiting++;
		}
	}
	if (!R.gp_waiting)
		gp_complete();
}

/* The grace period a callback queued now must wait for. */
static uint64_t gp_target(void)
{
	uint64_t t = R.gp_seq + (R.gp_active ? 2 : 1);

	if (t > R.gp_wanted)
		R.gp_wanted = t;
	return t;
}

void sim_rcu_reset(void)
{
	for (unsigned int i = 0; i <= SIM_MAX_CPUS; i++)
		R.defer[i] = NULL;
	R.gp_active = false;
	R.gp_wanted = R.gp_seq;
	sim_host.rcu_nest = 0;
	sim_host.rcu_qs_needed = false;
	sim_host.cb_wait = sim_host.cb_next = NULL;
}

void rcu_read_lock(void)
{
	sim_self->rcu_nest++;
}

void rcu_read_unlock(void)
{
	struct sim_vcpu *v = sim_self;

	if (--v->rcu_nest || !v->rcu_qs_needed)
		return;
	v->rcu_qs_needed = false;
	if (!--R.gp_waiting)
		gp_complete();
}

bool rcu_read_lock_held(void)
{
	return sim_self->rcu_nest != 0;
}

void call_rcu(struct rcu_head *head, void (*func)(struct rcu_head *head))
{
	struct sim_vcpu *v = sim_self;
	uint64_t t = gp_target();

	head->func = func;
	head->next = NULL;
	if (!v->cb_wait || v->cb_wait_gp == t) {
		if (!v->cb_wait)
			v->cb_wait_tail = &v->cb_wait;
		*v->cb_wait_tail = head;
		v->cb_wait_tail = &head->next;
		v->cb_wait_gp = t;
	} else {
		if (!v->cb_next)
			v->cb_next_tail = &v->cb_next;
		*v->cb_next_tail = head;
		v->cb_next_tail = &head->next;
		if (t > v->cb_next_gp)
			v->cb_next_gp = t;
	}
	gp_start();
}

static void run_list(struct rcu_head *h)
{
	while (h) {
		struct rcu_head *next = h->next;

		h->func(h);
		h = next;
	}
}

/* @v passed a quiescent point: run what its grace periods have released. */
void sim_rcu_quiescent(struct sim_vcpu *v)
{
	while (v->cb_wait && R.gp_seq >= v->cb_wait_gp) {
		struct rcu_head *ready = v->cb_wait;

		v->cb_wait = v->cb_next;
		v->cb_wait_tail = v->cb_next_tail;
		v->cb_wait_gp = v->cb_next_gp;
		v->cb_next = NULL;
		v->cb_next_gp = 0;
		run_list(ready);
	}
}

/* Wait, in virtual time, for grace period @t. */
static void wait_gp(uint64_t t)
{
	gp_start();
	while (R.gp_seq < t) {
		if (!vfslab_sim_cur && !sim.running) {
			fprintf(stderr, "vfslab sim: synchronize_rcu() inside a read section\n");
			abort();
		}
		sim_charge(RCU_POLL_PS);
		sim_resched();
	}
}

void synchronize_rcu(void)
{
	wait_gp(gp_target());
}

static void defer_cb(struct rcu_head *head)
{
	struct defer_batch *b = (struct defer_batch *)head;

	for (unsigned int i = 0; i < b->n; i++)
		b->e[i].fn(b->e[i].ctx, b->e[i].obj);
	/* The batch is bookkeeping, not simulated memory. */
	free(b);
}

static void defer_flush(unsigned int i)
{
	struct defer_batch *b = R.defer[i];

	if (!b)
		return;
	R.defer[i] = NULL;
	call_rcu(&b->head, defer_cb);
}

void rcu_defer_free(void *obj, void (*fn)(void *ctx, void *obj), void *ctx)
{
	unsigned int i = sim_self->id;
	struct defer_batch *b = R.defer[i];

	if (!b) {
		b = malloc(sizeof(*b));
		if (!b)
			abort();
		b->n = 0;
		R.defer[i] = b;
	}
	b->e[b->n].fn = fn;
	b->e[b->n].ctx = ctx;
	b->e[b->n].obj = obj;
	if (++b->n == DEFER_BATCH)
		defer_flush(i);
}

/* A vCPU's callbacks run on that vCPU (sim_rcu_quiescent()) from the start. */
int rcu_callbacks_per_cpu(void)
{
	return 0;
}

/* Every callback of every vCPU, run here, after its grace period. */
void rcu_barrier(void)
{
	bool more = true;

	while (more) {
		uint64_t t = 0;

		more = false;
		for (unsigned int i = 0; i <= SIM_MAX_CPUS; i++) {
			struct sim_vcpu *v = i < sim.nr ? &sim.vcpus[i] : NULL;

			if (i == SIM_MAX_CPUS)
				v = &sim_host;
			if (R.defer[i])
				defer_flush(i);
			if (!v)
				continue;
			if (v->cb_wait && v->cb_wait_gp > t)
				t = v->cb_wait_gp;
			if (v->cb_next && v->cb_next_gp > t)
				t = v->cb_next_gp;
		}
		wait_gp(t);
		for (unsigned int i = 0; i <= sim.nr; i++) {
			struct sim_vcpu *v = all_vcpus(i);

			if (v->cb_wait || v->cb_next)
				more = true;
			sim_rcu_quiescent(v);
			sim_rcu_quiescent(v);
		}
	}
}
