// SPDX-License-Identifier: GPL-2.0
/*
 * exofs_mutate - damage an (unmounted) exofs over file stores in one
 * random, reproducible way, for the fuzz test (tests/guest/exofs_fuzz.sh).
 *
 *   exofs_mutate SEED STORE_DIR...
 *   exofs_mutate --fuzz N SEED0 MNT PRISTINE STORE_DIR...
 *   exofs_mutate set sb FIELD VALUE STORE_DIR...
 *   exofs_mutate set inode INO FIELD VALUE STORE_DIR...
 *   exofs_mutate set intent OID REGION STORE_DIR...
 *
 * The "set" forms make one chosen change (for regression tests): a field of
 * the superblock on every store, or of an inode record, named as in
 * include/ore/exofs_fs.h, with the checksums (the data checksums too) and
 * the parity fixed up; or an intent record naming region REGION of object
 * OID (writes in flight there, as a crash leaves it) on every store.
 *
 * SEED picks the target and the damage; a line saying what was done goes
 * to stdout. About half of the mutations are "semantic": a field of a
 * superblock (on one store or on all), of its device table, of an inode
 * record, of a directory entry or of the bitmap is set to a hostile value
 * and the checksums (the data checksums too) and the parity are fixed up,
 * so that what the kernel sees passes the checksums and must be caught by
 * its validation of the values. The rest are raw: flipped bytes, and
 * component files of any object (inode table, bitmap, directories, files)
 * removed, truncated, flipped, or replaced by a FIFO, a symlink, a
 * directory or a device node.
 *
 * --fuzz runs N rounds (seeds SEED0...) in one process, as the guest test
 * does (fast: no shell per step): restore the stores from PRISTINE/<name
 * of each store> (only the files that changed), mutate, run fsck.exofs
 * --strict on the damage, mount exofs on MNT (odd rounds read-write), walk
 * the tree (stat, readlink, read every file; odd rounds also write,
 * rename, remove, truncate and sync) in a child with a time limit, and
 * unmount. One "# seed ..." line per round; every 100 rounds a line
 * "BATCH <rounds done> <problems> <what>" for the test to turn into a
 * result. A problem is: a walk that hangs, an unmount that fails, a
 * kernel WARNING/BUG/Oops (from /dev/kmsg), a symlinked component whose
 * target was written, fsck dying or hanging, or fsck finding nothing
 * after damage to a component file it must report (missing or not a
 * regular file). Exit status 0 when there was none.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <dirent.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <time.h>
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
	F(exofs_fsb, s_dir_chunk), F(exofs_fsb, s_csum_type),
	F(exofs_fsb, s_root_ino),
	F(exofs_fsb, s_max_ino), F(exofs_fsb, s_next_ino),
	F(exofs_fsb, s_used_inodes),
};
static const struct field ino_fields[] = {
	F(exofs_inode, i_mode), F(exofs_inode, i_links_count),
	F(exofs_inode, i_uid), F(exofs_inode, i_size),
	F(exofs_inode, i_mtime), F(exofs_inode, i_atime_nsec),
	F(exofs_inode, i_mtime_nsec), F(exofs_inode, i_flags),
	F(exofs_inode, i_rdev), F(exofs_inode, i_ino), F(exofs_inode, i_made),
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

/*
 * exofs_mutate set intent OID REGION STORE_DIR...: on every store, an
 * intent record whose one entry is REGION of OID, numbered one past the
 * newest slot's (any slot with the magic counts), in the slot its number
 * names.
 */
static int set_intent(int argc, char **argv)
{
	static uint8_t slot[EXOFS_INTENT_SLOT];
	struct exofs_intent_hdr *h = (void *)slot;
	struct exofs_intent_ent *e = (void *)(h + 1);
	uint8_t sb[EXOFS_SB_SIZE];
	struct ore_layout l;
	char path[4096];
	const char *why;
	uint64_t seq;
	int i, s, fd;

	for (i = 2; i < argc; i++) {
		ore_user_store_path(path, sizeof(path), argv[i],
				    EXOFS_SUPER_OID);
		if (rw_file(path, sb, sizeof(sb), 0) ||
		    exofs_sb_check(sb, &l, &why)) {
			fprintf(stderr, "exofs_mutate: %s: no valid superblock\n",
				argv[i]);
			return 1;
		}
		seq = 0;
		ore_user_store_path(path, sizeof(path), argv[i],
				    EXOFS_INTENT_OID);
		fd = open(path, O_RDONLY);
		for (s = 0; fd >= 0 && s < 2; s++)
			if (pread(fd, slot, sizeof(*h), (off_t)s * EXOFS_INTENT_SLOT) ==
			    (ssize_t)sizeof(*h) &&
			    le64toh(h->ih_magic) == EXOFS_INTENT_MAGIC &&
			    le64toh(h->ih_seq) > seq)
				seq = le64toh(h->ih_seq);
		if (fd >= 0)
			close(fd);
		seq++;
		memset(slot, 0, sizeof(slot));
		h->ih_magic = htole64(EXOFS_INTENT_MAGIC);
		h->ih_seq = htole64(seq);
		memcpy(h->ih_uuid, ((struct exofs_fsb *)sb)->s_uuid,
		       EXOFS_UUID_SIZE);
		h->ih_region = htole64(exofs_intent_region(l.stripe_length));
		h->ih_count = htole32(1);
		e->ie_oid = htole64(strtoull(argv[0], NULL, 0));
		e->ie_region = htole64(strtoull(argv[1], NULL, 0));
		h->ih_csum = htole32(exofs_intent_csum(h));
		ore_user_store_path(path, sizeof(path), argv[i],
				    EXOFS_INTENT_OID);
		fd = open(path, O_WRONLY | O_CREAT, 0600);
		if (fd < 0 || pwrite(fd, slot, sizeof(slot),
				     (off_t)(seq % 2) * EXOFS_INTENT_SLOT) !=
			      sizeof(slot)) {
			perror(path);
			if (fd >= 0)
				close(fd);
			return 1;
		}
		close(fd);
	}
	printf("intent record of %d stores: object %s region %s\n", argc - 2,
	       argv[0], argv[1]);
	return 0;
}

