// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The slow path of file_ref_put().  Models __file_ref_put() in fs/file.c.
 */
#include "lib/file_ref.h"

/**
 * __file_ref_put - handle a decrement that went below zero
 * @ref: the reference
 * @cnt: the value the decrement produced
 *
 * Return: true only for the one caller that moved NOREF to DEAD.
 */
noinline bool __file_ref_put(file_ref_t *ref, unsigned long cnt)
{
	if (likely(cnt == FILE_REF_NOREF)) {
		long expected = (long)FILE_REF_NOREF;

		/*
		 * We dropped the last reference, unless a get slipped in after
		 * our decrement: then the cmpxchg fails, that get owns the file,
		 * and its put will come back here.  Exactly one putter wins.
		 */
		if (!atomic_long_try_cmpxchg_release(&ref->refcnt, &expected, (long)FILE_REF_DEAD))
			return false;
		/* Order the caller's teardown after everybody's last access. */
		smp_acquire__after_ctrl_dep();
		return true;
	}

	if (cnt >= FILE_REF_RELEASED) {
		/* A put on a dead file: pin it mid-zone and complain. */
		atomic_long_set(&ref->refcnt, (long)FILE_REF_DEAD);
		WARN(1, "imbalanced put on file reference count");
		return false;
	}

	/* Saturation zone: leak the file rather than let the count wrap. */
	if (cnt > FILE_REF_MAXREF)
		atomic_long_set(&ref->refcnt, (long)FILE_REF_SATURATED);
	return false;
}
