/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ORE read-4-write planning: which pages a partial-stripe write must read,
 * and whether it does so as reconstruct-write or read-modify-write, as pure
 * arithmetic. Compiled in the kernel (ore.ko, used by ore/write.c) and in
 * userspace (tests/unit/r4w_test.c). docs/engine.md ("Writes") describes
 * the rules.
 *
 * A stripe's data pages are indexed [col * rows + row]: @col the data
 * column (0 .. data_width - 1), @row the page inside the stripe unit
 * (0 .. rows - 1, rows = stripe_unit / page size). Parity is computed per
 * page row, so only the rows the write touches need anything.
 */
#ifndef _ORE_R4W_H
#define _ORE_R4W_H

#include <ore/layout.h>

/**
 * enum ore_r4w_pg - what a data page of a partially written stripe is
 * @ORE_R4W_NONE: its row is not touched by the write: nothing to do
 * @ORE_R4W_NEW: the write's new data
 * @ORE_R4W_CACHED: untouched, the caller's cache holds it uptodate
 * @ORE_R4W_CACHED_READ: untouched, the caller's cache gave a page that is
 *	not uptodate: ORE reads into it
 * @ORE_R4W_OWN_READ: untouched, nothing cached: ORE reads into its own page
 */
enum ore_r4w_pg {
	ORE_R4W_NONE,
	ORE_R4W_NEW,
	ORE_R4W_CACHED,
	ORE_R4W_CACHED_READ,
	ORE_R4W_OWN_READ,
};

/**
 * enum ore_r4w_how - how a partial stripe gets its new parity
 * @ORE_R4W_RCW: reconstruct-write: read the untouched data pages of the
 *	touched rows that are not cached uptodate, compute parity from rows
 * @ORE_R4W_RMW: read-modify-write: read the old data of the new pages and
 *	the old P (and Q) of each touched row; P' = P ^ D_old ^ D_new and,
 *	RAID6, Q' = Q ^ g^c (D_old ^ D_new) for each written data column c
 */
enum ore_r4w_how {
	ORE_R4W_RCW,
	ORE_R4W_RMW,
};

/**
 * struct ore_r4w_plan - the plan of one partial stripe
 * @rows: pages per stripe unit
 * @ntouched: rows the write touches
 * @rcw_reads: pages reconstruct-write reads
 * @rmw_reads: pages read-modify-write reads (old data, old P and Q)
 * @how: the choice
 */
struct ore_r4w_plan {
	u32 rows;
	u32 ntouched;
	u32 rcw_reads;
	u32 rmw_reads;
	enum ore_r4w_how how;
};

/*
 * ore_r4w_mark - mark a write of stripe bytes [@a, @b) (offsets from the
 * stripe's first data byte; @a page aligned, 0 <= @a < @b <= stripe_length)
 * in @state (data_width * rows entries, enum ore_r4w_pg) and @touched (rows
 * entries, 1 for a touched row): written pages NEW, the other data pages of
 * touched rows OWN_READ, the rest NONE. The caller may then turn OWN_READ
 * pages into CACHED or CACHED_READ from its cache. Fills @plan's @rows and
 * @ntouched.
 */
void ore_r4w_mark(const struct ore_layout *layout, u64 a, u64 b, u8 *state,
		  u8 *touched, struct ore_r4w_plan *plan);

/*
 * ore_r4w_choose - count the reads of both ways for @state/@touched (from
 * ore_r4w_mark() and the cache) and choose: read-modify-write only when it
 * reads strictly fewer pages (rmw: the written pages plus one page per
 * parity column per touched row, so RAID6 counts P and Q) and no position
 * of the stripe is lost (@dead == 0); otherwise reconstruct-write, which
 * also rebuilds a lost column on the way (ties go to rcw, as md's). Fills
 * @plan's counts and @how.
 */
enum ore_r4w_how ore_r4w_choose(const struct ore_layout *layout,
				const u8 *state, const u8 *touched, u32 dead,
				struct ore_r4w_plan *plan);

#endif /* _ORE_R4W_H */
