// SPDX-License-Identifier: GPL-2.0
/*
 * oreblk arrays: assembling from member devices, member superblocks, and
 * members failing.
 *
 * Assembly trusts nothing it is given: every path is opened exclusively
 * (holder: the array), every superblock is checked on its own (magic,
 * checksum, version, layout, sizes against the device) and against the
 * others (same array, same layout, distinct member indexes, uuids the
 * array knows). The members with the highest events counter are
 * authoritative (and must not mark each other faulty: that array ran
 * split, and assembly is refused); a member with a lower counter missed
 * a state change and is stale. Stale members, members the authoritative superblocks mark
 * faulty, and members not given are missing: the array starts degraded
 * while every group keeps enough components (oreblk_array_viable()), and
 * the missing ones are then marked faulty on disk, so they stay out when
 * they come back.
 *
 * A member that fails while running (ORE reports it through ore_check_io)
 * is failed at once in ORE (ore_store_set_state) and counted; the
 * superblocks of the members still in service are rewritten, with the
 * events counter raised, from oreblk_wq. Until they are on disk no bio
 * ends (oreblk_hold_for_sb): a write acknowledged degraded, or a read
 * served without the member, would otherwise be lost by a crash that
 * left every superblock saying the member is in service (the next
 * assembly would use its stale data), as md holds bios while
 * MD_SB_CHANGE_PENDING.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/slab.h>
#include <linux/blkdev.h>
#include <linux/bio.h>
#include <linux/file.h>
#include <linux/ktime.h>
#include <linux/uuid.h>

#include "internal.h"

/* Print a reason and keep it for the caller (the ioctl's msg). */
__printf(2, 3) void oreblk_msg(char *msg, const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	vsnprintf(msg, OREBLK_MSG_LEN, fmt, args);
	va_end(args);
	pr_err("%s\n", msg);
}

/* ------------------------------------------------------------------ */
/* superblocks */

static int oreblk_sb_io(struct file *bdev_file, struct page *page,
			blk_opf_t opf)
{
	struct bio *bio;
	int err;

	bio = bio_alloc(file_bdev(bdev_file), 1, opf | REQ_META | REQ_SYNC,
			GFP_KERNEL);
	bio->bi_iter.bi_sector = OREBLK_SB_OFFSET >> SECTOR_SHIFT;
	__bio_add_page(bio, page, OREBLK_SB_SIZE, 0);
	err = submit_bio_wait(bio);
	bio_put(bio);
	return err;
}

/**
 * oreblk_sb_write - write a superblock page to a device, FUA
 * @bdev_file: the device
 * @page: OREBLK_SB_SIZE bytes to write at OREBLK_SB_OFFSET
 *
 * Return: 0 or the write's error.
 */
int oreblk_sb_write(struct file *bdev_file, struct page *page)
{
	return oreblk_sb_io(bdev_file, page, REQ_OP_WRITE | REQ_FUA);
}

/*
 * Check the superblock of member @path, a device of @dev_size bytes, on
 * its own (oreblk_sb_check()). Returns 0, -EUCLEAN when it is no oreblk
 * superblock (or a damaged one), -EINVAL when a field is impossible; @msg
 * says which.
 */
static int oreblk_cand_check(const struct oreblk_sb *sb, const char *path,
			     u64 dev_size, char *msg)
{
	struct ore_layout l;
	const char *why;
	int err;

	err = oreblk_sb_check(sb, dev_size, &l, &why);
	switch (err) {
	case 0:
		return 0;
	case -ENODATA:
		oreblk_msg(msg, "%s is not an oreblk member: no oreblk superblock at byte %u",
			   path, OREBLK_SB_OFFSET);
		return -EUCLEAN;
	case -EUCLEAN:
		oreblk_msg(msg, "%s: oreblk superblock checksum mismatch (0x%08x stored, 0x%08x computed)",
			   path, le32_to_cpu(sb->csum), oreblk_sb_csum(sb));
		return -EUCLEAN;
	default:
		oreblk_msg(msg, "%s: bad superblock: %s (%u members, member %u, data %llu + %llu of a %llu-byte device)",
			   path, why, le32_to_cpu(sb->nr_members),
			   le32_to_cpu(sb->member_index),
			   le64_to_cpu(sb->data_offset),
			   le64_to_cpu(sb->data_size), dev_size);
		return err;
	}
}

/* The superblock of member @idx as the array is now. */
static void oreblk_sb_build(struct oreblk_array *arr, u32 idx,
			    struct oreblk_sb *sb)
{
	const struct ore_layout *l = &arr->layout;
	u64 faulty = 0;
	u32 i;

