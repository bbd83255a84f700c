// SPDX-License-Identifier: GPL-2.0
/*
 * ORE file store: an object store is a directory on a mounted filesystem,
 * one backing file per object.
 *
 * Naming: object @oid lives in "<root>/<oid>", the oid printed in lowercase
 * hexadecimal without leading zeros or prefix ("%llx": oid 0x10002 is the
 * file "10002"). Nothing else in the directory is looked at. Objects are
 * sparse inside their file: a read of a hole or past the end of the file
 * returns zeros. A read of a missing object fails with -ENOENT (ORE takes
 * it for a lost component, see docs/stores.md); a write or a truncate
 * creates the file (mode 0600). Only regular files are used: a symlink, a
 * directory, a FIFO or a device node at an object's path fails its I/O
 * with -EUCLEAN and is never opened (see ore_file_open_existing()). On a
 * filesystem shared with other machines (NFS: the stores of an MDS and of
 * pNFS clients) a cached "missing" or a cached size is checked with the
 * server before a read is answered from it (&ore_file_store.shared).
 *
 * I/O goes through kiocbs on the backing file, as fs/cachefiles/io.c and
 * drivers/block/loop.c do. A request whose offset, length and every bvec
 * are aligned for direct I/O (see ore_file_dio_ok()) is sent as an async
 * IOCB_DIRECT kiocb from ->submit() (from the store's workqueue when it
 * would block: see ore_file_submit_blocks()); every other one, and the
 * remainder of a short direct transfer, runs buffered from the workqueue. Both
 * run with memalloc_nofs_save(), so that writeback of a filesystem above
 * ORE cannot recurse into its own reclaim through this store. Every VFS
 * call runs with the credentials of whoever opened the store.
 *
 * Open backing files are kept in a small cache per store (hash by oid, LRU
 * eviction beyond ORE_FILE_CACHE_MAX). Each in-flight I/O holds a
 * reference to its &struct ore_file_obj, so evicting an entry while I/O
 * runs on it is safe: the file is closed when the last I/O ends.
 *
 * Data checksums (ore_file_store_enable_csum(), docs/stores.md): each
 * object's entries are in its side file "<oid>.csum", those of its first
 * ORE_FILE_CSUM_HEAD blocks in an extended attribute of its file, the
 * head, where the filesystem has them (ore/file_csum.c for the format).
 * A write computes the entries of its blocks and stores them (buffered)
 * before its data goes out; a read reads them before its data and checks
 * the data when it arrives: a block that does not match reads as
 * -EBADMSG, its data in the request's memory.
 * Requests up to ore_csum_inline_max bytes are hashed where they are (a
 * read in its completion); longer ones in the store's workqueue, as is
 * every restamp (&ore_store_io.restamp). Entries and data reach the disk
 * in no particular order, as with the block store: the user makes that
 * safe across a crash (exofs: the intent record, whose regions the mount
 * restamps).
 *
 * Contexts: ->submit() and the other hooks may sleep. &ore_store_io.end_io
 * is called from the direct I/O completion (bio completion: hard or soft
 * interrupt), from the store's workqueue, or from ->submit() itself.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/slab.h>
#include <linux/fs.h>
#include <linux/magic.h>
#include <linux/file.h>
#include <linux/falloc.h>
#include <linux/namei.h>
#include <linux/statfs.h>
#include <linux/mount.h>
#include <linux/stat.h>
#include <linux/uio.h>
#include <linux/pagemap.h>
#include <linux/cred.h>
#include <linux/errseq.h>
#include <linux/hashtable.h>
#include <linux/workqueue.h>
#include <linux/sched/mm.h>
#include <linux/ioprio.h>
#include <ore/pure.h>

#include "internal.h"

/* Backing files kept open per store. */
#define ORE_FILE_CACHE_MAX	ORE_FILE_STORE_OPEN_MAX
#define ORE_FILE_HASH_BITS	6
/* Work items of one store's workqueue running at once. */
#define ORE_FILE_WQ_ACTIVE	16
/* Locks of the heads' read-modify-writes, by oid. */
#define ORE_FILE_HEAD_LOCK_BITS	3
/* Room for "%llx" of a u64, the side file's suffix and the NUL. */
#define ORE_FILE_NAME_LEN	(17 + sizeof(ORE_FILE_CSUM_SUFFIX) - 1)
#define ORE_FILE_OPEN_FLAGS	(O_RDWR | O_LARGEFILE | O_NOATIME | O_NOFOLLOW | \
				 O_NOCTTY)

/**
 * struct ore_file_obj - one open backing file
 * @node: in &ore_file_store.hash while cached
 * @lru: in &ore_file_store.lru while cached, most recently used first
 * @oid: the object
 * @ref: one for the cache while hashed, one per user (an I/O, a hook)
 * @file: the open backing file
 * @dio_off_align: file offset and length alignment for direct I/O, 0 when
 *	the file cannot do direct I/O
 * @dio_mem_align: memory alignment for direct I/O
 * @csum_file: the open side file of the object's checksums, NULL until it
 *	is needed and found (set once, by cmpxchg)
 */
struct ore_file_obj {
	struct hlist_node node;
	struct list_head lru;
	u64 oid;
	refcount_t ref;
	struct file *file;
	u32 dio_off_align;
	u32 dio_mem_align;
	struct file *csum_file;
};

/**
 * struct ore_file_store - an object store in a directory
 * @store: the common part
 * @dir: the open root directory
 * @cred: credentials of the opener; every VFS call runs with them
 * @wq: buffered I/O and the remainders of short direct I/O
 * @lock: protects @hash, @lru and @nr_cached
 * @hash: the cached &struct ore_file_obj, by oid
 * @lru: the same, most recently used first
 * @nr_cached: entries in @hash
 * @csum_type: data checksums (ORE_CSUM_*), 0 when off
 * @no_head: the filesystem has no user extended attributes: every entry
 *	goes to the side files
 * @shared: other machines make and write objects in the directory behind
 *	our back (its filesystem revalidates its dentries: NFS, the stores
 *	of an MDS and of pNFS clients); what the dentry and inode caches say
 *	of an object's existence and size is checked with the server before
 *	it is believed
 * @head_lock: serialize the read-modify-writes of the heads, by oid
 */
struct ore_file_store {
	struct ore_store store;
	struct file *dir;
	const struct cred *cred;
	struct workqueue_struct *wq;
	spinlock_t lock;		/* hash, lru, nr_cached */
	DECLARE_HASHTABLE(hash, ORE_FILE_HASH_BITS);
	struct list_head lru;
	unsigned int nr_cached;
	u32 csum_type;
	bool no_head;
	bool shared;
	struct mutex head_lock[1 << ORE_FILE_HEAD_LOCK_BITS];
};

/**
 * struct ore_file_io - one &ore_store_io in flight on a backing file
 * @iocb: the kiocb of the direct I/O; its completion finds us by
 *	container_of()
 * @ref: one for the completion, one for ->submit() while it runs
 * @sio: the request
 * @fo: the backing file
 * @fs: the store
 * @done: bytes transferred so far
 * @retried: second try of the request, after a stale backing file
 * @work: runs the buffered part on &ore_file_store.wq
 * @retry: runs ore_file_retry_work() on &ore_file_store.wq (a work item of
 *	its own: the buffered part may be what failed, from inside @work)
 * @ents: with checksums, the entries of the blocks the request touches
 *	(a write's computed, a read's from the side file), else NULL
 * @nents: entries in @ents
 * @check: a read's data is still to be verified or restamped
 * @check_work: does it on &ore_file_store.wq
 */
struct ore_file_io {
	struct kiocb iocb;
	refcount_t ref;
	struct ore_store_io *sio;
	struct ore_file_obj *fo;
	struct ore_file_store *fs;
	u32 done;
	bool retried;
	struct work_struct work;
	struct work_struct retry;
	__le32 *ents;
	u32 nents;
	bool check;
	struct work_struct check_work;
};

static atomic_t ore_file_store_ids = ATOMIC_INIT(0);

static inline struct ore_file_store *to_file_store(struct ore_store *store)
{
	return container_of(store, struct ore_file_store, store);
}

static void ore_file_name(char *name, u64 oid)
{
	snprintf(name, ORE_FILE_NAME_LEN, "%llx", oid);
}

