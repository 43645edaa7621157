#!/bin/sh
# The figures of 'teosim compare --plot' and 'teosim diff --plot': gnuplot
# (the real program) renders every one as PNG and SVG of the promised
# size, and the numbers in the data files are the ones the scores report:
# per state, good + above + below is the kernel's usage count and above and
# below are its counters; the agreement in the title is optimal_pct.
#
# usage: plot-cli.sh TEOSIM TRACE
set -eu
teosim=$1 trace=$2

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$teosim" compare --governors teo-6.1,menu-6.12 --platform skx -f csv \
	--plot "$work/fig" "$trace" > "$work/scores.csv"

for governor in teo-6.1 menu-6.12; do
	for figure in decisions idle-histogram timeline; do
		for ext in dat gp png svg; do
			[ -s "$work/fig/$figure-$governor.$ext" ] ||
				{ echo "missing $figure-$governor.$ext"; exit 1; }
		done
	done
	# Every state's row against the CSV's totals over all CPUs.
	while read -r state good above below; do
		case $state in \#*) continue ;; esac
		value() {
			awk -F, -v g="$governor" -v s="$state" -v m="$1" \
				'$2 == g && $3 == "all" && $4 == s && $5 == m { print $6 }' "$work/scores.csv"
		}
		usage=$(value usage)
		[ "$((good + above + below))" -eq "$usage" ] ||
			{ echo "$governor $state: $good + $above + $below != usage $usage"; exit 1; }
		[ "$above" -eq "$(value above)" ] || { echo "$governor $state: above differs"; exit 1; }
		[ "$below" -eq "$(value below)" ] || { echo "$governor $state: below differs"; exit 1; }
	done < "$work/fig/decisions-$governor.dat"
	optimal=$(awk -F, -v g="$governor" '$2 == g && $3 == "all" && $5 == "optimal_pct" { print $6 }' \
		"$work/scores.csv")
	grep -q "agreement with the hindsight-optimal state: $optimal %" "$work/fig/decisions-$governor.gp" ||
		{ echo "$governor: the title does not say $optimal %"; exit 1; }
	echo "ok: $governor figures match its scores"
done

"$teosim" diff --governors teo-6.1,teo-6.12 --platform skx --plot "$work/diff" "$trace" \
	> "$work/diff.txt" || [ $? -eq 1 ]
selects=$(sed -n 's/^selects: \([0-9]*\),.*/\1/p' "$work/diff.txt")
total=$(awk '!/^#/ { for (i = 1; i <= NF; i++) n += $i } END { print n }' "$work/fig/../diff/diff-matrix.dat")
[ "$selects" -eq "$total" ] || { echo "diff matrix holds $total decisions, diff says $selects"; exit 1; }

# PNG: signature and IHDR size; SVG: a complete document of that size.
for f in "$work"/fig/*.png "$work"/diff/*.png; do
	[ "$(od -An -tx1 -N8 "$f" | tr -d ' \n')" = 89504e470d0a1a0a ] || { echo "$f: not PNG"; exit 1; }
	[ "$(od -An -tu1 -j16 -N8 "$f" | tr -s ' ' | sed 's/^ //')" = "0 0 3 192 0 0 2 88" ] ||
		{ echo "$f: not 960x600"; exit 1; }
done
for f in "$work"/fig/*.svg "$work"/diff/*.svg; do
	grep -q 'width="960" height="600"' "$f" && grep -q '</svg>' "$f" || { echo "$f: bad SVG"; exit 1; }
done
echo "ok: $(ls "$work"/fig/*.png "$work"/diff/*.png | wc -l) PNG and SVG figures rendered"
