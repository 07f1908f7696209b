// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The dentry cache: allocation, the parent-salted hash, RCU and ref lookup,
 * dget/dput with lockref (or d_lock, the pre-2013 variant), the LRU and its
 * shrinker, d_move for rename, and teardown. Models fs/dcache.c.
 *
 * Usage:
 *  d_lock (d_lockref.lock) protects d_flags' LRU bits, d_name and d_parent
 *  changes (also under rename_lock), d_count in the slow path, and the
 *  parent's d_children list (the parent's d_lock).
 *  The hash bucket bit lock protects a chain; d_hash.pprev == NULL means
 *  unhashed. d_seq is written around every change RCU walk must notice:
 *  inode/type changes, rename, unhash.
 *  lru_lock protects the LRU list and nr_unused.
 *  The in-lookup hash's bucket lock protects its chains; a dentry is in
 *  it exactly while DCACHE_PAR_LOOKUP is set, which only its owner clears
 *  (d_add, d_lookup_done), under d_lock. A directory's i_dir_seq is odd
 *  while one of its in-lookup dentries moves into the dcache.
 *
 * Ordering:
 *  rename_lock (write) -> parent d_lock -> child d_lock -> hash bucket lock
 *                                                    |-> in-lookup bucket lock
 *                                                    \-> lru_lock
 *  inode->i_lock is never held with d_lock here (vfslab keeps the inode's
 *  alias bookkeeping in i_count alone).
 *
 * Deviations from Linux: no d_op (one filesystem); a d_alloc_parallel()
 * waiter polls DCACHE_PAR_LOOKUP, yielding, instead of sleeping on d_wait;
 * the readdir offset lives in d_fsdata (tmpfs' simple_offset); the name
 * hash is the word-at-a-time shape of fs/namei.c without its unaligned
 * loads past the end of the string.
 */
#include <sched.h>
#include <stdlib.h>

#include "lib/fault_inject.h"
#include "lib/word_at_a_time.h"
#include "vfs/mount.h"

/* include/linux/dcache.h: a name too long for d_iname lives here. */
struct external_name {
	atomic_t count;
	struct rcu_head rcu;
	unsigned char name[];
};

/* ---- helpers for the run-time layout ---- */

static inline struct dentry *d_from_hash(const struct vfs *v, const struct hlist_bl_node *n)
{
	return (struct dentry *)((char *)n - v->dl.off[DENTRY_F_d_hash]);
}

static inline struct dentry *d_from_lru(const struct vfs *v, const struct list_head *n)
{
	return (struct dentry *)((char *)n - v->dl.off[DENTRY_F_d_lru]);
}

static inline struct hlist_bl_head *d_hash(const struct vfs *v, uint32_t hash)
{
	return v->d_hash_table + (hash >> (32 - v->d_hash_shift));
}

static inline unsigned int lockref_budget(const struct vfs *v)
{
	return v->cfg.lockref_retry;
}

static inline bool dname_external(const struct vfs *v, const struct dentry *d)
{
	return dentry_name(v, d)->name != dentry_iname(v, d);
}

static inline struct external_name *external_name(const struct vfs *v, const struct dentry *d)
{
	return container_of(dentry_name(v, d)->name, struct external_name, name[0]);
}

unsigned int d_name_len(struct vfs *v, const struct dentry *d)
{
	return READ_ONCE(dentry_name(v, d)->len);
}

static void external_name_free_rcu(struct rcu_head *head)
{
	kfree(container_of(head, struct external_name, rcu));
}

static void release_external_name(struct external_name *n)
{
	if (atomic_dec_and_test(&n->count))
		call_rcu(&n->rcu, external_name_free_rcu);
}

/* ---- allocation and freeing ---- */

/* Models __d_alloc(). */
static struct dentry *__d_alloc(struct vfs *v, const struct qstr *name)
{
	struct dentry *d = kmem_cache_alloc(v->dentry_cache);
	unsigned char *dname;
	struct qstr *q;

	if (!d)
		return NULL;
	memset(d, 0, kmem_cache_size(v->dentry_cache));
	dname = dentry_iname(v, d);
	if (name->len >= v->dname_inline_len) {
		struct external_name *p = kmalloc(sizeof(*p) + name->len + 1);

		if (!p) {
			kmem_cache_free(v->dentry_cache, d);
			return NULL;
		}
		atomic_set(&p->count, 1);
		dname = p->name;
	}
	memcpy(dname, name->name, name->len);
	dname[name->len] = '\0';
	q = dentry_name(v, d);
	q->hash_len = name->hash_len;
	/* The NUL must be visible before the pointer: pairs with the RCU reader. */
	smp_store_release(&q->name, (const unsigned char *)dname);

	lockref_init(dentry_lockref(v, d));
	seqcount_init(dentry_seq(v, d));
	INIT_HLIST_BL_NODE(dentry_hash(v, d));
	*dentry_parent(v, d) = d;
	*dentry_sb(v, d) = v;
	INIT_LIST_HEAD(dentry_lru(v, d));
	INIT_HLIST_NODE(dentry_sib(v, d));
	INIT_HLIST_HEAD(dentry_children(v, d));
	return d;
}

/*
 * dget_dlock() and friends: d_lock is held. A plain increment is safe when
 * every other count change takes the lock or cmpxchgs the whole word; with
 * an atomic d_count (dcount=atomic) lockless gets and puts run beside us.
 */
static void d_count_add_locked(struct vfs *v, struct dentry *d, int n)
{
	if (v->cfg.dcount == DCOUNT_ATOMIC)
		lockref_count_add_atomic(dentry_lockref(v, d), n);
	else
		lockref_count_add(dentry_lockref(v, d), n);
}

/* Models d_alloc(): a child of parent, unhashed, with a ref on the parent. */
struct dentry *d_alloc(struct vfs *v, struct dentry *parent, const struct qstr *name)
{
	VFS_PHASE(VFS_PH_D_ALLOC);
	struct dentry *d = __d_alloc(v, name);

	if (!d)
		return NULL;
	spin_lock(d_lock(v, parent));
	d_count_add_locked(v, parent, 1); /* dget_dlock() */
	*dentry_parent(v, d) = parent;
	hlist_add_head(dentry_sib(v, d), dentry_children(v, parent));
	spin_unlock(d_lock(v, parent));
	return d;
}

struct dentry *d_make_root(struct vfs *v, struct inode *inode)
{
	static const struct qstr root_name = { .hash_len = hashlen_create(0, 1),
					       .name = (const unsigned char *)"/" };
	struct dentry *d = __d_alloc(v, &root_name);

	if (d)
		d_instantiate(v, d, inode);
	return d;
}

static void __d_free(void *ctx, void *obj)
{
	struct vfs *v = ctx;
	struct dentry *d = obj;

	if (dname_external(v, d))
		release_external_name(external_name(v, d));
	kmem_cache_free(v->dentry_cache, d);
}

/* ---- hashing ---- */

static void __d_rehash(struct vfs *v, struct dentry *d)
{
	struct hlist_bl_head *b = d_hash(v, dentry_name(v, d)->hash);

	hlist_bl_lock(b);
	hlist_bl_add_head_rcu(dentry_hash(v, d), b);
	hlist_bl_unlock(b);
}

void d_rehash_locked(struct vfs *v, struct dentry *d)
{
	__d_rehash(v, d);
}

/* Models ___d_drop() + __d_drop(): unhash and make RCU walkers retry. */
static void __d_drop(struct vfs *v, struct dentry *d)
{
	if (!d_unhashed(v, d)) {
		struct hlist_bl_head *b = d_hash(v, dentry_name(v, d)->hash);

		hlist_bl_lock(b);
		hlist_bl_del_rcu(dentry_hash(v, d));
		hlist_bl_unlock(b);
		write_seqcount_invalidate(dentry_seq(v, d));
	}
}

void d_drop(struct vfs *v, struct dentry *d)
{
	spin_lock(d_lock(v, d));
	__d_drop(v, d);
	spin_unlock(d_lock(v, d));
}

/* ---- inode attachment ---- */

/* The d_flags entry type an inode gives its dentry (d_flags_for_inode()). */
unsigned int d_flags_for_inode(const struct inode *inode)
{
	if (!inode)
		return DCACHE_MISS_TYPE;
	switch (READ_ONCE(inode->i_mode) & S_IFMT) {
	case S_IFDIR:
		return DCACHE_DIRECTORY_TYPE;
	case S_IFLNK:
		return DCACHE_SYMLINK_TYPE;
	case S_IFREG:
		return DCACHE_REGULAR_TYPE;
	default:
		return DCACHE_SPECIAL_TYPE;
	}
}

/*
 * Models __d_set_inode_and_type(): d_inode first, then the type, released.
 * The pointer is a release store too: lockless walkers follow it into the
 * new inode, an address dependency the kernel relies on and C11 spells
 * release/consume.
 */
static void __d_set_inode_and_type(struct vfs *v, struct dentry *d, struct inode *inode)
{
	unsigned int flags;

	smp_store_release(dentry_inode(v, d), inode);
	flags = READ_ONCE(*dentry_flags(v, d));
	flags = (flags & ~DCACHE_ENTRY_TYPE) | d_flags_for_inode(inode);
	smp_store_release(dentry_flags(v, d), flags);
}

/*
 * Models __d_clear_type_and_inode(): the reverse order, the type first. A
 * reader that acquires d_inode (RCU walk's d_inode_rcu()) and finds it
 * gone then finds the type gone too; one that acquires a positive type
 * holds a reference, and a dentry with another reference never goes
 * negative (d_delete()).
 */
static void __d_clear_type_and_inode(struct vfs *v, struct dentry *d)
{
	unsigned int flags = READ_ONCE(*dentry_flags(v, d));

	WRITE_ONCE(*dentry_flags(v, d), flags & ~DCACHE_ENTRY_TYPE);
	smp_store_release(dentry_inode(v, d), NULL);
}

/* Models d_instantiate(): give a negative dentry its inode (ref passed in). */
void d_instantiate(struct vfs *v, struct dentry *d, struct inode *inode)
{
	VFS_PHASE(VFS_PH_D_INSTANTIATE);
	spin_lock(d_lock(v, d));
	raw_write_seqcount_begin(dentry_seq(v, d));
	__d_set_inode_and_type(v, d, inode);
	raw_write_seqcount_end(dentry_seq(v, d));
	spin_unlock(d_lock(v, d));
}

/* ---- parallel lookups: the in-lookup hash ---- */

/* d_wait and d_in_lookup_hash share d_lru's and d_u's slots, as the kernel's unions do. */
static inline struct lookup_wq **dentry_wait(const struct vfs *v, const struct dentry *d)
{
	return LAYOUT_PTR(d, v->dl.off[DENTRY_F_d_lru]);
}

static inline struct hlist_bl_node *dentry_in_lookup_node(const struct vfs *v,
							  const struct dentry *d)
{
	return LAYOUT_PTR(d, v->dl.off[DENTRY_F_d_u]);
}

static inline struct dentry *d_from_in_lookup(const struct vfs *v, const struct hlist_bl_node *n)
{
	return (struct dentry *)((char *)n - v->dl.off[DENTRY_F_d_u]);
}

/* Models in_lookup_hash(): the name's hash mixed with the parent's address. */
static struct hlist_bl_head *in_lookup_hash(struct vfs *v, const struct dentry *parent,
					    uint32_t hash)
{
	hash += (uint32_t)((uintptr_t)parent / 64);
	return &v->in_lookup_hashtable[(hash * 0x61C88647u) >> (32 - IN_LOOKUP_SHIFT)];
}

/*
 * Models start_dir_add(): make the directory's i_dir_seq odd while an
 * in-lookup dentry moves into the dcache, so that a d_alloc_parallel()
 * that missed in both hashes meanwhile sees the change and looks again.
 */
static unsigned int start_dir_add(struct inode *dir)
{
	for (;;) {
		unsigned int n = READ_ONCE(dir->i_dir_seq);

		if (!(n & 1) && __atomic_compare_exchange_n(&dir->i_dir_seq, &n, n + 1, false,
							    __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
			return n;
		cpu_relax();
	}
}

/* Models wake_up_all() on d_wait: the waiters poll, so only count them. */
static void d_wake_lookup_waiters(struct vfs *v, struct lookup_wq *wq)
{
	if (wq && wq->waiters)
		atomic_long_add(wq->waiters, &v->lookup_waits);
}

static void end_dir_add(struct vfs *v, struct inode *dir, unsigned int n, struct lookup_wq *wq)
{
	smp_store_release(&dir->i_dir_seq, n + 2);
	d_wake_lookup_waiters(v, wq);
}

/*
 * Models __d_lookup_unhash(): d_lock held. Out of the in-lookup hash, not
 * in lookup any more (what the waiters poll), its d_wait handed back for
 * the wake-up and the slots it borrowed given back to d_lru and d_u.
 */
static struct lookup_wq *__d_lookup_unhash(struct vfs *v, struct dentry *d)
{
	struct hlist_bl_head *b = in_lookup_hash(v, d_parent(v, d), dentry_name(v, d)->hash);
	struct lookup_wq *wq;

	hlist_bl_lock(b);
	d_flags_clear(v, d, DCACHE_PAR_LOOKUP);
	__hlist_bl_del(dentry_in_lookup_node(v, d));
	wq = *dentry_wait(v, d);
	*dentry_wait(v, d) = NULL;
	hlist_bl_unlock(b);
	INIT_LIST_HEAD(dentry_lru(v, d));
	return wq;
}

/* Models d_lookup_done(): ->lookup is over; wake whoever waits for it. */
void d_lookup_done(struct vfs *v, struct dentry *d)
{
	if (likely(!d_in_lookup(v, d)))
		return;
	spin_lock(d_lock(v, d));
	d_wake_lookup_waiters(v, __d_lookup_unhash(v, d));
	spin_unlock(d_lock(v, d));
}

/*
 * Models d_wait_lookup(): d_lock held, and a reference. The kernel queues
 * on d_wait and sleeps; vfslab queues (counts itself) and then yields
 * until d_lookup_done() or d_add() clears DCACHE_PAR_LOOKUP, which both
 * do under d_lock, so the queue is alive while we count ourselves in it.
 */
static void d_wait_lookup(struct vfs *v, struct dentry *d)
{
	unsigned int spins = 0;

	if (!d_in_lookup(v, d))
		return;
	(*dentry_wait(v, d))->waiters++;
	fault_point("d_wait_lookup:sleep");
	do {
		spin_unlock(d_lock(v, d));
		if (spins < MUTEX_SPIN_LIMIT) {
			spins++;
			cpu_relax();
		} else {
			cpu_yield();
		}
		spin_lock(d_lock(v, d));
	} while (d_in_lookup(v, d));
}

/* d_same_name() under d_lock: the name a waiter found is still the one it wants. */
static bool d_same_name_locked(struct vfs *v, struct dentry *d, const struct dentry *parent,
			       const struct qstr *name)
{
	const struct qstr *q = dentry_name(v, d);

	return d_parent(v, d) == parent && q->hash_len == name->hash_len &&
	       !memcmp(q->name, name->name, name->len);
}

/*
 * Models d_alloc_parallel(): the dentry for (parent, name), for a lookup
 * under the parent's shared i_rwsem. Three answers: a hashed dentry some
 * other lookup already finished (the dcache has it now); the same, after
 * waiting for the lookup still running on it; or a new one, in lookup and
 * in the in-lookup hash, whose ->lookup the caller runs and ends with
 * d_add() or d_lookup_done(). Never two in-lookup dentries for one name.
 */
struct dentry *d_alloc_parallel(struct vfs *v, struct dentry *parent, const struct qstr *name,
				struct lookup_wq *wq)
{
	struct hlist_bl_head *b = in_lookup_hash(v, parent, name->hash);
	struct inode *dir = d_inode(v, parent);
	struct hlist_bl_node *node;
	struct dentry *new = d_alloc(v, parent, name), *d;
	unsigned int seq, r_seq, d_seq;

	if (!new)
		return ERR_PTR(-ENOMEM);
retry:
	rcu_read_lock();
	seq = smp_load_acquire(&dir->i_dir_seq);
	r_seq = read_seqbegin(&v->rename_lock);
	d = __d_lookup_rcu(v, parent, name, &d_seq);
	if (unlikely(d)) {
		/* Finished meanwhile: take it if it is still that name. */
		if (!d_get_not_dead(v, d)) {
			rcu_read_unlock();
			goto retry;
		}
		rcu_read_unlock();
		if (read_seqcount_retry(dentry_seq(v, d), d_seq)) {
			dput(v, d);
			goto retry;
		}
		dput(v, new);
		return d;
	}
	if (unlikely(read_seqretry(&v->rename_lock, r_seq)) || unlikely(seq & 1)) {
		rcu_read_unlock();
		goto retry;
	}
	hlist_bl_lock(b);
	/* Nothing joined the dcache since the miss: the in-lookup hash is the answer. */
	if (unlikely(READ_ONCE(dir->i_dir_seq) != seq)) {
		hlist_bl_unlock(b);
		rcu_read_unlock();
		goto retry;
	}
	for (node = hlist_bl_first(b); node; node = node->next) {
		d = d_from_in_lookup(v, node);
		/* Removals take the bucket lock we hold: every field is stable. */
		if (dentry_name(v, d)->hash_len != name->hash_len || d_parent(v, d) != parent ||
		    memcmp(dentry_name(v, d)->name, name->name, name->len))
			continue;
		hlist_bl_unlock(b);
		if (!d_get_not_dead(v, d)) {
			rcu_read_unlock();
			goto retry;
		}
		rcu_read_unlock();
		spin_lock(d_lock(v, d));
		d_wait_lookup(v, d);
		/* Done: d_add() hashed it under the name we want, or look again. */
		if (unlikely(d_unhashed(v, d) || !d_same_name_locked(v, d, parent, name))) {
			spin_unlock(d_lock(v, d));
			dput(v, d);
			goto retry;
		}
		spin_unlock(d_lock(v, d));
		dput(v, new);
		return d;
	}
	rcu_read_unlock();
	/* Ours to look up: no lock is needed on a dentry nobody else can see. */
	d_flags_set(v, new, DCACHE_PAR_LOOKUP);
	wq->waiters = 0;
	*dentry_wait(v, new) = wq;
	hlist_bl_add_head(dentry_in_lookup_node(v, new), b);
	hlist_bl_unlock(b);
	fault_point("d_alloc_parallel:in-lookup");
	return new;
}

/*
 * Models d_add() / __d_add(): instantiate (inode may be NULL: negative)
 * and hash. A dentry still in lookup leaves the in-lookup hash first, with
 * the parent's i_dir_seq odd around the move, and its waiters are woken.
 */
void d_add(struct vfs *v, struct dentry *d, struct inode *inode)
{
	struct inode *dir = NULL;
	struct lookup_wq *wq = NULL;
	unsigned int n = 0;

	VFS_PHASE(VFS_PH_D_INSTANTIATE);
	spin_lock(d_lock(v, d));
	if (unlikely(d_in_lookup(v, d))) {
		dir = d_inode(v, d_parent(v, d));
		n = start_dir_add(dir);
		wq = __d_lookup_unhash(v, d);
	}
	if (inode) {
		raw_write_seqcount_begin(dentry_seq(v, d));
		__d_set_inode_and_type(v, d, inode);
		raw_write_seqcount_end(dentry_seq(v, d));
	}
	__d_rehash(v, d);
	if (dir)
		end_dir_add(v, dir, n, wq);
	spin_unlock(d_lock(v, d));
}

/* Models dentry_unlink_inode(): called with d_lock held, drops it. */
static void dentry_unlink_inode(struct vfs *v, struct dentry *d)
{
	struct inode *inode = d_inode(v, d);

	raw_write_seqcount_begin(dentry_seq(v, d));
	__d_clear_type_and_inode(v, d);
	raw_write_seqcount_end(dentry_seq(v, d));
	spin_unlock(d_lock(v, d));
	if (inode)
		iput(inode);
}

/*
 * Models d_delete(): after unlink/rmdir. If the caller holds the only
 * reference the dentry turns negative in place; otherwise it is unhashed
 * and stays positive for its users (open files).
 */
void d_delete(struct vfs *v, struct dentry *d)
{
	spin_lock(d_lock(v, d));
	if (lockref_count(dentry_lockref(v, d)) == 1) {
		dentry_unlink_inode(v, d);
		return;
	}
	__d_drop(v, d);
	spin_unlock(d_lock(v, d));
}

/* ---- the LRU ---- */

static void d_lru_add(struct vfs *v, struct dentry *d)
{
	d_flags_set(v, d, DCACHE_LRU_LIST);
	spin_lock(&v->lru_lock);
	list_add_tail(dentry_lru(v, d), &v->lru);
	WRITE_ONCE(v->nr_unused, v->nr_unused + 1);
	spin_unlock(&v->lru_lock);
}

static void __d_lru_del(struct vfs *v, struct dentry *d)
{
	d_flags_clear(v, d, DCACHE_LRU_LIST | DCACHE_REFERENCED);
	list_del_init(dentry_lru(v, d));
	WRITE_ONCE(v->nr_unused, v->nr_unused - 1);
}

static void d_lru_del(struct vfs *v, struct dentry *d)
{
	spin_lock(&v->lru_lock);
	__d_lru_del(v, d);
	spin_unlock(&v->lru_lock);
}

/*
 * Models retain_dentry(). tmpfs deletes every unused dentry
 * (always_delete_dentry: positive ones are pinned, so only negative ones
 * ever get here); with cfg.dentry_unused_max set vfslab keeps unused
 * negative dentries on the LRU like a disk filesystem would.
 */
static bool retain_dentry(struct vfs *v, struct dentry *d, bool locked)
{
	unsigned int flags = READ_ONCE(*dentry_flags(v, d));

	if (!v->cfg.dentry_unused_max || d_unhashed(v, d))
		return false;
	if (!locked)
		return (flags & (DCACHE_LRU_LIST | DCACHE_REFERENCED)) ==
		       (DCACHE_LRU_LIST | DCACHE_REFERENCED);
	if (!(flags & DCACHE_LRU_LIST))
		d_lru_add(v, d);
	else if (!(flags & DCACHE_REFERENCED))
		d_flags_set(v, d, DCACHE_REFERENCED);
	return true;
}

/* ---- dget / dput ---- */

/* Models dget(); the dlock and atomic variants are the dgets before lockref. */
struct dentry *dget(struct vfs *v, struct dentry *d)
{
	if (!d)
		return NULL;
	if (v->cfg.dcount == DCOUNT_DLOCK) {
		spin_lock(d_lock(v, d));
		lockref_count_add(dentry_lockref(v, d), 1);
		spin_unlock(d_lock(v, d));
	} else if (v->cfg.dcount == DCOUNT_ATOMIC) {
		/* The caller holds a reference: the count cannot be 0. */
		lockref_count_add_atomic(dentry_lockref(v, d), 1);
	} else {
		lockref_get(dentry_lockref(v, d), lockref_budget(v));
	}
	return d;
}

/* What __legitimize_path() does to the dentry: lockref_get_not_dead(). */
bool d_get_not_dead(struct vfs *v, struct dentry *d)
{
	bool ok;

	if (v->cfg.dcount == DCOUNT_LOCKREF)
		return lockref_get_not_dead(dentry_lockref(v, d), lockref_budget(v));
	/* Before lockref, legitimizing took d_lock to exclude a killer. */
	spin_lock(d_lock(v, d));
	ok = lockref_count(dentry_lockref(v, d)) >= 0;
	if (ok)
		d_count_add_locked(v, d, 1);
	spin_unlock(d_lock(v, d));
	return ok;
}

/* Models dget_parent(): optimistic lockref_get_not_zero under RCU first. */
struct dentry *dget_parent(struct vfs *v, struct dentry *d)
{
	struct dentry *ret;

	if (v->cfg.dcount == DCOUNT_LOCKREF) {
		unsigned int seq;
		bool got;

		rcu_read_lock();
		seq = raw_seqcount_begin(dentry_seq(v, d));
		ret = d_parent(v, d);
		got = lockref_get_not_zero(dentry_lockref(v, ret), lockref_budget(v));
		rcu_read_unlock();
		if (likely(got)) {
			if (likely(!read_seqcount_retry(dentry_seq(v, d), seq)))
				return ret;
			dput(v, ret);
		}
	}
	for (;;) {
		rcu_read_lock();
		ret = d_parent(v, d);
		spin_lock(d_lock(v, ret));
		if (likely(ret == d_parent(v, d)))
			break;
		spin_unlock(d_lock(v, ret));
		rcu_read_unlock();
	}
	rcu_read_unlock();
	d_count_add_locked(v, ret, 1);
	spin_unlock(d_lock(v, ret));
	return ret;
}

/*
 * Models __dentry_kill(): d_lock held and count 0. Marks it dead, unhashes
 * it, drops the inode, unlinks it from its parent and frees it after a grace
 * period. Returns the parent, whose reference the caller must drop.
 */
static struct dentry *__dentry_kill(struct vfs *v, struct dentry *d)
{
	struct dentry *parent = NULL;
	struct inode *inode;

	lockref_mark_dead(dentry_lockref(v, d));
	if (*dentry_flags(v, d) & DCACHE_LRU_LIST)
		d_lru_del(v, d);
	__d_drop(v, d);
	inode = d_inode(v, d);
	if (inode) {
		raw_write_seqcount_begin(dentry_seq(v, d));
		__d_clear_type_and_inode(v, d);
		raw_write_seqcount_end(dentry_seq(v, d));
	}
	d_flags_set(v, d, DCACHE_DENTRY_KILLED);
	spin_unlock(d_lock(v, d));
	if (inode)
		iput(inode);

	if (!IS_ROOT(v, d)) {
		parent = d_parent(v, d);
		spin_lock(d_lock(v, parent));
		spin_lock(d_lock(v, d));
		hlist_del(dentry_sib(v, d));
		spin_unlock(d_lock(v, d));
		spin_unlock(d_lock(v, parent));
	}
	rcu_defer_free(d, __d_free, v);
	return parent;
}

/*
 * Models fast_dput(). Returns true if the reference was dropped without
 * needing more; false with d_lock held and the count at 0 when the dentry
 * must be killed.
 */
static bool fast_dput(struct vfs *v, struct dentry *d)
{
	struct lockref *lr = dentry_lockref(v, d);
	int ret;

	if (v->cfg.dcount == DCOUNT_DLOCK) {
		spin_lock(&lr->lock);
		if (lockref_count(lr) > 1) {
			lockref_count_add(lr, -1);
			spin_unlock(&lr->lock);
			return true;
		}
		goto locked;
	}
	if (v->cfg.dcount == DCOUNT_ATOMIC) {
		/* The 2013 dput(): lockless unless it may be the last reference. */
		if (lockref_count_dec_unless_one(lr))
			return true;
		spin_lock(&lr->lock);
		goto locked;
	}
	ret = lockref_put_return(lr, lockref_budget(v));
	if (unlikely(ret < 0)) {
		spin_lock(&lr->lock);
		if (WARN_ON_ONCE(lockref_count(lr) <= 0)) {
			spin_unlock(&lr->lock);
			return true;
		}
		goto locked;
	}
	if (ret)
		return true;
	/* Count hit zero locklessly: keep it only if that needs no lock. */
	if (retain_dentry(v, d, false))
		return true;
	spin_lock(&lr->lock);
	if (lockref_count(lr) || retain_dentry(v, d, true)) {
		spin_unlock(&lr->lock);
		return true;
	}
	return false;
locked:
	/*
	 * Slow path: the count is still ours to drop, under the lock. An
	 * atomic d_count may still fall beside us (others' lockless puts), so
	 * "more than one left" and the drop must be one atomic step; once it
	 * fails ours is the last reference and nobody else can touch it.
	 */
	if (v->cfg.dcount == DCOUNT_ATOMIC && lockref_count_dec_unless_one(lr)) {
		spin_unlock(&lr->lock);
		return true;
	}
	if (v->cfg.dcount != DCOUNT_ATOMIC && lockref_count(lr) > 1) {
		lockref_count_add(lr, -1);
		spin_unlock(&lr->lock);
		return true;
	}
	lockref_count_set(lr, 0);
	if (retain_dentry(v, d, true)) {
		spin_unlock(&lr->lock);
		return true;
	}
	return false;
}

/* Models dput(): drop a reference; kill the dentry (and parents) if unused. */
void dput(struct vfs *v, struct dentry *d)
{
	while (d) {
		rcu_read_lock();
		if (likely(fast_dput(v, d))) {
			rcu_read_unlock();
			break;
		}
		rcu_read_unlock();
		d = __dentry_kill(v, d);
	}
	if (v->cfg.dentry_unused_max && READ_ONCE(v->nr_unused) > v->cfg.dentry_unused_max)
		shrink_dcache_lru(v, v->cfg.dentry_unused_max);
}

/* ---- lookup ---- */

/*
 * Models dentry_cmp(): a word at a time, the last word masked to the
 * name's length. Both loads may read past the name into the same page (the
 * kernel's load_unaligned_zeropad() on the path side); those bytes are
 * masked off.
 */
__no_sanitize_racy static inline bool dentry_cmp(const struct vfs *v, const struct dentry *d,
						 const unsigned char *ct, unsigned int tcount)
{
	/* Consume: a name a rename just switched to is seen whole (copy_name()). */
	const char *cs = (const char *)__atomic_load_n(&dentry_name(v, d)->name, __ATOMIC_CONSUME);
	const char *p = (const char *)ct;

	for (; tcount >= sizeof(uint64_t); tcount -= sizeof(uint64_t)) {
		if (*(const unaligned_u64 *)cs != *(const unaligned_u64 *)p)
			return true;
		cs += sizeof(uint64_t);
		p += sizeof(uint64_t);
	}
	if (!tcount)
		return false;
	return ((load_word(cs) ^ load_word(p)) & ((1ull << (8 * tcount)) - 1)) != 0;
}

/*
 * Models __d_lookup_rcu(): walk one hash chain with no stores at all. The
 * sampled d_seq goes back to the caller, who must re-check it before
 * trusting anything read from the dentry.
 */
struct dentry *__d_lookup_rcu(struct vfs *v, const struct dentry *parent, const struct qstr *name,
			      unsigned int *seqp)
{
	VFS_PHASE(VFS_PH_D_LOOKUP_RCU);
	uint64_t hashlen = name->hash_len;
	struct hlist_bl_head *b = d_hash(v, hashlen_hash(hashlen));
	struct hlist_bl_node *node;

	for (node = hlist_bl_first_rcu(b); node; node = rcu_dereference(node->next)) {
		struct dentry *d = d_from_hash(v, node);
		unsigned int seq;

		seq = raw_seqcount_begin(dentry_seq(v, d));
		if (READ_ONCE(*dentry_parent(v, d)) != parent)
			continue;
		if (d_unhashed(v, d))
			continue;
		if (READ_ONCE(dentry_name(v, d)->hash_len) != hashlen)
			continue;
		if (dentry_cmp(v, d, name->name, hashlen_len(hashlen)))
			continue;
		*seqp = seq;
		return d;
	}
	return NULL;
}

/* Models __d_lookup(): the ref-walk lookup, taking d_lock per candidate. */
static struct dentry *__d_lookup(struct vfs *v, const struct dentry *parent,
				 const struct qstr *name)
{
	struct hlist_bl_head *b = d_hash(v, name->hash);
	struct hlist_bl_node *node;
	struct dentry *found = NULL;

	rcu_read_lock();
	for (node = hlist_bl_first_rcu(b); node; node = rcu_dereference(node->next)) {
		struct dentry *d = d_from_hash(v, node);
		struct qstr *q = dentry_name(v, d);

		if (READ_ONCE(q->hash) != name->hash)
			continue;
		spin_lock(d_lock(v, d));
		if (d_parent(v, d) != parent || d_unhashed(v, d) || q->len != name->len ||
		    memcmp(q->name, name->name, name->len)) {
			spin_unlock(d_lock(v, d));
			continue;
		}
		d_count_add_locked(v, d, 1);
		spin_unlock(d_lock(v, d));
		found = d;
		break;
	}
	rcu_read_unlock();
	return found;
}

/* Models d_lookup(): retry while a rename may have moved the entry. */
struct dentry *d_lookup(struct vfs *v, const struct dentry *parent, const struct qstr *name)
{
	VFS_PHASE(VFS_PH_D_LOOKUP);
	struct dentry *d;
	unsigned int seq;

	do {
		seq = read_seqbegin(&v->rename_lock);
		d = __d_lookup(v, parent, name);
		if (d)
			break;
	} while (read_seqretry(&v->rename_lock, seq));
	return d;
}

/* ---- rename ---- */

/* Give d the name target has (models copy_name()); d_lock of both held. */
static void copy_name(struct vfs *v, struct dentry *d, struct dentry *target)
{
	struct qstr *dq = dentry_name(v, d), *tq = dentry_name(v, target);
	struct external_name *old = dname_external(v, d) ? external_name(v, d) : NULL;

	if (dname_external(v, target)) {
		atomic_inc(&external_name(v, target)->count);
		smp_store_release(&dq->name, tq->name);
	} else {
		memcpy(dentry_iname(v, d), tq->name, tq->len + 1);
		smp_store_release(&dq->name, (const unsigned char *)dentry_iname(v, d));
	}
	WRITE_ONCE(dq->hash_len, tq->hash_len);
	if (old)
		release_external_name(old);
}

/* Models swap_names(): RENAME_EXCHANGE. */
static void swap_names(struct vfs *v, struct dentry *a, struct dentry *b)
{
	struct qstr *aq = dentry_name(v, a), *bq = dentry_name(v, b);
	bool aext = dname_external(v, a), bext = dname_external(v, b);
	unsigned int inl = v->dname_inline_len;
	unsigned char tmp[256 + 1];
	uint64_t hl = aq->hash_len;

	if (aext && bext) {
		const unsigned char *t = aq->name;

		smp_store_release(&aq->name, bq->name);
		smp_store_release(&bq->name, t);
	} else if (aext) {
		memcpy(dentry_iname(v, a), bq->name, inl);
		smp_store_release(&bq->name, aq->name);
		smp_store_release(&aq->name, (const unsigned char *)dentry_iname(v, a));
	} else if (bext) {
		memcpy(dentry_iname(v, b), aq->name, inl);
		smp_store_release(&aq->name, bq->name);
		smp_store_release(&bq->name, (const unsigned char *)dentry_iname(v, b));
	} else {
		memcpy(tmp, dentry_iname(v, a), inl);
		memcpy(dentry_iname(v, a), dentry_iname(v, b), inl);
		memcpy(dentry_iname(v, b), tmp, inl);
	}
	WRITE_ONCE(aq->hash_len, bq->hash_len);
	WRITE_ONCE(bq->hash_len, hl);
}

static void lock_four(struct vfs *v, struct dentry **l, int n)
{
	/* Distinct locks only, in the order given (parents first). */
	for (int i = 0; i < n; i++) {
		bool dup = false;

		for (int j = 0; j < i; j++)
			dup |= l[j] == l[i];
		if (!dup)
			spin_lock(d_lock(v, l[i]));
	}
}

static void unlock_four(struct vfs *v, struct dentry **l, int n)
{
	for (int i = n - 1; i >= 0; i--) {
		bool dup = false;

		for (int j = 0; j < i; j++)
			dup |= l[j] == l[i];
		if (!dup)
			spin_unlock(d_lock(v, l[i]));
	}
}

/*
 * Models __d_move(): d takes target's name and parent; target, unhashed,
 * takes d's old ones (or, exchanging, both stay hashed under swapped names).
 * Writers of rename_lock serialise every rename; RCU walkers see d_seq move.
 */
static void __d_move(struct vfs *v, struct dentry *d, struct dentry *target, bool exchange)
{
	struct dentry *old_parent = d_parent(v, d), *new_parent = d_parent(v, target);
	struct dentry *locks[4] = { old_parent, new_parent, d, target };

	write_seqlock(&v->rename_lock);
	lock_four(v, locks, 4);
	write_seqcount_begin(dentry_seq(v, d));
	write_seqcount_begin(dentry_seq(v, target));

	/* Unhash both; the lookup chains are salted by parent. */
	__d_drop(v, d);
	__d_drop(v, target);
	if (exchange)
		swap_names(v, d, target);
	else
		copy_name(v, d, target);

	/*
	 * Both go to the head of their (new) parent's d_children, even
	 * within one directory: tmpfs lists a directory in that order
	 * (vfs/readdir.c), so a renamed name is listed first, and of an
	 * exchanged pair d before target.
	 */
	hlist_del(dentry_sib(v, d));
	hlist_del(dentry_sib(v, target));
	WRITE_ONCE(*dentry_parent(v, d), new_parent);
	WRITE_ONCE(*dentry_parent(v, target), old_parent);
	hlist_add_head(dentry_sib(v, target), dentry_children(v, old_parent));
	hlist_add_head(dentry_sib(v, d), dentry_children(v, new_parent));
	__d_rehash(v, d);
	if (exchange)
		__d_rehash(v, target);

	write_seqcount_end(dentry_seq(v, target));
	write_seqcount_end(dentry_seq(v, d));
	unlock_four(v, locks, 4);
	write_sequnlock(&v->rename_lock);
}

void d_move(struct vfs *v, struct dentry *d, struct dentry *target)
{
	__d_move(v, d, target, false);
}

void d_exchange(struct vfs *v, struct dentry *d1, struct dentry *d2)
{
	__d_move(v, d1, d2, true);
}

/*
 * The path from the root to d, for getcwd (models prepend_path()).
 * Returns -ENAMETOOLONG if it does not fit in len bytes.
 */
int d_path_name(struct vfs *v, const struct path *path, char *buf, size_t len)
{
	unsigned int seq, mseq;
	bool overflow;

	rcu_read_lock();
	do {
		const struct dentry *p = path->dentry;
		const struct mount *m = real_mount(path->mnt);
		size_t pos = len - 1;

		seq = read_seqbegin(&v->rename_lock);
		mseq = read_seqbegin(&v->mount_lock);
		overflow = false;
		buf[pos] = '\0';
		for (;;) {
			const struct qstr *q = dentry_name(v, p);
			unsigned int n = READ_ONCE(q->len);

			/* prepend_path(): a mount's root continues at its mountpoint. */
			if (p == m->mnt.mnt_root) {
				if (!mnt_has_parent(m))
					break;
				p = READ_ONCE(m->mnt_mountpoint);
				m = READ_ONCE(m->mnt_parent);
				continue;
			}
			if (IS_ROOT(v, p))
				break;
			if (n + 1 > pos) {
				overflow = true;
				break;
			}
			pos -= n;
			memcpy(buf + pos, READ_ONCE(q->name), n);
			buf[--pos] = '/';
			p = d_parent(v, p);
		}
		if (!overflow) {
			if (pos == len - 1)
				buf[--pos] = '/';
			memmove(buf, buf + pos, len - pos);
		}
	} while (read_seqretry(&v->rename_lock, seq) || read_seqretry(&v->mount_lock, mseq));
	rcu_read_unlock();
	return overflow ? -ENAMETOOLONG : 0;
}

/* ---- shrinking and teardown ---- */

/*
 * An LRU entry @d, lru_lock and its d_lock held: off the LRU, and killed
 * unless someone took a reference meanwhile. Drops both locks.
 */
static void lru_isolate_kill(struct vfs *v, struct dentry *d)
{
	struct dentry *parent;

	__d_lru_del(v, d);
	spin_unlock(&v->lru_lock);
	if (lockref_count(dentry_lockref(v, d))) {
		spin_unlock(d_lock(v, d));
		return;
	}
	parent = __dentry_kill(v, d);
	if (parent)
		dput(v, parent);
}

/* Models prune_dcache_sb(): kill unused LRU dentries down to target. */
void shrink_dcache_lru(struct vfs *v, unsigned long target)
{
	unsigned int busy = 0;

	for (;;) {
		struct dentry *d;

		spin_lock(&v->lru_lock);
		if (v->nr_unused <= target || list_empty(&v->lru) || busy > v->nr_unused) {
			spin_unlock(&v->lru_lock);
			return;
		}
		d = d_from_lru(v, v->lru.next);
		if (!spin_trylock(d_lock(v, d))) {
			/* Lock order is d_lock -> lru_lock: rotate, don't wait. */
			list_move_tail(dentry_lru(v, d), &v->lru);
			busy++;
			spin_unlock(&v->lru_lock);
			cpu_relax();
			continue;
		}
		lru_isolate_kill(v, d);
	}
}

/* The root of @d's tree: d_parent up to a root (under RCU: renames move it within the tree). */
static struct dentry *d_tree_root(struct vfs *v, struct dentry *d)
{
	struct dentry *p;

	while ((p = READ_ONCE(*dentry_parent(v, d))) != d)
		d = p;
	return d;
}

/*
 * Models shrink_dcache_for_umount() for what sits unused on the LRU: kill
 * every dentry of @root's tree there. Unlike pruning it may not give up on
 * a busy d_lock (other trees' dentries do not count): one left behind
 * would outlive its superblock.
 */
static void shrink_dcache_tree_lru(struct vfs *v, struct dentry *root)
{
	for (;;) {
		struct dentry *d = NULL;
		struct list_head *n;

		rcu_read_lock();
		spin_lock(&v->lru_lock);
		for (n = v->lru.next; n != &v->lru && !d; n = n->next)
			if (d_tree_root(v, d_from_lru(v, n)) == root)
				d = d_from_lru(v, n);
		rcu_read_unlock();
		if (!d) {
			spin_unlock(&v->lru_lock);
			return;
		}
		if (!spin_trylock(d_lock(v, d))) {
			/* Lock order is d_lock -> lru_lock: let go, and try again. */
			spin_unlock(&v->lru_lock);
			cpu_relax();
			continue;
		}
		lru_isolate_kill(v, d);
	}
}

/* tmpfs pins every positive dentry: drop the pins bottom-up. */
static void d_genocide(struct vfs *v, struct dentry *d)
{
	struct hlist_node *n, *next;

	for (n = dentry_children(v, d)->first; n; n = next) {
		struct dentry *c = d_from_sib(v, n);

		next = n->next;
		d_genocide(v, c);
	}
	if (!IS_ROOT(v, d) && d_is_positive(v, d) && !d_unhashed(v, d))
		dput(v, d);
}

/*
 * A tmpfs instance goes (kill_litter_super()): unpin every dentry under
 * root and kill them all. A pruner on another CPU may be in the middle of
 * killing one of them, and its dput() of the parent puts that on the LRU
 * after this pass: wait until no child is left, as the kernel's
 * shrink_dcache_parent() loop does, rather than leave one behind.
 */
void d_genocide_root(struct vfs *v, struct dentry *root)
{
	unsigned long tries = 0;

	shrink_dcache_tree_lru(v, root);
	d_genocide(v, root);
	for (;;) {
		shrink_dcache_tree_lru(v, root);
		if (!READ_ONCE(dentry_children(v, root)->first))
			return;
		/* Bounded: a child nobody lets go is a leak to report, not a hang. */
		if (WARN_ON(++tries > 10000000))
			return;
		if (tries > 1000)
			sched_yield();
		else
			cpu_relax();
	}
}

void dcache_init(struct vfs *v)
{
	INIT_LIST_HEAD(&v->lru);
	spin_lock_init(&v->lru_lock);
	seqlock_init(&v->rename_lock);
	mutex_init(&v->s_vfs_rename_mutex);
}

void dcache_fini(struct vfs *v)
{
	vfree_huge(v->d_hash_table, sizeof(struct hlist_bl_head) << v->d_hash_shift);
	v->d_hash_table = NULL;
}

void vfs_dentry_info(struct vfs *v, const struct dentry *d, struct dentry_info *out)
{
	const struct qstr *q = dentry_name(v, d);
	struct inode *inode = d_inode_rcu(v, d);
	unsigned int len = min_t(unsigned int, READ_ONCE(q->len), sizeof(out->name) - 1);

	memset(out, 0, sizeof(*out));
	memcpy(out->name, READ_ONCE(q->name), len);
	out->name[len] = '\0';
	out->count = d_count(v, d);
	out->seq = raw_read_seqcount(dentry_seq(v, d));
	out->flags = d_flags(v, d);
	out->hash = READ_ONCE(q->hash);
	out->hashed = !d_unhashed(v, d);
	out->negative = !inode;
	if (inode) {
		out->ino = inode->i_ino;
		out->mode = READ_ONCE(inode->i_mode);
	}
	out->lockref_offset = v->dl.off[DENTRY_F_d_lockref];
}
