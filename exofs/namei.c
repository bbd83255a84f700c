// SPDX-License-Identifier: GPL-2.0
/*
 * exofs names: the inode operations of directories. The VFS holds the
 * i_rwsem of the directories involved (and, for a cross-directory rename,
 * the filesystem's s_vfs_rename_mutex).
 */
#include <linux/fs.h>
#include <linux/pagemap.h>
#include <linux/highmem.h>

#include "exofs.h"

static struct dentry *exofs_lookup(struct inode *dir, struct dentry *dentry,
				   unsigned int flags)
{
	struct inode *inode = NULL;
	ino_t ino;
	int err;

	if (dentry->d_name.len > EXOFS_NAME_LEN)
		return ERR_PTR(-ENAMETOOLONG);
	err = exofs_inode_by_name(dir, &dentry->d_name, &ino);
	if (!err)
		inode = exofs_iget(dir->i_sb, ino);
	else if (err != -ENOENT)
		inode = ERR_PTR(err);
	return d_splice_alias(inode, dentry);
}

static int exofs_add_nondir(struct dentry *dentry, struct inode *inode)
{
	int err = exofs_add_link(dentry, inode);

	if (!err) {
		d_instantiate_new(dentry, inode);
		return 0;
	}
	inode_dec_link_count(inode);
	discard_new_inode(inode);
	return err;
}

static int exofs_create(struct mnt_idmap *idmap, struct inode *dir,
			struct dentry *dentry, umode_t mode, bool excl)
{
	struct inode *inode = exofs_new_inode(idmap, dir, mode);

	if (IS_ERR(inode))
		return PTR_ERR(inode);
	exofs_set_inode_ops(inode);
	mark_inode_dirty(inode);
	return exofs_add_nondir(dentry, inode);
}

static int exofs_mknod(struct mnt_idmap *idmap, struct inode *dir,
		       struct dentry *dentry, umode_t mode, dev_t rdev)
{
	struct inode *inode;

	if (!S_ISCHR(mode) && !S_ISBLK(mode) && !S_ISFIFO(mode) &&
	    !S_ISSOCK(mode) && !S_ISREG(mode))
		return -EINVAL;
	inode = exofs_new_inode(idmap, dir, mode);
	if (IS_ERR(inode))
		return PTR_ERR(inode);
	inode->i_rdev = rdev;
	exofs_set_inode_ops(inode);
	mark_inode_dirty(inode);
	return exofs_add_nondir(dentry, inode);
}

static int exofs_symlink(struct mnt_idmap *idmap, struct inode *dir,
			 struct dentry *dentry, const char *symname)
{
	unsigned int len = strlen(symname) + 1;
	struct exofs_i_info *oi;
	struct inode *inode;
	int err;

	if (len > PAGE_SIZE || len > PATH_MAX)
		return -ENAMETOOLONG;
	inode = exofs_new_inode(idmap, dir, S_IFLNK | 0777);
	if (IS_ERR(inode))
		return PTR_ERR(inode);
	oi = exofs_i(inode);
	if (len <= EXOFS_INLINE_SYMLINK_MAX) {
		oi->i_flags = EXOFS_INODE_FL_INLINE;
		memset(oi->i_data, 0, sizeof(oi->i_data));
		memcpy(oi->i_data, symname, len);
		inode->i_size = len - 1;
		exofs_set_inode_ops(inode);
	} else {
		oi->i_flags = EXOFS_INODE_FL_OBJECT;
		exofs_set_inode_ops(inode);
		err = exofs_create_object(inode);
		if (!err)
			err = page_symlink(inode, symname, len);
		if (err)
			goto out_fail;
	}
	mark_inode_dirty(inode);
	return exofs_add_nondir(dentry, inode);

out_fail:
	inode_dec_link_count(inode);
	discard_new_inode(inode);
	return err;
}

static int exofs_link(struct dentry *old_dentry, struct inode *dir,
		      struct dentry *dentry)
{
	struct inode *inode = d_inode(old_dentry);
	int err;

	inode_set_ctime_current(inode);
	inode_inc_link_count(inode);
	ihold(inode);
	err = exofs_add_link(dentry, inode);
	if (!err) {
		d_instantiate(dentry, inode);
		return 0;
	}
	inode_dec_link_count(inode);
	iput(inode);
	return err;
}

/*
 * Can a name of @inode (a subdirectory when @subdir) go from @dir? Not when
 * the link counts are smaller than the names that exist: a damaged record
 * (nlink below the minimum would delete a live inode at eviction).
 */
static int exofs_may_drop(struct inode *dir, struct inode *inode, bool subdir)
{
	if (inode->i_nlink >= (subdir ? 2U : 1U) &&
	    (!subdir || dir->i_nlink >= 3))
		return 0;
	exofs_err(dir->i_sb, __func__, "inode %lu (%u links) in directory %lu (%u links): link count too small, filesystem damaged (run fsck.exofs)",
		  inode->i_ino, inode->i_nlink, dir->i_ino, dir->i_nlink);
	return -EFSCORRUPTED;
}

