/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Compiler helpers with the kernel's names: branch hints, READ_ONCE/WRITE_ONCE,
 * attributes, cache-line constants, container_of and the min/max family.
 * Models include/linux/compiler*.h, include/linux/minmax.h and friends.
 */
#ifndef VFSLAB_LIB_COMPILER_H
#define VFSLAB_LIB_COMPILER_H

#include <stddef.h>
#include <stdint.h>

#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

/*
 * A compiler-only barrier.  A signal fence emits no instruction but stops the
 * compiler moving memory accesses across it, which is what the kernel's
 * barrier() does with an empty asm and a "memory" clobber.
 */
#define barrier() __atomic_signal_fence(__ATOMIC_SEQ_CST)

/*
 * READ_ONCE()/WRITE_ONCE() are relaxed atomic accesses rather than volatile
 * ones: same code on x86-64, but a -fsanitize=thread build (and the simulator
 * built on it) then sees every marked access as atomic.  Scalars and pointers
 * only, as in the kernel.
 */
#define READ_ONCE(x) __atomic_load_n(&(x), __ATOMIC_RELAXED)
#define WRITE_ONCE(x, val)                                       \
	do {                                                     \
		__atomic_store_n(&(x), (val), __ATOMIC_RELAXED); \
	} while (0)

#define __must_check __attribute__((__warn_unused_result__))
#define noinline __attribute__((__noinline__))
#ifndef __always_inline
#define __always_inline inline __attribute__((__always_inline__))
#endif
#define __maybe_unused __attribute__((__unused__))
#ifndef __cold
#define __cold __attribute__((__cold__))
#endif
#ifndef __noreturn
#define __noreturn __attribute__((__noreturn__))
#endif
#ifndef __printf
#define __printf(a, b) __attribute__((__format__(printf, a, b)))
#endif

#define L1_CACHE_BYTES 64
#define SMP_CACHE_BYTES L1_CACHE_BYTES
#define __cacheline_aligned __attribute__((__aligned__(L1_CACHE_BYTES)))

#define __PASTE_(a, b) a##b
#define __PASTE(a, b) __PASTE_(a, b)
#define __UNIQUE_ID(prefix) __PASTE(__PASTE(__vfslab_uniq_, prefix), __COUNTER__)

/**
 * container_of - find the structure that embeds a member
 * @ptr: pointer to the member
 * @type: type of the enclosing structure
 * @member: name of the member inside @type
 */
#define container_of(ptr, type, member)                                    \
	({                                                                 \
		const __typeof__(((type *)0)->member) *__mptr = (ptr);     \
		(type *)(void *)((char *)__mptr - offsetof(type, member)); \
	})

/* Evaluates to 0, but fails to compile if @e is a true constant. */
#define BUILD_BUG_ON_ZERO(e) ((int)(sizeof(struct { int : (-!!(e)); })))
#define __same_type(a, b) __builtin_types_compatible_p(__typeof__(a), __typeof__(b))
/* Rejects a pointer where an array is needed (ARRAY_SIZE of a pointer is a bug). */
#define __must_be_array(a) BUILD_BUG_ON_ZERO(__same_type((a), &(a)[0]))

#define ARRAY_SIZE(arr) (sizeof(arr) / sizeof((arr)[0]) + __must_be_array(arr))

/* Compile-time assertion, usable at file scope and inside functions. */
#define BUILD_BUG_ON(cond) _Static_assert(!(cond), "BUILD_BUG_ON(" #cond ")")

#define ALIGN(x, a) (((x) + ((__typeof__(x))(a)-1)) & ~((__typeof__(x))(a)-1))
#define ALIGN_DOWN(x, a) ((x) & ~((__typeof__(x))(a)-1))
#define IS_ALIGNED(x, a) (((x) & ((__typeof__(x))(a)-1)) == 0)
#define DIV_ROUND_UP(n, d) (((n) + (d)-1) / (d))

/* Each argument is evaluated once; mixing signedness trips -Wsign-compare. */
#define __cmp_once(op, x, y, ux, uy)    \
	({                              \
		__typeof__(x) ux = (x); \
		__typeof__(y) uy = (y); \
		ux op uy ? ux : uy;     \
	})

#define min(x, y) __cmp_once(<, x, y, __UNIQUE_ID(x_), __UNIQUE_ID(y_))
#define max(x, y) __cmp_once(>, x, y, __UNIQUE_ID(x_), __UNIQUE_ID(y_))
#define min_t(type, x, y) min((type)(x), (type)(y))
#define max_t(type, x, y) max((type)(x), (type)(y))
/* Clamp @val into [@lo, @hi]. */
#define clamp(val, lo, hi) min(max(val, lo), hi)

#endif /* VFSLAB_LIB_COMPILER_H */
