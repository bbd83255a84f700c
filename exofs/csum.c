// SPDX-License-Identifier: GPL-2.0
/*
 * exofs data checksums (EXOFS_FEATURE_RO_COMPAT_CSUM, docs/exofs-format.md
 * "Data checksums").
 *
 * The stores keep them: each file store is told to (ore_file_store_enable_csum())
 * before the first I/O of the mount, or of a replacement store, and then
 * stamps every component block exofs writes and verifies every block it
 * reads, in the side file of the object. The per-store objects
 * (superblock, intent record) carry CRCs of their own and are read and
 * written with &ore_store_io.no_csum.
 *
 * A read that meets a block failing its checksum gets the data rebuilt
 * from the redundancy by ORE, so the reader sees it right; the read cannot
 * rewrite it (it does not hold the stripes: writeback of the same object
 * may run). It queues a repair instead: on the mount's checksum workqueue,
 * under the inode lock and with the object's writeback kept out, as a
 * scrub step (exofs_scrub_inode()), the stripes of the read are scrubbed
 * in check mode, which rewrites every block failing its checksum from the
 * redundancy (ore_scrub()) and counts it on its store. A block that
 * failed only because a write of it raced the read is found right then,
 * and left alone.
 *
 * Crash consistency: a block and its entry reach the disk in no particular
 * order. The intent record names every region with writes in flight, and
 * the mount's repair restamps them (ORE_SCRUB_RESTAMP) before it repairs
 * their parity: after a crash a block is old or new, its entry matching.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/fs.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#include "exofs.h"

/**
 * struct exofs_csum_fix - the repair of one read's stripes
 * @work: on &exofs_sb_info.csum_wq
 * @sb: the filesystem
 * @ino: the inode read, looked up again by the work (the read holds no
 *	reference: the inode may be on its way out meanwhile)
 * @offset: logical byte offset of the read
 * @length: its bytes
 * @errors: component reads that failed their checksum
 */
struct exofs_csum_fix {
	struct work_struct work;
	struct super_block *sb;
	unsigned long ino;
	u64 offset;
	u64 length;
	u32 errors;
};

/**
 * exofs_csum_enable_store - make @store keep checksums of its data
 * @sbi: the filesystem, with EXOFS_FEATURE_RO_COMPAT_CSUM
 * @store: one of its stores (a file store), before its first I/O
 *
 * Return: 0 or the error of ore_file_store_enable_csum().
 */
int exofs_csum_enable_store(struct exofs_sb_info *sbi, struct ore_store *store)
{
	int err;

	if (!sbi->csum_on)
		return 0;
	err = ore_file_store_enable_csum(store, sbi->csum_type);
	if (!err && sbi->csum_side)
		err = ore_file_store_no_heads(store);
	return err;
}

/**
 * exofs_csum_start - turn checksums on for the mount
 * @sbi: the filesystem, its stores open, before any I/O through ORE
 * @ro_compat: the superblock's read-only compatible features
 * @type: its s_csum_type (checked by exofs_sb_check())
 *
 * Return: 0, -EINVAL for a checksummed filesystem whose intent record is
 * off (a layout without redundancy: mkfs.exofs never makes one), -ENOMEM.
 */
int exofs_csum_start(struct exofs_sb_info *sbi, u32 ro_compat, u32 type)
{
	int err;
	u32 i;

	sbi->csum_on = ro_compat & EXOFS_FEATURE_RO_COMPAT_CSUM;
	if (!sbi->csum_on)
		return 0;
	sbi->csum_type = type;
	sbi->csum_side = ro_compat & EXOFS_FEATURE_RO_COMPAT_CSUM_SIDE;
	if (!sbi->intent_on) {
		pr_err("%s: data checksums without the intent record: a crash could leave checksums that do not match their data\n",
		       sbi->sb->s_id);
		return -EINVAL;
	}
	spin_lock_init(&sbi->csum_lock);
	sbi->csum_wq = alloc_workqueue("exofs-csum", WQ_UNBOUND, 1);
	if (!sbi->csum_wq)
		return -ENOMEM;
	/* every store that may serve: in service, rebuilding, damaged sb */
	for (i = 0; i < sbi->num_stores; i++) {
		if (sbi->stores[i].state == EXOFS_STORE_MISSING ||
		    !sbi->ore_stores[i])
			continue;
		err = exofs_csum_enable_store(sbi, sbi->ore_stores[i]);
		if (err)
			return err;
	}
	return 0;
}

/**
 * exofs_csum_pause - no more repairs, and wait for those queued
 * @sbi: the filesystem, at remount read-only (before the intent record
 *	stops: a repair writes) or unmount
 *
 * exofs_csum_resume() lets them run again (remount read-write).
 */
void exofs_csum_pause(struct exofs_sb_info *sbi)
{
	if (!sbi->csum_wq)
		return;
	spin_lock_irq(&sbi->csum_lock);
	sbi->csum_fix_off = true;
	spin_unlock_irq(&sbi->csum_lock);
	flush_workqueue(sbi->csum_wq);
}

/**
 * exofs_csum_resume - repairs run again after exofs_csum_pause()
 * @sbi: the filesystem, read-write again
 */
void exofs_csum_resume(struct exofs_sb_info *sbi)
{
	if (!sbi->csum_wq)
		return;
	spin_lock_irq(&sbi->csum_lock);
	sbi->csum_fix_off = false;
	spin_unlock_irq(&sbi->csum_lock);
}

