// SPDX-License-Identifier: GPL-2.0
/*
 * oreblk assemble --scan, oreblk incremental, oreblk monitor: finding
 * arrays by their members' superblocks and watching the running ones, in
 * the habits of mdadm --assemble --scan, --incremental and --monitor.
 *
 * Candidates are the block devices of /sys/class/block except oreblk*,
 * ram*, zram*, sr*, fd*, devices of size 0 and devices something holds
 * (holders/ not empty: a device-mapper target or a partition table over
 * it is the path to use, not the device under it). Arrays already
 * running (/sys/block/oreblk*\/ore/uuid) are left alone.
 *
 * The monitor polls /sys/block/oreblk*\/ore/{uuid,degraded,members}: the
 * kernel sends no uevent when a member fails. Events, as mdadm names them:
 *   NewArray          an array appeared (after the first pass)
 *   DeviceDisappeared an array went away (stopped)
 *   Fail              a member went from active (or replacing) to faulty
 *                     or missing
 *   DegradedArray     the array has members out of service (at the first
 *                     pass, with --oneshot, or when it becomes degraded)
 *   SpareActive       a member came back to active (no such path in the
 *                     kernel yet: re-add/rebuild do not exist)
 *   RebuildStarted, RebuildFinished
 *                     a member from faulty or missing to another state
 *                     ("rebuilding"), or from active to "replacing"; and
 *                     back to active
 *   TestMessage       --test, once per array at start
 * Each is a line "EVENT /dev/oreblkN [MEMBER]" on stdout (unless --syslog
 * or --program take it), a syslog(3) message with --syslog (LOG_DAEMON,
 * LOG_ALERT for Fail and DegradedArray), and `PROG EVENT /dev/oreblkN
 * [MEMBER]` with --program.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "oreblk_cmds.h"

#define SYS_BLOCK	"/sys/class/block"
#define LOCK_PATH	"/run/oreblk.lock"
#define MAX_CANDIDATES	4096
#define MAX_ARRAYS	256
#define MAX_MEMBERS	64

/* Read a small sysfs file into @buf, trailing newline dropped. */
static int read_attr(const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = 0;
	while (n > 0 && buf[n - 1] == '\n')
		buf[--n] = 0;
	return 0;
}

static int skip_name(const char *name)
{
	static const char *const prefixes[] = { "oreblk", "ram", "zram", "sr", "fd" };
	size_t i;

	for (i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++)
		if (!strncmp(name, prefixes[i], strlen(prefixes[i])))
			return 1;
	return 0;
}

/* Something sits over the device (dm target, partitions, ...). */
static int has_holders(const char *name)
{
	char path[512];
	struct dirent *de;
	DIR *d;
	int n = 0;

	snprintf(path, sizeof(path), SYS_BLOCK "/%s/holders", name);
	d = opendir(path);
	if (!d)
		return 0;
	while ((de = readdir(d)))
		if (de->d_name[0] != '.')
			n++;
	closedir(d);
	if (n)
		return 1;
	/* a whole disk with partitions: the partitions are the candidates */
	snprintf(path, sizeof(path), SYS_BLOCK "/%s", name);
	d = opendir(path);
	if (!d)
		return 0;
	while ((de = readdir(d)))
		if (!strncmp(de->d_name, name, strlen(name)) && de->d_name[strlen(name)])
			n++;
	closedir(d);
	return n > 0;
}

struct cand {
	char path[300];
	struct oreblk_member_info mi;
	int used;
};

/* Every block device carrying a valid member superblock. */
static int find_members(struct cand *c, int max)
{
	struct dirent *de;
	DIR *d = opendir(SYS_BLOCK);
	int n = 0;

	if (!d) {
		fprintf(stderr, "oreblk: cannot read " SYS_BLOCK ": %s\n", strerror(errno));
		return -1;
	}
	while ((de = readdir(d)) && n < max) {
		char p[512], size[32], why[160], *s;

		if (de->d_name[0] == '.' || skip_name(de->d_name))
			continue;
		snprintf(p, sizeof(p), SYS_BLOCK "/%s/size", de->d_name);
		if (read_attr(p, size, sizeof(size)) || !strcmp(size, "0"))
			continue;
		if (has_holders(de->d_name))
			continue;
		snprintf(c[n].path, sizeof(c[n].path), "/dev/%s", de->d_name);
		for (s = c[n].path + 5; *s; s++)
			if (*s == '!')
				*s = '/';
		if (oreblk_read_member(c[n].path, &c[n].mi, why, sizeof(why)))
			continue;
		c[n].used = 0;
		n++;
	}
	closedir(d);
	return n;
}