/* The name of the side file of @oid's checksums (ore/file_csum.c). */
static void ore_file_csum_name(char *name, u64 oid)
{
	snprintf(name, ORE_FILE_NAME_LEN, "%llx" ORE_FILE_CSUM_SUFFIX, oid);
}

/*
 * Drop a reference to @fo. From any context with @sync false (the file is
 * closed by fput()'s deferred work); @sync true closes it now and may only
 * be used in process context.
 */
static void ore_file_obj_put(struct ore_file_obj *fo, bool sync)
{
	if (!refcount_dec_and_test(&fo->ref))
		return;
	if (sync) {
		__fput_sync(fo->file);
		if (fo->csum_file)
			__fput_sync(fo->csum_file);
	} else {
		fput(fo->file);
		if (fo->csum_file)
			fput(fo->csum_file);
	}
	kfree(fo);
	atomic64_dec(&ore_stats.store_files);
}

/* Find out whether and how @fo->file can do direct I/O. */
static void ore_file_obj_dio(struct ore_file_obj *fo)
{
	struct kstat st;

	if (!(fo->file->f_mode & FMODE_CAN_ODIRECT))
		return;
	if (vfs_getattr(&fo->file->f_path, &st, STATX_DIOALIGN,
			AT_STATX_SYNC_AS_STAT))
		return;
	if (!(st.result_mask & STATX_DIOALIGN) || !st.dio_offset_align ||
	    !st.dio_mem_align) {
		/*
		 * NFS does direct I/O at any alignment but does not report
		 * STATX_DIOALIGN (6.12). Buffered I/O there would keep a
		 * second cache of the objects, blind to what other clients
		 * of the data server write (pNFS, docs/pnfs.md).
		 */
		if (file_inode(fo->file)->i_sb->s_magic == NFS_SUPER_MAGIC) {
			fo->dio_off_align = 1;
			fo->dio_mem_align = 1;
		}
		return;
	}
	/*
	 * Sub-block direct writes are legal but make ext4 and xfs serialize
	 * and zero around them: ask for whole filesystem blocks.
	 */
	fo->dio_off_align = max_t(u32, st.dio_offset_align,
				  i_blocksize(file_inode(fo->file)));
	fo->dio_mem_align = st.dio_mem_align;
}

/* The cached entry of @oid with a reference taken, or NULL. Under lock. */
static struct ore_file_obj *ore_file_lookup(struct ore_file_store *fs,
					    u64 oid)
{
	struct ore_file_obj *fo;

	hash_for_each_possible(fs->hash, fo, node, oid) {
		if (fo->oid == oid) {
			refcount_inc(&fo->ref);
			list_move(&fo->lru, &fs->lru);
			return fo;
		}
	}
	return NULL;
}

/* Take @fo out of the cache. Under lock; the caller drops the cache's ref. */
static void ore_file_unhash(struct ore_file_store *fs, struct ore_file_obj *fo)
{
	hash_del(&fo->node);
	list_del_init(&fo->lru);
	fs->nr_cached--;
}

/*
 * Put @file, just opened for @oid, in the cache and return its entry with
 * a reference for the caller; when another thread cached @oid meanwhile,
 * close @file and return that entry instead.
 */
static struct ore_file_obj *ore_file_insert(struct ore_file_store *fs,
					    u64 oid, struct file *file)
{
	struct ore_file_obj *fo, *old, *victim, *next;
	LIST_HEAD(evicted);

	fo = kzalloc(sizeof(*fo), GFP_NOFS);
	if (!fo) {
		fput(file);
		return ERR_PTR(-ENOMEM);
	}
	fo->oid = oid;
	fo->file = file;
	refcount_set(&fo->ref, 2);
	INIT_LIST_HEAD(&fo->lru);
	ore_file_obj_dio(fo);
	atomic64_inc(&ore_stats.store_files);

	spin_lock(&fs->lock);
	old = ore_file_lookup(fs, oid);
	if (old) {
		spin_unlock(&fs->lock);
		refcount_set(&fo->ref, 1);
		ore_file_obj_put(fo, false);
		return old;
	}
	hash_add(fs->hash, &fo->node, oid);
	list_add(&fo->lru, &fs->lru);
	fs->nr_cached++;
	while (fs->nr_cached > ORE_FILE_CACHE_MAX) {
		victim = list_last_entry(&fs->lru, struct ore_file_obj, lru);
		ore_file_unhash(fs, victim);
		list_add(&victim->lru, &evicted);
	}
	spin_unlock(&fs->lock);

	list_for_each_entry_safe(victim, next, &evicted, lru) {
		list_del_init(&victim->lru);
		ore_file_obj_put(victim, false);
	}
	return fo;
}

/* Printable type of the inode at a component's path, for messages. */
static const char *ore_file_type_name(umode_t mode)
{
	switch (mode & S_IFMT) {
	case S_IFDIR: return "a directory";
	case S_IFLNK: return "a symlink";
	case S_IFIFO: return "a FIFO";
	case S_IFCHR: return "a character device";
	case S_IFBLK: return "a block device";
	case S_IFSOCK: return "a socket";
	default: return "not a regular file";
	}
}

/*
 * On a shared store (&ore_file_store.shared) the object @name that a
 * lookup did not find may have been made since by another machine (the
 * MDS, a pNFS client), and the negative dentry that said so may be
 * believed for as long as the directory's attributes are cached. Drop it,
 * so that the next lookup asks the server. Returns whether there was one.
 */
static bool ore_file_drop_negative(struct ore_file_store *fs,
				   const char *name)
{
	struct qstr q = QSTR_INIT(name, strlen(name));
	struct dentry *dentry;
	bool dropped = false;

	dentry = d_hash_and_lookup(fs->dir->f_path.dentry, &q);
	if (IS_ERR_OR_NULL(dentry))
		return false;
	if (d_is_negative(dentry)) {
		d_drop(dentry);
		dropped = true;
	}
	dput(dentry);
	return dropped;
}

/*
 * Open the existing backing file @name of @oid. Only a regular file is
 * opened: the final component is not followed (a symlink is refused, like
 * O_NOFOLLOW), and the inode type is checked on the looked-up dentry
 * before anything is opened, so that a FIFO or a device node at the path
 * is never opened at all (no blocking open, no driver ->open, no writes to
 * a device with the store's credentials); the file is then opened on that
 * same dentry (no window for a swap). Anything else is -EUCLEAN, logged
 * with the store, the oid and what was found. Runs with the store's
 * credentials.
 */
static struct file *ore_file_open_existing(struct ore_file_store *fs,
					   u64 oid, const char *name)
{
	struct path *root = &fs->dir->f_path;
	struct inode *inode;
	struct file *file;
	struct path path;
	int err;

	err = vfs_path_lookup(root->dentry, root->mnt, name, 0, &path);
	if (err == -ENOENT && fs->shared && ore_file_drop_negative(fs, name))
		err = vfs_path_lookup(root->dentry, root->mnt, name, 0, &path);
	if (err)
		return ERR_PTR(err);
	inode = d_inode(path.dentry);
	if (!d_is_reg(path.dentry)) {
		pr_err_ratelimited("store %s: oid 0x%llx: %s/%s is %s, not a regular file: the component is refused\n",
				   fs->store.name, oid, fs->store.name, name,
				   ore_file_type_name(inode ? inode->i_mode : 0));
		file = ERR_PTR(-EUCLEAN);
		goto out;
	}
	err = inode_permission(mnt_idmap(path.mnt), inode,
			       MAY_READ | MAY_WRITE);
	if (err) {
		file = ERR_PTR(err);
		goto out;
	}
	file = kernel_file_open(&path, ORE_FILE_OPEN_FLAGS, current_cred());
out:
	path_put(&path);
	return file;
}

/*
 * Open the file @name of object @oid (the object's, or its side file),
 * creating it when @create. Runs with the store's credentials.
 */
