/* SPDX-License-Identifier: GPL-2.0 */
/*
 * exofs: a POSIX filesystem whose every inode is an object striped by ORE
 * over N object stores. Internal declarations, in sections named after the
 * file that defines them. The on-disk format is include/exofs/exofs_fs.h, its checks
 * exofs/format.c (include/exofs/format.h).
 *
 * Locks, outermost first:
 *   i_rwsem of a directory, then of its children (VFS rules)
 *   &exofs_sb_info.alloc_mutex	- the inode bitmap search and the counters
 *				  s_next_ino / s_used_inodes
 *   folio lock of an inode table or bitmap page - the records/bits in it
 *   &exofs_i_info.wlock (spinlock) - the inode's in-flight parity writes
 *				  (&exofs_i_info.wb_list, .wb_nr, .wb_excl)
 *   &exofs_sb_info.sb_mutex - the reference superblock in sb_buf and its
 *				  writes to the stores; never held with
 *				  alloc_mutex (the counters are read before):
 *				  exofs_sb_work() takes it while it holds
 *				  writes that may be awaited under alloc_mutex
 *   &exofs_sb_info.fail_lock (spinlock) - failures not yet recorded and
 *				  the writes held until they are
 *
 * &exofs_sb_info.rebuild_mutex (taking a store in, starting and stopping
 * the rebuild) is outermost: it is held while superblocks are written. The
 * rebuild thread takes no lock above; it holds one inode's i_rwsem at a
 * time (no directory of it), as truncate does.
 */
#ifndef _EXOFS_EXOFS_H
#define _EXOFS_EXOFS_H

#include <linux/fs.h>
#include <linux/kobject.h>
#include <linux/mutex.h>
#include <linux/path.h>
#include <linux/pagemap.h>
#include <linux/uuid.h>
#include <ore/ore.h>
#include <exofs/format.h>

#define EFSCORRUPTED	EUCLEAN		/* as ext4 and xfs spell it */

/* Largest ORE write issued by writeback, before rounding to stripes */
#define EXOFS_WB_MAX_BYTES	(4U << 20)
/* ...and the hard cap in pages when one stripe is bigger than that */
#define EXOFS_WB_MAX_PAGES	16384U
/* Most links of one inode (subdirectories of a directory + 2) */
#define EXOFS_LINK_MAX		65000
/* write() fails with -ENOSPC when a store has less free space than this */
#define EXOFS_SPACE_RESERVE	(4ULL << 20)
/* below this much free space on a store, every write() asks statfs */
#define EXOFS_SPACE_LOW		(256ULL << 20)

/* Why a store is not in service (&exofs_store.state). */
enum exofs_store_state {
	EXOFS_STORE_OK,		/* in service */
	EXOFS_STORE_MISSING,	/* not given, not openable or no superblock */
	EXOFS_STORE_CORRUPT,	/* its superblock failed a check */
	EXOFS_STORE_STALE,	/* its superblock has an older s_event */
	EXOFS_STORE_FAILED,	/* failed while mounted (I/O error) */
	/* a replacement being rebuilt: written, not read (rebuild.c) */
	EXOFS_STORE_REBUILDING,
};

/**
 * struct exofs_store - one store of the mounted filesystem
 * @path: the directory given in stores=, or NULL for "missing"
 * @state: &enum exofs_store_state
 * @event: s_event of its superblock when read at mount
 * @why: for CORRUPT, what check failed (static string)
 */
struct exofs_store {
	char *path;
	int state;
	u64 event;
	const char *why;
};

/**
 * struct exofs_counters - figures shown in /sys/fs/exofs/<uuid>/
 * @write_ios: ORE writes issued by writeback
 * @read_ios: ORE reads issued by read_folio/readahead
 * @full_stripes: stripes written whole (no read-4-write)
 * @partial_stripes: stripes written partially
 * @r4w_pages: pages ORE asked from the page cache for read-4-write
 * @r4w_hits: of those, served uptodate from the page cache
 * @r4w_reads: component reads ORE issued for read-4-write
 * @degraded_ios: I/Os that completed without a component
 * @write_errors: writes that failed
 * @read_errors: reads that failed
 * @csum_unrepaired: component reads that failed their checksum and could
 *	not be rewritten (read-only, degraded, no memory)
 */
