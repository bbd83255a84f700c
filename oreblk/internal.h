/* SPDX-License-Identifier: GPL-2.0 */
/*
 * oreblk internal declarations, in sections named after the file that
 * defines them.
 *
 * Lock order (outermost first):
 *   oreblk_ctl_mutex (main.c)	the list of arrays, assemble/stop
 *   oreblk_array.sync_mutex	starting and stopping the sync thread
 *   oreblk_array.sb_mutex	member states, events, superblock writes
 *   oreblk_lock_bucket.lock	stripe locks (lock.c), never held with
 *   oreblk_cache_shard.lock	a cache shard lock (cache.c)
 *   oreblk_array.hold_lock	bios held for a superblock update (array.c),
 *				nothing else is taken under it
 *   oreblk_array.dirty_lock	writes held until the superblocks say
 *				dirty (dirty.c), nothing taken under it
 *   oreblk_intent.io_mutex	one write-intent bitmap write at a time
 *				(intent.c), taken under sb_mutex or with
 *				nothing held
 *   oreblk_intent.lock		the bitmaps and held writes (intent.c),
 *				nothing taken under it
 * The spinlocks are taken with interrupts disabled: I/O completions
 * release stripe locks and update the cache from interrupt context.
 */
#ifndef _OREBLK_INTERNAL_H
#define _OREBLK_INTERNAL_H

#include <linux/blkdev.h>
#include <linux/mempool.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/srcu.h>
#include <linux/workqueue.h>
#include <ore/ore.h>
#include <oreblk/sb.h>

#define OREBLK_MINORS		16		/* partitions per array */
#define OREBLK_MIN_CMDS		16		/* mempool reserve of bios in flight */
#define OREBLK_LOCK_BUCKETS	1024		/* stripe lock hash, power of 2 */
#define OREBLK_CACHE_SHARDS	16		/* stripe cache shards, power of 2 */
#define OREBLK_CACHE_HASH	64		/* hash buckets per shard */
#define OREBLK_CACHE_DEFAULT	512		/* stripe_cache_size, entries */
#define OREBLK_CACHE_MAX	65536		/* largest stripe_cache_size */
#define OREBLK_MAX_DISCARD	SZ_256M		/* largest discard bio */

struct oreblk_array;
struct oreblk_piece;
struct oreblk_intent;

/* ---------------------------------------------------------------------
 * lock.c: per-stripe locks, so that two writes of one stripe never race
 * on its parity. A stripe is U = data_width * stripe_unit logical bytes;
 * stripe s covers [s * U, (s + 1) * U). A piece of a bio locks its
 * stripes in ascending order; a stripe that is held makes the piece wait
 * (asynchronously) on the holder, which hands the stripe over when it
 * releases it.
 */

/**
 * struct oreblk_lock_ent - one stripe locked (or waited for) by a piece
 * @node: in the bucket's @held list while this entry holds the stripe
 * @wait_node: in the holder's @waiters while this entry waits
 * @waiters: entries waiting for this stripe, first come first served
 * @stripe: the stripe number
 * @piece: the piece this entry belongs to
 */
struct oreblk_lock_ent {
	struct list_head node;
	struct list_head wait_node;
	struct list_head waiters;
	u64 stripe;
	struct oreblk_piece *piece;
};

/**
 * struct oreblk_lock_bucket - stripes whose number hashes here
 * @lock: protects @held and the @waiters of its entries
 * @held: entries holding a stripe
 */
struct oreblk_lock_bucket {
	spinlock_t lock;
	struct list_head held;
};

struct oreblk_locks {
	struct oreblk_lock_bucket *buckets;	/* OREBLK_LOCK_BUCKETS */
	atomic64_t waits;			/* acquisitions that waited */
};

int oreblk_locks_init(struct oreblk_locks *locks);
void oreblk_locks_destroy(struct oreblk_locks *locks);
bool oreblk_lock_stripes(struct oreblk_locks *locks,
			 struct oreblk_piece *piece);
