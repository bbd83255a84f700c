// SPDX-License-Identifier: GPL-2.0
/*
 * exofs: mounting (fill_super, options, statfs, remount), and the module.
 *
 * The stores and their superblock objects (reading and checking them at
 * mount, writing them, recording store failures) are in stores.c; mount
 * rewrites the superblocks on a read-write mount.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/fs.h>
#include <linux/fs_context.h>
#include <linux/fs_parser.h>
#include <linux/namei.h>
#include <linux/statfs.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/backing-dev.h>
#include <linux/writeback.h>
#include <linux/ktime.h>
#include <linux/iversion.h>

#include "exofs.h"

static struct kmem_cache *exofs_inode_cachep;

/* Mounted filesystems, so that one UUID is never mounted twice. */
static LIST_HEAD(exofs_mounted);
static DEFINE_MUTEX(exofs_mounted_lock);

void exofs_err(struct super_block *sb, const char *func, const char *fmt, ...)
{
	struct va_format vaf;
	va_list args;

	va_start(args, fmt);
	vaf.fmt = fmt;
	vaf.va = &args;
	pr_err_ratelimited("%s: %s: %pV\n", sb->s_id, func, &vaf);
	va_end(args);
}

void exofs_mark_sb_dirty(struct exofs_sb_info *sbi)
{
	WRITE_ONCE(sbi->sb_dirty, true);
}

/* ------------------------------------------------------------------ */
/* mount options */

/**
 * struct exofs_fs_context - options of one mount or remount
 * @stores: the stores= string
 * @degraded: the degraded flag
 * @force: the force flag
 * @layout: layout values given (raid=, stripe_unit=, ...), to check
 * @layout_set: which of @layout were given (bit = option number)
 */
struct exofs_fs_context {
	char *stores;
	bool degraded;
	bool force;
	u32 layout[6];
	unsigned int layout_set;
};

enum {
	Opt_raid, Opt_stripe_unit, Opt_group_width, Opt_group_depth,
	Opt_group_count, Opt_mirrors,	/* in exofs_fs_context.layout order */
	Opt_stores, Opt_degraded, Opt_force,
};

/*
 * Mount options (comma separated, as mount -o passes them):
 *
 *   stores=<path>[:<path>...]	required: the store directories in device
 *				table order; "" or "missing" for a store
 *				that is not there. Paths cannot hold ':'
 *				or ','.
 *   degraded			mount even with failed stores (missing,
 *				corrupt, stale) the layout can lose; the
 *				mount is then read-only
 *   force			mount although the intent record names
 *				regions with writes in flight at a crash
 *				that cannot be repaired (a store is not in
 *				service): their parity may be stale
 *   raid=<0|4|5|6>		checks: must equal the superblock's
 *   stripe_unit=<bytes>	(these are shown in /proc/mounts, so a
 *   group_width=<n>		remount that repeats them works)
 *   group_depth=<n>
 *   group_count=<n>
 *   mirrors=<n>		copies of each component (mirrors_p1)
 *   ro, rw			as usual
 *
 * e.g. mount -t exofs -o stores=/s0:/s1:/s2:/s3 none /mnt
 */
static const struct fs_parameter_spec exofs_param_spec[] = {
	fsparam_string("stores",	Opt_stores),
	fsparam_flag("degraded",	Opt_degraded),
	fsparam_flag("force",		Opt_force),
	fsparam_u32("raid",		Opt_raid),
	fsparam_u32("stripe_unit",	Opt_stripe_unit),
	fsparam_u32("group_width",	Opt_group_width),
	fsparam_u32("group_depth",	Opt_group_depth),
	fsparam_u32("group_count",	Opt_group_count),
	fsparam_u32("mirrors",		Opt_mirrors),
	{}
};

static const char * const exofs_layout_opt[6] = {
	"raid", "stripe_unit", "group_width", "group_depth", "group_count",
	"mirrors",
};

