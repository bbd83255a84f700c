// SPDX-License-Identifier: GPL-2.0
/*
 * exofs NFS export: file handles and ".." (issue 13).
 *
 * A handle is FILEID_INO64_GEN (inode number and generation, 3 words) or,
 * with the parent, FILEID_INO64_GEN_PARENT (6 words): exofs inode numbers
 * go up to EXOFS_MAX_INO_LIMIT (2^40), beyond the 32 bits of the generic
 * FILEID_INO32_GEN handle. A handle whose inode number is out of range,
 * whose record is free, or whose generation does not match the inode's
 * (the number was freed and reused since) is stale: -ESTALE, with nothing
 * logged, since any client can send any handle.
 */
#include <linux/exportfs.h>
#include <linux/fs.h>
#include <linux/module.h>
#include <linux/pagemap.h>
#include "exofs.h"

#define EXOFS_FH_WORDS		3	/* ino (2 words), generation */
#define EXOFS_FH_PARENT_WORDS	6

/* Handles decoded without a cached inode (the tests read it). */
static unsigned long exofs_fh_decodes;	/* racy: a test aid */
module_param_named(fh_decodes, exofs_fh_decodes, ulong, 0444);
MODULE_PARM_DESC(fh_decodes, "file handles decoded from scratch (NFS export)");

static void exofs_fh_put(u32 *fh, const struct inode *inode)
{
	u64 ino = inode->i_ino;

	fh[0] = (u32)ino;
	fh[1] = (u32)(ino >> 32);
	fh[2] = inode->i_generation;
}

static int exofs_encode_fh(struct inode *inode, u32 *fh, int *max_len,
			   struct inode *parent)
{
	int len = parent ? EXOFS_FH_PARENT_WORDS : EXOFS_FH_WORDS;

	if (*max_len < len) {
		*max_len = len;
		return FILEID_INVALID;
	}
	exofs_fh_put(fh, inode);
	if (parent)
		exofs_fh_put(fh + EXOFS_FH_WORDS, parent);
	*max_len = len;
	return parent ? FILEID_INO64_GEN_PARENT : FILEID_INO64_GEN;
}

/*
 * The inode @ino of generation @gen, or -ESTALE. A cached inode is checked
 * as it is; else the record is read first so that a free one gives -ESTALE
 * instead of exofs_iget()'s corruption report.
 */
static struct inode *exofs_nfs_get_inode(struct super_block *sb, u64 ino,
					 u32 gen)
{
	struct exofs_sb_info *sbi = exofs_sb(sb);
	struct exofs_inode *rec;
	struct inode *inode;
	struct folio *folio;
	const char *why;
	int state;

	if (ino < EXOFS_ROOT_INO || ino >= sbi->max_ino || ino != (unsigned long)ino)
		return ERR_PTR(-ESTALE);
	inode = ilookup(sb, ino);
	if (!inode) {
		/* a lost increment only makes the test aid low */
		data_race(exofs_fh_decodes++);
		folio = exofs_get_record(sb, ino, &rec);
		if (IS_ERR(folio))
			return ERR_CAST(folio);
		state = exofs_inode_check(rec, ino, &why);
		folio_release_kmap(folio, rec);
		if (state == 1)
			return ERR_PTR(-ESTALE);
		inode = exofs_iget(sb, ino);
		if (IS_ERR(inode))
			return inode;
	}
	if (inode->i_generation != gen || !inode->i_nlink) {
		iput(inode);
		return ERR_PTR(-ESTALE);
	}
	return inode;
}

static struct dentry *exofs_fh_decode(struct super_block *sb, const u32 *fh)
{
	u64 ino = fh[0] | ((u64)fh[1] << 32);

	return d_obtain_alias(exofs_nfs_get_inode(sb, ino, fh[2]));
}

static struct dentry *exofs_fh_to_dentry(struct super_block *sb,
					 struct fid *fid, int fh_len,
					 int fh_type)
{
	if ((fh_type != FILEID_INO64_GEN || fh_len < EXOFS_FH_WORDS) &&
	    (fh_type != FILEID_INO64_GEN_PARENT ||
	     fh_len < EXOFS_FH_PARENT_WORDS))
		return NULL;
	return exofs_fh_decode(sb, fid->raw);
}

