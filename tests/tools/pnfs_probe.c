// SPDX-License-Identifier: GPL-2.0
/*
 * pnfs_probe: a minimal NFSv4.1 client that drives the objects-layout
 * operations of a server over the wire (a test aid; Debian's kernel
 * client has no objects layout driver, so it never sends them).
 *
 *   pnfs_probe [-x CMD] [-c LAST_WRITE] ADDR NAME
 *
 * Over TCP to ADDR:2049 from a reserved port, AUTH_SYS root: EXCHANGE_ID, CREATE_SESSION
 * (no back channel), RECLAIM_COMPLETE; OPEN of NAME in the root (no
 * create, no delegation), LAYOUTGET (LAYOUT4_OSD2_OBJECTS, RW, whole
 * file) whose body is decoded with pnfs/objlayout_xdr.c; GETDEVICEINFO
 * of component 0's device, decoded too; CMD run (its exit status printed)
 * while the layout is held; LAYOUTCOMMIT with LAST_WRITE as the last
 * written offset (when given) and a layoutupdate with olu_ioerr_flag;
 * LAYOUTRETURN of the file with two pnfs_osd_ioerr4 reports (component 0
 * read EIO, component 1 write UNREACHABLE); CLOSE, DESTROY_SESSION,
 * DESTROY_CLIENTID. One line per operation; exit 1 at the first
 * unexpected status or malformed reply.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <pnfs/objlayout_xdr.h>

enum {
	OP_CLOSE = 4, OP_GETFH = 10, OP_OPEN = 18, OP_PUTFH = 22,
	OP_PUTROOTFH = 24, OP_EXCHANGE_ID = 42, OP_CREATE_SESSION = 43,
	OP_DESTROY_SESSION = 44, OP_GETDEVICEINFO = 47, OP_LAYOUTCOMMIT = 49,
	OP_LAYOUTGET = 50, OP_LAYOUTRETURN = 51, OP_SEQUENCE = 53,
	OP_DESTROY_CLIENTID = 57, OP_RECLAIM_COMPLETE = 58,
};
#define LAYOUT_OSD2_OBJECTS	2
#define IOMODE_RW		2
#define IOMODE_ANY		3

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "pnfs_probe: ");
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	exit(1);
}

/* ---------------------------------------------------------------- XDR */

struct buf {
	uint8_t d[1 << 16];
	size_t n, pos;
};

static void put32(struct buf *b, uint32_t v)
{
	if (b->n + 4 > sizeof(b->d))
		die("request too big");
	v = htonl(v);
	memcpy(b->d + b->n, &v, 4);
	b->n += 4;
}

static void put64(struct buf *b, uint64_t v)
{
	put32(b, v >> 32);
	put32(b, (uint32_t)v);
}

static void putfixed(struct buf *b, const void *p, size_t len)
{
	if (b->n + len + 3 > sizeof(b->d))
		die("request too big");
	memcpy(b->d + b->n, p, len);
	b->n += len;
	while (b->n % 4)
		b->d[b->n++] = 0;
}

static void putopaque(struct buf *b, const void *p, size_t len)
{
	put32(b, len);
	putfixed(b, p, len);
}

static const uint8_t *take(struct buf *b, size_t len)
{
	size_t padded = (len + 3) & ~(size_t)3;
	const uint8_t *p;

	if (len > b->n || padded > b->n - b->pos)
		die("reply truncated at byte %zu (want %zu of %zu)", b->pos,
		    len, b->n);
	p = b->d + b->pos;
	b->pos += padded;
	return p;
}

static uint32_t get32(struct buf *b)
{
	uint32_t v;

	memcpy(&v, take(b, 4), 4);
	return ntohl(v);
}

static uint64_t get64(struct buf *b)
{
	uint64_t hi = get32(b);

	return hi << 32 | get32(b);
}

static const uint8_t *getopaque(struct buf *b, uint32_t *len)
{
	*len = get32(b);
	return take(b, *len);
}

static void skipopaque(struct buf *b)
{
	uint32_t len;

	getopaque(b, &len);
}

static void skipbitmap(struct buf *b)
{
	uint32_t n = get32(b);

	while (n--)
		get32(b);
}

/* ---------------------------------------------------------------- RPC */

static int sock;
static uint32_t xid = 0x50524f42;
static uint8_t sessionid[16];
static uint32_t slot_seq = 1;

