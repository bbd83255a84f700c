#!/bin/sh
# oreblk data checksums (issue 12): bitrot is found, repaired and counted.
# For RAID1 over 2 (--checksums crc32c), RAID5 over 4 and RAID6 over 5
# members (the default checksums, xxh64): 4 MiB of random data through the array, the
# array stopped and assembled again (the checksums come from the members,
# not from memory); then bytes of member 0 are overwritten directly on the
# member device: the first 4 KiB block of each of its first 6 chunks (data
# or parity, as the rotation puts them) and, for RAID1, block 5.
#  - the whole array reads back right (every data block that was hit is
#    rebuilt from the mirror or the parity), checksum_errors and
#    checksum_repairs move by the same count, no member is failed;
#  - a check (md's read-only "check") rewrites the parity blocks that were
#    hit (the checksum says which side is wrong) and counts no mismatch;
#    every corrupted block reads on the member as it was before;
#  - a second check finds nothing more, the counters stay;
#  - one block corrupted on every member of its row (every copy, data and
#    parity): the array read fails with EIO, the kernel log names the
#    store and the offset, no member is failed, the other blocks read;
#    a write of that whole stripe through the array heals it;
#  - stopped, every checksum on the members matches its block
#    (tests/tools/oreblk_check --csum), and one block overwritten is one
#    bad block there.
# --args nocsum makes the arrays with --checksums none: the corrupted data
# then reads back wrong and the test fails (it can fail).
#
# CHECK: oreblk_bitrot --disks 6 --disk-size 64M --timeout 600
. /ore/tests/lib.sh
. /ore/tests/oreblk_lib.sh

ktap_plan 61

A=/dev/oreblk0
SYS=/sys/block/oreblk0/ore
DATA=/tmp/ob_rot.data
CSUM=
case ",$ORE_ARGS," in *,nocsum,*) CSUM="--checksums none" ;; esac

if [ "$ORE_DISKS" -lt 6 ]; then
	diag "needs 6 disks"
	ktap_done
fi
ob_load || ktap_done

total() { ob_sys 0 "$1" | cut -d' ' -f1; }
reads_back() {
	dd if=$A bs=1M count=4 iflag=direct 2>/dev/null | cmp - $DATA
}
good_again() {
	local b
	for b in $TARGETS; do
		ob_mblk $V0 $b | cmp - /tmp/ob_rot.good.$b || return 1
	done
}
# check_wait: oreblk check --wait, mismatch_cnt must be 0
check0() {
	local out
	out=$(oreblk check $A --wait) || { echo "$out"; return 1; }
	echo "$out" | grep -q 'mismatch_cnt 0$' || { echo "$out"; return 1; }
}
counters_agree() {
	local e r
	e=$(total checksum_errors) r=$(total checksum_repairs)
	echo "checksum_errors $(ob_sys 0 checksum_errors), checksum_repairs $(ob_sys 0 checksum_repairs)"
	[ "$e" -ge "$1" ] && [ "$e" = "$r" ]
}

