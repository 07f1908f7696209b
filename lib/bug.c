// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Out-of-line reporting for BUG_ON()/WARN_ON().  Models the kernel's
 * __warn() and BUG handling (kernel/panic.c, lib/bug.c), printing to stderr.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "lib/bug.h"

/* Process-wide on purpose: tests read it to prove that a path warned. */
static unsigned long warn_count;

void __vfslab_bug(const char *file, int line, const char *func, const char *cond)
{
	fprintf(stderr, "vfslab: BUG at %s:%d %s(): %s\n", file, line, func, cond);
	fflush(stderr);
	abort();
}

void __vfslab_warn_count(void)
{
	__atomic_fetch_add(&warn_count, 1, __ATOMIC_RELAXED);
}

void __vfslab_warn(const char *file, int line, const char *func, const char *fmt, ...)
{
	va_list ap;

	__vfslab_warn_count();
	/* One fprintf per part is fine: warnings are rare and not hot. */
	fprintf(stderr, "vfslab: WARNING at %s:%d %s(): ", file, line, func);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

unsigned long bug_warn_count(void)
{
	return __atomic_load_n(&warn_count, __ATOMIC_RELAXED);
}
