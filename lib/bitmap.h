/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Bit operations and bitmaps over arrays of unsigned long, as used by the fd
 * table (open_fds, close_on_exec, full_fds_bits).  Models include/linux/
 * bitops.h, include/linux/bitmap.h, include/linux/find.h and lib/find_bit.c.
 *
 * Searches return @size when nothing is found (also for offset >= size) and
 * ignore bits at or past @size even when they are set.  Word loads are
 * relaxed atomics, so a lockless reader racing with set_bit() is no data race.
 */
#ifndef VFSLAB_LIB_BITMAP_H
#define VFSLAB_LIB_BITMAP_H

#include <stdbool.h>
#include <string.h>

#include "lib/compiler.h"

#define BITS_PER_LONG 64
#define BITS_TO_LONGS(nr) DIV_ROUND_UP(nr, BITS_PER_LONG)
#define BIT_WORD(nr) ((nr) / BITS_PER_LONG)
#define BIT_MASK(nr) (1UL << ((nr) % BITS_PER_LONG))
/* Bits of the first/last word that belong to a bitmap starting/ending there. */
#define BITMAP_FIRST_WORD_MASK(start) (~0UL << ((start) & (BITS_PER_LONG - 1)))
#define BITMAP_LAST_WORD_MASK(nbits) (~0UL >> (-(nbits) & (BITS_PER_LONG - 1)))

BUILD_BUG_ON(sizeof(unsigned long) * 8 != BITS_PER_LONG);

/*
 * The non-atomic __set_bit()/__clear_bit() are for bitmaps under a lock.  They
 * are still a marked load and a marked store (never a locked RMW), so that
 * lockless readers are not racing with a plain write.
 */
static inline void __set_bit(unsigned long nr, unsigned long *addr)
{
	unsigned long *p = addr + BIT_WORD(nr);

	__atomic_store_n(p, __atomic_load_n(p, __ATOMIC_RELAXED) | BIT_MASK(nr), __ATOMIC_RELAXED);
}

static inline void __clear_bit(unsigned long nr, unsigned long *addr)
{
	unsigned long *p = addr + BIT_WORD(nr);

	__atomic_store_n(p, __atomic_load_n(p, __ATOMIC_RELAXED) & ~BIT_MASK(nr), __ATOMIC_RELAXED);
}

/* Atomic and unordered, like the kernel's void-returning bitops. */
static inline void set_bit(unsigned long nr, unsigned long *addr)
{
	__atomic_fetch_or(addr + BIT_WORD(nr), BIT_MASK(nr), __ATOMIC_RELAXED);
}

static inline void clear_bit(unsigned long nr, unsigned long *addr)
{
	__atomic_fetch_and(addr + BIT_WORD(nr), ~BIT_MASK(nr), __ATOMIC_RELAXED);
}

/* Fully ordered; true if the bit was already set. */
static inline bool test_and_set_bit(unsigned long nr, unsigned long *addr)
{
	return __atomic_fetch_or(addr + BIT_WORD(nr), BIT_MASK(nr), __ATOMIC_SEQ_CST) &
	       BIT_MASK(nr);
}

static inline bool test_and_clear_bit(unsigned long nr, unsigned long *addr)
{
	return __atomic_fetch_and(addr + BIT_WORD(nr), ~BIT_MASK(nr), __ATOMIC_SEQ_CST) &
	       BIT_MASK(nr);
}

static inline bool test_bit(unsigned long nr, const unsigned long *addr)
{
	return (__atomic_load_n(addr + BIT_WORD(nr), __ATOMIC_RELAXED) & BIT_MASK(nr)) != 0;
}

unsigned long find_next_bit(const unsigned long *addr, unsigned long size, unsigned long offset);
unsigned long find_next_zero_bit(const unsigned long *addr, unsigned long size,
				 unsigned long offset);
unsigned long find_last_bit(const unsigned long *addr, unsigned long size);

/** find_first_bit - index of the first set bit below @size, or @size. */
static inline unsigned long find_first_bit(const unsigned long *addr, unsigned long size)
{
	return find_next_bit(addr, size, 0);
}

/** find_first_zero_bit - index of the first clear bit below @size, or @size. */
static inline unsigned long find_first_zero_bit(const unsigned long *addr, unsigned long size)
{
	return find_next_zero_bit(addr, size, 0);
}

#define for_each_set_bit(bit, addr, size)                            \
	for ((bit) = find_first_bit((addr), (size)); (bit) < (size); \
	     (bit) = find_next_bit((addr), (size), (bit) + 1))

/* Whole-word operations; the tail bits of the last word are written too. */
static inline void bitmap_zero(unsigned long *dst, unsigned long nbits)
{
	memset(dst, 0, BITS_TO_LONGS(nbits) * sizeof(unsigned long));
}

static inline void bitmap_fill(unsigned long *dst, unsigned long nbits)
{
	memset(dst, 0xff, BITS_TO_LONGS(nbits) * sizeof(unsigned long));
}

static inline void bitmap_copy(unsigned long *dst, const unsigned long *src, unsigned long nbits)
{
	memcpy(dst, src, BITS_TO_LONGS(nbits) * sizeof(unsigned long));
}

/**
 * bitmap_copy_and_extend - copy @count bits and clear the rest up to @size
 *
 * Used when an fd table grows (copy_fd_bitmaps()): bits past @count in the
 * last copied word are cleared too.
 */
void bitmap_copy_and_extend(unsigned long *to, const unsigned long *from, unsigned long count,
			    unsigned long size);

/** bitmap_weight - number of set bits below @nbits. */
unsigned long bitmap_weight(const unsigned long *src, unsigned long nbits);

static inline bool bitmap_empty(const unsigned long *src, unsigned long nbits)
{
	return find_first_bit(src, nbits) == nbits;
}

static inline bool bitmap_full(const unsigned long *src, unsigned long nbits)
{
	return find_next_zero_bit(src, nbits, 0) == nbits;
}

#endif /* VFSLAB_LIB_BITMAP_H */
