#!/bin/sh
# The write hole and pNFS clients (issues 12 and 13): a client's writes
# through a RW layout reach the stores without the MDS, so the MDS puts
# the layout's regions into the intent record before it hands the layout
# out and keeps them there until the layout comes back; a crash of the MDS
# meanwhile has the next mount repair their parity. Checks, exofs RAID5
# over 4 ext4 stores (--checksum none: layouts are handed out), the
# write-intent record at its default: a file the client holds open after
# writing it through its layout has its regions in the record (sysfs and
# the record on the stores, read by fsck.exofs -v) after more than two
# clear passes, which take out the regions of the MDS's own writes after
# 5-10 s idle; they leave the record once the client closes the file (its
# layout returned); with exofs_pnfs's record_layouts off a second held
# file's region leaves the record (the hole these checks catch); a client
# expired by nfsd while it holds a third file open, torn on a store by
# hand, has its layout freed without a return: the MDS repairs the region
# before it leaves the record, a scrub check then finds nothing (with
# record_layouts 0 first: the scrub finds the tear); a 24 MiB
# file written back at once takes one layout covering what the client
# asks for, one written 1 MiB at a time with an fdatasync after each
# layouts over growing ranges (1, 2, 4, 8 regions), both read back right
# through the MDS; fsck.exofs clean at the end. Same set-up as
# exofs_pnfs_client.sh; make nfsd first.
. /ore/tests/lib.sh
. /ore/tests/exofs_lib.sh

ktap_plan 28

. /ore/tests/pnfs_lib.sh
c4=/tmp/nfs4
C4=$H$c4

pnfs_stores_mkfs "mkfs.exofs --raid 5 over 4 stores, --checksum none, the intent record" \
	--raid 5 --stripe-unit 16K --checksum none -L pnfsint
check "mount exofs" exofs_mount "" $E
intent() { cat "$(exofs_sysdir)/intent"; }
check "consistency policy intent" sh -c "grep -q '^policy intent ' $(exofs_sysdir)/intent"
fail_fast
pnfs_serve_client $c4

cnt() { cat $CP/$1; }
field() { intent | sed -n "s/.* $1 \([0-9]*\).*/\1/p"; }
# regions named by the record on the stores (the newest of each store's)
disk_regions() {
	fsck.exofs -v $EXOFS_STORES 2>/dev/null |
		sed -n 's/.*intent record [0-9]* names \([0-9]*\) regions.*/\1/p' | sort -n | tail -n 1
}

# the MDS's own writes first: their regions leave the record 5-10 s idle
sleep 11
diag "before: $(intent)"
dd if=/dev/urandom of=/tmp/big bs=64k count=40 2>/dev/null	# 2.5 MiB
w0=$(cnt write_bytes) g0=$(cat $PP/layoutgets)
# The client writes the file and keeps it open: its layout stays out.
pnfs_hold /tmp/big held
check "the client wrote the held file through its layout" sh -c "
	[ -e /tmp/held.written ] && [ \$(cat $CP/write_bytes) -gt $w0 ]"
diag "driver write_bytes $w0 -> $(cnt write_bytes); layoutgets $g0 -> $(cat $PP/layoutgets); $(intent)"
pinned() { [ "$(field pinned)" -ge 1 ] && [ "$(field regions)" -ge 1 ]; }
check "its regions are pinned in the record" pinned
sleep 12
diag "12 s later: $(intent)"
check "still in the record after two clear passes (12 s, the layout out)" pinned
d=$(disk_regions)
diag "the records on the stores name ${d:-no} regions"
check "the record on the stores names them (fsck.exofs -v)" sh -c "[ \"${d:-0}\" -ge 1 ]"
pnfs_unhold
released() {
	local n=0
	while [ "$(field pinned)" != 0 ] || [ "$(field regions)" != 0 ]; do
		n=$((n + 1))
		[ $n -lt 250 ] || return 1
		sleep 0.1
	done
}
check "the client closed the file: its layout returned, the regions leave the record" released
diag "after the close: $(intent); layoutreturns $(cat $PP/layoutreturns)"
check "the held file is right on the MDS" cmp /tmp/big $E/held

# The same with exofs_pnfs's record_layouts off (what the protection is
# measured against): the held file's region leaves the record while the
# client still holds its layout, so the checks above can fail.
echo 0 > $PP/record_layouts
pnfs_hold /tmp/big held0
sleep 12
diag "record_layouts 0, 12 s after the write: $(intent)"
check "with record_layouts 0 the held file's region is gone from the record after 12 s" sh -c "
	[ -e /tmp/held0.written ] && ! grep -q ' regions [1-9]' $(exofs_sysdir)/intent"
pnfs_unhold
echo 1 > $PP/record_layouts

