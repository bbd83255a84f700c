// SPDX-License-Identifier: GPL-2.0
/*
 * exofs stores: the superblock object of every store, and the records of
 * store failures in them; opening the stores at mount time.
 *
 * Mount reads the superblock object of every store, checks each against the
 * rules of docs/exofs-format.md (magic, version, checksum, fs UUID, store
 * position, device table, event counter), decides which stores are in
 * service and whether the layout's redundancy covers the others.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/fs.h>
#include <linux/fs_context.h>
#include <linux/statfs.h>
#include <linux/slab.h>
#include <linux/bitmap.h>
#include <linux/bvec.h>

#include "exofs.h"

/* ------------------------------------------------------------------ */
/* superblock objects */

static void exofs_sio_end(struct ore_store_io *sio)
{
	complete(sio->private);
}

/* Read or write (FUA) the superblock object of @store from/to @page. */
static int exofs_sb_io(struct ore_store *store, struct page *page, bool write)
{
	DECLARE_COMPLETION_ONSTACK(done);
	struct ore_store_io sio = {};
	struct bio_vec bv;

	bvec_set_page(&bv, page, EXOFS_SB_SIZE, 0);
	sio.store = store;
	sio.oid = EXOFS_SUPER_OID;
	sio.offset = 0;
	sio.len = EXOFS_SB_SIZE;
	sio.bvec = &bv;
	sio.nr_bvec = 1;
	sio.write = write;
	sio.fua = write;
	sio.no_csum = true;	/* CRCs of its own, rewritten in place */
	sio.end_io = exofs_sio_end;
	sio.private = &done;
	store->ops->submit(&sio);
	wait_for_completion(&done);
	return sio.error;
}

/**
 * exofs_read_sb - read the superblock object of @store into @page
 * @store: the store
 * @page: EXOFS_SB_SIZE bytes
 *
 * Return: 0 or the read's error.
 */
int exofs_read_sb(struct ore_store *store, struct page *page)
{
	return exofs_sb_io(store, page, false);
}

/* Is store @i written (in service, or a replacement being rebuilt)? */
static bool exofs_store_written(struct exofs_sb_info *sbi, u32 i)
{
	int st = READ_ONCE(sbi->stores[i].state);

	return st == EXOFS_STORE_OK || st == EXOFS_STORE_REBUILDING;
}

/*
 * The device table entry of store @i as its state says: in service, no
 * flag; rebuilding, FAILED and REBUILDING with the checkpoint; else FAILED.
 * Under sb_mutex.
 */
static void exofs_dev_entry_update(struct exofs_sb_info *sbi, u32 i)
{
	struct exofs_dev_entry *de = &exofs_devtable(sbi->sb_buf)[i];
	u32 flags = le32_to_cpu(de->flags) &
		    ~(EXOFS_DEV_FL_FAILED | EXOFS_DEV_FL_REBUILDING);
	u64 ckpt = 0;

	switch (READ_ONCE(sbi->stores[i].state)) {
	case EXOFS_STORE_OK:
		break;
	case EXOFS_STORE_REBUILDING:
		flags |= EXOFS_DEV_FL_FAILED | EXOFS_DEV_FL_REBUILDING;
		ckpt = sbi->rebuild_ckpt;
		break;
	default:
		flags |= EXOFS_DEV_FL_FAILED;
		break;
	}
	de->flags = cpu_to_le32(flags);
	de->rebuild_ino = cpu_to_le64(ckpt);
}

/*
 * Write the superblock to every store in service, with @state and (when
 * @counters) the inode counters, s_event one up; failed stores are flagged
 * in the device table (a store being rebuilt is written too, flagged
 * rebuilding). A store that cannot take it is failed, and the
 * others are written again so that they record it.
 *
 * Return: 0 when at least one store took the last copy, else the error.
 */
