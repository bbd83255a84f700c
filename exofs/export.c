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
