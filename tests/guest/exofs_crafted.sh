#!/bin/sh
# exofs on crafted images (issue 16): values that pass the checksums but
# not what the filesystem can hold, each made with `exofs_mutate set`
# (checksums and parity fixed up) or by writing a component file:
#
#  1. a directory record with too small a link count (1, then 2 for a
#     directory with subdirectories): no WARN, rmdir fails cleanly, the
#     directory and its contents survive and read back once repaired;
#  2. component files holding bytes past EOF (beyond the EOF page, or in
#     its tail): truncate up and a write past a gap must show zeros there (also after a remount, and degraded with
#     each store missing in turn: the parity must match);
#  3. s_max_ino = 2^40 with a dirty state and a huge sparse bitmap: the
#     mount is refused at once with a message, not a read of the bitmap.
#
# CHECK: exofs_crafted --timeout 900
. /ore/tests/lib.sh
. /ore/tests/exofs_lib.sh

ktap_plan 28
M=$EXOFS_MNT
exofs_load || ktap_done
exofs_stores_tmpfs 4 64m && ok "4 tmpfs stores" || not_ok "4 tmpfs stores"
check "mkfs.exofs --raid 5" exofs_mkfs --raid 5 --max-inodes 65536
fail_fast

# no_warn MARK: no WARNING/BUG in the kernel log since line MARK
no_warn() {
	! dmesg | tail -n +$(($1 + 1)) | grep -E 'WARNING:|BUG:|Call Trace' | head -n 3 | grep .
}
# zeros FILE OFF LEN: the bytes [OFF, OFF+LEN) of FILE are zero (seed 0)
zeros() {
	fsop verify "$1" "$2" "$3" 0
}
mnt() {
	exofs_mount "$@" >/dev/null
}

# ---- 1. directory link counts
mkdir -p $M
check "mount, 2 directories with 2 subdirectories and a file each" sh -c "
	mount -t exofs -o stores=$(stores_opt) none $M &&
	mkdir $M/d $M/d/c1 $M/d/c2 $M/e $M/e/c1 $M/e/c2 &&
	fsop write $M/d/f 0 50000 7 >/dev/null && fsop write $M/e/f 0 50000 8 >/dev/null &&
	[ \$(stat -c %h $M/d) = 4 ]"
fail_fast
DINO=$(stat -c %i $M/d) EINO=$(stat -c %i $M/e)
exofs_umount
mark=$(dmesg_lines)
check "set directory $DINO i_links_count = 1" exofs_mutate set inode "$DINO" i_links_count 1 $EXOFS_STORES
mnt
out=$(ls $M/d 2>&1); rc=$?
diag "ls d: rc $rc: $(echo "$out" | head -n 2 | tr '\n' ' ')"
r1=$(fsop call rmdir $M/d/c1 2>&1)
diag "rmdir d/c1: $r1"
if [ "$r1" != OK ] && no_warn $mark; then ok "link count 1: rmdir refused, no WARN"
else not_ok "link count 1: rmdir refused, no WARN" "rmdir: $r1"; fi
r2=$(fsop call rmdir $M/d/c2 2>&1)
if [ "$r2" != OK ] && no_warn $mark; then ok "link count 1: second rmdir refused, no WARN"
else not_ok "link count 1: second rmdir refused, no WARN" "rmdir: $r2"; fi
check "umount" exofs_umount

check "set directory $EINO i_links_count = 2 (it has 2 subdirectories)" \
	exofs_mutate set inode "$EINO" i_links_count 2 $EXOFS_STORES
mark=$(dmesg_lines)
mnt
r1=$(fsop call rmdir $M/e/c1 2>&1)
r2=$(fsop call rmdir $M/e/c2 2>&1)
diag "rmdir e/c1: $r1, e/c2: $r2, e now $(stat -c %h $M/e 2>&1) links"
if [ "$r1" != OK ] && [ "$r2" != OK ] && no_warn $mark; then ok "link count 2: rmdir of a subdirectory refused, no WARN"
else not_ok "link count 2: rmdir of a subdirectory refused, no WARN" "rmdir: $r1 $r2"; fi
echo 3 > /proc/sys/vm/drop_caches
exofs_umount
repair_links() {
	exofs_mutate set inode "$DINO" i_links_count 4 $EXOFS_STORES &&
	exofs_mutate set inode "$EINO" i_links_count 4 $EXOFS_STORES
}
check "repair: set both link counts to 4" repair_links
mnt
check "after repair: the directories and their contents are there" sh -c "
	[ -d $M/d/c1 ] && [ -d $M/d/c2 ] && fsop verify $M/d/f 0 50000 7 &&
	[ -d $M/e/c1 ] && [ -d $M/e/c2 ] && fsop verify $M/e/f 0 50000 8"
exofs_umount
out=$(exofs_fsck 2>&1); rc=$?
printf '%s\n' "$out" | tail -n 5 | sed 's/^/# /'
if [ $rc -eq 0 ]; then ok "fsck.exofs: clean after the repair"; else not_ok "fsck.exofs: clean after the repair"; fi

# ---- 2. stored bytes past EOF
mnt
check "three files of 10000 bytes" sh -c "
	fsop write $M/g 0 10000 3 && fsop write $M/h 0 10000 4 && fsop write $M/k 0 10000 5 &&
	fsop write $M/p 0 10000 9 && sync"
