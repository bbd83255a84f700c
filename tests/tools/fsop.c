// SPDX-License-Identifier: GPL-2.0
/*
 * fsop - small filesystem operations the guest test suites need and that
 * busybox has no applet for: renameat2 flags, pattern writes and checks at
 * any offset (also beyond 4 GiB), O_APPEND, mmap reads and writes, unlink
 * of an open file, fsync/fdatasync/syncfs, statfs, readdir stability,
 * concurrent writers and filling a filesystem.
 *
 * Usage: fsop COMMAND ARGS... (see usage()). Exit status 0 on success, 1
 * when the operation failed or a check did not hold (the reason and the
 * errno name go to stderr, the errno name alone to stdout for the
 * commands documented to print it), 2 on bad usage.
 *
 * The pattern of seed S is a function of the absolute file offset, so any
 * range written with one seed can be verified alone: byte o is byte (o % 8)
 * of splitmix64(S * 0x9e3779b97f4a7c15 + o / 8).
 *
 * The xattr commands read and write extended attributes (the data
 * checksum head of a file store's object, "user.ore.csum") where the
 * attr package's getfattr/setfattr are not installed.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#include "ore_user.h"

#ifndef RENAME_NOREPLACE
#define RENAME_NOREPLACE	(1 << 0)
#endif
#ifndef RENAME_EXCHANGE
#define RENAME_EXCHANGE		(1 << 1)
#endif

static const char *prog = "fsop";

static const char *errname(int e)
{
	switch (e) {
	case 0: return "OK";
	case EEXIST: return "EEXIST";
	case ENOENT: return "ENOENT";
	case ENOTEMPTY: return "ENOTEMPTY";
	case ENOSPC: return "ENOSPC";
	case EINVAL: return "EINVAL";
	case EISDIR: return "EISDIR";
	case ENOTDIR: return "ENOTDIR";
	case EPERM: return "EPERM";
	case EACCES: return "EACCES";
	case EIO: return "EIO";
	case EFBIG: return "EFBIG";
	case EXDEV: return "EXDEV";
	case EBUSY: return "EBUSY";
	case EROFS: return "EROFS";
	case ENAMETOOLONG: return "ENAMETOOLONG";
	case EMLINK: return "EMLINK";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	case EBADF: return "EBADF";
	case EDQUOT: return "EDQUOT";
	case ENODATA: return "ENODATA";
	case ERANGE: return "ERANGE";
	default: return "E?";
	}
}

static int fail(const char *what, const char *path)
{
	int e = errno;

	fprintf(stderr, "%s: %s %s: %s (%s)\n", prog, what, path ? path : "",
		strerror(e), errname(e));
	return 1;
}

static uint64_t splitmix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

static void pattern(uint8_t *buf, uint64_t off, size_t len, uint64_t seed)
{
	size_t i = 0;

	while (i < len) {
		uint64_t o = off + i;
		uint64_t w = splitmix(seed * 0x9e3779b97f4a7c15ull + o / 8);
		unsigned int b;

		for (b = (unsigned int)(o % 8); b < 8 && i < len; b++, i++)
			buf[i] = (uint8_t)(w >> (8 * b));
	}
}

static uint64_t num(const char *s)
{
	uint64_t v;

	if (ore_user_parse_size(s, &v)) {
		fprintf(stderr, "%s: bad number '%s'\n", prog, s);
		exit(2);
	}
	return v;
}

#define CHUNK	(1u << 20)

/* Write the seed's pattern over [off, off + len) of fd. */
static int write_pattern(int fd, uint64_t off, uint64_t len, uint64_t seed,
			 const char *path)
{
	uint8_t *buf = malloc(CHUNK);

	while (len) {
		size_t n = len < CHUNK ? (size_t)len : CHUNK;
		ssize_t w;

		pattern(buf, off, n, seed);
		w = pwrite(fd, buf, n, (off_t)off);
		if (w < 0) {
			free(buf);
			return fail("pwrite", path);
		}
		off += (uint64_t)w;
		len -= (uint64_t)w;
	}
	free(buf);
	return 0;
}

