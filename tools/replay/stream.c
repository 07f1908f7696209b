// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The throughput mode: every pid's calls become a stream that one bench
 * task replays in a loop, N copies of the program's streams side by side,
 * each copy in its own subtree ("/rK" on vfslab, a chroot into its own
 * directory on the host) or all in one (--share). bench_run() drives it,
 * so variants and the host kernel take turns exactly as in `vfslab bench`
 * and the report is bench's: ops/s (one op = one log call) and the VFS
 * event counters per op.
 *
 * A stream starts the way its pid started in the check's replay: its cwd
 * and umask, and its inherited descriptors reopened from the paths they
 * were opened by (placeholders for pipes and terminals). Each restart
 * closes what the stream left open. Streams run concurrently and the tree
 * is not reset between loops, so results drift from the log's; how many
 * did is reported with the ops.
 *
 * bench's workload interface has no context pointer: the log and the
 * streams live in this file's one static state, a task's own state behind
 * the first bytes of its scratch buffer (t->buf).
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tools/bench/bench.h"
#include "tools/cmd.h"
#include "tools/interrupt.h"
#include "tools/replay/replay.h"
#include "tools/sys/sys.h"

struct stream {
	int pid;
	const struct rp_pidinfo *info;
	size_t *calls;
	size_t nr;
};

/* One task's counts, written by that task only (shared with forked peers). */
struct slot {
	uint64_t ops, divergent, skipped;
	char pad[64 - 24];
};

struct rs_task {
	struct rp_exec x;
	const struct stream *s;
	size_t pos;
	char prefix[32];
	struct slot *slot;
};

static struct {
	const struct rp_stream_opts *o;
	struct stream *streams;
	int nr_streams;
	int nr_sides, prepared, kernel_side;
	struct vfs *side_vfs[BENCH_MAX_SIDES];
	struct slot *slots;
	int max_tasks;
	struct workload wl;
	char name[128], loop[128];
	/* every task's state, freed after the run (threads share this) */
	pthread_mutex_t lock;
	struct rs_task **all;
	size_t nr_all;
} G;

static void rs_free(struct rs_task *rs)
{
	rp_fdmap_put(rs->x.map);
	free(rs->x.buf);
	free(rs);
}

static void copy_dir(char *buf, size_t len, const char *base, int copy)
{
	if (G.o->share || G.o->copies == 1)
		snprintf(buf, len, "%s", base);
	else
		snprintf(buf, len, "%s/r%d", base, copy);
}

static long rs_prepare(struct bench_task *main, int nr)
{
	int side = G.prepared++;
	long r = 0;

	(void)nr;
	if (main->sys == &sys_ops_host) {
		G.kernel_side = side;
		for (int k = 0; k < (G.o->share ? 1 : G.o->copies) && r >= 0; k++) {
			char dir[512];

			copy_dir(dir, sizeof(dir), main->base, k);
			r = rp_tree_build(G.o->tree, &rp_build_host, NULL, dir, false);
		}
		return r;
	}
	{
		struct task *t = ((struct sys_vfs *)main->ctx)->task;

		/* Tasks of a side prepared earlier may be starting: rs_init() reads it. */
		pthread_mutex_lock(&G.lock);
		G.side_vfs[side] = task_vfs(t);
		pthread_mutex_unlock(&G.lock);
		for (int k = 0; k < (G.o->share ? 1 : G.o->copies) && r >= 0; k++) {
			char dir[32];

			copy_dir(dir, sizeof(dir), "", k);
			r = rp_tree_build(G.o->tree, &rp_build_vfs, t, dir, true);
		}
	}
	return r;
}

static long x_chdir(struct rs_task *rs, const char *path)
{
	char p[8192];
	struct sys_vfs v;

	snprintf(p, sizeof(p), "%s%s", rs->prefix, path);
	return rp_exec_sys(&rs->x, &v)->chdir(&v, p);
}

/* A stream (re)starts as its pid did: cwd, umask, inherited descriptors. */
static void stream_start(struct rs_task *rs)
{
	const struct rp_pidinfo *pi = rs->s->info;
	struct sys_vfs v;
	const struct sys_ops *sys = rp_exec_sys(&rs->x, &v);

	rs->pos = 0;
	if (!pi)
		return;
	if (pi->cwd)
		x_chdir(rs, pi->cwd);
	sys->umask(&v, pi->umask);
	for (size_t i = 0; i < pi->nr_fds; i++) {
		const struct rp_inherit *in = &pi->fds[i];
		int flags = in->flags & ~(O_CREAT | O_EXCL | O_TRUNC);
		unsigned char f = 0;
		long r = -ENOENT;

		if (!in->foreign && in->path) {
			char p[8192];

			snprintf(p, sizeof(p), "%s%s", rs->prefix, in->path);
			r = sys->open(&v, p, flags, 0);
		}
		if (r < 0) {
			r = rp_exec_placeholder(&rs->x);
			f = RPF_FOREIGN;
		}
		if (r >= 0)
			rp_fdmap_set(rs->x.map, in->logfd, (int)r,
				     f | (in->flags & O_CLOEXEC ? RPF_CLOEXEC : 0), in->flags,
				     in->path);
	}
}

