#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# The simulator's own speed from 1 to 512 virtual CPUs: `vfslab sim stat2
# --ops N` at each CPU count, one run each, as a Markdown table of what the
# command prints after its table (simulated accesses per second and host CPU
# time per simulated operation), each row against the 64-CPU row. The
# README's table comes from `sh tools/sim_speed.sh`.
#
# usage: tools/sim_speed.sh [--vfslab PATH] [--ops N] [--cpus "1 2 4 ..."]

vfslab=
ops=10000
cpus="1 2 4 8 16 32 64 128 256 512"
while [ $# -gt 0 ]; do
	case $1 in
	--vfslab) vfslab=$2; shift 2 ;;
	--ops) ops=$2; shift 2 ;;
	--cpus) cpus=$2; shift 2 ;;
	-h | --help)
		sed -n 's/^# usage: //p' "$0"
		exit 0
		;;
	*)
		echo "sim_speed.sh: unknown argument '$1' (see --help)" >&2
		exit 2
		;;
	esac
done
if [ -z "$vfslab" ]; then
	for v in ./tools/vfslab ./build/tools/vfslab; do
		[ -x "$v" ] && { vfslab=$v; break; }
	done
fi
[ -n "$vfslab" ] && [ -x "$vfslab" ] ||
	{ echo "sim_speed.sh: no vfslab program (give --vfslab PATH)" >&2; exit 2; }
case $ops in
'' | *[!0-9]*) echo "sim_speed.sh: --ops: a number of operations, not '$ops'" >&2; exit 2 ;;
esac

out=$(mktemp "${TMPDIR:-/tmp}/sim-speed.XXXXXX") || exit 1
trap 'rm -f "$out" "$out.rows"' EXIT
echo "host: $(uname -m), $(nproc) CPUs, load average at the start $(cut -d' ' -f1-3 /proc/loadavg)"
echo "command: $vfslab sim stat2 --cpus N --ops $ops"
echo
for n in $cpus; do
	"$vfslab" sim stat2 --cpus "$n" --ops "$ops" >"$out" 2>/dev/null ||
		{ echo "sim_speed.sh: vfslab sim stat2 --cpus $n failed" >&2; exit 1; }
	# "simulator speed (...): 38.2 M simulated accesses/s, 4.40 us of host CPU
	# time per simulated operation (2.80 s of CPU in all)"
	row=$(sed -n 's/^simulator speed[^:]*: \([0-9.]*\) M simulated accesses\/s, \([0-9.]*\) us of host CPU time.*(\([0-9.]*\) s of CPU in all)$/\1 \2 \3/p' "$out")
	[ -n "$row" ] || { echo "sim_speed.sh: no simulator speed line at $n CPUs" >&2; exit 1; }
	echo "$n $row" >>"$out.rows"
done
# Host time per simulated operation against the 64-CPU row (the first without one).
awk '
NR == 1 || $1 == 64 { ref = $3; refn = $1 }
{ n[NR] = $1; acc[NR] = $2; us[NR] = $3; s[NR] = $4 }
END {
	print "| vCPUs | host CPU s | M simulated accesses/s | host CPU us per simulated op | per op, against " refn " |"
	print "|---:|---:|---:|---:|---:|"
	for (i = 1; i <= NR; i++)
		printf "| %d | %.2f | %.1f | %.2f | %.2fx |\n", n[i], s[i], acc[i], us[i], us[i] / ref
}' "$out.rows"
