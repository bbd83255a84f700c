// SPDX-License-Identifier: GPL-2.0
/*
 * Data checksums of the ORE file store: the side file of each object.
 *
 * Object <oid> ("<root>/<oid>") keeps its checksums in "<root>/<oid>.csum"
 * (ORE_FILE_CSUM_SUFFIX): one little-endian 32-bit entry per ORE_CSUM_BLOCK
 * bytes of the object, entry i at byte i * ORE_CSUM_ENTRY for the object's
 * bytes [i * ORE_CSUM_BLOCK, (i + 1) * ORE_CSUM_BLOCK), in the format of
 * the block store's region (include/ore/pure.h). An entry of 0, and every
 * entry past the end of the side file or in a hole of it, means "no
 * checksum": the block is not verified. A missing side file is all zeros.
 *
 * The entries of the first ORE_FILE_CSUM_HEAD blocks may be in the
 * object's extended attribute ORE_FILE_CSUM_XATTR instead, "the head"
 * (include/ore/pure.h, docs/stores.md): when it exists it is the only
 * place of those entries.
 *
 * This file holds the format: computing, verifying, reading and writing
 * entries. When they are read and written is ore/store_file.c's concern.
 * Every function here but ore_file_csum_compute() and
 * ore_file_csum_verify() may sleep.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/fs.h>
#include <linux/highmem.h>
#include <linux/crc32c.h>
#include <linux/xxhash.h>
#include <linux/xattr.h>
#include <linux/mount.h>
#include <ore/pure.h>

#include "internal.h"

/* The entry of the ORE_CSUM_BLOCK bytes at @p. */
static u32 ore_csum_block(u32 type, const void *p)
{
	if (type == ORE_CSUM_XXH64)
		return ore_csum_value((u32)xxh64(p, ORE_CSUM_BLOCK, 0));
	return ore_csum_value(crc32c(~0U, p, ORE_CSUM_BLOCK));
}

/**
 * ore_csum_bvec_block - the entry of a block of a request's memory
 * @type: ORE_CSUM_CRC32C or ORE_CSUM_XXH64
 * @bv: the bvec that holds the whole block
 * @off: the block's offset in @bv
 *
 * The entry of the ORE_CSUM_BLOCK bytes at @off of @bv, for the file and
 * the block store alike; a block that spans pages (a bvec may span
 * several) is hashed a page at a time. Any context.
 *
 * Return: the entry, never 0.
 */
u32 ore_csum_bvec_block(u32 type, const struct bio_vec *bv, u32 off)
{
	u32 boff = bv->bv_offset + off, crc = ~0U, done = 0, entry;
	struct xxh64_state xs;
	void *p;

	if (offset_in_page(boff) + ORE_CSUM_BLOCK <= PAGE_SIZE) {
		p = kmap_local_page(nth_page(bv->bv_page, boff >> PAGE_SHIFT));
		entry = ore_csum_block(type, p + offset_in_page(boff));
		kunmap_local(p);
		return entry;
	}
	if (type == ORE_CSUM_XXH64)
		xxh64_reset(&xs, 0);
	while (done < ORE_CSUM_BLOCK) {
		u32 pos = boff + done;
		u32 n = min_t(u32, ORE_CSUM_BLOCK - done,
			      PAGE_SIZE - offset_in_page(pos));

		p = kmap_local_page(nth_page(bv->bv_page, pos >> PAGE_SHIFT));
		if (type == ORE_CSUM_XXH64)
			xxh64_update(&xs, p + offset_in_page(pos), n);
		else
			crc = crc32c(crc, p + offset_in_page(pos), n);
		kunmap_local(p);
		done += n;
	}
	if (type == ORE_CSUM_XXH64)
		return ore_csum_value((u32)xxh64_digest(&xs));
	return ore_csum_value(crc);
}

/**
 * ore_file_csum_span - the blocks that a range of an object touches
 * @offset: byte offset of the range
 * @len: bytes, at least 1
 * @nents: set to the number of blocks
 *
 * Return: the index of the first block (of its entry).
 */
u64 ore_file_csum_span(u64 offset, u32 len, u32 *nents)
{
	u64 first = offset / ORE_CSUM_BLOCK;

	*nents = (offset + len - 1) / ORE_CSUM_BLOCK - first + 1;
	return first;
}

/*
 * Walk the blocks of the first @bytes of @sio: @fn gets each block's entry
 * slot and, when the block lies whole in one bvec, its bvec and offset
 * there (else NULL: a block only partly in the request, or split between
 * two bvecs).
 */
