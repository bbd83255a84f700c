// SPDX-License-Identifier: GPL-2.0
/*
 * Userspace test of pnfs/objlayout_xdr.c, the RFC 5664 XDR of the objects
 * layout and its conversion to and from ORE layouts.
 *
 *  - The byte layout of a layout, a device address (the one docs/pnfs.md
 *    describes for our data servers), a layout update and an error report
 *    against bytes written out by hand here, field by field: encode must
 *    produce them and decode must read them back.
 *  - Round trips: every ORE layout of a grid to a data map and back (the
 *    same mapping of every sampled byte, the same component lengths),
 *    random layouts, device addresses, updates and reports through encode
 *    and decode (every field equal, re-encoding gives the same bytes).
 *  - Hostile input: every truncation of every body (copied to a buffer of
 *    exactly that size, so that valgrind or ASan sees any read past it)
 *    must give -EMSGSIZE, and encoding into every too small buffer too;
 *    trailing bytes, each malformed field (enum values, bools, lengths
 *    over the limits, non-zero padding, NULs in strings, more components
 *    than odm_num_comps leaves room for) must give -EINVAL naming the
 *    field; each bad data map must be refused by pnfs_osd_map_to_ore().
 *
 * KTAP output; the exit code is non-zero if any case fails.
 * ORE_TEST_SEED=<n> in the environment changes the random draws.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pnfs/objlayout_xdr.h>

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define __printf(a, b)	__attribute__((format(printf, a, b)))

static unsigned long case_fails;
static unsigned long long rng = 0x786472746573742dULL;

static __printf(1, 2) void failf(const char *fmt, ...);
static void failf(const char *fmt, ...)
{
	va_list ap;

	if (case_fails++ >= 20)
		return;
	printf("# FAIL: ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

#define EXPECT(cond, ...) do { if (!(cond)) failf(__VA_ARGS__); } while (0)

static u32 rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (u32)(rng >> 11);
}

static u32 rnd_below(u32 n)
{
	return n ? rnd() % n : 0;
}

static u64 rnd64(void)
{
	return (u64)rnd() << 32 | rnd();
}

/* Big-endian 32-bit word as four bytes, for the hand-written bodies. */
#define W(x)	(u8)((u32)(x) >> 24), (u8)((u32)(x) >> 16), \
		(u8)((u32)(x) >> 8), (u8)(x)

/*
 * A copy of @len bytes of @src in a buffer of exactly @len bytes (@src
 * NULL: filled with 0xa5).
 */
static u8 *exact_copy(const u8 *src, size_t len)
{
	u8 *p = malloc(len ? len : 1);

	if (!p) {
		perror("malloc");
		exit(2);
	}
	if (src && len)
		memcpy(p, src, len);
	else
		memset(p, 0xa5, len);
	return p;
}

static bool opaque_eq(const struct pnfs_osd_opaque *a,
		      const struct pnfs_osd_opaque *b)
{
	return a->len == b->len && (!a->len || !memcmp(a->data, b->data, a->len));
}

static bool opaque_is(const struct pnfs_osd_opaque *a, const char *s, u32 n)
{
	struct pnfs_osd_opaque b = { (const u8 *)s, n };

	return opaque_eq(a, &b);
}

static bool objid_eq(const struct pnfs_osd_objid *a,
		     const struct pnfs_osd_objid *b)
{
	return !memcmp(a->oid_device_id, b->oid_device_id,
		       PNFS_OSD_DEVICEID_SIZE) &&
	       a->oid_partition_id == b->oid_partition_id &&
	       a->oid_object_id == b->oid_object_id;
}

static bool cred_eq(const struct pnfs_osd_object_cred *a,
		    const struct pnfs_osd_object_cred *b)
{
	return objid_eq(&a->oc_object_id, &b->oc_object_id) &&
	       a->oc_osd_version == b->oc_osd_version &&
	       a->oc_cap_key_sec == b->oc_cap_key_sec &&
	       opaque_eq(&a->oc_cap_key, &b->oc_cap_key) &&
	       opaque_eq(&a->oc_cap, &b->oc_cap);
}

static bool map_eq(const struct pnfs_osd_data_map *a,
		   const struct pnfs_osd_data_map *b)
{
	return a->odm_num_comps == b->odm_num_comps &&
	       a->odm_stripe_unit == b->odm_stripe_unit &&
	       a->odm_group_width == b->odm_group_width &&
	       a->odm_group_depth == b->odm_group_depth &&
	       a->odm_mirror_cnt == b->odm_mirror_cnt &&
	       a->odm_raid_algorithm == b->odm_raid_algorithm;
}

static bool da_eq(const struct pnfs_osd_deviceaddr *a,
		  const struct pnfs_osd_deviceaddr *b)
{
	return a->oda_targetid_type == b->oda_targetid_type &&
	       opaque_eq(&a->oda_targetid, &b->oda_targetid) &&
	       a->oda_targetaddr_available == b->oda_targetaddr_available &&
	       opaque_eq(&a->oda_netid, &b->oda_netid) &&
	       opaque_eq(&a->oda_uaddr, &b->oda_uaddr) &&
	       !memcmp(a->oda_lun, b->oda_lun, PNFS_OSD_LUN_SIZE) &&
	       opaque_eq(&a->oda_systemid, &b->oda_systemid) &&
	       cred_eq(&a->oda_root_obj_cred, &b->oda_root_obj_cred) &&
	       opaque_eq(&a->oda_osdname, &b->oda_osdname);
}

static bool ioerr_eq(const struct pnfs_osd_ioerr *a,
		     const struct pnfs_osd_ioerr *b)
{
	return objid_eq(&a->oer_component, &b->oer_component) &&
	       a->oer_comp_offset == b->oer_comp_offset &&
	       a->oer_comp_length == b->oer_comp_length &&
	       a->oer_iswrite == b->oer_iswrite &&
	       a->oer_errno == b->oer_errno;
}

static void dump_diff(const char *what, const u8 *got, size_t glen,
		      const u8 *want, size_t wlen)
{
	size_t i;

	for (i = 0; i < glen && i < wlen; i++) {
		if (got[i] != want[i]) {
			failf("%s: byte %zu is 0x%02x, want 0x%02x", what, i,
			      got[i], want[i]);
			return;
		}
	}
	if (glen != wlen)
		failf("%s: %zu bytes, want %zu", what, glen, wlen);
}

/* ---------------------------------------------------------------------
 * The bodies in one generic shape, for the hostile-input loops.
 */

enum body { B_LAYOUT, B_DEVADDR, B_UPDATE, B_RETURN };
static const char *const body_name[] = { "layout", "deviceaddr",
					 "layoutupdate", "layoutreturn" };

#define MAX_COMPS_T	64
#define MAX_ERRS_T	16

static int decode_body(enum body b, const u8 *buf, size_t len,
		       struct pnfs_osd_xdr_err *err)
{
	static struct pnfs_osd_object_cred comps[MAX_COMPS_T];
	static struct pnfs_osd_ioerr errs[MAX_ERRS_T];
	struct pnfs_osd_layout lo;
	struct pnfs_osd_deviceaddr da;
	struct pnfs_osd_layoutupdate lu;
	u32 n;

	switch (b) {
	case B_LAYOUT:
		return pnfs_osd_xdr_decode_layout(buf, len, &lo, comps,
						  MAX_COMPS_T, err);
	case B_DEVADDR:
		return pnfs_osd_xdr_decode_deviceaddr(buf, len, &da, err);
	case B_UPDATE:
		return pnfs_osd_xdr_decode_layoutupdate(buf, len, &lu, err);
	default:
		return pnfs_osd_xdr_decode_layoutreturn(buf, len, errs,
							MAX_ERRS_T, &n, err);
	}
}

/*
 * The body of @b in @buf must be refused with @want naming @field (any
 * field if NULL), or accepted if @want is 0.
 */
static void expect_refused(enum body b, const u8 *buf, size_t len, int want,
			   const char *field, const char *what)
{
	struct pnfs_osd_xdr_err err = { NULL, NULL, 0 };
	u8 *copy = exact_copy(buf, len);
	int ret = decode_body(b, copy, len, &err);

	if (ret != want)
		failf("%s %s: decode gives %d, want %d", body_name[b], what,
		      ret, want);
	else if (!want)
		;
	else if (field && (!err.field || strcmp(err.field, field)))
		failf("%s %s: refused for field %s (%s), want %s",
		      body_name[b], what, err.field ? err.field : "(none)",
		      err.why ? err.why : "", field);
	else if (!err.why)
		failf("%s %s: refused without a reason", body_name[b], what);
	free(copy);
}

