#!/bin/sh
# exofs: the RAID5/6 write hole, closed by the intent record (issue 12).
# Two filesystems on nine disks, each store an ext4 on a dm-linear device
# (ehN over the Nth disk): A = RAID5 over stores s0..s3, B = RAID6 over
# s4..s8. Each holds one file of stamped 4 KiB blocks (tests/tools/blkstamp:
# a block is a whole stamp of its own number, or damaged). Every boot but
# the last ends in a crash, one cycle of each filesystem:
#   - writers rewrite random runs of blocks of both files through the page
#     cache, with an fdatasync after every second run (small partial-stripe
#     writes all the time); then every disk is cut off one after the other,
#     in a shuffled order, by swapping its table for dm-flakey drop_writes
#     (power lost disk by disk: the ext4 of each store keeps a consistent
#     state of its own moment, so one store has a stripe's new data and
#     another its old parity), and the guest is reset (sysrq b);
#   - the next boot mounts the ext4 stores (their journals replayed),
#     runs fsck.exofs --strict on both (as at boot: what the mount will
#     repair is a note, not an error), and mounts each exofs read-write
#     with every store: the mount repairs the regions
#     the intent record names (with the data checksums of mkfs.exofs's
#     defaults, it restamps them first). Then each exofs is mounted
#     degraded with one store (A) or two (B) left out, and every block
#     read: none may be damaged (a block being written is its old or its
#     new stamp) and no block may fail its checksum.
# The first cycle also checks that a degraded mount of a filesystem whose
# record names regions is refused without -o force and accepted with it.
# The last boot checks that a write puts regions in the record and that
# the clear pass takes them out when idle, that a sync of more new files
# than the record has room for completes (writers wait for a pass that
# takes out every idle region), that fsck.exofs --strict finds both
# filesystems clean, and that the mount joins the records of all stores
# (store 0 given back an older, empty record after a power cut: the
# regions the others name are still repaired). With 6 boots: 5 cycles of
# each.
#
# ORE_ARGS "none" makes the filesystems with --consistency-policy none (no
# record, no repair): the same test then shows the hole.
#
# CHECK: exofs_writehole --disks 9 --disk-size 48M --stages 6 --timeout 600
. /ore/tests/lib.sh
. /ore/tests/exofs_lib.sh

POLICY=intent
case " $ORE_ARGS " in *" none "*) POLICY=none ;; esac
LAST=$ORE_STAGES
STAGE=$ORE_STAGE
BLOCKS=2048

mk_dm() {
	local i=0 d sz
	while [ $i -lt 9 ]; do
		d=$(disk $i)
		sz=$(blockdev --getsz $d) || return 1
		dm create eh$i --table "0 $sz linear $d 0" || return 1
		i=$((i + 1))
	done
}
# stores of filesystem $1 (0: A raid5, 1: B raid6)
stores_of() {
	if [ "$1" = 0 ]; then echo /stores/s0 /stores/s1 /stores/s2 /stores/s3
	else echo /stores/s4 /stores/s5 /stores/s6 /stores/s7 /stores/s8; fi
}
name() { [ "$1" = 0 ] && echo raid5 || echo raid6; }
mnt() { echo /mnt/fs$1; }
# "s0:s1:..." with the stores of positions $2... of filesystem $1 missing
so_without() {
	local fs=$1 p=0 s out=""
	shift
	for s in $(stores_of $fs); do
		case " $* " in *" $p "*) s=missing ;; esac
		out="$out:$s"
		p=$((p + 1))
	done
	echo "${out#:}"
}
# positions left out in cycle $2 of filesystem $1
lost_of() {
	if [ "$1" = 0 ]; then echo $(($2 % 4))
	else echo $(($2 % 5)) $((($2 + 2) % 5)); fi
}
mount_fs() {	# FS [OPTS] [LOST...]
	local fs=$1 opts=$2
	shift 2
	exofs_mount_with "$(so_without $fs "$@")" "$opts" "$(mnt $fs)"
}
stores_up() {
	local i=0
	while [ $i -lt 9 ]; do
		mount_ext4 /dev/mapper/eh$i /stores/s$i || return 1
		i=$((i + 1))
	done
}

# Writers on both files, then every disk cut off in a shuffled order
# (dm_cut_prepare, dm_cut), then the reset.
write_and_cut() {
	local seed=$1
	dm_cut_prepare $seed eh $(disk 0) $(disk 1) $(disk 2) $(disk 3) $(disk 4) \
		$(disk 5) $(disk 6) $(disk 7) $(disk 8) || return 1
	blkstamp write "$(mnt 0)/f" $BLOCKS $seed 3 120 > /dev/null 2>&1 &
	blkstamp write "$(mnt 1)/f" $BLOCKS $((seed + 1000)) 3 120 > /dev/null 2>&1 &
	sleep $((2 + seed % 3))
	dm_cut
}

