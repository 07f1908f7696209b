# link(2) and linkat(2).
mkdir link 0755
cd link

create f 0644
stat f nlink
link f g
stat f type,mode,nlink
stat g type,mode,nlink
chmod g 0600
stat f mode
unlink f
stat g nlink
link g f

# Every non-directory can be linked; directories cannot.
mkfifo fifo 0644
link fifo fifo2
stat fifo nlink
mknod chr c 0644 1 3
link chr chr2
stat chr2 type,major,minor,nlink
mkdir d 0755
link d d2
link . d2
link .. d2
stat d nlink

# The new name must not exist.
link f g
link f d
link f fifo
symlink none dangling
link f dangling
link f f

# Missing old names and new parents, trailing slashes.
link none x
link f none/x
link f f/x
link f/ x
link f x/
link d/ x
link "" x
link f ""
link NULL x
link f NULL
stat x type

# link never follows a symlink; linkat does with AT_SYMLINK_FOLLOW.
symlink f sl
link sl sl2
lstat sl2 type,nlink
stat f nlink
linkat AT_FDCWD sl AT_FDCWD sl3 AT_SYMLINK_FOLLOW
lstat sl3 type
stat f nlink
linkat AT_FDCWD sl AT_FDCWD sl4 0
lstat sl4 type
linkat AT_FDCWD dangling AT_FDCWD x AT_SYMLINK_FOLLOW
linkat AT_FDCWD dangling AT_FDCWD x 0
lstat x type
unlink x

# Directory descriptors, bad flags, AT_EMPTY_PATH (root may link any fd).
open d O_RDONLY : linkat AT_FDCWD f 0 inside 0
stat d/inside nlink
open d O_RDONLY : linkat 0 inside 0 inside2 0
stat d/inside2 nlink
linkat AT_FDCWD f AT_FDCWD y 0x200
linkat BADFD f AT_FDCWD y 0
linkat AT_FDCWD f BADFD y 0
open f O_RDONLY : linkat 0 "" AT_FDCWD byfd AT_EMPTY_PATH
stat byfd nlink
open f O_RDONLY : linkat 0 "" AT_FDCWD byfd3 0
open . O_TMPFILE,O_RDWR 0640 : write 0 tmp : linkat 0 "" AT_FDCWD fromtmp AT_EMPTY_PATH
stat fromtmp nlink,size,mode
open d O_RDONLY : linkat 0 "" AT_FDCWD dirlink AT_EMPTY_PATH
