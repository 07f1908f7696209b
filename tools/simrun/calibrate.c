// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * vfslab sim calibrate: a simulator profile of the machine it runs on.
 *
 * Every number is measured here, by the method of the published figure it
 * stands in for (tools/simrun/hostbench.c), except two the host cannot show:
 * the store buffer's depth (the documented one of the CPU family, which no
 * workload here fills) and the levels of a topology it does not have (a
 * two-CPU guest has one cluster: its farther levels copy the nearest).
 * The cycles per instruction come from running each bench workload on one
 * CPU natively and dividing by the instructions the simulator counts for
 * the same operation: a property of this code on this core, measured on
 * one CPU, so the two-CPU and many-CPU predictions it feeds stay held out.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lib/compiler.h"
#include "tools/bench/bench.h"
#include "tools/cmd.h"
#include "tools/interrupt.h"
#include "tools/simrun/calib.h"
#include "tools/simrun/hostbench.h"

#define CALIB_WORKLOADS_MAX 64

int sim_predict(const char *const *args, struct sim_tsv_row *rows, int max)
{
	char path[PATH_MAX + 16], line[512];
	const char *argv[64];
	int fds[2], n = 0, nargs = 0, status;
	pid_t pid;
	FILE *f;

	if (sim_helper_path(path, sizeof(path))) {
		cli_error("sim", "cannot find the vfslab-sim program");
		return -1;
	}
	argv[nargs++] = path;
	argv[nargs++] = "sim";
	for (int i = 0; args[i] && nargs < 60; i++)
		argv[nargs++] = args[i];
	argv[nargs++] = "--format";
	argv[nargs++] = "tsv";
	argv[nargs] = NULL;
	if (pipe(fds))
		return -1;
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		cli_error("sim", "cannot start the simulator: %s", strerror(errno));
		return -1;
	}
	if (!pid) {
		dup2(fds[1], STDOUT_FILENO);
		close(fds[0]);
		close(fds[1]);
		execv(path, (char *const *)argv);
		_exit(127);
	}
	close(fds[1]);
	f = fdopen(fds[0], "r");
	while (f && fgets(line, sizeof(line), f)) {
		struct sim_tsv_row r;
		char *tab[9], *p = line;
		int k = 0;

		for (; k < 9 && p; k++) {
			tab[k] = p;
			p = strchr(p, '\t');
			if (p)
				*p++ = '\0';
		}
		if (k < 7 || !strcmp(tab[0], "cpus") || n >= max)
			continue;
		memset(&r, 0, sizeof(r));
		r.cpus = atoi(tab[0]);
		snprintf(r.side, sizeof(r.side), "%s", tab[1]);
		r.ops_per_sec = atof(tab[2]);
		r.ratio = atof(tab[3]);
		r.instrs_per_op = atof(tab[4]);
		r.ns_per_op = atof(tab[5]);
		r.ops = strtoul(tab[6], NULL, 10);
		if (k == 9) {
			r.ratio_min = atof(tab[7]);
			r.ratio_max = atof(tab[8]);
		}
		rows[n++] = r;
	}
	if (f)
		fclose(f);
	else
		close(fds[0]);
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status)) {
		{
			char what[256] = "";

			for (int k = 0; args[k] && k < 3; k++)
				snprintf(what + strlen(what), sizeof(what) - strlen(what), " %s",
					 args[k]);
			cli_error("sim", "the simulator failed on:%s", what);
		}
		return -1;
	}
	return n;
}

/* ns per operation of @wl natively, one task, no syscall entry cost. */
static double native_op_ns(const struct workload *wl, const struct calib_opts *o)
{
	static struct bench_result res[4];
	struct bench_opts b;
	int nr = 0;

	bench_cli_defaults(&b, "sim");
	b.wl = wl;
	b.tasks[0] = 1;
	b.nr_tasks = 1;
	b.interval = o->interval;
	b.rounds = o->rounds;
	if (bench_cli_side(&b, NULL) || bench_run(&b, res, &nr) || nr < 1)
		return -1;
	if (!res[0].median) {
		cli_error("sim",
			  "calibrate: %s completed nothing in a %.2f s sample: the machine is "
			  "too busy, or the interval too short",
			  wl->name, o->interval);
		return -1;
	}
	return 1e9 / res[0].median;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

bool sim_listed(const char *list, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = list; p && *p;) {
		const char *e = strchr(p, ',');
		size_t len = e ? (size_t)(e - p) : strlen(p);

		if (len == n && !strncmp(p, name, n))
			return true;
		p = e ? e + 1 : NULL;
	}
	return false;
}

