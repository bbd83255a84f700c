#!/bin/sh
# pNFS with a degraded MDS (issue 13): exofs RAID5 over 4 ext4 stores,
# files written on the MDS, then mounted degraded with store 1 missing
# (read-only, docs/exofs) and exported. The layouts the MDS hands out name
# the missing store's component PNFS_OSD_MISSING, and the client rebuilds
# what it held from the parity itself: its reads go through the layout,
# degraded (the driver's "degraded" counter), and are right, with one
# layout for the file (nothing to report to the MDS); a write is
# refused (read-only export, no RW layout). Same set-up as
# exofs_pnfs_client.sh; make nfsd first.
. /ore/tests/lib.sh
. /ore/tests/exofs_lib.sh

ktap_plan 14

. /ore/tests/pnfs_lib.sh
c4=/tmp/nfs4
C4=$H$c4

pnfs_stores_mkfs "mkfs.exofs --raid 5 over 4 stores" \
	--checksum none --raid 5 --stripe-unit 16K -L pnfsdeg
dd if=/dev/urandom of=/tmp/big bs=64k count=40 2>/dev/null	# 2.5 MiB
files() {
	exofs_mount "" $E && cp /tmp/big $E/big && head -c 7000 /tmp/big > $E/small &&
		exofs_umount $E
}
check "files written on the MDS, unmounted" files
so=$(echo $EXOFS_STORES | awk '{ $2 = "missing"; print }' | tr ' ' ':')
check "degraded mount with store 1 missing ($so)" exofs_mount_with "$so" degraded $E
fail_fast
pnfs_serve_client $c4

cnt() { cat $CP/$1; }
r0=$(cnt read_bytes) d0=$(cnt degraded) g0=$(cat $PP/layoutgets)
check "the client reads the 2.5 MiB file right" sh -c "
	echo 3 > /proc/sys/vm/drop_caches && cmp /tmp/big $C4/big"
diag "driver: read_bytes $r0 -> $(cnt read_bytes), degraded $d0 -> $(cnt degraded), mds_fallbacks $(cnt mds_fallbacks); exofs_pnfs layoutgets $g0 -> $(cat $PP/layoutgets), unavailable $(cat $PP/unavailable)"
check "through its layout (read_bytes grew by the file size), degraded (store 1's component rebuilt)" sh -c "
	[ \$(( $(cnt read_bytes) - $r0 )) -ge 2621440 ] && [ $(cnt degraded) -gt $d0 ]"
# The MDS knows the store is missing (it named it so): nothing to report,
# so the client keeps its layout (returning it after every degraded read
# made it ask again for each: 17 LAYOUTGETs for this file)
check "one layout served the whole file (LAYOUTGETs grew by <= 2)" sh -c "
	[ \$(( $(cat $PP/layoutgets) - $g0 )) -le 2 ]"
check "the small file reads right" sh -c "head -c 7000 /tmp/big | cmp - $C4/small"
check "a write is refused (read-only MDS)" sh -c "! echo x 2>/dev/null > $C4/new && ! dd if=/tmp/big of=$C4/big bs=4k count=1 conv=notrunc 2>/dev/null"
check "the file is unchanged on the MDS" cmp /tmp/big $E/big
check "unmount the client, unload objlayoutdriver, stop nfsd" pnfs_stop
ktap_done
