// SPDX-License-Identifier: GPL-2.0
/*
 * ore_user - userspace ORE writer, reader and checker; see ore_user.h.
 *
 * Everything works one stripe row at a time. A row is the group's
 * group_width stripe units at one object offset (row * stripe_unit); its
 * columns are numbered as ore/layout.c numbers them: data 0 .. dw - 1,
 * then P (dw) and Q (dw + 1). ore_layout_stripe_pos() gives the group
 * position of a column, ore_layout_comp() the component of a position and
 * mirror.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <linux/fs.h>

#include "ore_user.h"

/* ------------------------------------------------------------ GF(2^8) */

static uint8_t gf_exp[512];
static uint8_t gf_log[256];
static int gf_ready;

static void gf_init(void)
{
	unsigned int i, x = 1;

	if (gf_ready)
		return;
	for (i = 0; i < 255; i++) {
		gf_exp[i] = (uint8_t)x;
		gf_log[x] = (uint8_t)i;
		x <<= 1;
		if (x & 0x100)
			x ^= 0x11d;
	}
	for (i = 255; i < 512; i++)
		gf_exp[i] = gf_exp[i - 255];
	gf_ready = 1;
}

uint8_t ore_gf_mul(uint8_t a, uint8_t b)
{
	gf_init();
	if (!a || !b)
		return 0;
	return gf_exp[gf_log[a] + gf_log[b]];
}

uint8_t ore_gf_div(uint8_t a, uint8_t b)
{
	gf_init();
	if (!a || !b)	/* division by zero is a caller bug: give 0 */
		return 0;
	return gf_exp[gf_log[a] + 255 - gf_log[b]];
}

uint8_t ore_gf_exp2(unsigned int i)
{
	gf_init();
	return gf_exp[i % 255];
}

/* Eight GF(2^8) bytes times 2 at once (0x11d: the carry becomes 0x1d). */
static inline uint64_t gf_mul2_x8(uint64_t v)
{
	uint64_t hi = v & 0x8080808080808080ull;

	return ((v & 0x7f7f7f7f7f7f7f7full) << 1) ^ ((hi >> 7) * 0x1d);
}

void ore_user_gen_pq(uint8_t *const *data, unsigned int ndata, size_t bytes,
		     uint8_t *p, uint8_t *q)
{
	size_t x, words = bytes / 8;
	unsigned int i;

	gf_init();
	for (x = 0; x < words; x++) {
		uint64_t pp = 0, qq = 0, d;

		for (i = ndata; i-- > 0;) {
			memcpy(&d, data[i] + 8 * x, 8);
			pp ^= d;
			qq = gf_mul2_x8(qq) ^ d;
		}
		memcpy(p + 8 * x, &pp, 8);
		if (q)
			memcpy(q + 8 * x, &qq, 8);
	}
	for (x = 8 * words; x < bytes; x++) {
		uint8_t pp = 0, qq = 0;

		/* Horner from the highest column: Q = sum g^i D_i */
		for (i = ndata; i-- > 0;) {
			uint8_t d = data[i][x];

			pp ^= d;
			qq = (uint8_t)(qq ? gf_exp[gf_log[qq] + 1] : 0) ^ d;
		}
		p[x] = pp;
		if (q)
			q[x] = qq;
	}
}

/* Rebuild data column @x from Q and the other data columns. */
static void recover_from_q(uint8_t *const *cols, unsigned int ndata,
			   size_t bytes, unsigned int x)
{
	uint8_t *q = cols[ndata + 1];
	uint8_t inv = ore_gf_div(1, ore_gf_exp2(x));
	size_t b;
	unsigned int i;

	for (b = 0; b < bytes; b++) {
		uint8_t s = q[b];

		for (i = 0; i < ndata; i++)
			if (i != x)
				s ^= ore_gf_mul(ore_gf_exp2(i), cols[i][b]);
		cols[x][b] = ore_gf_mul(s, inv);
	}
}

/* Rebuild data column @x from P and the other data columns. */
static void recover_from_p(uint8_t *const *cols, unsigned int ndata,
			   size_t bytes, unsigned int x)
{
	uint8_t *p = cols[ndata];
	size_t b;
	unsigned int i;

	for (b = 0; b < bytes; b++) {
		uint8_t s = p[b];

		for (i = 0; i < ndata; i++)
			if (i != x)
				s ^= cols[i][b];
		cols[x][b] = s;
	}
}

