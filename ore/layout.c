// SPDX-License-Identifier: GPL-2.0
/*
 * ORE layout arithmetic (RFC 5664 section 5.3), shared by ore.ko, the
 * userspace tools and the userspace unit tests. Nothing in here may sleep,
 * allocate or print; errors come back as a negative errno and a reason.
 *
 * The rules, in the words of docs/layout.md:
 *
 *	stripe_unit  = bytes of one stripe unit (su)
 *	group_width  = components per group, parity included (gw)
 *	data_width   = gw - parity (dw)
 *	group_depth  = stripe units per component before the next group (D)
 *	group_count  = groups (G)
 *
 *	U = dw * su		data bytes in one stripe
 *	T = U * D		data bytes in one group (per super-stripe)
 *	S = T * G		data bytes in one super-stripe
 *
 * For a logical offset L:
 *	M = L / S		super-stripe
 *	g = (L % S) / T		group
 *	N = (L % S % T) / U	stripe inside the group
 *	C = (L % U) / su	data column inside the stripe
 *	row = M * D + N		stripe row on the group's component objects
 *	O = L % su + N * su + M * D * su = row * su + L % su
 *
 * and the data column C of stripe row r sits at group position
 * ore_layout_stripe_pos(r, C); component index = (g * gw + pos) * mirrors_p1
 * + mirror.
 */
#ifdef __KERNEL__
#include <linux/errno.h>
#include <linux/export.h>
#include <linux/mm.h>
#else
#include <errno.h>
#include <stddef.h>
#define EXPORT_SYMBOL_GPL(sym)
#endif

#include <ore/layout.h>

/* Largest stripe unit accepted (16 MiB): keeps every product below in u64. */
#define ORE_MAX_STRIPE_UNIT	(16u << 20)

static u32 ore_parity_of(u32 raid_algorithm)
{
	switch (raid_algorithm) {
	case ORE_RAID4:
	case ORE_RAID5:
		return 1;
	case ORE_RAID6:
		return 2;
	default:
		return 0;
	}
}

int ore_layout_check(struct ore_layout *layout, u32 num_devs,
		     const char **why)
{
	u64 comps;

	switch (layout->raid_algorithm) {
	case ORE_RAID0:
	case ORE_RAID4:
	case ORE_RAID5:
	case ORE_RAID6:
		break;
	default:
		*why = "raid_algorithm is not 0, 4, 5 or 6";
		return -EINVAL;
	}
	if (!layout->stripe_unit) {
		*why = "stripe_unit is zero";
		return -EINVAL;
	}
	if (layout->stripe_unit % ORE_PAGE_SIZE) {
		*why = "stripe_unit is not a multiple of the page size";
		return -EINVAL;
	}
	if (layout->stripe_unit > ORE_MAX_STRIPE_UNIT) {
		*why = "stripe_unit is larger than 16 MiB";
		return -EINVAL;
	}
	if (!layout->group_width) {
		*why = "group_width is zero";
		return -EINVAL;
	}
	if (layout->group_width > ORE_MAX_GROUP_WIDTH) {
		*why = "group_width is larger than 32";
		return -EINVAL;
	}
	layout->parity = ore_parity_of(layout->raid_algorithm);
	if (layout->group_width <= layout->parity) {
		*why = "group_width leaves no data component beside the parity";
		return -EINVAL;
	}
	if (!layout->group_depth) {
		*why = "group_depth is zero";
		return -EINVAL;
	}
	if (!layout->group_count) {
		*why = "group_count is zero";
		return -EINVAL;
	}
	if (!layout->mirrors_p1) {
		*why = "mirrors_p1 is zero";
		return -EINVAL;
	}
	if (layout->mirrors_p1 > ORE_MAX_MIRRORS_P1) {
		*why = "mirrors_p1 is larger than 8";
		return -EINVAL;
	}
	comps = (u64)layout->group_width * layout->group_count *
		layout->mirrors_p1;
	if (comps > ORE_MAX_COMPONENTS) {
		*why = "group_width * group_count * mirrors_p1 exceeds 1024 components";
		return -EINVAL;
	}
	if (comps > num_devs) {
		*why = "layout needs more components than there are devices";
		return -EINVAL;
	}

	layout->data_width = layout->group_width - layout->parity;
	layout->stripe_length = (u64)layout->data_width * layout->stripe_unit;
	/* U < 2^29, depth < 2^32, count <= 1024: T * count < 2^71; check. */
	layout->group_length = layout->stripe_length * layout->group_depth;
	if (layout->group_length > (~0ULL >> 1) / layout->group_count) {
		*why = "group_depth * group_count overflows the logical size";
		return -EINVAL;
	}
	layout->super_stripe = layout->group_length * layout->group_count;
	layout->num_comps = (u32)comps;
	*why = NULL;
	return 0;
}
EXPORT_SYMBOL_GPL(ore_layout_check);

