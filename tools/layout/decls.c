// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * How the kernel declares each field vfslab lays out, so the printer shows
 * the kernel's types, array lengths and unions where vfslab stores a
 * smaller stand-in (a 4-byte mutex in struct mutex's 32-byte slot, an
 * rcu_head in the f_ra union). x86-64 sizes, as `pahole -C` prints them
 * from a v6.12+ kernel's BTF; older names (a preset's `as`) have their own
 * entries.
 */
#include <string.h>

#include "tools/layout/pahole.h"

static const struct pahole_decl decls[] = {
	/* struct dentry: include/linux/dcache.h */
	{ LS_DENTRY, "d_flags", 0, NULL, NULL, { { "unsigned int", NULL, 4 } } },
	{ LS_DENTRY, "d_seq", 0, NULL, NULL, { { "seqcount_spinlock_t", NULL, 4 } } },
	{ LS_DENTRY, "d_hash", 0, NULL, NULL, { { "struct hlist_bl_node", NULL, 16 } } },
	{ LS_DENTRY, "d_parent", 0, NULL, NULL, { { "struct dentry *", NULL, 8 } } },
	{ LS_DENTRY, "d_name", 0, NULL, NULL, { { "struct qstr", NULL, 16 } } },
	{ LS_DENTRY, "d_inode", 0, NULL, NULL, { { "struct inode *", NULL, 8 } } },
	/* DNAME_INLINE_LEN bytes: 32 up to v6.7, 40 since */
	{ LS_DENTRY, "d_iname", 0, NULL, NULL, { { "unsigned char", NULL, 1, true } } },
	/* v6.14+: the inline name is a union shortname_store */
	{ LS_DENTRY, "d_shortname", 0, NULL, NULL, { { "union shortname_store", NULL, 40 } } },
	{ LS_DENTRY, "d_lockref", 0, NULL, NULL, { { "struct lockref", NULL, 8 } } },
	{ LS_DENTRY, "d_op", 0, NULL, NULL, { { "const struct dentry_operations *", NULL, 8 } } },
	{ LS_DENTRY, "d_sb", 0, NULL, NULL, { { "struct super_block *", NULL, 8 } } },
	{ LS_DENTRY, "d_time", 0, NULL, NULL, { { "unsigned long", NULL, 8 } } },
	{ LS_DENTRY, "d_fsdata", 0, NULL, NULL, { { "void *", NULL, 8 } } },
	{ LS_DENTRY,
	  "d_lru",
	  0,
	  NULL,
	  "",
	  { { "struct list_head", "d_lru", 16 }, { "wait_queue_head_t *", "d_wait", 8 } } },
	{ LS_DENTRY, "d_sib", 0, NULL, NULL, { { "struct hlist_node", NULL, 16 } } },
	{ LS_DENTRY, "d_child", 0, NULL, NULL, { { "struct list_head", NULL, 16 } } },
	{ LS_DENTRY, "d_children", 0, NULL, NULL, { { "struct hlist_head", NULL, 8 } } },
	{ LS_DENTRY, "d_subdirs", 0, NULL, NULL, { { "struct list_head", NULL, 16 } } },
	{ LS_DENTRY,
	  "d_u",
	  0,
	  NULL,
	  "d_u",
	  { { "struct hlist_node", "d_alias", 16 },
	    { "struct hlist_bl_node", "d_in_lookup_hash", 16 },
	    { "struct rcu_head", "d_rcu", 16 } } },

	/* struct file: include/linux/fs.h */
	{ LS_FILE, "f_ref", 0, NULL, NULL, { { "file_ref_t", NULL, 8 } } },
	{ LS_FILE, "f_count", 0, NULL, NULL, { { "atomic_long_t", NULL, 8 } } },
	{ LS_FILE, "f_lock", 0, NULL, NULL, { { "spinlock_t", NULL, 4 } } },
	{ LS_FILE, "f_mode", 0, NULL, NULL, { { "fmode_t", NULL, 4 } } },
	{ LS_FILE, "f_op", 0, NULL, NULL, { { "const struct file_operations *", NULL, 8 } } },
	{ LS_FILE, "f_mapping", 0, NULL, NULL, { { "struct address_space *", NULL, 8 } } },
	{ LS_FILE, "private_data", 0, NULL, NULL, { { "void *", NULL, 8 } } },
	{ LS_FILE, "f_inode", 0, NULL, NULL, { { "struct inode *", NULL, 8 } } },
	{ LS_FILE, "f_flags", 0, NULL, NULL, { { "unsigned int", NULL, 4 } } },
	{ LS_FILE, "f_iocb_flags", 0, NULL, NULL, { { "unsigned int", NULL, 4 } } },
	{ LS_FILE, "f_write_hint", 0, NULL, NULL, { { "enum rw_hint", NULL, 4 } } },
	{ LS_FILE, "f_cred", 0, NULL, NULL, { { "const struct cred *", NULL, 8 } } },
	/* A pointer since v6.12; embedded before. */
	{ LS_FILE, "f_owner", 32, NULL, NULL, { { "struct fown_struct", NULL, 32 } } },
	{ LS_FILE, "f_owner", 0, NULL, NULL, { { "struct fown_struct *", NULL, 8 } } },
	{ LS_FILE, "f_path", 0, NULL, NULL, { { "struct path", NULL, 16 } } },
	/* f_pipe shares the slot since v6.12. */
	{ LS_FILE,
	  "f_pos_lock",
	  0,
	  "v6.12 v6.15",
	  "",
	  { { "struct mutex", "f_pos_lock", 32 }, { "u64", "f_pipe", 8 } } },
	{ LS_FILE, "f_pos_lock", 0, NULL, NULL, { { "struct mutex", NULL, 32 } } },
	{ LS_FILE, "f_pos", 0, NULL, NULL, { { "loff_t", NULL, 8 } } },
	{ LS_FILE, "f_security", 0, NULL, NULL, { { "void *", NULL, 8 } } },
	{ LS_FILE, "f_wb_err", 0, NULL, NULL, { { "errseq_t", NULL, 4 } } },
	{ LS_FILE, "f_sb_err", 0, NULL, NULL, { { "errseq_t", NULL, 4 } } },
	{ LS_FILE, "f_ep", 0, NULL, NULL, { { "struct hlist_head *", NULL, 8 } } },
	{ LS_FILE, "f_ep_links", 0, NULL, NULL, { { "struct list_head", NULL, 16 } } },
	/* vfslab keeps its rcu_head where the kernel has f_task_work. */
	{ LS_FILE,
	  "f_ra",
	  0,
	  NULL,
	  "",
	  { { "struct callback_head", "f_task_work", 16 },
	    { "struct llist_node", "f_llist", 8 },
	    { "struct file_ra_state", "f_ra", 32 },
	    { "freeptr_t", "f_freeptr", 8 } } },
	{ LS_FILE,
	  "f_u",
	  0,
	  NULL,
	  "f_u",
	  { { "struct llist_node", "fu_llist", 8 }, { "struct rcu_head", "fu_rcuhead", 16 } } },

	/* struct files_struct: include/linux/fdtable.h */
	{ LS_FILES, "count", 0, NULL, NULL, { { "atomic_t", NULL, 4 } } },
	{ LS_FILES, "resize_in_progress", 0, NULL, NULL, { { "bool", NULL, 1 } } },
	{ LS_FILES, "resize_wait", 0, NULL, NULL, { { "wait_queue_head_t", NULL, 24 } } },
	{ LS_FILES, "fdt", 0, NULL, NULL, { { "struct fdtable *", NULL, 8 } } },
	{ LS_FILES, "fdtab", 0, NULL, NULL, { { "struct fdtable", NULL, 56 } } },
	{ LS_FILES, "file_lock", 0, NULL, NULL, { { "spinlock_t", NULL, 4 } } },
	{ LS_FILES, "next_fd", 0, NULL, NULL, { { "unsigned int", NULL, 4 } } },
	/* One word each: NR_OPEN_DEFAULT (BITS_PER_LONG) fds. */
	{ LS_FILES, "close_on_exec_init", 0, NULL, NULL, { { "unsigned long", NULL, 8, true } } },
	{ LS_FILES, "open_fds_init", 0, NULL, NULL, { { "unsigned long", NULL, 8, true } } },
	{ LS_FILES, "full_fds_bits_init", 0, NULL, NULL, { { "unsigned long", NULL, 8, true } } },
	{ LS_FILES, "fd_array", 0, NULL, NULL, { { "struct file *", NULL, 8, true } } },
};

