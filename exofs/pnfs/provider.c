// SPDX-License-Identifier: GPL-2.0
/*
 * exofs_pnfs: exofs as the metadata server of the pNFS objects layout
 * (RFC 5664, LAYOUT4_OSD2_OBJECTS), registered with the patched nfsd.ko
 * (pnfs/nfsd/, scripts/build-nfsd.sh) by nfsd4_register_layout_provider().
 * exofs.ko itself does not need nfsd: it loads with Debian's.
 *
 * An exofs export with the pnfs option advertises layout type 2. Then:
 *
 * LAYOUTGET: the ORE data map of the filesystem and every component:
 *	store (first_dev + c) % N, the file's object id, PNFS_OSD_MISSING for
 *	a store out of service. The dirty pages are written back and the
 *	page cache dropped first. A read layout is the whole file; a RW
 *	layout, on a filesystem with an intent record, the regions the file
 *	holds in the record for it (exofs_pnfs_layout_pin(): the write hole),
 *	else the whole file. A RW layout of a degraded (read-only)
 *	filesystem, a layout of a checksummed one that keeps heads
 *	(exofs_pnfs_csum_check()), or of one whose stores
 *	have no data-server address yet, is unavailable: the client does its
 *	I/O through the MDS. The MDS's stores over NFS let go what they
 *	cache of the file before it is handed out and after it is freed or
 *	committed (exofs_pnfs_refresh()).
 * GETDEVICEINFO: the device address of one store, from the table in
 *	/sys/module/exofs_pnfs/parameters/devices (data server address and
 *	export path per store UUID), with the filesystem and store UUIDs in
 *	oda_systemid.
 * LAYOUTCOMMIT: size and mtime (exofs_pnfs_layout_commit()), olu_ioerr_flag
 *	counted.
 * LAYOUTRETURN: the per-component I/O errors of lrf_body, each logged and
 *	counted; with data checksums the stripes of a read error are
 *	scrubbed, rewriting what fails its checksum (exofs_pnfs_read_error()).
 * A RW layout freed by nfsd (->layout_freed(): returned, or let go without
 *	a return when its holder expired, was destroyed or did not answer a
 *	recall): its regions leave the intent record, those of a layout let
 *	go once their parity is repaired (exofs_pnfs_layout_freed()).
 *
 * Device ids (deviceid4, 16 bytes): nfsd finds the export of a
 * GETDEVICEINFO by the first 8 bytes (its fsid_idx, nfsd4_set_deviceid()),
 * bytes 8..11 are ours (the "generation", in host order as nfsd copies
 * it), 12..15 zero. Ours is the store's index in the device table (low 16
 * bits) and 16 bits of a hash of the store's UUID (high 16): a replaced
 * store gets another id, and an id of a store that is not there any more
 * is refused (NFS4ERR_NOENT). docs/pnfs.md has the table.
 */
#include <linux/exportfs.h>
#include <linux/fs.h>
#include <linux/jhash.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/namei.h>
#include <linux/slab.h>
#include <linux/sunrpc/svc.h>
#include <linux/sunrpc/xdr.h>

#include "pnfs.h"		/* nfsd's, from NFSD_SRC */
#include "exofs.h"
#include <pnfs/objlayout_xdr.h>

#define EXP_DEV_INDEX_MASK	0xffffU
#define EXP_MAX_DEVS		64	/* entries of the device table */

/* An encoded body: LAYOUTGET's lg_content, GETDEVICEINFO's gd_device. */
struct exp_body {
	u32 len;
	u8 data[];
};

/**
 * struct exp_dev - where a data server exports one store
 * @uuid: the store's UUID (s_store_uuid)
 * @netid: "tcp" or "tcp6"
 * @uaddr: universal address of its NFS service (RFC 5665)
 * @path: the export path on the data server
 */
struct exp_dev {
	uuid_t uuid;
	char netid[PNFS_OSD_NETID_MAX + 1];
	char uaddr[PNFS_OSD_UADDR_MAX + 1];
	char path[PNFS_OSD_OSDNAME_MAX + 1];
};

static DEFINE_MUTEX(exp_devs_mutex);
static struct exp_dev *exp_devs[EXP_MAX_DEVS];

/* Counters (read-only module parameters). */
enum { EXP_LAYOUTGET, EXP_GETDEVINFO, EXP_COMMIT, EXP_RETURN, EXP_IOERR,
	EXP_IOERR_FLAG, EXP_BAD_BODY, EXP_UNAVAIL, EXP_DROPPED, EXP_NR };
static atomic64_t exp_cnt[EXP_NR];

static int exp_cnt_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%lld\n",
			  atomic64_read(&exp_cnt[(unsigned long)kp->arg]));
}

static const struct kernel_param_ops exp_cnt_ops = { .get = exp_cnt_get };
#define EXP_COUNTER(name, idx, desc) \
	module_param_cb(name, &exp_cnt_ops, (void *)(unsigned long)(idx), 0444); \
	MODULE_PARM_DESC(name, desc)