	memset(sb, 0, sizeof(*sb));
	sb->magic = cpu_to_le32(OREBLK_SB_MAGIC);
	sb->version = cpu_to_le32(OREBLK_SB_VERSION);
	memcpy(sb->array_uuid, arr->uuid, OREBLK_UUID_SIZE);
	memcpy(sb->member_uuid, arr->members[idx].uuid, OREBLK_UUID_SIZE);
	sb->member_index = cpu_to_le32(idx);
	sb->nr_members = cpu_to_le32(arr->nr_members);
	oreblk_sb_set_layout(sb, l);
	sb->data_offset = cpu_to_le64(arr->data_offset);
	sb->data_size = cpu_to_le64(arr->data_size);
	sb->array_size = cpu_to_le64(arr->array_size);
	sb->events = cpu_to_le64(arr->events);
	sb->ctime = cpu_to_le64(arr->ctime);
	sb->utime = cpu_to_le64(ktime_get_real_seconds());
	for (i = 0; i < arr->nr_members; i++) {
		const struct oreblk_member *m = &arr->members[i];

		/* a member being rebuilt is faulty on disk until it is done */
		if (test_bit(OREBLK_M_MISSING, &m->flags) ||
		    test_bit(OREBLK_M_FAULTY, &m->flags) ||
		    test_bit(OREBLK_M_REBUILDING, &m->flags))
			faulty |= 1ULL << i;
		memcpy(sb->member_uuids[i], m->uuid, OREBLK_UUID_SIZE);
	}
	sb->faulty_map = cpu_to_le64(faulty);
	if (arr->sb_dirty) {
		sb->array_state = cpu_to_le32(OREBLK_SB_ST_DIRTY);
		sb->resync_offset = cpu_to_le64(arr->sb_resync_offset);
	}
	if (test_bit(OREBLK_M_REBUILDING, &arr->members[idx].flags)) {
		sb->flags = cpu_to_le32(OREBLK_SB_FL_RECOVERING);
		sb->recovery_offset = cpu_to_le64(arr->sync_checkpoint);
	}
	memcpy(sb->name, arr->name, OREBLK_NAME_LEN);
	if (arr->intent) {
		sb->consistency = cpu_to_le32(OREBLK_CONSISTENCY_INTENT);
		sb->intent_bytes = cpu_to_le32(OREBLK_INTENT_BYTES);
		sb->intent_offset = cpu_to_le64(arr->intent->offset);
		sb->intent_region = cpu_to_le64(arr->intent->region);
	}
	if (arr->csum) {
		sb->csum_type = cpu_to_le32(arr->csum);
		sb->csum_offset = cpu_to_le64(arr->csum_offset);
	}
	sb->csum = cpu_to_le32(oreblk_sb_csum(sb));
}

/**
 * oreblk_open_store - the ORE block store of a member's data range
 * @arr: the array (its data range and checksums known)
 * @file: the member device, opened by the caller (who keeps it)
 *
 * Return: the store, keeping checksums where the array does, or ERR_PTR.
 */
struct ore_store *oreblk_open_store(struct oreblk_array *arr,
				    struct file *file)
{
	struct ore_store *store;
	int err;

	/* the superblock's type is the store's */
	BUILD_BUG_ON(ORE_CSUM_CRC32C != OREBLK_CSUM_CRC32C);
	BUILD_BUG_ON(ORE_CSUM_XXH64 != OREBLK_CSUM_XXH64);
	store = ore_bdev_store_open_file(file, arr->data_offset,
					 arr->data_size);
	if (IS_ERR(store) || !arr->csum)
		return store;
	err = ore_bdev_store_enable_csum(store, arr->csum_offset, arr->csum);
	if (err) {
		ore_store_put(store);
		return ERR_PTR(err);
	}
	return store;
}

/* Neither missing nor faulty (a member being rebuilt is in service). */
bool oreblk_member_in_service(const struct oreblk_member *m)
{
	return !test_bit(OREBLK_M_MISSING, &m->flags) &&
	       !test_bit(OREBLK_M_FAULTY, &m->flags);
}

/*
 * Write the superblock of every member in service (a member being rebuilt
 * included), the events counter raised first when @raise. A member whose
 * superblock cannot be written fails too, and the round starts again with
 * the counter raised (the others must then say it is stale). Called with
 * sb_mutex held.
 */
static void oreblk_write_sbs_raise(struct oreblk_array *arr, bool raise)
{
	struct page *page = arr->sb_page;
	unsigned int round;
	u32 i;

	lockdep_assert_held(&arr->sb_mutex);
	for (round = 0; round <= arr->nr_members; round++) {
		bool again = false;

		if (raise || round)
			arr->events++;
		for (i = 0; i < arr->nr_members; i++) {
			struct oreblk_member *m = &arr->members[i];
			int err;

			if (!oreblk_member_in_service(m))
				continue;
			oreblk_sb_build(arr, i, page_address(page));
			err = oreblk_sb_io(m->sb_file, page,
					   REQ_OP_WRITE | REQ_FUA);
			if (!err)
				continue;
			pr_err("oreblk%d: member %u (%s): superblock write failed: %d; failing the member\n",
			       arr->index, i, m->path, err);
			if (!test_and_set_bit(OREBLK_M_FAULTY, &m->flags)) {
				ore_store_set_state(m->store, ORE_STORE_FAILED);
				if (!test_bit(OREBLK_M_REBUILDING, &m->flags))
					atomic_inc(&arr->nr_failed);
			}
			again = true;
		}
		if (!again)
			break;
	}
}

/*
 * Raise the events counter and write the superblocks of the members in
 * service: a change of state (a member failed, added, rebuilt so far).
 * Under sb_mutex.
 */
void oreblk_write_sbs(struct oreblk_array *arr)
{
	oreblk_write_sbs_raise(arr, true);
}

/*
 * Write the superblocks of the members in service for a change of the
 * dirty state alone (dirty.c): no member changes, so the events counter
 * stays (a member left out of these writes is out of service, and the
 * others say so already); a member failing the write raises it. Under
 * sb_mutex.
 */
void oreblk_write_sbs_state(struct oreblk_array *arr)
{
	oreblk_write_sbs_raise(arr, false);
}

/* ------------------------------------------------------------------ */
/* redundancy */

/**
 * oreblk_array_viable - can the array serve its data without @lost?
 * @arr: the array (layout set)
 * @lost: bitmap of members that are not in service
 *
 * Return: true while no group has lost more positions (all mirrors of a
 * position) than it has parity.
 */
bool oreblk_array_viable(struct oreblk_array *arr, const unsigned long *lost)
{
	return ore_layout_survives(&arr->layout, lost, arr->nr_members, 0);
}

static void oreblk_lost_map(struct oreblk_array *arr, unsigned long *lost)
{
	u32 i;

	bitmap_zero(lost, OREBLK_MAX_MEMBERS);
	for (i = 0; i < arr->nr_members; i++)
		if (!oreblk_member_in_service(&arr->members[i]) ||
		    test_bit(OREBLK_M_REBUILDING, &arr->members[i].flags))
			__set_bit(i, lost);
}

