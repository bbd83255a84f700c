// SPDX-License-Identifier: GPL-2.0
/*
 * fsck.exofs - consistency check of an exofs over file stores.
 *
 *   fsck.exofs [-v] [--strict] [--no-data] [--repair] STORE_DIR|missing...
 *
 * The stores are given as for mount -o stores= (device-table order; the
 * word "missing" or an empty argument for a store that is not there). It
 * checks, against docs/exofs-format.md:
 *  - every superblock (magic, checksum, layout, device table), that they
 *    agree, that each store sits at its position and that none is stale;
 *  - the inode bitmap and every inode record (checksum, i_ino, mode,
 *    flags, sizes), bitmap bits against records;
 *  - every directory reachable from the root: chunks, entries, "." and
 *    "..", file types, one parent per directory, link counts;
 *  - component files: present (but the holes of lazy components and,
 *    with EXOFS_FEATURE_RO_COMPAT_SIZED, those an inode's size does not
 *    reach), regular, no longer than the object's size allows, no leaked
 *    objects;
 *  - with data checksums (EXOFS_FEATURE_RO_COMPAT_CSUM), every block of
 *    every component of the inode table, bitmap, directories and (unless
 *    --no-data) file data against its entry: in the head (the extended
 *    attribute "user.ore.csum" of the component file, blocks 0 to 15)
 *    when the file has one, else and past it in the side file
 *    "<oid>.csum"; heads well formed; side files: regular, of an
 *    existing striped object; heads and side files only on a filesystem
 *    with checksums, never of a per-store object;
 *  - parity and mirrors of the inode table, bitmap, directories and (unless
 *    --no-data) all file data.
 * Nothing is written, except with --repair: then a block that does not
 * match its checksum is rebuilt from the redundancy (only when what is
 * rebuilt matches the checksum), a corrupt head is restamped from the
 * data of its blocks, and parity and mirrors that disagree
 * with the data are rewritten (as the kernel's scrub repair: mirror
 * copies from the first readable copy, P and Q from the data, their
 * checksums with them); both are reported as "REPAIRED:" lines. Nothing
 * else is repaired. Problems are printed as "ERROR:" and "WARNING:" lines;
 * warnings are what a crash may legitimately leave (leaked inodes and
 * objects, stale counters) and count as errors with --strict. What the
 * next mount repairs after a crash (EXOFS_FEATURE_RO_COMPAT_INTENT:
 * parity, mirrors and checksums of the regions the intent record names,
 * the components of their objects whose create the crash lost, which the
 * redundancy says held nothing outside them) is printed as "NOTE:" lines,
 * never an error; --repair does what the mount would (the components made
 * empty, the checksums restamped from the data, the parity recomputed:
 * "REPAIRED:"). The filesystem must not be mounted: one mounted over a
 * store (stores= in /proc/self/mounts) is a warning, and --repair refuses
 * it.
 *
 * Exit status (as e2fsck): 0 clean, 1 errors found were all repaired, 4
 * errors left, 8 could not check.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "exofs_user.h"

#define PROG	"fsck.exofs"

static int verbose, strict, check_data = 1, repair;
static unsigned long n_errors, n_warnings, n_repaired, n_notes;

/* Problems printed in full; past that only counted (see the summary). */
#define MAX_PRINTED	200

/*
 * Progress (-C FD, as e2fsck): FD > 0 gets "PASS DONE TOTAL STORE\n" lines,
 * DONE rising to TOTAL in each pass; FD 0 prints a human line on stdout,
 * rewritten in place with \r when stdout is a tty, else once per pass.
 */
#define N_PASSES	4
static const char *const pass_name[N_PASSES + 1] = {
	"", "inode table", "directories", "inodes and data", "objects",
};

static int progress_fd = -1;
static int progress_tty;	/* -C 0 with a tty: a line is on the screen */
static int progress_shown;
static unsigned int progress_pass;
static uint64_t progress_pm;	/* per mille last reported */
static int progress_ended;	/* DONE == TOTAL reported for this pass */
static const char *progress_dev = "exofs";

/* Take a half-written -C 0 line off the screen before other output. */
static void progress_clear(void)
{
	if (progress_shown) {
		printf("\r\033[K");
		progress_shown = 0;
	}
}

static void progress(unsigned int pass, uint64_t done, uint64_t total)
{
	uint64_t pm;
	char line[PATH_MAX + 80];
	int len;

	if (progress_fd < 0)
		return;
	if (done > total)
		done = total;
	pm = total ? done * 1000 / total : 1000;
	/* report each pass's first call, each per mille step and its end */
	if (pass == progress_pass &&
	    (progress_ended || (pm == progress_pm && done != total)))
		return;
	progress_pass = pass;
	progress_pm = pm;
	progress_ended = done == total;
	if (progress_fd > 0) {
		len = snprintf(line, sizeof(line), "%u %llu %llu %s\n", pass,
			       (unsigned long long)done,
			       (unsigned long long)total, progress_dev);
		fflush(stdout);
		if (write(progress_fd, line, len) != len)
			progress_fd = -1;	/* reader gone: stop */
		return;
	}
	if (!progress_tty && done != total)
		return;
	printf("%spass %u/%u (%s): %3llu.%llu%% (%llu/%llu)%s",
	       progress_tty ? "\r\033[K" : "", pass, N_PASSES, pass_name[pass],
	       (unsigned long long)(pm / 10), (unsigned long long)(pm % 10),
	       (unsigned long long)done, (unsigned long long)total,
	       progress_tty ? "" : "\n");
	fflush(stdout);
	progress_shown = progress_tty;
}

/*
 * One "PREFIX: message" line, counted in *@count; past MAX_PRINTED (when
 * @what names the kind) only counted.
 */
static void report(const char *prefix, const char *what,
		   unsigned long *count, const char *fmt, va_list ap)
{
	progress_clear();
	if (what && ++*count > MAX_PRINTED) {
		if (*count == MAX_PRINTED + 1)
			printf("%s: (more %s counted, not printed)\n", prefix,
			       what);
		return;
	}
	if (!what)
		++*count;
	printf("%s: ", prefix);
	vprintf(fmt, ap);
	printf("\n");
}

static __attribute__((format(printf, 1, 2))) void error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report("ERROR", "errors", &n_errors, fmt, ap);
	va_end(ap);
}

static __attribute__((format(printf, 1, 2))) void repaired(const char *fmt,
							   ...)
{
	va_list ap;

	va_start(ap, fmt);
	report("REPAIRED", NULL, &n_repaired, fmt, ap);
	va_end(ap);
}

static __attribute__((format(printf, 1, 2))) void warning(const char *fmt,
							  ...)
{
	va_list ap;

	va_start(ap, fmt);
	report("WARNING", "warnings", &n_warnings, fmt, ap);
	va_end(ap);
}

/*
 * What a crash left that the next mount repairs (EXOFS_FEATURE_RO_COMPAT_INTENT):
 * printed always, neither an error nor a warning.
 */
static __attribute__((format(printf, 1, 2))) void note(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	report("NOTE", "notes", &n_notes, fmt, ap);
	va_end(ap);
}

