/* SPDX-License-Identifier: GPL-2.0 */
/*
 * exofs_user - what mkfs.exofs and fsck.exofs share: CRC-32C, the
 * superblock and inode record checks of include/ore/exofs_fs.h, and access
 * to the striped objects of an exofs over file stores through ore_user.
 */
#ifndef _EXOFS_USER_H
#define _EXOFS_USER_H

#include <stddef.h>
#include <stdint.h>
#include <endian.h>
#include <ore/exofs_fs.h>
#include "ore_user.h"

/* CRC-32C as exofs_fs.h defines it (init ~0, final xor ~0). */
uint32_t exofs_crc32c(const void *buf, size_t len);

/* s_csum of a EXOFS_SB_SIZE superblock image (s_csum taken as zero). */
uint32_t exofs_sb_csum(const uint8_t *sb);
/* i_csum of an inode record (i_csum taken as zero). */
uint32_t exofs_inode_csum(const struct exofs_inode *inode);

/*
 * exofs_sb_check - the mount-time checks of docs/exofs-format.md on one
 * superblock image: magic, version, size, checksum, features, layout
 * (filled into @layout, verified), store count and index, device table.
 * Returns 0, or -EINVAL with *@why saying what is wrong.
 */
int exofs_sb_check(const uint8_t *sb, struct ore_layout *layout,
		   const char **why);

/*
 * exofs_inode_check - the record checks of docs/exofs-format.md for inode
 * @ino. Returns 0 for a valid record, 1 for a free (all zero) record, or
 * -EINVAL with *@why.
 */
int exofs_inode_check(const struct exofs_inode *inode, uint64_t ino,
		      const char **why);

/* Largest file (s_maxbytes, docs/exofs-format.md). */
#define EXOFS_MAXBYTES		(1ULL << 43)

/**
 * struct exofs_stores - an exofs over file stores, as tools see it
 * @n: number of stores
 * @dirs: their directories, device-table order; NULL for a missing store
 * @layout: the layout of striped objects (verified)
 */
struct exofs_stores {
	uint32_t n;
	const char **dirs;
	struct ore_layout layout;
};

/**
 * struct exofs_obj - one open striped object
 * @oid: its object id
 * @comps: its components (layout.num_comps)
 * @obj: the ore_user object over @comps
 */
struct exofs_obj {
	uint64_t oid;
	struct ore_user_comp *comps;
	struct ore_user_obj obj;
};

/*
 * exofs_obj_open - open striped object @oid over @st with open(2) @flags
 * (O_CREAT creates every component file). Returns 0 or a negative errno.
 */
int exofs_obj_open(const struct exofs_stores *st, uint64_t oid, int flags,
		   struct exofs_obj *o);
void exofs_obj_close(struct exofs_obj *o);

/*
 * exofs_obj_size_bound - a logical size no byte of @o lies beyond, from
 * the lengths of its component files (0 when all are empty or absent).
 */
uint64_t exofs_obj_size_bound(const struct exofs_obj *o);

/* exofs_ft_of_mode - EXOFS_FT_* of an i_mode, EXOFS_FT_UNKNOWN if none. */
unsigned int exofs_ft_of_mode(unsigned int mode);

/* exofs_uuid_str - "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx" into @buf[37]. */
void exofs_uuid_str(const uint8_t *uuid, char *buf);

#endif /* _EXOFS_USER_H */
