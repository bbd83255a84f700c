// SPDX-License-Identifier: GPL-2.0
/*
 * exofs inode numbers: a bitmap object striped by ORE (EXOFS_IBITMAP_OID),
 * bit ino set while ino is in use, kept in the page cache of an internal
 * inode. The search starts at s_next_ino and wraps once; everything runs
 * under &exofs_sb_info.alloc_mutex. Allocation sets the bit before the
 * record is written and freeing clears the record before the bit, so a
 * crash can leak an inode number but never hand one out twice.
 */
#include <linux/fs.h>
#include <linux/pagemap.h>
#include <linux/bitops.h>
#include <linux/highmem.h>

#include "exofs.h"

#define EXOFS_BITS_PER_PAGE	(PAGE_SIZE * 8)

static struct folio *exofs_bitmap_folio(struct super_block *sb, pgoff_t index)
{
	struct exofs_sb_info *sbi = exofs_sb(sb);
	struct folio *folio;

	folio = read_mapping_folio(sbi->ibitmap->i_mapping, index, NULL);
	if (IS_ERR(folio))
		exofs_err(sb, __func__, "cannot read page %lu of the inode bitmap: %ld",
			  index, PTR_ERR(folio));
	return folio;
}

/*
 * Find a clear bit in [from, to), set it and return it in *@pino.
 * Returns 0, -ENOSPC when there is none, or the read error.
 */
static int exofs_claim_range(struct super_block *sb, u64 from, u64 to,
			     unsigned long *pino)
{
	u64 ino = from;

	while (ino < to) {
		pgoff_t index = ino / EXOFS_BITS_PER_PAGE;
		u64 base = (u64)index * EXOFS_BITS_PER_PAGE;
		unsigned long limit = min_t(u64, EXOFS_BITS_PER_PAGE, to - base);
		unsigned long bit;
		struct folio *folio;
		void *kaddr;

		folio = exofs_bitmap_folio(sb, index);
		if (IS_ERR(folio))
			return PTR_ERR(folio);
		kaddr = kmap_local_folio(folio, 0);
		bit = find_next_zero_bit_le(kaddr, limit, ino - base);
		if (bit < limit) {
			folio_lock(folio);
			folio_wait_stable(folio);
			__set_bit_le(bit, kaddr);
			folio_mark_dirty(folio);
			folio_unlock(folio);
			folio_release_kmap(folio, kaddr);
			*pino = base + bit;
			return 0;
		}
		folio_release_kmap(folio, kaddr);
		ino = base + EXOFS_BITS_PER_PAGE;
	}
	return -ENOSPC;
}

/**
 * exofs_alloc_ino - allocate an inode number
 * @sb: the filesystem
 * @pino: receives the number
 *
 * Return: 0, -ENOSPC when every number is in use, or an I/O error.
 */
int exofs_alloc_ino(struct super_block *sb, unsigned long *pino)
{
	struct exofs_sb_info *sbi = exofs_sb(sb);
	u64 start;
	int err;

	mutex_lock(&sbi->alloc_mutex);
	start = sbi->next_ino;
	if (start < EXOFS_FIRST_INO || start >= sbi->max_ino)
		start = EXOFS_FIRST_INO;
	err = exofs_claim_range(sb, start, sbi->max_ino, pino);
	if (err == -ENOSPC && start > EXOFS_FIRST_INO)
		err = exofs_claim_range(sb, EXOFS_FIRST_INO, start, pino);
	if (!err) {
		sbi->next_ino = *pino + 1;
		sbi->used_inodes++;
		exofs_mark_sb_dirty(sbi);
	}
	mutex_unlock(&sbi->alloc_mutex);
	return err;
}

/**
 * exofs_free_ino - give an inode number back
 * @sb: the filesystem
 * @ino: the number; its record has been cleared
 *
 * Return: 0 or a negative errno (the number then stays in use).
 */
int exofs_free_ino(struct super_block *sb, unsigned long ino)
{
	struct exofs_sb_info *sbi = exofs_sb(sb);
	unsigned long bit = ino % EXOFS_BITS_PER_PAGE;
	struct folio *folio;
	void *kaddr;
	int err = 0;

	if (ino < EXOFS_FIRST_INO || ino >= sbi->max_ino) {
		exofs_err(sb, __func__, "freeing inode %lu out of range", ino);
		return -EFSCORRUPTED;
	}
	mutex_lock(&sbi->alloc_mutex);
	folio = exofs_bitmap_folio(sb, ino / EXOFS_BITS_PER_PAGE);
	if (IS_ERR(folio)) {
		err = PTR_ERR(folio);
		goto out_unlock;
	}
	kaddr = kmap_local_folio(folio, 0);
	folio_lock(folio);
	folio_wait_stable(folio);
	if (__test_and_clear_bit_le(bit, kaddr)) {
		folio_mark_dirty(folio);
		if (sbi->used_inodes)
			sbi->used_inodes--;
		if (ino < sbi->next_ino)
			sbi->next_ino = ino;
		exofs_mark_sb_dirty(sbi);
	} else {
		exofs_err(sb, __func__, "inode %lu was already free in the bitmap",
			  ino);
		err = -EFSCORRUPTED;
	}
	folio_unlock(folio);
	folio_release_kmap(folio, kaddr);
out_unlock:
	mutex_unlock(&sbi->alloc_mutex);
	return err;
}

/**
 * exofs_count_inodes - count the bits set in the bitmap
 * @sb: the filesystem
 * @count: receives the number of inodes in use
 *
 * Used when a filesystem that was not cleanly unmounted is mounted.
 *
 * Return: 0 or a read error.
 */
int exofs_count_inodes(struct super_block *sb, u64 *count)
{
	struct exofs_sb_info *sbi = exofs_sb(sb);
	u64 bytes = DIV_ROUND_UP(sbi->max_ino, 8), stored;
	pgoff_t index, last;
	u64 n = 0;
	int err;

	/* past what the components hold, the bitmap is zeros: skip it */
	err = ore_length(&sbi->layout, &exofs_i(sbi->ibitmap)->oc, &stored);
	if (!err && stored < bytes)
		bytes = stored;
	if (!bytes) {
		*count = 0;
		return 0;
	}
	last = (bytes - 1) >> PAGE_SHIFT;

	for (index = 0; index <= last; index++) {
		size_t len = min_t(u64, PAGE_SIZE, bytes - ((u64)index << PAGE_SHIFT));
		struct folio *folio;
		u8 *kaddr;
		size_t i;

		folio = exofs_bitmap_folio(sb, index);
		if (IS_ERR(folio))
			return PTR_ERR(folio);
		kaddr = kmap_local_folio(folio, 0);
		for (i = 0; i < len; i++)
			n += hweight8(kaddr[i]);
		folio_release_kmap(folio, kaddr);
		cond_resched();
	}
	*count = n;
	return 0;
}

/**
 * exofs_sync_ino_bit - make the bitmap page holding @ino's bit stable
 * @sb: the filesystem
 * @ino: the inode number
 *
 * Return: 0 or a negative errno.
 */
int exofs_sync_ino_bit(struct super_block *sb, unsigned long ino)
{
	struct exofs_sb_info *sbi = exofs_sb(sb);
	loff_t pos = ino / 8;
	int err;

	err = filemap_write_and_wait_range(sbi->ibitmap->i_mapping, pos, pos);
	if (err)
		return err;
	return ore_flush(&sbi->layout, &exofs_i(sbi->ibitmap)->oc);
}
