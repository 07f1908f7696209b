#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# vfslab torture, bounded: four threads (two pairs sharing files, one task
# not root) under the default variant and under the oldest algorithms and
# layouts, then the shrinker on a planted failure, as a clean failure and
# as a crash: each must come down to the few ops that cause it.
vfslab=${top_builddir:-.}/tools/vfslab
out=${TMPDIR:-/tmp}/torture.$$
trap 'rm -f "$out"' EXIT
status=0

run() {
	echo "+ vfslab torture $*"
	"$vfslab" torture "$@"
}

run --tasks 4 --ops 20000 --seed 1 || status=1
run --tasks 4 --ops 20000 --seed 2 \
	--variant dcount=dlock,fref=inc-not-zero,alloc-fd=v6.10,dentry=v6.7 || status=1

# rmdir of a non-empty directory needs mkdir, something inside it, rmdir
# (or mkdir and rmdir of "dir/.."): the minimal sequence has at most 3 ops.
# One task, so the replay order is the run's own and the test deterministic.
for how in "" ":crash"; do
	if run --tasks 1 --ops 4000 --seed 3 --fail-on "rmdir:ENOTEMPTY$how" >"$out" 2>&1; then
		cat "$out"
		echo "FAIL: --fail-on rmdir:ENOTEMPTY$how did not fail"
		status=1
		continue
	fi
	cat "$out"
	n=$(sed -n 's/^minimal sequence (seed [0-9]*): \([0-9]*\) ops.*/\1/p' "$out")
	if [ -z "$n" ] || [ "$n" -gt 3 ] || ! grep -q "rmdir.*<-- \(FAILS\|CRASHES\)" "$out"; then
		echo "FAIL: --fail-on rmdir:ENOTEMPTY$how: no minimal sequence of at most 3 ops"
		status=1
	fi
done
exit $status
