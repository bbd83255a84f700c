// SPDX-License-Identifier: GPL-2.0
/*
 * ORE object stores: what every backend shares. A backend embeds
 * &struct ore_store in its own struct, fills it with ore_store_init() and
 * frees itself in its ->release hook, called when the last reference goes.
 *
 * Contexts (see docs/stores.md):
 *  - ->submit() may sleep: call it from process context. Its ->end_io may
 *    run in any context, hard interrupt included, and may run before
 *    ->submit() returns.
 *  - ore_store_put() may sleep (the release closes files and devices): call
 *    it from process context, never from an ->end_io.
 *  - The caller keeps its reference to the store, and the ore_store_io with
 *    its bvec array and pages, until ->end_io has been called.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "internal.h"

/**
 * ore_store_init - set up the common part of a new store
 * @store: the store, embedded in the backend's struct
 * @ops: the backend's operations
 * @name: for messages; truncated to fit &ore_store.name
 *
 * The store starts with one reference, owned by the caller of the
 * backend's open function, and counts in &ore_stats.stores_live until it is
 * released. Exported for stores made outside ore.ko (ore_bench's null
 * stores), so that ore.ko's unload check counts them right.
 */
void ore_store_init(struct ore_store *store, const struct ore_store_ops *ops,
		    const char *name)
{
	store->ops = ops;
	kref_init(&store->kref);
	store->state = ORE_STORE_IN_SYNC;
	store->recovery_offset = 0;
	strscpy(store->name, name, sizeof(store->name));
	atomic_set(&store->nr_errors, 0);
	atomic64_inc(&ore_stats.stores_live);
}
EXPORT_SYMBOL_GPL(ore_store_init);

/**
 * ore_store_get - take a reference to a store
 * @store: the store
 */
void ore_store_get(struct ore_store *store)
{
	kref_get(&store->kref);
}
EXPORT_SYMBOL_GPL(ore_store_get);

static void ore_store_release(struct kref *kref)
{
	struct ore_store *store = container_of(kref, struct ore_store, kref);

	store->ops->release(store);
	atomic64_dec(&ore_stats.stores_live);
}

/**
 * ore_store_put - drop a reference to a store
 * @store: the store, or NULL
 *
 * The last reference closes the store's files or devices, so this may
 * sleep: call it from process context, never from an &ore_store_io.end_io.
 * No I/O may be in flight on the store when its last reference goes.
 */
void ore_store_put(struct ore_store *store)
{
	might_sleep();
	if (store)
		kref_put(&store->kref, ore_store_release);
}
EXPORT_SYMBOL_GPL(ore_store_put);

static const char *const ore_store_state_names[] = {
	[ORE_STORE_IN_SYNC]	= "in sync",
	[ORE_STORE_FAILED]	= "failed",
	[ORE_STORE_REBUILDING]	= "rebuilding",
};

/**
 * ore_store_set_state - put a store in sync, fail it, or start its rebuild
 * @store: the store
 * @state: the new &enum ore_store_state
 *
 * A failed store takes no I/O: the backends complete every submitted
 * &ore_store_io at once with -EIO, and the engine treats the store's
 * components as missing; its other operations (create, remove, truncate,
 * length, flush) return -EIO too. A store set rebuilding starts with a
 * recovery offset of 0 (nothing on it is read) that the rebuild raises
 * with ore_store_set_recovery_offset(); it is written as usual. Any
 * context.
 */
void ore_store_set_state(struct ore_store *store, enum ore_store_state state)
{
	int old;

	if (state == ORE_STORE_REBUILDING)
		WRITE_ONCE(store->recovery_offset, 0);
	/* the offset is in place before a reader sees the state */
	smp_wmb();
	old = xchg(&store->state, state);
	if (old == state)
		return;
	if (state == ORE_STORE_FAILED)
		pr_warn("store %s marked failed (was %s)\n",
			store->name, ore_store_state_names[old]);
	else
		pr_info("store %s %s (was %s)\n", store->name,
			ore_store_state_names[state],
			ore_store_state_names[old]);
}
EXPORT_SYMBOL_GPL(ore_store_set_state);

/**
 * ore_store_set_recovery_offset - how far a rebuilding store is valid
 * @store: a store set %ORE_STORE_REBUILDING
 * @offset: object offsets below it are valid and read from now on
 *
 * Any context; the caller orders this after the rebuild's writes of the
 * range below @offset have completed.
 */
