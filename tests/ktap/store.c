// SPDX-License-Identifier: GPL-2.0
/*
 * Object store cases of ore_test.ko: the file store and the block store
 * driven through their ops tables, data checked against a shadow copy.
 */
#define pr_fmt(fmt) "ore_test: " fmt

#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <linux/string.h>
#include <linux/cred.h>
#include <linux/uidgid.h>
#include <linux/capability.h>
#include <linux/err.h>
#include <linux/blkdev.h>
#include <linux/file.h>
#include <linux/statfs.h>
#include <linux/crc32c.h>
#include <linux/xxhash.h>
#include <linux/xattr.h>
#include <ore/pure.h>

#include "ore_test.h"

/* Object ids used by the store cases (the engine cases use others). */
#define OT_OID_RW	0x1000
#define OT_OID_SPARSE	0x1001
#define OT_OID_TRUNC	0x1002
#define OT_OID_FUA	0x1003
#define OT_OID_NOTDIR	0x5eed
#define OT_OID_NOTREG	0x5ee0		/* .. + 3, made by engine.sh */
#define OT_OID_CONC	0x2000		/* .. + 7 */
#define OT_OID_MANY	0x3000		/* .. + OT_MANY - 1 */
#define OT_OID_FULL	0x4000
#define OT_OID_CSUM	0x4100		/* + ORE_CSUM_* */
#define OT_MANY		(ORE_FILE_STORE_OPEN_MAX + 64)

/* Bytes of the region the random round trips work in. */
#define OT_WINDOW	(2u << 20)

static long long ot_stores_live0;

static struct ore_store *ot_fstore(struct ot_ctx *ctx, unsigned int i)
{
	if (i < ctx->nr_fstores)
		return ctx->fstores[i];
	ot_skip(ctx, "not enough file stores (dirs=)");
	return NULL;
}

/* Remove @oid from @store, whether it is there or not. */
static void ot_forget(struct ot_ctx *ctx, struct ore_store *store, u64 oid)
{
	int err = store->ops->remove(store, oid);

	if (err && err != -ENOENT)
		OT_EXPECT_EQ(ctx, err, 0);
}

/*
 * How the random round trips cut their requests: offsets and lengths
 * multiples of @grain (1: anything), bvec pieces multiples of @bv_align
 * (0: random), the buffer @skew bytes into its first page (-1: random).
 */
struct ot_shape {
	u32 grain;
	u32 bv_align;
	int skew;
};

static const struct ot_shape ot_direct = { 4096, 512, 0 };
static const struct ot_shape ot_pages = { 4096, 4096, 0 };
static const struct ot_shape ot_sectors = { 512, 512, 0 };
static const struct ot_shape ot_bytes = { 1, 0, -1 };

/*
 * One random request of @shape inside [0, @size) of @oid, checked against
 * and applied to @shadow. Returns false after a failure.
 */
static bool ot_one_rw(struct ot_ctx *ctx, struct ore_store *store, u64 oid,
		      u8 *shadow, u32 size, const struct ot_shape *shape,
		      bool write, u32 max_len)
{
	u32 g = shape->grain, off, len, skew, i;
	bool ok = true;
	u8 *mem, *buf;
	int err;

	off = ot_rand(ctx, size / g) * g;
	len = (1 + ot_rand(ctx, min(max_len, size - off) / g)) * g;
	if (shape->skew < 0)
		skew = ot_rand(ctx, PAGE_SIZE);
	else
		skew = shape->skew;
	mem = vmalloc(len + PAGE_SIZE);
	if (!OT_EXPECT(ctx, mem, "no memory"))
		return false;
	buf = mem + skew;
	if (write) {
		ot_fill(ctx, buf, len);
		err = ot_store_rw(ctx, store, oid, off, buf, len, true, false,
				  shape->bv_align);
		if (OT_EXPECT(ctx, !err, "write %u at %u (skew %u): %d",
			      len, off, skew, err))
			memcpy(shadow + off, buf, len);
		else
			ok = false;
	} else {
		memset(buf, 0xa5, len);
		err = ot_store_rw(ctx, store, oid, off, buf, len, false, false,
				  shape->bv_align);
		if (!OT_EXPECT(ctx, !err, "read %u at %u: %d", len, off, err)) {
			ok = false;
		} else if (memcmp(buf, shadow + off, len)) {
			for (i = 0; i < len && buf[i] == shadow[off + i]; i++)
				;
			ot_fail(ctx, __LINE__,
				"read %u at %u (skew %u): byte %u is %#x, not %#x",
				len, off, skew, off + i, buf[i],
				shadow[off + i]);
			ok = false;
		}
	}
	vfree(mem);
	return ok;
}

/* @rounds random reads and writes of the shapes in @shapes. */
static void ot_rw_rounds(struct ot_ctx *ctx, struct ore_store *store, u64 oid,
			 u8 *shadow, u32 size,
			 const struct ot_shape *const *shapes,
			 unsigned int nr_shapes, unsigned int rounds)
{
	const struct ot_shape *shape;
	unsigned int r;

	for (r = 0; r < rounds; r++) {
		shape = shapes[ot_rand(ctx, nr_shapes)];
		if (!ot_one_rw(ctx, store, oid, shadow, size, shape,
			       ot_rand(ctx, 2), 256 << 10))
			return;
	}
	/* Everything, once each way of cutting. */
	for (r = 0; r < nr_shapes; r++) {
		u8 *buf = vmalloc(size);
		int err;

		if (!OT_EXPECT(ctx, buf, "no memory"))
			return;
		err = ot_store_rw(ctx, store, oid, 0, buf, size, false, false,
				  shapes[r]->bv_align);
		OT_EXPECT(ctx, !err && !memcmp(buf, shadow, size),
			  "whole read %d", err);
		vfree(buf);
	}
}

/* ------------------------------------------------------------------ */

static void ot_file_open_missing(struct ot_ctx *ctx)
{
	struct ore_store *s;
	char *path;

	if (!ctx->nr_dirs)
		return ot_skip(ctx, "no dirs=");
	path = kasprintf(GFP_KERNEL, "%s/no-such-dir", ctx->dirs[0]);
	if (!OT_EXPECT(ctx, path, "no memory"))
		return;
	s = ore_file_store_open(path);
	if (!OT_EXPECT_EQ(ctx, PTR_ERR_OR_ZERO(s), -ENOENT) && !IS_ERR(s))
		ore_store_put(s);
	s = ore_file_store_open("relative/path");
	if (!OT_EXPECT(ctx, IS_ERR(s), "relative path opened"))
		ore_store_put(s);
	kfree(path);
}

/* Open the store directories; they stay open for the later cases. */
static void ot_file_open(struct ot_ctx *ctx)
{
	struct ore_store *s;
	unsigned int i;

	ot_stores_live0 = atomic64_read(&ore_stats.stores_live);
	if (!ctx->nr_dirs)
		return ot_skip(ctx, "no dirs=");
	for (i = 0; i < ctx->nr_dirs; i++) {
		s = ore_file_store_open(ctx->dirs[i]);
		if (!OT_EXPECT(ctx, !IS_ERR(s), "open %s: %ld", ctx->dirs[i],
			       PTR_ERR(s)))
			continue;
		OT_EXPECT(ctx, !strcmp(s->name, ctx->dirs[i]), "name %s",
			  s->name);
		OT_EXPECT(ctx, !ore_store_failed(s), "new store failed");
		ctx->fstores[ctx->nr_fstores++] = s;
	}
	OT_EXPECT_EQ(ctx, atomic64_read(&ore_stats.stores_live),
		     ot_stores_live0 + ctx->nr_fstores);
	/* A second reference and its drop. */
	if (ctx->nr_fstores) {
		s = ctx->fstores[0];
		ore_store_get(s);
		ore_store_put(s);
		OT_EXPECT_EQ(ctx, kref_read(&s->kref), 1);
	}
}

static void ot_file_open_notdir(struct ot_ctx *ctx)
{
	struct ore_store *s = ot_fstore(ctx, 0), *bad;
	char *path, *data;
	int err;

	if (!s)
		return;
	data = kstrdup("not a directory", GFP_KERNEL);
	path = kasprintf(GFP_KERNEL, "%s/%llx", ctx->dirs[0],
			 (u64)OT_OID_NOTDIR);
	if (!OT_EXPECT(ctx, path && data, "no memory"))
		goto out;
	ot_forget(ctx, s, OT_OID_NOTDIR);
	err = ot_store_rw(ctx, s, OT_OID_NOTDIR, 0, data, strlen(data), true,
			  false, 0);
	OT_EXPECT_EQ(ctx, err, 0);
	bad = ore_file_store_open(path);
	if (!OT_EXPECT_EQ(ctx, PTR_ERR_OR_ZERO(bad), -ENOTDIR) && !IS_ERR(bad))
		ore_store_put(bad);
	OT_EXPECT_EQ(ctx, s->ops->remove(s, OT_OID_NOTDIR), 0);
out:
	kfree(path);
	kfree(data);
}

/* As an unprivileged user (uid/gid 65534, no capabilities). */
static void ot_file_open_eacces(struct ot_ctx *ctx)
{
	const struct cred *old;
	struct ore_store *s;
	struct cred *nobody;

	if (!ctx->nr_dirs)
		return ot_skip(ctx, "no dirs=");
	nobody = prepare_creds();
	if (!OT_EXPECT(ctx, nobody, "no memory"))
		return;
	nobody->fsuid = make_kuid(current_user_ns(), 65534);
	nobody->fsgid = make_kgid(current_user_ns(), 65534);
	nobody->euid = nobody->fsuid;
	nobody->egid = nobody->fsgid;
	cap_clear(nobody->cap_effective);
	old = override_creds(nobody);
	s = ore_file_store_open(ctx->dirs[0]);
	revert_creds(old);
	put_cred(nobody);
	if (!OT_EXPECT_EQ(ctx, PTR_ERR_OR_ZERO(s), -EACCES) && !IS_ERR(s))
		ore_store_put(s);
}

