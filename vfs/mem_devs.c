// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The memory character devices of major 1: null (1,3), zero (1,5), full
 * (1,7), random (1,8) and urandom (1,9). Models drivers/char/mem.c and the
 * file side of drivers/char/random.c, for device nodes made with mknod:
 * chrdev_open() finds these by i_rdev, every other device number has no
 * driver (ENXIO).
 *
 * As in Linux, no read or write moves f_pos; lseek puts null, zero and
 * full back at 0 (null_lseek) and leaves random and urandom where they
 * are (noop_llseek); writing full is ENOSPC, even of 0 bytes.
 *
 * Deviations from Linux: random and urandom read a deterministic stream,
 * one per VFS instance (splitmix64 over an atomic counter), not the
 * kernel's CRNG, so a run can be repeated; writes to them mix nothing in.
 */
#include <sys/sysmacros.h>

#include "vfs/internal.h"

#define MEM_MAJOR 1

static long null_read(struct vfs *v, struct file *f, void *buf, size_t n, long long *pos)
{
	(void)v, (void)f, (void)buf, (void)n, (void)pos;
	return 0;
}

/* write_null(), and what random's writes amount to here. */
static long null_write(struct vfs *v, struct file *f, const void *buf, size_t n, long long *pos)
{
	(void)v, (void)f, (void)buf, (void)pos;
	return (long)n;
}

/* read_zero() / read_iter_zero(): zeros, the position left alone. */
static long zero_read(struct vfs *v, struct file *f, void *buf, size_t n, long long *pos)
{
	(void)v, (void)f, (void)pos;
	memset(buf, 0, n);
	return (long)n;
}

static long full_write(struct vfs *v, struct file *f, const void *buf, size_t n, long long *pos)
{
	(void)v, (void)f, (void)buf, (void)n, (void)pos;
	return -ENOSPC;
}

/* urandom_read_iter() / random_read_iter(): the instance's stream. */
static long random_read(struct vfs *v, struct file *f, void *buf, size_t n, long long *pos)
{
	unsigned char *p = buf;

	(void)f, (void)pos;
	for (size_t done = 0; done < n;) {
		/* splitmix64's state after the counter's next step. */
		uint64_t z =
			(uint64_t)atomic_long_inc_return(&v->mem_random) * 0x9e3779b97f4a7c15ull;
		size_t k = min_t(size_t, n - done, sizeof(z));

		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
		z ^= z >> 31;
		memcpy(p + done, &z, k);
		done += k;
	}
	return (long)n;
}

/* null_lseek() (zero_lseek, full_lseek): back to 0 whatever is asked. */
static long long null_lseek(struct vfs *v, struct file *f, long long offset, int whence)
{
	(void)offset, (void)whence;
	*file_pos(v, f) = 0;
	return 0;
}

/* noop_llseek(): where the file is, unchanged. */
static long long noop_llseek(struct vfs *v, struct file *f, long long offset, int whence)
{
	(void)offset, (void)whence;
	return *file_pos(v, f);
}

static const struct file_operations null_fops = {
	.read = null_read,
	.write = null_write,
	.llseek = null_lseek,
};

static const struct file_operations zero_fops = {
	.read = zero_read,
	.write = null_write,
	.llseek = null_lseek,
};

static const struct file_operations full_fops = {
	.read = zero_read,
	.write = full_write,
	.llseek = null_lseek,
};

static const struct file_operations random_fops = {
	.read = random_read,
	.write = null_write,
	.llseek = noop_llseek,
};

/* Models chrdev_open() + memory_open(): the driver of a char device, or NULL. */
const struct file_operations *chrdev_fops(dev_t rdev)
{
	if (major(rdev) != MEM_MAJOR)
		return NULL;
	switch (minor(rdev)) {
	case 3:
		return &null_fops;
	case 5:
		return &zero_fops;
	case 7:
		return &full_fops;
	case 8:
	case 9:
		return &random_fops;
	default:
		return NULL;
	}
}
