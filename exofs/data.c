// SPDX-License-Identifier: GPL-2.0
/*
 * exofs data: the page cache of every inode's data object through ORE
 * (folio-based address_space_operations), and the naming of failed I/O.
 *
 * Reads go through ore_read(). Writeback collects contiguous dirty folios
 * into one ore_write() and cuts at stripe boundaries, so that the middle of
 * every I/O is made of whole stripes (no reads) and only its two ends can be
 * partial; partial stripes get their untouched pages from the page cache
 * through the r4w callbacks when they are clean and uptodate. Two writes of
 * one parity stripe never run at once (exofs_wb_get_slot()).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/fs.h>
#include <linux/pagemap.h>
#include <linux/writeback.h>
#include <linux/mpage.h>
#include <linux/slab.h>
#include <linux/sched/mm.h>
#include <linux/wait_bit.h>
#include <linux/iversion.h>
#include <linux/highmem.h>
#include <linux/statfs.h>
#include <linux/backing-dev.h>

#include "exofs.h"

/* ------------------------------------------------------------------ */
/* I/O errors */

/*
 * ore_check_io() callback: name the inode, object, store and offset of a
 * failed component. A failed write leaves the component stale, so its
 * store is taken out of service (reads rebuild it from the redundancy,
 * the store is stale at the next mount); -ENOSPC is not a store failure.
 */
void exofs_io_error(struct ore_io_state *ios, u32 comp,
		    struct ore_store *store, u64 offset, int error)
{
	struct exofs_io *io = ios->private;
	struct inode *inode = io->inode;
	struct exofs_sb_info *sbi = exofs_sb(inode->i_sb);
	bool write = ios->kind == ORE_IO_WRITE;
	u32 i;

	/*
	 * A store known to be out of service: the engine worked around it
	 * (-ENODEV: not even tried; @store may be its replacement by now)
	 */
	if ((ore_store_failed(store) && ios->degraded) || error == -ENODEV)
		return;
	pr_err_ratelimited("%s: %s of inode %ld (object 0x%llx) component %u failed on store %s at object offset %llu: %d%s\n",
			   inode->i_sb->s_id, write ? "write" : "read",
			   (long)inode->i_ino, ios->oc->oid, comp, store->name,
			   offset, error, ios->degraded ? " (recovered)" : "");
	/* a full store is retried later; only this component's error counts */
	if (!write || error == -ENOSPC)
		return;
	for (i = 0; i < sbi->num_stores; i++) {
		if (sbi->ore_stores[i] != store)
			continue;
		if (exofs_store_failed(sbi, i))
			pr_err_ratelimited("%s: store %u (%s) taken out of service after a write error\n",
					   inode->i_sb->s_id, i, store->name);
	}
}

/* ------------------------------------------------------------------ */
/* reads */

/**
 * struct exofs_rd - one ore_read() of contiguous folios
 * @io: the inode
 * @nr: folios in @pages
 * @max: room in @pages
 * @pages: the locked folios' pages, in index order
 */
struct exofs_rd {
	struct exofs_io io;
	unsigned int nr;
	unsigned int max;
	struct page *pages[];
};

/* Zero what lies beyond i_size in @folio (a read of the last page). */
static void exofs_zero_beyond_eof(struct inode *inode, struct folio *folio)
{
	loff_t isize = i_size_read(inode);
	loff_t pos = folio_pos(folio);

	if (pos + folio_size(folio) <= isize)
		return;
	if (pos >= isize)
		folio_zero_range(folio, 0, folio_size(folio));
	else
		folio_zero_segment(folio, isize - pos, folio_size(folio));
}

static void exofs_read_end(struct exofs_rd *rd, int err)
{
	struct inode *inode = rd->io.inode;
	unsigned int i;

	if (err) {
		atomic64_inc(&exofs_sb(inode->i_sb)->cnt.read_errors);
		pr_err_ratelimited("%s: read of inode %ld at %llu (%u pages) failed: %d\n",
				   inode->i_sb->s_id, (long)inode->i_ino,
				   (u64)page_offset(rd->pages[0]), rd->nr,
				   err);
	}
	for (i = 0; i < rd->nr; i++) {
		struct folio *folio = page_folio(rd->pages[i]);

		if (!err)
			exofs_zero_beyond_eof(inode, folio);
		folio_end_read(folio, !err);
	}
	kfree(rd);
}