struct exofs_counters {
	atomic64_t write_ios;
	atomic64_t read_ios;
	atomic64_t full_stripes;
	atomic64_t partial_stripes;
	atomic64_t r4w_pages;
	atomic64_t r4w_hits;
	atomic64_t r4w_reads;
	atomic64_t degraded_ios;
	atomic64_t write_errors;
	atomic64_t read_errors;
	atomic64_t csum_unrepaired;
};

/* What the rebuild thread did last (&exofs_rebuild.state). */
enum exofs_rebuild_state {
	EXOFS_REBUILD_IDLE,
	EXOFS_REBUILD_RUNNING,	/* the thread runs */
	EXOFS_REBUILD_DONE,	/* the store is in sync */
	EXOFS_REBUILD_STOPPED,	/* unmount or remount ro: resumed at mount */
	EXOFS_REBUILD_FAILED,	/* the store is out of service again */
};

/**
 * struct exofs_rebuild - the rebuild of one replacement store
 * @store: its index
 * @task: the thread, referenced until freed
 * @state: &enum exofs_rebuild_state
 * @result: the thread's result (0, or the error that stopped it)
 * @pos: the next inode number to rebuild (0: the inode table and bitmap
 *	first); only the thread changes it
 * @total: objects to rebuild, as counted at the start (inodes in use + 2)
 * @objects: objects looked at so far (inode numbers in use, tables)
 * @bytes: component bytes written to the store
 * @skipped: inodes that could not be read (their objects not rebuilt)
 * @start: jiffies at the start
 * @end: jiffies when the thread ended, or 0
 * @ckpt_time: jiffies of the last checkpoint
 * @max_rows: stripe rows rebuilt per step
 */
struct exofs_rebuild {
	u32 store;
	struct task_struct *task;
	int state;
	int result;
	u64 pos;
	u64 total;
	atomic64_t objects;
	atomic64_t bytes;
	atomic64_t skipped;
	unsigned long start;
	unsigned long end;
	unsigned long ckpt_time;
	u64 max_rows;
};

/**
 * struct exofs_scrub - one check or repair of every object (rebuild.c)
 * @task: the thread, referenced until freed
 * @state: &enum exofs_rebuild_state (RUNNING, DONE, STOPPED, FAILED)
 * @repair: rewrite what disagrees
 * @result: the thread's result
 * @objects: objects scrubbed so far
 * @bytes: logical bytes scrubbed
 * @mismatches: pages found to disagree (see ore_scrub())
 * @errors: objects or steps that could not be read or repaired
 * @start: jiffies at the start
 * @end: jiffies when the thread ended, or 0
 * @step: logical bytes per ore_scrub() call, whole stripes
 */
struct exofs_scrub {
	struct task_struct *task;
	int state;
	bool repair;
	int result;
	atomic64_t objects;
	atomic64_t bytes;
	atomic64_t mismatches;
	atomic64_t errors;
	unsigned long start;
	unsigned long end;
	u64 step;
};

/**
 * struct exofs_retired - a store replaced while mounted, kept until unmount
 *	(I/O in flight may still point at it)
 * @node: in &exofs_sb_info.retired
 * @store: the ORE store
 * @path: its path (may be NULL)
 * @opt: the stores= string before the replacement (show_options may
 *	still read it), or NULL
 */
struct exofs_retired {
	struct list_head node;
	struct ore_store *store;
	char *path;
	char *opt;
};

