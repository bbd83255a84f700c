/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What a pure source file may use: the files built both into a kernel
 * module and into the userspace tools and unit tests (docs/sources.md
 * lists them). Fixed-width types, byte order, errno values, mem*() and
 * the CRC-32C of the on-disk formats, the same names in both worlds.
 *
 * CRC-32C, one convention for every on-disk format: ore_crc32c() is the
 * kernel's crc32c() register update (Castagnoli, reflected polynomial
 * 0x82F63B78, no inversion on the way in or out), so the caller seeds it
 * (with ~0) and decides about the final inversion. Each format states the
 * value it stores, with a check value for the nine bytes "123456789":
 *
 *	exofs	~ore_crc32c(~0, buf, len)	0xE3069283 (standard CRC-32C)
 *	oreblk	 ore_crc32c(~0, buf, len)	0x1CF96D7C (not inverted)
 *	data	 ore_csum_value(ore_crc32c(~0, block, 4096)): 0 becomes 1
 *		 (ORE_CSUM_CRC32C; ORE_CSUM_XXH64 is xxh64 instead, below)
 *
 * The two differ only by that final inversion; it stays because changing
 * either format's would change its bytes on disk.
 */
#ifndef _ORE_PURE_H
#define _ORE_PURE_H

#ifdef __KERNEL__
#include <linux/types.h>
#include <linux/errno.h>
#include <linux/string.h>
#include <linux/crc32.h>
#include <linux/xxhash.h>
#include <asm/byteorder.h>
#else
#include <stdint.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include <errno.h>
#include <endian.h>
#include <linux/types.h>	/* __le16, __le32, __le64 (linux-libc-dev) */

typedef uint64_t u64;
typedef uint32_t u32;
typedef uint16_t u16;
typedef uint8_t u8;
typedef int64_t s64;

#define le16_to_cpu(x)	le16toh(x)
#define le32_to_cpu(x)	le32toh(x)
#define le64_to_cpu(x)	le64toh(x)
#define cpu_to_le16(x)	htole16(x)
#define cpu_to_le32(x)	htole32(x)
#define cpu_to_le64(x)	htole64(x)

#define sizeof_field(TYPE, MEMBER) sizeof((((TYPE *)0)->MEMBER))
#endif

/**
 * ore_crc32c - CRC-32C register update
 * @crc: the register (~0 to start a checksum)
 * @buf: the bytes
 * @len: how many
 *
 * Return: the register after @len bytes of @buf, not inverted.
 */
static inline u32 ore_crc32c(u32 crc, const void *buf, size_t len)
{
#ifdef __KERNEL__
	return __crc32c_le(crc, buf, len);
#else
	/* four bits at a time: small, and fast enough for the tools */
	static const u32 nibble[16] = {
		0x00000000, 0x105ec76f, 0x20bd8ede, 0x30e349b1,
		0x417b1dbc, 0x5125dad3, 0x61c69362, 0x7198540d,
		0x82f63b78, 0x92a8fc17, 0xa24bb5a6, 0xb21572c9,
		0xc38d26c4, 0xd3d3e1ab, 0xe330a81a, 0xf36e6f75,
	};
	const u8 *p = buf;

	while (len--) {
		crc ^= *p++;
		crc = (crc >> 4) ^ nibble[crc & 15];
		crc = (crc >> 4) ^ nibble[crc & 15];
	}
	return crc;
#endif
}

/**
 * ore_crc32c_skip - CRC-32C register update with one field read as zero
 * @crc: the register (~0 to start a checksum)
 * @buf: the bytes
 * @len: how many
 * @field: offset in @buf of the field that counts as zero (the checksum)
 * @field_len: its size, at most 8 bytes
 *
 * Return: ore_crc32c() of @buf as if its @field_len bytes at @field were
 * zero, without writing to @buf.
 */
static inline u32 ore_crc32c_skip(u32 crc, const void *buf, size_t len,
				  size_t field, size_t field_len)
{
	static const u8 zero[8];
	const u8 *p = buf;

	crc = ore_crc32c(crc, p, field);
	crc = ore_crc32c(crc, zero, field_len);
	return ore_crc32c(crc, p + field + field_len, len - field - field_len);
}

/*
 * Data checksums of a block store (docs/stores.md, "Data checksums"): one
 * little-endian 32-bit entry per ORE_CSUM_BLOCK bytes of data, entry i for
 * data bytes [i * ORE_CSUM_BLOCK, (i + 1) * ORE_CSUM_BLOCK), in a region
 * of whole 4096-byte pages. An entry of 0 means "no checksum" (never
 * written since the region was zeroed): it is not verified. A stored entry
 * is ore_csum_value() of the block's checksum, never 0:
 *	ORE_CSUM_CRC32C	ore_crc32c(~0, block, 4096) (the kernel's crc32c())
 *	ORE_CSUM_XXH64	the low 32 bits of xxh64(block, 4096, seed 0)
 */
