// SPDX-License-Identifier: GPL-2.0
/*
 * oreblk's write-intent bitmap (OREBLK_CONSISTENCY_INTENT): what closes the
 * RAID5/6 write hole.
 *
 * A write of a stripe reaches its members one after the other; a crash in
 * the middle leaves the stripe's parity out of step with its data, and a
 * member lost before that is repaired is rebuilt wrong, blocks nobody was
 * writing included. md repairs it with a resync of the whole array in the
 * background, and a member lost during that resync still hits the hole.
 * Here every member in service carries one bitmap page (at
 * &oreblk_sb.intent_offset); bit i covers logical bytes [i * region, (i +
 * 1) * region) of the array:
 *  - a write waits (held on @held) until the bits of the regions it
 *    touches are on stable storage on every member in service: the set
 *    work writes the bitmap (FUA, to every member at once) with all the
 *    bits wanted so far, then starts the writes it held. A region whose
 *    bit is set already costs nothing, so steady writing to a set of
 *    regions writes no bitmap at all;
 *  - a region whose writes are all over, and that had none for a whole
 *    OREBLK_INTENT_CLEAR_MS period, is cleared by the clear work: it
 *    flushes the members' caches (the writes are stable), then writes the
 *    bitmap without the bit;
 *  - an assembly that finds the array dirty repairs, before the array
 *    serves any I/O, the stripes of every region whose bit is set on any
 *    member in use (array.c, oreblk_intent_replay()); a dirty array whose
 *    bitmaps are all empty had no write in flight and needs nothing, even
 *    when degraded.
 * A clean stop (every write over, caches flushed) writes the bitmaps empty
 * before the superblocks say clean.
 *
 * A write's bits are counted from oreblk_intent_hold() to oreblk_intent_end()
 * (@pending); the clear work never clears a region with a write counted, nor
 * one counted since its previous pass (@touched). Bitmap writes are one at a
 * time (@io_mutex): the set and clear works write whole images, so the last
 * image written is what the members say.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bitmap.h>
#include <linux/blkdev.h>
#include <linux/slab.h>

#include "internal.h"

/* A region with no write for this long is cleared (md's daemon_sleep). */
#define OREBLK_INTENT_CLEAR_MS	5000

/* The bitmap writes of one image to the members in service. */
struct oreblk_intent_io {
	atomic_t pending;
	struct completion done;
};

static void oreblk_intent_end_io(struct bio *bio)
{
	struct oreblk_intent_io *io = bio->bi_private;

	if (atomic_dec_and_test(&io->pending))
		complete(&io->done);
}

/* A member that carries a bitmap: in service, with a device. */
static bool oreblk_intent_member(const struct oreblk_member *m)
{
	return m->sb_file && oreblk_member_in_service(m);
}

/*
 * Write @in->page to the bitmap of every member in service, all at once,
 * FUA; a member that fails the write fails (array.c). Under @io_mutex.
 * Returns the number of members written.
 */
static unsigned int oreblk_intent_write(struct oreblk_array *arr)
{
	struct oreblk_intent *in = arr->intent;
	struct oreblk_intent_io io;
	unsigned int done = 0;
	u32 i;

	lockdep_assert_held(&in->io_mutex);
	atomic_set(&io.pending, 1);
	init_completion(&io.done);
	for (i = 0; i < arr->nr_members; i++) {
		struct oreblk_member *m = &arr->members[i];
		struct bio *bio;

		in->bios[i] = NULL;
		if (!oreblk_intent_member(m))
			continue;
		bio = bio_alloc(file_bdev(m->sb_file), 1,
				REQ_OP_WRITE | REQ_FUA | REQ_SYNC | REQ_META,
				GFP_NOIO);
		bio->bi_iter.bi_sector = in->offset >> SECTOR_SHIFT;
		__bio_add_page(bio, in->page, OREBLK_INTENT_BYTES, 0);
		bio->bi_private = &io;
		bio->bi_end_io = oreblk_intent_end_io;
		atomic_inc(&io.pending);
		in->bios[i] = bio;
		submit_bio(bio);
	}
	if (!atomic_dec_and_test(&io.pending))
		wait_for_completion_io(&io.done);
	for (i = 0; i < arr->nr_members; i++) {
		struct bio *bio = in->bios[i];
		int err;

		if (!bio)
			continue;
		err = blk_status_to_errno(bio->bi_status);
		bio_put(bio);
		if (!err) {
			done++;
			continue;
		}
		pr_err("oreblk%d: member %u (%s): write-intent bitmap write at %llu failed: %d\n",
		       arr->index, i, arr->members[i].path, in->offset, err);
		oreblk_member_failed(arr, i, 0, err);
	}
	atomic64_inc(&in->writes);
	return done;
}

