// SPDX-License-Identifier: GPL-2.0
/*
 * Userspace test of ore/r4w.c (read-4-write planning) against a brute-force
 * model.
 *
 * The model looks at one page of the stripe at a time by its byte offset:
 * page p (stripe bytes [p * 4096, (p + 1) * 4096)) is in data column
 * p * 4096 / stripe_unit and page row p % rows; it is written when the
 * write [a, b) covers any of its bytes; a row is touched when any page of
 * it is written. For every parity layout shape (RAID4/5 and RAID6, group
 * width up to 12, stripe units of 1 to 4 pages), every page-aligned write
 * [a, b) inside one stripe, and every combination of cache answers for the
 * pages the write does not cover (exhaustive up to 3^5 combinations,
 * random samples beyond), it checks the marks, the read counts of both
 * ways and the choice:
 *
 *	rcw reads = untouched data pages of touched rows not cached uptodate
 *	rmw reads = written pages + one P (RAID6: one P and one Q) per
 *		    touched row
 *	rmw only with no lost position and strictly fewer reads (ties: rcw)
 *
 * The output is KTAP; the exit code is non-zero if any case fails.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ore/r4w.h>

#define PG		4096u
#define MAX_PAGES	(12 * 4)
#define EXHAUSTIVE_MAX	5	/* 3^5 cache combinations per write */
#define SAMPLES		40	/* random cache combinations beyond that */
#define __printf(a, b)	__attribute__((format(printf, a, b)))
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

static unsigned long case_fails, n_plans, n_writes;
static unsigned int ncase, npass, nfail;
static unsigned long long rng = 0x7234772d706c616eULL;

static unsigned int rnd_below(unsigned int n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned int)(rng % n);
}

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

static void report(const char *name)
{
	ncase++;
	if (case_fails) {
		printf("not ok %u %s (%lu failures)\n", ncase, name, case_fails);
		nfail++;
	} else {
		printf("ok %u %s\n", ncase, name);
		npass++;
	}
	case_fails = 0;
}

static int layout_init(struct ore_layout *l, u32 alg, u32 gw, u32 su_pages)
{
	const char *why;

	memset(l, 0, sizeof(*l));
	l->stripe_unit = su_pages * PG;
	l->group_width = gw;
	l->group_depth = 1;
	l->group_count = 1;
	l->mirrors_p1 = 1;
	l->raid_algorithm = alg;
	return ore_layout_check(l, gw, &why);
}

/* One write [a, b) of one layout, with the cache answers in @cache. */
static void check_plan(const struct ore_layout *l, u64 a, u64 b,
		       const u8 *cache, u32 dead)
{
	u32 rows = l->stripe_unit / PG, dw = l->data_width;
	u32 npages = dw * rows, p, j, touched_rows = 0;
	u32 want_rcw = 0, want_rmw = 0, k = 0;
	u8 written[MAX_PAGES] = { 0 }, row_touched[MAX_PAGES] = { 0 };
	u8 *state = malloc(npages), *touched = malloc(rows);
	struct ore_r4w_plan plan;
	enum ore_r4w_how how, want_how;

	n_plans++;
	for (p = 0; p < npages; p++)
		if ((u64)p * PG < b && (u64)(p + 1) * PG > a)
			written[p] = 1;
	for (p = 0; p < npages; p++)
		if (written[p] && !row_touched[p % rows]) {
			row_touched[p % rows] = 1;
			touched_rows++;
		}

	ore_r4w_mark(l, a, b, state, touched, &plan);
	if (plan.rows != rows || plan.ntouched != touched_rows)
		failf("%u+%u gw%u su%u [%llu,%llu): rows %u ntouched %u, want %u %u",
		      dw, l->parity, l->group_width, l->stripe_unit,
		      (unsigned long long)a, (unsigned long long)b, plan.rows,
		      plan.ntouched, rows, touched_rows);
	for (j = 0; j < rows; j++)
		if (touched[j] != row_touched[j])
			failf("gw%u su%u [%llu,%llu): row %u touched %u, want %u",
			      l->group_width, l->stripe_unit,
			      (unsigned long long)a, (unsigned long long)b, j,
			      touched[j], row_touched[j]);
	/* state is [col * rows + row]; the model's page p is column p / rows */
	for (p = 0; p < npages; p++) {
		u32 i = p / rows * rows + p % rows;
		u8 want = written[p] ? ORE_R4W_NEW :
			  row_touched[p % rows] ? ORE_R4W_OWN_READ :
			  ORE_R4W_NONE;

		if (state[i] != want) {
			failf("gw%u su%u [%llu,%llu): page %u marked %u, want %u",
			      l->group_width, l->stripe_unit,
			      (unsigned long long)a, (unsigned long long)b, p,
			      state[i], want);
			continue;
		}
		if (want != ORE_R4W_OWN_READ)
			continue;
		/* the caller's cache: 0 nothing, 1 uptodate, 2 to be read */
		if (cache[k] == 1)
			state[i] = ORE_R4W_CACHED;
		else if (cache[k] == 2)
			state[i] = ORE_R4W_CACHED_READ;
		want_rcw += cache[k] != 1;
		k++;
	}
	for (p = 0; p < npages; p++)
		want_rmw += written[p];
	want_rmw += touched_rows * l->parity;	/* old P, and old Q */
	want_how = !dead && want_rmw < want_rcw ?
		   ORE_R4W_RMW : ORE_R4W_RCW;

	how = ore_r4w_choose(l, state, touched, dead, &plan);
	if (plan.rcw_reads != want_rcw || plan.rmw_reads != want_rmw ||
	    how != want_how || plan.how != how)
		failf("%u+%u su%u [%llu,%llu) dead %u: rcw %u rmw %u how %d, want %u %u %d",
		      dw, l->parity, l->stripe_unit, (unsigned long long)a,
		      (unsigned long long)b, dead, plan.rcw_reads,
		      plan.rmw_reads, how, want_rcw, want_rmw, want_how);
	free(state);
	free(touched);
}