EXP_COUNTER(layoutgets, EXP_LAYOUTGET, "layouts handed out");
EXP_COUNTER(getdeviceinfos, EXP_GETDEVINFO, "device addresses handed out");
EXP_COUNTER(layoutcommits, EXP_COMMIT, "LAYOUTCOMMITs applied");
EXP_COUNTER(layoutreturns, EXP_RETURN, "LAYOUTRETURNs of a file's layout");
EXP_COUNTER(ioerr_reports, EXP_IOERR, "component I/O errors reported by clients");
EXP_COUNTER(ioerr_flags, EXP_IOERR_FLAG, "LAYOUTCOMMITs with olu_ioerr_flag");
EXP_COUNTER(bad_bodies, EXP_BAD_BODY, "malformed lou_body/lrf_body refused");
EXP_COUNTER(unavailable, EXP_UNAVAIL, "LAYOUTGETs answered LAYOUTUNAVAILABLE");
EXP_COUNTER(layouts_dropped, EXP_DROPPED, "RW layouts nfsd freed without a return");

/* ------------------------------------------------------------ devices */

static struct exp_dev *exp_dev_find(const uuid_t *uuid)
{
	int i;

	lockdep_assert_held(&exp_devs_mutex);
	for (i = 0; i < EXP_MAX_DEVS; i++)
		if (exp_devs[i] && uuid_equal(&exp_devs[i]->uuid, uuid))
			return exp_devs[i];
	return NULL;
}

/*
 * "UUID NETID UADDR PATH" adds or replaces the entry of a store, "-UUID"
 * removes it, "clear" empties the table.
 */
static int exp_devs_set(const char *val, const struct kernel_param *kp)
{
	char uuid_s[UUID_STRING_LEN + 2], netid[PNFS_OSD_NETID_MAX + 1];
	char uaddr[PNFS_OSD_UADDR_MAX + 1];
	struct exp_dev *d, **slot = NULL;
	char *path;
	uuid_t uuid;
	int i, n, ret = 0;

	if (sysfs_streq(val, "clear")) {
		mutex_lock(&exp_devs_mutex);
		for (i = 0; i < EXP_MAX_DEVS; i++) {
			kfree(exp_devs[i]);
			exp_devs[i] = NULL;
		}
		mutex_unlock(&exp_devs_mutex);
		return 0;
	}
	if (val[0] == '-') {
		if (sscanf(val + 1, "%37s", uuid_s) != 1 ||
		    uuid_parse(uuid_s, &uuid))
			return -EINVAL;
		mutex_lock(&exp_devs_mutex);
		for (i = 0; i < EXP_MAX_DEVS; i++)
			if (exp_devs[i] && uuid_equal(&exp_devs[i]->uuid, &uuid)) {
				kfree(exp_devs[i]);
				exp_devs[i] = NULL;
			}
		mutex_unlock(&exp_devs_mutex);
		return 0;
	}
	path = kmalloc(PNFS_OSD_OSDNAME_MAX + 1, GFP_KERNEL);
	d = kzalloc(sizeof(*d), GFP_KERNEL);
	if (!path || !d) {
		ret = -ENOMEM;
		goto out;
	}
	/* widths: UUID_STRING_LEN 36, PNFS_OSD_NETID_MAX 32, _UADDR_MAX 64 */
	n = sscanf(val, "%37s %32s %64s %1024s", uuid_s, netid, uaddr, path);
	ret = -EINVAL;
	if (n != 4 || strlen(uuid_s) != UUID_STRING_LEN ||
	    uuid_parse(uuid_s, &uuid) || uuid_is_null(&uuid) ||
	    strlen(path) >= PNFS_OSD_OSDNAME_MAX || path[0] != '/')
		goto out;
	d->uuid = uuid;
	strscpy(d->netid, netid, sizeof(d->netid));
	strscpy(d->uaddr, uaddr, sizeof(d->uaddr));
	strscpy(d->path, path, sizeof(d->path));
	mutex_lock(&exp_devs_mutex);
	for (i = 0; i < EXP_MAX_DEVS; i++) {
		if (exp_devs[i] && uuid_equal(&exp_devs[i]->uuid, &uuid)) {
			slot = &exp_devs[i];
			break;
		}
		if (!exp_devs[i] && !slot)
			slot = &exp_devs[i];
	}
	ret = -ENOSPC;
	if (slot) {
		kfree(*slot);
		*slot = d;
		d = NULL;
		ret = 0;
	}
	mutex_unlock(&exp_devs_mutex);
out:
	kfree(path);
	kfree(d);
	return ret;
}

