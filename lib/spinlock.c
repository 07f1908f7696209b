// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Contended spinlock acquisition.  Models queued_spin_lock_slowpath()
 * (kernel/locking/qspinlock.c) without its paravirt hooks: the first waiter
 * sets the pending byte and spins on the lock word; the others queue, MCS
 * style, each spinning on its own node, and only the head of the queue
 * watches the lock word.  When the lock changes hands only the next waiter's
 * line is written, where a test-and-test-and-set lock invalidates every
 * waiter's copy of the lock's line.
 *
 * What differs in userspace:
 *  - The kernel keeps the nodes per CPU.  Threads here are preempted and
 *    migrate, so the nodes are per thread: a registry of SPIN_Q_THREADS
 *    slots of SPIN_Q_NODES nodes each (one cache line), the tail naming a
 *    slot and a node.  A thread claims a slot on its first queued wait and a
 *    pthread key's destructor gives it back when the thread exits.  In the
 *    simulator every virtual CPU runs on one host thread, so the slot is the
 *    virtual CPU's number instead.
 *  - A node is in use only while its thread waits in here: holding two locks
 *    takes no node, only waiting inside a wait would (the kernel's
 *    interrupt contexts).  Nothing in vfslab does that; more than
 *    SPIN_Q_NODES at once, or no free slot, falls back to retrying the lock
 *    unqueued, as the kernel does past its node count.
 *  - Natively a waiter may be waiting for a thread the scheduler took off
 *    the CPU (the holder, or the waiter ahead in the queue, which must run
 *    before anyone behind it can have the lock).  After SPIN_Q_YIELD_AFTER
 *    rounds of cpu_relax() each further round yields the CPU instead, as
 *    lib/mutex.c does.  And a thread arriving here takes the lock byte if it
 *    reads free (spin_lock_steal, lib/spinlock.h), so a preempted pending or
 *    queued waiter does not stop everyone; the waiters then take the byte
 *    with compare-and-swap where bare metal may simply store it.  The
 *    simulator's CPUs are never preempted and the kernel never yields in a
 *    spinlock: there waits only relax and nobody steals.
 */
#include <pthread.h>

#include "lib/spinlock.h"

#ifdef VFSLAB_SIM
#include "tools/sim/sim.h"
#endif

/* Natively: relax rounds in one wait before each further round yields. */
#define SPIN_Q_YIELD_AFTER 256u
/* How long a newcomer waits for a pending -> locked handover (x86's value). */
#define SPIN_Q_PENDING_LOOPS 512u

struct spin_qnode {
	struct spin_qnode *next; /* the waiter queued behind this one */
	uint32_t locked; /* set by the waiter ahead: this one is the head */
	uint32_t count; /* node[0] only: nodes of this slot in use */
};

/* One slot of the registry: a thread's nodes, on a line of their own. */
struct spin_qnodes {
	struct spin_qnode node[SPIN_Q_NODES];
} __cacheline_aligned;

BUILD_BUG_ON(sizeof(spinlock_t) != 4);
BUILD_BUG_ON(sizeof(struct spin_qnodes) != L1_CACHE_BYTES);
BUILD_BUG_ON(SPIN_Q_NODES > (1u << SPIN_Q_TAIL_IDX_BITS));
BUILD_BUG_ON(SPIN_Q_THREADS >= (1u << SPIN_Q_TAIL_THREAD_BITS));
BUILD_BUG_ON(SPIN_Q_TAIL_THREAD_SHIFT + SPIN_Q_TAIL_THREAD_BITS != 32);
BUILD_BUG_ON(SPIN_Q_THREADS % 64 != 0);

static struct spin_qnodes spin_qnodes[SPIN_Q_THREADS];

#ifndef VFSLAB_SIM
bool spin_lock_steal = true;
#endif

#ifdef VFSLAB_SIM
/* Every vCPU and the host context (SIM_MAX_CPUS) need a slot of their own. */
BUILD_BUG_ON(SIM_MAX_CPUS + 1 > SPIN_Q_THREADS);

/*
 * The running vCPU's number.  Read outside the coherence model, as the
 * kernel's CPU number is a per-CPU read that never misses.
 */
__attribute__((no_sanitize("thread"))) noinline int spin_queue_self(void)
{
	return (int)sim_self->id;
}

unsigned int spin_queue_slots_used(void)
{
	return 0; /* slots are vCPU numbers: nothing to claim or give back */
}
#else
/* Bit i set: slot i belongs to a live thread. */
static uint64_t spin_slot_used[SPIN_Q_THREADS / 64];
/* This thread's slot + 1; 0 until it first queues. */
static __thread int spin_slot_self;
static pthread_key_t spin_slot_key;
static pthread_once_t spin_slot_once = PTHREAD_ONCE_INIT;
static bool spin_slot_key_ok;