static int exofs_parse_param(struct fs_context *fc, struct fs_parameter *param)
{
	struct exofs_fs_context *ctx = fc->fs_private;
	struct fs_parse_result result;
	int opt;

	opt = fs_parse(fc, exofs_param_spec, param, &result);
	if (opt < 0)
		return opt;
	switch (opt) {
	case Opt_stores:
		if (!*param->string)
			return invalfc(fc, "stores: empty list");
		kfree(ctx->stores);
		ctx->stores = param->string;
		param->string = NULL;
		break;
	case Opt_degraded:
		ctx->degraded = true;
		break;
	case Opt_force:
		ctx->force = true;
		break;
	default:
		ctx->layout[opt] = result.uint_32;
		ctx->layout_set |= 1U << opt;
		break;
	}
	return 0;
}

/* The layout options given must match the filesystem's. */
static int exofs_check_layout_opts(struct fs_context *fc,
				   const struct ore_layout *l)
{
	struct exofs_fs_context *ctx = fc->fs_private;
	const u32 have[6] = {
		l->raid_algorithm, l->stripe_unit, l->group_width,
		l->group_depth, l->group_count, l->mirrors_p1,
	};
	int i;

	for (i = 0; i < 6; i++)
		if ((ctx->layout_set & (1U << i)) && ctx->layout[i] != have[i])
			return invalfc(fc, "option %s=%u does not match the filesystem's %u",
				       exofs_layout_opt[i], ctx->layout[i],
				       have[i]);
	return 0;
}

/* ------------------------------------------------------------------ */
/* fill_super */

static int exofs_register_mounted(struct exofs_sb_info *sbi,
				  struct fs_context *fc)
{
	struct exofs_sb_info *other;
	int err = 0;

	mutex_lock(&exofs_mounted_lock);
	list_for_each_entry(other, &exofs_mounted, list) {
		if (uuid_equal(&other->uuid, &sbi->uuid)) {
			err = -EBUSY;
			errorfc(fc, "filesystem %pU is mounted already",
				&sbi->uuid);
			break;
		}
	}
	if (!err)
		list_add(&sbi->list, &exofs_mounted);
	mutex_unlock(&exofs_mounted_lock);
	return err;
}

static void exofs_unregister_mounted(struct exofs_sb_info *sbi)
{
	mutex_lock(&exofs_mounted_lock);
	if (!list_empty(&sbi->list))
		list_del_init(&sbi->list);
	mutex_unlock(&exofs_mounted_lock);
}

static void exofs_free_sbi(struct exofs_sb_info *sbi)
{
	exofs_unregister_mounted(sbi);
	exofs_intent_free(sbi);
	exofs_csum_stop(sbi);
	exofs_put_stores(sbi);
	kfree(sbi->sb_buf);
	kfree(sbi->opt_stores);
	kfree(sbi);
}

/*
 * s_max_ino must fit the stores: the inode bitmap (a bit per number) is
 * read whole when a filesystem that was not cleanly unmounted is mounted,
 * so a damaged value must not make the mount read more than the stores
 * can hold.
 */
static int exofs_check_max_ino(struct exofs_sb_info *sbi,
			       struct fs_context *fc)
{
	const struct ore_layout *l = &sbi->layout;
	u64 bitmap = DIV_ROUND_UP(sbi->max_ino, 8);
	u64 total, free, avail, data;

	exofs_stores_space(sbi, &total, &free, &avail);
	data = div64_u64(total * l->data_width,
			 (u64)l->group_width * l->mirrors_p1);
	if (!total || bitmap <= data)
		return 0;
	return invalfc(fc, "s_max_ino %llu needs a %llu-byte inode bitmap, more than the stores hold (%llu bytes of data): superblock damaged",
		       sbi->max_ino, bitmap, data);
}

static const struct super_operations exofs_sops;

static struct exofs_sb_info *exofs_alloc_sbi(struct super_block *sb,
					     struct exofs_fs_context *ctx)
{
	struct exofs_sb_info *sbi;

