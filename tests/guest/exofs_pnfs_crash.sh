#!/bin/sh
# The MDS crashes while a pNFS client holds a RW layout (issues 12 and
# 13): the next mount repairs the parity of the regions the client was
# writing. Boot 1: exofs RAID5 over 4 ext4 stores (--checksum none, the
# intent record at its default) exported to the client of one guest (same
# set-up as exofs_pnfs_client.sh); after 11 s idle (the MDS's own regions
# leave the record) the client writes a 2.5 MiB file through its layout
# and keeps it open; 12 s later (the regions of the MDS's own writes,
# the inode record at the LAYOUTCOMMIT, gone again) the guest is reset
# with the layout out. Boot 2: the stores' ext4s are mounted again and
# exofs mounted: it must log regions with writes in flight and repair them
# (sysfs intent "recovered"), the file reads back right, fsck.exofs
# --strict is clean after the unmount.
#
# ORE_ARGS "unrecorded" sets exofs_pnfs's record_layouts to 0 in boot 1
# (the layout's regions not recorded): the mount then has nothing to
# repair and the test fails, as it must without the protection.
#
# ORE_ARGS "csumside": the exofs has XXH64 checksums in side files only
# (--checksum-heads no), which the client keeps; before the reset the
# entry of the file's first block on component 0 is made stale by hand
# (a crash between a block's data and its entry), and boot 2 also checks
# that the file reads with no checksum error: the mount restamped the
# layout's regions (with "unrecorded" too, the read meets the stale
# entry: a checksum error is counted and the check fails).
#
# make pnfs-check runs it: qemu/run.sh --disks 4 --disk-size 256M --stages 2
# --timeout 600 exofs_pnfs_crash (make nfsd first).
. /ore/tests/lib.sh
. /ore/tests/exofs_lib.sh
. /ore/tests/pnfs_lib.sh

c4=/tmp/nfs4
C4=$H$c4
# the file's bytes, the same on both boots
pattern() { dd if=/dev/zero bs=64k count=40 2>/dev/null | tr '\000' 'p'; }

case " $ORE_ARGS " in
*" csumside "*) CSUM="--checksum xxh64 --checksum-heads no" ;;
*) CSUM="--checksum none" ;;
esac

if [ "$ORE_STAGE" = 1 ]; then
	ktap_plan 8
	pnfs_stores_mkfs "mkfs.exofs --raid 5 over 4 stores, $CSUM, the intent record" \
		--raid 5 --stripe-unit 16K $CSUM -L pnfscrash
	check "mount exofs" exofs_mount "" $E
	fail_fast
	pnfs_serve_client $c4
	case " $ORE_ARGS " in
	*" unrecorded "*)
		echo 0 > $PP/record_layouts
		diag "record_layouts 0: the layouts' regions are not recorded" ;;
	esac
	pattern > /tmp/src
	sleep 11
	w0=$(cat $CP/write_bytes)
	pnfs_hold /tmp/src held
	check "the client wrote the held file through its layout" sh -c "
		[ -e /tmp/held.written ] && [ \$(cat $CP/write_bytes) -gt $w0 ]"
	check "the MDS has its size" sh -c "[ \$(stat -c %s $E/held) = 2621440 ]"
	sleep 12
	if [ "$CSUM" != "--checksum none" ]; then
		# a stale entry for block 0 of component 0 (a torn update)
		f=$(comp_file "$(stat -c %i $E/held)" 4 0 1).csum
		printf '\336\255\276\357' | dd of="$f" bs=4 count=1 conv=notrunc 2>/dev/null
		sync
		diag "entry 0 of $f made stale: $(od -An -tx1 -N4 "$f")"
	fi
	diag "before the reset: $(cat "$(exofs_sysdir)/intent")"
	guest_crash
	exit 0
fi

if [ "$CSUM" = "--checksum none" ]; then ktap_plan 7; else ktap_plan 8; fi
exofs_load || ktap_done
# (not through check: it sets EXOFS_STORES for the rest of the script)
if exofs_stores_remount 4; then
	ok "the stores' ext4s mount again"
else
	not_ok "the stores' ext4s mount again" "$(dmesg | tail -n 5)"
	ktap_done
fi
check "mount exofs" exofs_mount "" $E
fail_fast
dmesg | grep 'regions had writes in flight' | sed 's/^/# /'
diag "$(cat "$(exofs_sysdir)/intent")"
check "the mount repaired the regions of the layout (logged, sysfs recovered >= 1)" sh -c "
	dmesg | grep -q ': [1-9][0-9]* regions had writes in flight when the filesystem stopped: parity and mirrors repaired' &&
	[ \$(sed -n 's/.* recovered \([0-9]*\).*/\1/p' $(exofs_sysdir)/intent) -ge 1 ]"
reads_right() { pattern | cmp - $E/held; }
check "the held file reads back right" reads_right
[ "$CSUM" = "--checksum none" ] ||
	check "with no checksum error (the mount restamped the layout's regions)" sh -c "
		[ \$(cat $(exofs_sysdir)/checksum_errors) = 0 ]"
check "unmount" exofs_umount $E
check "fsck.exofs --strict is clean" exofs_fsck
ktap_done
