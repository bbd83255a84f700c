#!/bin/sh
# oreblk: hot replace (`oreblk replace`, mdadm --replace) and `oreblk
# remove` (issue 11).
#
# RAID5 over 4 members, checksums on (the default): fio writes region A;
# one block of member 1 is overwritten on the device (bitrot); a
# rate-limited fio writes region B while `oreblk replace` copies member 1
# onto a fifth device. All along the array is not degraded (the old member
# serves). At the end the new device is member 1, the rotten block was
# rebuilt from the parity on the way, the old device's superblock is erased
# and the device is closed (an exclusive open of it works). Then a
# *different* member fails: A and B read back through the copied member,
# which proves the copy. The faulty member is removed (its device is
# closed) and the replaced device added in its place.
# A replace stopped half way (sync_action idle) leaves the old member in
# place and closes the new device; a RAID6 replace on a degraded array
# heals a rotten data block of the old member on the way and is followed
# by the loss of a second member. I/O errors: the new device failing
# gives the replace up (the old member stays), the old device failing
# fails the member (degraded, the replace given up, the new device closed,
# then added). Refusals: a member out of service, a device that
# is a member, a replace while a sync runs, a remove of a member in
# service.
#
# CHECK: oreblk_replace --disks 6 --disk-size 64M --timeout 900
. /ore/tests/lib.sh
. /ore/tests/oreblk_lib.sh

ktap_plan 64

A=/dev/oreblk0
SYS=/sys/block/oreblk0/ore

if [ "$ORE_DISKS" -lt 6 ] || ! have_host fio || ! have_host mkfs.ext4; then
	diag "needs 6 disks and the host's fio and mkfs.ext4"
	ktap_done
fi
ob_load || ktap_done

verify_ab() { ob_fio_verify $A 0 20M && ob_fio_b_verify $A; }
wait_idle() { ob_wait_idle 0 600; }
# excl DEV: an exclusive open of DEV works (nobody holds it): mkfs.ext4
# refuses a device in use
excl() { hostrun mkfs.ext4 -F -q "$1" >/dev/null 2>&1; }
not_excl() { ! excl "$1"; }
# replacing M OLD NEW: the copy runs and the array is whole meanwhile
replacing() {
	[ "$(ob_sys 0 sync_action)" = recover ] &&
		grep -q "^$1 replacing [0-9]* $2 $3\$" $SYS/members &&
		grep -q "^$1 [0-9][0-9]*\$" $SYS/recovery_start &&
		[ "$(ob_sys 0 degraded)" = 0 ]
}
# until the copy has done SECTORS sectors (at most 60 s)
copied() {
	local n=0 done
	while :; do
		done=$(ob_sys 0 sync_completed | cut -d' ' -f1)
		[ "$done" != none ] && [ "$done" -ge "$1" ] && return 0
		n=$((n + 1))
		[ $n -lt 300 ] || return 1
		sleep 0.2
	done
}
stopped_back() { wait_idle && grep -q '^2 active 0 /dev/vdc$' $SYS/members; }

# --- RAID5: replace under writes, with a rotten block on the old member
check "raid5: create over 4 members (checksums on)" \
	oreblk create $A --force --raid 5 --chunk 64K -n 4 /dev/vda /dev/vdb /dev/vdc /dev/vdd
fail_fast
check "raid5: fio writes region A" ob_fio $A 0 20M
check "raid5: one block of member 1 rots on the device" ob_corrupt /dev/vdb 3
check "raid5: sync_speed_max 8192 KiB/s" sh -c "echo 8192 > $SYS/sync_speed_max"
ob_fio_b_bg $A
sleep 1
check "raid5: replace member 1 by /dev/vde while fio writes region B" \
	oreblk replace $A 1 --with /dev/vde
check "raid5: the copy runs, member 1 replacing, array not degraded" \
	replacing 1 /dev/vdb /dev/vde
expect_fail "raid5: a second replace is refused while the copy runs" "running already" \
	oreblk replace $A 2 --with /dev/vdf
expect_fail "raid5: a check is refused while the copy runs" "busy" \
	sh -c "echo check > $SYS/sync_action"
ob_fio_b_wait "raid5: every write of region B during the copy acknowledged and verified"
check "raid5: the copy finishes" wait_idle
check "raid5: /dev/vde is member 1, active, array not degraded" sh -c \
	"grep -q '^1 active 0 /dev/vde\$' $SYS/members && [ \$(cat $SYS/degraded) = 0 ]"
check "raid5: the kernel log says member 1 was replaced" sh -c \
	"dmesg | grep -q 'oreblk0: member 1 replaced by /dev/vde'"
check "raid5: the rotten block was rebuilt on the way (checksum_repairs moved)" \
	sh -c "[ \$(cut -d' ' -f1 $SYS/checksum_repairs) -ge 1 ]"
check "raid5: the old device's superblock is erased" sh -c "! oreblk examine /dev/vdb"
check "raid5: the old device is closed (an exclusive open works)" excl /dev/vdb
check "raid5: regions A and B read back" verify_ab
check "raid5: fail member 0" oreblk fail $A 0
check "raid5: A and B read back through the copied member" verify_ab
check "raid5: the faulty member's device is still held" not_excl /dev/vda
expect_fail "raid5: remove of a member in service is refused" "fail it first" \
	oreblk remove $A 2
check "raid5: remove member 0" oreblk remove $A 0
check "raid5: member 0 is missing" grep -q '^0 missing 0 -$' $SYS/members
check "raid5: its device is closed" excl /dev/vda
expect_fail "raid5: a second remove is refused" "missing already" oreblk remove $A 0
expect_fail "raid5: replace of a missing member is refused" "not in service" \
	oreblk replace $A 0 --with /dev/vdf
