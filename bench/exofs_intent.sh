#!/bin/sh
# exofs benchmark (issue 12): the cost of the write-hole protection (the
# intent record, docs/exofs-format.md) and of the data checksums, against
# the same filesystem without them, in one guest run on the same disks:
# RAID5 over 4 ext4 stores and RAID6 over 6. Three configurations:
#   none    mkfs.exofs --consistency-policy none (no record, no checksums)
#   intent  --consistency-policy intent --checksum none
#   csum    --consistency-policy intent --checksum xxh64 (the default)
#   make bench B=exofs_intent ARGS="--disks 6 --disk-size 1G --args rounds=2"
#
# Jobs, each on a fresh filesystem (the host's fio, through the page cache:
# exofs has no O_DIRECT):
#   seqwrite   1 MiB writes of SIZE, then fsync (MB/s)
#   randwrite  4 KiB random writes over a SIZE file written before, an
#              fdatasync every 16 writes, RUNTIME seconds (IOPS: what
#              reaches the stores, partial stripes all of it)
#   seqread    the SIZE file read back from cold caches (MB/s)
#   untar      the kernel subset of tools/Makefile `tree` (about 3300
#              files) untarred and synced (seconds: small files, the
#              record's worst case: one region per file)
# Rounds rotate which configuration goes first. Printed: the mean and
# spread of each and the ratios intent/none (the record's cost), csum/intent
# (the checksums') and csum/none (both; goal: >= 0.90 for throughput,
# <= 1.10 for time).
#
# Arguments (--args): size=SIZE (default 256M), runtime=SECONDS (15),
# rounds=N (2), levels=5+6 (or 5, or 6), jobs=all (or untar: only the
# untar, the others print 0; more rounds in the same time).
. /ore/tests/lib.sh
. /ore/tests/exofs_lib.sh

SIZE=256M RUNTIME=15 ROUNDS=2 LEVELS=5+6 JOBS=all
for a in $(echo "$ORE_ARGS" | tr ',' ' '); do
	case $a in
	size=*) SIZE=${a#size=} ;;
	runtime=*) RUNTIME=${a#runtime=} ;;
	rounds=*) ROUNDS=${a#rounds=} ;;
	levels=*) LEVELS=${a#levels=} ;;
	jobs=*) JOBS=${a#jobs=} ;;
	esac
done
OUT=/tmp/intent_bench
M=/tmp/ex
mkdir -p $OUT $M
have_host fio || { echo "needs the host's fio"; exit 1; }
MKFS_EXT4_OPTS="-E lazy_itable_init=0,lazy_journal_init=0"
exofs_load > /dev/null || exit 1
exofs_stores_ext4 "$ORE_DISKS" > /dev/null || { echo "ext4 stores failed"; exit 1; }
ALL=$EXOFS_STORES
t=$(tree_tar) && cp "$t" /tmp/tree.tar || { echo "no tree tarball"; exit 1; }

now() { awk '{ print $1 }' /proc/uptime; }
drop() { sync; echo 3 > /proc/sys/vm/drop_caches; }

# fio_run NAME ARGS...: the job's result line (--minimal) in $OUT/fio.out
fio_run() {
	local name=$1
	shift
	hostrun fio --name="$name" --filename=$M/f --ioengine=psync --direct=0 \
		--randrepeat=1 --norandommap "$@" --minimal > $OUT/fio.out 2> $OUT/fio.err ||
		{ cat $OUT/fio.err >&2; return 1; }
}
# fields of the --minimal line: 7 read KiB/s, 8 read IOPS, 48 write
# KiB/s, 49 write IOPS
field() { tail -n 1 $OUT/fio.out | awk -F';' -v f="$1" '{ print $f }'; }

# mkfs.exofs arguments of configuration $1
conf_args() {
	case $1 in
	none) echo "--consistency-policy none" ;;
	intent) echo "--consistency-policy intent --checksum none" ;;
	csum) echo "--consistency-policy intent --checksum xxh64" ;;
	esac
}

