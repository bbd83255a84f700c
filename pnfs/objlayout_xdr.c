// SPDX-License-Identifier: GPL-2.0
/*
 * RFC 5664 XDR of the NFSv4.1 objects layout, and the conversion of its
 * data map to and from ORE's layout. A pure file (docs/sources.md): built
 * into the kernel and into tests/unit; no allocation, no printing, errors
 * as a negative errno with a static field name and reason.
 * include/pnfs/objlayout_xdr.h has the wire definitions and the rules.
 *
 * Both directions go through a cursor with a sticky error: after the
 * first failure every further step does nothing, so a body is written as
 * a straight sequence of fields and its result checked once at the end.
 * Loops also stop at the first error. The decoder's one way to look at
 * input is dec_take(), which refuses to pass the end of the buffer.
 */
#include <pnfs/objlayout_xdr.h>

/* Limit of olr_ioerr_report<>, ours: keeps an encoding's size in an int. */
#define PNFS_OSD_MAX_IOERRS	4096

static u32 get_be32(const u8 *p)
{
	return (u32)p[0] << 24 | (u32)p[1] << 16 | (u32)p[2] << 8 | p[3];
}

static u64 get_be64(const u8 *p)
{
	return (u64)get_be32(p) << 32 | get_be32(p + 4);
}

static void put_be32(u8 *p, u32 v)
{
	p[0] = v >> 24;
	p[1] = v >> 16;
	p[2] = v >> 8;
	p[3] = v;
}

/* An opaque of @n bytes takes this much room on the wire, padding included. */
static size_t xdr_padded(u32 n)
{
	return (size_t)n + ((4 - (n & 3)) & 3);
}

/* ---------------------------------------------------------------------
 * Field checks, shared by both directions: we send only what we accept.
 */

static const char *check_opaque(const struct pnfs_osd_opaque *o, u32 max,
				bool string)
{
	if (o->len > max)
		return "longer than our limit for the field";
	if (o->len && !o->data)
		return "no bytes for a non-empty field";
	if (string && o->len && memchr(o->data, 0, o->len))
		return "a NUL byte inside a string";
	return NULL;
}

static bool enum_ok(u32 v, u32 lo, u32 hi)
{
	return v >= lo && v <= hi;
}

/* ---------------------------------------------------------------------
 * Encoding
 */

struct pnfs_osd_enc {
	u8 *buf;		/* NULL: only count the bytes */
	size_t len;
	size_t pos;
	int ret;
	struct pnfs_osd_xdr_err *err;
};

static void enc_fail(struct pnfs_osd_enc *e, int ret, const char *field,
		     const char *why)
{
	if (e->ret)
		return;
	e->ret = ret;
	if (e->err) {
		e->err->field = field;
		e->err->why = why;
		e->err->pos = (u32)e->pos;
	}
}

/* Room for @n more bytes: where to write them, or NULL (counting or error). */
static u8 *enc_put(struct pnfs_osd_enc *e, size_t n, const char *field)
{
	u8 *p;

	if (e->ret)
		return NULL;
	if (!e->buf) {
		e->pos += n;
		return NULL;
	}
	if (n > e->len - e->pos) {
		enc_fail(e, -EMSGSIZE, field, "the buffer is too small");
		return NULL;
	}
	p = e->buf + e->pos;
	e->pos += n;
	return p;
}

static void enc_u32(struct pnfs_osd_enc *e, u32 v, const char *field)
{
	u8 *p = enc_put(e, 4, field);

	if (p)
		put_be32(p, v);
}

static void enc_u64(struct pnfs_osd_enc *e, u64 v, const char *field)
{
	u8 *p = enc_put(e, 8, field);

	if (p) {
		put_be32(p, v >> 32);
		put_be32(p + 4, (u32)v);
	}
}

static void enc_enum(struct pnfs_osd_enc *e, u32 v, u32 lo, u32 hi,
		     const char *field)
{
	if (!enum_ok(v, lo, hi))
		enc_fail(e, -EINVAL, field, "not a value RFC 5664 defines");
	enc_u32(e, v, field);
}

/* A fixed opaque[n] (n a multiple of 4 here: no padding). */
static void enc_fixed(struct pnfs_osd_enc *e, const u8 *data, size_t n,
		      const char *field)
{
	u8 *p = enc_put(e, n, field);

	if (p)
		memcpy(p, data, n);
}