static void info(const char *fmt, ...)
{
	va_list ap;

	if (!verbose)
		return;
	progress_clear();
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

/* What fsck knows of one inode number. */
struct ino_state {
	uint8_t in_bitmap;
	uint8_t valid;		/* a valid non-free record */
	uint8_t seen_dir;	/* directory already walked */
	uint16_t mode;
	uint32_t links;
	uint32_t refs;		/* entries naming it (not "." / "..") */
	uint32_t subdirs;	/* subdirectory entries inside it (dirs) */
	uint64_t parent;	/* directory whose entry names it (dirs) */
	uint64_t size;
	uint64_t made;		/* i_made: with SIZED, the components made */
	uint32_t flags;
};

struct fsck {
	struct exofs_stores st;
	int degraded;		/* some store missing or failed */
	uint64_t max_ino;
	uint64_t nino;		/* records scanned: ino < nino */
	struct ino_state *ino;
	uint64_t used_inodes_sb;
	uint32_t state;
	int lazy_comps;		/* no EXOFS_FEATURE_RO_COMPAT_COMPONENTS */
	int sized;		/* EXOFS_FEATURE_RO_COMPAT_SIZED, with COMPONENTS */
	int intent;		/* EXOFS_FEATURE_RO_COMPAT_INTENT */
	uint32_t csum;		/* EXOFS_FEATURE_RO_COMPAT_CSUM: s_csum_type */
	uint64_t csum_blocks;	/* blocks verified against their entries */
	uint64_t csum_bad;	/* of those, blocks that did not match */
	uint64_t csum_repaired;	/* of those, blocks rebuilt (--repair) */
	uint8_t uuid[EXOFS_UUID_SIZE];
	uint64_t n_valid_dirs;	/* valid directory records (pass 2's total) */
	uint64_t n_files, n_dirs, n_symlinks, n_special, bytes;
	struct flight *flight;	/* the intent records' regions, sorted */
	size_t n_flight;
};

/* One region an intent record names: logical bytes [start, end) of oid. */
struct flight {
	uint64_t oid;
	uint64_t start;
	uint64_t end;
};

static int flight_cmp(const void *a, const void *b)
{
	const struct flight *x = a, *y = b;

	if (x->oid != y->oid)
		return x->oid < y->oid ? -1 : 1;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return 0;
}

/* The first region of @oid in the records, or NULL. */
static const struct flight *oid_flight(const struct fsck *f, uint64_t oid)
{
	size_t lo = 0, hi = f->n_flight;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (f->flight[mid].oid < oid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < f->n_flight && f->flight[lo].oid == oid ?
	       &f->flight[lo] : NULL;
}

/*
 * &ore_user_obj.in_flight: does a region of the intent records overlap
 * logical bytes [@off, @off + @len) of the object?
 */
static int row_in_flight(struct ore_user_obj *obj, uint64_t off, uint64_t len)
{
	const struct exofs_obj *o = (const void *)((const char *)obj -
					offsetof(struct exofs_obj, obj));
	const struct fsck *f = obj->flight_private;
	const struct flight *r = oid_flight(f, o->oid);

	for (; r && r < f->flight + f->n_flight && r->oid == o->oid; r++)
		if (r->start < off + len && off < r->end)
			return 1;
	return 0;
}

static int read_file(const char *path, void *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t r;

	if (fd < 0)
		return -errno;
	r = pread(fd, buf, len, 0);
	close(fd);
	if (r < 0)
		return -errno;
	return (size_t)r == len ? 0 : -ENODATA;
}

/*
 * The intent record of every store (EXOFS_INTENT_OID): both slots checked;
 * the regions of the newest valid one are reported and kept (f->flight).
 * Regions left by a crash are not errors: the next mount makes the
 * components of their objects that the crash kept it from making (empty)
 * and recomputes their parity; the checks below report those as notes
 * (and --repair does the same).
 */
/* Keep the regions of the valid record @h (checked: ih_count fits). */
static void keep_flight(struct fsck *f, const struct exofs_intent_hdr *h)
{
	const struct exofs_intent_ent *e = (const void *)(h + 1);
	uint64_t region = le64toh(h->ih_region);
	uint32_t n = le32toh(h->ih_count), k;
	struct flight *t;

	t = realloc(f->flight, (f->n_flight + n) * sizeof(*t));
	if (!t) {
		error("out of memory");
		return;
	}
	f->flight = t;
	for (k = 0; k < n; k++) {
		t = &f->flight[f->n_flight++];
		t->oid = le64toh(e[k].ie_oid);
		t->start = le64toh(e[k].ie_region) * region;
		t->end = t->start + region;
	}
}

static void check_intent(struct fsck *f)
{
	uint64_t region = exofs_intent_region(f->st.layout.stripe_length);
	uint8_t *buf;
	char path[4096];
	uint32_t i, s;

	if (!f->intent)
		return;
	buf = malloc(2 * EXOFS_INTENT_SLOT);
	if (!buf) {
		error("out of memory");
		return;
	}
	for (i = 0; i < f->st.n; i++) {
		const struct exofs_intent_hdr *best = NULL;
		int fd;
		ssize_t r;

		if (!f->st.dirs[i])
			continue;
		ore_user_store_path(path, sizeof(path), f->st.dirs[i],
				    EXOFS_INTENT_OID);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			if (errno != ENOENT)
				error("store %u (%s): intent record %s: %s", i,
				      f->st.dirs[i], path, strerror(errno));
			else if (verbose)
				info("store %u: no intent record yet (never mounted read-write)",
				     i);
			continue;
		}
		memset(buf, 0, 2 * EXOFS_INTENT_SLOT);
		r = pread(fd, buf, 2 * EXOFS_INTENT_SLOT, 0);
		close(fd);
		if (r < 0) {
			error("store %u (%s): intent record: %s", i,
			      f->st.dirs[i], strerror(errno));
			continue;
		}
		for (s = 0; s < 2; s++) {
			const struct exofs_intent_hdr *h =
				(void *)(buf + s * EXOFS_INTENT_SLOT);
			const char *why;
			int c = exofs_intent_check(h, EXOFS_INTENT_SLOT,
						   f->uuid, region, &why);

			if (c < 0)
				warning("store %u (%s): intent record slot %u: %s",
					i, f->st.dirs[i], s, why);
			if (c)
				continue;
			if (!best || le64toh(h->ih_seq) > le64toh(best->ih_seq))
				best = h;
		}
		if (best && best->ih_count) {
			info("store %u: intent record %llu names %u regions with writes in flight: the next mount repairs their parity",
			     i, (unsigned long long)le64toh(best->ih_seq),
			     le32toh(best->ih_count));
			keep_flight(f, best);
		}
	}
	free(buf);
	if (f->n_flight)
		qsort(f->flight, f->n_flight, sizeof(*f->flight), flight_cmp);
	/* the notes below promise a repair that needs every store */
	if (f->n_flight && f->degraded)
		warning("the intent records name %zu regions with writes in flight, and stores are missing or failed: the mount cannot repair their parity (it refuses without -o force), though the notes below say it does",
			f->n_flight);
}

/* Undo the octal escapes of a /proc/self/mounts field, in place. */
static void unescape_mnt(char *s)
{
	char *d = s;

	while (*s) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' &&
		    s[2] >= '0' && s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*d++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 +
				      (s[3] - '0'));
			s += 4;
		} else {
			*d++ = *s++;
		}
	}
	*d = 0;
}

/*
 * Where is an exofs mounted that uses one of the stores @dirs? From the
 * stores= option of /proc/self/mounts' exofs lines, compared by real
 * path. Returns the mount point (in @buf) or NULL.
 */
static const char *mounted_on(char **dirs, uint32_t n, char *buf,
			      size_t size)
{
	char line[8192], mine[PATH_MAX], theirs[PATH_MAX];
	const char *found = NULL;
	FILE *m = fopen("/proc/self/mounts", "re");
	uint32_t i;

	if (!m)
		return NULL;
	while (!found && fgets(line, sizeof(line), m)) {
		char *save = NULL, *dev, *dir, *type, *opts, *o, *p;

		dev = strtok_r(line, " ", &save);
		dir = strtok_r(NULL, " ", &save);
		type = strtok_r(NULL, " ", &save);
		opts = strtok_r(NULL, " ", &save);
		if (!dev || !dir || !type || !opts || strcmp(type, "exofs"))
			continue;
		for (o = strtok_r(opts, ",", &save); o && !found;
		     o = strtok_r(NULL, ",", &save)) {
			char *save2 = NULL;

			if (strncmp(o, "stores=", 7))
				continue;
			unescape_mnt(o);
			for (p = strtok_r(o + 7, ":", &save2); p && !found;
			     p = strtok_r(NULL, ":", &save2)) {
				if (!realpath(p, theirs))
					continue;
				for (i = 0; i < n && !found; i++)
					if (dirs[i] && realpath(dirs[i], mine) &&
					    !strcmp(mine, theirs)) {
						unescape_mnt(dir);
						snprintf(buf, size, "%s", dir);
						found = buf;
					}
			}
		}
	}
	fclose(m);
	return found;
}

