#!/bin/bash
# The bash completion, driven as bash drives it: each line below is
# completed at its end and must offer exactly the words given.
#
# usage: test-completion.sh TEOSIM COMPLETION_SCRIPT
set -u
teosim=$(realpath "$1")
script=$2
failures=0

# The completion runs "teosim" from PATH, as an installed one would.
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
ln -s "$teosim" "$bin/teosim"
PATH=$bin:$PATH

# shellcheck disable=SC1091 # Debian's bash-completion
. /usr/share/bash-completion/bash_completion
# shellcheck disable=SC1090
. "$script"

# expect_completion LINE WORDS: completing LINE offers WORDS, sorted.
expect_completion() {
	local COMP_LINE=$1 COMP_POINT=${#1} COMP_WORDS COMP_CWORD got
	read -ra COMP_WORDS <<< "$COMP_LINE"
	[[ $COMP_LINE == *" " ]] && COMP_WORDS+=("")
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMPREPLY=()
	_teosim 2>/dev/null
	got=$(printf '%s\n' "${COMPREPLY[@]}" | sort | tr '\n' ' ')
	if [[ $got == "$2 " ]]; then
		echo "ok: '$1' -> $2"
	else
		echo "FAIL: '$1' -> '$got', want '$2 '"
		failures=$((failures + 1))
	fi
}

# An empty working directory, so that no file name joins a completion
# (--platform takes files too).
mkdir "$bin/empty" && cd "$bin/empty" || exit 1
expect_completion "teosim ru" "run"
expect_completion "teosim ca" "capture-platform"
expect_completion "teosim run --gov" "--governor="
expect_completion "teosim import --r" "--report"
expect_completion "teosim run --governor ladder-" "ladder-6.1 ladder-6.12"
expect_completion "teosim compare --governors teo-6.12,ladder-" "teo-6.12,ladder-6.1 teo-6.12,ladder-6.12"
expect_completion "teosim run --platform sk" "skl skx"
expect_completion "teosim run -f " "csv json table"
expect_completion "teosim run --hz 1" "100 1000"
exit "$failures"
