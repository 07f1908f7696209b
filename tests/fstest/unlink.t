# unlink(2) and unlinkat(2): link counts, what may not be unlinked.
mkdir unlink 0755
cd unlink

create f 0644
link f g
stat f nlink
unlink g
stat f nlink
stat g type
unlink f
unlink f

# Every kind of non-directory can be unlinked.
mkfifo fifo 0644
unlink fifo
mknod chr c 0644 1 3
unlink chr
mknod blk b 0644 1 3
unlink blk
mknod sock s 0644 0 0
lstat sock type
unlink sock
# Unlinking a symlink removes the link, not its target.
create t 0644
symlink t sl
unlink sl
stat t type
symlink none dangling
unlink dangling
lstat dangling type

# Directories, dots, trailing slashes.
mkdir d 0755
unlink d
unlink d/
unlink .
unlink ..
unlink /
create f 0644
unlink f/
unlink f/.
symlink d sld
unlink sld/
lstat sld type
unlink sld
stat d type

# Missing things and bad pointers.
unlink none
unlink none/f
unlink f/none
unlink ""
unlink NULL
unlink DEADCODE

# An open file lives on after its last name is gone.
open f O_RDWR : write 0 data : unlink f : fstat 0 type,nlink,size : pread 0 10 0
stat f type

# unlinkat.
create f 0644
open . O_RDONLY : unlinkat 0 f 0
stat f type
create f 0644
open d O_RDONLY : unlinkat 0 ../f 0
stat f type
create f 0644
unlinkat AT_FDCWD f 0x400
unlinkat AT_FDCWD f AT_REMOVEDIR
unlinkat BADFD f 0
open f O_RDONLY : unlinkat 0 x 0
unlinkat AT_FDCWD f none
