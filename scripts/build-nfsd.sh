#!/bin/bash
# make nfsd: Debian's nfsd.ko with the layout-provider patch (pnfs/nfsd/),
# and exofs_pnfs.ko, exofs's objects-layout provider, built against it.
#
#  1. checks that linux-source-6.12 and the headers of the kernel we build
#     for (scripts/kver.sh) are the same Debian release, that the running
#     config of the image has the same NFSD options as the headers' and
#     that CONFIG_NFSD_PNFS is set; refuses with a message otherwise;
#  2. extracts fs/nfsd (and fs/internal.h, which vfs.c includes) from
#     /usr/src/linux-source-6.12.tar.xz into build/nfsd/src (once per
#     tarball), copies it to build/nfsd/linux, applies pnfs/nfsd/*.patch;
#  3. builds nfsd.ko there against /lib/modules/KVER/build (MODVERSIONS
#     CRCs of vmlinux, sunrpc, lockd, ... from the headers' Module.symvers),
#     W=1;
#  4. builds exofs/pnfs (exofs_pnfs.ko) with nfsd's private headers and the
#     Module.symvers of nfsd.ko and of the tree (make modules first).
#  5. extracts fs/nfs (the NFS client's private headers) into
#     build/nfsclient/src and builds pnfs/client (objlayoutdriver.ko, the
#     objects-layout client) against them and Debian's nfsv4.ko CRCs.
# Prints where the three modules are. Nothing is installed or loaded.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
KVER=$("$ROOT/scripts/kver.sh")
KDIR=/lib/modules/$KVER/build
TARBALL=${LINUX_SOURCE_TARBALL:-/usr/src/linux-source-6.12.tar.xz}
OUT=$ROOT/build/nfsd
JOBS=${JOBS:-2}
die() { echo "build-nfsd: $*" >&2; exit 1; }

[ -r "$TARBALL" ] || die "no $TARBALL (apt-get install linux-source-6.12: make deps)"

# --- 1. release and config
src_ver=$(dpkg-query -W -f='${Version}' linux-source-6.12 2>/dev/null || true)
hdr_ver=$(dpkg-query -W -f='${Version}' "linux-headers-$KVER" 2>/dev/null || true)
img_ver=$(dpkg-query -W -f='${Version}' "linux-image-$KVER" 2>/dev/null || true)
if [ -z "$src_ver" ] || [ "$src_ver" != "$hdr_ver" ] || [ "$hdr_ver" != "$img_ver" ]; then
	cat >&2 <<MSG
build-nfsd: the kernel source and the kernel we build for differ:
  linux-source-6.12          ${src_ver:-not installed}
  linux-headers-$KVER  ${hdr_ver:-not installed}
  linux-image-$KVER    ${img_ver:-not installed}
  nfsd.ko must be built from the source of the very kernel it loads into
  (its private structures and the CRCs of vmlinux); upgrade them together
  (apt-get install linux-source-6.12 linux-headers-6.12-amd64
  linux-image-6.12-amd64) or set KVER to the release the source matches.
MSG
	exit 1
fi
nfsd_opts() { grep -E '^(# )?CONFIG_(NFSD|NFS_|PNFS|SUNRPC|LOCKD|EXPORTFS|FILE_LOCKING|MODVERSIONS)[A-Z0-9_]*[= ]' "$1" | sort; }
if [ -r "/boot/config-$KVER" ] && ! cmp -s <(nfsd_opts "$KDIR/.config") <(nfsd_opts "/boot/config-$KVER"); then
	echo "build-nfsd: the NFSD options of $KDIR/.config and /boot/config-$KVER differ:" >&2
	diff <(nfsd_opts "$KDIR/.config") <(nfsd_opts "/boot/config-$KVER") >&2 || true
	exit 1
fi
grep -q '^CONFIG_NFSD=m' "$KDIR/.config" || die "CONFIG_NFSD is not a module in $KDIR/.config"
grep -q '^CONFIG_NFSD_PNFS=y' "$KDIR/.config" || die "CONFIG_NFSD_PNFS is not set in $KDIR/.config: nfsd has no layouts"