# After the crash of cycle $2: mount filesystem $1 whole (the repair),
# unmount, mount it without the stores of the cycle, read every block.
cycle_verify() {
	local fs=$1 c=$2 out lost rc csum
	lost=$(lost_of $fs $c)
	if ! check "$(name $fs) cycle $c: mount after the crash (the repair runs)" mount_fs $fs ""; then
		not_ok "$(name $fs) cycle $c: not verified"
		return 1
	fi
	diag "$(name $fs): $(dmesg | grep "writes in flight" | tail -n 1)"
	exofs_umount "$(mnt $fs)"
	if ! mount_fs $fs degraded $lost > /tmp/mnt.out 2>&1; then
		not_ok "$(name $fs) cycle $c: degraded mount without stores $lost" \
			"$(cat /tmp/mnt.out)"
		return 1
	fi
	out=$(blkstamp verify "$(mnt $fs)/f" $BLOCKS 2>&1)
	rc=$?
	# a block whose checksum the repair did not restamp would fail here
	csum=$(cat /sys/fs/exofs/*/checksum_errors | awk '{ n += $1 } END { print n + 0 }')
	if [ $rc -eq 0 ] && [ "$csum" = 0 ]; then
		ok "$(name $fs) cycle $c: stores $lost left out, every block whole, no checksum error ($out)"
	else
		not_ok "$(name $fs) cycle $c: stores $lost left out, damaged blocks or checksum errors ($csum)"
		printf '%s\n' "$out" | sed "s/^/${ORE_INDENT}#   /"
	fi
	exofs_umount "$(mnt $fs)"
}

# Plans: the first boot 9; a crash cycle 10 (the first 12); the last 19.
# (--stages 2: the second boot is the first cycle's and the last: 21)
if [ "$STAGE" = 1 ]; then
	ktap_plan 9
elif [ "$STAGE" = "$LAST" ]; then
	ktap_plan $([ "$STAGE" = 2 ] && echo 21 || echo 19)
elif [ "$STAGE" = 2 ]; then
	ktap_plan 12
else
	ktap_plan 10
fi
if [ "$ORE_DISKS" -lt 9 ] || ! have_host dmsetup; then
	diag "needs 9 disks and the host's dmsetup"
	ktap_done
fi
exofs_load || ktap_done
check "dm-linear over the nine disks" mk_dm
fail_fast
mkdir -p /mnt/fs0 /mnt/fs1
mount_both() { mount_fs 0 "" && mount_fs 1 ""; }

if [ "$STAGE" = 1 ]; then
	diag "consistency policy: $POLICY"
	mk_ext4() {
		local i=0
		while [ $i -lt 9 ]; do
			mkfs_ext4 /dev/mapper/eh$i || return 1
			i=$((i + 1))
		done
		stores_up
	}
	check "ext4 on the nine devices, mounted" mk_ext4
	check "mkfs.exofs raid5 over s0..s3 ($POLICY)" mkfs.exofs -q -f --raid 5 \
		--consistency-policy $POLICY $(stores_of 0)
	check "mkfs.exofs raid6 over s4..s8 ($POLICY)" mkfs.exofs -q -f --raid 6 \
		--consistency-policy $POLICY $(stores_of 1)
	check "mount both" mount_both
	fail_fast
	check "sysfs intent says the policy" sh -c \
		"for f in /sys/fs/exofs/*/intent; do grep -q '^policy $POLICY' \$f || exit 1; done"
	check "files of $BLOCKS stamped blocks" sh -c \
		": > $(mnt 0)/f && : > $(mnt 1)/f &&
		 blkstamp fill $(mnt 0)/f $BLOCKS && blkstamp fill $(mnt 1)/f $BLOCKS && sync"
	fail_fast
	check "writers started, disks cut" write_and_cut $STAGE
	guest_crash
fi

check "ext4 stores mounted again" stores_up
fail_fast
C=$((STAGE - 1))
# fsck.exofs --strict before the mount's repair (a boot-time fsck): what
# the mount repairs in the record's regions is a NOTE, never an error
fsck_before() {
	local out rc
	out=$(exofs_fsck $(stores_of $1) 2>&1)
	rc=$?
	diag "$(name $1): $(printf '%s\n' "$out" | grep -c '^NOTE') notes"
	[ $rc = 0 ] && return 0
	printf '%s\n' "$out" | grep -v '^NOTE' | head -n 8
	return 1
}
for fs in 0 1; do
	if [ $POLICY = intent ]; then
		check "$(name $fs) cycle $C: fsck.exofs --strict before the mount: clean but for notes" fsck_before $fs
	else
		skip "$(name $fs) cycle $C: fsck.exofs --strict before the mount" "policy none"
	fi
done
if [ "$STAGE" = 2 ]; then
	if [ $POLICY = intent ]; then
		check "raid5: a degraded mount whose record names regions is refused" sh -c \
			"! mount -t exofs -o stores=$(so_without 0 1),degraded none $(mnt 0) 2>/dev/null &&
			 dmesg | tail -n 5 | grep -q 'not in service: their parity cannot be repaired'"
		# with checksums the forced mount restamps the regions: every
		# byte reads (torn blocks as what they hold), no checksum error
		check "raid5: ... and accepted with -o force (read-only, not repaired), every byte reads" sh -c \
			"mount -t exofs -o stores=$(so_without 0 1),degraded,force none $(mnt 0) || exit 1
			 cat $(mnt 0)/f > /dev/null; r=\$?
			 e=\$(cat /sys/fs/exofs/*/checksum_errors); echo \"checksum errors \$e\"
			 [ \"\$e\" = 0 ] || r=1
			 umount $(mnt 0); exit \$r"
	else
		skip "raid5: a degraded mount whose record names regions is refused" "policy none"
		skip "raid5: ... and accepted with -o force" "policy none"
	fi
fi
cycle_verify 0 $C
cycle_verify 1 $C

if [ "$STAGE" -lt "$LAST" ]; then
	mount_both
	check "writers started, disks cut" write_and_cut $STAGE
	guest_crash
fi

# The last boot: the record while writing and when idle, fsck.
check "mount both again" mount_both
if [ $POLICY = intent ]; then
	blkstamp write "$(mnt 0)/f" $BLOCKS 77 1 2 > /dev/null 2>&1 &
	blkstamp write "$(mnt 1)/f" $BLOCKS 78 1 2 > /dev/null 2>&1
	wait
	check "a write puts regions in the record" sh -c \
		"cat /sys/fs/exofs/*/intent | grep -q 'regions [1-9]'"
	diag "$(cat /sys/fs/exofs/*/intent | tr '\n' ' ')"
	n=0
	while cat /sys/fs/exofs/*/intent | grep -q 'regions [1-9]' && [ $n -lt 30 ]; do
		sleep 1
		n=$((n + 1))
	done
	check "idle: the clear pass empties the record (${n} s)" sh -c \
		"! cat /sys/fs/exofs/*/intent | grep -q 'regions [1-9]'"
	# more new regions in one sync than the record holds (4092): writers
	# wait for a clear pass that takes out every idle region
	many_files() {
		local i=0
		mkdir -p "$(mnt 0)/many" || return 1
		while [ $i -lt 4500 ]; do
			echo "$i" > "$(mnt 0)/many/$i" || return 1
			i=$((i + 1))
		done
		sync
		[ "$(cat "$(mnt 0)/many/4499")" = 4499 ]
	}
	check "4500 small files in one sync: more regions than the record holds" many_files
	diag "$(cat /sys/fs/exofs/*/intent | tr '\n' ' ')"
else
	skip "a write puts regions in the record" "policy none"
	skip "idle: the clear pass empties the record" "policy none"
	skip "4500 small files in one sync" "policy none"
fi
check "every block whole on both" sh -c \
	"blkstamp verify $(mnt 0)/f $BLOCKS && blkstamp verify $(mnt 1)/f $BLOCKS"
exofs_umount "$(mnt 0)"
exofs_umount "$(mnt 1)"
check "fsck.exofs --strict: raid5 clean" exofs_fsck $(stores_of 0)
check "fsck.exofs --strict: raid6 clean" exofs_fsck $(stores_of 1)

# The records of all stores are joined: a store that lost record writes
# in the crash names fewer regions than the others. Power is cut to A's
# four disks after writes put regions in the record; store 0 then gets
# back the empty record it had at mount, the others keep theirs: the
# mount must still repair the regions (reading store 0's record alone, it
# would repair nothing).
union_case() {
	local i d n
	mount_fs 0 "" || return 1
	cp /stores/s0/10003 /tmp/intent0.empty || return 1
	blkstamp write "$(mnt 0)/f" $BLOCKS 99 1 1 > /dev/null 2>&1 || return 1
	grep -q 'regions [1-9]' /sys/fs/exofs/*/intent || { echo "no region recorded"; return 1; }
	dm_cut_prepare 3 eh $(disk 0) $(disk 1) $(disk 2) $(disk 3) && dm_cut || return 1
	umount "$(mnt 0)"	# its empty record and clean state never land
	for i in 0 1 2 3; do umount /stores/s$i || return 1; done
	for i in 0 1 2 3; do
		d=$(disk $i)
		dm load eh$i --table "0 $(blockdev --getsz $d) linear $d 0" &&
			dm resume eh$i || return 1
	done
	for i in 0 1 2 3; do mount_ext4 /dev/mapper/eh$i /stores/s$i || return 1; done
	cp /tmp/intent0.empty /stores/s0/10003 && sync || return 1
	n=$(dmesg | wc -l)
	mount_fs 0 "" || return 1
	dmesg | tail -n +$((n + 1)) | grep "regions had writes in flight when the filesystem stopped: parity and mirrors repaired" ||
		{ dmesg | tail -n 5; umount "$(mnt 0)"; return 1; }
	umount "$(mnt 0)"
}
if [ $POLICY = intent ]; then
	check "store 0 with an older record than the others: the union is repaired" union_case
	check "fsck.exofs --strict: raid5 clean after that repair" exofs_fsck $(stores_of 0)
else
	skip "store 0 with an older record than the others" "policy none"
	skip "fsck.exofs --strict: raid5 clean after that repair" "policy none"
fi
check "no kernel warning" sh -c "! dmesg | grep -q 'WARNING:\|BUG:'"
ktap_done
