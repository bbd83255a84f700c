// SPDX-License-Identifier: GPL-2.0
/*
 * oreblk stripe locks. Two writes of one stripe of a parity layout must not
 * run at once (ORE takes no lock: they would race on the stripe's parity),
 * and neither may a degraded read run beside a write of the stripe it
 * rebuilds from. Every piece of a request that needs it locks the stripes
 * it touches, in ascending order (so no two pieces can wait for each
 * other), in a hash of OREBLK_LOCK_BUCKETS buckets with a spinlock each:
 * consecutive stripes fall in different buckets, and there is no lock
 * common to all I/O.
 *
 * Nothing here sleeps. A piece that finds a stripe held queues its entry
 * on the holder's waiters and returns false; when the holder releases the
 * stripe it hands it to the first waiter directly (the waiter becomes the
 * holder, the other waiters queue behind it) and queues the waiter's work,
 * which goes on locking from the next stripe and then starts the I/O.
 */
#include <linux/slab.h>
#include <linux/list.h>

#include "internal.h"

static struct oreblk_lock_bucket *oreblk_bucket(struct oreblk_locks *locks,
						u64 stripe)
{
	return &locks->buckets[stripe & (OREBLK_LOCK_BUCKETS - 1)];
}

int oreblk_locks_init(struct oreblk_locks *locks)
{
	unsigned int i;

	locks->buckets = kvcalloc(OREBLK_LOCK_BUCKETS,
				  sizeof(*locks->buckets), GFP_KERNEL);
	if (!locks->buckets)
		return -ENOMEM;
	for (i = 0; i < OREBLK_LOCK_BUCKETS; i++) {
		spin_lock_init(&locks->buckets[i].lock);
		INIT_LIST_HEAD(&locks->buckets[i].held);
	}
	atomic64_set(&locks->waits, 0);
	return 0;
}

void oreblk_locks_destroy(struct oreblk_locks *locks)
{
	unsigned int i;

	if (!locks->buckets)
		return;
	for (i = 0; i < OREBLK_LOCK_BUCKETS; i++)
		WARN_ON_ONCE(!list_empty(&locks->buckets[i].held));
	kvfree(locks->buckets);
	locks->buckets = NULL;
}

/*
 * Lock the stripes of @piece from @piece->next_stripe to its last one.
 * Returns true when all are held; false when the piece waits for a stripe:
 * its work is queued once it holds it, and it must call this again.
 */
bool oreblk_lock_stripes(struct oreblk_locks *locks,
			 struct oreblk_piece *piece)
{
	while (piece->next_stripe <= piece->last_stripe) {
		u64 s = piece->next_stripe;
		struct oreblk_lock_ent *ent = &piece->ents[s - piece->first_stripe];
		struct oreblk_lock_bucket *b = oreblk_bucket(locks, s);
		struct oreblk_lock_ent *holder = NULL, *e;
		unsigned long flags;

		ent->stripe = s;
		ent->piece = piece;
		INIT_LIST_HEAD(&ent->waiters);
		spin_lock_irqsave(&b->lock, flags);
		list_for_each_entry(e, &b->held, node) {
			if (e->stripe == s) {
				holder = e;
				break;
			}
		}
		if (holder) {
			list_add_tail(&ent->wait_node, &holder->waiters);
			spin_unlock_irqrestore(&b->lock, flags);
			atomic64_inc(&locks->waits);
			return false;
		}
		list_add(&ent->node, &b->held);
		spin_unlock_irqrestore(&b->lock, flags);
		piece->next_stripe++;
	}
	return true;
}

/*
 * Release the stripes @piece holds (those below @piece->next_stripe),
 * handing each to its first waiter. Any context.
 */
void oreblk_unlock_stripes(struct oreblk_locks *locks,
			   struct oreblk_piece *piece)
{
	u64 s;

	for (s = piece->first_stripe; s < piece->next_stripe; s++) {
		struct oreblk_lock_ent *ent = &piece->ents[s - piece->first_stripe];
		struct oreblk_lock_bucket *b = oreblk_bucket(locks, s);
		struct oreblk_piece *next = NULL;
		struct oreblk_lock_ent *w;
		unsigned long flags;

		spin_lock_irqsave(&b->lock, flags);
		list_del(&ent->node);
		w = list_first_entry_or_null(&ent->waiters,
					     struct oreblk_lock_ent, wait_node);
		if (w) {
			list_del(&w->wait_node);
			list_splice_init(&ent->waiters, &w->waiters);
			list_add(&w->node, &b->held);
			next = w->piece;
			next->next_stripe++;
		}
		spin_unlock_irqrestore(&b->lock, flags);
		if (next)
			queue_work(oreblk_wq, &next->work);
	}
	piece->next_stripe = piece->first_stripe;
}