static int ore_file_csum_walk(const struct ore_store_io *sio, u32 bytes,
			      __le32 *ents, u32 nents,
			      int (*fn)(u32 type, __le32 *ent,
					const struct bio_vec *bv, u32 off,
					u64 pos),
			      u32 type)
{
	u64 first = sio->offset / ORE_CSUM_BLOCK;
	u64 pos = sio->offset;
	unsigned int i;
	int err = 0;

	for (i = 0; i < sio->nr_bvec && bytes; i++) {
		const struct bio_vec *bv = &sio->bvec[i];
		u32 take = min(bv->bv_len, bytes);
		u32 off = 0;

		while (off < take) {
			u64 blk = pos / ORE_CSUM_BLOCK;
			u32 in_blk = pos % ORE_CSUM_BLOCK;
			u32 n = min_t(u32, take - off, ORE_CSUM_BLOCK - in_blk);
			bool whole = !in_blk && n == ORE_CSUM_BLOCK;

			if (blk - first < nents) {
				err = fn(type, &ents[blk - first],
					 whole ? bv : NULL, off, pos);
				if (err)
					return err;
			}
			off += n;
			pos += n;
		}
		bytes -= take;
	}
	return 0;
}

static int ore_file_csum_stamp_one(u32 type, __le32 *ent,
				   const struct bio_vec *bv, u32 off, u64 pos)
{
	*ent = bv ? cpu_to_le32(ore_csum_bvec_block(type, bv, off)) : 0;
	return 0;
}

static int ore_file_csum_check_one(u32 type, __le32 *ent,
				   const struct bio_vec *bv, u32 off, u64 pos)
{
	u32 want = le32_to_cpu(*ent), got;

	if (!bv || !want)
		return 0;
	got = ore_csum_bvec_block(type, bv, off);
	if (got == want)
		return 0;
	pr_debug("block at offset %llu: checksum %08x, data %08x\n",
		 pos, want, got);
	return -EBADMSG;
}

/**
 * ore_file_csum_compute - the entries of the data of a write
 * @type: ORE_CSUM_CRC32C or ORE_CSUM_XXH64
 * @sio: the request (its offset, length and bvecs)
 * @ents: ore_file_csum_span() entries, for the blocks the request touches
 * @nents: their number
 *
 * A block that the request covers only in part gets 0 (no checksum: the
 * rest of it is not in memory). Any context.
 */
void ore_file_csum_compute(u32 type, const struct ore_store_io *sio,
			   __le32 *ents, u32 nents)
{
	memset(ents, 0, nents * sizeof(*ents));
	ore_file_csum_walk(sio, sio->len, ents, nents,
			   ore_file_csum_stamp_one, type);
}

/**
 * ore_file_csum_verify - check the data read against its entries
 * @type: ORE_CSUM_CRC32C or ORE_CSUM_XXH64
 * @sio: the request, its data read
 * @ents: the entries of the blocks it touches, from ore_file_csum_read()
 * @nents: their number
 *
 * Blocks read only in part and entries of 0 are not checked. Any context.
 *
 * Return: 0, or -EBADMSG when a block does not match its entry.
 */
int ore_file_csum_verify(u32 type, const struct ore_store_io *sio,
			 __le32 *ents, u32 nents)
{
	return ore_file_csum_walk(sio, sio->len, ents, nents,
				  ore_file_csum_check_one, type);
}

/**
 * ore_file_csum_read - read entries from a side file
 * @cf: the side file, or NULL when the object has none
 * @first: index of the first entry
 * @ents: where to put them
 * @nents: how many
 *
 * Entries past the end of the side file are 0.
 *
 * Return: 0 or the read's error.
 */
int ore_file_csum_read(struct file *cf, u64 first, __le32 *ents, u32 nents)
{
	size_t want = (size_t)nents * ORE_CSUM_ENTRY;
	loff_t pos = first * ORE_CSUM_ENTRY;
	size_t got = 0;
	ssize_t ret;

	while (cf && got < want) {
		ret = kernel_read(cf, (char *)ents + got, want - got, &pos);
		if (ret < 0)
			return ret;
		if (!ret)
			break;
		got += ret;
	}
	memset((char *)ents + got, 0, want - got);
	return 0;
}

/**
 * ore_file_csum_write - write entries into a side file
 * @cf: the side file
 * @first: index of the first entry
 * @ents: the entries
 * @nents: how many
 * @sync: on stable storage when it returns
 *
 * Return: 0 or the write's error (-EIO for a short write).
 */
