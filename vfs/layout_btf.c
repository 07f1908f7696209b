// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A kernel struct's members from BTF (/sys/kernel/btf/vmlinux or a
 * vmlinux with a .BTF section), through libbpf. Anonymous structs and
 * unions are walked into; a named member is one member whatever its type.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "vfs/layout_import.h"

#ifdef HAVE_LIBBPF
#include <bpf/btf.h>

static int add(struct kstruct *ks, const struct kmember *m, char *err, size_t errlen)
{
	if (ks->nr == KSTRUCT_MAX_MEMBERS) {
		snprintf(err, errlen, "struct %s: more than %d members", ks->name,
			 KSTRUCT_MAX_MEMBERS);
		return -1;
	}
	ks->m[ks->nr++] = *m;
	return 0;
}

/* The members of composite type t at bit offset base, under parent. */
static int walk(struct kstruct *ks, const struct btf *btf, const struct btf_type *t,
		unsigned long base, int parent, char *err, size_t errlen)
{
	const struct btf_member *bm = btf_members(t);

	for (unsigned short i = 0; i < btf_vlen(t); i++, bm++) {
		unsigned long bit = base + btf_member_bit_offset(t, i);
		unsigned int bits = btf_member_bitfield_size(t, i);
		const char *name = btf__name_by_offset(btf, bm->name_off);
		int rid = btf__resolve_type(btf, bm->type);
		const struct btf_type *rt = rid < 0 ? NULL : btf__type_by_id(btf, rid);
		long long size = btf__resolve_size(btf, bm->type);
		struct kmember m = { .parent = parent, .kind = 'm' };

		if (!rt || (size < 0 && !bits)) {
			snprintf(err, errlen, "struct %s: member %u: unresolvable type", ks->name,
				 i);
			return -1;
		}
		snprintf(m.name, sizeof(m.name), "%s", name ? name : "");
		if (bits) {
			/* The bytes its bits occupy: what another member must not overlap. */
			m.bits = bits;
			m.off = bit / 8;
			m.size = (bit + bits + 7) / 8 - m.off;
		} else {
			m.off = bit / 8;
			m.size = size;
		}
		if (!m.name[0] && (btf_is_struct(rt) || btf_is_union(rt))) {
			m.kind = btf_is_union(rt) ? 'u' : 's';
			if (add(ks, &m, err, errlen) ||
			    walk(ks, btf, rt, bit, ks->nr - 1, err, errlen))
				return -1;
			continue;
		}
		if (add(ks, &m, err, errlen))
			return -1;
	}
	return 0;
}

int kstruct_from_btf(struct kstruct *ks, const char *path, char *err, size_t errlen)
{
	struct btf *btf = btf__parse(path, NULL);
	const struct btf_type *t;
	int id, ret;

	if (!btf) {
		snprintf(err, errlen, "btf:%s: cannot read BTF: %s", path, strerror(errno));
		return -1;
	}
	id = btf__find_by_name_kind(btf, ks->name, BTF_KIND_STRUCT);
	if (id < 0) {
		snprintf(err, errlen, "btf:%s: no struct %s in it", path, ks->name);
		btf__free(btf);
		return -1;
	}
	t = btf__type_by_id(btf, id);
	ks->size = t->size;
	ks->nr = 0;
	ret = walk(ks, btf, t, 0, -1, err, errlen);
	btf__free(btf);
	return ret;
}

#else

int kstruct_from_btf(struct kstruct *ks, const char *path, char *err, size_t errlen)
{
	(void)ks;
	snprintf(err, errlen,
		 "btf:%s: this vfslab was built without libbpf (install libbpf-dev and "
		 "re-run configure), or import pahole's text: pahole -C STRUCT >F, then "
		 "pahole:F",
		 path);
	return -1;
}

#endif