static struct dentry *exofs_fh_to_parent(struct super_block *sb,
					 struct fid *fid, int fh_len,
					 int fh_type)
{
	if (fh_type != FILEID_INO64_GEN_PARENT ||
	    fh_len < EXOFS_FH_PARENT_WORDS)
		return NULL;
	return exofs_fh_decode(sb, fid->raw + EXOFS_FH_WORDS);
}

static struct dentry *exofs_get_parent(struct dentry *child)
{
	struct inode *dir = d_inode(child);
	struct exofs_dir_entry *de;
	struct folio *folio;
	u64 ino;

	de = exofs_dotdot(dir, &folio);
	if (IS_ERR(de))
		return ERR_CAST(de);
	ino = le64_to_cpu(de->inode);
	folio_release_kmap(folio, de);
	return d_obtain_alias(exofs_iget(dir->i_sb, ino));
}

/* exofs_pnfs.ko (exofs/pnfs/) recognises exofs superblocks by it */
const struct export_operations exofs_export_ops = {
	.encode_fh	= exofs_encode_fh,
	.fh_to_dentry	= exofs_fh_to_dentry,
	.fh_to_parent	= exofs_fh_to_parent,
	.get_parent	= exofs_get_parent,
};
EXPORT_SYMBOL_GPL(exofs_export_ops);

/**
 * exofs_pnfs_layout_prepare - before a pNFS layout of @inode is handed out
 * @inode: a regular file
 *
 * Writes the dirty pages back to the stores and drops the page cache:
 * the layout's holder reads and writes the component objects directly,
 * so what the cache holds would be stale or would overwrite its writes.
 * Stores over NFS write back and let go what they cache of the file
 * (exofs_pnfs_refresh()).
 * With sized components (EXOFS_FEATURE_RO_COMPAT_SIZED) every component is
 * made first: the holder's ORE takes every component for existing, as
 * without the feature (a missing one is lost to it).
 *
 * Return: 0 or a negative errno (a writeback error, or one of making the
 * components).
 */
int exofs_pnfs_layout_prepare(struct inode *inode)
{
	struct exofs_sb_info *sbi = exofs_sb(inode->i_sb);
	struct ore_components *oc = &exofs_i(inode)->oc;
	int err;

	inode_lock(inode);
	err = filemap_write_and_wait(inode->i_mapping);
	if (!err)
		err = invalidate_inode_pages2(inode->i_mapping);
	/* the checksums just written, on the data servers for the holder */
	if (!err)
		err = exofs_pnfs_refresh(inode, true);
	/* the first super stripe reaches every component */
	if (!err && oc->sized && READ_ONCE(oc->made) < sbi->layout.super_stripe) {
		err = ore_make(&sbi->layout, oc, sbi->layout.super_stripe);
		if (!err)
			mark_inode_dirty_sync(inode);	/* i_made */
	}
	inode_unlock(inode);
	return err;
}
EXPORT_SYMBOL_GPL(exofs_pnfs_layout_prepare);

/**
 * exofs_pnfs_refresh - let go what the stores over NFS cache of a file
 * @inode: an inode with an object
 * @force: also when no RW layout of the file was freed or committed since
 *	the last refresh
 *
 * The holder of a RW layout writes the component objects and the side
 * files of their checksums on the data servers. When the MDS's own stores
 * are NFS mounts of those, its NFS client keeps the side files' pages and
 * the components' attributes, and would read the holder's data against
 * the checksums it cached (false checksum errors, repaired from a parity
 * that is right: the holder's data replaced), or write a cached page of
 * entries back over the holder's. So after a RW layout is freed or
 * committed (exofs_i_info.pnfs_gen moved), the next user of the object on
 * the MDS (read, write, truncate, scrub, rebuild) has the stores over NFS
 * let go what they cache of it first (ore_file_store_forget(): written
 * back, dropped, closed); the others wait meanwhile. Before a layout is
 * handed out (@force) the same makes the MDS's own checksums of the file
 * reach the data servers. Stores not over NFS share their page cache with
 * the data servers: nothing to do. Process context.
 *
 * Return: 0, or the first error of writing back a side file.
 */