/* exofs_mutate set sb|inode|intent ...: see the top of the file. */
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
		/* with data checksums, the writes keep the side files right */
		st.csum_type = i < st.n ? exofs_sb_csum_type(sb) : 0;
		st.csum_side = i < st.n ? exofs_sb_csum_side(sb) : 0;
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
	if (argc >= 4 && !strcmp(argv[0], "intent"))
		return set_intent(argc - 1, argv + 1);
	fprintf(stderr, "usage: exofs_mutate set sb FIELD VALUE STORE_DIR...\n"
		"       exofs_mutate set inode INO FIELD VALUE STORE_DIR...\n"
		"       exofs_mutate set intent OID REGION STORE_DIR...\n");
	return 2;
}

/* The symlink target of the component damage; must never be written. */
#define VICTIM		"/tmp/exofs_fuzz_victim"
#define VICTIM_DATA	"victim: must stay as it is\n"

/* What one mutation did. */
struct mutation {
	char desc[320];
	int must_flag;	/* fsck must report it (a component file damaged) */
	int victim;	/* a component became a symlink to VICTIM */
};

/*
 * Must the component file of inode object @oid on store @s exist? With
 * EXOFS_FEATURE_RO_COMPAT_SIZED (@sized) only where the inode's size
 * reaches it (docs/exofs-format.md): removing another one is no damage.
 */
static int comp_required(struct exofs_stores *st, struct exofs_obj *it,
			 int sized, uint64_t oid, uint32_t s)
{
	const struct ore_layout *l = &st->layout;
	uint32_t first = exofs_first_dev(oid, l->mirrors_p1, st->n);
	uint32_t comp = (s + st->n - first) % st->n;
	struct exofs_inode r;

	if (!sized || oid < EXOFS_INO_OID_BASE)
		return 1;
	if (comp >= l->num_comps)
		return 0;
	if (ore_user_read(&it->obj, (oid - EXOFS_INO_OID_BASE) *
			  EXOFS_INODE_SIZE, &r, sizeof(r)))
		return 1;
	return ore_layout_obj_size(l, comp, le64toh(r.i_made)) > 0;
}

/*
 * Damage component files: of the inode table, the bitmap, a directory or
 * any used inode's object, on one store: removed, truncated, flipped, or
 * replaced by a FIFO, a symlink, a directory or a device node.
 */
static void mutate_component(struct exofs_stores *st, struct exofs_obj *it,
			     int sized, const uint64_t *used, uint32_t nused,
			     struct mutation *m)
{
	uint64_t oid;
	uint32_t s = (uint32_t)pick(st->n);
	char path[4096], d2[128] = "";
	struct stat sst;
	int existed, err = 0;
	unsigned int how;

