// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * vfslab-sim: the vfslab program (vfslab_main(), tools/vfslab.c) built on
 * the simulator's copy of lib/ and vfs/ (every memory access instrumented,
 * RCU simulated), a helper that `vfslab sim` execs. It runs `sim`, and runs
 * fstest, walk and layout on one simulated CPU, so the simulator's build
 * can be checked against the same scripts as vfslab's. Other commands need
 * real threads: use vfslab.
 */
#include <stdio.h>
#include <string.h>
#include <sys/personality.h>
#include <unistd.h>

#include "lib/arch.h"
#include "tools/cmd.h"
#include "tools/fstest/fstest.h"
#include "tools/sim/sim.h"

static struct {
	int argc;
	char **argv;
	int ret;
} job;

static void job_fn(void *arg)
{
	(void)arg;
	job.ret = vfslab_main(job.argc, job.argv);
	fflush(NULL);
}

/*
 * lib's context of every vCPU (tools/sim/sched.c asks for one the first time
 * a run has that many CPUs), made first thing: their event counters live in
 * the host's heap, and where they land there moved results (f_count by 2%).
 * Made before anything else, they land in the same place in every process,
 * whatever a command does before its runs, so that a simulation's result
 * depends on its arguments alone (sim --jobs runs each in another process).
 */
static struct lib_thread *premade[SIM_MAX_CPUS];

static struct lib_thread *premade_thread(unsigned int cpu)
{
	return cpu < SIM_MAX_CPUS ? premade[cpu] : NULL;
}

static bool on_one_cpu(const char *cmd)
{
	static const char *const cmds[] = { "fstest", "walk", "layout" };

	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (!strcmp(cmd, cmds[i]))
			return true;
	return false;
}

/*
 * The simulated code also reads some objects on the host's heap: with the
 * address space randomised, where they land moved results on 128-byte
 * lines from one run to the next (Kunpeng's f_count in --all-scenarios). Run once more without randomisation, as
 * `setarch -R` does; where that is refused, go on as we are.
 */
static void fixed_addresses(char **argv)
{
	int p = personality(0xffffffff);

	if (p == -1 || (p & ADDR_NO_RANDOMIZE) ||
	    personality((unsigned long)p | ADDR_NO_RANDOMIZE) == -1)
		return;
	execv("/proc/self/exe", argv);
}

int main(int argc, char **argv)
{
	void *args[1] = { NULL };

	fixed_addresses(argv);

	for (unsigned int i = 0; i < SIM_MAX_CPUS; i++) {
		premade[i] = lib_thread_new();
		if (!premade[i]) {
			fprintf(stderr, "vfslab-sim: out of memory\n");
			return 1;
		}
	}
	sim_thread_new = premade_thread;
	sim_thread_switch = lib_thread_switch;
	if (argc < 2 || argv[1][0] == '-' || !strcmp(argv[1], "sim") || !strcmp(argv[1], "help") ||
	    !strcmp(argv[1], "scenarios") || !strcmp(argv[1], "advise"))
		return vfslab_main(argc, argv);
	if (!on_one_cpu(argv[1])) {
		fprintf(stderr,
			"vfslab-sim: '%s' needs real threads; run it with vfslab. "
			"vfslab-sim runs sim, and fstest, walk and layout on a simulated CPU\n",
			argv[1]);
		return 2;
	}
	if (sim_setup(sim_profile_find("spr"), 1)) {
		fprintf(stderr, "vfslab-sim: cannot set the simulated machine up\n");
		return 1;
	}
	job.argc = argc;
	job.argv = argv;
	fstest_one_cpu = true;
	sim_run(job_fn, args);
	sim_teardown();
	return job.ret;
}