# one_round LEVEL CONF: the four figures, "SW RW SR UT", to stdout
one_round() {
	local lvl=$1 pol=$2 n stores sw rw sr ut c
	n=$([ "$lvl" = 5 ] && echo 4 || echo 6)
	stores=$(echo $ALL | cut -d' ' -f1-$n)
	EXOFS_STORES=$stores
	mkfs.exofs -q -f --raid $lvl $(conf_args $pol) $stores > $OUT/mkfs.out 2>&1 &&
	exofs_mount "" $M > /dev/null 2>&1 || { cat $OUT/mkfs.out >&2; echo "0 0 0 0"; return; }
	sw=0 rw=0 sr=0
	if [ "$JOBS" = all ]; then
		fio_run seqwrite --rw=write --bs=1M --size=$SIZE --end_fsync=1 --create_on_open=1 &&
			sw=$(field 48 | awk '{ printf "%.1f", $1 / 1024 }')
		fio_run randwrite --rw=randwrite --bs=4k --size=$SIZE --fdatasync=16 \
			--time_based --runtime=$RUNTIME && rw=$(field 49)
		drop
		fio_run seqread --rw=read --bs=1M --size=$SIZE &&
			sr=$(field 7 | awk '{ printf "%.1f", $1 / 1024 }')
		rm -f $M/f
	fi
	sync
	c=$(now)
	tar -xf /tmp/tree.tar -C $M && sync
	ut=$(awk -v a="$c" -v b="$(now)" 'BEGIN { printf "%.2f", b - a }')
	diag "raid$lvl $pol: $(cat /sys/fs/exofs/*/intent), checksums $(cat /sys/fs/exofs/*/checksums) errors $(cat /sys/fs/exofs/*/checksum_errors)" >&2
	exofs_umount $M
	echo "$sw $rw $sr $ut"
}

mean_spread() {	# FILE COL: "mean ±half-spread"
	awk -v c="$2" '{ s += $c; if (NR == 1 || $c < lo) lo = $c; if (NR == 1 || $c > hi) hi = $c }
		END { if (NR) printf "%.1f ±%.1f", s / NR, (hi - lo) / 2; else print "n/a" }' "$1"
}
mean() { awk -v c="$2" '{ s += $c } END { if (NR) printf "%.3f", s / NR; else print 0 }' "$1"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }'; }

for lvl in $(echo $LEVELS | tr '+' ' '); do
	[ "$lvl" = 6 ] && [ "$ORE_DISKS" -lt 6 ] && { echo "raid6 needs 6 disks"; continue; }
	: > $OUT/r$lvl.none
	: > $OUT/r$lvl.intent
	: > $OUT/r$lvl.csum
	r=1
	while [ $r -le "$ROUNDS" ]; do
		case $((r % 3)) in
		1) order="none intent csum" ;;
		2) order="csum none intent" ;;
		0) order="intent csum none" ;;
		esac
		for pol in $order; do
			line=$(one_round $lvl $pol)
			diag "raid$lvl round $r $pol: $line"
			echo "$line" >> $OUT/r$lvl.$pol
		done
		r=$((r + 1))
	done
	n=$([ "$lvl" = 5 ] && echo 4 || echo 6)
	echo "== exofs raid$lvl over $n ext4 stores, $ROUNDS rounds, size $SIZE: intent record and checksums against none"
	printf '%-38s %14s %14s %14s %7s %7s %7s\n' job none intent csum \
		int/none csum/int csum/none
	col=1
	for job in "seq write 1 MiB (MB/s)" "rand write 4 KiB, fdatasync/16 (IOPS)" \
		   "seq read 1 MiB (MB/s)" "untar + sync (s)"; do
		printf '%-38s %14s %14s %14s %7s %7s %7s\n' "$job" \
			"$(mean_spread $OUT/r$lvl.none $col)" \
			"$(mean_spread $OUT/r$lvl.intent $col)" \
			"$(mean_spread $OUT/r$lvl.csum $col)" \
			"$(ratio "$(mean $OUT/r$lvl.intent $col)" "$(mean $OUT/r$lvl.none $col)")" \
			"$(ratio "$(mean $OUT/r$lvl.csum $col)" "$(mean $OUT/r$lvl.intent $col)")" \
			"$(ratio "$(mean $OUT/r$lvl.csum $col)" "$(mean $OUT/r$lvl.none $col)")"
		col=$((col + 1))
	done
done
