#!/bin/sh
# Engine benchmark (issue 4): the engine's parity path against the kernel's
# own xor/raid6 figures printed when xor.ko and raid6_pq.ko load, and a
# RAID5 full-stripe write over 4 block stores against RAID0 (the raw
# aggregate of the same disks through the same engine, no parity).
#   make bench B=parity ARGS="--disks 4 --disk-size 2G"
. /ore/tests/lib.sh

insmod /ore/ore.ko || exit 1
devs=""
for d in /sys/block/vd*; do
	devs="$devs${devs:+,}/dev/$(basename "$d")"
done
mark=$(dmesg_lines)
insmod /ore/ore_bench.ko bdevs="$devs" mbytes=512 || exit 1
rmmod ore_bench
rmmod ore

log=$(dmesg)
fig() {	# fig NAME: MB/s the bench printed for NAME
	echo "$log" | tail -n +$((mark + 1)) |
		sed -n "s/.*ore_bench: $1 \([0-9]*\) MB\/s.*/\1/p" | tail -n 1
}
xor=$(echo "$log" | sed -n 's/.*xor: using function: .*(\([0-9]*\) MB\/sec).*/\1/p' | tail -n 1)
r6=$(echo "$log" | sed -n 's/.*raid6: using algorithm .* gen() \([0-9]*\) MB\/s.*/\1/p' | tail -n 1)
echo "$log" | grep -E "xor: using|raid6: using|raid6: .* recovery"
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }'; }

r5a=$(fig cpu-raid5-gw3-su4k); r5b=$(fig cpu-raid5-gw4-su64k)
r6a=$(fig cpu-raid6-gw8-su4k); r6b=$(fig cpu-raid6-gw6-su64k)
r0=$(fig cpu-raid0-gw4-su64k)
d0=$(fig dev-raid0-su64k); d5=$(fig dev-raid5-su64k)
echo "== CRC-32C of 4 KiB blocks (data checksums): crc32c() $(fig raw-crc32c-lib) MB/s ($([ -d /sys/module/crc32c_intel ] && echo crc32c_intel loaded || echo crc32c_intel not loaded)), __crc32c_le $(fig raw-crc32c-sw) MB/s, xxh64 $(fig raw-xxh64) MB/s"
x2=$(fig raw-xor-dw2); x3=$(fig raw-xor-dw3); p6=$(fig raw-pq-dw6); p4=$(fig raw-pq-dw4)
echo "== kernel figures: xor boot ${xor:-(not measured: arch template chosen)} MB/s, raid6 gen() boot ${r6:-?} MB/s"
echo "== engine CPU path (null stores, full-stripe writes, data MB/s) against"
echo "   the kernel's parity call alone on the same geometry (raw)"
printf '%-34s %8s %10s %6s\n' figure "MB/s" raw ratio
printf '%-34s %8s %10s %6s\n' "raid5 gw3 su4k" "$r5a" "$x2" "$(ratio "$r5a" "$x2")"
printf '%-34s %8s %10s %6s\n' "raid5 gw4 su64k" "$r5b" "$x3" "$(ratio "$r5b" "$x3")"
printf '%-34s %8s %10s %6s\n' "raid6 gw8 su4k" "$r6a" "$p6" "$(ratio "$r6a" "$p6")"
printf '%-34s %8s %10s %6s\n' "raid6 gw6 su64k" "$r6b" "$p4" "$(ratio "$r6b" "$p4")"
printf '%-34s %8s %10s %6s\n' "raid6 gw8 raw vs boot gen()" "$p6" "$r6" "$(ratio "$p6" "$r6")"
p61=$(fig raw-pq-dw6-1m); x21=$(fig raw-xor-dw2-1m)
echo "== the same at su4k against the parity call over ~1 MiB of pages (the engine's footprint), not one stripe"
printf '%-34s %8s %10s %6s\n' "raid5 gw3 su4k vs raw 1 MiB" "$r5a" "$x21" "$(ratio "$r5a" "$x21")"
printf '%-34s %8s %10s %6s\n' "raid6 gw8 su4k vs raw 1 MiB" "$r6a" "$p61" "$(ratio "$r6a" "$p61")"
printf '%-34s %8s\n' "raid0 gw4 su64k (no parity)" "$r0"
echo "== engine CPU path, 4 KiB random writes (partial stripes: reads, parity, writes), 16 in flight, null stores"
echo "$log" | tail -n +$((mark + 1)) | sed -n 's/.*ore_bench: \(rand-[^ ]*\) \([0-9]*\) writes\/s, \([0-9]*\) ns each.*/\1 \2 \3/p' |
	while read -r n w t; do printf '%-34s %8s writes/s %6s us each\n' "$n" "$w" "$((t / 1000))"; done
echo "== block stores ($devs), full-stripe writes"
printf '%-34s %8s\n' "raid0 (raw aggregate)" "$d0"
printf '%-34s %8s %10s %6s\n' "raid5 vs raid0" "$d5" "$d0" "$(ratio "$d5" "$d0")"