/* Superblocks: returns 0 when a reference superblock was found. */
static int check_superblocks(struct fsck *f, char **dirs, uint32_t n)
{
	uint8_t (*sb)[EXOFS_SB_SIZE] = calloc(n, EXOFS_SB_SIZE);
	int *ok = calloc(n, sizeof(int));
	struct ore_layout l;
	const struct exofs_fsb *ref = NULL;
	uint32_t i, refi = 0, fl;
	const char *why;
	char path[4096], u1[37], u2[37];

	for (i = 0; i < n; i++) {
		int err;

		if (!dirs[i]) {
			info("store %u: missing (given as missing)", i);
			continue;
		}
		ore_user_store_path(path, sizeof(path), dirs[i],
				    EXOFS_SUPER_OID);
		err = read_file(path, sb[i], EXOFS_SB_SIZE);
		if (err) {
			error("store %u (%s): cannot read the superblock %s: %s",
			      i, dirs[i], path, strerror(-err));
			continue;
		}
		if (exofs_sb_check(sb[i], &l, &why)) {
			error("store %u (%s): corrupt superblock: %s", i,
			      dirs[i], why);
			continue;
		}
		ok[i] = 1;
		if (!ref || le64toh(((struct exofs_fsb *)sb[i])->s_event) >
			    le64toh(ref->s_event)) {
			ref = (const void *)sb[i];
			refi = i;
		}
	}
	if (!ref) {
		error("no valid superblock on any store");
		free(sb);
		free(ok);
		return -1;
	}
	exofs_sb_check(sb[refi], &f->st.layout, &why);
	if (le32toh(ref->s_num_stores) != n) {
		error("%u stores given, the filesystem has %u", n,
		      le32toh(ref->s_num_stores));
		free(sb);
		free(ok);
		return -1;
	}
	for (i = 0; i < n; i++) {
		const struct exofs_fsb *s = (const void *)sb[i];

		if (!ok[i])
			continue;
		if (memcmp(s->s_uuid, ref->s_uuid, EXOFS_UUID_SIZE)) {
			exofs_uuid_str(s->s_uuid, u1);
			exofs_uuid_str(ref->s_uuid, u2);
			error("store %u (%s) is foreign: filesystem uuid %s, expected %s",
			      i, dirs[i], u1, u2);
			ok[i] = 0;
			continue;
		}
		if (le32toh(s->s_store_index) != i) {
			error("store %s given at position %u belongs at position %u",
			      dirs[i], i, le32toh(s->s_store_index));
			ok[i] = 0;
			continue;
		}
		if (memcmp(s->s_store_uuid, ((const struct exofs_dev_entry *)
			   (sb[refi] + EXOFS_DEVTABLE_OFFSET))[i].uuid,
			   EXOFS_UUID_SIZE)) {
			error("store %u (%s): its uuid is not entry %u of the device table",
			      i, dirs[i], i);
			ok[i] = 0;
			continue;
		}
		fl = le32toh(((const struct exofs_dev_entry *)
			      (sb[refi] + EXOFS_DEVTABLE_OFFSET))[i].flags);
		if (fl & EXOFS_DEV_FL_REBUILDING) {
			warning("store %u (%s) is a replacement being rebuilt (the kernel goes on at the next mount): not checked",
				i, dirs[i]);
			ok[i] = 0;
			continue;
		}
		if (fl & EXOFS_DEV_FL_FAILED) {
			warning("store %u (%s) is flagged failed in the device table (stale)",
				i, dirs[i]);
			ok[i] = 0;
			continue;
		}
		if (le64toh(s->s_event) + 1 < le64toh(ref->s_event)) {
			warning("store %u (%s) is stale: event %llu, newest %llu",
				i, dirs[i],
				(unsigned long long)le64toh(s->s_event),
				(unsigned long long)le64toh(ref->s_event));
			ok[i] = 0;
			continue;
		}
		if (le64toh(s->s_event) < le64toh(ref->s_event)) {
			/* a crash in the middle of a superblock update */
			warning("store %u (%s): superblock one event behind (%llu, newest %llu)",
				i, dirs[i],
				(unsigned long long)le64toh(s->s_event),
				(unsigned long long)le64toh(ref->s_event));
			continue;
		}
		/* same event: everything but the per-store fields agrees */
		if (!exofs_sb_same(sb[i], sb[refi])) {
			error("store %u (%s): superblock differs from store %u's at the same event",
			      i, dirs[i], refi);
			ok[i] = 0;
		}
	}
	f->st.n = n;
	f->st.dirs = calloc(n, sizeof(char *));
	for (i = 0; i < n; i++) {
		if (ok[i])
			f->st.dirs[i] = dirs[i];
		else
			f->degraded = 1;
	}
	f->max_ino = le64toh(ref->s_max_ino);
	f->used_inodes_sb = le64toh(ref->s_used_inodes);
	f->state = le32toh(ref->s_state);
	f->lazy_comps = !(le32toh(ref->s_feature_ro_compat) &
			  EXOFS_FEATURE_RO_COMPAT_COMPONENTS);
	/* as the kernel: SIZED means nothing without COMPONENTS */
	f->sized = !f->lazy_comps && (le32toh(ref->s_feature_ro_compat) &
				      EXOFS_FEATURE_RO_COMPAT_SIZED);
	f->intent = !!(le32toh(ref->s_feature_ro_compat) &
		       EXOFS_FEATURE_RO_COMPAT_INTENT);
	/*
	 * XXH64 or CRC-32C: exofs_sb_check() refuses any other type, and
	 * CSUM without INTENT
	 */
	f->csum = exofs_sb_csum_type(ref);
	/* with --repair, the writes keep the side files up to date */
	f->st.csum_type = f->csum;
	f->st.csum_side = exofs_sb_csum_side(ref);
	memcpy(f->uuid, ref->s_uuid, EXOFS_UUID_SIZE);
	exofs_uuid_str(ref->s_uuid, u1);
	info("filesystem %s: %u stores, raid%u su %u gw %u depth %u groups %u mirrors_p1 %u, event %llu, %s",
	     u1, n, f->st.layout.raid_algorithm, f->st.layout.stripe_unit,
	     f->st.layout.group_width, f->st.layout.group_depth,
	     f->st.layout.group_count, f->st.layout.mirrors_p1,
	     (unsigned long long)le64toh(ref->s_event),
	     f->state == EXOFS_STATE_CLEAN ? "clean" : "dirty");
	info("features:%s%s%s%s%s%s%s%s",
	     f->lazy_comps ? "" : " components",
	     f->sized ? " sized" : "",
	     f->intent ? " intent" : "",
	     f->csum ? " csum (data checksums, " : "",
	     f->csum ? ore_user_csum_name(f->csum) : "",
	     f->csum ? ")" : "",
	     f->st.csum_side ? " csum_side (no heads)" : "",
	     f->lazy_comps && !f->intent && !f->csum ? " none" : "");
	/* with the intent record, the mount repairs what a crash left */
	if (f->state != EXOFS_STATE_CLEAN && f->intent)
		note("filesystem is not clean (mounted, or not unmounted cleanly): the next mount repairs the regions of the intent record");
	else if (f->state != EXOFS_STATE_CLEAN)
		warning("filesystem is not clean (mounted, or not unmounted cleanly)");
	free(sb);
	free(ok);
	return 0;
}

/*
 * May component @comp of object @oid, whose record says its components
 * are made as far as @made reaches (i_made; ~0: not known), be absent?
 * Without EXOFS_FEATURE_RO_COMPAT_COMPONENTS always (a hole); with
 * EXOFS_FEATURE_RO_COMPAT_SIZED when @oid is an inode's object (from
 * EXOFS_INO_OID_BASE on) and @made is known and does not reach it
 * (ore_layout_obj_size() 0: it is empty); never otherwise (it is lost).
 */
static int comp_absent_ok(const struct fsck *f, uint64_t oid, uint32_t comp,
			  uint64_t made)
{
	if (f->lazy_comps)
		return 1;	/* made by the first write */
	/* the inode table and bitmap keep every component */
	if (!f->sized || oid < EXOFS_INO_OID_BASE || made == ~0ULL)
		return 0;
	return !ore_layout_obj_size(&f->st.layout, comp, made);
}

/* Rows of an absent component rebuilt to tell unmade from lost, at most */
#define UNMADE_MAX_ROWS	1024

/*
 * Does absent component @comp of @oid hold nothing but zeros outside the
 * rows with writes in flight, as far as the redundancy tells (each unit it
 * would hold below @made rebuilt from the other components)? 1 yes, 0 no
 * (data there: it was lost before the crash, not left unmade by it), -1
 * when the redundancy cannot tell (a unit that cannot be rebuilt, more
 * than UNMADE_MAX_ROWS rows): the mount (exofs/intent.c) takes that for
 * unmade, and so does fsck.
 */
