#!/bin/bash
# pkg-payload.sh PKGDIR STAGE: called by qemu/run.sh when ORE_PKG_DIR is
# set (scripts/pkg-check.sh). PKGDIR holds the .debs unpacked (root/, by
# dpkg -x) and the modules DKMS built from ore-dkms (ko/). Over the
# guest payload in STAGE:
#  - /ore/ore.ko, exofs.ko, oreblk.ko become the DKMS-built ones;
#  - /ore/tools/mkfs.exofs, fsck.exofs, oreblk become ore-tools' binaries
#    (test helpers such as fsop and oreblk_check, and the tests/ktap
#    modules, stay the tree's: the packages do not ship them);
#  - /ore/pkgroot is ore-tools' file tree (udev rule, units, man pages);
#  - harness.env gets ORE_PKG=1 so that tests can say what they ran.
set -euo pipefail
pkg=$1 stage=$2
for m in ore exofs oreblk; do
	cp "$pkg/ko/$m.ko" "$stage/ore/$m.ko"
done
for t in mkfs.exofs fsck.exofs oreblk; do
	cp "$pkg/root/usr/sbin/$t" "$stage/ore/tools/$t"
done
mkdir -p "$stage/ore/pkgroot"
cp -a "$pkg/root/." "$stage/ore/pkgroot/"
rm -rf "$stage/ore/pkgroot/usr/src"	# the module sources: not needed in the guest
# what the guest checks it runs (md5sum -c from /ore)
(cd "$stage/ore" && md5sum ore.ko exofs.ko oreblk.ko tools/mkfs.exofs tools/fsck.exofs tools/oreblk) > "$stage/ore/pkg.md5"
echo "ORE_PKG=1" >> "$stage/ore/harness.env"
