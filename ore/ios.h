/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ORE I/O states, shared by the files of the data path: ios.c (I/O states,
 * batches of component I/O, mapping), read.c (reads and their repair),
 * write.c (writes and parity, read-4-write), object.c (create, remove,
 * truncate, flush, length).
 *
 * ORE I/O: split a logical byte range into per-component object I/O, add
 * parity, read what a partial stripe needs (read-4-write), and rebuild what
 * a failed component cannot give back (degraded reads).
 *
 * An I/O state runs in three stages:
 *
 *  1. mapping: the logical range is walked stripe unit by stripe unit and
 *     every piece is appended to the sub-I/O of its component (struct
 *     ore_sub); contiguous pieces of one component merge into one sub-I/O.
 *     The sub-I/Os of one stage form a batch (struct ore_batch).
 *  2. submission: every sub-I/O goes to its object store; a store marked
 *     failed gets nothing and its sub-I/O counts as failed.
 *  3. completion: when the batch is over, reads with failed sub-I/Os are
 *     repaired from mirrors or parity in ore_wq; writes check that every
 *     group kept enough components; then the caller's done() runs.
 *
 * Parity writes that cover only part of a stripe are planned in the
 * writer's context (the read-4-write choice and its reads, never waiting);
 * when those reads are over, their parity and writes are finished in
 * ore_wq (ore_write_finish()), many writes per pass and under one block
 * plug, or at once when the cache held everything. While others are in
 * flight a new one starts its reads in that pass too (write.c).
 *
 * Locking: an I/O state is owned by one caller; ORE takes no lock on the
 * data path. Two I/O states writing the same stripe of a parity layout at
 * once race on its parity: the caller serializes them (exofs by page locks
 * and writeback, oreblk by its stripe locks).
 */
#ifndef _ORE_IOS_H
#define _ORE_IOS_H

#include <linux/llist.h>

#include "internal.h"

struct ore_batch;

/**
 * struct ore_io_priv - an I/O state with what only ORE sees of it
 * @ios: what the caller sees (ore_get_rw_state() hands out &@ios)
 * @pending: partial stripes of an async write whose reads are not over
 * @sync_done: completed instead of calling done() for a synchronous call
 * @work: for the repair of a read, or the finish of a write whose reads
 *	failed, in ore_wq
 * @fin_node: on its queue's list of partial-stripe writes for the next
 *	pass of the queue's finish work (write.c, ore_write_finish_queue())
 * @own_pages: pages ORE allocated for this I/O (parity, read-4-write)
 * @pstripes: the planned partial stripes of a write
 * @batch: the batch @work continues with
 * @made: @ios->oc->made when the I/O state was made (see ore_comp_optional())
 * @raise_made: a write of data (ore_write()): its success raises
 *	@ios->oc->made to its end
 * @reads_deferred: on the list to start its reads, not to finish
 * @fin_counted: counted in its finish queue's in_flight until it ends
 * @failed_mask: components that failed in this I/O
 * @untried_mask: of those, components with a sub-I/O not issued because
 *	its store was failed at the time
 * @nr_comps: entries in @comp_error
 * @comp_error: each failed component's own error
 */
struct ore_io_priv {
	struct ore_io_state ios;
	atomic_t pending;
	struct completion *sync_done;
	struct work_struct work;
	struct llist_node fin_node;
	struct list_head own_pages;
	struct list_head pstripes;
	struct ore_batch *batch;
	u64 made;
	bool raise_made;
	bool reads_deferred;
	bool fin_counted;
	unsigned long failed_mask[BITS_TO_LONGS(ORE_MAX_COMPONENTS)];
	unsigned long untried_mask[BITS_TO_LONGS(ORE_MAX_COMPONENTS)];
	u32 nr_comps;
	int comp_error[] __counted_by(nr_comps);
};

static inline struct ore_io_priv *ore_priv(struct ore_io_state *ios)
{
	return container_of(ios, struct ore_io_priv, ios);
}

/* Pages per sub-I/O before a new one is started (512 KiB). */
#define ORE_SUB_MAX_BVECS	128
/* Bytes of one component discard before a new one is started. */
#define ORE_DISCARD_SUB_MAX	SZ_1G

/* One read or write of one component object. */
struct ore_sub {
	struct ore_store_io sio;
	struct ore_batch *batch;
	struct list_head node;
	u32 comp;
	u32 cap;		/* entries in @bvec */
	bool skipped;		/* its store's state kept it: never submitted */
	bool optional;		/* ore_comp_optional(): missing = empty */
	struct bio_vec bvec[] __counted_by(cap);
};

/* The sub-I/Os of one stage of one I/O state. */
struct ore_batch {
	struct ore_io_state *ios;
	atomic_t pending;
	bool failed;
	struct list_head subs;
	void (*done)(struct ore_batch *batch);	/* NULL: complete @wait */
	struct completion wait;
	struct ore_sub **cur;			/* per component, being filled */
	u32 cap;				/* bvecs per new sub-I/O */
};

/* ios.c */
struct ore_batch *ore_batch_alloc(struct ore_io_state *ios,
				  void (*done)(struct ore_batch *batch));
void ore_batch_free(struct ore_batch *batch);
void ore_note_failure(struct ore_io_state *ios, u32 comp, u64 offset,
		      int error);
bool ore_comp_optional(struct ore_io_state *ios, u32 comp);
void ore_raise_made(struct ore_components *oc, u64 end);
int ore_made_error(struct ore_io_state *ios);
int ore_batch_add(struct ore_batch *batch, u32 comp, u64 obj_off,
		  struct page *page, u32 pgoff, u32 len, bool write);
int ore_batch_add_pages(struct ore_batch *batch, u32 comp, u64 obj_off,
			struct page **pages, unsigned int npages, bool write);
void ore_batch_submit(struct ore_batch *batch);
void ore_batch_run_sync(struct ore_batch *batch);
bool ore_comp_readable(struct ore_io_state *ios, u32 comp, u64 obj_off,
		       u64 len);
u32 ore_pick_mirror(struct ore_io_state *ios, u32 group, u32 pos,
		    u64 row, u64 obj_off, u64 len);
int ore_map_data(struct ore_batch *batch, u64 loff, u64 len,
		 struct page **pages, bool write);
int ore_map_column(struct ore_batch *batch, u32 group, u32 pos,
		   u64 obj_off, struct page **pages, unsigned int npages);
struct page *ore_own_page(struct ore_io_state *ios);
void ore_write_uncount(struct ore_io_state *ios);
int ore_own_pages(struct ore_io_state *ios, struct page **pages,
		  unsigned int n);
int ore_check_range(struct ore_io_state *ios, u64 *len);
int ore_check_stripes(const struct ore_layout *layout,
		      const struct ore_components *oc, u64 offset, u64 length,
		      const char *what);
int ore_start(struct ore_io_state *ios, struct ore_batch *batch);
int ore_start_data(struct ore_io_state *ios,
		   void (*done)(struct ore_batch *batch), u64 len,
		   struct page **pages, bool write);
void ore_ios_finish(struct ore_io_state *ios);

/* object.c */
int ore_make_reach(struct ore_io_state *ios, u64 end);

/* read.c */
bool ore_pos_dead(struct ore_io_state *ios, u32 group, u32 pos,
		  u64 obj_off, u64 len);
int ore_repair_batch(struct ore_io_state *ios, struct ore_batch *batch);

#endif /* _ORE_IOS_H */
