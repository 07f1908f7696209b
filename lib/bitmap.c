// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Bitmap searches and whole-bitmap helpers.  Models lib/find_bit.c
 * (_find_next_bit() and friends) and lib/bitmap.c.
 */
#include "lib/bitmap.h"

static inline unsigned long load_word(const unsigned long *addr, unsigned long idx)
{
	return __atomic_load_n(addr + idx, __ATOMIC_RELAXED);
}

/*
 * Find the first bit at or after @start that is set in (word ^ @invert):
 * @invert = 0 looks for ones, ~0UL for zeros.
 */
static unsigned long find_next(const unsigned long *addr, unsigned long size, unsigned long start,
			       unsigned long invert)
{
	unsigned long idx, word;

	if (unlikely(start >= size))
		return size;

	idx = BIT_WORD(start);
	word = (load_word(addr, idx) ^ invert) & BITMAP_FIRST_WORD_MASK(start);
	while (!word) {
		idx++;
		if (idx * BITS_PER_LONG >= size)
			return size;
		word = load_word(addr, idx) ^ invert;
	}
	/* A hit past @size in the last word means "not found". */
	return min(idx * BITS_PER_LONG + (unsigned long)__builtin_ctzl(word), size);
}

/* Models _find_next_bit() in lib/find_bit.c. */
unsigned long find_next_bit(const unsigned long *addr, unsigned long size, unsigned long offset)
{
	return find_next(addr, size, offset, 0);
}

/* Models _find_next_zero_bit() in lib/find_bit.c. */
unsigned long find_next_zero_bit(const unsigned long *addr, unsigned long size,
				 unsigned long offset)
{
	return find_next(addr, size, offset, ~0UL);
}

/* Models _find_last_bit() in lib/find_bit.c: @size when no bit is set. */
unsigned long find_last_bit(const unsigned long *addr, unsigned long size)
{
	unsigned long idx, word;

	if (!size)
		return 0;
	idx = BIT_WORD(size - 1);
	word = load_word(addr, idx) & BITMAP_LAST_WORD_MASK(size);
	for (;;) {
		if (word)
			return idx * BITS_PER_LONG + (BITS_PER_LONG - 1) -
			       (unsigned long)__builtin_clzl(word);
		if (idx == 0)
			return size;
		word = load_word(addr, --idx);
	}
}

/* Models bitmap_copy_and_extend() in include/linux/bitmap.h. */
void bitmap_copy_and_extend(unsigned long *to, const unsigned long *from, unsigned long count,
			    unsigned long size)
{
	unsigned long copy = BITS_TO_LONGS(count);

	memcpy(to, from, copy * sizeof(unsigned long));
	if (count % BITS_PER_LONG)
		to[copy - 1] &= BITMAP_LAST_WORD_MASK(count);
	if (BITS_TO_LONGS(size) > copy)
		memset(to + copy, 0, (BITS_TO_LONGS(size) - copy) * sizeof(unsigned long));
}

/* Models __bitmap_weight() in lib/bitmap.c. */
unsigned long bitmap_weight(const unsigned long *src, unsigned long nbits)
{
	unsigned long w = 0, full = nbits / BITS_PER_LONG;

	for (unsigned long i = 0; i < full; i++)
		w += (unsigned long)__builtin_popcountl(load_word(src, i));
	if (nbits % BITS_PER_LONG)
		w += (unsigned long)__builtin_popcountl(load_word(src, full) &
							BITMAP_LAST_WORD_MASK(nbits));
	return w;
}
