/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * oreblk: the on-disk member superblock and the control interface of
 * /dev/oreblk-control, shared by oreblk.ko and the userspace tools
 * (tools/oreblk.c, tests/tools/oreblk_check.c). docs/oreblk.md is the prose
 * version; keep the two in step.
 *
 * Every member of an array carries one superblock, OREBLK_SB_SIZE bytes at
 * byte OREBLK_SB_OFFSET of the device. The array's data lives in
 * [data_offset, data_offset + data_size) of every member: that range is
 * component object number member_index of the ORE layout (component
 * numbering of include/ore/layout.h: (group * group_width + position) *
 * mirrors_p1 + mirror), object offset 0 at data_offset.
 *
 * Everything on disk is little endian. The checksum is the CRC32C
 * (Castagnoli, reflected polynomial 0x82f63b78) of all OREBLK_SB_SIZE bytes
 * with the csum field taken as zero, seeded with ~0 and not inverted at the
 * end: ore_crc32c(~0, sb, OREBLK_SB_SIZE) of include/ore/pure.h, the
 * kernel's crc32c(~0, sb, OREBLK_SB_SIZE); check value 0x1CF96D7C for the
 * nine bytes "123456789" (exofs inverts it: see include/ore/pure.h). The
 * rules a valid superblock obeys are code in one place, oreblk/sb.c
 * (include/oreblk/sb.h), built into oreblk.ko and into the tools.
 */
#ifndef _OREBLK_OREBLK_FS_H
#define _OREBLK_OREBLK_FS_H

#include <linux/types.h>
#include <linux/ioctl.h>

/* ---------------------------------------------------------------------
 * The member superblock.
 */

#define OREBLK_SB_OFFSET	4096	/* bytes from the start of the member */
#define OREBLK_SB_SIZE		4096	/* bytes, covered by the checksum */
/* Default and smallest data_offset: the first MiB is the superblock's. */
#define OREBLK_DATA_OFFSET	(1u << 20)
/* "ORBK" read as a little-endian 32-bit number */
#define OREBLK_SB_MAGIC		0x4b42524fu
#define OREBLK_SB_VERSION	1
/* Largest number of members (= ORE components) of one array. */
#define OREBLK_MAX_MEMBERS	64
#define OREBLK_UUID_SIZE	16
#define OREBLK_NAME_LEN		32

