#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# pjdfstest's own scripts, replayed through vfslab fstest, against Linux:
# every invocation a script makes is compared, and the run fails when
# fewer than PJDFSTEST_MIN percent agree (`make check-long`).
#
# Each script runs with sh on a fresh tmpfs directory, as prove would run
# it, with a stand-in for pjdfstest's binary. The stand-in makes the
# invocation on the host (`vfslab fstest --host --`), so the script sees
# Linux's answers, and hands the same words (and its working directory,
# as a `cd` line) to a `vfslab fstest` that runs beside the script for the
# whole of it, on a fresh VFS, through a fifo; after each line, `fdnum
# =M` prints a marker M = 2000000000 + N for the Nth invocation, which
# splits vfslab's output (fdnum is in every vfslab fstest, so an older
# build can be measured as well). Both sides run the invocation within
# milliseconds, so the times a script compares agree as well. The tree
# changes a script makes with the shell's own mkdir and dd are made in
# vfslab as well (stand-ins for both come first on the script's PATH and
# send the same change as fstest lines, which are not counted); other
# shell commands (rm, echo > file) act on the host only: where one
# changes what later calls see, those invocations differ, and count
# against vfslab like any other. Inode numbers are each file system's
# own, so vfslab's are mapped onto the host's one to one per script: a
# number that breaks the mapping (two files sharing one, one file
# changing its number) still differs.
#
# usage: PJDFSTEST_DIR=.../pjdfstest/tests tests/pjdfstest_compare.sh
#
# Environment:
#   PJDFSTEST_DIR   pjdfstest's tests/ directory (misc.sh, conf and one
#                   directory per syscall); without it the test skips (77)
#   PJDFSTEST_DIRS  the directories to run (default: every one Linux has
#                   the calls for, 13 of them)
#   PJDFSTEST_MIN   the agreement required, in percent (default 99.5)
#   PJDFSTEST_DIFF  write every differing invocation to this file
#   PJDFSTEST_TMPDIR  where the scratch directories go (default /dev/shm)

dirs=${PJDFSTEST_DIRS:-"chmod chown ftruncate link mkdir mkfifo mknod open rename rmdir symlink truncate unlink"}
min=${PJDFSTEST_MIN:-99.5}

if [ -z "${PJDFSTEST_DIR:-}" ] || [ ! -f "$PJDFSTEST_DIR/misc.sh" ]; then
	echo "SKIP: set PJDFSTEST_DIR to pjdfstest's tests directory (with misc.sh)"
	exit 77
fi
if [ "$(id -u)" -ne 0 ]; then
	echo "SKIP: pjdfstest's scripts switch users: they need root"
	exit 77
fi
for tool in openssl dd awk; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		echo "SKIP: pjdfstest's scripts need $tool"
		exit 77
	fi
done

