#!/bin/sh
# SPDX-License-Identifier: LGPL-2.1-or-later
# The layers, as includes: lib/ includes only lib/, vfs/ lib/ and vfs/, and
# nothing in lib/ or vfs/ names tools/ at all (the simulator is a port
# beneath lib/, reached through lib/arch.h, not a directory lib/ knows).

src=${top_srcdir:-.}
bad=$(
	grep -rn '#include "\(vfs\|tools\|tests\)/' "$src/lib"
	grep -rn '#include "\(tools\|tests\)/' "$src/vfs"
	grep -rn 'tools/' "$src/lib" "$src/vfs"
)
if [ -n "$bad" ]; then
	echo "FAIL: a lower layer reaches up:"
	echo "$bad"
	exit 1
fi
echo "PASS: lib/ and vfs/ include only their own layers and below"
