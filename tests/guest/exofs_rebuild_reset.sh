#!/bin/sh
# exofs: a reset in the middle of a rebuild (issue 11): the rebuild goes on
# from its checkpoint at the next mount, not from inode 0. Two boots on the
# same disks; RAID5 over 4 ext4 stores on dm-linear devices (disks 0-3),
# the new store on disk 4.
# Boot 1: 120 files with known content; store 1 switched to dm-error (the
# next write fails it); mkfs.exofs --replace and a write to
# /sys/fs/exofs/<uuid>/replace start the rebuild, rate limited so that it
# runs for a while; once it has run past two checkpoints (one every 5 s:
# the new store flushed, the device table records the inode reached) the
# guest is reset, with no unmount and no sync.
# Boot 2: the ext4 stores are mounted again (their journals replayed); the
# exofs mount finds store 1 rebuilding and the kernel log says the rebuild
# goes on from an inode above 0; it finishes, every file reads back,
# fsck.exofs is clean, and a mount with store 0 missing reads every file
# back through the rebuilt store.
#
# CHECK: exofs_rebuild_reset --disks 5 --disk-size 256M --stages 2 --timeout 600
. /ore/tests/lib.sh
. /ore/tests/exofs_lib.sh

M=$EXOFS_MNT
NFILES=120

ktap_plan $([ "$ORE_STAGE" = 1 ] && echo 12 || echo 14)

exofs_load || ktap_done
if [ "$ORE_DISKS" -lt 5 ] || ! have_host dmsetup; then
	diag "needs 5 disks and the host's dmsetup"
	ktap_done
fi
SECTORS=$(blockdev --getsz "$(disk 0)")
# mk_dm I...: dm-linear efsI over disk I
mk_dm() {
	local i
	for i in "$@"; do
		dm create efs$i --table "0 $SECTORS linear $(disk $i) 0" || return 1
	done
}
flen() { echo $(( ($1 % 5 + 1) * 40960 + $1 * 97 )); }
mkfiles() {
	local i=0
	while [ $i -lt $NFILES ]; do
		fsop write $M/f$i 0 "$(flen $i)" $((300 + i)) || return 1
		i=$((i + 1))
	done
	sync
}
verify_files() {
	local i=0
	echo 3 > /proc/sys/vm/drop_caches
	while [ $i -lt $NFILES ]; do
		fsop verify $M/f$i 0 "$(flen $i)" $((300 + i)) || { echo "f$i"; return 1; }
		i=$((i + 1))
	done
}
mkdir -p /stores/s0 /stores/s1 /stores/s2 /stores/s3 /stores/r $M

if [ "$ORE_STAGE" = 1 ]; then
	stores_up() {
		local i=0
		while [ $i -lt 4 ]; do
			mkfs_ext4 /dev/mapper/efs$i -b 4096 >/dev/null 2>&1 || return 1
			mount_ext4 /dev/mapper/efs$i /stores/s$i || return 1
			i=$((i + 1))
		done
		mkfs_ext4 "$(disk 4)" -b 4096 >/dev/null 2>&1 &&
			mount_ext4 "$(disk 4)" /stores/r
	}
	check "dm-linear devices over disks 0-3" mk_dm 0 1 2 3
	check "ext4 stores on them and on disk 4" stores_up
	fail_fast
	EXOFS_STORES="/stores/s0 /stores/s1 /stores/s2 /stores/s3"
	check "mkfs.exofs --raid 5" exofs_mkfs --raid 5
	check "mount" exofs_mount
	fail_fast
	uuid=$(basename "$(exofs_sysdir)")
	check "$NFILES files with known content written" mkfiles
	dm suspend --nolockfs efs1 && dm load efs1 --table "0 $SECTORS error" &&
		dm resume efs1
	check "store 1 fails at the next write" sh -c \
		"fsop write $M/trigger 0 262144 7 && fsop fsync $M/trigger; \
		 n=0; while ! grep -q '^1 failed ' $(exofs_sysdir)/stores; do \
			n=\$((n + 1)); [ \$n -lt 300 ] || exit 1; sleep 0.2; done"
	check "mkfs.exofs --replace 1 --uuid $uuid /stores/r" \
		mkfs.exofs --replace 1 --uuid "$uuid" /stores/r
	echo 256 > "$(exofs_sysdir)/rebuild_speed_max"
	check "replace store 1 online (256 KiB/s)" sh -c "echo '1 /stores/r' > $(exofs_sysdir)/replace"
	check "store 1 rebuilding" exofs_wait_state 1 rebuilding 5
	# two checkpoints (5 s apart) behind it, the rebuild still running
	past_checkpoints() {
		local n=0 s
		while :; do
			s=$(exofs_rebuild_line | sed -n 's/^running .* seconds \([0-9]*\) .*/\1/p')
			[ -n "$s" ] || { exofs_rebuild_line; return 1; }
			[ "$s" -ge 11 ] && return 0
			n=$((n + 1))
			[ $n -lt 150 ] || return 1
			sleep 0.2
		done
	}
	check "the rebuild runs past two checkpoints" past_checkpoints
	diag "$(exofs_rebuild_line)"
	check "still running: the reset comes in the middle" grep -q '^running ' "$(exofs_sysdir)/rebuild"
	guest_crash
fi

check "dm-linear devices over disks 0, 2, 3" mk_dm 0 2 3
mount_stores() {
	local i
	for i in 0 2 3; do
		mount_ext4 /dev/mapper/efs$i /stores/s$i || return 1
	done
	mount_ext4 "$(disk 4)" /stores/r
}
check "the ext4 stores mount again" mount_stores
fail_fast
EXOFS_STORES="/stores/s0 /stores/r /stores/s2 /stores/s3"
mark=$(dmesg_lines)
check "mount (store 1 from /stores/r)" exofs_mount
fail_fast
from=$(dmesg | tail -n +$((mark + 1)) | sed -n "s/.*store 1 .* is being rebuilt: going on from inode \([0-9]*\).*/\1/p")
if [ -n "$from" ] && [ "$from" -gt 0 ]; then
	ok "the rebuild goes on from inode $from, not 0"
else
	not_ok "the rebuild goes on from its checkpoint" "from '$from'"
	dmesg | tail -n +$((mark + 1)) | tail -n 10 | sed 's/^/#   /'
fi
echo 0 > "$(exofs_sysdir)/rebuild_speed_max"
check "the rebuild finishes" exofs_wait_rebuilt
diag "$(exofs_rebuild_line)"
check "store 1 in service" exofs_wait_state 1 ok 5
check "every file reads back" verify_files
check "umount" exofs_umount
check "fsck.exofs clean" exofs_fsck
check "mount with store 0 missing (degraded)" \
	exofs_mount_with "missing:/stores/r:/stores/s2:/stores/s3" degraded
check "every file reads back through the rebuilt store" verify_files
check "umount" exofs_umount
check "modules unload, no store or I/O state leaked" sh -c \
	"rmmod exofs && rmmod ore && ! dmesg | grep -q 'leaked'"
ktap_done