	switch (pick(4)) {
	case 0:
		oid = EXOFS_ITABLE_OID;
		break;
	case 1:
		oid = pick(3) ? EXOFS_INO_OID(EXOFS_ROOT_INO) :
				EXOFS_IBITMAP_OID;
		break;
	default:
		oid = nused ? EXOFS_INO_OID(used[pick(nused)]) :
			      EXOFS_ITABLE_OID;
	}
	ore_user_store_path(path, sizeof(path), st->dirs[s], oid);
	existed = !lstat(path, &sst) && S_ISREG(sst.st_mode);
	how = (unsigned int)pick(8);
	if (how >= 3) {	/* replaced: the old file goes */
		unlink(path);
		m->must_flag = existed;
	}
	switch (how) {
	case 0:
		err = unlink(path);
		m->must_flag = !err && comp_required(st, it, sized, oid, s);
		snprintf(d2, sizeof(d2), "removed");
		break;
	case 1:
		if (existed)
			err = truncate(path, (off_t)pick((uint64_t)sst.st_size + 1));
		snprintf(d2, sizeof(d2), "truncated");
		break;
	case 2: {
		uint8_t buf[8192];
		int fd = open(path, O_RDWR | O_NOFOLLOW | O_NONBLOCK);
		ssize_t got = fd >= 0 ? pread(fd, buf, sizeof(buf), 0) : -1;
		char d3[100];

		if (got > 0) {
			flip_bytes(buf, (size_t)got, d3, sizeof(d3));
			err = pwrite(fd, buf, (size_t)got, 0) != got;
		} else {
			snprintf(d3, sizeof(d3), "empty, untouched");
		}
		if (fd >= 0)
			close(fd);
		snprintf(d2, sizeof(d2), "raw: %s", d3);
		break;
	}
	case 3:
		err = mkfifo(path, 0600);
		snprintf(d2, sizeof(d2), "replaced by a FIFO");
		break;
	case 4: {
		const char *to = VICTIM;
		char other[4096];

		if (pick(2)) {	/* another object's component file */
			ore_user_store_path(other, sizeof(other), st->dirs[s],
					    EXOFS_ITABLE_OID);
			to = other;
		} else {
			m->victim = 1;
		}
		err = symlink(to, path);
		snprintf(d2, sizeof(d2), "replaced by a symlink to %.90s", to);
		break;
	}
	case 5:
		err = mkdir(path, 0700);
		snprintf(d2, sizeof(d2), "replaced by a directory");
		break;
	case 6:
		err = mknod(path, S_IFCHR | 0600, makedev(1, 3));
		snprintf(d2, sizeof(d2), "replaced by /dev/null's node");
		break;
	default:
		err = mknod(path, S_IFCHR | 0600, makedev(1, 5));
		snprintf(d2, sizeof(d2), "replaced by /dev/zero's node");
	}
	if (err)
		m->must_flag = 0;
	snprintf(m->desc, sizeof(m->desc), "component of object %llx on store %u (%s): %s%s",
		 (unsigned long long)oid, s, existed ? "was there" : "was absent",
		 d2, err ? " (failed)" : "");
}

/* The whole superblock of one store, bytes flipped (checksum left wrong). */
static void mutate_sb_raw(struct exofs_stores *st, char *desc, size_t dlen)
{
	uint32_t s = (uint32_t)pick(st->n);
	uint8_t sb[EXOFS_SB_SIZE];
	char path[4096], d2[128];

	ore_user_store_path(path, sizeof(path), st->dirs[s], EXOFS_SUPER_OID);
	rw_file(path, sb, sizeof(sb), 0);
	flip_bytes(sb, EXOFS_DEVTABLE_OFFSET + 32 * st->n, d2, sizeof(d2));
	rw_file(path, sb, sizeof(sb), 1);
	snprintf(desc, dlen, "sb of store %u raw: %s", s, d2);
}

static void mutate_devtable(uint8_t *sb, uint32_t n, char *d2, size_t dlen)
{
	struct exofs_dev_entry *dt = (void *)(sb + EXOFS_DEVTABLE_OFFSET);
	uint32_t e = (uint32_t)pick(n);

	switch (pick(4)) {
	case 0:
		dt[e].index = htole32((uint32_t)hostile(4));
		snprintf(d2, dlen, "devtable[%u].index", e);
		break;
	case 1:
		dt[e].flags = htole32((uint32_t)hostile(4));
		snprintf(d2, dlen, "devtable[%u].flags", e);
		break;
	case 2:
		memset(dt[e].uuid, 0, EXOFS_UUID_SIZE);
		snprintf(d2, dlen, "devtable[%u].uuid zeroed", e);
		break;
	default:
		memcpy(dt[e].uuid, dt[(e + 1) % n].uuid, EXOFS_UUID_SIZE);
		snprintf(d2, dlen, "devtable[%u].uuid duplicated", e);
	}
}

/* A superblock or device table field, checksum fixed; on one store or all. */
static void mutate_sb_field(struct exofs_stores *st, char *desc, size_t dlen)
{
	int all = (int)pick(3) != 0;
	uint32_t s0 = (uint32_t)pick(st->n), s;
	int devtab = pick(5) == 0;
	const struct field *f = &sb_fields[pick(sizeof(sb_fields) /
						sizeof(sb_fields[0]))];
	uint64_t seed2 = rnd();
	uint8_t sb[EXOFS_SB_SIZE];
	char path[4096], d2[128];

	for (s = 0; s < st->n; s++) {
		if (!all && s != s0)
			continue;
		rs = seed2;	/* the same damage everywhere */
		ore_user_store_path(path, sizeof(path), st->dirs[s],
				    EXOFS_SUPER_OID);
		rw_file(path, sb, sizeof(sb), 0);
		if (devtab)
			mutate_devtable(sb, st->n, d2, sizeof(d2));
		else
			mutate_field(sb, f, d2, sizeof(d2));
		((struct exofs_fsb *)sb)->s_csum = htole32(exofs_sb_csum(sb));
		rw_file(path, sb, sizeof(sb), 1);
	}
	snprintf(desc, dlen, "sb of %s, csum fixed: %s",
		 all ? "all stores" : "one store", d2);
}