/* Is an array with this uuid running? Its /dev name into @dev. */
static int array_running(const uint8_t *uuid, char *dev, size_t len)
{
	char want[40], p[300], have[64];
	struct dirent *de;
	DIR *d = opendir("/sys/block");
	int found = 0;

	oreblk_fmt_uuid(uuid, want);
	if (!d)
		return 0;
	while (!found && (de = readdir(d))) {
		if (strncmp(de->d_name, "oreblk", 6))
			continue;
		snprintf(p, sizeof(p), "/sys/block/%s/ore/uuid", de->d_name);
		if (!read_attr(p, have, sizeof(have)) && !strcasecmp(have, want)) {
			snprintf(dev, len, "/dev/%.40s", de->d_name);
			found = 1;
		}
	}
	closedir(d);
	return found;
}

/* The control device, loading oreblk.ko when it is not there. */
static void ensure_control(void)
{
	pid_t pid;

	if (!access(oreblk_control_path, F_OK))
		return;
	pid = fork();
	if (pid == 0) {
		execlp("modprobe", "modprobe", "-q", "oreblk", (char *)NULL);
		_exit(127);
	}
	if (pid > 0)
		waitpid(pid, NULL, 0);
}

/*
 * One lock for everything that assembles: udev runs us in parallel, and
 * create holds it from its first superblock write to its assemble (the
 * writes end in close()s that make udev run incremental on the members).
 */
int oreblk_lock(void)
{
	int fd = open(LOCK_PATH, O_RDWR | O_CREAT | O_CLOEXEC, 0600);

	if (fd >= 0 && flock(fd, LOCK_EX))
		fprintf(stderr, "oreblk: cannot lock " LOCK_PATH ": %s\n", strerror(errno));
	return fd;
}

/*
 * Collect the members of the array of c[first] (marking them used) into
 * @paths. Return: the number of paths, -1 when two devices carry the same
 * member (a copy or a multipath view: which one to use is not ours to
 * guess).
 */
static int group_of(struct cand *c, int n, int first, char **paths,
		    uint32_t *fresh)
{
	uint64_t max_events = 0;
	int i, j, k = 0, dup = 0;
	uint64_t seen = 0;

	for (i = first; i < n; i++) {
		if (c[i].used || memcmp(c[i].mi.array_uuid, c[first].mi.array_uuid,
					 OREBLK_CMDS_UUID_LEN))
			continue;
		c[i].used = 1;
		if (c[i].mi.member_index < MAX_MEMBERS &&
		    (seen & (1ull << c[i].mi.member_index))) {
			fprintf(stderr, "oreblk: %s: member %u of this array is on another device too: not assembled by scan (name the members: oreblk assemble)\n",
				c[i].path, c[i].mi.member_index);
			dup = 1;
		}
		if (c[i].mi.member_index < MAX_MEMBERS)
			seen |= 1ull << c[i].mi.member_index;
		if (c[i].mi.events > max_events)
			max_events = c[i].mi.events;
		if (k < MAX_MEMBERS)
			paths[k++] = c[i].path;
	}
	/* members fresh and not marked faulty by the freshest */
	*fresh = 0;
	for (i = first; i < n; i++) {
		uint64_t faulty = 0;

		if (!c[i].used || memcmp(c[i].mi.array_uuid, c[first].mi.array_uuid,
					 OREBLK_CMDS_UUID_LEN))
			continue;
		for (j = first; j < n; j++)
			if (c[j].used && !memcmp(c[j].mi.array_uuid, c[first].mi.array_uuid,
						 OREBLK_CMDS_UUID_LEN) &&
			    c[j].mi.events == max_events)
				faulty |= c[j].mi.faulty_map;
		if (c[i].mi.events == max_events && c[i].mi.member_index < MAX_MEMBERS &&
		    !(faulty & (1ull << c[i].mi.member_index)))
			(*fresh)++;
	}
	return dup ? -1 : k;
}

