// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/block/oreblkN/ore/: the array's state.
 *
 *   layout               "raid5 stripe_unit=65536 group_width=4
 *                         group_depth=1 group_count=1 mirrors_p1=1"
 *   uuid                 array uuid
 *   array_size           logical bytes
 *   events               events counter of the superblocks in service
 *   degraded             members out of service (0: not degraded)
 *   members              one line per member: "INDEX STATE ERRORS PATH"
 *                        (STATE: active, faulty, missing, rebuilding,
 *                        replacing; a replacing member's line ends with
 *                        the new device's path)
 *   recovery_start       one line per member: "INDEX SECTORS": below
 *                        SECTORS of its data range a rebuilding member
 *                        (and the new device of a replacing one) is
 *                        valid; "INDEX none" for the others (md's
 *                        per-device recovery_start)
 *   sync_action          (rw) what the sync thread does: "idle",
 *                        "recover", "resync", "check", "repair"; write
 *                        "check", "repair" or "resync" to start one,
 *                        "idle" to stop it
 *   sync_completed       "DONE / TOTAL" sectors (of the member's data
 *                        range for recover, of the array else), or
 *                        "none" (md's format)
 *   sync_speed           KiB/s over the last 3 to 6 s, "none" when idle
 *   sync_speed_min       (rw) KiB/s while user I/O is active; 0: no
 *                        yielding (default 1000)
 *   sync_speed_max       (rw) rate limit otherwise, KiB/s; 0: none
 *   mismatch_cnt         sectors found to disagree by the last resync,
 *                        check or repair (pages * 8)
 *   stripe_cache_size    (rw) stripe cache entries allowed, 0 .. 65536;
 *                        an entry is one page per data column
 *   stripe_cache_active  entries allocated
 *   stripe_cache_hits    read-4-write pages found uptodate in the cache
 *   stripe_cache_misses  read-4-write pages that had to be read
 *   stripe_lock_waits    stripe lock acquisitions that waited
 *   checksums            "xxh64" or "crc32c" (data checksums on the
 *                        members), or "none"
 *   checksum_errors      member reads that failed their checksum, over the
 *                        members in service ("0 0 3 0": by member index)
 *                        after the total: "TOTAL M0 M1 ..."
 *   checksum_repairs     of those, rewritten from the redundancy: "TOTAL
 *                        M0 M1 ..."
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/blkdev.h>
#include <linux/device.h>
#include <linux/sysfs.h>

#include "internal.h"

static struct oreblk_array *oreblk_dev_array(struct device *dev)
{
	return dev_to_disk(dev)->private_data;
}

static ssize_t layout_show(struct device *dev, struct device_attribute *attr,
			   char *buf)
{
	const struct ore_layout *l = &oreblk_dev_array(dev)->layout;

	return sysfs_emit(buf, "%s stripe_unit=%u group_width=%u group_depth=%u group_count=%u mirrors_p1=%u\n",
			  ore_layout_raid_name(l->raid_algorithm, l->mirrors_p1),
			  l->stripe_unit, l->group_width, l->group_depth,
			  l->group_count, l->mirrors_p1);
}
static DEVICE_ATTR_RO(layout);

static ssize_t uuid_show(struct device *dev, struct device_attribute *attr,
			 char *buf)
{
	return sysfs_emit(buf, "%pU\n", oreblk_dev_array(dev)->uuid);
}
static DEVICE_ATTR_RO(uuid);

static ssize_t array_size_show(struct device *dev,
			       struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%llu\n", oreblk_dev_array(dev)->array_size);
}
static DEVICE_ATTR_RO(array_size);

static ssize_t events_show(struct device *dev, struct device_attribute *attr,
			   char *buf)
{
	struct oreblk_array *arr = oreblk_dev_array(dev);
	u64 events;

	mutex_lock(&arr->sb_mutex);
	events = arr->events;
	mutex_unlock(&arr->sb_mutex);
	return sysfs_emit(buf, "%llu\n", events);
}
static DEVICE_ATTR_RO(events);

static ssize_t degraded_show(struct device *dev,
			     struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%d\n",
			  atomic_read(&oreblk_dev_array(dev)->nr_failed));
}
static DEVICE_ATTR_RO(degraded);

static ssize_t members_show(struct device *dev, struct device_attribute *attr,
			    char *buf)
{
	struct oreblk_array *arr = oreblk_dev_array(dev);
	struct oreblk_recovery *rc;
	int len = 0, idx;
	u32 i;

	/* the replacing member's line names the new device after its own */
	mutex_lock(&arr->sync_mutex);
	idx = srcu_read_lock(&arr->store_srcu);
	rc = arr->recovery;
	for (i = 0; i < arr->nr_members; i++) {
		const struct oreblk_member *m = &arr->members[i];
		const struct ore_store *store = READ_ONCE(m->store);
		const char *state = "active";

		if (test_bit(OREBLK_M_MISSING, &m->flags))
			state = "missing";
		else if (test_bit(OREBLK_M_FAULTY, &m->flags))
			state = "faulty";
		else if (test_bit(OREBLK_M_REBUILDING, &m->flags))
			state = "rebuilding";
		else if (test_bit(OREBLK_M_REPLACING, &m->flags))
			state = "replacing";
		len += sysfs_emit_at(buf, len, "%u %s %d %s", i, state,
				     atomic_read(&store->nr_errors),
				     m->path[0] ? m->path : "-");
		if (test_bit(OREBLK_M_REPLACING, &m->flags) && rc &&
		    rc->member == i)
			len += sysfs_emit_at(buf, len, " %s", rc->new_path);
		len += sysfs_emit_at(buf, len, "\n");
	}
	srcu_read_unlock(&arr->store_srcu, idx);
	mutex_unlock(&arr->sync_mutex);
	return len;
}
static DEVICE_ATTR_RO(members);

static ssize_t sync_action_show(struct device *dev,
				struct device_attribute *attr, char *buf)
{
	struct oreblk_array *arr = oreblk_dev_array(dev);

	return sysfs_emit(buf, "%s\n",
			  oreblk_sync_action_name(READ_ONCE(arr->sync_action)));
}

/* "check", "repair", "resync": start one; "idle": stop what runs. */
static ssize_t sync_action_store(struct device *dev,
				 struct device_attribute *attr,
				 const char *buf, size_t count)
{
	static const enum oreblk_sync_action actions[] = {
		OREBLK_SYNC_IDLE, OREBLK_SYNC_CHECK, OREBLK_SYNC_REPAIR,
		OREBLK_SYNC_RESYNC,
	};
	struct oreblk_array *arr = oreblk_dev_array(dev);
	unsigned int i;
	int err;

	for (i = 0; i < ARRAY_SIZE(actions); i++)
		if (sysfs_streq(buf, oreblk_sync_action_name(actions[i])))
			break;
	if (i == ARRAY_SIZE(actions)) {
		pr_err("oreblk%d: sync_action takes check, repair, resync or idle (recovery starts with oreblk add)\n",
		       arr->index);
		return -EINVAL;
	}
	err = oreblk_sync_request(arr, actions[i]);
	return err ? err : count;
}
static DEVICE_ATTR_RW(sync_action);

static ssize_t recovery_start_show(struct device *dev,
				   struct device_attribute *attr, char *buf)
{
	struct oreblk_array *arr = oreblk_dev_array(dev);
	struct oreblk_recovery *rc;
	int len = 0, idx;
	u32 i;

	mutex_lock(&arr->sync_mutex);
	idx = srcu_read_lock(&arr->store_srcu);
	rc = arr->recovery;
	for (i = 0; i < arr->nr_members; i++) {
		const struct oreblk_member *m = &arr->members[i];
		const struct ore_store *store = READ_ONCE(m->store);

		if (test_bit(OREBLK_M_REBUILDING, &m->flags))
			len += sysfs_emit_at(buf, len, "%u %llu\n", i,
					     READ_ONCE(store->recovery_offset) >>
					     SECTOR_SHIFT);
		else if (test_bit(OREBLK_M_REPLACING, &m->flags) && rc &&
			 rc->member == i)
			len += sysfs_emit_at(buf, len, "%u %llu\n", i,
					     READ_ONCE(arr->sync_done) >>
					     SECTOR_SHIFT);
		else
			len += sysfs_emit_at(buf, len, "%u none\n", i);
	}
	srcu_read_unlock(&arr->store_srcu, idx);
	mutex_unlock(&arr->sync_mutex);
	return len;
}
static DEVICE_ATTR_RO(recovery_start);

static ssize_t sync_completed_show(struct device *dev,
				   struct device_attribute *attr, char *buf)
{
	struct oreblk_array *arr = oreblk_dev_array(dev);

	if (READ_ONCE(arr->sync_action) == OREBLK_SYNC_IDLE)
		return sysfs_emit(buf, "none\n");
	return sysfs_emit(buf, "%llu / %llu\n",
			  READ_ONCE(arr->sync_done) >> SECTOR_SHIFT,
			  READ_ONCE(arr->sync_total) >> SECTOR_SHIFT);
}
static DEVICE_ATTR_RO(sync_completed);

static ssize_t sync_speed_show(struct device *dev,
			       struct device_attribute *attr, char *buf)
{
	struct oreblk_array *arr = oreblk_dev_array(dev);
	unsigned long ms;
	u64 done;

	if (READ_ONCE(arr->sync_action) == OREBLK_SYNC_IDLE)
		return sysfs_emit(buf, "none\n");
	ms = jiffies_to_msecs(jiffies - READ_ONCE(arr->sync_mark[0].time));
	done = READ_ONCE(arr->sync_done) - READ_ONCE(arr->sync_mark[0].done);
	return sysfs_emit(buf, "%llu\n",
			  ms ? div64_u64(done * 1000 / 1024, ms) : 0);
}
static DEVICE_ATTR_RO(sync_speed);

static ssize_t mismatch_cnt_show(struct device *dev,
				 struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%llu\n",
			  READ_ONCE(oreblk_dev_array(dev)->mismatches) <<
			  (PAGE_SHIFT - SECTOR_SHIFT));
}
static DEVICE_ATTR_RO(mismatch_cnt);

