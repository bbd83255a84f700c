// SPDX-License-Identifier: GPL-2.0
/*
 * Userspace test of the pure on-disk format files: exofs/format.c (exofs
 * superblock, device table, inode records) and oreblk/sb.c (oreblk member
 * superblock), the code exofs.ko, oreblk.ko and the tools share.
 *
 * Every structure is built from known values, checked, and read back
 * (round trip). Then every check is hit by one malformed field on an
 * otherwise valid structure (the checksum fixed up again, so that the
 * value itself must be refused), and the case expects the reason that
 * check gives: removing any one check makes its case fail (the structure
 * passes, or another check names it). KTAP output; the exit code is
 * non-zero if any case fails.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <exofs/format.h>
#include <oreblk/sb.h>

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

static unsigned long case_fails;

static void failf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void failf(const char *fmt, ...)
{
	va_list ap;

	case_fails++;
	printf("# FAIL: ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

#define EXPECT(cond, ...) do { if (!(cond)) failf(__VA_ARGS__); } while (0)

/* Write @val little endian into @size bytes at @p + @off (> 8: fill). */
static void put_le(void *p, size_t off, size_t size, uint64_t val)
{
	uint8_t *b = (uint8_t *)p + off;
	size_t i;

	if (size > 8) {
		memset(b, (int)val, size);
		return;
	}
	for (i = 0; i < size; i++)
		b[i] = (uint8_t)(val >> (8 * i));
}

/* ---------------------------------------------------------------------
 * CRC-32C
 */

static uint32_t crc_bitwise(uint32_t crc, const uint8_t *p, size_t len)
{
	int k;

	while (len--) {
		crc ^= *p++;
		for (k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (0x82f63b78u & (0u - (crc & 1u)));
	}
	return crc;
}

static void test_crc32c(void)
{
	uint8_t buf[1000];
	size_t i;

	EXPECT(~ore_crc32c(~0U, "123456789", 9) == EXOFS_CRC32C_CHECK,
	       "exofs check value 0x%08x", ~ore_crc32c(~0U, "123456789", 9));
	EXPECT(ore_crc32c(~0U, "123456789", 9) == 0x1CF96D7Cu,
	       "oreblk check value 0x%08x", ore_crc32c(~0U, "123456789", 9));
	for (i = 0; i < sizeof(buf); i++)
		buf[i] = (uint8_t)(i * 37 + 11);
	for (i = 0; i < sizeof(buf); i += 97)
		EXPECT(ore_crc32c(~0U, buf, i) == crc_bitwise(~0U, buf, i),
		       "nibble table differs from the bitwise CRC at %zu bytes", i);
	/* a field read as zero */
	memset(buf + 100, 0, 4);
	EXPECT(ore_crc32c_skip(~0U, buf, 500, 100, 4) ==
	       ore_crc32c(~0U, buf, 500), "skip of a zero field");
	buf[101] = 0x55;
	EXPECT(ore_crc32c_skip(~0U, buf, 500, 100, 4) ==
	       crc_bitwise(crc_bitwise(crc_bitwise(~0U, buf, 100),
				       (const uint8_t *)"\0\0\0\0", 4),
			   buf + 104, 396), "skip of a non-zero field");
}

/* ---------------------------------------------------------------------
 * exofs superblock and device table
 */

#define SB_N	6	/* stores of the test superblock */

static const struct ore_layout sb_layout = {
	.stripe_unit = 65536, .group_width = 3, .group_depth = 2,
	.group_count = 1, .mirrors_p1 = 2, .raid_algorithm = ORE_RAID5,
};

/* A valid superblock of store @idx, what mkfs.exofs would write. */
static void make_sb(uint8_t *sb, uint32_t idx)
{
	struct exofs_fsb *fsb = exofs_fsb(sb);
	struct exofs_dev_entry *dt = exofs_devtable(sb);
	uint32_t i;

	memset(sb, 0, EXOFS_SB_SIZE);
	fsb->s_magic = htole64(EXOFS_SB_MAGIC);
	fsb->s_version = htole32(EXOFS_FORMAT_VERSION);
	fsb->s_sb_size = htole32(EXOFS_SB_SIZE);
	memset(fsb->s_uuid, 0xa5, EXOFS_UUID_SIZE);
	memcpy(fsb->s_label, "format_test", 11);
	exofs_layout_to_disk(&sb_layout, &fsb->s_layout);
	fsb->s_num_stores = htole32(SB_N);
	fsb->s_event = htole64(7);
	fsb->s_state = htole32(EXOFS_STATE_CLEAN);
	fsb->s_inode_size = htole32(EXOFS_INODE_SIZE);
	fsb->s_dir_chunk = htole32(EXOFS_DIR_CHUNK);
	fsb->s_root_ino = htole64(EXOFS_ROOT_INO);
	fsb->s_max_ino = htole64(4096);
	fsb->s_next_ino = htole64(EXOFS_FIRST_INO);
	fsb->s_used_inodes = htole64(2);
	fsb->s_mkfs_time = htole64(1700000000);
	for (i = 0; i < SB_N; i++) {
		memset(dt[i].uuid, 0x10 + i, EXOFS_UUID_SIZE);
		dt[i].index = htole32(i);
	}
	exofs_sb_set_store(sb, idx);
}

static void test_exofs_sb_roundtrip(void)
{
	uint8_t a[EXOFS_SB_SIZE], b[EXOFS_SB_SIZE];
	struct exofs_layout_disk d;
	struct ore_layout l, r;
	const char *why;
	uint32_t i;

	exofs_layout_to_disk(&sb_layout, &d);
	exofs_layout_from_disk(&d, &r);
	EXPECT(!memcmp(&r, &sb_layout, sizeof(r)), "layout to disk and back");
	for (i = 0; i < SB_N; i++) {
		make_sb(a, i);
		EXPECT(!exofs_sb_check(a, &l, &why), "store %u: %s", i, why);
		EXPECT(le32toh(exofs_fsb(a)->s_store_index) == i &&
		       !memcmp(exofs_fsb(a)->s_store_uuid,
			       exofs_devtable(a)[i].uuid, EXOFS_UUID_SIZE),
		       "store %u: per-store fields", i);
		EXPECT(le32toh(exofs_fsb(a)->s_csum) == exofs_sb_csum(a),
		       "store %u: s_csum", i);
		EXPECT(l.stripe_unit == 65536 && l.group_width == 3 &&
		       l.group_depth == 2 && l.group_count == 1 &&
		       l.mirrors_p1 == 2 && l.raid_algorithm == ORE_RAID5 &&
		       l.parity == 1 && l.data_width == 2 && l.num_comps == 6,
		       "store %u: layout read back", i);
		make_sb(b, (i + 1) % SB_N);
		EXPECT(exofs_sb_same(a, b), "stores %u and %u differ", i,
		       (i + 1) % SB_N);
	}
	/* a shared field differs: not the same; checksum alone: the same */
	make_sb(a, 0);
	make_sb(b, 1);
	exofs_fsb(b)->s_event = htole64(8);
	EXPECT(!exofs_sb_same(a, b), "s_event differs but same");
	make_sb(b, 0);
	exofs_devtable(b)[3].flags = htole32(EXOFS_DEV_FL_FAILED);
	EXPECT(!exofs_sb_same(a, b), "device table differs but same");
	make_sb(b, 0);
	exofs_fsb(b)->s_csum ^= 1;
	EXPECT(exofs_sb_same(a, b), "s_csum alone differs and not same");
	exofs_fsb(b)->s_label[31] = 'x';
	EXPECT(!exofs_sb_same(a, b), "s_label differs but same");
}

#define FSB(f)		offsetof(struct exofs_fsb, f), sizeof_field(struct exofs_fsb, f)
#define FSBL(f)		offsetof(struct exofs_fsb, s_layout.f), \
			sizeof_field(struct exofs_layout_disk, f)
#define DEV(i, f)	EXOFS_DEVTABLE_OFFSET + (i) * sizeof(struct exofs_dev_entry) + \
			offsetof(struct exofs_dev_entry, f), \
			sizeof_field(struct exofs_dev_entry, f)

/**
 * struct sb_case - one malformed field of an exofs superblock
 * @off: where (byte offset in the superblock)
 * @size: bytes of the field
 * @val: the value written (little endian; fields above 8 bytes: filled)
 * @copy: copy @size bytes from offset @val instead
 * @keep_csum: do not fix s_csum up again (the checksum case)
 * @why: the reason the check must give
 */
struct sb_case {
	size_t off, size;
	uint64_t val;
	int copy, keep_csum;
	const char *why;
};

static const struct sb_case sb_cases[] = {
	{ FSB(s_magic), 0x1234, 0, 0, "bad magic" },
	{ FSB(s_version), 2, 0, 0, "unknown format version" },
	{ FSB(s_sb_size), 8192, 0, 0, "s_sb_size is not 4096" },
	{ FSB(s_label), 'x', 0, 1, "superblock checksum mismatch" },
	{ FSB(s_feature_incompat), 1, 0, 0, "unknown incompatible features" },
	{ FSB(s_num_stores), 0, 0, 0, "s_num_stores is not 1..96" },
	{ FSB(s_num_stores), EXOFS_MAX_STORES + 1, 0, 0, "s_num_stores is not 1..96" },
	{ FSB(s_store_index), SB_N, 0, 0, "s_store_index is beyond s_num_stores" },
	{ FSB(s_inode_size), 512, 0, 0, "s_inode_size is not 256" },
	{ FSB(s_dir_chunk), 8192, 0, 0, "s_dir_chunk is not 4096" },
	{ FSB(s_root_ino), 2, 0, 0, "s_root_ino is not 1" },
	{ FSB(s_max_ino), EXOFS_FIRST_INO, 0, 0, "s_max_ino out of range" },
	{ FSB(s_max_ino), EXOFS_MAX_INO_LIMIT + 1, 0, 0, "s_max_ino out of range" },
	{ FSB(s_used_inodes), 4097, 0, 0, "s_used_inodes is above s_max_ino" },
	{ FSB(s_state), 3, 0, 0, "unknown s_state" },
	{ FSB(s_csum_type), ORE_CSUM_XXH64, 0, 0,
	  "s_csum_type set without the CSUM feature" },
	{ FSB(s_feature_ro_compat), EXOFS_FEATURE_RO_COMPAT_CSUM, 0, 0,
	  "data checksums (CSUM) without the intent record (INTENT)" },
	{ FSBL(raid_algorithm), 3, 0, 0, "raid_algorithm is not 0, 4, 5 or 6" },
	{ FSBL(stripe_unit), 1000, 0, 0, "stripe_unit is not a multiple of the page size" },
	{ FSBL(group_count), 2, 0, 0, "layout needs more components than there are devices" },
	{ DEV(2, index), 3, 0, 0, "device table entry index differs from its position" },
	{ DEV(4, flags), 4, 0, 0, "device table entry has unknown flags" },
	{ DEV(4, flags), EXOFS_DEV_FL_REBUILDING, 0, 0,
	  "device table entry rebuilding but not failed" },
	{ DEV(1, rebuild_ino), 5, 0, 0,
	  "device table entry has a rebuild checkpoint but is not rebuilding" },
	{ DEV(5, uuid), 0, 0, 0, "device table entry has a zero UUID" },
	{ DEV(3, uuid), EXOFS_DEVTABLE_OFFSET + offsetof(struct exofs_dev_entry, uuid),
	  1, 0, "device table lists one UUID twice" },
	{ FSB(s_store_uuid), 0x77, 0, 0, "s_store_uuid differs from its device table entry" },
};

static void test_exofs_sb_malformed(void)
{
	uint8_t sb[EXOFS_SB_SIZE];
	struct ore_layout l;
	const char *why;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(sb_cases); i++) {
		const struct sb_case *c = &sb_cases[i];
		int err;

		make_sb(sb, 1);
		if (c->copy)
			memcpy(sb + c->off, sb + c->val, c->size);
		else
			put_le(sb, c->off, c->size, c->val);
		if (!c->keep_csum)
			exofs_fsb(sb)->s_csum = htole32(exofs_sb_csum(sb));
		err = exofs_sb_check(sb, &l, &why);
		EXPECT(err == -EINVAL && why && !strcmp(why, c->why),
		       "superblock case %zu (%s): returned %d, \"%s\"", i,
		       c->why, err, why ? why : "(none)");
	}
	printf("# %zu malformed superblocks\n", ARRAY_SIZE(sb_cases));
}

