// SPDX-License-Identifier: GPL-2.0
/*
 * exofs inodes: the records of the inode table, and the inode life cycle
 * (iget, new inodes, eviction, truncate, setattr). The data path
 * (address_space_operations, writeback) is in data.c.
 */
#include <linux/filelock.h>
#include <linux/fs.h>
#include <linux/pagemap.h>
#include <linux/writeback.h>
#include <linux/slab.h>
#include <linux/random.h>
#include <linux/highmem.h>

#include "exofs.h"

/* ------------------------------------------------------------------ */
/* inode table records */

/* Inode table position of @ino's record. */
static inline loff_t exofs_rec_pos(unsigned long ino)
{
	return (loff_t)ino * EXOFS_INODE_SIZE;
}

/*
 * Read the folio of the inode table holding @ino's record. Returns it
 * (referenced) with *@kaddr mapped at the record, or an ERR_PTR.
 */
struct folio *exofs_get_record(struct super_block *sb,
				      unsigned long ino,
				      struct exofs_inode **rec)
{
	struct exofs_sb_info *sbi = exofs_sb(sb);
	loff_t pos = exofs_rec_pos(ino);
	struct folio *folio;

	folio = read_mapping_folio(sbi->itable->i_mapping, pos >> PAGE_SHIFT,
				   NULL);
	if (IS_ERR(folio))
		return folio;
	*rec = kmap_local_folio(folio, offset_in_folio(folio, pos));
	return folio;
}

/* Fill the VFS inode from @rec (checked). */
static void exofs_rec_to_inode(struct inode *inode,
			       const struct exofs_inode *rec)
{
	struct exofs_i_info *oi = exofs_i(inode);
	struct timespec64 ts;

	inode->i_mode = le16_to_cpu(rec->i_mode);
	i_uid_write(inode, le32_to_cpu(rec->i_uid));
	i_gid_write(inode, le32_to_cpu(rec->i_gid));
	set_nlink(inode, le32_to_cpu(rec->i_links_count));
	inode->i_size = le64_to_cpu(rec->i_size);
	ts.tv_sec = (s64)le64_to_cpu(rec->i_atime);
	ts.tv_nsec = le32_to_cpu(rec->i_atime_nsec);
	inode_set_atime_to_ts(inode, ts);
	ts.tv_sec = (s64)le64_to_cpu(rec->i_mtime);
	ts.tv_nsec = le32_to_cpu(rec->i_mtime_nsec);
	inode_set_mtime_to_ts(inode, ts);
	ts.tv_sec = (s64)le64_to_cpu(rec->i_ctime);
	ts.tv_nsec = le32_to_cpu(rec->i_ctime_nsec);
	inode_set_ctime_to_ts(inode, ts);
	oi->i_crtime.tv_sec = (s64)le64_to_cpu(rec->i_crtime);
	oi->i_crtime.tv_nsec = le32_to_cpu(rec->i_crtime_nsec);
	inode->i_generation = le32_to_cpu(rec->i_generation);
	oi->i_flags = le32_to_cpu(rec->i_flags);
	inode->i_blocks = DIV_ROUND_UP_ULL(inode->i_size, 512);
	/* sized components: those the recorded extent reaches exist */
	if (oi->oc.sized)
		oi->oc.made = le64_to_cpu(rec->i_made);
	oi->made_rec = oi->oc.made;
	if (oi->i_flags & EXOFS_INODE_FL_INLINE)
		memcpy(oi->i_data, rec->i_data, sizeof(oi->i_data));
	if (S_ISCHR(inode->i_mode) || S_ISBLK(inode->i_mode))
		inode->i_rdev = new_decode_dev(le32_to_cpu(rec->i_rdev));
}