static void rpc_begin(struct buf *b, uint32_t nops)
{
	static const char machine[] = "pnfs_probe";

	b->n = 4;	/* record mark */
	b->pos = 0;
	put32(b, ++xid);
	put32(b, 0);		/* CALL */
	put32(b, 2);		/* RPC version */
	put32(b, 100003);	/* NFS */
	put32(b, 4);
	put32(b, 1);		/* COMPOUND */
	put32(b, 1);		/* AUTH_SYS */
	put32(b, 4 + 4 + ((sizeof(machine) - 1 + 3) & ~3) + 4 + 4 + 4);
	put32(b, 0);		/* stamp */
	putopaque(b, machine, sizeof(machine) - 1);
	put32(b, 0);		/* uid */
	put32(b, 0);		/* gid */
	put32(b, 0);		/* no other gids */
	put32(b, 0);		/* verifier AUTH_NONE */
	put32(b, 0);
	putopaque(b, "", 0);	/* tag */
	put32(b, 1);		/* minor version */
	put32(b, nops);
}

static void full_io(int wr, uint8_t *p, size_t len)
{
	while (len) {
		ssize_t r = wr ? write(sock, p, len) : read(sock, p, len);

		if (r <= 0)
			die("%s: %s", wr ? "write" : "read",
			    r ? strerror(errno) : "connection closed");
		p += r;
		len -= r;
	}
}

/* Send the compound in @b, read the reply into @b; returns its status. */
static uint32_t rpc_call(struct buf *b)
{
	uint32_t mark = htonl(0x80000000u | (uint32_t)(b->n - 4)), len, v;
	int last = 0;

	memcpy(b->d, &mark, 4);
	full_io(1, b->d, b->n);
	b->n = 0;
	while (!last) {
		full_io(0, (uint8_t *)&mark, 4);
		mark = ntohl(mark);
		last = mark >> 31;
		len = mark & 0x7fffffff;
		if (b->n + len > sizeof(b->d))
			die("reply too big");
		full_io(0, b->d + b->n, len);
		b->n += len;
	}
	b->pos = 0;
	if (get32(b) != xid || get32(b) != 1)
		die("not the reply to our call");
	if ((v = get32(b)) != 0)
		die("RPC call denied (%u)", v);
	get32(b);	/* verifier */
	skipopaque(b);
	if ((v = get32(b)) != 0)
		die("RPC accept status %u", v);
	v = get32(b);	/* compound status */
	skipopaque(b);	/* tag */
	get32(b);	/* number of results */
	return v;
}

/* The next result must be @op; returns its status. */
static uint32_t op_status(struct buf *b, uint32_t op)
{
	uint32_t got = get32(b);

	if (got != op)
		die("result of op %u where op %u was expected", got, op);
	return get32(b);
}

static void expect_ok(struct buf *b, uint32_t op, const char *name)
{
	uint32_t st = op_status(b, op);

	if (st)
		die("%s: NFS4 status %u", name, st);
}

static void put_sequence(struct buf *b)
{
	put32(b, OP_SEQUENCE);
	putfixed(b, sessionid, 16);
	put32(b, slot_seq++);
	put32(b, 0);	/* slot */
	put32(b, 0);	/* highest slot */
	put32(b, 0);	/* cachethis */
}

static void get_sequence(struct buf *b)
{
	expect_ok(b, OP_SEQUENCE, "SEQUENCE");
	take(b, 16);
	get32(b);
	get32(b);
	get32(b);
	get32(b);
	get32(b);
}

static void put_channel(struct buf *b)
{
	put32(b, 0);		/* header pad */
	put32(b, 1 << 20);	/* max request */
	put32(b, 1 << 20);	/* max response */
	put32(b, 8192);		/* max response cached */
	put32(b, 16);		/* max operations */
	put32(b, 1);		/* max requests (slots) */
	put32(b, 0);		/* no RDMA ird */
}

static void skip_channel(struct buf *b)
{
	int i;

	for (i = 0; i < 6; i++)
		get32(b);
	if (get32(b))
		get32(b);
}

struct stateid {
	uint8_t b[16];
};

static void put_stateid(struct buf *b, const struct stateid *s)
{
	putfixed(b, s->b, 16);
}

static void get_stateid(struct buf *b, struct stateid *s)
{
	memcpy(s->b, take(b, 16), 16);
}

/* ---------------------------------------------------------------- main */

