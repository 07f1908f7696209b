// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The benchmark runner, after will-it-scale's main.c: tasks pinned one per
 * CPU, each counting iterations on its own 256-byte slot, a warm-up round,
 * then per-interval samples. Unlike will-it-scale, every side of a
 * comparison (vfslab variants, the host kernel) is started at once and the
 * sides take turns, interval by interval, so a noisy machine disturbs them
 * alike and their ratio is measured pairwise.
 *
 * vfslab tasks are threads in this process: "processes" are tasks with
 * private fd tables (task_fork without CLONE_FILES), "threads" share one.
 * The kernel peer uses real threads or real forked processes.
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <linux/futex.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lib/atomic.h"
#include "lib/rcu.h"
#include "tools/bench/bench.h"
#include "tools/interrupt.h"

#define BATCH 16

/* One task's slot: written by its task only (will-it-scale's 256 bytes). */
struct counter {
	uint64_t iters;
	uint64_t score[2];
	uint64_t errors;
	int64_t last_error;
	int ready; /* 1: init done, -errno: init failed */
	char pad[256 - 44];
} __attribute__((aligned(256)));

/* Shared with forked kernel-peer processes. */
struct ctl {
	int active; /* the side allowed to run, or -1 */
	int stop;
};

struct side_run;

struct worker {
	struct side_run *sr;
	int id;
	pthread_t thread;
	struct sys_vfs vctx;
	struct bench_task t;
};

struct side_run {
	const struct bench_opts *o;
	const struct bench_side *side;
	int index, nr;
	struct ctl *ctl;
	struct counter *counters;
	struct vfs *vfs;
	struct task *main_task;
	struct sys_vfs main_vctx;
	struct bench_task main;
	char base[512];
	struct worker *workers;
	pid_t *pids;
	unsigned long entry_loops;
	int ncpus, cpus[1024];
};

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

double bench_host_syscall_ns(void)
{
	const int n = 200000;
	double t0 = now();

	for (int i = 0; i < n; i++)
		syscall(SYS_getppid);
	return (now() - t0) * 1e9 / n;
}

double bench_spin_per_ns(void)
{
	const unsigned long n = 20000000;
	double t0 = now();

	sys_spin(n);
	return n / ((now() - t0) * 1e9);
}

/*
 * Tasks of the sides not running sleep on ctl->active (a shared futex, so
 * forked peers wake too): a polling sleeper would steal CPU from the side
 * being measured.
 */
static void ctl_wait(int *word, int seen)
{
	syscall(SYS_futex, word, FUTEX_WAIT, seen, NULL, NULL, 0);
}

static void ctl_set(int *word, int value)
{
	__atomic_store_n(word, value, __ATOMIC_SEQ_CST);
	syscall(SYS_futex, word, FUTEX_WAKE, INT32_MAX, NULL, NULL, 0);
}

static void pin(struct side_run *sr, int id)
{
	cpu_set_t set;

	if (!sr->o->pin || !sr->ncpus)
		return;
	CPU_ZERO(&set);
	CPU_SET(sr->cpus[id % sr->ncpus], &set);
	sched_setaffinity(0, sizeof(set), &set);
}

static void task_setup(struct side_run *sr, struct worker *w)
{
	struct bench_task *t = &w->t;

	memset(t, 0, offsetof(struct bench_task, buf));
	t->sys = sr->side->kernel ? &sys_ops_host : &sys_ops_vfslab;
	t->ctx = sr->side->kernel ? NULL : &w->vctx;
	t->base = sr->base;
	t->id = w->id;
	t->nr = sr->nr;
	t->threads = !sr->o->processes;
	t->fd = -1;
	t->shared_fd = sr->main.shared_fd;
}

