#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# vfslab layout prints the kernel's declarations: arrays with their length
# (never a bare `[]`), unions with their members, files_struct at the
# kernel's 704 bytes and 64-byte alignment. Where pahole and the running
# kernel's BTF are at hand (a v6.15+ kernel: the default presets' era), every
# member both print has the same offset, size and type as pahole's.
set -u
vfslab=${top_builddir:-.}/tools/vfslab
work=$(mktemp -d) || exit 99
trap 'rm -rf "$work"' EXIT
. "${srcdir:-$(dirname "$0")/..}/tests/report.sh"

# has STRUCT PRESET TEXT WHAT: `layout STRUCT` under PRESET prints TEXT.
has() {
	"$vfslab" layout "$1" --variant "$(key "$1")=$2" >"$work/out" 2>&1
	if grep -qF -- "$3" "$work/out"; then
		ok "$1 $2: $4"
	else
		bad "$1 $2: $4: no '$3' in: $(cat "$work/out")"
	fi
}

key() {
	case $1 in
	files_struct) echo files ;;
	*) echo "$1" ;;
	esac
}

# No preset prints a slot as `[]`, which reads as a flexible array.
"$vfslab" layout --list >"$work/list" || bad "layout --list failed"
while read -r s p _; do
	"$vfslab" layout "$s" --variant "$(key "$s")=$p" >"$work/out" 2>&1 ||
		bad "layout $s --variant $p failed: $(cat "$work/out")"
	if grep -q '\[\]' "$work/out"; then
		bad "$s $p: a [] slot: $(grep '\[\]' "$work/out")"
	else
		ok "$s $p: no [] slot"
	fi
done <"$work/list"

has dentry v6.11 "unsigned char                    d_iname[40]          /*    56    40 */" \
	"d_iname is a 40-byte array"
has dentry v6.7 "d_iname[32]" "d_iname was 32 bytes"
has dentry v6.11 "struct rcu_head          d_rcu                /*   176    16 */" \
	"d_u's members"
has file v6.15 "struct file_ra_state     f_ra                 /*   144    32 */" \
	"f_ra is file_ra_state in its union"
has file v6.15 "u64                      f_pipe               /*    80     8 */" \
	"f_pos_lock's union holds f_pipe"
has file v5.8 "struct mutex                     f_pos_lock           /*    72    32 */" \
	"v5.8's f_pos_lock is a plain mutex"
has file v5.8 "struct fown_struct               f_owner              /*   112    32 */" \
	"v5.8's f_owner is embedded"
has file v5.8 "char                             __pad[32]" "a pad's bytes are counted"
has files_struct kernel "struct file *                    fd_array[64]         /*   160   512 */" \
	"fd_array has 64 slots"
has files_struct kernel "/* size: 704, cachelines: 11, members: 11 */" "files_struct is 704 bytes"
has files_struct kernel "} __attribute__((__aligned__(64)));" "files_struct is 64-byte aligned"
has files_struct kernel "/* forced alignments: 1, forced holes: 1, sum forced holes: 32 */" \
	"file_lock's alignment leaves a forced hole"

# "name offset size type" per member line of pahole's or vfslab's output,
# types spelled one way: pahole writes DWARF's names (long unsigned int,
# callback_head for rcu_head) and the const of newer kernels' members.
members='
/\/\* *[0-9]+ +[0-9]+ \*\// {
	text = $0
	sub(/\/\*.*/, "", text)
	sub(/__attribute__.*/, "", text)
	sub(/ as [a-z_]+/, "", text)
	sub(/[ \t;]+$/, "", text)
	sub(/^[ \t]+/, "", text)
	gsub(/[ \t]+/, " ", text)
	n = split(text, w, " ")
	name = w[n]
	sub(/\[.*/, "", name)
	if (name == "}" || name == "")
		next
	type = ""
	for (i = 1; i < n; i++)
		type = type (i > 1 ? " " : "") w[i]
	if (type == "}")
		type = "union"
	sub(/^long unsigned int$/, "unsigned long", type)
	sub(/rcu_head/, "callback_head", type)
	if (type !~ /\*/)
		sub(/^const /, "", type)
	gsub(/ /, "_", type)
	c = $0
	sub(/.*\/\* */, "", c)
	split(c, v, /[ \t]+/)
	print name, v[1], v[2], type
}
/size: [0-9]+,/ { c = $0; sub(/.*size: /, "", c); sub(/,.*/, "", c); print "sizeof", c, "-", "-" }'

btf=/sys/kernel/btf/vmlinux
release=$(uname -r)
major=${release%%.*} minor=${release#*.}
minor=${minor%%[!0-9]*}
if ! command -v pahole >/dev/null 2>&1 || [ ! -r "$btf" ]; then
	echo "SKIP: pahole or $btf missing: no comparison with the kernel's layouts"
elif [ "$major" -lt 6 ] || { [ "$major" -eq 6 ] && [ "$minor" -lt 15 ]; }; then
	echo "SKIP: kernel $release predates the default presets (v6.15's struct file)"
else
	for s in dentry file files_struct; do
		pahole -C "$s" "$btf" 2>/dev/null | awk "$members" | sort >"$work/pahole"
		"$vfslab" layout "$s" | awk "$members" | sort >"$work/vfslab"
		join "$work/pahole" "$work/vfslab" >"$work/both"
		wrong=$(awk '$2 != $5 || $3 != $6 || $4 != $7' "$work/both")
		n=$(wc -l <"$work/both")
		if [ -n "$wrong" ]; then
			bad "$s: differs from pahole (name pahole's, then vfslab's): $wrong"
		elif [ "$n" -lt 12 ]; then
			bad "$s: only $n members in common with pahole's: $(cat "$work/vfslab")"
		else
			ok "$s: $n members and sizeof as pahole prints them on $release"
		fi
	done
fi
summary
