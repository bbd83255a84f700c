/* SPDX-License-Identifier: GPL-2.0 */
/*
 * RFC 5664 XDR: the layout-type-specific bodies of the NFSv4.1 objects
 * layout (LAYOUT4_OSD2_OBJECTS = 2), as a pure file (docs/sources.md):
 * pnfs/objlayout_xdr.c compiles in the kernel and in userspace
 * (tests/unit/objlayout_xdr_test.c). docs/pnfs.md says how our data
 * servers are named in a device address.
 *
 * The four bodies, each the content of one opaque of RFC 8881:
 *
 *	loc_body of LAYOUTGET		struct pnfs_osd_layout4
 *	da_addr_body of GETDEVICEINFO	struct pnfs_osd_deviceaddr4
 *	lou_body of LAYOUTCOMMIT	struct pnfs_osd_layoutupdate4
 *	lrf_body of LAYOUTRETURN	struct pnfs_osd_layoutreturn4
 *
 * The wire (RFC 5664; RFC 4506 encoding: big endian, every item a
 * multiple of 4 bytes, opaque<> and string<> a 4-byte length then the
 * bytes then zero padding to 4, fixed opaque[n] padded likewise, bool a
 * 4-byte 0 or 1, enums 4 bytes):
 *
 *	struct pnfs_osd_objid4 {
 *		deviceid4	oid_device_id;		opaque[16]
 *		uint64_t	oid_partition_id;
 *		uint64_t	oid_object_id;
 *	};
 *	struct pnfs_osd_object_cred4 {
 *		pnfs_osd_objid4		oc_object_id;
 *		pnfs_osd_version4	oc_osd_version;
 *		pnfs_osd_cap_key_sec4	oc_cap_key_sec;
 *		opaque			oc_capability_key<>;
 *		opaque			oc_capability<>;
 *	};
 *	struct pnfs_osd_data_map4 {
 *		uint32_t		odm_num_comps;
 *		length4			odm_stripe_unit;	uint64_t
 *		uint32_t		odm_group_width;
 *		uint32_t		odm_group_depth;
 *		uint32_t		odm_mirror_cnt;
 *		pnfs_osd_raid_algorithm4 odm_raid_algorithm;
 *	};
 *	struct pnfs_osd_layout4 {
 *		pnfs_osd_data_map4	olo_map;
 *		uint32_t		olo_comps_index;
 *		pnfs_osd_object_cred4	olo_components<>;
 *	};
 *
 *	union pnfs_osd_targetid4 switch (pnfs_osd_targetid_type4 oti_type) {
 *	case OBJ_TARGET_SCSI_NAME:	string oti_scsi_name<>;
 *	case OBJ_TARGET_SCSI_DEVICE_ID:	opaque oti_scsi_device_id<>;
 *	default:			void;
 *	};
 *	union pnfs_osd_targetaddr4 switch (bool ota_available) {
 *	case TRUE:			netaddr4 ota_netaddr;
 *	case FALSE:			void;
 *	};
 *	struct netaddr4 { string na_r_netid<>; string na_r_addr<>; };
 *	struct pnfs_osd_deviceaddr4 {
 *		pnfs_osd_targetid4	oda_targetid;
 *		pnfs_osd_targetaddr4	oda_targetaddr;
 *		opaque			oda_lun[8];
 *		opaque			oda_systemid<>;
 *		pnfs_osd_object_cred4	oda_root_obj_cred;
 *		opaque			oda_osdname<>;
 *	};
 *
 *	union pnfs_osd_deltaspaceused4 switch (bool dsu_valid) {
 *	case TRUE:			int64_t dsu_delta;
 *	case FALSE:			void;
 *	};
 *	struct pnfs_osd_layoutupdate4 {
 *		pnfs_osd_deltaspaceused4 olu_delta_space_used;
 *		bool			olu_ioerr_flag;
 *	};
 *
 *	struct pnfs_osd_ioerr4 {
 *		pnfs_osd_objid4		oer_component;
 *		length4			oer_comp_offset;
 *		length4			oer_comp_length;
 *		bool			oer_iswrite;
 *		pnfs_osd_errno4		oer_errno;
 *	};
 *	struct pnfs_osd_layoutreturn4 {
 *		pnfs_osd_ioerr4		olr_ioerr_report<>;
 *	};
 *
 * Decoding takes a flat buffer and its length, and never reads outside
 * it: the input comes from the network. Variable-length items are not
 * copied: a decoded &struct pnfs_osd_opaque points into the buffer, which
 * must outlive it, and a string is not NUL-terminated. Arrays are decoded
 * into the caller's array (nothing is allocated); with a NULL array the
 * whole body is still checked and the element count returned, so a
 * caller can size its array and decode again. Each body must fill its
 * buffer exactly (it is a whole opaque of the NFS operation).
 *
 * Errors: -EMSGSIZE when the buffer ends before the structure does (or,
 * encoding, when the buffer is too small); -EINVAL for a malformed or
 * unsupported field (an enum value RFC 5664 does not define, a bool
 * that is not 0 or 1, a length beyond the limits below, non-zero padding,
 * a NUL inside a string, bytes after the structure, more components than
 * odm_num_comps leaves room for); -E2BIG when the caller's array is too
 * small. &struct pnfs_osd_xdr_err then names the field, the reason (static
 * strings) and the byte offset, for the caller's message.
 *
 * Encoding writes into (buf, len) and returns the bytes written; with a
 * NULL buf it writes nothing and returns the bytes it would write. It
 * refuses (-EINVAL) exactly what decoding refuses, so whatever we send we
 * would accept.
 */