static int exofs_unlink(struct inode *dir, struct dentry *dentry)
{
	struct inode *inode = d_inode(dentry);
	struct exofs_dir_entry *de;
	struct folio *folio;
	int err;

	err = exofs_may_drop(dir, inode, S_ISDIR(inode->i_mode));
	if (err)
		return err;
	de = exofs_find_entry(dir, &dentry->d_name, &folio);
	if (IS_ERR(de))
		return PTR_ERR(de);
	if (le64_to_cpu(de->inode) != inode->i_ino) {
		folio_release_kmap(folio, de);
		exofs_err(dir->i_sb, __func__, "directory %lu: entry %pd points at inode %llu, not %lu",
			  dir->i_ino, dentry, le64_to_cpu(de->inode),
			  inode->i_ino);
		return -EFSCORRUPTED;
	}
	err = exofs_delete_entry(de, folio);
	folio_release_kmap(folio, de);
	if (err)
		return err;
	inode_set_ctime_to_ts(inode, inode_get_ctime(dir));
	inode_dec_link_count(inode);
	return 0;
}

static int exofs_mkdir(struct mnt_idmap *idmap, struct inode *dir,
		       struct dentry *dentry, umode_t mode)
{
	struct inode *inode;
	int err;

	if (dir->i_nlink >= EXOFS_LINK_MAX)
		return -EMLINK;
	inode_inc_link_count(dir);
	inode = exofs_new_inode(idmap, dir, S_IFDIR | mode);
	err = PTR_ERR(inode);
	if (IS_ERR(inode))
		goto out_dir;
	exofs_set_inode_ops(inode);
	inode_inc_link_count(inode);
	err = exofs_make_empty(inode, dir);
	if (err)
		goto out_fail;
	err = exofs_add_link(dentry, inode);
	if (err)
		goto out_fail;
	d_instantiate_new(dentry, inode);
	return 0;

out_fail:
	inode_dec_link_count(inode);
	inode_dec_link_count(inode);
	discard_new_inode(inode);
out_dir:
	inode_dec_link_count(dir);
	return err;
}

static int exofs_rmdir(struct inode *dir, struct dentry *dentry)
{
	struct inode *inode = d_inode(dentry);
	int err;

	if (!exofs_empty_dir(inode))
		return -ENOTEMPTY;
	err = exofs_unlink(dir, dentry);
	if (err)
		return err;
	inode_dec_link_count(inode);
	inode_dec_link_count(dir);
	return 0;
}

/* RENAME_EXCHANGE: swap what two names point at. */
static int exofs_exchange(struct inode *old_dir, struct dentry *old_dentry,
			  struct inode *new_dir, struct dentry *new_dentry)
{
	struct inode *old_inode = d_inode(old_dentry);
	struct inode *new_inode = d_inode(new_dentry);
	bool old_is_dir = S_ISDIR(old_inode->i_mode);
	bool new_is_dir = S_ISDIR(new_inode->i_mode);
	struct exofs_dir_entry *old_de, *new_de;
	struct folio *old_folio, *new_folio;
	int err;

	if (old_dir != new_dir && old_is_dir != new_is_dir) {
		struct inode *gains = old_is_dir ? new_dir : old_dir;

		if (gains->i_nlink >= EXOFS_LINK_MAX)
			return -EMLINK;
		err = old_is_dir ? exofs_may_drop(old_dir, old_inode, true) :
				   exofs_may_drop(new_dir, new_inode, true);
		if (err)
			return err;
	}
	old_de = exofs_find_entry(old_dir, &old_dentry->d_name, &old_folio);
	if (IS_ERR(old_de))
		return PTR_ERR(old_de);
	new_de = exofs_find_entry(new_dir, &new_dentry->d_name, &new_folio);
	if (IS_ERR(new_de)) {
		err = PTR_ERR(new_de);
		goto out_old;
	}
	err = exofs_set_link(new_dir, new_de, new_folio, old_inode, true);
	if (err)
		goto out_new;
	err = exofs_set_link(old_dir, old_de, old_folio, new_inode, true);
	if (err)
		goto out_new;
	set_bit(EXOFS_I_NEW_LINK, &exofs_i(old_inode)->state);
	set_bit(EXOFS_I_NEW_LINK, &exofs_i(new_inode)->state);
	inode_set_ctime_current(old_inode);
	inode_set_ctime_current(new_inode);
	mark_inode_dirty(old_inode);
	mark_inode_dirty(new_inode);
	if (old_dir != new_dir) {
		struct exofs_dir_entry *dd;
		struct folio *dd_folio;

		if (old_is_dir) {
			dd = exofs_dotdot(old_inode, &dd_folio);
			if (IS_ERR(dd)) {
				err = PTR_ERR(dd);
				goto out_new;
			}
			err = exofs_set_link(old_inode, dd, dd_folio, new_dir,
					     false);
			folio_release_kmap(dd_folio, dd);
			if (err)
				goto out_new;
		}
		if (new_is_dir) {
			dd = exofs_dotdot(new_inode, &dd_folio);
			if (IS_ERR(dd)) {
				err = PTR_ERR(dd);
				goto out_new;
			}
			err = exofs_set_link(new_inode, dd, dd_folio, old_dir,
					     false);
			folio_release_kmap(dd_folio, dd);
			if (err)
				goto out_new;
		}
		if (old_is_dir && !new_is_dir) {
			inode_dec_link_count(old_dir);
			inode_inc_link_count(new_dir);
		} else if (new_is_dir && !old_is_dir) {
			inode_dec_link_count(new_dir);
			inode_inc_link_count(old_dir);
		}
	}
out_new:
	folio_release_kmap(new_folio, new_de);
out_old:
	folio_release_kmap(old_folio, old_de);
	return err;
}