int exofs_write_supers(struct exofs_sb_info *sbi, u32 state,
		       bool counters)
{
	struct exofs_fsb *fsb = exofs_fsb(sbi->sb_buf);
	u64 next_ino = 0, used_inodes = 0;
	u32 i, written, round = 0;
	struct page *page;
	bool again;
	int err;

	page = alloc_page(GFP_NOFS);
	if (!page)
		return -ENOMEM;
	/*
	 * Not nested in sb_mutex: one holding alloc_mutex may wait for a
	 * write that exofs_sb_work() holds, and that needs sb_mutex.
	 */
	if (counters) {
		WRITE_ONCE(sbi->sb_dirty, false);
		mutex_lock(&sbi->alloc_mutex);
		next_ino = sbi->next_ino;
		used_inodes = sbi->used_inodes;
		mutex_unlock(&sbi->alloc_mutex);
	}
	mutex_lock(&sbi->sb_mutex);
	if (counters) {
		fsb->s_next_ino = cpu_to_le64(next_ino);
		fsb->s_used_inodes = cpu_to_le64(used_inodes);
	}
	fsb->s_state = cpu_to_le32(state);
	do {
		written = 0;
		again = false;
		err = 0;
		le64_add_cpu(&fsb->s_event, 1);
		fsb->s_write_time = cpu_to_le64(ktime_get_real_seconds());
		for (i = 0; i < sbi->num_stores; i++)
			exofs_dev_entry_update(sbi, i);

		for (i = 0; i < sbi->num_stores; i++) {
			struct exofs_fsb *out = page_address(page);
			int e;

			if (!exofs_store_written(sbi, i))
				continue;
			memcpy(out, sbi->sb_buf, EXOFS_SB_SIZE);
			exofs_sb_set_store(out, i);
			e = exofs_sb_io(sbi->ore_stores[i], page, true);
			if (e) {
				pr_err("%s: cannot write the superblock of store %u (%s): %d; store taken out of service\n",
				       sbi->sb->s_id, i, sbi->stores[i].path, e);
				exofs_store_failed(sbi, i);
				if (!err)
					err = e;
				again = true;
				continue;
			}
			written++;
		}
	} while (again && written && ++round < sbi->num_stores);
	mutex_unlock(&sbi->sb_mutex);
	__free_page(page);
	return written ? 0 : err;
}

/*
 * A store failed while mounted: record it on the others, then end the
 * writes that completed meanwhile (see exofs_hold_write()). A failure
 * that comes while the superblocks are written is recorded in one more
 * round before any write is let go.
 */
void exofs_sb_work(struct work_struct *work)
{
	struct exofs_sb_info *sbi = container_of(work, struct exofs_sb_info,
						 sb_work);
	struct list_head *node, *next;
	LIST_HEAD(done);
	int err = 0;
	u64 seq;

	for (;;) {
		spin_lock_irq(&sbi->fail_lock);
		seq = sbi->fail_seq;
		if (seq == sbi->fail_done) {
			spin_unlock_irq(&sbi->fail_lock);
			break;
		}
		spin_unlock_irq(&sbi->fail_lock);
		/* no counters: the record must not wait for alloc_mutex */
		err = sb_rdonly(sbi->sb) ? -EROFS :
		      exofs_write_supers(sbi, EXOFS_STATE_DIRTY, false);
		if (err)
			pr_err("%s: could not record a failed store on any superblock: %d; the writes that depend on it fail\n",
			       sbi->sb->s_id, err);
		spin_lock_irq(&sbi->fail_lock);
		if (sbi->fail_seq == seq) {
			sbi->fail_done = seq;
			sbi->fail_err = err;
			list_splice_init(&sbi->held, &done);
		}
		spin_unlock_irq(&sbi->fail_lock);
	}
	wake_up_all(&sbi->fail_wait);
	list_for_each_safe(node, next, &done) {
		list_del_init(node);
		exofs_held_write_done(node, err);
	}
}

/**
 * exofs_store_failed - take store @i out of service and have the
 *	superblocks of the others record it
 * @sbi: the filesystem
 * @i: the store's index
 *
 * Any context. The count of failures moves before the store is marked
 * failed in ORE, under &exofs_sb_info.fail_lock: a write that skips the
 * store (degraded) completes after it, so exofs_hold_write() holds it.
 *
 * Return: true when the store was in service (or being rebuilt) until now.
 */
bool exofs_store_failed(struct exofs_sb_info *sbi, u32 i)
{
	unsigned long flags;
	bool was_ok;

	spin_lock_irqsave(&sbi->fail_lock, flags);
	was_ok = exofs_store_written(sbi, i);
	if (was_ok) {
		sbi->fail_seq++;
		WRITE_ONCE(sbi->stores[i].state, EXOFS_STORE_FAILED);
		ore_store_set_state(sbi->ore_stores[i], ORE_STORE_FAILED);
	}
	spin_unlock_irqrestore(&sbi->fail_lock, flags);
	if (was_ok)
		schedule_work(&sbi->sb_work);
	return was_ok;
}

