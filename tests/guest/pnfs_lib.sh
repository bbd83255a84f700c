#!/bin/sh
# The pNFS objects-layout set-up in one guest, shared by
# tests/guest/exofs_pnfs_client.sh and bench/pnfs.sh (docs/pnfs.md): an
# exofs mounted at $E is the metadata server (the patched nfsd.ko and
# exofs_pnfs.ko), its store directories are bind-mounted under
# $H/tmp/ds/sN and exported with NFSv3 by the same nfsd (the data
# servers, 127.0.0.1), the client mounts them under $H/tmp/dsm/sN.
# Source it after lib.sh and exofs_lib.sh.

H=$ORE_HOST
e=/tmp/nfsexp
E=$H$e
PP=/sys/module/exofs_pnfs/parameters
CP=/sys/module/objlayoutdriver/parameters
DSOPT=vers=3,proto=tcp,soft,timeo=20,retrans=2,nolock

# The data servers' addresses: all 127.0.0.1 (one NFS client, one
# connection for the client's four mounts), or with PNFS_DS_DISTINCT set
# 127.0.0.2 .. (one each, as data servers on machines of their own).
# pnfs_ds_ip I: data server I's address.
pnfs_ds_ip() {
	if [ -n "$PNFS_DS_DISTINCT" ]; then echo "127.0.0.$(($1 + 2))"; else echo 127.0.0.1; fi
}

# pnfs_built: are nfsd.ko, exofs_pnfs.ko and objlayoutdriver.ko packed?
pnfs_built() {
	[ -e /ore/nfsd/nfsd.ko ] && [ -e /ore/exofs_pnfs.ko ] &&
		[ -e /ore/objlayoutdriver.ko ]
}

# pnfs_require: end the test with a failure unless pnfs_built (a guest
# test of the client and the server needs all three).
pnfs_require() {
	pnfs_built && return 0
	diag "nfsd.ko, exofs_pnfs.ko or objlayoutdriver.ko is not built (make nfsd)"
	not_ok "patched nfsd.ko, exofs_pnfs.ko and objlayoutdriver.ko are built" "run make nfsd"
	ktap_done
}

# pnfs_load_nfsd: nfsd's dependencies from the image's modules, then the
# patched nfsd.ko before anything can load Debian's, then exofs_pnfs.ko.
pnfs_load_nfsd() {
	hostrun modprobe -a sunrpc grace lockd nfs_acl auth_rpcgss || return 1
	insmod /ore/nfsd/nfsd.ko && insmod /ore/exofs_pnfs.ko
}