/* oreblk assemble --scan [--dry-run] */
int oreblk_cmd_assemble_scan(int argc, char **argv)
{
	static struct cand c[MAX_CANDIDATES];
	int i, n, dry = 0, rc = 0, lock;

	for (i = 3; i < argc; i++) {
		if (!strcmp(argv[i], "--dry-run") || !strcmp(argv[i], "-n")) {
			dry = 1;
		} else {
			fprintf(stderr, "oreblk: assemble --scan takes no member names (only --dry-run)\n");
			return 2;
		}
	}
	lock = oreblk_lock();
	n = find_members(c, MAX_CANDIDATES);
	if (n < 0)
		return 1;
	for (i = 0; i < n; i++) {
		char *paths[MAX_MEMBERS], u[40], dev[64];
		uint32_t fresh;
		int k;

		if (c[i].used)
			continue;
		k = group_of(c, n, i, paths, &fresh);
		oreblk_fmt_uuid(c[i].mi.array_uuid, u);
		if (array_running(c[i].mi.array_uuid, dev, sizeof(dev))) {
			printf("oreblk: array %s is running already as %s\n", u, dev);
			continue;
		}
		if (k < 0) {
			rc = 1;
			continue;
		}
		printf("oreblk: array %s%s%s: %d device%s found (%u of %u members in service)\n",
		       u, c[i].mi.name[0] ? " name " : "", c[i].mi.name, k,
		       k == 1 ? "" : "s", fresh, c[i].mi.nr_members);
		if (dry)
			continue;
		ensure_control();
		if (oreblk_check_members(paths, k) ||
		    oreblk_start_array(OREBLK_CMDS_INDEX_ANY, paths, k))
			rc = 1;
	}
	if (!n)
		printf("oreblk: no array members found\n");
	if (lock >= 0)
		close(lock);
	return rc;
}

/*
 * oreblk incremental MEMBER: udev's entry. Nothing to do (exit 0) for a
 * device that is not a member or whose array runs; the array starts when
 * all its members are there (a degraded start is `assemble --scan`'s, at
 * the end of boot, as mdadm's last-resort unit).
 */
int oreblk_cmd_incremental(int argc, char **argv)
{
	static struct cand c[MAX_CANDIDATES];
	struct oreblk_member_info mi;
	char why[160], u[40], dev[64], *paths[MAX_MEMBERS];
	uint32_t fresh;
	int n, i, k, lock, rc = 0;

	if (argc != 3) {
		fprintf(stderr, "usage: oreblk incremental MEMBER\n");
		return 2;
	}
	i = oreblk_read_member(argv[2], &mi, why, sizeof(why));
	if (i) {
		if (i < 0)
			fprintf(stderr, "oreblk: %s: %s\n", argv[2], why);
		return 0;	/* not a member: nothing for us */
	}
	oreblk_fmt_uuid(mi.array_uuid, u);
	lock = oreblk_lock();
	if (array_running(mi.array_uuid, dev, sizeof(dev))) {
		printf("oreblk: %s: array %s is running already as %s\n", argv[2], u, dev);
		goto out;
	}
	n = find_members(c, MAX_CANDIDATES);
	for (i = 0; i < n; i++)
		if (!memcmp(c[i].mi.array_uuid, mi.array_uuid, OREBLK_CMDS_UUID_LEN))
			break;
	if (n <= 0 || i == n) {
		printf("oreblk: %s: member %u of array %s; not among the scanned devices (held by something?)\n",
		       argv[2], mi.member_index, u);
		goto out;
	}
	k = group_of(c, n, i, paths, &fresh);
	if (k < 0) {
		rc = 1;
		goto out;
	}
	if (fresh < mi.nr_members) {
		printf("oreblk: %s: member %u of array %s; %u of %u members present: waiting for the others\n",
		       argv[2], mi.member_index, u, fresh, mi.nr_members);
		goto out;
	}
	ensure_control();
	if (oreblk_check_members(paths, k) ||
	    oreblk_start_array(OREBLK_CMDS_INDEX_ANY, paths, k))
		rc = 1;
out:
	if (lock >= 0)
		close(lock);
	return rc;
}