	sbi = kzalloc(sizeof(*sbi), GFP_KERNEL);
	if (!sbi)
		return NULL;
	sbi->sb = sb;
	INIT_LIST_HEAD(&sbi->list);
	mutex_init(&sbi->sb_mutex);
	mutex_init(&sbi->alloc_mutex);
	INIT_WORK(&sbi->sb_work, exofs_sb_work);
	exofs_pnfs_pins_init(sbi);
	spin_lock_init(&sbi->fail_lock);
	spin_lock_init(&sbi->made_lock);
	INIT_LIST_HEAD(&sbi->made_list);
	mutex_init(&sbi->made_mutex);
	INIT_LIST_HEAD(&sbi->held);
	init_waitqueue_head(&sbi->fail_wait);
	init_completion(&sbi->kobj_unregister);
	mutex_init(&sbi->rebuild_mutex);
	INIT_LIST_HEAD(&sbi->retired);
	sbi->opt_degraded = ctx->degraded;
	sbi->opt_stores = kstrdup(ctx->stores, GFP_KERNEL);
	sbi->sb_buf = kzalloc(EXOFS_SB_SIZE, GFP_KERNEL);
	if (!sbi->opt_stores || !sbi->sb_buf) {
		kfree(sbi->opt_stores);
		kfree(sbi->sb_buf);
		kfree(sbi);
		return NULL;
	}
	return sbi;
}

/* The in-memory state taken from the reference superblock. */
static int exofs_load_fsb(struct exofs_sb_info *sbi, struct fs_context *fc)
{
	struct super_block *sb = sbi->sb;
	struct exofs_fsb *fsb = exofs_fsb(sbi->sb_buf);
	u32 ro_compat = le32_to_cpu(fsb->s_feature_ro_compat);
	u64 sp;
	int err;

	import_uuid(&sbi->uuid, fsb->s_uuid);
	snprintf(sb->s_id, sizeof(sb->s_id), "exofs-%*phN", 4, fsb->s_uuid);
	err = exofs_register_mounted(sbi, fc);
	if (err)
		return err;
	if (ro_compat & ~EXOFS_FEATURE_RO_COMPAT_SUPP) {
		pr_warn("%s: unknown read-only features: mounting read-only\n",
			sb->s_id);
		sb->s_flags |= SB_RDONLY;
	}
	if (sbi->degraded)
		sb->s_flags |= SB_RDONLY;

	sbi->lazy_comps = !(ro_compat & EXOFS_FEATURE_RO_COMPAT_COMPONENTS);
	sbi->sized_comps = !sbi->lazy_comps &&
			   (ro_compat & EXOFS_FEATURE_RO_COMPAT_SIZED);
	/* nothing to protect without redundancy */
	sbi->intent_on = (ro_compat & EXOFS_FEATURE_RO_COMPAT_INTENT) &&
			 (sbi->layout.parity || sbi->layout.mirrors_p1 > 1);
	err = exofs_csum_start(sbi, ro_compat,
			       le32_to_cpu(fsb->s_csum_type));
	if (err)
		return err;
	sbi->max_ino = le64_to_cpu(fsb->s_max_ino);
	sbi->next_ino = le64_to_cpu(fsb->s_next_ino);
	sbi->used_inodes = le64_to_cpu(fsb->s_used_inodes);
	err = exofs_check_max_ino(sbi, fc);
	if (err)
		return err;
	sp = sbi->layout.stripe_length >> PAGE_SHIFT;
	if (sp && sp <= EXOFS_WB_MAX_PAGES) {
		u64 whole = rounddown(EXOFS_WB_MAX_BYTES >> PAGE_SHIFT, sp);

		sbi->wb_max_pages = max(sp, whole);
	} else {
		sbi->wb_max_pages = EXOFS_WB_MAX_PAGES;
	}
	return 0;
}

