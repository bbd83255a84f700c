// SPDX-License-Identifier: GPL-2.0
/*
 * oreblk - manage oreblk arrays (block devices over ORE), in the habits of
 * mdadm.
 *
 *   oreblk create DEV --raid LEVEL -n N [--chunk SIZE] [--mirrors M]
 *                 [--group-count G] [--group-depth D] [--size SIZE]
 *                 [--name NAME] [--assume-clean] [--force]
 *                 [--consistency-policy resync|intent] [--intent-region SIZE]
 *                 [--checksums xxh64|crc32c|none] MEMBER...
 *   oreblk assemble DEV [--no-check] [--force] MEMBER...
 *   oreblk stop DEV
 *   oreblk detail DEV
 *   oreblk check DEV [--repair] [--wait]
 *   oreblk examine MEMBER...
 *   oreblk fail DEV MEMBER|INDEX
 *   oreblk add DEV NEWMEMBER [--wait]
 *   oreblk replace DEV MEMBER|INDEX --with NEWMEMBER [--wait]
 *   oreblk remove DEV MEMBER|INDEX
 *   oreblk wipe MEMBER...
 *   oreblk assemble --scan [--dry-run]          (oreblk_scan.c)
 *   oreblk incremental MEMBER
 *   oreblk monitor [--scan] [--oneshot] [--delay SEC] [--program PROG]
 *                  [--syslog] [--test] [DEV...]
 *
 * DEV is /dev/oreblkN (or oreblkN). LEVEL is 0, 1, 4, 5, 6 or 10. SIZE
 * takes K, M, G suffixes (powers of 1024). Create writes a superblock on
 * every member (include/oreblk/oreblk_fs.h), zeroes the members' data ranges
 * so parity starts consistent (unless --assume-clean, or the layout has no
 * redundancy), then assembles. A layout with parity or mirrors keeps
 * its redundancy in step after a crash with the write-intent bitmap
 * (--consistency-policy intent, the default; --intent-region sets the
 * array bytes per bit) or with a resync of the whole array at the next
 * assembly (--consistency-policy resync, md's default). With the bitmap,
 * every 4 KiB block of the members' data has a checksum in a region after
 * the data (--checksums xxh64, the default there, or crc32c; none to leave
 * them out): reads verify it, and a block that fails is rebuilt from the
 * redundancy and rewritten. Assemble checks the members here first
 * (foreign devices, members of other arrays, a member given twice, too
 * many missing) and the kernel checks them all again; --no-check skips the
 * checks here (tests of the kernel's); --force starts an array that is
 * both dirty (not stopped cleanly) and degraded. Check starts md's
 * "check" (or "repair") of the array's redundancy through sysfs
 * sync_action and, with --wait, prints mismatch_cnt when it is over.
 * Add rebuilds a new device in the place of a member out of service;
 * replace copies a member in service onto a new device while the array
 * keeps its redundancy, then swaps them (mdadm --replace); remove lets go
 * of a faulty member's device (mdadm --remove).
 * Exit status: 0 done, 1 failed, 2 bad usage.
 */
#define _GNU_SOURCE	/* O_DIRECT */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <endian.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <linux/fs.h>

#include <oreblk/sb.h>
#include "ore_user.h"
#include "oreblk_cmds.h"

#define CONTROL "/dev/" OREBLK_CONTROL_NAME

static const char *prog = "oreblk";

static __attribute__((format(printf, 1, 2))) void err_msg(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static void usage(void)
{
	fprintf(stderr,
		"usage: %s create DEV --raid LEVEL -n N [--chunk SIZE] [--mirrors M]\n"
		"              [--group-count G] [--group-depth D] [--size SIZE]\n"
		"              [--name NAME] [--assume-clean] [--force]\n"
		"              [--consistency-policy resync|intent] [--intent-region SIZE]\n"
		"              [--checksums xxh64|crc32c|none]\n"
		"              MEMBER...\n"
		"       %s assemble DEV [--no-check] [--force] MEMBER...\n"
		"       %s stop DEV\n"
		"       %s detail DEV\n"
		"       %s check DEV [--repair] [--wait]\n"
		"       %s examine MEMBER...\n"
		"       %s fail DEV MEMBER|INDEX\n"
		"       %s add DEV NEWMEMBER [--wait]\n"
		"       %s replace DEV MEMBER|INDEX --with NEWMEMBER [--wait]\n"
		"       %s remove DEV MEMBER|INDEX\n"
		"       %s wipe MEMBER...\n"
		"       %s assemble --scan [--dry-run]\n"
		"       %s incremental MEMBER\n"
		"       %s monitor [--scan] [--oneshot] [--delay SEC] [--program PROG]\n"
		"              [--syslog] [--test] [DEV...]\n",
		prog, prog, prog, prog, prog, prog, prog, prog, prog, prog,
		prog, prog, prog, prog);
	exit(2);
}

/* "/dev/oreblkN" or "oreblkN" -> N; -1 when it is neither. */
static int parse_dev(const char *dev)
{
	const char *p = dev;
	char *end;
	long n;

	if (!strncmp(p, "/dev/", 5))
		p += 5;
	if (strncmp(p, "oreblk", 6) || !p[6])
		return -1;
	n = strtol(p + 6, &end, 10);
	if (*end || n < 0 || n > OREBLK_MAX_INDEX)
		return -1;
	return (int)n;
}

/* "64K", "1M", "4096" -> bytes; 0 on a bad number. */
static uint64_t parse_size(const char *s)
{
	uint64_t v;

	return ore_user_parse_size(s, &v) ? 0 : v;
}

static void fmt_uuid(const uint8_t *u, char *buf)
{
	sprintf(buf, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
		u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9],
		u[10], u[11], u[12], u[13], u[14], u[15]);
}

static int ctl_open(void)
{
	int fd = open(CONTROL, O_RDWR | O_CLOEXEC);

	if (fd < 0)
		err_msg("cannot open %s: %s (is oreblk.ko loaded?)", CONTROL,
			strerror(errno));
	return fd;
}

/* ------------------------------------------------------------------ */
/* superblocks */

/* What read_sb() found. */
enum sb_state {
	SB_OK,		/* a valid superblock */
	SB_NONE,	/* no oreblk magic: a foreign device */
	SB_BAD,		/* magic, but a bad checksum or impossible fields */
	SB_IOERR,	/* could not read it */
};

/*
 * Read and check (oreblk_sb_check(), the kernel's checks) the superblock of
 * @path; @why says what is wrong; @l gets the layout of a valid one.
 */
static enum sb_state read_sb(const char *path, struct oreblk_sb *sb,
			     struct ore_layout *l, char *why, size_t whylen)
{
	uint64_t size = 0;
	const char *swhy;
	void *buf = NULL;
	int fd, err;
	ssize_t n;

	/*
	 * O_DIRECT: the kernel writes a running array's superblocks with
	 * bios, past the page cache a buffered read would find stale. Files
	 * that cannot do it (tmpfs) are read buffered.
	 */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_DIRECT);
	if (fd < 0 && errno == EINVAL)
		fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(why, whylen, "cannot open: %s", strerror(errno));
		return SB_IOERR;
	}
	if (posix_memalign(&buf, 4096, sizeof(*sb))) {
		snprintf(why, whylen, "out of memory");
		close(fd);
		return SB_IOERR;
	}
	n = pread(fd, buf, sizeof(*sb), OREBLK_SB_OFFSET);
	if (n != (ssize_t)sizeof(*sb) || ore_user_dev_size(fd, &size)) {
		snprintf(why, whylen, "cannot read the superblock: %s",
			 n < 0 ? strerror(errno) : "short read");
		free(buf);
		close(fd);
		return SB_IOERR;
	}
	memcpy(sb, buf, sizeof(*sb));
	free(buf);
	close(fd);
	err = oreblk_sb_check(sb, size, l, &swhy);
	if (err) {
		snprintf(why, whylen, "%s", swhy);
		return err == -ENODATA ? SB_NONE : SB_BAD;
	}
	return SB_OK;
}

