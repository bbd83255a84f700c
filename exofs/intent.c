// SPDX-License-Identifier: GPL-2.0
/*
 * exofs intent record: the RAID5/6 write hole closed (consistency policy
 * "intent", EXOFS_FEATURE_RO_COMPAT_INTENT).
 *
 * A crash in the middle of a write of a striped object can leave its
 * parity (or its mirror copies) out of step with the data; if a store is
 * lost before anything repairs it, the blocks rebuilt from that parity are
 * wrong, blocks nobody was writing included. exofs keeps, on every store
 * in service, a record of the regions (EXOFS_INTENT_REGION_MIN or more of
 * whole stripes of one object) that may have writes in flight:
 *
 * - a write of a region starts only once the region is in the record on
 *   every store in service (exofs_intent_begin()). One record write
 *   carries every region asked for meanwhile and lets all their writes go,
 *   so a sync of many small files costs one record write, not one per file;
 * - every EXOFS_INTENT_CLEAR_SECS the clear pass takes out the regions that
 *   had no write since the pass before: it flushes the stores first, so a
 *   region leaves the record only once its writes are stable;
 * - a mount repairs the parity and mirrors of every region the records
 *   name (ore_scrub() in repair mode) before the filesystem serves
 *   anything, and starts with an empty record. With a store not in
 *   service the regions cannot be repaired: the mount is refused unless
 *   the force option is given, as md refuses a dirty degraded array.
 *
 * The record is written whole into one of two slots, alternately, FUA, so
 * a torn record write leaves the previous one. Data writes of a region
 * wait for the record write that names it, so a store that lost the
 * record write (a crash drops everything after some point) also lost the
 * data writes after it: the union of the records of the stores in service
 * names every region whose stripes can be torn. The format is
 * include/exofs/exofs_fs.h, the reasons docs/exofs-format.md.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/fs.h>
#include <linux/hashtable.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <linux/bvec.h>

#include "exofs.h"

#define EXOFS_INTENT_CLEAR_SECS	5
#define EXOFS_INTENT_HASH_BITS	10

/**
 * struct exofs_intent_region - one region in the record (in memory)
 * @hash: in &exofs_intent.hash
 * @oid: the object
 * @region: the region number in it
 * @inflight: writes begun and not ended
 * @gen: &exofs_intent.gen that first includes it
 * @pass: &exofs_intent.pass at its last exofs_intent_begin()
 * @cand: the clear pass that found it idle (no write in flight)
 */
struct exofs_intent_region {
	struct hlist_node hash;
	u64 oid;
	u64 region;
	atomic_t inflight;
	u64 gen;
	u64 pass;
	u64 cand;
};

/**
 * struct exofs_intent - the intent record of a mounted filesystem
 * @sbi: the filesystem
 * @lock: protects everything below but the counters and @buf
 * @hash: the regions, by oid and region number
 * @nr: regions in @hash
 * @region: bytes of one region
 * @gen: version of @hash, one up for each change
 * @done: the version on the stores (every waiter of it or less is let go)
 * @err: the record of @done could not be written on any store
 * @seq: ih_seq of the last record written
 * @pass: clear passes so far
 * @waiters: &struct exofs_intent_wait whose regions are not on disk yet
 * @room: woken when the clear pass frees regions of a full record
 * @full: a writer waits for room
 * @stopped: unmount or remount read-only: no more record writes
 * @wq: runs @work; WQ_MEM_RECLAIM: writeback waits for it
 * @work: writes the record, runs the clear pass
 * @next_clear: jiffies of the next clear pass
 * @buf: the record being written (EXOFS_INTENT_SLOT bytes), used by @work
 * @records: record writes so far
 * @cleared: regions taken out by the clear passes
 * @recovered: regions repaired by the mount
 * @pinned: regions held by pNFS layouts (exofs_intent_pin()), counted
 *	once per pin
 */
struct exofs_intent {
	struct exofs_sb_info *sbi;
	struct mutex lock;		/* see above */
	DECLARE_HASHTABLE(hash, EXOFS_INTENT_HASH_BITS);
	u32 nr;
	u64 region;
	u64 gen;
	u64 done;
	int err;
	u64 seq;
	u64 pass;
	struct list_head waiters;
	wait_queue_head_t room;
	bool full;
	bool stopped;
	struct workqueue_struct *wq;
	struct delayed_work work;
	unsigned long next_clear;
	void *buf;
	atomic64_t records;
	atomic64_t cleared;
	u64 recovered;
	u32 pinned;
};

static u32 exofs_intent_hash(u64 oid, u64 region)
{
	return hash_64(oid * 0x9E3779B97F4A7C15ULL + region,
		       EXOFS_INTENT_HASH_BITS);
}

static struct exofs_intent_region *
exofs_intent_find(struct exofs_intent *in, u64 oid, u64 region)
{
	struct exofs_intent_region *r;

	hash_for_each_possible(in->hash, r, hash,
			       exofs_intent_hash(oid, region))
		if (r->oid == oid && r->region == region)
			return r;
	return NULL;
}

/* Add region @region of @oid if it is not in; under @in->lock. */
static struct exofs_intent_region *
exofs_intent_add(struct exofs_intent *in, u64 oid, u64 region,
		 struct exofs_intent_region **spare)
{
	struct exofs_intent_region *r = exofs_intent_find(in, oid, region);

	if (r)
		return r;
	r = *spare;
	*spare = NULL;
	r->oid = oid;
	r->region = region;
	atomic_set(&r->inflight, 0);
	r->gen = ++in->gen;
	r->pass = in->pass;
	r->cand = 0;
	hash_add(in->hash, &r->hash, exofs_intent_hash(oid, region));
	in->nr++;
	return r;
}

static void exofs_intent_sio_end(struct ore_store_io *sio)
{
	atomic_t *left = sio->private;

	if (atomic_dec_and_test(left))
		wake_up_var(left);
}

