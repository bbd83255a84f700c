// SPDX-License-Identifier: GPL-2.0
/*
 * exofs on-disk format rules (include/exofs/format.h), the one copy that
 * exofs.ko, mkfs.exofs, fsck.exofs and tests/unit/format_test.c share.
 * Pure: built for the kernel and for userspace, nothing here may sleep,
 * allocate or print; a failed check returns -EINVAL and a static reason.
 *
 * Where the kernel and fsck used to differ, the rule is the union of both,
 * each part being what the kernel writes and docs/exofs-format.md says:
 * s_used_inodes <= s_max_ino (was kernel only), a symlink target shorter
 * than EXOFS_INLINE_SIZE is inline (was fsck only: the kernel always
 * writes it so), a symlink is 1..EXOFS_SYMLINK_MAX bytes (was kernel only)
 * and a device, FIFO or socket has size 0 (was kernel only). A directory
 * has at least 2 links ("." and its name; the kernel's check).
 */
#ifdef __KERNEL__
#include <linux/stat.h>
#else
#include <sys/stat.h>
#endif

#include <exofs/format.h>

#define EXOFS_NSEC_PER_SEC	1000000000U

u32 exofs_sb_csum(const void *sb)
{
	return ~ore_crc32c_skip(~0U, sb, EXOFS_SB_SIZE,
				offsetof(struct exofs_fsb, s_csum),
				sizeof_field(struct exofs_fsb, s_csum));
}

u32 exofs_inode_csum(const struct exofs_inode *rec)
{
	return ~ore_crc32c_skip(~0U, rec, sizeof(*rec),
				offsetof(struct exofs_inode, i_csum),
				sizeof(rec->i_csum));
}

void exofs_layout_from_disk(const struct exofs_layout_disk *d,
			    struct ore_layout *l)
{
	memset(l, 0, sizeof(*l));
	l->stripe_unit = le32_to_cpu(d->stripe_unit);
	l->group_width = le32_to_cpu(d->group_width);
	l->group_depth = le32_to_cpu(d->group_depth);
	l->group_count = le32_to_cpu(d->group_count);
	l->mirrors_p1 = le32_to_cpu(d->mirrors_p1);
	l->raid_algorithm = le32_to_cpu(d->raid_algorithm);
}

void exofs_layout_to_disk(const struct ore_layout *l,
			  struct exofs_layout_disk *d)
{
	d->stripe_unit = cpu_to_le32(l->stripe_unit);
	d->group_width = cpu_to_le32(l->group_width);
	d->group_depth = cpu_to_le32(l->group_depth);
	d->group_count = cpu_to_le32(l->group_count);
	d->mirrors_p1 = cpu_to_le32(l->mirrors_p1);
	d->raid_algorithm = cpu_to_le32(l->raid_algorithm);
}

static bool exofs_all_zero(const void *p, size_t n)
{
	const u8 *b = p;

	while (n--)
		if (*b++)
			return false;
	return true;
}

/* The device table of @sb, @n entries, the entry of store @idx last. */
static const char *exofs_devtable_check(const void *sb, u32 n, u32 idx)
{
	const struct exofs_fsb *fsb = sb;
	const struct exofs_dev_entry *dt = (const void *)((const u8 *)sb +
							  EXOFS_DEVTABLE_OFFSET);
	u32 i, j;

	for (i = 0; i < n; i++) {
		if (le32_to_cpu(dt[i].index) != i)
			return "device table entry index differs from its position";
		if (le32_to_cpu(dt[i].flags) & ~EXOFS_DEV_FL_KNOWN)
			return "device table entry has unknown flags";
		if ((le32_to_cpu(dt[i].flags) & EXOFS_DEV_FL_REBUILDING) &&
		    !(le32_to_cpu(dt[i].flags) & EXOFS_DEV_FL_FAILED))
			return "device table entry rebuilding but not failed";
		if (dt[i].rebuild_ino &&
		    !(le32_to_cpu(dt[i].flags) & EXOFS_DEV_FL_REBUILDING))
			return "device table entry has a rebuild checkpoint but is not rebuilding";
		if (exofs_all_zero(dt[i].uuid, EXOFS_UUID_SIZE))
			return "device table entry has a zero UUID";
		for (j = 0; j < i; j++)
			if (!memcmp(dt[i].uuid, dt[j].uuid, EXOFS_UUID_SIZE))
				return "device table lists one UUID twice";
	}
	if (memcmp(dt[idx].uuid, fsb->s_store_uuid, EXOFS_UUID_SIZE))
		return "s_store_uuid differs from its device table entry";
	return NULL;
}

