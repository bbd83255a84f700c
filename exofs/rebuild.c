// SPDX-License-Identifier: GPL-2.0
/*
 * exofs rebuild and scrub: a new, empty store takes the slot of a failed
 * one and a kernel thread rebuilds every object's component onto it while
 * the filesystem serves I/O; another thread checks (and repairs) the
 * redundancy of every object (ore_scrub()), walking the objects the same
 * way.
 *
 * Taking the store in (exofs_replace_store(), from a write to
 * /sys/fs/exofs/<uuid>/replace): the directory must hold the stub that
 * mkfs.exofs --replace writes (include/exofs/exofs_fs.h,
 * EXOFS_STATE_REPLACEMENT) for this filesystem and slot. Its store UUID
 * goes into the device table with EXOFS_DEV_FL_FAILED and
 * EXOFS_DEV_FL_REBUILDING, the store becomes ORE_STORE_REBUILDING (every
 * write reaches it, nothing reads it: its recovery offset stays 0 until
 * the end, since the rebuild goes object by object, not by offset) and
 * the superblocks are written, its own a full copy.
 *
 * The thread (exofs_rebuild_thread()) rebuilds the inode table, the inode
 * bitmap, then the object of every inode whose bit is set, in inode
 * order. For each it creates the component on the new store (empty) and
 * runs ore_rebuild() over the component's rows (ore_layout_comp_stripes())
 * up to what the other components of its group hold, a few stripes a
 * step. Each step holds the inode's i_rwsem (no truncate, no size change)
 * and exofs_wb_exclude() (no writeback of the object): nothing writes the
 * stripes it reads and rewrites. Between steps writes go on, to the new
 * store too; rows not rebuilt yet are rebuilt later from the others, which
 * hold those writes. Objects made meanwhile are created on the new store
 * by ore_create() or by their writes. The component is then cut to the
 * length the kernel writes for the inode's size (docs/exofs-format.md).
 * With sized components (EXOFS_FEATURE_RO_COMPAT_SIZED) a component that
 * the extent known made does not reach is neither created nor rebuilt:
 * writes that reach it later make it.
 *
 * Every EXOFS_REBUILD_CKPT_SECS the new store is flushed and the device
 * table records how far the rebuild is (exofs_dev_entry.rebuild_ino); a
 * mount that finds a store rebuilding starts the thread again from there
 * (exofs_rebuild_resume()). At the end the store is flushed, becomes in
 * sync, and the superblocks record it (both flags cleared).
 *
 * Scrub (exofs_scrub_start(), from /sys/fs/exofs/<uuid>/scrub): with every
 * store in service, the inode table, the bitmap and every inode's object,
 * whole stripes up to the furthest row any component holds, a few stripes
 * a step under the same exclusion as a rebuild step; "check" counts the
 * pages whose mirrors or parity disagree, "repair" rewrites the other
 * copies and the parity (md's semantics, see ore_scrub()).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/fs.h>
#include <linux/kthread.h>
#include <linux/pagemap.h>
#include <linux/slab.h>
#include <linux/highmem.h>
#include <linux/bitops.h>

#include "exofs.h"

/* Bytes of stripes rebuilt per step (at least one stripe). */
#define EXOFS_REBUILD_STEP	SZ_1M
/* Seconds between two checkpoints in the superblocks. */
#define EXOFS_REBUILD_CKPT_SECS	5

static const char * const exofs_rebuild_state_name[] = {
	[EXOFS_REBUILD_IDLE]	= "idle",
	[EXOFS_REBUILD_RUNNING]	= "running",
	[EXOFS_REBUILD_DONE]	= "done",
	[EXOFS_REBUILD_STOPPED]	= "stopped",
	[EXOFS_REBUILD_FAILED]	= "failed",
};

/* ------------------------------------------------------------------ */
/* one object */

/* The component of @oc on store @idx, or -1 when the object has none there. */
static int exofs_comp_on_store(struct exofs_sb_info *sbi,
			       const struct ore_components *oc, u32 idx)
{
	u32 comp = (idx + oc->numdevs - oc->first_dev) % oc->numdevs;

	return comp < sbi->layout.num_comps ? (int)comp : -1;
}

/*
 * Bytes of component @comp to rebuild: the longest readable component of
 * its group, up to a whole row (parity covers every row with data, a
 * mirror is as long as its copy).
 */
static u64 exofs_rebuild_extent(struct exofs_sb_info *sbi,
				struct ore_components *oc, u32 comp)
{
	const struct ore_layout *l = &sbi->layout;
	u32 per_group = l->group_width * l->mirrors_p1;
	u32 first = comp / per_group * per_group, c;
	u64 max = 0;

	for (c = first; c < first + per_group; c++) {
		struct ore_store *store = ore_comp_store(oc, c);
		u64 len;

		if (c == comp || !ore_store_readable(store, 0, U64_MAX) ||
		    store->ops->length(store, oc->oid, &len))
			continue;
		max = max(max, len);
	}
	return round_up(max, l->stripe_unit);
}

static void exofs_rebuild_dev_error(struct ore_io_state *ios, u32 comp,
				    struct ore_store *store, u64 offset,
				    int error)
{
	exofs_io_error(ios, comp, store, offset, error);
}

/* Create component @comp of @inode's object on the new store, empty. */
static int exofs_rebuild_create(struct exofs_rebuild *rb, struct inode *inode,
				struct ore_store *store)
{
	u64 oid = exofs_i(inode)->oc.oid;
	int err;

