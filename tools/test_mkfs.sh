#!/bin/bash
# Host tests of mkfs.exofs and fsck.exofs (KTAP), run by `make -C tools check`.
# Exits non-zero when any test failed.
cd "$(dirname "$0")" || exit 1
T=$(mktemp -d /tmp/test_mkfs.XXXXXX)
trap 'rm -rf "$T"' EXIT
N=0 FAILED=0 PLAN=91
S="$T/s0 $T/s1 $T/s2 $T/s3"
mkdir -p $S

ok() { N=$((N + 1)); echo "ok $N $1"; }
not_ok() { N=$((N + 1)); FAILED=$((FAILED + 1)); echo "not ok $N $1"; shift; for l in "$@"; do echo "# $l"; done; }
# expect DESC RC CMD...: CMD exits with RC (or "nz": non-zero); output in $OUT
expect() {
	local desc=$1 want=$2 rc
	shift 2
	OUT=$("$@" 2>&1); rc=$?
	if { [ "$want" = nz ] && [ $rc -ne 0 ]; } || [ "$want" = "$rc" ]; then
		ok "$desc"
	else
		not_ok "$desc" "'$*' exited $rc, expected $want" "$(tail -n 5 <<< "$OUT")"
	fi
}
# expect_msg DESC REGEX CMD...: CMD fails and its stderr matches REGEX
expect_msg() {
	local desc=$1 re=$2 rc
	shift 2
	OUT=$("$@" 2>&1 >/dev/null); rc=$?
	if [ $rc -ne 0 ] && grep -Eq "$re" <<< "$OUT"; then
		ok "$desc"
	else
		not_ok "$desc" "'$*' exited $rc" "stderr: $OUT"
	fi
}
# flip FILE OFFSET: invert one byte
flip() {
	local b
	b=$(od -An -tu1 -j "$2" -N1 "$1" | tr -d ' ')
	printf "$(printf '\\%03o' $(( (b ^ 0xff) & 0xff )))" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}

echo "KTAP version 1"
echo "1..$PLAN"
for r in 0 1 4 5 6; do
	expect "mkfs --raid $r over 4 stores, fsck --strict clean" 0 \
		sh -c "./mkfs.exofs -q -f --raid $r $S && ./fsck.exofs --strict $S"
done
expect "mkfs --raid 5 --stripe-unit 8K --group-width 2 --group-count 2 -L lbl" 0 \
	sh -c "./mkfs.exofs -f --raid 5 --stripe-unit 8K --group-width 2 --group-count 2 -L lbl $S | grep -q 'group_count 2' && ./fsck.exofs --strict $S"
expect "mkfs prints the layout and the store order" 0 \
	sh -c "./mkfs.exofs -f --raid 6 $S | grep -q '^  3 $T/s3 uuid '"
expect_msg "refuses a store holding an exofs without -f (names its uuid)" \
	"holds an exofs filesystem \(uuid [0-9a-f-]{36}\).*-f" ./mkfs.exofs --raid 5 $S
rm -f $T/s?/*; touch $T/s3/junk
expect_msg "refuses a non-empty store without -f" "s3 is not empty" ./mkfs.exofs $S
expect_msg "refuses a store given twice" "given twice" ./mkfs.exofs -f $T/s0 $T/s1 $T/s0
expect_msg "refuses the same directory under another name" "given twice" \
	./mkfs.exofs -f $T/s0 $T/s1 $T/s2/../s0
expect_msg "refuses a missing store" "nonexist: No such file" ./mkfs.exofs $T/s0 $T/nonexist
expect_msg "refuses a store that is not a directory" "is not a directory" ./mkfs.exofs $T/s0 $T/s3/junk
expect_msg "refuses a layout ORE rejects, with its reason" \
	"invalid layout.*stripe_unit is not a multiple of the page size" \
	./mkfs.exofs -f --stripe-unit 1000 $S
expect_msg "refuses a group wider than the stores" \
	"layout needs more components than there are devices" ./mkfs.exofs -f --raid 5 --group-width 5 $S
expect_msg "refuses RAID6 on 2-wide groups" "group_width leaves no data" \
	./mkfs.exofs -f --raid 6 --group-width 2 $S
expect_msg "refuses --raid 3" "not 0, 1, 4, 5 or 6" ./mkfs.exofs -f --raid 3 $S
expect_msg "refuses a label over 32 bytes" "longer than 32" ./mkfs.exofs -f -L 0123456789012345678901234567890123 $S
expect_msg "refuses a bad uuid" "is not a UUID" ./mkfs.exofs -f -U 1234 $S
expect "--help exits 0" 0 ./mkfs.exofs --help
expect "-U sets the uuid" 0 sh -c "./mkfs.exofs -f -U 01234567-89ab-cdef-0123-456789abcdef $S | grep -q 'uuid 01234567-89ab-cdef-0123-456789abcdef'"
touch $T/s1/20005 $T/s2/keepme
mkdir -p $T/s0/lost+found
expect "-f removes old objects, keeps other files, ignores lost+found" 0 \
	sh -c "./mkfs.exofs -q -f --raid 5 $S && [ ! -e $T/s1/20005 ] && [ -e $T/s2/keepme ] && [ -d $T/s0/lost+found ] && ./fsck.exofs --strict $S"
rm -f $T/s2/keepme $T/s3/junk
expect "a store holding only lost+found counts as empty" 0 \
	sh -c "rm -rf $T/s*/* && mkdir $T/s0/lost+found && ./mkfs.exofs -q --raid 5 $S"

