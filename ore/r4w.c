// SPDX-License-Identifier: GPL-2.0
/*
 * ORE read-4-write planning (pure: compiled into ore.ko and into the
 * userspace unit tests). See include/ore/r4w.h.
 */
#ifdef __KERNEL__
#include <linux/mm.h>
#endif
#include <ore/r4w.h>

void ore_r4w_mark(const struct ore_layout *layout, u64 a, u64 b, u8 *state,
		  u8 *touched, struct ore_r4w_plan *plan)
{
	u32 rows = layout->stripe_unit / ORE_PAGE_SIZE;
	u32 dw = layout->data_width, c, j;
	u64 off;

	plan->rows = rows;
	plan->ntouched = 0;
	for (j = 0; j < rows; j++)
		touched[j] = 0;
	for (c = 0; c < dw; c++)
		for (j = 0; j < rows; j++)
			state[c * rows + j] = ORE_R4W_NONE;
	for (off = a; off < b; off += ORE_PAGE_SIZE) {
		c = (u32)(off / layout->stripe_unit);
		j = (u32)(off % layout->stripe_unit / ORE_PAGE_SIZE);
		state[c * rows + j] = ORE_R4W_NEW;
		if (!touched[j]) {
			touched[j] = 1;
			plan->ntouched++;
		}
	}
	for (c = 0; c < dw; c++)
		for (j = 0; j < rows; j++)
			if (touched[j] && state[c * rows + j] != ORE_R4W_NEW)
				state[c * rows + j] = ORE_R4W_OWN_READ;
}

enum ore_r4w_how ore_r4w_choose(const struct ore_layout *layout,
				const u8 *state, const u8 *touched, u32 dead,
				struct ore_r4w_plan *plan)
{
	u32 rows = plan->rows, n = layout->data_width * rows, i;

	plan->rcw_reads = 0;
	/* old P (and old Q) of each touched row */
	plan->rmw_reads = plan->ntouched * layout->parity;
	for (i = 0; i < n; i++) {
		if (!touched[i % rows])
			continue;
		if (state[i] == ORE_R4W_NEW)
			plan->rmw_reads++;
		else if (state[i] != ORE_R4W_CACHED)
			plan->rcw_reads++;
	}
	plan->how = ORE_R4W_RCW;
	if (layout->parity && !dead && plan->rmw_reads < plan->rcw_reads)
		plan->how = ORE_R4W_RMW;
	return plan->how;
}
