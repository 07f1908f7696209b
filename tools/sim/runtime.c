// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The -fsanitize=thread runtime the simulator's copy of lib/ and vfs/ is
 * linked against (no libtsan): every load, store and atomic of the VFS code
 * becomes an access in the coherence model, charged to the running vCPU.
 * Accesses to a vCPU's own stack are private and free.
 *
 * The scheduling check comes before an access: an access is issued when
 * its vCPU is the earliest one, and a contended line's next user queues
 * behind it. A load reads and an atomic takes effect once the line is
 * there, after the wait for it, as a locked RMW does its work on a line it
 * owns: another CPU's RMW that is still waiting for the line has not
 * happened yet for a CAS that holds it.
 */
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "lib/arch_libc.h"
#include "lib/atomic.h"
#include "lib/compiler.h"
#include "lib/stats.h"
#include "tools/sim/sim.h"

/* A fixed wall-clock origin: 2024-01-01T00:00:00Z. */
#define SIM_EPOCH_S 1704067200ull
/* CLOCK_*_COARSE advance once per jiffy (HZ=250), as in the kernel. */
#define SIM_JIFFY_PS 4000000000ull

#define PC ((uintptr_t)__builtin_return_address(0))

static __always_inline bool on_stack(uintptr_t a)
{
	return a - sim.stack_lo < sim.stack_span;
}

static __always_inline void charge_instrs(struct sim_vcpu *v, uint64_t n)
{
	uint64_t fs;

	v->instrs += n;
	if (likely(n < SIM_INSTR_TAB)) {
		/* The same sum without a division: both remainders are under 1000 fs. */
		fs = v->instr_rem + sim.instr_cost[n].fs;
		v->clock += sim.instr_cost[n].ps + (fs >= 1000);
		v->instr_rem = fs >= 1000 ? fs - 1000 : fs;
		return;
	}
	fs = n * sim.instr_fs + v->instr_rem;
	v->clock += fs / 1000;
	v->instr_rem = fs % 1000;
}

/*
 * The C library's string and memory routines are not instrumented: count
 * them as glibc's vectorised versions run, a call's set-up and tail plus
 * one 16-byte step per 16 bytes.
 */
#define SIM_LIBC_CALL_INSTRS 10
#define SIM_LIBC_BYTES_PER_INSTR 16

/* Note a read hit for spin detection (struct sim_vcpu). */
static __always_inline void spin_track(struct sim_vcpu *v, uint64_t line)
{
	if (v->spin_dirty || (v->nspin && v->spin_lines[v->nspin - 1] == line))
		return;
	for (unsigned int i = 0; i + 1 < v->nspin; i++)
		if (v->spin_lines[i] == line)
			return;
	if (v->nspin == SIM_SPIN_LINES)
		v->spin_dirty = true;
	else
		v->spin_lines[v->nspin++] = line;
}

/* Wait until every buffered store is done (a locked RMW, a fence). */
static __always_inline void sb_drain(struct sim_vcpu *v)
{
	if (v->sb_n) {
		if (v->sb_last > v->clock)
			v->clock = v->sb_last;
		v->sb_n = 0;
	}
}

/*
 * A store that misses retires into the store buffer (x86-TSO): the vCPU
 * goes on at once while its ownership request proceeds, and stalls only
 * when the buffer is full. The line becomes ours when the request is
 * issued, as the directory then forwards later requests to us; it is
 * usable (and the store done) when the transfer completes.
 */
