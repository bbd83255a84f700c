// SPDX-License-Identifier: GPL-2.0
/*
 * ORE rebuild: bring the components on a store in %ORE_STORE_REBUILDING up
 * to date, whole stripes at a time. A stripe is read as any read is (the
 * rebuilding store is not read above its recovery offset, so what it holds
 * there comes from the mirrors or the parity of the other stores), its
 * parity is computed again from the data, and the result is written to the
 * rebuilding stores only: the others hold it already.
 *
 * The caller walks a component in object order (ore_layout_comp_stripes()),
 * excludes writes of the stripes it rebuilds (ORE takes no stripe lock)
 * and raises the store's recovery offset when a range is written and
 * flushed (ore_store_set_recovery_offset()). See docs/engine.md.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/kernel.h>
#include <linux/module.h>

#include "ios.h"

static int ore_rebuild_io(const struct ore_layout *layout,
			  struct ore_components *oc, bool write, u64 offset,
			  u64 length, struct page **pages,
			  ore_on_dev_error_fn on_dev_error, void *private)
{
	struct ore_io_state *ios;
	int err, ioerr;

	err = ore_get_rw_state(layout, oc, !write, offset, length, &ios);
	if (err)
		return err;
	ios->pages = pages;
	ios->nr_pages = length >> PAGE_SHIFT;
	ios->private = private;
	ore_priv(ios)->rebuild_only = write;
	ios->rewrite_bad = true;	/* the caller keeps writes out */
	err = write ? ore_write(ios) : ore_read(ios);
	/* report the failed components also when the I/O failed as a whole */
	ioerr = ore_check_io(ios, on_dev_error);
	if (!err)
		err = ioerr;
	/* writes go to the rebuilding stores only: any failure is theirs */
	if (!err && write && ios->nr_failed)
		err = -EIO;
	if (err)
		pr_err("object 0x%llx: rebuild %s of %llu bytes at %llu failed (component %d at %llu): %d\n",
		       oc->oid, write ? "write" : "read", length, offset,
		       ios->failed_comp, ios->failed_offset, err);
	ore_put_io_state(ios);
	return err;
}

/**
 * ore_rebuild() - rewrite whole stripes on the rebuilding stores
 * @layout: the object's layout, verified by ore_verify_layout(); it must
 *	have parity or mirrors
 * @oc: the object's components
 * @offset: logical offset, a multiple of the stripe length
 * @length: bytes, a multiple of the stripe length
 * @pages: @length / PAGE_SIZE pages of the caller's, used as the buffer
 * @on_dev_error: called for each component that failed (as for
 *	ore_check_io()), or NULL; ios->private is @private there
 * @private: for @on_dev_error
 *
 * Synchronous; process context. The caller keeps writes of these stripes
 * out while it runs.
 *
 * Return: 0; -EINVAL for a bad range or a layout without redundancy; the
 * read's error when the stripes cannot be read (more stores lost than the
 * layout survives); -EIO when a rebuilding store failed its write; -ENOMEM.
 */
int ore_rebuild(const struct ore_layout *layout, struct ore_components *oc,
		u64 offset, u64 length, struct page **pages,
		ore_on_dev_error_fn on_dev_error, void *private)
{
	int err;

	err = ore_check_stripes(layout, oc, offset, length, "rebuild");
	if (err)
		return err;
	err = ore_rebuild_io(layout, oc, false, offset, length, pages,
			     on_dev_error, private);
	if (!err)
		err = ore_rebuild_io(layout, oc, true, offset, length, pages,
				     on_dev_error, private);
	return err;
}
EXPORT_SYMBOL_GPL(ore_rebuild);
