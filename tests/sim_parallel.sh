#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# A sweep spread by GNU parallel: `vfslab sim ... --emit-jobs DIR` writes a
# command a simulation, `parallel` runs them (two at a time, here; with
# --sshloginfile on other machines), and `--collect DIR` prints the same
# report as --jobs 1, bit for bit: a workload's CPU counts and sides, and a
# scenario's before and after with its heat map.
set -u
bin=${top_builddir:-.}/tools
bin=$(cd "$bin" && pwd)
[ -x "$bin/vfslab-sim" ] || { echo "SKIP: no vfslab-sim in this build"; exit 77; }
command -v parallel >/dev/null || { echo "SKIP: no GNU parallel (apt-get install parallel)"; exit 77; }
parallel --version 2>/dev/null | grep -q 'GNU parallel' ||
	{ echo "SKIP: parallel is not GNU parallel"; exit 77; }
work=$(mktemp -d "${TMPDIR:-/tmp}/sim-par.XXXXXX") || exit 99
trap 'rm -rf "$work"' EXIT
fail=0

# Compared without the simulator's speed, this machine's and not the result's.
nospeed=$(dirname "$0")/sim_nospeed.sh
# check NAME ARGS...: --jobs 1 against parallel through --emit-jobs/--collect.
check() {
	name=$1
	shift
	"$bin/vfslab" sim "$@" --report html "$work/$name.1.html" >"$work/$name.1" 2>/dev/null ||
		{ echo "FAIL: $name: sim exited $?"; fail=1; return; }
	"$bin/vfslab" sim "$@" --emit-jobs "$work/$name" >/dev/null ||
		{ echo "FAIL: $name: --emit-jobs exited $?"; fail=1; return; }
	(cd "$work/$name" && PATH="$bin:$PATH" parallel --will-cite -j 2 <jobs) >/dev/null 2>&1 ||
		{ echo "FAIL: $name: parallel exited $?"; fail=1; return; }
	"$bin/vfslab" sim "$@" --collect "$work/$name" --report html "$work/$name.p.html" \
		>"$work/$name.p" 2>"$work/err" || { echo "FAIL: $name: $(cat "$work/err")"; fail=1; return; }
	for f in "" .html; do
		if [ "$(sh "$nospeed" "$work/$name.1$f")" != "$(sh "$nospeed" "$work/$name.p$f")" ]; then
			echo "FAIL: $name: the report$f through parallel differs from --jobs 1"
			diff "$work/$name.1$f" "$work/$name.p$f" | head -20
			fail=1
		fi
	done
	echo "$name: $(wc -l <"$work/$name/jobs") simulations through parallel, same report"
}

check sweep stat2 --cpus 1,2,4 --ops 200 --variant dentry=v6.10 --variant dentry=v6.11 --report c2c
check scenario d_lockref --seeds 2 --cpus 8,20
[ $fail = 0 ] && echo "PASS: GNU parallel's sweeps match --jobs 1 bit for bit"
exit $fail
