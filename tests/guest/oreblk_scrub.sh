#!/bin/sh
# oreblk: check and repair (md's sync_action check/repair, mismatch_cnt),
# issue 11. For RAID1, RAID5 and RAID6: 4 MiB of random data through the
# array; a check counts 0; then one 4 KiB block of one member is
# overwritten directly on the member device (RAID1: the second copy;
# RAID5/6: a parity block of stripe 0, found as the member block that is
# none of the array's data, and for RAID6 a block of the other parity
# member too): a check counts exactly those pages (mismatch_cnt, 8 sectors
# a page row) and leaves the member alone, a repair counts them and
# rewrites them, the member blocks read back as they were before (the
# mirror copied from copy 0, the parity recomputed), oreblk_check agrees,
# and a second check counts 0. Then on RAID5: a second start while one
# runs is refused (EBUSY), "idle" stops it, and while reads go to the
# array the check slows to sync_speed_min; the modules unload.
#
# CHECK: oreblk_scrub --disks 6 --disk-size 64M --timeout 600
. /ore/tests/lib.sh
. /ore/tests/oreblk_lib.sh

ktap_plan 50

A=/dev/oreblk0
SYS=/sys/block/oreblk0/ore
DATA=/tmp/ob_scrub.data

if [ "$ORE_DISKS" -lt 6 ]; then
	diag "needs 6 disks"
	ktap_done
fi
ob_load || ktap_done

mismatch_is() { [ "$(ob_sys 0 mismatch_cnt)" = "$1" ] || { echo "mismatch_cnt $(ob_sys 0 mismatch_cnt), expected $1"; return 1; }; }
# scrub MODE EXPECTED: oreblk check [--repair] --wait, then mismatch_cnt
scrub() {
	local out
	out=$(oreblk check $A $1 --wait) || { echo "$out"; return 1; }
	echo "$out"
	mismatch_is "$2"
}
# parity_members BLKSIZE MEMBERS: the members whose block 0 is none of
# the array's first data chunks' first block
parity_members() {
	local chunk=$1 m i same
	shift
	for m in "$@"; do
		ob_mblk $m 0 > /tmp/ob_m
		same=0
		for i in 0 1 2 3 4; do
			dd if=$DATA bs=$chunk skip=$i count=1 2>/dev/null | head -c 4096 |
				cmp -s - /tmp/ob_m && same=1
		done
		[ $same = 0 ] && echo $m
	done
}

