/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ORE layout: the RFC 5664 section 5.3 data mapping, as pure arithmetic.
 *
 * This header and ore/layout.c compile both in the kernel (part of ore.ko)
 * and in userspace (tests/unit, tools/), so it uses only fixed-width types
 * and no kernel-only helpers. docs/layout.md is the prose version of the
 * rules implemented here; keep the two in step.
 */
#ifndef _ORE_LAYOUT_H
#define _ORE_LAYOUT_H

#include <ore/pure.h>	/* u64 & co. in userspace too */

/* Largest group_width we accept (data plus parity components of a group). */
#define ORE_MAX_GROUP_WIDTH	32
/* Largest number of components (group_width * group_count * mirrors_p1). */
#define ORE_MAX_COMPONENTS	1024
/* Largest number of copies of each component (1 + mirrors). */
#define ORE_MAX_MIRRORS_P1	8

/* ORE_PAGE_SIZE is PAGE_SIZE in the kernel and 4096 in userspace tools. */
#ifdef __KERNEL__
#define ORE_PAGE_SIZE		PAGE_SIZE
#else
#define ORE_PAGE_SIZE		4096u
#endif

/**
 * enum ore_raid_algorithm - how a group's components hold data and parity
 * @ORE_RAID0: striping only, no parity (RFC 5664 PNFS_OSD_RAID_0)
 * @ORE_RAID4: one parity component, always the group's last
 * @ORE_RAID5: one parity component, rotating left every stripe
 * @ORE_RAID6: P and Q parity (RFC 5664 PNFS_OSD_RAID_PQ), adjacent, rotating
 *
 * Mirroring (RAID1) is orthogonal: mirrors_p1 > 1 with any of the above.
 * The values are the on-disk values used by exofs and oreblk.
 */
enum ore_raid_algorithm {
	ORE_RAID0 = 0,
	ORE_RAID4 = 4,
	ORE_RAID5 = 5,
	ORE_RAID6 = 6,
};

/**
 * struct ore_layout - how a logical byte range maps onto components
 * @stripe_unit: bytes of one stripe unit, a multiple of the page size
 * @group_width: components per group, parity components included
 * @group_depth: stripe units per component before the next group starts
 * @group_count: number of groups
 * @mirrors_p1: copies of every component (1 = no mirroring)
 * @raid_algorithm: one of &enum ore_raid_algorithm
 *
 * The fields below are derived by ore_verify_layout() and must not be set
 * by the caller:
 * @parity: parity components per stripe (0, 1 or 2)
 * @data_width: group_width - parity
 * @stripe_length: data bytes per stripe (U = data_width * stripe_unit)
 * @group_length: data bytes per group before the next group (T = U * depth)
 * @super_stripe: data bytes of one pass over all groups (S = T * count)
 * @num_comps: components used (group_width * group_count * mirrors_p1)
 */
struct ore_layout {
	u32 stripe_unit;
	u32 group_width;
	u32 group_depth;
	u32 group_count;
	u32 mirrors_p1;
	u32 raid_algorithm;

	u32 parity;
	u32 data_width;
	u64 stripe_length;
	u64 group_length;
	u64 super_stripe;
	u32 num_comps;
};

/**
 * struct ore_striping_info - where one logical byte lives
 * @offset: the logical offset this describes
 * @obj_offset: byte offset inside the component objects of its group row
 * @length: data bytes from @offset to the end of its group (in this M)
 * @first_stripe_start: logical offset of the first byte of its stripe
 * @M: super-stripe number (offset / S)
 * @group: group number (0 .. group_count - 1)
 * @N: stripe number inside the group (0 .. group_depth - 1)
 * @row: stripe row on the component objects (M * group_depth + N)
 * @col: data column inside the stripe (0 .. data_width - 1)
 * @unit_off: offset inside the stripe unit
 * @dev: component index of the first mirror holding the byte
 * @par_dev: component index of the first mirror of P (parity layouts)
 * @q_dev: component index of the first mirror of Q (RAID6 only)
 * @bytes_in_stripe: data bytes per stripe (U)
 */
struct ore_striping_info {
	u64 offset;
	u64 obj_offset;
	u64 length;
	u64 first_stripe_start;
	u64 M;
	u32 group;
	u32 N;
	u64 row;
	u32 col;
	u32 unit_off;
	u32 dev;
	u32 par_dev;
	u32 q_dev;
	u32 bytes_in_stripe;
};

/*
 * ore_layout_check - validate @layout for @num_devs devices and fill in the
 * derived fields. Returns 0 or a negative errno; on error *@why names the
 * offending field (a static string). ore_verify_layout() in the kernel is
 * this plus a pr_err.
 */