/* Copy @bits into the image page. Under @io_mutex. */
static void oreblk_intent_image(struct oreblk_intent *in,
				const unsigned long *bits)
{
	u8 *p = page_address(in->page);
	u32 b;

	memset(p, 0, OREBLK_INTENT_BYTES);
	for_each_set_bit(b, bits, in->nr_bits)
		p[b / 8] |= 1 << (b % 8);
}

/* The regions of [@offset, @offset + @length) of the array. */
static void oreblk_intent_range(struct oreblk_intent *in, u64 offset,
				u64 length, u32 *first, u32 *last)
{
	*first = div64_u64(offset, in->region);
	*last = div64_u64(offset + length - 1, in->region);
}

static bool oreblk_intent_all_set(struct oreblk_intent *in, u32 first,
				  u32 last)
{
	return find_next_zero_bit(in->ondisk, last + 1, first) > last;
}

/*
 * Write the bits the held writes want, then start the writes whose bits
 * are all on disk; again while writes are held.
 */
static void oreblk_intent_set_work(struct work_struct *work)
{
	struct oreblk_intent *in = container_of(work, struct oreblk_intent,
						set_work);
	struct oreblk_array *arr = in->arr;
	struct oreblk_cmd *cmd, *next;
	bool arm;

	mutex_lock(&in->io_mutex);
	for (;;) {
		LIST_HEAD(go);

		spin_lock_irq(&in->lock);
		if (list_empty(&in->held) &&
		    bitmap_empty(in->want, in->nr_bits)) {
			in->set_queued = false;
			spin_unlock_irq(&in->lock);
			break;
		}
		bitmap_or(in->image_bits, in->ondisk, in->want, in->nr_bits);
		bitmap_zero(in->want, in->nr_bits);
		spin_unlock_irq(&in->lock);

		oreblk_intent_image(in, in->image_bits);
		oreblk_intent_write(arr);

		spin_lock_irq(&in->lock);
		arm = bitmap_empty(in->ondisk, in->nr_bits);
		bitmap_copy(in->ondisk, in->image_bits, in->nr_bits);
		list_for_each_entry_safe(cmd, next, &in->held, held) {
			u32 first, last;

			oreblk_intent_range(in, cmd->offset, cmd->length,
					    &first, &last);
			if (oreblk_intent_all_set(in, first, last))
				list_move_tail(&cmd->held, &go);
		}
		spin_unlock_irq(&in->lock);
		if (arm)
			queue_delayed_work(oreblk_wq, &in->clear_work,
					   msecs_to_jiffies(OREBLK_INTENT_CLEAR_MS));
		list_for_each_entry_safe(cmd, next, &go, held) {
			list_del_init(&cmd->held);
			oreblk_cmd_dispatch(cmd);
		}
	}
	mutex_unlock(&in->io_mutex);
}

/*
 * Flush the cache of every member in service, each one itself (ore_flush()
 * succeeds degraded); a member whose flush fails fails. Returns 0 when all
 * did.
 */
static int oreblk_intent_flush(struct oreblk_array *arr)
{
	int ret = 0, idx;
	u32 i;

	/* a member's store replaced meanwhile stays until we are done */
	idx = srcu_read_lock(&arr->store_srcu);
	for (i = 0; i < arr->nr_members; i++) {
		struct oreblk_member *m = &arr->members[i];
		struct ore_store *store = READ_ONCE(m->store);
		int err;

		if (!oreblk_intent_member(m))
			continue;
		err = store->ops->flush(store, 0);
		if (!err)
			continue;
		oreblk_member_failed(arr, i, 0, err);
		ret = err;
	}
	srcu_read_unlock(&arr->store_srcu, idx);
	return ret;
}

/*
 * Is a member failure not in the superblocks yet? A write that went on
 * without that member is not safe to forget before it is.
 */
static bool oreblk_intent_failure_pending(struct oreblk_array *arr)
{
	unsigned long flags;
	bool pending;

	spin_lock_irqsave(&arr->hold_lock, flags);
	pending = arr->fail_seq != arr->sb_seq;
	spin_unlock_irqrestore(&arr->hold_lock, flags);
	return pending;
}