static void enc_opaque(struct pnfs_osd_enc *e, const struct pnfs_osd_opaque *o,
		       u32 max, bool string, const char *field)
{
	const char *why = check_opaque(o, max, string);
	size_t padded = xdr_padded(o->len);
	u8 *p;

	if (why) {
		enc_fail(e, -EINVAL, field, why);
		return;
	}
	enc_u32(e, o->len, field);
	p = enc_put(e, padded, field);
	if (p) {
		if (o->len)
			memcpy(p, o->data, o->len);
		memset(p + o->len, 0, padded - o->len);
	}
}

static int enc_result(const struct pnfs_osd_enc *e)
{
	return e->ret ? e->ret : (int)e->pos;
}

static void enc_objid(struct pnfs_osd_enc *e, const struct pnfs_osd_objid *id)
{
	enc_fixed(e, id->oid_device_id, PNFS_OSD_DEVICEID_SIZE,
		  "oid_device_id");
	enc_u64(e, id->oid_partition_id, "oid_partition_id");
	enc_u64(e, id->oid_object_id, "oid_object_id");
}

static void enc_object_cred(struct pnfs_osd_enc *e,
			    const struct pnfs_osd_object_cred *oc)
{
	enc_objid(e, &oc->oc_object_id);
	enc_enum(e, oc->oc_osd_version, PNFS_OSD_MISSING, PNFS_OSD_VERSION_2,
		 "oc_osd_version");
	enc_enum(e, oc->oc_cap_key_sec, PNFS_OSD_CAP_KEY_SEC_NONE,
		 PNFS_OSD_CAP_KEY_SEC_SSV, "oc_cap_key_sec");
	enc_opaque(e, &oc->oc_cap_key, PNFS_OSD_CAP_KEY_MAX, false,
		   "oc_capability_key");
	enc_opaque(e, &oc->oc_cap, PNFS_OSD_CAP_MAX, false, "oc_capability");
}

static void enc_layout_head(struct pnfs_osd_enc *e,
			    const struct pnfs_osd_layout *lo)
{
	const struct pnfs_osd_data_map *map = &lo->olo_map;

	enc_u32(e, map->odm_num_comps, "odm_num_comps");
	enc_u64(e, map->odm_stripe_unit, "odm_stripe_unit");
	enc_u32(e, map->odm_group_width, "odm_group_width");
	enc_u32(e, map->odm_group_depth, "odm_group_depth");
	enc_u32(e, map->odm_mirror_cnt, "odm_mirror_cnt");
	enc_enum(e, map->odm_raid_algorithm, PNFS_OSD_RAID_0, PNFS_OSD_RAID_PQ,
		 "odm_raid_algorithm");
	enc_u32(e, lo->olo_comps_index, "olo_comps_index");
	if (lo->olo_num_comps > PNFS_OSD_MAX_COMPS)
		enc_fail(e, -EINVAL, "olo_components",
			 "more components than our limit of 1024");
	else if ((u64)lo->olo_comps_index + lo->olo_num_comps >
		 map->odm_num_comps)
		enc_fail(e, -EINVAL, "olo_components",
			 "olo_comps_index + components exceed odm_num_comps");
	enc_u32(e, lo->olo_num_comps, "olo_components");
}

/**
 * pnfs_osd_xdr_encode_layout_head - encode a layout up to its components
 * @buf: where to write, or NULL to only count
 * @len: bytes at @buf
 * @lo: the layout; @lo->olo_comps is not looked at
 * @err: where to say what was refused, or NULL
 *
 * The data map, olo_comps_index and the array length: followed by
 * @lo->olo_num_comps pnfs_osd_xdr_encode_object_cred(), it is the whole
 * loc_body, for a caller that writes a long layout piece by piece.
 *
 * Return: bytes written (to be written with a NULL @buf), -EMSGSIZE if
 * @len is too small, -EINVAL for a field that may not be sent.
 */
int pnfs_osd_xdr_encode_layout_head(u8 *buf, size_t len,
				    const struct pnfs_osd_layout *lo,
				    struct pnfs_osd_xdr_err *err)
{
	struct pnfs_osd_enc e = { .buf = buf, .len = len, .err = err };

	enc_layout_head(&e, lo);
	return enc_result(&e);
}

/**
 * pnfs_osd_xdr_encode_object_cred - encode one pnfs_osd_object_cred4
 * @buf: where to write, or NULL to only count
 * @len: bytes at @buf
 * @oc: the component
 * @err: where to say what was refused, or NULL
 *
 * Return: as pnfs_osd_xdr_encode_layout_head().
 */
int pnfs_osd_xdr_encode_object_cred(u8 *buf, size_t len,
				    const struct pnfs_osd_object_cred *oc,
				    struct pnfs_osd_xdr_err *err)
{
	struct pnfs_osd_enc e = { .buf = buf, .len = len, .err = err };