/**
 * struct exofs_sb_info - the mounted filesystem
 * @sb: the VFS superblock
 * @layout: the layout of every striped object (verified)
 * @num_stores: stores, in device-table order
 * @stores: per store: path and state
 * @ore_stores: per store: the ORE store (a placeholder for a missing one)
 * @sb_buf: the reference superblock (EXOFS_SB_SIZE bytes), updated and
 *	rewritten on every store by exofs_write_supers()
 * @sb_mutex: serializes changes of @sb_buf and superblock writes
 * @sb_dirty: counters changed since the last superblock write
 * @sb_work: rewrites the superblocks after a store failed, then ends the
 *	writes held meanwhile
 * @fail_lock: protects @fail_seq, @fail_done, @fail_err and @held
 * @fail_seq: stores taken out of service while mounted (a count)
 * @fail_done: @fail_seq as the superblocks last recorded it
 * @fail_err: that record could not be written on any store
 * @held: writes that completed while a failure was not yet recorded;
 *	they end (their folios leave writeback) once it is
 * @fail_wait: woken when @fail_done moves
 * @alloc_mutex: serializes inode allocation and freeing
 * @max_ino: s_max_ino
 * @next_ino: s_next_ino (under @alloc_mutex)
 * @used_inodes: s_used_inodes (under @alloc_mutex)
 * @itable: internal inode whose page cache holds the inode table
 * @ibitmap: internal inode whose page cache holds the inode bitmap
 * @wb_max_pages: largest writeback I/O, a multiple of a stripe if possible
 * @degraded: mounted with failed stores (read-only)
 * @lazy_comps: no EXOFS_FEATURE_RO_COMPAT_COMPONENTS: components are
 *	made by their first write
 * @sized_comps: EXOFS_FEATURE_RO_COMPAT_SIZED (with COMPONENTS): the
 *	components of an inode's object exist as far as its record's i_made
 *	reaches
 * @opt_degraded: the degraded option was given
 * @space_checked: jiffies of the last free space check of the stores
 * @space_low: a store had less than EXOFS_SPACE_LOW free at that check
 * @opt_stores: the stores= string as given (for show_options)
 * @uuid: the filesystem UUID
 * @kobj: /sys/fs/exofs/<uuid>
 * @kobj_unregister: completed when @kobj is released
 * @kobj_added: @kobj is in sysfs
 * @list: in the list of mounted filesystems (no UUID mounted twice)
 * @cnt: counters for sysfs
 * @rebuild_mutex: serializes replacing a store and starting, stopping and
 *	showing @rebuild
 * @rebuild: the last rebuild started, or NULL
 * @scrub: the last scrub started, or NULL
 * @rebuild_blocked: no rebuild may start (unmount, remount read-only)
 * @rebuild_speed_max: KiB/s the rebuild writes at most (0: no limit)
 * @rebuild_ckpt: the checkpoint the superblocks record for the store
 *	being rebuilt (exofs_dev_entry.rebuild_ino), under @sb_mutex
 * @retired: &struct exofs_retired of the stores replaced (under
 *	@fail_lock; freed at unmount)
 * @intent_on: EXOFS_FEATURE_RO_COMPAT_INTENT (write-hole protection)
 * @intent: the intent record (intent.c), or NULL
 * @csum_on: EXOFS_FEATURE_RO_COMPAT_CSUM (data checksums, csum.c)
 * @csum_type: their type, ORE_CSUM_XXH64 or ORE_CSUM_CRC32C
 * @csum_wq: the repairs of reads that met bad checksums, or NULL
 * @csum_lock: protects @csum_fix_off against the queueing of repairs
 * @csum_fix_off: no repair may be queued or run (remount read-only,
 *	unmount: exofs_csum_pause())
 * @made_lock: protects @made_list and &exofs_i_info.made_node
 * @made_list: inodes whose writes made components their record's i_made
 *	does not reach yet (exofs_made_dirty()); a sync puts them in the
 *	inode table (exofs_record_made())
 * @made_mutex: one exofs_record_made() at a time, so that a sync does not
 *	return while another one still holds an inode it took off the list
 */