void oreblk_unlock_stripes(struct oreblk_locks *locks,
			   struct oreblk_piece *piece);

/* ---------------------------------------------------------------------
 * cache.c: the stripe cache serving ORE's read-4-write callbacks. An entry
 * is one page row of one stripe (page j of every data column), as md's
 * stripe_head is; the cache holds at most stripe_cache_size entries.
 * Entries of stripe s are only looked at by the holder of stripe s's lock
 * (and by eviction, which takes idle entries only).
 */

/**
 * struct oreblk_cache_ent - one cached page row
 * @hnode: in the shard's hash, by @stripe
 * @lru: in the shard's @lru while idle
 * @stripe: stripe number
 * @row: page row inside the stripe unit (0 .. stripe_unit / PAGE_SIZE - 1)
 * @busy: pages lent to ORE and not returned yet
 * @uptodate: bit c: @pages[c] holds the current data of column c
 * @pages: one page per data column
 */
struct oreblk_cache_ent {
	struct hlist_node hnode;
	struct list_head lru;
	u64 stripe;
	u32 row;
	u32 busy;
	unsigned long uptodate;
	struct page *pages[];
};

/**
 * struct oreblk_cache_shard - the entries of stripes s with s % SHARDS ==
 *	this shard's number
 * @lock: protects everything here and the fields of the entries
 * @hash: entries by stripe number
 * @lru: idle entries, most recently used first
 * @nr: entries allocated
 * @max: entries allowed
 */
struct oreblk_cache_shard {
	spinlock_t lock;
	struct hlist_head hash[OREBLK_CACHE_HASH];
	struct list_head lru;
	unsigned int nr;
	unsigned int max;
};

struct oreblk_cache {
	struct oreblk_cache_shard shards[OREBLK_CACHE_SHARDS];
	unsigned int size;	/* stripe_cache_size (entries) */
	u32 data_width;
	u32 rows;		/* page rows per stripe unit */
	u64 stripe_length;	/* U */
	u32 stripe_unit;
	atomic64_t hits;	/* r4w pages found uptodate */
	atomic64_t misses;	/* r4w pages not found or not uptodate */
};

void oreblk_cache_init(struct oreblk_cache *cache,
		       const struct ore_layout *layout, unsigned int size);
void oreblk_cache_destroy(struct oreblk_cache *cache);
void oreblk_cache_resize(struct oreblk_cache *cache, unsigned int size);
unsigned long oreblk_cache_active(struct oreblk_cache *cache);
void oreblk_cache_written(struct oreblk_cache *cache, u64 offset, u64 len,
			  struct page **pages, bool copy);
extern const struct ore_r4w_ops oreblk_r4w_ops;

/* ---------------------------------------------------------------------
 * blk.c: the block device (bio based) and its data path.
 */

/* Largest piece count of one bio: a partial head, full middle, tail. */
#define OREBLK_MAX_PIECES	3

/**
 * struct oreblk_piece - part of a bio done by one ORE I/O state
 * @cmd: the bio it belongs to
 * @offset: logical byte offset
 * @length: bytes
 * @pages: its pages (into the bio's page array)
 * @nr_pages: entries in @pages
 * @first_stripe: first stripe locked
 * @last_stripe: last stripe locked
 * @next_stripe: next stripe to lock
 * @ents: lock entries, one per stripe from @first_stripe
 * @locked: takes stripe locks
 * @partial: a write covering part of a stripe (uses the stripe cache)
 * @retried: a read redone under stripe locks
 * @ios: the ORE I/O state while the I/O runs
 * @work: starts the piece from process context (after a lock handover)
 */
struct oreblk_piece {
	struct oreblk_cmd *cmd;
	u64 offset;
	u64 length;
	struct page **pages;
	unsigned int nr_pages;
	u64 first_stripe;
	u64 last_stripe;
	u64 next_stripe;
	struct oreblk_lock_ent *ents;
	bool locked;
	bool partial;
	bool retried;
	struct ore_io_state *ios;
	struct work_struct work;
};

