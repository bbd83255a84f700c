// SPDX-License-Identifier: GPL-2.0
/*
 * test_ore_user - tests of the userspace ORE library (tools/ore_user.c),
 * printed as KTAP; exits non-zero on any failure. Run by
 * `make -C tools check`.
 *
 * The expected component contents are computed by a brute-force model that
 * does not use ore/layout.c: every logical byte is placed by the RFC 5664
 * formulas with the rotation written down in docs/layout.md (RAID5
 * left-symmetric, RAID6 P and Q adjacent and rotating the same way), and
 * P/Q are summed byte by byte with a bitwise GF(2^8) multiply.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "ore_user.h"

static int test_nr, test_failed;

static void result(int ok, const char *fmt, ...)
{
	va_list ap;

	printf("%sok %d ", ok ? "" : "not ", ++test_nr);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	if (!ok)
		test_failed++;
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

static void fill_random(uint8_t *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		p[i] = (uint8_t)rnd();
}

/* Carry-less multiply modulo 0x11d, one bit at a time. */
static uint8_t slow_mul(uint8_t a, uint8_t b)
{
	unsigned int r = 0, x = a;

	while (b) {
		if (b & 1)
			r ^= x;
		b >>= 1;
		x <<= 1;
		if (x & 0x100)
			x ^= 0x11d;
	}
	return (uint8_t)r;
}

static uint8_t slow_pow2(unsigned int i)
{
	uint8_t r = 1;

	while (i--)
		r = slow_mul(r, 2);
	return r;
}

static void test_gf(void)
{
	unsigned int a, b, bad = 0;

	for (a = 0; a < 256; a++)
		for (b = 0; b < 256; b++) {
			uint8_t m = ore_gf_mul((uint8_t)a, (uint8_t)b);

			if (m != slow_mul((uint8_t)a, (uint8_t)b))
				bad++;
			if (b && ore_gf_div(m, (uint8_t)b) != a)
				bad++;
		}
	for (a = 0; a < 300; a++)
		if (ore_gf_exp2(a) != slow_pow2(a))
			bad++;
	result(!bad && ore_gf_mul(2, 0x80) == 0x1d,
	       "gf256: mul/div/exp against a bitwise model (%u mismatches)",
	       bad);
}

/* Every pair of lost columns of a RAID6 stripe is rebuilt exactly. */
static void test_recover(void)
{
	enum { NDATA = 7, BYTES = 512 };
	uint8_t *cols[NDATA + 2], *orig[NDATA + 2];
	int a, b, bad = 0, tried = 0;
	unsigned int i;
	size_t x;

	for (i = 0; i < NDATA + 2; i++) {
		cols[i] = malloc(BYTES);
		orig[i] = malloc(BYTES);
	}
	for (i = 0; i < NDATA; i++)
		fill_random(orig[i], BYTES);
	/* P and Q by brute force, straight from the definition */
	for (x = 0; x < BYTES; x++) {
		uint8_t p = 0, q = 0;

		for (i = 0; i < NDATA; i++) {
			p ^= orig[i][x];
			q ^= slow_mul(slow_pow2(i), orig[i][x]);
		}
		orig[NDATA][x] = p;
		orig[NDATA + 1][x] = q;
	}
	for (i = 0; i < NDATA; i++)
		memcpy(cols[i], orig[i], BYTES);
	ore_user_gen_pq(cols, NDATA, BYTES, cols[NDATA], cols[NDATA + 1]);
	result(!memcmp(cols[NDATA], orig[NDATA], BYTES) &&
	       !memcmp(cols[NDATA + 1], orig[NDATA + 1], BYTES),
	       "gen_pq: P and Q equal sum g^i * D_i of lib/raid6");

	for (a = -1; a < NDATA + 2; a++)
		for (b = a + 1; b < NDATA + 2; b++) {
			for (i = 0; i < NDATA + 2; i++)
				memcpy(cols[i], orig[i], BYTES);
			if (a >= 0)
				memset(cols[a], 0xa5, BYTES);
			memset(cols[b], 0x5a, BYTES);
			tried++;
			if (ore_user_recover(cols, NDATA, 1, BYTES, a, b)) {
				bad++;
				continue;
			}
			for (i = 0; i < NDATA + 2; i++)
				if (memcmp(cols[i], orig[i], BYTES)) {
					bad++;
					break;
				}
		}
	result(!bad, "recover: RAID6 rebuilds all %d one- and two-column losses (%d bad)",
	       tried, bad);
	for (i = 0; i < NDATA + 2; i++)
		memcpy(cols[i], orig[i], BYTES);
	result(ore_user_recover(cols, NDATA, 0, BYTES, 1, 2) == -EIO,
	       "recover: two losses without Q are refused with -EIO");
	for (i = 0; i < NDATA + 2; i++) {
		free(cols[i]);
		free(orig[i]);
	}
}

/* ------------------------------------------------- brute-force model */

struct model {
	struct ore_layout l;	/* the caller's fields only */
	uint32_t parity, dw, ncomps;
	uint64_t size;
	uint8_t *data;		/* the logical object */
	uint8_t **comp;		/* expected component contents */
	uint64_t comp_len;	/* bytes allocated per component */
};

static uint32_t model_parity(uint32_t alg)
{
	return alg == ORE_RAID6 ? 2 : (alg == ORE_RAID4 || alg == ORE_RAID5);
}

/* Group position of data column @col (P: dw, Q: dw + 1) on @row. */
static uint32_t model_pos(const struct model *md, uint64_t row, uint32_t col)
{
	uint32_t gw = md->l.group_width, par = md->parity;
	uint32_t p0;

	if (md->l.raid_algorithm != ORE_RAID5 &&
	    md->l.raid_algorithm != ORE_RAID6)
		return col;
	/* row 0: parity on the last components, one to the left each row */
	p0 = (uint32_t)(((int64_t)gw - par - (int64_t)(row % gw)) % gw + gw) % gw;
	if (col >= md->dw)
		return (p0 + col - md->dw) % gw;
	return (p0 + par + col) % gw;
}

static void model_build(struct model *md)
{
	uint32_t su = md->l.stripe_unit, gw = md->l.group_width;
	uint32_t D = md->l.group_depth, G = md->l.group_count;
	uint32_t mp1 = md->l.mirrors_p1;
	uint64_t U = (uint64_t)md->dw * su, T = U * D, S = T * G;
	uint64_t L, rows, r, u;
	uint32_t i, g, c, m;

	rows = md->size / S * D + D + 1;
	md->comp_len = rows * su;
	md->comp = calloc(md->ncomps, sizeof(*md->comp));
	for (i = 0; i < md->ncomps; i++)
		md->comp[i] = calloc(1, md->comp_len);
	for (L = 0; L < md->size; L++) {
		uint64_t M = L / S, rem = L % S;
		uint64_t grp = rem / T, N = rem % T / U;
		uint64_t col = L % U / su, row = M * D + N;
		uint64_t off = row * su + L % su;

		for (m = 0; m < mp1; m++) {
			uint32_t comp = (uint32_t)((grp * gw +
				model_pos(md, row, (uint32_t)col)) * mp1 + m);

			md->comp[comp][off] = md->data[L];
		}
	}
	if (!md->parity)
		return;
	for (g = 0; g < G; g++)
		for (r = 0; r < rows; r++)
			for (u = 0; u < su; u++) {
				uint8_t p = 0, q = 0;
				uint64_t off = r * su + u;

				for (c = 0; c < md->dw; c++) {
					uint32_t comp = (g * gw +
						model_pos(md, r, c)) * mp1;
					uint8_t d = md->comp[comp][off];

					p ^= d;
					q ^= slow_mul(slow_pow2(c), d);
				}
				for (m = 0; m < mp1; m++) {
					md->comp[(g * gw + model_pos(md, r,
						md->dw)) * mp1 + m][off] = p;
					if (md->parity > 1)
						md->comp[(g * gw + model_pos(md,
							r, md->dw + 1)) * mp1 +
							m][off] = q;
				}
			}
}

