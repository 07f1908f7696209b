# SPDX-License-Identifier: LGPL-2.1-or-later
# tools/advise/: vfslab advise, in vfslab-sim (it runs simulations); vfslab
# execs it as it does sim (tools/cmd_sim.c).
tools_vfslab_sim_SOURCES += \
	%D%/advise.h \
	%D%/cmd.c \
	%D%/jobs.c \
	%D%/probe.c \
	%D%/search.c
