// SPDX-License-Identifier: GPL-2.0
/*
 * Engine cases of ore_test.ko: ore_read()/ore_write() over file and block
 * stores for RAID0/1/4/5/6 layouts, checked three ways:
 *  - reads through the engine against a shadow copy of the logical object;
 *  - every component object read straight from its store against images
 *    built from the shadow by an independent model of docs/layout.md, data
 *    placement and parity (P by XOR, P+Q by the kernel's raid6 syndrome);
 *  - degraded reads and writes with stores marked failed, read-4-write
 *    counts, truncate and length, and no I/O state leaked.
 */
#define pr_fmt(fmt) "ore_test: " fmt

#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <linux/string.h>
#include <linux/mm.h>
#include <linux/err.h>
#include <linux/raid/pq.h>

#include "ore_test.h"

#define OT_ENG_MAX_STORES	8
/* Bytes of a block store range (component) of the engine cases. */
#define OT_ENG_RANGE		(32ull << 20)
/* Longest engine request of the random cases. */
#define OT_ENG_MAX_PAGES	128

/**
 * struct ot_eng - one logical object under test
 * @ctx: the run
 * @layout: its layout (verified)
 * @oc: its components
 * @stores: the stores of @oc
 * @bdev: the stores are block stores (opened here, put at the end)
 * @size: logical bytes exercised, a multiple of the super-stripe
 * @shadow: what the object should hold, @size bytes
 * @max_end: end of the furthest write
 * @rows: component rows covering @size
 * @comp_size: bytes of each component object covering @size
 */
struct ot_eng {
	struct ot_ctx *ctx;
	struct ore_layout layout;
	struct ore_components oc;
	struct ore_store *stores[OT_ENG_MAX_STORES];
	bool bdev;
	u64 size;
	u8 *shadow;
	u64 max_end;
	u64 rows;
	u32 comp_size;
};

/* Results of one engine call. */
struct ot_eng_res {
	bool degraded;
	int failed_comp;
	u32 r4w_pages;
	u32 reads;
	u32 full;
	u32 partial;
};

/* ------------------------------------------------------------------
 * The model: docs/layout.md, written again independently of ore/layout.c.
 */

/* Group position of column @col (data 0..dw-1, P = dw, Q = dw + 1). */
static u32 ot_pos(const struct ore_layout *l, u64 row, u32 col)
{
	u32 gw = l->group_width, p0;

	switch (l->raid_algorithm) {
	case ORE_RAID4:
		return col < l->data_width ? col : gw - 1;
	case ORE_RAID5:
	case ORE_RAID6:
		/* the parity block of row r starts at (gw - parity - r) mod gw */
		p0 = (gw - l->parity + gw - (u32)(row % gw)) % gw;
		if (col >= l->data_width)
			return (p0 + col - l->data_width) % gw;
		return (p0 + l->parity + col) % gw;
	default:
		return col;
	}
}

static u32 ot_comp(const struct ore_layout *l, u32 group, u32 pos, u32 mirror)
{
	return (group * l->group_width + pos) * l->mirrors_p1 + mirror;
}

/* Where logical page @loff lives: group, row, data column, object offset. */
static void ot_map(const struct ore_layout *l, u64 loff, u32 *group,
		   u64 *row, u32 *col, u64 *obj_off)
{
	u64 S = (u64)l->data_width * l->stripe_unit * l->group_depth *
		l->group_count;
	u64 T = S / l->group_count, U = T / l->group_depth;
	u64 M = loff / S, rem = loff % S;

	*group = rem / T;
	*row = M * l->group_depth + (rem % T) / U;
	*col = (loff % U) / l->stripe_unit;
	*obj_off = *row * l->stripe_unit + loff % l->stripe_unit;
}

static struct ore_store *ot_comp_store(struct ot_eng *e, u32 comp)
{
	return e->oc.stores[(e->oc.first_dev + comp) % e->oc.numdevs];
}

/* ------------------------------------------------------------------
 * Engine calls.
 */

struct ot_r4w {
	bool give;		/* hand out uptodate pages from the shadow */
	struct ot_eng *e;
	atomic_t gets, puts, puts_uptodate;
};

struct ot_call {
	struct completion done;
	struct ot_r4w *r4w;
};

static struct page *ot_r4w_get(void *priv, u64 offset, bool *uptodate)
{
	struct ot_r4w *r = ((struct ot_call *)priv)->r4w;
	struct page *page;

	atomic_inc(&r->gets);
	if (!r->give || offset + PAGE_SIZE > r->e->size)
		return NULL;
	page = alloc_page(GFP_NOIO);
	if (!page)
		return NULL;
	memcpy_to_page(page, 0, r->e->shadow + offset, PAGE_SIZE);
	*uptodate = true;
	return page;
}

static void ot_r4w_put(void *priv, struct page *page, bool uptodate)
{
	struct ot_r4w *r = ((struct ot_call *)priv)->r4w;

	atomic_inc(&r->puts);
	if (uptodate)
		atomic_inc(&r->puts_uptodate);
	__free_page(page);
}

static const struct ore_r4w_ops ot_r4w_ops = {
	.get_page = ot_r4w_get,
	.put_page = ot_r4w_put,
};

static void ot_eng_done(struct ore_io_state *ios, void *priv)
{
	complete(&((struct ot_call *)priv)->done);
}

static void ot_free_pages(struct page **pages, unsigned int n)
{
	unsigned int i;

	if (!pages)
		return;
	for (i = 0; i < n; i++)
		if (pages[i])
			__free_page(pages[i]);
	kfree(pages);
}

static struct page **ot_alloc_pages(unsigned int n)
{
	struct page **pages = kcalloc(n, sizeof(*pages), GFP_KERNEL);
	unsigned int i;

	if (!pages)
		return NULL;
	for (i = 0; i < n; i++) {
		pages[i] = alloc_page(GFP_KERNEL);
		if (!pages[i]) {
			ot_free_pages(pages, n);
			return NULL;
		}
	}
	return pages;
}

/* One ore_read()/ore_write() of @len bytes at @off with @pages. */
static int ot_eng_rw(struct ot_eng *e, bool write, u64 off, u64 len,
		     struct page **pages, unsigned int nr, bool async,
		     bool fua, struct ot_r4w *r4w, struct ot_eng_res *res)
{
	struct ot_call call = { .r4w = r4w };
	struct ore_io_state *ios;
	int err;

	init_completion(&call.done);
	err = ore_get_rw_state(&e->layout, &e->oc, !write, off, len, &ios);
	if (err)
		return err;
	ios->pages = pages;
	ios->nr_pages = nr;
	ios->fua = fua;
	ios->r4w = r4w ? &ot_r4w_ops : NULL;
	ios->private = &call;
	if (async)
		ios->done = ot_eng_done;
	err = write ? ore_write(ios) : ore_read(ios);
	if (!err && async) {
		wait_for_completion(&call.done);
		err = ios->error;
	} else if (!err) {
		err = ios->error;
	}
	if (res) {
		res->degraded = ios->degraded;
		res->failed_comp = ios->failed_comp;
		res->r4w_pages = ios->stats_r4w_pages;
		res->reads = ios->stats_reads;
		res->full = ios->stats_full_stripes;
		res->partial = ios->stats_partial_stripes;
	}
	ore_put_io_state(ios);
	return err;
}

/* Write shadow bytes [@off, @off + @len) through the engine. */
static int ot_eng_write(struct ot_eng *e, u64 off, u64 len, bool async,
			bool fua, struct ot_r4w *r4w, struct ot_eng_res *res)
{
	unsigned int nr = DIV_ROUND_UP(len, PAGE_SIZE), i;
	struct page **pages = ot_alloc_pages(nr);
	int err;

	if (!pages)
		return -ENOMEM;
	for (i = 0; i < nr; i++)
		memcpy_to_page(pages[i], 0, e->shadow + off + i * PAGE_SIZE,
			       min_t(u64, PAGE_SIZE, e->size - off -
				     i * PAGE_SIZE));
	err = ot_eng_rw(e, true, off, len, pages, nr, async, fua, r4w, res);
	ot_free_pages(pages, nr);
	if (!err)
		e->max_end = max(e->max_end, off + len);
	return err;
}

/* Read [@off, @off + @len) through the engine and compare with the shadow. */
static bool ot_eng_check_read(struct ot_eng *e, u64 off, u64 len, bool async,
			      struct ot_eng_res *res)
{
	unsigned int nr = DIV_ROUND_UP(len, PAGE_SIZE), i;
	struct page **pages = ot_alloc_pages(nr);
	bool ok = true;
	int err;

	if (!OT_EXPECT(e->ctx, pages, "no memory"))
		return false;
	err = ot_eng_rw(e, false, off, len, pages, nr, async, false, NULL, res);
	if (!OT_EXPECT(e->ctx, !err, "read %llu+%llu: %d", off, len, err)) {
		ok = false;
		goto out;
	}
	for (i = 0; i < nr && ok; i++) {
		u32 n = min_t(u64, PAGE_SIZE, len - (u64)i * PAGE_SIZE);
		u8 *p = kmap_local_page(pages[i]);

		if (memcmp(p, e->shadow + off + i * PAGE_SIZE, n)) {
			ot_fail(e->ctx, __LINE__,
				"read %llu+%llu: page at %llu differs", off,
				len, off + (u64)i * PAGE_SIZE);
			ok = false;
		}
		kunmap_local(p);
	}
out:
	ot_free_pages(pages, nr);
	return ok;
}

/* ------------------------------------------------------------------
 * What the components must hold.
 */

static void ot_xor(u8 *dst, u8 *const *srcs, unsigned int n)
{
	unsigned int i, k;

	memcpy(dst, srcs[0], PAGE_SIZE);
	for (i = 1; i < n; i++)
		for (k = 0; k < PAGE_SIZE / sizeof(u64); k++)
			((u64 *)dst)[k] ^= ((u64 *)srcs[i])[k];
}

/*
 * Read every component object from its store and compare it with the image
 * the model builds from the shadow: data where the layout puts it, P and Q
 * of every row, mirrors equal. Returns false after a failure.
 */
static bool ot_eng_verify(struct ot_eng *e)
{
	const struct ore_layout *l = &e->layout;
	u32 nc = l->num_comps, dw = l->data_width, su = l->stripe_unit;
	u8 **img, *got = NULL;
	bool ok = false;
	u32 c, g, pos, col;
	u64 loff, row, off, j;

	img = kcalloc(nc, sizeof(*img), GFP_KERNEL);
	if (!OT_EXPECT(e->ctx, img, "no memory"))
		return false;
	for (c = 0; c < nc; c++) {
		img[c] = vzalloc(e->comp_size);
		if (!OT_EXPECT(e->ctx, img[c], "no memory"))
			goto out;
	}
	got = vmalloc(e->comp_size);
	if (!OT_EXPECT(e->ctx, got, "no memory"))
		goto out;

	for (loff = 0; loff < e->size; loff += PAGE_SIZE) {
		ot_map(l, loff, &g, &row, &col, &off);
		pos = ot_pos(l, row, col);
		memcpy(img[ot_comp(l, g, pos, 0)] + off, e->shadow + loff,
		       PAGE_SIZE);
	}
	for (g = 0; l->parity && g < l->group_count; g++) {
		for (row = 0; row < e->rows; row++) {
			for (j = 0; j < su; j += PAGE_SIZE) {
				void *ptrs[ORE_MAX_GROUP_WIDTH];

				off = row * su + j;
				for (col = 0; col < l->group_width; col++)
					ptrs[col] = img[ot_comp(l, g,
						ot_pos(l, row, col), 0)] + off;
				if (l->parity == 2)
					raid6_call.gen_syndrome(dw + 2,
								PAGE_SIZE,
								ptrs);
				else
					ot_xor(ptrs[dw], (u8 *const *)ptrs,
					       dw);
			}
		}
	}
	for (c = 0; c < nc; c++)
		if (c % l->mirrors_p1)
			memcpy(img[c], img[c - c % l->mirrors_p1],
			       e->comp_size);

	ok = true;
	for (c = 0; c < nc; c++) {
		struct ore_store *s = ot_comp_store(e, c);
		int err;

		memset(got, 0xa5, e->comp_size);
		err = ot_store_rw(e->ctx, s, e->oc.oid, 0, got, e->comp_size,
				  false, false, PAGE_SIZE);
		if (!OT_EXPECT(e->ctx, !err, "component %u read: %d", c, err)) {
			ok = false;
			continue;
		}
		if (memcmp(got, img[c], e->comp_size)) {
			for (off = 0; off < e->comp_size &&
			     !memcmp(got + off, img[c] + off, PAGE_SIZE);
			     off += PAGE_SIZE)
				;
			row = off / su;
			pos = (c / l->mirrors_p1) % l->group_width;
			for (col = 0; ot_pos(l, row, col) != pos; col++)
				;
			ot_fail(e->ctx, __LINE__,
				"component %u (store %s) differs at object offset %llu: row %llu, %s %u",
				c, s->name, off, row,
				col < dw ? "data column" : "parity", col);
			ok = false;
		}
	}
out:
	vfree(got);
	for (c = 0; c < nc; c++)
		vfree(img[c]);
	kfree(img);
	return ok;
}