/*
 * Read (@write false) or write (FUA) @len bytes of the intent object at
 * @offset on every store in @mask, from/to @buf (vmalloc'ed, @len a
 * multiple of PAGE_SIZE), all at once. Each store's result in @errs.
 */
static int exofs_intent_io(struct exofs_sb_info *sbi, unsigned long *mask,
			   void *buf, u64 offset, u32 len, bool write,
			   int *errs)
{
	u32 n = len >> PAGE_SHIFT, i, j;
	struct ore_store_io *sios;
	struct bio_vec *bv;
	atomic_t left;

	sios = kcalloc(sbi->num_stores, sizeof(*sios), GFP_NOFS);
	bv = kcalloc(n, sizeof(*bv), GFP_NOFS);
	if (!sios || !bv) {
		kfree(sios);
		kfree(bv);
		return -ENOMEM;
	}
	for (j = 0; j < n; j++)
		bvec_set_page(&bv[j], vmalloc_to_page(buf + j * PAGE_SIZE),
			      PAGE_SIZE, 0);
	atomic_set(&left, 1);
	for_each_set_bit(i, mask, sbi->num_stores) {
		struct ore_store_io *sio = &sios[i];

		sio->store = sbi->ore_stores[i];
		sio->oid = EXOFS_INTENT_OID;
		sio->offset = offset;
		sio->len = len;
		sio->bvec = bv;
		sio->nr_bvec = n;
		sio->write = write;
		sio->fua = write;
		sio->no_csum = true;	/* CRCs of its own */
		sio->end_io = exofs_intent_sio_end;
		sio->private = &left;
		INIT_LIST_HEAD(&sio->queue);
		atomic_inc(&left);
		sio->store->ops->submit(sio);
	}
	if (!atomic_dec_and_test(&left))
		wait_var_event(&left, !atomic_read(&left));
	for_each_set_bit(i, mask, sbi->num_stores)
		errs[i] = sios[i].error;
	kfree(sios);
	kfree(bv);
	return 0;
}

/* Stores that take the record: in service, or being rebuilt. */
static void exofs_intent_stores(struct exofs_sb_info *sbi, unsigned long *mask)
{
	u32 i;

	bitmap_zero(mask, EXOFS_MAX_STORES);
	for (i = 0; i < sbi->num_stores; i++) {
		int st = READ_ONCE(sbi->stores[i].state);

		if (st == EXOFS_STORE_OK || st == EXOFS_STORE_REBUILDING)
			__set_bit(i, mask);
	}
}

/*
 * Build the record of the regions in @in->hash into @in->buf, one seq up;
 * under @in->lock. Return: the bytes to write.
 */
static u32 exofs_intent_build(struct exofs_intent *in)
{
	struct exofs_intent_hdr *hdr = in->buf;
	struct exofs_intent_ent *ent = (void *)(hdr + 1);
	struct exofs_intent_region *r;
	unsigned int b;
	u32 n = 0;

	memset(hdr, 0, sizeof(*hdr));
	hash_for_each(in->hash, b, r, hash) {
		ent[n].ie_oid = cpu_to_le64(r->oid);
		ent[n].ie_region = cpu_to_le64(r->region);
		n++;
	}
	hdr->ih_magic = cpu_to_le64(EXOFS_INTENT_MAGIC);
	hdr->ih_seq = cpu_to_le64(++in->seq);
	export_uuid(hdr->ih_uuid, &in->sbi->uuid);
	hdr->ih_region = cpu_to_le64(in->region);
	hdr->ih_count = cpu_to_le32(n);
	hdr->ih_csum = cpu_to_le32(exofs_intent_csum(hdr));
	return round_up(sizeof(*hdr) + n * sizeof(*ent), PAGE_SIZE);
}

/*
 * Write the record as @in->hash holds it now to every store that takes it.
 * A store that cannot is taken out of service. Only @in->work and the
 * mount and unmount (when @work cannot run) call it.
 *
 * Return: 0 when at least one store took it, else an error.
 */
static int exofs_intent_write(struct exofs_intent *in)
{
	struct exofs_sb_info *sbi = in->sbi;
	DECLARE_BITMAP(mask, EXOFS_MAX_STORES);
	int errs[EXOFS_MAX_STORES];
	u32 len, i, written = 0;
	u64 gen, seq;
	int err;

	exofs_intent_stores(sbi, mask);
	mutex_lock(&in->lock);
	gen = in->gen;
	len = exofs_intent_build(in);
	seq = in->seq;
	mutex_unlock(&in->lock);

	err = exofs_intent_io(sbi, mask, in->buf, (seq % 2) * EXOFS_INTENT_SLOT,
			      len, true, errs);
	if (!err) {
		for_each_set_bit(i, mask, sbi->num_stores) {
			if (!errs[i]) {
				written++;
				continue;
			}
			pr_err("%s: cannot write the intent record to store %u (%s): %d; store taken out of service\n",
			       sbi->sb->s_id, i, sbi->stores[i].path, errs[i]);
			exofs_store_failed(sbi, i);
			err = errs[i];
		}
		if (written)
			err = 0;
		else if (!err)
			err = -EIO;
	}
	atomic64_inc(&in->records);

	mutex_lock(&in->lock);
	if (!err || gen > in->done) {
		in->done = max(in->done, gen);
		in->err = err;
	}
	mutex_unlock(&in->lock);
	return err;
}

/* Let go the waiters whose regions are on disk (or failed to get there). */
static void exofs_intent_release(struct exofs_intent *in)
{
	struct exofs_intent_wait *w, *next;
	LIST_HEAD(go);
	int err;

	mutex_lock(&in->lock);
	err = in->err;
	list_for_each_entry_safe(w, next, &in->waiters, node)
		if (w->need <= in->done)
			list_move_tail(&w->node, &go);
	mutex_unlock(&in->lock);
	list_for_each_entry_safe(w, next, &go, node) {
		list_del_init(&w->node);
		w->fn(w, err);
	}
}

