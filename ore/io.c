// SPDX-License-Identifier: GPL-2.0
/*
 * ORE I/O: split a logical byte range into per-component object I/O, add
 * parity, read what a partial stripe needs (read-4-write), and rebuild what
 * a failed component cannot give back (degraded reads).
 *
 * An I/O state runs in three stages:
 *
 *  1. mapping: the logical range is walked stripe unit by stripe unit and
 *     every piece is appended to the sub-I/O of its component (struct
 *     ore_sub); contiguous pieces of one component merge into one sub-I/O.
 *     The sub-I/Os of one stage form a batch (struct ore_batch).
 *  2. submission: every sub-I/O goes to its object store; a store marked
 *     failed gets nothing and its sub-I/O counts as failed.
 *  3. completion: when the batch is over, reads with failed sub-I/Os are
 *     repaired from mirrors or parity in ore_wq; writes check that every
 *     group kept enough components; then the caller's done() runs.
 *
 * Parity writes that cover only part of a stripe are planned in the
 * writer's context (the read-4-write choice and its reads, never waiting);
 * when those reads are over, their parity and writes are finished in
 * ore_wq (ore_write_finish()), or at once when the cache held everything.
 *
 * Locking: an I/O state is owned by one caller; ORE takes no lock on the
 * data path. Two I/O states writing the same stripe of a parity layout at
 * once race on its parity: the caller serializes them (exofs by page locks
 * and writeback, oreblk by its stripe locks).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/mm.h>
#include <linux/highmem.h>
#include <linux/raid/xor.h>

#include <ore/r4w.h>

#include "internal.h"

/* Pages per sub-I/O before a new one is started (512 KiB). */
#define ORE_SUB_MAX_BVECS	128
/* Bytes of one component discard before a new one is started. */
#define ORE_DISCARD_SUB_MAX	SZ_1G

struct ore_batch;

/* One read or write of one component object. */
struct ore_sub {
	struct ore_store_io sio;
	struct ore_batch *batch;
	struct list_head node;
	u32 comp;
	u32 cap;		/* entries in @bvec */
	bool skipped;		/* its store's state kept it: never submitted */
	struct bio_vec bvec[] __counted_by(cap);
};

/* The sub-I/Os of one stage of one I/O state. */
struct ore_batch {
	struct ore_io_state *ios;
	atomic_t pending;
	bool failed;
	struct list_head subs;
	void (*done)(struct ore_batch *batch);	/* NULL: complete @wait */
	struct completion wait;
	struct ore_sub **cur;			/* per component, being filled */
	u32 cap;				/* bvecs per new sub-I/O */
};

static void ore_ios_finish(struct ore_io_state *ios);

/* ------------------------------------------------------------------ */
/* batches */

static struct ore_batch *ore_batch_alloc(struct ore_io_state *ios,
					 void (*done)(struct ore_batch *))
{
	struct ore_batch *batch;

	batch = kzalloc(sizeof(*batch), GFP_NOIO);
	if (!batch)
		return NULL;
	batch->cur = kcalloc(ios->layout->num_comps, sizeof(*batch->cur),
			     GFP_NOIO);
	if (!batch->cur) {
		kfree(batch);
		return NULL;
	}
	batch->ios = ios;
	batch->done = done;
	/*
	 * A component gets no more contiguous pages than the I/O has, or than
	 * one stripe unit when read-4-write reads a column.
	 */
	batch->cap = clamp_t(u32, max_t(u32, ios->nr_pages,
					ios->layout->stripe_unit / PAGE_SIZE),
			     1, ORE_SUB_MAX_BVECS);
	INIT_LIST_HEAD(&batch->subs);
	init_completion(&batch->wait);
	return batch;
}

static void ore_batch_free(struct ore_batch *batch)
{
	struct ore_sub *sub, *next;

	if (!batch)
		return;
	list_for_each_entry_safe(sub, next, &batch->subs, node)
		kfree(sub);
	kfree(batch->cur);
	kfree(batch);
}

/*
 * Record a failed component in the I/O state (any context). @error is the
 * component's own error, 0 when its store was skipped as failed. A
 * component keeps its first error, except that any other error replaces
 * -ENOSPC (a full store is not a broken one, a broken one must not pass
 * for full).
 */
static void ore_note_failure(struct ore_io_state *ios, u32 comp, u64 offset,
			     int error)
{
	int old;

	if (!test_and_set_bit(comp, ios->failed_mask)) {
		if (cmpxchg(&ios->failed_comp, -1, (int)comp) == -1)
			ios->failed_offset = offset;
	}
	if (!error)
		return;
	old = READ_ONCE(ios->comp_error[comp]);
	while (!old || (old == -ENOSPC && error != -ENOSPC)) {
		int prev = cmpxchg(&ios->comp_error[comp], old, error);

		if (prev == old)
			break;
		old = prev;
	}
}

static void ore_batch_put(struct ore_batch *batch)
{
	if (!atomic_dec_and_test(&batch->pending))
		return;
	if (batch->done)
		batch->done(batch);
	else
		complete(&batch->wait);
}

static void ore_sub_end_io(struct ore_store_io *sio)
{
	struct ore_sub *sub = container_of(sio, struct ore_sub, sio);
	struct ore_batch *batch = sub->batch;

	if (sio->error == -ENOENT && !sio->write && batch->ios->oc->lazy) {
		unsigned int i;

		/* components made lazily: a missing one is a hole */
		for (i = 0; i < sio->nr_bvec; i++)
			memzero_bvec(&sio->bvec[i]);
		sio->error = 0;
	} else if (sio->error == -ENOENT) {
		/*
		 * Components exist from ore_create() on: a missing one is
		 * lost (deleted behind our back), not a hole, and is not
		 * made again by a write (no_create). As md with a bad
		 * block: this component fails for this I/O (a read is
		 * rebuilt from the redundancy); the store is not failed
		 * here, ore_check_io() tells the user -ENOENT.
		 */
		atomic64_inc(&ore_stats.missing_comps);
		atomic_inc(&sio->store->nr_errors);
		pr_warn_ratelimited("object 0x%llx component %u is missing on store %s (%s at offset %llu len %u): a lost component\n",
				    sio->oid, sub->comp, sio->store->name,
				    sio->write ? "write" : "read", sio->offset,
				    sio->len);
		ore_note_failure(batch->ios, sub->comp, sio->offset,
				 sio->error);
		WRITE_ONCE(batch->failed, true);
	} else if (sio->error) {
		/* the store counted it in nr_errors */
		pr_err_ratelimited("%s of object 0x%llx component %u on store %s at offset %llu len %u failed: %d\n",
				   sio->write ? "write" : "read", sio->oid,
				   sub->comp, sio->store->name, sio->offset,
				   sio->len, sio->error);
		ore_note_failure(batch->ios, sub->comp, sio->offset,
				 sio->error);
		if (sio->error == -ENOSPC)
			WRITE_ONCE(batch->ios->nospc, true);
		WRITE_ONCE(batch->failed, true);
	}
	ore_batch_put(batch);
}

/*
 * Append @len bytes of @page at @pgoff to component @comp at object offset
 * @obj_off, merging with the component's current sub-I/O when contiguous.
 * No @page: a discard of the range (a write without memory).
 */
static int ore_batch_add(struct ore_batch *batch, u32 comp, u64 obj_off,
			 struct page *page, u32 pgoff, u32 len, bool write)
{
	struct ore_io_state *ios = batch->ios;
	struct ore_sub *sub = batch->cur[comp];
	u32 cap = page ? batch->cap : 0;