	err = store->ops->create(store, oid);
	if (err == -EEXIST)	/* written meanwhile, or an earlier attempt */
		err = store->ops->truncate(store, oid, 0);
	if (err)
		pr_err("%s: rebuild: cannot create object 0x%llx (inode %lu) on store %u (%s): %d\n",
		       inode->i_sb->s_id, oid, inode->i_ino, rb->store,
		       store->name, err);
	return err;
}

/*
 * The end of a component: cut it to what the kernel writes for the size
 * (whole rows were rebuilt). Not for the internal inodes (their size is
 * that of the whole table: nothing to cut).
 */
static int exofs_rebuild_cut(struct exofs_sb_info *sbi, struct inode *inode,
			     u32 comp, struct ore_store *store, u64 written)
{
	u64 oid = exofs_i(inode)->oc.oid, want;
	int err;

	if (inode->i_ino == EXOFS_ITABLE_INO ||
	    inode->i_ino == EXOFS_IBITMAP_INO)
		return 0;
	want = ore_layout_obj_size(&sbi->layout, comp,
				   round_up(i_size_read(inode), PAGE_SIZE));
	want = round_up(want, PAGE_SIZE);
	if (written <= want)
		return 0;
	err = store->ops->truncate(store, oid, want);
	if (err)
		pr_err("%s: rebuild: cannot cut object 0x%llx (inode %lu) on store %s to %llu: %d\n",
		       sbi->sb->s_id, oid, inode->i_ino, store->name, want, err);
	return err;
}

/*
 * Keep pNFS clients off @inode's components while a step of a rebuild or
 * scrub reads and rewrites them (the inode locked; the lock is dropped
 * while a recall waits): a regular file's layouts are recalled (their
 * holders write the components directly) and what the stores over NFS
 * cache of it is let go (exofs_pnfs_refresh()). 0 or the error.
 */
static int exofs_step_exclusive(struct inode *inode)
{
	bool dropped = false;
	int err = 0;

	if (S_ISREG(inode->i_mode))
		err = exofs_break_layouts(inode, &dropped);
	if (!err)
		err = exofs_pnfs_refresh(inode, false);
	return err;
}

/*
 * One step of @inode's rebuild from component offset *@done on, under the
 * inode lock and with its writeback kept out. Sets *@over when the
 * component is complete.
 */
static int exofs_rebuild_step(struct exofs_sb_info *sbi,
			      struct exofs_rebuild *rb, struct inode *inode,
			      u32 comp, u64 *done, bool *over)
{
	const struct ore_layout *l = &sbi->layout;
	struct exofs_i_info *oi = exofs_i(inode);
	struct ore_store *store = sbi->ore_stores[rb->store];
	struct exofs_io io = { .inode = inode };
	u64 want, loff, rows;
	int err;

	inode_lock(inode);
	err = exofs_step_exclusive(inode);
	if (err) {
		inode_unlock(inode);
		return err;
	}
	exofs_wb_exclude(inode);
	/* sized components: one the size does not reach has nothing */
	if (!*done && oi->oc.sized &&
	    !ore_layout_obj_size(l, comp, READ_ONCE(oi->oc.made))) {
		*over = true;
		goto out;
	}
	if (!*done) {
		err = exofs_rebuild_create(rb, inode, store);
		if (err)
			goto out;
	}
	want = exofs_rebuild_extent(sbi, &oi->oc, comp);
	if (*done >= want) {
		err = exofs_rebuild_cut(sbi, inode, comp, store, *done);
		*over = true;
		goto out;
	}
	loff = ore_layout_comp_stripes(l, comp, *done,
				       min_t(u64, rb->max_rows,
					     div64_u64(want - *done,
						       l->stripe_unit)),
				       &rows);
	err = ore_rebuild(l, &oi->oc, loff, rows * l->stripe_length,
			  exofs_rebuild_dev_error, &io);
	if (!err) {
		*done += rows * l->stripe_unit;
		atomic64_add(rows * l->stripe_unit, &rb->bytes);
	}
out:
	exofs_wb_allow(inode);
	inode_unlock(inode);
	return err;
}

/*
 * Keep the rebuild at or below rebuild_speed_max (KiB/s, 0: no limit):
 * sleep until the bytes written since the start are within it.
 * kthread_stop() wakes it.
 */
static void exofs_rebuild_throttle(struct exofs_sb_info *sbi,
				   struct exofs_rebuild *rb)
{
	unsigned int max = READ_ONCE(sbi->rebuild_speed_max);
	unsigned long due;

	if (!max)
		return;
	due = rb->start + msecs_to_jiffies(div64_u64(atomic64_read(&rb->bytes),
						     max) * 1000 / 1024);
	while (time_before(jiffies, due) && !kthread_should_stop()) {
		set_current_state(TASK_INTERRUPTIBLE);
		if (!kthread_should_stop())
			schedule_timeout(min(due - jiffies, (unsigned long)HZ));
		__set_current_state(TASK_RUNNING);
		if (!READ_ONCE(sbi->rebuild_speed_max))
			break;
	}
}

/* Rebuild @inode's component on the new store; 0 or the error. */
static int exofs_rebuild_inode(struct exofs_sb_info *sbi,
			       struct exofs_rebuild *rb, struct inode *inode)
{
	struct ore_store *store = sbi->ore_stores[rb->store];
	int comp = exofs_comp_on_store(sbi, &exofs_i(inode)->oc, rb->store);
	bool over = false;
	u64 done = 0;
	int err;

