# SEEK_DATA and SEEK_HOLE on tmpfs (4 KiB pages, huge=never): a page is
# data once written (all of it, the rest zeroed); a page fallocate()
# made is a hole until written, or until a second fallocate() over it
# initializes it. Sparse files up to MAX_LFS_FILESIZE, 1 TiB and past.
mkdir holes 0755
cd holes

open f O_CREAT,O_RDWR 0644 : posix_fallocate 0 0 4096 : fstat 0 size : lseek 0 0 SEEK_DATA
open f O_RDWR : lseek 0 0 SEEK_HOLE : lseek 0 100 SEEK_HOLE : read 0 3
# The second fallocate over the page makes it data.
open f O_RDWR : posix_fallocate 0 100 1 : lseek 0 0 SEEK_DATA : lseek 0 0 SEEK_HOLE : lseek 0 4095 SEEK_DATA
# Partly: pages 0-2 fallocated, a write in page 1; then page 2 again.
open g O_CREAT,O_RDWR 0644 : posix_fallocate 0 0 10000 : pwrite 0 x 5000 : lseek 0 0 SEEK_DATA : lseek 0 4096 SEEK_HOLE : lseek 0 8192 SEEK_DATA
open g O_RDWR : posix_fallocate 0 9000 100 : lseek 0 8192 SEEK_DATA : lseek 0 8192 SEEK_HOLE : lseek 0 0 SEEK_HOLE
open g O_RDWR : pread 0 4 4999 : pread 0 2 9999 : lseek 0 10000 SEEK_HOLE
# Across the end of the file: pages past it go on truncate.
open g O_RDWR : ftruncate 0 6000 : lseek 0 4096 SEEK_DATA : lseek 0 4096 SEEK_HOLE : ftruncate 0 20000 : lseek 0 6000 SEEK_DATA : lseek 0 6000 SEEK_HOLE : pread 0 2 5999
# A fresh page past the written ones.
open g O_RDWR : posix_fallocate 0 12288 4096 : lseek 0 12288 SEEK_DATA : pwrite 0 y 16000 : lseek 0 12288 SEEK_DATA : lseek 0 12288 SEEK_HOLE

# 1 TiB and past: sizes cost nothing, a page anywhere holds data.
open t O_CREAT,O_RDWR 0644 : ftruncate 0 1099511627776 : lseek 0 0 SEEK_END : fstat 0 size : lseek 0 0 SEEK_DATA : lseek 0 0 SEEK_HOLE
open t O_WRONLY,O_APPEND : write 0 abc : lseek 0 0 SEEK_CUR : fstat 0 size
open t O_RDWR : lseek 0 0 SEEK_DATA : lseek 0 1099511627776 SEEK_HOLE : pread 0 5 1099511627774 : lseek 0 1099511627779 SEEK_DATA
open t O_RDWR : pwrite 0 z 4503599627370496 : fstat 0 size : lseek 0 1099511627779 SEEK_DATA : lseek 0 4503599627370496 SEEK_HOLE
open t O_RDWR : pwrite 0 end 9223372036854775804 : fstat 0 size : pread 0 5 9223372036854775803 : pwrite 0 x 9223372036854775807
open t O_RDWR : posix_fallocate 0 1099511627776 100 : posix_fallocate 0 9223372036854771712 4095 : posix_fallocate 0 9223372036854771712 4096 : fstat 0 size
open t O_RDWR : lseek 0 4503599627370497 SEEK_DATA : lseek 0 4503599627370497 SEEK_HOLE : lseek 0 0x7ffffffffffffff0 SEEK_DATA
open t O_RDWR : ftruncate 0 4096 : lseek 0 0 SEEK_DATA : fstat 0 size : ftruncate 0 1099511627776 : lseek 0 0 SEEK_DATA
open t O_RDWR : lseek 0 0x7fffffffffffffff SEEK_SET : lseek 0 1 SEEK_CUR
open t O_RDWR : lseek 0 0x7fffffffffffffff SEEK_END
open t O_RDWR : lseek 0 10 SEEK_SET : lseek 0 0x7ffffffffffffff8 SEEK_CUR

# Fifos: a writer with O_DIRECT (F_SETFL; open refuses it) writes
# packets, and a read takes one packet at most, dropping its rest.
mkfifo p 0644
open p O_RDWR,O_NONBLOCK,O_DIRECT
open p O_RDWR,O_NONBLOCK : fcntl 0 F_SETFL O_DIRECT,O_NONBLOCK : fcntl 0 F_GETFL : write 0 abc : write 0 hello : read 0 100 : read 0 2 : read 0 100
# A small write merges into an ordinary last buffer, packet or not.
open p O_RDWR,O_NONBLOCK : write 0 abc : fcntl 0 F_SETFL O_DIRECT,O_NONBLOCK : write 0 hello : write 0 x : read 0 100 : read 0 1
open p O_RDWR,O_NONBLOCK : fcntl 0 F_SETFL O_DIRECT,O_NONBLOCK : write 0 abc : fcntl 0 F_SETFL O_NONBLOCK : write 0 de : write 0 fg : read 0 100 : read 0 100 : read 0 1
