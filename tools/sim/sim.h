/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The simulator's runtime: virtual CPUs run as user-level contexts on one
 * host thread, scheduled deterministically by the lowest virtual clock, and
 * every memory access of the instrumented VFS code (-fsanitize=thread
 * against the __tsan_* hooks in tools/sim/runtime.c) goes through the
 * coherence model (tools/sim/coherence.c) and costs virtual time.
 *
 * A vCPU runs until its clock passes the next-lowest vCPU's clock; the
 * check happens before each memory access, so every access is issued in
 * exact virtual-time order (on a tie the vCPU already running goes on).
 * Only the work between accesses runs ahead, and nobody else can see it.
 * Everything depends only
 * on virtual clocks and vCPU numbers: the same command gives the same
 * result on a loaded or an idle machine.
 */
#ifndef VFSLAB_TOOLS_SIM_SIM_H
#define VFSLAB_TOOLS_SIM_SIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tools/sim/coherence.h"
#include "tools/sim/profile.h"

struct lib_thread;
struct rcu_head;

#define SIM_SPIN_LINES 4
/* A run-queue key's vCPU number (SIM_MAX_CPUS is 1 << SIM_ID_BITS). */
#define SIM_ID_BITS 9
/* The deepest store buffer a profile may have. */
#define SIM_SB_MAX 256
#define SIM_MLP_MAX 64 /* profile.c bounds copy_mlp so */
/* Blocks shorter than this take their cost from a table (sim.instr_cost). */
#define SIM_INSTR_TAB 128

enum sim_state { SIM_READY, SIM_RUNNING, SIM_BLOCKED, SIM_PARKED, SIM_DONE };

struct sim_vcpu {
	void *sp; /* saved stack pointer while switched out */
	uint64_t clock; /* ps */
	unsigned int id;
	enum sim_state state;
	bool measuring; /* coherence events count for the report */
	/* The core model (tools/sim/runtime.c). */
	uint64_t instrs; /* instructions run (blocks' counts) */
	uint64_t instr_rem; /* fs not yet charged */
	/*
	 * The store buffer: when each buffered store's line is ours (in
	 * order: stores drain FIFO), oldest first.
	 */
	uint64_t sb[SIM_SB_MAX];
	unsigned int sb_head, sb_n;
	uint64_t sb_last; /* the youngest store's completion */
	uint64_t sb_stalls; /* a store found the buffer full */
	/*
	 * The fill buffers a store's ownership request takes: when each of
	 * the last copy_mlp requests ends (a new one waits for the oldest).
	 */
	uint64_t rfo_ring[SIM_MLP_MAX];
	unsigned int rfo_next;
	/*
	 * Spin detection: the lines read (all hits) since the last
	 * cpu_relax(). An iteration that only re-read lines it holds will
	 * read the same values until somebody writes one of them, so the
	 * vCPU parks until then instead of spinning (tools/sim/sched.c).
	 */
	uint64_t spin_lines[SIM_SPIN_LINES];
	unsigned int nspin;
	bool spin_dirty;
	uint64_t relax_clock; /* the previous cpu_relax() */
	uint64_t park_clock, park_period;
	uint32_t park_gen;
	/* Simulated RCU (tools/sim/rcu.c). */
	unsigned int rcu_nest;
	bool rcu_qs_needed;
	struct rcu_head *cb_wait, **cb_wait_tail;
	struct rcu_head *cb_next, **cb_next_tail;
	uint64_t cb_wait_gp, cb_next_gp;
	/* lib/'s per-thread context, kept here while it does not run (lib/arch.h). */
	struct lib_thread *thread;
	/* What it runs. */
	void (*fn)(void *arg);
	void *arg;
	char *stack;
	void *ucontext; /* only without the assembly switch */
};

struct sim {
	const struct sim_profile *prof;
	struct coh coh;
	struct sim_vcpu *vcpus;
	unsigned int nr; /* vCPUs in this run */
	unsigned int live; /* not yet done */
	/*
	 * The runnable ones, lowest (clock, id) first: each as its key,
	 * clock << SIM_ID_BITS | id (a queued vCPU's clock does not change),
	 * so that sifting compares integers in the heap, not the vCPUs'.
	 */
	uint64_t *heap;
	unsigned int heap_n;
	uint64_t limit; /* the running vCPU yields once past this */
	uint64_t syscall_ps, pause_ps, fence_ps;
	uint64_t instr_fs; /* one instruction: cpi / ghz */
	/* n instructions, for a block's n: n * instr_fs split into ps and fs. */
	struct {
		uint64_t ps, fs;
	} instr_cost[SIM_INSTR_TAB];
	unsigned int sb_depth;
	unsigned int hold_pm; /* the profile's hold, per mille of a transfer */
	double copy_mlp; /* a copy's misses in flight at once (profile.h) */
	unsigned int fill_buffers; /* the same, rounded: a store stream's requests in flight */
	void *main_sp;
	void *main_ucontext;
	uintptr_t stack_lo, stack_span;
	size_t stack_size;
	unsigned int barrier_n;
	uint64_t switches;
	uint64_t accesses; /* every simulated access, for the speed report */
	bool running;
};

