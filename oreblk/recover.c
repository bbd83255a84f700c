// SPDX-License-Identifier: GPL-2.0
/*
 * oreblk's sync thread, oreblkN_sync, one at a time per array (md's words
 * for what it does, sysfs sync_action):
 *  - recover: a new device takes the place of a member that is out of
 *    service (OREBLK_CTL_ADD, `oreblk add`), and the thread rebuilds the
 *    member's data onto it from the others while the array serves I/O;
 *  - check, repair: it walks the array's stripes in order, a few at a time
 *    under their stripe locks, and compares (and rewrites) their mirrors
 *    and parity with ore_scrub(), counting the pages that disagree;
 *  - resync: a repair started by assembly when the superblocks say the
 *    array was not stopped cleanly (dirty.c), from where a stopped resync
 *    left off.
 * Each step is paced: while user I/O is active (a bio submitted in the
 * last OREBLK_SYNC_IDLE_MS) the thread runs at sync_speed_min, otherwise
 * at up to sync_speed_max.
 *
 * The rebuild of a member:
 *
 * The new member's store is ORE_STORE_REBUILDING from the start: every
 * write reaches it, reads use it only below its recovery offset. The thread
 * walks the member's rows in object order (ore_layout_comp_stripes()), a
 * few stripes at a time: it takes their stripe locks (no user write of
 * those stripes runs meanwhile), rebuilds them (ore_rebuild(): read with
 * the redundancy, written to the new member only), releases the locks and
 * raises the recovery offset. Steps overlap (up to OREBLK_RECOVER_DEPTH
 * at once, each in oreblk_sync_wq, their pages within OREBLK_RECOVER_MEM):
 * while they read and write, the thread locks the stripes of the next;
 * the recovery offset rises over the steps that are over, in order. With
 * one step at a time a rebuild lost to md's under user reads (md keeps
 * many stripes of its resync in flight); 4 steps of 1 MiB beat it, 2 of
 * 1 MiB or 4 of 512 KiB were level (docs/performance.md). At the end the
 * member is flushed, becomes in sync, and the superblocks say so (its
 * faulty bit is cleared, events raised).
 *
 * Until then the superblocks keep the member marked faulty, and the
 * member's own superblock says it is being rebuilt and how far
 * (OREBLK_SB_FL_RECOVERING, recovery_offset: a checkpoint every
 * OREBLK_RECOVER_CHECKPOINT bytes, after a flush of the member). After a
 * stop or a crash, assembly takes the member back as rebuilding from that
 * offset and the thread goes on from there (oreblk_recovery_resume()).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/blkdev.h>
#include <linux/kthread.h>
#include <linux/random.h>
#include <linux/slab.h>

#include "internal.h"

/* Bytes rebuilt per step (at least one stripe). */
#define OREBLK_RECOVER_STEP	SZ_1M
/* Bytes of the member rebuilt between two checkpoints in the superblocks. */
#define OREBLK_RECOVER_CHECKPOINT	SZ_8M

/* Stripes (of the array) scrubbed per step, at most. */
#define OREBLK_SCRUB_STEP	SZ_1M

const char *oreblk_sync_action_name(enum oreblk_sync_action action)
{
	switch (action) {
	case OREBLK_SYNC_RESYNC:
		return "resync";
	case OREBLK_SYNC_RECOVER:
	case OREBLK_SYNC_REPLACE:	/* md says recover for both */
		return "recover";
	case OREBLK_SYNC_CHECK:
		return "check";
	case OREBLK_SYNC_REPAIR:
		return "repair";
	default:
		return "idle";
	}
}

static void oreblk_recover_handover(struct work_struct *work)
{
	struct oreblk_sync_step *step = container_of(work,
						     struct oreblk_sync_step,
						     piece.work);

	complete(&step->handover);
}

/* Take the stripe locks of [@first, @first + @n): waits for their holders. */
static void oreblk_recover_lock(struct oreblk_array *arr,
				struct oreblk_sync_step *step, u64 first, u64 n)
{
	struct oreblk_piece *piece = &step->piece;

	piece->first_stripe = first;
	piece->last_stripe = first + n - 1;
	piece->next_stripe = first;
	while (!oreblk_lock_stripes(&arr->locks, piece)) {
		wait_for_completion(&step->handover);
		reinit_completion(&step->handover);
	}
}

/*
 * Lock for @step the stripes that hold the member's next rows from data
 * offset @from (at most @rc->max_rows, within the data range); sets the
 * step's offsets and rows.
 */
static void oreblk_member_rows_lock(struct oreblk_array *arr,
				    struct oreblk_recovery *rc,
				    struct oreblk_sync_step *step, u64 from)
{
	const struct ore_layout *l = &arr->layout;

	step->from = from;
	step->loff = ore_layout_comp_stripes(l, rc->member, from,
					     min(rc->max_rows,
						 div64_u64(arr->data_size - from,
							   l->stripe_unit)),
					     &step->rows);
	oreblk_recover_lock(arr, step, div64_u64(step->loff, l->stripe_length),
			    step->rows);
}

static void oreblk_recover_dev_error(struct ore_io_state *ios, u32 comp,
				     struct ore_store *store, u64 offset,
				     int error)
{
	oreblk_store_failed(ios->private, comp, store, offset, error);
}

/* Has a bio been submitted to the disk in the last OREBLK_SYNC_IDLE_MS? */
static bool oreblk_user_active(struct oreblk_array *arr)
{
	return time_before(jiffies, READ_ONCE(arr->last_io) +
			   msecs_to_jiffies(OREBLK_SYNC_IDLE_MS));
}

/*
 * The pace of the sync thread: @rate KiB/s (0: no limit) since @start,
 * when @base bytes were done.
 */
struct oreblk_pace {
	unsigned long start;
	u64 base;
	unsigned int rate;
};

static void oreblk_pace_init(struct oreblk_pace *p, u64 done)
{
	p->start = jiffies;
	p->base = done;
	p->rate = 0;
}

/*
 * After a step: record the progress for sysfs, then sleep as long as
 * @done bytes are ahead of the rate: sync_speed_min while user I/O is
 * active (and it is the lower), else sync_speed_max. The rate is looked
 * at again every 100 ms of sleep, so that the thread speeds up as soon as
 * the user I/O stops. A new rate counts from now. kthread_stop() wakes it.
 */