static int exofs_setup_sb(struct super_block *sb)
{
	struct exofs_sb_info *sbi = exofs_sb(sb);
	int err;

	sb->s_magic = EXOFS_SUPER_MAGIC;
	sb->s_op = &exofs_sops;
	sb->s_export_op = &exofs_export_ops;
	sb->s_maxbytes = EXOFS_MAX_FILE_SIZE;
	sb->s_blocksize = PAGE_SIZE;
	sb->s_blocksize_bits = PAGE_SHIFT;
	sb->s_max_links = EXOFS_LINK_MAX;
	sb->s_time_gran = 1;
	sb->s_time_min = S64_MIN;
	sb->s_time_max = S64_MAX;
	sb->s_iflags |= SB_I_STABLE_WRITES;
	sb->s_flags |= SB_NOSEC;
	super_set_uuid(sb, exofs_fsb(sbi->sb_buf)->s_uuid, EXOFS_UUID_SIZE);
	err = super_setup_bdi(sb);
	if (err)
		return err;
	sb->s_bdi->ra_pages = max_t(unsigned long, VM_READAHEAD_PAGES,
				    2 * sbi->wb_max_pages);
	sb->s_bdi->io_pages = sbi->wb_max_pages;
	return 0;
}

/*
 * The inode table and bitmap objects; after an unclean unmount the count of
 * used inodes is taken from the bitmap. On error the caller puts them.
 */
static int exofs_open_tables(struct exofs_sb_info *sbi)
{
	struct super_block *sb = sbi->sb;
	u64 used;
	int err;

	sbi->itable = exofs_internal_inode(sb, EXOFS_ITABLE_INO,
					   EXOFS_ITABLE_OID,
					   sbi->max_ino * EXOFS_INODE_SIZE);
	if (!sbi->itable)
		return -ENOMEM;
	sbi->ibitmap = exofs_internal_inode(sb, EXOFS_IBITMAP_INO,
					    EXOFS_IBITMAP_OID,
					    round_up(DIV_ROUND_UP(sbi->max_ino, 8),
						     PAGE_SIZE));
	if (!sbi->ibitmap)
		return -ENOMEM;
	if (le32_to_cpu(exofs_fsb(sbi->sb_buf)->s_state) == EXOFS_STATE_CLEAN)
		return 0;
	pr_warn("%s: not cleanly unmounted: recounting inodes\n", sb->s_id);
	err = exofs_count_inodes(sb, &used);
	if (err)
		return err;
	sbi->used_inodes = used;
	return 0;
}

static int exofs_make_root(struct super_block *sb, struct fs_context *fc)
{
	struct inode *root;
	int err;

	root = exofs_iget(sb, EXOFS_ROOT_INO);
	if (IS_ERR(root)) {
		err = PTR_ERR(root);
		errorfc(fc, "cannot read the root directory: %d", err);
		return err;
	}
	if (!S_ISDIR(root->i_mode)) {
		iput(root);
		errorfc(fc, "the root inode is not a directory");
		return -EFSCORRUPTED;
	}
	sb->s_root = d_make_root(root);
	if (!sb->s_root)
		return -ENOMEM;
	return 0;
}