static int exp_devs_get(char *buf, const struct kernel_param *kp)
{
	int i, n = 0;

	mutex_lock(&exp_devs_mutex);
	for (i = 0; i < EXP_MAX_DEVS; i++) {
		struct exp_dev *d = exp_devs[i];

		if (d)
			n += scnprintf(buf + n, PAGE_SIZE - n, "%pUb %s %s %s\n",
				       &d->uuid, d->netid, d->uaddr, d->path);
	}
	mutex_unlock(&exp_devs_mutex);
	return n;
}

static const struct kernel_param_ops exp_devs_ops = {
	.set = exp_devs_set,
	.get = exp_devs_get,
};
module_param_cb(devices, &exp_devs_ops, NULL, 0644);
MODULE_PARM_DESC(devices,
		 "data servers: write 'STORE-UUID NETID UADDR PATH', '-STORE-UUID' or 'clear'");

/* RW layouts in the intent record; 0 only to measure what it costs */
static bool exp_record_layouts = true;
module_param_named(record_layouts, exp_record_layouts, bool, 0644);
MODULE_PARM_DESC(record_layouts, "RW layouts hold their regions in the intent record (default 1; 0 leaves the clients' writes out of it: the write hole open for them)");

/* ------------------------------------------------------------ helpers */

static bool exp_sb_supported(struct super_block *sb)
{
	return sb->s_export_op == &exofs_export_ops;
}

/* The UUID of store @i, from the reference superblock's device table. */
static void exp_store_uuid(struct exofs_sb_info *sbi, u32 i, uuid_t *uuid)
{
	mutex_lock(&sbi->sb_mutex);
	memcpy(uuid, exofs_devtable(sbi->sb_buf)[i].uuid, sizeof(*uuid));
	mutex_unlock(&sbi->sb_mutex);
}

static u32 exp_dev_generation(u32 index, const uuid_t *uuid)
{
	return (jhash(uuid, sizeof(*uuid), 0) << 16) | index;
}

/* The 16 bytes of a deviceid4, as nfsd's svcxdr_encode_deviceid4() does. */
static void exp_put_deviceid(u8 *dst, const struct nfsd4_deviceid *id)
{
	memcpy(dst, &id->fsid_idx, 8);
	memcpy(dst + 8, &id->generation, 4);
	memset(dst + 12, 0, 4);
}

static bool exp_store_present(struct exofs_sb_info *sbi, u32 i)
{
	return sbi->stores[i].state == EXOFS_STORE_OK &&
	       !ore_store_failed(sbi->ore_stores[i]);
}

static __be32 exp_encode_body(struct xdr_stream *xdr,
			      const struct exp_body *b)
{
	if (!b)
		return xdr_stream_encode_u32(xdr, 0) == XDR_UNIT ?
			nfs_ok : nfserr_resource;
	if (xdr_stream_encode_opaque(xdr, b->data, b->len) < 0)
		return nfserr_toosmall;
	return nfs_ok;
}

/* ------------------------------------------------------------ LAYOUTGET */

/*
 * The components of @inode's layout into @comps (sbi->layout.num_comps),
 * every one with device id @devid but for the generation. -EAGAIN when a
 * present store has no data-server address.
 */
static int exp_fill_comps(struct inode *inode, const struct nfsd4_deviceid *devid,
			  struct pnfs_osd_object_cred *comps)
{
	struct exofs_sb_info *sbi = exofs_sb(inode->i_sb);
	const struct ore_components *oc = &exofs_i(inode)->oc;
	struct nfsd4_deviceid id = *devid;
	u32 c, s;
	uuid_t uuid;
	bool known;

	for (c = 0; c < sbi->layout.num_comps; c++) {
		struct pnfs_osd_object_cred *cr = &comps[c];

		s = (oc->first_dev + c) % oc->numdevs;
		exp_store_uuid(sbi, s, &uuid);
		id.generation = exp_dev_generation(s, &uuid);
		memset(cr, 0, sizeof(*cr));
		exp_put_deviceid(cr->oc_object_id.oid_device_id, &id);
		cr->oc_object_id.oid_partition_id = 0;
		cr->oc_object_id.oid_object_id = oc->oid;
		cr->oc_cap_key_sec = PNFS_OSD_CAP_KEY_SEC_NONE;
		if (!exp_store_present(sbi, s)) {
			cr->oc_osd_version = PNFS_OSD_MISSING;
			continue;
		}
		cr->oc_osd_version = PNFS_OSD_VERSION_2;
		mutex_lock(&exp_devs_mutex);
		known = exp_dev_find(&uuid);
		mutex_unlock(&exp_devs_mutex);
		if (!known) {
			pr_warn_ratelimited("exofs_pnfs: %pUb: store %u (%pUb) has no data-server address (devices parameter): no layout of inode %lu\n",
					    &sbi->uuid, s, &uuid, inode->i_ino);
			return -EAGAIN;
		}
	}
	return 0;
}

