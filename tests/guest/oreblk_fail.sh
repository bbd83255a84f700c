#!/bin/sh
# oreblk: members failing mid-write. The members are device-mapper devices
# over the virtio disks; while fio writes (iodepth 16, crc32c verify) a
# member's table is swapped for dm-flakey with no up time (every I/O
# fails) or for dm-error. oreblk must mark it faulty (sysfs, superblocks of
# the others: events raised), go on degraded, and every write fio had
# acknowledged must read back: RAID5 with one member failed, RAID6 with
# two. A failure beyond the redundancy is refused; a failed member that
# comes back is left out of the next assembly.
#
# CHECK: oreblk_fail --disks 6 --disk-size 64M --timeout 1200
. /ore/tests/lib.sh
. /ore/tests/oreblk_lib.sh

ktap_plan 29

A=/dev/oreblk0
SYS=/sys/block/oreblk0/ore

if [ "$ORE_DISKS" -lt 6 ] || ! have_host fio || ! have_host dmsetup; then
	diag "needs 6 disks and the host's fio and dmsetup"
	ktap_done
fi
ob_load || ktap_done

SECTORS=$(blockdev --getsz /dev/vda)
# dm_table I TARGET...: load a new table for obmI and switch to it
dm_table() {
	local i=$1
	shift
	dm suspend obm$i && dm load obm$i --table "0 $SECTORS $*" && dm resume obm$i
}
mk_members() {
	local i=0 d
	for d in a b c d e f; do
		dm create obm$i --table "0 $SECTORS linear /dev/vd$d 0" || return 1
		i=$((i + 1))
	done
	[ -b /dev/mapper/obm5 ]
}
check "six dm-linear members over vda..vdf" mk_members
fail_fast
M0=/dev/mapper/obm0 M1=/dev/mapper/obm1 M2=/dev/mapper/obm2
M3=/dev/mapper/obm3 M4=/dev/mapper/obm4 M5=/dev/mapper/obm5

# fio in the background: random writes of 4k..192k over 80 MiB, verified
# after the writes (only acknowledged writes are verified: fio counts a
# failed write as an error, so verification covers what was acked). The
# writes are rate limited to 4 MiB/s (about 20 s) so that the member
# failures below land mid-write however fast the guest runs; fio_running
# makes sure they did.
fio_bg() {
	hostrun fio --name=fail --filename=$A --ioengine=libaio --direct=1 \
		--iodepth=16 --rw=randwrite --bsrange=4k-192k --offset=16M \
		--size=80M --rate=4m --verify=crc32c --verify_fatal=1 --randseed=99 \
		> /tmp/ob_fio_bg.out 2>&1 &
	FIO_PID=$!
}
# fio_running DESC: the background writer is still writing
fio_running() {
	if kill -0 $FIO_PID 2>/dev/null; then
		ok "$1"
	else
		not_ok "$1" "fio finished its writes before the member failed"
	fi
}
fio_verify() {
	hostrun fio --name=fail --filename=$A --ioengine=libaio --direct=1 \
		--iodepth=16 --rw=randwrite --bsrange=4k-192k --offset=16M \
		--size=80M --verify=crc32c --verify_fatal=1 --randseed=99 \
		--verify_only > /tmp/ob_fio_v.out 2>&1 || { tail -n 20 /tmp/ob_fio_v.out; return 1; }
}
# fio_wait DESC: wait for fio_bg and report it (ob_fio_wait)
fio_wait() {
	ob_fio_wait "$1" "$FIO_PID" /tmp/ob_fio_bg.out
}

# ---------------------------------------------------------------- RAID5
check "raid5: create over 4 dm members" oreblk create $A --raid 5 --chunk 64K -n 4 $M0 $M1 $M2 $M3
fail_fast
events0=$(cat $SYS/events)
fio_bg
sleep 6
check "raid5: member 1 becomes dm-flakey (all I/O fails) mid-write" dm_table 1 flakey /dev/vdb 0 0 3600
fio_running "raid5: fio still writing after the failure"
fio_wait "raid5: every acknowledged write reads back (fio verify)"
check "raid5: member 1 is faulty in sysfs, array degraded" sh -c \
	"grep -q '^1 faulty' $SYS/members && [ \$(cat $SYS/degraded) = 1 ]"
