#!/bin/sh
# exofs fuzz test: bad metadata and damaged component files never crash or
# hang the kernel, and never read back as silent zeros. Over 4 tmpfs stores
# (no disks needed):
#
# 1. Directed cases, each a regression test of issue 16: a component file
#    of a 256 KiB RAID5 file deleted (the read is rebuilt from parity and
#    counted in degraded_ios; fsck names the component), the same on RAID0
#    (the read fails with EIO, no zeros), and a FIFO, a symlink, a directory
#    or a device node in place of a component file (refused: reads are
#    rebuilt, writes fail the store, sync and umount return, the symlink's
#    target is not written; fsck names it).
# 2. Random mutations (default 1000): an exofs RAID5 is populated,
#    unmounted and saved; then tests/tools/exofs_mutate --fuzz restores it, damages
#    it in one random way (superblocks on one or all stores, the device
#    table, inode records, directory entries in any chunk, the bitmap - half
#    of them with checksums and parity fixed up so that the values
#    themselves must be validated - or raw flips; component files of any
#    object removed, truncated, flipped, or replaced by a FIFO, symlink,
#    directory or device node), runs fsck.exofs on it, mounts it (odd rounds
#    read-write) and walks and uses it, all in one process. Each mount must
#    fail with an error or survive the walk and unmount; fsck must report
#    every damaged component file. The harness fails the run on any
#    Oops/BUG/WARNING in the kernel log.
#
# Arguments (--args): the number of mutations, the first seed.
. /ore/tests/lib.sh
. /ore/tests/exofs_lib.sh

shift
NMUT=${1:-1000}
SEED0=${2:-1}
M=$EXOFS_MNT
ktap_plan $((3 + 13 + 5 + (NMUT + 99) / 100 + 3))

exofs_load || ktap_done
exofs_stores_tmpfs 4 64m && ok "4 tmpfs stores" || not_ok "4 tmpfs stores"
mkdir -p $M
check "fsop is there" sh -c "command -v fsop"
fail_fast

# ---------------------------------------------------------------------
# 1. directed cases

wipe_stores() {
	local s
	for s in $EXOFS_STORES; do rm -rf "$s"/* 2>/dev/null; done
}

degraded_ios() {
	cat /sys/fs/exofs/*/degraded_ios 2>/dev/null | head -n 1
}

# new_file RAID: a fresh exofs (stripe unit 64K) with one 256 KiB file
# /f (pattern 7), unmounted; sets OID (hex) and COMP0 (store of its
# component 0).
new_file() {
	wipe_stores
	exofs_mkfs --raid "$1" --stripe-unit 64K --max-inodes 4096 >/dev/null || return 1
	exofs_mount || return 1
	fsop write $M/f 0 262144 7 || return 1
	ino=$(stat -c %i $M/f) || return 1
	exofs_umount || return 1
	OID=$(printf %x $((0x20000 + ino)))
	# first_dev = oid * mirrors_p1 % N (docs/exofs-format.md)
	COMP0=/stores/t$(( (0x20000 + ino) % 4 ))
}

# wait_done PID SECS: wait at most SECS for PID; 1 when it is still there.
wait_done() {
	local i=0
	while kill -0 "$1" 2>/dev/null; do
		[ $i -ge "$2" ] && return 1
		sleep 1
		i=$((i + 1))
	done
	wait "$1"
}

