/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ORE - the Objects RAID Engine: the public API of ore.ko.
 *
 * A caller describes an object by a layout (&struct ore_layout) and its
 * components (&struct ore_components: which object stores hold it, under
 * which object id). It hands ORE pages for a logical byte range; ORE splits
 * them per component, computes parity, issues the I/O to each object store
 * and calls one completion when all of it is done.
 */
#ifndef _ORE_ORE_H
#define _ORE_ORE_H

#include <linux/types.h>
#include <linux/kref.h>
#include <linux/completion.h>
#include <linux/workqueue.h>
#include <linux/atomic.h>
#include <linux/bvec.h>
#include <linux/mm_types.h>
#include <ore/layout.h>

/* ---------------------------------------------------------------------
 * Object stores: the devices at the bottom of ORE.
 */

struct ore_store;
struct kstatfs;
struct file;

/**
 * struct ore_store_io - one read or write of one object store
 * @store: the store to do it on
 * @oid: object id in the store
 * @offset: byte offset in the object
 * @len: bytes to transfer, the sum of the @bvec lengths
 * @bvec: the memory, @nr_bvec entries
 * @nr_bvec: number of entries in @bvec
 * @write: true to write, false to read
 * @fua: the write must be on stable storage when it completes
 * @discard: with @write, the store may forget the range instead (no
 *	@bvec): a block store discards it where the device supports discard,
 *	a file store punches a hole; the range then reads as zeros or as its
 *	old data. A discard never fails: where it cannot be done, or the
 *	device refuses it, the data simply stays (as md treats discard)
 * @no_create: with @write, the object must exist already: a missing one
 *	fails with -ENOENT instead of being created (ORE sets it on every
 *	component write: a component created anew would read as zeros where
 *	its lost data was)
 * @restamp: with a read on a store that checksums its data
 *	(ore_bdev_store_enable_csum(), ore_file_store_enable_csum()): take
 *	what is read as right and store its checksums, instead of verifying
 *	them (the regions a crash cut writes in, before their redundancy is
 *	repaired)
 * @no_csum: on a file store that checksums its data, this request neither
 *	stores nor verifies checksums (objects with checksums of their own,
 *	rewritten in place, such as exofs' superblocks: their every access
 *	must carry it)
 * @end_io: called once when the I/O is over, possibly in interrupt context
 * @error: 0 or negative errno, set before @end_io is called; -EBADMSG for
 *	a read whose data does not match the checksums the store keeps (the
 *	data was read, into @bvec: it is wrong, the device is not broken)
 * @private: for the submitter
 * @queue: the store's, while it holds @sio
 *
 * A read beyond the end of the object completes successfully with zeros in
 * the bytes past the end (objects are sparse).
 */
struct ore_store_io {
	struct ore_store *store;
	u64 oid;
	u64 offset;
	u32 len;
	struct bio_vec *bvec;
	unsigned int nr_bvec;
	bool write;
	bool fua;
	bool discard;
	bool no_create;
	bool restamp;
	bool no_csum;
	void (*end_io)(struct ore_store_io *sio);
	int error;
	void *private;
	struct list_head queue;
};

/**
 * struct ore_store_ops - what a backend implements
 * @submit: start @sio; it always completes through @sio->end_io
 * @create: create object @oid (empty); -EEXIST if it is there
 * @remove: remove object @oid; -ENOENT if it is not there
 * @truncate: set the length of @oid to @size (creating it if needed)
 * @length: current length of @oid
 * @flush: make everything written to @oid (or to the store, @oid == 0) stable
 * @statfs: the space of what holds the store (its directory's filesystem,
 *	its block device range), for the user's statfs and ENOSPC checks;
 *	call it through ore_store_statfs()
 * @release: free the store when its last reference goes
 */
struct ore_store_ops {
	void (*submit)(struct ore_store_io *sio);
	int (*create)(struct ore_store *store, u64 oid);
	int (*remove)(struct ore_store *store, u64 oid);
	int (*truncate)(struct ore_store *store, u64 oid, u64 size);
	int (*length)(struct ore_store *store, u64 oid, u64 *len);
	int (*flush)(struct ore_store *store, u64 oid);
	int (*statfs)(struct ore_store *store, struct kstatfs *buf);
	void (*release)(struct ore_store *store);
};

