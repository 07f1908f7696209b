# Permission checks as unprivileged users: search permission on every
# directory of a walk, read/write permission on files, write permission
# on directories, sticky directories, access(2).  No case here depends on
# the fs.protected_* sysctls: no user links or opens another's file in a
# sticky directory.
mkdir perms 0755
cd perms

# Search permission, directory by directory.
mkdir a 0755
mkdir a/b 0755
mkdir a/b/c 0755
create a/b/c/f 0644
-u 65534 -g 65534 stat a/b/c/f type
chmod a 0754
-u 65534 -g 65534 stat a/b/c/f type
-u 65534 -g 65534 stat a type
-u 65534 -g 65534 open a O_RDONLY : getdents 0
-u 65534 -g 65534 open a/b O_RDONLY
chmod a 0711
-u 65534 -g 65534 stat a/b/c/f type
-u 65534 -g 65534 open a O_RDONLY
chmod a 0755
chmod a/b/c 0750
-u 65534 -g 65534 stat a/b/c/f type
-u 65534 -g 65534 stat a/b/c type
-u 65534 -g 65534 chdir a/b/c
-u 65534 -g 65534 chdir a/b : stat c/f type
# The group class: the effective gid or any supplementary group.
chown a/b/c 0 100
chmod a/b/c 0710
-u 65534 -g 100 stat a/b/c/f type
-u 65534 -g 65534 stat a/b/c/f type
-u 65534 -g 65534,100 stat a/b/c/f type
# The owner class wins, even when it grants less.
chown a/b/c 65534 100
chmod a/b/c 0077
-u 65534 -g 100 stat a/b/c/f type
-u 65533 -g 100 stat a/b/c/f type
-u 65533 -g 65533 stat a/b/c/f type
-u 65534 -g 100 chmod a/b/c 0700
-u 65534 -g 100 stat a/b/c/f type
# Root searches anything.
chmod a/b/c 0
stat a/b/c/f type
chmod a/b/c 0755

# Every call walks: all fail alike on a directory without search...
chmod a 0644
-u 65534 -g 65534 open a/b/c/f O_RDONLY
-u 65534 -g 65534 create a/b/x 0644
-u 65534 -g 65534 mkdir a/b/x 0755
-u 65534 -g 65534 rmdir a/b/c
-u 65534 -g 65534 unlink a/b/c/f
-u 65534 -g 65534 rename a/b/c/f g
-u 65534 -g 65534 link a/b/c/f g
-u 65534 -g 65534 symlink x a/b/s
-u 65534 -g 65534 mkfifo a/b/p 0644
-u 65534 -g 65534 chmod a/b/c/f 0644
-u 65534 -g 65534 chown a/b/c/f -1 -1
-u 65534 -g 65534 truncate a/b/c/f 0
-u 65534 -g 65534 readlink a/b/c/f
-u 65534 -g 65534 access a/b/c/f F_OK
-u 65534 -g 65534 utimensat AT_FDCWD a/b/c/f 0 UTIME_NOW 0 UTIME_NOW 0
# ... except utimensat with nothing to set, which returns at once.
-u 65534 -g 65534 utimensat AT_FDCWD a/b/c/f 0 UTIME_OMIT 0 UTIME_OMIT 0
-u 65534 -g 65534 stat a/missing type
chmod a 0755

# Read and write permission on a file, class by class.
create r 0600
-u 65534 -g 65534 open r O_RDONLY
chmod r 0604
-u 65534 -g 65534 open r O_RDONLY : fstat 0 type
-u 65534 -g 65534 open r O_WRONLY
-u 65534 -g 65534 open r O_RDWR
-u 65534 -g 65534 open r O_RDONLY,O_TRUNC
chmod r 0602
-u 65534 -g 65534 open r O_WRONLY : write 0 x
-u 65534 -g 65534 open r O_WRONLY,O_TRUNC
-u 65534 -g 65534 open r O_RDONLY
-u 65534 -g 65534 open r O_RDWR
-u 65534 -g 65534 open r O_WRONLY,O_APPEND
chmod r 0606
-u 65534 -g 65534 open r O_RDWR
chown r 0 100
chmod r 0040
-u 65534 -g 100 open r O_RDONLY
-u 65534 -g 65534 open r O_RDONLY
-u 65534 -g 65534,100 open r O_RDONLY
-u 65534 -g 65534,100 open r O_WRONLY
chown r 65534 100
chmod r 0077
-u 65534 -g 100 open r O_RDONLY
-u 65533 -g 100 open r O_RDWR
-u 65534 -g 100 chmod r 0600
-u 65534 -g 100 open r O_RDWR
# O_CREAT on an existing file needs no write permission on the directory.
-u 65534 -g 100 open r O_CREAT,O_RDONLY 0644
-u 65534 -g 100 open new O_CREAT,O_RDONLY 0644
# Root opens anything for reading and writing.
chmod r 0
open r O_RDWR

