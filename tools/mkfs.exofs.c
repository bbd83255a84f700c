// SPDX-License-Identifier: GPL-2.0
/*
 * mkfs.exofs - make an exofs filesystem over file stores.
 *
 *   mkfs.exofs [options] STORE_DIR...
 *   mkfs.exofs --replace INDEX --uuid FS_UUID [-f] [-q] STORE_DIR
 *
 * The stores are given in device-table order (the order `mount -o
 * stores=` must name them in). What is written is docs/exofs-format.md's
 * "What mkfs.exofs writes": the striped inode table, inode bitmap and root
 * directory through ore_user (ORE's placement, parity and mirrors; with
 * data checksums, the entries of each component: those of its first 16
 * blocks in its head, the extended attribute "user.ore.csum" of its file,
 * the others in its "<oid>.csum" side file; mkfs writes no block past the
 * head), then one superblock with the device table per store (last, so an
 * interrupted mkfs leaves no valid filesystem behind).
 *
 * With --replace, STORE_DIR becomes a replacement for store INDEX of the
 * filesystem FS_UUID: it gets the stub superblock of
 * include/exofs/exofs_fs.h (EXOFS_STATE_REPLACEMENT) with a new store
 * UUID, and nothing else; the kernel takes it in (sysfs replace) and
 * rebuilds it (exofs/rebuild.c).
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <stddef.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "exofs_user.h"

#define PROG	"mkfs.exofs"

enum { O_RAID = 256, O_SU, O_GW, O_GD, O_GC, O_MIRRORS, O_MAXINO, O_LAZY,
       O_ALL_COMPS, O_REPLACE, O_POLICY, O_CSUM, O_CSUM_HEADS };

static void usage(FILE *f)
{
	fprintf(f,
"usage: " PROG " [options] STORE_DIR...\n"
"       " PROG " --replace INDEX --uuid FS_UUID [-f] [-q] STORE_DIR\n"
"\n"
"Make an exofs filesystem over the object stores STORE_DIR... (directories,\n"
"normally one per disk), given in device-table order. With --replace, make\n"
"STORE_DIR (empty) a replacement for failed store INDEX of filesystem\n"
"FS_UUID; the mounted filesystem takes it in and rebuilds it when\n"
"\"INDEX STORE_DIR\" is written to /sys/fs/exofs/FS_UUID/replace.\n"
"\n"
"  --raid 0|1|4|5|6       RAID level (default 0); 1 is RAID0 with 2 mirrors\n"
"                         unless --mirrors says otherwise\n"
"  --stripe-unit BYTES    stripe unit, multiple of 4096, K/M suffixes\n"
"                         (default 64K)\n"
"  --group-width N        components per group, parity included (default:\n"
"                         stores / (mirrors * group count))\n"
"  --group-depth N        stripe units per component before the next group\n"
"                         (default 1)\n"
"  --group-count N        groups (default: stores / (group width * mirrors))\n"
"  --mirrors N            copies of each component, mirrors_p1 (default 1,\n"
"                         2 with --raid 1)\n"
"  --max-inodes N         inode numbers below N (default 16777216)\n"
"  --lazy-components      make component objects by their first write, as\n"
"                         images before the COMPONENTS feature (a missing\n"
"                         component then reads as zeros: not recommended)\n"
"  --all-components       make every component object with its object, as\n"
"                         images before the SIZED feature (by default only\n"
"                         the components a file's size reaches exist, and\n"
"                         a missing one of those is lost)\n"
"  --consistency-policy intent|none\n"
"                         intent (the default with parity or mirrors):\n"
"                         the stores record the regions with writes in\n"
"                         flight and a mount after a crash repairs their\n"
"                         parity (the RAID5/6 write hole closed); none: no\n"
"                         record, no repair\n"
"  --checksum xxh64|crc32c|none\n"
"                         data checksums: keep a checksum of every 4096\n"
"                         bytes of the striped objects beside them, which\n"
"                         reads verify (a block that fails is rebuilt from\n"
"                         the redundancy); xxh64 (the default with the\n"
"                         intent policy, the faster) or crc32c; needs the\n"
"                         intent policy\n"
"  --checksum-heads yes|no\n"
"                         yes (the default): the checksums of the first 64\n"
"                         KiB of each component in an extended attribute\n"
"                         of its file (no side file for small files); no:\n"
"                         every checksum in side files, what pNFS clients\n"
"                         (NFSv3 data servers, no extended attributes) can\n"
"                         keep: needed for the objects layout with checksums\n"
"  --replace INDEX        make a replacement store for store INDEX (needs\n"
"                         --uuid; no layout options)\n"
"  -L, --label LABEL      volume label (up to 32 bytes)\n"
"  -U, --uuid UUID        filesystem UUID (default random)\n"
"  -f, --force            overwrite stores that are not empty (their exofs\n"
"                         objects are removed first)\n"
"  -q, --quiet            print nothing but errors\n"
"  -h, --help             this text\n"
"\n"
"Exit status: 0 on success, 1 on any error (the reason goes to stderr).\n");
}

static int parse_u32(const char *opt, const char *s, uint32_t *v, int suffix)
{
	unsigned long long x;
	uint64_t size;
	char *end;
	int bad;

	if (suffix) {
		bad = ore_user_parse_size(s, &size) || size > 0xffffffffull;
		x = size;
	} else {
		errno = 0;
		x = strtoull(s, &end, 0);
		bad = errno || end == s || *end || x > 0xffffffffull ||
		      s[0] == '-';
	}
	if (bad) {
		fprintf(stderr, PROG ": %s: '%s' is not a valid number\n", opt, s);
		return -1;
	}
	*v = (uint32_t)x;
	return 0;
}

static int parse_uuid(const char *s, uint8_t *u)
{
	int i = 0;

	while (*s && i < EXOFS_UUID_SIZE) {
		if (*s == '-') {
			s++;
			continue;
		}
		if (!isxdigit((unsigned char)s[0]) ||
		    !isxdigit((unsigned char)s[1]))
			return -1;
		sscanf(s, "%2hhx", &u[i++]);
		s += 2;
	}
	return (*s || i != EXOFS_UUID_SIZE) ? -1 : 0;
}

static int random_bytes(void *buf, size_t n)
{
	uint8_t *p = buf;

	while (n) {
		ssize_t r = getrandom(p, n, 0);

		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += r;
		n -= (size_t)r;
	}
	return 0;
}

/*
 * An object's file ("<oid in lowercase hex>") or its checksum side file
 * ("<oid>.csum", ORE_FILE_CSUM_SUFFIX): what -f removes.
 */
