// SPDX-License-Identifier: GPL-2.0
/*
 * oreblk stripe cache: pages of recently written stripes, lent to ORE
 * through its read-4-write callbacks so that a partial-stripe write reads
 * only what the cache does not hold.
 *
 * An entry is one page row of one stripe: page j of each data column, as
 * md's stripe_head holds one page per device. stripe_cache_size bounds the
 * number of entries (memory: size * data_width pages). The cache is split
 * in OREBLK_CACHE_SHARDS shards by stripe number, each with its own lock,
 * hash and LRU list of idle entries; a shard holds size / SHARDS entries.
 *
 * Coherence: the entries of stripe s are only read or changed by the
 * holder of stripe s's lock (lock.c): ORE's get_page/put_page run inside a
 * locked write, and the write's completion (oreblk_cache_written) copies
 * the new data of partially written stripes into their entries, or clears
 * the uptodate bits of fully written (or failed) ones, before it releases
 * the lock. Eviction only takes idle entries (no page lent to ORE) and
 * drops their contents. Reads never fill the cache.
 */
#include <linux/slab.h>
#include <linux/mm.h>
#include <linux/highmem.h>

#include "internal.h"

static struct oreblk_cache_shard *oreblk_shard(struct oreblk_cache *cache,
					       u64 stripe)
{
	return &cache->shards[stripe & (OREBLK_CACHE_SHARDS - 1)];
}

static struct hlist_head *oreblk_hash(struct oreblk_cache_shard *shard,
				      u64 stripe)
{
	return &shard->hash[(stripe / OREBLK_CACHE_SHARDS) &
			    (OREBLK_CACHE_HASH - 1)];
}

static unsigned int oreblk_shard_max(unsigned int size, unsigned int i)
{
	return size / OREBLK_CACHE_SHARDS +
	       (i < size % OREBLK_CACHE_SHARDS ? 1 : 0);
}

void oreblk_cache_init(struct oreblk_cache *cache,
		       const struct ore_layout *layout, unsigned int size)
{
	unsigned int i, h;

	memset(cache, 0, sizeof(*cache));
	cache->data_width = layout->data_width;
	cache->rows = layout->stripe_unit / PAGE_SIZE;
	cache->stripe_length = layout->stripe_length;
	cache->stripe_unit = layout->stripe_unit;
	cache->size = size;
	for (i = 0; i < OREBLK_CACHE_SHARDS; i++) {
		struct oreblk_cache_shard *shard = &cache->shards[i];

		spin_lock_init(&shard->lock);
		for (h = 0; h < OREBLK_CACHE_HASH; h++)
			INIT_HLIST_HEAD(&shard->hash[h]);
		INIT_LIST_HEAD(&shard->lru);
		shard->max = oreblk_shard_max(size, i);
	}
}

static void oreblk_ent_free(struct oreblk_cache *cache,
			    struct oreblk_cache_ent *ent)
{
	u32 c;

	for (c = 0; c < cache->data_width; c++)
		if (ent->pages[c])
			__free_page(ent->pages[c]);
	kfree(ent);
}

static struct oreblk_cache_ent *oreblk_ent_alloc(struct oreblk_cache *cache)
{
	struct oreblk_cache_ent *ent;
	u32 c;

	ent = kzalloc(struct_size(ent, pages, cache->data_width), GFP_NOIO);
	if (!ent)
		return NULL;
	for (c = 0; c < cache->data_width; c++) {
		ent->pages[c] = alloc_page(GFP_NOIO);
		if (!ent->pages[c]) {
			oreblk_ent_free(cache, ent);
			return NULL;
		}
		set_page_private(ent->pages[c], (unsigned long)ent);
	}
	INIT_LIST_HEAD(&ent->lru);
	return ent;
}

/* Drop idle entries of @shard beyond its maximum. Shard lock held. */
static void oreblk_shard_trim(struct oreblk_cache *cache,
			      struct oreblk_cache_shard *shard,
			      struct list_head *dead)
{
	struct oreblk_cache_ent *ent, *next;

