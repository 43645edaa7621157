#!/bin/sh
# teosim diff over several traces and scenarios, as a governor change's
# regression run: each trace's diff as when run alone, a summary whose
# counts are those diffs' and whose scores are 'teosim compare''s, and the
# exit status 0 (nothing differs), 1 (something does), 2 (bad input).
#
# usage: diff-cli.sh TEOSIM TRACES
set -u
teosim=$1
traces=$2

. "$(dirname "$0")/expect.sh"
expect_streams="err out"

t1=$traces/example.trace t2=$traces/io-heavy.trace scenario=$traces/scenarios/ipi-pingpong.scenario

# The expected values, from the one-trace diff and from compare.
differ_alone() {
	"$teosim" diff -g teo-6.1,teo-6.12 -p skx "$1" | sed -n 's/^selects: \([0-9]*\), decided differently: \([0-9]*\) .*/\1 \2/p'
}
score() { # TRACE GOVERNOR METRIC
	"$teosim" compare -g teo-6.1,teo-6.12 -p skx -f csv "$1" |
		awk -F, -v g="$2" -v m="$3" '$2 == g && $3 == "all" && $4 == "" && $5 == m { print $6 }'
}

"$teosim" diff -g teo-6.1,teo-6.12 -p skx "$t1" "$scenario" "$t2" > "$work/several"
status=$?
expect 0 "" test "$status" -eq 1
for t in "$t1" "$t2"; do
	set -- $(differ_alone "$t")
	row=$(awk -v t="$t" '$1 == t' "$work/several")
	expect 0 "" test "$(echo "$row" | awk '{ print $2, $3 }')" = "$1 $2"
	for metric in above_pct below_pct energy_mj; do
		want="$(score "$t" teo-6.1 "$metric") -> $(score "$t" teo-6.12 "$metric")"
		expect 0 "" sh -c 'echo "$1" | grep -qF -- "$2"' - "$row" "$want"
	done
done
# A scenario is the trace 'teosim gen' makes of it with the seed.
"$teosim" gen "$scenario" --seed 1 -o "$work/generated.trace"
set -- $(differ_alone "$work/generated.trace")
expect 0 "" test "$(awk -v t="$scenario" '$1 == t { print $2, $3 }' "$work/several")" = "$1 $2"
"$teosim" gen "$scenario" --seed 7 -o "$work/seed7.trace"
set -- $(differ_alone "$work/seed7.trace")
expect 1 "^$scenario  *$1  *$2 " "$teosim" diff -g teo-6.1,teo-6.12 -p skx --seed 7 "$scenario" "$t1"
# The per-trace reports come first, each as when run alone.
"$teosim" diff -g teo-6.1,teo-6.12 -p skx "$t1" > "$work/alone"
expect 0 "" sh -c 'head -n "$(wc -l < "$1")" "$2" | cmp - "$1"' - "$work/alone" "$work/several"

expect 0 "example.trace  *[0-9]*  *0  *0.00 " "$teosim" diff -g teo-6.1,teo-6.1 -p skx "$t1" "$t2"
expect 2 "--plot draws one trace" "$teosim" diff -g teo-6.1,teo-6.12 -p skx --plot "$work/p" "$t1" "$t2"
expect 2 "missing.scenario: No such file" "$teosim" diff -g teo-6.1,teo-6.12 -p skx "$t1" "$work/missing.scenario"
expect 2 "--seed -1: 0 to 4294967295" "$teosim" diff -g teo-6.1,teo-6.12 -p skx --seed -1 "$scenario"
expect 2 "names no platform" "$teosim" diff -g teo-6.1,teo-6.12 "$scenario"
[ -z "$(find "${TMPDIR:-/tmp}" -maxdepth 1 -name 'teosim-diff-*.trace' -newer "$work/several" 2>/dev/null)" ] ||
	expect 0 "" false "temporary traces left behind"
exit "$failures"
