// SPDX-License-Identifier: GPL-2.0
/*
 * oreblk's dirty state (md's "dirty" array, its in_sync and resync_offset).
 *
 * A write of a redundant array reaches its members one after the other: a
 * crash in the middle leaves the stripe's parity (or a mirror) behind its
 * data, and nothing on disk says which stripes. So, as md does, the member
 * superblocks say whether the array may be in that state:
 *  - before the first write after assembly (or after the superblocks last
 *    said clean), the superblocks of the members in service are rewritten
 *    with OREBLK_SB_ST_DIRTY and resync_offset 0 (FUA; the events counter
 *    stays, as no member changes: oreblk_write_sbs_state()); the
 *    writes wait for it (held on @dirty_held, started by @dirty_work);
 *  - a clean stop (every write over, the members' caches flushed) writes
 *    them clean again, or, when a resync was stopped half way, dirty from
 *    where it stopped;
 *  - an assembly that finds them dirty resyncs the array in the background
 *    (recover.c: a repair of every stripe from resync_offset on, the array
 *    usable meanwhile), and refuses to start it when it is also degraded
 *    (unless forced): the parity of a stripe being written at the crash
 *    may be stale, and what a missing member's data is rebuilt from it
 *    would be wrong (the RAID5 write hole).
 * The superblocks stay dirty while the array runs: there is no idle delay
 * after which they go clean (md's safe_mode_delay). A crash of an array
 * that was only read leaves it clean.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/blkdev.h>

#include "internal.h"

/* Write the superblocks dirty, then start the writes held meanwhile. */
static void oreblk_dirty_work(struct work_struct *work)
{
	struct oreblk_array *arr = container_of(work, struct oreblk_array,
						dirty_work);
	struct oreblk_cmd *cmd, *next;
	LIST_HEAD(held);

	mutex_lock(&arr->sb_mutex);
	arr->sb_dirty = true;
	arr->sb_resync_offset = 0;
	oreblk_write_sbs_state(arr);
	mutex_unlock(&arr->sb_mutex);

	spin_lock_irq(&arr->dirty_lock);
	/* seen without the lock by oreblk_dirty_hold(): after the writes */
	smp_store_release(&arr->dirty_state, OREBLK_DIRTY_ON);
	list_splice_init(&arr->dirty_held, &held);
	spin_unlock_irq(&arr->dirty_lock);
	list_for_each_entry_safe(cmd, next, &held, held) {
		list_del_init(&cmd->held);
		oreblk_cmd_dispatch(cmd);
	}
}

/**
 * oreblk_dirty_init - the dirty state of an array being assembled
 * @arr: the array, @arr->sb_dirty and @arr->sb_resync_offset as its
 *	superblocks say
 *
 * Writes go at once when the superblocks say dirty from 0 already, or for
 * a layout without redundancy (nothing to get out of step).
 */
void oreblk_dirty_init(struct oreblk_array *arr)
{
	spin_lock_init(&arr->dirty_lock);
	INIT_LIST_HEAD(&arr->dirty_held);
	INIT_WORK(&arr->dirty_work, oreblk_dirty_work);
	arr->dirty_state = OREBLK_DIRTY_CLEAN;
	if (!arr->redundant || (arr->sb_dirty && !arr->sb_resync_offset))
		arr->dirty_state = OREBLK_DIRTY_ON;
}

/**
 * oreblk_dirty_hold - keep a write from starting before the superblocks
 *	say the array is dirty
 * @arr: the array
 * @cmd: a write command, not started
 *
 * Any context (->submit_bio). The first write finds the superblocks clean
 * and has them written from oreblk_wq; that work starts the held writes
 * (oreblk_cmd_dispatch()) once they are on disk.
 *
 * Return: true when @cmd was held, false when it may start now.
 */
bool oreblk_dirty_hold(struct oreblk_array *arr, struct oreblk_cmd *cmd)
{
	unsigned long flags;
	bool hold = true;

	/* pairs with the release in oreblk_dirty_work() */
	if (likely(smp_load_acquire(&arr->dirty_state) == OREBLK_DIRTY_ON))
		return false;
	spin_lock_irqsave(&arr->dirty_lock, flags);
	switch (arr->dirty_state) {
	case OREBLK_DIRTY_ON:
		hold = false;
		break;
	case OREBLK_DIRTY_CLEAN:
		arr->dirty_state = OREBLK_DIRTY_MARKING;
		queue_work(oreblk_wq, &arr->dirty_work);
		fallthrough;
	default:
		list_add_tail(&cmd->held, &arr->dirty_held);
	}
	spin_unlock_irqrestore(&arr->dirty_lock, flags);
	return hold;
}

/**
 * oreblk_dirty_clean_stop - record a clean stop in the superblocks
 * @arr: the array; its disk gone (no I/O), its sync thread stopped
 *
 * Unless they say so already, the members' caches are flushed and the
 * superblocks written clean, or dirty from where an unfinished resync
 * stopped. A flush that fails leaves them as they are (dirty).
 */
void oreblk_dirty_clean_stop(struct oreblk_array *arr)
{
	bool dirty;
	u64 off;
	int err;

	if (!arr->redundant)
		return;
	flush_work(&arr->dirty_work);
	mutex_lock(&arr->sb_mutex);
	dirty = arr->resync_pending;
	off = dirty ? arr->resync_pos : 0;
	if (arr->sb_dirty == dirty && arr->sb_resync_offset == off)
		goto out;
	err = ore_flush(&arr->layout, &arr->oc);
	if (err) {
		pr_err("oreblk%d: member cache flush failed at stop: %d; the superblocks stay dirty\n",
		       arr->index, err);
		goto out;
	}
	err = oreblk_intent_clean(arr);
	if (err) {
		pr_err("oreblk%d: write-intent bitmap not written at stop: %d; the superblocks stay dirty\n",
		       arr->index, err);
		goto out;
	}
	arr->sb_dirty = dirty;
	arr->sb_resync_offset = off;
	oreblk_write_sbs_state(arr);
	if (dirty)
		pr_info("oreblk%d: stopped with its resync unfinished: it goes on from array offset %llu at the next assembly\n",
			arr->index, off);
out:
	mutex_unlock(&arr->sb_mutex);
}
