#!/bin/sh
# kernel/boot-spread.sh on three made-up boots of one governor, whose
# figures are derived by hand below, and on the inputs it must refuse.
#
# usage: kernel/test-boot-spread.sh
set -eu

script=$(dirname "$0")/boot-spread.sh
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

# report FILE PERIODS TVD_PERIODS TVD_TIME STATE:PERIODS_PCT:TIME_PCT...:
# the lines of a `teosim fidelity` report that the script reads.
report() {
	file=$1 periods=$2 tp=$3 tt=$4
	shift 4
	{
		echo "metric                real  simulated"
		printf 'periods %14d %10d\n' "$periods" "$periods"
		for s in "$@"; do
			echo "$s" | awk -F: '{
				printf "%s_periods_pct %8s %10s\n", $1, $2, $2
				printf "%s_time_pct %8s %10s\n", $1, $3, $3
			}'
		done
		echo "tvd_periods $tp"
		echo "tvd_time $tt"
	} > "$file"
}

# boot N: a paired run of teo-6.1 with families a and b.
boot() {
	run=$dir/boot$1/fidelity-teo-6.1
	mkdir -p "$run"
	printf '1 timers:2:5000\n2 timers:2:50\n' > "$run/items.txt"
	printf 'a      100   target met\nb      100   target met\n' > "$run/families"
}

# Family a, the kernel's shares (periods/time) of POLL and C1:
#   boot 1: 10/1 and 90/99; boot 2: 30/2 and 70/98; boot 3: 12/1.5 and 88/98.5.
# Kernel against kernel, half the sum of the differences:
#   1-2: periods (20 + 20) / 2 = 20 %, time (1 + 1) / 2 = 1 %: out;
#   1-3: periods 2 %, time 0.5 %: within;  2-3: periods 18 %, time 0.5 %: out.
#   Medians 0.18 (of 0.2, 0.02, 0.18) and 0.005 (of 0.01, 0.005, 0.005): 1/3.
# The model against each boot (tvd_periods, tvd_time from the reports):
#   0.02/0.01 (within), 0.08/0.00 (out), 0.01/0.06 (out): medians 0.02 and
#   0.01, 1/3.  The larger TVD of each: kernel 0.2, 0.02, 0.18 (median
#   0.18, 1 of 3 within), model 0.02, 0.08, 0.06 (median 0.06, 1 of 3).
# Family b: boot 2 has 40 periods, fewer than 50, and is left out: one
# pair, 1-3, both all C6 (boot 3 naming C1 at 0 %): TVD 0, within; the
# model 0.03 and 0.07 of periods, 0 of time: median 0.05, 1/2.
for n in 1 2 3; do boot $n; done
report "$dir/boot1/fidelity-teo-6.1/item-1.fidelity" 100 0.02 0.01 POLL:10.00:1.00 C1:90.00:99.00
report "$dir/boot2/fidelity-teo-6.1/item-1.fidelity" 100 0.08 0.00 POLL:30.00:2.00 C1:70.00:98.00
report "$dir/boot3/fidelity-teo-6.1/item-1.fidelity" 100 0.01 0.06 POLL:12.00:1.50 C1:88.00:98.50
report "$dir/boot1/fidelity-teo-6.1/item-2.fidelity" 60 0.03 0.00 C6:100.00:100.00
report "$dir/boot2/fidelity-teo-6.1/item-2.fidelity" 40 0.50 0.50 C6:100.00:100.00
report "$dir/boot3/fidelity-teo-6.1/item-2.fidelity" 80 0.07 0.00 C1:0.00:0.00 C6:100.00:100.00

out=$("$script" "$dir/boot1" "$dir/boot2" "$dir/boot3")
expect() {
	echo "$out" | grep -qxE "$1" || { echo "FAIL: no line matching: $1"; echo "$out"; exit 1; }
}
expect 'a +teo-6\.1 +3 +0\.1800 +0\.0050 +1/3 \| +3 +0\.0200 +0\.0100 +1/3'
expect 'b +teo-6\.1 +1 +0\.0000 +0\.0000 +1/1 \| +2 +0\.0500 +0\.0000 +1/2'
expect 'a +kernel against kernel: median 0\.1800, 1 of 3 pairs within 0\.05; model against kernel: median 0\.0600, 1 of 3 boots within 0\.05'

# What it refuses: one boot, a directory without paired runs, a missing report.
fails() {
	status=0
	msg=$("$script" "$@" 2>&1 >/dev/null) || status=$?
	[ "$status" != 0 ] || { echo "FAIL: $script $* succeeded"; exit 1; }
	echo "$msg" | grep -q "$expected" || { echo "FAIL: $script $*: '$msg', not '$expected'"; exit 1; }
}
expected=usage fails "$dir/boot1"
mkdir "$dir/empty"
expected="no paired runs in $dir/empty" fails "$dir/boot1" "$dir/empty"
rm "$dir/boot3/fidelity-teo-6.1/item-2.fidelity"
expected="no $dir/boot3/fidelity-teo-6.1/item-2.fidelity" fails "$dir/boot1" "$dir/boot3"
echo "PASS"