/* The cpi the instruction-free probe runs at; any value, it is taken back out. */
#define PROBE_CPI 0.3

/*
 * Each workload's own cycles per instruction (written as cpi.NAME), and
 * their median (the profile's cpi, for code it has not timed).  The
 * native time holds everything the operation does; the simulator charges
 * some of that on its own (each locked RMW its atomic_ns, fences, misses),
 * so those, as this profile prices them at 1 CPU, come off first, or an
 * operation would pay for its atomics twice and contention would look
 * cheaper than it is.
 */
static double measure_cpi(struct sim_profile *p, const struct calib_opts *o, FILE *log)
{
	unsigned int nw;
	const struct workload *const *all = workload_all(&nw);
	double cpi[CALIB_WORKLOADS_MAX];
	char path[] = "/tmp/vfslab-calib.XXXXXX";
	int n = 0, fd = mkstemp(path);
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;

	if (!f) {
		cli_error("sim", "calibrate: a temporary profile: %s", strerror(errno));
		if (fd >= 0) {
			close(fd);
			unlink(path);
		}
		return -1;
	}
	p->cpi = PROBE_CPI;
	p->nr_wl_cpi = 0;
	sim_profile_write(f, p);
	if (fclose(f)) {
		cli_error("sim", "calibrate: writing %s: %s", path, strerror(errno));
		unlink(path);
		return -1;
	}
	if (log)
		fprintf(log, "# per workload: native ns/op (1 task), what the simulator charges "
			     "besides instructions at 1 CPU, simulated instructions/op, cycles per "
			     "instruction\n");
	for (unsigned int i = 0; i < nw && n < CALIB_WORKLOADS_MAX; i++) {
		/* --workload: dcount is a workload and a scenario. */
		const char *args[] = { "--workload", all[i]->name, "--cpus",	"1",
				       "--ops",	     "300",	   "--profile", path,
				       "--entry-ns", "0",	   NULL };
		struct sim_tsv_row row;
		double ns, extra;

		if (o->workloads && !sim_listed(o->workloads, all[i]->name))
			continue;
		ns = native_op_ns(all[i], o);
		if (ns <= 0 || sim_predict(args, &row, 1) != 1 || row.instrs_per_op <= 0 ||
		    row.ops_per_sec <= 0) {
			unlink(path);
			return -1;
		}
		extra = 1e9 / row.ops_per_sec - row.instrs_per_op * PROBE_CPI / p->ghz;
		if (extra < 0)
			extra = 0;
		/* A native run faster than the model's own charges: the instructions get a tenth. */
		cpi[n] = (ns - extra > ns / 10 ? ns - extra : ns / 10) * p->ghz / row.instrs_per_op;
		if (p->nr_wl_cpi < SIM_PROFILE_WL_MAX &&
		    strlen(all[i]->name) < sizeof(p->wl_cpi[0].name)) {
			snprintf(p->wl_cpi[p->nr_wl_cpi].name, sizeof(p->wl_cpi[0].name), "%s",
				 all[i]->name);
			p->wl_cpi[p->nr_wl_cpi++].cpi = cpi[n];
		}
		if (log)
			fprintf(log, "#   %-11s %9.1f ns %7.1f ns %9.1f instrs  %.3f\n",
				all[i]->name, ns, extra, row.instrs_per_op, cpi[n]);
		n++;
	}
	unlink(path);
	if (!n)
		return -1;
	qsort(cpi, n, sizeof(*cpi), cmp_double);
	return cpi[n / 2];
}

static bool smt_siblings(int a, int b)
{
	char path[128], buf[256];
	FILE *f;
	bool sib = false;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/topology/thread_siblings_list",
		 a);
	f = fopen(path, "r");
	if (!f)
		return false;
	if (fgets(buf, sizeof(buf), f)) {
		/* "0-1" or "0,8": is b listed? */
		for (char *p = buf; *p;) {
			char *end;
			long lo = strtol(p, &end, 10), hi = lo;

			if (end == p)
				break;
			if (*end == '-')
				hi = strtol(end + 1, &end, 10);
			if (b >= lo && b <= hi)
				sib = true;
			p = *end ? end + 1 : end;
		}
	}
	fclose(f);
	return sib;
}