/* ------------------------------------------------------------------ */
/* assemble */

/* Pack @n paths NUL-separated and ask the kernel (OREBLK_ASSEMBLE_* @flags). */
static int do_assemble(int index, char **paths, int n, uint32_t flags)
{
	struct oreblk_ctl_assemble ca;
	size_t len = 0, pos = 0;
	char *buf;
	int fd, i, rc;

	for (i = 0; i < n; i++)
		len += strlen(paths[i]) + 1;
	buf = malloc(len);
	if (!buf) {
		err_msg("out of memory");
		return 1;
	}
	for (i = 0; i < n; i++) {
		strcpy(buf + pos, paths[i]);
		pos += strlen(paths[i]) + 1;
	}
	memset(&ca, 0, sizeof(ca));
	ca.index = (uint32_t)index;
	ca.flags = flags;
	ca.paths = (uint64_t)(uintptr_t)buf;
	ca.paths_len = (uint32_t)len;
	ca.nr_paths = (uint32_t)n;
	fd = ctl_open();
	if (fd < 0) {
		free(buf);
		return 1;
	}
	rc = ioctl(fd, OREBLK_CTL_ASSEMBLE, &ca);
	if (rc) {
		int e = errno;

		err_msg("cannot assemble /dev/oreblk%d: %s (%s)", index,
			ca.msg[0] ? ca.msg : "the kernel log may say why",
			strerror(e));
	} else {
		printf("%s: /dev/oreblk%u has been started with %u of %u members%s%s\n",
		       prog, ca.index, ca.nr_active, ca.nr_members,
		       ca.nr_active < ca.nr_members ? " (degraded)" : "",
		       ca.msg[0] && ca.nr_active == ca.nr_members ? ca.msg : "");
	}
	close(fd);
	free(buf);
	return rc ? 1 : 0;
}

/* The checks mdadm would make before asking the kernel. */
static int check_members(char **paths, int n)
{
	struct oreblk_sb *sbs;
	struct ore_layout l, li;
	dev_t *rdev;
	unsigned long lost[ORE_BITMAP_LONGS(OREBLK_MAX_MEMBERS)] = { 0 };
	uint64_t max_events = 0, faulty = 0;
	int i, j, fresh = -1, rc = 1, present[OREBLK_MAX_MEMBERS] = { 0 };
	uint32_t nr;
	char why[128], u1[40], u2[40];

	sbs = calloc((size_t)n, sizeof(*sbs));
	rdev = calloc((size_t)n, sizeof(*rdev));
	if (!sbs || !rdev) {
		err_msg("out of memory");
		goto out;
	}
	for (i = 0; i < n; i++) {
		struct stat st;

		if (stat(paths[i], &st)) {
			err_msg("%s: %s", paths[i], strerror(errno));
			goto out;
		}
		if (!S_ISBLK(st.st_mode)) {
			err_msg("%s is not a block device", paths[i]);
			goto out;
		}
		rdev[i] = st.st_rdev;
		for (j = 0; j < i; j++)
			if (rdev[j] == rdev[i]) {
				err_msg("%s is given twice (same device as %s)",
					paths[i], paths[j]);
				goto out;
			}
		switch (read_sb(paths[i], &sbs[i], i ? &li : &l, why,
				sizeof(why))) {
		case SB_OK:
			break;
		case SB_NONE:
			err_msg("%s is not an oreblk member (%s)", paths[i], why);
			goto out;
		default:
			err_msg("%s: %s", paths[i], why);
			goto out;
		}
		if (memcmp(sbs[i].array_uuid, sbs[0].array_uuid,
			   OREBLK_UUID_SIZE)) {
			fmt_uuid(sbs[i].array_uuid, u1);
			fmt_uuid(sbs[0].array_uuid, u2);
			err_msg("%s is a member of another array (%s) than %s (%s)",
				paths[i], u1, paths[0], u2);
			goto out;
		}
		if (!oreblk_sb_agree(&sbs[i], &sbs[0])) {
			err_msg("the superblocks of %s and %s disagree on the layout or size",
				paths[i], paths[0]);
			goto out;
		}
		for (j = 0; j < i; j++)
			if (sbs[j].member_index == sbs[i].member_index) {
				err_msg("%s and %s both claim to be member %u",
					paths[j], paths[i],
					le32toh(sbs[i].member_index));
				goto out;
			}
		if (le64toh(sbs[i].events) > max_events || fresh < 0) {
			max_events = le64toh(sbs[i].events);
			fresh = i;
		}
	}
	nr = le32toh(sbs[0].nr_members);
	/* the fresh superblocks must not mark each other faulty (split) */
	for (i = 0; i < n; i++) {
		uint64_t map = le64toh(sbs[i].faulty_map);

		if (le64toh(sbs[i].events) != max_events)
			continue;
		faulty |= map;
		for (j = 0; j < n; j++) {
			if (j == i || !oreblk_sb_split(&sbs[i], &sbs[j]))
				continue;
			err_msg("%s and %s both have events %" PRIu64 " but %s marks %s faulty: the array ran split (each side assembled without the other); assemble with the side whose data you want only, e.g. without %s",
				paths[i], paths[j], max_events, paths[i],
				paths[j], paths[j]);
			goto out;
		}
	}
	for (i = 0; i < n; i++) {
		uint32_t idx = le32toh(sbs[i].member_index);

		if (le64toh(sbs[i].events) < max_events) {
			fprintf(stderr, "%s: %s (member %u) is stale (events %" PRIu64 " < %" PRIu64 "): not used\n",
				prog, paths[i], idx,
				(uint64_t)le64toh(sbs[i].events), max_events);
			continue;
		}
		if (faulty & (1ull << idx)) {
			fprintf(stderr, "%s: %s (member %u) is marked faulty: not used\n",
				prog, paths[i], idx);
			continue;
		}
		present[idx] = 1;
	}
	for (i = 0; i < (int)nr; i++)
		if (!present[i])
			lost[i / ORE_BITS_PER_LONG] |= 1ul << (i % ORE_BITS_PER_LONG);
	/* as the kernel checks: no group lost more than its parity */
	if (!ore_layout_survives(&l, lost, nr, 0)) {
		int have = 0;

		for (i = 0; i < (int)nr; i++)
			have += present[i];
		err_msg("not enough members to start the array: %d of %u usable; %s keeps its data with at most %u lost per group",
			have, nr, ore_layout_raid_name(l.raid_algorithm, l.mirrors_p1),
			l.parity);
		goto out;
	}
	rc = 0;
out:
	free(sbs);
	free(rdev);
	return rc;
}

