// SPDX-License-Identifier: GPL-2.0
/*
 * oreblk block device: a bio-based disk and its data path.
 *
 * Bio based, as md and dm are: a stacking driver that submits bios to its
 * members from blk-mq's ->queue_rq would do so from inside the plug flush
 * that called it, adding the members' requests to the very plug list being
 * flushed; from ->submit_bio, the members' bios simply wait on
 * current->bio_list until we return, and the block layer submits them
 * next (lower devices first), plugged as usual.
 *
 * A read or write bio (split to max_bytes, 4 KiB logical blocks) is a
 * contiguous logical range; its memory is collected as whole pages (bounce
 * pages when a segment is not a whole page) and cut into pieces, each done
 * by one ORE I/O state:
 *  - reads and layouts without parity: one piece;
 *  - writes of parity layouts: a partial first stripe, the full stripes,
 *    a partial last stripe. The full stripes never wait for the partial
 *    neighbours of other bios (sequential writes that are not stripe
 *    aligned share their boundary stripes), and only partial pieces use
 *    the stripe cache.
 * A piece of a redundant layout first locks its stripes (lock.c); reads do
 * so only while the array is degraded, or to redo a read that came back
 * rebuilt from parity (which may have raced with a write of its stripe).
 *
 * Contexts: ->submit_bio must not wait for I/O (its own bios to the
 * members are not submitted before it returns), and nothing here does:
 * ORE maps and computes full-stripe parity in the caller's context, plans
 * partial stripes there too (starting their reads, never waiting) and
 * finishes them in its own workqueue; pieces that waited for a
 * lock, and cache flushes (synchronous), run from oreblk_wq. ORE's
 * completion runs in any context, and the bio ends there.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/slab.h>
#include <linux/highmem.h>
#include <linux/wait_bit.h>

#include "internal.h"

static void oreblk_piece_submit(struct oreblk_piece *piece);

/* ------------------------------------------------------------------ */
/* completion */

/*
 * Copy between the bio's memory and the bounce pages (@to_bio: out of
 * them). A segment of the bio lies in one page of its own but may start
 * anywhere in a bounce page and run into the next one: copy by pieces
 * that stay inside one page of each.
 */
static void oreblk_bounce_copy(struct oreblk_cmd *cmd, bool to_bio)
{
	struct bvec_iter iter;
	struct bio_vec bv;
	u64 pos = 0;

	bio_for_each_segment(bv, cmd->bio, iter) {
		u32 done = 0;

		while (done < bv.bv_len) {
			u32 in = offset_in_page(pos);
			u32 n = min_t(u32, bv.bv_len - done, PAGE_SIZE - in);
			void *b = page_address(cmd->pages[pos >> PAGE_SHIFT]) + in;

			if (to_bio)
				memcpy_to_page(bv.bv_page, bv.bv_offset + done,
					       b, n);
			else
				memcpy_from_page(b, bv.bv_page,
						 bv.bv_offset + done, n);
			done += n;
			pos += n;
		}
	}
}

/**
 * oreblk_cmd_end - end the bio of a command and free the command
 * @cmd: the command, its I/O over
 *
 * Any context.
 */
void oreblk_cmd_end(struct oreblk_cmd *cmd)
{
	struct oreblk_array *arr = cmd->arr;
	struct bio *bio = cmd->bio;

	if (cmd->error)
		bio->bi_status = errno_to_blk_status(cmd->error);
	bio_end_io_acct(bio, cmd->start_time);
	srcu_up_read(&arr->store_srcu, cmd->srcu_idx);
	mempool_free(cmd, arr->cmd_pool);
	bio_endio(bio);
	if (atomic_dec_and_test(&arr->inflight))
		wake_up_var(&arr->inflight);
}

/*
 * The I/O of @cmd is over: copy out of the bounce pages, then end the bio,
 * or leave that to the superblock update of a member failure not on disk
 * yet (oreblk_hold_for_sb()).
 */
