#!/bin/sh
# oreblk against md, head to head on the same virtio disks, in one guest
# run (issue 6). fio (the host's, through the 9p share): sequential 1 MiB
# write and read, 4 KiB random write (read-4-write) and random read,
# iodepth 16, direct=1, libaio, one job, time based, over the first
# BENCH_SIZE of each array; RAID5 over 4 disks and RAID6 over 6, chunk 64K.
#
#   make bench B=oreblk_fio ARGS="--disks 6 --disk-size 1G"
#
# Fairness: every disk is written whole with zeros first, so no array runs
# on unallocated (sparse) image blocks; then both arrays start clean
# without a resync: md with --assume-clean, oreblk with --assume-clean
# (all-zero members have consistent parity for both). md: metadata 1.2,
# no write-intent bitmap (oreblk has none), default stripe_cache_size
# (256) and group_thread_cnt (0); oreblk: default stripe_cache_size (512
# entries of one page per data column). The same region and fio job files
# for both.
#
# Options (ARGS="... --args a,b"): runtime=SEC (default 20), size=SIZE
# (default 1G), jobs=J1+J2 (default seqwrite+seqread+randwrite+randread),
# levels=5+6 (default both), rounds=N (default 1: run the whole oreblk
# then md sequence N times, alternating which goes first, and report the
# mean; the host is shared, so single runs are noisy), perf (profile every
# job with perf record -a -e cpu-clock and print the top symbols),
# rmw=both (RAID6: run oreblk a second time with ore.raid6_rmw=0, always
# reconstruct-write, reported as "raid6rcw": before/after of RAID6
# read-modify-write in one run; the rcw run goes second in odd rounds and
# first in even ones). levels=6w is RAID6 over 8 disks (needs
# --disks 8), where RAID6 rmw reads fewer pages than rcw for a 4 KiB write
# (3 against 5; over 6 disks it is 3 against 3, a tie that stays rcw).
# alt=PARAM=VALUE runs every oreblk array's jobs a second time the same
# way with /sys/module/ore/parameters/PARAM set to VALUE (restored after),
# reported as "raidNalt" (an A/B of an ore.ko parameter in one run).
# md=default|tuned|both (default both): md with its defaults ("md"), and
# md tuned as a user comparing would tune it ("mdt": group_thread_cnt = the
# number of vCPUs, stripe_cache_size 4096); the summary gives oreblk's ratio
# against each. curve adds 4 KiB random write rows at iodepth 1 and 64 and
# with 4 jobs of iodepth 16 (randwrite_qd1, randwrite_qd64, randwrite_j4):
# the shape of the curve, not one point.
#
# consistency=both runs oreblk twice per level: with its default write-intent
# bitmap ("raidN", --consistency-policy intent) and without ("raidNres",
# --consistency-policy resync), and prints the cost of the write-hole
# protection as the ratio of the two. md=...+ppl adds md with a partial
# parity log (--consistency-policy=ppl, RAID5 only: "mdppl") and md=...+bitmap
# md with an internal write-intent bitmap ("mdbm"), each against md's
# resync policy ("md", no bitmap) in the same table: md's own cost of
# closing (ppl) or narrowing (bitmap) the hole.
#
# consistency=all runs oreblk three times per level: its default (write-
# intent bitmap and data checksums, "raidN"), the bitmap without checksums
# ("raidNnc", --checksums none) and neither ("raidNres", the resync policy,
# which has no checksums); the cost table then gives each protection's
# price on its own and together (issue 12: at most 10% each). csum=both is
# the default and the bitmap without checksums only. csum_inline=BYTES sets
# ore.csum_inline_max (requests checksummed in place up to that size,
# larger ones in ore_csum_wq).
#
# Memory: while each array runs its jobs, /proc/meminfo is sampled every
# second; the summary prints the peak rise of Slab and of the memory in use
# (MemTotal - MemFree - Buffers - Cached - the free pages on the per-CPU
# lists, so fio's direct I/O leaves only the array's own pages and slab)
# over the level before the array was made (mem_start in tests/guest/lib.sh).
. /ore/tests/lib.sh

