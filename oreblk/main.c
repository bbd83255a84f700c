// SPDX-License-Identifier: GPL-2.0
/*
 * oreblk: a block device over ORE, over member block devices, assembled
 * like md. This file: module init/exit and the control device
 * /dev/oreblk-control (ioctls in include/oreblk/oreblk_fs.h).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>
#include <linux/miscdevice.h>
#include <linux/fs.h>
#include <linux/idr.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/capability.h>

#include "internal.h"

struct workqueue_struct *oreblk_wq;
struct workqueue_struct *oreblk_sync_wq;
int oreblk_major;

/* Protects oreblk_arrays and the index allocation; held by every ioctl. */
static DEFINE_MUTEX(oreblk_ctl_mutex);
static LIST_HEAD(oreblk_arrays);
static DEFINE_IDA(oreblk_ida);

static struct oreblk_array *oreblk_find(u32 index)
{
	struct oreblk_array *arr;

	lockdep_assert_held(&oreblk_ctl_mutex);
	list_for_each_entry(arr, &oreblk_arrays, node)
		if (arr->index == index)
			return arr;
	return NULL;
}

static int oreblk_ctl_assemble(struct oreblk_ctl_assemble *ca)
{
	struct oreblk_array *arr;
	char *paths;
	int index, err;

	if (ca->flags & ~OREBLK_ASSEMBLE_FORCE) {
		snprintf(ca->msg, OREBLK_MSG_LEN, "unknown flags 0x%x", ca->flags);
		return -EINVAL;
	}
	if (!ca->nr_paths || ca->nr_paths > OREBLK_MAX_MEMBERS) {
		snprintf(ca->msg, OREBLK_MSG_LEN, "%u member paths: 1 to %u expected",
			 ca->nr_paths, OREBLK_MAX_MEMBERS);
		return -EINVAL;
	}
	if (!ca->paths_len || ca->paths_len > OREBLK_MAX_MEMBERS * OREBLK_PATH_LEN) {
		snprintf(ca->msg, OREBLK_MSG_LEN, "bad length %u of the member paths",
			 ca->paths_len);
		return -EINVAL;
	}
	if (ca->index != OREBLK_INDEX_ANY && ca->index > OREBLK_MAX_INDEX) {
		snprintf(ca->msg, OREBLK_MSG_LEN, "oreblk%u: numbers go up to %u",
			 ca->index, OREBLK_MAX_INDEX);
		return -EINVAL;
	}
	paths = memdup_user(u64_to_user_ptr(ca->paths), ca->paths_len);
	if (IS_ERR(paths))
		return PTR_ERR(paths);

	mutex_lock(&oreblk_ctl_mutex);
	if (ca->index == OREBLK_INDEX_ANY)
		index = ida_alloc_max(&oreblk_ida, OREBLK_MAX_INDEX, GFP_KERNEL);
	else
		index = ida_alloc_range(&oreblk_ida, ca->index, ca->index,
					GFP_KERNEL);
	if (index < 0) {
		err = index == -ENOSPC ? -EEXIST : index;
		snprintf(ca->msg, OREBLK_MSG_LEN, "oreblk%d exists already",
			 ca->index == OREBLK_INDEX_ANY ? -1 : (int)ca->index);
		goto out_unlock;
	}
	ca->index = index;
	err = oreblk_assemble(ca, paths, &arr);
	if (err)
		goto out_ida;
	err = oreblk_disk_create(arr);
	if (err) {
		snprintf(ca->msg, OREBLK_MSG_LEN, "cannot create the disk: %d", err);
		oreblk_array_free(arr);
		goto out_ida;
	}
	list_add_tail(&arr->node, &oreblk_arrays);
	/* a rebuild to go on with, or a resync; a failure leaves it undone */
	oreblk_recovery_resume(arr);
	mutex_unlock(&oreblk_ctl_mutex);
	kfree(paths);
	return 0;

out_ida:
	ida_free(&oreblk_ida, index);
out_unlock:
	mutex_unlock(&oreblk_ctl_mutex);
	kfree(paths);
	return err;
}

static void oreblk_destroy(struct oreblk_array *arr)
{
	lockdep_assert_held(&oreblk_ctl_mutex);
	list_del(&arr->node);
	oreblk_sync_close(arr);
	oreblk_disk_destroy(arr);
	flush_work(&arr->fail_work);
	oreblk_dirty_clean_stop(arr);
	pr_info("oreblk%d stopped\n", arr->index);
	ida_free(&oreblk_ida, arr->index);
	oreblk_array_free(arr);
}

