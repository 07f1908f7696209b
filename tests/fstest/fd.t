# Descriptor tables (vfslab extensions): the lowest free number, dup,
# dup2, dup3, fcntl, close, close_range.  Every invocation starts with
# 0, 1 and 2 open and RLIMIT_NOFILE at 1024.
mkdir fd 0755
cd fd
create f 0644

# open takes the lowest free number.
open f O_RDONLY : fdnum 0
open f O_RDONLY : open f O_RDONLY : open f O_RDONLY : fdnum 2
open f O_RDONLY : open f O_RDONLY : close 0 : open f O_RDONLY : fdnum 2
open f O_RDONLY : close 0 : close 0
close BADFD
close =1023
close =-5
open f O_RDONLY : close 0 : fstat 0 type

# dup, dup2, dup3.
open f O_RDONLY : dup 0 : dup 0 : fstat 2 type
open f O_RDONLY : open f O_RDONLY : close 0 : dup 1
dup BADFD
dup =700
open f O_RDONLY : dup2 0 10 : dup2 0 10 : fstat 1 type
open f O_RDONLY : dup2 0 3
open f O_RDONLY : open f O_RDONLY : dup2 0 4 : fstat 1 type
open f O_RDONLY : dup2 0 1023
open f O_RDONLY : dup2 0 1024
open f O_RDONLY : dup2 0 -1
dup2 BADFD 5
dup2 =1023 1023
open f O_RDONLY : dup3 0 7 0 : dup3 0 7 O_CLOEXEC : fcntl 2 F_GETFD
open f O_RDONLY : dup3 0 3 0
open f O_RDONLY : dup3 0 7 0x4
open f O_RDONLY : dup3 0 1024 0
dup3 BADFD 7 0
# dup shares the open file: offset and status flags.
open f O_RDWR : write 0 abcdef : dup 0 : lseek 1 0 SEEK_CUR : lseek 1 1 SEEK_SET : read 0 2
open f O_RDONLY : dup 0 : fcntl 0 F_SETFL O_NONBLOCK : fcntl 1 F_GETFL
# ... but not the close-on-exec flag.
open f O_RDONLY,O_CLOEXEC : fcntl 0 F_GETFD : dup 0 : fcntl 1 F_GETFD
open f O_RDONLY,O_CLOEXEC : dup2 0 9 : fcntl 1 F_GETFD

# fcntl: duplicating.
open f O_RDONLY : fcntl 0 F_DUPFD 0
open f O_RDONLY : fcntl 0 F_DUPFD 10 : fcntl 0 F_DUPFD 10
open f O_RDONLY : fcntl 0 F_DUPFD_CLOEXEC 20 : fcntl 1 F_GETFD
open f O_RDONLY : fcntl 0 F_DUPFD 1023
open f O_RDONLY : fcntl 0 F_DUPFD 1024
open f O_RDONLY : fcntl 0 F_DUPFD -1
open f O_RDONLY : dup2 0 1023 : fcntl 0 F_DUPFD 1023
fcntl BADFD F_DUPFD 0
# fcntl: descriptor flags.
open f O_RDONLY : fcntl 0 F_GETFD : fcntl 0 F_SETFD FD_CLOEXEC : fcntl 0 F_GETFD : fcntl 0 F_SETFD 0 : fcntl 0 F_GETFD
open f O_RDONLY : fcntl 0 F_SETFD 3 : fcntl 0 F_GETFD
fcntl BADFD F_GETFD
fcntl =1000 F_SETFD 1
# fcntl: status flags; the access mode and creation flags stay.
open f O_RDONLY : fcntl 0 F_GETFL
open f O_WRONLY,O_APPEND : fcntl 0 F_GETFL
open g O_RDWR,O_CREAT,O_EXCL,O_TRUNC 0644 : fcntl 0 F_GETFL
open f O_RDWR,O_TRUNC : fcntl 0 F_GETFL
open f O_RDWR,O_SYNC,O_NONBLOCK : fcntl 0 F_GETFL
open f O_RDONLY,O_NOFOLLOW,O_NOCTTY : fcntl 0 F_GETFL
open . O_RDONLY,O_DIRECTORY : fcntl 0 F_GETFL
open f O_RDONLY : fcntl 0 F_SETFL O_APPEND,O_NONBLOCK : fcntl 0 F_GETFL
open f O_RDONLY : fcntl 0 F_SETFL O_RDWR,O_TRUNC,O_CREAT : fcntl 0 F_GETFL
open f O_WRONLY,O_APPEND : fcntl 0 F_SETFL 0 : fcntl 0 F_GETFL
open f O_PATH : fcntl 0 F_GETFL : fcntl 0 F_GETFD : fcntl 0 F_SETFL O_APPEND
fcntl BADFD F_GETFL
# Unknown commands.
open f O_RDONLY : fcntl 0 9999
open f O_RDONLY : fcntl 0 -1

# close_range.
open f O_RDONLY : open f O_RDONLY : close_range 3 4 0 : fstat 0 type
open f O_RDONLY : open f O_RDONLY : close_range 4 4294967295 0 : fstat 0 type : fstat 1 type
open f O_RDONLY : close_range 0 4294967295 0 : fstat =2 type
open f O_RDONLY : close_range 4 3 0
open f O_RDONLY : close_range 3 3 CLOSE_RANGE_CLOEXEC : fcntl 0 F_GETFD
open f O_RDONLY : close_range 3 3 0x10
close_range 100 200 0
close_range 3 4 CLOSE_RANGE_UNSHARE
