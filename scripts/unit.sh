#!/bin/bash
# Run the userspace unit tests (make -C tests/unit check: the pure files of
# docs/sources.md, layout, r4w, the on-disk formats and the pNFS XDR; make -C tools
# check: the userspace ORE library, mkfs.exofs and fsck.exofs) and count their KTAP lines. Log: build/results/unit.log; counts: build/results/unit.counts.
# A failing make with no "not ok" line counts as one failure.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
R=$ROOT/build/results
mkdir -p "$R"
if [ ! -e "$ROOT/tests/unit/Makefile" ]; then
	echo "unit: no tests/unit/Makefile yet, nothing to run"
	rm -f "$R/unit.counts"
	exit 0
fi
make --no-print-directory -C "$ROOT/tests/unit" check 2>&1 | tee "$R/unit.log"
rc=${PIPESTATUS[0]}
make --no-print-directory -C "$ROOT/tools" check 2>&1 | tee -a "$R/unit.log"
[ "${PIPESTATUS[0]}" -eq 0 ] || rc=1
out=$(awk -f "$ROOT/scripts/ktap-count.awk" "$R/unit.log")
read -r _ p f s <<< "$(tail -n 1 <<< "$out")"
if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
	echo "unit: make check in tests/unit or tools failed"
	f=1
fi
printf 'passed=%d\nfailed=%d\nskipped=%d\n' "$p" "$f" "$s" > "$R/unit.counts"
grep '^FAIL' <<< "$out" | sed 's/^/unit: /'
summary="unit: $p passed, $f failed"
[ "$s" -gt 0 ] && summary+=", $s skipped"
echo "$summary"
[ "$f" -eq 0 ]