/*
 * Clear the bits of the regions that had no write since the last pass:
 * flush the members (what was written there is stable), then write the
 * bitmap without them. Runs every OREBLK_INTENT_CLEAR_MS while a bit is
 * set.
 */
static void oreblk_intent_clear_work(struct work_struct *work)
{
	struct oreblk_intent *in = container_of(to_delayed_work(work),
						struct oreblk_intent,
						clear_work);
	struct oreblk_array *arr = in->arr;
	bool any, rearm, flush;
	u32 b;
	int err;

	spin_lock_irq(&in->lock);
	bitmap_andnot(in->clear_bits, in->ondisk, in->touched, in->nr_bits);
	bitmap_zero(in->touched, in->nr_bits);
	for_each_set_bit(b, in->clear_bits, in->nr_bits)
		if (in->pending[b])
			__clear_bit(b, in->clear_bits);
	any = !bitmap_empty(in->clear_bits, in->nr_bits);
	/* bits set ahead that no write reached: nothing to make stable */
	flush = !bitmap_subset(in->clear_bits, in->ahead, in->nr_bits);
	spin_unlock_irq(&in->lock);

	if (any && oreblk_intent_failure_pending(arr))
		any = false;	/* a failed member must be on disk first */
	if (any && flush) {
		err = oreblk_intent_flush(arr);
		if (err) {
			pr_warn_ratelimited("oreblk%d: member cache flush failed: %d; write-intent bits stay set\n",
					    arr->index, err);
			any = false;
		}
	}
	mutex_lock(&in->io_mutex);
	spin_lock_irq(&in->lock);
	if (any) {
		/* written meanwhile: not yet */
		bitmap_andnot(in->clear_bits, in->clear_bits, in->touched,
			      in->nr_bits);
		/* off at once: a new write of these regions waits for the set */
		bitmap_andnot(in->ondisk, in->ondisk, in->clear_bits,
			      in->nr_bits);
		bitmap_andnot(in->ahead, in->ahead, in->clear_bits,
			      in->nr_bits);
		bitmap_copy(in->image_bits, in->ondisk, in->nr_bits);
		any = !bitmap_empty(in->clear_bits, in->nr_bits);
	}
	rearm = !bitmap_empty(in->ondisk, in->nr_bits);
	spin_unlock_irq(&in->lock);
	if (any) {
		oreblk_intent_image(in, in->image_bits);
		oreblk_intent_write(arr);
	}
	mutex_unlock(&in->io_mutex);
	if (rearm && !READ_ONCE(in->stopping))
		queue_delayed_work(oreblk_wq, &in->clear_work,
				   msecs_to_jiffies(OREBLK_INTENT_CLEAR_MS));
}

/*
 * A write that ends in the second half of region @last has the next
 * region's bit written ahead, without waiting for it: a sequential stream
 * then finds the bit on disk when it gets there, instead of waiting for a
 * bitmap write (FUA on every member) at every region. A bit set ahead that
 * no write reaches is cleared without a flush (@ahead). Under @in->lock.
 */
static void oreblk_intent_look_ahead(struct oreblk_intent *in,
				     struct oreblk_cmd *cmd, u32 last)
{
	u64 end = cmd->offset + cmd->length;
	u32 next = last + 1;

	if (next >= in->nr_bits || test_bit(next, in->ondisk) ||
	    test_bit(next, in->want) ||
	    end - (u64)last * in->region < in->region / 2)
		return;
	__set_bit(next, in->want);
	__set_bit(next, in->ahead);
	if (!in->set_queued) {
		in->set_queued = true;
		queue_work(oreblk_wq, &in->set_work);
	}
}

/**
 * oreblk_intent_hold - keep a write from starting before its regions'
 *	bits are on stable storage
 * @arr: the array
 * @cmd: a write command with data, not started
 *
 * Any context. The first call counts @cmd in its regions (until
 * oreblk_intent_end()); when a bit is missing, @cmd waits on the set work,
 * which calls oreblk_cmd_dispatch() again once the bits are written.
 *
 * Return: true when @cmd was held, false when it may start now.
 */
