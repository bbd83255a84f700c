#!/bin/sh
# exofs POSIX behaviour suite: mkfs.exofs RAID5 over 4 ext4 stores (one per
# virtio disk), mount, and the operations of issue 5's list, each with its
# expected result; then unmount, fsck, remount and verify everything again;
# last, ENOSPC on small tmpfs stores. Needs 4 disks.
#
# Patterns come from tests/tools/fsop (byte o of seed S is a function of o), so a
# range is verified without a reference copy.
. /ore/tests/lib.sh
. /ore/tests/exofs_lib.sh

ktap_plan 99

M=$EXOFS_MNT

# expect DESC WANT CMD...: CMD's stdout (trimmed) equals WANT.
expect() {
	local desc=$1 want=$2 got
	shift 2
	got=$("$@" 2>/tmp/expect.err)
	if [ "$got" = "$want" ]; then
		ok "$desc"
	else
		not_ok "$desc" "'$*' gave '$got', expected '$want'"
		sed "s/^/#   /" /tmp/expect.err | tail -n 5
	fi
}
size_of() { stat -c %s "$1"; }
ino_of() { stat -c %i "$1"; }
nlink_of() { stat -c %h "$1"; }

exofs_load || { ktap_done; }
exofs_stores_ext4 4 || ktap_done
check "mkfs.exofs --raid 5 over 4 stores" exofs_mkfs --raid 5 --stripe-unit 64K -L posix
check "fsck.exofs clean after mkfs" exofs_fsck
check "mount -t exofs -o stores=..." exofs_mount
fail_fast
check "/proc/mounts shows exofs with its stores" \
	grep -q "^none $M exofs .*stores=$(stores_opt)" /proc/mounts
expect "new root directory holds only . and .." ". .." sh -c "ls -a $M | tr '\n' ' ' | sed 's/ \$//'"
expect "statfs f_type is EXOFS_SUPER_MAGIC" 0x5df5 sh -c "fsop statfs $M | cut -d' ' -f1"

# ---------------------------------------------------------------- file I/O
check "write 1 MiB and read it back" sh -c \
	"fsop write $M/f1 0 1M 1 && fsop verify $M/f1 0 1M 1"
echo hello > $M/small
expect "small file: content and size" "hello 6" sh -c "echo \$(cat $M/small) \$(stat -c %s $M/small)"
check "unaligned overwrite in the middle keeps both sides" sh -c \
	"fsop write $M/f1 100001 5000 2 && fsop verify $M/f1 0 100001 1 &&
	 fsop verify $M/f1 100001 5000 2 && fsop verify $M/f1 105001 943575 1"
expect "O_APPEND writes land at the end (0 then 1000)" "0 1000 2000" sh -c \
	"echo \$(fsop append $M/app 1000 3) \$(fsop append $M/app 1000 3) \$(stat -c %s $M/app)"
check "O_APPEND content" fsop verify $M/app 0 2000 3
check "truncate shrink 200000 -> 70001 keeps the head" sh -c \
	"fsop write $M/tr 0 200000 4 && fsop truncate $M/tr 70001 &&
	 [ \$(stat -c %s $M/tr) = 70001 ] && fsop verify $M/tr 0 70001 4"
check "truncate grow -> 300000 reads zeros past the old end" sh -c \
	"fsop truncate $M/tr 300000 && [ \$(stat -c %s $M/tr) = 300000 ] &&
	 fsop verify $M/tr 0 70001 4 && fsop verify $M/tr 70001 229999 0"
fsop write $M/tt 0 5000 7
m0=$(stat -c %Y $M/tt); sleep 1
expect "truncate(2) changing the size updates mtime and ctime" yes sh -c \
	"fsop truncate $M/tt 1000 && [ \$(stat -c %Y $M/tt) -gt $m0 ] && [ \$(stat -c %Z $M/tt) -gt $m0 ] && echo yes"