static void exofs_read_done(struct ore_io_state *ios, void *priv)
{
	struct exofs_rd *rd = priv;
	int err = ore_check_io(ios, exofs_io_error);

	if (ios->degraded)
		atomic64_inc(&exofs_sb(rd->io.inode->i_sb)->cnt.degraded_ios);
	if (ios->csum_errors)
		exofs_csum_repair(rd->io.inode, ios, err);
	ore_put_io_state(ios);
	exofs_read_end(rd, err);
}

/* Start an asynchronous read of @rd; it completes through exofs_read_end. */
static void exofs_read_submit(struct exofs_rd *rd)
{
	struct inode *inode = rd->io.inode;
	struct exofs_sb_info *sbi = exofs_sb(inode->i_sb);
	struct ore_io_state *ios;
	int err;

	/* what a pNFS client wrote, not what NFS stores cached (logged) */
	exofs_pnfs_refresh(inode, false);
	err = ore_get_rw_state(&sbi->layout, &exofs_i(inode)->oc, true,
			       page_offset(rd->pages[0]),
			       (u64)rd->nr << PAGE_SHIFT, &ios);
	if (err)
		goto fail;
	ios->pages = rd->pages;
	ios->nr_pages = rd->nr;
	ios->done = exofs_read_done;
	ios->private = rd;
	atomic64_inc(&sbi->cnt.read_ios);
	err = ore_read(ios);
	if (!err)
		return;
	ore_put_io_state(ios);
fail:
	exofs_read_end(rd, err);
}

static struct exofs_rd *exofs_rd_alloc(struct inode *inode, unsigned int max)
{
	struct exofs_rd *rd;

	rd = kmalloc(struct_size(rd, pages, max), GFP_NOFS);
	if (!rd)
		return NULL;
	rd->io.inode = inode;
	rd->nr = 0;
	rd->max = max;
	return rd;
}

/* A folio wholly beyond i_size reads as zeros without I/O. */
static bool exofs_folio_beyond_eof(struct inode *inode, struct folio *folio)
{
	if (folio_pos(folio) < i_size_read(inode))
		return false;
	folio_zero_range(folio, 0, folio_size(folio));
	folio_mark_uptodate(folio);
	return true;
}

static int exofs_read_folio(struct file *file, struct folio *folio)
{
	struct inode *inode = folio->mapping->host;
	struct exofs_rd *rd;

	if (exofs_folio_beyond_eof(inode, folio)) {
		folio_unlock(folio);
		return 0;
	}
	rd = exofs_rd_alloc(inode, 1);
	if (!rd) {
		folio_unlock(folio);
		return -ENOMEM;
	}
	rd->pages[rd->nr++] = &folio->page;
	exofs_read_submit(rd);
	return 0;
}

static void exofs_readahead(struct readahead_control *rac)
{
	struct inode *inode = rac->mapping->host;
	struct exofs_rd *rd = NULL;
	struct folio *folio;

	while ((folio = readahead_folio(rac))) {
		if (exofs_folio_beyond_eof(inode, folio)) {
			folio_unlock(folio);
			continue;
		}
		if (rd && (rd->nr == rd->max ||
			   rd->pages[rd->nr - 1]->index + 1 != folio->index)) {
			exofs_read_submit(rd);
			rd = NULL;
		}
		if (!rd) {
			rd = exofs_rd_alloc(inode,
					    min(readahead_count(rac) + 1,
						EXOFS_WB_MAX_PAGES));
			if (!rd) {	/* readahead is a hint: drop the rest */
				folio_unlock(folio);
				continue;
			}
		}
		rd->pages[rd->nr++] = &folio->page;
	}
	if (rd)
		exofs_read_submit(rd);
}

/* Read @folio (locked, stays locked) synchronously. */
static int exofs_read_folio_sync(struct inode *inode, struct folio *folio)
{
	struct exofs_sb_info *sbi = exofs_sb(inode->i_sb);
	struct exofs_io io = { .inode = inode };
	struct ore_io_state *ios;
	struct page *page = &folio->page;
	int err;

	if (exofs_folio_beyond_eof(inode, folio))
		return 0;
	err = ore_get_rw_state(&sbi->layout, &exofs_i(inode)->oc, true,
			       folio_pos(folio), PAGE_SIZE, &ios);
	if (err)
		return err;
	ios->pages = &page;
	ios->nr_pages = 1;
	ios->private = &io;
	atomic64_inc(&sbi->cnt.read_ios);
	err = ore_read(ios);
	ore_check_io(ios, exofs_io_error);
	if (ios->csum_errors)
		exofs_csum_repair(inode, ios, err);
	ore_put_io_state(ios);
	if (err) {
		pr_err_ratelimited("%s: read of inode %ld at %llu failed: %d\n",
				   inode->i_sb->s_id, (long)inode->i_ino,
				   folio_pos(folio), err);
		return err;
	}
	exofs_zero_beyond_eof(inode, folio);
	folio_mark_uptodate(folio);
	return 0;
}

