// SPDX-License-Identifier: GPL-2.0
/*
 * ore_bench: CPU cost of the engine's parity path, and a RAID5 full-stripe
 * write over block stores. Loaded in the guest by bench/parity.sh; every
 * figure is printed as one line "ore_bench: <name> <value> MB/s".
 *
 * Parameters:
 *	bdevs=/dev/vda,/dev/vdb,...	block stores for the device figures
 *	mbytes=N			data written per device figure
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/mm.h>
#include <linux/ktime.h>
#include <linux/string.h>
#include <linux/random.h>
#include <linux/raid/xor.h>
#include <linux/raid/pq.h>
#include <linux/crc32.h>
#include <linux/crc32c.h>
#include <linux/xxhash.h>

#include <ore/ore.h>

static char *bdevs;
module_param(bdevs, charp, 0444);
MODULE_PARM_DESC(bdevs, "comma separated block devices for the device figures");
static unsigned int mbytes = 256;
module_param(mbytes, uint, 0444);
MODULE_PARM_DESC(mbytes, "MiB written per device figure");

/* A store that completes every I/O at once: the engine's CPU cost alone. */
struct null_store {
	struct ore_store store;
};

static void null_submit(struct ore_store_io *sio)
{
	sio->error = 0;
	sio->end_io(sio);
}

static int null_ok(struct ore_store *store, u64 oid)
{
	return 0;
}

static int null_truncate(struct ore_store *store, u64 oid, u64 size)
{
	return 0;
}

static int null_length(struct ore_store *store, u64 oid, u64 *len)
{
	*len = 0;
	return 0;
}

static void null_release(struct ore_store *store)
{
	kfree(container_of(store, struct null_store, store));
}

static const struct ore_store_ops null_store_ops = {
	.submit		= null_submit,
	.create		= null_ok,
	.remove		= null_ok,
	.truncate	= null_truncate,
	.length		= null_length,
	.flush		= null_ok,
	.release	= null_release,
};

static struct ore_store *null_store_new(int i)
{
	struct null_store *ns = kzalloc(sizeof(*ns), GFP_KERNEL);
	char name[16];

	if (!ns)
		return NULL;
	snprintf(name, sizeof(name), "null%d", i);
	ore_store_init(&ns->store, &null_store_ops, name);
	return &ns->store;
}

/*
 * In-flight window of asynchronous full-stripe writes. Static, not on the
 * stack: the last done() may still touch it after the waiter has woken.
 */
static struct bench_run {
	atomic_t inflight;
	wait_queue_head_t wait;
	int error;
} run;

static void bench_done(struct ore_io_state *ios, void *private)
{
	if (ios->error)
		run.error = ios->error;
	ore_put_io_state(ios);
	atomic_dec(&run.inflight);
	wake_up(&run.wait);
}

/*
 * Start one asynchronous write of @len bytes at @off from @pages, counted
 * in @run.inflight until bench_done(). Returns 0 or the error of its start.
 */
static int bench_start_write(struct ore_layout *layout,
			     struct ore_components *oc, u64 off, u64 len,
			     struct page **pages)
{
	struct ore_io_state *ios;
	int err;

	err = ore_get_rw_state(layout, oc, false, off, len, &ios);
	if (err)
		return err;
	ios->pages = pages;
	ios->nr_pages = DIV_ROUND_UP(len, PAGE_SIZE);
	ios->done = bench_done;
	ios->private = NULL;
	atomic_inc(&run.inflight);
	err = ore_write(ios);
	if (err) {
		atomic_dec(&run.inflight);
		ore_put_io_state(ios);
	}
	return err;
}

/*
 * Write @total bytes of whole stripes, @io bytes per I/O state (a multiple
 * of the stripe) from @pages (reused), with up to @depth I/O states in
 * flight; returns data MB/s.
 */