int sim_calibrate(struct sim_profile *p, const struct calib_opts *o, FILE *log)
{
	double cas, lcas, l2, l1_ns, l2_ns;
	struct host_line_probe probe;
	struct host_hold hold;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	int a, b;
	bool smt;

	memset(p, 0, sizeof(*p));
	if (!host_two_cpus(&a, &b)) {
		cli_error("sim", "calibrate needs two CPUs to measure a transfer");
		return -1;
	}
	smt = smt_siblings(a, b);
	snprintf(p->name, sizeof(p->name), "host");
	snprintf(p->machine, sizeof(p->machine), "this host (%ld CPUs), measured", ncpu);
	snprintf(p->notes, sizeof(p->notes),
		 "measured by vfslab sim calibrate; farther topology levels copy CPUs %d-%d's "
		 "transfer, store buffer from the CPU family's documentation",
		 a, b);
	p->threads_per_core = smt ? 2 : 1;
	p->cores_per_cluster = (unsigned int)(ncpu > 1 ? ncpu : 2) / p->threads_per_core;
	p->clusters_per_die = p->dies_per_socket = p->sockets = 1;
	p->ghz = host_ghz();
	if (p->ghz <= 0) {
		cli_error("sim", "calibrate cannot time the clock on this architecture");
		return -1;
	}
	cas = host_handoff_ns(a, b, HANDOFF_CAS);
	lcas = host_handoff_ns(a, b, HANDOFF_LOAD_CAS);
	if (cas <= 0 || lcas <= 0) {
		cli_error("sim", "calibrate: the ping-pong could not run");
		return -1;
	}
	for (int d = SIM_DIST_SMT; d < SIM_DIST_NR; d++)
		p->xfer_ns[d] = cas;
	/* Ctrl-C is seen between measurements, a few seconds apart at most. */
	if (intr_pending())
		return -1;
	/*
	 * What a read does to a modified line (moves it, or leaves the owner
	 * a copy) and what an RMW on a line both cores hold costs.
	 */
	for (int tries = 1;; tries++) {
		if (host_line_probe(a, b, &probe)) {
			cli_error("sim", "calibrate: the line probe could not run");
			return -1;
		}
		if (probe.dirty_read > 0)
			break;
		if (intr_pending())
			return -1;
		/* A busy host can hide the transfer in the medians: measure again. */
		if (tries == 3) {
			cli_error("sim",
				  "calibrate: in three tries a read of a line the other CPU had "
				  "modified took no longer than a hit: the machine is too busy "
				  "to measure");
			return -1;
		}
	}
	p->dirty_read_moves = probe.owner_reread > probe.dirty_read / 2;
	/*
	 * Over the CAS handoff, the transfer the model charges it against:
	 * on a Zen 4 guest the timed read came out at half the handoff in one
	 * CCX and equal to it across CCDs, while the upgrade stayed 0.9-1.3
	 * handoffs in both (tools/sim/profile.c, HOST-Z4).
	 */
	p->upgrade = probe.upgrade > 0 ? probe.upgrade / cas : 0;
	if (p->upgrade > 4)
		p->upgrade = 4;
	/*
	 * How long the line stays with a CPU that has just received it while
	 * the other's request waits, over the transfer: swept up to twice it.
	 */
	for (int tries = 1;; tries++) {
		const char *why;

		if (host_hold_probe(a, b, 2 * cas, &hold)) {
			cli_error("sim", "calibrate: the hold probe could not run");
			return -1;
		}
		/*
		 * A clean sweep fails almost never at no delay and almost always
		 * at the longest (so it crosses a half: the window is found); a
		 * CPU the host took away breaks one end.
		 */
		if (hold.fail_end < 0.75)
			why = "the adding CPU did not take the line at the longest delay";
		else if (hold.fail_zero > 0.25)
			why = "the line was taken before even an immediate CAS";
		else
			break;
		if (intr_pending())
			return -1;
		if (tries == 3) {
			cli_error("sim",
				  "calibrate: in three hold probes %s (%.0f%% of CASes failed "
				  "with no delay, %.0f%% at twice a transfer): the machine is too "
				  "busy to measure",
				  why, 100 * hold.fail_zero, 100 * hold.fail_end);
			return -1;
		}
	}
	/* A profile's hold is at most a transfer (the log says if it was cut). */
	p->hold = hold.window / cas > 1 ? 1 : hold.window / cas;
	if (intr_pending())
		return -1;
	/*
	 * The spread of that read, over its time: how a transfer's time
	 * varies. A clock too coarse to show it leaves the figure every
	 * built-in profile takes (HOST-J in tools/sim/profile.c).
	 */
	if (probe.xfer_sd >= 0)
		p->xfer_jitter = probe.xfer_sd / probe.dirty_read;
	else
		p->xfer_jitter = sim_profile_find("spr")->xfer_jitter;
	if (p->xfer_jitter > 0.5)
		p->xfer_jitter = 0.5;
	l2 = (double)host_l2_bytes(2u << 20);
	/* Per level; the model hides L1 and L2 hits in the core's time. */
	l1_ns = host_chase_ns(16u << 10);
	l2_ns = host_chase_ns((size_t)(l2 / 2));
	p->llc_ns = host_chase_ns((size_t)(4 * l2));
	p->mem_ns = host_chase_ns(1u << 30);
	p->atomic_ns = host_atomic_ns();
	p->pause_ns = host_pause_ns();
	if (intr_pending())
		return -1;
	p->corun_speed = host_corun_speed(a, b);
	if (p->corun_speed <= 0) {
		cli_error("sim", "calibrate: the co-run measurement could not run");
		return -1;
	}
	if (p->corun_speed > 1)
		p->corun_speed = 1;
	if (intr_pending())
		return -1;
	{
		double v[5];

		for (int i = 0; i < 5; i++)
			v[i] = bench_host_syscall_ns();
		qsort(v, 5, sizeof(*v), cmp_double);
		p->syscall_ns = v[2];
	}
	/* x86 cores of the host's generation: Golden Cove's 114 (INTEL-AD21 in profile.c). */
	p->store_buffer = 114;
	p->line_bytes = host_line_bytes(64);
	p->copy_mlp = host_copy_mlp(a, b);
	if (p->copy_mlp < 1) {
		cli_error("sim", "calibrate: the copy measurement could not run");
		return -1;
	}
	if (p->copy_mlp > 64)
		p->copy_mlp = 64;
	if (intr_pending())
		return -1;
	if (log) {
		fprintf(log, "# vfslab sim calibrate: CPUs %d and %d%s\n", a, b,
			smt ? " (SMT siblings)" : "");
		fprintf(log,
			"# clock %.3f GHz (dependent adds); CAS handoff %.1f ns, load+CAS %.1f ns\n",
			p->ghz, cas, lcas);
		fprintf(log,
			"# chase: 16 KiB %.1f ns, %.0f KiB %.1f ns, %.0f KiB %.1f ns, 1 GiB %.1f ns\n",
			l1_ns, l2 / 2048, l2_ns, 4 * l2 / 1024, p->llc_ns, p->mem_ns);
		fprintf(log,
			"# line probe: a read of a line modified elsewhere %.1f ns, the owner's "
			"read after it %.1f ns (%s);\n#   RMW on a line both hold %.1f ns (upgrade "
			"%.2f of a transfer), RMW right after a read that moved the line %.1f ns\n",
			probe.dirty_read, probe.owner_reread,
			p->dirty_read_moves ? "the line moved" : "the owner kept a copy",
			probe.upgrade, p->upgrade, probe.moved_rmw);
		fprintf(log,
			"# hold probe: with the other CPU's request waiting, a line just received "
			"is taken %.1f ns later\n#   (%.2f of a transfer; a quarter of the CASes "
			"after %.1f ns, three quarters after %.1f)%s\n",
			hold.window, p->hold, hold.q1, hold.q3,
			hold.window > cas ? "; longer than a transfer, cut to one" : "");
		if (probe.xfer_sd >= 0)
			fprintf(log,
				"# a transfer's time varies by %.1f ns (standard deviation, from "
				"the interquartile range, the clock's own spread taken out): %.3f "
				"of it\n",
				probe.xfer_sd, p->xfer_jitter);
		else
			fprintf(log,
				"# a transfer's spread is not measured: the clock moves in "
				"%.1f ns steps; %.3f of it, the built-in profiles' figure\n",
				probe.clock_step, p->xfer_jitter);
		fprintf(log,
			"# a copy of lines the other CPU has just written overlaps %.1f misses "
			"(independent loads against a dependent chase)\n",
			p->copy_mlp);
		fprintf(log, "# lock xadd %.2f ns; pause %.2f ns; getppid %.1f ns\n", p->atomic_ns,
			p->pause_ns, p->syscall_ns);
		fprintf(log, "# a private loop on both CPUs runs at %.2f of its speed alone\n",
			p->corun_speed);
	}
	p->cpi = measure_cpi(p, o, log);
	if (p->cpi <= 0) {
		if (!intr_pending())
			cli_error("sim", "calibrate: the workloads could not be timed");
		return -1;
	}
	return 0;
}

