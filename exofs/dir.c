// SPDX-License-Identifier: GPL-2.0
/*
 * exofs directories: ext2-style entries (64-bit inode number, rec_len,
 * name_len, file_type, name) in EXOFS_DIR_CHUNK byte chunks of the
 * directory's own object, through its page cache. The rules are in
 * docs/exofs-format.md. Every folio is validated once, the first time it is
 * used after being read (folio "checked" flag); a bad entry is an error,
 * never a crash. The callers hold the directory's i_rwsem.
 */
#include <linux/fs.h>
#include <linux/pagemap.h>
#include <linux/highmem.h>
#include <linux/iversion.h>
#include <linux/slab.h>

#include "exofs.h"

static inline unsigned int exofs_rec_len(const struct exofs_dir_entry *de)
{
	return le16_to_cpu(de->rec_len);
}

static inline struct exofs_dir_entry *exofs_next_entry(struct exofs_dir_entry *de)
{
	return (struct exofs_dir_entry *)((char *)de + exofs_rec_len(de));
}

/* Bytes of page @n that hold directory data (i_size may end inside it). */
static unsigned int exofs_last_byte(struct inode *dir, unsigned long n)
{
	loff_t last = dir->i_size - ((loff_t)n << PAGE_SHIFT);

	return last > PAGE_SIZE ? PAGE_SIZE : (unsigned int)last;
}

static bool exofs_check_folio(struct folio *folio, char *kaddr)
{
	struct inode *dir = folio->mapping->host;
	struct super_block *sb = dir->i_sb;
	u64 max_ino = exofs_sb(sb)->max_ino;
	unsigned int offs, rec_len = 0, limit = folio_size(folio);
	struct exofs_dir_entry *p = NULL;
	const char *why;

	if (dir->i_size < folio_pos(folio) + limit) {
		limit = offset_in_folio(folio, dir->i_size);
		if (limit % EXOFS_DIR_CHUNK) {
			exofs_err(sb, __func__, "directory %lu: size %lld is not a multiple of the chunk",
				  dir->i_ino, dir->i_size);
			return false;
		}
		if (!limit)
			goto out;
	}
	for (offs = 0; offs <= limit - EXOFS_DIR_REC_LEN(1); offs += rec_len) {
		p = (struct exofs_dir_entry *)(kaddr + offs);
		rec_len = exofs_rec_len(p);

		if (rec_len < EXOFS_DIR_REC_LEN(1)) {
			why = "rec_len is smaller than minimal";
			goto bad_entry;
		}
		if (rec_len % EXOFS_DIR_PAD) {
			why = "unaligned directory entry";
			goto bad_entry;
		}
		if (rec_len < EXOFS_DIR_REC_LEN(p->name_len)) {
			why = "rec_len is too small for name_len";
			goto bad_entry;
		}
		if ((offs + rec_len - 1) / EXOFS_DIR_CHUNK !=
		    offs / EXOFS_DIR_CHUNK) {
			why = "directory entry across chunks";
			goto bad_entry;
		}
		if (le64_to_cpu(p->inode) >= max_ino) {
			why = "inode number out of range";
			goto bad_entry;
		}
		if (p->inode && (!p->name_len || p->file_type >= EXOFS_FT_MAX)) {
			why = "bad name length or file type";
			goto bad_entry;
		}
		if (p->inode && memchr(p->name, '/', p->name_len)) {
			why = "name contains a slash";
			goto bad_entry;
		}
	}
	if (offs != limit) {
		why = "entries do not fill the chunk";
		goto bad_entry;
	}
out:
	folio_set_checked(folio);
	return true;

bad_entry:
	exofs_err(sb, __func__, "directory %lu: %s at offset %llu (inode %llu, rec_len %u, name_len %u)",
		  dir->i_ino, why, folio_pos(folio) + offs,
		  p ? le64_to_cpu(p->inode) : 0, rec_len, p ? p->name_len : 0);
	return false;
}

/*
 * Page @n of @dir, read, checked and mapped; release with
 * folio_release_kmap(). Nest as kmap_local_folio() requires.
 */
static void *exofs_get_folio(struct inode *dir, unsigned long n,
			     struct folio **foliop)
{
	struct folio *folio = read_mapping_folio(dir->i_mapping, n, NULL);
	void *kaddr;

