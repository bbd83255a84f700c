#!/bin/sh
# Packaging: what ore-tools adds to a system, run as it would run there.
# With ORE_PKG=1 (make pkg-check) the modules are the ones DKMS built from
# ore-dkms and mkfs.exofs, fsck.exofs, oreblk, the udev rule are
# ore-tools' (scripts/pkg-payload.sh); without it (make check) the tree's.
#  - exofs: mkfs.exofs RAID5 over 3 tmpfs stores, write, remount, read
#    back, fsck.exofs clean;
#  - udev: an array created and stopped comes up by itself when the
#    host's systemd-udevd (chrooted into the host share) processes a
#    coldplug "add" of the disks with ore-tools' rule (64-oreblk.rules,
#    from /run/udev/rules.d; its program path points at the binary under
#    test). A guest boot has no udevd of its own; this is the rule, the
#    RUN command and `oreblk incremental` as udevd runs them, not a
#    systemd boot;
#  - assemble --scan: the same array over dm-linear devices (the disks
#    below are held, so the scan must pick the dm devices);
#  - monitor (started before the scan): NewArray for the scanned array, a
#    member swapped for dm-error mid-use gives Fail and DegradedArray to
#    --program and to syslog (busybox syslogd), --oneshot reports the
#    degraded array, the stop gives DeviceDisappeared.
#
# CHECK: pkg --disks 4 --disk-size 64M --timeout 600
. /ore/tests/lib.sh
. /ore/tests/oreblk_lib.sh

ktap_plan 21

# ORE_PKG and ORE_HOSTREPO are in harness.env
[ -r /ore/harness.env ] && . /ore/harness.env
A=/dev/oreblk0
if [ "${ORE_PKG:-0}" = 1 ]; then
	diag "modules and tools from the built packages (ore-dkms via dkms build, ore-tools)"
	RULE=/ore/pkgroot/lib/udev/rules.d/64-oreblk.rules
else
	diag "modules and tools from the build tree"
	RULE=$ORE_HOST$ORE_HOSTREPO/udev/64-oreblk.rules
fi
if [ "$ORE_DISKS" -lt 4 ] || ! have_host dmsetup; then
	diag "needs 4 disks and the host's dmsetup"
	ktap_done
fi
ob_load || ktap_done
ko=$(ore_ko exofs) && load_mod "$ko" || ktap_done
# the files loaded (ob_load and load_mod take /ore/NAME.ko) are the
# packaged ones (checksums taken by scripts/pkg-payload.sh) and DKMS
# built them (dkms signs what it builds; the tree's modules are unsigned)
running_packed() {
	(cd /ore && md5sum -c pkg.md5) || return 1
	for m in ore exofs oreblk; do
		tail -c 28 /ore/$m.ko | grep -q 'Module signature appended' || return 1
	done
}
if [ "${ORE_PKG:-0}" = 1 ]; then
	check "the modules loaded from /ore and the tools are the packaged ones, DKMS-signed" running_packed
else
	skip "the modules loaded from /ore and the tools are the packaged ones, DKMS-signed" "not a make pkg-check run"
fi

# ---------------------------------------------------------------- exofs
. /ore/tests/exofs_lib.sh
EXOFS_MNT=/mnt/pkg
if exofs_stores_tmpfs 3 32M; then ok "exofs: tmpfs stores"; else not_ok "exofs: tmpfs stores"; fi
check "exofs: mkfs.exofs --raid 5" exofs_mkfs --raid 5
check "exofs: write, remount, read back" sh -c "
	mkdir -p $EXOFS_MNT &&
	mount -t exofs -o stores=$(stores_opt) none $EXOFS_MNT &&
	dd if=/dev/urandom of=/tmp/pkg.data bs=64k count=24 2>/dev/null &&
	cp /tmp/pkg.data $EXOFS_MNT/f && mkdir $EXOFS_MNT/d &&
	umount $EXOFS_MNT &&
	mount -t exofs -o stores=$(stores_opt) none $EXOFS_MNT &&
	cmp /tmp/pkg.data $EXOFS_MNT/f && [ -d $EXOFS_MNT/d ] && umount $EXOFS_MNT"