static void store_miss(struct sim_vcpu *v, struct coh_line *l, uintptr_t a, uintptr_t pc)
{
	uint64_t done, start;

	while (v->sb_n && v->sb[v->sb_head] <= v->clock) {
		v->sb_head = (v->sb_head + 1) % SIM_SB_MAX;
		v->sb_n--;
	}
	if (v->sb_n >= sim.sb_depth) {
		v->clock = v->sb[v->sb_head];
		v->sb_head = (v->sb_head + 1) % SIM_SB_MAX;
		v->sb_n--;
		v->sb_stalls++;
		/* Later in time now: let whoever is earlier go first. */
		if (v->clock > sim.limit) {
			sim_resched();
			l = coh_line_get(&sim.coh, a >> sim.coh.line_shift);
			if (coh_is_hit(l, v->id, COH_WRITE))
				return (void)coh_hit(&sim.coh, l, v->clock, COH_WRITE,
						     v->measuring);
		}
	}
	/*
	 * Its ownership request takes a fill buffer, as a load's miss does:
	 * with every one busy it starts when the oldest request ends.
	 */
	start = v->rfo_ring[v->rfo_next] > v->clock ? v->rfo_ring[v->rfo_next] : v->clock;
	done = coh_miss(&sim.coh, l, v->id, start, COH_WRITE, coh_line_off(&sim.coh, a), pc,
			v->measuring, v->clock, false);
	v->rfo_ring[v->rfo_next] = done;
	v->rfo_next = (v->rfo_next + 1) % sim.fill_buffers;
	/* Stores complete in program order. */
	if (done < v->sb_last)
		done = v->sb_last;
	v->sb[(v->sb_head + v->sb_n) % SIM_SB_MAX] = done;
	v->sb_n++;
	v->sb_last = done;
}

/*
 * One line, for @v at its clock. A miss on a line that is still busy with
 * earlier transfers takes the next slot in its queue and waits for it, in
 * virtual time, letting the other vCPUs run: the line's holder keeps using
 * it until then, and the access sees memory as it is when it is served.
 */
static noinline void acquire_slow(struct sim_vcpu *v, uintptr_t a, enum coh_kind kind, uintptr_t pc)
{
	struct coh *c = &sim.coh;
	uint64_t line = a >> c->line_shift, issued;
	struct coh_line *l = coh_line_get(c, line);
	bool serial, remote;

	/* A locked RMW first waits for the store buffer to drain. */
	if (kind == COH_RMW && v->sb_n) {
		sb_drain(v);
		if (v->clock > sim.limit) {
			sim_resched();
			l = coh_line_get(c, line); /* the table may have grown */
		}
	}
	issued = v->clock;
	if (likely(coh_is_hit(l, v->id, kind))) {
		v->clock = coh_hit(c, l, issued, kind, v->measuring);
		if (kind == COH_READ)
			spin_track(v, line);
		else
			v->spin_dirty = true;
		return;
	}
	if (l->ignore)
		return;
	v->spin_dirty = true;
	if (kind == COH_WRITE)
		return store_miss(v, l, a, pc);
	serial = l->owner >= 0 || kind != COH_READ;
	if (serial || l->busy_until > issued) {
		uint64_t start = issued > l->busy_until ? issued : l->busy_until;
		uint64_t est, mid, done;

		for (;;) {
			remote = l->owner >= 0 ||
				 (kind != COH_READ && l->nsharers > coh_has(l, v->id));
			est = coh_estimate(c, l, v->id, kind, start);
			/* Transfers of a line queue; clean reads only wait for them. */
			if (serial && start + est > l->busy_until)
				l->busy_until = start + est;
			/*
			 * The request reaches the CPU holding the line some time
			 * after it starts: until then that CPU still uses the
			 * line (its CAS after a load, a lock holder's retry,
			 * hits). A request that waited behind another transfer
			 * is already at the directory when that one ends, and
			 * takes the line the profile's measured hold after it
			 * (`vfslab sim calibrate`'s hold probe); one that did
			 * not wait first travels there, half a transfer. Let
			 * the holder run meanwhile.
			 */
			mid = start + (!remote	      ? 0 :
				       start > issued ? est * sim.hold_pm / 1000 :
							est / 2);
			if (mid > v->clock) {
				v->clock = mid;
				sim_pre(v);
				l = coh_line_get(c, line); /* the table may have grown */
			}
			if (coh_is_hit(l, v->id, kind) || l->served_until <= start)
				break;
			/*
			 * A transfer that took longer than its slot was reserved
			 * for (the line changed hands after the estimate) is still
			 * in flight: the directory serves us after it, from the
			 * line's state now.
			 */
			start = l->served_until;
			serial = l->owner >= 0 || kind != COH_READ;
		}
		done = coh_miss(c, l, v->id, start, kind, coh_line_off(c, a), pc, v->measuring,
				issued, true);
		v->clock = done > mid ? done : mid;
		return;
	}
	v->clock = coh_miss(c, l, v->id, issued, kind, coh_line_off(c, a), pc, v->measuring, issued,
			    false);
}

