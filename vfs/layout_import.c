// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A layout from a kernel's own struct: `btf[:FILE]` or `pahole:FILE`.
 *
 * Each field vfslab models is looked up by the kernel's name for it,
 * through anonymous structs and unions, and placed at the kernel's offset;
 * a field inside an anonymous union takes the union's bytes as its slot (as
 * d_name and f_path do: the other members share them). Every other member
 * becomes an opaque `pad ... as NAME` of its size, so lines, holes and
 * sizeof are the kernel's. The result is layout text, parsed and validated
 * like any layout file.
 *
 * Bit-fields vfslab does not model are opaque bytes (the bytes their bits
 * occupy); a field vfslab models that the kernel declares as a bit-field,
 * or smaller than vfslab stores in it, is an error naming it. A kernel
 * member bigger than vfslab's model (a lockdep mutex, say) is the slot.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vfs/layout_import.h"

#define BTF_DEFAULT "/sys/kernel/btf/vmlinux"

/* The kernel's names for a field vfslab models, in the order tried; else its own name. */
static const struct {
	enum layout_struct s;
	const char *field;
	const char *knames[3];
} knames[] = {
	{ LS_DENTRY, "d_iname", { "d_iname", "d_shortname" } },
	{ LS_DENTRY, "d_sib", { "d_sib", "d_child" } },
	{ LS_DENTRY, "d_children", { "d_children", "d_subdirs" } },
	{ LS_FILE, "f_ref", { "f_ref", "f_count" } },
	{ LS_FILE, "f_iocb_flags", { "f_iocb_flags", "f_write_hint" } },
	{ LS_FILE, "f_ep", { "f_ep", "f_ep_links" } },
	/* vfslab's rcu_head: in f_u up to v6.6, in f_ra's union since. */
	{ LS_FILE, "f_ra", { "f_u", "f_ra" } },
};

/* Member k is reachable by name: no named member above it. */
static bool reachable(const struct kstruct *ks, int k)
{
	for (int p = ks->m[k].parent; p >= 0; p = ks->m[p].parent)
		if (ks->m[p].kind == 'm')
			return false;
	return true;
}

static int find(const struct kstruct *ks, const char *name)
{
	for (unsigned int k = 0; k < ks->nr; k++)
		if (ks->m[k].kind == 'm' && !strcmp(ks->m[k].name, name) && reachable(ks, k))
			return k;
	return -1;
}

/* The kernel member of field i, its name into *kname; -1 with err if none. */
static int match(const struct kstruct *ks, enum layout_struct s, unsigned int i, const char *origin,
		 const char **kname, char *err, size_t errlen)
{
	const char *own = layout_desc(s)->fields[i].name, *const *names = NULL;
	const char *self[1] = { own };
	size_t nn = 1;

	for (size_t t = 0; t < sizeof(knames) / sizeof(knames[0]); t++) {
		if (knames[t].s == s && !strcmp(knames[t].field, own)) {
			names = knames[t].knames;
			nn = 3;
		}
	}
	if (!names)
		names = self;
	for (size_t t = 0; t < nn && names[t]; t++) {
		int k = find(ks, names[t]);

		if (k >= 0) {
			*kname = names[t];
			return k;
		}
	}
	snprintf(err, errlen, "%s: struct %s has no member '%s'%s%s%s: vfslab needs it", origin,
		 ks->name, names[0], nn > 1 && names[1] ? " (nor '" : "",
		 nn > 1 && names[1] ? names[1] : "", nn > 1 && names[1] ? "')" : "");
	return -1;
}

static unsigned int pow2_dividing(unsigned int v, unsigned int cap)
{
	unsigned int a = 1;

	while (a < cap && !(v % (2 * a)))
		a *= 2;
	return a;
}

struct import {
	const struct kstruct *ks;
	enum layout_struct s;
	const char *origin;
	unsigned int off[LAYOUT_MAX_FIELDS], size[LAYOUT_MAX_FIELDS];
	const char *kname[LAYOUT_MAX_FIELDS];
	short field_at[4096]; /* modelled field owning each byte, or -1 */
	short member_at[4096]; /* kernel member owning each byte, or -1 */
};

/* Where each modelled field goes; 0, or -1 with err. */
static int place_fields(struct import *im, char *err, size_t errlen)
{
	const struct layout_desc *d = layout_desc(im->s);
	const struct kstruct *ks = im->ks;

	for (unsigned int i = 0; i < d->nr_fields; i++) {
		const struct layout_field_desc *f = &d->fields[i];
		int k = match(ks, im->s, i, im->origin, &im->kname[i], err, errlen), p;

		if (k < 0)
			return -1;
		if (ks->m[k].bits) {
			snprintf(err, errlen,
				 "%s: struct %s's '%s' is a %u-bit bit-field; vfslab stores %s "
				 "there as a whole %s",
				 im->origin, ks->name, ks->m[k].name, ks->m[k].bits, f->name,
				 f->type);
			return -1;
		}
		/* A member of an anonymous union has the union's bytes. */
		p = ks->m[k].parent;
		if (p >= 0 && ks->m[p].kind == 'u')
			k = p;
		im->off[i] = ks->m[k].off;
		im->size[i] = ks->m[k].size;
		if (im->size[i] < f->size) {
			snprintf(err, errlen,
				 "%s: struct %s's '%s' is %u bytes; vfslab's %s needs %u",
				 im->origin, ks->name, im->kname[i], im->size[i], f->name, f->size);
			return -1;
		}
		if (im->off[i] % f->align) {
			snprintf(err, errlen,
				 "%s: struct %s's '%s' at offset %u is not %u-byte aligned as "
				 "vfslab's %s must be",
				 im->origin, ks->name, im->kname[i], im->off[i], f->align, f->name);
			return -1;
		}
		for (unsigned int b = im->off[i]; b < im->off[i] + im->size[i]; b++) {
			if (im->field_at[b] >= 0) {
				snprintf(err, errlen,
					 "%s: struct %s's '%s' and '%s' share byte %u (a union?); "
					 "vfslab needs %s and %s apart",
					 im->origin, ks->name, im->kname[im->field_at[b]],
					 im->kname[i], b, d->fields[im->field_at[b]].name, f->name);
				return -1;
			}
			im->field_at[b] = i;
		}
	}
	return 0;
}

