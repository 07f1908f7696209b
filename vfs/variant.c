// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Variants: the run-time switches one VFS instance is built with, parsed
 * from "key=value,key=value". A variant changes speed, never semantics:
 * the whole test suite runs under each. Some keys pick what is modelled
 * instead: readdir= (the Linux version's getdents order), tmpfs-size= and
 * the sysctls (fs.nr_open, fs.mount-max, fs.protected_*).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/kstrtox.h"
#include "lib/lockref.h"
#include "vfs/layout.h"
#include "vfs/vfs.h"

static const char help[] =
	"dentry=v6.11|v6.10|v6.7|randomize[:SEED]|btf[:FILE]|pahole:FILE|FILE|PRESET+FIELD@OFF\n"
	"                            struct dentry layout; btf: a kernel's own from its\n"
	"                            BTF (default /sys/kernel/btf/vmlinux), pahole: from\n"
	"                            the text `pahole -C dentry` prints\n"
	"file=v6.15|v6.12|v5.8|zhang-2020|randomize[:SEED]|btf[:FILE]|pahole:FILE|FILE|\n"
	"     PRESET+FIELD@OFF       struct file layout\n"
	"files=kernel|shared-lock|btf[:FILE]|pahole:FILE|FILE\n"
	"                            struct files_struct layout\n"
	"dcount=lockref|atomic|dlock d_count by lockref cmpxchg, as an atomic (2013: dget\n"
	"                            and dput without d_lock, dget_parent under it), or\n"
	"                            under d_lock (pre-2013)\n"
	"lockref-retry=N|unbounded   cmpxchg retries before taking the lock (default 100)\n"
	"fref=file_ref|inc-not-zero  struct file refcount (v6.13+, or the CAS loop before)\n"
	"alloc-fd=v6.13|v6.10        find_next_fd fast path and conditional clears, or not\n"
	"nr-open=N                   fs.nr_open: the largest fd table (default 1048576)\n"
	"mount-max=N                 fs.mount-max: mounts the namespace may hold (ENOSPC\n"
	"                            past it); default 100000, the kernel's\n"
	"dcache-max-unused=N         keep up to N unused (negative) dentries; 0 = tmpfs\n"
	"hash-shift=N|auto           log2 of the dentry hash table size (default 16);\n"
	"                            auto: the kernel's boot-time size for this RAM\n"
	"hash-salt=pointer|N         salt of the name hash: the parent dentry's address\n"
	"                            as the kernel's (default; varies under ASLR), or N\n"
	"                            with the parent's inode number, the same every run\n"
	"fsnotify-parent=on|off      dget_parent/dput on every open, read, write and\n"
	"                            close, as fsnotify does in a watched directory\n"
	"                            (the dcount pattern)\n"
	"readdir=v6.14|v6.6          getdents order and directory offsets: newest first,\n"
	"                            end at 2^31-1 (6.14+), or oldest first (6.6-6.13)\n"
	"tmpfs-size=N[k|m|g|t]       tmpfs size=: what file pages may hold (ENOSPC past\n"
	"                            it); 0 (the default): half of physical RAM\n"
	"protected-symlinks=0|1      fs.protected_symlinks: in a sticky o+w directory,\n"
	"                            follow only one's own links or the directory\n"
	"                            owner's (EACCES); default 0, the kernel's\n"
	"protected-hardlinks=0|1     fs.protected_hardlinks: link() only files one owns\n"
	"                            or may read and write (EPERM); default 0\n"
	"protected-regular=0|1|2     fs.protected_regular: O_CREAT does not open another's\n"
	"                            file in a sticky o+w (2: also g+w) directory\n"
	"                            (EACCES); default 0\n"
	"protected-fifos=0|1|2       fs.protected_fifos: the same for fifos; default 0\n"
	"mnt-count=percpu|atomic     mnt_count in per-CPU slots, as the kernel's (default),\n"
	"                            or one shared atomic every path walk's mntget and\n"
	"                            mntput bounce between CPUs\n";

const char *vfs_config_help(void)
{
	return help;
}

static int parse_ulong(const char *s, unsigned long max, unsigned long *out)
{
	unsigned long long v;

	if (kstrtoull(s, 0, &v) || v > max)
		return -1;
	*out = v;
	return 0;
}

static int set_layout(char *dst, const char *val, enum layout_struct s, char *err, size_t errlen)
{
	struct layout l;

	if (strlen(val) >= VFS_LAYOUT_SPEC_MAX) {
		snprintf(err, errlen, "layout spec too long: %.40s...", val);
		return -1;
	}
	/* Validate now, so a bad layout is named before anything runs. */
	if (layout_build(&l, s, val, err, errlen))
		return -1;
	strcpy(dst, val);
	return 0;
}

static int apply(struct vfs_config *cfg, const char *key, const char *val, char *err, size_t errlen)
{
	unsigned long n;

	if (!strcmp(key, "dentry"))
		return set_layout(cfg->dentry_layout, val, LS_DENTRY, err, errlen);
	if (!strcmp(key, "file"))
		return set_layout(cfg->file_layout, val, LS_FILE, err, errlen);
	if (!strcmp(key, "files"))
		return set_layout(cfg->files_layout, val, LS_FILES, err, errlen);
	if (!strcmp(key, "dcount")) {
		if (!strcmp(val, "lockref"))
			cfg->dcount = DCOUNT_LOCKREF;
		else if (!strcmp(val, "dlock"))
			cfg->dcount = DCOUNT_DLOCK;
		else if (!strcmp(val, "atomic"))
			cfg->dcount = DCOUNT_ATOMIC;
		else
			goto bad;
		return 0;
	}
	if (!strcmp(key, "lockref-retry")) {
		if (!strcmp(val, "unbounded"))
			cfg->lockref_retry = LOCKREF_RETRY_UNBOUNDED;
		else if (!parse_ulong(val, 1u << 30, &n) && n)
			cfg->lockref_retry = n;
		else
			goto bad;
		return 0;
	}
	if (!strcmp(key, "fref")) {
		if (!strcmp(val, "file_ref") || !strcmp(val, "file-ref"))
			cfg->fref = FREF_FILE_REF;
		else if (!strcmp(val, "inc-not-zero"))
			cfg->fref = FREF_INC_NOT_ZERO;
		else
			goto bad;
		return 0;
	}
	if (!strcmp(key, "alloc-fd")) {
		if (!strcmp(val, "v6.13"))
			cfg->alloc_fd = ALLOC_FD_V613;
		else if (!strcmp(val, "v6.10"))
			cfg->alloc_fd = ALLOC_FD_V610;
		else
			goto bad;
		return 0;
	}
	if (!strcmp(key, "nr-open")) {
		if (parse_ulong(val, 1u << 30, &n) || n < 64)
			goto bad;
		cfg->nr_open = n;
		return 0;
	}
	if (!strcmp(key, "mount-max")) {
		/* The sysctl's range: 1 to INT_MAX. */
		if (parse_ulong(val, 0x7fffffff, &n) || n < 1)
			goto bad;
		cfg->mount_max = n;
		return 0;
	}
	if (!strcmp(key, "dcache-max-unused")) {
		if (parse_ulong(val, 1ul << 40, &n))
			goto bad;
		cfg->dentry_unused_max = n;
		return 0;
	}
	if (!strcmp(key, "fsnotify-parent")) {
		if (!strcmp(val, "on"))
			cfg->fsnotify_parent = true;
		else if (!strcmp(val, "off"))
			cfg->fsnotify_parent = false;
		else
			goto bad;
		return 0;
	}
	if (!strcmp(key, "mnt-count")) {
		if (!strcmp(val, "percpu"))
			cfg->mnt_count = MNT_COUNT_PERCPU;
		else if (!strcmp(val, "atomic"))
			cfg->mnt_count = MNT_COUNT_ATOMIC;
		else
			goto bad;
		return 0;
	}
	if (!strcmp(key, "readdir")) {
		if (!strcmp(val, "v6.14"))
			cfg->readdir = READDIR_V614;
		else if (!strcmp(val, "v6.6"))
			cfg->readdir = READDIR_V66;
		else
			goto bad;
		return 0;
	}
	if (!strcmp(key, "tmpfs-size")) {
		static const char units[] = "kmgt";
		char num[32];
		size_t len = strlen(val);
		const char *u = len ? strchr(units, val[len - 1]) : NULL;
		int shift = u && *u ? 10 * (int)(u - units + 1) : 0;

		/* The number before an optional k/m/g/t suffix. */
		if (len >= sizeof(num))
			goto bad;
		memcpy(num, val, len + 1);
		if (shift)
			num[len - 1] = '\0';
		if (parse_ulong(num, ~0ul >> 1 >> shift, &n))
			goto bad;
		cfg->tmpfs_size = (unsigned long long)n << shift;
		return 0;
	}
	if (!strcmp(key, "hash-salt")) {
		if (!strcmp(val, "pointer")) {
			cfg->hash_salt_fixed = false;
			return 0;
		}
		if (parse_ulong(val, ~0ul, &n))
			goto bad;
		cfg->hash_salt_fixed = true;
		cfg->hash_salt = n;
		return 0;
	}
	if (!strcmp(key, "protected-symlinks") || !strcmp(key, "protected-hardlinks") ||
	    !strcmp(key, "protected-regular") || !strcmp(key, "protected-fifos")) {
		/* The sysctls' ranges: 0..1 for links, 0..2 for O_CREAT. */
		bool links = strstr(key, "links") != NULL;

		if (parse_ulong(val, links ? 1 : 2, &n))
			goto bad;
		*(!strcmp(key, "protected-symlinks")  ? &cfg->protected_symlinks :
		  !strcmp(key, "protected-hardlinks") ? &cfg->protected_hardlinks :
		  !strcmp(key, "protected-regular")   ? &cfg->protected_regular :
							&cfg->protected_fifos) = n;
		return 0;
	}
	if (!strcmp(key, "hash-shift")) {
		if (!strcmp(val, "auto")) {
			cfg->d_hash_shift = VFS_HASH_SHIFT_AUTO;
			return 0;
		}
		if (parse_ulong(val, VFS_HASH_SHIFT_MAX, &n) || n < VFS_HASH_SHIFT_MIN)
			goto bad;
		cfg->d_hash_shift = n;
		return 0;
	}
	snprintf(err, errlen, "unknown variant key '%s' (keys: see `vfslab help variants`)", key);
	return -1;
bad:
	snprintf(err, errlen, "bad value '%s' for variant key '%s'", val, key);
	return -1;
}

int vfs_config_parse(struct vfs_config *cfg, const char *spec, char *err, size_t errlen)
{
	char *copy = strdup(spec), *save = NULL;
	/* Keys applied so far: each is known, so there are fewer than 32. */
	const char *seen[32];
	unsigned int nseen = 0;
	int ret = 0;

	if (!copy) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	for (char *item = strtok_r(copy, ",", &save); item && !ret;
	     item = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(item, '=');

		if (!eq || eq == item || !eq[1]) {
			snprintf(err, errlen, "variant item '%s' is not KEY=VALUE", item);
			ret = -1;
			break;
		}
		*eq = '\0';
		for (unsigned int i = 0; i < nseen && !ret; i++) {
			if (!strcmp(seen[i], item)) {
				/* Which one would win is no answer to give silently. */
				snprintf(err, errlen, "variant key '%s' given twice", item);
				ret = -1;
			}
		}
		if (!ret)
			ret = apply(cfg, item, eq + 1, err, errlen);
		if (!ret && nseen < ARRAY_SIZE(seen))
			seen[nseen++] = item;
	}
	free(copy);
	return ret;
}

int vfs_config_layouts(const struct vfs_config *cfg, struct layout ls[LS_NR], char *err,
		       size_t errlen)
{
	const char *specs[LS_NR] = {
		[LS_DENTRY] = cfg->dentry_layout,
		[LS_FILE] = cfg->file_layout,
		[LS_FILES] = cfg->files_layout,
	};

	for (int s = 0; s < LS_NR; s++)
		if (layout_build(&ls[s], s, specs[s], err, errlen))
			return -1;
	return 0;
}

void vfs_config_describe(const struct vfs_config *cfg, char *buf, size_t len)
{
	char retry[24], hshift[16];

	if (cfg->d_hash_shift == VFS_HASH_SHIFT_AUTO)
		snprintf(hshift, sizeof(hshift), "auto");
	else
		snprintf(hshift, sizeof(hshift), "%u", cfg->d_hash_shift);
	if (cfg->lockref_retry == LOCKREF_RETRY_UNBOUNDED)
		snprintf(retry, sizeof(retry), "unbounded");
	else
		snprintf(retry, sizeof(retry), "%u", cfg->lockref_retry);
	snprintf(buf, len,
		 "dentry=%s,file=%s,files=%s,dcount=%s,lockref-retry=%s,fref=%s,alloc-fd=%s,"
		 "nr-open=%u,dcache-max-unused=%lu,hash-shift=%s,fsnotify-parent=%s,readdir=%s,"
		 "tmpfs-size=%llu",
		 cfg->dentry_layout[0] ? cfg->dentry_layout : layout_default_name(LS_DENTRY),
		 cfg->file_layout[0] ? cfg->file_layout : layout_default_name(LS_FILE),
		 cfg->files_layout[0] ? cfg->files_layout : layout_default_name(LS_FILES),
		 cfg->dcount == DCOUNT_DLOCK  ? "dlock" :
		 cfg->dcount == DCOUNT_ATOMIC ? "atomic" :
						"lockref",
		 retry, cfg->fref == FREF_INC_NOT_ZERO ? "inc-not-zero" : "file_ref",
		 cfg->alloc_fd == ALLOC_FD_V610 ? "v6.10" : "v6.13", cfg->nr_open,
		 cfg->dentry_unused_max, hshift, cfg->fsnotify_parent ? "on" : "off",
		 cfg->readdir == READDIR_V66 ? "v6.6" : "v6.14", cfg->tmpfs_size);
	/* Only where set: the default's spec stays what every header has shown. */
	if (cfg->hash_salt_fixed) {
		size_t n = strlen(buf);

		snprintf(buf + n, len - n, ",hash-salt=%llu", cfg->hash_salt);
	}
	if (cfg->protected_symlinks || cfg->protected_hardlinks || cfg->protected_regular ||
	    cfg->protected_fifos) {
		size_t n = strlen(buf);

		snprintf(buf + n, len - n,
			 ",protected-symlinks=%u,protected-hardlinks=%u,protected-regular=%u,"
			 "protected-fifos=%u",
			 cfg->protected_symlinks, cfg->protected_hardlinks, cfg->protected_regular,
			 cfg->protected_fifos);
	}
	if (cfg->mnt_count == MNT_COUNT_ATOMIC) {
		size_t n = strlen(buf);

		snprintf(buf + n, len - n, ",mnt-count=atomic");
	}
	if (cfg->mount_max != VFS_MOUNT_MAX_DEFAULT) {
		size_t n = strlen(buf);

		snprintf(buf + n, len - n, ",mount-max=%u", cfg->mount_max);
	}
}
