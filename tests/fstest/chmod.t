# chmod(2), fchmod, fchmodat, lchmod: who may, which bits stick.
mkdir chmod 0755
cd chmod

create f 0644
chmod f 0600
stat f mode
chmod f 07777
stat f mode
chmod f 0
stat f mode
# Only the low 12 bits count.
chmod f 0170755
stat f type,mode
mkdir d 0755
chmod d 01777
stat d type,mode
chmod d 02755
stat d mode
mkfifo fifo 0644
chmod fifo 0600
stat fifo type,mode

# Through a symlink: the target changes, never the link.
symlink f sl
chmod sl 0640
stat f mode
lstat sl mode
# lchmod and AT_SYMLINK_NOFOLLOW on a link: not supported on Linux.
lchmod sl 0600
lchmod f 0604
stat f mode
fchmodat AT_FDCWD sl 0600 AT_SYMLINK_NOFOLLOW
fchmodat AT_FDCWD f 0600 AT_SYMLINK_NOFOLLOW
stat f mode
fchmodat AT_FDCWD f 0644 0
stat f mode
fchmodat AT_FDCWD f 0644 0x1
open d O_RDONLY : fchmodat 0 ../f 0640 0
stat f mode
fchmodat BADFD f 0640 0
open f O_PATH : fchmodat 0 "" 0600 AT_EMPTY_PATH
stat f mode
symlink none dangling
chmod dangling 0644
lchmod dangling 0644

# fchmod through descriptors.
open f O_RDONLY : fchmod 0 0604
stat f mode
open f O_WRONLY : fchmod 0 0640
stat f mode
open d O_RDONLY : fchmod 0 0700
stat d mode
open f O_PATH : fchmod 0 0600
fchmod BADFD 0600
stat f mode

# Errors on the way to the file.
chmod none 0644
chmod none/f 0644
chmod f/x 0644
chmod "" 0644
chmod NULL 0644

# Only the owner (or root) may change the mode.
chown f 65534 65534
-u 65533 -g 65533 chmod f 0600
-u 65534 -g 65534 chmod f 0600
stat f mode
-u 65534 -g 65534 open f O_RDONLY : fchmod 0 0644
stat f mode
-u 65533 -g 65533 open f O_RDONLY : fchmod 0 0600
# The owner keeps S_ISGID only if in the file's group.
-u 65534 -g 65534 chmod f 02755
stat f mode
chown f 65534 100
-u 65534 -g 65534 chmod f 02755
stat f mode
-u 65534 -g 65534,100 chmod f 02755
stat f mode
# ... and may set S_ISUID and S_ISVTX on a regular file.
-u 65534 -g 65534 chmod f 05755
stat f mode
# Root always keeps the bits.
chmod f 06755
stat f mode
# Search permission on the way is still needed.
chmod d 0700
create d/g 0644
chown d/g 65534 65534
-u 65534 -g 65534 chmod d/g 0600
chmod d 0755
-u 65534 -g 65534 chmod d/g 0600
stat d/g mode