/*
 * The clear pass: regions idle since the pass before (@force: idle now)
 * are taken out once the stores are flushed. Nothing is taken out while a
 * failed store is not yet recorded in the superblocks: the writes that
 * went on without it are not done yet (exofs_hold_write()).
 */
static unsigned int exofs_intent_clear(struct exofs_intent *in, bool force)
{
	struct exofs_sb_info *sbi = in->sbi;
	struct exofs_intent_region *r;
	struct hlist_node *tmp;
	unsigned int b, cand = 0, gone = 0;
	u64 snap;

	spin_lock_irq(&sbi->fail_lock);
	b = sbi->fail_seq != sbi->fail_done;
	spin_unlock_irq(&sbi->fail_lock);
	if (b)
		return 0;

	mutex_lock(&in->lock);
	snap = ++in->pass;
	hash_for_each(in->hash, b, r, hash) {
		if (atomic_read(&r->inflight) ||
		    (!force && r->pass + 1 >= snap))
			continue;
		r->cand = snap;
		cand++;
	}
	mutex_unlock(&in->lock);
	if (!cand)
		return 0;
	/* the writes of the candidates ended before the flush starts */
	if (exofs_sync_stores(sbi))
		return 0;

	mutex_lock(&in->lock);
	hash_for_each_safe(in->hash, b, tmp, r, hash) {
		if (r->cand != snap || r->pass >= snap ||
		    atomic_read(&r->inflight))
			continue;
		hash_del(&r->hash);
		kfree(r);
		in->nr--;
		gone++;
	}
	if (gone) {
		in->gen++;
		in->full = false;
	}
	mutex_unlock(&in->lock);
	atomic64_add(gone, &in->cleared);
	if (gone)
		wake_up_all(&in->room);
	return gone;
}

static void exofs_intent_work(struct work_struct *work)
{
	struct exofs_intent *in = container_of(to_delayed_work(work),
					       struct exofs_intent, work);
	bool force, write, more, stuck = false;

	mutex_lock(&in->lock);
	force = in->full;
	mutex_unlock(&in->lock);
	if (force || time_after_eq(jiffies, in->next_clear)) {
		/* full and nothing idle yet: try again in a moment */
		stuck = !exofs_intent_clear(in, force) && force;
		in->next_clear = jiffies + EXOFS_INTENT_CLEAR_SECS * HZ;
	}
	mutex_lock(&in->lock);
	write = in->gen != in->done && !in->stopped;
	mutex_unlock(&in->lock);
	if (write)
		exofs_intent_write(in);
	exofs_intent_release(in);

	mutex_lock(&in->lock);
	more = !in->stopped;
	if (more && (in->gen != in->done || in->full))
		mod_delayed_work(in->wq, &in->work,
				 stuck ? HZ / 20 : 0);
	else if (more && in->nr)
		mod_delayed_work(in->wq, &in->work,
				 max_t(long, in->next_clear - jiffies, 1));
	mutex_unlock(&in->lock);
}

/*
 * The record has no room: have the clear pass take out every idle region
 * and wait for it. Under @in->lock, dropped while waiting.
 */
static void exofs_intent_wait_room(struct exofs_intent *in)
{
	in->full = true;
	mod_delayed_work(in->wq, &in->work, 0);
	mutex_unlock(&in->lock);
	wait_event(in->room, !READ_ONCE(in->full) || READ_ONCE(in->stopped));
	mutex_lock(&in->lock);
}

/**
 * exofs_intent_begin - record the regions of a write before it starts
 * @sbi: the filesystem
 * @oid: the striped object written
 * @offset: logical offset of the write
 * @len: its bytes (> 0, at most one region)
 * @w: the write's waiter; @w->fn is called once the regions are on disk
 *
 * Process context; may sleep when the record is full. Every call is
 * paired with exofs_intent_end() on @w, after the write completed, also
 * when @w->fn was given an error.
 *
 * Return: true when @w->fn will be called (from a workqueue), false when
 * the write may start at once (the regions are on disk, or the
 * filesystem has no intent record).
 */
bool exofs_intent_begin(struct exofs_sb_info *sbi, u64 oid, u64 offset,
			u64 len, struct exofs_intent_wait *w)
{
	struct exofs_intent *in = sbi->intent;
	struct exofs_intent_region *spare[2] = {};
	u64 r0, r1;
	u32 i, need;
	bool queued = false;

	w->reg[0] = NULL;
	w->reg[1] = NULL;
	INIT_LIST_HEAD(&w->node);
	if (!in)
		return false;
	r0 = div64_u64(offset, in->region);
	r1 = div64_u64(offset + max(len, 1ULL) - 1, in->region);
	if (WARN_ON_ONCE(r1 > r0 + 1))
		r1 = r0 + 1;
	need = r1 - r0 + 1;
	for (i = 0; i < need; i++)
		spare[i] = kmalloc(sizeof(*spare[i]), GFP_NOFS | __GFP_NOFAIL);

	mutex_lock(&in->lock);
	if (in->stopped) {
		/* read-only: no writes but the repairs of a scrub */
		mutex_unlock(&in->lock);
		kfree(spare[0]);
		kfree(spare[1]);
		return false;
	}
	while (in->nr + need > EXOFS_INTENT_MAX && !in->stopped)
		exofs_intent_wait_room(in);
	w->need = 0;
	for (i = 0; i < need; i++) {
		struct exofs_intent_region *r;

		r = exofs_intent_add(in, oid, r0 + i, &spare[i]);
		atomic_inc(&r->inflight);
		r->pass = in->pass;
		w->need = max(w->need, r->gen);
		w->reg[i] = r;
	}
	if (w->need > in->done) {
		list_add_tail(&w->node, &in->waiters);
		queued = true;
		mod_delayed_work(in->wq, &in->work, 0);
	}
	mutex_unlock(&in->lock);
	kfree(spare[0]);
	kfree(spare[1]);
	return queued;
}

static void exofs_intent_sync_done(struct exofs_intent_wait *w, int err)
{
	w->err = err;
	complete(w->done);
}