/* @inode's record into @rec; returns the i_made it holds. */
static u64 exofs_inode_to_rec(struct inode *inode, struct exofs_inode *rec)
{
	struct exofs_i_info *oi = exofs_i(inode);
	struct timespec64 ts;
	u64 made = 0;

	memset(rec, 0, sizeof(*rec));
	rec->i_mode = cpu_to_le16(inode->i_mode);
	rec->i_links_count = cpu_to_le32(inode->i_nlink);
	rec->i_uid = cpu_to_le32(i_uid_read(inode));
	rec->i_gid = cpu_to_le32(i_gid_read(inode));
	rec->i_size = cpu_to_le64(i_size_read(inode));
	ts = inode_get_atime(inode);
	rec->i_atime = cpu_to_le64(ts.tv_sec);
	rec->i_atime_nsec = cpu_to_le32(ts.tv_nsec);
	ts = inode_get_mtime(inode);
	rec->i_mtime = cpu_to_le64(ts.tv_sec);
	rec->i_mtime_nsec = cpu_to_le32(ts.tv_nsec);
	ts = inode_get_ctime(inode);
	rec->i_ctime = cpu_to_le64(ts.tv_sec);
	rec->i_ctime_nsec = cpu_to_le32(ts.tv_nsec);
	rec->i_crtime = cpu_to_le64(oi->i_crtime.tv_sec);
	rec->i_crtime_nsec = cpu_to_le32(oi->i_crtime.tv_nsec);
	rec->i_generation = cpu_to_le32(inode->i_generation);
	if (oi->oc.sized) {
		made = READ_ONCE(oi->oc.made);
		rec->i_made = cpu_to_le64(made);
	}
	rec->i_flags = cpu_to_le32(oi->i_flags);
	if (S_ISCHR(inode->i_mode) || S_ISBLK(inode->i_mode))
		rec->i_rdev = cpu_to_le32(new_encode_dev(inode->i_rdev));
	if (oi->i_flags & EXOFS_INODE_FL_INLINE)
		memcpy(rec->i_data, oi->i_data, sizeof(rec->i_data));
	rec->i_ino = cpu_to_le64(inode->i_ino);
	rec->i_csum = cpu_to_le32(exofs_inode_csum(rec));
	return made;
}

/*
 * Store @ino's record in the inode table's page cache: a copy of @inode,
 * or zeros (free) when @inode is NULL. The copy is taken under the folio
 * lock, which orders the writers of one record (the flusher, fsync, the
 * sync's exofs_record_made()): the last to copy has the newest values,
 * and made_rec moves only once the record in the cache holds it.
 */
static int exofs_put_record(struct super_block *sb, unsigned long ino,
			    struct inode *inode)
{
	struct exofs_inode *rec, tmp;
	struct folio *folio;
	u64 made = 0;

	folio = exofs_get_record(sb, ino, &rec);
	if (IS_ERR(folio)) {
		exofs_err(sb, __func__, "cannot read the inode table for inode %lu: %ld",
			  ino, PTR_ERR(folio));
		return PTR_ERR(folio);
	}
	folio_lock(folio);
	folio_wait_stable(folio);
	if (inode)
		made = exofs_inode_to_rec(inode, &tmp);
	else
		memset(&tmp, 0, sizeof(tmp));
	memcpy(rec, &tmp, sizeof(tmp));
	folio_mark_dirty(folio);
	if (inode && exofs_i(inode)->oc.sized)
		WRITE_ONCE(exofs_i(inode)->made_rec, made);
	folio_unlock(folio);
	folio_release_kmap(folio, rec);
	return 0;
}

/*
 * Make @inode's record, its bitmap bit when new, and the inode table
 * stable on the stores (fsync).
 */