	enc_object_cred(&e, oc);
	return enc_result(&e);
}

/**
 * pnfs_osd_xdr_encode_layout - encode a pnfs_osd_layout4 (loc_body)
 * @buf: where to write, or NULL to only count
 * @len: bytes at @buf
 * @lo: the layout, with @lo->olo_num_comps components at @lo->olo_comps
 * @err: where to say what was refused, or NULL
 *
 * Return: as pnfs_osd_xdr_encode_layout_head().
 */
int pnfs_osd_xdr_encode_layout(u8 *buf, size_t len,
			       const struct pnfs_osd_layout *lo,
			       struct pnfs_osd_xdr_err *err)
{
	struct pnfs_osd_enc e = { .buf = buf, .len = len, .err = err };
	u32 i;

	enc_layout_head(&e, lo);
	if (lo->olo_num_comps && !lo->olo_comps)
		enc_fail(&e, -EINVAL, "olo_components", "no component array");
	for (i = 0; i < lo->olo_num_comps && !e.ret; i++)
		enc_object_cred(&e, &lo->olo_comps[i]);
	return enc_result(&e);
}

/**
 * pnfs_osd_xdr_encode_deviceaddr - encode a pnfs_osd_deviceaddr4
 * @buf: where to write, or NULL to only count
 * @len: bytes at @buf
 * @da: the device address; the identifier of an OBJ_TARGET_ANON target,
 *	and the network address when it is not available, must be empty
 * @err: where to say what was refused, or NULL
 *
 * Return: as pnfs_osd_xdr_encode_layout_head().
 */
int pnfs_osd_xdr_encode_deviceaddr(u8 *buf, size_t len,
				   const struct pnfs_osd_deviceaddr *da,
				   struct pnfs_osd_xdr_err *err)
{
	struct pnfs_osd_enc e = { .buf = buf, .len = len, .err = err };

	enc_enum(&e, da->oda_targetid_type, OBJ_TARGET_ANON,
		 OBJ_TARGET_SCSI_DEVICE_ID, "oti_type");
	switch (da->oda_targetid_type) {
	case OBJ_TARGET_SCSI_NAME:
		enc_opaque(&e, &da->oda_targetid, PNFS_OSD_TARGETID_MAX, true,
			   "oti_scsi_name");
		break;
	case OBJ_TARGET_SCSI_DEVICE_ID:
		enc_opaque(&e, &da->oda_targetid, PNFS_OSD_TARGETID_MAX, false,
			   "oti_scsi_device_id");
		break;
	default:
		if (da->oda_targetid.len)
			enc_fail(&e, -EINVAL, "oda_targetid",
				 "an identifier for an anonymous target");
		break;
	}
	enc_u32(&e, da->oda_targetaddr_available, "ota_available");
	if (da->oda_targetaddr_available) {
		enc_opaque(&e, &da->oda_netid, PNFS_OSD_NETID_MAX, true,
			   "na_r_netid");
		enc_opaque(&e, &da->oda_uaddr, PNFS_OSD_UADDR_MAX, true,
			   "na_r_addr");
	} else if (da->oda_netid.len || da->oda_uaddr.len) {
		enc_fail(&e, -EINVAL, "ota_netaddr",
			 "an address that is not available");
	}
	enc_fixed(&e, da->oda_lun, PNFS_OSD_LUN_SIZE, "oda_lun");
	enc_opaque(&e, &da->oda_systemid, PNFS_OSD_SYSTEMID_MAX, false,
		   "oda_systemid");
	enc_object_cred(&e, &da->oda_root_obj_cred);
	enc_opaque(&e, &da->oda_osdname, PNFS_OSD_OSDNAME_MAX, false,
		   "oda_osdname");
	return enc_result(&e);
}

/**
 * pnfs_osd_xdr_encode_layoutupdate - encode a pnfs_osd_layoutupdate4
 * @buf: where to write, or NULL to only count
 * @len: bytes at @buf
 * @lu: the update; @lu->dsu_delta must be 0 unless @lu->dsu_valid
 * @err: where to say what was refused, or NULL
 *
 * Return: as pnfs_osd_xdr_encode_layout_head().
 */
int pnfs_osd_xdr_encode_layoutupdate(u8 *buf, size_t len,
				     const struct pnfs_osd_layoutupdate *lu,
				     struct pnfs_osd_xdr_err *err)
{
	struct pnfs_osd_enc e = { .buf = buf, .len = len, .err = err };

