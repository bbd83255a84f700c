/* SPDX-License-Identifier: GPL-2.0 */
/*
 * exofs on-disk format: the one definition shared by exofs.ko, mkfs.exofs
 * and fsck.exofs. docs/exofs-format.md is the prose version; keep the two in
 * step. The rules a valid superblock, device table and inode record obey
 * are code in one place, exofs/format.c (include/exofs/format.h), built
 * into exofs.ko and into the tools. Everything is little endian and
 * naturally aligned; every structure has a fixed size checked by a static
 * assertion at the end.
 *
 * An exofs filesystem lives on N object stores (file stores: a directory
 * each). Objects, by object id:
 *
 *   EXOFS_SUPER_OID	one per store, NOT striped: the superblock of that
 *			store, with the device table (identical on all stores
 *			except the per-store fields)
 *   EXOFS_ITABLE_OID	striped over the stores with the fs layout: the
 *			inode table, EXOFS_INODE_SIZE bytes per inode at
 *			offset ino * EXOFS_INODE_SIZE
 *   EXOFS_IBITMAP_OID	striped: the inode allocation bitmap, bit ino
 *			(little-endian bit order) set when ino is in use
 *   EXOFS_INO_OID(ino)	striped: the data of inode ino (file contents,
 *			directory entries, long symlink target)
 *   EXOFS_INTENT_OID	one per store, NOT striped, with
 *			EXOFS_FEATURE_RO_COMPAT_INTENT: the intent record,
 *			the regions of striped objects that may have writes
 *			in flight (identical on all stores)
 *
 * Component c of a striped object with id oid is on store
 * (exofs_first_dev(oid) + c) % num_stores.
 */
#ifndef _EXOFS_EXOFS_FS_H
#define _EXOFS_EXOFS_FS_H

#ifdef __KERNEL__
#include <linux/types.h>
#else
#include <stdint.h>
#include <linux/types.h>	/* __le16, __le32, __le64 (linux-libc-dev) */
#endif

/* ---------------------------------------------------------------------
 * Object ids.
 */
#define EXOFS_SUPER_OID		0x10000ULL	/* per-store superblock */
#define EXOFS_ITABLE_OID	0x10001ULL	/* inode table */
#define EXOFS_IBITMAP_OID	0x10002ULL	/* inode allocation bitmap */
#define EXOFS_INTENT_OID	0x10003ULL	/* per-store intent record */
#define EXOFS_INO_OID_BASE	0x20000ULL	/* + ino: data of inode ino */
#define EXOFS_INO_OID(ino)	(EXOFS_INO_OID_BASE + (__u64)(ino))

/*
 * exofs_first_dev - store holding component 0 of striped object @oid.
 * Rotating by the object id spreads small files over all stores; the
 * rotation steps by mirrors_p1 so that the copies of one component stay on
 * consecutive stores, as the original exofs did.
 */
static inline __u32 exofs_first_dev(__u64 oid, __u32 mirrors_p1,
				    __u32 num_stores)
{
	return (__u32)((oid * mirrors_p1) % num_stores);
}

/* ---------------------------------------------------------------------
 * The intent record (EXOFS_INTENT_OID on every store in service, with
 * EXOFS_FEATURE_RO_COMPAT_INTENT).
 *
 * Two slots of EXOFS_INTENT_SLOT bytes, at object offsets 0 and
 * EXOFS_INTENT_SLOT. Each record is written whole into the slot
 * (ih_seq % 2), with ih_seq one more than the record before, so a write
 * torn by a crash leaves the other slot, the previous record, intact; the
 * valid slot with the highest ih_seq is the record of that store. A slot
 * is valid when its magic, its fs UUID, ih_count <= EXOFS_INTENT_MAX and
 * ih_csum are right. The record names regions: region r of object oid is
 * the logical bytes [r * ih_region, (r + 1) * ih_region) of it; ih_region
 * is a whole number of the layout's stripes, at least
 * EXOFS_INTENT_REGION_MIN (exofs_intent_region()).
 */