static void oreblk_cmd_finish(struct oreblk_cmd *cmd)
{
	unsigned int i;

	oreblk_intent_end(cmd->arr, cmd);
	if (cmd->bounce) {
		if (!cmd->write && !cmd->error)
			oreblk_bounce_copy(cmd, true);
		for (i = 0; i < cmd->length >> PAGE_SHIFT; i++)
			__free_page(cmd->pages[i]);
		cmd->bounce = false;
	}
	if (oreblk_hold_for_sb(cmd->arr, cmd))
		return;
	oreblk_cmd_end(cmd);
}

static void oreblk_cmd_put(struct oreblk_cmd *cmd)
{
	if (atomic_dec_and_test(&cmd->pending))
		oreblk_cmd_finish(cmd);
}

/* A piece is over (its locks are still held): release, account, finish. */
static void oreblk_piece_end(struct oreblk_piece *piece, int error)
{
	struct oreblk_cmd *cmd = piece->cmd;

	if (piece->locked)
		oreblk_unlock_stripes(&cmd->arr->locks, piece);
	if (error)
		cmpxchg(&cmd->error, 0, error);
	oreblk_cmd_put(cmd);
}

static void oreblk_on_dev_error(struct ore_io_state *ios, u32 comp,
				struct ore_store *store, u64 offset, int error)
{
	struct oreblk_piece *piece = ios->private;

	oreblk_store_failed(piece->cmd->arr, comp, store, offset, error);
}

static void oreblk_piece_done(struct ore_io_state *ios, void *private)
{
	struct oreblk_piece *piece = private;
	struct oreblk_array *arr = piece->cmd->arr;
	bool write = ios->kind == ORE_IO_WRITE;
	int err;

	err = ore_check_io(ios, oreblk_on_dev_error);
	piece->ios = NULL;
	if (!write && ((!err && ios->degraded) || ios->csum_errors) &&
	    arr->redundant && !piece->locked) {
		/*
		 * Rebuilt from parity, or a checksum mismatch, without the
		 * stripe locks (a write of the same blocks in flight looks
		 * like both): do it again holding them, where a mismatch
		 * is real and is rewritten (ios->rewrite_bad)
		 */
		ore_put_io_state(ios);
		piece->locked = true;
		piece->retried = true;
		piece->next_stripe = piece->first_stripe;
		queue_work(oreblk_wq, &piece->work);
		return;
	}
	if (write && arr->layout.parity)
		oreblk_cache_written(&arr->cache, piece->offset, piece->length,
				     piece->pages, !err && piece->partial);
	ore_put_io_state(ios);
	oreblk_piece_end(piece, err);
}

/* ------------------------------------------------------------------ */
/* submission */

static void oreblk_piece_submit(struct oreblk_piece *piece)
{
	struct oreblk_cmd *cmd = piece->cmd;
	struct oreblk_array *arr = cmd->arr;
	bool write = cmd->write;
	struct ore_io_state *ios;
	int err;

	err = ore_get_rw_state(&arr->layout, &arr->oc, !write, piece->offset,
			       piece->length, &ios);
	if (err)
		goto out;
	ios->pages = piece->pages;
	ios->nr_pages = piece->nr_pages;
	ios->done = oreblk_piece_done;
	ios->private = piece;
	ios->rewrite_bad = piece->locked;
	if (write) {
		ios->fua = !!(cmd->bio->bi_opf & REQ_FUA);
		if (piece->partial && arr->layout.parity)
			ios->r4w = &oreblk_r4w_ops;
	}
	piece->ios = ios;
	err = write ? ore_write(ios) : ore_read(ios);
	if (!err)
		return;	/* oreblk_piece_done() runs when it is over */
	piece->ios = NULL;
	ore_put_io_state(ios);
out:
	pr_err_ratelimited("oreblk%d: %s of %llu bytes at %llu could not start: %d\n",
			   arr->index, write ? "write" : "read", piece->length,
			   piece->offset, err);
	oreblk_piece_end(piece, err);
}

/* Lock (if needed) and submit; returns at once when a lock is busy. */
static void oreblk_piece_start(struct oreblk_piece *piece)
{
	if (piece->locked &&
	    !oreblk_lock_stripes(&piece->cmd->arr->locks, piece))
		return;	/* the holder queues our work when it hands over */
	oreblk_piece_submit(piece);
}