	if (IS_ERR(folio))
		return ERR_CAST(folio);
	kaddr = kmap_local_folio(folio, 0);
	if (unlikely(!folio_test_checked(folio))) {
		if (!exofs_check_folio(folio, kaddr)) {
			folio_release_kmap(folio, kaddr);
			return ERR_PTR(-EFSCORRUPTED);
		}
	}
	*foliop = folio;
	return kaddr;
}

static inline bool exofs_match(int len, const char *name, struct exofs_dir_entry *de)
{
	return de->inode && len == de->name_len &&
	       !memcmp(name, de->name, len);
}

/* Make the change to [pos, pos + len) of the locked @folio count. */
static void exofs_commit_chunk(struct folio *folio, loff_t pos,
			       unsigned int len)
{
	struct inode *dir = folio->mapping->host;

	inode_inc_iversion(dir);
	folio_mark_dirty(folio);
	if (pos + len > dir->i_size) {
		i_size_write(dir, pos + len);
		mark_inode_dirty(dir);
	}
	folio_unlock(folio);
}

/* Lock @folio for a change: no one may see it changed while written. */
static void exofs_lock_chunk(struct folio *folio)
{
	folio_lock(folio);
	folio_wait_stable(folio);
}

static int exofs_handle_dirsync(struct inode *dir)
{
	int err;

	if (!IS_DIRSYNC(dir))
		return 0;
	err = filemap_write_and_wait(dir->i_mapping);
	if (!err)
		err = sync_inode_metadata(dir, 1);
	if (!err)
		err = exofs_sync_inode_meta(dir);
	return err;
}

/*
 * The directory changed since the last readdir: @offset may no longer be
 * the start of an entry. Returns the offset of the first entry at or
 * after it (its chunk was checked, so the rec_len walk stays inside).
 */
static unsigned int exofs_validate_entry(char *base, unsigned int offset)
{
	struct exofs_dir_entry *de = (struct exofs_dir_entry *)(base + offset);
	struct exofs_dir_entry *p = (struct exofs_dir_entry *)(base +
					   round_down(offset, EXOFS_DIR_CHUNK));

	while (p < de) {
		if (!p->rec_len)
			break;
		p = exofs_next_entry(p);
	}
	return (char *)p - base;
}

static int exofs_readdir(struct file *file, struct dir_context *ctx)
{
	struct inode *inode = file_inode(file);
	struct super_block *sb = inode->i_sb;
	loff_t pos = ctx->pos;
	unsigned int offset = offset_in_page(pos);
	unsigned long n = pos >> PAGE_SHIFT;
	unsigned long npages = dir_pages(inode);
	bool need_revalidate = !inode_eq_iversion(inode,
						  *(u64 *)file->private_data);

	if (pos > inode->i_size - EXOFS_DIR_REC_LEN(1))
		return 0;

	for ( ; n < npages; n++, offset = 0) {
		struct folio *folio;
		char *kaddr = exofs_get_folio(inode, n, &folio);
		struct exofs_dir_entry *de;
		char *limit;

		if (IS_ERR(kaddr)) {
			ctx->pos += PAGE_SIZE - offset;
			return PTR_ERR(kaddr);
		}
		if (unlikely(need_revalidate)) {
			if (offset) {
				offset = exofs_validate_entry(kaddr, offset);
				ctx->pos = ((loff_t)n << PAGE_SHIFT) + offset;
			}
			*(u64 *)file->private_data = inode_query_iversion(inode);
			need_revalidate = false;
		}
		de = (struct exofs_dir_entry *)(kaddr + offset);
		limit = kaddr + exofs_last_byte(inode, n) - EXOFS_DIR_REC_LEN(1);
		for ( ; (char *)de <= limit; de = exofs_next_entry(de)) {
			if (!de->rec_len) {
				exofs_err(sb, __func__, "directory %lu: zero-length entry",
					  inode->i_ino);
				folio_release_kmap(folio, kaddr);
				return -EFSCORRUPTED;
			}
			if (de->inode &&
			    !dir_emit(ctx, de->name, de->name_len,
				      le64_to_cpu(de->inode),
				      fs_ftype_to_dtype(de->file_type))) {
				folio_release_kmap(folio, kaddr);
				return 0;
			}
			ctx->pos += exofs_rec_len(de);
		}
		folio_release_kmap(folio, kaddr);
	}
	return 0;
}

