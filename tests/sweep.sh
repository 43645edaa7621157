#!/bin/sh
# teosim sweep from the command line:
# - the same bytes with 1 and 2 threads, and as 3 shards merged in any order;
# - each cell table is what teosim gen + teosim compare print;
# - the report's means and intervals are the seeds' figures from teosim
#   compare, averaged here with awk and Student's t from a printed table;
# - bad input: an error naming the file, line and field, exit status 1,
#   and no output directory, half-written or clobbered;
# - a sweep ended by a signal dies of it and leaves neither its partial
#   output nor its generated traces.
#
# usage: sweep.sh TEOSIM SOURCE_ROOT
set -eu
teosim=$(realpath "$1")
scenarios=$(realpath "$2")/traces/scenarios
bundled=$(realpath "$2")/traces/sweeps/bundled.sweep
work=$(mktemp -d)
# The sweeps' own messages go to sweeps.err, shown if the test fails.
trap 'status=$?; [ $status -eq 0 ] || { echo "--- the sweeps said:"; tail -n 40 "$work/sweeps.err"; }
      rm -rf "$work"' EXIT
cd "$work"

fail() { echo "FAIL: $*"; exit 1; }

cat > small.sweep <<'EOF'
[sweep]
name=small
governors=teo-6.12,menu-6.12,teo-6.1
platforms=skx,rk3399
scenarios=io-heavy,teo-timers-dominate
seeds=1-3
hz=250,1000
latency_limits_us=none,20
EOF

# ---- the same bytes however it runs ----
"$teosim" sweep small.sweep -o whole -j 1 2>>sweeps.err
"$teosim" sweep small.sweep -o threads -j 2 2>>sweeps.err
diff -r whole threads > /dev/null || fail "-j 1 and -j 2 differ"
for k in 0 1 2; do
	"$teosim" sweep small.sweep -o shard$k --shard $k/3 -j 2 2>>sweeps.err
done
"$teosim" sweep small.sweep -o merged --merge shard2 shard0 shard1 2>>sweeps.err
diff -r whole merged > /dev/null || fail "3 shards merged differ from the whole sweep"
# The summary one (setting, family) unit at a time, and 5 at a time: a
# pass over the cells per window, whole and merged, and the same bytes.
TEOSIM_SWEEP_SUMMARY_UNITS=1 "$teosim" sweep small.sweep -o window1 -j 2 2>>sweeps.err
TEOSIM_SWEEP_SUMMARY_UNITS=5 "$teosim" sweep small.sweep -o window5 \
	--merge shard1 shard2 shard0 2>>sweeps.err
diff -r whole window1 > /dev/null || fail "a summary in 16 windows differs from one window"
diff -r whole window5 > /dev/null || fail "3 shards merged in windows of 5 units differ"
ls -A window1 | grep -q -v -x -e cells -e figures -e phases.csv -e report.html -e report.md \
	-e results.csv -e results.json && fail "a sweep in windows left files behind"
# 2 scenarios x 3 seeds x (2 platforms x 2 HZ x 2 limits) x 3 governors, and a header
[ "$(wc -l < whole/results.csv)" -eq 145 ] || fail "results.csv has $(wc -l < whole/results.csv) lines"
for f in report.md report.html results.json figures/skx-hz1000-lat20.dat \
	 figures/gen-teo-6.12-vs-teo-6.1.dat; do
	[ -s "whole/$f" ] || fail "no $f"
done
echo "ok: -j 1, -j 2, 3 merged shards and the summary in windows give the same bytes"
# The HTML carries its figures: one embedded SVG per setting (8) and per generation pair (1).
if command -v gnuplot > /dev/null; then
	[ "$(grep -c 'src="data:image/svg+xml;base64,' whole/report.html)" -eq 9 ] ||
		fail "report.html does not embed its 9 figures"
	echo "ok: report.html embeds its figures"
fi

# ---- a workload's cells in several blocks (256 cells at most each) ----
cat > blocks.sweep <<'EOF'
[sweep]
name=blocks
governors=all
platforms=all
scenarios=teo-timers-dominate
seeds=1-2
hz=250,1000
EOF
"$teosim" sweep blocks.sweep -o blocks1 -j 1 2>>sweeps.err
"$teosim" sweep blocks.sweep -o blocks2 -j 2 2>>sweeps.err
"$teosim" sweep blocks.sweep -o bshard0 --shard 0/2 2>>sweeps.err
"$teosim" sweep blocks.sweep -o bshard1 --shard 1/2 2>>sweeps.err
"$teosim" sweep blocks.sweep -o bmerged --merge bshard1 bshard0 2>>sweeps.err
[ "$(wc -l < blocks1/results.csv)" -gt 512 ] || fail "the blocks sweep has too few cells"
diff -r blocks1 blocks2 > /dev/null && diff -r blocks1 bmerged > /dev/null ||
	fail "a sweep in blocks differs across -j or shards"
echo "ok: workloads of several blocks give the same bytes"

# ---- phases: every scored period of a cell is in one of its phases ----
awk -F, 'NR == FNR { if (FNR > 1) in_phases[$1","$4","$5","$6","$7] += $9; next }
	FNR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
	{ k = $1","$4","$5","$6","$7; scored = $col["periods"] - $col["unscored"]
	  if (in_phases[k] != scored) { print k, in_phases[k], scored; bad = 1 } }
	END { exit bad }' whole/phases.csv whole/results.csv ||
	fail "phases.csv does not add up to each cell's scored periods"
echo "ok: each cell's phases add up to its scored periods"

# ---- cell tables are teosim compare's ----
"$teosim" gen "$scenarios/io-heavy.scenario" --seed 2 -o io-heavy-seed2.trace
"$teosim" compare -g teo-6.12,menu-6.12,teo-6.1 -p rk3399 --hz 1000 --latency-limit-us 20 \
	io-heavy-seed2.trace > compare.txt
cmp -s compare.txt whole/cells/rk3399-hz1000-lat20/io-heavy-seed2.txt ||
	fail "cell table rk3399-hz1000-lat20/io-heavy-seed2 is not teosim compare's"
echo "ok: a cell table is what teosim compare prints"

# ---- the report's figures from teosim compare's, by hand ----
for seed in 1 2 3; do
	"$teosim" gen "$scenarios/io-heavy.scenario" --seed $seed -o s$seed.trace
	"$teosim" compare -f csv -g teo-6.12,menu-6.12,teo-6.1 -p skx s$seed.trace
done > seeds.csv
# mean and 95% half-width (t with 2 degrees of freedom: 4.303) of each
# governor's energy above optimal, in percent, as the report prints them
awk -F, '$3 == "all" && $5 == "energy_vs_optimal" {
		v = ($6 - 1) * 100; n[$2]++; s[$2] += v; q[$2] += v * v
	}
	END {
		for (g in n) {
			m = s[g] / n[g]; var = (q[g] - n[g] * m * m) / (n[g] - 1)
			if (var < 0) var = 0
			printf "%s %.2f ± %.2f\n", g, m, 4.303 * sqrt(var / n[g])
		}
	}' seeds.csv | sort > by-hand.txt
