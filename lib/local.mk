# SPDX-License-Identifier: LGPL-2.1-or-later
# lib/: kernel-style primitives (atomics, locks, seqcounts, lockref,
# file_ref, bitmaps, lists, RCU wrapper, slab caches, stats).

noinst_LIBRARIES += %D%/libprim.a
%C%_libprim_a_SOURCES = \
	%D%/atomic.h \
	%D%/bitmap.c \
	%D%/bitmap.h \
	%D%/bug.c \
	%D%/bug.h \
	%D%/compiler.h \
	%D%/err.h \
	%D%/file_ref.c \
	%D%/file_ref.h \
	%D%/hlist_bl.h \
	%D%/list.h \
	%D%/lockref.c \
	%D%/lockref.h \
	%D%/mutex.c \
	%D%/mutex.h \
	%D%/percpu_counter.c \
	%D%/percpu_counter.h \
	%D%/rcu.c \
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
	%D%/word_at_a_time.h
