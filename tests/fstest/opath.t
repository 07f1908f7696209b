# O_PATH descriptors: they name a file without opening it.
mkdir opath 0755
cd opath
create f 0600
mkdir d 0755
create d/g 0644
symlink f sl

open f O_PATH : fstat 0 type,mode
open f O_PATH : fcntl 0 F_GETFL
open f O_PATH : read 0 1
open f O_PATH : write 0 x
open f O_PATH : pread 0 1 0
open f O_PATH : pwrite 0 x 0
open f O_PATH : lseek 0 0 SEEK_SET
open f O_PATH : ftruncate 0 0
open f O_PATH : fchmod 0 0644
open f O_PATH : fchown 0 0 0
open f O_PATH : posix_fallocate 0 0 1
open f O_PATH : futimens 0 0 UTIME_OMIT 0 UTIME_OMIT
open f O_PATH : futimens 0 0 UTIME_NOW 0 UTIME_NOW
open f O_PATH : dup 0 : fstat 1 type
open f O_PATH : fcntl 0 F_DUPFD 10 : fcntl 1 F_GETFL
open f O_PATH : close 0
open f O_PATH : getdents 0
# Other flags are dropped, except O_DIRECTORY, O_NOFOLLOW, O_CLOEXEC.
open f O_PATH,O_RDWR,O_TRUNC,O_APPEND : fcntl 0 F_GETFL
stat f size
open f O_PATH,O_CLOEXEC : fcntl 0 F_GETFD
open f O_PATH,O_DIRECTORY
open sl O_PATH : fstat 0 type
open sl O_PATH,O_NOFOLLOW : fstat 0 type,mode
open sl O_PATH,O_NOFOLLOW : fcntl 0 F_GETFL

# No permission on the file is needed, only search on the way.
-u 65534 -g 65534 open f O_RDONLY
-u 65534 -g 65534 open f O_PATH : fstat 0 type,mode
chmod d 0700
-u 65534 -g 65534 open d/g O_PATH
chmod d 0711
-u 65534 -g 65534 open d/g O_PATH : fstat 0 type
-u 65534 -g 65534 open d O_PATH : getdents 0
-u 65534 -g 65534 open d O_RDONLY
chmod d 0755

# As a directory for the *at calls and for fchdir.
open d O_PATH : openat 0 g O_RDONLY : fstat 1 type
open d O_PATH : fstatat 0 g 0 type
open d O_PATH : fstatat 0 "" AT_EMPTY_PATH type
open d O_PATH : mkdirat 0 sub 0755
stat d/sub type
open d O_PATH : fchdir 0 : getcwd
open f O_PATH : fchdir 0
open d O_PATH : symlinkat x 0 l : readlinkat 0 l
open sl O_PATH,O_NOFOLLOW : readlinkat 0 ""
open sl O_PATH,O_NOFOLLOW : fstatat 0 "" AT_EMPTY_PATH type
open sl O_PATH,O_NOFOLLOW : fchownat 0 "" 5 6 AT_EMPTY_PATH : fstat 0 uid,gid
stat f uid,gid
# A fifo opened O_PATH does not wait for a writer.
mkfifo p 0644
open p O_PATH : fstat 0 type
open p O_PATH : read 0 1