static int cmd_assemble(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "no-check", no_argument, NULL, 'N' },
		{ "force", no_argument, NULL, 'F' },
		{ NULL, 0, NULL, 0 },
	};
	int index, c, nocheck = 0;
	uint32_t flags = 0;

	if (argc > 2 && !strcmp(argv[2], "--scan"))
		return oreblk_cmd_assemble_scan(argc, argv);
	optind = 2;
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (c == 'N')
			nocheck = 1;
		else if (c == 'F')
			flags |= OREBLK_ASSEMBLE_FORCE;
		else
			usage();
	}
	if (argc - optind < 2)
		usage();
	index = parse_dev(argv[optind]);
	if (index < 0) {
		err_msg("%s: not an oreblk device name (/dev/oreblkN)", argv[optind]);
		return 2;
	}
	if (argc - optind - 1 > OREBLK_MAX_MEMBERS) {
		err_msg("at most %d members", OREBLK_MAX_MEMBERS);
		return 2;
	}
	if (!nocheck && check_members(argv + optind + 1, argc - optind - 1))
		return 1;
	return do_assemble(index, argv + optind + 1, argc - optind - 1, flags);
}

/* ------------------------------------------------------------------ */
/* create */

static int get_random(void *buf, size_t len)
{
	int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, len);
	close(fd);
	return n == (ssize_t)len ? 0 : -1;
}

static int gen_uuid(uint8_t *u)
{
	if (get_random(u, OREBLK_UUID_SIZE))
		return -1;
	u[6] = (u[6] & 0x0f) | 0x40;	/* version 4 */
	u[8] = (u[8] & 0x3f) | 0x80;	/* RFC 4122 variant */
	return 0;
}

static int zero_range(int fd, const char *path, uint64_t off, uint64_t len)
{
	uint64_t range[2] = { off, len };

	if (!ioctl(fd, BLKZEROOUT, range))
		return 0;
	err_msg("%s: cannot zero %" PRIu64 " bytes at %" PRIu64 ": %s", path,
		len, off, strerror(errno));
	return -1;
}

/*
 * create's long step: zeroing every member's data range (parity and
 * mirrors start consistent). Done in 256 MiB pieces so that a tty on
 * stdout sees its progress, one line rewritten in place (as mdadm's
 * resync line in /proc/mdstat).
 */
#define ZERO_PIECE	(256ULL << 20)

static int zero_members(int *fds, char **paths, int n, uint64_t off,
			uint64_t len)
{
	uint64_t done, step, pm, last = UINT64_MAX;
	uint64_t total = len * (uint64_t)n;
	int tty = isatty(STDOUT_FILENO), i;

	for (i = 0; i < n; i++) {
		for (done = 0; done < len; done += step) {
			step = len - done < ZERO_PIECE ? len - done : ZERO_PIECE;
			pm = total ? (len * i + done) * 1000 / total : 1000;
			if (tty && pm != last) {
				last = pm;
				printf("\r\033[K%s: zeroing members: %3" PRIu64 ".%" PRIu64 "%% (member %d/%d)",
				       prog, pm / 10, pm % 10, i + 1, n);
				fflush(stdout);
			}
			if (zero_range(fds[i], paths[i], off + done, step)) {
				if (tty)
					printf("\n");
				return -1;
			}
		}
	}
	if (tty) {
		printf("\r\033[K");
		fflush(stdout);
	}
	return 0;
}

/* What `oreblk create` is asked for. */
struct create_args {
	int level, n, mirrors, gcount, gdepth, assume_clean, force, index;
	int policy;		/* OREBLK_CONSISTENCY_*, -1: the default */
	int csum;		/* OREBLK_CSUM_*, -1: the default */
	uint64_t chunk, size_limit, intent_region;
	const char *name;
	char **paths;
};

/* Parse and check the command line of create; 0 or the exit code. */
static int create_parse(int argc, char **argv, struct create_args *a)
{
	static const struct option opts[] = {
		{ "raid", required_argument, NULL, 'l' },
		{ "level", required_argument, NULL, 'l' },
		{ "chunk", required_argument, NULL, 'c' },
		{ "raid-devices", required_argument, NULL, 'n' },
		{ "mirrors", required_argument, NULL, 'm' },
		{ "group-count", required_argument, NULL, 'G' },
		{ "group-depth", required_argument, NULL, 'D' },
		{ "size", required_argument, NULL, 'z' },
		{ "name", required_argument, NULL, 'N' },
		{ "assume-clean", no_argument, NULL, 'A' },
		{ "force", no_argument, NULL, 'f' },
		{ "consistency-policy", required_argument, NULL, 'P' },
		{ "intent-region", required_argument, NULL, 'R' },
		{ "checksums", required_argument, NULL, 'C' },
		{ NULL, 0, NULL, 0 },
	};
	int c, nmem;

	optind = 2;
	while ((c = getopt_long(argc, argv, "l:c:n:m:z:N:f", opts, NULL)) != -1) {
		switch (c) {
		case 'l': a->level = atoi(optarg); break;
		case 'c': a->chunk = parse_size(optarg); break;
		case 'n': a->n = atoi(optarg); break;
		case 'm': a->mirrors = atoi(optarg); break;
		case 'G': a->gcount = atoi(optarg); break;
		case 'D': a->gdepth = atoi(optarg); break;
		case 'z': a->size_limit = parse_size(optarg); break;
		case 'N': a->name = optarg; break;
		case 'A': a->assume_clean = 1; break;
		case 'f': a->force = 1; break;
		case 'P':
			if (!strcmp(optarg, "resync")) {
				a->policy = OREBLK_CONSISTENCY_RESYNC;
			} else if (!strcmp(optarg, "intent")) {
				a->policy = OREBLK_CONSISTENCY_INTENT;
			} else {
				err_msg("--consistency-policy must be resync or intent");
				return 2;
			}
			break;
		case 'C':
			if (!strcmp(optarg, "xxh64")) {
				a->csum = OREBLK_CSUM_XXH64;
			} else if (!strcmp(optarg, "crc32c")) {
				a->csum = OREBLK_CSUM_CRC32C;
			} else if (!strcmp(optarg, "none")) {
				a->csum = OREBLK_CSUM_NONE;
			} else {
				err_msg("--checksums must be xxh64, crc32c or none");
				return 2;
			}
			break;
		case 'R':
			a->intent_region = parse_size(optarg);
			if (!a->intent_region) {
				err_msg("bad --intent-region");
				return 2;
			}
			break;
		default: usage();
		}
	}
	if (argc - optind < 2)
		usage();
	a->index = parse_dev(argv[optind]);
	if (a->index < 0) {
		err_msg("%s: not an oreblk device name (/dev/oreblkN)", argv[optind]);
		return 2;
	}
	a->paths = argv + optind + 1;
	nmem = argc - optind - 1;
	if (a->n < 0)
		a->n = nmem;
	if (a->n != nmem) {
		err_msg("-n %d but %d members given", a->n, nmem);
		return 2;
	}
	if (a->n > OREBLK_MAX_MEMBERS) {
		err_msg("at most %d members", OREBLK_MAX_MEMBERS);
		return 2;
	}
	if (a->gcount < 1 || a->gdepth < 1 || a->mirrors < 0 || !a->chunk ||
	    a->chunk > UINT32_MAX) {
		err_msg("bad --group-count, --group-depth, --mirrors or --chunk");
		return 2;
	}
	if (strlen(a->name) >= OREBLK_NAME_LEN) {
		err_msg("--name is longer than %d bytes", OREBLK_NAME_LEN - 1);
		return 2;
	}
	return 0;
}

