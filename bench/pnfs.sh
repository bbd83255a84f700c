#!/bin/sh
# The pNFS objects layout against plain NFS through the MDS (issue 13), in
# one guest run, the same files over the same 4 data servers: exofs RAID5
# (stripe unit 64K) over 4 ext4 stores is the MDS (tests/guest/pnfs_lib.sh);
# one NFSv4.1 mount. "pnfs": the client's objlayoutdriver reads and writes
# the components on the data servers (NFSv3 mounts of the store
# directories) and computes the parity itself; "mds": the same mount with
# objlayoutdriver's mds_only set, so every read and write goes to the MDS,
# whose exofs does the RAID. Jobs: sequential 1 MiB write (buffered, fsync
# at the end: both sides stable) and read (after dropping every cache) of
# a SIZE file with the host's fio, and small files (FILES files of 1-32
# KiB written, synced, then read back after dropping the caches). nfsd
# runs 8 threads.
#
#   make nfsd && make bench B=pnfs ARGS="--disks 4 --disk-size 1G"
#
# Before the rounds, a small file is written through the layout until one
# write goes (nfsd's grace period holds LAYOUTGET back for its first 10 s).
#
# Options (ARGS="... --args a,b"): size=SIZE (default 256M), files=N
# (default 300), rounds=N (default 2: pnfs then mds, then mds then pnfs,
# ...; the mean and the spread are printed), ra=KB (the mount's
# read_ahead_kb, both sides; default the kernel's).
. /ore/tests/lib.sh
. /ore/tests/exofs_lib.sh
. /ore/tests/pnfs_lib.sh

SIZE=256M FILES=300 ROUNDS=2
shift	# the stage
for a in "$@"; do
	case $a in
	size=*) SIZE=${a#size=} ;;
	files=*) FILES=${a#files=} ;;
	rounds=*) ROUNDS=${a#rounds=} ;;
	ra=*) RA=${a#ra=} ;;
	esac
done
OUT=/tmp/pnfs_bench
M=/tmp/pn
mkdir -p $OUT

[ "$ORE_DISKS" -ge 4 ] || { echo "needs 4 disks"; exit 1; }
have_host fio || { echo "needs the host's fio"; exit 1; }
pnfs_built || { echo "nfsd.ko, exofs_pnfs.ko or objlayoutdriver.ko is not built (make nfsd)"; exit 1; }

setup() {
	exofs_load >/dev/null && exofs_stores_ext4 4 >/dev/null &&
	mkfs.exofs -f --checksum none --raid 5 -L bench $EXOFS_STORES > /tmp/mkfs.out 2>&1 &&
	exofs_mount "" $E && pnfs_load_nfsd && pnfs_data_servers /tmp/mkfs.out >/dev/null &&
	pnfs_nfs_server 4 8 >/dev/null &&
	for i in 0 1 2 3; do pnfs_ds_mount $i || return 1; done &&
	insmod /ore/objlayoutdriver.ko &&
	for i in 0 1 2 3; do echo $H/tmp/dsm/s$i > $CP/stores || return 1; done &&
	pnfs_mount_mds $M
}
setup || { echo "set-up failed"; cat /tmp/mkfs.out; dmesg | tail -n 20; exit 1; }
# the mount's read-ahead (both sides: one mount)
BDI=/sys/class/bdi/$(awk -v m="$H$M" '$5 == m { print $3 }' /proc/self/mountinfo)/read_ahead_kb
[ -n "$RA" ] && echo "$RA" > $BDI
echo "== read_ahead_kb of the mount: $(cat $BDI)"

now() { awk '{ print $1 }' /proc/uptime; }
drop() { sync; echo 3 > /proc/sys/vm/drop_caches; }

# fio_mbs JOB: MB/s of one fio job over $M/big
fio_mbs() {
	local rw=$1 extra=
	[ "$rw" = write ] && extra="--end_fsync=1 --create_on_open=1"
	hostrun fio --name=$rw --filename=$M/big --ioengine=psync --direct=0 \
		--rw=$rw --bs=1M --size="$SIZE" $extra --minimal > $OUT/fio.out 2> $OUT/fio.err ||
		{ cat $OUT/fio.err >&2; echo 0; return; }
	case $rw in
	write) tail -n 1 $OUT/fio.out | awk -F';' '{ printf "%.1f\n", $48 / 1024 }' ;;
	*) tail -n 1 $OUT/fio.out | awk -F';' '{ printf "%.1f\n", $7 / 1024 }' ;;
	esac
}

