#!/bin/sh
# A teosim sweep split into shards by a Slurm job array gives the same
# bytes as the whole sweep run at once, on a one-node Slurm cluster that
# this test starts on the machine (slurm-one-node.sh) and always stops.
#
# usage: sweep-slurm.sh TEOSIM SWEEPFILE [WORKDIR]
#
# TEOSIM is the teosim binary.  The jobs run examples/slurm/sweep.sbatch,
# the script users submit:
#
#   whole     TEOSIM sweep SWEEPFILE -o whole, here;
#   array     sbatch --array=0-2 --wait sweep.sbatch SWEEPFILE array 3,
#             then the merge here: diff -r whole array/merged;
#   depend    the README's way: the array without --wait, then the merge
#             as a job with --dependency=afterok on it: diff -r whole
#             depend/merged;
#   failing   an array 0-3 for N=3, whose task 3 must fail: sbatch --wait
#             must fail, and the merge that depends on it must be
#             cancelled, not left waiting.  sbatch --wait exits 0 for a job
#             cancelled that way (Slurm 22.05), so job states are read
#             with scontrol.
#
# Results are in WORKDIR (kept) or in a temporary directory (removed).
# The cluster's own directory is always a short one under /tmp (Unix
# socket paths), removed at exit.  Exit 77 (skipped) only when Slurm or
# munge is not installed (Debian: slurmctld slurmd slurm-client munge);
# every other problem is a failure.
set -u

here=$(cd "$(dirname "$0")" && pwd)
sbatch_script=$here/../../examples/slurm/sweep.sbatch
one_node=$here/slurm-one-node.sh

if [ $# -lt 2 ] || [ $# -gt 3 ]; then
	echo "usage: $0 TEOSIM SWEEPFILE [WORKDIR]" >&2
	exit 2
fi
for prog in munged slurmctld slurmd sbatch sinfo squeue scancel; do
	if ! command -v "$prog" >/dev/null 2>&1; then
		echo "SKIP: $prog is not installed (Debian packages: slurmctld slurmd slurm-client munge)"
		exit 77
	fi
done

absolute() {
	case $1 in
	/*) echo "$1" ;;
	*/*) echo "$(pwd)/$1" ;;
	*) command -v "$1" || echo "$1" ;;
	esac
}
teosim=$(absolute "$1")
sweep=$(absolute "$2")
TEOSIM=$teosim
export TEOSIM # read by sweep.sbatch in the jobs

state=
work=
own_work=
cleanup() {
	status=$?
	if [ -n "$state" ]; then
		sh "$one_node" stop "$state" || status=1
		rm -rf "$state"
	fi
	[ -z "$own_work" ] || rm -rf "$work"
	exit $status
}
trap cleanup EXIT
trap 'exit 1' HUP INT TERM

