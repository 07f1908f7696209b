// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Out-of-line RCU helpers.  rcu_defer_free() plays the part of the kernel's
 * kfree_rcu() for objects without an embedded rcu_head.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>

#include "lib/bug.h"
#include "lib/rcu.h"
#include "lib/spinlock.h"

#define DEFER_BATCH 62

#ifdef VFSLAB_TSAN
/* Released by every call_rcu() callback, acquired by rcu_barrier()'s caller. */
static char rcu_tsan_callbacks;
#endif

/* One thread's pending frees; a full batch goes to call_rcu() whole. */
struct defer_batch {
	struct rcu_head head;
	unsigned int n;
	struct {
		void (*fn)(void *ctx, void *obj);
		void *ctx;
		void *obj;
	} e[DEFER_BATCH];
};

/*
 * Per thread, and registered so rcu_barrier() can flush the batches of
 * every thread, exited ones included. The lock is the owner's except while
 * a barrier flushes.
 */
struct defer_slot {
	spinlock_t lock;
	struct defer_batch *cur;
	struct defer_slot *next;
};

static struct defer_slot *defer_slots;
static __thread struct defer_slot *defer_self;

static struct defer_slot *defer_slot_get(void)
{
	struct defer_slot *s = defer_self;

	if (likely(s))
		return s;
	s = calloc(1, sizeof(*s));
	BUG_ON(!s);
	spin_lock_init(&s->lock);
	s->next = __atomic_load_n(&defer_slots, __ATOMIC_ACQUIRE);
	while (!__atomic_compare_exchange_n(&defer_slots, &s->next, s, false, __ATOMIC_RELEASE,
					    __ATOMIC_ACQUIRE))
		;
	defer_self = s;
	return s;
}

static void defer_batch_cb(struct rcu_head *head)
{
	struct defer_batch *b = container_of(head, struct defer_batch, head);

	for (unsigned int i = 0; i < b->n; i++)
		b->e[i].fn(b->e[i].ctx, b->e[i].obj);
	free(b);
}

void rcu_defer_free(void *obj, void (*fn)(void *ctx, void *obj), void *ctx)
{
	struct defer_slot *s = defer_slot_get();
	struct defer_batch *b, *full = NULL;

	spin_lock(&s->lock);
	b = s->cur;
	if (unlikely(!b)) {
		b = malloc(sizeof(*b));
		/* Out of memory with nowhere to wait from: nothing sane is left. */
		BUG_ON(!b);
		b->n = 0;
		s->cur = b;
	}
	b->e[b->n].fn = fn;
	b->e[b->n].ctx = ctx;
	b->e[b->n].obj = obj;
	if (++b->n == DEFER_BATCH) {
		full = b;
		s->cur = NULL;
	}
	spin_unlock(&s->lock);
	if (full)
		call_rcu(&full->head, defer_batch_cb);
}

static pthread_once_t per_cpu_once = PTHREAD_ONCE_INIT;
static int per_cpu_err;

/*
 * liburcu's create_all_cpu_call_rcu_data() would start a worker for every
 * configured CPU, and one for a CPU outside our cpuset could never bind
 * there: start workers only for the CPUs this thread may use.
 */
static void per_cpu_start(void)
{
	cpu_set_t set, one;

	if (sched_getaffinity(0, sizeof(set), &set)) {
		per_cpu_err = -errno;
		return;
	}
	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		struct call_rcu_data *crdp;
		int r;

		if (!CPU_ISSET(cpu, &set) || urcu_memb_get_cpu_call_rcu_data(cpu))
			continue;
		crdp = urcu_memb_create_call_rcu_data(0, cpu);
		if (!crdp) {
			per_cpu_err = -ENOMEM;
			return;
		}
		/* liburcu binds its worker only after some grace periods: bind it now. */
		CPU_ZERO(&one);
		CPU_SET(cpu, &one);
		r = pthread_setaffinity_np(urcu_memb_get_call_rcu_thread(crdp), sizeof(one), &one);
		if (!r)
			r = urcu_memb_set_cpu_call_rcu_data(cpu, crdp);
		if (r) {
			urcu_memb_call_rcu_data_free(crdp);
			per_cpu_err = r < 0 ? r : -r; /* liburcu's -errno or pthread's errno */
			return;
		}
	}
}

int rcu_callbacks_per_cpu(void)
{
	pthread_once(&per_cpu_once, per_cpu_start);
	return per_cpu_err;
}

void rcu_barrier(void)
{
	for (struct defer_slot *s = __atomic_load_n(&defer_slots, __ATOMIC_ACQUIRE); s;
	     s = s->next) {
		struct defer_batch *b;

		spin_lock(&s->lock);
		b = s->cur;
		s->cur = NULL;
		spin_unlock(&s->lock);
		if (b)
			call_rcu(&b->head, defer_batch_cb);
	}
	urcu_memb_barrier();
#ifdef VFSLAB_TSAN
	__tsan_acquire(&rcu_tsan_callbacks);
#endif
}

#ifdef VFSLAB_TSAN
char rcu_tsan_readers;

/*
 * liburcu's worker calls func(head) with nothing TSan can follow, so the
 * callback is run through a trampoline that first acquires what the caller
 * released and what every earlier reader released.  The real callback waits
 * in a small table keyed by the rcu_head (this build only).
 */
struct tsan_cb {
	struct rcu_head *head;
	void (*func)(struct rcu_head *head);
	struct tsan_cb *next;
};

#define TSAN_CB_BUCKETS 1024
static struct tsan_cb *tsan_cbs[TSAN_CB_BUCKETS];
static pthread_mutex_t tsan_cb_lock = PTHREAD_MUTEX_INITIALIZER;

static unsigned int tsan_cb_bucket(const struct rcu_head *head)
{
	return (unsigned int)(((uintptr_t)head >> 4) % TSAN_CB_BUCKETS);
}

static void rcu_tsan_trampoline(struct rcu_head *head)
{
	struct tsan_cb **pp, *cb = NULL;
	void (*func)(struct rcu_head * head);

	pthread_mutex_lock(&tsan_cb_lock);
	for (pp = &tsan_cbs[tsan_cb_bucket(head)]; *pp; pp = &(*pp)->next) {
		if ((*pp)->head == head) {
			cb = *pp;
			*pp = cb->next;
			break;
		}
	}
	pthread_mutex_unlock(&tsan_cb_lock);
	BUG_ON(!cb);
	func = cb->func;
	free(cb);
	rcu_tsan_grace_period();
	func(head);
	__tsan_release(&rcu_tsan_callbacks);
}

void rcu_tsan_call_rcu(struct rcu_head *head, void (*func)(struct rcu_head *head))
{
	struct tsan_cb *cb = malloc(sizeof(*cb));
	unsigned int b = tsan_cb_bucket(head);

	BUG_ON(!cb);
	cb->head = head;
	cb->func = func;
	/* The mutex orders the caller's writes before the trampoline's reads. */
	pthread_mutex_lock(&tsan_cb_lock);
	cb->next = tsan_cbs[b];
	tsan_cbs[b] = cb;
	pthread_mutex_unlock(&tsan_cb_lock);
	urcu_memb_call_rcu(head, rcu_tsan_trampoline);
}
#endif
