# Helpers of the oreblk guest tests (sourced after lib.sh).
#
#   ob_load                       insmod ore.ko and oreblk.ko (one result)
#   ob_pattern                    /tmp/pat: 8 MiB of random data
#   ob_writes DEV REF SEED N BLKS N random dd writes (4 KiB blocks, 1..96
#                                 long, inside the first BLKS blocks) of
#                                 /tmp/pat pieces to DEV and to file REF
#   ob_same DEV REF MIB           the first MIB MiB of DEV equal REF
#   ob_fio DEV OFF SIZE [ARGS]    fio random writes of 4k..192k, iodepth 16,
#                                 direct, crc32c-verified, in [OFF, OFF+SIZE)
#   ob_fio_verify DEV OFF SIZE    verify what ob_fio wrote there (same seed)
#   ob_fio_b_bg DEV               in the background: fio random writes of
#                                 4k..192k at 3 MB/s in [20M, 40M) of DEV,
#                                 crc32c-verified (region B of the rebuild
#                                 and replace tests)
#   ob_fio_b_wait DESC            wait for it: one result, ok when every
#                                 write was acknowledged and verified
#   ob_fio_b_verify DEV           verify region B again (same seed)
#   expect_fail DESC PATTERN CMD  ok when CMD fails and says PATTERN
#   ob_sys N ATTR                 cat /sys/block/oreblkN/ore/ATTR
#   ob_wait_idle N SECS           until oreblkN's sync_action is idle (0.2 s
#                                 polls; fails after SECS seconds)
#   ob_doff MEMBER                the member's data offset in 4 KiB blocks
#   ob_mblk MEMBER BLK            block BLK of its data range, to stdout
#   ob_corrupt MEMBER BLK         random bytes over that block, on the device
#   ob_wait_bits_clear SECS N...  until no write-intent bit is set on the
#                                 arrays N... (1 s polls; fails after SECS)

ob_load() {
	local ko
	for ko in ore oreblk; do
		if ! ore_ko $ko >/dev/null; then
			not_ok "load ore.ko and oreblk.ko" "$ko.ko not built"
			return 1
		fi
		mod_loaded $ko || load_mod "$(ore_ko $ko)" || return 1
	done
	check "load ore.ko and oreblk.ko" test -c /dev/oreblk-control
}

ob_pattern() {
	[ -s /tmp/pat ] || dd if=/dev/urandom of=/tmp/pat bs=1M count=8 2>/dev/null
}

ob_writes() {
	local dev=$1 ref=$2 seed=$3 n=$4 blks=$5 off len src
	ob_pattern
	awk -v seed="$seed" -v n="$n" -v region="$blks" 'BEGIN {
		srand(seed)
		for (i = 0; i < n; i++) {
			len = 1 + int(rand() * 96)
			off = int(rand() * (region - len))
			src = int(rand() * (2048 - len))
			print off, len, src
		}
	}' > /tmp/ob_plan
	while read -r off len src; do
		dd if=/tmp/pat of="$dev" bs=4096 seek="$off" skip="$src" \
			count="$len" oflag=direct conv=notrunc 2>/tmp/ob_dd.err ||
			{ cat /tmp/ob_dd.err; return 1; }
		dd if=/tmp/pat of="$ref" bs=4096 seek="$off" skip="$src" \
			count="$len" conv=notrunc 2>/dev/null || return 1
	done < /tmp/ob_plan
}

ob_same() {
	dd if="$1" bs=1M count="$3" iflag=direct 2>/dev/null | cmp - "$2"
}

ob_fio() {
	local dev=$1 off=$2 size=$3
	shift 3
	hostrun fio --name=oreblk --filename="$dev" --ioengine=libaio \
		--direct=1 --iodepth=16 --rw=randwrite --bsrange=4k-192k \
		--offset="$off" --size="$size" --verify=crc32c \
		--verify_fatal=1 --randseed=4242 "$@" > /tmp/ob_fio.out 2>&1
	local rc=$?
	[ $rc -eq 0 ] || tail -n 20 /tmp/ob_fio.out
	return $rc
}

ob_fio_verify() {
	ob_fio "$@" --verify_only
}

