#!/bin/sh
# oreblk: replacing a failed member and rebuilding it online (issue 11).
# For RAID1, RAID5 and RAID6: fio writes and verifies region A; a member is
# failed; a rate-limited fio writes region B while `oreblk add` puts a new
# device in the failed member's place and the kernel rebuilds it; then
# every acknowledged write of A and B reads back, the member is active and
# the superblocks say so; then a *different* member fails (two for RAID6):
# the data must still read back, now served by the rebuilt member (which
# proves it holds the right data). Last, the array assembles from its
# members after a stop, the rebuilt one included. A rebuild stopped half way
# leaves the member out of the next assembly, and adding it again works.
#
# CHECK: oreblk_rebuild --disks 6 --disk-size 64M --timeout 900
. /ore/tests/lib.sh
. /ore/tests/oreblk_lib.sh

ktap_plan 61

A=/dev/oreblk0
SYS=/sys/block/oreblk0/ore

if [ "$ORE_DISKS" -lt 6 ] || ! have_host fio; then
	diag "needs 6 disks and the host's fio"
	ktap_done
fi
ob_load || ktap_done

# fio over region A ([0, 20M)) or B ([20M, 40M)); B is rate limited so the
# rebuild runs under it.
fio_a() { ob_fio $A 0 20M "$@"; }
verify_ab() { ob_fio_verify $A 0 20M && ob_fio_b_verify $A; }
verify_degraded() { [ "$(ob_sys 0 degraded)" -ge 1 ] && verify_ab; }
member_in_sync() {
	grep -q "^$1 active 0 $2" $SYS/members && [ "$(ob_sys 0 degraded)" = 0 ] &&
		grep -q "^$1 none\$" $SYS/recovery_start &&
		[ "$(ob_sys 0 sync_completed)" = none ]
}
recovering() {
	[ "$(ob_sys 0 sync_action)" = recover ] && grep -q "^$1 rebuilding" $SYS/members &&
		grep -q "^$1 [0-9][0-9]*\$" $SYS/recovery_start
}
# wait_idle: until sync_action says idle (at most 10 minutes)
wait_idle() { ob_wait_idle 0 600; }

# one LEVEL NAME FAIL SPARE OTHERS MEMBERS...: the whole cycle for one array
one() {
	local lvl=$1 name=$2 fail=$3 spare=$4 others=$5 o
	shift 5
	check "$name: create over $# members" oreblk create $A --force $lvl --chunk 64K -n $# "$@"
	fail_fast
	check "$name: fio writes region A" fio_a
	check "$name: fail member $fail" oreblk fail $A $fail
	check "$name: the spare is wiped" oreblk wipe $spare
	# Slow enough that the check below sees it running even when fio is
	# late to start (the rebuild of an idle array can end within a second);
	# full speed again once seen.
	echo 4096 > $SYS/sync_speed_max
	ob_fio_b_bg $A
	sleep 1
	check "$name: add $spare while fio writes region B" oreblk add $A $spare
	check "$name: recovery runs (sync_action recover, member rebuilding)" recovering $fail
	echo 0 > $SYS/sync_speed_max
	ob_fio_b_wait "$name: every write of region B during the rebuild acknowledged and verified"
	check "$name: recovery finishes" wait_idle
	check "$name: member $fail active, array not degraded" member_in_sync $fail $spare
	check "$name: the kernel log says the member is in sync" sh -c \
		"dmesg | grep -q 'oreblk0: recovery of member $fail ($spare) done'"
	check "$name: regions A and B read back" verify_ab
	for o in $others; do
		oreblk fail $A $o > /dev/null 2>&1 || diag "fail $o did not work"
	done
	check "$name: members $others failed instead: A and B read back from the rebuilt member" verify_degraded
	check "$name: stop" oreblk stop $A
}