/* ------------------------------------------------------------------ */
/* writeback */

/**
 * struct exofs_wb - one ore_write() of contiguous folios under writeback
 * @io: the inode
 * @node: in &exofs_i_info.wb_list while in flight, when it has a partial
 *	stripe
 * @work: redirties the folios after -ENOSPC, in process context
 * @held: in &exofs_sb_info.held while a store failure is being recorded
 * @intent: its regions in the intent record (exofs_intent_begin())
 * @err: the result of the write, while held
 * @pstripe: logical stripe numbers written only partially
 * @nr_pstripe: entries used in @pstripe
 * @nr: folios in @pages
 * @max: room in @pages
 * @pages: the pages, index order, each folio under writeback
 */
struct exofs_wb {
	struct exofs_io io;
	struct list_head node;
	struct work_struct work;
	struct list_head held;
	struct exofs_intent_wait intent;
	int err;
	u64 pstripe[2];
	unsigned int nr_pstripe;
	unsigned int nr;
	unsigned int max;
	struct page *pages[];
};

static struct exofs_wb *exofs_wb_alloc(struct inode *inode, unsigned int max)
{
	struct exofs_wb *wb;

	wb = kvmalloc(struct_size(wb, pages, max), GFP_NOFS);
	if (!wb)
		return NULL;
	wb->io.inode = inode;
	INIT_LIST_HEAD(&wb->node);
	wb->nr_pstripe = 0;
	wb->nr = 0;
	wb->max = max;
	return wb;
}

/* Does @wb share a partial stripe with a write in flight? */
static bool exofs_wb_conflicts(struct exofs_i_info *oi, struct exofs_wb *wb)
{
	struct exofs_wb *other;
	unsigned int i, j;

	list_for_each_entry(other, &oi->wb_list, node)
		for (i = 0; i < wb->nr_pstripe; i++)
			for (j = 0; j < other->nr_pstripe; j++)
				if (wb->pstripe[i] == other->pstripe[j])
					return true;
	return false;
}

static bool exofs_wb_try_slot(struct exofs_i_info *oi, struct exofs_wb *wb)
{
	unsigned long flags;
	bool ok = false;

	spin_lock_irqsave(&oi->wlock, flags);
	if (!oi->wb_excl && !exofs_wb_conflicts(oi, wb)) {
		if (wb->nr_pstripe)
			list_add_tail(&wb->node, &oi->wb_list);
		oi->wb_nr++;
		ok = true;
	}
	spin_unlock_irqrestore(&oi->wlock, flags);
	return ok;
}

/*
 * Wait until @wb may be written: no truncate running and no write in flight
 * that holds one of @wb's partial stripes. Full stripes need no waiting:
 * a stripe covered whole by @wb has all its folios under writeback by @wb,
 * so no other write can touch it.
 */
static void exofs_wb_get_slot(struct exofs_i_info *oi, struct exofs_wb *wb)
{
	wait_var_event(&oi->wb_nr, exofs_wb_try_slot(oi, wb));
}

static void exofs_wb_put_slot(struct exofs_i_info *oi, struct exofs_wb *wb)
{
	unsigned long flags;

	spin_lock_irqsave(&oi->wlock, flags);
	if (!list_empty(&wb->node))
		list_del_init(&wb->node);
	oi->wb_nr--;
	spin_unlock_irqrestore(&oi->wlock, flags);
	wake_up_var(&oi->wb_nr);
}

/* Keep writeback out of @inode and wait for its writes (truncate). */
void exofs_wb_exclude(struct inode *inode)
{
	struct exofs_i_info *oi = exofs_i(inode);

	spin_lock_irq(&oi->wlock);
	oi->wb_excl = true;
	spin_unlock_irq(&oi->wlock);
	wait_var_event(&oi->wb_nr, !READ_ONCE(oi->wb_nr));
}

void exofs_wb_allow(struct inode *inode)
{
	struct exofs_i_info *oi = exofs_i(inode);

	spin_lock_irq(&oi->wlock);
	oi->wb_excl = false;
	spin_unlock_irq(&oi->wlock);
	wake_up_var(&oi->wb_nr);
}