static struct file *ore_file_open_name(struct ore_file_store *fs, u64 oid,
				       const char *name, bool create)
{
	const struct cred *old_cred;
	struct file *file;

	old_cred = override_creds(fs->cred);
	file = ore_file_open_existing(fs, oid, name);
	if (create && PTR_ERR_OR_ZERO(file) == -ENOENT) {
		/* O_EXCL: what it makes is a new regular file, never a link */
		file = file_open_root(&fs->dir->f_path, name,
				      ORE_FILE_OPEN_FLAGS | O_CREAT | O_EXCL,
				      0600);
		if (PTR_ERR_OR_ZERO(file) == -EEXIST)	/* made meanwhile */
			file = ore_file_open_existing(fs, oid, name);
	}
	revert_creds(old_cred);
	return file;
}

/*
 * Open object @oid with a reference for the caller: from the cache, else
 * from the directory, creating the file when @create. Returns -ENOENT
 * when the object does not exist and !@create, -EUCLEAN when something
 * else than a regular file is at its path. Runs with the store's
 * credentials.
 */
static struct ore_file_obj *ore_file_get(struct ore_file_store *fs, u64 oid,
					 bool create)
{
	char name[ORE_FILE_NAME_LEN];
	struct ore_file_obj *fo;
	struct file *file;

	spin_lock(&fs->lock);
	fo = ore_file_lookup(fs, oid);
	spin_unlock(&fs->lock);
	if (fo)
		return fo;

	ore_file_name(name, oid);
	file = ore_file_open_name(fs, oid, name, create);
	if (IS_ERR(file))
		return ERR_CAST(file);
	return ore_file_insert(fs, oid, file);
}

/* Drop the cache's reference to @oid, if cached. */
static void ore_file_forget(struct ore_file_store *fs, u64 oid)
{
	struct ore_file_obj *fo;

	spin_lock(&fs->lock);
	fo = ore_file_lookup(fs, oid);
	if (fo)
		ore_file_unhash(fs, fo);
	spin_unlock(&fs->lock);
	if (fo) {
		ore_file_obj_put(fo, false);	/* the lookup's */
		ore_file_obj_put(fo, true);	/* the cache's */
	}
}

/* --------------------------------------------------------------------
 * Data checksums
 */

/*
 * Side-file writes dirty the backing filesystem's page cache from threads
 * that clean the page cache of the filesystem above (its writeback): as
 * loop's worker, they are throttled against the backing device only, not
 * held in balance_dirty_pages() until the pages only they can clean are
 * clean. Returns the flag's old state for ore_file_throttle_restore().
 */
static unsigned int ore_file_throttle_local(void)
{
	unsigned int old = current->flags & PF_LOCAL_THROTTLE;

	current->flags |= PF_LOCAL_THROTTLE;
	return old;
}

static void ore_file_throttle_restore(unsigned int old)
{
	current->flags = (current->flags & ~PF_LOCAL_THROTTLE) | old;
}

/* Does @sio store or verify checksums? */
static bool ore_file_csum_on(const struct ore_file_store *fs,
			     const struct ore_store_io *sio)
{
	return READ_ONCE(fs->csum_type) && !sio->no_csum && !sio->discard;
}

/*
 * The side file of @fo's object, opened (made when @create) if it is not
 * yet: NULL when the object has none and !@create, or ERR_PTR. It stays
 * open as long as @fo. Process context.
 */
static struct file *ore_file_csum_get(struct ore_file_store *fs,
				      struct ore_file_obj *fo, bool create)
{
	char name[ORE_FILE_NAME_LEN];
	struct file *file, *old;

	file = READ_ONCE(fo->csum_file);
	if (file)
		return file;
	ore_file_csum_name(name, fo->oid);
	file = ore_file_open_name(fs, fo->oid, name, create);
	if (IS_ERR(file))
		return PTR_ERR(file) == -ENOENT ? NULL : file;
	old = cmpxchg(&fo->csum_file, NULL, file);
	if (old) {
		fput(file);
		return old;
	}
	return file;
}

static struct mutex *ore_file_head_lock(struct ore_file_store *fs, u64 oid)
{
	return &fs->head_lock[hash_64(oid, ORE_FILE_HEAD_LOCK_BITS)];
}

/* Name the object whose head is corrupt (-EUCLEAN) in the log. */
static int ore_file_head_err(struct ore_file_store *fs, u64 oid, int err)
{
	if (err == -EUCLEAN)
		pr_err_ratelimited("store %s: oid 0x%llx: the extended attribute %s of the object's file is corrupt (not a checksum head)\n",
				   fs->store.name, oid, ORE_FILE_CSUM_XATTR);
	return err;
}

/*
 * The entries [@first, @first + @n) of @fo's object into @ents: those of
 * the head from its attribute when the object has one, the others (all
 * of them when it has none) from the side file. Process context, with the
 * store's credentials.
 */
static int ore_file_csum_load(struct ore_file_store *fs,
			      struct ore_file_obj *fo, u64 first,
			      __le32 *ents, u32 n)
{
	__le32 head[ORE_FILE_CSUM_HEAD];
	struct file *cf;
	u32 h = 0;	/* entries taken from the head */
	int err;

	if (first < ORE_FILE_CSUM_HEAD && !READ_ONCE(fs->no_head)) {
		err = ore_file_csum_head_get(fo->file, head);
		if (!err) {
			h = min_t(u64, n, ORE_FILE_CSUM_HEAD - first);
			memcpy(ents, head + first, h * sizeof(*ents));
		} else if (err != -ENODATA && err != -EOPNOTSUPP) {
			return ore_file_head_err(fs, fo->oid, err);
		}
	}
	if (h == n)
		return 0;
	cf = ore_file_csum_get(fs, fo, false);
	if (IS_ERR(cf))
		return PTR_ERR(cf);
	return ore_file_csum_read(cf, first + h, ents + h, n - h);
}

/*
 * Store @n entries of the head of @fo's object from entry @first on
 * (@first + @n <= ORE_FILE_CSUM_HEAD); with @zero_only, @ents are not used
 * and the entries become 0. An object without a head gets one, first with
 * the entries its side file holds for the head's blocks that the object
 * holds (a block past its end has none), and those entries of the side
 * file are then zeroed (they would be stale, were the head ever lost); an
 * object with neither keeps none (@zero_only) or gets a head. A corrupt
 * head is made anew, the other entries 0. With @sync the head is on
 * stable storage when it returns, changed or not (an earlier write may
 * have set it without syncing). Return: 0, -EOPNOTSUPP when the
 * filesystem has no user extended attributes, or another error.
 */
static int ore_file_csum_head_update(struct ore_file_store *fs,
				     struct ore_file_obj *fo, u64 first,
				     const __le32 *ents, u32 n, bool zero_only,
				     bool sync)
{
	struct mutex *lock = ore_file_head_lock(fs, fo->oid);
	__le32 head[ORE_FILE_CSUM_HEAD], old[ORE_FILE_CSUM_HEAD];
	struct file *cf = NULL;
	bool make = false;
	u64 held = 0;
	int err;

	mutex_lock(lock);
	err = ore_file_csum_head_get(fo->file, old);
	if (err == -ENODATA) {
		/*
		 * The side file's entries of the blocks the object holds:
		 * none for a new (empty) object, which then needs no lookup
		 * of a side file; past the end they could only be stale.
		 */
		held = DIV_ROUND_UP(i_size_read(file_inode(fo->file)),
				    ORE_CSUM_BLOCK);
		held = min_t(u64, held, ORE_FILE_CSUM_HEAD);
		memset(old, 0, sizeof(old));
		cf = held ? ore_file_csum_get(fs, fo, false) : NULL;
		err = IS_ERR(cf) ? PTR_ERR(cf) :
		      ore_file_csum_read(cf, 0, old, held);
		if (IS_ERR(cf))
			cf = NULL;
		/*
		 * Zeroing entries of an object with neither: nothing to do.
		 * With a side file, the head is made (a write racing with
		 * this would make it from the side file's entries before
		 * they are cleared).
		 */
		if (!err && zero_only && !cf)
			goto out;
		make = true;
	} else if (err == -EUCLEAN) {
		/* made anew: fewer entries are always safe */
		ore_file_head_err(fs, fo->oid, err);
		memset(old, 0, sizeof(old));
		err = 0;
		make = true;
	}
	if (err)
		goto out;
	memcpy(head, old, sizeof(head));
	if (zero_only)
		memset(head + first, 0, n * sizeof(*head));
	else
		memcpy(head + first, ents, n * sizeof(*head));
	if (make || memcmp(head, old, sizeof(head)))
		err = ore_file_csum_head_set(fo->file, head, sync);
	else if (sync)
		err = vfs_fsync(fo->file, 0);
	/* the head first: a crash between leaves two copies that agree */
	if (!err && cf)
		err = ore_file_csum_clear(cf, 0, held * ORE_CSUM_BLOCK);
out:
	mutex_unlock(lock);
	return ore_file_head_err(fs, fo->oid, err);
}

