#!/bin/sh
# `make demo`: show the guest and the project's modules loading in it.
. /ore/tests/lib.sh

echo "== kernel"
cat /proc/version
echo "== disks"
ls /sys/block | grep '^vd' | tr '\n' ' '; echo

echo "== project modules"
mark=$(dmesg_lines)
loaded=0
for m in ore exofs oreblk; do
	if ko=$(ore_ko "$m"); then
		echo "insmod $ko"
		load_mod "$ko" && loaded=$((loaded + 1))
	else
		echo "($m.ko not built yet)"
	fi
done
echo "== kernel log of the loads"
dmesg | tail -n +$((mark + 1))
echo "== lsmod"
lsmod
echo "== $loaded project module(s) loaded"
