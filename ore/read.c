// SPDX-License-Identifier: GPL-2.0
/*
 * ORE reads: map a logical range onto one mirror of each data component,
 * and repair what a failed component could not give (another mirror, then
 * reconstruction from parity) in ore_wq.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/mm.h>
#include <linux/highmem.h>

#include "ios.h"

/* ------------------------------------------------------------------ */
/* degraded reads */

/* Can no mirror of group position @pos be read at [@obj_off, +@len)? */
bool ore_pos_dead(struct ore_io_state *ios, u32 group, u32 pos,
		  u64 obj_off, u64 len)
{
	const struct ore_layout *layout = ios->layout;
	u32 m;

	for (m = 0; m < layout->mirrors_p1; m++)
		if (ore_comp_readable(ios, ore_layout_comp(layout, group, pos, m),
				      obj_off, len))
			return false;
	return true;
}

/*
 * Read @npages pages at @obj_off of group position @pos into @pages,
 * trying each live mirror in turn. Synchronous.
 */
static int ore_read_pos_sync(struct ore_io_state *ios, u32 group, u32 pos,
			     u64 obj_off, struct page **pages,
			     unsigned int npages)
{
	const struct ore_layout *layout = ios->layout;
	u64 row = obj_off / layout->stripe_unit;
	u32 k;

	for (k = 0; k < layout->mirrors_p1; k++) {
		u32 mirror = (u32)((row + k) % layout->mirrors_p1);
		u32 comp = ore_layout_comp(layout, group, pos, mirror);
		struct ore_batch *batch;
		unsigned int i;
		bool failed;
		int err = 0;

		if (!ore_comp_readable(ios, comp, obj_off,
				       (u64)npages * PAGE_SIZE))
			continue;
		batch = ore_batch_alloc(ios, NULL);
		if (!batch)
			return -ENOMEM;
		for (i = 0; i < npages && !err; i++)
			err = ore_batch_add(batch, comp, obj_off + i * PAGE_SIZE,
					    pages[i], 0, PAGE_SIZE, false);
		if (err) {
			ore_batch_free(batch);
			return err;
		}
		ore_batch_run_sync(batch);
		failed = batch->failed;
		ore_batch_free(batch);
		if (!failed)
			return 0;
	}
	return -EIO;
}

/*
 * Rebuild the @npages pages at @obj_off of group position @pos from the
 * other positions of its group, into @dst (bvecs of the failed sub-I/O).
 */
static int ore_rebuild_range(struct ore_io_state *ios, u32 group, u32 pos,
			     u64 obj_off, struct bio_vec *dst,
			     unsigned int npages)
{
	const struct ore_layout *layout = ios->layout;
	u32 gw = layout->group_width, su = layout->stripe_unit;
	struct page **bufs;	/* [p * npages + i] */
	bool lost[ORE_MAX_GROUP_WIDTH] = { };
	void *ptrs[ORE_MAX_GROUP_WIDTH];
	struct page *scratch;
	unsigned int i;
	u32 p;
	int err = 0;

	if (!layout->parity)
		return -EIO;
	bufs = kcalloc(gw * npages, sizeof(*bufs), GFP_NOIO);
	scratch = alloc_page(GFP_NOIO);
	if (!bufs || !scratch) {
		err = -ENOMEM;
		goto out;
	}
	for (p = 0; p < gw; p++) {
		if (p == pos)
			continue;
		for (i = 0; i < npages; i++) {
			bufs[p * npages + i] = ore_own_page(ios);
			if (!bufs[p * npages + i]) {
				err = -ENOMEM;
				goto out;
			}
		}
		if (ore_pos_dead(ios, group, p, obj_off,
				 (u64)npages * PAGE_SIZE) ||
		    ore_read_pos_sync(ios, group, p, obj_off,
				      &bufs[p * npages], npages))
			lost[p] = true;
	}

	for (i = 0; i < npages && !err; i++) {
		u64 off = obj_off + (u64)i * PAGE_SIZE;
		u64 row = off / su;
		int fail[2] = { -1, -1 };
		int nfail = 0;

		for (p = 0; p < gw; p++) {
			u32 col = ore_layout_pos_col(layout, row, p);

			if (p == pos) {
				ptrs[col] = page_address(scratch);
			} else {
				ptrs[col] = page_address(bufs[p * npages + i]);
				if (!lost[p])
					continue;
			}
			if (nfail == 2) {
				nfail = 3;
				break;
			}
			fail[nfail++] = col;
		}
		if (nfail > (int)layout->parity) {
			pr_err("object 0x%llx: cannot rebuild offset %llu of group %u: %d components lost, parity %u\n",
			       ios->oc->oid, off, group, nfail, layout->parity);
			err = -EIO;
			break;
		}
		err = ore_recover_pages(layout, ptrs, PAGE_SIZE, fail[0],
					fail[1]);
		if (!err)
			memcpy_to_page(dst[i].bv_page, dst[i].bv_offset,
				       page_address(scratch), dst[i].bv_len);
	}
out:
	if (scratch)
		__free_page(scratch);
	kfree(bufs);
	return err;
}

/*
 * Write the repaired data of @sub back where it failed its checksum, and
 * count it on its store. The caller holds the stripes (ios->rewrite_bad).
 */
