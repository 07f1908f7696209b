# SPDX-License-Identifier: LGPL-2.1-or-later
# Tests of vfs/ and tools/. Included from tests/local.mk.

# Check programs for vfs/, one per area (the Linux errnos they expect were
# checked on the host's tmpfs); tests/vfs_test.h holds the shared fixtures.
# check_check runs vfs/check.c's checkers against states broken on purpose.
check_PROGRAMS += \
	%D%/check_namei \
	%D%/check_dcache \
	%D%/check_file \
	%D%/check_syscalls \
	%D%/check_fifo \
	%D%/check_layout \
	%D%/check_stress \
	%D%/check_check \
	%D%/check_mount
EXTRA_DIST += %D%/vfs_test.h
# The dentry hash's size and chains, and the phase clocks (bench --tree).
check_PROGRAMS += %D%/check_dhash
# tools/out: the CSV writer and the JSON helpers every output goes through.
check_PROGRAMS += %D%/check_out %D%/check_names
%C%_check_out_CFLAGS = $(AM_CFLAGS) $(JANSSON_CFLAGS)

# The many-core simulator (tools/sim): the coherence model on hand-computed
# cases and the runtime on real code (this test is instrumented like the
# VFS it simulates).
check_PROGRAMS += %D%/check_sim_coherence
%C%_check_sim_coherence_SOURCES = %D%/check_sim_coherence.c
# The instrumentation flags go in CPPFLAGS: Automake links with CFLAGS, and
# -fsanitize=thread there would pull libtsan in instead of our runtime.
%C%_check_sim_coherence_CPPFLAGS = $(AM_CPPFLAGS) -DVFSLAB_SIM $(SIM_TSAN_CFLAGS)
%C%_check_sim_coherence_CFLAGS = $(WARN_CFLAGS) $(PTHREAD_CFLAGS) $(CHECK_CFLAGS)
%C%_check_sim_coherence_LDFLAGS =
%C%_check_sim_coherence_LDADD = $(SIM_LDADD) $(CHECK_LIBS)
%D%/check_sim_coherence.blocks: %D%/check_sim_coherence$(EXEEXT) $(srcdir)/tools/sim/blocks.awk
	$(AM_V_GEN)$(SIM_BLOCKS)
check_DATA += %D%/check_sim_coherence.blocks
CLEANFILES += %D%/check_sim_coherence.blocks
# Profile files (tools/sim/profile.c, in the machine's library).
check_PROGRAMS += %D%/check_sim_profile
%C%_check_sim_profile_LDADD = tools/sim/libsimrt.a $(CHECK_LIBS)
# The statistics calibrate reads its host probes with (tools/simrun/hostbench.c).
check_PROGRAMS += %D%/check_hostbench

# The shell tests of the fast tier, each a few seconds to a minute:
#  fstest_vfslab, fstest_host  pjdfstest-language scripts: vfslab against
#                              the recorded Linux answers, and the live host
#                              kernel against the same answers (root)
#  fstest_variants             the same under several variants
#  sim_fstest, sim             the simulator's build on the fstest scripts;
#                              its determinism, output formats, a scenario
#  sim_plot                    sim --plot's axes, title, key and bars
#  sim_calibrate               calibrate writes a profile sim loads
#  bench_smoke                 every bench workload, briefly, on vfslab and
#                              the host kernel
#  outputs                     jq, Python's csv module and will-it-scale's
#                              reader parse every output format, odd names too
#  bench_plot                  --plot: names and labels are never commands;
#                              an unwritable file is an error
#  write_errors                stdout on /dev/full fails every command
#  cli_input                   bad numbers, paths, variants and help topics
#                              are named and refused
#  shell                       the shell's fdtable and dentry name f_flags
#                              and d_flags
#  replay                      replay --check on recorded strace logs; short
#                              throughput runs
#  walk                        PATH byte for byte, up to 4095 bytes; the empty
#                              path's ENOENT; hash-salt=N's hashes every run
#  torture, difftest           short runs (their long runs: check-long)
#  interrupt                   SIGINT/SIGTERM stop each long command: no
#                              scratch left, a partial result, 130/143
#  progress                    progress lines on a terminal only
#  sim_interrupt               SIGINT stops sim between runs: what finished,
#                              marked; calibrate keeps an old --out file
#  layout_check                layout --check: the README's example; rules
#                              unread or empty are errors, not a pass
#  layout_print                arrays, unions and sizes as the kernel's;
#                              pahole's own output where it is installed
#  layering, layering_selftest includes follow the layers; the check bites
#  man_options                 doc/vfslab.1 lists what each --help does
#  fuzz_cli                    the command-line fuzzer's seeds parse clean:
#                              no crash or leak, 0/1/2, a message if refused
#  install                     examples/ built on a `make install` copy
#  layout_import, layout_btf   a kernel's layouts from pahole's text and its
#                              BTF: pahole's offsets; missing fields refused
#  advise                      a tiny advise: a layout file layout accepts,
#                              rates as vfslab sim's, --jobs 2 as --jobs 1
#  bench_tree                  bench --tree's hash line and --phases table
#  sim_converge                a scenario doubles its ops until its ratio
#                              settles, the same every run; sim_speed.sh
#  mounts                      mount, umount2, bind, read-only and openat2:
#                              vfslab and the host (root, own namespace)
#                              against the recorded answers; walk --trace
#                              across a mount, --resolve
dist_check_SCRIPTS = \
	%D%/fstest_vfslab.sh \
	%D%/fstest_host.sh \
	%D%/fstest_variants.sh \
	%D%/sim_fstest.sh \
	%D%/sim.sh \
	%D%/sim_plot.sh \
	%D%/sim_calibrate.sh \
	%D%/sim_interrupt.sh \
	%D%/bench_smoke.sh \
	%D%/outputs.sh \
	%D%/bench_plot.sh \
	%D%/write_errors.sh \
	%D%/cli_input.sh \
	%D%/shell.sh \
	%D%/replay.sh \
	%D%/walk.sh \
	%D%/torture.sh \
	%D%/difftest.sh \
	%D%/interrupt.sh \
	%D%/progress.sh \
	%D%/layout_check.sh \
	%D%/layout_print.sh \
	%D%/layering.sh \
	%D%/layering_selftest.sh \
	%D%/man_options.sh \
	%D%/fuzz_cli.sh \
	%D%/install.sh \
	%D%/layout_import.sh \
	%D%/layout_btf.sh \
	%D%/advise.sh \
	%D%/bench_tree.sh \
	%D%/sim_converge.sh \
	%D%/mounts.sh
