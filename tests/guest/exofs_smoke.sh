#!/bin/sh
# exofs smoke test: mkfs.exofs RAID5 over 4 ext4 stores, mount, a few POSIX
# operations, the sysfs counters, unmount, remount and check, a degraded
# read-only mount with one store missing, the mount errors (wrong order,
# missing store without -o degraded), and module unload. Needs 4 disks.
. /ore/tests/lib.sh
. /ore/tests/exofs_lib.sh

ktap_plan 26

M=$EXOFS_MNT
mark=$(dmesg_lines)

exofs_load || ktap_done
exofs_stores_ext4 4 || ktap_done
check "mkfs.exofs --raid 5 over 4 stores" exofs_mkfs --raid 5 --stripe-unit 16K -L smoke
check "mount" exofs_mount
fail_fast
check "/proc/mounts shows stores= and the layout" \
	grep -q "^none $M exofs .*stores=$(stores_opt).*raid=5,stripe_unit=16384" /proc/mounts

# A 3 MiB pattern, a small file, a directory tree, a symlink, a hard link.
dd if=/dev/urandom of=/tmp/big bs=64k count=48 2>/dev/null
check "write a 3 MiB file" cp /tmp/big $M/big
check "small file, mkdir, symlinks, hard link, rename" sh -c "
	echo hello > $M/small &&
	mkdir -p $M/d1/d2 && echo deep > $M/d1/d2/f &&
	ln -s small $M/sl && ln -s $(printf 'x%.0s' $(seq 1 200)) $M/longsl &&
	ln $M/small $M/hard && mv $M/d1/d2/f $M/d1/g && mkfifo $M/fifo"
check "fsync'd data reads back before unmount" sh -c \
	"sync && echo 3 > /proc/sys/vm/drop_caches && cmp /tmp/big $M/big"
check "unlink of an open file keeps its data" sh -c "
	cp /tmp/big $M/open && exec 3<$M/open && rm $M/open &&
	cmp - /tmp/big <&3"
check "truncate and sparse write past 4 GiB" sh -c "
	truncate -s 100000 $M/big2 && dd if=/tmp/big of=$M/big2 bs=64k count=1 \
	seek=$((5 * 16384)) conv=notrunc 2>/dev/null &&
	[ \$(stat -c %s $M/big2) = $((5 * 1024 * 1024 * 1024 + 65536)) ]"
full=$(cat /sys/fs/exofs/*/full_stripe_writes 2>/dev/null)
part=$(cat /sys/fs/exofs/*/partial_stripe_writes 2>/dev/null)
diag "full_stripe_writes=$full partial_stripe_writes=$part percent=$(cat /sys/fs/exofs/*/full_stripe_percent 2>/dev/null)"
if [ -n "$full" ] && [ "$full" -gt 0 ]; then
	ok "sysfs counts full-stripe writes"
else
	not_ok "sysfs counts full-stripe writes" "full=$full partial=$part"
fi
check "umount" exofs_umount
check "remount" exofs_mount
check "everything is there after remount" sh -c "
	cmp /tmp/big $M/big && [ \"\$(cat $M/small)\" = hello ] &&
	[ \"\$(cat $M/d1/g)\" = deep ] && [ \"\$(readlink $M/sl)\" = small ] &&
	[ \$(readlink $M/longsl | wc -c) = 201 ] &&
	[ \$(stat -c %h $M/small) = 2 ] && [ -p $M/fifo ] && [ ! -e $M/open ] &&
	[ \$(stat -c %s $M/big2) = $((5 * 1024 * 1024 * 1024 + 65536)) ] &&
	dd if=$M/big2 bs=64k skip=$((5 * 16384)) 2>/dev/null | cmp - /tmp/big -n 65536 &&
	[ \$(dd if=$M/big2 bs=64k count=1 skip=100 2>/dev/null | tr -d '\0' | wc -c) = 0 ]"
check "rm -r and rmdir" sh -c "rm -r $M/d1 && rm $M/big2 && [ ! -e $M/d1 ]"
check "remount read-only refuses writes" sh -c \
	"mount -o remount,ro $M && ! touch $M/ro 2>/dev/null && grep -q '^none $M exofs ro' /proc/mounts"
check "remount read-write accepts writes" sh -c \
	"mount -o remount,rw $M && touch $M/rw && [ -e $M/rw ]"
check "umount again" exofs_umount
check "fsck.exofs is clean" exofs_fsck

# One store's superblock copy damaged (a label byte): repaired from the rest.
set -- $EXOFS_STORES
printf 'X' | dd of=$2/10000 bs=1 seek=60 conv=notrunc 2>/dev/null
m2=$(dmesg_lines)
check "a damaged superblock copy is used from the others and rewritten" sh -c \
	"mount -t exofs -o stores=$(stores_opt) none $M && [ -e $M/rw ] && umount $M &&
	 dmesg | tail -n +$((m2 + 1)) | grep -q 'damaged superblock'"
m2=$(dmesg_lines)
check "after the rewrite the copy is good again" sh -c \
	"mount -t exofs -o stores=$(stores_opt) none $M && umount $M &&
	 ! dmesg | tail -n +$((m2 + 1)) | grep -q 'corrupt\|damaged'"

set -- $EXOFS_STORES
check "wrong store order is refused" sh -c \
	"! mount -t exofs -o stores=$2:$1:$3:$4 none $M 2>/dev/null && dmesg | tail -n 5 | grep -q 'wrong store order'"
check "a missing store without -o degraded is refused" sh -c \
	"! mount -t exofs -o stores=$1:$2:missing:$4 none $M 2>/dev/null"
check "degraded mount with store 2 missing" exofs_mount_with "$1:$2:missing:$4" degraded
check "degraded mount is read-only and reads everything" sh -c "
	grep -q '^none $M exofs ro' /proc/mounts && cmp /tmp/big $M/big &&
	[ \"\$(cat $M/small)\" = hello ] && ! touch $M/new 2>/dev/null"
exofs_umount
check "rmmod exofs and ore: no warning, no leak" sh -c \
	"rmmod exofs && rmmod ore &&
	 ! dmesg | tail -n +$((mark + 1)) | grep -E 'WARNING|leak|Busy inodes|BUG'"
ktap_done