/* ---------------------------------------------------------------------
 * exofs inode records
 */

enum rec_kind { R_REG, R_DIR, R_SHORTLNK, R_LONGLNK, R_CHR, R_FIFO, R_SOCK,
		R_NR };

#define REC_INO	77

static void make_rec(struct exofs_inode *r, enum rec_kind k)
{
	static const uint16_t modes[R_NR] = {
		S_IFREG | 0644, S_IFDIR | 0755, S_IFLNK | 0777, S_IFLNK | 0777,
		S_IFCHR | 0600, S_IFIFO | 0600, S_IFSOCK | 0600,
	};

	memset(r, 0, sizeof(*r));
	r->i_mode = htole16(modes[k]);
	r->i_links_count = htole32(k == R_DIR ? 2 : 1);
	r->i_uid = htole32(1000);
	r->i_gid = htole32(100);
	r->i_atime = r->i_mtime = r->i_ctime = r->i_crtime = htole64(1700000000);
	r->i_atime_nsec = r->i_mtime_nsec = htole32(999999999);
	r->i_generation = htole32(0xdeadbeef);
	r->i_ino = htole64(REC_INO);
	switch (k) {
	case R_REG:
		r->i_size = htole64(EXOFS_MAX_FILE_SIZE);
		r->i_flags = htole32(EXOFS_INODE_FL_OBJECT);
		break;
	case R_DIR:
		r->i_size = htole64(3 * EXOFS_DIR_CHUNK);
		r->i_flags = htole32(EXOFS_INODE_FL_OBJECT);
		break;
	case R_SHORTLNK:
		r->i_size = htole64(EXOFS_INLINE_SYMLINK_MAX);
		memset(r->i_data, 'a', EXOFS_INLINE_SYMLINK_MAX);
		r->i_flags = htole32(EXOFS_INODE_FL_INLINE);
		break;
	case R_LONGLNK:
		r->i_size = htole64(EXOFS_SYMLINK_MAX);
		r->i_flags = htole32(EXOFS_INODE_FL_OBJECT);
		break;
	case R_CHR:
		r->i_rdev = htole32((8 << 8) | 1);
		break;
	default:
		break;
	}
	r->i_csum = htole32(exofs_inode_csum(r));
}

