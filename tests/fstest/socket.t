# AF_UNIX sockets in the namespace, pjdfstest's bind and connect: a new
# stream socket, then bind(2) (an S_IFSOCK inode, 0777 less the umask)
# or connect(2) to the path cut to sun_path's 107 bytes.  Nothing here
# listens: connect resolves the path, checks write permission, and is
# refused.
mkdir socket 0755
cd socket
bind s
stat s type,mode,nlink,size
bind s
connect s
connect nope
mkdir d 0755
bind d
bind d/
create f 0644
bind f/x
connect f
connect f/x
mkfifo p 0644
connect p
bind nodir/x
symlink loop1 loop2
symlink loop2 loop1
bind loop1/x
bind loop1
connect loop1
symlink dangle sl
bind sl
-U 022 bind um
stat um mode
-U 0777 bind um2
stat um2 mode
# sun_path holds 107 bytes: a longer name is cut, never ENAMETOOLONG.
bind d/{256*y}
stat d/{105*y} type
connect {256*y}
# An empty sun_path is the abstract namespace: nothing in the tree.
bind ""
connect ""
# A socket inode does not open, and is not a file to truncate.
open s O_RDONLY
open s O_RDWR
truncate s 0
link s s2
stat s2 type,nlink
rename s2 s3
unlink s3
# Write permission on the socket, search on the way.
-u 65534 -g 65534 bind d/s2
-u 65534 -g 65534 connect s
chmod s 0755
-u 65534 -g 65534 connect s
-u 65534 -g 65534 connect f
chmod d 0700
bind d/s3
-u 65534 -g 65534 connect d/s3
chmod d 0755
chmod d/s3 0777
-u 65534 -g 65534 connect d/s3
unlink s
connect s
bind d/../s4
stat s4 type