# --- 2. sources
mkdir -p "$OUT"
stamp="$src_ver $(stat -c '%s %Y' "$TARBALL")"
if [ "$(cat "$OUT/src/.stamp" 2>/dev/null)" != "$stamp" ]; then
	echo "build-nfsd: extracting fs/nfsd from $TARBALL"
	rm -rf "$OUT/src" "$OUT/src.tmp"
	mkdir -p "$OUT/src.tmp"
	tar -xJf "$TARBALL" -C "$OUT/src.tmp" --strip-components=1 \
		linux-source-6.12/Makefile linux-source-6.12/fs/nfsd linux-source-6.12/fs/internal.h
	echo "$stamp" > "$OUT/src.tmp/.stamp"
	mv "$OUT/src.tmp" "$OUT/src"
fi
# The source's version against the headers' release (6.12.N+debV-amd64).
sv=$(awk -F' *= *' '$1=="VERSION"{v=$2} $1=="PATCHLEVEL"{p=$2} $1=="SUBLEVEL"{s=$2} END{print v"."p"."s}' "$OUT/src/Makefile")
case "$KVER" in
"$sv"+*|"$sv"-*) ;;
*) die "linux-source is $sv but the headers are $KVER" ;;
esac
# The patched tree is kept (incremental builds) while the source and the
# patches are the same.
pstamp="$stamp $KVER $(cat "$ROOT"/pnfs/nfsd/*.patch | md5sum)"
if [ "$(cat "$OUT/linux/.stamp" 2>/dev/null)" != "$pstamp" ]; then
	rm -rf "$OUT/linux"
	mkdir -p "$OUT/linux/fs"
	cp -a "$OUT/src/fs/nfsd" "$OUT/src/fs/internal.h" "$OUT/linux/fs/"
	for p in "$ROOT"/pnfs/nfsd/*.patch; do
		echo "build-nfsd: applying ${p#"$ROOT"/}"
		patch -s -p1 -d "$OUT/linux" --no-backup-if-mismatch < "$p" ||
			die "$p does not apply to linux-source $src_ver"
	done
	echo "$pstamp" > "$OUT/linux/.stamp"
fi

# --- 3. nfsd.ko
NFSD=$OUT/linux/fs/nfsd
make -C "$KDIR" M="$NFSD" W=1 -j"$JOBS" modules
[ -e "$NFSD/nfsd.ko" ] || die "no nfsd.ko after the build"

# --- 4. exofs_pnfs.ko
[ -e "$ROOT/Module.symvers" ] || die "no $ROOT/Module.symvers: run make modules first"
make -C "$KDIR" M="$ROOT/exofs/pnfs" W=1 -j"$JOBS" NFSD_SRC="$NFSD" ORE_ROOT="$ROOT" \
	KBUILD_EXTRA_SYMBOLS="$NFSD/Module.symvers $ROOT/Module.symvers" modules
# --- 5. objlayoutdriver.ko (the client): fs/nfs's private headers of the
# same source (checked above against the headers and the image).
NFSC=$ROOT/build/nfsclient
if [ "$(cat "$NFSC/src/.stamp" 2>/dev/null)" != "$stamp" ]; then
	echo "build-nfsd: extracting fs/nfs from $TARBALL"
	rm -rf "$NFSC/src" "$NFSC/src.tmp"
	mkdir -p "$NFSC/src.tmp"
	tar -xJf "$TARBALL" -C "$NFSC/src.tmp" --strip-components=1 \
		linux-source-6.12/fs/nfs
	echo "$stamp" > "$NFSC/src.tmp/.stamp"
	mv "$NFSC/src.tmp" "$NFSC/src"
fi
grep -q '^CONFIG_NFS_V4_1=y' "$KDIR/.config" || die "CONFIG_NFS_V4_1 is not set in $KDIR/.config: the client has no pNFS"
make -C "$KDIR" M="$ROOT/pnfs/client" W=1 -j"$JOBS" NFS_SRC="$NFSC/src/fs/nfs" ORE_ROOT="$ROOT" \
	KBUILD_EXTRA_SYMBOLS="$ROOT/Module.symvers" modules
echo "build-nfsd: $NFSD/nfsd.ko"
echo "build-nfsd: $ROOT/exofs/pnfs/exofs_pnfs.ko"
echo "build-nfsd: $ROOT/pnfs/client/objlayoutdriver.ko"
