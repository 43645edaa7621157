#!/bin/sh
# A kernel tree's CI step: what does this commit change in the decisions of
# teo, menu and ladder?  Run it from the top of a kernel git tree with the
# commit checked out.  It builds the three governors of the parent commit
# and of the working tree with teosim build-governor, and for each governor
# whose source differs runs teosim diff over the workloads.
#
# usage: check-governors.sh [-r REV] [-p PLATFORM] [-a API] [WORKLOAD...]
#   -r REV       what to compare with (default HEAD^)
#   -p PLATFORM  the idle states to simulate (default skx)
#   -a API       kshim's API to build against when the tree's version is
#                not one kshim provides (4.20, 6.1 or 6.12)
#   WORKLOAD     traces or scenarios (default: teosim's bundled traces)
#   $TEOSIM      the teosim to run (default: teosim on $PATH)
#
# Exit status: 0 no decision changed, 1 some changed (teosim diff's report
# says where and by how much), 2 an error.
set -u
teosim=${TEOSIM:-teosim}
rev=HEAD^
platform=skx
api=
while getopts r:p:a: opt; do
	case $opt in
	r) rev=$OPTARG ;;
	p) platform=$OPTARG ;;
	a) api="--api $OPTARG" ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))

governors=drivers/cpuidle/governors
if [ ! -d "$governors" ] || ! git rev-parse --verify -q "$rev^{commit}" > /dev/null; then
	echo "check-governors: run it at the top of a kernel git tree that has $rev" >&2
	exit 2
fi
if [ $# -eq 0 ]; then
	# The installed teosim's bundled traces, beside its binary's prefix.
	bindir=$(dirname "$(command -v "$teosim")")
	set -- "$bindir"/../share/teosim/*.trace
	if [ ! -f "$1" ]; then
		echo "check-governors: no bundled traces found next to $teosim: name the workloads" >&2
		exit 2
	fi
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/parent"
# Only what the build reads: the version in the Makefile, and the governors.
git archive "$rev" Makefile "$governors" | tar -x -C "$work/parent" || exit 2
# shellcheck disable=SC2086 # $api is empty or two words
"$teosim" build-governor --kernel-tree "$work/parent" --name parent -o "$work/modules" $api || exit 2
# shellcheck disable=SC2086
"$teosim" build-governor --kernel-tree . --name this -o "$work/modules" $api || exit 2

status=0
for g in teo menu ladder; do
	if git diff --quiet "$rev" -- "$governors/$g.c" "$governors/gov.h"; then
		echo "$g: source unchanged"
		continue
	fi
	"$teosim" diff -p "$platform" -g "$work/modules/$g-parent.so,$work/modules/$g-this.so" "$@"
	case $? in
	0) ;;
	1) status=1 ;;
	*) exit 2 ;;
	esac
done
exit $status
