// SPDX-License-Identifier: GPL-2.0
/*
 * ORE block store: the store holds one object, a byte range of a block
 * device. The oid of every request is ignored; create, remove and truncate
 * do nothing; the length is the range's. I/O is bios straight to the
 * device.
 *
 * Offsets, lengths and every bvec's offset and length must be multiples of
 * the device's logical block size. A write past the end of the range fails
 * with -ENOSPC; a read past it returns zeros there, as a read past the end
 * of any object does.
 *
 * Contexts: ->submit() may sleep (bio allocation); &ore_store_io.end_io
 * runs in bio completion context (hard or soft interrupt), or in
 * ->submit() itself when the request is refused.
 *
 * Bios come from the store's own bio_set, not fs_bio_set: ->submit() runs
 * inside a stacking driver's ->submit_bio (oreblk), where the bios already
 * allocated wait on current->bio_list until it returns, so a request of
 * several bios (and several requests per array bio) could wait on a pool
 * that only those parked bios refill (see the comment of
 * bio_alloc_bioset()). The pool is per store and has a rescuer
 * (BIOSET_NEED_RESCUER), as md's and dm's have: when it runs dry, the
 * parked bios of this pool are handed to the rescuer, submitted, and
 * their completion refills it.
 *
 * Data checksums (ore_bdev_store_enable_csum(), docs/stores.md): every
 * 4096-byte block written gets its checksum (CRC-32C or XXH64) in a region
 * of the same device,
 * and every read is verified against it; a block that does not match reads
 * as -EBADMSG (its data still in the memory of the request). The region is
 * kept in the device's own page cache: a write stores its entries there
 * before its bios go out, dirtying the page; the kernel's writeback and
 * ->flush() write them. The pages are looked up without waiting in
 * ->submit() and in bio completion (the common case); a request whose
 * checksum page must be read first, or whose page is locked, goes to
 * ore_csum_wq and continues there. Entries and data reach the device in
 * no particular order: the user of the store makes that safe across a
 * crash (oreblk: the write-intent bitmap names every region with writes in
 * flight, and its repair restamps them, sio->restamp).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/blkdev.h>
#include <linux/bio.h>
#include <linux/file.h>
#include <linux/highmem.h>
#include <linux/statfs.h>
#include <linux/pagemap.h>
#include <ore/pure.h>

#include "internal.h"

/**
 * struct ore_bdev_store - an object store on a block device range
 * @store: the common part
 * @bdev_file: the open device
 * @bdev: its block device
 * @start: byte offset of the object on the device
 * @len: bytes of the object
 * @lbs_mask: logical block size - 1
 * @bio_set: the bios of this store's requests
 * @borrowed: @bdev_file is the caller's (ore_bdev_store_open_file()): the
 *	store holds a file reference, the caller the claim on the device
 * @csum: data checksums are on (ore_bdev_store_enable_csum())
 * @csum_type: ORE_CSUM_CRC32C or ORE_CSUM_XXH64
 * @csum_start: byte offset of the checksum region on the device
 * @csum_bytes: bytes of the region, ore_csum_bytes(@len)
 * @csum_lock: protects @csum_queue
 * @csum_queue: requests waiting for a checksum page, by &ore_store_io.queue
 * @csum_work: serves @csum_queue in ore_csum_wq
 */
struct ore_bdev_store {
	struct ore_store store;
	struct file *bdev_file;
	struct block_device *bdev;
	u64 start;
	u64 len;
	u32 lbs_mask;
	struct bio_set bio_set;
	bool borrowed;
	bool csum;
	u32 csum_type;
	u64 csum_start;
	u64 csum_bytes;
	spinlock_t csum_lock;		/* protects csum_queue */
	struct list_head csum_queue;
	struct work_struct csum_work;
};

/*
 * Requests up to this many bytes are checksummed where they are (writes in
 * ->submit(), reads in bio completion); longer ones in ore_csum_wq (a file
 * store: in its own workqueue): one submitter, or the one CPU that a
 * device's completions come on, would be the limit for large I/O, and the
 * workqueue spreads it over the CPUs.
 */
