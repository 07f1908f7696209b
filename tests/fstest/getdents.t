# getdents64 (a vfslab extension): prints every entry as NAME:TYPE,
# sorted by name, "." and ".." included; an optional buffer size makes
# the listing take several calls.
mkdir getdents 0755
cd getdents

mkdir d 0755
open d O_RDONLY : getdents 0
open d O_RDONLY,O_DIRECTORY : getdents 0 : getdents 0
create d/f 0644
mkdir d/sub 0755
symlink f d/sl
mkfifo d/p 0644
mknod d/c c 0644 1 2
mknod d/b b 0644 1 2
mknod d/s s 0644 0 0
link d/f d/hard
open d O_RDONLY : getdents 0
# Small buffers: more calls, the same listing; too small for one entry
# is EINVAL.
open d O_RDONLY : getdents 0 24
open d O_RDONLY : getdents 0 32
open d O_RDONLY : getdents 0 23
open d O_RDONLY : getdents 0 0
open d O_RDONLY : getdents 0 1048576
# Changes show up in a new listing.
unlink d/hard
rename d/sl d/sl2
rmdir d/sub
open d O_RDONLY : getdents 0
# Names are bytes, escaped when printed.
create "d/tab\tname" 0644
create d/{255*x} 0644
open d O_RDONLY : getdents 0
unlink "d/tab\tname"
unlink d/{255*x}

# Only directories opened for reading can be listed.
open d/f O_RDONLY : getdents 0
open d O_PATH : getdents 0
getdents BADFD
open d/p O_RDONLY,O_NONBLOCK : getdents 0
# A removed directory cannot be listed any more.
mkdir gone 0755
open gone O_RDONLY : rmdir gone : getdents 0
# The permission that counts is the open's.
chmod d 0711
-u 65534 -g 65534 open d O_RDONLY
chmod d 0755
-u 65534 -g 65534 open d O_RDONLY : getdents 0