/* ------------------------------------------------------------------ */
/* failures */

/*
 * Write the failures recorded so far to the superblocks, then end the bios
 * held meanwhile. A failure that comes in while the superblocks are being
 * written makes another round: the held bios end only after a round that
 * started with every failure known.
 */
static void oreblk_fail_work(struct work_struct *work)
{
	struct oreblk_array *arr = container_of(work, struct oreblk_array,
						fail_work);
	DECLARE_BITMAP(lost, OREBLK_MAX_MEMBERS);
	struct oreblk_cmd *cmd, *next;
	unsigned long seq;
	LIST_HEAD(done);
	u32 i;

	for (;;) {
		spin_lock_irq(&arr->hold_lock);
		seq = arr->fail_seq;
		spin_unlock_irq(&arr->hold_lock);

		mutex_lock(&arr->sb_mutex);
		oreblk_write_sbs(arr);
		oreblk_lost_map(arr, lost);
		if (oreblk_array_viable(arr, lost))
			pr_warn("oreblk%d: degraded: %u of %u members out of service (events %llu)\n",
				arr->index, atomic_read(&arr->nr_failed),
				arr->nr_members, arr->events);
		else
			pr_err("oreblk%d: %u of %u members out of service: beyond the redundancy of %s, I/O fails\n",
			       arr->index, atomic_read(&arr->nr_failed),
			       arr->nr_members,
			       ore_layout_raid_name(arr->layout.raid_algorithm,
						    arr->layout.mirrors_p1));
		mutex_unlock(&arr->sb_mutex);

		spin_lock_irq(&arr->hold_lock);
		if (arr->fail_seq == seq) {
			arr->sb_seq = seq;
			for (i = 0; i < arr->nr_members; i++)
				clear_bit(OREBLK_M_FAIL_PENDING,
					  &arr->members[i].flags);
			list_splice_init(&arr->held, &done);
			spin_unlock_irq(&arr->hold_lock);
			break;
		}
		spin_unlock_irq(&arr->hold_lock);
	}
	list_for_each_entry_safe(cmd, next, &done, held) {
		list_del_init(&cmd->held);
		oreblk_cmd_end(cmd);
	}
}

/**
 * oreblk_hold_for_sb - keep a bio from ending before a failure is on disk
 * @arr: the array
 * @cmd: a command whose I/O is over
 *
 * Any context. While a member failure has not reached the superblocks of
 * the members in service, @cmd is kept in @arr->held; oreblk_fail_work()
 * ends it (oreblk_cmd_end()) once they say so.
 *
 * Return: true when @cmd was held, false when it may end now.
 */
bool oreblk_hold_for_sb(struct oreblk_array *arr, struct oreblk_cmd *cmd)
{
	unsigned long flags;
	bool hold;

	spin_lock_irqsave(&arr->hold_lock, flags);
	hold = arr->fail_seq != arr->sb_seq;
	if (hold)
		list_add_tail(&cmd->held, &arr->held);
	spin_unlock_irqrestore(&arr->hold_lock, flags);
	return hold;
}

/**
 * oreblk_member_failed - a member failed an I/O: take it out of service
 * @arr: the array
 * @member: member index (the ORE component)
 * @offset: offset of the failure in the member's data range
 * @error: the error
 *
 * Any context. The member gets no more I/O from now on; its state goes to
 * the superblocks from oreblk_wq, and no bio ends until it is there
 * (oreblk_hold_for_sb()). The caller's own bio must end after this call.
 */
void oreblk_member_failed(struct oreblk_array *arr, u32 member, u64 offset,
			  int error)
{
	struct oreblk_member *m;
	unsigned long flags;

	if (member >= arr->nr_members)
		return;
	m = &arr->members[member];
	if (test_bit(OREBLK_M_MISSING, &m->flags) ||
	    test_and_set_bit(OREBLK_M_FAULTY, &m->flags))
		return;
	spin_lock_irqsave(&arr->hold_lock, flags);
	arr->fail_seq++;
	set_bit(OREBLK_M_FAIL_PENDING, &m->flags);
	spin_unlock_irqrestore(&arr->hold_lock, flags);
	/*
	 * The failure is pending before ORE can skip the member: an I/O that
	 * found the store failed ends after this point, and sees it in
	 * oreblk_hold_for_sb().
	 */
	smp_mb();
	ore_store_set_state(m->store, ORE_STORE_FAILED);
	/* a member being rebuilt is counted out of service already */
	if (!test_bit(OREBLK_M_REBUILDING, &m->flags))
		atomic_inc(&arr->nr_failed);
	pr_err("oreblk%d: member %u (%s) failed at data offset %llu (error %d): marked faulty\n",
	       arr->index, member, m->path, offset, error);
	queue_work(oreblk_wq, &arr->fail_work);
}

/**
 * oreblk_store_failed - ORE reports that a member's store failed an I/O
 * @arr: the array
 * @comp: the component (member index)
 * @store: the store that failed
 * @offset: offset of the failure in the member's data range
 * @error: the error
 *
 * Any context. Fails the member as oreblk_member_failed() does, unless
 * @store is not the member's any more: it was replaced (oreblk add) after
 * the I/O started, and its late errors are no news of the member.
 */
void oreblk_store_failed(struct oreblk_array *arr, u32 comp,
			 struct ore_store *store, u64 offset, int error)
{
	if (comp < arr->nr_members && READ_ONCE(arr->stores[comp]) == store)
		oreblk_member_failed(arr, comp, offset, error);
}

/**
 * oreblk_fail_member - take a member out of service on request
 * @arr: the array
 * @member: member index
 * @msg: OREBLK_MSG_LEN bytes for the reason of a refusal
 *
 * Return: 0 once the superblocks say so, -EINVAL (no such member),
 * -EALREADY (not in service), -ENXIO (that would lose data).
 */
