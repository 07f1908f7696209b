// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A VFS instance: its variant, layouts, caches, dcache hash table, root
 * and teardown. What the kernel spreads over boot-time globals
 * (dentry_hashtable, rename_lock, the slab caches) lives here, so
 * instances run side by side and each test starts from a fresh one.
 */
#include <stdio.h>
#include <stdlib.h>

#include "vfs/mount.h"

void vfs_config_default(struct vfs_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->dcount = DCOUNT_LOCKREF;
	cfg->lockref_retry = LOCKREF_RETRY_DEFAULT;
	cfg->fref = FREF_FILE_REF;
	cfg->alloc_fd = ALLOC_FD_V613;
	cfg->nr_open = 1024 * 1024;
	cfg->mount_max = VFS_MOUNT_MAX_DEFAULT;
	cfg->dentry_unused_max = 0; /* tmpfs: unused dentries are deleted */
	cfg->d_hash_shift = 16;
}

static const char *const event_names[VFS_EV_NR] = {
	[VFS_EV_RCU_WALK] = "rcu_walk",		[VFS_EV_UNLAZY_OK] = "unlazy_ok",
	[VFS_EV_UNLAZY_FAIL] = "unlazy_fail",	[VFS_EV_REF_WALK] = "ref_walk",
	[VFS_EV_LOCKREF_SLOW] = "lockref_slow", [VFS_EV_LOCKREF_FAST] = "lockref_fast",
	[VFS_EV_FGET_RETRY] = "fget_retry",	[VFS_EV_ALLOC_FD_FAST] = "alloc_fd_fast",
	[VFS_EV_FD_EXPAND] = "fd_expand",	[VFS_EV_DCACHE_MISS] = "dcache_miss",
};

const char *vfs_event_name(enum vfs_event ev)
{
	return (unsigned int)ev < VFS_EV_NR ? event_names[ev] : "?";
}

static void events_from_stats(const uint64_t *s, uint64_t out[VFS_EV_NR])
{
	for (int i = 0; i < VFS_EV_NR; i++)
		out[i] = s[VFS_STAT(i)];
	/* lockref counts itself in lib/: no VFS knowledge there. */
	out[VFS_EV_LOCKREF_SLOW] = s[STAT_LOCKREF_SLOW];
	out[VFS_EV_LOCKREF_FAST] = s[STAT_LOCKREF_FAST];
}

void vfs_events_read(uint64_t out[VFS_EV_NR])
{
	uint64_t s[STAT_NR];

	stat_read_all(s);
	events_from_stats(s, out);
}

void vfs_events_read_self(uint64_t out[VFS_EV_NR])
{
	uint64_t s[STAT_NR];

	stat_read_self(s);
	events_from_stats(s, out);
}

void vfs_rcu_barrier(void)
{
	rcu_barrier();
}

void vfs_thread_enter(void)
{
	rcu_register_thread();
}

void vfs_thread_exit(void)
{
	rcu_unregister_thread();
}

static int vfs_layouts(struct vfs *v, char *err, size_t errlen)
{
	struct layout ls[LS_NR];

	if (v->cfg.layouts)
		memcpy(ls, v->cfg.layouts, sizeof(ls));
	else if (vfs_config_layouts(&v->cfg, ls, err, errlen))
		return -1;
	v->dl = ls[LS_DENTRY];
	v->fl = ls[LS_FILE];
	v->sl = ls[LS_FILES];
	v->dname_inline_len = v->dl.slot[DENTRY_F_d_iname];
	return 0;
}

/* A struct laid out at run time gets the slab alignment its layout asks. */
static struct kmem_cache *layout_cache(const char *name, const struct layout *l, unsigned int flags)
{
	unsigned int align = l->align < 64 && l->size % 64 == 0 ? 64 : l->align;

	if (l->align >= 64)
		flags |= SLAB_HWCACHE_ALIGN;
	return kmem_cache_create(name, l->size, align, flags);
}

static void vfs_free_caches(struct vfs *v)
{
	struct kmem_cache **caches[] = { &v->dentry_cache, &v->inode_cache, &v->file_cache,
					 &v->files_cache,  &v->fs_cache,    &v->task_cache };

	for (size_t i = 0; i < ARRAY_SIZE(caches); i++) {
		if (*caches[i])
			kmem_cache_destroy(*caches[i]);
		*caches[i] = NULL;
	}
	page_zone_destroy(v->page_zone);
	v->page_zone = NULL;
}

