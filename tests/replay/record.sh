#!/bin/bash
# SPDX-License-Identifier: LGPL-2.1-or-later
#
# How the logs in this directory were recorded (Debian 12, strace 6.1, as
# root, in a tmpfs scratch directory). Re-run to record them again:
#
#   bash tests/replay/record.sh [NAME...]
#
# Each program runs in /dev/shm/rp (removed and made again first) with
# only fds 0, 1 and 2 open, so the logs' fd numbers are the program's own.
# The .exp files are what `vfslab replay --check` printed for these logs:
# regenerate them with tests/replay.sh after recording (REPLAY_REGEN=1).
set -e
here=$(cd "$(dirname "$0")" && pwd)
scratch=/dev/shm/rp
# -e trace: file and descriptor calls, sockets (they take fd numbers),
# and process calls (clone, execve, exit) to follow pids.
trace='%file,%desc,%network,%process'

record() {
	name=$1
	shift
	rm -rf "$scratch"
	mkdir -p "$scratch"
	cd "$scratch"
	setup_$name
	# close what this shell inherited past stderr (bash: fds above 9)
	for fd in $(ls /proc/$BASHPID/fd); do
		if [ "$fd" -gt 2 ]; then eval "exec $fd>&-" 2>/dev/null || true; fi
	done
	"$@" </dev/null >/dev/null 2>&1 || true
	cd /
	rm -rf "$scratch"
	echo "recorded $name.log: $(wc -l <"$here/$name.log") lines"
}

# The issue's example: a shell making, writing, listing, moving, removing.
setup_sh() { :; }
run_sh() {
	record sh strace -f -tt -T -s 64 -o "$here/sh.log" -e trace=$trace \
		sh -c 'mkdir -p d/e; echo hi > d/e/f; cat d/e/f; ls -la d; mv d/e/f d/g; rm -r d'
}

# tar: archive a small tree with a symlink, extract it elsewhere (-y: the
# cwd comes from the decorations).
setup_tar() {
	mkdir -p src/a/b src/c
	printf 'hello\n' >src/a/one.txt
	head -c 5000 /dev/zero | tr '\0' x >src/a/b/two.dat
	printf '#!/bin/sh\n' >src/c/run.sh
	chmod 755 src/c/run.sh
	ln -s ../a/one.txt src/c/link
}
run_tar() {
	record tar strace -f -y -s 64 -o "$here/tar.log" -e trace=$trace \
		sh -c 'tar cf a.tar src && mkdir out && tar xf a.tar -C out && cat out/src/a/one.txt'
}

# cp -r and ls -R, strace writing "[pid N]" prefixes to stderr (no -o).
setup_cp() { setup_tar; }
run_cp() {
	record cp sh -c "strace -f -s 64 -e trace=$trace sh -c 'cp -r src dst && ls -R dst && rm -rf src' 2>'$here/cp.log'"
}

# find with tests that stat every entry, then a removal with -delete.
setup_find() { setup_tar; touch -d '2000-01-01' src/a/one.txt; }
run_find() {
	record find strace -f -s 64 -o "$here/find.log" -e trace=$trace \
		sh -c 'find src -type f -newer src/c/run.sh -o -name "*.sh" -print; find src/a -name "*.dat" -delete'
}

# git init and add: lockfiles, renames, an object store, config writes.
setup_git() { printf 'one\n' >f; mkdir d; printf 'two\n' >d/g; }
run_git() {
	record git strace -f -y -s 64 -o "$here/git.log" -e trace=$trace \
		sh -c 'git init -q . && git add f d && git status --porcelain'
}

# Errors and corners: EEXIST, ENOTEMPTY, EISDIR, ELOOP, ENOTDIR, EINVAL,
# hard links, rename into and over, O_APPEND, truncate, chmod, readlink.
setup_edge() {
	mkdir -p a/b full
	printf 'data\n' >a/f
	ln -s f a/l
	ln -s loop1 a/loop2
	ln -s loop2 a/loop1
	touch full/x
}
run_edge() {
	record edge strace -f -s 32 -o "$here/edge.log" -e trace=$trace sh -c '
		mkdir a; rmdir full; cat a; cat a/loop1; cat a/f/x
		ln a/f a/hard; mv a/f a/b/; mv -T a/b a/hard
		echo more >>a/hard; truncate -s 100 a/hard; truncate -s 2 a/hard
		chmod 600 a/hard; readlink a/l; readlink a/hard
		rm -rf a full'
}

# cp -a (utimensat, fchownat, ACL xattrs for the modes, symlinks, hard
# links), dd (lseek, ftruncate), find -delete.
setup_cpa() { setup_edge; ln a/f a/hard; touch -d 2001-01-01 a/hard; rm -r full; }
run_cpa() {
	record cpa strace -f -s 32 -o "$here/cpa.log" -e trace=$trace sh -c '
		cp -a a c; dd if=/dev/zero of=c/z bs=1k count=3 seek=2
		find c -type l -delete; rm -rf a c'
}

# Assorted coreutils: mktemp -d, install -D, ln -sf, mv -b, sort -o,
# split, cat (copy_file_range), cmp, chmod -R, touch -c, zstd -T2 (threads).
setup_misc() { head -c 20000 /etc/services >f; }
run_misc() {
	record misc strace -f -s 16 -o "$here/misc.log" -e trace=$trace sh -c '
		d=$(mktemp -d ./tmp.XXXXXX); install -D -m 644 f $d/e/f
		ln -sf f l; ln -sf f l; mv -b l f2; sort -o s f; split -b 7k s part.
		cat part.* >joined; cmp joined s; chmod -R go-r $d; touch -c missing
		zstd -q -T2 -f joined -o j.zst; zstd -q -d -f j.zst -o j2
		rm -rf $d part.* s l* f2* j*'
}

# A listing longer than one getdents64 buffer: 300 short names, then 400
# long ones (88-byte records), then ls -f. Where the first 32 KiB end
# depends on the order the directory lists them in.
setup_readdir() { :; }
run_readdir() {
	record readdir strace -f -s 16 -o "$here/readdir.log" -e trace=$trace sh -c '
		mkdir big && cd big && mkdir $(seq -f "s%g" 300) &&
		mkdir $(seq -f "a-long-directory-name-to-make-records-of-eighty-eight-bytes-%04g" 400) &&
		ls -f >/dev/null'
}

# Threads: python's threading (clone3 with CLONE_FILES|CLONE_THREAD), each
# making, writing, renaming and stat()ing its own files.
setup_threads() { :; }
run_threads() {
	record threads strace -f -y -s 32 -o "$here/threads.log" -e trace=$trace \
		/usr/bin/python3 -S -c '
import threading, os
def w(i):
    os.makedirs("t%d/x" % i, exist_ok=True)
    fd = os.open("t%d/x/f" % i, os.O_CREAT | os.O_WRONLY, 0o644)
    os.write(fd, b"abc" * i)
    os.close(fd)
    os.rename("t%d/x/f" % i, "t%d/g" % i)
    print(os.stat("t%d/g" % i).st_size)
ts = [threading.Thread(target=w, args=(i,)) for i in range(3)]
[t.start() for t in ts]
[t.join() for t in ts]'
}

if [ $# -eq 0 ]; then
	set -- sh tar cp find git edge cpa misc readdir threads
fi
for n in "$@"; do
	run_$n
done