/* The layout create asks for; 0 or the exit code. */
static int create_layout(const struct create_args *a, struct ore_layout *l)
{
	int n = a->n, m = a->mirrors;
	const char *why;

	memset(l, 0, sizeof(*l));
	l->stripe_unit = (uint32_t)a->chunk;
	l->group_count = (uint32_t)a->gcount;
	l->group_depth = (uint32_t)a->gdepth;
	switch (a->level) {
	case 0: l->raid_algorithm = ORE_RAID0; l->mirrors_p1 = m ? m : 1; break;
	case 1: l->raid_algorithm = ORE_RAID0; l->mirrors_p1 = m ? m : n / a->gcount; break;
	case 10: l->raid_algorithm = ORE_RAID0; l->mirrors_p1 = m ? m : 2; break;
	case 4: l->raid_algorithm = ORE_RAID4; l->mirrors_p1 = m ? m : 1; break;
	case 5: l->raid_algorithm = ORE_RAID5; l->mirrors_p1 = m ? m : 1; break;
	case 6: l->raid_algorithm = ORE_RAID6; l->mirrors_p1 = m ? m : 1; break;
	default:
		err_msg("--raid must be 0, 1, 4, 5, 6 or 10");
		return 2;
	}
	if (!l->mirrors_p1 || n % (l->mirrors_p1 * l->group_count)) {
		err_msg("%d members do not split into %u groups of %u-way mirrors",
			n, l->group_count, l->mirrors_p1);
		return 2;
	}
	l->group_width = (uint32_t)n / l->mirrors_p1 / l->group_count;
	if (ore_layout_check(l, (uint32_t)n, &why)) {
		err_msg("impossible layout: %s", why);
		return 2;
	}
	return 0;
}

/*
 * Check and open every member exclusively into @fds, give each a new UUID
 * and find the smallest size; 0 or -1 (said).
 */
static int create_open_members(const struct create_args *a, int *fds,
			       uint8_t (*muuid)[OREBLK_UUID_SIZE],
			       uint64_t *min_size)
{
	char **paths = a->paths;
	int i, j;

	for (i = 0; i < a->n; i++) {
		struct ore_layout lold;
		struct oreblk_sb old;
		char why2[128], u[40];
		uint64_t size;
		struct stat st;

		if (stat(paths[i], &st) || !S_ISBLK(st.st_mode)) {
			err_msg("%s is not a block device", paths[i]);
			return -1;
		}
		for (j = 0; j < i; j++) {
			struct stat st2;

			if (!stat(paths[j], &st2) && st2.st_rdev == st.st_rdev) {
				err_msg("%s is given twice (same device as %s)",
					paths[i], paths[j]);
				return -1;
			}
		}
		if (read_sb(paths[i], &old, &lold, why2, sizeof(why2)) == SB_OK &&
		    !a->force) {
			fmt_uuid(old.array_uuid, u);
			err_msg("%s is member %u of array %s already; --force overwrites it",
				paths[i], le32toh(old.member_index), u);
			return -1;
		}
		fds[i] = open(paths[i], O_RDWR | O_EXCL | O_CLOEXEC);
		if (fds[i] < 0) {
			err_msg("cannot open %s exclusively: %s", paths[i],
				strerror(errno));
			return -1;
		}
		if (ore_user_dev_size(fds[i], &size)) {
			err_msg("%s: cannot get its size", paths[i]);
			return -1;
		}
		if (size < *min_size)
			*min_size = size;
		if (gen_uuid(muuid[i])) {
			err_msg("cannot read /dev/urandom");
			return -1;
		}
	}
	return 0;
}

/*
 * The consistency policy of the new array into @sb (the layout set): the
 * write-intent bitmap by default where there is redundancy; 0 or the exit
 * code (said).
 */
static int create_policy(const struct create_args *a, const struct ore_layout *l,
			 uint64_t array_size, struct oreblk_sb *sb)
{
	bool redundant = l->parity || l->mirrors_p1 > 1;
	int policy = a->policy;
	uint64_t region;

	if (policy < 0)
		policy = redundant ? OREBLK_CONSISTENCY_INTENT :
				     OREBLK_CONSISTENCY_RESYNC;
	if (a->intent_region && policy != OREBLK_CONSISTENCY_INTENT) {
		err_msg("--intent-region needs --consistency-policy intent");
		return 2;
	}
	if (a->csum > OREBLK_CSUM_NONE &&
	    policy != OREBLK_CONSISTENCY_INTENT) {
		err_msg("--checksums needs the write-intent bitmap (--consistency-policy intent, on a layout with redundancy)");
		return 2;
	}
	if (policy != OREBLK_CONSISTENCY_INTENT)
		return 0;
	if (!redundant) {
		err_msg("--consistency-policy intent: %s has no redundancy to keep in step",
			ore_layout_raid_name(l->raid_algorithm, l->mirrors_p1));
		return 2;
	}
	region = oreblk_intent_region(array_size, l->stripe_length);
	if (a->intent_region) {
		region = a->intent_region;
		if (region % l->stripe_length ||
		    array_size / region + !!(array_size % region) >
		    OREBLK_INTENT_MAX_BITS) {
			err_msg("--intent-region %" PRIu64 ": not a multiple of the stripe length (%" PRIu64 ") leaving at most %u bits",
				region, (uint64_t)l->stripe_length,
				OREBLK_INTENT_MAX_BITS);
			return 2;
		}
	}
	sb->consistency = htole32(OREBLK_CONSISTENCY_INTENT);
	sb->intent_bytes = htole32(OREBLK_INTENT_BYTES);
	sb->intent_offset = htole64(OREBLK_INTENT_OFFSET);
	sb->intent_region = htole64(region);
	/* xxh64 by default: see docs/oreblk.md, "Data checksums" */
	if (a->csum != OREBLK_CSUM_NONE)
		sb->csum_type = htole32(a->csum < 0 ? OREBLK_CSUM_XXH64 :
					(uint32_t)a->csum);
	return 0;
}

/* Will the array keep data checksums (the choice create_policy() makes)? */
static bool create_has_csum(const struct create_args *a,
			    const struct ore_layout *l)
{
	bool redundant = l->parity || l->mirrors_p1 > 1;
	int policy = a->policy;

	if (policy < 0)
		policy = redundant ? OREBLK_CONSISTENCY_INTENT :
				     OREBLK_CONSISTENCY_RESYNC;
	return policy == OREBLK_CONSISTENCY_INTENT && a->csum != OREBLK_CSUM_NONE;
}

/*
 * Write the superblock of every member (synced), and a zeroed write-intent
 * bitmap where it has one; 0 or -1 (said).
 */