/**
 * struct oreblk_cmd - one bio being served (from the array's mempool)
 * @arr: the array
 * @bio: the bio
 * @start_time: for I/O accounting
 * @offset: logical byte offset of the bio
 * @length: bytes
 * @write: a write
 * @pages: page i holds logical bytes @offset + i * PAGE_SIZE
 * @ents: stripe lock entries for the pieces
 * @pieces: the parts
 * @nr_pieces: parts in use
 * @pending: parts not finished, plus one while starting
 * @error: first error of a part
 * @bounce: @pages are the driver's own (the bio's memory was not made of
 *	whole pages): copied in before writes, out after reads
 * @work: runs the cache flush of a REQ_PREFLUSH bio, then its data
 * @held: in &oreblk_array.held while its end waits for a member failure
 *	to reach the superblocks (or in a list of dirty.c or intent.c while
 *	its start waits)
 * @intent: counted in the write-intent regions it writes (intent.c)
 * @srcu_idx: its read side of &oreblk_array.store_srcu, from its start to
 *	its end
 *
 * @pages and @ents live in the same allocation, after the struct.
 */
struct oreblk_cmd {
	struct oreblk_array *arr;
	struct bio *bio;
	unsigned long start_time;
	u64 offset;
	u64 length;
	bool write;
	struct page **pages;
	struct oreblk_lock_ent *ents;
	struct oreblk_piece pieces[OREBLK_MAX_PIECES];
	unsigned int nr_pieces;
	atomic_t pending;
	int error;
	bool bounce;
	struct work_struct work;
	struct list_head held;
	bool intent;
	int srcu_idx;
};

int oreblk_disk_create(struct oreblk_array *arr);
void oreblk_disk_destroy(struct oreblk_array *arr);
void oreblk_piece_start_work(struct work_struct *work);
void oreblk_cmd_end(struct oreblk_cmd *cmd);
void oreblk_cmd_dispatch(struct oreblk_cmd *cmd);

/* ---------------------------------------------------------------------
 * array.c: assembling, members, superblocks, failures.
 */

/* Bits of &oreblk_member.flags */
enum {
	OREBLK_M_MISSING,	/* not there at assembly; stand-in store */
	OREBLK_M_FAULTY,	/* failed while running */
	OREBLK_M_FAIL_PENDING,	/* failed, superblocks not written yet */
	OREBLK_M_REBUILDING,	/* a new device, being rebuilt (recover.c) */
	OREBLK_M_REPLACING,	/* being copied onto a new device (recover.c) */
};

/* A store (and its device) replaced while the array runs (array.c). */
struct oreblk_retired {
	struct list_head node;
	struct ore_store *store;
	struct file *file;
};

/* What the sync thread does (&oreblk_array.sync_action), md's words. */
enum oreblk_sync_action {
	OREBLK_SYNC_IDLE,	/* nothing runs */
	OREBLK_SYNC_RESYNC,	/* repair every stripe after an unclean stop */
	OREBLK_SYNC_RECOVER,	/* rebuild a new member */
	OREBLK_SYNC_CHECK,	/* count the stripes that disagree */
	OREBLK_SYNC_REPAIR,	/* count them and rewrite their redundancy */
	OREBLK_SYNC_REPLACE,	/* copy a member onto a new device (sysfs:
				 * "recover", as md says) */
};

/*
 * Steps of a rebuild in flight at once, at most (one for the other
 * actions); fewer when their pages would pass OREBLK_RECOVER_MEM.
 */
#define OREBLK_RECOVER_DEPTH	4
#define OREBLK_RECOVER_MEM	SZ_32M

/**
 * struct oreblk_sync_step - stripes the sync thread holds for one step
 * @arr: the array
 * @piece: the stripe locks
 * @handover: completed when a stripe the step waited for is handed over
 * @work: a rebuild step's ore_rebuild(), which runs from oreblk_sync_wq
 *	while the thread locks the next step's stripes
 * @done: completed when @work is over (its stripes released)
 * @from: the member's data offset of the step
 * @loff: logical offset of its first stripe
 * @rows: the member's rows (stripes) in the step
 * @err: what @work returned
 */