/*
 * The end of a write. The slot is given back before the folios end their
 * writeback: once the last one does, the inode may be evicted and freed.
 */
static void exofs_wb_finish(struct exofs_wb *wb)
{
	unsigned int i;

	exofs_intent_end(exofs_sb(wb->io.inode->i_sb), &wb->intent);
	exofs_wb_put_slot(exofs_i(wb->io.inode), wb);
	for (i = 0; i < wb->nr; i++)
		folio_end_writeback(page_folio(wb->pages[i]));
	kvfree(wb);
}

/*
 * A store was full: the stripe may now hold new data on some components
 * and old on others, so the folios stay dirty and are written again (once
 * space is freed the stripe is whole again). Under writeback the folios
 * and their inode cannot go away, so no folio lock is needed.
 */
static void exofs_wb_redirty_work(struct work_struct *work)
{
	struct exofs_wb *wb = container_of(work, struct exofs_wb, work);
	unsigned int i;

	for (i = 0; i < wb->nr; i++)
		folio_mark_dirty(page_folio(wb->pages[i]));
	exofs_wb_finish(wb);
}

/*
 * The write made components the record's i_made does not reach yet (sized
 * components): the inode is dirtied and listed, from process context and
 * before the write ends, so that the sync (or umount) that waits for the
 * write puts its record in the table before it writes the table
 * (exofs_made_dirty()). Under writeback the inode cannot go away; an
 * unlinked one needs no record (its delete frees it).
 */
static void exofs_wb_made_work(struct work_struct *work)
{
	struct exofs_wb *wb = container_of(work, struct exofs_wb, work);
	struct inode *inode = wb->io.inode;

	if (inode->i_nlink)
		exofs_made_dirty(inode);
	exofs_wb_finish(wb);
}

static void exofs_write_end_io(struct exofs_wb *wb, int err)
{
	struct inode *inode = wb->io.inode;
	struct exofs_sb_info *sbi = exofs_sb(inode->i_sb);
	struct exofs_i_info *oi = exofs_i(inode);

	if (err) {
		atomic64_inc(&sbi->cnt.write_errors);
		pr_err_ratelimited("%s: write of inode %ld at %llu (%u pages) failed: %d%s\n",
				   inode->i_sb->s_id, (long)inode->i_ino,
				   (u64)page_offset(wb->pages[0]), wb->nr, err,
				   err == -ENOSPC ? " (kept dirty, retried later)" : "");
		mapping_set_error(inode->i_mapping, err);
	}
	if (err == -ENOSPC) {
		INIT_WORK(&wb->work, exofs_wb_redirty_work);
		queue_work(system_unbound_wq, &wb->work);
		return;
	}
	if (exofs_made_unrecorded(oi)) {
		INIT_WORK(&wb->work, exofs_wb_made_work);
		queue_work(system_unbound_wq, &wb->work);
		return;
	}
	exofs_wb_finish(wb);
}

static void exofs_write_done(struct ore_io_state *ios, void *priv)
{
	struct exofs_wb *wb = priv;
	struct exofs_sb_info *sbi = exofs_sb(wb->io.inode->i_sb);
	int err = ore_check_io(ios, exofs_io_error);

	/* a component that hit a full store is stale: not a success */
	if (ios->nospc)
		err = -ENOSPC;
	atomic64_add(ios->stats_full_stripes, &sbi->cnt.full_stripes);
	atomic64_add(ios->stats_partial_stripes, &sbi->cnt.partial_stripes);
	atomic64_add(ios->stats_r4w_pages, &sbi->cnt.r4w_pages);
	atomic64_add(ios->stats_reads, &sbi->cnt.r4w_reads);
	if (ios->degraded)
		atomic64_inc(&sbi->cnt.degraded_ios);
	/*
	 * Its read-for-write met blocks failing their checksum: they were
	 * rebuilt for the parity, but stay bad on their store. Rewritten as
	 * a read's are.
	 */
	if (ios->csum_errors)
		exofs_csum_repair(wb->io.inode, ios, err);
	ore_put_io_state(ios);
	/* not done before the superblocks record a failed store */
	wb->err = err;
	if (exofs_hold_write(sbi, &wb->held))
		return;
	exofs_write_end_io(wb, err);
}

