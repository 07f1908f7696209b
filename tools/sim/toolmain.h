/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Forced into every tools/ file of the vfslab-sim binary, which is built
 * with -Dmain=vfslab_main: vfslab's own main() becomes vfslab_main(), and
 * tools/sim/main.c's main() runs it, on a simulated CPU where that helps.
 */
#ifndef VFSLAB_TOOLS_SIM_TOOLMAIN_H
#define VFSLAB_TOOLS_SIM_TOOLMAIN_H

int main(int argc, char **argv);

#endif /* VFSLAB_TOOLS_SIM_TOOLMAIN_H */
