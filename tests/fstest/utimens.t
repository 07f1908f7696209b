# utimensat(2) (pjdfstest's form: dirfd path atime atime_ns mtime
# mtime_ns flags) and futimens (a vfslab extension).  Only explicit times
# are printed; UTIME_NOW results are the clock's and are not shown.
mkdir utimens 0755
cd utimens
create f 0644

utimensat AT_FDCWD f 1900000000 100 1950000000 200 0
stat f atime,atime_ns,mtime,mtime_ns
utimensat AT_FDCWD f 0 0 0 0 0
stat f atime,atime_ns,mtime,mtime_ns
utimensat AT_FDCWD f -1 999999999 1 1 0
stat f atime,atime_ns,mtime,mtime_ns
utimensat AT_FDCWD f 123 UTIME_OMIT 456 0 0
stat f atime,mtime
utimensat AT_FDCWD f 789 0 456 UTIME_OMIT 0
stat f atime,mtime
utimensat AT_FDCWD f 1 UTIME_OMIT 2 UTIME_OMIT 0
stat f atime,mtime
utimensat AT_FDCWD f 0 UTIME_NOW 0 UTIME_NOW 0
utimensat AT_FDCWD f 0 1000000000 0 0 0
utimensat AT_FDCWD f 0 -1 0 0 0
utimensat AT_FDCWD f 0 0 0 1000000000 0
utimensat AT_FDCWD f 0 0 0 0 0x1
# glibc refuses a NULL path before the kernel sees it.
utimensat AT_FDCWD NULL 0 0 0 0 0
utimensat AT_FDCWD DEADCODE 0 0 0 0 0
utimensat AT_FDCWD none 0 0 0 0 0
utimensat AT_FDCWD "" 0 0 0 0 0
utimensat BADFD f 0 0 0 0 0

# Directories, through descriptors, and symlinks with and without
# AT_SYMLINK_NOFOLLOW.
mkdir d 0755
utimensat AT_FDCWD d 10 11 12 13 0
stat d atime,atime_ns,mtime,mtime_ns
open d O_RDONLY : utimensat 0 ../f 20 0 30 0 0
stat f atime,mtime
symlink f sl
utimensat AT_FDCWD sl 40 0 50 0 0
stat f atime,mtime
utimensat AT_FDCWD sl 60 0 70 0 AT_SYMLINK_NOFOLLOW
lstat sl atime,mtime
stat f atime,mtime
symlink none dangling
utimensat AT_FDCWD dangling 1 0 1 0 0
utimensat AT_FDCWD dangling 1 0 1 0 AT_SYMLINK_NOFOLLOW
lstat dangling atime,mtime

# futimens: the descriptor itself (utimensat with a NULL path).
open f O_RDONLY : futimens 0 80 0 90 0 : fstat 0 atime,mtime
open f O_WRONLY : futimens 0 81 0 91 0 : fstat 0 atime,mtime
open f O_PATH : futimens 0 1 0 1 0
open f O_PATH : futimens 0 0 UTIME_OMIT 0 UTIME_OMIT
futimens BADFD 1 0 1 0
open d O_RDONLY : futimens 0 1 2 3 4 : fstat 0 atime,atime_ns,mtime,mtime_ns

# Permissions: explicit times need ownership; "now" needs ownership or
# write permission; nothing to set needs nothing.
chown f 65534 65534
chmod f 0644
-u 65534 -g 65534 utimensat AT_FDCWD f 100 0 200 0 0
stat f atime,mtime
-u 65533 -g 65533 utimensat AT_FDCWD f 300 0 400 0 0
-u 65533 -g 65533 utimensat AT_FDCWD f 0 UTIME_NOW 0 UTIME_NOW 0
-u 65533 -g 65533 utimensat AT_FDCWD f 0 UTIME_NOW 0 UTIME_OMIT 0
-u 65533 -g 65533 utimensat AT_FDCWD f 0 UTIME_OMIT 0 UTIME_OMIT 0
-u 65533 -g 65533 utimensat AT_FDCWD f 1 0 1 UTIME_OMIT 0
chmod f 0646
-u 65533 -g 65533 utimensat AT_FDCWD f 0 UTIME_NOW 0 UTIME_NOW 0
-u 65533 -g 65533 utimensat AT_FDCWD f 300 0 400 0 0
-u 65533 -g 65533 open f O_WRONLY : futimens 0 0 UTIME_NOW 0 UTIME_NOW
-u 65533 -g 65533 open f O_WRONLY : futimens 0 1 0 1 0
# Root sets anything.
utimensat AT_FDCWD f 500 0 600 0 0
stat f atime,mtime
