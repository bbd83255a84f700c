// SPDX-License-Identifier: GPL-2.0
/*
 * objlayoutdriver: the pNFS objects-layout client (RFC 5664,
 * LAYOUT4_OSD2_OBJECTS, layout type 2) for Debian's nfsv4.ko. The client
 * reads and writes the component objects of a file itself, on the data
 * servers' exports mounted here (dev.c), and does the striping, mirroring
 * and parity with ORE, as the seeds' objlayout did over OSDs.
 *
 * LAYOUTGET: the layout body (pnfs_osd_layout4) becomes an ORE layout and
 *	the file's components: the store of each component's device, or a
 *	missing store for a PNFS_OSD_MISSING component. A layout naming a
 *	device with no local store is unavailable: the I/O goes to the MDS.
 * Reads: whole pages through ore_read(); a read that needed the
 *	redundancy (a component failed, or a block failed its checksum on a
 *	filesystem whose checksums the stores keep: dev.c) succeeds and its
 *	failed components are reported when the layout is returned (the MDS
 *	rewrites a bad block: the client does not hold the stripes).
 * Writes: whole pages (PNFS_READ_WHOLE_PAGE makes NFS read a page before
 *	writing part of it; a write whose partial end page is not uptodate
 *	goes to the MDS) through ore_write() with read-4-write reading the
 *	stored data (the page cache only with r4w_cache) and FUA: a write is
 *	stable on the data servers when it completes, so it is FILE_SYNC and
 *	needs no COMMIT. Two writes of one parity stripe never run at once
 *	(ol_get_slot()); between clients, nfsd gives one RW layout of a file
 *	at a time (it recalls the others). A write with any failed component
 *	fails and is redone through the MDS, which owns the redundancy state
 *	of the stores: the client never leaves a component stale behind the
 *	MDS's back.
 * LAYOUTCOMMIT: nfsv4's, with our pnfs_osd_layoutupdate4 (ioerr flag).
 * LAYOUTRETURN: pnfs_osd_ioerr4 reports of the component errors seen.
 * Direct I/O goes through the MDS, and so do reads of files up to
 * mds_read_size (64 KiB).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/pagemap.h>
#include <linux/slab.h>
#include <linux/sunrpc/xdr.h>
#include <linux/wait_bit.h>
#include <linux/nfs_fs.h>
#include <linux/nfs_page.h>

#include "internal.h"	/* the NFS client's, from NFS_SRC */
#include "objlayout.h"

#define OL_MAX_ERRS	32	/* component errors kept for a LAYOUTRETURN */

atomic64_t objlayout_cnt[OL_NR_COUNTERS];

static int ol_cnt_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%lld\n",
			  atomic64_read(&objlayout_cnt[(long)kp->arg]));
}

static const struct kernel_param_ops ol_cnt_ops = { .get = ol_cnt_get };

#define OL_COUNTER(name, idx, desc)					\
	module_param_cb(name, &ol_cnt_ops, (void *)(long)(idx), 0444);	\
	MODULE_PARM_DESC(name, desc)

OL_COUNTER(reads, OL_READS, "reads done through layouts");
OL_COUNTER(writes, OL_WRITES, "writes done through layouts");
OL_COUNTER(read_bytes, OL_READ_BYTES, "bytes read through layouts");
OL_COUNTER(write_bytes, OL_WRITE_BYTES, "bytes written through layouts");
OL_COUNTER(degraded, OL_DEGRADED, "reads rebuilt from the redundancy");
OL_COUNTER(ioerrs, OL_IOERRS, "component I/O errors seen");
OL_COUNTER(mds_fallbacks, OL_MDS_FALLBACKS,
	   "I/Os sent to the MDS instead (no layout, unaligned, failed)");
OL_COUNTER(write_redone, OL_WRITE_REDONE,
	   "writes failed on a component, redone through the MDS");
OL_COUNTER(layouts, OL_LAYOUTS, "layout segments decoded");
OL_COUNTER(devices, OL_DEVICES, "device addresses decoded");
OL_COUNTER(no_store, OL_NO_STORE, "devices with no local store");
OL_COUNTER(r4w_hits, OL_R4W_HITS, "read-4-write pages found in the page cache");
OL_COUNTER(csum_errors, OL_CSUM_ERRORS,
	   "I/Os that read a block failing its checksum (rebuilt, reported)");
OL_COUNTER(slot_waits, OL_SLOT_WAITS,
	   "writes that waited for another write of one of their partial stripes");

/*
 * Read-4-write from the page cache is off by default: a clean cached page
 * may be older than what another client or the MDS wrote since (NFS only
 * revalidates the cache at open and on attribute changes), and parity
 * computed from it would not match the stored data of its stripe, which a
 * later degraded read would then rebuild wrong.
 */
static bool ol_r4w_cache;
module_param_named(r4w_cache, ol_r4w_cache, bool, 0644);
MODULE_PARM_DESC(r4w_cache,
		 "read-4-write may use clean cached pages (only safe with one writer of the file, no MDS writes)");