int ore_user_recover(uint8_t *const *cols, unsigned int ndata, int has_q,
		     size_t bytes, int lost_a, int lost_b)
{
	int pcol = (int)ndata, qcol = (int)ndata + 1;
	int ncols = has_q ? qcol + 1 : pcol + 1;

	gf_init();
	if (lost_a > lost_b) {
		int t = lost_a;

		lost_a = lost_b;
		lost_b = t;
	}
	if (lost_b >= ncols)
		return -EIO;
	if (lost_b < 0)
		return 0;
	if (lost_a < 0) {			/* one column lost */
		if (lost_b < pcol) {
			recover_from_p(cols, ndata, bytes, (unsigned int)lost_b);
			return 0;
		}
		ore_user_gen_pq(cols, ndata, bytes, cols[pcol],
				has_q ? cols[qcol] : NULL);
		return 0;
	}
	if (!has_q)
		return -EIO;
	if (lost_a >= pcol) {			/* P and Q */
		ore_user_gen_pq(cols, ndata, bytes, cols[pcol], cols[qcol]);
		return 0;
	}
	if (lost_b == qcol) {			/* data and Q */
		recover_from_p(cols, ndata, bytes, (unsigned int)lost_a);
		ore_user_gen_pq(cols, ndata, bytes, cols[pcol], cols[qcol]);
		return 0;
	}
	if (lost_b == pcol) {			/* data and P */
		recover_from_q(cols, ndata, bytes, (unsigned int)lost_a);
		ore_user_gen_pq(cols, ndata, bytes, cols[pcol], NULL);
		return 0;
	}
	{					/* two data columns */
		unsigned int x = (unsigned int)lost_a, y = (unsigned int)lost_b;
		uint8_t gx = ore_gf_exp2(x), gy = ore_gf_exp2(y);
		uint8_t denom = gx ^ gy;
		size_t b;
		unsigned int i;

		for (b = 0; b < bytes; b++) {
			uint8_t pxy = cols[pcol][b], qxy = cols[qcol][b], dx;

			for (i = 0; i < ndata; i++) {
				if (i == x || i == y)
					continue;
				pxy ^= cols[i][b];
				qxy ^= ore_gf_mul(ore_gf_exp2(i), cols[i][b]);
			}
			dx = ore_gf_div(qxy ^ ore_gf_mul(gy, pxy), denom);
			cols[x][b] = dx;
			cols[y][b] = pxy ^ dx;
		}
	}
	return 0;
}

/* ----------------------------------------------------- component I/O */

/* Read @len bytes at object offset @off of @c; zeros past the end. */
static int comp_pread(const struct ore_user_comp *c, void *buf, size_t len,
		      uint64_t off)
{
	uint8_t *p = buf;

	if (c->fd == ORE_USER_MISSING)
		return -ENODEV;
	if (c->fd == ORE_USER_EMPTY) {
		memset(buf, 0, len);
		return 0;
	}
	while (len) {
		ssize_t n = pread(c->fd, p, len, (off_t)(c->base + off));

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (!n) {
			memset(p, 0, len);
			return 0;
		}
		p += n;
		off += (uint64_t)n;
		len -= (size_t)n;
	}
	return 0;
}

static int comp_pwrite(const struct ore_user_comp *c, const void *buf,
		       size_t len, uint64_t off)
{
	const uint8_t *p = buf;

	if (c->fd < 0)
		return -ENODEV;
	while (len) {
		ssize_t n = pwrite(c->fd, p, len, (off_t)(c->base + off));

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (!n)
			return -ENOSPC;
		p += n;
		off += (uint64_t)n;
		len -= (size_t)n;
	}
	return 0;
}

/* Write into component @comp of @obj, then tell &ore_user_obj.written. */
static int obj_comp_write(struct ore_user_obj *obj, uint32_t comp,
			  const void *buf, size_t len, uint64_t off)
{
	int err = comp_pwrite(&obj->comps[comp], buf, len, off);

	if (!err && obj->written)
		err = obj->written(obj, comp, off, len);
	return err;
}

/* ------------------------------------------------------------ rows */

/*
 * One stripe row in memory: cols[c] holds unit bytes [a, b) of column c;
 * lost[] the columns no mirror could give.
 */
struct row_buf {
	uint32_t group;
	uint64_t row;
	uint32_t a, b;
	uint8_t *cols[ORE_MAX_GROUP_WIDTH];
	int lost[2];
	int nr_lost;
};

static uint32_t col_comp(const struct ore_user_obj *obj, uint32_t group,
			 uint64_t row, uint32_t col, uint32_t mirror)
{
	const struct ore_layout *l = &obj->layout;

	return ore_layout_comp(l, group, ore_layout_stripe_pos(l, row, col),
			       mirror);
}

/* Read column @col of @rb from the first mirror that answers. */
static int read_col(struct ore_user_obj *obj, struct row_buf *rb, uint32_t col)
{
	const struct ore_layout *l = &obj->layout;
	uint64_t off = rb->row * l->stripe_unit + rb->a;
	uint32_t m;
	int err = -ENODEV;

	for (m = 0; m < l->mirrors_p1; m++) {
		uint32_t comp = col_comp(obj, rb->group, rb->row, col, m);

		err = comp_pread(&obj->comps[comp], rb->cols[col], rb->b - rb->a,
				 off);
		if (!err)
			return 0;
		if (err != -ENODEV)
			obj->err_comp = (int)comp;
	}
	return err;
}

/*
 * Fill @rb's columns: all of them if @all, else the data columns in
 * [@c0, @c1] only, reading every column and rebuilding when one of those
 * is lost. Returns 0 or -EIO when the loss is beyond the redundancy.
 */
static int read_row(struct ore_user_obj *obj, struct row_buf *rb, int all,
		    uint32_t c0, uint32_t c1)
{
	const struct ore_layout *l = &obj->layout;
	uint32_t col, ncols = l->group_width;
	int need_all = all;

	rb->nr_lost = 0;
	rb->lost[0] = rb->lost[1] = -1;
	for (col = 0; col < ncols; col++) {
		if (!need_all && (col < c0 || col > c1))
			continue;
		if (!read_col(obj, rb, col))
			continue;
		if (rb->nr_lost == 2 || rb->nr_lost >= (int)l->parity)
			return -EIO;
		rb->lost[rb->nr_lost++] = (int)col;
		if (!need_all) {
			/* a wanted column is lost: read the rest to rebuild */
			need_all = 1;
			col = (uint32_t)-1;
			rb->nr_lost = 0;
			rb->lost[0] = rb->lost[1] = -1;
		}
	}
	if (!rb->nr_lost)
		return 0;
	obj->nr_rebuilt += (uint64_t)rb->nr_lost;
	return ore_user_recover(rb->cols, l->data_width, l->parity > 1,
				rb->b - rb->a, rb->lost[0],
				rb->nr_lost > 1 ? rb->lost[1] : -1);
}

