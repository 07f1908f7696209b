/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Phase clocks: where a syscall's time goes, step by step (`vfslab bench
 * --tree N --phases`). A caller points the thread at a struct vfs_phases
 * with vfs_phases_start(); each instrumented step (VFS_PHASE() at the top
 * of d_lookup(), new_inode(), ...) then charges the time since the last
 * switch to whichever step was running, so the counts are exclusive: a
 * step's callees that are steps themselves are not in it, and what no
 * step claims is the syscall's own (VFS_PH_SYSCALL). With no struct set
 * a step costs one thread-local load and a branch; the simulator compiles
 * them out.
 */
#ifndef VFSLAB_VFS_PHASE_H
#define VFSLAB_VFS_PHASE_H

#include <stdint.h>
#include <time.h>
#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

enum vfs_phase {
	VFS_PH_SYSCALL, /* the path walk's own code, permission, locks, the rest */
	VFS_PH_D_LOOKUP_RCU, /* __d_lookup_rcu(): the walk's hash lookups */
	VFS_PH_D_LOOKUP, /* d_lookup(): the locked lookup (a create's miss) */
	VFS_PH_D_ALLOC,
	VFS_PH_INODE, /* new_inode() */
	VFS_PH_DIR_OFFSET, /* simple_offset_add() */
	VFS_PH_D_INSTANTIATE, /* d_add(), d_instantiate(): hash in, inode in */
	VFS_PH_FILE, /* alloc_file() */
	VFS_PH_FD, /* get_unused_fd_flags(), fd_install() */
	VFS_PH_NR,
	VFS_PH_NONE = VFS_PH_NR, /* phase clocks off */
};

struct vfs_phases {
	uint64_t ticks[VFS_PH_NR]; /* vfs_phase_clock() units, exclusive */
	uint64_t segs[VFS_PH_NR]; /* stretches charged: each ends in a switch */
	uint64_t last;
	unsigned int cur;
};

/* The step's name, for reports. */
const char *vfs_phase_name(enum vfs_phase ph);

/*
 * A cheap monotonic tick: the TSC where there is one, else nanoseconds.
 * rdtscp, not rdtsc: it waits for the loads before it, so a cache miss
 * is charged to the step that missed, not to the next one.
 */
static inline uint64_t vfs_phase_clock(void)
{
#if defined(__x86_64__) || defined(__i386__)
	unsigned int aux;

	return __rdtscp(&aux);
#else
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
#endif
}

/* Charge this thread's steps to p (as VFS_PH_SYSCALL until one runs) ... */
void vfs_phases_start(struct vfs_phases *p);
/* ... until this. */
void vfs_phases_stop(void);
/*
 * What one switch costs in ticks, measured here: each stretch a step is
 * charged holds about one, which a report may take back out.
 */
double vfs_phases_switch_ticks(void);

#ifdef VFSLAB_SIM
#define VFS_PHASE(ph) \
	do {          \
	} while (0)
#else
extern __thread struct vfs_phases *vfs_phases_self;

unsigned int __vfs_phase_switch(struct vfs_phases *p, unsigned int ph);

static inline unsigned int vfs_phase_enter(unsigned int ph)
{
	struct vfs_phases *p = vfs_phases_self;

	if (__builtin_expect(!p, 1))
		return VFS_PH_NONE;
	return __vfs_phase_switch(p, ph);
}

static inline void vfs_phase_leave(const unsigned int *prev)
{
	if (__builtin_expect(*prev != VFS_PH_NONE, 0))
		__vfs_phase_switch(vfs_phases_self, *prev);
}

/* The rest of the enclosing block is step ph (the kernel's guard() shape). */
#define VFS_PHASE(ph)                 \
	unsigned int __vfs_phase_prev \
		__attribute__((cleanup(vfs_phase_leave), unused)) = vfs_phase_enter(ph)
#endif

#endif
