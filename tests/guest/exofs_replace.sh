#!/bin/sh
# exofs: replacing a failed store and rebuilding it online (issue 11).
# For RAID5 and RAID6 over 4 ext4 stores on dm-linear devices (disks 0-3):
# files with known content are written; a writer keeps writing new files
# and rewriting parts of a big file (each write fsync'd, then logged);
# store 1 is switched to dm-error (its next write fails, the store leaves
# service); mkfs.exofs --replace makes a new store on disk 4 and a write to
# /sys/fs/exofs/<uuid>/replace takes it in; the rebuild runs while the
# writer goes on. Then every logged write reads back, every store is in
# service, fsck.exofs is clean, a plain mount works (the failure record is
# cleared), and a mount with *other* stores missing (one for RAID5, two for
# RAID6) reads everything back: the data now comes from the rebuilt store.
# The rebuild is rate limited (rebuild_speed_max) so that it overlaps the
# writer; for RAID6 the filesystem is unmounted half way through the
# rebuild: the next mount finds the store rebuilding and goes on from the
# checkpoint (not from inode 0). A RAID0 filesystem refuses a replacement.
# Scrub (after the RAID5 cycle): a check counts 0; one page of the parity
# of one file is overwritten on its store: it fails its checksum, which
# the check rewrites (0 mismatches, checksum_repairs 1); overwritten again
# with its store's side file removed: a check counts 1 mismatch, a repair
# rewrites it, a second check counts 0, the file reads back and fsck.exofs
# is clean.
#
# CHECK: exofs_replace --disks 5 --disk-size 256M --timeout 900
. /ore/tests/lib.sh
. /ore/tests/exofs_lib.sh

M=$EXOFS_MNT
F=1		# the store that fails and is replaced
LOG=/tmp/acked

ktap_plan 67

exofs_load || ktap_done
if [ "$ORE_DISKS" -lt 5 ] || ! have_host dmsetup; then
	diag "needs 5 disks and the host's dmsetup"
	ktap_done
fi
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


# stores_up: ext4 on efs0-3 and disk 4, mounted at /stores/s0-3 and /stores/r
stores_up() {
	local i=0
	while [ $i -lt 4 ]; do
		! grep -q " /stores/s$i " /proc/mounts || umount /stores/s$i || return 1
		mkfs_ext4 /dev/mapper/efs$i -b 4096 >/dev/null 2>&1 || return 1
		mount_ext4 /dev/mapper/efs$i /stores/s$i || return 1
		i=$((i + 1))
	done
	! grep -q " /stores/r " /proc/mounts || umount /stores/r || return 1
	mkfs_ext4 "$(disk 4)" -b 4096 >/dev/null 2>&1 || return 1
	mount_ext4 "$(disk 4)" /stores/r
}

# writer: new files b$i and rewrites of 200 KiB at region i % 16 of big,
# each fsync'd then logged, until /tmp/stop exists (and 12 rounds at least)
writer() {
	local i=1 len
	while [ $i -le 12 ] || [ ! -e /tmp/stop ]; do
		len=$(( (i % 7 + 1) * 65536 + 1234 ))
		fsop write $M/b$i 0 $len $((1000 + i)) && fsop fsync $M/b$i || return 1
		echo "b$i 0 $len $((1000 + i))" >> $LOG
		fsop write $M/big $(( (i % 16) * 262144 + 4096 )) 204800 $((2000 + i)) &&
			fsop fsync $M/big || return 1
		echo "big $(( (i % 16) * 262144 + 4096 )) 204800 $((2000 + i))" >> $LOG
		i=$((i + 1))
		[ $i -le 400 ] || return 0
	done
}

# verify_all: the files written before the writer, then every logged write
# (for big: the last one of each region)
verify_all() {
	local i=0 f off len seed
	echo 3 > /proc/sys/vm/drop_caches
	while [ $i -lt 8 ]; do
		fsop verify $M/a$i 0 $(( i * 300000 + 5000 )) $((100 + i)) || { echo "a$i"; return 1; }
		i=$((i + 1))
	done
	fsop verify $M/c 0 24M 99 || { echo c; return 1; }
	awk '{ last[$1 " " $2] = $0 } END { for (k in last) print last[k] }' $LOG |
	while read -r f off len seed; do
		fsop verify $M/$f "$off" "$len" "$seed" || { echo "$f $off $len $seed"; exit 1; }
	done
}



