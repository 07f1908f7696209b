#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# --variant STRUCT=btf imports the running kernel's dentry, file and
# files_struct from its BTF: every member at the offset and size
# `pahole -C STRUCT` prints, sizeof the same (where pahole is installed);
# and the imported layouts run stat2 in the simulator. Skips without BTF or
# libbpf.
set -u
vfslab=${top_builddir:-.}/tools/vfslab
src=${srcdir:-$(dirname "$0")/..}
btf=/sys/kernel/btf/vmlinux
work=$(mktemp -d) || exit 99
trap 'rm -rf "$work"' EXIT
. "$src/tests/report.sh"
. "$src/tests/layout_members.sh"

if [ ! -r "$btf" ]; then
	echo "SKIP: $btf missing: this kernel has no BTF"
	exit 77
fi
if "$vfslab" layout dentry --variant dentry=btf 2>&1 | grep -q "without libbpf"; then
	echo "SKIP: vfslab built without libbpf (Debian: libbpf-dev)"
	exit 77
fi
if ! command -v pahole >/dev/null 2>&1; then
	echo "SKIP (part): pahole (Debian: dwarves) missing: no comparison with pahole -C"
else
	for s in dentry file files_struct; do
		k=$s
		[ "$s" = files_struct ] && k=files
		pahole -C "$s" "$btf" >"$work/pahole" 2>/dev/null
		if "$vfslab" layout "$s" --variant "$k=btf" >"$work/out" 2>&1; then
			same_members "$s from BTF" "$work/pahole" "$work/out"
		else
			bad "$s: import from BTF failed: $(cat "$work/out")"
		fi
		# pahole's text of the same kernel imports the same layout.
		if "$vfslab" layout "$s" --variant "$k=pahole:$work/pahole" >"$work/text" 2>&1 &&
			[ "$(sed 1d "$work/text")" = "$(sed 1d "$work/out")" ]; then
			ok "$s: pahole's text imports what BTF does"
		else
			bad "$s: pahole's text imports otherwise: $(diff "$work/text" "$work/out")"
		fi
	done
fi
if [ ! -x "${top_builddir:-.}/tools/vfslab-sim" ]; then
	echo "SKIP (part): no vfslab-sim in this build (a sanitizer build)"
elif "$vfslab" sim stat2 --variant dentry=btf,file=btf,files=btf --cpus 1,2 --ops 50 \
	--format tsv >"$work/sim" 2>&1 && [ "$(grep -c 'dentry=btf' "$work/sim")" -eq 2 ]; then
	ok "sim stat2 runs the kernel's own layouts"
else
	bad "sim stat2 with btf layouts: $(cat "$work/sim")"
fi
summary
