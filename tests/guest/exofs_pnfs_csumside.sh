#!/bin/sh
# pNFS clients keeping the data checksums (issues 12 and 13): an exofs
# made with --checksum-heads no keeps every checksum in the side files
# ("<oid>.csum") of its components, which the clients reach over their
# NFSv3 mounts of the data servers, so the MDS hands out layouts and the
# clients' ORE stores the checksums of what it writes and verifies what
# it reads. Checks, exofs RAID5 over 4 ext4 stores, XXH64: the client
# writes a 2.5 MiB file through its layout, its components get side files
# with entries and no heads, the MDS reads it back right with no checksum
# error; the client overwrites part of a file the MDS wrote (the MDS's
# checksums replaced by the client's: the MDS reads the new bytes with no
# checksum error, where a client that kept no checksums would leave the
# old ones and fail the read); the MDS writes that file again and the
# client reads its new bytes through a new layout with no checksum error
# (its cached side files let go); 16 bytes flipped in a component on its data
# server: the client's read through its layout verifies, rebuilds the block
# from the parity and returns the right bytes (its driver counts a
# degraded read and a checksum error), and does not rewrite it (it does
# not hold the stripes): the MDS hears of it at the layout's return and
# rewrites the block with no read of its own; small files written by
# the client read right on the MDS; a scrub recalls the layout of a file
# the client holds open; fsck.exofs clean at the end (every
# checksum against its data). Same set-up as exofs_pnfs_client.sh; make
# nfsd first.
# ORE_ARGS "mdsnfs": the MDS's exofs over NFSv3 mounts of the data servers
# instead of the store directories (pnfs_mds_nfs, as an MDS on a machine
# of its own): its NFS client caches the side files, so it must let them
# go after the client's layouts (exofs_pnfs_refresh()) and write back its
# own before one is handed out. The MDS's mounts keep attributes 600 s
# (actimeo; the default is up to 60 s), so that what their NFS client
# caches stays until exofs lets it go; the MDS's reads drop no cache (a
# drop_caches would drop its NFS client's too: its exofs caches nothing
# of the files the client writes, dropped at each layout and commit), and
# its overwrite is not synced before the client reads it (the layout
# writes its checksums to the data servers).
. /ore/tests/lib.sh
. /ore/tests/exofs_lib.sh

ktap_plan 25

. /ore/tests/pnfs_lib.sh
c4=/tmp/nfs4
C4=$H$c4

pnfs_stores_mkfs "mkfs.exofs --raid 5 over 4 stores, --checksum-heads no" \
	--raid 5 --stripe-unit 16K --checksum-heads no -L pnfsside
case " $ORE_ARGS " in
*" mdsnfs "*)
	mds_over_nfs() {
		pnfs_load_nfsd && pnfs_data_servers /tmp/mkfs.out &&
			pnfs_nfs_server 4 32 nomds && pnfs_mds_nfs actimeo=600
	}
	mds_drop=:
	mds_sync=:
	PNFS_MDS_NFS=1	# pnfs_mds_nfs's runs in check's subshell
	check "nfsd serves the stores, exofs mounted over NFS mounts of them" \
		mds_over_nfs
	fail_fast
	check "the MDS's 4 stores are NFS mounts" sh -c "
		[ \$(grep -c ' $H/tmp/mdsm/s[0-3] nfs ' /proc/mounts) = 4 ]"
	check "checksums xxh64" sh -c "[ \"\$(cat $(exofs_sysdir)/checksums)\" = xxh64 ]"
	check "the client: 4 data servers, objlayoutdriver, NFSv4.1 mount of the MDS" \
		pnfs_client $c4
	fail_fast ;;
*)
	mds_drop="echo 3 > /proc/sys/vm/drop_caches"
	mds_sync=sync
	check "mount exofs" exofs_mount "" $E
	check "checksums xxh64" sh -c "[ \"\$(cat $(exofs_sysdir)/checksums)\" = xxh64 ]"
	fail_fast
	pnfs_serve_client $c4 ;;
esac

cnt() { cat $CP/$1; }
ecnt() { cat "$(exofs_sysdir)/$1"; }
drop() { echo 3 > /proc/sys/vm/drop_caches; }

