// SPDX-License-Identifier: GPL-2.0
/*
 * oreblk member superblock rules (include/oreblk/sb.h), the one copy that
 * oreblk.ko, tools/oreblk, tests/tools/oreblk_check and tests/unit/format_test.c
 * share. Pure: built for the kernel and for userspace; a failed check
 * returns a negative errno and a static reason.
 *
 * Where the kernel and tools/oreblk used to differ, the rule is the
 * kernel's (the union): tools/oreblk did not check the flags, the faulty
 * map, the data offset, the array size or the member's own uuid, so it
 * passed members the kernel then refused.
 */
#include <oreblk/sb.h>

u32 oreblk_sb_csum(const struct oreblk_sb *sb)
{
	return ore_crc32c_skip(~0U, sb, OREBLK_SB_SIZE,
			       offsetof(struct oreblk_sb, csum),
			       sizeof(sb->csum));
}

void oreblk_sb_get_layout(const struct oreblk_sb *sb, struct ore_layout *l)
{
	memset(l, 0, sizeof(*l));
	l->raid_algorithm = le32_to_cpu(sb->raid_algorithm);
	l->stripe_unit = le32_to_cpu(sb->stripe_unit);
	l->group_width = le32_to_cpu(sb->group_width);
	l->group_depth = le32_to_cpu(sb->group_depth);
	l->group_count = le32_to_cpu(sb->group_count);
	l->mirrors_p1 = le32_to_cpu(sb->mirrors_p1);
}

void oreblk_sb_set_layout(struct oreblk_sb *sb, const struct ore_layout *l)
{
	sb->raid_algorithm = cpu_to_le32(l->raid_algorithm);
	sb->stripe_unit = cpu_to_le32(l->stripe_unit);
	sb->group_width = cpu_to_le32(l->group_width);
	sb->group_depth = cpu_to_le32(l->group_depth);
	sb->group_count = cpu_to_le32(l->group_count);
	sb->mirrors_p1 = cpu_to_le32(l->mirrors_p1);
}

u64 oreblk_intent_region(u64 array_size, u64 stripe_length)
{
	u64 k = (OREBLK_INTENT_MIN_REGION + stripe_length - 1) / stripe_length;
	u64 per_bit = stripe_length * OREBLK_INTENT_MAX_BITS;
	u64 k2 = (array_size + per_bit - 1) / per_bit;

	return (k > k2 ? k : k2) * stripe_length;
}

u32 oreblk_intent_bits(const struct oreblk_sb *sb)
{
	u64 region = le64_to_cpu(sb->intent_region);

	u64 size = le64_to_cpu(sb->array_size), bits;

	if (le32_to_cpu(sb->consistency) != OREBLK_CONSISTENCY_INTENT || !region)
		return 0;
	bits = size / region + !!(size % region);	/* no overflow */
	return bits > OREBLK_INTENT_MAX_BITS ? OREBLK_INTENT_MAX_BITS + 1 : (u32)bits;
}

/* The consistency policy and its bitmap; the rest is checked. */
static const char *oreblk_sb_consistency(const struct oreblk_sb *sb,
					 const struct ore_layout *l)
{
	u64 ioff = le64_to_cpu(sb->intent_offset);
	u64 region = le64_to_cpu(sb->intent_region);
	u32 ibytes = le32_to_cpu(sb->intent_bytes);

	switch (le32_to_cpu(sb->consistency)) {
	case OREBLK_CONSISTENCY_RESYNC:
		if (ibytes || ioff || region)
			return "write-intent bitmap fields without the intent policy";
		return NULL;
	case OREBLK_CONSISTENCY_INTENT:
		break;
	default:
		return "unknown consistency policy";
	}
	if (!l->parity && l->mirrors_p1 < 2)
		return "write-intent bitmap on a layout without redundancy";
	if (ibytes != OREBLK_INTENT_BYTES)
		return "intent_bytes is not 4096";
	if (ioff < OREBLK_INTENT_OFFSET || ioff % 4096 ||
	    ioff > le64_to_cpu(sb->data_offset) ||
	    ibytes > le64_to_cpu(sb->data_offset) - ioff)
		return "the write-intent bitmap is not between the superblock and the data";
	if (!region || region % l->stripe_length)
		return "intent_region is not a non-zero multiple of the stripe length";
	if (oreblk_intent_bits(sb) > 8 * ibytes)
		return "intent_region leaves more bits than the bitmap holds";
	return NULL;
}

/* The data checksums and their region on a device of @dev_size bytes. */
static const char *oreblk_sb_checksums(const struct oreblk_sb *sb,
				       u64 dev_size)
{
	u64 coff = le64_to_cpu(sb->csum_offset);
	u64 cbytes = ore_csum_bytes(le64_to_cpu(sb->data_size));

	if (sb->pad2)
		return "pad2 is not zero";
	switch (le32_to_cpu(sb->csum_type)) {
	case OREBLK_CSUM_NONE:
		return coff ? "csum_offset without checksums" : NULL;
	case OREBLK_CSUM_CRC32C:
	case OREBLK_CSUM_XXH64:
		break;
	default:
		return "unknown checksum type";
	}
	if (le32_to_cpu(sb->consistency) != OREBLK_CONSISTENCY_INTENT)
		return "data checksums without the write-intent bitmap";
	if (coff % 4096 ||
	    coff < le64_to_cpu(sb->data_offset) + le64_to_cpu(sb->data_size))
		return "the checksum region is not 4096-aligned after the data";
	if (coff > dev_size || cbytes > dev_size - coff)
		return "the checksum region does not fit the device";
	return NULL;
}