static int is_object_name(const char *name)
{
	size_t len = strlen(name), sfx = strlen(ORE_FILE_CSUM_SUFFIX);
	size_t i;

	if (len > sfx && !strcmp(name + len - sfx, ORE_FILE_CSUM_SUFFIX))
		len -= sfx;
	if (!len || len > 16)
		return 0;
	for (i = 0; i < len; i++)
		if (!isxdigit((unsigned char)name[i]) ||
		    isupper((unsigned char)name[i]))
			return 0;
	return name[0] != '0' || len == 1;
}

/*
 * Look at store @dir: returns the number of entries that are neither
 * "lost+found" nor "."/"..", how many of them are objects or their side
 * files (what -f removes) and whether it holds a valid exofs superblock
 * (its UUID in @uuid).
 */
static int store_contents(const char *dir, int *has_exofs, uint8_t *uuid,
			  int *n_objects)
{
	char path[4096];
	uint8_t sb[EXOFS_SB_SIZE];
	struct ore_layout l;
	const char *why;
	struct dirent *de;
	int fd, n = 0;
	DIR *d;

	*has_exofs = 0;
	*n_objects = 0;
	d = opendir(dir);
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..") ||
		    !strcmp(de->d_name, "lost+found"))
			continue;
		n++;
		if (is_object_name(de->d_name))
			(*n_objects)++;
	}
	closedir(d);
	ore_user_store_path(path, sizeof(path), dir, EXOFS_SUPER_OID);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		if (pread(fd, sb, sizeof(sb), 0) == (ssize_t)sizeof(sb) &&
		    !exofs_sb_check(sb, &l, &why)) {
			*has_exofs = 1;
			memcpy(uuid, ((struct exofs_fsb *)sb)->s_uuid,
			       EXOFS_UUID_SIZE);
		}
		close(fd);
	}
	return n;
}

/*
 * Progress of the -f removal, the one step whose time grows with the
 * stores (writing the sparse inode table does not): a line on stdout,
 * rewritten in place, only when it is a tty and not -q.
 */
static int show_progress;
static uint64_t removed, to_remove, removed_pm = ~0ULL;

static void removal_progress(void)
{
	uint64_t pm = to_remove ? removed * 1000 / to_remove : 1000;

	if (!show_progress || pm == removed_pm)
		return;
	removed_pm = pm;
	printf("\r\033[Kremoving old objects: %3llu.%llu%% (%llu/%llu)",
	       (unsigned long long)(pm / 10), (unsigned long long)(pm % 10),
	       (unsigned long long)removed, (unsigned long long)to_remove);
	fflush(stdout);
}

/* Remove the object files and their side files of store @dir (mkfs -f). */
static int clear_store(const char *dir)
{
	char path[4096];
	struct dirent *de;
	int err = 0;
	DIR *d;

	d = opendir(dir);
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		if (!is_object_name(de->d_name))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (unlink(path) && errno != ENOENT) {
			err = -errno;
			fprintf(stderr, PROG ": cannot remove %s: %s\n", path,
				strerror(errno));
			break;
		}
		if (removed < to_remove)
			removed++;
		removal_progress();
	}
	closedir(d);
	return err;
}

