# Helpers for guest test scripts (busybox sh). Source it first:
#
#   . /ore/tests/lib.sh
#   ktap_plan 3
#   check "disk is there" test -b /dev/vda
#   ...
#   ktap_done
#
# Results are KTAP lines on stdout ("ok N desc", "not ok N desc",
# "ok N desc # SKIP why"); qemu/run.sh counts them from the console. Lines
# starting with "#" are diagnostics. Indented result lines are subtests:
# only leaves count (see scripts/ktap-count.awk).
#
# Environment (from the harness): ORE_STAGE (boot number, also $1),
# ORE_STAGES (boots in all, --stages),
# ORE_DISKS (number of virtio disks), ORE_ARGS, ORE_HOST (/host when the
# host's root is mounted there, else empty), ORE_HOSTREPO (the repository's
# path on the host, so "$ORE_HOST$ORE_HOSTREPO" is the tree read-only).
# /ore holds the project's .ko files, /ore/tests, /ore/bench, /ore/tools.

ORE_N=0		# results emitted so far
ORE_NFAIL=0	# "not ok" results emitted so far
ORE_INDENT=""	# prefix of result lines (subtests)

# ktap_plan N: the KTAP header and the number of results this script emits.
ktap_plan() {
	echo "${ORE_INDENT}KTAP version 1"
	echo "${ORE_INDENT}1..$1"
}

# diag MSG...: a diagnostic line.
diag() {
	echo "${ORE_INDENT}# $*"
}

