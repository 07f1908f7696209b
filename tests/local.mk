# SPDX-License-Identifier: LGPL-2.1-or-later
# Test binaries: one Check program per module, tests/check_<module>.c.

include %D%/lib.mk
include %D%/vfs.mk

TESTS += $(check_PROGRAMS)

# Includes follow the layers: nothing below tools/ reaches up.
TESTS += %D%/layers.sh
EXTRA_DIST += %D%/layers.sh

# The ThreadSanitizer build's suppressions (AM_TESTS_ENVIRONMENT points at it).
EXTRA_DIST += %D%/tsan.supp