/* acquire_slow()'s common case inline: a hit, with no store buffer to drain first. */
static __always_inline void acquire(struct sim_vcpu *v, uintptr_t a, enum coh_kind kind,
				    uintptr_t pc)
{
	struct coh *c = &sim.coh;
	uint64_t line = a >> c->line_shift;

	sim.accesses++;
	if (!(kind == COH_RMW && v->sb_n)) {
		struct coh_line *l = coh_line_get(c, line);

		if (likely(coh_is_hit(l, v->id, kind))) {
			v->clock = coh_hit(c, l, v->clock, kind, v->measuring);
			if (kind == COH_READ)
				spin_track(v, line);
			else
				v->spin_dirty = true;
			return;
		}
	}
	acquire_slow(v, a, kind, pc);
}

static __always_inline void charge(struct sim_vcpu *v, uintptr_t a, unsigned int size,
				   enum coh_kind kind, uintptr_t pc)
{
	acquire(v, a, kind, pc);
	if (unlikely(coh_line_off(&sim.coh, a) + size > 1u << sim.coh.line_shift))
		acquire(v, a + size - 1, kind, pc);
}

static __always_inline void access1(const volatile void *p, unsigned int size, enum coh_kind kind,
				    uintptr_t pc)
{
	struct sim_vcpu *v = vfslab_sim_cur;
	uintptr_t a = (uintptr_t)p;

	if (!v || on_stack(a))
		return;
	sim_pre(v);
	charge(v, a, size, kind, pc);
}

/*
 * One charge per line: wide copies move a line per instruction or two.
 * A copy's loads do not depend on each other, so a core has many of their
 * misses in flight at once (`vfslab sim calibrate` measures how many): after
 * the first line, each miss costs its share of the overlap. The vCPU's clock
 * is set back for it, by less than one miss, after the line's state changed.
 */
static void range(struct sim_vcpu *v, const void *p, size_t n, enum coh_kind kind, uintptr_t pc)
{
	uintptr_t a = (uintptr_t)p, end = a + n, bytes = (uintptr_t)1 << sim.coh.line_shift;

	charge_instrs(v, SIM_LIBC_CALL_INSTRS / 2 + n / SIM_LIBC_BYTES_PER_INSTR);
	if (!n || on_stack(a))
		return;
	for (uintptr_t l = a & ~(bytes - 1); l < end; l += bytes) {
		uint64_t before = v->clock;

		acquire(v, l < a ? a : l, kind, pc);
		if (kind == COH_READ && l > a && v->clock > before)
			v->clock = before + (uint64_t)((v->clock - before) / sim.copy_mlp);
	}
}

static void access_range(const void *p, size_t n, enum coh_kind kind, uintptr_t pc)
{
	struct sim_vcpu *v = vfslab_sim_cur;

	if (!v)
		return;
	sim_pre(v);
	range(v, p, n, kind, pc);
}

/* The instrumentation ABI (llvm's tsan_interface.h, which gcc follows). */
void __tsan_init(void);
void __tsan_func_entry(void *pc);
void __tsan_func_exit(void);
void __tsan_read_range(void *addr, unsigned long size);
void __tsan_write_range(void *addr, unsigned long size);
void __tsan_atomic_thread_fence(int mo);
void __tsan_atomic_signal_fence(int mo);

void __tsan_init(void)
{
}

void __tsan_func_entry(void *pc)
{
	(void)pc;
}

void __tsan_func_exit(void)
{
}