/*
 * Bytes NFS may gather into one read or write through a layout. NFS's own
 * limit is the MDS's rsize/wsize, which nfsd sizes by its memory (256K on
 * a 1 GiB machine); the layout's I/O does not go to the MDS, and every
 * write ends with the data servers' sync, so fewer bigger ones are better.
 */
static unsigned int ol_max_io = 4 << 20;
module_param_named(max_io, ol_max_io, uint, 0644);
MODULE_PARM_DESC(max_io, "largest read or write through a layout, bytes (default 4 MiB)");

/*
 * Files up to this size are read through the MDS, as RFC 8881's
 * mdsthreshold lets a server say (nfsd does not): such a file sits in one
 * stripe unit of one component, so a layout gains it nothing, and costs
 * a LAYOUTGET and the component's open on its data server first. With the
 * benchmark's 1-32 KiB files: 3.1 s through layouts against 1.7 s
 * through the MDS to read 300 of them.
 */
static unsigned int ol_mds_read_size = 64 << 10;
module_param_named(mds_read_size, ol_mds_read_size, uint, 0644);
MODULE_PARM_DESC(mds_read_size, "files up to this many bytes are read through the MDS (default 64 KiB, 0: none)");

static bool ol_mds_only;
module_param_named(mds_only, ol_mds_only, bool, 0644);
MODULE_PARM_DESC(mds_only,
		 "send every read and write through the MDS, as without layouts (benchmarks)");

/* ORE's engine-wide counters of how file stores did their I/O. */
static int ol_ore_cnt_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%lld\n", atomic64_read(kp->arg));
}

static const struct kernel_param_ops ol_ore_cnt_ops = { .get = ol_ore_cnt_get };
module_param_cb(ore_store_dio, &ol_ore_cnt_ops, &ore_stats.store_dio, 0444);
MODULE_PARM_DESC(ore_store_dio, "file store I/Os done as direct I/O (all of ORE)");
module_param_cb(ore_store_buffered, &ol_ore_cnt_ops, &ore_stats.store_buffered,
		0444);
MODULE_PARM_DESC(ore_store_buffered, "file store I/Os done buffered (all of ORE)");

/**
 * struct objlayout - the layout header of one file
 * @hdr: NFS's
 * @lock: protects the fields below
 * @wb_nr: writes in flight
 * @wb_list: writes in flight that hold a partial parity stripe
 * @nr_errs: entries of @errs
 * @errs: component errors to report at the next LAYOUTRETURN
 */
struct objlayout {
	struct pnfs_layout_hdr hdr;
	spinlock_t lock;	/* wb_nr, wb_list, nr_errs, errs */
	unsigned int wb_nr;
	struct list_head wb_list;
	u32 nr_errs;
	struct pnfs_osd_ioerr errs[OL_MAX_ERRS];
};

/**
 * struct objlayout_seg - one layout segment: an ORE object
 * @lseg: NFS's
 * @layout: the ORE layout of the data map
 * @oc: the components (@stores, first_dev 0)
 * @ids: each component's object id on the wire (error reports)
 * @ready: every component has its store (ol_seg_prepare())
 * @prepare: serializes ol_seg_prepare()
 * @devs: each component's device node (NULL for a missing component)
 * @stores: each component's store
 *
 * The devices are looked up (GETDEVICEINFO) when the segment is first
 * used for I/O, as flexfiles does, not while NFS processes the LAYOUTGET
 * reply: that still holds the LAYOUTGET's session slot, and a
 * GETDEVICEINFO waiting there for a state recovery, which drains the
 * slots first, never ends (seen with two clients recalling each other's
 * layouts).
 */
struct objlayout_seg {
	struct pnfs_layout_segment lseg;
	struct ore_layout layout;
	struct ore_components oc;
	struct pnfs_osd_objid *ids;
	bool ready;
	struct mutex prepare;	/* ol_seg_prepare() */
	struct nfs4_deviceid_node **devs;
	struct ore_store *stores[];
};

/**
 * struct ol_io - one read or write through a layout
 * @hdr: NFS's request
 * @lo: the file's layout header
 * @seg: the segment it uses
 * @count: bytes asked
 * @node: in @lo->wb_list while a write holding a partial stripe runs
 * @nr_pstripe: entries of @pstripe
 * @pstripe: the partial parity stripes of a write (head and tail)
 * @io_failed: a component failed (not one the layout says is missing):
 *	the MDS should hear of it
 */
struct ol_io {
	struct nfs_pgio_header *hdr;
	struct objlayout *lo;
	struct objlayout_seg *seg;
	u32 count;
	struct list_head node;
	unsigned int nr_pstripe;
	u64 pstripe[2];
	bool io_failed;
};

static inline struct objlayout *OL(struct pnfs_layout_hdr *hdr)
{
	return container_of(hdr, struct objlayout, hdr);
}

static inline struct objlayout_seg *OL_SEG(struct pnfs_layout_segment *lseg)
{
	return container_of(lseg, struct objlayout_seg, lseg);
}

/* ------------------------------------------------------------ layouts */

static struct pnfs_layout_hdr *ol_alloc_layout_hdr(struct inode *inode,
						   gfp_t gfp)
{
	struct objlayout *lo = kzalloc(sizeof(*lo), gfp);

	if (!lo)
		return NULL;
	spin_lock_init(&lo->lock);
	INIT_LIST_HEAD(&lo->wb_list);
	return &lo->hdr;
}

