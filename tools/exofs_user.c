// SPDX-License-Identifier: GPL-2.0
/*
 * exofs_user - shared helpers of mkfs.exofs and fsck.exofs; see
 * exofs_user.h. The rules checked here are those of docs/exofs-format.md.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "exofs_user.h"

static uint32_t crc_table[256];

static void crc_init(void)
{
	uint32_t i, j, c;

	if (crc_table[1])
		return;
	for (i = 0; i < 256; i++) {
		c = i;
		for (j = 0; j < 8; j++)
			c = (c >> 1) ^ ((c & 1) ? 0x82F63B78u : 0);
		crc_table[i] = c;
	}
}

uint32_t exofs_crc32c(const void *buf, size_t len)
{
	const uint8_t *p = buf;
	uint32_t c = 0xFFFFFFFFu;

	crc_init();
	while (len--)
		c = crc_table[(c ^ *p++) & 0xff] ^ (c >> 8);
	return c ^ 0xFFFFFFFFu;
}

uint32_t exofs_sb_csum(const uint8_t *sb)
{
	uint8_t tmp[EXOFS_SB_SIZE];

	memcpy(tmp, sb, sizeof(tmp));
	((struct exofs_fsb *)tmp)->s_csum = 0;
	return exofs_crc32c(tmp, sizeof(tmp));
}

uint32_t exofs_inode_csum(const struct exofs_inode *inode)
{
	struct exofs_inode tmp = *inode;

	tmp.i_csum = 0;
	return exofs_crc32c(&tmp, sizeof(tmp));
}

static int all_zero(const void *p, size_t n)
{
	const uint8_t *b = p;

	while (n--)
		if (*b++)
			return 0;
	return 1;
}

int exofs_sb_check(const uint8_t *sb, struct ore_layout *layout,
		   const char **why)
{
	const struct exofs_fsb *fsb = (const void *)sb;
	const struct exofs_dev_entry *dt =
		(const void *)(sb + EXOFS_DEVTABLE_OFFSET);
	uint32_t n, idx, i, j;

	if (le64toh(fsb->s_magic) != EXOFS_SB_MAGIC) {
		*why = "bad magic";
		return -EINVAL;
	}
	if (le32toh(fsb->s_version) != EXOFS_FORMAT_VERSION) {
		*why = "unknown format version";
		return -EINVAL;
	}
	if (le32toh(fsb->s_sb_size) != EXOFS_SB_SIZE) {
		*why = "s_sb_size is not 4096";
		return -EINVAL;
	}
	if (le32toh(fsb->s_csum) != exofs_sb_csum(sb)) {
		*why = "superblock checksum mismatch";
		return -EINVAL;
	}
	if (le32toh(fsb->s_feature_incompat) & ~EXOFS_FEATURE_INCOMPAT_SUPP) {
		*why = "unknown incompatible features";
		return -EINVAL;
	}
	n = le32toh(fsb->s_num_stores);
	idx = le32toh(fsb->s_store_index);
	if (!n || n > EXOFS_MAX_STORES) {
		*why = "s_num_stores is not 1..96";
		return -EINVAL;
	}
	if (idx >= n) {
		*why = "s_store_index is beyond s_num_stores";
		return -EINVAL;
	}
	memset(layout, 0, sizeof(*layout));
	layout->stripe_unit = le32toh(fsb->s_layout.stripe_unit);
	layout->group_width = le32toh(fsb->s_layout.group_width);
	layout->group_depth = le32toh(fsb->s_layout.group_depth);
	layout->group_count = le32toh(fsb->s_layout.group_count);
	layout->mirrors_p1 = le32toh(fsb->s_layout.mirrors_p1);
	layout->raid_algorithm = le32toh(fsb->s_layout.raid_algorithm);
	if (ore_layout_check(layout, n, why))
		return -EINVAL;
	if (le32toh(fsb->s_inode_size) != EXOFS_INODE_SIZE) {
		*why = "s_inode_size is not 256";
		return -EINVAL;
	}
	if (le32toh(fsb->s_dir_chunk) != EXOFS_DIR_CHUNK) {
		*why = "s_dir_chunk is not 4096";
		return -EINVAL;
	}
	if (le64toh(fsb->s_root_ino) != EXOFS_ROOT_INO) {
		*why = "s_root_ino is not 1";
		return -EINVAL;
	}
	if (le64toh(fsb->s_max_ino) <= EXOFS_FIRST_INO ||
	    le64toh(fsb->s_max_ino) > EXOFS_MAX_INO_LIMIT) {
		*why = "s_max_ino out of range";
		return -EINVAL;
	}
	if (le32toh(fsb->s_state) != EXOFS_STATE_CLEAN &&
	    le32toh(fsb->s_state) != EXOFS_STATE_DIRTY) {
		*why = "unknown s_state";
		return -EINVAL;
	}
	for (i = 0; i < n; i++) {
		if (le32toh(dt[i].index) != i) {
			*why = "device table entry index differs from its position";
			return -EINVAL;
		}
		if (le32toh(dt[i].flags) & ~EXOFS_DEV_FL_KNOWN) {
			*why = "device table entry has unknown flags";
			return -EINVAL;
		}
		if (all_zero(dt[i].uuid, EXOFS_UUID_SIZE)) {
			*why = "device table entry has a zero UUID";
			return -EINVAL;
		}
		for (j = 0; j < i; j++)
			if (!memcmp(dt[i].uuid, dt[j].uuid, EXOFS_UUID_SIZE)) {
				*why = "device table has a UUID twice";
				return -EINVAL;
			}
	}
	if (memcmp(dt[idx].uuid, fsb->s_store_uuid, EXOFS_UUID_SIZE)) {
		*why = "s_store_uuid differs from its device table entry";
		return -EINVAL;
	}
	*why = NULL;
	return 0;
}

unsigned int exofs_ft_of_mode(unsigned int mode)
{
	switch (mode & S_IFMT) {
	case S_IFREG: return EXOFS_FT_REG_FILE;
	case S_IFDIR: return EXOFS_FT_DIR;
	case S_IFCHR: return EXOFS_FT_CHRDEV;
	case S_IFBLK: return EXOFS_FT_BLKDEV;
	case S_IFIFO: return EXOFS_FT_FIFO;
	case S_IFSOCK: return EXOFS_FT_SOCK;
	case S_IFLNK: return EXOFS_FT_SYMLINK;
	default: return EXOFS_FT_UNKNOWN;
	}
}

int exofs_inode_check(const struct exofs_inode *inode, uint64_t ino,
		      const char **why)
{
	unsigned int mode = le16toh(inode->i_mode);
	uint32_t flags = le32toh(inode->i_flags);
	uint64_t size = le64toh(inode->i_size);

	if (all_zero(inode, sizeof(*inode)))
		return 1;
	if (le32toh(inode->i_csum) != exofs_inode_csum(inode)) {
		*why = "inode checksum mismatch";
		return -EINVAL;
	}
	if (le64toh(inode->i_ino) != ino) {
		*why = "i_ino differs from the record's position";
		return -EINVAL;
	}
	if (exofs_ft_of_mode(mode) == EXOFS_FT_UNKNOWN) {
		*why = "unknown file type in i_mode";
		return -EINVAL;
	}
	if (flags & ~EXOFS_INODE_FL_KNOWN) {
		*why = "unknown i_flags bits";
		return -EINVAL;
	}
	if (size > EXOFS_MAXBYTES) {
		*why = "i_size beyond s_maxbytes";
		return -EINVAL;
	}
	if (!le32toh(inode->i_links_count)) {
		*why = "i_links_count is zero";
		return -EINVAL;
	}
	if (le32toh(inode->i_atime_nsec) >= 1000000000u ||
	    le32toh(inode->i_mtime_nsec) >= 1000000000u ||
	    le32toh(inode->i_ctime_nsec) >= 1000000000u ||
	    le32toh(inode->i_crtime_nsec) >= 1000000000u) {
		*why = "nanoseconds not below 10^9";
		return -EINVAL;
	}
	switch (mode & S_IFMT) {
	case S_IFDIR:
		if (size % EXOFS_DIR_CHUNK || !size) {
			*why = "directory size is not a non-zero multiple of 4096";
			return -EINVAL;
		}
		/* fall through */
	case S_IFREG:
		if (flags != EXOFS_INODE_FL_OBJECT) {
			*why = "file or directory without EXOFS_INODE_FL_OBJECT";
			return -EINVAL;
		}
		break;
	case S_IFLNK:
		if (size < EXOFS_INLINE_SYMLINK_MAX + 1) {
			if (flags != EXOFS_INODE_FL_INLINE) {
				*why = "short symlink not inline";
				return -EINVAL;
			}
			if (strnlen((const char *)inode->i_data,
				    EXOFS_INLINE_SIZE) != size) {
				*why = "inline symlink length differs from i_size";
				return -EINVAL;
			}
		} else if (flags != EXOFS_INODE_FL_OBJECT) {
			*why = "long symlink without EXOFS_INODE_FL_OBJECT";
			return -EINVAL;
		}
		break;
	default:
		if (flags) {
			*why = "special file with object or inline flags";
			return -EINVAL;
		}
	}
	return 0;
}

