#!/bin/sh
# oreblk: arrays over the virtio disks, data through /dev/oreblk0 checked
# against a reference image and by fio --verify, parity checked by
# oreblk_check reading the members directly, stop + assemble in shuffled
# order, degraded starts, RAID6 over 8 dm-linear halves (read-modify-write),
# ext4 filled and checked by sha256, and the errors
# of assemble (foreign member, member of another array, member given twice,
# too many missing), from the tool and (--no-check) from the kernel.
#
# CHECK: oreblk --disks 6 --disk-size 64M --timeout 1500
. /ore/tests/lib.sh
. /ore/tests/oreblk_lib.sh

ktap_plan 93

A=/dev/oreblk0
V0=/dev/vda V1=/dev/vdb V2=/dev/vdc V3=/dev/vdd V4=/dev/vde V5=/dev/vdf
REF=/tmp/ref.img
REGION_MIB=48			# dd writes go to the first 48 MiB
REGION_BLKS=$((REGION_MIB * 256))
FIO_OFF=64M FIO_SIZE=64M	# fio writes [64 MiB, 128 MiB)

if [ "$ORE_DISKS" -lt 6 ] || ! have_host fio; then
	diag "needs 6 disks and the host's fio"
	ktap_done
fi
ob_load || ktap_done
ob_pattern

# new_ref: a fresh all-zero reference of the dd region
new_ref() {
	rm -f $REF
	truncate -s ${REGION_MIB}M $REF
}

# ---------------------------------------------------------------- RAID5
check "raid5: create over 4 disks" oreblk create $A --raid 5 --chunk 64K -n 4 $V0 $V1 $V2 $V3
fail_fast
check "raid5: sysfs layout" sh -c "grep -q '^raid5 stripe_unit=65536 group_width=4 ' /sys/block/oreblk0/ore/layout"
check "raid5: io_min = chunk, io_opt = full stripe" sh -c \
	"[ \$(cat /sys/block/oreblk0/queue/minimum_io_size) = 65536 ] && [ \$(cat /sys/block/oreblk0/queue/optimal_io_size) = 196608 ]"
new_ref
check "raid5: 200 random writes (4 KiB .. 384 KiB)" ob_writes $A $REF 1 200 $REGION_BLKS
check "raid5: data reads back" ob_same $A $REF $REGION_MIB
check "raid5: fio random writes, iodepth 16, verified" ob_fio $A $FIO_OFF $FIO_SIZE
check "raid5: stripe cache was used" sh -c "[ \$(cat /sys/block/oreblk0/ore/stripe_cache_hits) -gt 0 ]"
diag "stripe cache: size $(ob_sys 0 stripe_cache_size) active $(ob_sys 0 stripe_cache_active) hits $(ob_sys 0 stripe_cache_hits) misses $(ob_sys 0 stripe_cache_misses); lock waits $(ob_sys 0 stripe_lock_waits)"
check "raid5: stop" oreblk stop $A
check "raid5: parity on the members (oreblk_check)" oreblk_check $V0 $V1 $V2 $V3
check "raid5: assemble in shuffled order" oreblk assemble $A $V2 $V0 $V3 $V1
check "raid5: data after assemble" ob_same $A $REF $REGION_MIB
check "raid5: fio data after assemble" ob_fio_verify $A $FIO_OFF $FIO_SIZE
check "raid5: stripe_cache_size is settable" sh -c \
	"echo 64 > /sys/block/oreblk0/ore/stripe_cache_size && [ \$(cat /sys/block/oreblk0/ore/stripe_cache_size) = 64 ]"
check "raid5: writes with a small cache" ob_writes $A $REF 2 60 $REGION_BLKS
check "raid5: cache stays within its size" sh -c "[ \$(cat /sys/block/oreblk0/ore/stripe_cache_active) -le 64 ]"
check "raid5: data with a small cache" ob_same $A $REF $REGION_MIB
# bvecs at 512 and 3584 bytes into a page, 8 KiB long (bounce pages)
ktap_module oreblk_test oreblk_test dev=$A offset=$((150 << 20))
check "raid5: stop before the error cases" oreblk stop $A

# ---------------------------------------------------------------- errors
# vde: never a member (zeros); vde+vdf: a raid1 of its own (another array)
expect_fail "assemble: foreign member refused" "not an oreblk member" \
	oreblk assemble $A $V0 $V1 $V4 $V3
expect_fail "assemble: foreign member refused by the kernel" "not an oreblk member" \
	oreblk assemble --no-check $A $V0 $V1 $V4 $V3