/* An inode record field, checksum (mostly) and parity fixed. */
static void mutate_inode(struct exofs_obj *it, const uint64_t *used,
			 uint32_t nused, char *desc, size_t dlen)
{
	struct exofs_inode r;
	char d2[128];
	int raw = pick(6) == 0;
	uint64_t ino;
	int err;

	ino = pick(4) ? used[pick(nused)] : 1 + pick(nused + 4);
	ore_user_read(&it->obj, ino * EXOFS_INODE_SIZE, &r, sizeof(r));
	if (raw)
		flip_bytes((uint8_t *)&r, sizeof(r), d2, sizeof(d2));
	else
		mutate_field((uint8_t *)&r,
			     &ino_fields[pick(sizeof(ino_fields) /
					      sizeof(ino_fields[0]))],
			     d2, sizeof(d2));
	if (!raw)
		r.i_csum = htole32(exofs_inode_csum(&r));
	err = ore_user_write(&it->obj, ino * EXOFS_INODE_SIZE, &r, sizeof(r));
	snprintf(desc, dlen, "inode %llu%s: %s%s",
		 (unsigned long long)ino, raw ? " raw" : ", csum fixed",
		 d2, err ? " (write failed)" : "");
}

/* One field of the entry @de (at @at of directory @dino), or raw bytes. */
static void mutate_dirent(struct exofs_dir_entry *de, uint64_t dino,
			  unsigned int at, uint32_t nused, char *desc,
			  size_t dlen)
{
	const char *what;
	char d2[128];
	uint64_t x;

	switch (pick(5)) {
	case 0:
		x = hostile(2);
		de->rec_len = htole16((uint16_t)x);
		what = "rec_len";
		break;
	case 1:
		x = hostile(1);
		de->name_len = (uint8_t)x;
		what = "name_len";
		break;
	case 2:
		x = pick(2) ? hostile(8) : pick(nused + 8);
		de->inode = htole64(x);
		what = "inode";
		break;
	case 3:
		x = hostile(1);
		de->file_type = (uint8_t)x;
		what = "file_type";
		break;
	default:
		flip_bytes((uint8_t *)de, 16, d2, sizeof(d2));
		snprintf(desc, dlen, "dir %llu entry at %u raw: %s",
			 (unsigned long long)dino, at, d2);
		return;
	}
	snprintf(desc, dlen, "dir %llu entry at %u: %s = %llu",
		 (unsigned long long)dino, at, what, (unsigned long long)x);
}

/* A directory entry of a random directory, parity fixed. */
static void mutate_dir(struct exofs_stores *st, struct exofs_obj *it,
		       const uint64_t *used, uint32_t nused, char *desc,
		       size_t dlen)
{
	struct exofs_inode r;
	uint8_t chunk[EXOFS_DIR_CHUNK];
	struct exofs_obj d;
	unsigned int pos = 0, k, target;
	uint64_t dino = 1, ino, nchunks, choff;
	int tries;

	for (tries = 0; tries < 20; tries++) {
		ino = used[pick(nused)];
		ore_user_read(&it->obj, ino * EXOFS_INODE_SIZE, &r, sizeof(r));
		if (S_ISDIR(le16toh(r.i_mode))) {
			dino = ino;
			break;
		}
	}
	if (exofs_obj_open(st, EXOFS_INO_OID(dino), O_RDWR | O_CREAT, &d)) {
		snprintf(desc, dlen, "directory %llu: cannot open",
			 (unsigned long long)dino);
		return;
	}
	/* a random chunk of the directory */
	ore_user_read(&it->obj, dino * EXOFS_INODE_SIZE, &r, sizeof(r));
	nchunks = le64toh(r.i_size) / EXOFS_DIR_CHUNK;
	if (nchunks < 1 || nchunks > 64)
		nchunks = 1;
	choff = pick(nchunks) * EXOFS_DIR_CHUNK;
	ore_user_read(&d.obj, choff, chunk, sizeof(chunk));
	/* walk to a random entry of it */
	target = (unsigned int)pick(pick(4) ? 8 : 64);
	for (k = 0; k < target; k++) {
		unsigned int rl = le16toh(((struct exofs_dir_entry *)
					   (chunk + pos))->rec_len);

		if (rl < 12 || pos + rl >= EXOFS_DIR_CHUNK)
			break;
		pos += rl;
	}
	mutate_dirent((void *)(chunk + pos), dino, (unsigned int)choff + pos,
		      nused, desc, dlen);
	ore_user_write(&d.obj, choff, chunk, sizeof(chunk));
	exofs_obj_close(&d);
}

/* The inode bitmap: free a used inode or use a free one. */
static void mutate_bitmap(struct exofs_obj *bm, const uint64_t *used,
			  uint32_t nused, char *desc, size_t dlen)
{
	uint8_t b;
	uint64_t bit = pick(2) && nused ? used[pick(nused)] : pick(nused + 16);

	ore_user_read(&bm->obj, bit / 8, &b, 1);
	b ^= (uint8_t)(1u << (bit % 8));
	ore_user_write(&bm->obj, bit / 8, &b, 1);
	snprintf(desc, dlen, "bitmap bit %llu flipped", (unsigned long long)bit);
}

