#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# Output that cannot be written is a failure: every command that prints,
# with stdout on /dev/full, exits non-zero and says so; so does a --json
# file there.
set -u
vfslab=${top_builddir:-.}/tools/vfslab
work=$(mktemp -d) || exit 99
trap 'rm -rf "$work"' EXIT
. "${srcdir:-$(dirname "$0")/..}/tests/report.sh"

if ! [ -c /dev/full ] || echo x 2>/dev/null >/dev/full; then
	echo "SKIP: no /dev/full here"
	exit 77
fi
echo 'mkdir /a 0755 : stat /a mode' >"$work/script"

# full NAME ARGS...: vfslab ARGS >/dev/full fails and names the problem.
full() {
	name=$1
	shift
	if "$vfslab" "$@" >/dev/full 2>"$work/err"; then
		bad "$name: exit status 0 with stdout on /dev/full"
	elif ! grep -q "cannot write to standard output" "$work/err"; then
		bad "$name: no message: $(head -c 300 "$work/err")"
	else
		ok "$name"
	fi
}

full "bench --format json" bench stat1 --tasks 1 --rounds 1 --interval 0.01 --peer none \
	--format json
full "layout" layout
full "layout --list" layout --list
full "scenarios" scenarios
full "fstest" fstest "$work/script"
full "walk" walk /a/b
full "help variants" help variants
full "--help" --help
full "bench --list" bench --list

if "$vfslab" bench stat1 --tasks 1 --rounds 1 --interval 0.01 --peer none \
	--json /dev/full >/dev/null 2>"$work/err"; then
	bad "bench --json /dev/full: exit status 0"
elif grep -q "cannot write /dev/full" "$work/err"; then
	ok "bench --json /dev/full"
else
	bad "bench --json /dev/full: $(head -c 300 "$work/err")"
fi

summary
