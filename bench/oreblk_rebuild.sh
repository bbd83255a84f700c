#!/bin/sh
# Rebuild of a replaced member, oreblk against md, on the same virtio disks
# in one guest run (issue 11). RAID5 over 4 disks (vda..vdd) and RAID6 over
# 6 (vda..vdf), chunk 64K, the whole disks; member 1 (vdb) fails and the
# spare (the 7th disk, vdg) takes its place: `oreblk add` against md's
# `mdadm --fail/--remove/--add`. Each rebuild runs twice: with no user I/O
# and with fio 4 KiB random reads (iodepth 16, direct, libaio, the whole
# array) running from before the add until the rebuild is over.
# The hot replace (modes=replace) copies member 1, still in service, onto
# the spare: `oreblk replace` against `mdadm --add-spare` then `--replace
# --with` (md runs it as a recovery too).
#
#   make bench B=oreblk_rebuild ARGS="--disks 7 --disk-size 768M --args rounds=3"
#
# Time: from the kernel's own log lines, printk timestamps of the start
# ("md: recover of RAID array md0", "oreblkN: recovery of member ...
# started") and of the end ("md: md0: recover done.", "... done in"), so
# neither side pays for its tool's start-up. Rate: the member's rebuilt
# bytes (md: component_size; oreblk: sync_completed's total) over that time.
#
# Fairness: every disk is written whole with zeros first (no sparse image
# blocks: a read of a hole costs the host nothing); both arrays start clean
# (--assume-clean, all-zero members) and rebuild onto the same spare. Speed
# limits: md's /proc/sys/dev/raid/speed_limit_max and oreblk's
# sync_speed_max are set to the same value (max=KiB/s, default 2000000),
# far above what the disks do, so neither is held back by its limit; md's
# speed_limit_min and oreblk's sync_speed_min are set to the same value too
# (mdmin=default keeps both at their default of 1000), else both drop to
# 1000 KiB/s as soon as user I/O runs (they yield to it): with it equal to
# the maximum both run flat out beside the reads and the fio IOPS column
# shows what that costs the user. md: metadata 1.2, no bitmap (oreblk has none), default
# stripe_cache_size.
#
# One member's bandwidth, measured in the same run on the spare before each
# round: fio sequential 1 MiB writes (and reads), iodepth 16, direct, 10 s.
#
# Options (ARGS="... --args a,b"): rounds=N (default 2; which of oreblk
# and md goes first alternates by round), levels=5+6, loads=idle+randread,
# modes=add+replace (the default: both),
# max=KIB, mdmin=default, perf (perf record -a -g for the middle of each
# idle oreblk rebuild, top symbols printed).
. /ore/tests/lib.sh

ROUNDS=2 LEVELS="5 6" LOADS="idle randread" MODES="add replace" MAX=2000000 MDMIN="" PERF=""
shift	# the stage
for a in "$@"; do
	case $a in
	rounds=*) ROUNDS=${a#rounds=} ;;
	levels=*) LEVELS=$(echo "${a#levels=}" | tr + ' ') ;;
	loads=*) LOADS=$(echo "${a#loads=}" | tr + ' ') ;;
	modes=*) MODES=$(echo "${a#modes=}" | tr + ' ') ;;
	max=*) MAX=${a#max=} ;;
	mdmin=default) MDMIN=default ;;
	perf) PERF=1 ;;
	esac
