// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Linked into the fuzz harnesses. liburcu's call_rcu worker naps 10 ms
 * (poll(NULL, 0, 10)) after each wakeup to gather callbacks, and every
 * VFS teardown waits for it in several rcu_barrier()s: 80 ms an input,
 * which would make the harnesses 30 times slower. This poll(), to which
 * liburcu's calls bind, skips the nap; any other poll is the real one.
 */
#include <poll.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

int poll(struct pollfd *fds, nfds_t nfds, int timeout)
{
	struct timespec ts = { timeout / 1000, (long)(timeout % 1000) * 1000000 };

	if (!fds && !nfds)
		return 0;
	return (int)syscall(SYS_ppoll, fds, nfds, timeout < 0 ? NULL : &ts, NULL, (size_t)8);
}
