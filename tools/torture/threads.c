// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The threaded run: the workers, the stop-the-world pauses that check the
 * invariants, and the first failure they report.
 */
#include "tools/torture/engine.h"

double torture_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

void torture_report(struct run *r, int kind, const struct op *op, long index, const char *fmt, ...)
{
	struct failure *f = &r->shm->fail;
	va_list ap;

	__atomic_store_n(&r->stop, 1, __ATOMIC_RELAXED);
	if (__atomic_exchange_n(&r->shm->claimed, 1, __ATOMIC_ACQ_REL))
		return;
	memset(f, 0, sizeof(*f));
	f->kind = kind;
	f->op_kind = op ? op->kind : -1;
	f->thread = op ? op->thread : -1;
	f->index = index;
	va_start(ap, fmt);
	vsnprintf(f->msg, sizeof(f->msg), fmt, ap);
	va_end(ap);
	__atomic_store_n(&r->shm->result, RES_FAIL, __ATOMIC_RELEASE);
}

static void park(struct run *r)
{
	pthread_mutex_lock(&r->lock);
	r->parked++;
	pthread_cond_broadcast(&r->cond);
	while (r->pause)
		pthread_cond_wait(&r->cond, &r->lock);
	r->parked--;
	pthread_mutex_unlock(&r->lock);
}

/*
 * Stop the world: every other worker parks between two ops (or has left),
 * so no syscall is in flight and the exact checkers may run.
 */
static void world_check(struct run *r, struct worker *w)
{
	char msg[1024];
	long index = (long)w->done - 1;

	pthread_mutex_lock(&r->lock);
	if (r->pause) {
		pthread_mutex_unlock(&r->lock);
		park(r);
		return;
	}
	/* Workers peek at pause without the lock between ops. */
	__atomic_store_n(&r->pause, true, __ATOMIC_RELEASE);
	while (r->parked + 1 < r->active)
		pthread_cond_wait(&r->cond, &r->lock);
	pthread_mutex_unlock(&r->lock);

	/* The slab counts need an rcu_barrier() (milliseconds): one pause in ten. */
	if (vfs_check_tree(r->vfs, msg, sizeof(msg)) ||
	    (r->checks % 10 == 9 && vfs_check_slabs(r->vfs, msg, sizeof(msg))))
		torture_report(
			r, FK_INVARIANT, NULL, index,
			"stop-the-world check after %lu ops (in T%u's op %ld; the one after %lu ops "
			"passed): %s",
			r->global_ops, w->id, index, r->last_good, msg);
	else
		r->last_good = r->global_ops;
	r->checks++;

	pthread_mutex_lock(&r->lock);
	__atomic_store_n(&r->pause, false, __ATOMIC_RELEASE);
	pthread_cond_broadcast(&r->cond);
	pthread_mutex_unlock(&r->lock);
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	struct run *r = w->run;
	struct op op;
	long ret;
	int slot;

	vfs_thread_enter();
	for (;;) {
		if (__atomic_load_n(&r->stop, __ATOMIC_RELAXED))
			break;
		if (__atomic_load_n(&r->pause, __ATOMIC_ACQUIRE))
			park(r);
		if (w->done >= w->quota)
			break;
		if (r->deadline && !(w->done & 63) && torture_now() >= r->deadline)
			break;
		if (__atomic_load_n(&r->shm->interrupted, __ATOMIC_RELAXED) || intr_pending())
			break;
		torture_gen_op(&w->rng, w->id, &op);
		__atomic_store_n(&r->shm->started[w->id], w->done + 1, __ATOMIC_RELAXED);
		if (torture_exec_op(r, &op, (long)w->done, &ret, &slot))
			break;
		if (ret == RET_SKIP)
			w->skipped++;
		w->done++;
		if (r->tt->check_every &&
		    __atomic_add_fetch(&r->global_ops, 1, __ATOMIC_RELAXED) % r->tt->check_every ==
			    0)
			world_check(r, w);
	}
	/* Exit like a process would; a checker waits while we are still active. */
	if (!__atomic_load_n(&r->stop, __ATOMIC_RELAXED))
		for (int i = 0; i < NSLOTS; i++)
			if (w->slot[i]) {
				task_exit(w->slot[i]);
				w->slot[i] = NULL;
			}
	pthread_mutex_lock(&r->lock);
	r->active--;
	pthread_cond_broadcast(&r->cond);
	pthread_mutex_unlock(&r->lock);
	vfs_thread_exit();
	return NULL;
}

struct vfs *torture_child_vfs(const struct torture *tt)
{
	char err[512];
	struct vfs *v;

	vfs_thread_enter();
	v = vfs_new(&tt->cfg, err, sizeof(err));
	if (!v)
		fprintf(stderr, "vfslab torture: %s\n", err);
	return v;
}