/*
 * A read-write attribute that is one unsigned int field of the array, read
 * and written whole (no other state changes with it).
 */
#define OREBLK_UINT_ATTR_RW(_name)					\
static ssize_t _name##_show(struct device *dev,				\
			    struct device_attribute *attr, char *buf)	\
{									\
	return sysfs_emit(buf, "%u\n",					\
			  READ_ONCE(oreblk_dev_array(dev)->_name));	\
}									\
static ssize_t _name##_store(struct device *dev,			\
			     struct device_attribute *attr,		\
			     const char *buf, size_t count)		\
{									\
	unsigned int val;						\
	int err;							\
									\
	err = kstrtouint(buf, 10, &val);				\
	if (err)							\
		return err;						\
	WRITE_ONCE(oreblk_dev_array(dev)->_name, val);			\
	return count;							\
}									\
static DEVICE_ATTR_RW(_name)

OREBLK_UINT_ATTR_RW(sync_speed_min);
OREBLK_UINT_ATTR_RW(sync_speed_max);

static ssize_t stripe_cache_size_show(struct device *dev,
				      struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n",
			  READ_ONCE(oreblk_dev_array(dev)->cache.size));
}

static ssize_t stripe_cache_size_store(struct device *dev,
				       struct device_attribute *attr,
				       const char *buf, size_t count)
{
	struct oreblk_array *arr = oreblk_dev_array(dev);
	unsigned int size;
	int err;

	err = kstrtouint(buf, 10, &size);
	if (err)
		return err;
	if (size > OREBLK_CACHE_MAX) {
		pr_err("oreblk%d: stripe_cache_size %u is above the limit of %u\n",
		       arr->index, size, OREBLK_CACHE_MAX);
		return -EINVAL;
	}
	if (!arr->layout.parity && size) {
		pr_err("oreblk%d: a layout without parity has no stripe cache\n",
		       arr->index);
		return -EINVAL;
	}
	oreblk_cache_resize(&arr->cache, size);
	return count;
}
static DEVICE_ATTR_RW(stripe_cache_size);