/**
 * exofs_csum_stop - end the repairs for good
 * @sbi: the filesystem, before its inodes are evicted at unmount
 */
void exofs_csum_stop(struct exofs_sb_info *sbi)
{
	if (sbi->csum_wq) {
		exofs_csum_pause(sbi);
		destroy_workqueue(sbi->csum_wq);
		sbi->csum_wq = NULL;
	}
}

static void exofs_csum_fix_work(struct work_struct *work)
{
	struct exofs_csum_fix *fix = container_of(work, struct exofs_csum_fix,
						  work);
	struct super_block *sb = fix->sb;
	struct exofs_sb_info *sbi = exofs_sb(sb);
	const struct ore_layout *l = &sbi->layout;
	struct exofs_i_info *oi;
	struct inode *inode;
	u64 off, end, found;
	bool dropped = false;
	int err = 0;

	/* every exofs inode is hashed, the internal ones too; gone: done */
	inode = ilookup(sb, fix->ino);
	if (!inode) {
		kfree(fix);
		return;
	}
	oi = exofs_i(inode);
	off = rounddown(fix->offset, l->stripe_length);
	end = roundup(fix->offset + fix->length, l->stripe_length);
	inode_lock(inode);
	/* a pNFS client holding a layout writes the stores: none meanwhile */
	if (S_ISREG(inode->i_mode))
		err = exofs_break_layouts(inode, &dropped);
	if (!err && (READ_ONCE(sbi->csum_fix_off) || sb_rdonly(sb) ||
		     sbi->degraded))
		err = -EROFS;
	if (!err)
		err = exofs_scrub_range(inode, off, end, 0, &found);
	inode_unlock(inode);
	if (err) {
		atomic64_add(fix->errors, &sbi->cnt.csum_unrepaired);
		pr_warn("%s: inode %lu (object 0x%llx): %u component reads in [%llu, %llu) failed their checksum and were read from the redundancy; they cannot be rewritten now: %d\n",
			sb->s_id, inode->i_ino, oi->oc.oid, fix->errors,
			fix->offset, fix->offset + fix->length, err);
	}
	iput(inode);
	kfree(fix);
}

/**
 * exofs_csum_repair - a read of @inode met data failing its checksum
 * @inode: the inode read
 * @ios: the read (or the write whose read-for-write it was), over, with
 *	@ios->csum_errors
 * @err: the I/O's result
 *
 * Queues the rewrite of the bad blocks from the redundancy (see the top of
 * this file), when the read could rebuild them (!@err). Any context.
 */
void exofs_csum_repair(struct inode *inode, const struct ore_io_state *ios,
		       int err)
{
	if (err)
		atomic64_add(ios->csum_errors,
			     &exofs_sb(inode->i_sb)->cnt.csum_unrepaired);
	else
		exofs_csum_repair_range(inode, ios->offset, ios->length,
					ios->csum_errors);
}

/**
 * exofs_csum_repair_range - rewrite from the redundancy what fails its
 *	checksum in a range of a file
 * @inode: the file (or directory)
 * @offset: the first byte of the range
 * @length: its bytes
 * @errors: the component reads there that failed their checksum (counted
 *	as unrepaired when the repair cannot run)
 *
 * Queues a scrub of the stripes of the range that rewrites the blocks
 * failing their checksum (see the top of this file), after the file's
 * pNFS layouts are recalled. Any context.
 */
void exofs_csum_repair_range(struct inode *inode, u64 offset, u64 length,
			     u32 errors)
{
	struct exofs_sb_info *sbi = exofs_sb(inode->i_sb);
	struct exofs_csum_fix *fix = NULL;
	unsigned long flags;
	bool queued = false;

	if (sbi->csum_wq)
		fix = kzalloc(sizeof(*fix), GFP_ATOMIC);
	if (fix) {
		INIT_WORK(&fix->work, exofs_csum_fix_work);
		fix->sb = inode->i_sb;
		fix->ino = inode->i_ino;
		fix->offset = offset;
		fix->length = length;
		fix->errors = errors;
		/* not once exofs_csum_pause() has flushed the queue */
		spin_lock_irqsave(&sbi->csum_lock, flags);
		if (!sbi->csum_fix_off)
			queued = queue_work(sbi->csum_wq, &fix->work);
		spin_unlock_irqrestore(&sbi->csum_lock, flags);
		if (queued)
			return;
		kfree(fix);
	}
	atomic64_add(errors, &sbi->cnt.csum_unrepaired);
}
EXPORT_SYMBOL_GPL(exofs_csum_repair_range);

/**
 * exofs_csum_counts - checksum errors or repairs of the mount, for sysfs
 * @sbi: the filesystem
 * @repairs: repairs (else errors)
 *
 * Errors are the blocks found failing their checksum, by the repairs of
 * reads and by scrub, on the stores, and the reads whose blocks could not
 * be rewritten (read-only, degraded); repairs, those rewritten.
 *
 * Return: the count.
 */
u64 exofs_csum_counts(struct exofs_sb_info *sbi, bool repairs)
{
	u64 n = repairs ? 0 : atomic64_read(&sbi->cnt.csum_unrepaired);
	u32 i;

	for (i = 0; i < sbi->num_stores; i++) {
		struct ore_store *store = sbi->ore_stores[i];

		if (!store)
			continue;
		n += atomic_read(repairs ? &store->nr_csum_repairs :
				 &store->nr_csum_errors);
	}
	return n;
}