static void model_free(struct model *md)
{
	uint32_t i;

	for (i = 0; md->comp && i < md->ncomps; i++)
		free(md->comp[i]);
	free(md->comp);
	md->comp = NULL;
}

/* Component @fd equals @want (zero-extended both ways). */
static int comp_matches(int fd, const uint8_t *want, uint64_t len)
{
	struct stat st;
	uint8_t *have;
	uint64_t i, n;
	int ok = 1;

	if (fstat(fd, &st))
		return 0;
	n = (uint64_t)st.st_size;
	if (n > len) {
		/* beyond the model: must be zeros */
		have = malloc(n - len);
		if (pread(fd, have, n - len, (off_t)len) != (ssize_t)(n - len))
			ok = 0;
		for (i = 0; ok && i < n - len; i++)
			if (have[i])
				ok = 0;
		free(have);
		n = len;
	}
	have = calloc(1, len);
	if (n && pread(fd, have, n, 0) != (ssize_t)n)
		ok = 0;
	if (ok && memcmp(have, want, len))
		ok = 0;
	free(have);
	return ok;
}

/* The algorithm alone (mirrors are named apart in the test names). */
static const char *alg_name(uint32_t alg)
{
	return ore_layout_raid_name(alg, 1);
}

/* One layout under test: the model, the library's object and its files. */
struct layout_case {
	struct model md;
	struct ore_user_obj obj;
	struct ore_user_comp *comps, *deg;
	uint8_t *buf;
	char name[128];
};

/* 24 random writes, to the model and through the library. */
static void layout_write(struct layout_case *t, uint64_t max_size)
{
	struct model *md = &t->md;
	int k, ok = 1;

	for (k = 0; k < 24 && ok; k++) {
		uint64_t off = rnd() % max_size, len = rnd() % (max_size - off) + 1;

		if (k % 4 == 0)		/* some small writes */
			len = len % 300 + 1;
		fill_random(md->data + off, len);
		if (ore_user_write(&t->obj, off, md->data + off, len))
			ok = 0;
		if (off + len > md->size)
			md->size = off + len;
	}
	result(ok, "%s: 24 random writes", t->name);
}

/* Component @c holds exactly @want (through its base offset). */
static int comp_equals(struct ore_user_comp c, const uint8_t *want,
		       uint64_t len)
{
	uint8_t *tmp = malloc(len);
	struct stat st;
	uint64_t have;
	int ok = 1;

	if (fstat(c.fd, &st))
		ok = 0;
	if (pread(c.fd, tmp, len, (off_t)c.base) < 0)
		ok = 0;
	if (c.base == 0) {
		if (!comp_matches(c.fd, want, len))
			ok = 0;
	} else {
		have = (uint64_t)st.st_size > c.base ?
		       (uint64_t)st.st_size - c.base : 0;
		if (have > len)
			ok = 0;
		memset(tmp + (have < len ? have : len), 0,
		       len - (have < len ? have : len));
		if (memcmp(tmp, want, len))
			ok = 0;
	}
	free(tmp);
	return ok;
}

/* The component objects hold exactly the model's bytes. */
static void layout_check_comps(struct layout_case *t)
{
	struct model *md = &t->md;
	uint32_t i;
	int ok = 1;

	model_build(md);
	for (i = 0; i < md->ncomps; i++) {
		if (!comp_equals(t->comps[i], md->comp[i], md->comp_len)) {
			printf("# component %u differs from the brute-force model\n", i);
			ok = 0;
			break;
		}
	}
	result(ok, "%s: components equal the brute-force placement and parity",
	       t->name);
}

/* Whole and random reads; the checker agrees and catches a flipped byte. */
static void layout_read_check(struct layout_case *t)
{
	struct model *md = &t->md;
	struct ore_user_report rep;
	int k, ok, err;

	ok = !ore_user_read(&t->obj, 0, t->buf, md->size) &&
	     !memcmp(t->buf, md->data, md->size);
	for (k = 0; k < 50 && ok; k++) {
		uint64_t off = rnd() % md->size, len = rnd() % (md->size - off) + 1;

		if (ore_user_read(&t->obj, off, t->buf, len) ||
		    memcmp(t->buf, md->data + off, len))
			ok = 0;
	}
	result(ok, "%s: read back (whole and 50 random ranges)", t->name);

	err = ore_user_check(&t->obj, md->size, 0, &rep);
	result(err == 0 && rep.rows, "%s: checker finds %llu rows consistent",
	       t->name, (unsigned long long)rep.rows);
	if (md->parity || md->l.mirrors_p1 > 1) {
		/* flip one byte of a stored unit at row 0 of component 0 */
		uint8_t byte;
		off_t where = (off_t)t->comps[0].base + 17;

		if (pread(t->comps[0].fd, &byte, 1, where) != 1)
			byte = 0;
		byte ^= 0x40;
		ok = pwrite(t->comps[0].fd, &byte, 1, where) == 1;
		err = ore_user_check(&t->obj, md->size, 0, &rep);
		result(ok && err == 1 && rep.bad_parity + rep.bad_mirror >= 1 &&
		       rep.bad_parity + rep.bad_mirror <= 2,
		       "%s: checker catches a flipped byte (%s on component %d)",
		       t->name, rep.first_bad_what ? rep.first_bad_what : "-",
		       rep.first_bad_comp);
		byte ^= 0x40;
		if (pwrite(t->comps[0].fd, &byte, 1, where) != 1)
			result(0, "%s: restore flipped byte", t->name);
	}
}

/* Invert the byte at @off of component @c; returns 0 on failure. */
static int flip_comp_byte(struct ore_user_comp c, uint64_t off)
{
	uint8_t b;

	if (pread(c.fd, &b, 1, (off_t)(c.base + off)) != 1)
		b = 0;
	b ^= 0xff;
	return pwrite(c.fd, &b, 1, (off_t)(c.base + off)) == 1;
}

/*
 * Repair (fsck.exofs --repair): a byte of P (and Q) of row 0 and, with
 * mirrors, of copy 1 of data column 0 is inverted. A check finds them and
 * writes nothing; a repair rewrites them; a second check is clean and every
 * component equals the model again (the data, copy 0, was intact).
 */