static int comp_rebuilds_empty(struct fsck *f, uint64_t oid, uint32_t comp,
			       uint64_t made)
{
	const struct ore_layout *l = &f->st.layout;
	uint32_t su = l->stripe_unit;
	uint64_t rows, nrows, r;
	uint32_t c;
	struct exofs_obj o;
	uint8_t *buf;
	int empty = 1;

	if (exofs_obj_open(&f->st, oid, O_RDONLY, &o))
		return 0;
	/* every absent component its i_made reaches is lost here */
	for (c = 0; c < l->num_comps; c++)
		if (o.comps[c].fd == ORE_USER_EMPTY &&
		    (c == comp || !comp_absent_ok(f, oid, c, made)))
			o.comps[c].fd = ORE_USER_MISSING;
	o.obj.flight_private = f;
	rows = (ore_layout_obj_size(l, comp, made) + su - 1) / su;
	buf = malloc(su);
	if (!buf || rows > UNMADE_MAX_ROWS)
		empty = -1;
	for (r = 0; r < rows && empty == 1; r++) {
		uint32_t i;

		if (row_in_flight(&o.obj,
				  ore_layout_comp_stripes(l, comp, r * su, 1,
							  &nrows),
				  l->stripe_length))
			continue;
		if (ore_user_rebuild_unit(&o.obj, comp, r, buf)) {
			empty = -1;
			break;
		}
		for (i = 0; i < su && empty == 1; i++)
			empty = !buf[i];
	}
	free(buf);
	exofs_obj_close(&o);
	return empty;
}

/*
 * May component @comp of @oid, which its record's i_made (@made) reaches,
 * be absent because a crash lost its create? With
 * EXOFS_FEATURE_RO_COMPAT_SIZED, for an inode's object named by the intent
 * records (the inode table and bitmap keep every component from mkfs on),
 * and unless the redundancy says it held data outside the rows with writes
 * in flight (comp_rebuilds_empty()), as the mount decides. *@unknown (when
 * not NULL) says the redundancy could not tell.
 */
static int comp_maybe_unmade(struct fsck *f, uint64_t oid, uint32_t comp,
			     uint64_t made, int *unknown)
{
	int e;

	if (!f->sized || oid < EXOFS_INO_OID_BASE || !oid_flight(f, oid))
		return 0;
	e = comp_rebuilds_empty(f, oid, comp, made);
	if (unknown)
		*unknown = e < 0;
	return e != 0;
}

/*
 * Component @comp of @oid, which its record's i_made reaches, is absent,
 * and @oid has writes in flight in the intent records: a crash can keep
 * the record (one store's journal) and lose the create (another's). The
 * next mount makes it, empty, and recomputes the parity of the regions;
 * --repair makes it now (the parity check after it does the rest).
 */
static void comp_not_made(uint64_t oid, uint32_t comp,
			  const char *what, const char *dir, const char *path)
{
	int fd;

	if (!repair) {
		note("%s: object 0x%llx component %u is not made on store %s (%s); the object had writes in flight at a crash: the next mount makes it (empty)",
		     what, (unsigned long long)oid, comp, dir, path);
		return;
	}
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0) {
		error("%s: object 0x%llx component %u on store %s: cannot make %s: %s",
		      what, (unsigned long long)oid, comp, dir, path,
		      strerror(errno));
		return;
	}
	close(fd);
	repaired("%s: object 0x%llx component %u on store %s, not made (writes in flight at a crash): made empty",
		 what, (unsigned long long)oid, comp, dir);
}

/*
 * The component files of @oid: present on every store that is checked
 * (every component of an object is created with it: an absent one is lost,
 * see docs/stores.md; without EXOFS_FEATURE_RO_COMPAT_COMPONENTS they are
 * made by their first write and an absent one is a hole; with
 * EXOFS_FEATURE_RO_COMPAT_SIZED those of an inode's object exist as far as
 * its record's i_made reaches them, so with @made known an absent one
 * that @made does not reach is empty: comp_absent_ok()), regular files
 * (not followed: a symlink is an error too), and, when @size is not ~0, none
 * longer than the kernel writes for a logical size of @size:
 * docs/exofs-format.md, the component holding the last byte to the end of
 * its page, parity to the end of the longest data page of its row.
 */
static void check_components(struct fsck *f, uint64_t oid, const char *what,
			     uint64_t size, uint64_t made)
{
	const struct ore_layout *l = &f->st.layout;
	uint32_t first = exofs_first_dev(oid, l->mirrors_p1, f->st.n), c;
	char path[4096];
	struct stat s;
	int unknown;

	for (c = 0; c < l->num_comps; c++) {
		const char *dir = f->st.dirs[(first + c) % f->st.n];
		uint64_t max;

		if (!dir)
			continue;
		ore_user_store_path(path, sizeof(path), dir, oid);
		if (lstat(path, &s)) {
			if (errno == ENOENT &&
			    comp_absent_ok(f, oid, c, made))
				continue;	/* a hole, or not reached */
			if (errno == ENOENT &&
			    comp_maybe_unmade(f, oid, c, made, &unknown)) {
				if (unknown)
					warning("%s: object 0x%llx component %u on store %s: the redundancy cannot tell whether it held data outside the regions with writes in flight: taken (as the mount takes it) for one whose create the crash lost",
						what, (unsigned long long)oid, c,
						dir);
				comp_not_made(oid, c, what, dir, path);
				continue;
			}
			error("%s: object 0x%llx component %u is missing on store %s (%s: %s)",
			      what, (unsigned long long)oid, c, dir, path,
			      strerror(errno));
			continue;
		}
		if (!S_ISREG(s.st_mode)) {
			error("%s: object 0x%llx component %u on store %s: %s is not a regular file (mode %o)",
			      what, (unsigned long long)oid, c, dir, path,
			      (unsigned int)s.st_mode);
			continue;
		}
		if (size == ~0ULL)
			continue;
		max = ore_layout_obj_size(l, c, size);
		max = (max + 4095) / 4096 * 4096;
		if ((uint64_t)s.st_size > max)
			error("%s: object 0x%llx component %u on store %s is %llu bytes, at most %llu for size %llu",
			      what, (unsigned long long)oid, c, dir,
			      (unsigned long long)s.st_size,
			      (unsigned long long)max,
			      (unsigned long long)size);
	}
}

/*
 * Open object @oid (its components made as far as @made reaches, ~0 when
 * not known) for the checks: ore_user takes an absent component for an empty one
 * (ORE_USER_EMPTY); one that comp_absent_ok() says must exist is lost
 * instead (ORE_USER_MISSING), as for the kernel: reads rebuild it from
 * the redundancy, and the parity check neither compares nor, with
 * --repair, rewrites the parity of its stripes from zeros (which would
 * destroy the only copy of its data). Unless the intent records name
 * @oid: then the crash may have lost its create, and the next mount makes
 * it empty (comp_not_made()); the parity check's mismatches in the
 * records' regions are notes (row_in_flight()).
 */
static int fsck_obj_open(struct fsck *f, uint64_t oid, uint64_t made,
			 struct exofs_obj *o)
{
	uint32_t c;
	int err;

	err = exofs_obj_open(&f->st, oid, repair ? O_RDWR : O_RDONLY, o);
	if (err)
		return err;
	for (c = 0; c < f->st.layout.num_comps; c++)
		if (o->comps[c].fd == ORE_USER_EMPTY &&
		    !comp_absent_ok(f, oid, c, made) &&
		    !comp_maybe_unmade(f, oid, c, made, NULL))
			o->comps[c].fd = ORE_USER_MISSING;
	o->obj.in_flight = row_in_flight;
	o->obj.flight_private = f;
	return 0;
}

/* The directory of the store holding component @comp of @o. */
static const char *comp_store(const struct fsck *f, const struct exofs_obj *o,
			      int comp)
{
	const struct ore_layout *l = &f->st.layout;
	const char *dir;

	if (comp < 0)
		return "-";
	dir = f->st.dirs[(exofs_first_dev(o->oid, l->mirrors_p1, f->st.n) +
			  (uint32_t)comp) % f->st.n];
	return dir ? dir : "missing";
}

