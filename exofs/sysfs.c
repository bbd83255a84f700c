// SPDX-License-Identifier: GPL-2.0
/*
 * exofs in sysfs: /sys/fs/exofs/<fs uuid>/ per mounted filesystem.
 *
 *   full_stripe_writes		stripes written whole by writeback (no reads)
 *   partial_stripe_writes	stripes written partially (read-4-write)
 *   full_stripe_percent	100 * full / (full + partial)
 *   r4w_pages			pages ORE asked from the page cache
 *   r4w_cache_hits		of those, served clean and uptodate
 *   r4w_reads			component reads ORE issued for read-4-write
 *   write_ios, read_ios	ORE writes and reads issued
 *   degraded_ios		I/Os that completed without a component
 *   write_errors, read_errors	I/Os that failed
 *   stores			one line per store: index, state, path
 *   layout			raid, stripe_unit, group_width, group_depth,
 *				group_count, mirrors
 *   degraded			1 when mounted with failed stores
 *   replace			write-only: "INDEX PATH" puts the replacement
 *				store PATH (mkfs.exofs --replace INDEX) in the
 *				slot of failed store INDEX and rebuilds it
 *   rebuild			the last rebuild: "idle", or "STATE store N
 *				objects DONE/TOTAL bytes B skipped S seconds
 *				T result R" (STATE running, done, stopped or
 *				failed)
 *   rebuild_speed_max		KiB/s the rebuild writes at most, 0 (the
 *				default) for no limit; writable
 *   scrub			write "check" or "repair" to scrub every
 *				object; reads "idle" or "STATE check|repair
 *				objects N bytes B mismatches M errors E
 *				seconds T result R"
 *   checksums			"xxh64", "crc32c" or "none" (data checksums)
 *   checksum_errors		component blocks found failing their checksum
 *				(by reads and scrub) on the stores of this
 *				mount
 *   checksum_repairs		of those, rewritten from the redundancy
 */
#include <linux/fs.h>
#include <linux/kobject.h>
#include <linux/sysfs.h>
#include <linux/ctype.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "exofs.h"

static struct kset *exofs_kset;

struct exofs_attr {
	struct attribute attr;
	ssize_t (*show)(struct exofs_sb_info *sbi, struct exofs_attr *a,
			char *buf);
	ssize_t (*store)(struct exofs_sb_info *sbi, const char *buf,
			 size_t len);
	size_t offset;	/* of an atomic64_t in &struct exofs_counters */
};

static ssize_t exofs_counter_show(struct exofs_sb_info *sbi,
				  struct exofs_attr *a, char *buf)
{
	atomic64_t *v = (void *)&sbi->cnt + a->offset;

	return sysfs_emit(buf, "%lld\n", atomic64_read(v));
}

static ssize_t exofs_full_percent_show(struct exofs_sb_info *sbi,
				       struct exofs_attr *a, char *buf)
{
	u64 full = atomic64_read(&sbi->cnt.full_stripes);
	u64 part = atomic64_read(&sbi->cnt.partial_stripes);

	if (!full && !part)
		return sysfs_emit(buf, "0\n");
	return sysfs_emit(buf, "%llu\n", div64_u64(100 * full, full + part));
}

static const char * const exofs_state_name[] = {
	[EXOFS_STORE_OK]	= "ok",
	[EXOFS_STORE_MISSING]	= "missing",
	[EXOFS_STORE_CORRUPT]	= "corrupt",
	[EXOFS_STORE_STALE]	= "stale",
	[EXOFS_STORE_FAILED]	= "failed",
	[EXOFS_STORE_REBUILDING] = "rebuilding",
};

static ssize_t exofs_stores_show(struct exofs_sb_info *sbi,
				 struct exofs_attr *a, char *buf)
{
	ssize_t len = 0;
	u32 i;

	for (i = 0; i < sbi->num_stores; i++) {
		int st = READ_ONCE(sbi->stores[i].state);

		len += sysfs_emit_at(buf, len, "%u %s %s\n", i,
				     exofs_state_name[st],
				     sbi->stores[i].path ? : "-");
	}
	return len;
}

static ssize_t exofs_layout_show(struct exofs_sb_info *sbi,
				 struct exofs_attr *a, char *buf)
{
	const struct ore_layout *l = &sbi->layout;

	return sysfs_emit(buf, "raid=%u stripe_unit=%u group_width=%u group_depth=%u group_count=%u mirrors=%u\n",
			  l->raid_algorithm, l->stripe_unit, l->group_width,
			  l->group_depth, l->group_count, l->mirrors_p1);
}

static ssize_t exofs_degraded_show(struct exofs_sb_info *sbi,
				   struct exofs_attr *a, char *buf)
{
	return sysfs_emit(buf, "%d\n", sbi->degraded);
}

