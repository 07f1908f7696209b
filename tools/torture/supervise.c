// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The supervisor: every run and replay happens in a forked child that
 * reports through a shared mapping, so a crash or a hang is a result.
 */
#include <sys/prctl.h>

#include "tools/torture/engine.h"

const char *const torture_fkind_names[] = {
	[FK_NONE] = "none",
	[FK_ERRNO] = "implausible errno",
	[FK_VALUE] = "implausible return value",
	[FK_INVARIANT] = "invariant broken",
	[FK_WARN] = "kernel-style WARN",
	[FK_INJECTED] = "--fail-on",
	[FK_CRASH] = "crash",
	[FK_HANG] = "hang",
};

/* What a dead child's stderr says it died of: a short, stable signature. */
static void crash_sig(const char *text, char *sig, size_t len)
{
	static const char *const keys[] = { "BUG at ",		 "AddressSanitizer: ",
					    "LeakSanitizer: ",	 "runtime error: ",
					    "ThreadSanitizer: ", "--fail-on " };
	const char *best = NULL;
	size_t n;

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]) && !best; i++)
		best = strstr(text, keys[i]);
	if (!best) {
		sig[0] = '\0';
		return;
	}
	n = strcspn(best, "\n");
	/* Drop addresses: "heap-use-after-free on address 0x..." keeps its kind. */
	if (strstr(best, " on address ") && (size_t)(strstr(best, " on address ") - best) < n)
		n = strstr(best, " on address ") - best;
	snprintf(sig, len, "%.*s", (int)n, best);
}

void torture_echo_stderr(const struct sup *s)
{
	fflush(stdout);
	if (s->errlen)
		fwrite(s->errtext, 1, s->errlen, stderr);
	fflush(stderr);
}

int torture_threaded_child(const void *arg, struct shared *shm)
{
	return torture_run_threaded(arg, shm);
}

int torture_replay_child(const void *arg, struct shared *shm)
{
	return torture_run_replay(arg, shm);
}

unsigned long torture_progress(const struct sup *s)
{
	unsigned long p = (unsigned long)__atomic_load_n(&s->shm->replay_pos, __ATOMIC_RELAXED);

	for (unsigned int k = 0; k < s->tt->ntasks; k++)
		p += __atomic_load_n(&s->shm->started[k], __ATOMIC_RELAXED);
	return p;
}

/* Seconds an interrupted run has to stop and report before it is killed. */
#define INTR_GRACE 5

/* Ctrl-C: the threaded run stops where it is and reports; a replay is killed. */
static void interrupt_child(struct sup *s, child_fn fn, pid_t pid)
{
	__atomic_store_n(&s->shm->interrupted, 1, __ATOMIC_RELAXED);
	if (fn != torture_threaded_child)
		kill(pid, SIGKILL);
}

static void print_progress(struct sup *s, child_fn fn, unsigned long p)
{
	if (fn == torture_threaded_child)
		progress_print(&s->progress, "%lu ops", p);
	else
		progress_print(&s->progress, "%s: at op %lu of a replay", s->doing, p);
}

/*
 * Run fn in a child; 0 if it passed, 1 with *f filled if it failed, 2 if
 * a signal stopped a replay, or a run that did not stop in INTR_GRACE
 * seconds. quiet
 * sends the child's stdout to /dev/null; its stderr is kept in s->errtext
 * (torture_echo_stderr() shows it).
 */
int torture_run_child(struct sup *s, child_fn fn, const void *arg, bool quiet, struct failure *f)
{
	int errfd = memfd_create("vfslab-torture-stderr", 0), status = 0;
	unsigned long last = 0, p;
	double changed = torture_now(), interrupted = 0;
	bool hung = false, killed = false;
	unsigned int polls = 0;
	/* A single-threaded replay that stalls this long is stuck for good. */
	double hang = fn == torture_replay_child && s->tt->hang_seconds > 15 ? 15 :
									       s->tt->hang_seconds;
	pid_t pid;

	memset(s->shm, 0, sizeof(*s->shm));
	s->shm->replay_pos = 0;
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		perror("vfslab torture: fork");
		exit(2);
	}
	if (pid == 0) {
		/* A crash is a result here, not something to dump a core for. */
		struct rlimit nocore = { 0, 0 };

		setrlimit(RLIMIT_CORE, &nocore);
		/* A supervisor killed by a second Ctrl-C takes its run along. */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (quiet) {
			int null = open("/dev/null", O_WRONLY);

			if (null >= 0)
				dup2(null, 1);
		}
		if (errfd >= 0)
			dup2(errfd, 2);
		exit(fn(arg, s->shm));
	}
	for (;;) {
		struct timespec ts = { 0, polls < 50  ? 1000000 :
					  polls < 200 ? 10000000 :
							50000000 };

		if (waitpid(pid, &status, WNOHANG) == pid)
			break;
		polls++;
		if (intr_pending() && !interrupted) {
			interrupted = torture_now();
			interrupt_child(s, fn, pid);
		} else if (interrupted && torture_now() - interrupted > INTR_GRACE) {
			kill(pid, SIGKILL); /* a deadlock, or --fail-on's :hang */
			waitpid(pid, &status, 0);
			killed = true;
			break;
		}
		p = torture_progress(s);
		if (progress_due(&s->progress))
			print_progress(s, fn, p);
		if (p != last) {
			last = p;
			changed = torture_now();
		} else if (torture_now() - changed > hang) {
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			hung = true;
			break;
		}
		nanosleep(&ts, NULL);
	}
	free(s->errtext);
	s->errtext = NULL;
	s->errlen = 0;
	if (errfd >= 0) {
		off_t end = lseek(errfd, 0, SEEK_END);

		s->errtext = calloc(1, end + 1);
		if (s->errtext && end > 0 && pread(errfd, s->errtext, end, 0) == end)
			s->errlen = end;
		close(errfd);
	}
	memset(f, 0, sizeof(*f));
	if (interrupted && (killed || fn != torture_threaded_child))
		return 2;
	if (__atomic_load_n(&s->shm->result, __ATOMIC_ACQUIRE) == RES_FAIL) {
		*f = s->shm->fail;
		return 1;
	}
	if (!hung && WIFEXITED(status) && WEXITSTATUS(status) == 0 && s->shm->result == RES_PASS)
		return 0;
	f->op_kind = -1;
	f->thread = -1;
	f->index = s->shm->replay_pos;
	if (hung) {
		f->kind = FK_HANG;
		snprintf(f->msg, sizeof(f->msg), "no op finished for %.0f s (a deadlock?)", hang);
		return 1;
	}
	f->kind = FK_CRASH;
	crash_sig(s->errtext ? s->errtext : "", f->sig, sizeof(f->sig));
	if (WIFSIGNALED(status))
		snprintf(f->msg, sizeof(f->msg), "killed by signal %d (%s)%s%s", WTERMSIG(status),
			 strsignal(WTERMSIG(status)), f->sig[0] ? ": " : "", f->sig);
	else
		snprintf(f->msg, sizeof(f->msg), "exited with status %d without a report%s%s",
			 WEXITSTATUS(status), f->sig[0] ? ": " : "", f->sig);
	return 1;
}