check "ftruncate shrink to 4097, write at 10000: the gap is zeros" sh -c \
	"fsop write $M/ft 0 65536 5 && fsop ftruncate $M/ft 4097 &&
	 fsop write $M/ft 10000 100 6 && fsop verify $M/ft 0 4097 5 &&
	 fsop verify $M/ft 4097 5903 0 && fsop verify $M/ft 10000 100 6 &&
	 [ \$(stat -c %s $M/ft) = 10100 ]"
check "sparse file: 4 KiB at 10 MiB, zeros before" sh -c \
	"fsop write $M/sparse 10M 4096 7 && [ \$(stat -c %s $M/sparse) = 10489856 ] &&
	 fsop verify $M/sparse 0 10M 0 && fsop verify $M/sparse 10M 4096 7"
diag "sparse file: $(stat -c '%s bytes, %b blocks' $M/sparse)"
check "file beyond 4 GiB: 64 KiB at 5 GiB + 123" sh -c \
	"fsop write $M/big 5368709243 65536 8 && [ \$(stat -c %s $M/big) = 5368774779 ] &&
	 fsop verify $M/big 5368709243 65536 8 && fsop verify $M/big 4294963200 8192 0"
check "truncate the big file to 4 GiB + 1" sh -c \
	"fsop truncate $M/big 4294967297 && [ \$(stat -c %s $M/big) = 4294967297 ] &&
	 fsop verify $M/big 4294963200 4097 0 && fsop truncate $M/big 5368774779 &&
	 fsop verify $M/big 5368709243 65536 0"
check "unlink of an open file: still readable and writable until close" sh -c \
	"fsop write $M/ul 0 300000 9 && fsop unlink-open $M/ul 300000 9 && [ ! -e $M/ul ]"
dd if=/dev/urandom of=/tmp/rnd bs=64k count=48 2>/dev/null
check "cp of a 3 MiB random file compares equal" sh -c "cp /tmp/rnd $M/rnd && cmp /tmp/rnd $M/rnd"

# ------------------------------------------------------------- directories
mkdir -p $M/d1/d2
expect "mkdir: nested directories, parent nlink 3" 3 nlink_of $M/d1
touch $M/d1/d2/x
expect "rmdir of a non-empty directory: ENOTEMPTY" ENOTEMPTY fsop call rmdir $M/d1/d2
rm $M/d1/d2/x
expect "rmdir of an empty directory, parent nlink back to 2" "OK 2" sh -c \
	"echo \$(fsop call rmdir $M/d1/d2) \$(stat -c %h $M/d1)"
expect "mkdir of an existing name: EEXIST" EEXIST fsop call mkdir $M/d1
echo A > $M/ra; echo B > $M/rb
expect "rename over an existing file replaces it" "A no" sh -c \
	"mv $M/ra $M/rb && echo \$(cat $M/rb) \$([ -e $M/ra ] && echo yes || echo no)"
mkdir -p $M/src $M/dst
echo moved > $M/src/file
check "rename of a file across directories" sh -c \
	"mv $M/src/file $M/dst/file2 && [ \"\$(cat $M/dst/file2)\" = moved ] && [ ! -e $M/src/file ]"
mkdir -p $M/src/sub/deep
echo deep > $M/src/sub/deep/f
expect "rename of a directory across directories updates .. and nlinks" "3 2 yes deep" sh -c \
	"mv $M/src/sub $M/dst/sub && echo \$(stat -c %h $M/dst) \$(stat -c %h $M/src) \
	 \$([ \$(stat -c %i $M/dst/sub/..) = \$(stat -c %i $M/dst) ] && echo yes) \$(cat $M/dst/sub/deep/f)"
echo one > $M/x1; echo two > $M/x2
expect "RENAME_NOREPLACE onto an existing name: EEXIST, nothing changes" "EEXIST one two" sh -c \
	"echo \$(fsop rename2 noreplace $M/x1 $M/x2) \$(cat $M/x1) \$(cat $M/x2)"