/**
 * exofs_hold_write - keep a completed write from ending until failures
 *	are recorded
 * @sbi: the filesystem
 * @node: the write's list entry (&exofs_wb.held)
 *
 * As md holds bios while MD_SB_CHANGE_PENDING: a write that completed
 * while a store is failed but the superblocks do not say so yet must not
 * be seen as done (its folios leaving writeback end fsync): after a crash
 * the failed store would come back in service with stale data. Called at
 * write completion, any context. exofs_sb_work() ends the held writes
 * through exofs_held_write_done().
 *
 * Return: true when @node was queued (the caller must not end the write).
 */
bool exofs_hold_write(struct exofs_sb_info *sbi, struct list_head *node)
{
	unsigned long flags;
	bool held = false;

	spin_lock_irqsave(&sbi->fail_lock, flags);
	if (sbi->fail_seq != sbi->fail_done) {
		list_add_tail(node, &sbi->held);
		held = true;
	}
	spin_unlock_irqrestore(&sbi->fail_lock, flags);
	return held;
}

static bool exofs_failures_recorded(struct exofs_sb_info *sbi, u64 seq)
{
	bool done;

	spin_lock_irq(&sbi->fail_lock);
	done = sbi->fail_done >= seq;
	spin_unlock_irq(&sbi->fail_lock);
	return done;
}

/**
 * exofs_wait_failures - wait until every store failed so far is recorded
 * @sbi: the filesystem
 *
 * Called by fsync and syncfs before they report success.
 *
 * Return: 0, or -EIO when the record could not be written.
 */
int exofs_wait_failures(struct exofs_sb_info *sbi)
{
	u64 seq;
	int err;

	spin_lock_irq(&sbi->fail_lock);
	seq = sbi->fail_seq;
	spin_unlock_irq(&sbi->fail_lock);
	wait_event(sbi->fail_wait, exofs_failures_recorded(sbi, seq));
	spin_lock_irq(&sbi->fail_lock);
	err = sbi->fail_err ? -EIO : 0;
	spin_unlock_irq(&sbi->fail_lock);
	return err;
}

/* Make everything written stable on every store in service. */
int exofs_sync_stores(struct exofs_sb_info *sbi)
{
	int err = 0;
	u32 i;

	for (i = 0; i < sbi->num_stores; i++) {
		struct ore_store *store = sbi->ore_stores[i];
		int e;

		if (!exofs_store_written(sbi, i))
			continue;
		e = store->ops->flush(store, 0);
		if (e) {
			pr_err("%s: flush of store %u (%s) failed: %d\n",
			       sbi->sb->s_id, i, sbi->stores[i].path, e);
			if (!err)
				err = e;
		}
	}
	return err;
}

/* ------------------------------------------------------------------ */
/* stores */

void exofs_put_stores(struct exofs_sb_info *sbi)
{
	struct exofs_retired *old, *next;
	u32 i;

	list_for_each_entry_safe(old, next, &sbi->retired, node) {
		list_del(&old->node);
		if (old->store)
			ore_store_put(old->store);
		kfree(old->path);
		kfree(old->opt);
		kfree(old);
	}
	if (!sbi->stores)
		return;
	for (i = 0; i < sbi->num_stores; i++) {
		ore_store_put(sbi->ore_stores[i]);
		kfree(sbi->stores[i].path);
	}
	kfree(sbi->ore_stores);
	kfree(sbi->stores);
	sbi->stores = NULL;
	sbi->ore_stores = NULL;
}

/*
 * Split "PATH:PATH:..." into sbi->stores; "" and "missing" name an absent
 * store.
 */
int exofs_parse_stores(struct exofs_sb_info *sbi, const char *list,
		       struct fs_context *fc)
{
	const char *p;
	u32 n = 1, i;
	char *s, *dup, *tok;

	for (p = list; *p; p++)
		n += *p == ':';
	if (n > EXOFS_MAX_STORES)
		return invalfc(fc, "stores: %u stores given, at most %u", n,
			       EXOFS_MAX_STORES);
	sbi->stores = kcalloc(n, sizeof(*sbi->stores), GFP_KERNEL);
	sbi->ore_stores = kcalloc(n, sizeof(*sbi->ore_stores), GFP_KERNEL);
	dup = kstrdup(list, GFP_KERNEL);
	if (!sbi->stores || !sbi->ore_stores || !dup) {
		kfree(dup);
		return -ENOMEM;
	}
	sbi->num_stores = n;
	s = dup;
	for (i = 0; i < n; i++) {
		tok = strsep(&s, ":");
		if (!*tok || !strcmp(tok, "missing"))
			continue;
		sbi->stores[i].path = kstrdup(tok, GFP_KERNEL);
		if (!sbi->stores[i].path) {
			kfree(dup);
			return -ENOMEM;
		}
	}
	kfree(dup);
	return 0;
}