/* Untouched data pages of touched rows of write [a, b): the cache asks. */
static u32 cache_candidates(const struct ore_layout *l, u64 a, u64 b)
{
	u32 rows = l->stripe_unit / PG, npages = l->data_width * rows, p, n = 0;
	u8 written[MAX_PAGES] = { 0 }, row_touched[MAX_PAGES] = { 0 };

	for (p = 0; p < npages; p++)
		if ((u64)p * PG < b && (u64)(p + 1) * PG > a) {
			written[p] = 1;
			row_touched[p % rows] = 1;
		}
	for (p = 0; p < npages; p++)
		n += !written[p] && row_touched[p % rows];
	return n;
}

typedef void (*shape_fn)(const struct ore_layout *l);

static void for_each_shape(shape_fn fn)
{
	static const u32 algs[] = { ORE_RAID4, ORE_RAID5, ORE_RAID6 };
	struct ore_layout l;
	u32 ai, gw, su;

	for (ai = 0; ai < 3; ai++)
		for (gw = 2; gw <= 12; gw++)
			for (su = 1; su <= 4; su++)
				if (!layout_init(&l, algs[ai], gw, su))
					fn(&l);
}

/* Write [a, b) with every cache answer (or SAMPLES random ones). */
static void check_write(const struct ore_layout *l, u64 a, u64 b, u32 dead)
{
	u32 n = cache_candidates(l, a, b), combos = 1, c, i, v;
	u8 cache[MAX_PAGES];

	if (n > EXHAUSTIVE_MAX) {
		for (c = 0; c < SAMPLES; c++) {
			for (i = 0; i < n; i++)
				cache[i] = rnd_below(3);
			check_plan(l, a, b, cache, dead);
		}
		return;
	}
	for (i = 0; i < n; i++)
		combos *= 3;
	for (c = 0; c < combos; c++) {
		for (i = 0, v = c; i < n; i++, v /= 3)
			cache[i] = v % 3;
		check_plan(l, a, b, cache, dead);
	}
}

static void shape_all_writes(const struct ore_layout *l)
{
	u64 U = l->stripe_length, a, b;

	for (a = 0; a < U; a += PG)
		for (b = a + PG; b <= U; b += PG) {
			n_writes++;
			check_write(l, a, b, 0);
			check_write(l, a, b, 1);
		}
}

static void case_every_write_every_cache(void)
{
	for_each_shape(shape_all_writes);
	printf("# %lu writes, %lu plans checked\n", n_writes, n_plans);
	report("every_write_every_cache_answer_matches_model");
}

/*
 * md's choice for one page written, nothing cached: rmw reads D, P (and Q),
 * rcw the dw - 1 other data pages; so rmw from 4 data columns up for RAID5
 * and from 5 up for RAID6.
 */
