#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Re-measure the README's figures: every command the README quotes, in the
# order it quotes them. Run from the top of the tree after a build:
#   sh tools/figures.sh [build-dir] > figures.txt
# Takes about five minutes on two CPUs; needs /dev/shm (tmpfs).
set -eu
b=${1:-build}
v=$b/tools/vfslab
run() {
	echo "\$ vfslab $*"
	"$v" "$@"
	echo
}

# 1. stat() of a four-component path, one task, against the host kernel.
run bench stat2 --tasks 1 --rounds 7 --interval 0.5
# 2. Two tasks against one, nothing shared (process mode: private fd tables).
for w in stat1 fstat1 open1; do
	run bench "$w" --mode processes --tasks 1,2 --rounds 5 --interval 0.5
done
# 3. Shared objects, thread mode, without and with the kernel's entry cost.
for w in stat2 fstat_onefd open3 dup1; do
	run bench "$w" --tasks 1,2 --rounds 5 --interval 0.5
	run bench "$w" --tasks 1,2 --rounds 5 --interval 0.5 --entry-ns host
done
# 4. A tree of a million files.
run bench --tree 1000000
# 5. The seed scenarios at this machine's two CPUs.
for s in $("$v" scenarios | awk -F: '/^[a-z0-9_-]+: / { print $1 }'); do
	run compare "$s" --tasks 1,2 --rounds 5 --interval 0.4
done