/* Every prefix of an encoded body, and the body with bytes after it. */
static void check_truncations(enum body b, const u8 *buf, size_t len)
{
	u8 *longer = malloc(len + 4);
	size_t k;

	for (k = 0; k < len; k++)
		expect_refused(b, buf, k, -EMSGSIZE, NULL, "truncated");
	memcpy(longer, buf, len);
	memset(longer + len, 0, 4);
	expect_refused(b, longer, len + 4, -EINVAL, "(end)", "trailing bytes");
	free(longer);
}

/* ---------------------------------------------------------------------
 * Hand-written bodies
 */

/*
 * A layout: RAID0 over 2 groups of 2 components, each mirrored once
 * (8 components), a window of 2 of them starting at index 1.
 */
static const u8 layout_wire[] = {
	W(8),				/* odm_num_comps */
	W(0), W(0x10000),		/* odm_stripe_unit (64 KiB) */
	W(2),				/* odm_group_width */
	W(8),				/* odm_group_depth */
	W(1),				/* odm_mirror_cnt */
	W(1),				/* odm_raid_algorithm: PNFS_OSD_RAID_0 */
	W(1),				/* olo_comps_index */
	W(2),				/* olo_components<>: 2 of them */
	/* [0] oc_object_id.oid_device_id */
	0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07,
	0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f,
	W(0), W(0),			/* oid_partition_id */
	W(0), W(0x20005),		/* oid_object_id */
	W(2),				/* oc_osd_version: VERSION_2 */
	W(0),				/* oc_cap_key_sec: NONE */
	W(3), 'a', 'b', 'c', 0,		/* oc_capability_key: 3 + 1 pad */
	W(0),				/* oc_capability: empty */
	/* [1] */
	0xa0, 0xa1, 0xa2, 0xa3, 0xa4, 0xa5, 0xa6, 0xa7,
	0xa8, 0xa9, 0xaa, 0xab, 0xac, 0xad, 0xae, 0xaf,
	W(0x01020304), W(0x05060708),	/* oid_partition_id */
	W(0x11223344), W(0x55667788),	/* oid_object_id */
	W(0),				/* oc_osd_version: MISSING */
	W(1),				/* oc_cap_key_sec: SSV */
	W(0),				/* oc_capability_key: empty */
	W(5), 1, 2, 3, 4, 5, 0, 0, 0,	/* oc_capability: 5 + 3 pad */
};

/* Offsets of fields of layout_wire[] the malformed cases change. */
#define LW_NUM_COMPS	0
#define LW_RAID		24
#define LW_INDEX	28
#define LW_COUNT	32
#define LW_C0		36
#define LW_C0_VERSION	(LW_C0 + 32)
#define LW_C0_KEYSEC	(LW_C0 + 36)
#define LW_C0_KEY	(LW_C0 + 40)
#define LW_C0_CAP	(LW_C0 + 48)
#define LW_C1		(LW_C0 + 52)
#define LW_C1_CAP	(LW_C1 + 44)

static void layout_wire_struct(struct pnfs_osd_layout *lo,
			       struct pnfs_osd_object_cred *c)
{
	static const u8 cap1[] = { 1, 2, 3, 4, 5 };
	int i;

	memset(lo, 0, sizeof(*lo));
	memset(c, 0, 2 * sizeof(*c));
	lo->olo_map.odm_num_comps = 8;
	lo->olo_map.odm_stripe_unit = 0x10000;
	lo->olo_map.odm_group_width = 2;
	lo->olo_map.odm_group_depth = 8;
	lo->olo_map.odm_mirror_cnt = 1;
	lo->olo_map.odm_raid_algorithm = PNFS_OSD_RAID_0;
	lo->olo_comps_index = 1;
	lo->olo_num_comps = 2;
	lo->olo_comps = c;
	for (i = 0; i < 16; i++) {
		c[0].oc_object_id.oid_device_id[i] = (u8)i;
		c[1].oc_object_id.oid_device_id[i] = (u8)(0xa0 + i);
	}
	c[0].oc_object_id.oid_object_id = 0x20005;
	c[0].oc_osd_version = PNFS_OSD_VERSION_2;
	c[0].oc_cap_key_sec = PNFS_OSD_CAP_KEY_SEC_NONE;
	c[0].oc_cap_key.data = (const u8 *)"abc";
	c[0].oc_cap_key.len = 3;
	c[1].oc_object_id.oid_partition_id = 0x0102030405060708ULL;
	c[1].oc_object_id.oid_object_id = 0x1122334455667788ULL;
	c[1].oc_osd_version = PNFS_OSD_MISSING;
	c[1].oc_cap_key_sec = PNFS_OSD_CAP_KEY_SEC_SSV;
	c[1].oc_cap.data = cap1;
	c[1].oc_cap.len = 5;
}

/* The filesystem's and the store's UUIDs of the device address below. */
#define FS_UUID		0x5e, 0x1f, 0x00, 0x2a, 0x93, 0x17, 0x4c, 0x61, \
			0xb0, 0x0d, 0x7e, 0x3a, 0x11, 0x22, 0x33, 0x44
#define STORE_UUID	0xc4, 0x0f, 0xfe, 0xe0, 0x11, 0x8e, 0x45, 0x0b, \
			0x9a, 0x5d, 0x02, 0x6f, 0xde, 0xad, 0xbe, 0xef
static const u8 fs_uuid[16] = { FS_UUID };
static const u8 store_uuid[16] = { STORE_UUID };

/*
 * The device address of store 0 of docs/pnfs.md: data server 127.0.0.2,
 * NFS port 2049 (universal address "127.0.0.2.8.1"), export /srv/ore/s0.
 */
static const u8 devaddr_wire[] = {
	W(1),				/* oti_type: OBJ_TARGET_ANON */
	W(1),				/* ota_available: TRUE */
	W(3), 't', 'c', 'p', 0,		/* na_r_netid */
	W(13), '1', '2', '7', '.', '0', '.', '0', '.', '2', '.', '8', '.',
	'1', 0, 0, 0,			/* na_r_addr: 13 + 3 pad */
	0, 0, 0, 0, 0, 0, 0, 0,		/* oda_lun */
	W(32), FS_UUID, STORE_UUID,	/* oda_systemid */
	STORE_UUID,			/* root: oid_device_id */
	W(0), W(0),			/* oid_partition_id */
	W(0), W(0),			/* oid_object_id */
	W(2),				/* oc_osd_version: VERSION_2 */
	W(0),				/* oc_cap_key_sec: NONE */
	W(0),				/* oc_capability_key */
	W(0),				/* oc_capability */
	W(11), '/', 's', 'r', 'v', '/', 'o', 'r', 'e', '/', 's', '0',
	0,				/* oda_osdname: 11 + 1 pad */
};

#define DW_TYPE		0
#define DW_AVAIL	4
#define DW_NETID	8
#define DW_UADDR	16
#define DW_SYSID	44
#define DW_ROOT		80
#define DW_OSDNAME	(DW_ROOT + 48)

static void devaddr_wire_struct(struct pnfs_osd_deviceaddr *da, u8 *sysid)
{
	memset(da, 0, sizeof(*da));
	memcpy(sysid, fs_uuid, 16);
	memcpy(sysid + 16, store_uuid, 16);
	da->oda_targetid_type = OBJ_TARGET_ANON;
	da->oda_targetaddr_available = true;
	da->oda_netid.data = (const u8 *)"tcp";
	da->oda_netid.len = 3;
	da->oda_uaddr.data = (const u8 *)"127.0.0.2.8.1";
	da->oda_uaddr.len = 13;
	da->oda_systemid.data = sysid;
	da->oda_systemid.len = 32;
	memcpy(da->oda_root_obj_cred.oc_object_id.oid_device_id, store_uuid,
	       16);
	da->oda_root_obj_cred.oc_osd_version = PNFS_OSD_VERSION_2;
	da->oda_osdname.data = (const u8 *)"/srv/ore/s0";
	da->oda_osdname.len = 11;
}

static const u8 update_wire[] = {
	W(1),				/* dsu_valid: TRUE */
	W(0xffffffff), W(0xfffff000),	/* dsu_delta: -4096 */
	W(1),				/* olu_ioerr_flag: TRUE */
};

