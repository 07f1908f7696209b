# SPDX-License-Identifier: LGPL-2.1-or-later
# tools/sim/: the many-core simulator. libvfssim.a is a second copy of lib/
# and vfs/ compiled with -fsanitize=thread against our own __tsan_* runtime
# (libsimrt.a; libtsan is never linked) and with tools/sim/hooks.h forced
# in; tools/vfslab-sim is the vfslab program linked on them, which
# `vfslab sim` execs. No sanitizer flags here: ASan cannot follow our stack
# switches and -fsanitize=thread excludes -fsanitize=address anyway.

SIM_TSAN_CFLAGS = -fsanitize=thread --param tsan-instrument-func-entry-exit=0 -Wno-tsan \
	-fsanitize-coverage=trace-pc

noinst_LIBRARIES += %D%/libvfssim.a %D%/libsimrt.a
%C%_libvfssim_a_SOURCES = $(lib_libprim_a_SOURCES) $(vfs_libvfs_a_SOURCES)
%C%_libvfssim_a_CPPFLAGS = $(AM_CPPFLAGS) -DVFSLAB_SIM -include $(top_srcdir)/%D%/hooks.h
%C%_libvfssim_a_CFLAGS = $(WARN_CFLAGS) $(PTHREAD_CFLAGS) $(JEMALLOC_CFLAGS) $(SIM_TSAN_CFLAGS)

%C%_libsimrt_a_SOURCES = \
	%D%/alloc.c \
	%D%/blocks.c \
	%D%/coherence.c \
	%D%/coherence.h \
	%D%/hooks.h \
	%D%/libc_hooks.h \
	%D%/profile.c \
	%D%/profile.h \
	%D%/rcu.c \
	%D%/runtime.c \
	%D%/sched.c \
	%D%/sim.h \
	%D%/symbols.c
%C%_libsimrt_a_CPPFLAGS = $(AM_CPPFLAGS) -DVFSLAB_SIM
%C%_libsimrt_a_CFLAGS = $(WARN_CFLAGS) $(PTHREAD_CFLAGS)

# libsimrt and libvfssim need each other: list the runtime on both sides.
SIM_LDADD = %D%/libsimrt.a %D%/libvfssim.a %D%/libsimrt.a $(PTHREAD_LIBS) -lm

bin_PROGRAMS += tools/vfslab-sim
tools_vfslab_sim_SOURCES = $(tools_vfslab_SOURCES) \
	%D%/c2c.c \
	%D%/cmd.c \
	%D%/main.c \
	%D%/objects.c \
	%D%/run.c \
	%D%/simrun.h \
	%D%/sysops_sim.c \
	%D%/toolmain.h
tools_vfslab_sim_CPPFLAGS = $(AM_CPPFLAGS) -DVFSLAB_SIM_TOOL -Dmain=vfslab_main \
	-include $(top_srcdir)/%D%/toolmain.h
tools_vfslab_sim_CFLAGS = $(WARN_CFLAGS) $(PTHREAD_CFLAGS) $(LIBEDIT_CFLAGS)
tools_vfslab_sim_LDFLAGS = -Wl,--wrap=kmem_cache_alloc -Wl,--wrap=kmem_cache_zalloc
tools_vfslab_sim_LDADD = $(SIM_LDADD) $(LIBEDIT_LIBS)

# The core model's block table (tools/sim/blocks.awk), beside each program
# linked on the simulated copy of lib/ and vfs/.
SIM_BLOCKS = $(OBJDUMP) -d --no-show-raw-insn $< | $(AWK) -f $(srcdir)/%D%/blocks.awk > $@.tmp && \
	mv $@.tmp $@
tools/vfslab-sim.blocks: tools/vfslab-sim$(EXEEXT) $(srcdir)/%D%/blocks.awk
	$(AM_V_GEN)$(SIM_BLOCKS)
all-local: tools/vfslab-sim.blocks
CLEANFILES = tools/vfslab-sim.blocks
EXTRA_DIST += %D%/blocks.awk