int oreblk_fail_member(struct oreblk_array *arr, u32 member, char *msg)
{
	DECLARE_BITMAP(lost, OREBLK_MAX_MEMBERS);

	if (member >= arr->nr_members) {
		oreblk_msg(msg, "oreblk%d has no member %u (it has %u)",
			   arr->index, member, arr->nr_members);
		return -EINVAL;
	}
	mutex_lock(&arr->sb_mutex);
	oreblk_lost_map(arr, lost);
	if (test_bit(member, lost)) {
		mutex_unlock(&arr->sb_mutex);
		oreblk_msg(msg, "oreblk%d: member %u is not in service already",
			   arr->index, member);
		return -EALREADY;
	}
	__set_bit(member, lost);
	if (!oreblk_array_viable(arr, lost)) {
		mutex_unlock(&arr->sb_mutex);
		oreblk_msg(msg, "oreblk%d: failing member %u (%s) would leave too few members",
			   arr->index, member, arr->members[member].path);
		return -ENXIO;
	}
	mutex_unlock(&arr->sb_mutex);
	oreblk_member_failed(arr, member, 0, -EIO);
	flush_work(&arr->fail_work);
	return 0;
}

/* ------------------------------------------------------------------ */
/* replaced stores */

/**
 * oreblk_retire_store - take a member's store out of the array
 * @arr: the array
 * @store: the store of the member being replaced, with the reference the
 *	member held
 * @file: its device file (the block store shares it), or NULL
 *
 * I/O that started before the replacement may still use @store (and its
 * device): they are released by oreblk_release_retired(), after a grace
 * period of the array's store_srcu, or at the latest by
 * oreblk_array_free(). Under sb_mutex. It cannot fail: its caller has
 * already changed what the array is made of (a tiny allocation that
 * waits for memory).
 */
void oreblk_retire_store(struct oreblk_array *arr, struct ore_store *store,
			 struct file *file)
{
	struct oreblk_retired *r = kmalloc(sizeof(*r), GFP_KERNEL | __GFP_NOFAIL);

	lockdep_assert_held(&arr->sb_mutex);
	r->store = store;
	r->file = file;
	list_add(&r->node, &arr->retired);
}

static void oreblk_free_retired(struct list_head *list)
{
	struct oreblk_retired *r, *next;

	list_for_each_entry_safe(r, next, list, node) {
		ore_store_put(r->store);
		if (r->file)
			bdev_fput(r->file);
		kfree(r);
	}
}

/**
 * oreblk_release_retired - close the stores and devices taken out of the
 *	array, once nothing uses them
 * @arr: the array
 *
 * Waits for the commands (and sync steps) that started before they were
 * taken out to end. Process context, holding none of the array's locks:
 * commands wait on them.
 */
void oreblk_release_retired(struct oreblk_array *arr)
{
	LIST_HEAD(list);

	mutex_lock(&arr->sb_mutex);
	list_splice_init(&arr->retired, &list);
	mutex_unlock(&arr->sb_mutex);
	if (list_empty(&list))
		return;
	synchronize_srcu(&arr->store_srcu);
	oreblk_free_retired(&list);
}

/**
 * oreblk_remove_member - let go of the device of a faulty member
 * @arr: the array
 * @member: member index
 * @msg: OREBLK_MSG_LEN bytes for the reason of a refusal
 *
 * The member becomes missing (a stand-in store); its store and device are
 * closed once no I/O uses them (oreblk_release_retired()). The superblocks
 * say it is faulty already. Process context, no array lock held.
 *
 * Return: 0, -EINVAL (no such member), -EBUSY (in service or being
 * rebuilt), -EALREADY (missing already), -ENOMEM.
 */
int oreblk_remove_member(struct oreblk_array *arr, u32 member, char *msg)
{
	struct oreblk_member *m;
	struct ore_store *stand_in;
	char name[24], path[OREBLK_PATH_LEN];
	int err = 0;

	if (member >= arr->nr_members) {
		oreblk_msg(msg, "oreblk%d has no member %u (it has %u)",
			   arr->index, member, arr->nr_members);
		return -EINVAL;
	}
	snprintf(name, sizeof(name), "missing-%u", member);
	stand_in = ore_missing_store_create(name);
	if (IS_ERR(stand_in)) {
		oreblk_msg(msg, "no memory");
		return PTR_ERR(stand_in);
	}
	/* a failure not in the superblocks yet is written first */
	flush_work(&arr->fail_work);
	mutex_lock(&arr->sb_mutex);
	m = &arr->members[member];
	strscpy(path, m->path, sizeof(path));
	if (test_bit(OREBLK_M_MISSING, &m->flags)) {
		oreblk_msg(msg, "oreblk%d: member %u is missing already",
			   arr->index, member);
		err = -EALREADY;
	} else if (!test_bit(OREBLK_M_FAULTY, &m->flags) ||
		   test_bit(OREBLK_M_REBUILDING, &m->flags) ||
		   test_bit(OREBLK_M_FAIL_PENDING, &m->flags)) {
		oreblk_msg(msg, "oreblk%d: member %u (%s) is %s: fail it first",
			   arr->index, member, path,
			   test_bit(OREBLK_M_REBUILDING, &m->flags) ?
			   "being rebuilt" : "in service");
		err = -EBUSY;
	}
	if (err) {
		mutex_unlock(&arr->sb_mutex);
		ore_store_put(stand_in);
		return err;
	}
	oreblk_retire_store(arr, m->store, m->sb_file);
	m->store = stand_in;
	smp_wmb();	/* the stand-in is whole before it is seen */
	WRITE_ONCE(arr->stores[member], stand_in);
	m->sb_file = NULL;
	m->path[0] = 0;
	set_bit(OREBLK_M_MISSING, &m->flags);
	clear_bit(OREBLK_M_FAULTY, &m->flags);
	mutex_unlock(&arr->sb_mutex);
	oreblk_release_retired(arr);
	pr_info("oreblk%d: member %u (%s) removed: its device is closed\n",
		arr->index, member, path);
	return 0;
}