static int alloc_row(const struct ore_layout *l, struct row_buf *rb)
{
	uint32_t c;

	memset(rb, 0, sizeof(*rb));
	for (c = 0; c < l->group_width; c++) {
		rb->cols[c] = malloc(l->stripe_unit);
		if (!rb->cols[c])
			return -ENOMEM;
	}
	return 0;
}

static void free_row(struct row_buf *rb)
{
	uint32_t c;

	for (c = 0; c < ORE_MAX_GROUP_WIDTH; c++)
		free(rb->cols[c]);
}

/*
 * The part of stripe row @si that the logical range [@pos, @end) touches:
 * data columns @c0 .. @c1, the first starting at unit offset si->unit_off,
 * the last ending at *@u1end; *@seg_end is where the next row's part starts.
 */
static void row_span(const struct ore_layout *l,
		     const struct ore_striping_info *si, uint64_t end,
		     uint32_t *c1, uint32_t *u1end, uint64_t *seg_end)
{
	uint64_t stripe_end = si->first_stripe_start + l->stripe_length;
	uint64_t last;

	*seg_end = end < stripe_end ? end : stripe_end;
	last = *seg_end - 1 - si->first_stripe_start;
	*c1 = (uint32_t)(last / l->stripe_unit);
	*u1end = (uint32_t)(last % l->stripe_unit) + 1;
}

/* ---------------------------------------------------------- public */

int ore_user_init(struct ore_user_obj *obj, const struct ore_layout *layout,
		  uint32_t num_devs, struct ore_user_comp *comps,
		  const char **why)
{
	int err;

	gf_init();
	memset(obj, 0, sizeof(*obj));
	obj->layout = *layout;
	err = ore_layout_check(&obj->layout, num_devs, why);
	if (err)
		return err;
	obj->comps = comps;
	obj->err_comp = -1;
	return 0;
}

int ore_user_write(struct ore_user_obj *obj, uint64_t offset,
		   const void *buf, size_t len)
{
	const struct ore_layout *l = &obj->layout;
	const uint8_t *src = buf;
	uint64_t pos = offset, end = offset + len;
	struct row_buf rb;
	int err;

	err = alloc_row(l, &rb);
	if (err)
		goto out;
	while (pos < end) {
		struct ore_striping_info si;
		uint32_t c, c1, u1end, m, su = l->stripe_unit;
		uint64_t seg_end;

		ore_calc_stripe_info(l, pos, &si);
		row_span(l, &si, end, &c1, &u1end, &seg_end);
		rb.group = si.group;
		rb.row = si.row;
		if (l->parity) {
			/* reconstruct-write over the touched unit range */
			rb.a = c1 > si.col ? 0 : si.unit_off;
			rb.b = c1 > si.col ? su : u1end;
			err = read_row(obj, &rb, 1, 0, 0);
			if (err)
				goto out;
		}
		for (c = si.col; c <= c1; c++) {
			uint32_t ua = c == si.col ? si.unit_off : 0;
			uint32_t ub = c == c1 ? u1end : su;
			const uint8_t *s = src + (si.first_stripe_start +
						  (uint64_t)c * su + ua - offset);

			if (l->parity)
				memcpy(rb.cols[c] + (ua - rb.a), s, ub - ua);
			for (m = 0; m < l->mirrors_p1; m++) {
				uint32_t comp = col_comp(obj, si.group, si.row,
							 c, m);

				if (obj->comps[comp].fd == ORE_USER_MISSING)
					continue;
				err = obj_comp_write(obj, comp, s, ub - ua,
						     si.row * su + ua);
				if (err) {
					obj->err_comp = (int)comp;
					goto out;
				}
			}
		}
		if (l->parity) {
			ore_user_gen_pq(rb.cols, l->data_width, rb.b - rb.a,
					rb.cols[l->data_width],
					l->parity > 1 ?
					rb.cols[l->data_width + 1] : NULL);
			for (c = l->data_width; c < l->group_width; c++) {
				for (m = 0; m < l->mirrors_p1; m++) {
					uint32_t comp = col_comp(obj, si.group,
								 si.row, c, m);

					if (obj->comps[comp].fd ==
					    ORE_USER_MISSING)
						continue;
					err = obj_comp_write(obj, comp,
						rb.cols[c], rb.b - rb.a,
						si.row * su + rb.a);
					if (err) {
						obj->err_comp = (int)comp;
						goto out;
					}
				}
			}
		}
		pos = seg_end;
	}
out:
	free_row(&rb);
	return err;
}

int ore_user_read(struct ore_user_obj *obj, uint64_t offset, void *buf,
		  size_t len)
{
	const struct ore_layout *l = &obj->layout;
	uint8_t *dst = buf;
	uint64_t pos = offset, end = offset + len;
	struct row_buf rb;
	int err;

	err = alloc_row(l, &rb);
	if (err)
		goto out;
	while (pos < end) {
		struct ore_striping_info si;
		uint32_t c, c1, u1end, su = l->stripe_unit;
		uint64_t seg_end;

		ore_calc_stripe_info(l, pos, &si);
		row_span(l, &si, end, &c1, &u1end, &seg_end);
		rb.group = si.group;
		rb.row = si.row;
		rb.a = c1 > si.col ? 0 : si.unit_off;
		rb.b = c1 > si.col ? su : u1end;
		err = read_row(obj, &rb, 0, si.col, c1);
		if (err)
			goto out;
		for (c = si.col; c <= c1; c++) {
			uint32_t ua = c == si.col ? si.unit_off : 0;
			uint32_t ub = c == c1 ? u1end : su;

			memcpy(dst + (si.first_stripe_start + (uint64_t)c * su +
				      ua - offset),
			       rb.cols[c] + (ua - rb.a), ub - ua);
		}
		pos = seg_end;
	}
out:
	free_row(&rb);
	return err;
}