int exofs_sync_inode_meta(struct inode *inode)
{
	struct super_block *sb = inode->i_sb;
	struct exofs_sb_info *sbi = exofs_sb(sb);
	loff_t pos = exofs_rec_pos(inode->i_ino);
	int err;

	err = filemap_write_and_wait_range(sbi->itable->i_mapping, pos,
					   pos + EXOFS_INODE_SIZE - 1);
	if (err)
		return err;
	if (test_and_clear_bit(EXOFS_I_NEW_INODE, &exofs_i(inode)->state)) {
		err = exofs_sync_ino_bit(sb, inode->i_ino);
		if (err) {
			set_bit(EXOFS_I_NEW_INODE, &exofs_i(inode)->state);
			return err;
		}
	}
	return ore_flush(&sbi->layout, &exofs_i(sbi->itable)->oc);
}

/* ------------------------------------------------------------------ */
/* inodes */

void exofs_set_inode_ops(struct inode *inode)
{
	struct exofs_i_info *oi = exofs_i(inode);

	inode->i_mapping->a_ops = &exofs_aops;
	switch (inode->i_mode & S_IFMT) {
	case S_IFREG:
		inode->i_op = &exofs_file_inode_operations;
		inode->i_fop = &exofs_file_operations;
		break;
	case S_IFDIR:
		inode->i_op = &exofs_dir_inode_operations;
		inode->i_fop = &exofs_dir_operations;
		break;
	case S_IFLNK:
		if (oi->i_flags & EXOFS_INODE_FL_INLINE) {
			inode->i_op = &exofs_fast_symlink_inode_operations;
			inode->i_link = (char *)oi->i_data;
		} else {
			inode->i_op = &exofs_symlink_inode_operations;
			inode_nohighmem(inode);
		}
		break;
	default:
		inode->i_op = &exofs_special_inode_operations;
		init_special_inode(inode, inode->i_mode, inode->i_rdev);
		break;
	}
}

struct inode *exofs_iget(struct super_block *sb, unsigned long ino)
{
	struct exofs_sb_info *sbi = exofs_sb(sb);
	struct exofs_inode *rec;
	struct folio *folio;
	struct inode *inode;
	const char *why;
	int err;

	if (ino == EXOFS_BAD_INO || ino >= sbi->max_ino) {
		exofs_err(sb, __func__, "inode number %lu out of range", ino);
		return ERR_PTR(-EFSCORRUPTED);
	}
	inode = iget_locked(sb, ino);
	if (!inode)
		return ERR_PTR(-ENOMEM);
	if (!(inode->i_state & I_NEW))
		return inode;

	exofs_init_comps(sbi, &exofs_i(inode)->oc, EXOFS_INO_OID(ino));
	folio = exofs_get_record(sb, ino, &rec);
	if (IS_ERR(folio)) {
		err = PTR_ERR(folio);
		exofs_err(sb, __func__, "cannot read the record of inode %lu: %d",
			  ino, err);
		goto fail;
	}
	if (exofs_inode_check(rec, ino, &why) == 1)
		why = "record is free";
	err = -EFSCORRUPTED;
	if (!why)
		exofs_rec_to_inode(inode, rec);
	folio_release_kmap(folio, rec);
	if (why) {
		exofs_err(sb, __func__, "inode %lu: %s", ino, why);
		goto fail;
	}
	exofs_set_inode_ops(inode);
	unlock_new_inode(inode);
	return inode;

fail:
	iget_failed(inode);
	return ERR_PTR(err);
}

/* The VFS inode for the internal object @oid (inode table, bitmap). */
struct inode *exofs_internal_inode(struct super_block *sb, unsigned long ino,
				   u64 oid, u64 size)
{
	struct inode *inode = new_inode(sb);

	if (!inode)
		return NULL;
	inode->i_ino = ino;
	inode->i_mode = S_IFREG;
	inode->i_size = size;
	exofs_init_comps(exofs_sb(sb), &exofs_i(inode)->oc, oid);
	inode->i_mapping->a_ops = &exofs_aops;
	mapping_set_gfp_mask(inode->i_mapping, GFP_NOFS);
	/*
	 * Hashed (under a number no record can have), so that its dirty
	 * pages go on the writeback lists and the flusher writes them.
	 */
	insert_inode_hash(inode);
	return inode;
}

