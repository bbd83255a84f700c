// SPDX-License-Identifier: GPL-2.0
/*
 * oreblk_check - check an oreblk array by reading its members directly,
 * without the kernel's oreblk: mirrors identical, P (XOR) and Q (RAID6,
 * GF(2^8)) equal to those computed from the data, with the userspace ORE
 * of tools/ore_user.c.
 *
 *   oreblk_check [--size BYTES] [--dump FILE] [--all] [--csum] MEMBER...
 *
 * The members may come in any order; those not given, stale (lower events)
 * or marked faulty by the freshest superblocks are missing (with --all the
 * faulty and stale ones are read too). --size checks only the first BYTES
 * of the array (default: all of it). --dump writes the array's logical
 * contents to FILE, rebuilt from redundancy where members are missing: an
 * image to compare with what /dev/oreblkN showed. The member's buffer
 * cache is dropped first (BLKFLSBUF), so a running array's writes are
 * seen; stop the array or let it rest while this runs. --csum also reads
 * the data checksums of every member read that has them (csum_type xxh64
 * or crc32c) and verifies each block whose entry is not 0
 * (include/ore/pure.h).
 *
 * Exit status: 0 consistent, 1 inconsistent, 2 error.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <endian.h>
#include <sys/ioctl.h>
#include <linux/fs.h>

#include <oreblk/sb.h>
#include "ore_user.h"

static const char *prog = "oreblk_check";

static uint64_t parse_size(const char *s)
{
	uint64_t v;

	return ore_user_parse_size(s, &v) ? 0 : v;
}

static int dump(struct ore_user_obj *obj, uint64_t size, const char *file)
{
	const size_t chunk = 1 << 20;
	uint64_t off;
	char *buf;
	FILE *f;
	int err;

	buf = malloc(chunk);
	f = fopen(file, "w");
	if (!buf || !f) {
		fprintf(stderr, "%s: %s: %s\n", prog, file, strerror(errno));
		free(buf);
		if (f)
			fclose(f);
		return 2;
	}
	for (off = 0; off < size; off += chunk) {
		size_t n = size - off < chunk ? (size_t)(size - off) : chunk;

		err = ore_user_read(obj, off, buf, n);
		if (err) {
			fprintf(stderr, "%s: reading the array at %" PRIu64 ": %s\n",
				prog, off, strerror(-err));
			break;
		}
		if (fwrite(buf, 1, n, f) != n) {
			err = -errno;
			fprintf(stderr, "%s: %s: %s\n", prog, file, strerror(errno));
			break;
		}
	}
	free(buf);
	if (fclose(f) && !err)
		err = -errno;
	return err ? 2 : 0;
}

/* CRC-32C of one checksum block: the SSE4.2 instruction where there is one */
#if defined(__x86_64__)
__attribute__((target("sse4.2")))
static uint32_t crc32c_hw(uint32_t crc, const uint8_t *p, size_t len)
{
	uint64_t crc64 = crc;

	for (; len >= 8; p += 8, len -= 8) {
		uint64_t v;

		memcpy(&v, p, sizeof(v));
		crc64 = __builtin_ia32_crc32di(crc64, v);
	}
	crc = (uint32_t)crc64;
	while (len--)
		crc = __builtin_ia32_crc32qi(crc, *p++);
	return crc;
}
#endif

static uint32_t block_csum(uint32_t type, const uint8_t *p)
{
	if (type == OREBLK_CSUM_XXH64)
		return ore_csum_value((uint32_t)ore_xxh64(p, ORE_CSUM_BLOCK, 0));
#if defined(__x86_64__)
	if (__builtin_cpu_supports("sse4.2"))
		return ore_csum_value(crc32c_hw(~0U, p, ORE_CSUM_BLOCK));
#endif
	return ore_csum_value(ore_crc32c(~0U, p, ORE_CSUM_BLOCK));
}

/*
 * Verify the data checksums of member @path (superblock @sb): every block
 * whose entry is not 0. Adds to *@checked and *@bad; -1 on a read error.
 */
