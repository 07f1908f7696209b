# open(2): creation mode and umask, owner and group of new files,
# flag checks and the errors of the access mode.  Like pjdfstest's
# open/*.t; descriptor 0 is the first file a line opens.
mkdir open 0755
cd open

# The mode is masked by the umask, which is 0 unless -U says otherwise.
open f O_CREAT,O_WRONLY 0755 : fstat 0 type,mode,nlink,size
lstat f type,mode
unlink f
open f O_CREAT,O_WRONLY 0151
lstat f type,mode
unlink f
-U 077 open f O_CREAT,O_WRONLY 0151
lstat f mode
unlink f
-U 070 open f O_CREAT,O_WRONLY 0345
lstat f mode
unlink f
-U 0501 open f O_CREAT,O_WRONLY 0345
lstat f mode
unlink f
# Bits outside 07777 are ignored; set-id bits survive for root.
open f O_CREAT,O_RDWR 0177777 : fstat 0 type,mode
unlink f

# Owner is the fsuid, group the fsgid (the directory is not setgid).
chown . 65534 65534
-u 65534 -g 65534 open f O_CREAT,O_WRONLY 0644
lstat f uid,gid
unlink f
-u 65534 -g 65533 open f O_CREAT,O_WRONLY 0644
lstat f uid,gid
unlink f
chmod . 0777
-u 65533 -g 65532,65531 open f O_CREAT,O_WRONLY 0644
lstat f uid,gid
unlink f
chown . 0 0
chmod . 0755

# An existing file is opened, not created: mode and owner stay.
create f 0600
open f O_CREAT,O_RDONLY 0777 : fstat 0 mode,uid
open f O_RDWR : fstat 0 type,mode
open f O_WRONLY,O_TRUNC : fstat 0 size
unlink f

# O_TRUNC empties a file opened for writing.
open f O_CREAT,O_RDWR 0644 : write 0 hello : fstat 0 size
stat f size
open f O_WRONLY,O_TRUNC : fstat 0 size
open f O_RDWR : write 0 again : fstat 0 size
# O_RDONLY with O_TRUNC still truncates on Linux.
open f O_RDONLY,O_TRUNC : fstat 0 size
unlink f

# Missing files and missing directories on the way.
open none O_RDONLY
open none/f O_RDONLY
open none/f O_CREAT,O_RDWR 0644
open "" O_RDONLY
open "" O_CREAT,O_RDWR 0644
open NULL O_RDONLY
open DEADCODE O_RDONLY

# Directories: read-only opens only.
mkdir d 0755
open d O_RDONLY : fstat 0 type
open d O_DIRECTORY : fstat 0 type
open d O_WRONLY
open d O_RDWR
open d O_RDONLY,O_TRUNC
open d O_CREAT,O_RDONLY 0644
open d O_CREAT,O_EXCL,O_RDONLY 0644
# O_CREAT with O_DIRECTORY is refused outright (Linux 6.4 and later).
open d O_CREAT,O_DIRECTORY 0644
open new O_CREAT,O_DIRECTORY 0644
stat new type
create f 0644
open f O_DIRECTORY
open f O_DIRECTORY,O_RDWR
unlink f
rmdir d

# Access mode 3 opens for neither reading nor writing, but needs
# permission for both.
create f 0644
open f O_WRONLY,O_RDWR : read 0 1
open f O_WRONLY,O_RDWR : write 0 x
-u 65534 -g 65534 open f O_WRONLY,O_RDWR
unlink f

# Unknown flag bits are ignored by open.
create f 0644
open f 010000000000 : fstat 0 type
unlink f

# O_CREAT with O_PATH: O_PATH drops O_CREAT, so nothing is created.
open f O_PATH,O_CREAT 0644
stat f type

# O_TMPFILE: an unnamed file in the directory, link count 0.
open . O_TMPFILE,O_RDWR 0640 : fstat 0 type,mode,nlink,size : write 0 data : fstat 0 size
-U 022 open . O_TMPFILE,O_WRONLY 0666 : fstat 0 mode,nlink
open . O_TMPFILE,O_RDONLY 0640
create f 0644
open f O_TMPFILE,O_RDWR 0640
unlink f
open none O_TMPFILE,O_RDWR 0640