done
OUT=/tmp/oreblk_rbench
mkdir -p $OUT
rm -f $OUT/*
SPARE=/dev/vdg

[ "$ORE_DISKS" -ge 7 ] || { echo "needs 7 disks"; exit 1; }
have_host fio && have_host mdadm || { echo "needs the host's fio and mdadm"; exit 1; }
insmod /ore/ore.ko && insmod /ore/oreblk.ko || exit 1
modprobe raid456 2>/dev/null

echo "== prefill: every disk written whole with zeros"
for d in /dev/vd[a-g]; do
	dd if=/dev/zero of="$d" bs=1M oflag=direct 2>/dev/null
done

# the speed limits
echo $MAX > /proc/sys/dev/raid/speed_limit_max
[ -n "$MDMIN" ] || echo $MAX > /proc/sys/dev/raid/speed_limit_min
echo "== md speed_limit_min $(cat /proc/sys/dev/raid/speed_limit_min) max $(cat /proc/sys/dev/raid/speed_limit_max) KiB/s, oreblk sync_speed_min $([ -n "$MDMIN" ] && echo 1000 || echo $MAX) max $MAX KiB/s"

# member_bw: fio 1 MiB sequential write and read on the spare, MB/s
member_bw() {
	local rw f
	for rw in write read; do
		hostrun fio --name=bw --filename=$SPARE --ioengine=libaio --direct=1 \
			--iodepth=16 --rw=$rw --bs=1M --time_based --runtime=10 \
			--ramp_time=1 --minimal > $OUT/bw.out 2> $OUT/bw.err ||
			{ cat $OUT/bw.err; echo 0 >> $OUT/bw.$rw; continue; }
		f=$(tail -n 1 $OUT/bw.out)
		case $rw in
		write) echo "$f" | awk -F';' '{ printf "%.1f\n", $48 / 1024 }' >> $OUT/bw.$rw ;;
		read) echo "$f" | awk -F';' '{ printf "%.1f\n", $7 / 1024 }' >> $OUT/bw.$rw ;;
		esac
	done
	echo "   one member (raw $SPARE): seq write $(tail -n 1 $OUT/bw.write) MB/s, seq read $(tail -n 1 $OUT/bw.read) MB/s"
}

# load_start DEV / load_stop: fio random reads over DEV until stopped; the
# IOPS go to $OUT/iops. (chroot, not hostrun: $! must be fio itself, which
# SIGINT stops with its results; a subshell would wait for it instead.)
load_start() {
	chroot "$ORE_HOST" fio --name=load --filename="$1" --ioengine=libaio --direct=1 \
		--iodepth=16 --rw=randread --bs=4k --time_based --runtime=3600 \
		--randrepeat=1 --norandommap --minimal > $OUT/load.out 2> $OUT/load.err &
	LOAD_PID=$!
	sleep 3
}
load_stop() {
	kill -INT $LOAD_PID 2>/dev/null
	wait $LOAD_PID
	tail -n 1 $OUT/load.out | awk -F';' '{ printf "%d\n", $8 }' > $OUT/iops
}

# ktime PATTERN: printk time (s) of the last kernel line matching PATTERN
ktime() {
	dmesg | grep -E "$1" | tail -n 1 | sed -n 's/^\[ *\([0-9.]*\)\].*/\1/p'
}

# wait_idle DIR: until DIR/sync_action says idle (at most 30 min), with
# DIR/sync_completed every 10 s
wait_idle() {
	local t0 now last
	t0=$(date +%s)
	last=$t0
	while [ "$(cat "$1/sync_action")" != idle ]; do
		now=$(date +%s)
		[ $((now - t0)) -lt 1800 ] || { echo "   the rebuild did not end in 30 min"; return 1; }
		if [ $((now - last)) -ge 10 ]; then
			echo "   ... $((now - t0)) s: $(cat "$1/sync_completed") sectors"
			last=$now
		fi
		sleep 0.1
	done
}

# record NAME BYTES T0 T1: one rebuild's time and rate into $OUT/NAME
record() {
	local name=$1 bytes=$2 t0=$3 t1=$4 iops=0
	[ -n "$t0" ] && [ -n "$t1" ] || {
		echo "   $name: no start or end in the kernel log:"
		dmesg | tail -n 20 | sed 's/^/     /'
		return 1
	}
	[ -s $OUT/iops ] && iops=$(cat $OUT/iops)
	awk -v b="$bytes" -v t0="$t0" -v t1="$t1" -v i="$iops" \
		'BEGIN { t = t1 - t0; printf "%.2f %.1f %d\n", t, b / t / 1e6, i }' >> $OUT/$name
	echo "   $name: $(tail -n 1 $OUT/$name) (s, MB/s, load IOPS) over $((bytes >> 20)) MiB"
}