#define EXOFS_INTENT_MAGIC	0x544e544e49464f45ULL	/* "EOFINTNT" */
#define EXOFS_INTENT_SLOT	65536U
#define EXOFS_INTENT_REGION_MIN	(4ULL << 20)

/**
 * struct exofs_intent_hdr - the head of one intent record slot
 * @ih_magic: EXOFS_INTENT_MAGIC
 * @ih_seq: record number; the slot is ih_seq % 2
 * @ih_uuid: the filesystem's UUID
 * @ih_region: bytes of one region (see above)
 * @ih_count: entries that follow
 * @ih_csum: CRC-32C of the header (this field zero) and the @ih_count
 *	entries that follow it
 * @ih_reserved: zero
 */
struct exofs_intent_hdr {
	__le64 ih_magic;
	__le64 ih_seq;
	__u8 ih_uuid[16];
	__le64 ih_region;
	__le32 ih_count;
	__le32 ih_csum;
	__le64 ih_reserved[2];
};

/**
 * struct exofs_intent_ent - one region that may have writes in flight
 * @ie_oid: the striped object
 * @ie_region: the region number in it
 */
struct exofs_intent_ent {
	__le64 ie_oid;
	__le64 ie_region;
};

#define EXOFS_INTENT_MAX	((EXOFS_INTENT_SLOT - \
				  sizeof(struct exofs_intent_hdr)) / \
				 sizeof(struct exofs_intent_ent))

/* ---------------------------------------------------------------------
 * Inode numbers.
 */
#define EXOFS_BAD_INO		0	/* never used; "no inode" in a dirent */
#define EXOFS_ROOT_INO		1	/* the root directory */
#define EXOFS_FIRST_INO		2	/* first inode number for new inodes */
#define EXOFS_MAX_INO_LIMIT	(1ULL << 40)	/* largest s_max_ino accepted */

/* ---------------------------------------------------------------------
 * The superblock object (EXOFS_SUPER_OID on every store).
 *
 * EXOFS_SB_SIZE bytes at object offset 0: struct exofs_fsb at offset 0,
 * the device table (s_num_stores entries of struct exofs_dev_entry) at
 * offset EXOFS_DEVTABLE_OFFSET, zeros elsewhere. s_csum covers all
 * EXOFS_SB_SIZE bytes with s_csum itself taken as zero.
 */
#define EXOFS_SB_SIZE		4096
#define EXOFS_DEVTABLE_OFFSET	1024
#define EXOFS_MAX_STORES	96	/* (4096 - 1024) / 32 */

/* "EXOFSORE" read as a little-endian 64-bit number */
#define EXOFS_SB_MAGIC		0x45524f53464f5845ULL
/* f_type reported by statfs (the value of the original exofs) */
#define EXOFS_SUPER_MAGIC	0x5DF5
#define EXOFS_FORMAT_VERSION	1

/* Bits of s_feature_incompat: none defined; any set bit refuses a mount. */
#define EXOFS_FEATURE_INCOMPAT_SUPP	0U
/*
 * Bits of s_feature_ro_compat; unknown bits force ro.
 * COMPONENTS: every component object of an inode's object is created with
 * the object (a missing one is lost, never a hole). Without it (images
 * made before the bit existed) components are made by their first write
 * and a missing one reads as zeros. An older kernel would make components
 * lazily again, hence ro there.
 */
#define EXOFS_FEATURE_RO_COMPAT_COMPONENTS	0x1U
/*
 * INTENT: the write-hole protection (consistency policy "intent"). A write
 * of a striped object starts only once its region is in the intent record
 * (EXOFS_INTENT_OID) of every store in service; a mount repairs the parity
 * and mirrors of the regions the record names. An older kernel would write
 * without recording, hence ro there.
 */
#define EXOFS_FEATURE_RO_COMPAT_INTENT		0x2U
/*
 * CSUM: data checksums. Every store keeps, beside each striped object's
 * component "<oid>", the side file "<oid>.csum" (ORE_FILE_CSUM_SUFFIX) of
 * its entries, one per 4096 bytes, of the type s_csum_type (XXH64 or
 * CRC-32C, include/ore/pure.h, "Data checksums"); reads verify them and
 * repair a block that fails from the redundancy. The per-store objects (superblock, intent record) have CRCs
 * of their own and no side file. Needs INTENT: the mount restamps the
 * regions a crash cut writes in. An older kernel would write data without
 * its checksums, hence ro there.
 */