unsigned int ore_csum_inline_max = 64 << 10;
module_param_named(csum_inline_max, ore_csum_inline_max, uint, 0644);
MODULE_PARM_DESC(csum_inline_max, "requests checksummed in place up to this many bytes, longer ones in a workqueue (default 65536)");

/* Bios in each store's reserve: a request of several chained bios */
#define ORE_BDEV_POOL_SIZE	4

static inline struct ore_bdev_store *to_bdev_store(struct ore_store *store)
{
	return container_of(store, struct ore_bdev_store, store);
}

/* ------------------------------------------------------------------ */
/* data checksums */

/* Bytes of @sio that lie on the store (a read may run past its end). */
static u32 ore_bdev_bytes(const struct ore_bdev_store *bs,
			  const struct ore_store_io *sio)
{
	if (sio->offset >= bs->len)
		return 0;
	return min_t(u64, sio->len, bs->len - sio->offset);
}

/*
 * The uptodate folio of the device's cache that holds byte @pos: looked up
 * without waiting (NULL when it is not in memory), or read when
 * @may_block (ERR_PTR on a read error).
 */
static struct folio *ore_bdev_csum_folio(struct ore_bdev_store *bs, u64 pos,
					 bool may_block)
{
	struct address_space *mapping = bs->bdev->bd_mapping;
	struct folio *folio;

	if (may_block)
		return read_mapping_folio(mapping, pos >> PAGE_SHIFT, NULL);
	folio = filemap_get_folio(mapping, pos >> PAGE_SHIFT);
	if (IS_ERR(folio))
		return NULL;
	if (!folio_test_uptodate(folio)) {
		folio_put(folio);
		return NULL;
	}
	return folio;
}

/* Done with a checksum folio: dirty it if it was stamped, unlock, put. */
static void ore_bdev_csum_release(struct folio *folio, bool locked,
				  bool stamped)
{
	if (!folio)
		return;
	if (stamped)
		folio_mark_dirty(folio);
	if (locked)
		folio_unlock(folio);
	folio_put(folio);
}

/*
 * Stamp (store the checksums of) or verify the first @bytes of @sio, block
 * by block. Without @may_block nothing waits (bio completion, ->submit()
 * inside a stacking driver's ->submit_bio). Entries of 0 are not verified.
 *
 * Return: 0; -EBADMSG when verifying found a block that does not match;
 * -EAGAIN without @may_block when a checksum page is not in memory or,
 * stamping, is locked (the caller does it all again in ore_csum_wq:
 * stamping twice is harmless); the error reading a checksum page.
 */
static int ore_bdev_csum_walk(struct ore_bdev_store *bs,
			      struct ore_store_io *sio, u32 bytes, bool stamp,
			      bool may_block)
{
	u64 blk = sio->offset / ORE_CSUM_BLOCK;
	struct folio *folio = NULL;
	bool locked = false;
	unsigned int i;
	u32 done = 0;
	int err = 0;

	for (i = 0; i < sio->nr_bvec && done < bytes && !err; i++) {
		const struct bio_vec *bv = &sio->bvec[i];
		u32 o;

		for (o = 0; o < bv->bv_len && done < bytes;
		     o += ORE_CSUM_BLOCK, done += ORE_CSUM_BLOCK, blk++) {
			u64 pos = bs->csum_start + blk * ORE_CSUM_ENTRY;
			__le32 *ent;
			u32 crc;

			if (!folio || pos >= folio_pos(folio) + folio_size(folio)) {
				ore_bdev_csum_release(folio, locked, stamp);
				locked = false;
				folio = ore_bdev_csum_folio(bs, pos, may_block);
				if (IS_ERR_OR_NULL(folio)) {
					err = folio ? PTR_ERR(folio) : -EAGAIN;
					folio = NULL;
					break;
				}
				if (stamp && may_block) {
					folio_lock(folio);
				} else if (stamp && !folio_trylock(folio)) {
					err = -EAGAIN;
					break;
				}
				locked = stamp;
			}
			crc = ore_csum_bvec_block(bs->csum_type, bv, o);
			ent = kmap_local_folio(folio, pos - folio_pos(folio));
			if (stamp) {
				*ent = cpu_to_le32(crc);
			} else if (le32_to_cpu(READ_ONCE(*ent)) &&
				   le32_to_cpu(READ_ONCE(*ent)) != crc) {
				pr_debug("store %s: block at offset %llu: checksum %08x, data %08x\n",
					 sio->store->name,
					 blk * ORE_CSUM_BLOCK,
					 le32_to_cpu(*ent), crc);
				err = -EBADMSG;
			}
			kunmap_local(ent);
			if (err)
				break;
		}
	}
	ore_bdev_csum_release(folio, locked, stamp && locked);
	return err;
}

