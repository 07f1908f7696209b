// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The shell's commands that look inside its VFS: a dentry and its hash
 * chain, the fd table's bitmaps, the struct layouts, the counters and the
 * object caches.
 */
#include <stdio.h>
#include <string.h>

#include "tools/fstest/fstest.h"
#include "tools/layout/pahole.h"
#include "tools/shell/shell.h"
#include "tools/sys/names.h"
#include "vfs/layout.h"
#include "vfs/vfs.h"

void shell_show_dentry(struct task *t, const char *path, bool follow)
{
	struct dentry_info di;
	struct dentry_chain_info ch;
	char flags[256];
	int err = vfs_inspect_path(t, path, follow, &di, &ch);

	if (err) {
		printf("%s\n", fstest_strerror(-err));
		return;
	}
	printf("dentry \"%s\"%s%s\n", di.name, di.negative ? " (negative)" : "",
	       di.hashed ? "" : " (unhashed)");
	printf("  d_count %d (the caller's lookup reference excluded), d_seq %u%s\n", di.count,
	       di.seq, di.seq & 1 ? " (odd: a writer is inside)" : "");
	sys_flag_word_format(flags, sizeof(flags), &sys_dentry_flags, di.flags, SYS_FLAGS_C);
	printf("  d_flags 0x%08x (%s)\n", di.flags, flags);
	printf("  d_name.hash 0x%08x, bucket %lu, position %u of %u in its chain\n", di.hash,
	       ch.bucket, ch.position, ch.length);
	if (!di.negative)
		printf("  inode %lu, mode %06o\n", di.ino, (unsigned int)di.mode);
	printf("  d_lockref at offset %u in this layout\n", di.lockref_offset);
}

void shell_show_fdtable(struct task *t)
{
	struct fdtable_info fi;
	char flags[256];

	vfs_inspect_fdtable(t, &fi);
	printf("files_struct: %d user%s, fdtable %s, max_fds %u, next_fd %u, %u open\n", fi.users,
	       fi.users == 1 ? " (fdget borrows: no refcount)" : "s (fdget takes references)",
	       fi.embedded ? "embedded (64 slots)" : "allocated", fi.max_fds, fi.next_fd,
	       fi.nr_open);
	for (unsigned int w = 0; w < 4 && w < fi.max_fds / 64; w++)
		printf("  open_fds[%u] %016lx  close_on_exec[%u] %016lx\n", w, fi.open_fds[w], w,
		       fi.close_on_exec[w]);
	printf("  full_fds_bits[0] %016lx\n", fi.full_fds_bits);
	for (int i = 0; i < fi.nr_fds; i++) {
		sys_flag_word_format(flags, sizeof(flags), &sys_file_flags, fi.fds[i].flags,
				     SYS_FLAGS_C);
		printf("  fd %-4d ino %-6lu f_count %-3lu f_pos %-8lld f_flags %#x (%s)\n",
		       fi.fds[i].fd, fi.fds[i].ino, fi.fds[i].count, fi.fds[i].pos, fi.fds[i].flags,
		       flags);
	}
}

int shell_show_layouts(const struct vfs_config *cfg, const char *which)
{
	struct layout ls[LS_NR];
	enum layout_struct one;
	char err[512];

	if (which && layout_struct_find(which, &one)) {
		fprintf(stderr, "layout: unknown struct '%s' (dentry, file, files_struct)\n",
			which);
		return -1;
	}
	/* The VFS was built from cfg, so its layouts build. */
	if (vfs_config_layouts(cfg, ls, err, sizeof(err))) {
		printf("%s\n", err);
		return -1;
	}
	for (int s = 0; s < LS_NR; s++) {
		if (which && (enum layout_struct)s != one)
			continue;
		pahole_print(&ls[s], stdout);
		pahole_warnings(&ls[s], stdout);
	}
	return 0;
}

void shell_show_counters(void)
{
	uint64_t ev[VFS_EV_NR];

	vfs_events_read_self(ev);
	for (int i = 0; i < VFS_EV_NR; i++)
		printf("  %-14s %llu\n", vfs_event_name(i), (unsigned long long)ev[i]);
}

void shell_show_caches(struct vfs *vfs)
{
	struct vfs_cache_info ci[4];
	unsigned long unused;
	int nc = vfs_inspect_caches(vfs, ci, 4, &unused);

	for (int k = 0; k < nc; k++)
		printf("%-18s %8ld in use, %4zu bytes each\n", ci[k].name, ci[k].in_use,
		       ci[k].objsize);
	printf("%lu unused dentries on the LRU\n", unused);
}
