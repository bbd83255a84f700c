// SPDX-License-Identifier: GPL-2.0
/*
 * oreblk recovery: a new device takes the place of a member that is out of
 * service (OREBLK_CTL_ADD, `oreblk add`), and a kernel thread rebuilds the
 * member's data onto it from the others while the array serves I/O.
 *
 * The new member's store is ORE_STORE_REBUILDING from the start: every
 * write reaches it, reads use it only below its recovery offset. The thread
 * walks the member's rows in object order (ore_layout_comp_stripes()), a
 * few stripes at a time: it takes their stripe locks (no user write of
 * those stripes runs meanwhile), rebuilds them (ore_rebuild(): read with
 * the redundancy, written to the new member only), releases the locks and
 * raises the recovery offset. At the end the member is flushed, becomes
 * in sync, and the superblocks say so (its faulty bit is cleared, events
 * raised).
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

static void oreblk_recover_handover(struct work_struct *work)
{
	struct oreblk_recovery *rc = container_of(work, struct oreblk_recovery,
						  piece.work);

	complete(&rc->handover);
}

/* Take the stripe locks of [@first, @first + @n): waits for their holders. */
static void oreblk_recover_lock(struct oreblk_array *arr,
				struct oreblk_recovery *rc, u64 first, u64 n)
{
	struct oreblk_piece *piece = &rc->piece;

	piece->first_stripe = first;
	piece->last_stripe = first + n - 1;
	piece->next_stripe = first;
	while (!oreblk_lock_stripes(&arr->locks, piece)) {
		wait_for_completion(&rc->handover);
		reinit_completion(&rc->handover);
	}
}

static void oreblk_recover_dev_error(struct ore_io_state *ios, u32 comp,
				     struct ore_store *store, u64 offset,
				     int error)
{
	oreblk_store_failed(ios->private, comp, store, offset, error);
}

/*
 * Keep the rebuild at or below sync_speed_max (KiB/s, 0: no limit): sleep
 * until @done bytes since @start are within it. kthread_stop() wakes it.
 */
static void oreblk_recover_throttle(struct oreblk_array *arr,
				    unsigned long start, u64 done)
{
	unsigned int max = READ_ONCE(arr->sync_speed_max);
	unsigned long due;

	if (!max)
		return;
	due = start + msecs_to_jiffies(div64_u64(done, max) * 1000 / 1024);
	while (time_before(jiffies, due) && !kthread_should_stop()) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (!kthread_should_stop())
			schedule_timeout(due - jiffies);
		__set_current_state(TASK_RUNNING);
		max = READ_ONCE(arr->sync_speed_max);
		if (!max)
			break;
	}
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

/* Rebuild the member's rows from @rc->done on; 0 or the error that stopped it. */
static int oreblk_recover_run(struct oreblk_array *arr,
			      struct oreblk_recovery *rc)
{
	const struct ore_layout *l = &arr->layout;
	struct ore_store *store = arr->members[rc->member].store;
	u64 U = l->stripe_length, su = l->stripe_unit, rows, loff;
	u64 from = rc->done;
	unsigned long start = jiffies;
	int err;

	while (rc->done < arr->data_size) {
		if (kthread_should_stop())
			return -EINTR;
		if (ore_store_failed(store))
			return -EIO;
		loff = ore_layout_comp_stripes(l, rc->member, rc->done,
					       min(rc->max_rows,
						   (arr->data_size - rc->done) /
						   su), &rows);
		oreblk_recover_lock(arr, rc, div64_u64(loff, U), rows);
		err = ore_rebuild(l, &arr->oc, loff, rows * U, rc->pages,
				  oreblk_recover_dev_error, arr);
		oreblk_unlock_stripes(&arr->locks, &rc->piece);
		if (err)
			return err;
		rc->done += rows * su;
		ore_store_set_recovery_offset(store, rc->done);
		WRITE_ONCE(arr->sync_done, rc->done);
		if (rc->done - arr->sync_checkpoint >= OREBLK_RECOVER_CHECKPOINT) {
			err = oreblk_recover_checkpoint(arr, rc, store);
			if (err)
				return err;
		}
		oreblk_recover_throttle(arr, start, rc->done - from);
		cond_resched();
	}
	return store->ops->flush(store, 0);
}

static int oreblk_recover_thread(void *data)
{
	struct oreblk_array *arr = data;
	struct oreblk_recovery *rc = arr->recovery;
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
	WRITE_ONCE(arr->sync_running, false);
	mutex_unlock(&arr->sb_mutex);
	return err;
}

/* A rebuild that cannot go on: the member is faulty again. Under sb_mutex. */
static void oreblk_recovery_abandon(struct oreblk_member *m)
{
	set_bit(OREBLK_M_FAULTY, &m->flags);
	clear_bit(OREBLK_M_REBUILDING, &m->flags);
	ore_store_set_state(m->store, ORE_STORE_FAILED);
}

/*
 * Start the thread for @rc (member and offset set), the member already
 * REBUILDING. On failure the member is faulty. Under sb_mutex.
 */
static int oreblk_recovery_start(struct oreblk_array *arr,
				 struct oreblk_recovery *rc)
{
	struct oreblk_member *m = &arr->members[rc->member];
	int err;