/*
 * The encoded pnfs_osd_layout4 of @inode into *@bodyp (kmalloc'ed): 0,
 * -EAGAIN (a store has no address), -ENOMEM, -EINVAL (not encodable:
 * logged).
 */
static int exp_layout_body(struct inode *inode,
			   const struct nfsd4_deviceid *devid,
			   struct exp_body **bodyp)
{
	struct exofs_sb_info *sbi = exofs_sb(inode->i_sb);
	struct pnfs_osd_object_cred *comps;
	struct pnfs_osd_xdr_err xerr = {};
	struct pnfs_osd_layout lo = {};
	struct exp_body *body = NULL;
	const char *why = NULL;
	int len, err;

	err = pnfs_osd_map_from_ore(&sbi->layout, &lo.olo_map, &why);
	if (err) {
		pr_err("exofs_pnfs: %pUb: the layout has no RFC 5664 map: %s\n",
		       &sbi->uuid, why);
		return -EINVAL;
	}
	comps = kcalloc(sbi->layout.num_comps, sizeof(*comps), GFP_KERNEL);
	if (!comps)
		return -ENOMEM;
	err = exp_fill_comps(inode, devid, comps);
	if (err)
		goto out;
	lo.olo_comps_index = 0;
	lo.olo_num_comps = sbi->layout.num_comps;
	lo.olo_comps = comps;
	len = pnfs_osd_xdr_encode_layout(NULL, 0, &lo, &xerr);
	err = -ENOMEM;
	if (len >= 0) {
		body = kmalloc(struct_size(body, data, len), GFP_KERNEL);
		if (!body)
			goto out;
		body->len = len;
		len = pnfs_osd_xdr_encode_layout(body->data, body->len, &lo,
						 &xerr);
	}
	err = 0;
	if (len < 0 || len != body->len) {
		pr_err("exofs_pnfs: %pUb: inode %lu: cannot encode the layout: %s %s at %u\n",
		       &sbi->uuid, inode->i_ino, xerr.field ?: "?",
		       xerr.why ?: "", xerr.pos);
		kfree(body);
		body = NULL;
		err = -EINVAL;
	}
	*bodyp = body;
out:
	kfree(comps);
	return err;
}

static __be32 exp_proc_layoutget(struct svc_rqst *rqstp, struct inode *inode,
				 const struct svc_fh *fhp,
				 struct nfsd4_layoutget *lgp)
{
	struct exofs_sb_info *sbi = exofs_sb(inode->i_sb);
	struct nfsd4_deviceid devid;
	struct exp_body *body = NULL;
	const char *why;
	__be32 nfserr;
	int err;

	if (!S_ISREG(inode->i_mode))
		goto unavail;
	/*
	 * With data checksums the clients' ORE keeps them in the side
	 * files, which it reaches over NFSv3: only a filesystem without
	 * heads (exofs_pnfs_csum_check()); else the
	 * clients do their I/O through the MDS, where every block is
	 * verified (a read layout would hand them unverified bytes).
	 */
	why = exofs_pnfs_csum_check(sbi);
	if (why) {
		pr_info_once("exofs_pnfs: %pUb: no layouts, clients do their I/O through the MDS: %s\n",
			     &sbi->uuid, why);
		goto unavail;
	}
	if (lgp->lg_seg.iomode == IOMODE_RW &&
	    (sbi->degraded || sb_rdonly(inode->i_sb)))
		goto unavail;
	if (nfsd4_set_deviceid(&devid, fhp, 0))
		return nfserr_jukebox;
	err = exp_layout_body(inode, &devid, &body);
	if (err == -ENOMEM)
		return nfserr_jukebox;
	if (err)
		goto unavail;
	nfserr = nfserr_toosmall;
	if (body->len + 4 > lgp->lg_maxcount)
		goto out;

	err = exofs_pnfs_layout_prepare(inode);
	if (err) {
		pr_warn_ratelimited("exofs_pnfs: %pUb: inode %lu: writeback before the layout failed: %d\n",
				    &sbi->uuid, inode->i_ino, err);
		nfserr = nfserr_io;
		goto out;
	}
	if (lgp->lg_seg.iomode == IOMODE_RW && READ_ONCE(exp_record_layouts)) {
		u64 start, end;

		/*
		 * The write hole: the regions of the layout (around the
		 * offset asked for) go into the intent record first
		 */
		if (exofs_pnfs_layout_pin(inode, lgp->lg_seg.offset,
					  lgp->lg_seg.length, &start, &end))
			goto unavail;
		lgp->lg_seg.offset = start;
		lgp->lg_seg.length = end == U64_MAX ? NFS4_MAX_UINT64 :
				     end - start;
	} else {
		lgp->lg_seg.offset = 0;
		lgp->lg_seg.length = NFS4_MAX_UINT64;
	}
	lgp->lg_content = body;
	body = NULL;
	atomic64_inc(&exp_cnt[EXP_LAYOUTGET]);
	return nfs_ok;

unavail:
	atomic64_inc(&exp_cnt[EXP_UNAVAIL]);
	nfserr = nfserr_layoutunavailable;
out:
	kfree(body);
	return nfserr;
}

