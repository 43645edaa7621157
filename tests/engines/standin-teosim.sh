#!/bin/sh
# A stand-in for 'teosim sweep', to prove the engine scripts (Slurm job
# arrays, GNU parallel) before the real command exists, and to keep
# proving them without depending on it.  Same command line:
#
#   standin-teosim.sh sweep SWEEPFILE -o OUTDIR [-j N]
#   standin-teosim.sh sweep SWEEPFILE -o SHARDDIR --shard K/N
#   standin-teosim.sh sweep SWEEPFILE -o OUTDIR --merge SHARDDIR...
#
# Every line of SWEEPFILE that is neither blank nor a '#' comment is a
# point, numbered from 0; point I belongs to shard I mod N.  A point's
# result is a CSV row "I,cksum of the line,the line".  The whole sweep
# writes OUTDIR/results.csv and OUTDIR/report; a shard writes the rows of
# its points and SHARDDIR/shard ("K/N"); a merge checks that the shard
# directories are the shards 0..N-1 of one N, each once, in any order, and
# writes the same bytes as the whole sweep.  STANDIN_SLEEP=SECONDS makes
# each invocation sleep first, so that a test can see shards overlap.
set -u

die() {
	echo "standin-teosim: $1" >&2
	exit "${2:-1}"
}

[ "${1:-}" = sweep ] || die "usage: $0 sweep SWEEPFILE -o OUTDIR [-j N] [--shard K/N | --merge SHARDDIR...]" 2
shift
[ $# -ge 1 ] || die "sweep: no SWEEPFILE" 2
sweep=$1
shift
out='' shard='' merge=''
while [ $# -gt 0 ]; do
	case $1 in
	-o) [ $# -ge 2 ] || die "-o: no directory" 2; out=$2; shift 2 ;;
	-j) [ $# -ge 2 ] || die "-j: no count" 2; shift 2 ;;
	--shard) [ $# -ge 2 ] || die "--shard: no K/N" 2; shard=$2; shift 2 ;;
	--merge) merge=yes; shift; break ;;
	*) die "unknown argument: $1" 2 ;;
	esac
done
[ -n "$out" ] || die "sweep: no -o OUTDIR" 2
[ -r "$sweep" ] || die "cannot read $sweep"
[ -z "$shard" ] || [ -z "$merge" ] || die "--shard and --merge together" 2

sleep "${STANDIN_SLEEP:-0}"

# rows [K N]: the result rows of every point, or of shard K of N.
rows() {
	grep -v -e '^[[:space:]]*$' -e '^[[:space:]]*#' "$sweep" |
		awk '{ print NR - 1 "\t" $0 }' |
		while IFS="$(printf '\t')" read -r i line; do
			if [ $# -eq 0 ] || [ $((i % $2)) -eq "$1" ]; then
				echo "$i,$(printf '%s' "$line" | cksum | cut -d ' ' -f 1),$line"
			fi
		done
}

finish() { # writes OUT/results.csv from standard input, and OUT/report
	{ echo "point,cksum,line"; cat; } > "$out/results.csv" || exit 1
	echo "$(($(wc -l < "$out/results.csv") - 1)) points of $sweep" > "$out/report"
}

mkdir -p "$out" || exit 1
if [ -n "$shard" ]; then
	k=${shard%/*} n=${shard#*/}
	case $k/$n in
	*[!0-9/]* | /* | */) die "--shard $shard: not K/N" 2 ;;
	esac
	[ "$k" -lt "$n" ] || die "--shard $shard: K must be less than N" 2
	rows "$k" "$n" > "$out/rows" || exit 1
	echo "$k/$n" > "$out/shard"
elif [ -n "$merge" ]; then
	[ $# -ge 1 ] || die "--merge: no shard directory" 2
	n=
	seen=
	for d; do
		[ -r "$d/shard" ] || die "$d: not a shard directory"
		kn=$(cat "$d/shard")
		[ -z "$n" ] || [ "${kn#*/}" = "$n" ] || die "$d: shard $kn, the others are of $n"
		n=${kn#*/}
		case " $seen " in
		*" ${kn%/*} "*) die "$d: shard $kn given twice" ;;
		esac
		seen="$seen ${kn%/*}"
	done
	[ $# -eq "$n" ] || die "--merge: $# shard directories, the shards are of $n"
	for d; do cat "$d/rows"; done | sort -t , -k 1,1n | finish
else
	rows | finish
fi