/* Is the layout named name one of the space-separated list? A preset with a field moved counts as the preset. */
static bool in_list(const char *list, const char *name)
{
	size_t len = strcspn(name, "+");

	for (const char *p = list; *p; p += strcspn(p, " "), p += strspn(p, " "))
		if (strcspn(p, " ") == len && !strncmp(p, name, len))
			return true;
	return false;
}

/* The bytes decl takes, or 0 if it does not fit slot. */
unsigned int pahole_decl_size(const struct pahole_decl *d, unsigned int slot)
{
	unsigned int size = 0;

	if (!d->union_name && d->m[0].array)
		return slot % d->m[0].size ? 0 : slot;
	for (int k = 0; k < PAHOLE_UNION_MAX && d->m[k].type; k++)
		if (d->m[k].size > size)
			size = d->m[k].size;
	return size <= slot ? size : 0;
}

const struct pahole_decl *pahole_decl(const struct layout *l, int i)
{
	const char *name = l->alias[i][0] ? l->alias[i] : l->desc->fields[i].name;
	enum layout_struct s;

	if (layout_struct_find(l->desc->name, &s))
		return NULL;
	for (size_t k = 0; k < sizeof(decls) / sizeof(decls[0]); k++) {
		const struct pahole_decl *d = &decls[k];

		if (d->s != s || strcmp(d->name, name) || (d->slot && d->slot != l->slot[i]) ||
		    (d->only && !in_list(d->only, l->name)) || !pahole_decl_size(d, l->slot[i]))
			continue;
		return d;
	}
	return NULL;
}
