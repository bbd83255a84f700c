// SPDX-License-Identifier: GPL-2.0
/*
 * exofs_user - shared helpers of mkfs.exofs and fsck.exofs; see
 * exofs_user.h. The format rules are exofs/format.c.
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
