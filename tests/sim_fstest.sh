#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# The simulator's build of lib/ and vfs/ (instrumented, simulated RCU, the
# simulated heap and clock) must answer every tests/fstest/*.t exactly as
# Linux did on tmpfs, like vfslab's: each script runs on one virtual CPU.
# A sanitizer build has no simulator (tools/simrun/local.mk).
[ -x "${top_builddir:-.}/tools/vfslab-sim" ] || { echo "SKIP: no vfslab-sim in this build"; exit 77; }
# fifo.t's blocking pairs need a second CPU for their background lines.
FSTEST_SKIP="fifo ${FSTEST_SKIP:-}"
export FSTEST_SKIP
exec sh "${srcdir:-.}/tests/fstest_run.sh" "${top_builddir:-.}/tools/vfslab-sim" fstest