/* Hand @sio to ore_csum_wq (any context). */
static void ore_bdev_csum_queue(struct ore_bdev_store *bs,
				struct ore_store_io *sio)
{
	unsigned long flags;

	spin_lock_irqsave(&bs->csum_lock, flags);
	list_add_tail(&sio->queue, &bs->csum_queue);
	spin_unlock_irqrestore(&bs->csum_lock, flags);
	queue_work(ore_csum_wq, &bs->csum_work);
}

static void ore_bdev_start_bios(struct ore_bdev_store *bs,
				struct ore_store_io *sio, u32 bytes);

/*
 * Requests that needed a checksum page: writes stamp and go out, reads are
 * verified (or restamped) and completed.
 */
static void ore_bdev_csum_work(struct work_struct *work)
{
	struct ore_bdev_store *bs = container_of(work, struct ore_bdev_store,
						 csum_work);
	struct ore_store_io *sio, *next;
	LIST_HEAD(list);
	int err;

	spin_lock_irq(&bs->csum_lock);
	list_splice_init(&bs->csum_queue, &list);
	spin_unlock_irq(&bs->csum_lock);
	list_for_each_entry_safe(sio, next, &list, queue) {
		u32 bytes = ore_bdev_bytes(bs, sio);

		list_del_init(&sio->queue);
		err = ore_bdev_csum_walk(bs, sio, bytes,
					 sio->write || sio->restamp, true);
		if (err && err != -EBADMSG)
			pr_err_ratelimited("store %s: offset %llu: cannot read the checksums of %u bytes: %d\n",
					   sio->store->name, sio->offset,
					   sio->len, err);
		if (sio->write && !err)
			ore_bdev_start_bios(bs, sio, bytes);
		else
			ore_store_io_done(sio, err);
	}
}

/* ->bi_end_io of the last bio of a request; the others are chained to it. */
static void ore_bdev_end_io(struct bio *bio)
{
	struct ore_store_io *sio = bio->bi_private;
	struct ore_bdev_store *bs = to_bdev_store(sio->store);
	int error = blk_status_to_errno(bio->bi_status);

	bio_put(bio);
	if (error) {
		atomic_inc(&sio->store->nr_errors);
		pr_err_ratelimited("store %s: offset %llu: %s of %u bytes failed: %d\n",
				   sio->store->name, sio->offset,
				   sio->write ? "write" : "read", sio->len,
				   error);
	} else if (bs->csum && !sio->write) {
		error = -EAGAIN;
		if (!sio->restamp && sio->len <= ore_csum_inline_max)
			error = ore_bdev_csum_walk(bs, sio,
						   ore_bdev_bytes(bs, sio),
						   false, false);
		if (error == -EAGAIN) {
			ore_bdev_csum_queue(bs, sio);
			return;
		}
	}
	ore_store_io_done(sio, error);
}

/* Zero the bytes of @sio from @from to the end. */
static void ore_bdev_zero_tail(struct ore_store_io *sio, u32 from)
{
	unsigned int i;
	u32 pos = 0;

	for (i = 0; i < sio->nr_bvec; i++) {
		struct bio_vec bv = sio->bvec[i];

		if (pos + bv.bv_len > from) {
			u32 skip = from > pos ? from - pos : 0;

			bv.bv_offset += skip;
			bv.bv_len -= skip;
			memzero_bvec(&bv);
		}
		pos += sio->bvec[i].bv_len;
	}
}

/* Is every offset and length of @sio a multiple of the logical block? */
static bool ore_bdev_aligned(const struct ore_bdev_store *bs,
			     const struct ore_store_io *sio)
{
	unsigned int i;

	/* checksums are per block: whole blocks only */
	u32 mask = bs->csum ? ORE_CSUM_BLOCK - 1 : bs->lbs_mask;

	if ((sio->offset | sio->len) & mask)
		return false;
	for (i = 0; i < sio->nr_bvec; i++)
		if ((sio->bvec[i].bv_offset | sio->bvec[i].bv_len) & mask)
			return false;
	return true;
}