/*
 * Allocate an inode number whose record is free. A set record under a
 * clear bit means a damaged bitmap: the bit stays set (the inode is in
 * use) and the search goes on.
 */
static int exofs_alloc_free_ino(struct super_block *sb, unsigned long *pino)
{
	struct exofs_inode *rec;
	struct folio *folio;
	int tries, err;
	bool busy;

	for (tries = 0; tries < 16; tries++) {
		err = exofs_alloc_ino(sb, pino);
		if (err)
			return err;
		folio = exofs_get_record(sb, *pino, &rec);
		if (IS_ERR(folio))
			return PTR_ERR(folio);
		busy = !exofs_inode_is_free(rec);
		folio_release_kmap(folio, rec);
		if (!busy)
			return 0;
		exofs_err(sb, __func__, "inode %lu is free in the bitmap but has a record: bitmap damaged, inode kept",
			  *pino);
	}
	return -EFSCORRUPTED;
}

/*
 * A new inode of @mode in @dir: allocates an inode number and writes the
 * record. The caller links it and, on failure, drops it (nlink 0 frees it).
 */
struct inode *exofs_new_inode(struct mnt_idmap *idmap, struct inode *dir,
			      umode_t mode)
{
	struct super_block *sb = dir->i_sb;
	struct exofs_sb_info *sbi = exofs_sb(sb);
	struct exofs_i_info *oi;
	struct inode *inode;
	unsigned long ino;
	int err;

	inode = new_inode(sb);
	if (!inode)
		return ERR_PTR(-ENOMEM);
	oi = exofs_i(inode);
	err = exofs_alloc_free_ino(sb, &ino);
	if (err) {
		make_bad_inode(inode);
		iput(inode);
		return ERR_PTR(err);
	}
	inode->i_ino = ino;
	inode_init_owner(idmap, inode, dir, mode);
	simple_inode_init_ts(inode);
	oi->i_crtime = inode_get_ctime(inode);
	inode->i_generation = get_random_u32();
	exofs_init_comps(sbi, &oi->oc, EXOFS_INO_OID(ino));
	if (S_ISREG(mode) || S_ISDIR(mode) || S_ISLNK(mode))
		oi->i_flags = EXOFS_INODE_FL_OBJECT;	/* symlink.c may change */
	set_bit(EXOFS_I_NEW_INODE, &oi->state);
	set_bit(EXOFS_I_NEW_LINK, &oi->state);
	/* a free number has no object (freeing removes it first) */
	set_bit(EXOFS_I_TAIL_CLEAN, &oi->state);

	if (insert_inode_locked(inode) < 0) {
		/* in use after all: its bit stays set */
		exofs_err(sb, __func__, "inode %lu allocated twice (bitmap corrupt?)",
			  ino);
		make_bad_inode(inode);
		iput(inode);
		return ERR_PTR(-EFSCORRUPTED);
	}
	mark_inode_dirty(inode);
	if (S_ISREG(mode) || S_ISDIR(mode)) {
		err = exofs_create_object(inode);
		if (err) {
			/* nlink 0: eviction removes it and frees the number */
			clear_nlink(inode);
			discard_new_inode(inode);
			return ERR_PTR(err);
		}
	}
	return inode;
}

/*
 * Create every component object of @inode's data object (empty), so that
 * a component found missing later is known to be lost, never a hole (see
 * docs/stores.md); nothing on a filesystem without
 * EXOFS_FEATURE_RO_COMPAT_COMPONENTS, whose components come lazily, nor
 * with EXOFS_FEATURE_RO_COMPAT_SIZED, whose writes and truncates make
 * those the size reaches. Called when the inode gets its object: regular
 * files and directories at creation, long symlinks when they become one.
 */
