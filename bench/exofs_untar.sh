#!/bin/sh
# exofs benchmark (issue 5): untar + compare of the kernel source subset
# (tools/Makefile `tree`, ~3300 files) on exofs RAID5 over 4 stores (ext4 on
# each disk) against ext4 on md raid5 (mdadm, the same chunk as the stripe
# unit) over the same 4 disks, in one guest run.
#   make bench B=exofs_untar ARGS="--disks 4 --disk-size 2G"
#
# Each side: untar into the fresh filesystem and sync (the whole write
# path, writeback included), then drop the caches and diff -r against the
# tmpfs reference (the read path). Printed: both times, the ratio
# exofs/md (goal <= 1.0) and exofs's full-stripe write fraction from its
# sysfs counters.
#
# Arguments (--args): stripe unit / chunk in KiB (default 64), then
# optionally "perf": profile each side's untar (perf record -a -e
# cpu-clock for 5 s from its start) and print the top symbols.
. /ore/tests/lib.sh
. /ore/tests/exofs_lib.sh

shift
SU_K=${1:-64}
PERF=
[ "$2" = perf ] && PERF=1
M=$EXOFS_MNT
MD_MNT=/mnt/md
ktap_plan 11

# Inode tables and journals zeroed at mkfs on both sides, so that
# ext4lazyinit does not run during the measurements (it holds each group's
# inode allocation while it zeroes it).
MKFS_EXT4_OPTS="-E lazy_itable_init=0,lazy_journal_init=0"
# perf_start / perf_report NAME: profile the next 5 s (with "perf")
perf_start() {
	[ -n "$PERF" ] || return 0
	(hostrun perf record -q -a -g -e cpu-clock -o /tmp/perf.data \
		-- sleep 5 > /dev/null 2>&1) &
	sleep 0.5
}
perf_report() {
	[ -n "$PERF" ] || return 0
	wait
	hostrun perf report -q -i /tmp/perf.data --stdio --no-children \
		--sort symbol -g none 2>/dev/null | head -n 50 | sed "s/^/   perf $1: /" >&2
}
exofs_load || ktap_done
t=$(tree_tar) && cp "$t" /tmp/tree.tar && mkdir -p /tmp/ref && tar -xf /tmp/tree.tar -C /tmp/ref
check "reference tree in tmpfs" test -d /tmp/ref/linux-source-6.12
fail_fast
files=$(find /tmp/ref -type f | wc -l)
mib=$(du -sm /tmp/ref | cut -f1)

# ------------------------------------------------------------------ exofs
exofs_stores_ext4 4 || ktap_done
check "mkfs.exofs --raid 5 --stripe-unit ${SU_K}K over 4 stores" exofs_mkfs --raid 5 --stripe-unit ${SU_K}K
check "mount exofs" exofs_mount
fail_fast
perf_start
c=$(now_cs)
tar -xf /tmp/tree.tar -C $M
ex_u=$(secs_since $c)
perf_report exofs
sync
ex_w=$(secs_since $c)
diag "exofs: untar ${ex_u}s, untar+sync ${ex_w}s"
counters=$(exofs_counters)
full=$(echo "$counters" | sed -n 's/^full_stripe_writes \([0-9]*\).*/\1/p')
part=$(echo "$counters" | sed -n 's/^partial_stripe_writes \([0-9]*\).*/\1/p')
pct=$(echo "$counters" | sed -n 's/^full_stripe_percent \([0-9]*\).*/\1/p')
echo 3 > /proc/sys/vm/drop_caches
c=$(now_cs)
check "exofs: diff -r against the reference" diff -r /tmp/ref/linux-source-6.12 $M/linux-source-6.12
ex_r=$(secs_since $c)
check "umount exofs" exofs_umount
for s in $EXOFS_STORES; do umount $s; done

# ------------------------------------------------------ ext4 on md raid5
devs=""
for i in 0 1 2 3; do
	dd if=/dev/zero of="$(disk $i)" bs=1M count=4 2>/dev/null
	devs="$devs $(disk $i)"
done
check "mdadm --create raid5, chunk ${SU_K}K, 4 disks" hostrun mdadm --create /dev/md0 \
	--level=5 --raid-devices=4 --chunk=$SU_K --assume-clean --run --force $devs
check "mkfs.ext4 on md0 (stride/stripe-width of the chunk)" mkfs_ext4 /dev/md0 \
	-E stride=$((SU_K / 4)),stripe_width=$((SU_K / 4 * 3)),lazy_itable_init=0,lazy_journal_init=0
mount_ext4 /dev/md0 $MD_MNT
perf_start
c=$(now_cs)
tar -xf /tmp/tree.tar -C $MD_MNT
md_u=$(secs_since $c)
perf_report md
sync
md_w=$(secs_since $c)
diag "md: untar ${md_u}s, untar+sync ${md_w}s"
echo 3 > /proc/sys/vm/drop_caches
c=$(now_cs)
check "md: diff -r against the reference" diff -r /tmp/ref/linux-source-6.12 $MD_MNT/linux-source-6.12
md_r=$(secs_since $c)
umount $MD_MNT
hostrun mdadm --stop /dev/md0 >/dev/null 2>&1

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }'; }
sum() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a + b }'; }
ex_t=$(sum "$ex_w" "$ex_r")
md_t=$(sum "$md_w" "$md_r")
echo "== untar + compare of $files files ($mib MiB), RAID5 over 4 disks, ${SU_K}K stripe unit/chunk"
printf '%-26s %10s %10s %10s\n' "" "untar+sync" "diff -r" total
printf '%-26s %9ss %9ss %9ss\n' "exofs raid5 (4 ext4 stores)" "$ex_w" "$ex_r" "$ex_t"
printf '%-26s %9ss %9ss %9ss\n' "ext4 on md raid5" "$md_w" "$md_r" "$md_t"
printf '%-26s %10s %10s %10s\n' "ratio exofs/md" "$(ratio "$ex_w" "$md_w")" "$(ratio "$ex_r" "$md_r")" "$(ratio "$ex_t" "$md_t")"
frac=$(awk -v f="${full:-0}" -v p="${part:-0}" 'BEGIN { if (f + p > 0) printf "%.1f%%", 100 * f / (f + p); else print "n/a" }')
echo "== exofs full-stripe writes: ${full:-?} full, ${part:-?} partial: $frac full (sysfs full_stripe_percent ${pct:-?})"
diag "exofs counters: $(echo "$counters" | tr '\n' ';')"
r=$(ratio "$ex_t" "$md_t")
if awk -v r="$r" 'BEGIN { exit !(r != "n/a" && r <= 1.0) }'; then
	ok "exofs/md total time ratio $r <= 1.0"
else
	not_ok "exofs/md total time ratio $r <= 1.0 (goal)"
fi
ktap_done
