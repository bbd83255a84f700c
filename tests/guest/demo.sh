#!/bin/sh
# `make demo`: the main job. mkfs.exofs RAID5 over 4 stores (ext4 on each
# virtio disk), mount, copy a real tree (a subset of Debian's
# linux-source-6.12), unmount, remount, verify every file, mode, size and
# mtime, then show the layout and the figures. Prints KTAP too, so the
# harness reports pass/fail.
. /ore/tests/lib.sh
. /ore/tests/exofs_lib.sh

ktap_plan 11
echo "# == guest: $(cat /proc/version)"
exofs_load || ktap_done
exofs_stores_ext4 4 || ktap_done
t0=$(now_cs)
if t=$(tree_tar) && mkdir -p /tmp/ref && tar -xf "$t" -C /tmp/ref; then
	ok "reference tree: $(find /tmp/ref -type f | wc -l) files, $(du -sm /tmp/ref | cut -f1) MiB in tmpfs ($(secs_since $t0) s)"
else
	not_ok "reference tree from $t"
	ktap_done
fi

echo "# == mkfs.exofs --raid 5 --stripe-unit 64K over $EXOFS_STORES"
if exofs_mkfs --raid 5 --stripe-unit 64K -L demo; then
	ok "mkfs.exofs RAID5 over 4 stores"
else
	not_ok "mkfs.exofs RAID5 over 4 stores"
fi
check "mount -t exofs -o stores=$(stores_opt)" exofs_mount
grep exofs /proc/mounts | sed 's/^/# /'

t0=$(now_cs)
check "copy the tree into exofs" cp -a /tmp/ref/linux-source-6.12 $EXOFS_MNT/
copy_s=$(secs_since $t0)
echo "# copied in $copy_s s"
t0=$(now_cs)
check "sync (writeback through ORE to the stores)" sync -f $EXOFS_MNT
echo "# synced in $(secs_since $t0) s"
df -h $EXOFS_MNT | sed 's/^/# /'
echo "# == counters after sync"
exofs_counters | sed 's/^/# /'
check "umount" exofs_umount
check "remount" exofs_mount
t0=$(now_cs)
check "every file, mode, size and mtime equal after remount" \
	tree_compare /tmp/ref/linux-source-6.12 $EXOFS_MNT/linux-source-6.12
echo "# verified in $(secs_since $t0) s"
exofs_umount
check "fsck.exofs clean (superblocks, inodes, directories, parity)" exofs_fsck
echo "# == what the stores hold"
for s in $EXOFS_STORES; do
	echo "# $s: $(ls $s | wc -l) objects, $(du -sm $s | cut -f1) MiB"
done
ktap_done
