// SPDX-License-Identifier: GPL-2.0
/*
 * ORE writes: every mirror of every touched component, and parity. Whole
 * stripes get their parity from the caller's pages; partial stripes are
 * planned in the writer's context (read-4-write: reconstruct-write or
 * read-modify-write, ore/r4w.c), their reads started there, and their
 * parity and writes finished when the reads are over.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/mm.h>
#include <linux/highmem.h>
#include <linux/raid/xor.h>
#include <linux/llist.h>
#include <linux/hash.h>
#include <linux/blkdev.h>

#include <ore/r4w.h>

#include "ios.h"

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
		if (!ore_layout_survives(layout, ore_priv(ios)->failed_mask,
					 layout->num_comps, 0))
			ios->error = -EIO;
		if (!ios->error) {
			ios->degraded = true;
			atomic64_inc(&ore_stats.degraded_writes);
		}
	}
	/*
	 * Sized components: those the written range reaches exist now,
	 * unless a store in service refused one (it may be missing)
	 */
	if (!ios->error && ore_priv(ios)->raise_made && ios->oc->sized &&
	    !ore_made_error(ios))
		ore_raise_made(ios->oc, ios->offset + ios->length);
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

/*
 * @nr whole stripes of @group on rows @row0 .. @row0 + @nr - 1: parity from
 * the caller's @pages (stripe after stripe, the data columns one after
 * another), no reads. Each component's pages of the whole run are gathered
 * and mapped in one call: with small stripe units a run has many stripes,
 * and a call per stripe and column cost more than the parity under TCG.
 */