/* ------------------------------------------------------------------ */
/* monitor */

struct mon_array {
	char name[32];		/* oreblkN */
	char uuid[40];
	int present, seen;
	int degraded;
	uint32_t nr;
	char state[MAX_MEMBERS][16];
	char path[MAX_MEMBERS][64];
};

static struct {
	const char *program;
	int use_syslog;
	int nr_names;
	char **names;
} mon;

static void mon_event(const char *event, const char *dev, const char *member)
{
	int prio = LOG_INFO;

	if (!strcmp(event, "Fail") || !strcmp(event, "DegradedArray"))
		prio = LOG_ALERT;
	else if (!strcmp(event, "DeviceDisappeared"))
		prio = LOG_WARNING;
	if (mon.use_syslog)
		syslog(prio, "%s event detected on oreblk device %s%s%s", event,
		       dev, member ? ", component device " : "", member ? member : "");
	if (mon.program) {
		pid_t pid = fork();

		if (pid == 0) {
			execlp(mon.program, mon.program, event, dev, member,
			       (char *)NULL);
			fprintf(stderr, "oreblk: monitor: cannot run %s: %s\n",
				mon.program, strerror(errno));
			_exit(127);
		}
		if (pid > 0)
			waitpid(pid, NULL, 0);
	}
	if (!mon.use_syslog && !mon.program) {
		printf("%s %s%s%s\n", event, dev, member ? " " : "", member ? member : "");
		fflush(stdout);
	}
}

static int mon_wanted(const char *name)
{
	int i;

	if (!mon.nr_names)
		return 1;
	for (i = 0; i < mon.nr_names; i++) {
		const char *w = mon.names[i];

		if (!strncmp(w, "/dev/", 5))
			w += 5;
		if (!strcmp(w, name))
			return 1;
	}
	return 0;
}

/* Read one array's state from sysfs. Return: 0 read. */
static int mon_read(const char *name, struct mon_array *a)
{
	char p[300], buf[8192], *line, *save;

	memset(a, 0, sizeof(*a));
	snprintf(a->name, sizeof(a->name), "%s", name);
	snprintf(p, sizeof(p), "/sys/block/%s/ore/uuid", name);
	if (read_attr(p, a->uuid, sizeof(a->uuid)))
		return -1;
	snprintf(p, sizeof(p), "/sys/block/%s/ore/degraded", name);
	if (read_attr(p, buf, sizeof(buf)))
		return -1;
	a->degraded = atoi(buf);
	snprintf(p, sizeof(p), "/sys/block/%s/ore/members", name);
	if (read_attr(p, buf, sizeof(buf)))
		return -1;
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		unsigned int idx;
		int errs;
		char st[16], path[64];

		if (sscanf(line, "%u %15s %d %63s", &idx, st, &errs, path) != 4 ||
		    idx >= MAX_MEMBERS)
			continue;
		snprintf(a->state[idx], sizeof(a->state[idx]), "%s", st);
		snprintf(a->path[idx], sizeof(a->path[idx]), "%s",
			 strcmp(path, "-") ? path : "");
		if (idx + 1 > a->nr)
			a->nr = idx + 1;
	}
	a->present = 1;
	return 0;
}

static void mon_compare(struct mon_array *old, struct mon_array *now,
			int first, int oneshot, int test)
{
	char dev[64];
	uint32_t i;

	snprintf(dev, sizeof(dev), "/dev/%.31s", now->name);
	if (test)
		mon_event("TestMessage", dev, NULL);
	if (!old->present || strcmp(old->uuid, now->uuid)) {
		if (!first)
			mon_event("NewArray", dev, NULL);
		if (now->degraded)
			mon_event("DegradedArray", dev, NULL);
		return;
	}
	for (i = 0; i < now->nr; i++) {
		const char *was = old->state[i], *is = now->state[i];
		const char *member = now->path[i][0] ? now->path[i] : old->path[i];
		char idx[16];

		if (!member[0]) {
			snprintf(idx, sizeof(idx), "member%u", i);
			member = idx;
		}
		if (!strcmp(was, is))
			continue;
		if ((!strcmp(was, "active") || !strcmp(was, "replacing")) &&
		    (!strcmp(is, "faulty") || !strcmp(is, "missing")))
			mon_event("Fail", dev, member);
		else if (!strcmp(was, "active") && !strcmp(is, "replacing"))
			mon_event("RebuildStarted", dev, member);
		else if (!strcmp(is, "active") &&
			 (!strcmp(was, "faulty") || !strcmp(was, "missing")))
			mon_event("SpareActive", dev, member);
		else if (!strcmp(is, "active"))
			mon_event("RebuildFinished", dev, member);
		else if (!strcmp(was, "faulty") || !strcmp(was, "missing"))
			mon_event("RebuildStarted", dev, member);
	}
	if (now->degraded > old->degraded || (oneshot && now->degraded))
		mon_event("DegradedArray", dev, NULL);
}