void oreblk_piece_start_work(struct work_struct *work)
{
	oreblk_piece_start(container_of(work, struct oreblk_piece, work));
}

/* How a piece is done (oreblk_add_piece()). */
enum {
	OREBLK_PIECE_LOCKED	= 1 << 0,	/* takes its stripe locks */
	OREBLK_PIECE_PARTIAL	= 1 << 1,	/* a partial stripe: the cache */
};

static void oreblk_add_piece(struct oreblk_cmd *cmd, u64 offset, u64 length,
			     unsigned int how)
{
	struct oreblk_array *arr = cmd->arr;
	struct oreblk_piece *piece = &cmd->pieces[cmd->nr_pieces];
	u64 U = arr->layout.stripe_length;
	unsigned int ent0 = 0, i;

	for (i = 0; i < cmd->nr_pieces; i++)
		ent0 += cmd->pieces[i].last_stripe -
			cmd->pieces[i].first_stripe + 1;
	piece->cmd = cmd;
	piece->offset = offset;
	piece->length = length;
	piece->pages = &cmd->pages[(offset - cmd->offset) >> PAGE_SHIFT];
	piece->nr_pages = length >> PAGE_SHIFT;
	piece->first_stripe = div64_u64(offset, U);
	piece->last_stripe = div64_u64(offset + length - 1, U);
	piece->next_stripe = piece->first_stripe;
	piece->ents = &cmd->ents[ent0];
	piece->locked = how & OREBLK_PIECE_LOCKED;
	piece->partial = how & OREBLK_PIECE_PARTIAL;
	piece->retried = false;
	piece->ios = NULL;
	cmd->nr_pieces++;
}

/* Cut the bio's range into pieces. */
static void oreblk_plan(struct oreblk_cmd *cmd)
{
	struct oreblk_array *arr = cmd->arr;
	u64 off = cmd->offset, len = cmd->length;
	struct ore_stripe_cut cut;
	bool lock;

	cmd->nr_pieces = 0;
	if (!cmd->write || !arr->layout.parity) {
		lock = arr->redundant &&
		       (cmd->write || atomic_read(&arr->nr_failed));
		oreblk_add_piece(cmd, off, len, lock ? OREBLK_PIECE_LOCKED : 0);
		return;
	}
	ore_layout_cut(&arr->layout, off, len, &cut);
	if (cut.head_len)
		oreblk_add_piece(cmd, cut.head_off, cut.head_len,
				 OREBLK_PIECE_LOCKED | OREBLK_PIECE_PARTIAL);
	if (cut.full_len)
		oreblk_add_piece(cmd, cut.full_off, cut.full_len,
				 OREBLK_PIECE_LOCKED);
	if (cut.tail_len)
		oreblk_add_piece(cmd, cut.tail_off, cut.tail_len,
				 OREBLK_PIECE_LOCKED | OREBLK_PIECE_PARTIAL);
}

/*
 * Collect the bio's memory as whole pages. Returns 0, or -ENOMEM when
 * bounce pages were needed and could not be had.
 */
static int oreblk_map_pages(struct oreblk_cmd *cmd)
{
	unsigned int n = 0, nr = cmd->length >> PAGE_SHIFT, i;
	struct bio *bio = cmd->bio;
	struct bvec_iter iter;
	struct bio_vec bv;

	bio_for_each_segment(bv, bio, iter) {
		if (bv.bv_offset || bv.bv_len != PAGE_SIZE)
			goto bounce;
		cmd->pages[n++] = bv.bv_page;
	}
	return 0;

bounce:
	for (i = 0; i < nr; i++) {
		cmd->pages[i] = alloc_page(GFP_NOIO);
		if (!cmd->pages[i]) {
			while (i--)
				__free_page(cmd->pages[i]);
			return -ENOMEM;
		}
	}
	cmd->bounce = true;
	if (cmd->write)
		oreblk_bounce_copy(cmd, false);
	return 0;
}