	if (sub && (sub->sio.offset + sub->sio.len != obj_off ||
		    (page && sub->sio.nr_bvec == sub->cap) ||
		    (!page && sub->sio.len > ORE_DISCARD_SUB_MAX - len)))
		sub = NULL;
	if (!sub) {
		/* the header zeroed, the bvecs filled as they come */
		sub = kmalloc(struct_size(sub, bvec, cap), GFP_NOIO);
		if (!sub)
			return -ENOMEM;
		memset(sub, 0, sizeof(*sub));
		sub->cap = cap;
		sub->batch = batch;
		sub->comp = comp;
		sub->sio.store = ore_comp_store(ios->oc, comp);
		sub->sio.oid = ios->oc->oid;
		sub->sio.offset = obj_off;
		sub->sio.bvec = sub->bvec;
		sub->sio.write = write;
		sub->sio.fua = write && ios->fua;
		sub->sio.discard = !page;
		/* components exist from ore_create() on: see docs/stores.md */
		sub->sio.no_create = !ios->oc->lazy;
		sub->sio.end_io = ore_sub_end_io;
		sub->sio.private = sub;
		list_add_tail(&sub->node, &batch->subs);
		batch->cur[comp] = sub;
	}
	if (page)
		bvec_set_page(&sub->bvec[sub->sio.nr_bvec++], page, len, pgoff);
	sub->sio.len += len;
	return 0;
}

/* Submit every sub-I/O of @batch; its done() runs when all are over. */
static void ore_batch_submit(struct ore_batch *batch)
{
	struct ore_sub *sub;

	atomic_set(&batch->pending, 1);
	list_for_each_entry(sub, &batch->subs, node) {
		struct ore_store *store = sub->sio.store;
		bool usable = sub->sio.write ? ore_store_writable(store) :
			      ore_store_readable(store, sub->sio.offset,
						 sub->sio.len);

		if (!usable) {
			sub->skipped = true;
			sub->sio.error = -ENODEV;
			/*
			 * A failed store counts as a failed component; a
			 * rebuilding one is read from the redundancy above
			 * its recovery offset, and that is no error of it.
			 */
			if (ore_store_failed(store))
				ore_note_failure(batch->ios, sub->comp,
						 sub->sio.offset, 0);
			WRITE_ONCE(batch->failed, true);
			continue;
		}
		atomic_inc(&batch->pending);
		store->ops->submit(&sub->sio);
	}
	ore_batch_put(batch);
}

static void ore_batch_run_sync(struct ore_batch *batch)
{
	batch->done = NULL;
	ore_batch_submit(batch);
	wait_for_completion(&batch->wait);
}

/* ------------------------------------------------------------------ */
/* mapping */

/*
 * Can component @comp be read at [@obj_off, @obj_off + @len) in @ios: its
 * store's state allows it and it did not fail in this I/O?
 */
static bool ore_comp_readable(struct ore_io_state *ios, u32 comp, u64 obj_off,
			      u64 len)
{
	return !test_bit(comp, ios->failed_mask) &&
	       ore_store_readable(ore_comp_store(ios->oc, comp), obj_off, len);
}

/*
 * Which mirror of position @pos to read on stripe row @row, for
 * [@obj_off, @obj_off + @len).
 */
static u32 ore_pick_mirror(struct ore_io_state *ios, u32 group, u32 pos,
			   u64 row, u64 obj_off, u64 len)
{
	const struct ore_layout *layout = ios->layout;
	u32 m = layout->mirrors_p1, k;

	if (m == 1)
		return 0;
	for (k = 0; k < m; k++) {
		u32 mirror = (u32)((row + k) % m);
		u32 comp = ore_layout_comp(layout, group, pos, mirror);

		if (ore_comp_readable(ios, comp, obj_off, len)) {
			if (k)		/* the preferred copy is gone */
				ios->degraded = true;
			return mirror;
		}
	}
	return (u32)(row % m);
}

/*
 * Map the data of logical range [@loff, @loff + @len) held in @pages (page
 * i holds @loff + i * PAGE_SIZE) onto component reads (one mirror each) or
 * writes (every mirror). @loff is page aligned. No @pages: discards.
 */
static int ore_map_data(struct ore_batch *batch, u64 loff, u64 len,
			struct page **pages, bool write)
{
	struct ore_io_state *ios = batch->ios;
	const struct ore_layout *layout = ios->layout;
	unsigned int idx = 0;
	int err;

	while (len) {
		struct ore_striping_info si;
		u64 chunk, done;
		u32 pos, m, first_m, last_m, l;

		ore_calc_stripe_info(layout, loff, &si);
		chunk = min_t(u64, len, layout->stripe_unit - si.unit_off);
		pos = ore_layout_stripe_pos(layout, si.row, si.col);
		if (write) {
			first_m = 0;
			last_m = layout->mirrors_p1 - 1;
		} else {
			first_m = ore_pick_mirror(ios, si.group, pos, si.row,
						  si.obj_offset, chunk);
			last_m = first_m;
		}
		for (done = 0; done < chunk; done += l, idx++) {
			/* a discard (no pages) takes the piece whole */
			l = pages ? min_t(u64, PAGE_SIZE, chunk - done) : chunk;
			for (m = first_m; m <= last_m; m++) {
				u32 comp = ore_layout_comp(layout, si.group,
							   pos, m);

				err = ore_batch_add(batch, comp,
						    si.obj_offset + done,
						    pages ? pages[idx] : NULL,
						    0, l, write);
				if (err)
					return err;
			}
		}
		loff += chunk;
		len -= chunk;
	}
	return 0;
}

/* Write @npages pages of stripe column @col at @obj_off to every mirror. */
static int ore_map_column(struct ore_batch *batch, u32 group, u64 row,
			  u32 col, u64 obj_off, struct page **pages,
			  unsigned int npages)
{
	const struct ore_layout *layout = batch->ios->layout;
	u32 pos = ore_layout_stripe_pos(layout, row, col);
	unsigned int i;
	u32 m;
	int err;

	for (i = 0; i < npages; i++)
		for (m = 0; m < layout->mirrors_p1; m++) {
			err = ore_batch_add(batch,
					    ore_layout_comp(layout, group, pos, m),
					    obj_off + i * PAGE_SIZE, pages[i],
					    0, PAGE_SIZE, true);
			if (err)
				return err;
		}
	return 0;
}

/* ------------------------------------------------------------------ */
/* pages owned by ORE */

static struct page *ore_own_page(struct ore_io_state *ios)
{
	struct page *page = ore_page_get(GFP_NOIO);

	if (page)
		list_add_tail(&page->lru, &ios->own_pages);
	return page;
}

static void ore_free_own_pages(struct ore_io_state *ios)
{
	struct page *page, *next;

	list_for_each_entry_safe(page, next, &ios->own_pages, lru) {
		list_del(&page->lru);
		ore_page_put(page);
	}
}

/* ------------------------------------------------------------------ */
/* degraded reads */