void ore_store_set_recovery_offset(struct ore_store *store, u64 offset)
{
	WRITE_ONCE(store->recovery_offset, offset);
}
EXPORT_SYMBOL_GPL(ore_store_set_recovery_offset);

/**
 * ore_store_failed - is the store out of service?
 * @store: the store
 *
 * Return: true when its state is %ORE_STORE_FAILED.
 */
bool ore_store_failed(const struct ore_store *store)
{
	return READ_ONCE(store->state) == ORE_STORE_FAILED;
}
EXPORT_SYMBOL_GPL(ore_store_failed);

/**
 * ore_store_writable - may ORE write to the store?
 * @store: the store
 *
 * Return: true when it is in sync or rebuilding (not failed).
 */
bool ore_store_writable(const struct ore_store *store)
{
	return READ_ONCE(store->state) != ORE_STORE_FAILED;
}
EXPORT_SYMBOL_GPL(ore_store_writable);

/**
 * ore_store_readable - may ORE read a range of objects on the store?
 * @store: the store
 * @obj_off: object offset of the range
 * @len: bytes of the range
 *
 * Return: true when the store is in sync, or rebuilding with the whole
 * range below its recovery offset.
 */
bool ore_store_readable(const struct ore_store *store, u64 obj_off, u64 len)
{
	switch (READ_ONCE(store->state)) {
	case ORE_STORE_IN_SYNC:
		return true;
	case ORE_STORE_REBUILDING:
		smp_rmb();	/* pairs with ore_store_set_state() */
		return obj_off + len <= READ_ONCE(store->recovery_offset) &&
		       obj_off + len >= obj_off;
	default:
		return false;
	}
}
EXPORT_SYMBOL_GPL(ore_store_readable);

/**
 * ore_store_unbuilt - is an object offset of the store not rebuilt yet?
 * @store: the store
 * @obj_off: object offset
 *
 * A component missing there is not lost: the rebuild has not come to it
 * (an object-by-object rebuild, as exofs's, keeps the recovery offset at
 * 0 until the whole store is rebuilt). Writes and truncates may then make
 * the component; nothing reads it before the rebuild has written it.
 *
 * Return: true when @store is rebuilding and @obj_off is at or above its
 * recovery offset.
 */
bool ore_store_unbuilt(const struct ore_store *store, u64 obj_off)
{
	if (READ_ONCE(store->state) != ORE_STORE_REBUILDING)
		return false;
	smp_rmb();	/* pairs with ore_store_set_state() */
	return obj_off >= READ_ONCE(store->recovery_offset);
}
EXPORT_SYMBOL_GPL(ore_store_unbuilt);

/* ------------------------------------------------------------------ */
/* the stand-in for a store that is not there */

static void ore_missing_submit(struct ore_store_io *sio)
{
	ore_store_io_done(sio, -EIO);
}

static int ore_missing_op(struct ore_store *store, u64 oid)
{
	return -EIO;
}

static int ore_missing_truncate(struct ore_store *store, u64 oid, u64 size)
{
	return -EIO;
}

static int ore_missing_length(struct ore_store *store, u64 oid, u64 *len)
{
	return -EIO;
}

static void ore_missing_release(struct ore_store *store)
{
	kfree(store);
}

static const struct ore_store_ops ore_missing_store_ops = {
	.submit		= ore_missing_submit,
	.create		= ore_missing_op,
	.remove		= ore_missing_op,
	.truncate	= ore_missing_truncate,
	.length		= ore_missing_length,
	.flush		= ore_missing_op,
	.release	= ore_missing_release,
};

/**
 * ore_missing_store_create - a stand-in for a store that is not there
 * @name: for messages (e.g. "missing-3"); truncated to fit
 *
 * For the members of a device table that could not be opened: the store
 * is %ORE_STORE_FAILED from the start and stays so (every I/O and every
 * operation fails with -EIO), so the engine treats its components as
 * missing. It is a store like the others: ore_store_put() frees it.
 *
 * Return: the store with one reference, or ERR_PTR(-ENOMEM).
 */
struct ore_store *ore_missing_store_create(const char *name)
{
	struct ore_store *store = kzalloc(sizeof(*store), GFP_KERNEL);

	if (!store)
		return ERR_PTR(-ENOMEM);
	ore_store_init(store, &ore_missing_store_ops, name);
	store->state = ORE_STORE_FAILED;	/* quietly: it never worked */
	return store;
}
EXPORT_SYMBOL_GPL(ore_missing_store_create);

