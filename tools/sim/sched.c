// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Virtual CPUs: user-level contexts on the host thread, switched by saving
 * the callee-saved registers and the stack pointer (glibc's swapcontext
 * makes a sigprocmask system call each way, a microsecond here). The next
 * vCPU to run is always the one with the lowest (clock, id).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include <sys/mman.h>
#include <unistd.h>

#include "lib/arch.h"
#include "tools/sim/sim.h"

#if !defined(__x86_64__)
#include <ucontext.h>
#endif

struct sim sim;
struct sim_vcpu *vfslab_sim_cur;
struct sim_vcpu *sim_self = &sim_host;
/* The host thread's own lib/ context while a vCPU runs. */
static struct lib_thread host_thread;
struct sim_vcpu sim_host = { .id = SIM_MAX_CPUS, .thread = &host_thread };
struct lib_thread *(*sim_thread_new)(unsigned int cpu);
void (*sim_thread_switch)(struct lib_thread *prev, const struct lib_thread *next);

/* lib/ numbers the vCPUs and the host (lib/arch.h). */
BUILD_BUG_ON(SIM_MAX_CPUS + 1 != ARCH_NR_CPUS);
BUILD_BUG_ON(SIM_MAX_CPUS != 1 << SIM_ID_BITS);

/* A lone vCPU runs whole commands (fstest): give it a thread's stack. */
#define SIM_STACK_SIZE (256u << 10)
#define SIM_STACK_SIZE_ONE (8u << 20)

#if defined(__x86_64__)
/* sim_ctx_switch(void **save, void *load): the System V callee-saved set. */
void sim_ctx_switch(void **save, void *load);
void sim_ctx_start(void);
__asm__(".text\n"
	".globl sim_ctx_switch\n"
	".type sim_ctx_switch,@function\n"
	"sim_ctx_switch:\n"
	"	pushq %rbp\n"
	"	pushq %rbx\n"
	"	pushq %r12\n"
	"	pushq %r13\n"
	"	pushq %r14\n"
	"	pushq %r15\n"
	"	movq %rsp, (%rdi)\n"
	"	movq %rsi, %rsp\n"
	"	popq %r15\n"
	"	popq %r14\n"
	"	popq %r13\n"
	"	popq %r12\n"
	"	popq %rbx\n"
	"	popq %rbp\n"
	"	ret\n"
	".size sim_ctx_switch, .-sim_ctx_switch\n"
	".globl sim_ctx_start\n"
	".type sim_ctx_start,@function\n"
	"sim_ctx_start:\n"
	"	movq %r13, %rdi\n"
	"	callq *%r12\n"
	"	ud2\n"
	".size sim_ctx_start, .-sim_ctx_start\n");
#endif

static void vcpu_main(void *arg);

static bool before(const struct sim_vcpu *a, const struct sim_vcpu *b)
{
	return a->clock < b->clock || (a->clock == b->clock && a->id < b->id);
}

/* A run-queue key: (clock, id) order as one integer. */
static uint64_t key_of(const struct sim_vcpu *v)
{
	if (v->clock >> (64 - SIM_ID_BITS)) {
		fprintf(stderr, "vfslab sim: a virtual clock passed 10 hours\n");
		abort();
	}
	return v->clock << SIM_ID_BITS | v->id;
}

static struct sim_vcpu *heap_top(void)
{
	return &sim.vcpus[sim.heap[0] & ((1u << SIM_ID_BITS) - 1)];
}

static void heap_push(struct sim_vcpu *v)
{
	uint64_t k = key_of(v);
	unsigned int i = sim.heap_n++;

	while (i) {
		unsigned int p = (i - 1) / 2;

		if (k >= sim.heap[p])
			break;
		sim.heap[i] = sim.heap[p];
		i = p;
	}
	sim.heap[i] = k;
}

/* Put @k at the root and sift it down to its place. */
static void heap_sift_root(uint64_t k)
{
	uint64_t *h = sim.heap;
	unsigned int i = 0, n = sim.heap_n;

	for (;;) {
		unsigned int l = 2 * i + 1, m;

		if (l >= n)
			break;
		m = l + 1 < n && h[l + 1] < h[l] ? l + 1 : l;
		if (h[m] >= k)
			break;
		h[i] = h[m];
		i = m;
	}
	h[i] = k;
}

static struct sim_vcpu *heap_pop(void)
{
	struct sim_vcpu *top = heap_top();

	if (--sim.heap_n)
		heap_sift_root(sim.heap[sim.heap_n]);
	return top;
}

/* Pop the lowest and push @v in one pass (the common switch). */
static struct sim_vcpu *heap_replace(struct sim_vcpu *v)
{
	struct sim_vcpu *top = heap_top();