static ssize_t exofs_rebuild_attr_show(struct exofs_sb_info *sbi,
				       struct exofs_attr *a, char *buf)
{
	return exofs_rebuild_show(sbi, buf);
}

/*
 * replace: "INDEX PATH" (one space or tab between, a newline allowed at
 * the end): PATH is a directory holding the stub that mkfs.exofs
 * --replace INDEX wrote; it takes the place of failed store INDEX.
 */
static ssize_t exofs_replace_store_attr(struct exofs_sb_info *sbi,
					const char *buf, size_t len)
{
	char *dup, *path;
	u32 idx;
	int err;

	dup = kstrndup(buf, len, GFP_KERNEL);
	if (!dup)
		return -ENOMEM;
	path = strim(dup);
	idx = 0;
	err = -EINVAL;
	if (!isdigit(*path))
		goto out;
	while (isdigit(*path) && idx < EXOFS_MAX_STORES)
		idx = idx * 10 + (*path++ - '0');
	if (!isspace(*path))
		goto out;
	path = skip_spaces(path);
	if (!*path || strchr(path, ':') || strchr(path, ','))
		goto out;
	err = exofs_replace_store(sbi, idx, path);
out:
	if (err == -EINVAL && !*path)
		pr_err("%s: replace: write \"INDEX PATH\"\n", sbi->sb->s_id);
	kfree(dup);
	return err ? err : len;
}

static ssize_t exofs_speed_show(struct exofs_sb_info *sbi,
				struct exofs_attr *a, char *buf)
{
	return sysfs_emit(buf, "%u\n", READ_ONCE(sbi->rebuild_speed_max));
}

static ssize_t exofs_speed_store(struct exofs_sb_info *sbi, const char *buf,
				 size_t len)
{
	unsigned int v;
	int err = kstrtouint(buf, 10, &v);

	if (err)
		return err;
	WRITE_ONCE(sbi->rebuild_speed_max, v);
	return len;
}

static ssize_t exofs_scrub_attr_show(struct exofs_sb_info *sbi,
				     struct exofs_attr *a, char *buf)
{
	return exofs_scrub_show(sbi, buf);
}

/* scrub: "check" or "repair" (a newline allowed at the end) */
static ssize_t exofs_scrub_attr_store(struct exofs_sb_info *sbi,
				      const char *buf, size_t len)
{
	int err;

	if (sysfs_streq(buf, "check"))
		err = exofs_scrub_start(sbi, false);
	else if (sysfs_streq(buf, "repair"))
		err = exofs_scrub_start(sbi, true);
	else
		err = -EINVAL;
	return err ? err : len;
}

static ssize_t exofs_checksums_show(struct exofs_sb_info *sbi,
				    struct exofs_attr *a, char *buf)
{
	if (!sbi->csum_on)
		return sysfs_emit(buf, "none\n");
	return sysfs_emit(buf, "%s\n", sbi->csum_type == ORE_CSUM_XXH64 ?
			  "xxh64" : "crc32c");
}

static ssize_t exofs_csum_errors_show(struct exofs_sb_info *sbi,
				      struct exofs_attr *a, char *buf)
{
	return sysfs_emit(buf, "%llu\n", exofs_csum_counts(sbi, false));
}

static ssize_t exofs_csum_repairs_show(struct exofs_sb_info *sbi,
				       struct exofs_attr *a, char *buf)
{
	return sysfs_emit(buf, "%llu\n", exofs_csum_counts(sbi, true));
}

static ssize_t exofs_intent_attr_show(struct exofs_sb_info *sbi,
				      struct exofs_attr *a, char *buf)
{
	return exofs_intent_show(sbi, buf);
}

#define EXOFS_COUNTER(_name, _field)					\
static struct exofs_attr exofs_attr_##_name = {				\
	.attr = { .name = __stringify(_name), .mode = 0444 },		\
	.show = exofs_counter_show,					\
	.offset = offsetof(struct exofs_counters, _field),		\
}

#define EXOFS_RO_ATTR(_name, _show)					\
static struct exofs_attr exofs_attr_##_name = {				\
	.attr = { .name = __stringify(_name), .mode = 0444 },		\
	.show = _show,							\
}

EXOFS_COUNTER(full_stripe_writes, full_stripes);
EXOFS_COUNTER(partial_stripe_writes, partial_stripes);
EXOFS_COUNTER(r4w_pages, r4w_pages);
EXOFS_COUNTER(r4w_cache_hits, r4w_hits);
EXOFS_COUNTER(r4w_reads, r4w_reads);
EXOFS_COUNTER(write_ios, write_ios);
EXOFS_COUNTER(read_ios, read_ios);
EXOFS_COUNTER(degraded_ios, degraded_ios);
EXOFS_COUNTER(write_errors, write_errors);
EXOFS_COUNTER(read_errors, read_errors);
EXOFS_RO_ATTR(full_stripe_percent, exofs_full_percent_show);
EXOFS_RO_ATTR(stores, exofs_stores_show);
EXOFS_RO_ATTR(layout, exofs_layout_show);
EXOFS_RO_ATTR(degraded, exofs_degraded_show);
EXOFS_RO_ATTR(rebuild, exofs_rebuild_attr_show);
EXOFS_RO_ATTR(intent, exofs_intent_attr_show);
EXOFS_RO_ATTR(checksums, exofs_checksums_show);
EXOFS_RO_ATTR(checksum_errors, exofs_csum_errors_show);
EXOFS_RO_ATTR(checksum_repairs, exofs_csum_repairs_show);

