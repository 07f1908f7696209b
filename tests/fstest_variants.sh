#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# A variant changes speed, never semantics: the whole fstest suite gives
# Linux's answers under the kernel's old layouts and algorithms, a random
# layout, and a dcache that keeps negative dentries.
set -u
status=0
for spec in \
	dentry=v6.7,file=v5.8,files=shared-lock,dcount=dlock,fref=inc-not-zero,alloc-fd=v6.10 \
	dentry=v6.10,file=zhang-2020,lockref-retry=1,fsnotify-parent=on \
	dcount=atomic,dcache-max-unused=8,fsnotify-parent=on \
	dentry=randomize:7,file=randomize:11,lockref-retry=unbounded,dcache-max-unused=16,hash-shift=4; do
	echo "variant $spec"
	sh "${srcdir:-.}/tests/fstest_run.sh" "${top_builddir:-.}/tools/vfslab" fstest \
		--variant "$spec" || status=1
done
exit $status