static int exofs_fill_super(struct super_block *sb, struct fs_context *fc)
{
	struct exofs_fs_context *ctx = fc->fs_private;
	struct exofs_sb_info *sbi;
	struct exofs_fsb *fsb;
	int err;

	if (!ctx->stores)
		return invalfc(fc, "the stores= option is required");
	sbi = exofs_alloc_sbi(sb, ctx);
	if (!sbi)
		return -ENOMEM;
	sb->s_fs_info = sbi;
	err = exofs_parse_stores(sbi, ctx->stores, fc);
	if (err)
		goto out_free;
	err = exofs_scan_stores(sbi, fc);
	if (err)
		goto out_free;
	err = exofs_check_layout_opts(fc, &sbi->layout);
	if (err)
		goto out_free;
	err = exofs_load_fsb(sbi, fc);
	if (err)
		goto out_free;
	err = exofs_setup_sb(sb);
	if (err)
		goto out_free;
	/* regions torn by a crash are repaired before anything reads them */
	err = exofs_intent_mount(sbi, ctx->force);
	if (err) {
		errorfc(fc, "the intent record: %d", err);
		goto out_free;
	}
	err = exofs_open_tables(sbi);
	if (err)
		goto out_iput;
	err = exofs_make_root(sb, fc);
	if (err)
		goto out_iput;

	fsb = exofs_fsb(sbi->sb_buf);
	if (!sb_rdonly(sb)) {
		fsb->s_mount_time = cpu_to_le64(ktime_get_real_seconds());
		err = exofs_write_supers(sbi, EXOFS_STATE_DIRTY, true);
		if (err) {
			errorfc(fc, "cannot write the superblocks: %d", err);
			goto out_root;
		}
		err = exofs_intent_start(sbi);
		if (err)
			goto out_root;
	}
	err = exofs_sysfs_register(sbi);
	if (err)
		goto out_root;
	/* a store found being rebuilt: go on (it stays rebuilding if not) */
	if (!sb_rdonly(sb))
		exofs_rebuild_resume(sbi);

	pr_info("%s: mounted %pU \"%.*s\": %u stores, raid %u, stripe_unit %u, group_width %u, group_depth %u, group_count %u, %u copies%s%s\n",
		sb->s_id, fsb->s_uuid, EXOFS_LABEL_SIZE, fsb->s_label,
		sbi->num_stores, sbi->layout.raid_algorithm,
		sbi->layout.stripe_unit, sbi->layout.group_width,
		sbi->layout.group_depth, sbi->layout.group_count,
		sbi->layout.mirrors_p1, sbi->degraded ? ", degraded" : "",
		sb_rdonly(sb) ? ", read-only" : "");
	return 0;

out_root:
	/* generic_shutdown_super() puts s_root and calls exofs_put_super() */
	return err;
out_iput:
	iput(sbi->ibitmap);
	iput(sbi->itable);
	sbi->itable = NULL;
	sbi->ibitmap = NULL;
out_free:
	sb->s_fs_info = NULL;
	exofs_free_sbi(sbi);
	return err;
}

/* ------------------------------------------------------------------ */
/* super_operations */

static struct inode *exofs_alloc_inode(struct super_block *sb)
{
	struct exofs_i_info *oi;

	oi = alloc_inode_sb(sb, exofs_inode_cachep, GFP_KERNEL);
	if (!oi)
		return NULL;
	oi->i_flags = 0;
	oi->state = 0;
	oi->dir_start_lookup = 0;
	oi->wb_nr = 0;
	oi->wb_excl = false;
	oi->made_rec = 0;
	oi->pin_first = 0;
	oi->pin_count = 0;
	oi->pin_seq = 0;
	atomic_set(&oi->pnfs_gen, 0);
	oi->pnfs_seen = 0;
	memset(&oi->i_crtime, 0, sizeof(oi->i_crtime));
	inode_set_iversion(&oi->vfs_inode, 1);
	return &oi->vfs_inode;
}

static void exofs_free_inode(struct inode *inode)
{
	kmem_cache_free(exofs_inode_cachep, exofs_i(inode));
}

static void exofs_init_once(void *p)
{
	struct exofs_i_info *oi = p;

	spin_lock_init(&oi->wlock);
	INIT_LIST_HEAD(&oi->wb_list);
	INIT_LIST_HEAD(&oi->made_node);
	inode_init_once(&oi->vfs_inode);
}

/*
 * Write the records still behind their inode's i_made, the inode table and
 * bitmap pages, and flush every store.
 */
static int exofs_sync_meta(struct exofs_sb_info *sbi)
{
	int err, err2;

	err = exofs_record_made(sbi);
	err2 = filemap_write_and_wait(sbi->itable->i_mapping);
	if (!err)
		err = err2;
	err2 = filemap_write_and_wait(sbi->ibitmap->i_mapping);
	if (!err)
		err = err2;
	err2 = exofs_sync_stores(sbi);
	return err ? err : err2;
}

static int exofs_sync_fs(struct super_block *sb, int wait)
{
	struct exofs_sb_info *sbi = exofs_sb(sb);
	int err, err2;

	if (!wait) {
		exofs_record_made(sbi);
		filemap_fdatawrite(sbi->itable->i_mapping);
		filemap_fdatawrite(sbi->ibitmap->i_mapping);
		return 0;
	}
	err = exofs_sync_meta(sbi);
	if (!sb_rdonly(sb) && READ_ONCE(sbi->sb_dirty)) {
		int e = exofs_write_supers(sbi, EXOFS_STATE_DIRTY, true);

		if (!err)
			err = e;
	}
	err2 = exofs_wait_failures(sbi);
	return err ? err : err2;
}