/**
 * exofs_intent_begin_sync - exofs_intent_begin() and wait for the record
 * @sbi: the filesystem
 * @oid: the object
 * @offset: logical offset
 * @len: bytes
 * @w: the waiter, to give to exofs_intent_end() afterwards
 *
 * For the writes that are not writeback (truncate). Process context.
 *
 * Return: 0, or the error of the record write.
 */
int exofs_intent_begin_sync(struct exofs_sb_info *sbi, u64 oid, u64 offset,
			    u64 len, struct exofs_intent_wait *w)
{
	DECLARE_COMPLETION_ONSTACK(done);

	w->fn = exofs_intent_sync_done;
	w->done = &done;
	w->err = 0;
	if (exofs_intent_begin(sbi, oid, offset, len, w))
		wait_for_completion(&done);
	return w->err;
}

/**
 * exofs_intent_end - a write begun by exofs_intent_begin() ended
 * @sbi: the filesystem
 * @w: its waiter
 *
 * Any context.
 */
void exofs_intent_end(struct exofs_sb_info *sbi, struct exofs_intent_wait *w)
{
	u32 i;

	for (i = 0; i < ARRAY_SIZE(w->reg); i++) {
		if (w->reg[i])
			atomic_dec(&w->reg[i]->inflight);
		w->reg[i] = NULL;
	}
}

/**
 * exofs_intent_region_bytes - the bytes of one region of the record
 * @sbi: the filesystem
 *
 * Return: the region size, or 0 when the filesystem keeps no record.
 */
u64 exofs_intent_region_bytes(struct exofs_sb_info *sbi)
{
	return sbi->intent ? sbi->intent->region : 0;
}

/**
 * exofs_intent_pin - keep regions of an object in the record for a writer
 *	the MDS does not see (a pNFS client's layout)
 * @sbi: the filesystem
 * @oid: the striped object
 * @first: its first region
 * @count: regions, > 0
 *
 * Adds regions [@first, @first + @count) as if a write of each were in
 * flight, so the clear pass leaves them, and waits until the record that
 * names them is on disk: a crash from then on has the next mount repair
 * them. exofs_intent_unpin() lets them go. Pins take at most half of the
 * record (the MDS's own writes keep the other half). Process context.
 *
 * Return: 0, -ENOSPC when the pins would take more than half the record,
 * -EROFS when the record is stopped, -ENOMEM, or the error of the record
 * write (then nothing stays pinned).
 */
int exofs_intent_pin(struct exofs_sb_info *sbi, u64 oid, u64 first, u32 count)
{
	struct exofs_intent *in = sbi->intent;
	struct exofs_intent_region **spare;
	DECLARE_COMPLETION_ONSTACK(done);
	struct exofs_intent_wait w = {
		.fn = exofs_intent_sync_done,
		.done = &done,
	};
	bool queued = false;
	int err = 0;
	u32 i;

	if (!in)
		return 0;
	if (!count || count > EXOFS_INTENT_MAX / 2)
		return -ENOSPC;
	spare = kcalloc(count, sizeof(*spare), GFP_KERNEL);
	if (!spare)
		return -ENOMEM;
	for (i = 0; i < count; i++) {
		spare[i] = kmalloc(sizeof(*spare[i]), GFP_KERNEL);
		if (!spare[i]) {
			err = -ENOMEM;
			goto out;
		}
	}
	INIT_LIST_HEAD(&w.node);
	mutex_lock(&in->lock);
	while (!in->stopped && in->pinned + count <= EXOFS_INTENT_MAX / 2 &&
	       in->nr + count > EXOFS_INTENT_MAX)
		exofs_intent_wait_room(in);
	if (in->stopped || in->pinned + count > EXOFS_INTENT_MAX / 2) {
		err = in->stopped ? -EROFS : -ENOSPC;
		mutex_unlock(&in->lock);
		goto out;
	}
	for (i = 0; i < count; i++) {
		struct exofs_intent_region *r;

		r = exofs_intent_add(in, oid, first + i, &spare[i]);
		atomic_inc(&r->inflight);
		r->pass = in->pass;
		w.need = max(w.need, r->gen);
	}
	in->pinned += count;
	if (w.need > in->done) {
		list_add_tail(&w.node, &in->waiters);
		queued = true;
		mod_delayed_work(in->wq, &in->work, 0);
	}
	mutex_unlock(&in->lock);
	if (queued)
		wait_for_completion(&done);
	err = w.err;
	if (err)
		exofs_intent_unpin(sbi, oid, first, count);
out:
	for (i = 0; i < count; i++)
		kfree(spare[i]);
	kfree(spare);
	return err;
}

/**
 * exofs_intent_unpin - let go regions exofs_intent_pin() kept
 * @sbi: the filesystem
 * @oid: the object
 * @first: its first region
 * @count: regions, as given to exofs_intent_pin()
 *
 * They leave the record at the second clear pass from now (the client's
 * writes are stable on the stores; the pass flushes them anyway).
 * Process context.
 */
void exofs_intent_unpin(struct exofs_sb_info *sbi, u64 oid, u64 first,
			u32 count)
{
	struct exofs_intent *in = sbi->intent;
	u32 i;

	if (!in)
		return;
	mutex_lock(&in->lock);
	for (i = 0; i < count; i++) {
		struct exofs_intent_region *r;

		r = exofs_intent_find(in, oid, first + i);
		if (WARN_ON_ONCE(!r || !atomic_read(&r->inflight)))
			continue;
		atomic_dec(&r->inflight);
		r->pass = in->pass;
	}
	in->pinned -= min(in->pinned, count);
	if (in->nr)
		mod_delayed_work(in->wq, &in->work,
				 max_t(long, in->next_clear - jiffies, 1));
	mutex_unlock(&in->lock);
}

/* ------------------------------------------------------------------ */
/* mount: read the records, repair what they name */

/*
 * Read both slots of store @i's record (into @buf, 2 slots) for @in; add
 * the regions of its newest valid slot. Return: 1 when the store had a
 * valid slot, 0 when none (never written, or no object), or an error.
 */
