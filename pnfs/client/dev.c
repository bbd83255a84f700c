// SPDX-License-Identifier: GPL-2.0
/*
 * objlayoutdriver devices: which local store directory serves a pNFS
 * device (an exofs store exported by a data server).
 *
 * The administrator (or the mount helper, below) mounts each data server's
 * export and writes the mount point into
 * /sys/module/objlayoutdriver/parameters/stores. The driver opens it as an
 * ORE file store right then, in the writer's context (its root and
 * credentials: the component files are reached with them), reads the
 * store's superblock object and keeps the store under the two UUIDs found
 * there: the filesystem's (s_uuid) and the store's (s_store_uuid). A
 * filesystem made with its checksums in side files only (CSUM_SIDE) has
 * the store keep them: writes store the entries, reads verify them.
 *
 * A GETDEVICEINFO reply names a device by the same two UUIDs
 * (oda_systemid, 32 bytes: filesystem, then store; docs/pnfs.md). When
 * they are not in the table and /sys/module/objlayoutdriver/parameters/
 * helper names a program, it is run once per device with the address
 * (helper NETID UADDR OSDNAME FS-UUID STORE-UUID) and is expected to mount
 * the export and add the mount point to the table, as the old osd_login
 * upcall of the objects layout did; the table is then searched again. A
 * device with no store is kept in NFS's device cache without one: layouts
 * that use it are unavailable and their I/O goes through the MDS.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/umh.h>
#include <linux/highmem.h>

#include <exofs/exofs_fs.h>
#include <exofs/format.h>

#include "objlayout.h"

#define OL_MAX_STORES	256
#define OL_PATH_MAX	256

/**
 * struct ol_store - a store directory in the table
 * @list: in ol_stores
 * @store: the open file store (one reference)
 * @fs_uuid: the filesystem it belongs to (s_uuid)
 * @store_uuid: its own UUID (s_store_uuid)
 * @index: its slot in the filesystem's device table (s_store_index)
 * @path: the directory, as written
 */
struct ol_store {
	struct list_head list;
	struct ore_store *store;
	uuid_t fs_uuid;
	uuid_t store_uuid;
	u32 index;
	char path[OL_PATH_MAX];
};

static LIST_HEAD(ol_stores);
static DEFINE_MUTEX(ol_stores_mutex);
static unsigned int ol_nr_stores;

static char ol_helper[OL_PATH_MAX];
module_param_string(helper, ol_helper, sizeof(ol_helper), 0644);
MODULE_PARM_DESC(helper,
		 "program run for a device with no store: helper NETID UADDR OSDNAME FS-UUID STORE-UUID");

static void ol_sb_end_io(struct ore_store_io *sio)
{
	complete(sio->private);
}

/* Read the superblock object of @store into @page. */
static int ol_read_sb(struct ore_store *store, struct page *page)
{
	DECLARE_COMPLETION_ONSTACK(done);
	struct ore_store_io sio = {};
	struct bio_vec bv;

	bvec_set_page(&bv, page, EXOFS_SB_SIZE, 0);
	sio.store = store;
	sio.oid = EXOFS_SUPER_OID;
	sio.len = EXOFS_SB_SIZE;
	sio.bvec = &bv;
	sio.nr_bvec = 1;
	sio.end_io = ol_sb_end_io;
	sio.private = &done;
	store->ops->submit(&sio);
	wait_for_completion(&done);
	return sio.error;
}

/*
 * A checksummed filesystem (EXOFS_FEATURE_RO_COMPAT_CSUM): with every
 * entry in side files (CSUM_SIDE), the store keeps them as the MDS's
 * stores do, of the filesystem's type: writes store them, reads verify
 * them (a block that fails is rebuilt from the redundancy and reported to
 * the MDS, not rewritten here). With heads, which this mount cannot see,
 * the MDS hands out no layout: the store keeps none.
 */