/* Can no mirror of group position @pos be read at [@obj_off, +@len)? */
static bool ore_pos_dead(struct ore_io_state *ios, u32 group, u32 pos,
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

/* Repair one failed read sub-I/O: another mirror first, then parity. */
static int ore_repair_sub(struct ore_io_state *ios, struct ore_sub *sub)
{
	const struct ore_layout *layout = ios->layout;
	u32 group = sub->comp / layout->mirrors_p1 / layout->group_width;
	u32 pos = sub->comp / layout->mirrors_p1 % layout->group_width;
	unsigned int i, n = sub->sio.nr_bvec;
	struct page **pages;
	int err = -EIO;

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
	if (!err) {
		ios->degraded = true;
		atomic64_inc(&ore_stats.degraded_reads);
	}
	return err;
}

static int ore_repair_batch(struct ore_io_state *ios, struct ore_batch *batch)
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
	struct ore_io_state *ios = container_of(work, struct ore_io_state,
						work);
	struct ore_batch *batch = ios->batch;

	ios->error = ore_repair_batch(ios, batch);
	ios->batch = NULL;
	ore_batch_free(batch);
	ore_ios_finish(ios);
}

static void ore_read_done(struct ore_batch *batch)
{
	struct ore_io_state *ios = batch->ios;

	if (batch->failed) {
		ios->batch = batch;
		INIT_WORK(&ios->work, ore_read_repair_work);
		queue_work(ore_wq, &ios->work);
		return;
	}
	ore_batch_free(batch);
	ore_ios_finish(ios);
}

static int ore_check_range(struct ore_io_state *ios, u64 *len)
{
	u64 l = ios->length;

	if (!ios->length || !IS_ALIGNED(ios->offset, PAGE_SIZE)) {
		pr_err("object 0x%llx: bad I/O range offset %llu length %llu\n",
		       ios->oc->oid, ios->offset, ios->length);
		return -EINVAL;
	}
	/*
	 * Reads fill whole pages (block stores take whole sectors only);
	 * parity writes cover whole pages.
	 */
	if (ios->kind == ORE_IO_READ || ios->layout->parity)
		l = round_up(l, PAGE_SIZE);
	if (ios->nr_pages < DIV_ROUND_UP(l, PAGE_SIZE)) {
		pr_err("object 0x%llx: %u pages for %llu bytes\n",
		       ios->oc->oid, ios->nr_pages, l);
		return -EINVAL;
	}
	*len = l;
	return 0;
}

/* Submit @batch; wait for it if the caller gave no done(). */
static int ore_start(struct ore_io_state *ios, struct ore_batch *batch)
{
	DECLARE_COMPLETION_ONSTACK(wait);
	bool sync = !ios->done;

	if (sync)
		ios->sync_done = &wait;
	ore_batch_submit(batch);
	if (!sync)	/* done() may have freed @ios already */
		return 0;
	wait_for_completion(&wait);
	ios->sync_done = NULL;
	return ios->error;
}

/*
 * Map [@ios->offset, + @len) of @pages (NULL: a discard) onto one batch of
 * component reads or writes, without parity, and start it.
 */
static int ore_start_data(struct ore_io_state *ios,
			  void (*done)(struct ore_batch *batch), u64 len,
			  struct page **pages, bool write)
{
	struct ore_batch *batch;
	int err;

	batch = ore_batch_alloc(ios, done);
	if (!batch)
		return -ENOMEM;
	err = ore_map_data(batch, ios->offset, len, pages, write);
	if (err) {
		ore_batch_free(batch);
		return err;
	}
	return ore_start(ios, batch);
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

/* ------------------------------------------------------------------ */
/* writes */

/*
 * After a write: a group position whose every mirror failed is lost; the
 * write is good while no group lost more positions than it has parity.
 */
static void ore_write_done(struct ore_batch *batch)
{
	struct ore_io_state *ios = batch->ios;
	const struct ore_layout *layout = ios->layout;

	if (batch->failed) {
		if (!ore_layout_survives(layout, ios->failed_mask,
					 layout->num_comps, 0))
			ios->error = -EIO;
		if (!ios->error) {
			ios->degraded = true;
			atomic64_inc(&ore_stats.degraded_writes);
		}
	}
	ore_batch_free(batch);
	ore_ios_finish(ios);
}

static inline void *ore_pa(struct page *page)
{
	/* ORE's pages are lowmem: x86_64 and every 64-bit target has no highmem */
	return page_address(page);
}

/* dst ^= srcs[0] ^ ... ^ srcs[count - 1] */
static void ore_xor_into(void *dst, void **srcs, unsigned int count)
{
	while (count) {
		unsigned int n = min_t(unsigned int, count, MAX_XOR_BLOCKS);

		xor_blocks(n, PAGE_SIZE, dst, srcs);
		srcs += n;
		count -= n;
	}
}

/* Parity of row @j from the data pages @pg (column-major, @rows per col). */
static void ore_stripe_parity(const struct ore_layout *layout,
			      struct page **pg, unsigned int rows,
			      unsigned int j)
{
	void *ptrs[ORE_MAX_GROUP_WIDTH];
	u32 c;

	for (c = 0; c < layout->group_width; c++)
		ptrs[c] = ore_pa(pg[c * rows + j]);
	if (layout->parity == 2)
		ore_gen_pq(ptrs, layout->data_width, PAGE_SIZE);
	else
		ore_xor_pages(ptrs[layout->data_width], ptrs,
			      layout->data_width, PAGE_SIZE);
}

/* A whole stripe: parity from the caller's pages, no reads. */
static int ore_write_full_stripe(struct ore_batch *batch,
				 const struct ore_striping_info *si,
				 struct page **pages)
{
	struct ore_io_state *ios = batch->ios;
	const struct ore_layout *layout = ios->layout;
	unsigned int rows = layout->stripe_unit / PAGE_SIZE;
	u32 gw = layout->group_width, dw = layout->data_width, c;
	u64 obj_off = si->row * layout->stripe_unit;
	struct page **tab;
	unsigned int j;
	int err = 0;

	tab = kcalloc(gw * rows, sizeof(*tab), GFP_NOIO);
	if (!tab)
		return -ENOMEM;
	for (c = 0; c < dw; c++)
		for (j = 0; j < rows; j++)
			tab[c * rows + j] = pages[c * rows + j];
	for (c = dw; c < gw; c++)
		for (j = 0; j < rows; j++) {
			tab[c * rows + j] = ore_own_page(ios);
			if (!tab[c * rows + j]) {
				err = -ENOMEM;
				goto out;
			}
		}
	for (j = 0; j < rows; j++)
		ore_stripe_parity(layout, tab, rows, j);
	for (c = 0; c < gw && !err; c++)
		err = ore_map_column(batch, si->group, si->row, c, obj_off,
				     &tab[c * rows], rows);
	ios->stats_full_stripes++;
	atomic64_inc(&ore_stats.full_stripes);
out:
	kfree(tab);
	return err;
}

/*
 * One partially written stripe, from its plan to its writes. Planned in the
 * writer's context (ore_pstripe_plan: marks, cache lookups, the choice, the
 * reads it needs in @rbatch); finished when the reads are over
 * (ore_pstripe_finish: new parity, the writes queued).
 */
struct ore_pstripe {
	struct list_head node;
	struct ore_striping_info si;
	unsigned int rows;
	struct page **pg;	/* [col * rows + j], data cols then P, Q */
	u8 *state;		/* enum ore_r4w_pg of the data pages */
	u8 *touched;		/* [j]: page row j is written */
	struct page **old;	/* rmw: old data, old P (and Q), same index */
	struct ore_r4w_plan plan;
	struct ore_batch *rbatch;
};

static u64 ore_pstripe_loff(struct ore_pstripe *ps, u32 c, unsigned int j)
{
	return ps->si.first_stripe_start + (u64)c * ps->rows * PAGE_SIZE +
	       (u64)j * PAGE_SIZE;
}

static void ore_pstripe_put_r4w(struct ore_io_state *ios,
				struct ore_pstripe *ps, bool uptodate)
{
	const struct ore_layout *layout = ios->layout;
	unsigned int i;

