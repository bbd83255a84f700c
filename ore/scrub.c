// SPDX-License-Identifier: GPL-2.0
/*
 * ORE scrub and rebuild: whole stripes read at once, every component in
 * one batch, then worked on page row by page row.
 *
 * Scrub checks that the redundancy of whole stripes agrees with their
 * data, and repairs it where it does not (md's "check" and "repair").
 * Every component of the stripes is read: every mirror copy of every
 * position, data and parity. A read that fails its checksum is rebuilt
 * from the redundancy and rewritten first (counted on its store, not as a
 * mismatch). Then, page row by page row:
 *  - each mirror copy is compared with copy 0 of its position;
 *  - for parity layouts, P (and Q) are computed again from copy 0 of the
 *    data columns and compared with every stored copy of P (and Q).
 * A repair writes what disagreed: copy 0 over the other copies, the
 * computed parity over the stored one. Copy 0 and the data win, as in md
 * (raid1 takes its first readable disk, raid5/6 recompute parity): the
 * engine cannot tell which side is right, only that they disagree. Data
 * checksums (docs/engine.md) are what can tell.
 *
 * A stripe with a component that cannot be read (its store failed, or
 * rebuilding above its recovery offset) has nothing to compare against:
 * the scrub refuses it (-ENODEV). A resync after an unclean shutdown is a
 * repair of every stripe.
 *
 * Rebuild (ore_rebuild()) reads every component that can be read, in one
 * batch, and leaves out those that cannot. Then, row by row, a position
 * with no copy read is recovered from a copy or from the parity
 * (ore_recover_pages()), and every copy not read that sits on a store
 * being rebuilt is written, in one batch: one round of reads and one of
 * writes per call, whatever the layout.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/mm.h>
#include <linux/slab.h>

#include "ios.h"

/* One scrub call: the pages read, indexed by stripe, position, copy, page. */
struct ore_scrub {
	struct ore_io_state *ios;
	const struct ore_layout *layout;
	u64 offset;
	u64 nstripes;
	u32 ppu;			/* pages per stripe unit */
	bool repair;
	bool restamp;			/* ORE_SCRUB_RESTAMP */
	bool read_only;			/* ore_restamp(): read, no compare */
	bool rebuild;			/* ore_rebuild() */
	u64 mismatches;
	/* ore_rebuild(): copies not read, indexed as @pages / @ppu */
	unsigned long *unread;
	struct page **pages;
	struct ore_batch *wbatch;	/* repair writes, NULL until one */
	void *scratch[2];		/* computed P and Q */
};

static struct page **ore_scrub_pg(struct ore_scrub *sc, u64 s, u32 pos,
				  u32 mirror)
{
	const struct ore_layout *l = sc->layout;

	return &sc->pages[((s * l->group_width + pos) * l->mirrors_p1 +
			   mirror) * sc->ppu];
}

static void *ore_scrub_addr(struct ore_scrub *sc, u64 s, u32 pos, u32 mirror,
			    u32 j)
{
	/* ORE's pages are lowmem (ore_page_get()) */
	return page_address(ore_scrub_pg(sc, s, pos, mirror)[j]);
}

/* Queue the write of page @j of copy @mirror of @pos on stripe @s. */
static int ore_scrub_rewrite(struct ore_scrub *sc, u64 s, u32 pos,
			     u32 mirror, u32 j,
			     const struct ore_striping_info *si)
{
	const struct ore_layout *l = sc->layout;

	if (!sc->wbatch) {
		sc->wbatch = ore_batch_alloc(sc->ios, NULL);
		if (!sc->wbatch)
			return -ENOMEM;
	}
	return ore_batch_add(sc->wbatch,
			     ore_layout_comp(l, si->group, pos, mirror),
			     si->obj_offset + (u64)j * PAGE_SIZE,
			     ore_scrub_pg(sc, s, pos, mirror)[j], 0, PAGE_SIZE,
			     true);
}

/*
 * Some reads of @batch failed. Those that failed their checksum are
 * rebuilt from the redundancy and rewritten (the caller holds the
 * stripes), in check mode as well: the checksum tells which copy is
 * wrong. Any other failure fails the scrub (-EIO).
 */
static int ore_scrub_read_repair(struct ore_scrub *sc, struct ore_batch *batch)
{
	struct ore_sub *sub;

	list_for_each_entry(sub, &batch->subs, node)
		if (sub->sio.error && sub->sio.error != -EBADMSG)
			return -EIO;
	sc->ios->rewrite_bad = true;
	return ore_repair_batch(sc->ios, batch) ? -EIO : 0;
}