static int check_csums(const char *path, int fd, const struct oreblk_sb *sb,
		       uint64_t *checked, uint64_t *bad)
{
	const size_t chunk = 1 << 20;
	uint64_t dsize = le64toh(sb->data_size), off;
	uint64_t doff = le64toh(sb->data_offset);
	uint64_t coff = le64toh(sb->csum_offset);
	uint8_t *buf = malloc(chunk);
	uint32_t *ents = malloc(chunk / ORE_CSUM_BLOCK * ORE_CSUM_ENTRY);
	int rc = -1;

	if (!buf || !ents)
		goto out;
	for (off = 0; off < dsize; off += chunk) {
		size_t len = dsize - off < chunk ? dsize - off : chunk;
		size_t nb = len / ORE_CSUM_BLOCK, b;

		if (pread(fd, buf, len, (off_t)(doff + off)) != (ssize_t)len ||
		    pread(fd, ents, nb * ORE_CSUM_ENTRY,
			  (off_t)(coff + off / ORE_CSUM_BLOCK * ORE_CSUM_ENTRY)) !=
		    (ssize_t)(nb * ORE_CSUM_ENTRY)) {
			fprintf(stderr, "%s: %s: cannot read data or checksums at %" PRIu64 "\n",
				prog, path, off);
			goto out;
		}
		for (b = 0; b < nb; b++) {
			uint32_t e = le32toh(ents[b]), d;

			if (!e)
				continue;
			(*checked)++;
			d = block_csum(le32toh(sb->csum_type),
				       buf + b * ORE_CSUM_BLOCK);
			if (d == e)
				continue;
			if (++*bad <= 5)
				printf("%s: %s: block at data offset %" PRIu64 ": checksum %08x, data %08x\n",
				       prog, path, off + b * ORE_CSUM_BLOCK, e, d);
		}
	}
	rc = 0;
out:
	free(buf);
	free(ents);
	return rc;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "size", required_argument, NULL, 's' },
		{ "dump", required_argument, NULL, 'd' },
		{ "all", no_argument, NULL, 'a' },
		{ "csum", no_argument, NULL, 'c' },
		{ NULL, 0, NULL, 0 },
	};
	struct ore_user_comp comps[OREBLK_MAX_MEMBERS];
	struct oreblk_sb *sbs = NULL, *ref;
	struct ore_user_report rep;
	struct ore_user_obj obj;
	struct ore_layout l;
	uint64_t size = 0, max_events = 0, faulty;
	const char *dump_file = NULL, *why;
	int c, i, n, all = 0, rc = 2, fresh = 0, nmissing = 0, csum = 0;
	uint64_t csum_checked = 0, csum_bad = 0;
	uint32_t nr;

	while ((c = getopt_long(argc, argv, "s:d:ac", opts, NULL)) != -1) {
		switch (c) {
		case 's': size = parse_size(optarg); break;
		case 'd': dump_file = optarg; break;
		case 'a': all = 1; break;
		case 'c': csum = 1; break;
		default:
			fprintf(stderr, "usage: %s [--size BYTES] [--dump FILE] [--all] [--csum] MEMBER...\n",
				prog);
			return 2;
		}
	}
	n = argc - optind;
	if (n < 1 || n > OREBLK_MAX_MEMBERS) {
		fprintf(stderr, "usage: %s [--size BYTES] [--dump FILE] [--all] [--csum] MEMBER...\n",
			prog);
		return 2;
	}
	for (i = 0; i < OREBLK_MAX_MEMBERS; i++) {
		comps[i].fd = ORE_USER_MISSING;
		comps[i].base = 0;
	}
	sbs = calloc((size_t)n, sizeof(*sbs));
	if (!sbs)
		return 2;
	for (i = 0; i < n; i++) {
		const char *path = argv[optind + i];
		int fd = open(path, O_RDONLY | O_CLOEXEC);
		uint64_t dev_size = 0;

		if (fd < 0) {
			fprintf(stderr, "%s: %s: %s\n", prog, path, strerror(errno));
			goto out;
		}
		ioctl(fd, BLKFLSBUF, 0);	/* see what the kernel wrote */
		why = "cannot read it";
		if (pread(fd, &sbs[i], sizeof(sbs[i]), OREBLK_SB_OFFSET) !=
		    (ssize_t)sizeof(sbs[i]) || ore_user_dev_size(fd, &dev_size) ||
		    oreblk_sb_check(&sbs[i], dev_size, &l, &why)) {
			fprintf(stderr, "%s: %s: no valid oreblk superblock: %s\n",
				prog, path, why);
			close(fd);
			goto out;
		}
		if (memcmp(sbs[i].array_uuid, sbs[0].array_uuid,
			   OREBLK_UUID_SIZE)) {
			fprintf(stderr, "%s: %s is a member of another array than %s\n",
				prog, path, argv[optind]);
			close(fd);
			goto out;
		}
		if (le32toh(sbs[i].member_index) >= OREBLK_MAX_MEMBERS ||
		    comps[le32toh(sbs[i].member_index)].fd >= 0) {
			fprintf(stderr, "%s: %s: member index %u given twice or impossible\n",
				prog, path, le32toh(sbs[i].member_index));
			close(fd);
			goto out;
		}
		comps[le32toh(sbs[i].member_index)].fd = fd;
		comps[le32toh(sbs[i].member_index)].base =
			le64toh(sbs[i].data_offset);
		if (le64toh(sbs[i].events) > max_events) {
			max_events = le64toh(sbs[i].events);
			fresh = i;
		}
	}
	ref = &sbs[fresh];
	nr = le32toh(ref->nr_members);
	faulty = le64toh(ref->faulty_map);
	for (i = 0; i < n; i++) {
		uint32_t idx = le32toh(sbs[i].member_index);
		int stale = le64toh(sbs[i].events) < max_events;

		if (all || (!stale && !(faulty & (1ull << idx))))
			continue;
		printf("%s: member %u (%s) is %s: not read\n", prog, idx,
		       argv[optind + i], stale ? "stale" : "faulty");
		close(comps[idx].fd);
		comps[idx].fd = ORE_USER_MISSING;
	}
	for (i = 0; i < (int)nr; i++)
		nmissing += comps[i].fd < 0;

	oreblk_sb_get_layout(ref, &l);
	if (ore_user_init(&obj, &l, nr, comps, &why)) {
		fprintf(stderr, "%s: bad layout: %s\n", prog, why);
		goto out;
	}
	l = obj.layout;	/* with the derived fields */
	if (!size || size > le64toh(ref->array_size))
		size = le64toh(ref->array_size);

	if (dump_file) {
		rc = dump(&obj, size, dump_file);
		if (rc)
			goto out;
	}
	if (ore_user_check(&obj, size, 0, &rep) < 0) {
		fprintf(stderr, "%s: check failed\n", prog);
		rc = 2;
		goto out;
	}
	printf("%s: %s, %u members (%d missing), %" PRIu64 " bytes: %" PRIu64 " rows, %" PRIu64 " bad parity, %" PRIu64 " bad mirrors, %" PRIu64 " unreadable units\n",
	       prog, ore_layout_raid_name(l.raid_algorithm, l.mirrors_p1),
	       nr, nmissing, size,
	       rep.rows, rep.bad_parity, rep.bad_mirror, rep.unreadable);
	if (rep.bad_parity || rep.bad_mirror) {
		printf("%s: first mismatch: %s on component %d at offset %" PRIu64 "\n",
		       prog, rep.first_bad_what, rep.first_bad_comp,
		       rep.first_bad_offset);
		rc = 1;
	} else {
		rc = 0;
	}
	for (i = 0; csum && i < n; i++) {
		uint32_t idx = le32toh(sbs[i].member_index);

		if (comps[idx].fd < 0 || !sbs[i].csum_type)
			continue;
		if (check_csums(argv[optind + i], comps[idx].fd, &sbs[i],
				&csum_checked, &csum_bad)) {
			rc = 2;
			goto out;
		}
	}
	if (csum) {
		printf("%s: checksums: %" PRIu64 " blocks verified, %" PRIu64 " bad\n",
		       prog, csum_checked, csum_bad);
		if (csum_bad && !rc)
			rc = 1;
	}
out:
	for (i = 0; i < OREBLK_MAX_MEMBERS; i++)
		if (comps[i].fd >= 0)
			close(comps[i].fd);
	free(sbs);
	return rc;
}