static void ol_free_layout_hdr(struct pnfs_layout_hdr *hdr)
{
	kfree_rcu(OL(hdr), hdr.plh_rcu);
}

static void ol_free_seg(struct objlayout_seg *seg)
{
	u32 i;

	for (i = 0; i < seg->oc.numdevs; i++) {
		if (seg->stores[i])
			ore_store_put(seg->stores[i]);
		if (seg->devs && seg->devs[i])
			nfs4_put_deviceid_node(seg->devs[i]);
	}
	kfree(seg->devs);
	kfree(seg->ids);
	kfree(seg);
}

static void ol_free_lseg(struct pnfs_layout_segment *lseg)
{
	ol_free_seg(OL_SEG(lseg));
}

/*
 * The device of component @c with its store, or an ERR_PTR: -ENODEV for a
 * device that has no store here (marked unavailable, so that NFS asks
 * again after PNFS_DEVICE_RETRY_TIMEOUT, as blocklayout does).
 */
static struct nfs4_deviceid_node *ol_get_dev(struct pnfs_layout_hdr *hdr,
					     const struct pnfs_osd_objid *id,
					     gfp_t gfp)
{
	struct nfs_server *server = NFS_SERVER(hdr->plh_inode);
	struct nfs4_deviceid devid;
	struct nfs4_deviceid_node *node;

	memcpy(devid.data, id->oid_device_id, NFS4_DEVICEID4_SIZE);
retry:
	node = nfs4_find_get_deviceid(server, &devid, hdr->plh_lc_cred, gfp);
	if (!node)
		return ERR_PTR(-ENODEV);
	if (test_bit(NFS_DEVICEID_UNAVAILABLE, &node->flags)) {
		unsigned long end = jiffies;
		unsigned long start = end - PNFS_DEVICE_RETRY_TIMEOUT;

		if (!time_in_range(node->timestamp_unavailable, start, end)) {
			nfs4_delete_deviceid(node->ld, node->nfs_client, &devid);
			nfs4_put_deviceid_node(node);
			goto retry;
		}
		goto unavailable;
	}
	if (!container_of(node, struct objlayout_dev, node)->store) {
		nfs4_mark_deviceid_unavailable(node);
		goto unavailable;
	}
	return node;

unavailable:
	nfs4_put_deviceid_node(node);
	return ERR_PTR(-ENODEV);
}

/**
 * objlayout_flatten - copy a reply body held in pages into a flat buffer
 * @pages: the reply's pages
 * @len: its length in bytes
 * @gfp: allocation flags
 *
 * Return: the buffer (kfree() it), or NULL without memory.
 */
u8 *objlayout_flatten(struct page **pages, u32 len, gfp_t gfp)
{
	u8 *buf = kmalloc(len ?: 1, gfp);
	u32 done = 0;

	if (!buf)
		return NULL;
	while (done < len) {
		u32 n = min_t(u32, len - done, PAGE_SIZE);

		memcpy_from_page(buf + done, pages[done >> PAGE_SHIFT], 0, n);
		done += n;
	}
	return buf;
}

static struct pnfs_layout_segment *ol_alloc_lseg(struct pnfs_layout_hdr *hdr,
						 struct nfs4_layoutget_res *lgr,
						 gfp_t gfp)
{
	struct inode *inode = hdr->plh_inode;
	struct pnfs_osd_object_cred *comps = NULL;
	struct pnfs_osd_xdr_err xerr = {};
	struct pnfs_osd_layout lo;
	struct objlayout_seg *seg = NULL;
	const char *why = NULL;
	u32 len = lgr->layoutp->len, n, i;
	u8 *buf;
	int ret;

	buf = objlayout_flatten(lgr->layoutp->pages, len, gfp);
	if (!buf)
		return ERR_PTR(-ENOMEM);
	ret = pnfs_osd_xdr_decode_layout(buf, len, &lo, NULL, 0, &xerr);
	if (ret < 0)
		goto bad_body;
	n = lo.olo_num_comps;
	ret = -EINVAL;
	if (!n) {
		why = "no components";
		goto bad_map;
	}
	ret = -ENOMEM;
	comps = kcalloc(n, sizeof(*comps), gfp);
	if (!comps)
		goto out;
	ret = pnfs_osd_xdr_decode_layout(buf, len, &lo, comps, n, &xerr);
	if (ret < 0)
		goto bad_body;

	ret = -EINVAL;
	if (lo.olo_comps_index || n != lo.olo_map.odm_num_comps) {
		why = "not every component of the map (olo_comps_index, olo_components)";
		goto bad_map;
	}
	seg = kzalloc(struct_size(seg, stores, n), gfp);
	if (!seg) {
		ret = -ENOMEM;
		goto out;
	}
	seg->oc.numdevs = n;
	if (pnfs_osd_map_to_ore(&lo.olo_map, &seg->layout, &why))
		goto bad_map;
	if (ore_verify_layout(n, &seg->layout)) {
		why = "a data map ORE refuses";
		goto bad_map;
	}
	seg->ids = kcalloc(n, sizeof(*seg->ids), gfp);
	seg->devs = kcalloc(n, sizeof(*seg->devs), gfp);
	if (!seg->ids || !seg->devs) {
		ret = -ENOMEM;
		goto out;
	}
	seg->oc.oid = comps[0].oc_object_id.oid_object_id;
	seg->oc.stores = seg->stores;
	mutex_init(&seg->prepare);
	for (i = 0; i < n; i++) {
		const struct pnfs_osd_objid *id = &comps[i].oc_object_id;

		seg->ids[i] = *id;
		if (id->oid_object_id != seg->oc.oid || id->oid_partition_id) {
			why = "components of different objects or partitions";
			goto bad_map;
		}
		if (comps[i].oc_osd_version == PNFS_OSD_MISSING) {
			char name[32];

			snprintf(name, sizeof(name), "missing-%u", i);
			seg->stores[i] = ore_missing_store_create(name);
			if (IS_ERR(seg->stores[i])) {
				ret = PTR_ERR(seg->stores[i]);
				seg->stores[i] = NULL;
				goto out;
			}
		}
	}
	atomic64_inc(&objlayout_cnt[OL_LAYOUTS]);
	kfree(comps);
	kfree(buf);
	return &seg->lseg;

bad_body:
	pr_warn_ratelimited("inode %lu: malformed layout: %s %s at byte %u: I/O through the MDS\n",
			    inode->i_ino, xerr.field, xerr.why, xerr.pos);
	ret = -EINVAL;
	goto out;
bad_map:
	pr_warn_ratelimited("inode %lu: layout refused: %s: I/O through the MDS\n",
			    inode->i_ino, why ?: "bad data map");
	ret = -EINVAL;
out:
	kfree(comps);
	kfree(buf);
	if (seg)
		ol_free_seg(seg);
	/*
	 * -EINVAL (a layout we cannot use) is not fatal to NFS: it holds no
	 * layout and the I/O goes to the MDS.
	 */
	return ERR_PTR(ret);
}