RUNTIME=20 SIZE=1G JOBS="seqwrite seqread randwrite randread" LEVELS="5 6" PERF="" ROUNDS=1
ALT= ALTSUF= ALTLVL= MD="md mdt" CURVE= CONS=intent
shift	# the stage
for a in "$@"; do
	case $a in
	runtime=*) RUNTIME=${a#runtime=} ;;
	size=*) SIZE=${a#size=} ;;
	jobs=*) JOBS=$(echo "${a#jobs=}" | tr + ' ') ;;
	levels=*) LEVELS=$(echo "${a#levels=}" | tr + ' ') ;;
	rounds=*) ROUNDS=${a#rounds=} ;;
	perf) PERF=1 ;;
	rmw=both) ALT=raid6_rmw=0 ALTSUF=rcw ALTLVL=6 ;;
	alt=*=*) ALT=${a#alt=} ALTSUF=alt ALTLVL= ;;
	md=default) MD=md ;;
	md=tuned) MD=mdt ;;
	md=both) MD="md mdt" ;;
	md=*) MD=$(echo "${a#md=}" | sed 's/default/md/; s/tuned/mdt/; s/ppl/mdppl/; s/bitmap/mdbm/' | tr + ' ') ;;
	consistency=both) CONS="intent resync" ;;
	consistency=all) CONS="intent nocsum resync" ;;
	csum=both) CONS="intent nocsum" ;;
	csum_inline=*) CSUM_INLINE=${a#csum_inline=} ;;
	curve) CURVE="randwrite_qd1 randwrite_qd64 randwrite_j4" ;;
	esac
done
JOBS="$JOBS $CURVE"
OUT=/tmp/oreblk_bench
mkdir -p $OUT

[ "$ORE_DISKS" -ge 6 ] || { echo "needs 6 disks"; exit 1; }
have_host fio && have_host mdadm || { echo "needs the host's fio and mdadm"; exit 1; }
insmod /ore/ore.ko && insmod /ore/oreblk.ko || exit 1
[ -n "$CSUM_INLINE" ] && echo "$CSUM_INLINE" > /sys/module/ore/parameters/csum_inline_max
echo "== ore.csum_inline_max $(cat /sys/module/ore/parameters/csum_inline_max)"

echo "== prefill: every disk written whole with zeros"
for d in /dev/vd[a-h]; do
	[ -b "$d" ] || continue
	dd if=/dev/zero of="$d" bs=1M oflag=direct 2>/dev/null
done

# fio_job DEV JOB: run one job, print "MB/s IOPS"
fio_job() {
	local dev=$1 job=$2 rw bs f qd=16 nj=1
	case $job in
	seqwrite) rw=write bs=1M ;;
	seqread) rw=read bs=1M ;;
	randwrite) rw=randwrite bs=4k ;;
	randread) rw=randread bs=4k ;;
	randwrite_qd1) rw=randwrite bs=4k qd=1 ;;
	randwrite_qd64) rw=randwrite bs=4k qd=64 ;;
	randwrite_j4) rw=randwrite bs=4k nj=4 ;;
	esac
	if [ -n "$PERF" ]; then
		(sleep 4; hostrun perf record -q -a -g -e cpu-clock -o $OUT/perf.data \
			-- sleep $((RUNTIME - 6)) >/dev/null 2>&1) &
		PERFPID=$!
	fi
	hostrun fio --name="$job" --filename="$dev" --ioengine=libaio --direct=1 \
		--iodepth=$qd --numjobs=$nj --group_reporting --rw=$rw --bs=$bs \
		--size="$SIZE" --time_based --runtime="$RUNTIME" --ramp_time=2 \
		--randrepeat=1 --norandommap --minimal > $OUT/fio.out 2> $OUT/fio.err ||
		{ cat $OUT/fio.err >&2; echo "0 0"; return; }
	if [ -n "$PERF" ]; then
		wait $PERFPID	# not the memory sampler
		hostrun perf report -q -i $OUT/perf.data --stdio --no-children \
			--sort symbol -g none 2>/dev/null | head -n 40 | sed "s/^/   perf $job: /" >&2
	fi
	f=$(tail -n 1 $OUT/fio.out)
	case $rw in
	*write) echo "$f" | awk -F';' '{ printf "%.1f %d\n", $48 / 1024, $49 }' ;;
	*) echo "$f" | awk -F';' '{ printf "%.1f %d\n", $7 / 1024, $8 }' ;;
	esac
}

# (mem_start / mem_stop: tests/guest/lib.sh; mem_start runs before the
# array is made)

# run_all NAME DEV: every job on DEV, results in $OUT/NAME.JOB
run_all() {
	local name=$1 dev=$2 job
	for job in $JOBS; do
		fio_job "$dev" $job >> $OUT/$name.$job
		echo "   $name $job: $(tail -n 1 $OUT/$name.$job) (MB/s IOPS)"
	done
}

ob_stats() {
	local s=/sys/block/oreblk0/ore
	echo "   oreblk stats: stripe cache hits $(cat $s/stripe_cache_hits) misses $(cat $s/stripe_cache_misses) active $(cat $s/stripe_cache_active); stripe lock waits $(cat $s/stripe_lock_waits)"
}