static void report_bad(struct ore_user_report *rep, int comp, uint64_t off,
		       const char *what)
{
	if (rep->first_bad_comp >= 0)
		return;
	rep->first_bad_comp = comp;
	rep->first_bad_offset = off;
	rep->first_bad_what = what;
}

/*
 * The first stripe row >= @row of @group where any component holds data,
 * by SEEK_DATA on the components (a row that is a hole everywhere is
 * zeros, and zeros are consistent parity). Components that cannot say
 * (block devices, SEEK_DATA unsupported) give @row itself.
 */
static uint64_t next_data_row(const struct ore_user_obj *obj, uint32_t group,
			      uint64_t row)
{
	const struct ore_layout *l = &obj->layout;
	uint32_t per_group = l->group_width * l->mirrors_p1, i;
	uint64_t best = UINT64_MAX;

	for (i = 0; i < per_group; i++) {
		const struct ore_user_comp *c =
			&obj->comps[group * per_group + i];
		off_t want = (off_t)(c->base + row * l->stripe_unit), got;
		uint64_t r;

		if (c->fd < 0)
			continue;
		got = lseek(c->fd, want, SEEK_DATA);
		if (got < 0) {
			if (errno == ENXIO)
				continue;	/* no data from here on */
			return row;
		}
		r = ((uint64_t)got - c->base) / l->stripe_unit;
		if (r < best)
			best = r;
		if (best <= row)
			return row;
	}
	return best;
}

/*
 * Make unit @r of component @comp hold @want where it holds @have: the
 * pages that differ are written (never past what differs, so a component
 * does not grow beyond the length its object allows). Counts in @rep.
 */
static void repair_unit(struct ore_user_obj *obj, uint32_t comp, uint64_t r,
			const uint8_t *want, const uint8_t *have,
			struct ore_user_report *rep)
{
	uint32_t su = obj->layout.stripe_unit, a = 0, b = su;
	struct stat st;

	while (a < su && !memcmp(want + a, have + a, ORE_PAGE_SIZE))
		a += ORE_PAGE_SIZE;
	while (b > a && !memcmp(want + b - ORE_PAGE_SIZE,
				have + b - ORE_PAGE_SIZE, ORE_PAGE_SIZE))
		b -= ORE_PAGE_SIZE;
	if (a == b)
		return;
	/* past the component's end it reads as zeros: do not grow it more */
	if (obj->comps[comp].fd >= 0 && !fstat(obj->comps[comp].fd, &st)) {
		uint64_t at = obj->comps[comp].base + r * su, end;

		end = (uint64_t)st.st_size > at ? (uint64_t)st.st_size - at : 0;
		while (b > a && b > end && !want[b - 1])
			b--;
	}
	if (obj_comp_write(obj, comp, want + a, b - a, r * su + a)) {
		rep->repair_failed++;
		return;
	}
	rep->repaired++;
}

/*
 * Stored copies of parity column @col (P = data_width, Q = data_width + 1)
 * of row @r against @want; a mismatch is counted once and, with @repair,
 * every differing copy rewritten.
 */
static void check_parity_col(struct ore_user_obj *obj, uint32_t g, uint64_t r,
			     uint32_t col, const uint8_t *want, uint8_t *tmp,
			     int repair, struct ore_user_report *rep, int *bad)
{
	const struct ore_layout *l = &obj->layout;
	uint32_t su = l->stripe_unit, m;

	for (m = 0; m < l->mirrors_p1; m++) {
		uint32_t comp = col_comp(obj, g, r, col, m);

		if (comp_pread(&obj->comps[comp], tmp, su, r * su) ||
		    !memcmp(tmp, want, su))
			continue;
		if (!*bad)
			report_bad(rep, (int)comp, r * su,
				   col == l->data_width ? "P" : "Q");
		*bad = 1;
		if (repair)
			repair_unit(obj, comp, r, want, tmp, rep);
	}
}

/*
 * Read every copy of every column of row @r of group @g into @rb (the
 * first readable copy of each), comparing the others with it (and, with
 * @repair, rewriting them from it). Returns 1 if a column has no readable
 * copy.
 */
static int check_row_copies(struct ore_user_obj *obj, struct row_buf *rb,
			    uint32_t g, uint64_t r, uint8_t *tmp, int repair,
			    struct ore_user_report *rep)
{
	const struct ore_layout *l = &obj->layout;
	uint32_t su = l->stripe_unit, c, m;
	int lost = 0;

	for (c = 0; c < l->group_width; c++) {
		int have = 0;

		for (m = 0; m < l->mirrors_p1; m++) {
			uint32_t comp = col_comp(obj, g, r, c, m);
			uint8_t *dst = have ? tmp : rb->cols[c];

			if (comp_pread(&obj->comps[comp], dst, su, r * su)) {
				rep->unreadable++;
				report_bad(rep, (int)comp, r * su, "read");
				continue;
			}
			if (have && memcmp(tmp, rb->cols[c], su)) {
				rep->bad_mirror++;
				report_bad(rep, (int)comp, r * su, "mirror");
				if (repair)
					repair_unit(obj, comp, r, rb->cols[c],
						    tmp, rep);
			}
			have = 1;
		}
		if (!have)
			lost = 1;
	}
	return lost;
}