	enc_u32(&e, lu->dsu_valid, "dsu_valid");
	if (lu->dsu_valid)
		enc_u64(&e, (u64)lu->dsu_delta, "dsu_delta");
	else if (lu->dsu_delta)
		enc_fail(&e, -EINVAL, "dsu_delta", "a delta that is not valid");
	enc_u32(&e, lu->olu_ioerr_flag, "olu_ioerr_flag");
	return enc_result(&e);
}

/**
 * pnfs_osd_xdr_encode_layoutreturn - encode a pnfs_osd_layoutreturn4
 * @buf: where to write, or NULL to only count
 * @len: bytes at @buf
 * @errs: the failed ranges
 * @nerrs: how many (at most 4096)
 * @err: where to say what was refused, or NULL
 *
 * Return: as pnfs_osd_xdr_encode_layout_head().
 */
int pnfs_osd_xdr_encode_layoutreturn(u8 *buf, size_t len,
				     const struct pnfs_osd_ioerr *errs,
				     u32 nerrs, struct pnfs_osd_xdr_err *err)
{
	struct pnfs_osd_enc e = { .buf = buf, .len = len, .err = err };
	u32 i;

	if (nerrs > PNFS_OSD_MAX_IOERRS)
		enc_fail(&e, -EINVAL, "olr_ioerr_report",
			 "more error reports than our limit of 4096");
	else if (nerrs && !errs)
		enc_fail(&e, -EINVAL, "olr_ioerr_report", "no report array");
	enc_u32(&e, nerrs, "olr_ioerr_report");
	for (i = 0; i < nerrs && !e.ret; i++) {
		enc_objid(&e, &errs[i].oer_component);
		enc_u64(&e, errs[i].oer_comp_offset, "oer_comp_offset");
		enc_u64(&e, errs[i].oer_comp_length, "oer_comp_length");
		enc_u32(&e, errs[i].oer_iswrite, "oer_iswrite");
		enc_enum(&e, errs[i].oer_errno, PNFS_OSD_ERR_EIO,
			 PNFS_OSD_ERR_RESOURCE, "oer_errno");
	}
	return enc_result(&e);
}

/* ---------------------------------------------------------------------
 * Decoding: the buffer is hostile.
 */

struct pnfs_osd_dec {
	const u8 *buf;
	size_t len;
	size_t pos;
	int ret;
	struct pnfs_osd_xdr_err *err;
};

static void dec_fail_at(struct pnfs_osd_dec *d, size_t at, int ret,
			const char *field, const char *why)
{
	if (d->ret)
		return;
	d->ret = ret;
	if (d->err) {
		d->err->field = field;
		d->err->why = why;
		d->err->pos = (u32)at;
	}
}

/* The next @n bytes, or NULL if the buffer ends first (or an earlier error). */
static const u8 *dec_take(struct pnfs_osd_dec *d, size_t n, const char *field)
{
	const u8 *p;

	if (d->ret)
		return NULL;
	if (n > d->len - d->pos) {
		dec_fail_at(d, d->pos, -EMSGSIZE, field,
			    "the buffer ends inside the field");
		return NULL;
	}
	p = d->buf + d->pos;
	d->pos += n;
	return p;
}

static u32 dec_u32(struct pnfs_osd_dec *d, const char *field)
{
	const u8 *p = dec_take(d, 4, field);

	return p ? get_be32(p) : 0;
}

static u64 dec_u64(struct pnfs_osd_dec *d, const char *field)
{
	const u8 *p = dec_take(d, 8, field);

	return p ? get_be64(p) : 0;
}

static u32 dec_enum(struct pnfs_osd_dec *d, u32 lo, u32 hi, const char *field)
{
	size_t at = d->pos;
	u32 v = dec_u32(d, field);

	if (!d->ret && !enum_ok(v, lo, hi))
		dec_fail_at(d, at, -EINVAL, field,
			    "not a value RFC 5664 defines");
	return v;
}

static bool dec_bool(struct pnfs_osd_dec *d, const char *field)
{
	return dec_enum(d, 0, 1, field);
}

static void dec_fixed(struct pnfs_osd_dec *d, u8 *out, size_t n,
		      const char *field)
{
	const u8 *p = dec_take(d, n, field);

	if (p)
		memcpy(out, p, n);
}