/**
 * enum ore_store_state - what ORE may do with an object store
 * @ORE_STORE_IN_SYNC: every object on it is current: read and written
 * @ORE_STORE_FAILED: out of service: it gets no I/O (the backends refuse
 *	it with -EIO) and its components count as missing
 * @ORE_STORE_REBUILDING: being rebuilt (as md's rdev->recovery_offset):
 *	written like an in-sync store, but read only below
 *	&ore_store.recovery_offset (an object offset); above it, reads are
 *	served from the redundancy, as for a failed store
 */
enum ore_store_state {
	ORE_STORE_IN_SYNC,
	ORE_STORE_FAILED,
	ORE_STORE_REBUILDING,
};

/**
 * struct ore_store - an object store, embedded in the backend's own struct
 * @ops: the backend
 * @kref: references; ore_store_put() drops one
 * @state: &enum ore_store_state; ask ore_store_readable(),
 *	ore_store_writable() or ore_store_failed(); set by
 *	ore_store_set_state()
 * @recovery_offset: while rebuilding, object offsets below it are valid
 *	(ore_store_set_recovery_offset())
 * @name: for messages (path of the directory or device)
 * @nr_errors: I/O errors seen on this store
 * @nr_csum_errors: blocks read from this store that failed their checksum,
 *	counted by ORE where the caller kept writes out (the mismatch is
 *	real, not a read racing a write of the same blocks)
 * @nr_csum_repairs: of those, ranges rewritten from the redundancy
 */
struct ore_store {
	const struct ore_store_ops *ops;
	struct kref kref;
	int state;
	u64 recovery_offset;
	char name[64];
	atomic_t nr_errors;
	atomic_t nr_csum_errors;
	atomic_t nr_csum_repairs;
};

/* Backing files a file store keeps open (least recently used closed first). */
#define ORE_FILE_STORE_OPEN_MAX	1024

struct ore_store *ore_file_store_open(const char *root);
struct ore_store *ore_bdev_store_open(const char *path, u64 start, u64 len,
				      void *holder);
struct ore_store *ore_bdev_store_open_file(struct file *bdev_file, u64 start,
					   u64 len);
int ore_bdev_store_enable_csum(struct ore_store *store, u64 csum_start,
			       u32 type);
int ore_file_store_enable_csum(struct ore_store *store, u32 type);
int ore_file_store_no_heads(struct ore_store *store);
bool ore_file_store_on_nfs(struct ore_store *store);
int ore_file_store_forget(struct ore_store *store, u64 oid);
int ore_store_statfs(struct ore_store *store, struct kstatfs *buf);
struct ore_store *ore_missing_store_create(const char *name);
struct ore_store *ore_replace_store_create(struct ore_store *primary,
					   struct ore_store *secondary);
int ore_replace_store_error(struct ore_store *store);
int ore_store_io_sync(struct ore_store *store, u64 oid, u64 offset, u64 len,
		      struct page **pages, bool write, bool fua);
void ore_store_init(struct ore_store *store, const struct ore_store_ops *ops,
		    const char *name);
void ore_store_get(struct ore_store *store);
void ore_store_put(struct ore_store *store);
void ore_store_set_state(struct ore_store *store, enum ore_store_state state);
void ore_store_set_recovery_offset(struct ore_store *store, u64 offset);
bool ore_store_failed(const struct ore_store *store);
bool ore_store_writable(const struct ore_store *store);
bool ore_store_readable(const struct ore_store *store, u64 obj_off, u64 len);
bool ore_store_unbuilt(const struct ore_store *store, u64 obj_off);

/* ---------------------------------------------------------------------
 * Components: which stores hold one logical object.
 */

/**
 * struct ore_components - where the components of one object live
 * @oid: the object id, the same in every store
 * @numdevs: entries in @stores
 * @first_dev: component i is on @stores[(first_dev + i) % numdevs]
 * @stores: the object stores, in device-table order
 * @lazy: the components are made by their first write, not by
 *	ore_create(): a missing one is a hole (reads as zeros) and writes and
 *	truncates create it. Without it (the default) every component exists
 *	from ore_create() on and a missing one is lost (docs/stores.md).
 *	exofs sets it for filesystems made without
 *	EXOFS_FEATURE_RO_COMPAT_COMPONENTS.
 * @sized: (without @lazy) the components exist as far as the object's
 *	size reaches them: one that the first @made bytes reach
 *	(ore_layout_obj_size() > 0) exists and a missing one is lost; any
 *	other may be missing, and then it is empty (reads as zeros). A write
 *	or a truncate that reaches it makes it. Nothing needs ore_create().
 *	exofs sets it with EXOFS_FEATURE_RO_COMPAT_SIZED.
 * @made: with @sized, the extent whose components are known to exist:
 *	the user sets it when it sets up @oc (what it recorded as made, 0
 *	for a new object) and only ORE changes it afterwards, raising it
 *	when a write, a truncate or ore_make() has made the components up
 *	to a further end (never past one that a store in service refused).
 *	An I/O state takes the value it has when it is made.
 */