static void exofs_put_super(struct super_block *sb)
{
	struct exofs_sb_info *sbi = exofs_sb(sb);

	exofs_sysfs_unregister(sbi);
	exofs_pnfs_pins_flush(sbi);
	exofs_rebuild_release(sbi);
	if (!sb_rdonly(sb)) {
		/* evict_inodes() may have freed inodes since the last sync */
		exofs_sync_meta(sbi);
		flush_work(&sbi->sb_work);
		exofs_intent_stop(sbi);
		exofs_write_supers(sbi, EXOFS_STATE_CLEAN, true);
	}
	iput(sbi->ibitmap);
	iput(sbi->itable);
	cancel_work_sync(&sbi->sb_work);
	sb->s_fs_info = NULL;
	pr_info("%s: unmounted\n", sb->s_id);
	exofs_free_sbi(sbi);
}

static int exofs_statfs(struct dentry *dentry, struct kstatfs *buf)
{
	struct super_block *sb = dentry->d_sb;
	struct exofs_sb_info *sbi = exofs_sb(sb);
	const struct ore_layout *l = &sbi->layout;
	u64 total, free, avail, div;

	exofs_stores_space(sbi, &total, &free, &avail);
	/* what is left for data once parity and mirrors take their share */
	div = (u64)l->group_width * l->mirrors_p1 * PAGE_SIZE;
	buf->f_type = EXOFS_SUPER_MAGIC;
	buf->f_bsize = PAGE_SIZE;
	buf->f_frsize = PAGE_SIZE;
	buf->f_blocks = div64_u64(total * l->data_width, div);
	buf->f_bfree = div64_u64(free * l->data_width, div);
	buf->f_bavail = div64_u64(avail * l->data_width, div);
	buf->f_files = sbi->max_ino;
	buf->f_ffree = sbi->max_ino - min(sbi->used_inodes, sbi->max_ino);
	buf->f_namelen = EXOFS_NAME_LEN;
	buf->f_fsid = uuid_to_fsid(sbi->uuid.b);
	return 0;
}

static int exofs_show_options(struct seq_file *m, struct dentry *root)
{
	struct exofs_sb_info *sbi = exofs_sb(root->d_sb);
	const struct ore_layout *l = &sbi->layout;

	seq_show_option(m, "stores", READ_ONCE(sbi->opt_stores));
	if (sbi->opt_degraded)
		seq_puts(m, ",degraded");
	seq_printf(m, ",raid=%u,stripe_unit=%u,group_width=%u,group_depth=%u,group_count=%u,mirrors=%u",
		   l->raid_algorithm, l->stripe_unit, l->group_width,
		   l->group_depth, l->group_count, l->mirrors_p1);
	return 0;
}

static const struct super_operations exofs_sops = {
	.alloc_inode	= exofs_alloc_inode,
	.free_inode	= exofs_free_inode,
	.write_inode	= exofs_write_inode,
	.evict_inode	= exofs_evict_inode,
	.put_super	= exofs_put_super,
	.sync_fs	= exofs_sync_fs,
	.statfs		= exofs_statfs,
	.show_options	= exofs_show_options,
};

/* ------------------------------------------------------------------ */
/* fs_context */

static int exofs_get_tree(struct fs_context *fc)
{
	return get_tree_nodev(fc, exofs_fill_super);
}