static long rs_init(struct bench_task *t)
{
	bool host = t->sys == &sys_ops_host;
	int side = -1, copy = t->id / G.nr_streams;
	struct rs_task *rs = calloc(1, sizeof(*rs));

	if (!rs)
		return -ENOMEM;
	pthread_mutex_lock(&G.lock);
	{
		struct rs_task **all = realloc(G.all, (G.nr_all + 1) * sizeof(*all));

		if (all) {
			G.all = all;
			G.all[G.nr_all++] = rs;
		}
	}
	if (!host) {
		struct vfs *vfs = task_vfs(((struct sys_vfs *)t->ctx)->task);

		for (int s = 0; s < G.nr_sides; s++)
			if (G.side_vfs[s] == vfs)
				side = s;
	}
	pthread_mutex_unlock(&G.lock);
	if (host) {
		char dir[512];

		side = G.kernel_side;
		copy_dir(dir, sizeof(dir), t->base, copy);
		/* confine the replayed calls to this copy's directory */
		if (chroot(dir) || chdir("/"))
			return -errno;
	} else {
		struct sys_vfs *v = t->ctx;

		rs->x.task = v->task;
		rs->x.entry_loops = v->entry_loops;
		copy_dir(rs->prefix, sizeof(rs->prefix), "", copy);
	}
	if (side < 0)
		return -EINVAL;
	rs->x.host = host;
	rs->x.prefix = host ? "" : rs->prefix;
	rs->x.map = rp_fdmap_new();
	rs->s = &G.streams[t->id % G.nr_streams];
	rs->slot = &G.slots[side * G.max_tasks + t->id];
	if (!rs->x.map)
		return -ENOMEM;
	memcpy(t->buf, &rs, sizeof(rs));
	stream_start(rs);
	return 0;
}

static void rs_run(struct bench_task *t, unsigned long n)
{
	struct rs_task *rs;
	const struct rp_log *log = G.o->log;
	unsigned long idle = 0;

	memcpy(&rs, t->buf, sizeof(rs));
	while (n) {
		const struct rp_call *c;
		int skip;
		long r;

		if (rs->pos == rs->s->nr) {
			rp_exec_close_all(&rs->x);
			stream_start(rs);
		}
		c = &log->calls[rs->s->calls[rs->pos++]];
		r = rp_exec(&rs->x, c, &skip);
		if (skip) {
			rs->slot->skipped++;
			/* a stream of nothing but skipped calls still ends a batch */
			if (++idle > 2 * rs->s->nr + 2) {
				idle = 0;
				n--;
			}
			continue;
		}
		idle = 0;
		rs->slot->ops++;
		if (!rp_same(&rs->x, c, r))
			rs->slot->divergent++;
		n--;
	}
}

static int build_streams(const struct rp_stream_opts *o)
{
	const struct rp_log *log = o->log;

	for (size_t i = 0; i < o->res->nr_pids; i++) {
		const struct rp_pidinfo *pi = &o->res->pids[i];
		struct stream *s;
		bool dup = false;

		for (int k = 0; k < G.nr_streams; k++)
			dup |= G.streams[k].pid == pi->pid;
		if (dup || !pi->nr_calls)
			continue;
		s = realloc(G.streams, (G.nr_streams + 1) * sizeof(*s));
		if (!s)
			return -1;
		G.streams = s;
		s += G.nr_streams++;
		memset(s, 0, sizeof(*s));
		s->pid = pi->pid;
		s->info = pi;
		s->calls = malloc(log->nr * sizeof(*s->calls));
		if (!s->calls)
			return -1;
		for (size_t k = 0; k < log->nr; k++)
			if (log->calls[k].pid == pi->pid && log->calls[k].sys < RP_CLONE)
				s->calls[s->nr++] = k;
	}
	return 0;
}