static void oreblk_sync_step_done(struct oreblk_array *arr,
				  struct oreblk_pace *p, u64 done)
{
	unsigned long now = jiffies;

	WRITE_ONCE(arr->sync_done, done);
	if (time_after(now, arr->sync_mark[1].time +
		       msecs_to_jiffies(OREBLK_SYNC_MARK_MS))) {
		WRITE_ONCE(arr->sync_mark[0].time, arr->sync_mark[1].time);
		WRITE_ONCE(arr->sync_mark[0].done, arr->sync_mark[1].done);
		WRITE_ONCE(arr->sync_mark[1].time, now);
		WRITE_ONCE(arr->sync_mark[1].done, done);
	}
	while (!kthread_should_stop()) {
		unsigned int max = READ_ONCE(arr->sync_speed_max);
		unsigned int min = READ_ONCE(arr->sync_speed_min);
		unsigned int rate = max;
		unsigned long due;

		if (min && (!max || min < max) && oreblk_user_active(arr))
			rate = min;
		if (rate != p->rate) {
			p->rate = rate;
			p->start = jiffies;
			p->base = done;
		}
		if (!rate)
			break;
		due = p->start + msecs_to_jiffies(div64_u64((done - p->base) *
							    1000,
							    (u64)rate * 1024));
		if (!time_before(jiffies, due))
			break;
		set_current_state(TASK_INTERRUPTIBLE);
		if (!kthread_should_stop())
			schedule_timeout(min_t(unsigned long, due - jiffies,
					       msecs_to_jiffies(100)));
		__set_current_state(TASK_RUNNING);
	}
	cond_resched();
}

/*
 * Record in the superblocks how far the rebuild is, once what is below is
 * on stable storage: after a crash or a stop, it resumes there.
 */
static int oreblk_recover_checkpoint(struct oreblk_array *arr,
				     struct oreblk_recovery *rc,
				     struct ore_store *store)
{
	int err = store->ops->flush(store, 0);

	if (err)
		return err;
	mutex_lock(&arr->sb_mutex);
	arr->sync_checkpoint = rc->done;
	oreblk_write_sbs(arr);
	mutex_unlock(&arr->sb_mutex);
	return 0;
}

/* A rebuild step, from oreblk_sync_wq: rebuild its stripes, release them. */
static void oreblk_recover_step_work(struct work_struct *work)
{
	struct oreblk_sync_step *step = container_of(work,
						     struct oreblk_sync_step,
						     work);
	struct oreblk_array *arr = step->arr;
	const struct ore_layout *l = &arr->layout;
	int idx;

	idx = srcu_read_lock(&arr->store_srcu);
	step->err = ore_rebuild(l, &arr->oc, step->loff,
				step->rows * l->stripe_length,
				oreblk_recover_dev_error, arr);
	srcu_read_unlock(&arr->store_srcu, idx);
	oreblk_unlock_stripes(&arr->locks, &step->piece);
	complete(&step->done);
}

/*
 * Rebuild the member's rows from @rc->done on; 0 or the error that stopped
 * it. Up to @rc->depth steps run at once: while they read and write,
 * the thread locks the stripes of the next and starts it. The
 * recovery offset rises as the steps end, in order.
 */
static int oreblk_recover_run(struct oreblk_array *arr,
			      struct oreblk_recovery *rc)
{
	struct ore_store *store = arr->members[rc->member].store;
	u64 su = arr->layout.stripe_unit, next = rc->done;
	unsigned int head = 0, busy = 0;
	struct oreblk_sync_step *step;
	struct oreblk_pace pace;
	int err = 0;

	oreblk_pace_init(&pace, rc->done);
	while (rc->done < arr->data_size) {
		while (!err && busy < rc->depth &&
		       next < arr->data_size) {
			if (kthread_should_stop())
				err = -EINTR;
			else if (ore_store_failed(store))
				err = -EIO;
			if (err)
				break;
			step = &rc->steps[(head + busy) % rc->depth];
			oreblk_member_rows_lock(arr, rc, step, next);
			reinit_completion(&step->done);
			queue_work(oreblk_sync_wq, &step->work);
			next += step->rows * su;
			busy++;
		}
		if (!busy)
			break;
		step = &rc->steps[head];
		wait_for_completion(&step->done);
		head = (head + 1) % rc->depth;
		busy--;
		if (err)
			continue;	/* the steps in flight end first */
		err = step->err;
		/* the step wrote nothing to a member that failed meanwhile */
		if (!err && ore_store_failed(store))
			err = -EIO;
		if (err)
			continue;
		rc->done = step->from + step->rows * su;
		ore_store_set_recovery_offset(store, rc->done);
		if (rc->done - arr->sync_checkpoint >= OREBLK_RECOVER_CHECKPOINT) {
			err = oreblk_recover_checkpoint(arr, rc, store);
			if (err)
				continue;
		}
		oreblk_sync_step_done(arr, &pace, rc->done);
	}
	return err ?: store->ops->flush(store, 0);
}

/*
 * Check (or repair) the array's stripes from @rc->done on; 0 or the error
 * that stopped it. The pages that disagree are counted in @rc->mismatches
 * and in sysfs mismatch_cnt as it goes.
 */
static int oreblk_scrub_run(struct oreblk_array *arr,
			    struct oreblk_recovery *rc)
{
	const struct ore_layout *l = &arr->layout;
	bool repair = rc->action != OREBLK_SYNC_CHECK;
	u64 U = l->stripe_length, n;
	struct oreblk_pace pace;
	int err, idx;

	oreblk_pace_init(&pace, rc->done);
	while (rc->done < arr->array_size) {
		if (kthread_should_stop())
			return -EINTR;
		n = min(rc->max_rows, div64_u64(arr->array_size - rc->done, U));
		oreblk_recover_lock(arr, &rc->steps[0], div64_u64(rc->done, U),
				    n);
		idx = srcu_read_lock(&arr->store_srcu);
		err = ore_scrub(l, &arr->oc, rc->done, n * U, repair,
				&rc->mismatches, oreblk_recover_dev_error, arr);
		srcu_read_unlock(&arr->store_srcu, idx);
		oreblk_unlock_stripes(&arr->locks, &rc->steps[0].piece);
		WRITE_ONCE(arr->mismatches, rc->mismatches);
		if (err)
			return err;
		rc->done += n * U;
		oreblk_sync_step_done(arr, &pace, rc->done);
	}
	/* what was repaired is on stable storage before it counts as done */
	return repair ? ore_flush(l, &arr->oc) : 0;
}

