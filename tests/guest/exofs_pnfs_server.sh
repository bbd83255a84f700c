#!/bin/sh
# The pNFS objects-layout server (issue 13): the patched nfsd.ko (make
# nfsd: build/nfsd, packed as /ore/nfsd/nfsd.ko) is loaded in place of
# Debian's, exofs_pnfs.ko registers layout type 2 (LAYOUT4_OSD2_OBJECTS)
# with it, exofs RAID5 over 4 ext4 stores is exported with the pnfs option
# and mounted over loopback with NFSv4.1 (as exofs_nfs.sh does with the
# stock nfsd). Checks: the client is offered type 2 (FATTR4_FS_LAYOUT_TYPES:
# Debian's client then asks modprobe for nfs-layouttype4-2, which we log),
# files written and read through NFS, the provider's layout and device
# address encoders (exofs_pnfs's selftest parameter: encode as LAYOUTGET
# and GETDEVICEINFO do, decode as a client would, compare with exofs),
# the four layout operations over the wire (tests/tools/pnfs_probe, a
# minimal NFSv4.1 client: decoded bodies, the provider's counters, the
# committed size, the logged error reports, exofs_pnfs cannot be unloaded
# while the layout is held), a local write and truncate with no layout
# out, the provider unloads, fsck.exofs clean. Needs 4 disks and
# nfs-kernel-server on the host; make nfsd first.
. /ore/tests/lib.sh
. /ore/tests/exofs_lib.sh
. /ore/tests/pnfs_lib.sh

ktap_plan 22

c4=/tmp/nfs4
C4=$H$c4
MPLOG=/tmp/modprobe.log

if [ ! -e /ore/nfsd/nfsd.ko ] || [ ! -e /ore/exofs_pnfs.ko ]; then
	diag "the patched nfsd.ko or exofs_pnfs.ko is not built (make nfsd)"
	not_ok "patched nfsd.ko and exofs_pnfs.ko are built" "run make nfsd"
	ktap_done
fi
exofs_load || ktap_done
exofs_stores_ext4 4 || ktap_done
check "mkfs.exofs --raid 5 over 4 stores" sh -c \
	"mkfs.exofs -f --checksum none --raid 5 --stripe-unit 16K -L pnfs $EXOFS_STORES > /tmp/mkfs.out 2>&1"
sed 's/^/# /' /tmp/mkfs.out
check "mount exofs" exofs_mount "" $E
fail_fast

# nfsd's dependencies from the host's modules, then ours before anything
# can load Debian's nfsd.
load_nfsd() {
	hostrun modprobe -a sunrpc grace lockd nfs_acl auth_rpcgss || return 1
	insmod /ore/nfsd/nfsd.ko || return 1
	grep -q ' nfsd4_register_layout_provider' /proc/kallsyms
}
check "the patched nfsd.ko loads (its dependencies from the image)" load_nfsd
check "exofs_pnfs.ko registers layout type 2" sh -c "
	insmod /ore/exofs_pnfs.ko &&
	dmesg | grep -q 'nfsd: layout type 2 provided by exofs_pnfs'"
fail_fast

# Each store's data-server address: the stores are exported by this same
# host (127.0.0.1, port 2049), at their paths here.
set_devices() {
	awk '$3 == "uuid" { print $4, "tcp", "127.0.0.1.8.1", $2 }' /tmp/mkfs.out > /tmp/devs
	[ "$(wc -l < /tmp/devs)" = 4 ] || { cat /tmp/mkfs.out; return 1; }
	while read -r l; do echo "$l" > $PP/devices || return 1; done < /tmp/devs
	[ "$(wc -l < $PP/devices)" = 4 ] && cat $PP/devices
}
check "a data-server address for each of the 4 stores (devices parameter)" set_devices

check "the patched nfsd exports exofs with the pnfs option" pnfs_nfs_server 0 2
diag "$(hostrun exportfs -v 2>&1 | tr '\n' ' ')"
fail_fast

# The client asks modprobe for nfs-layouttype4-N for each type the server
# offers in FATTR4_FS_LAYOUT_TYPES that it has no driver for.
printf '#!/bin/sh\necho "$*" >> %s\nexit 1\n' $MPLOG > /tmp/modprobe-log
chmod 755 /tmp/modprobe-log
old_mp=$(cat /proc/sys/kernel/modprobe)
: > $MPLOG
echo /tmp/modprobe-log > /proc/sys/kernel/modprobe
mkdir -p $C4
check "NFSv4.1 mount over loopback" sh -c "
	hostrun /sbin/mount.nfs4 127.0.0.1:/ $c4 -o vers=4.1,sync &&
	grep ' $C4 nfs4 .*vers=4.1' /proc/mounts"
echo "$old_mp" > /proc/sys/kernel/modprobe
diag "modprobe requests during the mount: $(tr '\n' ';' < $MPLOG)"
check "FATTR4_FS_LAYOUT_TYPES offers type 2: the client asked for nfs-layouttype4-2" \
	grep -q 'nfs-layouttype4-2' $MPLOG
diag "mountstats: $(grep -A3 "$C4" /proc/self/mountstats | grep -i pnfs | tr -s ' ')"
fail_fast

