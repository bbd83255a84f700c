/* SPDX-License-Identifier: GPL-2.0 */
/*
 * objlayoutdriver: the pNFS objects-layout client. docs/pnfs.md ("The
 * client") describes it.
 */
#ifndef _OBJLAYOUT_H
#define _OBJLAYOUT_H

#include <linux/types.h>
#include <linux/uuid.h>
#include <ore/ore.h>
#include <pnfs/objlayout_xdr.h>

#include "pnfs.h"	/* the NFS client's, from NFS_SRC */

/*
 * struct objlayout_dev - a pNFS device (one exofs store) known to a client
 * @node: the NFS client's device-id cache entry
 * @store: the store, opened from the table of dev.c; NULL when the device
 *	could not be matched to a store here (the layouts using it are
 *	unavailable: their I/O goes through the MDS)
 */
struct objlayout_dev {
	struct nfs4_deviceid_node node;
	struct ore_store *store;
};

/* objlayout.c */
u8 *objlayout_flatten(struct page **pages, u32 len, gfp_t gfp);

/* dev.c */
struct nfs4_deviceid_node *objlayout_alloc_deviceid_node(struct nfs_server *server,
							 struct pnfs_device *pdev,
							 gfp_t gfp);
void objlayout_free_deviceid_node(struct nfs4_deviceid_node *node);
void objlayout_stores_exit(void);

/* Counters, read-only module parameters (objlayout.c). */
enum objlayout_counter {
	OL_READS, OL_WRITES, OL_READ_BYTES, OL_WRITE_BYTES, OL_DEGRADED,
	OL_IOERRS, OL_MDS_FALLBACKS, OL_WRITE_REDONE, OL_LAYOUTS, OL_DEVICES, OL_NO_STORE,
	OL_R4W_HITS, OL_SLOT_WAITS, OL_CSUM_ERRORS, OL_NR_COUNTERS
};

extern atomic64_t objlayout_cnt[OL_NR_COUNTERS];

#endif /* _OBJLAYOUT_H */