static void test_exofs_inode_roundtrip(void)
{
	struct exofs_inode r, z;
	const char *why;
	int k, err;

	for (k = 0; k < R_NR; k++) {
		make_rec(&r, k);
		err = exofs_inode_check(&r, REC_INO, &why);
		EXPECT(err == 0, "record kind %d: %d %s", k, err,
		       why ? why : "");
		EXPECT(le64toh(r.i_ino) == REC_INO &&
		       le32toh(r.i_uid) == 1000 && le32toh(r.i_gid) == 100 &&
		       le32toh(r.i_generation) == 0xdeadbeef &&
		       le32toh(r.i_csum) == exofs_inode_csum(&r),
		       "record kind %d: fields read back", k);
		EXPECT(exofs_ft_of_mode(le16toh(r.i_mode)) != EXOFS_FT_UNKNOWN,
		       "record kind %d: file type", k);
	}
	memset(&z, 0, sizeof(z));
	EXPECT(exofs_inode_check(&z, REC_INO, &why) == 1 &&
	       exofs_inode_is_free(&z), "a zero record is free");
	EXPECT(exofs_ft_of_mode(S_IFREG) == EXOFS_FT_REG_FILE &&
	       exofs_ft_of_mode(S_IFDIR) == EXOFS_FT_DIR &&
	       exofs_ft_of_mode(S_IFCHR) == EXOFS_FT_CHRDEV &&
	       exofs_ft_of_mode(S_IFBLK) == EXOFS_FT_BLKDEV &&
	       exofs_ft_of_mode(S_IFIFO) == EXOFS_FT_FIFO &&
	       exofs_ft_of_mode(S_IFSOCK) == EXOFS_FT_SOCK &&
	       exofs_ft_of_mode(S_IFLNK) == EXOFS_FT_SYMLINK &&
	       exofs_ft_of_mode(0) == EXOFS_FT_UNKNOWN, "exofs_ft_of_mode");
}

#define REC(f)	offsetof(struct exofs_inode, f), sizeof_field(struct exofs_inode, f)

/* One malformed field of a valid record of kind @kind (as struct sb_case). */
struct rec_case {
	enum rec_kind kind;
	size_t off, size;
	uint64_t val;
	int keep_csum;
	const char *why;
};

static const struct rec_case rec_cases[] = {
	{ R_REG, REC(i_uid), 1, 1, "inode checksum mismatch" },
	{ R_REG, REC(i_ino), REC_INO + 1, 0, "i_ino differs from the record's position" },
	{ R_REG, REC(i_mode), 0644, 0, "unknown file type in i_mode" },
	{ R_REG, REC(i_flags), EXOFS_INODE_FL_OBJECT | 4, 0, "unknown i_flags bits" },
	{ R_REG, REC(i_size), EXOFS_MAX_FILE_SIZE + 1, 0, "i_size beyond s_maxbytes" },
	{ R_REG, REC(i_links_count), 0, 0, "i_links_count is zero" },
	{ R_REG, REC(i_atime_nsec), 1000000000, 0, "nanoseconds not below 10^9" },
	{ R_REG, REC(i_mtime_nsec), 1000000000, 0, "nanoseconds not below 10^9" },
	{ R_REG, REC(i_ctime_nsec), 1000000000, 0, "nanoseconds not below 10^9" },
	{ R_REG, REC(i_crtime_nsec), 1000000000, 0, "nanoseconds not below 10^9" },
	{ R_REG, REC(i_flags), 0, 0, "regular file without EXOFS_INODE_FL_OBJECT" },
	{ R_DIR, REC(i_flags), EXOFS_INODE_FL_INLINE, 0, "directory without EXOFS_INODE_FL_OBJECT" },
	{ R_DIR, REC(i_size), 0, 0, "directory size is not a non-zero multiple of 4096" },
	{ R_DIR, REC(i_size), EXOFS_DIR_CHUNK + 8, 0, "directory size is not a non-zero multiple of 4096" },
	{ R_DIR, REC(i_links_count), 1, 0, "directory with fewer than 2 links" },
	{ R_LONGLNK, REC(i_size), 0, 0, "symlink length is not 1..4095" },
	{ R_LONGLNK, REC(i_size), EXOFS_SYMLINK_MAX + 1, 0, "symlink length is not 1..4095" },
	{ R_LONGLNK, REC(i_flags), EXOFS_INODE_FL_INLINE, 0, "long symlink without EXOFS_INODE_FL_OBJECT" },
	{ R_SHORTLNK, REC(i_flags), EXOFS_INODE_FL_OBJECT, 0, "short symlink not inline" },
	{ R_SHORTLNK, offsetof(struct exofs_inode, i_data) + 5, 1, 0, 0,
	  "inline symlink length differs from i_size" },
	{ R_SHORTLNK, REC(i_size), EXOFS_INLINE_SYMLINK_MAX - 1, 0,
	  "inline symlink length differs from i_size" },
	{ R_CHR, REC(i_flags), EXOFS_INODE_FL_OBJECT, 0, "special file with object or inline flags" },
	{ R_FIFO, REC(i_flags), EXOFS_INODE_FL_INLINE, 0, "special file with object or inline flags" },
	{ R_SOCK, REC(i_size), 1, 0, "special file with a size" },
};

static void test_exofs_inode_malformed(void)
{
	struct exofs_inode r;
	const char *why;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(rec_cases); i++) {
		const struct rec_case *c = &rec_cases[i];
		int err;

		make_rec(&r, c->kind);
		put_le(&r, c->off, c->size, c->val);
		if (!c->keep_csum)
			r.i_csum = htole32(exofs_inode_csum(&r));
		err = exofs_inode_check(&r, REC_INO, &why);
		EXPECT(err == -EINVAL && why && !strcmp(why, c->why),
		       "record case %zu (%s): returned %d, \"%s\"", i, c->why,
		       err, why ? why : "(none)");
	}
	printf("# %zu malformed inode records\n", ARRAY_SIZE(rec_cases));
}

/* ---------------------------------------------------------------------
 * oreblk member superblock
 */

#define OB_N		6
#define OB_DEV		(64ULL << 20)	/* bytes of the test member */

static const struct ore_layout ob_layout = {
	.stripe_unit = 65536, .group_width = 3, .group_depth = 1,
	.group_count = 2, .mirrors_p1 = 1, .raid_algorithm = ORE_RAID5,
};

/* A valid superblock of member @idx, what tools/oreblk create writes. */
static void make_ob(struct oreblk_sb *sb, uint32_t idx)
{
	uint64_t dsize = 32ULL << 20;
	uint32_t i;

	memset(sb, 0, sizeof(*sb));
	sb->magic = htole32(OREBLK_SB_MAGIC);
	sb->version = htole32(OREBLK_SB_VERSION);
	memset(sb->array_uuid, 0x5a, OREBLK_UUID_SIZE);
	memset(sb->member_uuid, 0x20 + idx, OREBLK_UUID_SIZE);
	sb->member_index = htole32(idx);
	sb->nr_members = htole32(OB_N);
	oreblk_sb_set_layout(sb, &ob_layout);
	sb->data_offset = htole64(OREBLK_DATA_OFFSET);
	sb->data_size = htole64(dsize);
	/* 2 groups of 2 data columns of 64 KiB per super-stripe */
	sb->array_size = htole64(dsize / 65536 * (4 * 65536));
	sb->events = htole64(3);
	sb->ctime = sb->utime = htole64(1700000000);
	sb->faulty_map = htole64(1ULL << (OB_N - 1));
	memcpy(sb->name, "test", 4);
	for (i = 0; i < OB_N; i++)
		memset(sb->member_uuids[i], 0x20 + i, OREBLK_UUID_SIZE);
	sb->csum = htole32(oreblk_sb_csum(sb));
}

