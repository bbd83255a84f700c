// SPDX-License-Identifier: GPL-2.0
/*
 * ORE I/O states: their allocation and results, batches of component
 * I/O (one stage of an I/O state: built, submitted, completed) and the
 * mapping of logical ranges onto components. The stages are described in
 * ios.h.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/mm.h>

#include "ios.h"

/* ------------------------------------------------------------------ */
/* batches */

struct ore_batch *ore_batch_alloc(struct ore_io_state *ios,
				  void (*done)(struct ore_batch *))
{
	struct ore_batch *batch;

	batch = kzalloc(sizeof(*batch), GFP_NOIO);
	if (!batch)
		return NULL;
	batch->cur = kcalloc(ios->layout->num_comps, sizeof(*batch->cur),
			     GFP_NOIO);
	if (!batch->cur) {
		kfree(batch);
		return NULL;
	}
	batch->ios = ios;
	batch->done = done;
	/*
	 * A component gets no more contiguous pages than the I/O has, or than
	 * one stripe unit when read-4-write reads a column.
	 */
	batch->cap = clamp_t(u32, max_t(u32, ios->nr_pages,
					ios->layout->stripe_unit / PAGE_SIZE),
			     1, ORE_SUB_MAX_BVECS);
	INIT_LIST_HEAD(&batch->subs);
	init_completion(&batch->wait);
	return batch;
}

void ore_batch_free(struct ore_batch *batch)
{
	struct ore_sub *sub, *next;

	if (!batch)
		return;
	list_for_each_entry_safe(sub, next, &batch->subs, node)
		kfree(sub);
	kfree(batch->cur);
	kfree(batch);
}

/*
 * Record a failed component in the I/O state (any context). @error is the
 * component's own error, 0 when its store was skipped as failed. A
 * component keeps its first error, except that any other error replaces
 * -ENOSPC (a full store is not a broken one, a broken one must not pass
 * for full).
 */
void ore_note_failure(struct ore_io_state *ios, u32 comp, u64 offset,
		      int error)
{
	int old;

	if (!test_and_set_bit(comp, ore_priv(ios)->failed_mask)) {
		if (cmpxchg(&ios->failed_comp, -1, (int)comp) == -1)
			ios->failed_offset = offset;
	}
	if (!error)
		return;
	old = READ_ONCE(ore_priv(ios)->comp_error[comp]);
	while (!old || (old == -ENOSPC && error != -ENOSPC)) {
		int prev = cmpxchg(&ore_priv(ios)->comp_error[comp], old, error);

		if (prev == old)
			break;
		old = prev;
	}
}

/*
 * May component @comp of @ios's object be missing, as an empty one? With
 * lazy components always; with sized ones when the extent known made when
 * @ios was set up does not reach it (docs/stores.md, "Missing
 * components"). Otherwise it exists, and missing it is lost.
 */
bool ore_comp_optional(struct ore_io_state *ios, u32 comp)
{
	const struct ore_components *oc = ios->oc;

	if (oc->lazy)
		return true;
	return oc->sized &&
	       !ore_layout_obj_size(ios->layout, comp, ore_priv(ios)->made);
}

/*
 * The error of a component of @ios that failed on a store still in
 * service, or 0: a component whose store is failed is made by its rebuild,
 * but one that a working store refused (-ENOSPC, -EIO) may be missing, so
 * the extent known made must not pass it. A component not tried because
 * its store was failed is made by a rebuild also when the user has put a
 * replacement in that store's place since (the replacement's rebuild
 * takes the component for one never made unless the extent reaches it;
 * the rebuild of the object waits for its writes).
 */
int ore_made_error(struct ore_io_state *ios)
{
	struct ore_io_priv *priv = ore_priv(ios);
	u32 comp;

	for_each_set_bit(comp, priv->failed_mask, ios->layout->num_comps) {
		if (test_bit(comp, priv->untried_mask) &&
		    priv->comp_error[comp] == -ENODEV)
			continue;
		if (!ore_store_failed(ore_comp_store(ios->oc, comp)))
			return priv->comp_error[comp] ?: -EIO;
	}
	return 0;
}

/* Every component that the first @end bytes reach exists now: say so. */
void ore_raise_made(struct ore_components *oc, u64 end)
{
	u64 old = READ_ONCE(oc->made);

	while (old < end) {
		u64 prev = cmpxchg64(&oc->made, old, end);

		if (prev == old)
			break;
		old = prev;
	}
}

