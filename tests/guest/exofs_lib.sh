# Helpers of the exofs guest suites (exofs_*.sh, bench/exofs_untar.sh).
# Source after lib.sh:
#
#   . /ore/tests/lib.sh
#   . /ore/tests/exofs_lib.sh
#
# Stores are directories /stores/sI, each the root of an ext4 on virtio disk
# I (or a tmpfs for the small-store tests); EXOFS_STORES lists them in
# device-table order. The exofs mount syntax is docs/exofs-format.md's:
#   mount -t exofs -o stores=/s0:/s1:...[,degraded] none MNT

EXOFS_STORES=""
EXOFS_MNT=/mnt/exofs
# ORE_HOSTREPO (the repository's path on the host) is in harness.env
[ -z "$ORE_HOSTREPO" ] && [ -r /ore/harness.env ] && . /ore/harness.env
PATH=/ore/tools:$PATH

# now_cs: centiseconds since boot (for timings).
now_cs() {
	awk '{ printf "%d\n", $1 * 100 }' /proc/uptime
}

# secs_since CS: "S.SS" seconds since now_cs value CS.
secs_since() {
	awk -v a="$1" -v b="$(now_cs)" 'BEGIN { printf "%.2f\n", (b - a) / 100 }'
}

# exofs_load: insmod ore.ko and exofs.ko (each once). Emits one result.
exofs_load() {
	local m ko
	for m in ore exofs; do
		mod_loaded "$m" && continue
		if ! ko=$(ore_ko "$m"); then
			not_ok "load ore.ko and exofs.ko" "$m.ko is not built"
			return 1
		fi
		load_mod "$ko" || return 1
	done
	ok "load ore.ko and exofs.ko"
}