static void test_oreblk_sb_roundtrip(void)
{
	struct oreblk_sb a, b;
	struct ore_layout l, r;
	const char *why;
	uint32_t i;
	int err;

	make_ob(&a, 0);
	oreblk_sb_get_layout(&a, &r);
	EXPECT(!memcmp(&r, &ob_layout, sizeof(r)), "layout to disk and back");
	for (i = 0; i < OB_N; i++) {
		make_ob(&a, i);
		err = oreblk_sb_check(&a, OB_DEV, &l, &why);
		EXPECT(!err, "member %u: %d %s", i, err, why ? why : "");
		EXPECT(l.num_comps == OB_N && l.parity == 1 &&
		       l.super_stripe == 4 * 65536, "member %u: layout", i);
		make_ob(&b, (i + 1) % OB_N);
		EXPECT(oreblk_sb_agree(&a, &b), "members %u and %u disagree",
		       i, (i + 1) % OB_N);
	}
	/* exactly as big as the data range needs */
	make_ob(&a, 0);
	EXPECT(!oreblk_sb_check(&a, OREBLK_DATA_OFFSET + (32ULL << 20), &l,
				&why), "a device just big enough: %s", why);
}

#define OB(f)	offsetof(struct oreblk_sb, f), sizeof_field(struct oreblk_sb, f)

/* One malformed field of a valid member superblock (as struct sb_case). */
struct ob_case {
	size_t off, size;
	uint64_t val;
	int keep_csum, err;
	uint64_t dev_size;
	const char *why;
};

static const struct ob_case ob_cases[] = {
	{ OB(magic), 0, 1, -ENODATA, OB_DEV, "no oreblk superblock" },
	{ OB(name), 'y', 1, -EUCLEAN, OB_DEV, "superblock checksum mismatch" },
	{ OB(version), 2, 0, -EINVAL, OB_DEV, "superblock version not supported" },
	{ OB(flags), 2, 0, -EINVAL, OB_DEV, "unknown superblock flags" },
	{ OB(flags), 1, 0, -EINVAL, OB_DEV, "a recovering member is not marked faulty" },
	{ OB(recovery_offset), 4096, 0, -EINVAL, OB_DEV,
	  "recovery_offset without the recovering flag" },
	{ OB(array_state), 2, 0, -EINVAL, OB_DEV, "unknown array state bits" },
	{ OB(pad), 1, 0, -EINVAL, OB_DEV, "pad is not zero" },
	{ OB(resync_offset), 4 * 65536, 0, -EINVAL, OB_DEV,
	  "resync_offset without the dirty state" },
	{ OB(nr_members), 0, 0, -EINVAL, OB_DEV, "nr_members is not 1..64" },
	{ OB(nr_members), OREBLK_MAX_MEMBERS + 1, 0, -EINVAL, OB_DEV, "nr_members is not 1..64" },
	{ OB(member_index), OB_N, 0, -EINVAL, OB_DEV, "member_index is beyond nr_members" },
	{ OB(faulty_map), 1ULL << OB_N, 0, -EINVAL, OB_DEV, "faulty map names members beyond nr_members" },
	{ OB(stripe_unit), 0, 0, -EINVAL, OB_DEV, "stripe_unit is zero" },
	{ OB(nr_members), OB_N + 1, 0, -EINVAL, OB_DEV, "the layout's components are not the members" },
	{ OB(data_offset), OREBLK_DATA_OFFSET - 4096, 0, -EINVAL, OB_DEV,
	  "data_offset is below 1 MiB or not a multiple of 4096" },
	{ OB(data_offset), OREBLK_DATA_OFFSET + 512, 0, -EINVAL, OB_DEV,
	  "data_offset is below 1 MiB or not a multiple of 4096" },
	{ OB(data_size), 0, 0, -EINVAL, OB_DEV,
	  "data_size is not a non-zero multiple of stripe_unit * group_depth" },
	{ OB(data_size), (32ULL << 20) + 4096, 0, -EINVAL, OB_DEV,
	  "data_size is not a non-zero multiple of stripe_unit * group_depth" },
	{ OB(data_size), 32ULL << 20, 0, -EINVAL, (32ULL << 20) + 4096,
	  "the data range does not fit the device" },
	{ OB(data_size), 32ULL << 20, 0, -EINVAL, OREBLK_DATA_OFFSET / 2,
	  "the data range does not fit the device" },
	{ OB(array_size), 1 << 20, 0, -EINVAL, OB_DEV,
	  "array_size does not match the layout and data_size" },
	{ OB(member_uuid), 0x99, 0, -EINVAL, OB_DEV,
	  "member_uuid is not its own entry of the member table" },
};

/*
 * Each case applied alone to the superblock @make builds for member 2:
 * the check must fail with the case's error and reason.
 */
static void check_ob_cases(const struct ob_case *cases, size_t n,
			   void (*make)(struct oreblk_sb *, uint32_t),
			   const char *what)
{
	struct oreblk_sb sb;
	struct ore_layout l;
	const char *why;
	size_t i;

	for (i = 0; i < n; i++) {
		const struct ob_case *c = &cases[i];
		int err;

		make(&sb, 2);
		put_le(&sb, c->off, c->size, c->val);
		if (!c->keep_csum)
			sb.csum = htole32(oreblk_sb_csum(&sb));
		err = oreblk_sb_check(&sb, c->dev_size, &l, &why);
		EXPECT(err == c->err && why && !strcmp(why, c->why),
		       "%s case %zu (%s): returned %d, \"%s\"", what, i,
		       c->why, err, why ? why : "(none)");
	}
	printf("# %zu malformed %s superblocks\n", n, what);
}

static void test_oreblk_sb_malformed(void)
{
	check_ob_cases(ob_cases, ARRAY_SIZE(ob_cases), make_ob, "member");
}

/* Every field oreblk_sb_agree() compares, changed alone on one side. */
static const struct { size_t off, size; } agree_fields[] = {
	{ OB(nr_members) }, { OB(raid_algorithm) }, { OB(stripe_unit) },
	{ OB(group_width) }, { OB(group_depth) }, { OB(group_count) },
	{ OB(mirrors_p1) }, { OB(data_offset) }, { OB(data_size) },
	{ OB(array_size) }, { OB(ctime) }, { OB(csum_type) }, { OB(csum_offset) },
};

static void test_oreblk_sb_agree(void)
{
	struct oreblk_sb a, b;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(agree_fields); i++) {
		make_ob(&a, 0);
		make_ob(&b, 1);
		put_le(&b, agree_fields[i].off, agree_fields[i].size, 12345);
		EXPECT(!oreblk_sb_agree(&a, &b) && !oreblk_sb_agree(&b, &a),
		       "field at %zu differs, the superblocks agree",
		       agree_fields[i].off);
	}
	/* what may differ between members */
	make_ob(&a, 0);
	make_ob(&b, 1);
	b.events = htole64(9);
	b.utime = htole64(1);
	b.faulty_map = 0;
	EXPECT(oreblk_sb_agree(&a, &b), "events, utime, faulty map disagree");
}

/* A member being rebuilt: the flag, its own faulty bit, a sane offset. */
static void test_oreblk_sb_recovering(void)
{
	static const uint64_t bad[] = { 100, (32ULL << 20) + 4096 };
	struct oreblk_sb sb;
	struct ore_layout l;
	const char *why;
	size_t i;
	int err;

	make_ob(&sb, OB_N - 1);		/* marked faulty by every member */
	sb.flags = htole32(OREBLK_SB_FL_RECOVERING);
	sb.recovery_offset = htole64(8192);
	sb.csum = htole32(oreblk_sb_csum(&sb));
	err = oreblk_sb_check(&sb, OB_DEV, &l, &why);
	EXPECT(!err, "recovering member at 8192: %d %s", err, why ? why : "");
	sb.recovery_offset = htole64(32ULL << 20);
	sb.csum = htole32(oreblk_sb_csum(&sb));
	EXPECT(!oreblk_sb_check(&sb, OB_DEV, &l, &why),
	       "recovering member at data_size: %s", why);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		sb.recovery_offset = htole64(bad[i]);
		sb.csum = htole32(oreblk_sb_csum(&sb));
		err = oreblk_sb_check(&sb, OB_DEV, &l, &why);
		EXPECT(err == -EINVAL && why &&
		       !strcmp(why, "recovery_offset is beyond data_size or not a multiple of 4096"),
		       "recovery_offset %llu: %d %s", (unsigned long long)bad[i],
		       err, why ? why : "");
	}
}

