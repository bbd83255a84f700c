#!/bin/sh
# exofs benchmark (issue 5, 14): untar + compare of the kernel source subset
# (tools/Makefile `tree`, ~3300 files) on exofs RAID5 over 4 stores (ext4 on
# each disk) against ext4 on md raid5 (mdadm, the same chunk as the stripe
# unit) over the same 4 disks, in one guest run.
#   make bench B=exofs_untar ARGS="--disks 4 --disk-size 2G --args rounds=2"
#
# Each side: untar into the fresh filesystem and sync (the whole write
# path, writeback included), then drop the caches and diff -r against the
# tmpfs reference (the read path). exofs at mkfs.exofs's defaults (sized
# components, intent record, XXH64 checksums); with "all", also exofs made
# with --all-components (every component file created with its inode, the
# rule before sized components), in the same rounds. Rounds rotate who
# goes first. Printed: the mean and spread of each side, the ratios
# exofs/md (goal <= 1.0) and exofs's full-stripe write fraction from its
# sysfs counters (last round).
#
# Arguments (--args): stripe unit / chunk in KiB (default 64), rounds=N
# (1), "all" (the --all-components row), "perf" (profile each side's
# untar: perf record -a -e cpu-clock for 5 s from its start, top symbols).
# Memory: the peak rise of the memory in use (page cache and free pages
# left out: mem_start in tests/guest/lib.sh) and of the slab during each
# untar+sync, the mean of the rounds.
. /ore/tests/lib.sh
. /ore/tests/exofs_lib.sh

shift
SU_K=64
PERF=
ALL=
ROUNDS=1
for a in "$@"; do
	case $a in
	perf) PERF=1 ;;
	all) ALL=1 ;;
	rounds=*) ROUNDS=${a#rounds=} ;;
	[0-9]*) SU_K=$a ;;
	esac
done
M=$EXOFS_MNT
MD_MNT=/mnt/md
OUT=/tmp/untar
mkdir -p $OUT
SIDES="exofs md"
[ -n "$ALL" ] && SIDES="exofs exofs_all md"
nsides=$(echo $SIDES | wc -w)
# load, reference; per round and side: exofs 5 results, md 3; the goal
ktap_plan $((2 + ROUNDS * (nsides * 5 - 2) + 1))

# Inode tables and journals zeroed at mkfs on both sides, so that
# ext4lazyinit does not run during the measurements (it holds each group's
# inode allocation while it zeroes it).
MKFS_EXT4_OPTS="-E lazy_itable_init=0,lazy_journal_init=0"
# perf_start / perf_report NAME: profile the next 5 s (with "perf")
perf_start() {
	[ -n "$PERF" ] || return 0
	(hostrun perf record -q -a -g -e cpu-clock -o /tmp/perf.data \
		-- sleep 5 > /dev/null 2>&1) &
	PERFPID=$!
	sleep 0.5
}
perf_report() {
	[ -n "$PERF" ] || return 0
	wait $PERFPID	# not the memory sampler
	hostrun perf report -q -i /tmp/perf.data --stdio --no-children \
		--sort symbol -g none 2>/dev/null | head -n 50 | sed "s/^/   perf $1: /" >&2
}
exofs_load || ktap_done
t=$(tree_tar) && cp "$t" /tmp/tree.tar && mkdir -p /tmp/ref && tar -xf /tmp/tree.tar -C /tmp/ref
check "reference tree in tmpfs" test -d /tmp/ref/linux-source-6.12
fail_fast
files=$(find /tmp/ref -type f | wc -l)
mib=$(du -sm /tmp/ref | cut -f1)

# run_exofs NAME [MKFS OPTIONS]: one exofs round; appends "untar+sync
# diff" to $OUT/NAME. 5 results.
run_exofs() {
	local name=$1 c u w r s
	shift
	exofs_stores_ext4 4 || return 1
	check "$name: mkfs.exofs --raid 5 --stripe-unit ${SU_K}K $*" \
		exofs_mkfs --raid 5 --stripe-unit ${SU_K}K "$@" || return 1
	check "$name: mount exofs" exofs_mount || return 1
	mem_start $OUT
	perf_start
	c=$(now_cs)
	tar -xf /tmp/tree.tar -C $M
	u=$(secs_since $c)
	perf_report $name
	sync
	w=$(secs_since $c)
	mem_stop $OUT $name >&2
	diag "$name: untar ${u}s, untar+sync ${w}s"
	counters=$(exofs_counters)
	full=$(echo "$counters" | sed -n 's/^full_stripe_writes \([0-9]*\).*/\1/p')
	part=$(echo "$counters" | sed -n 's/^partial_stripe_writes \([0-9]*\).*/\1/p')
	pct=$(echo "$counters" | sed -n 's/^full_stripe_percent \([0-9]*\).*/\1/p')
	echo 3 > /proc/sys/vm/drop_caches
	c=$(now_cs)
	check "$name: diff -r against the reference" \
		diff -r /tmp/ref/linux-source-6.12 $M/linux-source-6.12
	r=$(secs_since $c)
	check "$name: umount exofs" exofs_umount
	for s in $EXOFS_STORES; do umount $s; done
	echo "$w $r" >> $OUT/$name
}