/*
 * Store the entries [@first, @first + @n) of @fo's object: those of the
 * head in its attribute, the others in the side file (made for entries
 * other than 0). Process context, with the store's credentials.
 */
static int ore_file_csum_store(struct ore_file_store *fs,
			       struct ore_file_obj *fo, u64 first,
			       const __le32 *ents, u32 n, bool sync)
{
	struct file *cf;
	u32 h = 0;	/* entries stored in the head */
	int err;

	if (first < ORE_FILE_CSUM_HEAD && !READ_ONCE(fs->no_head)) {
		h = min_t(u64, n, ORE_FILE_CSUM_HEAD - first);
		err = ore_file_csum_head_update(fs, fo, first, ents, h, false,
						sync);
		if (err == -EOPNOTSUPP) {
			pr_info("store %s: no user extended attributes: every checksum goes to the side files\n",
				fs->store.name);
			WRITE_ONCE(fs->no_head, true);
			h = 0;
		} else if (err) {
			return err;
		}
	}
	if (h == n)
		return 0;
	cf = ore_file_csum_get(fs, fo, memchr_inv(ents + h, 0,
						  (n - h) * sizeof(*ents)));
	if (IS_ERR_OR_NULL(cf))
		return PTR_ERR(cf);	/* NULL: only zeros, none stored */
	return ore_file_csum_write(cf, first + h, ents + h, n - h, sync);
}

/*
 * The head's entries of blocks [@first, @end) of @fo's object become 0,
 * where the object can have a head (else the side file has them all).
 */
static int ore_file_csum_head_zero(struct ore_file_store *fs,
				   struct ore_file_obj *fo, u64 first, u64 end)
{
	int err;

	end = min_t(u64, end, ORE_FILE_CSUM_HEAD);
	if (first >= end || READ_ONCE(fs->no_head))
		return 0;
	err = ore_file_csum_head_update(fs, fo, first, NULL, end - first,
					true, false);
	return err == -EOPNOTSUPP ? 0 : err;
}

/*
 * The entries of the blocks that the bytes [@offset, @offset + @len) of
 * @fo's object touch become 0 (a discard). Process context, with the
 * store's credentials.
 */
static int ore_file_csum_zero(struct ore_file_store *fs,
			      struct ore_file_obj *fo, u64 offset, u64 len)
{
	struct file *cf;
	int err;

	if (!len)
		return 0;
	err = ore_file_csum_head_zero(fs, fo, offset / ORE_CSUM_BLOCK,
				      (offset + len - 1) / ORE_CSUM_BLOCK + 1);
	if (err)
		return err;
	cf = ore_file_csum_get(fs, fo, false);
	return IS_ERR(cf) ? PTR_ERR(cf) : ore_file_csum_clear(cf, offset, len);
}

/*
 * The entries of @fo's object truncated to @size bytes: those past the
 * end go, that of a last block cut in its middle becomes 0. Process
 * context, with the store's credentials.
 */
static int ore_file_csum_truncate(struct ore_file_store *fs,
				  struct ore_file_obj *fo, u64 size)
{
	struct file *cf;
	int err;

	/* from the first block cut on */
	err = ore_file_csum_head_zero(fs, fo, size / ORE_CSUM_BLOCK,
				      ORE_FILE_CSUM_HEAD);
	if (err)
		return err;
	cf = ore_file_csum_get(fs, fo, false);
	return IS_ERR(cf) ? PTR_ERR(cf) : ore_file_csum_cut(cf, size);
}

/*
 * Before the data of @fio moves: a write computes its entries and stores
 * them (synced with a FUA write), a read reads them (a restamp later, see
 * ore_file_check_work()). Process context, with the store's credentials.
 */
static int ore_file_csum_begin(struct ore_file_io *fio)
{
	struct ore_store_io *sio = fio->sio;
	struct ore_file_store *fs = fio->fs;
	u64 first;
	int err;

	first = ore_file_csum_span(sio->offset, sio->len, &fio->nents);
	fio->ents = kvmalloc_array(fio->nents, sizeof(*fio->ents), GFP_NOFS);
	if (!fio->ents)
		return -ENOMEM;
	if (!sio->write && sio->restamp) {
		fio->check = true;
		return 0;
	}
	if (!sio->write) {
		err = ore_file_csum_load(fs, fio->fo, first, fio->ents,
					 fio->nents);
		/* only entries of 0: nothing to verify */
		fio->check = !err && memchr_inv(fio->ents, 0, fio->nents *
						sizeof(*fio->ents));
		return err;
	}
	ore_file_csum_compute(fs->csum_type, sio, fio->ents, fio->nents);
	err = ore_file_csum_store(fs, fio->fo, first, fio->ents, fio->nents,
				  sio->fua);
	kvfree(fio->ents);
	fio->ents = NULL;
	return err;
}

/* Verify the data @fio read. Any context. */
static int ore_file_csum_check(struct ore_file_io *fio)
{
	struct ore_store_io *sio = fio->sio;
	int err;

	err = ore_file_csum_verify(fio->fs->csum_type, sio, fio->ents,
				   fio->nents);
	if (err == -EBADMSG)
		pr_warn_ratelimited("store %s: oid 0x%llx: data read at offset %llu (%u bytes) does not match its checksums\n",
				    sio->store->name, sio->oid, sio->offset,
				    sio->len);
	return err;
}

/* Store the entries of the data @fio read. Process context. */
static int ore_file_csum_restamp(struct ore_file_io *fio)
{
	struct ore_store_io *sio = fio->sio;
	struct ore_file_store *fs = fio->fs;
	const struct cred *old_cred;
	unsigned int nofs, local;
	u64 first, held;
	int err;

	nofs = memalloc_nofs_save();
	local = ore_file_throttle_local();
	ore_file_csum_compute(fs->csum_type, sio, fio->ents, fio->nents);
	/*
	 * Blocks wholly past the object's end read as zeros: they get no
	 * entry (stale ones that a crash left there go, and no side file
	 * is made for them).
	 */
	first = sio->offset / ORE_CSUM_BLOCK;
	held = DIV_ROUND_UP(i_size_read(file_inode(fio->fo->file)),
			    ORE_CSUM_BLOCK);
	if (first + fio->nents > held) {
		u64 from = max(first, held);

		memset(fio->ents + (from - first), 0,
		       (first + fio->nents - from) * sizeof(*fio->ents));
	}
	old_cred = override_creds(fs->cred);
	err = ore_file_csum_store(fs, fio->fo, sio->offset / ORE_CSUM_BLOCK,
				  fio->ents, fio->nents, false);
	revert_creds(old_cred);
	ore_file_throttle_restore(local);
	memalloc_nofs_restore(nofs);
	return err;
}

/* --------------------------------------------------------------------
 * I/O
 */

static void ore_file_io_put(struct ore_file_io *fio)
{
	if (refcount_dec_and_test(&fio->ref)) {
		ore_file_obj_put(fio->fo, false);
		kvfree(fio->ents);
		kfree(fio);
	}
}

/* Zero the bytes of @sio from @from to the end. Any context. */
static void ore_file_zero_tail(struct ore_store_io *sio, u32 from)
{
	struct iov_iter iter;

	iov_iter_bvec(&iter, ITER_DEST, sio->bvec, sio->nr_bvec, sio->len);
	iov_iter_advance(&iter, from);
	iov_iter_zero(sio->len - from, &iter);
}

static void __ore_file_start(struct ore_store_io *sio, bool retried);

/*
 * A backing file that went stale (-ESTALE: on NFS, the object's file was
 * removed and made again, by the metadata server or another client, since
 * we opened it): forget the open file, unless a newer one is cached
 * already, and start the request once more on a fresh open.
 */