int exofs_pnfs_refresh(struct inode *inode, bool force)
{
	struct exofs_sb_info *sbi = exofs_sb(inode->i_sb);
	struct exofs_i_info *oi = exofs_i(inode);
	struct ore_store *store;
	int err = 0, e;
	u32 gen, i;

	if (!force && (u32)atomic_read(&oi->pnfs_gen) == READ_ONCE(oi->pnfs_seen))
		return 0;
	/* the others wait until it is done: none uses a stale page meanwhile */
	mutex_lock(&sbi->pnfs_refresh_lock);
	gen = atomic_read(&oi->pnfs_gen);
	if (!force && gen == oi->pnfs_seen)
		goto out;
	for (i = 0; i < sbi->num_stores; i++) {
		store = sbi->ore_stores[i];
		if (!store || !ore_file_store_on_nfs(store))
			continue;
		e = ore_file_store_forget(store, oi->oc.oid);
		if (e && !err) {
			pr_err("%s: inode %lu (object 0x%llx): store %u: cannot write back its checksums for pNFS: %d\n",
			       inode->i_sb->s_id, inode->i_ino, oi->oc.oid, i,
			       e);
			err = e;
		}
	}
	WRITE_ONCE(oi->pnfs_seen, gen);
out:
	mutex_unlock(&sbi->pnfs_refresh_lock);
	return err;
}

/*
 * Regions a RW layout held when nfsd freed it (exofs_pnfs_layout_freed()),
 * on exofs_sb_info.pin_freed until they are let go: at once when the
 * holder returned the layout, after their parity is repaired when nfsd
 * let it go without a return (the holder may have died mid-write).
 */
struct exofs_pin_freed {
	struct list_head node;
	struct inode *inode;		/* a reference (igrab()) */
	u64 first;
	u32 count;
	bool returned;
};

/*
 * Repair the parity and mirrors of @inode's regions [@first, @first +
 * @count) (the stripes a client that never returned its layout may have
 * left torn), as a scrub in repair mode over them does. Inode locked.
 */
static int exofs_pnfs_repair(struct inode *inode, u64 first, u32 count)
{
	struct exofs_sb_info *sbi = exofs_sb(inode->i_sb);
	struct exofs_i_info *oi = exofs_i(inode);
	u64 rb = exofs_intent_region_bytes(sbi);
	u64 off = first * rb, found;
	int err;

	err = exofs_scrub_range(inode, off, (first + count) * rb,
				ORE_SCRUB_REPAIR |
				(sbi->csum_on ? ORE_SCRUB_RESTAMP : 0), &found);
	if (err) {
		pr_err("%s: inode %lu (object 0x%llx): cannot repair [%llu, %llu), where a pNFS client that did not return its layout wrote: %d; the regions stay in the intent record for the next mount\n",
		       inode->i_sb->s_id, inode->i_ino, oi->oc.oid, off,
		       (first + count) * rb, err);
		return err;
	}
	atomic64_inc(&sbi->pin_repaired);
	pr_info("%s: inode %lu (object 0x%llx): a pNFS layout was let go without a return: [%llu, %llu) repaired (%llu pages differed)\n",
		inode->i_sb->s_id, inode->i_ino, oi->oc.oid, off,
		(first + count) * rb, found);
	return 0;
}

/* Let go what @f held (repaired first when not returned). Inode locked. */
static void exofs_pnfs_release(struct exofs_pin_freed *f)
{
	struct exofs_sb_info *sbi = exofs_sb(f->inode->i_sb);

	if (f->returned || !exofs_pnfs_repair(f->inode, f->first, f->count))
		exofs_intent_unpin(sbi, exofs_i(f->inode)->oc.oid, f->first,
				   f->count);
}

/*
 * Take the freed layouts of @inode (all of them: NULL) off the list and
 * let them go; with @inode, the caller holds its lock.
 */
static void exofs_pnfs_release_freed(struct exofs_sb_info *sbi,
				     struct inode *inode)
{
	struct exofs_pin_freed *f, *tmp;
	LIST_HEAD(todo);

	spin_lock(&sbi->pin_lock);
	list_for_each_entry_safe(f, tmp, &sbi->pin_freed, node)
		if (!inode || f->inode == inode)
			list_move_tail(&f->node, &todo);
	spin_unlock(&sbi->pin_lock);
	list_for_each_entry_safe(f, tmp, &todo, node) {
		if (!inode)
			inode_lock(f->inode);
		exofs_pnfs_release(f);
		if (!inode)
			inode_unlock(f->inode);
		iput(f->inode);
		kfree(f);
	}
}