/*
 * Look up the device (and so the store) of every component of @seg that
 * has none yet; 0, or -ENODEV when a device has no store here.
 */
static int ol_seg_prepare(struct objlayout_seg *seg,
			  struct pnfs_layout_hdr *hdr)
{
	int ret = 0;
	u32 i;

	/* ready is set after the stores: seeing it, see them */
	if (smp_load_acquire(&seg->ready))
		return 0;
	mutex_lock(&seg->prepare);
	for (i = 0; i < seg->oc.numdevs && !seg->ready; i++) {
		struct nfs4_deviceid_node *node;

		if (seg->stores[i])
			continue;	/* a missing component, or done */
		node = ol_get_dev(hdr, &seg->ids[i], GFP_NOFS);
		if (IS_ERR(node)) {
			ret = PTR_ERR(node);
			break;
		}
		seg->devs[i] = node;
		seg->stores[i] = container_of(node, struct objlayout_dev,
					      node)->store;
		ore_store_get(seg->stores[i]);
		/* the MDS or another client may have written it since */
		ore_file_store_forget(seg->stores[i], seg->oc.oid);
	}
	if (!ret)	/* the stores before ready (ol_seg_prepare()) */
		smp_store_release(&seg->ready, true);
	mutex_unlock(&seg->prepare);
	return ret;
}

/* ------------------------------------------------------------- errors */

/* ore_check_io() callback: keep the component's error for LAYOUTRETURN. */
static void ol_io_error(struct ore_io_state *ios, u32 comp,
			struct ore_store *store, u64 offset, int error)
{
	struct ol_io *io = ios->private;
	struct objlayout *lo = io->lo;
	struct objlayout_seg *seg = io->seg;
	bool write = ios->kind == ORE_IO_WRITE;
	struct pnfs_osd_ioerr *e;
	unsigned long flags;

	if (error == -ENODEV)
		return;	/* a component the layout says is missing: not tried */
	io->io_failed = true;
	atomic64_inc(&objlayout_cnt[OL_IOERRS]);
	pr_warn_ratelimited("inode %lu: %s error %d on object 0x%llx component %u (%s), object offset %llu\n",
			    io->hdr->inode->i_ino, write ? "write" : "read",
			    error, seg->oc.oid, comp, store->name, offset);
	if (comp >= seg->oc.numdevs || seg->stores[comp] != store)
		return;	/* not a store of this layout: nothing to name */
	spin_lock_irqsave(&lo->lock, flags);	/* ORE's completion context */
	if (lo->nr_errs < OL_MAX_ERRS) {
		e = &lo->errs[lo->nr_errs++];
		e->oer_component = seg->ids[comp];
		e->oer_comp_offset = offset;
		/* ORE names the first failed byte, not the extent */
		e->oer_comp_length = ios->length;
		e->oer_iswrite = write;
		e->oer_errno = pnfs_osd_errno_from_linux(error);
	}
	spin_unlock_irqrestore(&lo->lock, flags);
}

/*
 * ore_check_io() and a block that failed its checksum: ORE rebuilt it from
 * the redundancy (the I/O is degraded, not failed) and, the stripes not
 * held here, did not rewrite it; the MDS hears of it as a component error
 * and repairs it on its side.
 */
