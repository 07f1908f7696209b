#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# vfslab replay against recorded strace logs (tests/replay/*.log, recorded
# by tests/replay/record.sh on Linux tmpfs):
#  - `replay --check` on each log must print exactly the .exp next to it:
#    every call's result as the log's, the few differences listed there
#    explained in tests/replay/README (events per call are left out: they
#    are the model's, not the log's);
#  - a throughput run must finish with ops/s > 0 and report the syscalls
#    it did not replay, with variants, copies, --share and, as root, the
#    host kernel as a peer.
#
# REPLAY_REGEN=1 writes the outputs to the .exp files instead.

vfslab=${top_builddir:-.}/tools/vfslab
if [ -n "${srcdir:-}" ]; then
	dir=$srcdir/tests/replay
else
	dir=$(dirname "$0")/replay
fi
if [ ! -x "$vfslab" ]; then
	echo "replay: $vfslab not built" >&2
	exit 99
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/replay.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM

. "${srcdir:-$(dirname "$0")/..}/tests/report.sh"

# What each log needs on the command line, and the exit status expected.
args_of() {
	case $1 in
	formats) echo "" ;; # its getcwd() tells the cwd
	tar | git | threads) echo "" ;; # -y decorations tell it
	*) echo "--cwd /dev/shm/rp" ;;
	esac
}
status_of() {
	case $1 in
	formats) echo 1 ;; # two deliberate lies in the log
	rows) echo 1 ;;    # errnos vfslab cannot give, to print every call
	*) echo 0 ;;
	esac
}

for log in "$dir"/*.log; do
	name=$(basename "$log" .log)
	# shellcheck disable=SC2046
	"$vfslab" replay --check $(args_of "$name") "$log" >"$tmp/$name.raw" 2>"$tmp/$name.err"
	rc=$?
	grep -v '^events per call' "$tmp/$name.raw" |
		sed "s|^replay: .*|replay: $name.log|" >"$tmp/$name.out"
	if [ "${REPLAY_REGEN:-}" = 1 ]; then
		cp "$tmp/$name.out" "$dir/$name.exp" && echo "REGEN: $name"
		continue
	fi
	if [ "$rc" -ne "$(status_of "$name")" ]; then
		bad "$name: exit status $rc, expected $(status_of "$name")"
		cat "$tmp/$name.err"
	elif ! diff -u "$dir/$name.exp" "$tmp/$name.out"; then
		bad "$name: output differs from $name.exp"
	elif ! grep -q '^events per call: rcu_walk' "$tmp/$name.raw"; then
		bad "$name: no event counters"
	else
		ok "$name"
	fi
done
[ "${REPLAY_REGEN:-}" = 1 ] && exit 0

# ops/s of the side labelled $2 in run output $1, 0 if missing.
ops() {
	awk -v side="$2" '
		index($0, side) == 1 && $0 ~ /[0-9.]+[kM]? +[0-9.]+[kM]? +[0-9.]+[kM]? +[0-9.]+x/ {
			for (i = 1; i <= NF; i++)
				if ($i ~ /^[0-9.]+[kM]?$/ && $(i - 1) ~ /^[0-9]+!?$/) { print $i; exit }
		}' "$1"
}

throughput() {
	what=$1
	shift
	"$vfslab" replay --no-pin --seconds 0.2 "$@" >"$tmp/run.out" 2>&1
	rc=$?
	if [ $rc -ne 0 ]; then
		bad "$what: exit status $rc"
		cat "$tmp/run.out"
		return 1
	fi
	if ! grep -q '^not replayed: .*mmap [0-9]' "$tmp/run.out"; then
		bad "$what: the syscalls not replayed are not reported"
		cat "$tmp/run.out"
		return 1
	fi
	for side in "vfslab"; do
		v=$(ops "$tmp/run.out" "$side")
		case $v in
		'' | 0 | 0.0* | 0k | 0M)
			bad "$what: no ops/s for $side (got '$v')"
			cat "$tmp/run.out"
			return 1
			;;
		esac
	done
	ok "$what"
}

throughput "throughput sh.log" --cwd /dev/shm/rp "$dir/sh.log"
throughput "throughput threads.log, 2 copies, two variants" --tasks 2 \
	--variant dcount=dlock --variant fref=inc-not-zero "$dir/threads.log"
throughput "throughput tar.log, 3 copies sharing one tree" --tasks 3 --share "$dir/tar.log"

# --strict: the malformed line and the syscalls not replayed are errors
if "$vfslab" replay --check --strict "$dir/formats.log" >"$tmp/strict.out" 2>&1; then
	bad "--strict accepted a log with a malformed line"
elif ! grep -q 'strict: 1 malformed lines' "$tmp/strict.out"; then
	bad "--strict did not say why"
	cat "$tmp/strict.out"
else
	ok "--strict"
fi

# A tiny log: one call, no syscall it does not know, so the lists the
# report sorts are empty (NULL). The ASan/UBSan tier (configure
# --enable-sanitizers) runs this too: there qsort(NULL, 0, ...) aborted.
printf '1  mkdir("/dev/shm/rp/x", 0755) = 0\n' >"$tmp/tiny.log"
if ! "$vfslab" replay --check --cwd /dev/shm/rp "$tmp/tiny.log" >"$tmp/tiny.out" 2>&1; then
	bad "tiny log: --check failed"
	cat "$tmp/tiny.out"
elif ! grep -q '^not replayed: none$' "$tmp/tiny.out" ||
	! grep -q '^check: 1 calls: 1 match, 0 mismatch' "$tmp/tiny.out"; then
	bad "tiny log: --check did not match its one call"
	cat "$tmp/tiny.out"
elif ! "$vfslab" replay --no-pin --seconds 0.2 --cwd /dev/shm/rp "$tmp/tiny.log" \
	>"$tmp/tiny.out" 2>&1; then
	bad "tiny log: the throughput run failed"
	cat "$tmp/tiny.out"
else
	ok "tiny log"
fi

# The host kernel as a peer: root only (each host task is chrooted).
shm=/dev/shm
if [ "$(id -u)" -eq 0 ] && [ -d $shm ] && [ -w $shm ]; then
	if throughput "throughput git.log with the kernel as a peer" --peer kernel \
		--tmpdir $shm --tasks 2 "$dir/git.log"; then
		v=$(ops "$tmp/run.out" "kernel")
		case $v in
		'' | 0 | 0k | 0M) bad "kernel peer: no ops/s (got '$v')" ;;
		esac
	fi
else
	echo "SKIP: the kernel peer needs root"
fi

summary