static void exofs_pnfs_work(struct work_struct *work)
{
	exofs_pnfs_release_freed(container_of(work, struct exofs_sb_info,
					      pin_work), NULL);
}

/**
 * exofs_pnfs_pins_init - set up the pNFS layout state of a new exofs_sb_info
 * @sbi: the filesystem
 */
void exofs_pnfs_pins_init(struct exofs_sb_info *sbi)
{
	spin_lock_init(&sbi->pin_lock);
	INIT_LIST_HEAD(&sbi->pin_freed);
	INIT_WORK(&sbi->pin_work, exofs_pnfs_work);
	mutex_init(&sbi->pnfs_refresh_lock);
}

/**
 * exofs_pnfs_pins_flush - let go every freed layout's regions (unmount)
 * @sbi: the filesystem
 *
 * nfsd no longer holds the files; what it freed last may be queued.
 */
void exofs_pnfs_pins_flush(struct exofs_sb_info *sbi)
{
	flush_work(&sbi->pin_work);
	exofs_pnfs_release_freed(sbi, NULL);
}

/**
 * exofs_pnfs_layout_freed - nfsd freed a segment of a file's RW layout
 * @inode: a regular file
 * @start: the segment's first byte
 * @len: its bytes (U64_MAX: to the end)
 * @returned: its holder returned it (a LAYOUTRETURN), else nfsd let it go
 *	without a return (the client expired, was destroyed or did not
 *	answer a recall)
 *
 * When the segment covers every region the file's layouts hold, they are
 * let go by a work item: at once when @returned (the holder's writes are
 * done: it returns a layout after its last write), else once their parity
 * and mirrors are repaired (the holder may have died mid-write and left
 * them torn). A new layout of the file waits for that repair
 * (exofs_pnfs_layout_pin()). A part freed keeps them. Any segment freed
 * has the stores over NFS let go what they cache of the file at its next
 * use on the MDS (exofs_pnfs_refresh()). Atomic context.
 */
void exofs_pnfs_layout_freed(struct inode *inode, u64 start, u64 len,
			     bool returned)
{
	struct exofs_sb_info *sbi = exofs_sb(inode->i_sb);
	struct exofs_i_info *oi = exofs_i(inode);
	u64 rb = exofs_intent_region_bytes(sbi);
	struct exofs_pin_freed *f;

	/* before nfsd drops its lease: a local writer's break_layout() waits */
	atomic_inc(&oi->pnfs_gen);
	if (!rb || !READ_ONCE(oi->pin_count))
		return;
	f = kmalloc(sizeof(*f), GFP_ATOMIC);
	spin_lock(&sbi->pin_lock);
	if (!oi->pin_count || start > oi->pin_first * rb ||
	    (len != U64_MAX &&
	     start + len < (oi->pin_first + oi->pin_count) * rb))
		goto out;
	/* nfsd holds the file: igrab() cannot fail */
	if (f)
		f->inode = igrab(inode);
	if (!f || !f->inode) {
		pr_warn("%s: inode %lu: no memory to let go the regions of a freed pNFS layout: they stay in the intent record until the unmount\n",
			inode->i_sb->s_id, inode->i_ino);
		goto out;
	}
	f->first = oi->pin_first;
	f->count = oi->pin_count;
	f->returned = returned;
	oi->pin_count = 0;
	oi->pin_seq++;
	list_add_tail(&f->node, &sbi->pin_freed);
	spin_unlock(&sbi->pin_lock);
	if (!returned)
		atomic64_inc(&sbi->pin_dropped);
	queue_work(system_unbound_wq, &sbi->pin_work);
	return;
out:
	spin_unlock(&sbi->pin_lock);
	kfree(f);
}
EXPORT_SYMBOL_GPL(exofs_pnfs_layout_freed);

/**
 * exofs_pnfs_read_error - a pNFS client reported a failed component read
 * @inode: a regular file
 * @store: the component's store (index in the device table), or -1 when
 *	the report names none of ours
 * @comp_off: the component offset of the failure
 * @comp_len: bytes from there the failure may cover
 *
 * With data checksums the failure may be a block that failed its
 * checksum, which the client rebuilt from the redundancy but does not
 * rewrite (it does not hold the stripes): the stripes of the file that
 * hold the reported component bytes are scrubbed, rewriting what fails
 * (exofs_csum_repair_range(), after the file's layouts are back); the
 * whole file when the component is not known.
 */
