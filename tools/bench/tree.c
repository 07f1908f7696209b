// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * vfslab bench --tree N: build a tree of N empty files (1000 per directory)
 * in vfslab and, beside it, on the host's tmpfs; report the time, what each
 * dentry and inode costs in memory, the dentry hash the tree landed in and
 * (--phases) where each side's time went, step by step.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "tools/bench/bench.h"
#include "tools/cli.h"
#include "tools/interrupt.h"
#include "vfs/phase.h"

#define PER_DIR 1000
#define TURN (100 * PER_DIR)

/* The calls the build makes, each its own row of the phase table. */
enum tree_call { TC_MKDIR, TC_OPEN, TC_CLOSE, TC_NR };

/* One side's build: its time and, with --phases, its calls' clocks. */
struct tree_side {
	bool off; /* not built: --peer none, or it failed */
	long done;
	double secs, user, sys; /* wall, and the process's CPU time */
	bool phases;
	struct vfs_phases ph[TC_NR];
	uint64_t ticks; /* vfs_phase_clock() over the build */
	double ns_per_tick, switch_ticks; /* one phase switch's cost */
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* The process's user and system CPU seconds so far. */
static void cpu_secs(double *user, double *sys)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	*user = ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6;
	*sys = ru.ru_stime.tv_sec + ru.ru_stime.tv_usec * 1e-6;
}

static long rss_kib(void)
{
	FILE *f = fopen("/proc/self/statm", "r");
	long pages = 0, rss = 0;

	if (!f)
		return 0;
	if (fscanf(f, "%ld %ld", &pages, &rss) != 2)
		rss = 0;
	fclose(f);
	return rss * (sysconf(_SC_PAGESIZE) / 1024);
}

/* Start call c's phase clock (--phases). */
static void call_begin(struct tree_side *s, enum tree_call c)
{
	if (s->phases)
		vfs_phases_start(&s->ph[c]);
}

static void call_end(struct tree_side *s)
{
	if (s->phases)
		vfs_phases_stop();
}

/*
 * Files from..to-1 of the tree through sys (a directory's first makes the
 * directory); s->done counts them, s's clocks add their time. Returns 0 or
 * a negative errno.
 */
static long build(struct tree_side *s, const struct sys_ops *sys, void *ctx, const char *base,
		  long from, long to)
{
	char path[512];
	double t0 = now(), u0, s0, u1, s1;
	uint64_t k0 = vfs_phase_clock();
	long r = 0;

	cpu_secs(&u0, &s0);
	for (long i = from; i < to; i++) {
		if (i % PER_DIR == 0) {
			snprintf(path, sizeof(path), "%s/d%ld", base, i / PER_DIR);
			call_begin(s, TC_MKDIR);
			r = sys->mkdir(ctx, path, 0755);
			call_end(s);
			if (r < 0)
				break;
		}
		snprintf(path, sizeof(path), "%s/d%ld/f%ld", base, i / PER_DIR, i % PER_DIR);
		call_begin(s, TC_OPEN);
		r = sys->open(ctx, path, O_CREAT | O_EXCL | O_WRONLY, 0644);
		call_end(s);
		if (r < 0)
			break;
		call_begin(s, TC_CLOSE);
		sys->close(ctx, (int)r);
		call_end(s);
		s->done = i + 1;
	}
	s->ticks += vfs_phase_clock() - k0;
	s->secs += now() - t0;
	cpu_secs(&u1, &s1);
	s->user += u1 - u0;
	s->sys += s1 - s0;
	return r < 0 ? r : 0;
}

/*
 * Both trees TURN files at a time, the sides taking turns, so that both
 * meet the same neighbours on a shared machine; a turn long enough that
 * what the other side left in the caches costs little. The kernel's stops
 * (k->done 0) at its first failure. Returns 0 or vfslab's negative errno.
 */
static long build_both(struct tree_side *v, void *vctx, struct tree_side *k, const char *base,
		       long n)
{
	struct progress p;
	long err = 0;

	progress_init(&p, "bench");
	for (long i = 0; i < n && !err && !intr_pending(); i += TURN) {
		long to = i + TURN < n ? i + TURN : n, kerr;

		if (progress_due(&p))
			progress_print(&p, "tree: %ld of %ld files", i, n);
		err = build(v, &sys_ops_vfslab, vctx, "/tree", i, to);
		if (err || k->off)
			continue;
		kerr = build(k, &sys_ops_host, NULL, base, i, to);
		if (kerr < 0) {
			fprintf(stderr, "vfslab bench: the kernel's tree in %s: %s\n", base,
				strerror((int)-kerr));
			k->off = true;
			k->done = 0;
		}
	}
	v->ns_per_tick = v->secs * 1e9 / (double)(v->ticks + 1);
	k->ns_per_tick = k->secs * 1e9 / (double)(k->ticks + 1);
	if (v->phases)
		v->switch_ticks = k->switch_ticks = vfs_phases_switch_ticks();
	return err;
}