static long bench_write(struct ore_layout *layout, struct ore_components *oc,
			struct page **pages, u64 io, u64 total,
			unsigned int depth)
{
	u64 off;
	ktime_t t0;
	s64 ns;

	run.error = 0;
	atomic_set(&run.inflight, 1);
	init_waitqueue_head(&run.wait);
	t0 = ktime_get();
	for (off = 0; off < total && !run.error; off += io) {
		int err;

		wait_event(run.wait, atomic_read(&run.inflight) <= depth);
		err = bench_start_write(layout, oc, off, io, pages);
		if (err)
			return err;
	}
	atomic_dec(&run.inflight);
	wait_event(run.wait, !atomic_read(&run.inflight));
	if (run.error)
		return run.error;
	ns = ktime_to_ns(ktime_sub(ktime_get(), t0));
	return div64_s64(total * 1000, max_t(s64, ns, 1));	/* bytes/us */
}

/*
 * 4 KiB writes at random page offsets of the first @span bytes, @count of
 * them, up to @depth in flight: partial stripes, their reads and finishes
 * on null stores. Prints writes per second and the microseconds of one.
 */
static void bench_rand(const char *name, u32 raid, u32 gw, u32 su,
		       struct ore_store **stores, u32 nstores, u64 span,
		       unsigned int count, unsigned int depth)
{
	struct ore_layout layout = {
		.stripe_unit = su, .group_width = gw, .group_depth = 1,
		.group_count = 1, .mirrors_p1 = 1, .raid_algorithm = raid,
	};
	struct ore_components oc = {
		.oid = 0x10001, .numdevs = nstores, .stores = stores,
	};
	struct page *page;
	unsigned int i;
	ktime_t t0;
	s64 ns;
	int err;

	err = ore_verify_layout(nstores, &layout);
	if (err)
		return;
	page = alloc_page(GFP_KERNEL);
	if (!page)
		return;
	get_random_bytes(page_address(page), PAGE_SIZE);
	run.error = 0;
	atomic_set(&run.inflight, 1);
	init_waitqueue_head(&run.wait);
	t0 = ktime_get();
	for (i = 0; i < count && !run.error; i++) {
		u64 off = (u64)get_random_u32_below(span >> PAGE_SHIFT) <<
			  PAGE_SHIFT;

		wait_event(run.wait, atomic_read(&run.inflight) <= depth);
		err = bench_start_write(&layout, &oc, off, PAGE_SIZE, &page);
		if (err)
			break;
	}
	atomic_dec(&run.inflight);
	wait_event(run.wait, !atomic_read(&run.inflight));
	ns = ktime_to_ns(ktime_sub(ktime_get(), t0));
	if (err || run.error)
		pr_err("ore_bench: %s failed: %d\n", name, err ? err : run.error);
	else
		pr_info("ore_bench: %s %lld writes/s, %lld ns each\n", name,
			div64_s64((s64)i * NSEC_PER_SEC, max_t(s64, ns, 1)),
			div64_s64(ns, max_t(s64, i, 1)));
	__free_page(page);
}

static int bench_one(const char *name, u32 raid, u32 gw, u32 su,
		     struct ore_store **stores, u32 nstores, u64 total)
{
	struct ore_layout layout = {
		.stripe_unit = su, .group_width = gw, .group_depth = 1,
		.group_count = 1, .mirrors_p1 = 1, .raid_algorithm = raid,
	};
	struct ore_components oc = {
		.oid = 0x10000, .numdevs = nstores, .stores = stores,
	};
	struct page **pages;
	unsigned int n, i;
	u64 io;
	long mbs;
	int err;

	err = ore_verify_layout(nstores, &layout);
	if (err)
		return err;
	/* about 1 MiB per I/O state, whole stripes, as oreblk sees it */
	io = max_t(u64, 1, (1 << 20) / layout.stripe_length) *
	     layout.stripe_length;
	n = io / PAGE_SIZE;
	pages = kcalloc(n, sizeof(*pages), GFP_KERNEL);
	if (!pages)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		pages[i] = alloc_page(GFP_KERNEL);
		if (!pages[i]) {
			err = -ENOMEM;
			goto out;
		}
		get_random_bytes(page_address(pages[i]), PAGE_SIZE);
	}
	mbs = bench_write(&layout, &oc, pages, io, total, 16);
	if (mbs < 0) {
		err = mbs;
		pr_err("ore_bench: %s failed: %d\n", name, err);
	} else {
		/* bytes per microsecond is MB/s (10^6) */
		pr_info("ore_bench: %s %ld MB/s\n", name, mbs);
	}
