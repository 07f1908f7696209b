# SPDX-License-Identifier: LGPL-2.1-or-later
# tools/sim/: the simulated many-core machine, a port of lib/'s platform
# interface (lib/arch.h). libsimrt.a is the machine: virtual CPUs and their
# scheduler, the coherence model, the __tsan_* runtime that feeds it every
# access (libtsan is never linked), a deterministic heap, RCU. libvfssim.a
# is lib/ and vfs/ compiled with -fsanitize=thread for it and with
# lib/arch_sim.h forced in; lib/'s native platform (LIB_NATIVE_SOURCES) is
# left out, the machine implements it. Link libvfssim.a before libsimrt.a:
# the machine needs nothing of lib/. The front end is tools/simrun/. No
# sanitizer flags here: ASan cannot follow our stack switches and
# -fsanitize=thread excludes -fsanitize=address anyway.

# -fno-optimize-sibling-calls: a block's hook must be called, not jumped
# to, or it sees its caller's return address (KCSAN builds the same way).
SIM_TSAN_CFLAGS = -fsanitize=thread --param tsan-instrument-func-entry-exit=0 -Wno-tsan \
	-fsanitize-coverage=trace-pc -fno-optimize-sibling-calls

noinst_LIBRARIES += %D%/libvfssim.a %D%/libsimrt.a
%C%_libvfssim_a_SOURCES = $(LIB_PORTABLE_SOURCES) $(vfs_libvfs_a_SOURCES)
%C%_libvfssim_a_CPPFLAGS = $(AM_CPPFLAGS) -DVFSLAB_SIM -include $(top_srcdir)/lib/arch_sim.h
%C%_libvfssim_a_CFLAGS = $(WARN_CFLAGS) $(PTHREAD_CFLAGS) $(JEMALLOC_CFLAGS) $(SIM_TSAN_CFLAGS) $(LIBBPF_CFLAGS)

%C%_libsimrt_a_SOURCES = \
	%D%/alloc.c \
	%D%/blocks.c \
	%D%/coherence.c \
	%D%/coherence.h \
	%D%/profile.c \
	%D%/profile.h \
	%D%/rcu.c \
	%D%/runtime.c \
	%D%/sched.c \
	%D%/sim.h \
	%D%/symbols.c
%C%_libsimrt_a_CPPFLAGS = $(AM_CPPFLAGS) -DVFSLAB_SIM
%C%_libsimrt_a_CFLAGS = $(WARN_CFLAGS) $(PTHREAD_CFLAGS)

SIM_LDADD = %D%/libvfssim.a %D%/libsimrt.a $(PTHREAD_LIBS) $(LIBBPF_LIBS) -lm

# The core model's block table (tools/sim/blocks.awk), beside each program
# linked on the simulated copy of lib/ and vfs/.
SIM_BLOCKS = $(OBJDUMP) -d --no-show-raw-insn $< | $(AWK) -f $(srcdir)/%D%/blocks.awk > $@.tmp && \
	mv $@.tmp $@
EXTRA_DIST += %D%/blocks.awk %D%/host.prof