static int create_write_sbs(const struct create_args *a,
			    const struct ore_layout *l, const int *fds,
			    uint8_t (*muuid)[OREBLK_UUID_SIZE],
			    const uint8_t *array_uuid, uint64_t data_size,
			    uint64_t array_size)
{
	uint64_t ctime_now = (uint64_t)time(NULL);	/* same on every member */
	struct oreblk_sb *sb;
	int i, j, rc = -1;

	sb = aligned_alloc(4096, sizeof(*sb));
	if (!sb) {
		err_msg("out of memory");
		return -1;
	}
	for (i = 0; i < a->n; i++) {
		memset(sb, 0, sizeof(*sb));
		sb->magic = htole32(OREBLK_SB_MAGIC);
		sb->version = htole32(OREBLK_SB_VERSION);
		memcpy(sb->array_uuid, array_uuid, OREBLK_UUID_SIZE);
		memcpy(sb->member_uuid, muuid[i], OREBLK_UUID_SIZE);
		sb->member_index = htole32((uint32_t)i);
		sb->nr_members = htole32((uint32_t)a->n);
		oreblk_sb_set_layout(sb, l);
		sb->data_offset = htole64((uint64_t)OREBLK_DATA_OFFSET);
		sb->data_size = htole64(data_size);
		sb->array_size = htole64(array_size);
		sb->events = htole64(1);
		sb->ctime = htole64(ctime_now);
		sb->utime = sb->ctime;
		strncpy(sb->name, a->name, OREBLK_NAME_LEN - 1);
		for (j = 0; j < a->n; j++)
			memcpy(sb->member_uuids[j], muuid[j], OREBLK_UUID_SIZE);
		create_policy(a, l, array_size, sb);	/* checked by the caller */
		if (sb->intent_bytes &&
		    zero_range(fds[i], a->paths[i], le64toh(sb->intent_offset),
			       le32toh(sb->intent_bytes)))
			goto out;
		/* entries of 0: no block written yet, nothing to verify */
		if (sb->csum_type) {
			sb->csum_offset = htole64(OREBLK_DATA_OFFSET + data_size);
			if (zero_range(fds[i], a->paths[i],
				       le64toh(sb->csum_offset),
				       ore_csum_bytes(data_size)))
				goto out;
		}
		sb->csum = htole32(oreblk_sb_csum(sb));
		if (pwrite(fds[i], sb, sizeof(*sb), OREBLK_SB_OFFSET) != (ssize_t)sizeof(*sb) ||
		    fsync(fds[i])) {
			err_msg("%s: cannot write the superblock: %s", a->paths[i],
				strerror(errno));
			goto out;
		}
	}
	rc = 0;
out:
	free(sb);
	return rc;
}

