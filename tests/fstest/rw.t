# read, write, pread, pwrite, lseek (read and lseek are vfslab's; pjdfstest's
# write and pwrite print 0, pread the data): offsets, O_APPEND, O_TRUNC,
# access modes, fifos.
mkdir rw 0755
cd rw

open f O_CREAT,O_RDWR 0644 : write 0 hello : lseek 0 0 SEEK_CUR : read 0 10 : lseek 0 0 SEEK_SET : read 0 10 : read 0 10
open f O_RDONLY : read 0 2 : read 0 2 : read 0 2 : read 0 2 : lseek 0 0 SEEK_CUR
open f O_RDONLY : read 0 0 : pread 0 3 1 : pread 0 10 5 : pread 0 10 100 : lseek 0 0 SEEK_CUR
open f O_RDWR : pwrite 0 XY 1 : pread 0 10 0 : lseek 0 0 SEEK_CUR
open f O_RDWR : pwrite 0 far 10 : fstat 0 size : pread 0 20 0
open f O_RDWR : write 0 "" : pwrite 0 "" 100 : fstat 0 size
open f O_RDWR : write 0 "line one\nline two\ttab\x01\\" : pread 0 100 0
# lseek: whence, bounds, holes.
open f O_RDONLY : lseek 0 -1 SEEK_END : read 0 5
open f O_RDONLY : lseek 0 100 SEEK_SET : read 0 5 : lseek 0 -100 SEEK_CUR
open f O_RDONLY : lseek 0 -1 SEEK_SET
open f O_RDONLY : lseek 0 -1000 SEEK_END
open f O_RDONLY : lseek 0 0 5
open f O_RDONLY : lseek 0 0 SEEK_DATA : lseek 0 0 SEEK_HOLE : fstat 0 size
open f O_RDONLY : lseek 0 1000 SEEK_DATA
open f O_RDONLY : lseek 0 1000 SEEK_HOLE
lseek BADFD 0 SEEK_SET
open . O_RDONLY : lseek 0 0 SEEK_END
open f O_RDONLY : pread 0 1 -1
open f O_RDWR : pwrite 0 x -1

# Access modes.
open f O_RDONLY : write 0 x
open f O_RDONLY : pwrite 0 x 0
open f O_WRONLY : read 0 1
open f O_WRONLY : pread 0 1 0
open f O_WRONLY : write 0 x : lseek 0 0 SEEK_CUR
read BADFD 1
write BADFD x
open . O_RDONLY : read 0 1
open . O_RDONLY : pread 0 1 0
open . O_RDONLY : write 0 x

# O_APPEND: every write goes to the end, lseek or not.
open g O_CREAT,O_WRONLY 0644 : write 0 abc
open g O_WRONLY,O_APPEND : lseek 0 0 SEEK_SET : write 0 def : lseek 0 0 SEEK_CUR
open g O_RDWR,O_APPEND : lseek 0 1 SEEK_SET : read 0 2 : write 0 ghi : lseek 0 0 SEEK_CUR
# pwrite on an O_APPEND file appends too (a Linux quirk).
open g O_RDWR,O_APPEND : pwrite 0 JK 0 : pread 0 20 0
stat g size
# O_TRUNC drops the data, with O_RDWR or O_WRONLY.
open g O_RDWR,O_TRUNC : read 0 10 : fstat 0 size
open g O_WRONLY : write 0 12345 : open g O_WRONLY,O_TRUNC : fstat 0 size
stat g size

# Two opens have two offsets.
open f O_RDONLY : open f O_RDONLY : read 0 3 : read 1 2 : read 0 1

# A written file stays written after the last close.
open h O_CREAT,O_WRONLY 0644 : write 0 persistent
open h O_RDONLY : read 0 100
unlink h

# Fifos: no offsets; O_NONBLOCK opens that do not wait.
mkfifo p 0644
open p O_RDWR,O_NONBLOCK : write 0 data : read 0 10
open p O_RDWR,O_NONBLOCK : read 0 10
open p O_RDONLY,O_NONBLOCK : read 0 10
open p O_WRONLY,O_NONBLOCK
open p O_RDONLY,O_NONBLOCK : open p O_WRONLY,O_NONBLOCK : write 1 xyz : read 0 2 : read 0 2
open p O_RDWR,O_NONBLOCK : lseek 0 0 SEEK_CUR
open p O_RDWR,O_NONBLOCK : pread 0 1 0
open p O_RDWR,O_NONBLOCK : pwrite 0 x 0
open p O_RDWR,O_NONBLOCK : fstat 0 type,size
# With no reader left, a write is EPIPE.
open p O_RDONLY,O_NONBLOCK : open p O_WRONLY,O_NONBLOCK : close 0 : write 1 x