static int oreblk_scrub_thread(struct oreblk_array *arr,
			       struct oreblk_recovery *rc)
{
	const char *name = oreblk_sync_action_name(rc->action);
	unsigned long start = jiffies;
	u64 from = rc->done;
	int err;

	pr_info("oreblk%d: %s started at array offset %llu (%llu bytes)\n",
		arr->index, name, from, arr->array_size);
	err = oreblk_scrub_run(arr, rc);
	mutex_lock(&arr->sb_mutex);
	if (!err) {
		/* a resync, or a repair of all of it: the array is in sync */
		if (rc->action == OREBLK_SYNC_RESYNC ||
		    (rc->action == OREBLK_SYNC_REPAIR && !from)) {
			arr->resync_pending = false;
			arr->resync_pos = 0;
		}
		pr_info("oreblk%d: %s done in %u s: %llu pages (%llu sectors) did not match\n",
			arr->index, name,
			jiffies_to_msecs(jiffies - start) / 1000,
			rc->mismatches, rc->mismatches << (PAGE_SHIFT - SECTOR_SHIFT));
	} else {
		if (rc->action == OREBLK_SYNC_RESYNC)
			arr->resync_pos = rc->done;
		if (err == -EINTR)
			pr_info("oreblk%d: %s stopped at array offset %llu (%llu pages did not match so far)\n",
				arr->index, name, rc->done, rc->mismatches);
		else
			pr_err("oreblk%d: %s failed at array offset %llu: %d\n",
			       arr->index, name, rc->done, err);
	}
	WRITE_ONCE(arr->sync_action, OREBLK_SYNC_IDLE);
	mutex_unlock(&arr->sb_mutex);
	return err;
}

static int oreblk_recover_thread(struct oreblk_array *arr,
				 struct oreblk_recovery *rc)
{
	struct oreblk_member *m = &arr->members[rc->member];
	unsigned long start = jiffies;
	int err;

	pr_info("oreblk%d: recovery of member %u onto %s started at data offset %llu (%llu bytes)\n",
		arr->index, rc->member, m->path, rc->done, arr->data_size);
	err = oreblk_recover_run(arr, rc);
	mutex_lock(&arr->sb_mutex);
	clear_bit(OREBLK_M_REBUILDING, &m->flags);
	if (!err && !test_bit(OREBLK_M_FAULTY, &m->flags)) {
		ore_store_set_state(m->store, ORE_STORE_IN_SYNC);
		atomic_dec(&arr->nr_failed);
		oreblk_write_sbs(arr);
		pr_info("oreblk%d: recovery of member %u (%s) done in %u s: in sync (events %llu)\n",
			arr->index, rc->member, m->path,
			jiffies_to_msecs(jiffies - start) / 1000, arr->events);
	} else {
		if (!test_and_set_bit(OREBLK_M_FAULTY, &m->flags))
			ore_store_set_state(m->store, ORE_STORE_FAILED);
		if (err == -EINTR)
			pr_info("oreblk%d: recovery of member %u (%s) stopped at data offset %llu: it resumes from %llu at the next assembly\n",
				arr->index, rc->member, m->path, rc->done,
				arr->sync_checkpoint);
		else
			pr_err("oreblk%d: recovery of member %u (%s) failed at data offset %llu: %d; the member stays faulty\n",
			       arr->index, rc->member, m->path, rc->done, err);
	}
	WRITE_ONCE(arr->sync_action, OREBLK_SYNC_IDLE);
	mutex_unlock(&arr->sb_mutex);
	return err;
}

/*
 * Rebuild what fails its checksum in the @len bytes of stripes at @loff
 * (held) from the redundancy, and rewrite it in place (through the
 * replacement store: on both devices). A scrub repair reads every
 * component, parity included; it cannot run on a degraded array, where a
 * read of the stripes through the engine heals what it reads (the data).
 */
static int oreblk_replace_heal(struct oreblk_array *arr,
			       struct oreblk_recovery *rc, u64 loff, u64 len)
{
	unsigned int i, n = len >> PAGE_SHIFT;
	struct ore_io_state *ios;
	struct page **pages;
	int err, ioerr;

	err = ore_scrub(&arr->layout, &arr->oc, loff, len, ORE_SCRUB_REPAIR,
			&rc->mismatches, oreblk_recover_dev_error, arr);
	if (err != -ENODEV)
		return err;
	pages = kvcalloc(n, sizeof(*pages), GFP_KERNEL);
	if (!pages)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		pages[i] = alloc_page(GFP_KERNEL);
		if (!pages[i]) {
			err = -ENOMEM;
			goto out;
		}
	}
	err = ore_get_rw_state(&arr->layout, &arr->oc, true, loff, len, &ios);
	if (err)
		goto out;
	ios->pages = pages;
	ios->nr_pages = n;
	ios->private = arr;
	ios->rewrite_bad = true;	/* the stripes are held */
	err = ore_read(ios);
	ioerr = ore_check_io(ios, oreblk_recover_dev_error);
	ore_put_io_state(ios);
	err = err ?: ioerr;
out:
	for (i = 0; i < n && pages[i]; i++)
		__free_page(pages[i]);
	kvfree(pages);
	return err;
}

/*
 * One step of a replace: copy @len bytes of the member's data range at
 * @off (the rows of the stripes locked from @loff on) from the old device
 * to the new one. Blocks that fail their checksum on the old device are
 * rebuilt from the redundancy first (oreblk_replace_heal()); if they
 * cannot be, the replace is given up (a block that fails its checksum is
 * never copied: the new device would take it as right). A read error of
 * the old device fails the member, as it would fail any I/O.
 */