/* ------------------------------------------------------------------ */
/* assembly */

/* One device given to assemble. */
struct oreblk_cand {
	const char *path;
	struct file *file;
	struct oreblk_sb *sb;	/* a page */
	u32 idx;
	bool use;
	bool resume;	/* a member being rebuilt: resume at its offset */
};

static int oreblk_cand_open(struct oreblk_array *arr, struct oreblk_cand *c,
			    char *msg)
{
	struct page *page;
	int err;

	c->file = bdev_file_open_by_path(c->path, BLK_OPEN_READ | BLK_OPEN_WRITE,
					 arr, NULL);
	if (IS_ERR(c->file)) {
		err = PTR_ERR(c->file);
		c->file = NULL;
		if (err == -EBUSY)
			oreblk_msg(msg, "%s is in use (a running array, a mount or another holder)",
				   c->path);
		else
			oreblk_msg(msg, "%s: cannot open the device: %d", c->path,
				   err);
		return err;
	}
	page = alloc_page(GFP_KERNEL);
	if (!page) {
		oreblk_msg(msg, "%s: no memory for the superblock", c->path);
		return -ENOMEM;
	}
	c->sb = page_address(page);
	err = oreblk_sb_io(c->file, page, REQ_OP_READ);
	if (err) {
		oreblk_msg(msg, "%s: cannot read the superblock: %d", c->path,
			   err);
		return err;
	}
	return oreblk_cand_check(c->sb, c->path,
				 bdev_nr_bytes(file_bdev(c->file)), msg);
}

static void oreblk_cand_close(struct oreblk_cand *c)
{
	if (c->sb)
		free_page((unsigned long)c->sb);
	if (c->file)
		bdev_fput(c->file);
	c->sb = NULL;
	c->file = NULL;
}

/* Split the NUL-separated @paths into @cands. */
static int oreblk_parse_paths(struct oreblk_ctl_assemble *ca, char *paths,
			      struct oreblk_cand *cands, char *msg)
{
	u32 n = 0, pos = 0;

	while (pos < ca->paths_len) {
		size_t len = strnlen(paths + pos, ca->paths_len - pos);

		if (pos + len == ca->paths_len) {
			oreblk_msg(msg, "member path %u is not NUL terminated", n);
			return -EINVAL;
		}
		if (!len || len >= OREBLK_PATH_LEN) {
			oreblk_msg(msg, "member path %u is empty or longer than %u bytes",
				   n, OREBLK_PATH_LEN - 1);
			return -EINVAL;
		}
		if (n == ca->nr_paths) {
			oreblk_msg(msg, "more than the %u member paths announced",
				   ca->nr_paths);
			return -EINVAL;
		}
		cands[n++].path = paths + pos;
		pos += len + 1;
	}
	if (n != ca->nr_paths) {
		oreblk_msg(msg, "%u member paths given, %u announced", n,
			   ca->nr_paths);
		return -EINVAL;
	}
	return 0;
}

/* Check the candidates against each other; pick the members. */
static int oreblk_pick_members(struct oreblk_cand *cands, u32 n,
			       struct oreblk_cand **slot, u64 *events,
			       u64 *faulty_map, char *msg)
{
	const struct oreblk_sb *ref = cands[0].sb, *fresh;
	u32 nr = le32_to_cpu(ref->nr_members), i, j;
	bool resuming = false;
	u64 max_events = 0, faulty;

	for (i = 0; i < n; i++) {
		struct oreblk_cand *c = &cands[i];

		for (j = 0; j < i; j++)
			if (file_bdev(c->file) == file_bdev(cands[j].file)) {
				oreblk_msg(msg, "%s is given twice (it is the device of %s)",
					   c->path, cands[j].path);
				return -EINVAL;
			}
		if (memcmp(c->sb->array_uuid, ref->array_uuid,
			   OREBLK_UUID_SIZE)) {
			oreblk_msg(msg, "%s is a member of another array (%pU) than %s (%pU)",
				   c->path, c->sb->array_uuid, cands[0].path,
				   ref->array_uuid);
			return -EINVAL;
		}
		if (!oreblk_sb_agree(c->sb, ref)) {
			oreblk_msg(msg, "the superblocks of %s and %s disagree on the array's layout or size",
				   c->path, cands[0].path);
			return -EINVAL;
		}
		c->idx = le32_to_cpu(c->sb->member_index);
		if (slot[c->idx]) {
			oreblk_msg(msg, "%s and %s both claim to be member %u",
				   slot[c->idx]->path, c->path, c->idx);
			return -EINVAL;
		}
		slot[c->idx] = c;
		max_events = max(max_events, le64_to_cpu(c->sb->events));
	}

	/*
	 * The authoritative superblocks must agree: one that marks another
	 * of the same events count faulty means the array ran split (each
	 * half assembled alone, as md calls it: split brain), and neither
	 * half's data is the array's. Refuse and let the user choose.
	 */
	fresh = NULL;
	faulty = 0;
	for (i = 0; i < n; i++) {
		const struct oreblk_cand *a = &cands[i];
		u64 map = le64_to_cpu(a->sb->faulty_map);

		if (le64_to_cpu(a->sb->events) != max_events)
			continue;
		if (!fresh)
			fresh = a->sb;
		faulty |= map;
		for (j = 0; j < n; j++) {
			const struct oreblk_cand *b = &cands[j];

			if (j == i || !oreblk_sb_split(a->sb, b->sb))
				continue;
			oreblk_msg(msg, "%s and %s both have events %llu but %s marks %s faulty (the array ran split): assemble with one of them only",
				   a->path, b->path, max_events, a->path,
				   b->path);
			return -EINVAL;
		}
	}
	for (i = 0; i < nr; i++) {
		struct oreblk_cand *c = slot[i];

		if (!c)
			continue;
		if (memcmp(fresh->member_uuids[i], c->sb->member_uuid,
			   OREBLK_UUID_SIZE)) {
			oreblk_msg(msg, "%s (uuid %pU) is not the member %u the array knows (%pU)",
				   c->path, c->sb->member_uuid, i,
				   fresh->member_uuids[i]);
			return -EINVAL;
		}
		c->use = true;
		if (le64_to_cpu(c->sb->events) < max_events) {
			pr_warn("%s (member %u) is stale: events %llu, the array is at %llu; not used\n",
				c->path, i, le64_to_cpu(c->sb->events),
				max_events);
			c->use = false;
		} else if ((faulty & (1ULL << i)) && !resuming &&
			   (le32_to_cpu(c->sb->flags) & OREBLK_SB_FL_RECOVERING)) {
			pr_info("%s (member %u) was being rebuilt: resuming at data offset %llu\n",
				c->path, i, le64_to_cpu(c->sb->recovery_offset));
			c->resume = true;
			resuming = true;	/* one rebuild at a time */
		} else if (faulty & (1ULL << i)) {
			pr_warn("%s (member %u) is marked faulty; not used\n",
				c->path, i);
			c->use = false;
		}
	}
	*events = max_events;
	*faulty_map = faulty;
	return 0;
}

