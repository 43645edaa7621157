#!/bin/sh
# Inputs from pipes: a trace, a call log and a capture read from standard
# input ("-") or a named pipe give what the same file gives, though teosim
# opens each more than once (common/input-file.c), and leave no copy in
# TMPDIR.
#
# usage: input-pipes.sh TEOSIM SOURCE_ROOT
set -u
teosim=$1 src=$2

. "$(dirname "$0")/expect.sh"

export TMPDIR="$work/tmp"
mkdir "$TMPDIR"
trace=$src/traces/example.trace
calls=$src/examples/unit/ladder-6.1-promotion-demotion.calls

fail() {
	echo "FAIL: $*"
	failures=$((failures + 1))
}

# same NAME A B: A and B hold the same lines but for their first (which
# names the input).
same() {
	if [ "$(tail -n +2 "$2")" != "$(tail -n +2 "$3")" ] || [ ! -s "$2" ]; then
		fail "$1: the pipe's output differs from the file's"
		diff "$2" "$3" | head -n 20
	else
		echo "ok: $1"
	fi
}

# The header (for the platform, then for the governors' pass) and the
# events are read in separate opens.
"$teosim" compare --governors teo-6.1,menu-6.1 --platform skx "$trace" > "$work/file.txt" ||
	fail "compare from the file"
"$teosim" compare --governors teo-6.1,menu-6.1 --platform skx - < "$trace" > "$work/stdin.txt" ||
	fail "compare from standard input"
same "compare from standard input" "$work/file.txt" "$work/stdin.txt"
cat "$trace" | "$teosim" compare --governors teo-6.1,menu-6.1 --platform skx - > "$work/pipe.txt" ||
	fail "compare from a pipe"
same "compare from a pipe" "$work/file.txt" "$work/pipe.txt"

mkfifo "$work/fifo"
cat "$trace" > "$work/fifo" &
"$teosim" run --governor teo-6.1 --platform skx "$work/fifo" > "$work/fifo.txt" ||
	fail "run from a named pipe"
wait
"$teosim" run --governor teo-6.1 --platform skx "$trace" > "$work/run.txt"
same "run from a named pipe" "$work/run.txt" "$work/fifo.txt"

# The log's header names its governor, read before the replay.
expect 0 "5 of 5 decisions compared, all identical" sh -c "cat '$calls' | '$teosim' replay --check -"

# A capture's first bytes tell text from trace-cmd's .dat before it is read.
for capture in basic.txt tiny.dat; do
	"$teosim" import --name c -o "$work/file.trace" "$src/import/testdata/$capture" 2> /dev/null
	cat "$src/import/testdata/$capture" |
		"$teosim" import --name c -o "$work/pipe.trace" - 2> /dev/null ||
		fail "import of $capture from a pipe"
	if [ "$(grep -v '^# imported by' "$work/file.trace")" != "$(grep -v '^# imported by' "$work/pipe.trace")" ]; then
		fail "import of $capture from a pipe differs from the file's"
	else
		echo "ok: import of $capture from a pipe"
	fi
done

# An output that is a pipe is written to, not replaced by a file, and
# nothing is written beside it: a bundled platform is named as it is, a
# platform file not at all.
mkfifo "$work/out.fifo"
for platform in qemu-tcg "$src/traces/platforms/qemu-tcg.platform"; do
	cat "$work/out.fifo" > "$work/from-fifo.trace" &
	reader=$!
	"$teosim" import --name c -p "$platform" -o "$work/out.fifo" \
		"$src/import/testdata/basic.txt" 2> /dev/null || fail "import to a pipe (-p $platform)"
	wait "$reader"
	want=$([ "$platform" = qemu-tcg ] && echo "platform qemu-tcg" || echo "")
	if [ ! -p "$work/out.fifo" ] || [ -e "$work/out.fifo.platform" ] || [ -e "$work/out.platform" ] ||
	   [ "$(grep '^platform' "$work/from-fifo.trace")" != "$want" ] ||
	   ! grep -q '^irq ' "$work/from-fifo.trace"; then
		fail "import to a pipe (-p $platform): $(ls "$work" | tr '\n' ' ')"
	else
		echo "ok: import to a pipe (-p $platform)"
	fi
done

# A pipe that delivers nothing is an empty input, named as the user named it.
expect 1 "-: empty file" sh -c "'$teosim' run --governor teo-6.1 --platform skx - < /dev/null"

if [ -n "$(ls -A "$TMPDIR")" ]; then
	fail "copies left in TMPDIR: $(ls -A "$TMPDIR")"
fi
exit $((failures > 0))