static int ol_store_csum(struct ol_store *s, const struct exofs_fsb *fsb)
{
	u32 ro_compat = le32_to_cpu(fsb->s_feature_ro_compat);
	int err;

	if (!(ro_compat & EXOFS_FEATURE_RO_COMPAT_CSUM))
		return 0;
	if (!(ro_compat & EXOFS_FEATURE_RO_COMPAT_CSUM_SIDE)) {
		pr_info("store %s: data checksums in heads (extended attributes), which this mount cannot see: the MDS hands out no layout for it\n",
			s->path);
		return 0;
	}
	err = ore_file_store_enable_csum(s->store,
					 le32_to_cpu(fsb->s_csum_type));
	if (!err)
		err = ore_file_store_no_heads(s->store);
	if (err)
		pr_err("store %s: cannot keep its data checksums: %d\n",
		       s->path, err);
	return err;
}

/*
 * Open the store directory @path, learn its UUIDs from its superblock and
 * keep its data checksums as the filesystem does (ol_store_csum()).
 */
static struct ol_store *ol_store_open(const char *path)
{
	struct ore_layout layout;
	const struct exofs_fsb *fsb;
	struct ol_store *s;
	struct page *page;
	const char *why;
	int err;

	s = kzalloc(sizeof(*s), GFP_KERNEL);
	page = alloc_page(GFP_KERNEL);
	err = -ENOMEM;
	if (!s || !page)
		goto out_free;
	strscpy(s->path, path, sizeof(s->path));
	s->store = ore_file_store_open(path);
	if (IS_ERR(s->store)) {
		err = PTR_ERR(s->store);
		goto out_free;
	}
	err = ol_read_sb(s->store, page);
	if (err) {
		pr_err("store %s: cannot read its superblock object: %d\n",
		       path, err);
		goto out_put;
	}
	fsb = page_address(page);
	err = exofs_sb_check(fsb, &layout, &why);
	if (err) {
		pr_err("store %s: not an exofs store: %s\n", path, why);
		goto out_put;
	}
	import_uuid(&s->fs_uuid, fsb->s_uuid);
	import_uuid(&s->store_uuid, fsb->s_store_uuid);
	s->index = le32_to_cpu(fsb->s_store_index);
	err = ol_store_csum(s, fsb);
	if (err)
		goto out_put;
	__free_page(page);
	return s;

out_put:
	ore_store_put(s->store);
out_free:
	if (page)
		__free_page(page);
	kfree(s);
	return ERR_PTR(err);
}

static void ol_store_free(struct ol_store *s)
{
	ore_store_put(s->store);
	kfree(s);
}

/*
 * The store of filesystem @fs_uuid with UUID @store_uuid, with a reference
 * taken, or NULL.
 */
static struct ore_store *ol_store_find(const uuid_t *fs_uuid,
				       const uuid_t *store_uuid)
{
	struct ore_store *store = NULL;
	struct ol_store *s;

	mutex_lock(&ol_stores_mutex);
	list_for_each_entry(s, &ol_stores, list)
		if (uuid_equal(&s->fs_uuid, fs_uuid) &&
		    uuid_equal(&s->store_uuid, store_uuid)) {
			store = s->store;
			ore_store_get(store);
			break;
		}
	mutex_unlock(&ol_stores_mutex);
	return store;
}

/*
 * "PATH" adds the store directory PATH (replacing an entry with the same
 * UUIDs), "-PATH" removes the entry of PATH, "clear" empties the table.
 * Layouts already using a store keep it until they are freed.
 */
