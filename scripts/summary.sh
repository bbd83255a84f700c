#!/bin/bash
# Sum build/results/*.counts into the closing line "N passed, N failed" (with
# ", N skipped" when any were skipped). Extra failures can be added with
# --fail N (a build step that failed). Exit status 1 when anything failed.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
P=0 F=0 S=0
[ "${1:-}" = --fail ] && F=$2
for c in "$ROOT"/build/results/*.counts; do
	[ -e "$c" ] || continue
	passed=0 failed=0 skipped=0
	. "$c"
	P=$((P + passed)) F=$((F + failed)) S=$((S + skipped))
done
line="$P passed, $F failed"
[ "$S" -gt 0 ] && line+=", $S skipped"
echo "$line"
[ "$F" -eq 0 ]