/* The component of an object whose blocks check_csums() verifies. */
struct csum_walk {
	struct exofs_obj *o;
	uint32_t comp;
	uint64_t row;		/* the stripe unit in @unit, or ~0 */
	int row_err;		/* its rebuild's error */
	uint8_t *unit;
	uint64_t first_bad;	/* object offset of the first bad block */
	uint64_t repaired, failed;
	uint64_t flight;	/* of the bad blocks, those in flight */
	uint64_t restamped;	/* of those, restamped from the data */
	const char *side;	/* the side file's path */
};

/*
 * Is the block at object offset @off of component @comp of @o in a stripe
 * row that the intent records say had writes in flight?
 */
static int block_in_flight(struct exofs_obj *o, uint32_t comp, uint64_t off)
{
	const struct ore_layout *l = &o->obj.layout;
	uint64_t rows;

	return o->obj.in_flight &&
	       o->obj.in_flight(&o->obj,
				ore_layout_comp_stripes(l, comp, off, 1, &rows),
				l->stripe_length);
}

/*
 * A block at object offset @off of the component that does not match its
 * entry @want (the data's is @got): noted and, with --repair, rebuilt
 * from the redundancy and written back when what is rebuilt matches.
 */
static int csum_bad_block(void *arg, uint64_t off, uint32_t want,
			  uint32_t got)
{
	struct csum_walk *w = arg;
	const struct ore_user_comp *c = &w->o->comps[w->comp];
	uint32_t su = w->o->obj.layout.stripe_unit;
	const uint8_t *blk;

	/*
	 * Writes in flight at a crash: entries and data reached the store in
	 * no particular order; the next mount restamps the entries from the
	 * data (after recomputing the parity), and so does --repair.
	 */
	if (block_in_flight(w->o, w->comp, off)) {
		w->flight++;
		if (repair &&
		    !ore_user_csum_stamp(c, w->o->st->csum_type,
					 &w->o->csum_fds[w->comp], w->side,
					 off, ORE_CSUM_BLOCK))
			w->restamped++;
		return 0;
	}
	if (w->first_bad == ~0ULL)
		w->first_bad = off;
	info("  component %u block at offset %llu: checksum %08x, data %08x",
	     w->comp, (unsigned long long)off, want, got);
	if (!repair)
		return 0;
	if (off / su != w->row) {
		w->row = off / su;
		w->row_err = ore_user_rebuild_unit(&w->o->obj, w->comp, w->row,
						   w->unit);
	}
	blk = w->unit + off % su;
	if (w->row_err ||
	    ore_user_csum_block(w->o->st->csum_type, blk) != want ||
	    pwrite(c->fd, blk, ORE_CSUM_BLOCK, (off_t)(c->base + off)) !=
	    (ssize_t)ORE_CSUM_BLOCK) {
		w->failed++;
		return 0;
	}
	w->repaired++;
	return 0;
}

/*
 * Component @c of @o has a corrupt head (its attribute is no list of
 * entries): reported and, with --repair, restamped from the data of its
 * blocks (the parity check after tells whether that data agrees with the
 * redundancy). Returns 1 when it was restamped.
 */
static int bad_head(struct fsck *f, struct exofs_obj *o, uint32_t c,
		    const char *what)
{
	const char *dir = comp_store(f, o, (int)c);
	char msg[512], path[4096];
	ssize_t len;
	int err;

	len = fgetxattr(o->comps[c].fd, ORE_FILE_CSUM_XATTR, NULL, 0);
	snprintf(msg, sizeof(msg),
		 "%s: object 0x%llx component %u on store %s: the checksum head of %s/%llx (extended attribute " ORE_FILE_CSUM_XATTR ", %lld bytes) is corrupt",
		 what, (unsigned long long)o->oid, c, dir, dir,
		 (unsigned long long)o->oid, (long long)len);
	if (!repair) {
		error("%s: its blocks are not verified", msg);
		return 0;
	}
	if (ore_user_csum_path(path, sizeof(path), dir, o->oid) >=
	    (int)sizeof(path))
		err = -ENAMETOOLONG;
	else
		err = ore_user_csum_stamp(&o->comps[c], f->csum,
					  &o->csum_fds[c], path, 0,
					  ORE_FILE_CSUM_HEAD * ORE_CSUM_BLOCK);
	if (err) {
		error("%s: cannot restamp it: %s", msg, strerror(-err));
		return 0;
	}
	repaired("%s: restamped from the data", msg);
	return 1;
}

/* The blocks of a component whose entries differ where writes were in flight. */
static void csum_flight_report(struct fsck *f, struct exofs_obj *o, uint32_t c,
			       const struct csum_walk *w, const char *what)
{
	if (!w->flight)
		return;
	if (!repair)
		note("%s: object 0x%llx component %u on store %s: %llu blocks differ from their checksums where the intent record had writes in flight at a crash: the next mount restamps them",
		     what, (unsigned long long)o->oid, c,
		     comp_store(f, o, (int)c),
		     (unsigned long long)w->flight);
	else if (w->restamped == w->flight)
		repaired("%s: object 0x%llx component %u on store %s: %llu checksums restamped from the data (writes in flight at a crash)",
			 what, (unsigned long long)o->oid, c,
			 comp_store(f, o, (int)c),
			 (unsigned long long)w->flight);
	else
		error("%s: object 0x%llx component %u on store %s: %llu of %llu checksums could not be restamped (writes in flight at a crash)",
		      what, (unsigned long long)o->oid, c,
		      comp_store(f, o, (int)c),
		      (unsigned long long)(w->flight - w->restamped),
		      (unsigned long long)w->flight);
}

/*
 * With data checksums: every block of every component of @o that has an
 * entry, in its head or its side file, verified (with --repair, rebuilt
 * where it does not match). One line per component with bad blocks or a
 * corrupt head.
 */
static void check_csums(struct fsck *f, struct exofs_obj *o, const char *what)
{
	const struct ore_layout *l = &f->st.layout;
	struct csum_walk w = { .o = o };
	char msg[512];
	uint32_t c;

	if (!f->csum || !o->csum_fds)
		return;
	w.unit = malloc(l->stripe_unit);
	if (!w.unit) {
		error("%s: out of memory", what);
		return;
	}
	for (c = 0; c < l->num_comps; c++) {
		char side[4096];
		int64_t nbad;

		if (o->comps[c].fd < 0)
			continue;
		if (ore_user_csum_path(side, sizeof(side),
				       comp_store(f, o, (int)c), o->oid) >=
		    (int)sizeof(side)) {
			error("%s: object 0x%llx component %u: store path too long",
			      what, (unsigned long long)o->oid, c);
			continue;
		}
		w.side = side;
		w.comp = c;
		w.row = ~0ULL;
		w.first_bad = ~0ULL;
		w.repaired = w.failed = 0;
		w.flight = w.restamped = 0;
		nbad = ore_user_csum_verify(&o->comps[c], f->csum,
					    o->csum_fds[c], csum_bad_block, &w,
					    &f->csum_blocks);
		if (nbad == -EUCLEAN) {
			if (!bad_head(f, o, c, what))
				continue;
			nbad = ore_user_csum_verify(&o->comps[c], f->csum,
						    o->csum_fds[c],
						    csum_bad_block, &w,
						    &f->csum_blocks);
		}
		if (nbad < 0) {
			error("%s: object 0x%llx component %u on store %s: cannot verify its checksums: %s",
			      what, (unsigned long long)o->oid, c,
			      comp_store(f, o, (int)c), strerror((int)-nbad));
			continue;
		}
		csum_flight_report(f, o, c, &w, what);
		nbad -= (int64_t)w.flight;
		if (!nbad)
			continue;
		f->csum_bad += (uint64_t)nbad;
		f->csum_repaired += w.repaired;
		snprintf(msg, sizeof(msg),
			 "%s: object 0x%llx component %u on store %s: checksum mismatch in %lld block%s (first at offset %llu)",
			 what, (unsigned long long)o->oid, c,
			 comp_store(f, o, (int)c), (long long)nbad,
			 nbad > 1 ? "s" : "", (unsigned long long)w.first_bad);
		if (repair && !w.failed)
			repaired("%s: rebuilt from the redundancy", msg);
		else if (repair)
			error("%s: %llu rebuilt from the redundancy, %llu could not be",
			      msg, (unsigned long long)w.repaired,
			      (unsigned long long)w.failed);
		else
			error("%s", msg);
	}
	free(w.unit);
}