	heap_sift_root(key_of(v));
	return top;
}

static void set_limit(void)
{
	sim.limit = sim.heap_n ? sim.heap[0] >> SIM_ID_BITS : UINT64_MAX;
}

static void ctx_switch(struct sim_vcpu *from, void **save, struct sim_vcpu *to)
{
	vfslab_sim_cur = NULL; /* lib/'s per-thread state moves unseen */
	if (sim_thread_switch)
		sim_thread_switch(from->thread, to->thread);
	sim_self = to;
	vfslab_sim_cur = to == &sim_host ? NULL : to;
	if (to != &sim_host)
		to->state = SIM_RUNNING;
	set_limit();
	sim.switches++;
#if defined(__x86_64__)
	(void)from;
	sim_ctx_switch(save, to == &sim_host ? sim.main_sp : to->sp);
#else
	(void)save;
	swapcontext(from == &sim_host ? sim.main_ucontext : from->ucontext,
		    to == &sim_host ? sim.main_ucontext : to->ucontext);
#endif
}

static void switch_to(struct sim_vcpu *from, struct sim_vcpu *to)
{
	ctx_switch(from, from == &sim_host ? &sim.main_sp : &from->sp, to);
}

void sim_resched(void)
{
	struct sim_vcpu *cur = sim_self, *next;

	if (!sim.heap_n || before(cur, heap_top())) {
		set_limit();
		return;
	}
	cur->state = SIM_READY;
	next = heap_replace(cur);
	switch_to(cur, next);
}

/* Leave the run queue until someone pushes us back. */
static void block(void)
{
	struct sim_vcpu *cur = sim_self;

	cur->state = SIM_BLOCKED;
	if (!sim.heap_n) {
		fprintf(stderr, "vfslab sim: every virtual CPU is blocked\n");
		abort();
	}
	switch_to(cur, heap_pop());
}

/*
 * All live vCPUs meet here; they leave together at the latest arrival's
 * clock, so a measurement starts with every vCPU at the same time.
 */
void sim_barrier(void)
{
	struct sim_vcpu *cur = sim_self;
	uint64_t t = cur->clock;

	if (++sim.barrier_n < sim.live) {
		block();
		return;
	}
	sim.barrier_n = 0;
	for (unsigned int i = 0; i < sim.nr; i++)
		if (sim.vcpus[i].state == SIM_BLOCKED && sim.vcpus[i].clock > t)
			t = sim.vcpus[i].clock;
	for (unsigned int i = 0; i < sim.nr; i++) {
		struct sim_vcpu *v = &sim.vcpus[i];

		if (v->state != SIM_BLOCKED)
			continue;
		v->clock = t;
		v->state = SIM_READY;
		heap_push(v);
	}
	cur->clock = t;
	sim_resched();
}

/* Who is parked on which line (few lines at a time: the contended locks). */
struct waitq {
	uint64_t line;
	unsigned int n, cap;
	struct {
		uint32_t id, gen;
	} * e;
};

static struct {
	struct waitq *q;
	unsigned int n, cap;
} W;

static struct waitq *waitq_find(uint64_t line)
{
	for (unsigned int i = 0; i < W.n; i++)
		if (W.q[i].line == line)
			return &W.q[i];
	return NULL;
}

static void waitq_add(uint64_t line, struct sim_vcpu *v)
{
	struct waitq *q = waitq_find(line);

	if (!q) {
		if (W.n == W.cap) {
			W.cap = W.cap ? 2 * W.cap : 16;
			W.q = realloc(W.q, W.cap * sizeof(*W.q));
			if (!W.q)
				abort();
		}
		q = &W.q[W.n++];
		memset(q, 0, sizeof(*q));
		q->line = line;
	}
	if (q->n == q->cap) {
		q->cap = q->cap ? 2 * q->cap : 8;
		q->e = realloc(q->e, q->cap * sizeof(*q->e));
		if (!q->e)
			abort();
	}
	q->e[q->n].id = v->id;
	q->e[q->n].gen = v->park_gen;
	q->n++;
}

/*
 * Somebody wrote @line at @when: its parked spinners resume at the first
 * iteration of their loop that would have seen the new value.
 */
static void wake_line(uint64_t line, uint64_t when)
{
	struct waitq *q = waitq_find(line);

	if (!q)
		return;
	for (unsigned int i = 0; i < q->n; i++) {
		struct sim_vcpu *v = &sim.vcpus[q->e[i].id];
		uint64_t k = 0;

		if (v->state != SIM_PARKED || v->park_gen != q->e[i].gen)
			continue;
		if (when > v->park_clock)
			k = (when - v->park_clock + v->park_period - 1) / v->park_period;
		v->clock = v->park_clock + k * v->park_period;
		v->state = SIM_READY;
		heap_push(v);
	}
	free(q->e);
	*q = W.q[--W.n];
	if (sim.heap_n && sim.heap[0] >> SIM_ID_BITS < sim.limit)
		sim.limit = sim.heap[0] >> SIM_ID_BITS;
}