	for (i = 0; i < layout->data_width * ps->rows; i++) {
		if (ps->state[i] == ORE_R4W_CACHED ||
		    ps->state[i] == ORE_R4W_CACHED_READ) {
			ios->r4w->put_page(ios->private, ps->pg[i],
					   uptodate ||
					   ps->state[i] == ORE_R4W_CACHED);
			ps->state[i] = ORE_R4W_NONE;
			ps->pg[i] = NULL;
		}
	}
}

/* Give back the cache pages still held (not uptodate: @err) and free. */
static void ore_pstripe_free(struct ore_io_state *ios, struct ore_pstripe *ps,
			     bool err)
{
	if (!ps)
		return;
	if (ios->r4w && ps->state)
		ore_pstripe_put_r4w(ios, ps, !err);
	ore_batch_free(ps->rbatch);
	kfree(ps->old);
	kfree(ps->touched);
	kfree(ps->state);
	kfree(ps->pg);
	kfree(ps);
}

/* read-modify-write reads: old data of the written pages, old P (and Q). */
static int ore_pstripe_rmw_reads(struct ore_io_state *ios,
				 struct ore_pstripe *ps)
{
	const struct ore_layout *layout = ios->layout;
	const struct ore_striping_info *si = &ps->si;
	u32 dw = layout->data_width, gw = layout->group_width, c;
	unsigned int rows = ps->rows, j;
	u64 obj_off = si->row * layout->stripe_unit;
	int err;

	ps->old = kcalloc(gw * rows, sizeof(*ps->old), GFP_NOIO);
	if (!ps->old)
		return -ENOMEM;
	for (c = 0; c < gw; c++) {
		u32 pos = ore_layout_stripe_pos(layout, si->row, c);
		u32 m = ore_pick_mirror(ios, si->group, pos, si->row, obj_off,
					layout->stripe_unit);
		u32 comp = ore_layout_comp(layout, si->group, pos, m);

		for (j = 0; j < rows; j++) {
			if (!ps->touched[j])
				continue;
			if (c < dw && ps->state[c * rows + j] != ORE_R4W_NEW)
				continue;
			ps->old[c * rows + j] = ore_own_page(ios);
			if (!ps->old[c * rows + j])
				return -ENOMEM;
			err = ore_batch_add(ps->rbatch, comp,
					    obj_off + j * PAGE_SIZE,
					    ps->old[c * rows + j], 0, PAGE_SIZE,
					    false);
			if (err)
				return err;
		}
	}
	return 0;
}

/*
 * RAID6: Q' = Q ^ g^c (D_old ^ D_new) and P' = P ^ D_old ^ D_new for every
 * touched row; the old data pages become the deltas.
 */
static void ore_pstripe_rmw_pq(struct ore_io_state *ios,
			       struct ore_pstripe *ps)
{
	u32 dw = ios->layout->data_width, c;
	unsigned int rows = ps->rows, j;

	for (j = 0; j < rows; j++) {
		void *delta[ORE_MAX_GROUP_WIDTH];
		struct page **p = &ps->old[dw * rows + j];
		struct page **q = &ps->old[(dw + 1) * rows + j];

		if (!ps->touched[j])
			continue;
		for (c = 0; c < dw; c++) {
			void *src;

			delta[c] = NULL;
			if (ps->state[c * rows + j] != ORE_R4W_NEW)
				continue;
			delta[c] = ore_pa(ps->old[c * rows + j]);
			src = ore_pa(ps->pg[c * rows + j]);
			ore_xor_into(delta[c], &src, 1);
		}
		ore_pq_rmw(delta, dw, ore_pa(*p), ore_pa(*q), PAGE_SIZE);
		ps->pg[dw * rows + j] = *p;
		ps->pg[(dw + 1) * rows + j] = *q;
	}
}

/* P' = P ^ D_old ^ D_new for every touched row, from the rmw reads. */
static void ore_pstripe_rmw_parity(struct ore_io_state *ios,
				   struct ore_pstripe *ps)
{
	u32 dw = ios->layout->data_width, c;
	unsigned int rows = ps->rows, j;

	if (ios->layout->parity == 2) {
		ore_pstripe_rmw_pq(ios, ps);
		return;
	}
	for (j = 0; j < rows; j++) {
		void *srcs[2 * ORE_MAX_GROUP_WIDTH];
		unsigned int n = 0;

		if (!ps->touched[j])
			continue;
		for (c = 0; c < dw; c++) {
			if (ps->state[c * rows + j] != ORE_R4W_NEW)
				continue;
			srcs[n++] = ore_pa(ps->old[c * rows + j]);
			srcs[n++] = ore_pa(ps->pg[c * rows + j]);
		}
		ore_xor_into(ore_pa(ps->old[dw * rows + j]), srcs, n);
		ps->pg[dw * rows + j] = ps->old[dw * rows + j];
	}
}

/*
 * reconstruct-write reads: what the cache does not hold of the untouched
 * columns of the touched rows, through the normal read path (so that a
 * failed component is rebuilt by ore_repair_batch()).
 */
static int ore_pstripe_rcw_reads(struct ore_io_state *ios,
				 struct ore_pstripe *ps)
{
	u32 dw = ios->layout->data_width, c;
	unsigned int rows = ps->rows, j;
	int err;

	for (c = 0; c < dw; c++)
		for (j = 0; j < rows; j++) {
			unsigned int i = c * rows + j;

			if (ps->state[i] == ORE_R4W_OWN_READ && !ps->pg[i]) {
				ps->pg[i] = ore_own_page(ios);
				if (!ps->pg[i])
					return -ENOMEM;
			}
			if (ps->state[i] != ORE_R4W_OWN_READ &&
			    ps->state[i] != ORE_R4W_CACHED_READ)
				continue;
			err = ore_map_data(ps->rbatch, ore_pstripe_loff(ps, c, j),
					   PAGE_SIZE, &ps->pg[i], false);
			if (err)
				return err;
		}
	return 0;
}

/* P (and Q) of every touched row from whole rows, after the rcw reads. */
static int ore_pstripe_rcw_parity(struct ore_io_state *ios,
				  struct ore_pstripe *ps)
{
	const struct ore_layout *layout = ios->layout;
	u32 dw = layout->data_width, gw = layout->group_width, c;
	unsigned int rows = ps->rows, j;