struct oreblk_sync_step {
	struct oreblk_array *arr;
	struct oreblk_piece piece;
	struct completion handover;
	struct work_struct work;
	struct completion done;
	u64 from;
	u64 loff;
	u64 rows;
	int err;
};

/**
 * struct oreblk_recovery - one run of the sync thread (recover.c): the
 *	rebuild of a member, or a resync, check or repair of the array
 * @action: what it does (not OREBLK_SYNC_IDLE)
 * @member: the member being rebuilt (OREBLK_SYNC_RECOVER)
 * @done: bytes done: of the member's data range (its recovery offset)
 *	for a rebuild, of the array (a multiple of the stripe length) else
 * @mismatches: pages found to disagree so far (ore_scrub())
 * @task: the thread (a reference held)
 * @max_rows: stripe rows per step
 * @pages: the buffer of one step
 * @nr_pages: entries in @pages
 * @depth: steps a rebuild runs at once (the other actions: 1)
 * @steps: the stripe locks of the steps in flight, @depth of them
 * @new_file: OREBLK_SYNC_REPLACE: the new device, opened
 * @new_store: OREBLK_SYNC_REPLACE: its block store
 * @old_store: OREBLK_SYNC_REPLACE: the member's store before the replace,
 *	with the member's reference (the member's store is the replacement
 *	store, ore_replace_store_create(), while it runs)
 * @new_path: OREBLK_SYNC_REPLACE: the new device's path
 * @old_path: OREBLK_SYNC_REPLACE: the old device's path
 */
struct oreblk_recovery {
	enum oreblk_sync_action action;
	u32 member;
	u64 done;
	u64 mismatches;
	struct task_struct *task;
	u64 max_rows;
	struct page **pages;
	unsigned int nr_pages;
	unsigned int depth;
	struct oreblk_sync_step steps[OREBLK_RECOVER_DEPTH];
	struct file *new_file;
	struct ore_store *new_store;
	struct ore_store *old_store;
	char new_path[OREBLK_PATH_LEN];
	char old_path[OREBLK_PATH_LEN];
};

/**
 * struct oreblk_member - one member device
 * @store: the ORE block store over its data range, or the stand-in
 *	(ore_missing_store_create()) for a missing member
 * @sb_file: the device, opened once: superblock I/O, and the block store
 *	shares it (ore_bdev_store_open_file()); NULL when missing
 * @uuid: the member's uuid
 * @path: device path, "" when missing
 * @flags: OREBLK_M_* bits
 */
struct oreblk_member {
	struct ore_store *store;
	struct file *sb_file;
	u8 uuid[OREBLK_UUID_SIZE];
	char path[OREBLK_PATH_LEN];
	unsigned long flags;
};