/* ------------------------------------------------------------------ */
/* opening the stores */

/*
 * Stage 1 of the scan: open store @i, read its superblock into @page and
 * check it on its own. Leaves the store MISSING (absent, unreadable, blank),
 * CORRUPT (a superblock that fails its checks) or OK with its event count.
 *
 * Return: 0, or -ENOMEM; every store-level problem is a state, not an error.
 */
static int exofs_read_store_sb(struct exofs_sb_info *sbi, u32 i,
			       struct page **page)
{
	struct exofs_store *st = &sbi->stores[i];
	struct ore_layout layout;
	struct ore_store *store;
	void *buf;
	int err;

	st->state = EXOFS_STORE_MISSING;
	if (!st->path) {
		pr_warn("store %u: given as missing\n", i);
		return 0;
	}
	store = ore_file_store_open(st->path);
	if (IS_ERR(store)) {
		pr_warn("store %u (%s): cannot open: %ld\n",
			i, st->path, PTR_ERR(store));
		return 0;
	}
	sbi->ore_stores[i] = store;
	*page = alloc_page(GFP_KERNEL);
	if (!*page)
		return -ENOMEM;
	err = exofs_sb_io(store, *page, false);
	if (err) {
		pr_warn("store %u (%s): cannot read the superblock: %d\n",
			i, st->path, err);
		return 0;
	}
	buf = page_address(*page);
	if (!memchr_inv(buf, 0, EXOFS_SB_SIZE)) {
		pr_warn("store %u (%s): no exofs superblock\n", i, st->path);
		return 0;
	}
	if (!exofs_sb_replacement_check(buf, &st->why)) {
		pr_warn("store %u (%s): a replacement store made by mkfs.exofs --replace, not taken in yet: mount degraded without it, then write \"%u PATH\" to /sys/fs/exofs/<uuid>/replace\n",
			i, st->path, i);
		return 0;
	}
	if (exofs_sb_check(buf, &layout, &st->why)) {
		st->state = EXOFS_STORE_CORRUPT;
		pr_warn("store %u (%s): superblock is corrupt: %s\n",
			i, st->path, st->why);
		return 0;
	}
	st->state = EXOFS_STORE_OK;
	st->event = le64_to_cpu(exofs_fsb(buf)->s_event);
	return 0;
}

/*
 * A corrupt superblock that still names the right filesystem, index and store
 * UUID is the right store with a damaged superblock: it serves, with the
 * reference's copy (rewritten at a read-write mount).
 */
static void exofs_accept_damaged_sb(struct exofs_sb_info *sbi, u32 i,
				    struct exofs_fsb *f, u32 ref)
{
	struct exofs_store *st = &sbi->stores[i];
	struct exofs_fsb *rf = exofs_fsb(sbi->sb_buf);
	struct exofs_dev_entry *dt = exofs_devtable(sbi->sb_buf);
	u32 idx = le32_to_cpu(f->s_store_index);

	if (le64_to_cpu(f->s_magic) != EXOFS_SB_MAGIC ||
	    memcmp(f->s_uuid, rf->s_uuid, EXOFS_UUID_SIZE) ||
	    idx != i || i >= le32_to_cpu(rf->s_num_stores) ||
	    memcmp(f->s_store_uuid, dt[i].uuid, EXOFS_UUID_SIZE))
		return;
	pr_warn("store %u (%s): damaged superblock (%s) of the right store: using the copy of store %u%s\n",
		i, st->path, st->why, ref,
		sb_rdonly(sbi->sb) ? "" : ", rewritten at mount");
	st->state = EXOFS_STORE_OK;
}

/*
 * Stage 2: the superblock of store @i (in @page) against the reference
 * sbi->sb_buf of store @ref. A store of another filesystem, in the wrong
 * place or disagreeing at the same event refuses the mount; an older event
 * makes the store STALE.
 */
