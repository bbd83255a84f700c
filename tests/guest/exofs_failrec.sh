#!/bin/sh
# exofs: an fsync that completes after a store failed must find the failure
# recorded on the superblocks of the other stores (issue 16): otherwise,
# after a crash, the failed store comes back in service with stale data.
# Run with --stages 4 on 5 disks (4 stores, disk 4 keeps fsync's result);
# stages 1-2 with fsync, 3-4 the same with syncfs:
#
# stage 1: ext4 stores on device-mapper devices over disks 0-3; exofs RAID5
#          over them. Store 0 is switched to dm-error and, on stores 1-3,
#          the 4 KiB holding the exofs superblock object gets 3 s of write
#          delay (dm-delay), so that recording the failure takes a while.
#          A new file is written and fsync'd (stage 3: syncfs), and the
#          guest is reset the moment that returns.
# stage 2: the stores (same disks, no device-mapper) must say store 0
#          failed: a plain mount is refused, a degraded one shows store 0
#          stale, and the fsync'd file reads back. The intent record still
#          names the regions written just before the reset (they leave it
#          only after a clear pass), and with store 0 out of service their
#          parity cannot be repaired: the degraded mount is refused
#          without -o force (docs/exofs-format.md, "Intent record"), so
#          it is made with force, after checking the refusal's message.
#
# CHECK: exofs_failrec --disks 5 --disk-size 256M --stages 4 --timeout 900
. /ore/tests/lib.sh
. /ore/tests/exofs_lib.sh

STAGE=${1:-1}
M=$EXOFS_MNT
NOTE=$(disk 4)
SUPER=$(printf '%x' 0x10000)

SYNC=fsync
[ "$STAGE" -ge 3 ] && SYNC=syncfs

if [ "$STAGE" = 1 ] || [ "$STAGE" = 3 ]; then
	ktap_plan 7
	exofs_load || ktap_done
	if [ "$ORE_DISKS" -lt 5 ] || ! have_host dmsetup || ! have_host debugfs; then
		diag "needs 5 disks and the host's dmsetup and debugfs"
		ktap_done
	fi
	# dm-delay is not among the harness's modules: the host's, unpacked
	load_delay() {
		dm targets 2>/dev/null | grep -q '^delay' && return 0
		ko=$(hostrun sh -c "ls /lib/modules/$(uname -r)/kernel/drivers/md/dm-delay.ko*" 2>/dev/null) || return 1
		case "$ko" in
		*.xz) hostrun xz -dc "$ko" > /tmp/dm-delay.ko ;;
		*) hostrun cat "$ko" > /tmp/dm-delay.ko ;;
		esac
		insmod /tmp/dm-delay.ko
	}
	check "dm-delay loaded" load_delay
	SECTORS=$(blockdev --getsz "$(disk 0)")
	mk_dm() {
		local i=0
		while [ $i -lt 4 ]; do
			dm create efs$i --table "0 $SECTORS linear $(disk $i) 0" || return 1
			i=$((i + 1))
		done
	}
	check "dm-linear devices over disks 0-3" mk_dm
	fail_fast
	EXOFS_STORES=""
	mk_stores() {
		local i=0
		while [ $i -lt 4 ]; do
			mkfs_ext4 /dev/mapper/efs$i -b 4096 >/dev/null 2>&1 || return 1
			mount_ext4 /dev/mapper/efs$i /stores/s$i || return 1
			i=$((i + 1))
		done
	}
	check "ext4 stores on them" mk_stores
	EXOFS_STORES="/stores/s0 /stores/s1 /stores/s2 /stores/s3"
	check "mkfs.exofs --raid 5" exofs_mkfs --raid 5
	mkdir -p $M
	check "mount, a first file, sync" sh -c \
		"mount -t exofs -o stores=$(stores_opt) none $M && fsop write $M/pre 0 1M 3 && sync"
	fail_fast
	# slow_super I: on efsI, 3 s of delay for writes to the block of the
	# exofs superblock object (reads and flushes undelayed; ext4 blocks
	# of 4 KiB)
	slow_super() {
		local i=$1 b s dev
		dev=$(disk "$i")
		b=$(hostrun debugfs -R "bmap /$SUPER 0" /dev/mapper/efs$i 2>/dev/null | tail -n 1)
		case "$b" in ''|*[!0-9]*) echo "bmap: $b"; return 1 ;; esac
		s=$((b * 8))
		printf '0 %d linear %s 0\n%d 8 delay %s %d 0 %s %d 3000 %s %d 0\n%d %d linear %s %d\n' \
			$s "$dev" $s "$dev" $s "$dev" $s "$dev" $s $((s + 8)) $((SECTORS - s - 8)) "$dev" $((s + 8)) \
			> /tmp/table.$i
		dm suspend --nolockfs efs$i && dm load efs$i /tmp/table.$i && dm resume efs$i
	}
	fail_store0() {
		dm suspend --nolockfs efs0 && dm load efs0 --table "0 $SECTORS error" && dm resume efs0
	}
	switch_tables() {
		slow_super 1 && slow_super 2 && slow_super 3 && fail_store0
	}
	sync
	check "stores 1-3: superblock writes delayed 3 s; store 0: dm-error" switch_tables
	diag "tables: $(dm table 2>&1 | tr '\n' ';')"
	diag "writing a new file, $SYNC, resetting the guest when $SYNC returns"
	# the harness's end markers first: nothing may run between fsync and reset
	guest_end_report
	t0=$(now_cs)
	if [ $SYNC = fsync ]; then
		fsop write $M/f 0 1M 9 && fsop fsync $M/f
	else
		fsop write $M/f 0 1M 9 && fsop syncfs $M
	fi
	rc=$?
	printf '%s rc=%d after %s s\n' $SYNC $rc "$(secs_since $t0)" > /tmp/note
	dd if=/tmp/note of="$NOTE" bs=512 conv=sync,fsync 2>/dev/null
	echo b > /proc/sysrq-trigger
	sleep 10
	exit 0