# run_md: one round of ext4 on md raid5; appends to $OUT/md. 3 results.
run_md() {
	local devs="" i c u w r
	for i in 0 1 2 3; do
		dd if=/dev/zero of="$(disk $i)" bs=1M count=4 2>/dev/null
		devs="$devs $(disk $i)"
	done
	check "md: mdadm --create raid5, chunk ${SU_K}K, 4 disks" hostrun mdadm --create /dev/md0 \
		--level=5 --raid-devices=4 --chunk=$SU_K --assume-clean --run --force $devs || return 1
	check "md: mkfs.ext4 on md0 (stride/stripe-width of the chunk)" mkfs_ext4 /dev/md0 \
		-E stride=$((SU_K / 4)),stripe_width=$((SU_K / 4 * 3)),lazy_itable_init=0,lazy_journal_init=0 || return 1
	mount_ext4 /dev/md0 $MD_MNT
	mem_start $OUT
	perf_start
	c=$(now_cs)
	tar -xf /tmp/tree.tar -C $MD_MNT
	u=$(secs_since $c)
	perf_report md
	sync
	w=$(secs_since $c)
	mem_stop $OUT md >&2
	diag "md: untar ${u}s, untar+sync ${w}s"
	echo 3 > /proc/sys/vm/drop_caches
	c=$(now_cs)
	check "md: diff -r against the reference" diff -r /tmp/ref/linux-source-6.12 $MD_MNT/linux-source-6.12
	r=$(secs_since $c)
	umount $MD_MNT
	hostrun mdadm --stop /dev/md0 >/dev/null 2>&1
	echo "$w $r" >> $OUT/md
}

run_side() {
	case $1 in
	exofs) run_exofs exofs ;;
	exofs_all) run_exofs exofs_all --all-components ;;
	md) run_md ;;
	esac
}

round=0
while [ $round -lt "$ROUNDS" ]; do
	# rotate who goes first
	set -- $SIDES
	k=0
	while [ $k -lt $((round % nsides)) ]; do
		first=$1
		shift
		set -- "$@" "$first"
		k=$((k + 1))
	done
	for side in "$@"; do
		run_side $side
	done
	round=$((round + 1))
done

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }'; }
# col FILE N: the mean of column N (N = 3: untar+sync + diff)
col() {
	awk -v c="$2" '{ v = c == 3 ? $1 + $2 : $c; s += v; if (NR == 1 || v < lo) lo = v; if (v > hi) hi = v }
		END { if (NR) printf "%.2f %.2f %.2f", s / NR, lo, hi; else print "0 0 0" }' "$1"
}
cell() { set -- $(col "$1" "$2"); printf '%s (%s-%s)' "$1" "$2" "$3"; }
mean() { set -- $(col "$1" "$2"); echo "$1"; }
echo "== untar + compare of $files files ($mib MiB), RAID5 over 4 disks, ${SU_K}K stripe unit/chunk, $ROUNDS rounds (mean, min-max in seconds)"
printf '%-30s %-22s %-22s %-22s\n' "" "untar+sync" "diff -r" total
label() {
	case $1 in
	exofs) echo "exofs (4 ext4 stores)" ;;
	exofs_all) echo "exofs --all-components" ;;
	md) echo "ext4 on md raid5" ;;
	esac
}
for side in $SIDES; do
	printf '%-30s %-22s %-22s %-22s\n' "$(label $side)" "$(cell $OUT/$side 1)" \
		"$(cell $OUT/$side 2)" "$(cell $OUT/$side 3)"
done
for side in $SIDES; do
	[ $side = md ] && continue
	printf '%-30s %-22s %-22s %-22s\n' "ratio $side/md" \
		"$(ratio "$(mean $OUT/$side 1)" "$(mean $OUT/md 1)")" \
		"$(ratio "$(mean $OUT/$side 2)" "$(mean $OUT/md 2)")" \
		"$(ratio "$(mean $OUT/$side 3)" "$(mean $OUT/md 3)")"
done
if [ -n "$ALL" ]; then
	printf '%-30s %-22s %-22s %-22s\n' "ratio exofs/exofs_all" \
		"$(ratio "$(mean $OUT/exofs 1)" "$(mean $OUT/exofs_all 1)")" \
		"$(ratio "$(mean $OUT/exofs 2)" "$(mean $OUT/exofs_all 2)")" \
		"$(ratio "$(mean $OUT/exofs 3)" "$(mean $OUT/exofs_all 3)")"
fi
# memmean FILE: mean peak rises, "USED SLAB" (MiB)
memmean() {
	awk '{ u += $1; s += $2 } END { if (NR) printf "%.1f / %.1f", u / NR, s / NR }' "$1"
}
echo "== memory: peak rise during untar+sync, MiB in use (page cache and free pages left out) / MiB slab (mean of the rounds)"
for side in $SIDES; do
	printf '%-30s %s\n' "$(label $side)" "$(memmean $OUT/$side.mem)"
done
frac=$(awk -v f="${full:-0}" -v p="${part:-0}" 'BEGIN { if (f + p > 0) printf "%.1f%%", 100 * f / (f + p); else print "n/a" }')
echo "== exofs full-stripe writes (last exofs round): ${full:-?} full, ${part:-?} partial: $frac full (sysfs full_stripe_percent ${pct:-?})"
diag "exofs counters: $(echo "$counters" | tr '\n' ';')"
r=$(ratio "$(mean $OUT/exofs 3)" "$(mean $OUT/md 3)")
if awk -v r="$r" 'BEGIN { exit !(r != "n/a" && r <= 1.0) }'; then
	ok "exofs/md total time ratio $r <= 1.0"
else
	not_ok "exofs/md total time ratio $r <= 1.0 (goal)"
fi
ktap_done
