#!/bin/sh
# ORE engine and object store tests: ore_test.ko (tests/ktap) run over file
# stores, two directories on an ext4 filesystem per disk for the first
# (up to) four disks, and over block stores on the disks after those; plus
# a small ext4 on a loop device that the ENOSPC case fills. Then ore.ko must
# unload cleanly and every store filesystem must unmount (no backing file
# left open).
#
# CHECK: engine --disks 6 --disk-size 256M --timeout 600
# --args seed=N passes another random seed to ore_test.ko.
. /ore/tests/lib.sh

ktap_plan 8

nfile=$ORE_DISKS
[ "$nfile" -gt 4 ] && nfile=4
dirs="" bdevs="" mounts=""

# File stores: ext4 on vda..vdd.
ready=1
i=0
while [ $i -lt "$nfile" ]; do
	dev=$(disk $i)
	if mkfs_ext4 "$dev" >/tmp/mkfs.out 2>&1 && mount_ext4 "$dev" /mnt/s$i &&
		mkdir -p /mnt/s$i/a /mnt/s$i/b; then
		mounts="$mounts /mnt/s$i"
	else
		ready=0
		diag "mkfs/mount of $dev failed: $(tail -n 3 /tmp/mkfs.out)"
	fi
	i=$((i + 1))
done
# Not regular files at object paths 5ee0..5ee3 of the first store (ore_test
# file_not_regular_refused): a FIFO, a symlink to the object 5ee9, a
# directory, /dev/null's device node.
notreg=""
if [ -d /mnt/s0/a ] && echo victim > /mnt/s0/a/5ee9 && mkfifo /mnt/s0/a/5ee0 &&
	ln -s 5ee9 /mnt/s0/a/5ee1 && mkdir /mnt/s0/a/5ee2 &&
	mknod /mnt/s0/a/5ee3 c 1 3; then
	notreg=/mnt/s0/a
fi
# Two stores per filesystem, a then b: /mnt/s0/a,/mnt/s1/a,...,/mnt/s0/b,...
for sub in a b; do
	for m in $mounts; do
		dirs="$dirs${dirs:+,}$m/$sub"
	done
done
if [ "$nfile" -eq 0 ]; then
	skip "ext4 store filesystems" "no disks"
elif [ $ready -eq 1 ]; then
	ok "ext4 store filesystems on $nfile disks"
else
	not_ok "ext4 store filesystems on $nfile disks"
fi

# A 16 MiB ext4 on a loop device over a file in /tmp, for ENOSPC.
fulldir=""
truncate -s 16M /tmp/tiny.img 2>/dev/null || dd if=/dev/zero of=/tmp/tiny.img bs=1M count=16 2>/dev/null
if mkfs_ext4 /tmp/tiny.img >/tmp/mkfs.out 2>&1 && mkdir -p /mnt/tiny &&
	mount -t ext4 -o loop /tmp/tiny.img /mnt/tiny && mkdir -p /mnt/tiny/store; then
	fulldir=/mnt/tiny/store
	mounts="$mounts /mnt/tiny"
	ok "small ext4 for ENOSPC"
else
	not_ok "small ext4 for ENOSPC" "$(tail -n 3 /tmp/mkfs.out)"
fi

# Block stores: the raw disks after the file store disks.
i=$nfile
while [ $i -lt "$ORE_DISKS" ]; do
	bdevs="$bdevs${bdevs:+,}$(disk $i)"
	i=$((i + 1))
done
diag "dirs=$dirs bdevs=$bdevs fulldir=$fulldir"

if ! ko=$(ore_ko ore); then
	skip "ore.ko loads" "ore.ko not built"
	skip "ore_test" "ore.ko not built"
	skip "ore.ko unloads" "ore.ko not built"
elif load_mod "$ko"; then
	ok "ore.ko loads"
	seed=""
	for a in $ORE_ARGS; do
		case "$a" in seed=*) seed=$a ;; esac
	done
	ktap_module ore_test ore_test ${dirs:+dirs=$dirs} ${bdevs:+bdevs=$bdevs} \
		${fulldir:+fulldir=$fulldir} $seed
	if mod_loaded ore_test; then
		not_ok "ore.ko unloads" "ore_test is still loaded"
	else
		check "ore.ko unloads" rmmod ore
	fi
else
	skip "ore_test" "ore.ko did not load"
	skip "ore.ko unloads" "ore.ko did not load"
fi

if [ -z "$notreg" ]; then
	skip "a symlinked object's target is not written" "no special files"
else
	check "a symlinked object's target is not written" \
		sh -c "[ \"\$(cat $notreg/5ee9)\" = victim ] && rm -rf $notreg/5ee[0-3]"
fi

bad=""
for m in $mounts; do
	umount "$m" 2>/tmp/umount.out || bad="$bad $m: $(cat /tmp/umount.out)"
done
if [ -z "$bad" ]; then
	ok "store filesystems unmount"
else
	not_ok "store filesystems unmount" "$bad"
fi

if dmesg | grep -qiE 'ore: .*leak'; then
	not_ok "ore.ko reports no leaks" "$(dmesg | grep -iE 'ore: .*leak' | head -n 3)"
else
	ok "ore.ko reports no leaks"
fi

ktap_done
