// SPDX-License-Identifier: GPL-2.0
/*
 * Parity arithmetic of ORE: P with the kernel's xor_blocks(), P+Q and the
 * recovery of lost columns with lib/raid6 (raid6_call, raid6_2data_recov,
 * raid6_datap_recov). Every buffer here is one page-aligned kernel address
 * of @bytes bytes.
 */
#include <linux/kernel.h>
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