/* Serve the data of @cmd: pieces, locks, ORE. Never waits for I/O. */
static void oreblk_cmd_start(struct oreblk_cmd *cmd)
{
	unsigned int i;
	int err;

	err = oreblk_map_pages(cmd);
	if (err) {
		pr_err_ratelimited("oreblk%d: no memory for bounce pages of %llu bytes at %llu\n",
				   cmd->arr->index, cmd->length, cmd->offset);
		cmd->error = err;
		oreblk_cmd_finish(cmd);
		return;
	}
	oreblk_plan(cmd);
	atomic_set(&cmd->pending, cmd->nr_pieces + 1);
	for (i = 0; i < cmd->nr_pieces; i++)
		oreblk_piece_start(&cmd->pieces[i]);
	oreblk_cmd_put(cmd);
}

/* REQ_PREFLUSH: the members' caches first (synchronous), then the data. */
static void oreblk_flush_work(struct work_struct *work)
{
	struct oreblk_cmd *cmd = container_of(work, struct oreblk_cmd, work);
	struct oreblk_array *arr = cmd->arr;
	int err;

	err = ore_flush(&arr->layout, &arr->oc);
	if (err) {
		pr_err_ratelimited("oreblk%d: cache flush failed: %d\n",
				   arr->index, err);
		cmd->error = err;
	}
	if (err || !cmd->length) {
		oreblk_cmd_finish(cmd);
		return;
	}
	oreblk_cmd_start(cmd);
}

/**
 * oreblk_cmd_dispatch - serve a command checked by ->submit_bio
 * @cmd: the command
 *
 * Never waits for I/O: a write whose write-intent bits are not on disk
 * waits for them (intent.c), a cache flush first goes to oreblk_wq.
 */
void oreblk_cmd_dispatch(struct oreblk_cmd *cmd)
{
	if (cmd->write && cmd->length && oreblk_intent_hold(cmd->arr, cmd))
		return;	/* started again once its regions are marked */
	if (cmd->bio->bi_opf & REQ_PREFLUSH) {
		INIT_WORK(&cmd->work, oreblk_flush_work);
		queue_work(oreblk_wq, &cmd->work);
		return;
	}
	oreblk_cmd_start(cmd);
}

/* A command for @bio, counted in flight and in the disk's statistics. */
static struct oreblk_cmd *oreblk_cmd_alloc(struct oreblk_array *arr,
					   struct bio *bio)
{
	struct oreblk_cmd *cmd = mempool_alloc(arr->cmd_pool, GFP_NOIO);

	atomic_inc(&arr->inflight);
	/* the members' stores it uses stay until it ends */
	cmd->srcu_idx = srcu_down_read(&arr->store_srcu);
	cmd->arr = arr;
	cmd->bio = bio;
	cmd->offset = (u64)bio->bi_iter.bi_sector << SECTOR_SHIFT;
	cmd->length = bio->bi_iter.bi_size;
	cmd->write = op_is_write(bio_op(bio));
	cmd->pages = (struct page **)(cmd + 1);
	cmd->ents = (struct oreblk_lock_ent *)(cmd->pages + arr->max_pages);
	cmd->nr_pieces = 0;
	cmd->error = 0;
	cmd->bounce = false;
	cmd->intent = false;
	INIT_LIST_HEAD(&cmd->held);
	cmd->start_time = bio_start_io_acct(bio);
	return cmd;
}

static void oreblk_discard_done(struct ore_io_state *ios, void *private)
{
	struct oreblk_cmd *cmd = private;

	cmd->error = ore_check_io(ios, NULL);
	ore_put_io_state(ios);
	oreblk_cmd_finish(cmd);
}

/*
 * REQ_OP_DISCARD, advertised only for layouts without parity whose members
 * all discard (oreblk_discard_limits): ORE discards the range on every
 * mirror of every component. No stripe lock: a write racing a discard of
 * the same blocks leaves them undefined, as on any device.
 */
