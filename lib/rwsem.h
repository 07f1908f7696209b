/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * A 4-byte reader/writer lock used as the directory lock (i_rwsem).  Layout of
 * @count, after the kernel's rwsem:
 *   bit 0     RWSEM_WRITER_LOCKED   a writer holds it
 *   bit 1     RWSEM_WRITER_WAITING  a writer waits: new readers hold back
 *   bits 8-31 number of readers, in units of RWSEM_READER_BIAS
 * Waiters spin with cpu_relax() and then sched_yield(), as struct mutex does.
 * Models the API of include/linux/rwsem.h.
 */
#ifndef VFSLAB_LIB_RWSEM_H
#define VFSLAB_LIB_RWSEM_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/atomic.h"
#include "lib/compiler.h"

struct rw_semaphore {
	uint32_t count;
};

#define RWSEM_WRITER_LOCKED 0x1u
#define RWSEM_WRITER_WAITING 0x2u
#define RWSEM_READER_SHIFT 8
#define RWSEM_READER_BIAS (1u << RWSEM_READER_SHIFT)
#define RWSEM_READER_MASK (~(RWSEM_READER_BIAS - 1))

#define __RWSEM_INITIALIZER \
	{                   \
		.count = 0  \
	}
#define DECLARE_RWSEM(name) struct rw_semaphore name = __RWSEM_INITIALIZER

void rwsem_down_read_slowpath(struct rw_semaphore *sem);
void rwsem_down_write_slowpath(struct rw_semaphore *sem);

static inline void init_rwsem(struct rw_semaphore *sem)
{
	WRITE_ONCE(sem->count, 0);
}

/** down_read_trylock - take @sem shared unless a writer holds or waits for it. */
static inline bool down_read_trylock(struct rw_semaphore *sem)
{
	uint32_t c = READ_ONCE(sem->count);

	do {
		if (c & (RWSEM_WRITER_LOCKED | RWSEM_WRITER_WAITING))
			return false;
	} while (!__atomic_compare_exchange_n(&sem->count, &c, c + RWSEM_READER_BIAS, false,
					      __ATOMIC_ACQUIRE, __ATOMIC_RELAXED));
	return true;
}

/** down_write_trylock - take @sem exclusive if nobody holds it. */
static inline bool down_write_trylock(struct rw_semaphore *sem)
{
	uint32_t c = READ_ONCE(sem->count);

	do {
		if (c & (RWSEM_WRITER_LOCKED | RWSEM_READER_MASK))
			return false;
		/* The new owner clears WAITING; other waiters set it again. */
	} while (!__atomic_compare_exchange_n(&sem->count, &c,
					      (c & ~RWSEM_WRITER_WAITING) | RWSEM_WRITER_LOCKED,
					      false, __ATOMIC_ACQUIRE, __ATOMIC_RELAXED));
	return true;
}

/** down_read - take @sem shared; models down_read(). */
static inline void down_read(struct rw_semaphore *sem)
{
	if (likely(down_read_trylock(sem)))
		return;
	rwsem_down_read_slowpath(sem);
}

/** up_read - drop a shared hold of @sem. */
static inline void up_read(struct rw_semaphore *sem)
{
	__atomic_fetch_sub(&sem->count, RWSEM_READER_BIAS, __ATOMIC_RELEASE);
}

/** down_write - take @sem exclusive; models down_write(). */
static inline void down_write(struct rw_semaphore *sem)
{
	if (likely(down_write_trylock(sem)))
		return;
	rwsem_down_write_slowpath(sem);
}

/** up_write - drop the exclusive hold of @sem. */
static inline void up_write(struct rw_semaphore *sem)
{
	__atomic_fetch_and(&sem->count, ~RWSEM_WRITER_LOCKED, __ATOMIC_RELEASE);
}

/** rwsem_is_locked - held by a writer or at least one reader? */
static inline bool rwsem_is_locked(const struct rw_semaphore *sem)
{
	return (READ_ONCE(sem->count) & (RWSEM_WRITER_LOCKED | RWSEM_READER_MASK)) != 0;
}

/** rwsem_is_write_locked - held exclusive? */
static inline bool rwsem_is_write_locked(const struct rw_semaphore *sem)
{
	return (READ_ONCE(sem->count) & RWSEM_WRITER_LOCKED) != 0;
}

#endif /* VFSLAB_LIB_RWSEM_H */