# perf_during SEC: profile the whole guest for SEC seconds, in the background
perf_during() {
	[ -n "$PERF" ] || return 0
	(sleep 2; hostrun perf record -q -a -g -e cpu-clock -o $OUT/perf.data \
		-- sleep "$1" >/dev/null 2>&1) &
	PERF_PID=$!
}
perf_report() {
	[ -n "$PERF" ] || return 0
	wait $PERF_PID
	hostrun perf report -q -i $OUT/perf.data --stdio --no-children \
		--sort symbol -g none 2>/dev/null | head -n 40 | sed "s/^/   perf $1: /"
}

# ob_rebuild NAME LEVEL LOAD N DEVS...: create, fail member 1, add the
# spare (MODE add), or replace member 1 by the spare (MODE replace)
ob_rebuild() {
	local name=$1 level=$2 load=$3 n=$4 s=/sys/block/oreblk0/ore t0 t1 bytes
	shift 4
	oreblk create /dev/oreblk0 --force --assume-clean --raid "$level" --chunk 64K -n "$n" "$@" || exit 1
	echo $MAX > $s/sync_speed_max
	[ -n "$MDMIN" ] || echo $MAX > $s/sync_speed_min
	[ $MODE = add ] && { oreblk fail /dev/oreblk0 1 >/dev/null || exit 1; }
	oreblk wipe $SPARE >/dev/null
	rm -f $OUT/iops
	[ "$load" = randread ] && load_start /dev/oreblk0
	dmesg -c >/dev/null
	if [ $MODE = add ]; then
		oreblk add /dev/oreblk0 $SPARE || exit 1
	else
		oreblk replace /dev/oreblk0 1 --with $SPARE || exit 1
	fi
	sleep 0.5
	bytes=$(($(cut -d' ' -f3 $s/sync_completed) * 512))
	[ "$load" = idle ] && perf_during 8
	wait_idle $s
	[ "$load" = randread ] && load_stop
	[ "$load" = idle ] && perf_report "oreblk raid$level $MODE"
	if [ $MODE = add ]; then
		t0=$(ktime "oreblk0: recovery of member 1 onto .* started")
		t1=$(ktime "oreblk0: recovery of member 1 .* done in")
	else
		t0=$(ktime "oreblk0: replace of member 1 .* started")
		t1=$(ktime "oreblk0: member 1 replaced by")
	fi
	record "ob$name.$MODE.$load" "$bytes" "$t0" "$t1"
	oreblk stop /dev/oreblk0 || exit 1
	oreblk wipe "$@" $SPARE >/dev/null
}

# md_rebuild NAME LEVEL LOAD N DEVS...: the same with md
md_rebuild() {
	local name=$1 level=$2 load=$3 n=$4 t0 t1 bytes
	shift 4
	hostrun mdadm --create /dev/md0 --run --quiet --level="$level" --chunk=64 \
		--raid-devices="$n" --metadata=1.2 --assume-clean --bitmap=none "$@" </dev/null || exit 1
	bytes=$(($(cat /sys/block/md0/md/component_size) * 1024))
	if [ $MODE = add ]; then
		hostrun mdadm --quiet /dev/md0 --fail /dev/vdb || exit 1
		hostrun mdadm --quiet /dev/md0 --remove /dev/vdb || exit 1
	fi
	hostrun mdadm --zero-superblock $SPARE 2>/dev/null
	rm -f $OUT/iops
	[ "$load" = randread ] && load_start /dev/md0
	dmesg -c >/dev/null
	if [ $MODE = add ]; then
		hostrun mdadm --quiet /dev/md0 --add $SPARE || exit 1
	else
		hostrun mdadm --quiet /dev/md0 --add-spare $SPARE || exit 1
		hostrun mdadm --quiet /dev/md0 --replace /dev/vdb --with $SPARE || exit 1
	fi
	sleep 0.5
	wait_idle /sys/block/md0/md
	[ "$load" = randread ] && load_stop
	t0=$(ktime "md: recover(y)? of RAID array md0")
	t1=$(ktime "md: md0: recover(y)? done")
	record "md$name.$MODE.$load" "$bytes" "$t0" "$t1"
	hostrun mdadm --stop /dev/md0 >/dev/null || exit 1
	hostrun mdadm --zero-superblock "$@" $SPARE
}