static void check_parity(struct fsck *f, struct exofs_obj *o, uint64_t size,
			 const char *what)
{
	struct ore_user_report rep;
	int r;

	if (!size)
		return;
	r = ore_user_check(&o->obj, size, repair, &rep);
	if (r < 0) {
		error("%s: parity check failed: %s", what, strerror(-r));
		return;
	}
	if (rep.bad_parity || rep.bad_mirror) {
		char msg[512];

		snprintf(msg, sizeof(msg),
			 "%s: object 0x%llx: %llu stripe rows with bad parity, %llu units with differing mirrors (first: %s on component %d, store %s, at offset %llu)",
			 what, (unsigned long long)o->oid,
			 (unsigned long long)rep.bad_parity,
			 (unsigned long long)rep.bad_mirror,
			 rep.first_bad_what, rep.first_bad_comp,
			 comp_store(f, o, rep.first_bad_comp),
			 (unsigned long long)rep.first_bad_offset);
		if (repair && rep.repaired && !rep.repair_failed)
			repaired("%s: %llu stripe units rewritten", msg,
				 (unsigned long long)rep.repaired);
		else if (repair)
			error("%s: repair: %llu stripe units rewritten, %llu writes failed",
			      msg, (unsigned long long)rep.repaired,
			      (unsigned long long)rep.repair_failed);
		else
			error("%s", msg);
	}
	if (rep.in_flight && !repair)
		note("%s: object 0x%llx: %llu stripe rows with bad parity or differing mirrors where the intent record had writes in flight at a crash: the next mount recomputes them",
		     what, (unsigned long long)o->oid,
		     (unsigned long long)rep.in_flight);
	else if (rep.in_flight && !rep.repair_failed)
		repaired("%s: object 0x%llx: %llu stripe rows with writes in flight at a crash recomputed",
			 what, (unsigned long long)o->oid,
			 (unsigned long long)rep.in_flight);
	else if (rep.in_flight && !rep.bad_parity && !rep.bad_mirror)
		error("%s: object 0x%llx: repair of %llu stripe rows with writes in flight at a crash: %llu writes failed",
		      what, (unsigned long long)o->oid,
		      (unsigned long long)rep.in_flight,
		      (unsigned long long)rep.repair_failed);
	if (rep.unreadable && !f->degraded)
		error("%s: object 0x%llx: %llu stripe units unreadable",
		      what, (unsigned long long)o->oid,
		      (unsigned long long)rep.unreadable);
}

