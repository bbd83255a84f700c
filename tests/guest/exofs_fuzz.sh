#!/bin/sh
# exofs fuzz test: bad metadata never crashes the kernel. An exofs RAID5
# over 4 tmpfs stores is populated, unmounted and saved; then, N times
# (default 200), the saved stores are restored, damaged in one random way by
# tools/exofs_mutate (superblocks on one or all stores, inode records,
# directory entries, the bitmap - half of them with checksums and parity
# fixed up so that the values themselves must be validated - or raw flips,
# truncated and removed component files) and mounted. Each mount must either
# fail with an error, or succeed and survive a walk of the tree (stat,
# readlink, read every file), a few writes (odd rounds mount read-write),
# and unmount. The harness fails the run on any Oops/BUG/WARNING in the
# kernel log. No disks needed.
#
# Arguments (--args): the number of mutations, the first seed.
. /ore/tests/lib.sh
. /ore/tests/exofs_lib.sh

shift
NMUT=${1:-200}
SEED0=${2:-1}
M=$EXOFS_MNT
ktap_plan $((7 + (NMUT + 19) / 20 + 3))

exofs_load || ktap_done
exofs_stores_tmpfs 4 64m && ok "4 tmpfs stores" || not_ok "4 tmpfs stores"
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
mkdir -p /tmp/pristine
for s in $EXOFS_STORES; do cp -a $s /tmp/pristine/; done
ls -la /tmp/pristine/t0 | sed 's/^/# /'

restore() {
	local s
	for s in $EXOFS_STORES; do
		rm -rf "$s"/*
		cp -a /tmp/pristine/$(basename "$s")/. "$s"/
	done
}

# exercise: everything a user might do on a mounted (possibly damaged) fs;
# errors are expected and ignored, hangs and crashes are not.
cat > /tmp/exercise.sh <<EOF
M=$M
ls -laR \$M > /dev/null 2>&1
find \$M -exec stat {} + > /dev/null 2>&1
find \$M -type l -exec readlink {} + > /dev/null 2>&1
find \$M -type f ! -name fifo -exec cat {} + > /dev/null 2>&1
fsop statfs \$M > /dev/null 2>&1
if [ "\$1" = rw ]; then
	echo new > \$M/newfile 2>/dev/null
	mkdir \$M/a/newdir 2>/dev/null
	fsop write \$M/a/b/f2 1000 5000 3 2>/dev/null
	mv \$M/a/f1 \$M/d/f1moved 2>/dev/null
	rm -rf \$M/e 2>/dev/null
	ls -la \$M > /dev/null 2>&1
	sync
fi
exit 0
EOF

refused=0 mounted=0 bad=0 r=0
batch_bad=0 batch_desc=""
seed=$SEED0
while [ $r -lt $NMUT ]; do
	restore
	what=$(exofs_mutate $seed $EXOFS_STORES 2>&1)
	mode=ro
	[ $((r % 2)) -eq 1 ] && mode=rw
	mark=$(dmesg_lines)
	if mount -t exofs -o "stores=$(stores_opt),$mode" none $M 2>/dev/null; then
		mounted=$((mounted + 1))
		timeout 120 sh /tmp/exercise.sh $mode </dev/null
		rc=$?
		if [ $rc -eq 124 ] || [ $rc -eq 143 ]; then
			batch_bad=$((batch_bad + 1))
			batch_desc="$batch_desc [seed $seed: $what: hung]"
		fi
		if ! umount $M 2>/dev/null; then
			batch_bad=$((batch_bad + 1))
			batch_desc="$batch_desc [seed $seed: $what: umount failed]"
			umount -l $M 2>/dev/null
		fi
		echo "# seed $seed ($mode): $what: mounted"
	else
		refused=$((refused + 1))
		msg=$(dmesg | tail -n +$((mark + 1)) | grep -i 'exofs' | tail -n 1 | sed 's/^\[[ 0-9.]*\] //')
		echo "# seed $seed ($mode): $what: refused: $msg"
	fi
	r=$((r + 1))
	seed=$((seed + 1))
	if [ $((r % 20)) -eq 0 ] || [ $r -eq $NMUT ]; then
		if [ $batch_bad -eq 0 ]; then
			ok "mutations up to $r: each refused or mounted, walked and unmounted"
		else
			not_ok "mutations up to $r" "$batch_desc"
		fi
		bad=$((bad + batch_bad))
		batch_bad=0 batch_desc=""
	fi
done
diag "$NMUT mutations: $refused refused, $mounted mounted, $bad bad"

restore
check "the undamaged filesystem mounts after the fuzzing" exofs_mount
check "and its files are intact" sh -c \
	"[ \"\$(cat $M/a/f1)\" = hello ] && fsop verify $M/a/b/f2 0 40000 1 && fsop verify $M/d/big 0 300000 2 &&
	 [ \"\$(readlink $M/a/sym)\" = f1 ] && [ \$(ls $M/e | wc -l) -eq 91 ]"
check "umount" exofs_umount

ktap_done
