// SPDX-License-Identifier: GPL-2.0
/*
 * ORE replacement store: the store a component lives on while it moves to a
 * new one (the hot replace of a member, as mdadm --replace). It stands in
 * for the old store, the primary, in the components: reads go to the
 * primary alone, writes and flushes go to both, so that the new store, the
 * secondary, never falls behind what its caller copies onto it.
 *
 * The primary decides what the engine sees: a request completes with the
 * primary's result. An error of the secondary does not fail the request;
 * the store keeps the first one (ore_replace_store_error()) and the caller
 * gives the replacement up. Each child request comes from a mempool, so
 * ->submit() always makes progress (it may sleep, as every backend's).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/mempool.h>
#include <linux/module.h>
#include <linux/slab.h>

#include "internal.h"

/* Child requests kept in reserve per replacement store. */
#define ORE_REPLACE_MIN_IOS	16

/**
 * struct ore_replace_store - a component's store while it is replaced
 * @store: the store the engine sees
 * @primary: the old store: read, written, decides every result
 * @secondary: the new store: written only
 * @pool: struct ore_replace_io allocations
 * @secondary_error: the first error of @secondary, 0 while there is none
 */
struct ore_replace_store {
	struct ore_store store;
	struct ore_store *primary;
	struct ore_store *secondary;
	mempool_t *pool;
	atomic_t secondary_error;
};

/**
 * struct ore_replace_io - one request of a replacement store
 * @parent: the request submitted to the replacement store
 * @child: [0] to the primary, [1] to the secondary (writes only)
 * @pending: children not completed yet
 */
struct ore_replace_io {
	struct ore_store_io *parent;
	struct ore_store_io child[2];
	atomic_t pending;
};

static struct ore_replace_store *ore_rs(struct ore_store *store)
{
	return container_of(store, struct ore_replace_store, store);
}

static void ore_replace_secondary_failed(struct ore_replace_store *rs,
					 u64 offset, int error)
{
	if (!atomic_cmpxchg(&rs->secondary_error, 0, error))
		pr_err("store %s: replacement %s failed at offset %llu: %d; the replacement is given up\n",
		       rs->store.name, rs->secondary->name, offset, error);
}

static void ore_replace_child_done(struct ore_store_io *child)
{
	struct ore_replace_io *rio = child->private;
	struct ore_store_io *parent = rio->parent;
	struct ore_replace_store *rs = ore_rs(parent->store);

	if (child == &rio->child[1] && child->error)
		ore_replace_secondary_failed(rs, child->offset, child->error);
	if (!atomic_dec_and_test(&rio->pending))
		return;
	/* the primary's read or write is what the engine sees */
	if (rio->child[0].error && rio->child[0].error != -EBADMSG)
		atomic_inc(&rs->store.nr_errors);
	parent->error = rio->child[0].error;
	mempool_free(rio, rs->pool);
	parent->end_io(parent);
}

static void ore_replace_submit(struct ore_store_io *sio)
{
	struct ore_replace_store *rs = ore_rs(sio->store);
	struct ore_replace_io *rio;
	unsigned int i, n;

	if (!ore_store_io_start(sio))
		return;
	rio = mempool_alloc(rs->pool, GFP_NOIO);
	rio->parent = sio;
	n = sio->write ? 2 : 1;
	atomic_set(&rio->pending, n);
	for (i = 0; i < n; i++) {
		struct ore_store_io *child = &rio->child[i];

		*child = *sio;
		INIT_LIST_HEAD(&child->queue);
		child->store = i ? rs->secondary : rs->primary;
		child->end_io = ore_replace_child_done;
		child->private = rio;
		child->error = 0;
	}
	for (i = 0; i < n; i++)
		rio->child[i].store->ops->submit(&rio->child[i]);
}

/* @err of the primary is the result; @err2 of the secondary is kept. */
static int ore_replace_both(struct ore_replace_store *rs, int err, int err2)
{
	if (err2)
		ore_replace_secondary_failed(rs, 0, err2);
	return err;
}

