#!/bin/sh
# The CPU of a 4 KiB random write in the RAID layer itself, oreblk against
# md (issue 14), with the members on null_blk (memory backed) instead of
# the virtio disks: no device model, no notification, completions in the
# submitter's softirq. What is left is the RAID layers, the block layer,
# fio and null_blk's copy, the last three the same on both sides. Each
# job writes exactly COUNT blocks (fio --io_size) at random over the first
# 64 MiB of the array; member reads and writes are counted exactly from
# /sys/block/nullbN/stat, the CPU of both vCPUs from /proc/stat.
#
#   make bench B=null_cost ARGS="--disks 1 --disk-size 64M"
#
# Options (--args a,b): level=5|6 (default 6: over 6 members; 5: over 4),
# rounds=N (default 3; the order of oreblk and md alternates), qd=N
# (default 16), count=N (writes per job, default 20480), arrays=LIST
# (oreblk arrays, + separated: default, nocsum (--checksums none), resync
# (--consistency-policy resync --checksums none); default "default"),
# stacks (then sample both CPUs' kernel stacks during one more job of
# each: bench/stacks.sh).
. /ore/tests/lib.sh
. /ore/bench/stacks.sh

LEVEL=6 ROUNDS=3 QD=16 COUNT=20480 ARRAYS=default STACKS=
shift	# the stage
for a in "$@"; do
	case $a in
	level=*) LEVEL=${a#level=} ;;
	rounds=*) ROUNDS=${a#rounds=} ;;
	qd=*) QD=${a#qd=} ;;
	count=*) COUNT=${a#count=} ;;
	arrays=*) ARRAYS=$(echo "${a#arrays=}" | tr + ' ') ;;
	stacks) STACKS=1 ;;
	esac
done
case $LEVEL in
5) N=4 ;;
6) N=6 ;;
*) echo "level=5 or 6"; exit 1 ;;
esac
have_host fio && have_host mdadm || { echo "needs the host's fio and mdadm"; exit 1; }
OUT=/tmp/null_cost
mkdir -p $OUT
rm -f $OUT/*
hostrun modprobe null_blk nr_devices=$N gb=1 memory_backed=1 || exit 1
DEVS=$(i=0; while [ $i -lt $N ]; do echo /dev/nullb$i; i=$((i + 1)); done | tr '\n' ' ')
insmod /ore/ore.ko && insmod /ore/oreblk.ko || exit 1
[ -n "$STACKS" ] && dmesg -n 1	# sysrq-l's traces stay off the serial console

# counts: "member-reads member-writes busy-ticks uptime"
counts() {
	cat /sys/block/nullb*/stat | awk '{ r += $1; w += $5 } END { printf "%d %d ", r, w }'
	awk '/^cpu / { printf "%d ", $2 + $3 + $4 + $7 + $8 + $9 }' /proc/stat
	awk '{ print $1 }' /proc/uptime
}

# job NAME DEV: COUNT random writes; "writes/s CPU-us reads writes" per
# array write appended to $OUT/NAME
job() {
	local a b
	a=$(counts)
	hostrun fio --name=w --filename="$2" --ioengine=libaio --direct=1 --iodepth="$QD" \
		--rw=randwrite --bs=4k --size=64M --io_size=$((COUNT * 4))k \
		--randrepeat=0 --norandommap --minimal > $OUT/fio.out 2>&1 || { cat $OUT/fio.out; return 1; }
	b=$(counts)
	echo "$a $b" | awk -v n="$COUNT" '{ printf "%.0f %.0f %.2f %.2f\n",
		n / ($8 - $4), ($7 - $3) * 10000 / n, ($5 - $1) / n, ($6 - $2) / n }' >> "$OUT/$1"
	echo "   $1: $(tail -n 1 "$OUT/$1") (writes/s, CPU us, member reads, member writes per write)"
}

opts_of() {
	case $1 in
	default) echo "" ;;
	nocsum) echo "--checksums none" ;;
	resync) echo "--consistency-policy resync --checksums none" ;;
	*) echo "arrays: default, nocsum or resync" >&2; return 1 ;;
	esac
}

oreblk_jobs() {
	local cfg opts
	for cfg in $ARRAYS; do
		opts=$(opts_of $cfg) || return 1
		oreblk create /dev/oreblk0 --force --assume-clean --raid "$LEVEL" --chunk 64K \
			-n $N $opts $DEVS > /dev/null || return 1
		job "oreblk.$cfg" /dev/oreblk0
		[ -n "$STACKS" ] && [ "$r" = "$ROUNDS" ] && [ "$cfg" = default ] && stacks oreblk /dev/oreblk0
		oreblk stop /dev/oreblk0 > /dev/null && oreblk wipe $DEVS || return 1
	done
}

md_job() {
	hostrun mdadm --create /dev/md0 --run --quiet --level="$LEVEL" --chunk=64 --raid-devices=$N \
		--metadata=1.2 --assume-clean --bitmap=none $DEVS < /dev/null || return 1
	job md /dev/md0
	[ -n "$STACKS" ] && [ "$r" = "$ROUNDS" ] && stacks md /dev/md0
	hostrun mdadm --stop /dev/md0 > /dev/null && hostrun mdadm --zero-superblock $DEVS
}

# stacks NAME DEV: sample both CPUs' kernel stacks during a timed job
stacks() {
	local pid
	hostrun fio --name=w --filename="$2" --ioengine=libaio --direct=1 --iodepth="$QD" \
		--rw=randwrite --bs=4k --size=64M --time_based --runtime=14 \
		--randrepeat=0 --norandommap --minimal > $OUT/fio.out 2>&1 &
	pid=$!
	sleep 3
	stacks_sample "$1" 160
	wait $pid
}

echo "== RAID$LEVEL over $N null_blk members ($DEVS), 4 KiB random writes, qd $QD, $COUNT per job"
r=1
while [ $r -le "$ROUNDS" ]; do
	echo "-- round $r"
	if [ $((r % 2)) -eq 1 ]; then
		oreblk_jobs && md_job || exit 1
	else
		md_job && oreblk_jobs || exit 1
	fi
	r=$((r + 1))
done

echo
echo "== per array write, mean (min-max) of $ROUNDS rounds"
printf '%-16s %18s %16s %7s %7s %9s\n' run "writes/s" "CPU us" reads writes "oreblk/md"
md_w=$(awk '{ s += $1; c++ } END { print s / c }' $OUT/md)
for f in $OUT/oreblk.* $OUT/md; do
	awk -v n="${f##*/}" -v mdw="$md_w" '{ for (i = 1; i <= 4; i++) s[i] += $i
		if (c == 0 || $1 < lo) lo = $1; if ($1 > hi) hi = $1
		if (c == 0 || $2 < clo) clo = $2; if ($2 > chi) chi = $2; c++ }
		END { printf "%-16s %6.0f (%4.0f-%4.0f) %4.0f (%3.0f-%3.0f) %7.2f %7.2f %9.2f\n", n,
			s[1] / c, lo, hi, s[2] / c, clo, chi, s[3] / c, s[4] / c, s[1] / c / mdw }' "$f"
done
rmmod oreblk && rmmod ore && hostrun modprobe -r null_blk
