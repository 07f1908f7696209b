#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# doc/vfslab.1 and the program cannot drift: for every command `vfslab
# help` lists, the long options its --help mentions and the long options
# its entry in the man page's COMMANDS section mentions must be the same
# set. (`help` has no --help of its own: its help is `vfslab help`.)
# Prints each command's differences both ways.
set -u
vfslab=${top_builddir:-.}/tools/vfslab
man=${srcdir:-.}/doc/vfslab.1
work=$(mktemp -d "${TMPDIR:-/tmp}/man.XXXXXX") || exit 99
trap 'rm -rf "$work"' EXIT
. "${srcdir:-.}/tests/report.sh"

cmds=$("$vfslab" help | awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 }')
if [ -z "$cmds" ] || [ ! -f "$man" ]; then
	echo "man_options: no commands from '$vfslab help', or no $man" >&2
	exit 99
fi

# Long options in text on stdin, one per line, sorted; roff escapes and
# font changes dropped first.
longopts() {
	sed -e 's/\\f[BIRP]//g' -e 's/\\f(..//g' -e 's/\\-/-/g' |
		grep -o -- '--[a-z0-9][a-z0-9-]*' | sort -u
}

# Subcommands with entries of their own (".B sim calibrate").
subs="sim:calibrate sim:validate"

for c in $cmds $subs; do
	case $c in
	*:*) set -- "${c%%:*}" "${c#*:}" ;;
	*) set -- "$c" ;;
	esac
	if [ "$c" = sim ] && [ ! -x "${top_builddir:-.}/tools/vfslab-sim" ]; then
		# A sanitizer build has no simulator for `sim --help` to reach.
		ok "sim: no simulator in this build; its options are checked in the others"
		continue
	fi
	if [ $# -eq 2 ]; then
		"$vfslab" "$1" "$2" --help >"$work/help"
		st=$?
		if [ $st -ne 0 ]; then
			bad "vfslab $1 $2 --help exited $st"
			continue
		fi
	elif [ "$c" = help ]; then
		# Without the command summaries: each is its command's to check.
		"$vfslab" help >"$work/all" || exit 99
		grep -v '^  [a-z]* ' "$work/all" >"$work/help"
	else
		"$vfslab" "$c" --help >"$work/help"
		st=$?
		if [ $st -ne 0 ]; then
			bad "vfslab $c --help exited $st"
			continue
		fi
	fi
	longopts <"$work/help" >"$work/from-help"
	# The command's entry: from ".B CMD" after a .TP to the next command's
	# entry or the next section.
	awk -v cmd="$c" -v all=" $(echo "$cmds" | tr '\n' ' ') " '
		/^\.SH/ { on = 0; commands = ($0 ~ /^\.SH COMMANDS/) }
		commands && prev == ".TP" && /^\.B [a-z]/ {
			name = $2
			if ($3 ~ /^[a-z]+$/)
				name = name ":" $3
			if (index(all, " " $2 " "))
				on = (name == cmd)
		}
		on { print }
		{ prev = $0 }' "$man" >"$work/entry"
	if [ ! -s "$work/entry" ]; then
		bad "$c: no entry in $man's COMMANDS"
		continue
	fi
	longopts <"$work/entry" >"$work/from-man"
	only_help=$(comm -23 "$work/from-help" "$work/from-man" | tr '\n' ' ')
	only_man=$(comm -13 "$work/from-help" "$work/from-man" | tr '\n' ' ')
	[ -n "$only_help" ] && bad "$c: in --help, not in vfslab.1: $only_help"
	[ -n "$only_man" ] && bad "$c: in vfslab.1, not in --help: $only_man"
	[ -z "$only_help$only_man" ] &&
		ok "$c: $(wc -l <"$work/from-help" | tr -d ' ') long options, the same in both"
done
summary