static void layout_repair(struct layout_case *t)
{
	struct model *md = &t->md;
	const struct ore_layout *l = &t->obj.layout;
	struct ore_user_report rep;
	uint32_t comp[3], n = 0, i;
	int ok = 1, r;

	if (!md->parity && l->mirrors_p1 < 2)
		return;
	for (i = 0; i < md->parity; i++)
		comp[n++] = ore_layout_comp(l, 0,
				ore_layout_stripe_pos(l, 0, l->data_width + i), 0);
	if (l->mirrors_p1 > 1)
		comp[n++] = ore_layout_comp(l, 0, ore_layout_stripe_pos(l, 0, 0),
					    1);
	for (i = 0; i < n; i++)
		ok &= flip_comp_byte(t->comps[comp[i]], 100 + i);
	r = ore_user_check(&t->obj, md->size, 0, &rep);
	ok &= r == 1 && !rep.repaired &&
	      !comp_equals(t->comps[comp[0]], md->comp[comp[0]], md->comp_len);
	result(ok, "%s: check finds %u damaged units (%llu rows, %llu mirrors) and writes nothing",
	       t->name, n, (unsigned long long)rep.bad_parity,
	       (unsigned long long)rep.bad_mirror);
	r = ore_user_check(&t->obj, md->size, 1, &rep);
	result(r == 1 && rep.repaired >= n && !rep.repair_failed,
	       "%s: repair rewrites %llu units", t->name,
	       (unsigned long long)rep.repaired);
	r = ore_user_check(&t->obj, md->size, 0, &rep);
	ok = r == 0;
	for (i = 0; i < md->ncomps && ok; i++)
		ok = comp_equals(t->comps[i], md->comp[i], md->comp_len);
	result(ok, "%s: after the repair the check is clean and the components equal the model",
	       t->name);
}

/*
 * ore_user_rebuild_unit(): every stripe unit of every component, rebuilt
 * from the rest of its row, equals the model's (exhaustive); without
 * redundancy it is -EIO.
 */
static void layout_rebuild_units(struct layout_case *t)
{
	struct model *md = &t->md;
	uint32_t su = md->l.stripe_unit, c;
	uint64_t r, rows = md->comp_len / su, bad = 0, n = 0;
	uint8_t *unit = malloc(su);
	int err;

	if (!md->parity && md->l.mirrors_p1 < 2) {
		err = ore_user_rebuild_unit(&t->obj, 0, 0, unit);
		result(err == -EIO, "%s: rebuild of a unit without redundancy: -EIO (%d)",
		       t->name, err);
		free(unit);
		return;
	}
	for (c = 0; c < md->ncomps; c++)
		for (r = 0; r < rows; r++) {
			n++;
			err = ore_user_rebuild_unit(&t->obj, c, r, unit);
			if (err || memcmp(unit, md->comp[c] + r * su, su))
				bad++;
		}
	result(!bad, "%s: every stripe unit rebuilt from the rest of its row (%llu units, %llu wrong)",
	       t->name, (unsigned long long)n, (unsigned long long)bad);
	free(unit);
}

/* Positions @i and @j lost (all their copies; one copy for mirrors only). */
static int layout_degraded_case(struct layout_case *t, uint32_t i, uint32_t j)
{
	struct model *md = &t->md;
	uint32_t c, m, mp1 = md->l.mirrors_p1;
	struct ore_user_obj dobj;
	const char *why;

	memcpy(t->deg, t->comps, md->ncomps * sizeof(*t->deg));
	for (m = 0; m < mp1; m++) {
		t->deg[i * mp1 + m].fd = ORE_USER_MISSING;
		t->deg[j * mp1 + m].fd = ORE_USER_MISSING;
	}
	if (md->parity == 0) {	/* mirrors: lose one copy */
		memcpy(t->deg, t->comps, md->ncomps * sizeof(*t->deg));
		t->deg[i * mp1].fd = ORE_USER_MISSING;
	}
	ore_user_init(&dobj, &md->l, md->ncomps, t->deg, &why);
	if (ore_user_read(&dobj, 0, t->buf, md->size) ||
	    memcmp(t->buf, md->data, md->size))
		return 0;
	for (c = 0; c < 10; c++) {
		uint64_t off = rnd() % md->size;
		uint64_t len = rnd() % (md->size - off) + 1;

		if (ore_user_read(&dobj, off, t->buf, len) ||
		    memcmp(t->buf, md->data + off, len))
			return 0;
	}
	return 1;
}

/* Degraded reads: every lost copy of every column the layout allows. */
static void layout_degraded_reads(struct layout_case *t)
{
	struct model *md = &t->md;
	uint32_t gw = md->l.group_width, npos = gw * md->l.group_count;
	uint32_t maxlost = md->parity ? md->parity : 1, i, j;
	int tried = 0, bad = 0;

	for (i = 0; i < npos; i++)
		for (j = (maxlost > 1 ? i + 1 : i);
		     j < (maxlost > 1 ? npos : i + 1); j++) {
			/* same group only makes sense for 2 losses */
			if (i != j && i / gw != j / gw)
				continue;
			tried++;
			if (!layout_degraded_case(t, i, j))
				bad++;
		}
	result(!bad, "%s: degraded reads with %u lost column(s), %d cases (%d bad)",
	       t->name, maxlost, tried, bad);
}

/* Degraded write: lose one column, write, read back degraded. */
static void layout_degraded_write(struct layout_case *t)
{
	struct model *md = &t->md;
	struct ore_user_obj dobj;
	uint64_t off = rnd() % md->size, len = rnd() % (md->size - off) + 1;
	uint32_t m, mp1 = md->l.mirrors_p1;
	uint32_t lostpos = (uint32_t)(rnd() % md->l.group_width);
	const char *why;
	int ok;

	memcpy(t->deg, t->comps, md->ncomps * sizeof(*t->deg));
	for (m = 0; m < mp1; m++)
		t->deg[lostpos * mp1 + m].fd = ORE_USER_MISSING;
	ore_user_init(&dobj, &md->l, md->ncomps, t->deg, &why);
	fill_random(md->data + off, len);
	ok = !ore_user_write(&dobj, off, md->data + off, len) &&
	     !ore_user_read(&dobj, 0, t->buf, md->size) &&
	     !memcmp(t->buf, md->data, md->size);
	result(ok, "%s: degraded write with position %u lost reads back",
	       t->name, lostpos);
}

/* A read beyond the redundancy fails with -EIO. */
static void layout_too_many_lost(struct layout_case *t)
{
	struct model *md = &t->md;
	uint32_t su = md->l.stripe_unit, gw = md->l.group_width;
	uint32_t lose = md->parity + 1, m, p, mp1 = md->l.mirrors_p1;
	struct ore_user_obj dobj;
	const char *why;
	int err;

	if (lose > gw)
		return;
	memcpy(t->deg, t->comps, md->ncomps * sizeof(*t->deg));
	for (p = 0; p < lose; p++)
		for (m = 0; m < mp1; m++)
			t->deg[p * mp1 + m].fd = ORE_USER_MISSING;
	ore_user_init(&dobj, &md->l, md->ncomps, t->deg, &why);
	err = ore_user_read(&dobj, 0, t->buf,
			    md->size < 2 * (uint64_t)su * gw ?
			    md->size : 2 * (uint64_t)su * gw);
	result(err == -EIO, "%s: %u lost columns: read gives -EIO (%d)",
	       t->name, lose, err);
}