dd if=/dev/urandom of=/tmp/big bs=64k count=40 2>/dev/null
check "write and read back checksummed files through v4.1" sh -c "
	cp /tmp/big $C4/big && mkdir $C4/d && seq 1 5000 > $C4/d/small && sync &&
	cmp /tmp/big $E/big && seq 1 5000 | cmp - $E/d/small && cmp /tmp/big $C4/big"

st_before=$(dmesg | grep -c 'exofs_pnfs: selftest inode')
check "layout and device addresses of a file encode, decode and match exofs" sh -c "
	echo $E/big > $PP/selftest && echo $E/d/small > $PP/selftest"
dmesg | grep 'exofs_pnfs: selftest' | tail -n 2 | sed 's/^/# /'
check "the selftest checked 4 components and 4 device addresses per file" sh -c "
	[ \$(dmesg | grep -c 'exofs_pnfs: selftest inode.*4 components.*raid 3 .*4 device addresses ok') -ge $((st_before + 2)) ]"
check "the selftest refuses a file that is not on exofs" sh -c "! echo /tmp/big > $PP/selftest"

# Over the wire: tests/tools/pnfs_probe, a minimal NFSv4.1 client, opens
# big, gets its layout (decoded with pnfs/objlayout_xdr.c) and component
# 0's device address, tries to unload exofs_pnfs while it holds the layout
# (must fail: nfsd holds the module), commits a last write at 3000000 with
# olu_ioerr_flag, returns the layout with two error reports. Its RW layout
# is the first region of the intent record (exofs_pnfs_layout_pin()).
rlen=$(printf '0x%x' "$(sed -n 's/.* region_bytes \([0-9]*\).*/\1/p' /sys/fs/exofs/*/intent)")
held='[ $(cat /sys/module/exofs_pnfs/refcnt) -gt 0 ] && ! rmmod exofs_pnfs 2>/dev/null'
check "LAYOUTGET, GETDEVICEINFO, LAYOUTCOMMIT, LAYOUTRETURN over the wire (pnfs_probe)" sh -c "
	pnfs_probe -c 3000000 -x '$held' 127.0.0.1 big > /tmp/probe.out 2>&1; rc=\$?; cat /tmp/probe.out; [ \$rc = 0 ] &&
	grep -q '^layoutget: iomode 2 offset 0 length $rlen .*raid 3 stripe_unit 16384 group_width 0 depth 0 mirrors 0 comps 4' /tmp/probe.out &&
	grep -q '^getdeviceinfo: .*target type 1 netid tcp uaddr 127.0.0.1.8.1 osdname /stores/s[0-3] systemid 32 bytes' /tmp/probe.out &&
	grep -q \"^while held: .* exit 0\" /tmp/probe.out &&
	grep -q '^layoutcommit: new size 3000001' /tmp/probe.out && grep -q '^layoutreturn: ok' /tmp/probe.out &&
	grep -q '^done' /tmp/probe.out"
sed 's/^/# /' /tmp/probe.out
counters() {
	for c in layoutgets getdeviceinfos layoutcommits layoutreturns ioerr_reports ioerr_flags bad_bodies unavailable; do
		printf '%s=%s ' $c "$(cat $PP/$c)"
	done
}
diag "exofs_pnfs counters: $(counters)"
check "the provider counted 1 layoutget, getdeviceinfo, layoutcommit, layoutreturn, 2 error reports, 1 ioerr flag" sh -c "
	[ \"\$(cat $PP/layoutgets $PP/getdeviceinfos $PP/layoutcommits $PP/layoutreturns $PP/ioerr_reports $PP/ioerr_flags $PP/bad_bodies | tr '\n' ' ')\" = '1 1 1 1 2 1 0 ' ]"
check "LAYOUTCOMMIT set the size on the MDS (3000001)" sh -c "[ \$(stat -c %s $E/big) = 3000001 ]"
check "LAYOUTRETURN's error reports are logged (read EIO, write UNREACHABLE, store named)" sh -c "
	dmesg | grep -q 'exofs_pnfs: .*: client read error 1 on object 0x20000 store [0-3], component bytes 4096+8192' &&
	dmesg | grep -q 'exofs_pnfs: .*: client write error 6 on object 0x20000 store [0-3], component bytes 4096+8192'"

check "local write and truncate on the MDS with no layout out" sh -c "
	echo local >> $E/d/small && truncate -s 100 $E/big && [ \$(stat -c %s $E/big) = 100 ]"
check "no exofs or exofs_pnfs errors in dmesg (but the reported ones)" sh -c "
	! dmesg | grep -v 'exofs_pnfs: .*: client .* error' | grep -i 'exofs.*error\|exofs.*corrupt\|exofs_pnfs.*cannot'"
check "unmount, unexport, stop nfsd, unload exofs_pnfs" sh -c "
	umount $C4 && hostrun exportfs -ua && hostrun rpc.nfsd 0 && sleep 1 &&
	rmmod exofs_pnfs && [ ! -e /sys/module/exofs_pnfs ] && umount $E"
check "fsck.exofs is clean" exofs_fsck
ktap_done