#ifndef _PNFS_OBJLAYOUT_XDR_H
#define _PNFS_OBJLAYOUT_XDR_H

#include <ore/pure.h>
#include <ore/layout.h>

/* NFS4_DEVICEID4_SIZE of RFC 8881 */
#define PNFS_OSD_DEVICEID_SIZE	16
#define PNFS_OSD_LUN_SIZE	8

/*
 * Our limits on variable-length fields (RFC 5664 sets none); a longer one
 * is refused as malformed. Each is well above what a real peer sends.
 */
#define PNFS_OSD_MAX_COMPS	ORE_MAX_COMPONENTS	/* olo_components */
#define PNFS_OSD_CAP_KEY_MAX	256	/* oc_capability_key (OSD-2: 20) */
#define PNFS_OSD_CAP_MAX	256	/* oc_capability (OSD-2: 104) */
#define PNFS_OSD_TARGETID_MAX	256	/* oti_scsi_name, oti_scsi_device_id */
#define PNFS_OSD_NETID_MAX	32	/* na_r_netid: "tcp", "tcp6", ... */
#define PNFS_OSD_UADDR_MAX	64	/* na_r_addr: "h1.h2.h3.h4.p1.p2", IPv6 */
#define PNFS_OSD_SYSTEMID_MAX	64	/* oda_systemid (OSD-2: 20; ours: 32) */
#define PNFS_OSD_OSDNAME_MAX	1024	/* oda_osdname (ours: export path) */

/* Smallest encodings, for sanity checks of counts against buffer sizes. */
#define PNFS_OSD_OBJID_XDR_SIZE		32
#define PNFS_OSD_CRED_XDR_MIN		(PNFS_OSD_OBJID_XDR_SIZE + 16)
#define PNFS_OSD_IOERR_XDR_SIZE		(PNFS_OSD_OBJID_XDR_SIZE + 24)

/**
 * enum pnfs_osd_raid_algorithm4 - odm_raid_algorithm (RFC 5664)
 * @PNFS_OSD_RAID_0: striping, no parity (ORE_RAID0)
 * @PNFS_OSD_RAID_4: parity on the last component of each group (ORE_RAID4)
 * @PNFS_OSD_RAID_5: rotating parity (ORE_RAID5)
 * @PNFS_OSD_RAID_PQ: rotating P and Q, Reed-Solomon (ORE_RAID6)
 *
 * Not ORE's values (0/4/5/6): pnfs_osd_raid_to_ore() and
 * pnfs_osd_raid_from_ore() convert. Mirroring is odm_mirror_cnt, the
 * number of copies beyond the first (ORE's mirrors_p1 - 1).
 */
