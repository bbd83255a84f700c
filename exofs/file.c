// SPDX-License-Identifier: GPL-2.0
/*
 * exofs regular files: the generic page cache paths (read_iter, write_iter
 * under the inode lock, mmap with filemap_page_mkwrite, splice) over the
 * address_space_operations of data.c, and fsync; local writes (write_iter,
 * write faults) recall the file's pNFS layouts first.
 */
#include <linux/filelock.h>
#include <linux/fs.h>
#include <linux/pagemap.h>
#include <linux/mm.h>

#include "exofs.h"

/*
 * A name made since the inode was last synced lives in its parent
 * directory: sync the parent too, so that an fsync'd new file is found
 * after a crash.
 */
static int exofs_sync_parent(struct file *file)
{
	struct inode *inode = file_inode(file);
	struct dentry *parent;
	struct inode *dir;
	int err;

	if (!test_and_clear_bit(EXOFS_I_NEW_LINK, &exofs_i(inode)->state))
		return 0;
	parent = dget_parent(file_dentry(file));
	dir = d_inode(parent);
	err = filemap_write_and_wait(dir->i_mapping);
	if (!err)
		err = sync_inode_metadata(dir, 1);
	if (!err)
		err = exofs_sync_inode_meta(dir);
	if (!err)
		err = ore_flush(&exofs_sb(dir->i_sb)->layout,
				&exofs_i(dir)->oc);
	dput(parent);
	if (err)
		set_bit(EXOFS_I_NEW_LINK, &exofs_i(inode)->state);
	return err;
}

/**
 * exofs_fsync - make a file's data and attributes stable on the stores
 * @file: the file
 * @start: first byte of the data range
 * @end: last byte of the data range
 * @datasync: fdatasync(): the attributes are synced all the same (one
 *	inode table page), as they hold the size
 *
 * Return: 0 or a negative errno (a writeback error such as -ENOSPC or
 * -EIO seen since the file was opened or last synced).
 */
int exofs_fsync(struct file *file, loff_t start, loff_t end, int datasync)
{
	struct inode *inode = file->f_mapping->host;
	struct exofs_sb_info *sbi = exofs_sb(inode->i_sb);
	int err, err2;

	err = file_write_and_wait_range(file, start, end);
	if (err)
		return err;
	err = sync_inode_metadata(inode, 1);
	if (!err)
		err = exofs_sync_inode_meta(inode);
	if (!err && (exofs_i(inode)->i_flags & EXOFS_INODE_FL_OBJECT))
		err = ore_flush(&sbi->layout, &exofs_i(inode)->oc);
	if (!err)
		err = exofs_sync_parent(file);
	/* a store failed on the way: done once the superblocks say so */
	if (!err)
		err = exofs_wait_failures(sbi);
	err2 = file_check_and_advance_wb_err(file);
	return err ? err : err2;
}

/*
 * Is this one of nfsd's threads? They are kernel threads named "nfsd"
 * (fs/nfsd/nfssvc.c); nothing else names them to a filesystem.
 */
bool exofs_in_nfsd(void)
{
	return (current->flags & PF_KTHREAD) &&
	       !strcmp(current->comm, "nfsd");
}

/*
 * A local write (or one of nfsd's, through the MDS) conflicts with the
 * pNFS layouts of the file: recall them and wait until they are returned
 * (their holders write the components directly). nfsd's threads do not
 * wait: the clients' answers to the recall arrive on connections that
 * nfsd's own threads read, so a few writes of a client through the MDS
 * would hold every thread while its answer waits unread. They get
 * -EWOULDBLOCK once the recall is started; nfsd answers NFS4ERR_DELAY and
 * the client sends the write again.
 */
static ssize_t exofs_file_write_iter(struct kiocb *iocb, struct iov_iter *from)
{
	struct inode *inode = file_inode(iocb->ki_filp);
	int err = break_layout(inode, !exofs_in_nfsd());

	if (!err)
		err = exofs_pnfs_refresh(inode, false);
	if (err)
		return err;
	return generic_file_write_iter(iocb, from);
}

/*
 * A write fault on a shared mapping is a local write too: recall the
 * file's pNFS layouts and wait for their return before the page becomes
 * writable, as exofs_file_write_iter() does. A client that takes a layout
 * again afterwards gets it only once the dirty page is written back and
 * the page cache dropped (exofs_pnfs_layout_prepare()), so the next write
 * to the mapping faults here again. A signal while waiting retries the
 * fault once it is handled.
 */
static vm_fault_t exofs_page_mkwrite(struct vm_fault *vmf)
{
	struct inode *inode = file_inode(vmf->vma->vm_file);
	int err = break_layout(inode, true);

	if (!err)
		err = exofs_pnfs_refresh(inode, false);
	if (err == -ERESTARTSYS || err == -EINTR)
		return VM_FAULT_NOPAGE;
	if (err)
		return vmf_fs_error(err);
	return filemap_page_mkwrite(vmf);
}

static const struct vm_operations_struct exofs_file_vm_ops = {
	.fault		= filemap_fault,
	.map_pages	= filemap_map_pages,
	.page_mkwrite	= exofs_page_mkwrite,
};

static int exofs_file_mmap(struct file *file, struct vm_area_struct *vma)
{
	file_accessed(file);
	vma->vm_ops = &exofs_file_vm_ops;
	return 0;
}

const struct file_operations exofs_file_operations = {
	.llseek		= generic_file_llseek,
	.read_iter	= generic_file_read_iter,
	.write_iter	= exofs_file_write_iter,
	.mmap		= exofs_file_mmap,
	.open		= generic_file_open,
	.fsync		= exofs_fsync,
	.splice_read	= filemap_splice_read,
	.splice_write	= iter_file_splice_write,
};

const struct inode_operations exofs_file_inode_operations = {
	.setattr	= exofs_setattr,
	.getattr	= exofs_getattr,
};
