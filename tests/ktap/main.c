// SPDX-License-Identifier: GPL-2.0
/*
 * ore_test.ko: in-kernel tests of ore.ko. Loading the module runs every
 * case and prints the results as KTAP in the kernel log, each line
 * prefixed by "ore_test: " (tests/guest/lib.sh ktap_from_dmesg picks them
 * up); unloading it is clean whatever the results.
 *
 * Parameters (comma separated lists, no spaces):
 *   dirs=/mnt/s0,/mnt/s1,...    directories for file stores, one per store,
 *                               each on its own filesystem ideally
 *   bdevs=/dev/vde,/dev/vdf,... block devices for block stores (their
 *                               contents are destroyed)
 *   fulldir=/mnt/tiny           a directory on a small filesystem, filled
 *                               up for the ENOSPC case (optional)
 *   seed=N                      seed of the random offsets and lengths
 * Cases that need stores or devices not given are skipped.
 */
#define pr_fmt(fmt) "ore_test: " fmt

#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/mm.h>
#include <linux/vmalloc.h>

#include "ore_test.h"

static char *dirs;
module_param(dirs, charp, 0444);
MODULE_PARM_DESC(dirs, "comma separated directories for file stores");
static char *bdevs;
module_param(bdevs, charp, 0444);
MODULE_PARM_DESC(bdevs, "comma separated block devices for block stores (overwritten)");
static char *fulldir;
module_param(fulldir, charp, 0444);
MODULE_PARM_DESC(fulldir, "directory on a small filesystem for the ENOSPC case");
static uint seed = 20111;
module_param(seed, uint, 0444);
MODULE_PARM_DESC(seed, "random seed");

/* Most diagnostics one case prints. */
#define OT_MAX_MSGS	8

static struct ot_ctx *ot_ctx;
static char *ot_dirs_buf, *ot_bdevs_buf;
static const char *ot_case_name;

void ot_fail(struct ot_ctx *ctx, int line, const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	ctx->failed = true;
	if (ctx->nr_msgs++ >= OT_MAX_MSGS)
		return;
	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	pr_info("# %s: line %d: %pV\n", ot_case_name, line, &vaf);
	va_end(args);
}

void ot_diag(struct ot_ctx *ctx, const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	if (ctx->nr_msgs++ >= OT_MAX_MSGS)
		return;
	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	pr_info("# %s: %pV\n", ot_case_name, &vaf);
	va_end(args);
}

void ot_skip(struct ot_ctx *ctx, const char *why)
{
	ctx->skip = why;
}

/* A random number in [0, @below), 0 when @below is 0. */
u32 ot_rand(struct ot_ctx *ctx, u32 below)
{
	u32 r = prandom_u32_state(&ctx->rnd);

	return below ? (u32)(((u64)r * below) >> 32) : 0;
}

void ot_fill(struct ot_ctx *ctx, void *buf, size_t len)
{
	prandom_bytes_state(&ctx->rnd, buf, len);
}

bool ot_is_zero(const void *buf, size_t len)
{
	return !memchr_inv(buf, 0, len);
}

/* Memory for bvecs: vmalloc (stacks too) or linear map, never module data. */
static struct page *ot_page(const void *p)
{
	return is_vmalloc_addr(p) ? vmalloc_to_page(p) : virt_to_page(p);
}

/*
 * Describe @len bytes at @buf (vmalloc or lowmem) with a freshly allocated
 * bvec array, each entry inside one page. With @align > 1 every entry's
 * offset and length are multiples of @align (so must @buf and @len be);
 * else the pieces have random lengths and offsets. Returns the number of
 * entries, 0 when out of memory. Free *@pbvec with kvfree().
 */
unsigned int ot_make_bvecs(struct ot_ctx *ctx, void *buf, u32 len,
			   u32 align, struct bio_vec **pbvec)
{
	unsigned int max = len / 64 + len / PAGE_SIZE + 2, n = 0;
	struct bio_vec *bvec;
	u32 pos = 0;

	bvec = kvmalloc_array(max, sizeof(*bvec), GFP_KERNEL);
	if (!bvec)
		return 0;
	while (pos < len && n < max) {
		void *p = buf + pos;
		u32 limit = min_t(u32, len - pos,
				  PAGE_SIZE - offset_in_page(p));
		u32 piece = limit;

		if (align > 1) {
			if (limit > align && ot_rand(ctx, 2))
				piece = align * (1 + ot_rand(ctx, limit / align));
		} else if (limit > 64 && ot_rand(ctx, 2)) {
			piece = 64 + ot_rand(ctx, limit - 64 + 1);
		}
		if (n == max - 1)	/* never happens; keep the sum right */
			piece = len - pos;
		bvec_set_page(&bvec[n++], ot_page(p), piece, offset_in_page(p));
		pos += piece;
	}
	*pbvec = bvec;
	return n;
}

struct ot_io {
	struct ore_store_io sio;
	struct completion done;
	atomic_t calls;
};

