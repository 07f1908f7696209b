#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# vfslab torture at length (`make check-long`): TORTURE_SECONDS (default
# 60) for each of four runs: eight tasks under the default variant; under
# the oldest algorithms and layouts with a one-try lockref; sixteen tasks
# on random layouts, a 16-bucket dentry hash and a bounded dentry LRU; and
# three tasks checking the invariants every 100 ops. Built with
# --enable-sanitizers=thread this is the ThreadSanitizer torture: a race
# report makes the run fail (TSan's exit status, which torture reports).
secs=${TORTURE_SECONDS:-60}
vfslab=${top_builddir:-.}/tools/vfslab
status=0

run() {
	echo "+ vfslab torture $*"
	"$vfslab" torture --seconds "$secs" "$@" || status=1
}

run --tasks 8 --seed 101
run --tasks 8 --seed 102 \
	--variant dcount=dlock,fref=inc-not-zero,alloc-fd=v6.10,dentry=v6.7,files=shared-lock,lockref-retry=1
run --tasks 16 --seed 103 \
	--variant dentry=randomize:7,file=randomize:11,hash-shift=4,dcache-max-unused=16,lockref-retry=unbounded
run --tasks 3 --seed 104 --check-every 100
exit $status
