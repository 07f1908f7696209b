// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The machine profiles. Every number below comes from a published
 * measurement, named next to it; none was chosen by looking at what the
 * seeds' scenarios then predict. Where no figure for the machine itself was
 * found, the nearest published one is used and marked PROXY, and the
 * profile's notes say so in every report.
 *
 * Sources (the short names used below):
 *  [KC-W9]   KCORES/core-to-core-latency-plus, results/"Intel Xeon W9-3475X
 *            2.2GHz 36Cores 2023-Q2 by-ReinForce-II.csv": CAS ping-pong
 *            latency per core pair on a Sapphire Rapids (Golden Cove) die.
 *            Pairs among cores 0-30: median 53.3 ns, range 36-70 ns.
 *  [KC-9754] KCORES/core-to-core-latency-plus, results/"Dual AMD EPYC 9754
 *            128-Core Processor by-fwyzard.csv" (the machine of the file_ref
 *            seed): three classes of pairs, 29-38 ns inside an 8-core CCX,
 *            103-117 ns and 196-213 ns. We read the middle class as another
 *            CCX of the same socket and the top one as the other socket
 *            (the dual Milan 7R13 cross-socket median is 197 ns in [NV]).
 *  [NV]      nviennot/core-to-core-latency README and results/ (CAS
 *            ping-pong, median per machine): dual Xeon Platinum 8375C (Ice
 *            Lake-SP) cross-socket 108 ns; hyperthread pairs: Ryzen 9 7950X
 *            (Zen 4) 5.3 ns; "HiSilicon Kunpeng 920-6426 @ 2.6GHz.csv":
 *            30-34 ns inside a 4-core cluster, 33-38 ns between clusters of
 *            one die, 73-88 ns between the two dies of the socket.
 *  [AT-ADL]  AnandTech, "The Intel 12th Gen Core i9-12900K Review", core to
 *            core page: Golden Cove SMT siblings 4.3 ns.
 *  [UOPS]    uops.info, LOCK CMPXCHG (M64, R64) on Alder Lake-P (Golden
 *            Cove): latency 19 cycles, measured throughput 19.07 cycles.
 *  [CNC-SPR] Chips and Cheese, "Sapphire Rapids: Golden Cove Hits Servers"
 *            (Xeon Platinum 8480): maximum boost clock 3.8 GHz.
 *  [INTEL-OPT] Intel 64 and IA-32 Architectures Optimization Reference
 *            Manual: Golden Cove L1D load-to-use 5 cycles; PAUSE latency of
 *            about 140 cycles since Skylake.
 *  [AMD-19H] AMD Software Optimization Guide for Family 19h (Zen 4): L1D
 *            load-to-use 4 cycles; EPYC 9754 product page: boost 3.1 GHz.
 *  [ARM-A76] Arm Cortex-A76 Software Optimization Guide: L1D load-to-use 4
 *            cycles (TaiShan v110 is a Cortex-A76-class core).
 *  [AT-ROME] AnandTech, "AMD Rome Second Generation EPYC Review", memory
 *            latency page: 128 MB full random ~122 ns (NPS1).
 *  [ORCL]    Oracle Linux blog, "Syscall latency... and some uses of
 *            speculative execution" (2023): getpid() 191 ns on Skylake-X.
 *
 * Modelling rules rather than parameters (so not separately sourced):
 *  - a clean line read from the shared cache costs the transfer latency
 *    inside the reader's cluster (a CAS ping-pong between two cores of one
 *    cluster is a round trip through that cache);
 *  - invalidating S copies costs the transfer latency to the farthest
 *    sharer (the snoops go out in parallel);
 *  - a full fence costs one locked RMW (x86 smp_mb() is a locked add).
 */
#include <string.h>

#include "lib/compiler.h"
#include "tools/sim/profile.h"

