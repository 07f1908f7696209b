# rename(2) and renameat(2): what replaces what, link counts, loops,
# busy names.
mkdir rename 0755
cd rename

# Files.
create a 0644
rename a b
stat a type
stat b type,nlink
create c 0600
link b b2
rename c b
stat b mode,nlink
stat b2 nlink
# Two names of one inode: a no-op that leaves both.
link b b3
rename b b3
stat b nlink
stat b3 nlink
rename b b
stat b mode
unlink b
unlink b2
unlink b3

# Directories: link counts of the parents.
mkdir d1 0755
mkdir d2 0755
mkdir d1/sub 0755
stat d1 nlink
stat d2 nlink
rename d1/sub d2/sub
stat d1 nlink
stat d2 nlink
stat d2/sub type
# Over an empty directory: fine; over a full one: ENOTEMPTY.
mkdir d1/e 0755
rename d2/sub d1/e
stat d1/e type
stat d2/sub type
mkdir d2/full 0755
create d2/full/f 0644
mkdir d1/x 0755
rename d1/x d2/full
rename d1/x d1/x
stat d1/x type

# Type mismatches.
create f 0644
mkdir d 0755
rename f d
rename d f
rename f d/
rename d f/
symlink d sld
rename sld d
rename d sld
lstat sld type
lstat f type

# A directory cannot move below itself.
mkdir top 0755
mkdir top/mid 0755
mkdir top/mid/low 0755
rename top top/mid/low/x
rename top top/x
rename top/mid top/mid/low/x
rename top/mid/low top
rename top/mid/low top/low
stat top/low type

# Dots and the root.
rename . x
rename .. x
rename d/. x
rename d/.. x
rename / x
rename x .
rename f .
rename f ..
rename f /
create g 0644
rename g d/.
rename d/.. g
stat g type

# Missing names and bad pointers.
rename none x
rename none/x y
rename f none/x
rename f f/x
rename "" x
rename f ""
rename NULL x
rename f NULL
rename f DEADCODE
stat f type

# Symlinks are renamed themselves, never followed.
symlink none dangling
rename dangling dang2
lstat dang2 type
readlink dang2

# renameat with descriptors, AT_FDCWD and BADFD.
open d O_RDONLY : open d1 O_RDONLY : renameat AT_FDCWD f 0 f : renameat 0 f 1 f
stat d1/f type
renameat AT_FDCWD d1/f AT_FDCWD f
renameat BADFD f AT_FDCWD g
renameat AT_FDCWD f BADFD g
open f O_RDONLY : renameat 0 x AT_FDCWD y
