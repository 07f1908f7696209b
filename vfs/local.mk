# SPDX-License-Identifier: LGPL-2.1-or-later
# vfs/: the object model and the syscall layer, one file per kernel file.

noinst_LIBRARIES += %D%/libvfs.a
%C%_libvfs_a_SOURCES = \
	%D%/check.c \
	%D%/check.h \
	%D%/dcache.c \
	%D%/dhash.c \
	%D%/fcntl.c \
	%D%/file.c \
	%D%/file_table.c \
	%D%/inode.c \
	%D%/inspect.c \
	%D%/internal.h \
	%D%/layout.c \
	%D%/layout.h \
	%D%/layout_btf.c \
	%D%/layout_import.c \
	%D%/layout_import.h \
	%D%/layout_pahole.c \
	%D%/layout_fields.def \
	%D%/mem_devs.c \
	%D%/mount.h \
	%D%/namei.c \
	%D%/namespace.c \
	%D%/open.c \
	%D%/phase.c \
	%D%/phase.h \
	%D%/ptrmap.c \
	%D%/ptrmap.h \
	%D%/pipe.c \
	%D%/read_write.c \
	%D%/readdir.c \
	%D%/shmem.c \
	%D%/signal.c \
	%D%/socket.c \
	%D%/stat.c \
	%D%/statfs.c \
	%D%/task.c \
	%D%/variant.c \
	%D%/vfs.c \
	%D%/vfs.h