static int exofs_rename(struct mnt_idmap *idmap, struct inode *old_dir,
			struct dentry *old_dentry, struct inode *new_dir,
			struct dentry *new_dentry, unsigned int flags)
{
	struct inode *old_inode = d_inode(old_dentry);
	struct inode *new_inode = d_inode(new_dentry);
	bool old_is_dir = S_ISDIR(old_inode->i_mode);
	struct exofs_dir_entry *dir_de = NULL, *old_de;
	struct folio *dir_folio = NULL, *old_folio;
	int err;

	if (flags & ~(RENAME_NOREPLACE | RENAME_EXCHANGE))
		return -EINVAL;
	if (flags & RENAME_EXCHANGE)
		return exofs_exchange(old_dir, old_dentry, new_dir, new_dentry);

	if (old_is_dir && !new_inode && old_dir != new_dir &&
	    new_dir->i_nlink >= EXOFS_LINK_MAX)
		return -EMLINK;
	if (old_is_dir && old_dir != new_dir) {
		err = exofs_may_drop(old_dir, old_inode, true);
		if (err)
			return err;
	}
	if (new_inode) {
		err = exofs_may_drop(new_dir, new_inode,
				     S_ISDIR(new_inode->i_mode));
		if (err)
			return err;
	}
	old_de = exofs_find_entry(old_dir, &old_dentry->d_name, &old_folio);
	if (IS_ERR(old_de))
		return PTR_ERR(old_de);
	if (old_is_dir && old_dir != new_dir) {
		dir_de = exofs_dotdot(old_inode, &dir_folio);
		if (IS_ERR(dir_de)) {
			err = PTR_ERR(dir_de);
			dir_de = NULL;
			goto out_old;
		}
	}
	if (new_inode) {
		struct exofs_dir_entry *new_de;
		struct folio *new_folio;

		err = -ENOTEMPTY;
		if (old_is_dir && !exofs_empty_dir(new_inode))
			goto out_dir;
		new_de = exofs_find_entry(new_dir, &new_dentry->d_name,
					  &new_folio);
		if (IS_ERR(new_de)) {
			err = PTR_ERR(new_de);
			goto out_dir;
		}
		err = exofs_set_link(new_dir, new_de, new_folio, old_inode,
				     true);
		folio_release_kmap(new_folio, new_de);
		if (err)
			goto out_dir;
		set_bit(EXOFS_I_NEW_LINK, &exofs_i(old_inode)->state);
		inode_set_ctime_current(new_inode);
		if (old_is_dir)
			drop_nlink(new_inode);
		inode_dec_link_count(new_inode);
	} else {
		err = exofs_add_link(new_dentry, old_inode);
		if (err)
			goto out_dir;
		if (old_is_dir)
			inode_inc_link_count(new_dir);
	}
	inode_set_ctime_current(old_inode);
	mark_inode_dirty(old_inode);

	err = exofs_delete_entry(old_de, old_folio);
	if (!err && old_is_dir) {
		if (old_dir != new_dir)
			err = exofs_set_link(old_inode, dir_de, dir_folio,
					     new_dir, false);
		inode_dec_link_count(old_dir);
	}
out_dir:
	if (dir_de)
		folio_release_kmap(dir_folio, dir_de);
out_old:
	folio_release_kmap(old_folio, old_de);
	return err;
}

const struct inode_operations exofs_dir_inode_operations = {
	.create		= exofs_create,
	.lookup		= exofs_lookup,
	.link		= exofs_link,
	.unlink		= exofs_unlink,
	.symlink	= exofs_symlink,
	.mkdir		= exofs_mkdir,
	.rmdir		= exofs_rmdir,
	.mknod		= exofs_mknod,
	.rename		= exofs_rename,
	.setattr	= exofs_setattr,
	.getattr	= exofs_getattr,
};

const struct inode_operations exofs_special_inode_operations = {
	.setattr	= exofs_setattr,
	.getattr	= exofs_getattr,
};
