# SPDX-License-Identifier: LGPL-2.1-or-later
# tools/: the vfslab program. Parses input, prints output; no VFS logic.

bin_PROGRAMS += %D%/vfslab
%C%_vfslab_SOURCES = \
	%D%/cmd.h \
	%D%/cmd_fstest.c \
	%D%/cmd_layout.c \
	%D%/cmd_walk.c \
	%D%/fstest.c \
	%D%/fstest.h \
	%D%/fstest_host.c \
	%D%/fstest_vfs.c \
	%D%/fstest_vfs.h \
	%D%/vfslab.c
%C%_vfslab_LDADD = $(LIBVFS_LDADD)