struct exofs_sb_info {
	struct super_block *sb;
	struct ore_layout layout;
	u32 num_stores;
	struct exofs_store *stores;
	struct ore_store **ore_stores;
	void *sb_buf;
	struct mutex sb_mutex;		/* see the lock order above */
	bool sb_dirty;
	struct work_struct sb_work;
	spinlock_t fail_lock;		/* irq safe: taken at I/O completion */
	u64 fail_seq;
	u64 fail_done;
	int fail_err;
	struct list_head held;
	wait_queue_head_t fail_wait;
	struct mutex alloc_mutex;	/* see the lock order above */
	u64 max_ino;
	u64 next_ino;
	u64 used_inodes;
	struct inode *itable;
	struct inode *ibitmap;
	unsigned int wb_max_pages;
	bool degraded;
	bool lazy_comps;	/* no EXOFS_FEATURE_RO_COMPAT_COMPONENTS */
	bool sized_comps;	/* EXOFS_FEATURE_RO_COMPAT_SIZED */
	bool opt_degraded;
	unsigned long space_checked;
	bool space_low;
	char *opt_stores;
	uuid_t uuid;
	struct kobject kobj;
	struct completion kobj_unregister;
	bool kobj_added;
	struct list_head list;
	struct exofs_counters cnt;
	struct mutex rebuild_mutex;	/* see the lock order above */
	struct exofs_rebuild *rebuild;
	struct exofs_scrub *scrub;
	bool rebuild_blocked;
	unsigned int rebuild_speed_max;
	u64 rebuild_ckpt;
	struct list_head retired;
	bool intent_on;
	struct exofs_intent *intent;
	bool csum_on;
	bool csum_side;			/* EXOFS_FEATURE_RO_COMPAT_CSUM_SIDE */
	u32 csum_type;
	struct workqueue_struct *csum_wq;
	spinlock_t csum_lock;		/* irq safe: taken at I/O completion */
	bool csum_fix_off;
	spinlock_t made_lock;		/* process context only */
	struct list_head made_list;
	struct mutex made_mutex;	/* outside the inode table folio locks */
	spinlock_t pin_lock;		/* pNFS layout pins (export.c) */
	struct list_head pin_freed;	/* struct exofs_pin_freed */
	struct work_struct pin_work;	/* lets them go */
	struct mutex pnfs_refresh_lock;	/* exofs_pnfs_refresh() */
	atomic64_t pin_dropped;		/* layouts freed without a return */
	atomic64_t pin_repaired;	/* ... whose regions were repaired */
};

/**
 * struct exofs_intent_wait - a write waiting for its regions to be in the
 *	intent record (exofs_intent_begin())
 * @node: in the record's waiters
 * @fn: called once they are on disk, or with the error of the record
 *	write, from a workqueue
 * @reg: the regions (struct exofs_intent_region, intent.c), for
 *	exofs_intent_end()
 * @need: the record version that holds them
 * @done: exofs_intent_begin_sync() waits on it
 * @err: exofs_intent_begin_sync()'s result
 */
struct exofs_intent_wait {
	struct list_head node;
	void (*fn)(struct exofs_intent_wait *w, int err);
	struct exofs_intent_region *reg[2];
	u64 need;
	struct completion *done;
	int err;
};

/* What an I/O's private pointer starts with, so errors can name the inode. */
struct exofs_io {
	struct inode *inode;
};

/* Internal inodes (not hashed, never on disk as records). */
#define EXOFS_ITABLE_INO	((unsigned long)-2)
#define EXOFS_IBITMAP_INO	((unsigned long)-3)

/* Bits of &exofs_i_info.state */
enum {
	EXOFS_I_NEW_LINK,	/* a new name points at it; fsync syncs parent */
	EXOFS_I_NEW_INODE,	/* allocated since the bitmap was last synced */
	EXOFS_I_TAIL_CLEAN,	/* the stores hold nothing beyond the EOF page */
	EXOFS_I_MADE_BUSY,	/* exofs_record_made() is writing its record */
};