check "raid5: add the replaced device in member 0's place" oreblk add $A /dev/vdb --wait
check "raid5: A and B read back" verify_ab

# --- a replace stopped half way: the old member stays
check "raid5: sync_speed_max 2048 KiB/s" sh -c "echo 2048 > $SYS/sync_speed_max"
expect_fail "raid5: replace by a member is refused" "member of oreblk0 already" \
	oreblk replace $A 2 --with /dev/vdb
check "raid5: replace member 2 by /dev/vdf" oreblk replace $A 2 --with /dev/vdf
check "raid5: the copy passes 4 MiB" copied 8192
check "raid5: stop it (sync_action idle)" sh -c "echo idle > $SYS/sync_action"
check "raid5: the copy ends, member 2 is /dev/vdc again" stopped_back
check "raid5: the log says it stopped and /dev/vdc stays" sh -c \
	"dmesg | grep -q 'replace of member 2 (/dev/vdc) by /dev/vdf stopped at data offset [0-9]*: /dev/vdc stays the member'"
check "raid5: the new device is closed" excl /dev/vdf
check "raid5: A and B read back" verify_ab
check "raid5: a check finds no mismatch" sh -c \
	"echo 0 > $SYS/sync_speed_max && oreblk check $A --wait | grep -q 'mismatch_cnt 0$'"
check "raid5: stop" oreblk stop $A

# --- I/O errors during a replace (dm-linear devices switched to dm-error)
SECTORS=$(blockdev --getsz /dev/vdd)
to_error() { dm suspend --nolockfs "$1" && dm load "$1" --table "0 $SECTORS error" && dm resume "$1"; }
mk_dm() {
	oreblk wipe /dev/vdd /dev/vdf >/dev/null 2>&1
	dm create ob3 --table "0 $SECTORS linear /dev/vdd 0" &&
		dm create obn --table "0 $SECTORS linear /dev/vdf 0"
}
gave_up_new() {
	wait_idle && grep -q '^1 active 0 /dev/vdb$' $SYS/members &&
		[ "$(ob_sys 0 degraded)" = 0 ] &&
		dmesg | grep -q 'replace of member 1 (/dev/vdb) by /dev/mapper/obn failed at data offset [0-9]*: -[0-9]*; the old device stays the member'
}
gave_up_old() {
	wait_idle && grep -q '^3 faulty' $SYS/members && [ "$(ob_sys 0 degraded)" = 1 ] &&
		dmesg | grep -q 'replace of member 3 (/dev/mapper/ob3) by /dev/vde failed at data offset [0-9]*: -[0-9]*; the member is faulty'
}
check "errors: dm-linear ob3 over vdd and obn over vdf" mk_dm
check "errors: raid5 over vda vdb vdc ob3" \
	oreblk create $A --force --raid 5 --chunk 64K -n 4 /dev/vda /dev/vdb /dev/vdc /dev/mapper/ob3
fail_fast
check "errors: fio writes region A" ob_fio $A 0 20M
echo 4096 > $SYS/sync_speed_max
check "errors: replace member 1 by obn (4 MiB/s)" oreblk replace $A 1 --with /dev/mapper/obn
check "errors: the copy passes 4 MiB" copied 8192
to_error obn
check "errors: the new device fails: the replace is given up, vdb stays member 1" gave_up_new
check "errors: region A reads back" ob_fio_verify $A 0 20M
check "errors: replace member 3 (ob3) by vde (4 MiB/s)" oreblk replace $A 3 --with /dev/vde
check "errors: the copy passes 4 MiB" copied 8192
to_error ob3
check "errors: the old device fails: member 3 faulty, the replace given up" gave_up_old
check "errors: the new device is closed" excl /dev/vde
check "errors: region A reads back (degraded)" ob_fio_verify $A 0 20M
check "errors: add vde in member 3's place" oreblk add $A /dev/vde --wait
check "errors: region A reads back" ob_fio_verify $A 0 20M
rm_dm() { oreblk stop $A && dm remove ob3 && dm remove obn; }
check "errors: stop, remove the dm devices" rm_dm

# --- RAID6, degraded: a rotten data block on the member being replaced is
# rebuilt from the rest on the way (a read through the engine: a scrub
# cannot run degraded), then two other members are lost
check "raid6: create over 5 members" \
	oreblk create $A --force --raid 6 --chunk 64K -n 5 /dev/vda /dev/vdb /dev/vdc /dev/vdd /dev/vde
fail_fast
check "raid6: fio writes region A" ob_fio $A 0 20M
check "raid6: fail member 4 (degraded)" oreblk fail $A 4
# block 0 of member 0 is data (row 0: P and Q on members 3 and 4)
check "raid6: block 0 of member 0 rots on the device" ob_corrupt /dev/vda 0
check "raid6: replace member 0 by /dev/vdf, waiting" oreblk replace $A 0 --with /dev/vdf --wait
check "raid6: the rotten block was rebuilt on the way" \
	sh -c "[ \$(cut -d' ' -f1 $SYS/checksum_repairs) -ge 1 ]"
check "raid6: fail member 1 too (two out)" oreblk fail $A 1
check "raid6: region A reads back through the copied member" ob_fio_verify $A 0 20M
check "raid6: stop" oreblk stop $A
check "modules unload, no store or I/O state leaked" sh -c \
	"rmmod oreblk && rmmod ore && ! dmesg | grep -q 'leaked'"

ktap_done
