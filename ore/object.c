// SPDX-License-Identifier: GPL-2.0
/*
 * ORE whole-object operations: create, remove, truncate, flush and
 * length, run on every component of an object.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/mm.h>
#include <linux/highmem.h>
#include <linux/sched/mm.h>

#include "ios.h"

/* One operation on component @comp (object @oid) of @store. */
typedef int (*ore_comp_op_fn)(struct ore_store *store, u32 comp, u64 oid,
			      void *arg);

/*
 * Run @op on every component, all at once when @parallel (see
 * ore_run_on_comps_parallel()). A failed store or component counts against
 * the layout's redundancy as for writes; returns 0 while every group keeps
 * enough components, else the first error (in component order either way).
 */
/* ore_run_on_comps_parallel()'s result for a store it did not run on */
#define ORE_COMP_SKIPPED	INT_MIN

static bool ore_run_on_comps_parallel(struct ore_io_state *ios,
				      ore_comp_op_fn op, void *arg, int *err);

static int ore_run_on_comps(struct ore_io_state *ios, ore_comp_op_fn op,
			    void *arg, int ignore, bool parallel)
{
	const struct ore_layout *layout = ios->layout;
	int first_err = 0;
	int *errs = NULL;
	u32 comp;

	if (parallel && layout->num_comps > 1) {
		errs = kcalloc(layout->num_comps, sizeof(*errs), GFP_NOIO);
		if (errs && !ore_run_on_comps_parallel(ios, op, arg, errs)) {
			kfree(errs);
			errs = NULL;	/* one after another, as without memory */
		}
	}
	for (comp = 0; comp < layout->num_comps; comp++) {
		struct ore_store *store = ore_comp_store(ios->oc, comp);
		int err;

		if (errs ? errs[comp] == ORE_COMP_SKIPPED :
		    !ore_store_writable(store)) {
			ore_note_failure(ios, comp, 0, 0);
			continue;
		}
		err = errs ? errs[comp] : op(store, comp, ios->oc->oid, arg);
		if (err && err != ignore) {
			pr_err("object 0x%llx on store %s: %d\n",
			       ios->oc->oid, store->name, err);
			atomic_inc(&store->nr_errors);
			ore_note_failure(ios, comp, 0, err);
			if (!first_err)
				first_err = err;
		}
	}
	kfree(errs);
	if (!first_err && ios->failed_comp < 0)
		return 0;
	/* every failed store and component is in failed_mask now */
	if (!ore_layout_survives(layout, ore_priv(ios)->failed_mask, layout->num_comps,
				 0))
		return first_err ? first_err : -EIO;
	ios->degraded = true;
	return 0;
}

static int ore_op_create(struct ore_store *store, u32 comp, u64 oid,
			 void *arg)
{
	int err = store->ops->create(store, oid);

	if (err == -EEXIST)	/* a stale object: leave it empty */
		err = store->ops->truncate(store, oid, 0);
	return err;
}

/**
 * struct ore_comp_job - one component's operation run in ore_obj_wq
 * @work: in ore_obj_wq
 * @op: the operation
 * @store: the component's store
 * @comp: the component
 * @oid: the object
 * @arg: @op's argument
 * @err: @op's result
 * @pending: jobs not over yet, and one for the caller
 * @done: completed by the last of them
 */
struct ore_comp_job {
	struct work_struct work;
	ore_comp_op_fn op;
	struct ore_store *store;
	u32 comp;
	u64 oid;
	void *arg;
	int err;
	atomic_t *pending;
	struct completion *done;
};

static void ore_comp_job_work(struct work_struct *work)
{
	struct ore_comp_job *job = container_of(work, struct ore_comp_job,
						work);

	job->err = job->op(job->store, job->comp, job->oid, job->arg);
	if (atomic_dec_and_test(job->pending))
		complete(job->done);
}

/*
 * Run @op on every writable component at once: the first in the caller,
 * the others in ore_obj_wq, then wait for all. Component ops of file
 * stores are VFS calls that sleep (a create is a directory insert in the
 * backing filesystem's journal): one after another they cost the sum.
 * @err[comp] gets each result; ORE_COMP_SKIPPED for a store not writable. Returns
 * false (nothing run) when the jobs cannot be allocated.
 */