/*
 * One layout: random writes (model and library), then
 *  - the components equal the brute-force model (placement + P/Q),
 *  - a full and random partial reads give the model's data,
 *  - the checker agrees, and catches a flipped byte,
 *  - reads with every single lost component (and every pair for RAID6)
 *    rebuild the data.
 */
static void test_layout(uint32_t alg, uint32_t su, uint32_t gw, uint32_t D,
			uint32_t G, uint32_t mp1, uint64_t max_size)
{
	struct layout_case t;
	struct model *md = &t.md;
	const char *why;
	uint32_t i;

	memset(&t, 0, sizeof(t));
	md->l.stripe_unit = su;
	md->l.group_width = gw;
	md->l.group_depth = D;
	md->l.group_count = G;
	md->l.mirrors_p1 = mp1;
	md->l.raid_algorithm = alg;
	md->parity = model_parity(alg);
	md->dw = gw - md->parity;
	md->ncomps = gw * G * mp1;
	snprintf(t.name, sizeof(t.name), "%s su=%u gw=%u depth=%u groups=%u mirrors_p1=%u",
		 alg_name(alg), su, gw, D, G, mp1);

	t.comps = calloc(md->ncomps, sizeof(*t.comps));
	t.deg = calloc(md->ncomps, sizeof(*t.deg));
	for (i = 0; i < md->ncomps; i++) {
		FILE *f = tmpfile();

		t.comps[i].fd = dup(fileno(f));
		fclose(f);
		t.comps[i].base = (i & 1) ? 8192 : 0;	/* exercise base */
	}
	if (ore_user_init(&t.obj, &md->l, md->ncomps, t.comps, &why)) {
		result(0, "%s: init: %s", t.name, why);
		goto out;
	}
	md->data = calloc(1, max_size);
	t.buf = malloc(max_size);
	md->size = 0;
	layout_write(&t, max_size);
	layout_check_comps(&t);
	layout_read_check(&t);
	layout_repair(&t);
	layout_rebuild_units(&t);
	if (md->parity || mp1 > 1)
		layout_degraded_reads(&t);
	if (md->parity)
		layout_degraded_write(&t);
	layout_too_many_lost(&t);
	free(t.buf);
	free(md->data);
	model_free(md);
out:
	for (i = 0; i < md->ncomps; i++)
		close(t.comps[i].fd);
	free(t.comps);
	free(t.deg);
}

/* ore_user_open_stores: "<dir>/<oid hex>", first_dev rotation, EMPTY. */
static void test_stores(void)
{
	char tmpl[] = "/tmp/test_ore_user.XXXXXX", path[1024];
	char dirs_buf[3][280];
	const char *dirs[3];
	struct ore_user_comp comps[3];
	int i, err, ok;
	struct stat st;

	if (!mkdtemp(tmpl)) {
		result(0, "stores: mkdtemp: %s", strerror(errno));
		return;
	}
	for (i = 0; i < 3; i++) {
		snprintf(dirs_buf[i], sizeof(dirs_buf[i]), "%s/s%d", tmpl, i);
		mkdir(dirs_buf[i], 0700);
		dirs[i] = dirs_buf[i];
	}
	err = ore_user_open_stores(comps, 3, dirs, 3, 1, 0x10AB, O_RDONLY);
	ok = !err && comps[0].fd == ORE_USER_EMPTY &&
	     comps[2].fd == ORE_USER_EMPTY;
	result(ok, "stores: absent objects open as EMPTY");
	err = ore_user_open_stores(comps, 3, dirs, 3, 1, 0x10AB,
				   O_RDWR | O_CREAT);
	ok = !err;
	for (i = 0; ok && i < 3; i++) {
		char c = (char)('a' + i);

		ok = pwrite(comps[i].fd, &c, 1, 0) == 1;
	}
	ore_user_close(comps, 3);
	/* component 0 is in store 1, component 2 in store 0 */
	snprintf(path, sizeof(path), "%s/s1/10ab", tmpl);
	ok = ok && !stat(path, &st) && st.st_size == 1;
	{
		char c = 0;
		int fd = open(path, O_RDONLY);

		ok = ok && fd >= 0 && read(fd, &c, 1) == 1 && c == 'a';
		if (fd >= 0)
			close(fd);
		snprintf(path, sizeof(path), "%s/s0/10ab", tmpl);
		fd = open(path, O_RDONLY);
		ok = ok && fd >= 0 && read(fd, &c, 1) == 1 && c == 'c';
		if (fd >= 0)
			close(fd);
	}
	result(ok, "stores: component i lives in store (first_dev + i) %% n as lowercase hex oid");
	dirs[1] = NULL;
	err = ore_user_open_stores(comps, 3, dirs, 3, 0, 0x10ab, O_RDONLY);
	result(!err && comps[1].fd == ORE_USER_MISSING && comps[0].fd >= 0,
	       "stores: a NULL store directory is a missing component");
	ore_user_close(comps, 3);
	for (i = 0; i < 3; i++) {
		snprintf(path, sizeof(path), "%s/10ab", dirs_buf[i]);
		unlink(path);
		rmdir(dirs_buf[i]);
	}
	rmdir(tmpl);
}

/* The checker skips holes (SEEK_DATA) of a sparse object beyond 4 GiB. */
static void test_sparse_check(void)
{
	struct ore_layout l = { .stripe_unit = 65536, .group_width = 4,
				.group_depth = 1, .group_count = 1,
				.mirrors_p1 = 1, .raid_algorithm = ORE_RAID5 };
	struct ore_user_comp c[4];
	struct ore_user_obj o;
	struct ore_user_report rep;
	const char *why;
	uint8_t buf[70000], b = 0;
	uint64_t far = 5ull << 30;
	int i, r1, r2;

	for (i = 0; i < 4; i++) {
		FILE *f = tmpfile();

		c[i].fd = dup(fileno(f));
		c[i].base = 0;
		fclose(f);
	}
	fill_random(buf, sizeof(buf));
	ore_user_init(&o, &l, 4, c, &why);
	ore_user_write(&o, far, buf, sizeof(buf));
	ore_user_write(&o, 100, buf, 5000);
	r1 = ore_user_check(&o, far + sizeof(buf), 0, &rep);
	result(r1 == 0 && rep.rows <= 4,
	       "sparse 5 GiB object: checker visits only the %llu rows with data",
	       (unsigned long long)rep.rows);
	if (pread(c[1].fd, &b, 1, 16) != 1)
		b = 0;
	b ^= 1;
	if (pwrite(c[1].fd, &b, 1, 16) != 1)
		b = 0;
	r2 = ore_user_check(&o, far + sizeof(buf), 0, &rep);
	result(r2 == 1 && rep.bad_parity == 1,
	       "sparse object: a flipped byte is still found");
	for (i = 0; i < 4; i++)
		close(c[i].fd);
}