/*
 * ns per file in call c's step (all of them: step < 0), less what the
 * clock switches that ended its stretches cost (clocks: that cost alone).
 */
static double call_ns(const struct tree_side *s, enum tree_call c, int step, bool clocks)
{
	double t = 0;

	for (int i = 0; i < VFS_PH_NR; i++) {
		double own = (double)s->ph[c].segs[i] * s->switch_ticks;

		if (step >= 0 && step != i)
			continue;
		if (clocks)
			t += own;
		else if ((double)s->ph[c].ticks[i] > own)
			t += (double)s->ph[c].ticks[i] - own;
	}
	return t * s->ns_per_tick / (double)s->done;
}

static double clocks_ns(const struct tree_side *s)
{
	double t = 0;

	for (int c = 0; c < TC_NR; c++)
		t += call_ns(s, c, -1, true);
	return t;
}

static void phase_row(const char *name, double a, const struct tree_side *k, double b)
{
	printf("    %-30s %9.1f", name, a);
	if (k)
		printf(" %9.1f", b);
	printf("\n");
}

/*
 * Where each side's time went, per file; the open's steps for vfslab
 * alone (k: NULL without the host side).
 */
static void print_phases(const struct tree_side *v, const struct tree_side *k)
{
	static const char *const calls[TC_NR] = { "mkdir (1 per 1000 files)", "open(O_CREAT)",
						  "close" };
	double vsum = clocks_ns(v), ksum = k ? clocks_ns(k) : 0;

	printf("  where the time goes, ns per file (--phases; each step's own time, the\n"
	       "  phase clocks' own cost, %.0f ns a switch, taken out to a row of its own):\n",
	       v->switch_ticks * v->ns_per_tick);
	printf("    %-30s %9s%s\n", "call / step", "vfslab", k ? "    kernel" : "");
	for (int c = 0; c < TC_NR; c++) {
		double a = call_ns(v, c, -1, false), b = k ? call_ns(k, c, -1, false) : 0;

		phase_row(calls[c], a, k, b);
		vsum += a;
		ksum += b;
		if (c != TC_OPEN)
			continue;
		for (int i = 0; i < VFS_PH_NR; i++) {
			char name[64];

			snprintf(name, sizeof(name), "  %s", vfs_phase_name(i));
			printf("    %-30s %9.1f\n", name, call_ns(v, c, i, false));
		}
	}
	phase_row("phase clocks", clocks_ns(v), k, k ? clocks_ns(k) : 0);
	phase_row("the loop (names, progress)", v->secs * 1e9 / v->done - vsum, k,
		  k ? k->secs * 1e9 / k->done - ksum : 0);
	phase_row("total", v->secs * 1e9 / v->done, k, k ? k->secs * 1e9 / k->done : 0);
}

/* The dentry hash: its size, where that came from, how long its chains got. */
static void print_hash(struct vfs *vfs, const char *why)
{
	struct dhash_info h;

	vfs_inspect_hash(vfs, &h);
	printf("  dentry hash: 2^%u buckets, %.1f MiB: %lu dentries, %.2f per bucket, longest "
	       "chain %lu\n    (%s)\n",
	       h.shift, (double)(sizeof(void *) << h.shift) / 1048576.0, h.entries,
	       (double)h.entries / (double)(1ul << h.shift), h.longest, why);
}

/* What was built: time, rate, memory per file; marked when a signal cut it short. */
static void print_tree(const struct tree_opts *o, const struct tree_side *v,
		       const struct tree_side *k, const struct vfs_cache_info *ci, int nc,
		       long rss_kib)
{
	long n = o->n, done = v->done, kdone = k->done;
	double secs = v->secs, ksecs = k->secs;

	printf("tree of %ld files (%d per directory)\n", n, PER_DIR);
	if (intr_pending()) {
		printf("INTERRUPTED by %s: partial result: vfslab built %ld of the %ld files",
		       intr_name(), done, n);
		if (o->peer)
			printf(", the kernel %ld", kdone);
		printf("\n");
	}
	if (!done)
		return;
	printf("  vfslab: %.2f s, %.0f files/s, %.0f ns per file; CPU %.0f ns (user %.0f, system "
	       "%.0f)\n",
	       secs, done / secs, secs * 1e9 / done, (v->user + v->sys) * 1e9 / done,
	       v->user * 1e9 / done, v->sys * 1e9 / done);
	if (kdone == n && done == n)
		printf("  kernel (%s): %.2f s, %.0f files/s, %.0f ns per file; CPU %.0f ns (user %.0f, "
		       "system %.0f)\n  vfslab is %.1fx faster (CPU %.1fx)\n",
		       o->tmpdir, ksecs, n / ksecs, ksecs * 1e9 / n, (k->user + k->sys) * 1e9 / n,
		       k->user * 1e9 / n, k->sys * 1e9 / n, ksecs / secs,
		       (k->user + k->sys) / (v->user + v->sys));
	else if (kdone)
		printf("  kernel (%s): %ld files in %.2f s, %.0f files/s; vfslab is %.1fx faster\n",
		       o->tmpdir, kdone, ksecs, kdone / ksecs, (done / secs) / (kdone / ksecs));
	for (int i = 0; i < nc; i++)
		printf("  %-18s %9ld objects x %4zu bytes = %7.1f MiB\n", ci[i].name, ci[i].in_use,
		       ci[i].objsize, ci[i].in_use * ci[i].objsize / 1048576.0);
	printf("  per file: dentry %zu bytes (the kernel's is 192), inode %zu bytes\n",
	       ci[0].objsize, ci[1].objsize);
	printf("  process RSS grew %.1f MiB: %.0f bytes per file, allocator overhead "
	       "included\n",
	       rss_kib / 1024.0, rss_kib * 1024.0 / done);
}