static void spin_slot_free(unsigned int slot)
{
	/* Release: the node's last uses come before its next owner's. */
	__atomic_fetch_and(&spin_slot_used[slot / 64], ~(UINT64_C(1) << (slot % 64)),
			   __ATOMIC_RELEASE);
}

/* The key's destructor: the thread is exiting, outside any wait. */
static void spin_slot_exit(void *arg)
{
	spin_slot_self = 0; /* a later destructor that queues claims anew */
	spin_slot_free((unsigned int)((uintptr_t)arg - 1));
}

static void spin_slot_key_init(void)
{
	spin_slot_key_ok = pthread_key_create(&spin_slot_key, spin_slot_exit) == 0;
}

static int spin_slot_claim(void)
{
	pthread_once(&spin_slot_once, spin_slot_key_init);
	if (!spin_slot_key_ok)
		return -1;
	for (unsigned int w = 0; w < SPIN_Q_THREADS / 64; w++) {
		uint64_t used = __atomic_load_n(&spin_slot_used[w], __ATOMIC_RELAXED);

		while (~used) {
			uint64_t bit = UINT64_C(1) << __builtin_ctzll(~used);
			unsigned int slot = w * 64 + (unsigned int)__builtin_ctzll(~used);

			used = __atomic_fetch_or(&spin_slot_used[w], bit, __ATOMIC_ACQUIRE);
			if (used & bit)
				continue; /* another thread took it first */
			if (pthread_setspecific(spin_slot_key, (void *)(uintptr_t)(slot + 1))) {
				spin_slot_free(slot);
				return -1;
			}
			spin_slot_self = (int)slot + 1;
			return (int)slot;
		}
	}
	return -1;
}

int spin_queue_self(void)
{
	int self = spin_slot_self;

	if (likely(self))
		return self - 1;
	return spin_slot_claim();
}

unsigned int spin_queue_slots_used(void)
{
	unsigned int n = 0;

	for (unsigned int w = 0; w < SPIN_Q_THREADS / 64; w++)
		n += (unsigned int)__builtin_popcountll(
			__atomic_load_n(&spin_slot_used[w], __ATOMIC_RELAXED));
	return n;
}
#endif

/* One round of a wait loop; @rounds counts them (see the top of the file). */
static __always_inline void spin_wait(unsigned int *rounds)
{
#ifdef VFSLAB_SIM
	(void)rounds;
	cpu_relax();
#else
	if (*rounds < SPIN_Q_YIELD_AFTER) {
		(*rounds)++;
		cpu_relax();
	} else {
		cpu_yield();
	}
#endif
}

static inline uint32_t spin_tail(unsigned int slot, unsigned int idx)
{
	return (slot + 1) << SPIN_Q_TAIL_THREAD_SHIFT | idx << SPIN_Q_TAIL_IDX_SHIFT;
}

static inline struct spin_qnode *spin_tail_node(uint32_t tail)
{
	unsigned int slot = (tail >> SPIN_Q_TAIL_THREAD_SHIFT) - 1;
	unsigned int idx = (tail >> SPIN_Q_TAIL_IDX_SHIFT) & ((1u << SPIN_Q_TAIL_IDX_BITS) - 1);

	return &spin_qnodes[slot].node[idx];
}

