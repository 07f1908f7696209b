# The memory devices (major 1) on mknod'ed nodes: null, zero, full,
# random, urandom. Reads and writes never move the offset; lseek puts
# null, zero and full back at 0 and leaves random where it is. Every
# other device number has no driver: ENXIO.
# needs: dev
mkdir memdev 0755
cd memdev

mknod null c 0666 1 3
mknod zero c 0666 1 5
mknod full c 0666 1 7
mknod random c 0666 1 8
mknod urandom c 0666 1 9
open null O_RDWR : read 0 10 : write 0 abc : write 0 "" : pwrite 0 ab 100 : pread 0 7 100 : lseek 0 0 SEEK_CUR : fstat 0 type,size,major,minor
open null O_RDWR : lseek 0 5 SEEK_SET : lseek 0 -3 SEEK_END : lseek 0 0 5
open zero O_RDWR : read 0 10 : write 0 abc : pwrite 0 ab 100 : pread 0 7 100 : lseek 0 0 SEEK_CUR
open zero O_RDONLY : lseek 0 5 SEEK_SET : read 0 3 : lseek 0 0 SEEK_CUR
open full O_RDWR : read 0 4 : pread 0 3 1000 : lseek 0 7 SEEK_SET : write 0 abc
open full O_WRONLY : write 0 ""
open full O_RDWR : pwrite 0 ab 100
open random O_WRONLY : write 0 abc : pwrite 0 ab 100 : lseek 0 5 SEEK_SET : lseek 0 0 SEEK_END
open urandom O_WRONLY : write 0 abc : lseek 0 -3 SEEK_END : fstat 0 type,size,major,minor
# Access modes and flags as for any file: O_DIRECT has no support here.
open null O_RDONLY : write 0 x
open zero O_WRONLY : read 0 1
open null O_RDWR,O_DIRECT
open zero O_RDONLY,O_TRUNC : read 0 2
# No driver: a minor of major 1 mem.c does not list, a major nothing
# registers (42, for examples), a whiteout, a block device with a mem
# device's number.
mknod nominor c 0666 1 6
mknod other c 0666 42 0
mknod wh c 0666 0 0
mknod blk b 0666 1 3
open nominor O_RDONLY
open other O_RDONLY
open wh O_RDONLY
open blk O_RDONLY
# Permissions still apply.
chmod null 0600
-u 65534 -g 65534 open null O_RDONLY
-u 65534 -g 65534 open zero O_RDONLY : read 0 2
