#!/bin/sh
# oreblk across a reboot of the guest (two boots on the same disks).
# Boot 1: raid5 over vda..vdd, ext4 filled with files, a member failed by
# hand, more files written degraded; checksums kept raw on vdf. Boot 2:
# assemble from all four members in shuffled order: the failed member stays
# out (its state is on the other members' superblocks), every file matches,
# e2fsck is clean.
#
# CHECK: oreblk_persist --disks 6 --disk-size 64M --stages 2 --timeout 900
. /ore/tests/lib.sh
. /ore/tests/oreblk_lib.sh

A=/dev/oreblk0
V0=/dev/vda V1=/dev/vdb V2=/dev/vdc V3=/dev/vdd V4=/dev/vde V5=/dev/vdf

files() {	# files DIR N: N random files in DIR
	local i=0
	mkdir -p "$1" || return 1
	while [ $i -lt "$2" ]; do
		dd if=/dev/urandom of="$1/f$i" bs=4k count=$(((i * 53) % 200 + 1)) 2>/dev/null || return 1
		i=$((i + 1))
	done
}

if [ "$ORE_STAGE" = 1 ]; then
	ktap_plan 10
	ob_load || ktap_done
	check "boot 1: create raid5 over 4 disks" oreblk create $A --raid 5 --chunk 64K -n 4 $V0 $V1 $V2 $V3
	fail_fast
	check "boot 1: mkfs.ext4 and mount" sh -c ". /ore/tests/lib.sh; mkfs_ext4 $A && mount_ext4 $A /mnt/ob"
	fill1() { files /mnt/ob/a 60 && cp -a /ore/tests /mnt/ob/tests && sync; }
	check "boot 1: files" fill1
	check "boot 1: fail member 2 by hand" oreblk fail $A 2
	check "boot 1: more files, degraded" files /mnt/ob/b 40
	check "boot 1: checksums, umount" sh -c \
		"cd /mnt/ob && find . -type f | sort | xargs sha256sum > /tmp/sums && cd / && umount /mnt/ob"
	check "boot 1: raid5 stopped, checksums kept on vdf" sh -c \
		"oreblk stop $A && dd if=/tmp/sums of=$V5 bs=1M conv=sync 2>/dev/null"
	check "boot 1: kernel log clean" sh -c "! dmesg | grep -q 'oreblk.*superblock write failed'"
	check "boot 1: modules unload" sh -c "rmmod oreblk && rmmod ore"
	ktap_done
fi

ktap_plan 8
ob_load || ktap_done
check "boot 2: assemble from all 4 in shuffled order" sh -c \
	"oreblk assemble $A $V3 $V2 $V1 $V0"
check "boot 2: member 2 stays out (faulty on disk), degraded" sh -c \
	"[ \$(cat /sys/block/oreblk0/ore/degraded) = 1 ] && ! grep -q '^2 active' /sys/block/oreblk0/ore/members"
check "boot 2: mount" sh -c ". /ore/tests/lib.sh; mount_ext4 $A /mnt/ob"
check "boot 2: every file matches its checksum from boot 1" sh -c \
	"dd if=$V5 bs=1M count=1 2>/dev/null | tr -d '\\000' > /tmp/sums && [ -s /tmp/sums ] &&
	 cd /mnt/ob && sha256sum -c -s /tmp/sums"
check "boot 2: umount, e2fsck clean" sh -c "umount /mnt/ob && hostrun e2fsck -fn $A >/dev/null"
check "boot 2: stop" oreblk stop $A
check "boot 2: modules unload" sh -c "rmmod oreblk && rmmod ore"
ktap_done
