#!/bin/sh
# Bad input to teosim: a clear message on stderr naming what is wrong, a
# non-zero exit status, and never a crash (a signal gives status > 128).
#
# usage: cli-errors.sh TEOSIM
set -u
teosim=$1

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0

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
expect 2 "need --governor NAME and one LOG" "$teosim" replay "$work/good"
expect 2 "Unknown option --frobnicate" "$teosim" replay --frobnicate
expect 2 "unknown command 'frobnicate'" "$teosim" frobnicate
expect 0 "" "$teosim" replay --governor teo-6.1 "$work/good"

# The simulation commands.
printf 'teosim-trace 1\ncpus 1\nend_ns 1000000\nirq cpu=0 at_ns=50 work_ns=x\n' > "$work/bad.trace"
printf 'teosim-trace 1\ncpus 1\nend_ns 1000000\n' > "$work/idle.trace"
printf '[platform]\nname=broken\n' > "$work/broken.platform"
expect 1 "unknown platform 'nosuch'" "$teosim" run --governor teo-6.1 --platform nosuch "$work/idle.trace"
expect 1 "broken.platform" "$teosim" run --governor teo-6.1 --platform "$work/broken.platform" "$work/idle.trace"
expect 1 "missing.trace: No such file" "$teosim" run --governor teo-6.1 --platform skx "$work/missing.trace"
expect 1 "bad.trace:4: work_ns: 'x' is not a decimal number" "$teosim" compare --governors teo-6.1,menu-6.1 --platform skx "$work/bad.trace"
expect 1 "unknown governor 'nosuch'" "$teosim" compare --governors teo-6.1,nosuch --platform skx "$work/idle.trace"
expect 1 "--hz 200: the kernel offers" "$teosim" run --governor teo-6.1 --platform skx --hz 200 "$work/idle.trace"
expect 2 "unknown governor 'nosuch'" "$teosim" diff --governors teo-6.1,nosuch --platform skx "$work/idle.trace"
expect 2 "need --governors A,B" "$teosim" diff --platform skx "$work/idle.trace"
expect 0 "" "$teosim" diff --governors teo-6.1,teo-6.1 --platform skx "$work/idle.trace"
expect 1 "missing.scenario" "$teosim" gen "$work/missing.scenario"
expect 2 "need --governors" "$teosim" plot --platform skx "$work/idle.trace"

[ "$failures" -eq 0 ]