dd if=/dev/urandom of=/tmp/big bs=64k count=40 2>/dev/null	# 2.5 MiB
w0=$(cnt write_bytes) u0=$(cat $PP/unavailable) g0=$(cat $PP/layoutgets)
ce0=$(ecnt checksum_errors)
check "a 2.5 MiB file written by the client through its layout" sh -c "
	cp /tmp/big $C4/big && sync &&
	[ \$(( \$(cat $CP/write_bytes) - $w0 )) -ge 2621440 ] &&
	[ \$(cat $PP/layoutgets) -gt $g0 ] && [ \$(cat $PP/unavailable) = $u0 ]"
diag "driver write_bytes $w0 -> $(cnt write_bytes); exofs_pnfs layoutgets $g0 -> $(cat $PP/layoutgets), unavailable $(cat $PP/unavailable)"
ino=$(stat -c %i $E/big)
# side files with entries (not all zero), no head, on every component
sides() {
	local c f
	for c in 0 1 2 3; do
		f=$(comp_file "$ino" 4 $c 1)
		[ -s "$f.csum" ] || { echo "no side file $f.csum"; return 1; }
		[ "$(tr -d '\000' < "$f.csum" | wc -c)" -gt 0 ] || { echo "$f.csum all zero"; return 1; }
		if fsop xattr get "$f" user.ore.csum > /dev/null 2>&1; then
			echo "$f has a head"
			return 1
		fi
	done
}
check "its components have side files with entries, and no heads" sides
check "the MDS reads it back right, no checksum error" sh -c "
	$mds_drop && cmp /tmp/big $E/big && [ \$(cat $(exofs_sysdir)/checksum_errors) = $ce0 ]"

# A file the MDS wrote, part of it overwritten by the client: 100 KiB
# at 1 MiB + 5000 (partial stripes: the client reads for the parity,
# verifying, and replaces the checksums of the blocks it writes).
dd if=/dev/urandom of=/tmp/patch bs=1000 count=100 2>/dev/null
check "a file written on the MDS" sh -c "cp /tmp/big $E/mds && sync"
w1=$(cnt write_bytes)
check "100 KiB of it overwritten by the client through its layout" sh -c "
	dd if=/tmp/patch of=$C4/mds bs=1000 seek=1053 conv=notrunc 2>/dev/null && sync &&
	[ \$(( \$(cat $CP/write_bytes) - $w1 )) -ge 102400 ]"
cp /tmp/big /tmp/want && dd if=/tmp/patch of=/tmp/want bs=1000 seek=1053 conv=notrunc 2>/dev/null
check "the MDS reads the new bytes, no checksum error" sh -c "
	$mds_drop && cmp /tmp/want $E/mds &&
	[ \$(cat $(exofs_sysdir)/checksum_errors) = $ce0 ]"
check "the client reads them back through its layout" sh -c "
	echo 3 > /proc/sys/vm/drop_caches && cmp /tmp/want $C4/mds"
# The MDS writes the file again (the client's layout recalled): the
# client, which keeps the side files of its components cached (the NFS
# client's pages of its data-server mounts), must read the MDS's new
# entries through its next layout, not its cached ones (no drop_caches
# here: the client's next open revalidates the file, its new layout
# lets go of the cached side files).
dd if=/dev/urandom of=/tmp/patch2 bs=1000 count=100 2>/dev/null
cp /tmp/want /tmp/want2 && dd if=/tmp/patch2 of=/tmp/want2 bs=1000 seek=300 conv=notrunc 2>/dev/null
check "the MDS overwrites 100 KiB of it" sh -c "
	dd if=/tmp/patch2 of=$E/mds bs=1000 seek=300 conv=notrunc 2>/dev/null && $mds_sync"
k1=$(cnt csum_errors) r1=$(cnt read_bytes)
check "the client reads the MDS's bytes through a new layout, no checksum error" sh -c "
	cmp /tmp/want2 $C4/mds && [ \$(cat $CP/csum_errors) = $k1 ] &&
	[ \$(cat $CP/read_bytes) -gt $r1 ]"
diag "driver csum_errors $k1 -> $(cnt csum_errors), read_bytes $r1 -> $(cnt read_bytes)"