static __be32 exp_encode_layoutget(struct xdr_stream *xdr,
				   const struct nfsd4_layoutget *lgp)
{
	return exp_encode_body(xdr, lgp->lg_content);
}

/* ------------------------------------------------------- GETDEVICEINFO */

/*
 * The encoded pnfs_osd_deviceaddr4 of device @id of @sbi into *@bodyp:
 * 0, -ENOENT (no such store now, or no address for it), -ENOMEM, -EINVAL.
 */
static int exp_devaddr_body(struct exofs_sb_info *sbi,
			    const struct nfsd4_deviceid *id,
			    struct exp_body **bodyp)
{
	u32 index = id->generation & EXP_DEV_INDEX_MASK;
	u8 systemid[2 * sizeof(uuid_t)];
	struct pnfs_osd_deviceaddr da = {};
	struct pnfs_osd_xdr_err xerr = {};
	struct exp_body *body = NULL;
	struct exp_dev *d;
	uuid_t uuid;
	int len;

	if (index >= sbi->num_stores)
		return -ENOENT;
	exp_store_uuid(sbi, index, &uuid);
	if (id->generation != exp_dev_generation(index, &uuid))
		return -ENOENT;	/* the store was replaced */

	memcpy(systemid, &sbi->uuid, sizeof(uuid_t));
	memcpy(systemid + sizeof(uuid_t), &uuid, sizeof(uuid_t));
	da.oda_targetid_type = OBJ_TARGET_ANON;
	da.oda_targetaddr_available = true;
	da.oda_systemid.data = systemid;
	da.oda_systemid.len = sizeof(systemid);
	exp_put_deviceid(da.oda_root_obj_cred.oc_object_id.oid_device_id, id);
	da.oda_root_obj_cred.oc_osd_version = PNFS_OSD_VERSION_2;
	da.oda_root_obj_cred.oc_cap_key_sec = PNFS_OSD_CAP_KEY_SEC_NONE;

	mutex_lock(&exp_devs_mutex);
	d = exp_dev_find(&uuid);
	if (!d) {
		mutex_unlock(&exp_devs_mutex);
		return -ENOENT;
	}
	da.oda_netid.data = d->netid;
	da.oda_netid.len = strlen(d->netid);
	da.oda_uaddr.data = d->uaddr;
	da.oda_uaddr.len = strlen(d->uaddr);
	da.oda_osdname.data = d->path;
	da.oda_osdname.len = strlen(d->path);
	len = pnfs_osd_xdr_encode_deviceaddr(NULL, 0, &da, &xerr);
	if (len >= 0) {
		body = kmalloc(struct_size(body, data, len), GFP_KERNEL);
		if (body) {
			body->len = len;
			len = pnfs_osd_xdr_encode_deviceaddr(body->data, len,
							     &da, &xerr);
		}
	}
	mutex_unlock(&exp_devs_mutex);
	if (!body && len >= 0)
		return -ENOMEM;
	if (len < 0) {
		pr_err("exofs_pnfs: %pUb: store %u: cannot encode the device address: %s %s\n",
		       &sbi->uuid, index, xerr.field ?: "?", xerr.why ?: "");
		kfree(body);
		return -EINVAL;
	}
	*bodyp = body;
	return 0;
}

static __be32 exp_proc_getdeviceinfo(struct super_block *sb,
				     struct svc_rqst *rqstp,
				     struct nfs4_client *clp,
				     struct nfsd4_getdeviceinfo *gdp)
{
	struct exp_body *body = NULL;
	int err;

	if (!exp_sb_supported(sb))
		return nfserr_noent;
	err = exp_devaddr_body(exofs_sb(sb), &gdp->gd_devid, &body);
	if (err == -ENOMEM)
		return nfserr_jukebox;
	if (err)
		return nfserr_noent;
	gdp->gd_device = body;
	atomic64_inc(&exp_cnt[EXP_GETDEVINFO]);
	return nfs_ok;
}

static __be32 exp_encode_getdeviceinfo(struct xdr_stream *xdr,
				       const struct nfsd4_getdeviceinfo *gdp)
{
	return exp_encode_body(xdr, gdp->gd_device);
}

/* ------------------------------------------------------- LAYOUTCOMMIT */

static __be32 exp_proc_layoutcommit(struct inode *inode,
				    struct svc_rqst *rqstp,
				    struct nfsd4_layoutcommit *lcp)
{
	struct exofs_sb_info *sbi = exofs_sb(inode->i_sb);
	struct pnfs_osd_layoutupdate lu;
	struct pnfs_osd_xdr_err xerr = {};
	struct timespec64 mtime = lcp->lc_mtime;
	struct timespec64 old = inode_get_mtime(inode);
	u8 buf[32];
	u32 len = lcp->lc_up_layout.len;
	int err;