static void ore_batch_put(struct ore_batch *batch)
{
	if (!atomic_dec_and_test(&batch->pending))
		return;
	if (batch->done)
		batch->done(batch);
	else
		complete(&batch->wait);
}

static void ore_sub_end_io(struct ore_store_io *sio)
{
	struct ore_sub *sub = container_of(sio, struct ore_sub, sio);
	struct ore_batch *batch = sub->batch;

	if (sio->error == -ENOENT && !sio->write && sub->optional) {
		unsigned int i;

		/* a component not made yet: empty */
		for (i = 0; i < sio->nr_bvec; i++)
			memzero_bvec(&sio->bvec[i]);
		sio->error = 0;
	} else if (sio->error == -ENOENT) {
		/*
		 * Components exist from ore_create() on, or where the size
		 * reaches: a missing one is lost (deleted behind our back),
		 * not a hole, and is not made again by a write (no_create).
		 * As md with a bad
		 * block: this component fails for this I/O (a read is
		 * rebuilt from the redundancy); the store is not failed
		 * here, ore_check_io() tells the user -ENOENT.
		 */
		atomic64_inc(&ore_stats.missing_comps);
		atomic_inc(&sio->store->nr_errors);
		pr_warn_ratelimited("object 0x%llx component %u is missing on store %s (%s at offset %llu len %u): a lost component\n",
				    sio->oid, sub->comp, sio->store->name,
				    sio->write ? "write" : "read", sio->offset,
				    sio->len);
		ore_note_failure(batch->ios, sub->comp, sio->offset,
				 sio->error);
		WRITE_ONCE(batch->failed, true);
	} else if (sio->error == -EBADMSG && !sio->write) {
		/*
		 * Data that fails its checksum: wrong, but the store works.
		 * The reader rebuilds it from the redundancy (and rewrites
		 * it where the caller holds the stripes); the component is
		 * not failed for this I/O, nor its store.
		 */
		WRITE_ONCE(batch->failed, true);
	} else if (sio->error) {
		/* the store counted it in nr_errors */
		pr_err_ratelimited("%s of object 0x%llx component %u on store %s at offset %llu len %u failed: %d\n",
				   sio->write ? "write" : "read", sio->oid,
				   sub->comp, sio->store->name, sio->offset,
				   sio->len, sio->error);
		ore_note_failure(batch->ios, sub->comp, sio->offset,
				 sio->error);
		if (sio->error == -ENOSPC)
			WRITE_ONCE(batch->ios->nospc, true);
		WRITE_ONCE(batch->failed, true);
	}
	ore_batch_put(batch);
}

/*
 * Append @len bytes of @page at @pgoff to component @comp at object offset
 * @obj_off, merging with the component's current sub-I/O when contiguous.
 * No @page: a discard of the range (a write without memory).
 */
int ore_batch_add(struct ore_batch *batch, u32 comp, u64 obj_off,
		  struct page *page, u32 pgoff, u32 len, bool write)
{
	struct ore_io_state *ios = batch->ios;
	struct ore_sub *sub = batch->cur[comp];
	u32 cap = page ? batch->cap : 0;

	if (sub && (sub->sio.offset + sub->sio.len != obj_off ||
		    (page && sub->sio.nr_bvec == sub->cap) ||
		    (!page && sub->sio.len > ORE_DISCARD_SUB_MAX - len)))
		sub = NULL;
	if (!sub) {
		/* the header zeroed, the bvecs filled as they come */
		sub = kmalloc(struct_size(sub, bvec, cap), GFP_NOIO);
		if (!sub)
			return -ENOMEM;
		memset(sub, 0, sizeof(*sub));
		sub->cap = cap;
		sub->batch = batch;
		sub->comp = comp;
		sub->sio.store = ore_comp_store(ios->oc, comp);
		sub->sio.oid = ios->oc->oid;
		sub->sio.offset = obj_off;
		sub->sio.bvec = sub->bvec;
		sub->sio.write = write;
		sub->sio.fua = write && ios->fua;
		sub->sio.discard = !page;
		/*
		 * Components exist from ore_create() on, or where the size
		 * reaches (docs/stores.md), except above the recovery offset
		 * of a rebuilding store: what is there is not read and not
		 * rebuilt yet, so a write may make the component
		 */
		sub->optional = ore_comp_optional(ios, comp);
		sub->sio.no_create = !sub->optional &&
				     !ore_store_unbuilt(sub->sio.store, obj_off);
		sub->sio.end_io = ore_sub_end_io;
		sub->sio.private = sub;
		list_add_tail(&sub->node, &batch->subs);
		batch->cur[comp] = sub;
	}
	if (page)
		bvec_set_page(&sub->bvec[sub->sio.nr_bvec++], page, len, pgoff);
	sub->sio.len += len;
	return 0;
}