/* ------------------------------------------------------------------
 * Setting up and tearing down an object.
 */

static void ot_eng_put(struct ot_eng *e)
{
	unsigned int i;

	if (e->bdev)
		for (i = 0; i < e->oc.numdevs; i++)
			ore_store_put(e->stores[i]);
	vfree(e->shadow);
}

/*
 * An object of layout @l on @bdev block stores or the file stores, with
 * id @oid and components starting at store @first_dev. Returns false
 * (after ot_skip() or a failure) when it cannot be set up.
 */
static bool ot_eng_init(struct ot_eng *e, struct ot_ctx *ctx,
			const struct ore_layout *l, bool bdev, u64 oid,
			u32 first_dev)
{
	struct ore_io_state *ios;
	u64 S, want = 3 << 20;
	unsigned int i, n;
	int err;

	memset(e, 0, sizeof(*e));
	e->ctx = ctx;
	e->layout = *l;
	n = l->group_width * l->group_count * l->mirrors_p1;
	if (!OT_EXPECT(ctx, n <= OT_ENG_MAX_STORES, "%u components", n))
		return false;
	if (bdev ? !ctx->nr_bdevs : ctx->nr_fstores < n) {
		ot_skip(ctx, bdev ? "no bdevs=" : "not enough file stores");
		return false;
	}
	if (!OT_EXPECT_EQ(ctx, ore_verify_layout(n, &e->layout), 0))
		return false;
	e->bdev = bdev;
	for (i = 0; i < n; i++) {
		if (!bdev) {
			e->stores[i] = ctx->fstores[i];
			continue;
		}
		/* Store i: range i / nr_bdevs of device i % nr_bdevs. */
		e->stores[i] = ore_bdev_store_open(ctx->bdevs[i % ctx->nr_bdevs],
						   (i / ctx->nr_bdevs) *
						   OT_ENG_RANGE, OT_ENG_RANGE,
						   NULL);
		if (!OT_EXPECT(ctx, !IS_ERR(e->stores[i]), "open %s: %ld",
			       ctx->bdevs[i % ctx->nr_bdevs],
			       PTR_ERR(e->stores[i]))) {
			e->stores[i] = NULL;
			while (i--)
				ore_store_put(e->stores[i]);
			e->bdev = false;
			return false;
		}
	}
	e->oc.oid = oid;
	e->oc.numdevs = n;
	e->oc.first_dev = first_dev % n;
	e->oc.stores = e->stores;

	S = e->layout.super_stripe;
	e->size = want > S ? want / S * S : S;
	e->rows = e->size / S * l->group_depth;
	e->comp_size = e->rows * l->stripe_unit;
	e->shadow = vzalloc(e->size);
	if (!OT_EXPECT(ctx, e->shadow && e->comp_size <= OT_ENG_RANGE,
		       "no memory or too big"))
		goto out_put;

	err = ore_get_io_state(&e->layout, &e->oc, &ios);
	if (!OT_EXPECT_EQ(ctx, err, 0))
		goto out_put;
	err = ore_create(ios);
	ore_put_io_state(ios);
	if (!OT_EXPECT_EQ(ctx, err, 0))
		goto out_put;
	if (bdev) {
		/* A block store's object is never empty: zero what we use. */
		u8 *zero = vzalloc(e->comp_size);

		if (!OT_EXPECT(ctx, zero, "no memory"))
			goto out_put;
		for (i = 0; i < n; i++)
			OT_EXPECT_EQ(ctx, ot_store_rw(ctx, e->stores[i], 0, 0,
						      zero, e->comp_size, true,
						      false, PAGE_SIZE), 0);
		vfree(zero);
	}
	return !ctx->failed;

out_put:
	ot_eng_put(e);
	return false;
}

static void ot_eng_remove(struct ot_eng *e)
{
	struct ore_io_state *ios;
	u64 len;
	u32 c;

	if (OT_EXPECT_EQ(e->ctx, ore_get_io_state(&e->layout, &e->oc, &ios),
			 0)) {
		OT_EXPECT_EQ(e->ctx, ore_remove(ios), 0);
		ore_put_io_state(ios);
	}
	for (c = 0; !e->bdev && c < e->layout.num_comps; c++) {
		struct ore_store *s = ot_comp_store(e, c);

		OT_EXPECT_EQ(e->ctx, s->ops->length(s, e->oc.oid, &len),
			     -ENOENT);
	}
}

/* ------------------------------------------------------------------
 * The cases.
 */

/*
 * A request length for @e: any for file stores, whole sectors for block
 * stores (they take only whole logical blocks, and the engine passes odd
 * lengths through to the components).
 */
static u64 ot_eng_len(struct ot_eng *e, u64 len)
{
	return e->bdev ? max_t(u64, 512, round_down(len, 512)) : len;
}

/* @rounds random writes (shadow updated) and checked reads. */
static bool ot_eng_random(struct ot_eng *e, unsigned int rounds)
{
	struct ot_ctx *ctx = e->ctx;
	unsigned int r;

	for (r = 0; r < rounds; r++) {
		u64 pages = e->size / PAGE_SIZE;
		u64 off = (u64)ot_rand(ctx, pages) * PAGE_SIZE;
		u64 max = min_t(u64, OT_ENG_MAX_PAGES * PAGE_SIZE,
				e->size - off);
		bool async = !ot_rand(ctx, 4);
		u64 len;
		int err;

		if (ot_rand(ctx, 2)) {
			len = (1 + ot_rand(ctx, max / PAGE_SIZE)) * PAGE_SIZE;
			if (!e->layout.parity)	/* any length without parity */
				len = ot_eng_len(e, len - ot_rand(ctx, PAGE_SIZE));
			ot_fill(ctx, e->shadow + off, len);
			err = ot_eng_write(e, off, len, async, !ot_rand(ctx, 8),
					   NULL, NULL);
			if (!OT_EXPECT(ctx, !err, "write %llu+%llu: %d", off,
				       len, err))
				return false;
		} else {
			len = ot_eng_len(e, 1 + ot_rand(ctx, max));
			if (!ot_eng_check_read(e, off, len, async, NULL))
				return false;
		}
	}
	return ot_eng_check_read(e, 0, e->size, false, NULL);
}

/* Reads with one store, or two for RAID6, marked failed. */
static void ot_eng_degraded_reads(struct ot_eng *e)
{
	const struct ore_layout *l = &e->layout;
	struct ot_ctx *ctx = e->ctx;
	struct ot_eng_res res;
	u32 tries, t, a, b, gw_comps = l->group_width * l->mirrors_p1;
	long long deg0;
	bool rebuilt;

	if (!l->parity && l->mirrors_p1 == 1)
		return;
	tries = min_t(u32, 4, gw_comps);
	for (t = 0; t < tries; t++) {
		/* Components of group 0: a alone, or a and b. */
		a = ot_rand(ctx, gw_comps);
		b = (a + 1 + ot_rand(ctx, gw_comps - 1)) % gw_comps;
		if (l->parity == 1 && l->mirrors_p1 > 1)
			b = a ^ 1;	/* both copies of one position */
		deg0 = atomic64_read(&ore_stats.degraded_reads);
		ore_store_set_state(ot_comp_store(e, a), ORE_STORE_FAILED);
		if (l->parity == 2 || (l->parity && l->mirrors_p1 > 1))
			ore_store_set_state(ot_comp_store(e, b), ORE_STORE_FAILED);
		/*
		 * Rebuilt from parity, so degraded: unless only RAID4's P
		 * component failed (reads do not need it) or a mirror could
		 * stand in.
		 */
		rebuilt = l->parity &&
			  !(l->raid_algorithm == ORE_RAID4 &&
			    ot_pos(l, 0, l->data_width) == a / l->mirrors_p1);
		if (ot_eng_check_read(e, 0, e->size, !!(t & 1), &res) &&
		    rebuilt) {
			OT_EXPECT(ctx, res.degraded,
				  "failed components %u, %u: not degraded",
				  a, b);
			OT_EXPECT(ctx, res.failed_comp >= 0, "no failed_comp");
			OT_EXPECT(ctx, atomic64_read(&ore_stats.degraded_reads) >
				  deg0, "degraded_reads not counted");
		}
		/* A small read across the failure too. */
		ot_eng_check_read(e, l->stripe_unit - PAGE_SIZE,
				  ot_eng_len(e, l->stripe_unit + 3 * PAGE_SIZE +
					     519), false, NULL);
		ore_store_set_state(ot_comp_store(e, a), ORE_STORE_IN_SYNC);
		ore_store_set_state(ot_comp_store(e, b), ORE_STORE_IN_SYNC);
	}
}

/*
 * Writes with one store failed: they succeed degraded and read back right
 * while it stays failed. Then everything is rewritten whole, which brings
 * the stale component up to date again.
 */
static void ot_eng_degraded_writes(struct ot_eng *e)
{
	const struct ore_layout *l = &e->layout;
	struct ot_ctx *ctx = e->ctx;
	struct ot_eng_res res;
	u32 a = 1 % l->num_comps;
	unsigned int r;
	int err;

	if (!l->parity && l->mirrors_p1 == 1)
		return;
	ore_store_set_state(ot_comp_store(e, a), ORE_STORE_FAILED);
	for (r = 0; r < 8; r++) {
		u64 off = (u64)ot_rand(ctx, e->size / PAGE_SIZE) * PAGE_SIZE;
		u64 len = min_t(u64, e->size - off,
				(1 + ot_rand(ctx, 64)) * PAGE_SIZE);

		ot_fill(ctx, e->shadow + off, len);
		err = ot_eng_write(e, off, len, r & 1, false, NULL, &res);
		OT_EXPECT(ctx, !err, "degraded write %llu+%llu: %d", off, len,
			  err);
	}
	ot_eng_check_read(e, 0, e->size, false, NULL);
	ore_store_set_state(ot_comp_store(e, a), ORE_STORE_IN_SYNC);
	err = ot_eng_write(e, 0, e->size, false, false, NULL, &res);
	OT_EXPECT(ctx, !err && !res.degraded && !res.partial, "rewrite: %d",
		  err);
}

/* Truncate through the engine (file stores only: block stores keep data). */
static void ot_eng_truncate(struct ot_eng *e)
{
	struct ot_ctx *ctx = e->ctx;
	u64 size, len = 0;

	if (e->bdev)
		return;
	OT_EXPECT_EQ(ctx, ore_length(&e->layout, &e->oc, &len), 0);
	OT_EXPECT_EQ(ctx, len, e->max_end);
	size = e->size / 2 + ot_rand(ctx, e->size / 2);
	OT_EXPECT_EQ(ctx, ore_truncate(&e->layout, &e->oc, size), 0);
	memset(e->shadow + size, 0, e->size - size);
	OT_EXPECT_EQ(ctx, ore_length(&e->layout, &e->oc, &len), 0);
	OT_EXPECT_EQ(ctx, len, size);
	ot_eng_check_read(e, 0, e->size, false, NULL);
	ot_eng_verify(e);
}

static void ot_eng_layout_case(struct ot_ctx *ctx, const struct ore_layout *l,
			       bool bdev, u64 oid)
{
	long long live0 = atomic64_read(&ore_stats.ios_live);
	struct ot_eng e;

	if (!ot_eng_init(&e, ctx, l, bdev, oid, oid))
		return;
	if (ot_eng_random(&e, 120) && ot_eng_verify(&e)) {
		ot_eng_degraded_reads(&e);
		ot_eng_degraded_writes(&e);
		if (ot_eng_verify(&e))
			ot_eng_truncate(&e);
	}
	ot_eng_remove(&e);
	ot_eng_put(&e);
	OT_EXPECT_EQ(ctx, atomic64_read(&ore_stats.ios_live), live0);
}

#define OT_L(alg, su, gw, depth, count, m) \
	{ .raid_algorithm = (alg), .stripe_unit = (su), .group_width = (gw), \
	  .group_depth = (depth), .group_count = (count), .mirrors_p1 = (m) }

/* The layouts of the round-trip cases, named in ot_engine_cases[]. */
static const struct ore_layout ot_layouts[] = {
	OT_L(ORE_RAID0, 65536, 4, 1, 1, 1),	/* raid0 */
	OT_L(ORE_RAID0, 16384, 2, 3, 2, 1),	/* raid0_groups */
	OT_L(ORE_RAID0, 32768, 2, 1, 1, 2),	/* raid1 */
	OT_L(ORE_RAID4, 16384, 4, 1, 1, 1),	/* raid4 */
	OT_L(ORE_RAID5, 65536, 4, 1, 1, 1),	/* raid5 */
	OT_L(ORE_RAID5, 16384, 3, 3, 2, 1),	/* raid5_groups */
	OT_L(ORE_RAID5, 8192, 4, 1, 1, 2),	/* raid5_mirrored */
	OT_L(ORE_RAID6, 8192, 6, 1, 1, 1),	/* raid6 */
	OT_L(ORE_RAID6, 4096, 4, 2, 2, 1),	/* raid6_groups */
	OT_L(ORE_RAID6, 4096, 8, 1, 1, 1),	/* raid6_wide */
};