static int ore_replace_create(struct ore_store *store, u64 oid)
{
	struct ore_replace_store *rs = ore_rs(store);
	int err = rs->primary->ops->create(rs->primary, oid);

	return ore_replace_both(rs, err,
				rs->secondary->ops->create(rs->secondary, oid));
}

static int ore_replace_remove(struct ore_store *store, u64 oid)
{
	struct ore_replace_store *rs = ore_rs(store);
	int err = rs->primary->ops->remove(rs->primary, oid);

	return ore_replace_both(rs, err,
				rs->secondary->ops->remove(rs->secondary, oid));
}

static int ore_replace_truncate(struct ore_store *store, u64 oid, u64 size)
{
	struct ore_replace_store *rs = ore_rs(store);
	int err = rs->primary->ops->truncate(rs->primary, oid, size);

	return ore_replace_both(rs, err,
				rs->secondary->ops->truncate(rs->secondary,
							     oid, size));
}

static int ore_replace_flush(struct ore_store *store, u64 oid)
{
	struct ore_replace_store *rs = ore_rs(store);
	int err = rs->primary->ops->flush(rs->primary, oid);

	return ore_replace_both(rs, err,
				rs->secondary->ops->flush(rs->secondary, oid));
}

static int ore_replace_length(struct ore_store *store, u64 oid, u64 *len)
{
	struct ore_replace_store *rs = ore_rs(store);

	return rs->primary->ops->length(rs->primary, oid, len);
}

static int ore_replace_statfs(struct ore_store *store, struct kstatfs *buf)
{
	return ore_store_statfs(ore_rs(store)->primary, buf);
}

static void ore_replace_release(struct ore_store *store)
{
	struct ore_replace_store *rs = ore_rs(store);

	ore_store_put(rs->primary);
	ore_store_put(rs->secondary);
	mempool_destroy(rs->pool);
	kfree(rs);
}

static const struct ore_store_ops ore_replace_store_ops = {
	.submit		= ore_replace_submit,
	.create		= ore_replace_create,
	.remove		= ore_replace_remove,
	.truncate	= ore_replace_truncate,
	.length		= ore_replace_length,
	.flush		= ore_replace_flush,
	.statfs		= ore_replace_statfs,
	.release	= ore_replace_release,
};

/**
 * ore_replace_store_create - a store that stands in for @primary while its
 *	contents move to @secondary
 * @primary: the store being replaced, in service
 * @secondary: the new store; the caller copies @primary's objects onto it
 *	(ore_store_io_sync()) while the replacement store serves
 *
 * Reads go to @primary; writes, discards, flushes, create, remove and
 * truncate go to both, and complete with @primary's result. The first error
 * of @secondary is kept (ore_replace_store_error()) and does not fail the
 * request. The new store takes a reference to each; it starts in sync and
 * is named after @primary (its messages are @primary's). Process context.
 *
 * Return: the store with one reference, or ERR_PTR(-ENOMEM).
 */
struct ore_store *ore_replace_store_create(struct ore_store *primary,
					   struct ore_store *secondary)
{
	struct ore_replace_store *rs = kzalloc(sizeof(*rs), GFP_KERNEL);

	if (!rs)
		return ERR_PTR(-ENOMEM);
	rs->pool = mempool_create_kmalloc_pool(ORE_REPLACE_MIN_IOS,
					       sizeof(struct ore_replace_io));
	if (!rs->pool) {
		kfree(rs);
		return ERR_PTR(-ENOMEM);
	}
	ore_store_init(&rs->store, &ore_replace_store_ops, primary->name);
	ore_store_get(primary);
	ore_store_get(secondary);
	rs->primary = primary;
	rs->secondary = secondary;
	atomic_set(&rs->secondary_error, 0);
	return &rs->store;
}
EXPORT_SYMBOL_GPL(ore_replace_store_create);

/**
 * ore_replace_store_error - has the new store of a replacement failed?
 * @store: a store from ore_replace_store_create()
 *
 * Return: 0, or the first error a write, flush or operation on the new store
 * gave (the replacement cannot be trusted any more). Any context.
 */
int ore_replace_store_error(struct ore_store *store)
{
	return atomic_read(&ore_rs(store)->secondary_error);
}
EXPORT_SYMBOL_GPL(ore_replace_store_error);
