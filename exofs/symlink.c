// SPDX-License-Identifier: GPL-2.0
/*
 * exofs symlinks: a target shorter than EXOFS_INLINE_SIZE bytes is kept in
 * the inode record (i_link points at it); a longer one is the contents of
 * the inode's object, read through the page cache.
 */
#include <linux/fs.h>
#include <linux/namei.h>

#include "exofs.h"

const struct inode_operations exofs_fast_symlink_inode_operations = {
	.get_link	= simple_get_link,
	.setattr	= exofs_setattr,
	.getattr	= exofs_getattr,
};

const struct inode_operations exofs_symlink_inode_operations = {
	.get_link	= page_get_link,
	.setattr	= exofs_setattr,
	.getattr	= exofs_getattr,
};
