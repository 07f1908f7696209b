# O_CREAT|O_EXCL and create (pjdfstest's open(O_CREAT|O_EXCL) + close):
# whatever exists under the name, including a dangling symlink, is EEXIST.
mkdir creat_excl 0755
cd creat_excl

create f 0644
stat f type,mode,nlink,uid,gid,size
create f 0644
open f O_CREAT,O_EXCL,O_RDWR 0644
# Without O_CREAT, O_EXCL means nothing for a regular file.
open f O_EXCL,O_RDONLY : fstat 0 type
open f O_CREAT,O_RDWR 0600 : fstat 0 mode
mkdir d 0755
create d 0644
open d O_CREAT,O_EXCL,O_RDONLY 0644
symlink f sl
create sl 0644
symlink tgt dangling
create dangling 0644
open dangling O_CREAT,O_EXCL,O_WRONLY 0644
lstat tgt type
# O_CREAT without O_EXCL follows the dangling link and creates its target.
open dangling O_CREAT,O_WRONLY 0640
lstat tgt type,mode
lstat dangling type
mkfifo fifo 0644
create fifo 0644
mknod chr c 0644 1 3
create chr 0644

# The mode argument is a number; set-id and sticky bits are kept.
create m1 04755
create m2 02755
create m3 01755
create m4 0
stat m1 mode
stat m2 mode
stat m3 mode
stat m4 mode
-U 0777 create m5 0777
stat m5 mode

# create in a directory that is not there, or is not a directory.
create none/f 0644
create f/x 0644
create dangling/x 0644
symlink missing dangling2
create dangling2/x 0644
create "" 0644
create NULL 0644

# O_EXCL with O_CREAT on a trailing slash.
create new/ 0644
open new/ O_CREAT,O_EXCL,O_WRONLY 0644
open d/ O_CREAT,O_EXCL,O_WRONLY 0644
stat new type