int ore_file_csum_write(struct file *cf, u64 first, const __le32 *ents,
			u32 nents, bool sync)
{
	size_t want = (size_t)nents * ORE_CSUM_ENTRY;
	loff_t start = first * ORE_CSUM_ENTRY, pos = start;
	size_t done = 0;
	ssize_t ret;

	while (done < want) {
		ret = kernel_write(cf, (const char *)ents + done, want - done,
				   &pos);
		if (ret < 0)
			return ret;
		if (!ret)
			return -EIO;
		done += ret;
	}
	if (!sync)
		return 0;
	return vfs_fsync_range(cf, start, start + want - 1, 1);
}

/**
 * ore_file_csum_clear - take the checksums of a byte range of the object
 * @cf: the side file, or NULL (nothing to do)
 * @offset: byte offset of the range in the object
 * @len: its bytes
 *
 * Every block the range touches gets entry 0 (a discard: the range may
 * now read as zeros or as the old data).
 *
 * Return: 0 or the write's error.
 */
int ore_file_csum_clear(struct file *cf, u64 offset, u64 len)
{
	static const __le32 zeros[128];
	u64 first, last, size;
	int err = 0;

	if (!cf || !len)
		return 0;
	first = offset / ORE_CSUM_BLOCK;
	last = (offset + len - 1) / ORE_CSUM_BLOCK;
	size = i_size_read(file_inode(cf)) / ORE_CSUM_ENTRY;
	if (first >= size)
		return 0;	/* nothing stored there */
	last = min(last, size - 1);	/* entries past the end are 0 */
	while (first <= last && !err) {
		u32 n = min_t(u64, last - first + 1, ARRAY_SIZE(zeros));

		err = ore_file_csum_write(cf, first, zeros, n, false);
		first += n;
	}
	return err;
}

/**
 * ore_file_csum_cut - the side file of an object truncated to @size bytes
 * @cf: the side file, or NULL (nothing to do)
 * @size: the object's new size
 *
 * The entries past the new end go; the entry of a last block cut in its
 * middle becomes 0 (its bytes past @size now read as zeros).
 *
 * Return: 0 or the error of the truncate or write.
 */
int ore_file_csum_cut(struct file *cf, u64 size)
{
	static const __le32 zero;
	u64 blocks = DIV_ROUND_UP(size, ORE_CSUM_BLOCK);
	int err;

	if (!cf)
		return 0;
	if (blocks * ORE_CSUM_ENTRY < i_size_read(file_inode(cf))) {
		err = vfs_truncate(&cf->f_path, blocks * ORE_CSUM_ENTRY);
		if (err)
			return err;
	}
	if (size % ORE_CSUM_BLOCK &&
	    (blocks - 1) * ORE_CSUM_ENTRY < i_size_read(file_inode(cf)))
		return ore_file_csum_write(cf, blocks - 1, &zero, 1, false);
	return 0;
}

/**
 * ore_file_csum_head_get - the entries of an object's head
 * @file: the object's file
 * @head: ORE_FILE_CSUM_HEAD entries, those past the value's end set to 0
 *
 * Return: 0, -ENODATA when the file has no head (the side file holds
 * every entry), -EOPNOTSUPP when its filesystem has no user extended
 * attributes, -EUCLEAN when the value is not a head, or another error of
 * the read.
 */
int ore_file_csum_head_get(struct file *file, __le32 *head)
{
	const size_t max = ORE_FILE_CSUM_HEAD * ORE_CSUM_ENTRY;
	ssize_t ret;

	ret = vfs_getxattr(file_mnt_idmap(file), file->f_path.dentry,
			   ORE_FILE_CSUM_XATTR, head, max);
	if (ret == -ERANGE || (ret >= 0 && ret % ORE_CSUM_ENTRY))
		return -EUCLEAN;
	if (ret < 0)
		return ret;
	memset((char *)head + ret, 0, max - ret);
	return 0;
}

/**
 * ore_file_csum_head_set - store the head of an object
 * @file: the object's file, open for writing
 * @head: ORE_FILE_CSUM_HEAD entries (trailing zeros are not stored)
 * @sync: on stable storage when it returns
 *
 * Return: 0 or the error of the write (-EOPNOTSUPP: the filesystem has no
 * user extended attributes).
 */
int ore_file_csum_head_set(struct file *file, const __le32 *head, bool sync)
{
	u32 n = ORE_FILE_CSUM_HEAD;
	int err;

	while (n && !head[n - 1])
		n--;
	err = mnt_want_write_file(file);
	if (err)
		return err;
	/* a value of no bytes is a head of zeros: the pointer is not NULL */
	err = vfs_setxattr(file_mnt_idmap(file), file->f_path.dentry,
			   ORE_FILE_CSUM_XATTR, head, n * ORE_CSUM_ENTRY, 0);
	mnt_drop_write_file(file);
	if (!err && sync)
		err = vfs_fsync(file, 0);
	return err;
}