	for (j = 0; j < rows; j++) {
		if (!ps->touched[j])
			continue;
		for (c = dw; c < gw; c++) {
			ps->pg[c * rows + j] = ore_own_page(ios);
			if (!ps->pg[c * rows + j])
				return -ENOMEM;
		}
		ore_stripe_parity(layout, ps->pg, rows, j);
	}
	return 0;
}

/* A new, empty read batch for @ps (its done() is set by whoever runs it). */
static int ore_pstripe_new_rbatch(struct ore_io_state *ios,
				  struct ore_pstripe *ps)
{
	ore_batch_free(ps->rbatch);
	ps->rbatch = ore_batch_alloc(ios, NULL);
	return ps->rbatch ? 0 : -ENOMEM;
}

/*
 * Plan part of a stripe: [@a, @b) of the stripe of @si, data in @pages
 * (page 0 holds @a). Asks the caller's cache, chooses rmw or rcw and
 * builds the reads in (*@pps)->rbatch, not submitted (maybe empty). Never
 * waits for I/O. On error nothing is held.
 */
static int ore_pstripe_plan(struct ore_io_state *ios,
			    const struct ore_striping_info *si, u64 a, u64 b,
			    struct page **pages, struct ore_pstripe **pps)
{
	const struct ore_layout *layout = ios->layout;
	u32 dw = layout->data_width, gw = layout->group_width, c;
	unsigned int rows = layout->stripe_unit / PAGE_SIZE, j, i, dead = 0;
	struct ore_pstripe *ps;
	u64 off;
	int err = -ENOMEM;

	ps = kzalloc(sizeof(*ps), GFP_NOIO);
	if (!ps)
		return -ENOMEM;
	ps->si = *si;
	ps->rows = rows;
	ps->pg = kcalloc(gw * rows, sizeof(*ps->pg), GFP_NOIO);
	ps->state = kcalloc(dw, rows, GFP_NOIO);
	ps->touched = kzalloc(rows, GFP_NOIO);
	if (!ps->pg || !ps->state || !ps->touched)
		goto out;

	ore_r4w_mark(layout, a - si->first_stripe_start,
		     b - si->first_stripe_start, ps->state, ps->touched,
		     &ps->plan);
	for (off = a; off < b; off += PAGE_SIZE) {
		u64 in = off - si->first_stripe_start;

		c = in / layout->stripe_unit;
		j = (in % layout->stripe_unit) / PAGE_SIZE;
		ps->pg[c * rows + j] = pages[(off - a) / PAGE_SIZE];
	}
	for (c = 0; c < gw; c++)
		dead += ore_pos_dead(ios, si->group,
				     ore_layout_stripe_pos(layout, si->row, c),
				     si->row * layout->stripe_unit,
				     layout->stripe_unit);
	if (dead > layout->parity) {
		pr_err("object 0x%llx: stripe at %llu has %u components lost, parity %u\n",
		       ios->oc->oid, si->first_stripe_start, dead,
		       layout->parity);
		err = -EIO;
		goto out;
	}

	/* untouched data pages of touched rows: ask the caller's cache */
	for (i = 0; ios->r4w && i < dw * rows; i++) {
		bool uptodate = false;
		struct page *page;

		if (ps->state[i] != ORE_R4W_OWN_READ)
			continue;
		page = ios->r4w->get_page(ios->private,
					  ore_pstripe_loff(ps, i / rows,
							   i % rows),
					  &uptodate);
		ios->stats_r4w_pages++;
		if (page) {
			ps->pg[i] = page;
			ps->state[i] = uptodate ? ORE_R4W_CACHED :
						  ORE_R4W_CACHED_READ;
		}
	}

	err = ore_pstripe_new_rbatch(ios, ps);
	if (err)
		goto out;
	ore_r4w_choose(layout, ps->state, ps->touched, dead, &ps->plan);
	if (layout->parity == 2 && (!READ_ONCE(ore_raid6_rmw) ||
				    !ore_pq_rmw_ok()))
		ps->plan.how = ORE_R4W_RCW;
	if (ps->plan.how == ORE_R4W_RMW) {
		/* the cache pages are not needed (nor read) */
		if (ios->r4w)
			ore_pstripe_put_r4w(ios, ps, false);
		err = ore_pstripe_rmw_reads(ios, ps);
	} else {
		err = ore_pstripe_rcw_reads(ios, ps);
	}
	if (err)
		goto out;
	ios->stats_reads += list_count_nodes(&ps->rbatch->subs);
	*pps = ps;
	return 0;
out:
	ore_pstripe_free(ios, ps, true);
	return err;
}

/* Reconstruct-write again, after a failed read of read-modify-write. */
static int ore_pstripe_redo_rcw(struct ore_io_state *ios,
				struct ore_pstripe *ps)
{
	u32 dw = ios->layout->data_width;
	unsigned int rows = ps->rows, i;
	int err;

	for (i = 0; i < dw * rows; i++)
		if (ps->state[i] != ORE_R4W_NEW && ps->touched[i % rows]) {
			ps->state[i] = ORE_R4W_OWN_READ;
			ps->pg[i] = NULL;
		}
	ps->plan.how = ORE_R4W_RCW;
	err = ore_pstripe_new_rbatch(ios, ps);
	if (!err)
		err = ore_pstripe_rcw_reads(ios, ps);
	if (err)
		return err;
	ios->stats_reads += list_count_nodes(&ps->rbatch->subs);
	ore_batch_run_sync(ps->rbatch);
	return 0;
}

/* Queue the writes of a planned partial stripe: new data and its parity. */
static int ore_pstripe_queue(struct ore_batch *batch, struct ore_pstripe *ps)
{
	const struct ore_layout *layout = batch->ios->layout;
	const struct ore_striping_info *si = &ps->si;
	u64 obj_off = si->row * layout->stripe_unit;
	unsigned int rows = ps->rows, j;
	u32 c;
	int err;

	for (c = 0; c < layout->group_width; c++)
		for (j = 0; j < rows; j++) {
			if (!ps->touched[j])
				continue;
			if (c < layout->data_width &&
			    ps->state[c * rows + j] != ORE_R4W_NEW)
				continue;
			err = ore_map_column(batch, si->group, si->row, c,
					     obj_off + j * PAGE_SIZE,
					     &ps->pg[c * rows + j], 1);
			if (err)
				return err;
		}
	return 0;
}

/*
 * The reads of @ps are over: compute its parity (redoing a failed rmw as
 * rcw, rebuilding what an rcw read lost; both synchronously) and queue its
 * writes in @wbatch. Process context.
 */
static int ore_pstripe_finish(struct ore_io_state *ios, struct ore_pstripe *ps,
			      struct ore_batch *wbatch)
{
	int err = 0;

