#!/bin/sh
# A teosim sweep split into shards run by GNU parallel gives the same bytes
# as the whole sweep run at once.
#
# usage: sweep-parallel.sh TEOSIM SWEEPFILE [WORKDIR]
#
# TEOSIM is the teosim binary.
#
#   whole     TEOSIM sweep SWEEPFILE -o whole;
#   local     parallel over the shards 0, 1 and 2 of N=3 on this machine,
#             then the merge: diff -r whole local/merged;
#   sshlogin  the same with --sshlogin 2/: , the form the README gives for
#             several hosts (HOST,HOST,...), where ':' is this machine
#             without ssh: diff -r whole sshlogin/merged;
#   failing   shards 0 to 3 of N=3: shard 3 fails, and so must parallel
#             (--halt now,fail=1); the shards it ends leave no partial
#             directory and no generated trace (in a TMPDIR of their own).
#
# On real hosts (examples/slurm/README.md): --sshlogin 4/node1,4/node2
# --workdir . with SWEEPFILE and the output on a file system they share
# and teosim in their PATH, or --workdir ... --transferfile SWEEPFILE
# --return shard-{} --cleanup without one.  Results are in WORKDIR (kept)
# or in a temporary directory (removed).  Exit 77 (skipped) only when GNU
# parallel is not installed (Debian: parallel); every other problem is a
# failure.
set -u

if [ $# -lt 2 ] || [ $# -gt 3 ]; then
	echo "usage: $0 TEOSIM SWEEPFILE [WORKDIR]" >&2
	exit 2
fi
if ! command -v parallel >/dev/null 2>&1; then
	echo "SKIP: parallel is not installed (Debian package: parallel)"
	exit 77
fi
if ! parallel --version 2>/dev/null | grep -q '^GNU parallel'; then
	echo "SKIP: $(command -v parallel) is not GNU parallel (moreutils has one of that name too)"
	exit 77
fi

absolute() {
	case $1 in
	/*) echo "$1" ;;
	*/*) echo "$(pwd)/$1" ;;
	*) command -v "$1" || echo "$1" ;;
	esac
}
teosim=$(absolute "$1")
sweep=$(absolute "$2")

work=
own_work=
cleanup() {
	status=$?
	[ -z "$own_work" ] || rm -rf "$work"
	exit $status
}
trap cleanup EXIT
trap 'exit 1' HUP INT TERM

if [ $# -eq 3 ]; then
	work=$(absolute "$3")
	mkdir -p "$work" || exit 1
	rm -rf "$work/whole" "$work/local" "$work/sshlogin" "$work/failing" "$work/failing-tmp" "$work/parallel-home"
else
	work=$(mktemp -d) || exit 1
	own_work=yes
fi
# parallel keeps its state in ~/.parallel, or here.
PARALLEL_HOME=$work/parallel-home
export PARALLEL_HOME
mkdir "$PARALLEL_HOME" || exit 1

passed=0 failed=0
ok() {
	echo "ok: $*"
	passed=$((passed + 1))
}
not_ok() {
	echo "FAIL: $*"
	failed=$((failed + 1))
}
# shards NAME PARALLEL-OPTION... -- K...: runs the shards K of N=3 into
# NAME/shard-K with parallel and the options.
shards() {
	name=$1
	shift
	opts=
	while [ "$1" != -- ]; do
		opts="$opts $1"
		shift
	done
	shift
	mkdir -p "$work/$name" || return 1
	# shellcheck disable=SC2086 # one word per option
	timeout --foreground 300 parallel --will-cite --halt now,fail=1 $opts -q \
		"$teosim" sweep "$sweep" -o "$work/$name/shard-{}" --shard {}/3 ::: "$@"
}
# merged NAME: NAME's shards merged are the whole sweep, byte for byte.
merged() {
	if ! "$teosim" sweep "$sweep" -o "$work/$1/merged" --merge \
		"$work/$1/shard-0" "$work/$1/shard-1" "$work/$1/shard-2"; then
		not_ok "$1: the merge failed"
	elif diff -r "$work/whole" "$work/$1/merged"; then
		ok "$1: merged shards = whole sweep"
	else
		not_ok "$1: merged shards differ from the whole sweep"
	fi
}

"$teosim" sweep "$sweep" -o "$work/whole" || { echo "FAIL: the whole sweep: status $?"; exit 1; }

if shards local -- 0 1 2; then
	ok "local: parallel over shards 0 1 2"
else
	not_ok "local: parallel over shards 0 1 2: status $?"
fi
merged local

if shards sshlogin --sshlogin 2/: -- 0 1 2; then
	ok "sshlogin: parallel --sshlogin 2/: over shards 0 1 2"
else
	not_ok "sshlogin: parallel --sshlogin 2/: over shards 0 1 2: status $?"
fi
merged sshlogin

mkdir "$work/failing-tmp"
if TMPDIR=$work/failing-tmp shards failing -- 0 1 2 3 2>/dev/null; then
	not_ok "failing: parallel succeeded with shard 3 of N=3"
else
	ok "failing: parallel fails when a shard fails"
fi
# The shards still running when --halt ended them (SIGTERM) removed their
# partial directories and generated traces first.
if ls -d "$work"/failing/*.partial-* >/dev/null 2>&1 || [ -n "$(ls "$work/failing-tmp")" ]; then
	not_ok "failing: shards ended by --halt left: $(ls -d "$work"/failing/*.partial-* "$work"/failing-tmp/* 2>/dev/null | tr '\n' ' ')"
else
	ok "failing: the shards ended by --halt left no temporary files"
fi

echo "sweep-parallel: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
