// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * vfslab advise's simulations, each layout in a process of its own forked
 * from the advisor before it ran any (so every one starts from the state a
 * fresh `vfslab sim` does), up to --jobs at once; each child sends its
 * results back through a pipe and they are read in order, so the output
 * does not depend on --jobs.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "tools/advise/advise.h"
#include "tools/cmd.h"

/*
 * The runs of one layout, in the child: at each CPU count the mean rate of
 * o->seeds runs, each its own draw of transfer times as `vfslab sim
 * --seeds` takes them (seed 0's for 1), the lines touched from the first.
 */
static void simulate_one(const struct adv_opts *o, const char *path, struct adv_result *r)
{
	char spec[VFS_LAYOUT_SPEC_MAX + 16];
	struct vfs_config cfg;
	struct sim_result *sr = calloc(1, sizeof(*sr));

	memset(r, 0, sizeof(*r));
	snprintf(spec, sizeof(spec), "%s=%s", o->key, path);
	if (!sr || cli_config("advise", spec, &cfg))
		goto out;
	for (unsigned int w = 0; w < o->nwl; w++) {
		for (int k = 0; k < 2; k++) {
			struct adv_run *run = &r->run[w][k];

			for (unsigned int seed = 0; seed < o->seeds; seed++) {
				/* As vfslab sim runs it: its default report depth included. */
				struct sim_run_opts ro = {
					.wl = o->wl[w],
					.prof = o->prof,
					.cpus = k ? o->cpus : 1,
					.ops = o->ops,
					.entry_ns = -1,
					.seed = sim_seed_nth(o->seeds, seed),
					.c2c_top = seed ? 0 : 4,
				};

				if (sim_run_workload(&ro, &cfg, sr)) {
					cli_error("advise",
						  "%s on %u CPUs with %s: the simulation failed",
						  o->wl[w]->name, ro.cpus, path);
					goto out;
				}
				run->ops_s += sr->br.median;
				if (!seed) {
					run->ops = sr->ops;
					run->lines = sr->c2c.structs[o->s];
				}
				c2c_free(&sr->c2c);
			}
			run->ops_s /= o->seeds; /* summed in seed order, as vfslab sim does */
		}
	}
	r->ok = true;
out:
	free(sr);
}

static int start(const struct adv_opts *o, const char *path, pid_t *pid)
{
	int fds[2];

	if (pipe(fds))
		return -1;
	fflush(NULL);
	*pid = fork();
	if (*pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	if (!*pid) {
		struct adv_result *r = malloc(sizeof(*r));
		const char *p = (const char *)r;
		size_t left = sizeof(*r);

		close(fds[0]);
		if (!r)
			_exit(1);
		simulate_one(o, path, r);
		while (left) {
			ssize_t n = write(fds[1], p, left);

			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0)
				_exit(1);
			p += n;
			left -= n;
		}
		fflush(NULL);
		_exit(0);
	}
	close(fds[1]);
	return fds[0];
}

/* The result a child sends; ok is false if it sent less. */
static void collect(int fd, pid_t pid, struct adv_result *r)
{
	char *p = (char *)r;
	size_t left = sizeof(*r);
	int status;

	while (left) {
		ssize_t n = read(fd, p, left);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		p += n;
		left -= n;
	}
	close(fd);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (left || !WIFEXITED(status) || WEXITSTATUS(status))
		r->ok = false;
}

int adv_simulate(const struct adv_opts *o, char *const *paths, unsigned int n,
		 struct adv_result *res)
{
	int *fds = calloc(n, sizeof(*fds));
	pid_t *pids = calloc(n, sizeof(*pids));
	unsigned int next = 0, bad = 0;

	if (!fds || !pids) {
		free(fds);
		free(pids);
		cli_error("advise", "out of memory");
		return -1;
	}
	for (unsigned int i = 0; i < n; i++) {
		/* Keep up to jobs children running, and take their results in order. */
		for (; next < n && next < i + o->jobs; next++) {
			fds[next] = start(o, paths[next], &pids[next]);
			if (fds[next] < 0)
				cli_error("advise", "cannot start a simulation: %s",
					  strerror(errno));
		}
		if (fds[i] < 0) {
			res[i].ok = false;
		} else {
			collect(fds[i], pids[i], &res[i]);
		}
		bad += !res[i].ok;
	}
	free(fds);
	free(pids);
	return bad ? -1 : 0;
}
