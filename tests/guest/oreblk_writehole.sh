#!/bin/sh
# oreblk: the RAID5/6 write hole, closed by the write-intent bitmap (issue
# 12). RAID5 over vda..vdd (oreblk0) and RAID6 over vde..vdi (oreblk1),
# each member behind a dm-linear device (whN over the Nth disk), every 4 KiB
# block stamped with its own number (tests/tools/blkstamp: a block is a
# whole stamp or damaged). Every boot but the first and the last ends in a
# crash, one cycle per array:
#   - writers rewrite random runs of blocks on both arrays; then every
#     member is cut off one after the other, in a shuffled order, by
#     swapping its table for dm-flakey drop_writes (power lost to one disk
#     after another: a stripe's data reaches one member while its parity
#     is dropped on another), and the guest is reset (sysrq b);
#   - the next boot assembles all members (the dirty array's repair of the
#     regions its bitmaps name runs inside the assembly), fails one member
#     of the RAID5 and two of the RAID6 at once, before anything else, and
#     reads every block degraded: none may be damaged (a block being
#     written is its old or its new stamp, both whole); then the failed
#     members are rebuilt (stop, degraded assembly, wipe, add --wait).
#     The arrays keep data checksums (the default): no block may fail its
#     checksum in those reads (the repair restamped what the crash left
#     out of step).
# The boot before the last checks that a check counts 0 mismatches, that
# a write sets its region's bit and that the bits clear when idle, and is
# reset idle (dirty, nothing in flight); the last boot starts both arrays
# without members lost in that crash, without --force (an empty bitmap
# says no write was in flight), and reads every block. With 12 boots:
# 10 crash cycles of each array.
#
# ORE_ARGS "resync" creates the arrays with --consistency-policy resync
# (md's default: a background resync after the crash) and starts them
# after each crash without the members to fail (--force: members lost
# before any resync could run): the same test then shows the hole (seen:
# 4402 of 23808 blocks damaged on RAID5, 7719 on RAID6, first cycle).
#
# CHECK: oreblk_writehole --disks 9 --disk-size 32M --stages 12 --timeout 600
. /ore/tests/lib.sh
. /ore/tests/oreblk_lib.sh

POLICY=intent
case " $ORE_ARGS " in *" resync "*) POLICY=resync ;; esac
LAST=$ORE_STAGES

DISKS="vda vdb vdc vdd vde vdf vdg vdh vdi"
mk_dm() {
	local i=0 d sz
	for d in $DISKS; do
		sz=$(blockdev --getsz /dev/$d) || return 1
		dm create wh$i --table "0 $sz linear /dev/$d 0" || return 1
		i=$((i + 1))
	done
}
# members of array A (0: raid5, 1: raid6)
members() {
	if [ "$1" = 0 ]; then echo /dev/mapper/wh0 /dev/mapper/wh1 /dev/mapper/wh2 /dev/mapper/wh3
	else echo /dev/mapper/wh4 /dev/mapper/wh5 /dev/mapper/wh6 /dev/mapper/wh7 /dev/mapper/wh8; fi
}
blocks() { echo $(($(blockdev --getsz /dev/oreblk$1) / 8)); }
name() { [ "$1" = 0 ] && echo raid5 || echo raid6; }

# Writers on both arrays, then every member cut off in a shuffled order
# (dm_cut_prepare, dm_cut).
write_and_cut() {
	local seed=$1 d devs=""
	for d in $DISKS; do devs="$devs /dev/$d"; done
	dm_cut_prepare $seed wh $devs || return 1
	blkstamp write /dev/oreblk0 $(blocks 0) $seed 3 120 > /dev/null 2>&1 &
	blkstamp write /dev/oreblk1 $(blocks 1) $((seed + 1000)) 3 120 > /dev/null 2>&1 &
	sleep $((1 + seed % 3))
	dm_cut
}

# Members failed in cycle $2 of array $1: one of the raid5, two of the raid6.
failed_of() {
	if [ "$1" = 0 ]; then echo $(($2 % 4))
	else echo $(($2 % 5)) $((($2 + 2) % 5)); fi
}