#define ORE_CSUM_BLOCK		4096u
/*
 * A file store keeps the entries of object <oid> in its side file
 * "<oid>" ORE_FILE_CSUM_SUFFIX, entry i at byte i * ORE_CSUM_ENTRY; entries
 * past its end or in its holes, and all of a missing side file, are 0.
 *
 * The entries of the first ORE_FILE_CSUM_HEAD blocks may instead be in
 * the extended attribute ORE_FILE_CSUM_XATTR of the object's own file
 * (docs/stores.md, "the head"): a value of 0 to ORE_FILE_CSUM_HEAD *
 * ORE_CSUM_ENTRY bytes, a multiple of ORE_CSUM_ENTRY, entry i at byte
 * i * ORE_CSUM_ENTRY; entries past its end are 0. When the attribute
 * exists it holds the entries of blocks [0, ORE_FILE_CSUM_HEAD) and the
 * side file's are not looked at; when it does not, the side file holds
 * them all. Any other length is corrupt.
 */
#define ORE_FILE_CSUM_SUFFIX	".csum"
#define ORE_FILE_CSUM_XATTR	"user.ore.csum"
#define ORE_FILE_CSUM_HEAD	16u
#define ORE_CSUM_ENTRY		4u
#define ORE_CSUM_CRC32C		1u
#define ORE_CSUM_XXH64		2u

#ifndef __KERNEL__
/*
 * ore_xxh64 - XXH64 of @len bytes of @buf with @seed, the kernel's xxh64()
 * (lib/xxhash.c) for the tools: xxHash's published algorithm, check value
 * 0xEF46DB3751D8E999 for no bytes and seed 0.
 */
#define ORE_XXH_P1	0x9E3779B185EBCA87ULL
#define ORE_XXH_P2	0xC2B2AE3D27D4EB4FULL
#define ORE_XXH_P3	0x165667B19E3779F9ULL
#define ORE_XXH_P4	0x85EBCA77C2B2AE63ULL
#define ORE_XXH_P5	0x27D4EB2F165667C5ULL

static inline u64 ore_xxh_rotl(u64 x, int r)
{
	return (x << r) | (x >> (64 - r));
}

static inline u64 ore_xxh_rd64(const u8 *p)
{
	u64 v;

	memcpy(&v, p, sizeof(v));
	return le64toh(v);
}

static inline u64 ore_xxh_round(u64 acc, u64 in)
{
	acc += in * ORE_XXH_P2;
	acc = ore_xxh_rotl(acc, 31);
	return acc * ORE_XXH_P1;
}

static inline u64 ore_xxh_merge(u64 acc, u64 val)
{
	acc ^= ore_xxh_round(0, val);
	return acc * ORE_XXH_P1 + ORE_XXH_P4;
}

static inline u64 ore_xxh64(const void *buf, size_t len, u64 seed)
{
	const u8 *p = buf, *end = p + len;
	u64 h;

	if (len >= 32) {
		u64 v1 = seed + ORE_XXH_P1 + ORE_XXH_P2, v2 = seed + ORE_XXH_P2;
		u64 v3 = seed, v4 = seed - ORE_XXH_P1;

		do {
			v1 = ore_xxh_round(v1, ore_xxh_rd64(p));
			v2 = ore_xxh_round(v2, ore_xxh_rd64(p + 8));
			v3 = ore_xxh_round(v3, ore_xxh_rd64(p + 16));
			v4 = ore_xxh_round(v4, ore_xxh_rd64(p + 24));
			p += 32;
		} while (p + 32 <= end);
		h = ore_xxh_rotl(v1, 1) + ore_xxh_rotl(v2, 7) +
		    ore_xxh_rotl(v3, 12) + ore_xxh_rotl(v4, 18);
		h = ore_xxh_merge(h, v1);
		h = ore_xxh_merge(h, v2);
		h = ore_xxh_merge(h, v3);
		h = ore_xxh_merge(h, v4);
	} else {
		h = seed + ORE_XXH_P5;
	}
	h += len;
	for (; p + 8 <= end; p += 8) {
		h ^= ore_xxh_round(0, ore_xxh_rd64(p));
		h = ore_xxh_rotl(h, 27) * ORE_XXH_P1 + ORE_XXH_P4;
	}
	if (p + 4 <= end) {
		u32 v;

		memcpy(&v, p, sizeof(v));
		h ^= (u64)le32toh(v) * ORE_XXH_P1;
		h = ore_xxh_rotl(h, 23) * ORE_XXH_P2 + ORE_XXH_P3;
		p += 4;
	}
	for (; p < end; p++) {
		h ^= *p * ORE_XXH_P5;
		h = ore_xxh_rotl(h, 11) * ORE_XXH_P1;
	}
	h ^= h >> 33;
	h *= ORE_XXH_P2;
	h ^= h >> 29;
	h *= ORE_XXH_P3;
	h ^= h >> 32;
	return h;
}
#endif

static inline u32 ore_csum_value(u32 crc)
{
	return crc ? crc : 1;
}

/* Bytes of the checksum region of @data_bytes bytes of data. */
static inline u64 ore_csum_bytes(u64 data_bytes)
{
	u64 entries = (data_bytes + ORE_CSUM_BLOCK - 1) / ORE_CSUM_BLOCK;

	return (entries * ORE_CSUM_ENTRY + 4095) / 4096 * 4096;
}

#endif /* _ORE_PURE_H */