/**
 * exofs_find_entry - look a name up in a directory
 * @dir: the directory
 * @child: the name
 * @foliop: receives the folio holding the entry (mapped)
 *
 * Return: the entry (release with folio_release_kmap(*@foliop, entry)),
 * ERR_PTR(-ENOENT) when there is none, or another ERR_PTR.
 */
struct exofs_dir_entry *exofs_find_entry(struct inode *dir,
					 const struct qstr *child,
					 struct folio **foliop)
{
	const char *name = child->name;
	int namelen = child->len;
	unsigned int reclen = EXOFS_DIR_REC_LEN(namelen);
	unsigned long npages = dir_pages(dir);
	struct exofs_i_info *oi = exofs_i(dir);
	unsigned long start, n;

	if (!npages)
		return ERR_PTR(-ENOENT);
	start = oi->dir_start_lookup;
	if (start >= npages)
		start = 0;
	n = start;
	do {
		char *kaddr = exofs_get_folio(dir, n, foliop);
		struct exofs_dir_entry *de;

		if (IS_ERR(kaddr))
			return ERR_CAST(kaddr);
		de = (struct exofs_dir_entry *)kaddr;
		kaddr += exofs_last_byte(dir, n) - reclen;
		while ((char *)de <= kaddr) {
			if (exofs_match(namelen, name, de)) {
				oi->dir_start_lookup = n;
				return de;
			}
			de = exofs_next_entry(de);
		}
		folio_release_kmap(*foliop, kaddr);
		if (++n >= npages)
			n = 0;
	} while (n != start);
	return ERR_PTR(-ENOENT);
}

/**
 * exofs_dotdot - the ".." entry of a directory
 * @dir: the directory
 * @foliop: receives its folio (mapped)
 *
 * Return: the entry, or an ERR_PTR (-EFSCORRUPTED when the directory does
 * not start with "." and "..").
 */
struct exofs_dir_entry *exofs_dotdot(struct inode *dir, struct folio **foliop)
{
	struct exofs_dir_entry *de = exofs_get_folio(dir, 0, foliop);
	struct exofs_dir_entry *dotdot;

	if (IS_ERR(de))
		return de;
	dotdot = exofs_next_entry(de);
	if (de->name_len != 1 || de->name[0] != '.' ||
	    exofs_rec_len(de) > EXOFS_DIR_CHUNK - EXOFS_DIR_REC_LEN(2) ||
	    dotdot->name_len != 2 || memcmp(dotdot->name, "..", 2) ||
	    !dotdot->inode) {
		exofs_err(dir->i_sb, __func__, "directory %lu does not start with . and ..",
			  dir->i_ino);
		folio_release_kmap(*foliop, de);
		return ERR_PTR(-EFSCORRUPTED);
	}
	return dotdot;
}

int exofs_inode_by_name(struct inode *dir, const struct qstr *child,
			ino_t *ino)
{
	struct folio *folio;
	struct exofs_dir_entry *de;

	de = exofs_find_entry(dir, child, &folio);
	if (IS_ERR(de))
		return PTR_ERR(de);
	*ino = le64_to_cpu(de->inode);
	folio_release_kmap(folio, de);
	return 0;
}

static void exofs_set_de_type(struct exofs_dir_entry *de, struct inode *inode)
{
	de->file_type = fs_umode_to_ftype(inode->i_mode);
}

/**
 * exofs_set_link - point an existing entry at another inode
 * @dir: the directory
 * @de: the entry, from exofs_find_entry()/exofs_dotdot()
 * @folio: its folio
 * @inode: the new target
 * @update_times: set the directory's mtime and ctime
 *
 * Return: 0 or a negative errno (DIRSYNC writes).
 */
int exofs_set_link(struct inode *dir, struct exofs_dir_entry *de, struct folio *folio,
		   struct inode *inode, bool update_times)
{
	loff_t pos = folio_pos(folio) + offset_in_folio(folio, de);

	exofs_lock_chunk(folio);
	de->inode = cpu_to_le64(inode->i_ino);
	exofs_set_de_type(de, inode);
	exofs_commit_chunk(folio, pos, exofs_rec_len(de));
	if (update_times)
		inode_set_mtime_to_ts(dir, inode_set_ctime_current(dir));
	mark_inode_dirty(dir);
	return exofs_handle_dirsync(dir);
}

/**
 * exofs_add_link - add an entry for @dentry's name pointing at @inode
 * @dentry: the new name, in a directory whose i_rwsem is held
 * @inode: the target
 *
 * Return: 0, -EEXIST, -ENAMETOOLONG, or another negative errno.
 */
