// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Code and global-data addresses to names, for the contention report: the
 * symbol table of our own executable (static functions included, which
 * dladdr() cannot see), read once from /proc/self/exe.
 */
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tools/sim/sim.h"

struct sym {
	uintptr_t start, end;
	const char *name;
	bool data;
};

static struct {
	bool loaded;
	struct sym *v;
	size_t n;
	char *strtab;
} S;

static int by_start(const void *a, const void *b)
{
	const struct sym *x = a, *y = b;

	return x->start < y->start ? -1 : x->start > y->start;
}

static int main_base(struct dl_phdr_info *info, size_t size, void *ctx)
{
	(void)size;
	*(uintptr_t *)ctx = info->dlpi_addr;
	return 1; /* the first entry is the executable */
}

static void load(void)
{
	int fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
	struct stat st;
	const unsigned char *img;
	const Elf64_Ehdr *eh;
	const Elf64_Shdr *sh;
	uintptr_t base = 0;

	S.loaded = true;
	if (fd < 0)
		return;
	if (fstat(fd, &st) ||
	    (img = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0)) == MAP_FAILED) {
		close(fd);
		return;
	}
	close(fd);
	dl_iterate_phdr(main_base, &base);
	eh = (const Elf64_Ehdr *)img;
	if (memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_ident[EI_CLASS] != ELFCLASS64)
		goto out;
	sh = (const Elf64_Shdr *)(img + eh->e_shoff);
	for (unsigned int i = 0; i < eh->e_shnum; i++) {
		const Elf64_Sym *sy;
		const char *str;
		size_t n;

		if (sh[i].sh_type != SHT_SYMTAB)
			continue;
		sy = (const Elf64_Sym *)(img + sh[i].sh_offset);
		n = sh[i].sh_size / sizeof(*sy);
		str = (const char *)img + sh[sh[i].sh_link].sh_offset;
		S.strtab = malloc(sh[sh[i].sh_link].sh_size);
		S.v = calloc(n, sizeof(*S.v));
		if (!S.strtab || !S.v)
			goto out;
		memcpy(S.strtab, str, sh[sh[i].sh_link].sh_size);
		for (size_t k = 0; k < n; k++) {
			unsigned int type = ELF64_ST_TYPE(sy[k].st_info);

			if ((type != STT_FUNC && type != STT_OBJECT) || !sy[k].st_value)
				continue;
			S.v[S.n].start = base + sy[k].st_value;
			S.v[S.n].end = S.v[S.n].start + (sy[k].st_size ? sy[k].st_size : 1);
			S.v[S.n].name = S.strtab + sy[k].st_name;
			S.v[S.n].data = type == STT_OBJECT;
			S.n++;
		}
		qsort(S.v, S.n, sizeof(*S.v), by_start);
		break;
	}
out:
	munmap((void *)img, st.st_size);
}

const char *sim_symbol(uintptr_t pc, bool data, uintptr_t *start)
{
	size_t lo = 0, hi;

	if (!S.loaded)
		load();
	hi = S.n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (S.v[mid].start <= pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* lo: the first symbol after pc; look back for one that covers it. */
	for (size_t i = lo; i-- > 0 && lo - i < 64;) {
		if (S.v[i].data == data && S.v[i].start <= pc && pc < S.v[i].end) {
			if (start)
				*start = S.v[i].start;
			return S.v[i].name;
		}
	}
	return NULL;
}
