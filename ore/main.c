// SPDX-License-Identifier: GPL-2.0
/*
 * ORE - the Objects RAID Engine: module init and exit.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/workqueue.h>

#include "internal.h"

struct workqueue_struct *ore_wq;
/* Component operations of ore_create() run at once; they wait for nothing of ORE. */
struct workqueue_struct *ore_obj_wq;
/* Block store requests that wait for a checksum page (store_bdev.c). */
struct workqueue_struct *ore_csum_wq;

/* Engine-wide counters, read by the users' sysfs files and by the tests. */
struct ore_stats ore_stats;
EXPORT_SYMBOL_GPL(ore_stats);

/*
 * RAID6 partial stripes may use read-modify-write (md's rmw_level 1);
 * raid6_rmw=0 makes them always reconstruct-write (md's rmw_level 0), for
 * comparisons.
 */
bool ore_raid6_rmw = true;
module_param_named(raid6_rmw, ore_raid6_rmw, bool, 0644);
MODULE_PARM_DESC(raid6_rmw, "RAID6 partial stripes may read-modify-write (default 1)");

static int __init ore_init(void)
{
	/*
	 * Read-4-write and degraded reads wait for component reads from this
	 * queue; it runs under writeback, so it must make progress when
	 * memory is short.
	 */
	int err = ore_pages_init();

	if (err)
		return err;
	ore_wq = alloc_workqueue("ore", WQ_UNBOUND | WQ_MEM_RECLAIM, 0);
	if (!ore_wq) {
		ore_pages_exit();
		return -ENOMEM;
	}
	ore_obj_wq = alloc_workqueue("ore_obj", WQ_UNBOUND | WQ_MEM_RECLAIM, 0);
	ore_csum_wq = alloc_workqueue("ore_csum", WQ_UNBOUND | WQ_MEM_RECLAIM, 0);
	if (!ore_obj_wq || !ore_csum_wq) {
		if (ore_obj_wq)
			destroy_workqueue(ore_obj_wq);
		if (ore_csum_wq)
			destroy_workqueue(ore_csum_wq);
		destroy_workqueue(ore_wq);
		ore_pages_exit();
		return -ENOMEM;
	}
	ore_write_finish_init();
	pr_info("Objects RAID Engine loaded (RAID0/1/4/5/6)\n");
	return 0;
}

static void __exit ore_exit(void)
{
	long in_flight;

	destroy_workqueue(ore_csum_wq);
	destroy_workqueue(ore_obj_wq);
	destroy_workqueue(ore_wq);
	ore_pages_exit();
	if (atomic64_read(&ore_stats.ios_live))
		pr_err("%lld I/O states leaked\n",
		       atomic64_read(&ore_stats.ios_live));
	if (atomic64_read(&ore_stats.stores_live))
		pr_err("%lld stores leaked\n",
		       atomic64_read(&ore_stats.stores_live));
	in_flight = ore_partial_writes_in_flight();
	if (in_flight)
		pr_err("%ld partial-stripe writes leaked in the finish queues\n",
		       in_flight);
}

module_init(ore_init);
module_exit(ore_exit);

MODULE_DESCRIPTION("ORE: Objects RAID Engine (RFC 5664 layouts)");
MODULE_LICENSE("GPL");