static int cmd_create(int argc, char **argv)
{
	struct create_args a = {
		.level = -1, .n = -1, .gcount = 1, .gdepth = 1,
		.chunk = 64 << 10, .name = "", .policy = -1, .csum = -1,
	};
	uint64_t data_size, unit, array_size, min_size = UINT64_MAX;
	uint8_t (*muuid)[OREBLK_UUID_SIZE] = NULL;
	uint8_t array_uuid[OREBLK_UUID_SIZE];
	int i, *fds = NULL, rc, lock;
	struct ore_layout l;
	char u[40];

	rc = create_parse(argc, argv, &a);
	if (!rc)
		rc = create_layout(&a, &l);
	if (rc)
		return rc;
	rc = 1;
	/* udev's incremental must not assemble what we are creating */
	lock = oreblk_lock();
	fds = calloc((size_t)a.n, sizeof(*fds));
	muuid = calloc((size_t)a.n, sizeof(*muuid));
	if (!fds || !muuid) {
		err_msg("out of memory");
		goto out;
	}
	for (i = 0; i < a.n; i++)
		fds[i] = -1;
	if (create_open_members(&a, fds, muuid, &min_size))
		goto out;
	unit = (uint64_t)l.stripe_unit * l.group_depth;
	if (min_size <= OREBLK_DATA_OFFSET + unit) {
		err_msg("members of %" PRIu64 " bytes are too small for chunk %" PRIu64,
			min_size, a.chunk);
		goto out;
	}
	data_size = min_size - OREBLK_DATA_OFFSET;
	/* the checksum region goes after the data */
	if (create_has_csum(&a, &l))
		data_size -= ore_csum_bytes(data_size);
	if (a.size_limit && a.size_limit < data_size)
		data_size = a.size_limit;
	data_size -= data_size % unit;
	if (!data_size) {
		err_msg("--size is smaller than one chunk * group depth");
		goto out;
	}
	array_size = data_size / unit * l.super_stripe;
	{
		struct oreblk_sb probe = { 0 };

		i = create_policy(&a, &l, array_size, &probe);
		if (i) {
			rc = i;
			goto out;
		}
	}
	if (gen_uuid(array_uuid)) {
		err_msg("cannot read /dev/urandom");
		goto out;
	}
	if ((l.parity || l.mirrors_p1 > 1) && !a.assume_clean &&
	    zero_members(fds, a.paths, a.n, OREBLK_DATA_OFFSET, data_size))
		goto out;
	if (create_write_sbs(&a, &l, fds, muuid, array_uuid, data_size,
			     array_size))
		goto out;
	for (i = 0; i < a.n; i++) {
		close(fds[i]);
		fds[i] = -1;
	}
	fmt_uuid(array_uuid, u);
	printf("%s: %s, %d members, chunk %" PRIu64 "K, %" PRIu64 " bytes per member, array %" PRIu64 " bytes, uuid %s\n",
	       prog, ore_layout_raid_name(l.raid_algorithm, l.mirrors_p1), a.n,
	       a.chunk >> 10, data_size, array_size, u);
	rc = do_assemble(a.index, a.paths, a.n, 0);
out:
	for (i = 0; fds && i < a.n; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	free(fds);
	free(muuid);
	if (lock >= 0)
		close(lock);
	return rc;
}

/* ------------------------------------------------------------------ */
/* stop, detail, fail */

static int cmd_stop(int argc, char **argv)
{
	struct oreblk_ctl_stop cs;
	int fd, index, rc;

	if (argc != 3)
		usage();
	index = parse_dev(argv[2]);
	if (index < 0) {
		err_msg("%s: not an oreblk device name (/dev/oreblkN)", argv[2]);
		return 2;
	}
	fd = ctl_open();
	if (fd < 0)
		return 1;
	memset(&cs, 0, sizeof(cs));
	cs.index = (uint32_t)index;
	rc = ioctl(fd, OREBLK_CTL_STOP, &cs);
	if (rc)
		err_msg("cannot stop /dev/oreblk%d: %s (%s)", index,
			cs.msg[0] ? cs.msg : "", strerror(errno));
	else
		printf("%s: stopped /dev/oreblk%d\n", prog, index);
	close(fd);
	return rc ? 1 : 0;
}

static int get_detail(int index, struct oreblk_ctl_detail *cd)
{
	int fd = ctl_open(), rc;

	if (fd < 0)
		return -1;
	memset(cd, 0, sizeof(*cd));
	cd->index = (uint32_t)index;
	rc = ioctl(fd, OREBLK_CTL_DETAIL, cd);
	if (rc)
		err_msg("/dev/oreblk%d: %s", index,
			errno == ENODEV ? "no such array running" : strerror(errno));
	close(fd);
	return rc;
}

/* /sys/block/oreblkN/ore/ATTR into @buf, its newline cut; -1 on failure. */
static int read_attr(int index, const char *attr, char *buf, size_t len)
{
	char path[96];
	FILE *f;
	int ok;

	snprintf(path, sizeof(path), "/sys/block/oreblk%d/ore/%s", index, attr);
	f = fopen(path, "r");
	if (!f)
		return -1;
	ok = fgets(buf, (int)len, f) != NULL;
	fclose(f);
	if (!ok)
		return -1;
	buf[strcspn(buf, "\n")] = 0;
	return 0;
}

/* The sync lines of detail: action, progress, speed, mismatch_cnt. */
static void print_sync(int index)
{
	char act[32], done[64], speed[32], mism[32];
	unsigned long long d, t;

	if (read_attr(index, "sync_action", act, sizeof(act)) ||
	    read_attr(index, "sync_completed", done, sizeof(done)) ||
	    read_attr(index, "sync_speed", speed, sizeof(speed)) ||
	    read_attr(index, "mismatch_cnt", mism, sizeof(mism)))
		return;
	if (sscanf(done, "%llu / %llu", &d, &t) == 2 && t)
		printf("    sync action : %s, %.1f%% (%llu / %llu sectors), %s KiB/s\n",
		       act, 100.0 * (double)d / (double)t, d, t, speed);
	else
		printf("    sync action : %s\n", act);
	printf("   mismatch_cnt : %s\n", mism);
}

/* The consistency policy line of detail (md's "Consistency Policy"). */
static void print_policy(int index)
{
	char pol[32], bits[96];
	unsigned long long set, nbits, region;

	if (read_attr(index, "consistency_policy", pol, sizeof(pol)))
		return;
	if (!strcmp(pol, "intent") &&
	    !read_attr(index, "intent_bitmap", bits, sizeof(bits)) &&
	    sscanf(bits, "%llu %llu %llu", &set, &nbits, &region) == 3)
		printf("    consistency : intent (write-intent bitmap: %llu of %llu regions of %llu KiB marked)\n",
		       set, nbits, region >> 10);
	else
		printf("    consistency : %s\n", pol);
	if (!read_attr(index, "checksums", pol, sizeof(pol)) &&
	    !read_attr(index, "checksum_errors", bits, sizeof(bits))) {
		char rep[96];

		if (read_attr(index, "checksum_repairs", rep, sizeof(rep)))
			strcpy(rep, "?");
		rep[strcspn(rep, " ")] = 0;
		bits[strcspn(bits, " ")] = 0;
		printf("      checksums : %s (%s errors, %s repaired)\n", pol,
		       bits, rep);
	}
}

static int cmd_detail(int argc, char **argv)
{
	static const char *const states[] = { "active", "faulty", "missing",
					      "rebuilding", "replacing" };
	struct oreblk_ctl_detail *cd;
	int index;
	uint32_t i;
	char u[40];

	if (argc != 3)
		usage();
	index = parse_dev(argv[2]);
	if (index < 0) {
		err_msg("%s: not an oreblk device name (/dev/oreblkN)", argv[2]);
		return 2;
	}
	cd = calloc(1, sizeof(*cd));
	if (!cd || get_detail(index, cd)) {
		free(cd);
		return 1;
	}
	fmt_uuid(cd->array_uuid, u);
	printf("/dev/oreblk%d:\n", index);
	printf("           uuid : %s\n", u);
	printf("           name : %.*s\n", OREBLK_NAME_LEN, cd->name);
	printf("     raid level : %s\n", ore_layout_raid_name(cd->raid_algorithm, cd->mirrors_p1));
	printf("     chunk size : %uK\n", cd->stripe_unit >> 10);
	printf("         layout : group_width %u, group_depth %u, group_count %u, mirrors_p1 %u\n",
	       cd->group_width, cd->group_depth, cd->group_count, cd->mirrors_p1);
	printf("     array size : %" PRIu64 " bytes (%" PRIu64 " MiB)\n",
	       (uint64_t)cd->array_size, (uint64_t)cd->array_size >> 20);
	printf("    data offset : %" PRIu64 "\n", (uint64_t)cd->data_offset);
	printf("      data size : %" PRIu64 " bytes per member\n", (uint64_t)cd->data_size);
	printf("        members : %u\n", cd->nr_members);
	printf("         events : %" PRIu64 "\n", (uint64_t)cd->events);
	if (cd->nr_failed)
		printf("          state : degraded (%u of %u members out of service)\n",
		       cd->nr_failed, cd->nr_members);
	else
		printf("          state : clean\n");
	print_sync(index);
	print_policy(index);
	printf("   stripe cache : size %" PRIu64 ", active %" PRIu64 ", hits %" PRIu64 ", misses %" PRIu64 "\n",
	       (uint64_t)cd->cache_size, (uint64_t)cd->cache_active,
	       (uint64_t)cd->cache_hits, (uint64_t)cd->cache_misses);
	printf("\n    Number   State     Errors  Device            UUID\n");
	for (i = 0; i < cd->nr_members; i++) {
		const struct oreblk_ctl_member *m = &cd->members[i];

		fmt_uuid(m->uuid, u);
		printf("    %6u   %-8s  %6u  %-16s  %s\n", i,
		       m->state < sizeof(states) / sizeof(states[0]) ?
		       states[m->state] : "?", m->errors,
		       m->path[0] ? m->path : "-", u);
	}
	free(cd);
	return 0;
}

/*
 * MEMBER|INDEX of fail, replace, remove: a member index, or a device whose
 * superblock names its index. Returns the index, -1 when it cannot be read.
 */
static long parse_member(const char *arg)
{
	struct ore_layout l;
	struct oreblk_sb sb;
	char why[128], *end;
	long member;

	member = strtol(arg, &end, 10);
	if (*end || end == arg) {
		if (read_sb(arg, &sb, &l, why, sizeof(why)) != SB_OK) {
			err_msg("%s: %s", arg, why);
			return -1;
		}
		member = le32toh(sb.member_index);
	}
	if (member < 0 || member >= OREBLK_MAX_MEMBERS) {
		err_msg("%s: not a member index (0..%d)", arg,
			OREBLK_MAX_MEMBERS - 1);
		return -1;
	}
	return member;
}

/* DEV of the commands on a running array; exits with 2 on a bad name. */
static int parse_array(const char *arg)
{
	int index = parse_dev(arg);

	if (index < 0) {
		err_msg("%s: not an oreblk device name (/dev/oreblkN)", arg);
		exit(2);
	}
	return index;
}

static int cmd_fail(int argc, char **argv)
{
	struct oreblk_ctl_fail cf;
	int fd, index, rc;
	long member;

	if (argc != 4)
		usage();
	index = parse_array(argv[2]);
	member = parse_member(argv[3]);
	if (member < 0)
		return 1;
	fd = ctl_open();
	if (fd < 0)
		return 1;
	memset(&cf, 0, sizeof(cf));
	cf.index = (uint32_t)index;
	cf.member = (uint32_t)member;
	rc = ioctl(fd, OREBLK_CTL_FAIL, &cf);
	if (rc)
		err_msg("cannot fail member %ld of /dev/oreblk%d: %s (%s)", member,
			index, cf.msg[0] ? cf.msg : "", strerror(errno));
	else
		printf("%s: member %ld of /dev/oreblk%d marked faulty\n", prog,
		       member, index);
	close(fd);
	return rc ? 1 : 0;
}

/* Wait until /dev/oreblkN's sync_action is "idle"; -1 if it cannot be read. */
static int wait_idle(int index)
{
	char path[96], buf[32];

	snprintf(path, sizeof(path), "/sys/block/oreblk%d/ore/sync_action",
		 index);
	for (;;) {
		FILE *f = fopen(path, "r");
		int n;

		if (!f)
			return -1;
		n = fgets(buf, sizeof(buf), f) != NULL;
		fclose(f);
		if (!n)
			return -1;
		if (!strncmp(buf, "idle", 4))
			return 0;
		usleep(200 * 1000);
	}
}

/*
 * --wait of add and replace: wait until /dev/oreblkN's sync thread is idle.
 * Returns 1 when member @member is then in service on @path, 0 when not,
 * -1 when the array cannot be read.
 */
static int wait_member(int index, uint32_t member, const char *path)
{
	struct oreblk_ctl_detail *cd;
	int in;

	if (wait_idle(index)) {
		err_msg("/dev/oreblk%d: cannot read its sync_action", index);
		return -1;
	}
	cd = calloc(1, sizeof(*cd));
	if (!cd || get_detail(index, cd)) {
		free(cd);
		return -1;
	}
	in = cd->members[member].state == OREBLK_MEMBER_ACTIVE &&
	     !strcmp(cd->members[member].path, path);
	free(cd);
	return in;
}

/*
 * oreblk add DEV NEWMEMBER [--wait]: NEWMEMBER takes the place of the first
 * member out of service and is rebuilt in the background; --wait blocks
 * until the rebuild is over and fails unless the member is then active.
 */
static int cmd_add(int argc, char **argv)
{
	struct oreblk_ctl_add ca;
	int fd, index, rc, wait = 0;

	if (argc == 5 && !strcmp(argv[4], "--wait"))
		wait = 1;
	else if (argc != 4)
		usage();
	index = parse_dev(argv[2]);
	if (index < 0) {
		err_msg("%s: not an oreblk device name (/dev/oreblkN)", argv[2]);
		return 2;
	}
	if (strlen(argv[3]) >= sizeof(ca.path)) {
		err_msg("%s: path too long", argv[3]);
		return 2;
	}
	fd = ctl_open();
	if (fd < 0)
		return 1;
	memset(&ca, 0, sizeof(ca));
	ca.index = (uint32_t)index;
	strcpy(ca.path, argv[3]);
	rc = ioctl(fd, OREBLK_CTL_ADD, &ca);
	close(fd);
	if (rc) {
		err_msg("cannot add %s to /dev/oreblk%d: %s (%s)", argv[3], index,
			ca.msg[0] ? ca.msg : "", strerror(errno));
		return 1;
	}
	printf("%s: %s is member %u of /dev/oreblk%d, rebuilding\n", prog,
	       argv[3], ca.member, index);
	if (!wait)
		return 0;
	rc = wait_member(index, ca.member, argv[3]);
	if (rc < 0)
		return 1;
	if (!rc) {
		err_msg("/dev/oreblk%d: the rebuild of member %u failed (see the kernel log)",
			index, ca.member);
		return 1;
	}
	printf("%s: member %u of /dev/oreblk%d is in sync\n", prog, ca.member,
	       index);
	return 0;
}

/*
 * oreblk replace DEV MEMBER|INDEX --with NEWMEMBER [--wait]: copy the member
 * onto NEWMEMBER while it keeps serving, then swap them; --wait blocks
 * until the copy is over and fails unless NEWMEMBER is then the member.
 */
static int cmd_replace(int argc, char **argv)
{
	struct oreblk_ctl_replace cr;
	int fd, index, rc, wait = 0;
	long member;

	if (argc == 7 && !strcmp(argv[6], "--wait"))
		wait = 1;
	else if (argc != 6)
		usage();
	if (strcmp(argv[4], "--with"))
		usage();
	index = parse_array(argv[2]);
	if (strlen(argv[5]) >= sizeof(cr.path)) {
		err_msg("%s: path too long", argv[5]);
		return 2;
	}
	member = parse_member(argv[3]);
	if (member < 0)
		return 1;
	fd = ctl_open();
	if (fd < 0)
		return 1;
	memset(&cr, 0, sizeof(cr));
	cr.index = (uint32_t)index;
	cr.member = (uint32_t)member;
	strcpy(cr.path, argv[5]);
	rc = ioctl(fd, OREBLK_CTL_REPLACE, &cr);
	close(fd);
	if (rc) {
		err_msg("cannot replace member %ld of /dev/oreblk%d by %s: %s (%s)",
			member, index, argv[5], cr.msg[0] ? cr.msg : "",
			strerror(errno));
		return 1;
	}
	printf("%s: copying member %ld of /dev/oreblk%d onto %s\n", prog,
	       member, index, argv[5]);
	if (!wait)
		return 0;
	rc = wait_member(index, member, argv[5]);
	if (rc < 0)
		return 1;
	if (!rc) {
		err_msg("/dev/oreblk%d: the replace of member %ld failed (see the kernel log)",
			index, member);
		return 1;
	}
	printf("%s: member %ld of /dev/oreblk%d is %s now\n", prog, member,
	       index, argv[5]);
	return 0;
}

/* oreblk remove DEV MEMBER|INDEX: close a faulty member's device. */
static int cmd_remove(int argc, char **argv)
{
	struct oreblk_ctl_remove cr;
	int fd, index, rc;
	long member;

	if (argc != 4)
		usage();
	index = parse_array(argv[2]);
	member = parse_member(argv[3]);
	if (member < 0)
		return 1;
	fd = ctl_open();
	if (fd < 0)
		return 1;
	memset(&cr, 0, sizeof(cr));
	cr.index = (uint32_t)index;
	cr.member = (uint32_t)member;
	rc = ioctl(fd, OREBLK_CTL_REMOVE, &cr);
	if (rc)
		err_msg("cannot remove member %ld of /dev/oreblk%d: %s (%s)",
			member, index, cr.msg[0] ? cr.msg : "", strerror(errno));
	else
		printf("%s: member %ld of /dev/oreblk%d removed\n", prog,
		       member, index);
	close(fd);
	return rc ? 1 : 0;
}

/*
 * oreblk check DEV [--repair] [--wait]: start md's check (or repair) of the
 * array: sysfs sync_action; --wait blocks until it is over and prints
 * mismatch_cnt (sectors found to disagree).
 */
static int cmd_check(int argc, char **argv)
{
	const char *action = "check";
	char path[96], mism[32];
	int i, index = -1, wait = 0;
	FILE *f;

	for (i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "--repair"))
			action = "repair";
		else if (!strcmp(argv[i], "--wait"))
			wait = 1;
		else if (index < 0 && argv[i][0] != '-')
			index = parse_dev(argv[i]);
		else
			usage();
		if (argv[i][0] != '-' && index < 0) {
			err_msg("%s: not an oreblk device name (/dev/oreblkN)", argv[i]);
			return 2;
		}
	}
	if (index < 0)
		usage();
	snprintf(path, sizeof(path), "/sys/block/oreblk%d/ore/sync_action",
		 index);
	f = fopen(path, "w");
	if (!f) {
		err_msg("/dev/oreblk%d: %s: %s", index, path, strerror(errno));
		return 1;
	}
	if (fputs(action, f) < 0 || fclose(f)) {
		err_msg("/dev/oreblk%d: cannot start a %s: %s%s", index, action,
			strerror(errno),
			errno == EBUSY ? " (a sync runs already)" :
			errno == EINVAL ? " (no redundancy, or degraded: see the kernel log)" : "");
		return 1;
	}
	printf("%s: %s of /dev/oreblk%d started\n", prog, action, index);
	if (!wait)
		return 0;
	if (wait_idle(index) ||
	    read_attr(index, "mismatch_cnt", mism, sizeof(mism))) {
		err_msg("/dev/oreblk%d: cannot read its sync state", index);
		return 1;
	}
	printf("%s: %s of /dev/oreblk%d over: mismatch_cnt %s\n", prog, action,
	       index, mism);
	return 0;
}