	if (len) {
		if (len > sizeof(buf) ||
		    read_bytes_from_xdr_buf(&lcp->lc_up_layout, 0, buf, len) ||
		    pnfs_osd_xdr_decode_layoutupdate(buf, len, &lu, &xerr) < 0) {
			atomic64_inc(&exp_cnt[EXP_BAD_BODY]);
			pr_warn_ratelimited("exofs_pnfs: %pUb: inode %lu: malformed layoutupdate (%u bytes): %s %s\n",
					    &sbi->uuid, inode->i_ino, len,
					    xerr.field ?: "length", xerr.why ?: "");
			return nfserr_inval;
		}
		if (lu.olu_ioerr_flag)
			atomic64_inc(&exp_cnt[EXP_IOERR_FLAG]);
	}
	if (mtime.tv_nsec == UTIME_NOW || timespec64_compare(&mtime, &old) < 0)
		mtime = current_time(inode);
	err = exofs_pnfs_layout_commit(inode,
				       lcp->lc_size_chg ? lcp->lc_newsize : -1,
				       mtime);
	if (err) {
		pr_warn_ratelimited("exofs_pnfs: %pUb: inode %lu: layoutcommit failed: %d\n",
				    &sbi->uuid, inode->i_ino, err);
		return err == -ENOSPC ? nfserr_nospc : nfserr_io;
	}
	atomic64_inc(&exp_cnt[EXP_COMMIT]);
	return nfs_ok;
}

/* ------------------------------------------------------- LAYOUTRETURN */

/* Which store a reported component is, for the message (-1: not ours). */
static int exp_ioerr_store(struct exofs_sb_info *sbi,
			   const struct pnfs_osd_objid *oid)
{
	struct nfsd4_deviceid id;
	u32 index;
	uuid_t uuid;

	memcpy(&id.generation, oid->oid_device_id + 8, 4);
	index = id.generation & EXP_DEV_INDEX_MASK;
	if (index >= sbi->num_stores)
		return -1;
	exp_store_uuid(sbi, index, &uuid);
	return id.generation == exp_dev_generation(index, &uuid) ? index : -1;
}

#define EXP_MAX_REPORTED	16	/* errors logged per LAYOUTRETURN */

static void exp_proc_layoutreturn(struct inode *inode, struct svc_rqst *rqstp,
				  const struct nfsd4_layoutreturn *lrp)
{
	struct exofs_sb_info *sbi = exofs_sb(inode->i_sb);
	struct pnfs_osd_xdr_err xerr = {};
	struct pnfs_osd_ioerr *errs;
	u32 n = 0, i;
	int ret;

	atomic64_inc(&exp_cnt[EXP_RETURN]);
	if (!lrp->lrf_body_len)
		return;
	ret = pnfs_osd_xdr_decode_layoutreturn(lrp->lrf_body, lrp->lrf_body_len,
					       NULL, 0, &n, &xerr);
	if (ret < 0 && ret != -E2BIG) {
		atomic64_inc(&exp_cnt[EXP_BAD_BODY]);
		pr_warn_ratelimited("exofs_pnfs: %pUb: inode %lu: malformed layoutreturn (%u bytes): %s %s at %u\n",
				    &sbi->uuid, inode->i_ino, lrp->lrf_body_len,
				    xerr.field ?: "?", xerr.why ?: "", xerr.pos);
		return;
	}
	if (!n)
		return;
	atomic64_add(n, &exp_cnt[EXP_IOERR]);
	errs = kcalloc(n, sizeof(*errs), GFP_KERNEL);
	if (!errs)
		return;
	ret = pnfs_osd_xdr_decode_layoutreturn(lrp->lrf_body, lrp->lrf_body_len,
					       errs, n, &n, &xerr);
	/* a read error may be a block failing its checksum: rewritten */
	for (i = 0; ret >= 0 && i < n; i++)
		if (!errs[i].oer_iswrite)
			exofs_pnfs_read_error(inode,
					      exp_ioerr_store(sbi, &errs[i].oer_component),
					      errs[i].oer_comp_offset,
					      errs[i].oer_comp_length);
	for (i = 0; ret >= 0 && i < n && i < EXP_MAX_REPORTED; i++)
		pr_warn_ratelimited("exofs_pnfs: %pUb: client %s error %u on object 0x%llx store %d, component bytes %llu+%llu (inode %lu)\n",
				    &sbi->uuid, errs[i].oer_iswrite ? "write" : "read",
				    errs[i].oer_errno,
				    errs[i].oer_component.oid_object_id,
				    exp_ioerr_store(sbi, &errs[i].oer_component),
				    errs[i].oer_comp_offset,
				    errs[i].oer_comp_length, inode->i_ino);
	kfree(errs);
}