# 1a: RAID5, one component deleted: rebuilt, counted, fsck names it.
if new_file 5; then
	rm -f "$COMP0/$OID"
	mark=$(dmesg_lines)
	if exofs_mount; then
		d0=$(degraded_ios)
		check "raid5, a component file deleted: the file reads back right (rebuilt from parity)" \
			fsop verify $M/f 0 262144 7
		d1=$(degraded_ios)
		if [ -n "$d0" ] && [ "${d1:-0}" -gt "$d0" ]; then
			ok "raid5, a component file deleted: degraded_ios counts it ($d0 -> $d1)"
		else
			not_ok "raid5, a component file deleted: degraded_ios counts it" "degraded_ios $d0 -> $d1"
		fi
		if dmesg | tail -n +$((mark + 1)) | grep -q "object 0x$OID component 0 is missing on store $COMP0"; then
			ok "raid5, a component file deleted: the kernel names object, component and store"
		else
			not_ok "raid5, a component file deleted: the kernel names object, component and store" \
				"$(dmesg | tail -n +$((mark + 1)) | tail -n 3)"
		fi
		exofs_umount
	else
		not_ok "raid5, a component file deleted: mount"
		skip "raid5 degraded_ios" "no mount"
		skip "raid5 message" "no mount"
	fi
	out=$(exofs_fsck 2>&1)
	if echo "$out" | grep -q "object 0x$OID component 0 is missing"; then
		ok "raid5, a component file deleted: fsck names it"
	else
		not_ok "raid5, a component file deleted: fsck names it" "$(echo "$out" | tail -n 3)"
	fi
else
	not_ok "raid5 file for the directed cases"
	skip "raid5 degraded_ios" "no file"
	skip "raid5 message" "no file"
	skip "raid5 fsck" "no file"
fi

# 1b: RAID0, one component deleted: EIO, not zeros.
if new_file 0; then
	rm -f "$COMP0/$OID"
	if exofs_mount; then
		if dd if=$M/f of=/dev/null bs=64k count=1 2>/tmp/dd.err; then
			not_ok "raid0, a component file deleted: the read fails (EIO), no zeros" \
				"dd read 64 KiB: $(od -A d -t x1 $M/f | head -n 2 | tr '\n' ' ')"
		elif grep -qiE "I/O error|Input/output error" /tmp/dd.err; then
			ok "raid0, a component file deleted: the read fails (EIO), no zeros"
		else
			not_ok "raid0, a component file deleted: the read fails (EIO), no zeros" "$(cat /tmp/dd.err)"
		fi
		exofs_umount
	else
		not_ok "raid0, a component file deleted: mount"
	fi
else
	not_ok "raid0 file for the directed cases"
fi

# 1c: not a regular file at a component's path (RAID5): reads rebuilt,
# writes take the store out of service, sync and umount return.
# not_regular WHAT CMD...: CMD makes the thing at $COMP0/$OID.
echo victim > /tmp/victim
not_regular() {
	local what=$1 pid ok_rd=1 hung=0 mark
	shift
	if ! new_file 5; then
		not_ok "$what at a component path: set-up"
		skip "$what: fsck" "no set-up"
		return
	fi
	rm -f "$COMP0/$OID"
	"$@"
	# fsck first: the write below takes the store out of service
	if exofs_fsck 2>&1 | grep -q "component 0 on store $COMP0: .* is not a regular file"; then
		ok "$what at a component path: fsck names it"
	else
		not_ok "$what at a component path: fsck names it" "$(exofs_fsck 2>&1 | grep -E 'ERROR|WARNING' | head -n 3)"
	fi
	mark=$(dmesg_lines)
	if ! exofs_mount; then
		not_ok "$what at a component path: mount"
		return
	fi
	fsop verify $M/f 0 262144 7 || ok_rd=0
	# 1 MiB: more than a pipe holds goes to the component
	( fsop write $M/f 0 1048576 8 && sync ) >/dev/null 2>&1 &
	pid=$!
	wait_done $pid 60 || hung=1
	if [ $hung -eq 1 ]; then
		not_ok "$what at a component path: refused (reads rebuilt, write and sync return)" \
			"write + sync still running after 60 s: $(dmesg | tail -n 2 | tr '\n' ' ')"
		diag "stopping: the filesystem is hung"
		ktap_done
	fi
	if timeout 60 umount $M; then
		:
	else
		hung=1
	fi
	if [ $ok_rd -eq 1 ] && [ $hung -eq 0 ] &&
		dmesg | tail -n +$((mark + 1)) | grep -q "$OID is .*not a regular file" &&
		[ "$(cat /tmp/victim)" = victim ]; then
		ok "$what at a component path: refused (reads rebuilt, write and sync return, umount)"
	else
		not_ok "$what at a component path: refused (reads rebuilt, write and sync return, umount)" \
			"read ok $ok_rd, umount hung $hung, victim '$(cat /tmp/victim)': $(dmesg | tail -n +$((mark + 1)) | grep -i "$OID" | tail -n 2 | tr '\n' ' ')"
	fi
}
not_regular "a FIFO" mkfifo "$COMP0/$OID"
not_regular "a symlink" ln -s /tmp/victim "$COMP0/$OID"
not_regular "a directory" mkdir "$COMP0/$OID"
not_regular "a device node" mknod "$COMP0/$OID" c 1 3

