#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# The errno matrix: every tests/fstest/*.t through vfslab must print exactly
# what Linux printed on tmpfs (the .exp files).
exec sh "${srcdir:-.}/tests/fstest_run.sh" "${top_builddir:-.}/tools/vfslab" fstest