	if (ps->plan.how == ORE_R4W_RMW && !ps->rbatch->failed) {
		ore_pstripe_rmw_parity(ios, ps);
		atomic64_inc(&ore_stats.rmw_stripes);
	} else {
		if (ps->plan.how == ORE_R4W_RMW)
			err = ore_pstripe_redo_rcw(ios, ps);
		if (!err && ps->rbatch->failed)
			err = ore_repair_batch(ios, ps->rbatch);
		if (!err)
			err = ore_pstripe_rcw_parity(ios, ps);
		if (err)
			return err;
		atomic64_inc(&ore_stats.rcw_stripes);
	}
	if (ios->r4w)
		ore_pstripe_put_r4w(ios, ps, true);
	err = ore_pstripe_queue(wbatch, ps);
	if (err)
		return err;
	ios->stats_partial_stripes++;
	atomic64_inc(&ore_stats.partial_stripes);
	return 0;
}

/* Plan the partial stripe [@a, @a + @len) onto @ios->pstripes. */
static int ore_map_partial_stripe(struct ore_io_state *ios, u64 a, u64 len)
{
	struct ore_striping_info si;
	struct ore_pstripe *ps;
	int err;

	ore_calc_stripe_info(ios->layout, a, &si);
	err = ore_pstripe_plan(ios, &si, a, a + len,
			       &ios->pages[(a - ios->offset) / PAGE_SIZE], &ps);
	if (!err)
		list_add_tail(&ps->node, &ios->pstripes);
	return err;
}

/*
 * Map a parity write into @wbatch: whole stripes at once, the partial head
 * and tail stripes planned onto @ios->pstripes (their reads not started).
 */
static int ore_map_parity_write(struct ore_batch *wbatch, u64 len)
{
	struct ore_io_state *ios = wbatch->ios;
	const struct ore_layout *layout = ios->layout;
	struct ore_stripe_cut cut;
	u64 loff;
	int err = 0;

	ore_layout_cut(layout, ios->offset, len, &cut);
	if (cut.head_len)
		err = ore_map_partial_stripe(ios, cut.head_off, cut.head_len);
	for (loff = cut.full_off; !err && loff < cut.full_off + cut.full_len;
	     loff += layout->stripe_length) {
		struct page **pages = &ios->pages[(loff - ios->offset) /
						  PAGE_SIZE];
		struct ore_striping_info si;

		ore_calc_stripe_info(layout, loff, &si);
		err = ore_write_full_stripe(wbatch, &si, pages);
	}
	if (!err && cut.tail_len)
		err = ore_map_partial_stripe(ios, cut.tail_off, cut.tail_len);
	return err;
}

static void ore_pstripes_free(struct ore_io_state *ios, bool err)
{
	struct ore_pstripe *ps, *next;

	list_for_each_entry_safe(ps, next, &ios->pstripes, node) {
		list_del(&ps->node);
		ore_pstripe_free(ios, ps, err);
	}
}

/* Finish every partial stripe of @ios into @wbatch; frees them. */
static int ore_pstripes_finish(struct ore_io_state *ios,
			       struct ore_batch *wbatch)
{
	struct ore_pstripe *ps;
	int err = 0;

	list_for_each_entry(ps, &ios->pstripes, node) {
		err = ore_pstripe_finish(ios, ps, wbatch);
		if (err)
			break;
	}
	ore_pstripes_free(ios, err);
	return err;
}

/* The partial stripes are read: finish them and start the writes. */
static void ore_write_finish(struct ore_io_state *ios)
{
	struct ore_batch *wbatch = ios->batch;
	int err;

	ios->batch = NULL;
	err = ore_pstripes_finish(ios, wbatch);
	if (err) {
		ore_batch_free(wbatch);
		ios->error = err;
		ore_ios_finish(ios);
		return;
	}
	ore_batch_submit(wbatch);
}

static void ore_write_finish_work(struct work_struct *work)
{
	ore_write_finish(container_of(work, struct ore_io_state, work));
}

/* One more partial stripe is read (any context). */
static void ore_pstripe_read_done(struct ore_batch *rbatch)
{
	struct ore_io_state *ios = rbatch->ios;

	if (atomic_dec_and_test(&ios->pending))
		queue_work(ore_wq, &ios->work);
}

static int ore_write_build(struct ore_io_state *ios, struct ore_batch **pb)
{
	struct ore_batch *batch;
	u64 len;
	int err;

	err = ore_check_range(ios, &len);
	if (err)
		return err;
	batch = ore_batch_alloc(ios, ore_write_done);
	if (!batch)
		return -ENOMEM;
	if (ios->layout->parity)
		err = ore_map_parity_write(batch, len);
	else
		err = ore_map_data(batch, ios->offset, len, ios->pages, true);
	if (err) {
		ore_pstripes_free(ios, true);
		ore_batch_free(batch);
		return err;
	}
	*pb = batch;
	return 0;
}

/*
 * An asynchronous write with partial stripes: their reads start here, and
 * the last one to end queues ore_write_finish() in ore_wq. With nothing to
 * read (all from the cache) everything is done here.
 */
static int ore_write_async_partial(struct ore_io_state *ios,
				   struct ore_batch *wbatch)
{
	struct ore_pstripe *ps;
	int reads = 0;

	list_for_each_entry(ps, &ios->pstripes, node)
		reads += !list_empty(&ps->rbatch->subs);
	if (!reads) {
		int err = ore_pstripes_finish(ios, wbatch);

		if (err) {
			ore_batch_free(wbatch);
			return err;
		}
		ore_batch_submit(wbatch);
		return 0;
	}
	ios->batch = wbatch;
	INIT_WORK(&ios->work, ore_write_finish_work);
	/* one count more while we walk the list the finish frees */
	atomic_set(&ios->pending, reads + 1);
	list_for_each_entry(ps, &ios->pstripes, node) {
		if (list_empty(&ps->rbatch->subs))
			continue;
		ps->rbatch->done = ore_pstripe_read_done;
		ore_batch_submit(ps->rbatch);
	}
	if (atomic_dec_and_test(&ios->pending))
		queue_work(ore_wq, &ios->work);
	return 0;
}

/**
 * ore_write() - write a logical range of an object
 * @ios: an I/O state from ore_get_rw_state() with @pages set
 *
 * Writes every mirror of every touched component and, for parity layouts,
 * P (and Q). A stripe covered whole reads nothing; a partial stripe reads
 * either its untouched columns (reconstruct-write, asking @ios->r4w for
 * cached pages first) or its old data and parity (read-modify-write),
 * whichever reads fewer pages. A component whose store is failed or whose
 * write fails is skipped: the write still succeeds, with @ios->degraded
 * set, while every group keeps enough components to rebuild it; otherwise
 * it fails with -EIO. Without @ios->done the call waits. With it, the call
 * never waits for I/O: the reads of a partial stripe start here, and its
 * parity and writes follow in ORE's workqueue when they are over (at once
 * here when the cache held everything).
 *
 * Return: 0 when started (async) or done (sync); a negative errno when the
 * I/O could not start (done() is not called) or, synchronously, failed.
 */
int ore_write(struct ore_io_state *ios)
{
	struct ore_batch *batch;
	struct ore_pstripe *ps;
	int err;

	err = ore_write_build(ios, &batch);
	if (err)
		return err;
	if (list_empty(&ios->pstripes))
		return ore_start(ios, batch);
	if (ios->done)
		return ore_write_async_partial(ios, batch);
	list_for_each_entry(ps, &ios->pstripes, node)
		if (!list_empty(&ps->rbatch->subs))
			ore_batch_run_sync(ps->rbatch);
	err = ore_pstripes_finish(ios, batch);
	if (err) {
		ore_batch_free(batch);
		return err;
	}
	return ore_start(ios, batch);
}
EXPORT_SYMBOL_GPL(ore_write);

/**
 * ore_discard() - discard a logical range of an object without parity
 * @ios: an I/O state from ore_get_rw_state() (not reading), no pages
 *
 * Tells every mirror of every component holding part of the range that its
 * data is no longer needed (&ore_store_io.discard: block stores discard
 * where the device can, file stores punch holes); the range then reads as
 * zeros or as its old data, possibly differently on each mirror. Layouts
 * with parity are refused: a stripe's parity must keep matching whatever
 * its members would return. Completion as for ore_write(); a discard that
 * a store cannot do is not an error.
 *
 * Return: 0 when started (async) or done (sync); -EOPNOTSUPP for a parity
 * layout, -EINVAL for a bad range, -ENOMEM.
 */
int ore_discard(struct ore_io_state *ios)
{
	if (ios->layout->parity)
		return -EOPNOTSUPP;
	if (ios->kind != ORE_IO_WRITE || !ios->length ||
	    !IS_ALIGNED(ios->offset, PAGE_SIZE)) {
		pr_err("object 0x%llx: bad discard offset %llu length %llu\n",
		       ios->oc->oid, ios->offset, ios->length);
		return -EINVAL;
	}
	return ore_start_data(ios, ore_write_done, ios->length, NULL, true);
}
EXPORT_SYMBOL_GPL(ore_discard);

/* ------------------------------------------------------------------ */
/* I/O states */

static void ore_ios_finish(struct ore_io_state *ios)
{
	if (ios->sync_done)
		complete(ios->sync_done);
	else if (ios->done)
		ios->done(ios, ios->private);
}

static int ore_alloc_ios(const struct ore_layout *layout,
			 struct ore_components *oc, enum ore_io_kind kind,
			 struct ore_io_state **pios)
{
	struct ore_io_state *ios;