# ---------------------------------------------------------------------
# 2. random mutations

wipe_stores
check "mkfs.exofs --raid 5 --stripe-unit 4K" exofs_mkfs --raid 5 --stripe-unit 4K --max-inodes 4096
check "mount" exofs_mount
fail_fast
populate() {
	mkdir -p $M/a/b/c $M/d $M/e
	echo hello > $M/a/f1
	fsop write $M/a/b/f2 0 40000 1
	fsop write $M/d/big 0 300000 2
	ln -s f1 $M/a/sym
	ln -s "$(printf 'x%.0s' $(seq 1 200))" $M/a/longsym
	ln $M/a/f1 $M/e/hard
	mkfifo $M/e/fifo
	i=0; while [ $i -lt 120 ]; do : > $M/e/n$i; i=$((i + 1)); done
	rm -f $M/e/n1*
	touch -d '2001-02-03 04:05:06' $M/a/f1
}
check "populate: directories, files, symlinks, a hard link, a fifo" populate
check "umount" exofs_umount
check "fsck.exofs --strict clean" exofs_fsck
rm -rf /tmp/pristine
mkdir -p /tmp/pristine
for s in $EXOFS_STORES; do cp -a $s /tmp/pristine/; done
diag "store t0: $(ls /tmp/pristine/t0 | wc -l) files, $(du -sk /tmp/pristine/t0 | cut -f1) KiB"

t0=$(now_cs)
exofs_mutate --fuzz "$NMUT" "$SEED0" $M /tmp/pristine $EXOFS_STORES > /tmp/fuzz.out 2>&1
rc=$?
nb=0
while IFS= read -r line; do
	case "$line" in
	"BATCH "*)
		set -- $line
		upto=$2 nbad=$3
		shift 3
		nb=$((nb + 1))
		if [ "$nbad" -eq 0 ]; then
			ok "mutations up to $upto: each refused or mounted, walked and unmounted"
		else
			not_ok "mutations up to $upto: $nbad problems" "$*"
		fi
		;;
	*) echo "$ORE_INDENT$line" ;;
	esac
done < /tmp/fuzz.out
while [ $nb -lt $(((NMUT + 99) / 100)) ]; do
	not_ok "mutation batch $nb" "exofs_mutate --fuzz stopped early (exit $rc)"
	nb=$((nb + 1))
done
diag "$NMUT mutations in $(secs_since $t0) s"

for s in $EXOFS_STORES; do
	rm -rf "$s"/*
	cp -a /tmp/pristine/$(basename "$s")/. "$s"/
done
check "the undamaged filesystem mounts after the fuzzing" exofs_mount
check "and its files are intact" sh -c \
	"[ \"\$(cat $M/a/f1)\" = hello ] && fsop verify $M/a/b/f2 0 40000 1 && fsop verify $M/d/big 0 300000 2 &&
	 [ \"\$(readlink $M/a/sym)\" = f1 ] && [ \$(ls $M/e | wc -l) -eq 91 ]"
check "umount" exofs_umount

ktap_done