static int oreblk_replace_step(struct oreblk_array *arr,
			       struct oreblk_recovery *rc, u64 loff, u64 rows,
			       u64 off, u64 len)
{
	const struct ore_layout *l = &arr->layout;
	u64 oid = arr->oc.oid;
	int err;

	err = ore_store_io_sync(rc->old_store, oid, off, len, rc->pages, false,
				false);
	if (err == -EBADMSG) {
		err = oreblk_replace_heal(arr, rc, loff,
					  rows * l->stripe_length);
		if (!err)
			err = ore_store_io_sync(rc->old_store, oid, off, len,
						rc->pages, false, false);
		if (err) {
			pr_err("oreblk%d: replace of member %u: %llu bytes at data offset %llu on %s fail their checksum and cannot be rebuilt: %d\n",
			       arr->index, rc->member, len, off, rc->old_path,
			       err);
			return err;
		}
	} else if (err) {
		pr_err("oreblk%d: replace of member %u: %llu bytes at data offset %llu unreadable on %s: %d\n",
		       arr->index, rc->member, len, off, rc->old_path, err);
		oreblk_member_failed(arr, rc->member, off, err);
		return err;
	}
	err = ore_store_io_sync(rc->new_store, oid, off, len, rc->pages, true,
				false);
	if (err)
		pr_err("oreblk%d: replace of member %u: write of %llu bytes at data offset %llu to %s failed: %d\n",
		       arr->index, rc->member, len, off, rc->new_path, err);
	return err;
}

/* Copy the member's rows from @rc->done on; 0 or the error that stopped it. */
static int oreblk_replace_run(struct oreblk_array *arr,
			      struct oreblk_recovery *rc)
{
	const struct ore_layout *l = &arr->layout;
	struct ore_store *rs = arr->members[rc->member].store;
	struct oreblk_sync_step *step = &rc->steps[0];
	u64 su = l->stripe_unit;
	struct oreblk_pace pace;
	int err, idx;

	oreblk_pace_init(&pace, rc->done);
	while (rc->done < arr->data_size) {
		if (kthread_should_stop())
			return -EINTR;
		if (ore_store_failed(rs))
			return -EIO;	/* the old member failed */
		err = ore_replace_store_error(rs);
		if (err)
			return err;
		oreblk_member_rows_lock(arr, rc, step, rc->done);
		idx = srcu_read_lock(&arr->store_srcu);
		err = oreblk_replace_step(arr, rc, step->loff, step->rows,
					  rc->done, step->rows * su);
		srcu_read_unlock(&arr->store_srcu, idx);
		oreblk_unlock_stripes(&arr->locks, &step->piece);
		if (err)
			return err;
		rc->done += step->rows * su;
		oreblk_sync_step_done(arr, &pace, rc->done);
	}
	err = rc->new_store->ops->flush(rc->new_store, 0);
	return err ?: ore_replace_store_error(rs);
}

/*
 * Erase the superblock of a device that stops being a member: assembly
 * and `oreblk assemble --scan` must not take it for one. Best effort (the
 * device may be failing: that is why it goes). Under sb_mutex.
 */
static void oreblk_replace_erase_sb(struct oreblk_array *arr,
				    struct file *file, const char *path)
{
	int err;

	memset(page_address(arr->sb_page), 0, PAGE_SIZE);
	err = oreblk_sb_write(file, arr->sb_page);
	if (err)
		pr_warn("oreblk%d: %s: cannot erase its superblock: %d\n",
			arr->index, path, err);
}

/*
 * The checksum counters of the replacement store (the engine counted the
 * member's errors and repairs there while the copy ran) go on in @to: the
 * member's counts do not fall back when its store changes.
 */
static void oreblk_replace_counts(struct ore_store *rs, struct ore_store *to)
{
	atomic_add(atomic_read(&rs->nr_csum_errors), &to->nr_csum_errors);
	atomic_add(atomic_read(&rs->nr_csum_repairs), &to->nr_csum_repairs);
}

/*
 * The copy is done: the new device takes the member's place, under a new
 * member uuid; the old device and the replacement store go (after a grace
 * period, oreblk_release_retired()). Under sb_mutex.
 */
static void oreblk_replace_finish(struct oreblk_array *arr,
				  struct oreblk_recovery *rc)
{
	struct oreblk_member *m = &arr->members[rc->member];
	struct ore_store *rs = m->store;
	struct file *old_file = m->sb_file;

	/* the replacement store keeps its own reference to the old store */
	ore_store_put(rc->old_store);
	rc->old_store = NULL;
	oreblk_replace_counts(rs, rc->new_store);
	oreblk_retire_store(arr, rs, old_file);
	if (arr->intent)
		mutex_lock(&arr->intent->io_mutex);
	m->store = rc->new_store;
	m->sb_file = rc->new_file;
	get_random_bytes(m->uuid, OREBLK_UUID_SIZE);
	strscpy(m->path, rc->new_path, sizeof(m->path));
	smp_wmb();	/* the store is whole before it is seen */
	WRITE_ONCE(arr->stores[rc->member], rc->new_store);
	if (arr->intent)
		mutex_unlock(&arr->intent->io_mutex);
	rc->new_store = NULL;
	rc->new_file = NULL;
	/* its bitmap says what the others say, then its superblock names it */
	if (arr->intent)
		oreblk_intent_rewrite(arr);
	oreblk_write_sbs(arr);
	oreblk_replace_erase_sb(arr, old_file, rc->old_path);
}

/*
 * The replace is given up: the old store is the member's again (failed if
 * the member failed meanwhile); the new device and the replacement store
 * go. Under sb_mutex.
 */
static void oreblk_replace_undo(struct oreblk_array *arr,
				struct oreblk_recovery *rc)
{
	struct oreblk_member *m = &arr->members[rc->member];
	struct ore_store *rs = m->store;

	if (ore_store_failed(rs))
		ore_store_set_state(rc->old_store, ORE_STORE_FAILED);
	oreblk_replace_counts(rs, rc->old_store);
	m->store = rc->old_store;
	smp_wmb();	/* pairs with the engine's read of the components */
	WRITE_ONCE(arr->stores[rc->member], rc->old_store);
	rc->old_store = NULL;
	/* the replacement store keeps its own reference to the new store */
	ore_store_put(rc->new_store);
	rc->new_store = NULL;
	oreblk_retire_store(arr, rs, rc->new_file);
	rc->new_file = NULL;
}

static int oreblk_replace_thread(struct oreblk_array *arr,
				 struct oreblk_recovery *rc)
{
	struct oreblk_member *m = &arr->members[rc->member];
	unsigned long start = jiffies;
	int err, repaired;

