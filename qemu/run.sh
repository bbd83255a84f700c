#!/bin/bash
# Boot Debian's 6.12 kernel in QEMU (TCG) and run one guest script.
#
#   qemu/run.sh [--disks N] [--disk-size SIZE] [--mem 2G] [--smp 2]
#               [--timeout SEC] [--keep-disks DIR] [--stage K] [--stages K]
#               [--args a,b,c] [--bench] [--name NAME] SCRIPT
#
# SCRIPT is a name (tests/guest/NAME.sh, or bench/NAME.sh with --bench) or a
# path to a script inside tests/guest/ or bench/. The guest runs it as
# `sh SCRIPT STAGE ARGS...` with ORE_STAGE, ORE_DISKS, ORE_ARGS, ORE_HOST,
# ORE_HOSTREPO exported; the disks are /dev/vda, /dev/vdb, ...
#
# --disks N        N raw sparse disk images, attached as virtio disks (def. 0)
# --disk-size S    size of each image, truncate(1) syntax (default 1G)
# --keep-disks DIR keep the images in DIR: created when missing, reused when
#                  present (persistence tests: boot again with --stage 2)
# --stage K        the stage number handed to the script (default 1)
# --stages K       boot K times against the same disks, stages 1..K; results
#                  add up (the disks live in build/disks/NAME unless
#                  --keep-disks says otherwise)
# --timeout SEC    hard limit per boot, QEMU is killed after it (default 600)
# --args a,b,c     extra arguments for the script (comma separated)
# --show           print the script's output live (--console: the whole
#                  serial console live)
#
# Output: build/logs/NAME[.stageK].log (the whole serial console),
# build/results/NAME.counts, and a line "NAME: N passed, N failed[, N skipped]".
# Exit status non-zero when anything failed, the guest died, timed out, or
# the kernel logged an Oops/BUG/WARNING/... (see BAD_PATTERNS).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=$ROOT/build

DISKS=0 DISK_SIZE=1G MEM=2G SMP=2 TIMEOUT=600 KEEP="" STAGE=1 STAGES=""
ARGS="" KIND=tests NAME="" SCRIPT="" SHOW=""
while [ $# -gt 0 ]; do
	case "$1" in
	--disks) DISKS=$2; shift 2 ;;
	--disk-size) DISK_SIZE=$2; shift 2 ;;
	--mem) MEM=$2; shift 2 ;;
	--smp) SMP=$2; shift 2 ;;
	--timeout) TIMEOUT=$2; shift 2 ;;
	--keep-disks) KEEP=$2; shift 2 ;;
	--stage) STAGE=$2; shift 2 ;;
	--stages) STAGES=$2; shift 2 ;;
	--args) ARGS=$2; shift 2 ;;
	--bench) KIND=bench; shift ;;
	--name) NAME=$2; shift 2 ;;
	--show) SHOW=script; shift ;;
	--console) SHOW=console; shift ;;
	-h|--help) sed -n '2,/^set -e/p' "$0" | sed 's/^# \{0,1\}//;$d'; exit 0 ;;
	-*) echo "run.sh: unknown option $1" >&2; exit 2 ;;
	*) [ -z "$SCRIPT" ] || { echo "run.sh: one script only" >&2; exit 2; }
	   SCRIPT=$1; shift ;;
	esac
done
[ -n "$SCRIPT" ] || { echo "usage: qemu/run.sh [options] SCRIPT (see --help)" >&2; exit 2; }

