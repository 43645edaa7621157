#!/bin/sh
# The bundled sweep's report in docs/bundled-sweep/ is what teosim writes
# now: report.md, results.csv, phases.csv, the cell tables and (where
# gnuplot is installed) the SVG figures.  A change that moves a figure
# must redraw it: run this script with --update.
#
# usage: bundled-sweep.sh TEOSIM SOURCE_ROOT [--update]
set -eu
teosim=$(realpath "$1")
root=$(realpath "$2")
docs=$root/docs/bundled-sweep
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The sweep takes every built-in governor: a build without all kernel sources has fewer.
if [ "$("$teosim" governors | awk 'NR > 1' | wc -l)" -ne 7 ]; then
	echo "skip: this teosim lacks some of the 7 built-in governors"
	exit 77
fi
"$teosim" sweep "$root/traces/sweeps/bundled.sweep" -o "$work/out"

kept="report.md results.csv phases.csv cells"
if command -v gnuplot > /dev/null; then
	mkdir "$work/svg"
	cp "$work"/out/figures/*.svg "$work/svg/"
	figures=yes
else
	echo "note: gnuplot is not installed: the figures are not compared"
	figures=
fi

if [ "${3:-}" = --update ]; then
	[ -n "$figures" ] || { echo "FAIL: --update needs gnuplot"; exit 1; }
	rm -rf "$docs/cells" "$docs/figures"
	mkdir -p "$docs/figures"
	for f in $kept; do cp -r "$work/out/$f" "$docs/"; done
	cp "$work"/svg/*.svg "$docs/figures/"
	echo "updated $docs"
	exit 0
fi

for f in $kept; do
	diff -r "$docs/$f" "$work/out/$f" > "$work/diff" || {
		head -20 "$work/diff"
		echo "FAIL: docs/bundled-sweep/$f is not what teosim writes now (run $0 TEOSIM ROOT --update)"
		exit 1
	}
done
if [ -n "$figures" ]; then
	diff -r "$docs/figures" "$work/svg" > /dev/null || {
		echo "FAIL: docs/bundled-sweep/figures/ are not what teosim draws now"
		exit 1
	}
fi
echo "ok: docs/bundled-sweep is what teosim sweep writes now"
