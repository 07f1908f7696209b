// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Shrinking a failure: replay the ops that led to it and delta-debug them
 * down to a minimal sequence in the fstest language.
 */
#include "tools/torture/engine.h"

/* Failures that are "the same" while shrinking: the kind, the call, the crash site. */
static bool same_failure(const struct failure *a, const struct failure *b)
{
	if (a->kind != b->kind)
		return false;
	if (a->kind == FK_ERRNO || a->kind == FK_VALUE || a->kind == FK_INJECTED)
		return a->op_kind == b->op_kind;
	if (a->kind == FK_CRASH)
		return !strcmp(a->sig, b->sig);
	return true;
}

/* The first n ops of the replay order. */
static size_t build_list(const struct torture *tt, const unsigned long *counts, enum order order,
			 struct op *out, size_t n)
{
	static struct opstream st;
	size_t i = 0;

	torture_stream_init(&st, tt, counts, order);
	while (i < n && torture_stream_next(&st, &out[i]))
		i++;
	return i;
}

/* How often a replay of n ops runs the tree walk: every op while that is cheap. */
unsigned int torture_tree_every(size_t n)
{
	return n <= 20000 ? 1 : n <= 1000000 ? 16 : 256;
}

static int replay_list(struct sup *s, const struct op *list, size_t n, unsigned int tree_every,
		       bool print, bool destroy, struct failure *f)
{
	struct replay rp = { s->tt, list, NULL, ORDER_INTERLEAVED, n, tree_every, print, destroy };

	return torture_run_child(s, torture_replay_child, &rp, !print, f);
}

static void print_failure(const char *what, const struct failure *f)
{
	printf("%s: %s: %s\n", what, torture_fkind_names[f->kind], f->msg);
}

/* The op the threaded run failed in, regenerated from the seed. */
void torture_print_threaded_op(const struct torture *tt, unsigned int thread, unsigned long index,
			       const char *what)
{
	struct rng r;
	struct op op;
	char line[600];

	torture_rng_init(&r, tt->seed, thread);
	for (unsigned long i = 0; i <= index; i++)
		torture_gen_op(&r, thread, &op);
	torture_fmt_op(&op, line, sizeof(line));
	printf("  %s T%u op %lu: %s\n", what, thread, index, line);
}

/*
 * Delta debugging (Zeller's ddmin, complements only): drop ever smaller
 * chunks while the failure persists. A replay stops at the first failure,
 * so every success also cuts the list after the failing op.
 */
static size_t ddmin(struct sup *s, struct op *list, size_t n, size_t keep,
		    const struct failure *want, unsigned long *replays, double deadline)
{
	struct op *cand = malloc(n * sizeof(*cand));
	/* Only a failure found after the last op may need vfs_destroy() to show. */
	bool at_end = want->index >= (long)n;
	size_t parts = 2;
	struct failure f;

	if (!cand)
		return n;
	/* list[0..keep) stays: the init task and the fds 0-2 `vfslab shell` also has. */
	memcpy(cand, list, keep * sizeof(*cand));
	while (n >= keep + 2 && torture_now() < deadline && !intr_pending()) {
		size_t len = n - keep, chunk = (len + parts - 1) / parts;
		bool reduced = false;

		snprintf(s->doing, sizeof(s->doing), "shrinking, %zu ops left after %lu replays", n,
			 *replays);
		for (size_t i = 0;
		     i < parts && i * chunk < len && torture_now() < deadline && !intr_pending();
		     i++) {
			size_t lo = keep + i * chunk, hi = lo + chunk < n ? lo + chunk : n,
			       m = keep;

			for (size_t j = keep; j < n; j++)
				if (j < lo || j >= hi)
					cand[m++] = list[j];
			(*replays)++;
			if (replay_list(s, cand, m, torture_tree_every(m), false, at_end, &f) &&
			    same_failure(&f, want)) {
				/* Keep what it needed: up to the failing op, if one is to blame. */
				if (f.index >= (long)keep && (size_t)f.index < m)
					m = f.index + 1;
				memcpy(list, cand, m * sizeof(*list));
				n = m;
				parts = parts > 2 ? parts - 1 : 2;
				reduced = true;
				break;
			}
		}
		if (!reduced) {
			if (parts >= len)
				break;
			parts = parts * 2 < len ? parts * 2 : len;
		}
	}
	free(cand);
	return n;
}

