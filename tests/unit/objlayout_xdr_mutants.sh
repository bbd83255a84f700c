#!/bin/bash
# Mutation check of tests/unit/objlayout_xdr_test.c (not run by make unit):
# builds the test once per mutant of pnfs/objlayout_xdr.c (each below
# changes one check or one encoding rule), with ASan and UBSan, and
# expects every mutant to make the test fail. Prints one line per mutant
# and exits non-zero if any survives.
#
#   tests/unit/objlayout_xdr_mutants.sh
#
# A line below is "name|text|replacement" (Python escapes: \n \t); the
# text must occur exactly once in pnfs/objlayout_xdr.c.
set -u
TOP=$(cd "$(dirname "$0")/../.." && pwd)
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
CC=${CC:-cc}
survived=0 total=0
while IFS='|' read -r name from to; do
	[ -z "$name" ] && continue
	total=$((total + 1))
	if ! python3 - "$TOP/pnfs/objlayout_xdr.c" "$W/m.c" "$from" "$to" <<'PY'
import sys
s = open(sys.argv[1]).read()
f, t = (a.encode().decode('unicode_escape') for a in sys.argv[3:5])
if s.count(f) != 1:
    sys.exit(1)
open(sys.argv[2], 'w').write(s.replace(f, t))
PY
	then
		echo "mutant '$name': text not found once (stale list?)"
		survived=$((survived + 1))
		continue
	fi
	if ! $CC -I"$TOP/include" -O1 -g -w -fsanitize=address,undefined \
		-fno-sanitize-recover=all -o "$W/t" \
		"$TOP/tests/unit/objlayout_xdr_test.c" "$W/m.c" \
		"$TOP/ore/layout.c" 2>"$W/cc.err"; then
		echo "mutant '$name': does not compile"
		survived=$((survived + 1))
		continue
	fi
	out=$(timeout 300 "$W/t" 2>&1)
	rc=$?
	failing=$(grep '^not ok' <<< "$out" | sed 's/^not ok [0-9]* //' | tr '\n' ' ')
	grep -q 'ERROR: AddressSanitizer' <<< "$out" && failing+="(ASan)"
	if [ "$rc" -eq 0 ]; then
		echo "mutant '$name': SURVIVED"
		survived=$((survived + 1))
	else
		echo "mutant '$name': killed: $failing"
	fi
