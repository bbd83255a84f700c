#!/bin/sh
# exofs persistence across a guest kill: what was fsync'd is there after
# the next boot. Run with --stages 2 (two boots on the same 4 disks):
#
# stage 1: mkfs RAID5 over 4 ext4 stores, mount, write and fsync/fdatasync/
#          syncfs several things, start an unsynced writer, then reset the
#          machine (sysrq b: no sync, no umount).
# stage 2: mount the stores (ext4 replays its journal), fsck.exofs (no
#          errors; leaks are allowed after a crash), mount exofs, check
#          every fsync'd item, write more, umount, fsck again.
. /ore/tests/lib.sh
. /ore/tests/exofs_lib.sh

STAGE=${1:-1}
M=$EXOFS_MNT

if [ "$STAGE" = 1 ]; then
	ktap_plan 11
	exofs_load || ktap_done
	exofs_stores_ext4 4 || ktap_done
	check "mkfs.exofs --raid 5" exofs_mkfs --raid 5
	check "mount" exofs_mount
	fail_fast
	check "new file, fsync file and directory" sh -c \
		"fsop write $M/f_fsync 0 1M 1 && fsop fsync $M/f_fsync && fsop fsync $M"
	check "new directory and file in it, fsync both and the root" sh -c \
		"mkdir $M/sub && fsop write $M/sub/g 0 200000 2 && fsop fsync $M/sub/g &&
		 fsop fsync $M/sub && fsop fsync $M"
	check "overwrite in the middle after sync, then fdatasync" sh -c \
		"fsop write $M/over 0 600000 3 && sync && fsop write $M/over 123457 70000 4 &&
		 fsop fdatasync $M/over"
	check "append after sync, then fsync" sh -c \
		"fsop write $M/app 0 5000 5 && sync && fsop append $M/app 300000 5 >/dev/null &&
		 fsop fsync $M/app"
	check "rename after sync, then fsync the directory" sh -c \
		"echo renamed > $M/before && sync && mv $M/before $M/after && fsop fsync $M"
	check "20 small files, then syncfs" sh -c \
		"mkdir $M/many && i=0; while [ \$i -lt 20 ]; do echo \$i > $M/many/s\$i; i=\$((i + 1)); done;
		 fsop syncfs $M"
	# not synced: anything may be lost, nothing may be corrupt
	fsop write $M/unsynced 0 2M 6 2>/dev/null
	(while :; do fsop write $M/busy 0 4M 7 2>/dev/null; done) &
	sleep 2
	ok "unsynced writes in flight; crashing"
	guest_crash
	exit 0
fi

ktap_plan 13
exofs_load || ktap_done
if exofs_stores_remount 4; then ok "ext4 stores mount after the crash"
else not_ok "ext4 stores mount after the crash"; ktap_done; fi
out=$(fsck.exofs $EXOFS_STORES 2>&1); rc=$?
printf '%s\n' "$out" | tail -n 15 | sed 's/^/# /'
if [ $rc -eq 0 ]; then ok "fsck.exofs after the crash: no errors (leaks allowed)"
else not_ok "fsck.exofs after the crash: no errors (leaks allowed)"; fi
check "mount exofs after the crash" exofs_mount || ktap_done
check "fsync'd new file" fsop verify $M/f_fsync 0 1M 1
check "fsync'd new directory and file" sh -c "[ \$(stat -c %s $M/sub/g) = 200000 ] && fsop verify $M/sub/g 0 200000 2"
check "fdatasync'd overwrite" sh -c \
	"fsop verify $M/over 0 123457 3 && fsop verify $M/over 123457 70000 4 && fsop verify $M/over 193457 406543 3"
check "fsync'd append" sh -c "[ \$(stat -c %s $M/app) = 305000 ] && fsop verify $M/app 0 305000 5"
check "fsync'd rename" sh -c "[ ! -e $M/before ] && [ \"\$(cat $M/after)\" = renamed ]"
check "syncfs'd small files" sh -c \
	"i=0; while [ \$i -lt 20 ]; do [ \"\$(cat $M/many/s\$i)\" = \$i ] || exit 1; i=\$((i + 1)); done"
diag "unsynced: $(stat -c '%n %s bytes' $M/unsynced $M/busy 2>&1 | tr '\n' ';')"
check "the filesystem takes new writes" sh -c \
	"rm -f $M/busy $M/unsynced && fsop write $M/new 0 1M 8 && fsop verify $M/new 0 1M 8"
check "umount" exofs_umount
out=$(fsck.exofs $EXOFS_STORES 2>&1); rc=$?
printf '%s\n' "$out" | tail -n 10 | sed 's/^/# /'
if [ $rc -eq 0 ]; then ok "fsck.exofs after the clean umount: no errors"
else not_ok "fsck.exofs after the clean umount: no errors"; fi
ktap_done