static void exp_layout_freed(struct inode *inode,
			     const struct nfsd4_layout_seg *seg, bool returned)
{
	if (seg->iomode == IOMODE_READ)
		return;
	if (!returned)
		atomic64_inc(&exp_cnt[EXP_DROPPED]);
	/* NFS4_MAX_UINT64 (to the end) is U64_MAX */
	exofs_pnfs_layout_freed(inode, seg->offset, seg->length, returned);
}

/* ------------------------------------------------------------ selftest */

#define EXP_ST_FSID	0x0123456789abcdefULL	/* a made-up fsid_idx */

/* Decode and check the device address of store @s as a client would. */
static int exp_selftest_dev(struct exofs_sb_info *sbi,
			    const struct nfsd4_deviceid *id, u32 s)
{
	struct pnfs_osd_xdr_err xerr = {};
	struct pnfs_osd_deviceaddr da;
	struct exp_body *body = NULL;
	struct nfsd4_deviceid stale = *id;
	struct exp_dev *d;
	uuid_t uuid;
	u8 devid[PNFS_OSD_DEVICEID_SIZE];
	int err;

	err = exp_devaddr_body(sbi, id, &body);
	if (err) {
		pr_err("exofs_pnfs: selftest: no device address of store %u: %d\n", s, err);
		return err;
	}
	err = pnfs_osd_xdr_decode_deviceaddr(body->data, body->len, &da, &xerr);
	exp_store_uuid(sbi, s, &uuid);
	exp_put_deviceid(devid, id);
	mutex_lock(&exp_devs_mutex);
	d = exp_dev_find(&uuid);
	if (!err && (!d || da.oda_targetid_type != OBJ_TARGET_ANON ||
		     !da.oda_targetaddr_available ||
		     da.oda_systemid.len != 2 * sizeof(uuid_t) ||
		     memcmp(da.oda_systemid.data, &sbi->uuid, sizeof(uuid_t)) ||
		     memcmp(da.oda_systemid.data + sizeof(uuid_t), &uuid, sizeof(uuid_t)) ||
		     da.oda_netid.len != strlen(d->netid) ||
		     memcmp(da.oda_netid.data, d->netid, da.oda_netid.len) ||
		     da.oda_uaddr.len != strlen(d->uaddr) ||
		     memcmp(da.oda_uaddr.data, d->uaddr, da.oda_uaddr.len) ||
		     da.oda_osdname.len != strlen(d->path) ||
		     memcmp(da.oda_osdname.data, d->path, da.oda_osdname.len) ||
		     memcmp(da.oda_root_obj_cred.oc_object_id.oid_device_id, devid,
			    sizeof(devid))))
		err = -EINVAL;
	mutex_unlock(&exp_devs_mutex);
	kfree(body);
	if (err) {
		pr_err("exofs_pnfs: selftest: device address of store %u wrong: %d %s %s\n",
		       s, err, xerr.field ?: "", xerr.why ?: "");
		return err;
	}
	/* a device id of another UUID at that index: refused */
	stale.generation ^= 1U << 16;
	body = NULL;
	if (exp_devaddr_body(sbi, &stale, &body) != -ENOENT) {
		kfree(body);
		pr_err("exofs_pnfs: selftest: a stale device id of store %u is accepted\n", s);
		return -EINVAL;
	}
	return 0;
}

/*
 * Encode the layout of @inode as LAYOUTGET would, decode it as a client
 * would, and check it against exofs's own view: the ORE layout, each
 * component's store and object, and each store's device address.
 */
