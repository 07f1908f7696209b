/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The C library of the simulator port (lib/arch.h): lib/arch_sim.h renames
 * the calls lib/ and vfs/ make to these, and the port defines them.
 */
#ifndef VFSLAB_LIB_ARCH_LIBC_H
#define VFSLAB_LIB_ARCH_LIBC_H

#include <stddef.h>
#include <time.h>

void *vfslab_sim_memcpy(void *dst, const void *src, size_t n);
void *vfslab_sim_memmove(void *dst, const void *src, size_t n);
void *vfslab_sim_memset(void *dst, int c, size_t n);
int vfslab_sim_memcmp(const void *a, const void *b, size_t n);
void *vfslab_sim_memchr(const void *s, int c, size_t n);
size_t vfslab_sim_strlen(const char *s);
size_t vfslab_sim_strnlen(const char *s, size_t max);
int vfslab_sim_strcmp(const char *a, const char *b);
int vfslab_sim_strncmp(const char *a, const char *b, size_t n);
char *vfslab_sim_strchr(const char *s, int c);
char *vfslab_sim_strcpy(char *dst, const char *src);

void *vfslab_sim_malloc(size_t size);
void *vfslab_sim_calloc(size_t n, size_t size);
void *vfslab_sim_realloc(void *p, size_t size);
void vfslab_sim_free(void *p);
void *vfslab_sim_aligned_alloc(size_t align, size_t size);
int vfslab_sim_posix_memalign(void **out, size_t align, size_t size);
char *vfslab_sim_strdup(const char *s);
void *vfslab_sim_mallocx(size_t size, int flags);
void vfslab_sim_sdallocx(void *p, size_t size, int flags);

int vfslab_sim_clock_gettime(clockid_t clk, struct timespec *ts);

#endif /* VFSLAB_LIB_ARCH_LIBC_H */
