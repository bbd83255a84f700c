#!/bin/sh
# What one 4 KiB random write costs, oreblk against md (issue 14): CPU
# time, member I/Os, notifications of the member devices (virtio "kicks":
# each one is a trap to the device model, costly under TCG) and member
# interrupts, per array write, with fio at a fixed queue depth. oreblk
# runs with ore.defer_reads=1 (the default: reads of concurrent writes go
# out in batches from ORE's finish work) and =0 (each write starts its
# reads in the submitter), alternating which goes first over the rounds;
# md with its defaults, after them. RAID5 over 4 disks, chunk 64K, every
# array started clean over zeroed disks, as bench/oreblk_fio.sh.
#
#   make bench B=write_cost ARGS="--disks 6 --disk-size 1G --args rounds=2"
#
# Options (--args a,b): level=5|6 (6: RAID6 over 6), qd=N+M (default 16+1),
# arrays=default+nocsum+resync (oreblk arrays to run, one after the other:
# its defaults, --checksums none, --consistency-policy resync; default:
# default), defer=1 (only ore.defer_reads=1), param=NAME (the ORE
# parameter that ob1 and ob0 set, 1 and 0, instead of defer_reads),
# rounds=N (default 2), runtime=SEC (measured seconds per job, default 10,
# after 3 s of warm-up), stacks (then sample the kernel stacks of both CPUs
# with sysrq-l every 50 ms for 8 s during one more oreblk and md job each,
# and print the functions by share of samples, self and inclusive: a
# profile that does not depend on perf's sampling, which TCG distorts;
# rawstacks: the same and every sampled trace printed).
#
# Counting: /proc/stat (busy = all but idle and iowait, over both vCPUs;
# fio%: the fio processes' own CPU time, 100 = one vCPU),
# /proc/diskstats of the members (queue: the mean number of I/Os in flight
# on one member; ms: the mean time of one member I/O), kprobes on
# vp_notify (kicks) and
# vring_interrupt (interrupts), ore_write_finish_work (ORE's finish passes)
# and raid5d (md's passes).
. /ore/tests/lib.sh
. /ore/bench/stacks.sh

LEVEL=5 QDS="16 1" ROUNDS=2 RT=10 STACKS= ARRAYS=default DEFERS="1 0" PARAM=defer_reads
shift	# the stage
for a in "$@"; do
	case $a in
	level=*) LEVEL=${a#level=} ;;
	qd=*) QDS=$(echo "${a#qd=}" | tr + ' ') ;;
	rounds=*) ROUNDS=${a#rounds=} ;;
	runtime=*) RT=${a#runtime=} ;;
	stacks) STACKS=1 ;;
	rawstacks) STACKS=1 STACKS_RAW=1 ;;
	arrays=*) ARRAYS=$(echo "${a#arrays=}" | tr + ' ') ;;
	defer=1) DEFERS=1 ;;
	param=*) PARAM=${a#param=} ;;
	esac
done
case $LEVEL in
5) N=4 ;;
6) N=6 ;;
*) echo "level=5 or 6"; exit 1 ;;
esac
[ "$ORE_DISKS" -ge $N ] || { echo "needs $N disks"; exit 1; }
have_host fio && have_host mdadm || { echo "needs the host's fio and mdadm"; exit 1; }
DEVS=$(for d in a b c d e f; do echo /dev/vd$d; done | head -n $N | tr '\n' ' ')
OUT=/tmp/write_cost
mkdir -p $OUT
insmod /ore/ore.ko && insmod /ore/oreblk.ko || exit 1
param0=$(cat /sys/module/ore/parameters/$PARAM) || exit 1
dmesg -n 1	# sysrq-l's traces stay off the serial console

echo "== prefill: the first 600 MiB of every member written with zeros"
for d in $DEVS; do dd if=/dev/zero of="$d" bs=1M count=600 oflag=direct 2>/dev/null; done

