// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * What the host's answers depend on beyond Linux's VFS: the fs.protected_*
 * sysctls (the vfslab side gets the same), the tmpfs' mount options
 * (large folios, size) and whether it can give a run a mount namespace of
 * its own, read into a struct dt_policy so the generator leaves out what
 * vfslab does not model.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* unshare */
#endif
#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tools/difftest/difftest.h"

static int read_sysctl(const char *name, int dflt)
{
	char path[128];
	FILE *f;
	int v;

	snprintf(path, sizeof(path), "/proc/sys/fs/%s", name);
	f = fopen(path, "r");
	if (!f)
		return dflt;
	if (fscanf(f, "%d", &v) != 1)
		v = dflt;
	fclose(f);
	return v;
}

/*
 * The super options of the mount @path is on ("rw,size=...,huge=..."),
 * from /proc/self/mountinfo: the longest mount point that holds it.
 */
static bool mount_options(const char *path, char *opts, size_t len)
{
	char real[PATH_MAX], *line = NULL;
	size_t cap = 0, best = 0;
	FILE *f;

	if (!realpath(path, real))
		return false;
	f = fopen("/proc/self/mountinfo", "r");
	if (!f)
		return false;
	while (getline(&line, &cap, f) > 0) {
		char mnt[PATH_MAX], *sep = strstr(line, " - ");
		char fstype[64], source[PATH_MAX], super[1024];
		size_t n;

		if (!sep || sscanf(line, "%*s %*s %*s %*s %4095s", mnt) != 1 ||
		    sscanf(sep + 3, "%63s %4095s %1023s", fstype, source, super) != 3)
			continue;
		n = strlen(mnt);
		if (strncmp(real, mnt, n) || (real[n] && real[n] != '/' && n > 1) || n < best)
			continue;
		best = n;
		snprintf(opts, len, "%s", super);
	}
	free(line);
	fclose(f);
	return best > 0;
}

/* The value of option @key= in a comma-separated @opts, into @val. */
static bool mount_option(const char *opts, const char *key, char *val, size_t len)
{
	size_t k = strlen(key);

	for (const char *o = opts; o && *o; o = strchr(o, ',') ? strchr(o, ',') + 1 : NULL) {
		if (!strncmp(o, key, k) && o[k] == '=') {
			size_t n = strcspn(o + k + 1, ",");

			snprintf(val, len, "%.*s", (int)n, o + k + 1);
			return true;
		}
	}
	return false;
}

/*
 * May the tmpfs holding @tmpdir put file data in large folios? Its huge=
 * (never when not given), unless shmem_enabled forces or denies them.
 */
static bool host_large_folios(const char *opts, char *huge, size_t len)
{
	char line[256] = "";
	FILE *f = fopen("/sys/kernel/mm/transparent_hugepage/shmem_enabled", "r");

	if (f) {
		if (!fgets(line, sizeof(line), f))
			line[0] = '\0';
		fclose(f);
	}
	if (!mount_option(opts, "huge", huge, len))
		snprintf(huge, len, "never");
	if (strstr(line, "[force]")) {
		snprintf(huge, len, "force");
		return true;
	}
	if (strstr(line, "[deny]"))
		return false;
	return !strcmp(huge, "always") || !strcmp(huge, "within_size");
}

int dt_host_private_root(const char *dir, const char *tmpdir)
{
	char opts[1024] = "", data[256], size[64] = "", huge[32] = "", inodes[64] = "";

	if (mount_options(tmpdir, opts, sizeof(opts))) {
		mount_option(opts, "size", size, sizeof(size));
		mount_option(opts, "huge", huge, sizeof(huge));
		mount_option(opts, "nr_inodes", inodes, sizeof(inodes));
	}
	snprintf(data, sizeof(data), "mode=0%o%s%s%s%s%s%s", DT_ROOT_MODE, *size ? ",size=" : "",
		 size, *huge ? ",huge=" : "", huge, *inodes ? ",nr_inodes=" : "", inodes);
	if (mount("tmpfs", dir, "tmpfs", 0, data) < 0 || chdir(dir) < 0)
		return -errno;
	return 0;
}

/* Can this process have a mount namespace of its own (fstest_host_init's)? */
static bool host_mount_ns(void)
{
	int status;
	pid_t pid = fork();

	if (pid == 0)
		_exit(unshare(CLONE_NEWNS) == 0 ? 0 : 1);
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return false;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

void dt_policy_from_host(struct dt_policy *p, const char *tmpdir, char *desc, size_t len)
{
	char opts[1024] = "", huge[32] = "never";
	struct statvfs svfs;
	struct statfs sfs;
	size_t n;

	/* Unreadable: the kernel's built-in 0. */
	p->protected_symlinks = read_sysctl("protected_symlinks", 0);
	p->protected_hardlinks = read_sysctl("protected_hardlinks", 0);
	p->protected_regular = read_sysctl("protected_regular", 0);
	p->protected_fifos = read_sysctl("protected_fifos", 0);
	p->uid = p->gid = -1;
	if (tmpdir && mount_options(tmpdir, opts, sizeof(opts)))
		p->no_seek_hole = host_large_folios(opts, huge, sizeof(huge));
	p->tmpfs_size = 0;
	if (tmpdir && statfs(tmpdir, &sfs) == 0)
		p->tmpfs_size = (unsigned long long)sfs.f_blocks * (unsigned long long)sfs.f_bsize;
	p->no_big_fallocate = !p->tmpfs_size || p->tmpfs_size >= (1ull << 40);
	p->no_devices = tmpdir && statvfs(tmpdir, &svfs) == 0 && (svfs.f_flag & ST_NODEV);
	p->no_mounts = !host_mount_ns();
	n = (size_t)snprintf(desc, len,
			     "host fs.protected_symlinks=%u hardlinks=%u regular=%u fifos=%u "
			     "(vfslab too), tmpfs huge=%s size=%llu",
			     p->protected_symlinks, p->protected_hardlinks, p->protected_regular,
			     p->protected_fifos, huge, p->tmpfs_size);
	if (n < len && (p->no_seek_hole || p->no_big_fallocate || p->no_devices || p->no_mounts))
		snprintf(desc + n, len - n, "; not generated:%s%s%s%s",
			 p->no_devices ? " device nodes that open (nodev)," : "",
			 p->no_seek_hole ? " SEEK_DATA/SEEK_HOLE (large folios)," : "",
			 p->no_big_fallocate ? " 1 TiB fallocate (the tmpfs holds it)," : "",
			 p->no_mounts ? " mounts (no mount namespace of its own)," : "");
	n = strlen(desc);
	if (n && desc[n - 1] == ',')
		desc[n - 1] = '\0';
}