#define EXOFS_FEATURE_RO_COMPAT_CSUM		0x4U
/*
 * SIZED (with COMPONENTS): the components of an inode's object exist as
 * far as its record's i_made reaches them (ore_layout_obj_size() > 0): a
 * missing one that i_made reaches is lost; any other may be missing and
 * is then empty. Creating an inode makes no component; writes and
 * truncates make those they reach. A kernel without the bit would take the
 * missing ones for lost, hence ro there.
 */
#define EXOFS_FEATURE_RO_COMPAT_SIZED		0x8U
/*
 * CSUM_SIDE (with CSUM): every entry of a striped object's component is in
 * its side file: no component has a head (the extended attribute
 * ORE_FILE_CSUM_XATTR). What pNFS clients, which reach the stores over
 * NFSv3 (no extended attributes), can keep: the objects layout is handed
 * out for a checksummed filesystem only with it (mkfs.exofs
 * --checksum-heads no). A kernel without the bit would make heads the
 * clients cannot see, hence ro there.
 */
#define EXOFS_FEATURE_RO_COMPAT_CSUM_SIDE	0x10U
#define EXOFS_FEATURE_RO_COMPAT_SUPP	(EXOFS_FEATURE_RO_COMPAT_COMPONENTS | \
					 EXOFS_FEATURE_RO_COMPAT_INTENT | \
					 EXOFS_FEATURE_RO_COMPAT_CSUM | \
					 EXOFS_FEATURE_RO_COMPAT_SIZED | \
					 EXOFS_FEATURE_RO_COMPAT_CSUM_SIDE)

/* Values of s_state */
#define EXOFS_STATE_CLEAN	1	/* cleanly unmounted: counters exact */
#define EXOFS_STATE_DIRTY	2	/* mounted read-write, or crashed */
/*
 * Only in the superblock of a replacement store made by mkfs.exofs
 * --replace, before the kernel takes it in: a stub holding s_magic,
 * s_version, s_sb_size, s_csum, s_uuid (the filesystem it is meant for),
 * s_store_index (the slot) and s_store_uuid (its new UUID); every other
 * field zero. It is no valid superblock (exofs_sb_check() refuses it);
 * exofs_sb_replacement_check() accepts it.
 */
#define EXOFS_STATE_REPLACEMENT	3

#define EXOFS_LABEL_SIZE	32
#define EXOFS_UUID_SIZE		16

/**
 * struct exofs_layout_disk - the RFC 5664 layout of every striped object
 * @stripe_unit: bytes of one stripe unit, a multiple of 4096
 * @group_width: components per group, parity included
 * @group_depth: stripe units per component before the next group
 * @group_count: number of groups
 * @mirrors_p1: copies of every component (1 = no mirroring)
 * @raid_algorithm: 0 (RAID0), 4, 5 or 6 (&enum ore_raid_algorithm)
 *
 * group_width * group_count * mirrors_p1 must not exceed s_num_stores;
 * ore_layout_check() decides what is valid.
 */
struct exofs_layout_disk {
	__le32 stripe_unit;
	__le32 group_width;
	__le32 group_depth;
	__le32 group_count;
	__le32 mirrors_p1;
	__le32 raid_algorithm;
};

/* Bits of exofs_dev_entry.flags */
/* failed while mounted: its objects are stale until it is rebuilt */
#define EXOFS_DEV_FL_FAILED	0x1
/*
 * with FAILED: a replacement store being rebuilt (written, not read); the
 * rebuild starts again at the next mount, from the inode number in
 * exofs_dev_entry.rebuild_ino
 */
#define EXOFS_DEV_FL_REBUILDING	0x2
#define EXOFS_DEV_FL_KNOWN	(EXOFS_DEV_FL_FAILED | EXOFS_DEV_FL_REBUILDING)