static struct bio *ore_bdev_alloc_bio(struct ore_bdev_store *bs,
				      struct ore_store_io *sio,
				      unsigned int nr_vecs, sector_t sector)
{
	blk_opf_t opf = REQ_OP_READ;
	struct bio *bio;

	if (sio->write)
		opf = REQ_OP_WRITE | (sio->fua ? REQ_SYNC | REQ_FUA : 0);
	bio = bio_alloc_bioset(bs->bdev,
			       min_t(unsigned int, nr_vecs, BIO_MAX_VECS), opf,
			       GFP_NOIO, &bs->bio_set);
	bio->bi_iter.bi_sector = sector;
	return bio;
}

/* The end of a discard: errors are reported, never passed on. */
static void ore_bdev_discard_end_io(struct bio *bio)
{
	struct ore_store_io *sio = bio->bi_private;

	if (bio->bi_status && bio->bi_status != BLK_STS_NOTSUPP)
		pr_warn_ratelimited("store %s: offset %llu: discard of %u bytes failed: %d (the data stays)\n",
				    sio->store->name, sio->offset, sio->len,
				    blk_status_to_errno(bio->bi_status));
	bio_put(bio);
	ore_store_io_done(sio, 0);
}

/*
 * Discard the whole logical blocks of @sio's range that lie on the device;
 * nothing when the device cannot discard.
 */
static void ore_bdev_discard(struct ore_bdev_store *bs,
			     struct ore_store_io *sio)
{
	u64 start = round_up(sio->offset, bs->lbs_mask + 1);
	u64 end = round_down(min(sio->offset + sio->len, bs->len),
			     bs->lbs_mask + 1);
	struct bio *bio = NULL;

	if (start < end && bdev_max_discard_sectors(bs->bdev))
		__blkdev_issue_discard(bs->bdev,
				       (bs->start + start) >> SECTOR_SHIFT,
				       (end - start) >> SECTOR_SHIFT,
				       GFP_NOIO, &bio);
	if (!bio) {
		ore_store_io_done(sio, 0);
		return;
	}
	bio->bi_end_io = ore_bdev_discard_end_io;
	bio->bi_private = sio;
	submit_bio(bio);
}

static void ore_bdev_submit(struct ore_store_io *sio)
{
	struct ore_bdev_store *bs = to_bdev_store(sio->store);
	u32 bytes = sio->len;
	int err;

	if (!ore_store_io_start(sio))
		return;
	if (sio->discard) {
		/* a discarded block would fail its checksum: the data stays */
		if (bs->csum)
			ore_store_io_done(sio, 0);
		else
			ore_bdev_discard(bs, sio);
		return;
	}
	if (!ore_bdev_aligned(bs, sio)) {
		pr_err_ratelimited("store %s: offset %llu: %s of %u bytes is not aligned to the %u-byte %s\n",
				   sio->store->name, sio->offset,
				   sio->write ? "write" : "read", sio->len,
				   bs->csum ? ORE_CSUM_BLOCK : bs->lbs_mask + 1,
				   bs->csum ? "checksum block" : "logical block");
		ore_store_io_done(sio, -EINVAL);
		return;
	}
	if (sio->offset >= bs->len || sio->len > bs->len - sio->offset) {
		if (sio->write) {
			pr_err_ratelimited("store %s: write of %u bytes at offset %llu is past the end of the %llu-byte store\n",
					   sio->store->name, sio->len,
					   sio->offset, bs->len);
			ore_store_io_done(sio, -ENOSPC);
			return;
		}
		bytes = ore_bdev_bytes(bs, sio);
		ore_bdev_zero_tail(sio, bytes);
		if (!bytes) {
			ore_store_io_done(sio, 0);
			return;
		}
	}
	if (bs->csum && sio->write) {
		err = -EAGAIN;
		if (sio->len <= ore_csum_inline_max)
			err = ore_bdev_csum_walk(bs, sio, bytes, true, false);
		if (err == -EAGAIN) {
			ore_bdev_csum_queue(bs, sio);
			return;
		}
	}
	ore_bdev_start_bios(bs, sio, bytes);
}