bool oreblk_intent_hold(struct oreblk_array *arr, struct oreblk_cmd *cmd)
{
	struct oreblk_intent *in = arr->intent;
	unsigned long flags;
	bool hold = false;
	u32 first, last, b;

	if (!in)
		return false;
	oreblk_intent_range(in, cmd->offset, cmd->length, &first, &last);
	spin_lock_irqsave(&in->lock, flags);
	if (!cmd->intent) {
		cmd->intent = true;
		for (b = first; b <= last; b++) {
			in->pending[b]++;
			__set_bit(b, in->touched);
			__clear_bit(b, in->ahead);
		}
		oreblk_intent_look_ahead(in, cmd, last);
	}
	if (!oreblk_intent_all_set(in, first, last)) {
		hold = true;
		for (b = first; b <= last; b++)
			if (!test_bit(b, in->ondisk))
				__set_bit(b, in->want);
		list_add_tail(&cmd->held, &in->held);
		if (!in->set_queued) {
			in->set_queued = true;
			queue_work(oreblk_wq, &in->set_work);
		}
	}
	spin_unlock_irqrestore(&in->lock, flags);
	if (hold)
		atomic64_inc(&in->held_writes);
	return hold;
}

/**
 * oreblk_intent_end - a write counted by oreblk_intent_hold() is over on
 *	every member
 * @arr: the array
 * @cmd: the command
 *
 * Any context.
 */
void oreblk_intent_end(struct oreblk_array *arr, struct oreblk_cmd *cmd)
{
	struct oreblk_intent *in = arr->intent;
	unsigned long flags;
	u32 first, last, b;

	if (!in || !cmd->intent)
		return;
	cmd->intent = false;
	oreblk_intent_range(in, cmd->offset, cmd->length, &first, &last);
	spin_lock_irqsave(&in->lock, flags);
	for (b = first; b <= last; b++)
		in->pending[b]--;
	spin_unlock_irqrestore(&in->lock, flags);
}

/**
 * oreblk_intent_create - the write-intent state of an array being assembled
 * @arr: the array, members open
 * @sb: a superblock of the array (checked) with OREBLK_CONSISTENCY_INTENT
 *
 * Return: 0 or -ENOMEM.
 */
int oreblk_intent_create(struct oreblk_array *arr, const struct oreblk_sb *sb)
{
	struct oreblk_intent *in;
	size_t longs;

	in = kzalloc(sizeof(*in), GFP_KERNEL);
	if (!in)
		return -ENOMEM;
	in->arr = arr;
	in->region = le64_to_cpu(sb->intent_region);
	in->offset = le64_to_cpu(sb->intent_offset);
	in->nr_bits = oreblk_intent_bits(sb);
	longs = BITS_TO_LONGS(in->nr_bits);
	spin_lock_init(&in->lock);
	mutex_init(&in->io_mutex);
	INIT_LIST_HEAD(&in->held);
	INIT_WORK(&in->set_work, oreblk_intent_set_work);
	INIT_DELAYED_WORK(&in->clear_work, oreblk_intent_clear_work);
	atomic64_set(&in->writes, 0);
	atomic64_set(&in->held_writes, 0);
	in->pending = kvcalloc(in->nr_bits, sizeof(*in->pending), GFP_KERNEL);
	in->bits = kcalloc(7 * longs, sizeof(long), GFP_KERNEL);
	in->bios = kcalloc(arr->nr_members, sizeof(*in->bios), GFP_KERNEL);
	in->page = alloc_page(GFP_KERNEL | __GFP_ZERO);
	arr->intent = in;
	if (!in->pending || !in->bits || !in->bios || !in->page)
		return -ENOMEM;
	in->ondisk = in->bits;
	in->want = in->bits + longs;
	in->touched = in->bits + 2 * longs;
	in->image_bits = in->bits + 3 * longs;
	in->clear_bits = in->bits + 4 * longs;
	in->found = in->bits + 5 * longs;
	in->ahead = in->bits + 6 * longs;
	return 0;
}

/**
 * oreblk_intent_read - the union of the bitmaps of the members in service
 *	into @arr->intent->found
 * @arr: the array being assembled, its write-intent state created
 *
 * A member whose bitmap cannot be read counts as all set (it says nothing
 * reliable).
 *
 * Return: the number of bits set in the union.
 */