/**
 * struct exofs_dev_entry - one store in the device table
 * @uuid: the store's UUID (random, given by mkfs); never all zeros
 * @index: the store's position, equal to its index in the table
 * @flags: EXOFS_DEV_FL_* (mkfs writes 0)
 * @rebuild_ino: with EXOFS_DEV_FL_REBUILDING, the rebuild checkpoint:
 *	0 = nothing rebuilt yet; n >= 1: the inode table, the inode bitmap
 *	and the objects of every inode below n are rebuilt (flushed on the
 *	store). Zero otherwise
 */
struct exofs_dev_entry {
	__u8 uuid[EXOFS_UUID_SIZE];
	__le32 index;
	__le32 flags;
	__le64 rebuild_ino;
};

/**
 * struct exofs_fsb - the superblock proper, at offset 0 of EXOFS_SUPER_OID
 * @s_magic: EXOFS_SB_MAGIC
 * @s_version: EXOFS_FORMAT_VERSION
 * @s_sb_size: EXOFS_SB_SIZE, the bytes covered by @s_csum
 * @s_csum: CRC-32C (see exofs_csum rules below) of the EXOFS_SB_SIZE bytes
 *	with this field zero
 * @s_feature_compat: features an old kernel may ignore (none yet)
 * @s_feature_incompat: features an old kernel must not mount (none yet)
 * @s_feature_ro_compat: features an old kernel may only mount ro
 *	(EXOFS_FEATURE_RO_COMPAT_*)
 * @s_uuid: the filesystem's UUID, the same on every store
 * @s_label: volume label, NUL padded (not necessarily NUL terminated)
 * @s_layout: the layout of every striped object
 * @s_num_stores: number of stores (entries of the device table), 1..96
 * @s_store_index: PER STORE: this store's position in the device table
 * @s_store_uuid: PER STORE: this store's UUID (== devtable[index].uuid)
 * @s_event: generation counter, incremented each time the superblocks are
 *	written (mount read-write, sync, unmount); the copy with the highest
 *	s_event is the reference; a store more than 1 behind it is stale
 * @s_state: EXOFS_STATE_CLEAN or EXOFS_STATE_DIRTY
 * @s_inode_size: EXOFS_INODE_SIZE
 * @s_dir_chunk: EXOFS_DIR_CHUNK, bytes of one directory chunk
 * @s_csum_type: with EXOFS_FEATURE_RO_COMPAT_CSUM, the data checksum:
 *	ORE_CSUM_XXH64 (2) or ORE_CSUM_CRC32C (1) (include/ore/pure.h);
 *	0 without it
 * @s_root_ino: EXOFS_ROOT_INO
 * @s_max_ino: inode numbers are below this (the bitmap has s_max_ino bits)
 * @s_next_ino: allocation hint: where the next search for a free inode
 *	starts (EXOFS_FIRST_INO .. s_max_ino - 1)
 * @s_used_inodes: inodes in use (bits set in the bitmap, the root and the
 *	reserved inode 0 included); exact when s_state is CLEAN
 * @s_mkfs_time: seconds since the epoch of mkfs
 * @s_mount_time: seconds since the epoch of the last read-write mount
 * @s_write_time: seconds since the epoch of this superblock write
 * @s_reserved: zero
 */
struct exofs_fsb {
	__le64 s_magic;
	__le32 s_version;
	__le32 s_sb_size;
	__le32 s_csum;
	__le32 s_feature_compat;
	__le32 s_feature_incompat;
	__le32 s_feature_ro_compat;
	__u8 s_uuid[EXOFS_UUID_SIZE];
	char s_label[EXOFS_LABEL_SIZE];
	struct exofs_layout_disk s_layout;
	__le32 s_num_stores;
	__le32 s_store_index;
	__u8 s_store_uuid[EXOFS_UUID_SIZE];
	__le64 s_event;
	__le32 s_state;
	__le32 s_inode_size;
	__le32 s_dir_chunk;
	__le32 s_csum_type;
	__le64 s_root_ino;
	__le64 s_max_ino;
	__le64 s_next_ino;
	__le64 s_used_inodes;
	__le64 s_mkfs_time;
	__le64 s_mount_time;
	__le64 s_write_time;
	__le64 s_reserved[16];
};