/* True if spec has an item KEY=... */
static bool spec_sets(const char *spec, const char *key)
{
	size_t len = strlen(key);

	for (const char *s = spec; s; s = strchr(s, ',') ? strchr(s, ',') + 1 : NULL)
		if (!strncmp(s, key, len) && s[len] == '=')
			return true;
	return false;
}

/*
 * The instance's config: --variant's, with the dentry hash (unless that
 * names hash-shift) as big as the kernel's for this RAM, or two buckets
 * per dentry if the tree needs more: a create's d_lookup() misses, so it
 * walks its whole chain, and each dentry on it is a cache miss (in a tree
 * of 10 M, a TLB miss too). why says which.
 */
static int tree_config(const struct tree_opts *o, struct vfs_config *cfg, char *why, size_t len)
{
	unsigned long long ram = vfs_phys_ram();
	unsigned int mem = vfs_hash_shift_for_memory(ram);
	unsigned int fit = vfs_hash_shift_for_entries(2 * (o->n + o->n / PER_DIR + 2));

	/* Like the kernel's, the table stays within 1/16 of memory. */
	while (fit > mem && sizeof(void *) << fit > ram / 16)
		fit--;
	if (cli_config("bench", o->variant, cfg))
		return -1;
	if (o->variant && spec_sets(o->variant, "hash-shift")) {
		snprintf(why, len, "hash-shift from --variant");
		return 0;
	}
	cfg->d_hash_shift = mem > fit ? mem : fit;
	if (mem >= fit)
		snprintf(why, len, "the kernel's size for %.1f GiB of RAM; two per dentry: 2^%u",
			 (double)ram / (1 << 30), fit);
	else
		snprintf(why, len, "two per dentry; the kernel's size for %.1f GiB of RAM: 2^%u",
			 (double)ram / (1 << 30), mem);
	return 0;
}

int bench_tree(const struct tree_opts *o)
{
	struct tree_side v = { .phases = o->phases }, k = { .phases = o->phases };
	struct vfs_cache_info ci[4];
	struct vfs_config cfg;
	struct sys_vfs vctx = { 0 };
	char base[512], why[160];
	struct vfs *vfs;
	long rss0, rss1, err;
	bool scratch;
	int nc;

	if (tree_config(o, &cfg, why, sizeof(why)))
		return -1;
	rss0 = rss_kib();
	vfs = cli_vfs_new("bench", &cfg);
	if (!vfs)
		return -1;
	if (!(vctx.task = task_create_init(vfs))) {
		cli_error("bench", "out of memory");
		vfs_destroy(vfs);
		vfs_thread_exit();
		return -1;
	}
	sys_ops_vfslab.mkdir(&vctx, "/tree", 0755);
	snprintf(base, sizeof(base), "%s/vfslab-tree.XXXXXX", o->tmpdir);
	scratch = o->peer && intr_mkdtemp(base);
	if (o->peer && !scratch)
		fprintf(stderr, "vfslab bench: %s: %s\n", base, strerror(errno));
	k.off = !scratch;
	err = build_both(&v, &vctx, &k, base, o->n);
	rss1 = rss_kib();
	if (scratch)
		intr_scratch_rm(base);
	vfs_rcu_barrier();
	nc = vfs_inspect_caches(vfs, ci, 4, NULL);
	if (err) {
		fprintf(stderr, "vfslab bench: building the tree failed: %s\n",
			strerror((int)-err));
	} else {
		print_tree(o, &v, &k, ci, nc, rss1 - rss0);
		if (v.done)
			print_hash(vfs, why);
		if (v.done && o->phases)
			print_phases(&v, k.done ? &k : NULL);
	}
	task_exit(vctx.task);
	vfs_destroy(vfs);
	vfs_thread_exit();
	return err ? -1 : 0;
}
