#!/bin/sh
# The finding in teo-v8's unmodified source: teo_update() stores an idle
# interval at intervals[INTERVALS], one past the array, every ninth update
# (it wraps the index only once it exceeds INTERVALS).  Under
# -fsanitize=bounds-strict the store must be reported at that line, and
# nowhere else.  Skipped when UBSan is not built in.
#
# usage: sanitizer-finding-teo-v8.sh TEOSIM SANITIZE TEO_V8_SOURCE
set -eu
teosim=$1 sanitize=$2 source=$3

case $sanitize in
*undefined*) ;;
*) echo "UBSan not built in (b_sanitize=$sanitize)"; exit 77 ;;
esac

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The store, found in the file itself rather than by a remembered number.
line=$(grep -n 'cpu_data->intervals\[cpu_data->interval_idx++\] = measured_us;' "$source" | cut -d: -f1)
[ -n "$line" ] || { echo "the store is not in $source"; exit 1; }

# Nine selects on one CPU: updates 1-8 fill intervals[0..7], update 9 writes [8].
"$teosim" random-calls --seed 3 --selects 9 --cpus 1 > "$work/calls"
UBSAN_OPTIONS=halt_on_error=0:print_stacktrace=0 \
	"$teosim" replay --governor teo-v8 --quiet "$work/calls" 2> "$work/report"
cat "$work/report"
grep -q "teo/v8/teo.c:$line:[0-9]*: runtime error: index 8 out of bounds for type 'unsigned int \[8\]'" "$work/report"
[ "$(grep -c 'runtime error' "$work/report")" -eq 1 ]

# Eight selects stay in bounds: no report at all.
"$teosim" random-calls --seed 3 --selects 8 --cpus 1 > "$work/calls"
UBSAN_OPTIONS=halt_on_error=0:print_stacktrace=0 \
	"$teosim" replay --governor teo-v8 --quiet "$work/calls" 2> "$work/report"
! grep -q 'runtime error' "$work/report"