expect "RENAME_NOREPLACE onto a free name" "OK one" sh -c \
	"echo \$(fsop rename2 noreplace $M/x1 $M/x3) \$(cat $M/x3)"
expect "RENAME_EXCHANGE swaps two files" "OK two one" sh -c \
	"echo \$(fsop rename2 exchange $M/x3 $M/x2) \$(cat $M/x3) \$(cat $M/x2)"
mkdir -p $M/xd/inner
expect "RENAME_EXCHANGE of a file and a directory across directories" "OK d f yes" sh -c \
	"echo \$(fsop rename2 exchange $M/x2 $M/dst/sub/deep) \
	 \$([ -d $M/x2 ] && echo d) \$([ -f $M/dst/sub/deep ] && echo f) \
	 \$([ \$(stat -c %i $M/x2/..) = \$(stat -c %i $M) ] && echo yes)"
expect "RENAME_EXCHANGE with a missing name: ENOENT" ENOENT fsop rename2 exchange $M/x3 $M/nonexistent
expect "rename a directory into its own subtree: EINVAL" EINVAL fsop rename2 plain $M/xd $M/xd/inner/x
echo linked > $M/l1
expect "hard link: nlink 2 and the same inode" "2 yes linked" sh -c \
	"ln $M/l1 $M/l2 && echo \$(stat -c %h $M/l1) \$([ \$(stat -c %i $M/l1) = \$(stat -c %i $M/l2) ] && echo yes) \$(cat $M/l2)"
expect "unlink one name: the other keeps the data, nlink 1" "1 linked" sh -c \
	"rm $M/l1 && echo \$(stat -c %h $M/l2) \$(cat $M/l2)"
expect "hard link to a directory: EPERM" EPERM fsop call link $M/d1 $M/d1link
ln -s small $M/sym
expect "short symlink: readlink and follow" "small hello" sh -c "echo \$(readlink $M/sym) \$(cat $M/sym)"
LONG=$(printf 'a%.0s' $(seq 1 100))/$(printf 'b%.0s' $(seq 1 100))/$(printf 'c%.0s' $(seq 1 100))
ln -s "$LONG" $M/longsym
expect "long symlink (302 bytes): readlink exact" "$LONG 302" sh -c "echo \$(readlink $M/longsym) \$(stat -c %s $M/longsym)"
mkdir $M/rd
check "readdir: stable across creates and unlinks, seekdir/telldir" fsop readdir $M/rd 300
rdlist=$(ls $M/rd | md5sum)
mkdir $M/many
i=0; while [ $i -lt 1000 ]; do : > $M/many/file$i; i=$((i + 1)); done
seq 0 999 | sed 's/^/file/' | LC_ALL=C sort > /tmp/many.want
check "1000 entries: ls lists exactly them" sh -c "ls $M/many | LC_ALL=C sort | cmp - /tmp/many.want"
check "unlink of 1000 entries leaves . and .. only, rmdir works" sh -c \
	"rm -f $M/many/file* && [ \"\$(ls -a $M/many | tr '\n' ' ')\" = '. .. ' ] && rmdir $M/many"
expect "O_CREAT|O_EXCL on an existing file: EEXIST" EEXIST fsop call open-excl $M/small
longname=$(printf 'n%.0s' $(seq 1 255))
expect "a 255-byte name works, 256 bytes gives ENAMETOOLONG" "OK ENAMETOOLONG" sh -c \
	"echo \$(fsop call mkdir $M/$longname) \$(fsop call mkdir $M/${longname}x)"

# -------------------------------------------------------------- attributes
echo attr > $M/attr
expect "chmod 640" 640 sh -c "chmod 640 $M/attr && stat -c %a $M/attr"
expect "chmod u+s,g+s 6750 on a file" 6750 sh -c "chmod 6750 $M/attr && stat -c %a $M/attr"
chmod 640 $M/attr
expect "chown 1234:5678" "1234 5678" sh -c "chown 1234:5678 $M/attr && stat -c '%u %g' $M/attr"
expect "utimensat with nanoseconds" "1000000000.123456789 1200000000.987654321" sh -c \
	"fsop utimens $M/attr 1000000000 123456789 1200000000 987654321 &&
	 fsop stat $M/attr | cut -d' ' -f7,8"
