# O_CREAT of an existing name in a sticky directory (may_create_in_sticky):
# for a regular file or a fifo the answer depends on fs.protected_regular
# and protected_fifos, so none is opened here; every other type that
# neither the opener nor the directory's owner owns is refused in a
# world-writable one, root included, whatever the sysctls.
# needs: dev
mkdir sticky 0755
cd sticky
mkdir t 0755
chmod t 01777
mknod t/null c 0666 1 3
chown t/null 65534 65534
mknod t/sock s 0666 0 0
chown t/sock 65534 65534
symlink null t/link
lchown t/link 65534 65534
open t/null O_WRONLY,O_CREAT 0644
open t/null O_WRONLY
open t/sock O_WRONLY,O_CREAT 0644
open t/sock O_WRONLY
open t/link O_WRONLY,O_CREAT,O_NOFOLLOW 0644
open t/link O_WRONLY,O_NOFOLLOW
# Followed, the link leads to the device, checked in turn.
open t/link O_WRONLY,O_CREAT 0644
# The owner may; so may anyone where the directory's owner owns it.
-u 65534 -g 65534 open t/null O_WRONLY,O_CREAT 0644
chown t/null 0 0
open t/null O_WRONLY,O_CREAT 0644
# Not world-writable, or not sticky: no check.
chown t/null 65534 65534
chmod t 01775
open t/null O_WRONLY,O_CREAT 0644
chmod t 0777
open t/null O_WRONLY,O_CREAT 0644