/**
 * struct oreblk_sb - superblock of one member
 * @magic: OREBLK_SB_MAGIC
 * @version: OREBLK_SB_VERSION
 * @csum: CRC32C of the OREBLK_SB_SIZE bytes, this field as zero
 * @flags: OREBLK_SB_FL_* bits; no others
 * (@flags and @recovery_offset describe this member alone: the other
 * members' superblocks do not carry them)
 * @array_uuid: identity of the array, the same on every member
 * @member_uuid: identity of this member, == @member_uuids[@member_index]
 * @member_index: this member's ORE component number, 0 .. @nr_members - 1
 * @nr_members: members of the array, == the layout's number of components
 * @raid_algorithm: enum ore_raid_algorithm (0, 4, 5 or 6)
 * @stripe_unit: bytes per stripe unit (chunk), a multiple of 4096
 * @group_width: components per group, parity included
 * @group_depth: stripe units per component before the next group
 * @group_count: number of groups
 * @mirrors_p1: copies of every component (1 = no mirroring)
 * @data_offset: byte offset of the data range on every member, a multiple
 *	of 4096, at least OREBLK_DATA_OFFSET
 * @data_size: bytes of the data range on every member (one component
 *	object), a multiple of stripe_unit * group_depth
 * @array_size: logical bytes of the array: (@data_size / (@stripe_unit *
 *	@group_depth)) super-stripes of the layout
 * @events: generation counter, raised every time the superblocks are
 *	rewritten for a change of state (a member failed); a member whose
 *	@events is lower than the others' missed that change and is stale
 * @ctime: creation time, seconds since the epoch
 * @utime: time of the last superblock update, seconds since the epoch
 * @faulty_map: bit i set: member i is faulty (failed or missing); only
 *	the superblocks with the highest @events are authoritative
 * @name: array name, NUL padded, informational
 * @member_uuids: @member_uuid of every member, by member index
 * @recovery_offset: with OREBLK_SB_FL_RECOVERING, bytes of this member's
 *	data range already rebuilt (and flushed), a multiple of 4096 up to
 *	@data_size: the rebuild resumes there; 0 otherwise
 * @array_state: OREBLK_SB_ST_* bits, the same on every member in service;
 *	0 in superblocks written before these bits existed (clean)
 * @pad: zero
 * @resync_offset: with OREBLK_SB_ST_DIRTY, the logical byte of the array
 *	from which its redundancy may disagree with the data (0 after an
 *	unclean shutdown: anywhere; a resync stopped by a clean stop resumes
 *	there), a multiple of the layout's stripe length up to @array_size;
 *	0 otherwise
 * @consistency: how the array keeps its redundancy in step with its data
 *	across a crash: OREBLK_CONSISTENCY_RESYNC (0, also what superblocks
 *	written before this field existed say: the dirty state and a resync
 *	of the whole array) or OREBLK_CONSISTENCY_INTENT (the write-intent
 *	bitmap below; only on layouts with parity or mirrors)
 * @intent_bytes: with OREBLK_CONSISTENCY_INTENT, bytes of the write-intent
 *	bitmap on every member, OREBLK_INTENT_BYTES; 0 otherwise
 * @intent_offset: with OREBLK_CONSISTENCY_INTENT, byte offset of the
 *	bitmap on every member, a multiple of 4096, after the superblock and
 *	before @data_offset; 0 otherwise
 * @intent_region: with OREBLK_CONSISTENCY_INTENT, logical bytes of the
 *	array that one bit of the bitmap covers, a non-zero multiple of the
 *	layout's stripe length; bit i (bit i % 8 of byte i / 8) covers
 *	[i * @intent_region, (i + 1) * @intent_region); there are
 *	DIV_ROUND_UP(@array_size, @intent_region) bits, at most 8 *
 *	@intent_bytes; 0 otherwise
 * @csum_type: checksums of the data: OREBLK_CSUM_NONE (0, also what
 *	superblocks written before this field existed say),
 *	OREBLK_CSUM_CRC32C or OREBLK_CSUM_XXH64 (only with
 *	OREBLK_CONSISTENCY_INTENT)
 * @pad2: zero
 * @csum_offset: with OREBLK_CSUM_CRC32C, byte offset on every member of
 *	the checksum region, a multiple of 4096, at or after the end of the
 *	data range: ore_csum_bytes(@data_size) bytes, one little-endian
 *	entry per 4096 bytes of the member's data range (include/ore/pure.h:
 *	entry i is ore_csum_value() of block i's CRC-32C or of the low 32
 *	bits of its XXH64, 0 for a block not written since create zeroed the
 *	region); 0 otherwise
 * @reserved: zeros
 */
struct oreblk_sb {
	__le32 magic;
	__le32 version;
	__le32 csum;
	__le32 flags;
	__u8   array_uuid[OREBLK_UUID_SIZE];
	__u8   member_uuid[OREBLK_UUID_SIZE];
	__le32 member_index;
	__le32 nr_members;
	__le32 raid_algorithm;
	__le32 stripe_unit;
	__le32 group_width;
	__le32 group_depth;
	__le32 group_count;
	__le32 mirrors_p1;
	__le64 data_offset;
	__le64 data_size;
	__le64 array_size;
	__le64 events;
	__le64 ctime;
	__le64 utime;
	__le64 faulty_map;
	char   name[OREBLK_NAME_LEN];
	__u8   member_uuids[OREBLK_MAX_MEMBERS][OREBLK_UUID_SIZE];
	__le64 recovery_offset;
	__le32 array_state;
	__le32 pad;
	__le64 resync_offset;
	__le32 consistency;
	__le32 intent_bytes;
	__le64 intent_offset;
	__le64 intent_region;
	__le32 csum_type;
	__le32 pad2;
	__le64 csum_offset;
	__u8   reserved[OREBLK_SB_SIZE - 232 -
			OREBLK_MAX_MEMBERS * OREBLK_UUID_SIZE];
};

/*
 * &oreblk_sb.flags: this member is a new one being rebuilt (its bit is set
 * in @faulty_map until the rebuild is over); valid below @recovery_offset.
 */
#define OREBLK_SB_FL_RECOVERING	(1u << 0)

/*
 * &oreblk_sb.array_state: the array may have been written without its
 * parity or mirrors catching up (set, FUA, before the first write after
 * assembly; cleared by a clean stop), or a resync is unfinished; the
 * next assembly resyncs from @resync_offset (md's "dirty" array, its
 * resync_offset).
 */
