#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# sim_nospeed.sh FILE: vfslab sim's output without the simulator's own
# speed (the "simulator speed" line of a table, "simulator_speed" in JSON),
# which depends on this machine and its load, not on the simulation: what
# tests compare when they want two runs' results byte for byte.
case $(head -c 1 "$1") in
"{" | "[") jq -S 'del(.. | .simulator_speed?)' "$1" ;;
*) grep -v '^simulator speed (this machine' "$1" ;;
esac