static const u8 return_wire[] = {
	W(1),				/* olr_ioerr_report<>: 1 */
	STORE_UUID,			/* oer_component.oid_device_id */
	W(0), W(0),			/* oid_partition_id */
	W(0), W(0x20007),		/* oid_object_id */
	W(0), W(0x30000),		/* oer_comp_offset */
	W(0), W(0x10000),		/* oer_comp_length */
	W(1),				/* oer_iswrite: TRUE */
	W(6),				/* oer_errno: UNREACHABLE */
};

static void return_wire_struct(struct pnfs_osd_ioerr *e)
{
	memset(e, 0, sizeof(*e));
	memcpy(e->oer_component.oid_device_id, store_uuid, 16);
	e->oer_component.oid_object_id = 0x20007;
	e->oer_comp_offset = 0x30000;
	e->oer_comp_length = 0x10000;
	e->oer_iswrite = true;
	e->oer_errno = PNFS_OSD_ERR_UNREACHABLE;
}

/* Encode with @enc into a buffer of exactly the size it asks for. */
typedef int (*encode_fn)(u8 *buf, size_t len, const void *arg,
			 struct pnfs_osd_xdr_err *err);

static int enc_layout_fn(u8 *buf, size_t len, const void *arg,
			 struct pnfs_osd_xdr_err *err)
{
	return pnfs_osd_xdr_encode_layout(buf, len, arg, err);
}

static int enc_devaddr_fn(u8 *buf, size_t len, const void *arg,
			  struct pnfs_osd_xdr_err *err)
{
	return pnfs_osd_xdr_encode_deviceaddr(buf, len, arg, err);
}

static int enc_update_fn(u8 *buf, size_t len, const void *arg,
			 struct pnfs_osd_xdr_err *err)
{
	return pnfs_osd_xdr_encode_layoutupdate(buf, len, arg, err);
}

struct errs_arg {
	const struct pnfs_osd_ioerr *errs;
	u32 n;
};

static int enc_return_fn(u8 *buf, size_t len, const void *arg,
			 struct pnfs_osd_xdr_err *err)
{
	const struct errs_arg *a = arg;

	return pnfs_osd_xdr_encode_layoutreturn(buf, len, a->errs, a->n, err);
}

/*
 * Encode: the size asked for (NULL buffer) must be what gets written;
 * every smaller buffer (of exactly that size) must be refused. Returns a
 * malloc'ed encoding of *@len bytes, or NULL. enc_all_sizes false: only
 * the right size.
 */
static bool enc_all_sizes = true;

static u8 *encode_exact(encode_fn enc, const void *arg, size_t *len,
			const char *what)
{
	struct pnfs_osd_xdr_err err;
	int need = enc(NULL, 0, arg, &err), got;
	size_t k;
	u8 *buf;

	if (need < 0) {
		failf("%s: encode (size) refused: %d %s: %s", what, need,
		      err.field, err.why);
		return NULL;
	}
	buf = exact_copy(NULL, need);
	got = enc(buf, need, arg, &err);
	if (got != need) {
		failf("%s: encode wrote %d bytes, said %d", what, got, need);
		free(buf);
		return NULL;
	}
	for (k = 0; enc_all_sizes && k < (size_t)need; k++) {
		u8 *small = exact_copy(NULL, k);

		got = enc(small, k, arg, &err);
		if (got != -EMSGSIZE)
			failf("%s: encode into %zu of %d bytes gives %d",
			      what, k, need, got);
		free(small);
	}
	*len = need;
	return buf;
}

/* ---------------------------------------------------------------------
 * Cases
 */

static void test_raid_enum(void)
{
	static const u32 ore[] = { ORE_RAID0, ORE_RAID4, ORE_RAID5, ORE_RAID6 };
	static const u32 wire[] = { PNFS_OSD_RAID_0, PNFS_OSD_RAID_4,
				    PNFS_OSD_RAID_5, PNFS_OSD_RAID_PQ };
	static const u32 bad_wire[] = { 0, 5, 6, 0xffffffff };
	static const u32 bad_ore[] = { 1, 2, 3, 7, 0xffffffff };
	size_t i;
	u32 v;

	EXPECT(PNFS_OSD_RAID_0 == 1 && PNFS_OSD_RAID_4 == 2 &&
	       PNFS_OSD_RAID_5 == 3 && PNFS_OSD_RAID_PQ == 4,
	       "wire RAID values are not RFC 5664's");
	for (i = 0; i < ARRAY_SIZE(ore); i++) {
		v = 99;
		EXPECT(!pnfs_osd_raid_to_ore(wire[i], &v) && v == ore[i],
		       "wire %u gives ORE %u, want %u", wire[i], v, ore[i]);
		v = 99;
		EXPECT(!pnfs_osd_raid_from_ore(ore[i], &v) && v == wire[i],
		       "ORE %u gives wire %u, want %u", ore[i], v, wire[i]);
	}
	for (i = 0; i < ARRAY_SIZE(bad_wire); i++)
		EXPECT(pnfs_osd_raid_to_ore(bad_wire[i], &v) == -EINVAL,
		       "wire raid %u accepted", bad_wire[i]);
	for (i = 0; i < ARRAY_SIZE(bad_ore); i++)
		EXPECT(pnfs_osd_raid_from_ore(bad_ore[i], &v) == -EINVAL,
		       "ORE raid %u accepted", bad_ore[i]);
}

static void test_layout_wire(void)
{
	struct pnfs_osd_object_cred c[2], got_c[2];
	struct pnfs_osd_layout lo, got;
	struct pnfs_osd_xdr_err err;
	struct ore_layout ol;
	const char *why;
	size_t len = 0;
	u8 *buf, *in;
	int ret;

	layout_wire_struct(&lo, c);
	buf = encode_exact(enc_layout_fn, &lo, &len, "layout");
	if (buf)
		dump_diff("layout encoding", buf, len, layout_wire,
			  sizeof(layout_wire));
	free(buf);

	/* the head alone, then each component: the same bytes */
	ret = pnfs_osd_xdr_encode_layout_head(NULL, 0, &lo, &err);
	EXPECT(ret == LW_C0, "layout head is %d bytes, want %d", ret, LW_C0);
	ret = pnfs_osd_xdr_encode_object_cred(NULL, 0, &c[0], &err);
	EXPECT(ret == LW_C1 - LW_C0, "component 0 is %d bytes", ret);
	buf = exact_copy(NULL, sizeof(layout_wire));
	ret = pnfs_osd_xdr_encode_layout_head(buf, LW_C0, &lo, &err);
	ret += pnfs_osd_xdr_encode_object_cred(buf + LW_C0, LW_C1 - LW_C0,
					       &c[0], &err);
	ret += pnfs_osd_xdr_encode_object_cred(buf + LW_C1,
					       sizeof(layout_wire) - LW_C1,
					       &c[1], &err);
	EXPECT(ret == (int)sizeof(layout_wire), "piecewise encode: %d", ret);
	dump_diff("piecewise layout encoding", buf, sizeof(layout_wire),
		  layout_wire, sizeof(layout_wire));
	free(buf);

	in = exact_copy(layout_wire, sizeof(layout_wire));
	ret = pnfs_osd_xdr_decode_layout(in, sizeof(layout_wire), &got, got_c,
					 2, &err);
	EXPECT(!ret, "decode of the hand-written layout: %d %s: %s", ret,
	       err.field, err.why);
	if (!ret) {
		EXPECT(map_eq(&got.olo_map, &lo.olo_map), "decoded map differs");
		EXPECT(got.olo_comps_index == 1 && got.olo_num_comps == 2 &&
		       got.olo_comps == got_c, "decoded window differs");
		EXPECT(cred_eq(&got_c[0], &c[0]), "component 0 differs");
		EXPECT(cred_eq(&got_c[1], &c[1]), "component 1 differs");
		EXPECT(got_c[0].oc_cap_key.data == in + LW_C0_KEY + 4,
		       "the key does not point into the buffer");
	}
	/* counting only */
	ret = pnfs_osd_xdr_decode_layout(in, sizeof(layout_wire), &got, NULL,
					 0, &err);
	EXPECT(!ret && got.olo_num_comps == 2 && !got.olo_comps,
	       "counting decode: %d, %u components", ret, got.olo_num_comps);
	/* a caller array too small */
	ret = pnfs_osd_xdr_decode_layout(in, sizeof(layout_wire), &got, got_c,
					 1, &err);
	EXPECT(ret == -E2BIG && got.olo_num_comps == 2,
	       "decode into 1 element: %d, %u", ret, got.olo_num_comps);
	free(in);

	ret = pnfs_osd_map_to_ore(&lo.olo_map, &ol, &why);
	EXPECT(!ret && ol.raid_algorithm == ORE_RAID0 &&
	       ol.stripe_unit == 0x10000 && ol.group_width == 2 &&
	       ol.group_depth == 8 && ol.group_count == 2 &&
	       ol.mirrors_p1 == 2 && ol.num_comps == 8,
	       "map to ORE: %d (%s) raid %u su %u gw %u depth %u count %u mirrors %u",
	       ret, ret ? why : "", ol.raid_algorithm, ol.stripe_unit,
	       ol.group_width, ol.group_depth, ol.group_count, ol.mirrors_p1);
	check_truncations(B_LAYOUT, layout_wire, sizeof(layout_wire));
}