out:
	for (i = 0; i < n; i++)
		if (pages[i])
			__free_page(pages[i]);
	kfree(pages);
	return err;
}

/*
 * The kernel's own parity calls alone, on the same geometry and footprint
 * as the engine figure (one stripe of @dw columns of @rows pages, reused):
 * P as async_xor computes it (zeroed destination, xor_blocks of every data
 * column), P+Q by gen_syndrome.
 */
static void bench_raw(const char *name, u32 parity, u32 dw, u32 rows,
		      u64 total)
{
	u32 ncol = dw + parity, npg = ncol * rows, i = 0, j;
	void **pg, *ptrs[ORE_MAX_GROUP_WIDTH];
	u64 done;
	ktime_t t0;
	s64 ns;

	pg = kcalloc(npg, sizeof(*pg), GFP_KERNEL);
	if (!pg)
		return;
	for (i = 0; i < npg; i++) {
		pg[i] = (void *)__get_free_page(GFP_KERNEL);
		if (!pg[i])
			goto out;
		get_random_bytes(pg[i], PAGE_SIZE);
	}
	t0 = ktime_get();
	for (done = 0; done < total; done += (u64)dw * rows * PAGE_SIZE) {
		for (j = 0; j < rows; j++) {
			u32 c, k;

			for (c = 0; c < ncol; c++)
				ptrs[c] = pg[c * rows + j];
			if (parity == 2) {
				raid6_call.gen_syndrome(ncol, PAGE_SIZE, ptrs);
				continue;
			}
			memset(ptrs[dw], 0, PAGE_SIZE);
			for (k = 0; k < dw; k += MAX_XOR_BLOCKS)
				xor_blocks(min_t(u32, dw - k, MAX_XOR_BLOCKS),
					   PAGE_SIZE, ptrs[dw], &ptrs[k]);
		}
	}
	ns = ktime_to_ns(ktime_sub(ktime_get(), t0));
	pr_info("ore_bench: %s %lld MB/s\n", name,
		div64_s64(total * 1000, max_t(s64, ns, 1)));
out:
	while (i--)
		free_page((unsigned long)pg[i]);
	kfree(pg);
}

/*
 * CRC-32C of 4 KiB blocks (the data checksums of the block store), @total
 * bytes over 16 pages reused: @how 0 the library (crc32c(), the crypto
 * driver picked when libcrc32c loaded), 1 lib/crc32's slice-by-8
 * (__crc32c_le), 2 xxh64 (lib/xxhash) for comparison.
 */
static void bench_crc(const char *name, int how, u64 total)
{
	void *pg[16];
	u64 done;
	u32 crc = 0;
	ktime_t t0;
	s64 ns;
	int i, n;

	for (n = 0; n < 16; n++) {
		pg[n] = (void *)__get_free_page(GFP_KERNEL);
		if (!pg[n])
			goto out;
		get_random_bytes(pg[n], PAGE_SIZE);
	}
	t0 = ktime_get();
	for (done = 0, i = 0; done < total; done += PAGE_SIZE, i = (i + 1) % 16)
		crc ^= how == 0 ? crc32c(~0U, pg[i], PAGE_SIZE) :
			how == 1 ? __crc32c_le(~0U, pg[i], PAGE_SIZE) :
			(u32)xxh64(pg[i], PAGE_SIZE, 0);
	ns = ktime_to_ns(ktime_sub(ktime_get(), t0));
	pr_info("ore_bench: %s %lld MB/s (%08x)\n", name,
		div64_s64(total * 1000, max_t(s64, ns, 1)), crc);
out:
	while (n--)
		free_page((unsigned long)pg[n]);
}

