/* SPDX-License-Identifier: GPL-2.0 */
/*
 * exofs_user - what mkfs.exofs and fsck.exofs share beyond the format
 * rules of include/exofs/format.h (exofs/format.c, the kernel's own):
 * access to the striped objects of an exofs over file stores through
 * ore_user.
 */
#ifndef _EXOFS_USER_H
#define _EXOFS_USER_H

#include <stddef.h>
#include <stdint.h>
#include <endian.h>
#include <exofs/format.h>
#include "ore_user.h"

/**
 * struct exofs_stores - an exofs over file stores, as tools see it
 * @n: number of stores
 * @dirs: their directories, device-table order; NULL for a missing store
 * @layout: the layout of striped objects (verified)
 * @csum_type: 0, or the filesystem has data checksums
 *	(EXOFS_FEATURE_RO_COMPAT_CSUM) and this is their type, s_csum_type
 *	(ORE_CSUM_XXH64 or ORE_CSUM_CRC32C): the objects keep the entries
 *	of their components, of this type, up to date: in the head (the
 *	attribute ORE_FILE_CSUM_XATTR of the component file) and the side
 *	file (ore_user.h)
 * @csum_side: with @csum_type, EXOFS_FEATURE_RO_COMPAT_CSUM_SIDE: no
 *	component has a head, the side file holds every entry
 */
struct exofs_stores {
	uint32_t n;
	const char **dirs;
	struct ore_layout layout;
	uint32_t csum_type;
	int csum_side;
};

/**
 * struct exofs_obj - one open striped object
 * @oid: its object id
 * @st: the stores it is on
 * @comps: its components (layout.num_comps)
 * @csum_fds: with &exofs_stores.csum_type, the open side file of each
 *	component ("<oid>.csum", ore_user_csum_path()), -1 where there is
 *	none (yet: most objects of up to 64 KiB never get one, their
 *	entries all in the head); else NULL
 * @obj: the ore_user object over @comps
 */
struct exofs_obj {
	uint64_t oid;
	const struct exofs_stores *st;
	struct ore_user_comp *comps;
	int *csum_fds;
	struct ore_user_obj obj;
};

/*
 * exofs_obj_open - open striped object @oid over @st with open(2) @flags
 * (O_CREAT creates every component file). With @st->csum_type the side
 * files that exist are opened too (O_TRUNC truncates them and removes the
 * heads), and every write through @o->obj stores the entries (of that
 * type) of the blocks it touches (ore_user_csum_stamp(): the head's in
 * the attribute, the others in the side file, made when it has one other
 * than 0 to store).
 * @st must outlive @o.
 * Returns 0 or a negative errno.
 */
int exofs_obj_open(const struct exofs_stores *st, uint64_t oid, int flags,
		   struct exofs_obj *o);
void exofs_obj_close(struct exofs_obj *o);

/* exofs_obj_comp_dir - the store directory of component @comp, or NULL. */
const char *exofs_obj_comp_dir(const struct exofs_obj *o, uint32_t comp);

/*
 * exofs_obj_sync - fsync(2) the open components and side files of @o;
 * 0 or the first negative errno.
 */
int exofs_obj_sync(struct exofs_obj *o);

/*
 * exofs_obj_size_bound - a logical size no byte of @o lies beyond, from
 * the lengths of its component files (0 when all are empty or absent).
 */
uint64_t exofs_obj_size_bound(const struct exofs_obj *o);

/*
 * exofs_sb_csum_type - the data checksum type of superblock @sb (checked
 * by exofs_sb_check()): s_csum_type with EXOFS_FEATURE_RO_COMPAT_CSUM,
 * else 0; what &exofs_stores.csum_type takes.
 */
uint32_t exofs_sb_csum_type(const void *sb);

/*
 * exofs_sb_csum_side - does superblock @sb have
 * EXOFS_FEATURE_RO_COMPAT_CSUM_SIDE (what &exofs_stores.csum_side takes)?
 */
int exofs_sb_csum_side(const void *sb);

/* exofs_uuid_str - "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx" into @buf[37]. */
void exofs_uuid_str(const uint8_t *uuid, char *buf);

#endif /* _EXOFS_USER_H */