/*
 * The mismatches found in a row (since @before) that had writes in flight
 * at a crash: counted in @rep->in_flight, not as bad. Unreadable units
 * stay what they are.
 */
static void count_in_flight(struct ore_user_report *rep,
			    const struct ore_user_report *before, int *bad)
{
	if (!*bad && rep->bad_mirror == before->bad_mirror)
		return;
	rep->in_flight++;
	rep->bad_mirror = before->bad_mirror;
	*bad = 0;
	if (rep->unreadable == before->unreadable) {
		rep->first_bad_comp = before->first_bad_comp;
		rep->first_bad_offset = before->first_bad_offset;
		rep->first_bad_what = before->first_bad_what;
	}
}

int ore_user_check(struct ore_user_obj *obj, uint64_t size, int repair,
		   struct ore_user_report *rep)
{
	const struct ore_layout *l = &obj->layout;
	uint32_t su = l->stripe_unit;
	uint8_t *tmp = NULL, *p = NULL, *q = NULL;
	struct ore_user_report before;
	struct row_buf rb;
	uint32_t g;
	int err;

	memset(rep, 0, sizeof(*rep));
	rep->first_bad_comp = -1;
	err = alloc_row(l, &rb);
	if (err)
		goto out;
	tmp = malloc(su);
	p = malloc(su);
	q = malloc(su);
	if (!tmp || !p || !q) {
		err = -ENOMEM;
		goto out;
	}
	rb.a = 0;
	rb.b = su;
	for (g = 0; g < l->group_count; g++) {
		uint64_t r;

		for (r = 0;; r++) {
			uint64_t nr, start;
			int bad = 0;

			/* the row's offset, as any component of it sees it */
			start = ore_layout_comp_stripes(l,
					ore_layout_comp(l, g, 0, 0), r * su,
					1, &nr);

			if (start >= size)
				break;
			nr = next_data_row(obj, g, r);
			if (nr == UINT64_MAX)
				break;		/* holes to the end */
			if (nr > r) {
				r = nr - 1;	/* rows r .. nr - 1 are holes */
				continue;
			}
			rb.group = g;
			rb.row = r;
			rep->rows++;
			before = *rep;
			if (!check_row_copies(obj, &rb, g, r, tmp, repair, rep) &&
			    l->parity) {
				ore_user_gen_pq(rb.cols, l->data_width, su, p,
						l->parity > 1 ? q : NULL);
				check_parity_col(obj, g, r, l->data_width, p,
						 tmp, repair, rep, &bad);
				if (l->parity > 1)
					check_parity_col(obj, g, r,
							 l->data_width + 1, q,
							 tmp, repair, rep,
							 &bad);
			}
			if (obj->in_flight &&
			    obj->in_flight(obj, start, l->stripe_length))
				count_in_flight(rep, &before, &bad);
			rep->bad_parity += bad;
		}
	}
	err = (rep->bad_parity || rep->bad_mirror || rep->unreadable) ? 1 : 0;
out:
	free(tmp);
	free(p);
	free(q);
	free_row(&rb);
	return err;
}

int ore_user_rebuild_unit(struct ore_user_obj *obj, uint32_t comp,
			  uint64_t row, void *buf)
{
	const struct ore_layout *l = &obj->layout;
	uint32_t pos, col;
	struct row_buf rb;
	int fd, err;

	if (comp >= l->num_comps)
		return -EINVAL;
	pos = comp / l->mirrors_p1 % l->group_width;
	col = ore_layout_pos_col(l, row, pos);
	err = alloc_row(l, &rb);
	if (err)
		goto out;
	rb.group = comp / l->mirrors_p1 / l->group_width;
	rb.row = row;
	rb.a = 0;
	rb.b = l->stripe_unit;
	/* read the row as if @comp were lost: its column comes from the rest */
	fd = obj->comps[comp].fd;
	obj->comps[comp].fd = ORE_USER_MISSING;
	err = read_row(obj, &rb, 1, 0, 0);
	obj->comps[comp].fd = fd;
	if (!err)
		memcpy(buf, rb.cols[col], l->stripe_unit);
out:
	free_row(&rb);
	return err;
}

/* ------------------------------------------------------ data checksums */

/* Entries per step of the side file walks: 1 MiB of data. */
#define CSUM_BATCH	256u

int ore_user_csum_path(char *buf, size_t size, const char *dir, uint64_t oid)
{
	return snprintf(buf, size, "%s/%llx" ORE_FILE_CSUM_SUFFIX, dir,
			(unsigned long long)oid);
}

int ore_user_csum_known(uint32_t type)
{
	return type == ORE_CSUM_XXH64 || type == ORE_CSUM_CRC32C;
}

const char *ore_user_csum_name(uint32_t type)
{
	switch (type) {
	case 0:
		return "none";
	case ORE_CSUM_XXH64:
		return "xxh64";
	case ORE_CSUM_CRC32C:
		return "crc32c";
	default:
		return "unknown";
	}
}

uint32_t ore_user_csum_block(uint32_t type, const void *block)
{
	switch (type) {
	case ORE_CSUM_XXH64:
		return ore_csum_value((uint32_t)ore_xxh64(block, ORE_CSUM_BLOCK,
							  0));
	case ORE_CSUM_CRC32C:
		return ore_csum_value(ore_crc32c(~0U, block, ORE_CSUM_BLOCK));
	default:
		return 0;
	}
}