extern struct sim sim;
/* The vCPU whose accesses are simulated now; NULL: not simulated. */
extern struct sim_vcpu *vfslab_sim_cur;
/* The vCPU running now (or the host pseudo-vCPU), even while ignored. */
extern struct sim_vcpu *sim_self;
extern struct sim_vcpu sim_host;

/*
 * lib/'s per-thread context (lib/arch.h): the machine makes one per vCPU,
 * outside any run, and moves the host thread's between them at each
 * switch, unseen by the model. The front end sets these to lib_thread_new
 * and lib_thread_switch, so that the machine links nothing of lib/. Unset,
 * the vCPUs share the host thread's context.
 */
extern struct lib_thread *(*sim_thread_new)(unsigned int cpu);
extern void (*sim_thread_switch)(struct lib_thread *prev, const struct lib_thread *next);

/* Set the machine up: @p, @nr vCPUs. 0 or -1. */
int sim_setup(const struct sim_profile *p, unsigned int nr);
/* The syscall entry cost, when a command sets it (--entry-ns); after sim_setup(). */
void sim_set_entry_ns(double ns);
/*
 * Choose the run's draw of transfer times (after sim_setup()): each
 * transfer takes its mean moved by the profile's xfer_jitter, drawn from
 * a hash of @seed, the line and the time; a different seed, a different
 * draw. A real machine is never exactly periodic, and one that is can
 * lock CPUs running the same loop into a phase a real one would not
 * hold. Alameldeen and Wood (HPCA 2003, "Variability in Architectural
 * Simulations of Multi-threaded Workloads") showed that one run of a
 * multi-threaded workload can land anywhere in a wide range, and that
 * perturbed runs, averaged, give the result with its spread. Still
 * deterministic: the same seed, the same run.
 */
void sim_set_seed(uint64_t seed);
/*
 * The calling vCPU waits a time drawn from the run's seed and its number,
 * below @span_ps: where each starts its loop, so the seeds vary the CPUs'
 * relative phase as well as the transfers.
 */
void sim_stagger(uint64_t span_ps);
void sim_teardown(void);
/* Create the vCPUs' contexts running @fn(@args[i]) and run them all to the end. */
void sim_run(void (*fn)(void *arg), void **args);

/* Inside a vCPU. */
void sim_resched(void);
void sim_barrier(void);
/* Park the running vCPU until one of its spin lines is written. */
void sim_park(void);
void sim_charge(uint64_t ps);
void sim_sys_enter(void);
void sim_sys_exit(void);

static inline void sim_pre(struct sim_vcpu *v)
{
	if (__builtin_expect(v->clock > sim.limit, 0))
		sim_resched();
}

/* Run @fn(@arg) with the current vCPU's accesses not simulated. */
#define SIM_IGNORED(stmt)                                  \
	do {                                               \
		struct sim_vcpu *__saved = vfslab_sim_cur; \
		vfslab_sim_cur = NULL;                     \
		stmt;                                      \
		vfslab_sim_cur = __saved;                  \
	} while (0)

/* Simulated RCU (tools/sim/rcu.c). */
void sim_rcu_reset(void);
void sim_rcu_quiescent(struct sim_vcpu *v);

/* The deterministic heap for instrumented code (tools/sim/alloc.c). */
int sim_arena_init(void);
void sim_arena_reset(void);
/* Draw where each size class starts (0: at its first slot); after sim_arena_reset(). */
void sim_arena_place(uint64_t seed);
void sim_arena_set_active(bool on);
void *sim_arena_alloc(size_t size, size_t align);
bool sim_arena_contains(const void *p);
/* Name the object holding @p (a cache name) for the contention report. */
void sim_arena_tag(const void *p, const char *tag);
/* The object holding @p: its start, its slot size and tag. false if none. */
bool sim_arena_object(uintptr_t p, uintptr_t *base, size_t *size, const char **tag, uint32_t *seq);

/* The block table (tools/sim/blocks.c). */
void __sanitizer_cov_trace_pc(void);
const char *sim_blocks_path(void);
int sim_blocks_load(char *err, size_t errlen);
uint64_t sim_blocks_unknown(void);
/* Count a block the table lacks; 1, its count. */
uint32_t sim_block_unknown(void);

/*
 * Every block's count plus one by its address in the text, a byte each (0:
 * no block there; SIM_BLOCK_BIG: a count too big for it, sim_block_big()):
 * the hook runs for every block, and neighbouring blocks share a cache line
 * of this array as they share one of code.
 */
#define SIM_BLOCK_BIG 255
extern uint8_t *sim_block_n;
extern uintptr_t sim_block_lo, sim_block_span;
uint32_t sim_block_big(uintptr_t pc);

/* The instructions of the block at @pc. */
static inline uint32_t sim_block_instrs(uintptr_t pc)
{
	uintptr_t i = pc - sim_block_lo;
	uint32_t n;

	if (__builtin_expect(i >= sim_block_span, 0))
		return sim_block_unknown();
	n = sim_block_n[i];
	if (__builtin_expect(n - 1 < SIM_BLOCK_BIG - 1, 1))
		return n - 1;
	return n ? sim_block_big(pc) : sim_block_unknown();
}

/* Code and global data addresses to names (tools/sim/symbols.c). */
const char *sim_symbol(uintptr_t pc, bool data, uintptr_t *start);

#endif /* VFSLAB_TOOLS_SIM_SIM_H */