static ssize_t stripe_cache_active_show(struct device *dev,
					struct device_attribute *attr,
					char *buf)
{
	return sysfs_emit(buf, "%lu\n",
			  oreblk_cache_active(&oreblk_dev_array(dev)->cache));
}
static DEVICE_ATTR_RO(stripe_cache_active);

static ssize_t stripe_cache_hits_show(struct device *dev,
				      struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%lld\n",
			  atomic64_read(&oreblk_dev_array(dev)->cache.hits));
}
static DEVICE_ATTR_RO(stripe_cache_hits);

static ssize_t stripe_cache_misses_show(struct device *dev,
					struct device_attribute *attr,
					char *buf)
{
	return sysfs_emit(buf, "%lld\n",
			  atomic64_read(&oreblk_dev_array(dev)->cache.misses));
}
static DEVICE_ATTR_RO(stripe_cache_misses);

static ssize_t stripe_lock_waits_show(struct device *dev,
				      struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%lld\n",
			  atomic64_read(&oreblk_dev_array(dev)->locks.waits));
}
static DEVICE_ATTR_RO(stripe_lock_waits);

static ssize_t checksums_show(struct device *dev,
			      struct device_attribute *attr, char *buf)
{
	static const char *const names[] = { "none", "crc32c", "xxh64" };
	u32 t = oreblk_dev_array(dev)->csum;