static void dec_opaque(struct pnfs_osd_dec *d, struct pnfs_osd_opaque *o,
		       u32 max, bool string, const char *field)
{
	size_t at = d->pos, padded, i;
	u32 n = dec_u32(d, field);
	const char *why;
	const u8 *p;

	o->data = NULL;
	o->len = 0;
	if (d->ret)
		return;
	if (n > max) {
		dec_fail_at(d, at, -EINVAL, field,
			    "longer than our limit for the field");
		return;
	}
	padded = xdr_padded(n);
	p = dec_take(d, padded, field);
	if (!p)
		return;
	for (i = n; i < padded; i++) {
		if (p[i]) {
			dec_fail_at(d, at, -EINVAL, field,
				    "non-zero padding bytes");
			return;
		}
	}
	o->data = n ? p : NULL;
	o->len = n;
	why = check_opaque(o, max, string);
	if (why)
		dec_fail_at(d, at, -EINVAL, field, why);
}

/* An array length: refused when its smallest elements cannot fit. */
static u32 dec_count(struct pnfs_osd_dec *d, u32 max, size_t elem_min,
		     const char *field)
{
	size_t at = d->pos;
	u32 n = dec_u32(d, field);

	if (d->ret)
		return 0;
	if (n > max)
		dec_fail_at(d, at, -EINVAL, field,
			    "more elements than our limit for the array");
	else if ((u64)n * elem_min > d->len - d->pos)
		dec_fail_at(d, d->pos, -EMSGSIZE, field,
			    "the buffer ends before the array can");
	return n;
}

/* The body must be exactly the buffer. */
static int dec_result(struct pnfs_osd_dec *d)
{
	if (!d->ret && d->pos != d->len)
		dec_fail_at(d, d->pos, -EINVAL, "(end)",
			    "bytes after the end of the structure");
	return d->ret;
}

static void dec_objid(struct pnfs_osd_dec *d, struct pnfs_osd_objid *id)
{
	dec_fixed(d, id->oid_device_id, PNFS_OSD_DEVICEID_SIZE,
		  "oid_device_id");
	id->oid_partition_id = dec_u64(d, "oid_partition_id");
	id->oid_object_id = dec_u64(d, "oid_object_id");
}

static void dec_object_cred(struct pnfs_osd_dec *d,
			    struct pnfs_osd_object_cred *oc)
{
	dec_objid(d, &oc->oc_object_id);
	oc->oc_osd_version = dec_enum(d, PNFS_OSD_MISSING, PNFS_OSD_VERSION_2,
				      "oc_osd_version");
	oc->oc_cap_key_sec = dec_enum(d, PNFS_OSD_CAP_KEY_SEC_NONE,
				      PNFS_OSD_CAP_KEY_SEC_SSV,
				      "oc_cap_key_sec");
	dec_opaque(d, &oc->oc_cap_key, PNFS_OSD_CAP_KEY_MAX, false,
		   "oc_capability_key");
	dec_opaque(d, &oc->oc_cap, PNFS_OSD_CAP_MAX, false, "oc_capability");
}

/**
 * pnfs_osd_xdr_decode_layout - decode a pnfs_osd_layout4 (loc_body)
 * @buf: the body
 * @len: its length
 * @lo: the layout decoded; @lo->olo_comps is @comps
 * @comps: array for the components, or NULL to check the body and count
 *	them only
 * @max_comps: elements of @comps
 * @err: where to say what was refused, or NULL
 *
 * The opaques of the components point into @buf. The map's fields are
 * only checked as XDR here (enum, room for the components); whether ORE
 * can use the map is pnfs_osd_map_to_ore()'s business.
 *
 * Return: 0; -EMSGSIZE if @buf ends early, -EINVAL for a malformed field,
 * -E2BIG if there are more than @max_comps components (their number is
 * then in @lo->olo_num_comps). On error @lo and @comps hold garbage.
 */
int pnfs_osd_xdr_decode_layout(const u8 *buf, size_t len,
			       struct pnfs_osd_layout *lo,
			       struct pnfs_osd_object_cred *comps,
			       u32 max_comps, struct pnfs_osd_xdr_err *err)
{
	struct pnfs_osd_dec d = { .buf = buf, .len = len, .err = err };
	struct pnfs_osd_data_map *map = &lo->olo_map;
	struct pnfs_osd_object_cred scratch;
	size_t at;
	u32 n, i;

	memset(lo, 0, sizeof(*lo));
	map->odm_num_comps = dec_u32(&d, "odm_num_comps");
	map->odm_stripe_unit = dec_u64(&d, "odm_stripe_unit");
	map->odm_group_width = dec_u32(&d, "odm_group_width");
	map->odm_group_depth = dec_u32(&d, "odm_group_depth");
	map->odm_mirror_cnt = dec_u32(&d, "odm_mirror_cnt");
	map->odm_raid_algorithm = dec_enum(&d, PNFS_OSD_RAID_0,
					   PNFS_OSD_RAID_PQ,
					   "odm_raid_algorithm");
	lo->olo_comps_index = dec_u32(&d, "olo_comps_index");
	at = d.pos;
	n = dec_count(&d, PNFS_OSD_MAX_COMPS, PNFS_OSD_CRED_XDR_MIN,
		      "olo_components");
	lo->olo_num_comps = n;
	if ((u64)lo->olo_comps_index + n > map->odm_num_comps)
		dec_fail_at(&d, at, -EINVAL, "olo_components",
			    "olo_comps_index + components exceed odm_num_comps");
	else if (comps && n > max_comps)
		dec_fail_at(&d, at, -E2BIG, "olo_components",
			    "more components than the caller's array holds");
	for (i = 0; i < n && !d.ret; i++)
		dec_object_cred(&d, comps ? &comps[i] : &scratch);
	lo->olo_comps = comps;
	return dec_result(&d);
}