/* Case arg: the index in ot_layouts[]. */
static void ot_eng_file(struct ot_ctx *ctx)
{
	ot_eng_layout_case(ctx, &ot_layouts[ctx->arg], false,
			   0x20000 + ctx->arg);
}

static void ot_eng_bdev(struct ot_ctx *ctx)
{
	ot_eng_layout_case(ctx, &ot_layouts[ctx->arg], true,
			   0x20100 + ctx->arg);
}

/*
 * Read-4-write counts on one stripe: a full stripe asks nothing and reads
 * nothing; a 4 KiB write asks the cache for the dw - 1 other data pages of
 * its page row, then reads rmw (old data + old P, and old Q for RAID6: 2
 * or 3) or rcw (dw - 1, or 0 when the cache gave uptodate pages), rmw only
 * when strictly fewer.
 */
static void ot_eng_r4w_one(struct ot_ctx *ctx, const struct ore_layout *l,
			   u64 oid)
{
	long long rmw0, rcw0, full0;
	struct ot_r4w r4w = {};
	struct ot_eng_res res;
	struct ot_eng e;
	u32 dw, expect_reads;
	bool rmw;
	u64 U, at;
	int err, give;

	if (!ot_eng_init(&e, ctx, l, false, oid, 0))
		return;
	dw = e.layout.data_width;
	U = e.layout.stripe_length;
	r4w.e = &e;

	/* A full stripe: the second one, written whole. */
	ot_fill(ctx, e.shadow + U, U);
	full0 = atomic64_read(&ore_stats.full_stripes);
	err = ot_eng_write(&e, U, U, false, false, &r4w, &res);
	OT_EXPECT_EQ(ctx, err, 0);
	OT_EXPECT_EQ(ctx, atomic_read(&r4w.gets), 0);
	OT_EXPECT_EQ(ctx, res.reads, 0);
	OT_EXPECT_EQ(ctx, res.full, 1);
	OT_EXPECT_EQ(ctx, res.partial, 0);
	OT_EXPECT_EQ(ctx, atomic64_read(&ore_stats.full_stripes), full0 + 1);

	for (give = 0; give < 2; give++) {
		/* 4 KiB at page 1 of data column 0 of that stripe. */
		at = U + PAGE_SIZE + give * 2 * PAGE_SIZE;
		r4w.give = give;
		atomic_set(&r4w.gets, 0);
		atomic_set(&r4w.puts, 0);
		atomic_set(&r4w.puts_uptodate, 0);
		rmw0 = atomic64_read(&ore_stats.rmw_stripes);
		rcw0 = atomic64_read(&ore_stats.rcw_stripes);
		ot_fill(ctx, e.shadow + at, PAGE_SIZE);
		err = ot_eng_write(&e, at, PAGE_SIZE, give, false, &r4w, &res);
		OT_EXPECT_EQ(ctx, err, 0);
		OT_EXPECT_EQ(ctx, atomic_read(&r4w.gets), dw - 1);
		OT_EXPECT_EQ(ctx, res.r4w_pages, dw - 1);
		OT_EXPECT_EQ(ctx, res.partial, 1);
		OT_EXPECT_EQ(ctx, res.full, 0);
		rmw = !give && 1 + e.layout.parity < dw - 1;
		expect_reads = give ? 0 : rmw ? 1 + e.layout.parity : dw - 1;
		OT_EXPECT_EQ(ctx, res.reads, expect_reads);
		OT_EXPECT_EQ(ctx, atomic64_read(&ore_stats.rmw_stripes),
			     rmw0 + rmw);
		OT_EXPECT_EQ(ctx, atomic64_read(&ore_stats.rcw_stripes),
			     rcw0 + !rmw);
		if (give) {
			OT_EXPECT_EQ(ctx, atomic_read(&r4w.puts), dw - 1);
			OT_EXPECT_EQ(ctx, atomic_read(&r4w.puts_uptodate),
				     dw - 1);
		}
	}
	ot_eng_check_read(&e, 0, e.size, false, NULL);
	ot_eng_verify(&e);
	ot_eng_remove(&e);
	ot_eng_put(&e);
}

static void ot_eng_r4w(struct ot_ctx *ctx)
{
	static const struct ore_layout layouts[] = {
		OT_L(ORE_RAID5, 65536, 5, 1, 1, 1),	/* rmw: 2 < 3 */
		OT_L(ORE_RAID5, 16384, 3, 1, 1, 1),	/* rcw: 1 < 2 */
		OT_L(ORE_RAID4, 16384, 4, 1, 1, 1),	/* rcw: 2 = 2 */
		OT_L(ORE_RAID6, 16384, 6, 1, 1, 1),	/* rcw: 3 = 3 */
		OT_L(ORE_RAID6, 16384, 8, 1, 1, 1),	/* rmw: 3 < 5 */
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(layouts) && !ctx->failed; i++)
		ot_eng_r4w_one(ctx, &layouts[i], 0x20200 + i);
}

/*
 * RAID6 read-modify-write parity against a fresh syndrome: for every data
 * width 2 .. 10 (group width 4 .. 12) and every non-empty subset of written
 * data columns, random old data with its P and Q, random new data in the
 * subset; ore_pq_rmw() with the deltas must give the P and Q that
 * gen_syndrome() computes over the new data.
 */
static void ot_eng_pq_rmw(struct ot_ctx *ctx)
{
	void *d[ORE_MAX_GROUP_WIDTH], *ref[ORE_MAX_GROUP_WIDTH];
	void *delta[ORE_MAX_GROUP_WIDTH];
	u8 *buf, *p0, *q0, *p, *q, *dl;
	unsigned int dw, c, mask, subsets = 0;

	if (!raid6_call.xor_syndrome) {
		ot_skip(ctx, "lib/raid6 has no xor_syndrome");
		return;
	}
	/* d[0..9], ref[0..11] (new data, P, Q), p0, q0, p, q, 10 deltas */
	buf = vmalloc(36 * PAGE_SIZE);
	if (!OT_EXPECT(ctx, buf, "no memory"))
		return;
	for (c = 0; c < 12; c++) {
		if (c < 10)
			d[c] = buf + c * PAGE_SIZE;
		ref[c] = buf + (10 + c) * PAGE_SIZE;
	}
	p0 = buf + 22 * PAGE_SIZE;
	q0 = p0 + PAGE_SIZE;
	p = q0 + PAGE_SIZE;
	q = p + PAGE_SIZE;
	dl = q + PAGE_SIZE;
	for (dw = 2; dw <= 10 && !ctx->failed; dw++) {
		void *ptrs[ORE_MAX_GROUP_WIDTH];

		for (c = 0; c < dw; c++) {
			ot_fill(ctx, d[c], PAGE_SIZE);
			ptrs[c] = d[c];
		}
		ptrs[dw] = p0;
		ptrs[dw + 1] = q0;
		raid6_call.gen_syndrome(dw + 2, PAGE_SIZE, ptrs);
		for (mask = 1; mask < (1u << dw) && !ctx->failed; mask++) {
			for (c = 0; c < dw; c++) {
				u8 *nd = ref[c], *od = d[c];
				unsigned int k;

				delta[c] = NULL;
				if (!(mask & (1u << c))) {
					memcpy(nd, od, PAGE_SIZE);
					continue;
				}
				ot_fill(ctx, nd, PAGE_SIZE);
				delta[c] = dl + c * PAGE_SIZE;
				for (k = 0; k < PAGE_SIZE; k++)
					((u8 *)delta[c])[k] = od[k] ^ nd[k];
			}
			raid6_call.gen_syndrome(dw + 2, PAGE_SIZE, ref);
			memcpy(p, p0, PAGE_SIZE);
			memcpy(q, q0, PAGE_SIZE);
			ore_pq_rmw(delta, dw, p, q, PAGE_SIZE);
			OT_EXPECT(ctx, !memcmp(p, ref[dw], PAGE_SIZE),
				  "%u data columns, written 0x%x: P differs",
				  dw, mask);
			OT_EXPECT(ctx, !memcmp(q, ref[dw + 1], PAGE_SIZE),
				  "%u data columns, written 0x%x: Q differs",
				  dw, mask);
			subsets++;
		}
	}
	ot_diag(ctx, "%u subsets of 2 .. 10 data columns", subsets);
	vfree(buf);
}

/*
 * RAID6 partial writes that take read-modify-write: 8 components (6 data),
 * two pages per stripe unit, writes of 1 to 8 pages inside one stripe with
 * no cache. Each must choose as the read counts say (rmw = written pages +
 * P and Q of each touched row, rcw = the other data pages of the touched
 * rows; rmw when strictly fewer), checked on the rmw and rcw counters
 * (and, for one page, on the store reads: 3 or 5);
 * then data and parity are verified, reads with two stores failed rebuild
 * the rmw-written data, and a degraded write takes rcw.
 */
static void ot_eng_raid6_rmw(struct ot_ctx *ctx)
{
	static const struct ore_layout l = OT_L(ORE_RAID6, 8192, 8, 1, 1, 1);
	long long rmw0, rcw0, nrmw = 0;
	struct ot_eng_res res;
	struct ot_eng e;
	unsigned int r;
	int err;

	if (!ot_eng_init(&e, ctx, &l, ctx->arg, 0x20300 + ctx->arg, 3))
		return;
	ot_fill(ctx, e.shadow, e.size);
	err = ot_eng_write(&e, 0, e.size, false, false, NULL, &res);
	OT_EXPECT(ctx, !err && !res.partial, "prefill: %d", err);
	for (r = 0; r < 96 && !ctx->failed; r++) {
		u32 dw = e.layout.data_width, rows = 2, k, touched = 0;
		u64 U = e.layout.stripe_length, s, a, n;
		u8 rowt[2] = { 0, 0 };
		bool want_rmw;

		s = ot_rand(ctx, e.size / U) * U;
		n = 1 + ot_rand(ctx, 8);
		a = ot_rand(ctx, dw * rows - n + 1);
		for (k = a; k < a + n; k++)
			rowt[k % rows] = 1;
		touched = rowt[0] + rowt[1];
		want_rmw = n + 2 * touched < touched * dw - n;
		nrmw += want_rmw;
		rmw0 = atomic64_read(&ore_stats.rmw_stripes);
		rcw0 = atomic64_read(&ore_stats.rcw_stripes);
		ot_fill(ctx, e.shadow + s + a * PAGE_SIZE, n * PAGE_SIZE);
		err = ot_eng_write(&e, s + a * PAGE_SIZE, n * PAGE_SIZE,
				   r & 1, false, NULL, &res);
		OT_EXPECT(ctx, !err, "write %llu+%llu: %d", s + a * PAGE_SIZE,
			  n * PAGE_SIZE, err);
		/* one page: each read is one store I/O (more are merged) */
		OT_EXPECT(ctx, n > 1 || res.reads == (want_rmw ? 3 : dw - 1),
			  "page %llu of a stripe: %u reads", a, res.reads);
		OT_EXPECT(ctx, atomic64_read(&ore_stats.rmw_stripes) ==
			  rmw0 + want_rmw &&
			  atomic64_read(&ore_stats.rcw_stripes) ==
			  rcw0 + !want_rmw,
			  "pages %llu+%llu of a stripe: %s expected",
			  a, n, want_rmw ? "rmw" : "rcw");
	}
	OT_EXPECT(ctx, nrmw > 0, "no write took rmw");
	ot_diag(ctx, "%lld of %u writes took rmw", nrmw, r);
	if (ot_eng_check_read(&e, 0, e.size, false, NULL) &&
	    ot_eng_verify(&e)) {
		ot_eng_degraded_reads(&e);
		/* one lost component: a 4 KiB write takes rcw, rebuilding */
		ore_store_set_state(ot_comp_store(&e, 1), ORE_STORE_FAILED);
		rmw0 = atomic64_read(&ore_stats.rmw_stripes);
		ot_fill(ctx, e.shadow + PAGE_SIZE, PAGE_SIZE);
		err = ot_eng_write(&e, PAGE_SIZE, PAGE_SIZE, false, false,
				   NULL, &res);
		OT_EXPECT_EQ(ctx, err, 0);
		OT_EXPECT_EQ(ctx, atomic64_read(&ore_stats.rmw_stripes), rmw0);
		ot_eng_check_read(&e, 0, e.size, false, NULL);
		ore_store_set_state(ot_comp_store(&e, 1), ORE_STORE_IN_SYNC);
		ot_eng_degraded_writes(&e);
		ot_eng_verify(&e);
	}
	ot_eng_remove(&e);
	ot_eng_put(&e);
}

