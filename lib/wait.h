/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Wait queues, the API of include/linux/wait.h over lib's one way of
 * waiting: a waiter spins with cpu_relax() for a while, then gives the CPU
 * away with cpu_yield() between looks, as mutex_lock() does. The queue is
 * a wake-up count: a waiter samples it, tests its condition, and looks at
 * the condition again only once a wake_up() has moved the count, so a
 * wake-up between the test and the wait is never lost (the kernel gets
 * the same from prepare_to_wait() before the test). Natively a waiter is
 * a thread; under the simulator a virtual CPU.
 */
#ifndef VFSLAB_LIB_WAIT_H
#define VFSLAB_LIB_WAIT_H

#include <errno.h>

#include "lib/arch.h"
#include "lib/compiler.h"

/* Spins before the first cpu_yield() of a wait. */
#define WAIT_SPIN_LIMIT 256u

struct wait_queue_head {
	unsigned int wakeups;
};

static inline void init_waitqueue_head(struct wait_queue_head *wq)
{
	WRITE_ONCE(wq->wakeups, 0);
}

/** wake_up - wake every waiter of @wq: call after changing what they test. */
static inline void wake_up(struct wait_queue_head *wq)
{
	__atomic_add_fetch(&wq->wakeups, 1, __ATOMIC_RELEASE);
}

static inline unsigned int wait_sample(const struct wait_queue_head *wq)
{
	return __atomic_load_n(&wq->wakeups, __ATOMIC_ACQUIRE);
}

/* One pause of a waiter: spin first, then give the CPU away. */
static inline void wait_pause(unsigned int *spins)
{
	if (++*spins < WAIT_SPIN_LIMIT)
		cpu_relax();
	else
		cpu_yield();
}

/**
 * wait_event_killable - wait until @cond holds, or until @killed does
 *
 * Returns 0 once @cond is true, -EINTR if @killed became true first (a
 * fatal signal: the kernel's -ERESTARTSYS that the task never sees). Both
 * are tested without the caller's locks, as the kernel's are.
 */
#define wait_event_killable(wq, cond, killed)                          \
	({                                                             \
		int __ret = 0;                                         \
		unsigned int __spins = 0;                              \
		for (;;) {                                             \
			unsigned int __seen = wait_sample(wq);         \
			if (cond)                                      \
				break;                                 \
			if (killed) {                                  \
				__ret = -EINTR;                        \
				break;                                 \
			}                                              \
			while (wait_sample(wq) == __seen && !(killed)) \
				wait_pause(&__spins);                  \
		}                                                      \
		__ret;                                                 \
	})

#endif /* VFSLAB_LIB_WAIT_H */
