/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ore_test.ko: in-kernel tests of ore.ko, printed as KTAP. Shared between
 * the framework (main.c) and the case files (store.c, engine.c).
 */
#ifndef _ORE_TEST_H
#define _ORE_TEST_H

#include <linux/types.h>
#include <linux/prandom.h>
#include <linux/bvec.h>
#include <ore/ore.h>

#define OT_MAX_DIRS	16
#define OT_MAX_BDEVS	16

/**
 * struct ot_ctx - state of one test run
 * @dirs: store directories (module parameter dirs=)
 * @nr_dirs: entries in @dirs
 * @bdevs: block devices for block stores (module parameter bdevs=)
 * @nr_bdevs: entries in @bdevs
 * @fulldir: a store directory on a small filesystem (ENOSPC), or NULL
 * @fstores: file stores opened on @dirs by the "file_store_open" case and
 *	kept until the last case
 * @nr_fstores: entries in @fstores
 * @rnd: the random stream (module parameter seed=)
 * @failed: the running case reported a failure
 * @skip: the running case is skipped, and why
 * @nr_msgs: diagnostics printed by the running case
 * @arg: &ot_case.arg of the running case
 */
struct ot_ctx {
	char *dirs[OT_MAX_DIRS];
	unsigned int nr_dirs;
	char *bdevs[OT_MAX_BDEVS];
	unsigned int nr_bdevs;
	char *fulldir;
	struct ore_store *fstores[OT_MAX_DIRS];
	unsigned int nr_fstores;
	struct rnd_state rnd;
	bool failed;
	const char *skip;
	unsigned int nr_msgs;
	unsigned long arg;
};

/**
 * struct ot_case - one KTAP result
 * @name: the result's description
 * @run: the test; reports through ot_fail() / ot_skip()
 * @arg: for @run, in &ot_ctx.arg (one function, several cases)
 */
struct ot_case {
	const char *name;
	void (*run)(struct ot_ctx *ctx);
	unsigned long arg;
};

/* main.c */
__printf(3, 4) void ot_fail(struct ot_ctx *ctx, int line, const char *fmt, ...);
__printf(2, 3) void ot_diag(struct ot_ctx *ctx, const char *fmt, ...);
void ot_skip(struct ot_ctx *ctx, const char *why);
u32 ot_rand(struct ot_ctx *ctx, u32 below);
void ot_fill(struct ot_ctx *ctx, void *buf, size_t len);

unsigned int ot_make_bvecs(struct ot_ctx *ctx, void *buf, u32 len,
			   u32 align, struct bio_vec **pbvec);
int ot_store_rw(struct ot_ctx *ctx, struct ore_store *store, u64 oid,
		u64 offset, void *buf, u32 len, bool write, bool fua,
		u32 align);
int ot_store_rw_bvec(struct ore_store *store, u64 oid, u64 offset,
		     struct bio_vec *bvec, unsigned int nr_bvec, u32 len,
		     bool write, bool fua);
bool ot_is_zero(const void *buf, size_t len);

/* Fail the running case when @cond is false; evaluates to @cond. */
#define OT_EXPECT(ctx, cond, fmt, ...) ({				\
	bool __ok = (cond);						\
	if (!__ok)							\
		ot_fail(ctx, __LINE__, "%s: " fmt, #cond, ##__VA_ARGS__); \
	__ok;								\
})

/* Fail unless @got == @want (both int-like: errnos, counts). */
#define OT_EXPECT_EQ(ctx, got, want) ({					\
	long long __g = (got), __w = (want);				\
	bool __ok = __g == __w;						\
	if (!__ok)							\
		ot_fail(ctx, __LINE__, "%s is %lld, expected %lld",	\
			#got, __g, __w);				\
	__ok;								\
})

/* store.c */
extern const struct ot_case ot_store_cases[];
extern const unsigned int ot_nr_store_cases;
extern const struct ot_case ot_store_final_cases[];
extern const unsigned int ot_nr_store_final_cases;

/* engine.c */
extern const struct ot_case ot_engine_cases[];
extern const unsigned int ot_nr_engine_cases;

#endif /* _ORE_TEST_H */