done <<'EOF_MUTANTS'
dec_take bounds check dropped|	if (n > d->len - d->pos) {\n		dec_fail_at(d, d->pos, -EMSGSIZE, field,\n			    "the buffer ends inside the field");|	if (0) {\n		dec_fail_at(d, d->pos, -EMSGSIZE, field,\n			    "the buffer ends inside the field");
dec_take off by one|	if (n > d->len - d->pos) {\n		dec_fail_at(d, d->pos, -EMSGSIZE|	if (n > d->len - d->pos + 1) {\n		dec_fail_at(d, d->pos, -EMSGSIZE
opaque max check dropped|	if (n > max) {\n		dec_fail_at(d, at, -EINVAL, field,\n			    "longer than our limit for the field");\n		return;\n	}|
padding check dropped|		if (p[i]) {\n			dec_fail_at|		if (0) {\n			dec_fail_at
padding not consumed on decode|	padded = xdr_padded(n);\n	p = dec_take|	padded = n;\n	p = dec_take
count vs buffer check dropped|	else if ((u64)n * elem_min > d->len - d->pos)|	else if (0)
count max dropped|	if (n > max)\n		dec_fail_at(d, at, -EINVAL, field,\n			    "more elements|	if (0)\n		dec_fail_at(d, at, -EINVAL, field,\n			    "more elements
index+count > num_comps dropped (decode)|	if ((u64)lo->olo_comps_index + n > map->odm_num_comps)\n		dec_fail_at|	if (0)\n		dec_fail_at
index+count overflow (u32 sum)|	if ((u64)lo->olo_comps_index + n > map->odm_num_comps)|	if (lo->olo_comps_index + n > map->odm_num_comps)
E2BIG check dropped|	else if (comps && n > max_comps)|	else if (0)
enum range check dropped (decode)|	if (!d->ret && !enum_ok(v, lo, hi))|	if (0)
bool accepts 2|	return dec_enum(d, 0, 1, field);|	return dec_enum(d, 0, 2, field);
trailing bytes accepted|	if (!d->ret && d->pos != d->len)|	if (0)
string NUL accepted|	if (string && o->len && memchr(o->data, 0, o->len))|	if (0)
little endian put|	p[0] = v >> 24;\n	p[1] = v >> 16;\n	p[2] = v >> 8;\n	p[3] = v;|	p[3] = v >> 24;\n	p[2] = v >> 16;\n	p[1] = v >> 8;\n	p[0] = v;
u64 halves swapped|		put_be32(p, v >> 32);\n		put_be32(p + 4, (u32)v);|		put_be32(p + 4, v >> 32);\n		put_be32(p, (u32)v);
no padding on encode|static size_t xdr_padded(u32 n)\n{\n	return (size_t)n + ((4 - (n & 3)) & 3);|static size_t xdr_padded(u32 n)\n{\n	return (size_t)n;
pad bytes not zeroed|		memset(p + o->len, 0, padded - o->len);|
encoder room check dropped|	if (n > e->len - e->pos) {\n		enc_fail(e, -EMSGSIZE|	if (0) {\n		enc_fail(e, -EMSGSIZE
encoder enum check dropped|	if (!enum_ok(v, lo, hi))\n		enc_fail|	if (0)\n		enc_fail
RAID4/5 swapped to ORE|	case PNFS_OSD_RAID_4:\n		*raid_algorithm = ORE_RAID4;|	case PNFS_OSD_RAID_4:\n		*raid_algorithm = ORE_RAID5;
RAID PQ from ORE wrong|	case ORE_RAID6:\n		*wire = PNFS_OSD_RAID_PQ;|	case ORE_RAID6:\n		*wire = PNFS_OSD_RAID_5;
n % copies dropped|	if (n % copies) {|	if (0) {
n % mp1 dropped|		if (n % mp1) {|		if (0) {
mirror_cnt limit dropped|	if (map->odm_mirror_cnt >= ORE_MAX_MIRRORS_P1) {|	if (0) {
stripe_unit 32-bit check dropped|	if (map->odm_stripe_unit > 0xffffffffULL) {|	if (0) {
depth 0 several groups accepted|		if (layout->group_count > 1) {|		if (0) {
depth without width accepted|		if (map->odm_group_depth) {|		if (0) {
no-nesting depth 1|		layout->group_depth = 0xffffffffu;|		layout->group_depth = 1;
mirror_cnt off by one|	map->odm_mirror_cnt = l.mirrors_p1 - 1;|	map->odm_mirror_cnt = l.mirrors_p1;
from_ore always nests|	if (l.group_count > 1) {|	if (1) {
from_ore skips check|	ret = ore_layout_check(&l, ORE_MAX_COMPONENTS, why);|	ret = 0;
targetaddr void branch wrong|	if (da->oda_targetaddr_available) {\n		dec_opaque|	if (1) {\n		dec_opaque
scsi name as opaque|	if (!d.ret && da->oda_targetid_type == OBJ_TARGET_SCSI_NAME)\n		dec_opaque(&d, &da->oda_targetid, PNFS_OSD_TARGETID_MAX, true,|	if (!d.ret && da->oda_targetid_type == OBJ_TARGET_SCSI_NAME)\n		dec_opaque(&d, &da->oda_targetid, PNFS_OSD_TARGETID_MAX, false,
dsu delta not read|		lu->dsu_delta = (s64)dec_u64(&d, "dsu_delta");|		lu->dsu_delta = 0;
ioerr nerrs limit dropped (decode)|	n = dec_count(&d, PNFS_OSD_MAX_IOERRS,|	n = dec_count(&d, 0xffffffff,
EOF_MUTANTS
echo "$((total - survived)) of $total mutants killed"
[ "$survived" -eq 0 ]
