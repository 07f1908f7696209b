#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# The differential half: the same scripts through the host kernel, in a
# fresh tmpfs directory, as root and as the unprivileged uids the scripts
# switch to. With fstest_vfslab.sh this checks vfslab == .exp == live Linux.
# Skipped (77) when not root: switching users needs it.
exec sh "${srcdir:-.}/tests/fstest_run.sh" "${top_builddir:-.}/tools/vfslab" fstest --host
