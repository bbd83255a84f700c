#!/bin/bash
# Host test (KTAP, run by `make -C tools check`): the exofs on-disk format
# is byte-for-byte what it was before the format code moved into
# exofs/format.c (COMPAT_REV of tools/Makefile, built by `make -C tools
# compat-tools` into ../build/compat/REV/). For each layout, mkfs.exofs of
# COMPAT_REV and this mkfs.exofs --lazy-components --consistency-policy
# none (the format changes since: without them mkfs sets
# EXOFS_FEATURE_RO_COMPAT_COMPONENTS and EXOFS_FEATURE_RO_COMPAT_SIZED
# (still writing every component of the objects it makes, and the root's
# record with its i_made) and, with
# redundancy, EXOFS_FEATURE_RO_COMPAT_INTENT and
# EXOFS_FEATURE_RO_COMPAT_CSUM, with s_csum_type, once padding, set, the
# checksum heads (the extended
# attribute user.ore.csum of object files) and "<oid>.csum" side files,
# the only files an old mkfs did not write),
# both made deterministic by detrand.so (random bytes and time), write
# identical stores; this fsck.exofs passes
# the old image and the old fsck.exofs the new one. Skipped when the
# commit or its build is not there (a tarball without history).
# tests/guest/format_compat.sh does the same with what the old modules
# wrote. Exits non-zero when any test failed.
cd "$(dirname "$0")" || exit 1
REV=$(sed -n 's/^COMPAT_REV ?= //p' Makefile)
OLD=../build/compat/$REV
SHIM=$(realpath ../build/compat/detrand.so 2>/dev/null)
LAYOUTS=(
	"2|--raid 0"
	"4|--raid 5 --stripe-unit 4K --max-inodes 4096"
	"5|--raid 6 --stripe-unit 8K --group-depth 3 -L compat"
	"3|--raid 1 --mirrors 3"
	"8|--raid 4 --group-count 2 --mirrors 2 --stripe-unit 16K"
)
echo "KTAP version 1"
echo "1..$((4 * ${#LAYOUTS[@]}))"
if [ ! -x "$OLD/mkfs.exofs" ] || [ ! -x "$OLD/fsck.exofs" ] || [ -z "$SHIM" ]; then
	for i in $(seq 1 $((4 * ${#LAYOUTS[@]}))); do
		echo "ok $i # SKIP no build of $REV in $OLD (make -C tools compat-tools)"
	done
	exit 0
fi
T=$(mktemp -d /tmp/test_compat.XXXXXX)
trap 'rm -rf "$T"' EXIT
N=0 FAILED=0
ok() { N=$((N + 1)); echo "ok $N $1"; }
not_ok() { N=$((N + 1)); FAILED=$((FAILED + 1)); echo "not ok $N $1"; shift; for l in "$@"; do echo "# $l"; done; }

# nheads DIR: the object files under DIR with a checksum head (diff -r
# does not compare extended attributes)
nheads() {
	local f n=0
	for f in $(find "$1" -type f ! -name '*.csum'); do
		../tests/tools/fsop xattr get "$f" user.ore.csum > /dev/null &&
			n=$((n + 1))
	done
	echo $n
}

# stores DIR N: "DIR/s0 ... DIR/sN-1", made
stores() {
	local i s=""
	for ((i = 0; i < $2; i++)); do mkdir -p "$1/s$i"; s="$s $1/s$i"; done
	echo $s
}

for l in "${LAYOUTS[@]}"; do
	n=${l%%|*} opts=${l#*|}
	rm -rf "$T"/old "$T"/new
	so=$(stores "$T/old" "$n") sn=$(stores "$T/new" "$n")
	uuid=-U12345678-9abc-4def-8123-456789abcdef
	if ! out=$(LD_PRELOAD=$SHIM "$OLD/mkfs.exofs" -q $opts $uuid $so 2>&1) ||
	   ! out=$(LD_PRELOAD=$SHIM ./mkfs.exofs -q --lazy-components --consistency-policy none $opts $uuid $sn 2>&1); then
		not_ok "$opts: mkfs of $REV and of now write the same bytes" "$out"
	elif d=$(diff -r "$T/old" "$T/new" 2>&1) &&
	     [ "$(cd "$T/old" && find . | sort)" = "$(cd "$T/new" && find . | sort)" ] &&
	     d="$(nheads "$T/new") object files with a checksum head" &&
	     [ "$(nheads "$T/new")" = 0 ]; then
		ok "$opts: mkfs of $REV and of now write the same bytes ($(find "$T/new" -type f | wc -l) files)"
	else
		not_ok "$opts: mkfs of $REV and of now write the same bytes" "$d"
	fi
	if out=$(./fsck.exofs --strict $so 2>&1); then
		ok "$opts: fsck.exofs passes the image of $REV's mkfs"
	else
		not_ok "$opts: fsck.exofs passes the image of $REV's mkfs" "$(tail -n 5 <<< "$out")"
	fi
	if out=$("$OLD/fsck.exofs" --strict $sn 2>&1); then
		ok "$opts: $REV's fsck.exofs passes the image of this mkfs"
	else
		not_ok "$opts: $REV's fsck.exofs passes the image of this mkfs" "$(tail -n 5 <<< "$out")"
	fi
	# without --lazy-components: the COMPONENTS and SIZED bits, the same
	# objects (mkfs writes every component of them);
	# with redundancy also checksums: their entries in heads (mkfs's
	# objects are small: no side file beside them), none without
	rm -rf "$T"/new
	sn=$(stores "$T/new" "$n")
	if out=$(LD_PRELOAD=$SHIM ./mkfs.exofs -q $opts $uuid $sn 2>&1) &&
	   out=$(./fsck.exofs --strict $sn 2>&1) &&
	   [ "$(cd "$T/old" && find . | sort)" = "$(cd "$T/new" && find . | grep -v '\.csum$' | sort)" ]; then
		nside=$(find "$T/new" -name '*.csum' | wc -l)
		nhead=$(nheads "$T/new")
		if [ "$opts" = "--raid 0" ] && [ "$nhead$nside" != 00 ]; then
			not_ok "$opts: this mkfs with the COMPONENTS feature: the same objects, fsck.exofs passes" "$nhead heads, $nside side files without redundancy"
		elif [ "$opts" != "--raid 0" ] && [ "$nhead" = 0 ]; then
			not_ok "$opts: this mkfs with the COMPONENTS feature: the same objects, fsck.exofs passes" "no checksum heads with redundancy"
		else
			ok "$opts: this mkfs with the COMPONENTS feature: the same objects ($nhead checksum heads, $nside side files), fsck.exofs passes"
		fi
	else
		not_ok "$opts: this mkfs with the COMPONENTS feature: the same objects, fsck.exofs passes" "$(tail -n 5 <<< "$out")"
	fi
done
echo "# test_compat: $((N - FAILED)) passed, $FAILED failed"
[ "$FAILED" -eq 0 ]