# pnfs_data_servers MKFS_OUT: bind-mount each of $EXOFS_STORES at
# $H/tmp/ds/sN and give exofs_pnfs each store's address (tcp 127.0.0.1
# port 2049, /tmp/ds/sN) by the UUIDs of mkfs.exofs's output MKFS_OUT.
pnfs_data_servers() {
	local out=$1 i=0 s uuid path n
	for s in $EXOFS_STORES; do
		mkdir -p $H/tmp/ds/s$i && mount --bind "$s" $H/tmp/ds/s$i || return 1
		i=$((i + 1))
	done
	awk '$3 == "uuid" { print $4, $2 }' "$out" > /tmp/devs
	[ "$(wc -l < /tmp/devs)" = "$i" ] || return 1
	while read -r uuid path; do
		n=${path##*/s}
		echo "$uuid tcp $(pnfs_ds_ip $n).8.1 /tmp/ds/s$n" > $PP/devices || return 1
	done < /tmp/devs
	cat $PP/devices
}

# pnfs_nfs_server NSTORES THREADS [nomds]: the host's NFS user space
# (through the 9p share) over tmpfs /run and /var/lib/nfs, lease and grace
# 10 s; exports $e (fsid=0, pnfs; not with nomds: pnfs_export_mds does it
# once exofs is mounted there) and the NSTORES store directories (NFSv3
# data servers); rpc.nfsd with THREADS threads.
pnfs_nfs_server() {
	local n=$1 threads=$2 nomds=$3 i spec=127.0.0.1
	[ -z "$PNFS_DS_DISTINCT" ] || spec=127.0.0.0/8
	have_host rpc.nfsd || { echo "no rpc.nfsd on the host (scripts/deps.sh)"; return 1; }
	ip link set lo up 2>/dev/null || ifconfig lo 127.0.0.1 up
	mount -t tmpfs tmpfs $H/run && mount -t tmpfs tmpfs $H/var/lib/nfs &&
	mkdir -p $H/var/lib/nfs/rpc_pipefs $H/var/lib/nfs/v4recovery $H/run/rpcbind &&
	: > $H/var/lib/nfs/etab && : > $H/var/lib/nfs/rmtab || return 1
	hostrun modprobe -a nfsv4 nfsv3 || return 1
	mount -t nfsd nfsd /proc/fs/nfsd 2>/dev/null
	echo 10 > /proc/fs/nfsd/nfsv4leasetime
	echo 10 > /proc/fs/nfsd/nfsv4gracetime 2>/dev/null
	hostrun rpcbind -w || return 1
	[ -n "$nomds" ] || pnfs_export_mds || return 1
	i=0
	while [ $i -lt "$n" ]; do
		hostrun exportfs -o rw,no_root_squash,no_subtree_check,fsid=$((i + 1)),sync \
			"$spec:/tmp/ds/s$i" || return 1
		i=$((i + 1))
	done
	hostrun rpc.mountd || return 1
	hostrun rpc.nfsd "$threads" || return 1
	hostrun exportfs -v
}

# pnfs_export_mds: export the exofs mounted at $E (the MDS: fsid=0, pnfs).
pnfs_export_mds() {
	hostrun exportfs -o rw,no_root_squash,no_subtree_check,fsid=0,sync,pnfs "127.0.0.1:$e"
}

# pnfs_mds_nfs [OPTS]: the MDS's stores over NFS, as on a machine of its
# own: its NFSv3 mounts (hard; mount options OPTS added) of the 4 data
# servers at $H/tmp/mdsm/sN, the exofs over them at $E, exported (after
# pnfs_nfs_server ... nomds, with enough threads: an MDS's WRITE or
# COMMIT holds an nfsd thread while exofs waits for the data servers,
# served by the same nfsd). Sets PNFS_MDS_NFS for pnfs_stop.
pnfs_mds_nfs() {
	local i so=
	for i in 0 1 2 3; do
		mkdir -p $H/tmp/mdsm/s$i &&
		hostrun /sbin/mount.nfs $(pnfs_ds_ip $i):/tmp/ds/s$i /tmp/mdsm/s$i \
			-o vers=3,proto=tcp,nolock${1:+,$1} || return 1
		so="$so${so:+:}$H/tmp/mdsm/s$i"
	done
	PNFS_MDS_NFS=1
	exofs_mount_with "$so" "" $E && pnfs_export_mds >/dev/null
}

# pnfs_ds_mount I: the client's NFSv3 mount of data server I at
# $H/tmp/dsm/sI.
pnfs_ds_mount() {
	mkdir -p $H/tmp/dsm/s$1 &&
		hostrun /sbin/mount.nfs $(pnfs_ds_ip $1):/tmp/ds/s$1 /tmp/dsm/s$1 -o $DSOPT
}

# pnfs_server MKFS_OUT THREADS: nfsd.ko and exofs_pnfs.ko loaded, the 4
# stores' data-server addresses given, nfsd exporting the exofs at $E and
# the 4 store directories.
pnfs_server() {
	pnfs_load_nfsd && pnfs_data_servers "$1" && pnfs_nfs_server 4 "$2"
}

# pnfs_client MNT: the client with all 4 data servers: their NFSv3 mounts,
# objlayoutdriver.ko with them as its stores, the MDS mounted at $H$MNT.
pnfs_client() {
	local i
	for i in 0 1 2 3; do
		pnfs_ds_mount $i || return 1
	done
	insmod /ore/objlayoutdriver.ko || return 1
	for i in 0 1 2 3; do
		echo $H/tmp/dsm/s$i > $CP/stores || return 1
	done
	pnfs_mount_mds "$1"
}

# pnfs_stores_mkfs DESC MKFS_ARGS...: the built modules required, exofs
# loaded, ext4 stores on 4 disks, mkfs.exofs -f MKFS_ARGS over them (its
# output in /tmp/mkfs.out and as diagnostics): 3 results, DESC names the
# last. Ends the test when the modules or the stores are missing.
pnfs_stores_mkfs() {
	local desc=$1

	shift
	pnfs_require
	exofs_load || ktap_done
	exofs_stores_ext4 4 || ktap_done
	check "$desc" sh -c "mkfs.exofs -f $* $EXOFS_STORES > /tmp/mkfs.out 2>&1"
	sed 's/^/# /' /tmp/mkfs.out
}

# pnfs_serve_client MNT: pnfs_server (4 nfsd threads) over the exofs
# mounted at $E, then pnfs_client MNT; stops the test at a failure:
# 2 results.
pnfs_serve_client() {
	check "the patched nfsd.ko and exofs_pnfs.ko load, nfsd exports exofs and the stores" \
		pnfs_server /tmp/mkfs.out 4
	fail_fast
	check "the client: 4 data servers, objlayoutdriver, NFSv4.1 mount of the MDS" \
		pnfs_client "$1"
	fail_fast
}

# pnfs_hold SRC NAME: in the background the client writes SRC to
# $C4/NAME, syncs it and keeps it open (its layout out) until
# pnfs_unhold; waits (at most 30 s) until it is written, which
# /tmp/NAME.written then says.
pnfs_hold() {
	local n=0

	rm -f /tmp/$2.written
	sh -c "exec 3> $C4/$2; cat $1 >&3; sync; touch /tmp/$2.written; sleep 60" &
	PNFS_HOLDER=$!
	while [ ! -e /tmp/$2.written ] && [ $n -lt 300 ]; do
		sleep 0.1
		n=$((n + 1))
	done
}

# pnfs_unhold: the file of pnfs_hold closed (its layout returned).
pnfs_unhold() {
	kill $PNFS_HOLDER 2>/dev/null
	wait $PNFS_HOLDER 2>/dev/null
}

# pnfs_small_files SRC: the client writes 20 small files $C4/sI, the
# first I * 1000 + 1 bytes of SRC, and syncs; after the caches are
# dropped each reads right on the MDS ($E/sI).
pnfs_small_files() {
	local i=0

	while [ $i -lt 20 ]; do
		head -c $((i * 1000 + 1)) "$1" > $C4/s$i || return 1
		i=$((i + 1))
	done
	sync
	echo 3 > /proc/sys/vm/drop_caches
	i=0
	while [ $i -lt 20 ]; do
		head -c $((i * 1000 + 1)) "$1" | cmp - $E/s$i || return 1
		i=$((i + 1))
	done
}

# pnfs_stop: the client's mounts gone (the MDS at $C4, the data servers),
# objlayoutdriver unloaded, nfsd stopped, exofs_pnfs unloaded, the data
# servers' bind mounts and the exofs at $E unmounted (with
# PNFS_MDS_NFS: the exofs and its store mounts first, while the data
# servers serve them).
pnfs_stop() {
	local i
	umount $C4 && rmmod objlayoutdriver || return 1
	for i in 0 1 2 3; do
		umount $H/tmp/dsm/s$i || return 1
	done
	if [ -n "$PNFS_MDS_NFS" ]; then
		hostrun exportfs -u "127.0.0.1:$e" && umount $E || return 1
		for i in 0 1 2 3; do
			umount $H/tmp/mdsm/s$i || return 1
		done
	fi
	hostrun exportfs -ua && hostrun rpc.nfsd 0 && sleep 1 &&
		rmmod exofs_pnfs || return 1
	for i in 0 1 2 3; do
		umount $H/tmp/ds/s$i || return 1
	done
	[ -n "$PNFS_MDS_NFS" ] || umount $E
}

# pnfs_mount_mds MNT: the client's NFSv4.1 mount of the MDS at $H$MNT;
# fails unless it uses the objects layout.
pnfs_mount_mds() {
	mkdir -p $H$1 &&
	hostrun /sbin/mount.nfs4 127.0.0.1:/ "$1" -o vers=4.1 &&
	grep -A 30 " $H$1 " /proc/self/mountstats > /tmp/ms &&
	grep -q 'pnfs=LAYOUT_OSD2_OBJECTS' /tmp/ms ||
		{ head -n 8 /tmp/ms; dmesg | tail -n 5; return 1; }
}