/* ------------------------------------------------------------------ */
/* examine, wipe */

/*
 * The write-intent lines of examine: the region and how many of the
 * member's bits are set (regions a dirty assembly repairs).
 */
static void print_intent(const char *path, const struct oreblk_sb *sb)
{
	uint32_t nbits = oreblk_intent_bits(sb), set = 0, b;
	const uint8_t *map;
	void *buf = NULL;
	int fd;

	printf("    consistency : intent (bitmap at %" PRIu64 ", %" PRIu64 " bytes per bit, %u bits)\n",
	       (uint64_t)le64toh(sb->intent_offset),
	       (uint64_t)le64toh(sb->intent_region), nbits);
	fd = open(path, O_RDONLY | O_CLOEXEC | O_DIRECT);
	if (fd < 0 && errno == EINVAL)
		fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || posix_memalign(&buf, 4096, OREBLK_INTENT_BYTES) ||
	    pread(fd, buf, OREBLK_INTENT_BYTES, (off_t)le64toh(sb->intent_offset)) !=
	    OREBLK_INTENT_BYTES) {
		printf("  intent bitmap : cannot read it: %s\n", strerror(errno));
		goto out;
	}
	map = buf;
	for (b = 0; b < nbits; b++)
		set += (map[b / 8] >> (b % 8)) & 1;
	printf("  intent bitmap : %u of %u bits set\n", set, nbits);