EXTRA_DIST += %D%/layout_members.sh %D%/layout_import.pahole %D%/layout_import_v58.pahole
EXTRA_DIST += %D%/sim_nospeed.sh %D%/report.sh %D%/fstest_run.sh %D%/fstest %D%/replay %D%/mounts
# tests/replay holds the logs: not a program for make's built-in .sh rule to
# write from replay.sh whenever that is newer (dist would copy that instead).
%D%/replay: ;
%D%/mounts: ;

# The long tier (`make check-long`, tests/local.mk): torture and difftest at
# length, every seed scenario on the simulator and validate's native part
# in short. In a ThreadSanitizer build only the torture: there it is the
# TSan torture; of the others, the simulator's need vfslab-sim, which such
# a build has not, and the rest run no threads worth instrumenting.
LONG_TESTS_ALL = %D%/torture_long.sh %D%/difftest_long.sh %D%/sim_scenarios.sh \
	%D%/sim_validate_native.sh %D%/pjdfstest_compare.sh
if THREAD_SANITIZER
LONG_TESTS = %D%/torture_long.sh
else
LONG_TESTS = $(LONG_TESTS_ALL)
endif
EXTRA_DIST += $(LONG_TESTS_ALL)

# libFuzzer harnesses, clang only and never part of `make check`:
# `make fuzz FUZZ_SECONDS=3600` builds them into fuzz/ and runs each for that long.
EXTRA_DIST += %D%/fuzz/run.sh %D%/fuzz/fuzz_fstest.c %D%/fuzz/fuzz_layout.c \
	%D%/fuzz/dump_presets.c %D%/fuzz/no_nap.c %D%/fuzz/cli_seeds.sh
FUZZ_SECONDS = 60
fuzz: tools/vfslab$(EXEEXT)
	FUZZ_OUT='$(abs_top_builddir)/fuzz' VFSLAB='$(abs_top_builddir)/tools/vfslab' \
		$(SHELL) '$(abs_top_srcdir)/tests/fuzz/run.sh' $(FUZZ_SECONDS)
.PHONY: fuzz

# The command-line harness without libFuzzer, for tests/fuzz_cli.sh: built
# for `make check` (check_DATA), not a test of its own. vfslab's sim
# command is outside libtools.a; the machine profiles are libsimrt.a's.
EXTRA_PROGRAMS = %D%/fuzz/cli_replay
check_DATA += %D%/fuzz/cli_replay$(EXEEXT)
CLEANFILES += %D%/fuzz/cli_replay$(EXEEXT)
%C%_fuzz_cli_replay_SOURCES = %D%/fuzz/fuzz_cli.c %D%/fuzz/replay.c tools/cmd_sim.c
%C%_fuzz_cli_replay_LDADD = tools/libtools.a $(LIBVFS_LDADD) tools/sim/libsimrt.a \
	$(LIBEDIT_LIBS) $(JANSSON_LIBS) -lm

# A race of the path walk hit on purpose: the test's own copy of
# vfs/namei.c with its delay points on (as check_spinlock_race, tests/lib.mk).
check_PROGRAMS += %D%/check_namei_race
%C%_check_namei_race_SOURCES = %D%/check_namei_race.c vfs/namei.c lib/fault_inject.c
%C%_check_namei_race_CPPFLAGS = $(AM_CPPFLAGS) -DVFSLAB_FAULT_INJECTION

# Parallel lookups of missing names (d_alloc_parallel, the in-lookup hash):
# its own copies of vfs/dcache.c and vfs/namei.c with their delay points on.
check_PROGRAMS += %D%/check_dcache_parallel
%C%_check_dcache_parallel_SOURCES = %D%/check_dcache_parallel.c vfs/dcache.c vfs/namei.c \
	lib/fault_inject.c
%C%_check_dcache_parallel_CPPFLAGS = $(AM_CPPFLAGS) -DVFSLAB_FAULT_INJECTION

# The fs.protected_* sysctls as variant keys, and may_create_in_sticky().
check_PROGRAMS += %D%/check_protected
# /dev/random's stream per instance (vfs/mem_devs.c; the devices' Linux
# semantics are tests/fstest/memdev.t).
check_PROGRAMS += %D%/check_mem_devs

# The heat map and the sweeps of vfslab sim:
#  sim_heatmap          --report html|svg: self-contained, names escaped, a box
#                       per field and line, the curve; errors named
#  sim_heatmap_browser  the d_lockref page in headless Chromium: every field,
#                       colours by heat, d_lockref's line hot before, cool after
#  sim_jobs             --jobs N and --emit-jobs/--collect print --jobs 1's
#                       bytes; errors; Ctrl-C kills the jobs, cleans up
#  sim_parallel         a sweep and a scenario through GNU parallel, the same
dist_check_SCRIPTS += \
	%D%/sim_heatmap.sh \
	%D%/sim_heatmap_browser.sh \
	%D%/sim_jobs.sh \
	%D%/sim_parallel.sh
