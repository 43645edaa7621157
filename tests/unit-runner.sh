#!/bin/sh
# teosim test, the governor unit-test runner: the bundled examples pass;
# a wrong expected decision fails with the first differing decision and its
# inputs; a test that cannot run is an error; TAP when asked.
#
# usage: unit-runner.sh TEOSIM EXAMPLES
set -u
teosim=$1
examples=$2

. "$(dirname "$0")/expect.sh"
expect_streams="err out"

count=$(find "$examples" -name '*.calls' | wc -l)
expect 0 "^$count tests: $count passed, 0 failed, 0 could not run$" "$teosim" test "$examples"

# One expected decision made wrong: select 2 of teo-6.1-intercepts is C1E
# with the tick kept; expecting C6 must fail there, naming the line.
mkdir "$work/wrong"
sed 's/^\(select cpu=0 clock=2000000 .*\) state=2 stop_tick=0$/\1 state=3 stop_tick=0/' \
	"$examples/teo-6.1-intercepts.calls" > "$work/wrong/teo-6.1-intercepts.calls"
line=$(grep -n 'clock=2000000 ' "$work/wrong/teo-6.1-intercepts.calls" | cut -d: -f1)
cp "$examples/teo-v8-far-timer.calls" "$work/wrong/"
expect 1 "^FAIL  .*teo-6.1-intercepts.calls:$line: teo-6.1 decided state=2 stop_tick=0; the log recorded state=3 stop_tick=0" \
	"$teosim" test "$work/wrong"
expect 1 "inputs: select cpu=0 clock=2000000 sleep_ns=10000000" "$teosim" test "$work/wrong"
expect 1 "^2 tests: 1 passed, 1 failed, 0 could not run$" "$teosim" test "$work/wrong"
expect 1 "^not ok 1 - .*teo-6.1-intercepts.calls:$line: " "$teosim" test --tap "$work/wrong"
expect 1 "^# inputs: select cpu=0 clock=2000000" "$teosim" test --tap "$work/wrong"
expect 1 "^ok 2 - .*teo-v8-far-timer.calls: teo-v8, 1 expected decision$" "$teosim" test --tap "$work/wrong"
expect 1 "^1..2$" "$teosim" test --tap "$work/wrong"

# --governor runs every test with another governor: teo-6.12 keeps the
# tick stopped where teo-6.1 keeps it running.
expect 1 "teo-6.12 decided state=2 stop_tick=1; the log recorded state=2 stop_tick=0" \
	"$teosim" test --governor teo-6.12 "$examples/teo-6.1-intercepts.calls"

# Tests that cannot run.
grep -v '^governor ' "$examples/teo-v8-far-timer.calls" > "$work/anonymous.calls"
sed 's/ state=[0-9]* stop_tick=[01]$//' "$examples/teo-v8-far-timer.calls" > "$work/nothing-expected.calls"
printf 'teosim-calls 1\nhz 250\ncpus 1\n' > "$work/truncated.calls"
expect 2 "^ERROR .*anonymous.calls names no governor: give --governor NAME" "$teosim" test "$work/anonymous.calls"
expect 2 "^ERROR .*nothing-expected.calls: no select carries an expected decision" "$teosim" test "$work/nothing-expected.calls"
expect 2 "^ERROR .*truncated.calls:3: state: the header ends without it" "$teosim" test "$work/truncated.calls"
expect 2 "^ERROR .*missing.calls: No such file" "$teosim" test "$work/missing.calls"
expect 2 "unknown governor 'nosuch'" "$teosim" test --governor nosuch "$examples/teo-v8-far-timer.calls"
mkdir "$work/empty"
expect 2 "empty: no tests" "$teosim" test "$work/empty"
expect 2 "need one TEST" "$teosim" test

exit "$failures"