/* The body every task runs: init, report ready, run while its side is active. */
static void task_body(struct side_run *sr, struct worker *w)
{
	struct counter *c = &sr->counters[w->id];
	const struct workload *wl = sr->o->wl;
	struct bench_task *t = &w->t;
	long r = wl->init ? wl->init(t) : 0;

	WRITE_ONCE(c->ready, r < 0 ? (int)r : 1);
	if (r < 0)
		return;
	for (;;) {
		int active;

		while ((active = READ_ONCE(sr->ctl->active)) != sr->index) {
			if (READ_ONCE(sr->ctl->stop))
				goto out;
			ctl_wait(&sr->ctl->active, active);
		}
		wl->run(t, BATCH);
		WRITE_ONCE(c->iters, c->iters + BATCH);
		if (wl->score_names[0]) {
			WRITE_ONCE(c->score[0], t->score[0]);
			WRITE_ONCE(c->score[1], t->score[1]);
		}
	}
out:
	WRITE_ONCE(c->errors, t->errors);
	WRITE_ONCE(c->last_error, t->last_error);
	if (t->fd >= 0)
		t->sys->close(t->ctx, t->fd);
}

static void *thread_main(void *arg)
{
	struct worker *w = arg;
	struct side_run *sr = w->sr;

	pin(sr, w->id);
	if (!sr->side->kernel) {
		vfs_thread_enter();
		w->vctx.task = task_fork(sr->main_task,
					 sr->o->processes ? 0 : TASK_CLONE_FILES | TASK_CLONE_FS);
		w->vctx.entry_loops = sr->entry_loops;
		if (!w->vctx.task) {
			WRITE_ONCE(sr->counters[w->id].ready, -ENOMEM);
			vfs_thread_exit();
			return NULL;
		}
	}
	task_setup(sr, w);
	task_body(sr, w);
	if (!sr->side->kernel) {
		task_exit(w->vctx.task);
		vfs_thread_exit();
	}
	return NULL;
}

/* Wait for the side's tasks to stop (ctl->stop is set). */
static void side_teardown_tasks(struct side_run *sr)
{
	if (sr->workers) {
		for (int i = 0; i < sr->nr; i++)
			if (sr->workers[i].thread)
				pthread_join(sr->workers[i].thread, NULL);
		for (int i = 0; i < sr->nr; i++)
			sr->workers[i].thread = 0;
	}
	if (sr->pids) {
		for (int i = 0; i < sr->nr; i++)
			if (sr->pids[i] > 0)
				waitpid(sr->pids[i], NULL, 0);
		for (int i = 0; i < sr->nr; i++)
			sr->pids[i] = 0;
	}
}

static void side_teardown(struct side_run *sr)
{
	side_teardown_tasks(sr);
	if (sr->main.shared_fd >= 0 && sr->main.sys)
		sr->main.sys->close(sr->main.ctx, sr->main.shared_fd);
	if (sr->side->kernel && sr->base[0])
		intr_scratch_rm(sr->base);
	if (sr->main_task)
		task_exit(sr->main_task);
	if (sr->vfs && vfs_destroy(sr->vfs))
		fprintf(stderr, "vfslab %s: %s: objects leaked at teardown\n", sr->o->cmd,
			sr->side->label);
	free(sr->workers);
	free(sr->pids);
	if (sr->counters)
		munmap(sr->counters, sizeof(struct counter) * sr->nr);
}