static int oreblk_array_setup(struct oreblk_array *arr,
			      const struct oreblk_sb *sb, char *msg)
{
	u32 i;
	int err;

	memcpy(arr->uuid, sb->array_uuid, OREBLK_UUID_SIZE);
	memcpy(arr->name, sb->name, OREBLK_NAME_LEN);
	arr->name[OREBLK_NAME_LEN - 1] = 0;
	arr->nr_members = le32_to_cpu(sb->nr_members);
	arr->data_offset = le64_to_cpu(sb->data_offset);
	arr->data_size = le64_to_cpu(sb->data_size);
	arr->array_size = le64_to_cpu(sb->array_size);
	arr->ctime = le64_to_cpu(sb->ctime);
	arr->csum = le32_to_cpu(sb->csum_type);
	arr->csum_offset = le64_to_cpu(sb->csum_offset);
	oreblk_sb_get_layout(sb, &arr->layout);
	err = ore_verify_layout(arr->nr_members, &arr->layout);
	if (err) {
		oreblk_msg(msg, "bad layout");
		return err;
	}
	arr->redundant = arr->layout.parity || arr->layout.mirrors_p1 > 1;
	arr->members = kcalloc(arr->nr_members, sizeof(*arr->members),
			       GFP_KERNEL);
	arr->stores = kcalloc(arr->nr_members, sizeof(*arr->stores),
			      GFP_KERNEL);
	if (!arr->members || !arr->stores) {
		oreblk_msg(msg, "no memory for %u members", arr->nr_members);
		return -ENOMEM;
	}
	for (i = 0; i < arr->nr_members; i++)
		memcpy(arr->members[i].uuid, sb->member_uuids[i],
		       OREBLK_UUID_SIZE);
	arr->oc.oid = 0;
	arr->oc.numdevs = arr->nr_members;
	arr->oc.first_dev = 0;
	arr->oc.stores = arr->stores;
	return 0;
}

/*
 * Was the array stopped cleanly? The used members' superblocks say (any
 * of them dirty: dirty, from the lowest resync offset). A dirty array
 * resyncs once it runs, or, with the write-intent bitmap, has the regions
 * its bitmaps name repaired before it runs (*@replay); dirty and degraded,
 * it does not start unless forced, or unless its bitmaps are empty (no
 * write was in flight) (docs/oreblk.md).
 */
static int oreblk_assemble_dirty(struct oreblk_array *arr,
				 struct oreblk_cand **slot, u32 active,
				 struct oreblk_ctl_assemble *ca, char *msg,
				 bool *replay, bool *restamp)
{
	u32 regions = 0;
	bool dirty = false;
	u64 off = arr->array_size;
	u32 i;

	for (i = 0; i < arr->nr_members; i++) {
		const struct oreblk_cand *c = slot[i];

		/* a member being rebuilt is no judge: it may have missed it */
		if (!c || !c->use || c->resume ||
		    !(le32_to_cpu(c->sb->array_state) & OREBLK_SB_ST_DIRTY))
			continue;
		dirty = true;
		off = min(off, le64_to_cpu(c->sb->resync_offset));
	}
	if (!dirty || !arr->redundant)
		return 0;
	if (arr->intent) {
		regions = oreblk_intent_read(arr);
		if (!regions) {
			pr_info("oreblk%d: not stopped cleanly, but the write-intent bitmap is empty: no write was in flight, nothing to repair\n",
				arr->index);
			arr->sb_dirty = true;
			return 0;
		}
	}
	if (active < arr->nr_members) {
		if (!(ca->flags & OREBLK_ASSEMBLE_FORCE)) {
			if (arr->intent)
				oreblk_msg(msg, "oreblk%d: cannot start dirty degraded array (not stopped cleanly, %u of %u members, writes were in flight in %u regions): parity may be stale there; --force starts it",
					   arr->index, active, arr->nr_members,
					   regions);
			else
				oreblk_msg(msg, "oreblk%d: cannot start dirty degraded array (not stopped cleanly, %u of %u members): parity may be stale; --force starts it",
					   arr->index, active, arr->nr_members);
			return -EIO;
		}
		pr_crit("oreblk%d: starting dirty degraded array - data corruption possible (%u of %u members in service; no resync)\n",
			arr->index, active, arr->nr_members);
		/* what can be done: checksums in step with the data */
		*restamp = arr->intent && arr->csum;
	} else if (arr->intent) {
		*replay = true;
	} else {
		arr->resync_pending = true;
		arr->resync_pos = off;
		pr_info("oreblk%d: not stopped cleanly: resync from array offset %llu\n",
			arr->index, off);
	}
	arr->sb_dirty = true;
	arr->sb_resync_offset = off;
	return 0;
}