/* Page rows of the largest stripe unit of ot_eng_raid6_rmw_random(). */
#define OT_R6_MAX_ROWS	4

/*
 * The model's choice for the partial stripes of a write [@off, @off + @len)
 * (no cache): for each stripe it covers in part, rmw reads the n written
 * pages and P and Q of each of the t touched page rows, rcw the t * dw - n
 * other data pages of those rows; rmw when strictly fewer and no position
 * of the stripe is lost. A stripe is lost when its row reaches @dead_from
 * (an object offset: a failed store is 0, a rebuilding one its recovery
 * offset, none U64_MAX). Adds to *@rmw and *@rcw.
 */
static void ot_r6_model(const struct ore_layout *l, u64 off, u64 len,
			u64 dead_from, u32 *rmw, u32 *rcw)
{
	u64 U = l->stripe_length, s, end = off + len;
	u32 rows = l->stripe_unit / PAGE_SIZE, dw = l->data_width;

	for (s = rounddown(off, U); s < end; s += U) {
		u64 a = max(off, s), b = min(end, s + U), p;
		u32 n = (b - a) / PAGE_SIZE, t = 0, j;
		u8 rowt[OT_R6_MAX_ROWS] = { 0 };
		bool dead = (s / U + 1) * l->stripe_unit > dead_from;

		if (a == s && b == s + U)
			continue;	/* whole: no reads */
		for (p = (a - s) / PAGE_SIZE; p < (b - s) / PAGE_SIZE; p++)
			rowt[p % rows] = 1;
		for (j = 0; j < rows; j++)
			t += rowt[j];
		if (!dead && n + 2 * t < t * dw - n)
			(*rmw)++;
		else
			(*rcw)++;
	}
}

/* @r random writes of 1 page up to two stripes, counted as the model says. */
static void ot_r6_random_writes(struct ot_eng *e, unsigned int r,
				u64 dead_from, u32 *nrmw)
{
	struct ot_ctx *ctx = e->ctx;
	u64 U = e->layout.stripe_length;
	u32 max_pages = min_t(u64, OT_ENG_MAX_PAGES, 2 * U / PAGE_SIZE);
	unsigned int i;

	for (i = 0; i < r && !ctx->failed; i++) {
		u64 off = (u64)ot_rand(ctx, e->size / PAGE_SIZE) * PAGE_SIZE;
		u64 len = min_t(u64, e->size - off,
				(1 + ot_rand(ctx, max_pages)) * PAGE_SIZE);
		long long rmw0 = atomic64_read(&ore_stats.rmw_stripes);
		long long rcw0 = atomic64_read(&ore_stats.rcw_stripes);
		u32 want_rmw = 0, want_rcw = 0;
		int err;

		ot_r6_model(&e->layout, off, len, dead_from, &want_rmw,
			    &want_rcw);
		ot_fill(ctx, e->shadow + off, len);
		err = ot_eng_write(e, off, len, i & 1, false, NULL, NULL);
		OT_EXPECT(ctx, !err, "write %llu+%llu: %d", off, len, err);
		OT_EXPECT(ctx, atomic64_read(&ore_stats.rmw_stripes) - rmw0 ==
			  want_rmw &&
			  atomic64_read(&ore_stats.rcw_stripes) - rcw0 ==
			  want_rcw,
			  "gw %u write %llu+%llu: rmw %lld rcw %lld, model %u %u",
			  e->layout.group_width, off, len,
			  atomic64_read(&ore_stats.rmw_stripes) - rmw0,
			  atomic64_read(&ore_stats.rcw_stripes) - rcw0,
			  want_rmw, want_rcw);
		*nrmw += want_rmw;
	}
}

/*
 * RAID6 read-modify-write over random partial ranges, group widths 4 .. 8
 * (2 .. 6 data columns), stripe units of 1, 2 and 4 pages: writes of 1 page
 * up to two stripes at random offsets, each stripe's rmw or rcw checked on
 * the counters against the model (ot_r6_model), then every component on
 * the stores against a recomputed image (data, P and Q of every row). rmw
 * must be taken from 5 data columns up and never below (where it never
 * reads fewer). Then with a store rebuilding (recovery offset half way):
 * the stripes above it take rcw, those below still choose, and the image
 * is still right. Then with a store failed: every partial stripe takes
 * rcw, and with a second store failed too, everything reads back from P
 * and Q.
 */
static void ot_eng_raid6_rmw_random(struct ot_ctx *ctx)
{
	static const u32 sus[] = { 4096, 8192, 16384 };
	u32 gw, nrmw, total = 0;

	for (gw = 4; gw <= 8 && !ctx->failed; gw++) {
		struct ore_layout l = OT_L(ORE_RAID6, sus[gw % 3], gw, 1, 1, 1);
		struct ore_store *sa, *sb;
		struct ot_eng e;
		u32 a, b;
		u64 X;
		int err;

		if (!ot_eng_init(&e, ctx, &l, ctx->arg, 0x20400 + gw, gw))
			return;
		nrmw = 0;
		ot_fill(ctx, e.shadow, e.size);
		err = ot_eng_write(&e, 0, e.size, false, false, NULL, NULL);
		OT_EXPECT(ctx, !err, "prefill: %d", err);
		ot_r6_random_writes(&e, 48, U64_MAX, &nrmw);
		if (!ot_eng_verify(&e))
			goto out;

		/* rebuilding store: stripes reaching X are lost, rcw */
		a = ot_rand(ctx, gw);
		sa = ot_comp_store(&e, a);
		X = round_down(e.comp_size / 2, l.stripe_unit) + PAGE_SIZE;
		ore_store_set_state(sa, ORE_STORE_REBUILDING);
		ore_store_set_recovery_offset(sa, X);
		ot_r6_random_writes(&e, 24, X, &nrmw);
		ore_store_set_state(sa, ORE_STORE_IN_SYNC);
		if (!ot_eng_check_read(&e, 0, e.size, false, NULL) ||
		    !ot_eng_verify(&e))
			goto out;

		/* failed store: rcw (degraded); then a second one for reads */
		ore_store_set_state(sa, ORE_STORE_FAILED);
		ot_r6_random_writes(&e, 24, 0, &nrmw);
		b = (a + 1 + ot_rand(ctx, gw - 1)) % gw;
		sb = ot_comp_store(&e, b);
		ore_store_set_state(sb, ORE_STORE_FAILED);
		ot_eng_check_read(&e, 0, e.size, false, NULL);
		ot_eng_check_read(&e, PAGE_SIZE,
				  ot_eng_len(&e, 3 * e.layout.stripe_length), true,
				  NULL);
		ore_store_set_state(sb, ORE_STORE_IN_SYNC);
		ore_store_set_state(sa, ORE_STORE_IN_SYNC);
		err = ot_eng_write(&e, 0, e.size, false, false, NULL, NULL);
		OT_EXPECT(ctx, !err, "rewrite: %d", err);
		ot_eng_verify(&e);
		/* n + 2t < dw t - n needs dw >= 5 (n >= t written pages) */
		OT_EXPECT(ctx, (nrmw > 0) == (gw >= 7),
			  "gw %u: %u stripes took rmw", gw, nrmw);
		ot_diag(ctx, "gw %u su %u: %u stripes took rmw (failed %u, %u)",
			gw, l.stripe_unit, nrmw, a, b);
		total += nrmw;
out:
		ot_eng_remove(&e);
		ot_eng_put(&e);
	}
	ot_diag(ctx, "%u stripes took rmw", total);
}

/* Layouts ore_verify_layout() must reject, and some it must take. */
static void ot_eng_verify_layout(struct ot_ctx *ctx)
{
	static const struct {
		struct ore_layout l;
		u32 devs;
	} bad[] = {
		{ OT_L(ORE_RAID0, 0, 2, 1, 1, 1), 8 },		/* su 0 */
		{ OT_L(ORE_RAID0, 6144, 2, 1, 1, 1), 8 },	/* su % page */
		{ OT_L(ORE_RAID0, 32 << 20, 2, 1, 1, 1), 8 },	/* su > 16M */
		{ OT_L(ORE_RAID0, 4096, 0, 1, 1, 1), 8 },	/* gw 0 */
		{ OT_L(ORE_RAID5, 4096, 1, 1, 1, 1), 8 },	/* gw = parity */
		{ OT_L(ORE_RAID6, 4096, 2, 1, 1, 1), 8 },	/* gw = parity */
		{ OT_L(ORE_RAID0, 4096, 33, 1, 1, 1), 64 },	/* gw > 32 */
		{ OT_L(ORE_RAID0, 4096, 2, 0, 1, 1), 8 },	/* depth 0 */
		{ OT_L(ORE_RAID0, 4096, 2, 1, 0, 1), 8 },	/* count 0 */
		{ OT_L(ORE_RAID0, 4096, 2, 1, 1, 0), 8 },	/* mirrors 0 */
		{ OT_L(ORE_RAID0, 4096, 1, 1, 1, 9), 16 },	/* mirrors > 8 */
		{ OT_L(3, 4096, 4, 1, 1, 1), 8 },		/* raid 3 */
		{ OT_L(ORE_RAID5, 4096, 4, 1, 2, 1), 7 },	/* 8 comps, 7 devs */
		{ OT_L(ORE_RAID0, 4096, 32, 1, 8, 8), 4096 },	/* 2048 comps */
	};
	static const struct {
		struct ore_layout l;
		u32 devs, dw;
		u64 U, S;
	} good[] = {
		{ OT_L(ORE_RAID0, 4096, 1, 1, 1, 1), 1, 1, 4096, 4096 },
		{ OT_L(ORE_RAID5, 65536, 5, 2, 3, 1), 15, 4, 262144, 1572864 },
		{ OT_L(ORE_RAID6, 8192, 6, 1, 1, 2), 12, 4, 32768, 32768 },
		{ OT_L(ORE_RAID4, 4096, 2, 7, 1, 1), 2, 1, 4096, 28672 },
	};
	struct ore_layout l;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		l = bad[i].l;
		if (!OT_EXPECT_EQ(ctx, ore_verify_layout(bad[i].devs, &l),
				  -EINVAL))
			ot_diag(ctx, "bad layout %u accepted", i);
	}
	for (i = 0; i < ARRAY_SIZE(good); i++) {
		l = good[i].l;
		if (!OT_EXPECT_EQ(ctx, ore_verify_layout(good[i].devs, &l), 0))
			continue;
		OT_EXPECT_EQ(ctx, l.data_width, good[i].dw);
		OT_EXPECT_EQ(ctx, l.stripe_length, good[i].U);
		OT_EXPECT_EQ(ctx, l.super_stripe, good[i].S);
		OT_EXPECT_EQ(ctx, l.num_comps, good[i].devs);
	}
}

/* The model agrees with ore_calc_stripe_info() on every page of a layout. */
static void ot_eng_model(struct ot_ctx *ctx)
{
	static const struct ore_layout layouts[] = {
		OT_L(ORE_RAID5, 8192, 5, 3, 2, 1),
		OT_L(ORE_RAID6, 4096, 7, 2, 3, 2),
		OT_L(ORE_RAID4, 4096, 3, 1, 2, 1),
	};
	struct ore_striping_info si;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(layouts); i++) {
		struct ore_layout l = layouts[i];
		u64 loff, row, off;
		u32 g, col, n = 0;

		if (!OT_EXPECT_EQ(ctx, ore_verify_layout(64, &l), 0))
			continue;
		for (loff = 0; loff < 7 * l.super_stripe && n < 4;
		     loff += PAGE_SIZE) {
			ot_map(&l, loff, &g, &row, &col, &off);
			ore_calc_stripe_info(&l, loff, &si);
			if (si.obj_offset != off || si.group != g ||
			    si.row != row || si.col != col ||
			    si.dev != ot_comp(&l, g, ot_pos(&l, row, col), 0) ||
			    si.par_dev != ot_comp(&l, g, ot_pos(&l, row,
							l.data_width), 0) ||
			    (l.parity == 2 &&
			     si.q_dev != ot_comp(&l, g, ot_pos(&l, row,
						l.data_width + 1), 0))) {
				ot_fail(ctx, __LINE__,
					"layout %u offset %llu: dev %u par %u q %u obj %llu, model group %u row %llu col %u obj %llu",
					i, loff, si.dev, si.par_dev, si.q_dev,
					si.obj_offset, g, row, col, off);
				n++;
			}
		}
	}
}

