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
# KiB written, synced, then read back after dropping the caches).
#
#   make nfsd && make bench B=pnfs ARGS="--disks 4 --disk-size 1G"
#
# Before the rounds, a small file is written through the layout until one
# write goes (nfsd's grace period holds LAYOUTGET back for its first 10 s).
#
# Options (ARGS="... --args a,b"): size=SIZE (default 256M), files=N
# (default 300), rounds=N (default 2: pnfs then mds, then mds then pnfs,
# ...; the mean and the spread are printed), ra=KB (the mount's
# read_ahead_kb, both sides; default the kernel's), mds_stores=nfs (the
# MDS reaches its stores through the data servers, NFSv3 mounts of their
# exports, as a MDS on a machine of its own would: its exofs is mounted
# over those mounts; by default the MDS's exofs uses the store
# directories directly, the data servers' own file systems), threads=N
# (nfsd's threads; default 8, 64 with mds_stores=nfs), mds_read_size=N
# (objlayoutdriver's: files up to N bytes are read through the MDS on the
# pnfs side too; default the driver's, 64 KiB; 0: every file through its
# layout), ds=distinct (the data servers at 127.0.0.2-5, one NFS client
# and connection each, instead of all at 127.0.0.1), unrecorded (a third
# side, "pnfs0": the layout path with exofs_pnfs's record_layouts off, RW
# layouts out of the intent record, to measure what recording them
# costs), csum (XXH64 data checksums kept in side files only, mkfs.exofs
# --checksum-heads no: the clients keep and verify them on the pnfs
# side, the MDS on the mds side; default --checksum none), stacks (in the first
# round, sample the kernel stacks of both CPUs during each side's write:
# bench/stacks.sh).
. /ore/tests/lib.sh
. /ore/bench/stacks.sh
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
	stacks) STACKS=1 ;;
	mds_stores=nfs) MDS_NFS=1 ;;
	threads=*) THREADS=${a#threads=} ;;
	mds_read_size=*) READ_SIZE=${a#mds_read_size=} ;;
	ds=distinct) PNFS_DS_DISTINCT=1 ;;
	unrecorded) UNREC=1 ;;
	csum) CSUM="--checksum xxh64 --checksum-heads no" ;;
	esac
done
OUT=/tmp/pnfs_bench
M=/tmp/pn
mkdir -p $OUT

# one nfsd serves the MDS and the data servers: over its own stores on
# NFS, an MDS's WRITE or COMMIT holds an nfsd thread while exofs waits
# for the data servers, so with few threads all of them can wait at once
[ -z "$THREADS" ] && THREADS=8 && [ -n "$MDS_NFS" ] && THREADS=64
[ "$ORE_DISKS" -ge 4 ] || { echo "needs 4 disks"; exit 1; }
have_host fio || { echo "needs the host's fio"; exit 1; }
pnfs_built || { echo "nfsd.ko, exofs_pnfs.ko or objlayoutdriver.ko is not built (make nfsd)"; exit 1; }

setup() {
	exofs_load >/dev/null && exofs_stores_ext4 4 >/dev/null &&
	mkfs.exofs -f ${CSUM:---checksum none} --raid 5 -L bench $EXOFS_STORES > /tmp/mkfs.out 2>&1 || return 1
	if [ -n "$MDS_NFS" ]; then
		pnfs_load_nfsd && pnfs_data_servers /tmp/mkfs.out >/dev/null &&
		pnfs_nfs_server 4 "$THREADS" nomds >/dev/null && pnfs_mds_nfs || return 1
	else
		exofs_mount "" $E && pnfs_load_nfsd && pnfs_data_servers /tmp/mkfs.out >/dev/null &&
		pnfs_nfs_server 4 "$THREADS" >/dev/null || return 1
	fi
	for i in 0 1 2 3; do pnfs_ds_mount $i || return 1; done &&
	insmod /ore/objlayoutdriver.ko &&
	for i in 0 1 2 3; do echo $H/tmp/dsm/s$i > $CP/stores || return 1; done &&
	pnfs_mount_mds $M
}
[ -n "$STACKS" ] && dmesg -n 1	# sysrq-l's traces stay off the serial console
setup || { echo "set-up failed"; cat /tmp/mkfs.out; dmesg | tail -n 20; exit 1; }
# the mount's read-ahead (both sides: one mount)
BDI=/sys/class/bdi/$(awk -v m="$H$M" '$5 == m { print $3 }' /proc/self/mountinfo)/read_ahead_kb
[ -n "$RA" ] && echo "$RA" > $BDI
[ -n "$READ_SIZE" ] && echo "$READ_SIZE" > $CP/mds_read_size
echo "== data servers: $(for i in 0 1 2 3; do printf '%s ' $(pnfs_ds_ip $i); done)"
echo "== objlayoutdriver mds_read_size: $(cat $CP/mds_read_size)"
echo "== read_ahead_kb of the mount: $(cat $BDI)"

now() { awk '{ print $1 }' /proc/uptime; }
drop() { sync; echo 3 > /proc/sys/vm/drop_caches; }

# busy: the CPU time of both vCPUs so far, all but idle and iowait, and
# the total ("BUSY TOTAL", in ticks)
busy() {
	awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 + $9, $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9 }' /proc/stat
}

