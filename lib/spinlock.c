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
 *  - The kernel keeps the nodes per CPU, and so do we: SPIN_Q_THREADS
 *    slots of SPIN_Q_NODES nodes each (one cache line), indexed by
 *    arch_cpu_id() (lib/arch.h), the tail naming a slot and a node.
 *    Natively the CPU number is the thread's, claimed on its first queued
 *    wait and given back when it exits.
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
 *    with compare-and-swap where bare metal may simply store it.  Where
 *    CPUs are never preempted (lib/arch.h), as the simulator's are not, and
 *    the kernel never yields in a spinlock: there waits only relax and
 *    nobody steals.
 */
#include "lib/fault_inject.h"
#include "lib/spinlock.h"

/* Natively: relax rounds in one wait before each further round yields. */
#define SPIN_Q_YIELD_AFTER 256u
/* How long a newcomer waits for a pending -> locked handover (x86's value). */
#define SPIN_Q_PENDING_LOOPS 512u

struct spin_qnode {
	struct spin_qnode *next; /* the waiter queued behind this one */
	uint32_t locked; /* set by the waiter ahead: this one is the head */
	uint32_t count; /* node[0] only: nodes of this slot in use */
};

/* One CPU's nodes, on a line of their own. */
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

#if ARCH_CPUS_PREEMPTED
bool spin_lock_steal = true;
#endif

/* Every CPU number the platform hands out has a slot (lib/arch.h). */
BUILD_BUG_ON(ARCH_NR_CPUS > SPIN_Q_THREADS);

/* One round of a wait loop; @rounds counts them (see the top of the file). */
static __always_inline void spin_wait(unsigned int *rounds)
{
#if ARCH_CPUS_PREEMPTED
	if (*rounds < SPIN_Q_YIELD_AFTER) {
		(*rounds)++;
		cpu_relax();
	} else {
		cpu_yield();
	}
#else
	(void)rounds;
	cpu_relax();
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
	self = arch_cpu_id();
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
			fault_point("spin_lock_slowpath:head-claim");
			if (__atomic_compare_exchange_n(&lock->val, &val, SPIN_Q_LOCKED_VAL, false,
							__ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
				goto release;
			fault_point("spin_lock_slowpath:head-claim-lost");
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