#define SIM_PLAIN(n)                                \
	void __tsan_read##n(void *addr);            \
	void __tsan_write##n(void *addr);           \
	void __tsan_unaligned_read##n(void *addr);  \
	void __tsan_unaligned_write##n(void *addr); \
	void __tsan_volatile_read##n(void *addr);   \
	void __tsan_volatile_write##n(void *addr);  \
	void __tsan_read##n(void *addr)             \
	{                                           \
		access1(addr, n, COH_READ, PC);     \
	}                                           \
	void __tsan_write##n(void *addr)            \
	{                                           \
		access1(addr, n, COH_WRITE, PC);    \
	}                                           \
	void __tsan_unaligned_read##n(void *addr)   \
	{                                           \
		access1(addr, n, COH_READ, PC);     \
	}                                           \
	void __tsan_unaligned_write##n(void *addr)  \
	{                                           \
		access1(addr, n, COH_WRITE, PC);    \
	}                                           \
	void __tsan_volatile_read##n(void *addr)    \
	{                                           \
		access1(addr, n, COH_READ, PC);     \
	}                                           \
	void __tsan_volatile_write##n(void *addr)   \
	{                                           \
		access1(addr, n, COH_WRITE, PC);    \
	}

SIM_PLAIN(1)
SIM_PLAIN(2)
SIM_PLAIN(4)
SIM_PLAIN(8)
SIM_PLAIN(16)

void __tsan_read_range(void *addr, unsigned long size)
{
	access_range(addr, size, COH_READ, PC);
}

void __tsan_write_range(void *addr, unsigned long size)
{
	access_range(addr, size, COH_WRITE, PC);
}

/*
 * Atomics: the check, the charge (which waits for the line, letting
 * earlier vCPUs run), then the operation itself (the host thread runs one
 * vCPU at a time, so it is atomic). A failed compare-exchange still takes
 * the line exclusively, as LOCK CMPXCHG does.
 */
#define SIM_RMW(bits, T, name, expr)                                       \
	T __tsan_atomic##bits##_##name(volatile T *a, T v, int mo);        \
	T __tsan_atomic##bits##_##name(volatile T *a, T v, int mo)         \
	{                                                                  \
		struct sim_vcpu *cpu = vfslab_sim_cur;                     \
		T old;                                                     \
                                                                           \
		(void)mo;                                                  \
		if (cpu && !on_stack((uintptr_t)a)) {                      \
			sim_pre(cpu);                                      \
			charge(cpu, (uintptr_t)a, sizeof(T), COH_RMW, PC); \
		}                                                          \
		old = *a;                                                  \
		*a = (T)(expr);                                            \
		return old;                                                \
	}

#define SIM_ATOMICS(bits, T)                                                                       \
	T __tsan_atomic##bits##_load(const volatile T *a, int mo);                                 \
	void __tsan_atomic##bits##_store(volatile T *a, T v, int mo);                              \
	int __tsan_atomic##bits##_compare_exchange_strong(volatile T *a, T *c, T v, int mo,        \
							  int fmo);                                \
	int __tsan_atomic##bits##_compare_exchange_weak(volatile T *a, T *c, T v, int mo,          \
							int fmo);                                  \
	T __tsan_atomic##bits##_compare_exchange_val(volatile T *a, T c, T v, int mo, int fmo);    \
	T __tsan_atomic##bits##_load(const volatile T *a, int mo)                                  \
	{                                                                                          \
		(void)mo;                                                                          \
		access1(a, sizeof(T), COH_READ, PC);                                               \
		return *a;                                                                         \
	}                                                                                          \
	void __tsan_atomic##bits##_store(volatile T *a, T v, int mo)                               \
	{                                                                                          \
		(void)mo;                                                                          \
		access1(a, sizeof(T), COH_WRITE, PC);                                              \
		*a = v;                                                                            \
	}                                                                                          \
	SIM_RMW(bits, T, exchange, v)                                                              \
	SIM_RMW(bits, T, fetch_add, old + v)                                                       \
	SIM_RMW(bits, T, fetch_sub, old - v)                                                       \
	SIM_RMW(bits, T, fetch_and, old &v)                                                        \
	SIM_RMW(bits, T, fetch_or, old | v)                                                        \
	SIM_RMW(bits, T, fetch_xor, old ^ v)                                                       \
	SIM_RMW(bits, T, fetch_nand, ~(old & v))                                                   \
	static int cas##bits(volatile T *a, T *c, T v, uintptr_t pc)                               \
	{                                                                                          \
		struct sim_vcpu *cpu = vfslab_sim_cur;                                             \
		bool local = !cpu || on_stack((uintptr_t)a);                                       \
		int ok;                                                                            \
                                                                                                   \
		if (!local) {                                                                      \
			sim_pre(cpu);                                                              \
			charge(cpu, (uintptr_t)a, sizeof(T), COH_RMW, pc);                         \
		}                                                                                  \
		ok = *a == *c;                                                                     \
		if (ok)                                                                            \
			*a = v;                                                                    \
		else                                                                               \
			*c = *a;                                                                   \
		return ok;                                                                         \
	}                                                                                          \
	int __tsan_atomic##bits##_compare_exchange_strong(volatile T *a, T *c, T v, int mo,        \
							  int fmo)                                 \
	{                                                                                          \
		(void)mo;                                                                          \
		(void)fmo;                                                                         \
		return cas##bits(a, c, v, PC);                                                     \
	}                                                                                          \
	int __tsan_atomic##bits##_compare_exchange_weak(volatile T *a, T *c, T v, int mo, int fmo) \
	{                                                                                          \
		(void)mo;                                                                          \
		(void)fmo;                                                                         \
		return cas##bits(a, c, v, PC);                                                     \
	}                                                                                          \
	T __tsan_atomic##bits##_compare_exchange_val(volatile T *a, T c, T v, int mo, int fmo)     \
	{                                                                                          \
		(void)mo;                                                                          \
		(void)fmo;                                                                         \
		cas##bits(a, &c, v, PC);                                                           \
		return c;                                                                          \
	}