static int side_setup(struct side_run *sr)
{
	char err[512];
	sigset_t mask;
	long r = 0;

	sr->main.shared_fd = -1;
	sr->counters = mmap(NULL, sizeof(struct counter) * sr->nr, PROT_READ | PROT_WRITE,
			    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sr->counters == MAP_FAILED) {
		sr->counters = NULL;
		return -ENOMEM;
	}
	if (sr->side->kernel) {
		if (mkdir(sr->base, 0755)) {
			r = -errno;
			fprintf(stderr, "vfslab %s: cannot create %s: %s\n", sr->o->cmd, sr->base,
				strerror(errno));
			sr->base[0] = '\0';
			return r;
		}
		intr_scratch_add(sr->base);
		sr->main.sys = &sys_ops_host;
	} else {
		struct vfs_config cfg = sr->side->cfg;

		/* The workload's own variant keys (dcount's fsnotify-parent=on). */
		if (sr->o->wl->vfs_variant &&
		    vfs_config_parse(&cfg, sr->o->wl->vfs_variant, err, sizeof(err))) {
			fprintf(stderr, "vfslab bench: %s: %s\n", sr->o->wl->name, err);
			return -EINVAL;
		}
		sr->vfs = vfs_new(&cfg, err, sizeof(err));
		if (!sr->vfs) {
			fprintf(stderr, "vfslab bench: %s: %s\n", sr->side->label, err);
			return -EINVAL;
		}
		sr->main_task = task_create_init(sr->vfs);
		if (!sr->main_task)
			return -ENOMEM;
		sr->main_vctx.task = sr->main_task;
		sr->main.sys = &sys_ops_vfslab;
		sr->main.ctx = &sr->main_vctx;
		/* The same directory path as the kernel side: equal walk depth. */
		for (char *p = strchr(sr->base + 1, '/');; p = strchr(p + 1, '/')) {
			if (p)
				*p = '\0';
			r = sr->main.sys->mkdir(sr->main.ctx, sr->base, 0755);
			if (p)
				*p = '/';
			if (r < 0 && r != -EEXIST)
				return r;
			if (!p)
				break;
		}
	}
	sr->main.base = sr->base;
	sr->main.nr = sr->nr;
	if (sr->o->wl->prepare) {
		r = sr->o->wl->prepare(&sr->main, sr->nr);
		if (r < 0) {
			fprintf(stderr, "vfslab bench: %s: %s prepare failed: %s\n",
				sr->side->label, sr->o->wl->name, strerror((int)-r));
			return r;
		}
	}
	sr->workers = calloc(sr->nr, sizeof(*sr->workers));
	if (!sr->workers)
		return -ENOMEM;
	for (int i = 0; i < sr->nr; i++) {
		sr->workers[i].sr = sr;
		sr->workers[i].id = i;
	}
	if (sr->side->kernel && sr->o->processes) {
		sr->pids = calloc(sr->nr, sizeof(*sr->pids));
		if (!sr->pids)
			return -ENOMEM;
		fflush(NULL);
		for (int i = 0; i < sr->nr; i++) {
			pid_t pid = fork();

			if (pid < 0)
				return -errno;
			if (!pid) {
				/* Killed by a second Ctrl-C, the runner takes its peers along. */
				prctl(PR_SET_PDEATHSIG, SIGKILL);
				pin(sr, i);
				task_setup(sr, &sr->workers[i]);
				task_body(sr, &sr->workers[i]);
				_exit(0);
			}
			sr->pids[i] = pid;
		}
		return 0;
	}
	/* Ctrl-C goes to the main thread, which sleeps between samples. */
	r = 0;
	intr_block(&mask);
	for (int i = 0; i < sr->nr && !r; i++) {
		if (pthread_create(&sr->workers[i].thread, NULL, thread_main, &sr->workers[i])) {
			sr->workers[i].thread = 0;
			r = -EAGAIN;
		}
	}
	intr_restore(&mask);
	return r;
}

static uint64_t side_iters(const struct side_run *sr)
{
	uint64_t n = 0;

	for (int i = 0; i < sr->nr; i++)
		n += READ_ONCE(sr->counters[i].iters);
	return n;
}

