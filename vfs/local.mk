# SPDX-License-Identifier: LGPL-2.1-or-later
# vfs/: the object model and the syscall layer, one file per kernel file.

noinst_LIBRARIES += %D%/libvfs.a
%C%_libvfs_a_SOURCES = \
	%D%/check.c \
	%D%/check.h \
	%D%/dcache.c \
	%D%/fcntl.c \
	%D%/file.c \
	%D%/file_table.c \
	%D%/inode.c \
	%D%/inspect.c \
	%D%/internal.h \
	%D%/layout.c \
	%D%/layout.h \
	%D%/layout_fields.def \
	%D%/mount.h \
	%D%/namei.c \
	%D%/namespace.c \
	%D%/open.c \
	%D%/read_write.c \
	%D%/readdir.c \
	%D%/shmem.c \
	%D%/stat.c \
	%D%/task.c \
	%D%/variant.c \
	%D%/vfs.c \
	%D%/vfs.h
