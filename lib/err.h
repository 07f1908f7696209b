/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Error values carried in pointers, as include/linux/err.h does: the top
 * 4095 addresses are never valid objects, so a function can return either
 * an object or a negative errno.
 */
#ifndef VFSLAB_LIB_ERR_H
#define VFSLAB_LIB_ERR_H

#include <stdbool.h>
#include <stdint.h>

#define MAX_ERRNO 4095

static inline void *ERR_PTR(long error)
{
	return (void *)(intptr_t)error;
}

static inline long PTR_ERR(const void *ptr)
{
	return (long)(intptr_t)ptr;
}

static inline bool IS_ERR(const void *ptr)
{
	return (uintptr_t)ptr >= (uintptr_t)-MAX_ERRNO;
}

/* Pass an error pointer on as another pointer type. */
static inline void *ERR_CAST(const void *ptr)
{
	return (void *)ptr;
}

static inline bool IS_ERR_OR_NULL(const void *ptr)
{
	return !ptr || IS_ERR(ptr);
}

#endif /* VFSLAB_LIB_ERR_H */
