/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ore_user - a userspace ORE writer, reader and checker.
 *
 * Writes one logical object into its components exactly as ore.ko lays it
 * out (ore/layout.c is compiled in), computing RAID4/5 parity (P = XOR of
 * the data columns) and RAID6 P+Q (Q = sum of g^i * D_i over GF(2^8) with
 * generator g = 2 and polynomial 0x11d, the definition of the kernel's
 * lib/raid6), and writing every mirror. Reads an object back, rebuilding
 * up to the layout's redundancy of missing components, and checks parity
 * and mirrors of what is stored.
 *
 * A component is a file descriptor and a base offset: a backing file of a
 * file store (base 0), a member block device (base = data start), or any
 * file. Users: mkfs.exofs, fsck.exofs, the oreblk tools and the tests.
 */
#ifndef _ORE_USER_H
#define _ORE_USER_H

#include <stddef.h>
#include <stdint.h>
#include <ore/layout.h>

/* &ore_user_comp.fd of a component that is not there (a lost store). */
#define ORE_USER_MISSING	(-1)
/* &ore_user_comp.fd of a component whose object does not exist (zeros). */
#define ORE_USER_EMPTY		(-2)

/**
 * struct ore_user_comp - where one component of the object lives
 * @fd: open file descriptor, %ORE_USER_MISSING or %ORE_USER_EMPTY
 * @base: byte offset of the component's object offset 0 inside @fd
 * @no_head: keep every checksum entry in the side file, none in a head
 *	(a store that pNFS clients reach over NFS: EXOFS_FEATURE_RO_COMPAT_CSUM_SIDE)
 */
struct ore_user_comp {
	int fd;
	uint64_t base;
	int no_head;
};

/**
 * struct ore_user_obj - one logical object
 * @layout: the layout, verified by ore_user_init()
 * @comps: @layout.num_comps entries, in component index order
 *	(ore_layout_comp(): (group * group_width + pos) * mirrors_p1 + mirror)
 * @nr_rebuilt: stripe units rebuilt from redundancy by reads (statistics)
 * @err_comp: the component of the last I/O error, or -1
 * @written: NULL, or called after each write into a component (by
 *	ore_user_write() and by the repair of ore_user_check()) with the
 *	component and the object range written: where a user keeps what
 *	depends on a component's bytes (exofs_user: the checksum side
 *	files). Its negative errno fails the write.
 * @private: for @written
 * @in_flight: NULL, or says whether the stripe row at logical bytes
 *	[@off, @off + @len) may have had writes in flight at a crash (exofs:
 *	a region its intent record names, whose parity the next mount
 *	recomputes): ore_user_check() counts the mismatches of such a row in
 *	&ore_user_report.in_flight instead of as bad (and repairs them alike)
 * @flight_private: for @in_flight
 */
struct ore_user_obj {
	struct ore_layout layout;
	struct ore_user_comp *comps;
	uint64_t nr_rebuilt;
	int err_comp;
	int (*written)(struct ore_user_obj *obj, uint32_t comp, uint64_t off,
		       uint64_t len);
	void *private;
	int (*in_flight)(struct ore_user_obj *obj, uint64_t off, uint64_t len);
	void *flight_private;
};

/**
 * struct ore_user_report - what ore_user_check() found
 * @rows: stripe rows checked (all groups)
 * @bad_parity: rows whose P or Q does not match the data
 * @bad_mirror: stripe units whose mirrors differ
 * @unreadable: stripe units that could not be read (missing or I/O error)
 * @repaired: stripe units rewritten by a repair
 * @repair_failed: stripe units whose repair write failed
 * @first_bad_comp: component of the first mismatch, or -1
 * @first_bad_offset: its object offset
 * @first_bad_what: "P", "Q", "mirror" or "read"
 * @in_flight: rows with bad parity or differing mirrors that
 *	&ore_user_obj.in_flight said may have had writes in flight; not in
 *	@bad_parity, @bad_mirror nor the first_bad fields
 */
struct ore_user_report {
	uint64_t rows;
	uint64_t bad_parity;
	uint64_t bad_mirror;
	uint64_t in_flight;
	uint64_t unreadable;
	uint64_t repaired;
	uint64_t repair_failed;
	int first_bad_comp;
	uint64_t first_bad_offset;
	const char *first_bad_what;
};

/*
 * ore_user_init - verify @layout for @num_devs devices (ore_layout_check(),
 * *@why says why on failure) and set up @obj over @comps. Returns 0 or a
 * negative errno.
 */
int ore_user_init(struct ore_user_obj *obj, const struct ore_layout *layout,
		  uint32_t num_devs, struct ore_user_comp *comps,
		  const char **why);

/*
 * ore_user_write - write @len bytes of @buf at logical @offset, updating
 * parity of every stripe row touched (reconstruct-write over the touched
 * unit range, so the rest of the stripe stays consistent) and every
 * mirror. Missing components are skipped (a degraded write) as long as the
 * old data of the row can still be rebuilt. Returns 0 or a negative errno.
 */