static void ot_file_rw(struct ot_ctx *ctx, const struct ot_shape *const *shapes,
		       unsigned int nr_shapes, atomic64_t *counter)
{
	struct ore_store *s = ot_fstore(ctx, 0);
	long long before;
	u8 *shadow;

	if (!s)
		return;
	shadow = vzalloc(OT_WINDOW);
	if (!OT_EXPECT(ctx, shadow, "no memory"))
		return;
	ot_forget(ctx, s, OT_OID_RW);
	/* created empty: reads before any write give zeros (not -ENOENT) */
	OT_EXPECT_EQ(ctx, s->ops->create(s, OT_OID_RW), 0);
	before = atomic64_read(counter);
	ot_rw_rounds(ctx, s, OT_OID_RW, shadow, OT_WINDOW, shapes, nr_shapes,
		     200);
	OT_EXPECT(ctx, atomic64_read(counter) > before,
		  "no I/O went that way");
	ot_diag(ctx, "%lld direct, %lld buffered I/Os so far",
		atomic64_read(&ore_stats.store_dio),
		atomic64_read(&ore_stats.store_buffered));
	OT_EXPECT_EQ(ctx, s->ops->remove(s, OT_OID_RW), 0);
	vfree(shadow);
}

static void ot_file_rw_direct(struct ot_ctx *ctx)
{
	static const struct ot_shape *const shapes[] = { &ot_direct, &ot_pages };

	ot_file_rw(ctx, shapes, ARRAY_SIZE(shapes), &ore_stats.store_dio);
}

static void ot_file_rw_buffered(struct ot_ctx *ctx)
{
	static const struct ot_shape *const shapes[] = { &ot_bytes };

	ot_file_rw(ctx, shapes, ARRAY_SIZE(shapes), &ore_stats.store_buffered);
}

/* Direct and buffered I/O on one object see each other's data. */
static void ot_file_rw_mixed(struct ot_ctx *ctx)
{
	static const struct ot_shape *const shapes[] = {
		&ot_direct, &ot_bytes, &ot_sectors, &ot_pages,
	};

	ot_file_rw(ctx, shapes, ARRAY_SIZE(shapes), &ore_stats.store_dio);
}

static void ot_file_sparse(struct ot_ctx *ctx)
{
	struct ore_store *s = ot_fstore(ctx, 0);
	u8 *buf, *data;
	u64 len = 0;
	int err;

	if (!s)
		return;
	buf = vmalloc(3 * PAGE_SIZE);
	data = vmalloc(PAGE_SIZE);
	if (!OT_EXPECT(ctx, buf && data, "no memory"))
		goto out;
	ot_forget(ctx, s, OT_OID_SPARSE);

	/*
	 * A missing object is not a hole: its reads fail with -ENOENT,
	 * both ways (ORE takes it for a lost component), and it stays
	 * missing.
	 */
	err = ot_store_rw(ctx, s, OT_OID_SPARSE, 8192, buf, 2 * PAGE_SIZE,
			  false, false, PAGE_SIZE);
	OT_EXPECT_EQ(ctx, err, -ENOENT);
	err = ot_store_rw(ctx, s, OT_OID_SPARSE, 77, buf + 5, 3000, false,
			  false, 0);
	OT_EXPECT_EQ(ctx, err, -ENOENT);
	OT_EXPECT_EQ(ctx, s->ops->length(s, OT_OID_SPARSE, &len), -ENOENT);

	/* One page at 1 MiB: a hole before it, the end after it. */
	ot_fill(ctx, data, PAGE_SIZE);
	err = ot_store_rw(ctx, s, OT_OID_SPARSE, 1 << 20, data, PAGE_SIZE,
			  true, false, PAGE_SIZE);
	OT_EXPECT_EQ(ctx, err, 0);
	OT_EXPECT_EQ(ctx, s->ops->length(s, OT_OID_SPARSE, &len), 0);
	OT_EXPECT_EQ(ctx, len, (1 << 20) + PAGE_SIZE);

	memset(buf, 0xa5, 3 * PAGE_SIZE);
	err = ot_store_rw(ctx, s, OT_OID_SPARSE, 4096, buf, 2 * PAGE_SIZE,
			  false, false, PAGE_SIZE);
	OT_EXPECT(ctx, !err && ot_is_zero(buf, 2 * PAGE_SIZE),
		  "hole: %d", err);
	/* [1M - 4K, 1M + 8K): hole, data, past the end; direct and not. */
	memset(buf, 0xa5, 3 * PAGE_SIZE);
	err = ot_store_rw(ctx, s, OT_OID_SPARSE, (1 << 20) - PAGE_SIZE, buf,
			  3 * PAGE_SIZE, false, false, PAGE_SIZE);
	OT_EXPECT(ctx, !err && ot_is_zero(buf, PAGE_SIZE) &&
		  !memcmp(buf + PAGE_SIZE, data, PAGE_SIZE) &&
		  ot_is_zero(buf + 2 * PAGE_SIZE, PAGE_SIZE),
		  "direct: %d", err);
	memset(buf, 0xa5, 3 * PAGE_SIZE);
	err = ot_store_rw(ctx, s, OT_OID_SPARSE, (1 << 20) - 100, buf + 3,
			  PAGE_SIZE + 200, false, false, 0);
	OT_EXPECT(ctx, !err && ot_is_zero(buf + 3, 100) &&
		  !memcmp(buf + 103, data, PAGE_SIZE) &&
		  ot_is_zero(buf + 103 + PAGE_SIZE, 100),
		  "buffered: %d", err);
	/* Wholly past the end. */
	memset(buf, 0xa5, 3 * PAGE_SIZE);
	err = ot_store_rw(ctx, s, OT_OID_SPARSE, 8 << 20, buf, 3 * PAGE_SIZE,
			  false, false, PAGE_SIZE);
	OT_EXPECT(ctx, !err && ot_is_zero(buf, 3 * PAGE_SIZE), "%d", err);
	OT_EXPECT_EQ(ctx, s->ops->remove(s, OT_OID_SPARSE), 0);
out:
	vfree(buf);
	vfree(data);
}

static void ot_file_objects(struct ot_ctx *ctx)
{
	struct ore_store *s = ot_fstore(ctx, 0);
	const u64 oid = OT_OID_TRUNC;
	u8 *buf;
	u64 len;
	int err;

	if (!s)
		return;
	buf = vmalloc(2 * PAGE_SIZE);
	if (!OT_EXPECT(ctx, buf, "no memory"))
		return;
	ot_forget(ctx, s, oid);
	OT_EXPECT_EQ(ctx, s->ops->remove(s, oid), -ENOENT);
	OT_EXPECT_EQ(ctx, s->ops->create(s, oid), 0);
	OT_EXPECT_EQ(ctx, s->ops->create(s, oid), -EEXIST);
	len = 1;
	OT_EXPECT_EQ(ctx, s->ops->length(s, oid, &len), 0);
	OT_EXPECT_EQ(ctx, len, 0);

	OT_EXPECT_EQ(ctx, s->ops->truncate(s, oid, 10000), 0);
	OT_EXPECT_EQ(ctx, s->ops->length(s, oid, &len), 0);
	OT_EXPECT_EQ(ctx, len, 10000);

	/* Shrink below written data: the rest reads as zeros. */
	ot_fill(ctx, buf, PAGE_SIZE);
	OT_EXPECT_EQ(ctx, ot_store_rw(ctx, s, oid, 0, buf, PAGE_SIZE, true,
				      false, PAGE_SIZE), 0);
	OT_EXPECT_EQ(ctx, s->ops->truncate(s, oid, 100), 0);
	OT_EXPECT_EQ(ctx, s->ops->length(s, oid, &len), 0);
	OT_EXPECT_EQ(ctx, len, 100);
	memcpy(buf + PAGE_SIZE, buf, 100);
	memset(buf, 0xa5, PAGE_SIZE);
	err = ot_store_rw(ctx, s, oid, 0, buf, PAGE_SIZE, false, false,
			  PAGE_SIZE);
	OT_EXPECT(ctx, !err && !memcmp(buf, buf + PAGE_SIZE, 100) &&
		  ot_is_zero(buf + 100, PAGE_SIZE - 100), "%d", err);

	OT_EXPECT_EQ(ctx, s->ops->remove(s, oid), 0);
	OT_EXPECT_EQ(ctx, s->ops->remove(s, oid), -ENOENT);
	OT_EXPECT_EQ(ctx, s->ops->length(s, oid, &len), -ENOENT);
	/* Truncate creates. */
	OT_EXPECT_EQ(ctx, s->ops->truncate(s, oid, 1 << 20), 0);
	OT_EXPECT_EQ(ctx, s->ops->length(s, oid, &len), 0);
	OT_EXPECT_EQ(ctx, len, 1 << 20);
	OT_EXPECT_EQ(ctx, s->ops->remove(s, oid), 0);
	vfree(buf);
}

static void ot_file_fua_flush(struct ot_ctx *ctx)
{
	struct ore_store *s = ot_fstore(ctx, 0);
	u8 *buf;

	if (!s)
		return;
	buf = vmalloc(4 * PAGE_SIZE);
	if (!OT_EXPECT(ctx, buf, "no memory"))
		return;
	ot_fill(ctx, buf, 4 * PAGE_SIZE);
	OT_EXPECT_EQ(ctx, ot_store_rw(ctx, s, OT_OID_FUA, 0, buf,
				      4 * PAGE_SIZE, true, true, PAGE_SIZE), 0);
	OT_EXPECT_EQ(ctx, ot_store_rw(ctx, s, OT_OID_FUA, 5, buf + 1, 999,
				      true, true, 0), 0);
	OT_EXPECT_EQ(ctx, s->ops->flush(s, OT_OID_FUA), 0);
	OT_EXPECT_EQ(ctx, s->ops->flush(s, 0x7777777), 0);	/* missing */
	OT_EXPECT_EQ(ctx, s->ops->flush(s, 0), 0);
	OT_EXPECT_EQ(ctx, s->ops->remove(s, OT_OID_FUA), 0);
	vfree(buf);
}