rebuilt_bytes() { exofs_rebuild_line | sed -n 's/.* bytes \([0-9]*\) .*/\1/p'; }
wait_bytes() {	# wait_bytes N: until the rebuild wrote N bytes
	local n=0
	while [ "$(rebuilt_bytes)" -lt "$1" ]; do
		exofs_rebuild_line | grep -q '^running ' ||
			[ "$(rebuilt_bytes)" -ge "$1" ] || { exofs_rebuild_line; return 1; }
		n=$((n + 1))
		[ $n -lt 1500 ] || { exofs_rebuild_line; return 1; }
		sleep 0.2
	done
}
stop_writer() {
	touch /tmp/stop
	if wait $WPID; then
		ok "$name: writer done ($(wc -l < $LOG) writes acknowledged)"
	else
		not_ok "$name: writer done" "$(tail -n 5 /tmp/writer.out)"
	fi
}

# one LEVEL RESUME MISSING...: the whole cycle; RESUME=1 unmounts in the
# middle of the rebuild; MISSING are the stores left out of the last mount
# (other than $F)
one() {
	local lvl=$1 resume=$2 name="RAID$1" uuid o so i mark from
	shift 2
	rm -f $LOG /tmp/stop
	touch $LOG
	check "$name: ext4 stores on dm-linear and disk 4" stores_up
	EXOFS_STORES="/stores/s0 /stores/s1 /stores/s2 /stores/s3"
	check "$name: mkfs.exofs --raid $lvl" exofs_mkfs --raid "$lvl"
	check "$name: mount" exofs_mount
	fail_fast
	uuid=$(basename "$(exofs_sysdir)")
	mkfiles() {
		local i=0
		while [ $i -lt 8 ]; do
			fsop write $M/a$i 0 $(( i * 300000 + 5000 )) $((100 + i)) || return 1
			i=$((i + 1))
		done
		i=0
		while [ $i -lt 16 ]; do
			fsop write $M/big $(( i * 262144 + 4096 )) 204800 $((7 + i)) || return 1
			echo "big $(( i * 262144 + 4096 )) 204800 $((7 + i))" >> $LOG
			i=$((i + 1))
		done
		fsop write $M/c 0 24M 99 && sync
	}
	check "$name: files with known content written" mkfiles
	writer > /tmp/writer.out 2>&1 &
	WPID=$!
	sleep 2
	dm suspend --nolockfs efs$F && dm load efs$F --table "0 $SECTORS error" &&
		dm resume efs$F
	check "$name: store $F fails under the writer" exofs_wait_state $F failed 120
	check "$name: mkfs.exofs --replace $F --uuid $uuid /stores/r" \
		mkfs.exofs --replace $F --uuid "$uuid" /stores/r
	echo 4096 > "$(exofs_sysdir)/rebuild_speed_max"
	check "$name: replace store $F online" sh -c "echo '$F /stores/r' > $(exofs_sysdir)/replace"
	check "$name: store $F rebuilding" exofs_wait_state $F rebuilding 5
	check "$name: 8 MiB rebuilt while the writer runs" wait_bytes 8388608
	diag "$(exofs_rebuild_line)"
	EXOFS_STORES="/stores/s0 /stores/r /stores/s2 /stores/s3"
	if [ "$resume" = 1 ]; then
		# slower: the rest takes > 10 s, the unmount comes before
		echo 1024 > "$(exofs_sysdir)/rebuild_speed_max"
		stop_writer
		mark=$(dmesg_lines)
		check "$name: umount in the middle of the rebuild" exofs_umount
		check "$name: the rebuild stopped with a checkpoint" sh -c \
			"dmesg | tail -n +$((mark + 1)) | grep -q 'rebuild of store $F stopped at inode'"
		mark=$(dmesg_lines)
		check "$name: mount (no degraded option needed)" exofs_mount
		check "$name: store $F still rebuilding" exofs_wait_state $F rebuilding 1
		from=$(dmesg | tail -n +$((mark + 1)) | sed -n "s/.*store $F .* is being rebuilt: going on from inode \([0-9]*\).*/\1/p")
		if [ -n "$from" ] && [ "$from" -gt 0 ]; then
			ok "$name: the rebuild goes on from inode $from, not 0"
		else
			not_ok "$name: the rebuild goes on from its checkpoint" "from '$from'"
		fi
		check "$name: store $F is rebuilt" exofs_wait_rebuilt
	else
		echo 0 > "$(exofs_sysdir)/rebuild_speed_max"
		check "$name: store $F is rebuilt while the writer runs" exofs_wait_rebuilt
		stop_writer
	fi
	diag "$(exofs_rebuild_line)"
	check "$name: store $F in service" exofs_wait_state $F ok 5
	check "$name: every acknowledged write reads back" verify_all
	check "$name: umount" exofs_umount
	check "$name: fsck.exofs clean" exofs_fsck
	check "$name: plain mount (no failure recorded)" exofs_mount
	check "$name: umount" exofs_umount
	so=""
	i=0
	for o in $EXOFS_STORES; do
		case " $* " in *" $i "*) o=missing ;; esac
		so="$so:$o"
		i=$((i + 1))
	done
	so=${so#:}
	check "$name: degraded mount with stores $* missing ($so)" exofs_mount_with "$so" degraded
	check "$name: everything reads back from the rebuilt store" verify_all
	check "$name: umount" exofs_umount
	dm suspend --nolockfs efs$F && dm load efs$F --table "0 $SECTORS linear $(disk $F) 0" &&
		dm resume efs$F
	fail_fast
}

