#!/bin/sh
# pNFS over an exofs with data checksums (mkfs.exofs's default; issues 12
# and 13): the clients' ORE keeps no checksums and cannot read the stores'
# heads over its NFSv3 mounts, so the MDS hands out no layout at all
# (LAYOUTUNAVAILABLE) and the client falls back to I/O through the MDS,
# which verifies every block. Checks: the client's writes and reads of a
# 2.5 MiB file go through the MDS (the driver moves no byte, exofs_pnfs
# counts the refusals, exofs writes the file) and are right; bytes flipped
# in a component on its data server are caught by the MDS's checksums when
# the client reads the file (the client gets the right bytes, the MDS
# counts and repairs the bad block) where a layout for reads would have
# handed the client the flipped bytes; fsck.exofs clean at the end.
# Same set-up as exofs_pnfs_client.sh; make nfsd first.
. /ore/tests/lib.sh
. /ore/tests/exofs_lib.sh

ktap_plan 17

. /ore/tests/pnfs_lib.sh
c4=/tmp/nfs4
C4=$H$c4

pnfs_stores_mkfs "mkfs.exofs --raid 5 over 4 stores, default checksums" \
	--raid 5 --stripe-unit 16K -L pnfscsum
check "mount exofs" exofs_mount "" $E
check "checksums xxh64" sh -c "[ \"\$(cat $(exofs_sysdir)/checksums)\" = xxh64 ]"
fail_fast
pnfs_serve_client $c4

cnt() { cat $CP/$1; }
ecnt() { cat "$(exofs_sysdir)/$1"; }

dd if=/dev/urandom of=/tmp/big bs=64k count=40 2>/dev/null	# 2.5 MiB
w0=$(cnt write_bytes) r0=$(cnt read_bytes) u0=$(cat $PP/unavailable)
ew0=$(ecnt write_ios)
check "a 2.5 MiB file written by the client is the same on the MDS" sh -c "
	cp /tmp/big $C4/big && sync && cmp /tmp/big $E/big"
diag "driver: write_bytes $w0 -> $(cnt write_bytes), mds_fallbacks $(cnt mds_fallbacks); exofs_pnfs unavailable $u0 -> $(cat $PP/unavailable), layoutgets $(cat $PP/layoutgets); exofs write_ios $ew0 -> $(ecnt write_ios)"
check "no layout: LAYOUTUNAVAILABLE counted, the driver wrote nothing, exofs wrote the file" sh -c "
	[ $(cat $PP/unavailable) -gt $u0 ] && [ $(cnt write_bytes) = $w0 ] &&
	[ $(ecnt write_ios) -gt $ew0 ]"
check "read back by the client after dropping the caches, through the MDS" sh -c "
	echo 3 > /proc/sys/vm/drop_caches && cmp /tmp/big $C4/big && [ \$(cat $CP/read_bytes) = $r0 ]"
diag "driver: read_bytes $r0 -> $(cnt read_bytes); exofs_pnfs unavailable $(cat $PP/unavailable), layoutgets $(cat $PP/layoutgets)"

# Bitrot on a data server: 16 bytes of component 0 (its first block)
# flipped under the MDS, on the store's ext4.
ino=$(stat -c %i $E/big)
f=$(comp_file "$ino" 4 0 1)
diag "component 0 of inode $ino is $f"
dd if="$f" of=/tmp/orig bs=4096 count=1 2>/dev/null
ce0=$(ecnt checksum_errors) cr0=$(ecnt checksum_repairs)
flipped() {
	flip "$f" && ! dd if="$f" bs=4096 count=1 2>/dev/null | cmp -s - /tmp/orig
}
check "16 bytes of component 0 flipped on its data server" flipped
check "the client reads the file right (the MDS verified and rebuilt the block)" sh -c "
	echo 3 > /proc/sys/vm/drop_caches && cmp /tmp/big $C4/big"
repaired() {
	local n=0
	[ "$(ecnt checksum_errors)" -gt "$ce0" ] || return 1
	while [ "$(ecnt checksum_repairs)" -le "$cr0" ]; do
		n=$((n + 1))
		[ $n -lt 100 ] || return 1
		sleep 0.1
	done
	dd if="$f" bs=4096 count=1 2>/dev/null | cmp - /tmp/orig
}
check "the MDS counted the bad block and rewrote it on the data server" repaired
diag "exofs checksum_errors $ce0 -> $(ecnt checksum_errors), checksum_repairs $cr0 -> $(ecnt checksum_repairs)"
check "the client's small files are right on the MDS" pnfs_small_files /tmp/big
check "the driver moved no byte: every I/O went through the MDS" sh -c "
	[ $(cnt write_bytes) = $w0 ] && [ $(cnt read_bytes) = $r0 ]"
check "unmount the client, unload objlayoutdriver, stop nfsd" pnfs_stop
check "fsck.exofs is clean" exofs_fsck
ktap_done
