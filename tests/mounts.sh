#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# Mounts and openat2: tests/mounts/mounts.t through vfslab and, as root in
# a private mount namespace, through the host kernel, both against the
# recorded Linux answers (mounts.exp); walk --trace showing a mount
# crossing, ".." climbing out of a mount, the m_seq check and
# RESOLVE_CACHED's EAGAIN; the mnt-count variant in both settings.
# To regenerate mounts.exp, as root in a scratch tmpfs directory:
#   vfslab fstest --host <tests/mounts/mounts.t >tests/mounts/mounts.exp

vfslab=${top_builddir:-.}/tools/vfslab
if [ ! -x "$vfslab" ]; then
	echo "mounts: $vfslab not built" >&2
	exit 99
fi
case $vfslab in
/*) ;;
*) vfslab=$(pwd)/$vfslab ;;
esac
dir=${srcdir:-$(dirname "$0")/..}/tests/mounts
case $dir in
/*) ;;
*) dir=$(pwd)/$dir ;;
esac
if [ -d /dev/shm ] && [ -w /dev/shm ]; then
	base=/dev/shm
else
	base=${TMPDIR:-/tmp}
fi
tmp=$(mktemp -d "$base/mounts.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT TERM

. "${srcdir:-$(dirname "$0")/..}/tests/report.sh"

# The script in a fresh directory through "$@"; its output in $tmp/out.
script() {
	rm -rf "$tmp/root" && mkdir "$tmp/root" && chmod 0755 "$tmp/root" || exit 99
	(cd "$tmp/root" && "$@") <"$dir/mounts.t" >"$tmp/out" 2>"$tmp/err"
	rc=$?
}

for variant in mnt-count=percpu mnt-count=atomic; do
	script "$vfslab" fstest --variant "$variant"
	if [ $rc -ne 0 ] || ! diff -u "$dir/mounts.exp" "$tmp/out"; then
		bad "mounts.t on vfslab ($variant, exit $rc)"
		cat "$tmp/err"
	else
		ok "mounts.t on vfslab ($variant): $(wc -l <"$tmp/out") lines as Linux's"
	fi
done

# The host half needs root and a mount namespace of its own.
if [ "$(id -u)" -ne 0 ]; then
	echo "SKIP: mounts.t on the host needs root"
elif ! unshare -m true 2>/dev/null; then
	echo "SKIP: mounts.t on the host: no mount namespace (unshare -m)"
else
	script "$vfslab" fstest --host
	if [ $rc -ne 0 ] || ! diff -u "$dir/mounts.exp" "$tmp/out"; then
		bad "mounts.t on the host kernel (exit $rc)"
		cat "$tmp/err"
	else
		ok "mounts.t on the host kernel: mounts.exp is Linux's"
	fi
fi

# walk ARGS... into $tmp/out; the exit status in $rc.
walk() {
	"$vfslab" walk "$@" >"$tmp/out" 2>&1
	rc=$?
}

walk --trace --no-create -e 'mkdir /mnt 0755' -e 'mount none /mnt tmpfs 0' \
	-e 'mkdir /mnt/d 0755' /mnt/d/../..
if [ $rc -ne 0 ] ||
	! grep -q '^  mount     "mnt" is a mountpoint (DCACHE_MOUNTED): the mount hash gives mount 2' "$tmp/out" ||
	! grep -q '^  mount     ".." at the root of mount 2: up to its mountpoint "mnt" in mount 1' "$tmp/out" ||
	! grep -q '^  unlazy    at "/": legitimize_mnt (mount_lock seq [0-9]* unchanged)' "$tmp/out" ||
	! grep -q '^  done      "/": ino 1, directory' "$tmp/out"; then
	bad "walk --trace across a mount and back (exit $rc)"
	cat "$tmp/out"
else
	ok "walk --trace: a mount crossing, \"..\" out of it, the m_seq check"
fi

walk --trace --no-create --resolve RESOLVE_CACHED /a
if [ $rc -eq 0 ] || ! grep -q '^  start     ref-walk refused: RESOLVE_CACHED' "$tmp/out" ||
	! grep -q '^  done      error EAGAIN' "$tmp/out"; then
	bad "walk --resolve RESOLVE_CACHED on a miss (exit $rc)"
	cat "$tmp/out"
else
	ok "walk --resolve RESOLVE_CACHED: a dcache miss is EAGAIN"
fi

walk --trace --no-create --resolve RESOLVE_NO_XDEV -e 'mkdir /mnt 0755' \
	-e 'mount none /mnt tmpfs 0' /mnt
if [ $rc -eq 0 ] || ! grep -q '^  done      error EXDEV' "$tmp/out"; then
	bad "walk --resolve RESOLVE_NO_XDEV onto a mount (exit $rc)"
	cat "$tmp/out"
else
	ok "walk --resolve RESOLVE_NO_XDEV: a crossing is EXDEV"
fi

walk --resolve RESOLVE_BENEATH,BOGUS /a
if [ $rc -ne 2 ] || ! grep -q "unknown flag 'BOGUS'" "$tmp/out"; then
	bad "walk --resolve with an unknown flag accepted or not named (exit $rc)"
	cat "$tmp/out"
else
	ok "walk --resolve: an unknown flag is refused"
fi

summary
