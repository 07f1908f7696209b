/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Microbenchmarks of the host, for `vfslab sim calibrate`: each measures
 * one number a simulator profile needs, the way the published figures the
 * built-in profiles cite were measured (ping-pong on one line, a pointer
 * chase, a dependent chain). Each returns the best of a few runs, in ns
 * (or GHz), or a negative value when it cannot run here.
 */
#ifndef VFSLAB_TOOLS_SIMRUN_HOSTBENCH_H
#define VFSLAB_TOOLS_SIMRUN_HOSTBENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum host_handoff {
	HANDOFF_CAS, /* the waiter spins with compare-and-swap only */
	HANDOFF_LOAD_CAS, /* it spins on a plain load, then compare-and-swaps */
};

/* The median of @n samples, sorting @v in place. */
double host_median(double *v, int n);
/* The mean of @n samples less the lowest and highest 5%, sorting @v. */
double host_trimmed_mean(double *v, int n);
/*
 * The clock's step, in ticks, from @n successive TSC readings @ticks taken
 * some way apart: 1 on most machines; more where a hypervisor gives the
 * guest a TSC that moves in steps (26 ticks, 10 ns, on some Zen 4 VMs), so
 * that nearly every difference is a multiple of one step...
 */
uint64_t host_tick_step(const uint64_t *ticks, int n);
/* ...and in ns, read off this machine: 0 where no TSC can be read. */
double host_clock_step_ns(void);
/* The core clock: a chain of dependent one-cycle adds. */
double host_ghz(void);
/* One-way handoff of one line between @cpu_a and @cpu_b. */
double host_handoff_ns(int cpu_a, int cpu_b, enum host_handoff how);
/*
 * What a line's state does after a read by another core, timed one access
 * at a time between two pinned threads that take turns (ns over a timed
 * hit, trimmed means): @dirty_read, a read of a line the other core holds
 * modified; @owner_reread, that core reading the line again afterwards
 * (a hit if it kept a copy, a transfer if the line moved); @upgrade, a
 * locked RMW on a line both cores hold clean; @moved_rmw, a locked RMW by
 * the reader right after its read of a modified line (over a locked RMW on
 * a line it holds). 0, or -1 if it cannot run here.
 */
struct host_line_probe {
	double dirty_read, owner_reread, upgrade, moved_rmw;
	/*
	 * The spread of one transfer (dirty_read's), as a standard deviation;
	 * -1 where the clock's step (@clock_step, ns) is too coarse to see it.
	 */
	double xfer_sd, clock_step;
};
int host_line_probe(int cpu_a, int cpu_b, struct host_line_probe *out);
/*
 * How long a core keeps a line it has just received while another core's
 * request for it waits: @cpu_b adds to the line without pause while
 * @cpu_a loads it, runs a dependent delay and compare-and-swaps it, swept
 * over delays of 0 to @span_ns. @window: the delay at which half of the
 * CASes fail (B took the line in between), ns; @q1 and @q3: a quarter and
 * three quarters; -1 where the sweep never got there; @fail_zero and
 * @fail_end: the share of CASes that failed with no delay and at the
 * longest. 0, or -1 if it cannot run here.
 */
struct host_hold {
	double window, q1, q3;
	double fail_zero, fail_end;
};
int host_hold_probe(int cpu_a, int cpu_b, double span_ns, struct host_hold *out);
/*
 * How many transfers of lines @cpu_b has just written overlap when @cpu_a
 * reads them with independent loads (a copy), against a dependent chase
 * through the same lines: the memory-level parallelism a copy gets. -1 if
 * it cannot run.
 */
double host_copy_mlp(int cpu_a, int cpu_b);
/* A dependent load through a random cycle over @bytes (one pointer a line). */
double host_chase_ns(size_t bytes);
/* A locked RMW on a line this CPU holds (a dependent chain). */
double host_atomic_ns(void);
/*
 * How fast each of @cpu_a and @cpu_b runs private work while the other
 * does too, against alone: 1 for two cores of their own, about 0.6 for
 * SMT siblings, or what a host's CPU quota leaves.
 */
double host_corun_speed(int cpu_a, int cpu_b);
/*
 * One of host_corun_speed()'s pairs: the loop's rate alone, then on both
 * CPUs (or the other way round). 0, or -1 if it cannot run.
 */
int host_corun_pair(int cpu_a, int cpu_b, bool both_first, double *alone, double *both);
/* One cpu_relax() (PAUSE). */
double host_pause_ns(void);
/* The largest coherency line size among the caches (sysfs), or @dflt. */
unsigned int host_line_bytes(unsigned int dflt);
/* The size of one CPU's private L2 (sysfs), or @dflt. */
size_t host_l2_bytes(size_t dflt);
/* The first two CPUs this process may run on; false if it has only one. */
int host_two_cpus(int *a, int *b);

#endif /* VFSLAB_TOOLS_SIMRUN_HOSTBENCH_H */
