#!/bin/sh
# The seeds' test: copy a real tree (a subset of Debian's linux-source-6.12,
# ~3300 files, cut on the host by `make -C tools tree`) into exofs over 4
# ext4 stores, unmount, remount, and compare every file byte for byte and
# every mode/size/mtime/owner with the tmpfs reference; on RAID0, RAID1 (2
# mirrors), RAID5 and RAID6. Then the degraded cases: RAID1/RAID5 with one
# store gone and RAID6 with two read everything back; one store more than
# the redundancy, and a degraded mount without "degraded", are refused.
# Needs 4 disks.
#
# Arguments (--args): the RAID levels to run, default "0 1 5 6".
. /ore/tests/lib.sh
. /ore/tests/exofs_lib.sh

shift	# the stage
LEVELS=${*:-0 1 5 6}
M=$EXOFS_MNT
REF=/tmp/ref/linux-source-6.12

plan=3
for l in $LEVELS; do
	plan=$((plan + 8))
	case $l in
	0) plan=$((plan + 1)) ;;
	1) plan=$((plan + 4)) ;;
	5) plan=$((plan + 15)) ;;
	6) plan=$((plan + 7)) ;;
	esac
done
ktap_plan $plan

exofs_load || ktap_done
exofs_stores_ext4 4 || ktap_done
t0=$(now_cs)
if t=$(tree_tar) && cp "$t" /tmp/tree.tar && mkdir -p /tmp/ref && tar -xf /tmp/tree.tar -C /tmp/ref; then
	ok "reference tree in tmpfs: $(find $REF -type f | wc -l) files, $(du -sm $REF | cut -f1) MiB ($(secs_since $t0) s)"
else
	not_ok "reference tree in tmpfs" "from $t"
fi
rm -f /tmp/tree.tar
fail_fast

# mounted: is exofs mounted on $M?
mounted() {
	grep -q "^[^ ]* $M exofs " /proc/mounts
}
# on_exofs CMD...: CMD, only when exofs is mounted on $M
on_exofs() {
	mounted || { echo "exofs is not mounted on $M"; return 1; }
	"$@"
}
copy_tree() {
	on_exofs cp -a "$REF" "$M/"
}
compare_tree() {
	on_exofs tree_compare "$REF" "$M/linux-source-6.12"
}
# timed DESC CMD...: check with the elapsed time in the description
timed() {
	local desc=$1 c rc
	shift
	c=$(now_cs)
	out=$("$@" 2>&1)
	rc=$?
	if [ $rc -eq 0 ]; then
		ok "$desc ($(secs_since $c) s)"
	else
		not_ok "$desc" "'$*' exited $rc"
		printf '%s\n' "$out" | tail -n 20 | sed 's/^/#   /'
	fi
}
# refused DESC STORES OPTS: a mount that must fail; shows the kernel's reason
refused() {
	local desc=$1 mark
	mark=$(dmesg_lines)
	if exofs_mount_with "$2" "$3" >/dev/null 2>&1; then
		not_ok "$desc" "mount succeeded"
		exofs_umount
	else
		ok "$desc"
		dmesg | tail -n +$((mark + 1)) | grep -i exofs | tail -n 2 | sed 's/^/#   kernel: /'
	fi
}
S0=/stores/s0 S1=/stores/s1 S2=/stores/s2 S3=/stores/s3

for l in $LEVELS; do
	case $l in
	1) args="--raid 1" ;;
	*) args="--raid $l" ;;
	esac
	check "raid$l: mkfs.exofs $args over 4 stores" exofs_mkfs $args
	check "raid$l: mount" exofs_mount
	timed "raid$l: cp -a the tree into exofs" copy_tree
	diag "raid$l: counters: $(exofs_counters | tr '\n' ';')"
	timed "raid$l: umount" exofs_umount
	timed "raid$l: fsck.exofs clean" exofs_fsck
	check "raid$l: mount again" exofs_mount
	timed "raid$l: every file, mode, size, mtime and owner equal" compare_tree
	check "raid$l: umount" exofs_umount

	case $l in
	0)
		refused "raid0: a missing store is refused even with degraded" \
			"$S0:missing:$S2:$S3" degraded
		;;
	1)
		check "raid1: mount degraded with store 1 missing" \
			exofs_mount_with "$S0:missing:$S2:$S3" degraded
		timed "raid1: degraded: everything reads back equal" compare_tree
		check "raid1: umount" exofs_umount
		refused "raid1: both copies of a component missing is refused" \
			"missing:missing:$S2:$S3" degraded
		;;
	5)
		refused "raid5: a missing store without 'degraded' is refused" \
			"$S0:missing:$S2:$S3" ""
		check "raid5: mount degraded with store 1 missing" \
			exofs_mount_with "$S0:missing:$S2:$S3" degraded
		timed "raid5: degraded: everything reads back equal" compare_tree
		expect_out=$(touch $M/newfile 2>&1)
		if [ -e $M/newfile ]; then
			not_ok "raid5: a degraded mount is read-only" "created a file"
		else
			ok "raid5: a degraded mount is read-only"
		fi
		check "raid5: umount" exofs_umount
		# a lost disk: the store directory is there but empty
		umount $S2
		check "raid5: mount degraded with store 2's disk gone (empty directory)" \
			exofs_mount degraded
		timed "raid5: degraded: everything reads back equal" compare_tree
		check "raid5: umount" exofs_umount
		refused "raid5: two stores gone is refused" "$S0:missing:$S2:$S3" degraded
		mount_ext4 "$(disk 2)" $S2
		refused "raid5: stores in the wrong order are refused" "$S0:$S2:$S1:$S3" ""
		refused "raid5: a store twice is refused" "$S0:$S1:$S1:$S3" ""
		check "raid5: all stores back: mount" exofs_mount
		timed "raid5: after the degraded mounts everything is equal" compare_tree
		check "raid5: umount" exofs_umount
		timed "raid5: fsck.exofs still clean" exofs_fsck
		;;
	6)
		umount $S3
		check "raid6: mount degraded with stores 0 and 3 gone" \
			exofs_mount_with "missing:$S1:$S2:$S3" degraded
		timed "raid6: degraded: everything reads back equal" compare_tree
		check "raid6: umount" exofs_umount
		refused "raid6: three stores gone is refused" "missing:missing:$S2:$S3" degraded
		mount_ext4 "$(disk 3)" $S3
		check "raid6: all stores back: mount" exofs_mount
		timed "raid6: after the degraded mount everything is equal" compare_tree
		check "raid6: umount" exofs_umount
		;;
	esac
done

ktap_done