out:
	free(buf);
	if (fd >= 0)
		close(fd);
}

static int cmd_examine(int argc, char **argv)
{
	struct oreblk_sb sb;
	struct ore_layout l;
	char why[128], u[40];
	int i, rc = 0;
	uint32_t j;

	if (argc < 3)
		usage();
	for (i = 2; i < argc; i++) {
		enum sb_state st = read_sb(argv[i], &sb, &l, why, sizeof(why));
		uint64_t faulty;

		if (st != SB_OK) {
			err_msg("%s: %s%s", argv[i], why,
				st == SB_NONE ? ": not an oreblk member" : "");
			rc = 1;
			continue;
		}
		faulty = le64toh(sb.faulty_map);
		printf("%s:\n", argv[i]);
		fmt_uuid(sb.array_uuid, u);
		printf("          magic : 0x%08x (version %u)\n", le32toh(sb.magic),
		       le32toh(sb.version));
		printf("     array uuid : %s\n", u);
		fmt_uuid(sb.member_uuid, u);
		printf("    member uuid : %s\n", u);
		printf("           name : %.*s\n", OREBLK_NAME_LEN, sb.name);
		printf("     raid level : %s\n", ore_layout_raid_name(l.raid_algorithm, l.mirrors_p1));
		printf("     chunk size : %uK\n", l.stripe_unit >> 10);
		printf("         layout : group_width %u, group_depth %u, group_count %u, mirrors_p1 %u\n",
		       l.group_width, l.group_depth, l.group_count, l.mirrors_p1);
		printf("         member : %u of %u\n", le32toh(sb.member_index),
		       le32toh(sb.nr_members));
		printf("    data offset : %" PRIu64 "\n", (uint64_t)le64toh(sb.data_offset));
		printf("      data size : %" PRIu64 "\n", (uint64_t)le64toh(sb.data_size));
		printf("     array size : %" PRIu64 "\n", (uint64_t)le64toh(sb.array_size));
		printf("         events : %" PRIu64 "\n", (uint64_t)le64toh(sb.events));
		printf("       checksum : 0x%08x (correct)\n", le32toh(sb.csum));
		printf("   member state :");
		for (j = 0; j < le32toh(sb.nr_members); j++)
			printf(" %c", faulty & (1ull << j) ? 'F' : 'A');
		printf("   (A active, F faulty)\n");
		if (le32toh(sb.flags) & OREBLK_SB_FL_RECOVERING)
			printf("     rebuilding : rebuilt up to data offset %" PRIu64 "\n",
			       (uint64_t)le64toh(sb.recovery_offset));
		if (le32toh(sb.array_state) & OREBLK_SB_ST_DIRTY)
			printf("    array state : dirty (resync from array offset %" PRIu64 ")\n",
			       (uint64_t)le64toh(sb.resync_offset));
		else
			printf("    array state : clean\n");
		if (le32toh(sb.consistency) == OREBLK_CONSISTENCY_INTENT)
			print_intent(argv[i], &sb);
		else
			printf("    consistency : resync\n");
		if (le32toh(sb.csum_type))
			printf("      checksums : %s (region at %" PRIu64 ", %" PRIu64 " bytes)\n",
			       le32toh(sb.csum_type) == OREBLK_CSUM_XXH64 ?
			       "xxh64" : "crc32c",
			       (uint64_t)le64toh(sb.csum_offset),
			       ore_csum_bytes(le64toh(sb.data_size)));
		else
			printf("      checksums : none\n");
	}
	return rc;
}

static int cmd_wipe(int argc, char **argv)
{
	static char zero[OREBLK_SB_SIZE];
	int i, rc = 0;

	if (argc < 3)
		usage();
	for (i = 2; i < argc; i++) {
		int fd = open(argv[i], O_WRONLY | O_EXCL | O_CLOEXEC);

		if (fd < 0 || pwrite(fd, zero, sizeof(zero), OREBLK_SB_OFFSET) !=
			      (ssize_t)sizeof(zero) || fsync(fd)) {
			err_msg("%s: cannot wipe the superblock: %s", argv[i],
				strerror(errno));
			rc = 1;
		}
		if (fd >= 0)
			close(fd);
	}
	return rc;
}

/* ------------------------------------------------------------------ */
/* for oreblk_scan.c (oreblk_cmds.h) */

const char oreblk_control_path[] = CONTROL;

int oreblk_read_member(const char *path, struct oreblk_member_info *mi,
		       char *why, size_t whylen)
{
	struct ore_layout l;
	struct oreblk_sb sb;

	switch (read_sb(path, &sb, &l, why, whylen)) {
	case SB_OK:
		break;
	case SB_NONE:
		return 1;
	default:
		return -1;
	}
	memset(mi, 0, sizeof(*mi));
	memcpy(mi->array_uuid, sb.array_uuid, OREBLK_UUID_SIZE);
	memcpy(mi->member_uuid, sb.member_uuid, OREBLK_UUID_SIZE);
	mi->member_index = le32toh(sb.member_index);
	mi->nr_members = le32toh(sb.nr_members);
	mi->events = le64toh(sb.events);
	mi->faulty_map = le64toh(sb.faulty_map);
	memcpy(mi->name, sb.name, OREBLK_NAME_LEN);
	return 0;
}

int oreblk_check_members(char **paths, int n)
{
	return check_members(paths, n);
}

int oreblk_start_array(int index, char **paths, int n)
{
	return do_assemble(index, paths, n, 0);
}

void oreblk_fmt_uuid(const uint8_t *u, char *buf)
{
	fmt_uuid(u, buf);
}

int main(int argc, char **argv)
{
	const char *cmd;

	if (argc < 2)
		usage();
	cmd = argv[1];
	if (!strcmp(cmd, "create"))
		return cmd_create(argc, argv);
	if (!strcmp(cmd, "assemble"))
		return cmd_assemble(argc, argv);
	if (!strcmp(cmd, "stop"))
		return cmd_stop(argc, argv);
	if (!strcmp(cmd, "detail"))
		return cmd_detail(argc, argv);
	if (!strcmp(cmd, "examine"))
		return cmd_examine(argc, argv);
	if (!strcmp(cmd, "fail"))
		return cmd_fail(argc, argv);
	if (!strcmp(cmd, "wipe"))
		return cmd_wipe(argc, argv);
	if (!strcmp(cmd, "add"))
		return cmd_add(argc, argv);
	if (!strcmp(cmd, "replace"))
		return cmd_replace(argc, argv);
	if (!strcmp(cmd, "remove"))
		return cmd_remove(argc, argv);
	if (!strcmp(cmd, "check"))
		return cmd_check(argc, argv);
	if (!strcmp(cmd, "incremental"))
		return oreblk_cmd_incremental(argc, argv);
	if (!strcmp(cmd, "monitor"))
		return oreblk_cmd_monitor(argc, argv);
	if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help"))
		usage();
	err_msg("unknown command %s", cmd);
	usage();
	return 2;
}
