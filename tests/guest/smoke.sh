#!/bin/sh
# Smoke test of the guest itself: the kernel, the virtio disks, raw I/O, the
# host share, ext4, and loading the project's modules when they are built.
. /ore/tests/lib.sh

ktap_plan 9

check "kernel is Debian 6.12" grep -q 'Linux version 6\.12\..*deb12' /proc/version

n=0
for d in /sys/block/vd*; do [ -e "$d" ] && n=$((n + 1)); done
if [ "$n" -eq "$ORE_DISKS" ]; then
	ok "$ORE_DISKS virtio disks visible"
else
	not_ok "$ORE_DISKS virtio disks visible" "found $n: $(ls /sys/block)"
fi

# A 4 MiB pattern through O_DIRECT to the first disk and back.
if [ "$ORE_DISKS" -gt 0 ]; then
	dev=$(disk 0)
	i=0
	while [ $i -lt 64 ]; do printf 'ore-smoke-block-%047d\n' $i; i=$((i + 1)); done > /tmp/pat
	for i in 1 2 3 4 5 6 7 8 9 10; do cat /tmp/pat /tmp/pat > /tmp/pat2; mv /tmp/pat2 /tmp/pat; done
	check "write pattern to $dev" dd if=/tmp/pat of="$dev" bs=64k oflag=direct conv=fsync
	echo 3 > /proc/sys/vm/drop_caches
	check "read pattern back from $dev" sh -c \
		"dd if=$dev bs=64k count=64 iflag=direct 2>/dev/null | cmp - /tmp/pat"
	rm -f /tmp/pat
else
	skip "write pattern" "no disks"
	skip "read pattern back" "no disks"
fi

check "host share at /host runs host binaries" hostrun /bin/true

# ext4 made by the host's mkfs.ext4 on the last disk, mounted in the guest.
if [ "$ORE_DISKS" -gt 1 ]; then
	dev=$(disk $((ORE_DISKS - 1)))
	check "mkfs.ext4 $dev" mkfs_ext4 "$dev"
	if mount_ext4 "$dev" /mnt/smoke; then
		echo hello > /mnt/smoke/f && umount /mnt/smoke && mount_ext4 "$dev" /mnt/smoke
		check "ext4 file survives remount" grep -qx hello /mnt/smoke/f
		umount /mnt/smoke
	else
		not_ok "ext4 file survives remount" "mount failed"
	fi
else
	skip "mkfs.ext4" "needs 2 disks"
	skip "ext4 file survives remount" "needs 2 disks"
fi

check "md raid456 and dm-flakey are loaded" sh -c \
	"grep -q '^raid456 ' /proc/modules && grep -q '^dm_flakey ' /proc/modules"

if ko=$(ore_ko ore); then
	if load_mod "$ko"; then
		check "ore.ko is in /proc/modules" mod_loaded ore
	fi
else
	skip "ore.ko loads" "ore/ore.ko not built yet"
fi

ktap_done
