/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Atomic counters, cmpxchg helpers and memory barriers, with the kernel's
 * names and ordering rules (Documentation/atomic_t.txt):
 *  - operations that return nothing (inc, add, ...) are relaxed;
 *  - value-returning RMWs (*_return, fetch_*, *_and_test, add_negative,
 *    cmpxchg, xchg) are fully ordered;
 *  - *_relaxed, *_acquire and *_release say so in their name.
 * Everything is a C11 __atomic builtin so a -fsanitize=thread build sees it.
 * Models include/linux/atomic/ and the arch barrier headers.
 */
#ifndef VFSLAB_LIB_ATOMIC_H
#define VFSLAB_LIB_ATOMIC_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/arch.h" /* cpu_relax(), cpu_yield() */
#include "lib/compiler.h"

/*
 * Barriers.  smp_rmb/smp_wmb are expressed as acquire/release fences.
 * smp_mb() natively on x86-64 is what the kernel's is there, a locked add
 * of zero to the stack: as full a barrier for ordinary memory as MFENCE
 * at a fraction of its cost (GCC 12 emits MFENCE for the C11 fence).  The
 * simulator and TSan see only the C11 fence, which they instrument.
 */
#if defined(__x86_64__) && !defined(VFSLAB_SIM) && !defined(__SANITIZE_THREAD__)
#define smp_mb() __asm__ __volatile__("lock orl $0,-4(%%rsp)" ::: "memory", "cc")
#else
#define smp_mb() __atomic_thread_fence(__ATOMIC_SEQ_CST)
#endif
#define smp_rmb() __atomic_thread_fence(__ATOMIC_ACQUIRE)
#define smp_wmb() __atomic_thread_fence(__ATOMIC_RELEASE)
#define smp_load_acquire(p) __atomic_load_n((p), __ATOMIC_ACQUIRE)
#define smp_store_release(p, v) __atomic_store_n((p), (v), __ATOMIC_RELEASE)
/* Turns a control dependency on a prior load into acquire ordering. */
#define smp_acquire__after_ctrl_dep() smp_rmb()
/* Our void atomics are relaxed, so these must be real fences. */
#define smp_mb__before_atomic() smp_mb()
#define smp_mb__after_atomic() smp_mb()

typedef struct {
	int counter;
} atomic_t;

typedef struct {
	long counter;
} atomic_long_t;

typedef struct {
	int64_t counter;
} atomic64_t;

#define ATOMIC_INIT(i) \
	{              \
		(i)    \
	}
#define ATOMIC_LONG_INIT(i) \
	{                   \
		(i)         \
	}
#define ATOMIC64_INIT(i) \
	{                \
		(i)      \
	}

/*
 * One generator for the three widths so that they cannot drift apart.
 * @pfx: name prefix, @at: the atomic type, @t: its counter type, @ut: the
 * unsigned twin of @t (used to add one without signed-overflow UB).
 */