# ok DESC / not_ok DESC [DIAG...] / skip DESC WHY
ok() {
	ORE_N=$((ORE_N + 1))
	echo "${ORE_INDENT}ok $ORE_N $1"
}
not_ok() {
	local desc=$1
	ORE_N=$((ORE_N + 1))
	ORE_NFAIL=$((ORE_NFAIL + 1))
	echo "${ORE_INDENT}not ok $ORE_N $desc"
	shift
	[ $# -gt 0 ] && diag "$*"
	return 0
}
skip() {
	ORE_N=$((ORE_N + 1))
	echo "${ORE_INDENT}ok $ORE_N $1 # SKIP $2"
}

# check DESC CMD...: run CMD; ok when it exits 0, else not ok with the
# status and the last lines of its output as diagnostics. Returns CMD's status.
check() {
	local desc=$1 rc out
	shift
	out=$("$@" 2>&1)
	rc=$?
	if [ $rc -eq 0 ]; then
		ok "$desc"
	else
		not_ok "$desc" "'$*' exited $rc"
		printf '%s\n' "$out" | tail -n 20 | sed "s/^/${ORE_INDENT}#   /"
	fi
	return $rc
}

# fail_fast: call after a step later steps depend on; ends the script (with
# ktap_done) when anything has failed so far.
fail_fast() {
	[ $ORE_NFAIL -eq 0 ] || { diag "stopping after the first failures"; ktap_done; }
}

# ktap_done: last line of a script; exits 1 when any result was "not ok".
ktap_done() {
	diag "$ORE_N results, $ORE_NFAIL failed"
	[ $ORE_NFAIL -eq 0 ] && exit 0
	exit 1
}

# ore_ko NAME: path of the project module NAME (ore, exofs, oreblk, or a
# tests/ktap module), empty and status 1 when it was not built.
ore_ko() {
	[ -e "/ore/$1.ko" ] || return 1
	echo "/ore/$1.ko"
}

# mod_loaded NAME: is module NAME in /proc/modules?
mod_loaded() {
	grep -q "^$(echo "$1" | tr - _) " /proc/modules
}

# load_mod PATH [PARAMS...]: insmod PATH. On failure says so loudly: a
# "not ok" result, the insmod error and the kernel's last lines; returns 1.
load_mod() {
	local ko=$1 out
	shift
	if out=$(insmod "$ko" "$@" 2>&1); then
		return 0
	fi
	not_ok "insmod $(basename "$ko") $*" "$out"
	dmesg | tail -n 15 | sed "s/^/${ORE_INDENT}#   /"
	return 1
}

# dmesg_lines: number of lines in the kernel log now (a mark for
# ktap_from_dmesg).
dmesg_lines() {
	dmesg | wc -l
}

# ktap_from_dmesg PREFIX [MARK] [DESC]: a kernel test module printed KTAP
# with each line prefixed by "PREFIX: " (pr_fmt "PREFIX: " fmt, pr_info);
# take its lines from the kernel log after line MARK (from dmesg_lines,
# default 0), re-emit them as a subtest (indented) and emit one result DESC
# (default PREFIX) summing them: not ok when a subtest failed, when no KTAP
# was found, or when fewer results than planned arrived.
ktap_from_dmesg() {
	local prefix=$1 mark=${2:-0} desc=${3:-$1} lines planned seen bad
	lines=$(dmesg | tail -n +$((mark + 1)) |
		sed -n "s/^\[[ 0-9.]*\] //; s/^$prefix: \{0,1\}//p")
	if [ -z "$lines" ]; then
		not_ok "$desc" "no KTAP lines with prefix '$prefix:' in the kernel log"
		return 1
	fi
	printf '%s\n' "$lines" | sed "s/^/${ORE_INDENT}    /"
	# Outermost plan and results of the module's output.
	planned=$(printf '%s\n' "$lines" | sed -n 's/^1\.\.\([0-9]*\).*/\1/p' | head -n 1)
	seen=$(printf '%s\n' "$lines" | grep -cE '^(not )?ok [0-9]+')
	bad=$(printf '%s\n' "$lines" | grep -cE '^[[:space:]]*not ok [0-9]+')
	if [ "$bad" -gt 0 ]; then
		not_ok "$desc" "$bad failed"
		return 1
	elif [ -n "$planned" ] && [ "$seen" -ne "$planned" ]; then
		not_ok "$desc" "planned $planned results, got $seen"
		return 1
	elif [ "$seen" -eq 0 ]; then
		not_ok "$desc" "no results"
		return 1
	fi
	ok "$desc"
}

# ktap_module NAME PREFIX [PARAMS...]: load the KTAP test module /ore/NAME.ko
# (it runs its tests from module_init, printing "PREFIX: <KTAP line>"), pick
# up its results with ktap_from_dmesg, and unload it.
ktap_module() {
	local name=$1 prefix=$2 ko mark
	shift 2
	if ! ko=$(ore_ko "$name"); then
		skip "$name" "$name.ko not built"
		return 0
	fi
	mark=$(dmesg_lines)
	load_mod "$ko" "$@" || return 1
	ktap_from_dmesg "$prefix" "$mark" "$name"
	local rc=$?
	rmmod "$name" 2>/dev/null
	return $rc
}

# disk I: the device node of virtio disk I (0 -> /dev/vda).
disk() {
	echo "/dev/vd$(echo "$1" | awk '{ printf "%c", 97 + $1 }')"
}

# hostrun CMD...: run a host binary (mdadm, fio, mkfs.ext4...) chrooted into
# the host's read-only root; its /dev, /proc, /sys and /tmp are the guest's.
hostrun() {
	[ -n "$ORE_HOST" ] || { echo "hostrun: host share not mounted" >&2; return 127; }
	chroot "$ORE_HOST" "$@"
}

# dm ARGS...: the host's dmsetup, without udev (the guest runs none)
dm() {
	hostrun env DM_DISABLE_UDEV=1 dmsetup --noudevsync "$@"
}

# dm_cut_prepare SEED NAME DEV...: for the dm devices NAME0, NAME1, ...
# (over DEV... in that order), load dm-flakey drop_writes tables (inactive)
# now, and write /tmp/cut.sh, which swaps them in one after the other in an
# order shuffled by SEED (at most 11 devices): power lost disk by disk.
# dm_cut runs it, all from one host shell (each chroot exec is slow).
dm_cut_prepare() {
	local seed=$1 name=$2 i=0 d
	shift 2
	: > /tmp/load.sh
	: > /tmp/cut.sh
	for d in "$@"; do
		echo "dmsetup --noudevsync load $name$i --table '0 $(blockdev --getsz $d) flakey $d 0 0 3600 1 drop_writes' || exit 1" >> /tmp/load.sh
		i=$((i + 1))
	done
	hostrun env DM_DISABLE_UDEV=1 sh /tmp/load.sh || return 1
	for i in $(i=0; for d in "$@"; do echo "$(( (i * 7 + seed * 5) % 11 )) $i"; i=$((i + 1)); done |
		   sort -n | cut -d' ' -f2); do
		echo "dmsetup --noudevsync resume --noflush $name$i || exit 1" >> /tmp/cut.sh
	done
}
dm_cut() {
	hostrun env DM_DISABLE_UDEV=1 sh /tmp/cut.sh
}

# have_host CMD: does the host have CMD?
have_host() {
	[ -n "$ORE_HOST" ] && chroot "$ORE_HOST" sh -c "command -v '$1'" >/dev/null 2>&1
}

# mkfs_ext4 DEV [OPTIONS...]: make an ext4 filesystem on DEV (host
# mkfs.ext4, else busybox mke2fs).
mkfs_ext4() {
	local dev=$1
	shift
	# MKFS_EXT4_OPTS (e.g. benchmarks: "-E lazy_itable_init=0,..."), then
	# the caller's options (mke2fs keeps only the last -E).
	# shellcheck disable=SC2086
	set -- $MKFS_EXT4_OPTS "$@"
	if have_host mkfs.ext4; then
		hostrun mkfs.ext4 -F -q "$@" "$dev"
	else
		mke2fs -t ext4 -F -q "$@" "$dev"
	fi
}

# mount_ext4 DEV DIR [OPTIONS]: mount ext4 DEV on DIR (created).
mount_ext4() {
	mkdir -p "$2"
	mount -t ext4 ${3:+-o "$3"} "$1" "$2"
}

# guest_crash: end the boot like a power cut: report the results so far as
# the harness expects (EXIT/dmesg/END markers, which init would print),
# then reset the machine at once, without sync or umount.
# guest_end_report: the harness's end markers (exit code, dmesg) before a
# reset, so that nothing needs to run between the last step and the reset.
guest_end_report() {
	echo "@@ORE@@ EXIT rc=$([ $ORE_NFAIL -eq 0 ] && echo 0 || echo 1)"
	echo "@@ORE@@ DMESG-BEGIN"
	dmesg
	echo "@@ORE@@ DMESG-END"
	echo "@@ORE@@ END"
	echo 1 > /proc/sys/kernel/sysrq
	guest_drain_console
}
guest_crash() {
	diag "$ORE_N results, $ORE_NFAIL failed; crashing the guest now"
	guest_end_report
	echo b > /proc/sysrq-trigger
	sleep 10
}
# guest_drain_console: wait until the console has sent what was written to
# it (stty sets the same mode again with TCSADRAIN), so that a reset does
# not cut the end markers off; the UART's FIFO gets a moment more.
guest_drain_console() {
	local mode
	mode=$(stty -F /dev/console -g 2>/dev/null) &&
		stty -F /dev/console "$mode" 2>/dev/null
	sleep 0.2
}

# mem_used: "USED SLAB" in KiB. USED is MemTotal - MemFree - Buffers -
# Cached - the free pages on the per-CPU free lists (/proc/zoneinfo's
# pagesets "count"): MemFree leaves those out, and they grow when pages are
# freed on another CPU than the one that took them (completions in a
# workqueue): tens of MiB that are free, not in use.
mem_used() {
	local kib=$(($(getconf PAGESIZE 2>/dev/null || echo 4096) / 1024))
	{ cat /proc/meminfo; awk -v k=$kib '/^ +count:/ { n += $2 } END { print "PcpFree:", n * k }' /proc/zoneinfo; } |
		awk '/^MemTotal:/ { t = $2 } /^MemFree:/ { f = $2 } /^Buffers:/ { b = $2 }
		     /^Cached:/ { c = $2 } /^Slab:/ { s = $2 } /^PcpFree:/ { p = $2 }
		     END { print t - f - b - c - p, s }'
}
# mem_start DIR / mem_stop DIR NAME: sample mem_used every second in
# between; mem_stop appends "PEAK_USED_RISE PEAK_SLAB_RISE" (MiB) over the
# level at mem_start to DIR/NAME.mem and prints it.
mem_start() {
	mem_used > "$1/mem.base"
	(while :; do mem_used; sleep 1; done) > "$1/mem.samples" &
	MEMPID=$!
}
mem_stop() {
	kill $MEMPID 2>/dev/null; wait $MEMPID 2>/dev/null
	awk 'NR == FNR { bu = $1; bs = $2; next }
	     $1 - bu > u { u = $1 - bu } $2 - bs > s { s = $2 - bs }
	     END { printf "%.1f %.1f\n", u / 1024, s / 1024 }' \
		"$1/mem.base" "$1/mem.samples" >> "$1/$2.mem"
	echo "   $2 memory: peak rise $(tail -n 1 "$1/$2.mem") (MiB in use, MiB slab)"
}