/* One mutation of the stores @dirs by @seed. Returns 0, or -1 if none. */
static int mutate(uint64_t seed, uint32_t n, const char **dirs,
		  struct mutation *m)
{
	struct exofs_stores st;
	uint8_t sb[EXOFS_SB_SIZE], *bitmap;
	struct exofs_obj it, bm;
	uint32_t i, nused = 0;
	uint64_t ino, maxrec, used[4096];
	uint32_t ro_compat;
	char path[4096];
	int sized;
	const char *why;
	unsigned int kind;

	memset(m, 0, sizeof(*m));
	rs = seed * 0x9e3779b97f4a7c15ull + 1;
	rnd();
	st.n = n;
	st.dirs = dirs;

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
		return -1;
	}
	maxrec = le64toh(((struct exofs_fsb *)sb)->s_max_ino);
	ro_compat = le32toh(((struct exofs_fsb *)sb)->s_feature_ro_compat);
	sized = (ro_compat & EXOFS_FEATURE_RO_COMPAT_COMPONENTS) &&
		(ro_compat & EXOFS_FEATURE_RO_COMPAT_SIZED);
	/*
	 * semantic damage keeps the data checksums right (of the type the
	 * superblock says), as the parity
	 */
	st.csum_type = exofs_sb_csum_type(sb);
	st.csum_side = exofs_sb_csum_side(sb);

	/* inodes in use (from the bitmap) */
	if (exofs_obj_open(&st, EXOFS_ITABLE_OID, O_RDWR | O_CREAT, &it) ||
	    exofs_obj_open(&st, EXOFS_IBITMAP_OID, O_RDWR | O_CREAT, &bm)) {
		fprintf(stderr, "exofs_mutate: cannot open the inode tables\n");
		return -1;
	}
	bitmap = calloc(1, 512);
	ore_user_read(&bm.obj, 0, bitmap, 512);
	for (ino = 1; ino < 4096 && ino < maxrec; ino++)
		if (bitmap[ino / 8] & (1u << (ino % 8)))
			used[nused++] = ino;

	kind = (unsigned int)pick(100);
	if (kind < 8)
		mutate_sb_raw(&st, m->desc, sizeof(m->desc));
	else if (kind < 28)
		mutate_sb_field(&st, m->desc, sizeof(m->desc));
	else if (kind < 48 && nused)
		mutate_inode(&it, used, nused, m->desc, sizeof(m->desc));
	else if (kind < 66 && nused)
		mutate_dir(&st, &it, used, nused, m->desc, sizeof(m->desc));
	else if (kind < 72)
		mutate_bitmap(&bm, used, nused, m->desc, sizeof(m->desc));
	else
		mutate_component(&st, &it, sized, used, nused, m);
	exofs_obj_close(&it);
	exofs_obj_close(&bm);
	free(bitmap);
	return 0;
}

/* ------------------------------------------------------------------
 * --fuzz: the whole loop in one process.
 */

/* What restore() last copied into a store: to copy only what changed. */
struct restored {
	char name[32];
	ino_t ino;
	struct timespec ctime;
};

struct store_state {
	const char *dir, *pristine;
	struct restored *files;
	size_t nfiles;
};

static int rm_entry(const char *path, const struct stat *sb, int flag,
		    struct FTW *ftw)
{
	(void)sb;
	(void)ftw;
	return flag == FTW_DP ? rmdir(path) : unlink(path);
}

static void rm_any(const char *path)
{
	struct stat s;

	if (lstat(path, &s))
		return;
	if (S_ISDIR(s.st_mode))
		nftw(path, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
	else
		unlink(path);
}

/*
 * Copy the file @from to @to, with the data checksum head of an object
 * file (its extended attribute ORE_FILE_CSUM_XATTR, any value).
 */
static int copy_file(const char *from, const char *to)
{
	static uint8_t buf[1 << 16];
	int in = open(from, O_RDONLY), out;
	ssize_t r;
	int err = 0;

	if (in < 0)
		return -errno;
	out = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0600);
	if (out < 0) {
		close(in);
		return -errno;
	}
	while ((r = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)r) != r) {
			err = -EIO;
			break;
		}
	if (r < 0)
		err = -errno;
	if (!err) {
		r = fgetxattr(in, ORE_FILE_CSUM_XATTR, buf, sizeof(buf));
		if (r >= 0 && fsetxattr(out, ORE_FILE_CSUM_XATTR, buf,
					(size_t)r, 0))
			err = -errno;
		else if (r < 0 && errno != ENODATA && errno != EOPNOTSUPP)
			err = -errno;
	}
	close(in);
	close(out);
	return err;
}

static const struct restored *find_restored(const struct store_state *ss,
					    const char *name)
{
	size_t i;

	for (i = 0; i < ss->nfiles; i++)
		if (!strcmp(ss->files[i].name, name))
			return &ss->files[i];
	return NULL;
}