/* Send the first @bytes of @sio to the device, in as many bios as it takes. */
static void ore_bdev_start_bios(struct ore_bdev_store *bs,
				struct ore_store_io *sio, u32 bytes)
{
	struct bio *bio, *next;
	unsigned int i;
	u32 added = 0;

	bio = ore_bdev_alloc_bio(bs, sio, sio->nr_bvec,
				 (bs->start + sio->offset) >> SECTOR_SHIFT);
	for (i = 0; i < sio->nr_bvec && added < bytes; i++) {
		const struct bio_vec *bv = &sio->bvec[i];
		u32 len = min(bv->bv_len, bytes - added);

		if (!len)
			continue;
		if (bio_add_page(bio, bv->bv_page, len, bv->bv_offset) == len) {
			added += len;
			continue;
		}
		/* Full: chain a new bio that completes after this one. */
		next = ore_bdev_alloc_bio(bs, sio, sio->nr_bvec - i,
					  bio_end_sector(bio));
		bio_chain(bio, next);
		submit_bio(bio);
		bio = next;
		__bio_add_page(bio, bv->bv_page, len, bv->bv_offset);
		added += len;
	}
	/* The last bio ends the request; bio_chain() wants the others bare. */
	bio->bi_end_io = ore_bdev_end_io;
	bio->bi_private = sio;
	submit_bio(bio);
}

static int ore_bdev_nop(struct ore_store *store, u64 oid)
{
	return ore_store_failed(store) ? -EIO : 0;
}

static int ore_bdev_truncate(struct ore_store *store, u64 oid, u64 size)
{
	return ore_store_failed(store) ? -EIO : 0;
}

static int ore_bdev_length(struct ore_store *store, u64 oid, u64 *len)
{
	if (ore_store_failed(store))
		return -EIO;
	*len = to_bdev_store(store)->len;
	return 0;
}

static int ore_bdev_flush(struct ore_store *store, u64 oid)
{
	struct ore_bdev_store *bs = to_bdev_store(store);
	int err;

	if (ore_store_failed(store))
		return -EIO;
	if (bs->csum) {
		/* the checksums of what was written, then the device's cache */
		err = filemap_write_and_wait_range(bs->bdev->bd_mapping,
						   bs->csum_start,
						   bs->csum_start +
						   bs->csum_bytes - 1);
		if (err) {
			pr_err("store %s: writing its checksums failed: %d\n",
			       store->name, err);
			return err;
		}
	}
	err = blkdev_issue_flush(bs->bdev);
	if (err)
		pr_err("store %s: cache flush failed: %d\n",
		       store->name, err);
	return err;
}

static int ore_bdev_statfs(struct ore_store *store, struct kstatfs *buf)
{
	struct ore_bdev_store *bs = to_bdev_store(store);

	memset(buf, 0, sizeof(*buf));
	buf->f_bsize = bs->lbs_mask + 1;
	buf->f_frsize = buf->f_bsize;
	buf->f_blocks = bs->len >> ilog2(buf->f_bsize);
	buf->f_bfree = buf->f_blocks;	/* its one object never grows */
	buf->f_bavail = buf->f_blocks;
	return 0;
}

/*
 * The last of the checksum region, at release: a store in service writes
 * its dirty entries (a clean stop has flushed them already); a failed one
 * forgets them (a failed member is rebuilt whole before its entries count
 * again) rather than write them to a broken device. Either way the
 * writeback errors of the device are taken as seen here: they are the
 * store's, and must not fail the next opener's fsync() (oreblk create on a
 * member that failed and was repaired).
 */
static void ore_bdev_csum_close(struct ore_bdev_store *bs)
{
	struct address_space *mapping = bs->bdev->bd_mapping;
	loff_t end = bs->csum_start + bs->csum_bytes - 1;
	int err;

	if (ore_store_failed(&bs->store)) {
		truncate_inode_pages_range(mapping, bs->csum_start, end);
	} else {
		err = filemap_write_and_wait_range(mapping, bs->csum_start, end);
		if (err)
			pr_err("store %s: writing its checksums at release failed: %d\n",
			       bs->store.name, err);
	}
	err = file_check_and_advance_wb_err(bs->bdev_file);
	if (err)
		pr_warn("store %s: the device reported write errors: %d\n",
			bs->store.name, err);
}

