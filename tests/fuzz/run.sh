#!/bin/sh
# One fuzz target of the 'fuzz' suite (README.md here).
#
# usage: run.sh HARNESS TARGET MODE REGRESSIONS FINDINGS SEED...
#
# MODE replay (a build without libFuzzer): the kept findings in REGRESSIONS
# and every SEED (file or directory) run once each.
# MODE fuzz (a -Dfuzzing=true build): the kept findings first, then
# libFuzzer for TEOSIM_FUZZ_SECONDS (default 20) from a corpus made of the
# seeds.  The corpus is kept under TEOSIM_FUZZ_CORPUS/TARGET when that is
# set, so that runs add up; a crash is written to FINDINGS/TARGET/.
set -eu
harness=$1 target=$2 mode=$3 regressions=$4 findings=$5
shift 5

# A library's own leaks are not teosim's findings (lsan.supp says which),
# nor is teo-v8's documented array-bounds report (teo/README.md), and an
# allocation too large returns NULL as it would without ASan.
LSAN_OPTIONS=suppressions=$(dirname "$0")/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}
UBSAN_OPTIONS=suppressions=$(dirname "$0")/../../teo/ubsan-teo-v8.supp${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}
ASAN_OPTIONS=allocator_may_return_null=1${ASAN_OPTIONS:+:$ASAN_OPTIONS}
export LSAN_OPTIONS UBSAN_OPTIONS ASAN_OPTIONS

# The kept findings: each must now be read without a crash.
kept=
[ -d "$regressions" ] && kept=$regressions

if [ "$mode" = replay ]; then
	exec "$harness" $kept "$@"
fi

if [ -n "$kept" ]; then
	"$harness" -runs=0 $(find "$kept" -type f | sort)
fi

if [ -n "${TEOSIM_FUZZ_CORPUS:-}" ]; then
	corpus=$TEOSIM_FUZZ_CORPUS/$target
	mkdir -p "$corpus"
	cleanup=
else
	corpus=$(mktemp -d)
	cleanup=$corpus
fi
trap '[ -z "$cleanup" ] || rm -rf "$cleanup"' EXIT
# Seeds are copied in under their content's hash: adding them twice adds nothing.
for seed in "$@"; do
	find "$seed" -type f | while read -r f; do
		cp "$f" "$corpus/seed-$(sha1sum < "$f" | cut -c1-16)"
	done
done

mkdir -p "$findings/$target"
# -timeout: an input that takes seconds is a hang.  -rss_limit_mb: the
# readers' own limits must hold memory far below it.
"$harness" -max_total_time="${TEOSIM_FUZZ_SECONDS:-20}" -timeout=10 -rss_limit_mb=1024 \
	-max_len=16384 -print_final_stats=1 -artifact_prefix="$findings/$target/" \
	"$corpus" || {
	echo "fuzz-$target: a finding is in $findings/$target/; keep it as a" \
	     "regression in tests/fuzz/regressions/$target/ once fixed" >&2
	exit 1
}
# libtracecmd reads a .dat first in a child process, whose crash teosim
# reports as an error; libFuzzer's handlers in that child still write the
# input out.  What teosim itself survives is no finding: drop it.
for artifact in "$findings/$target"/*; do
	[ -f "$artifact" ] || continue
	if "$harness" "$artifact" >/dev/null 2>&1; then
		rm "$artifact"
		echo "fuzz-$target: $(basename "$artifact"): crashed only the reading child: reported as an error"
	fi
done
