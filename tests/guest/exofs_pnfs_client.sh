#!/bin/sh
# The pNFS objects layout end to end (issue 13): exofs RAID5 over 4 ext4
# stores is the metadata server (the patched nfsd.ko and exofs_pnfs.ko, as
# in exofs_pnfs_server.sh); each store directory is also exported with
# NFSv3 (the data servers: here the same nfsd, 127.0.0.1); the client
# mounts the four data-server exports (NFSv3, soft), gives them to
# objlayoutdriver.ko (its stores parameter), and mounts the MDS with
# NFSv4.1. Then the client's reads and writes go to the component objects
# on the data servers, striped and with parity computed by the client's
# ORE. Checks: the layout driver is the mount's (mountstats), files
# written by the client (whole stripes, partial stripes: read-4-write) are
# right on the MDS and read back right after the client drops its cache,
# the I/O went through the layout (the driver's counters; exofs's own
# writes did not carry it), a data server gone: reads degrade and succeed
# and the error reaches the MDS in LAYOUTRETURN, writes are redone through
# the MDS; a local write on the MDS recalls the client's layout; fsck.exofs
# (parity of every file) clean. Needs 4 disks; make nfsd first.
# ORE_ARGS "raid=N" (0, 1, 5, 6; default 5) picks the RAID level: with
# RAID0 a read with a data server gone fails on the client and NFS sends
# it to the MDS instead (no degraded read). ORE_ARGS "r4w_cache" lets the
# client's read-4-write use its cached pages (the driver's r4w_cache):
# the stale-page step then leaves a bad parity that fsck.exofs reports.
. /ore/tests/lib.sh
. /ore/tests/exofs_lib.sh

ktap_plan 32