/**
 * oreblk_assemble - build an array from the devices named in @ca
 * @ca: the request; @ca->index is the N to use; @ca->msg gets the reason
 *	of a failure
 * @paths: @ca->paths_len bytes: the member paths, NUL terminated each
 * @parr: receives the array, its members open (no disk yet)
 *
 * Return: 0 or a negative errno (see &struct oreblk_ctl_assemble).
 */
int oreblk_assemble(struct oreblk_ctl_assemble *ca, char *paths,
		    struct oreblk_array **parr)
{
	DECLARE_BITMAP(lost, OREBLK_MAX_MEMBERS);
	struct oreblk_cand *cands, *slot[OREBLK_MAX_MEMBERS] = { };
	char *msg = ca->msg;
	struct oreblk_array *arr;
	bool newly_lost = false, replay = false, restamp = false;
	u32 n = ca->nr_paths, i, active = 0;
	u64 events, faulty;
	int err;

	arr = kzalloc(sizeof(*arr), GFP_KERNEL);
	cands = kcalloc(n, sizeof(*cands), GFP_KERNEL);
	if (arr)
		arr->sb_page = alloc_page(GFP_KERNEL | __GFP_ZERO);
	if (arr && arr->sb_page && init_srcu_struct(&arr->store_srcu)) {
		__free_page(arr->sb_page);
		arr->sb_page = NULL;
	}
	if (!arr || !cands || !arr->sb_page) {
		if (arr && arr->sb_page) {
			cleanup_srcu_struct(&arr->store_srcu);
			__free_page(arr->sb_page);
		}
		kfree(arr);
		kfree(cands);
		oreblk_msg(msg, "no memory");
		return -ENOMEM;
	}
	arr->index = ca->index;
	mutex_init(&arr->sb_mutex);
	mutex_init(&arr->sync_mutex);
	arr->sync_speed_min = OREBLK_SYNC_SPEED_MIN;
	INIT_WORK(&arr->fail_work, oreblk_fail_work);
	spin_lock_init(&arr->hold_lock);
	INIT_LIST_HEAD(&arr->held);
	INIT_LIST_HEAD(&arr->retired);
	atomic_set(&arr->nr_failed, 0);

	err = oreblk_parse_paths(ca, paths, cands, msg);
	if (err)
		goto out;
	for (i = 0; i < n; i++) {
		err = oreblk_cand_open(arr, &cands[i], msg);
		if (err)
			goto out;
	}
	err = oreblk_pick_members(cands, n, slot, &events, &faulty, msg);
	if (err)
		goto out;
	err = oreblk_array_setup(arr, cands[0].sb, msg);
	if (err)
		goto out;
	arr->events = events;
	if (le32_to_cpu(cands[0].sb->consistency) == OREBLK_CONSISTENCY_INTENT) {
		err = oreblk_intent_create(arr, cands[0].sb);
		if (err) {
			oreblk_msg(msg, "no memory for the write-intent bitmap");
			goto out;
		}
	}

	bitmap_zero(lost, OREBLK_MAX_MEMBERS);
	for (i = 0; i < arr->nr_members; i++)
		if (!slot[i] || !slot[i]->use || slot[i]->resume)
			__set_bit(i, lost);
	if (!oreblk_array_viable(arr, lost)) {
		oreblk_msg(msg, "too many members missing: %u of %u usable (%*pbl missing), %s keeps its data with %u lost per group at most",
			   arr->nr_members - bitmap_weight(lost, arr->nr_members),
			   arr->nr_members, arr->nr_members, lost,
			   ore_layout_raid_name(arr->layout.raid_algorithm,
						arr->layout.mirrors_p1),
			   arr->layout.parity);
		err = -ENXIO;
		goto out;
	}

	for (i = 0; i < arr->nr_members; i++) {
		struct oreblk_member *m = &arr->members[i];
		struct oreblk_cand *c = slot[i];

		if (test_bit(i, lost) && !(c && c->resume)) {
			char name[24];

			snprintf(name, sizeof(name), "missing-%u", i);
			m->store = ore_missing_store_create(name);
			if (IS_ERR(m->store)) {
				err = PTR_ERR(m->store);
				m->store = NULL;
				oreblk_msg(msg, "no memory");
				goto out;
			}
			__set_bit(OREBLK_M_MISSING, &m->flags);
			atomic_inc(&arr->nr_failed);
			continue;
		}
		strscpy(m->path, c->path, sizeof(m->path));
		/* the device open for the superblock: not opened again */
		m->store = oreblk_open_store(arr, c->file);
		if (IS_ERR(m->store)) {
			err = PTR_ERR(m->store);
			m->store = NULL;
			oreblk_msg(msg, "%s: cannot open it as an ORE block store: %d",
				   c->path, err);
			goto out;
		}
		m->sb_file = c->file;
		c->file = NULL;
		if (c->resume) {
			/* rebuilt below its offset: recover.c goes on from there */
			arr->sync_checkpoint = le64_to_cpu(c->sb->recovery_offset);
			ore_store_set_state(m->store, ORE_STORE_REBUILDING);
			ore_store_set_recovery_offset(m->store,
						      arr->sync_checkpoint);
			__set_bit(OREBLK_M_REBUILDING, &m->flags);
			atomic_inc(&arr->nr_failed);
			continue;
		}
		active++;
	}
	err = oreblk_assemble_dirty(arr, slot, active, ca, msg, &replay,
				    &restamp);
	if (err)
		goto out;
	for (i = 0; i < arr->nr_members; i++) {
		arr->stores[i] = arr->members[i].store;
		/* lost now but not on disk yet: say so on disk */
		if (test_bit(i, lost) && !(faulty & (1ULL << i)) &&
		    !test_bit(OREBLK_M_REBUILDING, &arr->members[i].flags))
			newly_lost = true;
	}

