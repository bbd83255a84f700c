/* SPDX-License-Identifier: GPL-2.0 */
/*
 * exofs on-disk format rules, as code: checksums, the superblock and
 * device table checks, the inode record checks, and the copy of the layout
 * to and from disk. exofs/format.c is pure (no allocation, no printing, no
 * sleeping): it is built into exofs.ko and into the userspace tools
 * (mkfs.exofs, fsck.exofs) and unit tests, so that the kernel and fsck
 * accept exactly the same images. The format itself is
 * include/exofs/exofs_fs.h; the prose docs/exofs-format.md.
 */
#ifndef _EXOFS_FORMAT_H
#define _EXOFS_FORMAT_H

#include <ore/pure.h>
#include <ore/layout.h>
#include <exofs/exofs_fs.h>

/* The s_csum a superblock image of EXOFS_SB_SIZE bytes must carry. */
u32 exofs_sb_csum(const void *sb);

/* The i_csum an inode record must carry. */
u32 exofs_inode_csum(const struct exofs_inode *rec);

/*
 * exofs_layout_from_disk - @d into @l; only the six on-disk fields are
 * set (the derived ones zero: ore_layout_check() fills them).
 */
void exofs_layout_from_disk(const struct exofs_layout_disk *d,
			    struct ore_layout *l);
void exofs_layout_to_disk(const struct ore_layout *l,
			  struct exofs_layout_disk *d);

/*
 * exofs_sb_check - the checks of one superblock copy on its own
 * (docs/exofs-format.md, "Mount-time checks", step 2): magic, version,
 * size, checksum, incompatible features, store count and index, inode size,
 * directory chunk, root inode, s_max_ino, s_used_inodes, s_state, the
 * layout (verified against s_num_stores, filled into @layout) and the
 * device table.
 *
 * Return: 0, or -EINVAL with *@why saying what is wrong (a static string).
 */
int exofs_sb_check(const void *sb, struct ore_layout *layout,
		   const char **why);

/*
 * exofs_sb_replacement_check - is @sb (EXOFS_SB_SIZE bytes) the stub of a
 * replacement store, as mkfs.exofs --replace writes it (s_state
 * EXOFS_STATE_REPLACEMENT, see include/exofs/exofs_fs.h)? Its s_uuid,
 * s_store_index and s_store_uuid say for which filesystem, slot and with
 * which store UUID.
 *
 * Return: 0, or -EINVAL with *@why saying what is wrong (a static string).
 */
int exofs_sb_replacement_check(const void *sb, const char **why);

/*
 * exofs_sb_same - do superblock images @a and @b agree on everything but
 * the per-store fields (s_store_index, s_store_uuid) and s_csum?
 */
bool exofs_sb_same(const void *a, const void *b);

/*
 * exofs_sb_set_store - make superblock image @sb the copy of store @index:
 * s_store_index, s_store_uuid (from the device table, which must be
 * filled) and s_csum.
 */
void exofs_sb_set_store(void *sb, u32 index);

static inline struct exofs_fsb *exofs_fsb(void *sb)
{
	return sb;
}

static inline struct exofs_dev_entry *exofs_devtable(void *sb)
{
	return (struct exofs_dev_entry *)((u8 *)sb + EXOFS_DEVTABLE_OFFSET);
}

/* A record of all zeros is free. */
bool exofs_inode_is_free(const struct exofs_inode *rec);

/*
 * exofs_inode_check - the checks of docs/exofs-format.md ("Inode table")
 * of the record at position @ino of the inode table.
 *
 * Return: 0 for a valid record in use, 1 for a free (all zero) record, or
 * -EINVAL with *@why saying what is wrong (a static string).
 */
int exofs_inode_check(const struct exofs_inode *rec, u64 ino,
		      const char **why);

/*
 * exofs_intent_region - bytes of one region of the intent record for a
 * layout whose stripe (stripe_length, data bytes of one row) is @stripe:
 * the smallest whole number of stripes that is at least
 * EXOFS_INTENT_REGION_MIN. exofs writes at most that much in one I/O, so
 * one write touches at most two regions.
 */
u64 exofs_intent_region(u64 stripe);

/* The ih_csum the intent record slot @hdr (with its entries) must carry. */
u32 exofs_intent_csum(const struct exofs_intent_hdr *hdr);

/*
 * exofs_intent_check - is the slot of @len bytes at @hdr a valid intent
 * record of filesystem @uuid (16 bytes) whose regions are @region bytes
 * (docs/exofs-format.md, "Intent record")?
 *
 * Return: 0, 1 for a slot never written (all of its header zero), or
 * -EINVAL with *@why saying what is wrong (a static string).
 */
int exofs_intent_check(const struct exofs_intent_hdr *hdr, u32 len,
		       const u8 *uuid, u64 region, const char **why);

/* exofs_ft_of_mode - EXOFS_FT_* of an i_mode, EXOFS_FT_UNKNOWN if none. */
unsigned int exofs_ft_of_mode(unsigned int mode);

#endif /* _EXOFS_FORMAT_H */