static void test_devaddr_wire(void)
{
	struct pnfs_osd_deviceaddr da, got;
	struct pnfs_osd_xdr_err err;
	u8 sysid[32], *buf, *in;
	size_t len = 0;
	int ret;

	devaddr_wire_struct(&da, sysid);
	buf = encode_exact(enc_devaddr_fn, &da, &len, "deviceaddr");
	if (buf)
		dump_diff("device address encoding", buf, len, devaddr_wire,
			  sizeof(devaddr_wire));
	free(buf);
	in = exact_copy(devaddr_wire, sizeof(devaddr_wire));
	ret = pnfs_osd_xdr_decode_deviceaddr(in, sizeof(devaddr_wire), &got,
					     &err);
	EXPECT(!ret, "decode of the hand-written device address: %d %s: %s",
	       ret, err.field, err.why);
	if (!ret) {
		EXPECT(da_eq(&got, &da), "decoded device address differs");
		EXPECT(opaque_is(&got.oda_uaddr, "127.0.0.2.8.1", 13) &&
		       opaque_is(&got.oda_osdname, "/srv/ore/s0", 11),
		       "address or export path differs");
		EXPECT(got.oda_systemid.len == 32 &&
		       !memcmp(got.oda_systemid.data + 16, store_uuid, 16),
		       "store UUID not in oda_systemid");
	}
	free(in);
	check_truncations(B_DEVADDR, devaddr_wire, sizeof(devaddr_wire));
}

static void test_update_return_wire(void)
{
	struct pnfs_osd_layoutupdate lu = { true, -4096, true }, glu;
	struct pnfs_osd_ioerr e, ge[2];
	struct errs_arg ea = { &e, 1 };
	struct pnfs_osd_xdr_err err;
	size_t len = 0;
	u8 *buf, *in;
	u32 n = 0;
	int ret;

	buf = encode_exact(enc_update_fn, &lu, &len, "layoutupdate");
	if (buf)
		dump_diff("layout update encoding", buf, len, update_wire,
			  sizeof(update_wire));
	free(buf);
	in = exact_copy(update_wire, sizeof(update_wire));
	ret = pnfs_osd_xdr_decode_layoutupdate(in, sizeof(update_wire), &glu,
					       &err);
	EXPECT(!ret && glu.dsu_valid && glu.dsu_delta == -4096 &&
	       glu.olu_ioerr_flag, "layout update decode: %d delta %lld", ret,
	       (long long)glu.dsu_delta);
	free(in);
	check_truncations(B_UPDATE, update_wire, sizeof(update_wire));

	/* no delta: 8 bytes */
	lu.dsu_valid = false;
	lu.dsu_delta = 0;
	ret = pnfs_osd_xdr_encode_layoutupdate(NULL, 0, &lu, &err);
	EXPECT(ret == 8, "update without delta is %d bytes", ret);

	return_wire_struct(&e);
	buf = encode_exact(enc_return_fn, &ea, &len, "layoutreturn");
	if (buf)
		dump_diff("error report encoding", buf, len, return_wire,
			  sizeof(return_wire));
	free(buf);
	in = exact_copy(return_wire, sizeof(return_wire));
	ret = pnfs_osd_xdr_decode_layoutreturn(in, sizeof(return_wire), ge, 2,
					       &n, &err);
	EXPECT(!ret && n == 1 && ioerr_eq(&ge[0], &e),
	       "error report decode: %d, %u reports", ret, n);
	ret = pnfs_osd_xdr_decode_layoutreturn(in, sizeof(return_wire), ge, 0,
					       &n, &err);
	EXPECT(ret == -E2BIG && n == 1, "report into 0 elements: %d", ret);
	free(in);
	check_truncations(B_RETURN, return_wire, sizeof(return_wire));

	/* an empty report is 4 zero bytes */
	ret = pnfs_osd_xdr_encode_layoutreturn(NULL, 0, NULL, 0, &err);
	EXPECT(ret == 4, "empty report is %d bytes", ret);
}

/* Same bytes in @b at the same place as in @a: the mapping agrees. */
static void check_same_mapping(const struct ore_layout *a,
			       const struct ore_layout *b)
{
	u64 span = a->super_stripe < (1ULL << 40) ? 3 * a->super_stripe :
		   64 * a->stripe_length;
	struct ore_striping_info sa, sb;
	u32 i, c;

	for (i = 0; i < 200; i++) {
		u64 off = i < 100 ? (u64)i * a->stripe_unit / 3 :
			  rnd64() % span;

		ore_calc_stripe_info(a, off, &sa);
		ore_calc_stripe_info(b, off, &sb);
		if (sa.dev != sb.dev || sa.obj_offset != sb.obj_offset ||
		    sa.par_dev != sb.par_dev || sa.q_dev != sb.q_dev) {
			failf("offset %llu: dev %u/%u obj %llu/%llu par %u/%u q %u/%u",
			      (unsigned long long)off, sa.dev, sb.dev,
			      (unsigned long long)sa.obj_offset,
			      (unsigned long long)sb.obj_offset, sa.par_dev,
			      sb.par_dev, sa.q_dev, sb.q_dev);
			return;
		}
		if (i % 20)
			continue;
		for (c = 0; c < a->num_comps; c++) {
			if (ore_layout_obj_size(a, c, off) !=
			    ore_layout_obj_size(b, c, off)) {
				failf("size %llu: component %u lengths differ",
				      (unsigned long long)off, c);
				return;
			}
		}
	}
}

/* Every ORE layout of a grid to the wire (as bytes) and back. */
static void test_map_roundtrip(void)
{
	static const u32 algs[] = { ORE_RAID0, ORE_RAID4, ORE_RAID5, ORE_RAID6 };
	u32 i, n = 0;

	/* raid x group_width 1..12 x mirrors_p1 1..3 x count 1..3 x depth 1..4 */
	for (i = 0; i < ARRAY_SIZE(algs) * 12 * 3 * 3 * 4; i++) {
		u32 depth = i % 4 + 1, gc = i / 4 % 3 + 1, mp1 = i / 12 % 3 + 1;
		u32 gw = i / 36 % 12 + 1, alg = algs[i / 432];
		struct ore_layout l = {
			.stripe_unit = 4096u << (rnd() % 3), .group_width = gw,
			.group_depth = depth, .group_count = gc,
			.mirrors_p1 = mp1, .raid_algorithm = alg,
		}, back;
		struct pnfs_osd_layout lo = { 0 }, got;
		struct pnfs_osd_xdr_err err;
		struct pnfs_osd_data_map map;
		const char *why;
		u8 buf[64];
		int ret;

		if (ore_layout_check(&l, ORE_MAX_COMPONENTS, &why))
			continue;	/* gw too small for the parity */
		n++;
		ret = pnfs_osd_map_from_ore(&l, &map, &why);
		if (ret) {
			failf("%s gw %u: from ORE: %s",
			      ore_layout_raid_name(l.raid_algorithm, mp1), gw,
			      why);
			continue;
		}
		EXPECT(map.odm_num_comps == gw * gc * mp1 &&
		       map.odm_mirror_cnt == mp1 - 1 &&
		       map.odm_stripe_unit == l.stripe_unit &&
		       (gc > 1 ? map.odm_group_width == gw &&
				 map.odm_group_depth == depth :
				 !map.odm_group_width && !map.odm_group_depth),
		       "map of raid %u gw %u mp1 %u gc %u depth %u",
		       l.raid_algorithm, gw, mp1, gc, depth);
		lo.olo_map = map;
		ret = pnfs_osd_xdr_encode_layout(buf, sizeof(buf), &lo, &err);
		EXPECT(ret == 36, "empty layout is %d bytes", ret);
		ret = pnfs_osd_xdr_decode_layout(buf, 36, &got, NULL, 0, &err);
		EXPECT(!ret && map_eq(&got.olo_map, &map),
		       "map decode: %d", ret);
		ret = pnfs_osd_map_to_ore(&got.olo_map, &back, &why);
		if (ret) {
			failf("raid %u gw %u mp1 %u gc %u: back to ORE: %s",
			      l.raid_algorithm, gw, mp1, gc, why);
			continue;
		}
		EXPECT(back.raid_algorithm == l.raid_algorithm &&
		       back.stripe_unit == l.stripe_unit &&
		       back.group_width == gw && back.group_count == gc &&
		       back.mirrors_p1 == mp1 && back.num_comps == l.num_comps &&
		       back.group_depth == (gc > 1 ? depth : 0xffffffffu),
		       "raid %u gw %u mp1 %u gc %u depth %u came back as gw %u gc %u depth %u",
		       l.raid_algorithm, gw, mp1, gc, depth, back.group_width,
		       back.group_count, back.group_depth);
		check_same_mapping(&l, &back);
	}
	EXPECT(n > 1000, "only %u layouts in the grid", n);
}