	err = oreblk_locks_init(&arr->locks);
	if (err) {
		oreblk_msg(msg, "no memory for the stripe locks");
		goto out;
	}
	oreblk_cache_init(&arr->cache, &arr->layout,
			  arr->layout.parity ? OREBLK_CACHE_DEFAULT : 0);
	oreblk_dirty_init(arr);
	if (replay) {
		/* before any I/O: the redundancy agrees before a member goes */
		err = oreblk_intent_replay(arr);
		if (err) {
			oreblk_msg(msg, "oreblk%d: the repair of the regions written at the crash failed: %d",
				   arr->index, err);
			goto out;
		}
	}
	if (restamp) {
		err = oreblk_intent_restamp(arr);
		if (err) {
			oreblk_msg(msg, "oreblk%d: restamping the checksums of the regions written at the crash failed: %d",
				   arr->index, err);
			goto out;
		}
	}
	if (newly_lost) {
		mutex_lock(&arr->sb_mutex);
		oreblk_write_sbs(arr);
		mutex_unlock(&arr->sb_mutex);
	}
	ca->nr_members = arr->nr_members;
	ca->nr_active = active;
	if (active < arr->nr_members)
		snprintf(msg, OREBLK_MSG_LEN, "started degraded: %u of %u members",
			 active, arr->nr_members);
	pr_info("oreblk%d: %s, %u members (%u in service), chunk %u KiB, %llu bytes, events %llu\n",
		arr->index,
		ore_layout_raid_name(arr->layout.raid_algorithm,
				     arr->layout.mirrors_p1),
		arr->nr_members, active, arr->layout.stripe_unit >> 10,
		arr->array_size, arr->events);
	*parr = arr;
	err = 0;
out:
	for (i = 0; i < n; i++)
		oreblk_cand_close(&cands[i]);
	kfree(cands);
	if (err)
		oreblk_array_free(arr);
	return err;
}

/**
 * oreblk_array_free - close the members and free an array without a disk
 * @arr: the array
 */
void oreblk_array_free(struct oreblk_array *arr)
{
	u32 i;

	if (!arr)
		return;
	oreblk_recovery_stop(arr);
	/* a failure not on disk yet is written before the members close */
	flush_work(&arr->fail_work);
	oreblk_intent_free(arr);
	for (i = 0; arr->members && i < arr->nr_members; i++) {
		struct oreblk_member *m = &arr->members[i];

		ore_store_put(m->store);
		if (m->sb_file)
			bdev_fput(m->sb_file);
	}
	oreblk_free_retired(&arr->retired);
	if (arr->locks.buckets) {
		oreblk_locks_destroy(&arr->locks);
		oreblk_cache_destroy(&arr->cache);
	}
	kfree(arr->members);
	kfree(arr->stores);
	__free_page(arr->sb_page);
	cleanup_srcu_struct(&arr->store_srcu);
	mutex_destroy(&arr->sync_mutex);
	mutex_destroy(&arr->sb_mutex);
	kfree(arr);
}

/**
 * oreblk_fill_detail - describe a running array
 * @arr: the array
 * @cd: filled in (all but @cd->index)
 */
void oreblk_fill_detail(struct oreblk_array *arr, struct oreblk_ctl_detail *cd)
{
	const struct ore_layout *l = &arr->layout;
	struct ore_store *store;
	int idx;
	u32 i;

	cd->nr_members = arr->nr_members;
	memcpy(cd->array_uuid, arr->uuid, OREBLK_UUID_SIZE);
	memcpy(cd->name, arr->name, OREBLK_NAME_LEN);
	cd->raid_algorithm = l->raid_algorithm;
	cd->stripe_unit = l->stripe_unit;
	cd->group_width = l->group_width;
	cd->group_depth = l->group_depth;
	cd->group_count = l->group_count;
	cd->mirrors_p1 = l->mirrors_p1;
	cd->nr_failed = atomic_read(&arr->nr_failed);
	cd->array_size = arr->array_size;
	cd->data_offset = arr->data_offset;
	cd->data_size = arr->data_size;
	mutex_lock(&arr->sb_mutex);
	cd->events = arr->events;
	mutex_unlock(&arr->sb_mutex);
	cd->cache_size = READ_ONCE(arr->cache.size);
	cd->cache_active = oreblk_cache_active(&arr->cache);
	cd->cache_hits = atomic64_read(&arr->cache.hits);
	cd->cache_misses = atomic64_read(&arr->cache.misses);
	idx = srcu_read_lock(&arr->store_srcu);
	for (i = 0; i < arr->nr_members; i++) {
		const struct oreblk_member *m = &arr->members[i];
		struct oreblk_ctl_member *cm = &cd->members[i];

		if (test_bit(OREBLK_M_MISSING, &m->flags))
			cm->state = OREBLK_MEMBER_MISSING;
		else if (test_bit(OREBLK_M_FAULTY, &m->flags))
			cm->state = OREBLK_MEMBER_FAULTY;
		else if (test_bit(OREBLK_M_REBUILDING, &m->flags))
			cm->state = OREBLK_MEMBER_REBUILDING;
		else if (test_bit(OREBLK_M_REPLACING, &m->flags))
			cm->state = OREBLK_MEMBER_REPLACING;
		else
			cm->state = OREBLK_MEMBER_ACTIVE;
		store = READ_ONCE(m->store);
		cm->errors = store ? atomic_read(&store->nr_errors) : 0;
		memcpy(cm->uuid, m->uuid, OREBLK_UUID_SIZE);
		strscpy(cm->path, m->path, sizeof(cm->path));
	}
	srcu_read_unlock(&arr->store_srcu, idx);
}
