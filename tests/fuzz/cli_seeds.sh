#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Seeds for the command-line harness (tests/fuzz/fuzz_cli.c), one argv a
# file, its arguments NUL-separated:
#
#	tests/fuzz/cli_seeds.sh VFSLAB DIR
#
# Every option that each command's --help names (`vfslab --help` lists the
# commands; sim's calibrate and validate too), alone and with values good
# and bad; `help COMMAND`; and the bad inputs of tests/cli_input.sh.
set -u
vfslab=$1 dir=$2
top=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$dir" || exit 1
n=0

# seed ARG...: one input.
seed() {
	n=$((n + 1))
	printf '%s\0' "$@" >"$dir/seed-$n"
}

cmds=$("$vfslab" --help | sed -n '/^commands:/,/^$/s/^  \([a-z]*\) .*/\1/p')
[ -n "$cmds" ] || {
	echo "cli_seeds: no commands in $vfslab --help" >&2
	exit 1
}
for c in $cmds "sim calibrate" "sim validate"; do
	# shellcheck disable=SC2086
	set -- $c
	seed "$@"
	seed help "$@"
	# What --help names; sim's own needs vfslab-sim, not in every build.
	opts=$("$vfslab" "$@" --help 2>/dev/null | grep -o -- '-[-a-zA-Z][-a-z0-9]*' | sort -u)
	for o in $opts; do
		seed "$@" "$o"
		for v in 1 0 -1 4 1-4 1,2,4 0x10 1e3 0.5 nan 18446744073709551616 x '' \
			dentry=v6.7 dcount=lockref,file=v5.8 stat2 dcount json csv /dev/null; do
			seed "$@" "$o" "$v"
			seed "$@" "$o=$v"
		done
	done
done
seed
seed --help
seed --version
seed bogus

# tests/cli_input.sh's refusals, its files where they are not.
refused() {
	shift 2
	seed "$@"
}
# shellcheck disable=SC2034 # the refusals name files in $work
work=/nonexistent/cli-seeds
grep -e '^num=' -e '^refused ' "$top/tests/cli_input.sh" >"$dir/.refused" || exit 1
# shellcheck disable=SC1091
. "$dir/.refused"
rm -f "$dir/.refused"
echo "cli_seeds: $n seeds in $dir"
