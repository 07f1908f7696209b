# truncate(2), ftruncate(2) and posix_fallocate: sizes, and what
# cannot be truncated.
mkdir truncate 0755
cd truncate

create f 0644
truncate f 1234567
stat f size
truncate f 567
stat f size
truncate f 0
stat f size
open f O_RDWR : ftruncate 0 1234567 : fstat 0 size
open f O_WRONLY : ftruncate 0 567 : fstat 0 size
# Growing reads back as zeros, shrinking drops data.
open f O_RDWR : ftruncate 0 0 : write 0 abcdef : ftruncate 0 3 : pread 0 10 0 : ftruncate 0 5 : pread 0 10 0
truncate f 9223372036854775807
stat f size
truncate f 0

# Negative lengths, and things that are not regular files.
truncate f -1
open f O_RDWR : ftruncate 0 -1
open f O_WRONLY : ftruncate 0 -999999
mkdir d 0755
truncate d 0
open d O_RDONLY : ftruncate 0 0
mkfifo fifo 0644
truncate fifo 0
open fifo O_RDWR,O_NONBLOCK : ftruncate 0 0
symlink f sl
truncate sl 10
stat f size
symlink none dangling
truncate dangling 0

# Descriptors must be open for writing.
open f O_RDONLY : ftruncate 0 0
open f O_PATH : ftruncate 0 0
ftruncate BADFD 0
open f O_WRONLY,O_APPEND : ftruncate 0 4 : fstat 0 size

# Paths and permissions.
truncate none 0
truncate none/f 0
truncate f/x 0
truncate "" 0
truncate NULL 0
chmod f 0444
truncate f 1
stat f size
-u 65534 -g 65534 truncate f 2
chmod f 0666
-u 65534 -g 65534 truncate f 2
stat f size
chmod d 0700
create d/g 0666
-u 65534 -g 65534 truncate d/g 2
# Truncate clears set-id bits like a write does (root keeps them).
chown f 65534 65534
chmod f 06777
-u 65534 -g 65534 truncate f 3
stat f mode,size
chmod f 06777
truncate f 4
stat f mode,size

# posix_fallocate (pjdfstest's, as glibc calls fallocate(2) mode 0).
open f O_RDWR : posix_fallocate 0 0 100 : fstat 0 size
open f O_RDWR : posix_fallocate 0 200 50 : fstat 0 size
open f O_RDWR : posix_fallocate 0 0 10 : fstat 0 size
open f O_RDONLY : posix_fallocate 0 0 10
open f O_RDWR : posix_fallocate 0 -1 10
open f O_RDWR : posix_fallocate 0 0 0
open f O_RDWR : posix_fallocate 0 0 -1
open d O_RDONLY : posix_fallocate 0 0 10
open fifo O_RDWR,O_NONBLOCK : posix_fallocate 0 0 10
# A range that can never fit is ENOSPC before file_modified(): setuid stays.
# One that fits clears it, as a write does.
create sp 0777 : chown sp 65534 65534 : chmod sp 04777
-u 65534 -g 65534 open sp O_RDWR : posix_fallocate 0 0 1099511627776
stat sp mode
-u 65534 -g 65534 open sp O_RDWR : posix_fallocate 0 0 4096
stat sp mode