int exofs_add_link(struct dentry *dentry, struct inode *inode)
{
	struct inode *dir = d_inode(dentry->d_parent);
	const char *name = dentry->d_name.name;
	int namelen = dentry->d_name.len;
	unsigned int reclen = EXOFS_DIR_REC_LEN(namelen);
	unsigned int rec_len = 0, name_len = 0;
	unsigned long npages = dir_pages(dir);
	struct folio *folio = NULL;
	struct exofs_dir_entry *de = NULL;
	unsigned long n;
	char *kaddr;
	loff_t pos;
	int err;

	if (namelen > EXOFS_NAME_LEN)
		return -ENAMETOOLONG;
	/*
	 * One pass finds a hole or the end; the page after the last one
	 * extends the directory by a chunk. The folio lock protects the
	 * region beyond i_size.
	 */
	for (n = 0; n <= npages; n++) {
		char *dir_end, *last;

		kaddr = exofs_get_folio(dir, n, &folio);
		if (IS_ERR(kaddr))
			return PTR_ERR(kaddr);
		exofs_lock_chunk(folio);
		dir_end = kaddr + exofs_last_byte(dir, n);
		de = (struct exofs_dir_entry *)kaddr;
		last = kaddr + folio_size(folio) - reclen;
		while ((char *)de <= last) {
			if ((char *)de == dir_end) {
				/* a new chunk at i_size */
				name_len = 0;
				rec_len = EXOFS_DIR_CHUNK;
				de->rec_len = cpu_to_le16(EXOFS_DIR_CHUNK);
				de->inode = 0;
				goto got_it;
			}
			if (!de->rec_len) {
				exofs_err(dir->i_sb, __func__, "directory %lu: zero-length entry",
					  dir->i_ino);
				err = -EFSCORRUPTED;
				goto out_unlock;
			}
			err = -EEXIST;
			if (exofs_match(namelen, name, de))
				goto out_unlock;
			name_len = EXOFS_DIR_REC_LEN(de->name_len);
			rec_len = exofs_rec_len(de);
			if (!de->inode && rec_len >= reclen)
				goto got_it;
			if (de->inode && rec_len >= name_len + reclen)
				goto got_it;
			de = (struct exofs_dir_entry *)((char *)de + rec_len);
		}
		folio_unlock(folio);
		folio_release_kmap(folio, kaddr);
	}
	exofs_err(dir->i_sb, __func__, "directory %lu: no room found past its end",
		  dir->i_ino);
	return -EFSCORRUPTED;

got_it:
	pos = folio_pos(folio) + offset_in_folio(folio, de);
	if (de->inode) {
		struct exofs_dir_entry *de1 = (struct exofs_dir_entry *)((char *)de + name_len);

		de1->rec_len = cpu_to_le16(rec_len - name_len);
		de->rec_len = cpu_to_le16(name_len);
		de = de1;
	}
	de->name_len = namelen;
	memcpy(de->name, name, namelen);
	de->inode = cpu_to_le64(inode->i_ino);
	exofs_set_de_type(de, inode);
	exofs_commit_chunk(folio, pos, rec_len);
	inode_set_mtime_to_ts(dir, inode_set_ctime_current(dir));
	mark_inode_dirty(dir);
	set_bit(EXOFS_I_NEW_LINK, &exofs_i(inode)->state);
	err = exofs_handle_dirsync(dir);
	folio_release_kmap(folio, kaddr);
	return err;

out_unlock:
	folio_unlock(folio);
	folio_release_kmap(folio, kaddr);
	return err;
}

/**
 * exofs_delete_entry - remove an entry, merging it into the one before
 * @dir: the entry, from exofs_find_entry()
 * @folio: its folio
 *
 * Return: 0 or a negative errno.
 */