static int exofs_reconfigure(struct fs_context *fc)
{
	struct exofs_fs_context *ctx = fc->fs_private;
	struct super_block *sb = fc->root->d_sb;
	struct exofs_sb_info *sbi = exofs_sb(sb);
	bool want_ro = fc->sb_flags & SB_RDONLY;
	int err;

	if (ctx->stores && strcmp(ctx->stores, READ_ONCE(sbi->opt_stores)))
		return invalfc(fc, "stores= cannot change on remount (now %s)",
			       sbi->opt_stores);
	err = exofs_check_layout_opts(fc, &sbi->layout);
	if (err)
		return err;
	sync_filesystem(sb);
	if (want_ro == sb_rdonly(sb))
		return 0;
	if (!want_ro) {
		if (sbi->degraded)
			return invalfc(fc, "a degraded mount stays read-only");
		err = exofs_write_supers(sbi, EXOFS_STATE_DIRTY, true);
		if (err)
			return err;
		err = exofs_intent_start(sbi);
		if (err)
			return err;
		/* s_flags turn read-write as this returns */
		exofs_rebuild_resume(sbi);
		exofs_csum_resume(sbi);
	} else {
		/* the store stays rebuilding, from its checkpoint */
		exofs_rebuild_stop(sbi);
		/* a repair writes: none once the record stops */
		exofs_csum_pause(sbi);
		exofs_sync_meta(sbi);
		exofs_intent_stop(sbi);
		exofs_write_supers(sbi, EXOFS_STATE_CLEAN, true);
	}
	return 0;
}

static void exofs_free_fc(struct fs_context *fc)
{
	struct exofs_fs_context *ctx = fc->fs_private;

	if (ctx)
		kfree(ctx->stores);
	kfree(ctx);
}

static const struct fs_context_operations exofs_context_ops = {
	.parse_param	= exofs_parse_param,
	.get_tree	= exofs_get_tree,
	.reconfigure	= exofs_reconfigure,
	.free		= exofs_free_fc,
};

static int exofs_init_fs_context(struct fs_context *fc)
{
	struct exofs_fs_context *ctx = kzalloc(sizeof(*ctx), GFP_KERNEL);

	if (!ctx)
		return -ENOMEM;
	fc->fs_private = ctx;
	fc->ops = &exofs_context_ops;
	return 0;
}

static void exofs_kill_sb(struct super_block *sb)
{
	/*
	 * The rebuild and the checksum repairs hold inode references: gone
	 * before evict_inodes()
	 */
	if (sb->s_fs_info) {
		exofs_rebuild_stop(exofs_sb(sb));
		exofs_csum_stop(exofs_sb(sb));
	}
	kill_anon_super(sb);
}

static struct file_system_type exofs_type = {
	.owner			= THIS_MODULE,
	.name			= "exofs",
	.init_fs_context	= exofs_init_fs_context,
	.parameters		= exofs_param_spec,
	.kill_sb		= exofs_kill_sb,
};
MODULE_ALIAS_FS("exofs");

static int __init exofs_init(void)
{
	int err;

	/* inline symlink targets are copied to user space from i_data */
	exofs_inode_cachep =
		kmem_cache_create_usercopy("exofs_inode_cache",
					   sizeof(struct exofs_i_info), 0,
					   SLAB_RECLAIM_ACCOUNT | SLAB_ACCOUNT,
					   offsetof(struct exofs_i_info, i_data),
					   sizeof_field(struct exofs_i_info,
							i_data),
					   exofs_init_once);
	if (!exofs_inode_cachep)
		return -ENOMEM;
	err = exofs_sysfs_init();
	if (err)
		goto out_cache;
	err = register_filesystem(&exofs_type);
	if (err)
		goto out_sysfs;
	pr_info("exofs over ORE loaded\n");
	return 0;

out_sysfs:
	exofs_sysfs_exit();
out_cache:
	kmem_cache_destroy(exofs_inode_cachep);
	return err;
}

static void __exit exofs_exit(void)
{
	unregister_filesystem(&exofs_type);
	exofs_sysfs_exit();
	/* inodes are freed after an RCU grace period */
	rcu_barrier();
	kmem_cache_destroy(exofs_inode_cachep);
}

module_init(exofs_init);
module_exit(exofs_exit);

MODULE_DESCRIPTION("exofs: POSIX filesystem over ORE object stores");
MODULE_LICENSE("GPL");