/* ore_discard() of [@off, @off + @len), sync or async. */
static int ot_eng_discard(struct ot_eng *e, u64 off, u64 len, bool async)
{
	struct ot_call call = { };
	struct ore_io_state *ios;
	int err;

	init_completion(&call.done);
	err = ore_get_rw_state(&e->layout, &e->oc, false, off, len, &ios);
	if (err)
		return err;
	ios->private = &call;
	if (async)
		ios->done = ot_eng_done;
	err = ore_discard(ios);
	if (!err && async)
		wait_for_completion(&call.done);
	if (!err)
		err = ios->error;
	ore_put_io_state(ios);
	return err;
}

/*
 * Discard over file stores (holes punched: the range reads as zeros, the
 * rest is untouched) for a layout without parity; -EOPNOTSUPP with parity.
 * Case arg: the index in ot_layouts[].
 */
static void ot_eng_discard_case(struct ot_ctx *ctx)
{
	const struct ore_layout *l = &ot_layouts[ctx->arg];
	long long live0 = atomic64_read(&ore_stats.ios_live);
	unsigned int r;
	struct ot_eng e;
	int err;

	if (!ot_eng_init(&e, ctx, l, false, 0x20200 + ctx->arg,
			 0x20200 + ctx->arg))
		return;
	ot_fill(ctx, e.shadow, e.size);
	err = ot_eng_write(&e, 0, e.size, false, false, NULL, NULL);
	if (!OT_EXPECT(ctx, !err, "write: %d", err))
		goto out;
	if (e.layout.parity) {
		OT_EXPECT_EQ(ctx, ot_eng_discard(&e, 0, e.size, false),
			     -EOPNOTSUPP);
		ot_eng_check_read(&e, 0, e.size, false, NULL);
		goto out;
	}
	for (r = 0; r < 8; r++) {
		u64 pages = e.size / PAGE_SIZE;
		u64 off = (u64)ot_rand(ctx, pages) * PAGE_SIZE;
		u64 len = (1 + ot_rand(ctx, pages - off / PAGE_SIZE)) *
			  PAGE_SIZE;

		err = ot_eng_discard(&e, off, len, r & 1);
		if (!OT_EXPECT(ctx, !err, "discard %llu+%llu: %d", off, len,
			       err))
			break;
		memset(e.shadow + off, 0, len);
		if (!ot_eng_check_read(&e, 0, e.size, false, NULL))
			break;
	}
	ot_eng_verify(&e);
out:
	ot_eng_remove(&e);
	ot_eng_put(&e);
	OT_EXPECT_EQ(ctx, atomic64_read(&ore_stats.ios_live), live0);
}

/*
 * A component object deleted behind the engine's back (after ore_create()
 * and a full write) is a lost component, not a hole: a read rebuilds it
 * from the redundancy (degraded, counted in missing_comps, the store left
 * in service); without redundancy the read fails with -EIO, never zeros.
 * Case arg: the index in ot_layouts[].
 */
static void ot_eng_missing_comp(struct ot_ctx *ctx)
{
	const struct ore_layout *l = &ot_layouts[ctx->arg];	/* unverified */
	long long miss0, deg0;
	struct ot_eng_res res;
	struct ore_store *s;
	struct page **pages;
	struct ot_eng e;
	unsigned int nr;
	u32 c;
	int err;

	if (!ot_eng_init(&e, ctx, l, false, 0x20200 + ctx->arg, 1))
		return;
	ot_fill(ctx, e.shadow, e.size);
	if (!OT_EXPECT_EQ(ctx, ot_eng_write(&e, 0, e.size, false, false,
					    NULL, NULL), 0))
		goto out;
	/* the component holding logical offset 0 (a data component) */
	c = ot_comp(&e.layout, 0, ot_pos(&e.layout, 0, 0), 0);
	s = ot_comp_store(&e, c);
	if (!OT_EXPECT_EQ(ctx, s->ops->remove(s, e.oc.oid), 0))
		goto out;
	miss0 = atomic64_read(&ore_stats.missing_comps);
	deg0 = atomic64_read(&ore_stats.degraded_reads);
	if (e.layout.parity || e.layout.mirrors_p1 > 1) {
		if (ot_eng_check_read(&e, 0, e.size, false, &res)) {
			OT_EXPECT(ctx, res.degraded, "not degraded");
			OT_EXPECT_EQ(ctx, res.failed_comp, c);
		}
		/* asynchronously too */
		ot_eng_check_read(&e, 0, e.layout.stripe_unit, true, NULL);
		OT_EXPECT(ctx, atomic64_read(&ore_stats.degraded_reads) > deg0,
			  "degraded_reads not counted");
	} else {
		nr = e.size / PAGE_SIZE;
		pages = ot_alloc_pages(nr);
		if (!OT_EXPECT(ctx, pages, "no memory"))
			goto out;
		err = ot_eng_rw(&e, false, 0, e.size, pages, nr, false, false,
				NULL, NULL);
		OT_EXPECT_EQ(ctx, err, -EIO);
		ot_free_pages(pages, nr);
	}
	OT_EXPECT(ctx, atomic64_read(&ore_stats.missing_comps) > miss0,
		  "missing_comps not counted");
	OT_EXPECT(ctx, !ore_store_failed(s), "the whole store was failed");
	/*
	 * A write (and a truncate) does not make the lost component again:
	 * a new file would read as zeros where its data was.
	 */
	err = ot_eng_write(&e, 0, e.layout.stripe_length, false, false,
			   NULL, &res);
	if (e.layout.parity || e.layout.mirrors_p1 > 1)
		OT_EXPECT(ctx, !err && res.degraded, "write: %d, degraded %d",
			  err, res.degraded);
	else
		OT_EXPECT_EQ(ctx, err, -EIO);
	OT_EXPECT(ctx, ore_truncate(&e.layout, &e.oc, e.size) ==
		  (e.layout.parity || e.layout.mirrors_p1 > 1 ? 0 : -ENOENT),
		  "truncate");
	{
		u64 len;

		OT_EXPECT_EQ(ctx, s->ops->length(s, e.oc.oid, &len), -ENOENT);
	}
	if (e.layout.parity || e.layout.mirrors_p1 > 1)
		ot_eng_check_read(&e, 0, e.size, false, NULL);
out:
	ot_eng_remove(&e);
	ot_eng_put(&e);
}

/*
 * Which components of @e exist: every one that @size reaches
 * (ore_layout_obj_size() > 0) must; with @exact, no other one may.
 */
static void ot_eng_expect_made(struct ot_eng *e, u64 size, bool exact,
			       const char *when)
{
	u32 c;

	for (c = 0; c < e->layout.num_comps; c++) {
		struct ore_store *s = ot_comp_store(e, c);
		bool reached = ore_layout_obj_size(&e->layout, c, size);
		u64 len;
		int err = s->ops->length(s, e->oc.oid, &len);

		if (reached || exact)
			OT_EXPECT(e->ctx, reached ? !err : err == -ENOENT,
				  "%s: component %u (reached %d by %llu): length %d",
				  when, c, reached, size, err);
	}
}

/*
 * Sized components (&ore_components.sized): a new object has none; a
 * write makes exactly those its end reaches, a sparse write those of its
 * hole too, and the ones not reached read as empty (no degraded read, no
 * missing component counted); a truncate makes those its size reaches. A
 * reached component deleted behind the engine's back is still lost: read
 * degraded (or -EIO), not made again by a write. Case arg: the index in
 * ot_layouts[].
 */
static void ot_eng_sized(struct ot_ctx *ctx)
{
	const struct ore_layout *l = &ot_layouts[ctx->arg];	/* unverified */
	struct ore_io_state *ios;
	long long miss0, deg0;
	struct ot_eng_res res;
	u64 off2, len, end;
	struct ore_store *s;
	struct ot_eng e;
	u32 c;
	int err;

	if (!ot_eng_init(&e, ctx, l, false, 0x20400 + ctx->arg, 2))
		return;
	/* a new object: nothing made */
	if (!OT_EXPECT_EQ(ctx, ore_get_io_state(&e.layout, &e.oc, &ios), 0))
		goto out;
	OT_EXPECT_EQ(ctx, ore_remove(ios), 0);
	ore_put_io_state(ios);
	e.oc.sized = true;
	e.oc.made = 0;
	miss0 = atomic64_read(&ore_stats.missing_comps);
	deg0 = atomic64_read(&ore_stats.degraded_reads);

	/* a small file: its data component and the parity or mirrors */
	ot_fill(ctx, e.shadow, PAGE_SIZE);
	if (!OT_EXPECT_EQ(ctx, ot_eng_write(&e, 0, PAGE_SIZE, true, false,
					    NULL, &res), 0))
		goto out;
	OT_EXPECT(ctx, !res.degraded, "first write degraded");
	OT_EXPECT_EQ(ctx, e.oc.made, PAGE_SIZE);
	ot_eng_expect_made(&e, PAGE_SIZE, true, "one page written");
	ot_eng_check_read(&e, 0, e.layout.stripe_length * 2, false, &res);
	OT_EXPECT(ctx, !res.degraded, "read of a small object degraded");

	/* a write past a hole: the hole's components are made too */
	off2 = e.layout.stripe_length * 2 + e.layout.stripe_unit;
	end = off2 + PAGE_SIZE;
	if (!OT_EXPECT(ctx, end <= e.size, "object too small"))
		goto out;
	ot_fill(ctx, e.shadow + off2, PAGE_SIZE);
	if (!OT_EXPECT_EQ(ctx, ot_eng_write(&e, off2, PAGE_SIZE, false, false,
					    NULL, &res), 0))
		goto out;
	OT_EXPECT(ctx, !res.degraded, "sparse write degraded");
	OT_EXPECT_EQ(ctx, e.oc.made, end);
	ot_eng_expect_made(&e, end, true, "sparse write");
	ot_eng_check_read(&e, 0, e.size, true, &res);
	OT_EXPECT(ctx, !res.degraded, "read over the hole degraded");
	OT_EXPECT_EQ(ctx, atomic64_read(&ore_stats.missing_comps), miss0);
	OT_EXPECT_EQ(ctx, atomic64_read(&ore_stats.degraded_reads), deg0);

	/* truncate down and up */
	OT_EXPECT_EQ(ctx, ore_truncate(&e.layout, &e.oc, PAGE_SIZE), 0);
	memset(e.shadow + PAGE_SIZE, 0, e.size - PAGE_SIZE);
	ot_eng_check_read(&e, 0, e.size, false, &res);
	OT_EXPECT(ctx, !res.degraded, "read after the truncate degraded");
	len = e.size - e.layout.stripe_length;
	OT_EXPECT_EQ(ctx, ore_truncate(&e.layout, &e.oc, len), 0);
	OT_EXPECT_EQ(ctx, e.oc.made, len);
	ot_eng_expect_made(&e, len, false, "truncate up");
	ot_eng_check_read(&e, 0, e.size, false, &res);
	OT_EXPECT(ctx, !res.degraded, "read after the truncate up degraded");
	OT_EXPECT_EQ(ctx, atomic64_read(&ore_stats.missing_comps), miss0);

	/* a reached component deleted behind our back is lost */
	c = ot_comp(&e.layout, 0, ot_pos(&e.layout, 0, 0), 0);
	s = ot_comp_store(&e, c);
	if (!OT_EXPECT_EQ(ctx, s->ops->remove(s, e.oc.oid), 0))
		goto out;
	if (e.layout.parity || e.layout.mirrors_p1 > 1) {
		if (ot_eng_check_read(&e, 0, PAGE_SIZE, false, &res))
			OT_EXPECT(ctx, res.degraded && res.failed_comp == c,
				  "lost component: degraded %d failed %d",
				  res.degraded, res.failed_comp);
		err = ot_eng_write(&e, 0, PAGE_SIZE, false, false, NULL, &res);
		OT_EXPECT(ctx, !err && res.degraded, "write: %d, degraded %d",
			  err, res.degraded);
	} else {
		struct page **pages = ot_alloc_pages(1);

		if (!OT_EXPECT(ctx, pages, "no memory"))
			goto out;
		err = ot_eng_rw(&e, false, 0, PAGE_SIZE, pages, 1, false,
				false, NULL, NULL);
		OT_EXPECT_EQ(ctx, err, -EIO);
		ot_free_pages(pages, 1);
	}
	OT_EXPECT(ctx, atomic64_read(&ore_stats.missing_comps) > miss0,
		  "missing_comps not counted");
	OT_EXPECT_EQ(ctx, s->ops->length(s, e.oc.oid, &len), -ENOENT);
out:
	ot_eng_remove(&e);
	ot_eng_put(&e);
}

/* A store whose writes all fail with one errno; reads give zeros. */
struct ot_err_store {
	struct ore_store store;
	int error;
	struct ore_store **swap_slot;	/* set to swap_to at the first submit */
	struct ore_store *swap_to;
};

