#!/bin/sh
# teosim import and capture-platform from the command line: exit status 0
# with a usable result, 1 when nothing usable remains (with the file and
# line or offset on stderr), 2 for a usage error; never a crash.
#
# usage: test-cli.sh TEOSIM TESTDATA
set -u
teosim=$1
data=$2

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0

# expect STATUS PATTERN COMMAND...: runs COMMAND, checks status and that stderr or stdout matches.
expect() {
	want_status=$1 pattern=$2
	shift 2
	"$@" > "$work/out" 2> "$work/err"
	status=$?
	if [ "$status" -ne "$want_status" ] ||
	   { [ -n "$pattern" ] && ! grep -q -- "$pattern" "$work/err" "$work/out"; }; then
		echo "FAIL: $*: status $status (want $want_status), stderr:"
		cat "$work/err"
		failures=$((failures + 1))
	else
		echo "ok: $* -> $status"
	fi
}

expect 0 "note: CPUs idle when the capture started: 1" "$teosim" import "$data/basic.txt" -o "$work/basic.trace"
expect 0 "" grep -q "^# note: wakeups by the tick: 1" "$work/basic.trace"
expect 0 "" "$teosim" run --governor teo-6.12 --platform skx "$work/basic.trace"
expect 0 "^real *C6 *1 *0.100 *1 *0" "$teosim" import "$data/basic.txt" --report --platform skx --governors teo-6.12,menu-6.12
expect 0 "truncated.txt:4: not an ftrace event line" "$teosim" import "$data/truncated.txt" -o "$work/t.trace"
expect 1 "not-a-trace.bin:1: byte offset 7: binary data" "$teosim" import "$data/not-a-trace.bin" -o "$work/x.trace"
expect 1 "fake.dat: a trace-cmd .dat file" "$teosim" import "$data/fake.dat" -o "$work/x.trace"
expect 1 "empty.txt: no power:cpu_idle events" "$teosim" import "$data/empty.txt" -o "$work/x.trace"
expect 1 "basic.txt:23: cpu 0 enters idle state 3, but platform juno has 3 states" "$teosim" import "$data/basic.txt" --report --platform juno
expect 2 "need one CAPTURE" "$teosim" import "$data/basic.txt"
expect 2 "--report needs --platform" "$teosim" import "$data/basic.txt" --report
expect 2 "it needs --report" "$teosim" import "$data/basic.txt" -o "$work/x.trace" --plot "$work/plots"
expect 2 "--name a b" "$teosim" import --name "a b" "$data/basic.txt" -o "$work/x.trace"

mkdir -p "$work/cpuidle/state0" "$work/cpuidle/state1"
printf 'POLL\n' > "$work/cpuidle/state0/name"; printf '0\n' > "$work/cpuidle/state0/latency"
printf '0\n' > "$work/cpuidle/state0/residency"
printf 'C1\n' > "$work/cpuidle/state1/name"; printf '2\n' > "$work/cpuidle/state1/latency"
printf '2\n' > "$work/cpuidle/state1/residency"
expect 0 "mybox.platform: platform mybox, 2 idle states" "$teosim" capture-platform --sysfs "$work/cpuidle" -o "$work/mybox.platform"
expect 0 "" "$teosim" run --governor menu-6.12 --platform "$work/mybox.platform" "$work/basic.trace"
expect 1 "no state0 directory" "$teosim" capture-platform --sysfs "$work/nothing" -o "$work/x.platform"
expect 2 "need -o FILE" "$teosim" capture-platform

echo "$failures failures"
[ "$failures" -eq 0 ]