static void ore_bdev_release(struct ore_store *store)
{
	struct ore_bdev_store *bs = to_bdev_store(store);

	cancel_work_sync(&bs->csum_work);	/* nothing queued: no I/O left */
	if (bs->csum)
		ore_bdev_csum_close(bs);
	if (bs->borrowed)
		fput(bs->bdev_file);
	else
		bdev_fput(bs->bdev_file);
	bioset_exit(&bs->bio_set);
	kfree(bs);
}

static const struct ore_store_ops ore_bdev_store_ops = {
	.submit		= ore_bdev_submit,
	.create		= ore_bdev_nop,
	.remove		= ore_bdev_nop,
	.truncate	= ore_bdev_truncate,
	.length		= ore_bdev_length,
	.flush		= ore_bdev_flush,
	.statfs		= ore_bdev_statfs,
	.release	= ore_bdev_release,
};

/*
 * A store over [@start, @start + @len) of the open @bdev_file, named @name.
 * On success the store owns one reference of the file (@borrowed: a
 * reference of its own taken here, the caller keeping the claim; else the
 * caller's, claim and all); on error nothing is taken.
 */
static struct ore_store *ore_bdev_store_new(struct file *bdev_file, u64 start,
					    u64 len, const char *name,
					    bool borrowed)
{
	struct block_device *bdev = file_bdev(bdev_file);
	u64 size = bdev_nr_bytes(bdev);
	u32 lbs = bdev_logical_block_size(bdev);
	struct ore_bdev_store *bs;

	if ((start | len) & (lbs - 1)) {
		pr_err("block store %s: range %llu+%llu is not aligned to the %u-byte logical block\n",
		       name, start, len, lbs);
		return ERR_PTR(-EINVAL);
	}
	if (start >= size || len > size - start) {
		pr_err("block store %s: range %llu+%llu does not fit the %llu-byte device\n",
		       name, start, len, size);
		return ERR_PTR(-EINVAL);
	}
	if (!len)
		len = size - start;

	bs = kzalloc(sizeof(*bs), GFP_KERNEL);
	if (!bs)
		return ERR_PTR(-ENOMEM);
	if (bioset_init(&bs->bio_set, ORE_BDEV_POOL_SIZE, 0,
			BIOSET_NEED_BVECS | BIOSET_NEED_RESCUER)) {
		pr_err("block store %s: no memory for its bio pool\n",
		       name);
		kfree(bs);
		return ERR_PTR(-ENOMEM);
	}
	bs->bdev_file = borrowed ? get_file(bdev_file) : bdev_file;
	bs->borrowed = borrowed;
	bs->bdev = bdev;
	bs->start = start;
	bs->len = len;
	bs->lbs_mask = lbs - 1;
	spin_lock_init(&bs->csum_lock);
	INIT_LIST_HEAD(&bs->csum_queue);
	INIT_WORK(&bs->csum_work, ore_bdev_csum_work);
	ore_store_init(&bs->store, &ore_bdev_store_ops, name);
	return &bs->store;
}

/**
 * ore_bdev_store_open - open a block device range as an object store
 * @path: the device node, e.g. "/dev/vde"
 * @start: byte offset of the range, a multiple of the logical block size
 * @len: bytes of the range, a multiple of the logical block size; 0 for
 *	everything from @start to the end of the device
 * @holder: exclusive holder of the device (see bdev_file_open_by_path()),
 *	or NULL to share it
 *
 * The store holds a single object, the range: every oid names it. Must be
 * called from process context.
 *
 * Return: the store with one reference (drop it with ore_store_put()), or
 * ERR_PTR: the error of opening @path (-ENOENT, -ENOTBLK, -EBUSY when
 * another holder has it, ...), -EINVAL when the range is misaligned, empty
 * or does not fit the device, -ENOMEM.
 */