static int ol_check_io(struct ore_io_state *ios)
{
	int err = ore_check_io(ios, ol_io_error);

	if (ios->csum_errors) {
		atomic64_inc(&objlayout_cnt[OL_CSUM_ERRORS]);
		ol_io_error(ios, ios->csum_comp,
			    ore_comp_store(ios->oc, ios->csum_comp),
			    ios->csum_offset, -EBADMSG);
	}
	return err;
}

/* Encode the reports taken by ol_prepare_layoutreturn() (lrf_body). */
static void ol_encode_layoutreturn(struct xdr_stream *xdr, const void *args,
				   const struct nfs4_xdr_opaque_data *data)
{
	struct objlayout *tmp = data->data;
	struct pnfs_osd_xdr_err xerr = {};
	int len;
	__be32 *p;

	len = pnfs_osd_xdr_encode_layoutreturn(NULL, 0, tmp->errs,
					       tmp->nr_errs, &xerr);
	p = len < 0 ? NULL : xdr_reserve_space(xdr, 4 + XDR_QUADLEN(len) * 4);
	if (!p) {
		xdr_stream_encode_u32(xdr, 0);
		return;
	}
	*p++ = cpu_to_be32(len);
	memset(p, 0, XDR_QUADLEN(len) * 4);
	pnfs_osd_xdr_encode_layoutreturn((u8 *)p, len, tmp->errs,
					 tmp->nr_errs, &xerr);
}

static void ol_free_layoutreturn(struct nfs4_xdr_opaque_data *data)
{
	kfree(data->data);
	data->data = NULL;
}

static const struct nfs4_xdr_opaque_ops ol_layoutreturn_ops = {
	.encode = ol_encode_layoutreturn,
	.free = ol_free_layoutreturn,
};

/*
 * Hand the errors kept since the last return to this LAYOUTRETURN. Without
 * errors the body is an empty report list (what the encoder sends when
 * ->data is NULL is a zero-length body, which our MDS also accepts).
 */
static int ol_prepare_layoutreturn(struct nfs4_layoutreturn_args *args)
{
	struct objlayout *lo = OL(args->layout);
	struct objlayout *tmp;

	tmp = kzalloc(sizeof(*tmp), GFP_NOFS);
	if (!tmp)
		return -ENOMEM;
	spin_lock_irq(&lo->lock);
	tmp->nr_errs = lo->nr_errs;
	memcpy(tmp->errs, lo->errs, lo->nr_errs * sizeof(lo->errs[0]));
	lo->nr_errs = 0;
	spin_unlock_irq(&lo->lock);
	args->ld_private->ops = &ol_layoutreturn_ops;
	args->ld_private->data = tmp;
	return 0;
}

/* -------------------------------------------------------------- reads */

/* NFS's completion of a read or write through a layout, in process context. */
static void ol_io_cleanup(struct work_struct *work)
{
	struct rpc_task *task = container_of(work, struct rpc_task,
					     u.tk_work);
	struct nfs_pgio_header *hdr = container_of(task,
						   struct nfs_pgio_header,
						   task);

	if (hdr->rw_mode & FMODE_WRITE)
		pnfs_ld_write_done(hdr);
	else
		pnfs_ld_read_done(hdr);
}

static void ol_read_done(struct ore_io_state *ios, void *private)
{
	struct ol_io *io = private;
	struct nfs_pgio_header *hdr = io->hdr;
	int err = ol_check_io(ios);

	if (!err) {
		u64 end = hdr->args.offset + io->count;
		loff_t isize = i_size_read(hdr->inode);

		if (end >= isize) {
			hdr->res.eof = 1;
			hdr->res.count = isize > hdr->args.offset ?
					 isize - hdr->args.offset : 0;
		} else {
			hdr->res.count = io->count;
		}
		atomic64_add(io->count, &objlayout_cnt[OL_READ_BYTES]);
		if (ios->degraded)
			atomic64_inc(&objlayout_cnt[OL_DEGRADED]);
		/*
		 * Let the MDS hear of a failed component soon; one the layout
		 * names missing it knows of (returning the layout for it made
		 * every degraded read of a degraded MDS get a new one)
		 */
		if (io->io_failed)
			pnfs_error_mark_layout_for_return(hdr->inode,
							  hdr->lseg);
	}
	hdr->pnfs_error = err;
	hdr->task.tk_status = err;
	ore_put_io_state(ios);
	kfree(io);
	INIT_WORK(&hdr->task.u.tk_work, ol_io_cleanup);
	schedule_work(&hdr->task.u.tk_work);
}

static enum pnfs_try_status ol_read_pagelist(struct nfs_pgio_header *hdr)
{
	struct objlayout_seg *seg = OL_SEG(hdr->lseg);
	u64 offset = hdr->args.offset;
	u32 count = hdr->args.count;
	struct ore_io_state *ios;
	struct ol_io *io;
	int err;

