mkdir a 0755
mkdir b 0755
mount none a tmpfs 0
mkdir a/x 0700
stat a/x type,mode
create b/f 0644
link b/f a/g
rename b/f a/h
rename a/x b/x
umount2 a 0
stat a/x type
mount none a tmpfs 0 mode=0700,uid=65534
stat a type,mode,uid
-u 65534 -g 65534 open a/y O_CREAT,O_WRONLY 0644
umount2 a 0
mount none a tmpfs 0
open a/y O_CREAT,O_WRONLY 0644 : umount2 a 0 : mount none a NULL MS_REMOUNT,MS_RDONLY
mount none a NULL MS_REMOUNT,MS_RDONLY
mkdir a/z 0755
mkdir a 0755
open a/y O_WRONLY
open a/y O_RDONLY,O_TRUNC
open a/new O_CREAT,O_WRONLY 0644
open a/y O_CREAT,O_EXCL,O_WRONLY 0644
unlink a/y
unlink a/none
rmdir a/none
chmod a/y 0600
chown a/y 1 1
truncate a/y 0
symlink x a/l
rename a/y a/w
mknod a/fifo f 0644 0 0
-u 65534 open a/y O_WRONLY
mount none a NULL MS_REMOUNT
mkdir a/z 0755
umount2 a MNT_DETACH
stat a/y type
stat a/z type
mount b a NULL MS_BIND
create b/q 0644
stat a/q type
rmdir a
unlink a
rename b a
umount2 a 0
umount2 a 0
mount b a NULL MS_BIND
mount none a NULL MS_BIND,MS_REMOUNT,MS_RDONLY
create a/r 0644
create b/r 0644
open a/r O_WRONLY
-u 65534 open a/r O_WRONLY
umount2 a 0
mkdir b/s 0755
mount none b/s tmpfs 0
create b/s/deep 0644
mount b a NULL MS_BIND
stat a/s/deep type
umount2 a 0
mount b a NULL MS_BIND,MS_REC
stat a/s/deep type
umount2 a 0
umount2 a/s 0
umount2 a 0
umount2 b/s 0
mount b/q a NULL MS_BIND
mount b b/q NULL MS_BIND
mount b/q b/r NULL MS_BIND
stat b/r type
umount2 b/r 0
mount none a tmpfs 0 size=1m
umount2 a 0
mount none a tmpfs 0 bogus=1
mount none a nosuchfs 0
mount none a NULL 0
mount none nope tmpfs 0
mount NULL a NULL MS_BIND
mount nope a NULL MS_BIND
-u 65534 mount none a tmpfs 0
-u 65534 umount2 a 0
-u 65534 umount2 nope 0
umount2 nope 0
umount2 a 0
umount2 a 077
mount none a tmpfs 0
umount2 a MNT_EXPIRE
umount2 a MNT_EXPIRE
umount2 a MNT_EXPIRE,MNT_DETACH
mount none a tmpfs 0
umount2 a MNT_EXPIRE : umount2 a MNT_EXPIRE
chdir a : umount2 a 0 : chdir / : umount2 a 0
openat2 AT_FDCWD b/q O_RDONLY 0 0
openat2 AT_FDCWD b/q O_RDONLY 0 0 23
openat2 AT_FDCWD b/q O_RDONLY 0 0 4097
openat2 AT_FDCWD b/q O_RDONLY 0 0 4096
openat2 AT_FDCWD b/q O_RDONLY 0644 0
openat2 AT_FDCWD b/q O_RDONLY 0 0100
openat2 AT_FDCWD b/q O_PATH,O_RDWR 0 0
openat2 AT_FDCWD b/q O_PATH,O_NOFOLLOW 0 0
openat2 AT_FDCWD b/n O_CREAT,O_RDWR 010644 0
openat2 AT_FDCWD b/q O_RDONLY 0 RESOLVE_BENEATH,RESOLVE_IN_ROOT
openat2 AT_FDCWD b/q O_CREAT,O_RDWR 0644 RESOLVE_CACHED
openat2 AT_FDCWD b/q O_RDONLY,O_TRUNC 0 RESOLVE_CACHED
openat2 AT_FDCWD b/q O_RDONLY 0 RESOLVE_CACHED
openat2 AT_FDCWD b/nope O_RDONLY 0 RESOLVE_CACHED
mkdir b/sub 0755
symlink /b/q b/abs
symlink sub/../q b/rel
symlink ../b/q b/up
mkdir b/m 0755
mount none b/m tmpfs 0
create b/m/g 0644
open b O_RDONLY,O_DIRECTORY : openat2 0 q O_RDONLY 0 RESOLVE_BENEATH
open b O_RDONLY,O_DIRECTORY : openat2 0 rel O_RDONLY 0 RESOLVE_BENEATH
open b O_RDONLY,O_DIRECTORY : openat2 0 ../b/q O_RDONLY 0 RESOLVE_BENEATH
open b O_RDONLY,O_DIRECTORY : openat2 0 up O_RDONLY 0 RESOLVE_BENEATH
open b O_RDONLY,O_DIRECTORY : openat2 0 abs O_RDONLY 0 RESOLVE_BENEATH
open b O_RDONLY,O_DIRECTORY : openat2 0 /b/q O_RDONLY 0 RESOLVE_BENEATH
open b O_RDONLY,O_DIRECTORY : openat2 0 m/g O_RDONLY 0 RESOLVE_BENEATH
open b O_RDONLY,O_DIRECTORY : openat2 0 m/.. O_RDONLY 0 RESOLVE_BENEATH
open b O_RDONLY,O_DIRECTORY : openat2 0 /q O_RDONLY 0 RESOLVE_IN_ROOT
open b O_RDONLY,O_DIRECTORY : openat2 0 abs O_RDONLY 0 RESOLVE_IN_ROOT
open b O_RDONLY,O_DIRECTORY : openat2 0 ../../q O_RDONLY 0 RESOLVE_IN_ROOT
open b O_RDONLY,O_DIRECTORY : openat2 0 up O_RDONLY 0 RESOLVE_IN_ROOT
open b O_RDONLY,O_DIRECTORY : openat2 0 m/g O_RDONLY 0 RESOLVE_NO_XDEV
open b O_RDONLY,O_DIRECTORY : openat2 0 m O_RDONLY 0 RESOLVE_NO_XDEV
open b O_RDONLY,O_DIRECTORY : openat2 0 abs O_RDONLY 0 RESOLVE_NO_XDEV
open b O_RDONLY,O_DIRECTORY : openat2 0 q O_RDONLY 0 RESOLVE_NO_XDEV
open b/m O_RDONLY,O_DIRECTORY : openat2 0 ../q O_RDONLY 0 RESOLVE_NO_XDEV
open b/m O_RDONLY,O_DIRECTORY : openat2 0 g O_RDONLY 0 RESOLVE_NO_XDEV
open b O_RDONLY,O_DIRECTORY : openat2 0 rel O_RDONLY 0 RESOLVE_NO_SYMLINKS
open b O_RDONLY,O_DIRECTORY : openat2 0 rel O_PATH,O_NOFOLLOW 0 RESOLVE_NO_SYMLINKS
open b O_RDONLY,O_DIRECTORY : openat2 0 rel O_RDONLY 0 RESOLVE_NO_MAGICLINKS
open b O_RDONLY,O_DIRECTORY : openat2 0 m/g O_RDONLY 0 RESOLVE_CACHED
open b O_RDONLY,O_DIRECTORY : openat2 0 m/none O_RDONLY 0 RESOLVE_CACHED
umount2 b/m 0