static void ot_err_submit(struct ore_store_io *sio)
{
	struct ot_err_store *es = container_of(sio->store,
					       struct ot_err_store, store);
	struct iov_iter iter;

	if (!sio->write) {
		iov_iter_bvec(&iter, ITER_DEST, sio->bvec, sio->nr_bvec,
			      sio->len);
		iov_iter_zero(sio->len, &iter);
	}
	if (es->swap_slot) {	/* the user replaces a store meanwhile */
		WRITE_ONCE(*es->swap_slot, es->swap_to);
		es->swap_slot = NULL;
	}
	sio->error = sio->write ? es->error : 0;
	sio->end_io(sio);
}

static int ot_err_op(struct ore_store *store, u64 oid)
{
	return 0;
}

static int ot_err_truncate(struct ore_store *store, u64 oid, u64 size)
{
	return 0;
}

static int ot_err_length(struct ore_store *store, u64 oid, u64 *len)
{
	*len = 0;
	return 0;
}

static void ot_err_release(struct ore_store *store)
{
}

static const struct ore_store_ops ot_err_ops = {
	.submit		= ot_err_submit,
	.create		= ot_err_op,
	.remove		= ot_err_op,
	.truncate	= ot_err_truncate,
	.length		= ot_err_length,
	.flush		= ot_err_op,
	.release	= ot_err_release,
};

/* Set up @es as a store named "test-@name" whose writes fail with @error. */
static void ot_err_store_init(struct ot_err_store *es, int error,
			      const char *name)
{
	memset(es, 0, sizeof(*es));
	es->error = error;
	es->store.ops = &ot_err_ops;
	kref_init(&es->store.kref);
	snprintf(es->store.name, sizeof(es->store.name), "test-%s", name);
}

struct ot_dev_errors {
	int error[4];
	unsigned int calls;
};

static void ot_record_dev_error(struct ore_io_state *ios, u32 comp,
				struct ore_store *store, u64 offset, int error)
{
	struct ot_dev_errors *de = ios->private;

	de->calls++;
	if (comp < ARRAY_SIZE(de->error))
		de->error[comp] = error;
}

/*
 * One write where component 0's store is full (-ENOSPC) and component
 * 1's is broken (-EIO): ore_check_io() must report each with its own
 * error, so that a user can fail the broken store while it retries the
 * full one (@nospc alone says nothing about the others).
 */
static void ot_eng_nospc_eio(struct ot_ctx *ctx)
{
	struct ore_layout l = OT_L(ORE_RAID0, PAGE_SIZE, 4, 1, 1, 1);
	struct ot_err_store es[2];
	struct ore_store *stores[4];
	struct ore_components oc = { .oid = 0x20300, .numdevs = 4,
				     .stores = stores };
	struct ot_dev_errors de = { };
	struct ore_io_state *ios;
	struct page **pages;
	unsigned int i;
	int err;

	if (ctx->nr_fstores < 2) {
		ot_skip(ctx, "not enough file stores");
		return;
	}
	if (!OT_EXPECT_EQ(ctx, ore_verify_layout(4, &l), 0))
		return;
	ot_err_store_init(&es[0], -ENOSPC, "enospc");
	ot_err_store_init(&es[1], -EIO, "eio");
	for (i = 0; i < 2; i++) {
		stores[i] = &es[i].store;
		stores[i + 2] = ctx->fstores[i];
	}
	pages = ot_alloc_pages(4);
	if (!OT_EXPECT(ctx, pages, "no memory"))
		return;
	err = ore_get_io_state(&l, &oc, &ios);
	if (!OT_EXPECT_EQ(ctx, err, 0))
		goto out;
	err = ore_create(ios);
	ore_put_io_state(ios);
	if (!OT_EXPECT_EQ(ctx, err, 0))
		goto out;
	err = ore_get_rw_state(&l, &oc, false, 0, 4 * PAGE_SIZE, &ios);
	if (!OT_EXPECT_EQ(ctx, err, 0))
		goto out;
	ios->pages = pages;
	ios->nr_pages = 4;
	ios->private = &de;
	err = ore_write(ios);
	OT_EXPECT_EQ(ctx, err, -EIO);
	OT_EXPECT(ctx, ios->nospc, "nospc not set");
	ore_check_io(ios, ot_record_dev_error);
	ore_put_io_state(ios);
	OT_EXPECT_EQ(ctx, de.calls, 2);
	OT_EXPECT_EQ(ctx, de.error[0], -ENOSPC);
	OT_EXPECT_EQ(ctx, de.error[1], -EIO);
	for (i = 0; i < 2; i++)
		if (ctx->fstores[i]->ops->remove(ctx->fstores[i], oc.oid))
			ot_fail(ctx, __LINE__, "cannot remove 0x%llx", oc.oid);
out:
	ot_free_pages(pages, 4);
}

/* ore_check_io() callback: a write error takes the store out of service */
static void ot_fail_store(struct ore_io_state *ios, u32 comp,
			  struct ore_store *store, u64 offset, int error)
{
	if (error != -ENOSPC)
		ore_store_set_state(store, ORE_STORE_FAILED);
}

/*
 * Sized components and a store that refuses: a RAID5 object over three
 * file stores and one whose writes fail (case arg 0: -ENOSPC, 1: -EIO).
 * The write succeeds degraded, but the extent made is not raised when it
 * ends (the refused component may be missing). ore_check_io()'s callback
 * then takes the store out of service on -EIO, as exofs_io_error() does,
 * and the extent made must rise then: the component is made by the
 * store's rebuild (left where it was, a rebuild would take the component
 * for one never made, and reads would return zeros for its data); on
 * -ENOSPC the store stays in service and the extent where it was. Once
 * the store is failed (skipped), the same write raises it.
 */
static void ot_eng_sized_refused(struct ot_ctx *ctx)
{
	struct ore_layout l = OT_L(ORE_RAID5, PAGE_SIZE, 4, 1, 1, 1);
	int error = ctx->arg ? -EIO : -ENOSPC;
	struct ot_err_store es;
	struct ore_store *stores[4];
	struct ore_components oc = { .oid = 0x20310 + ctx->arg, .numdevs = 4,
				     .stores = stores, .sized = true };
	struct ore_io_state *ios;
	struct page **pages;
	unsigned int i, pass;
	int err;

	if (ctx->nr_fstores < 3) {
		ot_skip(ctx, "not enough file stores");
		return;
	}
	if (!OT_EXPECT_EQ(ctx, ore_verify_layout(4, &l), 0))
		return;
	ot_err_store_init(&es, error, ctx->arg ? "eio" : "enospc");
	for (i = 0; i < 3; i++)
		stores[i] = ctx->fstores[i];
	stores[3] = &es.store;
	pages = ot_alloc_pages(3);
	if (!OT_EXPECT(ctx, pages, "no memory"))
		return;
	for (pass = 0; pass < 2; pass++) {
		if (pass)
			ore_store_set_state(&es.store, ORE_STORE_FAILED);
		err = ore_get_rw_state(&l, &oc, false, 0, 3 * PAGE_SIZE, &ios);
		if (!OT_EXPECT_EQ(ctx, err, 0))
			break;
		ios->pages = pages;
		ios->nr_pages = 3;
		err = ore_write(ios);
		OT_EXPECT(ctx, !err && ios->degraded, "pass %u: write %d, degraded %d",
			  pass, err, ios->degraded);
		if (!pass) {
			OT_EXPECT_EQ(ctx, oc.made, 0);
			OT_EXPECT_EQ(ctx, ore_check_io(ios, ot_fail_store), 0);
			OT_EXPECT(ctx, ore_store_failed(&es.store) == !!ctx->arg,
				  "store failed %d after %d",
				  ore_store_failed(&es.store), error);
		}
		ore_put_io_state(ios);
		OT_EXPECT_EQ(ctx, oc.made,
			     pass || ctx->arg ? 3 * PAGE_SIZE : 0);
	}
	for (i = 0; i < 3; i++)
		if (ctx->fstores[i]->ops->remove(ctx->fstores[i], oc.oid))
			ot_fail(ctx, __LINE__, "cannot remove 0x%llx", oc.oid);
	ot_free_pages(pages, 3);
}

/*
 * Sized components and a store replaced while a write is in flight: a
 * RAID5 object over four stores that take every write, the store of
 * component 3 failed. The write does not try that component (its store
 * is out of service), and before it ends the user puts a replacement
 * (rebuilding) in the failed store's place (the store of component 0
 * swaps it in from its submit). The write must still raise the extent
 * made: the component is made by the replacement's rebuild, which takes
 * a component the extent does not reach for one never made and skips it
 * (exofs_replace read zeros for a new file's data that way).
 */
static void ot_eng_sized_replaced(struct ot_ctx *ctx)
{
	struct ore_layout l = OT_L(ORE_RAID5, PAGE_SIZE, 4, 1, 1, 1);
	static const char * const names[] = { "s0", "s1", "s2", "failed", "new" };
	struct ot_err_store es[5];
	struct ore_store *stores[4];
	struct ore_components oc = { .oid = 0x20320, .numdevs = 4,
				     .stores = stores, .sized = true };
	struct ore_io_state *ios;
	struct page **pages;
	unsigned int i;
	int err;

	if (!OT_EXPECT_EQ(ctx, ore_verify_layout(4, &l), 0))
		return;
	for (i = 0; i < 5; i++)
		ot_err_store_init(&es[i], 0, names[i]);
	for (i = 0; i < 4; i++)
		stores[i] = &es[i].store;
	ore_store_set_state(&es[3].store, ORE_STORE_FAILED);
	ore_store_set_state(&es[4].store, ORE_STORE_REBUILDING);
	es[0].swap_slot = &stores[3];
	es[0].swap_to = &es[4].store;
	pages = ot_alloc_pages(3);
	if (!OT_EXPECT(ctx, pages, "no memory"))
		return;
	err = ore_get_rw_state(&l, &oc, false, 0, 3 * PAGE_SIZE, &ios);
	if (!OT_EXPECT_EQ(ctx, err, 0))
		goto out;
	ios->pages = pages;
	ios->nr_pages = 3;
	err = ore_write(ios);
	OT_EXPECT(ctx, !err && ios->degraded, "write %d, degraded %d", err,
		  ios->degraded);
	OT_EXPECT(ctx, stores[3] == &es[4].store, "the store was not replaced");
	OT_EXPECT_EQ(ctx, ore_check_io(ios, ot_fail_store), 0);
	ore_put_io_state(ios);
	OT_EXPECT_EQ(ctx, oc.made, 3 * PAGE_SIZE);
	OT_EXPECT(ctx, !ore_store_failed(&es[4].store), "the replacement failed");
out:
	ot_free_pages(pages, 3);
}

/*
 * Many partial-stripe writes in flight at once (case arg: the index in
 * ot_layouts[], on block stores): up to 48, one page each, at a random
 * page of its own stripe (ORE's users keep two writes of one stripe
 * apart), all started before any is waited for. Those that find others in
 * flight start their reads from ORE's finish pass, together with the
 * other writes' reads and writes (ore_stats.batched_reads); every
 * component must then hold the data and parity the model computes, and
 * everything reads back.
 */
#define OT_INFLIGHT	48

static void ot_eng_inflight(struct ot_ctx *ctx)
{
	struct ot_inflight {
		struct ot_call call;
		struct ore_io_state *ios;
		struct page *page;
	} *w;
	const struct ore_layout *l = &ot_layouts[ctx->arg];
	long long batched0 = atomic64_read(&ore_stats.batched_reads);
	u64 S, stripes, off;
	unsigned int i, n = 0, want;
	struct ot_eng e;
	int err;

	if (!ot_eng_init(&e, ctx, l, true, 0x20500 + ctx->arg, 1))
		return;
	w = kcalloc(OT_INFLIGHT, sizeof(*w), GFP_KERNEL);
	if (!OT_EXPECT(ctx, w, "no memory"))
		goto out;
	/* a first pass of full stripes: parity everywhere, nothing to read */
	ot_fill(ctx, e.shadow, e.size);
	if (!OT_EXPECT_EQ(ctx, ot_eng_write(&e, 0, e.size, true, false, NULL,
					    NULL), 0))
		goto out;
	S = e.layout.stripe_length;
	stripes = div64_u64(e.size, S);
	want = min_t(u64, OT_INFLIGHT, stripes);
	for (i = 0; i < want; i++) {
		off = i * div64_u64(stripes, want) * S +
		      ot_rand(ctx, div64_u64(S, PAGE_SIZE)) * PAGE_SIZE;
		ot_fill(ctx, e.shadow + off, PAGE_SIZE);
		w[i].page = alloc_page(GFP_KERNEL);
		if (!OT_EXPECT(ctx, w[i].page, "no memory"))
			break;
		memcpy_to_page(w[i].page, 0, e.shadow + off, PAGE_SIZE);
		init_completion(&w[i].call.done);
		err = ore_get_rw_state(&e.layout, &e.oc, false, off, PAGE_SIZE,
				       &w[i].ios);
		if (!OT_EXPECT_EQ(ctx, err, 0))
			break;
		w[i].ios->pages = &w[i].page;
		w[i].ios->nr_pages = 1;
		w[i].ios->private = &w[i].call;
		w[i].ios->done = ot_eng_done;
		err = ore_write(w[i].ios);
		if (!OT_EXPECT(ctx, !err, "write %u at %llu: %d", i, off, err)) {
			ore_put_io_state(w[i].ios);
			w[i].ios = NULL;
			break;
		}
		n++;
	}
	for (i = 0; i < n; i++) {
		wait_for_completion(&w[i].call.done);
		OT_EXPECT(ctx, !w[i].ios->error, "write %u: %d", i,
			  w[i].ios->error);
		ore_put_io_state(w[i].ios);
	}
	if (!OT_EXPECT_EQ(ctx, n, want))
		goto out;
	OT_EXPECT(ctx, atomic64_read(&ore_stats.batched_reads) > batched0,
		  "no write started its reads from a finish pass");
	/* every write is over: none may still count as in flight */
	OT_EXPECT_EQ(ctx, ore_partial_writes_in_flight(), 0);
	ot_eng_verify(&e);
	ot_eng_check_read(&e, 0, e.size, true, NULL);
out:
	if (w)
		for (i = 0; i < OT_INFLIGHT; i++)
			if (w[i].page)
				__free_page(w[i].page);
	kfree(w);
	ot_eng_put(&e);
}