int torture_shrink(struct sup *s, const struct failure *orig, const unsigned long *counts)
{
	const struct torture *tt = s->tt;
	unsigned long total = 0, replays = 1;
	double t0 = torture_now();
	bool one_task = true;
	enum order order;
	struct replay rp;
	struct failure f;
	struct op *list;
	size_t n, full, nsetup = 0;
	char desc[2048]; /* three layout paths and the rest */
	int rc;

	for (unsigned int k = 0; k < tt->ntasks; k++)
		total += counts[k];
	full = total + tt->ntasks + 3;
	/*
	 * Generated as it runs, so a long run's ops need not fit in memory;
	 * in the threads' own proportions first, as that is nearer to what
	 * they did, then task after task.
	 */
	for (order = ORDER_INTERLEAVED; order <= ORDER_SEQUENTIAL; order++) {
		printf("replaying the %lu recorded ops single-threaded, %s\n", total,
		       torture_order_names[order]);
		rp = (struct replay){ tt,    NULL, counts, order, full, torture_tree_every(full),
				      false, true };
		snprintf(s->doing, sizeof(s->doing), "replaying %lu ops single-threaded", total);
		rc = torture_run_child(s, torture_replay_child, &rp, true, &f);
		if (rc == 2)
			return 2;
		if (rc && same_failure(&f, orig))
			break;
		if (f.kind)
			print_failure("  not reproduced; the replay failed differently", &f);
		else
			printf("  not reproduced: the replay passed every check\n");
		if (tt->ntasks == 1)
			order = ORDER_SEQUENTIAL; /* one task: both orders are the same */
	}
	if (order > ORDER_SEQUENTIAL) {
		printf("NOT reproduced single-threaded: the failure only occurs concurrently.\n"
		       "  seed %" PRIu64 ", ops per task:",
		       tt->seed);
		for (unsigned int k = 0; k < tt->ntasks; k++)
			printf(" T%u %lu", k, counts[k]);
		printf("\n");
		return 1;
	}
	print_failure("reproduced", &f);
	n = f.index >= 0 && (size_t)f.index < full ? (size_t)f.index + 1 : full;
	if (n > SHRINK_MAX_OPS) {
		printf("it fails at op %zu of the replay: too many to shrink (limit %lu); rerun with "
		       "--seed %" PRIu64 " and fewer --ops\n",
		       n, SHRINK_MAX_OPS, tt->seed);
		return 1;
	}
	list = malloc(n * sizeof(*list));
	if (!list)
		return 1;
	n = build_list(tt, counts, order, list, n);
	if (tt->shrink)
		n = ddmin(s, list, n, n > SETUP_PINNED ? SETUP_PINNED : 0, &f, &replays,
			  t0 + tt->shrink_seconds);
	if (intr_pending()) {
		printf("shrinking stopped: the shortest failing list so far has %zu ops of %zu, "
		       "after %lu replays in %.1f s\n",
		       n, full, replays, torture_now() - t0);
		free(list);
		return 2;
	}
	for (size_t i = 0; i < n; i++) {
		one_task &= list[i].thread == 0;
		nsetup += list[i].kind == OP_INIT || list[i].kind == OP_SPAWN ||
			  (list[i].kind == OP_OPEN && list[i].p1 == PC_ROOT);
	}
	/* The whole spec, the torture's own defaults (mount-max) included. */
	vfs_config_describe(&tt->cfg, desc, sizeof(desc));
	printf("\nminimal sequence (seed %" PRIu64
	       "): %zu ops and %zu of set-up, of %zu, after %lu "
	       "replays in %.1f s%s.\nT<thread>.<slot> names the task; the rest is the fstest "
	       "language%s%s%s:\n",
	       tt->seed, n - nsetup, nsetup, full, replays, torture_now() - t0,
	       torture_now() - t0 >= tt->shrink_seconds ? " (stopped by --shrink-seconds)" : "",
	       one_task ? " (one task: the lines run as they are in `vfslab shell --variant '" : "",
	       one_task ? desc : "", one_task ? "'`)" : "");
	rc = replay_list(s, list, n, 1, true, true, &f);
	if (rc == 1 && (f.kind == FK_CRASH || f.kind == FK_HANG))
		printf("<-- %s\n", f.kind == FK_CRASH ? "CRASHES" : "HANGS");
	torture_echo_stderr(s);
	if (rc == 2) {
		free(list);
		return 2;
	}
	print_failure("it fails with", &f);
	free(list);
	return 1;
}
