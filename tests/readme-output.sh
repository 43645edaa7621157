#!/bin/sh
# The README prints what its main command prints: the block after "What
# the main command prints" is the output of that command on this code, so
# a change that moves a figure must redraw it.
#
# usage: readme-output.sh TEOSIM SOURCE_ROOT
set -eu
teosim=$(realpath "$1")
root=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# From the output's first line to the end of its fenced block.
awk '/^traces\/example.trace, platform skx, HZ 250, no latency limit$/ { on = 1 }
     on && /^```$/ { exit }
     on { print }' "$root/README.md" > "$work/readme"
[ -s "$work/readme" ] || { echo "FAIL: README.md has no printed output of the main command"; exit 1; }
(cd "$root" && "$teosim" compare --governors teo-v8,teo-6.1,menu-6.1 --platform skx \
	traces/example.trace) > "$work/now"
if ! cmp -s "$work/readme" "$work/now"; then
	echo "FAIL: README.md's main-command output is not what the command prints now:"
	diff "$work/readme" "$work/now" | head -20
	exit 1
fi
echo "ok: README.md shows what the main command prints"