#define OREBLK_SB_ST_DIRTY	(1u << 0)

/*
 * &oreblk_sb.consistency (docs/oreblk.md, "Consistency after a crash").
 *
 * OREBLK_CONSISTENCY_INTENT: the write-intent bitmap. Before a write of a
 * region reaches any member, the region's bit is on stable storage (FUA) in
 * the bitmap of every member in service; a bit is cleared once its region
 * has had no write for a while and the members' caches were flushed. An
 * assembly that finds the array dirty repairs the regions whose bit is set
 * on any member (the union), before the array serves I/O: its redundancy
 * agrees with its data again before a member can be lost, so a member lost
 * afterwards is rebuilt right (the RAID5/6 write hole is closed). A dirty
 * array whose bitmaps are empty had no write in flight: it starts degraded
 * without --force.
 */
#define OREBLK_CONSISTENCY_RESYNC	0
#define OREBLK_CONSISTENCY_INTENT	1
/* The bitmap: one page, right after the superblock. */
#define OREBLK_INTENT_BYTES	4096
#define OREBLK_INTENT_OFFSET	(OREBLK_SB_OFFSET + OREBLK_SB_SIZE)
#define OREBLK_INTENT_MAX_BITS	(8 * OREBLK_INTENT_BYTES)
/* Smallest default region (tools/oreblk create): 4 MiB, in whole stripes. */
#define OREBLK_INTENT_MIN_REGION	(4u << 20)

/*
 * &oreblk_sb.csum_type (docs/oreblk.md, "Data checksums"). With
 * checksums every 4096-byte block of every member's data range has an
 * entry in the member's checksum region; a read that does not match is
 * rebuilt from the redundancy and rewritten. Entries and data are written
 * in no order: the write-intent repair after a crash restamps the entries
 * of the regions it names from their data, so the type needs the intent
 * policy.
 */
#define OREBLK_CSUM_NONE	0
#define OREBLK_CSUM_CRC32C	1	/* == ORE_CSUM_CRC32C */
#define OREBLK_CSUM_XXH64	2	/* == ORE_CSUM_XXH64 */

/* ---------------------------------------------------------------------
 * The control device, /dev/oreblk-control (misc). Every ioctl needs
 * CAP_SYS_ADMIN. On failure the ioctl returns -1 with errno set and, where
 * the structure has one, @msg says why in words (the kernel log has the
 * same line).
 */

#define OREBLK_CONTROL_NAME	"oreblk-control"
#define OREBLK_MSG_LEN		160
#define OREBLK_PATH_LEN		64	/* member paths, NUL included */
/* &oreblk_ctl_assemble.index: take the lowest free number */
#define OREBLK_INDEX_ANY	0xffffffffu
#define OREBLK_MAX_INDEX	4095

/* &oreblk_ctl_assemble.flags: start a dirty degraded array all the same */
#define OREBLK_ASSEMBLE_FORCE	(1u << 0)

/**
 * struct oreblk_ctl_assemble - OREBLK_CTL_ASSEMBLE: start an array
 * @index: in: N of /dev/oreblkN, or OREBLK_INDEX_ANY; out: the N used
 * @flags: in: OREBLK_ASSEMBLE_* bits
 * @paths: in: user address of @nr_paths member device paths, each NUL
 *	terminated, back to back, @paths_len bytes in all; any order
 * @paths_len: in: bytes at @paths
 * @nr_paths: in: number of paths, 1 .. OREBLK_MAX_MEMBERS
 * @nr_members: out: members of the array
 * @nr_active: out: members in service (less than @nr_members: degraded)
 * @msg: out: why it failed, or a note on a degraded start
 *
 * The kernel reads every member's superblock and checks it (magic,
 * checksum, version, layout, sizes against the device, agreement with the
 * other members); members are ordered by their superblocks. Members that
 * are stale (lower events), marked faulty by the freshest superblocks or
 * not given are missing; the array starts degraded while every group keeps
 * enough components, and the missing members are then marked faulty on
 * disk. An array whose superblocks say it is dirty (OREBLK_SB_ST_DIRTY)
 * starts a resync; one both dirty and degraded is refused ("cannot start
 * dirty degraded array": its parity may be stale, and what is rebuilt from
 * it would be wrong) unless OREBLK_ASSEMBLE_FORCE. Errors: -EINVAL (bad
 * argument, a path given twice, a member of another array, superblocks
 * that disagree), -ENOENT/-ENOTBLK (bad path), -EBUSY (a member in use),
 * -EUCLEAN (no valid superblock: a foreign device), -ENXIO (too many
 * members missing), -EIO (dirty and degraded, without
 * OREBLK_ASSEMBLE_FORCE), -EEXIST (/dev/oreblkN in use, or the array is
 * running already).
 */