/* A dirty array: the state bit, a resync offset on a stripe boundary. */
static void test_oreblk_sb_dirty(void)
{
	struct oreblk_sb sb;
	struct ore_layout l;
	const char *why;
	uint64_t U = 4 * 65536, size;
	const uint64_t good[] = { 0, U, 7 * U, 0 };
	const uint64_t bad[] = { 4096, U + 65536, 0 };
	size_t i;
	int err;

	make_ob(&sb, 1);
	size = le64toh(sb.array_size);
	sb.array_state = htole32(OREBLK_SB_ST_DIRTY);
	for (i = 0; i < ARRAY_SIZE(good); i++) {
		sb.resync_offset = htole64(i == ARRAY_SIZE(good) - 1 ? size :
					   good[i]);
		sb.csum = htole32(oreblk_sb_csum(&sb));
		err = oreblk_sb_check(&sb, OB_DEV, &l, &why);
		EXPECT(!err, "dirty, resync_offset %llu: %d %s",
		       (unsigned long long)le64toh(sb.resync_offset), err,
		       why ? why : "");
	}
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		sb.resync_offset = htole64(bad[i] ? bad[i] : size + U);
		sb.csum = htole32(oreblk_sb_csum(&sb));
		err = oreblk_sb_check(&sb, OB_DEV, &l, &why);
		EXPECT(err == -EINVAL && why &&
		       !strcmp(why, "resync_offset is beyond array_size or not stripe aligned"),
		       "dirty, resync_offset %llu: %d %s",
		       (unsigned long long)le64toh(sb.resync_offset), err,
		       why ? why : "");
	}
}

/* The write-intent policy: its bitmap fields, checked and compared. */
static void make_ob_intent(struct oreblk_sb *sb, uint32_t idx)
{
	make_ob(sb, idx);
	sb->consistency = htole32(OREBLK_CONSISTENCY_INTENT);
	sb->intent_bytes = htole32(OREBLK_INTENT_BYTES);
	sb->intent_offset = htole64(OREBLK_INTENT_OFFSET);
	sb->intent_region = htole64(oreblk_intent_region(le64toh(sb->array_size),
							  4 * 65536));
	sb->csum = htole32(oreblk_sb_csum(sb));
}

static const struct ob_case ob_intent_cases[] = {
	{ OB(consistency), 2, 0, -EINVAL, OB_DEV, "unknown consistency policy" },
	{ OB(intent_bytes), 8192, 0, -EINVAL, OB_DEV, "intent_bytes is not 4096" },
	{ OB(intent_offset), 4096, 0, -EINVAL, OB_DEV,
	  "the write-intent bitmap is not between the superblock and the data" },
	{ OB(intent_offset), OREBLK_INTENT_OFFSET + 512, 0, -EINVAL, OB_DEV,
	  "the write-intent bitmap is not between the superblock and the data" },
	{ OB(intent_offset), OREBLK_DATA_OFFSET - 2048, 0, -EINVAL, OB_DEV,
	  "the write-intent bitmap is not between the superblock and the data" },
	{ OB(intent_region), 0, 0, -EINVAL, OB_DEV,
	  "intent_region is not a non-zero multiple of the stripe length" },
	{ OB(intent_region), 65536, 0, -EINVAL, OB_DEV,
	  "intent_region is not a non-zero multiple of the stripe length" },
	{ OB(intent_region), 4 * 65536, 1, -EUCLEAN, OB_DEV,
	  "superblock checksum mismatch" },
	/* would wrap past 2^64 if added to intent_bytes */
	{ OB(intent_offset), 0xfffffffffffff000ULL, 0, -EINVAL, OB_DEV,
	  "the write-intent bitmap is not between the superblock and the data" },
};

static void test_oreblk_sb_intent(void)
{
	uint64_t U = 4 * 65536, size, r;
	struct oreblk_sb sb, b;
	struct ore_layout l;
	const char *why;
	size_t i;
	int err;

	make_ob_intent(&sb, 1);
	size = le64toh(sb.array_size);
	err = oreblk_sb_check(&sb, OB_DEV, &l, &why);
	EXPECT(!err, "intent policy: %d %s", err, why ? why : "");
	r = le64toh(sb.intent_region);
	EXPECT(r % U == 0 && r >= OREBLK_INTENT_MIN_REGION &&
	       r - U < OREBLK_INTENT_MIN_REGION,
	       "default region %llu: the smallest stripe multiple >= 4 MiB",
	       (unsigned long long)r);
	EXPECT(oreblk_intent_bits(&sb) == (size + r - 1) / r,
	       "bits of the bitmap: %u", oreblk_intent_bits(&sb));
	/* one region per stripe: the smallest region a member this size allows */
	sb.intent_region = htole64(U);
	sb.csum = htole32(oreblk_sb_csum(&sb));
	EXPECT(!oreblk_sb_check(&sb, OB_DEV, &l, &why) &&
	       oreblk_intent_bits(&sb) == size / U, "one stripe per bit: %s", why);
	/* a huge array: the region grows so that the bits fit one page */
	for (i = 0; i < 4; i++) {
		uint64_t big = (1ULL << (40 + i)) + 3 * U;

		r = oreblk_intent_region(big, U);
		EXPECT(r % U == 0 && (big + r - 1) / r <= OREBLK_INTENT_MAX_BITS &&
		       (big + r - U - 1) / (r - U) > OREBLK_INTENT_MAX_BITS,
		       "array of %llu bytes: region %llu", (unsigned long long)big,
		       (unsigned long long)r);
	}
	check_ob_cases(ob_intent_cases, ARRAY_SIZE(ob_intent_cases),
		       make_ob_intent, "intent");
	/* a region that leaves more than 32768 bits */
	make_ob_intent(&sb, 2);
	sb.data_size = htole64(65536ULL * (OREBLK_INTENT_MAX_BITS + 1));
	sb.array_size = htole64(le64toh(sb.data_size) / 65536 * U);
	sb.intent_region = htole64(U);
	sb.csum = htole32(oreblk_sb_csum(&sb));
	err = oreblk_sb_check(&sb, 8ULL << 30, &l, &why);
	EXPECT(err == -EINVAL && why &&
	       !strcmp(why, "intent_region leaves more bits than the bitmap holds"),
	       "%u bits: %d %s", oreblk_intent_bits(&sb), err,
	       why ? why : "(accepted)");
	sb.intent_region = htole64(2 * U);
	sb.csum = htole32(oreblk_sb_csum(&sb));
	err = oreblk_sb_check(&sb, 8ULL << 30, &l, &why);
	EXPECT(!err, "%u bits with two stripes per bit: %d %s",
	       oreblk_intent_bits(&sb), err, why ? why : "");
	/* the resync policy carries no bitmap fields */
	make_ob(&sb, 2);
	sb.intent_region = htole64(U);
	sb.csum = htole32(oreblk_sb_csum(&sb));
	err = oreblk_sb_check(&sb, OB_DEV, &l, &why);
	EXPECT(err == -EINVAL && why &&
	       !strcmp(why, "write-intent bitmap fields without the intent policy"),
	       "resync policy with a region: %d %s", err, why ? why : "");
	EXPECT(!oreblk_intent_bits(&sb), "no bits without the policy");
	/* a region near 2^64: one bit, no wrap to zero bits */
	make_ob_intent(&sb, 2);
	sb.intent_region = htole64(0xffffffffffffffffULL / U * U);
	sb.csum = htole32(oreblk_sb_csum(&sb));
	err = oreblk_sb_check(&sb, OB_DEV, &l, &why);
	EXPECT(!err && oreblk_intent_bits(&sb) == 1,
	       "a huge region: %d %s, %u bits", err, why ? why : "",
	       oreblk_intent_bits(&sb));
	/* members must agree on the policy and the bitmap */
	make_ob_intent(&sb, 0);
	make_ob(&b, 1);
	EXPECT(!oreblk_sb_agree(&sb, &b) && !oreblk_sb_agree(&b, &sb),
	       "intent and resync members agree");
	make_ob_intent(&b, 1);
	EXPECT(oreblk_sb_agree(&sb, &b), "two intent members disagree");
	b.intent_region = htole64(le64toh(b.intent_region) + U);
	EXPECT(!oreblk_sb_agree(&sb, &b), "different regions agree");
	/* RAID0: nothing to keep in step */
	{
		struct ore_layout r0 = ob_layout;

		r0.raid_algorithm = ORE_RAID0;
		make_ob_intent(&sb, 0);
		oreblk_sb_set_layout(&sb, &r0);
		/* 2 groups of 3 data columns */
		sb.array_size = htole64((32ULL << 20) / 65536 * (6 * 65536));
		sb.intent_region = htole64(6 * 65536);
		sb.csum = htole32(oreblk_sb_csum(&sb));
		err = oreblk_sb_check(&sb, OB_DEV, &l, &why);
		EXPECT(err == -EINVAL && why &&
		       !strcmp(why, "write-intent bitmap on a layout without redundancy"),
		       "raid0 with a bitmap: %d %s", err, why ? why : "");
	}
}