/**
 * exofs_held_write_done - end a write held by exofs_hold_write()
 * @node: &exofs_wb.held of the write
 * @error: 0 when the failure it waited for is recorded, else the error
 *
 * Process context (exofs_sb_work()).
 */
void exofs_held_write_done(struct list_head *node, int error)
{
	struct exofs_wb *wb = container_of(node, struct exofs_wb, held);

	exofs_write_end_io(wb, wb->err ? wb->err : error);
}

/*
 * r4w: ORE asks for an untouched page of a partially written stripe. Give
 * it the cached folio when it is clean and uptodate, locked so that nobody
 * changes it while the parity is computed; else NULL and ORE reads the
 * stored data (a dirty folio differs from what is stored, and the parity
 * must match what is stored). Never sleeps on a folio: the folio may be
 * held by a writeback that waits for this write.
 */
static struct page *exofs_r4w_get_page(void *priv, u64 offset, bool *uptodate)
{
	struct exofs_wb *wb = priv;
	struct inode *inode = wb->io.inode;
	struct exofs_sb_info *sbi = exofs_sb(inode->i_sb);
	struct folio *folio;

	/*
	 * Past EOF the stored data is zeros once exofs_clean_tail() or a
	 * truncate made sure of it (whole pages are written with their tail
	 * zeroed, truncate zeroes the rest of its stripe): no read. Until
	 * then (a crash or a damaged image may have left bytes there) ORE
	 * reads them, so that the parity matches what is stored.
	 */
	if (offset >= round_up(i_size_read(inode), PAGE_SIZE) &&
	    test_bit(EXOFS_I_TAIL_CLEAN, &exofs_i(inode)->state)) {
		atomic64_inc(&sbi->cnt.r4w_hits);
		*uptodate = true;
		return ZERO_PAGE(0);
	}
	*uptodate = false;
	folio = filemap_get_folio(inode->i_mapping, offset >> PAGE_SHIFT);
	if (IS_ERR(folio))
		return NULL;
	if (!folio_trylock(folio))
		goto out_put;
	if (!folio_test_uptodate(folio) || folio_test_dirty(folio) ||
	    folio_test_writeback(folio) || folio->mapping != inode->i_mapping)
		goto out_unlock;
	atomic64_inc(&sbi->cnt.r4w_hits);
	*uptodate = true;
	return folio_file_page(folio, offset >> PAGE_SHIFT);

out_unlock:
	folio_unlock(folio);
out_put:
	folio_put(folio);
	return NULL;
}

static void exofs_r4w_put_page(void *priv, struct page *page, bool uptodate)
{
	struct folio *folio = page_folio(page);

	if (page == ZERO_PAGE(0))
		return;
	folio_unlock(folio);
	folio_put(folio);
}

static const struct ore_r4w_ops exofs_r4w_ops = {
	.get_page = exofs_r4w_get_page,
	.put_page = exofs_r4w_put_page,
};

static void exofs_wb_issue(struct exofs_intent_wait *w, int err);

/*
 * Issue @wb (its folios under writeback); it completes asynchronously,
 * after the intent record names its regions.
 */
static void exofs_wb_submit(struct exofs_wb *wb)
{
	struct inode *inode = wb->io.inode;
	struct exofs_sb_info *sbi = exofs_sb(inode->i_sb);
	struct exofs_i_info *oi = exofs_i(inode);
	u64 offset = page_offset(wb->pages[0]);
	u64 len = (u64)wb->nr << PAGE_SHIFT;
	u64 U = sbi->layout.stripe_length;

	if (sbi->layout.parity) {
		struct ore_stripe_cut cut;

		ore_layout_cut(&sbi->layout, offset, len, &cut);
		if (cut.head_len)
			wb->pstripe[wb->nr_pstripe++] =
				div64_u64(cut.head_off, U);
		if (cut.tail_len)
			wb->pstripe[wb->nr_pstripe++] =
				div64_u64(cut.tail_off, U);
	}
	exofs_wb_get_slot(oi, wb);
	wb->intent.fn = exofs_wb_issue;
	if (!exofs_intent_begin(sbi, oi->oc.oid, offset, len, &wb->intent))
		exofs_wb_issue(&wb->intent, 0);
}

/*
 * Start @wb's ore_write(), once its regions are in the intent record
 * (@err: the record could not be written; the write fails).
 */
