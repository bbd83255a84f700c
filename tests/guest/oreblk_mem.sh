#!/bin/sh
# oreblk under memory pressure: most of the guest's memory is taken by a
# tmpfs file (not reclaimable: no swap), then fio writes through a raid5
# array at iodepth 32 with bios up to 512 KiB (several member bios each,
# allocated inside oreblk's ->submit_bio from the stores' bio pools) while
# buffered writes make writeback run in reclaim. Every write must verify,
# nothing may hang (the harness fails a run with "blocked for more than"),
# and the kernel must have been short of memory meanwhile (reclaim stalls
# or direct scans counted in /proc/vmstat). The modules unload cleanly
# (each store frees its bio pool).
#
# CHECK: oreblk_mem --disks 4 --disk-size 64M --mem 512M --timeout 600
. /ore/tests/lib.sh
. /ore/tests/oreblk_lib.sh

ktap_plan 8

A=/dev/oreblk0
HOG=/dev/shm/ob_hog

if [ "$ORE_DISKS" -lt 4 ] || ! have_host fio; then
	diag "needs 4 disks and the host's fio"
	ktap_done
fi
ob_load || ktap_done
check "raid5: create over 4 disks" oreblk create $A --raid 5 --chunk 64K -n 4 /dev/vda /dev/vdb /dev/vdc /dev/vdd
fail_fast

# pressure: the kernel's reclaim counters (direct reclaim and stalls)
pressure() {
	awk '/^(allocstall_|pgscan_direct|pgsteal_direct)/ { n += $2 } END { print n + 0 }' /proc/vmstat
}
# hog: fill a tmpfs file until about 56 MiB of memory is left available
hog() {
	mkdir -p /dev/shm && { mountpoint -q /dev/shm || mount -t tmpfs -o size=100% tmpfs /dev/shm; } || return 1
	local avail
	avail=$(awk '/^MemAvailable:/ { print int($2 / 1024) }' /proc/meminfo)
	[ "$avail" -gt 160 ] || { echo "only $avail MiB available"; return 1; }
	dd if=/dev/zero of=$HOG bs=1M count=$((avail - 56)) 2>/dev/null
	grep -E '^(MemFree|MemAvailable)' /proc/meminfo
}
P0=$(pressure)
check "memory taken by a tmpfs file (56 MiB left)" hog
# buffered writes of the array's second half in the background: writeback
# from reclaim
(i=0; while [ $i -lt 6 ]; do
	dd if=/dev/urandom of=$A bs=1M seek=128 count=48 conv=fsync 2>/dev/null || exit 1
	i=$((i + 1))
done) &
BG=$!
check "fio through raid5 at iodepth 32, bios up to 512 KiB, verified" \
	ob_fio $A 0 96M --iodepth=32 --bsrange=4k-512k
wait $BG
check "buffered writes and fsync under pressure succeeded" test $? -eq 0
check "the kernel reclaimed memory meanwhile (vmstat)" sh -c \
	"p=\$(awk '/^(allocstall_|pgscan_direct|pgsteal_direct)/ { n += \$2 } END { print n + 0 }' /proc/vmstat);
	 echo \"direct reclaim counters: $P0 before, \$p after\"; [ \$p -gt $P0 ]"
rm -f $HOG
check "fio data verifies with the memory back" ob_fio_verify $A 0 96M --iodepth=32 --bsrange=4k-512k
check "stop; modules unload" sh -c "oreblk stop $A && rmmod oreblk && rmmod ore"
ktap_done
