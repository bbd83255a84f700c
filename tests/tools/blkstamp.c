// SPDX-License-Identifier: GPL-2.0
/*
 * blkstamp - self-describing 4 KiB blocks on a block device, for crash
 * tests: every block carries its own number, a generation and a fill
 * derived from both, so a block is either some version that was written
 * whole, or damaged (what a stripe rebuilt from stale parity returns).
 *
 *   blkstamp fill DEV BLOCKS            stamp blocks 0..BLOCKS-1, generation 0
 *   blkstamp write DEV BLOCKS SEED JOBS SECONDS
 *                                       JOBS processes write random runs of
 *                                       1..16 stamped blocks (direct I/O, at
 *                                       nice 19) until SECONDS pass or killed
 *   blkstamp verify DEV BLOCKS          read them all; exit 1 when a block
 *                                       is not a whole stamp of its own number
 *
 * DEV may also be a regular file (exofs crash tests): it is then read and
 * written through the page cache (no O_DIRECT, which exofs does not
 * offer), and each writer calls fdatasync() after every second run, so
 * that runs keep reaching the stores as small, partial-stripe writes.
 *
 * Exit status: 0 ok, 1 damaged blocks or I/O error, 2 bad usage.
 */
#define _GNU_SOURCE	/* O_DIRECT */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define BLK		4096
#define WORDS		(BLK / 8)
#define MAGIC		0x504d415453524f45ULL	/* "EORSTAMP" */
#define CHUNK_BLKS	256			/* 1 MiB per read */
#define MAX_RUN		16

static uint64_t mix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

static void stamp(uint64_t *w, uint64_t block, uint64_t gen)
{
	uint64_t x = mix(block * 0x100000001b3ULL ^ gen);
	unsigned int i;

	w[0] = MAGIC;
	w[1] = block;
	w[2] = gen;
	for (i = 3; i < WORDS; i++) {
		x = mix(x);
		w[i] = x;
	}
}

/* 0: a whole stamp of @block; else what is wrong */
static const char *check(const uint64_t *w, uint64_t block)
{
	static uint64_t want[WORDS];

	if (w[0] != MAGIC)
		return "no stamp";
	if (w[1] != block)
		return "another block's stamp";
	stamp(want, block, w[2]);
	if (memcmp(w, want, BLK))
		return "stamp damaged";
	return NULL;
}

static int is_file;	/* DEV is a regular file: buffered, fdatasync */

static int open_dev(const char *path, int flags)
{
	struct stat st;
	int fd;

	is_file = !stat(path, &st) && S_ISREG(st.st_mode);
	fd = open(path, flags | (is_file ? 0 : O_DIRECT) | O_CLOEXEC);

	if (fd < 0)
		fprintf(stderr, "blkstamp: %s: %s\n", path, strerror(errno));
	return fd;
}

static void *buf_alloc(size_t len)
{
	void *p = NULL;

	if (posix_memalign(&p, BLK, len)) {
		fprintf(stderr, "blkstamp: out of memory\n");
		exit(1);
	}
	return p;
}

static int cmd_fill(const char *dev, uint64_t blocks)
{
	uint64_t *buf = buf_alloc((size_t)CHUNK_BLKS * BLK), b, n, i;
	int fd = open_dev(dev, O_WRONLY);

	if (fd < 0)
		return 1;
	for (b = 0; b < blocks; b += n) {
		n = blocks - b < CHUNK_BLKS ? blocks - b : CHUNK_BLKS;
		for (i = 0; i < n; i++)
			stamp(buf + i * WORDS, b + i, 0);
		if (pwrite(fd, buf, n * BLK, (off_t)(b * BLK)) != (ssize_t)(n * BLK)) {
			fprintf(stderr, "blkstamp: write at block %" PRIu64 ": %s\n",
				b, strerror(errno));
			return 1;
		}
	}
	if (fsync(fd)) {
		fprintf(stderr, "blkstamp: fsync: %s\n", strerror(errno));
		return 1;
	}
	close(fd);
	return 0;
}

