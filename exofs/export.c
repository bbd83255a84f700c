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
 * until it is returned (exofs_pnfs_layout_unpin()); a crash of the MDS
 * meanwhile has the next mount repair them, a client that never returns
 * its layout leaves them in the record until the next mount repairs
 * them. The layout covers the regions held: those of the file's earlier
 * layout grown to cover the range asked for (a client writing back a file
 * asks for what it has cached) and at least as many regions again past
 * @offset's (1, 2, 4, ...: a stream asks for a layout a logarithmic number
 * of times), at most EXOFS_PNFS_PIN_MAX (half the record: about 8 GiB of a
 * file with 4 MiB regions). Without a record (consistency policy none,
 * or nothing redundant) the layout is the whole file.
 *
 * Return: 0, -ENOSPC (@offset lies past what the file's layouts may hold,
 * or the record has no room for more pins: no layout, the client writes
 * through the MDS), -EFBIG (@offset past the largest file), or the error
 * of the record write.
 */
int exofs_pnfs_layout_pin(struct inode *inode, u64 offset, u64 len,
			  u64 *start, u64 *end)
{
	struct exofs_sb_info *sbi = exofs_sb(inode->i_sb);
	struct exofs_i_info *oi = exofs_i(inode);
	u64 rb = exofs_intent_region_bytes(sbi);
	u64 r, last, lo, hi, nlo, nhi;
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
	/* the regions held, [lo, hi); none: an empty range at @offset's */
	lo = oi->pin_count ? oi->pin_first : r;
	hi = lo + oi->pin_count;
	if (r >= lo && r < hi)
		goto out;
	nlo = min(lo, r);
	nhi = max3(hi, r + max_t(u64, oi->pin_count, 1), last + 1);
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
	if (!err) {
		oi->pin_first = nlo;
		oi->pin_count = nhi - nlo;
	}
out:
	if (!err) {
		*start = oi->pin_first * rb;
		*end = (oi->pin_first + oi->pin_count) * rb;
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
 * exofs_pnfs_layout_unpin - a RW layout came back (LAYOUTRETURN)
 * @inode: a regular file
 * @start: the first byte returned
 * @len: bytes returned (U64_MAX: to the end)
 *
 * When the range returned covers every region the file's layouts hold,
 * they leave the intent record at a clear pass (the holder's writes are
 * done: it returns a layout after its last write). A part returned keeps
 * them.
 */
void exofs_pnfs_layout_unpin(struct inode *inode, u64 start, u64 len)
{
	struct exofs_sb_info *sbi = exofs_sb(inode->i_sb);
	struct exofs_i_info *oi = exofs_i(inode);
	u64 rb = exofs_intent_region_bytes(sbi);

	if (!rb)
		return;
	inode_lock(inode);
	if (oi->pin_count && start <= oi->pin_first * rb &&
	    (len == U64_MAX || start + len >=
	     (oi->pin_first + oi->pin_count) * rb)) {
		exofs_intent_unpin(sbi, oi->oc.oid, oi->pin_first,
				   oi->pin_count);
		oi->pin_count = 0;
	}
	inode_unlock(inode);
}
EXPORT_SYMBOL_GPL(exofs_pnfs_layout_unpin);

/**
 * exofs_pnfs_layout_commit - LAYOUTCOMMIT: what a layout's holder wrote
 * @inode: a regular file
 * @new_size: the new size when the writes extended the file, else -1
 * @mtime: the modification time
 *
 * The size grows (never shrinks: that is a SETATTR), the times change,
 * the page cache is dropped (the components changed under it) and the
 * inode record is written to the stores before returning.
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
	err = invalidate_inode_pages2(inode->i_mapping);
	inode_unlock(inode);
	if (!err)
		err = sync_inode_metadata(inode, 1);
	if (!err)
		err = exofs_sync_inode_meta(inode);
	return err;
}
EXPORT_SYMBOL_GPL(exofs_pnfs_layout_commit);
