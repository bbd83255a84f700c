// SPDX-License-Identifier: GPL-2.0
/*
 * oreblk block device: blk-mq queue and data path.
 *
 * A read or write request is a contiguous logical range (4 KiB logical
 * blocks); its memory is collected as whole pages (bounce pages when a
 * segment is not a whole page) and cut into pieces, each done by one ORE
 * I/O state:
 *  - reads and layouts without parity: one piece;
 *  - writes of parity layouts: a partial first stripe, the full stripes,
 *    a partial last stripe. The full stripes never wait for the partial
 *    neighbours of other requests (sequential writes that are not stripe
 *    aligned share their boundary stripes), and only partial pieces use
 *    the stripe cache.
 * A piece of a redundant layout first locks its stripes (lock.c); reads do
 * so only while the array is degraded, or to redo a read that came back
 * rebuilt from parity (which may have raced with a write of its stripe).
 *
 * Contexts: ->queue_rq may sleep (BLK_MQ_F_BLOCKING: ORE allocates and
 * computes parity in the caller's context); pieces that waited for a lock
 * start from oreblk_wq; ORE's completion runs in any context, and the
 * request ends there.
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/highmem.h>
#include <linux/blk-mq.h>

#include "internal.h"

static void oreblk_piece_submit(struct oreblk_piece *piece);

/* ------------------------------------------------------------------ */
/* completion */

static void oreblk_cmd_finish(struct oreblk_cmd *cmd)
{
	struct request *rq = cmd->rq;
	unsigned int i;

	if (cmd->bounce) {
		if (req_op(rq) == REQ_OP_READ && !cmd->error) {
			struct req_iterator iter;
			struct bio_vec bv;
			u64 pos = 0;

			rq_for_each_segment(bv, rq, iter) {
				memcpy_to_page(bv.bv_page, bv.bv_offset,
					       page_address(cmd->pages[pos >> PAGE_SHIFT]) +
					       offset_in_page(pos), bv.bv_len);
				pos += bv.bv_len;
			}
		}
		for (i = 0; i < DIV_ROUND_UP(blk_rq_bytes(rq), PAGE_SIZE); i++)
			__free_page(cmd->pages[i]);
		cmd->bounce = false;
	}
	blk_mq_end_request(rq, errno_to_blk_status(cmd->error));
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

	oreblk_member_failed(piece->cmd->arr, comp, offset, error);
}