/**
 * struct oreblk_array - one running array, /dev/oreblkN
 * @node: in the list of arrays (main.c)
 * @index: N
 * @disk: the gendisk
 * @cmd_pool: struct oreblk_cmd allocations (with their arrays)
 * @inflight: bios being served (the queue does not count them)
 * @layout: the ORE layout (verified)
 * @oc: the ORE components: @stores by member index
 * @stores: store of each member
 * @nr_members: members (== @layout.num_comps)
 * @members: by member index
 * @uuid: array uuid
 * @name: array name
 * @array_size: logical bytes
 * @data_offset: data range start on every member
 * @data_size: data range length on every member
 * @ctime: creation time
 * @sb_mutex: protects @events, member state changes and superblock writes
 * @events: events counter of the superblocks in service
 * @nr_failed: members faulty or missing
 * @fail_work: records member failures (superblocks) from process context
 * @sb_page: the page superblocks are built in (under @sb_mutex), allocated
 *	at assembly so that recording a failure needs no memory
 * @hold_lock: protects @fail_seq, @sb_seq, @held and OREBLK_M_FAIL_PENDING
 * @fail_seq: member failures so far
 * @sb_seq: @fail_seq as of the last superblock update that completed:
 *	while they differ, a failure is not on disk yet and bios that end
 *	wait in @held (as md holds them while MD_SB_CHANGE_PENDING)
 * @held: commands whose bio ends once the superblocks are written
 * @redundant: the layout has parity or mirrors: writes take stripe locks
 * @max_bytes: largest bio served whole (larger ones are split)
 * @max_pages: pages of a bio of @max_bytes
 * @max_ents: stripe lock entries such a bio may need
 * @locks: stripe locks
 * @cache: stripe cache
 * @stopping: no new opens
 * @retired: stores (and devices) taken out of the array while it runs
 *	(struct oreblk_retired), released after a grace period of
 *	@store_srcu (oreblk_release_retired())
 * @store_srcu: the members' stores and devices may be used outside
 *	@sb_mutex (by commands, from their start to their end; by the
 *	readers of their counters) in its read side; one taken out of the
 *	array is released only after a grace period
 * @sync_mutex: protects @recovery and @sync_closed: starting and stopping
 *	the sync thread
 * @recovery: the last sync run started, or NULL
 * @sync_closed: the array is stopping: no sync thread starts any more
 * @sync_action: what the sync thread does now, OREBLK_SYNC_IDLE when
 *	none runs (for sysfs)
 * @sync_done: &oreblk_recovery.done of the run (for sysfs)
 * @sync_total: what @sync_done goes up to
 * @sync_mark: (jiffies, @sync_done) pairs, the older one at [0], for
 *	sysfs sync_speed (updated every OREBLK_SYNC_MARK_MS)
 * @mismatches: pages found to disagree by the last resync, check or
 *	repair (sysfs mismatch_cnt shows sectors)
 * @sync_speed_min: rate of the sync thread while user I/O is active, in
 *	KiB/s, 0 for no yielding (sysfs)
 * @sync_speed_max: its rate limit otherwise, KiB/s, 0 for none (sysfs)
 * @last_io: jiffies of the last bio submitted to the disk (user activity)
 * @sync_checkpoint: the rebuilt (and flushed) bytes of the member being
 *	rebuilt that its superblock records (under @sb_mutex)
 * @dirty_lock: protects @dirty_state and @dirty_held
 * @dirty_state: OREBLK_DIRTY_*: may writes go to the members?
 * @dirty_held: commands of writes waiting for the superblocks to say dirty
 * @dirty_work: writes those superblocks, then starts the held writes
 * @sb_dirty: the superblocks in service say OREBLK_SB_ST_DIRTY, from
 *	@sb_resync_offset on (under @sb_mutex)
 * @sb_resync_offset: see @sb_dirty
 * @intent: the write-intent bitmap (OREBLK_CONSISTENCY_INTENT), or NULL
 *	(OREBLK_CONSISTENCY_RESYNC)
 * @resync_pending: the redundancy may disagree from @resync_pos on: a
 *	resync is due (found dirty at assembly and not done yet; under
 *	@sb_mutex)
 * @resync_pos: see @resync_pending; a multiple of the stripe length
 * @csum: the members keep checksums of their data, OREBLK_CSUM_CRC32C or
 *	OREBLK_CSUM_XXH64 (0: none), in the region at @csum_offset
 * @csum_offset: see @csum
 */
