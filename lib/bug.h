/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * BUG_ON() and WARN_ON() with the kernel's semantics: a BUG stops the
 * process, a WARN prints where it fired and carries on.
 * Models include/asm-generic/bug.h.
 */
#ifndef VFSLAB_LIB_BUG_H
#define VFSLAB_LIB_BUG_H

#include <stdbool.h>

#include "lib/compiler.h"

__cold __noreturn void __vfslab_bug(const char *file, int line, const char *func, const char *cond);
__cold __printf(4, 5) void __vfslab_warn(const char *file, int line, const char *func,
					 const char *fmt, ...);
__cold void __vfslab_warn_count(void);

/**
 * bug_warn_count - number of WARN conditions that were true so far
 *
 * Counts every hit, including the ones a WARN_ON_ONCE() kept quiet, so a
 * test can check that a path warned regardless of earlier tests.
 */
unsigned long bug_warn_count(void);

/** BUG_ON - print "vfslab: BUG at file:line func(): cond" and abort if @cond. */
#define BUG_ON(cond)                                                       \
	do {                                                               \
		if (unlikely(cond))                                        \
			__vfslab_bug(__FILE__, __LINE__, __func__, #cond); \
	} while (0)

#define BUG() __vfslab_bug(__FILE__, __LINE__, __func__, "BUG()")

/**
 * WARN - warn with a message if @cond; evaluates to !!@cond
 */
#define WARN(cond, ...)                                                           \
	({                                                                        \
		bool __ret_warn = !!(cond);                                       \
		if (unlikely(__ret_warn))                                         \
			__vfslab_warn(__FILE__, __LINE__, __func__, __VA_ARGS__); \
		unlikely(__ret_warn);                                             \
	})

/** WARN_ON - warn if @cond; evaluates to !!@cond, like the kernel's. */
#define WARN_ON(cond)                                                             \
	({                                                                        \
		bool __ret_warn_on = !!(cond);                                    \
		if (unlikely(__ret_warn_on))                                      \
			__vfslab_warn(__FILE__, __LINE__, __func__, "%s", #cond); \
		unlikely(__ret_warn_on);                                          \
	})

/*
 * The _ONCE forms print the first time only (one flag per call site) but
 * still count every hit.
 */
#define WARN_ONCE(cond, ...)                                                              \
	({                                                                                \
		static bool __warned_once;                                                \
		bool __ret_warn_once = !!(cond);                                          \
		if (unlikely(__ret_warn_once)) {                                          \
			if (!__atomic_exchange_n(&__warned_once, true, __ATOMIC_RELAXED)) \
				__vfslab_warn(__FILE__, __LINE__, __func__, __VA_ARGS__); \
			else                                                              \
				__vfslab_warn_count();                                    \
		}                                                                         \
		unlikely(__ret_warn_once);                                                \
	})

#define WARN_ON_ONCE(cond) WARN_ONCE(cond, "%s", #cond)

#endif /* VFSLAB_LIB_BUG_H */