static int check_tables(struct fsck *f)
{
	struct exofs_obj bm, it;
	uint64_t bm_bound, it_bound, nbits, ino, used = 0;
	uint8_t *bitmap = NULL, *recs = NULL;
	int err;

	err = fsck_obj_open(f, EXOFS_IBITMAP_OID, ~0ULL, &bm);
	if (err) {
		error("cannot open the inode bitmap: %s", strerror(-err));
		return -1;
	}
	err = fsck_obj_open(f, EXOFS_ITABLE_OID, ~0ULL, &it);
	if (err) {
		error("cannot open the inode table: %s", strerror(-err));
		exofs_obj_close(&bm);
		return -1;
	}
	check_components(f, EXOFS_IBITMAP_OID, "inode bitmap", ~0ULL, ~0ULL);
	check_components(f, EXOFS_ITABLE_OID, "inode table", ~0ULL, ~0ULL);
	bm_bound = exofs_obj_size_bound(&bm);
	it_bound = exofs_obj_size_bound(&it);
	if (bm_bound > (f->max_ino + 7) / 8)
		bm_bound = (f->max_ino + 7) / 8;
	nbits = bm_bound * 8;
	/* records past the table's end are free: scan only the table */
	f->nino = it_bound / EXOFS_INODE_SIZE;
	if (f->nino > f->max_ino)
		f->nino = f->max_ino;
	if (f->nino < EXOFS_FIRST_INO)
		f->nino = EXOFS_FIRST_INO;
	info("inode table: %llu records scanned, bitmap %llu bytes",
	     (unsigned long long)f->nino, (unsigned long long)bm_bound);
	f->ino = calloc(f->nino, sizeof(*f->ino));
	bitmap = calloc(1, bm_bound > (f->nino + 7) / 8 ? bm_bound :
			(f->nino + 7) / 8);
	recs = malloc(f->nino * EXOFS_INODE_SIZE);
	if (!f->ino || !bitmap || !recs) {
		error("out of memory for %llu inodes",
		      (unsigned long long)f->nino);
		err = -1;
		goto out;
	}
	progress(1, 0, f->nino);
	check_csums(f, &bm, "inode bitmap");
	check_csums(f, &it, "inode table");
	err = ore_user_read(&bm.obj, 0, bitmap, bm_bound);
	if (!err)
		err = ore_user_read(&it.obj, 0, recs,
				    f->nino * EXOFS_INODE_SIZE);
	if (err) {
		error("cannot read the inode tables: %s", strerror(-err));
		err = -1;
		goto out;
	}
	check_parity(f, &bm, bm_bound, "inode bitmap");
	check_parity(f, &it, f->nino * EXOFS_INODE_SIZE, "inode table");
	if ((bitmap[0] & 3) != 3)
		error("inode bitmap: bits 0 and 1 (reserved, root) are not set");
	for (ino = 0; ino < f->nino; ino++) {
		const struct exofs_inode *r =
			(const void *)(recs + ino * EXOFS_INODE_SIZE);
		struct ino_state *s = &f->ino[ino];
		const char *why;
		int c;

		progress(1, ino, f->nino);
		s->in_bitmap = !!(bitmap[ino / 8] & (1u << (ino % 8)));
		used += s->in_bitmap;
		c = exofs_inode_check(r, ino, &why);
		if (ino == 0) {
			if (c != 1)
				error("inode 0: record is not zero");
			continue;
		}
		if (c < 0) {
			error("inode %llu: %s", (unsigned long long)ino, why);
			continue;
		}
		if (c == 1) {
			if (s->in_bitmap && ino != EXOFS_ROOT_INO)
				warning("inode %llu: in use in the bitmap but its record is free (leaked)",
					(unsigned long long)ino);
			continue;
		}
		if (!s->in_bitmap)
			error("inode %llu: valid record but free in the bitmap",
			      (unsigned long long)ino);
		s->valid = 1;
		s->mode = le16toh(r->i_mode);
		s->links = le32toh(r->i_links_count);
		s->size = le64toh(r->i_size);
		s->made = le64toh(r->i_made);
		s->flags = le32toh(r->i_flags);
		f->n_valid_dirs += S_ISDIR(s->mode);
	}
	progress(1, f->nino, f->nino);
	for (ino = f->nino; ino < nbits; ino++)
		if (bitmap[ino / 8] & (1u << (ino % 8))) {
			warning("inode %llu: in use in the bitmap, beyond the inode table (leaked)",
				(unsigned long long)ino);
			used++;
		}
	if (!f->ino[EXOFS_ROOT_INO].valid ||
	    !S_ISDIR(f->ino[EXOFS_ROOT_INO].mode)) {
		error("root inode 1 is not a valid directory");
		err = -1;
		goto out;
	}
	if (f->state == EXOFS_STATE_CLEAN && used != f->used_inodes_sb)
		warning("superblock counts %llu used inodes, the bitmap %llu",
			(unsigned long long)f->used_inodes_sb,
			(unsigned long long)used);
	err = 0;
out:
	free(bitmap);
	free(recs);
	exofs_obj_close(&bm);
	exofs_obj_close(&it);
	return err;
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Walk directory @dino; queue its subdirectories in @queue. */
static void check_dir(struct fsck *f, uint64_t dino, uint64_t *queue,
		      uint64_t *qtail)
{
	struct ino_state *d = &f->ino[dino];
	struct exofs_obj o;
	uint8_t *buf;
	char what[64], **names = NULL;
	uint64_t off;
	size_t nnames = 0, i;
	int err;

	snprintf(what, sizeof(what), "directory %llu", (unsigned long long)dino);
	/* first: --repair makes the components a crash kept from being made */
	check_components(f, EXOFS_INO_OID(dino), what, d->size, d->made);
	err = fsck_obj_open(f, EXOFS_INO_OID(dino), d->made, &o);
	if (err) {
		error("%s: cannot open its object: %s", what, strerror(-err));
		return;
	}
	check_csums(f, &o, what);
	buf = malloc(d->size);
	if (!buf || ore_user_read(&o.obj, 0, buf, d->size)) {
		error("%s: cannot read its %llu bytes", what,
		      (unsigned long long)d->size);
		goto out;
	}
	check_parity(f, &o, d->size, what);
	for (off = 0; off < d->size; off += EXOFS_DIR_CHUNK) {
		unsigned int pos = 0;

		while (pos < EXOFS_DIR_CHUNK) {
			const struct exofs_dir_entry *de =
				(const void *)(buf + off + pos);
			unsigned int rec_len, name_len, type;
			uint64_t ino;
			char name[EXOFS_NAME_LEN + 1];

			if (pos + 12 > EXOFS_DIR_CHUNK) {
				error("%s: offset %llu: entry header crosses the chunk",
				      what, (unsigned long long)(off + pos));
				break;
			}
			rec_len = le16toh(de->rec_len);
			name_len = de->name_len;
			type = de->file_type;
			ino = le64toh(de->inode);
			if (rec_len < 12 || rec_len % EXOFS_DIR_PAD ||
			    pos + rec_len > EXOFS_DIR_CHUNK) {
				error("%s: offset %llu: bad rec_len %u",
				      what, (unsigned long long)(off + pos),
				      rec_len);
				break;
			}
			if (!ino) {
				if (pos)
					error("%s: offset %llu: unused entry not first in its chunk",
					      what,
					      (unsigned long long)(off + pos));
				pos += rec_len;
				continue;
			}
			if (!name_len || rec_len < EXOFS_DIR_REC_LEN(name_len)) {
				error("%s: offset %llu: name_len %u does not fit rec_len %u",
				      what, (unsigned long long)(off + pos),
				      name_len, rec_len);
				pos += rec_len;
				continue;
			}
			memcpy(name, de->name, name_len);
			name[name_len] = 0;
			if (strlen(name) != name_len || strchr(name, '/'))
				error("%s: offset %llu: name contains NUL or '/'",
				      what, (unsigned long long)(off + pos));
			if (ino >= f->max_ino || ino >= f->nino ||
			    !f->ino[ino].valid) {
				error("%s: entry '%s' names inode %llu, which is not in use",
				      what, name, (unsigned long long)ino);
				pos += rec_len;
				continue;
			}
			if (type != exofs_ft_of_mode(f->ino[ino].mode))
				error("%s: entry '%s': file_type %u, inode %llu has mode %o",
				      what, name, type, (unsigned long long)ino,
				      f->ino[ino].mode);
			if (off == 0 && pos == 0) {
				if (strcmp(name, ".") || ino != dino)
					error("%s: first entry is not '.' naming itself",
					      what);
				pos += rec_len;
				continue;
			}
			if (off == 0 && pos == EXOFS_DIR_REC_LEN(1)) {
				if (strcmp(name, ".."))
					error("%s: second entry is not '..'",
					      what);
				else if (ino != d->parent)
					error("%s: '..' names %llu, its parent is %llu",
					      what, (unsigned long long)ino,
					      (unsigned long long)d->parent);
				pos += rec_len;
				continue;
			}
			if (!strcmp(name, ".") || !strcmp(name, ".."))
				error("%s: another '%s' entry at offset %llu",
				      what, name,
				      (unsigned long long)(off + pos));
			names = realloc(names, (nnames + 1) * sizeof(*names));
			names[nnames++] = strdup(name);
			f->ino[ino].refs++;
			if (S_ISDIR(f->ino[ino].mode)) {
				d->subdirs++;
				if (f->ino[ino].parent) {
					error("directory %llu has two parents (%llu and %llu)",
					      (unsigned long long)ino,
					      (unsigned long long)f->ino[ino].parent,
					      (unsigned long long)dino);
				} else {
					f->ino[ino].parent = dino;
					queue[(*qtail)++] = ino;
				}
			}
			pos += rec_len;
		}
	}
	if (d->size < EXOFS_DIR_CHUNK)
		error("%s: empty", what);
	qsort(names, nnames, sizeof(*names), name_cmp);
	for (i = 1; i < nnames; i++)
		if (!strcmp(names[i - 1], names[i]))
			error("%s: name '%s' appears twice", what, names[i]);
	for (i = 0; i < nnames; i++)
		free(names[i]);
	free(names);
out:
	free(buf);
	exofs_obj_close(&o);
}

static void check_inode_data(struct fsck *f, uint64_t ino)
{
	struct ino_state *s = &f->ino[ino];
	struct exofs_obj o;
	char what[64];
	int err;

	snprintf(what, sizeof(what), "inode %llu", (unsigned long long)ino);
	if (!(s->flags & EXOFS_INODE_FL_OBJECT))
		return;
	check_components(f, EXOFS_INO_OID(ino), what, s->size, s->made);
	if (S_ISDIR(s->mode))
		return;		/* checked by the walk */
	err = fsck_obj_open(f, EXOFS_INO_OID(ino), s->made, &o);
	if (err) {
		error("%s: cannot open its object: %s", what, strerror(-err));
		return;
	}
	if (check_data || S_ISLNK(s->mode))
		check_csums(f, &o, what);
	if (S_ISLNK(s->mode)) {
		char *t = malloc(s->size + 1);

		if (!t || ore_user_read(&o.obj, 0, t, s->size))
			error("%s: cannot read its symlink target", what);
		else if (strnlen(t, s->size) != s->size)
			error("%s: symlink target contains a NUL", what);
		free(t);
	}
	if (check_data || S_ISLNK(s->mode))
		check_parity(f, &o, s->size, what);
	exofs_obj_close(&o);
}

/*
 * The side file @name of object @oid in store @dir: only with data
 * checksums, a regular file, of a striped object this store holds (the
 * side files of leaked objects go with them).
 */
static void check_side_file(struct fsck *f, const char *dir, const char *name,
			    uint64_t oid)
{
	char path[4096];
	struct stat s;

	if (!f->csum) {
		warning("store %s: side file %s on a filesystem without data checksums (no CSUM feature)",
			dir, name);
		return;
	}
	if (oid == EXOFS_SUPER_OID || oid == EXOFS_INTENT_OID) {
		warning("store %s: side file %s of a per-store object (they have none)",
			dir, name);
		return;
	}
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (lstat(path, &s)) {
		error("store %s: side file %s: %s", dir, name, strerror(errno));
		return;
	}
	if (!S_ISREG(s.st_mode)) {
		error("store %s: side file %s is not a regular file (mode %o)",
		      dir, name, (unsigned int)s.st_mode);
		return;
	}
	ore_user_store_path(path, sizeof(path), dir, oid);
	if (lstat(path, &s) && errno == ENOENT)
		warning("store %s: side file %s of no object (orphan)", dir,
			name);
}

/*
 * The head (extended attribute ORE_FILE_CSUM_XATTR) of the object file
 * @name of object @oid in store @dir: only with data checksums kept in
 * heads (not with CSUM_SIDE: the kernel and pNFS clients would not read
 * it), never of a per-store object (whether it is well formed,
 * check_csums() sees).
 */
static void check_head_place(struct fsck *f, const char *dir,
			     const char *name, uint64_t oid)
{
	char path[4096];

	if (f->csum && !f->st.csum_side && oid != EXOFS_SUPER_OID &&
	    oid != EXOFS_INTENT_OID)
		return;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	/* none, or none possible (not a regular file, no user xattrs) */
	if (lgetxattr(path, ORE_FILE_CSUM_XATTR, NULL, 0) < 0)
		return;
	if (!f->csum)
		warning("store %s: object %s has a checksum head (extended attribute " ORE_FILE_CSUM_XATTR ") on a filesystem without data checksums (no CSUM feature)",
			dir, name);
	else if (oid != EXOFS_SUPER_OID && oid != EXOFS_INTENT_OID)
		error("store %s: object %s has a checksum head (extended attribute " ORE_FILE_CSUM_XATTR ") on a filesystem that keeps its checksums in side files only (CSUM_SIDE): the kernel and pNFS clients do not read it",
		      dir, name);
	else
		warning("store %s: object %s has a checksum head (extended attribute " ORE_FILE_CSUM_XATTR "), a per-store object (they have none)",
			dir, name);
}

/* Objects in the stores that no inode owns; their side files and heads. */
static void check_leaked_objects(struct fsck *f)
{
	uint32_t i;

	for (i = 0; i < f->st.n; i++) {
		const char *dir = f->st.dirs[i];
		struct dirent *de;
		DIR *d;

		progress(4, i, f->st.n);
		if (!dir)
			continue;
		d = opendir(dir);
		if (!d) {
			error("store %s: %s", dir, strerror(errno));
			continue;
		}
		while ((de = readdir(d))) {
			char *end, side[32];
			unsigned long long oid = strtoull(de->d_name, &end, 16);
			uint64_t ino;

			if (end == de->d_name)
				continue;
			/* "<oid>.csum", with the oid as the store names it */
			snprintf(side, sizeof(side),
				 "%llx" ORE_FILE_CSUM_SUFFIX, oid);
			if (!strcmp(de->d_name, side)) {
				check_side_file(f, dir, de->d_name, oid);
				continue;
			}
			if (*end)
				continue;
			check_head_place(f, dir, de->d_name, oid);
			if (oid == EXOFS_SUPER_OID || oid == EXOFS_ITABLE_OID ||
			    oid == EXOFS_IBITMAP_OID || oid == EXOFS_INTENT_OID)
				continue;
			if (oid < EXOFS_INO_OID_BASE) {
				warning("store %s: unknown object %s", dir,
					de->d_name);
				continue;
			}
			ino = oid - EXOFS_INO_OID_BASE;
			if (ino >= f->nino || !f->ino[ino].valid ||
			    !(f->ino[ino].flags & EXOFS_INODE_FL_OBJECT))
				warning("store %s: object %s belongs to no inode (leaked)",
					dir, de->d_name);
		}
		closedir(d);
	}
	progress(4, f->st.n, f->st.n);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "verbose", no_argument, NULL, 'v' },
		{ "strict", no_argument, NULL, 's' },
		{ "no-data", no_argument, NULL, 'D' },
		{ "repair", no_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	char mnt[PATH_MAX];
	struct fsck f;
	char *end;
	long fd;
	uint64_t *queue, qhead = 0, qtail = 0, ino, walked = 0;
	char **dirs;
	uint32_t n, i;
	int c, no_write = 0;

	while ((c = getopt_long(argc, argv, "vsDhnrC:", opts, NULL)) != -1) {
		switch (c) {
		case 'v': verbose = 1; break;
		case 's': strict = 1; break;
		case 'D': check_data = 0; break;
		case 'n': no_write = 1; break;
		case 'r': repair = 1; break;
		case 'C':
			errno = 0;
			fd = strtol(optarg, &end, 10);
			if (errno || end == optarg || *end || fd < 0 ||
			    fd > INT_MAX) {
				fprintf(stderr, PROG ": -C %s: not a file descriptor number\n",
					optarg);
				return 8;
			}
			if (fd > 0 && fcntl((int)fd, F_GETFL) < 0) {
				fprintf(stderr, PROG ": -C %ld: file descriptor %ld is not open: %s\n",
					fd, fd, strerror(errno));
				return 8;
			}
			if (fd > 0 &&
			    (fcntl((int)fd, F_GETFL) & O_ACCMODE) == O_RDONLY) {
				fprintf(stderr, PROG ": -C %ld: file descriptor %ld is not open for writing\n",
					fd, fd);
				return 8;
			}
			progress_fd = (int)fd;
			if (fd > 0)	/* a reader gone stops progress only */
				signal(SIGPIPE, SIG_IGN);
			progress_tty = !fd && isatty(STDOUT_FILENO);
			break;
		case 'h':
			printf("usage: " PROG " [-v] [--strict] [--no-data] [--repair | -n] [-C FD] STORE_DIR|missing...\n");
			return 0;
		default:
			return 8;
		}
	}
	if (repair && no_write) {
		fprintf(stderr, PROG ": --repair and -n (write nothing) exclude each other\n");
		return 8;
	}
	n = (uint32_t)(argc - optind);
	if (!n) {
		fprintf(stderr, PROG ": no stores given\n");
		return 8;
	}
	dirs = calloc(n, sizeof(*dirs));
	for (i = 0; i < n; i++) {
		const char *a = argv[optind + i];

		dirs[i] = (!*a || !strcmp(a, "missing")) ? NULL : (char *)a;
	}
	progress_dev = dirs[0] ? dirs[0] : "missing";
	memset(&f, 0, sizeof(f));
	if (mounted_on(dirs, n, mnt, sizeof(mnt))) {
		if (repair) {
			fprintf(stderr, PROG ": the filesystem is mounted on %s: --repair refused\n",
				mnt);
			return 8;
		}
		warning("the filesystem is mounted on %s: what is checked may change meanwhile",
			mnt);
	}
	if (check_superblocks(&f, dirs, n))
		goto done;
	check_intent(&f);
	if (check_tables(&f))
		goto done;

	/* Walk the tree from the root. */
	queue = calloc(f.nino, sizeof(*queue));
	f.ino[EXOFS_ROOT_INO].parent = EXOFS_ROOT_INO;
	queue[qtail++] = EXOFS_ROOT_INO;
	progress(2, 0, f.n_valid_dirs);
	while (qhead < qtail) {
		uint64_t d = queue[qhead++];

		if (f.ino[d].seen_dir)
			continue;
		f.ino[d].seen_dir = 1;
		check_dir(&f, d, queue, &qtail);
		progress(2, ++walked, f.n_valid_dirs);
	}
	free(queue);
	/* directories no walk reaches are orphans, reported in pass 3 */
	progress(2, f.n_valid_dirs, f.n_valid_dirs);

	for (ino = EXOFS_ROOT_INO; ino < f.nino; ino++) {
		struct ino_state *s = &f.ino[ino];

		progress(3, ino - EXOFS_ROOT_INO, f.nino - EXOFS_ROOT_INO);
		if (!s->valid)
			continue;
		if (ino != EXOFS_ROOT_INO && !s->refs) {
			warning("inode %llu (mode %o) is in use but no directory names it (orphan)",
				(unsigned long long)ino, s->mode);
		} else if (S_ISDIR(s->mode)) {
			if (ino != EXOFS_ROOT_INO && s->refs != 1)
				error("directory %llu is named %u times",
				      (unsigned long long)ino, s->refs);
			if (s->links != 2 + s->subdirs)
				error("directory %llu: i_links_count %u, expected %u",
				      (unsigned long long)ino, s->links,
				      2 + s->subdirs);
		} else if (s->links != s->refs) {
			error("inode %llu: i_links_count %u, named by %u entries",
			      (unsigned long long)ino, s->links, s->refs);
		}
		switch (s->mode & S_IFMT) {
		case S_IFDIR: f.n_dirs++; break;
		case S_IFREG: f.n_files++; f.bytes += s->size; break;
		case S_IFLNK: f.n_symlinks++; break;
		default: f.n_special++;
		}
		check_inode_data(&f, ino);
	}
	progress(3, f.nino - EXOFS_ROOT_INO, f.nino - EXOFS_ROOT_INO);
	check_leaked_objects(&f);
	progress_clear();
	if (f.csum)
		printf(PROG ": data checksums: %llu blocks verified, %llu did not match%s\n",
		       (unsigned long long)f.csum_blocks,
		       (unsigned long long)f.csum_bad,
		       f.csum_repaired ? " (some rebuilt)" : "");
done:
	printf(PROG ": %llu directories, %llu files (%llu bytes), %llu symlinks, %llu special; %lu errors, %lu warnings%s%s\n",
	       (unsigned long long)f.n_dirs, (unsigned long long)f.n_files,
	       (unsigned long long)f.bytes, (unsigned long long)f.n_symlinks,
	       (unsigned long long)f.n_special, n_errors, n_warnings,
	       n_repaired ? ", some repaired" : "",
	       f.degraded ? " (degraded: some stores not checked)" : "");
	if (n_repaired)
		printf(PROG ": %lu objects repaired\n", n_repaired);
	if (n_notes)
		printf(PROG ": %lu notes: what a crash left in the regions of the intent record, which the next mount repairs\n",
		       n_notes);
	free(f.flight);
	if (n_errors || (strict && n_warnings))
		return 4;
	return n_repaired ? 1 : 0;
}