static bool ore_run_on_comps_parallel(struct ore_io_state *ios,
				      ore_comp_op_fn op, void *arg, int *err)
{
	const struct ore_layout *layout = ios->layout;
	DECLARE_COMPLETION_ONSTACK(done);
	struct ore_comp_job *jobs;
	atomic_t pending;
	int first = -1;
	u32 comp;

	jobs = kcalloc(layout->num_comps, sizeof(*jobs), GFP_NOIO);
	if (!jobs)
		return false;
	atomic_set(&pending, 1);
	for (comp = 0; comp < layout->num_comps; comp++) {
		struct ore_comp_job *job = &jobs[comp];

		job->store = ore_comp_store(ios->oc, comp);
		if (!ore_store_writable(job->store)) {
			err[comp] = ORE_COMP_SKIPPED;
			continue;
		}
		job->op = op;
		job->comp = comp;
		job->oid = ios->oc->oid;
		job->arg = arg;
		job->pending = &pending;
		job->done = &done;
		if (first < 0) {
			first = comp;	/* run by the caller below */
			continue;
		}
		atomic_inc(&pending);
		INIT_WORK(&job->work, ore_comp_job_work);
		queue_work(ore_obj_wq, &job->work);
	}
	if (first >= 0)
		jobs[first].err = op(jobs[first].store, first, ios->oc->oid,
				     arg);
	if (!atomic_dec_and_test(&pending))
		wait_for_completion(&done);
	for (comp = 0; comp < layout->num_comps; comp++)
		if (jobs[comp].op)
			err[comp] = jobs[comp].err;
	kfree(jobs);
	return true;
}

static int ore_op_remove(struct ore_store *store, u32 comp, u64 oid,
			 void *arg)
{
	return store->ops->remove(store, oid);
}

static int ore_op_flush(struct ore_store *store, u32 comp, u64 oid,
			void *arg)
{
	return store->ops->flush(store, oid);
}

static void ore_ios_complete_sync(struct ore_io_state *ios, int err)
{
	ios->error = err;
	if (ios->done)
		ios->done(ios, ios->private);
}

/**
 * ore_create() - create the object on every component
 * @ios: an I/O state from ore_get_io_state()
 *
 * An object that exists already is truncated to zero. Runs synchronously;
 * @ios->done, if set, is called before returning.
 *
 * Return: 0 (possibly degraded) or a negative errno.
 */
int ore_create(struct ore_io_state *ios)
{
	int err = ore_run_on_comps(ios, ore_op_create, NULL, 0, true);

	ore_ios_complete_sync(ios, err);
	return err;
}
EXPORT_SYMBOL_GPL(ore_create);

/**
 * ore_remove() - remove the object from every component
 * @ios: an I/O state from ore_get_io_state()
 *
 * A component that does not hold the object is not an error. Runs
 * synchronously; @ios->done, if set, is called before returning.
 *
 * Return: 0 (possibly degraded) or a negative errno.
 */
int ore_remove(struct ore_io_state *ios)
{
	int err;

	err = ore_run_on_comps(ios, ore_op_remove, NULL, -ENOENT, false);
	ore_ios_complete_sync(ios, err);
	return err;
}
EXPORT_SYMBOL_GPL(ore_remove);

/* ore_make_reach() and ore_truncate(): the object's extents */
struct ore_reach_arg {
	const struct ore_layout *layout;
	u64 made;	/* the components this extent reaches exist */
	u64 end;	/* the new extent (size of a truncate) */
	bool lazy;	/* ore_components.lazy: truncate creates */
	bool sized;	/* ore_components.sized */
	const unsigned long *skip;	/* components not to make, or NULL */
};

/*
 * Make @comp exist when @ra->end reaches it and @ra->made did not (and
 * @ra->skip does not name it).
 */
static int ore_op_make(struct ore_store *store, u32 comp, u64 oid, void *arg)
{
	struct ore_reach_arg *ra = arg;
	int err;

	if ((ra->skip && test_bit(comp, ra->skip)) ||
	    ore_layout_obj_size(ra->layout, comp, ra->made) ||
	    !ore_layout_obj_size(ra->layout, comp, ra->end))
		return 0;
	err = store->ops->create(store, oid);
	return err == -EEXIST ? 0 : err;
}

/*
 * Make the components of @oc that the first @end bytes reach and the
 * first @made did not (but those @skip names, when not NULL), then raise
 * @oc->made to @end. Synchronous, the creates in parallel, without
 * filesystem reclaim (the caller may be a writeback). Returns 0
 * (components on failed stores skipped: their rebuild makes them) or a
 * negative errno (nothing known made then).
 */
static int ore_make_comps(const struct ore_layout *layout,
			  struct ore_components *oc, u64 made, u64 end,
			  const unsigned long *skip)
{
	struct ore_reach_arg ra = {
		.layout = layout,
		.made = made,
		.end = end,
		.skip = skip,
	};
	struct ore_io_state *mios;
	unsigned int nofs;
	int err;

	err = ore_get_io_state(layout, oc, &mios);
	if (err)
		return err;
	nofs = memalloc_nofs_save();
	err = ore_run_on_comps(mios, ore_op_make, &ra, 0, true);
	memalloc_nofs_restore(nofs);
	if (!err)
		err = ore_made_error(mios);
	ore_put_io_state(mios);
	if (err)
		return err;
	ore_raise_made(oc, end);
	return 0;
}