want=$(date -d '2001-02-03 04:05:06' +%s)
expect "touch -d sets mtime" "$want" sh -c "touch -d '2001-02-03 04:05:06' $M/attr && stat -c %Y $M/attr"
c0=$(stat -c %Z $M/attr); sleep 1
expect "chmod updates ctime" yes sh -c "chmod 600 $M/attr && [ \$(stat -c %Z $M/attr) -gt $c0 ] && echo yes"
m0=$(stat -c %Y $M/d1); sleep 1
expect "creating an entry updates the directory's mtime" yes sh -c \
	": > $M/d1/new && [ \$(stat -c %Y $M/d1) -gt $m0 ] && echo yes"
expect "mkfifo and mknod c 1 3: types and rdev" "fifo character special file 1,3" sh -c \
	"mkfifo $M/fifo && mknod $M/cdev c 1 3 && echo \$(stat -c %F $M/fifo) \$(stat -c %F $M/cdev) \$((0x\$(stat -c %t $M/cdev))),\$((0x\$(stat -c %T $M/cdev)))"
expect "reading the char device node reads /dev/null" "" cat $M/cdev

# ------------------------------------------------------- statfs, sync, mmap
sf=$(fsop statfs $M)
set -- $sf
if [ "$2" -gt 0 ] && [ "$3" -gt 0 ] && [ "$4" -le "$3" ] && [ "$5" -le "$4" ] && [ "$6" -gt 0 ]; then
	ok "statfs: sane bsize/blocks/bfree/bavail/files ($sf)"
else
	not_ok "statfs: sane bsize/blocks/bfree/bavail/files" "$sf"
fi
free0=$4
fsop write $M/space 0 32M 10 && sync
free1=$(fsop statfs $M | cut -d' ' -f4)
expect "statfs: free blocks drop by about 32 MiB of data" yes sh -c \
	"[ \$(( ($free0 - $free1) * $2 )) -ge 30000000 ] && echo yes"
rm $M/space; sync
check "df works" df $M
check "fsync, fdatasync, syncfs" sh -c "fsop fsync $M/f1 && fsop fdatasync $M/f1 && fsop syncfs $M && fsop fsync $M/d1"
check "mmap write shows up in read()" sh -c \
	"fsop write $M/mm 0 1M 11 && fsop mmap-write $M/mm 12345 100000 12 &&
	 fsop verify $M/mm 0 12345 11 && fsop verify $M/mm 12345 100000 12 && fsop verify $M/mm 112345 936231 11"
check "mmap read sees written data" fsop mmap-read $M/f1 100001 5000 2
check "concurrent writers to one file (4 processes, interleaved 64 KiB)" fsop concurrent $M/conc 4 65536 16
check "parallel writers to different files" sh -c \
	"for i in 1 2 3 4; do fsop write $M/par\$i 0 2M \$((20 + i)) & done; wait;
	 for i in 1 2 3 4; do fsop verify $M/par\$i 0 2M \$((20 + i)) || exit 1; done"