one "--raid 1" raid1 1 /dev/vdc "0" /dev/vda /dev/vdb
check "raid1: assembles from the rebuilt member alone" sh -c \
	"oreblk assemble $A /dev/vdc >/dev/null" && check "raid1: region A reads back" ob_fio_verify $A 0 20M
check "raid1: stop" oreblk stop $A

one "--raid 5" raid5 1 /dev/vde "2" /dev/vda /dev/vdb /dev/vdc /dev/vdd
check "raid5: assembles with the rebuilt member (member 2 left out)" sh -c \
	"oreblk assemble $A /dev/vda /dev/vde /dev/vdc /dev/vdd >/dev/null && grep -q '^1 active' $SYS/members &&
	 grep -q '^2 missing' $SYS/members"
check "raid5: regions A and B read back" verify_ab
# A rebuild stopped half way (sync_speed_max keeps it slow): the member's
# superblock keeps its checkpoint, the next assembly takes it back as
# rebuilding (no "ran split" refusal) and the rebuild resumes from the
# checkpoint, not from zero.
check "raid5: sync_speed_max 4096 KiB/s" sh -c "echo 4096 > $SYS/sync_speed_max && [ \$(cat $SYS/sync_speed_max) = 4096 ]"
check "raid5: add /dev/vdb in member 2's place" sh -c "oreblk wipe /dev/vdb >/dev/null && oreblk add $A /dev/vdb"
check "raid5: the rate-limited rebuild is under way" recovering 2
# past the first checkpoint (8 MiB = 16384 sectors), well before the end
past_checkpoint() {
	local n=0 done
	while :; do
		done=$(ob_sys 0 sync_completed | cut -d' ' -f1)
		[ "$done" != none ] && [ "$done" -ge 20480 ] && return 0
		n=$((n + 1))
		[ $n -lt 300 ] || return 1
		sleep 0.2
	done
}
check "raid5: the rebuild passes 10 MiB" past_checkpoint
# a write first: the clean stop then rewrites the superblocks (dirty.c),
# which must not make the half-rebuilt member stale
check "raid5: a write, then stop in the middle of the rebuild" sh -c \
	"dd if=/dev/urandom of=$A bs=64K seek=768 count=4 oflag=direct 2>/dev/null && oreblk stop $A"
# resume_at: the checkpoint the stopped rebuild gave (at least 8 MiB)
resume_at() {
	dmesg | sed -n 's/.*recovery of member 2 (\/dev\/vdb) stopped at data offset [0-9]*: it resumes from \([0-9]*\) .*/\1/p' | tail -n 1
}
stopped_at_checkpoint() { [ "$(resume_at)" -ge 8388608 ]; }
resumed_there() {
	dmesg | grep -q "recovery of member 2 onto /dev/vdb started at data offset $(resume_at) "
}
check "raid5: the log says where it stopped, a checkpoint of 8 MiB or more" stopped_at_checkpoint
check "raid5: assembles with the half-rebuilt member: rebuilding again" sh -c \
	"oreblk assemble $A /dev/vda /dev/vde /dev/vdb /dev/vdd >/dev/null"
check "raid5: the rebuild resumed from its checkpoint, not from zero" resumed_there
check "raid5: the resumed rebuild finishes" wait_idle
check "raid5: member 2 active, array not degraded" member_in_sync 2 /dev/vdb
check "raid5: regions A and B read back" verify_ab
check "raid5: stop" oreblk stop $A

one "--raid 6" raid6 3 /dev/vdf "1 4" /dev/vda /dev/vdb /dev/vdc /dev/vdd /dev/vde
check "raid6: assembles with the rebuilt member (members 1 and 4 left out)" sh -c \
	"oreblk assemble $A /dev/vda /dev/vdb /dev/vdc /dev/vdf /dev/vde >/dev/null && grep -q '^3 active' $SYS/members"
check "raid6: regions A and B read back" verify_ab
expect_fail "adding a device that is a member already is refused" "member of oreblk0 already" \
	oreblk add $A /dev/vda
check "raid6: stop" oreblk stop $A
ktap_done