static void ot_failed_store(struct ot_ctx *ctx, struct ore_store *s)
{
	u8 *buf = (u8 *)get_zeroed_page(GFP_KERNEL);
	u64 len;

	if (!OT_EXPECT(ctx, buf, "no memory"))
		return;
	ore_store_set_state(s, ORE_STORE_FAILED);
	OT_EXPECT(ctx, ore_store_failed(s), "not failed");
	OT_EXPECT_EQ(ctx, ot_store_rw(ctx, s, OT_OID_RW, 0, buf, 512, false,
				      false, 512), -EIO);
	OT_EXPECT_EQ(ctx, ot_store_rw(ctx, s, OT_OID_RW, 0, buf, 512, true,
				      false, 512), -EIO);
	OT_EXPECT_EQ(ctx, s->ops->length(s, OT_OID_RW, &len), -EIO);
	OT_EXPECT_EQ(ctx, s->ops->flush(s, 0), -EIO);
	ore_store_set_state(s, ORE_STORE_IN_SYNC);
	OT_EXPECT(ctx, !ore_store_failed(s), "still failed");
	OT_EXPECT_EQ(ctx, ot_store_rw(ctx, s, OT_OID_RW, 0, buf, 512, false,
				      false, 512), 0);
	free_page((unsigned long)buf);
}

static void ot_file_failed(struct ot_ctx *ctx)
{
	struct ore_store *s = ot_fstore(ctx, 0);

	if (s) {
		/* the object exists: its read works once the store is back */
		OT_EXPECT_EQ(ctx, s->ops->truncate(s, OT_OID_RW, PAGE_SIZE), 0);
		ot_failed_store(ctx, s);
		ot_forget(ctx, s, OT_OID_RW);
	}
}

/*
 * Something else than a regular file at an object's path: engine.sh makes
 * a FIFO, a symlink to the regular file 5ee9, a directory and /dev/null's
 * device node as objects 5ee0..5ee3 of the first store. None is opened:
 * every I/O and hook fails with -EUCLEAN at once (a FIFO would block the
 * store's workers, a device would take the writes), and the symlink's
 * target is not written (engine.sh checks it).
 */
static void ot_file_not_regular(struct ot_ctx *ctx)
{
	static const char *const what[] = {
		"fifo", "symlink", "directory", "device node",
	};
	struct ore_store *s = ot_fstore(ctx, 0);
	u8 *buf;
	u64 len;
	u32 i;
	int err;

	if (!s)
		return;
	buf = vmalloc(16 * PAGE_SIZE);
	if (!OT_EXPECT(ctx, buf, "no memory"))
		return;
	memset(buf, 0x5a, 16 * PAGE_SIZE);
	for (i = 0; i < ARRAY_SIZE(what); i++) {
		u64 oid = OT_OID_NOTREG + i;

		err = ot_store_rw(ctx, s, oid, 0, buf, PAGE_SIZE, false, false,
				  PAGE_SIZE);
		if (err == -ENOENT && !i) {
			ot_skip(ctx, "no special files (made by engine.sh)");
			break;
		}
		if (!OT_EXPECT(ctx, err == -EUCLEAN, "%s: read: %d", what[i],
			       err))
			continue;
		err = ot_store_rw(ctx, s, oid, 0, buf, 16 * PAGE_SIZE, true,
				  false, PAGE_SIZE);
		OT_EXPECT(ctx, err == -EUCLEAN, "%s: write: %d", what[i], err);
		err = ot_store_rw(ctx, s, oid, 100, buf, 1000, true, false, 0);
		OT_EXPECT(ctx, err == -EUCLEAN, "%s: buffered write: %d",
			  what[i], err);
		err = s->ops->truncate(s, oid, 8192);
		OT_EXPECT(ctx, err == -EUCLEAN, "%s: truncate: %d", what[i],
			  err);
		err = s->ops->length(s, oid, &len);
		OT_EXPECT(ctx, err == -EUCLEAN, "%s: length: %d", what[i], err);
		err = s->ops->create(s, oid);
		OT_EXPECT(ctx, err == -EEXIST, "%s: create: %d", what[i], err);
	}
	vfree(buf);
}

/* The stand-in for a store that is not there: failed, -EIO, freed by put. */
static void ot_missing_store(struct ot_ctx *ctx)
{
	long long live0 = atomic64_read(&ore_stats.stores_live);
	u8 *buf = (u8 *)get_zeroed_page(GFP_KERNEL);
	struct kstatfs st;
	struct ore_store *s;
	u64 len;

	if (!OT_EXPECT(ctx, buf, "no memory"))
		return;
	s = ore_missing_store_create("missing-7");
	if (!OT_EXPECT(ctx, !IS_ERR(s), "create: %ld", PTR_ERR(s)))
		goto out;
	OT_EXPECT_EQ(ctx, atomic64_read(&ore_stats.stores_live), live0 + 1);
	OT_EXPECT(ctx, ore_store_failed(s) && !ore_store_writable(s) &&
		  !ore_store_readable(s, 0, 512), "missing store usable");
	OT_EXPECT(ctx, !strcmp(s->name, "missing-7"), "name %s", s->name);
	OT_EXPECT_EQ(ctx, ot_store_rw(ctx, s, OT_OID_RW, 0, buf, 512, false,
				      false, 512), -EIO);
	OT_EXPECT_EQ(ctx, ot_store_rw(ctx, s, OT_OID_RW, 0, buf, 512, true,
				      false, 512), -EIO);
	OT_EXPECT_EQ(ctx, s->ops->create(s, OT_OID_RW), -EIO);
	OT_EXPECT_EQ(ctx, s->ops->remove(s, OT_OID_RW), -EIO);
	OT_EXPECT_EQ(ctx, s->ops->truncate(s, OT_OID_RW, 0), -EIO);
	OT_EXPECT_EQ(ctx, s->ops->length(s, OT_OID_RW, &len), -EIO);
	OT_EXPECT_EQ(ctx, s->ops->flush(s, 0), -EIO);
	OT_EXPECT_EQ(ctx, ore_store_statfs(s, &st), -EIO);
	ore_store_put(s);
	OT_EXPECT_EQ(ctx, atomic64_read(&ore_stats.stores_live), live0);
out:
	free_page((unsigned long)buf);
}

/* A request whose len is not the sum of its bvecs is refused. */
static void ot_file_bad_request(struct ot_ctx *ctx)
{
	struct ore_store *s = ot_fstore(ctx, 0);
	struct bio_vec bv;
	void *page;

	if (!s)
		return;
	page = (void *)get_zeroed_page(GFP_KERNEL);
	if (!OT_EXPECT(ctx, page, "no memory"))
		return;
	bvec_set_virt(&bv, page, PAGE_SIZE);
	OT_EXPECT_EQ(ctx, ot_store_rw_bvec(s, OT_OID_RW, 0, &bv, 1,
					   PAGE_SIZE / 2, true, false),
		     -EINVAL);
	OT_EXPECT_EQ(ctx, ot_store_rw_bvec(s, OT_OID_RW, 0, NULL, 0, 0,
					   true, false), 0);
	free_page((unsigned long)page);
}

/* ------------------------------------------------------------------
 * Many requests in flight at once.
 */

struct ot_async {
	struct ore_store_io sio;
	struct completion done;
	u8 *buf;
};

static void ot_async_end(struct ore_store_io *sio)
{
	complete(&container_of(sio, struct ot_async, sio)->done);
}

#define OT_CONC_IOS	64
#define OT_CONC_LEN	(64u << 10)

/* Submit every request of @ios, then wait for all; count the failures. */
static unsigned int ot_async_run(struct ot_ctx *ctx, struct ot_async *ios,
				 unsigned int n)
{
	unsigned int i, bad = 0;

	for (i = 0; i < n; i++) {
		init_completion(&ios[i].done);
		ios[i].sio.end_io = ot_async_end;
		ios[i].sio.store->ops->submit(&ios[i].sio);
	}
	for (i = 0; i < n; i++) {
		wait_for_completion(&ios[i].done);
		if (ios[i].sio.error) {
			bad++;
			ot_fail(ctx, __LINE__, "request %u on %s: %d", i,
				ios[i].sio.store->name, ios[i].sio.error);
		}
	}
	return bad;
}

static void ot_file_concurrent(struct ot_ctx *ctx)
{
	struct ot_async *ios;
	u8 *data, *back;
	unsigned int i;

	if (!ctx->nr_fstores)
		return ot_skip(ctx, "no file stores");
	ios = kcalloc(OT_CONC_IOS, sizeof(*ios), GFP_KERNEL);
	data = vmalloc(OT_CONC_IOS * OT_CONC_LEN);
	back = vmalloc(OT_CONC_IOS * OT_CONC_LEN);
	if (!OT_EXPECT(ctx, ios && data && back, "no memory"))
		goto out;
	ot_fill(ctx, data, OT_CONC_IOS * OT_CONC_LEN);
	for (i = 0; i < 8; i++)
		ot_forget(ctx, ctx->fstores[i % ctx->nr_fstores],
			  OT_OID_CONC + i);

	/*
	 * Request i: store i % stores, object i % 8, region i / 8; every
	 * fourth one unaligned (buffered).
	 */
	for (i = 0; i < OT_CONC_IOS; i++) {
		struct ore_store_io *sio = &ios[i].sio;
		u32 off = (i / 8) * OT_CONC_LEN, len = OT_CONC_LEN;
		u32 align = PAGE_SIZE;

		if (i % 4 == 3) {
			off += 1;
			len -= 3;
			align = 0;
		}
		ios[i].buf = data + i * OT_CONC_LEN;
		sio->store = ctx->fstores[i % 8 % ctx->nr_fstores];
		sio->oid = OT_OID_CONC + i % 8;
		sio->offset = off;
		sio->len = len;
		sio->write = true;
		sio->nr_bvec = ot_make_bvecs(ctx, ios[i].buf + (off & 1), len,
					     align, &sio->bvec);
		if (!OT_EXPECT(ctx, sio->nr_bvec, "no memory"))
			goto out_bvecs;
	}
	ot_async_run(ctx, ios, OT_CONC_IOS);
	for (i = 0; i < OT_CONC_IOS; i++) {
		struct ore_store_io *sio = &ios[i].sio;

		kvfree(sio->bvec);
		sio->write = false;
		sio->nr_bvec = ot_make_bvecs(ctx, back + i * OT_CONC_LEN +
					     (sio->offset & 1), sio->len,
					     (sio->offset & 1) ? 0 : PAGE_SIZE,
					     &sio->bvec);
		if (!OT_EXPECT(ctx, sio->nr_bvec, "no memory"))
			goto out_bvecs;
	}
	ot_async_run(ctx, ios, OT_CONC_IOS);
	for (i = 0; i < OT_CONC_IOS; i++) {
		u32 skew = ios[i].sio.offset & 1;

		OT_EXPECT(ctx, !memcmp(back + i * OT_CONC_LEN + skew,
				       data + i * OT_CONC_LEN + skew,
				       ios[i].sio.len), "request %u data", i);
	}
	for (i = 0; i < 8; i++) {
		struct ore_store *s = ctx->fstores[i % ctx->nr_fstores];

		OT_EXPECT_EQ(ctx, s->ops->remove(s, OT_OID_CONC + i), 0);
	}
out_bvecs:
	for (i = 0; i < OT_CONC_IOS; i++)
		kvfree(ios[i].sio.bvec);
out:
	kfree(ios);
	vfree(data);
	vfree(back);
}

