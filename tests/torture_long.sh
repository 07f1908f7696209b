#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# vfslab torture at length (`make check-long`), four runs: eight tasks
# under the default variant; under the oldest algorithms and layouts with a
# one-try lockref; sixteen tasks on random layouts, a 16-bucket dentry hash
# (long chains) and a bounded dentry LRU; three tasks checking the
# invariants every 100 ops. Each runs TORTURE_SECONDS (default 60).
#
# Built with --enable-sanitizers=thread this is the ThreadSanitizer
# torture: a race report fails the run (TSan's exit status, which torture
# reports). There each run is TORTURE_OPS ops (default 2000000, about half
# a minute) instead: a failure is replayed single-threaded before it is
# reported, and a minute's ops take many minutes to replay under TSan.
vfslab=${top_builddir:-.}/tools/vfslab
if [ "${VFSLAB_SANITIZERS:-}" = thread ]; then
	length="--ops ${TORTURE_OPS:-2000000}"
else
	length="--seconds ${TORTURE_SECONDS:-60}"
fi
status=0

run() {
	echo "+ vfslab torture $length $*"
	# shellcheck disable=SC2086
	"$vfslab" torture $length "$@" || status=1
}

run --tasks 8 --seed 101
run --tasks 8 --seed 102 \
	--variant dcount=dlock,fref=inc-not-zero,alloc-fd=v6.10,dentry=v6.7,files=shared-lock,lockref-retry=1
run --tasks 16 --seed 103 \
	--variant dentry=randomize:7,file=randomize:11,hash-shift=4,dcache-max-unused=16,lockref-retry=unbounded
run --tasks 3 --seed 104 --check-every 100
exit $status