int ore_user_csum_open(const char *path, int flags)
{
	struct stat st;
	int fd, err;

	/* as for a component: never follow a link, never block on a FIFO */
	fd = open(path, flags | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY,
		  0600);
	if (fd < 0) {
		err = -errno;
		if (err == -ELOOP || err == -EISDIR || err == -ENXIO)
			return -EINVAL;
		return err;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		close(fd);
		return -EINVAL;
	}
	return fd;
}

/* Bytes of component @c's object. */
static int comp_size(const struct ore_user_comp *c, uint64_t *size)
{
	struct stat st;

	*size = 0;
	if (c->fd == ORE_USER_EMPTY)
		return 0;
	if (c->fd < 0)
		return -ENODEV;
	if (fstat(c->fd, &st))
		return -errno;
	if ((uint64_t)st.st_size > c->base)
		*size = (uint64_t)st.st_size - c->base;
	return 0;
}

/*
 * The head (include/ore/pure.h): the entries of the first
 * ORE_FILE_CSUM_HEAD blocks of a file store's object in the extended
 * attribute ORE_FILE_CSUM_XATTR of its own file. Only a component that is
 * such a file has one: open, its object at offset 0 (a component inside
 * a larger file keeps all of its entries in the side file).
 */
#define HEAD_BYTES	(ORE_FILE_CSUM_HEAD * ORE_CSUM_ENTRY)

static int comp_has_head(const struct ore_user_comp *c)
{
	return c->fd >= 0 && !c->base && !c->no_head;
}

/*
 * The head of @c into @head: ORE_FILE_CSUM_HEAD little-endian entries, 0
 * past the value's end (all 0 on failure). Returns the value's length in
 * bytes, -ENODATA when there is none, -EOPNOTSUPP when the filesystem has
 * no user extended attributes, -EUCLEAN when the value is not a head
 * (longer than HEAD_BYTES, or not whole entries), or another negative
 * errno.
 */
static int head_get(const struct ore_user_comp *c, uint32_t *head)
{
	ssize_t n;

	memset(head, 0, HEAD_BYTES);
	n = fgetxattr(c->fd, ORE_FILE_CSUM_XATTR, head, HEAD_BYTES);
	if (n < 0)
		return errno == ERANGE ? -EUCLEAN : -errno;
	if (n % ORE_CSUM_ENTRY) {
		memset(head, 0, HEAD_BYTES);
		return -EUCLEAN;
	}
	return (int)n;
}

/* Store @head as the head of @c, its trailing entries of 0 left out. */
static int head_set(const struct ore_user_comp *c, const uint32_t *head)
{
	size_t n = ORE_FILE_CSUM_HEAD;

	while (n && !head[n - 1])
		n--;
	/* a value of no bytes is a head of zeros: it exists all the same */
	if (fsetxattr(c->fd, ORE_FILE_CSUM_XATTR, head, n * ORE_CSUM_ENTRY, 0))
		return -errno;
	return 0;
}

/*
 * The first @held head entries that the side file holds into @head, the
 * others 0: from @csum_fd, or when it is not open from the file at @path
 * if there is one (zeros if not).
 */
static int side_head(int csum_fd, const char *path, uint64_t held,
		     uint32_t *head)
{
	struct ore_user_comp cf = { .fd = csum_fd };
	int err;

	memset(head, 0, HEAD_BYTES);
	if (!held)
		return 0;
	if (cf.fd < 0) {
		cf.fd = path ? ore_user_csum_open(path, O_RDONLY) : -ENOENT;
		if (cf.fd == -ENOENT)
			return 0;
		if (cf.fd < 0)
			return cf.fd;
	}
	err = comp_pread(&cf, head, held * ORE_CSUM_ENTRY, 0);
	if (cf.fd != csum_fd)
		close(cf.fd);
	return err;
}

/*
 * The entries (little-endian) of the @n blocks of @c from block @first on
 * into @ents, from what @c holds now; blocks from @whole on (reaching
 * past @c's end) get 0. @data has room for @n blocks.
 */
static int compute_ents(const struct ore_user_comp *c, uint32_t type,
			uint64_t first, uint64_t n, uint64_t whole,
			uint8_t *data, uint32_t *ents)
{
	uint64_t nwhole = 0, i;
	int err;

	if (first < whole)
		nwhole = whole - first < n ? whole - first : n;
	err = comp_pread(c, data, nwhole * ORE_CSUM_BLOCK,
			 first * ORE_CSUM_BLOCK);
	if (err)
		return err;
	for (i = 0; i < n; i++)
		ents[i] = i < nwhole ?
			  htole32(ore_user_csum_block(type, data + i *
						      ORE_CSUM_BLOCK)) : 0;
	return 0;
}

/*
 * Store the entries of blocks [@first, @end) of @c (@end at most
 * ORE_FILE_CSUM_HEAD) in its head: the one there is, else a new one that
 * starts with the head entries of the side file (@csum_fd or @path) of
 * the @held blocks @c holds (any part of), as the kernel makes it. A value that is not a head is replaced when every
 * entry of it is new (@first 0, @end ORE_FILE_CSUM_HEAD), else it is
 * -EUCLEAN. Returns 0, -EOPNOTSUPP when the filesystem has no user
 * extended attributes (the side file takes the entries then), or another
 * negative errno.
 */