check "raid5: events raised on the members in service" sh -c \
	"[ \$(cat $SYS/events) -gt $events0 ] && oreblk examine $M0 | grep -q 'member state : A F A A'"
check "raid5: the kernel log names the failed member" sh -c \
	"dmesg | grep -q 'oreblk0: member 1 (/dev/mapper/obm1) failed'"
check "raid5: writes and reads go on degraded" sh -c \
	". /ore/tests/lib.sh; . /ore/tests/oreblk_lib.sh; rm -f /tmp/ref.img; truncate -s 16M /tmp/ref.img &&
	 dd if=/dev/zero of=$A bs=1M count=16 oflag=direct 2>/dev/null &&
	 ob_writes $A /tmp/ref.img 11 80 4096 && ob_same $A /tmp/ref.img 16"
expect_fail "raid5: failing a second member is refused" "too few" oreblk fail $A 2
check "raid5: stop" oreblk stop $A
check "raid5: member 1 repaired (dm-linear again)" dm_table 1 linear /dev/vdb 0
check "raid5: assemble with all 4 leaves the failed member out" sh -c \
	"oreblk assemble $A $M3 $M1 $M2 $M0 && grep -q '^1 missing' $SYS/members"
check "raid5: fio data still verifies" fio_verify
check "raid5: dd data still reads back" ob_same $A /tmp/ref.img 16
check "raid5: stop" oreblk stop $A

# ---------------------------------------------------------------- RAID6
check "raid6: create over 6 dm members" oreblk create $A --force --raid 6 --chunk 64K -n 6 $M0 $M1 $M2 $M3 $M4 $M5
fio_bg
sleep 5
check "raid6: member 2 becomes dm-flakey mid-write" dm_table 2 flakey /dev/vdc 0 0 3600
sleep 6
check "raid6: member 4 becomes dm-error mid-write" dm_table 4 error
fio_running "raid6: fio still writing after both failures"
fio_wait "raid6: every acknowledged write reads back (fio verify)"
check "raid6: members 2 and 4 faulty, degraded = 2" sh -c \
	"grep -q '^2 faulty' $SYS/members && grep -q '^4 faulty' $SYS/members && [ \$(cat $SYS/degraded) = 2 ]"
expect_fail "raid6: failing a third member is refused" "too few" oreblk fail $A 0
check "raid6: writes and reads go on with two members lost" sh -c \
	". /ore/tests/lib.sh; . /ore/tests/oreblk_lib.sh; rm -f /tmp/ref.img; truncate -s 16M /tmp/ref.img &&
	 dd if=/dev/zero of=$A bs=1M count=16 oflag=direct 2>/dev/null &&
	 ob_writes $A /tmp/ref.img 12 80 4096 && ob_same $A /tmp/ref.img 16"
check "raid6: stop" oreblk stop $A
check "raid6: members repaired, assemble leaves both failed ones out" sh -c \
	"dm_table() { hostrun env DM_DISABLE_UDEV=1 dmsetup --noudevsync suspend obm\$1 &&
	   hostrun env DM_DISABLE_UDEV=1 dmsetup --noudevsync load obm\$1 --table \"0 $SECTORS linear \$2 0\" &&
	   hostrun env DM_DISABLE_UDEV=1 dmsetup --noudevsync resume obm\$1; }
	 . /ore/tests/lib.sh; dm_table 2 /dev/vdc && dm_table 4 /dev/vde &&
	 oreblk assemble $A $M5 $M4 $M3 $M2 $M1 $M0 && [ \$(cat $SYS/degraded) = 2 ]"
check "raid6: fio data still verifies" fio_verify
check "raid6: stop; dm members removed" sh -c \
	"oreblk stop $A && for i in 0 1 2 3 4 5; do hostrun env DM_DISABLE_UDEV=1 dmsetup --noudevsync remove obm\$i || exit 1; done"
ktap_done