/*
 * ore_make_reach - make the components that the first @end bytes of
 * @ios's object reach, for a write starting at @end beyond the extent
 * known made (sized components, a hole before the write): the components
 * of the hole are not written, yet the size will reach them. Returns 0 or
 * a negative errno, as ore_make_comps().
 */
int ore_make_reach(struct ore_io_state *ios, u64 end)
{
	u64 made = max(ore_priv(ios)->made, READ_ONCE(ios->oc->made));
	int err;

	err = ore_make_comps(ios->layout, ios->oc, made, end, NULL);
	if (!err)
		ore_priv(ios)->made = max(ore_priv(ios)->made, end);
	return err;
}

/**
 * ore_make() - make the components that a size reaches
 * @layout: the object's layout
 * @oc: the object's components, sized (&ore_components.sized)
 * @size: the object's size
 *
 * Creates, empty, every component that the first @size bytes reach and
 * @oc->made does not (one that exists stays as it is), then raises
 * @oc->made to @size: for a user that learns a size the components may
 * not have followed (exofs: after a crash, an inode's recorded size whose
 * writes were cut). Synchronous.
 *
 * Return: 0 (possibly degraded) or a negative errno; -EINVAL when @oc's
 * components are not sized.
 */
int ore_make(const struct ore_layout *layout, struct ore_components *oc,
	     u64 size)
{
	return ore_make_except(layout, oc, size, NULL);
}
EXPORT_SYMBOL_GPL(ore_make);

/**
 * ore_make_except() - ore_make(), leaving some components as they are
 * @layout: the object's layout
 * @oc: the object's components, sized (&ore_components.sized)
 * @size: the object's size
 * @skip: a bitmap of @layout->num_comps bits: components not to make
 *	(exofs: missing ones it knows lost, which must stay missing so that
 *	they are read from the redundancy), or NULL
 *
 * As ore_make(); @oc->made is raised to @size all the same, so a skipped
 * component that @size reaches and that is missing counts as lost.
 *
 * Return: as ore_make().
 */
int ore_make_except(const struct ore_layout *layout,
		    struct ore_components *oc, u64 size,
		    const unsigned long *skip)
{
	u64 made;

	if (!oc->sized || oc->lazy)
		return -EINVAL;
	made = READ_ONCE(oc->made);
	return size > made ? ore_make_comps(layout, oc, made, size, skip) : 0;
}
EXPORT_SYMBOL_GPL(ore_make_except);

static int ore_op_truncate(struct ore_store *store, u32 comp, u64 oid,
			   void *arg)
{
	struct ore_reach_arg *ra = arg;
	u64 want = ore_layout_obj_size(ra->layout, comp, ra->end);
	u64 len;
	int err;

	/*
	 * Sized components not known made: the truncate makes the ones the
	 * new size reaches and cuts the others only where they exist.
	 */
	if (ra->sized && !ra->lazy &&
	    !ore_layout_obj_size(ra->layout, comp, ra->made)) {
		if (!want) {
			err = store->ops->length(store, oid, &len);
			if (err == -ENOENT || (!err && !len))
				return 0;
			if (err)
				return err;
		}
		return store->ops->truncate(store, oid, want);
	}
	/*
	 * A lost component is not made again here (it would read as zeros
	 * where its data was): it stays a failed component. On a rebuilding
	 * store with nothing rebuilt yet, it is only not made yet.
	 */
	if (!ra->lazy && !ore_store_unbuilt(store, 0)) {
		err = store->ops->length(store, oid, &len);
		if (err)
			return err;
	}
	return store->ops->truncate(store, oid, want);
}

/*
 * Zero [size, end of its stripe) through a normal write, so the stripe's
 * parity stops covering the bytes the truncation drops.
 */
static int ore_truncate_zero_tail(const struct ore_layout *layout,
				  struct ore_components *oc, u64 size)
{
	struct ore_striping_info si;
	struct ore_io_state *ios = NULL;
	struct page **pages = NULL;
	u64 start = round_down(size, PAGE_SIZE), end;
	unsigned int n, i;
	int err;