static int ore_write_full_run(struct ore_batch *batch, u32 group, u64 row0,
			      u64 nr, struct page **pages)
{
	struct ore_io_state *ios = batch->ios;
	const struct ore_layout *layout = ios->layout;
	unsigned int rows = layout->stripe_unit / PAGE_SIZE;
	u32 gw = layout->group_width, dw = layout->data_width, c, m;
	unsigned int per_comp = nr * rows, j;
	void *ptrs[ORE_MAX_GROUP_WIDTH];
	u32 pos[ORE_MAX_GROUP_WIDTH];
	struct page **par, **comp_pages;
	u64 s;
	int err;

	/* the parity pages, then each group position's pages of the run */
	par = kmalloc_array((size_t)(gw - dw + gw) * per_comp, sizeof(*par),
			    GFP_NOIO);
	if (!par)
		return -ENOMEM;
	comp_pages = par + (gw - dw) * per_comp;
	err = ore_own_pages(ios, par, (gw - dw) * per_comp);
	if (err)
		goto out;
	for (s = 0; s < nr; s++) {
		struct page **data = &pages[s * dw * rows];
		struct page **spar = &par[s * (gw - dw) * rows];

		ore_layout_row_pos(layout, row0 + s, pos);
		for (j = 0; j < rows; j++) {
			for (c = 0; c < gw; c++) {
				struct page *pg = c < dw ?
					data[c * rows + j] :
					spar[(c - dw) * rows + j];

				ptrs[c] = ore_pa(pg);
				comp_pages[pos[c] * per_comp + s * rows + j] =
					pg;
			}
			if (layout->parity == 2)
				ore_gen_pq(ptrs, dw, PAGE_SIZE);
			else
				ore_xor_pages(ptrs[dw], ptrs, dw, PAGE_SIZE);
		}
	}
	for (c = 0; c < gw && !err; c++) {	/* c: the group position */
		struct page **cp = &comp_pages[c * per_comp];

		for (m = 0; m < layout->mirrors_p1 && !err; m++) {
			u32 comp = ore_layout_comp(layout, group, c, m);

			err = ore_batch_add_pages(batch, comp,
						  row0 * layout->stripe_unit,
						  cp, per_comp, true);
		}
	}
	ios->stats_full_stripes += nr;
out:
	kfree(par);
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
	u32 pos[ORE_MAX_GROUP_WIDTH];
	u32 c;
	int err;

	ore_layout_row_pos(layout, si->row, pos);
	for (c = 0; c < layout->group_width; c++)
		for (j = 0; j < rows; j++) {
			if (!ps->touched[j])
				continue;
			if (c < layout->data_width &&
			    ps->state[c * rows + j] != ORE_R4W_NEW)
				continue;
			err = ore_map_column(batch, si->group, pos[c],
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

/* Plan the partial stripe [@a, @a + @len) onto @ore_priv(ios)->pstripes. */
static int ore_map_partial_stripe(struct ore_io_state *ios, u64 a, u64 len)
{
	struct ore_striping_info si;
	struct ore_pstripe *ps;
	int err;

	ore_calc_stripe_info(ios->layout, a, &si);
	err = ore_pstripe_plan(ios, &si, a, a + len,
			       &ios->pages[(a - ios->offset) / PAGE_SIZE], &ps);
	if (!err)
		list_add_tail(&ps->node, &ore_priv(ios)->pstripes);
	return err;
}

/*
 * Map a parity write into @wbatch: whole stripes at once, the partial head
 * and tail stripes planned onto @ore_priv(ios)->pstripes (their reads not started).
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
	if (!err && cut.full_len) {
		u64 nr = div64_u64(cut.full_len, layout->stripe_length), run;
		u32 rows = layout->stripe_unit / PAGE_SIZE;
		u32 ptrs = (2 * layout->group_width - layout->data_width) *
			   rows;
		/* keep ore_write_full_run()'s page array within a page */
		u64 max_run = max_t(u32, 1, PAGE_SIZE / sizeof(void *) / ptrs);
		struct ore_striping_info si;
		struct page **pages;

		atomic64_add(nr, &ore_stats.full_stripes);
		for (loff = cut.full_off; !err && nr; nr -= run) {
			/*
			 * The rows of one group are consecutive up to its
			 * depth; with one group the next depth block follows
			 * on the same components
			 */
			ore_calc_stripe_info(layout, loff, &si);
			run = layout->group_count == 1 ? nr :
			      min_t(u64, nr, layout->group_depth - si.N);
			run = min(run, max_run);
			pages = &ios->pages[(loff - ios->offset) / PAGE_SIZE];
			err = ore_write_full_run(wbatch, si.group, si.row, run,
						 pages);
			loff += run * layout->stripe_length;
		}
	}
	if (!err && cut.tail_len)
		err = ore_map_partial_stripe(ios, cut.tail_off, cut.tail_len);
	return err;
}

static void ore_pstripes_free(struct ore_io_state *ios, bool err)
{
	struct ore_pstripe *ps, *next;

	list_for_each_entry_safe(ps, next, &ore_priv(ios)->pstripes, node) {
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

	list_for_each_entry(ps, &ore_priv(ios)->pstripes, node) {
		err = ore_pstripe_finish(ios, ps, wbatch);
		if (err)
			break;
	}
	ore_pstripes_free(ios, err);
	return err;
}

/*
 * Writes whose partial stripes are read, finished by one work item in
 * ore_wq per queue: it takes every write on its list and finishes them
 * under one block plug, so the writes of many stripes reach each member as
 * one batch (one notification of the device for the batch, not one per
 * write), as md's raid5d handles every ready stripe in one pass. Writes
 * whose reads were deferred start them in the same pass. A finish that
 * waits for I/O (a read failed: rmw redone as rcw, a lost rcw read rebuilt
 * from the redundancy) runs on a work item of its own, so that one slow
 * or failing member does not hold up the other writes of the pass (nor,
 * stacked, the writes of another array on the same queue that its reads
 * wait for).
 *
 * The queue is chosen by the object's store array (&ore_components.stores):
 * the writes of one oreblk array, or of one exofs, meet on one queue, as
 * md has one raid5d per array; other arrays or filesystems most likely
 * have queues of their own and are finished in parallel. One queue per
 * CPU, measured, split each array's writes in as many batches: more
 * notifications, fewer IOPS (docs/performance.md).
 *
 * @in_flight counts the queue's partial-stripe writes that read (or wait
 * for a pass), from their start to their end (their member writes over,
 * ore_ios_finish()):
 * while there are others, a new one queues its reads for the next pass
 * instead of starting them at once, so they go out with the other writes'
 * reads and writes. (Counting them only until their finish ran left the
 * count at 0 whenever every write of the queue was in its write phase,
 * and a new write then started its reads from the submitter: one
 * notification of each member read apart from the passes, 15% of all of
 * them in a RAID6 random write job, which md never does.)
 */
#define ORE_FIN_QUEUE_BITS	6

struct ore_fin_queue {
	struct llist_head list;
	struct work_struct work;
	atomic_t in_flight;
};

static struct ore_fin_queue ore_fin_queues[1 << ORE_FIN_QUEUE_BITS];

static struct ore_fin_queue *ore_fin_queue_of(struct ore_io_state *ios)
{
	return &ore_fin_queues[hash_ptr(ios->oc->stores, ORE_FIN_QUEUE_BITS)];
}

static bool ore_defer_reads = true;
module_param_named(defer_reads, ore_defer_reads, bool, 0644);
MODULE_PARM_DESC(defer_reads, "Partial-stripe reads of concurrent writes go out in batches from ore_wq (default 1)");

/* The partial stripes are read: finish them and start the writes. */
static void ore_write_finish(struct ore_io_state *ios)
{
	struct ore_batch *wbatch = ore_priv(ios)->batch;
	int err;

	ore_priv(ios)->batch = NULL;
	err = ore_pstripes_finish(ios, wbatch);
	if (err) {
		ore_batch_free(wbatch);
		ios->error = err;
		ore_ios_finish(ios);
		return;
	}
	ore_batch_submit(wbatch);
}

static void ore_write_start_reads(struct ore_io_state *ios);

/*
 * Did a read of a partial stripe of @ios fail? Then its finish waits for
 * more reads (a failed rmw redone as rcw, a lost rcw read rebuilt).
 */
static bool ore_pstripes_read_failed(struct ore_io_state *ios)
{
	struct ore_pstripe *ps;

	list_for_each_entry(ps, &ore_priv(ios)->pstripes, node)
		if (ps->rbatch->failed)
			return true;
	return false;
}

/* The finish of one write that waits for I/O, on a worker of its own. */
static void ore_write_finish_one_work(struct work_struct *work)
{
	ore_write_finish(&container_of(work, struct ore_io_priv, work)->ios);
}

static void ore_write_finish_work(struct work_struct *work)
{
	struct ore_fin_queue *q = container_of(work, struct ore_fin_queue,
					       work);
	struct llist_node *first = llist_del_all(&q->list);
	struct ore_io_priv *priv, *next;
	struct blk_plug plug;

	blk_start_plug(&plug);
	llist_for_each_entry_safe(priv, next, llist_reverse_order(first),
				  fin_node) {
		if (priv->reads_deferred) {
			priv->reads_deferred = false;
			ore_write_start_reads(&priv->ios);
		} else if (ore_pstripes_read_failed(&priv->ios)) {
			/* its finish waits for I/O: not in this pass */
			INIT_WORK(&priv->work, ore_write_finish_one_work);
			queue_work(ore_wq, &priv->work);
		} else {
			ore_write_finish(&priv->ios);
		}
	}
	blk_finish_plug(&plug);
}

/*
 * Put @ios on its queue's list for the next pass of its finish work: to
 * be finished, or to start its reads (@reads_deferred). Any context.
 */
static void ore_write_finish_queue(struct ore_io_state *ios)
{
	struct ore_fin_queue *q = ore_fin_queue_of(ios);

	if (llist_add(&ore_priv(ios)->fin_node, &q->list))
		queue_work(ore_wq, &q->work);
}

/* @ios ends: it no longer counts in its finish queue's @in_flight. */
void ore_write_uncount(struct ore_io_state *ios)
{
	if (ore_priv(ios)->fin_counted) {
		ore_priv(ios)->fin_counted = false;
		atomic_dec(&ore_fin_queue_of(ios)->in_flight);
	}
}

/**
 * ore_partial_writes_in_flight() - partial-stripe writes on the finish queues
 *
 * The sum of every finish queue's @in_flight: asynchronous partial-stripe
 * writes that read or wait for a pass and have not ended. 0 when no write
 * runs; a count left over would make every later write of its queue wait
 * for a pass before its reads (for tests and the unload check).
 *
 * Return: the count.
 */
long ore_partial_writes_in_flight(void)
{
	long n = 0;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ore_fin_queues); i++)
		n += atomic_read(&ore_fin_queues[i].in_flight);
	return n;
}
EXPORT_SYMBOL_GPL(ore_partial_writes_in_flight);