struct oreblk_array {
	struct list_head node;
	int index;
	struct gendisk *disk;
	mempool_t *cmd_pool;
	atomic_t inflight;
	struct ore_layout layout;
	struct ore_components oc;
	struct ore_store **stores;
	u32 nr_members;
	struct oreblk_member *members;
	u8 uuid[OREBLK_UUID_SIZE];
	char name[OREBLK_NAME_LEN];
	u64 array_size;
	u64 data_offset;
	u64 data_size;
	u64 ctime;
	struct mutex sb_mutex;
	u64 events;
	atomic_t nr_failed;
	struct work_struct fail_work;
	struct page *sb_page;
	spinlock_t hold_lock;
	unsigned long fail_seq;
	unsigned long sb_seq;
	struct list_head held;
	bool redundant;
	u32 max_bytes;
	u32 max_pages;
	u32 max_ents;
	struct oreblk_locks locks;
	struct oreblk_cache cache;
	bool stopping;
	struct list_head retired;
	struct srcu_struct store_srcu;
	struct mutex sync_mutex;	/* @recovery, @sync_closed */
	struct oreblk_recovery *recovery;
	bool sync_closed;
	enum oreblk_sync_action sync_action;
	u64 sync_done;
	u64 sync_total;
	struct {
		unsigned long time;
		u64 done;
	} sync_mark[2];
	u64 mismatches;
	unsigned int sync_speed_min;
	unsigned int sync_speed_max;
	unsigned long last_io;
	u64 sync_checkpoint;
	spinlock_t dirty_lock;		/* @dirty_state, @dirty_held */
	int dirty_state;
	struct list_head dirty_held;
	struct work_struct dirty_work;
	bool sb_dirty;
	u64 sb_resync_offset;
	struct oreblk_intent *intent;
	bool resync_pending;
	u64 resync_pos;
	u32 csum;
	u64 csum_offset;
};

int oreblk_assemble(struct oreblk_ctl_assemble *ca, char *paths,
		    struct oreblk_array **parr);
void oreblk_array_free(struct oreblk_array *arr);
void oreblk_member_failed(struct oreblk_array *arr, u32 member, u64 offset,
			  int error);
void oreblk_store_failed(struct oreblk_array *arr, u32 comp,
			 struct ore_store *store, u64 offset, int error);
bool oreblk_hold_for_sb(struct oreblk_array *arr, struct oreblk_cmd *cmd);
int oreblk_fail_member(struct oreblk_array *arr, u32 member, char *msg);
bool oreblk_array_viable(struct oreblk_array *arr, const unsigned long *lost);
struct ore_store *oreblk_open_store(struct oreblk_array *arr,
				    struct file *file);
bool oreblk_member_in_service(const struct oreblk_member *m);
void oreblk_fill_detail(struct oreblk_array *arr,
			struct oreblk_ctl_detail *cd);
void oreblk_write_sbs(struct oreblk_array *arr);
void oreblk_write_sbs_state(struct oreblk_array *arr);
void oreblk_retire_store(struct oreblk_array *arr, struct ore_store *store,
			 struct file *file);
void oreblk_release_retired(struct oreblk_array *arr);
int oreblk_sb_write(struct file *bdev_file, struct page *page);
int oreblk_remove_member(struct oreblk_array *arr, u32 member, char *msg);
__printf(2, 3) void oreblk_msg(char *msg, const char *fmt, ...);

/* ---------------------------------------------------------------------
 * recover.c: the sync thread: a new member and its rebuild; resync,
 * check and repair of the array.
 */
#define OREBLK_SYNC_SPEED_MIN	1000	/* KiB/s, md's speed_limit_min */
#define OREBLK_SYNC_IDLE_MS	250	/* user I/O this recent: active */
#define OREBLK_SYNC_MARK_MS	3000	/* sync_speed averaging step */

int oreblk_add_member(struct oreblk_array *arr, struct oreblk_ctl_add *ca);
int oreblk_replace_member(struct oreblk_array *arr,
			  struct oreblk_ctl_replace *cr);
void oreblk_recovery_stop(struct oreblk_array *arr);
void oreblk_sync_close(struct oreblk_array *arr);
int oreblk_recovery_resume(struct oreblk_array *arr);
void oreblk_recovery_free(struct oreblk_recovery *rc);
int oreblk_sync_request(struct oreblk_array *arr,
			enum oreblk_sync_action action);
const char *oreblk_sync_action_name(enum oreblk_sync_action action);

/* ---------------------------------------------------------------------
 * dirty.c: the dirty state in the superblocks.
 */
/* &oreblk_array.dirty_state */
enum {
	OREBLK_DIRTY_CLEAN,	/* the superblocks do not say dirty yet */
	OREBLK_DIRTY_MARKING,	/* they are being written to say so */
	OREBLK_DIRTY_ON,	/* they say dirty (from 0): writes go */
};