static void print_stats(const struct run *r, double secs)
{
	unsigned long ok[OP_NR] = { 0 }, err[OP_NR] = { 0 }, total = 0, skipped = 0;

	for (unsigned int k = 0; k < r->tt->ntasks; k++) {
		for (int i = 0; i < OP_NR; i++) {
			ok[i] += r->w[k].ok[i];
			err[i] += r->w[k].err[i];
		}
		total += r->w[k].done;
		skipped += r->w[k].skipped;
	}
	printf("%lu ops in %.2f s (%.0f ops/s), %lu skipped (no task or slot), %lu "
	       "stop-the-world checks\n",
	       total, secs, secs > 0 ? total / secs : 0.0, skipped, r->checks);
	printf("ops per task:");
	for (unsigned int k = 0; k < r->tt->ntasks; k++)
		printf(" T%u %lu", k, r->w[k].done);
	printf("\nsucceeded/failed:");
	for (int i = 0; i < OP_NR_RANDOM; i++)
		printf("%s%s %lu/%lu", i % 6 ? ", " : "\n  ", torture_ops[i].name, ok[i], err[i]);
	printf("\n");
	if (!r->tt->verbose)
		return;
	printf("errnos:\n");
	for (int i = 0; i < OP_NR_RANDOM; i++) {
		printf("  %-16s", torture_ops[i].name);
		for (int e = 1; e < 134; e++) {
			unsigned long n = 0;

			for (unsigned int k = 0; k < r->tt->ntasks; k++)
				n += r->w[k].errnos[i][e];
			if (n)
				printf(" %s %lu", sys_errno_name(e), n);
		}
		printf("\n");
	}
}

int torture_run_threaded(const struct torture *tt, struct shared *shm)
{
	static struct rss_sampler rss;
	struct op setup[SETUP_MAX];
	struct run r = { .tt = tt, .shm = shm, .threaded = true };
	size_t nsetup = torture_gen_setup(tt->ntasks, setup);
	char msg[1024];
	double t0;
	long ret, leaked;
	int slot;

	r.vfs = torture_child_vfs(tt);
	if (!r.vfs)
		return 2;
	r.warns = vfs_check_warnings();
	r.w = calloc(tt->ntasks, sizeof(*r.w));
	if (!r.w)
		return 2;
	pthread_mutex_init(&r.lock, NULL);
	pthread_cond_init(&r.cond, NULL);
	for (unsigned int k = 0; k < tt->ntasks; k++) {
		r.w[k].run = &r;
		r.w[k].id = k;
		torture_rng_init(&r.w[k].rng, tt->seed, k);
		r.w[k].quota = tt->ops ? tt->ops / tt->ntasks + (k < tt->ops % tt->ntasks) :
					 ULONG_MAX;
	}
	for (size_t i = 0; i < nsetup; i++)
		if (torture_exec_op(&r, &setup[i], -1, &ret, &slot))
			goto failed;
	if (tt->rss) {
		pthread_mutex_init(&rss.lock, NULL);
		pthread_cond_init(&rss.cond, NULL);
		rss.vfs = r.vfs;
		pthread_create(&rss.tid, NULL, torture_rss_main, &rss);
	}
	t0 = torture_now();
	if (tt->seconds)
		r.deadline = t0 + tt->seconds;
	r.active = tt->ntasks;
	for (unsigned int k = 0; k < tt->ntasks; k++)
		if (pthread_create(&r.w[k].tid, NULL, worker_main, &r.w[k])) {
			fprintf(stderr, "vfslab torture: cannot start thread %u\n", k);
			_exit(2);
		}
	for (unsigned int k = 0; k < tt->ntasks; k++)
		pthread_join(r.w[k].tid, NULL);
	if (tt->rss) {
		pthread_mutex_lock(&rss.lock);
		rss.stop = true;
		pthread_cond_signal(&rss.cond);
		pthread_mutex_unlock(&rss.lock);
		pthread_join(rss.tid, NULL);
	}
	if (r.stop)
		goto failed;
	print_stats(&r, torture_now() - t0);
	if (tt->rss)
		torture_rss_summary(&rss);

	/* Quiescence: every task exited. */
	if (vfs_check_quiescent(r.vfs, msg, sizeof(msg))) {
		torture_report(&r, FK_INVARIANT, NULL, -1, "at quiescence: %s", msg);
		goto failed;
	}
	leaked = vfs_destroy(r.vfs);
	if (leaked) {
		torture_report(&r, FK_INVARIANT, NULL, -1, "vfs_destroy() returned %ld", leaked);
		goto failed;
	}
	printf("quiescent: refcounts at baseline, slab caches hold only reachable objects, "
	       "vfs_destroy() = 0\n");
	vfs_thread_exit();
	free(r.w);
	shm->result = RES_PASS;
	return 0;
failed:
	fflush(stdout);
	fflush(stderr);
	_exit(1);
}