[ "$(wc -l < by-hand.txt)" -eq 3 ] || fail "teosim compare -f csv gave no energy_vs_optimal rows"
awk '/^#### io-heavy on skx-hz250$/ { on = 1; next } on && /^####/ { exit }
     on && /^\| [0-9]/ { split($0, c, " \\| "); print c[2], c[3] }' whole/report.md |
	sort > report.txt
diff by-hand.txt report.txt > /dev/null ||
	{ diff by-hand.txt report.txt; fail "the report's io-heavy on skx-hz250 differs from teosim compare by hand"; }
echo "ok: the report's means and intervals are teosim compare's seeds averaged"

# ---- bad input ----
expect_error() { # what pattern command...
	what=$1 pattern=$2
	shift 2
	if "$@" > out.txt 2> err.txt; then fail "$what: exit status 0"; fi
	grep -q -- "$pattern" err.txt || { cat err.txt; fail "$what: no '$pattern' in the error"; }
	if ls -d ./*.partial-* > /dev/null 2>&1; then fail "$what: left a partial directory"; fi
}
sed 's/^seeds=1-3$/seeds=3-1/' small.sweep > bad.sweep
expect_error "a reversed seed range" "bad.sweep:6: \[sweep\] seeds" \
	"$teosim" sweep bad.sweep -o bad-out
[ ! -e bad-out ] || fail "a refused sweep made its output"
sed 's/^governors=.*/governors=teo-6.12,nosuch/' small.sweep > bad.sweep
expect_error "an unknown governor" "bad.sweep:3: \[sweep\] governors" \
	"$teosim" sweep bad.sweep -o bad-out
expect_error "an output in use" "whole exists and is not an empty directory" \
	"$teosim" sweep small.sweep -o whole
diff -r whole threads > /dev/null || fail "a refused sweep touched the existing output"
expect_error "a window of no units" "TEOSIM_SWEEP_SUMMARY_UNITS 'none'" \
	env TEOSIM_SWEEP_SUMMARY_UNITS=none "$teosim" sweep small.sweep -o x
expect_error "a shard out of range" "--shard 3/3" "$teosim" sweep small.sweep -o x --shard 3/3
expect_error "a missing shard" "of 3 shards, but 2 were given" \
	"$teosim" sweep small.sweep -o x --merge shard0 shard1
expect_error "a shard twice" "is also" \
	"$teosim" sweep small.sweep -o x --merge shard0 shard1 shard1
head -n 20 shard1/shard.txt > cut.txt && cp cut.txt shard1/shard.txt
expect_error "a truncated shard" "shard1/shard.txt:20: ends before cell" \
	"$teosim" sweep small.sweep -o x --merge shard0 shard1 shard2
sed 's/^hz=.*/hz=250/' small.sweep > other.sweep
expect_error "a shard of another sweep" "a shard of another sweep file" \
	"$teosim" sweep other.sweep -o x --merge shard0 shard1 shard2
[ ! -e x ] || fail "a refused merge made its output"
echo "ok: bad sweep files and shards are refused with file, line and field"

# ---- a signal ----
# GNU parallel's --halt, Slurm's scancel and Ctrl-C end sweeps with a
# signal.  The bundled sweep takes seconds: it is ended once its partial
# output and a generated trace (in its own TMPDIR here) both exist.
mkdir tmp
TMPDIR=$work/tmp "$teosim" sweep "$bundled" -o killed 2>>sweeps.err &
pid=$!
tries=0
until ls -d killed.partial-* > /dev/null 2>&1 &&
      ls tmp/teosim-sweep-*/*.trace > /dev/null 2>&1; do
	tries=$((tries + 1))
	[ $tries -le 400 ] || { kill $pid; fail "no partial output and generated trace in 20 s"; }
	sleep 0.05
done
kill -TERM $pid
status=0
wait $pid || status=$?
[ $status -eq 143 ] || fail "a sweep sent SIGTERM: exit status $status, not 128 + 15"
if ls -d killed* > /dev/null 2>&1; then fail "a sweep ended by SIGTERM left $(ls -d killed*)"; fi
[ -z "$(ls tmp)" ] || fail "a sweep ended by SIGTERM left $(ls tmp) in TMPDIR"
echo "ok: a sweep ended by a signal dies of it and leaves no temporary file"