static void ore_file_retry_work(struct work_struct *work)
{
	struct ore_file_io *fio = container_of(work, struct ore_file_io, retry);
	struct ore_file_store *fs = fio->fs;
	struct ore_store_io *sio = fio->sio;
	struct ore_file_obj *fo;
	bool stale;

	spin_lock(&fs->lock);
	fo = ore_file_lookup(fs, sio->oid);
	stale = fo == fio->fo;	/* else a newer open file (or none): keep it */
	if (fo && stale)
		ore_file_unhash(fs, fo);
	spin_unlock(&fs->lock);
	if (fo) {
		ore_file_obj_put(fo, false);	/* the lookup's */
		if (stale)
			ore_file_obj_put(fo, true);	/* the cache's */
	}
	ore_file_io_put(fio);
	__ore_file_start(sio, true);
}

/* Complete @fio's request with @error and drop the completion's ref. */
static void ore_file_io_finish(struct ore_file_io *fio, long error)
{
	struct ore_store_io *sio = fio->sio;

	if (error == -ESTALE && !fio->retried) {
		queue_work(fio->fs->wq, &fio->retry);
		return;
	}
	if (!error && fio->check) {
		if (sio->restamp || sio->len > ore_csum_inline_max) {
			queue_work(fio->fs->wq, &fio->check_work);
			return;
		}
		fio->check = false;
		error = ore_file_csum_check(fio);
	}
	switch (error) {
	case 0:
	case -EBADMSG:	/* the data is wrong, the store works */
		break;
	case -ERESTARTSYS:
	case -ERESTARTNOINTR:
	case -ERESTARTNOHAND:
	case -ERESTART_RESTARTBLOCK:
		error = -EINTR;
		fallthrough;
	default:
		atomic_inc(&sio->store->nr_errors);
		pr_err_ratelimited("store %s: oid 0x%llx offset %llu: %s of %u bytes failed at byte %u: %ld\n",
				   sio->store->name, sio->oid, sio->offset,
				   sio->write ? "write" : "read", sio->len,
				   fio->done, error);
		break;
	}
	ore_store_io_done(sio, error);
	ore_file_io_put(fio);
}

/* Buffered transfer of what is left of @fio; sleeps. Returns 0 or -errno. */
static long ore_file_rw_buffered(struct ore_file_io *fio)
{
	struct ore_store_io *sio = fio->sio;
	struct file *file = fio->fo->file;
	struct iov_iter iter;
	struct kiocb kiocb;
	ssize_t ret;

	atomic64_inc(&ore_stats.store_buffered);
	/*
	 * A buffered read stops at the cached size: on a shared store, ask
	 * the server for it first (and NFS drops pages that changed there).
	 */
	if (!sio->write && fio->fs->shared) {
		struct kstat st;

		ret = vfs_getattr(&file->f_path, &st, STATX_SIZE,
				  AT_STATX_FORCE_SYNC);
		if (ret)
			return ret;
	}
	while (fio->done < sio->len) {
		init_sync_kiocb(&kiocb, file);
		kiocb.ki_pos = sio->offset + fio->done;
		if (sio->write && sio->fua)
			kiocb.ki_flags |= IOCB_DSYNC;
		iov_iter_bvec(&iter, sio->write ? ITER_SOURCE : ITER_DEST,
			      sio->bvec, sio->nr_bvec, sio->len);
		iov_iter_advance(&iter, fio->done);
		if (sio->write)
			ret = vfs_iocb_iter_write(file, &kiocb, &iter);
		else
			ret = vfs_iocb_iter_read(file, &kiocb, &iter);
		if (ret < 0)
			return ret;
		if (ret == 0) {
			if (sio->write)
				return -EIO;
			ore_file_zero_tail(sio, fio->done);	/* EOF */
			fio->done = sio->len;
			break;
		}
		fio->done += ret;
	}
	return 0;
}

/* A read's data verified, or restamped, in process context. */
static void ore_file_check_work(struct work_struct *work)
{
	struct ore_file_io *fio = container_of(work, struct ore_file_io,
					       check_work);
	int err;

	fio->check = false;
	if (fio->sio->restamp)
		err = ore_file_csum_restamp(fio);
	else
		err = ore_file_csum_check(fio);
	ore_file_io_finish(fio, err);
}

static void ore_file_io_work(struct work_struct *work)
{
	struct ore_file_io *fio = container_of(work, struct ore_file_io, work);
	const struct cred *old_cred;
	unsigned int nofs, local;
	long ret;

	/* As loop's worker: throttle only against the backing device. */
	local = ore_file_throttle_local();
	nofs = memalloc_nofs_save();
	old_cred = override_creds(fio->fs->cred);
	ret = ore_file_rw_buffered(fio);
	revert_creds(old_cred);
	memalloc_nofs_restore(nofs);
	ore_file_throttle_restore(local);
	ore_file_io_finish(fio, ret);
}

/*
 * A direct transfer ended with @ret (bytes or -errno). Finish the request,
 * or queue the buffered path for what is left. Any context; holds the
 * completion's reference.
 */
static void ore_file_dio_end(struct ore_file_io *fio, long ret)
{
	struct ore_store_io *sio = fio->sio;

	if (ret < 0) {
		ore_file_io_finish(fio, ret);
		return;
	}
	fio->done += min_t(u32, ret, sio->len - fio->done);
	if (fio->done == sio->len) {
		ore_file_io_finish(fio, 0);
		return;
	}
	if (!sio->write &&
	    sio->offset + fio->done >= i_size_read(file_inode(fio->fo->file))) {
		ore_file_zero_tail(sio, fio->done);	/* read past EOF */
		fio->done = sio->len;
		ore_file_io_finish(fio, 0);
		return;
	}
	queue_work(fio->fs->wq, &fio->work);
}

/* ->ki_complete of an async direct kiocb; bio completion context. */
static void ore_file_dio_complete(struct kiocb *iocb, long ret)
{
	struct ore_file_io *fio = container_of(iocb, struct ore_file_io, iocb);

	if (fio->sio->write)
		kiocb_end_write(iocb);
	ore_file_dio_end(fio, ret);
}

/*
 * Can @sio go as direct I/O on @fo? Offset and length must be multiples
 * of the file's offset alignment, every bvec's offset and length of its
 * memory alignment.
 */
static bool ore_file_dio_ok(const struct ore_file_obj *fo,
			    const struct ore_store_io *sio)
{
	u32 off_mask = READ_ONCE(fo->dio_off_align) - 1;
	u32 mem_mask = fo->dio_mem_align - 1;
	unsigned int i;

	if (off_mask == (u32)-1)
		return false;
	if ((sio->offset | sio->len) & off_mask)
		return false;
	for (i = 0; i < sio->nr_bvec; i++)
		if ((sio->bvec[i].bv_offset | sio->bvec[i].bv_len) & mem_mask)
			return false;
	return true;
}

/*
 * Start the direct transfer of @fio. The kiocb completes either through
 * ore_file_dio_complete() (-EIOCBQUEUED) or here, synchronously.
 */
static void ore_file_dio_start(struct ore_file_io *fio)
{
	struct ore_store_io *sio = fio->sio;
	struct file *file = fio->fo->file;
	struct kiocb *iocb = &fio->iocb;
	struct iov_iter iter;
	ssize_t ret;

	iocb->ki_filp = file;
	iocb->ki_pos = sio->offset;
	iocb->ki_flags = IOCB_DIRECT;
	if (sio->write)
		iocb->ki_flags |= IOCB_WRITE | (sio->fua ? IOCB_DSYNC : 0);
	iocb->ki_ioprio = get_current_ioprio();
	iocb->ki_complete = ore_file_dio_complete;
	iov_iter_bvec(&iter, sio->write ? ITER_SOURCE : ITER_DEST,
		      sio->bvec, sio->nr_bvec, sio->len);

	atomic64_inc(&ore_stats.store_dio);
	refcount_inc(&fio->ref);	/* ours, until the call returns */
	if (sio->write)
		ret = vfs_iocb_iter_write(file, iocb, &iter);
	else
		ret = vfs_iocb_iter_read(file, iocb, &iter);
	switch (ret) {
	case -EIOCBQUEUED:
		break;
	case -EINVAL:
	case -ENOTBLK:
		/*
		 * The filesystem refused direct I/O for this file after all
		 * (nothing was transferred): stay buffered from now on.
		 */
		WRITE_ONCE(fio->fo->dio_off_align, 0);
		queue_work(fio->fs->wq, &fio->work);
		break;
	default:
		ore_file_dio_end(fio, ret);
		break;
	}
	ore_file_io_put(fio);
}