	list_for_each_entry_safe_reverse(ent, next, &shard->lru, lru) {
		if (shard->nr <= shard->max)
			break;
		list_move(&ent->lru, dead);
		hlist_del(&ent->hnode);
		shard->nr--;
	}
}

static void oreblk_free_list(struct oreblk_cache *cache,
			     struct list_head *dead)
{
	struct oreblk_cache_ent *ent, *next;

	list_for_each_entry_safe(ent, next, dead, lru)
		oreblk_ent_free(cache, ent);
}

void oreblk_cache_destroy(struct oreblk_cache *cache)
{
	unsigned int i;
	LIST_HEAD(dead);

	for (i = 0; i < OREBLK_CACHE_SHARDS; i++) {
		struct oreblk_cache_shard *shard = &cache->shards[i];

		spin_lock_irq(&shard->lock);
		shard->max = 0;
		oreblk_shard_trim(cache, shard, &dead);
		WARN_ON_ONCE(shard->nr);
		spin_unlock_irq(&shard->lock);
	}
	oreblk_free_list(cache, &dead);
}

/* Set stripe_cache_size; entries beyond it go now (or when idle). */
void oreblk_cache_resize(struct oreblk_cache *cache, unsigned int size)
{
	unsigned int i;
	LIST_HEAD(dead);

	WRITE_ONCE(cache->size, size);
	for (i = 0; i < OREBLK_CACHE_SHARDS; i++) {
		struct oreblk_cache_shard *shard = &cache->shards[i];

		spin_lock_irq(&shard->lock);
		shard->max = oreblk_shard_max(size, i);
		oreblk_shard_trim(cache, shard, &dead);
		spin_unlock_irq(&shard->lock);
	}
	oreblk_free_list(cache, &dead);
}

unsigned long oreblk_cache_active(struct oreblk_cache *cache)
{
	unsigned long n = 0;
	unsigned int i;

	for (i = 0; i < OREBLK_CACHE_SHARDS; i++)
		n += READ_ONCE(cache->shards[i].nr);
	return n;
}

static struct oreblk_cache_ent *oreblk_lookup(struct oreblk_cache_shard *shard,
					      u64 stripe, u32 row)
{
	struct oreblk_cache_ent *ent;

	hlist_for_each_entry(ent, oreblk_hash(shard, stripe), hnode)
		if (ent->stripe == stripe && ent->row == row)
			return ent;
	return NULL;
}

/*
 * ORE's get_page: the page of logical @offset from the entry of its row,
 * created (or taken over from the least recently used idle entry) when
 * there is none. NULL when the cache is off, full of busy entries, or out
 * of memory: ORE then uses a page of its own.
 */
static struct page *oreblk_r4w_get_page(void *priv, u64 offset,
					bool *uptodate)
{
	struct oreblk_piece *piece = priv;
	struct oreblk_cache *cache = &piece->cmd->arr->cache;
	u64 stripe = div64_u64(offset, cache->stripe_length);
	u64 in = offset - stripe * cache->stripe_length;
	u32 col = (u32)(in / cache->stripe_unit);
	u32 row = (u32)((in % cache->stripe_unit) >> PAGE_SHIFT);
	struct oreblk_cache_shard *shard = oreblk_shard(cache, stripe);
	struct oreblk_cache_ent *ent, *fresh = NULL;
	struct page *page = NULL;

	*uptodate = false;
	if (!READ_ONCE(shard->max))
		goto miss;
	spin_lock_irq(&shard->lock);
	ent = oreblk_lookup(shard, stripe, row);
	if (!ent && shard->nr >= shard->max && !list_empty(&shard->lru)) {
		/* take over the least recently used idle entry */
		ent = list_last_entry(&shard->lru, struct oreblk_cache_ent,
				      lru);
		hlist_del(&ent->hnode);
		ent->stripe = stripe;
		ent->row = row;
		ent->uptodate = 0;
		hlist_add_head(&ent->hnode, oreblk_hash(shard, stripe));
	}
	if (!ent && shard->nr < shard->max) {
		spin_unlock_irq(&shard->lock);
		fresh = oreblk_ent_alloc(cache);
		if (!fresh)
			goto miss;
		spin_lock_irq(&shard->lock);
		/* nobody else adds entries of our (locked) stripe */
		if (shard->nr < shard->max) {
			ent = fresh;
			fresh = NULL;
			ent->stripe = stripe;
			ent->row = row;
			hlist_add_head(&ent->hnode, oreblk_hash(shard, stripe));
			shard->nr++;
		}
	}
	if (ent) {
		if (!ent->busy++)
			list_del_init(&ent->lru);
		*uptodate = test_bit(col, &ent->uptodate);
		page = ent->pages[col];
	}
	spin_unlock_irq(&shard->lock);
	if (fresh)
		oreblk_ent_free(cache, fresh);
	if (page && *uptodate) {
		atomic64_inc(&cache->hits);
		return page;
	}
miss:
	atomic64_inc(&cache->misses);
	return page;
}