/* Bad data maps: each refused by pnfs_osd_map_to_ore() with its reason. */
static void test_map_rejects(void)
{
	static const struct {
		struct pnfs_osd_data_map m;
		const char *why;	/* a word of the reason */
	} bad[] = {
		{ { 4, 4096, 0, 0, 0, 0 }, "odm_raid_algorithm" },
		{ { 4, 4096, 0, 0, 0, 5 }, "odm_raid_algorithm" },
		{ { 4, 1ULL << 32, 0, 0, 0, 1 }, "32 bits" },
		{ { 4, 4096, 0, 0, 8, 1 }, "larger than 7" },
		{ { 4, 4096, 0, 0, 0xffffffff, 1 }, "larger than 7" },
		{ { 0, 4096, 0, 0, 0, 1 }, "odm_num_comps is zero" },
		{ { 5, 4096, 0, 0, 1, 1 }, "multiple of odm_mirror_cnt + 1" },
		{ { 1, 4096, 0, 0, 1, 1 }, "multiple of odm_mirror_cnt + 1" },
		{ { 5, 4096, 2, 4, 0, 1 }, "multiple of odm_group_width" },
		{ { 10, 4096, 2, 4, 1, 1 }, "multiple of odm_group_width" },
		{ { 4, 4096, 0, 4, 0, 1 }, "without odm_group_width" },
		{ { 8, 4096, 2, 0, 0, 1 }, "several groups" },
		{ { 33, 4096, 0, 0, 0, 1 }, "larger than 32" },
		{ { 66, 4096, 33, 1, 0, 1 }, "larger than 32" },
		{ { 4, 1000, 0, 0, 0, 1 }, "page size" },
		{ { 4, 0, 0, 0, 0, 1 }, "zero" },
		{ { 4, 32u << 20, 0, 0, 0, 1 }, "16 MiB" },
		{ { 1, 4096, 0, 0, 0, 3 }, "parity" },
		{ { 2, 4096, 0, 0, 0, 4 }, "parity" },
		{ { 2048, 4096, 32, 1, 0, 1 }, "1024" },
	};
	static const struct pnfs_osd_data_map good[] = {
		{ 4, 4096, 0, 0, 0, 3 },	/* no nesting */
		{ 8, 65536, 4, 0, 1, 3 },	/* one group, no depth */
		{ 1024, 4096, 32, 3, 0, 4 },	/* 32 groups */
		{ 24, 16u << 20, 3, 0xffffffffu, 7, 1 },
	};
	struct ore_layout l;
	const char *why;
	size_t i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		why = NULL;
		ret = pnfs_osd_map_to_ore(&bad[i].m, &l, &why);
		EXPECT(ret == -EINVAL && why && strstr(why, bad[i].why),
		       "bad map %zu: %d (%s), want -EINVAL (%s)", i, ret,
		       why ? why : "", bad[i].why);
	}
	for (i = 0; i < ARRAY_SIZE(good); i++) {
		ret = pnfs_osd_map_to_ore(&good[i], &l, &why);
		EXPECT(!ret && l.num_comps == good[i].odm_num_comps,
		       "good map %zu refused: %s", i, ret ? why : "");
	}
	l = (struct ore_layout){ .stripe_unit = 4096, .group_width = 4,
				 .group_depth = 1, .group_count = 1,
				 .mirrors_p1 = 1, .raid_algorithm = 3 };
	{
		struct pnfs_osd_data_map m;

		EXPECT(pnfs_osd_map_from_ore(&l, &m, &why) == -EINVAL,
		       "ORE raid 3 sent");
		l.raid_algorithm = ORE_RAID5;
		l.group_width = 33;
		EXPECT(pnfs_osd_map_from_ore(&l, &m, &why) == -EINVAL,
		       "ORE group width 33 sent");
	}
}

/*
 * Random bytes for opaques, strings without NUL; each body starts again
 * at the beginning of the pool (room for MAX_COMPS_T components).
 */
static u8 pool[MAX_COMPS_T * (PNFS_OSD_CAP_KEY_MAX + PNFS_OSD_CAP_MAX) +
	       PNFS_OSD_OSDNAME_MAX];
static size_t pool_pos;

static void rnd_opaque(struct pnfs_osd_opaque *o, u32 max, bool string)
{
	u32 n = rnd_below(5) ? rnd_below(max / 4 + 1) : rnd_below(max + 1);
	u32 i;

	if (pool_pos + n > sizeof(pool)) {
		failf("opaque pool too small");
		n = 0;
	}
	for (i = 0; i < n; i++) {
		pool[pool_pos + i] = (u8)rnd();
		if (string && !pool[pool_pos + i])
			pool[pool_pos + i] = 'x';
	}
	o->data = n ? pool + pool_pos : NULL;
	o->len = n;
	pool_pos += n;
}

static void rnd_objid(struct pnfs_osd_objid *id)
{
	u32 i;

	for (i = 0; i < PNFS_OSD_DEVICEID_SIZE; i++)
		id->oid_device_id[i] = (u8)rnd();
	id->oid_partition_id = rnd_below(2) ? 0 : rnd64();
	id->oid_object_id = rnd64();
}

static void rnd_cred(struct pnfs_osd_object_cred *oc)
{
	rnd_objid(&oc->oc_object_id);
	oc->oc_osd_version = rnd_below(3);
	oc->oc_cap_key_sec = rnd_below(2);
	rnd_opaque(&oc->oc_cap_key, PNFS_OSD_CAP_KEY_MAX, false);
	rnd_opaque(&oc->oc_cap, PNFS_OSD_CAP_MAX, false);
}

static void rnd_devaddr(struct pnfs_osd_deviceaddr *da)
{
	u32 i;

	memset(da, 0, sizeof(*da));
	da->oda_targetid_type = 1 + rnd_below(3);
	if (da->oda_targetid_type != OBJ_TARGET_ANON)
		rnd_opaque(&da->oda_targetid, PNFS_OSD_TARGETID_MAX,
			   da->oda_targetid_type == OBJ_TARGET_SCSI_NAME);
	da->oda_targetaddr_available = rnd_below(4);
	if (da->oda_targetaddr_available) {
		rnd_opaque(&da->oda_netid, PNFS_OSD_NETID_MAX, true);
		rnd_opaque(&da->oda_uaddr, PNFS_OSD_UADDR_MAX, true);
	}
	for (i = 0; i < PNFS_OSD_LUN_SIZE; i++)
		da->oda_lun[i] = (u8)rnd();
	rnd_opaque(&da->oda_systemid, PNFS_OSD_SYSTEMID_MAX, false);
	rnd_cred(&da->oda_root_obj_cred);
	rnd_opaque(&da->oda_osdname, PNFS_OSD_OSDNAME_MAX, false);
}

