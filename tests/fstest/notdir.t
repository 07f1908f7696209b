# ENOTDIR: a non-directory used as a directory, in the middle of a path,
# at its end with a trailing slash, or as a directory descriptor.
mkdir notdir 0755
cd notdir
create f 0644
mkfifo p 0644
symlink f sl
mkdir d 0755

stat f/x type
stat f/ type
stat f/. type
stat p/x type
stat sl/x type
stat sl/ type
lstat sl/ type
stat d/../f/x type
open f/x O_RDONLY
open f/x O_CREAT,O_RDWR 0644
open f/ O_RDONLY
open f O_RDONLY,O_DIRECTORY
open p O_RDONLY,O_DIRECTORY,O_NONBLOCK
open sl O_RDONLY,O_DIRECTORY
create f/x 0644
mkdir f/x 0755
mkdir f/x/y 0755
rmdir f/x
rmdir f
unlink f/x
unlink f/
link f/x y
link f f/x
symlink x f/y
rename f/x y
rename f f/x
rename d f
mkfifo f/x 0644
mknod f/x f 0644 0 0
chmod f/x 0644
chown f/x 0 0
lchown f/x 0 0
truncate f/x 0
readlink f/x
access f/x F_OK
chdir f
chdir f/
chdir sl
utimensat AT_FDCWD f/x 0 0 0 0 0

# A regular file as the directory descriptor of an *at call.
open f O_RDONLY : openat 0 x O_RDONLY
open f O_RDONLY : openat 0 "" O_RDONLY
open f O_RDONLY : openat 0 . O_RDONLY
open f O_RDONLY : openat 0 /notdir/f O_RDONLY : fstat 1 type
open f O_RDONLY : mkdirat 0 x 0755
open f O_RDONLY : unlinkat 0 x 0
open f O_RDONLY : linkat 0 x AT_FDCWD y 0
open f O_RDONLY : symlinkat x 0 y
open f O_RDONLY : renameat 0 x AT_FDCWD y
open f O_RDONLY : mkfifoat 0 x 0644
open f O_RDONLY : mknodat 0 x f 0644 0 0
open f O_RDONLY : fchmodat 0 x 0644 0
open f O_RDONLY : fchownat 0 x 0 0 0
open f O_RDONLY : fstatat 0 x 0 type
open f O_RDONLY : faccessat 0 x F_OK 0
open f O_RDONLY : readlinkat 0 x
open f O_RDONLY : utimensat 0 x 0 0 0 0 0
open f O_RDONLY : fchdir 0
open f O_RDONLY : getdents 0
# The descriptor is not looked at when the path is absolute.
open f O_RDONLY : fstatat 0 /notdir/d 0 type
