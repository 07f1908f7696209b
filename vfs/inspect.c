// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Looking inside a live VFS, for `vfslab shell` and the tests: a dentry
 * with its hash chain, a task's fd table, the caches. Every snapshot is
 * taken under the lock that protects what it reads.
 */
#include "vfs/internal.h"

int vfs_inspect_path(struct task *t, const char *name, bool follow, struct dentry_info *out,
		     struct dentry_chain_info *chain)
{
	struct vfs *v = t->vfs;
	struct path path;
	int err = user_path_at(t, AT_FDCWD, name, follow ? LOOKUP_FOLLOW : 0, &path, NULL);

	if (err)
		return err;
	rcu_read_lock();
	vfs_dentry_info(v, path.dentry, out);
	if (chain) {
		uint32_t hash = dentry_name(v, path.dentry)->hash;
		unsigned long b = hash >> (32 - v->d_hash_shift);
		struct hlist_bl_node *n;

		chain->bucket = b;
		chain->length = chain->position = 0;
		for (n = hlist_bl_first_rcu(&v->d_hash_table[b]); n; n = rcu_dereference(n->next)) {
			chain->length++;
			if (n == dentry_hash(v, path.dentry))
				chain->position = chain->length;
		}
	}
	rcu_read_unlock();
	/* The walk's own reference is in the count: report the count without it. */
	out->count--;
	path_put(v, &path);
	return 0;
}

void vfs_inspect_fdtable(struct task *t, struct fdtable_info *out)
{
	struct vfs *v = t->vfs;
	struct files_struct *files = t->files;
	struct fdtable *fdt;

	memset(out, 0, sizeof(*out));
	spin_lock(files_file_lock(v, files));
	fdt = *files_fdt(v, files);
	out->max_fds = fdt->max_fds;
	out->next_fd = *files_next_fd(v, files);
	out->users = atomic_read(files_count(v, files));
	out->embedded = fdt == files_fdtab(v, files);
	for (unsigned int w = 0; w < ARRAY_SIZE(out->open_fds) && w < fdt->max_fds / BITS_PER_LONG;
	     w++) {
		out->open_fds[w] = fdt->open_fds[w];
		out->close_on_exec[w] = fdt->close_on_exec[w];
	}
	out->full_fds_bits = fdt->full_fds_bits[0];
	for (unsigned int fd = 0; fd < fdt->max_fds; fd++) {
		struct file *f = rcu_dereference_raw(fdt->fd[fd]);

		if (!test_bit(fd, fdt->open_fds))
			continue;
		out->nr_open++;
		if (!f || out->nr_fds == (int)ARRAY_SIZE(out->fds))
			continue;
		out->fds[out->nr_fds].fd = fd;
		out->fds[out->nr_fds].count = file_count(v, f);
		out->fds[out->nr_fds].ino = file_inode(v, f)->i_ino;
		out->fds[out->nr_fds].flags = *file_flags(v, f);
		out->fds[out->nr_fds].mode = file_fmode(v, f);
		out->fds[out->nr_fds].pos = *file_pos(v, f);
		out->nr_fds++;
	}
	spin_unlock(files_file_lock(v, files));
}

int vfs_inspect_caches(struct vfs *v, struct vfs_cache_info *out, int max, unsigned long *nr_unused)
{
	struct kmem_cache *caches[] = { v->dentry_cache, v->inode_cache, v->file_cache,
					v->files_cache };
	int n = 0;

	for (; n < max && n < (int)ARRAY_SIZE(caches); n++) {
		out[n].name = kmem_cache_name(caches[n]);
		out[n].in_use = kmem_cache_inuse(caches[n]);
		out[n].objsize = kmem_cache_size(caches[n]);
	}
	if (nr_unused)
		*nr_unused = READ_ONCE(v->nr_unused);
	return n;
}