static int exofs_match_store(struct exofs_sb_info *sbi, u32 i,
			     struct page *page, u32 ref, struct fs_context *fc)
{
	struct exofs_store *st = &sbi->stores[i];
	struct exofs_fsb *rf = exofs_fsb(sbi->sb_buf);
	struct exofs_dev_entry *dt = exofs_devtable(sbi->sb_buf);
	u64 ref_event = sbi->stores[ref].event;
	struct exofs_fsb *f;
	u32 idx;

	if (st->state == EXOFS_STORE_MISSING)
		return 0;
	f = exofs_fsb(page_address(page));
	if (st->state == EXOFS_STORE_CORRUPT) {
		exofs_accept_damaged_sb(sbi, i, f, ref);
		return 0;
	}
	idx = le32_to_cpu(f->s_store_index);
	if (memcmp(f->s_uuid, rf->s_uuid, EXOFS_UUID_SIZE))
		return invalfc(fc, "store %u (%s) belongs to filesystem %pU, not to %pU of store %u",
			       i, st->path, f->s_uuid, rf->s_uuid, ref);
	if (le32_to_cpu(f->s_num_stores) != sbi->num_stores)
		return invalfc(fc, "the filesystem has %u stores, %u given",
			       le32_to_cpu(f->s_num_stores), sbi->num_stores);
	if (idx != i)
		return invalfc(fc, "wrong store order: %s given as store %u is store %u of the filesystem",
			       st->path, i, idx);
	if (memcmp(f->s_store_uuid, dt[i].uuid, EXOFS_UUID_SIZE))
		return invalfc(fc, "store %u (%s) has UUID %pU, the device table says %pU",
			       i, st->path, f->s_store_uuid, dt[i].uuid);
	if (st->event == ref_event &&
	    !exofs_sb_same(page_address(page), sbi->sb_buf))
		return invalfc(fc, "superblocks of stores %u and %u disagree at event %llu",
			       i, ref, st->event);
	if (st->event + 1 < ref_event) {
		pr_warn("store %u (%s) is stale: event %llu, store %u has %llu\n",
			i, st->path, st->event, ref, ref_event);
		st->state = EXOFS_STORE_STALE;
	}
	return 0;
}

/*
 * Stage 3: with the failed stores in @failed (@nfailed of them, of which
 * @nrebuilding are replacements being rebuilt), refuse a mount the layout
 * cannot serve, or mount degraded (read-only) when asked; every failed
 * store gets a backend that fails its I/O. A store being rebuilt counts as
 * failed for what the layout can lose, but it is written and needs no
 * degraded mount: its rebuild goes on (exofs_rebuild_resume()).
 */
static int exofs_degrade(struct exofs_sb_info *sbi, unsigned long *failed,
			 u32 nfailed, u32 nrebuilding, struct fs_context *fc)
{
	u32 n = sbi->num_stores, i;

	if (!nfailed)
		return 0;
	/* objects start on every store: every rotation must survive */
	if (!ore_layout_survives_any_dev(&sbi->layout, failed, n))
		return invalfc(fc, "%u of %u stores failed; the layout (raid %u, %u copies) cannot lose them",
			       nfailed, n, sbi->layout.raid_algorithm,
			       sbi->layout.mirrors_p1);
	for (i = 0; i < n; i++)
		if (sbi->stores[i].state == EXOFS_STORE_REBUILDING)
			ore_store_set_state(sbi->ore_stores[i],
					    ORE_STORE_REBUILDING);
	if (nfailed == nrebuilding)
		return 0;
	if (!sbi->opt_degraded)
		return invalfc(fc, "%u of %u stores failed (see above); mount with -o degraded to mount read-only",
			       nfailed, n);
	sbi->degraded = true;
	pr_warn("%u of %u stores failed: mounting degraded, read-only\n",
		nfailed, n);
	for (i = 0; i < n; i++) {
		char name[24];
		struct ore_store *store;

		if (!test_bit(i, failed) ||
		    sbi->stores[i].state == EXOFS_STORE_REBUILDING)
			continue;
		if (sbi->ore_stores[i]) {
			ore_store_set_state(sbi->ore_stores[i],
					    ORE_STORE_FAILED);
			continue;
		}
		snprintf(name, sizeof(name), "missing-%u", i);
		store = ore_missing_store_create(name);
		if (IS_ERR(store))
			return PTR_ERR(store);
		sbi->ore_stores[i] = store;
	}
	return 0;
}

/*
 * Open every store, read and check its superblock, pick the reference (the
 * highest event) and decide each store's state. On success sbi->sb_buf holds
 * the reference and sbi->layout its layout.
 */