static void calibrate_usage(FILE *f)
{
	fprintf(f,
		"usage: vfslab sim calibrate [--out FILE] [--workloads LIST] [--interval S] "
		"[--rounds N]\n\n"
		"Measures this machine for the simulator and writes a profile that\n"
		"`vfslab sim --profile FILE` loads: the clock (a chain of dependent adds), the\n"
		"core-to-core transfer (a compare-and-swap ping-pong on one line between two\n"
		"pinned threads), a line probe (does a read of a line the other CPU holds\n"
		"modified move it; what a locked add on a line both hold costs, the upgrade),\n"
		"how long a line just received stays while the other CPU's request waits (the\n"
		"hold: a load, a delay and a CAS against a CPU adding without pause),\n"
		"how many misses a copy keeps in flight, load latency beyond the L2 and at\n"
		"1 GiB (pointer chases), an uncontended locked add, PAUSE, getppid() (syscall\n"
		"entry and exit), the coherence line size, and each workload's cycles per\n"
		"instruction (its native time on one CPU, less what the simulator charges\n"
		"besides instructions there - atomics, fences, misses - at this profile's\n"
		"prices, against the instructions it counts), written as cpi.NAME lines the\n"
		"simulator uses for that workload; their median is the profile's cpi. Run it\n"
		"on a quiet machine.\n\n"
		"  --out FILE         write the profile there (default: standard output)\n"
		"  --workloads LIST   the workloads for the cycles per instruction (default all)\n"
		"  --interval S       seconds per bench sample (default 0.2)\n"
		"  --rounds N         samples per workload (default 3)\n");
}