/*
 * Queue the reads of the copies of position @pos of stripe @s into @batch:
 * every copy (scrub), those that can be read (restamp), one that can be
 * read, the others that cannot marked unread (rebuild).
 */
static int ore_scrub_read_pos(struct ore_scrub *sc, struct ore_batch *batch,
			      u64 s, u32 pos, const struct ore_striping_info *si)
{
	const struct ore_layout *l = sc->layout;
	struct ore_io_state *ios = sc->ios;
	bool have = false;	/* a copy of @pos is read */
	u32 m, j;
	int err;

	for (m = 0; m < l->mirrors_p1; m++) {
		u32 comp = ore_layout_comp(l, si->group, pos, m);
		struct page **pg = ore_scrub_pg(sc, s, pos, m);

		if (!ore_comp_readable(ios, comp, si->obj_offset,
				       l->stripe_unit)) {
			/* ore_restamp() reads what it can */
			if (sc->read_only)
				continue;
			/* ore_rebuild() makes the rest */
			if (sc->rebuild) {
				__set_bit((pg - sc->pages) / sc->ppu,
					  sc->unread);
				continue;
			}
			pr_warn("object 0x%llx: scrub of the stripe at %llu: component %u on store %s is not readable at %llu\n",
				ios->oc->oid, si->offset, comp,
				ore_comp_store(ios->oc, comp)->name,
				si->obj_offset);
			return -ENODEV;
		}
		/* one copy of each position is enough to rebuild it */
		if (sc->rebuild && have)
			continue;
		have = true;
		for (j = 0; j < sc->ppu; j++) {
			pg[j] = ore_own_page(ios);
			if (!pg[j])
				return -ENOMEM;
			err = ore_batch_add(batch, comp,
					    si->obj_offset + (u64)j * PAGE_SIZE,
					    pg[j], 0, PAGE_SIZE, false);
			if (err)
				return err;
		}
	}
	return 0;
}

/* Read the copies of every position of every stripe, in one batch. */
static int ore_scrub_read(struct ore_scrub *sc)
{
	const struct ore_layout *l = sc->layout;
	struct ore_batch *batch;
	u64 s;
	u32 pos;
	int err = 0;

	batch = ore_batch_alloc(sc->ios, NULL);
	if (!batch)
		return -ENOMEM;
	for (s = 0; s < sc->nstripes && !err; s++) {
		struct ore_striping_info si;

		ore_calc_stripe_info(l, sc->offset + s * l->stripe_length, &si);
		for (pos = 0; pos < l->group_width && !err; pos++)
			err = ore_scrub_read_pos(sc, batch, s, pos, &si);
	}
	if (!err) {
		struct ore_sub *sub;

		list_for_each_entry(sub, &batch->subs, node)
			sub->sio.restamp = sc->restamp;
		ore_batch_run_sync(batch);
		if (batch->failed)
			err = ore_scrub_read_repair(sc, batch);
	}
	ore_batch_free(batch);
	return err;
}

/* Copies of @pos against copy 0 on page row @j of stripe @s. */
static int ore_scrub_mirrors(struct ore_scrub *sc, u64 s, u32 pos, u32 j,
			     const struct ore_striping_info *si)
{
	void *ref = ore_scrub_addr(sc, s, pos, 0, j);
	u32 m;
	int err;

	for (m = 1; m < sc->layout->mirrors_p1; m++) {
		void *copy = ore_scrub_addr(sc, s, pos, m, j);

		if (!memcmp(ref, copy, PAGE_SIZE))
			continue;
		sc->mismatches++;
		if (!sc->repair)
			continue;
		memcpy(copy, ref, PAGE_SIZE);
		err = ore_scrub_rewrite(sc, s, pos, m, j, si);
		if (err)
			return err;
	}
	return 0;
}

/*
 * Every copy of parity column @col (P = data_width, Q = data_width + 1)
 * against @want; a mismatch is counted in *@bad and, repairing, rewritten.
 */
static int ore_scrub_parity_col(struct ore_scrub *sc, u64 s, u32 col,
				u32 j, const void *want,
				const struct ore_striping_info *si, bool *bad)
{
	u32 pos = ore_layout_stripe_pos(sc->layout, si->row, col), m;
	int err;

	for (m = 0; m < sc->layout->mirrors_p1; m++) {
		void *stored = ore_scrub_addr(sc, s, pos, m, j);

		if (!memcmp(stored, want, PAGE_SIZE))
			continue;
		*bad = true;
		if (!sc->repair)
			continue;
		memcpy(stored, want, PAGE_SIZE);
		err = ore_scrub_rewrite(sc, s, pos, m, j, si);
		if (err)
			return err;
	}
	return 0;
}