int exofs_scan_stores(struct exofs_sb_info *sbi, struct fs_context *fc)
{
	u32 n = sbi->num_stores, i, ref = U32_MAX, nfailed = 0, nrebuilding = 0;
	struct exofs_dev_entry *dt;
	unsigned long *failed;
	struct page **pages;
	const char *why;
	int err = 0;

	pages = kcalloc(n, sizeof(*pages), GFP_KERNEL);
	failed = bitmap_zalloc(n, GFP_KERNEL);
	if (!pages || !failed) {
		err = -ENOMEM;
		goto out;
	}
	for (i = 0; i < n; i++) {
		err = exofs_read_store_sb(sbi, i, &pages[i]);
		if (err)
			goto out;
		if (sbi->stores[i].state == EXOFS_STORE_OK &&
		    (ref == U32_MAX ||
		     sbi->stores[i].event > sbi->stores[ref].event))
			ref = i;
	}
	if (ref == U32_MAX) {
		err = invalfc(fc, "no valid exofs superblock on any of the %u stores",
			      n);
		goto out;
	}
	memcpy(sbi->sb_buf, page_address(pages[ref]), EXOFS_SB_SIZE);
	for (i = 0; i < n; i++) {
		err = exofs_match_store(sbi, i, pages[i], ref, fc);
		if (err)
			goto out;
	}
	if (le32_to_cpu(exofs_fsb(sbi->sb_buf)->s_num_stores) != n) {
		err = invalfc(fc, "the filesystem has %u stores, %u given",
			      le32_to_cpu(exofs_fsb(sbi->sb_buf)->s_num_stores),
			      n);
		goto out;
	}
	dt = exofs_devtable(sbi->sb_buf);
	for (i = 0; i < n; i++) {
		struct exofs_store *st = &sbi->stores[i];
		u32 fl = le32_to_cpu(dt[i].flags);

		if (st->state == EXOFS_STORE_OK &&
		    (fl & EXOFS_DEV_FL_REBUILDING)) {
			/* a replacement: its rebuild goes on after mount */
			st->state = EXOFS_STORE_REBUILDING;
			sbi->rebuild_ckpt = le64_to_cpu(dt[i].rebuild_ino);
			pr_warn("store %u (%s) was being rebuilt (checkpoint at inode %llu): not read until rebuilt\n",
				i, st->path, sbi->rebuild_ckpt);
			__set_bit(i, failed);
			nfailed++;
			nrebuilding++;
			continue;
		}
		if (st->state == EXOFS_STORE_OK &&
		    (fl & EXOFS_DEV_FL_FAILED)) {
			pr_warn("store %u (%s) was taken out of service while mounted: stale\n",
				i, st->path);
			st->state = EXOFS_STORE_STALE;
		}
		if (st->state != EXOFS_STORE_OK) {
			__set_bit(i, failed);
			nfailed++;
		}
	}
	/* the layout of the reference, checked in stage 1 */
	exofs_sb_check(sbi->sb_buf, &sbi->layout, &why);
	err = exofs_degrade(sbi, failed, nfailed, nrebuilding, fc);
out:
	if (pages)
		for (i = 0; i < n; i++)
			if (pages[i])
				__free_page(pages[i]);
	kfree(pages);
	bitmap_free(failed);
	return err;
}

/* ------------------------------------------------------------------ */
/* space */

/*
 * Bytes of all stores (those not in service counted as the average of the
 * others): total, free, available to unprivileged users.
 */
void exofs_stores_space(struct exofs_sb_info *sbi, u64 *total,
			u64 *free, u64 *avail)
{
	u32 i, present = 0;

	*total = *free = *avail = 0;
	for (i = 0; i < sbi->num_stores; i++) {
		struct kstatfs st;

		if (READ_ONCE(sbi->stores[i].state) != EXOFS_STORE_OK ||
		    ore_store_statfs(sbi->ore_stores[i], &st))
			continue;
		*total += st.f_blocks * st.f_bsize;
		*free += st.f_bfree * st.f_bsize;
		*avail += st.f_bavail * st.f_bsize;
		present++;
	}
	if (present && present < sbi->num_stores) {
		*total = div_u64(*total, present) * sbi->num_stores;
		*free = div_u64(*free, present) * sbi->num_stores;
		*avail = div_u64(*avail, present) * sbi->num_stores;
	}
}
