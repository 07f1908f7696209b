# SPDX-License-Identifier: LGPL-2.1-or-later
# Tests of vfs/ and tools/. Included from tests/local.mk.

# pjdfstest-language scripts: vfslab against the recorded Linux answers,
# and the live host kernel against the same answers.
TESTS += %D%/fstest_vfslab.sh %D%/fstest_host.sh
EXTRA_DIST += %D%/fstest_run.sh %D%/fstest_vfslab.sh %D%/fstest_host.sh %D%/fstest

# Check programs for vfs/, one per area (the Linux errnos they expect were
# checked on the host's tmpfs); tests/vfs_test.h holds the shared fixtures.
check_PROGRAMS += \
	%D%/check_namei \
	%D%/check_dcache \
	%D%/check_file \
	%D%/check_syscalls \
	%D%/check_layout \
	%D%/check_stress

EXTRA_DIST += %D%/vfs_test.h

%C%_check_namei_SOURCES = %D%/check_namei.c %D%/vfs_test.h tools/sys/names.c tools/sys/names.h
%C%_check_namei_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
%C%_check_namei_LDADD = $(LIBVFS_LDADD) $(CHECK_LIBS)

%C%_check_dcache_SOURCES = %D%/check_dcache.c %D%/vfs_test.h tools/sys/names.c tools/sys/names.h
%C%_check_dcache_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
%C%_check_dcache_LDADD = $(LIBVFS_LDADD) $(CHECK_LIBS)

%C%_check_file_SOURCES = %D%/check_file.c %D%/vfs_test.h tools/sys/names.c tools/sys/names.h
%C%_check_file_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
%C%_check_file_LDADD = $(LIBVFS_LDADD) $(CHECK_LIBS)

%C%_check_syscalls_SOURCES = %D%/check_syscalls.c %D%/vfs_test.h tools/sys/names.c tools/sys/names.h
%C%_check_syscalls_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
%C%_check_syscalls_LDADD = $(LIBVFS_LDADD) $(CHECK_LIBS)

%C%_check_layout_SOURCES = %D%/check_layout.c %D%/vfs_test.h tools/sys/names.c tools/sys/names.h
%C%_check_layout_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
%C%_check_layout_LDADD = $(LIBVFS_LDADD) $(CHECK_LIBS)

%C%_check_stress_SOURCES = %D%/check_stress.c %D%/vfs_test.h tools/sys/names.c tools/sys/names.h
%C%_check_stress_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
%C%_check_stress_LDADD = $(LIBVFS_LDADD) $(CHECK_LIBS)

# Every bench workload, briefly, against vfslab and the host kernel.
TESTS += %D%/bench_smoke.sh
EXTRA_DIST += %D%/bench_smoke.sh

# vfs/check.c's checkers against states broken on purpose; vfslab torture, briefly.
check_PROGRAMS += %D%/check_check
%C%_check_check_SOURCES = %D%/check_check.c %D%/vfs_test.h tools/sys/names.c tools/sys/names.h
%C%_check_check_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
%C%_check_check_LDADD = $(LIBVFS_LDADD) $(CHECK_LIBS)
TESTS += %D%/torture.sh
EXTRA_DIST += %D%/torture.sh

# vfslab replay --check on recorded strace logs; a short throughput run.
TESTS += %D%/replay.sh
EXTRA_DIST += %D%/replay.sh %D%/replay

# vfslab difftest: random scripts through vfslab and the host kernel (root).
TESTS += %D%/difftest.sh
EXTRA_DIST += %D%/difftest.sh %D%/fuzz/run.sh %D%/fuzz/fuzz_fstest.c %D%/fuzz/fuzz_layout.c \
	%D%/fuzz/dump_presets.c %D%/fuzz/no_nap.c
# libFuzzer harnesses, clang only and never part of `make check`:
# `make fuzz FUZZ_SECONDS=3600` builds them into fuzz/ and runs each for that long.
FUZZ_SECONDS = 60
fuzz:
	FUZZ_OUT='$(abs_top_builddir)/fuzz' $(SHELL) '$(abs_top_srcdir)/tests/fuzz/run.sh' $(FUZZ_SECONDS)
.PHONY: fuzz

# The many-core simulator (tools/sim): the coherence model on hand-computed
# cases and the runtime on real code (this test is instrumented like the
# VFS it simulates), determinism, and its build running the fstest scripts.
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
check_DATA = %D%/check_sim_coherence.blocks
CLEANFILES += %D%/check_sim_coherence.blocks
check_PROGRAMS += %D%/check_sim_profile
%C%_check_sim_profile_SOURCES = %D%/check_sim_profile.c
%C%_check_sim_profile_CFLAGS = $(WARN_CFLAGS) $(CHECK_CFLAGS)
%C%_check_sim_profile_LDADD = tools/sim/libsimrt.a $(CHECK_LIBS)
TESTS += %D%/sim.sh %D%/sim_fstest.sh %D%/sim_calibrate.sh
EXTRA_DIST += %D%/sim.sh %D%/sim_fstest.sh %D%/sim_calibrate.sh

# The fstest suite under several variants: same answers.
TESTS += %D%/fstest_variants.sh
EXTRA_DIST += %D%/fstest_variants.sh
