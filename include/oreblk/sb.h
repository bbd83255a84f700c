/* SPDX-License-Identifier: GPL-2.0 */
/*
 * oreblk member superblock rules, as code: the checksum, the checks of one
 * superblock on its own and of two against each other, and the copy of the
 * layout to and from disk. oreblk/sb.c is pure (no allocation, no
 * printing, no sleeping): it is built into oreblk.ko and into the userspace
 * tools (tools/oreblk, tests/tools/oreblk_check) and unit tests. The format
 * itself is include/oreblk/oreblk_fs.h; the prose docs/oreblk.md.
 */
#ifndef _OREBLK_SB_H
#define _OREBLK_SB_H

#include <ore/pure.h>
#include <ore/layout.h>
#include <oreblk/oreblk_fs.h>

/* The csum superblock @sb must carry. */
u32 oreblk_sb_csum(const struct oreblk_sb *sb);

/*
 * oreblk_sb_get_layout - the six layout fields of @sb into @l (the derived
 * fields zero: ore_layout_check() fills them).
 */
void oreblk_sb_get_layout(const struct oreblk_sb *sb, struct ore_layout *l);
void oreblk_sb_set_layout(struct oreblk_sb *sb, const struct ore_layout *l);

/*
 * oreblk_sb_check - the checks of one member superblock on its own, read
 * from a device of @dev_size bytes: magic, checksum, version, flags,
 * member index and count, faulty map, layout (verified, its components
 * the members; filled into @layout), data offset and size, the device's
 * size, array size, own uuid in the member table.
 *
 * Return: 0; -ENODATA when there is no oreblk magic (a foreign device);
 * -EUCLEAN when the checksum is wrong; -EINVAL when a field is
 * impossible. *@why says what is wrong (a static string).
 */
int oreblk_sb_check(const struct oreblk_sb *sb, u64 dev_size,
		    struct ore_layout *layout, const char **why);

/*
 * oreblk_sb_agree - do @a and @b (both checked) describe the same array
 * the same way: members, layout, data range, array size, creation time?
 * The array uuid is compared by the callers (its own message).
 */
bool oreblk_sb_agree(const struct oreblk_sb *a, const struct oreblk_sb *b);

/*
 * oreblk_sb_split - does @a mark @b faulty at the same events count, while
 * @b's own superblock does not? Two authoritative superblocks that do mean
 * the array ran split (each half assembled without the other): assembly is
 * refused. A member that knows itself faulty (a new member whose rebuild
 * was interrupted) is no split: it is left out.
 */
bool oreblk_sb_split(const struct oreblk_sb *a, const struct oreblk_sb *b);

/*
 * oreblk_intent_region - the default write-intent region of an array of
 * @array_size bytes and stripe length @stripe_length: the smallest
 * multiple of the stripe length that is at least OREBLK_INTENT_MIN_REGION
 * and leaves at most OREBLK_INTENT_MAX_BITS bits.
 */
u64 oreblk_intent_region(u64 array_size, u64 stripe_length);

/*
 * Bits of the write-intent bitmap of superblock @sb; 0 without;
 * OREBLK_INTENT_MAX_BITS + 1 when there would be more than fit.
 */
u32 oreblk_intent_bits(const struct oreblk_sb *sb);

#endif /* _OREBLK_SB_H */