	/* ready: the stores are set (ol_seg_prepare()) */
	if ((offset | hdr->args.pgbase) & ~PAGE_MASK || !count ||
	    !smp_load_acquire(&seg->ready))
		goto mds;
	io = kzalloc(sizeof(*io), GFP_NOIO);
	if (!io)
		goto mds;
	io->hdr = hdr;
	io->lo = OL(hdr->lseg->pls_layout);
	io->seg = seg;
	io->count = count;
	err = ore_get_rw_state(&seg->layout, &seg->oc, true, offset,
			       round_up(count, PAGE_SIZE), &ios);
	if (err)
		goto free_io;
	ios->pages = &hdr->args.pages[hdr->args.pgbase >> PAGE_SHIFT];
	ios->nr_pages = DIV_ROUND_UP(count, PAGE_SIZE);
	ios->done = ol_read_done;
	ios->private = io;
	atomic64_inc(&objlayout_cnt[OL_READS]);
	err = ore_read(ios);
	if (!err)
		return PNFS_ATTEMPTED;
	ore_put_io_state(ios);
free_io:
	kfree(io);
mds:
	atomic64_inc(&objlayout_cnt[OL_MDS_FALLBACKS]);
	return PNFS_NOT_ATTEMPTED;
}

/* ------------------------------------------------------------- writes */

/* May @io start: no other write in flight holds one of its partial stripes? */
static bool ol_try_slot(struct objlayout *lo, struct ol_io *io)
{
	struct ol_io *other;
	bool ok = true;
	unsigned int i, j;

	spin_lock_irq(&lo->lock);	/* ol_put_slot() runs in ORE's completion */
	list_for_each_entry(other, &lo->wb_list, node)
		for (i = 0; i < other->nr_pstripe; i++)
			for (j = 0; j < io->nr_pstripe; j++)
				if (other->pstripe[i] == io->pstripe[j])
					ok = false;
	if (ok) {
		lo->wb_nr++;
		if (io->nr_pstripe)
			list_add_tail(&io->node, &lo->wb_list);
	}
	spin_unlock_irq(&lo->lock);
	return ok;
}

/*
 * Wait until @io may be written. Stripes covered whole by @io need no
 * waiting: NFS has all their pages under writeback for @io.
 */
static void ol_get_slot(struct objlayout *lo, struct ol_io *io)
{
	if (ol_try_slot(lo, io))
		return;
	atomic64_inc(&objlayout_cnt[OL_SLOT_WAITS]);
	wait_var_event(&lo->wb_nr, ol_try_slot(lo, io));
}

static void ol_put_slot(struct objlayout *lo, struct ol_io *io)
{
	unsigned long flags;

	spin_lock_irqsave(&lo->lock, flags);
	if (!list_empty(&io->node))
		list_del_init(&io->node);
	lo->wb_nr--;
	spin_unlock_irqrestore(&lo->lock, flags);
	wake_up_var(&lo->wb_nr);
}

/*
 * r4w: an untouched page of a partially written stripe. The cached folio
 * when it is clean and uptodate (locked while the parity is computed),
 * else NULL and ORE reads what is stored: a dirty folio differs from what
 * is stored, and the parity must match what is stored. Never sleeps on a
 * folio.
 */
static struct page *ol_r4w_get_page(void *priv, u64 offset, bool *uptodate)
{
	struct ol_io *io = priv;
	struct inode *inode = io->hdr->inode;
	struct folio *folio;

	*uptodate = false;
	if (!READ_ONCE(ol_r4w_cache))
		return NULL;
	folio = filemap_get_folio(inode->i_mapping, offset >> PAGE_SHIFT);
	if (IS_ERR(folio))
		return NULL;
	if (!folio_trylock(folio))
		goto out_put;
	if (!folio_test_uptodate(folio) || folio_test_dirty(folio) ||
	    folio_test_writeback(folio) || folio_test_private(folio) ||
	    folio->mapping != inode->i_mapping)
		goto out_unlock;
	atomic64_inc(&objlayout_cnt[OL_R4W_HITS]);
	*uptodate = true;
	return folio_file_page(folio, offset >> PAGE_SHIFT);

out_unlock:
	folio_unlock(folio);
out_put:
	folio_put(folio);
	return NULL;
}

static void ol_r4w_put_page(void *priv, struct page *page, bool uptodate)
{
	struct folio *folio = page_folio(page);

	folio_unlock(folio);
	folio_put(folio);
}

static const struct ore_r4w_ops ol_r4w_ops = {
	.get_page = ol_r4w_get_page,
	.put_page = ol_r4w_put_page,
};

static void ol_write_done(struct ore_io_state *ios, void *private)
{
	struct ol_io *io = private;
	struct nfs_pgio_header *hdr = io->hdr;
	int err = ol_check_io(ios);

	/*
	 * A component that missed the write is stale now; only the MDS may
	 * take its store out of service, so the write is redone through it.
	 */
	if (!err && (ios->degraded || ios->nr_failed))
		err = -EIO;
	if (err)
		atomic64_inc(&objlayout_cnt[OL_WRITE_REDONE]);
	if (!err) {
		hdr->res.count = io->count;
		hdr->verf.committed = NFS_FILE_SYNC;
		atomic64_add(io->count, &objlayout_cnt[OL_WRITE_BYTES]);
	}
	hdr->pnfs_error = err;
	hdr->task.tk_status = err;
	ol_put_slot(io->lo, io);
	ore_put_io_state(ios);
	kfree(io);
	INIT_WORK(&hdr->task.u.tk_work, ol_io_cleanup);
	schedule_work(&hdr->task.u.tk_work);
}