# ob_alt NAME LEVEL N: the jobs again with ore.$ALT (rmw=both:
# raid6_rmw=0, always rcw), results as NAME$ALTSUF
ob_alt() {
	local p=/sys/module/ore/parameters/${ALT%%=*} old
	old=$(cat "$p")
	echo "== raid$2 over $3 disks: oreblk, ore.$ALT"
	echo "${ALT#*=}" > "$p"
	run_all "ob${1}$ALTSUF" /dev/oreblk0
	ob_stats
	echo "$old" > "$p"
}
# has_alt LEVEL: does this level run the jobs with ore.$ALT too?
has_alt() {
	[ -n "$ALT" ] && { [ -z "$ALTLVL" ] || [ "$1" = "$ALTLVL" ]; }
}

# ob_level NAME LEVEL N DEVS... / md_level NAME LEVEL N DEVS...: one array,
# every job (NAME: the results' name, 5, 6 or 6w)
# (POL: the consistency policy; the results of resync are NAMEres)
ob_level() {
	local name=$1 level=$2 n=$3 pol=$POL csum=""
	shift 3
	[ "$POL" = resync ] && name=${name}res
	[ "$POL" = nocsum ] && name=${name}nc pol=intent csum="--checksums none"
	echo "== raid$level over $n disks: oreblk, consistency policy $pol ${csum:-(checksums: the default)}"
	mem_start $OUT
	oreblk create /dev/oreblk0 --force --assume-clean --raid "$level" --chunk 64K -n "$n" \
		--consistency-policy "$pol" $csum "$@" || exit 1
	echo "   oreblk: checksums $(cat /sys/block/oreblk0/ore/checksums)"
	# rmw=both, alt=: the other run goes first in even rounds, so that
	# neither setting always gets the array second
	if has_alt "$level" && [ $((round % 2)) -eq 0 ]; then
		ob_alt "$name" "$level" "$n"
	fi
	run_all "ob$name" /dev/oreblk0
	ob_stats
	if has_alt "$level" && [ $((round % 2)) -eq 1 ]; then
		ob_alt "$name" "$level" "$n"
	fi
	mem_stop $OUT "ob$name"
	oreblk stop /dev/oreblk0 || exit 1
	oreblk wipe "$@"
}
# md_level MD NAME LEVEL N DEVS...: MD is md (defaults) or mdt (tuned)
md_level() {
	local md=$1 name=$2 level=$3 n=$4
	shift 4
	local pol="--bitmap=none"
	case $md in
	mdppl)
		[ "$level" = 5 ] || { echo "== raid$level: md has no ppl for it"; return; }
		pol="--consistency-policy=ppl" ;;
	mdbm) pol="--bitmap=internal" ;;
	esac
	echo "== raid$level over $n disks: $md ($pol)"
	mem_start $OUT
	hostrun mdadm --create /dev/md0 --run --quiet --level="$level" --chunk=64 \
		--raid-devices="$n" --metadata=1.2 --assume-clean $pol "$@" </dev/null || exit 1
	if [ "$md" = mdt ]; then
		nproc > /sys/block/md0/md/group_thread_cnt
		echo 4096 > /sys/block/md0/md/stripe_cache_size
	fi
	echo "   $md: stripe_cache_size $(cat /sys/block/md0/md/stripe_cache_size) group_thread_cnt $(cat /sys/block/md0/md/group_thread_cnt)"
	run_all "$md$name" /dev/md0
	mem_stop $OUT "$md$name"
	hostrun mdadm --stop /dev/md0 >/dev/null || exit 1
	hostrun mdadm --zero-superblock "$@"
}
# bench_level ROUND LEVEL N DEVS...: oreblk first in odd rounds, last in
# even ones; md before mdt in odd rounds, after in even ones
bench_level() {
	local round=$1 m order=$MD
	shift
	[ $((round % 2)) -eq 0 ] && order=$(echo $MD | tr ' ' '\n' | tac | tr '\n' ' ')
	if [ $((round % 2)) -eq 1 ]; then
		for POL in $CONS; do ob_level "$@"; done
	fi
	for m in $order; do
		md_level $m "$@"
	done
	if [ $((round % 2)) -eq 0 ]; then
		for POL in $(echo $CONS | tr ' ' '\n' | tac); do ob_level "$@"; done
	fi
}

rm -f $OUT/ob* $OUT/md*
round=1
while [ $round -le "$ROUNDS" ]; do
	echo "== round $round of $ROUNDS"
	for level in $LEVELS; do
		case $level in
		5) bench_level $round 5 5 4 /dev/vda /dev/vdb /dev/vdc /dev/vdd ;;
		6) bench_level $round 6 6 6 /dev/vda /dev/vdb /dev/vdc /dev/vdd /dev/vde /dev/vdf ;;
		6w) [ "$ORE_DISKS" -ge 8 ] || { echo "levels=6w needs 8 disks"; exit 1; }
		    bench_level $round 6w 6 8 /dev/vda /dev/vdb /dev/vdc /dev/vdd /dev/vde /dev/vdf /dev/vdg /dev/vdh ;;
		esac
	done
	round=$((round + 1))