struct ore_store *ore_bdev_store_open(const char *path, u64 start, u64 len,
				      void *holder)
{
	struct ore_store *store;
	struct file *bdev_file;

	bdev_file = bdev_file_open_by_path(path, BLK_OPEN_READ | BLK_OPEN_WRITE,
					   holder, NULL);
	if (IS_ERR(bdev_file)) {
		pr_err("block store %s: cannot open the device: %ld\n",
		       path, PTR_ERR(bdev_file));
		return ERR_CAST(bdev_file);
	}
	store = ore_bdev_store_new(bdev_file, start, len, path, false);
	if (IS_ERR(store))
		bdev_fput(bdev_file);
	return store;
}
EXPORT_SYMBOL_GPL(ore_bdev_store_open);

/**
 * ore_bdev_store_open_file - a block store over a device the caller opened
 * @bdev_file: the device, opened by the caller for reading and writing
 *	(bdev_file_open_by_path(), with the caller's holder)
 * @start: byte offset of the range, a multiple of the logical block size
 * @len: bytes of the range, as for ore_bdev_store_open()
 *
 * For a user that reads its own metadata from the device (oreblk's member
 * superblocks) and should not open it a second time. The store takes a
 * reference of its own to @bdev_file; the caller keeps its file and its
 * claim on the device, and closes them with bdev_fput() as usual, before
 * or after the store's last reference goes. The store is named after the
 * device ("/dev/NAME"). Process context.
 *
 * Return: the store with one reference, or ERR_PTR(-EINVAL) when the range
 * is misaligned or does not fit the device, ERR_PTR(-ENOMEM).
 */
struct ore_store *ore_bdev_store_open_file(struct file *bdev_file, u64 start,
					   u64 len)
{
	char name[sizeof_field(struct ore_store, name)];

	snprintf(name, sizeof(name), "/dev/%pg", file_bdev(bdev_file));
	return ore_bdev_store_new(bdev_file, start, len, name, true);
}
EXPORT_SYMBOL_GPL(ore_bdev_store_open_file);

/**
 * ore_bdev_store_enable_csum - keep checksums of the data of a block store
 * @store: a store of ore_bdev_store_open() or ore_bdev_store_open_file(),
 *	before its first I/O
 * @csum_start: byte offset on the device of the checksum region, a
 *	multiple of PAGE_SIZE; the region is ore_csum_bytes() of the store's
 *	length, outside the store's range
 * @type: ORE_CSUM_CRC32C (the kernel's crc32c(): the CPU's CRC instruction
 *	where there is one) or ORE_CSUM_XXH64 (lib/xxhash: fast in software)
 *
 * From here on every write stores the checksum of each 4096-byte block in
 * the region (include/ore/pure.h, docs/stores.md) and every read verifies
 * the blocks whose entry is not 0: a mismatch fails the read with
 * -EBADMSG, which ORE repairs from the redundancy. Requests must be whole
 * blocks; discards do nothing. ->flush() writes the entries first. The
 * entries reach the device in no order with the data: across a crash, the
 * user repairs the regions that had writes in flight with reads marked
 * &ore_store_io.restamp.
 *
 * Return: 0, or -EINVAL (not a block store, an unknown type, a misplaced
 * region).
 */
int ore_bdev_store_enable_csum(struct ore_store *store, u64 csum_start,
			       u32 type)
{
	struct ore_bdev_store *bs;
	u64 bytes, size;

	if (store->ops != &ore_bdev_store_ops ||
	    (type != ORE_CSUM_CRC32C && type != ORE_CSUM_XXH64))
		return -EINVAL;
	bs = to_bdev_store(store);
	bytes = ore_csum_bytes(bs->len);
	size = bdev_nr_bytes(bs->bdev);
	if (csum_start % PAGE_SIZE || bs->len % ORE_CSUM_BLOCK ||
	    csum_start > size || bytes > size - csum_start ||
	    (csum_start < bs->start + bs->len &&
	     bs->start < csum_start + bytes)) {
		pr_err("block store %s: checksum region %llu+%llu does not fit the %llu-byte device beside the data %llu+%llu\n",
		       store->name, csum_start, bytes, size, bs->start,
		       bs->len);
		return -EINVAL;
	}
	bs->csum_start = csum_start;
	bs->csum_bytes = bytes;
	bs->csum_type = type;
	bs->csum = true;
	return 0;
}
EXPORT_SYMBOL_GPL(ore_bdev_store_enable_csum);