void exofs_pnfs_read_error(struct inode *inode, int store, u64 comp_off,
			   u64 comp_len)
{
	struct exofs_sb_info *sbi = exofs_sb(inode->i_sb);
	const struct ore_layout *l = &sbi->layout;
	u32 first = exofs_i(inode)->oc.first_dev, comp;
	u64 start, end, rows;

	if (!sbi->csum_on)
		return;
	comp = store < 0 ? U32_MAX :
	       (store + sbi->num_stores - first) % sbi->num_stores;
	if (comp >= l->num_comps || !comp_len) {
		exofs_csum_repair_range(inode, 0, i_size_read(inode), 1);
		return;
	}
	start = ore_layout_comp_stripes(l, comp, comp_off, 1, &rows);
	end = ore_layout_comp_stripes(l, comp, comp_off + comp_len - 1, 1,
				      &rows) + l->stripe_length;
	exofs_csum_repair_range(inode, start, end - start, 1);
}
EXPORT_SYMBOL_GPL(exofs_pnfs_read_error);

/**
 * exofs_pnfs_csum_check - can pNFS clients keep the data checksums?
 * @sbi: the filesystem
 *
 * A client keeps them in the side files of the components it writes and
 * verifies what it reads against them, through its NFSv3 mounts of the
 * data servers: it cannot see heads (extended attributes), so the
 * filesystem must have none (EXOFS_FEATURE_RO_COMPAT_CSUM_SIDE). The MDS's
 * stores may be local (they share the data servers' page cache) or NFS
 * mounts of the data servers (exofs_pnfs_refresh() keeps what they cache
 * of a file in step with the clients' writes).
 *
 * Return: NULL when layouts can be handed out, else why not.
 */
const char *exofs_pnfs_csum_check(struct exofs_sb_info *sbi)
{
	if (sbi->csum_on && !sbi->csum_side)
		return "data checksums in heads (extended attributes), which clients cannot see: mkfs.exofs --checksum-heads no";
	return NULL;
}
EXPORT_SYMBOL_GPL(exofs_pnfs_csum_check);

/* Regions of the intent record one file's RW layouts may hold: all pins */
#define EXOFS_PNFS_PIN_MAX	(EXOFS_INTENT_MAX / 2)

/**
 * exofs_pnfs_layout_pin - the range of a RW layout, in the intent record
 * @inode: a regular file
 * @offset: where the client asks for a layout
 * @len: the bytes it asks for from there (U64_MAX: to the end of the file)
 * @start: out: the first byte of the layout's range
 * @end: out: the byte after it (U64_MAX: the whole file)
 *
 * A layout's holder writes the stores without the MDS, so its writes are
 * not in the intent record unless the layout's regions are: they are put
 * there (exofs_intent_pin()) before the layout is handed out and kept
 * until nfsd frees it (exofs_pnfs_layout_freed()); a crash of the MDS
 * meanwhile has the next mount repair them, a layout nfsd lets go without
 * a return (its holder gone) has them repaired then. The layout covers
 * the regions held: those of the file's earlier
 * layout grown to cover the range asked for (a client writing back a file
 * asks for what it has cached) and at least as many regions again past
 * @offset's (1, 2, 4, ...: a stream asks for a layout a logarithmic number
 * of times), at most EXOFS_PNFS_PIN_MAX (half the record: about 8 GiB of a
 * file with 4 MiB regions). Without a record (consistency policy none,
 * or nothing redundant) the layout is the whole file.
 *
 * Return: 0, -ENOSPC (@offset lies past what the file's layouts may hold,
 * or the record has no room for more pins: no layout, the client writes
 * through the MDS), -EFBIG (@offset past the largest file), -EAGAIN (nfsd
 * freed the file's layout meanwhile), or the error of the record write.
 */