/* Parity of page row @j of stripe @s against what the data gives. */
static int ore_scrub_parity(struct ore_scrub *sc, u64 s, u32 j,
			    const struct ore_striping_info *si)
{
	const struct ore_layout *l = sc->layout;
	void *ptrs[ORE_MAX_GROUP_WIDTH];
	u32 dw = l->data_width, c;
	bool bad = false;
	int err;

	for (c = 0; c < dw; c++)
		ptrs[c] = ore_scrub_addr(sc, s,
					 ore_layout_stripe_pos(l, si->row, c),
					 0, j);
	if (l->parity == 1) {
		ore_xor_pages(sc->scratch[0], ptrs, dw, PAGE_SIZE);
	} else {
		ptrs[dw] = sc->scratch[0];
		ptrs[dw + 1] = sc->scratch[1];
		ore_gen_pq(ptrs, dw, PAGE_SIZE);
	}
	for (c = 0; c < l->parity; c++) {
		err = ore_scrub_parity_col(sc, s, dw + c, j, sc->scratch[c], si,
					   &bad);
		if (err)
			return err;
	}
	if (bad)
		sc->mismatches++;
	return 0;
}

static int ore_scrub_compare(struct ore_scrub *sc)
{
	const struct ore_layout *l = sc->layout;
	u64 s;
	u32 pos, j;
	int err;

	for (s = 0; s < sc->nstripes; s++) {
		struct ore_striping_info si;

		ore_calc_stripe_info(l, sc->offset + s * l->stripe_length, &si);
		for (j = 0; j < sc->ppu; j++) {
			for (pos = 0; pos < l->group_width; pos++) {
				err = ore_scrub_mirrors(sc, s, pos, j, &si);
				if (err)
					return err;
			}
			if (l->parity) {
				err = ore_scrub_parity(sc, s, j, &si);
				if (err)
					return err;
			}
		}
		cond_resched();
	}
	return 0;
}

/* Copy @m of position @pos on stripe @s was not read. */
static bool ore_scrub_unread(struct ore_scrub *sc, u64 s, u32 pos, u32 m)
{
	return test_bit((ore_scrub_pg(sc, s, pos, m) - sc->pages) / sc->ppu,
			sc->unread);
}

/*
 * Rebuild page row @j of stripe @s: recover each position that has no copy
 * read (from the parity), then queue the write of every copy not read that
 * is on a store being rebuilt.
 */
static int ore_scrub_rebuild_row(struct ore_scrub *sc, u64 s, u32 j,
				 const struct ore_striping_info *si)
{
	const struct ore_layout *l = sc->layout;
	struct ore_io_state *ios = sc->ios;
	struct page *have[ORE_MAX_GROUP_WIDTH];
	void *ptrs[ORE_MAX_GROUP_WIDTH];
	int fail[2] = { -1, -1 }, nfail = 0, err;
	u32 pos, m, col;

	for (pos = 0; pos < l->group_width; pos++) {
		have[pos] = NULL;
		for (m = 0; m < l->mirrors_p1 && !have[pos]; m++)
			have[pos] = ore_scrub_pg(sc, s, pos, m)[j];
		col = ore_layout_pos_col(l, si->row, pos);
		if (!have[pos]) {
			if (nfail == 2 || !l->parity) {
				nfail = 3;
				break;
			}
			have[pos] = ore_own_page(ios);
			if (!have[pos])
				return -ENOMEM;
			fail[nfail++] = col;
		}
		ptrs[col] = page_address(have[pos]);
	}
	if (nfail > (int)l->parity) {
		pr_err("object 0x%llx: cannot rebuild the stripe at %llu: more components lost than the layout survives\n",
		       ios->oc->oid, si->offset);
		return -EIO;
	}
	if (nfail) {
		err = ore_recover_pages(l, ptrs, PAGE_SIZE, fail[0], fail[1]);
		if (err)
			return err;
	}
	for (pos = 0; pos < l->group_width; pos++)
		for (m = 0; m < l->mirrors_p1; m++) {
			u32 comp = ore_layout_comp(l, si->group, pos, m);

			if (!ore_scrub_unread(sc, s, pos, m) ||
			    !ore_store_writable(ore_comp_store(ios->oc, comp)))
				continue;
			ore_scrub_pg(sc, s, pos, m)[j] = have[pos];
			err = ore_scrub_rewrite(sc, s, pos, m, j, si);
			if (err)
				return err;
		}
	return 0;
}