static int writer(const char *dev, uint64_t blocks, uint64_t seed, int job,
		  time_t until)
{
	uint64_t *buf = buf_alloc((size_t)MAX_RUN * BLK);
	uint64_t x = mix(seed * 1000003 + (uint64_t)job), count = 0;
	int fd = open_dev(dev, O_WRONLY);

	if (fd < 0)
		return 1;
	/* the lowest priority: the test's other commands must get the CPU */
	if (nice(19) < 0)
		perror("blkstamp: nice");
	while (time(NULL) < until) {
		uint64_t run, first, i;

		x = mix(x);
		run = 1 + x % MAX_RUN;
		if (run > blocks)
			run = blocks;
		x = mix(x);
		first = x % (blocks - run + 1);
		for (i = 0; i < run; i++)
			stamp(buf + i * WORDS, first + i,
			      seed << 40 | (uint64_t)job << 32 | count);
		count++;
		if (pwrite(fd, buf, run * BLK, (off_t)(first * BLK)) !=
		    (ssize_t)(run * BLK)) {
			fprintf(stderr, "blkstamp: job %d: write at block %" PRIu64 ": %s\n",
				job, first, strerror(errno));
			return 1;
		}
		if (is_file && !(count % 2) && fdatasync(fd)) {
			fprintf(stderr, "blkstamp: job %d: fdatasync: %s\n",
				job, strerror(errno));
			return 1;
		}
	}
	return 0;
}

static int cmd_write(const char *dev, uint64_t blocks, uint64_t seed,
		     int jobs, int seconds)
{
	time_t until = time(NULL) + seconds;
	int j, rc = 0, st;

	for (j = 0; j < jobs; j++) {
		pid_t pid = fork();

		if (pid < 0) {
			fprintf(stderr, "blkstamp: fork: %s\n", strerror(errno));
			return 1;
		}
		if (!pid)
			_exit(writer(dev, blocks, seed, j, until));
	}
	while (wait(&st) > 0)
		if (!WIFEXITED(st) || WEXITSTATUS(st))
			rc = 1;
	return rc;
}

static int cmd_verify(const char *dev, uint64_t blocks)
{
	uint64_t *buf = buf_alloc((size_t)CHUNK_BLKS * BLK), b, n, i, bad = 0;
	int fd = open_dev(dev, O_RDONLY);

	if (fd < 0)
		return 1;
	for (b = 0; b < blocks; b += n) {
		n = blocks - b < CHUNK_BLKS ? blocks - b : CHUNK_BLKS;
		if (pread(fd, buf, n * BLK, (off_t)(b * BLK)) != (ssize_t)(n * BLK)) {
			fprintf(stderr, "blkstamp: read at block %" PRIu64 ": %s\n",
				b, strerror(errno));
			return 1;
		}
		for (i = 0; i < n; i++) {
			const char *why = check(buf + i * WORDS, b + i);

			if (!why)
				continue;
			if (bad++ < 10)
				printf("block %" PRIu64 ": %s\n", b + i, why);
		}
	}
	close(fd);
	printf("%" PRIu64 " of %" PRIu64 " blocks damaged\n", bad, blocks);
	return bad ? 1 : 0;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: blkstamp fill DEV BLOCKS\n"
		"       blkstamp write DEV BLOCKS SEED JOBS SECONDS\n"
		"       blkstamp verify DEV BLOCKS\n");
	exit(2);
}

int main(int argc, char **argv)
{
	uint64_t blocks;

	if (argc < 4)
		usage();
	blocks = strtoull(argv[3], NULL, 0);
	if (!blocks)
		usage();
	if (!strcmp(argv[1], "fill") && argc == 4)
		return cmd_fill(argv[2], blocks);
	if (!strcmp(argv[1], "verify") && argc == 4)
		return cmd_verify(argv[2], blocks);
	if (!strcmp(argv[1], "write") && argc == 7 && atoi(argv[5]) > 0)
		return cmd_write(argv[2], blocks, strtoull(argv[4], NULL, 0),
				 atoi(argv[5]), atoi(argv[6]));
	usage();
	return 2;
}