/*
 * Would starting @sio here block the submitter? Opening (creating) a file
 * that is not cached does, and so does a direct write that extends its
 * file: ext4 and xfs wait for those inside the write call
 * (IOMAP_DIO_FORCE_WAIT). Exofs writeback submits one file after another,
 * so such writes go to the store's workqueue, where they wait in parallel.
 */
static bool ore_file_submit_blocks(struct ore_file_store *fs,
				   const struct ore_store_io *sio)
{
	struct ore_file_obj *fo;
	bool blocks;

	if (!sio->write)
		return false;
	spin_lock(&fs->lock);
	fo = ore_file_lookup(fs, sio->oid);
	spin_unlock(&fs->lock);
	if (!fo)
		return true;
	blocks = sio->offset + sio->len > i_size_read(file_inode(fo->file));
	ore_file_obj_put(fo, false);
	return blocks;
}

/*
 * Is @offset at or past the end of @fo's file, so that a read there is
 * zeros without a call to the filesystem? Never on a shared store: the
 * cached size can be older than what another machine wrote since (NFS
 * refreshes it only with the replies to calls on the file), so the read
 * goes to the server, which answers from its own size (a direct read past
 * the end returns nothing, and its reply refreshes the cached size).
 */
static bool ore_file_past_end(struct ore_file_store *fs,
			      struct ore_file_obj *fo, u64 offset)
{
	return !fs->shared && offset >= i_size_read(file_inode(fo->file));
}

/* A request moved to the store's workqueue by ore_file_submit(). */
struct ore_file_deferred {
	struct work_struct work;
	struct ore_store_io *sio;
};

static void ore_file_start(struct ore_store_io *sio);
static void ore_file_discard(struct ore_store_io *sio);

static void ore_file_deferred_work(struct work_struct *work)
{
	struct ore_file_deferred *d = container_of(work,
						   struct ore_file_deferred,
						   work);
	struct ore_store_io *sio = d->sio;

	kfree(d);
	if (sio->discard) {
		unsigned int local = ore_file_throttle_local();

		ore_file_discard(sio);
		ore_file_throttle_restore(local);
	} else {
		ore_file_start(sio);
	}
}

/*
 * A discard punches a hole in the object's file (nothing when the file does
 * not exist or its filesystem cannot punch holes), and takes the checksums
 * of the blocks it touched; from the workqueue.
 */
static void ore_file_discard(struct ore_store_io *sio)
{
	struct ore_file_store *fs = to_file_store(sio->store);
	const struct cred *old_cred;
	struct ore_file_obj *fo;
	unsigned int nofs;
	int err;

	nofs = memalloc_nofs_save();
	fo = ore_file_get(fs, sio->oid, false);
	if (IS_ERR(fo)) {
		err = PTR_ERR(fo);
	} else {
		old_cred = override_creds(fs->cred);
		/* the entries first: a crash between leaves fewer, not wrong */
		err = 0;
		if (READ_ONCE(fs->csum_type) && !sio->no_csum)
			err = ore_file_csum_zero(fs, fo, sio->offset,
						 sio->len);
		if (!err)
			err = vfs_fallocate(fo->file,
					    FALLOC_FL_PUNCH_HOLE |
					    FALLOC_FL_KEEP_SIZE,
					    sio->offset, sio->len);
		revert_creds(old_cred);
		ore_file_obj_put(fo, false);
	}
	memalloc_nofs_restore(nofs);
	if (err && err != -ENOENT && err != -EOPNOTSUPP)
		pr_warn_ratelimited("store %s: oid 0x%llx offset %llu: discard of %u bytes failed: %d (the data stays)\n",
				    sio->store->name, sio->oid, sio->offset,
				    sio->len, err);
	ore_store_io_done(sio, 0);
}

static void ore_file_submit(struct ore_store_io *sio)
{
	struct ore_file_store *fs = to_file_store(sio->store);
	struct ore_file_deferred *d;

	if (!ore_store_io_start(sio))
		return;
	if (sio->discard || ore_file_submit_blocks(fs, sio) ||
	    (sio->write && sio->len > ore_csum_inline_max &&
	     ore_file_csum_on(fs, sio))) {
		d = kmalloc(sizeof(*d), GFP_NOIO);
		if (d) {
			d->sio = sio;
			INIT_WORK(&d->work, ore_file_deferred_work);
			queue_work(fs->wq, &d->work);
			return;
		}
		if (sio->discard) {	/* a hint: it may be dropped */
			ore_store_io_done(sio, 0);
			return;
		}
	}
	ore_file_start(sio);
}

/*
 * Open the object and start @sio: direct when aligned, else buffered.
 * @retried: this is the second try after a stale backing file.
 */
static void __ore_file_start(struct ore_store_io *sio, bool retried)
{
	struct ore_file_store *fs = to_file_store(sio->store);
	const struct cred *old_cred;
	struct ore_file_io *fio;
	struct ore_file_obj *fo;
	unsigned int nofs;

	nofs = memalloc_nofs_save();
	fo = ore_file_get(fs, sio->oid, sio->write && !sio->no_create);
	if (IS_ERR(fo)) {
		if (PTR_ERR(fo) == -ENOENT) {
			/*
			 * A missing object is not a hole: the caller (ORE)
			 * decides (a lost component, or a hole where the
			 * object's components are made lazily).
			 */
			ore_store_io_done(sio, -ENOENT);
		} else {
			atomic_inc(&sio->store->nr_errors);
			pr_err_ratelimited("store %s: oid 0x%llx offset %llu: cannot open the object's file: %ld\n",
					   sio->store->name, sio->oid,
					   sio->offset, PTR_ERR(fo));
			ore_store_io_done(sio, PTR_ERR(fo));
		}
		goto out;
	}
	/*
	 * Nothing to read past the end: no need for the filesystem. But a
	 * restamp takes the entries there (a crash in an extending write
	 * can leave entries past the end, which a later extension would
	 * find stale).
	 */
	if (!sio->write && !(sio->restamp && ore_file_csum_on(fs, sio)) &&
	    ore_file_past_end(fs, fo, sio->offset)) {
		ore_file_obj_put(fo, false);
		ore_file_zero_tail(sio, 0);
		ore_store_io_done(sio, 0);
		goto out;
	}

	fio = kzalloc(sizeof(*fio), GFP_NOFS);
	if (!fio) {
		ore_file_obj_put(fo, false);
		ore_store_io_done(sio, -ENOMEM);
		goto out;
	}
	refcount_set(&fio->ref, 1);	/* the completion's */
	fio->sio = sio;
	fio->fo = fo;
	fio->fs = fs;
	fio->retried = retried;
	INIT_WORK(&fio->work, ore_file_io_work);
	INIT_WORK(&fio->retry, ore_file_retry_work);
	INIT_WORK(&fio->check_work, ore_file_check_work);

	if (ore_file_csum_on(fs, sio)) {
		unsigned int local = ore_file_throttle_local();
		int err;

		old_cred = override_creds(fs->cred);
		err = ore_file_csum_begin(fio);
		revert_creds(old_cred);
		ore_file_throttle_restore(local);
		if (err) {
			fio->check = false;
			ore_file_io_finish(fio, err);
			goto out;
		}
	}

	if (ore_file_dio_ok(fo, sio)) {
		old_cred = override_creds(fs->cred);
		ore_file_dio_start(fio);
		revert_creds(old_cred);
	} else {
		queue_work(fs->wq, &fio->work);
	}
out:
	memalloc_nofs_restore(nofs);
}

static void ore_file_start(struct ore_store_io *sio)
{
	__ore_file_start(sio, false);
}

/* --------------------------------------------------------------------
 * Object operations. Each runs with the store's credentials.
 */