static void ot_io_end(struct ore_store_io *sio)
{
	struct ot_io *io = container_of(sio, struct ot_io, sio);

	atomic_inc(&io->calls);
	complete(&io->done);
}

/* One synchronous request through @store->ops->submit. */
int ot_store_rw_bvec(struct ore_store *store, u64 oid, u64 offset,
		     struct bio_vec *bvec, unsigned int nr_bvec, u32 len,
		     bool write, bool fua)
{
	struct ot_io io = {
		.sio = {
			.store = store,
			.oid = oid,
			.offset = offset,
			.len = len,
			.bvec = bvec,
			.nr_bvec = nr_bvec,
			.write = write,
			.fua = fua,
			.end_io = ot_io_end,
			.error = 1,	/* must be overwritten */
		},
		.calls = ATOMIC_INIT(0),
	};

	init_completion(&io.done);
	store->ops->submit(&io.sio);
	wait_for_completion(&io.done);
	if (atomic_read(&io.calls) != 1 || io.sio.error > 0) {
		pr_info("# end_io called %d times, error %d\n",
			atomic_read(&io.calls), io.sio.error);
		return -EPROTO;
	}
	return io.sio.error;
}

/* Read or write @len bytes at @buf, cut into bvecs as ot_make_bvecs(). */
int ot_store_rw(struct ot_ctx *ctx, struct ore_store *store, u64 oid,
		u64 offset, void *buf, u32 len, bool write, bool fua,
		u32 align)
{
	struct bio_vec *bvec = NULL;
	unsigned int n = 0;
	int err;

	if (len) {
		n = ot_make_bvecs(ctx, buf, len, align, &bvec);
		if (!n)
			return -ENOMEM;
	}
	err = ot_store_rw_bvec(store, oid, offset, bvec, n, len, write, fua);
	kvfree(bvec);
	return err;
}

/* Split the comma separated @list into @out; returns the count. */
static unsigned int ot_split(char *list, char **out, unsigned int max)
{
	unsigned int n = 0;
	char *s;

	while (list && n < max) {
		s = strsep(&list, ",");
		if (*s)
			out[n++] = s;
	}
	return n;
}

static unsigned int ot_case_no;

static void ot_run(struct ot_ctx *ctx, const struct ot_case *c)
{
	ctx->failed = false;
	ctx->skip = NULL;
	ctx->nr_msgs = 0;
	ctx->arg = c->arg;
	ot_case_name = c->name;
	c->run(ctx);
	ot_case_no++;
	if (ctx->failed)
		pr_info("not ok %u %s\n", ot_case_no, c->name);
	else if (ctx->skip)
		pr_info("ok %u %s # SKIP %s\n", ot_case_no, c->name, ctx->skip);
	else
		pr_info("ok %u %s\n", ot_case_no, c->name);
}

static void ot_put_stores(struct ot_ctx *ctx)
{
	while (ctx->nr_fstores)
		ore_store_put(ctx->fstores[--ctx->nr_fstores]);
}

static int __init ore_test_init(void)
{
	struct ot_ctx *ctx;
	unsigned int i;

	ctx = kzalloc(sizeof(*ctx), GFP_KERNEL);
	if (!ctx)
		return -ENOMEM;
	ot_ctx = ctx;
	if (dirs) {
		ot_dirs_buf = kstrdup(dirs, GFP_KERNEL);
		ctx->nr_dirs = ot_split(ot_dirs_buf, ctx->dirs, OT_MAX_DIRS);
	}
	if (bdevs) {
		ot_bdevs_buf = kstrdup(bdevs, GFP_KERNEL);
		ctx->nr_bdevs = ot_split(ot_bdevs_buf, ctx->bdevs,
					 OT_MAX_BDEVS);
	}
	ctx->fulldir = fulldir && *fulldir ? fulldir : NULL;
	prandom_seed_state(&ctx->rnd, seed);

	pr_info("KTAP version 1\n");
	pr_info("1..%u\n", ot_nr_store_cases + ot_nr_engine_cases +
		ot_nr_store_final_cases);
	pr_info("# %u store directories, %u block devices, seed %u\n",
		ctx->nr_dirs, ctx->nr_bdevs, seed);
	for (i = 0; i < ot_nr_store_cases; i++)
		ot_run(ctx, &ot_store_cases[i]);
	for (i = 0; i < ot_nr_engine_cases; i++)
		ot_run(ctx, &ot_engine_cases[i]);
	for (i = 0; i < ot_nr_store_final_cases; i++)
		ot_run(ctx, &ot_store_final_cases[i]);
	return 0;
}

static void __exit ore_test_exit(void)
{
	ot_put_stores(ot_ctx);
	kfree(ot_dirs_buf);
	kfree(ot_bdevs_buf);
	kfree(ot_ctx);
}

module_init(ore_test_init);
module_exit(ore_test_exit);

MODULE_DESCRIPTION("KTAP tests of ore.ko");
MODULE_LICENSE("GPL");
