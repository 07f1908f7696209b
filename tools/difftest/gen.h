/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * The generator's state and the pieces its files share: gen.c draws the
 * numbers, the arguments and whole lines, gen_ns.c the calls on names,
 * gen_fd.c the calls on descriptors.
 */
#ifndef VFSLAB_TOOLS_DIFFTEST_GEN_H
#define VFSLAB_TOOLS_DIFFTEST_GEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tools/difftest/difftest.h"

#define GEN_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define GEN_PICK(g, v) ((v)[gen_rnd(g, GEN_ARRAY_SIZE(v))])
#define GEN_WORD 4200 /* one word: a path, a target, a flag list */

struct gen {
	uint64_t s;
	const struct dt_policy *pol;
	char line[DT_LINE_MAX];
	size_t len;
	unsigned int ncalls;
	unsigned int nfds; /* descriptors the line's calls have added */
	bool may_block; /* a descriptor may be a fifo without O_NONBLOCK */
	bool root;
	bool tmpfile, getdents, lseek; /* the line has: an O_TMPFILE open, ... */
};

/* The names every path is made of: few, so that calls collide. */
extern const char *const gen_names[4];
/* pathconf names: those that read the path, and constants. */
extern const char *const gen_pc_names[8];

/* Does the policy steer clear of what (DT_AVOID_*)? */
bool gen_avoid(const struct gen *g, unsigned int what);
/* A number below n. */
unsigned int gen_rnd(struct gen *g, size_t n);
/* True pct times in 100. */
bool gen_chance(struct gen *g, unsigned int pct);
/* Append to the line. */
void gen_put(struct gen *g, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Start the next call of the chain. */
void gen_call(struct gen *g, const char *name);

/* Arguments (gen.c), each appended to the line. */
/* A path over the colliding names, a few levels deep. */
void gen_path(struct gen *g, char *buf);
/* A symlink body for linkpath. */
void gen_target(struct gen *g, char *buf, const char *linkpath);
/* m without what the policy avoids (set-id bits). */
unsigned int gen_allowed_mode(const struct gen *g, unsigned int m);
unsigned int gen_mode(struct gen *g);
void gen_put_mode(struct gen *g);
void gen_owner(struct gen *g);
void gen_fields(struct gen *g);
void gen_fd(struct gen *g);
void gen_dirfd(struct gen *g);
void gen_put_path(struct gen *g);
void gen_data(struct gen *g);
void gen_offset(struct gen *g);
void gen_length(struct gen *g);
void gen_size(struct gen *g);
void gen_times(struct gen *g);
/* A plain name one or two levels down: where setup lines build. */
void gen_short_path(struct gen *g, char *buf);

/* Calls: gen_ns.c names, gen_fd.c descriptors. */
/* An open or openat: one more descriptor. */
void gen_open(struct gen *g);
/* One namespace call; at: through a dirfd where there is an *at form. */
void gen_nsop(struct gen *g, bool at);
/* One call on a descriptor the line opened. */
void gen_fdop(struct gen *g);
/* gen_mount.c: a mount call (and calls meeting mounts); an openat2. */
void gen_mountop(struct gen *g);
void gen_openat2(struct gen *g);

#define gen_arg(g, ...) gen_put(g, " " __VA_ARGS__)

#endif /* VFSLAB_TOOLS_DIFFTEST_GEN_H */
