/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * RCU for vfslab: the kernel's API names on top of liburcu's "memb" flavour
 * (membarrier-based readers, so the read side is two thread-local stores).
 * This header and lib/rcu.c are the only places that include liburcu: they
 * are the native flavour of the RCU entry points lib/arch.h declares, and a
 * port (the simulator) brings its own.
 *
 * Rules carried over from liburcu:
 *  - every thread that enters a read-side section or calls call_rcu() must
 *    call rcu_register_thread() first and rcu_unregister_thread() before it
 *    exits;
 *  - never call synchronize_rcu() or rcu_barrier() inside a read section;
 *  - call_rcu() starts a worker thread on first use.  Check forks one child
 *    per test, so tests set RCU up inside the test, not before the fork.
 *
 * Models include/linux/rcupdate.h.  vfslab is LGPL-2.1-or-later, so it may
 * use liburcu's inline read side (_LGPL_SOURCE).
 */
#ifndef VFSLAB_LIB_RCU_H
#define VFSLAB_LIB_RCU_H

#include <stdbool.h>

#include "lib/arch.h"
#include "lib/compiler.h"

/* The port brings its own flavour (lib/arch.h); this is the native one. */
#ifndef VFSLAB_SIM

#if defined(__SANITIZE_THREAD__)
#define VFSLAB_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define VFSLAB_TSAN 1
#endif
#endif

/*
 * Under ThreadSanitizer the read side is liburcu's out-of-line one: its
 * inline form would be instrumented, and its volatile accesses and fences
 * read as races to TSan.
 */
#if !defined(_LGPL_SOURCE) && !defined(VFSLAB_TSAN)
#define _LGPL_SOURCE
#endif
#include <urcu/urcu-memb.h>

/* liburcu's pointer macros have the same names but other semantics; ours win. */
#undef rcu_dereference
#undef rcu_assign_pointer
#undef RCU_INIT_POINTER

/*
 * ThreadSanitizer cannot see liburcu's synchronisation (membarrier and an
 * uninstrumented library), so a TSan build states it: every read section
 * ends with a release on one token that stands for "the readers", and what
 * runs after a grace period (synchronize_rcu()'s caller, a call_rcu()
 * callback) acquires it.  That is RCU's guarantee: a read section that
 * could see an object happens before its free.
 */
#ifdef VFSLAB_TSAN
void __tsan_acquire(void *addr);
void __tsan_release(void *addr);
extern char rcu_tsan_readers;
void rcu_tsan_call_rcu(struct rcu_head *head, void (*func)(struct rcu_head *head));
#define rcu_tsan_readers_done() __tsan_release(&rcu_tsan_readers)
#define rcu_tsan_grace_period() __tsan_acquire(&rcu_tsan_readers)
#else
#define rcu_tsan_readers_done() \
	do {                    \
	} while (0)
#define rcu_tsan_grace_period() \
	do {                    \
	} while (0)
#endif

/** rcu_read_lock - enter a read-side critical section (may nest). */
static inline void rcu_read_lock(void)
{
	urcu_memb_read_lock();
}

/** rcu_read_unlock - leave a read-side critical section. */
static inline void rcu_read_unlock(void)
{
	rcu_tsan_readers_done();
	urcu_memb_read_unlock();
}

/** rcu_read_lock_held - is the calling thread inside a read-side section? */
static inline bool rcu_read_lock_held(void)
{
	return urcu_memb_read_ongoing() != 0;
}

/** rcu_register_thread - make the calling thread known to RCU. */
static inline void rcu_register_thread(void)
{
	urcu_memb_register_thread();
}

/** rcu_unregister_thread - call before a registered thread exits. */
static inline void rcu_unregister_thread(void)
{
	urcu_memb_unregister_thread();
}

/** synchronize_rcu - wait until every read section that started before returns. */
static inline void synchronize_rcu(void)
{
	urcu_memb_synchronize_rcu();
	rcu_tsan_grace_period();
}

/** call_rcu - run @func(@head) after a grace period, on liburcu's worker thread. */
static inline void call_rcu(struct rcu_head *head, void (*func)(struct rcu_head *head))
{
#ifdef VFSLAB_TSAN
	rcu_tsan_call_rcu(head, func);
#else
	urcu_memb_call_rcu(head, func);
#endif
}
#endif /* !VFSLAB_SIM */

/*
 * struct rcu_head is liburcu's (or the port's): a wait-free-queue link (8 bytes) and the
 * callback pointer (8 bytes), 16 bytes like the kernel's callback_head, so it
 * fits the 16-byte d_u union of struct dentry.
 */
BUILD_BUG_ON(sizeof(struct rcu_head) != 16);

#ifndef __rcu
#define __rcu /* a sparse annotation in the kernel; documentation here */
#endif

/**
 * rcu_dereference - load an RCU-protected pointer for use in a read section
 *
 * A consume load (gcc makes it acquire): the pointee's initialisation,
 * published by rcu_assign_pointer(), is visible through it.
 */
#define rcu_dereference(p) __atomic_load_n(&(p), __ATOMIC_CONSUME)
/* Same load where the update-side lock makes the pointer stable. */
#define rcu_dereference_protected(p, c) READ_ONCE(p)
#define rcu_dereference_raw(p) rcu_dereference(p)
#define rcu_access_pointer(p) READ_ONCE(p)

/** rcu_assign_pointer - publish @v in @p (release store). */
#define rcu_assign_pointer(p, v)                               \
	do {                                                   \
		__atomic_store_n(&(p), (v), __ATOMIC_RELEASE); \
	} while (0)

/* For NULL, or a pointee readers cannot reach yet: no ordering needed. */
#define RCU_INIT_POINTER(p, v) WRITE_ONCE(p, v)

#endif /* VFSLAB_LIB_RCU_H */