# fio_mbs JOB [SAMPLE]: MB/s of one fio job over $M/big; with SAMPLE, the
# kernel stacks are sampled as stacks.SAMPLE while it runs. The share of
# CPU time busy during the job goes to $OUT/busy.
fio_mbs() {
	local rw=$1 extra= pid b0 b1
	[ "$rw" = write ] && extra="--end_fsync=1 --create_on_open=1"
	b0=$(busy)
	hostrun fio --name=$rw --filename=$M/big --ioengine=psync --direct=0 \
		--rw=$rw --bs=1M --size="$SIZE" $extra --minimal > $OUT/fio.out 2> $OUT/fio.err &
	pid=$!
	if [ -n "$2" ]; then
		sleep 2
		stacks_sample "$2" 120 >&2
	fi
	wait $pid || { cat $OUT/fio.err >&2; echo 0; return; }
	b1=$(busy)
	echo "$b0 $b1" | awk '{ printf "%.0f\n", 100 * ($3 - $1) / ($4 - $2) }' > $OUT/busy
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

# small_verify SIDE: every small file against what was written (the first
# 3 that differ are named, with their first differing bytes; BAD is set)
small_verify() {
	local i=0 bad=0 n
	while [ $i -lt "$FILES" ]; do
		n=$(( (i % 32 + 1) * 1024 ))
		if ! head -c $n /tmp/src | cmp -s - $H$M/small/f$i; then
			bad=$((bad + 1))
			BAD=1
			[ $bad -le 3 ] && echo "   $1: small/f$i (inode $(stat -c %i $H$M/small/f$i), $(stat -c %s $H$M/small/f$i) bytes, $n written) differs:" \
				"$(head -c $n /tmp/src | cmp -l - $H$M/small/f$i 2>&1 | head -n 3 | tr '\n' ' ')"
		fi
		i=$((i + 1))
	done
	[ $bad = 0 ] || echo "   $1: $bad of $FILES small files differ from what was written"
}

# run SIDE: the four jobs on SIDE (pnfs, pnfs0 or mds), appended to $OUT/SIDE
run() {
	local side=$1 w r s wb
	echo $([ "$side" = mds ] && echo 1 || echo 0) > $CP/mds_only
	echo $([ "$side" = pnfs0 ] && echo 0 || echo 1) > $PP/record_layouts
	rm -f $H$M/big; drop
	w=$(fio_mbs write $([ -n "$STACKS" ] && [ "$RND" = 1 ] && echo "$side"))
	wb=$(cat $OUT/busy)
	drop
	r=$(fio_mbs read)
	s=$(small)
	small_verify "$side"
	echo "$w $r $s" >> $OUT/$side
	echo "   $side: seqwrite $w MB/s (CPU busy $wb %), seqread $r MB/s, small files write+sync $(echo $s | cut -d' ' -f1) s, read $(echo $s | cut -d' ' -f2) s"
	echo "      driver (since loaded): writes $(cat $CP/writes) of $(cat $CP/write_bytes) bytes, $(cat $CP/slot_waits) waited for a partial stripe; reads $(cat $CP/reads) fallbacks $(cat $CP/mds_fallbacks)"
	echo "      exofs_pnfs (since loaded): layoutgets $(cat $PP/layoutgets), layoutreturns $(cat $PP/layoutreturns), layoutcommits $(cat $PP/layoutcommits), unavailable $(cat $PP/unavailable); exofs intent: $(cat /sys/fs/exofs/*/intent)"
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
RND=1
while [ $RND -le "$ROUNDS" ]; do
	echo "-- round $RND"
	if [ -n "$UNREC" ]; then
		if [ $((RND % 2)) = 1 ]; then run pnfs; run pnfs0; run mds; else run mds; run pnfs0; run pnfs; fi
	elif [ $((RND % 2)) = 1 ]; then run pnfs; run mds; else run mds; run pnfs; fi
	RND=$((RND + 1))
done

# mean and spread (max - min) of column C of FILE
stat() {
	awk -v c=$2 '{ v = $c; s += v; if (NR == 1 || v < lo) lo = v; if (NR == 1 || v > hi) hi = v }
	     END { printf "%.2f %.2f", s / NR, hi - lo }' $1
}
echo
# table A B: the four jobs, side A against side B (ratio A/B, > 1: A ahead)
table() {
	local a=$1 b=$2 j p m ratio

	printf '%-22s %16s %16s %8s\n' job "$a" "$b" ratio
	for j in "1 seqwrite_MB/s up" "2 seqread_MB/s up" "3 small_write+sync_s down" "4 small_read_s down"; do
		set -- $j
		p=$(stat $OUT/$a $1) m=$(stat $OUT/$b $1)
		ratio=$(echo "$p $m" | awk -v dir=$3 '{ if (dir == "up") printf "%.2f", ($3 ? $1 / $3 : 0); else printf "%.2f", ($1 ? $3 / $1 : 0) }')
		printf '%-22s %16s %16s %8s\n' "$2" "$(echo $p | awk '{ printf "%s +-%s", $1, $2 }')" \
			"$(echo $m | awk '{ printf "%s +-%s", $1, $2 }')" "$ratio"
	done
}
echo "== summary (mean, spread over $ROUNDS rounds; ratio pnfs/mds, > 1 is pnfs ahead)"
table pnfs mds
if [ -n "$UNREC" ]; then
	echo "== RW layouts in the intent record: pnfs (recorded) against pnfs0 (not); ratio pnfs/pnfs0, < 1 is the cost"
	table pnfs pnfs0
fi
echo 1 > $PP/record_layouts
echo 0 > $CP/mds_only
umount $H$M
[ -z "$BAD" ] || { echo "== small files read back wrong: the figures are not of right data"; exit 1; }
echo "== done"