static int ore_scrub_rebuild(struct ore_scrub *sc)
{
	const struct ore_layout *l = sc->layout;
	u64 s;
	u32 j;
	int err;

	for (s = 0; s < sc->nstripes; s++) {
		struct ore_striping_info si;

		ore_calc_stripe_info(l, sc->offset + s * l->stripe_length, &si);
		for (j = 0; j < sc->ppu; j++) {
			err = ore_scrub_rebuild_row(sc, s, j, &si);
			if (err)
				return err;
		}
		cond_resched();
	}
	return 0;
}

static int ore_scrub_run(struct ore_scrub *sc)
{
	struct page *p;
	u32 i;
	int err;

	if (sc->read_only)
		return ore_scrub_read(sc);
	if (sc->rebuild) {
		err = ore_scrub_read(sc);
		if (!err)
			err = ore_scrub_rebuild(sc);
		goto write;
	}
	for (i = 0; i < sc->layout->parity; i++) {
		p = ore_own_page(sc->ios);
		if (!p)
			return -ENOMEM;
		sc->scratch[i] = page_address(p);
	}
	err = ore_scrub_read(sc);
	if (!err)
		err = ore_scrub_compare(sc);
write:
	if (!err && sc->wbatch) {
		ore_batch_run_sync(sc->wbatch);
		if (sc->wbatch->failed)
			err = -EIO;
	}
	return err;
}

/*
 * The work of ore_scrub() and ore_restamp() on @length bytes of whole
 * stripes from @sc->offset (@sc's layout, offset and flags set): what
 * @what names in messages.
 */
static int ore_scrub_stripes(struct ore_scrub *sc, struct ore_components *oc,
			     u64 length, ore_on_dev_error_fn on_dev_error,
			     void *private, const char *what)
{
	const struct ore_layout *layout = sc->layout;
	u64 npages;
	int err;

	err = ore_check_stripes(layout, oc, sc->offset, length, what);
	if (err)
		return err;
	sc->ppu = layout->stripe_unit / PAGE_SIZE;
	sc->nstripes = div64_u64(length, layout->stripe_length);
	npages = sc->nstripes * layout->group_width * layout->mirrors_p1 *
		 sc->ppu;
	err = ore_get_rw_state(layout, oc, true, sc->offset, length, &sc->ios);
	if (err)
		return err;
	sc->ios->nr_pages = min_t(u64, npages, UINT_MAX);
	sc->ios->private = private;
	sc->pages = kvcalloc(npages, sizeof(*sc->pages), GFP_NOIO);
	if (sc->rebuild)
		sc->unread = bitmap_zalloc(npages / sc->ppu, GFP_NOIO);
	err = sc->pages && (sc->unread || !sc->rebuild) ? ore_scrub_run(sc) :
							   -ENOMEM;
	if (err == -EIO) {
		ore_check_io(sc->ios, on_dev_error);
		pr_err("object 0x%llx: %s of %llu bytes at %llu failed (component %d at %llu)\n",
		       oc->oid, what, length, sc->offset, sc->ios->failed_comp,
		       sc->ios->failed_offset);
	}
	ore_batch_free(sc->wbatch);
	bitmap_free(sc->unread);
	kvfree(sc->pages);
	ore_put_io_state(sc->ios);
	return err;
}