	return sysfs_emit(buf, "%s\n", t < ARRAY_SIZE(names) ? names[t] : "?");
}
static DEVICE_ATTR_RO(checksums);

/* "TOTAL M0 M1 ...": a checksum counter of each member's store */
static ssize_t oreblk_csum_counts(struct device *dev, char *buf, bool repairs)
{
	struct oreblk_array *arr = oreblk_dev_array(dev);
	int len, n[OREBLK_MAX_MEMBERS], total = 0, idx;
	u32 i;

	idx = srcu_read_lock(&arr->store_srcu);
	for (i = 0; i < arr->nr_members; i++) {
		const struct ore_store *store = READ_ONCE(arr->members[i].store);

		n[i] = atomic_read(repairs ? &store->nr_csum_repairs :
					     &store->nr_csum_errors);
		total += n[i];
	}
	srcu_read_unlock(&arr->store_srcu, idx);
	len = sysfs_emit(buf, "%d", total);
	for (i = 0; i < arr->nr_members; i++)
		len += sysfs_emit_at(buf, len, " %d", n[i]);
	return len + sysfs_emit_at(buf, len, "\n");
}

static ssize_t checksum_errors_show(struct device *dev,
				    struct device_attribute *attr, char *buf)
{
	return oreblk_csum_counts(dev, buf, false);
}
static DEVICE_ATTR_RO(checksum_errors);

static ssize_t checksum_repairs_show(struct device *dev,
				     struct device_attribute *attr, char *buf)
{
	return oreblk_csum_counts(dev, buf, true);
}
static DEVICE_ATTR_RO(checksum_repairs);

/* md's consistency_policy: "resync" or "intent" (the write-intent bitmap) */
static ssize_t consistency_policy_show(struct device *dev,
				       struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%s\n",
			  oreblk_dev_array(dev)->intent ? "intent" : "resync");
}
static DEVICE_ATTR_RO(consistency_policy);

/* "SET TOTAL REGION_BYTES WRITES": bits set now, bits, bytes per bit, bitmap writes */
static ssize_t intent_bitmap_show(struct device *dev,
				  struct device_attribute *attr, char *buf)
{
	struct oreblk_array *arr = oreblk_dev_array(dev);
	struct oreblk_intent *in = arr->intent;

	if (!in)
		return sysfs_emit(buf, "none\n");
	return sysfs_emit(buf, "%u %u %llu %lld\n",
			  oreblk_intent_dirty_regions(arr), in->nr_bits,
			  in->region, atomic64_read(&in->writes));
}
static DEVICE_ATTR_RO(intent_bitmap);

static struct attribute *oreblk_attrs[] = {
	&dev_attr_checksums.attr,
	&dev_attr_checksum_errors.attr,
	&dev_attr_checksum_repairs.attr,
	&dev_attr_consistency_policy.attr,
	&dev_attr_intent_bitmap.attr,
	&dev_attr_layout.attr,
	&dev_attr_uuid.attr,
	&dev_attr_array_size.attr,
	&dev_attr_events.attr,
	&dev_attr_degraded.attr,
	&dev_attr_members.attr,
	&dev_attr_sync_action.attr,
	&dev_attr_sync_completed.attr,
	&dev_attr_recovery_start.attr,
	&dev_attr_sync_speed.attr,
	&dev_attr_sync_speed_min.attr,
	&dev_attr_sync_speed_max.attr,
	&dev_attr_mismatch_cnt.attr,
	&dev_attr_stripe_cache_size.attr,
	&dev_attr_stripe_cache_active.attr,
	&dev_attr_stripe_cache_hits.attr,
	&dev_attr_stripe_cache_misses.attr,
	&dev_attr_stripe_lock_waits.attr,
	NULL,
};

static const struct attribute_group oreblk_attr_group = {
	.name	= "ore",
	.attrs	= oreblk_attrs,
};

const struct attribute_group *oreblk_attr_groups[] = {
	&oreblk_attr_group,
	NULL,
};