static int ore_file_create(struct ore_store *store, u64 oid)
{
	struct ore_file_store *fs = to_file_store(store);
	char name[ORE_FILE_NAME_LEN];
	const struct cred *old_cred;
	struct ore_file_obj *fo;
	struct file *file;

	if (ore_store_failed(store))
		return -EIO;
	ore_file_name(name, oid);
	old_cred = override_creds(fs->cred);
	file = file_open_root(&fs->dir->f_path, name,
			      ORE_FILE_OPEN_FLAGS | O_CREAT | O_EXCL, 0600);
	revert_creds(old_cred);
	if (IS_ERR(file)) {
		if (PTR_ERR(file) != -EEXIST)
			pr_err("store %s: cannot create object 0x%llx: %ld\n",
			       store->name, oid, PTR_ERR(file));
		return PTR_ERR(file);
	}
	fo = ore_file_insert(fs, oid, file);
	if (IS_ERR(fo))
		return PTR_ERR(fo);
	ore_file_obj_put(fo, false);
	return 0;
}

/* Unlink the file @name of the store's directory; -ENOENT when none. */
static int ore_file_unlink(struct ore_file_store *fs, const char *name)
{
	struct path *root = &fs->dir->f_path;
	struct inode *dir = d_inode(root->dentry);
	const struct cred *old_cred;
	struct dentry *dentry;
	int err;

	old_cred = override_creds(fs->cred);
	err = mnt_want_write(root->mnt);
	if (err)
		goto out_creds;
	inode_lock_nested(dir, I_MUTEX_PARENT);
	dentry = lookup_one_len(name, root->dentry, strlen(name));
	if (IS_ERR(dentry)) {
		err = PTR_ERR(dentry);
		goto out_unlock;
	}
	if (d_really_is_negative(dentry))
		err = -ENOENT;
	else
		err = vfs_unlink(mnt_idmap(root->mnt), dir, dentry, NULL);
	dput(dentry);
out_unlock:
	inode_unlock(dir);
	mnt_drop_write(root->mnt);
out_creds:
	revert_creds(old_cred);
	return err;
}

/*
 * With checksums the side file goes first: a crash between the two leaves
 * an object without checksums, never checksums that a new object of the
 * same oid would inherit.
 */
static int ore_file_remove(struct ore_store *store, u64 oid)
{
	struct ore_file_store *fs = to_file_store(store);
	char name[ORE_FILE_NAME_LEN];
	int err = 0;

	if (ore_store_failed(store))
		return -EIO;
	ore_file_forget(fs, oid);
	if (READ_ONCE(fs->csum_type)) {
		ore_file_csum_name(name, oid);
		err = ore_file_unlink(fs, name);
		if (err == -ENOENT)
			err = 0;
	}
	if (!err) {
		ore_file_name(name, oid);
		err = ore_file_unlink(fs, name);
	}
	if (err && err != -ENOENT)
		pr_err("store %s: cannot remove object 0x%llx: %d\n",
		       store->name, oid, err);
	return err;
}

static int ore_file_truncate(struct ore_store *store, u64 oid, u64 size)
{
	struct ore_file_store *fs = to_file_store(store);
	const struct cred *old_cred;
	struct ore_file_obj *fo;
	long err;

	if (ore_store_failed(store))
		return -EIO;
	if (size > LLONG_MAX)
		return -EFBIG;
	fo = ore_file_get(fs, oid, true);
	if (IS_ERR(fo)) {
		err = PTR_ERR(fo);
		goto out;
	}
	old_cred = override_creds(fs->cred);
	/* the side file first: a crash between leaves fewer entries */
	err = 0;
	if (READ_ONCE(fs->csum_type)) {
		unsigned int local = ore_file_throttle_local();

		err = ore_file_csum_truncate(fs, fo, size);
		ore_file_throttle_restore(local);
	}
	if (!err)
		err = vfs_truncate(&fo->file->f_path, size);
	revert_creds(old_cred);
	ore_file_obj_put(fo, false);
out:
	if (err)
		pr_err("store %s: cannot truncate object 0x%llx to %llu: %ld\n",
		       store->name, oid, size, err);
	return err;
}

static int ore_file_length(struct ore_store *store, u64 oid, u64 *len)
{
	struct ore_file_store *fs = to_file_store(store);
	const struct cred *old_cred;
	struct ore_file_obj *fo;
	struct kstat st;
	int err;

	if (ore_store_failed(store))
		return -EIO;
	fo = ore_file_get(fs, oid, false);
	if (IS_ERR(fo))
		return PTR_ERR(fo);
	/*
	 * On a shared store (NFS) the size cached with the open file may be
	 * older than another client's writes to the component: ask
	 */
	old_cred = override_creds(fs->cred);
	err = vfs_getattr(&fo->file->f_path, &st, STATX_SIZE,
			  fs->shared ? AT_STATX_FORCE_SYNC :
				       AT_STATX_SYNC_AS_STAT);
	revert_creds(old_cred);
	ore_file_obj_put(fo, false);
	if (err) {
		pr_err("store %s: cannot stat object 0x%llx: %d\n",
		       store->name, oid, err);
		return err;
	}
	*len = st.size;
	return 0;
}

/*
 * Sync the whole filesystem under the store, as syncfs(2) does: every dirty
 * backing file is written and waited for, the journal committed and the
 * device cache flushed once. (An fsync of each open backing file first
 * would add nothing but a device cache flush per file: ext4 flushes on
 * fsync even when the file's transaction is already committed.) A
 * writeback error of any file reaches sb->s_wb_err, checked here.
 */
static int ore_file_flush_all(struct ore_file_store *fs)
{
	struct super_block *sb = file_inode(fs->dir)->i_sb;
	int err, err2;

	down_read(&sb->s_umount);
	err = sync_filesystem(sb);
	up_read(&sb->s_umount);
	err2 = errseq_check_and_advance(&sb->s_wb_err, &fs->dir->f_sb_err);
	return err ? err : err2;
}

static int ore_file_flush(struct ore_store *store, u64 oid)
{
	struct ore_file_store *fs = to_file_store(store);
	const struct cred *old_cred;
	struct ore_file_obj *fo;
	int err;

	if (ore_store_failed(store))
		return -EIO;
	old_cred = override_creds(fs->cred);
	if (!oid) {
		err = ore_file_flush_all(fs);
	} else {
		fo = ore_file_get(fs, oid, false);
		if (IS_ERR(fo)) {
			err = PTR_ERR(fo);
			if (err == -ENOENT)	/* nothing written, nothing to do */
				err = 0;
		} else {
			struct file *cf = NULL;

			err = vfs_fsync(fo->file, 0);
			/* the side file, also when this open of it has none */
			if (!err && READ_ONCE(fs->csum_type))
				cf = ore_file_csum_get(fs, fo, false);
			if (IS_ERR(cf))
				err = PTR_ERR(cf);
			else if (cf)
				err = vfs_fsync(cf, 0);
			ore_file_obj_put(fo, false);
		}
	}
	revert_creds(old_cred);
	if (err)
		pr_err("store %s: flush of object 0x%llx failed: %d\n",
		       store->name, oid, err);
	return err;
}

static void ore_file_release(struct ore_store *store)
{
	struct ore_file_store *fs = to_file_store(store);
	struct ore_file_obj *fo;

	/* No I/O is in flight: the cache holds the last references. */
	destroy_workqueue(fs->wq);
	spin_lock(&fs->lock);
	while (!list_empty(&fs->lru)) {
		fo = list_first_entry(&fs->lru, struct ore_file_obj, lru);
		ore_file_unhash(fs, fo);
		spin_unlock(&fs->lock);
		ore_file_obj_put(fo, true);
		spin_lock(&fs->lock);
	}
	spin_unlock(&fs->lock);
	__fput_sync(fs->dir);
	put_cred(fs->cred);
	kfree(fs);
}

static int ore_file_statfs(struct ore_store *store, struct kstatfs *buf)
{
	return vfs_statfs(&to_file_store(store)->dir->f_path, buf);
}

static const struct ore_store_ops ore_file_store_ops;

/**
 * ore_file_store_enable_csum - keep checksums of a file store's data
 * @store: a store of ore_file_store_open(), before its first request
 * @type: ORE_CSUM_CRC32C or ORE_CSUM_XXH64
 *
 * From now on every write stores the checksum of each ORE_CSUM_BLOCK of
 * data it covers in the object's side file "<oid>.csum" (docs/stores.md),
 * and every read verifies its blocks: a block that does not match fails
 * the read with -EBADMSG (the data read is in the request's memory), which
 * ORE repairs from the redundancy. Requests with
 * &ore_store_io.no_csum are left alone. Entries and data reach the disk in
 * no particular order: after a crash, the user restamps
 * (&ore_store_io.restamp) the ranges that had writes in flight.
 *
 * Return: 0, or -EINVAL for another kind of store or an unknown @type.
 */