/*
 * Write @len bytes at @off of striped object @oid, creating it; with
 * st->csum_type the heads (and side files) get the entries of the blocks
 * written (exofs_obj_open()).
 */
static int write_striped(const struct exofs_stores *st, uint64_t oid,
			 uint64_t off, const void *buf, size_t len)
{
	struct exofs_obj o;
	int err;

	err = exofs_obj_open(st, oid, O_RDWR | O_CREAT | O_TRUNC, &o);
	if (err) {
		fprintf(stderr, PROG ": cannot create object 0x%llx: %s\n",
			(unsigned long long)oid, strerror(-err));
		return err;
	}
	err = ore_user_write(&o.obj, off, buf, len);
	if (err)
		fprintf(stderr, PROG ": writing object 0x%llx offset %llu: %s (component %d)\n",
			(unsigned long long)oid, (unsigned long long)off,
			strerror(-err), o.obj.err_comp);
	if (!err) {
		err = exofs_obj_sync(&o);
		if (err)
			fprintf(stderr, PROG ": fsync of object 0x%llx: %s\n",
				(unsigned long long)oid, strerror(-err));
	}
	exofs_obj_close(&o);
	return err;
}

static void put_dirent(uint8_t *chunk, unsigned int off, uint64_t ino,
		       unsigned int rec_len, const char *name,
		       unsigned int type)
{
	struct exofs_dir_entry *de = (void *)(chunk + off);

	de->inode = htole64(ino);
	de->rec_len = htole16((uint16_t)rec_len);
	de->name_len = (uint8_t)strlen(name);
	de->file_type = (uint8_t)type;
	memcpy(de->name, name, strlen(name));
}

static int sync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC), err = 0;

	if (fd < 0)
		return -errno;
	if (fsync(fd))
		err = -errno;
	close(fd);
	return err;
}

/* What the command line asks for. */
struct mkfs_opts {
	uint32_t raid, su, gw, gd, gc, mirrors, max_ino;
	const char *label;
	uint8_t fs_uuid[EXOFS_UUID_SIZE];
	int force, quiet, have_uuid, lazy, all_comps, layout_opts;
	int policy;		/* -1 default, 0 none, 1 intent */
	int csum;		/* -1 default, 0 none, else ORE_CSUM_* */
	int csum_heads;		/* 1 (default) or 0: CSUM_SIDE */
	int64_t replace;	/* --replace INDEX, or -1 */
};

/* Check one option's value; 0, or 1 after saying what is wrong. */
static int check_option(int c, struct mkfs_opts *o)
{
	switch (c) {
	case O_RAID:
		if (o->raid != 0 && o->raid != 1 && o->raid != 4 &&
		    o->raid != 5 && o->raid != 6) {
			fprintf(stderr, PROG ": --raid: %u is not 0, 1, 4, 5 or 6\n",
				o->raid);
			return 1;
		}
		break;
	case O_GW:
		if (!o->gw) {
			fprintf(stderr, PROG ": --group-width must not be 0\n");
			return 1;
		}
		break;
	case O_GC:
		if (!o->gc) {
			fprintf(stderr, PROG ": --group-count must not be 0\n");
			return 1;
		}
		break;
	case O_MIRRORS:
		if (!o->mirrors) {
			fprintf(stderr, PROG ": --mirrors must not be 0 (it counts copies: 1 = no mirroring)\n");
			return 1;
		}
		break;
	case O_MAXINO:
		if (o->max_ino <= EXOFS_FIRST_INO) {
			fprintf(stderr, PROG ": --max-inodes must be above %d\n",
				EXOFS_FIRST_INO);
			return 1;
		}
		break;
	}
	return 0;
}

/*
 * Parse the options into @o. Returns the index of the first store
 * argument, or -1 to exit 1 (the error said), or -2 to exit 0 (--help).
 */