static int exofs_intent_load_store(struct exofs_intent *in, u32 i,
				   void *buf, int err)
{
	struct exofs_sb_info *sbi = in->sbi;
	struct exofs_intent_hdr *best = NULL;
	struct exofs_intent_ent *ent;
	u32 s, n, k;

	if (err == -ENOENT)
		return 0;
	if (err) {
		pr_warn("%s: cannot read the intent record of store %u (%s): %d\n",
			sbi->sb->s_id, i, sbi->stores[i].path, err);
		return 0;
	}
	for (s = 0; s < 2; s++) {
		struct exofs_intent_hdr *hdr = buf + s * EXOFS_INTENT_SLOT;
		const char *why;
		int c = exofs_intent_check(hdr, EXOFS_INTENT_SLOT,
					   sbi->uuid.b, in->region, &why);

		if (c < 0)
			pr_warn("%s: intent record slot %u of store %u (%s) is not valid (%s): the other slot is used\n",
				sbi->sb->s_id, s, i, sbi->stores[i].path, why);
		if (c)
			continue;
		if (!best || le64_to_cpu(hdr->ih_seq) > le64_to_cpu(best->ih_seq))
			best = hdr;
	}
	if (!best)
		return 0;
	in->seq = max(in->seq, le64_to_cpu(best->ih_seq));
	n = le32_to_cpu(best->ih_count);
	ent = (void *)(best + 1);
	for (k = 0; k < n; k++) {
		struct exofs_intent_region *spare;

		spare = kmalloc(sizeof(*spare), GFP_KERNEL);
		if (!spare)
			return -ENOMEM;
		exofs_intent_add(in, le64_to_cpu(ent[k].ie_oid),
				 le64_to_cpu(ent[k].ie_region), &spare);
		kfree(spare);
	}
	return 1;
}

/*
 * The components of region @r's object into @oc, and the part of the
 * region its components hold, [*@off, *@end): false when they hold none.
 */
static bool exofs_intent_region_range(struct exofs_intent *in,
				      struct exofs_intent_region *r,
				      struct ore_components *oc, u64 *off,
				      u64 *end)
{
	exofs_init_comps(in->sbi, oc, r->oid);
	*off = r->region * in->region;
	*end = min(exofs_scrub_extent(in->sbi, oc), *off + in->region);
	return *off < *end;
}

/*
 * The record of inode @ino, read from the inode table through ORE (the
 * intent repair runs before the table's page cache is set up): its extent
 * of made components (i_made) in *@made; 1 when it is free, 0 when in use,
 * a negative errno when it cannot be read or is not valid.
 */
static int exofs_intent_record(struct exofs_sb_info *sbi, u64 ino, u64 *made)
{
	u64 off = ino * EXOFS_INODE_SIZE;
	struct ore_components oc;
	struct ore_io_state *ios;
	struct exofs_inode *rec;
	struct page *page;
	const char *why;
	int err;

	page = alloc_page(GFP_KERNEL);
	if (!page)
		return -ENOMEM;
	exofs_init_comps(sbi, &oc, EXOFS_ITABLE_OID);
	err = ore_get_rw_state(&sbi->layout, &oc, true,
			       round_down(off, PAGE_SIZE), PAGE_SIZE, &ios);
	if (!err) {
		ios->pages = &page;
		ios->nr_pages = 1;
		err = ore_read(ios);
		ore_put_io_state(ios);
	}
	if (!err) {
		rec = kmap_local_page(page);
		rec = (void *)rec + offset_in_page(off);
		err = exofs_inode_check(rec, ino, &why);
		*made = le64_to_cpu(rec->i_made);
		kunmap_local(rec);
	}
	__free_page(page);
	return err;
}

/* Rows of a missing component read to tell unmade from lost, at most */
#define EXOFS_INTENT_EMPTY_ROWS	1024

/* What the redundancy says of a missing component (exofs_intent_comp_empty()) */
enum {
	EXOFS_COMP_HELD,	/* data outside the regions: lost before */
	EXOFS_COMP_EMPTY,	/* zeros outside the regions: unmade */
	EXOFS_COMP_UNKNOWN,	/* it cannot tell */
};

/*
 * Did missing component @comp of @oc's object hold nothing outside the
 * record's regions, as far as the redundancy tells? Each unit it would
 * hold below @made, in a stripe no region names, is read through ORE with
 * the missing components taken for lost (so rebuilt from the others): the
 * data unit's own range, or the whole stripe for a parity unit (zero
 * parity of a row never written). Returns EXOFS_COMP_*: UNKNOWN when a
 * read fails (more components missing than the layout rebuilds) or there
 * are more than EXOFS_INTENT_EMPTY_ROWS rows; or -ENOMEM.
 */