check "exofs: fsck.exofs clean" fsck.exofs --strict $EXOFS_STORES

# ---------------------------------------------------------------- udev
mk_array() {
	oreblk create $A --raid 5 -n 4 --chunk 64K --name pkgtest --force \
		/dev/vda /dev/vdb /dev/vdc /dev/vdd >/tmp/pkg.create 2>&1 || return 1
	cat /sys/block/oreblk0/ore/uuid > /tmp/pkg.uuid &&
	dd if=/dev/urandom of=/tmp/pkg.blk bs=64k count=48 2>/dev/null &&
	dd if=/tmp/pkg.blk of=$A bs=64k oflag=direct 2>/dev/null &&
	oreblk stop $A >/dev/null
}
check "oreblk: raid5 over vda..vdd created, written, stopped" mk_array

# the array running again with the same uuid and data
same_array() {
	[ -e /sys/block/oreblk0/ore/uuid ] &&
	[ "$(cat /sys/block/oreblk0/ore/uuid)" = "$(cat /tmp/pkg.uuid)" ] &&
	dd if=$A of=/tmp/pkg.blk2 bs=64k count=48 iflag=direct 2>/dev/null &&
	cmp /tmp/pkg.blk /tmp/pkg.blk2
}

udev_assemble() {
	mkdir -p /host/run/udev/rules.d || return 1
	sed -e 's|/usr/sbin/oreblk|/tmp/ore/tools/oreblk|' -e 's|@SBINDIR@/oreblk|/tmp/ore/tools/oreblk|' "$RULE" > /host/run/udev/rules.d/64-oreblk.rules
	grep -q 'RUN+="/tmp/ore/tools/oreblk incremental $devnode"' /host/run/udev/rules.d/64-oreblk.rules || return 1
	# systemd tools refuse to work in a chroot unless told otherwise
	udev() { hostrun env SYSTEMD_IGNORE_CHROOT=1 "$@"; }
	udev /lib/systemd/systemd-udevd --daemon --resolve-names=never || return 1
	udev udevadm trigger --action=add --subsystem-match=block &&
	udev udevadm settle --timeout=60
	echo "udevd: $(ps | grep -c '[s]ystemd-udevd') process(es)"
	i=0
	while [ $i -lt 20 ] && ! same_array; do sleep 1; i=$((i + 1)); done
	dmesg | grep 'oreblk0' | tail -n 3
	same_array
}
check "udev: systemd-udevd + 64-oreblk.rules assemble the array from a coldplug" udev_assemble
# create writes the superblocks through /dev/vdX: the close()s make udevd
# (it watches vd*) run incremental, which must not start the new array
# before create's own assemble does (create holds /run/oreblk.lock)
recreate() {
	oreblk stop $A >/dev/null &&
	oreblk create $A --raid 5 -n 4 --chunk 64K --name pkgtest2 --force \
		/dev/vda /dev/vdb /dev/vdc /dev/vdd || return 1
	cat /sys/block/oreblk0/ore/uuid > /tmp/pkg.uuid
	hostrun env SYSTEMD_IGNORE_CHROOT=1 udevadm settle --timeout=60
	dd if=/tmp/pkg.blk of=$A bs=64k oflag=direct 2>/dev/null
	ls -d /sys/block/oreblk* && [ "$(ls -d /sys/block/oreblk* | wc -l)" = 1 ]
}
check "udev: create under a running udevd is not raced by incremental" recreate
hostrun env SYSTEMD_IGNORE_CHROOT=1 udevadm control --exit 2>/dev/null
diag "$(dmesg | grep -c 'oreblk0') kernel lines on oreblk0"
check "oreblk detail: clean, 4 members" sh -c "oreblk detail $A | grep -q 'state : clean'"
check "incremental: a device without a superblock is not an error" sh -c \
	"oreblk stop $A >/dev/null && dd if=/dev/zero of=/tmp/zero.img bs=1M count=2 2>/dev/null &&
	 oreblk incremental /tmp/zero.img && [ ! -e /sys/block/oreblk0 ]"