/*
 * A store rebuilding with a recovery offset (the state the rebuild of
 * issue 11 drives): below the offset its data is read from it, above it
 * reads come from the redundancy (parity, or the other mirror), and it is
 * written everywhere. To tell where a read came from, the component
 * object of the rebuilding store is first overwritten with a pattern the
 * redundancy does not have: below the offset reads must return the
 * pattern (read from the store), above it the real data.
 */
#define OT_STALE_BYTE	0x5a

static void ot_eng_rebuilding_case(struct ot_ctx *ctx)
{
	const struct ore_layout *l;
	long long live0 = atomic64_read(&ore_stats.ios_live), deg0;
	u32 su, g0, col, pos_a, g, a, mir;
	u64 row, off, loff, X, lo_page = U64_MAX, hi_page = U64_MAX;
	struct ot_eng_res res;
	struct ore_store *s;
	u8 *expect = NULL, *stale = NULL, *saved, *got = NULL;
	struct ot_eng e;
	int err;

	if (!ot_eng_init(&e, ctx, &ot_layouts[ctx->arg], false,
			 0x20400 + ctx->arg, 0x20400 + ctx->arg))
		return;
	l = &e.layout;		/* verified */
	su = l->stripe_unit;
	ot_fill(ctx, e.shadow, e.size);
	err = ot_eng_write(&e, 0, e.size, false, false, NULL, NULL);
	if (!OT_EXPECT(ctx, !err, "write: %d", err))
		goto out;

	/* a: mirror 0 of the component holding logical page 0 */
	ot_map(l, 0, &g0, &row, &col, &off);
	pos_a = ot_pos(l, row, col);
	a = ot_comp(l, g0, pos_a, 0);
	s = ot_comp_store(&e, a);
	X = (e.rows / 2) * su;		/* the recovery offset */

	expect = vmalloc(e.size);
	stale = vmalloc(e.comp_size);
	got = vmalloc(PAGE_SIZE);
	if (!OT_EXPECT(ctx, expect && stale && got, "no memory"))
		goto out;
	memset(stale, OT_STALE_BYTE, e.comp_size);
	err = ot_store_rw(ctx, s, e.oc.oid, 0, stale, e.comp_size, true,
			  false, PAGE_SIZE);
	if (!OT_EXPECT(ctx, !err, "overwriting component %u: %d", a, err))
		goto out;

	/*
	 * What a read returns: the pattern where a data page is on @a below
	 * X and @a is the copy read (mirrors: row % mirrors_p1 is tried
	 * first), the real data elsewhere.
	 */
	memcpy(expect, e.shadow, e.size);
	for (loff = 0; loff < e.size; loff += PAGE_SIZE) {
		ot_map(l, loff, &g, &row, &col, &off);
		if (g != g0 || ot_pos(l, row, col) != pos_a)
			continue;
		mir = row % l->mirrors_p1;
		if (off < X && mir == 0) {
			memset(expect + loff, OT_STALE_BYTE, PAGE_SIZE);
			if (lo_page == U64_MAX)
				lo_page = loff;
		} else if (off >= X && mir == 0 && hi_page == U64_MAX) {
			hi_page = loff;
		}
	}
	if (!OT_EXPECT(ctx, lo_page != U64_MAX && hi_page != U64_MAX,
		       "no page of component %u on both sides of %llu", a, X))
		goto out;

	ore_store_set_state(s, ORE_STORE_REBUILDING);
	ore_store_set_recovery_offset(s, X);
	OT_EXPECT(ctx, ore_store_writable(s) && !ore_store_failed(s),
		  "rebuilding store not writable");
	OT_EXPECT(ctx, ore_store_readable(s, X - PAGE_SIZE, PAGE_SIZE) &&
		  !ore_store_readable(s, X - PAGE_SIZE, 2 * PAGE_SIZE) &&
		  !ore_store_readable(s, X, PAGE_SIZE),
		  "readable() disagrees with the recovery offset %llu", X);

	saved = e.shadow;	/* compare the reads with @expect */
	e.shadow = expect;
	deg0 = atomic64_read(&ore_stats.degraded_reads);
	if (ot_eng_check_read(&e, 0, e.size, false, &res)) {
		OT_EXPECT(ctx, res.degraded, "whole read not degraded");
		OT_EXPECT(ctx, res.failed_comp < 0,
			  "a rebuilding store reported failed: component %d",
			  res.failed_comp);
	}
	OT_EXPECT(ctx, l->mirrors_p1 > 1 ||
		  atomic64_read(&ore_stats.degraded_reads) > deg0,
		  "no degraded read counted");
	/* below X: from the store, not degraded */
	if (ot_eng_check_read(&e, lo_page, PAGE_SIZE, true, &res))
		OT_EXPECT(ctx, !res.degraded && res.failed_comp < 0,
			  "read below the recovery offset degraded");
	/* above X: from the redundancy */
	if (ot_eng_check_read(&e, hi_page, PAGE_SIZE, true, &res))
		OT_EXPECT(ctx, res.degraded && res.failed_comp < 0,
			  "read above the recovery offset not degraded (%d)",
			  res.failed_comp);
	e.shadow = saved;

	/* writes reach it above X: write hi_page's stripe, read @a directly */
	loff = round_down(hi_page, l->stripe_unit * l->data_width);
	ot_fill(ctx, e.shadow + loff, (u64)su * l->data_width);
	err = ot_eng_write(&e, loff, (u64)su * l->data_width, false, false,
			   NULL, &res);
	OT_EXPECT(ctx, !err && !res.degraded, "write above X: %d, degraded %d",
		  err, res.degraded);
	ot_map(l, hi_page, &g, &row, &col, &off);
	err = ot_store_rw(ctx, s, e.oc.oid, off, got, PAGE_SIZE, false, false,
			  PAGE_SIZE);
	OT_EXPECT(ctx, !err && !memcmp(got, e.shadow + hi_page, PAGE_SIZE),
		  "write above the recovery offset did not reach the store (%d)",
		  err);

	/* rebuilt: in sync again, everything rewritten and checked */
	ore_store_set_state(s, ORE_STORE_IN_SYNC);
	err = ot_eng_write(&e, 0, e.size, false, false, NULL, NULL);
	OT_EXPECT(ctx, !err, "rewrite: %d", err);
	ot_eng_check_read(&e, 0, e.size, false, NULL);
	ot_eng_verify(&e);
out:
	vfree(got);
	vfree(stale);
	vfree(expect);
	ot_eng_remove(&e);
	ot_eng_put(&e);
	OT_EXPECT_EQ(ctx, atomic64_read(&ore_stats.ios_live), live0);
}

static u64 ot_store_ios(void)
{
	return atomic64_read(&ore_stats.store_dio) +
	       atomic64_read(&ore_stats.store_buffered);
}

/*
 * ore_rebuild(): component @a is overwritten with a stale pattern and
 * rebuilt from the others, a few rows at a time in object order
 * (ore_layout_comp_stripes()), its recovery offset raised after each range;
 * for RAID6 another store is failed meanwhile (two columns come from P and
 * Q). One pass: each call reads one copy of each position it can and
 * writes @a's position only (at most group_width + mirrors_p1 store I/Os:
 * writing every component would be twice that), and its reads are no more
 * than the degraded read of the same stripes. Then every component equals
 * the model,
 * and with another store failed instead the object still reads back: the
 * rebuilt data is right. Too many stores lost: the rebuild fails cleanly.
 */
static void ot_eng_rebuild_case(struct ot_ctx *ctx)
{
	const struct ore_layout *l;
	long long live0 = atomic64_read(&ore_stats.ios_live);
	u32 su, g0, col, a, b, other = U32_MAX, c;
	u64 row, off, U, rows, loff, calls = 0, over = 0, io0, io1, io2;
	struct page **pages = NULL;
	unsigned int np;
	struct ore_store *s, *so = NULL;
	u8 *stale = NULL;
	struct ot_eng e;
	int err;

	if (!ot_eng_init(&e, ctx, &ot_layouts[ctx->arg], false,
			 0x20800 + ctx->arg, 0x20800 + ctx->arg))
		return;
	l = &e.layout;
	su = l->stripe_unit;
	U = l->stripe_length;
	ot_fill(ctx, e.shadow, e.size);
	err = ot_eng_write(&e, 0, e.size, false, false, NULL, NULL);
	if (!OT_EXPECT(ctx, !err, "write: %d", err))
		goto out;

	ot_map(l, 0, &g0, &row, &col, &off);
	a = ot_comp(l, g0, ot_pos(l, row, col), 0);
	s = ot_comp_store(&e, a);
	/* b: another store of the same group, failed for RAID6 and at the end */
	b = ot_comp(l, g0, (ot_pos(l, row, col) + 1) % l->group_width,
		    l->mirrors_p1 > 1 ? 1 : 0);
	if (l->mirrors_p1 > 1)
		b = a + 1;	/* the other copy */
	stale = vmalloc(e.comp_size);
	np = 3 * U / PAGE_SIZE;
	pages = ot_alloc_pages(np);
	if (!OT_EXPECT(ctx, stale && pages, "no memory"))
		goto out;
	memset(stale, OT_STALE_BYTE, e.comp_size);
	err = ot_store_rw(ctx, s, e.oc.oid, 0, stale, e.comp_size, true,
			  false, PAGE_SIZE);
	if (!OT_EXPECT(ctx, !err, "overwriting component %u: %d", a, err))
		goto out;

	ore_store_set_state(s, ORE_STORE_REBUILDING);
	ore_store_set_recovery_offset(s, 0);
	if (l->parity == 2) {
		other = ot_comp(l, g0, (ot_pos(l, row, col) + 2) %
				l->group_width, 0);
		so = ot_comp_store(&e, other);
		ore_store_set_state(so, ORE_STORE_FAILED);
	}
	for (off = 0; off < e.comp_size; off += rows * su) {
		loff = ore_layout_comp_stripes(l, a, off,
					       min_t(u64, 3, (e.comp_size - off) / su),
					       &rows);
		if (!OT_EXPECT(ctx, loff + rows * U <= e.size && rows,
			       "comp %u offset %llu: stripes at %llu x %llu beyond %llu",
			       a, off, loff, rows, e.size))
			break;
		io0 = ot_store_ios();
		err = ot_eng_rw(&e, false, loff, rows * U, pages, np, false,
				false, NULL, NULL);
		io1 = ot_store_ios();
		if (!OT_EXPECT(ctx, !err, "degraded read at %llu: %d", loff,
			       err))
			break;
		err = ore_rebuild(l, &e.oc, loff, rows * U, NULL, NULL);
		if (!OT_EXPECT(ctx, !err, "rebuild of %llu bytes at %llu: %d",
			       rows * U, loff, err))
			break;
		io2 = ot_store_ios();
		if (io2 - io1 > l->group_width + l->mirrors_p1 ||
		    io2 - io1 > io1 - io0 + l->mirrors_p1)
			over++;
		calls++;
		ore_store_set_recovery_offset(s, off + rows * su);
	}
	OT_EXPECT(ctx, calls && !over,
		  "%llu of %llu rebuild calls did more store I/O than one read of each position and the writes of the rebuilt one",
		  over, calls);
	ore_store_set_state(s, ORE_STORE_IN_SYNC);
	if (so)
		ore_store_set_state(so, ORE_STORE_IN_SYNC);
	ot_eng_verify(&e);

	/* the rebuilt copy serves: lose another store, read everything */
	ore_store_set_state(ot_comp_store(&e, b), ORE_STORE_FAILED);
	ot_eng_check_read(&e, 0, e.size, false, NULL);

	/*
	 * Beyond the redundancy: @a rebuilding, its other copies and every
	 * copy of as many other positions of its group as there is parity
	 * lost.
	 */
	ore_store_set_state(s, ORE_STORE_REBUILDING);
	ore_store_set_recovery_offset(s, 0);
	for (c = 0; c < l->num_comps; c++) {
		u32 pa = ot_pos(l, row, col), p = (c / l->mirrors_p1) %
						 l->group_width;

		if (c == a || c / l->mirrors_p1 / l->group_width != g0)
			continue;
		if (p == pa || (p + l->group_width - pa) % l->group_width <=
		    l->parity)
			ore_store_set_state(ot_comp_store(&e, c),
					    ORE_STORE_FAILED);
	}
	loff = ore_layout_comp_stripes(l, a, 0, 1, &rows);
	err = ore_rebuild(l, &e.oc, loff, U, NULL, NULL);
	OT_EXPECT(ctx, err == -EIO, "rebuild with too many stores lost: %d",
		  err);
	OT_EXPECT_EQ(ctx, ore_rebuild(l, &e.oc, PAGE_SIZE, U, NULL, NULL),
		     -EINVAL);
	for (c = 0; c < l->num_comps; c++)
		ore_store_set_state(ot_comp_store(&e, c), ORE_STORE_IN_SYNC);
out:
	ot_free_pages(pages, np);
	vfree(stale);
	ot_eng_remove(&e);
	ot_eng_put(&e);
	OT_EXPECT_EQ(ctx, atomic64_read(&ore_stats.ios_live), live0);
}