int ore_layout_check(struct ore_layout *layout, u32 num_devs,
		     const char **why);

void ore_calc_stripe_info(const struct ore_layout *layout, u64 offset,
			  struct ore_striping_info *si);

/*
 * ore_layout_stripe_pos - component position (0 .. group_width - 1, inside
 * the group) of data column @col, of P (@col == data_width) or of Q
 * (@col == data_width + 1), on stripe row @row.
 */
u32 ore_layout_stripe_pos(const struct ore_layout *layout, u64 row, u32 col);

/*
 * ore_layout_row_pos - ore_layout_stripe_pos() of every column of stripe row
 * @row at once: @pos[col] for col 0 .. group_width - 1 (data columns, P,
 * Q), with one division instead of group_width.
 */
void ore_layout_row_pos(const struct ore_layout *layout, u64 row, u32 *pos);

/*
 * ore_layout_comp - component index of group position @pos of group @group,
 * mirror @mirror.
 */
static inline u32 ore_layout_comp(const struct ore_layout *layout, u32 group,
				  u32 pos, u32 mirror)
{
	return (group * layout->group_width + pos) * layout->mirrors_p1 +
	       mirror;
}

/*
 * ore_layout_obj_size - the length component @comp's object has when the
 * logical object is @size bytes long (data and parity units that hold at
 * least one byte below @size, parity units counted to the longest data unit
 * of their stripe).
 */
u64 ore_layout_obj_size(const struct ore_layout *layout, u32 comp, u64 size);

/*
 * ore_layout_comp_stripes - the stripes that hold component @comp's object
 * bytes from @obj_off (rounded down to its stripe row) on: returns the
 * logical offset of the first such stripe and sets *@rows to the number of
 * consecutive rows, at most @max_rows (>= 1), that are also logically
 * consecutive (with several groups: the rows of one group_depth block). What a
 * rebuild of one component walks: its rows in object order.
 */
u64 ore_layout_comp_stripes(const struct ore_layout *layout, u32 comp,
			    u64 obj_off, u64 max_rows, u64 *rows);

/* The column that position @pos holds on @row (stripe_pos inverted). */
u32 ore_layout_pos_col(const struct ore_layout *layout, u64 row, u32 pos);

/* ---------------------------------------------------------------------
 * Redundancy: which losses a layout survives.
 *
 * Lost devices are a bitmap in the kernel's convention (bit b is bit
 * b % ORE_BITS_PER_LONG of word b / ORE_BITS_PER_LONG), so a kernel
 * DECLARE_BITMAP() and a userspace array of ORE_BITMAP_LONGS(n) unsigned
 * longs both work. Component c of an object lives on device
 * (first_dev + c) % numdevs (as &struct ore_components places it).
 */
#define ORE_BITS_PER_LONG	(8 * sizeof(unsigned long))
#define ORE_BITMAP_LONGS(n)	(((n) + ORE_BITS_PER_LONG - 1) / ORE_BITS_PER_LONG)

u32 ore_layout_group_lost(const struct ore_layout *layout, u32 group,
			  const unsigned long *lost, u32 numdevs,
			  u32 first_dev);

bool ore_layout_survives(const struct ore_layout *layout,
			 const unsigned long *lost, u32 numdevs,
			 u32 first_dev);

bool ore_layout_survives_any_dev(const struct ore_layout *layout,
				 const unsigned long *lost, u32 numdevs);

const char *ore_layout_raid_name(u32 raid_algorithm, u32 mirrors_p1);

/* ---------------------------------------------------------------------
 * Cutting a logical range at stripe boundaries (parity writes).
 */

/**
 * struct ore_stripe_cut - a logical range cut at stripe boundaries
 * @head_off: start of the partial first stripe
 * @head_len: its bytes; 0 when the range starts with a whole stripe
 * @full_off: start of the whole stripes (a stripe boundary)
 * @full_len: their bytes (a multiple of the stripe length), maybe 0
 * @tail_off: start of the partial last stripe (a stripe boundary)
 * @tail_len: its bytes; 0 when the range ends with a whole stripe or lies
 *	in one stripe (then it is all head)
 *
 * The three pieces follow each other and together are the range. A stripe
 * is stripe_length data bytes starting at a multiple of stripe_length.
 */
struct ore_stripe_cut {
	u64 head_off;
	u64 head_len;
	u64 full_off;
	u64 full_len;
	u64 tail_off;
	u64 tail_len;
};

void ore_layout_cut(const struct ore_layout *layout, u64 offset, u64 length,
		    struct ore_stripe_cut *cut);

#endif /* _ORE_LAYOUT_H */