/* Check [off, off + len) of fd holds the seed's pattern (seed 0: zeros). */
static int verify_pattern(int fd, uint64_t off, uint64_t len, uint64_t seed,
			  const char *path)
{
	uint8_t *buf = malloc(CHUNK), *want = malloc(CHUNK);
	int ret = 0;

	while (len) {
		size_t n = len < CHUNK ? (size_t)len : CHUNK, i;
		ssize_t r = pread(fd, buf, n, (off_t)off);

		if (r < 0) {
			ret = fail("pread", path);
			break;
		}
		if ((size_t)r != n) {
			fprintf(stderr, "%s: %s: short read at %" PRIu64 ": %zd of %zu\n",
				prog, path, off, r, n);
			ret = 1;
			break;
		}
		if (seed)
			pattern(want, off, n, seed);
		else
			memset(want, 0, n);
		if (memcmp(buf, want, n)) {
			for (i = 0; buf[i] == want[i]; i++)
				;
			fprintf(stderr, "%s: %s: mismatch at offset %" PRIu64
				": 0x%02x, expected 0x%02x (seed %" PRIu64 ")\n",
				prog, path, off + i, buf[i], want[i], seed);
			ret = 1;
			break;
		}
		off += n;
		len -= n;
	}
	free(buf);
	free(want);
	return ret;
}

static int cmd_write(int argc, char **argv, int flags)
{
	int fd, ret;

	if (argc != 5)
		return 2;
	fd = open(argv[1], O_WRONLY | O_CREAT | flags, 0644);
	if (fd < 0)
		return fail("open", argv[1]);
	ret = write_pattern(fd, num(argv[2]), num(argv[3]), num(argv[4]),
			    argv[1]);
	if (close(fd) && !ret)
		return fail("close", argv[1]);
	return ret;
}

static int cmd_verify(int argc, char **argv)
{
	int fd, ret;

	if (argc != 5)
		return 2;
	fd = open(argv[1], O_RDONLY);
	if (fd < 0)
		return fail("open", argv[1]);
	ret = verify_pattern(fd, num(argv[2]), num(argv[3]), num(argv[4]),
			     argv[1]);
	close(fd);
	return ret;
}

/* append FILE LEN SEED: O_APPEND write; prints the offset it landed at. */
static int cmd_append(int argc, char **argv)
{
	uint64_t len, seed;
	struct stat st;
	uint8_t *buf;
	off_t at;
	int fd;

	if (argc != 4)
		return 2;
	len = num(argv[2]);
	seed = num(argv[3]);
	fd = open(argv[1], O_WRONLY | O_CREAT | O_APPEND, 0644);
	if (fd < 0)
		return fail("open", argv[1]);
	/* a seek must not matter with O_APPEND */
	lseek(fd, 0, SEEK_SET);
	if (fstat(fd, &st))
		return fail("fstat", argv[1]);
	buf = malloc(len ? len : 1);
	pattern(buf, (uint64_t)st.st_size, len, seed);
	if (write(fd, buf, len) != (ssize_t)len)
		return fail("write", argv[1]);
	at = lseek(fd, 0, SEEK_CUR);
	printf("%lld\n", (long long)(at - (off_t)len));
	free(buf);
	if (close(fd))
		return fail("close", argv[1]);
	return 0;
}