void sim_park(void)
{
	struct sim_vcpu *v = sim_self;

	v->park_gen++;
	for (unsigned int i = 0; i < v->nspin; i++) {
		struct coh_line *l = coh_line_find(&sim.coh, v->spin_lines[i]);

		if (!l)
			continue;
		l->waiters = 1;
		waitq_add(v->spin_lines[i], v);
	}
	v->state = SIM_PARKED;
	if (!sim.heap_n) {
		fprintf(stderr,
			"vfslab sim: every virtual CPU waits for a write nobody will make\n");
		abort();
	}
	switch_to(v, heap_pop());
}

void sim_charge(uint64_t ps)
{
	struct sim_vcpu *v = vfslab_sim_cur;

	if (!v)
		return;
	sim_pre(v);
	v->clock += ps;
}

static void vcpu_exit(void)
{
	struct sim_vcpu *cur = sim_self;

	cur->state = SIM_DONE;
	sim.live--;
	if (sim.barrier_n && sim.barrier_n == sim.live) {
		/* The others wait at a barrier we will never reach. */
		fprintf(stderr, "vfslab sim: a virtual CPU left while others wait at a barrier\n");
		abort();
	}
	switch_to(cur, sim.heap_n ? heap_pop() : &sim_host);
	abort(); /* never resumed */
}

static void vcpu_main(void *arg)
{
	struct sim_vcpu *v = arg;

	v->fn(v->arg);
	vcpu_exit();
}

#if !defined(__x86_64__)
static void vcpu_trampoline(unsigned int hi, unsigned int lo)
{
	vcpu_main((void *)(((uintptr_t)hi << 32) | lo));
}
#endif

static void ctx_init(struct sim_vcpu *v)
{
#if defined(__x86_64__)
	uintptr_t top = ((uintptr_t)v->stack + sim.stack_size) & ~(uintptr_t)15;
	uint64_t *sp = (uint64_t *)top;

	*--sp = (uint64_t)(uintptr_t)sim_ctx_start; /* ret target */
	*--sp = 0; /* rbp */
	*--sp = 0; /* rbx */
	*--sp = (uint64_t)(uintptr_t)vcpu_main; /* r12 */
	*--sp = (uint64_t)(uintptr_t)v; /* r13 */
	*--sp = 0; /* r14 */
	*--sp = 0; /* r15 */
	v->sp = sp;
#else
	ucontext_t *uc = v->ucontext;

	getcontext(uc);
	uc->uc_stack.ss_sp = v->stack;
	uc->uc_stack.ss_size = sim.stack_size;
	uc->uc_link = NULL;
	makecontext(uc, (void (*)(void))vcpu_trampoline, 2, (unsigned int)((uintptr_t)v >> 32),
		    (unsigned int)(uintptr_t)v);
#endif
}

/* lib/'s context of each vCPU: made once, outside any run, and kept. */
static struct lib_thread *threads[SIM_MAX_CPUS];

static struct lib_thread *thread_of(unsigned int id)
{
	if (!threads[id]) {
		threads[id] = sim_thread_new(id);
		if (!threads[id])
			abort();
	}
	return threads[id];
}

/* Outside the coherence model: the kernel's CPU number is a per-CPU read that never misses. */
int arch_cpu_id(void)
{
	return (int)sim_self->id;
}

/* The profile's coherence line: what the kernel's cache_line_size() reads from the CPU. */
unsigned int arch_cache_line_size(void)
{
	return sim.prof && sim.prof->line_bytes ? sim.prof->line_bytes : L1_CACHE_BYTES;
}