struct ore_components {
	u64 oid;
	u32 numdevs;
	u32 first_dev;
	struct ore_store **stores;
	bool lazy;
	bool sized;
	u64 made;
};

static inline struct ore_store *ore_comp_store(const struct ore_components *oc,
					       u32 comp)
{
	return oc->stores[(oc->first_dev + comp) % oc->numdevs];
}

/* ---------------------------------------------------------------------
 * I/O state.
 */

/**
 * struct ore_r4w_ops - caller's cache pages for read-4-write
 * @get_page: return the caller's page holding logical @offset (page
 *	aligned) of the object, with *@uptodate telling whether its contents
 *	are valid; return NULL to let ORE use a page of its own. If the page
 *	is not uptodate ORE reads it from the components.
 * @put_page: ORE is done with @page; @uptodate tells whether it holds the
 *	object's current data now (false when ORE chose read-modify-write and
 *	did not need the page after all, or its read failed).
 *
 * get_page is called once for each data page of a partially written stripe
 * row that the write does not cover (never for full stripes), before ORE
 * decides between read-modify-write and reconstruct-write. It runs in the
 * context of ore_write() (for oreblk: its ->submit_bio), so it must not
 * wait for I/O; put_page runs there or in ORE's workqueue.
 */
struct ore_r4w_ops {
	struct page *(*get_page)(void *priv, u64 offset, bool *uptodate);
	void (*put_page)(void *priv, struct page *page, bool uptodate);
};

struct ore_io_state;
typedef void (*ore_io_done_fn)(struct ore_io_state *ios, void *private);

/* What an I/O state does. */
enum ore_io_kind {
	ORE_IO_READ,
	ORE_IO_WRITE,
	ORE_IO_OBJECT,	/* from ore_get_io_state(): ore_create(), ore_remove() */
};

/**
 * struct ore_io_state - one operation on one object
 * @kind: what it does
 * @layout: the object's layout (verified)
 * @oc: the object's components
 * @offset: logical byte offset (page aligned)
 * @length: bytes; a read fills, and a parity write covers, whole pages
 * @pages: the memory, page i holds logical bytes offset + i * PAGE_SIZE
 * @nr_pages: entries in @pages
 * @r4w: read-4-write callbacks for partial-stripe parity writes, or NULL
 * @fua: writes must be stable when @done is called
 * @done: completion; NULL makes ore_read()/ore_write() synchronous
 * @private: passed to @done and to the @r4w callbacks
 * @rewrite_bad: the caller keeps writes of these stripes out until @done:
 *	a component whose data fails its checksum (-EBADMSG) is rebuilt from
 *	the redundancy and rewritten in place, and counted in its store's
 *	&ore_store.nr_csum_errors and nr_csum_repairs. Without it the data is
 *	rebuilt for this I/O only (@degraded set): a read that raced a write
 *	of the same blocks would see a mismatch that is none, and must not
 *	write
 *
 * Results, valid once the I/O is over:
 * @error: 0 or the first negative errno that could not be recovered
 * @degraded: at least one component could not be used; the result was
 *	reconstructed (reads) or stored without full redundancy (writes)
 * @failed_comp: the first component that failed, or -1
 * @failed_offset: object offset of that failure
 * @nr_failed: number of distinct components that failed
 * @csum_errors: component reads that failed their checksum (with or
 *	without @rewrite_bad; without it, the caller may do the I/O again
 *	with the stripes held to tell a race from a bad block)
 * @csum_comp: with @csum_errors, the first component read that failed
 *	its checksum
 * @csum_offset: its object offset
 * @nospc: a component write failed with -ENOSPC (a full store, not a
 *	broken one: the user may retry instead of failing the store). Says
 *	nothing of the other components: ore_check_io() gives each failed
 *	component its own error
 * @stats_r4w_pages: pages asked from @r4w->get_page
 * @stats_reads: component reads issued for read-4-write
 * @stats_full_stripes: stripes written whole (no reads)
 * @stats_partial_stripes: stripes written partially
 *
 * ORE allocates it inside a larger structure of its own (ore/ios.h): only
 * ore_get_rw_state() and ore_get_io_state() make one.
 */
