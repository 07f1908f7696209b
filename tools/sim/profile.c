// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The machine profiles: the built-in ones, written in the profile file
 * format (`key = value`, `#` comments), and its parser. Every number below
 * comes from a published measurement or from one vfslab made on its own
 * host with `vfslab sim calibrate`, named next to it; none was chosen by
 * looking at what the seeds' scenarios then predict. Where no figure for
 * the machine itself was found, the nearest one is used and marked PROXY,
 * and the profile's notes say so in every report.
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
 *            Manual: PAUSE latency of about 140 cycles since Skylake; the
 *            Skylake server core's store buffer has 56 entries; 64-byte
 *            cache lines.
 *  [INTEL-AD21] Intel Architecture Day 2021, Golden Cove core: 114-entry
 *            store buffer.
 *  [AMD-19H] AMD Software Optimization Guide for Family 19h: 64-entry
 *            store queue, 64-byte cache lines; EPYC 9754 product page:
 *            boost 3.1 GHz.
 *  [KP-CL]   Huawei Kunpeng performance tuning guide, "Optimizing
 *            Cacheline" (hikunpeng.com), and its lock porting guide: the
 *            Kunpeng 920's L3 cache line is 128 bytes where x86's is 64,
 *            so data 64 bytes apart still falsely share.
 *  [ARK-6248] Intel ARK, Xeon Gold 6248: 20 cores, max turbo 3.9 GHz (the
 *            f_count seed's Intel machine: 40 CPUs).
 *  [AT-ROME] AnandTech, "AMD Rome Second Generation EPYC Review", memory
 *            latency page: 128 MB full random ~122 ns (NPS1).
 *  [ORCL]    Oracle Linux blog, "Syscall latency... and some uses of
 *            speculative execution" (2023): getpid() 191 ns on Skylake-X.
 *  [ZEN3-LC] shared/research/timing-model-notes.md section 2: one-way
 *            handoff on a Zen 3 EPYC, waiter loads then CASes vs CASes only:
 *            212-247 vs 117-141 ns across CCDs (1.8x), read there as an
 *            S->M upgrade of 0.8 of a transfer after a load that left the
 *            line shared. An inference from handoff times; the zen4
 *            profile took it until [HOST-Z4] measured the line directly.
 *  [HOST-Z4] `vfslab sim calibrate` on an AMD EPYC Zen 4 (family 25 model
 *            17, Genoa) KVM guest with 2 vCPUs, 2026-12-03 18:30-19:20 UTC,
 *            ten line probes, nine in one CCX (CAS handoffs 24-36 ns),
 *            one across CCDs (110 ns): in every one a read of a line the
 *            other core held modified took the line (the owner's next
 *            read missed: 14.5-18.9 ns after reads of 12.7-18.0; across
 *            CCDs 104 after 106) and the reader's locked add right after
 *            cost 0.0-0.3 ns more than on its own line. A locked add on a
 *            line both held clean cost 0.92-1.26 of the CAS handoff timed
 *            alongside (ten runs, median 1.09; the model's transfer is
 *            the CAS handoff, as in [KC-9754]). Hold probe, twelve runs:
 *            0.40-0.81 of the CAS handoff, median 0.58. lock xadd
 *            2.01-2.40 ns at 3.56-3.67 GHz, 7.4 cycles; PAUSE 24.5-26.0
 *            ns, 90 cycles; a copy overlaps 12.9-18.0 misses, median 15.6;
 *            cycles per instruction (the median over the workloads) 0.21,
 *            0.24, 0.25, 0.26 and 0.29 in five full runs, median 0.248.
 *            The guest's clock moves in 10 ns steps, too coarse for a
 *            transfer's spread. A guest of a Genoa, not a Bergamo (Zen
 *            4c: the same core with less L3 a core).
 *  [HOST]    `vfslab sim calibrate` on this project's build machine (an
 *            Intel Xeon with AMX, Sapphire Rapids class, 2 vCPUs under KVM),
 *            2026-12-01; the calibration file is tools/sim/host.prof and
 *            the README's validation section gives the command. Its
 *            cycles per instruction come from the single-CPU time of the
 *            bench workloads natively against the instructions the
 *            simulator counts for them. Its line probe (two pinned
 *            threads taking turns, one timed access at a time) found that
 *            a read of a line the other core holds modified takes the line:
 *            the owner's next read misses, and the reader's locked RMW
 *            right after costs no more than one on its own line; and that
 *            a locked RMW on a line both cores hold clean waits as long as
 *            a transfer (upgrade 1).
 *  [HOST-J]  `vfslab sim calibrate` on the same machine, 2026-12-02 20:45
 *            UTC, four runs: the line probe's timed reads of a line the
 *            other vCPU holds modified (20,000 each) vary with a standard
 *            deviation of 3.6, 3.9, 5.1 and 8.9 ns (from the interquartile
 *            range, so the odd interrupt does not count; the spread of
 *            timed hits, the clock reads' own, taken out in quadrature) on
 *            reads of 63, 82, 83 and 92 ns (their median less a timed
 *            hit's): 0.058, 0.048, 0.062 and 0.096; 0.06, their median. No target machine's
 *            spread was found published; core-to-core tables give medians
 *            per core pair, not one pair's variation.
 *  [HOST-H]  `vfslab sim calibrate`'s hold probe on the same machine,
 *            2026-12-03 09:17-09:20 UTC, six runs: one vCPU adds to a line
 *            without pause while the other loads it, runs a dependent delay
 *            and compare-and-swaps it; half the CASes fail (the waiting
 *            request took the line first) after 23.6, 24.0, 14.1, 13.8,
 *            22.8 and 19.1 ns, against CAS handoffs of 57-70 ns measured
 *            alongside: 0.41, 0.35, 0.20, 0.22, 0.35 and 0.33 of a transfer;
 *            0.34, their median. No target machine's figure was found.
 *
 * Modelling rules rather than parameters (so not separately sourced):
 *  - a clean line read from the shared cache costs the transfer latency
 *    inside the reader's cluster (a CAS ping-pong between two cores of one
 *    cluster is a round trip through that cache);
 *  - invalidating S copies for a write miss costs the transfer latency to
 *    the farthest sharer (the snoops go out in parallel); an upgrade of
 *    our own S copy costs `upgrade` of that;
 *  - a full fence costs one locked RMW (x86 smp_mb() is a locked add) and
 *    drains the store buffer, as a locked RMW does;
 *  - an L1 hit costs nothing beyond its instruction (out-of-order cores
 *    hide it; Sniper's one-IPC model does the same).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "lib/compiler.h"
#include "tools/sim/profile.h"

static const char *const builtin_text[] = {
	"name = spr\n"
	"machine = 2 x Xeon Platinum 8480+-like (Sapphire Rapids, 56 cores, SMT2)\n"
	"notes = proxies: cross-socket (Ice Lake-SP), DRAM (Rome), syscall (Skylake-X)\n"
	"threads_per_core = 2\n"
	"cores_per_cluster = 56   # one mesh LLC per socket\n"
	"clusters_per_die = 1\n"
	"dies_per_socket = 1\n"
	"sockets = 2\n"
	"ghz = 3.8                # [CNC-SPR]\n"
	"cpi = 0.309            # [HOST] an Intel core of the same generation\n"
	"xfer_smt_ns = 4.3        # [AT-ADL]\n"
	"xfer_cluster_ns = 53.3   # [KC-W9] median\n"
	"xfer_die_ns = 53.3\n"
	"xfer_socket_ns = 53.3\n"
	"xfer_remote_ns = 108     # [NV] Ice Lake-SP 2S: PROXY\n"
	"llc_ns = 53.3            # rule: in-cluster transfer\n"
	"mem_ns = 122             # [AT-ROME]: PROXY\n"
	"atomic_ns = 5.0          # [UOPS] 19 cycles at 3.8 GHz\n"
	"upgrade = 0.93           # [HOST] an Intel core of the same generation\n"
	"dirty_read_moves = 1     # [HOST] an Intel core of the same generation\n"
	"hold = 0.34              # [HOST-H] an Intel core of the same generation\n"
	"xfer_jitter = 0.06       # [HOST-J]: PROXY\n"
	"line_bytes = 64          # [INTEL-OPT]\n"
	"copy_mlp = 10.9          # [HOST]: PROXY\n"
	"corun_speed = 1          # a core per CPU (SMT siblings share none here)\n"
	"pause_ns = 36.8          # [INTEL-OPT] 140 cycles at 3.8 GHz\n"
	"syscall_ns = 191         # [ORCL] Skylake-X: PROXY\n"
	"store_buffer = 114       # [INTEL-AD21]\n",

	"name = zen4\n"
	"machine = 2 x EPYC 9754 (Zen 4c Bergamo, 128 cores, 8-core CCX, SMT2)\n"
	"notes = proxies: DRAM (Rome), syscall (Skylake-X), transfer spread (the Intel host); "
	"core and line behaviour measured on a Zen 4 Genoa guest\n"
	"threads_per_core = 2\n"
	"cores_per_cluster = 8    # a CCX: one L3\n"
	"clusters_per_die = 2     # a Zen 4c CCD holds two CCX\n"
	"dies_per_socket = 8\n"
	"sockets = 2\n"
	"ghz = 3.1                # [AMD-19H]\n"
	"cpi = 0.248            # [HOST-Z4]: Genoa for Bergamo\n"
	"xfer_smt_ns = 5.3        # [NV] Zen 4 hyperthreads\n"
	"xfer_cluster_ns = 32     # [KC-9754] 29-38 ns\n"
	"xfer_die_ns = 110        # [KC-9754] 103-117 ns\n"
	"xfer_socket_ns = 110     # [KC-9754] 103-117 ns\n"
	"xfer_remote_ns = 204     # [KC-9754] 196-213 ns\n"
	"llc_ns = 32              # rule: in-cluster transfer\n"
	"mem_ns = 122             # [AT-ROME]: PROXY\n"
	"atomic_ns = 2.39         # [HOST-Z4] 7.4 cycles at 3.1 GHz\n"
	"upgrade = 1.09           # [HOST-Z4]\n"
	"dirty_read_moves = 1     # [HOST-Z4]\n"
	"hold = 0.58              # [HOST-Z4]\n"
	"xfer_jitter = 0.06       # [HOST-J]: PROXY\n"
	"line_bytes = 64          # [AMD-19H]\n"
	"copy_mlp = 15.6          # [HOST-Z4]\n"
	"corun_speed = 1          # a core per CPU (SMT siblings share none here)\n"
	"pause_ns = 29.0          # [HOST-Z4] 90 cycles at 3.1 GHz\n"
	"syscall_ns = 191         # [ORCL] Skylake-X: PROXY\n"
	"store_buffer = 64        # [AMD-19H]\n",

	"name = clx\n"
	"machine = 2 x Xeon Gold 6248 (Cascade Lake, 20 cores, SMT off: 40 CPUs)\n"
	"notes = proxies: DRAM (Rome), atomics (Golden Cove cycles), cycles per instruction "
	"upgrade and dirty reads (the Intel host)\n"
	"threads_per_core = 1\n"
	"cores_per_cluster = 20   # one mesh LLC per socket\n"
	"clusters_per_die = 1\n"
	"dies_per_socket = 1\n"
	"sockets = 2\n"
	"ghz = 3.9                # [ARK-6248] maximum turbo\n"
	"cpi = 0.309            # [HOST]: PROXY\n"
	"xfer_smt_ns = 48         # no SMT\n"
	"xfer_cluster_ns = 48     # [NV] Gold 6242 same socket, 44-52 ns\n"
	"xfer_die_ns = 48\n"
	"xfer_socket_ns = 48\n"
	"xfer_remote_ns = 141     # [NV] Gold 6242 cross-socket, 138-145 ns\n"
	"llc_ns = 48              # rule: in-cluster transfer\n"
	"mem_ns = 122             # [AT-ROME]: PROXY\n"
	"atomic_ns = 4.9          # [UOPS] 19 cycles at 3.9 GHz: PROXY\n"
	"upgrade = 0.93           # [HOST]: PROXY\n"
	"dirty_read_moves = 1     # [HOST]: PROXY\n"
	"hold = 0.34              # [HOST-H]: PROXY\n"
	"xfer_jitter = 0.06       # [HOST-J]: PROXY\n"
	"line_bytes = 64          # [INTEL-OPT]\n"
	"copy_mlp = 10.9          # [HOST]: PROXY\n"
	"corun_speed = 1          # a core per CPU (SMT siblings share none here)\n"
	"pause_ns = 35.9          # [INTEL-OPT] 140 cycles (Skylake and later) at 3.9 GHz\n"
	"syscall_ns = 191         # [ORCL] Skylake-X, the same core\n"
	"store_buffer = 56        # [INTEL-OPT] Skylake server: 56 entries\n",

	"name = kunpeng920\n"
	"machine = 2 x Kunpeng 920-6426 (TaiShan v110, 64 cores, 2 dies, 4-core clusters)\n"
	"notes = proxies: cross-socket (= cross-die), atomics (x86 cycles), DRAM (Rome), "
	"syscall (Skylake-X), cycles per instruction, upgrade and dirty reads (the Intel host), "
	"store buffer (Zen 4)\n"
	"threads_per_core = 1\n"
	"cores_per_cluster = 4\n"
	"clusters_per_die = 8\n"
	"dies_per_socket = 2\n"
	"sockets = 2\n"
	"ghz = 2.6                # [NV] 920-6426 @ 2.6GHz\n"
	"cpi = 0.309            # [HOST]: PROXY\n"
	"xfer_smt_ns = 32.5       # no SMT\n"
	"xfer_cluster_ns = 32.5   # [NV] 30-34 ns\n"
	"xfer_die_ns = 36         # [NV] 33-38 ns\n"
	"xfer_socket_ns = 80      # [NV] 73-88 ns\n"
	"xfer_remote_ns = 80      # no 2-socket figure: PROXY\n"
	"llc_ns = 36              # rule: in-die transfer (the L3 is per die)\n"
	"mem_ns = 122             # [AT-ROME]: PROXY\n"
	"atomic_ns = 7.3          # [UOPS] 19 x86 cycles at 2.6 GHz: PROXY\n"
	"upgrade = 0.93           # [HOST]: PROXY\n"
	"dirty_read_moves = 1     # [HOST]: PROXY\n"
	"hold = 0.34              # [HOST-H]: PROXY\n"
	"xfer_jitter = 0.06       # [HOST-J]: PROXY\n"
	"line_bytes = 128         # [KP-CL] the L3's line, which coherence tracks\n"
	"copy_mlp = 10.9          # [HOST]: PROXY\n"
	"corun_speed = 1          # a core per CPU (SMT siblings share none here)\n"
	"pause_ns = 0.4           # arm64 cpu_relax() is one YIELD\n"
	"syscall_ns = 191         # [ORCL] Skylake-X: PROXY\n"
	"store_buffer = 64        # [AMD-19H]: PROXY\n",
};

static struct sim_profile builtin[ARRAY_SIZE(builtin_text)];
static bool builtin_ready;

enum kind { K_STR, K_UINT, K_DOUBLE };

#define F(key, kind, member)                                      \
	{                                                         \
		key, kind, offsetof(struct sim_profile, member),  \
			sizeof(((struct sim_profile *)0)->member) \
	}
static const struct field {
	const char *key;
	enum kind kind;
	size_t off, size;
} fields[] = {
	F("name", K_STR, name),
	F("machine", K_STR, machine),
	F("notes", K_STR, notes),
	F("threads_per_core", K_UINT, threads_per_core),
	F("cores_per_cluster", K_UINT, cores_per_cluster),
	F("clusters_per_die", K_UINT, clusters_per_die),
	F("dies_per_socket", K_UINT, dies_per_socket),
	F("sockets", K_UINT, sockets),
	F("ghz", K_DOUBLE, ghz),
	F("cpi", K_DOUBLE, cpi),
	F("xfer_smt_ns", K_DOUBLE, xfer_ns[SIM_DIST_SMT]),
	F("xfer_cluster_ns", K_DOUBLE, xfer_ns[SIM_DIST_CLUSTER]),
	F("xfer_die_ns", K_DOUBLE, xfer_ns[SIM_DIST_DIE]),
	F("xfer_socket_ns", K_DOUBLE, xfer_ns[SIM_DIST_SOCKET]),
	F("xfer_remote_ns", K_DOUBLE, xfer_ns[SIM_DIST_REMOTE]),
	F("llc_ns", K_DOUBLE, llc_ns),
	F("mem_ns", K_DOUBLE, mem_ns),
	F("atomic_ns", K_DOUBLE, atomic_ns),
	F("upgrade", K_DOUBLE, upgrade),
	F("dirty_read_moves", K_UINT, dirty_read_moves),
	F("hold", K_DOUBLE, hold),
	F("xfer_jitter", K_DOUBLE, xfer_jitter),
	F("line_bytes", K_UINT, line_bytes),
	F("copy_mlp", K_DOUBLE, copy_mlp),
	F("corun_speed", K_DOUBLE, corun_speed),
	F("pause_ns", K_DOUBLE, pause_ns),
	F("syscall_ns", K_DOUBLE, syscall_ns),
	F("store_buffer", K_UINT, store_buffer),
};
#undef F

static char *trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
		*--e = '\0';
	return s;
}

/* Sanity bounds: a value outside them is a typo, not a machine. */
static bool in_range(const struct field *f, double v)
{
	if (!strcmp(f->key, "store_buffer"))
		return v >= 1 && v <= 256; /* SIM_SB_MAX */
	if (!strcmp(f->key, "dirty_read_moves"))
		return v == 0 || v == 1;
	if (!strcmp(f->key, "line_bytes"))
		return v == 32 || v == 64 || v == 128 || v == 256;
	if (f->kind == K_UINT)
		return v >= 1 && v <= 4096;
	if (!strcmp(f->key, "upgrade"))
		return v >= 0 && v <= 4;
	if (!strcmp(f->key, "ghz"))
		return v > 0.1 && v <= 10;
	if (!strcmp(f->key, "cpi"))
		return v > 0.01 && v <= 20;
	if (!strcmp(f->key, "xfer_jitter"))
		return v >= 0 && v <= 0.5;
	if (!strcmp(f->key, "hold"))
		return v >= 0 && v <= 1;
	if (!strcmp(f->key, "copy_mlp"))
		return v >= 1 && v <= 64;
	if (!strcmp(f->key, "corun_speed"))
		return v > 0.05 && v <= 1;
	return v >= 0 && v <= 1e6;
}

static int set_field(struct sim_profile *p, const struct field *f, const char *val, char *err,
		     size_t errlen, unsigned int lineno)
{
	char *base = (char *)p + f->off, *end;
	double d;

	if (f->kind == K_STR) {
		if (strlen(val) >= f->size) {
			snprintf(err, errlen, "line %u: %s is longer than %zu characters", lineno,
				 f->key, f->size - 1);
			return -1;
		}
		strcpy(base, val);
		return 0;
	}
	errno = 0;
	d = strtod(val, &end);
	if (end == val || *end || errno || !in_range(f, d) ||
	    (f->kind == K_UINT && d != (unsigned int)d)) {
		snprintf(err, errlen, "line %u: %s = '%s' is not a valid value", lineno, f->key,
			 val);
		return -1;
	}
	if (f->kind == K_UINT)
		*(unsigned int *)(void *)base = (unsigned int)d;
	else
		*(double *)(void *)base = d;
	return 0;
}

/* `cpi.NAME = X`: one workload's own cycles per instruction. */
static int wl_cpi(struct sim_profile *p, const char *name, char *val, char *err, size_t errlen,
		  unsigned int lineno)
{
	struct sim_wl_cpi *w;
	char *hash = strchr(val, '#'), *end;

	if (hash) {
		*hash = '\0';
		val = trim(val);
	}
	if (!*name || strlen(name) >= sizeof(w->name)) {
		snprintf(err, errlen,
			 "line %u: cpi.NAME needs a workload name of 1 to %zu characters", lineno,
			 sizeof(w->name) - 1);
		return -1;
	}
	for (unsigned int i = 0; i < p->nr_wl_cpi; i++) {
		if (!strcmp(p->wl_cpi[i].name, name)) {
			snprintf(err, errlen, "line %u: cpi.%s given twice", lineno, name);
			return -1;
		}
	}
	if (p->nr_wl_cpi == SIM_PROFILE_WL_MAX) {
		snprintf(err, errlen, "line %u: more than %d cpi.NAME lines", lineno,
			 SIM_PROFILE_WL_MAX);
		return -1;
	}
	w = &p->wl_cpi[p->nr_wl_cpi];
	errno = 0;
	w->cpi = strtod(val, &end);
	if (end == val || *end || errno || !(w->cpi > 0.01 && w->cpi <= 20)) {
		snprintf(err, errlen, "line %u: cpi.%s = '%s' is not a valid value", lineno, name,
			 val);
		return -1;
	}
	snprintf(w->name, sizeof(w->name), "%s", name);
	p->nr_wl_cpi++;
	return 0;
}

double sim_profile_cpi(const struct sim_profile *p, const char *workload)
{
	for (unsigned int i = 0; i < p->nr_wl_cpi; i++)
		if (!strcmp(p->wl_cpi[i].name, workload))
			return p->wl_cpi[i].cpi;
	return p->cpi;
}

/* The keys profiles written before they were measured lack: what to do. */
static const char *missing_hint(const char *key)
{
	if (!strcmp(key, "xfer_jitter"))
		return " (profiles calibrated before 2026-12-02 lack it: calibrate again, "
		       "or add the built-in profiles' 0.06)";
	if (!strcmp(key, "hold"))
		return " (profiles calibrated before 2026-12-03 lack it: calibrate again, "
		       "or add the built-in profiles' 0.34)";
	return "";
}

int sim_profile_parse(struct sim_profile *p, const char *text, char *err, size_t errlen)
{
	bool seen[ARRAY_SIZE(fields)] = { false };
	char *copy = strdup(text), *line, *next;
	unsigned int lineno = 0;
	int ret = -1;

	if (!copy) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	memset(p, 0, sizeof(*p));
	/* Line by line, blank ones included, so errors name the right line. */
	for (line = copy; line; line = next) {
		char *hash, *eq, *key, *val;
		size_t i;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		lineno++;
		/* A comment starts at '#' except in the free-text values. */
		eq = strchr(line, '=');
		hash = strchr(line, '#');
		if (hash && (!eq || hash < eq))
			*hash = '\0';
		key = trim(line);
		if (!*key)
			continue;
		if (!eq) {
			snprintf(err, errlen, "line %u: expected `key = value`", lineno);
			goto out;
		}
		*eq = '\0';
		key = trim(key);
		val = eq + 1;
		if (!strncmp(key, "cpi.", 4)) {
			if (wl_cpi(p, key + 4, trim(val), err, errlen, lineno))
				goto out;
			continue;
		}
		for (i = 0; i < ARRAY_SIZE(fields); i++)
			if (!strcmp(fields[i].key, key))
				break;
		if (i == ARRAY_SIZE(fields)) {
			snprintf(err, errlen, "line %u: unknown key '%s'", lineno, key);
			goto out;
		}
		if (fields[i].kind != K_STR && (hash = strchr(val, '#')))
			*hash = '\0';
		if (seen[i]) {
			snprintf(err, errlen, "line %u: %s given twice", lineno, key);
			goto out;
		}
		seen[i] = true;
		if (set_field(p, &fields[i], trim(val), err, errlen, lineno))
			goto out;
	}
	for (size_t i = 0; i < ARRAY_SIZE(fields); i++) {
		if (!seen[i]) {
			snprintf(err, errlen, "%s is missing%s", fields[i].key,
				 missing_hint(fields[i].key));
			goto out;
		}
	}
	p->xfer_ns[SIM_DIST_SELF] = 0;
	ret = 0;
out:
	free(copy);
	return ret;
}

int sim_profile_load(struct sim_profile *p, const char *path, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	char *buf;
	size_t n;
	int ret;

	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	buf = malloc(1 << 16);
	n = buf ? fread(buf, 1, (1 << 16) - 1, f) : 0;
	if (!buf || ferror(f) || n == (1 << 16) - 1) {
		snprintf(err, errlen, "%s: %s", path,
			 !buf	   ? "out of memory" :
			 ferror(f) ? strerror(errno) :
				     "too long");
		fclose(f);
		free(buf);
		return -1;
	}
	fclose(f);
	buf[n] = '\0';
	if (memchr(buf, '\0', n)) {
		snprintf(err, errlen, "%s: not a text file", path);
		free(buf);
		return -1;
	}
	ret = sim_profile_parse(p, buf, err, errlen);
	if (ret) {
		char msg[256];

		snprintf(msg, sizeof(msg), "%s", err);
		snprintf(err, errlen, "%s: %s", path, msg);
	}
	free(buf);
	return ret;
}

void sim_profile_write(FILE *f, const struct sim_profile *p)
{
	for (size_t i = 0; i < ARRAY_SIZE(fields); i++) {
		const char *base = (const char *)p + fields[i].off;

		if (fields[i].kind == K_STR)
			fprintf(f, "%s = %s\n", fields[i].key, base);
		else if (fields[i].kind == K_UINT)
			fprintf(f, "%s = %u\n", fields[i].key,
				*(const unsigned int *)(const void *)base);
		else
			fprintf(f, "%s = %.4g\n", fields[i].key,
				*(const double *)(const void *)base);
	}
	for (unsigned int i = 0; i < p->nr_wl_cpi; i++)
		fprintf(f, "cpi.%s = %.4g\n", p->wl_cpi[i].name, p->wl_cpi[i].cpi);
}

static void builtin_init(void)
{
	char err[256];

	if (builtin_ready)
		return;
	for (size_t i = 0; i < ARRAY_SIZE(builtin_text); i++) {
		if (sim_profile_parse(&builtin[i], builtin_text[i], err, sizeof(err))) {
			fprintf(stderr, "vfslab sim: built-in profile %zu: %s\n", i, err);
			abort();
		}
	}
	builtin_ready = true;
}

const struct sim_profile *sim_profile_all(unsigned int *nr)
{
	builtin_init();
	*nr = ARRAY_SIZE(builtin);
	return builtin;
}

const struct sim_profile *sim_profile_find(const char *name)
{
	builtin_init();
	for (size_t i = 0; i < ARRAY_SIZE(builtin); i++)
		if (!strcmp(builtin[i].name, name))
			return &builtin[i];
	return NULL;
}

const struct sim_profile *sim_profile_get(const char *spec, char *err, size_t errlen)
{
	const struct sim_profile *b = sim_profile_find(spec);
	struct sim_profile *p;

	if (b)
		return b;
	if (!strchr(spec, '/') && !strchr(spec, '.')) {
		snprintf(err, errlen, "unknown profile '%s' (spr, zen4, kunpeng920, or a file)",
			 spec);
		return NULL;
	}
	p = malloc(sizeof(*p));
	if (!p) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	if (sim_profile_load(p, spec, err, errlen)) {
		free(p);
		return NULL;
	}
	return p; /* lives as long as the command */
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