	if (!layout->num_comps || layout->num_comps > oc->numdevs) {
		pr_err("object 0x%llx: layout of %u components over %u devices\n",
		       oc->oid, layout->num_comps, oc->numdevs);
		return -EINVAL;
	}
	ios = kzalloc(struct_size(ios, comp_error, layout->num_comps),
		      GFP_NOIO);
	if (!ios)
		return -ENOMEM;
	ios->nr_comps = layout->num_comps;
	ios->kind = kind;
	ios->layout = layout;
	ios->oc = oc;
	ios->failed_comp = -1;
	INIT_LIST_HEAD(&ios->own_pages);
	INIT_LIST_HEAD(&ios->pstripes);
	atomic64_inc(&ore_stats.ios_live);
	*pios = ios;
	return 0;
}

/**
 * ore_get_rw_state() - allocate an I/O state for a read or a write
 * @layout: the object's layout, verified by ore_verify_layout()
 * @oc: the object's components
 * @is_reading: true for ore_read(), false for ore_write()
 * @offset: logical offset, page aligned
 * @length: bytes
 * @pios: receives the I/O state; set its pages, done and private next
 *
 * Return: 0 or -ENOMEM, -EINVAL.
 */
int ore_get_rw_state(const struct ore_layout *layout,
		     struct ore_components *oc, bool is_reading,
		     u64 offset, u64 length, struct ore_io_state **pios)
{
	int err = ore_alloc_ios(layout, oc,
				is_reading ? ORE_IO_READ : ORE_IO_WRITE, pios);

	if (err)
		return err;
	(*pios)->offset = offset;
	(*pios)->length = length;
	return 0;
}
EXPORT_SYMBOL_GPL(ore_get_rw_state);

/**
 * ore_get_io_state() - allocate an I/O state for ore_create()/ore_remove()
 * @layout: the object's layout, verified by ore_verify_layout()
 * @oc: the object's components
 * @pios: receives the I/O state
 *
 * Return: 0 or -ENOMEM, -EINVAL.
 */
int ore_get_io_state(const struct ore_layout *layout,
		     struct ore_components *oc, struct ore_io_state **pios)
{
	return ore_alloc_ios(layout, oc, ORE_IO_OBJECT, pios);
}
EXPORT_SYMBOL_GPL(ore_get_io_state);

/**
 * ore_put_io_state() - free an I/O state whose I/O is over
 * @ios: the I/O state, or NULL
 */
void ore_put_io_state(struct ore_io_state *ios)
{
	if (!ios)
		return;
	ore_free_own_pages(ios);
	kfree(ios);
	atomic64_dec(&ore_stats.ios_live);
}
EXPORT_SYMBOL_GPL(ore_put_io_state);

/**
 * ore_check_io() - report the components that failed during an I/O
 * @ios: an I/O state whose I/O is over
 * @on_dev_error: called for each failed component, or NULL, with that
 *	component's own error: -ENOSPC for a full store, -ENOENT for a
 *	component object found missing (rebuilt from the redundancy, see
 *	@ios->degraded), the store's errno otherwise; for a store skipped
 *	as failed, @ios->error or -EIO
 *
 * Return: @ios->error: 0 when the data was read or stored (possibly
 * degraded, see @ios->degraded), or the negative errno of the I/O.
 */
int ore_check_io(struct ore_io_state *ios, ore_on_dev_error_fn on_dev_error)
{
	unsigned int comp;

	if (on_dev_error)
		for_each_set_bit(comp, ios->failed_mask, ios->layout->num_comps)
			on_dev_error(ios, comp, ore_comp_store(ios->oc, comp),
				     comp == ios->failed_comp ?
				     ios->failed_offset : 0,
				     ios->comp_error[comp] ?:
				     (ios->error ? ios->error : -EIO));
	return ios->error;
}
EXPORT_SYMBOL_GPL(ore_check_io);

/**
 * ore_verify_layout() - check a layout and fill in its derived fields
 * @num_devs: number of devices (object stores) available
 * @layout: the layout; parity, data_width and the lengths are filled in
 *
 * Return: 0, or -EINVAL with a message naming the bad field.
 */
int ore_verify_layout(u32 num_devs, struct ore_layout *layout)
{
	const char *why;
	int err = ore_layout_check(layout, num_devs, &why);

	if (err)
		pr_err("bad layout (raid %u, stripe_unit %u, group_width %u, group_depth %u, group_count %u, mirrors_p1 %u, %u devices): %s\n",
		       layout->raid_algorithm, layout->stripe_unit,
		       layout->group_width, layout->group_depth,
		       layout->group_count, layout->mirrors_p1, num_devs, why);
	return err;
}
EXPORT_SYMBOL_GPL(ore_verify_layout);

/* ------------------------------------------------------------------ */
/* whole-object operations: create, remove, truncate, flush, length */

/*
 * Run @op on every component. A failed store or component counts against
 * the layout's redundancy as for writes; returns 0 while every group keeps
 * enough components, else the first error.
 */
static int ore_for_each_comp(struct ore_io_state *ios,
			     int (*op)(struct ore_store *, u32, u64, void *),
			     void *arg, int ignore)
{
	const struct ore_layout *layout = ios->layout;
	int first_err = 0;
	u32 comp;

	for (comp = 0; comp < layout->num_comps; comp++) {
		struct ore_store *store = ore_comp_store(ios->oc, comp);
		int err;

		if (!ore_store_writable(store)) {
			ore_note_failure(ios, comp, 0, 0);
			continue;
		}
		err = op(store, comp, ios->oc->oid, arg);
		if (err && err != ignore) {
			pr_err("object 0x%llx on store %s: %d\n",
			       ios->oc->oid, store->name, err);
			atomic_inc(&store->nr_errors);
			ore_note_failure(ios, comp, 0, err);
			if (!first_err)
				first_err = err;
		}
	}
	if (!first_err && ios->failed_comp < 0)
		return 0;
	/* every failed store and component is in failed_mask now */
	if (!ore_layout_survives(layout, ios->failed_mask, layout->num_comps,
				 0))
		return first_err ? first_err : -EIO;
	ios->degraded = true;
	return 0;
}

static int ore_op_create(struct ore_store *store, u32 comp, u64 oid,
			 void *arg)
{
	int err = store->ops->create(store, oid);

	if (err == -EEXIST)	/* a stale object: leave it empty */
		err = store->ops->truncate(store, oid, 0);
	return err;
}

static int ore_op_remove(struct ore_store *store, u32 comp, u64 oid,
			 void *arg)
{
	return store->ops->remove(store, oid);
}

static int ore_op_flush(struct ore_store *store, u32 comp, u64 oid,
			void *arg)
{
	return store->ops->flush(store, oid);
}

static void ore_ios_complete_sync(struct ore_io_state *ios, int err)
{
	ios->error = err;
	if (ios->done)
		ios->done(ios, ios->private);
}

/**
 * ore_create() - create the object on every component
 * @ios: an I/O state from ore_get_io_state()
 *
 * An object that exists already is truncated to zero. Runs synchronously;
 * @ios->done, if set, is called before returning.
 *
 * Return: 0 (possibly degraded) or a negative errno.
 */
int ore_create(struct ore_io_state *ios)
{
	int err = ore_for_each_comp(ios, ore_op_create, NULL, 0);

	ore_ios_complete_sync(ios, err);
	return err;
}
EXPORT_SYMBOL_GPL(ore_create);

/**
 * ore_remove() - remove the object from every component
 * @ios: an I/O state from ore_get_io_state()
 *
 * A component that does not hold the object is not an error. Runs
 * synchronously; @ios->done, if set, is called before returning.
 *
 * Return: 0 (possibly degraded) or a negative errno.
 */
int ore_remove(struct ore_io_state *ios)
{
	int err;

	err = ore_for_each_comp(ios, ore_op_remove, NULL, -ENOENT);
	ore_ios_complete_sync(ios, err);
	return err;
}
EXPORT_SYMBOL_GPL(ore_remove);

struct ore_trunc_arg {
	const struct ore_layout *layout;
	u64 size;
	bool lazy;	/* ore_components.lazy: truncate creates */
};

static int ore_op_truncate(struct ore_store *store, u32 comp, u64 oid,
			   void *arg)
{
	struct ore_trunc_arg *ta = arg;
	u64 len;
	int err;

	/*
	 * A lost component is not made again here (it would read as zeros
	 * where its data was): it stays a failed component.
	 */
	if (!ta->lazy) {
		err = store->ops->length(store, oid, &len);
		if (err)
			return err;
	}
	return store->ops->truncate(store, oid,
			ore_layout_obj_size(ta->layout, comp, ta->size));
}

/*
 * Zero [size, end of its stripe) through a normal write, so the stripe's
 * parity stops covering the bytes the truncation drops.
 */
static int ore_truncate_zero_tail(const struct ore_layout *layout,
				  struct ore_components *oc, u64 size)
{
	struct ore_striping_info si;
	struct ore_io_state *ios = NULL;
	struct page **pages = NULL;
	u64 start = round_down(size, PAGE_SIZE), end;
	unsigned int n, i;
	int err;