u32 oreblk_intent_read(struct oreblk_array *arr)
{
	struct oreblk_intent *in = arr->intent;
	const u8 *p = page_address(in->page);
	u32 i, b;

	bitmap_zero(in->found, in->nr_bits);
	for (i = 0; i < arr->nr_members; i++) {
		struct oreblk_member *m = &arr->members[i];
		struct bio *bio;
		int err;

		if (!oreblk_intent_member(m) ||
		    test_bit(OREBLK_M_REBUILDING, &m->flags))
			continue;
		bio = bio_alloc(file_bdev(m->sb_file), 1,
				REQ_OP_READ | REQ_SYNC | REQ_META, GFP_KERNEL);
		bio->bi_iter.bi_sector = in->offset >> SECTOR_SHIFT;
		__bio_add_page(bio, in->page, OREBLK_INTENT_BYTES, 0);
		err = submit_bio_wait(bio);
		bio_put(bio);
		if (err) {
			pr_err("oreblk%d: member %u (%s): write-intent bitmap unreadable: %d; every region counts as written\n",
			       arr->index, i, m->path, err);
			bitmap_fill(in->found, in->nr_bits);
			continue;
		}
		for (b = 0; b < in->nr_bits; b++)
			if (p[b / 8] & (1 << (b % 8)))
				__set_bit(b, in->found);
	}
	return bitmap_weight(in->found, in->nr_bits);
}

static void oreblk_intent_dev_error(struct ore_io_state *ios, u32 comp,
				    struct ore_store *store, u64 offset,
				    int error)
{
	oreblk_store_failed(ios->private, comp, store, offset, error);
}

/*
 * Go over the regions @arr->intent->found names, about 1 MiB of whole
 * stripes at a time: repaired by ore_scrub() (checksums restamped first
 * where the array keeps them), adding to *@mismatches; or, with
 * @mismatches NULL, only restamped by ore_restamp() (a degraded array).
 * Adds the bytes done to *@bytes. Returns 0 or the first error (logged).
 */
static int oreblk_intent_walk(struct oreblk_array *arr, u64 *mismatches,
			      u64 *bytes)
{
	struct oreblk_intent *in = arr->intent;
	u64 U = arr->layout.stripe_length;
	u64 step = max_t(u64, U, div64_u64(SZ_1M, U) * U);
	u32 b;
	int err;

	for_each_set_bit(b, in->found, in->nr_bits) {
		u64 off = (u64)b * in->region;
		u64 end = min(off + in->region, arr->array_size);

		for (; off < end; off += step) {
			u64 len = min_t(u64, end - off, step);

			if (mismatches)
				err = ore_scrub(&arr->layout, &arr->oc, off, len,
						ORE_SCRUB_REPAIR | (arr->csum ?
						ORE_SCRUB_RESTAMP : 0),
						mismatches,
						oreblk_intent_dev_error, arr);
			else
				err = ore_restamp(&arr->layout, &arr->oc, off,
						  len);
			if (err) {
				pr_err("oreblk%d: %s failed at array offset %llu: %d\n",
				       arr->index, mismatches ?
				       "write-intent repair" :
				       "restamping the checksums", off, err);
				return err;
			}
			*bytes += len;
		}
		cond_resched();
	}
	return 0;
}

/**
 * oreblk_intent_replay - repair the regions that had writes in flight
 * @arr: the array being assembled, every member in service, no I/O yet;
 *	@arr->intent->found from oreblk_intent_read()
 *
 * Each region's stripes are repaired (ore_scrub(): parity and mirrors
 * rewritten from the data where they disagree), the members flushed, and
 * the bitmaps written empty. Logged.
 *
 * Return: 0, or the error that stopped it (the array is then not
 * started: its redundancy is not known to be in step).
 */
int oreblk_intent_replay(struct oreblk_array *arr)
{
	struct oreblk_intent *in = arr->intent;
	u64 mismatches = 0, bytes = 0;
	unsigned long start = jiffies;
	u32 n = bitmap_weight(in->found, in->nr_bits);
	int err;

	pr_info("oreblk%d: not stopped cleanly: the write-intent bitmap names %u of %u regions (%llu bytes each); repairing them\n",
		arr->index, n, in->nr_bits, in->region);
	err = oreblk_intent_walk(arr, &mismatches, &bytes);
	if (err)
		return err;
	err = oreblk_intent_flush(arr);
	if (err) {
		pr_err("oreblk%d: member cache flush after the write-intent repair failed: %d\n",
		       arr->index, err);
		return err;
	}
	mutex_lock(&in->io_mutex);
	bitmap_zero(in->ondisk, in->nr_bits);
	oreblk_intent_image(in, in->ondisk);
	oreblk_intent_write(arr);
	mutex_unlock(&in->io_mutex);
	in->replayed = n;
	in->replay_mismatches = mismatches;
	pr_info("oreblk%d: write-intent repair done in %u ms: %llu bytes in %u regions, %llu pages did not match\n",
		arr->index, jiffies_to_msecs(jiffies - start), bytes, n,
		mismatches);
	return 0;
}

