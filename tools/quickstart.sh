#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# The README's two commands:
#   sh tools/quickstart.sh        install what is missing, build, run vfslab's
#                                 main job (vfslab bench) on its defaults
#   sh tools/quickstart.sh test   the same set-up, then the whole test suite:
#                                 the -Werror build's `make check`,
#                                 `make distcheck` and `make format-check`,
#                                 then the ASan+UBSan build's `make check`
#                                 and the ThreadSanitizer build's threaded tests
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

# Debian 12 packages: the build chain and the three chosen libraries.
pkgs="build-essential autoconf automake autoconf-archive pkgconf liburcu-dev
libjemalloc-dev check libsubunit-dev libedit-dev jq strace gnuplot-nox
clang-format"
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
make -j"$jobs" check || status=1
if [ $status -ne 0 ]; then
	find . -name '*.log' -path '*tests*' -newer Makefile -exec grep -l -e FAIL -e ERROR {} + 2>/dev/null |
		while read -r f; do echo "=== $f"; tail -50 "$f"; done
fi
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
make -j"$jobs" check || status=1

# ThreadSanitizer over the threaded unit tests. `make check` in a
# --enable-sanitizers=thread build runs the rest too (torture included);
# torture's races there depend on the interleaving, so CI keeps to these.
cd "$top"
mkdir -p build-tsan
cd build-tsan
[ -f Makefile ] || ../configure --enable-werror --enable-sanitizers=thread --without-jemalloc >/dev/null
make -j"$jobs" >/dev/null
threaded="tests/check_spinlock tests/check_lockref tests/check_file_ref tests/check_rcu"
threaded="$threaded tests/check_list tests/check_stress tests/check_file"
make -j"$jobs" check TESTS="$threaded" || status=1

cd "$top"
logs="build/test-suite.log build-asan/test-suite.log build-tsan/test-suite.log"
# shellcheck disable=SC2086
pass=$(cat $logs 2>/dev/null | sed -n 's/^# PASS: *//p' | awk '{s+=$1} END {print s+0}')
# shellcheck disable=SC2086
fail=$(cat $logs 2>/dev/null | sed -n 's/^# \(FAIL\|ERROR\): *//p' | awk '{s+=$1} END {print s+0}')
echo "$pass passed, $fail failed"
exit $status
