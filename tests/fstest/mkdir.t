# mkdir(2): mode and umask, owner and group, link counts, errors.
mkdir mkdir 0755
cd mkdir

mkdir d 0755
stat d type,mode,nlink,uid,gid
stat . nlink
mkdir d/sub 0700
stat d nlink
stat d/sub type,mode,nlink
-U 077 mkdir u 0777
stat u mode
-U 022 mkdir u2 0777
stat u2 mode
# Only permission bits and the sticky bit come from the argument.
mkdir m1 07777
stat m1 mode
mkdir m2 04755
stat m2 mode
mkdir m3 01700
stat m3 mode
mkdir m4 0
stat m4 mode
mkdir m5 0177777
stat m5 mode

# Exists already, whatever it is.
mkdir d 0755
create f 0644
mkdir f 0755
symlink d sl
mkdir sl 0755
symlink none dangling
mkdir dangling 0755
lstat none type
mkfifo fifo 0644
mkdir fifo 0755
mkdir . 0755
mkdir .. 0755
mkdir / 0755

# Trailing slashes are fine for mkdir.
mkdir t/ 0755
stat t type
mkdir t2// 0755
stat t2 type

# Missing or wrong parents, bad names.
mkdir none/d 0755
mkdir f/d 0755
mkdir "" 0755
mkdir NULL 0755
mkdir DEADCODE 0755

# Owner and group.
chmod . 0777
-u 65534 -g 65534 mkdir o 0755
stat o uid,gid
-u 65534 -g 65533,65534 mkdir o2 0755
stat o2 uid,gid
chmod . 0755
-u 65534 -g 65534 mkdir o3 0755
stat o3 type

# A setgid directory hands its group and its setgid bit down.
mkdir sg 0777
chown sg 0 100
chmod sg 02777
stat sg mode,gid
-u 65534 -g 65534 mkdir sg/sub 0755
stat sg/sub mode,uid,gid
-u 65534 -g 65534 create sg/f 0644
stat sg/f mode,uid,gid
# Not in the inherited group: a setgid bit asked for is dropped.
-u 65534 -g 65534 create sg/f2 02755
stat sg/f2 mode,gid
-u 65534 -g 65534,100 create sg/f3 02755
stat sg/f3 mode,gid
-u 65534 -g 65534 mkdir sg/d2 02755
stat sg/d2 mode,gid

# mkdirat: relative to a directory descriptor, AT_FDCWD, bad fds.
open d O_RDONLY : mkdirat 0 at 0750
stat d/at type,mode
mkdirat AT_FDCWD at2 0700
stat at2 type,mode
mkdirat BADFD at3 0700
# An absolute path ignores the descriptor.
mkdirat BADFD / 0700
open f O_RDONLY : mkdirat 0 at4 0700
open d O_PATH : mkdirat 0 at5 0700
stat d/at5 type
