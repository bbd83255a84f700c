#!/bin/bash
# Run guest tests with the options tests/guest/CHECK gives them.
#   qemu/check.sh            every test listed in tests/guest/CHECK
#   qemu/check.sh NAME...    those tests (options from CHECK when listed)
# Extra qemu/run.sh options can come in RUN_OPTS. Exit status non-zero when
# any test failed; the counts are in build/results/NAME.counts.
# CHECK_JOBS guests run at once (default: the number of CPUs): a test guest
# runs all its vCPUs in one host thread (qemu/run.sh), so one guest keeps
# one CPU busy. Each test's lines are printed when it ends.
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

JOBS=${CHECK_JOBS:-$(nproc 2>/dev/null || echo 1)}
[ "$JOBS" -ge 1 ] 2>/dev/null || JOBS=1
OUT=$ROOT/build/results/out
mkdir -p "$OUT"

# run_one LINE: one test, its output kept in $OUT/NAME until it ends
run_one() {
	local name c
	# shellcheck disable=SC2086
	set -- $1
	name=$1; shift
	c=$ROOT/build/results/$name.counts
	rm -f "$c"
	"$ROOT/qemu/run.sh" "$@" ${RUN_OPTS:-} "$name" > "$OUT/$name" 2>&1
	local status=$?
	if [ ! -e "$c" ]; then	# run.sh gave up before booting: one failure
		printf 'passed=0\nfailed=1\nskipped=0\n' > "$c"
	fi
	cat "$OUT/$name"
	return $status
}

rc=0 P=0 F=0 S=0 running=0
for line in "${runs[@]}"; do
	if [ "$running" -ge "$JOBS" ]; then
		wait -n || rc=1
		running=$((running - 1))
	fi
	run_one "$line" &
	running=$((running + 1))
done
while [ "$running" -gt 0 ]; do
	wait -n || rc=1
	running=$((running - 1))
done
for line in "${runs[@]}"; do
	# shellcheck disable=SC2086
	set -- $line
	passed=0 failed=0 skipped=0
	. "$ROOT/build/results/$1.counts"
	P=$((P + passed)) F=$((F + failed)) S=$((S + skipped))
done
rm -rf "$OUT"
# Named tests (make guest): close with their total. make check sums all
# parts itself (scripts/summary.sh).
if [ ${#names[@]} -gt 0 ]; then
	line="$P passed, $F failed"
	[ "$S" -gt 0 ] && line+=", $S skipped"
	echo "$line"
fi
exit $rc