/**
 * pnfs_osd_xdr_decode_deviceaddr - decode a pnfs_osd_deviceaddr4
 * @buf: the body (da_addr_body)
 * @len: its length
 * @da: the address decoded; its opaques point into @buf
 * @err: where to say what was refused, or NULL
 *
 * Return: 0, -EMSGSIZE or -EINVAL as pnfs_osd_xdr_decode_layout().
 */
int pnfs_osd_xdr_decode_deviceaddr(const u8 *buf, size_t len,
				   struct pnfs_osd_deviceaddr *da,
				   struct pnfs_osd_xdr_err *err)
{
	struct pnfs_osd_dec d = { .buf = buf, .len = len, .err = err };

	memset(da, 0, sizeof(*da));
	da->oda_targetid_type = dec_enum(&d, OBJ_TARGET_ANON,
					 OBJ_TARGET_SCSI_DEVICE_ID, "oti_type");
	if (!d.ret && da->oda_targetid_type == OBJ_TARGET_SCSI_NAME)
		dec_opaque(&d, &da->oda_targetid, PNFS_OSD_TARGETID_MAX, true,
			   "oti_scsi_name");
	else if (!d.ret && da->oda_targetid_type == OBJ_TARGET_SCSI_DEVICE_ID)
		dec_opaque(&d, &da->oda_targetid, PNFS_OSD_TARGETID_MAX, false,
			   "oti_scsi_device_id");
	da->oda_targetaddr_available = dec_bool(&d, "ota_available");
	if (da->oda_targetaddr_available) {
		dec_opaque(&d, &da->oda_netid, PNFS_OSD_NETID_MAX, true,
			   "na_r_netid");
		dec_opaque(&d, &da->oda_uaddr, PNFS_OSD_UADDR_MAX, true,
			   "na_r_addr");
	}
	dec_fixed(&d, da->oda_lun, PNFS_OSD_LUN_SIZE, "oda_lun");
	dec_opaque(&d, &da->oda_systemid, PNFS_OSD_SYSTEMID_MAX, false,
		   "oda_systemid");
	dec_object_cred(&d, &da->oda_root_obj_cred);
	dec_opaque(&d, &da->oda_osdname, PNFS_OSD_OSDNAME_MAX, false,
		   "oda_osdname");
	return dec_result(&d);
}

/**
 * pnfs_osd_xdr_decode_layoutupdate - decode a pnfs_osd_layoutupdate4
 * @buf: the body (lou_body)
 * @len: its length
 * @lu: the update decoded
 * @err: where to say what was refused, or NULL
 *
 * Return: 0, -EMSGSIZE or -EINVAL as pnfs_osd_xdr_decode_layout().
 */
int pnfs_osd_xdr_decode_layoutupdate(const u8 *buf, size_t len,
				     struct pnfs_osd_layoutupdate *lu,
				     struct pnfs_osd_xdr_err *err)
{
	struct pnfs_osd_dec d = { .buf = buf, .len = len, .err = err };

	memset(lu, 0, sizeof(*lu));
	lu->dsu_valid = dec_bool(&d, "dsu_valid");
	if (lu->dsu_valid)
		lu->dsu_delta = (s64)dec_u64(&d, "dsu_delta");
	lu->olu_ioerr_flag = dec_bool(&d, "olu_ioerr_flag");
	return dec_result(&d);
}

/**
 * pnfs_osd_xdr_decode_layoutreturn - decode a pnfs_osd_layoutreturn4
 * @buf: the body (lrf_body)
 * @len: its length
 * @errs: array for the reports, or NULL to check the body and count only
 * @max_errs: elements of @errs
 * @nerrs: the number of reports
 * @err: where to say what was refused, or NULL
 *
 * Return: 0; -EMSGSIZE, -EINVAL or -E2BIG as pnfs_osd_xdr_decode_layout()
 * (with -E2BIG, *@nerrs is the number of reports).
 */