# bad_still / good_again: every block of $TARGETS ("MEMBER BLK ...")
# differs from / equals what it held before the corruption
bad_still() {
	set -- $TARGETS
	while [ $# -ge 2 ]; do
		ob_mblk $1 $2 | cmp -s - /tmp/ob_good.${1##*/}.$2 && return 1
		shift 2
	done
	return 0
}
good_again() {
	set -- $TARGETS
	while [ $# -ge 2 ]; do
		ob_mblk $1 $2 | cmp - /tmp/ob_good.${1##*/}.$2 || return 1
		shift 2
	done
}
# targets_mirror / targets_parity N: what to corrupt ($TARGETS): block 5 of
# member 1 (copy 1 of a RAID1), or block 0 of the first parity member of
# stripe 0 and, with N = 2, block 1 of the second
targets_mirror() { TARGETS="$V1 5"; }
targets_parity() {
	set -- $(parity_members 65536 $MEMBERS)
	TARGETS=""
	[ $# = "$P" ] || return 1
	TARGETS="$1 0"
	[ "$P" = 2 ] && TARGETS="$TARGETS $2 1"
	return 0
}

# one NAME EXPECTED TARGETS-FN CREATE-ARGS...: the cycle for one layout
# ($MEMBERS: the member devices)
one() {
	local name=$1 exp=$2 fn=$3
	shift 3
	# no checksums: they would find the overwritten blocks before the
	# comparison does (oreblk_bitrot tests that)
	check "$name: create" oreblk create $A --force --checksums none "$@" $MEMBERS
	fail_fast
	check "$name: 4 MiB of random data" sh -c \
		"dd if=/dev/urandom of=$DATA bs=1M count=4 2>/dev/null &&
		 dd if=$DATA of=$A bs=1M oflag=direct 2>/dev/null"
	check "$name: a check of the consistent array counts 0" scrub "" 0
	$fn	# sets TARGETS (not in check's subshell)
	check "$name: the blocks to corrupt: $TARGETS" test -n "$TARGETS"
	fail_fast
	diag "$name: corrupting (member block): $TARGETS"
	set -- $TARGETS
	while [ $# -ge 2 ]; do
		ob_mblk $1 $2 > /tmp/ob_good.${1##*/}.$2
		ob_corrupt $1 $2
		shift 2
	done
	check "$name: the member blocks differ now" bad_still
	check "$name: check counts them: mismatch_cnt $exp" scrub "" $exp
	check "$name: check left the corrupted blocks alone" bad_still
	check "$name: repair counts them too: mismatch_cnt $exp" scrub --repair $exp
	check "$name: the member blocks are right again (read on the members)" good_again
	check "$name: a second check counts 0" scrub "" 0
	check "$name: the data reads back" sh -c \
		"dd if=$A bs=1M count=4 iflag=direct 2>/dev/null | cmp - $DATA"
	check "$name: oreblk_check on the members agrees" sh -c \
		"oreblk stop $A && oreblk_check $MEMBERS"
}

V0=/dev/vda V1=/dev/vdb V2=/dev/vdc V3=/dev/vdd V4=/dev/vde

# RAID1: copy 1 (member 1) of block 5 differs; copy 0 wins
MEMBERS="$V0 $V1"
one raid1 8 targets_mirror --raid 1 -n 2
# RAID5 over 4, 64 KiB chunks: a parity block of stripe 0
MEMBERS="$V0 $V1 $V2 $V3" P=1
one raid5 8 targets_parity --raid 5 --chunk 64K -n 4
# RAID6 over 5: block 0 of one parity member and block 1 of the other
MEMBERS="$V0 $V1 $V2 $V3 $V4" P=2
one raid6 16 targets_parity --raid 6 --chunk 64K -n 5

# RAID5: one sync at a time, idle stops it, yielding to user I/O
check "raid5: create" oreblk create $A --force --raid 5 --chunk 64K -n 4 $V0 $V1 $V2 $V3
check "raid5: sync_speed_max 2000 KiB/s, check started" sh -c \
	"echo 2000 > $SYS/sync_speed_max && echo check > $SYS/sync_action && [ \$(cat $SYS/sync_action) = check ]"
expect_fail "raid5: a repair while the check runs is refused" "busy" \
	sh -c "echo repair > $SYS/sync_action"
expect_fail "raid5: so is oreblk add" "check is running" oreblk add $A $V4
check "raid5: detail shows the check and its progress" sh -c \
	"oreblk detail $A | grep -q 'sync action : check, .* sectors'"
check "raid5: sync_completed and sync_speed while it runs" sh -c \
	"ob() { cat $SYS/\$1; }; ob sync_completed | grep -q '^[0-9]* / [0-9]*\$' && ob sync_speed | grep -q '^[0-9]*\$'"
check "raid5: idle stops it" sh -c \
	"echo idle > $SYS/sync_action && [ \$(cat $SYS/sync_action) = idle ] && [ \$(cat $SYS/sync_completed) = none ]"
check "raid5: the kernel log says it stopped" sh -c "dmesg | grep -q 'oreblk0: check stopped at array offset'"
expect_fail "raid5: recover is no sync_action to write" "invalid" \
	sh -c "echo recover > $SYS/sync_action"
# sync_speed_min: while a reader keeps the array busy the check goes at
# about 1000 KiB/s (steps of 1 MiB: at most 2000 + 2 * 1024 KiB in 2 s);
# once the reader stops it runs at full speed
progress() { cat $SYS/sync_completed | cut -d' ' -f1; }
yields() {
	local a b
	echo 0 > $SYS/sync_speed_max && echo 1000 > $SYS/sync_speed_min || return 1
	touch /tmp/ob_reading
	(while [ -e /tmp/ob_reading ]; do
		dd if=$A of=/dev/null bs=4096 count=256 iflag=direct 2>/dev/null
	done) &
	RD=$!
	sleep 1
	echo check > $SYS/sync_action || { rm /tmp/ob_reading; wait $RD; return 1; }
	sleep 1
	a=$(progress)
	sleep 2
	b=$(progress)
	rm /tmp/ob_reading
	wait $RD
	echo "busy: sectors $a -> $b in 2 s" | tee /tmp/ob_yield
	case "$a$b" in *[!0-9]*) echo "the check was not running"; return 1 ;; esac
	[ $((b - a)) -le $(((2000 + 2048) * 2)) ] || return 1
}
check "raid5: with user reads the check slows to sync_speed_min" yields
diag "$(cat /tmp/ob_yield 2>/dev/null)"
fast_again() { ob_wait_idle 0 120 && mismatch_is 0; }
check "raid5: the reader gone, the check finishes at full speed (under 2 min), 0 mismatches" fast_again
check "raid5: stop" oreblk stop $A
check "modules unload" sh -c "rmmod oreblk && rmmod ore"
ktap_done