	if (comp < 0)
		return 0;
	while (!over) {
		if (kthread_should_stop())
			return -EINTR;
		if (ore_store_failed(store))
			return -EIO;
		err = exofs_rebuild_step(sbi, rb, inode, comp, &done, &over);
		if (err)
			return err;
		exofs_rebuild_throttle(sbi, rb);
		cond_resched();
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* the walk */

/*
 * The in-memory inode of @ino when it has an object, else NULL (free
 * record, no object); an ERR_PTR when it cannot be read.
 */
static struct inode *exofs_rebuild_iget(struct super_block *sb,
					unsigned long ino)
{
	struct exofs_inode *rec;
	struct inode *inode;
	struct folio *folio;
	bool is_free;

	inode = ilookup(sb, ino);
	if (!inode) {
		folio = exofs_get_record(sb, ino, &rec);
		if (IS_ERR(folio))
			return ERR_CAST(folio);
		is_free = exofs_inode_is_free(rec);
		folio_release_kmap(folio, rec);
		if (is_free)
			return NULL;
		inode = exofs_iget(sb, ino);
		if (IS_ERR(inode))
			return inode;
	}
	if (!(exofs_i(inode)->i_flags & EXOFS_INODE_FL_OBJECT)) {
		iput(inode);
		return NULL;
	}
	return inode;
}

/*
 * Record in the superblocks that everything below inode @pos is rebuilt,
 * once it is on stable storage.
 */
static int exofs_rebuild_checkpoint(struct exofs_sb_info *sbi,
				    struct exofs_rebuild *rb, u64 pos)
{
	struct ore_store *store = sbi->ore_stores[rb->store];
	int err;

	err = store->ops->flush(store, 0);
	if (err)
		return err;
	mutex_lock(&sbi->sb_mutex);
	sbi->rebuild_ckpt = pos;
	mutex_unlock(&sbi->sb_mutex);
	rb->ckpt_time = jiffies;
	return exofs_write_supers(sbi, EXOFS_STATE_DIRTY, false);
}

/* The next inode number >= @ino whose bitmap bit is set, or @limit. */
static u64 exofs_next_used(struct exofs_sb_info *sbi, u64 ino, u64 limit,
			   int *err)
{
	const u64 per_page = PAGE_SIZE * 8;

	*err = 0;
	while (ino < limit) {
		pgoff_t index = ino / per_page;
		u64 base = (u64)index * per_page;
		unsigned long n = min_t(u64, per_page, limit - base), bit;
		struct folio *folio;
		void *kaddr;

		folio = read_mapping_folio(sbi->ibitmap->i_mapping, index, NULL);
		if (IS_ERR(folio)) {
			*err = PTR_ERR(folio);
			return limit;
		}
		kaddr = kmap_local_folio(folio, 0);
		bit = find_next_bit_le(kaddr, n, ino - base);
		folio_release_kmap(folio, kaddr);
		if (bit < n)
			return base + bit;
		ino = base + per_page;
		cond_resched();
	}
	return limit;
}

/*
 * Inode numbers to look at: up to what the bitmap's components hold. A
 * bit beyond was set after the store became REBUILDING (the bitmap was
 * written back first), so its object was created on the new store.
 */
static u64 exofs_rebuild_limit(struct exofs_sb_info *sbi)
{
	const struct ore_layout *l = &sbi->layout;
	struct ore_components *oc = &exofs_i(sbi->ibitmap)->oc;
	u64 rows = 0, bytes;
	u32 c;

	for (c = 0; c < l->num_comps; c++) {
		struct ore_store *store = ore_comp_store(oc, c);
		u64 len;

		if (!ore_store_readable(store, 0, U64_MAX) ||
		    store->ops->length(store, oc->oid, &len))
			continue;
		rows = max(rows, DIV_ROUND_UP_ULL(len, l->stripe_unit));
	}
	bytes = DIV_ROUND_UP_ULL(rows, l->group_depth) * l->super_stripe;
	return min_t(u64, sbi->max_ino, bytes * 8);
}

static int exofs_rebuild_run(struct exofs_sb_info *sbi,
			     struct exofs_rebuild *rb)
{
	struct super_block *sb = sbi->sb;
	u64 ino = rb->pos, limit;
	int err;

	if (!ino) {
		err = filemap_write_and_wait(sbi->ibitmap->i_mapping);
		if (!err)
			err = exofs_rebuild_inode(sbi, rb, sbi->itable);
		if (!err)
			err = exofs_rebuild_inode(sbi, rb, sbi->ibitmap);
		if (err)
			return err;
		atomic64_add(2, &rb->objects);
		ino = EXOFS_ROOT_INO;
		rb->pos = ino;
	} else {
		err = filemap_write_and_wait(sbi->ibitmap->i_mapping);
		if (err)
			return err;
	}
	limit = exofs_rebuild_limit(sbi);
	for (;;) {
		struct inode *inode;

		ino = exofs_next_used(sbi, ino, limit, &err);
		if (err)
			return err;
		if (ino >= limit)
			break;
		inode = exofs_rebuild_iget(sb, ino);
		if (IS_ERR(inode)) {
			/* fsck's business; its object cannot be found */
			pr_warn("%s: rebuild: inode %llu cannot be read (%ld): its object is not rebuilt\n",
				sb->s_id, ino, PTR_ERR(inode));
			atomic64_inc(&rb->skipped);
		} else if (inode) {
			err = exofs_rebuild_inode(sbi, rb, inode);
			iput(inode);
			if (err)
				return err;
		}
		atomic64_inc(&rb->objects);
		rb->pos = ++ino;
		if (time_after(jiffies, rb->ckpt_time +
			       EXOFS_REBUILD_CKPT_SECS * HZ)) {
			err = exofs_rebuild_checkpoint(sbi, rb, rb->pos);
			if (err)
				return err;
		}
	}
	return sbi->ore_stores[rb->store]->ops->flush(sbi->ore_stores[rb->store],
						       0);
}

/* The store is rebuilt: in sync, and the superblocks say so. */
static void exofs_rebuild_finish(struct exofs_sb_info *sbi,
				 struct exofs_rebuild *rb)
{
	struct ore_store *store = sbi->ore_stores[rb->store];
	bool ok = false;

	spin_lock_irq(&sbi->fail_lock);
	if (READ_ONCE(sbi->stores[rb->store].state) == EXOFS_STORE_REBUILDING) {
		WRITE_ONCE(sbi->stores[rb->store].state, EXOFS_STORE_OK);
		ore_store_set_state(store, ORE_STORE_IN_SYNC);
		ok = true;
	}
	spin_unlock_irq(&sbi->fail_lock);
	if (!ok) {
		WRITE_ONCE(rb->state, EXOFS_REBUILD_FAILED);
		rb->result = -EIO;
		return;
	}
	mutex_lock(&sbi->sb_mutex);
	sbi->rebuild_ckpt = 0;
	mutex_unlock(&sbi->sb_mutex);
	if (exofs_write_supers(sbi, EXOFS_STATE_DIRTY, false))
		pr_err("%s: store %u rebuilt, but no superblock could record it\n",
		       sbi->sb->s_id, rb->store);
	WRITE_ONCE(rb->state, EXOFS_REBUILD_DONE);
}

static int exofs_rebuild_thread(void *data)
{
	struct exofs_sb_info *sbi = data;
	struct exofs_rebuild *rb = sbi->rebuild;
	u32 idx = rb->store;
	int err;

	pr_info("%s: rebuild of store %u (%s) started at inode %llu\n",
		sbi->sb->s_id, idx, sbi->stores[idx].path, rb->pos);
	rb->ckpt_time = jiffies;
	err = exofs_rebuild_run(sbi, rb);
	rb->result = err;
	if (!err) {
		exofs_rebuild_finish(sbi, rb);
		pr_info("%s: rebuild of store %u (%s) done in %u s: %lld objects, %lld bytes; store in sync\n",
			sbi->sb->s_id, idx, sbi->stores[idx].path,
			jiffies_to_msecs(jiffies - rb->start) / 1000,
			atomic64_read(&rb->objects), atomic64_read(&rb->bytes));
	} else if (err == -EINTR) {
		/* what is done so far counts at the next mount */
		if (!ore_store_failed(sbi->ore_stores[idx]))
			exofs_rebuild_checkpoint(sbi, rb, rb->pos);
		WRITE_ONCE(rb->state, EXOFS_REBUILD_STOPPED);
		pr_info("%s: rebuild of store %u stopped at inode %llu: it goes on from there at the next mount\n",
			sbi->sb->s_id, idx, rb->pos);
	} else {
		WRITE_ONCE(rb->state, EXOFS_REBUILD_FAILED);
		exofs_store_failed(sbi, idx);
		pr_err("%s: rebuild of store %u (%s) failed at inode %llu: %d; the store is out of service\n",
		       sbi->sb->s_id, idx, sbi->stores[idx].path, rb->pos, err);
	}
	WRITE_ONCE(rb->end, jiffies ? : 1);
	return err;
}

/* ------------------------------------------------------------------ */
/* starting, stopping */

static void exofs_rebuild_free(struct exofs_rebuild *rb)
{
	if (!rb)
		return;
	if (rb->task)
		put_task_struct(rb->task);
	kfree(rb);
}

static struct exofs_rebuild *exofs_rebuild_alloc(struct exofs_sb_info *sbi)
{
	u64 U = sbi->layout.stripe_length;
	struct exofs_rebuild *rb;

	rb = kzalloc(sizeof(*rb), GFP_KERNEL);
	if (!rb)
		return NULL;
	rb->max_rows = max_t(u64, 1, div64_u64(EXOFS_REBUILD_STEP, U));
	return rb;
}

/*
 * Start the thread for store @idx (REBUILDING) from inode checkpoint
 * @pos. Under &exofs_sb_info.rebuild_mutex.
 */
static int exofs_rebuild_start(struct exofs_sb_info *sbi, u32 idx, u64 pos)
{
	struct exofs_rebuild *rb;
	int err;

	lockdep_assert_held(&sbi->rebuild_mutex);
	rb = exofs_rebuild_alloc(sbi);
	if (!rb)
		return -ENOMEM;
	rb->store = idx;
	rb->pos = pos;
	rb->start = jiffies;
	rb->total = READ_ONCE(sbi->used_inodes) + 2;
	rb->state = EXOFS_REBUILD_RUNNING;
	exofs_rebuild_free(sbi->rebuild);	/* the one before, over */
	sbi->rebuild = rb;
	rb->task = kthread_create(exofs_rebuild_thread, sbi, "exofs_rebuild");
	if (IS_ERR(rb->task)) {
		err = PTR_ERR(rb->task);
		rb->task = NULL;
		rb->state = EXOFS_REBUILD_FAILED;
		rb->result = err;
		return err;
	}
	get_task_struct(rb->task);
	wake_up_process(rb->task);
	return 0;
}

/**
 * exofs_rebuild_stop - stop a running rebuild (unmount, remount read-only)
 * @sbi: the filesystem
 *
 * The store stays rebuilding, in memory and in the superblocks, with the
 * checkpoint the thread wrote as it stopped.
 */
void exofs_rebuild_stop(struct exofs_sb_info *sbi)
{
	struct exofs_rebuild *rb;

	mutex_lock(&sbi->rebuild_mutex);
	sbi->rebuild_blocked = true;
	rb = sbi->rebuild;
	if (rb && rb->task) {
		kthread_stop(rb->task);
		put_task_struct(rb->task);
		rb->task = NULL;
	}
	if (sbi->scrub && sbi->scrub->task) {
		kthread_stop(sbi->scrub->task);
		put_task_struct(sbi->scrub->task);
		sbi->scrub->task = NULL;
	}
	mutex_unlock(&sbi->rebuild_mutex);
}

static void exofs_scrub_free(struct exofs_scrub *sc)
{
	if (sc && sc->task)
		put_task_struct(sc->task);
	kfree(sc);
}

/**
 * exofs_rebuild_release - free what the last rebuild and scrub left
 * @sbi: the filesystem, unmounting (exofs_rebuild_stop() called)
 */
void exofs_rebuild_release(struct exofs_sb_info *sbi)
{
	exofs_rebuild_free(sbi->rebuild);
	sbi->rebuild = NULL;
	exofs_scrub_free(sbi->scrub);
	sbi->scrub = NULL;
}

/**
 * exofs_rebuild_resume - start the rebuild of a store found rebuilding
 * @sbi: a filesystem mounted (or remounted) read-write
 *
 * Return: 0 (also when no store is rebuilding) or the start's error.
 */
int exofs_rebuild_resume(struct exofs_sb_info *sbi)
{
	int err = 0;
	u32 i;

	mutex_lock(&sbi->rebuild_mutex);
	sbi->rebuild_blocked = false;
	if (sbi->rebuild && READ_ONCE(sbi->rebuild->state) ==
	    EXOFS_REBUILD_RUNNING)
		goto out;
	for (i = 0; i < sbi->num_stores; i++)
		if (READ_ONCE(sbi->stores[i].state) == EXOFS_STORE_REBUILDING)
			break;
	if (i == sbi->num_stores)
		goto out;
	pr_info("%s: store %u (%s) is being rebuilt: going on from inode %llu\n",
		sbi->sb->s_id, i, sbi->stores[i].path, sbi->rebuild_ckpt);
	err = exofs_rebuild_start(sbi, i, sbi->rebuild_ckpt);
	if (err)
		pr_err("%s: cannot start the rebuild of store %u: %d\n",
		       sbi->sb->s_id, i, err);
out:
	mutex_unlock(&sbi->rebuild_mutex);
	return err;
}

/* ------------------------------------------------------------------ */
/* taking a replacement store in */

/*
 * Open @path and check that it holds the replacement stub for slot @idx of
 * this filesystem; its store UUID in @uuid.
 */
static struct ore_store *exofs_open_replacement(struct exofs_sb_info *sbi,
						u32 idx, const char *path,
						u8 *uuid)
{
	struct exofs_dev_entry *dt = exofs_devtable(sbi->sb_buf);
	struct ore_store *store;
	struct exofs_fsb *f;
	struct page *page;
	const char *why;
	int err;
	u32 i;

	store = ore_file_store_open(path);
	if (IS_ERR(store)) {
		pr_err("%s: replace store %u: cannot open %s: %ld\n",
		       sbi->sb->s_id, idx, path, PTR_ERR(store));
		return store;
	}
	page = alloc_page(GFP_KERNEL);
	if (!page) {
		err = -ENOMEM;
		goto fail;
	}
	err = exofs_read_sb(store, page);
	f = page_address(page);
	if (err) {
		pr_err("%s: replace store %u: cannot read the superblock of %s: %d\n",
		       sbi->sb->s_id, idx, path, err);
		goto fail;
	}
	err = -EINVAL;
	if (exofs_sb_replacement_check(f, &why)) {
		pr_err("%s: replace store %u: %s holds no replacement store (%s): make it with mkfs.exofs --replace %u --uuid %pU\n",
		       sbi->sb->s_id, idx, path, why, idx, &sbi->uuid);
		goto fail;
	}
	if (memcmp(f->s_uuid, sbi->uuid.b, EXOFS_UUID_SIZE)) {
		pr_err("%s: replace store %u: %s is a replacement for filesystem %pU, not %pU\n",
		       sbi->sb->s_id, idx, path, f->s_uuid, &sbi->uuid);
		goto fail;
	}
	if (le32_to_cpu(f->s_store_index) != idx) {
		pr_err("%s: replace store %u: %s was made for slot %u\n",
		       sbi->sb->s_id, idx, path, le32_to_cpu(f->s_store_index));
		goto fail;
	}
	for (i = 0; i < sbi->num_stores; i++)
		if (!memcmp(dt[i].uuid, f->s_store_uuid, EXOFS_UUID_SIZE)) {
			pr_err("%s: replace store %u: %s has the UUID of store %u: was it taken in already?\n",
			       sbi->sb->s_id, idx, path, i);
			goto fail;
		}
	err = exofs_csum_enable_store(sbi, store);
	if (err)
		goto fail;
	memcpy(uuid, f->s_store_uuid, EXOFS_UUID_SIZE);
	__free_page(page);
	return store;
fail:
	if (page)
		__free_page(page);
	ore_store_put(store);
	return ERR_PTR(err);
}

/* "PATH:PATH:..." of the stores as they are now ("missing" for none). */
static char *exofs_stores_string(struct exofs_sb_info *sbi)
{
	size_t len = 1;
	char *s, *p;
	u32 i;

	for (i = 0; i < sbi->num_stores; i++)
		len += strlen(sbi->stores[i].path ? : "missing") + 1;
	s = kmalloc(len, GFP_KERNEL);
	if (!s)
		return NULL;
	p = s;
	for (i = 0; i < sbi->num_stores; i++)
		p += sprintf(p, "%s%s", i ? ":" : "",
			     sbi->stores[i].path ? : "missing");
	return s;
}

/**
 * exofs_replace_store - put a replacement store in slot @idx and rebuild it
 * @sbi: the filesystem, mounted read-write
 * @idx: a store out of service (failed, missing, stale, corrupt)
 * @path: directory holding the stub of mkfs.exofs --replace @idx
 *
 * Return: 0 once the rebuild runs; -EROFS, -EINVAL (no redundancy, bad
 * slot, not a replacement for this slot), -EBUSY (the store is in
 * service, or a rebuild runs), -ENOMEM, or the open's error.
 */
int exofs_replace_store(struct exofs_sb_info *sbi, u32 idx, const char *path)
{
	struct exofs_dev_entry *dt = exofs_devtable(sbi->sb_buf);
	struct exofs_retired *old;
	u8 uuid[EXOFS_UUID_SIZE];
	struct ore_store *store;
	char *dup, *opt;
	int err, st;

	if (!sbi->layout.parity && sbi->layout.mirrors_p1 < 2) {
		pr_err("%s: replace store %u: the layout (raid %u, %u copies) has no redundancy to rebuild from\n",
		       sbi->sb->s_id, idx, sbi->layout.raid_algorithm,
		       sbi->layout.mirrors_p1);
		return -EINVAL;
	}
	if (idx >= sbi->num_stores) {
		pr_err("%s: replace store %u: the filesystem has %u stores\n",
		       sbi->sb->s_id, idx, sbi->num_stores);
		return -EINVAL;
	}
	mutex_lock(&sbi->rebuild_mutex);
	err = -EROFS;
	if (sb_rdonly(sbi->sb) || sbi->degraded || sbi->rebuild_blocked) {
		pr_err("%s: replace store %u: the filesystem is mounted read-only\n",
		       sbi->sb->s_id, idx);
		goto out_unlock;
	}
	err = -EBUSY;
	if (sbi->rebuild && READ_ONCE(sbi->rebuild->state) ==
	    EXOFS_REBUILD_RUNNING) {
		pr_err("%s: replace store %u: the rebuild of store %u runs\n",
		       sbi->sb->s_id, idx, sbi->rebuild->store);
		goto out_unlock;
	}
	st = READ_ONCE(sbi->stores[idx].state);
	if (st == EXOFS_STORE_OK || st == EXOFS_STORE_REBUILDING) {
		pr_err("%s: replace store %u: the store is in service\n",
		       sbi->sb->s_id, idx);
		goto out_unlock;
	}
	err = -ENOMEM;
	dup = kstrdup(path, GFP_KERNEL);
	old = kzalloc(sizeof(*old), GFP_KERNEL);
	if (!dup || !old)
		goto out_free;
	store = exofs_open_replacement(sbi, idx, path, uuid);
	if (IS_ERR(store)) {
		err = PTR_ERR(store);
		goto out_free;
	}
	ore_store_set_state(store, ORE_STORE_REBUILDING);

	/* in-flight I/O may still use the old store: it stays until unmount */
	old->store = sbi->ore_stores[idx];
	old->path = sbi->stores[idx].path;
	mutex_lock(&sbi->sb_mutex);
	memcpy(dt[idx].uuid, uuid, EXOFS_UUID_SIZE);
	sbi->rebuild_ckpt = 0;
	mutex_unlock(&sbi->sb_mutex);
	spin_lock_irq(&sbi->fail_lock);
	WRITE_ONCE(sbi->ore_stores[idx], store);
	sbi->stores[idx].path = dup;
	WRITE_ONCE(sbi->stores[idx].state, EXOFS_STORE_REBUILDING);
	list_add(&old->node, &sbi->retired);
	spin_unlock_irq(&sbi->fail_lock);
	opt = exofs_stores_string(sbi);
	if (opt) {
		old->opt = sbi->opt_stores;
		WRITE_ONCE(sbi->opt_stores, opt);
	}
	pr_info("%s: store %u: %s takes the place of %s (uuid %pU); rebuilding\n",
		sbi->sb->s_id, idx, dup, old->path ? : "a missing store", uuid);
	/* the device table names it, rebuilding; its own copy is full */
	err = exofs_write_supers(sbi, EXOFS_STATE_DIRTY, false);
	if (!err)
		err = exofs_rebuild_start(sbi, idx, 0);
	if (err) {
		pr_err("%s: replace store %u: cannot start the rebuild: %d\n",
		       sbi->sb->s_id, idx, err);
		exofs_store_failed(sbi, idx);
	}
	mutex_unlock(&sbi->rebuild_mutex);
	return err;

out_free:
	kfree(dup);
	kfree(old);
out_unlock:
	mutex_unlock(&sbi->rebuild_mutex);
	return err;
}

/**
 * exofs_rebuild_show - the rebuild line of sysfs (exofs/sysfs.c)
 * @sbi: the filesystem
 * @buf: a sysfs page
 *
 * "STATE store N objects DONE/TOTAL bytes B skipped S seconds T result
 * R", or "idle".
 *
 * Return: bytes in @buf.
 */
ssize_t exofs_rebuild_show(struct exofs_sb_info *sbi, char *buf)
{
	struct exofs_rebuild *rb;
	ssize_t len;

	mutex_lock(&sbi->rebuild_mutex);
	rb = sbi->rebuild;
	if (!rb) {
		len = sysfs_emit(buf, "idle\n");
	} else {
		int state = READ_ONCE(rb->state);
		unsigned long end = READ_ONCE(rb->end) ? : jiffies;

		len = sysfs_emit(buf, "%s store %u objects %lld/%llu bytes %lld skipped %lld seconds %u result %d\n",
				 exofs_rebuild_state_name[state], rb->store,
				 atomic64_read(&rb->objects), rb->total,
				 atomic64_read(&rb->bytes),
				 atomic64_read(&rb->skipped),
				 jiffies_to_msecs(end - rb->start) / 1000,
				 rb->result);
	}
	mutex_unlock(&sbi->rebuild_mutex);
	return len;
}

/* ------------------------------------------------------------------ */
/* scrub */

/*
 * Logical bytes of @oc's object to scrub: the end of the furthest stripe
 * any component holds a row of (what fsck.exofs checks, too).
 */
u64 exofs_scrub_extent(struct exofs_sb_info *sbi, struct ore_components *oc)
{
	const struct ore_layout *l = &sbi->layout;
	u64 bound = 0;
	u32 c;

	for (c = 0; c < l->num_comps; c++) {
		struct ore_store *store = ore_comp_store(oc, c);
		u32 group = c / l->mirrors_p1 / l->group_width;
		u64 len, row, end;

		if (store->ops->length(store, oc->oid, &len) || !len)
			continue;
		row = div64_u64(len - 1, l->stripe_unit);
		end = div64_u64(row, l->group_depth) * l->super_stripe +
		      group * l->group_length +
		      (row % l->group_depth + 1) * l->stripe_length;
		bound = max(bound, end);
	}
	return bound;
}

/**
 * exofs_scrub_range - scrub part of an inode's object
 * @inode: the inode, locked
 * @off: the first logical byte (a stripe boundary)
 * @end: the byte after the range, clipped to exofs_scrub_extent()
 * @flags: ore_scrub() flags
 * @found: out: the pages that disagreed
 *
 * ore_scrub() over the range with the inode's writeback held off, errors
 * of the stores named (exofs_io_error()), after the stores over NFS let go
 * what they cache of it (exofs_pnfs_refresh()). The caller keeps pNFS
 * clients off the range (recalls the file's layouts, or frees them).
 *
 * Return: 0 (also for a range past what the components hold), or the
 * error of the refresh or of ore_scrub().
 */
int exofs_scrub_range(struct inode *inode, u64 off, u64 end,
		      unsigned int flags, u64 *found)
{
	struct exofs_sb_info *sbi = exofs_sb(inode->i_sb);
	struct exofs_i_info *oi = exofs_i(inode);
	struct exofs_io io = { .inode = inode };
	int err;

	*found = 0;
	err = exofs_pnfs_refresh(inode, false);
	if (err)
		return err;
	exofs_wb_exclude(inode);
	end = min(end, exofs_scrub_extent(sbi, &oi->oc));
	if (off < end)
		err = ore_scrub(&sbi->layout, &oi->oc, off, end - off, flags,
				found, exofs_io_error, &io);
	exofs_wb_allow(inode);
	return err;
}

static void exofs_scrub_dev_error(struct ore_io_state *ios, u32 comp,
				  struct ore_store *store, u64 offset,
				  int error)
{
	exofs_io_error(ios, comp, store, offset, error);
}

/* Scrub @inode's object, a step at a time; 0, or the error that stops. */
static int exofs_scrub_inode(struct exofs_sb_info *sbi,
			     struct exofs_scrub *sc, struct inode *inode)
{
	const struct ore_layout *l = &sbi->layout;
	struct exofs_i_info *oi = exofs_i(inode);
	struct exofs_io io = { .inode = inode };
	u64 off = 0, len, end, found;
	int err;

	for (;;) {
		if (kthread_should_stop())
			return -EINTR;
		inode_lock(inode);
		err = exofs_step_exclusive(inode);
		if (err) {
			inode_unlock(inode);
			return err;
		}
		exofs_wb_exclude(inode);
		end = exofs_scrub_extent(sbi, &oi->oc);
		found = 0;
		if (off < end) {
			len = min(sc->step, end - off);
			err = ore_scrub(l, &oi->oc, off, len, sc->repair,
					&found, exofs_scrub_dev_error, &io);
		}
		exofs_wb_allow(inode);
		inode_unlock(inode);
		if (off >= end)
			return 0;
		if (found) {
			atomic64_add(found, &sc->mismatches);
			pr_warn("%s: scrub: inode %lu (object 0x%llx): %llu mismatched pages in [%llu, %llu)%s\n",
				sbi->sb->s_id, inode->i_ino, oi->oc.oid, found,
				off, off + len, sc->repair ? ", repaired" : "");
		}
		if (err == -EIO) {	/* named by exofs_io_error() */
			atomic64_inc(&sc->errors);
		} else if (err) {
			return err;
		}
		atomic64_add(len, &sc->bytes);
		off += len;
		cond_resched();
	}
}

static int exofs_scrub_run(struct exofs_sb_info *sbi, struct exofs_scrub *sc)
{
	struct super_block *sb = sbi->sb;
	u64 ino = EXOFS_ROOT_INO, limit;
	int err;

	err = exofs_scrub_inode(sbi, sc, sbi->itable);
	if (!err)
		err = exofs_scrub_inode(sbi, sc, sbi->ibitmap);
	if (err)
		return err;
	atomic64_add(2, &sc->objects);
	limit = exofs_rebuild_limit(sbi);
	for (;;) {
		struct inode *inode;

		ino = exofs_next_used(sbi, ino, limit, &err);
		if (err)
			return err;
		if (ino >= limit)
			return 0;
		inode = exofs_rebuild_iget(sb, ino);
		if (IS_ERR(inode)) {
			pr_warn("%s: scrub: inode %llu cannot be read (%ld): its object is not scrubbed\n",
				sb->s_id, ino, PTR_ERR(inode));
			atomic64_inc(&sc->errors);
		} else if (inode) {
			err = exofs_scrub_inode(sbi, sc, inode);
			iput(inode);
			if (err)
				return err;
		}
		atomic64_inc(&sc->objects);
		ino++;
	}
}

static int exofs_scrub_thread(void *data)
{
	struct exofs_sb_info *sbi = data;
	struct exofs_scrub *sc = sbi->scrub;
	const char *what = sc->repair ? "repair" : "check";
	int err;

	pr_info("%s: scrub (%s) started\n", sbi->sb->s_id, what);
	err = exofs_scrub_run(sbi, sc);
	sc->result = err;
	if (!err) {
		WRITE_ONCE(sc->state, EXOFS_REBUILD_DONE);
		pr_info("%s: scrub (%s) done in %u s: %lld objects, %lld bytes, %lld mismatched pages, %lld errors\n",
			sbi->sb->s_id, what,
			jiffies_to_msecs(jiffies - sc->start) / 1000,
			atomic64_read(&sc->objects), atomic64_read(&sc->bytes),
			atomic64_read(&sc->mismatches),
			atomic64_read(&sc->errors));
	} else {
		WRITE_ONCE(sc->state, err == -EINTR ? EXOFS_REBUILD_STOPPED :
			   EXOFS_REBUILD_FAILED);
		pr_info("%s: scrub (%s) %s after %lld objects: %d\n",
			sbi->sb->s_id, what,
			err == -EINTR ? "stopped" : "failed",
			atomic64_read(&sc->objects), err);
	}
	WRITE_ONCE(sc->end, jiffies ? : 1);
	return err;
}

/**
 * exofs_scrub_start - check (or repair) the redundancy of every object
 * @sbi: the filesystem, every store in service
 * @repair: rewrite the mirrors and parity that disagree (read-write only)
 *
 * Return: 0 once the thread runs; -EINVAL (no redundancy), -EROFS (repair
 * on a read-only mount), -EBUSY (a rebuild or scrub runs, or a store is
 * out of service), -ENOMEM, or the thread's start error.
 */
int exofs_scrub_start(struct exofs_sb_info *sbi, bool repair)
{
	struct exofs_scrub *sc;
	int err;
	u32 i;

	if (!sbi->layout.parity && sbi->layout.mirrors_p1 < 2) {
		pr_err("%s: scrub: the layout (raid %u, %u copies) has no redundancy to check\n",
		       sbi->sb->s_id, sbi->layout.raid_algorithm,
		       sbi->layout.mirrors_p1);
		return -EINVAL;
	}
	mutex_lock(&sbi->rebuild_mutex);
	err = -EROFS;
	if (sbi->rebuild_blocked || (repair && sb_rdonly(sbi->sb))) {
		pr_err("%s: scrub: the filesystem is read-only\n",
		       sbi->sb->s_id);
		goto out;
	}
	err = -EBUSY;
	if ((sbi->rebuild && READ_ONCE(sbi->rebuild->state) ==
	     EXOFS_REBUILD_RUNNING) ||
	    (sbi->scrub && READ_ONCE(sbi->scrub->state) ==
	     EXOFS_REBUILD_RUNNING)) {
		pr_err("%s: scrub: a rebuild or a scrub runs\n", sbi->sb->s_id);
		goto out;
	}
	for (i = 0; i < sbi->num_stores; i++)
		if (READ_ONCE(sbi->stores[i].state) != EXOFS_STORE_OK) {
			pr_err("%s: scrub: store %u is out of service\n",
			       sbi->sb->s_id, i);
			goto out;
		}
	err = -ENOMEM;
	sc = kzalloc(sizeof(*sc), GFP_KERNEL);
	if (!sc)
		goto out;
	sc->repair = repair;
	sc->state = EXOFS_REBUILD_RUNNING;
	sc->start = jiffies;
	sc->step = max_t(u64, 1, div64_u64(EXOFS_REBUILD_STEP,
					   sbi->layout.stripe_length)) *
		   sbi->layout.stripe_length;
	exofs_scrub_free(sbi->scrub);	/* the one before, over */
	sbi->scrub = sc;
	sc->task = kthread_create(exofs_scrub_thread, sbi, "exofs_scrub");
	if (IS_ERR(sc->task)) {
		err = PTR_ERR(sc->task);
		sc->task = NULL;
		sc->state = EXOFS_REBUILD_FAILED;
		sc->result = err;
		goto out;
	}
	get_task_struct(sc->task);
	wake_up_process(sc->task);
	err = 0;
out:
	mutex_unlock(&sbi->rebuild_mutex);
	return err;
}

/**
 * exofs_scrub_show - the scrub line of sysfs (exofs/sysfs.c)
 * @sbi: the filesystem
 * @buf: a sysfs page
 *
 * "STATE check|repair objects N bytes B mismatches M errors E seconds T
 * result R", or "idle".
 *
 * Return: bytes in @buf.
 */
ssize_t exofs_scrub_show(struct exofs_sb_info *sbi, char *buf)
{
	struct exofs_scrub *sc;
	ssize_t len;

	mutex_lock(&sbi->rebuild_mutex);
	sc = sbi->scrub;
	if (!sc) {
		len = sysfs_emit(buf, "idle\n");
	} else {
		unsigned long end = READ_ONCE(sc->end) ? : jiffies;

		len = sysfs_emit(buf, "%s %s objects %lld bytes %lld mismatches %lld errors %lld seconds %u result %d\n",
				 exofs_rebuild_state_name[READ_ONCE(sc->state)],
				 sc->repair ? "repair" : "check",
				 atomic64_read(&sc->objects),
				 atomic64_read(&sc->bytes),
				 atomic64_read(&sc->mismatches),
				 atomic64_read(&sc->errors),
				 jiffies_to_msecs(end - sc->start) / 1000,
				 sc->result);
	}
	mutex_unlock(&sbi->rebuild_mutex);
	return len;
}