static uint64_t side_score(const struct side_run *sr, int k)
{
	uint64_t n = 0;

	for (int i = 0; i < sr->nr; i++)
		n += READ_ONCE(sr->counters[i].score[k]);
	return n;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(const double *v, int n)
{
	double s[BENCH_MAX_ROUNDS];

	memcpy(s, v, n * sizeof(*v));
	qsort(s, n, sizeof(*s), cmp_double);
	return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

/* Wait for every task of every side to finish init; -errno of a failure. */
static int wait_ready(struct side_run *runs, int nr_sides)
{
	double deadline = now() + 30;

	for (int s = 0; s < nr_sides; s++) {
		for (int i = 0; i < runs[s].nr; i++) {
			int r;

			while (!(r = READ_ONCE(runs[s].counters[i].ready))) {
				if (now() > deadline)
					return -ETIMEDOUT;
				if (intr_pending())
					return -EINTR;
				usleep(1000);
			}
			if (r < 0) {
				fprintf(stderr, "vfslab bench: %s: %s init of task %d failed: %s\n",
					runs[s].side->label, runs[s].o->wl->name, i, strerror(-r));
				return r;
			}
		}
	}
	return 0;
}

static int run_one(const struct bench_opts *o, int nr, struct bench_result *res,
		   unsigned long entry_loops, struct ctl *ctl, int *cpus, int ncpus)
{
	char base[512];
	struct side_run runs[BENCH_MAX_SIDES];
	double ratios[BENCH_MAX_SIDES][BENCH_MAX_ROUNDS];
	uint64_t ev[BENCH_MAX_SIDES][VFS_EV_NR] = { { 0 } };
	uint64_t ops[BENCH_MAX_SIDES] = { 0 };
	int err = 0, done = 0;

	/* One directory name, used by every side: mkdtemp picks it, then frees it. */
	snprintf(base, sizeof(base), "%s/vfslab-bench.XXXXXX", o->tmpdir);
	if (!mkdtemp(base) || rmdir(base)) {
		fprintf(stderr, "vfslab bench: cannot create a directory in %s: %s\n", o->tmpdir,
			strerror(errno));
		return -errno;
	}
	memset(runs, 0, sizeof(runs));
	WRITE_ONCE(ctl->active, -1);
	WRITE_ONCE(ctl->stop, 0);
	for (int s = 0; s < o->nr_sides && !err; s++) {
		struct side_run *sr = &runs[s];

		sr->o = o;
		sr->side = &o->sides[s];
		sr->index = s;
		sr->nr = nr;
		sr->ctl = ctl;
		sr->entry_loops = entry_loops;
		sr->ncpus = ncpus;
		memcpy(sr->cpus, cpus, sizeof(int) * ncpus);
		snprintf(sr->base, sizeof(sr->base), "%s", base);
		err = side_setup(sr);
	}
	if (!err)
		err = wait_ready(runs, o->nr_sides);
	for (int r = 0; !err && r <= o->rounds && !intr_pending(); r++) {
		for (int s = 0; s < o->nr_sides; s++) {
			uint64_t e0[VFS_EV_NR], e1[VFS_EV_NR], i0, i1, s0[2], s1[2];
			double t0, t1;

			if (o->progress)
				fprintf(stderr, "\r%s: %d task%s, %s, round %d/%d   ", o->wl->name,
					nr, nr > 1 ? "s" : "", o->sides[s].label, r, o->rounds);
			vfs_events_read(e0);
			i0 = side_iters(&runs[s]);
			s0[0] = side_score(&runs[s], 0);
			s0[1] = side_score(&runs[s], 1);
			t0 = now();
			ctl_set(&ctl->active, s);
			intr_sleep(o->interval);
			ctl_set(&ctl->active, -1);
			t1 = now();
			i1 = side_iters(&runs[s]);
			s1[0] = side_score(&runs[s], 0);
			s1[1] = side_score(&runs[s], 1);
			vfs_events_read(e1);
			if (!r || intr_pending())
				continue; /* warm-up, or a round cut short */
			res[s].samples[r - 1] = (i1 - i0) / (t1 - t0);
			for (int k = 0; k < 2; k++)
				res[s].score_samples[k][r - 1] = (s1[k] - s0[k]) / (t1 - t0);
			ops[s] += i1 - i0;
			for (int k = 0; k < VFS_EV_NR; k++)
				ev[s][k] += e1[k] - e0[k];
		}
		if (!intr_pending())
			done = r;
	}
	/* Interrupted: the rounds every side finished are the result. */
	if (!err && done < o->rounds)
		err = done ? 0 : -EINTR;
	if (o->progress)
		fprintf(stderr, "\r%*s\r", 70, "");
	WRITE_ONCE(ctl->stop, 1);
	ctl_set(&ctl->active, -2); /* wake every sleeper to see stop */
	for (int s = 0; s < o->nr_sides; s++) {
		struct bench_result *br = &res[s];

		/* Join first: tasks store their error counts as they stop. */
		side_teardown_tasks(&runs[s]);
		for (int i = 0; !err && runs[s].counters && i < nr; i++) {
			br->errors += runs[s].counters[i].errors;
			if (runs[s].counters[i].last_error)
				br->last_error = runs[s].counters[i].last_error;
		}
		side_teardown(&runs[s]);
		if (err)
			continue;
		br->side = s;
		br->tasks = nr;
		br->nr_samples = done;
		br->median = median(br->samples, done);
		for (int k = 0; k < 2; k++)
			br->score[k] = median(br->score_samples[k], done);
		br->min = br->max = br->samples[0];
		for (int r = 0; r < done; r++) {
			br->min = fmin(br->min, br->samples[r]);
			br->max = fmax(br->max, br->samples[r]);
			ratios[s][r] = res[0].samples[r] ? br->samples[r] / res[0].samples[r] : 0;
		}
		br->ratio = res[0].median ? br->median / res[0].median : 0;
		br->ratio_min = br->ratio_max = ratios[s][0];
		for (int r = 0; r < done; r++) {
			br->ratio_min = fmin(br->ratio_min, ratios[s][r]);
			br->ratio_max = fmax(br->ratio_max, ratios[s][r]);
		}
		for (int k = 0; k < VFS_EV_NR; k++)
			br->ev_per_op[k] =
				o->sides[s].kernel || !ops[s] ? 0 : (double)ev[s][k] / ops[s];
		br->oversubscribed = nr > ncpus;
	}
	return err;
}

int bench_run(const struct bench_opts *o, struct bench_result *out, int *nr_out)
{
	struct ctl *ctl =
		mmap(NULL, sizeof(*ctl), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	unsigned long entry_loops = 0;
	int cpus[1024], ncpus = 0, err = 0;
	cpu_set_t set;

	if (ctl == MAP_FAILED)
		return -1;
	if (!sched_getaffinity(0, sizeof(set), &set))
		for (int c = 0; c < CPU_SETSIZE && ncpus < 1024; c++)
			if (CPU_ISSET(c, &set))
				cpus[ncpus++] = c;
	if (o->entry_ns > 0)
		entry_loops = (unsigned long)(o->entry_ns * bench_spin_per_ns());
	/*
	 * Pinned tasks pay for their own RCU callbacks, as a kernel's CPUs do:
	 * with one shared worker a run with a CPU to spare would run them free.
	 */
	if (o->pin && (err = rcu_callbacks_per_cpu()) < 0) {
		fprintf(stderr, "vfslab bench: RCU callbacks stay on one worker thread: %s\n",
			strerror(-err));
		err = 0;
	}
	*nr_out = 0;
	vfs_thread_enter();
	for (int k = 0; k < o->nr_tasks && !err && !intr_pending(); k++) {
		err = run_one(o, o->tasks[k], out + *nr_out, entry_loops, ctl, cpus, ncpus);
		if (!err)
			*nr_out += o->nr_sides;
	}
	vfs_thread_exit();
	munmap(ctl, sizeof(*ctl));
	if (intr_pending() && (!err || err == -EINTR))
		return BENCH_INTERRUPTED;
	return err ? -1 : 0;
}
