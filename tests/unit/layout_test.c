// SPDX-License-Identifier: GPL-2.0
/*
 * Userspace test of ore/layout.c against a brute-force reference model.
 *
 * The model never uses the closed-form formulas of ore/layout.c. It walks
 * the logical address space one stripe unit at a time, fills every group row
 * by row (super-stripe by super-stripe, group by group), counts the rows of
 * each group as it fills them, and places parity by the rules of
 * docs/layout.md stated directly:
 *
 *	RAID0	data column c on position c
 *	RAID4	P on the group's last position, data c on position c
 *	RAID5	P of row 0 on position gw - 1, one position to the left (with
 *		wrap) on every next row; data column 0 right after P, the
 *		others following cyclically (md left-symmetric)
 *	RAID6	P of row 0 on position gw - 2, one position to the left on
 *		every next row; Q right after P; data right after Q, cyclic
 *	mirrors	component of (group g, position p, mirror i) =
 *		(g * gw + p) * mirrors_p1 + i, i.e. the copies are adjacent
 *
 * Every layout of the grid below is then checked field by field, offset by
 * offset, and for the bijection, parity-rotation and object-size properties.
 * The output is KTAP; the exit code is non-zero if any case fails.
 * ORE_TEST_SEED=<n> in the environment changes the random offsets.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <ore/layout.h>

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define __printf(a, b)	__attribute__((format(printf, a, b)))

typedef unsigned __int128 u128;
typedef int64_t s64;
#define fallthrough	__attribute__((__fallthrough__))

/* The grid every case walks (the brief of issue 4). */
#define GRID_MAX_GW	12
#define GRID_MAX_MIRRORS 3
#define GRID_MAX_DEPTH	4
#define GRID_MAX_COUNT	3
static const u32 grid_algs[] = { ORE_RAID0, ORE_RAID4, ORE_RAID5, ORE_RAID6 };
static const u32 grid_units[] = { 4096, 8192 };
#define GRID_SIZE	(ARRAY_SIZE(grid_algs) * GRID_MAX_GW * \
			 GRID_MAX_MIRRORS * GRID_MAX_DEPTH * GRID_MAX_COUNT * \
			 ARRAY_SIZE(grid_units))

/* (algorithm, group_width) pairs, for what depends on nothing else */
#define NR_SHAPES	(ARRAY_SIZE(grid_algs) * ORE_MAX_GROUP_WIDTH)
#define SHAPE_ALG(i)	(grid_algs[(i) / ORE_MAX_GROUP_WIDTH])
#define SHAPE_GW(i)	((u32)((i) % ORE_MAX_GROUP_WIDTH) + 1)

/* Super-stripes walked exhaustively by the model (at least). */
#define MIN_SUPER_STRIPES 3

/* ---------------------------------------------------------------------
 * Reporting
 */

static unsigned long case_fails;