/*
 * Make @ss->dir hold exactly the files of @ss->pristine: whatever is not
 * a file restore() wrote and nobody touched since (same inode, same
 * ctime) is removed and copied again.
 */
static int restore(struct store_state *ss)
{
	struct restored *now = NULL;
	size_t nnow = 0;
	char p1[4096], p2[4096];
	struct dirent *de;
	struct stat s;
	DIR *d;
	int err = 0;

	/* anything that is not a pristine name goes */
	d = opendir(ss->dir);
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		snprintf(p2, sizeof(p2), "%s/%s", ss->pristine, de->d_name);
		if (lstat(p2, &s)) {
			snprintf(p1, sizeof(p1), "%s/%s", ss->dir, de->d_name);
			rm_any(p1);
		}
	}
	closedir(d);
	d = opendir(ss->pristine);
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		const struct restored *r;

		if (de->d_name[0] == '.' || strlen(de->d_name) >= 32)
			continue;
		snprintf(p1, sizeof(p1), "%s/%s", ss->dir, de->d_name);
		snprintf(p2, sizeof(p2), "%s/%s", ss->pristine, de->d_name);
		r = find_restored(ss, de->d_name);
		if (!r || lstat(p1, &s) || !S_ISREG(s.st_mode) ||
		    s.st_ino != r->ino ||
		    s.st_ctim.tv_sec != r->ctime.tv_sec ||
		    s.st_ctim.tv_nsec != r->ctime.tv_nsec) {
			rm_any(p1);
			err = copy_file(p2, p1);
			if (err)
				break;
			if (lstat(p1, &s)) {
				err = -errno;
				break;
			}
		}
		now = realloc(now, (nnow + 1) * sizeof(*now));
		snprintf(now[nnow].name, sizeof(now[nnow].name), "%s",
			 de->d_name);
		now[nnow].ino = s.st_ino;
		now[nnow].ctime = s.st_ctim;
		nnow++;
	}
	closedir(d);
	free(ss->files);
	ss->files = now;
	ss->nfiles = nnow;
	return err;
}

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + t.tv_nsec / 1e9;
}

/*
 * Wait for @pid at most @secs seconds. Returns its wait status, or -1
 * after killing it when it took too long.
 */
static int wait_limited(pid_t pid, double secs)
{
	double end = now_s() + secs;
	int status;

	for (;;) {
		pid_t r = waitpid(pid, &status, WNOHANG);

		if (r == pid)
			return status;
		if (r < 0)
			return -2;
		if (now_s() > end) {
			kill(pid, SIGKILL);
			/* in D state it stays: do not wait for it forever */
			usleep(200000);
			waitpid(pid, &status, WNOHANG);
			return -1;
		}
		usleep(2000);
	}
}

/* Read every file under @path (not following links), stat everything. */
static void walk(const char *path, int depth)
{
	static char buf[1 << 16];
	struct dirent *de;
	struct stat s;
	DIR *d;

	if (lstat(path, &s) || depth > 32)
		return;
	if (S_ISLNK(s.st_mode)) {
		char t[PATH_MAX];

		if (readlink(path, t, sizeof(t)) < 0)
			return;
	} else if (S_ISREG(s.st_mode)) {
		int fd = open(path, O_RDONLY | O_NONBLOCK);
		off_t total = 0;
		ssize_t r;

		if (fd < 0)
			return;
		while ((r = read(fd, buf, sizeof(buf))) > 0 &&
		       (total += r) < (8 << 20))
			;
		close(fd);
	} else if (S_ISDIR(s.st_mode)) {
		d = opendir(path);
		if (!d)
			return;
		while ((de = readdir(d))) {
			char sub[4096];

			if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
				continue;
			snprintf(sub, sizeof(sub), "%s/%s", path, de->d_name);
			walk(sub, depth + 1);
		}
		closedir(d);
	}
}