static void exofs_wb_issue(struct exofs_intent_wait *w, int err)
{
	struct exofs_wb *wb = container_of(w, struct exofs_wb, intent);
	struct inode *inode = wb->io.inode;
	struct exofs_sb_info *sbi = exofs_sb(inode->i_sb);
	struct exofs_i_info *oi = exofs_i(inode);
	u64 offset = page_offset(wb->pages[0]);
	u64 len = (u64)wb->nr << PAGE_SHIFT;
	struct ore_io_state *ios;

	if (err)
		goto fail;
	err = ore_get_rw_state(&sbi->layout, &oi->oc, false, offset, len,
			       &ios);
	if (err)
		goto fail;
	ios->pages = wb->pages;
	ios->nr_pages = wb->nr;
	ios->r4w = &exofs_r4w_ops;
	ios->done = exofs_write_done;
	ios->private = wb;
	atomic64_inc(&sbi->cnt.write_ios);
	err = ore_write(ios);
	if (!err)
		return;
	ore_put_io_state(ios);
fail:
	exofs_write_end_io(wb, err);
}

/* Pages of one stripe (1 for layouts whose stripe is not page-multiple). */
static unsigned long exofs_stripe_pages(struct exofs_sb_info *sbi)
{
	u64 n = sbi->layout.stripe_length >> PAGE_SHIFT;

	return n ? n : 1;
}

/*
 * @wb is full: issue it up to its last stripe boundary and carry the
 * partial tail stripe (when something comes before it) into a new batch,
 * so that the next I/O starts on a stripe boundary.
 */
static struct exofs_wb *exofs_wb_cut(struct exofs_wb *wb)
{
	struct exofs_sb_info *sbi = exofs_sb(wb->io.inode->i_sb);
	struct ore_stripe_cut cut;
	struct exofs_wb *next;
	unsigned int keep;

	ore_layout_cut(&sbi->layout, page_offset(wb->pages[0]),
		       (u64)wb->nr << PAGE_SHIFT, &cut);
	if (!cut.tail_len || cut.tail_off == cut.head_off) {
		exofs_wb_submit(wb);
		return NULL;
	}
	keep = cut.tail_len >> PAGE_SHIFT;
	next = exofs_wb_alloc(wb->io.inode, wb->max);
	if (!next) {
		exofs_wb_submit(wb);
		return NULL;
	}
	memcpy(next->pages, wb->pages + wb->nr - keep,
	       keep * sizeof(*wb->pages));
	next->nr = keep;
	wb->nr -= keep;
	exofs_wb_submit(wb);
	return next;
}

/*
 * Add @folio (locked, dirty bit cleared by writeback_iter) to the batch
 * in *@pwb, issuing the batch first when @folio does not continue it.
 */
static int exofs_wb_add(struct inode *inode, struct exofs_wb **pwb,
			struct folio *folio, struct writeback_control *wbc)
{
	struct exofs_sb_info *sbi = exofs_sb(inode->i_sb);
	struct exofs_wb *wb = *pwb;
	loff_t isize = i_size_read(inode);
	unsigned long sp;

	if (folio_pos(folio) >= isize) {
		/* wholly beyond EOF: truncate is removing it */
		folio_unlock(folio);
		return 0;
	}
	exofs_zero_beyond_eof(inode, folio);

	if (wb && wb->pages[wb->nr - 1]->index + 1 != folio->index) {
		exofs_wb_submit(wb);
		wb = NULL;
	}
	if (wb && wb->nr == wb->max)
		wb = exofs_wb_cut(wb);
	if (!wb) {
		wb = exofs_wb_alloc(inode, sbi->wb_max_pages);
		if (!wb)
			wb = exofs_wb_alloc(inode, 16);
		if (!wb) {
			*pwb = NULL;
			folio_redirty_for_writepage(wbc, folio);
			folio_unlock(folio);
			return -ENOMEM;
		}
	}
	folio_start_writeback(folio);
	folio_unlock(folio);
	wb->pages[wb->nr++] = &folio->page;
	*pwb = wb;

	/*
	 * Background writeback stops after nr_to_write pages; let it finish
	 * the stripe it is in rather than leave a partial stripe now and
	 * another one later.
	 */
	sp = exofs_stripe_pages(sbi);
	if (wbc->sync_mode == WB_SYNC_NONE && wbc->nr_to_write <= 1 &&
	    (folio->index + 1) % sp)
		wbc->nr_to_write += sp - (folio->index + 1) % sp;
	return 0;
}

static int exofs_writepages(struct address_space *mapping,
			    struct writeback_control *wbc)
{
	struct inode *inode = mapping->host;
	struct exofs_sb_info *sbi = exofs_sb(inode->i_sb);
	struct exofs_wb *wb = NULL;
	struct folio *folio = NULL;
	unsigned long sp = exofs_stripe_pages(sbi);
	int error = 0;