static const struct sim_profile profiles[] = {
	{
		.name = "spr",
		.machine = "2 x Xeon Platinum 8480+-like (Sapphire Rapids, 56 cores, SMT2)",
		.threads_per_core = 2,
		.cores_per_cluster = 56, /* one mesh LLC per socket */
		.clusters_per_die = 1,
		.dies_per_socket = 1,
		.sockets = 2,
		.ghz = 3.8, /* [CNC-SPR] */
		.xfer_ns = {
			[SIM_DIST_SELF] = 0,
			[SIM_DIST_SMT] = 4.3, /* [AT-ADL] */
			[SIM_DIST_CLUSTER] = 53.3, /* [KC-W9] median */
			[SIM_DIST_DIE] = 53.3,
			[SIM_DIST_SOCKET] = 53.3,
			[SIM_DIST_REMOTE] = 108, /* [NV] Ice Lake-SP 2S: PROXY */
		},
		.hit_ns = 5 / 3.8, /* [INTEL-OPT] 5 cycles at [CNC-SPR] clock */
		.llc_ns = 53.3, /* rule: in-cluster transfer */
		.mem_ns = 122, /* [AT-ROME]: PROXY */
		.atomic_ns = 19 / 3.8, /* [UOPS] 19 cycles */
		.pause_ns = 140 / 3.8, /* [INTEL-OPT] */
		.syscall_ns = 191, /* [ORCL] Skylake-X: PROXY */
		.notes = "proxies: cross-socket (Ice Lake-SP), DRAM (Rome), syscall (Skylake-X)",
	},
	{
		.name = "zen4",
		.machine = "2 x EPYC 9754 (Zen 4c Bergamo, 128 cores, 8-core CCX, SMT2)",
		.threads_per_core = 2,
		.cores_per_cluster = 8, /* a CCX: one L3 */
		.clusters_per_die = 2, /* a Zen 4c CCD holds two CCX */
		.dies_per_socket = 8,
		.sockets = 2,
		.ghz = 3.1, /* [AMD-19H] */
		.xfer_ns = {
			[SIM_DIST_SELF] = 0,
			[SIM_DIST_SMT] = 5.3, /* [NV] Zen 4 hyperthreads */
			[SIM_DIST_CLUSTER] = 32, /* [KC-9754] 29-38 ns */
			[SIM_DIST_DIE] = 110, /* [KC-9754] 103-117 ns */
			[SIM_DIST_SOCKET] = 110, /* [KC-9754] 103-117 ns */
			[SIM_DIST_REMOTE] = 204, /* [KC-9754] 196-213 ns */
		},
		.hit_ns = 4 / 3.1, /* [AMD-19H] 4 cycles */
		.llc_ns = 32, /* rule: in-cluster transfer */
		.mem_ns = 122, /* [AT-ROME]: PROXY */
		.atomic_ns = 5.3, /* [NV] SMT-sibling CAS: a locked CAS on an L1 line */
		.pause_ns = 140 / 3.1, /* [INTEL-OPT] cycles: PROXY for Zen 4 */
		.syscall_ns = 191, /* [ORCL] Skylake-X: PROXY */
		.notes = "proxies: DRAM (Rome), PAUSE (Intel cycles), syscall (Skylake-X)",
	},
	{
		.name = "kunpeng920",
		.machine = "2 x Kunpeng 920-6426 (TaiShan v110, 64 cores, 2 dies, 4-core clusters)",
		.threads_per_core = 1,
		.cores_per_cluster = 4,
		.clusters_per_die = 8,
		.dies_per_socket = 2,
		.sockets = 2,
		.ghz = 2.6, /* [NV] 920-6426 @ 2.6GHz */
		.xfer_ns = {
			[SIM_DIST_SELF] = 0,
			[SIM_DIST_SMT] = 32.5, /* no SMT */
			[SIM_DIST_CLUSTER] = 32.5, /* [NV] 30-34 ns */
			[SIM_DIST_DIE] = 36, /* [NV] 33-38 ns */
			[SIM_DIST_SOCKET] = 80, /* [NV] 73-88 ns */
			[SIM_DIST_REMOTE] = 80, /* no 2-socket figure: PROXY */
		},
		.hit_ns = 4 / 2.6, /* [ARM-A76] 4 cycles: PROXY core */
		.llc_ns = 36, /* rule: in-die transfer (the L3 is per die) */
		.mem_ns = 122, /* [AT-ROME]: PROXY */
		.atomic_ns = 19 / 2.6, /* [UOPS] x86 cycles: PROXY */
		.pause_ns = 1 / 2.6, /* arm64 cpu_relax() is one YIELD */
		.syscall_ns = 191, /* [ORCL] Skylake-X: PROXY */
		.notes = "proxies: cross-socket (= cross-die), L1 (Cortex-A76), atomics "
			 "(x86 cycles), DRAM (Rome), syscall (Skylake-X)",
	},
};

const struct sim_profile *sim_profile_all(unsigned int *nr)
{
	*nr = ARRAY_SIZE(profiles);
	return profiles;
}

const struct sim_profile *sim_profile_find(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(profiles); i++)
		if (!strcmp(profiles[i].name, name))
			return &profiles[i];
	return NULL;
}

static unsigned int cores_per_socket(const struct sim_profile *p)
{
	return p->cores_per_cluster * p->clusters_per_die * p->dies_per_socket;
}

unsigned int sim_profile_cpus(const struct sim_profile *p)
{
	return cores_per_socket(p) * p->sockets * p->threads_per_core;
}

/*
 * Linux numbers thread 0 of every core first, socket by socket, then the
 * SMT siblings. CPUs beyond the machine become extra sockets of the same
 * kind (the report says so).
 */
void sim_profile_place(const struct sim_profile *p, unsigned int cpu, struct sim_place *out)
{
	unsigned int cps = cores_per_socket(p), cores = cps * p->sockets;
	unsigned int machine = cores * p->threads_per_core;
	unsigned int extra = cpu / machine, c = cpu % machine;
	unsigned int core = c % cores;

	out->thread = c / cores;
	out->socket = core / cps + extra * p->sockets;
	core %= cps;
	out->die = core / (p->cores_per_cluster * p->clusters_per_die);
	out->cluster = core / p->cores_per_cluster;
	out->core = core;
}

enum sim_dist sim_place_dist(const struct sim_place *a, const struct sim_place *b)
{
	if (a->socket != b->socket)
		return SIM_DIST_REMOTE;
	if (a->die != b->die)
		return SIM_DIST_SOCKET;
	if (a->cluster != b->cluster)
		return SIM_DIST_DIE;
	if (a->core != b->core)
		return SIM_DIST_CLUSTER;
	return a->thread != b->thread ? SIM_DIST_SMT : SIM_DIST_SELF;
}
