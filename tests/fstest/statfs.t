# statfs(2) and fstatfs(2) answer as tmpfs does; pathconf(3) and
# fpathconf(3) as glibc computes them on Linux: constants that never look
# at the path, values from statfs (so a bad path fails), _PC_ASYNC_IO
# from stat.  Sizes and counts depend on the machine: not printed.
mkdir statfs 0755
cd statfs
mkdir d 0755
create f 0644
mkfifo p 0644
symlink f sl
symlink nowhere dangling
symlink loop loop
statfs . type,bsize,namelen,frsize,flags
statfs f type,bsize,namelen
statfs sl type
statfs nope type
statfs f/x type
statfs dangling type
statfs loop type
statfs d bogus
open f O_RDONLY : fstatfs 0 type,bsize,namelen,frsize
open p O_PATH : fstatfs 0 type
fstatfs BADFD type
chmod d 0700
-u 65534 -g 65534 statfs d/x type
-u 65534 -g 65534 pathconf d/x _PC_NAME_MAX
-u 65534 -g 65534 pathconf d/x _PC_PATH_MAX
chmod d 0755
pathconf . _PC_LINK_MAX
pathconf . _PC_NAME_MAX
pathconf . _PC_PATH_MAX
pathconf . _PC_SYMLINK_MAX
pathconf . _PC_MAX_CANON
pathconf . _PC_MAX_INPUT
pathconf . _PC_PIPE_BUF
pathconf . _PC_CHOWN_RESTRICTED
pathconf . _PC_NO_TRUNC
pathconf . _PC_VDISABLE
pathconf . _PC_SYNC_IO
pathconf . _PC_ASYNC_IO
pathconf . _PC_PRIO_IO
pathconf . _PC_SOCK_MAXBUF
pathconf . _PC_FILESIZEBITS
pathconf . _PC_REC_INCR_XFER_SIZE
pathconf . _PC_REC_MAX_XFER_SIZE
pathconf . _PC_REC_MIN_XFER_SIZE
pathconf . _PC_REC_XFER_ALIGN
pathconf . _PC_ALLOC_SIZE_MIN
pathconf . _PC_2_SYMLINKS
pathconf f _PC_ASYNC_IO
pathconf p _PC_ASYNC_IO
pathconf sl _PC_ASYNC_IO
pathconf nope _PC_NAME_MAX
pathconf nope _PC_PATH_MAX
pathconf nope _PC_ASYNC_IO
pathconf f/x _PC_LINK_MAX
pathconf dangling _PC_FILESIZEBITS
pathconf loop _PC_2_SYMLINKS
open f O_RDONLY : fpathconf 0 _PC_LINK_MAX : fpathconf 0 _PC_NAME_MAX : fpathconf 0 _PC_ASYNC_IO
open d O_RDONLY : fpathconf 0 _PC_ASYNC_IO : fpathconf 0 _PC_PIPE_BUF
open p O_PATH : fpathconf 0 _PC_NAME_MAX
fpathconf BADFD _PC_NAME_MAX
fpathconf BADFD _PC_PATH_MAX
pathconf "" _PC_PATH_MAX