	ore_calc_stripe_info(layout, size, &si);
	if (si.first_stripe_start == size)
		return 0;
	end = si.first_stripe_start + layout->stripe_length;
	n = (end - start) / PAGE_SIZE;
	pages = kcalloc(n, sizeof(*pages), GFP_NOFS);
	if (!pages)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		pages[i] = ZERO_PAGE(0);
	if (size != start) {
		pages[0] = alloc_page(GFP_NOFS);
		if (!pages[0]) {
			err = -ENOMEM;
			goto out;
		}
		err = ore_get_rw_state(layout, oc, true, start, PAGE_SIZE, &ios);
		if (err)
			goto out;
		ios->pages = pages;
		ios->nr_pages = 1;
		err = ore_read(ios);
		ore_put_io_state(ios);
		if (err)
			goto out;
		memzero_page(pages[0], size - start, PAGE_SIZE - (size - start));
	}
	err = ore_get_rw_state(layout, oc, false, start, end - start, &ios);
	if (err)
		goto out;
	ios->pages = pages;
	ios->nr_pages = n;
	err = ore_write(ios);
	ore_put_io_state(ios);
out:
	if (size != start && pages[0] && pages[0] != ZERO_PAGE(0))
		__free_page(pages[0]);
	kfree(pages);
	return err;
}

/**
 * ore_truncate() - set the logical length of an object
 * @layout: the object's layout
 * @oc: the object's components
 * @size: the new logical length in bytes
 *
 * Each component object gets the length ore_layout_obj_size() gives. For
 * parity layouts the rest of the stripe holding @size is first written
 * with zeros, so parity stays true. The caller keeps other writes of that
 * stripe out while this runs. With sized components
 * (&ore_components.sized) those that @size reaches are made, the others
 * cut where they exist, and @oc->made is raised to @size. Synchronous.
 *
 * Return: 0 (possibly degraded) or a negative errno.
 */
int ore_truncate(const struct ore_layout *layout, struct ore_components *oc,
		 u64 size)
{
	struct ore_reach_arg ra = {
		.layout = layout,
		.end = size,
		.lazy = oc->lazy,
		.sized = oc->sized,
	};
	struct ore_io_state *ios;
	int err;

	if (layout->parity) {
		err = ore_truncate_zero_tail(layout, oc, size);
		if (err)
			return err;
	}
	err = ore_get_io_state(layout, oc, &ios);
	if (err)
		return err;
	ra.made = ore_priv(ios)->made;
	err = ore_run_on_comps(ios, ore_op_truncate, &ra, 0, false);
	/* a component a store in service refused may be missing */
	if (!err && oc->sized && !ore_made_error(ios))
		ore_raise_made(oc, size);
	ore_put_io_state(ios);
	return err;
}
EXPORT_SYMBOL_GPL(ore_truncate);

/**
 * ore_flush() - make everything written to an object stable
 * @layout: the object's layout
 * @oc: the object's components (@oc->oid 0 flushes the whole stores)
 *
 * Return: 0 (possibly degraded) or a negative errno.
 */
int ore_flush(const struct ore_layout *layout, struct ore_components *oc)
{
	struct ore_io_state *ios;
	int err;

	err = ore_get_io_state(layout, oc, &ios);
	if (err)
		return err;
	err = ore_run_on_comps(ios, ore_op_flush, NULL, 0, false);
	ore_put_io_state(ios);
	return err;
}
EXPORT_SYMBOL_GPL(ore_flush);

/* Logical offset of the last byte of @obj_len bytes on data component. */
static bool ore_comp_last_byte(const struct ore_layout *layout, u32 comp,
			       u64 obj_len, u64 *loff)
{
	u32 su = layout->stripe_unit;
	u32 group = comp / layout->mirrors_p1 / layout->group_width;
	u32 pos = comp / layout->mirrors_p1 % layout->group_width;
	u64 row = (obj_len - 1) / su;
	u64 M = row / layout->group_depth;
	u64 N = row % layout->group_depth;
	u32 col = ore_layout_pos_col(layout, row, pos);

	if (col >= layout->data_width)
		return false;
	*loff = M * layout->super_stripe + group * layout->group_length +
		N * layout->stripe_length + (u64)col * su + (obj_len - 1) % su;
	return true;
}

/**
 * ore_length() - logical length of an object, from its components
 * @layout: the object's layout
 * @oc: the object's components
 * @size: receives the length
 *
 * Derived from the lengths of the components on in-sync stores (the
 * extent of the furthest data byte stored); a component that does not
 * answer is passed over, so with too many of them the length may come out
 * short. Callers that keep the length themselves (exofs) need not call
 * this.
 *
 * Return: 0.
 */
int ore_length(const struct ore_layout *layout, struct ore_components *oc,
	       u64 *size)
{
	u32 comp;

	*size = 0;
	for (comp = 0; comp < layout->num_comps; comp++) {
		struct ore_store *store = ore_comp_store(oc, comp);
		u64 len, last;

		/* only a store whose objects are all valid knows their end */
		if (!ore_store_readable(store, 0, U64_MAX) ||
		    store->ops->length(store, oc->oid, &len))
			continue;
		if (len && ore_comp_last_byte(layout, comp, len, &last))
			*size = max(*size, last + 1);
	}
	return 0;
}
EXPORT_SYMBOL_GPL(ore_length);