int ore_user_write(struct ore_user_obj *obj, uint64_t offset,
		   const void *buf, size_t len);

/*
 * ore_user_read - read @len bytes at logical @offset into @buf. Bytes past
 * the end of a component object read as zeros. A missing or failing
 * component is served by another mirror, or rebuilt from P (RAID4/5) or
 * P+Q (RAID6, up to two columns). Returns 0 or a negative errno (-EIO
 * when more columns are lost than the layout can rebuild).
 */
int ore_user_read(struct ore_user_obj *obj, uint64_t offset, void *buf,
		  size_t len);

/*
 * ore_user_check - check every stripe row holding logical bytes below
 * @size: mirrors identical, P and Q equal to those computed from the data
 * (bytes past the end of an object count as zeros). Fills @rep. Returns 0
 * if everything agrees, 1 if something does not, or a negative errno.
 * With @repair (components open for writing) what disagrees is rewritten
 * as ore_scrub() does in the kernel: the other mirror copies from the
 * first readable one, P and Q from the data; the pages that differ only.
 * The return value and counts are those found before the repair.
 */
int ore_user_check(struct ore_user_obj *obj, uint64_t size, int repair,
		   struct ore_user_report *rep);

/*
 * ore_user_rebuild_unit - stripe unit @row of component @comp as the
 * redundancy says it should be, into @buf (stripe_unit bytes): another
 * mirror's copy, the data column rebuilt from P (or P+Q), or P and Q
 * computed from the data; what @comp holds is not read. Nothing is
 * written. Returns 0, or -EIO when the rest of the row cannot give it (no
 * redundancy, or more lost than it covers).
 */
int ore_user_rebuild_unit(struct ore_user_obj *obj, uint32_t comp,
			  uint64_t row, void *buf);

/*
 * Data checksums of a file store (include/ore/pure.h, docs/stores.md):
 * the component file "<oid>" has a little-endian u32 entry per
 * ORE_CSUM_BLOCK-byte block, entry i for its bytes [i * 4096, (i + 1) *
 * 4096): ore_csum_value() of the block's checksum of the type (@type
 * below) the filesystem chose (exofs: s_csum_type): ORE_CSUM_XXH64, the
 * low 32 bits of its XXH64 with seed 0, or ORE_CSUM_CRC32C, its CRC-32C
 * not inverted (ore_user_csum_block()). An entry of 0 is "no checksum".
 *
 * The entries of blocks from ORE_FILE_CSUM_HEAD (16) on are in the side
 * file "<oid>" ORE_FILE_CSUM_SUFFIX, entry i at byte 4 * i; entries past
 * its end and a missing side file are 0. Those of blocks 0 to 15, the
 * head, are in the extended attribute ORE_FILE_CSUM_XATTR of the
 * component file when it has one: a value of 0 to 64 bytes, a multiple
 * of 4, entry i at byte 4 * i, 0 past its end (trailing entries of 0 are
 * left out). Then the side file's first 64 bytes are not looked at. When
 * it has none (objects written before the head, filesystems without user
 * extended attributes), the side file holds the head's entries too. A
 * value of any other length is corrupt (-EUCLEAN). Only a component file
 * of its own (&ore_user_comp.base 0) has a head: a component inside a
 * larger file keeps every entry in the side file.
 */

/* ore_user_csum_path - "<dir>/<oid in hex>.csum"; snprintf()'s result. */
int ore_user_csum_path(char *buf, size_t size, const char *dir, uint64_t oid);

/* ore_user_csum_known - is @type ORE_CSUM_XXH64 or ORE_CSUM_CRC32C? */
int ore_user_csum_known(uint32_t type);

/*
 * ore_user_csum_name - "xxh64", "crc32c", "none" for 0, "unknown" for
 * any other @type.
 */
const char *ore_user_csum_name(uint32_t type);

/*
 * ore_user_csum_block - the entry of type @type of the ORE_CSUM_BLOCK
 * bytes at @block; 0 (never an entry's value) for an unknown @type.
 */
uint32_t ore_user_csum_block(uint32_t type, const void *block);

/*
 * ore_user_csum_open - open the side file @path with open(2) @flags
 * (O_CREAT gives mode 0600; never follows a symlink). Returns the file
 * descriptor, -ENOENT when there is none (without O_CREAT), -EINVAL when
 * what is there is not a regular file, or another negative errno.
 */
int ore_user_csum_open(const char *path, int flags);

