# renameat2(2) flags (a vfslab extension): RENAME_NOREPLACE,
# RENAME_EXCHANGE and what they refuse.
mkdir renameat2 0755
cd renameat2

create a 0644
create b 0600
renameat2 AT_FDCWD a AT_FDCWD b RENAME_NOREPLACE
stat a mode
renameat2 AT_FDCWD a AT_FDCWD c RENAME_NOREPLACE
stat a type
stat c mode
renameat2 AT_FDCWD c AT_FDCWD c RENAME_NOREPLACE
renameat2 AT_FDCWD none AT_FDCWD x RENAME_NOREPLACE
mkdir d 0755
renameat2 AT_FDCWD c AT_FDCWD d RENAME_NOREPLACE
symlink none dangling
renameat2 AT_FDCWD c AT_FDCWD dangling RENAME_NOREPLACE

# Exchange swaps two names, even a file and a directory.
renameat2 AT_FDCWD b AT_FDCWD c RENAME_EXCHANGE
stat b mode
stat c mode
renameat2 AT_FDCWD b AT_FDCWD d RENAME_EXCHANGE
stat b type
stat d type,mode
renameat2 AT_FDCWD b AT_FDCWD d RENAME_EXCHANGE
# Both must exist.
renameat2 AT_FDCWD b AT_FDCWD none RENAME_EXCHANGE
renameat2 AT_FDCWD none AT_FDCWD b RENAME_EXCHANGE
# Link counts follow directories across parents.
mkdir p1 0755
mkdir p1/sub 0755
mkdir p2 0755
create p2/f 0644
stat p1 nlink
stat p2 nlink
renameat2 AT_FDCWD p1/sub AT_FDCWD p2/f RENAME_EXCHANGE
stat p1 nlink
stat p2 nlink
stat p1/sub type
stat p2/f type
# A directory cannot be exchanged with its own descendant.
mkdir p1/sub2 0755
renameat2 AT_FDCWD p1 AT_FDCWD p1/sub2 RENAME_EXCHANGE
renameat2 AT_FDCWD p1/sub2 AT_FDCWD p1 RENAME_EXCHANGE
renameat2 AT_FDCWD b AT_FDCWD b RENAME_EXCHANGE
renameat2 AT_FDCWD . AT_FDCWD b RENAME_EXCHANGE

# Flags that do not go together, and unknown flags.
renameat2 AT_FDCWD b AT_FDCWD c RENAME_NOREPLACE,RENAME_EXCHANGE
renameat2 AT_FDCWD b AT_FDCWD c RENAME_EXCHANGE,RENAME_WHITEOUT
renameat2 AT_FDCWD b AT_FDCWD c 8
renameat2 AT_FDCWD b AT_FDCWD c 0
stat c mode
renameat2 BADFD b AT_FDCWD c RENAME_NOREPLACE

# RENAME_WHITEOUT leaves a whiteout (char device 0:0, mode 0) behind;
# tmpfs has them, and since Linux 5.8 anyone may make one.
renameat2 AT_FDCWD c AT_FDCWD w RENAME_WHITEOUT
lstat c type,major,minor,mode
stat w type
chmod . 0777
-u 65534 -g 65534 create u 0644
-u 65534 -g 65534 renameat2 AT_FDCWD u AT_FDCWD u2 RENAME_WHITEOUT
stat u type
