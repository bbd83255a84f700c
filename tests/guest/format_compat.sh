#!/bin/sh
# format_compat: the on-disk formats did not change. An exofs and an oreblk
# array are made and written by the previous release (COMPAT_REV of
# tools/Makefile: its mkfs.exofs, tools/oreblk and modules, built on the
# host by `make -C tools compat` into build/compat/REV/, read here through
# the host share): an exofs with directories, files, short and long
# symlinks, a hard link, a FIFO and device nodes; a RAID5 array written,
# then degraded by failing a member (the old kernel rewrites the member
# superblocks) and written again. Then, with the current modules and tools:
# fsck.exofs passes the old image, it mounts with every name, attribute and
# byte as the old module left them, takes changes, and the old fsck.exofs
# passes what the new module wrote; oreblk examine and oreblk_check accept
# the old members, the array assembles degraded with its data, and the old
# tools/oreblk accepts the superblocks the new kernel wrote; and
# tools/oreblk create writes the superblocks the old one did, byte for byte
# (random bytes and time fixed by build/compat/detrand.so).
# tools/test_compat.sh compares the two mkfs.exofs byte for byte.
#
# CHECK: format_compat --disks 4 --disk-size 64M --timeout 900
. /ore/tests/lib.sh
. /ore/tests/exofs_lib.sh
. /ore/tests/oreblk_lib.sh

PLAN=27
ktap_plan $PLAN
REV=$(sed -n 's/^COMPAT_REV ?= //p' "$ORE_HOST$ORE_HOSTREPO/tools/Makefile" 2>/dev/null)
OLD=$ORE_HOST$ORE_HOSTREPO/build/compat/$REV
if [ -z "$REV" ] || [ ! -f "$OLD/modules.stamp" ] ||
   [ ! -f "$ORE_HOST$ORE_HOSTREPO/build/compat/detrand.so" ] || [ "$ORE_DISKS" -lt 4 ]; then
	while [ $ORE_N -lt $PLAN ]; do
		skip "format compatibility" "no build of ${REV:-COMPAT_REV} in build/compat (make -C tools compat) or fewer than 4 disks"
	done
	ktap_done
fi
M=$EXOFS_MNT
A=/dev/oreblk0
V0=$(disk 0) V1=$(disk 1) V2=$(disk 2) V3=$(disk 3)
REF=/tmp/ref.img
BLKS=4096			# dd writes go to the first 16 MiB

# manifest DIR: every name with its type, mode, links, size, mtime, device
# numbers, symlink target and file checksum, sorted.
manifest() {
	(cd "$1" && find . | sort | while read -r f; do
		s=$(stat -c '%F %a %h %s %Y %t:%T' "$f")
		if [ -L "$f" ]; then
			echo "$f $s -> $(readlink "$f")"
		elif [ -f "$f" ]; then
			echo "$f $s $(md5sum < "$f")"
		else
			echo "$f $s"
		fi
	done)
}

populate() {
	mkdir -p $M/a/b/c $M/d $M/e || return 1
	echo hello > $M/a/f1
	head -c 40000 /dev/urandom > $M/a/b/f2
	dd if=/dev/urandom of=$M/d/big bs=4096 count=75 2>/dev/null
	ln -s f1 $M/a/sym
	ln -s "$(printf 'y%.0s' $(seq 1 126))" $M/a/sym126
	ln -s "$(printf 'x%.0s' $(seq 1 300))" $M/a/longsym
	ln $M/a/f1 $M/d/hard
	mkfifo $M/d/fifo
	mknod $M/d/null c 1 3
	mknod $M/d/loop b 7 0
	chmod 0640 $M/a/b/f2
	i=0; while [ $i -lt 300 ]; do : > $M/e/name-of-file-$i; i=$((i + 1)); done
	rm -f $M/e/name-of-file-1*
	touch -d '2001-02-03 04:05:06' $M/a/f1
}

# ---------------------------------------------------- the previous release
diag "previous release: $REV"
check "load $REV's ore.ko, exofs.ko and oreblk.ko" sh -c \
	"insmod $OLD/ore.ko && insmod $OLD/exofs.ko && insmod $OLD/oreblk.ko"
fail_fast
exofs_stores_tmpfs 4 32m && ok "4 tmpfs stores" || not_ok "4 tmpfs stores"
check "$REV: mkfs.exofs --raid 5 --stripe-unit 4K" \
	"$OLD/mkfs.exofs" -q -f --raid 5 --stripe-unit 4K --max-inodes 4096 $EXOFS_STORES