# fsck catches damage
mkdir $T/bak; for i in 0 1 2 3; do cp -a $T/s$i $T/bak/s$i; done
restore() { for i in 0 1 2 3; do rm -rf $T/s$i; cp -a $T/bak/s$i $T/s$i; done; }
expect "fsck: stores in the wrong order" 4 ./fsck.exofs $T/s0 $T/s2 $T/s1 $T/s3
expect "fsck: one store missing on RAID5 is degraded, not an error" 0 ./fsck.exofs $T/s0 missing $T/s2 $T/s3
flip $T/s2/10000 200
expect "fsck: a corrupt superblock" 4 ./fsck.exofs $S
restore
# record 1 (root) is at 256..511 of the inode table: flip its mode byte on
# the component that holds it (the biggest data file of 10001)
f=$(ls -S $T/s?/10001 | head -n 1)
flip "$f" 256
expect "fsck: a corrupt inode record" 4 ./fsck.exofs $S
restore
flip $T/s1/20001 3000
expect "fsck: a flipped byte of the root directory (parity mismatch)" 4 ./fsck.exofs $S
restore
mkdir $T/other && ./mkfs.exofs -q $T/other
expect "fsck: a foreign store" 4 sh -c "cp $T/other/10000 $T/s3/10000 && ./fsck.exofs $S"
restore
expect "fsck: 5 stores given to a 4-store filesystem" 4 ./fsck.exofs $S $T/other

# --consistency-policy (the intent record of the write-hole protection)
expect "RAID5: the intent policy by default" 0 sh -c "./mkfs.exofs -f --raid 5 $S | grep -q '^consistency policy: intent'"
expect "fsck: no intent record yet is fine" 0 ./fsck.exofs --strict $S
printf 'garbage' > $T/s2/10003
expect "fsck: a damaged intent record slot is a warning" 0 sh -c "./fsck.exofs $S | grep -q 'store 2 .*intent record slot 0: bad magic'"
expect "--consistency-policy none" 0 sh -c "./mkfs.exofs -f --raid 5 --consistency-policy none $S | grep -q '^consistency policy: none'"
expect "RAID0: no intent record by default" 0 sh -c "./mkfs.exofs -f --raid 0 $S | grep -q '^consistency policy: none'"
expect_msg "refuses --consistency-policy intent on RAID0" "needs parity or mirrors" ./mkfs.exofs -f --raid 0 --consistency-policy intent $S
expect_msg "refuses an unknown --consistency-policy" "is not intent or none" ./mkfs.exofs -f --consistency-policy ppl $S