u32 ore_layout_stripe_pos(const struct ore_layout *layout, u64 row, u32 col)
{
	u32 gw = layout->group_width;
	u32 dw = layout->data_width;
	u32 par = layout->parity;
	u32 first_par;

	if (layout->raid_algorithm == ORE_RAID0 ||
	    layout->raid_algorithm == ORE_RAID4)
		return col;

	/*
	 * RAID5 and RAID6: the parity block (P, then Q for RAID6) of stripe
	 * row r starts at position (gw - parity - r) mod gw, so row 0 keeps
	 * its parity on the last components and every next row moves it one
	 * to the left; the data columns follow the parity cyclically. For
	 * RAID5 this is md's left-symmetric layout.
	 */
	first_par = (2 * gw - par - (u32)(row % gw)) % gw;
	if (col >= dw)
		return (first_par + (col - dw)) % gw;
	return (first_par + par + col) % gw;
}

void ore_layout_row_pos(const struct ore_layout *layout, u64 row, u32 *pos)
{
	u32 gw = layout->group_width;
	u32 p, c;

	/* as ore_layout_stripe_pos(): column 0 sits after the parity */
	if (layout->raid_algorithm == ORE_RAID0 ||
	    layout->raid_algorithm == ORE_RAID4)
		p = 0;
	else
		p = (2 * gw - (u32)(row % gw)) % gw;
	for (c = 0; c < gw; c++) {
		pos[c] = p;
		if (++p == gw)
			p = 0;
	}
}
EXPORT_SYMBOL_GPL(ore_layout_row_pos);

void ore_calc_stripe_info(const struct ore_layout *layout, u64 offset,
			  struct ore_striping_info *si)
{
	u32 su = layout->stripe_unit;
	u64 U = layout->stripe_length;
	u64 T = layout->group_length;
	u64 S = layout->super_stripe;
	u64 M = offset / S;
	u64 in_super = offset - M * S;
	u32 group = (u32)(in_super / T);
	u64 in_group = in_super - (u64)group * T;
	u32 N = (u32)(in_group / U);
	u32 in_stripe = (u32)(in_group - (u64)N * U);
	u32 col = in_stripe / su;
	u64 row = M * layout->group_depth + N;

	si->offset = offset;
	si->M = M;
	si->group = group;
	si->N = N;
	si->row = row;
	si->col = col;
	si->unit_off = in_stripe - col * su;
	si->obj_offset = row * su + si->unit_off;
	si->length = T - in_group;
	si->first_stripe_start = offset - in_stripe;
	si->bytes_in_stripe = (u32)U;
	si->dev = ore_layout_comp(layout, group,
				  ore_layout_stripe_pos(layout, row, col), 0);
	si->par_dev = 0;
	si->q_dev = 0;
	if (layout->parity) {
		u32 p_pos = ore_layout_stripe_pos(layout, row,
						  layout->data_width);

		si->par_dev = ore_layout_comp(layout, group, p_pos, 0);
	}
	if (layout->parity > 1) {
		u32 q_pos = ore_layout_stripe_pos(layout, row,
						  layout->data_width + 1);

		si->q_dev = ore_layout_comp(layout, group, q_pos, 0);
	}
}
EXPORT_SYMBOL_GPL(ore_calc_stripe_info);