# The device of member index $2 of array $1, by its superblock (`oreblk
# add` puts a device in the first free slot: slots and devices move).
path_of() {
	local m
	for m in $(members $1); do
		oreblk examine $m 2>/dev/null | grep -q "^ *member : $2 of " && { echo $m; return; }
	done
}
# The devices of the members failed in cycle $2 of array $1, and the others.
failed_devs() {
	local f
	for f in $(failed_of $1 $2); do path_of $1 $f; done
}
kept_of() {
	local m keep="" bad
	bad=" $(failed_devs $1 $2 | tr '\n' ' ') "
	for m in $(members $1); do
		case "$bad" in *" $m "*) ;; *) keep="$keep $m" ;; esac
	done
	echo $keep
}

# Assemble array $1 after the crash, fail its members at once, read it all
# (two results). With the resync policy, the members are lost before any
# resync can run: the array is started without them (--force, md's
# "dirty degraded" start). FAILED: their devices, for cycle_rebuild.
cycle_verify() {
	local a=$1 c=$2 A=/dev/oreblk$1 f out
	FAILED=$(failed_devs $a $c)
	KEPT=$(kept_of $a $c)
	if [ $POLICY = resync ]; then
		check "$(name $a) cycle $c: assemble after the crash without members $(failed_of $a $c) (--force)" \
			oreblk assemble --force $A $KEPT
	else
		check "$(name $a) cycle $c: assemble after the crash" oreblk assemble $A $(members $a)
	fi
	if [ $? -ne 0 ]; then
		not_ok "$(name $a) cycle $c: not verified"
		not_ok "$(name $a) cycle $c: checksums not checked"
		return 1
	fi
	if [ $POLICY != resync ]; then
		for f in $(failed_of $a $c); do
			oreblk fail $A $f > /dev/null ||
				{ not_ok "$(name $a) cycle $c: fail member $f"
				  not_ok "$(name $a) cycle $c: checksums not checked"
				  return 1; }
		done
	fi
	diag "$(name $a): $(dmesg | grep "oreblk$a: .*\(write-intent\|resync\|dirty\)" | tail -n 2 | tr '\n' ' ')"
	out=$(blkstamp verify $A $(blocks $a) 2>&1)
	if [ $? -eq 0 ]; then
		ok "$(name $a) cycle $c: members $(failed_of $a $c) failed, every block whole ($out)"
	else
		not_ok "$(name $a) cycle $c: members $(failed_of $a $c) failed, damaged blocks"
		printf '%s\n' "$out" | sed "s/^/${ORE_INDENT}#   /"
	fi
	# the data checksums (on by default with the bitmap): every block
	# read, none failed its checksum: the repair restamped the regions
	# whose entries and data the crash left out of step
	if [ $POLICY = resync ]; then
		skip "$(name $a) cycle $c: no false checksum error" "no checksums with the resync policy"
	else
		check "$(name $a) cycle $c: checksums on, no false checksum error after the crash" sh -c \
			"[ \$(cat /sys/block/oreblk$a/ore/checksums) != none ] &&
			 cat /sys/block/oreblk$a/ore/checksum_errors | grep -q '^0 '"
	fi
	eval "FAILED$a=\"$FAILED\" KEPT$a=\"$KEPT\""
}

# Rebuild the members failed in this cycle of array $1 (FAILEDn, KEPTn of
# cycle_verify).
cycle_rebuild() {
	local a=$1 A=/dev/oreblk$1 m failed kept
	eval "failed=\$FAILED$a kept=\$KEPT$a"
	[ -n "$failed" ] || return 1
	oreblk stop $A > /dev/null && oreblk assemble $A $kept > /dev/null || return 1
	for m in $failed; do
		oreblk wipe $m > /dev/null && oreblk add $A $m --wait > /dev/null || return 1
	done
	[ "$(ob_sys $a degraded)" = 0 ]
}

STAGE=$ORE_STAGE
# Plans: the first boot 8; crash cycles 10; the cycle before the last boot
# 10 + 5 (checks, then a reset while idle); the last boot 7.
if [ "$STAGE" = 1 ]; then
	ktap_plan 8
elif [ "$STAGE" -lt $((LAST - 1)) ]; then
	ktap_plan 10
elif [ "$STAGE" = $((LAST - 1)) ]; then
	ktap_plan 15
else
	ktap_plan 7