static __printf(1, 2) void failf(const char *fmt, ...);
static void failf(const char *fmt, ...)
{
	va_list ap;

	if (case_fails++ >= 20) {
		if (case_fails == 21)
			printf("# (further failures of this case not shown)\n");
		return;
	}
	printf("# FAIL: ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

static const char *lstr(const struct ore_layout *l)
{
	static char buf[128];

	snprintf(buf, sizeof(buf),
		 "su=%" PRIu32 " gw=%" PRIu32 " raid=%" PRIu32 " D=%" PRIu32
		 " G=%" PRIu32 " m=%" PRIu32, l->stripe_unit, l->group_width,
		 l->raid_algorithm, l->group_depth, l->group_count,
		 l->mirrors_p1);
	return buf;
}

/* Counters for the final summary. */
static u64 n_layouts_checked, n_offsets_checked, n_sizes_checked;
static u64 n_rejects_checked, n_grid_layouts, n_obj_calls;

/* ---------------------------------------------------------------------
 * Random numbers (splitmix64), reproducible from the seed
 */

static u64 rng_state = 0x6f72656c61796f75ULL;

static u64 rnd64(void)
{
	u64 z = (rng_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Uniform enough in [0, n) for n > 0. */
static u64 rnd_below(u64 n)
{
	return rnd64() % n;
}

/* ---------------------------------------------------------------------
 * The reference model
 */

static u32 model_parity(u32 alg)
{
	if (alg == ORE_RAID4 || alg == ORE_RAID5)
		return 1;
	if (alg == ORE_RAID6)
		return 2;
	return 0;
}

/* Next position to the right, wrapping. */
static u32 pos_next(u32 pos, u32 gw)
{
	return pos + 1 == gw ? 0 : pos + 1;
}

/* Next position to the left, wrapping. */
static u32 pos_prev(u32 pos, u32 gw)
{
	return pos == 0 ? gw - 1 : pos - 1;
}

/*
 * Fill pos_of[row * gw + col] for rows 0 .. nrows - 1: the position of data
 * column col (0 .. dw - 1), of P (col dw) and of Q (col dw + 1), by the
 * rules in the header comment, stepping from row to row.
 */
static void model_rotation(u32 alg, u32 gw, u64 nrows, u32 *pos_of)
{
	u32 par = model_parity(alg);
	u32 dw = gw - par;
	u32 p = 0, pos, c;
	u64 r;

	for (r = 0; r < nrows; r++) {
		u32 *row = pos_of + r * gw;

		switch (alg) {
		case ORE_RAID0:
			for (c = 0; c < gw; c++)
				row[c] = c;
			break;
		case ORE_RAID4:
			for (c = 0; c < dw; c++)
				row[c] = c;
			row[dw] = gw - 1;
			break;
		case ORE_RAID5:
		case ORE_RAID6:
			if (r == 0)
				p = gw - par;	/* P of row 0 */
			else
				p = pos_prev(p, gw);
			row[dw] = p;
			pos = p;
			if (par == 2) {
				pos = pos_next(pos, gw);
				row[dw + 1] = pos;
			}
			for (c = 0; c < dw; c++) {
				pos = pos_next(pos, gw);
				row[c] = pos;
			}
			break;
		}
	}
}

#define CELL_EMPTY	(-1)
#define CELL_P		(-2)
#define CELL_Q		(-3)

/* One logical stripe unit as the model placed it. */
struct munit {
	u64 M;
	u64 row;
	u64 stripe_first;	/* first logical unit of its stripe */
	u64 group_end;		/* first logical unit after its group, this M */
	u32 group;
	u32 N;
	u32 col;
	u32 pos;
};

struct model {
	struct ore_layout l;	/* verified by ore_layout_check() */
	u32 su, gw, dw, par, D, G, mp1;
	u32 ncomps;
	u64 nsuper;		/* super-stripes placed */
	u64 period;		/* super-stripes after which placement repeats */
	u64 nunits;		/* logical stripe units placed */
	u64 nrows;		/* rows per component object */
	u64 S;			/* bytes per super-stripe, counted */
	u32 *comp_tab;		/* [(g * gw + pos) * mp1 + i]: counted order */
	u32 *pos_of;		/* [row * gw + col] */
	struct munit *unit;	/* [nunits] */
	s64 *cell;		/* [comp * nrows + row]: unit, CELL_P, CELL_Q */
};

static u32 mcomp(const struct model *m, u32 g, u32 pos, u32 mirror)
{
	return m->comp_tab[(g * m->gw + pos) * m->mp1 + mirror];
}

static u64 gcd64(u64 a, u64 b)
{
	while (b) {
		u64 t = a % b;

		a = b;
		b = t;
	}
	return a;
}

static void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);

	if (!p) {
		printf("# out of memory\n");
		exit(2);
	}
	return p;
}

/* Put @val into (every mirror of) position @pos of group @g on row @r. */
static int model_place(struct model *m, u32 g, u32 pos, u64 r, s64 val)
{
	u32 i;

	for (i = 0; i < m->mp1; i++) {
		s64 *ce = &m->cell[(u64)mcomp(m, g, pos, i) * m->nrows + r];

		if (*ce != CELL_EMPTY)
			return -1;
		*ce = val;
	}
	return 0;
}

/*
 * Fill stripe @n of group @g in super-stripe @s, which is row @r of the
 * group's components, with logical units @k .. @k + dw - 1; @gend is the
 * first unit after the group in this super-stripe.
 */
static int model_fill_stripe(struct model *m, u64 s, u32 g, u32 n, u64 r,
			     u64 k, u64 gend)
{
	const u32 *rp = m->pos_of + r * m->gw;
	u32 c;

	for (c = 0; c < m->dw; c++) {
		struct munit *u = &m->unit[k + c];

		u->M = s;
		u->group = g;
		u->N = n;
		u->row = r;
		u->col = c;
		u->pos = rp[c];
		u->stripe_first = k;
		u->group_end = gend;
		if (model_place(m, g, rp[c], r, (s64)(k + c)))
			return -1;
	}
	for (c = m->dw; c < m->gw; c++)
		if (model_place(m, g, rp[c], r,
				c == m->dw ? CELL_P : CELL_Q))
			return -1;
	return 0;
}

/*
 * Build the model of a verified layout: place at least MIN_SUPER_STRIPES
 * super-stripes, and at least one full period of the parity rotation (the
 * rotation has period gw rows, a super-stripe adds D rows to each group).
 * Returns 0, or -1 if the model contradicts itself (a bug in this file).
 */
static int model_build(struct model *m, const struct ore_layout *l)
{
	u64 *rowctr, k = 0, s, r;
	u32 g, n, i, pos, cnt = 0;

	memset(m, 0, sizeof(*m));
	m->l = *l;
	m->su = l->stripe_unit;
	m->gw = l->group_width;
	m->par = model_parity(l->raid_algorithm);
	m->dw = m->gw - m->par;
	m->D = l->group_depth;
	m->G = l->group_count;
	m->mp1 = l->mirrors_p1;
	m->ncomps = m->gw * m->G * m->mp1;
	m->period = m->gw / gcd64(m->gw, m->D);
	m->nsuper = m->period > MIN_SUPER_STRIPES ? m->period :
		    MIN_SUPER_STRIPES;
	/* the placement repeats after any multiple of the period */
	m->nsuper = (m->nsuper + m->period - 1) / m->period * m->period;
	m->nrows = m->nsuper * m->D;
	m->nunits = m->nsuper * m->G * m->D * m->dw;

	m->comp_tab = xcalloc(m->ncomps, sizeof(*m->comp_tab));
	for (g = 0; g < m->G; g++)
		for (pos = 0; pos < m->gw; pos++)
			for (i = 0; i < m->mp1; i++)
				m->comp_tab[(g * m->gw + pos) * m->mp1 + i] =
					cnt++;

	m->pos_of = xcalloc(m->nrows * m->gw, sizeof(*m->pos_of));
	model_rotation(l->raid_algorithm, m->gw, m->nrows, m->pos_of);

	m->unit = xcalloc(m->nunits, sizeof(*m->unit));
	m->cell = xcalloc((size_t)m->ncomps * m->nrows, sizeof(*m->cell));
	for (k = 0; k < (u64)m->ncomps * m->nrows; k++)
		m->cell[k] = CELL_EMPTY;
	rowctr = xcalloc(m->G, sizeof(*rowctr));

	k = 0;
	for (s = 0; s < m->nsuper; s++) {
		for (g = 0; g < m->G; g++) {
			u64 gend = k + (u64)m->D * m->dw;

			for (n = 0; n < m->D; n++) {
				r = rowctr[g]++;
				if (model_fill_stripe(m, s, g, n, r, k, gend))
					goto bad;
				k += m->dw;
			}
		}
		if (s == 0)
			m->S = k * m->su;
	}
	free(rowctr);
	for (k = 0; k < (u64)m->ncomps * m->nrows; k++)
		if (m->cell[k] == CELL_EMPTY)
			return -1;
	return 0;
bad:
	free(rowctr);
	return -1;
}

static void model_free(struct model *m)
{
	free(m->comp_tab);
	free(m->pos_of);
	free(m->unit);
	free(m->cell);
}

/* What ore_calc_stripe_info() must say about offset L < nunits * su. */
static void model_si(const struct model *m, u64 L, struct ore_striping_info *e)
{
	u64 k = L / m->su;
	u32 uo = (u32)(L % m->su);
	const struct munit *u = &m->unit[k];
	const u32 *rp = m->pos_of + u->row * m->gw;

	memset(e, 0, sizeof(*e));
	e->offset = L;
	e->obj_offset = u->row * m->su + uo;
	e->length = (u->group_end - k) * m->su - uo;
	e->first_stripe_start = u->stripe_first * m->su;
	e->M = u->M;
	e->group = u->group;
	e->N = u->N;
	e->row = u->row;
	e->col = u->col;
	e->unit_off = uo;
	e->dev = mcomp(m, u->group, u->pos, 0);
	if (m->par >= 1)
		e->par_dev = mcomp(m, u->group, rp[m->dw], 0);
	if (m->par >= 2)
		e->q_dev = mcomp(m, u->group, rp[m->dw + 1], 0);
	e->bytes_in_stripe = m->dw * m->su;
}

/*
 * Shift an expectation by j rotation periods: the placement of offset
 * L + j * period * S is that of L, period * D * j rows further down.
 */
static void model_si_shift(const struct model *m, struct ore_striping_info *e,
			   u64 j)
{
	u64 dm = j * m->period;

	e->offset += dm * m->S;
	e->first_stripe_start += dm * m->S;
	e->M += dm;
	e->row += dm * m->D;
	e->obj_offset += dm * m->D * m->su;
}

/* Compare every field; returns the number of differing fields. */
static int si_compare(const struct ore_layout *l,
		      const struct ore_striping_info *got,
		      const struct ore_striping_info *want)
{
	int bad = 0;

#define CMP_FIELD(f) do {						\
	if (got->f != want->f) {					\
		failf("%s offset %" PRIu64 ": " #f " is %" PRIu64	\
		      ", model says %" PRIu64, lstr(l), want->offset,	\
		      (u64)got->f, (u64)want->f);			\
		bad++;							\
	}								\
} while (0)
	CMP_FIELD(offset);
	CMP_FIELD(obj_offset);
	CMP_FIELD(length);
	CMP_FIELD(first_stripe_start);
	CMP_FIELD(M);
	CMP_FIELD(group);
	CMP_FIELD(N);
	CMP_FIELD(row);
	CMP_FIELD(col);
	CMP_FIELD(unit_off);
	CMP_FIELD(dev);
	CMP_FIELD(par_dev);
	CMP_FIELD(q_dev);
	CMP_FIELD(bytes_in_stripe);
#undef CMP_FIELD
	return bad;
}

static void calc_si(const struct ore_layout *l, u64 L,
		    struct ore_striping_info *si)
{
	memset(si, 0xa5, sizeof(*si));	/* catch fields left unset */
	ore_calc_stripe_info(l, L, si);
	n_offsets_checked++;
}

/* ---------------------------------------------------------------------
 * The layout grid
 */

typedef void (*grid_fn)(const struct ore_layout *l, void *arg);

static void layout_init(struct ore_layout *l, u32 su, u32 gw, u32 alg,
			u32 depth, u32 count, u32 mirrors_p1)
{
	memset(l, 0, sizeof(*l));
	l->stripe_unit = su;
	l->group_width = gw;
	l->raid_algorithm = alg;
	l->group_depth = depth;
	l->group_count = count;
	l->mirrors_p1 = mirrors_p1;
}

/*
 * Call @fn for every possible layout of the grid, verified with exactly as
 * many devices as it needs. @impossible (may be NULL) is called instead for
 * the combinations with group_width <= parity.
 */
static void grid_walk(grid_fn fn, grid_fn impossible, void *arg)
{
	u32 idx, v, a, u, gw, mp1, d, g;
	struct ore_layout l;
	const char *why;
	int rc;

	n_grid_layouts = 0;
	/* odometer over (alg, gw, mirrors, depth, count, unit), unit fastest */
	for (idx = 0; idx < GRID_SIZE; idx++) {
		v = idx;
		u = v % ARRAY_SIZE(grid_units);
		v /= ARRAY_SIZE(grid_units);
		g = v % GRID_MAX_COUNT + 1;
		v /= GRID_MAX_COUNT;
		d = v % GRID_MAX_DEPTH + 1;
		v /= GRID_MAX_DEPTH;
		mp1 = v % GRID_MAX_MIRRORS + 1;
		v /= GRID_MAX_MIRRORS;
		gw = v % GRID_MAX_GW + 1;
		a = v / GRID_MAX_GW;
		layout_init(&l, grid_units[u], gw, grid_algs[a], d, g, mp1);
		if (gw <= model_parity(grid_algs[a])) {
			if (impossible)
				impossible(&l, arg);
			continue;
		}
		why = "unset";
		rc = ore_layout_check(&l, gw * g * mp1, &why);
		if (rc) {
			failf("%s: ore_layout_check() rejects a good layout: %d (%s)",
			      lstr(&l), rc, why ? why : "NULL");
			continue;
		}
		n_grid_layouts++;
		fn(&l, arg);
	}
}

/* Build the model of a grid layout or report why not; 0 on success. */
static int grid_model(struct model *m, const struct ore_layout *l)
{
	if (model_build(m, l)) {
		failf("%s: the reference model contradicts itself", lstr(l));
		model_free(m);
		return -1;
	}
	return 0;
}

/* ---------------------------------------------------------------------
 * Case: ore_layout_check() rejects bad layouts
 */

struct bad_layout {
	const char *what;
	const char *field;	/* must appear in the reason */
	u32 su, gw, alg, depth, count, mp1, devs;
};

/* A good base: 4 groups of RAID5 over 5, 2 copies, 64 KiB units, 40 devs. */
#define BASE_SU		65536u
#define BASE_GW		5u
#define BASE_ALG	ORE_RAID5
#define BASE_D		2u
#define BASE_G		4u
#define BASE_M		2u
#define BASE_DEVS	40u

static const struct bad_layout bad_layouts[] = {
	{ "stripe_unit 0", "stripe_unit", 0, 5, 5, 2, 4, 2, 40 },
	{ "stripe_unit 1", "stripe_unit", 1, 5, 5, 2, 4, 2, 40 },
	{ "stripe_unit 512", "stripe_unit", 512, 5, 5, 2, 4, 2, 40 },
	{ "stripe_unit 4095", "stripe_unit", 4095, 5, 5, 2, 4, 2, 40 },
	{ "stripe_unit 4097", "stripe_unit", 4097, 5, 5, 2, 4, 2, 40 },
	{ "stripe_unit 6144", "stripe_unit", 6144, 5, 5, 2, 4, 2, 40 },
	{ "stripe_unit 12800", "stripe_unit", 12800, 5, 5, 2, 4, 2, 40 },
	{ "stripe_unit 16MiB+4K", "stripe_unit", (16u << 20) + 4096, 5, 5, 2,
	  4, 2, 40 },
	{ "stripe_unit 32MiB", "stripe_unit", 32u << 20, 5, 5, 2, 4, 2, 40 },
	{ "stripe_unit 2GiB", "stripe_unit", 1u << 31, 5, 5, 2, 4, 2, 40 },
	{ "stripe_unit max", "stripe_unit", 0xfffff000u, 5, 5, 2, 4, 2, 40 },
	{ "group_width 0 raid0", "group_width", 65536, 0, 0, 2, 4, 2, 40 },
	{ "group_width 0 raid5", "group_width", 65536, 0, 5, 2, 4, 2, 40 },
	{ "group_width 1 raid4", "group_width", 65536, 1, 4, 2, 4, 2, 40 },
	{ "group_width 1 raid5", "group_width", 65536, 1, 5, 2, 4, 2, 40 },
	{ "group_width 1 raid6", "group_width", 65536, 1, 6, 2, 4, 2, 40 },
	{ "group_width 2 raid6", "group_width", 65536, 2, 6, 2, 4, 2, 40 },
	{ "group_width 33", "group_width", 65536, 33, 0, 2, 1, 1, 1024 },
	{ "group_width 64", "group_width", 65536, 64, 5, 1, 1, 1, 1024 },
	{ "group_width 2^32-1", "group_width", 65536, 0xffffffffu, 0, 1, 1, 1,
	  0xffffffffu },
	{ "group_depth 0", "group_depth", 65536, 5, 5, 0, 4, 2, 40 },
	{ "group_count 0", "group_count", 65536, 5, 5, 2, 0, 2, 40 },
	{ "mirrors_p1 0", "mirrors_p1", 65536, 5, 5, 2, 4, 0, 40 },
	{ "mirrors_p1 9", "mirrors_p1", 65536, 5, 5, 2, 4, 9, 1024 },
	{ "mirrors_p1 2^32-1", "mirrors_p1", 65536, 5, 5, 2, 4, 0xffffffffu,
	  0xffffffffu },
	{ "raid_algorithm 1", "raid_algorithm", 65536, 5, 1, 2, 4, 2, 40 },
	{ "raid_algorithm 2", "raid_algorithm", 65536, 5, 2, 2, 4, 2, 40 },
	{ "raid_algorithm 3", "raid_algorithm", 65536, 5, 3, 2, 4, 2, 40 },
	{ "raid_algorithm 7", "raid_algorithm", 65536, 5, 7, 2, 4, 2, 40 },
	{ "raid_algorithm 8", "raid_algorithm", 65536, 5, 8, 2, 4, 2, 40 },
	{ "raid_algorithm 2^32-1", "raid_algorithm", 65536, 5, 0xffffffffu, 2,
	  4, 2, 40 },
	{ "one device short", "devices", 65536, 5, 5, 2, 4, 2, 39 },
	{ "no devices", "devices", 65536, 5, 5, 2, 4, 2, 0 },
	{ "1 device for 2 mirrors", "devices", 4096, 1, 0, 1, 1, 2, 1 },
	{ "2048 components", "components", 65536, 32, 0, 1, 32, 2, 0xffffffffu },
	{ "1025 components", "components", 65536, 5, 0, 1, 205, 1, 1025 },
	/* gw * count * mirrors is 2^32: a u32 product would wrap to 0 */
	{ "2^32 components", "components", 65536, 2, 0, 1, 0x80000000u, 1,
	  0xffffffffu },
	{ "2^32+ components", "components", 4096, 32, 6, 1, 0x08000000u, 8,
	  0xffffffffu },
	/* S = 32 * 16 MiB * (2^32 - 1) * 5 >= 2^63 */
	{ "group_depth * group_count overflow", "group_depth", 16u << 20, 32,
	  0, 0xffffffffu, 5, 1, 1024 },
	{ "group_depth * group_count overflow raid6", "group_depth",
	  16u << 20, 32, 6, 0xffffffffu, 32, 1, 1024 },
};

static void reject_one(const char *what, const char *field,
		       struct ore_layout *l, u32 devs)
{
	const char *why = NULL;
	int rc = ore_layout_check(l, devs, &why);

	n_rejects_checked++;
	if (rc != -EINVAL) {
		failf("%s (%s, %" PRIu32 " devs): returned %d, want -EINVAL",
		      what, lstr(l), devs, rc);
		return;
	}
	if (!why || !*why) {
		failf("%s: rejected without a reason", what);
		return;
	}
	if (field && !strstr(why, field))
		failf("%s: reason \"%s\" does not name %s", what, why, field);
}

static void case_check_rejects_bad(void)
{
	struct ore_layout l;
	size_t i;

	/* the base itself must be good, or the mutations prove nothing */
	layout_init(&l, BASE_SU, BASE_GW, BASE_ALG, BASE_D, BASE_G, BASE_M);
	{
		const char *why = "unset";

		if (ore_layout_check(&l, BASE_DEVS, &why) || why)
			failf("base layout %s rejected", lstr(&l));
	}
	for (i = 0; i < ARRAY_SIZE(bad_layouts); i++) {
		const struct bad_layout *b = &bad_layouts[i];

		layout_init(&l, b->su, b->gw, b->alg, b->depth, b->count,
			    b->mp1);
		reject_one(b->what, b->field, &l, b->devs);
	}

	/* every stripe_unit that is not a multiple of 4096 up to 64 KiB */
	for (i = 1; i <= 65536; i++) {
		if (i % 4096 == 0)
			continue;
		layout_init(&l, (u32)i, 4, ORE_RAID0, 1, 1, 1);
		reject_one("stripe_unit not a page multiple", "stripe_unit",
			   &l, 4);
	}
	/* every raid_algorithm value that is not 0, 4, 5, 6, up to 1000 */
	for (i = 0; i < 1000; i++) {
		if (i == 0 || i == 4 || i == 5 || i == 6)
			continue;
		layout_init(&l, 4096, 4, (u32)i, 1, 1, 1);
		reject_one("bad raid_algorithm", "raid_algorithm", &l, 4);
	}
	/* every group_width above the maximum up to 1000 */
	for (i = ORE_MAX_GROUP_WIDTH + 1; i <= 1000; i++) {
		layout_init(&l, 4096, (u32)i, ORE_RAID6, 1, 1, 1);
		reject_one("group_width too big", "group_width", &l, 1000);
	}
	/* every mirrors_p1 above the maximum up to 100 */
	for (i = ORE_MAX_MIRRORS_P1 + 1; i <= 100; i++) {
		layout_init(&l, 4096, 2, ORE_RAID0, 1, 1, (u32)i);
		reject_one("mirrors_p1 too big", "mirrors_p1", &l, 1000);
	}
}

/* ---------------------------------------------------------------------
 * Case: impossible grid combinations and too few devices
 */

static void grid_impossible(const struct ore_layout *l, void *arg)
{
	struct ore_layout c = *l;

	(void)arg;
	reject_one("group_width <= parity", "group_width", &c,
		   ORE_MAX_COMPONENTS);
}

static void grid_short_of_devices(const struct ore_layout *l, void *arg)
{
	struct ore_layout c = *l;

	(void)arg;
	layout_init(&c, l->stripe_unit, l->group_width, l->raid_algorithm,
		    l->group_depth, l->group_count, l->mirrors_p1);
	reject_one("one device short", "devices", &c, l->num_comps - 1);
}

static void case_check_rejects_grid(void)
{
	grid_walk(grid_short_of_devices, grid_impossible, NULL);
}

/* ---------------------------------------------------------------------
 * Case: ore_layout_check() accepts good layouts and derives the fields
 */

static void accept_one(u32 su, u32 gw, u32 alg, u32 depth, u32 count,
		       u32 mp1, u32 devs)
{
	struct ore_layout l, orig;
	u32 par = model_parity(alg);
	const char *why = "unset";
	int rc;

	layout_init(&l, su, gw, alg, depth, count, mp1);
	/* garbage in the derived fields must be overwritten */
	l.parity = 0xdead;
	l.data_width = 0xbeef;
	l.stripe_length = 1;
	l.group_length = 2;
	l.super_stripe = 3;
	l.num_comps = 4;
	orig = l;
	rc = ore_layout_check(&l, devs, &why);
	if (rc || why) {
		failf("%s, %" PRIu32 " devs: rejected (%d, %s)", lstr(&l),
		      devs, rc, why ? why : "NULL");
		return;
	}
	if (l.stripe_unit != orig.stripe_unit ||
	    l.group_width != orig.group_width ||
	    l.group_depth != orig.group_depth ||
	    l.group_count != orig.group_count ||
	    l.mirrors_p1 != orig.mirrors_p1 ||
	    l.raid_algorithm != orig.raid_algorithm)
		failf("%s: ore_layout_check() changed an input field",
		      lstr(&l));
	if (l.parity != par)
		failf("%s: parity %" PRIu32 ", want %" PRIu32, lstr(&l),
		      l.parity, par);
	if (l.data_width != gw - par)
		failf("%s: data_width %" PRIu32, lstr(&l), l.data_width);
	if (l.stripe_length != (u64)(gw - par) * su)
		failf("%s: stripe_length %" PRIu64, lstr(&l), l.stripe_length);
	if (l.group_length != (u64)(gw - par) * su * depth)
		failf("%s: group_length %" PRIu64, lstr(&l), l.group_length);
	if ((u128)l.super_stripe != (u128)(gw - par) * su * depth * count)
		failf("%s: super_stripe %" PRIu64, lstr(&l), l.super_stripe);
	if (l.num_comps != gw * count * mp1)
		failf("%s: num_comps %" PRIu32, lstr(&l), l.num_comps);
}

static void grid_accept(const struct ore_layout *l, void *arg)
{
	(void)arg;
	accept_one(l->stripe_unit, l->group_width, l->raid_algorithm,
		   l->group_depth, l->group_count, l->mirrors_p1,
		   l->num_comps);
	/* more devices than needed is fine */
	accept_one(l->stripe_unit, l->group_width, l->raid_algorithm,
		   l->group_depth, l->group_count, l->mirrors_p1,
		   l->num_comps + 7);
}

static void case_check_accepts_good(void)
{
	u32 a, i;

	grid_walk(grid_accept, NULL, NULL);
	/* the edges of every limit */
	for (a = 0; a < ARRAY_SIZE(grid_algs); a++) {
		u32 alg = grid_algs[a], par = model_parity(alg);

		accept_one(16u << 20, 32, alg, 1, 1, 1, 32);
		accept_one(4096, par + 1, alg, 1, 1, 1, par + 1);
		accept_one(4096, 32, alg, 1, 4, 8, 1024);
		accept_one(4096, 32, alg, 1, 32, 1, 1024);
		accept_one(4096, 1 + par, alg, 1, 1024 / (1 + par), 1, 1024);
		accept_one(4096, 4, alg, 0xffffffffu, 1, 1, 4);
		accept_one(16u << 20, 32, alg, 0xffffffffu, 3, 1, 0xffffffffu);
		accept_one(4096, 8, alg, 3, 5, 8, 0xffffffffu);
	}
	for (i = 1; i <= 4096; i++)
		accept_one(i * 4096, 3, ORE_RAID5, 1, 1, 1, 3);
	for (i = 1; i <= ORE_MAX_MIRRORS_P1; i++)
		accept_one(4096, 2, ORE_RAID0, 1, 1, i, 2 * i);
}

/* ---------------------------------------------------------------------
 * Case: the overflow check of group_depth * group_count is exact
 */

static void overflow_one(u32 su, u32 gw, u32 alg, u32 depth, u32 count)
{
	u32 par = model_parity(alg);
	struct ore_layout l;
	const char *why = NULL;
	u128 S;
	int rc;

	if (gw <= par)
		return;
	layout_init(&l, su, gw, alg, depth, count, 1);
	S = (u128)(gw - par) * su * depth * count;
	rc = ore_layout_check(&l, 1024, &why);
	n_rejects_checked++;
	if (S <= INT64_MAX && rc)
		failf("%s: S = 0x%" PRIx64 " fits but rejected: %s",
		      lstr(&l), (u64)S, why ? why : "NULL");
	if (S > INT64_MAX && rc != -EINVAL)
		failf("%s: S overflows but returned %d", lstr(&l), rc);
	if (S > INT64_MAX && rc == -EINVAL && !why)
		failf("%s: rejected without a reason", lstr(&l));
	if (!rc && l.super_stripe != (u64)S)
		failf("%s: super_stripe 0x%" PRIx64 " != 0x%" PRIx64,
		      lstr(&l), l.super_stripe, (u64)S);
}

static void case_check_overflow_boundary(void)
{
	static const u32 sus[] = { 4096, 1u << 20, 16u << 20 };
	static const u32 gws[] = { 2, 17, 32 };
	u32 s, w, a, i, depth, count;

	for (s = 0; s < ARRAY_SIZE(sus); s++) {
		for (w = 0; w < ARRAY_SIZE(gws); w++) {
			for (a = 0; a < ARRAY_SIZE(grid_algs); a++) {
				for (i = 0; i < 40; i++) {
					depth = i < 2 ? 0xffffffffu - i :
						1 + (u32)rnd_below(0xffffffffu);
					count = 1 + (u32)rnd_below(1024 / gws[w]);
					overflow_one(sus[s], gws[w],
						     grid_algs[a], depth,
						     count);
				}
			}
		}
	}
}

/* ---------------------------------------------------------------------
 * Case: component numbering
 */

static void grid_numbering(const struct ore_layout *l, void *arg)
{
	struct model m;
	u32 g, p, i;

	(void)arg;
	if (grid_model(&m, l))
		return;
	n_layouts_checked++;
	for (g = 0; g < m.G; g++)
		for (p = 0; p < m.gw; p++)
			for (i = 0; i < m.mp1; i++)
				if (ore_layout_comp(l, g, p, i) !=
				    mcomp(&m, g, p, i))
					failf("%s: comp(g%u, p%u, m%u) = %u, want %u",
					      lstr(l), g, p, i,
					      ore_layout_comp(l, g, p, i),
					      mcomp(&m, g, p, i));
	model_free(&m);
}

static void case_component_numbering(void)
{
	grid_walk(grid_numbering, NULL, NULL);
}

/* ---------------------------------------------------------------------
 * Cases on ore_layout_stripe_pos() for every gw up to the maximum
 */

#define POS_ROWS_PER_GW	3	/* full rotations checked against the model */

static void check_row_perm(const struct ore_layout *l, u64 row,
			   const u32 *want)
{
	u32 seen[ORE_MAX_GROUP_WIDTH] = { 0 };
	u32 all[ORE_MAX_GROUP_WIDTH];
	u32 c, pos;

	ore_layout_row_pos(l, row, all);
	for (c = 0; c < l->group_width; c++) {
		pos = ore_layout_stripe_pos(l, row, c);
		if (all[c] != pos)
			failf("%s row %" PRIu64 " col %u: row_pos says %u, stripe_pos %u",
			      lstr(l), row, c, all[c], pos);
		if (pos >= l->group_width) {
			failf("%s row %" PRIu64 " col %u: position %u out of range",
			      lstr(l), row, c, pos);
			return;
		}
		if (seen[pos]++)
			failf("%s row %" PRIu64 ": position %u used twice",
			      lstr(l), row, pos);
		if (want && pos != want[c])
			failf("%s row %" PRIu64 " col %u: position %u, rule says %u",
			      lstr(l), row, c, pos, want[c]);
		/* and ore_layout_pos_col() is its inverse */
		if (ore_layout_pos_col(l, row, pos) != c)
			failf("%s row %" PRIu64 " position %u: pos_col says column %u, not %u",
			      lstr(l), row, pos, ore_layout_pos_col(l, row, pos),
			      c);
	}
}

/*
 * Every layout shape stripe_pos (and its inverse pos_col) depends on:
 * algorithm and group_width.
 */
static int pos_layout(struct ore_layout *l, u32 alg, u32 gw)
{
	const char *why;

	layout_init(l, 4096, gw, alg, 1, 1, 1);
	return gw > model_parity(alg) ? ore_layout_check(l, gw, &why) : -1;
}

static void case_stripe_pos_matches_rule(void)
{
	u32 shape, gw, *tab;
	struct ore_layout l;
	u64 r, i, nrows;

	for (shape = 0; shape < NR_SHAPES; shape++) {
		gw = SHAPE_GW(shape);
		nrows = (u64)POS_ROWS_PER_GW * gw;
		if (pos_layout(&l, SHAPE_ALG(shape), gw))
			continue;
		tab = xcalloc(nrows * gw, sizeof(*tab));
		model_rotation(SHAPE_ALG(shape), gw, nrows, tab);
		for (r = 0; r < nrows; r++)
			check_row_perm(&l, r, tab + r * gw);
		/* far rows: the rule has period gw */
		for (i = 0; i < 200; i++) {
			r = i < 2 ? UINT64_MAX - i : rnd64();
			check_row_perm(&l, r, tab + (r % gw) * gw);
		}
		free(tab);
	}
}

static void case_stripe_rows_distinct(void)
{
	u32 shape, gw;
	struct ore_layout l;
	u64 r, i;

	/* independent of the model: only the permutation property */
	for (shape = 0; shape < NR_SHAPES; shape++) {
		gw = SHAPE_GW(shape);
		if (pos_layout(&l, SHAPE_ALG(shape), gw))
			continue;
		for (r = 0; r < 4 * gw; r++)
			check_row_perm(&l, r, NULL);
		for (i = 0; i < 500; i++)
			check_row_perm(&l, rnd64(), NULL);
	}
}

/*
 * RAID5/6: over any gw consecutive rows P and Q sit on every position
 * exactly once, P moves one position left per row and Q is right after P;
 * RAID4: P always on the last position; RAID0: data c on position c.
 */
static void check_rotation_window(const struct ore_layout *l, u64 start)
{
	u32 gw = l->group_width, dw = l->data_width;
	u32 pcount[ORE_MAX_GROUP_WIDTH] = { 0 }, qcount[ORE_MAX_GROUP_WIDTH] = { 0 };
	u32 p, q, prev_p = 0, c;
	u64 r;

	for (r = start; r - start < gw; r++) {
		switch (l->raid_algorithm) {
		case ORE_RAID0:
			for (c = 0; c < gw; c++)
				if (ore_layout_stripe_pos(l, r, c) != c)
					failf("%s row %" PRIu64 ": raid0 col %u moved",
					      lstr(l), r, c);
			break;
		case ORE_RAID4:
			if (ore_layout_stripe_pos(l, r, dw) != gw - 1)
				failf("%s row %" PRIu64 ": raid4 P not last",
				      lstr(l), r);
			break;
		case ORE_RAID6:
			q = ore_layout_stripe_pos(l, r, dw + 1);
			if (q >= gw)
				break;
			qcount[q]++;
			if (q != pos_next(ore_layout_stripe_pos(l, r, dw), gw))
				failf("%s row %" PRIu64 ": Q not right after P",
				      lstr(l), r);
			fallthrough;
		case ORE_RAID5:
			p = ore_layout_stripe_pos(l, r, dw);
			if (p >= gw)
				break;
			pcount[p]++;
			if (r != start && p != pos_prev(prev_p, gw))
				failf("%s row %" PRIu64 ": P did not move one left",
				      lstr(l), r);
			if (ore_layout_stripe_pos(l, r, 0) !=
			    pos_next(l->parity == 2 ? pos_next(p, gw) : p, gw))
				failf("%s row %" PRIu64 ": data does not start after parity",
				      lstr(l), r);
			prev_p = p;
			break;
		}
	}
	if (l->raid_algorithm != ORE_RAID5 && l->raid_algorithm != ORE_RAID6)
		return;
	for (p = 0; p < gw; p++) {
		if (pcount[p] != 1)
			failf("%s rows %" PRIu64 "+%u: P on position %u %u times",
			      lstr(l), start, gw, p, pcount[p]);
		if (l->raid_algorithm == ORE_RAID6 && qcount[p] != 1)
			failf("%s rows %" PRIu64 "+%u: Q on position %u %u times",
			      lstr(l), start, gw, p, qcount[p]);
	}
}

/*
 * The same balance seen through ore_calc_stripe_info() of a grid layout:
 * rows @start .. @start + gw - 1 of group @g.
 */
static void balance_window(const struct ore_layout *l, u32 g, u64 start)
{
	u32 gw = l->group_width, mp1 = l->mirrors_p1;
	u32 pcount[ORE_MAX_COMPONENTS] = { 0 };
	u32 qcount[ORE_MAX_COMPONENTS] = { 0 };
	struct ore_striping_info si;
	u64 r, L;
	u32 c;

	for (r = start; r < start + gw; r++) {
		L = r / l->group_depth * l->super_stripe +
		    g * l->group_length + r % l->group_depth * l->stripe_length;
		calc_si(l, L, &si);
		if (si.row != r || si.group != g) {
			failf("%s: offset %" PRIu64 " not on row %" PRIu64,
			      lstr(l), L, r);
			return;
		}
		if (si.par_dev < l->num_comps && l->parity)
			pcount[si.par_dev]++;
		if (si.q_dev < l->num_comps && l->parity > 1)
			qcount[si.q_dev]++;
	}
	if (l->raid_algorithm != ORE_RAID5 && l->raid_algorithm != ORE_RAID6)
		return;
	for (c = g * gw * mp1; c < (g + 1) * gw * mp1; c++) {
		u32 want = c % mp1 ? 0 : 1;	/* first mirror only */

		if (pcount[c] != want)
			failf("%s group %u rows %" PRIu64 "+%u: comp %u is P %u times",
			      lstr(l), g, start, gw, c, pcount[c]);
		if (l->parity > 1 && qcount[c] != want)
			failf("%s group %u rows %" PRIu64 "+%u: comp %u is Q %u times",
			      lstr(l), g, start, gw, c, qcount[c]);
	}
}

static void grid_balance(const struct ore_layout *l, void *arg)
{
	u32 g;

	(void)arg;
	n_layouts_checked++;
	for (g = 0; g < l->group_count; g++) {
		balance_window(l, g, 0);
		balance_window(l, g, 1);
		balance_window(l, g, rnd_below(1ULL << 40));
	}
}

static void case_parity_rotation_balanced(void)
{
	u32 shape, gw, i;
	struct ore_layout l;

	for (shape = 0; shape < NR_SHAPES; shape++) {
		gw = SHAPE_GW(shape);
		if (pos_layout(&l, SHAPE_ALG(shape), gw))
			continue;
		for (i = 0; i < 2 * gw; i++)
			check_rotation_window(&l, i);
		for (i = 0; i < 50; i++)
			check_rotation_window(&l, rnd64() >> 1);
		check_rotation_window(&l, UINT64_MAX - gw + 1);
	}
	grid_walk(grid_balance, NULL, NULL);
}

/* ---------------------------------------------------------------------
 * Case: the worked tables of docs/layout.md
 */

struct doc_table {
	u32 alg, gw;
	const char *rows[6];
};

static const struct doc_table doc_tables[] = {
	{ ORE_RAID4, 4, {
		"D0 D1 D2 P",
		"D0 D1 D2 P",
		"D0 D1 D2 P",
		"D0 D1 D2 P",
		"D0 D1 D2 P",
		"D0 D1 D2 P" } },
	{ ORE_RAID5, 4, {
		"D0 D1 D2 P",
		"D1 D2 P D0",
		"D2 P D0 D1",
		"P D0 D1 D2",
		"D0 D1 D2 P",
		"D1 D2 P D0" } },
	{ ORE_RAID6, 5, {
		"D0 D1 D2 P Q",
		"D1 D2 P Q D0",
		"D2 P Q D0 D1",
		"P Q D0 D1 D2",
		"Q D0 D1 D2 P",
		"D0 D1 D2 P Q" } },
	{ ORE_RAID6, 4, {
		"D0 D1 P Q",
		"D1 P Q D0",
		"P Q D0 D1",
		"Q D0 D1 P",
		"D0 D1 P Q",
		"D1 P Q D0" } },
};

static void case_doc_tables(void)
{
	char buf[256], cell[16];
	struct ore_layout l;
	u32 t, r, pos, c;

	for (t = 0; t < ARRAY_SIZE(doc_tables); t++) {
		const struct doc_table *d = &doc_tables[t];

		if (pos_layout(&l, d->alg, d->gw)) {
			failf("doc table %u: layout rejected", t);
			continue;
		}
		for (r = 0; r < 6; r++) {
			buf[0] = 0;
			for (pos = 0; pos < d->gw; pos++) {
				for (c = 0; c < d->gw; c++)
					if (ore_layout_stripe_pos(&l, r, c) ==
					    pos)
						break;
				if (c < l.data_width)
					snprintf(cell, sizeof(cell), "D%u", c);
				else
					snprintf(cell, sizeof(cell), "%s",
						 c == l.data_width ? "P" :
						 c == l.data_width + 1 ? "Q" :
						 "?");
				if (pos)
					strcat(buf, " ");
				strcat(buf, cell);
			}
			if (strcmp(buf, d->rows[r]))
				failf("raid%u gw=%u row %u: \"%s\", docs say \"%s\"",
				      d->alg, d->gw, r, buf, d->rows[r]);
		}
	}
}

/*
 * The worked example of docs/layout.md: RAID5, gw 3, D 2, G 2, 4 KiB units.
 * doc_example_units[row][comp] is the logical unit held, -1 for P.
 */
static const int doc_example_units[6][6] = {
	{ 0, 1, -1, 4, 5, -1 },
	{ 3, -1, 2, 7, -1, 6 },
	{ -1, 8, 9, -1, 12, 13 },
	{ 10, 11, -1, 14, 15, -1 },
	{ 17, -1, 16, 21, -1, 20 },
	{ -1, 18, 19, -1, 22, 23 },
};

static const u64 doc_example_sizes[][7] = {	/* size, then comps 0..5 */
	{ 0, 0, 0, 0, 0, 0, 0 },
	{ 1, 1, 0, 1, 0, 0, 0 },
	{ 4097, 4096, 1, 4096, 0, 0, 0 },
	{ 9000, 4096, 4904, 4904, 0, 0, 0 },
	{ 20000, 8192, 8192, 8192, 3616, 0, 3616 },
	{ 50000, 16384, 16384, 16384, 9040, 9040, 8192 },
};

static void case_doc_example(void)
{
	struct ore_striping_info si, want;
	struct ore_layout l;
	const char *why;
	u32 r, c, k;
	size_t i;

	layout_init(&l, 4096, 3, ORE_RAID5, 2, 2, 1);
	if (ore_layout_check(&l, 6, &why)) {
		failf("doc example layout rejected: %s", why);
		return;
	}
	for (r = 0; r < 6; r++)
		for (c = 0; c < 6; c++) {
			k = (u32)doc_example_units[r][c];
			if (doc_example_units[r][c] < 0)
				continue;
			calc_si(&l, (u64)k * 4096, &si);
			if (si.dev != c || si.row != r)
				failf("doc example: u%u on comp %u row %" PRIu64 ", docs say comp %u row %u",
				      k, si.dev, si.row, c, r);
			if (si.par_dev / 3 != c / 3 ||
			    doc_example_units[r][si.par_dev] != -1)
				failf("doc example: P of u%u on comp %u", k,
				      si.par_dev);
		}
	memset(&want, 0, sizeof(want));
	want.offset = 41000;
	want.M = 1;
	want.group = 0;
	want.N = 1;
	want.row = 3;
	want.col = 0;
	want.unit_off = 40;
	want.obj_offset = 12328;
	want.dev = 0;
	want.par_dev = 2;
	want.length = 8152;
	want.first_stripe_start = 40960;
	want.bytes_in_stripe = 8192;
	calc_si(&l, 41000, &si);
	si_compare(&l, &si, &want);
	for (i = 0; i < ARRAY_SIZE(doc_example_sizes); i++)
		for (c = 0; c < 6; c++) {
			u64 got = ore_layout_obj_size(&l, c,
						      doc_example_sizes[i][0]);

			if (got != doc_example_sizes[i][c + 1])
				failf("doc example: size %" PRIu64 " comp %u: %" PRIu64 ", docs say %" PRIu64,
				      doc_example_sizes[i][0], c, got,
				      doc_example_sizes[i][c + 1]);
		}
}

/* ---------------------------------------------------------------------
 * Case: every field of ore_calc_stripe_info() at every interesting offset
 */

static void grid_all_offsets(const struct ore_layout *l, void *arg)
{
	struct ore_striping_info got, want;
	struct model m;
	u64 k, L, off[5];
	u32 i, n;

	(void)arg;
	if (grid_model(&m, l))
		return;
	n_layouts_checked++;
	for (k = 0; k < m.nunits; k++) {
		/* unit start, +1, the unit's last byte, 2 random inside */
		n = 0;
		off[n++] = k * m.su;
		off[n++] = k * m.su + 1;
		off[n++] = k * m.su + m.su - 1;
		off[n++] = k * m.su + 2 + rnd_below(m.su - 3);
		off[n++] = k * m.su + 2 + rnd_below(m.su - 3);
		for (i = 0; i < n; i++) {
			L = off[i];
			model_si(&m, L, &want);
			calc_si(l, L, &got);
			if (si_compare(l, &got, &want))
				goto out;
		}
	}
out:
	model_free(&m);
}

static void case_stripe_info_all_offsets(void)
{
	grid_walk(grid_all_offsets, NULL, NULL);
}

/*
 * Case: far offsets, up to 2^64 - 1. The placement repeats every `period`
 * super-stripes, so offset L is checked as the model's L % (period * S)
 * shifted by L / (period * S) periods.
 */
static void grid_far_offsets(const struct ore_layout *l, void *arg)
{
	struct ore_striping_info got, want;
	struct model m;
	u64 span, L, i;

	(void)arg;
	if (grid_model(&m, l))
		return;
	n_layouts_checked++;
	span = m.period * m.S;
	for (i = 0; i < 48; i++) {
		switch (i) {
		case 0:
			L = UINT64_MAX;
			break;
		case 1:
			L = UINT64_MAX - UINT64_MAX % m.S;	/* last M start */
			break;
		case 2:
			L = UINT64_MAX - UINT64_MAX % m.S - 1;
			break;
		case 3:
			L = 1ULL << 63;
			break;
		case 4:
			L = (1ULL << 32) * m.su;	/* row 2^32 / dw */
			break;
		case 5:
			L = (1ULL << 32) * m.S + m.S - 1; /* M = 2^32 */
			break;
		default:
			L = rnd64() >> (i % 40);
			break;
		}
		model_si(&m, L % span, &want);
		model_si_shift(&m, &want, L / span);
		calc_si(l, L, &got);
		if (si_compare(l, &got, &want))
			break;
	}
	model_free(&m);
}

static void case_stripe_info_far_offsets(void)
{
	grid_walk(grid_far_offsets, NULL, NULL);
}

/* ---------------------------------------------------------------------
 * Case: bijection between logical units and data cells, seen through
 * ore_calc_stripe_info() (no model placement involved, only its size)
 */

static void grid_bijection(const struct ore_layout *l, void *arg)
{
	u32 mp1 = l->mirrors_p1, ncomps = l->num_comps, i;
	u64 nrows, ncells, nunits, k, *owner, data_cells = 0;
	struct ore_striping_info si, last;
	u8 *parity;
	struct model m;

	(void)arg;
	if (grid_model(&m, l))
		return;
	nrows = m.nrows;
	nunits = m.nunits;
	model_free(&m);
	n_layouts_checked++;

	ncells = (u64)ncomps * nrows;
	owner = xcalloc(ncells, sizeof(*owner));	/* unit + 1, 0 = free */
	parity = xcalloc(ncells, 1);
	for (k = 0; k < nunits; k++) {
		u64 L = k * l->stripe_unit;

		calc_si(l, L, &si);
		calc_si(l, L + l->stripe_unit - 1, &last);
		if (last.dev != si.dev || last.row != si.row ||
		    last.obj_offset != si.obj_offset + l->stripe_unit - 1) {
			failf("%s unit %" PRIu64 ": its bytes are not contiguous",
			      lstr(l), k);
			goto out;
		}
		if (si.obj_offset % l->stripe_unit ||
		    si.obj_offset / l->stripe_unit != si.row) {
			failf("%s unit %" PRIu64 ": obj_offset %" PRIu64 " not on row %" PRIu64,
			      lstr(l), k, si.obj_offset, si.row);
			goto out;
		}
		if (si.row >= nrows || si.dev % mp1 ||
		    si.dev + mp1 > ncomps) {
			failf("%s unit %" PRIu64 ": dev %u row %" PRIu64 " out of range",
			      lstr(l), k, si.dev, si.row);
			goto out;
		}
		for (i = 0; i < mp1; i++) {
			u64 c = (si.dev + i) * nrows + si.row;

			if (owner[c]) {
				failf("%s: comp %u row %" PRIu64 " holds units %" PRIu64 " and %" PRIu64,
				      lstr(l), si.dev + i, si.row,
				      owner[c] - 1, k);
				goto out;
			}
			owner[c] = k + 1;
			data_cells++;
		}
		if (l->parity) {
			if (si.par_dev % mp1 || si.par_dev + mp1 > ncomps ||
			    (l->parity > 1 && (si.q_dev % mp1 ||
			     si.q_dev + mp1 > ncomps || si.q_dev == si.par_dev))) {
				failf("%s unit %" PRIu64 ": bad parity devs %u %u",
				      lstr(l), k, si.par_dev, si.q_dev);
				goto out;
			}
			for (i = 0; i < mp1; i++) {
				parity[(si.par_dev + i) * nrows + si.row] = 1;
				if (l->parity > 1)
					parity[(si.q_dev + i) * nrows +
					       si.row] = 1;
			}
		}
	}
	/* parity cells never hold data; together they cover every cell */
	for (k = 0; k < ncells; k++) {
		if (owner[k] && parity[k]) {
			failf("%s: comp %" PRIu64 " row %" PRIu64 " is parity and holds unit %" PRIu64,
			      lstr(l), k / nrows, k % nrows, owner[k] - 1);
			goto out;
		}
		if (!owner[k] && !parity[k]) {
			failf("%s: comp %" PRIu64 " row %" PRIu64 " is never used",
			      lstr(l), k / nrows, k % nrows);
			goto out;
		}
	}
	if (data_cells != nunits * mp1)
		failf("%s: %" PRIu64 " data cells for %" PRIu64 " units",
		      lstr(l), data_cells, nunits);
out:
	free(owner);
	free(parity);
}

static void case_unit_bijection(void)
{
	grid_walk(grid_bijection, NULL, NULL);
}

/*
 * Case: byte by byte, for small layouts of every algorithm: every data byte
 * of every component (every mirror) holds exactly one logical byte, and no
 * logical byte lands in a parity unit.
 */
static void byte_bijection_one(const struct ore_layout *l)
{
	u32 mp1 = l->mirrors_p1, su = l->stripe_unit, i;
	u64 nrows, nbytes, L, cellbytes, hits = 0, b;
	struct ore_striping_info si;
	u8 *bits, *parity;
	struct model m;

	if (grid_model(&m, l))
		return;
	nrows = m.nrows;
	nbytes = m.nunits * su;
	model_free(&m);
	n_layouts_checked++;

	cellbytes = (u64)l->num_comps * nrows * su;
	bits = xcalloc(cellbytes / 8, 1);
	parity = xcalloc((u64)l->num_comps * nrows, 1);
	for (L = 0; L < nbytes; L++) {
		calc_si(l, L, &si);
		if (si.dev + mp1 > l->num_comps || si.row >= nrows ||
		    si.obj_offset != si.row * su + si.unit_off ||
		    si.unit_off != L % su) {
			failf("%s byte %" PRIu64 ": dev %u obj_offset %" PRIu64 " out of place",
			      lstr(l), L, si.dev, si.obj_offset);
			goto out;
		}
		for (i = 0; i < mp1; i++) {
			b = (si.dev + i) * nrows * su + si.obj_offset;
			if (bits[b / 8] & (1u << (b % 8))) {
				failf("%s: comp %u byte %" PRIu64 " holds two logical bytes",
				      lstr(l), si.dev + i, si.obj_offset);
				goto out;
			}
			bits[b / 8] |= 1u << (b % 8);
			hits++;
		}
		if (l->parity && si.unit_off == 0)
			for (i = 0; i < mp1; i++) {
				parity[(si.par_dev + i) * nrows + si.row] = 1;
				if (l->parity > 1)
					parity[(si.q_dev + i) * nrows +
					       si.row] = 1;
			}
	}
	/* a parity unit holds no logical byte; a data unit is full */
	for (b = 0; b < cellbytes; b += 8) {
		u64 cell = b / su;
		u8 want = parity[cell] ? 0x00 : 0xff;

		if (bits[b / 8] != want) {
			failf("%s: comp %" PRIu64 " bytes %" PRIu64 "..+7 hold %02x, want %02x",
			      lstr(l), cell / nrows, b % (nrows * su),
			      bits[b / 8], want);
			goto out;
		}
	}
	if (hits != nbytes * mp1)
		failf("%s: %" PRIu64 " bytes placed, want %" PRIu64, lstr(l),
		      hits, nbytes * mp1);
out:
	free(bits);
	free(parity);
}

static void case_byte_bijection(void)
{
	static const u32 gws[] = { 0, 4, 5 };	/* 0: parity + 1 */
	static const u32 depths[] = { 1, 3 };
	struct ore_layout l;
	u32 idx, a, w, d, gw;
	const char *why;

	for (idx = 0; idx < ARRAY_SIZE(grid_algs) * ARRAY_SIZE(gws) *
			    ARRAY_SIZE(depths); idx++) {
		d = idx % ARRAY_SIZE(depths);
		w = idx / ARRAY_SIZE(depths) % ARRAY_SIZE(gws);
		a = idx / ARRAY_SIZE(depths) / ARRAY_SIZE(gws);
		gw = gws[w] ? gws[w] : model_parity(grid_algs[a]) + 1;
		layout_init(&l, 4096, gw, grid_algs[a], depths[d], 2, 2);
		if (ore_layout_check(&l, gw * 4, &why)) {
			failf("%s rejected: %s", lstr(&l), why);
			continue;
		}
		byte_bijection_one(&l);
	}
}

/* ---------------------------------------------------------------------
 * Case: ore_layout_obj_size() against the brute-force extent per component
 */

static void ext_max(u64 *ext, u32 comp, u64 v)
{
	if (ext[comp] < v)
		ext[comp] = v;
}

/* Grow @ext by @bytes of logical unit @k (data and its stripe's parity). */
static void ext_add_unit(const struct model *m, u64 *ext, u64 k, u64 bytes)
{
	const struct munit *u = &m->unit[k];
	const u32 *rp = m->pos_of + u->row * m->gw;
	u64 v = u->row * m->su + bytes;
	u32 i, c;

	for (i = 0; i < m->mp1; i++) {
		ext_max(ext, mcomp(m, u->group, u->pos, i), v);
		for (c = m->dw; c < m->gw; c++)
			ext_max(ext, mcomp(m, u->group, rp[c], i), v);
	}
}

static int obj_size_check(const struct model *m, const u64 *want, u64 size,
			  u64 shift_rows)
{
	u32 c;

	n_sizes_checked++;
	n_obj_calls += m->ncomps;
	for (c = 0; c < m->ncomps; c++) {
		u64 got = ore_layout_obj_size(&m->l, c, size);
		u64 w = want[c] + shift_rows * m->su;

		if (got != w) {
			failf("%s size %" PRIu64 " comp %u: obj_size %" PRIu64 ", model %" PRIu64,
			      lstr(&m->l), size, c, got, w);
			return -1;
		}
	}
	return 0;
}

/*
 * Compare ore_layout_obj_size() for every component at @size + @j periods,
 * @size < nunits * su; @full holds the extents of the units below @size.
 */
static int obj_size_at(const struct model *m, const u64 *full, u64 *tmp,
		       u64 size, u64 j)
{
	u64 k = size / m->su, part = size % m->su;

	memcpy(tmp, full, m->ncomps * sizeof(*tmp));
	if (part)
		ext_add_unit(m, tmp, k, part);
	return obj_size_check(m, tmp, size + j * m->period * m->S,
			      j * m->period * m->D);
}

static int cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

static void grid_obj_size(const struct ore_layout *l, void *arg)
{
	u64 *full, *tmp, *sizes, nsizes = 0, added = 0, i, k, end;
	struct model m;

	(void)arg;
	if (grid_model(&m, l))
		return;
	n_layouts_checked++;
	end = m.nunits * m.su;
	full = xcalloc(m.ncomps, sizeof(*full));
	tmp = xcalloc(m.ncomps, sizeof(*tmp));
	sizes = xcalloc(4 * m.nunits + 4, sizeof(*sizes));
	sizes[nsizes++] = 0;
	sizes[nsizes++] = 1;
	sizes[nsizes++] = end;
	for (k = 1; k < m.nunits; k++) {
		/*
		 * First super-stripe: every unit boundary, both sides of it
		 * and a random size inside every unit. Up to the third: every
		 * unit boundary and a random size in every stripe. Then to
		 * the end of the rotation period: a random size per stripe.
		 */
		if (k * m.su <= m.S) {
			sizes[nsizes++] = k * m.su;
			sizes[nsizes++] = k * m.su - 1;
			sizes[nsizes++] = k * m.su + 1;
			sizes[nsizes++] = k * m.su + 2 + rnd_below(m.su - 3);
		} else if (k * m.su <= MIN_SUPER_STRIPES * m.S) {
			sizes[nsizes++] = k * m.su;
			if (k % m.dw == 0)
				sizes[nsizes++] = k * m.su + 1 +
					rnd_below((u64)m.dw * m.su - 1);
		} else if (k % m.dw == 0) {
			sizes[nsizes++] = k * m.su +
					  rnd_below((u64)m.dw * m.su);
		}
	}
	qsort(sizes, nsizes, sizeof(*sizes), cmp_u64);

	/* grow the extents of whole units as the sizes increase */
	for (i = 0; i < nsizes; i++) {
		while (added < sizes[i] / m.su)
			ext_add_unit(&m, full, added++, m.su);
		if (obj_size_at(&m, full, tmp, sizes[i], 0))
			goto out;
	}

	/* far sizes: the extents repeat every period, period * D rows on */
	for (i = 0; i < 16; i++) {
		u64 span = m.period * m.S, s = rnd64() >> (i % 40), j;

		if (i == 0)
			s = UINT64_MAX;
		j = s / span;
		s %= span;
		memset(full, 0, m.ncomps * sizeof(*full));
		for (k = 0; k < s / m.su; k++)
			ext_add_unit(&m, full, k, m.su);
		if (obj_size_at(&m, full, tmp, s, j))
			goto out;
	}
out:
	free(full);
	free(tmp);
	free(sizes);
	model_free(&m);
}

static void case_obj_size(void)
{
	grid_walk(grid_obj_size, NULL, NULL);
}

/* ---------------------------------------------------------------------
 * Case: which losses a layout survives, against the model's placement
 */

#define SURV_MAX_GW	8
#define SURV_EXHAUSTIVE	9	/* devices up to which every subset is tried */
#define SURV_RANDOM	200	/* random subsets of larger device sets */

static bool bit_of(const unsigned long *map, u32 b)
{
	return (map[b / ORE_BITS_PER_LONG] >> (b % ORE_BITS_PER_LONG)) & 1;
}

/*
 * Brute force: every stripe the model placed (group g, row r) gathers what
 * its cells hold (a data unit, or the stripe's P or Q) over every
 * component of the group; a piece is there when one cell holding it is on
 * a device not in @lost. The object survives when no stripe misses more
 * pieces than it has parity. Component c is on device (@fd + c) % @n.
 */
static bool model_survives(const struct model *m, const unsigned long *lost,
			   u32 n, u32 fd)
{
	s64 key[ORE_MAX_GROUP_WIDTH * ORE_MAX_MIRRORS_P1];
	bool have[ORE_MAX_GROUP_WIDTH * ORE_MAX_MIRRORS_P1];
	u32 g, pos, i, k, nkeys, missing;
	u64 r;

	for (r = 0; r < m->nrows; r++)
		for (g = 0; g < m->G; g++) {
			nkeys = 0;
			for (pos = 0; pos < m->gw; pos++)
				for (i = 0; i < m->mp1; i++) {
					u32 c = mcomp(m, g, pos, i);
					s64 v = m->cell[(u64)c * m->nrows + r];
					bool up = !bit_of(lost, (fd + c) % n);

					for (k = 0; k < nkeys && key[k] != v; k++)
						;
					if (k == nkeys) {
						key[nkeys] = v;
						have[nkeys++] = false;
					}
					have[k] |= up;
				}
			if (nkeys != m->gw)
				failf("%s: model row %" PRIu64 " group %u holds %u pieces, not %u",
				      lstr(&m->l), r, g, nkeys, m->gw);
			for (missing = 0, k = 0; k < nkeys; k++)
				missing += !have[k];
			if (missing > m->par)
				return false;
		}
	return true;
}

static void surv_check(const struct model *m, const unsigned long *lost,
		       u32 n)
{
	const struct ore_layout *l = &m->l;
	bool all = true, got, want;
	u32 fd, g, k, lostp, cnt;

	for (fd = 0; fd < n; fd++) {
		want = model_survives(m, lost, n, fd);
		got = ore_layout_survives(l, lost, n, fd);
		all &= want;
		n_sizes_checked++;
		if (got != want)
			failf("%s over %u devices, first %u, lost 0x%lx: survives %d, model says %d",
			      lstr(l), n, fd, lost[0], got, want);
		/* the per-group count: positions with every mirror lost */
		for (g = 0; g < l->group_count; g++) {
			for (lostp = 0, k = 0; k < l->group_width; k++) {
				u32 i;

				for (cnt = 0, i = 0; i < l->mirrors_p1; i++)
					cnt += bit_of(lost, (fd +
						ore_layout_comp(l, g, k, i)) % n);
				lostp += cnt == l->mirrors_p1;
			}
			if (ore_layout_group_lost(l, g, lost, n, fd) != lostp)
				failf("%s over %u devices, first %u, lost 0x%lx: group %u lost %u positions, want %u",
				      lstr(l), n, fd, lost[0], g,
				      ore_layout_group_lost(l, g, lost, n, fd),
				      lostp);
		}
	}
	if (ore_layout_survives_any_dev(l, lost, n) != all)
		failf("%s over %u devices, lost 0x%lx: survives_any_dev %d, model says %d",
		      lstr(l), n, lost[0], !all, all);
}

static void case_survives_matches_model(void)
{
	unsigned long lost[ORE_BITMAP_LONGS(ORE_MAX_COMPONENTS + 2)];
	u32 a, gw, mp1, cnt, extra, n, i;
	struct ore_layout l;
	const char *why;
	struct model m;
	u64 set, k;

	for (a = 0; a < ARRAY_SIZE(grid_algs); a++)
		for (gw = 1; gw <= SURV_MAX_GW; gw++)
			for (mp1 = 1; mp1 <= GRID_MAX_MIRRORS; mp1++)
				for (cnt = 1; cnt <= 2; cnt++) {
					layout_init(&l, 4096, gw, grid_algs[a],
						    1, cnt, mp1);
					if (gw <= model_parity(grid_algs[a]) ||
					    ore_layout_check(&l, gw * cnt * mp1,
							     &why))
						continue;
					if (grid_model(&m, &l))
						continue;
					n_layouts_checked++;
					for (extra = 0; extra <= 1; extra++) {
						n = l.num_comps + extra;
						if (n <= SURV_EXHAUSTIVE) {
							for (set = 0; set < (1ull << n); set++) {
								memset(lost, 0, sizeof(lost));
								lost[0] = (unsigned long)set;
								surv_check(&m, lost, n);
							}
							continue;
						}
						for (k = 0; k < SURV_RANDOM; k++) {
							/* a few losses: the interesting sets */
							u32 nl = (u32)rnd_below(2 * l.parity + 2 * mp1);

							memset(lost, 0, sizeof(lost));
							for (i = 0; i < nl; i++) {
								u32 b = (u32)rnd_below(n);

								lost[b / ORE_BITS_PER_LONG] |=
									1ul << (b % ORE_BITS_PER_LONG);
							}
							surv_check(&m, lost, n);
						}
					}
					model_free(&m);
				}
}

/* ---------------------------------------------------------------------
 * Case: ore_layout_raid_name()
 */

static void case_raid_name(void)
{
	static const struct {
		u32 alg, mp1;
		const char *name;
	} tab[] = {
		{ ORE_RAID0, 1, "raid0" }, { ORE_RAID0, 2, "raid1" },
		{ ORE_RAID0, 8, "raid1" }, { ORE_RAID4, 1, "raid4" },
		{ ORE_RAID4, 2, "raid4+1" }, { ORE_RAID5, 1, "raid5" },
		{ ORE_RAID5, 3, "raid5+1" }, { ORE_RAID6, 1, "raid6" },
		{ ORE_RAID6, 2, "raid6+1" }, { 1, 1, "unknown" },
		{ 7, 2, "unknown" }, { 0xffffffffu, 1, "unknown" },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(tab); i++)
		if (strcmp(ore_layout_raid_name(tab[i].alg, tab[i].mp1),
			   tab[i].name))
			failf("raid_name(%u, %u) = \"%s\", want \"%s\"",
			      tab[i].alg, tab[i].mp1,
			      ore_layout_raid_name(tab[i].alg, tab[i].mp1),
			      tab[i].name);
}

/* ---------------------------------------------------------------------
 * Case: ore_layout_cut() against a page-by-page walk
 */

/*
 * Brute force: walk the range page by page; a stripe is whole when every
 * page of it is in the range. Head: the pages of the first stripe when it
 * is not whole; tail: the pages of the last stripe when it is not whole
 * and not the first; full: the rest.
 */
static void cut_model(u64 U, u64 off, u64 len, struct ore_stripe_cut *e)
{
	u64 first = off / U, last = (off + len - 1) / U, p;
	bool first_whole = off % U == 0 && (first + 1) * U <= off + len;
	bool last_whole = (off + len) % U == 0 && last * U >= off;

	memset(e, 0, sizeof(*e));
	e->head_off = off;
	for (p = off; p < off + len; p += 4096) {
		u64 st = p / U;

		if (st == first && !first_whole)
			e->head_len += 4096;
		else if (st == last && !last_whole)
			e->tail_len += 4096;
		else
			e->full_len += 4096;
	}
	e->full_off = off + e->head_len;
	e->tail_off = e->full_off + e->full_len;
}

static void case_cut_matches_model(void)
{
	static const u32 dws[] = { 1, 2, 3, 5 };
	struct ore_stripe_cut got, want;
	u64 U, off, len, base;
	size_t a, u, b;
	struct ore_layout l;
	const char *why;

	for (a = 0; a < ARRAY_SIZE(dws); a++)
		for (u = 0; u < ARRAY_SIZE(grid_units); u++) {
			layout_init(&l, grid_units[u], dws[a], ORE_RAID0, 2, 2,
				    1);
			if (ore_layout_check(&l, dws[a] * 2, &why))
				continue;
			n_layouts_checked++;
			U = l.stripe_length;
			/* near 0 and far out (the arithmetic is the same) */
			for (b = 0; b < 2; b++) {
				base = b ? (UINT64_MAX / 4 / U) * U : 0;
				for (off = base; off < base + 3 * U; off += 4096)
					for (len = 4096; len <= 4 * U; len += 4096) {
						ore_layout_cut(&l, off, len, &got);
						cut_model(U, off, len, &want);
						n_offsets_checked++;
						if (memcmp(&got, &want, sizeof(got)))
							failf("%s cut(%" PRIu64 ", %" PRIu64 "): head %" PRIu64 "+%" PRIu64 " full %" PRIu64 "+%" PRIu64 " tail %" PRIu64 "+%" PRIu64 ", model head %" PRIu64 "+%" PRIu64 " full %" PRIu64 "+%" PRIu64 " tail %" PRIu64 "+%" PRIu64,
							      lstr(&l), off, len,
							      got.head_off, got.head_len,
							      got.full_off, got.full_len,
							      got.tail_off, got.tail_len,
							      want.head_off, want.head_len,
							      want.full_off, want.full_len,
							      want.tail_off, want.tail_len);
					}
			}
		}
}

/* ---------------------------------------------------------------------
 * The KTAP runner
 */

struct test_case {
	const char *name;
	void (*run)(void);
};

/*
 * ore_layout_comp_stripes: for every component and row of the model, the
 * stripe it returns holds that component's row (calc_si), and the run of
 * rows is logically contiguous and ends exactly where the next row of the
 * component is no longer the next stripe.
 */
static void grid_comp_stripes(const struct ore_layout *l, void *arg)
{
	u32 ncomps = l->num_comps, gwm = l->group_width * l->mirrors_p1, c;
	u64 U = l->stripe_length, nrows, r, k, rows, start, max;
	struct ore_striping_info si;
	struct model m;

	(void)arg;
	if (grid_model(&m, l))
		return;
	nrows = m.nrows;
	model_free(&m);
	n_layouts_checked++;
	for (c = 0; c < ncomps; c++)
		for (r = 0; r < nrows; r++) {
			max = 1 + r % 5;
			start = ore_layout_comp_stripes(l, c, r * l->stripe_unit +
							r % l->stripe_unit,
							max, &rows);
			n_offsets_checked++;
			if (rows < 1 || rows > max || start % U) {
				failf("%s comp %u row %" PRIu64 ": start %" PRIu64 " rows %" PRIu64,
				      lstr(l), c, r, start, rows);
				return;
			}
			for (k = 0; k <= rows; k++) {
				calc_si(l, start + k * U, &si);
				if (k == rows) {
					/* the run stops at a discontinuity or at max */
					if (rows < max && si.group == c / gwm &&
					    si.row == r + k) {
						failf("%s comp %u row %" PRIu64 ": run of %" PRIu64 " stops early",
						      lstr(l), c, r, rows);
						return;
					}
					break;
				}
				if (si.group != c / gwm || si.row != r + k ||
				    si.N != (r + k) % l->group_depth) {
					failf("%s comp %u row %" PRIu64 " +%" PRIu64 ": stripe at %" PRIu64 " is group %u row %" PRIu64,
					      lstr(l), c, r, k, start + k * U,
					      si.group, si.row);
					return;
				}
			}
		}
}

static void case_comp_stripes(void)
{
	grid_walk(grid_comp_stripes, NULL, NULL);
}

static const struct test_case cases[] = {
	{ "layout_check_rejects_bad_fields", case_check_rejects_bad },
	{ "layout_check_rejects_impossible_grid_layouts",
	  case_check_rejects_grid },
	{ "layout_check_accepts_good_and_derives_fields",
	  case_check_accepts_good },
	{ "layout_check_overflow_boundary", case_check_overflow_boundary },
	{ "component_numbering_mirrors_adjacent", case_component_numbering },
	{ "stripe_pos_matches_rule", case_stripe_pos_matches_rule },
	{ "stripe_row_positions_distinct", case_stripe_rows_distinct },
	{ "parity_rotation_balanced", case_parity_rotation_balanced },
	{ "docs_layout_md_tables", case_doc_tables },
	{ "docs_layout_md_worked_example", case_doc_example },
	{ "stripe_info_all_fields_every_unit_boundary",
	  case_stripe_info_all_offsets },
	{ "stripe_info_far_offsets", case_stripe_info_far_offsets },
	{ "data_units_bijection_parity_holds_no_data", case_unit_bijection },
	{ "byte_level_bijection_small_layouts", case_byte_bijection },
	{ "obj_size_matches_model", case_obj_size },
	{ "survives_matches_model_every_loss_set", case_survives_matches_model },
	{ "raid_name_one_naming", case_raid_name },
	{ "stripe_cut_matches_page_walk", case_cut_matches_model },
	{ "comp_stripes_walk_a_component_in_order", case_comp_stripes },
};

int main(void)
{
	const char *seed = getenv("ORE_TEST_SEED");
	unsigned long failed = 0;
	size_t i;

	if (seed && *seed)
		rng_state = strtoull(seed, NULL, 0);
	printf("KTAP version 1\n");
	printf("1..%zu\n", ARRAY_SIZE(cases));
	printf("# ore layout test, seed 0x%" PRIx64 "\n", rng_state);
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		u64 o0 = n_offsets_checked, s0 = n_sizes_checked;
		u64 l0 = n_layouts_checked;
		clock_t t0 = clock();

		case_fails = 0;
		cases[i].run();
		printf("# %s: %" PRIu64 " layouts, %" PRIu64 " offsets, %"
		       PRIu64 " sizes, %.2f s cpu\n", cases[i].name,
		       n_layouts_checked - l0, n_offsets_checked - o0,
		       n_sizes_checked - s0,
		       (double)(clock() - t0) / CLOCKS_PER_SEC);
		printf("%s %zu %s\n", case_fails ? "not ok" : "ok", i + 1,
		       cases[i].name);
		fflush(stdout);
		if (case_fails)
			failed++;
	}
	printf("# grid layouts %" PRIu64 ", layout visits %" PRIu64
	       ", offsets %" PRIu64
	       ", obj sizes %" PRIu64 " (%" PRIu64 " obj_size calls)"
	       ", rejections %" PRIu64 "\n",
	       n_grid_layouts, n_layouts_checked, n_offsets_checked,
	       n_sizes_checked, n_obj_calls, n_rejects_checked);
	printf("# %zu passed, %lu failed\n", ARRAY_SIZE(cases) - failed,
	       failed);
	return failed ? 1 : 0;
}