# -------------------------------------------------- unmount, fsck, remount
verify_all() {
	local w=$1
	check "$w: f1 content" sh -c "fsop verify $M/f1 0 100001 1 && fsop verify $M/f1 100001 5000 2 && fsop verify $M/f1 105001 943575 1"
	expect "$w: small" hello cat $M/small
	check "$w: append/truncate files" sh -c \
		"fsop verify $M/app 0 2000 3 && [ \$(stat -c %s $M/tr) = 300000 ] && fsop verify $M/tr 0 70001 4 &&
		 fsop verify $M/tr 70001 229999 0 && [ \$(stat -c %s $M/ft) = 10100 ] && fsop verify $M/ft 4097 5903 0"
	check "$w: sparse and big files" sh -c \
		"fsop verify $M/sparse 0 10M 0 && fsop verify $M/sparse 10M 4096 7 &&
		 [ \$(stat -c %s $M/big) = 5368774779 ] && fsop verify $M/big 4294963200 8192 0"
	check "$w: random file" cmp /tmp/rnd $M/rnd
	check "$w: renamed tree" sh -c \
		"[ \"\$(cat $M/dst/file2)\" = moved ] && [ -f $M/dst/sub/deep ] && [ -f $M/x2/f ] &&
		 [ \"\$(cat $M/x3)\" = two ] && [ \"\$(cat $M/rb)\" = A ] && [ ! -e $M/ra ]"
	# after the exchange dst/sub holds no directory and the root 7
	expect "$w: nlinks of directories" "2 3 2 2 9" sh -c \
		"echo \$(stat -c %h $M/src) \$(stat -c %h $M/dst) \$(stat -c %h $M/dst/sub) \$(stat -c %h $M/d1) \$(stat -c %h $M)"
	expect "$w: hard link and symlinks" "1 linked small $LONG" sh -c \
		"echo \$(stat -c %h $M/l2) \$(cat $M/l2) \$(readlink $M/sym) \$(readlink $M/longsym)"
	expect "$w: attributes" "600 1234 5678 $want" stat -c '%a %u %g %Y' $M/attr
	expect "$w: special files" "fifo 1,3" sh -c \
		"echo \$(stat -c %F $M/fifo) \$((0x\$(stat -c %t $M/cdev))),\$((0x\$(stat -c %T $M/cdev)))"
	check "$w: mmap and concurrent files" sh -c \
		"fsop verify $M/mm 12345 100000 12 && fsop verify $M/conc 0 65536 1 &&
		 fsop verify $M/conc 196608 65536 4 && fsop verify $M/par3 0 2M 23"
	expect "$w: readdir directory lists the same" "$rdlist" sh -c "ls $M/rd | md5sum"
}
verify_all "before umount"
check "umount" exofs_umount
check "fsck.exofs --strict clean after umount" exofs_fsck
check "mount again" exofs_mount
fail_fast
verify_all "after remount"
check "umount after the re-verify" exofs_umount
check "fsck.exofs --strict still clean" exofs_fsck

# ------------------------------------------------------------------ ENOSPC
# Four tmpfs stores, the last one smaller: it fills first.
mkdir -p /stores
for i in 0 1 2; do mkdir -p /stores/t$i; mount -t tmpfs -o size=48m tmpfs /stores/t$i; done
mkdir -p /stores/t3; mount -t tmpfs -o size=24m tmpfs /stores/t3
EXOFS_STORES="/stores/t0 /stores/t1 /stores/t2 /stores/t3"
check "mkfs.exofs --raid 5 over tmpfs stores (one of 24 MiB)" exofs_mkfs --raid 5
check "mount the small filesystem" exofs_mount
fsop write $M/keep 0 1M 30 >/dev/null 2>&1
out=$(fsop fill $M/fill 2>&1); rc=$?
if [ $rc -eq 0 ]; then ok "a store fills: the writer gets ENOSPC ($out)"
else not_ok "a store fills: the writer gets ENOSPC" "$out"; fi
check "the rest of the filesystem still reads" fsop verify $M/keep 0 1M 30
check "after freeing space, new writes work" sh -c \
	"rm -f $M/fill && sync && fsop write $M/after 0 4M 31 && fsop verify $M/after 0 4M 31 && mkdir $M/newdir && : > $M/newdir/f"
check "umount the small filesystem" exofs_umount
check "fsck.exofs --strict clean after ENOSPC" exofs_fsck
check "mount again: data written before and after ENOSPC is there" sh -c \
	"mount -t exofs -o stores=$(stores_opt) none $M &&
	 fsop verify $M/keep 0 1M 30 && fsop verify $M/after 0 4M 31 && [ -f $M/newdir/f ] && umount $M"

ktap_done
