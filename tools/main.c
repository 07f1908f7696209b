// SPDX-License-Identifier: LGPL-2.1-or-later
/* vfslab: the program on the native lib/ and vfs/ (tools/vfslab.c). */
#include "tools/cmd.h"

int main(int argc, char **argv)
{
	return vfslab_main(argc, argv);
}
