#!/bin/bash
# Run guest tests with the options tests/guest/CHECK gives them.
#   qemu/check.sh            every test listed in tests/guest/CHECK
#   qemu/check.sh NAME...    those tests (options from CHECK when listed)
# Extra qemu/run.sh options can come in RUN_OPTS. Exit status non-zero when
# any test failed; the counts are in build/results/NAME.counts.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
LIST=$ROOT/tests/guest/CHECK

# Lines of CHECK without comments and blank lines.
entries() { sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$LIST" 2>/dev/null; }

names=("$@")
if [ $# -eq 0 ]; then
	mapfile -t runs < <(entries)
else
	runs=()
	for t in "$@"; do
		t=${t%.sh}; t=${t##*/}
		line=$(entries | awk -v t="$t" '$1 == t { print; exit }')
		runs+=("${line:-$t}")
	done
fi

rc=0 P=0 F=0 S=0
for line in "${runs[@]}"; do
	# shellcheck disable=SC2086
	set -- $line
	name=$1; shift
	c=$ROOT/build/results/$name.counts
	rm -f "$c"
	"$ROOT/qemu/run.sh" "$@" ${RUN_OPTS:-} "$name" || rc=1
	if [ ! -e "$c" ]; then	# run.sh gave up before booting: one failure
		mkdir -p "$ROOT/build/results"
		printf 'passed=0\nfailed=1\nskipped=0\n' > "$c"
	fi
	. "$c"
	P=$((P + passed)) F=$((F + failed)) S=$((S + skipped))
done
# Named tests (make guest): close with their total. make check sums all
# parts itself (scripts/summary.sh).
if [ ${#names[@]} -gt 0 ]; then
	line="$P passed, $F failed"
	[ "$S" -gt 0 ] && line+=", $S skipped"
	echo "$line"
fi
exit $rc
