#!/bin/bash
# make pkg-check (after make deb): the packages in build/deb/, on the host
# build only, then in the guest.
#  1. dpkg -x both .debs into build/pkg/root (never dpkg -i on the host)
#     and check every file is where Debian expects it;
#  2. dkms build of ore-dkms's /usr/src/ore-VERSION against the 6.12
#     headers (scripts/kver.sh), in a scratch dkms tree (build/pkg/dkms):
#     nothing goes to /lib/modules, nothing is loaded;
#  3. guest tests with the DKMS-built modules and ore-tools' binaries in
#     place of the tree's (ORE_PKG_DIR, scripts/pkg-payload.sh): pkg, and
#     the tests in PKG_TESTS (default: smoke exofs_smoke oreblk).
# Last line: "pkg-check: N passed, N failed".
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT" || exit 1
VERSION=$(sed -n '1s/^[^(]*(\([^)]*\)).*/\1/p' debian/changelog)
KVER=$(scripts/kver.sh) || exit 1
PKG=$ROOT/build/pkg
P=0 F=0
res() {	# res DESC CMD...
	local d=$1; shift
	if "$@" > "$PKG/last.out" 2>&1; then
		echo "ok - $d"; P=$((P + 1))
	else
		echo "not ok - $d"; sed 's/^/  | /' "$PKG/last.out" | tail -n 20; F=$((F + 1))
	fi
}
rm -rf "$PKG" && mkdir -p "$PKG/root" "$PKG/dkms" "$PKG/ko"
DKMS_DEB=$(ls build/deb/ore-dkms_"$VERSION"_all.deb 2>/dev/null)
TOOLS_DEB=$(ls build/deb/ore-tools_"$VERSION"_*.deb 2>/dev/null)
[ -n "$DKMS_DEB" ] && [ -n "$TOOLS_DEB" ] || { echo "pkg-check: no .debs of $VERSION in build/deb (make deb)"; exit 1; }

res "dpkg -x ore-dkms and ore-tools into a scratch root" \
	sh -c "dpkg -x $DKMS_DEB $PKG/root && dpkg -x $TOOLS_DEB $PKG/root"
expect() {
	local f missing=""
	for f in "$@"; do [ -e "$PKG/root/$f" ] || missing="$missing $f"; done
	[ -z "$missing" ] || { echo "missing:$missing"; return 1; }
}
res "ore-tools: /usr/sbin/{mkfs.exofs,fsck.exofs,oreblk}, man pages, udev rule, units" expect \
	usr/sbin/mkfs.exofs usr/sbin/fsck.exofs usr/sbin/oreblk \
	usr/share/man/man8/mkfs.exofs.8.gz usr/share/man/man8/fsck.exofs.8.gz \
	usr/share/man/man8/oreblk.8.gz usr/share/man/man5/exofs.5.gz \
	lib/udev/rules.d/64-oreblk.rules lib/systemd/system/oreblk-monitor.service \
	lib/systemd/system/oreblk-assemble.service usr/share/doc/ore-tools/copyright
res "ore-dkms: /usr/src/ore-$VERSION with dkms.conf (version filled in), Kbuild, ore/ exofs/ oreblk/ include/" \
	sh -c "cd $PKG/root/usr/src/ore-$VERSION && [ -d ore ] && [ -d exofs ] && [ -d oreblk ] && [ -d include ] &&
	       [ -f Kbuild ] && grep -q '^PACKAGE_VERSION=\"$VERSION\"' dkms.conf"
res "ore-dkms ships no test or benchmark modules and no build products" \
	sh -c "cd $PKG/root/usr/src/ore-$VERSION && [ ! -e tests ] && [ ! -e bench ] &&
	       [ -z \"\$(find . -name '*.o' -o -name '*.ko' -o -name '.*.cmd')\" ]"
res "ore-tools' udev rule and units name /usr/sbin/oreblk" \
	sh -c "grep -q '/usr/sbin/oreblk incremental' $PKG/root/lib/udev/rules.d/64-oreblk.rules &&
	       grep -q 'ExecStart=/usr/sbin/oreblk monitor' $PKG/root/lib/systemd/system/oreblk-monitor.service"
res "man pages render without warnings" \
	sh -c "for m in $PKG/root/usr/share/man/man*/*.gz; do
		w=\$(zcat \$m | LC_ALL=C.UTF-8 groff -man -Tutf8 -ww -z 2>&1); [ -z \"\$w\" ] || { echo \"\$m: \$w\"; exit 1; }; done"
res "dkms build -k $KVER (scratch dkms tree) makes ore.ko, exofs.ko, oreblk.ko" \
	sh -c "dkms build -m ore -v $VERSION -k $KVER --dkmstree $PKG/dkms --sourcetree $PKG/root/usr/src &&
	       for m in ore exofs oreblk; do
		f=\$(find $PKG/dkms/ore/$VERSION/$KVER -name \$m.ko\* | head -n 1); [ -n \"\$f\" ] || exit 1
		case \$f in *.xz) xz -dc \$f > $PKG/ko/\$m.ko ;; *.zst) zstd -qdc \$f > $PKG/ko/\$m.ko ;; *) cp \$f $PKG/ko/\$m.ko ;; esac
	       done"
res "the DKMS modules are for $KVER" sh -c \
	"for m in ore exofs oreblk; do modinfo -F vermagic $PKG/ko/\$m.ko | grep -q '^$KVER ' || exit 1; done"
if [ "$F" -gt 0 ]; then
	echo "pkg-check: $P passed, $F failed (host part failed: no guest run)"
	exit 1
fi
# shellcheck disable=SC2086
ORE_PKG_DIR=$PKG qemu/check.sh pkg ${PKG_TESTS-smoke exofs_smoke oreblk}
rc=$?
for t in pkg ${PKG_TESTS-smoke exofs_smoke oreblk}; do
	[ -r "build/results/$t.counts" ] || continue
	# shellcheck disable=SC1090
	. "build/results/$t.counts"
	P=$((P + passed)) F=$((F + failed))
done
echo "pkg-check: $P passed, $F failed"
[ "$rc" = 0 ] && [ "$F" = 0 ]