static int ol_stores_set(const char *val, const struct kernel_param *kp)
{
	struct ol_store *s, *tmp, *n;
	char *path;
	LIST_HEAD(gone);
	int ret = 0;

	path = kstrdup(val, GFP_KERNEL);
	if (!path)
		return -ENOMEM;
	strim(path);
	if (!strcmp(path, "clear") || path[0] == '-') {
		mutex_lock(&ol_stores_mutex);
		list_for_each_entry_safe(s, tmp, &ol_stores, list)
			if (path[0] != '-' || !strcmp(s->path, path + 1)) {
				list_move(&s->list, &gone);
				ol_nr_stores--;
			}
		mutex_unlock(&ol_stores_mutex);
		list_for_each_entry_safe(s, tmp, &gone, list)
			ol_store_free(s);
		goto out;
	}
	ret = -EINVAL;
	if (path[0] != '/' || strlen(path) >= OL_PATH_MAX)
		goto out;
	n = ol_store_open(path);
	if (IS_ERR(n)) {
		ret = PTR_ERR(n);
		goto out;
	}
	mutex_lock(&ol_stores_mutex);
	list_for_each_entry_safe(s, tmp, &ol_stores, list)
		if (uuid_equal(&s->fs_uuid, &n->fs_uuid) &&
		    uuid_equal(&s->store_uuid, &n->store_uuid)) {
			list_move(&s->list, &gone);
			ol_nr_stores--;
		}
	ret = -ENOSPC;
	if (ol_nr_stores < OL_MAX_STORES) {
		list_add_tail(&n->list, &ol_stores);
		ol_nr_stores++;
		ret = 0;
	}
	mutex_unlock(&ol_stores_mutex);
	if (ret)
		ol_store_free(n);
	else
		pr_info("store %s: filesystem %pUb store %u (%pUb)\n",
			n->path, &n->fs_uuid, n->index, &n->store_uuid);
	list_for_each_entry_safe(s, tmp, &gone, list)
		ol_store_free(s);
out:
	kfree(path);
	return ret;
}

static int ol_stores_get(char *buf, const struct kernel_param *kp)
{
	struct ol_store *s;
	int n = 0;

	mutex_lock(&ol_stores_mutex);
	list_for_each_entry(s, &ol_stores, list)
		n += scnprintf(buf + n, PAGE_SIZE - n, "%pUb %pUb %u %s\n",
			       &s->store_uuid, &s->fs_uuid, s->index, s->path);
	mutex_unlock(&ol_stores_mutex);
	return n;
}

static const struct kernel_param_ops ol_stores_ops = {
	.set = ol_stores_set,
	.get = ol_stores_get,
};
module_param_cb(stores, &ol_stores_ops, NULL, 0644);
MODULE_PARM_DESC(stores,
		 "local store directories: write 'PATH', '-PATH' or 'clear'; read 'STORE-UUID FS-UUID INDEX PATH' lines");

/**
 * objlayout_stores_exit - close every store of the table (module unload)
 */
void objlayout_stores_exit(void)
{
	struct ol_store *s, *tmp;

	list_for_each_entry_safe(s, tmp, &ol_stores, list) {
		list_del(&s->list);
		ol_store_free(s);
	}
	ol_nr_stores = 0;
}

/* Run the helper for the device at @da of filesystem @fs, store @st. */
static void ol_run_helper(const struct pnfs_osd_deviceaddr *da,
			  const uuid_t *fs, const uuid_t *st)
{
	char *netid, *uaddr, *osdname, fs_s[UUID_STRING_LEN + 1];
	char st_s[UUID_STRING_LEN + 1], helper[OL_PATH_MAX];
	char *envp[] = { "HOME=/", "PATH=/sbin:/bin:/usr/sbin:/usr/bin",
			 NULL };
	char *argv[7];
	int ret;

	kernel_param_lock(THIS_MODULE);
	strscpy(helper, ol_helper, sizeof(helper));
	kernel_param_unlock(THIS_MODULE);
	strim(helper);	/* echo's newline */
	if (!helper[0] || !da->oda_targetaddr_available)
		return;
	netid = kmemdup_nul(da->oda_netid.data, da->oda_netid.len, GFP_KERNEL);
	uaddr = kmemdup_nul(da->oda_uaddr.data, da->oda_uaddr.len, GFP_KERNEL);
	osdname = kmemdup_nul(da->oda_osdname.data, da->oda_osdname.len,
			      GFP_KERNEL);
	if (!netid || !uaddr || !osdname)
		goto out;
	snprintf(fs_s, sizeof(fs_s), "%pUb", fs);
	snprintf(st_s, sizeof(st_s), "%pUb", st);
	argv[0] = helper;
	argv[1] = netid;
	argv[2] = uaddr;
	argv[3] = osdname;
	argv[4] = fs_s;
	argv[5] = st_s;
	argv[6] = NULL;
	ret = call_usermodehelper(helper, argv, envp, UMH_WAIT_PROC);
	if (ret)
		pr_warn("helper %s %s %s %s %s %s failed: %d\n", helper,
			netid, uaddr, osdname, fs_s, st_s, ret);
out:
	kfree(netid);
	kfree(uaddr);
	kfree(osdname);
}