GI=$(stat -c %i $M/g) HI=$(stat -c %i $M/h) KI=$(stat -c %i $M/k) PI=$(stat -c %i $M/p)
exofs_umount
# garbage_past_eof INO: every component file of inode INO is filled with
# 0xa5 bytes from its end up to 192 KiB (past EOF: the file has 10000 bytes)
garbage_past_eof() {
	local oid s f sz
	oid=$(printf '%x' $((0x20000 + $1)))
	for s in $EXOFS_STORES; do
		f=$s/$oid
		sz=$(stat -c %s $f 2>/dev/null || echo 0)
		head -c $((196608 - sz)) /dev/zero | tr '\000' '\245' |
			dd of=$f bs=4096 seek=$sz oflag=seek_bytes conv=notrunc 2>/dev/null || return 1
	done
}
# garbage_in_eof_page INO: bytes 10000..12287 of every component file of
# INO that long set to 0xa5 (the tail of the EOF page, and its parity). A
# crash leaves such bytes with checksums that match them (the mount
# restamps what the intent record names): the checksums go, so that the
# blocks read unverified rather than as bitrot on every copy.
garbage_in_eof_page() {
	local oid s f
	oid=$(printf '%x' $((0x20000 + $1)))
	for s in $EXOFS_STORES; do
		f=$s/$oid
		[ "$(stat -c %s $f 2>/dev/null || echo 0)" -ge 12288 ] || continue
		head -c 2288 /dev/zero | tr '\000' '\245' |
			dd of=$f bs=4096 seek=10000 oflag=seek_bytes conv=notrunc 2>/dev/null || return 1
		csum_drop $f || return 1
	done
}
garbage_all() {
	garbage_past_eof $GI && garbage_past_eof $HI && garbage_past_eof $KI &&
	garbage_in_eof_page $PI
}
check "component files of g, h, k hold garbage past EOF, of p in the EOF page" garbage_all
mnt
# verify_ghk: the contents of g, h and k after the extensions below
verify_ghk() {
	fsop verify $M/g 0 10000 3 && zeros $M/g 10000 290000 &&
	fsop verify $M/h 0 10000 4 && zeros $M/h 10000 190000 &&
	fsop verify $M/h 200000 4096 6 &&
	fsop verify $M/k 0 10000 5 && fsop verify $M/k 10000 5000 8 &&
	fsop verify $M/p 0 10000 9 && zeros $M/p 10000 10000 &&
	[ "$(stat -c %s $M/g $M/h $M/k $M/p | tr '\n' ' ')" = "300000 204096 15000 20000 " ]
}
check "truncate up: zeros past the old EOF" sh -c "
	fsop truncate $M/g 300000 && fsop verify $M/g 0 10000 3 && fsop verify $M/g 10000 290000 0"
check "write past a gap: zeros in the gap" sh -c "
	fsop write $M/h 200000 4096 6 && fsop verify $M/h 0 10000 4 && fsop verify $M/h 10000 190000 0 &&
	fsop verify $M/h 200000 4096 6"
check "append: the file holds what was written" sh -c "
	fsop write $M/k 10000 5000 8 && fsop verify $M/k 0 10000 5 && fsop verify $M/k 10000 5000 8"
check "truncate up over garbage in the EOF page: zeros" sh -c "
	fsop truncate $M/p 20000 && fsop verify $M/p 0 10000 9 && fsop verify $M/p 10000 10000 0"
echo 3 > /proc/sys/vm/drop_caches
check "from the stores (caches dropped): the same" verify_ghk
exofs_umount
mnt
check "after remount: the same" verify_ghk
exofs_umount
bad=""
for i in 0 1 2 3; do
	so=""
	j=0
	for s in $EXOFS_STORES; do
		[ $j = $i ] && s=missing
		so="$so:$s"
		j=$((j + 1))
	done
	if exofs_mount_with "${so#:}" degraded >/dev/null; then
		verify_ghk >/dev/null 2>&1 || bad="$bad store$i"
		exofs_umount
	else
		bad="$bad mount-without-store$i"
	fi
done
if [ -z "$bad" ]; then ok "degraded, each store missing in turn: the same (parity matches)"
else not_ok "degraded, each store missing in turn: the same (parity matches)" "$bad"; fi

# ---- 3. s_max_ino beyond the stores
BM=$(printf '%x' 0x10002)
BMSIZES=$(for s in $EXOFS_STORES; do stat -c %s $s/$BM 2>/dev/null || echo 0; done)
restore_bitmap() {
	local s n
	set -- $BMSIZES
	for s in $EXOFS_STORES; do
		n=$1
		shift
		truncate -s "$n" $s/$BM || return 1
	done
}
check "s_max_ino = 2^40, state dirty, bitmap components sparse 48 MiB" sh -c "
	exofs_mutate set sb s_max_ino 0x10000000000 $EXOFS_STORES &&
	exofs_mutate set sb s_state 2 $EXOFS_STORES &&
	for s in $EXOFS_STORES; do truncate -s 48M \$s/$BM || exit 1; done"
mark=$(dmesg_lines)
t0=$(now_cs)
if mount -t exofs -o "stores=$(stores_opt)" none $M 2>/dev/null; then
	not_ok "mount refused" "mounted after $(secs_since $t0) s"
	exofs_umount
else
	ok "mount refused ($(secs_since $t0) s)"
fi
msg=$(dmesg | tail -n +$((mark + 1)) | grep -i 's_max_ino' | head -n 1)
diag "kernel: $msg"
check "the refusal names s_max_ino" [ -n "$msg" ]
repair_sb() {
	exofs_mutate set sb s_max_ino 65536 $EXOFS_STORES && restore_bitmap
}
check "repair: s_max_ino = 65536, bitmap components as they were" repair_sb
check "mount after the repair" mnt
check "umount" exofs_umount
ktap_done