static void oreblk_discard(struct oreblk_array *arr, struct bio *bio)
{
	u64 offset = (u64)bio->bi_iter.bi_sector << SECTOR_SHIFT;
	u64 length = bio->bi_iter.bi_size;
	struct ore_io_state *ios;
	struct oreblk_cmd *cmd;
	int err;

	if (arr->layout.parity || (offset | length) & (PAGE_SIZE - 1) ||
	    offset + length > arr->array_size) {
		pr_err_ratelimited("oreblk%d: discard of %llu bytes at %llu refused\n",
				   arr->index, length, offset);
		bio->bi_status = BLK_STS_NOTSUPP;
		bio_endio(bio);
		return;
	}
	cmd = oreblk_cmd_alloc(arr, bio);
	err = ore_get_rw_state(&arr->layout, &arr->oc, false, offset, length,
			       &ios);
	if (!err) {
		ios->done = oreblk_discard_done;
		ios->private = cmd;
		err = ore_discard(ios);
		if (!err)
			return;
		ore_put_io_state(ios);
	}
	cmd->error = err;
	oreblk_cmd_finish(cmd);
}

static void oreblk_submit_bio(struct bio *bio)
{
	struct oreblk_array *arr = bio->bi_bdev->bd_disk->private_data;
	unsigned long now = jiffies;
	struct oreblk_cmd *cmd;
	unsigned int i;

	bio = bio_split_to_limits(bio);
	if (!bio)
		return;
	/* user activity, for the sync thread's pace (recover.c) */
	if (READ_ONCE(arr->last_io) != now)
		WRITE_ONCE(arr->last_io, now);
	switch (bio_op(bio)) {
	case REQ_OP_READ:
	case REQ_OP_WRITE:
		break;
	case REQ_OP_DISCARD:
		oreblk_discard(arr, bio);
		return;
	default:
		bio->bi_status = BLK_STS_NOTSUPP;
		bio_endio(bio);
		return;
	}
	if (!(bio->bi_opf & REQ_PREFLUSH) && !bio->bi_iter.bi_size) {
		bio_endio(bio);
		return;
	}

	cmd = oreblk_cmd_alloc(arr, bio);
	for (i = 0; i < OREBLK_MAX_PIECES; i++)
		INIT_WORK(&cmd->pieces[i].work, oreblk_piece_start_work);

	if ((cmd->offset | cmd->length) & (PAGE_SIZE - 1) ||
	    cmd->offset + cmd->length > arr->array_size ||
	    (cmd->length >> PAGE_SHIFT) > arr->max_pages) {
		pr_err_ratelimited("oreblk%d: bad bio of %llu bytes at %llu\n",
				   arr->index, cmd->length, cmd->offset);
		cmd->error = -EIO;
		oreblk_cmd_finish(cmd);
		return;
	}
	if (cmd->write && cmd->length && oreblk_dirty_hold(arr, cmd))
		return;	/* started once the superblocks say dirty */
	oreblk_cmd_dispatch(cmd);
}

static int oreblk_open(struct gendisk *disk, blk_mode_t mode)
{
	struct oreblk_array *arr = disk->private_data;

	/* oreblk_ctl_stop() sets it under disk->open_mutex, as we run */
	if (READ_ONCE(arr->stopping))
		return -ENXIO;
	return 0;
}

static const struct block_device_operations oreblk_fops = {
	.owner		= THIS_MODULE,
	.submit_bio	= oreblk_submit_bio,
	.open		= oreblk_open,
};

/* Largest bio served whole: a MiB, or one full stripe when that is larger
 * (4 MiB at most), so that large sequential writes go by whole stripes.
 */
static u32 oreblk_max_bytes(const struct ore_layout *layout)
{
	u64 b = max_t(u64, SZ_1M, layout->stripe_length);

	return (u32)min_t(u64, b, SZ_4M);
}

/*
 * Discard for layouts without parity when every present member discards:
 * parity layouts would need the discarded blocks of every member of a
 * stripe to read back as what the parity was computed from, which discard
 * does not promise (md's raid456 refuses it too unless told otherwise).
 */
static void oreblk_discard_limits(struct oreblk_array *arr,
				  struct queue_limits *lim)
{
	unsigned int gran = PAGE_SIZE;
	u32 i;