static int oreblk_ctl_stop(struct oreblk_ctl_stop *cs)
{
	struct oreblk_array *arr;
	int err = 0;

	if (cs->flags) {
		snprintf(cs->msg, OREBLK_MSG_LEN, "unknown flags 0x%x", cs->flags);
		return -EINVAL;
	}
	mutex_lock(&oreblk_ctl_mutex);
	arr = oreblk_find(cs->index);
	if (!arr) {
		snprintf(cs->msg, OREBLK_MSG_LEN, "oreblk%u is not running", cs->index);
		err = -ENODEV;
		goto out;
	}
	mutex_lock(&arr->disk->open_mutex);
	if (disk_openers(arr->disk)) {
		mutex_unlock(&arr->disk->open_mutex);
		snprintf(cs->msg, OREBLK_MSG_LEN, "oreblk%u is in use (open or mounted)",
			 cs->index);
		err = -EBUSY;
		goto out;
	}
	WRITE_ONCE(arr->stopping, true);
	mutex_unlock(&arr->disk->open_mutex);
	oreblk_destroy(arr);
out:
	mutex_unlock(&oreblk_ctl_mutex);
	return err;
}

static int oreblk_ctl_detail(struct oreblk_ctl_detail *cd)
{
	struct oreblk_array *arr;
	u32 index = cd->index;
	int err = 0;

	memset(cd, 0, sizeof(*cd));
	cd->index = index;
	mutex_lock(&oreblk_ctl_mutex);
	arr = oreblk_find(index);
	if (arr)
		oreblk_fill_detail(arr, cd);
	else
		err = -ENODEV;
	mutex_unlock(&oreblk_ctl_mutex);
	return err;
}

static int oreblk_ctl_fail(struct oreblk_ctl_fail *cf)
{
	struct oreblk_array *arr;
	int err;

	mutex_lock(&oreblk_ctl_mutex);
	arr = oreblk_find(cf->index);
	if (arr) {
		err = oreblk_fail_member(arr, cf->member, cf->msg);
	} else {
		snprintf(cf->msg, OREBLK_MSG_LEN, "oreblk%u is not running", cf->index);
		err = -ENODEV;
	}
	mutex_unlock(&oreblk_ctl_mutex);
	return err;
}

static int oreblk_ctl_add(struct oreblk_ctl_add *ca)
{
	struct oreblk_array *arr;
	int err;

	mutex_lock(&oreblk_ctl_mutex);
	arr = oreblk_find(ca->index);
	if (arr) {
		err = oreblk_add_member(arr, ca);
	} else {
		snprintf(ca->msg, OREBLK_MSG_LEN, "oreblk%u is not running", ca->index);
		err = -ENODEV;
	}
	mutex_unlock(&oreblk_ctl_mutex);
	return err;
}

static int oreblk_ctl_replace(struct oreblk_ctl_replace *cr)
{
	struct oreblk_array *arr;
	int err;

	mutex_lock(&oreblk_ctl_mutex);
	arr = oreblk_find(cr->index);
	if (arr) {
		err = oreblk_replace_member(arr, cr);
	} else {
		snprintf(cr->msg, OREBLK_MSG_LEN, "oreblk%u is not running", cr->index);
		err = -ENODEV;
	}
	mutex_unlock(&oreblk_ctl_mutex);
	return err;
}

static int oreblk_ctl_remove(struct oreblk_ctl_remove *cr)
{
	struct oreblk_array *arr;
	int err;

	mutex_lock(&oreblk_ctl_mutex);
	arr = oreblk_find(cr->index);
	if (arr) {
		err = oreblk_remove_member(arr, cr->member, cr->msg);
	} else {
		snprintf(cr->msg, OREBLK_MSG_LEN, "oreblk%u is not running", cr->index);
		err = -ENODEV;
	}
	mutex_unlock(&oreblk_ctl_mutex);
	return err;
}

/*
 * Copy the argument in, run @fn, copy it back out (also on failure, for
 * the msg), return @fn's result.
 */
#define OREBLK_CTL_CALL(type, fn, argp)					\
({									\
	type *__a = memdup_user(argp, sizeof(type));			\
	int __err;							\
									\
	if (IS_ERR(__a)) {						\
		__err = PTR_ERR(__a);					\
	} else {							\
		__err = fn(__a);					\
		if (copy_to_user(argp, __a, sizeof(type)))		\
			__err = -EFAULT;				\
		kfree(__a);						\
	}								\
	__err;								\
})

