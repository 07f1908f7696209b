// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * The core model's instruction counts: how many instructions each basic
 * block of the simulated code runs, as the uninstrumented code would
 * (tools/sim/blocks.awk reads them off the linked program's disassembly;
 * the build writes them beside it as vfslab-sim.blocks). Every block
 * announces itself through __sanitizer_cov_trace_pc() (gcc's
 * -fsanitize-coverage=trace-pc), and tools/sim/runtime.c charges its count
 * times the profile's cycles per instruction, as zsim's simple core and
 * PriME's cpi_nonmem do.
 */
#include <errno.h>
#include <limits.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "tools/sim/sim.h"

uint8_t *sim_block_n;
uintptr_t sim_block_lo, sim_block_span;

/* Every block by address (open addressing): the big ones' counts, duplicates. */
struct block {
	uintptr_t pc;
	uint32_t n;
};

static struct {
	struct block *tab;
	uintptr_t mask;
	size_t nr;
	bool loaded;
	char path[PATH_MAX + 16];
	uint64_t unknown; /* blocks run that the table lacks */
} B;

/* The end of the program's text (the linker defines it). */
extern char etext[];

static int exe_base(struct dl_phdr_info *info, size_t size, void *ctx)
{
	(void)size;
	*(uintptr_t *)ctx = info->dlpi_addr;
	return 1; /* the first entry is the executable */
}

static uintptr_t slot(uintptr_t pc)
{
	return (pc * 0x9e3779b97f4a7c15ull >> 17) & B.mask;
}

static int insert(uintptr_t pc, uint32_t n)
{
	uintptr_t s;

	for (s = slot(pc); B.tab[s].pc; s = (s + 1) & B.mask)
		if (B.tab[s].pc == pc)
			return -1;
	B.tab[s].pc = pc;
	B.tab[s].n = n;
	sim_block_n[pc - sim_block_lo] = n < SIM_BLOCK_BIG - 1 ? n + 1 : SIM_BLOCK_BIG;
	B.nr++;
	return 0;
}

uint32_t sim_block_big(uintptr_t pc)
{
	for (uintptr_t s = slot(pc);; s = (s + 1) & B.mask)
		if (B.tab[s].pc == pc)
			return B.tab[s].n;
}

const char *sim_blocks_path(void)
{
	char self[PATH_MAX];
	ssize_t n;

	if (B.path[0])
		return B.path;
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0)
		return NULL;
	self[n] = '\0';
	snprintf(B.path, sizeof(B.path), "%s.blocks", self);
	return B.path;
}

int sim_blocks_load(char *err, size_t errlen)
{
	const char *path = sim_blocks_path();
	uintptr_t base = 0, off, text_end;
	size_t lines = 0, cap = 1;
	unsigned int n;
	FILE *f;

	if (B.loaded)
		return 0;
	f = path ? fopen(path, "r") : NULL;
	if (!f) {
		snprintf(err, errlen,
			 "cannot read the block table %s: %s (it is built with vfslab-sim)",
			 path ? path : "vfslab-sim.blocks", strerror(errno));
		return -1;
	}
	while (fscanf(f, "%lx %u", &off, &n) == 2)
		lines++;
	while (cap < 2 * lines + 2)
		cap <<= 1;
	dl_iterate_phdr(exe_base, &base);
	text_end = (uintptr_t)etext;
	B.tab = calloc(cap, sizeof(*B.tab));
	/* Mapped, not from the heap the simulated code's set-up shares (coherence.c). */
	sim_block_n = mmap(NULL, text_end - base, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (!B.tab || sim_block_n == MAP_FAILED) {
		sim_block_n = NULL;
		fclose(f);
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	B.mask = cap - 1;
	sim_block_lo = base;
	sim_block_span = text_end - base;
	rewind(f);
	while (fscanf(f, "%lx %u", &off, &n) == 2) {
		const uint8_t *call = (const uint8_t *)(base + off) - 5;
		int32_t rel = 0;

		/*
		 * Each block follows a call to the hook: else the table is stale.
		 * Only look inside our own text (a stale offset may point past it).
		 */
		if (off >= 5 && off < text_end - base)
			memcpy(&rel, call + 1, sizeof(rel));
		if (off < 5 || off >= text_end - base || call[0] != 0xe8 ||
		    (uintptr_t)(call + 5) + rel != (uintptr_t)__sanitizer_cov_trace_pc) {
			snprintf(err, errlen, "%s does not match this program (block %lx): rebuild",
				 path, off);
			fclose(f);
			return -1;
		}
		if (insert(base + off, n)) {
			snprintf(err, errlen, "%s: block %lx listed twice", path, off);
			fclose(f);
			return -1;
		}
	}
	if (!feof(f) || !B.nr) {
		snprintf(err, errlen, "%s: %s", path, B.nr ? "malformed line" : "no blocks");
		fclose(f);
		return -1;
	}
	fclose(f);
	B.loaded = true;
	return 0;
}

/*
 * Not in the table: a build whose table is stale. Count the block as one
 * instruction and say so at the end.
 */
uint32_t sim_block_unknown(void)
{
	B.unknown++;
	return 1;
}

uint64_t sim_blocks_unknown(void)
{
	return B.unknown;
}