static int cmd_mmap(int argc, char **argv, int writing)
{
	uint64_t off, len, seed, start, maplen;
	uint8_t *map, *want;
	long pg = sysconf(_SC_PAGESIZE);
	int fd, ret = 0;

	if (argc != 5)
		return 2;
	off = num(argv[2]);
	len = num(argv[3]);
	seed = num(argv[4]);
	fd = open(argv[1], writing ? O_RDWR : O_RDONLY);
	if (fd < 0)
		return fail("open", argv[1]);
	start = off / (uint64_t)pg * (uint64_t)pg;
	maplen = off + len - start;
	map = mmap(NULL, maplen, writing ? PROT_READ | PROT_WRITE : PROT_READ,
		   MAP_SHARED, fd, (off_t)start);
	if (map == MAP_FAILED)
		return fail("mmap", argv[1]);
	want = malloc(len ? len : 1);
	pattern(want, off, len, seed);
	if (writing) {
		memcpy(map + (off - start), want, len);
		if (msync(map, maplen, MS_SYNC))
			ret = fail("msync", argv[1]);
	} else if (memcmp(map + (off - start), want, len)) {
		fprintf(stderr, "%s: %s: mmap contents differ\n", prog, argv[1]);
		ret = 1;
	}
	munmap(map, maplen);
	free(want);
	close(fd);
	return ret;
}

/*
 * unlink-open FILE LEN SEED: FILE holds the pattern over [0, LEN). Open it,
 * unlink it, check it is gone from the directory, still reads, takes a
 * write, has nlink 0; close.
 */
static int cmd_unlink_open(int argc, char **argv)
{
	uint64_t len, seed;
	struct stat st;
	int fd;

	if (argc != 4)
		return 2;
	len = num(argv[2]);
	seed = num(argv[3]);
	fd = open(argv[1], O_RDWR);
	if (fd < 0)
		return fail("open", argv[1]);
	if (unlink(argv[1]))
		return fail("unlink", argv[1]);
	if (!access(argv[1], F_OK) || errno != ENOENT) {
		fprintf(stderr, "%s: %s still visible after unlink\n", prog,
			argv[1]);
		return 1;
	}
	if (verify_pattern(fd, 0, len, seed, argv[1]))
		return 1;
	if (write_pattern(fd, len, 65536, seed, argv[1]))
		return 1;
	if (fsync(fd))
		return fail("fsync", argv[1]);
	if (verify_pattern(fd, 0, len + 65536, seed, argv[1]))
		return 1;
	if (fstat(fd, &st))
		return fail("fstat", argv[1]);
	if (st.st_nlink != 0 || (uint64_t)st.st_size != len + 65536) {
		fprintf(stderr, "%s: unlinked %s: nlink %lu size %lld\n", prog,
			argv[1], (unsigned long)st.st_nlink,
			(long long)st.st_size);
		return 1;
	}
	if (close(fd))
		return fail("close", argv[1]);
	return 0;
}

/* rename2 plain|noreplace|exchange OLD NEW: prints OK or the errno name. */
static int cmd_rename2(int argc, char **argv)
{
	unsigned int flags = 0;
	long r;

	if (argc != 4)
		return 2;
	if (!strcmp(argv[1], "noreplace"))
		flags = RENAME_NOREPLACE;
	else if (!strcmp(argv[1], "exchange"))
		flags = RENAME_EXCHANGE;
	else if (strcmp(argv[1], "plain"))
		return 2;
	r = syscall(SYS_renameat2, AT_FDCWD, argv[2], AT_FDCWD, argv[3], flags);
	printf("%s\n", errname(r ? errno : 0));
	return r ? 1 : 0;
}

static int cmd_sync(int argc, char **argv, int how)
{
	int fd, r;

	if (argc != 2)
		return 2;
	fd = open(argv[1], O_RDONLY);
	if (fd < 0)
		return fail("open", argv[1]);
	r = how == 0 ? fsync(fd) : how == 1 ? fdatasync(fd) : syncfs(fd);
	if (r)
		return fail(how == 0 ? "fsync" : how == 1 ? "fdatasync" :
			    "syncfs", argv[1]);
	close(fd);
	return 0;
}

static int cmd_ftruncate(int argc, char **argv)
{
	int fd;

	if (argc != 3)
		return 2;
	fd = open(argv[1], O_WRONLY | O_CREAT, 0644);
	if (fd < 0)
		return fail("open", argv[1]);
	if (ftruncate(fd, (off_t)num(argv[2])))
		return fail("ftruncate", argv[1]);
	close(fd);
	return 0;
}