	pr_info("oreblk%d: replace of member %u (%s) by %s started (%llu bytes)\n",
		arr->index, rc->member, rc->old_path, rc->new_path,
		arr->data_size);
	err = oreblk_replace_run(arr, rc);
	mutex_lock(&arr->sb_mutex);
	if (!err && (ore_store_failed(m->store) ||
		     test_bit(OREBLK_M_FAULTY, &m->flags)))
		err = -EIO;
	if (!err) {
		repaired = atomic_read(&m->store->nr_csum_repairs);
		oreblk_replace_finish(arr, rc);
		pr_info("oreblk%d: member %u replaced by %s in %u s (%d ranges that failed their checksum rebuilt on the way); %s is no member any more (events %llu)\n",
			arr->index, rc->member, m->path,
			jiffies_to_msecs(jiffies - start) / 1000, repaired,
			rc->old_path, arr->events);
	} else {
		oreblk_replace_undo(arr, rc);
		if (err == -EINTR)
			pr_info("oreblk%d: replace of member %u (%s) by %s stopped at data offset %llu: %s stays the member\n",
				arr->index, rc->member, rc->old_path,
				rc->new_path, rc->done, rc->old_path);
		else
			pr_err("oreblk%d: replace of member %u (%s) by %s failed at data offset %llu: %d; %s\n",
			       arr->index, rc->member, rc->old_path,
			       rc->new_path, rc->done, err,
			       test_bit(OREBLK_M_FAULTY, &m->flags) ?
			       "the member is faulty: add the new device to rebuild it" :
			       "the old device stays the member");
	}
	clear_bit(OREBLK_M_REPLACING, &m->flags);
	WRITE_ONCE(arr->sync_action, OREBLK_SYNC_IDLE);
	mutex_unlock(&arr->sb_mutex);
	oreblk_release_retired(arr);
	return err;
}

static int oreblk_sync_thread(void *data)
{
	struct oreblk_array *arr = data;
	struct oreblk_recovery *rc = arr->recovery;

	if (rc->action == OREBLK_SYNC_RECOVER)
		return oreblk_recover_thread(arr, rc);
	if (rc->action == OREBLK_SYNC_REPLACE)
		return oreblk_replace_thread(arr, rc);
	return oreblk_scrub_thread(arr, rc);
}

/* A rebuild that cannot go on: the member is faulty again. Under sb_mutex. */
static void oreblk_recovery_abandon(struct oreblk_member *m)
{
	set_bit(OREBLK_M_FAULTY, &m->flags);
	clear_bit(OREBLK_M_REBUILDING, &m->flags);
	ore_store_set_state(m->store, ORE_STORE_FAILED);
}

/*
 * Start the thread for @rc (action, member and offset set), a member to
 * rebuild already REBUILDING; on failure that member is faulty. Under
 * sync_mutex and sb_mutex.
 */
static int oreblk_recovery_start(struct oreblk_array *arr,
				 struct oreblk_recovery *rc)
{
	unsigned long now = jiffies;
	int err;

	lockdep_assert_held(&arr->sync_mutex);
	lockdep_assert_held(&arr->sb_mutex);
	arr->recovery = rc;
	WRITE_ONCE(arr->sync_done, rc->done);
	WRITE_ONCE(arr->sync_total, rc->action == OREBLK_SYNC_RECOVER ||
		   rc->action == OREBLK_SYNC_REPLACE ?
		   arr->data_size : arr->array_size);
	arr->sync_mark[0].time = now;
	arr->sync_mark[0].done = rc->done;
	arr->sync_mark[1] = arr->sync_mark[0];
	if (rc->action != OREBLK_SYNC_RECOVER &&
	    rc->action != OREBLK_SYNC_REPLACE)
		WRITE_ONCE(arr->mismatches, 0);
	WRITE_ONCE(arr->sync_action, rc->action);
	rc->task = kthread_run(oreblk_sync_thread, arr, "oreblk%d_%s",
			       arr->index, oreblk_sync_action_name(rc->action));
	if (IS_ERR(rc->task)) {
		err = PTR_ERR(rc->task);
		rc->task = NULL;
		WRITE_ONCE(arr->sync_action, OREBLK_SYNC_IDLE);
		if (rc->action == OREBLK_SYNC_RECOVER)
			oreblk_recovery_abandon(&arr->members[rc->member]);
		return err;
	}
	/* the thread cannot end before we unlock sb_mutex */
	get_task_struct(rc->task);
	return 0;
}

/* Is @file's device a member already? Under sb_mutex. */
static bool oreblk_is_member(struct oreblk_array *arr, struct file *file)
{
	u32 i;

	for (i = 0; i < arr->nr_members; i++)
		if (arr->members[i].sb_file &&
		    file_bdev(arr->members[i].sb_file) == file_bdev(file))
			return true;
	return false;
}

/* The first member out of service (not being rebuilt), or -ENOENT. */
static int oreblk_free_slot(struct oreblk_array *arr)
{
	u32 i;

	for (i = 0; i < arr->nr_members; i++) {
		const struct oreblk_member *m = &arr->members[i];

		if ((test_bit(OREBLK_M_MISSING, &m->flags) ||
		     test_bit(OREBLK_M_FAULTY, &m->flags)) &&
		    !test_bit(OREBLK_M_REBUILDING, &m->flags))
			return i;
	}
	return -ENOENT;
}