struct oreblk_ctl_assemble {
	__u32 index;
	__u32 flags;
	__u64 paths;
	__u32 paths_len;
	__u32 nr_paths;
	__u32 nr_members;
	__u32 nr_active;
	char  msg[OREBLK_MSG_LEN];
};

/**
 * struct oreblk_ctl_stop - OREBLK_CTL_STOP: stop an array
 * @index: in: N of /dev/oreblkN
 * @flags: in: zero
 * @msg: out: why it failed
 *
 * Errors: -ENODEV (no such array), -EBUSY (the device is open).
 */
struct oreblk_ctl_stop {
	__u32 index;
	__u32 flags;
	char  msg[OREBLK_MSG_LEN];
};

/* &oreblk_ctl_member.state */
enum oreblk_member_state {
	OREBLK_MEMBER_ACTIVE = 0,	/* in service */
	OREBLK_MEMBER_FAULTY = 1,	/* failed while running */
	OREBLK_MEMBER_MISSING = 2,	/* not there at assembly (or stale) */
	OREBLK_MEMBER_REBUILDING = 3,	/* added, its data being rebuilt */
	OREBLK_MEMBER_REPLACING = 4,	/* in service, being copied onto a new
					 * device (OREBLK_CTL_REPLACE) */
};

/**
 * struct oreblk_ctl_member - one member in OREBLK_CTL_DETAIL
 * @state: enum oreblk_member_state
 * @errors: I/O errors seen on the member
 * @uuid: the member's uuid (from the superblocks)
 * @path: device path it was assembled from ("" when missing)
 */
struct oreblk_ctl_member {
	__u32 state;
	__u32 errors;
	__u8  uuid[OREBLK_UUID_SIZE];
	char  path[OREBLK_PATH_LEN];
};

/**
 * struct oreblk_ctl_detail - OREBLK_CTL_DETAIL: describe a running array
 * @index: in: N of /dev/oreblkN
 * @nr_members: out: members (entries of @members used)
 * @array_uuid: out
 * @name: out
 * @raid_algorithm: out: the layout, as in &struct oreblk_sb
 * @stripe_unit: out
 * @group_width: out
 * @group_depth: out
 * @group_count: out
 * @mirrors_p1: out
 * @nr_failed: out: members faulty or missing (non-zero: degraded)
 * @array_size: out: logical bytes
 * @data_offset: out
 * @data_size: out
 * @events: out: the events counter of the superblocks in service
 * @cache_size: out: stripe cache size (entries)
 * @cache_active: out: stripe cache entries allocated
 * @cache_hits: out: read-4-write pages the stripe cache had
 * @cache_misses: out: read-4-write pages it did not have
 * @members: out: by member index
 */
struct oreblk_ctl_detail {
	__u32 index;
	__u32 nr_members;
	__u8  array_uuid[OREBLK_UUID_SIZE];
	char  name[OREBLK_NAME_LEN];
	__u32 raid_algorithm;
	__u32 stripe_unit;
	__u32 group_width;
	__u32 group_depth;
	__u32 group_count;
	__u32 mirrors_p1;
	__u32 nr_failed;
	__u32 pad;
	__u64 array_size;
	__u64 data_offset;
	__u64 data_size;
	__u64 events;
	__u64 cache_size;
	__u64 cache_active;
	__u64 cache_hits;
	__u64 cache_misses;
	struct oreblk_ctl_member members[OREBLK_MAX_MEMBERS];
};

/**
 * struct oreblk_ctl_fail - OREBLK_CTL_FAIL: mark a member faulty (tests,
 *	mdadm --fail)
 * @index: in: N of /dev/oreblkN
 * @member: in: member index
 * @msg: out: why it failed
 *
 * Errors: -ENODEV (no such array), -EINVAL (no such member), -EALREADY
 * (not in service), -ENXIO (failing it would lose data: beyond the
 * redundancy).
 */
struct oreblk_ctl_fail {
	__u32 index;
	__u32 member;
	char  msg[OREBLK_MSG_LEN];
};

