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
# root: the host side switches uids and chroots. The long run (about 20
# minutes for each):
#
#	vfslab difftest --calls 100000 --seed 1 --lines 500
#	vfslab difftest --calls 100000 --seed 1 --lines 500 --uid 65534
vfslab=${top_builddir:-.}/tools/vfslab

if [ "$(id -u)" -ne 0 ]; then
	echo "SKIP: difftest's host side needs root (it switches uids and chroots)"
	exit 77
fi
"$vfslab" difftest --seed 1 --scripts 3 --lines 500 || exit $?
exec "$vfslab" difftest --seed 4 --scripts 1 --lines 500 --uid 65534
