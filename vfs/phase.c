// SPDX-License-Identifier: LGPL-2.1-or-later
/* Phase clocks (vfs/phase.h): the switch between steps and their names. */
#include <stddef.h>

#include "vfs/phase.h"

static const char *const names[VFS_PH_NR] = {
	[VFS_PH_SYSCALL] = "path walk, locks, the rest",
	[VFS_PH_D_LOOKUP_RCU] = "__d_lookup_rcu",
	[VFS_PH_D_LOOKUP] = "d_lookup",
	[VFS_PH_D_ALLOC] = "d_alloc",
	[VFS_PH_INODE] = "new_inode",
	[VFS_PH_DIR_OFFSET] = "simple_offset_add",
	[VFS_PH_D_INSTANTIATE] = "d_add, d_instantiate",
	[VFS_PH_FILE] = "alloc_file",
	[VFS_PH_FD] = "alloc_fd, fd_install",
};

const char *vfs_phase_name(enum vfs_phase ph)
{
	return (unsigned int)ph < VFS_PH_NR ? names[ph] : "?";
}

#ifdef VFSLAB_SIM
void vfs_phases_start(struct vfs_phases *p)
{
	(void)p;
}

void vfs_phases_stop(void)
{
}

double vfs_phases_switch_ticks(void)
{
	return 0;
}
#else
__thread struct vfs_phases *vfs_phases_self;

unsigned int __vfs_phase_switch(struct vfs_phases *p, unsigned int ph)
{
	uint64_t now = vfs_phase_clock();
	unsigned int prev = p->cur;

	p->ticks[prev] += now - p->last;
	p->segs[prev]++;
	p->last = now;
	p->cur = ph;
	return prev;
}

void vfs_phases_start(struct vfs_phases *p)
{
	p->cur = VFS_PH_SYSCALL;
	p->last = vfs_phase_clock();
	vfs_phases_self = p;
}

void vfs_phases_stop(void)
{
	struct vfs_phases *p = vfs_phases_self;

	if (p) {
		p->ticks[p->cur] += vfs_phase_clock() - p->last;
		p->segs[p->cur]++;
		vfs_phases_self = NULL;
	}
}

double vfs_phases_switch_ticks(void)
{
	struct vfs_phases p = { .cur = VFS_PH_SYSCALL, .last = vfs_phase_clock() };
	double best = 0;

	/* The cheapest of a few rounds: the others met an interrupt. */
	for (int round = 0; round < 5; round++) {
		uint64_t t0 = vfs_phase_clock(), t;

		for (int i = 0; i < 1024; i++)
			__vfs_phase_switch(&p, i & 1 ? VFS_PH_SYSCALL : VFS_PH_D_LOOKUP);
		t = vfs_phase_clock() - t0;
		if (!round || t / 1024.0 < best)
			best = t / 1024.0;
	}
	return best;
}
#endif