# ---------------------------------------------------------------- scan
SECTORS=$(blockdev --getsz /dev/vda)
mk_dm() {
	local i=0 d
	for d in a b c d; do
		dm create obm$i --table "0 $SECTORS linear /dev/vd$d 0" || return 1
		i=$((i + 1))
	done
}
check "four dm-linear devices over vda..vdd" mk_dm

# ---------------------------------------------------------------- monitor
# started before the scan: the array it starts is a NewArray
cat > /tmp/pkg-ev.sh <<'EOF'
#!/bin/sh
echo "$*" >> /tmp/pkg-ev.log
EOF
chmod 755 /tmp/pkg-ev.sh
: > /tmp/pkg-ev.log
syslogd -n -O /tmp/pkg-messages &
SYSLOGD=$!
oreblk monitor --scan --delay 1 --program /tmp/pkg-ev.sh > /tmp/pkg-mon1.out 2>&1 &
MON1=$!
oreblk monitor --delay 1 --syslog $A > /tmp/pkg-mon2.out 2>&1 &
MON2=$!
sleep 2
check "assemble --scan starts the array over the dm devices" sh -c "
	oreblk assemble --scan > /tmp/pkg.scan 2>&1; cat /tmp/pkg.scan | sed 's/^/# /'
	grep -q dm- /sys/block/oreblk0/ore/members && ! grep -q /dev/vd /sys/block/oreblk0/ore/members"
check "scanned array holds the data" same_array

# member 2 (obm2) becomes dm-error; a write that touches it fails it
fail_member() {
	dm suspend obm2 && dm load obm2 --table "0 $SECTORS error" && dm resume obm2 &&
	dd if=/dev/urandom of=$A bs=64k count=48 oflag=direct 2>/dev/null
	i=0
	while [ $i -lt 30 ] && ! grep -q '^Fail /dev/oreblk0 /dev/dm-2' /tmp/pkg-ev.log; do
		sleep 1; i=$((i + 1))
	done
	sed 's/^/# event: /' /tmp/pkg-ev.log
	grep -q '^Fail /dev/oreblk0 /dev/dm-2$' /tmp/pkg-ev.log
}
check "monitor --program: Fail /dev/oreblk0 /dev/dm-2 after dm-error" fail_member
check "monitor --program: DegradedArray /dev/oreblk0" grep -q '^DegradedArray /dev/oreblk0$' /tmp/pkg-ev.log
check "monitor --syslog: the Fail event is in the system log" sh -c "
	sleep 1; grep 'oreblk' /tmp/pkg-messages | sed 's/^/# syslog: /'
	grep -q 'Fail event detected on oreblk device /dev/oreblk0, component device /dev/dm-2' /tmp/pkg-messages"
check "monitor --oneshot: DegradedArray" sh -c "oreblk monitor --oneshot | grep -q '^DegradedArray /dev/oreblk0$'"
check "monitor --program: NewArray /dev/oreblk0 (started by the scan)" grep -q '^NewArray /dev/oreblk0$' /tmp/pkg-ev.log
check "array stopped, dm devices removed" sh -c "
	oreblk stop $A >/dev/null && for i in 0 1 2 3; do hostrun env DM_DISABLE_UDEV=1 dmsetup --noudevsync remove obm\$i || exit 1; done"
gone() {
	i=0
	while [ $i -lt 10 ] && ! grep -q '^DeviceDisappeared /dev/oreblk0$' /tmp/pkg-ev.log; do sleep 1; i=$((i + 1)); done
	grep -q '^DeviceDisappeared /dev/oreblk0$' /tmp/pkg-ev.log
}
check "monitor --program: DeviceDisappeared /dev/oreblk0 after the stop" gone
kill $MON1 $MON2 $SYSLOGD 2>/dev/null
wait $MON1 $MON2 2>/dev/null
ktap_done