/* ore_scrub() over [0, @e->size) in steps of about 1 MiB of whole stripes. */
static int ot_eng_scrub_all(struct ot_eng *e, bool repair, u64 *mm)
{
	u64 U = e->layout.stripe_length;
	u64 step = max_t(u64, 1, SZ_1M / U) * U, off;
	int err = 0;

	*mm = 0;
	for (off = 0; off < e->size && !err; off += step)
		err = ore_scrub(&e->layout, &e->oc, off,
				min_t(u64, step, e->size - off), repair, mm,
				NULL, NULL);
	return err;
}

/*
 * ore_scrub(): a clean object checks with no mismatch. Then one page of P
 * of one stripe row is overwritten (parity layouts: counts 1 for the row,
 * plus 1 for each other copy of P, which now differs from copy 0) and, with
 * mirrors, one page of copy 1 of a data unit (counts 1). A check counts them
 * and writes nothing (the stale pages are still on the stores); a repair
 * counts the same and rewrites them; a second check counts 0 and every
 * component equals the model. A failed store: -ENODEV; a misaligned range
 * or a layout without redundancy: -EINVAL.
 */
static void ot_eng_scrub_case(struct ot_ctx *ctx)
{
	const struct ore_layout *l;
	long long live0 = atomic64_read(&ore_stats.ios_live);
	u32 su, g, col, comp[2], n = 0, i;
	u64 row, off, obj[2], U, mm, want = 0;
	u8 *stale = NULL, *got = NULL;
	struct ot_eng e;
	int err;

	if (!ot_eng_init(&e, ctx, &ot_layouts[ctx->arg], false,
			 0x20c00 + ctx->arg, 0x20c00 + ctx->arg))
		return;
	l = &e.layout;
	su = l->stripe_unit;
	U = l->stripe_length;
	if (!l->parity && l->mirrors_p1 < 2) {
		OT_EXPECT_EQ(ctx, ore_scrub(l, &e.oc, 0, U, false, &mm, NULL,
					    NULL), -EINVAL);
		goto out;
	}
	ot_fill(ctx, e.shadow, e.size);
	err = ot_eng_write(&e, 0, e.size, false, false, NULL, NULL);
	if (!OT_EXPECT(ctx, !err, "write: %d", err))
		goto out;
	err = ot_eng_scrub_all(&e, false, &mm);
	if (!OT_EXPECT(ctx, !err && !mm, "check of a clean object: %d, %llu mismatches",
		       err, mm))
		goto out;

	/* the stripe after the first: a row > 0, an offset inside the object */
	ot_map(l, e.size > U ? U : 0, &g, &row, &col, &off);
	if (l->parity) {
		comp[n] = ot_comp(l, g, ot_pos(l, row, l->data_width), 0);
		obj[n++] = row * su + (su > PAGE_SIZE ? PAGE_SIZE : 0);
		want += l->mirrors_p1;
	}
	if (l->mirrors_p1 > 1) {
		comp[n] = ot_comp(l, g, ot_pos(l, row, 0), 1);
		obj[n++] = row * su;
		want++;
	}
	stale = vmalloc(PAGE_SIZE);
	got = vmalloc(PAGE_SIZE);
	if (!OT_EXPECT(ctx, stale && got, "no memory"))
		goto out;
	memset(stale, OT_STALE_BYTE, PAGE_SIZE);
	for (i = 0; i < n; i++) {
		err = ot_store_rw(ctx, ot_comp_store(&e, comp[i]), e.oc.oid,
				  obj[i], stale, PAGE_SIZE, true, false,
				  PAGE_SIZE);
		if (!OT_EXPECT(ctx, !err, "overwriting component %u at %llu: %d",
			       comp[i], obj[i], err))
			goto out;
	}

	err = ot_eng_scrub_all(&e, false, &mm);
	OT_EXPECT(ctx, !err && mm == want, "check: %d, %llu mismatches, expected %llu",
		  err, mm, want);
	for (i = 0; i < n; i++) {
		err = ot_store_rw(ctx, ot_comp_store(&e, comp[i]), e.oc.oid,
				  obj[i], got, PAGE_SIZE, false, false,
				  PAGE_SIZE);
		OT_EXPECT(ctx, !err && !memcmp(got, stale, PAGE_SIZE),
			  "check wrote component %u at %llu (%d)", comp[i],
			  obj[i], err);
	}
	err = ot_eng_scrub_all(&e, true, &mm);
	OT_EXPECT(ctx, !err && mm == want, "repair: %d, %llu mismatches, expected %llu",
		  err, mm, want);
	err = ot_eng_scrub_all(&e, false, &mm);
	OT_EXPECT(ctx, !err && !mm, "check after the repair: %d, %llu mismatches",
		  err, mm);
	ot_eng_verify(&e);

	ore_store_set_state(ot_comp_store(&e, comp[0]), ORE_STORE_FAILED);
	mm = 0;
	OT_EXPECT_EQ(ctx, ore_scrub(l, &e.oc, 0, e.size > U ? 2 * U : U, false,
				    &mm, NULL, NULL), -ENODEV);
	ore_store_set_state(ot_comp_store(&e, comp[0]), ORE_STORE_IN_SYNC);
	OT_EXPECT_EQ(ctx, ore_scrub(l, &e.oc, PAGE_SIZE, U, false, &mm, NULL,
				    NULL), -EINVAL);
	OT_EXPECT_EQ(ctx, mm, 0);
out:
	vfree(got);
	vfree(stale);
	ot_eng_remove(&e);
	ot_eng_put(&e);
	OT_EXPECT_EQ(ctx, atomic64_read(&ore_stats.ios_live), live0);
}

static void ot_eng_no_leaks(struct ot_ctx *ctx)
{
	OT_EXPECT_EQ(ctx, atomic64_read(&ore_stats.ios_live), 0);
	OT_EXPECT_EQ(ctx, ore_partial_writes_in_flight(), 0);
}

const struct ot_case ot_engine_cases[] = {
	{ "engine_verify_layout", ot_eng_verify_layout },
	{ "engine_layout_model", ot_eng_model },
	{ "engine_raid0_file_stores", ot_eng_file, 0 },
	{ "engine_raid0_block_stores", ot_eng_bdev, 0 },
	{ "engine_raid0_groups_file_stores", ot_eng_file, 1 },
	{ "engine_raid0_groups_block_stores", ot_eng_bdev, 1 },
	{ "engine_raid1_file_stores", ot_eng_file, 2 },
	{ "engine_raid1_block_stores", ot_eng_bdev, 2 },
	{ "engine_raid4_file_stores", ot_eng_file, 3 },
	{ "engine_raid4_block_stores", ot_eng_bdev, 3 },
	{ "engine_raid5_file_stores", ot_eng_file, 4 },
	{ "engine_raid5_block_stores", ot_eng_bdev, 4 },
	{ "engine_raid5_groups_file_stores", ot_eng_file, 5 },
	{ "engine_raid5_groups_block_stores", ot_eng_bdev, 5 },
	{ "engine_raid5_mirrored_file_stores", ot_eng_file, 6 },
	{ "engine_raid5_mirrored_block_stores", ot_eng_bdev, 6 },
	{ "engine_raid6_file_stores", ot_eng_file, 7 },
	{ "engine_raid6_block_stores", ot_eng_bdev, 7 },
	{ "engine_raid6_groups_file_stores", ot_eng_file, 8 },
	{ "engine_raid6_groups_block_stores", ot_eng_bdev, 8 },
	{ "engine_raid6_wide_file_stores", ot_eng_file, 9 },
	{ "engine_raid6_wide_block_stores", ot_eng_bdev, 9 },
	{ "engine_r4w_counts", ot_eng_r4w },
	{ "engine_raid6_rmw_parity_every_subset", ot_eng_pq_rmw },
	{ "engine_raid6_rmw_file_stores", ot_eng_raid6_rmw, 0 },
	{ "engine_raid6_rmw_block_stores", ot_eng_raid6_rmw, 1 },
	{ "engine_raid6_rmw_random_file_stores", ot_eng_raid6_rmw_random, 0 },
	{ "engine_raid6_rmw_random_block_stores", ot_eng_raid6_rmw_random, 1 },
	{ "engine_discard_raid0_groups", ot_eng_discard_case, 1 },
	{ "engine_discard_raid1", ot_eng_discard_case, 2 },
	{ "engine_discard_raid5_refused", ot_eng_discard_case, 4 },
	{ "engine_missing_component_raid0", ot_eng_missing_comp, 0 },
	{ "engine_missing_component_raid1", ot_eng_missing_comp, 2 },
	{ "engine_missing_component_raid5", ot_eng_missing_comp, 4 },
	{ "engine_missing_component_raid6", ot_eng_missing_comp, 7 },
	{ "engine_sized_components_raid0", ot_eng_sized, 0 },
	{ "engine_sized_components_raid1", ot_eng_sized, 2 },
	{ "engine_sized_components_raid5", ot_eng_sized, 4 },
	{ "engine_sized_components_raid5_groups", ot_eng_sized, 5 },
	{ "engine_sized_components_raid6", ot_eng_sized, 7 },
	{ "engine_sized_components_not_made_past_a_refusal", ot_eng_sized_refused, 0 },
	{ "engine_partial_writes_in_flight_raid5", ot_eng_inflight, 4 },
	{ "engine_partial_writes_in_flight_raid6", ot_eng_inflight, 7 },
	{ "engine_partial_writes_in_flight_raid6_wide", ot_eng_inflight, 9 },
	{ "engine_sized_components_made_once_the_store_fails",
	  ot_eng_sized_refused, 1 },
	{ "engine_sized_components_made_when_the_store_is_replaced_meanwhile",
	  ot_eng_sized_replaced },
	{ "engine_nospc_and_eio_reported_apart", ot_eng_nospc_eio },
	{ "engine_rebuilding_store_raid5", ot_eng_rebuilding_case, 4 },
	{ "engine_rebuilding_store_raid1", ot_eng_rebuilding_case, 2 },
	{ "engine_rebuilding_store_raid6", ot_eng_rebuilding_case, 7 },
	{ "engine_rebuild_raid1", ot_eng_rebuild_case, 2 },
	{ "engine_rebuild_raid5", ot_eng_rebuild_case, 4 },
	{ "engine_rebuild_raid5_groups", ot_eng_rebuild_case, 5 },
	{ "engine_rebuild_raid5_mirrored", ot_eng_rebuild_case, 6 },
	{ "engine_rebuild_raid6", ot_eng_rebuild_case, 7 },
	{ "engine_rebuild_raid6_groups", ot_eng_rebuild_case, 8 },
	{ "engine_scrub_raid0_refused", ot_eng_scrub_case, 0 },
	{ "engine_scrub_raid1", ot_eng_scrub_case, 2 },
	{ "engine_scrub_raid4", ot_eng_scrub_case, 3 },
	{ "engine_scrub_raid5", ot_eng_scrub_case, 4 },
	{ "engine_scrub_raid5_groups", ot_eng_scrub_case, 5 },
	{ "engine_scrub_raid5_mirrored", ot_eng_scrub_case, 6 },
	{ "engine_scrub_raid6", ot_eng_scrub_case, 7 },
	{ "engine_scrub_raid6_groups", ot_eng_scrub_case, 8 },
	{ "engine_no_leaked_io_states", ot_eng_no_leaks },
};

const unsigned int ot_nr_engine_cases = ARRAY_SIZE(ot_engine_cases);