int pnfs_osd_xdr_decode_layoutreturn(const u8 *buf, size_t len,
				     struct pnfs_osd_ioerr *errs, u32 max_errs,
				     u32 *nerrs, struct pnfs_osd_xdr_err *err)
{
	struct pnfs_osd_dec d = { .buf = buf, .len = len, .err = err };
	struct pnfs_osd_ioerr scratch;
	u32 n, i;

	n = dec_count(&d, PNFS_OSD_MAX_IOERRS, PNFS_OSD_IOERR_XDR_SIZE,
		      "olr_ioerr_report");
	*nerrs = n;
	if (errs && n > max_errs)
		dec_fail_at(&d, 0, -E2BIG, "olr_ioerr_report",
			    "more reports than the caller's array holds");
	for (i = 0; i < n && !d.ret; i++) {
		struct pnfs_osd_ioerr *e = errs ? &errs[i] : &scratch;

		dec_objid(&d, &e->oer_component);
		e->oer_comp_offset = dec_u64(&d, "oer_comp_offset");
		e->oer_comp_length = dec_u64(&d, "oer_comp_length");
		e->oer_iswrite = dec_bool(&d, "oer_iswrite");
		e->oer_errno = dec_enum(&d, PNFS_OSD_ERR_EIO,
					PNFS_OSD_ERR_RESOURCE, "oer_errno");
	}
	return dec_result(&d);
}

/* ---------------------------------------------------------------------
 * ORE against the wire
 */

/**
 * pnfs_osd_raid_to_ore - the ORE RAID algorithm of a wire one
 * @wire: &enum pnfs_osd_raid_algorithm4
 * @raid_algorithm: the &enum ore_raid_algorithm
 *
 * Return: 0, or -EINVAL for a value RFC 5664 does not define.
 */
int pnfs_osd_raid_to_ore(u32 wire, u32 *raid_algorithm)
{
	switch (wire) {
	case PNFS_OSD_RAID_0:
		*raid_algorithm = ORE_RAID0;
		return 0;
	case PNFS_OSD_RAID_4:
		*raid_algorithm = ORE_RAID4;
		return 0;
	case PNFS_OSD_RAID_5:
		*raid_algorithm = ORE_RAID5;
		return 0;
	case PNFS_OSD_RAID_PQ:
		*raid_algorithm = ORE_RAID6;
		return 0;
	default:
		return -EINVAL;
	}
}

/**
 * pnfs_osd_raid_from_ore - the wire RAID algorithm of an ORE one
 * @raid_algorithm: &enum ore_raid_algorithm
 * @wire: the &enum pnfs_osd_raid_algorithm4
 *
 * Return: 0, or -EINVAL for a value ORE does not define.
 */
int pnfs_osd_raid_from_ore(u32 raid_algorithm, u32 *wire)
{
	switch (raid_algorithm) {
	case ORE_RAID0:
		*wire = PNFS_OSD_RAID_0;
		return 0;
	case ORE_RAID4:
		*wire = PNFS_OSD_RAID_4;
		return 0;
	case ORE_RAID5:
		*wire = PNFS_OSD_RAID_5;
		return 0;
	case ORE_RAID6:
		*wire = PNFS_OSD_RAID_PQ;
		return 0;
	default:
		return -EINVAL;
	}
}

/**
 * pnfs_osd_map_to_ore - the ORE layout of a data map
 * @map: the map (as decoded)
 * @layout: the layout, checked by ore_layout_check() for
 *	@map->odm_num_comps devices, derived fields filled in
 * @why: on error, what is wrong (a static string)
 *
 * RFC 5664: the components are @map->odm_num_comps = group_width *
 * group_count * (odm_mirror_cnt + 1), the copies of a component adjacent
 * (ORE's component order). group_width 0 with group_depth 0 means one
 * group of every component; ORE then gets a group_depth of 2^32 - 1,
 * which maps every byte as any depth would (one group: row = offset /
 * stripe_length) and keeps ORE from cutting I/O at group ends. A
 * group_depth of 0 with a group_width is accepted for one group only.
 *
 * Return: 0 or -EINVAL.
 */
int pnfs_osd_map_to_ore(const struct pnfs_osd_data_map *map,
			struct ore_layout *layout, const char **why)
{
	u32 n = map->odm_num_comps, mp1, gw, copies;