int main(int argc, char **argv)
{
	static struct buf b;
	const char *cmd = NULL, *name;
	long long last_write = -1;
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons(2049) };
	struct stateid open_sid, lo_sid;
	uint8_t fh[128], devid[16], body[4096];
	uint32_t fhlen, len, v, i, seqid;
	uint64_t clientid;
	char owner[64];
	const uint8_t *p;
	int opt, rc;

	while ((opt = getopt(argc, argv, "x:c:")) != -1) {
		if (opt == 'x')
			cmd = optarg;
		else if (opt == 'c')
			last_write = atoll(optarg);
		else
			die("usage: pnfs_probe [-x CMD] [-c LAST_WRITE] ADDR NAME");
	}
	if (argc - optind != 2 || inet_pton(AF_INET, argv[optind], &sa.sin_addr) != 1)
		die("usage: pnfs_probe [-x CMD] [-c LAST_WRITE] ADDR NAME");
	name = argv[optind + 1];
	sock = socket(AF_INET, SOCK_STREAM, 0);
	if (sock < 0)
		die("socket: %s", strerror(errno));
	/* a reserved port: exports are "secure" by default */
	for (i = 1023; i >= 600; i--) {
		struct sockaddr_in me = { .sin_family = AF_INET, .sin_port = htons(i) };

		if (!bind(sock, (struct sockaddr *)&me, sizeof(me)))
			break;
	}
	if (connect(sock, (struct sockaddr *)&sa, sizeof(sa)))
		die("connect %s:2049: %s", argv[optind], strerror(errno));
	snprintf(owner, sizeof(owner), "pnfs_probe.%d.%ld", (int)getpid(), (long)time(NULL));

	/* EXCHANGE_ID */
	rpc_begin(&b, 1);
	put32(&b, OP_EXCHANGE_ID);
	putfixed(&b, "probe-vf", 8);
	putopaque(&b, owner, strlen(owner));
	put32(&b, 0);	/* flags */
	put32(&b, 0);	/* SP4_NONE */
	put32(&b, 0);	/* no implementation id */
	rpc_call(&b);
	expect_ok(&b, OP_EXCHANGE_ID, "EXCHANGE_ID");
	clientid = get64(&b);
	seqid = get32(&b);
	v = get32(&b);
	printf("exchange_id: clientid 0x%" PRIx64 " flags 0x%x%s\n", clientid, v,
	       v & 0x20000 ? " (pNFS MDS)" : "");

	/* CREATE_SESSION */
	rpc_begin(&b, 1);
	put32(&b, OP_CREATE_SESSION);
	put64(&b, clientid);
	put32(&b, seqid);
	put32(&b, 0);		/* flags: no back channel, no persistence */
	put_channel(&b);
	put_channel(&b);
	put32(&b, 0x40000000);	/* callback program */
	put32(&b, 1);
	put32(&b, 0);		/* AUTH_NONE */
	rpc_call(&b);
	expect_ok(&b, OP_CREATE_SESSION, "CREATE_SESSION");
	memcpy(sessionid, take(&b, 16), 16);
	get32(&b);
	get32(&b);
	skip_channel(&b);
	skip_channel(&b);

	/* RECLAIM_COMPLETE */
	rpc_begin(&b, 2);
	put_sequence(&b);
	put32(&b, OP_RECLAIM_COMPLETE);
	put32(&b, 0);
	rpc_call(&b);
	get_sequence(&b);
	v = op_status(&b, OP_RECLAIM_COMPLETE);
	if (v && v != 10054)	/* NFS4ERR_COMPLETE_ALREADY */
		die("RECLAIM_COMPLETE: NFS4 status %u", v);

	/* OPEN NAME in the root, then its handle; in grace: retry */
	for (i = 0;; i++) {
		rpc_begin(&b, 4);
		put_sequence(&b);
		put32(&b, OP_PUTROOTFH);
		put32(&b, OP_OPEN);
		put32(&b, 0);			/* seqid */
		put32(&b, 3 | 0x0400);		/* BOTH, WANT_NO_DELEG */
		put32(&b, 0);			/* deny none */
		put64(&b, clientid);
		putopaque(&b, owner, strlen(owner));
		put32(&b, 0);			/* OPEN4_NOCREATE */
		put32(&b, 0);			/* CLAIM_NULL */
		putopaque(&b, name, strlen(name));
		put32(&b, OP_GETFH);
		rpc_call(&b);
		get_sequence(&b);
		expect_ok(&b, OP_PUTROOTFH, "PUTROOTFH");
		v = op_status(&b, OP_OPEN);
		if (v == 10013 && i < 30) {	/* NFS4ERR_GRACE */
			sleep(1);
			continue;
		}
		if (v)
			die("OPEN %s: NFS4 status %u", name, v);
		break;
	}
	get_stateid(&b, &open_sid);
	get32(&b);	/* change_info4 */
	get64(&b);
	get64(&b);
	get32(&b);	/* rflags */
	skipbitmap(&b);
	v = get32(&b);	/* delegation type */
	if (v == 3) {	/* OPEN_DELEGATE_NONE_EXT */
		v = get32(&b);
		if (v == 7 || v == 8)
			get32(&b);
	} else if (v) {
		die("OPEN: a delegation (%u) we did not want", v);
	}
	expect_ok(&b, OP_GETFH, "GETFH");
	p = getopaque(&b, &fhlen);
	if (fhlen > sizeof(fh))
		die("file handle of %u bytes", fhlen);
	memcpy(fh, p, fhlen);
	printf("open: %s, handle %u bytes\n", name, fhlen);

	/* LAYOUTGET */
	rpc_begin(&b, 3);
	put_sequence(&b);
	put32(&b, OP_PUTFH);
	putopaque(&b, fh, fhlen);
	put32(&b, OP_LAYOUTGET);
	put32(&b, 0);			/* signal layout avail */
	put32(&b, LAYOUT_OSD2_OBJECTS);
	put32(&b, IOMODE_RW);
	put64(&b, 0);
	put64(&b, UINT64_MAX);
	put64(&b, 4096);		/* min length */
	put_stateid(&b, &open_sid);
	put32(&b, 65536);		/* max count */
	rpc_call(&b);
	get_sequence(&b);
	expect_ok(&b, OP_PUTFH, "PUTFH");
	v = op_status(&b, OP_LAYOUTGET);
	if (v)
		die("LAYOUTGET: NFS4 status %u", v);
	get32(&b);			/* return on close */
	get_stateid(&b, &lo_sid);
	if (get32(&b) != 1)
		die("LAYOUTGET: not one layout");
	{
		uint64_t off = get64(&b), length = get64(&b);
		uint32_t iomode = get32(&b), type = get32(&b);
		struct pnfs_osd_object_cred comps[PNFS_OSD_MAX_COMPS];
		struct pnfs_osd_xdr_err xerr = { 0 };
		struct pnfs_osd_layout lo;

		p = getopaque(&b, &len);
		if (type != LAYOUT_OSD2_OBJECTS)
			die("LAYOUTGET: layout type %u", type);
		if (pnfs_osd_xdr_decode_layout(p, len, &lo, comps,
					       PNFS_OSD_MAX_COMPS, &xerr))
			die("LAYOUTGET: body refused: %s %s at %u", xerr.field,
			    xerr.why, xerr.pos);
		printf("layoutget: iomode %u offset %" PRIu64 " length 0x%" PRIx64
		       " body %u bytes: raid %u stripe_unit %" PRIu64
		       " group_width %u depth %u mirrors %u comps %u",
		       iomode, off, length, len, lo.olo_map.odm_raid_algorithm,
		       (uint64_t)lo.olo_map.odm_stripe_unit,
		       lo.olo_map.odm_group_width, lo.olo_map.odm_group_depth,
		       lo.olo_map.odm_mirror_cnt, lo.olo_num_comps);
		for (i = 0; i < lo.olo_num_comps; i++)
			printf(" [%u: obj 0x%" PRIx64 " v%u]", i,
			       (uint64_t)comps[i].oc_object_id.oid_object_id,
			       comps[i].oc_osd_version);
		printf("\n");
		memcpy(devid, comps[0].oc_object_id.oid_device_id, 16);
	}

	/* GETDEVICEINFO of component 0's device */
	rpc_begin(&b, 2);
	put_sequence(&b);
	put32(&b, OP_GETDEVICEINFO);
	putfixed(&b, devid, 16);
	put32(&b, LAYOUT_OSD2_OBJECTS);
	put32(&b, 65536);
	put32(&b, 0);	/* no notifications */
	rpc_call(&b);
	get_sequence(&b);
	v = op_status(&b, OP_GETDEVICEINFO);
	if (v)
		die("GETDEVICEINFO: NFS4 status %u", v);
	if (get32(&b) != LAYOUT_OSD2_OBJECTS)
		die("GETDEVICEINFO: another layout type");
	p = getopaque(&b, &len);
	{
		struct pnfs_osd_xdr_err xerr = { 0 };
		struct pnfs_osd_deviceaddr da;

		if (pnfs_osd_xdr_decode_deviceaddr(p, len, &da, &xerr))
			die("GETDEVICEINFO: body refused: %s %s at %u",
			    xerr.field, xerr.why, xerr.pos);
		printf("getdeviceinfo: body %u bytes: target type %u netid %.*s uaddr %.*s osdname %.*s systemid %u bytes\n",
		       len, da.oda_targetid_type, (int)da.oda_netid.len,
		       da.oda_netid.data, (int)da.oda_uaddr.len, da.oda_uaddr.data,
		       (int)da.oda_osdname.len, da.oda_osdname.data,
		       da.oda_systemid.len);
	}
	fflush(stdout);

	if (cmd) {
		rc = system(cmd);
		printf("while held: '%s' exit %d\n", cmd, WEXITSTATUS(rc));
		fflush(stdout);
	}

	/* LAYOUTCOMMIT */
	rpc_begin(&b, 3);
	put_sequence(&b);
	put32(&b, OP_PUTFH);
	putopaque(&b, fh, fhlen);
	put32(&b, OP_LAYOUTCOMMIT);
	put64(&b, 0);
	put64(&b, UINT64_MAX);
	put32(&b, 0);			/* reclaim */
	put_stateid(&b, &lo_sid);
	if (last_write >= 0) {
		put32(&b, 1);
		put64(&b, last_write);
	} else {
		put32(&b, 0);
	}
	put32(&b, 0);			/* no time */
	put32(&b, LAYOUT_OSD2_OBJECTS);
	{
		struct pnfs_osd_layoutupdate lu = { .olu_ioerr_flag = true };
		int n = pnfs_osd_xdr_encode_layoutupdate(body, sizeof(body), &lu, NULL);

		if (n < 0)
			die("cannot encode the layoutupdate");
		putopaque(&b, body, n);
	}
	rpc_call(&b);
	get_sequence(&b);
	expect_ok(&b, OP_PUTFH, "PUTFH");
	v = op_status(&b, OP_LAYOUTCOMMIT);
	if (v)
		die("LAYOUTCOMMIT: NFS4 status %u", v);
	if (get32(&b))
		printf("layoutcommit: new size %" PRIu64 "\n", get64(&b));
	else
		printf("layoutcommit: size unchanged\n");

	/* LAYOUTRETURN with two error reports */
	rpc_begin(&b, 3);
	put_sequence(&b);
	put32(&b, OP_PUTFH);
	putopaque(&b, fh, fhlen);
	put32(&b, OP_LAYOUTRETURN);
	put32(&b, 0);			/* reclaim */
	put32(&b, LAYOUT_OSD2_OBJECTS);
	put32(&b, IOMODE_ANY);
	put32(&b, 1);			/* LAYOUTRETURN4_FILE */
	put64(&b, 0);
	put64(&b, UINT64_MAX);
	put_stateid(&b, &lo_sid);
	{
		struct pnfs_osd_ioerr errs[2] = { 0 };
		int n;

		memcpy(errs[0].oer_component.oid_device_id, devid, 16);
		errs[0].oer_component.oid_object_id = 0x20000;
		errs[0].oer_comp_offset = 4096;
		errs[0].oer_comp_length = 8192;
		errs[0].oer_errno = PNFS_OSD_ERR_EIO;
		errs[1] = errs[0];
		errs[1].oer_iswrite = true;
		errs[1].oer_errno = PNFS_OSD_ERR_UNREACHABLE;
		n = pnfs_osd_xdr_encode_layoutreturn(body, sizeof(body), errs, 2, NULL);
		if (n < 0)
			die("cannot encode the layoutreturn");
		putopaque(&b, body, n);
	}
	rpc_call(&b);
	get_sequence(&b);
	expect_ok(&b, OP_PUTFH, "PUTFH");
	v = op_status(&b, OP_LAYOUTRETURN);
	if (v)
		die("LAYOUTRETURN: NFS4 status %u", v);
	printf("layoutreturn: ok, stateid %s\n", get32(&b) ? "kept" : "gone");

	/* CLOSE, DESTROY_SESSION, DESTROY_CLIENTID */
	rpc_begin(&b, 3);
	put_sequence(&b);
	put32(&b, OP_PUTFH);
	putopaque(&b, fh, fhlen);
	put32(&b, OP_CLOSE);
	put32(&b, 0);
	put_stateid(&b, &open_sid);
	rpc_call(&b);
	get_sequence(&b);
	expect_ok(&b, OP_PUTFH, "PUTFH");
	expect_ok(&b, OP_CLOSE, "CLOSE");
	rpc_begin(&b, 1);
	put32(&b, OP_DESTROY_SESSION);
	putfixed(&b, sessionid, 16);
	rpc_call(&b);
	expect_ok(&b, OP_DESTROY_SESSION, "DESTROY_SESSION");
	rpc_begin(&b, 1);
	put32(&b, OP_DESTROY_CLIENTID);
	put64(&b, clientid);
	rpc_call(&b);
	expect_ok(&b, OP_DESTROY_CLIENTID, "DESTROY_CLIENTID");
	printf("done\n");
	return 0;
}