/**
 * struct exofs_i_info - the exofs part of an in-memory inode
 * @oc: where the inode's data object lives (oid, stores, first_dev)
 * @i_flags: EXOFS_INODE_FL_* from the record
 * @i_crtime: creation time
 * @state: EXOFS_I_* bits
 * @dir_start_lookup: directory page where the last lookup hit
 * @wlock: protects @wb_list, @wb_nr and @wb_excl
 * @wb_list: writes in flight that cover a stripe only partially
 * @wb_nr: writes in flight
 * @wb_excl: a truncate waits for the writes to drain and keeps new ones out
 * @made_rec: @oc.made as last put in the record (i_made)
 * @made_node: in &exofs_sb_info.made_list while the record's i_made may
 *	be behind @oc.made
 * @i_data: inline symlink target (NUL terminated)
 * @vfs_inode: the VFS inode
 *
 * Two writes of one parity stripe must not run at once (ORE leaves it to
 * its users): a write with partial stripes waits until no write in flight
 * holds one of them partially; truncate waits for every write.
 */
struct exofs_i_info {
	struct ore_components oc;
	u32 i_flags;
	struct timespec64 i_crtime;
	unsigned long state;
	unsigned long dir_start_lookup;
	spinlock_t wlock;		/* irq safe: taken at I/O completion */
	struct list_head wb_list;
	unsigned int wb_nr;
	bool wb_excl;
	u64 made_rec;
	struct list_head made_node;	/* under exofs_sb_info.made_lock */
	u64 pin_first;			/* the regions a pNFS RW layout holds: */
	u32 pin_count;			/* set under the inode lock and */
	u32 pin_seq;			/* exofs_sb_info.pin_lock (export.c) */
	atomic_t pnfs_gen;		/* RW layouts freed or committed */
	u32 pnfs_seen;			/* pnfs_gen at the last refresh */
	u8 i_data[EXOFS_INLINE_SIZE];
	struct inode vfs_inode;
};

/* Sized components made further than @oi's record says (i_made)? */
static inline bool exofs_made_unrecorded(struct exofs_i_info *oi)
{
	return oi->oc.sized && READ_ONCE(oi->oc.made) > READ_ONCE(oi->made_rec);
}

static inline struct exofs_sb_info *exofs_sb(struct super_block *sb)
{
	return sb->s_fs_info;
}

static inline struct exofs_i_info *exofs_i(struct inode *inode)
{
	return container_of(inode, struct exofs_i_info, vfs_inode);
}

/*
 * Set up @oc for striped object @oid of the filesystem. With sized
 * components (inode objects only: mkfs.exofs makes every component of the
 * inode table and the bitmap) nothing is known made yet: the caller sets
 * @oc->made from the record (i_made).
 */
static inline void exofs_init_comps(struct exofs_sb_info *sbi,
				    struct ore_components *oc, u64 oid)
{
	oc->oid = oid;
	oc->numdevs = sbi->num_stores;
	oc->first_dev = exofs_first_dev(oid, sbi->layout.mirrors_p1,
					sbi->num_stores);
	oc->stores = sbi->ore_stores;
	oc->lazy = sbi->lazy_comps;
	oc->sized = sbi->sized_comps && oid >= EXOFS_INO_OID_BASE;
	oc->made = 0;
}

/* export.c */
extern const struct export_operations exofs_export_ops;
int exofs_pnfs_layout_prepare(struct inode *inode);
int exofs_pnfs_refresh(struct inode *inode, bool force);
const char *exofs_pnfs_csum_check(struct exofs_sb_info *sbi);
void exofs_pnfs_read_error(struct inode *inode, int store, u64 comp_off,
			   u64 comp_len);
int exofs_pnfs_layout_pin(struct inode *inode, u64 offset, u64 len,
			  u64 *start, u64 *end);