/**
 * ore_scrub() - compare (and repair) the redundancy of whole stripes
 * @layout: the object's layout, verified by ore_verify_layout(); it must
 *	have parity or mirrors
 * @oc: the object's components
 * @offset: logical offset, a multiple of the stripe length
 * @length: bytes, a multiple of the stripe length. ORE reads every
 *	component of these stripes into pages of its own: @length *
 *	group_width * mirrors_p1 / data_width bytes of memory for the call
 * @flags: %ORE_SCRUB_REPAIR: rewrite what disagrees: the other mirror
 *	copies from copy 0, parity from the data (copy 0 of each data
 *	column). %ORE_SCRUB_RESTAMP: on stores that keep checksums, take the
 *	data read as right and store its checksums instead of verifying
 *	them (after a crash, the stripes that had writes in flight)
 * @mismatches: increased by the pages found to disagree: each mirror page
 *	that differs from copy 0, and each page row of a stripe whose stored
 *	parity (any copy of P or Q) differs from the computed one
 * @on_dev_error: called for each component that failed (as for
 *	ore_check_io()), or NULL; ios->private is @private there
 * @private: for @on_dev_error
 *
 * Every mirror copy of every data and parity position is read. Synchronous;
 * process context. The caller keeps writes of these stripes out while it
 * runs, as for ore_rebuild().
 *
 * Return: 0; -EINVAL for a bad range or a layout without redundancy;
 * -ENODEV when a component of the stripes is on a store that cannot be
 * read there (failed, or rebuilding above its recovery offset), nothing
 * read then; -EIO when a component read or a repair write failed (the
 * components reported to @on_dev_error, nothing written after a failed
 * read); -ENOMEM.
 */
int ore_scrub(const struct ore_layout *layout, struct ore_components *oc,
	      u64 offset, u64 length, unsigned int flags, u64 *mismatches,
	      ore_on_dev_error_fn on_dev_error, void *private)
{
	struct ore_scrub sc = {
		.layout = layout,
		.offset = offset,
		.repair = flags & ORE_SCRUB_REPAIR,
		.restamp = flags & ORE_SCRUB_RESTAMP,
	};
	int err;

	err = ore_scrub_stripes(&sc, oc, length, on_dev_error, private,
				"scrub");
	*mismatches += sc.mismatches;
	return err;
}
EXPORT_SYMBOL_GPL(ore_scrub);

/**
 * ore_restamp() - store the checksums of whole stripes from their data
 * @layout: the object's layout, verified by ore_verify_layout(); it must
 *	have parity or mirrors
 * @oc: the object's components
 * @offset: logical offset, a multiple of the stripe length
 * @length: bytes, a multiple of the stripe length (memory as for
 *	ore_scrub())
 *
 * Every copy of every position that can be read is read with
 * &ore_store_io.restamp: stores that keep checksums take what they hold as
 * right. Nothing is compared or written: for the stripes a crash cut
 * writes in when the redundancy cannot be repaired (a degraded array
 * started all the same), so that their blocks read as what they hold
 * instead of failing checksums that the crash left behind. Components
 * that cannot be read are left out. Synchronous; process context; the
 * caller keeps writes of these stripes out.
 *
 * Return: 0; -EINVAL for a bad range or a layout without redundancy; -EIO
 * when a read failed; -ENOMEM.
 */
int ore_restamp(const struct ore_layout *layout, struct ore_components *oc,
		u64 offset, u64 length)
{
	struct ore_scrub sc = {
		.layout = layout,
		.offset = offset,
		.restamp = true,
		.read_only = true,
	};

	return ore_scrub_stripes(&sc, oc, length, NULL, NULL, "restamp");
}
EXPORT_SYMBOL_GPL(ore_restamp);

/**
 * ore_rebuild() - rewrite whole stripes on the rebuilding stores
 * @layout: the object's layout, verified by ore_verify_layout(); it must
 *	have parity or mirrors
 * @oc: the object's components
 * @offset: logical offset, a multiple of the stripe length
 * @length: bytes, a multiple of the stripe length (memory as for
 *	ore_scrub(), in pages of ORE's own)
 * @on_dev_error: called for each component that failed (as for
 *	ore_check_io()), or NULL; ios->private is @private there
 * @private: for @on_dev_error
 *
 * Every component that can be read is read, all at once; each position
 * with no copy read is recovered from a mirror copy or from the parity;
 * the components not read that are on stores being rebuilt
 * (%ORE_STORE_REBUILDING above their recovery offset) are written, all at
 * once. Synchronous; process context. The caller keeps writes of these
 * stripes out while it runs.
 *
 * Return: 0; -EINVAL for a bad range or a layout without redundancy; -EIO
 * when a read failed or more components are lost than the layout survives
 * (nothing written then), or when a write of a rebuilding store failed;
 * -ENOMEM.
 */
int ore_rebuild(const struct ore_layout *layout, struct ore_components *oc,
		u64 offset, u64 length, ore_on_dev_error_fn on_dev_error,
		void *private)
{
	struct ore_scrub sc = {
		.layout = layout,
		.offset = offset,
		.rebuild = true,
	};

	return ore_scrub_stripes(&sc, oc, length, on_dev_error, private,
				 "rebuild");
}
EXPORT_SYMBOL_GPL(ore_rebuild);