/**
 * struct oreblk_ctl_add - OREBLK_CTL_ADD: a new device replaces a member
 *	that is out of service, and is rebuilt in the background (mdadm --add)
 * @index: in: N of /dev/oreblkN
 * @member: out: the member it became (the first one out of service)
 * @path: in: the device, NUL terminated
 * @msg: out: why it failed
 *
 * The device gets a new member uuid and superblock; the others keep it
 * marked faulty until its rebuild is over (sysfs sync_action, members).
 * Errors: -ENODEV (no such array), -EBUSY (a recovery runs, or the device
 * is in use), -ENOSPC (no member out of service), -EINVAL (smaller than
 * data_offset + data_size, or a layout without redundancy), the open's
 * error.
 */
struct oreblk_ctl_add {
	__u32 index;
	__u32 member;
	char  path[OREBLK_PATH_LEN];
	char  msg[OREBLK_MSG_LEN];
};

/**
 * struct oreblk_ctl_replace - OREBLK_CTL_REPLACE: copy a member in service
 *	onto a new device, then put the new device in its place (mdadm
 *	--replace)
 * @index: in: N of /dev/oreblkN
 * @member: in: the member to replace
 * @path: in: the new device, NUL terminated
 * @msg: out: why it failed
 *
 * The member stays in service while the sync thread copies its data range
 * onto the new device (sysfs sync_action says "recover"): reads use it,
 * writes go to both, so the array never loses redundancy. A block that
 * fails its checksum on the old member is rebuilt from the redundancy
 * first. At the end the new device takes the member's place under a new
 * member uuid, and the old device's superblock is erased and the device
 * released. The copy is not recorded on disk: after a stop or a crash the
 * old member is still the member, and the replace starts again from the
 * beginning on request. If the old member fails during the copy, it fails
 * as any member does and the replace is given up (add the new device
 * with OREBLK_CTL_ADD); if the new one fails, the replace is given up.
 * Errors: -ENODEV (no such array), -EINVAL (no such member, a layout
 * without redundancy, a device smaller than data_offset + data_size),
 * -EALREADY (the member is not in service), -EBUSY (a sync runs, or the
 * device is in use or a member), the open's error.
 */
struct oreblk_ctl_replace {
	__u32 index;
	__u32 member;
	char  path[OREBLK_PATH_LEN];
	char  msg[OREBLK_MSG_LEN];
};

/**
 * struct oreblk_ctl_remove - OREBLK_CTL_REMOVE: let go of the device of a
 *	faulty member (mdadm --remove)
 * @index: in: N of /dev/oreblkN
 * @member: in: member index
 * @msg: out: why it failed
 *
 * The member becomes missing and its device is closed once no I/O uses
 * it any more; the superblocks keep it faulty. Errors: -ENODEV (no such
 * array), -EINVAL (no such member), -EBUSY (it is in service or being
 * rebuilt: fail it first, or stop the rebuild), -EALREADY (missing
 * already).
 */
struct oreblk_ctl_remove {
	__u32 index;
	__u32 member;
	char  msg[OREBLK_MSG_LEN];
};

#define OREBLK_CTL_MAGIC	0xb7
#define OREBLK_CTL_ASSEMBLE	_IOWR(OREBLK_CTL_MAGIC, 1, struct oreblk_ctl_assemble)
#define OREBLK_CTL_STOP		_IOWR(OREBLK_CTL_MAGIC, 2, struct oreblk_ctl_stop)
#define OREBLK_CTL_DETAIL	_IOWR(OREBLK_CTL_MAGIC, 3, struct oreblk_ctl_detail)
#define OREBLK_CTL_FAIL		_IOWR(OREBLK_CTL_MAGIC, 4, struct oreblk_ctl_fail)
#define OREBLK_CTL_ADD		_IOWR(OREBLK_CTL_MAGIC, 5, struct oreblk_ctl_add)
#define OREBLK_CTL_REPLACE	_IOWR(OREBLK_CTL_MAGIC, 6, struct oreblk_ctl_replace)
#define OREBLK_CTL_REMOVE	_IOWR(OREBLK_CTL_MAGIC, 7, struct oreblk_ctl_remove)

_Static_assert(sizeof(struct oreblk_sb) == OREBLK_SB_SIZE,
	       "struct oreblk_sb must be OREBLK_SB_SIZE bytes");
_Static_assert(sizeof(struct oreblk_ctl_detail) < (1 << 14),
	       "ioctl argument too large for _IOWR");

#endif /* _OREBLK_OREBLK_FS_H */
