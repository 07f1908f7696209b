// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * vfslab torture's run: the threaded run in a child, then, on a failure,
 * what failed and the shrinker.
 */
#include "tools/torture/engine.h"

int torture_parse_fail_on(struct torture *tt, const char *spec)
{
	char buf[128], *err, *crash;

	snprintf(buf, sizeof(buf), "%s", spec);
	err = strchr(buf, ':');
	if (!err)
		return -1;
	*err++ = '\0';
	crash = strchr(err, ':');
	if (crash) {
		*crash++ = '\0';
		if (strcmp(crash, "crash") && strcmp(crash, "hang"))
			return -1;
		tt->fail_on_crash = !strcmp(crash, "crash");
		tt->fail_on_hang = !tt->fail_on_crash;
	}
	tt->fail_on_op = -1;
	for (int i = 0; i < OP_NR_RANDOM; i++)
		if (!strcmp(torture_ops[i].name, buf))
			tt->fail_on_op = i;
	if (sys_errno_by_name(err))
		tt->fail_on_errno = sys_errno_by_name(err);
	return tt->fail_on_op < 0 || !tt->fail_on_errno ? -1 : 0;
}

int torture_main(struct torture *tt)
{
	struct sup s = { .tt = tt };
	struct failure f;
	unsigned long counts[MAX_THREADS];
	char desc[2048]; /* three layout paths and the rest */
	int rc;

	s.shm = mmap(NULL, sizeof(*s.shm), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1,
		     0);
	if (s.shm == MAP_FAILED) {
		perror("vfslab torture: mmap");
		return 2;
	}
	progress_init(&s.progress, "torture");
	vfs_config_describe(&tt->cfg, desc, sizeof(desc));
	printf("vfslab torture: seed %" PRIu64 ", %u tasks, ", tt->seed, tt->ntasks);
	if (tt->ops)
		printf("%lu ops%s", tt->ops, tt->seconds ? " or " : "");
	if (tt->seconds)
		printf("%.0f s", tt->seconds);
	printf("\nvariant: %s\n", desc);

	rc = torture_run_child(&s, torture_threaded_child, tt, false, &f);
	torture_echo_stderr(&s);
	if (rc == 2) {
		printf("INTERRUPTED by %s (seed %" PRIu64 "): the run did not stop and was "
		       "killed; ops started per task:",
		       intr_name(), tt->seed);
		for (unsigned int k = 0; k < tt->ntasks; k++)
			printf(" T%u %lu", k, s.shm->started[k]);
		printf("\n");
		munmap(s.shm, sizeof(*s.shm));
		free(s.errtext);
		return intr_status();
	}
	if (!rc) {
		if (intr_pending())
			printf("INTERRUPTED by %s (seed %" PRIu64 "): partial run, the ops above "
			       "passed every check\n",
			       intr_name(), tt->seed);
		else
			printf("PASS (seed %" PRIu64 ")\n", tt->seed);
		munmap(s.shm, sizeof(*s.shm));
		free(s.errtext);
		return intr_pending() ? intr_status() : 0;
	}
	for (unsigned int k = 0; k < tt->ntasks; k++)
		counts[k] = s.shm->started[k];
	printf("\nFAIL (seed %" PRIu64 "): %s: %s\n", tt->seed, torture_fkind_names[f.kind], f.msg);
	if (f.thread >= 0 && f.index >= 0)
		torture_print_threaded_op(tt, f.thread, f.index, "failing op:");
	else if (f.kind == FK_CRASH || f.kind == FK_HANG)
		for (unsigned int k = 0; k < tt->ntasks; k++)
			if (counts[k])
				torture_print_threaded_op(tt, k, counts[k] - 1, "last started:");
	printf("  ops per task:");
	for (unsigned int k = 0; k < tt->ntasks; k++)
		printf(" T%u %lu", k, counts[k]);
	printf("\n");
	rc = intr_pending() ? 2 : torture_shrink(&s, &f, counts);
	if (rc == 2) {
		printf("INTERRUPTED by %s (seed %" PRIu64
		       "): shrinking the failure above did not finish\n",
		       intr_name(), tt->seed);
		rc = intr_status();
	}
	munmap(s.shm, sizeof(*s.shm));
	free(s.errtext);
	return rc;
}