static int exp_selftest_inode(struct inode *inode)
{
	struct exofs_sb_info *sbi = exofs_sb(inode->i_sb);
	const struct ore_components *oc = &exofs_i(inode)->oc;
	struct nfsd4_deviceid devid = { .fsid_idx = EXP_ST_FSID };
	struct pnfs_osd_object_cred *comps = NULL;
	struct pnfs_osd_xdr_err xerr = {};
	struct pnfs_osd_layout lo = {};
	struct exp_body *body = NULL;
	struct ore_layout l = {};
	const char *why = "";
	u32 c, s, gen, ndev = 0;
	u64 fsid;
	int err;

	err = exp_layout_body(inode, &devid, &body);
	if (err)
		return err;
	/* with no array: checked whole, the count in olo_num_comps */
	err = pnfs_osd_xdr_decode_layout(body->data, body->len, &lo, NULL, 0, &xerr);
	if (err && err != -E2BIG)
		goto bad;
	comps = kcalloc(lo.olo_num_comps, sizeof(*comps), GFP_KERNEL);
	err = -ENOMEM;
	if (!comps)
		goto out;
	err = pnfs_osd_xdr_decode_layout(body->data, body->len, &lo, comps,
					 lo.olo_num_comps, &xerr);
	if (err)
		goto bad;
	err = pnfs_osd_map_to_ore(&lo.olo_map, &l, &why);
	if (err)
		goto bad;
	err = -EINVAL;
	why = "the map differs from exofs's layout";
	if (lo.olo_comps_index || lo.olo_num_comps != sbi->layout.num_comps ||
	    l.stripe_unit != sbi->layout.stripe_unit ||
	    l.group_width != sbi->layout.group_width ||
	    l.group_count != sbi->layout.group_count ||
	    (l.group_count > 1 && l.group_depth != sbi->layout.group_depth) ||
	    l.mirrors_p1 != sbi->layout.mirrors_p1 ||
	    l.raid_algorithm != sbi->layout.raid_algorithm ||
	    l.num_comps != sbi->layout.num_comps)
		goto bad;
	for (c = 0; c < lo.olo_num_comps; c++) {
		const struct pnfs_osd_object_cred *cr = &comps[c];

		s = (oc->first_dev + c) % oc->numdevs;
		memcpy(&fsid, cr->oc_object_id.oid_device_id, 8);
		memcpy(&gen, cr->oc_object_id.oid_device_id + 8, 4);
		why = "a component is wrong";
		if (fsid != EXP_ST_FSID || (gen & EXP_DEV_INDEX_MASK) != s ||
		    cr->oc_object_id.oid_partition_id ||
		    cr->oc_object_id.oid_object_id != oc->oid ||
		    cr->oc_osd_version != (exp_store_present(sbi, s) ?
					   PNFS_OSD_VERSION_2 : PNFS_OSD_MISSING))
			goto bad;
		if (cr->oc_osd_version == PNFS_OSD_MISSING)
			continue;
		devid.generation = gen;
		err = exp_selftest_dev(sbi, &devid, s);
		if (err)
			goto out;
		ndev++;
	}
	pr_info("exofs_pnfs: selftest inode %lu: layout %u bytes, %u components (object 0x%llx, first store %u), raid %u stripe unit %llu group width %u depth %u mirrors %u; %u device addresses ok\n",
		inode->i_ino, body->len, lo.olo_num_comps, oc->oid, oc->first_dev,
		lo.olo_map.odm_raid_algorithm, lo.olo_map.odm_stripe_unit,
		lo.olo_map.odm_group_width, lo.olo_map.odm_group_depth,
		lo.olo_map.odm_mirror_cnt, ndev);
	err = 0;
	goto out;
bad:
	pr_err("exofs_pnfs: selftest inode %lu: %d: %s %s %s (component %u)\n",
	       inode->i_ino, err, why, xerr.field ?: "", xerr.why ?: "", c);
	if (!err)
		err = -EINVAL;
out:
	kfree(comps);
	kfree(body);
	return err;
}

static int exp_selftest_set(const char *val, const struct kernel_param *kp)
{
	struct path path;
	char *name;
	int err;

	name = kstrdup(val, GFP_KERNEL);
	if (!name)
		return -ENOMEM;
	err = kern_path(strim(name), LOOKUP_FOLLOW, &path);
	kfree(name);
	if (err)
		return err;
	err = -EXDEV;
	if (exp_sb_supported(path.dentry->d_sb) &&
	    S_ISREG(d_inode(path.dentry)->i_mode))
		err = exp_selftest_inode(d_inode(path.dentry));
	path_put(&path);
	return err;
}

static const struct kernel_param_ops exp_selftest_ops = {
	.set = exp_selftest_set,
};
module_param_cb(selftest, &exp_selftest_ops, NULL, 0200);
MODULE_PARM_DESC(selftest,
		 "write a path of a file on exofs: its layout and device addresses are encoded, decoded and checked (a test aid)");

static const struct nfsd4_layout_ops exp_layout_ops = {
	.owner			= THIS_MODULE,
	.sb_supported		= exp_sb_supported,
	.proc_getdeviceinfo	= exp_proc_getdeviceinfo,
	.encode_getdeviceinfo	= exp_encode_getdeviceinfo,
	.proc_layoutget		= exp_proc_layoutget,
	.encode_layoutget	= exp_encode_layoutget,
	.proc_layoutcommit	= exp_proc_layoutcommit,
	.proc_layoutreturn	= exp_proc_layoutreturn,
	.layout_freed		= exp_layout_freed,
};

static int __init exofs_pnfs_init(void)
{
	return nfsd4_register_layout_provider(LAYOUT_OSD2_OBJECTS,
					      &exp_layout_ops);
}

static void __exit exofs_pnfs_exit(void)
{
	int i;

	nfsd4_unregister_layout_provider(LAYOUT_OSD2_OBJECTS, &exp_layout_ops);
	for (i = 0; i < EXP_MAX_DEVS; i++)
		kfree(exp_devs[i]);
}

module_init(exofs_pnfs_init);
module_exit(exofs_pnfs_exit);
MODULE_DESCRIPTION("exofs: provider of the pNFS objects layout (RFC 5664) for nfsd");
MODULE_LICENSE("GPL");