/* More objects than the open-file cache holds. */
static void ot_file_many_objects(struct ot_ctx *ctx)
{
	struct ore_store *s = ot_fstore(ctx, 0);
	long long files0;
	unsigned int i;
	u8 *data, *back;

	if (!s)
		return;
	data = vmalloc(OT_MANY * 1024);
	back = vmalloc(1024);
	if (!OT_EXPECT(ctx, data && back, "no memory"))
		goto out;
	ot_fill(ctx, data, OT_MANY * 1024);
	files0 = atomic64_read(&ore_stats.store_files);
	for (i = 0; i < OT_MANY; i++)
		if (!OT_EXPECT_EQ(ctx, ot_store_rw(ctx, s, OT_OID_MANY + i, i,
						   data + i * 1024, 1024, true,
						   false, 0), 0))
			goto out;
	OT_EXPECT(ctx, atomic64_read(&ore_stats.store_files) - files0 <=
		  ORE_FILE_STORE_OPEN_MAX,
		  "%lld files open", atomic64_read(&ore_stats.store_files));
	for (i = 0; i < OT_MANY; i++) {
		memset(back, 0, 1024);
		OT_EXPECT(ctx, !ot_store_rw(ctx, s, OT_OID_MANY + i, i, back,
					    1024, false, false, 0) &&
			  !memcmp(back, data + i * 1024, 1024),
			  "object %u", i);
	}
	for (i = 0; i < OT_MANY; i++)
		OT_EXPECT_EQ(ctx, s->ops->remove(s, OT_OID_MANY + i), 0);
	OT_EXPECT(ctx, atomic64_read(&ore_stats.store_files) <= files0,
		  "%lld files open, %lld before",
		  atomic64_read(&ore_stats.store_files), files0);
out:
	vfree(data);
	vfree(back);
}

/* Fill a small filesystem: the backing fs's ENOSPC reaches the caller. */
static void ot_file_enospc(struct ot_ctx *ctx)
{
	struct ore_store *s;
	const u32 chunk = 1 << 20;
	int err = 0, errors0;
	unsigned int i;
	u8 *buf;

	if (!ctx->fulldir)
		return ot_skip(ctx, "no fulldir=");
	s = ore_file_store_open(ctx->fulldir);
	if (!OT_EXPECT(ctx, !IS_ERR(s), "open %s: %ld", ctx->fulldir,
		       PTR_ERR(s)))
		return;
	buf = vmalloc(chunk + PAGE_SIZE);
	if (!OT_EXPECT(ctx, buf, "no memory"))
		goto out;
	ot_fill(ctx, buf, chunk + PAGE_SIZE);
	errors0 = atomic_read(&s->nr_errors);
	ot_forget(ctx, s, OT_OID_FULL);
	for (i = 0; i < 1024 && !err; i++)
		err = ot_store_rw(ctx, s, OT_OID_FULL, (u64)i * chunk, buf,
				  chunk, true, false, PAGE_SIZE);
	OT_EXPECT_EQ(ctx, err, -ENOSPC);
	ot_diag(ctx, "direct writes: ENOSPC after %u MiB", i - 1);
	err = ot_store_rw(ctx, s, OT_OID_FULL + 1, 3, buf + 1, chunk, true,
			  false, 0);
	OT_EXPECT_EQ(ctx, err, -ENOSPC);
	OT_EXPECT(ctx, atomic_read(&s->nr_errors) > errors0, "no error counted");
	ot_forget(ctx, s, OT_OID_FULL);
	ot_forget(ctx, s, OT_OID_FULL + 1);
	/* Space is back. */
	OT_EXPECT_EQ(ctx, ot_store_rw(ctx, s, OT_OID_FULL, 0, buf, chunk, true,
				      false, PAGE_SIZE), 0);
	ot_forget(ctx, s, OT_OID_FULL);
	vfree(buf);
out:
	ore_store_put(s);
}

/* ------------------------------------------------------------------
 * Block stores.
 */

static struct ore_store *ot_bdev_open(struct ot_ctx *ctx, unsigned int i,
				      u64 start, u64 len, void *holder)
{
	struct ore_store *s;

	if (i >= ctx->nr_bdevs) {
		ot_skip(ctx, "not enough block devices (bdevs=)");
		return NULL;
	}
	s = ore_bdev_store_open(ctx->bdevs[i], start, len, holder);
	if (!OT_EXPECT(ctx, !IS_ERR(s), "open %s %llu+%llu: %ld",
		       ctx->bdevs[i], start, len, PTR_ERR(s)))
		return NULL;
	return s;
}

static void ot_bdev_open_errors(struct ot_ctx *ctx)
{
	struct ore_store *s;
	u64 len;

	s = ore_bdev_store_open("/dev/ore-no-such-disk", 0, 0, NULL);
	if (!OT_EXPECT_EQ(ctx, PTR_ERR_OR_ZERO(s), -ENOENT) && !IS_ERR(s))
		ore_store_put(s);
	if (ctx->nr_dirs) {
		s = ore_bdev_store_open(ctx->dirs[0], 0, 0, NULL);
		if (!OT_EXPECT_EQ(ctx, PTR_ERR_OR_ZERO(s), -ENOTBLK) &&
		    !IS_ERR(s))
			ore_store_put(s);
	}
	s = ot_bdev_open(ctx, 0, 0, 0, NULL);
	if (!s)
		return;
	OT_EXPECT_EQ(ctx, s->ops->length(s, 0, &len), 0);
	ore_store_put(s);

	s = ore_bdev_store_open(ctx->bdevs[0], 100, 4096, NULL);
	if (!OT_EXPECT_EQ(ctx, PTR_ERR_OR_ZERO(s), -EINVAL) && !IS_ERR(s))
		ore_store_put(s);
	s = ore_bdev_store_open(ctx->bdevs[0], 0, len + 4096, NULL);
	if (!OT_EXPECT_EQ(ctx, PTR_ERR_OR_ZERO(s), -EINVAL) && !IS_ERR(s))
		ore_store_put(s);
	s = ore_bdev_store_open(ctx->bdevs[0], len, 0, NULL);
	if (!OT_EXPECT_EQ(ctx, PTR_ERR_OR_ZERO(s), -EINVAL) && !IS_ERR(s))
		ore_store_put(s);
}

/* Random round trips in the first 2 MiB and the last 2 MiB of a device. */
static void ot_bdev_rw(struct ot_ctx *ctx)
{
	static const struct ot_shape *const shapes[] = {
		&ot_sectors, &ot_pages, &ot_direct,
	};
	struct ore_store *s = ot_bdev_open(ctx, 0, 0, 0, NULL);
	u64 len, base;
	u8 *shadow;
	int pass;

	if (!s)
		return;
	shadow = vmalloc(OT_WINDOW);
	if (!OT_EXPECT(ctx, shadow, "no memory"))
		goto out;
	s->ops->length(s, 0, &len);
	for (pass = 0; pass < 2; pass++) {
		struct ore_store *w;

		base = pass ? len - OT_WINDOW : 0;
		/* A window store, so offsets start at 0; then random data. */
		w = ore_bdev_store_open(ctx->bdevs[0], base, OT_WINDOW, NULL);
		if (!OT_EXPECT(ctx, !IS_ERR(w), "%ld", PTR_ERR(w)))
			break;
		ot_fill(ctx, shadow, OT_WINDOW);
		OT_EXPECT_EQ(ctx, ot_store_rw(ctx, w, 0, 0, shadow, OT_WINDOW,
					      true, false, PAGE_SIZE), 0);
		ot_rw_rounds(ctx, w, 0, shadow, OT_WINDOW, shapes,
			     ARRAY_SIZE(shapes), 200);
		ore_store_put(w);
	}
	vfree(shadow);
out:
	ore_store_put(s);
}

/* One request of more than BIO_MAX_VECS bvecs: chained bios. */
static void ot_bdev_chain(struct ot_ctx *ctx)
{
	struct ore_store *s = ot_bdev_open(ctx, 0, 0, 0, NULL);
	const u32 len = 600 * 2048;
	struct bio_vec *bvec;
	unsigned int i, n;
	u8 *data, *back;

	if (!s)
		return;
	data = vmalloc(len);
	back = vzalloc(len);
	bvec = kvcalloc(600, sizeof(*bvec), GFP_KERNEL);
	if (!OT_EXPECT(ctx, data && back && bvec, "no memory"))
		goto out;
	ot_fill(ctx, data, len);
	/* 2 KiB pieces, never merged: 600 bvecs for 300 pages. */
	for (i = 0; i < 600; i++)
		bvec_set_page(&bvec[i], vmalloc_to_page(data + i * 2048), 2048,
			      offset_in_page(data + i * 2048));
	OT_EXPECT_EQ(ctx, ot_store_rw_bvec(s, 0, 1 << 20, bvec, 600, len,
					   true, true), 0);
	kvfree(bvec);
	n = ot_make_bvecs(ctx, back, len, 512, &bvec);
	if (!OT_EXPECT(ctx, n, "no memory"))
		goto out;
	OT_EXPECT_EQ(ctx, ot_store_rw_bvec(s, 0, 1 << 20, bvec, n, len, false,
					   false), 0);
	OT_EXPECT(ctx, !memcmp(data, back, len), "data");
out:
	kvfree(bvec);
	vfree(data);
	vfree(back);
	ore_store_put(s);
}