enum pnfs_osd_raid_algorithm4 {
	PNFS_OSD_RAID_0 = 1,
	PNFS_OSD_RAID_4 = 2,
	PNFS_OSD_RAID_5 = 3,
	PNFS_OSD_RAID_PQ = 4,
};

/**
 * enum pnfs_osd_version4 - oc_osd_version
 * @PNFS_OSD_MISSING: the component is missing (lost): a client must
 *	reconstruct its data from the redundancy and not access it
 * @PNFS_OSD_VERSION_1: T10 OSD-1
 * @PNFS_OSD_VERSION_2: T10 OSD-2 (what we send for a present component)
 */
enum pnfs_osd_version4 {
	PNFS_OSD_MISSING = 0,
	PNFS_OSD_VERSION_1 = 1,
	PNFS_OSD_VERSION_2 = 2,
};

/**
 * enum pnfs_osd_cap_key_sec4 - oc_cap_key_sec
 * @PNFS_OSD_CAP_KEY_SEC_NONE: the capability key travels in the clear
 * @PNFS_OSD_CAP_KEY_SEC_SSV: it is encrypted with the session's SSV
 */
enum pnfs_osd_cap_key_sec4 {
	PNFS_OSD_CAP_KEY_SEC_NONE = 0,
	PNFS_OSD_CAP_KEY_SEC_SSV = 1,
};

/**
 * enum pnfs_osd_targetid_type4 - oti_type
 * @OBJ_TARGET_ANON: no identifier; the target is found by its address
 *	and oda_systemid (what we send)
 * @OBJ_TARGET_SCSI_NAME: oti_scsi_name, a SCSI name string
 * @OBJ_TARGET_SCSI_DEVICE_ID: oti_scsi_device_id, a SCSI device
 *	identification descriptor
 */
enum pnfs_osd_targetid_type4 {
	OBJ_TARGET_ANON = 1,
	OBJ_TARGET_SCSI_NAME = 2,
	OBJ_TARGET_SCSI_DEVICE_ID = 3,
};

/**
 * enum pnfs_osd_errno4 - oer_errno, what went wrong with a component
 * @PNFS_OSD_ERR_EIO: the data server failed the I/O
 * @PNFS_OSD_ERR_NOT_FOUND: the component object (or its device) is absent
 * @PNFS_OSD_ERR_NO_SPACE: no space left on the data server
 * @PNFS_OSD_ERR_BAD_CRED: the capability was refused
 * @PNFS_OSD_ERR_NO_ACCESS: access denied
 * @PNFS_OSD_ERR_UNREACHABLE: the data server did not answer
 * @PNFS_OSD_ERR_RESOURCE: the client ran out of a resource
 */
enum pnfs_osd_errno4 {
	PNFS_OSD_ERR_EIO = 1,
	PNFS_OSD_ERR_NOT_FOUND = 2,
	PNFS_OSD_ERR_NO_SPACE = 3,
	PNFS_OSD_ERR_BAD_CRED = 4,
	PNFS_OSD_ERR_NO_ACCESS = 5,
	PNFS_OSD_ERR_UNREACHABLE = 6,
	PNFS_OSD_ERR_RESOURCE = 7,
};

/**
 * struct pnfs_osd_opaque - an opaque<> or string<>, not copied
 * @data: its bytes (decoded: inside the decoded buffer); may be NULL
 *	when @len is 0
 * @len: how many, without the padding
 */
struct pnfs_osd_opaque {
	const u8 *data;
	u32 len;
};

/**
 * struct pnfs_osd_objid - pnfs_osd_objid4: one object on one device
 * @oid_device_id: the device (GETDEVICEINFO resolves it)
 * @oid_partition_id: OSD partition
 * @oid_object_id: object inside the partition
 */
