# ".", "..", repeated and trailing slashes, the root, empty paths.
mkdir dots 0755
cd dots
mkdir d 0755
mkdir d/sub 0755
create f 0644

stat . type
stat .. type
stat ./. type
stat d/. type
stat d/.. type
stat d/sub/../.. type
stat d/./sub/./. type
stat d//sub type
stat d///sub// type
stat .//d type
stat ./f type
stat f/. type
stat f/.. type
stat f/ type
stat f// type
stat d/ type
stat d/sub/ type
stat d/../f type
stat d/sub/../../f type
stat none/.. type
stat "" type
stat . nlink
stat d nlink

# The root, however it is spelled; ".." of the root is the root.
stat / type
stat // type
stat /// type
stat /. type
stat /.. type
stat /../.. type
stat /dots/f type
stat //dots//f type
stat /../dots/./f type
chdir / : chdir .. : getcwd
chdir /dots/d/sub : chdir ../.. : getcwd
chdir d : chdir sub : chdir ../. : getcwd
chdir //dots//d// : getcwd

# Empty paths: ENOENT unless AT_EMPTY_PATH asks for the descriptor.
open "" O_RDONLY
fstatat AT_FDCWD "" 0 type
fstatat AT_FDCWD "" AT_EMPTY_PATH type
open f O_RDONLY : fstatat 0 "" AT_EMPTY_PATH type,mode
open f O_RDONLY : fstatat 0 "" 0 type
open d O_RDONLY : fstatat 0 . 0 type,nlink
open d O_RDONLY : fstatat 0 .. 0 type
open d O_RDONLY : fstatat 0 sub/.. 0 nlink
fstatat BADFD "" AT_EMPTY_PATH type
fstatat BADFD f 0 type
fstatat BADFD /dots/f 0 type
fstatat AT_FDCWD f 0x2 type
chdir ""
chdir NULL
mkdir "" 0755
rmdir ""
unlink ""
symlink x ""
link f ""
rename "" f
chmod "" 0644
chown "" 0 0
truncate "" 0
access "" F_OK
readlink ""

# Creating with a trailing slash: only directories may.
create new/ 0644
open new/ O_CREAT,O_WRONLY 0644
mkfifo fifo/ 0644
mknod n/ f 0644 0 0
symlink f sl/
link f l/
mkdir newdir/ 0755
stat newdir type
rename f f2/
rename newdir newdir2/
stat newdir2 type
rename d/sub/ d/sub2
stat d/sub2 type
rename d/sub2/ d/sub/
stat d/sub type

# "." and ".." as the last component.
mkdir . 0755
mkdir d/.. 0755
create . 0644
open . O_CREAT,O_RDONLY 0644
open .. O_RDONLY,O_DIRECTORY : fstat 0 type
open . O_WRONLY
link f .
link f d/..
symlink x .
mkfifo . 0644
