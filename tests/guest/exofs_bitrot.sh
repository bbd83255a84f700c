#!/bin/sh
# exofs: data checksums catch bitrot and heal it (issue 12).
# For RAID1 (2 copies over 4 stores), RAID5 over 4 and RAID6 over 5 ext4
# stores, made with mkfs.exofs's defaults (XXH64 checksums; the RAID5 one
# with --checksum crc32c): a file of random data is written; with the
# filesystem unmounted, bytes of its first block are flipped in component
# 0's file on its store (dd on the backing file).
# Mounted again, with caches dropped: the file reads back right, the
# checksum counters move, and the block on the store is the original again
# (read on the store directly after the unmount); a scrub check then finds
# nothing. Then the first block of every component of the file is
# corrupted (every copy, data and parity): the read fails with EIO, the
# kernel log names the object, and no wrong byte is returned; rewriting the
# file heals it; fsck.exofs reports the corruption before and is clean
# after. The same over vfat stores, whose filesystem has no extended
# attributes: the checksums of the first 64 KiB of each component, kept in
# its head (an extended attribute) elsewhere, all go to its side file.
# Also: --checksum none makes a filesystem without checksums, where
# the same flip goes undetected (the test can tell the two apart).
#
# CHECK: exofs_bitrot --disks 5 --disk-size 128M --timeout 600
. /ore/tests/lib.sh
. /ore/tests/exofs_lib.sh

M=$EXOFS_MNT
ktap_plan 125

exofs_load || ktap_done
exofs_stores_ext4 5 || ktap_done
ALL5=$EXOFS_STORES
ALL4=$(echo $ALL5 | cut -d' ' -f1-4)

sysf() { cat "$(exofs_sysdir)/$1"; }
drop() { sync; echo 3 > /proc/sys/vm/drop_caches; }

# wait_repairs N: checksum_repairs reaches N (the repair is queued)
wait_repairs() {
	local n=0
	while [ "$(sysf checksum_repairs)" -lt "$1" ]; do
		n=$((n + 1))
		[ $n -lt 100 ] || { echo "checksum_repairs $(sysf checksum_repairs), errors $(sysf checksum_errors)"; return 1; }
		sleep 0.1
	done
}

# one NAME NSTORES MIRRORS TYPE MKFS_ARGS...: TYPE the checksums expected
one() {
	local name=$1 n=$2 m=$3 type=$4 f sf ino i
	shift 4
	if [ "$n" = 5 ]; then EXOFS_STORES=$ALL5; else EXOFS_STORES=$ALL4; fi
	check "$name: mkfs.exofs $*" exofs_mkfs -q "$@"
	check "$name: mount" exofs_mount
	check "$name: checksums is $type" sh -c "[ \"\$(cat $(exofs_sysdir)/checksums)\" = $type ]"
	check "$name: write a 1 MiB file" sh -c \
		"dd if=/dev/urandom of=/tmp/data bs=64K count=16 2>/dev/null && cp /tmp/data $M/f && sync"
	ino=$(stat -c %i $M/f)
	f=$(comp_file "$ino" "$n" 0 "$m")
	diag "$name: component 0 is $f"
	check "$name: a 10 KiB file" sh -c \
		"head -c 10240 /tmp/data > $M/small && sync"
	sf=$(comp_file "$(stat -c %i $M/small)" "$n" 0 "$m")
	check "$name: umount" exofs_umount
	if [ "$HEADS" = yes ]; then
		# entries of the first 64 KiB in the head, 16 of them for f, 2
		# or 3 for the small file (its EOF page may go whole), no side
		# file
		check "$name: the head of component 0 has 16 entries, its side file the rest" sh -c \
			"[ \$(fsop xattr get $f user.ore.csum | tr -d '\n' | wc -c) = 128 ] && [ -s $f.csum ]"
		check "$name: the small file's component 0 has a head of 2-3 entries, no side file" sh -c \
			"fsop xattr get $sf user.ore.csum | grep -qxE '[0-9a-f]{16}|[0-9a-f]{24}' && [ ! -e $sf.csum ]"
	else
		# no user extended attributes: every entry in the side files
		check "$name: no heads: component 0's entries all in its side file" sh -c \
			"! fsop xattr get $f user.ore.csum && [ \$(stat -c %s $f.csum) -ge 64 ]"
		check "$name: no heads: the small file's component 0 has a side file" sh -c \
			"! fsop xattr get $sf user.ore.csum && [ -s $sf.csum ]"
	fi
	dd if="$f" of=/tmp/orig bs=4096 count=1 2>/dev/null
	check "$name: 16 bytes of block 0 of component 0 flipped" flip "$f"
	check "$name: mount" exofs_mount
	drop
	check "$name: the file reads back right" cmp /tmp/data $M/f
	check "$name: the block is rewritten (checksum_repairs 1)" wait_repairs 1
	check "$name: checksum_errors 1" sh -c "[ \$(cat $(exofs_sysdir)/checksum_errors) = 1 ]"
	check "$name: a scrub check finds nothing" exofs_scrub check
	check "$name: umount" exofs_umount
	check "$name: the block on the store is the original again" sh -c \
		"dd if=$f bs=4096 count=1 2>/dev/null | cmp - /tmp/orig"
	check "$name: fsck.exofs clean" exofs_fsck

	# every copy of block 0 bad: the first block of every component (the
	# object has one per store), data, mirrors and parity
	i=0
	while [ $i -lt "$n" ]; do
		flip "$(comp_file "$ino" "$n" $i "$m")" || break
		i=$((i + 1))
	done
	check "$name: the first block of all $n components flipped" [ $i = "$n" ]
	check "$name: fsck.exofs reports the checksum errors" sh -c \
		"! fsck.exofs $EXOFS_STORES > /tmp/fsck.out 2>&1 && grep -qi checksum /tmp/fsck.out"
	check "$name: mount" exofs_mount
	drop
	dmesg -c > /dev/null
	check "$name: every copy bad: the read fails with EIO" sh -c \
		"! dd if=$M/f of=/dev/null bs=4096 count=1 2>/tmp/dd.err && grep -q 'Input/output error' /tmp/dd.err"
	check "$name: the kernel log names the object" sh -c \
		"dmesg | grep -qE '(oid|object) 0x$(printf '%x' $(( 0x20000 + ino )))'"
	check "$name: the file rewritten reads back" sh -c \
		"cp /tmp/data $M/f && sync && echo 3 > /proc/sys/vm/drop_caches && cmp /tmp/data $M/f"
	check "$name: umount" exofs_umount
	check "$name: fsck.exofs clean after the rewrite" exofs_fsck
}

