#!/bin/sh
# The bundled sweep's speed and memory (meson benchmark 'sweep-speed'):
# wall time on 1 and 2 threads (the median of three runs each), the
# speedup, cells per second, and the peak resident size, also for a sweep
# of four times the cells (HZ 250 and 1000, with and without a latency
# limit), and for one of forty times the settings (4 HZ values, 10
# latency limits) with one seed: the peak must stay as flat as the blocks
# and the summary's windows make it.
#
# usage: bench-sweep.sh TEOSIM SOURCE_ROOT
set -eu
teosim=$(realpath "$1")
sweep=$(realpath "$2")/traces/sweeps/bundled.sweep
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
timer=/usr/bin/time
[ -x "$timer" ] || { echo "bench-sweep: needs GNU time (/usr/bin/time, Debian package time)"; exit 77; }

# run THREADS SWEEPFILE: prints "seconds peak-KiB cells"
run() {
	rm -rf "$work/out"
	"$timer" -f '%e %M' -o "$work/time" "$teosim" sweep "$2" -o "$work/out" -j "$1" 2> /dev/null
	echo "$(cat "$work/time") $(($(wc -l < "$work/out/results.csv") - 1))"
}
median3() { sort -n | sed -n 2p; }

for j in 1 2; do
	for k in 1 2 3; do run $j "$sweep"; done > "$work/runs-$j"
done
cells=$(awk '{ print $3; exit }' "$work/runs-1")
t1=$(awk '{ print $1 }' "$work/runs-1" | median3)
t2=$(awk '{ print $1 }' "$work/runs-2" | median3)
rss1=$(awk '{ print $2 }' "$work/runs-1" | median3)
rss2=$(awk '{ print $2 }' "$work/runs-2" | median3)
sed -e 's/^hz=250$/hz=250,1000/' -e '$a latency_limits_us=none,20' "$sweep" > "$work/four.sweep"
sed -e 's/^seeds=.*/seeds=1/' -e 's/^hz=250$/hz=100,250,300,1000/' \
	-e '$a latency_limits_us=none,1,2,5,10,20,50,100,200,500' "$sweep" > "$work/forty.sweep"
set -- $(run 2 "$work/forty.sweep")
forty="$*"
set -- $(run 2 "$work/four.sweep")
echo "bundled sweep: $cells cells; medians of 3 runs"
awk -v c="$cells" -v t1="$t1" -v t2="$t2" -v r1="$rss1" -v r2="$rss2" 'BEGIN {
	printf "  1 thread:  %6.2f s, %6.0f cells/s, peak RSS %6.1f MiB\n", t1, c / t1, r1 / 1024
	printf "  2 threads: %6.2f s, %6.0f cells/s, peak RSS %6.1f MiB\n", t2, c / t2, r2 / 1024
	printf "  speedup 1 -> 2 threads: %.2f\n", t1 / t2
}'
awk -v c="$3" -v t="$1" -v r="$2" 'BEGIN {
	printf "four times the settings: %d cells, 2 threads: %.2f s, %.0f cells/s, peak RSS %.1f MiB\n",
		c, t, c / t, r / 1024
}'
set -- $forty
awk -v c="$3" -v t="$1" -v r="$2" 'BEGIN {
	printf "forty times the settings, one seed: %d cells, 2 threads: %.2f s, %.0f cells/s, peak RSS %.1f MiB\n",
		c, t, c / t, r / 1024
}'