check "$REV: mount" exofs_mount
fail_fast
check "$REV: populate (files, directories, symlinks, hard link, FIFO, devices)" populate
manifest $M > /tmp/manifest.old
diag "manifest: $(wc -l < /tmp/manifest.old) names, $(grep -c ' -> ' /tmp/manifest.old) symlinks, $(grep -c ' regular ' /tmp/manifest.old) regular files"
check "$REV: umount" exofs_umount
check "$REV: its fsck.exofs --strict passes" "$OLD/fsck.exofs" --strict $EXOFS_STORES

truncate -s $((BLKS * 4))K $REF
check "$REV: oreblk create raid5 over 4 disks" \
	"$OLD/oreblk" create $A --raid 5 --chunk 64K -n 4 --size 16M $V0 $V1 $V2 $V3
fail_fast
check "$REV: 100 random writes" ob_writes $A $REF 1 100 $BLKS
check "$REV: oreblk fail member 2 (superblocks rewritten)" "$OLD/oreblk" fail $A 2
check "$REV: 50 degraded writes" ob_writes $A $REF 2 50 $BLKS
check "$REV: oreblk stop" "$OLD/oreblk" stop $A
check "unload $REV's modules" sh -c "rmmod oreblk && rmmod exofs && rmmod ore"

# ---------------------------------------------------- the current code
exofs_load
ob_load
fail_fast
check "fsck.exofs --strict passes $REV's image" exofs_fsck
check "mount $REV's image read-only" exofs_mount ro
same_manifest() {
	manifest $M > /tmp/manifest.new && diff /tmp/manifest.old /tmp/manifest.new
}
check "every name, attribute and byte as $REV left them" same_manifest
umount $M
change() {
	exofs_mount || return 1
	echo new > $M/a/new && mkdir $M/a/newdir && ln -s new $M/a/newsym &&
	rm $M/a/f1 $M/e/name-of-file-2 &&
	dd if=/dev/urandom of=$M/d/big bs=4096 seek=10 count=5 conv=notrunc 2>/dev/null &&
	exofs_umount
}
check "mount read-write, change it, umount" change
check "fsck.exofs --strict passes it" exofs_fsck
check "$REV's fsck.exofs --strict passes what this exofs.ko wrote" \
	"$OLD/fsck.exofs" --strict $EXOFS_STORES

check "oreblk examine accepts $REV's members (member 2 faulty)" sh -c \
	"oreblk examine $V0 $V1 $V2 $V3 | grep -q 'member state : A A F A'"
check "oreblk_check: parity of $REV's array" oreblk_check $V0 $V1 $V2 $V3
check "oreblk assemble $REV's array (degraded)" sh -c \
	"oreblk assemble $A $V0 $V1 $V2 $V3 && [ \$(cat /sys/block/oreblk0/ore/degraded) = 1 ]"
check "the data $REV wrote reads back" ob_same $A $REF 16
oreblk stop $A
check "$REV's oreblk examine accepts the superblocks this oreblk.ko wrote" \
	"$OLD/oreblk" examine $V0 $V1 $V3

# sbs TOOL OUT [ARGS]: TOOL create (random bytes and time fixed by
# detrand.so) writes the member superblocks, copied to OUT.0 .. OUT.3
sbs() {
	local i=0 v tool=$1 out=$2
	shift 2
	LD_PRELOAD=$SHIM "$tool" create $A --raid 6 --chunk 32K -n 4 --size 8M \
		--name compat --assume-clean --force "$@" $V0 $V1 $V2 $V3 >/dev/null || return 1
	oreblk stop $A >/dev/null || return 1
	for v in $V0 $V1 $V2 $V3; do
		dd if=$v of="$out.$i" bs=4096 skip=1 count=1 iflag=direct 2>/dev/null || return 1
		i=$((i + 1))
	done
}
same_sbs() {
	local i
	# the write-intent bitmap (the new default) is what the old tool lacked
	sbs "$OLD/oreblk" /tmp/sb.old &&
		sbs oreblk /tmp/sb.new --consistency-policy resync || return 1
	diag "array uuid of both:$(od -An -tx1 -j16 -N16 /tmp/sb.new.0)"
	for i in 0 1 2 3; do cmp /tmp/sb.old.$i /tmp/sb.new.$i || return 1; done
}
SHIM=$ORE_HOST$ORE_HOSTREPO/build/compat/detrand.so
check "oreblk create --consistency-policy resync writes the superblocks $REV's did, byte for byte" same_sbs
ktap_done