int sim_setup(const struct sim_profile *p, unsigned int nr)
{
	size_t total;
	char *stacks;

	char err[PATH_MAX + 128];

	if (!nr || nr > SIM_MAX_CPUS)
		return -1;
	if (sim_blocks_load(err, sizeof(err))) {
		fprintf(stderr, "vfslab sim: %s\n", err);
		return -1;
	}
	if (sim_arena_init())
		return -1;
	sim_teardown();
	memset(&sim, 0, sizeof(sim));
	sim.prof = p;
	sim.nr = nr;
	sim.syscall_ps = (uint64_t)(p->syscall_ns / (nr > 1 ? p->corun_speed : 1) * 1000 + 0.5);
	sim.pause_ps = (uint64_t)(p->pause_ns * 1000 + 0.5);
	sim.fence_ps = (uint64_t)(p->atomic_ns * 1000 + 0.5);
	/* With company, each CPU's own work runs at the profile's co-run speed. */
	sim.instr_fs = (uint64_t)(p->cpi / p->ghz / (nr > 1 ? p->corun_speed : 1) * 1e6 + 0.5);
	for (unsigned int n = 0; n < SIM_INSTR_TAB; n++) {
		sim.instr_cost[n].ps = n * sim.instr_fs / 1000;
		sim.instr_cost[n].fs = n * sim.instr_fs % 1000;
	}
	sim.sb_depth = p->store_buffer < SIM_SB_MAX ? p->store_buffer : SIM_SB_MAX;
	sim.hold_pm = (unsigned int)(p->hold * 1000 + 0.5);
	sim.copy_mlp = p->copy_mlp >= 1 ? p->copy_mlp : 1;
	sim.fill_buffers = (unsigned int)(sim.copy_mlp + 0.5);
	if (sim.fill_buffers > SIM_MLP_MAX)
		sim.fill_buffers = SIM_MLP_MAX;
	sim.stack_size = nr == 1 ? SIM_STACK_SIZE_ONE : SIM_STACK_SIZE;
	if (coh_init(&sim.coh, p, nr))
		return -1;
	sim.coh.wake = wake_line;
	for (unsigned int i = 0; i < W.n; i++)
		free(W.q[i].e);
	W.n = 0;
	sim.vcpus = calloc(nr, sizeof(*sim.vcpus));
	sim.heap = calloc(nr, sizeof(*sim.heap));
	total = (size_t)nr * sim.stack_size;
	stacks = mmap(NULL, total, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
	if (!sim.vcpus || !sim.heap || stacks == MAP_FAILED)
		return -1;
	sim.stack_lo = (uintptr_t)stacks;
	sim.stack_span = total;
	for (unsigned int i = 0; i < nr; i++) {
		struct sim_vcpu *v = &sim.vcpus[i];

		v->id = i;
		v->stack = stacks + (size_t)i * sim.stack_size;
		/* A guard page: an overflow faults instead of corrupting a neighbour. */
		mprotect(v->stack, (size_t)sysconf(_SC_PAGESIZE), PROT_NONE);
		if (sim_thread_new)
			v->thread = thread_of(i);
#if !defined(__x86_64__)
		v->ucontext = calloc(1, sizeof(ucontext_t));
		if (!v->ucontext)
			return -1;
#endif
	}
#if !defined(__x86_64__)
	sim.main_ucontext = calloc(1, sizeof(ucontext_t));
	if (!sim.main_ucontext)
		return -1;
#endif
	sim_rcu_reset();
	sim_arena_reset();
	return 0;
}

void sim_set_entry_ns(double ns)
{
	sim.syscall_ps = (uint64_t)(ns / (sim.nr > 1 ? sim.prof->corun_speed : 1) * 1000 + 0.5);
}

/* splitmix64: the run's seed for the transfer-time draws. */
static uint64_t splitmix(uint64_t x)
{
	return sim_mix64(x + 0x9e3779b97f4a7c15ull);
}

void sim_set_seed(uint64_t seed)
{
	sim.coh.seed = splitmix(seed);
}

void sim_stagger(uint64_t span_ps)
{
	struct sim_vcpu *v = sim_self;

	if (span_ps)
		sim_charge(splitmix(sim.coh.seed ^ (v->id + 1) * 0xd1b54a32d192ed03ull) % span_ps);
}

void sim_teardown(void)
{
	if (sim.vcpus) {
#if !defined(__x86_64__)
		for (unsigned int i = 0; i < sim.nr; i++)
			free(sim.vcpus[i].ucontext);
		free(sim.main_ucontext);
#endif
		munmap((void *)sim.stack_lo, sim.stack_span);
		coh_fini(&sim.coh);
	}
	free(sim.vcpus);
	free(sim.heap);
	memset(&sim, 0, sizeof(sim));
}

void sim_run(void (*fn)(void *arg), void **args)
{
	struct sim_vcpu *first;

	for (unsigned int i = 0; i < sim.nr; i++) {
		struct sim_vcpu *v = &sim.vcpus[i];

		v->fn = fn;
		v->arg = args[i];
		v->state = SIM_READY;
		ctx_init(v);
		heap_push(v);
	}
	sim.live = sim.nr;
	sim.running = true;
	sim_arena_set_active(true);
	first = heap_pop();
	switch_to(&sim_host, first);
	sim_arena_set_active(false);
	sim.running = false;
}