int exofs_delete_entry(struct exofs_dir_entry *dir, struct folio *folio)
{
	struct inode *inode = folio->mapping->host;
	size_t from = offset_in_folio(folio, dir);
	size_t to = from + exofs_rec_len(dir);
	char *kaddr = (char *)dir - from;
	struct exofs_dir_entry *de, *pde = NULL;
	loff_t pos;

	from = round_down(from, EXOFS_DIR_CHUNK);
	de = (struct exofs_dir_entry *)(kaddr + from);
	while (de < dir) {
		if (!de->rec_len) {
			exofs_err(inode->i_sb, __func__, "directory %lu: zero-length entry",
				  inode->i_ino);
			return -EFSCORRUPTED;
		}
		pde = de;
		de = exofs_next_entry(de);
	}
	if (pde)
		from = (char *)pde - kaddr;
	pos = folio_pos(folio) + from;
	exofs_lock_chunk(folio);
	if (pde)
		pde->rec_len = cpu_to_le16(to - from);
	dir->inode = 0;
	exofs_commit_chunk(folio, pos, to - from);
	inode_set_mtime_to_ts(inode, inode_set_ctime_current(inode));
	mark_inode_dirty(inode);
	return exofs_handle_dirsync(inode);
}

/**
 * exofs_make_empty - write the first chunk of a new directory
 * @inode: the new directory
 * @parent: its parent
 *
 * Return: 0 or a negative errno.
 */
int exofs_make_empty(struct inode *inode, struct inode *parent)
{
	struct folio *folio = filemap_grab_folio(inode->i_mapping, 0);
	struct exofs_dir_entry *de;
	void *kaddr;

	if (IS_ERR(folio))
		return PTR_ERR(folio);
	kaddr = kmap_local_folio(folio, 0);
	memset(kaddr, 0, folio_size(folio));
	de = kaddr;
	de->name_len = 1;
	de->rec_len = cpu_to_le16(EXOFS_DIR_REC_LEN(1));
	memcpy(de->name, ".", 1);
	de->inode = cpu_to_le64(inode->i_ino);
	exofs_set_de_type(de, inode);

	de = kaddr + EXOFS_DIR_REC_LEN(1);
	de->name_len = 2;
	de->rec_len = cpu_to_le16(EXOFS_DIR_CHUNK - EXOFS_DIR_REC_LEN(1));
	de->inode = cpu_to_le64(parent->i_ino);
	memcpy(de->name, "..", 2);
	exofs_set_de_type(de, inode);
	kunmap_local(kaddr);
	folio_mark_uptodate(folio);
	folio_set_checked(folio);
	exofs_commit_chunk(folio, 0, EXOFS_DIR_CHUNK);
	folio_put(folio);
	return exofs_handle_dirsync(inode);
}

/**
 * exofs_empty_dir - does a directory hold only "." and ".."?
 * @inode: the directory
 *
 * Return: 1 when empty, 0 when not (or unreadable).
 */
int exofs_empty_dir(struct inode *inode)
{
	unsigned long i, npages = dir_pages(inode);
	struct folio *folio;
	char *kaddr;

	for (i = 0; i < npages; i++) {
		struct exofs_dir_entry *de;
		char *limit;

		kaddr = exofs_get_folio(inode, i, &folio);
		if (IS_ERR(kaddr))
			return 0;
		de = (struct exofs_dir_entry *)kaddr;
		limit = kaddr + exofs_last_byte(inode, i) - EXOFS_DIR_REC_LEN(1);
		while ((char *)de <= limit) {
			if (!de->rec_len)
				goto not_empty;
			if (de->inode) {
				if (de->name[0] != '.' || de->name_len > 2)
					goto not_empty;
				if (de->name_len == 1) {
					if (le64_to_cpu(de->inode) != inode->i_ino)
						goto not_empty;
				} else if (de->name[1] != '.') {
					goto not_empty;
				}
			}
			de = exofs_next_entry(de);
		}
		folio_release_kmap(folio, kaddr);
	}
	return 1;

not_empty:
	folio_release_kmap(folio, kaddr);
	return 0;
}

static int exofs_dir_open(struct inode *inode, struct file *file)
{
	file->private_data = kzalloc(sizeof(u64), GFP_KERNEL);
	if (!file->private_data)
		return -ENOMEM;
	return 0;
}

static int exofs_dir_release(struct inode *inode, struct file *file)
{
	kfree(file->private_data);
	return 0;
}

static loff_t exofs_dir_llseek(struct file *file, loff_t offset, int whence)
{
	return generic_llseek_cookie(file, offset, whence,
				     (u64 *)file->private_data);
}

const struct file_operations exofs_dir_operations = {
	.open		= exofs_dir_open,
	.release	= exofs_dir_release,
	.llseek		= exofs_dir_llseek,
	.read		= generic_read_dir,
	.iterate_shared	= exofs_readdir,
	.fsync		= exofs_fsync,
};