HEADS=yes
one raid1 4 2 xxh64 --raid 1
one raid5 4 1 crc32c --raid 5 --checksum crc32c
one raid6 5 1 xxh64 --raid 6

# A write's read-for-write meets a bad block: columns 1 and 2 of a RAID5
# stripe rewritten, the reconstruct-write reads column 0 (it reads as few
# pages as a read-modify-write, and ties go to it), whose first block is
# flipped. It is rebuilt for the parity, and rewritten on its store too:
# the write queues the repair as a read does.
EXOFS_STORES=$ALL4
check "r4w: mkfs.exofs --raid 5" exofs_mkfs -q --raid 5
check "r4w: mount" exofs_mount
check "r4w: a 192 KiB file (one stripe)" sh -c \
	"head -c 196608 /tmp/data > $M/g && sync"
f=$(comp_file "$(stat -c %i $M/g)" 4 0 1)
check "r4w: umount" exofs_umount
dd if="$f" of=/tmp/orig bs=4096 count=1 2>/dev/null
check "r4w: 16 bytes of block 0 of component 0 (column 0) flipped" flip "$f"
check "r4w: mount" exofs_mount
drop
check "r4w: columns 1 and 2 rewritten" sh -c \
	"dd if=/tmp/data of=$M/g bs=64K skip=4 seek=1 count=2 conv=notrunc 2>/dev/null && sync"
check "r4w: the bad block is rewritten (checksum_repairs 1)" wait_repairs 1
check "r4w: the file reads back right" sh -c \
	"{ head -c 65536 /tmp/data; dd if=/tmp/data bs=64K skip=4 count=2 2>/dev/null; } > /tmp/want && sync && echo 3 > /proc/sys/vm/drop_caches && cmp /tmp/want $M/g"
check "r4w: umount" exofs_umount
check "r4w: the block on the store is the original again" sh -c \
	"dd if=$f bs=4096 count=1 2>/dev/null | cmp - /tmp/orig"
check "r4w: fsck.exofs clean" exofs_fsck

# Stores on a filesystem without user extended attributes (vfat, on loop
# devices over files in the guest's memory): the kernel and the tools keep
# every entry in the side files
EXT4=$ALL4
ALL4="/stores/v0 /stores/v1 /stores/v2 /stores/v3"
mkdir -p /stores/img
mount -t tmpfs -o size=200M tmpfs /stores/img
for v in $ALL4; do
	img=/stores/img/${v##*/}
	dd if=/dev/zero of=$img bs=1M count=40 2>/dev/null &&
		mkdosfs $img > /dev/null 2>&1 && mkdir -p $v &&
		mount -t vfat -o loop $img $v
done
check "vfat stores" sh -c "[ \$(grep -c ' /stores/v[0-3] vfat ' /proc/mounts) = 4 ]"
HEADS=no
one vfat-raid5 4 1 xxh64 --raid 5
ALL4=$EXT4

# Without checksums the same flip is not seen (the read returns it)
EXOFS_STORES=$ALL4
check "none: mkfs.exofs --checksum none" exofs_mkfs -q --raid 5 --checksum none
check "none: mount" exofs_mount
check "none: checksums is none" sh -c "[ \"\$(cat $(exofs_sysdir)/checksums)\" = none ]"
check "none: write" sh -c "cp /tmp/data $M/f && sync"
f=$(comp_file "$(stat -c %i $M/f)" 4 0 1)
check "none: umount" exofs_umount
check "none: flip" flip "$f"
check "none: mount" exofs_mount
drop
check "none: the flipped bytes are read (nothing to tell)" sh -c "! cmp -s /tmp/data $M/f"
check "none: umount" exofs_umount
check "no kernel warning" sh -c "! dmesg | grep -q 'WARNING:\|BUG:'"
ktap_done