ob_fio_b() {
	local dev=$1
	shift
	hostrun fio --name=rb --filename="$dev" --ioengine=libaio --direct=1 \
		--iodepth=16 --rw=randwrite --bsrange=4k-192k --offset=20M \
		--size=20M --verify=crc32c --verify_fatal=1 --randseed=77 "$@"
}

ob_fio_b_bg() {
	ob_fio_b "$1" --rate=3m > /tmp/ob_fio_b.out 2>&1 &
	OB_FIO_B_PID=$!
}

# ob_fio_wait DESC PID OUT: wait for a fio started in the background (in
# this shell: check would run it in a subshell, which cannot wait for our
# child) whose output goes to OUT, and report it as one result.
ob_fio_wait() {
	wait "$2"
	local rc=$?
	if [ $rc -eq 0 ] && grep -q 'err= 0' "$3"; then
		ok "$1"
	else
		not_ok "$1" "fio exited $rc"
		tail -n 20 "$3" | sed 's/^/#   /'
	fi
}

ob_fio_b_wait() {
	ob_fio_wait "$1" "$OB_FIO_B_PID" /tmp/ob_fio_b.out
}

ob_fio_b_verify() {
	ob_fio_b "$1" --verify_only > /tmp/ob_fio_bv.out 2>&1 ||
		{ tail -n 20 /tmp/ob_fio_bv.out; return 1; }
}

expect_fail() {
	local desc=$1 pat=$2 out rc
	shift 2
	out=$("$@" 2>&1)
	rc=$?
	if [ $rc -ne 0 ] && printf '%s\n' "$out" | grep -qi -- "$pat"; then
		ok "$desc"
		printf '%s\n' "$out" | tail -n 2 | sed "s/^/${ORE_INDENT}#   /"
	else
		not_ok "$desc" "'$*' exited $rc, expected failure saying '$pat'"
		printf '%s\n' "$out" | tail -n 10 | sed "s/^/${ORE_INDENT}#   /"
	fi
}

ob_sys() {
	cat "/sys/block/oreblk$1/ore/$2"
}

# ob_discard DEV REF OFF LEN BLKS MIB SEED: random writes to DEV and REF
# (ob_writes), a discard of [OFF, OFF + LEN) on DEV (which must offer it),
# zeros there in REF (the test disks punch holes), then DEV equals REF.
ob_discard() {
	local dev=$1 ref=$2 off=$3 len=$4 blks=$5 mib=$6 seed=$7
	ob_writes "$dev" "$ref" "$seed" 100 "$blks" || return 1
	[ "$(cat "/sys/block/${dev##*/}/queue/discard_max_bytes")" -gt 0 ] ||
		{ echo "no discard on $dev"; return 1; }
	hostrun blkdiscard -o "$off" -l "$len" "$dev" || return 1
	dd if=/dev/zero of="$ref" bs=4096 seek=$((off / 4096)) \
		count=$((len / 4096)) conv=notrunc 2>/dev/null || return 1
	ob_same "$dev" "$ref" "$mib"
}

ob_wait_idle() {
	local n=0
	while [ "$(ob_sys $1 sync_action)" != idle ]; do
		n=$((n + 1))
		[ $n -lt $(($2 * 5)) ] || return 1
		sleep 0.2
	done
}

ob_wait_bits_clear() {
	local secs=$1 n=0 a busy
	shift
	while :; do
		busy=
		for a in "$@"; do
			[ "$(cut -d' ' -f1 /sys/block/oreblk$a/ore/intent_bitmap)" = 0 ] || busy=1
		done
		[ -n "$busy" ] || return 0
		n=$((n + 1))
		[ $n -le $secs ] || return 1
		sleep 1
	done
}

ob_doff() {
	echo $(($(oreblk examine "$1" | sed -n 's/^ *data offset : //p') / 4096))
}

ob_mblk() {
	dd if="$1" bs=4096 skip=$(($(ob_doff "$1") + $2)) count=1 iflag=direct 2>/dev/null
}

ob_corrupt() {
	dd if=/dev/urandom of="$1" bs=4096 seek=$(($(ob_doff "$1") + $2)) count=1 \
		oflag=direct conv=notrunc 2>/dev/null
}