int exofs_create_object(struct inode *inode)
{
	struct exofs_sb_info *sbi = exofs_sb(inode->i_sb);
	struct ore_io_state *ios;
	int err;

	if (sbi->lazy_comps || exofs_i(inode)->oc.sized)	/* made by writes */
		return 0;
	err = ore_get_io_state(&sbi->layout, &exofs_i(inode)->oc, &ios);
	if (!err) {
		err = ore_create(ios);
		ore_put_io_state(ios);
	}
	if (err)
		exofs_err(inode->i_sb, __func__, "cannot create the object of inode %lu: %d",
			  inode->i_ino, err);
	return err;
}

int exofs_write_inode(struct inode *inode, struct writeback_control *wbc)
{
	if (inode->i_ino == EXOFS_ITABLE_INO ||
	    inode->i_ino == EXOFS_IBITMAP_INO)
		return 0;
	return exofs_put_record(inode->i_sb, inode->i_ino, inode);
}

/**
 * exofs_made_dirty - a write made components beyond the record's i_made
 * @inode: the inode, under writeback (it cannot go away)
 *
 * Sized components: the record must come to say so. The inode is dirtied,
 * for the flusher, and listed for the next sync, whose own pass over the
 * dirty inodes may have gone by before the write ended: exofs_sync_fs()
 * puts every listed record in the inode table before it writes the table
 * (exofs_record_made()). Process context.
 */
void exofs_made_dirty(struct inode *inode)
{
	struct exofs_sb_info *sbi = exofs_sb(inode->i_sb);
	struct exofs_i_info *oi = exofs_i(inode);

	mark_inode_dirty_sync(inode);
	spin_lock(&sbi->made_lock);
	if (list_empty(&oi->made_node))
		list_add_tail(&oi->made_node, &sbi->made_list);
	spin_unlock(&sbi->made_lock);
}

/**
 * exofs_record_made - put the records of the listed inodes in the table
 * @sbi: the filesystem
 *
 * Every inode exofs_made_dirty() listed gets its record (with its i_made)
 * written to the inode table's cache, one after another from here: a
 * sync does this once for all the files its writeback made, instead of
 * one update per file as its write ends, which contended for the table's
 * folios with the writeback of the table itself.
 *
 * An inode whose update failed stays listed, for the next sync.
 *
 * Return: 0, or the first error of a record update (logged).
 */
int exofs_record_made(struct exofs_sb_info *sbi)
{
	struct exofs_i_info *oi;
	LIST_HEAD(failed);
	unsigned int nofs;
	int err = 0, e = 0;

	mutex_lock(&sbi->made_mutex);
	/* reclaim must not evict (and wait for) the inode held here */
	nofs = memalloc_nofs_save();
	spin_lock(&sbi->made_lock);
	while ((oi = list_first_entry_or_null(&sbi->made_list,
					      struct exofs_i_info,
					      made_node))) {
		list_del_init(&oi->made_node);
		set_bit(EXOFS_I_MADE_BUSY, &oi->state);
		spin_unlock(&sbi->made_lock);
		if (oi->vfs_inode.i_nlink && exofs_made_unrecorded(oi)) {
			e = exofs_write_inode(&oi->vfs_inode, NULL);
			if (!err)
				err = e;
		}
		spin_lock(&sbi->made_lock);
		if (e && list_empty(&oi->made_node))
			list_add_tail(&oi->made_node, &failed);
		e = 0;
		clear_and_wake_up_bit(EXOFS_I_MADE_BUSY, &oi->state);
		spin_unlock(&sbi->made_lock);
		cond_resched();
		spin_lock(&sbi->made_lock);
	}
	list_splice(&failed, &sbi->made_list);
	spin_unlock(&sbi->made_lock);
	memalloc_nofs_restore(nofs);
	mutex_unlock(&sbi->made_mutex);
	return err;
}

/*
 * An inode leaving the cache leaves the list, or waits while a sync
 * writes its record; that sync may list it again (its update failed)
 * before it lets go, so it is taken off once more after.
 */