struct ore_io_state {
	enum ore_io_kind kind;
	const struct ore_layout *layout;
	struct ore_components *oc;
	u64 offset;
	u64 length;
	struct page **pages;
	unsigned int nr_pages;
	const struct ore_r4w_ops *r4w;
	bool fua;
	ore_io_done_fn done;
	void *private;
	bool rewrite_bad;

	int error;
	bool degraded;
	int failed_comp;
	u64 failed_offset;
	u32 nr_failed;
	u32 csum_errors;
	u32 csum_comp;
	u64 csum_offset;
	bool nospc;
	u32 stats_r4w_pages;
	u32 stats_reads;
	u32 stats_full_stripes;
	u32 stats_partial_stripes;
};

int ore_verify_layout(u32 num_devs, struct ore_layout *layout);

int ore_get_rw_state(const struct ore_layout *layout,
		     struct ore_components *oc, bool is_reading,
		     u64 offset, u64 length, struct ore_io_state **pios);
int ore_get_io_state(const struct ore_layout *layout,
		     struct ore_components *oc, struct ore_io_state **pios);
void ore_put_io_state(struct ore_io_state *ios);

int ore_read(struct ore_io_state *ios);
int ore_write(struct ore_io_state *ios);
int ore_discard(struct ore_io_state *ios);
int ore_create(struct ore_io_state *ios);
int ore_remove(struct ore_io_state *ios);
int ore_truncate(const struct ore_layout *layout, struct ore_components *oc,
		 u64 size);
int ore_make(const struct ore_layout *layout, struct ore_components *oc,
	     u64 size);
int ore_make_except(const struct ore_layout *layout,
		    struct ore_components *oc, u64 size,
		    const unsigned long *skip);
int ore_flush(const struct ore_layout *layout, struct ore_components *oc);
int ore_length(const struct ore_layout *layout, struct ore_components *oc,
	       u64 *size);

typedef void (*ore_on_dev_error_fn)(struct ore_io_state *ios, u32 comp,
				    struct ore_store *store, u64 offset,
				    int error);
int ore_check_io(struct ore_io_state *ios, ore_on_dev_error_fn on_dev_error);
int ore_rebuild(const struct ore_layout *layout, struct ore_components *oc,
		u64 offset, u64 length, ore_on_dev_error_fn on_dev_error,
		void *private);
/* ore_scrub() flags */
#define ORE_SCRUB_REPAIR	(1u << 0)	/* rewrite what disagrees */
#define ORE_SCRUB_RESTAMP	(1u << 1)	/* checksums from the data read */

int ore_scrub(const struct ore_layout *layout, struct ore_components *oc,
	      u64 offset, u64 length, unsigned int flags, u64 *mismatches,
	      ore_on_dev_error_fn on_dev_error, void *private);
int ore_restamp(const struct ore_layout *layout, struct ore_components *oc,
		u64 offset, u64 length);

/* RAID6 read-modify-write of one page row (ore/raid.c; for the tests). */
void ore_pq_rmw(void **delta, unsigned int data, void *p, void *q,
		unsigned int bytes);

/* Engine-wide counters, for tests and sysfs of the users. */
struct ore_stats {
	atomic64_t ios_live;		/* I/O states allocated, not freed */
	atomic64_t full_stripes;	/* stripes written without reads */
	atomic64_t partial_stripes;	/* stripes needing read-4-write */
	atomic64_t rmw_stripes;		/* of those, read-modify-write */
	atomic64_t rcw_stripes;		/* of those, reconstruct-write */
	atomic64_t degraded_reads;	/* reads reconstructed from parity */
	atomic64_t degraded_writes;	/* writes missing a component */
	atomic64_t stores_live;		/* object stores open, not released */
	atomic64_t store_files;		/* backing files held by file stores */
	atomic64_t store_dio;		/* file store I/Os done as direct I/O */
	atomic64_t store_buffered;	/* file store I/Os done buffered */
	atomic64_t missing_comps;	/* component reads finding no object */
	atomic64_t csum_errors;		/* component reads failing their checksum */
	atomic64_t csum_repairs;	/* of those, rewritten from redundancy */
	atomic64_t batched_reads;	/* partial writes reading from a finish pass */
};

extern struct ore_stats ore_stats;

long ore_partial_writes_in_flight(void);

#endif /* _ORE_ORE_H */
