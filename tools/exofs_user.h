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

/* exofs_uuid_str - "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx" into @buf[37]. */
void exofs_uuid_str(const uint8_t *uuid, char *buf);

#endif /* _EXOFS_USER_H */