T=/sys/kernel/tracing
[ -d $T/events ] || mount -t tracefs none $T 2>/dev/null
for p in kick:vp_notify vint:vring_interrupt pass:ore_write_finish_work r5d:raid5d; do
	echo "p:${p%%:*} ${p#*:}" >> $T/kprobe_events 2>/dev/null ||
		echo "   (no kprobe on ${p#*:})"
done
echo 1 > $T/events/kprobes/enable || { echo "needs kprobe events"; exit 1; }

# fio_ticks: CPU ticks (user + system) of the fio processes so far
fio_ticks() {
	local p t=0
	for p in /proc/[0-9]*; do
		[ "$(cat $p/comm 2>/dev/null)" = fio ] || continue
		t=$((t + $(awk '{ print $14 + $15 }' $p/stat 2>/dev/null || echo 0)))
	done
	echo $t
}

# counters: "busy total reads writes io-ms queue-ms read-sectors
# write-sectors kicks irqs passes fio"
counters() {
	awk '/^cpu / { b = $2 + $3 + $4 + $7 + $8 + $9; print b, b + $5 + $6 }' /proc/stat
	awk -v devs="$DEVS" 'BEGIN { n = split(devs, d, " "); for (i = 1; i <= n; i++) { sub("/dev/", "", d[i]); m[d[i]] = 1 } }
		($3 in m) { r += $4; w += $8; t += $7 + $11; q += $14; rs += $6; ws += $10 }
		END { print r, w, t, q, rs, ws }' /proc/diskstats
	awk '{ v[$1] = $2 } END { print v["kick"] + 0, v["vint"] + 0, v["pass"] + v["r5d"] }' $T/kprobe_profile
	fio_ticks
}

# cache DEV: "hits misses" of the stripe cache of an oreblk DEV (0 0 for md)
cache() {
	local s=/sys/block/${1#/dev/}/ore
	if [ -d $s ]; then echo "$(cat $s/stripe_cache_hits) $(cat $s/stripe_cache_misses)"; else echo "0 0"; fi
}

# job NAME DEV QD: one measured job, its line in $OUT/NAME
job() {
	local name=$1 dev=$2 qd=$3 c0 c1 e0 e1 pid iops
	hostrun fio --name=w --filename="$dev" --ioengine=libaio --direct=1 --iodepth="$qd" \
		--rw=randwrite --bs=4k --size=512M --time_based --runtime=$((RT + 4)) \
		--randrepeat=1 --norandommap --minimal > $OUT/fio.out 2>&1 &
	pid=$!
	sleep 3
	c0=$(counters | tr '\n' ' ')
	e0=$(cache "$dev")
	sleep "$RT"
	c1=$(counters | tr '\n' ' ')
	e1=$(cache "$dev")
	wait $pid
	# array writes: fio's own count over the measured window is not
	# printed, so take its IOPS (whole run) times the window
	iops=$(tail -n 1 $OUT/fio.out | awk -F';' '{ print $49 }')
	# fields: $1-$12 the counters before, $13-$24 after, $25 IOPS
	echo "$c0 $c1 $iops" | awk -v rt="$RT" -v nd=$N '{
		n = $25 * rt; if (n <= 0) n = 1
		ios = ($15 - $3) + ($16 - $4); if (ios <= 0) ios = 1
		printf "%d %.0f %.2f %.2f %.2f %.2f %.2f %.0f %.0f %.2f %.1f\n", $25,
			($13 - $1) * 10000 / n, ($15 - $3) / n, ($16 - $4) / n,
			($21 - $9) / n, ($22 - $10) / n, ($23 - $11) / n,
			100 * ($13 - $1) / ($14 - $2), ($24 - $12) / rt,
			($18 - $6) / (rt * 1000 * nd), ($17 - $5) / ios }' >> "$OUT/$name"
	echo "   $name: $(tail -n 1 "$OUT/$name") (IOPS, CPU us, reads, writes, kicks, irqs, passes per write, busy %, fio CPU %, member queue, member ms)"
	echo "$c0 $c1 $e0 $e1" | awk -v name="$name" '{
		r = $15 - $3; w = $16 - $4; if (r <= 0) r = 1; if (w <= 0) w = 1
		printf "   %s: stripe cache %d hits, %d misses; member reads %.1f KiB, writes %.1f KiB on average\n",
			name, $27 - $25, $28 - $26, ($19 - $7) / 2 / r, ($20 - $8) / 2 / w }'
}

