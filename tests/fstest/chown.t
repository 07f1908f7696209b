# chown(2), fchown, lchown, fchownat: root, owners and others; -1 keeps
# an id; set-id bits are cleared as Linux does.
mkdir chown 0755
cd chown

create f 0644
chown f 123 456
stat f uid,gid
chown f -1 789
stat f uid,gid
chown f 321 -1
stat f uid,gid
chown f -1 -1
stat f uid,gid
chown f 0 0

# Through a symlink: chown follows, lchown does not.
symlink f sl
chown sl 11 12
stat f uid,gid
lstat sl uid,gid
lchown sl 13 14
lstat sl uid,gid
stat f uid,gid
fchownat AT_FDCWD sl 15 16 AT_SYMLINK_NOFOLLOW
lstat sl uid,gid
fchownat AT_FDCWD sl 17 18 0
stat f uid,gid
fchownat AT_FDCWD sl 17 18 0x1
open f O_PATH : fchownat 0 "" 19 20 AT_EMPTY_PATH
stat f uid,gid
open f O_RDONLY : fchown 0 21 22
stat f uid,gid
open f O_PATH : fchown 0 21 22
fchown BADFD 0 0
chown none 0 0
chown none/x 0 0
chown f/x 0 0
chown "" 0 0
chown NULL 0 0
symlink none dangling
chown dangling 0 0
lchown dangling 1 2
lstat dangling uid,gid
chown f 0 0

# Unprivileged: only the owner, only to a group it is in, never the uid.
chown f 65534 65534
-u 65534 -g 65534 chown f 65533 -1
-u 65534 -g 65534 chown f 65534 65534
-u 65534 -g 65534 chown f -1 65533
-u 65534 -g 65534,65533 chown f -1 65533
stat f uid,gid
-u 65534 -g 65534,65533 chown f 65534 65534
stat f uid,gid
-u 65533 -g 65534 chown f -1 65534
# Nothing to change is allowed to anyone.
-u 65533 -g 65533 chown f -1 -1
-u 65533 -g 65533 lchown sl -1 -1
-u 65534 -g 65534 open f O_RDONLY : fchown 0 -1 65533
-u 65534 -g 65534,65533 open f O_RDONLY : fchown 0 -1 65533
stat f uid,gid

# Set-id bits of a regular file are cleared by a change of owner or
# group, by root too; S_ISGID only if S_IXGRP is set.
chown f 0 0
chmod f 06755
chown f 65534 65534
stat f mode,uid,gid
chmod f 06755
chown f -1 -1
stat f mode
chmod f 06745
chown f 0 -1
stat f mode
chown f 65534 65534
chmod f 06755
-u 65534 -g 65534,65533 chown f -1 65533
stat f mode,gid
# Directories keep them.
mkdir d 0755
chmod d 06755
chown d 65534 65534
stat d mode,uid,gid