static void oreblk_piece_done(struct ore_io_state *ios, void *private)
{
	struct oreblk_piece *piece = private;
	struct oreblk_array *arr = piece->cmd->arr;
	bool write = ios->kind == ORE_IO_WRITE;
	int err;

	err = ore_check_io(ios, oreblk_on_dev_error);
	piece->ios = NULL;
	if (!write && !err && ios->degraded && arr->redundant &&
	    !piece->locked) {
		/* rebuilt from parity without the stripe locks: do it again */
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
	bool write = req_op(cmd->rq) == REQ_OP_WRITE;
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
	if (write) {
		ios->fua = !!(cmd->rq->cmd_flags & REQ_FUA);
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
	pr_err_ratelimited(OREBLK_PFX "oreblk%d: %s of %llu bytes at %llu could not start: %d\n",
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

static void oreblk_add_piece(struct oreblk_cmd *cmd, u64 rq_off, u64 offset,
			     u64 length, bool locked, bool partial)
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
	piece->pages = &cmd->pages[(offset - rq_off) >> PAGE_SHIFT];
	piece->nr_pages = length >> PAGE_SHIFT;
	piece->first_stripe = div64_u64(offset, U);
	piece->last_stripe = div64_u64(offset + length - 1, U);
	piece->next_stripe = piece->first_stripe;
	piece->ents = &cmd->ents[ent0];
	piece->locked = locked;
	piece->partial = partial;
	piece->retried = false;
	piece->ios = NULL;
	cmd->nr_pieces++;
}

/* Cut the request [@off, @off + @len) into pieces. */
static void oreblk_plan(struct oreblk_cmd *cmd, u64 off, u64 len, bool write)
{
	struct oreblk_array *arr = cmd->arr;
	u64 U = arr->layout.stripe_length, end = off + len;
	u64 a, b;
	bool lock;

	cmd->nr_pieces = 0;
	if (!write || !arr->layout.parity) {
		lock = arr->redundant &&
		       (write || atomic_read(&arr->nr_failed));
		oreblk_add_piece(cmd, off, off, len, lock, false);
		return;
	}
	a = roundup(off, U);		/* first full stripe */
	b = rounddown(end, U);		/* end of the last full stripe */
	if (a >= b) {			/* no full stripe */
		if (div64_u64(off, U) == div64_u64(end - 1, U)) {
			oreblk_add_piece(cmd, off, off, len, true, true);
			return;
		}
		a = b = roundup(off, U);	/* split at the stripe border */
	}
	if (off < a)
		oreblk_add_piece(cmd, off, off, a - off, true, true);
	if (a < b)
		oreblk_add_piece(cmd, off, a, b - a, true, false);
	if (b < end)
		oreblk_add_piece(cmd, off, b, end - b, true, true);
}

/*
 * Collect the request's memory as whole pages. Returns 0, or -ENOMEM
 * when bounce pages were needed and could not be had.
 */
static int oreblk_map_pages(struct oreblk_cmd *cmd)
{
	struct request *rq = cmd->rq;
	unsigned int n = 0, nr = blk_rq_bytes(rq) >> PAGE_SHIFT, i;
	struct req_iterator iter;
	struct bio_vec bv;
	u64 pos = 0;

	rq_for_each_segment(bv, rq, iter) {
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
	if (req_op(rq) == REQ_OP_WRITE) {
		rq_for_each_segment(bv, rq, iter) {
			memcpy_from_page(page_address(cmd->pages[pos >> PAGE_SHIFT]) +
					 offset_in_page(pos), bv.bv_page,
					 bv.bv_offset, bv.bv_len);
			pos += bv.bv_len;
		}
	}
	return 0;
}

static void oreblk_flush_work(struct work_struct *work)
{
	struct oreblk_cmd *cmd = container_of(work, struct oreblk_cmd, work);
	struct oreblk_array *arr = cmd->arr;

	cmd->error = ore_flush(&arr->layout, &arr->oc);
	if (cmd->error)
		pr_err_ratelimited(OREBLK_PFX "oreblk%d: cache flush failed: %d\n",
				   arr->index, cmd->error);
	blk_mq_end_request(cmd->rq, errno_to_blk_status(cmd->error));
}

static blk_status_t oreblk_queue_rq(struct blk_mq_hw_ctx *hctx,
				    const struct blk_mq_queue_data *bd)
{
	struct request *rq = bd->rq;
	struct oreblk_cmd *cmd = blk_mq_rq_to_pdu(rq);
	struct oreblk_array *arr = hctx->queue->queuedata;
	u64 off = (u64)blk_rq_pos(rq) << SECTOR_SHIFT;
	u64 len = blk_rq_bytes(rq);
	bool write;
	unsigned int i;

	cmd->arr = arr;
	cmd->error = 0;
	cmd->bounce = false;
	blk_mq_start_request(rq);

	switch (req_op(rq)) {
	case REQ_OP_FLUSH:
		queue_work(oreblk_wq, &cmd->work);
		return BLK_STS_OK;
	case REQ_OP_READ:
		write = false;
		break;
	case REQ_OP_WRITE:
		write = true;
		break;
	default:
		return BLK_STS_NOTSUPP;
	}
	if (!len || (off | len) & (PAGE_SIZE - 1) || off + len > arr->array_size ||
	    (len >> PAGE_SHIFT) > cmd->max_pages) {
		pr_err_ratelimited(OREBLK_PFX "oreblk%d: bad request of %llu bytes at %llu\n",
				   arr->index, len, off);
		return BLK_STS_IOERR;
	}
	if (oreblk_map_pages(cmd))
		return BLK_STS_RESOURCE;

	oreblk_plan(cmd, off, len, write);
	atomic_set(&cmd->pending, cmd->nr_pieces + 1);
	for (i = 0; i < cmd->nr_pieces; i++)
		oreblk_piece_start(&cmd->pieces[i]);
	oreblk_cmd_put(cmd);
	return BLK_STS_OK;
}

static int oreblk_init_request(struct blk_mq_tag_set *set, struct request *rq,
			       unsigned int hctx_idx, unsigned int numa_node)
{
	struct oreblk_array *arr = set->driver_data;
	struct oreblk_cmd *cmd = blk_mq_rq_to_pdu(rq);
	unsigned int i;

	cmd->rq = rq;
	cmd->arr = arr;
	cmd->max_pages = arr->max_bytes >> PAGE_SHIFT;
	cmd->max_ents = DIV_ROUND_UP_ULL(arr->max_bytes,
					 arr->layout.stripe_length) + 1;
	cmd->pages = kcalloc_node(cmd->max_pages, sizeof(*cmd->pages),
				  GFP_KERNEL, numa_node);
	cmd->ents = kcalloc_node(cmd->max_ents, sizeof(*cmd->ents), GFP_KERNEL,
				 numa_node);
	if (!cmd->pages || !cmd->ents) {
		kfree(cmd->pages);
		kfree(cmd->ents);
		return -ENOMEM;
	}
	INIT_WORK(&cmd->work, oreblk_flush_work);
	for (i = 0; i < OREBLK_MAX_PIECES; i++)
		INIT_WORK(&cmd->pieces[i].work, oreblk_piece_start_work);
	return 0;
}

static void oreblk_exit_request(struct blk_mq_tag_set *set,
				struct request *rq, unsigned int hctx_idx)
{
	struct oreblk_cmd *cmd = blk_mq_rq_to_pdu(rq);

	kfree(cmd->pages);
	kfree(cmd->ents);
}

static const struct blk_mq_ops oreblk_mq_ops = {
	.queue_rq	= oreblk_queue_rq,
	.init_request	= oreblk_init_request,
	.exit_request	= oreblk_exit_request,
};

/* ------------------------------------------------------------------ */
/* the gendisk */

static int oreblk_open(struct gendisk *disk, blk_mode_t mode)
{
	struct oreblk_array *arr = disk->private_data;

	/* oreblk_ctl_stop() sets it under disk->open_mutex, as we run */
	if (READ_ONCE(arr->stopping))
		return -ENXIO;
	return 0;
}

static const struct block_device_operations oreblk_fops = {
	.owner	= THIS_MODULE,
	.open	= oreblk_open,
};

/* Largest request: a MiB, or one full stripe when that is larger (4 MiB
 * at most), so that large sequential writes can be done by whole stripes.
 */
static u32 oreblk_max_bytes(const struct ore_layout *layout)
{
	u64 b = max_t(u64, SZ_1M, layout->stripe_length);

	return (u32)min_t(u64, b, SZ_4M);
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
		.features		= BLK_FEAT_WRITE_CACHE | BLK_FEAT_FUA,
	};
	struct gendisk *disk;
	int err;

	arr->max_bytes = oreblk_max_bytes(layout);
	lim.max_hw_sectors = arr->max_bytes >> SECTOR_SHIFT;
	lim.max_segments = arr->max_bytes >> PAGE_SHIFT;
	if (arr->redundant)
		/* parity and mirrors are computed from the pages as they are */
		lim.features |= BLK_FEAT_STABLE_WRITES;

	memset(&arr->tag_set, 0, sizeof(arr->tag_set));
	arr->tag_set.ops = &oreblk_mq_ops;
	arr->tag_set.nr_hw_queues = 1;
	arr->tag_set.queue_depth = OREBLK_QUEUE_DEPTH;
	arr->tag_set.numa_node = NUMA_NO_NODE;
	arr->tag_set.cmd_size = sizeof(struct oreblk_cmd);
	arr->tag_set.flags = BLK_MQ_F_SHOULD_MERGE | BLK_MQ_F_BLOCKING |
			     BLK_MQ_F_NO_SCHED_BY_DEFAULT;
	arr->tag_set.driver_data = arr;
	err = blk_mq_alloc_tag_set(&arr->tag_set);
	if (err) {
		pr_err(OREBLK_PFX "oreblk%d: cannot allocate the tag set: %d\n",
		       arr->index, err);
		return err;
	}

	disk = blk_mq_alloc_disk(&arr->tag_set, &lim, arr);
	if (IS_ERR(disk)) {
		err = PTR_ERR(disk);
		pr_err(OREBLK_PFX "oreblk%d: cannot allocate the disk: %d\n",
		       arr->index, err);
		goto out_tags;
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
		pr_err(OREBLK_PFX "oreblk%d: cannot add the disk: %d\n",
		       arr->index, err);
		goto out_disk;
	}
	return 0;

out_disk:
	arr->disk = NULL;
	put_disk(disk);
out_tags:
	blk_mq_free_tag_set(&arr->tag_set);
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
	put_disk(arr->disk);
	arr->disk = NULL;
	blk_mq_free_tag_set(&arr->tag_set);
}