static void bench_cpu(void)
{
	struct ore_store *stores[8] = { };
	int i;

	for (i = 0; i < 8; i++) {
		stores[i] = null_store_new(i);
		if (!stores[i])
			goto out;
	}
	bench_crc("raw-crc32c-lib", 0, 256ULL << 20);
	bench_crc("raw-crc32c-sw", 1, 256ULL << 20);
	bench_crc("raw-xxh64", 2, 256ULL << 20);
	bench_raw("raw-xor-dw2", 1, 2, 1, 256ULL << 20);
	bench_raw("raw-xor-dw3", 1, 3, 16, 1024ULL << 20);
	bench_raw("raw-pq-dw6", 2, 6, 1, 512ULL << 20);
	bench_raw("raw-pq-dw4", 2, 4, 16, 1024ULL << 20);
	/*
	 * The engine's figure walks about 1 MiB of data per I/O; these walk
	 * as much (43 rows of 6 or 2 data pages), to tell the engine's own
	 * cost from that of a footprint larger than one stripe
	 */
	bench_raw("raw-pq-dw6-1m", 2, 6, 43, 512ULL << 20);
	bench_raw("raw-xor-dw2-1m", 1, 2, 128, 256ULL << 20);
	bench_one("cpu-raid5-gw3-su4k", ORE_RAID5, 3, PAGE_SIZE, stores, 8,
		  256ULL << 20);
	bench_one("cpu-raid5-gw4-su64k", ORE_RAID5, 4, 64 << 10, stores, 8,
		  1024ULL << 20);
	/* the kernel's raid6 benchmark is 8 disks of 4 KiB: 6 data */
	bench_one("cpu-raid6-gw8-su4k", ORE_RAID6, 8, PAGE_SIZE, stores, 8,
		  512ULL << 20);
	bench_one("cpu-raid6-gw6-su64k", ORE_RAID6, 6, 64 << 10, stores, 8,
		  1024ULL << 20);
	bench_one("cpu-raid0-gw4-su64k", ORE_RAID0, 4, 64 << 10, stores, 8,
		  1024ULL << 20);
	bench_rand("rand-raid5-gw4-su64k", ORE_RAID5, 4, 64 << 10, stores, 8,
		   256ULL << 20, 20000, 16);
	bench_rand("rand-raid6-gw6-su64k", ORE_RAID6, 6, 64 << 10, stores, 8,
		   256ULL << 20, 20000, 16);
out:
	for (i = 0; i < 8; i++)
		if (stores[i])
			ore_store_put(stores[i]);
}

static void bench_dev(void)
{
	struct ore_store *stores[16] = { };
	char *list, *p, *name;
	u32 n = 0, i;

	list = kstrdup(bdevs, GFP_KERNEL);
	if (!list)
		return;
	p = list;
	while ((name = strsep(&p, ",")) && n < ARRAY_SIZE(stores)) {
		stores[n] = ore_bdev_store_open(name, 0, 0, &bench_dev);
		if (IS_ERR(stores[n])) {
			pr_err("ore_bench: cannot open %s: %ld\n", name,
			       PTR_ERR(stores[n]));
			goto out;
		}
		n++;
	}
	bench_one("dev-raid0-su64k", ORE_RAID0, n, 64 << 10, stores, n,
		  (u64)mbytes << 20);
	bench_one("dev-raid5-su64k", ORE_RAID5, n, 64 << 10, stores, n,
		  (u64)mbytes << 20);
out:
	for (i = 0; i < n; i++)
		ore_store_put(stores[i]);
	kfree(list);
}

static int __init ore_bench_init(void)
{
	bench_cpu();
	if (bdevs)
		bench_dev();
	pr_info("ore_bench: done\n");
	return 0;
}

static void __exit ore_bench_exit(void)
{
}

module_init(ore_bench_init);
module_exit(ore_bench_exit);
MODULE_DESCRIPTION("ORE engine benchmarks");
MODULE_LICENSE("GPL");