int exofs_obj_open(const struct exofs_stores *st, uint64_t oid, int flags,
		   struct exofs_obj *o)
{
	const struct ore_layout *l = &st->layout;
	const char *why;
	int err;

	memset(o, 0, sizeof(*o));
	o->oid = oid;
	o->comps = calloc(l->num_comps, sizeof(*o->comps));
	if (!o->comps)
		return -ENOMEM;
	err = ore_user_open_stores(o->comps, l->num_comps, st->dirs, st->n,
				   exofs_first_dev(oid, l->mirrors_p1, st->n),
				   oid, flags);
	if (err)
		goto fail;
	err = ore_user_init(&o->obj, l, st->n, o->comps, &why);
	if (err) {
		ore_user_close(o->comps, l->num_comps);
		goto fail;
	}
	return 0;
fail:
	free(o->comps);
	o->comps = NULL;
	return err;
}

void exofs_obj_close(struct exofs_obj *o)
{
	if (!o->comps)
		return;
	ore_user_close(o->comps, o->obj.layout.num_comps);
	free(o->comps);
	o->comps = NULL;
}

uint64_t exofs_obj_size_bound(const struct exofs_obj *o)
{
	const struct ore_layout *l = &o->obj.layout;
	uint64_t bound = 0;
	uint32_t c;

	for (c = 0; c < l->num_comps; c++) {
		struct stat s;
		uint64_t len, row, M, N, end;
		uint32_t group;

		if (o->comps[c].fd < 0 || fstat(o->comps[c].fd, &s))
			continue;
		len = (uint64_t)s.st_size;
		if (len <= o->comps[c].base)
			continue;
		len -= o->comps[c].base;
		row = (len - 1) / l->stripe_unit;
		M = row / l->group_depth;
		N = row % l->group_depth;
		group = c / l->mirrors_p1 / l->group_width;
		end = M * l->super_stripe + group * l->group_length +
		      (N + 1) * l->stripe_length;
		if (end > bound)
			bound = end;
	}
	return bound;
}

void exofs_uuid_str(const uint8_t *u, char *buf)
{
	snprintf(buf, 37,
		 "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
		 u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9],
		 u[10], u[11], u[12], u[13], u[14], u[15]);
}