int sim_calibrate_cmd(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "out", required_argument, NULL, 'o' },
		{ "workloads", required_argument, NULL, 'w' },
		{ "interval", required_argument, NULL, 'i' },
		{ "rounds", required_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct calib_opts co = { .interval = 0.2, .rounds = 3 };
	const char *out = NULL;
	char tmp[PATH_MAX];
	struct sim_profile p;
	FILE *f = stdout;
	int opt;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		unsigned long long n;

		switch (opt) {
		case 'o':
			out = optarg;
			break;
		case 'w':
			co.workloads = optarg;
			break;
		case 'i':
			if (cli_double("sim", "--interval", optarg, 0.01, 60, &co.interval))
				return 2;
			break;
		case 'r':
			if (cli_ull("sim", "--rounds", optarg, 1, 100, &n))
				return 2;
			co.rounds = (int)n;
			break;
		case 'h':
			calibrate_usage(stdout);
			return 0;
		default:
			calibrate_usage(stderr);
			return 2;
		}
	}
	if (optind != argc) {
		calibrate_usage(stderr);
		return 2;
	}
	if (co.workloads) {
		for (const char *w = co.workloads; w && *w;) {
			char name[64];
			const char *e = strchr(w, ',');
			size_t len = e ? (size_t)(e - w) : strlen(w);

			snprintf(name, sizeof(name), "%.*s", (int)len, w);
			if (!workload_find(name)) {
				cli_error("sim", "--workloads: unknown workload '%s'", name);
				return 2;
			}
			w = e ? e + 1 : NULL;
		}
	}
	if (cli_parse_only)
		return 0;
	/*
	 * Into a file beside --out, renamed over it when complete: an old
	 * profile survives. Ctrl-C is caught first, so once that file exists
	 * an interrupt removes it.
	 */
	intr_catch();
	if (out) {
		mode_t mask = umask(0);
		int fd;

		umask(mask);
		if (snprintf(tmp, sizeof(tmp), "%s.XXXXXX", out) >= (int)sizeof(tmp) ||
		    (fd = mkstemp(tmp)) < 0 || !(f = fdopen(fd, "w"))) {
			cli_error("sim", "--out: cannot write %s: %s", out, strerror(errno));
			return 1;
		}
		fchmod(fd, 0666 & ~mask);
	}
	if (sim_calibrate(&p, &co, f) || intr_pending()) {
		if (out) {
			fclose(f);
			unlink(tmp);
		}
		if (!intr_pending())
			return 1;
		fprintf(stderr, "vfslab sim: INTERRUPTED by %s: no profile written\n", intr_name());
		return intr_status();
	}
	sim_profile_write(f, &p);
	if (fflush(f) || ferror(f) || (out && (fclose(f) || rename(tmp, out)))) {
		cli_error("sim", "cannot write the profile %s: %s", out ? out : "",
			  strerror(errno));
		if (out)
			unlink(tmp);
		return 1;
	}
	return 0;
}