static int head_stamp(const struct ore_user_comp *c, uint32_t type,
		      int csum_fd, const char *path, uint64_t first,
		      uint64_t end, uint64_t whole, uint64_t held,
		      uint8_t *data)
{
	uint32_t head[ORE_FILE_CSUM_HEAD], old[ORE_FILE_CSUM_HEAD];
	int make = 0, err;

	err = head_get(c, old);
	if (err == -ENODATA) {
		err = side_head(csum_fd, path, held, old);
		make = 1;
	} else if (err == -EUCLEAN && !first && end == ORE_FILE_CSUM_HEAD) {
		err = 0;
		make = 1;
	}
	if (err < 0)
		return err;
	memcpy(head, old, sizeof(head));
	err = compute_ents(c, type, first, end - first, whole, data,
			   head + first);
	if (err)
		return err;
	if (!make && !memcmp(head, old, sizeof(head)))
		return 0;
	return head_set(c, head);
}

int ore_user_csum_stamp(const struct ore_user_comp *c, uint32_t type,
			int *csum_fd, const char *path, uint64_t off,
			uint64_t len)
{
	struct ore_user_comp cf = { .fd = *csum_fd };
	uint64_t size, first, end, whole, csize;
	uint32_t ents[CSUM_BATCH];
	uint8_t *data = NULL;
	struct stat st;
	int err;

	if (!ore_user_csum_known(type))
		return -EINVAL;
	if (!len)
		return 0;
	err = comp_size(c, &size);
	if (err)
		return err;
	first = off / ORE_CSUM_BLOCK;
	end = (off + len - 1) / ORE_CSUM_BLOCK + 1;
	whole = size / ORE_CSUM_BLOCK;	/* blocks wholly inside @c */
	data = malloc((size_t)(end - first < CSUM_BATCH ? end - first :
			       CSUM_BATCH) * ORE_CSUM_BLOCK);
	if (!data)
		return -ENOMEM;
	if (first < ORE_FILE_CSUM_HEAD && comp_has_head(c)) {
		uint64_t hend = end < ORE_FILE_CSUM_HEAD ? end :
				ORE_FILE_CSUM_HEAD;
		uint64_t held = (size + ORE_CSUM_BLOCK - 1) / ORE_CSUM_BLOCK;

		if (held > ORE_FILE_CSUM_HEAD)
			held = ORE_FILE_CSUM_HEAD;
		err = head_stamp(c, type, *csum_fd, path, first, hend, whole,
				 held, data);
		if (!err)
			first = hend;
		else if (err != -EOPNOTSUPP)
			goto out;
		/* no user extended attributes: all into the side file */
		err = 0;
	}
	if (first == end)
		goto out;
	if (cf.fd < 0) {
		/* only entries of 0 to store, and none stored */
		if (first >= whole)
			goto out;
		cf.fd = ore_user_csum_open(path, O_RDWR | O_CREAT);
		if (cf.fd < 0) {
			err = cf.fd;
			goto out;
		}
		*csum_fd = cf.fd;
	}
	if (fstat(cf.fd, &st)) {
		err = -errno;
		goto out;
	}
	csize = (uint64_t)st.st_size;
	while (first < end && !err) {
		uint64_t n = end - first < CSUM_BATCH ? end - first :
			     CSUM_BATCH;
		uint64_t keep = n;

		err = compute_ents(c, type, first, n, whole, data, ents);
		if (err)
			break;
		/* entries of 0 past the side file's end are there already */
		while (keep && !ents[keep - 1] &&
		       (first + keep - 1) * ORE_CSUM_ENTRY >= csize)
			keep--;
		err = comp_pwrite(&cf, ents, keep * ORE_CSUM_ENTRY,
				  first * ORE_CSUM_ENTRY);
		if ((first + keep) * ORE_CSUM_ENTRY > csize)
			csize = (first + keep) * ORE_CSUM_ENTRY;
		first += n;
	}
out:
	free(data);
	return err;
}

/*
 * Blocks [@first, @first + @n) of @c against their entries @ents
 * (little-endian, 0 not verified) as ore_user_csum_verify() does;
 * mismatches are added to *@nbad. @data has room for @n blocks.
 */
static int verify_ents(const struct ore_user_comp *c, uint32_t type,
		       const uint32_t *ents, uint64_t first, uint64_t n,
		       uint8_t *data,
		       int (*bad)(void *arg, uint64_t off, uint32_t want,
				  uint32_t got),
		       void *arg, uint64_t *checked, int64_t *nbad)
{
	uint64_t lo, hi, i;
	int err = 0, r;

	for (lo = 0; lo < n && !ents[lo]; lo++)
		;
	for (hi = n; hi > lo && !ents[hi - 1]; hi--)
		;
	if (lo < hi)
		err = comp_pread(c, data, (hi - lo) * ORE_CSUM_BLOCK,
				 (first + lo) * ORE_CSUM_BLOCK);
	for (i = lo; i < hi && !err; i++) {
		uint32_t want = le32toh(ents[i]), got;

		if (!want)
			continue;
		(*checked)++;
		got = ore_user_csum_block(type, data + (i - lo) *
					  ORE_CSUM_BLOCK);
		if (got == want)
			continue;
		(*nbad)++;
		r = bad ? bad(arg, (first + i) * ORE_CSUM_BLOCK, want, got) : 0;
		if (r < 0)
			err = r;
	}
	return err;
}

