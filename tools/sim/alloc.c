// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The simulated code's heap: size classes carved from 64 KiB chunks of one
 * region mapped at a fixed address, like a slab allocator (objects of one
 * size share chunks). Addresses decide which objects share a cache line and
 * the parent-salted dentry hash, so they must not depend on ASLR or on what
 * the host process allocated before: the region is reset before every run
 * and allocation order is the simulation's own.
 *
 * Outside a run (arena inactive) the hooks fall through to the C library.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "lib/compiler.h"
#include "lib/arch_libc.h"
#include "tools/sim/sim.h"

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif

#define CHUNK_SHIFT 16
#define CHUNK_SIZE (1ul << CHUNK_SHIFT)
#define REGION_SIZE (64ul << 30)
#define NR_CHUNKS (REGION_SIZE >> CHUNK_SHIFT)
#define MAX_TAGS 256

static const uint32_t class_size[] = {
	16,   32,   48,	  64,	80,   96,   112,  128,	 160,	192,  224,
	256,  320,  384,  448,	512,  640,  768,  896,	 1024,	1280, 1536,
	1792, 2048, 2560, 3072, 3584, 4096, 8192, 16384, 32768,
};
#define NR_CLASSES ARRAY_SIZE(class_size)
#define CLASS_BIG 0xffff

struct slot_meta {
	uint32_t seq;
	uint16_t tag;
	uint16_t live;
};

struct chunk {
	uint16_t cls; /* class index, CLASS_BIG, or 0 with !used */
	uint16_t used;
	uint32_t head; /* first chunk of a big block */
	uint32_t nchunks; /* big block length (on its head) */
	struct slot_meta *meta;
};

struct freelist {
	void **v;
	size_t n, cap;
};

static struct {
	char *base;
	bool ready, active, fixed;
	size_t next_chunk; /* bump, in chunks */
	size_t high; /* chunks ever used since the last reset */
	struct chunk *chunks;
	struct {
		size_t chunk; /* the chunk being carved, or SIZE_MAX */
		uint32_t next; /* its next slot */
		struct freelist free;
	} cls[NR_CLASSES];
	struct freelist big_free; /* heads of freed big blocks */
	uint32_t seq;
	uint64_t place; /* 0: every class starts at its first slot */
	const char *tags[MAX_TAGS];
	unsigned int nr_tags;
} A;

static const uintptr_t fixed_bases[] = { 0x200000000000ul, 0x300000000000ul, 0x3f0000000000ul };