/* A run of @action: its step, buffer (for a rebuild) and lock entries. */
static struct oreblk_recovery *
oreblk_recovery_alloc(struct oreblk_array *arr, enum oreblk_sync_action action)
{
	u64 U = arr->layout.stripe_length, step_mem;
	struct oreblk_recovery *rc;
	unsigned int i;

	rc = kzalloc(sizeof(*rc), GFP_KERNEL);
	if (!rc)
		return NULL;
	rc->action = action;
	rc->max_rows = max_t(u64, 1, div64_u64(action == OREBLK_SYNC_RECOVER ?
					       OREBLK_RECOVER_STEP :
					       OREBLK_SCRUB_STEP, U));
	if (action == OREBLK_SYNC_REPLACE)	/* one column of the rows */
		rc->nr_pages = rc->max_rows * arr->layout.stripe_unit >>
			       PAGE_SHIFT;
	rc->pages = kcalloc(rc->nr_pages, sizeof(*rc->pages), GFP_KERNEL);
	if (rc->nr_pages && !rc->pages)
		goto fail;
	for (i = 0; i < rc->nr_pages; i++) {
		rc->pages[i] = alloc_page(GFP_KERNEL);
		if (!rc->pages[i])
			goto fail;
	}
	/* ore_rebuild() reads every member's part of a step's stripes */
	step_mem = rc->max_rows * arr->layout.stripe_unit * arr->nr_members;
	rc->depth = action != OREBLK_SYNC_RECOVER ? 1 :
		    clamp_t(u64, div64_u64(OREBLK_RECOVER_MEM, step_mem), 1,
			    OREBLK_RECOVER_DEPTH);
	for (i = 0; i < rc->depth; i++) {
		struct oreblk_sync_step *step = &rc->steps[i];

		step->piece.ents = kcalloc(rc->max_rows,
					   sizeof(*step->piece.ents),
					   GFP_KERNEL);
		if (!step->piece.ents)
			goto fail;
		step->arr = arr;
		init_completion(&step->handover);
		init_completion(&step->done);
		INIT_WORK(&step->piece.work, oreblk_recover_handover);
		INIT_WORK(&step->work, oreblk_recover_step_work);
		step->piece.locked = true;
	}
	return rc;
fail:
	oreblk_recovery_free(rc);
	return NULL;
}

/**
 * oreblk_recovery_free - free a recovery that is over (or never started)
 * @rc: the recovery, or NULL
 */
void oreblk_recovery_free(struct oreblk_recovery *rc)
{
	unsigned int i;

	if (!rc)
		return;
	if (rc->task)
		put_task_struct(rc->task);
	/* a replace that never started: nothing else holds these */
	ore_store_put(rc->new_store);
	if (rc->new_file)
		bdev_fput(rc->new_file);
	for (i = 0; rc->pages && i < rc->nr_pages; i++)
		if (rc->pages[i])
			__free_page(rc->pages[i]);
	kfree(rc->pages);
	for (i = 0; i < OREBLK_RECOVER_DEPTH; i++)
		kfree(rc->steps[i].piece.ents);
	kfree(rc);
}

/**
 * oreblk_recovery_stop - stop the sync thread and free its run
 * @arr: the array; its I/O is over or still served. Under sync_mutex once
 *	the array runs.
 *
 * A member being rebuilt stays faulty (in memory and on disk); a resync
 * stopped goes on from there at the next assembly.
 */
void oreblk_recovery_stop(struct oreblk_array *arr)
{
	struct oreblk_recovery *rc = arr->recovery;

	if (!rc)
		return;
	if (rc->task)
		kthread_stop(rc->task);
	arr->recovery = NULL;
	oreblk_recovery_free(rc);
}

/**
 * oreblk_sync_close - stop the sync thread for good (the array stops)
 * @arr: the array
 *
 * No sync run starts after this (sysfs sync_action writes get -ENODEV).
 */
void oreblk_sync_close(struct oreblk_array *arr)
{
	mutex_lock(&arr->sync_mutex);
	arr->sync_closed = true;
	oreblk_recovery_stop(arr);
	mutex_unlock(&arr->sync_mutex);
}

/*
 * For add and replace: refuse (-EBUSY, @msg says why) while the sync
 * thread runs, else free the run before. Under sync_mutex.
 */
static int oreblk_sync_idle(struct oreblk_array *arr, char *msg)
{
	enum oreblk_sync_action now = READ_ONCE(arr->sync_action);

	lockdep_assert_held(&arr->sync_mutex);
	if (now != OREBLK_SYNC_IDLE) {
		oreblk_msg(msg, "oreblk%d: a %s is running already",
			   arr->index, oreblk_sync_action_name(now));
		return -EBUSY;
	}
	oreblk_recovery_stop(arr);	/* the one before, over */
	return 0;
}

/* Open a new device for @arr: read-write, exclusive, large enough. */
static struct file *oreblk_open_new(struct oreblk_array *arr,
				    const char *path, char *msg)
{
	struct file *file;

	file = bdev_file_open_by_path(path, BLK_OPEN_READ | BLK_OPEN_WRITE,
				      arr, NULL);
	if (IS_ERR(file)) {
		oreblk_msg(msg, "%s: cannot open the device: %ld", path,
			   PTR_ERR(file));
		return file;
	}
	if (bdev_nr_bytes(file_bdev(file)) < arr->data_offset + arr->data_size) {
		oreblk_msg(msg, "%s: %llu bytes, the members need %llu", path,
			   bdev_nr_bytes(file_bdev(file)),
			   arr->data_offset + arr->data_size);
		bdev_fput(file);
		return ERR_PTR(-EINVAL);
	}
	return file;
}

/* Put the device @file in slot @i as a member being rebuilt. Under sb_mutex. */
static int oreblk_install_member(struct oreblk_array *arr, u32 i,
				 struct file *file, const char *path,
				 char *msg)
{
	struct oreblk_member *m = &arr->members[i];
	struct ore_store *store;

	store = oreblk_open_store(arr, file);
	if (IS_ERR(store)) {
		oreblk_msg(msg, "%s: cannot open it as an ORE block store: %ld",
			   path, PTR_ERR(store));
		return PTR_ERR(store);
	}
	oreblk_retire_store(arr, m->store, m->sb_file);
	ore_store_set_state(store, ORE_STORE_REBUILDING);
	ore_store_set_recovery_offset(store, 0);
	m->sb_file = file;
	get_random_bytes(m->uuid, OREBLK_UUID_SIZE);
	strscpy(m->path, path, sizeof(m->path));
	m->store = store;
	/* in-flight I/O keeps seeing the old store: it stays until the end */
	smp_wmb();
	WRITE_ONCE(arr->stores[i], store);
	arr->sync_checkpoint = 0;
	set_bit(OREBLK_M_REBUILDING, &m->flags);
	clear_bit(OREBLK_M_MISSING, &m->flags);
	clear_bit(OREBLK_M_FAULTY, &m->flags);
	/* its superblock names it; the others keep its faulty bit for now */
	oreblk_write_sbs(arr);
	/* and its write-intent bitmap says what theirs say */
	oreblk_intent_rewrite(arr);
	return 0;
}