/* A range of a device: the edges, and what lands where on the device. */
static void ot_bdev_range(struct ot_ctx *ctx)
{
	const u64 start = 3 << 20, size = 64 << 10;
	struct ore_store *whole, *s;
	u8 *buf, *data;
	u64 len;
	int err;

	s = ot_bdev_open(ctx, 0, start, size, NULL);
	if (!s)
		return;
	whole = ot_bdev_open(ctx, 0, 0, 0, NULL);
	buf = vmalloc(2 * size);
	data = vmalloc(size);
	if (!whole || !OT_EXPECT(ctx, buf && data, "no memory"))
		goto out;
	OT_EXPECT_EQ(ctx, s->ops->length(s, 42, &len), 0);
	OT_EXPECT_EQ(ctx, len, size);
	OT_EXPECT_EQ(ctx, s->ops->create(s, 42), 0);
	OT_EXPECT_EQ(ctx, s->ops->remove(s, 42), 0);
	OT_EXPECT_EQ(ctx, s->ops->truncate(s, 42, 7), 0);

	ot_fill(ctx, data, size);
	OT_EXPECT_EQ(ctx, ot_store_rw(ctx, s, 42, 0, data, size, true, false,
				      512), 0);
	/* Written where the range says. */
	err = ot_store_rw(ctx, whole, 0, start, buf, size, false, false, 512);
	OT_EXPECT(ctx, !err && !memcmp(buf, data, size), "on device: %d", err);
	/* Writes past the end: refused whole. */
	OT_EXPECT_EQ(ctx, ot_store_rw(ctx, s, 42, size - 4096, buf, 8192, true,
				      false, 512), -ENOSPC);
	OT_EXPECT_EQ(ctx, ot_store_rw(ctx, s, 42, size, buf, 512, true, false,
				      512), -ENOSPC);
	/* Reads past the end: zeros there. */
	memset(buf, 0xa5, 2 * size);
	err = ot_store_rw(ctx, s, 42, size - 4096, buf, 8192, false, false,
			  512);
	OT_EXPECT(ctx, !err && !memcmp(buf, data + size - 4096, 4096) &&
		  ot_is_zero(buf + 4096, 4096), "straddling read: %d", err);
	memset(buf, 0xa5, 2 * size);
	err = ot_store_rw(ctx, s, 42, size, buf, size, false, false, 512);
	OT_EXPECT(ctx, !err && ot_is_zero(buf, size), "read past: %d", err);
	/* Misaligned requests. */
	OT_EXPECT_EQ(ctx, ot_store_rw(ctx, s, 42, 100, buf, 512, false, false,
				      512), -EINVAL);
	OT_EXPECT_EQ(ctx, ot_store_rw(ctx, s, 42, 0, buf + 1, 1000, false,
				      false, 0), -EINVAL);
	/* FUA and flush. */
	OT_EXPECT_EQ(ctx, ot_store_rw(ctx, s, 42, 4096, data, 4096, true, true,
				      512), 0);
	OT_EXPECT_EQ(ctx, s->ops->flush(s, 0), 0);
	ot_failed_store(ctx, s);
out:
	vfree(buf);
	vfree(data);
	ore_store_put(whole);
	ore_store_put(s);
}

/* Exclusive holders: another holder is refused, the same one shares. */
static void ot_bdev_exclusive(struct ot_ctx *ctx)
{
	static int holder_a, holder_b;
	struct ore_store *a, *b;

	a = ot_bdev_open(ctx, 0, 0, 0, &holder_a);
	if (!a)
		return;
	b = ore_bdev_store_open(ctx->bdevs[0], 0, 0, &holder_b);
	if (!OT_EXPECT_EQ(ctx, PTR_ERR_OR_ZERO(b), -EBUSY) && !IS_ERR(b))
		ore_store_put(b);
	b = ore_bdev_store_open(ctx->bdevs[0], 0, 0, &holder_a);
	if (OT_EXPECT(ctx, !IS_ERR(b), "same holder: %ld", PTR_ERR(b)))
		ore_store_put(b);
	ore_store_put(a);
	/* Released: the other holder gets it now. */
	b = ore_bdev_store_open(ctx->bdevs[0], 0, 0, &holder_b);
	if (OT_EXPECT(ctx, !IS_ERR(b), "after release: %ld", PTR_ERR(b)))
		ore_store_put(b);
}

/*
 * A block store over a device the caller opened: I/O through it, the
 * claim stays the caller's (another holder is refused until the caller
 * closes its file), in both release orders; statfs of the range.
 */
static void ot_bdev_open_file(struct ot_ctx *ctx)
{
	static int holder_a, holder_b;
	struct kstatfs st;
	struct ore_store *s, *b;
	struct file *f;
	u8 *buf;
	int order;

	if (!ctx->nr_bdevs) {
		ot_skip(ctx, "not enough block devices (bdevs=)");
		return;
	}
	buf = (u8 *)get_zeroed_page(GFP_KERNEL);
	if (!OT_EXPECT(ctx, buf, "no memory"))
		return;
	for (order = 0; order < 2; order++) {
		f = bdev_file_open_by_path(ctx->bdevs[0],
					   BLK_OPEN_READ | BLK_OPEN_WRITE,
					   &holder_a, NULL);
		if (!OT_EXPECT(ctx, !IS_ERR(f), "open: %ld", PTR_ERR(f)))
			break;
		s = ore_bdev_store_open_file(f, 1 << 20, 1 << 20);
		if (!OT_EXPECT(ctx, !IS_ERR(s), "store: %ld", PTR_ERR(s))) {
			bdev_fput(f);
			break;
		}
		OT_EXPECT(ctx, !strncmp(s->name, "/dev/", 5), "name %s",
			  s->name);
		b = ore_bdev_store_open_file(f, 100, 4096);
		if (!OT_EXPECT_EQ(ctx, PTR_ERR_OR_ZERO(b), -EINVAL) &&
		    !IS_ERR(b))
			ore_store_put(b);
		ot_fill(ctx, buf, PAGE_SIZE);
		OT_EXPECT_EQ(ctx, ot_store_rw(ctx, s, 0, 4096, buf, PAGE_SIZE,
					      true, false, PAGE_SIZE), 0);
		OT_EXPECT_EQ(ctx, ore_store_statfs(s, &st), 0);
		OT_EXPECT_EQ(ctx, st.f_blocks * st.f_bsize, 1 << 20);
		OT_EXPECT_EQ(ctx, st.f_bavail, st.f_blocks);
		b = ore_bdev_store_open(ctx->bdevs[0], 0, 0, &holder_b);
		if (!OT_EXPECT_EQ(ctx, PTR_ERR_OR_ZERO(b), -EBUSY) &&
		    !IS_ERR(b))
			ore_store_put(b);
		if (order) {		/* the caller closes first */
			bdev_fput(f);
			ore_store_put(s);
		} else {
			ore_store_put(s);
			bdev_fput(f);
		}
		b = ore_bdev_store_open(ctx->bdevs[0], 0, 0, &holder_b);
		if (OT_EXPECT(ctx, !IS_ERR(b), "after release: %ld",
			      PTR_ERR(b)))
			ore_store_put(b);
	}
	free_page((unsigned long)buf);
}

/* statfs of a file store: its directory's filesystem; -EIO once failed. */
static void ot_file_statfs(struct ot_ctx *ctx)
{
	struct ore_store *s = ot_fstore(ctx, 0);
	struct kstatfs st;

	if (!s)
		return;
	OT_EXPECT_EQ(ctx, ore_store_statfs(s, &st), 0);
	OT_EXPECT(ctx, st.f_blocks && st.f_bsize &&
		  st.f_bfree <= st.f_blocks, "blocks %llu bsize %ld free %llu",
		  st.f_blocks, st.f_bsize, st.f_bfree);
	ore_store_set_state(s, ORE_STORE_FAILED);
	OT_EXPECT_EQ(ctx, ore_store_statfs(s, &st), -EIO);
	ore_store_set_state(s, ORE_STORE_IN_SYNC);
}

/* The last case: every store released, no backing file left open. */
/* ------------------------------------------------------------------
 * Data checksums of a block store (ore_bdev_store_enable_csum()).
 */

static void ot_sync_end(struct ore_store_io *sio)
{
	complete(sio->private);
}

/* Flags of ot_flag_io() */
#define OT_RESTAMP	1u
#define OT_NO_CSUM	2u
#define OT_DISCARD	4u

/*
 * A request of @len bytes at @off of @oid with the flags of &ore_store_io
 * named by @flags: a read, or with OT_DISCARD a discard (@buf unused).
 */
static int ot_flag_io(struct ot_ctx *ctx, struct ore_store *s, u64 oid,
		      u64 off, void *buf, u32 len, unsigned int flags)
{
	struct completion done;
	struct ore_store_io sio = { };
	struct bio_vec *bvec = NULL;
	unsigned int n = 0;

	if (!(flags & OT_DISCARD)) {
		n = ot_make_bvecs(ctx, buf, len, PAGE_SIZE, &bvec);
		if (!n)
			return -ENOMEM;
	}
	init_completion(&done);
	sio.store = s;
	sio.oid = oid;
	sio.offset = off;
	sio.len = len;
	sio.bvec = bvec;
	sio.nr_bvec = n;
	sio.restamp = flags & OT_RESTAMP;
	sio.no_csum = flags & OT_NO_CSUM;
	sio.discard = flags & OT_DISCARD;
	sio.write = sio.discard;
	sio.end_io = ot_sync_end;
	sio.private = &done;
	INIT_LIST_HEAD(&sio.queue);
	s->ops->submit(&sio);
	wait_for_completion(&done);
	kvfree(bvec);
	return sio.error;
}

/* The entry a block of 4096 bytes at @p gets (include/ore/pure.h). */
static u32 ot_csum_entry(u32 type, const void *p)
{
	if (type == ORE_CSUM_XXH64)
		return ore_csum_value((u32)xxh64(p, ORE_CSUM_BLOCK, 0));
	return ore_csum_value(crc32c(~0U, p, ORE_CSUM_BLOCK));
}

/*
 * 64 blocks of data at (8 + 4 * type) MiB of the device, their entries
 * right after: a block never written reads unverified; written data reads
 * back and its entries on the device are the checksums of the blocks;
 * one block overwritten behind the store fails with -EBADMSG (its
 * neighbours read), until a restamp read takes it as right; a write
 * stamps it again.
 */
