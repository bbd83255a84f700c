// SPDX-License-Identifier: GPL-2.0
/*
 * exofs_mutate - damage an (unmounted) exofs over file stores in one
 * random, reproducible way, for the fuzz test (tests/guest/exofs_fuzz.sh).
 *
 *   exofs_mutate SEED STORE_DIR...
 *   exofs_mutate set sb FIELD VALUE STORE_DIR...
 *   exofs_mutate set inode INO FIELD VALUE STORE_DIR...
 *
 * The "set" forms make one chosen change (for regression tests): a field of
 * the superblock on every store, or of an inode record, named as in
 * include/ore/exofs_fs.h, with the checksums and the parity fixed up.
 *
 * SEED picks the target and the damage; a line saying what was done goes
 * to stdout. About half of the mutations are "semantic": a field of a
 * superblock (on one store or on all), of an inode record, of a directory
 * entry or of the bitmap is set to a hostile value and the checksum and
 * the parity are fixed up, so that what the kernel sees passes the
 * checksums and must be caught by its validation of the values. The rest
 * are raw: flipped bytes, truncated or deleted component files.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "exofs_user.h"

static uint64_t rs;

static uint64_t rnd(void)
{
	rs ^= rs << 13;
	rs ^= rs >> 7;
	rs ^= rs << 17;
	return rs;
}

static uint64_t pick(uint64_t n)
{
	return n ? rnd() % n : 0;
}

/* A hostile value for a field of @bytes bytes. */
static uint64_t hostile(unsigned int bytes)
{
	static const uint64_t v[] = {
		0, 1, 2, 3, 7, 8, 255, 256, 4095, 4096, 4097, 65535, 65536,
		0x7fffffff, 0x80000000, 0xffffffff, 0x100000000ull,
		0x7fffffffffffffffull, 0x8000000000000000ull, ~0ull,
	};
	uint64_t x = pick(4) ? v[pick(sizeof(v) / sizeof(v[0]))] : rnd();

	if (bytes < 8)
		x &= (1ull << (8 * bytes)) - 1;
	return x;
}

static void put_le(uint8_t *p, unsigned int bytes, uint64_t x)
{
	unsigned int i;

	for (i = 0; i < bytes; i++)
		p[i] = (uint8_t)(x >> (8 * i));
}

static int rw_file(const char *path, void *buf, size_t len, int wr)
{
	int fd = open(path, wr ? O_WRONLY : O_RDONLY);
	ssize_t r;

	if (fd < 0)
		return -errno;
	r = wr ? pwrite(fd, buf, len, 0) : pread(fd, buf, len, 0);
	close(fd);
	return r == (ssize_t)len ? 0 : -EIO;
}

struct field {
	const char *name;
	unsigned int off, bytes;
};

#define F(s, m) { #m, __builtin_offsetof(struct s, m), \
		  sizeof(((struct s *)0)->m) }
static const struct field sb_fields[] = {
	F(exofs_fsb, s_magic), F(exofs_fsb, s_version),
	F(exofs_fsb, s_sb_size), F(exofs_fsb, s_feature_incompat),
	F(exofs_fsb, s_feature_ro_compat), F(exofs_fsb, s_feature_compat),
	F(exofs_fsb, s_layout.stripe_unit), F(exofs_fsb, s_layout.group_width),
	F(exofs_fsb, s_layout.group_depth), F(exofs_fsb, s_layout.group_count),
	F(exofs_fsb, s_layout.mirrors_p1),
	F(exofs_fsb, s_layout.raid_algorithm), F(exofs_fsb, s_num_stores),
	F(exofs_fsb, s_store_index), F(exofs_fsb, s_event),
	F(exofs_fsb, s_state), F(exofs_fsb, s_inode_size),
	F(exofs_fsb, s_dir_chunk), F(exofs_fsb, s_root_ino),
	F(exofs_fsb, s_max_ino), F(exofs_fsb, s_next_ino),
	F(exofs_fsb, s_used_inodes),
};
static const struct field ino_fields[] = {
	F(exofs_inode, i_mode), F(exofs_inode, i_links_count),
	F(exofs_inode, i_uid), F(exofs_inode, i_size),
	F(exofs_inode, i_mtime), F(exofs_inode, i_atime_nsec),
	F(exofs_inode, i_mtime_nsec), F(exofs_inode, i_flags),
	F(exofs_inode, i_rdev), F(exofs_inode, i_ino),
	F(exofs_inode, i_data),
};