# stacks NAME DEV: sample both CPUs' kernel stacks during a qd 16 job
stacks() {
	local name=$1 dev=$2 pid
	hostrun fio --name=w --filename="$dev" --ioengine=libaio --direct=1 --iodepth=16 \
		--rw=randwrite --bs=4k --size=512M --time_based --runtime=14 \
		--randrepeat=1 --norandommap --minimal > $OUT/fio.out 2>&1 &
	pid=$!
	sleep 4
	stacks_sample $name 160
	wait $pid
}

rm -f $OUT/ob* $OUT/md*
for cfg in $ARRAYS; do
	case $cfg in
	default) opts= ;;
	nocsum) opts="--checksums none" ;;
	resync) opts="--consistency-policy resync" ;;
	*) echo "arrays: default, nocsum or resync"; exit 1 ;;
	esac
	sfx=
	[ "$cfg" = default ] || sfx=$cfg
	echo "== oreblk RAID$LEVEL over $N, $cfg ${opts:+($opts)}"
	oreblk create /dev/oreblk0 --force --assume-clean --raid "$LEVEL" --chunk 64K -n $N \
		$opts $DEVS || exit 1
	r=1
	while [ $r -le "$ROUNDS" ]; do
		for qd in $QDS; do
			order=$DEFERS
			[ $((r % 2)) -eq 0 ] && order=$(echo $DEFERS | tr ' ' '\n' | tac | tr '\n' ' ')
			for d in $order; do
				echo $d > /sys/module/ore/parameters/$PARAM
				job "ob$d$sfx.qd$qd" /dev/oreblk0 "$qd"
			done
		done
		r=$((r + 1))
	done
	echo "$param0" > /sys/module/ore/parameters/$PARAM
	[ -n "$STACKS" ] && [ "$cfg" = default ] && stacks oreblk /dev/oreblk0
	oreblk stop /dev/oreblk0 || exit 1
	oreblk wipe $DEVS
done
hostrun mdadm --create /dev/md0 --run --quiet --level="$LEVEL" --chunk=64 --raid-devices=$N \
	--metadata=1.2 --assume-clean --bitmap=none $DEVS </dev/null || exit 1
r=1
while [ $r -le "$ROUNDS" ]; do
	for qd in $QDS; do
		job "md.qd$qd" /dev/md0 "$qd"
	done
	r=$((r + 1))
done
[ -n "$STACKS" ] && stacks md /dev/md0
hostrun mdadm --stop /dev/md0 >/dev/null
hostrun mdadm --zero-superblock $DEVS

echo
echo "== RAID$LEVEL over $N, 4 KiB random writes: per array write (mean of $ROUNDS rounds; ob1: ore.$PARAM=1, ob0: =0)"
printf '%-16s %7s %7s %6s %6s %6s %6s %7s %6s %5s %6s %6s\n' run IOPS "CPU us" reads writes kicks irqs passes busy% fio% queue ms
for qd in $QDS; do
	for name in ob1 ob0 ob1nocsum ob0nocsum ob1resync ob0resync md; do
		f=$OUT/$name.qd$qd
		[ -f "$f" ] || continue
		awk -v n="$name qd$qd" '{ for (i = 1; i <= 11; i++) s[i] += $i; c++ }
			END { printf "%-16s %7d %7.0f %6.2f %6.2f %6.2f %6.2f %7.2f %6.0f %5.0f %6.2f %6.2f\n", n,
				s[1] / c, s[2] / c, s[3] / c, s[4] / c, s[5] / c, s[6] / c, s[7] / c, s[8] / c, s[9] / c,
				s[10] / c, s[11] / c }' "$f"
	done
done
rmmod oreblk && rmmod ore
