# SPDX-License-Identifier: LGPL-2.1-or-later
# tools/simrun/: the simulator's front end (vfslab sim's command, running a
# workload on simulated CPUs, the contention report; calibrate and
# validate, which run natively) and vfslab-sim, the vfslab program on the
# simulated machine (tools/sim/), a helper that `vfslab sim` execs. It
# links the one build of tools/ (libtools.a), which in a sanitizer build
# is instrumented for the host's sanitizer: the simulator, which runs that
# code on its own stacks and is itself the instrumentation's runtime, is
# then not built.

tools_libtools_a_SOURCES += \
	%D%/calib.h \
	%D%/calibrate.c \
	%D%/helper.c \
	%D%/hostbench.c \
	%D%/hostbench.h \
	%D%/validate.c

# vfslab-sim and its block table, in libexec.
if SIMULATOR
pkglibexec_PROGRAMS = tools/vfslab-sim
simhelper_DATA = tools/vfslab-sim.blocks
endif
simhelperdir = $(pkglibexecdir)
tools/vfslab-sim.blocks: tools/vfslab-sim$(EXEEXT) $(srcdir)/tools/sim/blocks.awk
	$(AM_V_GEN)$(SIM_BLOCKS)
CLEANFILES += tools/vfslab-sim.blocks

tools_vfslab_sim_SOURCES = \
	%D%/c2c.c \
	%D%/cmd.c \
	%D%/heatmap.c \
	%D%/heatmap.h \
	%D%/jobs.c \
	%D%/jobs.h \
	%D%/main.c \
	%D%/objects.c \
	%D%/report.c \
	%D%/run.c \
	%D%/simcli.h \
	%D%/simrun.h \
	%D%/sysops_sim.c \
	%D%/walk.c
tools_vfslab_sim_CFLAGS = $(WARN_CFLAGS) $(PTHREAD_CFLAGS) $(LIBEDIT_CFLAGS) $(JANSSON_CFLAGS)
tools_vfslab_sim_LDFLAGS = -Wl,--wrap=kmem_cache_alloc -Wl,--wrap=kmem_cache_zalloc
tools_vfslab_sim_LDADD = tools/libtools.a $(SIM_LDADD) $(LIBEDIT_LIBS) $(JANSSON_LIBS)