/* The layout text: fields and opaque members in offset order. */
static char *layout_text(struct import *im, char *err, size_t errlen)
{
	const struct layout_desc *d = layout_desc(im->s);
	const struct kstruct *ks = im->ks;
	unsigned int end = 0, salign = 8;
	struct layout def;
	size_t len = 0;
	char *text = NULL;
	FILE *f = open_memstream(&text, &len);

	if (!f) {
		snprintf(err, errlen, "%s: out of memory", im->origin);
		return NULL;
	}
	/* The slab cache's alignment is no part of the struct: the default preset's. */
	fprintf(f, "# %s's struct %s\nstruct %s%s\n", im->origin, ks->name, d->name,
		!layout_build(&def, im->s, NULL, NULL, 0) && def.align >= 64 ? " hwcache" : "");
	for (unsigned int b = 0; b < ks->size;) {
		unsigned int e = b, nat;
		int i = im->field_at[b], k = im->member_at[b];

		if (i < 0 && k < 0) {
			b++;
			continue;
		}
		if (i >= 0) {
			e = b + im->size[i];
			nat = d->fields[i].align;
		} else {
			while (e < ks->size && im->field_at[e] < 0 && im->member_at[e] == k)
				e++;
			nat = pow2_dividing(e - b, 8);
		}
		/* Later than its alignment explains: an aligned member, as pahole infers. */
		if ((end + nat - 1) / nat * nat < b && pow2_dividing(b, 64) > 8) {
			fprintf(f, "align %u\n", pow2_dividing(b, 64));
			if (pow2_dividing(b, 64) > salign)
				salign = pow2_dividing(b, 64);
		}
		if (i >= 0)
			fprintf(f, "%s %u @%u%s%s\n", d->fields[i].name, e - b, b,
				strcmp(im->kname[i], d->fields[i].name) ? " as " : "",
				strcmp(im->kname[i], d->fields[i].name) ? im->kname[i] : "");
		else
			fprintf(f, "pad %u @%u as %.23s\n", e - b, b, ks->m[k].name);
		end = e;
		b = e;
	}
	/* Tail padding alignment alone does not explain: the struct's own alignment. */
	if ((end + salign - 1) / salign * salign != ks->size) {
		for (unsigned int a = 16; a <= 64; a *= 2) {
			if ((end + a - 1) / a * a == ks->size) {
				fprintf(f, "align %u\n", a);
				break;
			}
		}
	}
	if (fclose(f)) {
		free(text);
		snprintf(err, errlen, "%s: out of memory", im->origin);
		return NULL;
	}
	return text;
}

static int import_kstruct(struct layout *l, enum layout_struct s, const struct kstruct *ks,
			  const char *origin, char *err, size_t errlen)
{
	struct import *im = calloc(1, sizeof(*im));
	char *text = NULL;
	int ret = -1;

	if (!im) {
		snprintf(err, errlen, "%s: out of memory", origin);
		return -1;
	}
	im->ks = ks;
	im->s = s;
	im->origin = origin;
	if (!ks->size || ks->size > 4096) {
		snprintf(err, errlen, "%s: struct %s of %u bytes: vfslab lays out up to 4096",
			 origin, ks->name, ks->size);
		goto out;
	}
	memset(im->field_at, 0xff, sizeof(im->field_at));
	memset(im->member_at, 0xff, sizeof(im->member_at));
	for (unsigned int k = 0; k < ks->nr; k++) {
		const struct kmember *m = &ks->m[k];

		if (m->kind != 'm' || !reachable(ks, k))
			continue;
		for (unsigned int b = m->off; b < m->off + m->size && b < ks->size; b++)
			if (im->member_at[b] < 0)
				im->member_at[b] = k;
	}
	if (place_fields(im, err, errlen))
		goto out;
	text = layout_text(im, err, errlen);
	if (!text)
		goto out;
	ret = layout_parse(l, s, text, origin, err, errlen);
	if (!ret && l->size != ks->size) {
		snprintf(err, errlen, "%s: struct %s is %u bytes; its members explain %u", origin,
			 ks->name, ks->size, l->size);
		ret = -1;
	}
out:
	free(text);
	free(im);
	return ret;
}

int layout_import(struct layout *l, enum layout_struct s, const char *spec, char *err,
		  size_t errlen)
{
	struct kstruct *ks;
	const char *path;
	bool btf;
	int ret;

	if (!strcmp(spec, "btf") || !strncmp(spec, "btf:", 4)) {
		btf = true;
		path = spec[3] && spec[4] ? spec + 4 : BTF_DEFAULT;
	} else if (!strncmp(spec, "pahole:", 7) && spec[7]) {
		btf = false;
		path = spec + 7;
	} else {
		return 1;
	}
	ks = calloc(1, sizeof(*ks));
	if (!ks) {
		snprintf(err, errlen, "%s: out of memory", spec);
		return -1;
	}
	snprintf(ks->name, sizeof(ks->name), "%s", layout_desc(s)->name);
	ret = btf ? kstruct_from_btf(ks, path, err, errlen) :
		    kstruct_from_pahole(ks, path, err, errlen);
	if (!ret)
		ret = import_kstruct(l, s, ks, spec, err, errlen);
	free(ks);
	return ret;
}