/* Is @page's content valid outside [@from, @to) (offsets in the page)? */
static bool ol_page_whole(struct page *page, u32 from, u32 to)
{
	return (from == 0 && to == PAGE_SIZE) ||
	       folio_test_uptodate(page_folio(page));
}

static enum pnfs_try_status ol_write_pagelist(struct nfs_pgio_header *hdr,
					      int how)
{
	struct objlayout_seg *seg = OL_SEG(hdr->lseg);
	struct objlayout *lo = OL(hdr->lseg->pls_layout);
	u64 offset = hdr->args.offset, end = offset + hdr->args.count;
	u64 start = round_down(offset, PAGE_SIZE);
	u64 stop = round_up(end, PAGE_SIZE);
	struct page **pages = &hdr->args.pages[hdr->args.pgbase >> PAGE_SHIFT];
	unsigned int nr = (stop - start) >> PAGE_SHIFT;
	struct ore_io_state *ios;
	struct ol_io *io;
	int err;

	/* ready: the stores are set (ol_seg_prepare()) */
	if (!hdr->args.count || !smp_load_acquire(&seg->ready) ||
	    (hdr->args.pgbase & ~PAGE_MASK) != (offset & ~PAGE_MASK))
		goto mds;
	/*
	 * Whole pages are written: a partial end page must be uptodate, or
	 * reach EOF (NFS zeroes a page's tail past EOF).
	 */
	if (!ol_page_whole(pages[0], offset - start,
			   nr == 1 ? end - start : PAGE_SIZE))
		goto mds;
	if (stop != end && end < i_size_read(hdr->inode) &&
	    !ol_page_whole(pages[nr - 1], 0, end - (stop - PAGE_SIZE)))
		goto mds;

	io = kzalloc(sizeof(*io), GFP_NOIO);
	if (!io)
		goto mds;
	INIT_LIST_HEAD(&io->node);
	io->hdr = hdr;
	io->lo = lo;
	io->seg = seg;
	io->count = hdr->args.count;
	if (seg->layout.parity) {
		struct ore_stripe_cut cut;
		u64 U = seg->layout.stripe_length;

		ore_layout_cut(&seg->layout, start, stop - start, &cut);
		if (cut.head_len)
			io->pstripe[io->nr_pstripe++] =
				div64_u64(cut.head_off, U);
		if (cut.tail_len)
			io->pstripe[io->nr_pstripe++] =
				div64_u64(cut.tail_off, U);
	}
	err = ore_get_rw_state(&seg->layout, &seg->oc, false, start,
			       stop - start, &ios);
	if (err)
		goto free_io;
	ios->pages = pages;
	ios->nr_pages = nr;
	ios->r4w = &ol_r4w_ops;
	ios->fua = true;
	ios->done = ol_write_done;
	ios->private = io;
	ol_get_slot(lo, io);
	atomic64_inc(&objlayout_cnt[OL_WRITES]);
	err = ore_write(ios);
	if (!err)
		return PNFS_ATTEMPTED;
	ol_put_slot(lo, io);
	ore_put_io_state(ios);
free_io:
	kfree(io);
mds:
	atomic64_inc(&objlayout_cnt[OL_MDS_FALLBACKS]);
	return PNFS_NOT_ATTEMPTED;
}

/* ------------------------------------------------------ page I/O setup */

/* No layout for this I/O (none given, or one we cannot use): the MDS does it. */
/*
 * After NFS chose the segment of an I/O: no segment, or one whose devices
 * are not all here, sends the I/O to the MDS. The latter layout is marked
 * for return and failed for its iomode, so that NFS does not ask again at
 * once (PNFS_LAYOUTGET_RETRY_TIMEOUT), as blocklayout does.
 */
static void ol_pg_check(struct nfs_pageio_descriptor *pgio, bool write)
{
	struct pnfs_layout_segment *lseg = pgio->pg_lseg;

	if (lseg && !ol_seg_prepare(OL_SEG(lseg), lseg->pls_layout)) {
		struct nfs_pgio_mirror *mirror = nfs_pgio_current_mirror(pgio);
		size_t max = round_down(READ_ONCE(ol_max_io), PAGE_SIZE);

		if (max > mirror->pg_bsize)
			mirror->pg_bsize = max;
		return;
	}
	atomic64_inc(&objlayout_cnt[OL_MDS_FALLBACKS]);
	if (lseg) {
		pnfs_error_mark_layout_for_return(pgio->pg_inode, lseg);
		pnfs_set_lo_fail(lseg);
		if (write)
			nfs_pageio_reset_write_mds(pgio);
		else
			nfs_pageio_reset_read_mds(pgio);
	}
}

/*
 * A small file is read through the MDS (mds_read_size), unless this
 * client wrote it through a layout and has not sent the LAYOUTCOMMIT yet:
 * the MDS would still have the old size (and the old data in its cache),
 * and NFS would zero what lies past it.
 */
