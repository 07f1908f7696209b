# SPDX-License-Identifier: LGPL-2.1-or-later
# Tests of vfs/ and tools/. Included from tests/local.mk.

# pjdfstest-language scripts: vfslab against the recorded Linux answers,
# and the live host kernel against the same answers.
TESTS += %D%/fstest_vfslab.sh %D%/fstest_host.sh
EXTRA_DIST += %D%/fstest_run.sh %D%/fstest_vfslab.sh %D%/fstest_host.sh %D%/fstest