expect_fail "assemble: member given twice refused" "given twice" \
	oreblk assemble $A $V0 $V1 $V1 $V3
expect_fail "assemble: member given twice refused by the kernel" "given twice" \
	oreblk assemble --no-check $A $V0 $V1 $V1 $V3
expect_fail "assemble: two missing members of raid5 refused" "not enough members" \
	oreblk assemble $A $V0 $V1
expect_fail "assemble: two missing members refused by the kernel" "too many members missing" \
	oreblk assemble --no-check $A $V0 $V1
check "raid1: create another array over vde, vdf" oreblk create /dev/oreblk1 --raid 1 -n 2 $V4 $V5
check "raid1: stop it" oreblk stop /dev/oreblk1
# split: each half assembled alone marks the other faulty, at equal events
check "raid1: split: each half assembled alone once" sh -c \
	"oreblk assemble /dev/oreblk1 $V4 && oreblk stop /dev/oreblk1 &&
	 oreblk assemble /dev/oreblk1 $V5 && oreblk stop /dev/oreblk1 &&
	 [ \"\$(oreblk examine $V4 | grep events)\" = \"\$(oreblk examine $V5 | grep events)\" ]"
expect_fail "assemble: halves of a split raid1 refused" "ran split" \
	oreblk assemble /dev/oreblk1 $V4 $V5
expect_fail "assemble: halves of a split raid1 refused by the kernel" "ran split" \
	oreblk assemble --no-check /dev/oreblk1 $V5 $V4
check "raid1: split: not running after the refusals" sh -c "[ ! -e /sys/block/oreblk1 ]"
check "raid1: split: one half chosen assembles" sh -c \
	"oreblk assemble /dev/oreblk1 $V4 && oreblk stop /dev/oreblk1"
expect_fail "assemble: member of another array refused" "another array" \
	oreblk assemble $A $V0 $V1 $V4 $V3
expect_fail "assemble: member of another array refused by the kernel" "another array" \
	oreblk assemble --no-check $A $V0 $V1 $V4 $V3
expect_fail "create: a member of an array is not overwritten without --force" "already" \
	oreblk create /dev/oreblk2 --raid 0 -n 2 $V4 $V5
check "oreblk0 is not running after the refusals" sh -c "[ ! -e /sys/block/oreblk0 ]"

# ---------------------------------------------------------------- degraded
check "raid5: assemble degraded with 3 of 4" oreblk assemble $A $V3 $V0 $V1
check "raid5: sysfs says degraded, member 2 missing" sh -c \
	"[ \$(cat /sys/block/oreblk0/ore/degraded) = 1 ] && grep -q '^2 missing' /sys/block/oreblk0/ore/members"
check "raid5: degraded data reads back" ob_same $A $REF $REGION_MIB
check "raid5: degraded fio data" ob_fio_verify $A $FIO_OFF $FIO_SIZE
check "raid5: degraded writes" ob_writes $A $REF 3 80 $REGION_BLKS
check "raid5: degraded data after writes" ob_same $A $REF $REGION_MIB
check "raid5: stop degraded" oreblk stop $A
check "raid5: the missing member is out of date on disk" sh -c \
	"oreblk examine $V0 | grep -q 'member state : A A F A'"
check "raid5: assemble with all 4 leaves the stale one out" sh -c \
	"oreblk assemble $A $V0 $V1 $V2 $V3 2>&1 | grep -q 'stale\|faulty' && [ \$(cat /sys/block/oreblk0/ore/degraded) = 1 ]"
check "raid5: data with the stale member left out" ob_same $A $REF $REGION_MIB
check "raid5: busy array cannot stop" sh -c \
	"exec 3<$A; ! oreblk stop $A"
check "raid5: stop" oreblk stop $A

# ---------------------------------------------------------------- ext4
check "raid5: create again (--force) for ext4" oreblk create $A --force --raid 5 --chunk 64K -n 4 $V0 $V1 $V2 $V3
check "ext4: mkfs on oreblk0" mkfs_ext4 $A
check "ext4: mount" mount_ext4 $A /mnt/ob
fill_fs() {
	local i
	for i in 1 2 3; do
		mkdir -p /mnt/ob/tree$i && cp -a /ore/tests /ore/tools /mnt/ob/tree$i/ || return 1
	done
	i=0
	while [ $i -lt 40 ]; do
		dd if=/dev/urandom of=/mnt/ob/f$i bs=4k count=$(((i * 37) % 300 + 1)) 2>/dev/null || return 1
		i=$((i + 1))
	done
	dd if=/dev/urandom of=/mnt/ob/big bs=1M count=60 2>/dev/null || return 1
	(cd /mnt/ob && find . -type f ! -name sums | sort | xargs sha256sum > /tmp/ob_sums) || return 1
	sync
}
check "ext4: fill with files and checksums" fill_fs
diag "ext4: $(df -k /mnt/ob | tail -n 1)"
check "ext4: umount" umount /mnt/ob
check "raid5: parity after ext4 (oreblk_check)" oreblk_check $V0 $V1 $V2 $V3
check "ext4: stop, assemble shuffled, mount" sh -c \
	"oreblk stop $A && oreblk assemble $A $V3 $V1 $V0 $V2 && mount -t ext4 $A /mnt/ob"
check "ext4: every checksum matches" sh -c "cd /mnt/ob && sha256sum -c -s /tmp/ob_sums"
check "ext4: umount, fsck clean" sh -c "umount /mnt/ob && hostrun e2fsck -fn $A >/dev/null"
check "raid5: userspace rebuild of a missing member equals the array" sh -c \
	"oreblk stop $A && oreblk_check --dump /tmp/ob_dump.img $V0 $V1 $V3 >/dev/null &&
	 oreblk assemble $A $V0 $V1 $V2 $V3 >/dev/null && cmp /tmp/ob_dump.img $A && rm -f /tmp/ob_dump.img"
check "raid5: stop" oreblk stop $A

# ---------------------------------------------------------------- RAID6
check "raid6: create over 6 disks" oreblk create $A --force --raid 6 --chunk 64K -n 6 $V0 $V1 $V2 $V3 $V4 $V5
new_ref
check "raid6: 200 random writes" ob_writes $A $REF 4 200 $REGION_BLKS
check "raid6: data reads back" ob_same $A $REF $REGION_MIB
check "raid6: fio random writes, verified" ob_fio $A $FIO_OFF $FIO_SIZE
check "raid6: stop" oreblk stop $A
check "raid6: P and Q on the members (oreblk_check)" oreblk_check $V0 $V1 $V2 $V3 $V4 $V5
check "raid6: assemble with 4 of 6 (two missing)" oreblk assemble $A $V5 $V3 $V0 $V2
check "raid6: data rebuilt from P+Q" ob_same $A $REF $REGION_MIB
check "raid6: fio data rebuilt from P+Q" ob_fio_verify $A $FIO_OFF $FIO_SIZE
check "raid6: writes with two members missing" ob_writes $A $REF 5 60 $REGION_BLKS
check "raid6: data after degraded writes" ob_same $A $REF $REGION_MIB
check "raid6: stop" oreblk stop $A

# ------------------------------------------------ RAID6 over 8 members
# Two dm-linear halves of each of vda..vdd: 6 data columns, where RAID6
# read-modify-write reads fewer pages than reconstruct-write (a 4 KiB
# write: 3 against 5); over the 6 disks above it is a tie, which stays rcw.
H0=/dev/mapper/obh0 H1=/dev/mapper/obh1 H2=/dev/mapper/obh2 H3=/dev/mapper/obh3
H4=/dev/mapper/obh4 H5=/dev/mapper/obh5 H6=/dev/mapper/obh6 H7=/dev/mapper/obh7
half_devs() {
	local i=0 d s
	have_host dmsetup || { echo "no dmsetup"; return 1; }
	for d in $V0 $V1 $V2 $V3; do
		s=$(($(blockdev --getsz $d) / 2))
		dm create obh$i --table "0 $s linear $d 0" &&
			dm create obh$((i + 1)) --table "0 $s linear $d $s" || return 1
		i=$((i + 2))
	done
	[ -b $H7 ]
}
check "raid6 8: dm-linear halves of vda..vdd" half_devs
check "raid6 8: create over 8 members" oreblk create $A --force --raid 6 --chunk 64K -n 8 $H0 $H1 $H2 $H3 $H4 $H5 $H6 $H7
new_ref
check "raid6 8: 200 random writes" ob_writes $A $REF 6 200 $REGION_BLKS
check "raid6 8: data reads back" ob_same $A $REF $REGION_MIB
check "raid6 8: fio 4-8 KiB random writes, verified" ob_fio $A $FIO_OFF $FIO_SIZE --bsrange=4k-8k
check "raid6 8: stop" oreblk stop $A
check "raid6 8: P and Q on the members (oreblk_check)" oreblk_check $H0 $H1 $H2 $H3 $H4 $H5 $H6 $H7
check "raid6 8: assemble with 6 of 8 (two missing)" oreblk assemble $A $H7 $H0 $H5 $H2 $H3 $H1
check "raid6 8: data rebuilt from P+Q" ob_same $A $REF $REGION_MIB
check "raid6 8: fio data rebuilt from P+Q" ob_fio_verify $A $FIO_OFF $FIO_SIZE --bsrange=4k-8k
check "raid6 8: writes with two members missing" ob_writes $A $REF 7 60 $REGION_BLKS
check "raid6 8: data after degraded writes" ob_same $A $REF $REGION_MIB
halves_gone() {
	local i
	oreblk stop $A && oreblk wipe $H0 $H1 $H2 $H3 $H4 $H5 $H6 $H7 || return 1
	for i in 0 1 2 3 4 5 6 7; do
		dm remove obh$i || return 1
	done
}
check "raid6 8: stop, members wiped, halves removed" halves_gone

# ---------------------------------------------------------------- RAID0, RAID1
# raid0 and raid1 members are not zeroed by create (raid1 is: mirrors)
check "raid0: create over 4 disks, zero the region" sh -c \
	"oreblk create $A --force --raid 0 --chunk 128K -n 4 $V2 $V3 $V4 $V5 && rm -f $REF && truncate -s ${REGION_MIB}M $REF &&
	 dd if=/dev/zero of=$A bs=1M count=$REGION_MIB oflag=direct 2>/dev/null"
check "raid0: random writes read back after stop + assemble shuffled" sh -c \
	". /ore/tests/lib.sh; . /ore/tests/oreblk_lib.sh; ob_writes $A $REF 6 150 $REGION_BLKS &&
	 oreblk stop $A && oreblk assemble $A $V5 $V2 $V4 $V3 && ob_same $A $REF $REGION_MIB &&
	 oreblk stop $A && oreblk_check $V2 $V3 $V4 $V5"
check "raid1: create over 2 disks, writes, degraded read of each half" sh -c \
	". /ore/tests/lib.sh; . /ore/tests/oreblk_lib.sh;
	 oreblk create $A --force --raid 1 -n 2 $V0 $V1 && rm -f $REF && truncate -s ${REGION_MIB}M $REF &&
	 ob_writes $A $REF 7 150 $REGION_BLKS && ob_same $A $REF $REGION_MIB && oreblk stop $A &&
	 oreblk_check $V0 $V1 && oreblk assemble $A $V1 && ob_same $A $REF $REGION_MIB && oreblk stop $A"

# ---------------------------------------------------------------- discard
# The disks punch holes on discard (qemu/run.sh: discard=unmap), so a range
# discarded through a raid0 or raid1 array reads back as zeros; the rest of
# the data stays. Parity layouts do not offer discard, nor arrays with data
# checksums (a discarded block would fail its checksum).
D="$A $REF 3211264 5242880 $REGION_BLKS $REGION_MIB"	# 5 MiB at 3 MiB + 64 KiB
check "raid0: blkdiscard reads zeros there, the rest intact" sh -c \
	". /ore/tests/lib.sh; . /ore/tests/oreblk_lib.sh
	 oreblk create $A --force --raid 0 --chunk 128K -n 4 $V2 $V3 $V4 $V5 &&
	 dd if=$A of=$REF bs=1M count=$REGION_MIB iflag=direct 2>/dev/null &&
	 ob_discard $D 8 && oreblk stop $A"
check "raid1: blkdiscard reads zeros there, the rest intact" sh -c \
	". /ore/tests/lib.sh; . /ore/tests/oreblk_lib.sh
	 oreblk create $A --force --raid 1 -n 2 --checksums none $V0 $V1 &&
	 dd if=$A of=$REF bs=1M count=$REGION_MIB iflag=direct 2>/dev/null &&
	 ob_discard $D 9 && oreblk stop $A && oreblk_check $V0 $V1"
check "raid5: no discard offered, blkdiscard refused" sh -c \
	"oreblk create $A --force --raid 5 -n 4 $V2 $V3 $V4 $V5 &&
	 [ \$(cat /sys/block/oreblk0/queue/discard_max_bytes) = 0 ] &&
	 ! hostrun blkdiscard -o 0 -l 1048576 $A 2>/dev/null && oreblk stop $A"

check "no oreblk error in the kernel log outside the refusals" sh -c \
	"! dmesg | grep 'oreblk' | grep -v 'not an oreblk member\|given twice\|too many members missing\|another array\|stale\|marked faulty\|is in use\|oreblk_test:' | grep -qi 'error\|fail'"
check "oreblk.ko unloads" rmmod oreblk
check "ore.ko unloads, no I/O state leaked" sh -c "rmmod ore && ! dmesg | grep -q 'leaked'"
ktap_done