/**
 * ore_write_finish_init() - set up the finish queues (module init)
 */
void ore_write_finish_init(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ore_fin_queues); i++) {
		init_llist_head(&ore_fin_queues[i].list);
		atomic_set(&ore_fin_queues[i].in_flight, 0);
		INIT_WORK(&ore_fin_queues[i].work, ore_write_finish_work);
	}
}

/* One more partial stripe is read (any context). */
static void ore_pstripe_read_done(struct ore_batch *rbatch)
{
	struct ore_io_state *ios = rbatch->ios;

	if (atomic_dec_and_test(&ore_priv(ios)->pending))
		ore_write_finish_queue(ios);
}

/* Start the reads of the partial stripes of @ios. */
static void ore_write_start_reads(struct ore_io_state *ios)
{
	struct ore_pstripe *ps;

	list_for_each_entry(ps, &ore_priv(ios)->pstripes, node) {
		if (list_empty(&ps->rbatch->subs))
			continue;
		ps->rbatch->done = ore_pstripe_read_done;
		ore_batch_submit(ps->rbatch);
	}
	if (atomic_dec_and_test(&ore_priv(ios)->pending))
		ore_write_finish_queue(ios);
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
 * An asynchronous write with partial stripes: their reads start here (or,
 * while other writes of its queue are in flight, in the next pass of the
 * queue's finish work), and the last one to end queues ore_write_finish().
 * With nothing to read (all from the cache) everything is done here.
 */
static int ore_write_async_partial(struct ore_io_state *ios,
				   struct ore_batch *wbatch)
{
	struct ore_fin_queue *q = ore_fin_queue_of(ios);
	struct ore_pstripe *ps;
	int reads = 0;

	list_for_each_entry(ps, &ore_priv(ios)->pstripes, node)
		reads += !list_empty(&ps->rbatch->subs);
	if (!reads && atomic_read(&q->in_flight) && READ_ONCE(ore_defer_reads)) {
		/*
		 * Nothing to read (the caller's cache held it) but other
		 * writes in flight: finished in the next pass with theirs,
		 * its writes in the same batch to the members
		 */
		ore_priv(ios)->batch = wbatch;
		ore_priv(ios)->fin_counted = true;
		atomic_inc(&q->in_flight);
		ore_write_finish_queue(ios);
		return 0;
	}
	if (!reads) {
		int err = ore_pstripes_finish(ios, wbatch);

		if (err) {
			ore_batch_free(wbatch);
			ios->error = err;
			return err;
		}
		ore_batch_submit(wbatch);
		return 0;
	}
	ore_priv(ios)->batch = wbatch;
	/* one count more while we walk the list the finish frees */
	atomic_set(&ore_priv(ios)->pending, reads + 1);
	ore_priv(ios)->fin_counted = true;
	if (atomic_inc_return(&q->in_flight) > 1 &&
	    READ_ONCE(ore_defer_reads)) {
		ore_priv(ios)->reads_deferred = true;
		atomic64_inc(&ore_stats.batched_reads);
		ore_write_finish_queue(ios);
		return 0;
	}
	ore_write_start_reads(ios);
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
 * never waits for I/O: the reads of a partial stripe start here (or from
 * ORE's workqueue, in a batch with other writes in flight), and its
 * parity and writes follow in ORE's workqueue when they are over (at once
 * here when the cache held everything). With sized components
 * (&ore_components.sized) the write makes those it writes, first those of
 * a hole between the extent known made and @ios->offset (synchronously),
 * and its success raises @ios->oc->made to its end.
 *
 * Return: 0 when started (async) or done (sync); a negative errno when the
 * I/O could not start (done() is not called) or, synchronously, failed.
 */
int ore_write(struct ore_io_state *ios)
{
	struct ore_batch *batch;
	struct ore_pstripe *ps;
	int err;

	/*
	 * Sized components: the write makes those it writes; those of a
	 * hole before it, which the size will reach too, are made first.
	 */
	if (ios->oc->sized && !ios->oc->lazy) {
		if (ios->offset > ore_priv(ios)->made) {
			err = ore_make_reach(ios, ios->offset);
			if (err)
				return err;
		}
		ore_priv(ios)->raise_made = true;
	}
	err = ore_write_build(ios, &batch);
	if (err)
		return err;
	if (list_empty(&ore_priv(ios)->pstripes))
		return ore_start(ios, batch);
	if (ios->done)
		return ore_write_async_partial(ios, batch);
	list_for_each_entry(ps, &ore_priv(ios)->pstripes, node)
		if (!list_empty(&ps->rbatch->subs))
			ore_batch_run_sync(ps->rbatch);
	err = ore_pstripes_finish(ios, batch);
	if (err) {
		ore_batch_free(batch);
		/* nothing written: ore_check_io() must not raise made */
		ios->error = err;
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