static void shape_one_page(const struct ore_layout *l)
{
	u32 rows = l->stripe_unit / PG, dw = l->data_width;
	u8 *state = malloc(dw * rows), *touched = malloc(rows);
	struct ore_r4w_plan plan;
	enum ore_r4w_how how;

	ore_r4w_mark(l, 0, PG, state, touched, &plan);
	how = ore_r4w_choose(l, state, touched, 0, &plan);
	if (plan.rcw_reads != dw - 1 || plan.rmw_reads != 1 + l->parity)
		failf("%u+%u: 4 KiB write reads rcw %u rmw %u, want %u %u",
		      dw, l->parity, plan.rcw_reads, plan.rmw_reads, dw - 1,
		      1 + l->parity);
	if (how != (dw > 2 + l->parity ? ORE_R4W_RMW : ORE_R4W_RCW))
		failf("%u+%u: 4 KiB write chose %d", dw, l->parity, how);
	free(state);
	free(touched);
}

static void case_one_page_write(void)
{
	for_each_shape(shape_one_page);
	report("one_page_write_rmw_iff_fewer_reads");
}

/*
 * RAID6 by hand, nothing cached, su = 1 page: { gw, first page, pages,
 * rcw reads, rmw reads, rmw? }.
 */
static const struct {
	u32 gw, first, n, rcw, rmw;
	bool rmw_wins;
} raid6_table[] = {
	{ 6, 0, 1, 3, 3, false },	/* 4 data: D+P+Q = 3 others: tie, rcw */
	{ 7, 2, 1, 4, 3, true },	/* 5 data: the first width rmw wins */
	{ 8, 5, 1, 5, 3, true },
	{ 8, 0, 2, 4, 4, false },	/* tie again */
	{ 8, 1, 3, 3, 5, false },
	{ 12, 3, 3, 7, 5, true },	/* 10 data */
	{ 12, 0, 5, 5, 7, false },
	{ 12, 0, 10, 0, 12, false },	/* the whole stripe */
};

static void case_raid6_table(void)
{
	u8 state[12], touched[1];
	struct ore_layout l;
	struct ore_r4w_plan plan;
	unsigned int t;

	for (t = 0; t < ARRAY_SIZE(raid6_table); t++) {
		u32 a = raid6_table[t].first * PG;

		if (layout_init(&l, ORE_RAID6, raid6_table[t].gw, 1)) {
			failf("gw %u rejected", raid6_table[t].gw);
			continue;
		}
		ore_r4w_mark(&l, a, a + raid6_table[t].n * PG, state, touched,
			     &plan);
		ore_r4w_choose(&l, state, touched, 0, &plan);
		if (plan.rcw_reads != raid6_table[t].rcw ||
		    plan.rmw_reads != raid6_table[t].rmw ||
		    (plan.how == ORE_R4W_RMW) != raid6_table[t].rmw_wins)
			failf("raid6 gw%u pages %u+%u: rcw %u rmw %u how %d",
			      raid6_table[t].gw, raid6_table[t].first,
			      raid6_table[t].n, plan.rcw_reads,
			      plan.rmw_reads, plan.how);
		ore_r4w_choose(&l, state, touched, 1, &plan);
		if (plan.how != ORE_R4W_RCW)
			failf("raid6 gw%u: rmw with a lost position",
			      raid6_table[t].gw);
	}
	report("raid6_rmw_by_hand_table");
}

/* A whole stripe reads nothing either way's rcw; a whole row the same. */
static void shape_full(const struct ore_layout *l)
{
	u32 rows = l->stripe_unit / PG, dw = l->data_width, j;
	u8 *state = malloc(dw * rows), *touched = malloc(rows);
	struct ore_r4w_plan plan;

	ore_r4w_mark(l, 0, l->stripe_length, state, touched, &plan);
	ore_r4w_choose(l, state, touched, 0, &plan);
	if (plan.rcw_reads || plan.how != ORE_R4W_RCW || plan.ntouched != rows)
		failf("%u+%u su%u: full stripe rcw reads %u how %d",
		      dw, l->parity, l->stripe_unit, plan.rcw_reads, plan.how);
	for (j = 0; j < dw * rows; j++)
		if (state[j] != ORE_R4W_NEW)
			failf("full stripe page %u not new", j);
	free(state);
	free(touched);
}

static void case_full_stripe(void)
{
	for_each_shape(shape_full);
	report("full_stripe_reads_nothing");
}

int main(void)
{
	const char *seed = getenv("ORE_TEST_SEED");

	if (seed)
		rng ^= strtoull(seed, NULL, 0) * 0x9e3779b97f4a7c15ULL;
	printf("KTAP version 1\n1..4\n");
	case_every_write_every_cache();
	case_one_page_write();
	case_raid6_table();
	case_full_stripe();
	printf("# %u passed, %u failed\n", npass, nfail);
	return nfail ? 1 : 0;
}