# Bitrot on a data server: 16 bytes of component 0 of big flipped.
f=$(comp_file "$ino" 4 0 1)
dd if="$f" of=/tmp/orig bs=4096 count=1 2>/dev/null
d0=$(cnt degraded) e0=$(cnt ioerrs) k0=$(cnt csum_errors) r0=$(cnt read_bytes)
q0=$(cat $PP/ioerr_reports) ce1=$(ecnt checksum_errors) cr1=$(ecnt checksum_repairs)
flipped() {
	flip "$f" && ! dd if="$f" bs=4096 count=1 2>/dev/null | cmp -s - /tmp/orig
}
check "16 bytes of component 0 flipped on its data server" flipped
check "the client reads the file right through its layout" sh -c "
	echo 3 > /proc/sys/vm/drop_caches && cmp /tmp/big $C4/big &&
	[ \$(cat $CP/read_bytes) -gt $r0 ]"
diag "driver degraded $d0 -> $(cnt degraded), csum_errors $k0 -> $(cnt csum_errors), ioerrs $e0 -> $(cnt ioerrs)"
check "its ORE verified: the block failed its checksum, was rebuilt, reported" sh -c "
	[ $(cnt degraded) -gt $d0 ] && [ $(cnt csum_errors) -gt $k0 ] && [ $(cnt ioerrs) -gt $e0 ]"
# The client does not rewrite the block (it does not hold the stripes);
# the MDS hears of the error when the layout comes back (the read's
# close) and rewrites what fails in the file, with no read of its own.
mds_heals() {
	local n=0
	while [ "$(ecnt checksum_repairs)" -le "$cr1" ] ||
	      ! dd if="$f" bs=4096 count=1 2>/dev/null | cmp -s - /tmp/orig; do
		n=$((n + 1))
		[ $n -lt 150 ] || return 1
		sleep 0.1
	done
	[ "$(cat $PP/ioerr_reports)" -gt "$q0" ]
}
check "the MDS heard of it at the layout's return and rewrote the block" mds_heals
diag "exofs_pnfs ioerr_reports $q0 -> $(cat $PP/ioerr_reports); exofs checksum_errors $ce1 -> $(ecnt checksum_errors), checksum_repairs $cr1 -> $(ecnt checksum_repairs)"
dmesg | grep 'client read error' | sed 's/^/# /'
check "the MDS reads the file right" sh -c "
	echo 3 > /proc/sys/vm/drop_caches && cmp /tmp/big $E/big"
check "the client's small files are right on the MDS" pnfs_small_files /tmp/big
# A scrub recalls the layouts of the files it reads (a holder writing
# under a repairing scrub would have its new data taken for a mismatch):
# with the client holding a file open with its RW layout (its regions
# pinned in the intent record), a scrub check ends, finds nothing, and
# nfsd has freed the layout as returned: the Linux client, which let its
# unused segment go already, answers the recall with NOMATCHING_LAYOUT,
# which is no lost layout (nothing of it is in flight): no repair
# (intent `dropped` stays 0).
pinned() { sed -n 's/.* pinned \([0-9]*\) .*/\1/p' "$(exofs_sysdir)/intent"; }
dropped() { sed -n 's/.* dropped \([0-9]*\) .*/\1/p' "$(exofs_sysdir)/intent"; }
pnfs_hold /tmp/big held
p0=$(pinned) dr0=$(dropped)
scrub_recalls() {	# the regions leave the record by a work item: wait
	local n=0
	[ "$p0" = 1 ] && exofs_scrub check || return 1
	while [ "$(pinned)" != 0 ]; do
		n=$((n + 1))
		[ $n -lt 50 ] || return 1
		sleep 0.2
	done
	[ "$(dropped)" = "$dr0" ]
}
check "a scrub recalls the layout of a file a client holds, finds nothing" scrub_recalls
diag "pinned $p0 -> $(pinned); $(cat $(exofs_sysdir)/intent)"
pnfs_unhold
check "unmount the client, unload objlayoutdriver, stop nfsd" pnfs_stop
check "fsck.exofs is clean (every checksum against its data)" exofs_fsck
ktap_done