/**
 * oreblk_add_member - a new device takes the place of a member out of service
 * @arr: the array
 * @ca: the request (&struct oreblk_ctl_add); @ca->member gets the slot
 *
 * Return: 0 once the recovery thread runs; -EBUSY (a recovery runs, or the
 * device is in use), -ENOSPC (no member out of service), -EINVAL (too
 * small, or a layout without redundancy), -ENOMEM, or the open's error.
 */
int oreblk_add_member(struct oreblk_array *arr, struct oreblk_ctl_add *ca)
{
	char *msg = ca->msg;
	struct oreblk_recovery *rc;
	struct file *file;
	int slot, err;

	ca->path[OREBLK_PATH_LEN - 1] = 0;
	if (!arr->redundant) {
		oreblk_msg(msg, "oreblk%d has no redundancy to rebuild from",
			   arr->index);
		return -EINVAL;
	}
	mutex_lock(&arr->sync_mutex);
	err = oreblk_sync_idle(arr, msg);
	if (err)
		goto out_sync;
	file = oreblk_open_new(arr, ca->path, msg);
	if (IS_ERR(file)) {
		err = PTR_ERR(file);
		goto out_sync;
	}
	rc = oreblk_recovery_alloc(arr, OREBLK_SYNC_RECOVER);
	if (!rc) {
		oreblk_msg(msg, "no memory");
		err = -ENOMEM;
		goto out_put;
	}
	mutex_lock(&arr->sb_mutex);
	if (oreblk_is_member(arr, file)) {
		oreblk_msg(msg, "%s is a member of oreblk%d already", ca->path,
			   arr->index);
		err = -EBUSY;
		goto out_unlock;
	}
	slot = oreblk_free_slot(arr);
	if (slot < 0) {
		oreblk_msg(msg, "oreblk%d has no member out of service to replace",
			   arr->index);
		err = -ENOSPC;
		goto out_unlock;
	}
	rc->member = slot;
	err = oreblk_install_member(arr, slot, file, ca->path, msg);
	if (err)
		goto out_unlock;
	file = NULL;	/* the member's now */
	err = oreblk_recovery_start(arr, rc);
	if (err)
		oreblk_msg(msg, "cannot start the recovery thread: %d", err);
	mutex_unlock(&arr->sb_mutex);
	mutex_unlock(&arr->sync_mutex);
	/* the device it took the place of is closed once no I/O uses it */
	oreblk_release_retired(arr);
	ca->member = slot;
	return err;

out_unlock:
	mutex_unlock(&arr->sb_mutex);
	oreblk_recovery_free(rc);
out_put:
	if (file)
		bdev_fput(file);
out_sync:
	mutex_unlock(&arr->sync_mutex);
	return err;
}

/*
 * Put the replacement store in front of member @rc->member's store, the
 * new device behind it (@rc->new_store, @rc->new_file). Under sb_mutex.
 */
static int oreblk_replace_install(struct oreblk_array *arr,
				  struct oreblk_recovery *rc, char *msg)
{
	struct oreblk_member *m = &arr->members[rc->member];
	struct ore_store *rs;
	int err;

	/* it is no member until the copy is over, whatever it held before */
	memset(page_address(arr->sb_page), 0, PAGE_SIZE);
	err = oreblk_sb_write(rc->new_file, arr->sb_page);
	if (err) {
		oreblk_msg(msg, "%s: cannot write its superblock: %d",
			   rc->new_path, err);
		return err;
	}
	rs = ore_replace_store_create(m->store, rc->new_store);
	if (IS_ERR(rs)) {
		oreblk_msg(msg, "no memory");
		return PTR_ERR(rs);
	}
	rc->old_store = m->store;
	strscpy(rc->old_path, m->path, sizeof(rc->old_path));
	m->store = rs;
	smp_wmb();	/* the store is whole before it is seen */
	WRITE_ONCE(arr->stores[rc->member], rs);
	set_bit(OREBLK_M_REPLACING, &m->flags);
	return 0;
}

/**
 * oreblk_replace_member - copy a member in service onto a new device, then
 *	put the new device in its place (mdadm --replace)
 * @arr: the array
 * @cr: the request (&struct oreblk_ctl_replace)
 *
 * Return: 0 once the copy runs; -EINVAL (no such member, no redundancy,
 * the device too small), -EALREADY (the member is not in service), -EBUSY
 * (a sync runs, or the device is in use or a member), -ENOMEM, or the
 * open's error.
 */
int oreblk_replace_member(struct oreblk_array *arr,
			  struct oreblk_ctl_replace *cr)
{
	char *msg = cr->msg;
	struct oreblk_recovery *rc;
	struct oreblk_member *m;
	struct file *file;
	int err;

	cr->path[OREBLK_PATH_LEN - 1] = 0;
	if (cr->member >= arr->nr_members) {
		oreblk_msg(msg, "oreblk%d has no member %u (it has %u)",
			   arr->index, cr->member, arr->nr_members);
		return -EINVAL;
	}
	if (!arr->redundant) {
		oreblk_msg(msg, "oreblk%d has no redundancy: its members cannot be replaced while it runs",
			   arr->index);
		return -EINVAL;
	}
	mutex_lock(&arr->sync_mutex);
	err = oreblk_sync_idle(arr, msg);
	if (err)
		goto out_sync;
	rc = oreblk_recovery_alloc(arr, OREBLK_SYNC_REPLACE);
	if (!rc) {
		oreblk_msg(msg, "no memory");
		err = -ENOMEM;
		goto out_sync;
	}
	rc->member = cr->member;
	strscpy(rc->new_path, cr->path, sizeof(rc->new_path));
	file = oreblk_open_new(arr, cr->path, msg);
	if (IS_ERR(file)) {
		err = PTR_ERR(file);
		goto out_free;
	}
	rc->new_file = file;
	rc->new_store = oreblk_open_store(arr, file);
	if (IS_ERR(rc->new_store)) {
		err = PTR_ERR(rc->new_store);
		rc->new_store = NULL;
		oreblk_msg(msg, "%s: cannot open it as an ORE block store: %d",
			   cr->path, err);
		goto out_free;
	}
	mutex_lock(&arr->sb_mutex);
	m = &arr->members[cr->member];
	if (oreblk_is_member(arr, file)) {
		oreblk_msg(msg, "%s is a member of oreblk%d already", cr->path,
			   arr->index);
		err = -EBUSY;
	} else if (!oreblk_member_in_service(m) ||
		   test_bit(OREBLK_M_REBUILDING, &m->flags)) {
		oreblk_msg(msg, "oreblk%d: member %u is not in service (add a device instead)",
			   arr->index, cr->member);
		err = -EALREADY;
	} else {
		err = oreblk_replace_install(arr, rc, msg);
	}
	if (err) {
		mutex_unlock(&arr->sb_mutex);
		goto out_free;
	}
	err = oreblk_recovery_start(arr, rc);
	if (err) {
		oreblk_msg(msg, "cannot start the copy thread: %d", err);
		oreblk_replace_undo(arr, rc);
		clear_bit(OREBLK_M_REPLACING, &m->flags);
		arr->recovery = NULL;
		mutex_unlock(&arr->sb_mutex);
		oreblk_recovery_free(rc);
		mutex_unlock(&arr->sync_mutex);
		oreblk_release_retired(arr);
		return err;
	}
	mutex_unlock(&arr->sb_mutex);
	mutex_unlock(&arr->sync_mutex);
	return 0;

out_free:
	oreblk_recovery_free(rc);
out_sync:
	mutex_unlock(&arr->sync_mutex);
	return err;
}