SIM_ATOMICS(8, uint8_t)
SIM_ATOMICS(16, uint16_t)
SIM_ATOMICS(32, uint32_t)
SIM_ATOMICS(64, uint64_t)

/* mo: 5 is __ATOMIC_SEQ_CST; x86's smp_mb() is a locked add: it drains the store buffer. */
void __tsan_atomic_thread_fence(int mo)
{
	struct sim_vcpu *v = vfslab_sim_cur;

	if (mo != __ATOMIC_SEQ_CST || !v)
		return;
	sb_drain(v);
	sim_charge(sim.fence_ps);
}

void __tsan_atomic_signal_fence(int mo)
{
	(void)mo;
}

/* A spin iteration longer than this is not a plain spin: never park it. */
#define SIM_SPIN_MAX_PS 10000000

/*
 * lib/arch.h's cpu_relax(): a PAUSE. If the iteration that ends here only
 * re-read lines this vCPU holds, the next ones would read the same values
 * until another CPU writes one of them: park until then (the wake-up puts
 * the vCPU at the first iteration that would have seen the write). A loop
 * that counts its iterations (the mutex's spins before it yields) counts
 * the parked ones as one.
 */
void arch_cpu_relax(void)
{
	struct sim_vcpu *v = vfslab_sim_cur;
	bool spin;
	uint64_t period;

	if (!v)
		return;
	sim_pre(v);
	spin = !v->spin_dirty && v->nspin;
	/*
	 * sim_pre() may have let other vCPUs run: if one of them wrote a
	 * line this iteration read, our copy is gone and the value it read
	 * is stale. Parking now would wait for a write that already came
	 * (an MCS waiter's node is written exactly once). Go round again.
	 */
	for (unsigned int i = 0; spin && i < v->nspin; i++) {
		struct coh_line *l = coh_line_find(&sim.coh, v->spin_lines[i]);

		if (l && !coh_is_hit(l, v->id, COH_READ))
			spin = false;
	}
	v->clock += sim.pause_ps;
	period = v->clock - v->relax_clock;
	v->relax_clock = v->clock;
	if (spin && period && period < SIM_SPIN_MAX_PS) {
		v->park_clock = v->clock;
		v->park_period = period;
		sim_park();
	}
	v->nspin = 0;
	v->spin_dirty = false;
}

/* lib/arch.h's cpu_yield(): a sched_yield() system call. */
void cpu_yield(void)
{
	struct sim_vcpu *v = vfslab_sim_cur;

	if (v)
		v->spin_dirty = true;
	sim_charge(sim.syscall_ps);
}

void sim_sys_enter(void)
{
	sim_charge(sim.syscall_ps);
}

void sim_sys_exit(void)
{
	struct sim_vcpu *v = vfslab_sim_cur;

	if (v)
		sim_rcu_quiescent(v);
}