/*
 * Write (or read) @npages whole pages @pages to component @comp from object
 * offset @obj_off on: as ore_batch_add() for each page, the checks made
 * once per sub-I/O rather than once per page.
 */
int ore_batch_add_pages(struct ore_batch *batch, u32 comp, u64 obj_off,
			struct page **pages, unsigned int npages, bool write)
{
	while (npages) {
		struct ore_sub *sub;
		unsigned int n;
		int err;

		/* the first page opens or extends the sub-I/O */
		err = ore_batch_add(batch, comp, obj_off, pages[0], 0,
				    PAGE_SIZE, write);
		if (err)
			return err;
		sub = batch->cur[comp];
		n = min(npages - 1, sub->cap - sub->sio.nr_bvec);
		npages--;
		pages++;
		obj_off += PAGE_SIZE;
		sub->sio.len += n * PAGE_SIZE;
		obj_off += (u64)n * PAGE_SIZE;
		npages -= n;
		while (n--)
			bvec_set_page(&sub->bvec[sub->sio.nr_bvec++],
				      *pages++, PAGE_SIZE, 0);
	}
	return 0;
}

/* Submit every sub-I/O of @batch; its done() runs when all are over. */
void ore_batch_submit(struct ore_batch *batch)
{
	struct ore_sub *sub;

	atomic_set(&batch->pending, 1);
	list_for_each_entry(sub, &batch->subs, node) {
		struct ore_store *store = sub->sio.store;
		bool usable;

		usable = sub->sio.write ? ore_store_writable(store) :
			 ore_store_readable(store, sub->sio.offset,
					    sub->sio.len);
		if (!usable) {
			sub->skipped = true;
			sub->sio.error = -ENODEV;
			/*
			 * A failed store counts as a failed component
			 * (-ENODEV: not tried; the user may have put
			 * another store in its place by the time
			 * ore_check_io() names the component's store); a
			 * rebuilding one is read from the redundancy above
			 * its recovery offset, and that is no error of it.
			 */
			if (ore_store_failed(store)) {
				set_bit(sub->comp,
					ore_priv(batch->ios)->untried_mask);
				ore_note_failure(batch->ios, sub->comp,
						 sub->sio.offset, -ENODEV);
			}
			WRITE_ONCE(batch->failed, true);
			continue;
		}
		atomic_inc(&batch->pending);
		store->ops->submit(&sub->sio);
	}
	ore_batch_put(batch);
}

void ore_batch_run_sync(struct ore_batch *batch)
{
	batch->done = NULL;
	ore_batch_submit(batch);
	wait_for_completion(&batch->wait);
}

/* ------------------------------------------------------------------ */
/* mapping */

/*
 * Can component @comp be read at [@obj_off, @obj_off + @len) in @ios: its
 * store's state allows it and it did not fail in this I/O?
 */
bool ore_comp_readable(struct ore_io_state *ios, u32 comp, u64 obj_off,
		       u64 len)
{
	return !test_bit(comp, ore_priv(ios)->failed_mask) &&
	       ore_store_readable(ore_comp_store(ios->oc, comp), obj_off, len);
}

/*
 * Which mirror of position @pos to read on stripe row @row, for
 * [@obj_off, @obj_off + @len).
 */
u32 ore_pick_mirror(struct ore_io_state *ios, u32 group, u32 pos,
		    u64 row, u64 obj_off, u64 len)
{
	const struct ore_layout *layout = ios->layout;
	u32 m = layout->mirrors_p1, k;

	if (m == 1)
		return 0;
	for (k = 0; k < m; k++) {
		u32 mirror = (u32)((row + k) % m);
		u32 comp = ore_layout_comp(layout, group, pos, mirror);

		if (ore_comp_readable(ios, comp, obj_off, len)) {
			if (k)		/* the preferred copy is gone */
				ios->degraded = true;
			return mirror;
		}
	}
	return (u32)(row % m);
}