static int parse_options(int argc, char **argv, struct mkfs_opts *o)
{
	static const struct option opts[] = {
		{ "raid", required_argument, NULL, O_RAID },
		{ "stripe-unit", required_argument, NULL, O_SU },
		{ "group-width", required_argument, NULL, O_GW },
		{ "group-depth", required_argument, NULL, O_GD },
		{ "group-count", required_argument, NULL, O_GC },
		{ "mirrors", required_argument, NULL, O_MIRRORS },
		{ "max-inodes", required_argument, NULL, O_MAXINO },
		{ "lazy-components", no_argument, NULL, O_LAZY },
		{ "all-components", no_argument, NULL, O_ALL_COMPS },
		{ "replace", required_argument, NULL, O_REPLACE },
		{ "consistency-policy", required_argument, NULL, O_POLICY },
		{ "checksum", required_argument, NULL, O_CSUM },
		{ "checksum-heads", required_argument, NULL, O_CSUM_HEADS },
		{ "label", required_argument, NULL, 'L' },
		{ "uuid", required_argument, NULL, 'U' },
		{ "force", no_argument, NULL, 'f' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static const struct {
		int opt, suffix;
		const char *name;
		size_t field;
	} nums[] = {
		{ O_RAID, 0, "--raid", offsetof(struct mkfs_opts, raid) },
		{ O_SU, 1, "--stripe-unit", offsetof(struct mkfs_opts, su) },
		{ O_GW, 0, "--group-width", offsetof(struct mkfs_opts, gw) },
		{ O_GD, 0, "--group-depth", offsetof(struct mkfs_opts, gd) },
		{ O_GC, 0, "--group-count", offsetof(struct mkfs_opts, gc) },
		{ O_MIRRORS, 0, "--mirrors",
		  offsetof(struct mkfs_opts, mirrors) },
		{ O_MAXINO, 0, "--max-inodes",
		  offsetof(struct mkfs_opts, max_ino) },
	};
	unsigned int k;
	int c;

	while ((c = getopt_long(argc, argv, "L:U:fqh", opts, NULL)) != -1) {
		for (k = 0; k < sizeof(nums) / sizeof(nums[0]); k++)
			if (nums[k].opt == c)
				break;
		if (k < sizeof(nums) / sizeof(nums[0])) {
			uint32_t *v = (uint32_t *)((char *)o + nums[k].field);

			if (parse_u32(nums[k].name, optarg, v, nums[k].suffix) ||
			    check_option(c, o))
				return -1;
			o->layout_opts = 1;
			continue;
		}
		switch (c) {
		case O_LAZY:
			o->lazy = 1;
			o->layout_opts = 1;
			break;
		case O_ALL_COMPS:
			o->all_comps = 1;
			o->layout_opts = 1;
			break;
		case O_POLICY:
			if (!strcmp(optarg, "intent")) {
				o->policy = 1;
			} else if (!strcmp(optarg, "none")) {
				o->policy = 0;
			} else {
				fprintf(stderr, PROG ": --consistency-policy: '%s' is not intent or none\n",
					optarg);
				return -1;
			}
			o->layout_opts = 1;
			break;
		case O_CSUM:
			if (!strcmp(optarg, "xxh64")) {
				o->csum = ORE_CSUM_XXH64;
			} else if (!strcmp(optarg, "crc32c")) {
				o->csum = ORE_CSUM_CRC32C;
			} else if (!strcmp(optarg, "none")) {
				o->csum = 0;
			} else {
				fprintf(stderr, PROG ": --checksum: '%s' is not xxh64, crc32c or none\n",
					optarg);
				return -1;
			}
			o->layout_opts = 1;
			break;
		case O_CSUM_HEADS:
			if (!strcmp(optarg, "yes")) {
				o->csum_heads = 1;
			} else if (!strcmp(optarg, "no")) {
				o->csum_heads = 0;
			} else {
				fprintf(stderr, PROG ": --checksum-heads: '%s' is not yes or no\n",
					optarg);
				return -1;
			}
			o->layout_opts = 1;
			break;
		case O_REPLACE: {
			uint32_t idx;

			if (parse_u32("--replace", optarg, &idx, 0))
				return -1;
			if (idx >= EXOFS_MAX_STORES) {
				fprintf(stderr, PROG ": --replace: store %u is beyond the %d stores a filesystem can have\n",
					idx, EXOFS_MAX_STORES);
				return -1;
			}
			o->replace = idx;
			break;
		}
		case 'L':
			if (strlen(optarg) > EXOFS_LABEL_SIZE) {
				fprintf(stderr, PROG ": label '%s' is longer than %d bytes\n",
					optarg, EXOFS_LABEL_SIZE);
				return -1;
			}
			o->label = optarg;
			break;
		case 'U':
			if (parse_uuid(optarg, o->fs_uuid)) {
				fprintf(stderr, PROG ": '%s' is not a UUID\n", optarg);
				return -1;
			}
			o->have_uuid = 1;
			break;
		case 'f':
			o->force = 1;
			break;
		case 'q':
			o->quiet = 1;
			break;
		case 'h':
			usage(stdout);
			return -2;
		default:
			usage(stderr);
			return -1;
		}
	}
	if (o->lazy && o->all_comps) {
		fprintf(stderr, PROG ": --lazy-components and --all-components exclude each other: lazy components are made by their first write, all components with their object\n");
		return -1;
	}
	return optind;
}

/* The stores: writable directories, each given once. */
static int check_store_dirs(const struct exofs_stores *st)
{
	struct stat *sts;
	uint32_t i, j;
	int err = 1;

	sts = calloc(st->n, sizeof(*sts));
	if (!sts) {
		fprintf(stderr, PROG ": out of memory\n");
		return 1;
	}
	for (i = 0; i < st->n; i++) {
		if (stat(st->dirs[i], &sts[i])) {
			fprintf(stderr, PROG ": store %s: %s\n", st->dirs[i],
				strerror(errno));
			goto out;
		}
		if (!S_ISDIR(sts[i].st_mode)) {
			fprintf(stderr, PROG ": store %s is not a directory\n",
				st->dirs[i]);
			goto out;
		}
		if (access(st->dirs[i], W_OK | X_OK)) {
			fprintf(stderr, PROG ": store %s is not writable: %s\n",
				st->dirs[i], strerror(errno));
			goto out;
		}
		for (j = 0; j < i; j++)
			if (sts[i].st_dev == sts[j].st_dev &&
			    sts[i].st_ino == sts[j].st_ino) {
				fprintf(stderr, PROG ": store %s is given twice (as store %u and store %u, %s)\n",
					st->dirs[i], j, i, st->dirs[j]);
				goto out;
			}
	}
	err = 0;
out:
	free(sts);
	return err;
}

/* Does the filesystem get the intent record (EXOFS_FEATURE_RO_COMPAT_INTENT)? */
static int mkfs_intent(const struct mkfs_opts *o, const struct exofs_stores *st)
{
	int redundant = st->layout.parity || st->layout.mirrors_p1 > 1;

	return o->policy < 0 ? redundant : o->policy;
}

/*
 * Does it get data checksums (EXOFS_FEATURE_RO_COMPAT_CSUM), of which type
 * (s_csum_type)? 0 for none. By default XXH64 whenever it gets the intent
 * record, which they need: under QEMU TCG, where this project measures,
 * the kernel's crc32c() is emulated at ~150 MB/s, xxh64() runs at ~4.6
 * GB/s (as oreblk's default).
 */
static uint32_t mkfs_csum(const struct mkfs_opts *o,
			  const struct exofs_stores *st)
{
	if (o->csum < 0)
		return mkfs_intent(o, st) ? ORE_CSUM_XXH64 : 0;
	return (uint32_t)o->csum;
}

/* The layout from the options and the number of stores. */
static int build_layout(struct mkfs_opts *o, struct exofs_stores *st)
{
	struct ore_layout *l = &st->layout;
	uint32_t n = st->n, gw = o->gw, gc = o->gc;
	const char *why;

	if (!o->mirrors)
		o->mirrors = o->raid == 1 ? 2 : 1;
	memset(l, 0, sizeof(*l));
	l->raid_algorithm = o->raid == 1 ? ORE_RAID0 : o->raid;
	l->stripe_unit = o->su;
	l->mirrors_p1 = o->mirrors;
	l->group_depth = o->gd;
	if (!gw)
		gw = n / (o->mirrors * (gc ? gc : 1));
	if (!gc)	/* too wide a group: let ore_layout_check say so */
		gc = gw && n >= gw * o->mirrors ? n / (gw * o->mirrors) : 1;
	l->group_width = gw;
	l->group_count = gc;
	if (ore_layout_check(l, n, &why)) {
		fprintf(stderr, PROG ": invalid layout for %u stores (raid %u, stripe_unit %u, group_width %u, group_depth %u, group_count %u, mirrors %u): %s\n",
			n, o->raid, o->su, gw, o->gd, gc, o->mirrors, why);
		return 1;
	}
	if (o->policy > 0 && !l->parity && l->mirrors_p1 < 2) {
		fprintf(stderr, PROG ": --consistency-policy intent needs parity or mirrors: a RAID0 layout has no redundancy to keep consistent\n");
		return 1;
	}
	/* a crash cuts writes: the mount restamps what the record names */
	if (o->csum > 0 && !mkfs_intent(o, st)) {
		fprintf(stderr, PROG ": --checksum %s: checksums need the intent record (the mount restamps the blocks a crash cut writes in), %s\n",
			ore_user_csum_name((uint32_t)o->csum),
			o->policy == 0 ?
			"which --consistency-policy none turns off" :
			"which a layout without parity or mirrors does not have");
		return 1;
	}
	st->csum_type = mkfs_csum(o, st);
	if (!o->csum_heads && !st->csum_type) {
		fprintf(stderr, PROG ": --checksum-heads no: the filesystem keeps no data checksums\n");
		return 1;
	}
	st->csum_side = !o->csum_heads;
	return 0;
}

/* What the stores hold now: refused, or (-f) their objects removed. */
static int empty_stores(const struct mkfs_opts *o,
			const struct exofs_stores *st)
{
	char ustr[37];
	uint32_t i;

	for (i = 0; i < st->n; i++) {
		uint8_t old[EXOFS_UUID_SIZE];
		int has_exofs, nobj, ent;

		ent = store_contents(st->dirs[i], &has_exofs, old, &nobj);
		if (ent < 0) {
			fprintf(stderr, PROG ": store %s: %s\n", st->dirs[i],
				strerror(-ent));
			return 1;
		}
		if (!ent)
			continue;
		exofs_uuid_str(old, ustr);
		if (!o->force) {
			if (has_exofs)
				fprintf(stderr, PROG ": store %s holds an exofs filesystem (uuid %s); use -f to overwrite it\n",
					st->dirs[i], ustr);
			else
				fprintf(stderr, PROG ": store %s is not empty (%d entries); use -f to overwrite\n",
					st->dirs[i], ent);
			return 1;
		}
		to_remove += nobj;
		if (!o->quiet && nobj != ent)
			fprintf(stderr, PROG ": warning: store %s holds %d entries that are not objects; left alone\n",
				st->dirs[i], ent - nobj);
	}
	if (!o->force)
		return 0;
	show_progress = !o->quiet && to_remove && isatty(STDOUT_FILENO);
	removal_progress();
	for (i = 0; i < st->n; i++)
		if (clear_store(st->dirs[i])) {
			if (show_progress)
				printf("\n");
			return 1;
		}
	if (show_progress)
		printf("\r\033[K");
	return 0;
}

/* A random RFC 4122 version 4 UUID. */
static int random_uuid(uint8_t *u)
{
	if (random_bytes(u, EXOFS_UUID_SIZE)) {
		fprintf(stderr, PROG ": getrandom: %s\n", strerror(errno));
		return 1;
	}
	u[6] = (u[6] & 0x0f) | 0x40;
	u[8] = (u[8] & 0x3f) | 0x80;
	return 0;
}

/* The filesystem's UUID (unless given) and one per store, distinct. */
static int make_uuids(struct mkfs_opts *o, uint32_t n,
		      uint8_t (*store_uuid)[EXOFS_UUID_SIZE])
{
	uint32_t i, j;

	if (!o->have_uuid && random_uuid(o->fs_uuid))
		return 1;
	for (i = 0; i < n; i++) {
		int again;

		do {
			again = 0;
			if (random_uuid(store_uuid[i]))
				return 1;
			for (j = 0; j < i; j++)
				if (!memcmp(store_uuid[i], store_uuid[j],
					    EXOFS_UUID_SIZE))
					again = 1;
		} while (again);
	}
	return 0;
}

/*
 * Striped objects: the root's record, its bitmap bit, its directory. With
 * sized components (@sized) the record's i_made is its size: mkfs writes
 * every component of it, and those the size reaches must be there.
 */
static int write_root(const struct exofs_stores *st,
		      const struct timespec *now, int sized)
{
	struct exofs_inode root;
	uint8_t chunk[EXOFS_DIR_CHUNK], bitmap = 0x03;
	uint32_t gen;

	memset(&root, 0, sizeof(root));
	random_bytes(&gen, sizeof(gen));
	root.i_mode = htole16(040755);
	root.i_links_count = htole32(2);
	root.i_size = htole64(EXOFS_DIR_CHUNK);
	root.i_atime = root.i_mtime = root.i_ctime = root.i_crtime =
		htole64((uint64_t)now->tv_sec);
	root.i_atime_nsec = root.i_mtime_nsec = root.i_ctime_nsec =
		root.i_crtime_nsec = htole32((uint32_t)now->tv_nsec);
	root.i_generation = htole32(gen);
	root.i_flags = htole32(EXOFS_INODE_FL_OBJECT);
	root.i_ino = htole64(EXOFS_ROOT_INO);
	if (sized)
		root.i_made = htole64(EXOFS_DIR_CHUNK);
	root.i_csum = htole32(exofs_inode_csum(&root));
	if (write_striped(st, EXOFS_ITABLE_OID,
			  EXOFS_ROOT_INO * EXOFS_INODE_SIZE, &root,
			  sizeof(root)))
		return 1;
	if (write_striped(st, EXOFS_IBITMAP_OID, 0, &bitmap, 1))
		return 1;
	memset(chunk, 0, sizeof(chunk));
	put_dirent(chunk, 0, EXOFS_ROOT_INO, EXOFS_DIR_REC_LEN(1), ".",
		   EXOFS_FT_DIR);
	put_dirent(chunk, EXOFS_DIR_REC_LEN(1), EXOFS_ROOT_INO,
		   EXOFS_DIR_CHUNK - EXOFS_DIR_REC_LEN(1), "..",
		   EXOFS_FT_DIR);
	return write_striped(st, EXOFS_INO_OID(EXOFS_ROOT_INO), 0, chunk,
			     sizeof(chunk)) ? 1 : 0;
}

/* Write @sb as the superblock object of store @dir, synced. */
static int write_sb_file(const char *dir, const uint8_t *sb, size_t len)
{
	char path[4096];
	int fd, err;

	ore_user_store_path(path, sizeof(path), dir, EXOFS_SUPER_OID);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0) {
		fprintf(stderr, PROG ": cannot create %s: %s\n", path,
			strerror(errno));
		return 1;
	}
	if (pwrite(fd, sb, len, 0) != (ssize_t)len || fsync(fd)) {
		fprintf(stderr, PROG ": cannot write %s: %s\n", path,
			strerror(errno));
		close(fd);
		return 1;
	}
	close(fd);
	err = sync_dir(dir);
	if (err) {
		fprintf(stderr, PROG ": fsync of store %s: %s\n", dir,
			strerror(-err));
		return 1;
	}
	return 0;
}

/*
 * The ro_compat features. COMPONENTS and, unless --all-components, SIZED
 * (the components of a file's object exist as far as its size reaches
 * them) but for --lazy-components; either way mkfs writes every component
 * of the inode table, the bitmap and the root directory.
 */
static uint32_t mkfs_ro_compat(const struct mkfs_opts *o,
			       const struct exofs_stores *st)
{
	uint32_t f = 0;

	if (!o->lazy)
		f |= EXOFS_FEATURE_RO_COMPAT_COMPONENTS;
	if (!o->lazy && !o->all_comps)
		f |= EXOFS_FEATURE_RO_COMPAT_SIZED;
	if (mkfs_intent(o, st))
		f |= EXOFS_FEATURE_RO_COMPAT_INTENT;
	if (mkfs_csum(o, st))
		f |= EXOFS_FEATURE_RO_COMPAT_CSUM;
	if (st->csum_side)
		f |= EXOFS_FEATURE_RO_COMPAT_CSUM_SIDE;
	return f;
}

/* Superblocks, one per store, last. */
static int write_superblocks(const struct mkfs_opts *o,
			     const struct exofs_stores *st,
			     uint8_t (*store_uuid)[EXOFS_UUID_SIZE],
			     const struct timespec *now)
{
	uint32_t i, j, n = st->n;
	const char *why;

	for (i = 0; i < n; i++) {
		uint8_t sb[EXOFS_SB_SIZE];
		struct exofs_fsb *fsb = (void *)sb;
		struct exofs_dev_entry *dt = (void *)(sb + EXOFS_DEVTABLE_OFFSET);

		memset(sb, 0, sizeof(sb));
		fsb->s_magic = htole64(EXOFS_SB_MAGIC);
		fsb->s_version = htole32(EXOFS_FORMAT_VERSION);
		fsb->s_sb_size = htole32(EXOFS_SB_SIZE);
		fsb->s_feature_ro_compat = htole32(mkfs_ro_compat(o, st));
		memcpy(fsb->s_uuid, o->fs_uuid, EXOFS_UUID_SIZE);
		strncpy(fsb->s_label, o->label, EXOFS_LABEL_SIZE);
		exofs_layout_to_disk(&st->layout, &fsb->s_layout);
		fsb->s_num_stores = htole32(n);
		fsb->s_event = htole64(1);
		fsb->s_state = htole32(EXOFS_STATE_CLEAN);
		fsb->s_inode_size = htole32(EXOFS_INODE_SIZE);
		fsb->s_dir_chunk = htole32(EXOFS_DIR_CHUNK);
		fsb->s_csum_type = htole32(mkfs_csum(o, st));
		fsb->s_root_ino = htole64(EXOFS_ROOT_INO);
		fsb->s_max_ino = htole64(o->max_ino);
		fsb->s_next_ino = htole64(EXOFS_FIRST_INO);
		fsb->s_used_inodes = htole64(2);
		fsb->s_mkfs_time = htole64((uint64_t)now->tv_sec);
		fsb->s_write_time = htole64((uint64_t)now->tv_sec);
		for (j = 0; j < n; j++) {
			memcpy(dt[j].uuid, store_uuid[j], EXOFS_UUID_SIZE);
			dt[j].index = htole32(j);
		}
		exofs_sb_set_store(sb, i);	/* index, store uuid, s_csum */
		if (exofs_sb_check(sb, &(struct ore_layout){ 0 }, &why)) {
			fprintf(stderr, PROG ": internal error: superblock fails its own check: %s\n",
				why);
			return 1;
		}
		if (write_sb_file(st->dirs[i], sb, sizeof(sb)))
			return 1;
	}
	return 0;
}

static void print_summary(const struct mkfs_opts *o,
			  const struct exofs_stores *st,
			  uint8_t (*store_uuid)[EXOFS_UUID_SIZE])
{
	const struct ore_layout *l = &st->layout;
	char ustr[37];
	uint32_t i;

	exofs_uuid_str(o->fs_uuid, ustr);
	printf("exofs: uuid %s, label \"%.*s\", %u stores, max inodes %u\n",
	       ustr, EXOFS_LABEL_SIZE, o->label, st->n, o->max_ino);
	printf("layout: %s stripe_unit %u group_width %u (%u data + %u parity) group_depth %u group_count %u mirrors_p1 %u\n",
	       ore_layout_raid_name(l->raid_algorithm, l->mirrors_p1),
	       l->stripe_unit, l->group_width,
	       l->data_width, l->parity, l->group_depth,
	       l->group_count, l->mirrors_p1);
	printf("layout: %u components per object over %u stores, %llu data bytes per stripe\n",
	       l->num_comps, st->n, (unsigned long long)l->stripe_length);
	printf("consistency policy: %s\n", mkfs_intent(o, st) ? "intent" : "none");
	printf("checksums: %s%s\n", ore_user_csum_name(mkfs_csum(o, st)),
	       st->csum_side ? " (side files only, no heads)" : "");
	printf("stores (device table order, mount -o stores= in this order):\n");
	for (i = 0; i < st->n; i++) {
		exofs_uuid_str(store_uuid[i], ustr);
		printf("  %u %s uuid %s\n", i, st->dirs[i], ustr);
	}
}

/*
 * mkfs.exofs --replace: STORE_DIR (the one argument) gets the stub
 * superblock of a replacement for store o->replace of filesystem
 * o->fs_uuid, with a new store UUID.
 */
static int make_replacement(struct mkfs_opts *o, int argc, char **argv,
			    int first)
{
	uint8_t sb[EXOFS_SB_SIZE], store_uuid[EXOFS_UUID_SIZE];
	struct exofs_fsb *fsb = (void *)sb;
	struct exofs_stores st;
	char ustr[37], fstr[37];
	const char *why;

	if (!o->have_uuid) {
		fprintf(stderr, PROG ": --replace needs --uuid: the UUID of the filesystem the store joins\n");
		return 1;
	}
	if (o->layout_opts || *o->label) {
		fprintf(stderr, PROG ": --replace takes no layout options and no label: the filesystem has them\n");
		return 1;
	}
	if (argc - first != 1) {
		fprintf(stderr, PROG ": --replace makes one store: give one STORE_DIR\n");
		return 1;
	}
	memset(&st, 0, sizeof(st));
	st.n = 1;
	st.dirs = (const char **)(argv + first);
	if (check_store_dirs(&st) || empty_stores(o, &st) ||
	    random_uuid(store_uuid))
		return 1;
	memset(sb, 0, sizeof(sb));
	fsb->s_magic = htole64(EXOFS_SB_MAGIC);
	fsb->s_version = htole32(EXOFS_FORMAT_VERSION);
	fsb->s_sb_size = htole32(EXOFS_SB_SIZE);
	memcpy(fsb->s_uuid, o->fs_uuid, EXOFS_UUID_SIZE);
	fsb->s_store_index = htole32((uint32_t)o->replace);
	memcpy(fsb->s_store_uuid, store_uuid, EXOFS_UUID_SIZE);
	fsb->s_state = htole32(EXOFS_STATE_REPLACEMENT);
	fsb->s_csum = htole32(exofs_sb_csum(sb));
	if (exofs_sb_replacement_check(sb, &why)) {
		fprintf(stderr, PROG ": internal error: replacement stub fails its own check: %s\n",
			why);
		return 1;
	}
	if (write_sb_file(st.dirs[0], sb, sizeof(sb)))
		return 1;
	if (!o->quiet) {
		exofs_uuid_str(o->fs_uuid, fstr);
		exofs_uuid_str(store_uuid, ustr);
		printf("exofs: %s is a replacement for store %lld of filesystem %s, store uuid %s\n",
		       st.dirs[0], (long long)o->replace, fstr, ustr);
		printf("take it in: echo '%lld %s' > /sys/fs/exofs/%s/replace\n",
		       (long long)o->replace, st.dirs[0], fstr);
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct mkfs_opts o = {
		.su = 65536, .gd = 1, .max_ino = 1u << 24, .label = "",
		.replace = -1,
		.policy = -1,
		.csum = -1,
		.csum_heads = 1,
	};
	uint8_t (*store_uuid)[EXOFS_UUID_SIZE];
	struct exofs_stores st;
	struct timespec now;
	int first, err = 1;
	uint32_t n;

	first = parse_options(argc, argv, &o);
	if (first < 0)
		return first == -2 ? 0 : 1;
	if (o.replace >= 0)
		return make_replacement(&o, argc, argv, first);
	memset(&st, 0, sizeof(st));
	n = (uint32_t)(argc - first);
	if (!n) {
		fprintf(stderr, PROG ": no store directories given\n");
		usage(stderr);
		return 1;
	}
	if (n > EXOFS_MAX_STORES) {
		fprintf(stderr, PROG ": %u stores given, at most %d are supported\n",
			n, EXOFS_MAX_STORES);
		return 1;
	}
	st.n = n;
	st.dirs = (const char **)(argv + first);
	store_uuid = calloc(n, sizeof(*store_uuid));
	if (!store_uuid) {
		fprintf(stderr, PROG ": out of memory\n");
		return 1;
	}
	if (check_store_dirs(&st) || build_layout(&o, &st) ||
	    empty_stores(&o, &st) || make_uuids(&o, n, store_uuid))
		goto out;
	clock_gettime(CLOCK_REALTIME, &now);
	if (write_root(&st, &now, !o.lazy && !o.all_comps) ||
	    write_superblocks(&o, &st, store_uuid, &now))
		goto out;
	if (!o.quiet)
		print_summary(&o, &st, store_uuid);
	err = 0;
out:
	free(store_uuid);
	return err;
}