int rp_stream_run(const struct rp_stream_opts *o, FILE *out)
{
	static struct bench_opts bo;
	static struct bench_result res[BENCH_MAX_SIDES];
	int nr = 0, ret = 0;
	size_t slots_len;

	memset(&G, 0, sizeof(G));
	pthread_mutex_init(&G.lock, NULL);
	G.o = o;
	G.kernel_side = -1;
	if (build_streams(o) || !G.nr_streams) {
		cli_error("replay", "the log has no calls to replay");
		ret = 1;
		goto out;
	}
	G.max_tasks = o->copies * G.nr_streams;
	if (G.max_tasks > BENCH_MAX_TASKS) {
		cli_error("replay", "%d copies of %d streams: more than %d tasks", o->copies,
			  G.nr_streams, BENCH_MAX_TASKS);
		ret = 2;
		goto out;
	}
	snprintf(G.name, sizeof(G.name), "replay %s", o->label);
	snprintf(G.loop, sizeof(G.loop), "%d stream%s x %d cop%s%s, one op = one log call",
		 G.nr_streams, G.nr_streams > 1 ? "s" : "", o->copies, o->copies > 1 ? "ies" : "y",
		 o->share ? " sharing one tree" : "");
	G.wl.name = G.name;
	G.wl.desc = "each pid's calls of an strace log, looping";
	G.wl.loop = G.loop;
	G.wl.prepare = rs_prepare;
	G.wl.init = rs_init;
	G.wl.run = rs_run;

	memset(&bo, 0, sizeof(bo));
	bo.wl = &G.wl;
	bo.processes = true;
	bo.rounds = 3;
	bo.interval = o->seconds / bo.rounds;
	if (bo.interval < 0.01)
		bo.interval = 0.01;
	bo.pin = o->pin;
	bo.entry_ns = o->entry_ns;
	bo.tmpdir = o->tmpdir;
	bo.progress = isatty(STDERR_FILENO);
	bo.tasks[0] = G.max_tasks;
	bo.nr_tasks = 1;
	if (o->kernel) {
		bo.sides[0].kernel = true;
		snprintf(bo.sides[0].label, sizeof(bo.sides[0].label), "kernel (%s)", o->tmpdir);
		bo.nr_sides = 1;
	}
	for (int i = 0; i < (o->nr_variants ? o->nr_variants : 1); i++) {
		struct bench_side *s = &bo.sides[bo.nr_sides];
		const char *spec = o->nr_variants ? o->variants[i] : NULL;

		if (bo.nr_sides == BENCH_MAX_SIDES) {
			cli_error("replay", "at most %d sides", BENCH_MAX_SIDES);
			ret = 2;
			goto out;
		}
		memset(s, 0, sizeof(*s));
		if (cli_config("replay", spec, &s->cfg)) {
			ret = 2;
			goto out;
		}
		snprintf(s->label, sizeof(s->label), spec ? "vfslab %s" : "vfslab", spec);
		bo.nr_sides++;
	}
	G.nr_sides = bo.nr_sides;
	slots_len = sizeof(struct slot) * G.nr_sides * G.max_tasks;
	G.slots = mmap(NULL, slots_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (G.slots == MAP_FAILED) {
		G.slots = NULL;
		ret = 1;
		goto out;
	}
	ret = bench_run(&bo, res, &nr);
	if (ret < 0) {
		cli_error("replay", "the run failed");
		ret = 1;
	} else if (!nr) {
		bench_report_partial(out, (enum bench_format)o->format, "replay", &bo, res, nr);
		ret = intr_status();
	} else {
		bench_report(out, (enum bench_format)o->format, &bo, res, nr);
		if (o->format == BENCH_TABLE) {
			fprintf(out, "\n");
			for (int s = 0; s < G.nr_sides; s++) {
				uint64_t ops = 0, div = 0, skipped = 0;

				for (int k = 0; k < G.max_tasks; k++) {
					ops += G.slots[s * G.max_tasks + k].ops;
					div += G.slots[s * G.max_tasks + k].divergent;
					skipped += G.slots[s * G.max_tasks + k].skipped;
				}
				fprintf(out,
					"%s: %llu calls replayed (warm-up included), %llu (%.1f%%) "
					"returned other than in the log, %llu skipped (foreign fds, "
					"unsupported)\n",
					bo.sides[s].label, (unsigned long long)ops,
					(unsigned long long)div, ops ? 100.0 * div / ops : 0.0,
					(unsigned long long)skipped);
			}
		}
		for (int i = 0; i < nr; i++)
			if (!(res[i].median > 0))
				ret = 1;
		if (intr_pending()) {
			bench_report_partial(out, (enum bench_format)o->format, "replay", &bo, res,
					     nr);
			ret = intr_status();
		}
	}
	munmap(G.slots, slots_len);
out:
	for (size_t i = 0; i < G.nr_all; i++)
		rs_free(G.all[i]);
	free(G.all);
	pthread_mutex_destroy(&G.lock);
	for (int i = 0; i < G.nr_streams; i++)
		free(G.streams[i].calls);
	free(G.streams);
	return ret;
}
