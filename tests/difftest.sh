#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# vfslab difftest, bounded: three random scripts of 500 lines (seeds 1-3),
# each through vfslab and through the host kernel in a fresh tmpfs
# directory, compared line by line, then one more with every line but the
# set-up ones as an unprivileged user; a mismatch is shrunk and printed
# with both outputs. Nothing is avoided: every class of call the
# generator makes gives Linux's answer (`vfslab difftest --help` says
# what depends on the host and is never generated). Skipped (77) when not
# root: the host side switches uids and chroots.
#
# With DIFFTEST_LONG=1 (tests/difftest_long.sh, `make check-long`) the
# README's long run instead: DIFFTEST_CALLS calls each way, 100,000 by
# default (about 40 s each here), 20,000 in an AddressSanitizer build,
# where the host side's forks are slow (100,000 took 11 minutes there).
vfslab=${top_builddir:-.}/tools/vfslab

if [ "$(id -u)" -ne 0 ]; then
	echo "SKIP: difftest's host side needs root (it switches uids and chroots)"
	exit 77
fi
if [ "${DIFFTEST_LONG:-}" = 1 ]; then
	calls=100000
	[ "${VFSLAB_SANITIZERS:-}" = address ] && calls=20000
	calls=${DIFFTEST_CALLS:-$calls}
	"$vfslab" difftest --calls "$calls" --seed 1 --lines 500 || exit $?
	exec "$vfslab" difftest --calls "$calls" --seed 1 --lines 500 --uid 65534
fi
"$vfslab" difftest --seed 1 --scripts 3 --lines 500 || exit $?
exec "$vfslab" difftest --seed 4 --scripts 1 --lines 500 --uid 65534