struct pnfs_osd_objid {
	u8 oid_device_id[PNFS_OSD_DEVICEID_SIZE];
	u64 oid_partition_id;
	u64 oid_object_id;
};

/**
 * struct pnfs_osd_object_cred - pnfs_osd_object_cred4: a component
 * @oc_object_id: where it is
 * @oc_osd_version: &enum pnfs_osd_version4 (PNFS_OSD_MISSING: lost)
 * @oc_cap_key_sec: &enum pnfs_osd_cap_key_sec4
 * @oc_cap_key: the capability key
 * @oc_cap: the capability
 */
struct pnfs_osd_object_cred {
	struct pnfs_osd_objid oc_object_id;
	u32 oc_osd_version;
	u32 oc_cap_key_sec;
	struct pnfs_osd_opaque oc_cap_key;
	struct pnfs_osd_opaque oc_cap;
};

/**
 * struct pnfs_osd_data_map - pnfs_osd_data_map4 (RFC 5664)
 * @odm_num_comps: components of the whole map
 * @odm_stripe_unit: bytes of a stripe unit
 * @odm_group_width: components per group, parity included but not the
 *	mirrors; 0 with @odm_group_depth 0: no nesting (one group of all)
 * @odm_group_depth: stripe rows of a group before the next
 * @odm_mirror_cnt: copies of each component beyond the first
 * @odm_raid_algorithm: &enum pnfs_osd_raid_algorithm4
 */
struct pnfs_osd_data_map {
	u32 odm_num_comps;
	u64 odm_stripe_unit;
	u32 odm_group_width;
	u32 odm_group_depth;
	u32 odm_mirror_cnt;
	u32 odm_raid_algorithm;
};

/**
 * struct pnfs_osd_layout - pnfs_osd_layout4
 * @olo_map: the data map
 * @olo_comps_index: map index of @olo_comps[0] (the array may be a
 *	window of the map: @olo_comps_index + @olo_num_comps <=
 *	@olo_map.odm_num_comps)
 * @olo_num_comps: elements of @olo_comps
 * @olo_comps: the components (decoded: the caller's array, or NULL)
 */
struct pnfs_osd_layout {
	struct pnfs_osd_data_map olo_map;
	u32 olo_comps_index;
	u32 olo_num_comps;
	struct pnfs_osd_object_cred *olo_comps;
};

/**
 * struct pnfs_osd_deviceaddr - pnfs_osd_deviceaddr4 (RFC 5664)
 * @oda_targetid_type: &enum pnfs_osd_targetid_type4
 * @oda_targetid: oti_scsi_name or oti_scsi_device_id; empty for
 *	OBJ_TARGET_ANON
 * @oda_targetaddr_available: ota_available: @oda_netid and @oda_uaddr
 *	are meaningful (empty otherwise)
 * @oda_netid: na_r_netid ("tcp", "tcp6")
 * @oda_uaddr: na_r_addr, the universal address (RFC 5665)
 * @oda_lun: the SCSI LUN
 * @oda_systemid: the OSD system ID
 * @oda_root_obj_cred: credential of the device's root object
 * @oda_osdname: the OSD name
 */
struct pnfs_osd_deviceaddr {
	u32 oda_targetid_type;
	struct pnfs_osd_opaque oda_targetid;
	bool oda_targetaddr_available;
	struct pnfs_osd_opaque oda_netid;
	struct pnfs_osd_opaque oda_uaddr;
	u8 oda_lun[PNFS_OSD_LUN_SIZE];
	struct pnfs_osd_opaque oda_systemid;
	struct pnfs_osd_object_cred oda_root_obj_cred;
	struct pnfs_osd_opaque oda_osdname;
};

/**
 * struct pnfs_osd_layoutupdate - pnfs_osd_layoutupdate4 (RFC 5664)
 * @dsu_valid: @dsu_delta is sent
 * @dsu_delta: change of the space the file uses, bytes
 * @olu_ioerr_flag: the client saw I/O errors (it reports them in
 *	LAYOUTRETURN)
 */