void oreblk_dirty_init(struct oreblk_array *arr);
bool oreblk_dirty_hold(struct oreblk_array *arr, struct oreblk_cmd *cmd);
void oreblk_dirty_clean_stop(struct oreblk_array *arr);

/* ---------------------------------------------------------------------
 * intent.c: the write-intent bitmap (OREBLK_CONSISTENCY_INTENT).
 */

/**
 * struct oreblk_intent - the write-intent bitmap of an array
 * @arr: the array
 * @region: logical bytes per bit
 * @offset: byte offset of the bitmap on every member
 * @nr_bits: bits (regions)
 * @lock: protects @pending, @ondisk, @want, @touched, @held, @set_queued
 * @pending: writes counted in each region (oreblk_intent_hold() to
 *	oreblk_intent_end())
 * @ondisk: bits on stable storage on every member in service; a write
 *	starts only when all of its bits are here
 * @want: bits held writes wait for, and bits set ahead
 * @touched: regions counted in since the last clear pass
 * @held: commands waiting for their bits
 * @set_queued: @set_work is queued or running for @held
 * @io_mutex: one bitmap write at a time; protects @page, @image_bits,
 *	@clear_bits, @bios
 * @image_bits: the bits being written
 * @clear_bits: the bits a clear pass clears
 * @found: the union of the members' bitmaps at assembly
 * @ahead: bits set ahead of a write (oreblk_intent_look_ahead()) that no
 *	write has reached since: cleared without a flush
 * @bits: the allocation of the seven bitmaps
 * @page: the image written to the members
 * @bios: one per member, for a bitmap write
 * @set_work: writes the wanted bits, starts the held writes
 * @clear_work: clears the bits of idle regions
 * @stopping: no more clear passes
 * @writes: bitmap writes so far (sysfs intent_writes)
 * @held_writes: writes that waited for a bitmap write (sysfs)
 * @replayed: regions repaired at assembly
 * @replay_mismatches: pages that disagreed in them
 */
struct oreblk_intent {
	struct oreblk_array *arr;
	u64 region;
	u64 offset;
	u32 nr_bits;
	spinlock_t lock;		/* the bitmaps, @held */
	u32 *pending;
	unsigned long *ondisk;
	unsigned long *want;
	unsigned long *touched;
	struct list_head held;
	bool set_queued;
	struct mutex io_mutex;		/* one bitmap write at a time */
	unsigned long *image_bits;
	unsigned long *clear_bits;
	unsigned long *found;
	unsigned long *ahead;
	unsigned long *bits;
	struct page *page;
	struct bio **bios;
	struct work_struct set_work;
	struct delayed_work clear_work;
	bool stopping;
	atomic64_t writes;
	atomic64_t held_writes;
	u32 replayed;
	u64 replay_mismatches;
};

int oreblk_intent_create(struct oreblk_array *arr, const struct oreblk_sb *sb);
u32 oreblk_intent_read(struct oreblk_array *arr);
int oreblk_intent_restamp(struct oreblk_array *arr);
int oreblk_intent_replay(struct oreblk_array *arr);
bool oreblk_intent_hold(struct oreblk_array *arr, struct oreblk_cmd *cmd);
void oreblk_intent_end(struct oreblk_array *arr, struct oreblk_cmd *cmd);
void oreblk_intent_rewrite(struct oreblk_array *arr);
int oreblk_intent_clean(struct oreblk_array *arr);
u32 oreblk_intent_dirty_regions(struct oreblk_array *arr);
void oreblk_intent_free(struct oreblk_array *arr);

/* ---------------------------------------------------------------------
 * sysfs.c: /sys/block/oreblkN/ore/
 */
extern const struct attribute_group *oreblk_attr_groups[];

/* ---------------------------------------------------------------------
 * main.c
 */
extern struct workqueue_struct *oreblk_wq;
extern struct workqueue_struct *oreblk_sync_wq;
extern int oreblk_major;

#endif /* _OREBLK_INTERNAL_H */