vfslab=${top_builddir:-.}/tools/vfslab
case $vfslab in
/*) ;;
*) vfslab=$(pwd)/$vfslab ;;
esac
if [ ! -x "$vfslab" ]; then
	echo "pjdfstest_compare: no $vfslab" >&2
	exit 99
fi

base=${PJDFSTEST_TMPDIR:-/dev/shm}
[ -d "$base" ] && [ -w "$base" ] || base=${TMPDIR:-/tmp}
work=$(mktemp -d "$base/pjdfstest.XXXXXX") && chmod 0755 "$work" || exit 99
trap 'rm -rf "$work"' EXIT
trap 'exit 1' HUP INT TERM

# misc.sh looks for an executable named pjdfstest above the script.
mkdir "$work/suite" && cp -R "$PJDFSTEST_DIR" "$work/suite/tests" || exit 99
cat >"$work/suite/pjdfstest" <<'EOF'
#!/bin/sh
# One invocation: on the host, and the same words to vfslab's fstest.
# With --mirror, the words go to vfslab only, uncounted: a change the
# script made on the host with a shell command.
mirror=
if [ "${1:-}" = --mirror ]; then
	mirror=1
	shift
fi
rel=$(pwd)
rel=${rel#"$PJD_ROOT"}
cd_line="cd /${rel#/}"
if [ "$cd_line" != "$(cat "$PJD_LOG.cwd")" ]; then
	echo "$cd_line" >"$PJD_LOG.cwd"
else
	cd_line=
fi
words=
for a in "$@"; do
	case $a in
	'' | *[!A-Za-z0-9_./,:\|+=-]*)
		a="'$(printf '%s' "$a" | sed "s/'/'\"'\"'/g")'"
		;;
	esac
	words="$words $a"
done
if [ -n "$mirror" ]; then
	{
		[ -z "$cd_line" ] || echo "$cd_line"
		printf '%s\nfdnum =1999999999\n' "${words# }"
	} >"$PJD_IN"
	while IFS= read -r l; do
		[ "$l" = 1999999999 ] && break
	done <"$PJD_OUT"
	exit 0
fi
n=$(($(cat "$PJD_LOG.n") + 1))
echo "$n" >"$PJD_LOG.n"
printf '%s\t%s\n' "$n" "${words# }" >>"$PJD_LOG.calls"
"$PJD_VFSLAB" fstest --host -- "$@" >"$PJD_LOG.one" 2>/dev/null
rc=$?
{
	[ -z "$cd_line" ] || echo "$cd_line"
	printf '%s\nfdnum =%s\n' "${words# }" $((2000000000 + n))
} >"$PJD_IN"
while IFS= read -r l; do
	printf '%s\n' "$l" >>"$PJD_LOG.vfslab"
	[ "$l" = $((2000000000 + n)) ] && break
done <"$PJD_OUT"
cat "$PJD_LOG.one"
{
	cat "$PJD_LOG.one"
	echo $((2000000000 + n))
} >>"$PJD_LOG.host"
exit $rc
EOF
chmod 0755 "$work/suite/pjdfstest" || exit 99

# The shell's mkdir and dd, mirrored: each directory mkdir made (every
# prefix, for -p) and the file dd's of= wrote, with the host's mode and
# size. Absolute paths lie outside the script's tree and are not mirrored.
mkdir "$work/bin" || exit 99
cat >"$work/bin/mkdir" <<'EOF'
#!/bin/sh
"$PJD_REAL_MKDIR" "$@" || exit
for a in "$@"; do
	case $a in
	-* | /*) continue ;;
	esac
	path=
	rest=$a/
	while [ -n "$rest" ]; do
		c=${rest%%/*}
		rest=${rest#*/}
		[ -n "$c" ] || continue
		path=${path:+$path/}$c
		"$PJD_STANDIN" --mirror mkdir "$path" "0$(stat -c %a "$path")"
	done