/*
 * Decode @buf (as @b) and re-encode what came out: the same bytes. Every
 * 16th round also checks every truncation (the random bodies put
 * lengths and padding everywhere).
 */
static void recode(enum body b, const u8 *buf, size_t len, u32 round)
{
	static struct pnfs_osd_object_cred comps[MAX_COMPS_T];
	static struct pnfs_osd_ioerr errs[MAX_ERRS_T];
	struct pnfs_osd_xdr_err err;
	struct pnfs_osd_layout lo;
	struct pnfs_osd_deviceaddr da;
	struct pnfs_osd_layoutupdate lu;
	u8 *in = exact_copy(buf, len), *out = exact_copy(NULL, len);
	int ret = 0, got = -1;
	u32 n;

	switch (b) {
	case B_LAYOUT:
		ret = pnfs_osd_xdr_decode_layout(in, len, &lo, comps,
						 MAX_COMPS_T, &err);
		if (!ret)
			got = pnfs_osd_xdr_encode_layout(out, len, &lo, &err);
		break;
	case B_DEVADDR:
		ret = pnfs_osd_xdr_decode_deviceaddr(in, len, &da, &err);
		if (!ret)
			got = pnfs_osd_xdr_encode_deviceaddr(out, len, &da,
							     &err);
		break;
	case B_UPDATE:
		ret = pnfs_osd_xdr_decode_layoutupdate(in, len, &lu, &err);
		if (!ret)
			got = pnfs_osd_xdr_encode_layoutupdate(out, len, &lu,
							       &err);
		break;
	case B_RETURN:
		ret = pnfs_osd_xdr_decode_layoutreturn(in, len, errs,
						       MAX_ERRS_T, &n, &err);
		if (!ret)
			got = pnfs_osd_xdr_encode_layoutreturn(out, len, errs,
							       n, &err);
		break;
	}
	if (ret)
		failf("%s round %u: our own encoding refused: %d %s: %s",
		      body_name[b], round, ret, err.field, err.why);
	else if (got != (int)len || memcmp(in, out, len))
		failf("%s round %u: re-encoding differs (%d of %zu bytes)",
		      body_name[b], round, got, len);
	free(in);
	free(out);
	if (round % 16 == 0)
		check_truncations(b, buf, len);
}

static void test_random_roundtrip(void)
{
	static struct pnfs_osd_object_cred c[MAX_COMPS_T], gc[MAX_COMPS_T];
	static struct pnfs_osd_ioerr e[MAX_ERRS_T], ge[MAX_ERRS_T];
	struct pnfs_osd_xdr_err err;
	u32 round, i;

	for (round = 0; round < 400; round++) {
		struct pnfs_osd_layout lo = { 0 }, glo;
		struct pnfs_osd_deviceaddr da, gda;
		struct pnfs_osd_layoutupdate lu = { 0 }, glu;
		struct errs_arg ea = { e, rnd_below(MAX_ERRS_T + 1) };
		size_t len = 0;
		u8 *buf;
		u32 n;
		int ret;

		enc_all_sizes = round % 16 == 0;

		pool_pos = 0;
		lo.olo_num_comps = round == 7 ? MAX_COMPS_T : rnd_below(17);
		lo.olo_comps_index = rnd_below(2000);
		lo.olo_map.odm_num_comps = lo.olo_comps_index +
					   lo.olo_num_comps + rnd_below(3);
		lo.olo_map.odm_stripe_unit = rnd64();
		lo.olo_map.odm_group_width = rnd();
		lo.olo_map.odm_group_depth = rnd();
		lo.olo_map.odm_mirror_cnt = rnd();
		lo.olo_map.odm_raid_algorithm = 1 + rnd_below(4);
		lo.olo_comps = c;
		for (i = 0; i < lo.olo_num_comps; i++)
			rnd_cred(&c[i]);
		buf = encode_exact(enc_layout_fn, &lo, &len, "random layout");
		if (buf) {
			ret = pnfs_osd_xdr_decode_layout(buf, len, &glo, gc,
							 MAX_COMPS_T, &err);
			EXPECT(!ret && map_eq(&glo.olo_map, &lo.olo_map) &&
			       glo.olo_comps_index == lo.olo_comps_index &&
			       glo.olo_num_comps == lo.olo_num_comps,
			       "random layout %u: %d", round, ret);
			for (i = 0; !ret && i < lo.olo_num_comps; i++)
				EXPECT(cred_eq(&gc[i], &c[i]),
				       "random layout %u: component %u differs",
				       round, i);
			recode(B_LAYOUT, buf, len, round);
			free(buf);
		}

		pool_pos = 0;
		rnd_devaddr(&da);
		buf = encode_exact(enc_devaddr_fn, &da, &len, "random devaddr");
		if (buf) {
			ret = pnfs_osd_xdr_decode_deviceaddr(buf, len, &gda,
							     &err);
			EXPECT(!ret && da_eq(&gda, &da),
			       "random device address %u: %d", round, ret);
			recode(B_DEVADDR, buf, len, round);
			free(buf);
		}

		lu.dsu_valid = rnd_below(2);
		lu.dsu_delta = lu.dsu_valid ? (s64)rnd64() : 0;
		lu.olu_ioerr_flag = rnd_below(2);
		buf = encode_exact(enc_update_fn, &lu, &len, "random update");
		if (buf) {
			ret = pnfs_osd_xdr_decode_layoutupdate(buf, len, &glu,
							       &err);
			EXPECT(!ret && glu.dsu_valid == lu.dsu_valid &&
			       glu.dsu_delta == lu.dsu_delta &&
			       glu.olu_ioerr_flag == lu.olu_ioerr_flag,
			       "random update %u: %d", round, ret);
			recode(B_UPDATE, buf, len, round);
			free(buf);
		}

		for (i = 0; i < ea.n; i++) {
			rnd_objid(&e[i].oer_component);
			e[i].oer_comp_offset = rnd64();
			e[i].oer_comp_length = rnd64();
			e[i].oer_iswrite = rnd_below(2);
			e[i].oer_errno = 1 + rnd_below(7);
		}
		buf = encode_exact(enc_return_fn, &ea, &len, "random report");
		if (buf) {
			ret = pnfs_osd_xdr_decode_layoutreturn(buf, len, ge,
							       MAX_ERRS_T, &n,
							       &err);
			EXPECT(!ret && n == ea.n, "random report %u: %d",
			       round, ret);
			for (i = 0; !ret && i < n; i++)
				EXPECT(ioerr_eq(&ge[i], &e[i]),
				       "random report %u: %u differs", round,
				       i);
			recode(B_RETURN, buf, len, round);
			free(buf);
		}
	}
	enc_all_sizes = true;
}

/* @b's hand-written body with the 32-bit word at @off set to @v. */
static void refuse_word(enum body b, size_t off, u32 v, int want,
			const char *field)
{
	static const u8 *const wire[] = { layout_wire, devaddr_wire,
					  update_wire, return_wire };
	static const size_t size[] = { sizeof(layout_wire),
				       sizeof(devaddr_wire),
				       sizeof(update_wire),
				       sizeof(return_wire) };
	u8 *p = exact_copy(wire[b], size[b]);
	char what[64];

	p[off] = (u8)(v >> 24);
	p[off + 1] = (u8)(v >> 16);
	p[off + 2] = (u8)(v >> 8);
	p[off + 3] = (u8)v;
	snprintf(what, sizeof(what), "word %zu = 0x%x", off, v);
	expect_refused(b, p, size[b], want, field, what);
	free(p);
}

static void refuse_byte(enum body b, const u8 *wire, size_t size, size_t off,
			u8 v, int want, const char *field)
{
	u8 *p = exact_copy(wire, size);
	char what[64];

	p[off] = v;
	snprintf(what, sizeof(what), "byte %zu = 0x%x", off, v);
	expect_refused(b, p, size, want, field, what);
	free(p);
}

