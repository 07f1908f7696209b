# Directory offsets and getdents order on tmpfs (Linux 6.14+): "." is 0,
# ".." 1, 2 the first name; each name gets the next offset of its
# directory, from 3; a listing follows the directory's list of names,
# newest first, and ends at 2147483647. getdents prints what it lists
# sorted, so which names a position lists shows the order.
mkdir dirseek 0755
cd dirseek

mkdir d 0755
# Empty: "." and "..", then the end.
open d O_RDONLY : getdents 0 : lseek 0 0 SEEK_CUR
open d O_RDONLY : getdents 0 24 : lseek 0 0 SEEK_CUR : getdents 0 1 : lseek 0 0 SEEK_CUR
create d/a 0644
create d/b 0644
create d/c 0644
# c is 5, b 4, a 3, listed c, b, a: a position lists its name and older ones.
open d O_RDONLY : getdents 0 : lseek 0 0 SEEK_CUR
open d O_RDONLY : lseek 0 2 SEEK_SET : getdents 0
open d O_RDONLY : lseek 0 3 SEEK_SET : getdents 0
open d O_RDONLY : lseek 0 4 SEEK_SET : getdents 0
open d O_RDONLY : lseek 0 5 SEEK_SET : getdents 0 : lseek 0 0 SEEK_CUR
# Past the newest: from the newest (the largest offset not above it).
open d O_RDONLY : lseek 0 6 SEEK_SET : getdents 0
open d O_RDONLY : lseek 0 2147483646 SEEK_SET : getdents 0
open d O_RDONLY : lseek 0 2147483648 SEEK_SET : getdents 0
open d O_RDONLY : lseek 0 0x7fffffffffffffff SEEK_SET : getdents 0
# The end: nothing, even with a buffer too small for a name.
open d O_RDONLY : lseek 0 2147483647 SEEK_SET : getdents 0 : getdents 0 1
# A small buffer: several calls, the same listing, then the end.
open d O_RDONLY : getdents 0 24 : lseek 0 0 SEEK_CUR
open d O_RDONLY : lseek 0 1 SEEK_SET : getdents 0 : lseek 0 0 SEEK_CUR

# lseek on a directory: SEEK_SET and SEEK_CUR, never negative.
open d O_RDONLY : lseek 0 0 SEEK_END
open d O_RDONLY : lseek 0 0 SEEK_DATA
open d O_RDONLY : lseek 0 0 SEEK_HOLE
open d O_RDONLY : lseek 0 -1 SEEK_SET
open d O_RDONLY : lseek 0 4 SEEK_SET : lseek 0 -1 SEEK_CUR : lseek 0 -4 SEEK_CUR
open d O_RDONLY : lseek 0 0x7fffffffffffffff SEEK_SET : lseek 0 1 SEEK_CUR
open d O_RDONLY : getdents 0 : lseek 0 0x7fffffff00000000 SEEK_CUR
open d O_RDONLY : getdents 0 : lseek 0 0x7fffffff80000001 SEEK_CUR

# A position whose name is gone resumes at the next older one; with none
# older, at the newest.
unlink d/b
open d O_RDONLY : lseek 0 4 SEEK_SET : getdents 0
unlink d/a
open d O_RDONLY : lseek 0 4 SEEK_SET : getdents 0
open d O_RDONLY : lseek 0 3 SEEK_SET : getdents 0
# Names made or removed during a listing: a new one is not listed.
create d/a 0644
create d/b 0644
open d O_RDONLY : lseek 0 6 SEEK_SET : create d/x 0644 : getdents 0
open d O_RDONLY : lseek 0 7 SEEK_SET : unlink d/b : getdents 0
unlink d/x

# rename: the name goes first; onto an existing name it takes that
# name's offset, else a new one. d holds a (6) and c (5), listed a, c.
rename d/c d/e
open d O_RDONLY : lseek 0 6 SEEK_SET : getdents 0
open d O_RDONLY : lseek 0 9 SEEK_SET : getdents 0
rename d/a d/e
open d O_RDONLY : lseek 0 9 SEEK_SET : getdents 0
create d/f 0644
create d/g 0644
rename d/f d/e
open d O_RDONLY : lseek 0 9 SEEK_SET : getdents 0
open d O_RDONLY : lseek 0 11 SEEK_SET : getdents 0
# RENAME_EXCHANGE: the names swap offsets; the renamed one goes first.
renameat2 AT_FDCWD d/e AT_FDCWD d/g RENAME_EXCHANGE
open d O_RDONLY : lseek 0 9 SEEK_SET : getdents 0
open d O_RDONLY : lseek 0 11 SEEK_SET : getdents 0
# RENAME_WHITEOUT: the renamed name first, then the whiteout (a new offset).
renameat2 AT_FDCWD d/g AT_FDCWD d/h RENAME_WHITEOUT
open d O_RDONLY : lseek 0 12 SEEK_SET : getdents 0
open d O_RDONLY : lseek 0 13 SEEK_SET : getdents 0
open d O_RDONLY : lseek 0 14 SEEK_SET : getdents 0
# Into another directory: a new offset there, at the head of its list.
mkdir s 0755
create s/z 0644
rename d/h s/h
open s O_RDONLY : lseek 0 3 SEEK_SET : getdents 0
open s O_RDONLY : lseek 0 4 SEEK_SET : getdents 0
open s O_RDONLY : getdents 0 : lseek 0 0 SEEK_CUR
link s/z s/y
open s O_RDONLY : lseek 0 4 SEEK_SET : getdents 0
open s O_RDONLY : lseek 0 5 SEEK_SET : getdents 0