if [ $# -eq 3 ]; then
	work=$(absolute "$3")
	mkdir -p "$work" || exit 1
	rm -rf "$work/whole" "$work/array" "$work/depend" "$work/failing" "$work/failing2" "$work/logs"
else
	work=$(mktemp -d) || exit 1
	own_work=yes
fi
mkdir "$work/logs" || exit 1

passed=0 failed=0
ok() {
	echo "ok: $*"
	passed=$((passed + 1))
}
not_ok() {
	echo "FAIL: $*"
	failed=$((failed + 1))
}
# same NAME: the merged output of NAME is the whole sweep's, byte for byte.
same() {
	if diff -r "$work/whole" "$work/$1/merged"; then
		ok "$1: merged shards = whole sweep"
	else
		not_ok "$1: merged shards differ from the whole sweep"
	fi
}
# job_state JOBID: Slurm's state of a job it still remembers (MinJobAge,
# 300 s: there is no accounting database to ask).
job_state() {
	scontrol show job "$1" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p' | head -n 1
}
logs() {
	for f in "$work/logs"/*; do
		[ -f "$f" ] || continue
		echo "---- $f"
		cat "$f"
	done
}

"$teosim" sweep "$sweep" -o "$work/whole" || { echo "FAIL: the whole sweep: status $?"; exit 1; }

state=$(mktemp -d /tmp/slurm.XXXXXX) || exit 1
started=$(date +%s)
env=$(sh "$one_node" start "$state") || { echo "FAIL: the one-node cluster did not start"; exit 1; }
eval "$env"
echo "ok: one-node cluster up in $(($(date +%s) - started)) s ($SLURM_CONF)"

# array: sbatch --wait, then the merge here.
if timeout --foreground 300 sbatch --wait --array=0-2 -D "$work" -o "$work/logs/array-%A_%a.out" \
	"$sbatch_script" "$sweep" "$work/array" 3 >/dev/null; then
	ok "array: sbatch --array=0-2 --wait"
else
	not_ok "array: sbatch --array=0-2 --wait: status $?"
	logs
fi
for k in 0 1 2; do
	if grep -q "shard $k/3 " "$work"/logs/array-*_$k.out 2>/dev/null; then
		ok "array: task $k ran shard $k/3"
	else
		not_ok "array: no output of task $k"
	fi
done
"$teosim" sweep "$sweep" -o "$work/array/merged" --merge "$work/array/shard-0" "$work/array/shard-1" "$work/array/shard-2" ||
	not_ok "array: the merge failed"
same array

# depend: the array, and the merge as a job that waits for it.
if jobid=$(sbatch --parsable --array=0-2 -D "$work" -o "$work/logs/depend-%A_%a.out" \
	"$sbatch_script" "$sweep" "$work/depend" 3); then
	jobid=${jobid%%;*}
	if merge=$(timeout --foreground 300 sbatch --parsable --wait --dependency=afterok:"$jobid" --kill-on-invalid-dep=yes \
		-D "$work" -o "$work/logs/depend-merge-%j.out" \
		"$sbatch_script" --merge "$sweep" "$work/depend" 3) &&
		[ "$(job_state "${merge%%;*}")" = COMPLETED ]; then
		ok "depend: the merge job after the array ($jobid) completed"
	else
		not_ok "depend: the merge job after the array ($jobid): status $?, state $(job_state "${merge:-none}")"
		logs
	fi
else
	not_ok "depend: sbatch --array=0-2 failed"
fi
same depend

# failing: a task that fails fails sbatch --wait, and the merge that
# depends on the array is cancelled, not left pending.
if timeout --foreground 300 sbatch --wait --array=0-3 -D "$work" -o "$work/logs/failing-%A_%a.out" \
	"$sbatch_script" "$sweep" "$work/failing" 3 >/dev/null; then
	not_ok "failing: sbatch --wait succeeded with task 3 of N=3"
else
	ok "failing: sbatch --wait fails when a task fails"
fi
if grep -q 'the array must be 0-2' "$work"/logs/failing-*_3.out 2>/dev/null; then
	ok "failing: task 3 says why"
else
	not_ok "failing: task 3 does not say that the array must be 0-2"
fi
if jobid=$(sbatch --parsable --array=0-3 -D "$work" -o "$work/logs/failing2-%A_%a.out" \
	"$sbatch_script" "$sweep" "$work/failing2" 3); then
	jobid=${jobid%%;*}
	merge=$(timeout --foreground 300 sbatch --parsable --wait --dependency=afterok:"$jobid" --kill-on-invalid-dep=yes \
		-D "$work" -o "$work/logs/failing-merge-%j.out" \
		"$sbatch_script" --merge "$sweep" "$work/failing2" 3)
	status=$? merge=${merge%%;*}
	jstate=$(job_state "${merge:-none}")
	if [ "$status" -ne 124 ] && [ "$jstate" = CANCELLED ]; then
		ok "failing: the dependent merge is cancelled (sbatch --wait status $status)"
	else
		not_ok "failing: the dependent merge: status $status, state $jstate (want CANCELLED)"
	fi
else
	not_ok "failing: sbatch --array=0-3 failed"
fi
[ ! -e "$work/failing2/merged" ] || not_ok "failing: a merge ran"

echo "sweep-slurm: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