/*
 * Map the data of logical range [@loff, @loff + @len) held in @pages (page
 * i holds @loff + i * PAGE_SIZE) onto component reads (one mirror each) or
 * writes (every mirror). @loff is page aligned. No @pages: discards.
 */
int ore_map_data(struct ore_batch *batch, u64 loff, u64 len,
		 struct page **pages, bool write)
{
	struct ore_io_state *ios = batch->ios;
	const struct ore_layout *layout = ios->layout;
	unsigned int idx = 0;
	int err;

	while (len) {
		struct ore_striping_info si;
		u64 chunk, done;
		u32 pos, m, first_m, last_m, l;

		ore_calc_stripe_info(layout, loff, &si);
		chunk = min_t(u64, len, layout->stripe_unit - si.unit_off);
		pos = ore_layout_stripe_pos(layout, si.row, si.col);
		if (write) {
			first_m = 0;
			last_m = layout->mirrors_p1 - 1;
		} else {
			first_m = ore_pick_mirror(ios, si.group, pos, si.row,
						  si.obj_offset, chunk);
			last_m = first_m;
		}
		for (done = 0; done < chunk; done += l, idx++) {
			/* a discard (no pages) takes the piece whole */
			l = pages ? min_t(u64, PAGE_SIZE, chunk - done) : chunk;
			for (m = first_m; m <= last_m; m++) {
				u32 comp = ore_layout_comp(layout, si.group,
							   pos, m);

				err = ore_batch_add(batch, comp,
						    si.obj_offset + done,
						    pages ? pages[idx] : NULL,
						    0, l, write);
				if (err)
					return err;
			}
		}
		loff += chunk;
		len -= chunk;
	}
	return 0;
}

/*
 * Write @npages pages at @obj_off to every mirror of group position @pos
 * (ore_layout_stripe_pos() of the stripe column on its row).
 */