struct pnfs_osd_layoutupdate {
	bool dsu_valid;
	s64 dsu_delta;
	bool olu_ioerr_flag;
};

/**
 * struct pnfs_osd_ioerr - pnfs_osd_ioerr4: one failed range of a component
 * @oer_component: the component object
 * @oer_comp_offset: first byte of the failed range, in the component
 * @oer_comp_length: its length
 * @oer_iswrite: the failed I/O was a write
 * @oer_errno: &enum pnfs_osd_errno4
 */
struct pnfs_osd_ioerr {
	struct pnfs_osd_objid oer_component;
	u64 oer_comp_offset;
	u64 oer_comp_length;
	bool oer_iswrite;
	u32 oer_errno;
};

/**
 * struct pnfs_osd_xdr_err - why a body was refused
 * @field: RFC 5664 name of the offending field (static string)
 * @why: what is wrong with it (static string)
 * @pos: byte offset of the field in the buffer
 */
struct pnfs_osd_xdr_err {
	const char *field;
	const char *why;
	u32 pos;
};

/* Layout (LAYOUTGET loc_body) */
int pnfs_osd_xdr_encode_layout(u8 *buf, size_t len,
			       const struct pnfs_osd_layout *lo,
			       struct pnfs_osd_xdr_err *err);
int pnfs_osd_xdr_encode_layout_head(u8 *buf, size_t len,
				    const struct pnfs_osd_layout *lo,
				    struct pnfs_osd_xdr_err *err);
int pnfs_osd_xdr_encode_object_cred(u8 *buf, size_t len,
				    const struct pnfs_osd_object_cred *oc,
				    struct pnfs_osd_xdr_err *err);
int pnfs_osd_xdr_decode_layout(const u8 *buf, size_t len,
			       struct pnfs_osd_layout *lo,
			       struct pnfs_osd_object_cred *comps,
			       u32 max_comps, struct pnfs_osd_xdr_err *err);

/* Device address (GETDEVICEINFO da_addr_body) */
int pnfs_osd_xdr_encode_deviceaddr(u8 *buf, size_t len,
				   const struct pnfs_osd_deviceaddr *da,
				   struct pnfs_osd_xdr_err *err);
int pnfs_osd_xdr_decode_deviceaddr(const u8 *buf, size_t len,
				   struct pnfs_osd_deviceaddr *da,
				   struct pnfs_osd_xdr_err *err);

/* Layout update (LAYOUTCOMMIT lou_body) */
int pnfs_osd_xdr_encode_layoutupdate(u8 *buf, size_t len,
				     const struct pnfs_osd_layoutupdate *lu,
				     struct pnfs_osd_xdr_err *err);
int pnfs_osd_xdr_decode_layoutupdate(const u8 *buf, size_t len,
				     struct pnfs_osd_layoutupdate *lu,
				     struct pnfs_osd_xdr_err *err);

/* Error report (LAYOUTRETURN lrf_body) */
int pnfs_osd_xdr_encode_layoutreturn(u8 *buf, size_t len,
				     const struct pnfs_osd_ioerr *errs,
				     u32 nerrs, struct pnfs_osd_xdr_err *err);
int pnfs_osd_xdr_decode_layoutreturn(const u8 *buf, size_t len,
				     struct pnfs_osd_ioerr *errs, u32 max_errs,
				     u32 *nerrs, struct pnfs_osd_xdr_err *err);

/* ORE's RAID enum and layout against the wire's */
int pnfs_osd_raid_to_ore(u32 wire, u32 *raid_algorithm);
int pnfs_osd_raid_from_ore(u32 raid_algorithm, u32 *wire);
int pnfs_osd_map_to_ore(const struct pnfs_osd_data_map *map,
			struct ore_layout *layout, const char **why);
int pnfs_osd_map_from_ore(const struct ore_layout *layout,
			  struct pnfs_osd_data_map *map, const char **why);

/* A Linux errno (negative) as the closest &enum pnfs_osd_errno4. */
u32 pnfs_osd_errno_from_linux(int err);

#endif /* _PNFS_OBJLAYOUT_XDR_H */
