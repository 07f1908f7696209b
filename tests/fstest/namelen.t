# Name and path length limits: NAME_MAX (255) per component, PATH_MAX
# (4096, counting the NUL) per path.
mkdir namelen 0755
cd namelen

create {255*n} 0644
stat {255*n} type
create {256*n} 0644
open {256*n} O_CREAT,O_RDWR 0644
mkdir {255*d} 0755
mkdir {256*d} 0755
stat {256*n} type
unlink {256*n}
rmdir {256*d}
symlink x {255*s}
symlink x {256*s}
link {255*n} {255*l}
link {255*n} {256*l}
rename {255*n} {256*m}
rename {255*l} {255*m}
chmod {256*n} 0644
chown {256*n} 0 0
truncate {256*n} 0
mknod {256*f} f 0644 0 0
mkfifo {256*f} 0644
readlink {256*s}
# A long name on the way, not at the end.
stat {256*n}/x type
stat {255*d}/x type
unlink {255*m}
unlink {255*n}
unlink {255*s}

# PATH_MAX: 4095 bytes walk, 4096 do not even get looked up.
create x 0644
stat {2047*./}x type
stat {2048*./}x type
stat {2047*./}y type
stat {4086*/}namelen/x type
stat {4087*/}namelen/x type
open {2047*./}x O_RDONLY : fstat 0 type
open {2048*./}x O_RDONLY
create {2047*./}y 0644
stat y type
mkdir {2048*./}z 0755
# A component longer than NAME_MAX fails before a missing parent does.
stat missing/{256*n} type
stat {256*n}/missing type

# A deep tree: each cd is relative, so every walk stays short.
mkdir {200*a} 0755
cd {200*a}
mkdir {200*a} 0755
cd {200*a}
mkdir {200*a} 0755
cd {200*a}
mkdir {200*a} 0755
cd {200*a}
mkdir {200*a} 0755
cd {200*a}
mkdir {200*a} 0755
cd {200*a}
mkdir {200*a} 0755
cd {200*a}
mkdir {200*a} 0755
cd {200*a}
mkdir {200*a} 0755
cd {200*a}
mkdir {200*a} 0755
cd {200*a}
mkdir {200*a} 0755
cd {200*a}
mkdir {200*a} 0755
cd {200*a}
mkdir {200*a} 0755
cd {200*a}
mkdir {200*a} 0755
cd {200*a}
mkdir {200*a} 0755
cd {200*a}
mkdir {200*a} 0755
cd {200*a}
mkdir {200*a} 0755
cd {200*a}
mkdir {200*a} 0755
cd {200*a}
mkdir {200*a} 0755
cd {200*a}
mkdir {200*a} 0755
cd {200*a}
# 20 levels of 201 bytes: relative names still work.
create f 0644
stat f type
stat ../{200*a}/f type
getcwd 100
mkdir {200*a} 0755
cd {200*a}
# 21 levels: the path is longer than a page, too long for getcwd.
getcwd
getcwd 8192
stat ../../{200*a}/{200*a}/../f type
cd /namelen
getcwd