	/* cyclic writeback resumes at the start of the stripe it stopped in */
	if (wbc->range_cyclic)
		mapping->writeback_index = rounddown(mapping->writeback_index,
						     sp);
	while ((folio = writeback_iter(mapping, wbc, folio, &error)))
		error = exofs_wb_add(inode, &wb, folio, wbc);
	if (wb)
		exofs_wb_submit(wb);
	return error;
}

/* ------------------------------------------------------------------ */
/* buffered write */

/*
 * Refuse new data when a store is (nearly) full, so that the writer gets
 * -ENOSPC from write() rather than later from writeback. A store must keep
 * room for its share of the filesystem's dirty data (twice, for the waste
 * of small component files) plus EXOFS_SPACE_RESERVE. The stores' statfs
 * is asked at most every 100 ms, and at every call once one runs low.
 */
static int exofs_check_space(struct inode *inode)
{
	struct super_block *sb = inode->i_sb;
	struct exofs_sb_info *sbi = exofs_sb(sb);
	const struct ore_layout *l = &sbi->layout;
	unsigned long now = jiffies;
	u64 dirty, need, low = EXOFS_SPACE_LOW;
	bool full = false;
	u32 i;

	if (!READ_ONCE(sbi->space_low) &&
	    time_before(now, READ_ONCE(sbi->space_checked) + HZ / 10))
		return 0;
	WRITE_ONCE(sbi->space_checked, now);
	dirty = (wb_stat(&sb->s_bdi->wb, WB_RECLAIMABLE) +
		 wb_stat(&sb->s_bdi->wb, WB_WRITEBACK)) << PAGE_SHIFT;
	need = EXOFS_SPACE_RESERVE +
	       div64_u64(2 * dirty * l->num_comps,
			 (u64)l->data_width * l->group_count * sbi->num_stores);
	for (i = 0; i < sbi->num_stores; i++) {
		struct kstatfs st;
		u64 free;

		if (READ_ONCE(sbi->stores[i].state) != EXOFS_STORE_OK ||
		    ore_store_statfs(sbi->ore_stores[i], &st))
			continue;
		free = st.f_bfree * st.f_bsize;
		if (free < need)
			full = true;
		low = min(low, free);
	}
	WRITE_ONCE(sbi->space_low, low < EXOFS_SPACE_LOW);
	return full ? -ENOSPC : 0;
}

/**
 * exofs_truncate_object - ore_truncate() of @inode's object at @size
 * @inode: the inode (i_rwsem held)
 * @size: the new length
 *
 * Writeback is kept out, and the region of @size is in the intent record
 * first: the truncate rewrites the stripe row that holds @size.
 *
 * Return: 0 or a negative errno.
 */
int exofs_truncate_object(struct inode *inode, loff_t size)
{
	struct exofs_sb_info *sbi = exofs_sb(inode->i_sb);
	struct exofs_i_info *oi = exofs_i(inode);
	struct exofs_intent_wait w;
	int err;

	exofs_wb_exclude(inode);
	err = exofs_intent_begin_sync(sbi, oi->oc.oid, size, 1, &w);
	if (!err)
		err = ore_truncate(&sbi->layout, &oi->oc, size);
	exofs_intent_end(sbi, &w);
	exofs_wb_allow(inode);
	/* sized components: the record says how far they are made */
	if (exofs_made_unrecorded(oi))
		mark_inode_dirty_sync(inode);
	return err;
}

/**
 * exofs_clean_tail - make sure no stored byte beyond @from shows up in a file
 * @inode: a regular file, i_rwsem held
 * @from: its size, about to grow (a write beyond it, or truncate up)
 *
 * Reads beyond EOF are served as zeros, so nothing checks what the stores
 * hold there; once the size grows over it, it would be read. Normal
 * writes leave zeros there, but a crash (data written, the record with the
 * new size not) or a damaged image need not. So before the size first
 * grows (per inode in memory), ask the stores how far the object extends:
 * nothing beyond the EOF page: done; bytes in the EOF page: zeroed in the
 * page cache, which writes that page whole; beyond it: the object is
 * truncated at @from (which also fixes the parity). From then on exofs
 * keeps the tail clean itself (EXOFS_I_TAIL_CLEAN). A folio of the EOF
 * page in the cache is zeroed past @from every time (mmap can write there).
 *
 * Return: 0 or a negative errno.
 */