fi

ktap_plan 7
exofs_load || ktap_done
mkdir -p $M
note=$(head -n 1 "$NOTE" | tr -d '\000')
diag "stage $((STAGE - 1)): $note"
case "$note" in
"$SYNC rc=0 "*) ok "stage $((STAGE - 1)): $SYNC succeeded before the reset" ;;
*) not_ok "stage $((STAGE - 1)): $SYNC succeeded before the reset" "$note" ;;
esac
if exofs_stores_remount 4; then ok "ext4 stores mount after the crash"
else not_ok "ext4 stores mount after the crash"; ktap_done; fi
if mount -t exofs -o "stores=$(stores_opt)" none $M 2>/dev/null; then
	not_ok "a plain mount is refused (store 0 recorded as failed)" \
		"mounted with $(cat /sys/fs/exofs/*/stores 2>/dev/null | tr '\n' ';')"
	exofs_umount
else
	ok "a plain mount is refused (store 0 recorded as failed)"
fi
# degraded: refused while the intent record names regions, then forced
degraded_mount() {
	exofs_mount degraded > /tmp/deg.out 2>&1 && return 0
	grep -q "parity cannot be repaired" /tmp/deg.out || { cat /tmp/deg.out; return 1; }
	diag "degraded mount refused (regions in the intent record): mounting with force"
	exofs_mount degraded,force
}
check "degraded mount" degraded_mount || ktap_done
st=$(cat /sys/fs/exofs/*/stores 2>/dev/null | tr '\n' ';')
diag "stores: $st"
case "$st" in
"0 stale "*) ok "store 0 is out of service (stale)" ;;
*) not_ok "store 0 is out of service (stale)" "$st" ;;
esac
check "the ${SYNC}'d file reads back" fsop verify $M/f 0 1M 9
exofs_umount
ktap_done