# exofs_stores_ext4 N: ext4 on disks 0..N-1 mounted at /stores/s0..; sets
# EXOFS_STORES. Emits one result.
exofs_stores_ext4() {
	local n=$1 i err=""
	EXOFS_STORES=""
	i=0
	while [ $i -lt "$n" ]; do
		# (no mountpoint(1) in the guest)
		grep -q " /stores/s$i " /proc/mounts && umount /stores/s$i
		mkdir -p /stores/s$i
		if ! out=$(mkfs_ext4 "$(disk $i)" 2>&1); then
			err="mkfs.ext4 $(disk $i): $out"
			break
		fi
		if ! out=$(mount_ext4 "$(disk $i)" /stores/s$i 2>&1); then
			err="mount $(disk $i): $out"
			break
		fi
		EXOFS_STORES="$EXOFS_STORES /stores/s$i"
		i=$((i + 1))
	done
	EXOFS_STORES=${EXOFS_STORES# }
	if [ -n "$err" ]; then
		not_ok "ext4 stores on $n disks" "$err"
		return 1
	fi
	ok "ext4 stores on $n disks"
}

# exofs_stores_remount: mount the ext4 stores again (second boot).
exofs_stores_remount() {
	local n=$1 i=0
	EXOFS_STORES=""
	while [ $i -lt "$n" ]; do
		mkdir -p /stores/s$i
		mount_ext4 "$(disk $i)" /stores/s$i || return 1
		EXOFS_STORES="$EXOFS_STORES /stores/s$i"
		i=$((i + 1))
	done
	EXOFS_STORES=${EXOFS_STORES# }
}

# exofs_stores_tmpfs N SIZE: tmpfs stores of SIZE each at /stores/tI.
exofs_stores_tmpfs() {
	local n=$1 size=$2 i=0
	EXOFS_STORES=""
	while [ $i -lt "$n" ]; do
		mkdir -p /stores/t$i
		mount -t tmpfs -o size="$size" tmpfs /stores/t$i || return 1
		EXOFS_STORES="$EXOFS_STORES /stores/t$i"
		i=$((i + 1))
	done
	EXOFS_STORES=${EXOFS_STORES# }
}

# stores_opt [STORE...]: "s0:s1:..." of the given stores (default all).
stores_opt() {
	[ $# -gt 0 ] || set -- $EXOFS_STORES
	echo "$*" | tr ' ' ':'
}

# exofs_mkfs ARGS...: mkfs.exofs -f ARGS... over EXOFS_STORES; output
# (layout, store order) is shown as diagnostics.
exofs_mkfs() {
	local out rc
	out=$(mkfs.exofs -f "$@" $EXOFS_STORES 2>&1)
	rc=$?
	printf '%s\n' "$out" | sed "s/^/${ORE_INDENT}# /"
	return $rc
}

# exofs_mount [OPTS] [MNT]: mount exofs over EXOFS_STORES on MNT (default
# $EXOFS_MNT); OPTS are extra mount options (e.g. "degraded", "ro").
# On failure shows the kernel's last lines.
exofs_mount() {
	local opts=$1 mnt=${2:-$EXOFS_MNT} o out
	o="stores=$(stores_opt)"
	[ -n "$opts" ] && o="$o,$opts"
	mkdir -p "$mnt"
	if ! out=$(mount -t exofs -o "$o" none "$mnt" 2>&1); then
		echo "$out"
		dmesg | tail -n 8
		return 1
	fi
}

# exofs_mount_with STORES_OPT [OPTS] [MNT]: the same with an explicit
# stores= value (degraded and wrong-order tests).
exofs_mount_with() {
	local so=$1 opts=$2 mnt=${3:-$EXOFS_MNT} o out
	o="stores=$so"
	[ -n "$opts" ] && o="$o,$opts"
	mkdir -p "$mnt"
	if ! out=$(mount -t exofs -o "$o" none "$mnt" 2>&1); then
		echo "$out"
		dmesg | tail -n 8
		return 1
	fi
}

# exofs_umount [MNT]
exofs_umount() {
	umount "${1:-$EXOFS_MNT}"
}

# exofs_fsck [ARGS...]: fsck.exofs --strict over EXOFS_STORES (or ARGS as
# the store list when given).
exofs_fsck() {
	if [ $# -gt 0 ]; then
		fsck.exofs --strict "$@"
	else
		fsck.exofs --strict $EXOFS_STORES
	fi
}

# exofs_counters [MNT]: the exofs sysfs/debugfs counters of the mount, as
# "name value" lines (whatever the kernel exposes; empty if nothing).
exofs_counters() {
	local d f
	for d in /sys/fs/exofs/* /sys/kernel/debug/exofs/*; do
		[ -d "$d" ] || continue
		for f in "$d"/*; do
			[ -f "$f" ] && [ -r "$f" ] || continue
			printf '%s %s\n' "$(basename "$f")" "$(head -c 200 "$f" | tr '\n' ' ')"
		done
	done
}

# tree_tar: path of the kernel source subset tar: prepared on the host by
# `make -C tools tree` (build/exofs-tree/tree.tar), else made here from
# /usr/src/linux-source-6.12.tar.xz on the host share (slow under TCG).
# TREE_DIRS (space separated, relative to linux-source-6.12/) selects the
# subset in the fallback.
TREE_DIRS=${TREE_DIRS:-"include/linux fs/ext4 fs/xfs fs/nfs"}
tree_tar() {
	local t="$ORE_HOST$ORE_HOSTREPO/build/exofs-tree/tree.tar" d list=""
	if [ -r "$t" ]; then
		echo "$t"
		return 0
	fi
	t=/tmp/exofs-tree.tar
	if [ ! -s "$t" ]; then
		for d in $TREE_DIRS; do list="$list linux-source-6.12/$d"; done
		mkdir -p /tmp/exofs-tree.x
		xzcat "$ORE_HOST/usr/src/linux-source-6.12.tar.xz" |
			tar -x -C /tmp/exofs-tree.x $list || return 1
		(cd /tmp/exofs-tree.x && tar -cf "$t" linux-source-6.12) || return 1
		rm -rf /tmp/exofs-tree.x
	fi
	echo "$t"
}

# tree_manifest DIR: one line per file/dir/symlink under DIR, sorted:
# "path|type|mode|size|mtime|uid|gid|target" (the size of directories left
# out: directory sizes differ between filesystems).
tree_manifest() {
	(cd "$1" && find . -mindepth 1 -exec stat -c '%n|%F|%a|%s|%Y|%u|%g|%N' {} + |
		awk -F'|' -v OFS='|' '$2 == "directory" { $4 = "-" } { print }' |
		LC_ALL=C sort)
}

# tree_compare REF DIR: every file of REF is in DIR with the same bytes and
# the same mode/size/mtime/owner, and nothing else is there.
tree_compare() {
	local ref=$1 dir=$2 a=/tmp/manifest.ref b=/tmp/manifest.cmp
	tree_manifest "$ref" > $a
	tree_manifest "$dir" > $b
	if ! cmp -s $a $b; then
		echo "metadata differs ($(wc -l < $a) vs $(wc -l < $b) entries):"
		diff $a $b | head -n 20
		return 1
	fi
	diff -r "$ref" "$dir" > /tmp/diff.out 2>&1 || {
		echo "contents differ:"
		head -n 20 /tmp/diff.out
		return 1
	}
}

# exofs_sysdir: /sys/fs/exofs/<uuid> of the (one) mounted exofs
# comp_file INO N C M: the backing file of component C of inode INO's
# object on N stores with M copies (exofs_first_dev(): component C is on
# store (oid * M + C) % N).
comp_file() {
	local oid=$(( 0x20000 + $1 ))
	echo "$(echo $EXOFS_STORES | cut -d' ' -f$(( (oid * $4 + $3) % $2 + 1 )))/$(printf '%x' $oid)"
}

# flip PATH: overwrite 16 bytes at offset 100 of PATH with their complement
flip() {
	dd if="$1" bs=1 skip=100 count=16 2>/dev/null | tr '\000-\377' '\377-\000' |
		dd of="$1" bs=1 seek=100 count=16 conv=notrunc 2>/dev/null && sync
}

# csum_drop FILE: the component file FILE keeps no data checksums: its side
# file and its head (the extended attribute user.ore.csum) go. Unmounted
# only.
csum_drop() {
	rm -f "$1.csum" || return 1
	if fsop xattr get "$1" user.ore.csum > /dev/null; then
		fsop xattr rm "$1" user.ore.csum
	fi
}

exofs_sysdir() { echo /sys/fs/exofs/*; }

# exofs_scrub check|repair: a scrub of the mounted exofs run to its end
# (at most 120 s), its line printed; true when it found nothing.
exofs_scrub() {
	local n=0 d
	d=$(exofs_sysdir)
	echo "$1" > "$d/scrub" || return 1
	while grep -q '^running ' "$d/scrub"; do
		n=$((n + 1))
		[ $n -lt 600 ] || return 1
		sleep 0.2
	done
	cat "$d/scrub"
	grep -q '^done .* mismatches 0 errors 0 ' "$d/scrub"
}
# exofs_store_state I: the state of store I (sysfs stores: ok, failed, ...)
exofs_store_state() { sed -n "s/^$1 \([a-z]*\) .*/\1/p" "$(exofs_sysdir)/stores"; }
# exofs_rebuild_line: sysfs rebuild ("running store 1 objects ...")
exofs_rebuild_line() { cat "$(exofs_sysdir)/rebuild"; }

# exofs_wait_state STORE STATE [SECONDS]: until store STORE is in STATE
# (default at most 120 s; the stores file on failure)
exofs_wait_state() {
	local n=0
	while [ "$(exofs_store_state "$1")" != "$2" ]; do
		n=$((n + 1))
		[ $n -lt $((${3:-120} * 5)) ] || { cat "$(exofs_sysdir)/stores"; return 1; }
		sleep 0.2
	done
}

# exofs_wait_rebuilt: until the rebuild says done (at most 300 s); fails
# when it says anything but running meanwhile. One read of the line per
# round: it may change between two.
exofs_wait_rebuilt() {
	local n=0 line
	while :; do
		line=$(exofs_rebuild_line)
		case "$line" in
		"done "*) return 0 ;;
		"running "*) ;;
		*) echo "$line"; return 1 ;;
		esac
		n=$((n + 1))
		[ $n -lt 1500 ] || { echo "$line"; return 1; }
		sleep 0.2
	done
}