void exofs_pnfs_layout_freed(struct inode *inode, u64 start, u64 len,
			     bool returned);
void exofs_pnfs_pins_init(struct exofs_sb_info *sbi);
void exofs_pnfs_pins_flush(struct exofs_sb_info *sbi);
int exofs_pnfs_layout_commit(struct inode *inode, loff_t new_size,
			     struct timespec64 mtime);

/* super.c */
__printf(3, 4) void exofs_err(struct super_block *sb, const char *func,
			      const char *fmt, ...);
void exofs_mark_sb_dirty(struct exofs_sb_info *sbi);

/* stores.c */
struct fs_context;
int exofs_read_sb(struct ore_store *store, struct page *page);
int exofs_write_supers(struct exofs_sb_info *sbi, u32 state, bool counters);
void exofs_sb_work(struct work_struct *work);
bool exofs_store_failed(struct exofs_sb_info *sbi, u32 i);
bool exofs_hold_write(struct exofs_sb_info *sbi, struct list_head *node);
int exofs_wait_failures(struct exofs_sb_info *sbi);
int exofs_sync_stores(struct exofs_sb_info *sbi);
void exofs_put_stores(struct exofs_sb_info *sbi);
int exofs_parse_stores(struct exofs_sb_info *sbi, const char *list,
		       struct fs_context *fc);
int exofs_scan_stores(struct exofs_sb_info *sbi, struct fs_context *fc);
void exofs_stores_space(struct exofs_sb_info *sbi, u64 *total, u64 *free,
			u64 *avail);

/* inode.c */
int exofs_break_layouts(struct inode *inode, bool *dropped);
struct folio *exofs_get_record(struct super_block *sb, unsigned long ino,
			       struct exofs_inode **rec);
struct inode *exofs_iget(struct super_block *sb, unsigned long ino);
int exofs_create_object(struct inode *inode);
struct inode *exofs_new_inode(struct mnt_idmap *idmap, struct inode *dir,
			      umode_t mode);
int exofs_write_inode(struct inode *inode, struct writeback_control *wbc);
void exofs_made_dirty(struct inode *inode);
bool exofs_in_nfsd(void);
int exofs_record_made(struct exofs_sb_info *sbi);
void exofs_evict_inode(struct inode *inode);
int exofs_setattr(struct mnt_idmap *idmap, struct dentry *dentry,
		  struct iattr *attr);
int exofs_getattr(struct mnt_idmap *idmap, const struct path *path,
		  struct kstat *stat, u32 request_mask, unsigned int flags);
struct inode *exofs_internal_inode(struct super_block *sb, unsigned long ino,
				   u64 oid, u64 size);
void exofs_set_inode_ops(struct inode *inode);
int exofs_sync_inode_meta(struct inode *inode);

/* data.c */
extern const struct address_space_operations exofs_aops;
void exofs_io_error(struct ore_io_state *ios, u32 comp,
		    struct ore_store *store, u64 offset, int error);
void exofs_held_write_done(struct list_head *node, int error);
void exofs_wb_exclude(struct inode *inode);
void exofs_wb_allow(struct inode *inode);
int exofs_clean_tail(struct inode *inode, loff_t from);
int exofs_truncate_object(struct inode *inode, loff_t size);

/* ialloc.c */
int exofs_alloc_ino(struct super_block *sb, unsigned long *pino);
int exofs_free_ino(struct super_block *sb, unsigned long ino);
int exofs_count_inodes(struct super_block *sb, u64 *count);
int exofs_sync_ino_bit(struct super_block *sb, unsigned long ino);

/* dir.c */
extern const struct file_operations exofs_dir_operations;
struct exofs_dir_entry *exofs_find_entry(struct inode *dir,
					 const struct qstr *child,
					 struct folio **foliop);
int exofs_inode_by_name(struct inode *dir, const struct qstr *child,
			ino_t *ino);