static void exofs_made_forget(struct inode *inode)
{
	struct exofs_sb_info *sbi = exofs_sb(inode->i_sb);
	struct exofs_i_info *oi = exofs_i(inode);

	spin_lock(&sbi->made_lock);
	list_del_init(&oi->made_node);
	spin_unlock(&sbi->made_lock);
	wait_on_bit(&oi->state, EXOFS_I_MADE_BUSY, TASK_UNINTERRUPTIBLE);
	spin_lock(&sbi->made_lock);
	list_del_init(&oi->made_node);
	spin_unlock(&sbi->made_lock);
}

/* ore_check_io() of a remove: a store in service kept its component. */
static void exofs_remove_left(struct ore_io_state *ios, u32 comp,
			      struct ore_store *store, u64 offset, int error)
{
	bool *left = ios->private;

	if (!ore_store_failed(store))
		*left = true;
}

/* Remove a deleted inode: its object, its record, its bitmap bit. */
static void exofs_delete_inode(struct inode *inode)
{
	struct super_block *sb = inode->i_sb;
	struct exofs_sb_info *sbi = exofs_sb(sb);
	struct exofs_i_info *oi = exofs_i(inode);
	struct ore_io_state *ios;
	bool left = false;
	int err = 0;

	if (oi->i_flags & EXOFS_INODE_FL_OBJECT) {
		err = ore_get_io_state(&sbi->layout, &oi->oc, &ios);
		if (!err) {
			err = ore_remove(ios);
			/*
			 * Sized components: nothing empties the components
			 * of a new inode (no ore_create()), so one that a
			 * working store kept would show its old data there
			 */
			if (!err && oi->oc.sized) {
				ios->private = &left;
				ore_check_io(ios, exofs_remove_left);
				if (left)
					err = -EIO;
			}
			ore_put_io_state(ios);
		}
	}
	if (err) {
		exofs_err(sb, __func__, "cannot remove the object of inode %lu: %d; the inode number stays in use",
			  inode->i_ino, err);
		exofs_put_record(sb, inode->i_ino, NULL);
		return;
	}
	if (!exofs_put_record(sb, inode->i_ino, NULL))
		exofs_free_ino(sb, inode->i_ino);
}

void exofs_evict_inode(struct inode *inode)
{
	bool del = !inode->i_nlink && !is_bad_inode(inode) &&
		   inode->i_ino != EXOFS_ITABLE_INO &&
		   inode->i_ino != EXOFS_IBITMAP_INO;

	truncate_inode_pages_final(&inode->i_data);
	/* its writes have ended: none lists it again */
	exofs_made_forget(inode);
	if (del && !sb_rdonly(inode->i_sb))
		exofs_delete_inode(inode);
	clear_inode(inode);
}

/* Change the size of a regular file. */
static int exofs_truncate(struct inode *inode, loff_t size)
{
	loff_t old = i_size_read(inode);
	int err;

	if (size > old) {
		err = exofs_clean_tail(inode, old);
		if (err)
			return err;
	}
	truncate_setsize(inode, size);
	err = exofs_truncate_object(inode, size);
	if (err)
		clear_bit(EXOFS_I_TAIL_CLEAN, &exofs_i(inode)->state);
	else if (size < old)
		set_bit(EXOFS_I_TAIL_CLEAN, &exofs_i(inode)->state);
	if (err)
		exofs_err(inode->i_sb, __func__, "truncate of inode %lu to %lld failed: %d",
			  inode->i_ino, size, err);
	inode->i_blocks = DIV_ROUND_UP_ULL(size, 512);
	return err;
}

/*
 * A size change conflicts with the pNFS layouts of the file: recall them
 * and wait for their return. i_rwsem is held, and a client's LAYOUTCOMMIT
 * before its return needs it: the wait runs with it dropped, as
 * xfs_break_layouts() does (the caller sees i_rwsem held again on
 * return). nfsd's threads do not wait (see exofs_file_write_iter()): they
 * get -EWOULDBLOCK, which nfsd answers with NFS4ERR_DELAY.
 */