static void mutate_field(uint8_t *base, const struct field *f, char *desc,
			 size_t dlen)
{
	uint64_t x;

	if (!strcmp(f->name, "i_mode") && pick(2)) {
		/* a file type from the full 4-bit range */
		x = (pick(16) << 12) | pick(07777);
	} else if (!strcmp(f->name, "i_data")) {
		/* no NUL in an inline target, or garbage */
		memset(base + f->off, pick(2) ? 'A' : (int)rnd(), f->bytes);
		snprintf(desc, dlen, "%s filled", f->name);
		return;
	} else {
		x = hostile(f->bytes);
	}
	put_le(base + f->off, f->bytes, x);
	snprintf(desc, dlen, "%s = 0x%llx", f->name, (unsigned long long)x);
}

static void flip_bytes(uint8_t *p, size_t len, char *desc, size_t dlen)
{
	unsigned int n = 1 + (unsigned int)pick(8), i;
	size_t first = 0;

	for (i = 0; i < n; i++) {
		size_t o = pick(len);

		if (!i)
			first = o;
		p[o] ^= (uint8_t)(1 + pick(255));
	}
	snprintf(desc, dlen, "%u bytes flipped (first at %zu)", n, first);
}

static const struct field *find_field(const struct field *t, size_t n,
				      const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(t[i].name, name))
			return &t[i];
	fprintf(stderr, "exofs_mutate: unknown field %s\n", name);
	return NULL;
}

/* exofs_mutate set sb|inode ...: see the top of the file. */
static int set_main(int argc, char **argv)
{
	struct exofs_stores st;
	const struct field *f;
	uint8_t sb[EXOFS_SB_SIZE];
	char path[4096];
	const char *why;
	uint32_t i;

	if (argc >= 4 && !strcmp(argv[0], "sb")) {
		f = find_field(sb_fields, sizeof(sb_fields) / sizeof(sb_fields[0]),
			       argv[1]);
		if (!f)
			return 2;
		for (i = 3; i < (uint32_t)argc; i++) {
			ore_user_store_path(path, sizeof(path), argv[i],
					    EXOFS_SUPER_OID);
			if (rw_file(path, sb, sizeof(sb), 0))
				return 1;
			put_le(sb + f->off, f->bytes, strtoull(argv[2], NULL, 0));
			((struct exofs_fsb *)sb)->s_csum = htole32(exofs_sb_csum(sb));
			if (rw_file(path, sb, sizeof(sb), 1))
				return 1;
		}
		printf("sb of %d stores: %s = %s\n", argc - 3, f->name, argv[2]);
		return 0;
	}
	if (argc >= 5 && !strcmp(argv[0], "inode")) {
		char *end;
		uint64_t ino = strtoull(argv[1], &end, 0);
		struct exofs_inode r;
		struct exofs_obj it;

		if (!ino || *end) {
			fprintf(stderr, "exofs_mutate: bad inode number '%s'\n",
				argv[1]);
			return 2;
		}

		f = find_field(ino_fields, sizeof(ino_fields) / sizeof(ino_fields[0]),
			       argv[2]);
		if (!f)
			return 2;
		st.n = (uint32_t)(argc - 4);
		st.dirs = (const char **)(argv + 4);
		for (i = 0; i < st.n; i++) {
			ore_user_store_path(path, sizeof(path), st.dirs[i],
					    EXOFS_SUPER_OID);
			if (!rw_file(path, sb, sizeof(sb), 0) &&
			    !exofs_sb_check(sb, &st.layout, &why))
				break;
		}
		if (i == st.n ||
		    exofs_obj_open(&st, EXOFS_ITABLE_OID, O_RDWR, &it)) {
			fprintf(stderr, "exofs_mutate: no valid superblock or inode table\n");
			return 1;
		}
		ore_user_read(&it.obj, ino * EXOFS_INODE_SIZE, &r, sizeof(r));
		put_le((uint8_t *)&r + f->off, f->bytes,
		       strtoull(argv[3], NULL, 0));
		r.i_csum = htole32(exofs_inode_csum(&r));
		if (ore_user_write(&it.obj, ino * EXOFS_INODE_SIZE, &r,
				   sizeof(r)))
			return 1;
		exofs_obj_close(&it);
		printf("inode %llu: %s = %s\n", (unsigned long long)ino,
		       f->name, argv[3]);
		return 0;
	}
	fprintf(stderr, "usage: exofs_mutate set sb FIELD VALUE STORE_DIR...\n"
		"       exofs_mutate set inode INO FIELD VALUE STORE_DIR...\n");
	return 2;
}