/* CRC-32C one bit at a time, not inverted (the data checksum's register). */
static uint32_t slow_crc32c(const uint8_t *p, size_t n)
{
	uint32_t crc = ~0U;
	int k;

	while (n--) {
		crc ^= *p++;
		for (k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (crc & 1 ? 0x82F63B78 : 0);
	}
	return crc ? crc : 1;
}

struct bad_list {
	uint64_t off[8];
	int n;
};

static int note_bad(void *arg, uint64_t off, uint32_t want, uint32_t got)
{
	struct bad_list *b = arg;

	if (want == got)
		return -EINVAL;
	if (b->n < 8)
		b->off[b->n] = off;
	b->n++;
	return 0;
}

/* Side file entries of @fd: @n of them into @e (0 past its end). */
static int read_entries(int fd, uint32_t *e, size_t n)
{
	ssize_t r;
	size_t i;

	memset(e, 0, n * 4);
	r = pread(fd, e, n * 4, 0);
	for (i = 0; i < n; i++)
		e[i] = le32toh(e[i]);
	return r < 0 ? -1 : (int)(r / 4);
}

/*
 * The file system without user extended attributes: with no_xattr set,
 * the attribute calls of ore_user.c (these, defined in the program,
 * come before the C library's) fail as there, with EOPNOTSUPP.
 */
static int no_xattr;

ssize_t fgetxattr(int fd, const char *name, void *value, size_t size)
{
	if (no_xattr) {
		errno = EOPNOTSUPP;
		return -1;
	}
	return syscall(SYS_fgetxattr, fd, name, value, size);
}

int fsetxattr(int fd, const char *name, const void *value, size_t size,
	      int flags)
{
	if (no_xattr) {
		errno = EOPNOTSUPP;
		return -1;
	}
	return (int)syscall(SYS_fsetxattr, fd, name, value, size, flags);
}

/*
 * The head of the file @fd: its ORE_FILE_CSUM_HEAD entries into @e (0
 * past the value's end). Returns the value's length, or -errno.
 */
static int read_head(int fd, uint32_t *e)
{
	ssize_t n;
	int i;

	memset(e, 0, ORE_FILE_CSUM_HEAD * 4);
	n = fgetxattr(fd, ORE_FILE_CSUM_XATTR, e, ORE_FILE_CSUM_HEAD * 4);
	if (n < 0)
		return -errno;
	for (i = 0; i < (int)ORE_FILE_CSUM_HEAD; i++)
		e[i] = le32toh(e[i]);
	return (int)n;
}

/* Set the head of the file @fd to the first @n entries of @e. */
static int write_head(int fd, const uint32_t *e, int n)
{
	uint32_t le[ORE_FILE_CSUM_HEAD];
	int i;

	for (i = 0; i < n; i++)
		le[i] = htole32(e[i]);
	return fsetxattr(fd, ORE_FILE_CSUM_XATTR, le, (size_t)n * 4, 0);
}

/*
 * The entry of a block by the formula of each type, computed apart from
 * ore_user_csum_block(): CRC-32C bit by bit; XXH64's low 32 bits from
 * ore_xxh64() (pinned to check values in test_csum_types()).
 */
static uint32_t ref_entry(uint32_t type, const uint8_t *block)
{
	if (type == ORE_CSUM_CRC32C)
		return slow_crc32c(block, 4096);
	return ore_csum_value((uint32_t)ore_xxh64(block, 4096, 0));
}

/*
 * Data checksums of a small file store component, entries of @type: all
 * in the head (the attribute of the component's file) written by
 * ore_user_csum_stamp(), no side file made; a partial last block 0 and
 * left out of the value; the entries the type's formula's (ref_entry());
 * ore_user_csum_verify() without a side file finding a flipped byte and
 * skipping entries of 0; the head read with the other type fails
 * everywhere.
 */
static void test_csum(uint32_t type)
{
	char tmpl[] = "/tmp/test_ore_user.XXXXXX", path[1024], cpath[1024];
	uint32_t other = type == ORE_CSUM_XXH64 ? ORE_CSUM_CRC32C :
			 ORE_CSUM_XXH64;
	const char *tn = ore_user_csum_name(type);
	uint8_t data[5 * 4096 + 100];
	struct ore_user_comp c = { .base = 0 };
	struct bad_list bl = { .n = 0 };
	uint32_t e[ORE_FILE_CSUM_HEAD];
	uint64_t checked = 0;
	int cfd = -1, ok, i, err;
	int64_t nbad;

	if (!mkdtemp(tmpl)) {
		result(0, "csum %s: mkdtemp: %s", tn, strerror(errno));
		return;
	}
	snprintf(path, sizeof(path), "%s/20001", tmpl);
	ore_user_csum_path(cpath, sizeof(cpath), tmpl, 0x20001);
	result(!strcmp(cpath + strlen(tmpl), "/20001.csum"),
	       "csum %s: the side file of object 0x20001 is \"20001.csum\"", tn);
	c.fd = open(path, O_RDWR | O_CREAT, 0600);
	fill_random(data, sizeof(data));
	ok = pwrite(c.fd, data, 1000, 0) == 1000;
	err = ore_user_csum_stamp(&c, type, &cfd, cpath, 0, 1000);
	result(ok && !err && read_head(c.fd, e) == 0 && cfd < 0 &&
	       access(cpath, F_OK),
	       "csum %s: no whole block: a head of no bytes, no side file", tn);
	ok = pwrite(c.fd, data, sizeof(data), 0) == (ssize_t)sizeof(data);
	err = ore_user_csum_stamp(&c, type, &cfd, cpath, 0, sizeof(data));
	/* 5 entries: the last block's 0 is left out of the value */
	ok = ok && !err && read_head(c.fd, e) == 5 * 4;
	for (i = 0; ok && i < 5; i++)
		ok = e[i] == ref_entry(type, data + i * 4096) &&
		     e[i] == ore_user_csum_block(type, data + i * 4096) &&
		     e[i] != ore_user_csum_block(other, data + i * 4096);
	result(ok && !e[5] && cfd < 0 && access(cpath, F_OK),
	       "csum %s: 5 whole blocks get their %s entry in the head (20 bytes), the partial last block 0, no side file",
	       tn, tn);
	nbad = ore_user_csum_verify(&c, type, cfd, note_bad, &bl, &checked);
	result(nbad == 0 && checked == 5 && !bl.n,
	       "csum %s: verify without a side file: 5 blocks checked, none bad",
	       tn);
	checked = 0;
	nbad = ore_user_csum_verify(&c, other, cfd, note_bad, &bl, &checked);
	result(nbad == 5 && checked == 5 && bl.n == 5,
	       "csum %s: verified as %s, all 5 blocks fail", tn,
	       ore_user_csum_name(other));
	bl.n = 0;
	data[2 * 4096 + 7] ^= 0x10;
	ok = pwrite(c.fd, data + 2 * 4096 + 7, 1, 2 * 4096 + 7) == 1;
	checked = 0;
	nbad = ore_user_csum_verify(&c, type, cfd, note_bad, &bl, &checked);
	result(ok && nbad == 1 && bl.n == 1 && bl.off[0] == 2 * 4096,
	       "csum %s: verify finds a flipped byte in block 2 (offset %llu)",
	       tn, (unsigned long long)bl.off[0]);
	/* a restamp of a range touching blocks 1..2 in part: both again */
	err = ore_user_csum_stamp(&c, type, &cfd, cpath, 4097, 4096);
	bl.n = 0;
	nbad = ore_user_csum_verify(&c, type, cfd, note_bad, &bl, &checked);
	read_head(c.fd, e);
	result(!err && nbad == 0 && e[2] == ref_entry(type, data + 2 * 4096),
	       "csum %s: a stamp of a range restamps every block it touches",
	       tn);
	/* entry 0 is not verified */
	e[0] = 0;
	ok = !write_head(c.fd, e, 5);
	data[5] ^= 1;
	ok = ok && pwrite(c.fd, data + 5, 1, 5) == 1;
	checked = 0;
	nbad = ore_user_csum_verify(&c, type, cfd, note_bad, &bl, &checked);
	result(ok && nbad == 0 && checked == 4,
	       "csum %s: an entry of 0 is not verified (4 blocks checked)", tn);
	/* the component cut inside block 3: its entry and block 4's become 0 */
	ok = !ftruncate(c.fd, 3 * 4096 + 10);
	err = ore_user_csum_stamp(&c, type, &cfd, cpath, 3 * 4096,
				  2 * 4096 + 100);
	result(ok && !err && read_head(c.fd, e) == 3 * 4 && !e[0] && e[2] &&
	       !e[3] && !e[4] && !e[5] && cfd < 0,
	       "csum %s: blocks reaching past the component's end get 0, left out of the head (12 bytes)",
	       tn);
	close(c.fd);
	unlink(path);
	rmdir(tmpl);
}

/* Open "<dir>/<oid>" (made) and fill it with @nblocks random blocks. */
static int head_obj(const char *dir, unsigned int oid, uint8_t *data,
		    unsigned int nblocks, char *path, char *cpath)
{
	int fd;

	snprintf(path, 1024, "%s/%x", dir, oid);
	ore_user_csum_path(cpath, 1024, dir, oid);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	fill_random(data, (size_t)nblocks * 4096);
	if (fd >= 0 && pwrite(fd, data, (size_t)nblocks * 4096, 0) !=
	    (ssize_t)nblocks * 4096) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Done with an object of head_obj(): its file and side file go. */
static void head_obj_drop(int fd, int cfd, const char *path,
			  const char *cpath)
{
	if (cfd >= 0)
		close(cfd);
	if (fd >= 0)
		close(fd);
	unlink(cpath);
	unlink(path);
}

/*
 * The head and the side file together, entries of @type: a 20-block
 * object has the entries of blocks 0-15 in its head, 16-19 in its side
 * file (whose first 64 bytes are then not looked at); an object without
 * a head (written before it) has them all in its side file, and its
 * first stamp of a head block makes the head with the side file's head
 * entries; a head of a bad length is corrupt, replaced by a stamp of the
 * whole head only; a component at a base offset has no head; on a
 * filesystem without user extended attributes everything goes into the
 * side file.
 */
/*
 * A component with no_head (EXOFS_FEATURE_RO_COMPAT_CSUM_SIDE): every
 * entry, the first 16 blocks' too, in the side file; no head is made;
 * verify reads them all from there.
 */
static void test_csum_no_head(uint32_t type)
{
	char tmpl[] = "/tmp/test_ore_user.XXXXXX", path[1024], cpath[1024];
	const char *tn = ore_user_csum_name(type);
	struct ore_user_comp c = { .base = 0, .no_head = 1 };
	struct bad_list bl = { .n = 0 };
	uint8_t *data = malloc(20 * 4096);
	uint32_t e[24], h[ORE_FILE_CSUM_HEAD];
	uint64_t checked = 0;
	int cfd = -1, ok, i, err;
	int64_t nbad;

	if (!data || !mkdtemp(tmpl)) {
		result(0, "csum %s no head: mkdtemp: %s", tn, strerror(errno));
		free(data);
		return;
	}
	c.fd = head_obj(tmpl, 0x20003, data, 20, path, cpath);
	err = ore_user_csum_stamp(&c, type, &cfd, cpath, 0, 20 * 4096);
	ok = c.fd >= 0 && !err && read_head(c.fd, h) == -ENODATA &&
	     cfd >= 0 && read_entries(cfd, e, 24) == 20;
	for (i = 0; ok && i < 20; i++)
		ok = e[i] == ref_entry(type, data + i * 4096);
	result(ok, "csum %s no head: 20 blocks: no head made, the 20 entries in the side file",
	       tn);
	data[2 * 4096 + 5] ^= 1;
	ok = pwrite(c.fd, data + 2 * 4096 + 5, 1, 2 * 4096 + 5) == 1;
	nbad = ore_user_csum_verify(&c, type, cfd, note_bad, &bl, &checked);
	result(ok && nbad == 1 && checked == 20 && bl.n == 1 &&
	       bl.off[0] == 2 * 4096,
	       "csum %s no head: verify reads the first 16 entries from the side file (a flipped byte in block 2 found)",
	       tn);
	head_obj_drop(c.fd, cfd, path, cpath);
	rmdir(tmpl);
	free(data);
}

static void test_csum_head(uint32_t type)
{
	char tmpl[] = "/tmp/test_ore_user.XXXXXX", path[1024], cpath[1024];
	const char *tn = ore_user_csum_name(type);
	uint32_t e[24], h[ORE_FILE_CSUM_HEAD], side[18];
	struct ore_user_comp c = { .base = 0 };
	struct bad_list bl = { .n = 0 };
	uint8_t *data = malloc(20 * 4096), junk[64], junk2[64];
	uint64_t checked = 0;
	int cfd = -1, ok, i, err, e2;
	int64_t nbad;

	if (!data || !mkdtemp(tmpl)) {
		result(0, "csum %s head: mkdtemp: %s", tn, strerror(errno));
		free(data);
		return;
	}

	/* 20 blocks: 16 entries in the head, 4 in the side file */
	c.fd = head_obj(tmpl, 0x20001, data, 20, path, cpath);
	err = ore_user_csum_stamp(&c, type, &cfd, cpath, 0, 20 * 4096);
	ok = c.fd >= 0 && !err && read_head(c.fd, h) == 64 && cfd >= 0 &&
	     read_entries(cfd, e, 24) == 20;
	for (i = 0; ok && i < 16; i++)
		ok = h[i] == ref_entry(type, data + i * 4096) && !e[i];
	for (i = 16; ok && i < 20; i++)
		ok = e[i] == ref_entry(type, data + i * 4096);
	result(ok, "csum %s head: 20 blocks: entries 0-15 in the head (64 bytes), 16-19 in the side file at bytes 64-79, its first 64 not written",
	       tn);
	nbad = ore_user_csum_verify(&c, type, cfd, note_bad, &bl, &checked);
	ok = nbad == 0 && checked == 20;
	data[3 * 4096] ^= 1;
	data[17 * 4096 + 9] ^= 1;
	ok = ok && pwrite(c.fd, data + 3 * 4096, 1, 3 * 4096) == 1 &&
	     pwrite(c.fd, data + 17 * 4096 + 9, 1, 17 * 4096 + 9) == 1;
	checked = 0;
	nbad = ore_user_csum_verify(&c, type, cfd, note_bad, &bl, &checked);
	result(ok && nbad == 2 && checked == 20 && bl.n == 2 &&
	       bl.off[0] == 3 * 4096 && bl.off[1] == 17 * 4096,
	       "csum %s head: verify checks 20 blocks, finds a flipped byte in block 3 (head) and in block 17 (side file)",
	       tn);
	/* the side file's first 64 bytes are not the head's */
	fill_random(junk, sizeof(junk));
	err = ore_user_csum_stamp(&c, type, &cfd, cpath, 0, 20 * 4096);
	ok = !err && pwrite(cfd, junk, sizeof(junk), 0) == sizeof(junk);
	bl.n = 0;
	checked = 0;
	nbad = ore_user_csum_verify(&c, type, cfd, note_bad, &bl, &checked);
	err = ore_user_csum_stamp(&c, type, &cfd, cpath, 0, 20 * 4096);
	ok = ok && !err && pread(cfd, junk2, sizeof(junk2), 0) == 64 &&
	     !memcmp(junk, junk2, sizeof(junk));
	result(ok && nbad == 0 && checked == 20,
	       "csum %s head: with a head the side file's first 64 bytes are neither read nor written",
	       tn);
	head_obj_drop(c.fd, cfd, path, cpath);

	/* an object of before the head: every entry in the side file */
	cfd = -1;
	c.fd = head_obj(tmpl, 0x20002, data, 18, path, cpath);
	for (i = 0; i < 18; i++)
		side[i] = i == 7 ? 0 :
			  htole32(ref_entry(type, data + i * 4096));
	ok = c.fd >= 0;
	cfd = open(cpath, O_RDWR | O_CREAT, 0600);
	ok = ok && pwrite(cfd, side, sizeof(side), 0) == sizeof(side);
	checked = 0;
	bl.n = 0;
	nbad = ore_user_csum_verify(&c, type, cfd, note_bad, &bl, &checked);
	ok = ok && nbad == 0 && checked == 17 &&
	     read_head(c.fd, h) == -ENODATA;
	data[4096 + 100] ^= 4;
	ok = ok && pwrite(c.fd, data + 4096 + 100, 1, 4096 + 100) == 1;
	checked = 0;
	nbad = ore_user_csum_verify(&c, type, cfd, note_bad, &bl, &checked);
	result(ok && nbad == 1 && bl.n == 1 && bl.off[0] == 4096 &&
	       checked == 17,
	       "csum %s head: no head: 17 entries read from the side file, a flipped byte in block 1 found",
	       tn);
	err = ore_user_csum_stamp(&c, type, &cfd, cpath, 4096, 4096);
	ok = !err && read_head(c.fd, h) == 64 &&
	     h[1] == ref_entry(type, data + 4096) && !h[7];
	for (i = 0; ok && i < 16; i++)
		ok = i == 1 || h[i] == le32toh(side[i]);
	ok = ok && read_entries(cfd, e, 24) == 18;
	for (i = 0; ok && i < 18; i++)
		ok = e[i] == le32toh(side[i]);
	checked = 0;
	bl.n = 0;
	nbad = ore_user_csum_verify(&c, type, cfd, note_bad, &bl, &checked);
	result(ok && nbad == 0 && checked == 17,
	       "csum %s head: a stamp of block 1 makes the head: the side file's head entries (a 0 too), block 1's new one; the side file unchanged",
	       tn);

	/* corrupt heads: 5 bytes, 68 bytes */
	ok = !fsetxattr(c.fd, ORE_FILE_CSUM_XATTR, junk, 5, 0);
	nbad = ore_user_csum_verify(&c, type, cfd, note_bad, &bl, &checked);
	err = ore_user_csum_stamp(&c, type, &cfd, cpath, 4096, 4096);
	e2 = read_head(c.fd, h);
	ok = ok && nbad == -EUCLEAN && err == -EUCLEAN && e2 == 5;
	ok = ok && !fsetxattr(c.fd, ORE_FILE_CSUM_XATTR, side, 68, 0);
	nbad = ore_user_csum_verify(&c, type, cfd, note_bad, &bl, &checked);
	ok = ok && nbad == -EUCLEAN;
	err = ore_user_csum_stamp(&c, type, &cfd, cpath, 0,
				  ORE_FILE_CSUM_HEAD * 4096);
	ok = ok && !err && read_head(c.fd, h) == 64;
	for (i = 0; ok && i < 16; i++)
		ok = h[i] == ref_entry(type, data + i * 4096);
	checked = 0;
	nbad = ore_user_csum_verify(&c, type, cfd, note_bad, &bl, &checked);
	result(ok && nbad == 0 && checked == 18,
	       "csum %s head: a head of 5 or 68 bytes is corrupt (-EUCLEAN) for verify and a stamp of block 1; a stamp of all 16 blocks restamps it",
	       tn);
	head_obj_drop(c.fd, cfd, path, cpath);

	/* a component at a base offset keeps its entries in the side file */
	cfd = -1;
	c.fd = head_obj(tmpl, 0x20003, data, 3, path, cpath);
	c.base = 4096;
	err = ore_user_csum_stamp(&c, type, &cfd, cpath, 0, 2 * 4096);
	checked = 0;
	nbad = ore_user_csum_verify(&c, type, cfd, note_bad, &bl, &checked);
	result(c.fd >= 0 && !err && read_head(c.fd, h) == -ENODATA &&
	       cfd >= 0 && read_entries(cfd, e, 24) == 2 &&
	       e[0] == ref_entry(type, data + 4096) && nbad == 0 &&
	       checked == 2,
	       "csum %s head: a component at base 4096 has no head, its entries in the side file",
	       tn);
	c.base = 0;
	head_obj_drop(c.fd, cfd, path, cpath);

	/* no user extended attributes: the side file takes every entry */
	cfd = -1;
	c.fd = head_obj(tmpl, 0x20004, data, 3, path, cpath);
	no_xattr = 1;
	err = ore_user_csum_stamp(&c, type, &cfd, cpath, 0, 3 * 4096);
	checked = 0;
	nbad = ore_user_csum_verify(&c, type, cfd, note_bad, &bl, &checked);
	no_xattr = 0;
	result(c.fd >= 0 && !err && read_head(c.fd, h) == -ENODATA &&
	       cfd >= 0 && read_entries(cfd, e, 24) == 3 &&
	       e[2] == ref_entry(type, data + 2 * 4096) && nbad == 0 &&
	       checked == 3,
	       "csum %s head: without user extended attributes (EOPNOTSUPP) the entries go into the side file",
	       tn);
	head_obj_drop(c.fd, cfd, path, cpath);
	rmdir(tmpl);
	free(data);
}

/*
 * The types: names, XXH64 pinned to xxHash's check values and to a block
 * whose XXH64 an independent implementation gave, unknown types refused.
 */
static void test_csum_types(void)
{
	static const char spam[] = "Nobody inspects the spammish repetition";
	char tmpl[] = "/tmp/test_ore_user.XXXXXX", path[1024];
	struct ore_user_comp c = { .base = 0 };
	uint8_t blk[4096];
	uint64_t checked = 0;
	int cfd = -1, i, e1, e2;

	for (i = 0; i < 4096; i++)
		blk[i] = (uint8_t)(i * 7 + 3);
	result(!strcmp(ore_user_csum_name(ORE_CSUM_XXH64), "xxh64") &&
	       !strcmp(ore_user_csum_name(ORE_CSUM_CRC32C), "crc32c") &&
	       !strcmp(ore_user_csum_name(0), "none") &&
	       ore_user_csum_known(ORE_CSUM_XXH64) &&
	       ore_user_csum_known(ORE_CSUM_CRC32C) &&
	       !ore_user_csum_known(0) && !ore_user_csum_known(3),
	       "csum types: xxh64 is %u, crc32c %u, 0 none", ORE_CSUM_XXH64,
	       ORE_CSUM_CRC32C);
	result(ore_xxh64("", 0, 0) == 0xEF46DB3751D8E999ULL &&
	       ore_xxh64("abc", 3, 0) == 0x44BC2CF5AD770999ULL &&
	       ore_xxh64(spam, strlen(spam), 0) == 0xFBCEA83C8A378BF1ULL &&
	       ore_xxh64(blk, 4096, 0) == 0x796398CD432797CCULL,
	       "csum xxh64: xxHash's check values, and a 4096-byte block's");
	result(ore_user_csum_block(ORE_CSUM_XXH64, blk) == 0x432797CC &&
	       ore_user_csum_block(ORE_CSUM_CRC32C, blk) ==
	       slow_crc32c(blk, 4096),
	       "csum: the entry of that block: xxh64 0x432797cc (low 32 bits), crc32c bitwise");
	result(!ore_user_csum_block(0, blk) && !ore_user_csum_block(3, blk),
	       "csum: an unknown type's entry is 0 (never stored)");
	if (!mkdtemp(tmpl)) {
		result(0, "csum types: mkdtemp: %s", strerror(errno));
		return;
	}
	snprintf(path, sizeof(path), "%s/1", tmpl);
	c.fd = open(path, O_RDWR | O_CREAT, 0600);
	e1 = pwrite(c.fd, blk, sizeof(blk), 0) == (ssize_t)sizeof(blk) ?
	     ore_user_csum_stamp(&c, 3, &cfd, path, 0, 4096) : -EIO;
	e2 = (int)ore_user_csum_verify(&c, 0, c.fd, NULL, NULL, &checked);
	result(e1 == -EINVAL && cfd < 0 && e2 == -EINVAL && !checked,
	       "csum: stamp and verify refuse an unknown type (%d, %d)", e1, e2);
	close(c.fd);
	unlink(path);
	rmdir(tmpl);
}

static void test_parse_size(void)
{
	static const struct {
		const char *s;
		int ok;
		uint64_t v;
	} T[] = {
		{ "4096", 1, 4096 }, { "0x1000", 1, 4096 }, { "010", 1, 8 },
		{ "64K", 1, 65536 }, { "64k", 1, 65536 }, { "1M", 1, 1 << 20 },
		{ "2GiB", 1, 2ull << 30 }, { "1TB", 1, 1ull << 40 },
		{ "3Ki", 1, 3072 }, { "0", 1, 0 }, { " 7", 1, 7 },
		{ "16777215T", 1, 16777215ull << 40 },
		{ "", 0, 0 }, { "K", 0, 0 }, { "-1", 0, 0 }, { "+1", 0, 0 },
		{ "12x", 0, 0 }, { "1KK", 0, 0 }, { "1Bi", 0, 0 },
		{ "16777216T", 0, 0 }, { "18446744073709551616", 0, 0 },
		{ "1 K", 0, 0 }, { "1P", 0, 0 },
	};
	unsigned int i, bad = 0;

	for (i = 0; i < sizeof(T) / sizeof(T[0]); i++) {
		uint64_t v = 12345;
		int r = ore_user_parse_size(T[i].s, &v);

		if (T[i].ok ? r || v != T[i].v : !r || v != 12345) {
			printf("# parse_size(\"%s\"): %d, %llu\n", T[i].s, r,
			       (unsigned long long)v);
			bad++;
		}
	}
	result(!bad, "ore_user_parse_size: %u sizes with and without suffixes, %u wrong",
	       i, bad);
}

int main(void)
{
	static const struct {
		uint32_t alg, su, gw, D, G, mp1;
		uint64_t size;
	} L[] = {
		{ ORE_RAID0, 4096, 1, 1, 1, 1, 40000 },
		{ ORE_RAID0, 4096, 4, 1, 1, 1, 100000 },
		{ ORE_RAID0, 8192, 3, 2, 2, 2, 150000 },
		{ ORE_RAID0, 4096, 2, 1, 1, 2, 60000 },
		{ ORE_RAID4, 4096, 4, 1, 1, 1, 100000 },
		{ ORE_RAID4, 4096, 3, 3, 2, 1, 120000 },
		{ ORE_RAID5, 4096, 4, 1, 1, 1, 200000 },
		{ ORE_RAID5, 8192, 5, 2, 1, 1, 200000 },
		{ ORE_RAID5, 4096, 3, 2, 2, 1, 150000 },
		{ ORE_RAID5, 4096, 4, 1, 1, 2, 100000 },
		{ ORE_RAID5, 4096, 2, 1, 1, 1, 50000 },
		{ ORE_RAID6, 4096, 4, 1, 1, 1, 100000 },
		{ ORE_RAID6, 4096, 6, 1, 1, 1, 200000 },
		{ ORE_RAID6, 8192, 5, 3, 2, 1, 250000 },
		{ ORE_RAID6, 4096, 3, 1, 1, 1, 50000 },
		{ ORE_RAID6, 4096, 4, 2, 1, 2, 80000 },
	};
	unsigned int i;

	printf("KTAP version 1\n");
	test_gf();
	test_recover();
	test_stores();
	test_sparse_check();
	test_csum_types();
	test_csum(ORE_CSUM_XXH64);
	test_csum(ORE_CSUM_CRC32C);
	test_csum_head(ORE_CSUM_XXH64);
	test_csum_head(ORE_CSUM_CRC32C);
	test_csum_no_head(ORE_CSUM_XXH64);
	test_csum_no_head(ORE_CSUM_CRC32C);
	test_parse_size();
	for (i = 0; i < sizeof(L) / sizeof(L[0]); i++)
		test_layout(L[i].alg, L[i].su, L[i].gw, L[i].D, L[i].G,
			    L[i].mp1, L[i].size);
	printf("1..%d\n", test_nr);
	printf("# %d passed, %d failed\n", test_nr - test_failed, test_failed);
	return test_failed ? 1 : 0;
}
