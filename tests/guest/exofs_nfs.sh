#!/bin/sh
# exofs exported by Debian's stock nfsd (issue 13, step 1): mkfs.exofs RAID5
# over 4 ext4 stores, mount, export it (fsid=0), mount it over loopback with
# NFSv4.1 and NFSv3, write checksummed files, rename and unlink through NFS,
# drop the server's caches so handles are decoded from scratch (exofs's
# fh_decodes counter grows), stale handles give ESTALE, fsck.exofs clean.
# The NFS tools are the host's, run in its root (hostrun) with tmpfs over
# its /run and /var/lib/nfs. Needs 4 disks and nfs-kernel-server on the host.
. /ore/tests/lib.sh
. /ore/tests/exofs_lib.sh

ktap_plan 17

H=$ORE_HOST
# Paths as hostrun sees them (e, c3, c4) and as this script does (E, C3,
# C4): /tmp is a bind of $H/tmp, but mounts made under one are not seen
# under the other, so every mount is made under $H/tmp.
e=/tmp/nfsexp
c3=/tmp/nfs3
c4=/tmp/nfs4
E=$H$e
C3=$H$c3
C4=$H$c4
P=/sys/module/exofs/parameters/fh_decodes

exofs_load || ktap_done
exofs_stores_ext4 4 || ktap_done
check "mkfs.exofs --raid 5 over 4 stores" exofs_mkfs --raid 5 --stripe-unit 16K -L nfs
check "mount exofs" exofs_mount "" $E
fail_fast

nfs_server() {
	have_host rpc.nfsd || { echo "no rpc.nfsd on the host (scripts/deps.sh)"; return 1; }
	ip link set lo up 2>/dev/null || ifconfig lo 127.0.0.1 up
	mount -t tmpfs tmpfs $H/run && mount -t tmpfs tmpfs $H/var/lib/nfs &&
	mkdir -p $H/var/lib/nfs/rpc_pipefs $H/var/lib/nfs/v4recovery $H/run/rpcbind &&
	: > $H/var/lib/nfs/etab && : > $H/var/lib/nfs/rmtab || return 1
	hostrun modprobe nfsd && hostrun modprobe nfsv4 && hostrun modprobe nfsv3 || return 1
	mount -t nfsd nfsd /proc/fs/nfsd 2>/dev/null
	# the shortest NFSv4 lease and grace (else v4 opens wait 90 s)
	echo 10 > /proc/fs/nfsd/nfsv4leasetime
	echo 10 > /proc/fs/nfsd/nfsv4gracetime 2>/dev/null
	hostrun rpcbind -w || return 1
	hostrun exportfs -o rw,no_root_squash,no_subtree_check,fsid=0,sync "127.0.0.1:$e" || return 1
	hostrun rpc.mountd || return 1
	hostrun rpc.nfsd 2 || return 1
	hostrun exportfs -v
}
check "nfsd exports exofs (fsid=0: no block device, and the NFSv4 root)" nfs_server
diag "$(hostrun exportfs -v 2>&1 | tr '\n' ' ') / $(hostrun ls -la $e 2>&1 | head -3 | tr '\n' ' ')"
fail_fast
mkdir -p $C3 $C4
check "NFSv3 mount over loopback" sh -c "
	hostrun /sbin/mount.nfs 127.0.0.1:$e $c3 -o vers=3,nolock,sync &&
	grep ' $C3 nfs .*vers=3' /proc/mounts"
check "NFSv4.1 mount over loopback" sh -c "
	hostrun /sbin/mount.nfs4 127.0.0.1:/ $c4 -o vers=4.1,sync &&
	grep ' $C4 nfs4 .*vers=4.1' /proc/mounts"
fail_fast

dd if=/dev/urandom of=/tmp/big bs=64k count=40 2>/dev/null
check "write checksummed files through v4.1 and v3" sh -c "
	cp /tmp/big $C4/big4 && cp /tmp/big $C3/big3 && mkdir $C4/d && seq 1 5000 > $C4/d/small &&
	(cd /tmp && md5sum big > /tmp/sum) && sync"
check "read back on the server and the other client" sh -c "
	cmp /tmp/big $E/big4 && cmp /tmp/big $E/big3 && cmp /tmp/big $C3/big4 &&
	cmp /tmp/big $C4/big3 && seq 1 5000 | cmp - $C3/d/small"
check "rename and unlink through NFS" sh -c "
	mv $C4/big4 $C4/d/moved && rm $C3/big3 && mkdir $C3/d/sub && mv $C4/d/small $C4/d/sub/s &&
	[ ! -e $E/big4 ] && [ ! -e $E/big3 ] && cmp /tmp/big $E/d/moved &&
	seq 1 5000 | cmp - $E/d/sub/s"

# Hold a v3 handle of a file and of a directory while the server forgets
# every inode: the next access decodes them from the handle alone.
exec 3<$C3/d/moved
before=$(cat $P 2>/dev/null)
check "server caches dropped (nfsd cache flushed, inodes evicted)" sh -c "
	hostrun exportfs -f && sync && echo 3 > /proc/sys/vm/drop_caches &&
	echo 3 > /proc/sys/vm/drop_caches"
check "open file and deep path read back after the drop" sh -c "
	cmp - /tmp/big <&3 && seq 1 5000 | cmp - $C4/d/sub/s && seq 1 5000 | cmp - $C3/d/sub/s"
after=$(cat $P 2>/dev/null)
diag "exofs fh_decodes before=$before after=$after"
if [ -n "$after" ] && [ "$after" -gt "${before:-0}" ]; then
	ok "handles were decoded from scratch (fh_to_dentry)"
else
	not_ok "handles were decoded from scratch (fh_to_dentry)" "before=$before after=$after"
fi
exec 3<&-

# A stale handle: the file is unlinked on the server while a v3 client
# holds it open (NFS has no open state in v3, so the handle goes stale).
check "a handle of an unlinked file gives ESTALE, not another inode" sh -c "
	cp /tmp/big $C3/gone && exec 4<$C3/gone && head -c 1 <&4 >/dev/null &&
	rm $E/gone && echo x > $E/reuse1 && echo y > $E/reuse2 &&
	echo 3 > /proc/sys/vm/drop_caches && hostrun exportfs -f &&
	out=\$(cat <&4 2>&1); echo \"\$out\" | tail -c 200;
	echo \"\$out\" | grep -qi 'stale'"
check "no exofs errors in dmesg" sh -c "! dmesg | grep -i 'exofs.*error\|exofs.*corrupt'"
check "unmount clients, unexport, unmount exofs" sh -c "
	umount $C4 && umount $C3 && hostrun exportfs -ua && hostrun rpc.nfsd 0 &&
	sleep 1 && umount $E"
check "fsck.exofs is clean" exofs_fsck
ktap_done