/*
 * Start a resync, check or repair: a resync goes on where the last one
 * stopped, if it did; the others start at 0.
 */
static int oreblk_scrub_start(struct oreblk_array *arr,
			      enum oreblk_sync_action action)
{
	struct oreblk_recovery *rc;
	int err;

	lockdep_assert_held(&arr->sync_mutex);
	rc = oreblk_recovery_alloc(arr, action);
	if (!rc)
		return -ENOMEM;
	oreblk_recovery_stop(arr);	/* the one before, over */
	mutex_lock(&arr->sb_mutex);
	if (action == OREBLK_SYNC_RESYNC && arr->resync_pending)
		rc->done = arr->resync_pos;
	err = oreblk_recovery_start(arr, rc);
	mutex_unlock(&arr->sb_mutex);
	if (err) {
		arr->recovery = NULL;
		oreblk_recovery_free(rc);
	}
	return err;
}

/**
 * oreblk_recovery_resume - start what assembly found to do: go on with a
 *	rebuild, or resync a dirty array
 * @arr: a running array (its disk made); a member REBUILDING (oreblk_assemble()
 *	took it from its superblock's recovery offset), or @arr->resync_pending
 *
 * Return: 0 (also when there is nothing to do), -ENOMEM, or the thread's
 * start error (a member to rebuild is then faulty; a resync stays due).
 */
int oreblk_recovery_resume(struct oreblk_array *arr)
{
	struct oreblk_recovery *rc;
	u32 i;
	int err;

	mutex_lock(&arr->sync_mutex);
	for (i = 0; i < arr->nr_members; i++)
		if (test_bit(OREBLK_M_REBUILDING, &arr->members[i].flags))
			break;
	if (i == arr->nr_members) {
		err = 0;
		if (arr->resync_pending) {
			err = oreblk_scrub_start(arr, OREBLK_SYNC_RESYNC);
			if (err)
				pr_err("oreblk%d: cannot start the resync: %d\n",
				       arr->index, err);
		}
		mutex_unlock(&arr->sync_mutex);
		return err;
	}
	rc = oreblk_recovery_alloc(arr, OREBLK_SYNC_RECOVER);
	mutex_lock(&arr->sb_mutex);
	if (!rc) {
		pr_err("oreblk%d: no memory to resume the recovery of member %u: it stays faulty\n",
		       arr->index, i);
		oreblk_recovery_abandon(&arr->members[i]);
		mutex_unlock(&arr->sb_mutex);
		mutex_unlock(&arr->sync_mutex);
		return -ENOMEM;
	}
	rc->member = i;
	rc->done = arr->sync_checkpoint;
	err = oreblk_recovery_start(arr, rc);
	mutex_unlock(&arr->sb_mutex);
	if (err) {
		pr_err("oreblk%d: cannot resume the recovery of member %u: %d\n",
		       arr->index, i, err);
		arr->recovery = NULL;
		oreblk_recovery_free(rc);
	}
	mutex_unlock(&arr->sync_mutex);
	return err;
}

/**
 * oreblk_sync_request - a write to sysfs sync_action
 * @arr: the array
 * @action: OREBLK_SYNC_IDLE (stop what runs), _CHECK, _REPAIR or _RESYNC
 *	(a repair from where a resync stopped, or of all of it)
 *
 * Return: 0; -EBUSY (a sync runs already), -EINVAL (a layout without
 * redundancy, or members out of service: nothing to compare against),
 * -ENODEV (the array is stopping), -ENOMEM, or the thread's start error.
 */
int oreblk_sync_request(struct oreblk_array *arr,
			enum oreblk_sync_action action)
{
	enum oreblk_sync_action now;
	const char *name = oreblk_sync_action_name(action);
	int err = 0;

	mutex_lock(&arr->sync_mutex);
	now = READ_ONCE(arr->sync_action);
	if (arr->sync_closed) {
		err = -ENODEV;
	} else if (action == OREBLK_SYNC_IDLE) {
		if (now != OREBLK_SYNC_IDLE)
			pr_info("oreblk%d: stopping the %s on request\n",
				arr->index, oreblk_sync_action_name(now));
		oreblk_recovery_stop(arr);
	} else if (now != OREBLK_SYNC_IDLE) {
		pr_err("oreblk%d: cannot start a %s: a %s is running\n",
		       arr->index, name, oreblk_sync_action_name(now));
		err = -EBUSY;
	} else if (!arr->redundant) {
		pr_err("oreblk%d: cannot start a %s: the layout has no redundancy\n",
		       arr->index, name);
		err = -EINVAL;
	} else if (atomic_read(&arr->nr_failed)) {
		pr_err("oreblk%d: cannot start a %s: %d members out of service, nothing to compare against\n",
		       arr->index, name, atomic_read(&arr->nr_failed));
		err = -EINVAL;
	} else {
		err = oreblk_scrub_start(arr, action);
	}
	mutex_unlock(&arr->sync_mutex);
	return err;
}