static int cmd_truncate(int argc, char **argv)
{
	if (argc != 3)
		return 2;
	if (truncate(argv[1], (off_t)num(argv[2])))
		return fail("truncate", argv[1]);
	return 0;
}

/* statfs PATH: type bsize blocks bfree bavail files ffree namelen */
static int cmd_statfs(int argc, char **argv)
{
	struct statfs s;

	if (argc != 2)
		return 2;
	if (statfs(argv[1], &s))
		return fail("statfs", argv[1]);
	printf("0x%lx %ld %llu %llu %llu %llu %llu %ld\n",
	       (unsigned long)s.f_type, (long)s.f_bsize,
	       (unsigned long long)s.f_blocks, (unsigned long long)s.f_bfree,
	       (unsigned long long)s.f_bavail, (unsigned long long)s.f_files,
	       (unsigned long long)s.f_ffree, (long)s.f_namelen);
	return 0;
}

/* stat PATH: mode(octal) nlink uid gid size blocks atime mtime ctime (s.ns) */
static int cmd_stat(int argc, char **argv)
{
	struct stat st;

	if (argc != 2)
		return 2;
	if (lstat(argv[1], &st))
		return fail("lstat", argv[1]);
	printf("%o %lu %u %u %lld %lld %lld.%09ld %lld.%09ld %lld.%09ld\n",
	       st.st_mode, (unsigned long)st.st_nlink, st.st_uid, st.st_gid,
	       (long long)st.st_size, (long long)st.st_blocks,
	       (long long)st.st_atim.tv_sec, st.st_atim.tv_nsec,
	       (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec,
	       (long long)st.st_ctim.tv_sec, st.st_ctim.tv_nsec);
	return 0;
}

/* utimens PATH ASEC ANSEC MSEC MNSEC */
static int cmd_utimens(int argc, char **argv)
{
	struct timespec ts[2];

	if (argc != 6)
		return 2;
	ts[0].tv_sec = (time_t)num(argv[2]);
	ts[0].tv_nsec = (long)num(argv[3]);
	ts[1].tv_sec = (time_t)num(argv[4]);
	ts[1].tv_nsec = (long)num(argv[5]);
	if (utimensat(AT_FDCWD, argv[1], ts, AT_SYMLINK_NOFOLLOW))
		return fail("utimensat", argv[1]);
	return 0;
}

struct seen {
	char **names;
	int n, cap;
};

static int seen_count(const struct seen *s, const char *name)
{
	int i, c = 0;

	for (i = 0; i < s->n; i++)
		c += !strcmp(s->names[i], name);
	return c;
}

static void seen_add(struct seen *s, const char *name)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 256;
		s->names = realloc(s->names, (size_t)s->cap * sizeof(char *));
	}
	s->names[s->n++] = strdup(name);
}

/*
 * readdir DIR N: DIR is made to hold f0..f(N-1). Read a third of it, then
 * create n0..n(N/4-1) and unlink every second f already returned; read on.
 * POSIX: every f that existed throughout is returned exactly once, no name
 * twice. Then telldir/seekdir: the tail after a saved position reads the
 * same twice.
 */