/* The C library calls of the simulated code (lib/arch_sim.h). */
void *vfslab_sim_memcpy(void *dst, const void *src, size_t n)
{
	struct sim_vcpu *v = vfslab_sim_cur;

	if (v) {
		sim_pre(v);
		range(v, src, n, COH_READ, PC);
		range(v, dst, n, COH_WRITE, PC);
	}
	return memcpy(dst, src, n);
}

void *vfslab_sim_memmove(void *dst, const void *src, size_t n)
{
	struct sim_vcpu *v = vfslab_sim_cur;

	if (v) {
		sim_pre(v);
		range(v, src, n, COH_READ, PC);
		range(v, dst, n, COH_WRITE, PC);
	}
	return memmove(dst, src, n);
}

void *vfslab_sim_memset(void *dst, int c, size_t n)
{
	access_range(dst, n, COH_WRITE, PC);
	return memset(dst, c, n);
}

int vfslab_sim_memcmp(const void *a, const void *b, size_t n)
{
	struct sim_vcpu *v = vfslab_sim_cur;

	if (v) {
		sim_pre(v);
		range(v, a, n, COH_READ, PC);
		range(v, b, n, COH_READ, PC);
	}
	return memcmp(a, b, n);
}

void *vfslab_sim_memchr(const void *s, int c, size_t n)
{
	void *r = memchr(s, c, n);

	access_range(s, r ? (size_t)((char *)r - (char *)s) + 1 : n, COH_READ, PC);
	return r;
}

size_t vfslab_sim_strlen(const char *s)
{
	size_t n = strlen(s);

	access_range(s, n + 1, COH_READ, PC);
	return n;
}

size_t vfslab_sim_strnlen(const char *s, size_t max)
{
	size_t n = strnlen(s, max);

	access_range(s, n < max ? n + 1 : n, COH_READ, PC);
	return n;
}

int vfslab_sim_strcmp(const char *a, const char *b)
{
	size_t n = 0;

	while (a[n] && a[n] == b[n])
		n++;
	access_range(a, n + 1, COH_READ, PC);
	access_range(b, n + 1, COH_READ, PC);
	return (unsigned char)a[n] - (unsigned char)b[n];
}

int vfslab_sim_strncmp(const char *a, const char *b, size_t max)
{
	size_t n = 0;

	while (n < max && a[n] && a[n] == b[n])
		n++;
	access_range(a, n < max ? n + 1 : n, COH_READ, PC);
	access_range(b, n < max ? n + 1 : n, COH_READ, PC);
	return n == max ? 0 : (unsigned char)a[n] - (unsigned char)b[n];
}

char *vfslab_sim_strchr(const char *s, int c)
{
	char *r = strchr(s, c);
	size_t n = r ? (size_t)(r - s) + 1 : strlen(s) + 1;

	access_range(s, n, COH_READ, PC);
	return r;
}

char *vfslab_sim_strcpy(char *dst, const char *src)
{
	size_t n = strlen(src) + 1;

	return vfslab_sim_memcpy(dst, src, n);
}

/* Time is the running vCPU's clock from a fixed origin, in any run. */
int vfslab_sim_clock_gettime(clockid_t clk, struct timespec *ts)
{
	uint64_t ps = sim_self ? sim_self->clock : 0;

	if (clk == CLOCK_REALTIME_COARSE || clk == CLOCK_MONOTONIC_COARSE)
		ps -= ps % SIM_JIFFY_PS;
	ts->tv_sec = (time_t)(SIM_EPOCH_S + ps / 1000000000000ull);
	ts->tv_nsec = (long)(ps % 1000000000000ull / 1000);
	return 0;
}

/*
 * The core model: every basic block of the simulated code calls this
 * first (-fsanitize-coverage=trace-pc); it costs its instructions at the
 * profile's cycles per instruction (tools/sim/blocks.c). No scheduling
 * check: time between memory accesses is private to the vCPU.
 */
void __sanitizer_cov_trace_pc(void)
{
	struct sim_vcpu *v = vfslab_sim_cur;

	if (v)
		charge_instrs(v, sim_block_instrs(PC));
}
