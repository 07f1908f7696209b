# symlink(2), readlink, and how the walk treats symlinks: loops, the
# 40-link limit, O_NOFOLLOW, trailing slashes, dangling links.
mkdir symlink 0755
cd symlink

create f 0644
symlink f sl
lstat sl type,mode,nlink,size
stat sl type,mode
readlink sl
# The target is stored as given, never checked.
symlink ../../../../nowhere far
readlink far
lstat far size
symlink {200*x/}y long
lstat long size
symlink "with space" sp
readlink sp
symlink f f
symlink f .
symlink f sl
symlink "" empty
symlink f none/x
symlink f f/x
symlink NULL x
symlink f NULL
symlink DEADCODE x
lstat x type
# The target may be PATH_MAX - 1 bytes, not more.
symlink {4095*t} max
lstat max size
symlink {4096*t} toolong
symlinkat {4095*t} AT_FDCWD max2
# Umask does not apply: a symlink's mode is always 0777.
-U 0777 symlink f sl2
lstat sl2 mode
chown . 65534 65534
-u 65534 -g 65534 symlink f mine
lstat mine uid,gid
chown . 0 0

# readlink: buffer too small truncates, size 0 and non-links fail.
readlink sl 1
readlink sl 0
readlink f
readlink .
readlink none
readlink ""
readlinkat AT_FDCWD sl
open . O_RDONLY : readlinkat 0 sl
# An O_PATH descriptor of the link itself and an empty path.
open sl O_PATH,O_NOFOLLOW : readlinkat 0 "" : fstat 0 type
open f O_RDONLY : readlinkat 0 ""

# Loops.
symlink loop1 loop2
symlink loop2 loop1
stat loop1 type
lstat loop1 type
open loop1 O_RDONLY
open loop1 O_CREAT,O_RDWR 0644
symlink self self
stat self type
stat self/x type
mkdir self/x 0755
chdir self

# Following 40 symlinks is allowed, the 41st is ELOOP.
symlink f l0
symlink l0 l1
symlink l1 l2
symlink l2 l3
symlink l3 l4
symlink l4 l5
symlink l5 l6
symlink l6 l7
symlink l7 l8
symlink l8 l9
symlink l9 l10
symlink l10 l11
symlink l11 l12
symlink l12 l13
symlink l13 l14
symlink l14 l15
symlink l15 l16
symlink l16 l17
symlink l17 l18
symlink l18 l19
symlink l19 l20
symlink l20 l21
symlink l21 l22
symlink l22 l23
symlink l23 l24
symlink l24 l25
symlink l25 l26
symlink l26 l27
symlink l27 l28
symlink l28 l29
symlink l29 l30
symlink l30 l31
symlink l31 l32
symlink l32 l33
symlink l33 l34
symlink l34 l35
symlink l35 l36
symlink l36 l37
symlink l37 l38
symlink l38 l39
symlink l39 l40
stat l39 type
stat l40 type
lstat l40 type
open l39 O_RDONLY : fstat 0 type
open l40 O_RDONLY
# Links in the middle of a path count too.
mkdir d 0755
symlink d dl0
symlink dl0 dl1
stat dl1/. type

# O_NOFOLLOW refuses a final symlink, not one on the way.
open sl O_RDONLY,O_NOFOLLOW
open sl O_RDONLY,O_NOFOLLOW,O_CREAT 0644
open dl1/. O_RDONLY,O_NOFOLLOW : fstat 0 type
open sl O_PATH,O_NOFOLLOW : fstat 0 type
open f O_RDONLY,O_NOFOLLOW : fstat 0 type
open loop1 O_RDONLY,O_NOFOLLOW

# A trailing slash follows the link and wants a directory.
symlink d sd
symlink f sf
lstat sd type
lstat sd/ type
stat sd/ type
lstat sf/ type
stat sf/ type
open sf/ O_RDONLY
open sd/ O_RDONLY : fstat 0 type
open sd O_RDONLY,O_DIRECTORY : fstat 0 type
open sf O_RDONLY,O_DIRECTORY

# Dangling links: lstat sees them, the rest sees nothing.
symlink missing dangling
stat dangling type
lstat dangling type
open dangling O_RDONLY
open dangling/ O_CREAT,O_RDWR 0644
stat missing type
open dangling O_CREAT,O_RDWR,O_NOFOLLOW 0644
# mkdir and mknod never follow a final link.
mkdir dangling 0755
mkfifo dangling 0644
stat missing type

# symlinkat relative to a directory descriptor.
open d O_RDONLY : symlinkat ../f 0 up
stat d/up type
symlinkat f BADFD x
open f O_RDONLY : symlinkat f 0 x
