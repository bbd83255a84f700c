// SPDX-License-Identifier: GPL-2.0
/*
 * A per-CPU cache of the pages ORE uses for itself: parity, and the reads
 * of read-4-write and of degraded rebuilds. Such a page lives for one I/O;
 * with init_on_alloc (Debian's default) every fresh page is zeroed first,
 * which costs about as much as computing its parity. md keeps its stripe
 * pages for the same reason. Each CPU keeps up to ore_page_cache_pages
 * free pages; nothing else holds memory, and module exit frees them all.
 */
#include <linux/module.h>
#include <linux/mm.h>
#include <linux/percpu.h>
#include <linux/local_lock.h>

#include "internal.h"

#define ORE_PAGE_CACHE_MAX	1024

static unsigned int ore_page_cache_pages = 256;
module_param_named(page_cache_pages, ore_page_cache_pages, uint, 0444);
MODULE_PARM_DESC(page_cache_pages,
		 "free pages kept per CPU for parity and reads (max 1024)");

struct ore_page_cache {
	local_lock_t lock;	/* protects the two fields below */
	unsigned int nr;
	struct page **pages;	/* ore_page_cache_pages entries */
};

static DEFINE_PER_CPU(struct ore_page_cache, ore_pcp) = {
	.lock = INIT_LOCAL_LOCK(lock),
};

/* A page for ORE's own use, from this CPU's cache or the allocator. */
struct page *ore_page_get(gfp_t gfp)
{
	struct ore_page_cache *pc;
	struct page *page = NULL;
	unsigned long flags;

	local_lock_irqsave(&ore_pcp.lock, flags);
	pc = this_cpu_ptr(&ore_pcp);
	if (pc->nr)
		page = pc->pages[--pc->nr];
	local_unlock_irqrestore(&ore_pcp.lock, flags);
	return page ? page : alloc_page(gfp);
}

/* Give a page from ore_page_get() back (any context). */
void ore_page_put(struct page *page)
{
	struct ore_page_cache *pc;
	unsigned long flags;

	local_lock_irqsave(&ore_pcp.lock, flags);
	pc = this_cpu_ptr(&ore_pcp);
	if (pc->pages && pc->nr < ore_page_cache_pages) {
		pc->pages[pc->nr++] = page;
		page = NULL;
	}
	local_unlock_irqrestore(&ore_pcp.lock, flags);
	if (page)
		__free_page(page);
}

/**
 * ore_page_get_bulk() - fill @pages with @n pages for ORE's own use
 * @pages: receives the pages
 * @n: how many
 * @gfp: for the allocator, when this CPU's cache runs out
 *
 * As @n calls of ore_page_get(), with the cache's lock taken once.
 *
 * Return: how many pages were filled in (@n, or fewer when the allocator
 * failed: the first ones are set).
 */
unsigned int ore_page_get_bulk(struct page **pages, unsigned int n, gfp_t gfp)
{
	struct ore_page_cache *pc;
	unsigned long flags;
	unsigned int i = 0;

	local_lock_irqsave(&ore_pcp.lock, flags);
	pc = this_cpu_ptr(&ore_pcp);
	while (i < n && pc->nr)
		pages[i++] = pc->pages[--pc->nr];
	local_unlock_irqrestore(&ore_pcp.lock, flags);
	for (; i < n; i++) {
		pages[i] = alloc_page(gfp);
		if (!pages[i])
			break;
	}
	return i;
}

/**
 * ore_page_put_list() - give back every page on @list (linked by lru)
 * @list: pages from ore_page_get() or ore_page_get_bulk(); emptied
 *
 * As ore_page_put() for each, with the cache's lock taken once; any
 * context.
 */
void ore_page_put_list(struct list_head *list)
{
	struct ore_page_cache *pc;
	struct page *page, *next;
	unsigned long flags;

	local_lock_irqsave(&ore_pcp.lock, flags);
	pc = this_cpu_ptr(&ore_pcp);
	list_for_each_entry_safe(page, next, list, lru) {
		if (!pc->pages || pc->nr >= ore_page_cache_pages)
			break;
		list_del(&page->lru);
		pc->pages[pc->nr++] = page;
	}
	local_unlock_irqrestore(&ore_pcp.lock, flags);
	list_for_each_entry_safe(page, next, list, lru) {
		list_del(&page->lru);
		__free_page(page);
	}
}

int ore_pages_init(void)
{
	int cpu;

	ore_page_cache_pages = min(ore_page_cache_pages, ORE_PAGE_CACHE_MAX);
	for_each_possible_cpu(cpu) {
		struct ore_page_cache *pc = per_cpu_ptr(&ore_pcp, cpu);

		pc->pages = kcalloc(max(ore_page_cache_pages, 1u),
				    sizeof(*pc->pages), GFP_KERNEL);
		if (!pc->pages) {
			ore_pages_exit();
			return -ENOMEM;
		}
	}
	return 0;
}

/* At module exit, when no I/O runs: free every cached page. */
void ore_pages_exit(void)
{
	int cpu;

	for_each_possible_cpu(cpu) {
		struct ore_page_cache *pc = per_cpu_ptr(&ore_pcp, cpu);

		while (pc->nr)
			__free_page(pc->pages[--pc->nr]);
		kfree(pc->pages);
		pc->pages = NULL;
	}
}