static void test_malformed_decode(void)
{
	/* layout: enums, counts, lengths, padding */
	refuse_word(B_LAYOUT, LW_RAID, 0, -EINVAL, "odm_raid_algorithm");
	refuse_word(B_LAYOUT, LW_RAID, 5, -EINVAL, "odm_raid_algorithm");
	refuse_word(B_LAYOUT, LW_RAID, 0xffffffff, -EINVAL,
		    "odm_raid_algorithm");
	/* index 1 + 2 components > 2 */
	refuse_word(B_LAYOUT, LW_NUM_COMPS, 2, -EINVAL, "olo_components");
	refuse_word(B_LAYOUT, LW_NUM_COMPS, 0, -EINVAL, "olo_components");
	refuse_word(B_LAYOUT, LW_INDEX, 7, -EINVAL, "olo_components");
	refuse_word(B_LAYOUT, LW_INDEX, 0xffffffff, -EINVAL, "olo_components");
	refuse_word(B_LAYOUT, LW_COUNT, 1025, -EINVAL, "olo_components");
	refuse_word(B_LAYOUT, LW_COUNT, 0xffffffff, -EINVAL, "olo_components");
	/* more components than the bytes left can hold */
	refuse_word(B_LAYOUT, LW_COUNT, 3, -EMSGSIZE, "olo_components");
	refuse_word(B_LAYOUT, LW_COUNT, 1, -EINVAL, "(end)");
	refuse_word(B_LAYOUT, LW_C0_VERSION, 3, -EINVAL, "oc_osd_version");
	refuse_word(B_LAYOUT, LW_C0_KEYSEC, 2, -EINVAL, "oc_cap_key_sec");
	refuse_word(B_LAYOUT, LW_C0_KEY, PNFS_OSD_CAP_KEY_MAX + 1, -EINVAL,
		    "oc_capability_key");
	refuse_word(B_LAYOUT, LW_C0_KEY, 0xffffffff, -EINVAL,
		    "oc_capability_key");
	refuse_word(B_LAYOUT, LW_C0_KEY, 0xfffffffd, -EINVAL,
		    "oc_capability_key");
	/* within the limit but past the end of the buffer */
	refuse_word(B_LAYOUT, LW_C0_KEY, PNFS_OSD_CAP_KEY_MAX, -EMSGSIZE,
		    "oc_capability_key");
	refuse_word(B_LAYOUT, LW_C1_CAP, PNFS_OSD_CAP_MAX + 1, -EINVAL,
		    "oc_capability");
	refuse_byte(B_LAYOUT, layout_wire, sizeof(layout_wire),
		    LW_C0_KEY + 7, 1, -EINVAL, "oc_capability_key");
	refuse_byte(B_LAYOUT, layout_wire, sizeof(layout_wire),
		    LW_C1_CAP + 9, 0x80, -EINVAL, "oc_capability");
	refuse_byte(B_LAYOUT, layout_wire, sizeof(layout_wire),
		    LW_C1_CAP + 11, 1, -EINVAL, "oc_capability");

	/* device address */
	refuse_word(B_DEVADDR, DW_TYPE, 0, -EINVAL, "oti_type");
	refuse_word(B_DEVADDR, DW_TYPE, 4, -EINVAL, "oti_type");
	refuse_word(B_DEVADDR, DW_AVAIL, 2, -EINVAL, "ota_available");
	refuse_word(B_DEVADDR, DW_NETID, PNFS_OSD_NETID_MAX + 1, -EINVAL,
		    "na_r_netid");
	refuse_word(B_DEVADDR, DW_UADDR, PNFS_OSD_UADDR_MAX + 1, -EINVAL,
		    "na_r_addr");
	refuse_word(B_DEVADDR, DW_SYSID, PNFS_OSD_SYSTEMID_MAX + 1, -EINVAL,
		    "oda_systemid");
	refuse_word(B_DEVADDR, DW_ROOT + 32, 7, -EINVAL, "oc_osd_version");
	refuse_word(B_DEVADDR, DW_OSDNAME, PNFS_OSD_OSDNAME_MAX + 1, -EINVAL,
		    "oda_osdname");
	refuse_word(B_DEVADDR, DW_OSDNAME, PNFS_OSD_OSDNAME_MAX, -EMSGSIZE,
		    "oda_osdname");
	refuse_byte(B_DEVADDR, devaddr_wire, sizeof(devaddr_wire),
		    DW_NETID + 4 + 1, 0, -EINVAL, "na_r_netid");
	refuse_byte(B_DEVADDR, devaddr_wire, sizeof(devaddr_wire),
		    DW_UADDR + 4 + 14, 1, -EINVAL, "na_r_addr");
	refuse_byte(B_DEVADDR, devaddr_wire, sizeof(devaddr_wire),
		    DW_OSDNAME + 4 + 11, ' ', -EINVAL, "oda_osdname");
	/* ANON -> SCSI_NAME: the rest no longer lines up */
	refuse_word(B_DEVADDR, DW_TYPE, OBJ_TARGET_SCSI_NAME, -EINVAL, NULL);
	/* available FALSE: netid bytes read as the LUN, ... */
	refuse_word(B_DEVADDR, DW_AVAIL, 0, -EINVAL, NULL);

	/* a SCSI name is a string: no NUL (a device id may have one) */
	{
		struct pnfs_osd_deviceaddr da;
		u8 sysid[32], *p;
		int len;

		devaddr_wire_struct(&da, sysid);
		da.oda_targetid_type = OBJ_TARGET_SCSI_DEVICE_ID;
		da.oda_targetid.data = (const u8 *)"naa.\0\1";
		da.oda_targetid.len = 6;
		len = pnfs_osd_xdr_encode_deviceaddr(NULL, 0, &da, NULL);
		p = exact_copy(NULL, len > 0 ? len : 0);
		EXPECT(pnfs_osd_xdr_encode_deviceaddr(p, len, &da, NULL) == len,
		       "device id with a NUL refused");
		expect_refused(B_DEVADDR, p, len, 0, NULL, "device id");
		p[3] = OBJ_TARGET_SCSI_NAME;
		expect_refused(B_DEVADDR, p, len, -EINVAL, "oti_scsi_name",
			       "SCSI name with a NUL");
		free(p);
	}

	/* update and report */
	refuse_word(B_UPDATE, 0, 2, -EINVAL, "dsu_valid");
	refuse_word(B_UPDATE, 12, 2, -EINVAL, "olu_ioerr_flag");
	refuse_word(B_UPDATE, 12, 0xffffffff, -EINVAL, "olu_ioerr_flag");
	/* no delta: its high word is read as the flag */
	refuse_word(B_UPDATE, 0, 0, -EINVAL, "olu_ioerr_flag");
	refuse_word(B_RETURN, 0, 0, -EINVAL, "(end)");
	refuse_word(B_RETURN, 0, 2, -EMSGSIZE, "olr_ioerr_report");
	refuse_word(B_RETURN, 0, 4097, -EINVAL, "olr_ioerr_report");
	refuse_word(B_RETURN, 4 + 32 + 16, 2, -EINVAL, "oer_iswrite");
	refuse_word(B_RETURN, 4 + 32 + 20, 0, -EINVAL, "oer_errno");
	refuse_word(B_RETURN, 4 + 32 + 20, 8, -EINVAL, "oer_errno");

	/* the error position names the field */
	{
		struct pnfs_osd_layout lo;
		struct pnfs_osd_xdr_err err = { NULL, NULL, 0 };
		u8 *p = exact_copy(layout_wire, sizeof(layout_wire));

		p[LW_C1_CAP + 4 + 6] = 9;
		EXPECT(pnfs_osd_xdr_decode_layout(p, sizeof(layout_wire), &lo,
						  NULL, 0, &err) == -EINVAL &&
		       err.pos == LW_C1_CAP,
		       "bad padding reported at byte %u, want %d", err.pos,
		       LW_C1_CAP);
		free(p);
	}
}