# Creating and removing names needs write and search on the directory.
mkdir w 0755
-u 65534 -g 65534 create w/f 0644
-u 65534 -g 65534 mkdir w/d 0755
-u 65534 -g 65534 symlink x w/s
-u 65534 -g 65534 mkfifo w/p 0644
-u 65534 -g 65534 mknod w/n f 0644 0 0
chmod w 0757
-u 65534 -g 65534 create w/f 0644
-u 65534 -g 65534 link w/f w/f2
chmod w 0755
-u 65534 -g 65534 link w/f w/f3
-u 65534 -g 65534 unlink w/f2
-u 65534 -g 65534 rename w/f w/f4
chmod w 0756
-u 65534 -g 65534 create w/g 0644
-u 65534 -g 65534 unlink w/f
chmod w 0753
-u 65534 -g 65534 create w/g 0644
-u 65534 -g 65534 open w O_RDONLY
-u 65534 -g 65534 unlink w/g
# Removing needs nothing from the file itself.
create w/rootfile 0
-u 65534 -g 65534 unlink w/rootfile
mkdir w/rootdir 0
-u 65534 -g 65534 rmdir w/rootdir
chmod w 0757
# Moving a directory to another parent rewrites its "..": that needs
# write permission on the directory itself; a rename in place does not.
mkdir w/sub 0755
mkdir w2 0777
-u 65534 -g 65534 rename w/sub w2/sub
-u 65534 -g 65534 rename w/sub w/sub2
stat w/sub2 type
-u 65534 -g 65534 mkdir w/mine 0755
-u 65534 -g 65534 rename w/mine w2/mine
stat w2/mine type
# rename needs write permission on both parents.
-u 65534 -g 65534 create w/h 0644
chmod w2 0755
-u 65534 -g 65534 rename w/h w2/h
chmod w 0755
chmod w2 0777
-u 65534 -g 65534 rename w/h w2/h

# Sticky directories: only the file's owner, the directory's owner or
# root may remove or replace a name.
mkdir t 01777
-u 65534 -g 65534 create t/a 0644
-u 65533 -g 65533 create t/b 0644
-u 65533 -g 65533 unlink t/a
-u 65533 -g 65533 rename t/a t/c
-u 65533 -g 65533 rename t/b t/a
-u 65533 -g 65533 rename t/b t/c
-u 65533 -g 65533 rename t/c t/b
-u 65534 -g 65534 mkdir t/d 0777
-u 65533 -g 65533 rmdir t/d
-u 65534 -g 65534 rename t/a t/a2
-u 65534 -g 65534 unlink t/a2
stat t/a2 type
chown t 65533 65533
-u 65533 -g 65533 rmdir t/d
-u 65534 -g 65534 create t/e 0644
-u 65533 -g 65533 unlink t/e
unlink t/b
# Without the sticky bit anyone with write permission may.
chmod t 0777
-u 65534 -g 65534 create t/x 0644
-u 65532 -g 65532 unlink t/x

# access(2): the real ids, every class, root's X_OK rule.
create acc 0640
chown acc 65534 100
-u 65534 -g 65534 access acc R_OK
-u 65534 -g 65534 access acc R_OK,W_OK
-u 65534 -g 65534 access acc X_OK
-u 65534 -g 65534 access acc F_OK
-u 65533 -g 100 access acc R_OK
-u 65533 -g 100 access acc W_OK
-u 65533 -g 65533 access acc R_OK
-u 65533 -g 65533 access acc F_OK
-u 65533 -g 65533 access missing F_OK
access acc X_OK
chmod acc 0010
access acc X_OK
access acc R_OK,W_OK
chmod acc 0
access acc R_OK,W_OK
access acc X_OK
access a X_OK
access acc 8
# pjdfstest's -g sets the effective gid only: access() checks with the
# real gid, which is still root's 0; AT_EACCESS checks the effective one.
create rg 0040
-u 65534 -g 65534 open rg O_RDONLY
-u 65534 -g 65534 access rg R_OK
-u 65534 -g 65534 faccessat AT_FDCWD rg R_OK AT_EACCESS
-u 65534 -g 65534 faccessat AT_FDCWD rg R_OK 0
faccessat AT_FDCWD rg R_OK 0x1
faccessat BADFD rg R_OK 0
open a O_RDONLY : faccessat 0 b R_OK,X_OK 0
symlink none dangling
faccessat AT_FDCWD dangling F_OK 0
faccessat AT_FDCWD dangling F_OK AT_SYMLINK_NOFOLLOW