/**
 * ore_store_statfs - the space of what holds a store
 * @store: the store
 * @buf: filled as vfs_statfs() fills it (f_bsize, f_blocks, f_bfree,
 *	f_bavail at least)
 *
 * For a file store the filesystem of its directory; for a block store its
 * range, all of it free (the one object it holds never grows past it).
 * Process context.
 *
 * Return: 0, -EIO for a failed store, -EOPNOTSUPP for a backend without
 * ->statfs, or the backend's error.
 */
int ore_store_statfs(struct ore_store *store, struct kstatfs *buf)
{
	if (ore_store_failed(store))
		return -EIO;
	if (!store->ops->statfs)
		return -EOPNOTSUPP;
	return store->ops->statfs(store, buf);
}
EXPORT_SYMBOL_GPL(ore_store_statfs);

/*
 * Complete @sio with @error. Backends count the errors of their device in
 * &ore_store.nr_errors themselves; refusals (failed store, bad request) are
 * not counted.
 */
void ore_store_io_done(struct ore_store_io *sio, int error)
{
	sio->error = error;
	sio->end_io(sio);
}

/*
 * Checks every backend makes before starting @sio. Returns true when the
 * backend should go on; false when @sio has been completed here already:
 * with -EIO on a failed store, -EINVAL when @sio->len is not the sum of the
 * bvec lengths, 0 when there is nothing to transfer.
 */
bool ore_store_io_start(struct ore_store_io *sio)
{
	struct ore_store *store = sio->store;
	u64 bytes = 0;
	unsigned int i;

	if (ore_store_failed(store)) {
		ore_store_io_done(sio, -EIO);
		return false;
	}
	for (i = 0; i < sio->nr_bvec; i++)
		bytes += sio->bvec[i].bv_len;
	if (sio->discard)
		bytes = sio->len;	/* no memory */
	if (bytes != sio->len) {
		pr_err("store %s: oid 0x%llx offset %llu: %s of %u bytes has %llu bytes in %u bvecs\n",
		       store->name, sio->oid, sio->offset,
		       sio->write ? "write" : "read", sio->len, bytes,
		       sio->nr_bvec);
		ore_store_io_done(sio, -EINVAL);
		return false;
	}
	if (!sio->len) {
		ore_store_io_done(sio, 0);
		return false;
	}
	return true;
}

struct ore_store_sync {
	struct completion done;
};

static void ore_store_sync_done(struct ore_store_io *sio)
{
	struct ore_store_sync *s = sio->private;

	complete(&s->done);
}

/**
 * ore_store_io_sync - read or write a range of one object on one store, and
 *	wait for it
 * @store: the store
 * @oid: the object
 * @offset: byte offset in the object, a multiple of PAGE_SIZE
 * @len: bytes, a multiple of PAGE_SIZE, at most U32_MAX rounded down to a
 *	page
 * @pages: @len / PAGE_SIZE pages
 * @write: write (else read)
 * @fua: with @write, stable when it returns
 *
 * For the callers that move one component at a time (the copy of a hot
 * replace, superblock objects): no layout, no redundancy, the store's own
 * checksums verified on a read. Process context.
 *
 * Return: 0, -EINVAL for a bad range, -ENOMEM, or the store's error
 * (-EBADMSG: the data read does not match the store's checksums).
 */
int ore_store_io_sync(struct ore_store *store, u64 oid, u64 offset, u64 len,
		      struct page **pages, bool write, bool fua)
{
	unsigned int i, n = len >> PAGE_SHIFT;
	struct ore_store_sync s;
	struct ore_store_io sio;
	struct bio_vec *bv;

	if ((offset | len) & ~PAGE_MASK || len > U32_MAX)
		return -EINVAL;
	bv = kvmalloc_array(n, sizeof(*bv), GFP_NOIO);
	if (!bv)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		bvec_set_page(&bv[i], pages[i], PAGE_SIZE, 0);
	memset(&sio, 0, sizeof(sio));
	sio.store = store;
	sio.oid = oid;
	sio.offset = offset;
	sio.len = len;
	sio.bvec = bv;
	sio.nr_bvec = n;
	sio.write = write;
	sio.fua = write && fua;
	sio.no_create = write;
	sio.end_io = ore_store_sync_done;
	sio.private = &s;
	INIT_LIST_HEAD(&sio.queue);
	init_completion(&s.done);
	store->ops->submit(&sio);
	wait_for_completion(&s.done);
	kvfree(bv);
	return sio.error;
}
EXPORT_SYMBOL_GPL(ore_store_io_sync);