# small: seconds to write FILES files (1-32 KiB) and sync, then seconds
# to read them all back from cold caches: "W R"
small() {
	local t0 t1 t2 i
	rm -rf $H$M/small; mkdir $H$M/small; drop
	t0=$(now)
	i=0
	while [ $i -lt "$FILES" ]; do
		head -c $(( (i % 32 + 1) * 1024 )) /tmp/src > $H$M/small/f$i
		i=$((i + 1))
	done
	sync
	t1=$(now)
	drop
	t2=$(now)
	cat $H$M/small/* | md5sum > $OUT/small.sum
	echo "$(awk -v a=$t0 -v b=$t1 'BEGIN { printf "%.2f", b - a }')" \
	     "$(awk -v a=$t2 -v b=$(now) 'BEGIN { printf "%.2f", b - a }')"
}
head -c 32768 /dev/urandom > /tmp/src

# run SIDE: the four jobs on SIDE (pnfs or mds), appended to $OUT/SIDE
run() {
	local side=$1 w r s
	echo $([ "$side" = mds ] && echo 1 || echo 0) > $CP/mds_only
	rm -f $H$M/big; drop
	w=$(fio_mbs write)
	drop
	r=$(fio_mbs read)
	s=$(small)
	cmp $OUT/small.sum $OUT/small.ref 2>/dev/null ||
		{ [ -e $OUT/small.ref ] && echo "   $side: small files differ from the first run!"; }
	[ -e $OUT/small.ref ] || cp $OUT/small.sum $OUT/small.ref
	echo "$w $r $s" >> $OUT/$side
	echo "   $side: seqwrite $w MB/s, seqread $r MB/s, small files write+sync $(echo $s | cut -d' ' -f1) s, read $(echo $s | cut -d' ' -f2) s"
	echo "      driver (since loaded): writes $(cat $CP/writes) of $(cat $CP/write_bytes) bytes, $(cat $CP/slot_waits) waited for a partial stripe; reads $(cat $CP/reads) fallbacks $(cat $CP/mds_fallbacks)"
}

# warm: nfsd's grace period (10 s from its start) holds LAYOUTGET back,
# so the first pnfs write of a round 1 waited for its end (about 7 s of
# a 256 MiB write: 18-20 MB/s against 38-47 in the later rounds).
# Write a small file through the layout until one write goes (at most 30
# tries, 1 s apart), not measured.
warm() {
	local i=0 w0 t0
	w0=$(cat $CP/writes)
	t0=$(now)
	echo 0 > $CP/mds_only
	while [ $i -lt 30 ]; do
		cat /tmp/src > $H$M/warm 2>/dev/null
		sync
		[ "$(cat $CP/writes)" != "$w0" ] && break
		rm -f $H$M/warm
		sleep 1
		i=$((i + 1))
	done
	rm -f $H$M/warm
	echo "== warm-up: a write through the layout went after $(awk -v a=$t0 -v b=$(now) 'BEGIN { printf "%.1f", b - a }') s ($i retries)"
}
warm
echo "== pnfs (client RAID5 over 4 data servers) against mds (NFSv4.1 through the MDS), size $SIZE, $FILES small files, $ROUNDS rounds"
r=1
while [ $r -le "$ROUNDS" ]; do
	echo "-- round $r"
	if [ $((r % 2)) = 1 ]; then run pnfs; run mds; else run mds; run pnfs; fi
	r=$((r + 1))
done

# mean and spread (max - min) of column C of FILE
stat() {
	awk -v c=$2 '{ v = $c; s += v; if (NR == 1 || v < lo) lo = v; if (NR == 1 || v > hi) hi = v }
	     END { printf "%.2f %.2f", s / NR, hi - lo }' $1
}
echo
echo "== summary (mean, spread over $ROUNDS rounds; ratio pnfs/mds, > 1 is pnfs ahead)"
printf '%-22s %16s %16s %8s\n' job pnfs mds ratio
for j in "1 seqwrite_MB/s up" "2 seqread_MB/s up" "3 small_write+sync_s down" "4 small_read_s down"; do
	set -- $j
	p=$(stat $OUT/pnfs $1) m=$(stat $OUT/mds $1)
	ratio=$(echo "$p $m" | awk -v dir=$3 '{ if (dir == "up") printf "%.2f", ($3 ? $1 / $3 : 0); else printf "%.2f", ($1 ? $3 / $1 : 0) }')
	printf '%-22s %16s %16s %8s\n' "$2" "$(echo $p | awk '{ printf "%s +-%s", $1, $2 }')" \
		"$(echo $m | awk '{ printf "%s +-%s", $1, $2 }')" "$ratio"
done
echo 0 > $CP/mds_only
umount $H$M
echo "== done"
