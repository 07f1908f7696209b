#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# vfslab difftest at length (`make check-long`): the README's long run,
# 100,000 calls of random 500-line scripts through vfslab and the host
# kernel, with users mixed and then as one unprivileged user. Skipped (77)
# when not root: the host side switches uids and chroots.
vfslab=${top_builddir:-.}/tools/vfslab

if [ "$(id -u)" -ne 0 ]; then
	echo "SKIP: difftest's host side needs root (it switches uids and chroots)"
	exit 77
fi
"$vfslab" difftest --calls 100000 --seed 1 --lines 500 || exit $?
exec "$vfslab" difftest --calls 100000 --seed 1 --lines 500 --uid 65534