static void ot_bdev_csum(struct ot_ctx *ctx)
{
	const u32 type = ctx->arg, size = 64 * ORE_CSUM_BLOCK;
	const u64 start = (8ULL + 4 * type) << 20, cstart = start + size;
	struct ore_store *whole, *s;
	u8 *data, *buf, *junk;
	__le32 *entries;
	int err;
	u32 b;

	whole = ot_bdev_open(ctx, 0, 0, 0, NULL);
	s = ot_bdev_open(ctx, 0, start, size, NULL);
	data = vmalloc(size);
	buf = vmalloc(size);
	junk = vmalloc(PAGE_SIZE);
	entries = vzalloc(PAGE_SIZE);
	if (!whole || !s || !OT_EXPECT(ctx, data && buf && junk && entries,
				       "no memory"))
		goto out;
	OT_EXPECT_EQ(ctx, ore_csum_bytes(size), PAGE_SIZE);
	/* the region zeroed, as oreblk create zeroes it */
	OT_EXPECT_EQ(ctx, ot_store_rw(ctx, whole, 0, cstart, entries,
				      PAGE_SIZE, true, true, PAGE_SIZE), 0);
	OT_EXPECT_EQ(ctx, ore_bdev_store_enable_csum(s, cstart, type), 0);

	/* every entry 0: nothing verified */
	ot_fill(ctx, data, size);
	OT_EXPECT_EQ(ctx, ot_store_rw(ctx, whole, 0, start, data, size, true,
				      true, PAGE_SIZE), 0);
	OT_EXPECT_EQ(ctx, ot_store_rw(ctx, s, 0, 0, buf, size, false, false,
				      PAGE_SIZE), 0);

	/* written through the store: read back, entries on the device */
	ot_fill(ctx, data, size);
	OT_EXPECT_EQ(ctx, ot_store_rw(ctx, s, 0, 0, data, size, true, false,
				      PAGE_SIZE), 0);
	err = ot_store_rw(ctx, s, 0, 0, buf, size, false, false, PAGE_SIZE);
	OT_EXPECT(ctx, !err && !memcmp(buf, data, size), "read back: %d", err);
	OT_EXPECT_EQ(ctx, s->ops->flush(s, 0), 0);
	OT_EXPECT_EQ(ctx, ot_store_rw(ctx, whole, 0, cstart, entries,
				      PAGE_SIZE, false, false, PAGE_SIZE), 0);
	for (b = 0; b < 64; b++)
		if (!OT_EXPECT(ctx, le32_to_cpu(entries[b]) ==
			       ot_csum_entry(type, data + b * ORE_CSUM_BLOCK),
			       "entry %u: 0x%08x on the device, 0x%08x computed",
			       b, le32_to_cpu(entries[b]),
			       ot_csum_entry(type, data + b * ORE_CSUM_BLOCK)))
			break;
	OT_EXPECT_EQ(ctx, le32_to_cpu(entries[64]), 0);

	/* block 2 overwritten behind the store */
	ot_fill(ctx, junk, PAGE_SIZE);
	OT_EXPECT_EQ(ctx, ot_store_rw(ctx, whole, 0, start + 2 * PAGE_SIZE,
				      junk, PAGE_SIZE, true, true, PAGE_SIZE),
		     0);
	OT_EXPECT_EQ(ctx, ot_store_rw(ctx, s, 0, 0, buf, size, false, false,
				      PAGE_SIZE), -EBADMSG);
	OT_EXPECT(ctx, !memcmp(buf + 2 * PAGE_SIZE, junk, PAGE_SIZE),
		  "the data read is in the buffer");
	OT_EXPECT_EQ(ctx, ot_store_rw(ctx, s, 0, PAGE_SIZE, buf, PAGE_SIZE,
				      false, false, PAGE_SIZE), 0);
	OT_EXPECT_EQ(ctx, ot_store_rw(ctx, s, 0, 3 * PAGE_SIZE, buf,
				      PAGE_SIZE, false, false, PAGE_SIZE), 0);
	/* a restamp read takes it as right */
	OT_EXPECT_EQ(ctx, ot_flag_io(ctx, s, 0, 2 * PAGE_SIZE, buf, PAGE_SIZE,
				     OT_RESTAMP), 0);
	err = ot_store_rw(ctx, s, 0, 2 * PAGE_SIZE, buf, PAGE_SIZE, false,
			  false, PAGE_SIZE);
	OT_EXPECT(ctx, !err && !memcmp(buf, junk, PAGE_SIZE),
		  "after the restamp: %d", err);
	/* overwritten again, then a write through the store: stamped anew */
	ot_fill(ctx, junk, PAGE_SIZE);
	OT_EXPECT_EQ(ctx, ot_store_rw(ctx, whole, 0, start + 2 * PAGE_SIZE,
				      junk, PAGE_SIZE, true, true, PAGE_SIZE),
		     0);
	OT_EXPECT_EQ(ctx, ot_store_rw(ctx, s, 0, 2 * PAGE_SIZE, buf,
				      PAGE_SIZE, false, false, PAGE_SIZE),
		     -EBADMSG);
	OT_EXPECT_EQ(ctx, ot_store_rw(ctx, s, 0, 2 * PAGE_SIZE,
				      data + 2 * PAGE_SIZE, PAGE_SIZE, true,
				      false, PAGE_SIZE), 0);
	err = ot_store_rw(ctx, s, 0, 0, buf, size, false, false, PAGE_SIZE);
	OT_EXPECT(ctx, !err && !memcmp(buf, data, size), "rewritten: %d", err);
	OT_EXPECT_EQ(ctx, s->ops->flush(s, 0), 0);
out:
	vfree(entries);
	vfree(junk);
	vfree(buf);
	vfree(data);
	ore_store_put(s);
	ore_store_put(whole);
}

/* Checksum regions that do not fit, types that do not exist, file stores. */
static void ot_bdev_csum_errors(struct ot_ctx *ctx)
{
	const u64 start = 20 << 20, size = 64 * ORE_CSUM_BLOCK;
	struct ore_store *s = ot_bdev_open(ctx, 0, start, size, NULL);

	if (!s)
		return;
	OT_EXPECT_EQ(ctx, ore_bdev_store_enable_csum(s, start + size, 7),
		     -EINVAL);
	OT_EXPECT_EQ(ctx, ore_bdev_store_enable_csum(s, start + size + 512,
						     ORE_CSUM_CRC32C), -EINVAL);
	/* over the data */
	OT_EXPECT_EQ(ctx, ore_bdev_store_enable_csum(s, start, ORE_CSUM_XXH64),
		     -EINVAL);
	OT_EXPECT_EQ(ctx, ore_bdev_store_enable_csum(s, start + size - PAGE_SIZE,
						     ORE_CSUM_XXH64), -EINVAL);
	/* beyond the device */
	OT_EXPECT_EQ(ctx, ore_bdev_store_enable_csum(s, U64_MAX & PAGE_MASK,
						     ORE_CSUM_XXH64), -EINVAL);
	if (ctx->nr_fstores)
		OT_EXPECT_EQ(ctx, ore_bdev_store_enable_csum(ctx->fstores[0],
							     0, ORE_CSUM_XXH64),
			     -EINVAL);
	/* right before the data: fits */
	OT_EXPECT_EQ(ctx, ore_bdev_store_enable_csum(s, start - PAGE_SIZE,
						     ORE_CSUM_XXH64), 0);
	ore_store_put(s);
}

/* ------------------------------------------------------------------
 * Data checksums of a file store (ore_file_store_enable_csum()).
 */

/*
 * Open the file "<oid><@suffix>" in the store directory @dir (the object's
 * with "", its side file's with ORE_FILE_CSUM_SUFFIX) with @flags.
 */
static struct file *ot_obj_open(const char *dir, u64 oid, const char *suffix,
				int flags)
{
	char *path = kasprintf(GFP_KERNEL, "%s/%llx%s", dir, oid, suffix);
	struct file *f;

	if (!path)
		return ERR_PTR(-ENOMEM);
	f = filp_open(path, flags | O_LARGEFILE, 0600);
	kfree(path);
	return f;
}

/*
 * The entries of object @oid in its side file in @dir, into @ents (at
 * most @n); returns how many there are (the side file's length / 4), or
 * -errno (-ENOENT: no side file).
 */
static long ot_side_entries(const char *dir, u64 oid, __le32 *ents, u32 n)
{
	struct file *f = ot_obj_open(dir, oid, ORE_FILE_CSUM_SUFFIX, O_RDONLY);
	loff_t pos = 0;
	long ret;

	if (IS_ERR(f))
		return PTR_ERR(f);
	ret = i_size_read(file_inode(f)) / ORE_CSUM_ENTRY;
	memset(ents, 0, n * ORE_CSUM_ENTRY);
	if (kernel_read(f, ents, n * ORE_CSUM_ENTRY, &pos) < 0)
		ret = -EIO;
	fput(f);
	return ret;
}

/*
 * The entries of the head of object @oid in @dir (its attribute
 * ORE_FILE_CSUM_XATTR), into @head (ORE_FILE_CSUM_HEAD, zeros past the
 * value); returns how many the value holds, or -errno (-ENODATA: none).
 */
static long ot_head_entries(const char *dir, u64 oid, __le32 *head)
{
	struct file *f = ot_obj_open(dir, oid, "", O_RDONLY);
	long ret;

	if (IS_ERR(f))
		return PTR_ERR(f);
	memset(head, 0, ORE_FILE_CSUM_HEAD * ORE_CSUM_ENTRY);
	ret = vfs_getxattr(file_mnt_idmap(f), f->f_path.dentry,
			   ORE_FILE_CSUM_XATTR, head,
			   ORE_FILE_CSUM_HEAD * ORE_CSUM_ENTRY);
	fput(f);
	return ret < 0 ? ret : ret / ORE_CSUM_ENTRY;
}

/*
 * Every entry of @oid in @dir, as the store takes them (its side file's,
 * those of its head over them); returns ot_side_entries()'s result.
 */
static long ot_all_entries(const char *dir, u64 oid, __le32 *ents, u32 n)
{
	long ret = ot_side_entries(dir, oid, ents, n);
	__le32 head[ORE_FILE_CSUM_HEAD];

	if (ret == -ENOENT)
		memset(ents, 0, n * ORE_CSUM_ENTRY);
	if (ot_head_entries(dir, oid, head) >= 0)
		memcpy(ents, head, min(n, ORE_FILE_CSUM_HEAD) * ORE_CSUM_ENTRY);
	return ret;
}