static int exofs_intent_comp_empty(struct exofs_intent *in,
				   const struct ore_components *oc, u32 comp,
				   u64 made)
{
	const struct ore_layout *l = &in->sbi->layout;
	u64 rows = DIV_ROUND_UP(ore_layout_obj_size(l, comp, made),
				l->stripe_unit);
	u32 pos = (comp / l->mirrors_p1) % l->group_width;
	unsigned int np = l->stripe_length >> PAGE_SHIFT, i;
	struct ore_components roc = *oc;
	int ret = EXOFS_COMP_EMPTY;
	struct page **pages;
	u64 r;

	if (rows > EXOFS_INTENT_EMPTY_ROWS)
		return EXOFS_COMP_UNKNOWN;
	roc.made = made;	/* reached: missing is lost, read degraded */
	pages = kcalloc(np, sizeof(*pages), GFP_KERNEL);
	if (!pages)
		return -ENOMEM;
	for (i = 0; i < np; i++) {
		pages[i] = alloc_page(GFP_KERNEL);
		if (!pages[i]) {
			ret = -ENOMEM;
			goto out;
		}
	}
	for (r = 0; r < rows && ret == EXOFS_COMP_EMPTY; r++) {
		u64 nrows, start = ore_layout_comp_stripes(l, comp,
							   r * l->stripe_unit,
							   1, &nrows);
		u32 col = ore_layout_pos_col(l, r, pos);
		u64 off = start, len = l->stripe_length;
		struct ore_io_state *ios;
		int err;

		/* regions are whole stripes: a row is in one or outside */
		if (exofs_intent_find(in, oc->oid, div64_u64(start, in->region)))
			continue;
		if (col < l->data_width) {
			off += (u64)col * l->stripe_unit;
			len = l->stripe_unit;
		}
		err = ore_get_rw_state(l, &roc, true, off, len, &ios);
		if (!err) {
			ios->pages = pages;
			ios->nr_pages = len >> PAGE_SHIFT;
			err = ore_read(ios);
			ore_put_io_state(ios);
		}
		if (err) {
			ret = err == -ENOMEM ? err : EXOFS_COMP_UNKNOWN;
			break;
		}
		for (i = 0; i < len >> PAGE_SHIFT; i++)
			if (memchr_inv(page_address(pages[i]), 0, PAGE_SIZE)) {
				ret = EXOFS_COMP_HELD;
				break;
			}
		cond_resched();
	}
out:
	for (i = 0; i < np; i++)
		if (pages[i])
			__free_page(pages[i]);
	kfree(pages);
	return ret;
}

/*
 * Was a component of @oc's object that @made reaches lost before the
 * crash rather than left unmade by it? A missing one whose units outside
 * the record's regions the redundancy shows holding data (exofs_intent_
 * comp_empty()) was: made empty it would read as zeros. Then the other
 * missing ones are made here (empty: ore_make_except()), that one stays
 * lost, and 1 is returned; 0 when none was (the caller makes them all);
 * -ENOMEM. A missing component the redundancy cannot tell about is taken
 * for unmade, with a warning. Stores not in service are passed over
 * (their rebuild makes their components).
 */
static int exofs_intent_lost(struct exofs_intent *in,
			     struct ore_components *oc, u64 made)
{
	const struct ore_layout *l = &in->sbi->layout;
	const char *id = in->sbi->sb->s_id;
	unsigned long *miss;
	int ret = 0, what, err;
	u32 comp;
	u64 len;

	miss = bitmap_zalloc(l->num_comps, GFP_KERNEL);
	if (!miss)
		return -ENOMEM;
	for (comp = 0; comp < l->num_comps; comp++) {
		struct ore_store *store = ore_comp_store(oc, comp);

		if (ore_layout_obj_size(l, comp, made) &&
		    ore_store_readable(store, 0, U64_MAX) &&
		    store->ops->length(store, oc->oid, &len) == -ENOENT)
			__set_bit(comp, miss);
	}
	for_each_set_bit(comp, miss, l->num_comps) {
		struct ore_store *store = ore_comp_store(oc, comp);

		what = exofs_intent_comp_empty(in, oc, comp, made);
		if (what < 0) {
			ret = what;
			goto out;
		}
		if (what == EXOFS_COMP_UNKNOWN)
			pr_warn("%s: object 0x%llx: component %u on store %s is missing and the redundancy cannot tell whether it held data outside the regions with writes in flight: taken for one whose creation the crash lost, made empty\n",
				id, oc->oid, comp, store->name);
		if (what != EXOFS_COMP_HELD) {
			__clear_bit(comp, miss);
			continue;
		}
		pr_warn("%s: object 0x%llx: component %u on store %s is missing and held data outside the regions with writes in flight: it was lost before the crash, not left unmade by it; it stays lost (read from the redundancy), the object's regions are not repaired\n",
			id, oc->oid, comp, store->name);
		ret = 1;
	}
	if (!ret)
		goto out;
	/* the others are unmade: make them, the lost ones stay as they are */
	err = ore_make_except(l, oc, made, miss);
	if (err)
		pr_warn("%s: object 0x%llx: cannot make the components beside the lost one: %d\n",
			id, oc->oid, err);
out:
	bitmap_free(miss);
	return ret;
}

/*
 * Sized components (EXOFS_FEATURE_RO_COMPAT_SIZED) of region @oc's inode:
 * a crash can keep a record whose i_made reaches components whose
 * creation it lost (each store's filesystem commits its own journal).
 * Make those, empty, and take i_made as made, so that none of them passes
 * for lost. A missing one that held data outside the record's regions
 * (exofs_intent_lost()) was lost before the crash (a second fault): it
 * stays lost (made empty it would read as zeros) and the object's regions
 * are not repaired (2: a repair would write over the lost component's
 * data there, or read it as zeros). Returns 1 when the inode is free (no
 * object: nothing to repair), else 0, 2 or a negative errno.
 */
static int exofs_intent_made(struct exofs_intent *in,
			     struct ore_components *oc)
{
	struct exofs_sb_info *sbi = in->sbi;
	u64 ino = oc->oid - EXOFS_INO_OID_BASE, made = 0;
	int err;

	if (!oc->sized)
		return 0;
	if (ino >= sbi->max_ino)
		return 1;
	err = exofs_intent_record(sbi, ino, &made);
	if (err < 0) {
		/* missing components then read as empty (made stays 0) */
		pr_warn("%s: inode %llu: cannot read its record for the intent repair: %d\n",
			sbi->sb->s_id, ino, err);
		return 0;
	}
	if (err)
		return 1;
	if (!made)
		return 0;
	err = exofs_intent_lost(in, oc, made);
	if (err < 0)
		return err;
	if (err) {
		oc->made = made;	/* the lost one is lost, not a hole */
		return 2;
	}
	return ore_make(&sbi->layout, oc, made);
}

/*
 * Repair region @r: ore_scrub() in repair mode over its stripes, which
 * with checksums restamps them first.
 */
static int exofs_intent_repair(struct exofs_intent *in,
			       struct exofs_intent_region *r, u64 *found)
{
	struct exofs_sb_info *sbi = in->sbi;
	const struct ore_layout *l = &sbi->layout;
	struct ore_components oc;
	u64 off, end;
	bool any;
	int err;