struct vfs *vfs_new(const struct vfs_config *cfg, char *err, size_t errlen)
{
	struct vfs *v = aligned_alloc(L1_CACHE_BYTES, ALIGN(sizeof(*v), L1_CACHE_BYTES));

	if (!v) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	memset(v, 0, sizeof(*v));
	if (cfg)
		v->cfg = *cfg;
	else
		vfs_config_default(&v->cfg);
	if (v->cfg.d_hash_shift == VFS_HASH_SHIFT_AUTO)
		v->cfg.d_hash_shift = vfs_hash_shift_for_memory(vfs_phys_ram());
	if (v->cfg.d_hash_shift < VFS_HASH_SHIFT_MIN || v->cfg.d_hash_shift > VFS_HASH_SHIFT_MAX) {
		snprintf(err, errlen, "d_hash_shift %u out of range %d..%d", v->cfg.d_hash_shift,
			 VFS_HASH_SHIFT_MIN, VFS_HASH_SHIFT_MAX);
		goto fail;
	}
	if (v->cfg.nr_open < BITS_PER_LONG || v->cfg.nr_open > (1u << 30)) {
		snprintf(err, errlen, "nr_open %u out of range %u..%u", v->cfg.nr_open,
			 (unsigned int)BITS_PER_LONG, 1u << 30);
		goto fail;
	}
	v->cfg.nr_open = ALIGN_DOWN(v->cfg.nr_open, BITS_PER_LONG);
	if (vfs_layouts(v, err, errlen))
		goto fail;
	dcache_init(v);
	spin_lock_init(&v->task_lock);
	INIT_LIST_HEAD(&v->tasks);
	v->d_hash_shift = v->cfg.d_hash_shift;
	v->d_hash_table = vzalloc_huge(sizeof(struct hlist_bl_head) << v->d_hash_shift);
	v->dentry_cache = layout_cache("dentry", &v->dl, 0);
	v->file_cache = layout_cache("filp", &v->fl, SLAB_TYPESAFE_BY_RCU);
	v->files_cache = layout_cache("files_cache", &v->sl, 0);
	v->inode_cache = kmem_cache_create("shmem_inode_cache", sizeof(struct inode), 8, 0);
	v->fs_cache = kmem_cache_create("fs_cache", sizeof(struct fs_struct), 8, 0);
	v->task_cache =
		kmem_cache_create("task_struct", sizeof(struct task), 64, SLAB_HWCACHE_ALIGN);
	v->page_zone = shmem_zone_create();
	if (!v->d_hash_table || !v->dentry_cache || !v->file_cache || !v->files_cache ||
	    !v->inode_cache || !v->fs_cache || !v->task_cache || !v->page_zone) {
		snprintf(err, errlen, "out of memory");
		goto fail_caches;
	}
	/* The root tmpfs (mode 1777, owned by root) and its mount. */
	if (mnt_init(v, err, errlen))
		goto fail_caches;
	return v;
fail_caches:
	vfs_free_caches(v);
	vfree_huge(v->d_hash_table, sizeof(struct hlist_bl_head) << v->d_hash_shift);
fail:
	free(v);
	return NULL;
}

long vfs_destroy(struct vfs *v)
{
	long leaked = 0;

	if (!v)
		return 0;
	if (!list_empty(&v->tasks)) {
		fprintf(stderr, "vfslab: vfs_destroy with live tasks\n");
		return -EBUSY;
	}
	mnt_fini(v);
	/* Frees queued with call_rcu (dentries, inodes, files) land now. */
	rcu_barrier();
	leaked += kmem_cache_inuse(v->dentry_cache);
	leaked += kmem_cache_inuse(v->inode_cache);
	leaked += kmem_cache_inuse(v->file_cache);
	leaked += kmem_cache_inuse(v->files_cache);
	if (leaked)
		fprintf(stderr, "vfslab: %ld objects leaked (dentry %ld inode %ld file %ld)\n",
			leaked, kmem_cache_inuse(v->dentry_cache), kmem_cache_inuse(v->inode_cache),
			kmem_cache_inuse(v->file_cache));
	vfs_free_caches(v);
	dcache_fini(v);
	free(v);
	return leaked;
}