/* Write @n entries at entry @first of @oid's side file in @dir. */
static int ot_side_write(const char *dir, u64 oid, u64 first,
			 const __le32 *ents, u32 n)
{
	struct file *f = ot_obj_open(dir, oid, ORE_FILE_CSUM_SUFFIX,
				     O_WRONLY | O_CREAT);
	loff_t pos = first * ORE_CSUM_ENTRY;
	ssize_t ret;

	if (IS_ERR(f))
		return PTR_ERR(f);
	ret = kernel_write(f, ents, n * ORE_CSUM_ENTRY, &pos);
	fput(f);
	return ret == n * ORE_CSUM_ENTRY ? 0 : -EIO;
}

/*
 * An object whose head's entries are in its side file (written before
 * the head existed, or by a tool without extended attributes) reads
 * verified from there; a write into the head makes the attribute with
 * them: a block that went bad behind the store still fails after it.
 * Then entries left past the object's end (a crash) and a restamp there.
 */
static void ot_file_csum_side_head(struct ot_ctx *ctx, struct ore_store *s,
				   struct ore_store *plain, u32 type, u64 oid,
				   u8 *data, u8 *buf, __le32 *ents)
{
	__le32 head[ORE_FILE_CSUM_HEAD];
	u32 b;
	int err;

	ot_forget(ctx, plain, oid);
	ot_forget(ctx, s, oid);
	OT_EXPECT_EQ(ctx, plain->ops->create(plain, oid), 0);
	OT_EXPECT_EQ(ctx, ot_store_rw(ctx, plain, oid, 0, data, 4 * PAGE_SIZE,
				      true, false, PAGE_SIZE), 0);
	for (b = 0; b < 4; b++)
		ents[b] = cpu_to_le32(ot_csum_entry(type, data +
						    b * ORE_CSUM_BLOCK));
	OT_EXPECT_EQ(ctx, ot_side_write(ctx->dirs[0], oid, 0, ents, 4), 0);
	OT_EXPECT_EQ(ctx, ot_store_rw(ctx, s, oid, 0, buf, 4 * PAGE_SIZE,
				      false, false, PAGE_SIZE), 0);
	/* block 0 goes bad: the side file's entry catches it */
	OT_EXPECT_EQ(ctx, ot_store_rw(ctx, plain, oid, 0, data + 8 * PAGE_SIZE,
				      PAGE_SIZE, true, true, PAGE_SIZE), 0);
	OT_EXPECT_EQ(ctx, ot_store_rw(ctx, s, oid, 0, buf, PAGE_SIZE, false,
				      false, PAGE_SIZE), -EBADMSG);
	/* block 1 written through the store: the head takes 0, 2 and 3 */
	OT_EXPECT_EQ(ctx, ot_head_entries(ctx->dirs[0], oid, head), -ENODATA);
	OT_EXPECT_EQ(ctx, ot_store_rw(ctx, s, oid, PAGE_SIZE,
				      data + 9 * PAGE_SIZE, PAGE_SIZE, true,
				      false, PAGE_SIZE), 0);
	OT_EXPECT_EQ(ctx, ot_head_entries(ctx->dirs[0], oid, head), 4);
	ents[1] = cpu_to_le32(ot_csum_entry(type, data + 9 * PAGE_SIZE));
	OT_EXPECT(ctx, !memcmp(head, ents, 4 * sizeof(*ents)),
		  "head %08x %08x %08x %08x", le32_to_cpu(head[0]),
		  le32_to_cpu(head[1]), le32_to_cpu(head[2]),
		  le32_to_cpu(head[3]));
	/* and the side file's copies of them are zeroed */
	OT_EXPECT(ctx, ot_side_entries(ctx->dirs[0], oid, head, 4) == 4 &&
		  !memchr_inv(head, 0, 4 * sizeof(*head)),
		  "side file's head entries zeroed");
	OT_EXPECT_EQ(ctx, ot_store_rw(ctx, s, oid, 0, buf, PAGE_SIZE, false,
				      false, PAGE_SIZE), -EBADMSG);
	OT_EXPECT_EQ(ctx, ot_store_rw(ctx, s, oid, PAGE_SIZE, buf,
				      3 * PAGE_SIZE, false, false, PAGE_SIZE),
		     0);
	/* the side file's head entries are not looked at any more */
	memset(ents, 0, 4 * sizeof(*ents));
	ents[2] = cpu_to_le32(1);
	OT_EXPECT_EQ(ctx, ot_side_write(ctx->dirs[0], oid, 0, ents, 4), 0);
	OT_EXPECT_EQ(ctx, ot_store_rw(ctx, s, oid, PAGE_SIZE, buf,
				      3 * PAGE_SIZE, false, false, PAGE_SIZE),
		     0);

	/*
	 * Entries past the end (a crash in an extending write: stored, the
	 * data not) of blocks 6 (head) and 20 (side file): a restamp read
	 * there stores those of the zeros read, so that once the object
	 * grows over them (a truncate, a write further on) they read.
	 */
	memset(ents, 0, 24 * sizeof(*ents));
	ents[20] = cpu_to_le32(ot_csum_entry(type, data));
	OT_EXPECT_EQ(ctx, ot_side_write(ctx->dirs[0], oid, 0, ents, 24), 0);
	OT_EXPECT_EQ(ctx, ot_store_rw(ctx, s, oid, 6 * PAGE_SIZE, data,
				      PAGE_SIZE, true, false, PAGE_SIZE), 0);
	OT_EXPECT_EQ(ctx, plain->ops->truncate(plain, oid, 4 * PAGE_SIZE), 0);
	OT_EXPECT_EQ(ctx, ot_head_entries(ctx->dirs[0], oid, head), 7);
	OT_EXPECT_EQ(ctx, ot_flag_io(ctx, s, oid, 4 * PAGE_SIZE, buf,
				     20 * PAGE_SIZE, OT_RESTAMP), 0);
	/* no entries past the end: the head keeps 0-3, the side file none */
	OT_EXPECT_EQ(ctx, ot_head_entries(ctx->dirs[0], oid, head), 4);
	OT_EXPECT(ctx, ot_side_entries(ctx->dirs[0], oid, ents, 24) == 24 &&
		  !memchr_inv(ents, 0, 24 * sizeof(*ents)),
		  "side file entries past the end taken");
	OT_EXPECT_EQ(ctx, s->ops->truncate(s, oid, 24 * PAGE_SIZE), 0);
	err = ot_store_rw(ctx, s, oid, 4 * PAGE_SIZE, buf, 20 * PAGE_SIZE,
			  false, false, PAGE_SIZE);
	OT_EXPECT(ctx, !err && ot_is_zero(buf, 20 * PAGE_SIZE),
		  "grown over stale entries: %d", err);
	OT_EXPECT_EQ(ctx, s->ops->remove(s, oid), 0);
}

/*
 * A second store on the first directory keeps checksums; the first
 * store, on the same files, writes behind it. 64 blocks written in one
 * request (hashed in the store's workqueue) read back, their entries in
 * the side file; one block overwritten behind the store fails with
 * -EBADMSG (in the workqueue's check and in the in-place one), its
 * neighbours read, a no_csum read is not verified; a restamp read takes
 * it as right; a write stamps it anew. A partial block written gets no
 * checksum, a truncate in a block takes its entry, a discard takes those
 * of its blocks, a remove takes the side file. The entries of blocks 0-15
 * are in the object's head (its extended attribute), the side file has
 * the others; a truncate in the head cuts it. Then an object with its
 * head's entries in the side file (ot_file_csum_side_head()).
 */