/**
 * ore_layout_pos_col - the column a group position holds on a stripe row
 * @layout: a verified layout
 * @row: the stripe row on the component objects
 * @pos: the group position, 0 .. group_width - 1
 *
 * The inverse of ore_layout_stripe_pos().
 *
 * Return: data column 0 .. data_width - 1, data_width for P, data_width + 1
 * for Q.
 */
u32 ore_layout_pos_col(const struct ore_layout *layout, u64 row, u32 pos)
{
	u32 gw = layout->group_width;
	u32 par = layout->parity;
	u32 first_par, d;

	if (layout->raid_algorithm == ORE_RAID0 ||
	    layout->raid_algorithm == ORE_RAID4)
		return pos;

	/* ore_layout_stripe_pos() backwards: P, Q, then the data columns */
	first_par = (2 * gw - par - (u32)(row % gw)) % gw;
	d = (pos + gw - first_par) % gw;
	if (d < par)
		return layout->data_width + d;
	return d - par;
}
EXPORT_SYMBOL_GPL(ore_layout_pos_col);

u64 ore_layout_comp_stripes(const struct ore_layout *layout, u32 comp,
			    u64 obj_off, u64 max_rows, u64 *rows)
{
	u64 depth = layout->group_depth;
	u64 row = obj_off / layout->stripe_unit;
	u32 group = comp / (layout->group_width * layout->mirrors_p1);
	u64 M = row / depth, N = row % depth;

	/* one group: its rows are the logical stripes, in order */
	if (layout->group_count == 1)
		*rows = max_rows;
	else
		*rows = depth - N < max_rows ? depth - N : max_rows;
	return M * layout->super_stripe + group * layout->group_length +
	       N * layout->stripe_length;
}
EXPORT_SYMBOL_GPL(ore_layout_comp_stripes);

u64 ore_layout_obj_size(const struct ore_layout *layout, u32 comp, u64 size)
{
	u32 su = layout->stripe_unit;
	u64 depth = layout->group_depth;
	u32 group, pos, col;
	struct ore_striping_info si;
	u64 unit;

	if (!size)
		return 0;
	group = comp / layout->mirrors_p1 / layout->group_width;
	pos = comp / layout->mirrors_p1 % layout->group_width;
	ore_calc_stripe_info(layout, size - 1, &si);

	if (group < si.group)
		return (si.M + 1) * depth * su;
	if (group > si.group)
		return si.M * depth * su;

	col = ore_layout_pos_col(layout, si.row, pos);
	if (col >= layout->data_width)	/* parity: as long as the longest */
		unit = si.col ? su : si.unit_off + 1;
	else if (col < si.col)
		unit = su;
	else if (col == si.col)
		unit = si.unit_off + 1;
	else
		unit = 0;
	return si.row * su + unit;
}
EXPORT_SYMBOL_GPL(ore_layout_obj_size);

static bool ore_bit(const unsigned long *map, u32 bit)
{
	return (map[bit / ORE_BITS_PER_LONG] >> (bit % ORE_BITS_PER_LONG)) & 1;
}

/**
 * ore_layout_group_lost - positions of a group lost with some devices
 * @layout: a verified layout
 * @group: the group, 0 .. group_count - 1
 * @lost: bitmap of the lost devices (kernel bitmap convention)
 * @numdevs: devices the components rotate over
 * @first_dev: device of component 0; component c is on device
 *	(@first_dev + c) % @numdevs
 *
 * Return: how many positions of @group have every mirror on a lost device.
 */
u32 ore_layout_group_lost(const struct ore_layout *layout, u32 group,
			  const unsigned long *lost, u32 numdevs,
			  u32 first_dev)
{
	u32 pos, m, nr = 0;

	for (pos = 0; pos < layout->group_width; pos++) {
		for (m = 0; m < layout->mirrors_p1; m++) {
			u32 comp = ore_layout_comp(layout, group, pos, m);

			if (!ore_bit(lost, (u32)(((u64)first_dev + comp) %
						 numdevs)))
				break;
		}
		nr += m == layout->mirrors_p1;
	}
	return nr;
}
EXPORT_SYMBOL_GPL(ore_layout_group_lost);