static int cmd_readdir(int argc, char **argv)
{
	struct seen s = { 0 }, tail1 = { 0 }, tail2 = { 0 };
	char path[4096];
	struct dirent *de;
	int i, n, fd, ret = 0, got = 0;
	long pos;
	DIR *d;

	if (argc != 3)
		return 2;
	n = (int)num(argv[2]);
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/f%d", argv[1], i);
		fd = open(path, O_CREAT | O_WRONLY, 0644);
		if (fd < 0)
			return fail("create", path);
		close(fd);
	}
	d = opendir(argv[1]);
	if (!d)
		return fail("opendir", argv[1]);
	while (got < n / 3 && (de = readdir(d))) {
		seen_add(&s, de->d_name);
		got++;
	}
	for (i = 0; i < n / 4; i++) {
		snprintf(path, sizeof(path), "%s/n%d", argv[1], i);
		fd = open(path, O_CREAT | O_WRONLY, 0644);
		if (fd < 0)
			return fail("create", path);
		close(fd);
	}
	for (i = 0; i < s.n; i += 2) {
		if (s.names[i][0] != 'f')
			continue;
		snprintf(path, sizeof(path), "%s/%s", argv[1], s.names[i]);
		if (unlink(path))
			return fail("unlink", path);
	}
	while ((de = readdir(d)))
		seen_add(&s, de->d_name);
	closedir(d);
	for (i = 0; i < n; i++) {
		char name[32];
		int c;

		snprintf(name, sizeof(name), "f%d", i);
		c = seen_count(&s, name);
		if (c != 1) {
			fprintf(stderr, "%s: readdir: %s returned %d times\n",
				prog, name, c);
			ret = 1;
		}
	}
	for (i = 0; i < s.n; i++)
		if (seen_count(&s, s.names[i]) != 1) {
			fprintf(stderr, "%s: readdir: %s returned twice\n",
				prog, s.names[i]);
			ret = 1;
			break;
		}
	if (seen_count(&s, ".") != 1 || seen_count(&s, "..") != 1) {
		fprintf(stderr, "%s: readdir: . or .. not returned once\n", prog);
		ret = 1;
	}

	/* telldir/seekdir */
	d = opendir(argv[1]);
	if (!d)
		return fail("opendir", argv[1]);
	for (i = 0; i < n / 2 && readdir(d); i++)
		;
	pos = telldir(d);
	while ((de = readdir(d)))
		seen_add(&tail1, de->d_name);
	seekdir(d, pos);
	while ((de = readdir(d)))
		seen_add(&tail2, de->d_name);
	closedir(d);
	if (tail1.n != tail2.n) {
		fprintf(stderr, "%s: seekdir: %d entries after the position, then %d\n",
			prog, tail1.n, tail2.n);
		ret = 1;
	} else {
		for (i = 0; i < tail1.n; i++)
			if (strcmp(tail1.names[i], tail2.names[i])) {
				fprintf(stderr, "%s: seekdir: entry %d: %s then %s\n",
					prog, i, tail1.names[i], tail2.names[i]);
				ret = 1;
				break;
			}
	}
	return ret;
}

/*
 * concurrent FILE NPROC CHUNK COUNT: NPROC processes write chunks
 * i, i + NPROC, ... (COUNT each, CHUNK bytes, seed i + 1) of one file at
 * the same time; then every chunk is verified.
 */
