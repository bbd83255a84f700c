#!/bin/sh
# oreblk: the dirty state and the resync after an unclean shutdown (issue
# 11), three boots on the same disks, RAID5 over vda..vdd, made with the
# resync consistency policy (oreblk_writehole tests the default, intent).
# Boot 1: region A written and verified; a clean stop leaves the members
# clean, an assembly of a clean array starts no resync, reads leave it
# clean, the first write makes every member dirty; then fio writes region
# B and the guest is reset in the middle (sysrq b: no stop, no sync).
# Boot 2: the members say dirty; assembling three of them is refused
# ("cannot start dirty degraded array") and writes nothing; all four
# assemble, a resync runs (sysfs resync, then idle), region A reads back, a
# check counts 0 mismatches, oreblk_check agrees, a clean stop makes the
# members clean. Then the array is written once more and the guest reset.
# Boot 3: three members with --force start degraded (the kernel log says
# "starting dirty degraded array"), no resync, region A reads back, a
# clean stop makes them clean, the modules unload.
# Data checksums on a forced start (issue 12): boot 2 also makes a RAID1
# over vde, vdf with the defaults (write-intent bitmap, checksums), writes
# its region A and 16M..48M, waits until its bits clear (the checksums on
# the members), and rewrites 16M..48M during the second reset; boot 3 starts it
# from vde alone with --force: the checksums of the regions the bitmap
# names are taken from the data (the log says so), and every block reads
# (no EIO from entries the crash left behind, no checksum error), region A
# included.
#
# CHECK: oreblk_dirty --disks 6 --disk-size 64M --stages 3 --timeout 600
. /ore/tests/lib.sh
. /ore/tests/oreblk_lib.sh

A=/dev/oreblk0
SYS=/sys/block/oreblk0/ore
V0=/dev/vda V1=/dev/vdb V2=/dev/vdc V3=/dev/vdd
ALL="$V0 $V1 $V2 $V3"

# state_is WORD MEMBERS: every member's superblock says "array state : WORD"
state_is() {
	local w=$1 m
	shift
	for m in "$@"; do
		oreblk examine $m | grep -q "array state : $w" ||
			{ oreblk examine $m | grep -E 'array state|events'; return 1; }
	done
}
events_of() { oreblk examine $1 | sed -n 's/^ *events : //p'; }
wait_idle() { ob_wait_idle 0 300; }
# crash: report the results so far as the harness reads them, then reset
# while CMD runs in the background
crash_during() {
	diag "$ORE_N results, $ORE_NFAIL failed; reset during: $*"
	guest_end_report
	"$@" > /dev/null 2>&1 &
	sleep 3
	echo b > /proc/sysrq-trigger
	sleep 10
	exit 0
}
fio_b() {
	hostrun fio --name=b --filename=${1:-$A} --ioengine=libaio --direct=1 \
		--iodepth=16 --rw=randwrite --bsrange=4k-192k --offset=16M \
		--size=32M --time_based --runtime=60 --randseed=9
}
B=/dev/oreblk1

case "$ORE_STAGE" in
1)
	ktap_plan 10
	if [ "$ORE_DISKS" -lt 6 ] || ! have_host fio; then
		diag "needs 6 disks and the host's fio"
		ktap_done
	fi
	ob_load || ktap_done
	check "create raid5 over vda..vdd" oreblk create $A --force --raid 5 --chunk 64K -n 4 --consistency-policy resync $ALL
	fail_fast
	check "region A written and verified" ob_fio $A 0 16M
	stop_clean() { oreblk stop $A && state_is clean "$@"; }
	check "clean stop: every member says clean" stop_clean $ALL
	check "assemble the clean array" oreblk assemble $A $ALL
	no_resync() { [ "$(ob_sys 0 sync_action)" = idle ] && ! dmesg | grep -q 'not stopped cleanly'; }
	check "no resync for a clean array" no_resync
	reads_clean() { ob_fio_verify $A 0 16M && state_is clean $ALL; }
	check "reads leave it clean" reads_clean
	write_dirty() {
		dd if=/dev/urandom of=$A bs=4096 seek=8192 count=1 oflag=direct 2>/dev/null &&
			state_is dirty $ALL
	}
	check "the first write makes every member dirty" write_dirty
	same_events() { [ "$(events_of $V0)" = "$(events_of $V3)" ]; }
	check "same events on every member" same_events
	check "sync_speed_min defaults to 1000 KiB/s" sh -c "[ \$(cat $SYS/sync_speed_min) = 1000 ]"
	crash_during fio_b
	;;