/*
 * ore_user_csum_stamp - store the entries of the blocks of component @c
 * that its object range [@off, @off + @len) touches, from what @c holds
 * now, of type @type; a block that reaches past @c's end gets 0 (as the
 * kernel's file store does for a block it writes in part). Those of the
 * head go into @c's attribute, as the kernel writes it: when there is
 * none yet it is made, starting with the head entries the side file
 * holds (they stay in the side file too); when the filesystem has no user
 * extended attributes (EOPNOTSUPP) they go into the side file instead. A
 * corrupt attribute is replaced by a stamp of all of the head ([0,
 * ORE_FILE_CSUM_HEAD * ORE_CSUM_BLOCK) at least: how a repair restamps
 * it), and fails any other stamp of head blocks with -EUCLEAN. The other
 * entries go into the side file: *@csum_fd is the side file, or negative
 * when it is not open: then it is made, from @path, when there is an
 * entry other than 0 to store in it (and read, when it is there, for the
 * head entries of a new attribute). Returns 0 or a negative errno
 * (-EINVAL for an unknown @type).
 */
int ore_user_csum_stamp(const struct ore_user_comp *c, uint32_t type,
			int *csum_fd, const char *path, uint64_t off,
			uint64_t len);

/*
 * ore_user_csum_verify - check every block of component @c that has an
 * entry other than 0 against it, entries of type @type (bytes past @c's
 * end count as zeros): those of the head from @c's attribute when it has
 * one, the others from the side file @csum_fd (all of them when there is
 * no attribute; @csum_fd negative: there is no side file, its entries are
 * 0). @bad, when not NULL, is called for each block that does not match
 * with its object offset, the stored entry and the data's, in increasing
 * offset order; a negative return from it stops the walk and is returned.
 * *@checked counts the blocks verified. Returns the number of blocks that
 * did not match, or a negative errno: -EINVAL for an unknown @type,
 * -EUCLEAN for a corrupt attribute (nothing verified then).
 */
int64_t ore_user_csum_verify(const struct ore_user_comp *c, uint32_t type,
			     int csum_fd,
			     int (*bad)(void *arg, uint64_t off, uint32_t want,
					uint32_t got),
			     void *arg, uint64_t *checked);

/*
 * ore_user_store_path - the path of object @oid in the file store whose
 * directory is @dir ("<dir>/<oid in lowercase hex>", as ore/store_file.c
 * names its backing files). Returns snprintf()'s result.
 */
int ore_user_store_path(char *buf, size_t size, const char *dir, uint64_t oid);

/*
 * ore_user_open_stores - open the components of object @oid over file
 * stores @dirs[0 .. @num_devs - 1]: component i in @dirs[(@first_dev + i) %
 * @num_devs], with open(2) @flags (O_CREAT gives mode 0600). A NULL @dirs
 * entry gives %ORE_USER_MISSING; an absent object without O_CREAT gives
 * %ORE_USER_EMPTY. Returns 0 or the negative errno of the first failing
 * open (then nothing stays open).
 */
int ore_user_open_stores(struct ore_user_comp *comps, uint32_t num_comps,
			 const char *const *dirs, uint32_t num_devs,
			 uint32_t first_dev, uint64_t oid, int flags);

/* ore_user_sync - fsync(2) every open component; 0 or the first -errno. */
int ore_user_sync(struct ore_user_comp *comps, uint32_t num_comps);

/* ore_user_close - close the descriptors of @num_comps components. */
void ore_user_close(struct ore_user_comp *comps, uint32_t num_comps);

/*
 * ore_user_parse_size - "4096", "0x1000", "64K", "1M", "2GiB", "1TB" to bytes
 * in @v: a number (C base prefixes), then optionally one of K, M, G, T (any
 * case, powers of 1024) followed by an optional "i" and "B". Return: 0, or -1
 * for an empty, negative, overflowing or trailing-garbage string (@v unset).
 */
int ore_user_parse_size(const char *s, uint64_t *v);

/* ore_user_dev_size - bytes of the block device or file open at @fd. */
int ore_user_dev_size(int fd, uint64_t *size);

/* GF(2^8) with polynomial 0x11d, generator 2 (lib/raid6). */
uint8_t ore_gf_mul(uint8_t a, uint8_t b);
uint8_t ore_gf_div(uint8_t a, uint8_t b);
uint8_t ore_gf_exp2(unsigned int i);	/* g^i */

/*
 * ore_user_gen_pq - P (and Q if @q) of @ndata columns of @bytes each;
 * data[i] is column i (D_i). @q may be NULL for P only.
 */
void ore_user_gen_pq(uint8_t *const *data, unsigned int ndata, size_t bytes,
		     uint8_t *p, uint8_t *q);

/*
 * ore_user_recover - rebuild up to two lost columns of one stripe in place.
 * @cols holds @ndata data columns, then P, then Q (Q only if @has_q);
 * @lost_a < @lost_b are column numbers (P = @ndata, Q = @ndata + 1), or -1
 * for no loss. Returns 0, or -EIO when the loss is beyond the redundancy.
 */
int ore_user_recover(uint8_t *const *cols, unsigned int ndata, int has_q,
		     size_t bytes, int lost_a, int lost_b);

#endif /* _ORE_USER_H */
