#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# The README's two commands:
#   sh tools/quickstart.sh        install what is missing, build, run vfslab's
#                                 main job (vfslab bench) on its defaults
#   sh tools/quickstart.sh test   the same set-up, then the whole test suite,
#                                 both tiers: the -Werror build's `make check`
#                                 and `make check-long`, `make distcheck` and
#                                 `make format-check`, then the ASan+UBSan
#                                 build's `make check` and `make check-long`,
#                                 and the ThreadSanitizer build's threaded
#                                 unit tests and `make check-long` (there the
#                                 TSan torture)
set -eu
cd "$(dirname "$0")/.."
top=$(pwd)
mode=${1:-run}
case $mode in
run | test) ;;
*)
	echo "usage: sh tools/quickstart.sh [test]" >&2
	exit 2
	;;
esac

# Debian 12 packages: the build chain and the four chosen libraries; for
# tests only, GNU parallel (2 MB) and Chromium, which renders sim's heat map
# (about 130 MB to fetch, 420 MB installed).
pkgs="build-essential autoconf automake autoconf-archive pkgconf liburcu-dev
libjemalloc-dev check libsubunit-dev libedit-dev libjansson-dev jq python3 strace
gnuplot-nox clang-format libbpf-dev dwarves parallel chromium"
missing=""
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" ||
		missing="$missing $p"
done
if [ -n "$missing" ]; then
	echo "quickstart: installing:$missing"
	sudo=""
	[ "$(id -u)" -eq 0 ] || sudo=sudo
	$sudo apt-get update -qq
	# shellcheck disable=SC2086
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $missing >/dev/null
fi

jobs=$(nproc 2>/dev/null || echo 2)
[ -x configure ] && [ configure -nt configure.ac ] || ./autogen.sh
mkdir -p build
cd build
[ -f Makefile ] || ../configure --enable-werror >/dev/null
make -j"$jobs" >/dev/null

if [ "$mode" = run ]; then
	exec ./tools/vfslab bench
fi

status=0
# make "$@" in this build; on a failure, the logs of the tests that failed.
run_tests() {
	if ! make -j"$jobs" "$@"; then
		status=1
		grep -l -r -e '^:test-result: FAIL' -e '^:test-result: ERROR' --include='*.trs' . |
			while read -r f; do echo "=== ${f%.trs}.log"; tail -50 "${f%.trs}.log"; done
	fi
}

run_tests check
run_tests check-long
make -j"$jobs" distcheck >distcheck.log 2>&1 || {
	tail -40 distcheck.log
	echo "quickstart: make distcheck failed"
	status=1
}
make format-check || {
	echo "quickstart: make format-check failed (run make format)"
	status=1
}

cd "$top"
mkdir -p build-asan
cd build-asan
[ -f Makefile ] || ../configure --enable-werror --enable-sanitizers --without-jemalloc >/dev/null
make -j"$jobs" >/dev/null
run_tests check
run_tests check-long

# ThreadSanitizer over the threaded unit tests, then `make check-long`,
# which in this build is the TSan torture (a race report fails it).
cd "$top"
mkdir -p build-tsan
cd build-tsan
[ -f Makefile ] || ../configure --enable-werror --enable-sanitizers=thread --without-jemalloc >/dev/null
make -j"$jobs" >/dev/null
threaded="tests/check_spinlock tests/check_lockref tests/check_file_ref tests/check_rcu"
threaded="$threaded tests/check_list tests/check_stress tests/check_file"
threaded="$threaded tests/check_dcache_parallel"
run_tests check TESTS="$threaded"
run_tests check-long

cd "$top"
logs=$(ls build*/test-suite.log build*/test-suite-long.log 2>/dev/null)
# shellcheck disable=SC2086
pass=$(cat $logs 2>/dev/null | sed -n 's/^# PASS: *//p' | awk '{s+=$1} END {print s+0}')
# shellcheck disable=SC2086
fail=$(cat $logs 2>/dev/null | sed -n 's/^# \(FAIL\|ERROR\): *//p' | awk '{s+=$1} END {print s+0}')
echo "$pass passed, $fail failed"
exit $status
