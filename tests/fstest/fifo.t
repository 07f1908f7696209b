# Fifos as Linux's (fs/pipe.c): opens that wait for the other side, reads
# and writes that wait, O_NONBLOCK's answers, EOF, EPIPE, PIPE_BUF.  A
# line that blocks runs in the background (&) and the next line unblocks
# it; `wait` prints the background lines' output.
mkdir fifo 0755
cd fifo
mkfifo f 0644

# O_NONBLOCK: a reader opens at once, a writer without a reader is ENXIO.
open f O_RDONLY,O_NONBLOCK : fcntl 0 F_GETFL
open f O_WRONLY,O_NONBLOCK
open f O_RDONLY,O_NONBLOCK : open f O_WRONLY,O_NONBLOCK : write 1 abc : read 0 10
# O_RDWR never waits: it is both ends.
open f O_RDWR : write 0 hello : read 0 2 : read 0 10
# Empty with a writer: EAGAIN; empty without one: EOF.
open f O_RDWR,O_NONBLOCK : read 0 1
open f O_RDONLY,O_NONBLOCK : read 0 1
# The last close forgets what was not read.
open f O_RDWR : write 0 lost
open f O_RDWR,O_NONBLOCK : read 0 10

# A reader waits for a writer to open, then for data.
open f O_RDONLY : read 0 10 &
open f O_WRONLY : write 0 ping
wait
# A writer waits for a reader.
open f O_WRONLY : write 0 pong &
open f O_RDONLY : read 0 10
wait
# A read waits for data, and sees EOF once the last writer is gone.
open f O_RDONLY : read 0 10 : read 0 10 &
open f O_WRONLY : write 0 once
wait
# A blocked read ends with EOF when the writers leave without writing.
open f O_RDONLY : read 0 10 &
open f O_WRONLY
wait

# No reader: EPIPE (and SIGPIPE, which fstest ignores).
open f O_RDWR : open f O_WRONLY : close 0 : write 1 x
open f O_RDWR : open f O_RDONLY : close 0 : read 1 5

# Sixteen pages: full.  A write of at most PIPE_BUF bytes is not split:
# 4096 bytes do not fit beside the last 2048, nor in a free buffer.
open f O_RDWR,O_NONBLOCK  : write 0 {4096*a} : write 0 {4096*a} : write 0 {4096*a} : write 0 {4096*a} : write 0 {4096*a} : write 0 {4096*a} : write 0 {4096*a} : write 0 {4096*a} : write 0 {4096*a} : write 0 {4096*a} : write 0 {4096*a} : write 0 {4096*a} : write 0 {4096*a} : write 0 {4096*a} : write 0 {4096*a} : write 0 {2048*b} : write 0 {4096*c} : write 0 {2048*d} : write 0 e : read 0 1 : write 0 f
# A writer blocked on a full fifo goes on once a reader takes a buffer
# (whichever comes first, the reader takes the first 4096 bytes).
open f O_RDWR  : write 0 {4096*a} : write 0 {4096*a} : write 0 {4096*a} : write 0 {4096*a} : write 0 {4096*a} : write 0 {4096*a} : write 0 {4096*a} : write 0 {4096*a} : write 0 {4096*a} : write 0 {4096*a} : write 0 {4096*a} : write 0 {4096*a} : write 0 {4096*a} : write 0 {4096*a} : write 0 {4096*a} : write 0 {4096*b} : write 0 blocked : fcntl 0 F_SETFL O_NONBLOCK : read 0 3 &
open f O_RDONLY : read 0 4096
wait

# An open that nobody unblocks is killed at the end, printing nothing.
mkfifo g 0644
open g O_RDONLY &
stat g type