done
spread() {	# spread FILE: lowest and highest IOPS over the rounds
	awk 'NR == 1 || $2 < lo { lo = $2 } NR == 1 || $2 > hi { hi = $2 } END { printf "%d-%d", lo, hi }' "$1"
}
mean() {	# mean FILE: mean of the two columns over the rounds
	awk '{ a += $1; b += $2; n++ } END { if (n) printf "%.1f %d\n", a / n, b / n; else print "0 0" }' "$1"
}

memmean() {	# memmean FILE: mean peak rises, "USED SLAB" (MiB)
	awk '{ a += $1; b += $2; n++ } END { if (n) printf "%.1f %.1f", a / n, b / n; else print "- -" }' "$1"
}

for m in $MD; do
	case $m in
	md) what="md defaults" ;;
	mdt) what="md tuned: group_thread_cnt $(nproc), stripe_cache_size 4096" ;;
	mdppl) what="md with a partial parity log (--consistency-policy=ppl)" ;;
	mdbm) what="md with an internal write-intent bitmap" ;;
	esac
	echo
	echo "== oreblk against $what (same disks, chunk 64K, iodepth 16 unless named, direct, ${RUNTIME}s per job, mean of $ROUNDS round(s), ratio of the means)"
	printf '%-22s %12s %9s %12s %9s %8s  %s\n' job "oreblk MB/s" IOPS "$m MB/s" IOPS ratio "IOPS min-max: oreblk, $m"
	for level in $LEVELS; do
		for job in $JOBS; do
			for ob in ob$level ob${level}rcw ob${level}alt ob${level}nc ob${level}res; do
				[ -f $OUT/$ob.$job ] && [ -f $OUT/$m$level.$job ] || continue
				set -- $(mean $OUT/$ob.$job) $(mean $OUT/$m$level.$job)
				ratio=$(awk -v a="$2" -v b="$4" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }')
				printf '%-22s %12s %9s %12s %9s %8s  %s, %s\n' "raid${ob#ob} $job" "$1" "$2" "$3" "$4" "$ratio" \
					"$(spread $OUT/$ob.$job)" "$(spread $OUT/$m$level.$job)"
			done
		done
	done
done
# cost_table LABEL=ON/OFF...: for every job, IOPS of results ON over OFF
# (names with @ for the level: ob@ is oreblk's default, ob@res its resync
# policy, md@ md's resync policy, mdppl@ and mdbm@ md's protections)
cost_table() {
	local level job on off pair
	echo
	echo "== cost of the protections: IOPS with / without (same run, mean of $ROUNDS round(s))"
	printf '%-22s' job
	for pair in "$@"; do printf ' %22s' "${pair%%=*}"; done
	echo
	for level in $LEVELS; do
		for job in $JOBS; do
			printf '%-22s' "raid$level $job"
			for pair in "$@"; do
				on=${pair#*=}; off=${on#*/}; on=${on%/*}
				on=$OUT/$(echo $on | sed "s/@/$level/").$job
				off=$OUT/$(echo $off | sed "s/@/$level/").$job
				if [ -f $on ] && [ -f $off ]; then
					printf ' %22s' "$(awk -v a="$(mean $on | cut -d' ' -f2)" \
						-v b="$(mean $off | cut -d' ' -f2)" \
						'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }')"
				else
					printf ' %22s' -
				fi
			done
			echo
		done
	done
}
case " $CONS $MD " in
*" nocsum "*)
	cost_table "both/neither=ob@/ob@res" "bitmap/neither=ob@nc/ob@res" \
		"csum/bitmap-only=ob@/ob@nc" "md-ppl/resync=mdppl@/md@" ;;
*" resync "*|*" mdppl "*|*" mdbm "*)
	cost_table "oreblk-intent/resync=ob@/ob@res" "md-ppl/resync=mdppl@/md@" \
		"md-bitmap/resync=mdbm@/md@" ;;
esac

echo
echo "== memory: peak rise while the jobs ran, MiB in use / MiB slab (mean of the rounds)"
for level in $LEVELS; do
	line="raid$level: oreblk $(memmean $OUT/ob$level.mem)"
	for m in $MD; do
		[ -f $OUT/$m$level.mem ] && line="$line, $m $(memmean $OUT/$m$level.mem)"
	done
	echo "$line"
done
rmmod oreblk && rmmod ore
