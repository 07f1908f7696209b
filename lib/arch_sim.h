/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Included first in every file of lib/ and vfs/ built for the simulator
 * port (-include, with -fsanitize=thread -DVFSLAB_SIM): the C library
 * calls that touch VFS memory go to the port (lib/arch_libc.h), so that
 *  - memcpy, memcmp, strlen and friends are seen (the C library is not
 *    instrumented, and gcc 12 emits plain calls for them);
 *  - the heap is the simulator's, at fixed addresses, so that object
 *    placement, and with it every cache line, is the same in every run;
 *  - time is virtual.
 * The system headers come first so that their declarations keep the real
 * names; only the calls in our sources are renamed.
 */
#ifndef VFSLAB_LIB_ARCH_SIM_H
#define VFSLAB_LIB_ARCH_SIM_H

#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef HAVE_JEMALLOC
#include <jemalloc/jemalloc.h>
#endif

#include "lib/arch_libc.h"

#define memcpy vfslab_sim_memcpy
#define memmove vfslab_sim_memmove
#define memset vfslab_sim_memset
#define memcmp vfslab_sim_memcmp
#define memchr vfslab_sim_memchr
#define strlen vfslab_sim_strlen
#define strnlen vfslab_sim_strnlen
#define strcmp vfslab_sim_strcmp
#define strncmp vfslab_sim_strncmp
#define strchr vfslab_sim_strchr
#define strcpy vfslab_sim_strcpy

#define malloc vfslab_sim_malloc
#define calloc vfslab_sim_calloc
#define realloc vfslab_sim_realloc
#define free vfslab_sim_free
#define aligned_alloc vfslab_sim_aligned_alloc
#define posix_memalign vfslab_sim_posix_memalign
#define strdup vfslab_sim_strdup
#define mallocx vfslab_sim_mallocx
#define sdallocx vfslab_sim_sdallocx

#define clock_gettime vfslab_sim_clock_gettime

#endif /* VFSLAB_LIB_ARCH_SIM_H */