# one NAME CHUNK_BLOCKS MEMBERS...: the cycle for one layout (create args
# in $CREATE)
one() {
	local name=$1 cb=$2 i
	shift 2
	MEMBERS="$*"
	check "$name: create (checksums ${CSUM:-default})" \
		oreblk create $A --force $CREATE $CSUM $MEMBERS
	fail_fast
	check "$name: sysfs says $CSUMT" test "$(ob_sys 0 checksums)" = $CSUMT
	check "$name: examine shows the checksum region" sh -c \
		"oreblk examine $V0 | grep -q 'checksums : $CSUMT (region at'"
	check "$name: 4 MiB of random data, stop, assemble" sh -c \
		"dd if=/dev/urandom of=$DATA bs=1M count=4 2>/dev/null &&
		 dd if=$DATA of=$A bs=1M oflag=direct 2>/dev/null &&
		 oreblk stop $A && oreblk assemble $A $MEMBERS"
	TARGETS=""
	for i in 0 1 2 3 4 5; do
		TARGETS="$TARGETS $((i * cb))"
	done
	[ "$name" = raid1 ] && TARGETS="$TARGETS 5"
	for i in $TARGETS; do
		ob_mblk $V0 $i > /tmp/ob_rot.good.$i
		ob_corrupt $V0 $i
	done
	diag "$name: member $V0 blocks overwritten: $TARGETS"
	check "$name: the array reads back right" reads_back
	check "$name: checksum_errors = checksum_repairs >= 1" counters_agree 1
	E1=$(total checksum_errors)
	check "$name: no member failed" test "$(ob_sys 0 degraded)" = 0
	check "$name: the log names the store and the offset" sh -c \
		"dmesg | grep -q 'on store /dev/vda: .* at offset .* failed their checksum: rebuilt from the redundancy and rewritten'"
	check "$name: a check counts 0 mismatches (the checksum tells the bad copy)" check0
	check "$name: every corrupted member block is as it was (parity ones by the check)" good_again
	check "$name: the check counted the parity blocks it rewrote" counters_agree "$E1"
	E2=$(total checksum_errors)
	check "$name: a second check: 0 mismatches, no new checksum error" sh -c \
		"oreblk check $A --wait | grep -q 'mismatch_cnt 0\$' && [ \$(cat $SYS/checksum_errors | cut -d' ' -f1) = $E2 ]"
	# block 3 of chunk row 20 on every member: every copy of that block
	# (array offset 1.25 MiB on RAID1, 3.75 MiB on RAID5/6)
	for i in $MEMBERS; do
		ob_corrupt $i $((20 * cb + 3))
	done
	check "$name: every copy bad: the read fails with EIO" sh -c \
		"! dd if=$A of=/dev/null bs=1M count=4 iflag=direct 2>/tmp/ob_rot.err &&
		 grep -q 'Input/output error' /tmp/ob_rot.err"
	check "$name: the log says no mirror or parity gives them back" sh -c \
		"dmesg | grep -q 'fail their checksum, and no mirror or parity gives them back'"
	check "$name: still no member failed" test "$(ob_sys 0 degraded)" = 0
	check "$name: the first MiB still reads right" sh -c \
		"head -c 1048576 $DATA > /tmp/ob_rot.1m &&
		 dd if=$A bs=1M count=1 iflag=direct 2>/dev/null | cmp - /tmp/ob_rot.1m"
	# a write of the whole stripe needs nothing of what was there
	check "$name: rewriting that stripe heals it" sh -c \
		"dd if=$DATA of=$A bs=$((cb * 4096 * DW)) skip=20 seek=20 count=1 oflag=direct 2>/dev/null &&
		 dd if=$A bs=1M count=4 iflag=direct 2>/dev/null | cmp - $DATA"
	check "$name: stop; oreblk_check agrees, every checksum on the members matches" sh -c \
		"oreblk stop $A && oreblk_check --csum $MEMBERS > /tmp/ob_rot.chk &&
		 grep -q 'checksums: [1-9][0-9]* blocks verified, 0 bad' /tmp/ob_rot.chk"
	ob_corrupt $V0 7
	check "$name: a block overwritten: oreblk_check --csum counts it" sh -c \
		"! oreblk_check --csum $MEMBERS > /tmp/ob_rot.chk &&
		 grep -q 'checksums: [0-9]* blocks verified, 1 bad' /tmp/ob_rot.chk"
}

V0=/dev/vda V1=/dev/vdb V2=/dev/vdc V3=/dev/vdd V4=/dev/vde V5=/dev/vdf

CREATE="--raid 1 -n 2" CSUMT=crc32c DW=1
[ -z "$CSUM" ] && CSUM="--checksums crc32c"
one raid1 16 $V0 $V1
CREATE="--raid 5 --chunk 64K -n 4" CSUMT=xxh64 DW=3
[ "$CSUM" = "--checksums crc32c" ] && CSUM=
one raid5 16 $V0 $V1 $V2 $V3
CREATE="--raid 6 --chunk 64K -n 5"
one raid6 16 $V0 $V1 $V2 $V3 $V4

expect_fail "--checksums crc32c with the resync policy is refused" "write-intent bitmap" \
	oreblk create $A --force --raid 5 -n 4 --consistency-policy resync --checksums crc32c $V0 $V1 $V2 $V3
expect_fail "--checksums xxh64 on raid0 is refused" "write-intent bitmap" \
	oreblk create $A --force --raid 0 -n 2 --checksums xxh64 $V0 $V1
check "modules unload" sh -c "rmmod oreblk && rmmod ore"
ktap_done