/* The encoder refuses what the decoder would. */
static void test_malformed_encode(void)
{
	struct pnfs_osd_object_cred c[2];
	struct pnfs_osd_deviceaddr da;
	struct pnfs_osd_layoutupdate lu = { false, 5, false };
	struct pnfs_osd_ioerr e;
	struct pnfs_osd_layout lo;
	struct pnfs_osd_xdr_err err;
	static u8 big[PNFS_OSD_OSDNAME_MAX + 1];
	u8 sysid[32], buf[2048];

#define REFUSED(call, fld) do {						\
		err.field = NULL;					\
		EXPECT((call) == -EINVAL && err.field &&		\
		       !strcmp(err.field, fld),				\
		       "%s: not refused for %s (%s)", #call, fld,	\
		       err.field ? err.field : "accepted");		\
	} while (0)

	layout_wire_struct(&lo, c);
	lo.olo_map.odm_raid_algorithm = 0;
	REFUSED(pnfs_osd_xdr_encode_layout(buf, sizeof(buf), &lo, &err),
		"odm_raid_algorithm");
	REFUSED(pnfs_osd_xdr_encode_layout(NULL, 0, &lo, &err),
		"odm_raid_algorithm");
	layout_wire_struct(&lo, c);
	lo.olo_map.odm_num_comps = 2;
	REFUSED(pnfs_osd_xdr_encode_layout(buf, sizeof(buf), &lo, &err),
		"olo_components");
	layout_wire_struct(&lo, c);
	lo.olo_num_comps = 1025;
	lo.olo_map.odm_num_comps = 2000;
	REFUSED(pnfs_osd_xdr_encode_layout_head(buf, sizeof(buf), &lo, &err),
		"olo_components");
	layout_wire_struct(&lo, c);
	c[1].oc_osd_version = 3;
	REFUSED(pnfs_osd_xdr_encode_layout(buf, sizeof(buf), &lo, &err),
		"oc_osd_version");
	layout_wire_struct(&lo, c);
	c[0].oc_cap_key_sec = 2;
	REFUSED(pnfs_osd_xdr_encode_object_cred(buf, sizeof(buf), &c[0], &err),
		"oc_cap_key_sec");
	layout_wire_struct(&lo, c);
	c[1].oc_cap.data = big;
	c[1].oc_cap.len = PNFS_OSD_CAP_MAX + 1;
	REFUSED(pnfs_osd_xdr_encode_layout(buf, sizeof(buf), &lo, &err),
		"oc_capability");
	layout_wire_struct(&lo, c);
	c[1].oc_cap.data = NULL;
	REFUSED(pnfs_osd_xdr_encode_layout(buf, sizeof(buf), &lo, &err),
		"oc_capability");
	layout_wire_struct(&lo, c);
	lo.olo_comps = NULL;
	REFUSED(pnfs_osd_xdr_encode_layout(buf, sizeof(buf), &lo, &err),
		"olo_components");

	devaddr_wire_struct(&da, sysid);
	da.oda_targetid_type = 4;
	REFUSED(pnfs_osd_xdr_encode_deviceaddr(buf, sizeof(buf), &da, &err),
		"oti_type");
	devaddr_wire_struct(&da, sysid);
	da.oda_targetid.data = big;
	da.oda_targetid.len = 4;
	REFUSED(pnfs_osd_xdr_encode_deviceaddr(buf, sizeof(buf), &da, &err),
		"oda_targetid");
	da.oda_targetid_type = OBJ_TARGET_SCSI_NAME;	/* big[] is NULs */
	REFUSED(pnfs_osd_xdr_encode_deviceaddr(buf, sizeof(buf), &da, &err),
		"oti_scsi_name");
	da.oda_targetid_type = OBJ_TARGET_SCSI_DEVICE_ID;
	da.oda_targetid.len = PNFS_OSD_TARGETID_MAX + 1;
	REFUSED(pnfs_osd_xdr_encode_deviceaddr(buf, sizeof(buf), &da, &err),
		"oti_scsi_device_id");
	devaddr_wire_struct(&da, sysid);
	da.oda_netid.data = (const u8 *)"t\0p";
	REFUSED(pnfs_osd_xdr_encode_deviceaddr(buf, sizeof(buf), &da, &err),
		"na_r_netid");
	devaddr_wire_struct(&da, sysid);
	memset(big, '1', PNFS_OSD_UADDR_MAX + 1);
	da.oda_uaddr.len = PNFS_OSD_UADDR_MAX + 1;
	da.oda_uaddr.data = big;
	REFUSED(pnfs_osd_xdr_encode_deviceaddr(buf, sizeof(buf), &da, &err),
		"na_r_addr");
	devaddr_wire_struct(&da, sysid);
	da.oda_targetaddr_available = false;
	REFUSED(pnfs_osd_xdr_encode_deviceaddr(buf, sizeof(buf), &da, &err),
		"ota_netaddr");
	devaddr_wire_struct(&da, sysid);
	da.oda_systemid.len = PNFS_OSD_SYSTEMID_MAX + 1;
	da.oda_systemid.data = big;
	REFUSED(pnfs_osd_xdr_encode_deviceaddr(buf, sizeof(buf), &da, &err),
		"oda_systemid");
	devaddr_wire_struct(&da, sysid);
	da.oda_osdname.len = PNFS_OSD_OSDNAME_MAX + 1;
	da.oda_osdname.data = big;
	REFUSED(pnfs_osd_xdr_encode_deviceaddr(buf, sizeof(buf), &da, &err),
		"oda_osdname");

	REFUSED(pnfs_osd_xdr_encode_layoutupdate(buf, sizeof(buf), &lu, &err),
		"dsu_delta");
	return_wire_struct(&e);
	e.oer_errno = 0;
	REFUSED(pnfs_osd_xdr_encode_layoutreturn(buf, sizeof(buf), &e, 1,
						 &err), "oer_errno");
	e.oer_errno = 8;
	REFUSED(pnfs_osd_xdr_encode_layoutreturn(buf, sizeof(buf), &e, 1,
						 &err), "oer_errno");
	REFUSED(pnfs_osd_xdr_encode_layoutreturn(NULL, 0, &e, 4097, &err),
		"olr_ioerr_report");
	REFUSED(pnfs_osd_xdr_encode_layoutreturn(NULL, 0, NULL, 1, &err),
		"olr_ioerr_report");
#undef REFUSED
}

static void test_errno_map(void)
{
	static const struct { int err; u32 want; } t[] = {
		{ -EIO, PNFS_OSD_ERR_EIO }, { -EINVAL, PNFS_OSD_ERR_EIO },
		{ -ENOENT, PNFS_OSD_ERR_NOT_FOUND },
		{ -ESTALE, PNFS_OSD_ERR_NOT_FOUND },
		{ -ENOSPC, PNFS_OSD_ERR_NO_SPACE },
		{ -EDQUOT, PNFS_OSD_ERR_NO_SPACE },
		{ -EKEYREJECTED, PNFS_OSD_ERR_BAD_CRED },
		{ -EACCES, PNFS_OSD_ERR_NO_ACCESS },
		{ -EROFS, PNFS_OSD_ERR_NO_ACCESS },
		{ -ETIMEDOUT, PNFS_OSD_ERR_UNREACHABLE },
		{ -EHOSTUNREACH, PNFS_OSD_ERR_UNREACHABLE },
		{ -ECONNREFUSED, PNFS_OSD_ERR_UNREACHABLE },
		{ -ENOMEM, PNFS_OSD_ERR_RESOURCE },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(t); i++)
		EXPECT(pnfs_osd_errno_from_linux(t[i].err) == t[i].want,
		       "errno %d gives %u, want %u", t[i].err,
		       pnfs_osd_errno_from_linux(t[i].err), t[i].want);
}

static const struct {
	const char *name;
	void (*run)(void);
} cases[] = {
	{ "raid_enum_ore_vs_wire", test_raid_enum },
	{ "layout_hand_written_bytes", test_layout_wire },
	{ "deviceaddr_hand_written_bytes", test_devaddr_wire },
	{ "update_and_report_hand_written_bytes", test_update_return_wire },
	{ "ore_layout_grid_to_map_and_back", test_map_roundtrip },
	{ "bad_data_maps_refused", test_map_rejects },
	{ "random_bodies_round_trip_and_truncate", test_random_roundtrip },
	{ "malformed_fields_refused_by_decode", test_malformed_decode },
	{ "malformed_fields_refused_by_encode", test_malformed_encode },
	{ "errno_to_pnfs_osd_errno", test_errno_map },
};

int main(void)
{
	const char *seed = getenv("ORE_TEST_SEED");
	unsigned long failed = 0;
	size_t i;

	if (seed)
		rng ^= strtoull(seed, NULL, 0) * 0x9e3779b97f4a7c15ULL;
	printf("KTAP version 1\n");
	printf("1..%zu\n", ARRAY_SIZE(cases));
	printf("# RFC 5664 XDR test (pnfs/objlayout_xdr.c)\n");
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		case_fails = 0;
		cases[i].run();
		printf("%s %zu %s\n", case_fails ? "not ok" : "ok", i + 1,
		       cases[i].name);
		failed += !!case_fails;
	}
	printf("# objlayout_xdr_test: %zu passed, %lu failed\n",
	       ARRAY_SIZE(cases) - failed, failed);
	return failed ? 1 : 0;
}
