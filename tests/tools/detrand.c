// SPDX-License-Identifier: GPL-2.0
/*
 * detrand.so - LD_PRELOAD shim that makes mkfs.exofs and tools/oreblk
 * deterministic, so that two builds can be compared byte for byte
 * (tools/test_compat.sh): getrandom() and reads of /dev/urandom return a
 * fixed pseudo-random stream (xorshift64, seed ORE_DETRAND_SEED, default
 * 1), clock_gettime() and time() a fixed time (ORE_DETRAND_TIME seconds,
 * default 1700000000, 123456789 ns). A test aid, never installed.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

static uint64_t state;

static uint8_t next_byte(void)
{
	if (!state) {
		const char *s = getenv("ORE_DETRAND_SEED");

		state = s ? strtoull(s, NULL, 0) : 1;
		if (!state)
			state = 1;
	}
	state ^= state << 13;
	state ^= state >> 7;
	state ^= state << 17;
	return (uint8_t)(state >> 32);
}

static time_t fixed_time(void)
{
	const char *s = getenv("ORE_DETRAND_TIME");

	return s ? (time_t)strtoll(s, NULL, 0) : 1700000000;
}

ssize_t getrandom(void *buf, size_t len, unsigned int flags)
{
	uint8_t *p = buf;
	size_t i;

	(void)flags;
	for (i = 0; i < len; i++)
		p[i] = next_byte();
	return (ssize_t)len;
}

int clock_gettime(clockid_t clk, struct timespec *ts)
{
	(void)clk;
	ts->tv_sec = fixed_time();
	ts->tv_nsec = 123456789;
	return 0;
}

time_t time(time_t *t)
{
	time_t now = fixed_time();

	if (t)
		*t = now;
	return now;
}

/* /dev/urandom: a memory file with the next 4 KiB of the stream. */
static int urandom_fd(void)
{
	uint8_t buf[4096];
	size_t i;
	int fd = memfd_create("detrand", MFD_CLOEXEC);

	if (fd < 0)
		return -1;
	for (i = 0; i < sizeof(buf); i++)
		buf[i] = next_byte();
	if (write(fd, buf, sizeof(buf)) != (ssize_t)sizeof(buf) ||
	    lseek(fd, 0, SEEK_SET)) {
		close(fd);
		return -1;
	}
	return fd;
}

int open(const char *path, int flags, ...)
{
	mode_t mode = 0;
	va_list ap;

	if (!strcmp(path, "/dev/urandom") || !strcmp(path, "/dev/random"))
		return urandom_fd();
	if (flags & (O_CREAT | O_TMPFILE)) {
		va_start(ap, flags);
		mode = va_arg(ap, mode_t);
		va_end(ap);
	}
	return openat(AT_FDCWD, path, flags, mode);
}
int open64(const char *path, int flags, ...) __attribute__((alias("open")));