int ore_map_column(struct ore_batch *batch, u32 group, u32 pos,
		   u64 obj_off, struct page **pages, unsigned int npages)
{
	const struct ore_layout *layout = batch->ios->layout;
	u32 m;
	int err;

	for (m = 0; m < layout->mirrors_p1; m++) {
		err = ore_batch_add_pages(batch,
					  ore_layout_comp(layout, group, pos, m),
					  obj_off, pages, npages, true);
		if (err)
			return err;
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* pages owned by ORE */

struct page *ore_own_page(struct ore_io_state *ios)
{
	struct page *page = ore_page_get(GFP_NOIO);

	if (page)
		list_add_tail(&page->lru, &ore_priv(ios)->own_pages);
	return page;
}

/*
 * Fill @pages with @n pages owned by @ios (freed with it). Returns 0 or
 * -ENOMEM (the pages got so far are owned by @ios all the same).
 */
int ore_own_pages(struct ore_io_state *ios, struct page **pages,
		  unsigned int n)
{
	unsigned int got = ore_page_get_bulk(pages, n, GFP_NOIO), i;

	for (i = 0; i < got; i++)
		list_add_tail(&pages[i]->lru, &ore_priv(ios)->own_pages);
	return got == n ? 0 : -ENOMEM;
}

static void ore_free_own_pages(struct ore_io_state *ios)
{
	ore_page_put_list(&ore_priv(ios)->own_pages);
}

int ore_check_range(struct ore_io_state *ios, u64 *len)
{
	u64 l = ios->length;

	if (!ios->length || !IS_ALIGNED(ios->offset, PAGE_SIZE)) {
		pr_err("object 0x%llx: bad I/O range offset %llu length %llu\n",
		       ios->oc->oid, ios->offset, ios->length);
		return -EINVAL;
	}
	/*
	 * Reads fill whole pages (block stores take whole sectors only);
	 * parity writes cover whole pages.
	 */
	if (ios->kind == ORE_IO_READ || ios->layout->parity)
		l = round_up(l, PAGE_SIZE);
	if (ios->nr_pages < DIV_ROUND_UP(l, PAGE_SIZE)) {
		pr_err("object 0x%llx: %u pages for %llu bytes\n",
		       ios->oc->oid, ios->nr_pages, l);
		return -EINVAL;
	}
	*len = l;
	return 0;
}

/*
 * The range of ore_rebuild() and ore_scrub() (@what in messages): a layout
 * with redundancy and whole stripes. Returns 0 or -EINVAL.
 */
int ore_check_stripes(const struct ore_layout *layout,
		      const struct ore_components *oc, u64 offset, u64 length,
		      const char *what)
{
	u64 U = layout->stripe_length;

	if (!layout->parity && layout->mirrors_p1 < 2) {
		pr_err("object 0x%llx: %s of a layout without redundancy\n",
		       oc->oid, what);
		return -EINVAL;
	}
	if (!length || offset % U || length % U) {
		pr_err("object 0x%llx: %s of %llu bytes at %llu: not whole stripes of %llu\n",
		       oc->oid, what, length, offset, U);
		return -EINVAL;
	}
	return 0;
}

/* Submit @batch; wait for it if the caller gave no done(). */
int ore_start(struct ore_io_state *ios, struct ore_batch *batch)
{
	DECLARE_COMPLETION_ONSTACK(wait);
	bool sync = !ios->done;

	if (sync)
		ore_priv(ios)->sync_done = &wait;
	ore_batch_submit(batch);
	if (!sync)	/* done() may have freed @ios already */
		return 0;
	wait_for_completion(&wait);
	ore_priv(ios)->sync_done = NULL;
	return ios->error;
}

/*
 * Map [@ios->offset, + @len) of @pages (NULL: a discard) onto one batch of
 * component reads or writes, without parity, and start it.
 */
int ore_start_data(struct ore_io_state *ios,
		   void (*done)(struct ore_batch *batch), u64 len,
		   struct page **pages, bool write)
{
	struct ore_batch *batch;
	int err;

	batch = ore_batch_alloc(ios, done);
	if (!batch)
		return -ENOMEM;
	err = ore_map_data(batch, ios->offset, len, pages, write);
	if (err) {
		ore_batch_free(batch);
		return err;
	}
	return ore_start(ios, batch);
}

/* ------------------------------------------------------------------ */
/* I/O states */

void ore_ios_finish(struct ore_io_state *ios)
{
	ore_write_uncount(ios);
	if (ore_priv(ios)->sync_done)
		complete(ore_priv(ios)->sync_done);
	else if (ios->done)
		ios->done(ios, ios->private);
}

static int ore_alloc_ios(const struct ore_layout *layout,
			 struct ore_components *oc, enum ore_io_kind kind,
			 struct ore_io_state **pios)
{
	struct ore_io_priv *priv;
	struct ore_io_state *ios;

	if (!layout->num_comps || layout->num_comps > oc->numdevs) {
		pr_err("object 0x%llx: layout of %u components over %u devices\n",
		       oc->oid, layout->num_comps, oc->numdevs);
		return -EINVAL;
	}
	priv = kzalloc(struct_size(priv, comp_error, layout->num_comps),
		       GFP_NOIO);
	if (!priv)
		return -ENOMEM;
	priv->nr_comps = layout->num_comps;
	ios = &priv->ios;
	ios->kind = kind;
	ios->layout = layout;
	ios->oc = oc;
	ios->failed_comp = -1;
	priv->made = READ_ONCE(oc->made);
	INIT_LIST_HEAD(&priv->own_pages);
	INIT_LIST_HEAD(&priv->pstripes);
	atomic64_inc(&ore_stats.ios_live);
	*pios = ios;
	return 0;
}

/**
 * ore_get_rw_state() - allocate an I/O state for a read or a write
 * @layout: the object's layout, verified by ore_verify_layout()
 * @oc: the object's components
 * @is_reading: true for ore_read(), false for ore_write()
 * @offset: logical offset, page aligned
 * @length: bytes
 * @pios: receives the I/O state; set its pages, done and private next
 *
 * Return: 0 or -ENOMEM, -EINVAL.
 */
int ore_get_rw_state(const struct ore_layout *layout,
		     struct ore_components *oc, bool is_reading,
		     u64 offset, u64 length, struct ore_io_state **pios)
{
	int err = ore_alloc_ios(layout, oc,
				is_reading ? ORE_IO_READ : ORE_IO_WRITE, pios);

	if (err)
		return err;
	(*pios)->offset = offset;
	(*pios)->length = length;
	return 0;
}
EXPORT_SYMBOL_GPL(ore_get_rw_state);

/**
 * ore_get_io_state() - allocate an I/O state for ore_create()/ore_remove()
 * @layout: the object's layout, verified by ore_verify_layout()
 * @oc: the object's components
 * @pios: receives the I/O state
 *
 * Return: 0 or -ENOMEM, -EINVAL.
 */
int ore_get_io_state(const struct ore_layout *layout,
		     struct ore_components *oc, struct ore_io_state **pios)
{
	return ore_alloc_ios(layout, oc, ORE_IO_OBJECT, pios);
}
EXPORT_SYMBOL_GPL(ore_get_io_state);

/**
 * ore_put_io_state() - free an I/O state whose I/O is over
 * @ios: the I/O state, or NULL
 */
void ore_put_io_state(struct ore_io_state *ios)
{
	if (!ios)
		return;
	ore_free_own_pages(ios);
	kfree(ore_priv(ios));
	atomic64_dec(&ore_stats.ios_live);
}
EXPORT_SYMBOL_GPL(ore_put_io_state);

/**
 * ore_check_io() - report the components that failed during an I/O
 * @ios: an I/O state whose I/O is over
 * @on_dev_error: called for each failed component, or NULL, with that
 *	component's own error: -ENOSPC for a full store, -ENOENT for a
 *	component object found missing (rebuilt from the redundancy, see
 *	@ios->degraded), the store's errno otherwise; -ENODEV for a
 *	sub-I/O not issued because its store was failed, reported only
 *	while the component's store is failed still: the user may have put
 *	a new store in its place since (the store passed is the one the
 *	component has at this call); @ios->error or -EIO for other
 *	components not done
 *
 * Call it once the I/O is over, before ore_put_io_state(). For a write of
 * sized components it raises &ore_components.made when @on_dev_error
 * took the store of every refused component out of service.
 *
 * Return: @ios->error: 0 when the data was read or stored (possibly
 * degraded, see @ios->degraded), or the negative errno of the I/O.
 */
int ore_check_io(struct ore_io_state *ios, ore_on_dev_error_fn on_dev_error)
{
	struct ore_io_priv *priv = ore_priv(ios);
	unsigned int comp;

	if (!on_dev_error)
		return ios->error;
	for_each_set_bit(comp, priv->failed_mask, ios->layout->num_comps) {
		struct ore_store *store = ore_comp_store(ios->oc, comp);

		/* not tried on a failed store that has been replaced since */
		if (test_bit(comp, priv->untried_mask) &&
		    priv->comp_error[comp] == -ENODEV &&
		    !ore_store_failed(store))
			continue;
		on_dev_error(ios, comp, store,
			     comp == ios->failed_comp ? ios->failed_offset : 0,
			     priv->comp_error[comp] ?:
			     (ios->error ? ios->error : -EIO));
	}
	/*
	 * A write whose end could not raise the extent made because a store
	 * in service refused a component: @on_dev_error may have taken that
	 * store out of service since (a write error), and then the
	 * component is made by its rebuild.
	 */
	if (!ios->error && priv->raise_made && ios->oc->sized &&
	    !bitmap_empty(priv->failed_mask, ios->layout->num_comps) &&
	    !ore_made_error(ios))
		ore_raise_made(ios->oc, ios->offset + ios->length);
	return ios->error;
}
EXPORT_SYMBOL_GPL(ore_check_io);

/**
 * ore_verify_layout() - check a layout and fill in its derived fields
 * @num_devs: number of devices (object stores) available
 * @layout: the layout; parity, data_width and the lengths are filled in
 *
 * Return: 0, or -EINVAL with a message naming the bad field.
 */
int ore_verify_layout(u32 num_devs, struct ore_layout *layout)
{
	const char *why;
	int err = ore_layout_check(layout, num_devs, &why);

	if (err)
		pr_err("bad layout (raid %u, stripe_unit %u, group_width %u, group_depth %u, group_count %u, mirrors_p1 %u, %u devices): %s\n",
		       layout->raid_algorithm, layout->stripe_unit,
		       layout->group_width, layout->group_depth,
		       layout->group_count, layout->mirrors_p1, num_devs, why);
	return err;
}
EXPORT_SYMBOL_GPL(ore_verify_layout);