/* Take the locked byte if it reads free, whoever waits (spin_lock_steal). */
static inline bool spin_steal(spinlock_t *lock)
{
	uint8_t free_ = 0;

	return READ_ONCE(lock->locked) == 0 &&
	       __atomic_compare_exchange_n(&lock->locked, &free_, SPIN_Q_LOCKED_VAL, false,
					   __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

/*
 * No node to queue with: retry until the whole word reads free, or natively
 * only the locked byte.
 */
static void spin_lock_unqueued(spinlock_t *lock)
{
	unsigned int rounds = 0;

	while (!(spin_lock_steal ? spin_steal(lock) : spin_trylock(lock)))
		spin_wait(&rounds);
}

void spin_lock_slowpath(spinlock_t *lock, uint32_t val)
{
	struct spin_qnodes *mine;
	struct spin_qnode *node, *next = NULL;
	unsigned int idx, rounds = 0;
	uint32_t tail, old;
	int self;

	if (spin_lock_steal && spin_steal(lock))
		return;

	/*
	 * Pending and nothing else: the pending waiter is about to turn
	 * itself into the holder.  Wait a little for that rather than queue
	 * on a word that is about to change.
	 */
	for (unsigned int n = SPIN_Q_PENDING_LOOPS; val == SPIN_Q_PENDING_VAL && n; n--) {
		cpu_relax();
		val = READ_ONCE(lock->val);
	}

	/* A pending waiter or a queue already: join the queue. */
	if (val & ~SPIN_Q_LOCKED_MASK)
		goto queue;

	/* Become the pending waiter; the old word says whether we did. */
	val = __atomic_fetch_or(&lock->val, SPIN_Q_PENDING_VAL, __ATOMIC_ACQUIRE);
	if (unlikely(val & ~SPIN_Q_LOCKED_MASK)) {
		/* Somebody came first.  Take back the bit if we were the one to set it. */
		if (!(val & SPIN_Q_PENDING_MASK))
			WRITE_ONCE(lock->pending, 0);
		goto queue;
	}

	/* The pending waiter: spin on the word until the holder lets go. */
	for (;;) {
		uint16_t pending = SPIN_Q_PENDING_VAL;

		if (val & SPIN_Q_LOCKED_MASK)
			while (__atomic_load_n(&lock->locked, __ATOMIC_ACQUIRE))
				spin_wait(&rounds);
		/* Pending off, locked on, in one 16-bit store; the tail stays. */
		if (!spin_lock_steal) {
			WRITE_ONCE(lock->locked_pending, SPIN_Q_LOCKED_VAL);
			return;
		}
		if (__atomic_compare_exchange_n(&lock->locked_pending, &pending, SPIN_Q_LOCKED_VAL,
						false, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
			return;
		val = SPIN_Q_LOCKED_VAL; /* stolen: wait for the thief */
	}

queue:
	self = spin_queue_self();
	if (unlikely(self < 0)) {
		spin_lock_unqueued(lock);
		return;
	}
	mine = &spin_qnodes[self];
	idx = mine->node[0].count++;
	if (unlikely(idx >= SPIN_Q_NODES)) {
		spin_lock_unqueued(lock);
		goto release;
	}
	node = &mine->node[idx];
	tail = spin_tail((unsigned int)self, idx);
	WRITE_ONCE(node->locked, 0);
	WRITE_ONCE(node->next, NULL);

	/* The holder may have left while we got the node ready. */
	if (spin_trylock(lock))
		goto release;

	/*
	 * Become the tail.  Release: whoever queues behind us and finds our
	 * node through the tail sees it reset.  Acquire: the same for the
	 * node of the waiter we queue behind.
	 */
	old = (uint32_t)__atomic_exchange_n(&lock->tail, (uint16_t)(tail >> 16), __ATOMIC_ACQ_REL)
	      << 16;
	if (old & SPIN_Q_TAIL_MASK) {
		/* Link in behind the old tail and spin on our own node. */
		__atomic_store_n(&spin_tail_node(old)->next, node, __ATOMIC_RELEASE);
		while (!__atomic_load_n(&node->locked, __ATOMIC_ACQUIRE))
			spin_wait(&rounds);
		/* Whoever queued behind us meanwhile, so we need not wait for them below. */
		next = __atomic_load_n(&node->next, __ATOMIC_ACQUIRE);
	}

	/* Head of the queue: wait for the holder and any pending waiter to go. */
	rounds = 0;
	for (;;) {
		uint8_t free_ = 0;

		while ((val = __atomic_load_n(&lock->val, __ATOMIC_ACQUIRE)) &
		       SPIN_Q_LOCKED_PENDING_MASK)
			spin_wait(&rounds);

		/* Still the tail: nobody behind us, take the lock and empty the queue at once. */
		if ((val & SPIN_Q_TAIL_MASK) == tail) {
			if (__atomic_compare_exchange_n(&lock->val, &val, SPIN_Q_LOCKED_VAL, false,
							__ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
				goto release;
			/*
			 * Natively a thief may have taken the byte without
			 * queueing: if we are still the tail, nobody will link
			 * in behind us, so taking the byte below would leave us
			 * waiting for a successor forever.  Wait again instead.
			 */
			if (spin_lock_steal && (val & SPIN_Q_TAIL_MASK) == tail)
				continue;
		}

		/*
		 * Somebody queued behind us, or set pending just now and,
		 * finding the tail, will queue behind us: take the lock,
		 * leave the tail, and make the next node the head once it
		 * has linked itself in.
		 */
		if (!spin_lock_steal) {
			WRITE_ONCE(lock->locked, SPIN_Q_LOCKED_VAL);
			break;
		}
		if (__atomic_compare_exchange_n(&lock->locked, &free_, SPIN_Q_LOCKED_VAL, false,
						__ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
			break;
		/* Stolen, or the compare-and-swap above lost to a thief: wait again. */
	}
	if (!next) {
		rounds = 0;
		while (!(next = __atomic_load_n(&node->next, __ATOMIC_ACQUIRE)))
			spin_wait(&rounds);
	}
	__atomic_store_n(&next->locked, 1, __ATOMIC_RELEASE);

release:
	mine->node[0].count--;
}

/* The native cpu_yield() (lib/atomic.h): the simulator build replaces it. */
#ifndef VFSLAB_SIM
#include <sched.h>

void cpu_yield(void)
{
	sched_yield();
}
#endif
