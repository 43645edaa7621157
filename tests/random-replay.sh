#!/bin/sh
# A random log of 100,000 select/reflect pairs on 4 CPUs goes through every
# governor twice with identical output; the decisions written back into the
# log pass --check; one altered decision fails it, naming its line.
#
# usage: random-replay.sh TEOSIM
set -eu
teosim=$1

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$teosim" random-calls --seed 7 --selects 100000 --cpus 4 > "$work/calls"
"$teosim" random-calls --seed 7 --selects 100000 --cpus 4 | cmp - "$work/calls"

"$teosim" governors | tail -n +2 | cut -d' ' -f1 > "$work/governors"
while read -r governor; do
	"$teosim" replay --governor "$governor" "$work/calls" > "$work/first"
	"$teosim" replay --governor "$governor" "$work/calls" > "$work/second"
	cmp "$work/first" "$work/second"
	selects=$(grep -c '^decision ' "$work/first")
	[ "$selects" -eq 100000 ] || { echo "$governor: $selects decisions"; exit 1; }

	# Write each decision into its select line, by line number.
	awk 'NR == FNR { if ($1 == "decision") { split($2, l, "="); split($4, s, "=");
			 split($5, t, "="); d[l[2]] = " state=" s[2] " stop_tick=" t[2] } next }
	     { print $0 (FNR in d ? d[FNR] : "") }' "$work/first" "$work/calls" > "$work/recorded"
	"$teosim" replay --governor "$governor" --check --quiet "$work/recorded" 2> "$work/check"
	grep -q "100000 of 100000 decisions compared, all identical" "$work/check"

	# Flip the recorded stop_tick of the 5000th select: --check must fail there.
	line=$(grep -n '^select' "$work/recorded" | sed -n 5000p | cut -d: -f1)
	awk -v n="$line" 'NR == n { sub(/stop_tick=0$/, "stop_tick=X"); sub(/stop_tick=1$/, "stop_tick=0");
			  sub(/stop_tick=X$/, "stop_tick=1") } { print }' "$work/recorded" > "$work/altered"
	if "$teosim" replay --governor "$governor" --check --quiet "$work/altered" 2> "$work/check"; then
		echo "$governor: --check accepted an altered decision"
		exit 1
	fi
	grep -q ":$line: $governor decided state=" "$work/check" || { cat "$work/check"; exit 1; }
	echo "ok: $governor, $selects decisions, deterministic, --check round trip"
done < "$work/governors"