static long oreblk_ctl_ioctl(struct file *file, unsigned int cmd,
			     unsigned long arg)
{
	void __user *argp = (void __user *)arg;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	switch (cmd) {
	case OREBLK_CTL_ASSEMBLE:
		return OREBLK_CTL_CALL(struct oreblk_ctl_assemble,
				       oreblk_ctl_assemble, argp);
	case OREBLK_CTL_STOP:
		return OREBLK_CTL_CALL(struct oreblk_ctl_stop, oreblk_ctl_stop,
				       argp);
	case OREBLK_CTL_DETAIL:
		return OREBLK_CTL_CALL(struct oreblk_ctl_detail,
				       oreblk_ctl_detail, argp);
	case OREBLK_CTL_FAIL:
		return OREBLK_CTL_CALL(struct oreblk_ctl_fail, oreblk_ctl_fail,
				       argp);
	case OREBLK_CTL_ADD:
		return OREBLK_CTL_CALL(struct oreblk_ctl_add, oreblk_ctl_add,
				       argp);
	case OREBLK_CTL_REPLACE:
		return OREBLK_CTL_CALL(struct oreblk_ctl_replace,
				       oreblk_ctl_replace, argp);
	case OREBLK_CTL_REMOVE:
		return OREBLK_CTL_CALL(struct oreblk_ctl_remove,
				       oreblk_ctl_remove, argp);
	}
	return -ENOTTY;
}

static const struct file_operations oreblk_ctl_fops = {
	.owner		= THIS_MODULE,
	.unlocked_ioctl	= oreblk_ctl_ioctl,
	.compat_ioctl	= compat_ptr_ioctl,
	.llseek		= noop_llseek,
};

static struct miscdevice oreblk_ctl_dev = {
	.minor	= MISC_DYNAMIC_MINOR,
	.name	= OREBLK_CONTROL_NAME,
	.fops	= &oreblk_ctl_fops,
	.mode	= 0600,
};

static int __init oreblk_init(void)
{
	int err;

	/* pieces that waited for a stripe lock, flushes, failure records */
	oreblk_wq = alloc_workqueue("oreblk", WQ_MEM_RECLAIM, 0);
	if (!oreblk_wq)
		return -ENOMEM;
	/*
	 * The steps of a rebuild (recover.c): long, parity on the CPU, their
	 * stripes locked meanwhile. A queue of their own, with its own
	 * rescuer, so that they never hold up a lock handover or a failure
	 * record behind them in oreblk_wq's pool.
	 */
	oreblk_sync_wq = alloc_workqueue("oreblk_sync",
					 WQ_UNBOUND | WQ_MEM_RECLAIM, 0);
	if (!oreblk_sync_wq) {
		destroy_workqueue(oreblk_wq);
		return -ENOMEM;
	}
	oreblk_major = register_blkdev(0, "oreblk");
	if (oreblk_major < 0) {
		err = oreblk_major;
		pr_err("cannot register the block major: %d\n", err);
		goto out_wq;
	}
	err = misc_register(&oreblk_ctl_dev);
	if (err) {
		pr_err("cannot register /dev/%s: %d\n",
		       OREBLK_CONTROL_NAME, err);
		goto out_blkdev;
	}
	pr_info("block device over ORE loaded (major %d)\n",
		oreblk_major);
	return 0;

out_blkdev:
	unregister_blkdev(oreblk_major, "oreblk");
out_wq:
	destroy_workqueue(oreblk_sync_wq);
	destroy_workqueue(oreblk_wq);
	return err;
}

static void __exit oreblk_exit(void)
{
	struct oreblk_array *arr, *next;

	misc_deregister(&oreblk_ctl_dev);
	mutex_lock(&oreblk_ctl_mutex);
	list_for_each_entry_safe(arr, next, &oreblk_arrays, node)
		oreblk_destroy(arr);
	mutex_unlock(&oreblk_ctl_mutex);
	unregister_blkdev(oreblk_major, "oreblk");
	destroy_workqueue(oreblk_sync_wq);
	destroy_workqueue(oreblk_wq);
	ida_destroy(&oreblk_ida);
}

module_init(oreblk_init);
module_exit(oreblk_exit);

MODULE_DESCRIPTION("oreblk: block device over the Objects RAID Engine");
MODULE_LICENSE("GPL");