static void ore_rewrite_sub(struct ore_io_state *ios, struct ore_sub *sub)
{
	struct ore_store *store = sub->sio.store;
	struct ore_batch *batch;
	unsigned int i;
	u64 off = sub->sio.offset;
	int err = -ENOMEM;

	atomic_inc(&store->nr_csum_errors);
	atomic64_inc(&ore_stats.csum_errors);
	batch = ore_batch_alloc(ios, NULL);
	if (batch) {
		for (i = 0, err = 0; i < sub->sio.nr_bvec && !err; i++) {
			err = ore_batch_add(batch, sub->comp, off,
					    sub->bvec[i].bv_page,
					    sub->bvec[i].bv_offset,
					    sub->bvec[i].bv_len, true);
			off += sub->bvec[i].bv_len;
		}
		if (!err) {
			ore_batch_run_sync(batch);
			err = batch->failed ? -EIO : 0;
		}
		ore_batch_free(batch);
	}
	if (err) {
		pr_err_ratelimited("object 0x%llx component %u on store %s: %u bytes at offset %llu failed their checksum and were rebuilt, but rewriting them failed: %d\n",
				   ios->oc->oid, sub->comp, store->name,
				   sub->sio.len, sub->sio.offset, err);
		return;
	}
	atomic_inc(&store->nr_csum_repairs);
	atomic64_inc(&ore_stats.csum_repairs);
	pr_warn_ratelimited("object 0x%llx component %u on store %s: %u bytes at offset %llu failed their checksum: rebuilt from the redundancy and rewritten\n",
			    ios->oc->oid, sub->comp, store->name, sub->sio.len,
			    sub->sio.offset);
}

/*
 * Repair one failed read sub-I/O: another mirror first, then parity. Data
 * that failed its checksum is rewritten when the caller holds the stripes.
 */
static int ore_repair_sub(struct ore_io_state *ios, struct ore_sub *sub)
{
	const struct ore_layout *layout = ios->layout;
	u32 group = sub->comp / layout->mirrors_p1 / layout->group_width;
	u32 pos = sub->comp / layout->mirrors_p1 % layout->group_width;
	unsigned int i, n = sub->sio.nr_bvec;
	bool bad = sub->sio.error == -EBADMSG;
	struct page **pages;
	int err = -EIO;

	if (bad && !ios->csum_errors++) {
		ios->csum_comp = sub->comp;
		ios->csum_offset = sub->sio.offset;
	}

	pages = kcalloc(n, sizeof(*pages), GFP_NOIO);
	if (!pages)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		pages[i] = sub->bvec[i].bv_page;

	/* our read bvecs are whole pages at offset 0 (see ore_map_data) */
	if (layout->mirrors_p1 > 1)
		err = ore_read_pos_sync(ios, group, pos, sub->sio.offset,
					pages, n);
	if (err && layout->parity)
		err = ore_rebuild_range(ios, group, pos, sub->sio.offset,
					sub->bvec, n);
	kfree(pages);
	if (err) {
		if (bad && ios->rewrite_bad)
			pr_err_ratelimited("object 0x%llx component %u on store %s: %u bytes at offset %llu fail their checksum, and no mirror or parity gives them back: %d\n",
					   ios->oc->oid, sub->comp,
					   sub->sio.store->name, sub->sio.len,
					   sub->sio.offset, err);
		return err;
	}
	ios->degraded = true;
	atomic64_inc(&ore_stats.degraded_reads);
	if (bad && ios->rewrite_bad)
		ore_rewrite_sub(ios, sub);
	return 0;
}

int ore_repair_batch(struct ore_io_state *ios, struct ore_batch *batch)
{
	struct ore_sub *sub;
	int err = 0;

	list_for_each_entry(sub, &batch->subs, node) {
		if (!sub->sio.error)
			continue;
		err = ore_repair_sub(ios, sub);
		if (err)
			break;
	}
	return err;
}

/* ------------------------------------------------------------------ */
/* reads */

static void ore_read_repair_work(struct work_struct *work)
{
	struct ore_io_state *ios = &container_of(work, struct ore_io_priv,
						 work)->ios;
	struct ore_batch *batch = ore_priv(ios)->batch;

	ios->error = ore_repair_batch(ios, batch);
	ore_priv(ios)->batch = NULL;
	ore_batch_free(batch);
	ore_ios_finish(ios);
}

static void ore_read_done(struct ore_batch *batch)
{
	struct ore_io_state *ios = batch->ios;

	if (batch->failed) {
		ore_priv(ios)->batch = batch;
		INIT_WORK(&ore_priv(ios)->work, ore_read_repair_work);
		queue_work(ore_wq, &ore_priv(ios)->work);
		return;
	}
	ore_batch_free(batch);
	ore_ios_finish(ios);
}

/**
 * ore_read() - read a logical range of an object
 * @ios: an I/O state from ore_get_rw_state() with @pages set
 *
 * Reads the data components (one mirror each); a component that fails or
 * whose store is marked failed is read from another mirror or rebuilt from
 * parity, and @ios->degraded is set. Without @ios->done the call waits.
 * @ios->done may run in interrupt context.
 *
 * Return: 0 when started (async) or done (sync); a negative errno when the
 * I/O could not start (done() is not called) or, synchronously, failed.
 */
int ore_read(struct ore_io_state *ios)
{
	u64 len;
	int err;

	err = ore_check_range(ios, &len);
	if (err)
		return err;
	return ore_start_data(ios, ore_read_done, len, ios->pages, false);
}
EXPORT_SYMBOL_GPL(ore_read);