/**
 * ore_layout_survives - can an object still be read with devices lost?
 * @layout: a verified layout
 * @lost: bitmap of the lost devices (kernel bitmap convention)
 * @numdevs: devices the components rotate over
 * @first_dev: device of component 0 (see ore_layout_group_lost())
 *
 * Return: true when no group has lost more positions (all of a position's
 * mirrors) than it has parity components.
 */
bool ore_layout_survives(const struct ore_layout *layout,
			 const unsigned long *lost, u32 numdevs,
			 u32 first_dev)
{
	u32 g;

	for (g = 0; g < layout->group_count; g++)
		if (ore_layout_group_lost(layout, g, lost, numdevs, first_dev) >
		    layout->parity)
			return false;
	return true;
}
EXPORT_SYMBOL_GPL(ore_layout_survives);

/**
 * ore_layout_survives_any_dev - survives() wherever an object starts
 * @layout: a verified layout
 * @lost: bitmap of the lost devices (kernel bitmap convention)
 * @numdevs: devices; objects start on any of them
 *
 * Return: true when ore_layout_survives() holds for every first_dev
 * 0 .. @numdevs - 1 (the question for exofs, whose objects rotate).
 */
bool ore_layout_survives_any_dev(const struct ore_layout *layout,
				 const unsigned long *lost, u32 numdevs)
{
	u32 fd;

	for (fd = 0; fd < numdevs; fd++)
		if (!ore_layout_survives(layout, lost, numdevs, fd))
			return false;
	return true;
}
EXPORT_SYMBOL_GPL(ore_layout_survives_any_dev);

/**
 * ore_layout_raid_name - the RAID level of a layout, as a word
 * @raid_algorithm: &enum ore_raid_algorithm
 * @mirrors_p1: copies of each component
 *
 * Return: a static string: "raid0", "raid1" (raid0 with mirrors), "raid4",
 * "raid5", "raid6", for mirrored parity layouts "raid4+1", "raid5+1",
 * "raid6+1"; "unknown" for an algorithm ORE does not know.
 */
const char *ore_layout_raid_name(u32 raid_algorithm, u32 mirrors_p1)
{
	bool m = mirrors_p1 > 1;

	switch (raid_algorithm) {
	case ORE_RAID0:
		return m ? "raid1" : "raid0";
	case ORE_RAID4:
		return m ? "raid4+1" : "raid4";
	case ORE_RAID5:
		return m ? "raid5+1" : "raid5";
	case ORE_RAID6:
		return m ? "raid6+1" : "raid6";
	}
	return "unknown";
}
EXPORT_SYMBOL_GPL(ore_layout_raid_name);

/**
 * ore_layout_cut - cut a logical range at stripe boundaries
 * @layout: a verified layout
 * @offset: logical offset
 * @length: bytes, not 0
 * @cut: receives the partial head stripe, the whole stripes and the
 *	partial tail stripe (see &struct ore_stripe_cut)
 *
 * How parity writes are planned (ORE, exofs writeback, oreblk): whole
 * stripes need no reads, the partial head and tail do.
 */
void ore_layout_cut(const struct ore_layout *layout, u64 offset, u64 length,
		    struct ore_stripe_cut *cut)
{
	u64 U = layout->stripe_length;
	u64 end = offset + length;
	u64 head_end = offset, tail_off;

	if (offset % U)		/* up to the next boundary, or the end */
		head_end = end - offset < U - offset % U ?
			   end : offset - offset % U + U;
	tail_off = end - end % U;
	if (tail_off < head_end)
		tail_off = head_end;
	if (tail_off == offset) {	/* inside one stripe: all head */
		head_end = end;
		tail_off = end;
	}
	cut->head_off = offset;
	cut->head_len = head_end - offset;
	cut->full_off = head_end;
	cut->full_len = tail_off - head_end;
	cut->tail_off = tail_off;
	cut->tail_len = end - tail_off;
}
EXPORT_SYMBOL_GPL(ore_layout_cut);