/*
 * Data checksums: a known type with the CSUM feature, which needs INTENT;
 * no type without it; CSUM_SIDE only with CSUM.
 */
static const char *exofs_csum_feature_check(const struct exofs_fsb *fsb)
{
	u32 ro_compat = le32_to_cpu(fsb->s_feature_ro_compat);
	u32 type = le32_to_cpu(fsb->s_csum_type);

	if (!(ro_compat & EXOFS_FEATURE_RO_COMPAT_CSUM)) {
		if (ro_compat & EXOFS_FEATURE_RO_COMPAT_CSUM_SIDE)
			return "CSUM_SIDE without the CSUM feature";
		return type ? "s_csum_type set without the CSUM feature" : NULL;
	}
	if (!(ro_compat & EXOFS_FEATURE_RO_COMPAT_INTENT))
		return "data checksums (CSUM) without the intent record (INTENT)";
	if (type != ORE_CSUM_XXH64 && type != ORE_CSUM_CRC32C)
		return "unknown s_csum_type";
	return NULL;
}

static const char *exofs_fsb_check(const void *sb, struct ore_layout *layout)
{
	const struct exofs_fsb *fsb = sb;
	const char *why;
	u32 n, idx;
	u64 max_ino;

	if (le64_to_cpu(fsb->s_magic) != EXOFS_SB_MAGIC)
		return "bad magic";
	if (le32_to_cpu(fsb->s_version) != EXOFS_FORMAT_VERSION)
		return "unknown format version";
	if (le32_to_cpu(fsb->s_sb_size) != EXOFS_SB_SIZE)
		return "s_sb_size is not 4096";
	if (le32_to_cpu(fsb->s_csum) != exofs_sb_csum(sb))
		return "superblock checksum mismatch";
	if (le32_to_cpu(fsb->s_feature_incompat) & ~EXOFS_FEATURE_INCOMPAT_SUPP)
		return "unknown incompatible features";
	n = le32_to_cpu(fsb->s_num_stores);
	idx = le32_to_cpu(fsb->s_store_index);
	if (!n || n > EXOFS_MAX_STORES)
		return "s_num_stores is not 1..96";
	if (idx >= n)
		return "s_store_index is beyond s_num_stores";
	if (le32_to_cpu(fsb->s_inode_size) != EXOFS_INODE_SIZE)
		return "s_inode_size is not 256";
	if (le32_to_cpu(fsb->s_dir_chunk) != EXOFS_DIR_CHUNK)
		return "s_dir_chunk is not 4096";
	if (le64_to_cpu(fsb->s_root_ino) != EXOFS_ROOT_INO)
		return "s_root_ino is not 1";
	max_ino = le64_to_cpu(fsb->s_max_ino);
	if (max_ino <= EXOFS_FIRST_INO || max_ino > EXOFS_MAX_INO_LIMIT)
		return "s_max_ino out of range";
	if (le64_to_cpu(fsb->s_used_inodes) > max_ino)
		return "s_used_inodes is above s_max_ino";
	if (le32_to_cpu(fsb->s_state) != EXOFS_STATE_CLEAN &&
	    le32_to_cpu(fsb->s_state) != EXOFS_STATE_DIRTY)
		return "unknown s_state";
	why = exofs_csum_feature_check(fsb);
	if (why)
		return why;
	exofs_layout_from_disk(&fsb->s_layout, layout);
	if (ore_layout_check(layout, n, &why))
		return why;
	return exofs_devtable_check(sb, n, idx);
}

int exofs_sb_check(const void *sb, struct ore_layout *layout,
		   const char **why)
{
	*why = exofs_fsb_check(sb, layout);
	return *why ? -EINVAL : 0;
}