# A client that goes away holding a RW layout (its lease expired, it
# rebooted: here nfsd expires it, /proc/fs/nfsd/clients/N/ctl) may have
# died mid-write: nfsd frees its layout without a return, and the MDS
# repairs the layout's regions before they leave the record. The tear is
# made by hand: bytes of a component of the held file changed on its store
# (a data write that reached its store, the parity's not). With
# record_layouts 0 (no pins, nothing to repair) the tear stays: the scrub
# finds it (the hole this catches), and repairs it for what follows.
# torn NAME: hold a copy of /tmp/big as NAME, change 16 bytes of its
# component 0 on its store, expire the client (it recovers its state)
torn() {
	local ino

	pnfs_hold /tmp/big "$1"
	[ -e /tmp/$1.written ] || { echo "$1 not written"; return 1; }
	ino=$(stat -c %i $E/$1) || return 1
	flip "$(comp_file $ino 4 0 1)" || return 1
	ls /proc/fs/nfsd/clients/*/ctl > /tmp/ctls || return 1
	diag "$1: inode $ino; $(intent); expiring $(wc -l < /tmp/ctls) NFSv4 client(s)"
	while read -r c; do echo expire > "$c" || return 1; done < /tmp/ctls
}
torn_released() {
	local n=0
	while [ "$(field pinned)" != 0 ] || [ "$(field repaired)" != 1 ]; do
		n=$((n + 1))
		[ $n -lt 300 ] || return 1
		sleep 0.1
	done
}
echo 0 > $PP/record_layouts
check "record_layouts 0: a client holding a RW layout of a file torn on a store expires" torn torn0
pnfs_unhold
diag "$(intent); layouts_dropped $(cat $PP/layouts_dropped)"
scrub_finds() { ! exofs_scrub check; }
mend() { exofs_scrub repair > /dev/null; exofs_scrub check; }
check "record_layouts 0: a scrub check finds the torn stripe" scrub_finds
check "a scrub repair mends it" mend
echo 1 > $PP/record_layouts
d0=$(cat $PP/layouts_dropped)
check "a client holding a RW layout of a file torn on a store expires" torn torn
check "nfsd let its layout go: the regions repaired, then out of the record" torn_released
pnfs_unhold
diag "$(intent); layouts_dropped $d0 -> $(cat $PP/layouts_dropped)"
dmesg | grep 'without a return' | sed 's/^/# /'
check "the MDS logged the repair of the tear" sh -c "
	dmesg | grep -q 'without a return: \[0, [0-9]*) repaired ([1-9][0-9]* pages differed)' &&
	[ $(cat $PP/layouts_dropped) -gt $d0 ]"
check "a scrub check finds nothing" exofs_scrub check

# A file written back at once: its layout covers what the client asks
# for (the bytes it has cached), one LAYOUTGET.
g1=$(cat $PP/layoutgets) w1=$(cnt write_bytes)
check "a 24 MiB file written by the client" sh -c "
	dd if=/dev/urandom of=/tmp/seq bs=1M count=24 2>/dev/null && cp /tmp/seq $C4/seq && sync"
diag "layoutgets $g1 -> $(cat $PP/layoutgets); driver write_bytes $w1 -> $(cnt write_bytes); $(intent)"
check "through one or two layouts covering what the client asked for, read back right through the MDS" sh -c "
	[ \$(( $(cat $PP/layoutgets) - $g1 )) -le 2 ] && [ \$(( $(cnt write_bytes) - $w1 )) -ge 25165824 ] &&
	echo 3 > /proc/sys/vm/drop_caches && cmp /tmp/seq $E/seq"
# A file written 1 MiB at a time, each write stable before the next (the
# client asks for 1 MiB each time): the layouts grow 1, 2, 4, 8 regions.
g1=$(cat $PP/layoutgets) w1=$(cnt write_bytes)
# (the host's fio, crc32c-stamped blocks, an fdatasync after each write)
sfio() { hostrun fio --name=s --rw=write --bs=1M --size=24M --verify=crc32c --minimal "$@" > /tmp/sfio.out 2>&1; }
check "a 24 MiB file written 1 MiB at a time, each write stable before the next" \
	sfio --filename=$c4/seq2 --fdatasync=1 --do_verify=0
diag "layoutgets $g1 -> $(cat $PP/layoutgets); driver write_bytes $w1 -> $(cnt write_bytes); $(intent)"
check "through layouts over growing ranges (3 to 6 LAYOUTGETs)" sh -c "
	g=\$(( $(cat $PP/layoutgets) - $g1 )); [ \$g -ge 3 ] && [ \$g -le 6 ] &&
	[ \$(( $(cnt write_bytes) - $w1 )) -ge 25165824 ]"
echo 3 > /proc/sys/vm/drop_caches
check "every block reads back right through the MDS (fio verify)" \
	sfio --filename=$e/seq2 --verify_only
check "unmount the client, unload objlayoutdriver, stop nfsd" pnfs_stop
check "fsck.exofs is clean" exofs_fsck
ktap_done