done
EOF
cat >"$work/bin/dd" <<'EOF'
#!/bin/sh
"$PJD_REAL_DD" "$@"
rc=$?
of=
for a in "$@"; do
	case $a in
	of=*) of=${a#of=} ;;
	esac
done
case $of in
'' | /*) ;;
*)
	[ -f "$of" ] && "$PJD_STANDIN" --mirror open "$of" O_CREAT,O_WRONLY,O_TRUNC \
		"0$(stat -c %a "$of")" : ftruncate 0 "$(stat -c %s "$of")"
	;;
esac
exit $rc
EOF
chmod 0755 "$work/bin/mkdir" "$work/bin/dd" || exit 99
real_mkdir=$(command -v mkdir) && real_dd=$(command -v dd) || exit 99

# Split an output at its markers: "N<TAB>line|line|..." per invocation.
split_out() {
	awk '$0 == 2000000000 + n + 1 { n++; print n "\t" acc; acc = ""; next }
	     { acc = acc (acc == "" ? "" : "|") $0 }' "$1"
}

# vfslab's split output with its inode numbers mapped onto the host's
# (calls, host, vfslab): one to one for the whole script, in call order.
map_inodes() {
	awk -F '\t' '
	FILENAME == ARGV[1] { call[$1] = $2; next }
	FILENAME == ARGV[2] { host[$1] = $2; next }
	!($1 in call) || call[$1] !~ /inode/ { print; next }
	{
		nseg = split(call[$1], seg, / : /)
		nh = split(host[$1], hl, /\|/)
		nv = split($2, vl, /\|/)
		for (s = 1; s <= nseg && s <= nh && s <= nv; s++) {
			nw = split(seg[s], w, / /)
			st = 0
			for (i = 1; i <= nw && !st; i++)
				if (w[i] ~ /^(stat|lstat|fstat)$/)
					st = i
			if (!st || w[nw] !~ /inode/)
				continue
			nf = split(w[nw], f, /,/)
			split(hl[s], hf, /,/)
			if (split(vl[s], vf, /,/) != nf)
				continue
			for (k = 1; k <= nf; k++) {
				if (f[k] != "inode" || hf[k] !~ /^[0-9]+$/ || vf[k] !~ /^[0-9]+$/)
					continue
				if ((hf[k] in h2v) ? h2v[hf[k]] != vf[k] : (vf[k] in v2h))
					continue
				h2v[hf[k]] = vf[k]
				v2h[vf[k]] = hf[k]
				vf[k] = hf[k]
			}
			vl[s] = vf[1]
			for (k = 2; k <= nf; k++)
				vl[s] = vl[s] "," vf[k]
		}
		line = vl[1]
		for (s = 2; s <= nv; s++)
			line = line "|" vl[s]
		print $1 "\t" line
	}' "$1" "$2" "$3"
}

total=0
same=0
: >"$work/diffs"
for d in $dirs; do
	[ -d "$work/suite/tests/$d" ] || {
		echo "pjdfstest_compare: no directory $d in $PJDFSTEST_DIR" >&2
		exit 99
	}
	dtotal=$total
	dsame=$same
	for t in "$work/suite/tests/$d"/*.t; do
		[ -e "$t" ] || continue
		name=$d/$(basename "$t")
		log=$work/log
		root=$work/root
		rm -rf "$root" "$log".*
		mkdir "$root" && chmod 0755 "$root" || exit 99
		echo 0 >"$log.n"
		echo "cd /" >"$log.cwd"
		: >"$log.calls"
		: >"$log.host"
		: >"$log.vfslab"
		mkfifo "$log.in" "$log.out" || exit 99
		# vfslab's fstest runs beside the whole script; the fds held here
		# keep both fifos open between invocations.
		mkdir "$work/vroot" || exit 99
		(cd "$work/vroot" && exec "$vfslab" fstest <"$log.in" >"$log.out" 2>"$log.err") &
		vpid=$!
		exec 3>"$log.in" 4<"$log.out"
		(cd "$root" && PATH=$work/bin:$PATH PJD_ROOT=$root PJD_LOG=$log \
			PJD_VFSLAB=$vfslab PJD_IN=$log.in PJD_OUT=$log.out \
			PJD_STANDIN=$work/suite/pjdfstest PJD_REAL_MKDIR=$real_mkdir \
			PJD_REAL_DD=$real_dd sh "$t" >"$log.tap" 2>&1)
		exec 3>&- 4<&-
		wait "$vpid"
		rm -rf "$root" "$work/vroot"
		split_out "$log.host" >"$log.h"
		split_out "$log.vfslab" >"$log.vraw"
		map_inodes "$log.calls" "$log.h" "$log.vraw" >"$log.v"
		n=$(wc -l <"$log.h")
		ok=$(awk -F '\t' 'NR == FNR { v[$1] = $2; next } ($1 in v) && v[$1] == $2' \
			"$log.v" "$log.h" | wc -l)
		total=$((total + n))
		same=$((same + ok))
		if [ "$ok" -ne "$n" ]; then
			echo "$name: $((n - ok)) of $n differ"
			awk -F '\t' -v name="$name" '
				FILENAME == ARGV[1] { v[$1] = $2; next }
				FILENAME == ARGV[2] { line[$1] = $2; next }
				!($1 in v) || v[$1] != $2 {
					print name ": " line[$1] "\n  linux:  " $2 "\n  vfslab: " v[$1]
				}' "$log.v" "$log.calls" "$log.h" >>"$work/diffs"
		fi
	done
	echo "$d: $((same - dsame)) of $((total - dtotal)) agree"
done

if [ -n "${PJDFSTEST_DIFF:-}" ]; then
	cp "$work/diffs" "$PJDFSTEST_DIFF"
fi
if [ "$total" -eq 0 ]; then
	echo "pjdfstest_compare: no invocation ran" >&2
	exit 99
fi
pct=$(awk -v s="$same" -v t="$total" 'BEGIN { printf "%.2f", 100 * s / t }')
echo "pjdfstest: $same of $total invocations agree with Linux ($pct%; at least $min% needed)"
awk -v p="$pct" -v m="$min" 'BEGIN { exit !(p + 0 >= m + 0) }'