	any = exofs_intent_region_range(in, r, &oc, &off, &end);
	err = exofs_intent_made(in, &oc);
	if (err < 0)
		pr_err("%s: object 0x%llx: cannot make the components its record reaches: %d\n",
		       sbi->sb->s_id, r->oid, err);
	if (err == 2)
		return any ? -EIO : 0;	/* a lost component: not repaired */
	if (err)
		return err < 0 ? err : 0;
	if (!any)
		return 0;
	/* blocks and their checksums may have been cut apart: restamp */
	err = ore_scrub(l, &oc, off, end - off,
			ORE_SCRUB_REPAIR | (sbi->csum_on ? ORE_SCRUB_RESTAMP : 0),
			found, NULL, NULL);
	if (err)
		pr_err("%s: object 0x%llx: cannot repair the region [%llu, %llu) named by the intent record: %d\n",
		       sbi->sb->s_id, r->oid, off, end, err);
	return err;
}

/*
 * The regions can be repaired only with every store in service: the first
 * store that is not (missing, failed, stale or being rebuilt), or -1.
 */
static int exofs_intent_out_of_service(struct exofs_sb_info *sbi)
{
	u32 i;

	for (i = 0; i < sbi->num_stores; i++)
		if (sbi->stores[i].state != EXOFS_STORE_OK)
			return i;
	return -1;
}

static void exofs_intent_free_regions(struct exofs_intent *in)
{
	struct exofs_intent_region *r;
	struct hlist_node *tmp;
	unsigned int b;

	hash_for_each_safe(in->hash, b, tmp, r, hash) {
		hash_del(&r->hash);
		kfree(r);
	}
	in->nr = 0;
}

/*
 * A forced mount cannot repair the regions (a store is not in service),
 * but with checksums it restamps what the stores in service hold there
 * (ore_restamp()): blocks a crash cut from their entries then read as
 * what they hold, which the user accepted with -o force, rather than fail
 * their checksums where the redundancy cannot rebuild them. The regions
 * stay in the record: a mount with every store repairs them.
 */
static int exofs_intent_restamp_all(struct exofs_intent *in)
{
	struct exofs_sb_info *sbi = in->sbi;
	struct exofs_intent_region *r;
	struct ore_components oc;
	unsigned int b;
	u64 off, end;
	int err;

	if (!sbi->csum_on)
		return 0;
	hash_for_each(in->hash, b, r, hash) {
		bool any = exofs_intent_region_range(in, r, &oc, &off, &end);

		err = exofs_intent_made(in, &oc);
		if (err < 0)
			pr_warn("%s: object 0x%llx: cannot make the components its record reaches: %d\n",
				sbi->sb->s_id, r->oid, err);
		if (err == -ENOMEM)
			return err;
		/* a free inode, a lost component, or nothing there */
		if (err == 1 || err == 2 || !any)
			continue;
		err = ore_restamp(&sbi->layout, &oc, off, end - off);
		if (err == -ENOMEM)
			return err;
		if (err)	/* its blocks may fail their checksums */
			pr_warn("%s: object 0x%llx: cannot restamp the region [%llu, %llu) named by the intent record: %d\n",
				sbi->sb->s_id, r->oid, off, end, err);
		cond_resched();
	}
	return 0;
}

/* The regions the records name, repaired; then the record written empty. */
static int exofs_intent_recover(struct exofs_intent *in, bool force)
{
	struct exofs_sb_info *sbi = in->sbi;
	struct exofs_intent_region *r;
	u64 found = 0;
	unsigned int b, failed = 0;
	unsigned long t0 = jiffies;
	int out, err;

	if (!in->nr)
		return 0;
	out = exofs_intent_out_of_service(sbi);
	if (out >= 0) {
		if (!force) {
			pr_err("%s: %u regions had writes in flight when the filesystem stopped, and store %d (%s) is not in service: their parity cannot be repaired and a rebuilt store could get wrong data there; mount with -o force to accept that\n",
			       sbi->sb->s_id, in->nr, out,
			       sbi->stores[out].path ? sbi->stores[out].path :
			       "missing");
			return -EUCLEAN;
		}
		pr_warn("%s: %u regions had writes in flight and store %d is not in service: not repaired (force)%s\n",
			sbi->sb->s_id, in->nr, out,
			sbi->csum_on ? ", their checksums restamped" : "");
		in->recovered = 0;
		return exofs_intent_restamp_all(in);
	}
	hash_for_each(in->hash, b, r, hash) {
		err = exofs_intent_repair(in, r, &found);
		if (err && err != -EIO)
			return err;
		if (err)
			failed++;
		cond_resched();
	}
	pr_info("%s: %u regions had writes in flight when the filesystem stopped: parity and mirrors repaired in %u ms (%llu pages differed%s)\n",
		sbi->sb->s_id, in->nr, jiffies_to_msecs(jiffies - t0),
		found, failed ? ", some regions could not be read" : "");
	in->recovered = in->nr;
	err = exofs_sync_stores(sbi);
	if (err)
		return err;
	exofs_intent_free_regions(in);
	in->gen++;
	return 0;
}

/* Read the record of every store in service and add its regions. */
static int exofs_intent_load(struct exofs_intent *in)
{
	struct exofs_sb_info *sbi = in->sbi;
	DECLARE_BITMAP(one, EXOFS_MAX_STORES);
	int err = 0, errs[EXOFS_MAX_STORES];
	void *buf;
	u32 i;

	buf = vmalloc(2 * EXOFS_INTENT_SLOT);
	if (!buf)
		return -ENOMEM;
	/* every store's: one that lost record writes names fewer regions */
	for (i = 0; i < sbi->num_stores && !err; i++) {
		if (sbi->stores[i].state != EXOFS_STORE_OK)
			continue;
		bitmap_zero(one, EXOFS_MAX_STORES);
		__set_bit(i, one);
		memset(buf, 0, 2 * EXOFS_INTENT_SLOT);
		err = exofs_intent_io(sbi, one, buf, 0, 2 * EXOFS_INTENT_SLOT,
				      false, errs);
		if (!err)
			err = exofs_intent_load_store(in, i, buf, errs[i]);
		if (err > 0)	/* a valid record: on to the next store */
			err = 0;
	}
	vfree(buf);
	return err;
}

