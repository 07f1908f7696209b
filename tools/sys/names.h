/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The names of the flags, commands and errnos of the file syscalls, one
 * table per kind, shared by every tool that reads or prints them (fstest's
 * scripts, torture's op lines, replay's strace logs, the unit tests).
 * Values are the host's <fcntl.h> ones, which are Linux's.
 */
#ifndef VFSLAB_TOOLS_SYS_NAMES_H
#define VFSLAB_TOOLS_SYS_NAMES_H

#include <stdbool.h>
#include <stddef.h>

struct sys_name {
	const char *name;
	long long value;
};

/*
 * Each table ends with { NULL, 0 }. Flag tables are in the order a value
 * is printed: where one flag's bits hold another's (O_SYNC, O_DSYNC), the
 * wider comes first; aliases (O_FSYNC, O_NDELAY) come last, so they are
 * parsed but never printed.
 */
extern const struct sys_name sys_open_flags[]; /* O_*, the access modes first */
extern const struct sys_name sys_at_flags[]; /* AT_* flags (AT_FDCWD is no flag) */
extern const struct sys_name sys_access_modes[]; /* F_OK, R_OK, W_OK, X_OK */
extern const struct sys_name sys_rename_flags[]; /* RENAME_* */
extern const struct sys_name sys_close_range_flags[]; /* CLOSE_RANGE_* */
extern const struct sys_name sys_fd_flags[]; /* FD_CLOEXEC */
extern const struct sys_name sys_seek_whences[]; /* SEEK_* */
extern const struct sys_name sys_fcntl_cmds[]; /* F_* commands */
extern const struct sys_name sys_mode_bits[]; /* S_IF* types, then permission bits */
extern const struct sys_name sys_utime_nsec[]; /* UTIME_NOW, UTIME_OMIT */
extern const struct sys_name sys_falloc_flags[]; /* FALLOC_FL_* */
extern const struct sys_name sys_pathconf_names[]; /* _PC_* */
extern const struct sys_name sys_clone_flags[]; /* CLONE_* */
extern const struct sys_name sys_resolve_flags[]; /* openat2's RESOLVE_* */
extern const struct sys_name sys_mount_flags[]; /* mount(2)'s MS_* */
extern const struct sys_name sys_umount_flags[]; /* umount2(2)'s MNT_*, UMOUNT_NOFOLLOW */

/* The entry of t named s, or NULL. */
const struct sys_name *sys_name_find(const struct sys_name *t, const char *s);
/* The same for the len bytes at s (no NUL needed). */
const struct sys_name *sys_name_findn(const struct sys_name *t, const char *s, size_t len);
/* The name of the entry of t whose value is v exactly, or NULL. */
const char *sys_name_of(const struct sys_name *t, long long v);

/*
 * The set bits of v as names from t joined by ',', bits no name covers as
 * one octal number ("0100"), "0" for none. Returns what snprintf would.
 */
int sys_flags_format(char *buf, size_t len, const struct sys_name *t, long long v);

/*
 * How a flag word is written: names joined by ',' and bits no name covers
 * in octal, as fstest's scripts write them; or joined by '|' and the rest
 * in hex, as C and strace write them.
 */
enum sys_flags_style { SYS_FLAGS_FSTEST, SYS_FLAGS_C };

/*
 * A flag word whose bits under field_mask hold one value rather than flags
 * (O_ACCMODE's access mode, DCACHE_ENTRY_TYPE's entry type): that value's
 * name is written first, then the other bits' names.
 */
struct sys_flag_word {
	const struct sys_name *bits; /* as sys_flags_format takes them */
	long long field_mask;
	const struct sys_name *field; /* the names of the field's values */
	/* Bits that, set beside a zero field, leave it unnamed (O_PATH). */
	long long field_unless;
};

extern const struct sys_flag_word sys_file_flags; /* f_flags, F_GETFL's answer */
extern const struct sys_flag_word sys_dentry_flags; /* d_flags, DCACHE_* */

/* v decoded by w: "O_RDWR|O_LARGEFILE". Returns what snprintf would. */
int sys_flag_word_format(char *buf, size_t len, const struct sys_flag_word *w, long long v,
			 enum sys_flags_style style);

/* The symbolic name of a Linux errno (a positive value: "ENODATA"), or NULL. */
const char *sys_errno_name(int err);
/* The errno named name ("ENOENT"), or 0. */
int sys_errno_by_name(const char *name);
/*
 * A syscall's return value as a word: the number, the errno's name for
 * -errno, "errno N" for an errno without one. Returns buf or a name.
 */
const char *sys_ret_name(long ret, char *buf, size_t len);
/* Does pjdfstest's err2str() name err on Linux? (It prints others in decimal.) */
bool sys_errno_pjdfstest(int err);

#endif /* VFSLAB_TOOLS_SYS_NAMES_H */
