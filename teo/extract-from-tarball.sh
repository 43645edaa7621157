#!/bin/sh
# Extracts governor sources from a kernel source tarball, unchanged.
#
# usage: extract-from-tarball.sh TARBALL OUTDIR DIR FILE...
#   Each FILE is written to OUTDIR/<basename>, taken from
#   <top>/DIR/<basename> inside TARBALL (whatever the top directory is).
set -eu
tarball=$1 outdir=$2 dir=$3
shift 3

members=
for f in "$@"; do
	members="$members */$dir/$(basename "$f")"
done
depth=$(printf '%s' "$dir" | awk -F/ '{ print NF + 1 }')

tmp=$(mktemp -d "$outdir/.extract.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# shellcheck disable=SC2086 # the member patterns must split
# -m: the files are dated now, not as in the archive, which is older than
# the tarball itself: ninja would take them for out of date at every run.
tar -xmf "$tarball" -C "$tmp" --wildcards --strip-components="$depth" $members
for f in "$@"; do
	mv "$tmp/$(basename "$f")" "$f"
done
