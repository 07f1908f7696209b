#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Run every tests/fstest/*.t through an fstest command, each in a fresh
# empty directory, and compare its stdout with the .exp next to it.
#
# usage: tests/fstest_run.sh [CMD [ARG...]]
#	CMD reads a script on stdin, e.g. "tools/vfslab fstest" (the
#	default, from $top_builddir) or "tools/vfslab fstest --host".
#
# Environment:
#   srcdir         scripts are read from $srcdir/tests/fstest (Automake),
#                  else from the fstest directory next to this script
#   FSTEST_DIR     read the scripts from this directory instead
#   FSTEST_TMPDIR  where scratch directories go; the .exp files are the
#                  host's answers on tmpfs, so the default is /dev/shm
#   FSTEST_ONLY    names of the tests to run (e.g. "open rename")
#   FSTEST_SKIP    names of tests not to run
#   FSTEST_REGEN=1 write the outputs to the .exp files instead of
#                  comparing (to regenerate them with --host, as root)

if [ -n "${srcdir:-}" ]; then
	dir=$srcdir/tests/fstest
else
	dir=$(dirname "$0")/fstest
fi
dir=${FSTEST_DIR:-$dir}
if [ ! -d "$dir" ]; then
	echo "fstest_run: no script directory $dir" >&2
	exit 99
fi

if [ $# -eq 0 ]; then
	set -- "${top_builddir:-.}/tools/vfslab" fstest
fi
# The command runs from the scratch directory: make its path absolute.
case $1 in
/*) ;;
*/*) cmd=$(pwd)/$1; shift; set -- "$cmd" "$@" ;;
esac

if ! command -v "$1" >/dev/null 2>&1; then
	echo "fstest_run: $1: command not found" >&2
	exit 99
fi

# The host backend switches users and chroots: only root can.
host=0
for arg in "$@"; do
	if [ "$arg" = --host ] && [ "$(id -u)" -ne 0 ]; then
		echo "SKIP: the host backend needs root"
		exit 77
	fi
	[ "$arg" = --host ] && host=1
done

if [ -n "${FSTEST_TMPDIR:-}" ]; then
	base=$FSTEST_TMPDIR
elif [ -d /dev/shm ] && [ -w /dev/shm ]; then
	base=/dev/shm
else
	base=${TMPDIR:-/tmp}
fi
fstype=$(stat -f -c %T "$base" 2>/dev/null || echo unknown)
if [ "$fstype" != tmpfs ]; then
	echo "note: $base is $fstype, not tmpfs: host results may differ" >&2
fi

work=$(mktemp -d "$base/fstest.XXXXXX") && chmod 0755 "$work" || exit 99
trap 'rm -rf "$work"' EXIT
trap 'exit 1' HUP INT TERM

# Scripts marked "# needs: dev" open device nodes: on the host that needs
# a mount without nodev (a container's /dev/shm often has it).
devok=1
if [ $host = 1 ]; then
	{ mknod "$work/.null" c 1 3 && (: <"$work/.null"); } 2>/dev/null || devok=0
	rm -f "$work/.null"
fi

pass=0
fail=0
for t in "$dir"/*.t; do
	[ -e "$t" ] || continue
	name=$(basename "$t" .t)
	if [ -n "${FSTEST_ONLY:-}" ]; then
		case " $FSTEST_ONLY " in
		*" $name "*) ;;
		*) continue ;;
		esac
	fi
	case " ${FSTEST_SKIP:-} " in
	*" $name "*) continue ;;
	esac
	if [ $devok = 0 ] && grep -q '^# needs: dev$' "$t"; then
		echo "SKIP: $name ($base is mounted nodev: no device opens there)"
		continue
	fi
	exp=$dir/$name.exp
	root=$work/$name.root
	out=$work/$name.out
	err=$work/$name.err
	# A fresh directory that unprivileged users can enter.
	mkdir "$root" && chmod 0755 "$root" || exit 99
	(cd "$root" && exec "$@") <"$t" >"$out" 2>"$err"
	rc=$?
	rm -rf "$root"

	if [ "${FSTEST_REGEN:-}" = 1 ]; then
		if [ $rc -ne 0 ]; then
			echo "FAIL: $name (exit status $rc, .exp not written)"
			cat "$err"
			fail=$((fail + 1))
			continue
		fi
		cp "$out" "$exp" || exit 99
		echo "REGEN: $name"
		pass=$((pass + 1))
		continue
	fi

	if [ ! -f "$exp" ]; then
		echo "FAIL: $name (no $exp)"
		fail=$((fail + 1))
		continue
	fi
	diff -u "$exp" "$out" >"$work/$name.diff"
	same=$?
	if [ $rc -eq 0 ] && [ $same -eq 0 ]; then
		echo "PASS: $name"
		pass=$((pass + 1))
	else
		echo "FAIL: $name (exit status $rc)"
		cat "$work/$name.diff" "$err"
		fail=$((fail + 1))
	fi
done

echo "$pass passed, $fail failed"
if [ $((pass + fail)) -eq 0 ]; then
	echo "fstest_run: no test ran" >&2
	exit 99
fi
[ $fail -eq 0 ]