int exofs_pnfs_layout_pin(struct inode *inode, u64 offset, u64 len,
			  u64 *start, u64 *end)
{
	struct exofs_sb_info *sbi = exofs_sb(inode->i_sb);
	struct exofs_i_info *oi = exofs_i(inode);
	u64 rb = exofs_intent_region_bytes(sbi);
	u64 r, last, lo, hi, nlo, nhi;
	u32 seq;
	int err = 0;

	*start = 0;
	*end = U64_MAX;
	if (!rb)
		return 0;
	if (offset >= inode->i_sb->s_maxbytes)
		return -EFBIG;
	r = div64_u64(offset, rb);
	last = r;
	if (len && len <= inode->i_sb->s_maxbytes - offset)
		last = div64_u64(offset + len - 1, rb);
	inode_lock(inode);
	/* a layout nfsd let go without a return: repaired before a new one */
	exofs_pnfs_release_freed(sbi, inode);
	/* the regions held, [lo, hi); none: an empty range at @offset's */
	spin_lock(&sbi->pin_lock);
	lo = oi->pin_count ? oi->pin_first : r;
	hi = lo + oi->pin_count;
	seq = oi->pin_seq;
	spin_unlock(&sbi->pin_lock);
	nlo = lo;
	nhi = hi;
	if (r >= lo && r < hi)
		goto held;
	nlo = min(lo, r);
	nhi = max3(hi, r + max_t(u64, hi - lo, 1), last + 1);
	nhi = min(nhi, nlo + EXOFS_PNFS_PIN_MAX);
	if (r >= nhi) {
		err = -ENOSPC;
		goto out;
	}
	/* pin what the range grew by, on either side */
	if (nlo < lo)
		err = exofs_intent_pin(sbi, oi->oc.oid, nlo, lo - nlo);
	if (!err && nhi > hi) {
		err = exofs_intent_pin(sbi, oi->oc.oid, hi, nhi - hi);
		if (err && nlo < lo)
			exofs_intent_unpin(sbi, oi->oc.oid, nlo, lo - nlo);
	}
	if (err)
		goto out;
held:
	spin_lock(&sbi->pin_lock);
	/* nfsd freed the file's layout meanwhile: [lo, hi) are let go */
	if (oi->pin_seq != seq) {
		err = -EAGAIN;
	} else {
		oi->pin_first = nlo;
		oi->pin_count = nhi - nlo;
	}
	spin_unlock(&sbi->pin_lock);
	if (err && nlo < lo)
		exofs_intent_unpin(sbi, oi->oc.oid, nlo, lo - nlo);
	if (err && nhi > hi)
		exofs_intent_unpin(sbi, oi->oc.oid, hi, nhi - hi);
out:
	if (!err) {
		*start = nlo * rb;
		*end = nhi * rb;
	}
	inode_unlock(inode);
	if (err)
		pr_warn_ratelimited("%s: inode %lu: no RW layout at offset %llu: its regions cannot be recorded: %d\n",
				    inode->i_sb->s_id, inode->i_ino, offset,
				    err);
	return err;
}
EXPORT_SYMBOL_GPL(exofs_pnfs_layout_pin);

/**
 * exofs_pnfs_layout_commit - LAYOUTCOMMIT: what a layout's holder wrote
 * @inode: a regular file
 * @new_size: the new size when the writes extended the file, else -1
 * @mtime: the modification time
 *
 * The size grows (never shrinks: that is a SETATTR), the times change,
 * the page cache is dropped (the components changed under it, and the
 * stores over NFS let go theirs at the next use: exofs_pnfs_refresh())
 * and the inode record is written to the stores before returning.
 *
 * Return: 0 or a negative errno.
 */
int exofs_pnfs_layout_commit(struct inode *inode, loff_t new_size,
			     struct timespec64 mtime)
{
	int err;

	inode_lock(inode);
	if (new_size > i_size_read(inode)) {
		i_size_write(inode, new_size);
		/* the holder's writes may leave bytes past the old EOF page */
		clear_bit(EXOFS_I_TAIL_CLEAN, &exofs_i(inode)->state);
	}
	inode_set_mtime_to_ts(inode, mtime);
	inode_set_ctime_current(inode);
	mark_inode_dirty(inode);
	atomic_inc(&exofs_i(inode)->pnfs_gen);
	err = invalidate_inode_pages2(inode->i_mapping);
	inode_unlock(inode);
	if (!err)
		err = sync_inode_metadata(inode, 1);
	if (!err)
		err = exofs_sync_inode_meta(inode);
	return err;
}
EXPORT_SYMBOL_GPL(exofs_pnfs_layout_commit);
