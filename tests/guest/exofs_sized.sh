#!/bin/sh
# exofs sized components (EXOFS_FEATURE_RO_COMPAT_SIZED, mkfs.exofs's
# default; docs/stores.md "Missing components"): the component files of a
# file's object exist as far as its size reaches them. RAID5 over 4 ext4
# stores, 16 KiB units (3 data units per stripe): an empty file has none,
# a 100-byte file 2 (its data unit and the stripe's parity), a 40 KiB one
# 4; a file written past a hole has the hole's too, a truncate up makes
# those its size reaches. Every file reads back right without a degraded
# read, before and after a remount (the extent known made then comes from
# the inode's size); fsck.exofs is clean; files written after the remount
# make what they reach. A reached component deleted behind exofs's back
# is still lost: the read is degraded (and right), fsck.exofs reports it.
# Also --all-components: every component made with the file.
#
# CHECK: exofs_sized --disks 4 --disk-size 128M --timeout 600
. /ore/tests/lib.sh
. /ore/tests/exofs_lib.sh

M=$EXOFS_MNT
ktap_plan 40

exofs_load || ktap_done
exofs_stores_ext4 4 || ktap_done

sysf() { cat "$(exofs_sysdir)/$1"; }
drop() { sync; echo 3 > /proc/sys/vm/drop_caches; }
# ncomps FILE: how many stores hold a component file of FILE's object
ncomps() {
	local oid n=0 s
	oid=$(printf '%x' $(( 0x20000 + $(stat -c %i "$1") )))
	for s in $EXOFS_STORES; do
		[ -f "$s/$oid" ] && n=$((n + 1))
	done
	echo $n
}
# comps_are FILE N: FILE's object has N component files
comps_are() {
	local n
	n=$(ncomps "$1")
	[ "$n" = "$2" ] || { echo "$1: $n component files, want $2"; return 1; }
}

check "mkfs.exofs --raid 5 --stripe-unit 16K (default: sized components)" \
	exofs_mkfs --raid 5 --stripe-unit 16K
check "fsck.exofs names the feature" sh -c \
	"fsck.exofs -v $EXOFS_STORES 2>&1 | grep -q 'features:.* components sized'"
check "mount" exofs_mount
fail_fast

head -c 100 /dev/urandom > /tmp/s100
head -c 40960 /dev/urandom > /tmp/m40k
head -c 4096 /dev/urandom > /tmp/p4k
check "an empty file, a 100-byte file, a 40 KiB file" sh -c "
	: > $M/empty && cp /tmp/s100 $M/small && cp /tmp/m40k $M/mid && sync"
check "an empty file has no component file" comps_are $M/empty 0
check "a 100-byte file has 2 (its data unit, the parity)" comps_are $M/small 2
check "a 40 KiB file has 4" comps_are $M/mid 4
# 4 KiB at 160 KiB: stripe 3 (48 KiB a stripe); the hole reaches every store
check "a 4 KiB write past a hole, at 160 KiB" sh -c "
	dd if=/tmp/p4k of=$M/sparse bs=4k seek=40 2>/dev/null && sync"
check "the write past a hole made the hole's components too (4)" \
	comps_are $M/sparse 4
check "truncate -s 20K of a new file: components made" sh -c "
	truncate -s 20K $M/t20 && sync && [ \$(stat -c %s $M/t20) = 20480 ]"
at_least() { [ "$(ncomps "$1")" -ge "$2" ]; }
check "the truncated file has component files (3 reached, 4 with the zeroed tail)" \
	at_least $M/t20 3

# fsck.exofs knows a mounted filesystem (/proc/self/mounts, stores=):
# --repair refuses it (exit 8), a check warns (--strict: exit 4)
fsck_mounted() {
	local out rc
	out=$(fsck.exofs --repair $EXOFS_STORES 2>&1)
	rc=$?
	[ $rc = 8 ] && echo "$out" | grep -q "is mounted on $M: --repair refused" || {
		echo "--repair: $rc $out"; return 1; }
	out=$(fsck.exofs --strict $EXOFS_STORES 2>&1)
	rc=$?
	[ $rc = 4 ] && echo "$out" | grep -q "^WARNING: the filesystem is mounted on $M" || {
		echo "--strict: $rc $out" | head -n 5; return 1; }
}
check "fsck.exofs on the mounted filesystem: --repair refused, a warning" fsck_mounted

