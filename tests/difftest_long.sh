#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# vfslab difftest at length (`make check-long`): tests/difftest.sh's long
# run, 100,000 calls (20,000 under ASan) of random 500-line scripts through
# vfslab and the host kernel with users mixed, then as one unprivileged user.
DIFFTEST_LONG=1 exec sh "${srcdir:-.}/tests/difftest.sh"