scrub_line() { cat "$(exofs_sysdir)/scrub"; }
# scrub MODE: run a scrub, wait for its end, print its mismatches
scrub() {
	local n=0
	echo "$1" > "$(exofs_sysdir)/scrub" || return 1
	while scrub_line | grep -q '^running '; do
		n=$((n + 1))
		[ $n -lt 1500 ] || return 1
		sleep 0.2
	done
	scrub_line >&2
	scrub_line | grep -q '^done ' || return 1
	scrub_line | sed -n 's/.* mismatches \([0-9]*\) .*/\1/p'
}
scrub_is() {	# scrub_is MODE N: the scrub counts N mismatched pages
	local got
	got=$(scrub "$1") || return 1
	[ "$got" = "$2" ] || { echo "counted $got mismatches, expected $2"; return 1; }
}
# overwrite_nocsum FILE: page 1 of component file FILE overwritten, and
# its checksums dropped
overwrite_nocsum() {
	dd if=/dev/urandom of="$1" bs=4096 seek=1 count=1 conv=notrunc,fsync &&
		csum_drop "$1"
}
scrub_test() {
	local ino oid hex first dir
	check "scrub: mount" exofs_mount
	check "scrub: check counts 0" scrub_is check 0
	ino=$(stat -c %i $M/a3)
	oid=$(( 0x20000 + ino ))
	hex=$(printf '%x' $oid)
	first=$(( oid % 4 ))
	# RAID5 over 4: parity of stripe row 0 on component 3
	dir=$(echo $EXOFS_STORES | cut -d' ' -f$(( (first + 3) % 4 + 1 )))
	check "scrub: umount" exofs_umount
	# with checksums (mkfs.exofs's default) the page fails its own: the
	# check rewrites it from the data, as a checksum repair
	check "scrub: one page of the parity of a3 overwritten ($dir/$hex)" \
		dd if=/dev/urandom of="$dir/$hex" bs=4096 seek=1 count=1 conv=notrunc,fsync
	check "scrub: mount" exofs_mount
	check "scrub: check counts 0 mismatches (the bad checksum is a repair)" \
		scrub_is check 0
	check "scrub: checksum_repairs 1" sh -c \
		"[ \$(cat $(exofs_sysdir)/checksum_repairs) = 1 ]"
	check "scrub: umount" exofs_umount
	# without its checksums only the parity can tell
	check "scrub: overwritten again, its checksums removed" \
		overwrite_nocsum "$dir/$hex"
	check "scrub: mount" exofs_mount
	check "scrub: check counts 1" scrub_is check 1
	check "scrub: repair counts 1" scrub_is repair 1
	check "scrub: check counts 0 after the repair" scrub_is check 0
	check "scrub: everything reads back" verify_all
	check "scrub: umount" exofs_umount
	check "scrub: fsck.exofs clean" exofs_fsck
}

mkdir -p /stores/r $M
one 5 0 2
scrub_test
one 6 1 0 3

# Refusals: a layout without redundancy, a directory that is no replacement
check "RAID0: ext4 stores" stores_up
EXOFS_STORES="/stores/s0 /stores/s1 /stores/s2 /stores/s3"
check "RAID0: mkfs.exofs, mount" sh -c "mkfs.exofs -q -f --raid 0 $EXOFS_STORES && mount -t exofs -o stores=$(stores_opt) none $M"
if echo "1 /stores/r" > "$(exofs_sysdir)/replace" 2>/dev/null; then
	not_ok "RAID0: replace refused (no redundancy)"
else
	ok "RAID0: replace refused (no redundancy)"
fi
check "RAID0: umount" exofs_umount
ktap_done