/**
 * oreblk_intent_restamp - the checksums of the regions written at the crash
 * @arr: the array being assembled dirty, degraded and forced, with data
 *	checksums, no I/O yet; @arr->intent->found from oreblk_intent_read()
 *
 * The redundancy cannot be repaired (a member is missing), but the
 * checksums can be put in step with the data the crash left: every
 * member in service reads the regions its bitmaps name with the entries
 * taken from the data (ore_restamp()), and is flushed. Without it the
 * blocks cut mid-write would fail their checksums and, with nothing to
 * rebuild them from, read as EIO. Logged.
 *
 * Return: 0, or the error that stopped it (the array is not started).
 */
int oreblk_intent_restamp(struct oreblk_array *arr)
{
	struct oreblk_intent *in = arr->intent;
	unsigned long start = jiffies;
	u32 n = bitmap_weight(in->found, in->nr_bits);
	u64 bytes = 0;
	int err;

	err = oreblk_intent_walk(arr, NULL, &bytes);
	if (err)
		return err;
	err = oreblk_intent_flush(arr);
	if (err)
		return err;
	pr_warn("oreblk%d: dirty degraded start: the checksums of %u regions written at the crash (%llu bytes) were taken from their data in %u ms\n",
		arr->index, n, bytes, jiffies_to_msecs(jiffies - start));
	return 0;
}

/**
 * oreblk_intent_rewrite - write the bits set now to every member in service
 * @arr: the array
 *
 * For a member just added (recover.c): its bitmap page is whatever the
 * device held; from here on it says what the others say. Under sb_mutex
 * (the order is sb_mutex, then io_mutex), process context.
 */
void oreblk_intent_rewrite(struct oreblk_array *arr)
{
	struct oreblk_intent *in = arr->intent;

	if (!in)
		return;
	mutex_lock(&in->io_mutex);
	spin_lock_irq(&in->lock);
	bitmap_copy(in->image_bits, in->ondisk, in->nr_bits);
	spin_unlock_irq(&in->lock);
	oreblk_intent_image(in, in->image_bits);
	oreblk_intent_write(arr);
	mutex_unlock(&in->io_mutex);
}

/**
 * oreblk_intent_clean - write the bitmaps empty at a clean stop
 * @arr: the array: no I/O, the members flushed
 *
 * Return: 0, or -EIO when no member took the write.
 */
int oreblk_intent_clean(struct oreblk_array *arr)
{
	struct oreblk_intent *in = arr->intent;
	unsigned int done;

	if (!in)
		return 0;
	WRITE_ONCE(in->stopping, true);
	flush_work(&in->set_work);
	cancel_delayed_work_sync(&in->clear_work);
	mutex_lock(&in->io_mutex);
	bitmap_zero(in->ondisk, in->nr_bits);
	oreblk_intent_image(in, in->ondisk);
	done = oreblk_intent_write(arr);
	mutex_unlock(&in->io_mutex);
	return done ? 0 : -EIO;
}

/**
 * oreblk_intent_dirty_regions - bits set now (sysfs intent_bitmap)
 * @arr: the array
 *
 * Return: the number of regions whose bit is on disk.
 */
u32 oreblk_intent_dirty_regions(struct oreblk_array *arr)
{
	struct oreblk_intent *in = arr->intent;
	unsigned long flags;
	u32 n;

	if (!in)
		return 0;
	spin_lock_irqsave(&in->lock, flags);
	n = bitmap_weight(in->ondisk, in->nr_bits);
	spin_unlock_irqrestore(&in->lock, flags);
	return n;
}

/**
 * oreblk_intent_free - free the write-intent state
 * @arr: the array: no I/O, no superblock write to come (its fail_work
 *	flushed: oreblk_sb_build() reads the bitmap's geometry)
 */
void oreblk_intent_free(struct oreblk_array *arr)
{
	struct oreblk_intent *in = arr->intent;

	if (!in)
		return;
	WRITE_ONCE(in->stopping, true);
	flush_work(&in->set_work);
	cancel_delayed_work_sync(&in->clear_work);
	arr->intent = NULL;
	if (in->page)
		__free_page(in->page);
	kfree(in->bios);
	kfree(in->bits);
	kvfree(in->pending);
	mutex_destroy(&in->io_mutex);
	kfree(in);
}