# Resolve the script to tests/guest/X.sh or bench/X.sh.
case "$SCRIPT" in
*/*) p=$(realpath -m "$SCRIPT")
     case "$p" in
     "$ROOT"/bench/*) KIND=bench ;;
     "$ROOT"/tests/guest/*) KIND=tests ;;
     *) echo "run.sh: $SCRIPT is not inside tests/guest/ or bench/" >&2; exit 2 ;;
     esac
     SCRIPT=$(basename "$p" .sh) ;;
*) SCRIPT=${SCRIPT%.sh} ;;
esac
# One host thread for all vCPUs (thread=single) unless ORE_TCG_THREAD says
# otherwise: multi-threaded TCG (Debian 12's QEMU 7.2) sometimes misses the
# kernel's live code patching on the other vCPU, and the guest dies with
# "Oops: int3" in early boot (seen once in ~20 boots). Benchmarks default to
# multi, for two vCPUs really running in parallel.
TCG_THREAD=${ORE_TCG_THREAD:-single}
[ "$KIND" = bench ] && TCG_THREAD=${ORE_TCG_THREAD:-multi}
SRCDIR=$ROOT/tests/guest
[ "$KIND" = bench ] && SRCDIR=$ROOT/bench
[ -r "$SRCDIR/$SCRIPT.sh" ] || { echo "run.sh: no $SRCDIR/$SCRIPT.sh" >&2; exit 2; }
NAME=${NAME:-$SCRIPT}
case "$TIMEOUT$DISKS$STAGE${STAGES:-1}" in *[!0-9]*) echo "run.sh: numeric option expected" >&2; exit 2 ;; esac

KVER=$("$ROOT/scripts/kver.sh")
VMLINUZ=/boot/vmlinuz-$KVER
MODDIR=/lib/modules/$KVER
mkdir -p "$BUILD/logs" "$BUILD/results" "$BUILD/initramfs"
rm -f "$BUILD/results/$NAME.counts"

# Debian modules every guest gets, loaded in this order (each after its
# dependencies from modules.dep). crc32c_generic first: libcrc32c needs it;
# crc32c_intel next, so that libcrc32c (the data checksums of ORE) takes the
# SSE4.2 one when it loads.
BASE_MODULES="crc32c_generic crc32c_intel virtio_pci virtio_blk 9pnet_virtio 9p ext4
	xor raid6_pq async_tx async_memcpy async_xor async_pq async_raid6_recov
	md-mod raid0 raid1 raid456 dm-mod dm-flakey loop fat vfat nls_cp437 nls_ascii"

# Kernel messages that fail a run whatever the results say.
BAD_PATTERNS='Oops|BUG:|WARNING:|KASAN|general protection fault|Kernel panic|blocked for more than|Call Trace|UBSAN:|kernel BUG|list_add corruption|list_del corruption'

# ---------------------------------------------------------------- initramfs
# The base archive (busybox, Debian modules, /init) is cached by content key;
# the payload (project modules, tests, bench, tools) is packed every run.

# Print module paths (relative to $MODDIR, as in modules.dep) for the named
# modules, each after its dependencies, without repeats; builtins are skipped.
resolve_modules() {
	awk -v want="$*" -v builtin="$MODDIR/modules.builtin" '
	function norm(p,   n) { n = p; sub(/.*\//, "", n); sub(/\.ko(\.(xz|zst|gz))?$/, "", n); gsub(/-/, "_", n); return n }
	function visit(p,   i, n, d) {
		if (p in done) return
		done[p] = 1
		n = split(deps[p], d, " ")
		for (i = n; i >= 1; i--) visit(d[i])	# modules.dep lists the deepest last
		print p
	}
	BEGIN { while ((getline l < builtin) > 0) isbuiltin[norm(l)] = 1 }
	{ p = $1; sub(/:$/, "", p); path[norm(p)] = p; $1 = ""; deps[p] = $0 }
	END {
		n = split(want, w, /[ \t\n]+/)
		for (i = 1; i <= n; i++) {
			if (w[i] == "") continue
			m = norm(w[i])
			if (m in path) visit(path[m])
			else if (!(m in isbuiltin)) { print "run.sh: module " w[i] " not in modules.dep" > "/dev/stderr"; exit 1 }
		}
	}' "$MODDIR/modules.dep"
}

build_base() {
	local out=$1 stage
	stage=$(mktemp -d "$BUILD/initramfs/base.XXXXXX")
	mkdir -p "$stage"/{bin,sbin,etc/ore,proc,sys,dev,tmp,run,host,root,ore} "$stage/lib/modules/$KVER"
	cp /bin/busybox "$stage/bin/busybox"
	ln -s busybox "$stage/bin/sh"
	cp "$ROOT/qemu/init" "$stage/init"
	chmod 755 "$stage/init"
	local list m dst
	list=$(resolve_modules $BASE_MODULES)
	: > "$stage/etc/ore/modules"
	for m in $list; do
		dst=${m%.xz}; dst=${dst%.zst}; dst=${dst%.gz}
		mkdir -p "$stage/lib/modules/$KVER/$(dirname "$dst")"
		case "$m" in
		*.xz) xz -dc "$MODDIR/$m" > "$stage/lib/modules/$KVER/$dst" ;;
		*.zst) zstd -qdc "$MODDIR/$m" > "$stage/lib/modules/$KVER/$dst" ;;
		*.gz) gzip -dc "$MODDIR/$m" > "$stage/lib/modules/$KVER/$dst" ;;
		*) cp "$MODDIR/$m" "$stage/lib/modules/$KVER/$dst" ;;
		esac
		echo "$dst" >> "$stage/etc/ore/modules"
	done
	# A modules.dep for busybox modprobe, restricted to what is packed.
	awk -v list="$stage/etc/ore/modules" '
	function strip(p) { sub(/\.(xz|zst|gz)$/, "", p); return p }
	BEGIN { while ((getline l < list) > 0) have[l] = 1 }
	{ p = $1; sub(/:$/, "", p); p = strip(p); if (!(p in have)) next
	  s = p ":"; for (i = 2; i <= NF; i++) s = s " " strip($i); print s }' \
		"$MODDIR/modules.dep" > "$stage/lib/modules/$KVER/modules.dep"
	(cd "$stage" && find . -mindepth 1 | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) > "$stage.cpio"
	mv "$stage.cpio" "$out"	# atomic: runs in parallel may share it
	rm -rf "$stage"
}

# Copy a dynamic ELF's libraries (as ldd finds them) under $1.
copy_libs() {
	local dest=$1 bin=$2 lib
	for lib in $(ldd "$bin" 2>/dev/null | grep -o '/[^ ]*'); do
		[ -e "$dest$lib" ] && continue
		mkdir -p "$dest$(dirname "$lib")"
		cp -L "$lib" "$dest$lib"
	done
}

build_payload() {
	local out=$1 stage ko f
	stage=$(mktemp -d "$BUILD/initramfs/payload.XXXXXX")
	mkdir -p "$stage/ore/tests" "$stage/ore/bench" "$stage/ore/tools"
	# Every module the build made (ore, exofs, oreblk, tests/ktap, bench/kmod).
	find "$ROOT" -path "$ROOT/build" -prune -o -name '*.ko' -type f -print |
		while IFS= read -r ko; do cp "$ko" "$stage/ore/"; done
	# make nfsd: the patched nfsd.ko (build/nfsd) as /ore/nfsd/nfsd.ko; a
	# test insmods it (after sunrpc, lockd, ... from the host's modules)
	# before anything loads Debian's (tests/guest/exofs_pnfs_server.sh).
	if [ -e "$BUILD/nfsd/linux/fs/nfsd/nfsd.ko" ]; then
		mkdir -p "$stage/ore/nfsd"
		cp "$BUILD/nfsd/linux/fs/nfsd/nfsd.ko" "$stage/ore/nfsd/"
	fi
	cp -rL "$ROOT/tests/guest/." "$stage/ore/tests/"
	[ -d "$ROOT/bench" ] && cp -rL "$ROOT/bench/." "$stage/ore/bench/"
	# Sources only: no kbuild products next to the scripts.
	find "$stage/ore/tests" "$stage/ore/bench" \( -name '*.o' -o -name '*.ko' -o -name '*.mod*' \
		-o -name '.*.cmd' -o -name '*.order' -o -name '*.symvers' \) -delete
	# The tools and the test helpers (tests/tools) share /ore/tools.
	while IFS= read -r f; do
		[ "$(head -c 4 "$f" | tr -d '\177')" = ELF ] || continue	# ELF executables only
		cp "$f" "$stage/ore/tools/"
		copy_libs "$stage" "$f"
	done < <(find "$ROOT/tools" "$ROOT/tests/tools" -maxdepth 1 -type f -perm -u+x 2>/dev/null)
	cat > "$stage/ore/harness.env" <<ENV
ORE_HOSTREPO='$ROOT'
ENV
	# ORE_PKG_DIR (make pkg-check): the packages' modules and tools replace
	# the tree's (scripts/pkg-payload.sh says what exactly).
	[ -n "${ORE_PKG_DIR:-}" ] && "$ROOT/scripts/pkg-payload.sh" "$ORE_PKG_DIR" "$stage"
	(cd "$stage" && find . -mindepth 1 | LC_ALL=C sort | cpio -o -H newc -R 0:0 --quiet) > "$out"
	rm -rf "$stage"
}

key=$( { echo "$KVER $BASE_MODULES"; cat "$ROOT/qemu/init" "$0"; md5sum /bin/busybox; } | md5sum | cut -c1-12)
BASE=$BUILD/initramfs/base-$key.cpio
if [ ! -s "$BASE" ]; then
	find "$BUILD/initramfs" -name 'base-*.cpio' -mmin +60 -delete	# stale keys
	build_base "$BASE"
fi
INITRD=$BUILD/initramfs/$NAME.cpio
build_payload "$INITRD.payload"
cat "$BASE" "$INITRD.payload" > "$INITRD"
rm -f "$INITRD.payload"

# -------------------------------------------------------------------- disks
DISKDIR=$BUILD/disks/$NAME
[ -n "$KEEP" ] && DISKDIR=$KEEP
mkdir -p "$DISKDIR"
if [ -z "$KEEP" ] && [ "$STAGE" = 1 ]; then
	rm -f "$DISKDIR"/disk*.img	# fresh disks unless asked to keep them
fi
CACHE=none
if [ "$DISKS" -gt 0 ] && ! dd if=/dev/zero of="$DISKDIR/.odirect" bs=4096 count=1 oflag=direct status=none 2>/dev/null; then
	CACHE=writeback	# no O_DIRECT on this filesystem
fi
rm -f "$DISKDIR/.odirect"
# Test guests get one virtqueue per disk: with qemu's default (one per
# vCPU), 2 of 10 runs of the engine test stopped with requests that
# the guest's virtio-blk had handed to the device (in the hctx's busy list,
# queue not stopped) and that never completed, while qemu had no I/O of
# its own in flight: a lost notification between the guest and qemu 7.2's
# TCG, below ORE. Benchmarks keep qemu's defaults (ORE_BLK_QUEUES=N sets
# the queues).
# One queue made it rarer, not gone: a CI run then hung in oreblk the same
# way (a READ owned by vdb's driver; qemu's view of that virtqueue: nothing
# available, everything used and signalled). The likely cause: round-robin
# TCG (thread=single) drops the guest's memory barriers (no CF_PARALLEL),
# while qemu's main loop reads and writes the rings at the same time, so
# virtio's store-then-load notification check can lose a kick or an
# interrupt. With event_idx=off a lost kick or interrupt is recovered by
# the next request or completion on that queue, where with event indexes
# no later request kicks again and the queue stays dead.
BLK_QUEUES=${ORE_BLK_QUEUES:-1}
BLK_OPTS=,event_idx=off
if [ "$KIND" = bench ]; then
	BLK_QUEUES=${ORE_BLK_QUEUES:-}
	BLK_OPTS=
fi
DRIVES=()
for ((i = 0; i < DISKS; i++)); do
	img=$DISKDIR/disk$i.img
	[ -e "$img" ] || truncate -s "$DISK_SIZE" "$img"
	# discard=unmap: a discard punches a hole in the image (reads zeros)
	DRIVES+=(-drive "file=$img,if=none,id=disk$i,format=raw,cache=$CACHE,aio=threads,discard=unmap"
		-device "virtio-blk-pci,drive=disk$i$BLK_OPTS${BLK_QUEUES:+,num-queues=$BLK_QUEUES}")
done
# The qemu monitor of a running guest, for a hang: e.g.
#   echo 'info virtio' | socat - UNIX-CONNECT:build/disks/NAME/monitor.sock
# (not when the path is too long for a unix socket: qemu would not start).
MONITOR=()
[ ${#DISKDIR} -lt 90 ] && MONITOR=(-monitor "unix:$DISKDIR/monitor.sock,server=on,wait=off")

# --------------------------------------------------------------------- boot
# boot_one STAGE LOG: boot once, console to LOG. Sets BOOT_RC.
boot_one() {
	local stage=$1 log=$2 append
	append="console=ttyS0 panic=-1 loglevel=5 printk.time=1 log_buf_len=8M mitigations=off"
	# TCG time is host time: a busy host must not look like a guest lockup
	# (the detectors stay on, with longer thresholds).
	append+=" watchdog_thresh=60 rcupdate.rcu_cpu_stall_timeout=120"
	append+=" rdinit=/init ore_script=$SCRIPT ore_kind=$KIND ore_stage=$stage"
	append+=" ore_disks=$DISKS ore_timeout=$TIMEOUT ore_stages=${STAGES:-$stage}"
	[ -n "$ARGS" ] && append+=" ore_args=$ARGS"
	# ORE_KERNEL_ARGS: more kernel parameters, e.g. slub_debug=FZPU
	[ -n "${ORE_KERNEL_ARGS:-}" ] && append+=" $ORE_KERNEL_ARGS"
	set +e +o pipefail
	timeout -k 10 "$TIMEOUT" qemu-system-x86_64 \
		-accel "tcg,thread=$TCG_THREAD" -cpu max -smp "$SMP" -m "$MEM" \
		-nographic -no-reboot -nic none \
		-kernel "$VMLINUZ" -initrd "$INITRD" -append "$append" \
		-virtfs local,path=/,mount_tag=host,security_model=none,readonly=on,multidevs=remap \
		"${MONITOR[@]}" "${DRIVES[@]}" < /dev/null 2>&1 | show_live > "$log"
	BOOT_RC=${PIPESTATUS[0]}
	set -e -o pipefail
}

# Copy the console to stdout (the log) and, with --show/--console, to stderr.
show_live() {
	case "$SHOW" in
	console) tee /dev/stderr ;;
	script) tee >(awk '{ sub(/\r$/, "") } /^@@ORE@@ BEGIN/ { on = 1; next } /^@@ORE@@ EXIT/ { on = 0 }
		on { print; fflush() }' >&2) ;;
	*) cat ;;
	esac
}

# parse_log LOG: count results and find failures. Prints "FAIL ..." lines
# and a last line "COUNTS p f s".
parse_log() {
	local log=$1
	local why=()
	# Results: the script's own output only (between BEGIN and EXIT).
	local counts
	counts=$(tr -d '\r' < "$log" | awk '/^@@ORE@@ BEGIN/ { on = 1; next } /^@@ORE@@ EXIT/ { on = 0 } on' |
		grep -v '^\[ *[0-9]*\.[0-9]*\]' | awk -v checkplan=1 -f "$ROOT/scripts/ktap-count.awk")
	grep -v '^COUNTS' <<< "$counts" || true
	# Kernel lines: timestamped console lines and the dmesg dump.
	local bad
	bad=$(tr -d '\r' < "$log" | awk '/^@@ORE@@ DMESG-BEGIN/ { d = 1; next } /^@@ORE@@ DMESG-END/ { d = 0 }
		d || /^\[ *[0-9]+\.[0-9]+\]/' | grep -E "$BAD_PATTERNS" | awk '!seen[$0]++' | head -n 5 || true)
	[ -n "$bad" ] && why+=("kernel: $(head -n 1 <<< "$bad")")
	grep -q '^@@ORE@@ INIT-ERROR' "$log" && why+=("$(grep -m1 '^@@ORE@@ INIT-ERROR' "$log" | tr -d '\r')")
	grep -q '^@@ORE@@ TIMEOUT' "$log" && why+=("script timed out in the guest")
	local rc
	rc=$(tr -d '\r' < "$log" | sed -n 's/^@@ORE@@ EXIT rc=//p' | tail -n 1)
	if [ -z "$rc" ]; then
		why+=("guest died before the script finished (no EXIT marker; qemu rc=$BOOT_RC)")
	elif ! grep -q '^@@ORE@@ END' "$log"; then
		why+=("guest died while dumping dmesg (no END marker)")
	elif [ "$rc" != 0 ] && ! grep -q '^@@ORE@@ TIMEOUT' "$log" && [ "$(awk '{print $3}' <<< "${counts##*$'\n'}")" = 0 ]; then
		why+=("script exited with status $rc without reporting a failure")
	fi
	[ "$BOOT_RC" = 124 ] || [ "$BOOT_RC" = 137 ] && why+=("qemu killed after ${TIMEOUT}s")
	local w
	for w in "${why[@]}"; do echo "FAIL-RUN $w"; done
	if [ -n "$bad" ]; then sed 's/^/  | /' <<< "$bad"; fi
	local p f s
	read -r _ p f s <<< "${counts##*$'\n'}"
	# A broken run is one failure, whatever the number of reasons.
	echo "COUNTS $p $((f + (${#why[@]} > 0))) $s"
}

P=0 F=0 S=0
first=$STAGE last=$STAGE
[ -n "$STAGES" ] && first=1 last=$STAGES
for ((st = first; st <= last; st++)); do
	log=$BUILD/logs/$NAME.log
	[ -n "$STAGES" ] && log=$BUILD/logs/$NAME.stage$st.log
	t0=$(date +%s%N)
	boot_one "$st" "$log"
	t1=$(date +%s%N)
	ms=$(((t1 - t0) / 1000000))
	out=$(parse_log "$log")
	read -r _ p f s <<< "$(tail -n 1 <<< "$out")"
	P=$((P + p)) F=$((F + f)) S=$((S + s))
	label=$NAME; [ -n "$STAGES" ] && label="$NAME stage $st"
	printf '%s: %d passed, %d failed%s (%d.%ds, log %s)\n' "$label" "$p" "$f" \
		"$([ "$s" -gt 0 ] && echo ", $s skipped")" $((ms / 1000)) $((ms % 1000 / 100)) "${log#"$ROOT"/}"
	if [ "$f" -gt 0 ]; then
		grep -v '^COUNTS' <<< "$out" | sed 's/^/  /'
		if grep -q '^@@ORE@@ BEGIN' "$log"; then
			echo "  --- last lines of the script output:"
			tr -d '\r' < "$log" | awk '/^@@ORE@@ BEGIN/ { on = 1 } /^@@ORE@@ DMESG-BEGIN/ { on = 0 } on' | tail -n 15 | sed 's/^/  | /'
		else
			echo "  --- last lines of the console:"
			tr -d '\r' < "$log" | tail -n 15 | sed 's/^/  | /'
		fi
		if [ "$st" -lt "$last" ]; then
			echo "  stages $((st + 1))..$last not run"
			break
		fi
	fi
done

rm -f "$INITRD"	# rebuilt by every run; the base archive stays cached
printf 'passed=%d\nfailed=%d\nskipped=%d\n' "$P" "$F" "$S" > "$BUILD/results/$NAME.counts"
if [ -n "$STAGES" ]; then
	printf '%s: %d passed, %d failed%s (all stages)\n' "$NAME" "$P" "$F" "$([ "$S" -gt 0 ] && echo ", $S skipped")"
fi
[ "$F" -eq 0 ]
