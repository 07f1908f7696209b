/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Machine profiles for the simulator: a topology (SMT threads, clusters that
 * share a last-level cache, dies, sockets), the core's speed on this code
 * and the latencies the coherence model charges. A profile is a small text
 * file of `key = value` lines (the built-in ones in tools/sim/profile.c are
 * written the same way, with every number's source beside it);
 * `vfslab sim calibrate` writes one for the machine it runs on.
 */
#ifndef VFSLAB_TOOLS_SIM_PROFILE_H
#define VFSLAB_TOOLS_SIM_PROFILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* How far apart two CPUs are: the closest level they share. */
enum sim_dist {
	SIM_DIST_SELF, /* the same CPU */
	SIM_DIST_SMT, /* SMT siblings: one core, one L1/L2 */
	SIM_DIST_CLUSTER, /* cores sharing a last-level cache (CCX, cluster) */
	SIM_DIST_DIE, /* the same die, another cluster */
	SIM_DIST_SOCKET, /* the same socket, another die */
	SIM_DIST_REMOTE, /* another socket */
	SIM_DIST_NR
};

#define SIM_PROFILE_WL_MAX 64

/* One workload's own cycles per instruction (`cpi.NAME = X` in a profile). */
struct sim_wl_cpi {
	char name[24];
	double cpi;
};

struct sim_profile {
	char name[32];
	char machine[160]; /* what it models, in words */
	char notes[256]; /* which figures are proxies, for the report */
	/* Topology, Linux CPU numbering: thread 0 of every core first. */
	unsigned int threads_per_core;
	unsigned int cores_per_cluster;
	unsigned int clusters_per_die;
	unsigned int dies_per_socket;
	unsigned int sockets;
	double ghz;
	/*
	 * Cycles per instruction of the VFS code between memory events: the
	 * core model charges every basic block its instruction count times
	 * this (L1 hits are hidden in it, as in an out-of-order core).
	 */
	double cpi;
	/* ns. A cache-to-cache transfer between CPUs at each distance. */
	double xfer_ns[SIM_DIST_NR];
	double llc_ns; /* a clean line from the shared cache */
	double mem_ns; /* a line nobody holds (first touch) */
	double atomic_ns; /* a locked RMW on a line already held exclusively */
	/*
	 * Taking ownership of a line this CPU already holds shared (a load,
	 * then a locked RMW on the same line): the invalidation's cost as a
	 * fraction of a transfer at the farthest sharer's distance.
	 */
	double upgrade;
	/*
	 * A read of a line another core holds modified: 1 if the line moves
	 * (the owner writes it back and keeps no copy; the reader holds it
	 * alone, clean), 0 if both keep a copy (MOESI's Owned state).
	 */
	unsigned int dirty_read_moves;
	/*
	 * How long a CPU keeps a line it has just received while another
	 * CPU's request for it waits, as a fraction of a transfer: the
	 * waiting request takes the line that long after the transfer it
	 * queued behind ends (until then the holder's accesses hit, so a load
	 * and the CAS right after it cost one transfer, not two).
	 */
	double hold;
	/*
	 * How much one transfer's time varies: its standard deviation over its
	 * mean. Each transfer draws its time around the mean with that spread,
	 * so that CPUs running the same loop do not stay in lockstep as they
	 * would on an exactly periodic machine.
	 */
	double xfer_jitter;
	/* Bytes the coherence protocol tracks as one line (64; 128 on some Arm parts). */
	unsigned int line_bytes;
	/*
	 * Misses a copy keeps in flight at once: lines another core has just
	 * written, read with independent loads, against a dependent chase.
	 */
	double copy_mlp;
	/*
	 * Each CPU's speed on its own work while others run too: 1 where
	 * every CPU has a core to itself; less where CPUs share execution
	 * (a host's quota, or SMT siblings if a profile counts them so).
	 * It stretches instruction and syscall time when more than one
	 * vCPU runs.
	 */
	double corun_speed;
	double pause_ns; /* one cpu_relax() */
	double syscall_ns; /* syscall entry plus exit */
	unsigned int store_buffer; /* entries: plain stores retire into it */
	/*
	 * Optional: a workload's own cycles per instruction, where the profile
	 * measured it (`vfslab sim calibrate` times each workload on one CPU);
	 * a workload without one runs at cpi.
	 */
	unsigned int nr_wl_cpi;
	struct sim_wl_cpi wl_cpi[SIM_PROFILE_WL_MAX];
};

/* @workload's cycles per instruction on @p: its own if measured, else cpi. */
double sim_profile_cpi(const struct sim_profile *p, const char *workload);
const struct sim_profile *sim_profile_find(const char *name);
const struct sim_profile *sim_profile_all(unsigned int *nr);
unsigned int sim_profile_cpus(const struct sim_profile *p);

/*
 * Parse a profile's text into @p. 0, or -1 with a message naming the line
 * in @err. Every key is required: a profile says where each number is from.
 */
int sim_profile_parse(struct sim_profile *p, const char *text, char *err, size_t errlen);
/* Read one from @path (see sim_profile_parse). */
int sim_profile_load(struct sim_profile *p, const char *path, char *err, size_t errlen);
/* Write @p in the same format. */
void sim_profile_write(FILE *f, const struct sim_profile *p);
/* A built-in profile by name or a file by path (a name wins). NULL after @err. */
const struct sim_profile *sim_profile_get(const char *spec, char *err, size_t errlen);

/* Where Linux would number CPU @cpu on this machine. */
struct sim_place {
	unsigned int socket, die, cluster, core, thread;
};
void sim_profile_place(const struct sim_profile *p, unsigned int cpu, struct sim_place *out);
enum sim_dist sim_place_dist(const struct sim_place *a, const struct sim_place *b);

#endif /* VFSLAB_TOOLS_SIM_PROFILE_H */
