# mknod(2), mknodat, mkfifo, mkfifoat: special files, who may make them,
# modes and device numbers.  Nothing here opens a device node.
mkdir special 0755
cd special

mkfifo fifo 0644
stat fifo type,mode,nlink,size,uid,gid
mknod fifo2 f 0640 0 0
stat fifo2 type,mode
# A fifo ignores the device numbers.
mknod fifo3 f 0644 1 2
stat fifo3 type,major,minor
mknod chr c 0644 1 2
stat chr type,mode,major,minor,size
mknod blk b 0600 3 4
stat blk type,mode,major,minor
mknod big c 0644 4095 1048575
stat big major,minor
# glibc refuses device numbers that do not fit the kernel's 32 bits.
mknod toobig c 0644 4096 0
mknod toobig2 c 0644 0 1048576
mknod reg o 0644 0 0
stat reg type,mode,nlink,size
mknod sock s 0644 0 0
stat sock type,mode
# mknod makes no directories.
mknod dir d 0755 0 0
stat dir type
# The umask applies to all of them.
-U 022 mkfifo um 0777
stat um mode
-U 077 mknod um2 c 0666 1 2
stat um2 mode
-U 0 mknod um3 f 07777 0 0
stat um3 mode
# A type in the mode argument is OR'ed into the letter's, as pjdfstest
# does: fifo|fifo is a fifo, regular|char is the symlink type (EINVAL).
mknod both f 010644 0 0
stat both type
mknod clash o 020644 0 0
mknod bad o 0170644 0 0

# Names that exist, missing parents, bad pointers.
mkfifo fifo 0644
mknod chr c 0644 1 2
mknod fifo c 0644 1 2
symlink none dangling
mkfifo dangling 0644
mknod none/x f 0644 0 0
mkfifo none/x 0644
mkfifo "" 0644
mkfifo NULL 0644
mknod NULL f 0644 0 0

# Unprivileged users may make fifos, sockets and files, not devices.
chmod . 0777
-u 65534 -g 65534 mkfifo ufifo 0644
stat ufifo type,uid,gid
-u 65534 -g 65534 mknod ufifo2 f 0644 0 0
-u 65534 -g 65534 mknod usock s 0644 0 0
-u 65534 -g 65534 mknod ureg o 0644 0 0
-u 65534 -g 65534 mknod uchr c 0644 1 2
-u 65534 -g 65534 mknod ublk b 0644 1 2
# ... except a whiteout (char 0:0), which anyone may make (Linux 5.8+).
-u 65534 -g 65534 mknod uwh c 0644 0 0
stat uchr type
chmod . 0755
-u 65534 -g 65534 mkfifo ufifo3 0644

# mkfifoat and mknodat relative to a directory descriptor.
mkdir d 0755
open d O_RDONLY : mkfifoat 0 f 0600 : mknodat 0 c c 0600 5 6 : fstatat 0 c 0 type,major,minor
stat d/f type,mode
mkfifoat AT_FDCWD f2 0644
stat f2 type
mkfifoat BADFD x 0644
mknodat BADFD x f 0644 0 0
open reg O_RDONLY : mkfifoat 0 x 0644

# Special files are opened without the device: fifo non-blocking only.
open fifo O_RDONLY,O_NONBLOCK : fstat 0 type
open sock O_RDONLY
open fifo O_RDONLY,O_NONBLOCK,O_TRUNC : fstat 0 size