/* ORE's put_page: @page of an entry is back, holding current data or not. */
static void oreblk_r4w_put_page(void *priv, struct page *page, bool uptodate)
{
	struct oreblk_piece *piece = priv;
	struct oreblk_cache *cache = &piece->cmd->arr->cache;
	struct oreblk_cache_ent *ent = (void *)page_private(page);
	struct oreblk_cache_shard *shard = oreblk_shard(cache, ent->stripe);
	unsigned long flags;
	LIST_HEAD(dead);
	u32 c;

	spin_lock_irqsave(&shard->lock, flags);
	for (c = 0; c < cache->data_width; c++)
		if (ent->pages[c] == page)
			break;
	if (uptodate)
		__set_bit(c, &ent->uptodate);
	else
		__clear_bit(c, &ent->uptodate);
	if (!--ent->busy) {
		list_add(&ent->lru, &shard->lru);
		oreblk_shard_trim(cache, shard, &dead);
	}
	spin_unlock_irqrestore(&shard->lock, flags);
	oreblk_free_list(cache, &dead);
}

const struct ore_r4w_ops oreblk_r4w_ops = {
	.get_page = oreblk_r4w_get_page,
	.put_page = oreblk_r4w_put_page,
};

/*
 * A locked write of [@offset, @offset + @len) (page aligned, @pages[i]
 * holding @offset + i * PAGE_SIZE) is over. With @copy the new data goes
 * into the entries of its rows (the write succeeded on a partial stripe);
 * without, those pages of the entries lose their uptodate bit. Any
 * context; the caller holds the stripe locks.
 */
void oreblk_cache_written(struct oreblk_cache *cache, u64 offset, u64 len,
			  struct page **pages, bool copy)
{
	u64 end = offset + len;
	unsigned int i = 0;

	while (offset < end) {
		u64 stripe = div64_u64(offset, cache->stripe_length);
		u64 s_end = min(end, (stripe + 1) * cache->stripe_length);
		struct oreblk_cache_shard *shard = oreblk_shard(cache, stripe);
		unsigned long flags;

		spin_lock_irqsave(&shard->lock, flags);
		if (!shard->nr) {
			spin_unlock_irqrestore(&shard->lock, flags);
			i += (s_end - offset) >> PAGE_SHIFT;
			offset = s_end;
			continue;
		}
		for (; offset < s_end; offset += PAGE_SIZE, i++) {
			u64 in = offset - stripe * cache->stripe_length;
			u32 col = (u32)(in / cache->stripe_unit);
			u32 row = (u32)((in % cache->stripe_unit) >> PAGE_SHIFT);
			struct oreblk_cache_ent *ent;

			ent = oreblk_lookup(shard, stripe, row);
			if (!ent)
				continue;
			if (copy && !ent->busy) {
				copy_highpage(ent->pages[col], pages[i]);
				__set_bit(col, &ent->uptodate);
			} else {
				__clear_bit(col, &ent->uptodate);
			}
		}
		spin_unlock_irqrestore(&shard->lock, flags);
	}
}