int exofs_clean_tail(struct inode *inode, loff_t from)
{
	struct exofs_sb_info *sbi = exofs_sb(inode->i_sb);
	struct exofs_i_info *oi = exofs_i(inode);
	struct folio *folio;
	u64 stored;
	int err;

	if (offset_in_page(from)) {
		folio = filemap_lock_folio(inode->i_mapping, from >> PAGE_SHIFT);
		if (!IS_ERR(folio)) {
			if (folio_test_uptodate(folio)) {
				folio_wait_stable(folio);
				folio_zero_segment(folio,
						   offset_in_folio(folio, from),
						   folio_size(folio));
			}
			folio_unlock(folio);
			folio_put(folio);
		}
	}
	if (test_bit(EXOFS_I_TAIL_CLEAN, &oi->state))
		return 0;
	err = ore_length(&sbi->layout, &oi->oc, &stored);
	if (err)
		return err;
	if (stored > round_up(from, PAGE_SIZE)) {
		pr_warn_ratelimited("%s: inode %lu (object 0x%llx) holds data up to %llu, beyond its size %lld: cut at the size\n",
				    inode->i_sb->s_id, inode->i_ino, oi->oc.oid,
				    stored, from);
		err = exofs_truncate_object(inode, from);
		if (err) {
			exofs_err(inode->i_sb, __func__, "cannot cut inode %lu at %lld: %d",
				  inode->i_ino, from, err);
			return err;
		}
	} else if (stored > from) {
		/* read_mapping_folio() zeroes past EOF; written whole */
		folio = read_mapping_folio(inode->i_mapping, from >> PAGE_SHIFT,
					   NULL);
		if (IS_ERR(folio))
			return PTR_ERR(folio);
		folio_lock(folio);
		folio_wait_stable(folio);
		folio_zero_segment(folio, offset_in_folio(folio, from),
				   folio_size(folio));
		folio_mark_dirty(folio);
		folio_unlock(folio);
		folio_put(folio);
	}
	set_bit(EXOFS_I_TAIL_CLEAN, &oi->state);
	return 0;
}

static int exofs_write_begin(struct file *file, struct address_space *mapping,
			     loff_t pos, unsigned int len,
			     struct folio **foliop, void **fsdata)
{
	struct inode *inode = mapping->host;
	struct folio *folio;
	int err;

	if (S_ISREG(inode->i_mode)) {
		err = exofs_check_space(inode);
		if (err)
			return err;
		if (pos + len > i_size_read(inode)) {
			err = exofs_clean_tail(inode, i_size_read(inode));
			if (err)
				return err;
		}
	}
	folio = __filemap_get_folio(mapping, pos >> PAGE_SHIFT, FGP_WRITEBEGIN,
				    mapping_gfp_mask(mapping));
	if (IS_ERR(folio))
		return PTR_ERR(folio);
	if (!folio_test_uptodate(folio) &&
	    (offset_in_folio(folio, pos) || len < folio_size(folio))) {
		err = exofs_read_folio_sync(inode, folio);
		if (err) {
			folio_unlock(folio);
			folio_put(folio);
			return err;
		}
	}
	*foliop = folio;
	return 0;
}

static int exofs_write_end(struct file *file, struct address_space *mapping,
			   loff_t pos, unsigned int len, unsigned int copied,
			   struct folio *folio, void *fsdata)
{
	struct inode *inode = mapping->host;

	if (!folio_test_uptodate(folio)) {
		if (copied < len) {
			copied = 0;	/* the caller retries */
			goto out;
		}
		folio_mark_uptodate(folio);
	}
	folio_mark_dirty(folio);
	if (pos + copied > inode->i_size) {
		i_size_write(inode, pos + copied);
		mark_inode_dirty(inode);
	}
out:
	folio_unlock(folio);
	folio_put(folio);
	return copied;
}

/*
 * No ->writepage: single-folio writeback would write every stripe in
 * pieces (the seed's patch 003 removed it for the same reason); reclaim
 * copes without it.
 */
const struct address_space_operations exofs_aops = {
	.read_folio	= exofs_read_folio,
	.readahead	= exofs_readahead,
	.writepages	= exofs_writepages,
	.write_begin	= exofs_write_begin,
	.write_end	= exofs_write_end,
	.dirty_folio	= filemap_dirty_folio,
	.migrate_folio	= filemap_migrate_folio,
};
