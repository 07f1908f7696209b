// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Replaying an op list single-threaded, task after task or interleaved, to
 * see whether a failure needs concurrency.
 */
#include "tools/torture/engine.h"

const char *const torture_order_names[] = {
	[ORDER_INTERLEAVED] = "interleaved in proportion to their progress",
	[ORDER_SEQUENTIAL] = "task after task (all of T0's, then T1's, ...)",
};

void torture_stream_init(struct opstream *st, const struct torture *tt, const unsigned long *counts,
			 enum order order)
{
	memset(st, 0, sizeof(*st));
	st->tt = tt;
	st->counts = counts;
	st->order = order;
	st->nsetup = torture_gen_setup(tt->ntasks, st->setup);
	for (unsigned int k = 0; k < tt->ntasks; k++)
		torture_rng_init(&st->rng[k], tt->seed, k);
}

bool torture_stream_next(struct opstream *st, struct op *op)
{
	int next = -1;
	double best = 2;

	if (st->i < st->nsetup) {
		*op = st->setup[st->i++];
		return true;
	}
	for (unsigned int k = 0; k < st->tt->ntasks; k++) {
		double at;

		if (st->j[k] >= st->counts[k])
			continue;
		if (st->order == ORDER_SEQUENTIAL) {
			next = k;
			break;
		}
		at = (st->j[k] + 0.5) / st->counts[k];
		if (at < best) {
			best = at;
			next = k;
		}
	}
	if (next < 0)
		return false;
	torture_gen_op(&st->rng[next], next, op);
	st->j[next]++;
	st->i++;
	return true;
}

/* The slot an op will run in (exec_op's choice), for the line printed before it runs. */
static int op_slot(const struct run *r, const struct op *op)
{
	if (op->kind == OP_INIT || op->kind == OP_SPAWN || op->thread >= r->tt->ntasks)
		return 0;
	return torture_live_slot(&r->w[op->thread], op->slot);
}

/* Half a line before the op runs, so a crash leaves the op on screen. */
static void print_op(const struct op *op, int slot)
{
	char line[600], label[16];

	torture_fmt_op(op, line, sizeof(line));
	snprintf(label, sizeof(label), "T%u.%d", op->thread, slot < 0 ? op->slot : slot);
	printf("  %-6s %-60s ", label, line);
	fflush(stdout);
}

static void print_ret(long ret, const char *mark)
{
	char e[32];

	printf("# %s%s\n", torture_ret_str(ret, e, sizeof(e)), mark);
}

int torture_run_replay(const struct replay *rp, struct shared *shm)
{
	struct run r = { .tt = rp->tt, .shm = shm };
	static struct opstream st;
	struct op cur;
	char msg[1024];
	long ret = 0;
	int slot;

	r.vfs = torture_child_vfs(rp->tt);
	if (!r.vfs)
		_exit(2);
	r.warns = vfs_check_warnings();
	r.w = calloc(rp->tt->ntasks, sizeof(*r.w));
	if (!r.w)
		_exit(2);
	for (unsigned int k = 0; k < rp->tt->ntasks; k++) {
		r.w[k].run = &r;
		r.w[k].id = k;
	}
	if (!rp->ops)
		torture_stream_init(&st, rp->tt, rp->counts, rp->order);
	for (size_t i = 0; i < rp->n; i++) {
		const struct op *op = rp->ops ? &rp->ops[i] : &cur;
		int failed;

		if (!rp->ops && !torture_stream_next(&st, &cur))
			break;

		__atomic_store_n(&shm->replay_pos, (long)i, __ATOMIC_RELAXED);
		if (rp->print)
			print_op(op, op_slot(&r, op));
		failed = torture_exec_op(&r, op, (long)i, &ret, &slot);
		if (!failed && rp->tree_every &&
		    (i % rp->tree_every == 0 || i + 1 == rp->n || op->kind == OP_EXIT) &&
		    vfs_check_tree(r.vfs, msg, sizeof(msg))) {
			torture_report(&r, FK_INVARIANT, op, (long)i, "after %s: %s",
				       torture_ops[op->kind].name, msg);
			failed = 1;
		}
		if (!failed && rp->tree_every &&
		    i % (256 * rp->tree_every) == 256 * rp->tree_every - 1 &&
		    vfs_check_slabs(r.vfs, msg, sizeof(msg))) {
			torture_report(&r, FK_INVARIANT, op, (long)i, "after %s: %s",
				       torture_ops[op->kind].name, msg);
			failed = 1;
		}
		if (rp->print)
			print_ret(ret, failed ? "   <-- FAILS" : "");
		if (failed) {
			fflush(stdout);
			_exit(0);
		}
	}
	/* Then every task exits, thread by thread, and the VFS must be at baseline. */
	__atomic_store_n(&shm->replay_pos, (long)rp->n, __ATOMIC_RELAXED);
	for (unsigned int k = 0; k < rp->tt->ntasks; k++)
		for (int i = 0; i < NSLOTS; i++)
			if (r.w[k].slot[i]) {
				task_exit(r.w[k].slot[i]);
				r.w[k].slot[i] = NULL;
			}
	if (vfs_check_quiescent(r.vfs, msg, sizeof(msg))) {
		if (rp->print)
			printf("  (all tasks exit)   <-- FAILS\n");
		torture_report(&r, FK_INVARIANT, NULL, (long)rp->n, "at quiescence: %s", msg);
		fflush(stdout);
		_exit(0);
	}
	if (!rp->destroy) {
		/* No teardown: _exit, so LeakSanitizer does not take the VFS for a leak. */
		shm->result = RES_PASS;
		fflush(stdout);
		_exit(0);
	}
	ret = vfs_destroy(r.vfs);
	if (ret) {
		torture_report(&r, FK_INVARIANT, NULL, (long)rp->n, "vfs_destroy() returned %ld",
			       ret);
		fflush(stdout);
		_exit(0);
	}
	vfs_thread_exit();
	free(r.w);
	shm->result = RES_PASS;
	return 0;
}