	/* a block store that keeps checksums does not discard */
	if (arr->layout.parity || arr->csum)
		return;
	for (i = 0; i < arr->nr_members; i++) {
		struct file *f = arr->members[i].sb_file;

		if (!f)
			continue;	/* missing */
		if (!bdev_max_discard_sectors(file_bdev(f)))
			return;
		gran = max(gran, bdev_discard_granularity(file_bdev(f)));
	}
	lim->max_hw_discard_sectors = OREBLK_MAX_DISCARD >> SECTOR_SHIFT;
	lim->discard_granularity = gran;
}

/**
 * oreblk_disk_create - create and add /dev/oreblkN for an assembled array
 * @arr: the array, members and layout set up
 *
 * Return: 0 or a negative errno.
 */
int oreblk_disk_create(struct oreblk_array *arr)
{
	const struct ore_layout *layout = &arr->layout;
	struct queue_limits lim = {
		.logical_block_size	= PAGE_SIZE,
		.physical_block_size	= PAGE_SIZE,
		.io_min			= layout->stripe_unit,
		.io_opt			= (unsigned int)layout->stripe_length,
		.dma_alignment		= PAGE_SIZE - 1,
		.features		= BLK_FEAT_WRITE_CACHE | BLK_FEAT_FUA |
					  BLK_FEAT_IO_STAT,
	};
	struct gendisk *disk;
	size_t cmd_size;
	int err;

	arr->max_bytes = oreblk_max_bytes(layout);
	arr->max_pages = arr->max_bytes >> PAGE_SHIFT;
	arr->max_ents = DIV_ROUND_UP_ULL(arr->max_bytes, layout->stripe_length) + 1;
	lim.max_hw_sectors = arr->max_bytes >> SECTOR_SHIFT;
	oreblk_discard_limits(arr, &lim);
	if (arr->redundant)
		/* parity and mirrors are computed from the pages as they are */
		lim.features |= BLK_FEAT_STABLE_WRITES;

	cmd_size = sizeof(struct oreblk_cmd) +
		   arr->max_pages * sizeof(struct page *) +
		   arr->max_ents * sizeof(struct oreblk_lock_ent);
	arr->cmd_pool = mempool_create_kmalloc_pool(OREBLK_MIN_CMDS, cmd_size);
	if (!arr->cmd_pool) {
		pr_err("oreblk%d: no memory for the bio pool\n",
		       arr->index);
		return -ENOMEM;
	}

	disk = blk_alloc_disk(&lim, NUMA_NO_NODE);
	if (IS_ERR(disk)) {
		err = PTR_ERR(disk);
		pr_err("oreblk%d: cannot allocate the disk: %d\n",
		       arr->index, err);
		goto out_pool;
	}
	disk->major = oreblk_major;
	disk->first_minor = arr->index * OREBLK_MINORS;
	disk->minors = OREBLK_MINORS;
	disk->fops = &oreblk_fops;
	disk->private_data = arr;
	snprintf(disk->disk_name, sizeof(disk->disk_name), "oreblk%d",
		 arr->index);
	set_capacity(disk, arr->array_size >> SECTOR_SHIFT);
	arr->disk = disk;

	err = device_add_disk(NULL, disk, oreblk_attr_groups);
	if (err) {
		pr_err("oreblk%d: cannot add the disk: %d\n",
		       arr->index, err);
		goto out_disk;
	}
	return 0;

out_disk:
	arr->disk = NULL;
	put_disk(disk);
out_pool:
	mempool_destroy(arr->cmd_pool);
	arr->cmd_pool = NULL;
	return err;
}

/**
 * oreblk_disk_destroy - remove /dev/oreblkN; waits for its I/O to end
 * @arr: the array
 */
void oreblk_disk_destroy(struct oreblk_array *arr)
{
	if (!arr->disk)
		return;
	del_gendisk(arr->disk);
	/* a bio-based queue does not count bios after ->submit_bio */
	wait_var_event(&arr->inflight, !atomic_read(&arr->inflight));
	put_disk(arr->disk);
	arr->disk = NULL;
	mempool_destroy(arr->cmd_pool);
	arr->cmd_pool = NULL;
}