int exofs_break_layouts(struct inode *inode, bool *dropped)
{
	int err;

	while ((err = break_layout(inode, false)) == -EWOULDBLOCK &&
	       !exofs_in_nfsd()) {
		inode_unlock(inode);
		err = break_layout(inode, true);
		inode_lock(inode);
		*dropped = true;
		if (err)
			return err;
	}
	return err;
}

/*
 * notify_change() set @attr's times and turned ATTR_KILL_SUID/SGID into a
 * mode before calling ->setattr; with i_rwsem dropped since, the inode may
 * have changed (a chmod, a client's LAYOUTCOMMIT setting later times):
 * take them again from now.
 */
static void exofs_setattr_refresh(struct inode *inode, struct iattr *attr)
{
	struct timespec64 now = current_time(inode);

	attr->ia_ctime = now;
	if ((attr->ia_valid & ATTR_ATIME) && !(attr->ia_valid & ATTR_ATIME_SET))
		attr->ia_atime = now;
	if ((attr->ia_valid & ATTR_MTIME) && !(attr->ia_valid & ATTR_MTIME_SET))
		attr->ia_mtime = now;
	if ((attr->ia_valid & ATTR_MODE) &&
	    (attr->ia_valid & (ATTR_KILL_SUID | ATTR_KILL_SGID))) {
		umode_t mode = inode->i_mode;

		if (attr->ia_valid & ATTR_KILL_SUID)
			mode &= ~S_ISUID;
		if ((attr->ia_valid & ATTR_KILL_SGID) && (mode & 0010)) /* g+x */
			mode &= ~S_ISGID;
		attr->ia_mode = mode;
	}
}

int exofs_setattr(struct mnt_idmap *idmap, struct dentry *dentry,
		  struct iattr *attr)
{
	struct inode *inode = d_inode(dentry);
	bool dropped = false;
	int err;

	/* first: the wait drops i_rwsem, and the size may change meanwhile */
	if ((attr->ia_valid & ATTR_SIZE) && S_ISREG(inode->i_mode) &&
	    attr->ia_size != inode->i_size) {
		err = exofs_break_layouts(inode, &dropped);
		if (!err)
			err = exofs_pnfs_refresh(inode, false);
		if (err)
			return err;
		if (dropped)
			exofs_setattr_refresh(inode, attr);
	}
	err = setattr_prepare(idmap, dentry, attr);
	if (err)
		return err;
	if ((attr->ia_valid & ATTR_SIZE) && attr->ia_size != inode->i_size) {
		if (!S_ISREG(inode->i_mode))
			return -EINVAL;
		err = exofs_truncate(inode, attr->ia_size);
		if (err)
			return err;
		/*
		 * A size change marks mtime and ctime (POSIX truncate());
		 * truncate(2) asks for neither, ftruncate(2) for both (then
		 * setattr_copy() takes the caller's)
		 */
		inode_set_mtime_to_ts(inode, inode_set_ctime_current(inode));
	}
	setattr_copy(idmap, inode, attr);
	mark_inode_dirty(inode);
	return 0;
}

int exofs_getattr(struct mnt_idmap *idmap, const struct path *path,
		  struct kstat *stat, u32 request_mask, unsigned int flags)
{
	struct inode *inode = d_inode(path->dentry);
	struct exofs_i_info *oi = exofs_i(inode);

	if (request_mask & STATX_BTIME) {
		stat->result_mask |= STATX_BTIME;
		stat->btime = oi->i_crtime;
	}
	generic_fillattr(idmap, request_mask, inode, stat);
	stat->blocks = DIV_ROUND_UP_ULL(i_size_read(inode), 512);
	return 0;
}
