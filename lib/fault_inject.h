/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Named delay points, for tests that must hit a race window every time.
 *
 * fault_point("name") marks a place where another thread's step would
 * expose a bug: between two loads that must agree, between a failed
 * compare-and-swap and the store that follows it.  In an object compiled
 * with -DVFSLAB_FAULT_INJECTION (only ever a test's own copy of the code
 * under test, see tests/local.mk) it runs the hook a test armed for that
 * name; the hook may sleep, wait for another thread, or make the change
 * itself, so the interleaving happens on purpose.  Everywhere else
 * fault_point() is empty: the library and the tools carry no trace of it.
 *
 * The kernel's fault-injection framework (should_fail() at named sites,
 * include/linux/fault-inject.h) is the model; a hook generalises its
 * "fail here" to "let this happen here".
 */
#ifndef VFSLAB_LIB_FAULT_INJECT_H
#define VFSLAB_LIB_FAULT_INJECT_H

/* Runs in the thread that reached the point, with whatever it holds. */
typedef void (*fault_hook_t)(void *arg);

#ifdef VFSLAB_FAULT_INJECTION

/* How many points may be armed at once. */
#define FAULT_POINTS_MAX 8

/*
 * fault_inject_arm - run @hook(@arg) whenever a thread reaches @point
 *
 * @point is compared by content, so the string need not be the one the
 * code under test names.  Arm before the threads that may reach it start.
 */
void fault_inject_arm(const char *point, fault_hook_t hook, void *arg);

/* fault_inject_disarm - stop running the hook of @point; a hook may disarm itself. */
void fault_inject_disarm(const char *point);

void fault_point_reached(const char *point);
#define fault_point(point) fault_point_reached(point)

#else

#define fault_point(point) \
	do {               \
	} while (0)

#endif /* VFSLAB_FAULT_INJECTION */

#endif /* VFSLAB_LIB_FAULT_INJECT_H */