/*
 * Checksums: CRC-32C (Castagnoli, reflected polynomial 0x82F63B78), initial
 * value 0xFFFFFFFF, final XOR 0xFFFFFFFF: the standard CRC-32C whose value
 * for the nine bytes "123456789" is 0xE3069283. That is
 * ~ore_crc32c(~0, buf, len) (include/ore/pure.h), in the kernel
 * ~crc32c(~0, buf, len). Stored little endian.
 */
#define EXOFS_CRC32C_CHECK	0xE3069283U

/* ---------------------------------------------------------------------
 * The inode table (EXOFS_ITABLE_OID).
 */
#define EXOFS_INODE_SIZE	256
#define EXOFS_INLINE_SIZE	128	/* bytes of i_data */
/* A symlink target shorter than this is kept in i_data, NUL terminated */
#define EXOFS_INLINE_SYMLINK_MAX (EXOFS_INLINE_SIZE - 1)
/* Longest symlink target (PATH_MAX - 1, as symlink(2) allows) */
#define EXOFS_SYMLINK_MAX	4095
/*
 * Largest i_size (s_maxbytes): 8 TiB, so that no component object exceeds
 * what ext4 stores allow (16 TiB files).
 */
#define EXOFS_MAX_FILE_SIZE	(1ULL << 43)

/* Bits of i_flags */
#define EXOFS_INODE_FL_OBJECT	0x1	/* EXOFS_INO_OID(ino) exists */
#define EXOFS_INODE_FL_INLINE	0x2	/* symlink target in i_data */
#define EXOFS_INODE_FL_KNOWN	(EXOFS_INODE_FL_OBJECT | EXOFS_INODE_FL_INLINE)

/**
 * struct exofs_inode - one inode record, at offset ino * EXOFS_INODE_SIZE
 * @i_mode: file type and permission bits (S_IFREG, S_IFDIR, S_IFLNK,
 *	S_IFCHR, S_IFBLK, S_IFIFO, S_IFSOCK); 0 = free record
 * @i_pad0: zero
 * @i_links_count: hard links (a directory counts ".", its entry in the
 *	parent and the ".." of each subdirectory)
 * @i_uid: owner
 * @i_gid: group
 * @i_size: bytes; for a directory a multiple of EXOFS_DIR_CHUNK
 * @i_atime: last access, seconds since the epoch (signed)
 * @i_mtime: last modification, seconds (signed)
 * @i_ctime: last status change, seconds (signed)
 * @i_crtime: creation, seconds (signed)
 * @i_atime_nsec: nanoseconds of @i_atime (< 10^9)
 * @i_mtime_nsec: nanoseconds of @i_mtime
 * @i_ctime_nsec: nanoseconds of @i_ctime
 * @i_crtime_nsec: nanoseconds of @i_crtime
 * @i_generation: random at creation (NFS file handles)
 * @i_flags: EXOFS_INODE_FL_* bits
 * @i_rdev: device number of S_IFCHR/S_IFBLK, Linux new_encode_dev()
 *	encoding (minor low 8 bits | major << 8 | high minor bits << 12)
 * @i_csum: CRC-32C of the EXOFS_INODE_SIZE bytes with this field zero
 * @i_ino: the record's own inode number (catches a misplaced record)
 * @i_made: with EXOFS_FEATURE_RO_COMPAT_SIZED, the extent whose components
 *	are made (those ore_layout_obj_size() says it reaches exist); zero
 *	without it
 * @i_reserved: zero
 * @i_data: S_IFLNK with EXOFS_INODE_FL_INLINE: the target, NUL terminated
 *	(i_size bytes + NUL); else zero
 *
 * A record that is all zeros is free. Any other record must have a valid
 * @i_csum, @i_ino equal to its position and a known @i_mode.
 */