int exofs_sb_replacement_check(const void *sb, const char **why)
{
	const struct exofs_fsb *fsb = sb;
	const u8 *p = sb;
	size_t z0 = offsetof(struct exofs_fsb, s_label);
	size_t z1 = offsetof(struct exofs_fsb, s_store_index);
	size_t z2 = offsetof(struct exofs_fsb, s_event);
	size_t z3 = offsetof(struct exofs_fsb, s_state);
	size_t z4 = offsetof(struct exofs_fsb, s_inode_size);

	*why = NULL;
	if (le64_to_cpu(fsb->s_magic) != EXOFS_SB_MAGIC)
		*why = "bad magic";
	else if (le32_to_cpu(fsb->s_state) != EXOFS_STATE_REPLACEMENT)
		*why = "not a replacement store";
	else if (le32_to_cpu(fsb->s_version) != EXOFS_FORMAT_VERSION ||
		 le32_to_cpu(fsb->s_sb_size) != EXOFS_SB_SIZE)
		*why = "unknown format version or size";
	else if (le32_to_cpu(fsb->s_csum) != exofs_sb_csum(sb))
		*why = "superblock checksum mismatch";
	else if (le32_to_cpu(fsb->s_feature_compat) ||
		 le32_to_cpu(fsb->s_feature_incompat) ||
		 le32_to_cpu(fsb->s_feature_ro_compat) ||
		 !exofs_all_zero(p + z0, z1 - z0) ||
		 !exofs_all_zero(p + z2, z3 - z2) ||
		 !exofs_all_zero(p + z4, EXOFS_SB_SIZE - z4))
		*why = "replacement stub with fields that must be zero";
	else if (le32_to_cpu(fsb->s_store_index) >= EXOFS_MAX_STORES)
		*why = "s_store_index is beyond 96";
	else if (exofs_all_zero(fsb->s_uuid, EXOFS_UUID_SIZE) ||
		 exofs_all_zero(fsb->s_store_uuid, EXOFS_UUID_SIZE))
		*why = "replacement stub with a zero UUID";
	return *why ? -EINVAL : 0;
}

bool exofs_sb_same(const void *a, const void *b)
{
	const u8 *pa = a, *pb = b;
	size_t c0 = offsetof(struct exofs_fsb, s_csum);
	size_t c1 = c0 + sizeof_field(struct exofs_fsb, s_csum);
	size_t i0 = offsetof(struct exofs_fsb, s_store_index);
	size_t i1 = offsetof(struct exofs_fsb, s_event);

	/* s_store_index and s_store_uuid are adjacent: [i0, i1) */
	return !memcmp(pa, pb, c0) &&
	       !memcmp(pa + c1, pb + c1, i0 - c1) &&
	       !memcmp(pa + i1, pb + i1, EXOFS_SB_SIZE - i1);
}

void exofs_sb_set_store(void *sb, u32 index)
{
	struct exofs_fsb *fsb = exofs_fsb(sb);

	fsb->s_store_index = cpu_to_le32(index);
	memcpy(fsb->s_store_uuid, exofs_devtable(sb)[index].uuid,
	       EXOFS_UUID_SIZE);
	fsb->s_csum = cpu_to_le32(exofs_sb_csum(sb));
}

bool exofs_inode_is_free(const struct exofs_inode *rec)
{
	return exofs_all_zero(rec, sizeof(*rec));
}

unsigned int exofs_ft_of_mode(unsigned int mode)
{
	switch (mode & S_IFMT) {
	case S_IFREG:
		return EXOFS_FT_REG_FILE;
	case S_IFDIR:
		return EXOFS_FT_DIR;
	case S_IFCHR:
		return EXOFS_FT_CHRDEV;
	case S_IFBLK:
		return EXOFS_FT_BLKDEV;
	case S_IFIFO:
		return EXOFS_FT_FIFO;
	case S_IFSOCK:
		return EXOFS_FT_SOCK;
	case S_IFLNK:
		return EXOFS_FT_SYMLINK;
	default:
		return EXOFS_FT_UNKNOWN;
	}
}

/* What the file type of @rec requires of its flags, size and i_data. */
static const char *exofs_inode_type_check(const struct exofs_inode *rec)
{
	u32 flags = le32_to_cpu(rec->i_flags);
	u64 size = le64_to_cpu(rec->i_size);
	size_t tlen;

	switch (le16_to_cpu(rec->i_mode) & S_IFMT) {
	case S_IFREG:
		if (flags != EXOFS_INODE_FL_OBJECT)
			return "regular file without EXOFS_INODE_FL_OBJECT";
		return NULL;
	case S_IFDIR:
		if (flags != EXOFS_INODE_FL_OBJECT)
			return "directory without EXOFS_INODE_FL_OBJECT";
		if (!size || size % EXOFS_DIR_CHUNK)
			return "directory size is not a non-zero multiple of 4096";
		if (le32_to_cpu(rec->i_links_count) < 2)
			return "directory with fewer than 2 links";
		return NULL;
	case S_IFLNK:
		if (!size || size > EXOFS_SYMLINK_MAX)
			return "symlink length is not 1..4095";
		if (size > EXOFS_INLINE_SYMLINK_MAX) {
			if (flags != EXOFS_INODE_FL_OBJECT)
				return "long symlink without EXOFS_INODE_FL_OBJECT";
			return NULL;
		}
		if (flags != EXOFS_INODE_FL_INLINE)
			return "short symlink not inline";
		tlen = strnlen((const char *)rec->i_data, EXOFS_INLINE_SIZE);
		if (tlen != size)
			return "inline symlink length differs from i_size";
		return NULL;
	default:	/* devices, FIFOs, sockets */
		if (flags)
			return "special file with object or inline flags";
		if (size)
			return "special file with a size";
		return NULL;
	}
}