# --checksum (data checksums: XXH64 or CRC-32C entries, those of an
# object's first 16 blocks in its file's extended attribute user.ore.csum,
# "the head", the others in its side file "<oid>.csum"; the type in
# s_csum_type: 2 xxh64, 1 crc32c, 0 without CSUM). The objects mkfs
# writes are small: their entries are all in heads, no side file is made.
FSOP=../tests/tools/fsop
ro_compat() { od -An -tu4 -j28 -N4 "$1/10000" | tr -d ' '; }
csum_type() { od -An -tu4 -j148 -N4 "$1/10000" | tr -d ' '; }
nside() { find $S -name '*.csum' | wc -l; }
chead() { $FSOP xattr get "$1" user.ore.csum; }	# hex, or ENODATA
nhead() {	# object files with a head
	local f n=0
	for f in $(find $S -type f ! -name '*.csum'); do
		chead $f > /dev/null && n=$((n + 1))
	done
	echo $n
}
csum_on() {	# NAME TYPE [MKFS OPTIONS]: RAID5 with checksums of type NAME
	local name=$1 type=$2 i h
	shift 2
	./mkfs.exofs -f --raid 5 "$@" $S | grep -q "^checksums: $name\$" &&
	[ "$(ro_compat $T/s0)" = 15 ] && h=$(chead $T/s1/20001) &&
	[ ${#h} = 8 ] && [ "$h" != 00000000 ] && [ "$(nside)" = 0 ] &&
	[ "$(nhead)" -ge 6 ] && [ "$(chead $T/s0/10000)" = ENODATA ] ||
		return 1
	for i in 0 1 2 3; do [ "$(csum_type $T/s$i)" = "$type" ] || return 1; done
	./fsck.exofs -v --strict $S > $T/out &&
	grep -q "^features: .*csum (data checksums, $name)" $T/out &&
	grep -q 'data checksums: [1-9][0-9]* blocks verified, 0 did not match' $T/out
}
expect "RAID5: xxh64 checksums by default (CSUM bit, s_csum_type 2, heads, no side file), fsck --strict verifies them clean" 0 csum_on xxh64 2
expect "--checksum xxh64: the same" 0 csum_on xxh64 2 --checksum xxh64
expect "--checksum crc32c: s_csum_type 1, fsck -v says crc32c and verifies them clean" 0 csum_on crc32c 1 --checksum crc32c
csum_none() {
	./mkfs.exofs -f --raid 5 --checksum none $S | grep -q '^checksums: none$' &&
	[ "$(ro_compat $T/s0)" = 11 ] && [ "$(csum_type $T/s0)" = 0 ] &&
	[ "$(nside)" = 0 ] && [ "$(nhead)" = 0 ] &&
	./fsck.exofs --strict $S > $T/out && ! grep -q 'data checksums' $T/out
}
expect "--checksum none: no CSUM bit, s_csum_type 0, no heads, no side files" 0 csum_none
expect_msg "refuses --checksum crc32c with --consistency-policy none" \
	"mkfs.exofs: --checksum crc32c: checksums need the intent record.*--consistency-policy none" \
	./mkfs.exofs -f --raid 5 --checksum crc32c --consistency-policy none $S
expect_msg "refuses --checksum xxh64 with --consistency-policy none" \
	"mkfs.exofs: --checksum xxh64: checksums need the intent record.*--consistency-policy none" \
	./mkfs.exofs -f --raid 5 --checksum xxh64 --consistency-policy none $S
expect_msg "refuses --checksum crc32c on RAID0 (no intent record)" \
	"checksums need the intent record" ./mkfs.exofs -f --raid 0 --checksum crc32c $S
expect_msg "refuses an unknown --checksum" "'md5' is not xxh64, crc32c or none" ./mkfs.exofs -f --checksum md5 $S
# fsck takes the type from the superblock: an xxh64 filesystem whose
# superblocks say crc32c fails every block; an unknown type, or a type
# without the CSUM bit, is a corrupt superblock
MUT=../tests/tools/exofs_mutate
csum_relabel() {
	./mkfs.exofs -q -f --raid 5 $S &&
	$MUT set sb s_csum_type 1 $S > /dev/null || return 1
	./fsck.exofs $S > $T/out; [ $? = 4 ] &&
	grep -Eq 'data checksums: ([1-9][0-9]*) blocks verified, \1 did not match' $T/out
}
expect "fsck verifies with the superblock's type: xxh64 entries read as crc32c all fail" 0 csum_relabel
csum_badtype() {	# FIELD VALUE MESSAGE
	./mkfs.exofs -q -f --raid 5 $S && $MUT set sb "$1" "$2" $S > /dev/null ||
		return 1
	./fsck.exofs $S > $T/out 2>&1; [ $? -ge 4 ] &&
	[ "$(grep -c "corrupt superblock: $3" $T/out)" = 4 ]
}
expect "fsck: s_csum_type 3 is a corrupt superblock" 0 \
	csum_badtype s_csum_type 3 "unknown s_csum_type"
expect "fsck: s_csum_type 0 with CSUM is a corrupt superblock" 0 \
	csum_badtype s_csum_type 0 "unknown s_csum_type"
expect "fsck: s_csum_type without CSUM is a corrupt superblock" 0 \
	csum_badtype s_feature_ro_compat 3 "s_csum_type set without the CSUM feature"
# the root directory (0x20001, 4096 bytes) is data component 0 on store
# (0x20001 * mirrors) % 4: s1 with RAID5, s2 (and its mirror s3) with RAID1
csum_flip() {	# STORE COMPONENT
	flip $T/s$1/20001 3000
	./fsck.exofs $S > $T/out; [ $? = 4 ] &&
	grep -q "^ERROR: directory 1: object 0x20001 component $2 on store $T/s$1: checksum mismatch in 1 block (first at offset 0)" $T/out &&
	grep -q 'data checksums: .*, 1 did not match' $T/out
}
csum_repair() {	# STORE
	./fsck.exofs --repair $S > $T/out; [ $? = 1 ] &&
	grep -q '^REPAIRED: directory 1: .*rebuilt from the redundancy' $T/out &&
	./fsck.exofs --strict $S > /dev/null && cmp -s $T/s$1/20001 $T/orig
}
for c in xxh64 crc32c; do
	./mkfs.exofs -q -f --raid 5 --checksum $c $S && cp $T/s1/20001 $T/orig
	expect "fsck: $c, a flipped byte of a root directory block is a checksum error (object, component, store, offset)" 0 csum_flip 1 0
	expect "fsck --repair: $c, the block rebuilt from the parity, fsck clean after" 0 csum_repair 1
done
./mkfs.exofs -q -f --raid 1 $S && cp $T/s3/20001 $T/orig
expect "fsck: RAID1, a flipped byte of the second copy is a checksum error" 0 csum_flip 3 1
expect "fsck --repair: RAID1, the copy rewritten from the first" 0 csum_repair 3
csum_sides() {
	touch $T/s2/20005.csum $T/s3/10000.csum
	./fsck.exofs $S > $T/out || return 1
	grep -q "WARNING: store $T/s2: side file 20005.csum of no object (orphan)" $T/out &&
	grep -q "WARNING: store $T/s3: side file 10000.csum of a per-store object" $T/out &&
	! ./fsck.exofs --strict $S > /dev/null && mkdir $T/s0/20001.csum &&
	{ ./fsck.exofs $S > $T/out; [ $? = 4 ]; } &&
	grep -q "ERROR: store $T/s0: side file 20001.csum is not a regular file" $T/out
}
expect "fsck: orphan and per-store side files are warnings, one not a regular file an error" 0 csum_sides
rmdir $T/s0/20001.csum
csum_force() {
	touch $T/s0/keep.csum &&
	./mkfs.exofs -q -f --raid 5 --checksum none $S && [ "$(nside)" = 1 ] &&
	[ -e $T/s0/keep.csum ] && rm $T/s0/keep.csum &&
	touch $T/s0/20001.csum && ./fsck.exofs $S > $T/out &&
	grep -q "WARNING: store $T/s0: side file 20001.csum on a filesystem without data checksums" $T/out
}
expect "-f removes side files (orphans too), keeps other files; a side file without CSUM is a warning" 0 csum_force
# the head of the root directory's component on s1 (one entry, 4 bytes)
csum_badhead() {	# HEX: a corrupt value
	local h
	./mkfs.exofs -q -f --raid 5 $S && h=$(chead $T/s1/20001) &&
	$FSOP xattr set $T/s1/20001 user.ore.csum "$1" || return 1
	./fsck.exofs $S > $T/out; [ $? = 4 ] &&
	grep -q "^ERROR: directory 1: object 0x20001 component 0 on store $T/s1: the checksum head of $T/s1/20001 (extended attribute user.ore.csum, $((${#1} / 2)) bytes) is corrupt" $T/out &&
	./fsck.exofs --repair $S > $T/out; [ $? = 1 ] &&
	grep -q "^REPAIRED: directory 1: object 0x20001 component 0 on store $T/s1: .* is corrupt: restamped from the data" $T/out &&
	./fsck.exofs --strict $S > /dev/null && [ "$(chead $T/s1/20001)" = "$h" ]
}
expect "fsck: a head of 5 bytes is an error (store, file); --repair restamps it, fsck clean after" 0 \
	csum_badhead 0102030405
expect "fsck: a head of 68 bytes is an error; --repair restamps it" 0 \
	csum_badhead "$(printf '01%.0s' {1..68})"
# an object without a head, as written before it: every entry in the side
# file; with a head the side file's first 64 bytes are not read
csum_old() {
	local h
	./mkfs.exofs -q -f --raid 5 $S && h=$(chead $T/s1/20001) &&
	cp $T/s1/20001 $T/orig && head -c 64 /dev/urandom > $T/s1/20001.csum &&
	./fsck.exofs -v --strict $S > $T/out &&
	grep -q 'data checksums: 2 blocks verified, 0 did not match' $T/out &&
	printf "$(sed 's/../\\x&/g' <<< "$h")" > $T/s1/20001.csum &&
	$FSOP xattr rm $T/s1/20001 user.ore.csum &&
	./fsck.exofs -v --strict $S > $T/out &&
	grep -q 'data checksums: 2 blocks verified, 0 did not match' $T/out &&
	flip $T/s1/20001 3000 || return 1
	./fsck.exofs $S > $T/out; [ $? = 4 ] &&
	grep -q "^ERROR: directory 1: object 0x20001 component 0 on store $T/s1: checksum mismatch in 1 block (first at offset 0)" $T/out &&
	csum_repair 1 && [ "$(chead $T/s1/20001)" = ENODATA ]
}
expect "fsck: with a head the side file's first 64 bytes are not read; without one (an old object) they are its entries, a flipped byte found and rebuilt" 0 csum_old
csum_headwarn() {
	./mkfs.exofs -q -f --raid 5 $S &&
	$FSOP xattr set $T/s0/10000 user.ore.csum "" || return 1
	./fsck.exofs $S > $T/out &&
	grep -q "^WARNING: store $T/s0: object 10000 has a checksum head (extended attribute user.ore.csum), a per-store object (they have none)" $T/out &&
	! ./fsck.exofs --strict $S > /dev/null &&
	./mkfs.exofs -q -f --raid 5 --checksum none $S &&
	$FSOP xattr set $T/s1/20001 user.ore.csum 01000000 &&
	./fsck.exofs $S > $T/out &&
	grep -q "^WARNING: store $T/s1: object 20001 has a checksum head (extended attribute user.ore.csum) on a filesystem without data checksums (no CSUM feature)" $T/out &&
	! ./fsck.exofs --strict $S > /dev/null
}
expect "fsck: a head of a per-store object, or on a filesystem without CSUM, is a warning" 0 csum_headwarn
expect_msg "--replace takes no --checksum" "takes no layout options" \
	./mkfs.exofs --replace 1 -U 01234567-89ab-cdef-0123-456789abcdef --checksum none $T/other

# Components (ro_compat COMPONENTS 0x1, SIZED 0x8): by default the
# components of an inode's object exist as far as its size reaches them
# (ore_layout_obj_size() > 0); --all-components: every one (the format
# before SIZED); --lazy-components: made by their first write (holes). The
# root directory (0x20001, 4096 bytes; component c on store (1 + c) % 4)
# is an inode object: with RAID5 and the default 64K stripe unit its size
# reaches data component 0 (s1) and the parity of row 0 (s0), not data
# components 1 and 2 (s2, s3). mkfs writes every component still.
feats() { ./fsck.exofs -v $S | sed -n 's/^features://p'; }
comps_default() {
	./mkfs.exofs -q -f --raid 5 $S && [ "$(ro_compat $T/s0)" = 15 ] &&
	[[ "$(feats)" == " components sized intent "* ]] &&
	[ "$(stat -c %s $T/s0/20001 $T/s1/20001 $T/s2/20001 $T/s3/20001 | xargs)" = "4096 4096 0 0" ] &&
	./fsck.exofs --strict $S > /dev/null
}
expect "mkfs: COMPONENTS and SIZED (0x8) by default, fsck -v says 'components sized', every root directory component written" 0 comps_default
# comps_opt OPTION RO_COMPAT FEATURES: mkfs --raid 5 OPTION sets the
# ro_compat bits RO_COMPAT, fsck -v's features line starts with FEATURES
comps_opt() {
	./mkfs.exofs -q -f --raid 5 "$1" $S &&
	[ "$(ro_compat $T/s0)" = "$2" ] &&
	[[ "$(feats)" == "$3"* ]] &&
	./fsck.exofs --strict $S > /dev/null
}
expect "--all-components: COMPONENTS without SIZED, fsck -v says 'components' alone" 0 \
	comps_opt --all-components 7 " components intent "
expect "--lazy-components: neither COMPONENTS nor SIZED" 0 \
	comps_opt --lazy-components 6 " intent "
expect_msg "refuses --lazy-components with --all-components" \
	"mkfs.exofs: --lazy-components and --all-components exclude each other" \
	./mkfs.exofs -f --raid 5 --lazy-components --all-components $S
expect_msg "refuses --all-components with --replace" "takes no layout options" \
	./mkfs.exofs --replace 1 -U 01234567-89ab-cdef-0123-456789abcdef --all-components $T/other
# comp_gone MKFS_OPTIONS -- FILES: mkfs, remove FILES, fsck; its output in
# $T/out, its exit status returned
comp_gone() {
	local opts=() f
	while [ "$1" != -- ]; do opts+=("$1"); shift; done
	shift
	./mkfs.exofs -q -f "${opts[@]}" $S || return 99
	for f; do rm "$T/$f" || return 99; done
	./fsck.exofs --strict $S > $T/out 2>&1
}
sized_unreached() {
	comp_gone --raid 5 -- s2/20001 s3/20001 || return 1
	./fsck.exofs --repair --strict $S > $T/out 2>&1 &&
	[ ! -e $T/s2/20001 ] && [ ! -e $T/s3/20001 ]
}
expect "SIZED: RAID5, the root directory's components its size does not reach absent: fsck --strict clean, --repair makes none" 0 sized_unreached
sized_reached() {	# FILE COMPONENT
	comp_gone --raid 5 -- "$1"; [ $? = 4 ] &&
	grep -q "^ERROR: directory 1: object 0x20001 component $2 is missing on store $T/${1%/*} " $T/out
}
expect "SIZED: RAID5, the root directory's data component 0 (reached) removed is an error" 0 sized_reached s1/20001 0
expect "SIZED: RAID5, the root directory's parity component 3 (reached) removed is an error" 0 sized_reached s0/20001 3
sized_table() {	# an empty component of the inode table stays required
	./mkfs.exofs -q -f --raid 5 $S && [ ! -s $T/s3/10001 ] || return 1
	comp_gone --raid 5 -- s3/10001; [ $? = 4 ] &&
	grep -q "^ERROR: inode table: object 0x10001 component .* is missing on store $T/s3 " $T/out
}
expect "SIZED: an (empty) component of the inode table removed is still an error" 0 sized_table
# a lost component is read from the redundancy, never as zeros: --repair
# must not rewrite the parity from them (the only copy of the data)
lost_repair() {
	./mkfs.exofs -q -f --raid 5 $S && cp $T/s0/20001 $T/orig &&
	rm $T/s1/20001 || return 1
	./fsck.exofs --repair $S > $T/out 2>&1; [ $? = 4 ] &&
	grep -q "^ERROR: directory 1: object 0x20001 component 0 is missing on store $T/s1 " $T/out &&
	! grep -q -e rec_len -e REPAIRED $T/out && cmp -s $T/orig $T/s0/20001 &&
	./fsck.exofs --strict $T/s0 missing $T/s2 $T/s3 > /dev/null
}
expect "fsck --repair: RAID5, the root directory's data component lost: read from the parity, which stays as it was" 0 lost_repair
all_unreached() {
	comp_gone --raid 5 --all-components -- s2/20001; [ $? = 4 ] &&
	grep -q "^ERROR: directory 1: object 0x20001 component 1 is missing on store $T/s2 " $T/out
}
expect "--all-components: a root directory component its size does not reach removed is an error" 0 all_unreached
expect "--lazy-components: root directory components its size does not reach removed: clean" 0 \
	comp_gone --raid 5 --lazy-components -- s2/20001 s3/20001
# RAID0, 4K stripe unit: the root directory grown to two chunks (the second
# an empty one, written raw into component 1 on s2; i_size and i_made set
# by exofs_mutate) reaches components 0 and 1, not 2 and 3: whether
# component 1 may be absent goes with the extent made (i_made)
grow_root() {
	./mkfs.exofs -q -f --raid 0 --stripe-unit 4K $S &&
	[ ! -s $T/s2/20001 ] && [ "$(ro_compat $T/s0)" = 9 ] || return 1
	rm $T/s2/20001 &&
	./fsck.exofs --strict $S > $T/out 2>&1 || return 1
	printf '\0\0\0\0\0\0\0\0\0\020' > $T/s2/20001 &&
	truncate -s 4096 $T/s2/20001 &&
	$MUT set inode 1 i_size 8192 $S > /dev/null &&
	$MUT set inode 1 i_made 8192 $S > /dev/null &&
	./fsck.exofs --strict $S > $T/out 2>&1 &&
	rm $T/s3/20001 $T/s0/20001 &&
	./fsck.exofs --strict $S > $T/out 2>&1 || return 1
	rm $T/s2/20001
	./fsck.exofs --strict $S > $T/out 2>&1; [ $? = 4 ] &&
	grep -q "^ERROR: directory 1: object 0x20001 component 1 is missing on store $T/s2 " $T/out
}
expect "SIZED: RAID0 su 4K, root directory component 1 absent: clean at 4096 bytes, an error once its i_made (8192) reaches it; 2 and 3 absent clean" 0 grow_root

# After a crash, before the mount's repair: the intent record names region
# 0 of the root directory (0x20001, RAID5: data component 0 on s1, parity
# component 3 on s0). What the mount repairs there is a NOTE (fsck clean,
# exit 0); --repair does what the mount does (exit 1, clean after).
# intent_unmade: the parity component's create lost (i_made reaches it):
# made empty and recomputed, the data as it was.
intent_unmade() {
	./mkfs.exofs -q -f --raid 5 $S && cp $T/s1/20001 $T/orig &&
	rm $T/s0/20001 && $MUT set intent 0x20001 0 $S > /dev/null &&
	./fsck.exofs --strict $S > $T/out 2>&1 &&
	grep -q "^NOTE: directory 1: object 0x20001 component 3 is not made on store $T/s0 " $T/out &&
	grep -q "^NOTE: directory 1: object 0x20001: 1 stripe rows with bad parity" $T/out &&
	! grep -q -e ERROR -e WARNING $T/out || return 1
	./fsck.exofs --repair --strict $S > $T/out 2>&1; [ $? = 1 ] &&
	grep -q "^REPAIRED: directory 1: object 0x20001 component 3 on store $T/s0, not made" $T/out &&
	[ -f $T/s0/20001 ] && cmp -s $T/orig $T/s1/20001 &&
	./fsck.exofs --strict $S > $T/out 2>&1
}
expect "fsck after a crash: a component of an object the intent record names, not made: a note, --repair makes it" 0 intent_unmade
# the same component absent, the record naming another object: lost
intent_other() {
	./mkfs.exofs -q -f --raid 5 $S && rm $T/s0/20001 &&
	$MUT set intent 0x20002 0 $S > /dev/null || return 1
	./fsck.exofs --strict $S > $T/out 2>&1; [ $? = 4 ] &&
	grep -q "^ERROR: directory 1: object 0x20001 component 3 is missing on store $T/s0 " $T/out
}
expect "fsck after a crash: a component absent, the intent record naming another object: an error" 0 intent_other
# the record names the root directory, but another region (1) than the
# one its data is in: data component 0 removed held data there (the parity
# says so), so it is lost, not unmade, and --repair leaves the parity as it
# was (made empty, the parity recomputed from zeros, the data would be gone)
intent_lost() {
	./mkfs.exofs -q -f --raid 5 $S && cp $T/s0/20001 $T/orig &&
	rm $T/s1/20001 && $MUT set intent 0x20001 1 $S > /dev/null || return 1
	./fsck.exofs --repair $S > $T/out 2>&1; [ $? = 4 ] &&
	grep -q "^ERROR: directory 1: object 0x20001 component 0 is missing on store $T/s1 " $T/out &&
	! grep -q -e NOTE -e REPAIRED $T/out && [ ! -e $T/s1/20001 ] &&
	cmp -s $T/orig $T/s0/20001
}
expect "fsck after a crash: a component of an object the record names that held data outside its regions: lost, --repair keeps the parity" 0 intent_lost
# two components of the group absent: the redundancy cannot tell whether
# either held data; fsck takes them for unmade, as the mount does, with a
# warning, not for lost (the directory then reads as zeros: its own check
# fails, as it would after the mount)
intent_unknown() {
	./mkfs.exofs -q -f --raid 5 $S && rm $T/s0/20001 $T/s1/20001 &&
	$MUT set intent 0x20001 1 $S > /dev/null || return 1
	./fsck.exofs $S > $T/out 2>&1
	grep -q "^WARNING: directory 1: object 0x20001 component 0 on store $T/s1: the redundancy cannot tell" $T/out &&
	grep -q "^NOTE: directory 1: object 0x20001 component 3 is not made on store $T/s0 " $T/out &&
	! grep -q "is missing" $T/out
}
expect "fsck after a crash: two components of a group absent, the redundancy cannot tell: taken for unmade, with a warning" 0 intent_unknown
# intent_flip REGION: a byte of the data component (its block and the
# parity no longer agree with it, as a write torn by a crash leaves them)
intent_flip() {
	./mkfs.exofs -q -f --raid 5 $S && flip $T/s1/20001 4000 &&
	$MUT set intent 0x20001 "$1" $S > /dev/null &&
	./fsck.exofs --strict $S > $T/out 2>&1
}
intent_torn() {
	intent_flip 0 &&
	grep -q "^NOTE: directory 1: object 0x20001 component 0 on store $T/s1: 1 blocks differ from their checksums" $T/out &&
	grep -q "^NOTE: directory 1: object 0x20001: 1 stripe rows with bad parity" $T/out || return 1
	./fsck.exofs --repair --strict $S > $T/out 2>&1; [ $? = 1 ] &&
	grep -q "^REPAIRED: .* 1 checksums restamped from the data" $T/out &&
	grep -q "^REPAIRED: .* 1 stripe rows with writes in flight at a crash recomputed" $T/out &&
	./fsck.exofs --strict $S > $T/out 2>&1
}
expect "fsck after a crash: checksum and parity of a region the intent record names: notes, --repair restamps and recomputes" 0 intent_torn
intent_elsewhere() {
	intent_flip 1; [ $? = 4 ] &&
	grep -q "^ERROR: directory 1: object 0x20001 component 0 on store $T/s1: checksum mismatch" $T/out &&
	grep -q "^ERROR: directory 1: object 0x20001: 1 stripe rows with bad parity" $T/out
}
expect "fsck after a crash: the same outside the record's region: errors" 0 intent_elsewhere

# fsck --repair: one byte of row 0 of the inode table flipped on each store
# in turn (stores whose component holds data there). Where fsck names the
# flipped store the byte is in P, Q or a second mirror copy (a data byte
# shows up as bad parity on the P store): plain fsck must leave it, --repair
# must rewrite it (exit 1), fsck be clean after and the file as it was.
repair_case() {	# RAID HITS [CHECKSUM]
	local r=$1 want=$2 k i rc hits=0 why="" c=${3:+ --checksum $3}
	./mkfs.exofs -q -f --raid "$r"$c $S || why="mkfs failed"
	for i in 0 1 2 3; do cp $T/s$i/10001 $T/orig$i; done
	for k in 0 1 2 3; do
		[ -z "$why" ] || break
		[ "$(stat -c %s $T/s$k/10001)" -gt 100 ] || continue
		flip $T/s$k/10001 100
		OUT=$(./fsck.exofs $S 2>&1); rc=$?
		[ $rc = 4 ] || why="store $k: fsck exited $rc, not 4"
		if ! grep -q "store $T/s$k, at offset 0" <<< "$OUT"; then
			cp $T/orig$k $T/s$k/10001
			continue
		fi
		hits=$((hits + 1))
		cmp -s $T/s$k/10001 $T/orig$k && why="store $k: plain fsck wrote"
		OUT=$(./fsck.exofs --repair $S 2>&1); rc=$?
		[ $rc = 1 ] && grep -q '^REPAIRED: inode table' <<< "$OUT" ||
			why="store $k: fsck --repair exited $rc: $(tail -n 2 <<< "$OUT")"
		./fsck.exofs --strict $S > /dev/null 2>&1 || why="store $k: fsck after --repair not clean"
		cmp -s $T/s$k/10001 $T/orig$k || why="store $k: not restored by --repair"
		for i in 0 1 2 3; do cp $T/orig$i $T/s$i/10001; done
	done
	[ "$hits" = "$want" ] || why="${why:+$why; }$hits flipped parity/mirror bytes found, expected $want"
	if [ -z "$why" ]; then
		ok "fsck --repair: RAID$r$c parity/mirror byte flips rewritten ($hits of 4 stores)"
	else
		not_ok "fsck --repair: RAID$r$c parity/mirror byte flips rewritten" "$why"
	fi
}
repair_case 5 1
repair_case 5 1 crc32c
repair_case 6 2
repair_case 1 1
expect_msg "fsck --repair -n is refused" "exclude each other" ./fsck.exofs --repair -n $S

# fsck -C FD: "PASS DONE TOTAL STORE" lines, passes 1..4 in order, DONE
# rising to TOTAL in each (other lines of fsck's stdout are skipped)
check_progress() {
	awk '/^fsck\.exofs:/ { next }
	NF < 4 || $1 !~ /^[0-9]+$/ || $2 !~ /^[0-9]+$/ || $3 !~ /^[0-9]+$/ {
		print "bad line: " $0; bad = 1; exit }
	$1 != p {
		if (p && d != t) { print "pass " p " ended at " d "/" t; bad = 1 }
		if ($1 != p + 1) { print "pass " $1 " after pass " p; bad = 1 }
		p = $1; d = -1; t = $3 + 0 }
	$3 != t || $2 + 0 < d || $2 + 0 > t { print "not monotonic: " $0; bad = 1 }
	{ d = $2 + 0; n++ }
	END { if (!bad && (p != 4 || d != t)) { print "last pass " p " ended at " d "/" t; bad = 1 }
	      exit bad }' "$1"
}
restore
if ./fsck.exofs -C 1 $S > $T/prog 2>&1 && R=$(check_progress $T/prog); then
	ok "fsck -C 1: progress lines for passes 1..4, each rising to its total"
else
	not_ok "fsck -C 1: progress lines for passes 1..4, each rising to its total" \
		"$R" "$(tail -n 3 $T/prog)"
fi
expect_msg "fsck -C with a closed file descriptor is a clear error" \
	"fsck.exofs: -C 9: file descriptor 9 is not open" ./fsck.exofs -C 9 $S 9>&-
expect "fsck -C 0 without a tty: one 100% line per pass" 0 \
	sh -c "[ \$(./fsck.exofs -C 0 $S | grep -c '^pass [1-4]/4 .*: 100.0% ') = 4 ]"

# mkfs -f: the removal of old objects shows progress on a tty only
restore
expect "mkfs -f without a tty prints no progress" 0 \
	sh -c "! ./mkfs.exofs -f $S | grep -q removing"
restore
if ! command -v script > /dev/null; then
	N=$((N + 1)); echo "ok $N mkfs -f on a tty shows the removal reaching 100% # SKIP no script(1)"
else
	nobj=$(ls $S | grep -cE '^[0-9a-f]+(\.csum)?$')
	expect "mkfs -f on a tty shows the removal reaching 100% ($nobj objects)" 0 \
		sh -c "script -qec './mkfs.exofs -f $S' /dev/null | tr '\r' '\n' | grep -q 'removing old objects: 100.0% ($nobj/$nobj)'"
fi

echo "# test_mkfs: $((N - FAILED)) passed, $FAILED failed"
[ $N -eq $PLAN ] || { echo "# planned $PLAN, ran $N"; exit 1; }
[ $FAILED -eq 0 ]