int sim_arena_init(void)
{
	if (A.ready)
		return 0;
	for (size_t i = 0; i < ARRAY_SIZE(fixed_bases) && !A.base; i++) {
		void *p = mmap((void *)fixed_bases[i], REGION_SIZE, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE,
			       -1, 0);

		if (p == MAP_FAILED)
			continue;
		if (p != (void *)fixed_bases[i]) {
			munmap(p, REGION_SIZE); /* an old kernel ignored the flag */
			continue;
		}
		A.base = p;
		A.fixed = true;
	}
	if (!A.base) {
		void *p = mmap(NULL, REGION_SIZE, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

		if (p == MAP_FAILED)
			return -1;
		A.base = p;
		fprintf(stderr, "vfslab sim: no fixed address for the heap; results may vary "
				"from run to run\n");
	}
	A.chunks = mmap(NULL, NR_CHUNKS * sizeof(*A.chunks), PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (A.chunks == MAP_FAILED)
		return -1;
	A.tags[A.nr_tags++] = "";
	A.ready = true;
	sim_arena_reset();
	return 0;
}

void sim_arena_reset(void)
{
	for (size_t i = 0; i < A.high; i++)
		free(A.chunks[i].meta);
	if (A.high) {
		/* Fresh zero pages: no run sees what the previous one left. */
		madvise(A.base, A.high << CHUNK_SHIFT, MADV_DONTNEED);
		memset(A.chunks, 0, A.high * sizeof(*A.chunks));
	}
	for (size_t c = 0; c < NR_CLASSES; c++) {
		free(A.cls[c].free.v);
		memset(&A.cls[c], 0, sizeof(A.cls[c]));
		A.cls[c].chunk = SIZE_MAX;
	}
	free(A.big_free.v);
	memset(&A.big_free, 0, sizeof(A.big_free));
	A.next_chunk = 0;
	A.high = 0;
	A.seq = 0;
	A.place = 0;
}

/*
 * Where each size class's first object lies: a slab cache's objects sit at
 * fixed offsets in their slab (SLUB has no colouring), so which of them a
 * benchmark's file gets, and with it where the object's fields fall against
 * the cache lines, depends on how many the cache handed out before (G4 in
 * the simulator notes: +4% in one run, +16% in another, put down to where
 * the inode happened to lie). A run with @seed other than 0 starts each class
 * some slots in, drawn from the seed; eight cover every phase a slot whose
 * size is a multiple of 16 can take against lines of up to 128 bytes.
 */
void sim_arena_place(uint64_t seed)
{
	A.place = seed;
}

static uint32_t first_slot(size_t k, uint32_t nslots)
{
	uint64_t h = sim_mix64(A.place * 0x9e3779b97f4a7c15ull ^ (k + 1) * 0xd1b54a32d192ed03ull);

	if (!A.place)
		return 0;
	return (uint32_t)(h % (nslots < 8 ? nslots : 8));
}

void sim_arena_set_active(bool on)
{
	A.active = on;
}

bool sim_arena_contains(const void *p)
{
	return A.base && (uintptr_t)p - (uintptr_t)A.base < REGION_SIZE;
}

static void push(struct freelist *f, void *p)
{
	if (f->n == f->cap) {
		f->cap = f->cap ? 2 * f->cap : 64;
		f->v = realloc(f->v, f->cap * sizeof(*f->v));
		if (!f->v)
			abort();
	}
	f->v[f->n++] = p;
}

static size_t new_chunks(size_t n)
{
	size_t c = A.next_chunk;

	if (c + n > NR_CHUNKS) {
		fprintf(stderr, "vfslab sim: the simulated heap (%lu GiB) is full\n",
			REGION_SIZE >> 30);
		abort();
	}
	A.next_chunk += n;
	if (A.next_chunk > A.high)
		A.high = A.next_chunk;
	return c;
}

static struct slot_meta *meta_of(size_t chunk, uint32_t slot)
{
	struct chunk *ch = &A.chunks[chunk];

	if (!ch->meta) {
		uint32_t n = ch->cls == CLASS_BIG ? 1 : CHUNK_SIZE / class_size[ch->cls];

		ch->meta = calloc(n, sizeof(*ch->meta));
		if (!ch->meta)
			abort();
	}
	return &ch->meta[slot];
}

static void *big_alloc(size_t size, size_t align)
{
	size_t n = (size + CHUNK_SIZE - 1) >> CHUNK_SHIFT, c;

	for (size_t i = A.big_free.n; i-- > 0;) {
		c = ((char *)A.big_free.v[i] - A.base) >> CHUNK_SHIFT;
		if (A.chunks[c].nchunks == n && !(((uintptr_t)A.big_free.v[i]) & (align - 1))) {
			A.big_free.v[i] = A.big_free.v[--A.big_free.n];
			goto found;
		}
	}
	while (((uintptr_t)A.base + (A.next_chunk << CHUNK_SHIFT)) & (align - 1))
		new_chunks(1);
	c = new_chunks(n);
	for (size_t i = 0; i < n; i++) {
		A.chunks[c + i].cls = CLASS_BIG;
		A.chunks[c + i].used = 1;
		A.chunks[c + i].head = c;
	}
	A.chunks[c].nchunks = n;
found:
	meta_of(c, 0)->seq = ++A.seq;
	meta_of(c, 0)->tag = 0;
	meta_of(c, 0)->live = 1;
	return A.base + (c << CHUNK_SHIFT);
}

void *sim_arena_alloc(size_t size, size_t align)
{
	size_t k;
	void *p;

	if (align < 16)
		align = 16;
	if (!size)
		size = 1;
	if (align > 4096 || size > class_size[NR_CLASSES - 1])
		return big_alloc(size, align < CHUNK_SIZE ? CHUNK_SIZE : align);
	for (k = 0; k < NR_CLASSES; k++)
		if (class_size[k] >= size && !(class_size[k] % align))
			break;
	if (A.cls[k].free.n) {
		p = A.cls[k].free.v[--A.cls[k].free.n];
	} else {
		uint32_t nslots = CHUNK_SIZE / class_size[k];

		if (A.cls[k].chunk == SIZE_MAX || A.cls[k].next == nslots) {
			A.cls[k].next = A.cls[k].chunk == SIZE_MAX ? first_slot(k, nslots) : 0;
			A.cls[k].chunk = new_chunks(1);
			A.chunks[A.cls[k].chunk].cls = k;
			A.chunks[A.cls[k].chunk].used = 1;
		}
		p = A.base + (A.cls[k].chunk << CHUNK_SHIFT) +
		    (size_t)A.cls[k].next++ * class_size[k];
	}
	{
		size_t c = ((char *)p - A.base) >> CHUNK_SHIFT;
		uint32_t slot = (((char *)p - A.base) & (CHUNK_SIZE - 1)) / class_size[k];
		struct slot_meta *m = meta_of(c, slot);

		m->seq = ++A.seq;
		m->tag = 0;
		m->live = 1;
	}
	return p;
}

/* The usable size of an arena block, and its metadata. */
static size_t block_size(const void *p, struct slot_meta **meta, uintptr_t *base)
{
	size_t off = (const char *)p - A.base, c = off >> CHUNK_SHIFT;
	struct chunk *ch = &A.chunks[c];

	if (!ch->used)
		return 0;
	if (ch->cls == CLASS_BIG) {
		c = ch->head;
		*base = (uintptr_t)A.base + (c << CHUNK_SHIFT);
		*meta = meta_of(c, 0);
		return A.chunks[c].nchunks << CHUNK_SHIFT;
	}
	{
		uint32_t sz = class_size[ch->cls], slot = (off & (CHUNK_SIZE - 1)) / sz;

		*base = (uintptr_t)A.base + (c << CHUNK_SHIFT) + (size_t)slot * sz;
		*meta = meta_of(c, slot);
		return sz;
	}
}

static void arena_free(void *p)
{
	struct slot_meta *m;
	uintptr_t base;
	size_t sz = block_size(p, &m, &base);

	if (!sz || (uintptr_t)p != base || !m->live)
		abort(); /* a bad free in the simulated code */
	m->live = 0;
	if (A.chunks[((char *)p - A.base) >> CHUNK_SHIFT].cls == CLASS_BIG)
		push(&A.big_free, p);
	else
		push(&A.cls[A.chunks[((char *)p - A.base) >> CHUNK_SHIFT].cls].free, p);
}

void sim_arena_tag(const void *p, const char *tag)
{
	struct slot_meta *m;
	uintptr_t base;
	unsigned int t;

	if (!sim_arena_contains(p) || !block_size(p, &m, &base))
		return;
	for (t = 0; t < A.nr_tags; t++)
		if (!strcmp(A.tags[t], tag))
			break;
	if (t == A.nr_tags) {
		if (t == MAX_TAGS)
			return;
		A.tags[A.nr_tags++] = strdup(tag);
	}
	m->tag = t;
}

bool sim_arena_object(uintptr_t p, uintptr_t *base, size_t *size, const char **tag, uint32_t *seq)
{
	struct slot_meta *m;

	if (!sim_arena_contains((void *)p))
		return false;
	*size = block_size((void *)p, &m, base);
	if (!*size)
		return false;
	*tag = A.tags[m->tag];
	*seq = m->seq;
	return true;
}

/* The hooks the simulated code's malloc() family goes to (lib/arch_sim.h). */
void *vfslab_sim_malloc(size_t size)
{
	return A.active ? sim_arena_alloc(size, 16) : malloc(size);
}

void *vfslab_sim_calloc(size_t n, size_t size)
{
	void *p;

	if (size && n > SIZE_MAX / size)
		return NULL;
	if (!A.active)
		return calloc(n, size);
	p = sim_arena_alloc(n * size, 16);
	memset(p, 0, n * size);
	return p;
}

void vfslab_sim_free(void *p)
{
	if (!p)
		return;
	if (!sim_arena_contains(p)) {
		free(p);
		return;
	}
	if (A.active)
		arena_free(p);
	/* else: a run's leftovers, gone at the next reset */
}

void *vfslab_sim_realloc(void *p, size_t size)
{
	struct slot_meta *m;
	uintptr_t base;
	size_t old;
	void *q;

	if (!p)
		return vfslab_sim_malloc(size);
	if (!sim_arena_contains(p))
		return realloc(p, size);
	old = block_size(p, &m, &base);
	q = vfslab_sim_malloc(size);
	if (q) {
		memcpy(q, p, old < size ? old : size);
		vfslab_sim_free(p);
	}
	return q;
}

void *vfslab_sim_aligned_alloc(size_t align, size_t size)
{
	return A.active ? sim_arena_alloc(size, align) : aligned_alloc(align, size);
}

int vfslab_sim_posix_memalign(void **out, size_t align, size_t size)
{
	if (!A.active)
		return posix_memalign(out, align, size);
	*out = sim_arena_alloc(size, align);
	return *out ? 0 : ENOMEM;
}

char *vfslab_sim_strdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = vfslab_sim_malloc(n);

	if (p)
		memcpy(p, s, n);
	return p;
}

/* jemalloc's: the low six bits of @flags are log2 of the alignment. */
void *vfslab_sim_mallocx(size_t size, int flags)
{
	size_t align = flags & 63 ? (size_t)1 << (flags & 63) : 16;
	void *p;

	if (!A.active) {
		if (posix_memalign(&p, align < sizeof(void *) ? sizeof(void *) : align, size))
			return NULL;
	} else {
		p = sim_arena_alloc(size, align);
	}
	if (p && (flags & 0x40)) /* MALLOCX_ZERO */
		memset(p, 0, size);
	return p;
}

void vfslab_sim_sdallocx(void *p, size_t size, int flags)
{
	(void)size;
	(void)flags;
	vfslab_sim_free(p);
}