int ore_file_store_enable_csum(struct ore_store *store, u32 type)
{
	if (store->ops != &ore_file_store_ops) {
		pr_err("store %s: not a file store: no side-file checksums\n",
		       store->name);
		return -EINVAL;
	}
	if (type != ORE_CSUM_CRC32C && type != ORE_CSUM_XXH64) {
		pr_err("store %s: unknown checksum type %u\n", store->name,
		       type);
		return -EINVAL;
	}
	/*
	 * NFS: a server commits an attribute's change when it pleases, and
	 * neither fsync nor syncfs on the client asks it to (no COMMIT
	 * without unstable pages): side files only, which they commit.
	 */
	if (file_inode(to_file_store(store)->dir)->i_sb->s_magic ==
	    NFS_SUPER_MAGIC)
		WRITE_ONCE(to_file_store(store)->no_head, true);
	WRITE_ONCE(to_file_store(store)->csum_type, type);
	return 0;
}
EXPORT_SYMBOL_GPL(ore_file_store_enable_csum);

/**
 * ore_file_store_no_heads - keep every checksum entry in the side files
 * @store: a store of ore_file_store_open(), before its first request
 *
 * No object of @store gets a head (ORE_FILE_CSUM_XATTR): the entries of
 * its first ORE_FILE_CSUM_HEAD blocks go to its side file with the others,
 * as on a store without user extended attributes. For a store that other
 * users reach over NFS (pNFS clients), which cannot see heads. An object
 * that has a head already is not read right then: the user makes sure
 * none has (EXOFS_FEATURE_RO_COMPAT_CSUM_SIDE).
 *
 * Return: 0, or -EINVAL for another kind of store.
 */
int ore_file_store_no_heads(struct ore_store *store)
{
	if (store->ops != &ore_file_store_ops)
		return -EINVAL;
	WRITE_ONCE(to_file_store(store)->no_head, true);
	return 0;
}
EXPORT_SYMBOL_GPL(ore_file_store_no_heads);

/**
 * ore_file_store_on_nfs - is a file store's directory on an NFS mount?
 * @store: any store
 *
 * Return: true for a file store over NFS (its files' pages are cached by
 * the NFS client: what other clients write there is seen late).
 */
bool ore_file_store_on_nfs(struct ore_store *store)
{
	return store->ops == &ore_file_store_ops &&
	       file_inode(to_file_store(store)->dir)->i_sb->s_magic ==
	       NFS_SUPER_MAGIC;
}
EXPORT_SYMBOL_GPL(ore_file_store_on_nfs);

/**
 * ore_file_store_forget - let go what a file store caches of an object
 * @store: a file store (another kind: nothing done)
 * @oid: the object
 *
 * For a store that others write too (a pNFS client's data server, which
 * the MDS and other clients write between two of this client's layouts;
 * or the MDS's NFS mount of one, which its clients write): the object's
 * side file is written back and committed (what this user wrote is then
 * on the server for the others to read), its attributes fetched again and
 * its cached pages dropped, and the object's open files closed, so that
 * the next request reads the checksums as they are now (an NFS client
 * keeps an open file's pages until its attributes time out) and opens the
 * object again (NFS revalidates a file at its open). Process context.
 *
 * Return: 0, or the error of the side file's write-back (what the cache
 * held is dropped all the same, written or not).
 */
int ore_file_store_forget(struct ore_store *store, u64 oid)
{
	const struct cred *old_cred;
	struct ore_file_store *fs;
	struct ore_file_obj *fo;
	struct file *cf;
	struct kstat st;
	int err = 0;

	if (store->ops != &ore_file_store_ops)
		return 0;
	fs = to_file_store(store);
	spin_lock(&fs->lock);
	fo = ore_file_lookup(fs, oid);
	if (fo)
		ore_file_unhash(fs, fo);
	spin_unlock(&fs->lock);
	if (!fo)
		return 0;
	cf = READ_ONCE(fo->csum_file);
	if (cf) {
		old_cred = override_creds(fs->cred);
		err = vfs_fsync(cf, 0);
		if (err)
			pr_warn("store %s: oid 0x%llx: the write-back of the checksums' side file failed: %d\n",
				store->name, oid, err);
		vfs_getattr(&cf->f_path, &st, STATX_SIZE, AT_STATX_FORCE_SYNC);
		invalidate_inode_pages2(cf->f_mapping);
		revert_creds(old_cred);
	}
	/* closed by fput()'s deferred work: the caller may be in NFS I/O */
	ore_file_obj_put(fo, false);	/* the lookup's */
	ore_file_obj_put(fo, false);	/* the cache's */
	return err;
}
EXPORT_SYMBOL_GPL(ore_file_store_forget);

static const struct ore_store_ops ore_file_store_ops = {
	.submit		= ore_file_submit,
	.create		= ore_file_create,
	.remove		= ore_file_remove,
	.truncate	= ore_file_truncate,
	.length		= ore_file_length,
	.flush		= ore_file_flush,
	.statfs		= ore_file_statfs,
	.release	= ore_file_release,
};

/**
 * ore_file_store_open - open a directory as an object store
 * @root: absolute path of the directory, on any mounted filesystem
 *
 * The directory must exist and may or may not hold objects already;
 * nothing is created until objects are written. Objects are the files
 * "<root>/<oid in lowercase hex>". The store keeps the credentials of the
 * caller and uses them for all its work, also from other threads. The
 * directory must be writable by the caller. Must be called from process
 * context.
 *
 * Return: the store with one reference (drop it with ore_store_put()), or
 * ERR_PTR: -ENOENT when @root does not exist, -ENOTDIR when it is not a
 * directory, -EACCES when the caller may not create files in it, -EROFS on
 * a read-only filesystem, -ENOMEM.
 */
struct ore_store *ore_file_store_open(const char *root)
{
	struct ore_file_store *fs;
	struct file *dir;
	unsigned int i;
	int err;

	dir = filp_open(root, O_RDONLY | O_DIRECTORY | O_LARGEFILE, 0);
	if (IS_ERR(dir)) {
		err = PTR_ERR(dir);
		pr_err("file store %s: cannot open the directory: %d\n",
		       root, err);
		return ERR_PTR(err);
	}
	err = inode_permission(file_mnt_idmap(dir), file_inode(dir),
			       MAY_WRITE | MAY_EXEC);
	if (err) {
		pr_err("file store %s: cannot create objects in the directory: %d\n",
		       root, err);
		goto out_dir;
	}

	err = -ENOMEM;
	fs = kzalloc(sizeof(*fs), GFP_KERNEL);
	if (!fs)
		goto out_dir;
	/*
	 * At most ORE_FILE_WQ_ACTIVE blocking calls at once per store: they
	 * mostly create backing files, which serialize on the root directory's
	 * lock anyway; hundreds of workers queued on it only cost switches.
	 */
	fs->wq = alloc_workqueue("ore_file%d", WQ_UNBOUND | WQ_MEM_RECLAIM,
				 ORE_FILE_WQ_ACTIVE,
				 atomic_inc_return(&ore_file_store_ids));
	if (!fs->wq)
		goto out_free;
	fs->dir = dir;
	fs->cred = get_current_cred();
	fs->shared = dir->f_path.dentry->d_flags & DCACHE_OP_REVALIDATE;
	spin_lock_init(&fs->lock);
	hash_init(fs->hash);
	for (i = 0; i < ARRAY_SIZE(fs->head_lock); i++)
		mutex_init(&fs->head_lock[i]);
	INIT_LIST_HEAD(&fs->lru);
	ore_store_init(&fs->store, &ore_file_store_ops, root);
	pr_debug("file store %s open\n", root);
	return &fs->store;

out_free:
	kfree(fs);
out_dir:
	fput(dir);
	if (err == -ENOMEM)
		pr_err("file store %s: out of memory\n", root);
	return ERR_PTR(err);
}
EXPORT_SYMBOL_GPL(ore_file_store_open);