static void rm_tree(const char *path)
{
	nftw(path, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* What a user does on the mounted (damaged) filesystem; errors ignored. */
static void exercise(const char *mnt, int rw)
{
	char p[4096], q[4096], buf[5000];
	struct statfs sf;
	int fd;

	walk(mnt, 0);
	statfs(mnt, &sf);
	if (!rw)
		return;
	snprintf(p, sizeof(p), "%s/newfile", mnt);
	fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd >= 0) {
		(void)!write(fd, "new\n", 4);
		close(fd);
	}
	snprintf(p, sizeof(p), "%s/a/newdir", mnt);
	mkdir(p, 0755);
	snprintf(p, sizeof(p), "%s/a/b/f2", mnt);
	fd = open(p, O_WRONLY);
	if (fd >= 0) {
		memset(buf, 0x33, sizeof(buf));
		(void)!pwrite(fd, buf, sizeof(buf), 1000);
		close(fd);
	}
	snprintf(p, sizeof(p), "%s/d/big", mnt);
	(void)!truncate(p, 100000);
	snprintf(p, sizeof(p), "%s/a/f1", mnt);
	snprintf(q, sizeof(q), "%s/d/f1moved", mnt);
	rename(p, q);
	snprintf(p, sizeof(p), "%s/e", mnt);
	rm_tree(p);
	walk(mnt, 0);
	sync();
}

/* New kernel log lines since the last call: the bad ones, the last exofs. */
static void scan_kmsg(int fd, char *bad, size_t blen, char *last, size_t llen)
{
	static const char *const pats[] = {
		"WARNING:", "BUG:", "Oops", "blocked for more than",
		"Call Trace", "general protection", "KASAN", "Kernel panic",
	};
	char rec[8192];
	ssize_t r;
	size_t i;

	if (fd < 0)
		return;
	while ((r = read(fd, rec, sizeof(rec) - 1)) > 0 || (r < 0 && errno == EPIPE)) {
		char *msg, *nl;

		if (r <= 0)
			continue;
		rec[r] = 0;
		msg = strchr(rec, ';');
		msg = msg ? msg + 1 : rec;
		nl = strchr(msg, '\n');
		if (nl)
			*nl = 0;
		for (i = 0; i < sizeof(pats) / sizeof(pats[0]); i++)
			if (strstr(msg, pats[i]) && !*bad)
				snprintf(bad, blen, "%.400s", msg);
		if (strstr(msg, "exofs"))
			snprintf(last, llen, "%.400s", msg);
	}
}

/* fsck.exofs --strict on the stores: its first problem line, or "". */
static int run_fsck(uint32_t n, const char **dirs, char *first, size_t flen)
{
	char out[16384];
	const char *argv[64];
	size_t got = 0;
	int pfd[2], status;
	ssize_t r;
	uint32_t i;
	pid_t pid;
	char *l;

	first[0] = 0;
	if (pipe(pfd))
		return -2;
	pid = fork();
	if (!pid) {
		dup2(pfd[1], 1);
		dup2(pfd[1], 2);
		close(pfd[0]);
		argv[0] = "fsck.exofs";
		argv[1] = "--strict";
		for (i = 0; i < n && i < 60; i++)
			argv[2 + i] = dirs[i];
		argv[2 + i] = NULL;
		execvp(argv[0], (char **)argv);
		_exit(127);
	}
	close(pfd[1]);
	fcntl(pfd[0], F_SETFL, O_NONBLOCK);
	{
		double end = now_s() + 60;

		status = -1;
		for (;;) {
			r = read(pfd[0], out + got, sizeof(out) - 1 - got);
			if (r > 0) {
				got += (size_t)r;
				if (got == sizeof(out) - 1)
					got = 0;	/* keep the tail... */
				continue;
			}
			if (waitpid(pid, &status, WNOHANG) == pid)
				break;
			if (now_s() > end) {
				kill(pid, SIGKILL);
				waitpid(pid, &status, 0);
				status = -1;
				break;
			}
			usleep(2000);
		}
		while ((r = read(pfd[0], out + got, sizeof(out) - 1 - got)) > 0)
			got += (size_t)r;
	}
	close(pfd[0]);
	out[got] = 0;
	l = strstr(out, "ERROR: ");
	if (!l)
		l = strstr(out, "WARNING: ");
	if (l) {
		char *nl = strchr(l, '\n');

		if (nl)
			*nl = 0;
		snprintf(first, flen, "%s", l);
	}
	return status;
}

static int victim_ok(void)
{
	char buf[256];
	int fd = open(VICTIM, O_RDONLY);
	ssize_t r;

	if (fd < 0)
		return 0;
	r = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	return r == (ssize_t)strlen(VICTIM_DATA) &&
	       !memcmp(buf, VICTIM_DATA, strlen(VICTIM_DATA));
}

static void make_victim(void)
{
	int fd = open(VICTIM, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (fd >= 0) {
		(void)!write(fd, VICTIM_DATA, strlen(VICTIM_DATA));
		close(fd);
	}
}

static int fuzz(int argc, char **argv)
{
	uint64_t nmut, seed0, r;
	const char *mnt, *pristine;
	const char **dirs;
	struct store_state *ss;
	char opts[4096], batch[2048] = "";
	unsigned long refused = 0, mounted = 0, flagged = 0, bad = 0;
	unsigned long batch_bad = 0, must = 0;
	double t0 = now_s();
	uint32_t n, i;
	int kfd;

	if (argc < 7) {
		fprintf(stderr, "usage: exofs_mutate --fuzz N SEED0 MNT PRISTINE STORE_DIR...\n");
		return 2;
	}
	nmut = strtoull(argv[2], NULL, 0);
	seed0 = strtoull(argv[3], NULL, 0);
	mnt = argv[4];
	pristine = argv[5];
	n = (uint32_t)(argc - 6);
	dirs = (const char **)(argv + 6);
	ss = calloc(n, sizeof(*ss));
	opts[0] = 0;
	for (i = 0; i < n; i++) {
		const char *base = strrchr(dirs[i], '/');
		char *p = malloc(4096);

		snprintf(p, 4096, "%s/%s", pristine, base ? base + 1 : dirs[i]);
		ss[i].dir = dirs[i];
		ss[i].pristine = p;
		snprintf(opts + strlen(opts), sizeof(opts) - strlen(opts),
			 "%s%s", i ? ":" : "stores=", dirs[i]);
	}
	kfd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
	if (kfd >= 0)
		lseek(kfd, 0, SEEK_END);
	make_victim();
	setvbuf(stdout, NULL, _IOLBF, 0);

	for (r = 0; r < nmut; r++) {
		uint64_t seed = seed0 + r;
		int rw = (int)(r & 1), st;
		char kbad[512] = "", klast[512] = "", fl[512], prob[640] = "";
		struct mutation m;
		const char *res;

		for (i = 0; i < n; i++)
			if (restore(&ss[i])) {
				fprintf(stderr, "exofs_mutate: cannot restore %s\n",
					ss[i].dir);
				return 1;
			}
		if (mutate(seed, n, dirs, &m))
			snprintf(m.desc, sizeof(m.desc), "no mutation");
		st = run_fsck(n, dirs, fl, sizeof(fl));
		if (st == -1 || (st >= 0 && WIFSIGNALED(st)))
			snprintf(prob, sizeof(prob), "fsck %s",
				 st == -1 ? "hung" : "crashed");
		else if (st >= 0 && WIFEXITED(st) && WEXITSTATUS(st))
			flagged++;
		else if (m.must_flag)
			snprintf(prob, sizeof(prob), "fsck found nothing");
		must += m.must_flag;
		scan_kmsg(kfd, kbad, sizeof(kbad), klast, sizeof(klast));
		klast[0] = 0;
		if (!mount("none", mnt, "exofs", rw ? 0 : MS_RDONLY, opts)) {
			pid_t pid = fork();
			int ws;

			mounted++;
			res = "mounted";
			if (!pid) {
				exercise(mnt, rw);
				_exit(0);
			}
			ws = wait_limited(pid, 60);
			if (ws == -1 && !*prob)
				snprintf(prob, sizeof(prob), "hung");
			for (i = 0; i < 20 && umount(mnt); i++)
				usleep(50000);
			if (i == 20) {
				if (!*prob)
					snprintf(prob, sizeof(prob), "umount failed: %s",
						 strerror(errno));
				umount2(mnt, MNT_DETACH);
			}
		} else {
			refused++;
			res = "refused";
		}
		scan_kmsg(kfd, kbad, sizeof(kbad), klast, sizeof(klast));
		if (*kbad && !*prob)
			snprintf(prob, sizeof(prob), "kernel: %s", kbad);
		if (m.victim && !victim_ok()) {
			if (!*prob)
				snprintf(prob, sizeof(prob), "the symlink's target was written");
			make_victim();
		}
		printf("# seed %llu (%s): %s: %s%s%s; fsck: %s%s%s\n",
		       (unsigned long long)seed, rw ? "rw" : "ro", m.desc, res,
		       *klast && !strcmp(res, "refused") ? ": " : "",
		       !strcmp(res, "refused") ? klast : "",
		       *fl ? fl : "clean", *prob ? " -- PROBLEM: " : "", prob);
		if (*prob) {
			batch_bad++;
			if (strlen(batch) < sizeof(batch) - 200)
				snprintf(batch + strlen(batch),
					 sizeof(batch) - strlen(batch),
					 " [seed %llu: %.60s: %.100s]",
					 (unsigned long long)seed, m.desc, prob);
		}
		if ((r + 1) % 100 == 0 || r + 1 == nmut) {
			printf("BATCH %llu %lu%s\n", (unsigned long long)(r + 1),
			       batch_bad, batch);
			bad += batch_bad;
			batch_bad = 0;
			batch[0] = 0;
		}
	}
	printf("# %llu mutations in %.1f s: %lu refused, %lu mounted, fsck reported %lu (%lu component files damaged, each reported), %lu problems\n",
	       (unsigned long long)nmut, now_s() - t0, refused, mounted,
	       flagged, must, bad);
	for (i = 0; i < n; i++)
		restore(&ss[i]);
	return bad ? 1 : 0;
}

int main(int argc, char **argv)
{
	struct mutation m;

	if (argc > 1 && !strcmp(argv[1], "--fuzz"))
		return fuzz(argc, argv);
	if (argc >= 2 && !strcmp(argv[1], "set"))
		return set_main(argc - 2, argv + 2);
	if (argc < 3) {
		fprintf(stderr, "usage: exofs_mutate SEED STORE_DIR...\n"
			"       exofs_mutate --fuzz N SEED0 MNT PRISTINE STORE_DIR...\n"
			"       exofs_mutate set sb|inode ...\n");
		return 2;
	}
	if (mutate(strtoull(argv[1], NULL, 0), (uint32_t)(argc - 2),
		   (const char **)(argv + 2), &m))
		return 1;
	printf("%s\n", m.desc);
	return 0;
}