/* Data checksums: the intent policy and a region after the data. */
static void make_ob_csum(struct oreblk_sb *sb, uint32_t idx)
{
	make_ob_intent(sb, idx);
	sb->csum_type = htole32(OREBLK_CSUM_CRC32C);
	sb->csum_offset = htole64(OREBLK_DATA_OFFSET + (32ULL << 20));
	sb->csum = htole32(oreblk_sb_csum(sb));
}

#define OB_CSUM_END	(OREBLK_DATA_OFFSET + (32ULL << 20))
static const struct ob_case ob_csum_cases[] = {
	{ OB(csum_type), 3, 0, -EINVAL, OB_DEV, "unknown checksum type" },
	{ OB(pad2), 1, 0, -EINVAL, OB_DEV, "pad2 is not zero" },
	{ OB(consistency), OREBLK_CONSISTENCY_RESYNC, 0, -EINVAL, OB_DEV,
	  "write-intent bitmap fields without the intent policy" },
	{ OB(csum_offset), OB_CSUM_END - 4096, 0, -EINVAL, OB_DEV,
	  "the checksum region is not 4096-aligned after the data" },
	{ OB(csum_offset), OB_CSUM_END + 512, 0, -EINVAL, OB_DEV,
	  "the checksum region is not 4096-aligned after the data" },
	{ OB(csum_offset), OB_DEV - 4096, 0, -EINVAL, OB_DEV,
	  "the checksum region does not fit the device" },
	{ OB(csum_offset), OB_CSUM_END, 0, -EINVAL, OB_CSUM_END + 4096,
	  "the checksum region does not fit the device" },
	/* would wrap past 2^64 if added to the region's bytes */
	{ OB(csum_offset), 0xfffffffffffff000ULL, 0, -EINVAL, OB_DEV,
	  "the checksum region does not fit the device" },
	{ OB(csum_type), OREBLK_CSUM_NONE, 0, -EINVAL, OB_DEV,
	  "csum_offset without checksums" },
};

static void test_oreblk_sb_csum(void)
{
	struct oreblk_sb sb, b;
	struct ore_layout l;
	const char *why;
	int err;

	EXPECT(ore_csum_bytes(0) == 0 && ore_csum_bytes(1) == 4096 &&
	       ore_csum_bytes(4096 * 1024) == 4096 &&
	       ore_csum_bytes(4096 * 1024 + 1) == 8192 &&
	       ore_csum_bytes(32ULL << 20) == 32768,
	       "ore_csum_bytes: one 4 KiB page per 4 MiB of data");
	EXPECT(ore_csum_value(0) == 1 && ore_csum_value(7) == 7,
	       "a stored entry is never 0");
	/* xxHash's check values (the tools' copy of the kernel's xxh64) */
	EXPECT(ore_xxh64("", 0, 0) == 0xEF46DB3751D8E999ULL,
	       "xxh64 of nothing: %016llx",
	       (unsigned long long)ore_xxh64("", 0, 0));
	make_ob_csum(&sb, 1);
	sb.csum_type = htole32(OREBLK_CSUM_XXH64);
	sb.csum = htole32(oreblk_sb_csum(&sb));
	err = oreblk_sb_check(&sb, OB_DEV, &l, &why);
	EXPECT(!err, "xxh64 checksums: %d %s", err, why ? why : "");
	make_ob_csum(&sb, 1);
	err = oreblk_sb_check(&sb, OB_DEV, &l, &why);
	EXPECT(!err, "checksums after the data: %d %s", err, why ? why : "");
	/* the region ends exactly at the end of the device */
	err = oreblk_sb_check(&sb, OB_CSUM_END + ore_csum_bytes(32ULL << 20),
			      &l, &why);
	EXPECT(!err, "region up to the end of the device: %d %s", err,
	       why ? why : "");
	check_ob_cases(ob_csum_cases, ARRAY_SIZE(ob_csum_cases), make_ob_csum,
		       "checksum");
	/* checksums without the bitmap: the resync policy */
	make_ob(&sb, 2);
	sb.csum_type = htole32(OREBLK_CSUM_CRC32C);
	sb.csum_offset = htole64(OB_CSUM_END);
	sb.csum = htole32(oreblk_sb_csum(&sb));
	err = oreblk_sb_check(&sb, OB_DEV, &l, &why);
	EXPECT(err == -EINVAL && why &&
	       !strcmp(why, "data checksums without the write-intent bitmap"),
	       "checksums with the resync policy: %d %s", err, why ? why : "");
	/* members agree on the checksums */
	make_ob_csum(&sb, 0);
	make_ob_intent(&b, 1);
	EXPECT(!oreblk_sb_agree(&sb, &b), "checksummed and plain members agree");
	make_ob_csum(&b, 1);
	EXPECT(oreblk_sb_agree(&sb, &b), "two checksummed members disagree");
	b.csum_offset = htole64(OB_CSUM_END + 4096);
	EXPECT(!oreblk_sb_agree(&sb, &b), "different checksum regions agree");
}

/*
 * Same events and one marks the other faulty while the other does not
 * know it: split; else not.
 */
static void test_oreblk_sb_split(void)
{
	struct oreblk_sb a, b;

	make_ob(&a, 0);		/* marks member OB_N - 1 faulty */
	make_ob(&b, OB_N - 1);
	EXPECT(!oreblk_sb_split(&a, &b),
	       "b marks itself faulty too (a member being rebuilt): not split");
	b.faulty_map = 0;	/* b's half ran without a */
	EXPECT(oreblk_sb_split(&a, &b), "a marks b faulty at equal events");
	EXPECT(!oreblk_sb_split(&b, &a), "b does not mark member 0 faulty");
	b.events = htole64(le64toh(a.events) - 1);
	EXPECT(!oreblk_sb_split(&a, &b), "b is stale, not split");
	make_ob(&b, 1);
	EXPECT(!oreblk_sb_split(&a, &b), "a does not mark member 1 faulty");
}