bench_level() {	# bench_level ROUND NAME LEVEL N, the members in $DEVS
	local round=$1 load
	shift
	for MODE in $MODES; do
	for load in $LOADS; do
		echo "== raid$2 over $3 disks, $MODE, $load"
		if [ $((round % 2)) -eq 1 ]; then
			ob_rebuild "$1" "$2" $load "$3" $DEVS
			md_rebuild "$1" "$2" $load "$3" $DEVS
		else
			md_rebuild "$1" "$2" $load "$3" $DEVS
			ob_rebuild "$1" "$2" $load "$3" $DEVS
		fi
	done
	done
}

round=1
while [ $round -le "$ROUNDS" ]; do
	echo "== round $round of $ROUNDS"
	member_bw
	for level in $LEVELS; do
		case $level in
		5) DEVS="/dev/vda /dev/vdb /dev/vdc /dev/vdd"
		   bench_level $round 5 5 4 ;;
		6) DEVS="/dev/vda /dev/vdb /dev/vdc /dev/vdd /dev/vde /dev/vdf"
		   bench_level $round 6 6 6 ;;
		esac
	done
	round=$((round + 1))
done

mean() {	# mean FILE COL: mean of column COL over the rounds
	awk -v c="$2" '{ a += $c; n++ } END { if (n) printf "%.2f", a / n; else print "0" }' "$1"
}
spread() {	# spread FILE COL: lowest-highest of column COL
	awk -v c="$2" 'NR == 1 || $c < lo { lo = $c } NR == 1 || $c > hi { hi = $c } END { printf "%s-%s", lo, hi }' "$1"
}
bw=$(awk '{ a += $1; n++ } END { printf "%.1f", a / n }' $OUT/bw.write)
echo
echo "== one member: seq write $bw MB/s (mean of $ROUNDS, $(spread $OUT/bw.write 1)), seq read $(awk '{ a += $1; n++ } END { printf "%.1f", a / n }' $OUT/bw.read) MB/s ($(spread $OUT/bw.read 1))"
echo "== rebuild time, oreblk against md (same disks and spare, chunk 64K, mean of $ROUNDS round(s); ratio md/oreblk: >= 1.0 is oreblk at least as fast; rate/bw: oreblk's rate over one member's write bandwidth)"
printf '%-20s %9s %9s %7s %9s %9s %8s %9s %9s  %s\n' rebuild "oreblk s" "md s" "md/ob" "ob MB/s" "md MB/s" "ob/bw" "ob IOPS" "md IOPS" "s min-max: oreblk, md"
for level in $LEVELS; do
	for MODE in $MODES; do
	for load in $LOADS; do
		ob=$OUT/ob$level.$MODE.$load md=$OUT/md$level.$MODE.$load
		[ -f $ob ] && [ -f $md ] || continue
		set -- $(mean $ob 1) $(mean $md 1) $(mean $ob 2) $(mean $md 2) $(mean $ob 3) $(mean $md 3)
		printf '%-20s %9s %9s %7s %9s %9s %8s %9.0f %9.0f  %s, %s\n' "raid$level $MODE $load" "$1" "$2" \
			"$(awk -v a="$2" -v b="$1" 'BEGIN { printf "%.2f", a / b }')" "$3" "$4" \
			"$(awk -v a="$3" -v b="$bw" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }')" \
			"$5" "$6" "$(spread $ob 1)" "$(spread $md 1)"
	done
	done
done
rmmod oreblk && rmmod ore
