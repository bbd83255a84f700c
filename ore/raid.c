// SPDX-License-Identifier: GPL-2.0
/*
 * Parity arithmetic of ORE: P with the kernel's xor_blocks(), P+Q, the
 * RAID6 read-modify-write update and the recovery of lost columns with
 * lib/raid6 (raid6_call, raid6_2data_recov, raid6_datap_recov). Every
 * buffer here is one page-aligned kernel address of @bytes bytes.
 */
#include <linux/kernel.h>
#include <linux/export.h>
#include <linux/string.h>
#include <linux/raid/xor.h>
#include <linux/raid/pq.h>

#include "internal.h"

/* dst = srcs[0] ^ ... ^ srcs[count - 1] */
void ore_xor_pages(void *dst, void **srcs, unsigned int count,
		   unsigned int bytes)
{
	unsigned int done = 1;

	memcpy(dst, srcs[0], bytes);
	while (done < count) {
		unsigned int n = min_t(unsigned int, count - done,
				       MAX_XOR_BLOCKS);

		xor_blocks(n, bytes, dst, &srcs[done]);
		done += n;
	}
}

/*
 * ptrs[0 .. data - 1] are the data columns, ptrs[data] receives P and
 * ptrs[data + 1] receives Q.
 */
void ore_gen_pq(void **ptrs, unsigned int data, unsigned int bytes)
{
	if (data == 1) {	/* P = Q = D0: g^0 = 1 */
		memcpy(ptrs[1], ptrs[0], bytes);
		memcpy(ptrs[2], ptrs[0], bytes);
		return;
	}
	raid6_call.gen_syndrome(data + 2, bytes, ptrs);
}

/* Whether lib/raid6 chose an implementation with xor_syndrome(). */
bool ore_pq_rmw_ok(void)
{
	return raid6_call.xor_syndrome;
}

/**
 * ore_pq_rmw() - RAID6 read-modify-write of one page row
 * @delta: @data entries, data columns in the order of the P+Q generation
 *	(data column c has generator power g^c): D_old ^ D_new of each
 *	written column, NULL for a column not written
 * @data: data columns of the stripe (1 .. ORE_MAX_GROUP_WIDTH - 2)
 * @p: the old P of the row, replaced by the new one
 * @q: the old Q of the row, replaced by the new one
 * @bytes: bytes of every buffer, at most PAGE_SIZE
 *
 * P ^= delta[c] and Q ^= g^c * delta[c] (GF(2^8)) for every written column
 * c, by lib/raid6's xor_syndrome() over the written columns' span (md's
 * ops_run_prexor6()). Only valid when ore_pq_rmw_ok(). Exported for
 * ore_test.ko, which checks it against a fresh syndrome.
 */
void ore_pq_rmw(void **delta, unsigned int data, void *p, void *q,
		unsigned int bytes)
{
	void *ptrs[ORE_MAX_GROUP_WIDTH];
	int start = -1, stop = -1;
	unsigned int c;

	for (c = 0; c < data; c++) {
		ptrs[c] = delta[c] ? delta[c] : (void *)raid6_empty_zero_page;
		if (!delta[c])
			continue;
		if (start < 0)
			start = c;
		stop = c;
	}
	if (start < 0)
		return;
	if (data == 1) {	/* g^0 = 1: Q is a copy of P */
		xor_blocks(1, bytes, p, delta);
		xor_blocks(1, bytes, q, delta);
		return;
	}
	ptrs[data] = p;
	ptrs[data + 1] = q;
	raid6_call.xor_syndrome(data + 2, start, stop, bytes, ptrs);
}
EXPORT_SYMBOL_GPL(ore_pq_rmw);

/*
 * Rebuild the missing columns @faila (and @failb, or -1) of one stripe row
 * in place. ptrs[] holds data_width data columns followed by P (and Q);
 * the failed entries are scratch pages that receive the result. Columns
 * are numbered as in ptrs[]: data 0 .. dw - 1, P = dw, Q = dw + 1.
 *
 * Returns 0, or -EIO when the layout's parity cannot cover the failures.
 */
int ore_recover_pages(const struct ore_layout *layout, void **ptrs,
		      unsigned int bytes, int faila, int failb)
{
	unsigned int dw = layout->data_width;
	void *srcs[ORE_MAX_GROUP_WIDTH];
	unsigned int i, n = 0;

	if (failb >= 0 && faila > failb)
		swap(faila, failb);

	if (failb < 0 && (faila < dw || layout->parity == 1)) {
		/*
		 * One data column lost, or P of a single-parity layout: it
		 * is the XOR of the others and P. (Q alone, faila == dw + 1,
		 * only exists with two parities and is regenerated below.)
		 */
		for (i = 0; i <= dw; i++)
			if (i != faila)
				srcs[n++] = ptrs[i];
		ore_xor_pages(ptrs[faila], srcs, n, bytes);
		return 0;
	}
	if (layout->parity < 2)
		return -EIO;
	if (failb < 0)
		goto regen;	/* faila is P or Q */
	if (faila >= dw)	/* P and Q lost, data intact */
		goto regen;

	if (dw == 1) {		/* D0, P and Q are copies of one another */
		unsigned int src = (failb == 1) ? 2 : 1;

		memcpy(ptrs[0], ptrs[src], bytes);
		if (failb != 0)
			memcpy(ptrs[failb], ptrs[0], bytes);
		return 0;
	}
	if (failb == dw + 1) {	/* data and Q: data from P, then Q */
		for (i = 0; i <= dw; i++)
			if (i != faila)
				srcs[n++] = ptrs[i];
		ore_xor_pages(ptrs[faila], srcs, n, bytes);
		goto regen;
	}
	if (failb == dw)	/* data and P */
		raid6_datap_recov(dw + 2, bytes, faila, ptrs);
	else			/* two data columns */
		raid6_2data_recov(dw + 2, bytes, faila, failb, ptrs);
	return 0;

regen:
	if (layout->parity == 2)
		ore_gen_pq(ptrs, dw, bytes);
	else
		ore_xor_pages(ptrs[dw], ptrs, dw, bytes);
	return 0;
}
