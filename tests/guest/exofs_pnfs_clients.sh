#!/bin/sh
# Two pNFS clients writing one RAID5 file at once (issue 13): client 1 in
# the guest's network namespace (127.0.0.1), client 2 in another one
# (10.9.0.2 over a veth pair: a separate NFSv4.1 client of the same MDS).
# Both use the same objlayoutdriver and data-server mounts. ORE does not
# lock stripes across machines: the policy is nfsd's, one RW layout of a
# file at a time (a LAYOUTGET of one client recalls the other's layout,
# which returns it once its writes are done). The writers interleave 4 KiB
# blocks of the same stripes (client 1 the even blocks, client 2 the odd
# ones), fsync every 2 blocks. Checks: both mounts got layouts and wrote
# through them, every block on the MDS is its writer's, and fsck.exofs
# (the parity of every stripe) is clean. Needs 4 disks; make nfsd first.
. /ore/tests/lib.sh
. /ore/tests/exofs_lib.sh
. /ore/tests/pnfs_lib.sh

ktap_plan 15

NB=${NB:-256}	# 4 KiB blocks of the file: 1 MiB, 21 stripes of 48K

pnfs_require
exofs_load || ktap_done
exofs_stores_ext4 4 || ktap_done
check "mkfs.exofs --raid 5 over 4 stores" sh -c \
	"mkfs.exofs -f --checksum none --raid 5 --stripe-unit 16K -L pnfs2 $EXOFS_STORES > /tmp/mkfs.out 2>&1"
mds() {
	exofs_mount "" $E && pnfs_load_nfsd && pnfs_data_servers /tmp/mkfs.out
}
check "mount exofs, load nfsd and exofs_pnfs, data servers" mds
fail_fast

# Client 2's network: a veth pair, 10.9.0.1 here, 10.9.0.2 in netns c2.
netns() {
	hostrun modprobe veth || return 1
	mkdir -p $H/run 2>/dev/null
	pnfs_nfs_server 4 4 > /tmp/nfs_server.out || { cat /tmp/nfs_server.out; return 1; }
	hostrun /bin/ip netns add c2 &&
	hostrun /bin/ip link add v1 type veth peer name v2 &&
	hostrun /bin/ip link set v2 netns c2 &&
	hostrun /bin/ip addr add 10.9.0.1/24 dev v1 && hostrun /bin/ip link set v1 up &&
	hostrun /bin/ip netns exec c2 /bin/ip addr add 10.9.0.2/24 dev v2 &&
	hostrun /bin/ip netns exec c2 /bin/ip link set v2 up &&
	hostrun /bin/ip netns exec c2 /bin/ip link set lo up &&
	hostrun exportfs -o rw,no_root_squash,no_subtree_check,fsid=0,sync,pnfs "10.9.0.2:$e" &&
	hostrun /bin/ip netns exec c2 /bin/busybox ping -c 1 -W 5 10.9.0.1 > /dev/null
}
check "nfsd serves 127.0.0.1 and, over a veth pair, netns c2 (10.9.0.2)" netns
fail_fast

clients() {
	for i in 0 1 2 3; do pnfs_ds_mount $i || return 1; done
	insmod /ore/objlayoutdriver.ko || return 1
	for i in 0 1 2 3; do echo $H/tmp/dsm/s$i > $CP/stores || return 1; done
	pnfs_mount_mds /tmp/c1 || return 1
	mkdir -p $H/tmp/c2 &&
	hostrun /usr/bin/nsenter --net=/run/netns/c2 /sbin/mount.nfs4 10.9.0.1:/ /tmp/c2 -o vers=4.1 &&
	grep -A 30 " $H/tmp/c2 " /proc/self/mountstats | grep -q 'pnfs=LAYOUT_OSD2_OBJECTS'
}
check "client 1 (127.0.0.1) and client 2 (netns c2) mount the MDS with the objects layout" clients
fail_fast

