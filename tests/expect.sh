# Sourced by the command-line tests (tests/cli-errors.sh, tests/unit-runner.sh, import/test-cli.sh).
#
# expect STATUS PATTERN COMMAND...: runs COMMAND with its standard output in
# $work/out and its standard error in $work/err, and checks that it exits
# with STATUS and, unless PATTERN is empty, that PATTERN is found in the
# streams named by $expect_streams: "err" (the default) or "err out".
# Failures are counted in $failures.  Sourcing this file makes $work, a
# scratch directory removed at exit, and sets $failures to 0.

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
failures=0

expect() {
	want_status=$1 pattern=$2
	shift 2
	"$@" > "$work/out" 2> "$work/err"
	status=$?
	files=
	for stream in ${expect_streams:-err}; do
		files="$files $work/$stream"
	done
	# shellcheck disable=SC2086 # one word per stream file
	if [ "$status" -ne "$want_status" ] ||
	   { [ -n "$pattern" ] && ! grep -q -- "$pattern" $files; }; then
		echo "FAIL: $*: status $status (want $want_status), stderr:"
		cat "$work/err"
		failures=$((failures + 1))
	else
		echo "ok: $* -> $status: $(head -n 1 "$work/err")"
	fi
}