	lockdep_assert_held(&arr->sb_mutex);
	arr->recovery = rc;
	WRITE_ONCE(arr->sync_done, rc->done);
	WRITE_ONCE(arr->sync_running, true);
	rc->task = kthread_run(oreblk_recover_thread, arr, "oreblk%d_recover",
			       arr->index);
	if (IS_ERR(rc->task)) {
		err = PTR_ERR(rc->task);
		rc->task = NULL;
		WRITE_ONCE(arr->sync_running, false);
		oreblk_recovery_abandon(m);
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

static struct oreblk_recovery *oreblk_recovery_alloc(struct oreblk_array *arr)
{
	u64 U = arr->layout.stripe_length;
	struct oreblk_recovery *rc;
	unsigned int i;

	rc = kzalloc(sizeof(*rc), GFP_KERNEL);
	if (!rc)
		return NULL;
	rc->max_rows = max_t(u64, 1, div64_u64(OREBLK_RECOVER_STEP, U));
	rc->nr_pages = rc->max_rows * U >> PAGE_SHIFT;
	rc->pages = kcalloc(rc->nr_pages, sizeof(*rc->pages), GFP_KERNEL);
	rc->piece.ents = kcalloc(rc->max_rows, sizeof(*rc->piece.ents),
				 GFP_KERNEL);
	if (!rc->pages || !rc->piece.ents)
		goto fail;
	for (i = 0; i < rc->nr_pages; i++) {
		rc->pages[i] = alloc_page(GFP_KERNEL);
		if (!rc->pages[i])
			goto fail;
	}
	init_completion(&rc->handover);
	INIT_WORK(&rc->piece.work, oreblk_recover_handover);
	rc->piece.locked = true;
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
	for (i = 0; rc->pages && i < rc->nr_pages; i++)
		if (rc->pages[i])
			__free_page(rc->pages[i]);
	kfree(rc->pages);
	kfree(rc->piece.ents);
	kfree(rc);
}

/**
 * oreblk_recovery_stop - stop the recovery thread and free the recovery
 * @arr: the array; its I/O is over or still served
 *
 * The member being rebuilt stays faulty (in memory and on disk).
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

/* Put the device @file in slot @i as a member being rebuilt. Under sb_mutex. */
static int oreblk_install_member(struct oreblk_array *arr, u32 i,
				 struct file *file, const char *path,
				 char *msg)
{
	struct oreblk_member *m = &arr->members[i];
	struct ore_store *store;
	int err;

	err = oreblk_retire_store(arr, m->store, m->sb_file);
	if (err) {
		oreblk_msg(msg, "no memory");
		return err;
	}
	store = ore_bdev_store_open_file(file, arr->data_offset,
					 arr->data_size);
	if (IS_ERR(store)) {
		oreblk_msg(msg, "%s: cannot open it as an ORE block store: %ld",
			   path, PTR_ERR(store));
		return PTR_ERR(store);
	}
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
	if (READ_ONCE(arr->sync_running)) {
		oreblk_msg(msg, "oreblk%d: a recovery is running already",
			   arr->index);
		return -EBUSY;
	}
	oreblk_recovery_stop(arr);	/* the one before, over */
	file = bdev_file_open_by_path(ca->path, BLK_OPEN_READ | BLK_OPEN_WRITE,
				      arr, NULL);
	if (IS_ERR(file)) {
		oreblk_msg(msg, "%s: cannot open the device: %ld", ca->path,
			   PTR_ERR(file));
		return PTR_ERR(file);
	}
	if (bdev_nr_bytes(file_bdev(file)) < arr->data_offset + arr->data_size) {
		oreblk_msg(msg, "%s: %llu bytes, the members need %llu",
			   ca->path, bdev_nr_bytes(file_bdev(file)),
			   arr->data_offset + arr->data_size);
		err = -EINVAL;
		goto out_put;
	}
	rc = oreblk_recovery_alloc(arr);
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
	ca->member = slot;
	return err;

out_unlock:
	mutex_unlock(&arr->sb_mutex);
	oreblk_recovery_free(rc);
out_put:
	if (file)
		bdev_fput(file);
	return err;
}

/**
 * oreblk_recovery_resume - go on with a rebuild found at assembly
 * @arr: a running array (its disk made) that has a member REBUILDING
 *	(oreblk_assemble() took it from its superblock's recovery offset)
 *
 * Return: 0 (also when there is nothing to resume), -ENOMEM, or the
 * thread's start error (the member is then faulty).
 */
int oreblk_recovery_resume(struct oreblk_array *arr)
{
	struct oreblk_recovery *rc;
	u32 i;
	int err;

	for (i = 0; i < arr->nr_members; i++)
		if (test_bit(OREBLK_M_REBUILDING, &arr->members[i].flags))
			break;
	if (i == arr->nr_members)
		return 0;
	rc = oreblk_recovery_alloc(arr);
	mutex_lock(&arr->sb_mutex);
	if (!rc) {
		pr_err("oreblk%d: no memory to resume the recovery of member %u: it stays faulty\n",
		       arr->index, i);
		oreblk_recovery_abandon(&arr->members[i]);
		mutex_unlock(&arr->sb_mutex);
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
	return err;
}