RAID=5
for a in $ORE_ARGS; do
	case $a in raid=*) RAID=${a#raid=} ;; esac
done

. /ore/tests/pnfs_lib.sh
c4=/tmp/nfs4
C4=$H$c4

pnfs_stores_mkfs "mkfs.exofs --raid $RAID over 4 stores" \
	--checksum none --raid $RAID --stripe-unit 16K -L pnfs
check "mount exofs" exofs_mount "" $E
fail_fast

check "the patched nfsd.ko and exofs_pnfs.ko load" pnfs_load_nfsd
fail_fast
check "4 data servers (store directories) in exofs_pnfs's device table" \
	pnfs_data_servers /tmp/mkfs.out
# Two nfsd threads: few enough that nfsd waiting on a recall would hang.
check "nfsd exports exofs (pnfs) and the 4 store directories" pnfs_nfs_server 4 2
fail_fast

# The client: the data servers' exports (NFSv3, soft), then the driver
# with their mount points, then the MDS. Stores 0-2 are mounted and given
# here; store 3 is left to the driver's mount helper, run at the first
# GETDEVICEINFO of its device with the device's address.
cat > /tmp/ol-helper <<HELPER
#!/bin/sh
# objlayoutdriver helper: NETID UADDR OSDNAME FS-UUID STORE-UUID
echo "\$*" >> /tmp/helper.log
n=\${3##*/}
mkdir -p $H/tmp/dsm/\$n &&
chroot $H /sbin/mount.nfs \${2%.*.*}:\$3 /tmp/dsm/\$n -o $DSOPT &&
echo $H/tmp/dsm/\$n > $CP/stores
HELPER
chmod 755 /tmp/ol-helper
client() {
	for i in 0 1 2; do
		pnfs_ds_mount $i || return 1
	done
	insmod /ore/objlayoutdriver.ko || return 1
	for i in 0 1 2; do
		echo $H/tmp/dsm/s$i > $CP/stores || return 1
	done
	echo /tmp/ol-helper > $CP/helper
	cat $CP/stores
	[ "$(wc -l < $CP/stores)" = 3 ]
}
check "objlayoutdriver.ko takes 3 data-server mounts as stores" client
check "a foreign directory is refused as a store" sh -c "! echo /tmp > $CP/stores"
check "NFSv4.1 mount of the MDS uses LAYOUT_OSD2_OBJECTS" pnfs_mount_mds $c4
fail_fast

cnt() { cat $CP/$1; }
ecnt() { cat /sys/fs/exofs/*/$1 2>/dev/null | head -n 1; }

dd if=/dev/urandom of=/tmp/big bs=64k count=40 2>/dev/null	# 2.5 MiB, 53+ stripes
w0=$(cnt write_bytes)
ew0=$(ecnt write_ios)
b0=$(cnt ore_store_buffered)
check "a 2.5 MiB file written by the client is the same on the MDS" sh -c "
	cp /tmp/big $C4/big && sync && cmp /tmp/big $E/big"
diag "driver: writes $(cnt writes) bytes $(cnt write_bytes) fallbacks $(cnt mds_fallbacks) layouts $(cnt layouts) devices $(cnt devices); exofs write_ios $ew0 -> $(ecnt write_ios)"
check "the mount helper mounted and registered store 3 (tcp 127.0.0.1.8.1 /tmp/ds/s3)" sh -c "
	cat /tmp/helper.log; grep -q '^tcp 127.0.0.1.8.1 /tmp/ds/s3 ' /tmp/helper.log &&
	[ \$(wc -l < $CP/stores) = 4 ] && grep -q ' 3 $H/tmp/dsm/s3\$' $CP/stores"
check "the data went through the layout (objlayoutdriver write_bytes grew by the file size)" sh -c "
	[ \$(( \$(cat $CP/write_bytes) - $w0 )) -ge 2621440 ]"
ew1=$(ecnt write_ios)
check "the MDS's exofs wrote none of it (write_ios grew by < 20)" [ $((ew1 - ew0)) -lt 20 ]

r0=$(cnt read_bytes)
check "read back by the client after dropping its cache" sh -c "
	sync && echo 3 > /proc/sys/vm/drop_caches && cmp /tmp/big $C4/big &&
	[ \$(( \$(cat $CP/read_bytes) - $r0 )) -ge 2621440 ]"
# NFS reports no STATX_DIOALIGN: ORE's file store must still use direct
# I/O on the data-server mounts (else a second, stale cache of objects).
b1=$(cnt ore_store_buffered)
diag "ORE file store I/O: direct $(cnt ore_store_dio), buffered $b0 -> $b1"
check "the client's component I/O was direct (buffered grew by < 20)" [ $((b1 - b0)) -lt 20 ]

# Partial stripes: small writes into the middle and past the end
# (read-4-write from the client's cache or the data servers), the same
# bytes into a local model.
partial() {
	cp /tmp/big /tmp/model
	for off in 5000 70000 1000000 2621000; do
		dd if=/dev/urandom of=/tmp/piece bs=3000 count=1 2>/dev/null
		dd if=/tmp/piece of=/tmp/model bs=1 seek=$off conv=notrunc 2>/dev/null
		dd if=/tmp/piece of=$C4/big bs=1 seek=$off conv=notrunc 2>/dev/null || return 1
		sync
		echo 3 > /proc/sys/vm/drop_caches
	done
	cmp /tmp/model $C4/big && cmp /tmp/model $E/big
}
check "partial-stripe writes by the client (read-4-write) are right on the MDS and the client" partial
# A write through a shared mapping on the MDS is a local write too: its
# write fault recalls the layout of the client, which holds the file open
# and has written through its layout. The client's next write then needs a
# new layout (exofs_pnfs counts a LAYOUTGET; with its layout still held it
# would not), and the client reads the MDS's bytes.
mmapw() {
	local g0 g1 w0 i=0 pid
	rm -f /tmp/mm.1 /tmp/mm.2 /tmp/mm.go1 /tmp/mm.go2
	w0=$(cnt write_bytes)
	hostrun python3 -c "
import os, time
def wait(p):
	while not os.path.exists(p):
		time.sleep(0.1)
c = os.open('$c4/mm', os.O_RDWR | os.O_CREAT, 0o644)
os.write(c, open('/tmp/big', 'rb').read(300000))
os.fsync(c)
open('/tmp/mm.1', 'w').close()
wait('/tmp/mm.go1')
os.pwrite(c, b'CLIENT', 200000)
os.fsync(c)
open('/tmp/mm.2', 'w').close()
wait('/tmp/mm.go2')
os.close(c)" &
	pid=$!
	while [ ! -e /tmp/mm.1 ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
	g0=$(cat $PP/layoutgets)
	hostrun python3 -c "
import mmap, os
f = os.open('$e/mm', os.O_RDWR)
m = mmap.mmap(f, 300000)
m[100000:100005] = b'MMAPW'
m.flush()
m.close()
os.close(f)"
	touch /tmp/mm.go1
	i=0
	while [ ! -e /tmp/mm.2 ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
	g1=$(cat $PP/layoutgets)
	touch /tmp/mm.go2
	wait $pid
	echo "the client wrote $(( $(cnt write_bytes) - w0 )) bytes through its layout; layoutgets $g0 -> $g1"
	[ $(( $(cnt write_bytes) - w0 )) -ge 300000 ] && [ "$g1" -gt "$g0" ] &&
		echo 3 > /proc/sys/vm/drop_caches &&
		[ "$(dd if=$C4/mm bs=1 skip=100000 count=5 2>/dev/null)" = MMAPW ] &&
		[ "$(dd if=$C4/mm bs=1 skip=200000 count=6 2>/dev/null)" = CLIENT ]
}
check "a write through a shared mapping on the MDS recalls the client's layout, and the client reads it" mmapw
diag "driver: writes $(cnt writes) r4w_hits $(cnt r4w_hits) fallbacks $(cnt mds_fallbacks)"

# A data server gone: its export withdrawn, the client's soft mount of it
# fails. Reads are rebuilt from the parity, the failed component is
# reported to the MDS in LAYOUTRETURN; a write (70000 bytes: every store) is
# redone through the MDS.
d0=$(cnt degraded)
e0=$(cnt ioerrs)
rep0=$(cat $PP/ioerr_reports)
if [ "$RAID" = 0 ]; then
	how="through the MDS: no redundancy"
	grew="[ \$(cat $CP/ioerrs) -gt $e0 ]"
else
	how="degraded"
	grew="[ \$(cat $CP/degraded) -gt $d0 ]"
fi
check "data server 2 withdrawn: the client reads the file ($how) right" sh -c "
	hostrun exportfs -u 127.0.0.1:/tmp/ds/s2 && echo 3 > /proc/sys/vm/drop_caches &&
	cmp /tmp/model $C4/big && $grew"
check "the MDS got the client's error report (LAYOUTRETURN)" sh -c "
	for i in \$(seq 1 30); do [ \$(cat $PP/ioerr_reports) -gt $rep0 ] && exit 0; sleep 1; done; exit 1"
dmesg | grep 'exofs_pnfs:.*client .* error' | tail -n 2 | sed 's/^/# /'
f0=$(cnt write_redone)
check "a write while data server 2 is gone is done (through the MDS) and right" sh -c "
	dd if=/dev/urandom of=/tmp/piece bs=70000 count=1 2>/dev/null &&
	dd if=/tmp/piece of=/tmp/model bs=1 seek=300000 conv=notrunc 2>/dev/null &&
	dd if=/tmp/piece of=$C4/big bs=1 seek=300000 conv=notrunc 2>/dev/null && sync &&
	hostrun exportfs -o rw,no_root_squash,no_subtree_check,fsid=3,sync 127.0.0.1:/tmp/ds/s2 &&
	echo 3 > /proc/sys/vm/drop_caches && cmp /tmp/model $E/big && cmp /tmp/model $C4/big"
diag "driver: write_redone $f0 -> $(cnt write_redone), ioerrs $(cnt ioerrs), degraded $(cnt degraded)"
check "that write failed on the data server and was redone through the MDS" [ "$(cnt write_redone)" -gt "$f0" ]

# A stale clean page in the client's cache: the MDS writes 4 KiB at 484K
# (stripe 10, column 0, page row 1 with 16K units over 3 data columns)
# after the client cached the file; the client then writes page row 1 of
# column 1 (500K). Read-4-write needs column 0's row: from the client's
# cache (r4w_cache=1) it is the old data, and the stripe's parity no longer
# matches what is stored (fsck.exofs at the end fails); read from the data
# servers (the default) it is right.
stale() {
	dd if=/dev/urandom of=/tmp/p1 bs=4096 count=1 2>/dev/null &&
	dd if=/dev/urandom of=/tmp/p2 bs=3000 count=1 2>/dev/null || return 1
	# (the guest's /tmp is the host share's.) One process keeps the client's file open throughout (no revalidation
	# at open): it reads it, writes the MDS's page, then its own bytes.
	hostrun python3 -c "
import os
c = os.open('$c4/big', os.O_RDWR)
while os.read(c, 1 << 20):
	pass
m = os.open('$e/big', os.O_WRONLY)
os.pwrite(m, open('/tmp/p1', 'rb').read(), 495616)
os.fsync(m)
os.close(m)
os.pwrite(c, open('/tmp/p2', 'rb').read(), 512000)
os.fsync(c)
os.close(c)" || return 1
	dd if=/tmp/p1 of=/tmp/model bs=4096 seek=121 conv=notrunc 2>/dev/null &&
	dd if=/tmp/p2 of=/tmp/model bs=1 seek=512000 conv=notrunc 2>/dev/null &&
	echo 3 > /proc/sys/vm/drop_caches && cmp /tmp/model $E/big
}
case " $ORE_ARGS " in *" r4w_cache "*) echo 1 > $CP/r4w_cache ;; esac
check "an MDS write, then a client write in the same stripe: right on the MDS" stale
diag "driver: r4w_cache $(cnt r4w_cache) r4w_hits $(cnt r4w_hits)"
check "a local write on the MDS (recalls the client's layout) and the client sees it" sh -c "
	echo local > $E/big && sleep 1 && echo 3 > /proc/sys/vm/drop_caches &&
	[ \"\$(cat $C4/big)\" = local ]"
# The client's file store keeps the component files open, and NFS's
# cached size of each is refreshed only by the replies to calls on it: a
# local append on the MDS grows the components on the stores, and a read
# of the new bytes alone (past every size the client cached) must ask the
# data servers, not answer zeros from the cached size.
grow() {
	head -c 200000 /tmp/big > $C4/grow && sync && echo 3 > /proc/sys/vm/drop_caches &&
	head -c 200000 /tmp/big | cmp - $C4/grow &&
	tail -c +200001 /tmp/big | head -c 800000 >> $E/grow && sync &&
	echo 3 > /proc/sys/vm/drop_caches &&
	head -c 1000000 /tmp/big | tail -c 300000 > /tmp/grow.want &&
	tail -c 300000 $C4/grow | cmp - /tmp/grow.want
}
check "a local append on the MDS, then the client reads only the new bytes through its layout" grow
# A local truncate on the MDS of a file whose layout the client holds (open,
# written through it): the truncate recalls the layout and waits for its
# return with i_rwsem dropped (the client's LAYOUTCOMMIT needs it), instead
# of failing with EAGAIN.
check "a local truncate on the MDS of a file the client holds open with a layout: waits for the recall (no EAGAIN)" sh -c "
	hostrun python3 -c \"
import os
c = os.open('$c4/trunc', os.O_RDWR | os.O_CREAT, 0o644)
os.write(c, open('/tmp/big', 'rb').read(300000))
os.fsync(c)
os.truncate('$e/trunc', 1000)
os.close(c)\" &&
	[ \$(stat -c %s $E/trunc) = 1000 ] && echo 3 > /proc/sys/vm/drop_caches &&
	head -c 1000 /tmp/big | cmp - $E/trunc && head -c 1000 /tmp/big | cmp - $C4/trunc"
check "many files by the client, compared on the MDS" sh -c "
	mkdir $C4/d && for i in \$(seq 1 20); do head -c \$((i * 7001)) /tmp/big > $C4/d/f\$i; done && sync &&
	for i in \$(seq 1 20); do head -c \$((i * 7001)) /tmp/big | cmp - $E/d/f\$i || exit 1; done"
# A file removed and made again gets the same inode number, so the same
# object id: the client's file store holds the old component files open
# (stale handles on the data servers). It reopens them (-ESTALE retried)
# instead of failing the components.
rd0=$(cnt write_redone) e0=$(cnt ioerrs)
again() {
	head -c 300000 /tmp/big > $C4/again && sync && i1=$(stat -c %i $E/again) &&
	cat $C4/again > /dev/null && rm $C4/again && sync &&
	tail -c 300000 /tmp/big > $C4/again && sync && i2=$(stat -c %i $E/again) &&
	echo "inode $i1 then $i2" && [ "$i1" = "$i2" ] &&
	echo 3 > /proc/sys/vm/drop_caches && tail -c 300000 /tmp/big | cmp - $E/again &&
	tail -c 300000 /tmp/big | cmp - $C4/again
}
check "a file made again with the same object id is written and read right by the client" again
check "without a component error (stale backing files reopened)" \
	sh -c "[ $(cnt write_redone) = $rd0 ] && [ $(cnt ioerrs) = $e0 ]"

# No store for a device (the driver reloaded with stores 0-2 only, no
# helper; the unload empties NFS's device cache): no layout is held, the I/O
# goes through the MDS (mds_fallbacks), and the MDS's own writes of it
# need no recall.
m0=0
check "store 3 unknown to the client: its writes and reads go through the MDS, right" sh -c "
	umount $C4 && rmmod objlayoutdriver && insmod /ore/objlayoutdriver.ko &&
	for i in 0 1 2; do echo $H/tmp/dsm/s\$i > $CP/stores || exit 1; done &&
	hostrun /sbin/mount.nfs4 127.0.0.1:/ $c4 -o vers=4.1 &&
	cp /tmp/big $C4/viamds && sync && cmp /tmp/big $E/viamds &&
	echo 3 > /proc/sys/vm/drop_caches && cmp /tmp/big $C4/viamds &&
	[ \$(cat $CP/mds_fallbacks) -gt $m0 ]"
diag "driver: mds_fallbacks $m0 -> $(cnt mds_fallbacks), no_store $(cnt no_store)"
check "unmount the client, unload objlayoutdriver, stop nfsd" pnfs_stop
check "fsck.exofs is clean (the parity the client computed included)" exofs_fsck
ktap_done