int main(int argc, char **argv)
{
	struct exofs_stores st;
	uint8_t sb[EXOFS_SB_SIZE], *bitmap;
	struct exofs_obj it, bm;
	uint32_t n, i, nused = 0;
	uint64_t ino, maxrec, used[4096];
	char path[4096], desc[256] = "";
	const char *why;
	unsigned int kind;
	int err;

	if (argc >= 2 && !strcmp(argv[1], "set"))
		return set_main(argc - 2, argv + 2);
	if (argc < 3) {
		fprintf(stderr, "usage: exofs_mutate SEED STORE_DIR...\n");
		return 2;
	}
	rs = strtoull(argv[1], NULL, 0) * 0x9e3779b97f4a7c15ull + 1;
	rnd();
	n = (uint32_t)(argc - 2);
	st.n = n;
	st.dirs = (const char **)(argv + 2);

	/* the layout, from the first readable superblock */
	for (i = 0; i < n; i++) {
		ore_user_store_path(path, sizeof(path), st.dirs[i],
				    EXOFS_SUPER_OID);
		if (!rw_file(path, sb, sizeof(sb), 0) &&
		    !exofs_sb_check(sb, &st.layout, &why))
			break;
	}
	if (i == n) {
		fprintf(stderr, "exofs_mutate: no valid superblock\n");
		return 1;
	}
	maxrec = le64toh(((struct exofs_fsb *)sb)->s_max_ino);

	/* inodes in use (from the bitmap) */
	if (exofs_obj_open(&st, EXOFS_ITABLE_OID, O_RDWR | O_CREAT, &it) ||
	    exofs_obj_open(&st, EXOFS_IBITMAP_OID, O_RDWR | O_CREAT, &bm)) {
		fprintf(stderr, "exofs_mutate: cannot open the inode tables\n");
		return 1;
	}
	bitmap = calloc(1, 512);
	ore_user_read(&bm.obj, 0, bitmap, 512);
	for (ino = 1; ino < 4096 && ino < maxrec; ino++)
		if (bitmap[ino / 8] & (1u << (ino % 8)))
			used[nused++] = ino;

	kind = (unsigned int)pick(100);
	if (kind < 12) {
		/* one store's superblock, raw */
		uint32_t s = (uint32_t)pick(n);
		char d2[128];

		ore_user_store_path(path, sizeof(path), st.dirs[s],
				    EXOFS_SUPER_OID);
		rw_file(path, sb, sizeof(sb), 0);
		flip_bytes(sb, EXOFS_DEVTABLE_OFFSET + 32 * n, d2, sizeof(d2));
		rw_file(path, sb, sizeof(sb), 1);
		snprintf(desc, sizeof(desc), "sb of store %u raw: %s", s, d2);
	} else if (kind < 40) {
		/* a superblock field, checksum fixed; on one store or all */
		int all = (int)pick(3) != 0;
		uint32_t s0 = (uint32_t)pick(n), s;
		int devtab = pick(5) == 0;
		const struct field *f = &sb_fields[pick(sizeof(sb_fields) /
							sizeof(sb_fields[0]))];
		uint64_t seed2 = rnd();
		char d2[128];

		for (s = 0; s < n; s++) {
			if (!all && s != s0)
				continue;
			rs = seed2;	/* the same damage everywhere */
			ore_user_store_path(path, sizeof(path), st.dirs[s],
					    EXOFS_SUPER_OID);
			rw_file(path, sb, sizeof(sb), 0);
			if (devtab) {
				struct exofs_dev_entry *dt = (void *)(sb +
					EXOFS_DEVTABLE_OFFSET);
				uint32_t e = (uint32_t)pick(n);

				switch (pick(4)) {
				case 0:
					dt[e].index = htole32((uint32_t)hostile(4));
					snprintf(d2, sizeof(d2), "devtable[%u].index", e);
					break;
				case 1:
					dt[e].flags = htole32((uint32_t)hostile(4));
					snprintf(d2, sizeof(d2), "devtable[%u].flags", e);
					break;
				case 2:
					memset(dt[e].uuid, 0, EXOFS_UUID_SIZE);
					snprintf(d2, sizeof(d2), "devtable[%u].uuid zeroed", e);
					break;
				default:
					memcpy(dt[e].uuid, dt[(e + 1) % n].uuid,
					       EXOFS_UUID_SIZE);
					snprintf(d2, sizeof(d2), "devtable[%u].uuid duplicated", e);
				}
			} else {
				mutate_field(sb, f, d2, sizeof(d2));
			}
			((struct exofs_fsb *)sb)->s_csum =
				htole32(exofs_sb_csum(sb));
			rw_file(path, sb, sizeof(sb), 1);
		}
		snprintf(desc, sizeof(desc), "sb of %s, csum fixed: %s",
			 all ? "all stores" : "one store", d2);
	} else if (kind < 65 && nused) {
		/* an inode record field, checksum and parity fixed */
		struct exofs_inode r;
		char d2[128];
		int raw = pick(6) == 0;

		ino = pick(4) ? used[pick(nused)] : 1 + pick(nused + 4);
		ore_user_read(&it.obj, ino * EXOFS_INODE_SIZE, &r, sizeof(r));
		if (raw)
			flip_bytes((uint8_t *)&r, sizeof(r), d2, sizeof(d2));
		else
			mutate_field((uint8_t *)&r,
				     &ino_fields[pick(sizeof(ino_fields) /
						      sizeof(ino_fields[0]))],
				     d2, sizeof(d2));
		if (!raw)
			r.i_csum = htole32(exofs_inode_csum(&r));
		err = ore_user_write(&it.obj, ino * EXOFS_INODE_SIZE, &r,
				     sizeof(r));
		snprintf(desc, sizeof(desc), "inode %llu%s: %s%s",
			 (unsigned long long)ino, raw ? " raw" : ", csum fixed",
			 d2, err ? " (write failed)" : "");
	} else if (kind < 85 && nused) {
		/* a directory entry, parity fixed */
		struct exofs_inode r;
		uint8_t chunk[EXOFS_DIR_CHUNK];
		struct exofs_obj d;
		unsigned int pos = 0, k, target;
		uint64_t dino = 1;
		int tries;

		for (tries = 0; tries < 20; tries++) {
			ino = used[pick(nused)];
			ore_user_read(&it.obj, ino * EXOFS_INODE_SIZE, &r,
				      sizeof(r));
			if (S_ISDIR(le16toh(r.i_mode))) {
				dino = ino;
				break;
			}
		}
		if (exofs_obj_open(&st, EXOFS_INO_OID(dino), O_RDWR | O_CREAT, &d)) {
			printf("directory %llu: cannot open\n",
			       (unsigned long long)dino);
			return 0;
		}
		ore_user_read(&d.obj, 0, chunk, sizeof(chunk));
		/* walk to a random entry of the first chunk */
		target = (unsigned int)pick(8);
		for (k = 0; k < target; k++) {
			unsigned int rl = le16toh(((struct exofs_dir_entry *)
						   (chunk + pos))->rec_len);

			if (rl < 12 || pos + rl >= EXOFS_DIR_CHUNK)
				break;
			pos += rl;
		}
		{
			struct exofs_dir_entry *de = (void *)(chunk + pos);
			uint64_t x;

			switch (pick(5)) {
			case 0:
				x = hostile(2);
				de->rec_len = htole16((uint16_t)x);
				snprintf(desc, sizeof(desc), "dir %llu entry at %u: rec_len = %llu",
					 (unsigned long long)dino, pos,
					 (unsigned long long)x);
				break;
			case 1:
				x = hostile(1);
				de->name_len = (uint8_t)x;
				snprintf(desc, sizeof(desc), "dir %llu entry at %u: name_len = %llu",
					 (unsigned long long)dino, pos,
					 (unsigned long long)x);
				break;
			case 2:
				x = pick(2) ? hostile(8) : pick(nused + 8);
				de->inode = htole64(x);
				snprintf(desc, sizeof(desc), "dir %llu entry at %u: inode = %llu",
					 (unsigned long long)dino, pos,
					 (unsigned long long)x);
				break;
			case 3:
				x = hostile(1);
				de->file_type = (uint8_t)x;
				snprintf(desc, sizeof(desc), "dir %llu entry at %u: file_type = %llu",
					 (unsigned long long)dino, pos,
					 (unsigned long long)x);
				break;
			default: {
				char d2[128];

				flip_bytes(chunk + pos, 16, d2, sizeof(d2));
				snprintf(desc, sizeof(desc), "dir %llu entry at %u raw: %s",
					 (unsigned long long)dino, pos, d2);
			}
			}
		}
		err = ore_user_write(&d.obj, 0, chunk, sizeof(chunk));
		exofs_obj_close(&d);
	} else if (kind < 90) {
		/* the bitmap: free a used inode or use a free one */
		uint8_t b;
		uint64_t bit = pick(2) && nused ? used[pick(nused)] :
			       pick(nused + 16);

		ore_user_read(&bm.obj, bit / 8, &b, 1);
		b ^= (uint8_t)(1u << (bit % 8));
		ore_user_write(&bm.obj, bit / 8, &b, 1);
		snprintf(desc, sizeof(desc), "bitmap bit %llu flipped",
			 (unsigned long long)bit);
	} else {
		/* a component file of a metadata or directory object: raw */
		static const uint64_t oids[] = {
			EXOFS_ITABLE_OID, EXOFS_IBITMAP_OID,
			EXOFS_INO_OID(EXOFS_ROOT_INO),
		};
		uint64_t oid = oids[pick(3)];
		uint32_t s = (uint32_t)pick(n);
		struct stat sst;

		ore_user_store_path(path, sizeof(path), st.dirs[s], oid);
		switch (pick(3)) {
		case 0:
			unlink(path);
			snprintf(desc, sizeof(desc), "object %llx removed from store %u",
				 (unsigned long long)oid, s);
			break;
		case 1:
			if (!stat(path, &sst))
				err = truncate(path, (off_t)pick((uint64_t)sst.st_size + 1));
			snprintf(desc, sizeof(desc), "object %llx truncated on store %u",
				 (unsigned long long)oid, s);
			break;
		default: {
			uint8_t buf[8192];
			int fd = open(path, O_RDWR);
			ssize_t got = fd >= 0 ? pread(fd, buf, sizeof(buf), 0) : -1;
			char d2[128];

			if (got > 0) {
				flip_bytes(buf, (size_t)got, d2, sizeof(d2));
				err = pwrite(fd, buf, (size_t)got, 0) != got;
			} else {
				snprintf(d2, sizeof(d2), "empty, untouched");
			}
			if (fd >= 0)
				close(fd);
			snprintf(desc, sizeof(desc), "object %llx on store %u raw: %s",
				 (unsigned long long)oid, s, d2);
		}
		}
	}
	printf("%s\n", desc);
	exofs_obj_close(&it);
	exofs_obj_close(&bm);
	free(bitmap);
	return 0;
}
