// SPDX-License-Identifier: GPL-2.0
/*
 * oreblk_test.ko: in-kernel tests of an oreblk array with bios userspace
 * cannot make: memory that is not made of whole pages. Loading the module
 * runs the cases against the array named by dev= and prints KTAP in the
 * kernel log, each line prefixed by "oreblk_test: " (tests/guest/lib.sh
 * ktap_module); unloading it is clean whatever the results.
 *
 * Parameters:
 *   dev=/dev/oreblk0   the array (its data at offset= is overwritten)
 *   offset=N           byte offset of the 16 KiB used, 4 KiB aligned
 */
#define pr_fmt(fmt) "oreblk_test: " fmt

#include <linux/module.h>
#include <linux/kernel.h>
#include <linux/blkdev.h>
#include <linux/bio.h>
#include <linux/completion.h>
#include <linux/file.h>
#include <linux/mm.h>
#include <linux/random.h>

static char *dev;
module_param(dev, charp, 0444);
MODULE_PARM_DESC(dev, "the oreblk array (data at offset= is overwritten)");
static ulong offset;
module_param(offset, ulong, 0444);
MODULE_PARM_DESC(offset, "byte offset of the 16 KiB the cases use");

#define OBT_LEN		(2 * PAGE_SIZE)	/* bytes of each I/O */
#define OBT_ORDER	2		/* buffers: 4 contiguous pages */

struct obt_wait {
	struct completion done;
	blk_status_t status;
};

static void obt_end_io(struct bio *bio)
{
	struct obt_wait *w = bio->bi_private;

	w->status = bio->bi_status;
	complete(&w->done);
}

/*
 * One bio of one bvec: @len bytes at byte @off of the contiguous pages
 * from @page (a multi-page bvec when it crosses a page).
 */
static int obt_rw(struct block_device *bdev, blk_opf_t op, u64 pos,
		  struct page *page, u32 len, u32 off)
{
	struct obt_wait w;
	struct bio *bio;

	bio = bio_alloc(bdev, 1, op, GFP_KERNEL);
	bio->bi_iter.bi_sector = pos >> SECTOR_SHIFT;
	if (bio_add_page(bio, page, len, off) != len) {
		bio_put(bio);
		return -EINVAL;
	}
	init_completion(&w.done);
	bio->bi_end_io = obt_end_io;
	bio->bi_private = &w;
	submit_bio(bio);
	wait_for_completion(&w.done);
	bio_put(bio);
	return blk_status_to_errno(w.status);
}

static int obt_result(unsigned int n, const char *name, const char *why)
{
	if (why)
		pr_info("# %s: %s\n", name, why);
	pr_info("%sok %u %s\n", why ? "not " : "", n, name);
	return !!why;
}

/* First differing byte of @a and @b, or -1. */
static long obt_cmp(const u8 *a, const u8 *b, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (a[i] != b[i])
			return i;
	return -1;
}

/*
 * Write (or read) 8 KiB from (into) a buffer at byte @boff of 4 pages, a
 * bvec crossing two page boundaries; the other direction is done with
 * whole pages, and the data compared.
 */
static const char *obt_unaligned(struct block_device *bdev, bool write,
				 u32 boff, struct page *buf, struct page *ref)
{
	static char why[128];
	u8 *b = page_address(buf), *r = page_address(ref);
	long bad;
	int err;

	get_random_bytes(r, OBT_LEN);
	memset(b, 0x5a, PAGE_SIZE << OBT_ORDER);
	if (write) {
		memcpy(b + boff, r, OBT_LEN);
		err = obt_rw(bdev, REQ_OP_WRITE | REQ_FUA, offset, buf, OBT_LEN,
			     boff);
		if (err)
			goto io;
		memset(b, 0, PAGE_SIZE << OBT_ORDER);
		err = obt_rw(bdev, REQ_OP_READ, offset, buf, OBT_LEN, 0);
		if (err)
			goto io;
		bad = obt_cmp(b, r, OBT_LEN);
	} else {
		memcpy(b, r, OBT_LEN);
		err = obt_rw(bdev, REQ_OP_WRITE | REQ_FUA, offset, buf, OBT_LEN,
			     0);
		if (err)
			goto io;
		memset(b, 0x5a, PAGE_SIZE << OBT_ORDER);
		err = obt_rw(bdev, REQ_OP_READ, offset, buf, OBT_LEN, boff);
		if (err)
			goto io;
		bad = obt_cmp(b + boff, r, OBT_LEN);
		if (bad < 0 && (memchr_inv(b, 0x5a, boff) ||
				memchr_inv(b + boff + OBT_LEN, 0x5a,
					   (PAGE_SIZE << OBT_ORDER) - boff - OBT_LEN)))
			return "the read wrote outside its buffer";
	}
	if (bad < 0)
		return NULL;
	snprintf(why, sizeof(why), "data differs at byte %ld of %lu", bad,
		 OBT_LEN);
	return why;
io:
	snprintf(why, sizeof(why), "I/O failed: %d", err);
	return why;
}

static int __init oreblk_test_init(void)
{
	static const u32 offs[] = { 512, 3584 };
	struct page *buf = NULL, *ref = NULL;
	struct file *f;
	unsigned int n = 0, failed = 0, i;
	char name[80];

	pr_info("KTAP version 1\n");
	pr_info("1..%zu\n", 2 * ARRAY_SIZE(offs));
	if (!dev || offset % PAGE_SIZE) {
		pr_info("# dev= and a 4 KiB aligned offset= are needed\n");
		goto out;
	}
	f = bdev_file_open_by_path(dev, BLK_OPEN_READ | BLK_OPEN_WRITE, NULL,
				   NULL);
	if (IS_ERR(f)) {
		pr_info("# %s: cannot open: %ld\n", dev, PTR_ERR(f));
		goto out;
	}
	buf = alloc_pages(GFP_KERNEL, OBT_ORDER);
	ref = alloc_pages(GFP_KERNEL, 1);
	if (!buf || !ref) {
		pr_info("# no memory\n");
		goto close;
	}
	for (i = 0; i < ARRAY_SIZE(offs); i++) {
		snprintf(name, sizeof(name),
			 "write from a bvec at byte %u crossing two pages", offs[i]);
		failed += obt_result(++n, name,
				     obt_unaligned(file_bdev(f), true, offs[i],
						   buf, ref));
		snprintf(name, sizeof(name),
			 "read into a bvec at byte %u crossing two pages", offs[i]);
		failed += obt_result(++n, name,
				     obt_unaligned(file_bdev(f), false, offs[i],
						   buf, ref));
	}
close:
	if (buf)
		__free_pages(buf, OBT_ORDER);
	if (ref)
		__free_pages(ref, 1);
	bdev_fput(f);
out:
	pr_info("# %u results, %u failed\n", n, failed);
	return 0;
}

static void __exit oreblk_test_exit(void)
{
}

module_init(oreblk_test_init);
module_exit(oreblk_test_exit);

MODULE_DESCRIPTION("oreblk in-kernel tests: bios of unaligned memory");
MODULE_LICENSE("GPL");