	ore_calc_stripe_info(layout, size, &si);
	if (si.first_stripe_start == size)
		return 0;
	end = si.first_stripe_start + layout->stripe_length;
	n = (end - start) / PAGE_SIZE;
	pages = kcalloc(n, sizeof(*pages), GFP_NOFS);
	if (!pages)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		pages[i] = ZERO_PAGE(0);
	if (size != start) {
		pages[0] = alloc_page(GFP_NOFS);
		if (!pages[0]) {
			err = -ENOMEM;
			goto out;
		}
		err = ore_get_rw_state(layout, oc, true, start, PAGE_SIZE, &ios);
		if (err)
			goto out;
		ios->pages = pages;
		ios->nr_pages = 1;
		err = ore_read(ios);
		ore_put_io_state(ios);
		if (err)
			goto out;
		memzero_page(pages[0], size - start, PAGE_SIZE - (size - start));
	}
	err = ore_get_rw_state(layout, oc, false, start, end - start, &ios);
	if (err)
		goto out;
	ios->pages = pages;
	ios->nr_pages = n;
	err = ore_write(ios);
	ore_put_io_state(ios);
out:
	if (size != start && pages[0] && pages[0] != ZERO_PAGE(0))
		__free_page(pages[0]);
	kfree(pages);
	return err;
}

/**
 * ore_truncate() - set the logical length of an object
 * @layout: the object's layout
 * @oc: the object's components
 * @size: the new logical length in bytes
 *
 * Each component object gets the length ore_layout_obj_size() gives. For
 * parity layouts the rest of the stripe holding @size is first written
 * with zeros, so parity stays true. The caller keeps other writes of that
 * stripe out while this runs. Synchronous.
 *
 * Return: 0 (possibly degraded) or a negative errno.
 */
int ore_truncate(const struct ore_layout *layout, struct ore_components *oc,
		 u64 size)
{
	struct ore_trunc_arg ta = { layout, size, oc->lazy };
	struct ore_io_state *ios;
	int err;

	if (layout->parity) {
		err = ore_truncate_zero_tail(layout, oc, size);
		if (err)
			return err;
	}
	err = ore_get_io_state(layout, oc, &ios);
	if (err)
		return err;
	err = ore_for_each_comp(ios, ore_op_truncate, &ta, 0);
	ore_put_io_state(ios);
	return err;
}
EXPORT_SYMBOL_GPL(ore_truncate);

/**
 * ore_flush() - make everything written to an object stable
 * @layout: the object's layout
 * @oc: the object's components (@oc->oid 0 flushes the whole stores)
 *
 * Return: 0 (possibly degraded) or a negative errno.
 */
int ore_flush(const struct ore_layout *layout, struct ore_components *oc)
{
	struct ore_io_state *ios;
	int err;

	err = ore_get_io_state(layout, oc, &ios);
	if (err)
		return err;
	err = ore_for_each_comp(ios, ore_op_flush, NULL, 0);
	ore_put_io_state(ios);
	return err;
}
EXPORT_SYMBOL_GPL(ore_flush);

/* Logical offset of the last byte of @obj_len bytes on data component. */
static bool ore_comp_last_byte(const struct ore_layout *layout, u32 comp,
			       u64 obj_len, u64 *loff)
{
	u32 su = layout->stripe_unit;
	u32 group = comp / layout->mirrors_p1 / layout->group_width;
	u32 pos = comp / layout->mirrors_p1 % layout->group_width;
	u64 row = (obj_len - 1) / su;
	u64 M = row / layout->group_depth;
	u64 N = row % layout->group_depth;
	u32 col = ore_layout_pos_col(layout, row, pos);

	if (col >= layout->data_width)
		return false;
	*loff = M * layout->super_stripe + group * layout->group_length +
		N * layout->stripe_length + (u64)col * su + (obj_len - 1) % su;
	return true;
}

/**
 * ore_length() - logical length of an object, from its components
 * @layout: the object's layout
 * @oc: the object's components
 * @size: receives the length
 *
 * Derived from the lengths of the components on in-sync stores (the
 * extent of the furthest data byte stored); a component that does not
 * answer is passed over, so with too many of them the length may come out
 * short. Callers that keep the length themselves (exofs) need not call
 * this.
 *
 * Return: 0.
 */
int ore_length(const struct ore_layout *layout, struct ore_components *oc,
	       u64 *size)
{
	u32 comp;

	*size = 0;
	for (comp = 0; comp < layout->num_comps; comp++) {
		struct ore_store *store = ore_comp_store(oc, comp);
		u64 len, last;

		/* only a store whose objects are all valid knows their end */
		if (!ore_store_readable(store, 0, U64_MAX) ||
		    store->ops->length(store, oc->oid, &len))
			continue;
		if (len && ore_comp_last_byte(layout, comp, len, &last))
			*size = max(*size, last + 1);
	}
	return 0;
}
EXPORT_SYMBOL_GPL(ore_length);