verify_all() {
	drop
	cmp /tmp/s100 $M/small && cmp /tmp/m40k $M/mid &&
		[ ! -s $M/empty ] &&
		cmp -n 163840 /dev/zero $M/sparse &&
		dd if=$M/sparse bs=4k skip=40 2>/dev/null | cmp - /tmp/p4k &&
		cmp -n 20480 /dev/zero $M/t20 && [ "$(stat -c %s $M/t20)" = 20480 ]
}
deg0=$(sysf degraded_ios)
check "every file reads back right" verify_all
check "no degraded read" sh -c "[ \$(cat $(exofs_sysdir)/degraded_ios) = $deg0 ]"
check "umount" exofs_umount
check "fsck.exofs clean" exofs_fsck
check "mount again" exofs_mount
fail_fast
deg0=$(sysf degraded_ios)
check "every file reads back right after the remount" verify_all
check "no degraded read after the remount" sh -c \
	"[ \$(cat $(exofs_sysdir)/degraded_ios) = $deg0 ]"
grow() {
	cat /tmp/m40k >> $M/small && sync && comps_are $M/small 4 &&
		cat /tmp/s100 /tmp/m40k | cmp - $M/small
}
check "the 100-byte file grown to 40 KiB makes the other 2" grow

# a reached component deleted behind exofs's back is lost
oid=$(printf '%x' $(( 0x20000 + $(stat -c %i $M/mid) )))
check "umount" exofs_umount
check "delete one component file of the 40 KiB file" \
	rm /stores/s0/$oid /stores/s0/$oid.csum -f
check "fsck.exofs reports the lost component" sh -c \
	"! fsck.exofs --strict $EXOFS_STORES > /tmp/fsck.out 2>&1 && grep -q 'component .* is missing' /tmp/fsck.out"
check "mount" exofs_mount
deg0=$(sysf degraded_ios)
check "the file still reads back right, degraded" sh -c "
	echo 3 > /proc/sys/vm/drop_caches && cmp /tmp/m40k $M/mid &&
	[ \$(cat $(exofs_sysdir)/degraded_ios) -gt $deg0 ]"
check "umount" exofs_umount
# lost_in_record FILE OID STORE REF MSG NAME: after a component of FILE
# (object OID) was deleted from STORE, a crash leaves FILE's region 1 in
# the intent record (exofs_mutate) and the mount's repair runs: FILE must
# read back as REF (not zeros where the component was), and the kernel
# must say MSG (the component stays lost, it held data) with the
# component still absent. 4 results.
lost_in_record() {
	local file=$1 oid=$2 store=$3 ref=$4 msg=$5 name=$6 n
	check "$name: an intent record naming its region 1 on every store" \
		exofs_mutate set intent 0x$oid 1 $EXOFS_STORES
	n=$(dmesg | wc -l)
	check "$name: mount (the intent repair runs)" exofs_mount
	check "$name: after the repair it reads back right (not zeros)" sh -c "
		echo 3 > /proc/sys/vm/drop_caches && cmp $ref $file"
	check "$name: the component stayed lost (it held data)" sh -c "
		dmesg | tail -n +$((n + 1)) | grep -q 'object 0x$oid: component .* $msg' &&
		[ ! -e $store/$oid ]"
	exofs_umount
}
# ... and a crash then leaves the file in the record: region 1, its data
# all in region 0. The repair must not take the lost component for one
# whose create the crash lost (made empty it would read as zeros).
lost_in_record $M/mid $oid /stores/s0 /tmp/m40k \
	"is missing and held data outside the regions" "40 KiB file"
# the same with the region holding data too (a 5 MiB file, region 1 from
# 4 MiB on): the region is not repaired (that would write the lost
# component there, or parity from zeros), the whole file reads back right
head -c 5242880 /dev/urandom > /tmp/m5m
big_file() { exofs_mount && cp /tmp/m5m $M/big && sync; }
check "mount; a 5 MiB file" big_file
boid=$(printf '%x' $(( 0x20000 + $(stat -c %i $M/big) )))
exofs_umount
check "delete one component file of it" rm -f /stores/s1/$boid /stores/s1/$boid.csum
lost_in_record $M/big $boid /stores/s1 /tmp/m5m \
	"the object.s regions are not repaired" "5 MiB file"

# the format before: every component with the file
check "four fresh ext4 stores" exofs_stores_ext4 4
all_comps() {
	mkfs.exofs -f -q --raid 5 --stripe-unit 16K --all-components \
		$EXOFS_STORES && exofs_mount && cp /tmp/s100 $M/small && sync &&
		comps_are $M/small 4 && exofs_umount
}
check "mkfs.exofs --all-components: a 100-byte file has 4" all_comps
ktap_done