check "client 1 makes the file ($NB blocks of 4 KiB), client 2 sees it" sh -c "
	dd if=/dev/zero of=$H/tmp/c1/shared bs=4096 count=$NB 2>/dev/null && sync &&
	[ \$(stat -c %s $H/tmp/c2/shared) = $((NB * 4096)) ]"

# writer MOUNT PARITY: write the blocks k with k % 2 == PARITY, each filled
# with "<writer> <k>" repeated, fsync every 2.
cat > /tmp/writer.py <<'PY'
import os, sys
path, par, nb = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
fd = os.open(path, os.O_RDWR)
n = 0
for k in range(par, nb, 2):
    tag = ("c%d %06d " % (par + 1, k)).encode()
    os.pwrite(fd, (tag * (4096 // len(tag) + 1))[:4096], k * 4096)
    n += 1
    if n % 2 == 0:
        os.fsync(fd)
os.fsync(fd)
os.close(fd)
PY
lg() { grep -A 200 " $H$1 " /proc/self/mountstats | grep -m 1 'LAYOUTGET:' | awk '{ print $2 }'; }
w0=$(cat $CP/writes)
g0=$(cat $PP/layoutgets)
race() {
	hostrun python3 /tmp/writer.py /tmp/c1/shared 0 $NB & p1=$!
	hostrun /usr/bin/nsenter --net=/run/netns/c2 python3 /tmp/writer.py /tmp/c2/shared 1 $NB & p2=$!
	wait $p1 || return 1
	wait $p2
}
check "both clients write their interleaved blocks at once" race
diag "LAYOUTGETs: client 1 $(lg /tmp/c1), client 2 $(lg /tmp/c2); driver writes $w0 -> $(cat $CP/writes), redone $(cat $CP/write_redone), mds_fallbacks $(cat $CP/mds_fallbacks); exofs_pnfs layoutgets $(cat $PP/layoutgets)"
l1=$(lg /tmp/c1) l2=$(lg /tmp/c2)
check "both clients took layouts (LAYOUTGET in each mount's stats)" \
	sh -c "[ ${l1:-0} -gt 0 ] && [ ${l2:-0} -gt 0 ]"
check "the writes went through layouts (driver writes grew by >= $NB)" [ $(($(cat $CP/writes) - w0)) -ge $NB ]
check "the layout changed hands (the MDS granted >= 2 layouts during the race)" [ $(($(cat $PP/layoutgets) - g0)) -ge 2 ]

cat > /tmp/verify.py <<'PY'
import sys
path, nb = sys.argv[1], int(sys.argv[2])
data = open(path, 'rb').read()
bad = 0
for k in range(nb):
    tag = ("c%d %06d " % (k % 2 + 1, k)).encode()
    if data[k * 4096:(k + 1) * 4096] != (tag * (4096 // len(tag) + 1))[:4096]:
        bad += 1
        if bad <= 5:
            print("block %d: %r" % (k, data[k * 4096:k * 4096 + 24]))
print("%d of %d blocks wrong" % (bad, nb))
sys.exit(1 if bad or len(data) != nb * 4096 else 0)
PY
check "every block on the MDS is its writer's" sh -c "
	sync; echo 3 > /proc/sys/vm/drop_caches; hostrun python3 /tmp/verify.py $e/shared $NB"
check "and client 2 reads the same" hostrun /usr/bin/nsenter --net=/run/netns/c2 python3 /tmp/verify.py /tmp/c2/shared $NB
check "unmount both clients, unload objlayoutdriver, stop nfsd" sh -c "
	umount $H/tmp/c1 && umount $H/tmp/c2 && rmmod objlayoutdriver &&
	for i in 0 1 2 3; do umount $H/tmp/dsm/s\$i || exit 1; done &&
	hostrun exportfs -ua && hostrun rpc.nfsd 0 && sleep 1 && rmmod exofs_pnfs &&
	for i in 0 1 2 3; do umount $H/tmp/ds/s\$i || exit 1; done && umount $E"
check "fsck.exofs is clean (the parity of every stripe both clients wrote)" exofs_fsck
ktap_done
