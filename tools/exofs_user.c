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
#include <sys/xattr.h>
#include <unistd.h>

#include "exofs_user.h"

const char *exofs_obj_comp_dir(const struct exofs_obj *o, uint32_t comp)
{
	const struct exofs_stores *st = o->st;
	uint32_t first = exofs_first_dev(o->oid, st->layout.mirrors_p1, st->n);

	return st->dirs[(first + comp) % st->n];
}

/*
 * &ore_user_obj.written of an object with checksums: the entries (of the
 * filesystem's type) of what was written into component @comp go into its
 * head and its side file (ore_user_csum_stamp()).
 */
static int exofs_obj_written(struct ore_user_obj *obj, uint32_t comp,
			     uint64_t off, uint64_t len)
{
	struct exofs_obj *o = obj->private;
	const char *dir = exofs_obj_comp_dir(o, comp);
	char path[4096];

	if (!dir)
		return -ENODEV;
	if (ore_user_csum_path(path, sizeof(path), dir, o->oid) >=
	    (int)sizeof(path))
		return -ENAMETOOLONG;
	return ore_user_csum_stamp(&o->comps[comp], o->st->csum_type,
				   &o->csum_fds[comp], path, off, len);
}

/*
 * The side files of @o's components that exist, opened with the access
 * mode and O_TRUNC of @flags (never created here: a write makes one).
 * With O_TRUNC the heads of the components go too: their entries are
 * those of what the truncated files held.
 */
static int exofs_obj_open_csum(struct exofs_obj *o, int flags)
{
	uint32_t c, n = o->st->layout.num_comps;
	char path[4096];
	int fd;

	o->csum_fds = malloc(n * sizeof(*o->csum_fds));
	if (!o->csum_fds)
		return -ENOMEM;
	for (c = 0; c < n; c++)
		o->csum_fds[c] = -1;
	flags &= O_ACCMODE | O_TRUNC;
	for (c = 0; c < n; c++) {
		if (o->comps[c].fd < 0)
			continue;
		if ((flags & O_TRUNC) &&
		    fremovexattr(o->comps[c].fd, ORE_FILE_CSUM_XATTR) &&
		    errno != ENODATA && errno != EOPNOTSUPP)
			return -errno;
		if (ore_user_csum_path(path, sizeof(path),
				       exofs_obj_comp_dir(o, c), o->oid) >=
		    (int)sizeof(path))
			return -ENAMETOOLONG;
		fd = ore_user_csum_open(path, flags);
		/* none, or no regular file (a write then fails) */
		if (fd == -ENOENT || fd == -EINVAL)
			continue;
		if (fd < 0)
			return fd;
		o->csum_fds[c] = fd;
	}
	o->obj.written = exofs_obj_written;
	o->obj.private = o;
	return 0;
}

static void exofs_obj_close_csum(struct exofs_obj *o)
{
	uint32_t c;

	if (!o->csum_fds)
		return;
	for (c = 0; c < o->st->layout.num_comps; c++)
		if (o->csum_fds[c] >= 0)
			close(o->csum_fds[c]);
	free(o->csum_fds);
	o->csum_fds = NULL;
}

int exofs_obj_open(const struct exofs_stores *st, uint64_t oid, int flags,
		   struct exofs_obj *o)
{
	const struct ore_layout *l = &st->layout;
	const char *why;
	int err;

	memset(o, 0, sizeof(*o));
	if (st->csum_type && !ore_user_csum_known(st->csum_type))
		return -EINVAL;
	o->oid = oid;
	o->st = st;
	o->comps = calloc(l->num_comps, sizeof(*o->comps));
	if (!o->comps)
		return -ENOMEM;
	err = ore_user_open_stores(o->comps, l->num_comps, st->dirs, st->n,
				   exofs_first_dev(oid, l->mirrors_p1, st->n),
				   oid, flags);
	if (err)
		goto fail;
	err = ore_user_init(&o->obj, l, st->n, o->comps, &why);
	if (err)
		goto fail_close;
	if (st->csum_type) {
		uint32_t c;

		for (c = 0; c < l->num_comps; c++)
			o->comps[c].no_head = st->csum_side;
		err = exofs_obj_open_csum(o, flags);
		if (err)
			goto fail_csum;
	}
	return 0;
fail_csum:
	exofs_obj_close_csum(o);
fail_close:
	ore_user_close(o->comps, l->num_comps);
fail:
	free(o->comps);
	o->comps = NULL;
	return err;
}

void exofs_obj_close(struct exofs_obj *o)
{
	if (!o->comps)
		return;
	exofs_obj_close_csum(o);
	ore_user_close(o->comps, o->obj.layout.num_comps);
	free(o->comps);
	o->comps = NULL;
}

int exofs_obj_sync(struct exofs_obj *o)
{
	uint32_t c, n = o->obj.layout.num_comps;
	int err = ore_user_sync(o->comps, n);

	for (c = 0; o->csum_fds && c < n; c++)
		if (o->csum_fds[c] >= 0 && fsync(o->csum_fds[c]) && !err)
			err = -errno;
	return err;
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

int exofs_sb_csum_side(const void *sb)
{
	const struct exofs_fsb *fsb = sb;

	return !!(le32toh(fsb->s_feature_ro_compat) &
		  EXOFS_FEATURE_RO_COMPAT_CSUM_SIDE);
}

uint32_t exofs_sb_csum_type(const void *sb)
{
	const struct exofs_fsb *fsb = sb;

	if (!(le32toh(fsb->s_feature_ro_compat) &
	      EXOFS_FEATURE_RO_COMPAT_CSUM))
		return 0;
	return le32toh(fsb->s_csum_type);
}

void exofs_uuid_str(const uint8_t *u, char *buf)
{
	snprintf(buf, 37,
		 "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
		 u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9],
		 u[10], u[11], u[12], u[13], u[14], u[15]);
}