static volatile sig_atomic_t mon_stop;

static void mon_signal(int sig)
{
	(void)sig;
	mon_stop = 1;
}

static void mon_usage(void)
{
	fprintf(stderr,
		"usage: oreblk monitor [--scan] [--oneshot] [--delay SEC] [--program PROG]\n"
		"                      [--syslog] [--test] [DEV...]\n");
	exit(2);
}

/*
 * oreblk monitor: without DEV every array (--scan says so explicitly, as
 * for mdadm), arrays that appear later included.
 */
int oreblk_cmd_monitor(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "scan", no_argument, NULL, 's' },
		{ "oneshot", no_argument, NULL, '1' },
		{ "delay", required_argument, NULL, 'd' },
		{ "program", required_argument, NULL, 'p' },
		{ "alert", required_argument, NULL, 'p' },
		{ "syslog", no_argument, NULL, 'y' },
		{ "test", no_argument, NULL, 't' },
		{ NULL, 0, NULL, 0 },
	};
	static struct mon_array arrays[MAX_ARRAYS], now;
	int c, oneshot = 0, test = 0, first = 1, n = 0, i;
	long delay = 60;
	struct sigaction sa;

	optind = 2;
	while ((c = getopt_long(argc, argv, "s1d:p:yt", opts, NULL)) != -1) {
		switch (c) {
		case 's': break;
		case '1': oneshot = 1; break;
		case 'd':
			delay = strtol(optarg, NULL, 10);
			if (delay < 1)
				mon_usage();
			break;
		case 'p': mon.program = optarg; break;
		case 'y': mon.use_syslog = 1; break;
		case 't': test = 1; break;
		default: mon_usage();
		}
	}
	mon.names = argv + optind;
	mon.nr_names = argc - optind;
	for (i = 0; i < mon.nr_names; i++)
		if (strncmp(mon.names[i] + (strncmp(mon.names[i], "/dev/", 5) ? 0 : 5),
			    "oreblk", 6))
			mon_usage();
	if (mon.use_syslog)
		openlog("oreblk", LOG_PID, LOG_DAEMON);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = mon_signal;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	signal(SIGCHLD, SIG_DFL);

	while (!mon_stop) {
		struct dirent *de;
		DIR *d = opendir("/sys/block");

		for (i = 0; i < n; i++)
			arrays[i].seen = 0;
		while (d && (de = readdir(d))) {
			int j;

			if (strncmp(de->d_name, "oreblk", 6) || !mon_wanted(de->d_name) ||
			    mon_read(de->d_name, &now))
				continue;
			for (j = 0; j < n; j++)
				if (!strcmp(arrays[j].name, now.name))
					break;
			if (j == n) {
				if (n == MAX_ARRAYS)
					continue;
				memset(&arrays[n++], 0, sizeof(arrays[0]));
			}
			mon_compare(&arrays[j], &now, first, oneshot, test && first);
			arrays[j] = now;
			arrays[j].seen = 1;
		}
		if (d)
			closedir(d);
		for (i = 0; i < n; i++) {
			if (arrays[i].present && !arrays[i].seen) {
				char dev[64];

				snprintf(dev, sizeof(dev), "/dev/%.31s", arrays[i].name);
				mon_event("DeviceDisappeared", dev, NULL);
				arrays[i].present = 0;
			}
		}
		first = 0;
		if (oneshot)
			break;
		for (i = 0; i < delay * 10 && !mon_stop; i++)
			usleep(100000);
	}
	if (mon.use_syslog)
		closelog();
	return 0;
}