/**
 * objlayout_alloc_deviceid_node - a device of a GETDEVICEINFO reply
 * @server: the NFS server (metadata server) of the mount
 * @pdev: the reply: da_addr_body in @pdev->pages, @pdev->mincount bytes
 * @gfp: allocation flags
 *
 * Decodes the device address (pnfs_osd_deviceaddr4) and finds the store
 * it names by the UUIDs of its oda_systemid (running the helper when it is
 * not in the table). A device whose store is not found is returned without
 * a store: layouts using it are unavailable.
 *
 * Return: the device's node, or NULL for a malformed reply or no memory.
 */
struct nfs4_deviceid_node *objlayout_alloc_deviceid_node(struct nfs_server *server,
							 struct pnfs_device *pdev,
							 gfp_t gfp)
{
	struct pnfs_osd_deviceaddr da;
	struct pnfs_osd_xdr_err xerr = {};
	struct objlayout_dev *dev;
	u32 len = pdev->mincount;
	uuid_t fs_uuid, st_uuid;
	u8 *buf;
	int ret;

	if (!len || len > PAGE_SIZE * 4 ||
	    len > (size_t)DIV_ROUND_UP(pdev->pglen, PAGE_SIZE) * PAGE_SIZE) {
		pr_warn("device %*phN: device address of %u bytes refused\n",
			NFS4_DEVICEID4_SIZE, pdev->dev_id.data, len);
		return NULL;
	}
	buf = objlayout_flatten(pdev->pages, len, gfp);
	dev = kzalloc(sizeof(*dev), gfp);
	if (!buf || !dev)
		goto out_free;
	ret = pnfs_osd_xdr_decode_deviceaddr(buf, len, &da, &xerr);
	if (ret < 0) {
		pr_warn("device %*phN: malformed device address: %s %s at byte %u\n",
			NFS4_DEVICEID4_SIZE, pdev->dev_id.data, xerr.field,
			xerr.why, xerr.pos);
		goto out_free;
	}
	nfs4_init_deviceid_node(&dev->node, server, &pdev->dev_id);
	atomic64_inc(&objlayout_cnt[OL_DEVICES]);
	if (da.oda_systemid.len != 2 * UUID_SIZE) {
		pr_warn("device %*phN: system id of %u bytes, not an exofs store\n",
			NFS4_DEVICEID4_SIZE, pdev->dev_id.data,
			da.oda_systemid.len);
		goto no_store;
	}
	import_uuid(&fs_uuid, da.oda_systemid.data);
	import_uuid(&st_uuid, da.oda_systemid.data + UUID_SIZE);
	dev->store = ol_store_find(&fs_uuid, &st_uuid);
	if (!dev->store) {
		ol_run_helper(&da, &fs_uuid, &st_uuid);
		dev->store = ol_store_find(&fs_uuid, &st_uuid);
	}
	if (!dev->store) {
		pr_warn_ratelimited("device %*phN: no local store of filesystem %pUb store %pUb (%.*s:%.*s): its layouts go through the MDS\n",
				    NFS4_DEVICEID4_SIZE, pdev->dev_id.data,
				    &fs_uuid, &st_uuid, da.oda_uaddr.len,
				    da.oda_uaddr.data, da.oda_osdname.len,
				    da.oda_osdname.data);
		goto no_store;
	}
	kfree(buf);
	return &dev->node;

no_store:
	atomic64_inc(&objlayout_cnt[OL_NO_STORE]);
	kfree(buf);
	return &dev->node;

out_free:
	kfree(buf);
	kfree(dev);
	return NULL;
}

/**
 * objlayout_free_deviceid_node - free a device when NFS drops it
 * @node: the device's node
 */
void objlayout_free_deviceid_node(struct nfs4_deviceid_node *node)
{
	struct objlayout_dev *dev = container_of(node, struct objlayout_dev,
						 node);

	if (dev->store)
		ore_store_put(dev->store);
	kfree_rcu(dev, node.rcu);
}