static bool ol_read_small(struct inode *inode)
{
	return i_size_read(inode) <= READ_ONCE(ol_mds_read_size) &&
	       !pnfs_layoutcommit_outstanding(inode);
}

static void ol_pg_init_read(struct nfs_pageio_descriptor *pgio,
			    struct nfs_page *req)
{
	if (pgio->pg_dreq || READ_ONCE(ol_mds_only) ||
	    ol_read_small(pgio->pg_inode)) {
		nfs_pageio_reset_read_mds(pgio);
		return;
	}
	pnfs_generic_pg_init_read(pgio, req);
	ol_pg_check(pgio, false);
}

static void ol_pg_init_write(struct nfs_pageio_descriptor *pgio,
			     struct nfs_page *req)
{
	loff_t isize = i_size_read(pgio->pg_inode);
	u64 want = req->wb_bytes;

	if (pgio->pg_dreq || READ_ONCE(ol_mds_only)) {
		nfs_pageio_reset_write_mds(pgio);
		return;
	}
	if (isize > req_offset(req) + want)
		want = isize - req_offset(req);
	pnfs_generic_pg_init_write(pgio, req, want);
	ol_pg_check(pgio, true);
}

static const struct nfs_pageio_ops ol_pg_read_ops = {
	.pg_init = ol_pg_init_read,
	.pg_test = pnfs_generic_pg_test,
	.pg_doio = pnfs_generic_pg_readpages,
	.pg_cleanup = pnfs_generic_pg_cleanup,
};

/*
 * How much of @req a write through a layout takes in. With parity, a
 * write ends on a stripe boundary when its size limit (pg_bsize, and a
 * page array in one page) reaches past one: the next write of the stream
 * then shares no partial stripe with it, so it neither waits for it
 * (ol_get_slot()) nor reads anything for its parity. Cut at the limit
 * alone, consecutive writes of a stream would each wait for the one
 * before.
 */
static size_t ol_pg_test_write(struct nfs_pageio_descriptor *pgio,
			       struct nfs_page *prev, struct nfs_page *req)
{
	struct nfs_pgio_mirror *mirror = nfs_pgio_current_mirror(pgio);
	size_t size = pnfs_generic_pg_test(pgio, prev, req);
	const struct ore_layout *l;
	u64 start, end, rem, off;

	if (!size || !pgio->pg_lseg)
		return size;
	l = &OL_SEG(pgio->pg_lseg)->layout;
	if (!l->parity)
		return size;
	start = list_empty(&mirror->pg_list) ? req_offset(req) :
		req_offset(nfs_list_entry(mirror->pg_list.next));
	/* nfs_generic_pg_test()'s limit: the page array fits in a page */
	end = start + min_t(u64, mirror->pg_bsize,
			    (PAGE_SIZE / sizeof(struct page *)) << PAGE_SHIFT);
	div64_u64_rem(end, l->stripe_length, &rem);
	if (end - rem > start)
		end -= rem;
	off = req_offset(req);
	if (off >= end)
		return 0;
	return min_t(u64, size, end - off);
}

static const struct nfs_pageio_ops ol_pg_write_ops = {
	.pg_init = ol_pg_init_write,
	.pg_test = ol_pg_test_write,
	.pg_doio = pnfs_generic_pg_writepages,
	.pg_cleanup = pnfs_generic_pg_cleanup,
};

static struct pnfs_layoutdriver_type objlayout_type = {
	.id			= LAYOUT_OSD2_OBJECTS,
	.name			= "LAYOUT_OSD2_OBJECTS",
	.owner			= THIS_MODULE,
	.flags			= PNFS_LAYOUTRET_ON_SETATTR |
				  PNFS_LAYOUTRET_ON_ERROR |
				  PNFS_READ_WHOLE_PAGE,
	.alloc_layout_hdr	= ol_alloc_layout_hdr,
	.free_layout_hdr	= ol_free_layout_hdr,
	.alloc_lseg		= ol_alloc_lseg,
	.free_lseg		= ol_free_lseg,
	.read_pagelist		= ol_read_pagelist,
	.write_pagelist		= ol_write_pagelist,
	.alloc_deviceid_node	= objlayout_alloc_deviceid_node,
	.free_deviceid_node	= objlayout_free_deviceid_node,
	.prepare_layoutreturn	= ol_prepare_layoutreturn,
	.pg_read_ops		= &ol_pg_read_ops,
	.pg_write_ops		= &ol_pg_write_ops,
	.sync			= pnfs_generic_sync,
};

static int __init objlayout_init(void)
{
	int ret = pnfs_register_layoutdriver(&objlayout_type);

	if (ret)
		pr_err("cannot register layout type %u: %d\n",
		       LAYOUT_OSD2_OBJECTS, ret);
	else
		pr_info("pNFS objects layout (type %u) registered\n",
			LAYOUT_OSD2_OBJECTS);
	return ret;
}

static void __exit objlayout_exit(void)
{
	pnfs_unregister_layoutdriver(&objlayout_type);
	objlayout_stores_exit();
}

module_init(objlayout_init);
module_exit(objlayout_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("pNFS objects layout (RFC 5664) client over ORE");
MODULE_ALIAS("nfs-layouttype4-2");