2)
	ktap_plan 18
	ob_load || ktap_done
	check "after the reset every member says dirty" state_is dirty $ALL
	E0=$(events_of $V0)
	expect_fail "dirty and one member missing: refused" "cannot start dirty degraded array" \
		oreblk assemble $A $V0 $V1 $V2
	wrote_nothing() { [ "$(events_of $V0)" = "$E0" ] && state_is dirty $ALL; }
	check "the refusal wrote nothing" wrote_nothing
	check "all four assemble" oreblk assemble $A $ALL
	# read at once: the resync of 192 MiB takes seconds
	check "a resync runs (sync_action resync)" sh -c "[ \$(cat $SYS/sync_action) = resync ]"
	check "the kernel log says why" sh -c "dmesg | grep -q 'oreblk0: not stopped cleanly: resync from array offset 0'"
	check "the resync finishes (sync_action idle)" wait_idle
	diag "$(dmesg | grep 'oreblk0: resync' | tail -n 2)"
	check "the kernel log says it is done" sh -c "dmesg | grep -q 'oreblk0: resync done in'"
	check "region A reads back" ob_fio_verify $A 0 16M
	check "a check afterwards counts 0 mismatches" sh -c \
		"oreblk check $A --wait && [ \$(cat $SYS/mismatch_cnt) = 0 ]"
	stop_check() { oreblk stop $A && state_is clean $ALL && oreblk_check $ALL; }
	check "clean stop: every member clean, oreblk_check agrees" stop_check
	check "assembled clean: no second resync" sh -c \
		"oreblk assemble $A $ALL >/dev/null && [ \$(cat $SYS/sync_action) = idle ] &&
		 [ \$(dmesg | grep -c 'not stopped cleanly: resync') = 1 ]"
	write_dirty() {
		dd if=/dev/urandom of=$A bs=4096 seek=8192 count=1 oflag=direct 2>/dev/null &&
			state_is dirty $ALL
	}
	check "written again: dirty" write_dirty
	check "raid1 over vde, vdf with the defaults (checksums)" sh -c \
		"oreblk create $B --force --raid 1 -n 2 /dev/vde /dev/vdf &&
		 [ \$(cat /sys/block/oreblk1/ore/checksums) = xxh64 ]"
	check "raid1: region A written and verified" ob_fio $B 0 16M
	# what the crash writer rewrites had checksums on disk before (a
	# region never written has entries of 0, which are not verified)
	r1_fill() {
		dd if=/dev/urandom of=$B bs=1M seek=16 count=32 oflag=direct 2>/dev/null &&
			ob_wait_bits_clear 30 1
	}
	check "raid1: 16M..48M written, the bits clear (checksums on disk)" r1_fill
	fio_b $B > /dev/null 2>&1 &
	r1_busy() {
		local n=0
		while [ "$(cut -d' ' -f1 /sys/block/oreblk1/ore/intent_bitmap)" = 0 ]; do
			n=$((n + 1))
			[ $n -le 60 ] || return 1
			sleep 1
		done
		sleep 2
	}
	check "raid1: a writer rewrites 16M..48M (bits set)" r1_busy
	crash_during fio_b
	;;
3)
	ktap_plan 13
	ob_load || ktap_done
	check "after the second reset every member says dirty" state_is dirty $ALL
	expect_fail "three members without --force: refused" "cannot start dirty degraded array" \
		oreblk assemble $A $V0 $V1 $V2
	check "three members with --force: started degraded" sh -c \
		"oreblk assemble $A --force $V0 $V1 $V2 && [ \$(cat $SYS/degraded) = 1 ]"
	check "the kernel log warns" sh -c \
		"dmesg | grep -q 'oreblk0: starting dirty degraded array - data corruption possible'"
	check "no resync (nothing to compare against)" sh -c "[ \$(cat $SYS/sync_action) = idle ]"
	check "region A reads back degraded" ob_fio_verify $A 0 16M
	stop_clean() { oreblk stop $A && state_is clean "$@"; }
	check "clean stop: the three members say clean" stop_clean $V0 $V1 $V2
	check "raid1 with checksums, dirty, vde alone with --force: started degraded" sh -c \
		"oreblk assemble $B --force /dev/vde && [ \$(cat /sys/block/oreblk1/ore/degraded) = 1 ]"
	check "raid1: the log says the checksums of the regions written at the crash were taken from the data" sh -c \
		"dmesg | grep -q 'oreblk1: dirty degraded start: the checksums of [0-9]* regions written at the crash'"
	check "raid1: every block reads, no checksum error" sh -c \
		"dd if=$B of=/dev/null bs=1M iflag=direct 2>/dev/null &&
		 cat /sys/block/oreblk1/ore/checksum_errors | grep -q '^0 '"
	r1_verify() { ob_fio_verify $B 0 16M && oreblk stop $B; }
	check "raid1: region A reads back, stop" r1_verify
	check "modules unload" sh -c "rmmod oreblk && rmmod ore"
	ktap_done
	;;
esac
ktap_done
