#!/bin/sh
# oreblk: a reset in the middle of a rebuild (issue 11): the rebuild goes
# on from its checkpoint at the next assembly, not from zero. Two boots on
# the same disks, RAID5 over vda..vdd, vde the new member.
# Boot 1: every block stamped (tests/tools/blkstamp); member 1 failed;
# the rebuild onto vde rate-limited (sync_speed_max) so that it runs for a
# while; once vde's superblock records a checkpoint (8 MiB rebuilt and
# flushed) and the write-intent bitmap has been cleared (no write in
# flight: a dirty array with a member being rebuilt is refused otherwise),
# the guest is reset (sysrq b).
# Boot 2: vda, vdc, vdd and vde assemble; the kernel log says the recovery
# of member 1 started at the checkpoint of boot 1 (not 0); it finishes;
# every block is whole; then member 0 fails too, and every block is still
# whole: read through the rebuilt member.
#
# CHECK: oreblk_rebuild_reset --disks 5 --disk-size 64M --stages 2 --timeout 600
. /ore/tests/lib.sh
. /ore/tests/oreblk_lib.sh

A=/dev/oreblk0
SYS=/sys/block/oreblk0/ore
blocks() { echo $(($(blockdev --getsz $A) / 8)); }
checkpoint() {
	oreblk examine /dev/vde 2>/dev/null | sed -n 's/^ *rebuilding : rebuilt up to data offset //p'
}

ktap_plan $([ "$ORE_STAGE" = 1 ] && echo 8 || echo 9)
if [ "$ORE_DISKS" -lt 5 ]; then
	diag "needs 5 disks"
	ktap_done
fi
ob_load || ktap_done

if [ "$ORE_STAGE" = 1 ]; then
	check "create raid5 over vda..vdd" oreblk create $A --force --raid 5 --chunk 64K -n 4 \
		/dev/vda /dev/vdb /dev/vdc /dev/vdd
	fail_fast
	check "every block stamped" blkstamp fill $A $(blocks)
	check "fail member 1" oreblk fail $A 1
	echo 3000 > $SYS/sync_speed_max
	check "add vde: the rebuild starts (3000 KiB/s)" oreblk add $A /dev/vde
	at_checkpoint() {
		local n=0
		while [ -z "$(checkpoint)" ] || [ "$(checkpoint)" = 0 ]; do
			n=$((n + 1))
			[ $n -le 120 ] || return 1
			sleep 0.5
		done
	}
	check "vde's superblock records a checkpoint" at_checkpoint
	check "no write in flight: the write-intent bits are cleared" ob_wait_bits_clear 30 0
	CP=$(checkpoint)
	check "the rebuild still runs at checkpoint $CP" sh -c \
		"[ \$(cat $SYS/sync_action) = recover ] && [ $CP -lt $(( (64 << 20) - (1 << 20) )) ]"
	# boot 2 reads the checkpoint from vde's own superblock
	guest_crash
fi

CP=$(checkpoint)
check "vde's superblock still says rebuilt up to $CP (> 0)" sh -c "[ -n '$CP' ] && [ '$CP' -gt 0 ]"
check "assemble vda vdc vdd vde" oreblk assemble $A /dev/vda /dev/vdc /dev/vdd /dev/vde
resumed() {
	dmesg | grep -q "oreblk0: recovery of member 1 onto /dev/vde started at data offset $CP "
}
check "the recovery resumes at $CP, not 0" resumed
diag "$(dmesg | grep 'oreblk0: recovery' | tail -n 2 | tr '\n' ' ')"
done_rebuild() { ob_wait_idle 0 300 && [ "$(ob_sys 0 degraded)" = 0 ]; }
check "the rebuild finishes, the array is whole" done_rebuild
check "every block whole" blkstamp verify $A $(blocks)
check "fail member 0 too" oreblk fail $A 0
check "every block whole, read through the rebuilt member" blkstamp verify $A $(blocks)
check "stop" oreblk stop $A
ktap_done