static const char *exofs_rec_check(const struct exofs_inode *rec, u64 ino)
{
	if (le32_to_cpu(rec->i_csum) != exofs_inode_csum(rec))
		return "inode checksum mismatch";
	if (le64_to_cpu(rec->i_ino) != ino)
		return "i_ino differs from the record's position";
	if (exofs_ft_of_mode(le16_to_cpu(rec->i_mode)) == EXOFS_FT_UNKNOWN)
		return "unknown file type in i_mode";
	if (le32_to_cpu(rec->i_flags) & ~EXOFS_INODE_FL_KNOWN)
		return "unknown i_flags bits";
	if (le64_to_cpu(rec->i_size) > EXOFS_MAX_FILE_SIZE)
		return "i_size beyond s_maxbytes";
	if (!le32_to_cpu(rec->i_links_count))
		return "i_links_count is zero";
	if (le32_to_cpu(rec->i_atime_nsec) >= EXOFS_NSEC_PER_SEC ||
	    le32_to_cpu(rec->i_mtime_nsec) >= EXOFS_NSEC_PER_SEC ||
	    le32_to_cpu(rec->i_ctime_nsec) >= EXOFS_NSEC_PER_SEC ||
	    le32_to_cpu(rec->i_crtime_nsec) >= EXOFS_NSEC_PER_SEC)
		return "nanoseconds not below 10^9";
	return exofs_inode_type_check(rec);
}

int exofs_inode_check(const struct exofs_inode *rec, u64 ino,
		      const char **why)
{
	*why = NULL;
	if (exofs_inode_is_free(rec))
		return 1;
	*why = exofs_rec_check(rec, ino);
	return *why ? -EINVAL : 0;
}

u64 exofs_intent_region(u64 stripe)
{
	u64 n;

	if (!stripe)
		return 0;
	n = (EXOFS_INTENT_REGION_MIN + stripe - 1) / stripe;
	return n * stripe;
}

u32 exofs_intent_csum(const struct exofs_intent_hdr *hdr)
{
	u32 n = le32_to_cpu(hdr->ih_count);

	return ~ore_crc32c_skip(~0U, hdr, sizeof(*hdr) +
				(size_t)n * sizeof(struct exofs_intent_ent),
				offsetof(struct exofs_intent_hdr, ih_csum),
				sizeof(hdr->ih_csum));
}

int exofs_intent_check(const struct exofs_intent_hdr *hdr, u32 len,
		       const u8 *uuid, u64 region, const char **why)
{
	u32 n;

	if (len < sizeof(*hdr)) {
		*why = "slot too short";
		return -EINVAL;
	}
	if (exofs_all_zero(hdr, sizeof(*hdr)))
		return 1;
	if (le64_to_cpu(hdr->ih_magic) != EXOFS_INTENT_MAGIC) {
		*why = "bad magic";
		return -EINVAL;
	}
	if (memcmp(hdr->ih_uuid, uuid, EXOFS_UUID_SIZE)) {
		*why = "another filesystem's record";
		return -EINVAL;
	}
	n = le32_to_cpu(hdr->ih_count);
	if (n > EXOFS_INTENT_MAX ||
	    sizeof(*hdr) + (u64)n * sizeof(struct exofs_intent_ent) > len) {
		*why = "too many entries";
		return -EINVAL;
	}
	if (le32_to_cpu(hdr->ih_csum) != exofs_intent_csum(hdr)) {
		*why = "bad checksum";
		return -EINVAL;
	}
	if (le64_to_cpu(hdr->ih_region) != region) {
		*why = "region size does not match the layout";
		return -EINVAL;
	}
	if (hdr->ih_reserved[0] || hdr->ih_reserved[1]) {
		*why = "reserved bytes not zero";
		return -EINVAL;
	}
	return 0;
}
