/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Invariant checkers for a live VFS, for `vfslab torture` and the tests.
 *
 * Each returns 0 when the invariant holds, or -1 with a message naming the
 * object and the broken rule in err. Two kinds:
 *
 *  - safe while other threads run syscalls: vfs_check_fd(),
 *    vfs_check_path(), vfs_check_task_fds();
 *  - exact accounting, for a point where no syscall is in flight (a
 *    stop-the-world pause, a single-threaded replay, or after every task
 *    exited): vfs_check_tree(), vfs_check_slabs(), vfs_check_quiescent().
 *    Live tasks are allowed; their fd tables and fs_structs are counted.
 */
#ifndef VFSLAB_VFS_CHECK_H
#define VFSLAB_VFS_CHECK_H

#include <stdbool.h>
#include <stddef.h>

struct vfs;
struct task;

/*
 * The dentry behind fd in t: a live reference (d_count > 0, not killed),
 * positive, with the inode the file was opened on. Returns 1 if fd is not
 * open (a sibling thread may have closed it), else 0 or -1.
 */
int vfs_check_fd(struct task *t, int fd, char *err, size_t len);

/*
 * Look path up as stat() (follow) or lstat() would and check the dentry
 * the walk hands out: d_count > 0, not killed, its type matching its
 * inode. Returns 1 if the lookup itself failed (the name may have gone).
 */
int vfs_check_path(struct task *t, const char *path, bool follow, char *err, size_t len);

/*
 * t's fd table under file_lock: open_fds, full_fds_bits and next_fd agree
 * with the slots (files_check_invariants()), and every installed file
 * holds a live, positive dentry.
 */
int vfs_check_task_fds(struct task *t, char *err, size_t len);

/*
 * The whole dcache tree from the root, with no syscall in flight:
 * every child's d_parent is the dentry whose d_children holds it; every
 * hashed dentry is the one __d_lookup_rcu() finds under its parent, with
 * the parent-salted hash of its name, and no two hashed names collide;
 * d_flags' type matches d_inode; no killed dentry is reachable; and every
 * count equals the references that can be named: d_count = children +
 * tmpfs pin (positive, hashed) + files + fs_struct root/pwd; f_count =
 * fd slots; files_struct and fs_struct users = tasks; i_count = dentry
 * aliases; i_nlink = hashed names (2 + subdirectories for a directory),
 * directory i_size = 20 per entry; the LRU holds exactly the DCACHE_LRU_LIST
 * dentries, unused and negative; no dentry is in lookup (DCACHE_PAR_LOOKUP)
 * and the in-lookup hash is empty.
 */
int vfs_check_tree(struct vfs *v, char *err, size_t len);

/*
 * vfs_check_tree(), then after rcu_barrier() every slab cache's in-use
 * count (dentry, inode, filp, files_cache, fs_cache, task_struct) equals
 * the objects reachable from the root and the task list.
 */
int vfs_check_slabs(struct vfs *v, char *err, size_t len);

/*
 * After every task exited, before vfs_destroy(): no task left, and
 * vfs_check_slabs() holds, which then means every positive dentry is back
 * to its pin plus one per child, every name is hashed, and no file,
 * files_struct or fs_struct is left.
 */
int vfs_check_quiescent(struct vfs *v, char *err, size_t len);

/* WARN_ON()s hit so far in this process (each one is a bug to report). */
unsigned long vfs_check_warnings(void);

#endif /* VFSLAB_VFS_CHECK_H */