/* The fields; magic and checksum are right. */
static const char *oreblk_sb_fields(const struct oreblk_sb *sb, u64 dev_size,
				    struct ore_layout *l)
{
	u32 nr = le32_to_cpu(sb->nr_members);
	u32 idx = le32_to_cpu(sb->member_index);
	u64 doff = le64_to_cpu(sb->data_offset);
	u64 dsize = le64_to_cpu(sb->data_size);
	u64 faulty = le64_to_cpu(sb->faulty_map);
	const char *why;
	u64 unit;

	if (le32_to_cpu(sb->version) != OREBLK_SB_VERSION)
		return "superblock version not supported";
	if (le32_to_cpu(sb->flags) & ~OREBLK_SB_FL_RECOVERING)
		return "unknown superblock flags";
	if (!nr || nr > OREBLK_MAX_MEMBERS)
		return "nr_members is not 1..64";
	if (idx >= nr)
		return "member_index is beyond nr_members";
	if (nr < 64 && faulty >> nr)
		return "faulty map names members beyond nr_members";
	oreblk_sb_get_layout(sb, l);
	if (ore_layout_check(l, nr, &why))
		return why;
	if (l->num_comps != nr)
		return "the layout's components are not the members";
	if (doff < OREBLK_DATA_OFFSET || doff % 4096)
		return "data_offset is below 1 MiB or not a multiple of 4096";
	unit = (u64)l->stripe_unit * l->group_depth;
	if (!dsize || dsize % unit)
		return "data_size is not a non-zero multiple of stripe_unit * group_depth";
	if (doff > dev_size || dsize > dev_size - doff)
		return "the data range does not fit the device";
	if (le64_to_cpu(sb->array_size) != dsize / unit * l->super_stripe)
		return "array_size does not match the layout and data_size";
	if (le32_to_cpu(sb->flags) & OREBLK_SB_FL_RECOVERING) {
		if (le64_to_cpu(sb->recovery_offset) > dsize ||
		    le64_to_cpu(sb->recovery_offset) % 4096)
			return "recovery_offset is beyond data_size or not a multiple of 4096";
		if (!((faulty >> idx) & 1))
			return "a recovering member is not marked faulty";
	} else if (sb->recovery_offset) {
		return "recovery_offset without the recovering flag";
	}
	if (le32_to_cpu(sb->array_state) & ~OREBLK_SB_ST_DIRTY)
		return "unknown array state bits";
	if (sb->pad)
		return "pad is not zero";
	if (le32_to_cpu(sb->array_state) & OREBLK_SB_ST_DIRTY) {
		u64 roff = le64_to_cpu(sb->resync_offset);

		if (roff > le64_to_cpu(sb->array_size) ||
		    roff % l->stripe_length)
			return "resync_offset is beyond array_size or not stripe aligned";
	} else if (sb->resync_offset) {
		return "resync_offset without the dirty state";
	}
	if (memcmp(sb->member_uuids[idx], sb->member_uuid, OREBLK_UUID_SIZE))
		return "member_uuid is not its own entry of the member table";
	why = oreblk_sb_consistency(sb, l);
	return why ? why : oreblk_sb_checksums(sb, dev_size);
}

int oreblk_sb_check(const struct oreblk_sb *sb, u64 dev_size,
		    struct ore_layout *layout, const char **why)
{
	if (le32_to_cpu(sb->magic) != OREBLK_SB_MAGIC) {
		*why = "no oreblk superblock";
		return -ENODATA;
	}
	if (le32_to_cpu(sb->csum) != oreblk_sb_csum(sb)) {
		*why = "superblock checksum mismatch";
		return -EUCLEAN;
	}
	*why = oreblk_sb_fields(sb, dev_size, layout);
	return *why ? -EINVAL : 0;
}

bool oreblk_sb_agree(const struct oreblk_sb *a, const struct oreblk_sb *b)
{
	return a->nr_members == b->nr_members &&
	       a->raid_algorithm == b->raid_algorithm &&
	       a->stripe_unit == b->stripe_unit &&
	       a->group_width == b->group_width &&
	       a->group_depth == b->group_depth &&
	       a->group_count == b->group_count &&
	       a->mirrors_p1 == b->mirrors_p1 &&
	       a->data_offset == b->data_offset &&
	       a->data_size == b->data_size &&
	       a->array_size == b->array_size &&
	       a->ctime == b->ctime &&
	       a->consistency == b->consistency &&
	       a->intent_bytes == b->intent_bytes &&
	       a->intent_offset == b->intent_offset &&
	       a->intent_region == b->intent_region &&
	       a->csum_type == b->csum_type &&
	       a->csum_offset == b->csum_offset;
}

bool oreblk_sb_split(const struct oreblk_sb *a, const struct oreblk_sb *b)
{
	u32 idx = le32_to_cpu(b->member_index);

	return a->events == b->events && idx < OREBLK_MAX_MEMBERS &&
	       (le64_to_cpu(a->faulty_map) >> idx) & 1 &&
	       !((le64_to_cpu(b->faulty_map) >> idx) & 1);
}
