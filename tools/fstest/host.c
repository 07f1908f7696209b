// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * fstest's host backend: the calls are the host kernel's (sys_ops_host).
 * Each invocation runs in a forked child, which begin() turns into what
 * pjdfstest's process would be.
 */
/* Before any libc header: O_PATH, AT_*, RENAME_*, asprintf. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "tools/fstest/fstest.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

/* How long one line may run before its child is killed. */
#define HOST_TIMEOUT 10

static void close_from(unsigned int first)
{
	if (sys_ops_host.close_range(NULL, first, ~0U, 0) < 0) {
		for (int fd = (int)first; fd < FSTEST_NOFILE; fd++)
			close(fd);
	}
}

/* Runs in the child: make it the process pjdfstest would be. */
static int host_begin(void *ctx, const struct fstest_cred *cred)
{
	struct fstest_host *h = ctx;
	struct rlimit rl;

	/* Exactly 0, 1 and 2 open, whatever the parent had. */
	for (int fd = 0; fd < 3; fd++) {
		if (fcntl(fd, F_GETFD) < 0 && open("/dev/null", O_RDWR) != fd)
			return -EBADF;
	}
	close_from(3);

	if (getrlimit(RLIMIT_NOFILE, &rl) < 0)
		return -errno;
	rl.rlim_cur = FSTEST_NOFILE;
	if (rl.rlim_max < FSTEST_NOFILE)
		rl.rlim_max = FSTEST_NOFILE;
	if (setrlimit(RLIMIT_NOFILE, &rl) < 0)
		return -errno;

	if (h->root && chroot(h->root) < 0)
		return -errno;

	/* pjdfstest's order: groups, then egid, then setuid. */
	if (cred->has_groups) {
		if (setgroups((size_t)cred->ngroups, cred->groups) < 0)
			return -errno;
		if (setegid(cred->gid) < 0)
			return -errno;
	}
	if (cred->has_uid && setuid(cred->uid) < 0)
		return -errno;
	umask(cred->umask);
	if (h->timeout)
		alarm(h->timeout);
	return 0;
}

static void host_end(void *ctx)
{
	(void)ctx;
	close_from(3);
}

static int host_cd(void *ctx, const char *path)
{
	struct fstest_host *h = ctx;
	char *full;
	int rc;

	if (!h->root || path[0] != '/')
		return chdir(path) < 0 ? -errno : 0;
	/* The children see h->root as "/". */
	if (asprintf(&full, "%s%s", h->root, path) < 0)
		return -ENOMEM;
	rc = chdir(full) < 0 ? -errno : 0;
	free(full);
	return rc;
}

static void *host_sys_ctx(void *ctx)
{
	(void)ctx;
	return NULL;
}

const struct fstest_backend fstest_host_backend = {
	.name = "host",
	.fork_per_line = true,
	.begin = host_begin,
	.end = host_end,
	.cd = host_cd,
	.sys = &sys_ops_host,
	.sys_ctx = host_sys_ctx,
};

int fstest_host_init(struct fstest_host *host, bool chroot_cwd, FILE *err)
{
	host->root = NULL;
	host->timeout = HOST_TIMEOUT;
	if (!chroot_cwd)
		return 0;
	if (geteuid() != 0) {
		fprintf(err, "fstest: not root, running without chroot: "
			     "absolute paths and getcwd see the real root\n");
		return 0;
	}
	/*
	 * A private mount namespace: what the script mounts stays out of the
	 * host's and goes when this process does, and nothing it mounts
	 * propagates to a peer (vfslab's mounts are all private).
	 */
	if (unshare(CLONE_NEWNS) < 0 || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
		fprintf(err,
			"fstest: no private mount namespace (%s): mount lines would "
			"change the host's\n",
			strerror(errno));
	host->root = getcwd(NULL, 0);
	if (!host->root)
		return -errno;
	/* Already "/": nothing to confine. */
	if (strcmp(host->root, "/") == 0) {
		free(host->root);
		host->root = NULL;
	}
	return 0;
}

/*
 * Take down what the lines mounted on or under root (in this process's own
 * namespace), so that root can be removed and a later run's namespace,
 * copied from this one, starts without them.
 */
static void umount_under(const char *root)
{
	size_t len = strlen(root), cap = 0, n = 0;
	char line[4096], **mps = NULL;
	FILE *f = fopen("/proc/self/mountinfo", "r");

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char mp[4096], *p = line, **grown;
		int i;

		/* The fifth field; spaces and the like come as \ooo. */
		for (i = 0; i < 4 && p; i++)
			p = strchr(p + 1, ' ');
		if (!p || sscanf(p, " %4095s", mp) != 1 || strncmp(mp, root, len) ||
		    (mp[len] != '/' && mp[len]))
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 16;
			grown = realloc(mps, cap * sizeof(*mps));
			if (!grown)
				break;
			mps = grown;
		}
		mps[n] = strdup(mp);
		if (mps[n])
			n++;
	}
	fclose(f);
	/* Newest first; a lazy umount of a parent takes its children anyway. */
	while (n--) {
		umount2(mps[n], MNT_DETACH);
		free(mps[n]);
	}
	free(mps);
}

void fstest_host_fini(struct fstest_host *host)
{
	if (host->root)
		umount_under(host->root);
	free(host->root);
	host->root = NULL;
}