int64_t ore_user_csum_verify(const struct ore_user_comp *c, uint32_t type,
			     int csum_fd,
			     int (*bad)(void *arg, uint64_t off, uint32_t want,
					uint32_t got),
			     void *arg, uint64_t *checked)
{
	struct ore_user_comp cf = { .fd = csum_fd };
	uint32_t ents[CSUM_BATCH];
	uint64_t first = 0, nents = 0;
	uint8_t *data;
	int64_t nbad = 0;
	struct stat st;
	int err = 0;

	if (!ore_user_csum_known(type))
		return -EINVAL;
	if (csum_fd >= 0) {
		if (fstat(csum_fd, &st))
			return -errno;
		nents = ((uint64_t)st.st_size + ORE_CSUM_ENTRY - 1) /
			ORE_CSUM_ENTRY;
	}
	data = malloc((size_t)CSUM_BATCH * ORE_CSUM_BLOCK);
	if (!data)
		return -ENOMEM;
	if (comp_has_head(c)) {
		/* a head there is holds the first entries: not the side file */
		err = head_get(c, ents);
		if (err >= 0) {
			err = verify_ents(c, type, ents, 0, ORE_FILE_CSUM_HEAD,
					  data, bad, arg, checked, &nbad);
			first = ORE_FILE_CSUM_HEAD;
		} else if (err == -ENODATA || err == -EOPNOTSUPP) {
			err = 0;
		}
	}
	while (first < nents && !err) {
		uint64_t n = nents - first < CSUM_BATCH ? nents - first :
			     CSUM_BATCH;
		off_t d;

		/* a hole of the side file is entries of 0: skip it */
		d = lseek(csum_fd, (off_t)(first * ORE_CSUM_ENTRY), SEEK_DATA);
		if (d < 0 && errno == ENXIO)
			break;
		if (d >= 0 && (uint64_t)d / ORE_CSUM_ENTRY > first) {
			first = (uint64_t)d / ORE_CSUM_ENTRY;
			continue;
		}
		err = comp_pread(&cf, ents, n * ORE_CSUM_ENTRY,
				 first * ORE_CSUM_ENTRY);
		if (!err)
			err = verify_ents(c, type, ents, first, n, data, bad,
					  arg, checked, &nbad);
		first += n;
	}
	free(data);
	return err < 0 ? err : nbad;
}

int ore_user_store_path(char *buf, size_t size, const char *dir, uint64_t oid)
{
	return snprintf(buf, size, "%s/%llx", dir, (unsigned long long)oid);
}

int ore_user_open_stores(struct ore_user_comp *comps, uint32_t num_comps,
			 const char *const *dirs, uint32_t num_devs,
			 uint32_t first_dev, uint64_t oid, int flags)
{
	char path[4096];
	uint32_t i;
	int err;

	for (i = 0; i < num_comps; i++) {
		const char *dir = dirs[(first_dev + i) % num_devs];

		comps[i].base = 0;
		comps[i].fd = ORE_USER_MISSING;
		if (!dir)
			continue;
		if (ore_user_store_path(path, sizeof(path), dir, oid) >=
		    (int)sizeof(path)) {
			err = -ENAMETOOLONG;
			goto fail;
		}
		/*
		 * Only a regular file is a component: never follow a symlink,
		 * never block opening a FIFO; anything else is a failed
		 * component (rebuilt from the redundancy, as the kernel does).
		 */
		comps[i].fd = open(path, flags | O_CLOEXEC | O_NOFOLLOW |
				   O_NONBLOCK | O_NOCTTY, 0600);
		if (comps[i].fd >= 0) {
			struct stat st;

			if (!fstat(comps[i].fd, &st) && S_ISREG(st.st_mode))
				continue;
			close(comps[i].fd);
			comps[i].fd = ORE_USER_MISSING;
			continue;
		}
		err = -errno;
		comps[i].fd = ORE_USER_MISSING;
		if (err == -ENOENT && !(flags & O_CREAT)) {
			comps[i].fd = ORE_USER_EMPTY;
			continue;
		}
		if (err == -ELOOP || err == -EISDIR || err == -ENXIO)
			continue;	/* a symlink, directory, FIFO */
		goto fail;
	}
	return 0;
fail:
	ore_user_close(comps, i);
	return err;
}

int ore_user_sync(struct ore_user_comp *comps, uint32_t num_comps)
{
	uint32_t i;
	int err = 0;

	for (i = 0; i < num_comps; i++)
		if (comps[i].fd >= 0 && fsync(comps[i].fd) && !err)
			err = -errno;
	return err;
}

void ore_user_close(struct ore_user_comp *comps, uint32_t num_comps)
{
	uint32_t i;

	for (i = 0; i < num_comps; i++) {
		if (comps[i].fd >= 0)
			close(comps[i].fd);
		comps[i].fd = ORE_USER_MISSING;
	}
}

int ore_user_parse_size(const char *s, uint64_t *v)
{
	unsigned int shift = 0;
	unsigned long long x;
	char *end;

	while (*s == ' ' || *s == '\t')
		s++;
	if (!*s || *s == '-' || *s == '+')
		return -1;
	errno = 0;
	x = strtoull(s, &end, 0);
	if (errno || end == s)
		return -1;
	switch (*end) {
	case 'k': case 'K': shift = 10; break;
	case 'm': case 'M': shift = 20; break;
	case 'g': case 'G': shift = 30; break;
	case 't': case 'T': shift = 40; break;
	}
	if (shift) {
		end++;
		if (*end == 'i')
			end++;
		if (*end == 'B')
			end++;
	}
	if (*end || x > (UINT64_MAX >> shift))
		return -1;
	*v = (uint64_t)x << shift;
	return 0;
}

int ore_user_dev_size(int fd, uint64_t *size)
{
	struct stat st;

	if (fstat(fd, &st))
		return -errno;
	if (S_ISBLK(st.st_mode))
		return ioctl(fd, BLKGETSIZE64, size) ? -errno : 0;
	*size = (uint64_t)st.st_size;
	return 0;
}