fi
if [ "$ORE_DISKS" -lt 9 ] || ! have_host dmsetup; then
	diag "needs 9 disks and the host's dmsetup"
	ktap_done
fi
ob_load || ktap_done
check "dm-linear over the nine disks" mk_dm
fail_fast

if [ "$STAGE" = 1 ]; then
	diag "consistency policy: $POLICY"
	check "create raid5 over wh0..wh3 ($POLICY)" oreblk create /dev/oreblk0 --force --raid 5 \
		--chunk 64K -n 4 --consistency-policy $POLICY $(members 0)
	check "create raid6 over wh4..wh8 ($POLICY)" oreblk create /dev/oreblk1 --force --raid 6 \
		--chunk 64K -n 5 --consistency-policy $POLICY $(members 1)
	fail_fast
	check "sysfs consistency_policy says $POLICY" sh -c \
		"[ \$(cat /sys/block/oreblk0/ore/consistency_policy) = $POLICY ] &&
		 [ \$(cat /sys/block/oreblk1/ore/consistency_policy) = $POLICY ]"
	check "raid5: every block stamped" blkstamp fill /dev/oreblk0 $(blocks 0)
	check "raid6: every block stamped" blkstamp fill /dev/oreblk1 $(blocks 1)
	check "writers started, every member cut off one after the other" write_and_cut 1
	guest_crash
fi

if [ "$STAGE" = "$LAST" ]; then
	# Reset while idle, every bit cleared: dirty, but nothing was in
	# flight. Members missing now (lost in that crash): it starts without
	# --force, and every block reads back whole.
	idle_start() {
		oreblk assemble /dev/oreblk$1 $2 > /dev/null &&
			dmesg | grep -q "oreblk$1: not stopped cleanly, but the write-intent bitmap is empty"
	}
	check "raid5: dirty after an idle reset, member 0 missing: starts without --force" \
		idle_start 0 "$(kept_of 0 4)"
	check "raid5 degraded: every block whole" blkstamp verify /dev/oreblk0 $(blocks 0)
	check "raid6: dirty after an idle reset, members 0 and 2 missing: starts without --force" \
		idle_start 1 "$(kept_of 1 5)"
	check "raid6 degraded: every block whole" blkstamp verify /dev/oreblk1 $(blocks 1)
	check "stop both cleanly" sh -c "oreblk stop /dev/oreblk0 && oreblk stop /dev/oreblk1"
	ktap_done
fi

C=$((STAGE - 1))
cycle_verify 0 $C
cycle_verify 1 $C
check "raid5 cycle $C: failed member rebuilt" cycle_rebuild 0
check "raid6 cycle $C: failed members rebuilt" cycle_rebuild 1
if [ "$STAGE" -lt $((LAST - 1)) ]; then
	write_and_cut $STAGE || diag "cutting the members off failed"
	guest_crash
fi
check_zero() {
	oreblk check /dev/oreblk$1 --wait > /dev/null && [ "$(ob_sys $1 mismatch_cnt)" = 0 ]
}
check "raid5: a check counts 0 mismatches" check_zero 0
check "raid6: a check counts 0 mismatches" check_zero 1
bits_set() { cut -d' ' -f1 /sys/block/oreblk$1/ore/intent_bitmap; }
# block 5 rewritten with what it holds, on both arrays
rewrite() {
	dd if=/dev/oreblk$1 of=/tmp/b5 bs=4096 skip=5 count=1 iflag=direct 2>/dev/null &&
		dd if=/tmp/b5 of=/dev/oreblk$1 bs=4096 seek=5 count=1 oflag=direct \
			conv=notrunc 2>/dev/null
}
set_by_write() {
	rewrite 0 && rewrite 1 && [ "$(bits_set 0)" -ge 1 ] && [ "$(bits_set 1)" -ge 1 ]
}
if [ $POLICY = intent ]; then
	check "a write sets its region's bit on both arrays" set_by_write
	check "idle, the bits are cleared (flushed first) within 30 s" ob_wait_bits_clear 30 0 1
else
	skip "a write sets its region's bit" "resync policy"
	skip "idle, the bits are cleared" "resync policy"
fi
check "the superblocks still say dirty" sh -c \
	"oreblk examine /dev/mapper/wh0 /dev/mapper/wh4 | grep -c 'array state : dirty' | grep -qx 2"
guest_crash