/*
 * The replacement stub of mkfs.exofs --replace: accepted by its check and
 * refused by exofs_sb_check(); a flag set rebuilding with a checkpoint is a
 * valid superblock; a stub with a stray field (s_num_stores, s_csum_type),
 * a bad checksum or another state is refused.
 */
static void test_exofs_sb_replacement(void)
{
	uint8_t sb[EXOFS_SB_SIZE];
	struct exofs_fsb *fsb = exofs_fsb(sb);
	struct exofs_dev_entry *dt = exofs_devtable(sb);
	struct ore_layout l;
	const char *why;

	make_sb(sb, 1);
	dt[2].flags = htole32(EXOFS_DEV_FL_FAILED | EXOFS_DEV_FL_REBUILDING);
	dt[2].rebuild_ino = htole64(77);
	fsb->s_csum = htole32(exofs_sb_csum(sb));
	EXPECT(!exofs_sb_check(sb, &l, &why), "rebuilding entry refused: %s",
	       why);

	memset(sb, 0, sizeof(sb));
	fsb->s_magic = htole64(EXOFS_SB_MAGIC);
	fsb->s_version = htole32(EXOFS_FORMAT_VERSION);
	fsb->s_sb_size = htole32(EXOFS_SB_SIZE);
	memset(fsb->s_uuid, 0x11, EXOFS_UUID_SIZE);
	memset(fsb->s_store_uuid, 0x22, EXOFS_UUID_SIZE);
	fsb->s_store_index = htole32(3);
	fsb->s_state = htole32(EXOFS_STATE_REPLACEMENT);
	fsb->s_csum = htole32(exofs_sb_csum(sb));
	EXPECT(!exofs_sb_replacement_check(sb, &why), "stub refused: %s", why);
	EXPECT(exofs_sb_check(sb, &l, &why), "a stub passes as a superblock");
	fsb->s_num_stores = htole32(4);
	fsb->s_csum = htole32(exofs_sb_csum(sb));
	EXPECT(exofs_sb_replacement_check(sb, &why) &&
	       !strcmp(why, "replacement stub with fields that must be zero"),
	       "stub with s_num_stores: %s", why ? why : "(accepted)");
	fsb->s_num_stores = 0;
	fsb->s_csum_type = htole32(ORE_CSUM_XXH64);
	fsb->s_csum = htole32(exofs_sb_csum(sb));
	EXPECT(exofs_sb_replacement_check(sb, &why) &&
	       !strcmp(why, "replacement stub with fields that must be zero"),
	       "stub with s_csum_type: %s", why ? why : "(accepted)");
	fsb->s_csum_type = 0;
	fsb->s_csum = htole32(exofs_sb_csum(sb) ^ 1);
	EXPECT(exofs_sb_replacement_check(sb, &why) &&
	       !strcmp(why, "superblock checksum mismatch"),
	       "stub with a bad checksum: %s", why ? why : "(accepted)");
	fsb->s_state = htole32(EXOFS_STATE_CLEAN);
	fsb->s_csum = htole32(exofs_sb_csum(sb));
	EXPECT(exofs_sb_replacement_check(sb, &why) &&
	       !strcmp(why, "not a replacement store"),
	       "clean state: %s", why ? why : "(accepted)");
}

/*
 * Data checksums: with CSUM (and INTENT) s_csum_type must be XXH64 (2) or
 * CRC-32C (1); without CSUM it must be 0; CSUM needs INTENT whatever the
 * type; SIZED (ro_compat 0x8) changes none of that. s_csum_type is a
 * shared field (exofs_sb_same()), not in a stub.
 */
static void make_sb_csum(uint8_t *sb, uint32_t idx, uint32_t ro_compat,
			 uint32_t type)
{
	make_sb(sb, idx);
	exofs_fsb(sb)->s_feature_ro_compat = htole32(ro_compat);
	exofs_fsb(sb)->s_csum_type = htole32(type);
	exofs_fsb(sb)->s_csum = htole32(exofs_sb_csum(sb));
}

static void test_exofs_sb_csum_type(void)
{
	static const struct {
		uint32_t ro_compat, type;
		const char *why;	/* NULL: valid */
	} c[] = {
#define RC_I	(EXOFS_FEATURE_RO_COMPAT_COMPONENTS | EXOFS_FEATURE_RO_COMPAT_INTENT)
#define RC_IC	(RC_I | EXOFS_FEATURE_RO_COMPAT_CSUM)
#define RC_S	EXOFS_FEATURE_RO_COMPAT_SIZED
		{ RC_IC, ORE_CSUM_XXH64, NULL },
		{ RC_IC, ORE_CSUM_CRC32C, NULL },
		{ RC_I, 0, NULL },
		{ 0, 0, NULL },
		{ EXOFS_FEATURE_RO_COMPAT_INTENT | EXOFS_FEATURE_RO_COMPAT_CSUM,
		  ORE_CSUM_XXH64, NULL },
		{ RC_IC, 0, "unknown s_csum_type" },
		{ RC_IC, 3, "unknown s_csum_type" },
		{ RC_IC, 0xffffffff, "unknown s_csum_type" },
		{ RC_I, ORE_CSUM_XXH64, "s_csum_type set without the CSUM feature" },
		{ RC_I, ORE_CSUM_CRC32C, "s_csum_type set without the CSUM feature" },
		{ 0, 3, "s_csum_type set without the CSUM feature" },
		{ EXOFS_FEATURE_RO_COMPAT_COMPONENTS | EXOFS_FEATURE_RO_COMPAT_CSUM,
		  ORE_CSUM_XXH64,
		  "data checksums (CSUM) without the intent record (INTENT)" },
		{ EXOFS_FEATURE_RO_COMPAT_CSUM, ORE_CSUM_CRC32C,
		  "data checksums (CSUM) without the intent record (INTENT)" },
		{ EXOFS_FEATURE_RO_COMPAT_CSUM, 0,
		  "data checksums (CSUM) without the intent record (INTENT)" },
		/* SIZED (mkfs.exofs's default) goes with any of them */
		{ RC_IC | RC_S, ORE_CSUM_XXH64, NULL },
		{ RC_I | RC_S, 0, NULL },
		{ EXOFS_FEATURE_RO_COMPAT_COMPONENTS | RC_S, 0, NULL },
		{ RC_S, 0, NULL },
		{ RC_I | RC_S, ORE_CSUM_XXH64,
		  "s_csum_type set without the CSUM feature" },
		{ EXOFS_FEATURE_RO_COMPAT_CSUM | RC_S, ORE_CSUM_XXH64,
		  "data checksums (CSUM) without the intent record (INTENT)" },
#undef RC_I
#undef RC_IC
#undef RC_S
	};
	uint8_t sb[EXOFS_SB_SIZE], b[EXOFS_SB_SIZE];
	struct ore_layout l;
	const char *why;
	size_t i;
	int err;

	EXPECT(ORE_CSUM_CRC32C == 1 && ORE_CSUM_XXH64 == 2,
	       "the on-disk type values: crc32c %u, xxh64 %u", ORE_CSUM_CRC32C,
	       ORE_CSUM_XXH64);
	for (i = 0; i < ARRAY_SIZE(c); i++) {
		make_sb_csum(sb, 2, c[i].ro_compat, c[i].type);
		why = NULL;
		err = exofs_sb_check(sb, &l, &why);
		if (!c[i].why)
			EXPECT(!err, "ro_compat 0x%x s_csum_type %u refused: %s",
			       c[i].ro_compat, c[i].type, why ? why : "");
		else
			EXPECT(err == -EINVAL && why && !strcmp(why, c[i].why),
			       "ro_compat 0x%x s_csum_type %u: returned %d, \"%s\", expected \"%s\"",
			       c[i].ro_compat, c[i].type, err,
			       why ? why : "(none)", c[i].why);
	}
	/* without s_csum fixed up, the checksum says so first */
	make_sb_csum(sb, 2, EXOFS_FEATURE_RO_COMPAT_INTENT |
		     EXOFS_FEATURE_RO_COMPAT_CSUM, ORE_CSUM_XXH64);
	exofs_fsb(sb)->s_csum_type = htole32(ORE_CSUM_CRC32C);
	EXPECT(exofs_sb_check(sb, &l, &why) == -EINVAL && why &&
	       !strcmp(why, "superblock checksum mismatch"),
	       "s_csum_type changed, s_csum not: %s", why ? why : "(accepted)");
	/* a shared field: stores that differ in it are not the same */
	make_sb_csum(sb, 0, EXOFS_FEATURE_RO_COMPAT_INTENT |
		     EXOFS_FEATURE_RO_COMPAT_CSUM, ORE_CSUM_XXH64);
	make_sb_csum(b, 1, EXOFS_FEATURE_RO_COMPAT_INTENT |
		     EXOFS_FEATURE_RO_COMPAT_CSUM, ORE_CSUM_XXH64);
	EXPECT(exofs_sb_same(sb, b), "two stores with xxh64 differ");
	make_sb_csum(b, 1, EXOFS_FEATURE_RO_COMPAT_INTENT |
		     EXOFS_FEATURE_RO_COMPAT_CSUM, ORE_CSUM_CRC32C);
	EXPECT(!exofs_sb_same(sb, b), "xxh64 and crc32c stores are the same");
	printf("# %zu checksum feature/type combinations\n", ARRAY_SIZE(c));
}

