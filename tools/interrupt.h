/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Ctrl-C for the long commands (tools/interrupt.c). intr_catch() makes the
 * first SIGINT or SIGTERM only set a flag, which the command's loops poll
 * at safe points: they stop, remove their scratch directories and print
 * what they measured, marked as partial, and the command exits with
 * intr_status(). A second signal takes its default action at once.
 *
 * Scratch directories made through intr_mkdtemp() or intr_scratch_add()
 * are also removed at exit if a command leaves them behind on an error.
 *
 * The progress helper prints one line to stderr every few seconds, and
 * only when stderr is a terminal.
 */
#ifndef VFSLAB_TOOLS_INTERRUPT_H
#define VFSLAB_TOOLS_INTERRUPT_H

#include <signal.h>
#include <stdbool.h>

/* Catch SIGINT and SIGTERM from now on (no SA_RESTART: sleeps wake). */
void intr_catch(void);
/* The signal caught, or 0. Safe in any thread and after fork. */
int intr_pending(void);
/* The conventional exit status of an interrupted command: 128 + signal. */
int intr_status(void);
/* The signal's name for messages ("SIGINT"). */
const char *intr_name(void);

/* Block SIGINT and SIGTERM in the calling thread (*old: the mask before),
 * so that threads created now leave the signals to the main thread. */
void intr_block(sigset_t *old);
void intr_restore(const sigset_t *old);

/* Sleep for s seconds unless a signal is or gets caught; false if it was. */
bool intr_sleep(double s);

/* mkdtemp(tmpl) and intr_scratch_add(); NULL with errno as mkdtemp's. */
char *intr_mkdtemp(char *tmpl);
/* Remove path (recursively) at exit unless intr_scratch_rm() did first. */
void intr_scratch_add(const char *path);
/* Remove path and everything under it, now; forget it. */
void intr_scratch_rm(const char *path);

/* One line of progress every PROGRESS_EVERY seconds, when stderr is a tty. */
#define PROGRESS_EVERY 5.0

struct progress {
	const char *cmd; /* "vfslab CMD: " starts each line */
	bool on;
	double t0, next;
};

void progress_init(struct progress *p, const char *cmd);
/* Is a line due? Cheap enough for every turn of a loop of syscalls. */
bool progress_due(struct progress *p);
/* Print a line (printf-style), with the seconds since progress_init(). */
void progress_print(struct progress *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif /* VFSLAB_TOOLS_INTERRUPT_H */