static struct exofs_attr exofs_attr_rebuild_speed_max = {
	.attr = { .name = "rebuild_speed_max", .mode = 0644 },
	.show = exofs_speed_show,
	.store = exofs_speed_store,
};

static struct exofs_attr exofs_attr_scrub = {
	.attr = { .name = "scrub", .mode = 0644 },
	.show = exofs_scrub_attr_show,
	.store = exofs_scrub_attr_store,
};

static struct exofs_attr exofs_attr_replace = {
	.attr = { .name = "replace", .mode = 0200 },
	.store = exofs_replace_store_attr,
};

static struct attribute *exofs_attrs[] = {
	&exofs_attr_full_stripe_writes.attr,
	&exofs_attr_partial_stripe_writes.attr,
	&exofs_attr_full_stripe_percent.attr,
	&exofs_attr_r4w_pages.attr,
	&exofs_attr_r4w_cache_hits.attr,
	&exofs_attr_r4w_reads.attr,
	&exofs_attr_write_ios.attr,
	&exofs_attr_read_ios.attr,
	&exofs_attr_degraded_ios.attr,
	&exofs_attr_write_errors.attr,
	&exofs_attr_read_errors.attr,
	&exofs_attr_stores.attr,
	&exofs_attr_layout.attr,
	&exofs_attr_degraded.attr,
	&exofs_attr_rebuild.attr,
	&exofs_attr_replace.attr,
	&exofs_attr_rebuild_speed_max.attr,
	&exofs_attr_scrub.attr,
	&exofs_attr_intent.attr,
	&exofs_attr_checksums.attr,
	&exofs_attr_checksum_errors.attr,
	&exofs_attr_checksum_repairs.attr,
	NULL,
};
ATTRIBUTE_GROUPS(exofs);

static ssize_t exofs_attr_show(struct kobject *kobj, struct attribute *attr,
			       char *buf)
{
	struct exofs_sb_info *sbi = container_of(kobj, struct exofs_sb_info,
						 kobj);
	struct exofs_attr *a = container_of(attr, struct exofs_attr, attr);

	if (!a->show)
		return -EIO;
	return a->show(sbi, a, buf);
}

static ssize_t exofs_attr_store(struct kobject *kobj, struct attribute *attr,
				const char *buf, size_t len)
{
	struct exofs_sb_info *sbi = container_of(kobj, struct exofs_sb_info,
						 kobj);
	struct exofs_attr *a = container_of(attr, struct exofs_attr, attr);

	if (!a->store)
		return -EIO;
	return a->store(sbi, buf, len);
}

static const struct sysfs_ops exofs_sysfs_ops = {
	.show	= exofs_attr_show,
	.store	= exofs_attr_store,
};

static void exofs_kobj_release(struct kobject *kobj)
{
	struct exofs_sb_info *sbi = container_of(kobj, struct exofs_sb_info,
						 kobj);

	complete(&sbi->kobj_unregister);
}

static const struct kobj_type exofs_ktype = {
	.default_groups	= exofs_groups,
	.sysfs_ops	= &exofs_sysfs_ops,
	.release	= exofs_kobj_release,
};

int exofs_sysfs_register(struct exofs_sb_info *sbi)
{
	int err;

	sbi->kobj.kset = exofs_kset;
	err = kobject_init_and_add(&sbi->kobj, &exofs_ktype, NULL, "%pU",
				   &sbi->uuid);
	if (err) {
		kobject_put(&sbi->kobj);
		wait_for_completion(&sbi->kobj_unregister);
		return err;
	}
	sbi->kobj_added = true;
	return 0;
}

void exofs_sysfs_unregister(struct exofs_sb_info *sbi)
{
	if (!sbi->kobj_added)
		return;
	sbi->kobj_added = false;
	kobject_del(&sbi->kobj);
	kobject_put(&sbi->kobj);
	wait_for_completion(&sbi->kobj_unregister);
}

int exofs_sysfs_init(void)
{
	exofs_kset = kset_create_and_add("exofs", NULL, fs_kobj);
	return exofs_kset ? 0 : -ENOMEM;
}

void exofs_sysfs_exit(void)
{
	kset_unregister(exofs_kset);
}
