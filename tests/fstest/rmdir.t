# rmdir(2) and unlinkat(AT_REMOVEDIR).
mkdir rmdir 0755
cd rmdir

mkdir d 0755
stat . nlink
rmdir d
stat . nlink
stat d type
rmdir d

mkdir d 0755
mkdir d/sub 0755
rmdir d
create d/f 0644
rmdir d/sub
rmdir d
unlink d/f
rmdir d

create f 0644
rmdir f
rmdir f/
symlink f slf
rmdir slf
mkdir d 0755
symlink d sld
rmdir sld
rmdir sld/
rmdir none
rmdir none/d
rmdir f/d
rmdir ""
rmdir NULL

# The special names.
rmdir d/.
rmdir d/..
rmdir .
rmdir ..
rmdir /
rmdir d/
stat d type

# The working directory can go; getcwd then fails.
mkdir w 0755 : chdir w : getcwd : rmdir ../w : getcwd
mkdir w 0755 : chdir w : rmdir ../w : create x 0644
mkdir w 0755 : chdir w : rmdir ../w : stat . type,nlink
mkdir w 0755 : chdir w : rmdir ../w : mkdir x 0755
mkdir w 0755 : chdir w : rmdir ../w : stat .. type
mkdir w 0755 : chdir w : rmdir ../w : open . O_RDONLY : getdents 0

# unlinkat with AT_REMOVEDIR.
mkdir d 0755
unlinkat AT_FDCWD d AT_REMOVEDIR
unlinkat AT_FDCWD f AT_REMOVEDIR
mkdir d 0755
unlinkat AT_FDCWD d 0
unlinkat AT_FDCWD d 0x100
open . O_RDONLY : unlinkat 0 d AT_REMOVEDIR
stat d type
unlinkat BADFD d AT_REMOVEDIR
