/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Machine profiles for the simulator: a topology (SMT threads, clusters that
 * share a last-level cache, dies, sockets) and the published latencies the
 * coherence model charges. Every number is cited in tools/sim/profile.c.
 */
#ifndef VFSLAB_TOOLS_SIM_PROFILE_H
#define VFSLAB_TOOLS_SIM_PROFILE_H

#include <stdint.h>

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

struct sim_profile {
	const char *name;
	const char *machine; /* what it models, in words */
	/* Topology, Linux CPU numbering: thread 0 of every core first. */
	unsigned int threads_per_core;
	unsigned int cores_per_cluster;
	unsigned int clusters_per_die;
	unsigned int dies_per_socket;
	unsigned int sockets;
	double ghz;
	/* ns. A cache-to-cache transfer between CPUs at each distance. */
	double xfer_ns[SIM_DIST_NR];
	double hit_ns; /* a load or store that hits the private cache */
	double llc_ns; /* a clean line from the shared cache */
	double mem_ns; /* a line nobody holds (first touch) */
	double atomic_ns; /* a locked RMW on a line already held exclusively */
	double pause_ns; /* one cpu_relax() */
	double syscall_ns; /* syscall entry plus exit */
	const char *notes; /* which figures are proxies, for the report */
};

const struct sim_profile *sim_profile_find(const char *name);
const struct sim_profile *sim_profile_all(unsigned int *nr);
unsigned int sim_profile_cpus(const struct sim_profile *p);

/* Where Linux would number CPU @cpu on this machine. */
struct sim_place {
	unsigned int socket, die, cluster, core, thread;
};
void sim_profile_place(const struct sim_profile *p, unsigned int cpu, struct sim_place *out);
enum sim_dist sim_place_dist(const struct sim_place *a, const struct sim_place *b);

#endif /* VFSLAB_TOOLS_SIM_PROFILE_H */