static void ot_file_csum(struct ot_ctx *ctx)
{
	const u32 type = ctx->arg, size = 64 * ORE_CSUM_BLOCK;
	const u64 oid = OT_OID_CSUM + type;
	struct ore_store *plain = ot_fstore(ctx, 0), *s = NULL;
	u8 *data = NULL, *buf = NULL, *junk = NULL;
	__le32 *ents = NULL;
	long n;
	int err;
	u32 b;

	if (!plain)
		return;
	s = ore_file_store_open(ctx->dirs[0]);
	if (!OT_EXPECT(ctx, !IS_ERR(s), "open: %ld", PTR_ERR(s)))
		return;
	data = vmalloc(size);
	buf = vmalloc(size);
	junk = vmalloc(PAGE_SIZE);
	ents = vzalloc(PAGE_SIZE);
	if (!OT_EXPECT(ctx, data && buf && junk && ents, "no memory"))
		goto out;
	OT_EXPECT_EQ(ctx, ore_file_store_enable_csum(s, type), 0);
	ot_forget(ctx, s, oid);
	OT_EXPECT_EQ(ctx, s->ops->create(s, oid), 0);

	/*
	 * written whole: read back, the entries of blocks 0-15 in the head,
	 * the others in the side file, whose head entries stay a hole
	 */
	ot_fill(ctx, data, size);
	OT_EXPECT_EQ(ctx, ot_store_rw(ctx, s, oid, 0, data, size, true, false,
				      PAGE_SIZE), 0);
	err = ot_store_rw(ctx, s, oid, 0, buf, size, false, false, PAGE_SIZE);
	OT_EXPECT(ctx, !err && !memcmp(buf, data, size), "read back: %d", err);
	n = ot_side_entries(ctx->dirs[0], oid, ents, PAGE_SIZE / 4);
	OT_EXPECT_EQ(ctx, n, 64);
	OT_EXPECT(ctx, !memchr_inv(ents, 0, ORE_FILE_CSUM_HEAD * sizeof(*ents)),
		  "no head entries in the side file");
	OT_EXPECT_EQ(ctx, ot_head_entries(ctx->dirs[0], oid, ents),
		     ORE_FILE_CSUM_HEAD);
	for (b = 0; b < 64 && n == 64; b++)
		if (!OT_EXPECT(ctx, le32_to_cpu(ents[b]) ==
			       ot_csum_entry(type, data + b * ORE_CSUM_BLOCK),
			       "entry %u: 0x%08x stored, 0x%08x computed",
			       b, le32_to_cpu(ents[b]),
			       ot_csum_entry(type, data + b * ORE_CSUM_BLOCK)))
			break;

	/* block 2 overwritten behind the store */
	ot_fill(ctx, junk, PAGE_SIZE);
	OT_EXPECT_EQ(ctx, ot_store_rw(ctx, plain, oid, 2 * PAGE_SIZE, junk,
				      PAGE_SIZE, true, true, PAGE_SIZE), 0);
	OT_EXPECT_EQ(ctx, ot_store_rw(ctx, s, oid, 0, buf, size, false, false,
				      PAGE_SIZE), -EBADMSG);
	OT_EXPECT(ctx, !memcmp(buf + 2 * PAGE_SIZE, junk, PAGE_SIZE),
		  "the data read is in the buffer");
	OT_EXPECT_EQ(ctx, ot_store_rw(ctx, s, oid, 0, buf, 4 * PAGE_SIZE,
				      false, false, PAGE_SIZE), -EBADMSG);
	OT_EXPECT_EQ(ctx, ot_store_rw(ctx, s, oid, PAGE_SIZE, buf, PAGE_SIZE,
				      false, false, PAGE_SIZE), 0);
	OT_EXPECT_EQ(ctx, ot_store_rw(ctx, s, oid, 3 * PAGE_SIZE, buf,
				      PAGE_SIZE, false, false, PAGE_SIZE), 0);
	OT_EXPECT_EQ(ctx, ot_flag_io(ctx, s, oid, 2 * PAGE_SIZE, buf,
				     PAGE_SIZE, OT_NO_CSUM), 0);
	/* a restamp read takes it as right */
	OT_EXPECT_EQ(ctx, ot_flag_io(ctx, s, oid, 0, buf, size, OT_RESTAMP), 0);
	err = ot_store_rw(ctx, s, oid, 0, buf, size, false, false, PAGE_SIZE);
	OT_EXPECT(ctx, !err && !memcmp(buf + 2 * PAGE_SIZE, junk, PAGE_SIZE),
		  "after the restamp: %d", err);
	/* overwritten again, then written through the store */
	ot_fill(ctx, junk, PAGE_SIZE);
	OT_EXPECT_EQ(ctx, ot_store_rw(ctx, plain, oid, 2 * PAGE_SIZE, junk,
				      PAGE_SIZE, true, true, PAGE_SIZE), 0);
	OT_EXPECT_EQ(ctx, ot_store_rw(ctx, s, oid, 2 * PAGE_SIZE, buf,
				      PAGE_SIZE, false, false, PAGE_SIZE),
		     -EBADMSG);
	OT_EXPECT_EQ(ctx, ot_store_rw(ctx, s, oid, 2 * PAGE_SIZE,
				      data + 2 * PAGE_SIZE, PAGE_SIZE, true,
				      false, PAGE_SIZE), 0);
	err = ot_store_rw(ctx, s, oid, 0, buf, size, false, false, PAGE_SIZE);
	OT_EXPECT(ctx, !err && !memcmp(buf, data, size), "rewritten: %d", err);

	/* part of block 4 written: no checksum for it */
	OT_EXPECT_EQ(ctx, ot_store_rw(ctx, s, oid, 4 * PAGE_SIZE + 5, junk, 100,
				      true, false, 0), 0);
	n = ot_all_entries(ctx->dirs[0], oid, ents, PAGE_SIZE / 4);
	OT_EXPECT(ctx, n == 64 && !ents[4] && ents[3] && ents[5],
		  "entries %ld, 3-5: %08x %08x %08x", n, le32_to_cpu(ents[3]),
		  le32_to_cpu(ents[4]), le32_to_cpu(ents[5]));
	OT_EXPECT_EQ(ctx, ot_store_rw(ctx, plain, oid, 4 * PAGE_SIZE, junk,
				      PAGE_SIZE, true, true, PAGE_SIZE), 0);
	OT_EXPECT_EQ(ctx, ot_store_rw(ctx, s, oid, 4 * PAGE_SIZE, buf,
				      PAGE_SIZE, false, false, PAGE_SIZE), 0);

	/* a discard of blocks 8-9 and part of 10 */
	OT_EXPECT_EQ(ctx, ot_flag_io(ctx, s, oid, 8 * PAGE_SIZE, NULL,
				     2 * PAGE_SIZE + 512, OT_DISCARD), 0);
	n = ot_all_entries(ctx->dirs[0], oid, ents, PAGE_SIZE / 4);
	OT_EXPECT(ctx, n == 64 && ents[7] && !ents[8] && !ents[9] &&
		  !ents[10] && ents[11], "after the discard: %ld", n);
	OT_EXPECT_EQ(ctx, ot_store_rw(ctx, s, oid, 0, buf, size, false, false,
				      PAGE_SIZE), 0);

	/* a truncate in block 20: its entry goes, and those after it */
	OT_EXPECT_EQ(ctx, s->ops->truncate(s, oid, 20 * PAGE_SIZE + 100), 0);
	n = ot_all_entries(ctx->dirs[0], oid, ents, PAGE_SIZE / 4);
	OT_EXPECT(ctx, n == 21 && ents[19] && !ents[20],
		  "after the truncate: %ld entries", n);
	OT_EXPECT_EQ(ctx, ot_store_rw(ctx, s, oid, 0, buf, 24 * PAGE_SIZE,
				      false, false, PAGE_SIZE), 0);
	OT_EXPECT(ctx, ot_is_zero(buf + 20 * PAGE_SIZE + 100,
				  4 * PAGE_SIZE - 100), "zeros past the end");
	/*
	 * a truncate in block 6: the head keeps 0-5 (4 is 0: written in
	 * part), block 6's entry goes with those after it (trailing zeros
	 * are not stored); the side file keeps 7 entries
	 */
	OT_EXPECT_EQ(ctx, s->ops->truncate(s, oid, 6 * PAGE_SIZE + 100), 0);
	n = ot_all_entries(ctx->dirs[0], oid, ents, PAGE_SIZE / 4);
	OT_EXPECT(ctx, n == 7 && ents[5] && !ents[4] && !ents[6] &&
		  ot_head_entries(ctx->dirs[0], oid, ents) == 6,
		  "after the truncate in the head: %ld entries", n);
	OT_EXPECT_EQ(ctx, ot_store_rw(ctx, s, oid, 0, buf, 8 * PAGE_SIZE,
				      false, false, PAGE_SIZE), 0);
	OT_EXPECT(ctx, ot_is_zero(buf + 6 * PAGE_SIZE + 100,
				  2 * PAGE_SIZE - 100), "zeros past the end");
	OT_EXPECT_EQ(ctx, s->ops->flush(s, oid), 0);

	/* a remove takes the side file */
	OT_EXPECT_EQ(ctx, s->ops->remove(s, oid), 0);
	OT_EXPECT_EQ(ctx, ot_side_entries(ctx->dirs[0], oid, ents, 1),
		     -ENOENT);
	/*
	 * An object written without checksums reads unverified (the first
	 * store forgets the file it has open, unlinked by the remove).
	 */
	ot_forget(ctx, plain, oid);
	OT_EXPECT_EQ(ctx, plain->ops->create(plain, oid), 0);
	OT_EXPECT_EQ(ctx, ot_store_rw(ctx, plain, oid, 0, data, PAGE_SIZE,
				      true, false, PAGE_SIZE), 0);
	OT_EXPECT_EQ(ctx, ot_store_rw(ctx, s, oid, 0, buf, PAGE_SIZE, false,
				      false, PAGE_SIZE), 0);
	OT_EXPECT_EQ(ctx, s->ops->remove(s, oid), 0);

	ot_file_csum_side_head(ctx, s, plain, type, oid, data, buf, ents);

	/* the wrong store, the wrong type */
	OT_EXPECT_EQ(ctx, ore_file_store_enable_csum(s, 7), -EINVAL);
	if (ctx->nr_bdevs) {
		struct ore_store *bs = ot_bdev_open(ctx, 0, 0, 0, NULL);

		if (bs) {
			OT_EXPECT_EQ(ctx, ore_file_store_enable_csum(bs, type),
				     -EINVAL);
			ore_store_put(bs);
		}
	}
out:
	vfree(ents);
	vfree(junk);
	vfree(buf);
	vfree(data);
	ore_store_put(s);
}

static void ot_no_leaks(struct ot_ctx *ctx)
{
	while (ctx->nr_fstores)
		ore_store_put(ctx->fstores[--ctx->nr_fstores]);
	OT_EXPECT_EQ(ctx, atomic64_read(&ore_stats.stores_live),
		     ot_stores_live0);
	OT_EXPECT_EQ(ctx, atomic64_read(&ore_stats.store_files), 0);
}

const struct ot_case ot_store_cases[] = {
	{ "file_store_open_missing", ot_file_open_missing },
	{ "missing_store_stand_in", ot_missing_store },
	{ "file_store_open", ot_file_open },
	{ "file_store_open_notdir", ot_file_open_notdir },
	{ "file_store_open_eacces", ot_file_open_eacces },
	{ "file_rw_direct", ot_file_rw_direct },
	{ "file_rw_buffered", ot_file_rw_buffered },
	{ "file_rw_mixed", ot_file_rw_mixed },
	{ "file_sparse", ot_file_sparse },
	{ "file_create_truncate_length_remove", ot_file_objects },
	{ "file_fua_flush", ot_file_fua_flush },
	{ "file_failed_store", ot_file_failed },
	{ "file_statfs", ot_file_statfs },
	{ "file_bad_request", ot_file_bad_request },
	{ "file_concurrent", ot_file_concurrent },
	{ "file_many_objects", ot_file_many_objects },
	{ "file_enospc", ot_file_enospc },
	{ "bdev_open_errors", ot_bdev_open_errors },
	{ "bdev_rw", ot_bdev_rw },
	{ "bdev_chained_bios", ot_bdev_chain },
	{ "bdev_range", ot_bdev_range },
	{ "bdev_exclusive", ot_bdev_exclusive },
	{ "bdev_open_file_caller_keeps_claim", ot_bdev_open_file },
	{ "bdev_csum_crc32c", ot_bdev_csum, ORE_CSUM_CRC32C },
	{ "bdev_csum_xxh64", ot_bdev_csum, ORE_CSUM_XXH64 },
	{ "bdev_csum_errors", ot_bdev_csum_errors },
	{ "file_csum_crc32c", ot_file_csum, ORE_CSUM_CRC32C },
	{ "file_csum_xxh64", ot_file_csum, ORE_CSUM_XXH64 },
};

const unsigned int ot_nr_store_cases = ARRAY_SIZE(ot_store_cases);

/* after the engine cases: before its fix the FIFO case hung the module */
const struct ot_case ot_store_final_cases[] = {
	{ "file_not_regular_refused", ot_file_not_regular },
	{ "stores_released_no_leaks", ot_no_leaks },
};

const unsigned int ot_nr_store_final_cases = ARRAY_SIZE(ot_store_final_cases);
