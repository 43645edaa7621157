#!/bin/sh
# Bad input to teosim: a clear message on stderr naming what is wrong, a
# non-zero exit status, and never a crash (a signal gives status > 128).
#
# usage: cli-errors.sh TEOSIM
set -u
teosim=$1

. "$(dirname "$0")/expect.sh"

printf 'teosim-calls 1\nhz 250\ncpus 1\nstate 0 name=POLL exit_us=0 residency_us=0 flags=polling\nstate 1 name=C1 exit_us=2 residency_us=2\n' > "$work/header"
cp "$work/header" "$work/good"
echo 'select cpu=0 clock=10 sleep_ns=100000 tick_ns=100000 qos_us=2000000000 stopped=0 iowait=0' >> "$work/good"
{ cat "$work/header"; printf 'select cpu=0 clock=10'; } > "$work/truncated"
: > "$work/empty"
{ cat "$work/header"; echo 'select cpu=0 clock=99999999999999999999 qos_us=0 stopped=0 iowait=0'; } > "$work/overflow"
printf '\177ELF\002\001\001\000\000\000\000\000\000\000\000\000\002\000>\000' > "$work/binary"

expect 1 "unknown governor 'schedutil' (built in: teo-v8" "$teosim" replay --governor schedutil "$work/good"
expect 1 "truncated:6: truncated line" "$teosim" replay --governor teo-6.1 "$work/truncated"
expect 1 "empty: empty file" "$teosim" replay --governor menu-6.1 "$work/empty"
expect 1 "overflow:6: clock: 99999999999999999999 is out of range" "$teosim" replay --governor ladder-6.1 "$work/overflow"
expect 1 "missing: No such file" "$teosim" replay --governor teo-v8 "$work/missing"
expect 1 "binary:1: NUL byte in line" "$teosim" replay --governor teo-6.12 "$work/binary"
expect 1 "good:6: state: --check needs a recorded decision" "$teosim" replay --governor teo-6.12 --check "$work/good"
expect 1 "good names no governor: give --governor NAME" "$teosim" replay "$work/good"
expect 2 "need one LOG" "$teosim" replay --governor teo-6.1
expect 2 "Unknown option --frobnicate" "$teosim" replay --frobnicate
expect 2 "unknown command 'frobnicate'" "$teosim" frobnicate
expect 0 "" "$teosim" replay --governor teo-6.1 "$work/good"
# A result that cannot be written is a failure, not a silent success.
if [ -w /dev/full ]; then
	expect 1 "writing standard output: No space left on device" \
		sh -c '"$1" replay --governor teo-6.1 "$2" > /dev/full' - "$teosim" "$work/good"
	expect 1 "writing standard output: No space left on device" \
		sh -c '"$1" random-calls -n 10 > /dev/full' - "$teosim"
fi

# The simulation commands.
printf 'teosim-trace 1\ncpus 1\nend_ns 1000000\nirq cpu=0 at_ns=50 work_ns=x\n' > "$work/bad.trace"
printf 'teosim-trace 1\ncpus 1\nend_ns 1000000\n' > "$work/idle.trace"
printf '[platform]\nname=broken\n' > "$work/broken.platform"
expect 1 "unknown platform 'nosuch'" "$teosim" run --governor teo-6.1 --platform nosuch "$work/idle.trace"
expect 1 "broken.platform" "$teosim" run --governor teo-6.1 --platform "$work/broken.platform" "$work/idle.trace"
printf '[platform]\nname=one\ndescription=d\nsource=s\nbusy_power_mw=1000\n\n[state0]\nname=C1\nexit_latency_us=1\ntarget_residency_us=1\npower_mw=100\npower_assumed=false\n' > "$work/one.platform"
expect 1 "one.platform: 1 idle state: a governor needs at least two" "$teosim" run --governor teo-6.1 --platform "$work/one.platform" "$work/idle.trace"
expect 1 "missing.trace: No such file" "$teosim" run --governor teo-6.1 --platform skx "$work/missing.trace"
expect 1 "bad.trace:4: work_ns: 'x' is not a decimal number" "$teosim" compare --governors teo-6.1,menu-6.1 --platform skx "$work/bad.trace"
expect 1 "unknown governor 'nosuch'" "$teosim" compare --governors teo-6.1,nosuch --platform skx "$work/idle.trace"
expect 1 "--hz 200: the kernel offers" "$teosim" run --governor teo-6.1 --platform skx --hz 200 "$work/idle.trace"
expect 2 "unknown governor 'nosuch'" "$teosim" diff --governors teo-6.1,nosuch --platform skx "$work/idle.trace"
expect 2 "need --governors A,B" "$teosim" diff --platform skx "$work/idle.trace"
expect 0 "" "$teosim" diff --governors teo-6.1,teo-6.1 --platform skx "$work/idle.trace"
expect 1 "governor teo-6.1 named twice" "$teosim" compare --governors teo-6.1,menu-6.1,teo-6.1 --platform skx "$work/idle.trace"
expect 1 "governor menu-6.1 named twice" "$teosim" plot --governors menu-6.1,menu-6.1 --platform skx --plot "$work/dup-plot" "$work/idle.trace"
expect 1 "missing.scenario" "$teosim" gen "$work/missing.scenario"
expect 2 "need --governors" "$teosim" plot --platform skx "$work/idle.trace"

# A failed run leaves an existing output as it was, and no temporary file beside it.
kept() {
	if [ "$(cat "$work/keep/$1")" != "an older output" ] ||
	   [ "$(ls "$work/keep" | wc -l)" -ne 1 ]; then
		echo "FAIL: $1 was clobbered, or a temporary file was left: $(ls "$work/keep")"
		failures=$((failures + 1))
	fi
	rm -rf "$work/keep"
}
older() {
	mkdir -p "$work/keep"
	echo "an older output" > "$work/keep/$1"
}
older out.trace
expect 1 "missing.scenario" "$teosim" gen -o "$work/keep/out.trace" "$work/missing.scenario"
kept out.trace
older usage.txt
expect 1 "truncated:6: truncated line" "$teosim" replay --governor teo-6.1 --usage "$work/keep/usage.txt" "$work/truncated"
kept usage.txt
older out.platform
expect 1 "no state0 directory" "$teosim" capture-platform --sysfs "$work" -o "$work/keep/out.platform"
kept out.platform
older imported.trace
expect 1 "empty: no power:cpu_idle events" "$teosim" import -o "$work/keep/imported.trace" "$work/empty"
kept imported.trace
# And a run that succeeds replaces it whole, with the usual mode.
older usage.txt
expect 0 "" "$teosim" replay --governor teo-6.1 --usage "$work/keep/usage.txt" "$work/good"
if grep -q "an older output" "$work/keep/usage.txt" || [ "$(stat -c %a "$work/keep/usage.txt")" = 600 ]; then
	echo "FAIL: --usage did not replace the older file, or left it mode 600"
	failures=$((failures + 1))
fi
rm -rf "$work/keep"

[ "$failures" -eq 0 ]