#define __VFSLAB_ATOMIC_OPS(pfx, at, t, ut)                                             \
	static __always_inline t pfx##_read(const at *v)                                \
	{                                                                               \
		return __atomic_load_n(&v->counter, __ATOMIC_RELAXED);                  \
	}                                                                               \
	static __always_inline void pfx##_set(at *v, t i)                               \
	{                                                                               \
		__atomic_store_n(&v->counter, i, __ATOMIC_RELAXED);                     \
	}                                                                               \
	static __always_inline t pfx##_read_acquire(const at *v)                        \
	{                                                                               \
		return __atomic_load_n(&v->counter, __ATOMIC_ACQUIRE);                  \
	}                                                                               \
	static __always_inline void pfx##_set_release(at *v, t i)                       \
	{                                                                               \
		__atomic_store_n(&v->counter, i, __ATOMIC_RELEASE);                     \
	}                                                                               \
	static __always_inline void pfx##_add(t i, at *v)                               \
	{                                                                               \
		__atomic_fetch_add(&v->counter, i, __ATOMIC_RELAXED);                   \
	}                                                                               \
	static __always_inline void pfx##_sub(t i, at *v)                               \
	{                                                                               \
		__atomic_fetch_sub(&v->counter, i, __ATOMIC_RELAXED);                   \
	}                                                                               \
	static __always_inline void pfx##_inc(at *v)                                    \
	{                                                                               \
		pfx##_add(1, v);                                                        \
	}                                                                               \
	static __always_inline void pfx##_dec(at *v)                                    \
	{                                                                               \
		pfx##_sub(1, v);                                                        \
	}                                                                               \
	static __always_inline t pfx##_add_return(t i, at *v)                           \
	{                                                                               \
		return __atomic_add_fetch(&v->counter, i, __ATOMIC_SEQ_CST);            \
	}                                                                               \
	static __always_inline t pfx##_sub_return(t i, at *v)                           \
	{                                                                               \
		return __atomic_sub_fetch(&v->counter, i, __ATOMIC_SEQ_CST);            \
	}                                                                               \
	static __always_inline t pfx##_inc_return(at *v)                                \
	{                                                                               \
		return pfx##_add_return(1, v);                                          \
	}                                                                               \
	static __always_inline t pfx##_dec_return(at *v)                                \
	{                                                                               \
		return pfx##_sub_return(1, v);                                          \
	}                                                                               \
	static __always_inline t pfx##_fetch_add(t i, at *v)                            \
	{                                                                               \
		return __atomic_fetch_add(&v->counter, i, __ATOMIC_SEQ_CST);            \
	}                                                                               \
	static __always_inline t pfx##_fetch_sub(t i, at *v)                            \
	{                                                                               \
		return __atomic_fetch_sub(&v->counter, i, __ATOMIC_SEQ_CST);            \
	}                                                                               \
	static __always_inline t pfx##_fetch_inc_relaxed(at *v)                         \
	{                                                                               \
		return __atomic_fetch_add(&v->counter, 1, __ATOMIC_RELAXED);            \
	}                                                                               \
	static __always_inline bool pfx##_dec_and_test(at *v)                           \
	{                                                                               \
		return pfx##_sub_return(1, v) == 0;                                     \
	}                                                                               \
	static __always_inline bool pfx##_inc_and_test(at *v)                           \
	{                                                                               \
		return pfx##_add_return(1, v) == 0;                                     \
	}                                                                               \
	static __always_inline bool pfx##_add_negative(t i, at *v)                      \
	{                                                                               \
		return pfx##_add_return(i, v) < 0;                                      \
	}                                                                               \
	static __always_inline bool pfx##_try_cmpxchg(at *v, t *old, t new_)            \
	{                                                                               \
		return __atomic_compare_exchange_n(&v->counter, old, new_, false,       \
						   __ATOMIC_SEQ_CST, __ATOMIC_RELAXED); \
	}                                                                               \
	static __always_inline bool pfx##_try_cmpxchg_relaxed(at *v, t *old, t new_)    \
	{                                                                               \
		return __atomic_compare_exchange_n(&v->counter, old, new_, false,       \
						   __ATOMIC_RELAXED, __ATOMIC_RELAXED); \
	}                                                                               \
	static __always_inline bool pfx##_try_cmpxchg_acquire(at *v, t *old, t new_)    \
	{                                                                               \
		return __atomic_compare_exchange_n(&v->counter, old, new_, false,       \
						   __ATOMIC_ACQUIRE, __ATOMIC_RELAXED); \
	}                                                                               \
	static __always_inline bool pfx##_try_cmpxchg_release(at *v, t *old, t new_)    \
	{                                                                               \
		return __atomic_compare_exchange_n(&v->counter, old, new_, false,       \
						   __ATOMIC_RELEASE, __ATOMIC_RELAXED); \
	}                                                                               \
	static __always_inline t pfx##_cmpxchg(at *v, t old, t new_)                    \
	{                                                                               \
		pfx##_try_cmpxchg(v, &old, new_);                                       \
		return old;                                                             \
	}                                                                               \
	static __always_inline t pfx##_xchg(at *v, t new_)                              \
	{                                                                               \
		return __atomic_exchange_n(&v->counter, new_, __ATOMIC_SEQ_CST);        \
	}                                                                               \
	/*									\
 * Increment unless zero; true if it incremented.  Deliberately the	\
 * classic read, test, try_cmpxchg loop with no pause: under N-way	\
 * contention each round has one winner and N-1 failed CASes, the	\
 * O(N^2) behaviour that file_ref_t was introduced to remove.		\
 */                                                                    \
	static __always_inline bool pfx##_inc_not_zero(at *v)                           \
	{                                                                               \
		t c = pfx##_read(v);                                                    \
                                                                                        \
		do {                                                                    \
			if (unlikely(c == 0))                                           \
				return false;                                           \
		} while (!pfx##_try_cmpxchg(v, &c, (t)((ut)c + 1)));                    \
		return true;                                                            \
	}

__VFSLAB_ATOMIC_OPS(atomic, atomic_t, int, unsigned int)
__VFSLAB_ATOMIC_OPS(atomic_long, atomic_long_t, long, unsigned long)
__VFSLAB_ATOMIC_OPS(atomic64, atomic64_t, int64_t, uint64_t)

#undef __VFSLAB_ATOMIC_OPS

/**
 * try_cmpxchg64_acq_rel - 64-bit compare-and-exchange, acquire-release
 * @ptr: the word
 * @old: expected value; refreshed with the current value on failure
 * @new: value to store
 *
 * The lockref fast path uses it. The kernel's is relaxed and leans on the
 * fully ordered atomics around a last put (file_ref_put(), iput()'s
 * atomic_dec_and_lock()); in C11 those order nothing for the lockref word,
 * so what a thread did before its put would race with the last putter's
 * free. Acquire-release on the word itself says it: the same instruction
 * on x86, and what ThreadSanitizer can follow.
 * Return: true if the exchange happened.
 */
static __always_inline bool try_cmpxchg64_acq_rel(uint64_t *ptr, uint64_t *old, uint64_t new)
{
	return __atomic_compare_exchange_n(ptr, old, new, false, __ATOMIC_ACQ_REL,
					   __ATOMIC_ACQUIRE);
}

#endif /* VFSLAB_LIB_ATOMIC_H */