	memset(layout, 0, sizeof(*layout));
	if (pnfs_osd_raid_to_ore(map->odm_raid_algorithm,
				 &layout->raid_algorithm)) {
		*why = "odm_raid_algorithm is not 1, 2, 3 or 4";
		return -EINVAL;
	}
	if (map->odm_stripe_unit > 0xffffffffULL) {
		*why = "odm_stripe_unit does not fit in 32 bits";
		return -EINVAL;
	}
	/* (also keeps mp1 below from wrapping to 0) */
	if (map->odm_mirror_cnt >= ORE_MAX_MIRRORS_P1) {
		*why = "odm_mirror_cnt is larger than 7";
		return -EINVAL;
	}
	if (!n) {
		*why = "odm_num_comps is zero";
		return -EINVAL;
	}
	mp1 = map->odm_mirror_cnt + 1;
	gw = map->odm_group_width;
	if (!gw) {
		if (map->odm_group_depth) {
			*why = "odm_group_depth without odm_group_width";
			return -EINVAL;
		}
		/* (also keeps gw, a divisor below, from being 0) */
		if (n % mp1) {
			*why = "odm_num_comps is not a multiple of odm_mirror_cnt + 1";
			return -EINVAL;
		}
		gw = n / mp1;
	}
	if (gw > ORE_MAX_GROUP_WIDTH) {
		*why = "group width is larger than 32";
		return -EINVAL;
	}
	copies = gw * mp1;
	if (n % copies) {
		*why = "odm_num_comps is not a multiple of odm_group_width * (odm_mirror_cnt + 1)";
		return -EINVAL;
	}
	layout->stripe_unit = (u32)map->odm_stripe_unit;
	layout->group_width = gw;
	layout->group_count = n / copies;
	layout->mirrors_p1 = mp1;
	layout->group_depth = map->odm_group_depth;
	if (!layout->group_depth) {
		if (layout->group_count > 1) {
			*why = "odm_group_depth is zero with several groups";
			return -EINVAL;
		}
		layout->group_depth = 0xffffffffu;
	}
	return ore_layout_check(layout, n, why);
}

/**
 * pnfs_osd_map_from_ore - the data map of an ORE layout
 * @layout: the layout (its fields as ore_layout_check() wants them)
 * @map: the map
 * @why: on error, what is wrong (a static string)
 *
 * A layout of one group is sent without nesting (group_width and
 * group_depth 0), as RFC 5664 asks of a map without nesting.
 *
 * Return: 0, or -EINVAL if ore_layout_check() refuses @layout.
 */
int pnfs_osd_map_from_ore(const struct ore_layout *layout,
			  struct pnfs_osd_data_map *map, const char **why)
{
	struct ore_layout l = *layout;
	int ret;

	memset(map, 0, sizeof(*map));
	ret = ore_layout_check(&l, ORE_MAX_COMPONENTS, why);
	if (ret)
		return ret;
	map->odm_num_comps = l.num_comps;
	map->odm_stripe_unit = l.stripe_unit;
	if (l.group_count > 1) {
		map->odm_group_width = l.group_width;
		map->odm_group_depth = l.group_depth;
	}
	map->odm_mirror_cnt = l.mirrors_p1 - 1;
	return pnfs_osd_raid_from_ore(l.raid_algorithm,
				      &map->odm_raid_algorithm);
}

/**
 * pnfs_osd_errno_from_linux - the error to report for a failed component
 * @err: a negative errno from the component's I/O
 *
 * Return: the closest &enum pnfs_osd_errno4 (PNFS_OSD_ERR_EIO when none
 * is closer).
 */
u32 pnfs_osd_errno_from_linux(int err)
{
	switch (err) {
	case -ENOENT:
	case -ESTALE:
		return PNFS_OSD_ERR_NOT_FOUND;
	case -ENOSPC:
	case -EDQUOT:
		return PNFS_OSD_ERR_NO_SPACE;
	case -EKEYEXPIRED:
	case -EKEYREJECTED:
		return PNFS_OSD_ERR_BAD_CRED;
	case -EACCES:
	case -EPERM:
	case -EROFS:
		return PNFS_OSD_ERR_NO_ACCESS;
	case -ETIMEDOUT:
	case -EHOSTUNREACH:
	case -EHOSTDOWN:
	case -ENETUNREACH:
	case -ECONNREFUSED:
	case -ECONNRESET:
	case -ENOTCONN:
		return PNFS_OSD_ERR_UNREACHABLE;
	case -ENOMEM:
	case -EAGAIN:
		return PNFS_OSD_ERR_RESOURCE;
	default:
		return PNFS_OSD_ERR_EIO;
	}
}
