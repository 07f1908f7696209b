/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Word-at-a-time string scanning, after the kernel's
 * <asm/word-at-a-time.h> and load_unaligned_zeropad(): eight bytes per
 * load, a bit trick to find a zero byte. Little-endian only.
 */
#ifndef VFSLAB_LIB_WORD_AT_A_TIME_H
#define VFSLAB_LIB_WORD_AT_A_TIME_H

#include <stdint.h>

#include "lib/arch.h"
#include "lib/compiler.h"

typedef uint64_t __attribute__((may_alias, aligned(1))) unaligned_u64;

#define REPEAT_BYTE(x) (0x0101010101010101ull * (uint8_t)(x))

/*
 * An 8-byte load that may run past the end of a string into the same page,
 * as load_unaligned_zeropad() does: the caller uses only the bytes up to the
 * terminator. A load that would cross into the next page goes byte by byte,
 * stopping at a NUL, so it never faults. ASan is told not to look: reading
 * those bytes is the point.
 */
/*
 * ThreadSanitizer, too: a lockless walker compares names that a rename may
 * be copying, and d_seq throws such a result away.  The simulator keeps
 * seeing these loads; they are the name compare's cache traffic.
 */
__no_sanitize_racy static inline uint64_t load_word(const char *p)
{
	uint64_t a = 0;

	if (likely(((uintptr_t)p & 4095) <= 4096 - sizeof(a)))
		return *(const unaligned_u64 *)p;
	for (unsigned int i = 0; i < sizeof(a) && p[i]; i++)
		a |= (uint64_t)(unsigned char)p[i] << (8 * i);
	return a;
}

/* The high bit of each zero byte of a (the lowest one is exact). */
static inline uint64_t has_zero(uint64_t a)
{
	return (a - REPEAT_BYTE(1)) & ~a & REPEAT_BYTE(0x80);
}

/* Bytes before the first zero byte flagged in mask (from has_zero). */
static inline unsigned int find_zero(uint64_t mask)
{
	return __builtin_ctzll(mask) / 8;
}

/* All bits of the bytes before the first flagged zero byte. */
static inline uint64_t zero_bytemask(uint64_t mask)
{
	return ((mask - 1) & ~mask) >> 7;
}

#endif /* VFSLAB_LIB_WORD_AT_A_TIME_H */
