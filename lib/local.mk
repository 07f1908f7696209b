# SPDX-License-Identifier: LGPL-2.1-or-later
# lib/: kernel-style primitives (atomics, locks, seqcounts, lockref,
# file_ref, bitmaps, lists, RCU wrapper, slab caches, stats) over the
# platform interface, lib/arch.h. LIB_NATIVE_SOURCES implement that
# interface natively; a port (the simulator) builds LIB_PORTABLE_SOURCES
# on its own implementation.

noinst_LIBRARIES += %D%/libprim.a
%C%_libprim_a_SOURCES = $(LIB_PORTABLE_SOURCES) $(LIB_NATIVE_SOURCES)
LIB_NATIVE_SOURCES = \
	%D%/arch.c \
	%D%/rcu.c
LIB_PORTABLE_SOURCES = \
	%D%/arch.h \
	%D%/arch_libc.h \
	%D%/arch_sim.h \
	%D%/atomic.h \
	%D%/bitmap.c \
	%D%/bitmap.h \
	%D%/bug.c \
	%D%/bug.h \
	%D%/compiler.h \
	%D%/err.h \
	%D%/fault_inject.h \
	%D%/file_ref.c \
	%D%/file_ref.h \
	%D%/hlist_bl.h \
	%D%/kstrtox.c \
	%D%/kstrtox.h \
	%D%/list.h \
	%D%/lockref.c \
	%D%/lockref.h \
	%D%/mutex.c \
	%D%/mutex.h \
	%D%/page_alloc.c \
	%D%/page_alloc.h \
	%D%/rcu.h \
	%D%/rwsem.c \
	%D%/rwsem.h \
	%D%/seqlock.h \
	%D%/slab.c \
	%D%/slab.h \
	%D%/spinlock.c \
	%D%/spinlock.h \
	%D%/stats.c \
	%D%/stats.h \
	%D%/thread.c \
	%D%/wait.h \
	%D%/word_at_a_time.h
