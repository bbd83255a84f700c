#!/bin/sh
# oreblk: a write acknowledged degraded survives a crash right after the
# acknowledgement (two boots on the same disks).
#
# Boot 1: raid5 over four dm-linear members over vda..vdd, old data in the
# first four stripes. Member 0 becomes dm-error, members 1..3 dm-delay
# (2 s a read or write, flushes at once), so that the superblocks, written
# one member after the other after the failure, take three times as long
# as the data (whose ack must come only after them). Four full stripes of
# new data are written in one O_DIRECT|O_DSYNC write by fio
# (its write to member 0 fails, the others succeed) and the guest is reset
# the moment fio returns (sysrq b: no sync), fio's status kept raw on vdf.
# Boot 2: assemble from vda..vdd: the array is dirty (reset while written)
# and degraded, so the kernel refuses it without --force ("cannot start
# dirty degraded array", md's rule); with --force, member 0 must be
# recorded as failed on the others (it is left out: stale or faulty), not
# back in service, and the acknowledged stripes must read back (rebuilt
# from parity).
#
# CHECK: oreblk_durable --disks 6 --disk-size 64M --stages 2 --timeout 600
. /ore/tests/lib.sh
. /ore/tests/oreblk_lib.sh

A=/dev/oreblk0
SYS=/sys/block/oreblk0/ore
V0=/dev/vda V1=/dev/vdb V2=/dev/vdc V3=/dev/vdd V5=/dev/vdf
STRIPE=196608	# 3 data chunks of 64 KiB
LEN=$((4 * STRIPE))	# four stripes: member 0 holds data in three of them
DELAY=2000	# ms of dm-delay on members 1..3

# dm_table I TARGET...: load a new table for obmI and switch to it
dm_table() {
	local i=$1
	shift
	dm suspend obm$i && dm load obm$i --table "0 $SECTORS $*" && dm resume obm$i
}
# dm-delay is no module of the guest's base set: take the host's
load_delay() {
	mod_loaded dm_delay && return 0
	hostrun xz -dc /lib/modules/$(uname -r)/kernel/drivers/md/dm-delay.ko.xz \
		> /tmp/dm-delay.ko && insmod /tmp/dm-delay.ko
}
mk_members() {
	local i=0 d
	load_delay || return 1
	for d in a b c d; do
		dm create obm$i --table "0 $SECTORS linear /dev/vd$d 0" || return 1
		i=$((i + 1))
	done
}
# new_stripe ARGS: four full stripes at offset 0 in one O_DIRECT|O_DSYNC
# write (ARGS --do_verify=0), or their check (ARGS --verify_only); fio
# verify headers (seed 16) so that boot 2 can tell it from the old data
new_stripe() {
	hostrun fio --name=stripe --filename=$A --ioengine=psync --direct=1 \
		--sync=dsync --rw=write --bs=$LEN --size=$LEN --offset=0 \
		--verify=crc32c --verify_fatal=1 --randseed=16 "$@" \
		> /tmp/ob_fio.out 2>&1 || { tail -n 20 /tmp/ob_fio.out; return 1; }
}
# slow_members: reads and writes of members 1..3 take $DELAY ms, cache
# flushes none (O_DSYNC's flush after the write must not hide how long
# the superblocks take)
slow_members() {
	local i=1 d
	for d in b c d; do
		dm_table $i delay /dev/vd$d 0 $DELAY /dev/vd$d 0 $DELAY /dev/vd$d 0 0 ||
			return 1
		i=$((i + 1))
	done
}

if [ "$ORE_STAGE" = 1 ]; then
	ktap_plan 8
	if [ "$ORE_DISKS" -lt 6 ] || ! have_host dmsetup || ! have_host xz ||
	   ! have_host fio; then
		diag "needs 6 disks and the host's dmsetup, xz and fio"
		ktap_done
	fi
	ob_load || ktap_done
	SECTORS=$(blockdev --getsz $V0)
	M0=/dev/mapper/obm0 M1=/dev/mapper/obm1 M2=/dev/mapper/obm2 M3=/dev/mapper/obm3
	check "dm-delay loaded, four dm-linear members over vda..vdd" mk_members
	check "create raid5 over the 4 dm members" oreblk create $A --raid 5 --chunk 64K -n 4 $M0 $M1 $M2 $M3
	fail_fast
	check "old data in the first four stripes" sh -c \
		"dd if=/dev/urandom of=$A bs=$STRIPE count=4 conv=fsync 2>/dev/null"
	check "all members active, events $(cat $SYS/events)" sh -c \
		"[ \$(grep -c ' active ' $SYS/members) = 4 ]"
	check "member 0 becomes dm-error" dm_table 0 error
	check "members 1..3 become dm-delay: $DELAY ms reads and writes" slow_members
	ok "writing four new stripes degraded, then resetting at once"
	# The results so far, as guest_crash reports them, then the write and
	# the reset with nothing in between but recording fio's status on vdf.
	diag "$ORE_N results, $ORE_NFAIL failed; write, then crash"
	echo "@@ORE@@ EXIT rc=$([ $ORE_NFAIL -eq 0 ] && echo 0 || echo 1)"
	echo "@@ORE@@ DMESG-BEGIN"
	dmesg
	echo "@@ORE@@ DMESG-END"
	echo "@@ORE@@ END"
	sleep 2
	echo 1 > /proc/sys/kernel/sysrq
	read -r t0 _ < /proc/uptime
	new_stripe --do_verify=0
	rc=$?
	read -r t1 _ < /proc/uptime
	echo "ack rc=$rc fio started at $t0 s, returned at $t1 s (uptime)" |
		dd of=$V5 bs=4096 conv=sync,fsync 2>/dev/null
	echo b > /proc/sysrq-trigger
	sleep 10
	exit 0
fi

ktap_plan 9
ob_load || ktap_done
check "boot 1's write was acknowledged" sh -c "dd if=$V5 bs=4096 count=1 2>/dev/null | tr -d '\\000' | grep -q '^ack rc=0'"
diag "boot 1: $(dd if=$V5 bs=4096 count=1 2>/dev/null | tr -d '\000')"
diag "superblocks after the crash:"
oreblk examine $V0 $V1 $V2 $V3 2>&1 | grep -E '^/|events|member state' | sed 's/^/#   /'
expect_fail "dirty and degraded after the crash: refused without --force" \
	"cannot start dirty degraded array" oreblk assemble $A $V0 $V1 $V2 $V3
check "assemble from vda..vdd after the crash with --force" oreblk assemble $A --force $V0 $V1 $V2 $V3
fail_fast
check "member 0 is recorded as failed: left out, array degraded" sh -c \
	"grep -q '^0 missing' $SYS/members && [ \$(cat $SYS/degraded) = 1 ]"
check "the members in service mark member 0 faulty" sh -c \
	"for d in $V1 $V2 $V3; do oreblk examine \$d | grep -q 'member state : F A A A' || exit 1; done"
check "the acknowledged stripes read back (fio verify)" new_stripe --verify_only
check "stop" oreblk stop $A
check "modules unload" sh -c "rmmod oreblk && rmmod ore"
ktap_done