/**
 * exofs_intent_mount - read the intent records and repair what they name
 * @sbi: the filesystem, stores scanned, layout and features loaded
 * @force: mount even when the regions cannot be repaired
 *
 * Does nothing without EXOFS_FEATURE_RO_COMPAT_INTENT. On a read-only
 * mount the repair runs too (as a journal replay does) and the record on
 * the stores stays as it is until a read-write mount; a read-write mount
 * then calls exofs_intent_start(). Process context.
 *
 * Return: 0, -EUCLEAN when regions need a repair that cannot be done and
 * @force is not given, or another error.
 */
int exofs_intent_mount(struct exofs_sb_info *sbi, bool force)
{
	struct exofs_intent *in;
	int err;

	if (!sbi->intent_on)
		return 0;
	in = kzalloc(sizeof(*in), GFP_KERNEL);
	if (!in)
		return -ENOMEM;
	in->sbi = sbi;
	mutex_init(&in->lock);
	hash_init(in->hash);
	INIT_LIST_HEAD(&in->waiters);
	init_waitqueue_head(&in->room);
	INIT_DELAYED_WORK(&in->work, exofs_intent_work);
	in->region = exofs_intent_region(sbi->layout.stripe_length);
	in->stopped = true;
	in->buf = vzalloc(EXOFS_INTENT_SLOT);
	in->wq = alloc_workqueue("exofs-intent", WQ_UNBOUND | WQ_MEM_RECLAIM,
				 1);
	err = in->buf && in->wq ? exofs_intent_load(in) : -ENOMEM;
	if (!err)
		err = exofs_intent_recover(in, force);
	if (err) {
		exofs_intent_free_regions(in);
		if (in->wq)
			destroy_workqueue(in->wq);
		vfree(in->buf);
		kfree(in);
		return err;
	}
	sbi->intent = in;
	return 0;
}

/**
 * exofs_intent_start - start the record of a read-write mount
 * @sbi: the filesystem
 *
 * Writes the record (empty after a repair) into both slots, which creates
 * the object on a store that has none, then lets writes record their
 * regions. Process context.
 *
 * Return: 0, or the error when no store took the record.
 */
int exofs_intent_start(struct exofs_sb_info *sbi)
{
	struct exofs_intent *in = sbi->intent;
	int err;

	if (!in)
		return 0;
	err = exofs_intent_write(in);
	if (!err)
		err = exofs_intent_write(in);
	if (err) {
		pr_err("%s: cannot write the intent record: %d\n",
		       sbi->sb->s_id, err);
		return err;
	}
	mutex_lock(&in->lock);
	in->next_clear = jiffies + EXOFS_INTENT_CLEAR_SECS * HZ;
	in->stopped = false;
	mutex_unlock(&in->lock);
	return 0;
}

/**
 * exofs_intent_stop - end the record (unmount, remount read-only)
 * @sbi: the filesystem, every write done and the stores flushed
 *
 * Writes the record empty: nothing needs a repair after a clean stop.
 * Process context.
 */
void exofs_intent_stop(struct exofs_sb_info *sbi)
{
	struct exofs_intent *in = sbi->intent;
	struct exofs_intent_region *r;
	struct hlist_node *tmp;
	unsigned int b, busy = 0;

	if (!in || in->stopped)
		return;
	mutex_lock(&in->lock);
	in->stopped = true;
	mutex_unlock(&in->lock);
	wake_up_all(&in->room);
	cancel_delayed_work_sync(&in->work);
	/* a waiter left (none should be) gets its record now */
	exofs_intent_write(in);
	exofs_intent_release(in);

	mutex_lock(&in->lock);
	hash_for_each_safe(in->hash, b, tmp, r, hash) {
		if (atomic_read(&r->inflight)) {
			busy++;
			continue;
		}
		hash_del(&r->hash);
		kfree(r);
		in->nr--;
	}
	in->gen++;
	mutex_unlock(&in->lock);
	if (busy)
		pr_warn("%s: %u regions still had writes at the stop (%u held by pNFS layouts never returned): kept in the intent record, repaired at the next mount\n",
			sbi->sb->s_id, busy, in->pinned);
	exofs_intent_write(in);
}

/**
 * exofs_intent_free - free the record's memory (unmount, after the stop)
 * @sbi: the filesystem
 */
void exofs_intent_free(struct exofs_sb_info *sbi)
{
	struct exofs_intent *in = sbi->intent;

	if (!in)
		return;
	sbi->intent = NULL;
	cancel_delayed_work_sync(&in->work);
	destroy_workqueue(in->wq);
	exofs_intent_free_regions(in);
	vfree(in->buf);
	kfree(in);
}

/**
 * exofs_intent_show - the intent file in sysfs
 * @sbi: the filesystem
 * @buf: PAGE_SIZE bytes
 *
 * Return: bytes written.
 */
ssize_t exofs_intent_show(struct exofs_sb_info *sbi, char *buf)
{
	struct exofs_intent *in = sbi->intent;
	u32 nr, pinned;

	if (!in)
		return sysfs_emit(buf, "policy %s\n",
				  sbi->intent_on ? "intent (not started)" :
				  "none");
	mutex_lock(&in->lock);
	nr = in->nr;
	pinned = in->pinned;
	mutex_unlock(&in->lock);
	return sysfs_emit(buf,
			  "policy intent regions %u region_bytes %llu records %lld cleared %lld recovered %llu pinned %u dropped %lld repaired %lld\n",
			  nr, in->region, atomic64_read(&in->records),
			  atomic64_read(&in->cleared), in->recovered, pinned,
			  atomic64_read(&sbi->pin_dropped),
			  atomic64_read(&sbi->pin_repaired));
}