struct exofs_inode {
	__le16 i_mode;
	__le16 i_pad0;
	__le32 i_links_count;
	__le32 i_uid;
	__le32 i_gid;
	__le64 i_size;
	__le64 i_atime;
	__le64 i_mtime;
	__le64 i_ctime;
	__le64 i_crtime;
	__le32 i_atime_nsec;
	__le32 i_mtime_nsec;
	__le32 i_ctime_nsec;
	__le32 i_crtime_nsec;
	__le32 i_generation;
	__le32 i_flags;
	__le32 i_rdev;
	__le32 i_csum;
	__le64 i_ino;
	__le64 i_made;
	__le64 i_reserved[3];
	__u8 i_data[EXOFS_INLINE_SIZE];
};

/* ---------------------------------------------------------------------
 * Directories: ext2-style entries in the directory's own object.
 *
 * The object is an array of EXOFS_DIR_CHUNK byte chunks; entries never
 * cross a chunk boundary and the rec_len of the entries of a chunk add up
 * to EXOFS_DIR_CHUNK exactly. An entry with inode 0 is unused (only the
 * first of a chunk can be: deleting any other entry merges it into the one
 * before). Every directory starts with "." then "..". The position of an
 * entry (its byte offset) never changes while it exists, so readdir
 * positions are stable.
 */
#define EXOFS_DIR_CHUNK		4096
#define EXOFS_NAME_LEN		255
#define EXOFS_DIR_PAD		8
#define EXOFS_DIR_ROUND		(EXOFS_DIR_PAD - 1)
/* bytes an entry with a name of @name_len bytes needs */
#define EXOFS_DIR_REC_LEN(name_len) \
	(((name_len) + 12 + EXOFS_DIR_ROUND) & ~EXOFS_DIR_ROUND)

/* Values of file_type: the common Linux FT_* values (include/linux/fs_types.h) */
enum {
	EXOFS_FT_UNKNOWN	= 0,
	EXOFS_FT_REG_FILE	= 1,
	EXOFS_FT_DIR		= 2,
	EXOFS_FT_CHRDEV		= 3,
	EXOFS_FT_BLKDEV		= 4,
	EXOFS_FT_FIFO		= 5,
	EXOFS_FT_SOCK		= 6,
	EXOFS_FT_SYMLINK	= 7,
	EXOFS_FT_MAX
};

/**
 * struct exofs_dir_entry - one directory entry
 * @inode: inode number, 0 for an unused entry
 * @rec_len: bytes from this entry to the next, a multiple of EXOFS_DIR_PAD,
 *	at least EXOFS_DIR_REC_LEN(@name_len)
 * @name_len: bytes of @name (1..255), no NUL
 * @file_type: EXOFS_FT_* of the inode
 * @name: the name
 */
struct exofs_dir_entry {
	__le64 inode;
	__le16 rec_len;
	__u8 name_len;
	__u8 file_type;
	char name[];
};

/* Sizes are part of the format. */
#ifdef __KERNEL__
#include <linux/build_bug.h>
#define EXOFS_FS_ASSERT(cond, msg) static_assert(cond, msg)
#else
#define EXOFS_FS_ASSERT(cond, msg) _Static_assert(cond, msg)
#endif
EXOFS_FS_ASSERT(sizeof(struct exofs_layout_disk) == 24, "layout size");
EXOFS_FS_ASSERT(sizeof(struct exofs_dev_entry) == 32, "dev entry size");
EXOFS_FS_ASSERT(sizeof(struct exofs_fsb) <= EXOFS_DEVTABLE_OFFSET, "fsb size");
EXOFS_FS_ASSERT(EXOFS_DEVTABLE_OFFSET + EXOFS_MAX_STORES *
		sizeof(struct exofs_dev_entry) <= EXOFS_SB_SIZE, "devtable");
EXOFS_FS_ASSERT(sizeof(struct exofs_inode) == EXOFS_INODE_SIZE, "inode size");
EXOFS_FS_ASSERT(__builtin_offsetof(struct exofs_dir_entry, name) == 12,
		"dirent header");
EXOFS_FS_ASSERT(sizeof(struct exofs_intent_hdr) == 64, "intent header size");
EXOFS_FS_ASSERT(sizeof(struct exofs_intent_ent) == 16, "intent entry size");

#endif /* _EXOFS_EXOFS_FS_H */
