#!/bin/sh
# A kernel source subset (tests/guest/exofs_lib.sh tree_tar: 3299 entries,
# 31 MB) copied onto exofs through the pNFS objects layout (issue 13):
# the set-up of tests/guest/pnfs_lib.sh (exofs RAID5, stripe unit 16K, over
# 4 ext4 stores as the MDS, the store directories as NFSv3 data servers,
# the client with NFSv4.1 and objlayoutdriver), then cp -a of the tree
# into the client's mount. Checks: the tree (metadata and contents) is the
# same seen from the client after it dropped its caches and seen on the MDS
# (exofs reading its stores), the file data went through layouts, and
# fsck.exofs (the parity of every file) is clean. The data servers are at
# 127.0.0.2-5 (PNFS_DS_DISTINCT), one NFS client and connection each, as
# on machines of their own. Needs 4 disks; make nfsd.
. /ore/tests/lib.sh
. /ore/tests/exofs_lib.sh
PNFS_DS_DISTINCT=1
. /ore/tests/pnfs_lib.sh

ktap_plan 12

C=/tmp/pn
REF=/tmp/ref/linux-source-6.12

pnfs_require
reference() {
	t=$(tree_tar) && mkdir -p /tmp/ref && tar -xf "$t" -C /tmp/ref && [ -d $REF ]
}
check "reference tree in tmpfs" reference
diag "reference: $(find $REF -type f | wc -l) files, $(du -sm $REF | cut -f1) MiB"
exofs_load || ktap_done
exofs_stores_ext4 4 || ktap_done
check "mkfs.exofs --raid 5 over 4 stores" sh -c \
	"mkfs.exofs -f --checksum none --raid 5 --stripe-unit 16K -L pnfstree $EXOFS_STORES > /tmp/mkfs.out 2>&1"
setup() {
	exofs_mount "" $E && pnfs_load_nfsd && pnfs_data_servers /tmp/mkfs.out &&
	pnfs_nfs_server 4 8 || return 1
	for i in 0 1 2 3; do pnfs_ds_mount $i || return 1; done
	insmod /ore/objlayoutdriver.ko || return 1
	for i in 0 1 2 3; do echo $H/tmp/dsm/s$i > $CP/stores || return 1; done
	pnfs_mount_mds $C
}
check "MDS, data servers and the client's objects-layout mount" setup
fail_fast

w0=$(cat $CP/write_bytes)
t0=$(awk '{ print int($1) }' /proc/uptime)
check "cp -a of the tree through the client, sync" sh -c "cp -a $REF $H$C/ && sync"
diag "copy: $(($(awk '{ print int($1) }' /proc/uptime) - t0)) s; driver writes $(cat $CP/writes), bytes $(cat $CP/write_bytes), layouts $(cat $CP/layouts), mds_fallbacks $(cat $CP/mds_fallbacks), write_redone $(cat $CP/write_redone)"
# /proc/net/tcp: remote address (hex, little-endian) and port 0801, state
# 01 (established)
ds_conns() {
	awk '$3 ~ /^0[2-5]00007F:0801$/ && $4 == "01" { print $3 }' /proc/net/tcp | sort -u
}
conns() {
	[ "$(grep -c '^127.0.0.[2-5]:/tmp/ds/s[0-3] ' /proc/mounts)" = 4 ] &&
		[ "$(ds_conns | wc -l)" = 4 ]
}
check "the client's data-server mounts: 4 addresses, a connection to each" conns
diag "data-server connections: $(ds_conns | tr '\n' ' ')"
# Files whose data is all in one partial page still go through layouts;
# the tree's file bytes (du is in blocks, so count the sizes).
tb=$(find $REF -type f -exec stat -c %s {} + | awk '{ s += $1 } END { print s }')
check "the file data went through layouts (write_bytes grew by >= the tree's $tb bytes)" \
	[ $(($(cat $CP/write_bytes) - w0)) -ge "$tb" ]
client_view() {
	echo 3 > /proc/sys/vm/drop_caches
	tree_compare $REF $H$C/linux-source-6.12
}
check "the tree seen from the client, caches dropped, is the reference" client_view
check "the tree seen on the MDS is the reference" tree_compare $REF $E/linux-source-6.12
check "unmount the client, unload objlayoutdriver, stop nfsd" sh -c "
	umount $H$C && rmmod objlayoutdriver &&
	for i in 0 1 2 3; do umount $H/tmp/dsm/s\$i || exit 1; done &&
	hostrun exportfs -ua && hostrun rpc.nfsd 0 && sleep 1 && rmmod exofs_pnfs &&
	for i in 0 1 2 3; do umount $H/tmp/ds/s\$i || exit 1; done && umount $E"
check "fsck.exofs is clean (the parity of every file the client wrote)" exofs_fsck
ktap_done