int exofs_add_link(struct dentry *dentry, struct inode *inode);
int exofs_delete_entry(struct exofs_dir_entry *de, struct folio *folio);
int exofs_make_empty(struct inode *inode, struct inode *parent);
int exofs_empty_dir(struct inode *inode);
struct exofs_dir_entry *exofs_dotdot(struct inode *dir, struct folio **foliop);
int exofs_set_link(struct inode *dir, struct exofs_dir_entry *de,
		   struct folio *folio, struct inode *inode, bool update_times);

/* namei.c */
extern const struct inode_operations exofs_dir_inode_operations;
extern const struct inode_operations exofs_special_inode_operations;

/* file.c */
extern const struct file_operations exofs_file_operations;
extern const struct inode_operations exofs_file_inode_operations;
int exofs_fsync(struct file *file, loff_t start, loff_t end, int datasync);

/* symlink.c */
extern const struct inode_operations exofs_fast_symlink_inode_operations;
extern const struct inode_operations exofs_symlink_inode_operations;

/* rebuild.c */
int exofs_replace_store(struct exofs_sb_info *sbi, u32 idx, const char *path);
int exofs_rebuild_resume(struct exofs_sb_info *sbi);
void exofs_rebuild_stop(struct exofs_sb_info *sbi);
void exofs_rebuild_release(struct exofs_sb_info *sbi);
ssize_t exofs_rebuild_show(struct exofs_sb_info *sbi, char *buf);
int exofs_scrub_start(struct exofs_sb_info *sbi, bool repair);
ssize_t exofs_scrub_show(struct exofs_sb_info *sbi, char *buf);
u64 exofs_scrub_extent(struct exofs_sb_info *sbi, struct ore_components *oc);
int exofs_scrub_range(struct inode *inode, u64 off, u64 end,
		      unsigned int flags, u64 *found);

/* csum.c */
int exofs_csum_enable_store(struct exofs_sb_info *sbi, struct ore_store *store);
int exofs_csum_start(struct exofs_sb_info *sbi, u32 ro_compat, u32 type);
void exofs_csum_pause(struct exofs_sb_info *sbi);
void exofs_csum_resume(struct exofs_sb_info *sbi);
void exofs_csum_stop(struct exofs_sb_info *sbi);
void exofs_csum_repair_range(struct inode *inode, u64 offset, u64 length,
			     u32 errors);
void exofs_csum_repair(struct inode *inode, const struct ore_io_state *ios,
		       int err);
u64 exofs_csum_counts(struct exofs_sb_info *sbi, bool repairs);

/* intent.c */
int exofs_intent_mount(struct exofs_sb_info *sbi, bool force);
int exofs_intent_start(struct exofs_sb_info *sbi);
void exofs_intent_stop(struct exofs_sb_info *sbi);
void exofs_intent_free(struct exofs_sb_info *sbi);
bool exofs_intent_begin(struct exofs_sb_info *sbi, u64 oid, u64 offset,
			u64 len, struct exofs_intent_wait *w);
int exofs_intent_begin_sync(struct exofs_sb_info *sbi, u64 oid, u64 offset,
			    u64 len, struct exofs_intent_wait *w);
void exofs_intent_end(struct exofs_sb_info *sbi, struct exofs_intent_wait *w);
ssize_t exofs_intent_show(struct exofs_sb_info *sbi, char *buf);
u64 exofs_intent_region_bytes(struct exofs_sb_info *sbi);
int exofs_intent_pin(struct exofs_sb_info *sbi, u64 oid, u64 first, u32 count);
void exofs_intent_unpin(struct exofs_sb_info *sbi, u64 oid, u64 first,
			u32 count);

/* sysfs.c */
int exofs_sysfs_init(void);
void exofs_sysfs_exit(void);
int exofs_sysfs_register(struct exofs_sb_info *sbi);
void exofs_sysfs_unregister(struct exofs_sb_info *sbi);

#endif /* _EXOFS_EXOFS_H */