static int cmd_concurrent(int argc, char **argv)
{
	uint64_t nproc, chunk, count, p, k;
	int fd, ret = 0, status;

	if (argc != 5)
		return 2;
	nproc = num(argv[2]);
	chunk = num(argv[3]);
	count = num(argv[4]);
	fd = open(argv[1], O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return fail("open", argv[1]);
	close(fd);
	for (p = 0; p < nproc; p++) {
		pid_t pid = fork();

		if (pid < 0)
			return fail("fork", NULL);
		if (!pid) {
			int cfd = open(argv[1], O_WRONLY);

			if (cfd < 0)
				_exit(fail("open", argv[1]));
			for (k = 0; k < count; k++)
				if (write_pattern(cfd, (k * nproc + p) * chunk,
						  chunk, p + 1, argv[1]))
					_exit(1);
			_exit(close(cfd) ? 1 : 0);
		}
	}
	for (p = 0; p < nproc; p++) {
		if (wait(&status) < 0 || !WIFEXITED(status) ||
		    WEXITSTATUS(status))
			ret = 1;
	}
	if (ret) {
		fprintf(stderr, "%s: a writer failed\n", prog);
		return 1;
	}
	fd = open(argv[1], O_RDONLY);
	if (fd < 0)
		return fail("open", argv[1]);
	for (k = 0; k < count && !ret; k++)
		for (p = 0; p < nproc && !ret; p++)
			ret = verify_pattern(fd, (k * nproc + p) * chunk, chunk,
					     p + 1, argv[1]);
	close(fd);
	return ret;
}

/*
 * fill FILE: write 1 MiB chunks until the filesystem says no; prints the
 * bytes written and the errno name of the failure (ENOSPC expected).
 */
static int cmd_fill(int argc, char **argv)
{
	uint8_t *buf = malloc(CHUNK);
	uint64_t total = 0;
	int fd, e = 0;

	if (argc != 2)
		return 2;
	fd = open(argv[1], O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return fail("open", argv[1]);
	for (;;) {
		ssize_t w;

		pattern(buf, total, CHUNK, 7);
		w = write(fd, buf, CHUNK);
		if (w < 0) {
			e = errno;
			break;
		}
		if (!w) {
			e = ENOSPC;
			break;
		}
		total += (uint64_t)w;	/* a short write: the next one fails */
	}
	if (!e && fsync(fd))
		e = errno;
	if (close(fd) && !e)
		e = errno;
	printf("%" PRIu64 " %s\n", total, errname(e));
	free(buf);
	return e == ENOSPC ? 0 : 1;
}

/*
 * call SYSCALL ARGS: rmdir P | unlink P | mkdir P | link OLD NEW |
 * symlink TARGET P | open-excl P | mknod-fifo P; prints OK or the errno name.
 */
static int cmd_call(int argc, char **argv)
{
	int r = -1;

	if (argc == 3 && !strcmp(argv[1], "rmdir"))
		r = rmdir(argv[2]);
	else if (argc == 3 && !strcmp(argv[1], "unlink"))
		r = unlink(argv[2]);
	else if (argc == 3 && !strcmp(argv[1], "mkdir"))
		r = mkdir(argv[2], 0755);
	else if (argc == 4 && !strcmp(argv[1], "link"))
		r = link(argv[2], argv[3]);
	else if (argc == 4 && !strcmp(argv[1], "symlink"))
		r = symlink(argv[2], argv[3]);
	else if (argc == 3 && !strcmp(argv[1], "open-excl")) {
		r = open(argv[2], O_CREAT | O_EXCL | O_WRONLY, 0644);
		if (r >= 0)
			r = close(r);
	} else if (argc == 3 && !strcmp(argv[1], "mknod-fifo"))
		r = mkfifo(argv[2], 0644);
	else
		return 2;
	printf("%s\n", errname(r ? errno : 0));
	return r ? 1 : 0;
}

/*
 * xattr get FILE NAME: prints the value of attribute NAME of FILE in hex
 * (an empty line for a value of no bytes), or the errno name (ENODATA:
 * there is none). xattr set FILE NAME HEX: sets it to the bytes of HEX
 * ("" for none). xattr rm FILE NAME. Links are not followed.
 */
static int cmd_xattr(int argc, char **argv)
{
	uint8_t buf[4096];
	ssize_t n, i;
	size_t len;

	if (argc == 4 && !strcmp(argv[1], "get")) {
		n = lgetxattr(argv[2], argv[3], buf, sizeof(buf));
		if (n < 0) {
			printf("%s\n", errname(errno));
			return 1;
		}
		for (i = 0; i < n; i++)
			printf("%02x", buf[i]);
		printf("\n");
		return 0;
	}
	if (argc == 5 && !strcmp(argv[1], "set")) {
		len = strlen(argv[4]);
		if (len % 2 || len / 2 > sizeof(buf))
			return 2;
		for (i = 0; i < (ssize_t)len / 2; i++) {
			char x[3] = { argv[4][2 * i], argv[4][2 * i + 1], 0 };

			if (!isxdigit((unsigned char)x[0]) ||
			    !isxdigit((unsigned char)x[1]))
				return 2;
			buf[i] = (uint8_t)strtoul(x, NULL, 16);
		}
		if (lsetxattr(argv[2], argv[3], buf, len / 2, 0))
			return fail("lsetxattr", argv[2]);
		return 0;
	}
	if (argc == 4 && !strcmp(argv[1], "rm")) {
		if (lremovexattr(argv[2], argv[3]))
			return fail("lremovexattr", argv[2]);
		return 0;
	}
	return 2;
}

static void usage(void)
{
	fprintf(stderr,
		"usage: %s COMMAND ARGS\n"
		"  write FILE OFF LEN SEED       pattern write (creates FILE)\n"
		"  write-sync FILE OFF LEN SEED  the same with O_SYNC\n"
		"  verify FILE OFF LEN SEED      check the pattern (seed 0: zeros)\n"
		"  append FILE LEN SEED          O_APPEND write, prints its offset\n"
		"  mmap-write FILE OFF LEN SEED  pattern through a shared mapping\n"
		"  mmap-read FILE OFF LEN SEED   check the pattern through mmap\n"
		"  unlink-open FILE LEN SEED     unlink while open, keep using it\n"
		"  rename2 plain|noreplace|exchange OLD NEW   prints OK or errno\n"
		"  fsync|fdatasync|syncfs PATH\n"
		"  truncate|ftruncate FILE SIZE\n"
		"  statfs PATH   type bsize blocks bfree bavail files ffree namelen\n"
		"  stat PATH     mode nlink uid gid size blocks atime mtime ctime\n"
		"  utimens PATH ASEC ANSEC MSEC MNSEC\n"
		"  readdir DIR N                 readdir stable across changes\n"
		"  concurrent FILE NPROC CHUNK COUNT\n"
		"  fill FILE                     write until ENOSPC\n"
		"  call rmdir|unlink|mkdir P, link|symlink A B, open-excl P,\n"
		"       mknod-fifo P             prints OK or the errno name\n"
		"  xattr get FILE NAME           prints the value in hex or errno\n"
		"  xattr set FILE NAME HEX | xattr rm FILE NAME\n",
		prog);
}

int main(int argc, char **argv)
{
	const char *c;
	int r;

	if (argc < 2) {
		usage();
		return 2;
	}
	c = argv[1];
	argc--;
	argv++;
	if (!strcmp(c, "write"))
		r = cmd_write(argc, argv, 0);
	else if (!strcmp(c, "write-sync"))
		r = cmd_write(argc, argv, O_SYNC);
	else if (!strcmp(c, "verify"))
		r = cmd_verify(argc, argv);
	else if (!strcmp(c, "append"))
		r = cmd_append(argc, argv);
	else if (!strcmp(c, "mmap-write"))
		r = cmd_mmap(argc, argv, 1);
	else if (!strcmp(c, "mmap-read"))
		r = cmd_mmap(argc, argv, 0);
	else if (!strcmp(c, "unlink-open"))
		r = cmd_unlink_open(argc, argv);
	else if (!strcmp(c, "rename2"))
		r = cmd_rename2(argc, argv);
	else if (!strcmp(c, "fsync"))
		r = cmd_sync(argc, argv, 0);
	else if (!strcmp(c, "fdatasync"))
		r = cmd_sync(argc, argv, 1);
	else if (!strcmp(c, "syncfs"))
		r = cmd_sync(argc, argv, 2);
	else if (!strcmp(c, "truncate"))
		r = cmd_truncate(argc, argv);
	else if (!strcmp(c, "ftruncate"))
		r = cmd_ftruncate(argc, argv);
	else if (!strcmp(c, "statfs"))
		r = cmd_statfs(argc, argv);
	else if (!strcmp(c, "stat"))
		r = cmd_stat(argc, argv);
	else if (!strcmp(c, "utimens"))
		r = cmd_utimens(argc, argv);
	else if (!strcmp(c, "readdir"))
		r = cmd_readdir(argc, argv);
	else if (!strcmp(c, "concurrent"))
		r = cmd_concurrent(argc, argv);
	else if (!strcmp(c, "fill"))
		r = cmd_fill(argc, argv);
	else if (!strcmp(c, "call"))
		r = cmd_call(argc, argv);
	else if (!strcmp(c, "xattr"))
		r = cmd_xattr(argc, argv);
	else
		r = 2;
	if (r == 2)
		usage();
	return r;
}