/* The intent record slot: region size, checksum and every refusal. */
static void test_exofs_intent(void)
{
	static uint8_t slot[EXOFS_INTENT_SLOT];
	struct exofs_intent_hdr *h = (void *)slot;
	struct exofs_intent_ent *e = (void *)(h + 1);
	uint8_t uuid[EXOFS_UUID_SIZE], other[EXOFS_UUID_SIZE];
	uint64_t region = exofs_intent_region(192 << 10);
	const char *why = NULL;

	EXPECT(exofs_intent_region(64 << 10) == 4 << 20,
	       "region of a 64K stripe: %llu",
	       (unsigned long long)exofs_intent_region(64 << 10));
	EXPECT(region == 22 * (192 << 10) && region >= 4 << 20,
	       "region of a 192K stripe: %llu", (unsigned long long)region);
	EXPECT(exofs_intent_region(8 << 20) == 8 << 20,
	       "region of an 8M stripe: %llu",
	       (unsigned long long)exofs_intent_region(8 << 20));
	EXPECT(EXOFS_INTENT_MAX == 4092, "EXOFS_INTENT_MAX %zu",
	       (size_t)EXOFS_INTENT_MAX);

	memset(uuid, 0x5a, sizeof(uuid));
	memset(other, 0xa5, sizeof(other));
	memset(slot, 0, sizeof(slot));
	EXPECT(exofs_intent_check(h, sizeof(slot), uuid, region, &why) == 1,
	       "a zero slot is not 'never written'");

#define MAKE(n) do {							\
	memset(slot, 0, sizeof(slot));					\
	h->ih_magic = htole64(EXOFS_INTENT_MAGIC);			\
	h->ih_seq = htole64(7);						\
	memcpy(h->ih_uuid, uuid, sizeof(uuid));				\
	h->ih_region = htole64(region);					\
	h->ih_count = htole32(n);					\
	for (uint32_t k = 1; k <= (uint32_t)(n); k++) {			\
		e[k - 1].ie_oid = htole64(0x20000 + k);			\
		e[k - 1].ie_region = htole64(k * 3);			\
	}								\
	h->ih_csum = htole32(exofs_intent_csum(h));			\
} while (0)
#define REFUSED(msg, reason) do {					\
	why = NULL;							\
	EXPECT(exofs_intent_check(h, sizeof(slot), uuid, region,	\
				  &why) < 0 && why &&			\
	       !strcmp(why, reason), "%s: %s", msg,			\
	       why ? why : "(accepted)");				\
} while (0)

	MAKE(3);
	EXPECT(!exofs_intent_check(h, sizeof(slot), uuid, region, &why),
	       "valid record refused: %s", why);
	MAKE(EXOFS_INTENT_MAX);
	EXPECT(!exofs_intent_check(h, sizeof(slot), uuid, region, &why),
	       "full record refused: %s", why);
	MAKE(0);
	EXPECT(!exofs_intent_check(h, sizeof(slot), uuid, region, &why),
	       "empty record refused: %s", why);

	MAKE(3);
	e[2].ie_region ^= htole64(1);
	REFUSED("an entry changed", "bad checksum");
	MAKE(3);
	h->ih_magic ^= htole64(1);
	REFUSED("magic", "bad magic");
	MAKE(3);
	memcpy(h->ih_uuid, other, sizeof(other));
	h->ih_csum = htole32(exofs_intent_csum(h));
	REFUSED("foreign", "another filesystem's record");
	MAKE(3);
	h->ih_count = htole32(EXOFS_INTENT_MAX + 1);
	REFUSED("count", "too many entries");
	MAKE(3);
	why = NULL;
	EXPECT(exofs_intent_check(h, sizeof(*h) + 2 * sizeof(*e), uuid,
				  region, &why) < 0 && why &&
	       !strcmp(why, "too many entries"),
	       "entries past the slot: %s", why ? why : "(accepted)");
	MAKE(3);
	h->ih_region = htole64(region * 2);
	h->ih_csum = htole32(exofs_intent_csum(h));
	REFUSED("region", "region size does not match the layout");
	MAKE(3);
	h->ih_reserved[1] = htole64(1);
	h->ih_csum = htole32(exofs_intent_csum(h));
	REFUSED("reserved", "reserved bytes not zero");
#undef MAKE
#undef REFUSED
}

static const struct {
	const char *name;
	void (*run)(void);
} cases[] = {
	{ "exofs_intent", test_exofs_intent },
	{ "crc32c_convention", test_crc32c },
	{ "exofs_sb_roundtrip", test_exofs_sb_roundtrip },
	{ "exofs_sb_malformed", test_exofs_sb_malformed },
	{ "exofs_sb_replacement", test_exofs_sb_replacement },
	{ "exofs_sb_csum_type", test_exofs_sb_csum_type },
	{ "exofs_inode_roundtrip", test_exofs_inode_roundtrip },
	{ "exofs_inode_malformed", test_exofs_inode_malformed },
	{ "oreblk_sb_roundtrip", test_oreblk_sb_roundtrip },
	{ "oreblk_sb_malformed", test_oreblk_sb_malformed },
	{ "oreblk_sb_agree", test_oreblk_sb_agree },
	{ "oreblk_sb_split", test_oreblk_sb_split },
	{ "oreblk_sb_recovering", test_oreblk_sb_recovering },
	{ "oreblk_sb_dirty", test_oreblk_sb_dirty },
	{ "oreblk_sb_intent", test_oreblk_sb_intent },
	{ "oreblk_sb_csum", test_oreblk_sb_csum },
};

int main(void)
{
	unsigned long failed = 0;
	size_t i;

	printf("KTAP version 1\n");
	printf("1..%zu\n", ARRAY_SIZE(cases));
	printf("# on-disk format test (exofs/format.c, oreblk/sb.c)\n");
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		case_fails = 0;
		cases[i].run();
		printf("%s %zu %s\n", case_fails ? "not ok" : "ok", i + 1,
		       cases[i].name);
		failed += !!case_fails;
	}
	printf("# format_test: %zu passed, %lu failed\n",
	       ARRAY_SIZE(cases) - failed, failed);
	return failed ? 1 : 0;
}
