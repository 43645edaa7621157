#!/bin/sh
# The man pages and --help cannot drift apart: every command that
# 'teosim --help' lists has a page whose NAME line is its summary, the
# summary is the same in teosim(1)'s COMMANDS, and each page's OPTIONS are
# exactly the options of 'teosim COMMAND --help'.  No page is left over.
#
# usage: check-help.sh TEOSIM MANDIR
set -u
teosim=$1
man=$2
failures=0

fail() {
	echo "FAIL: $*"
	failures=$((failures + 1))
}

# "name<TAB>summary" for each command of 'teosim --help'.
commands=$("$teosim" --help | awk '/^Commands:/ { on = 1; next }
	on && /^  [a-z]/ { name = $1; sub(/^  [^ ]+ +/, ""); print name "\t" $0; next }
	on { on = 0 }')
[ -n "$commands" ] || fail "teosim --help lists no commands"

# The options of one help text or one page's OPTIONS section, one a line, sorted.
help_options() {
	"$teosim" "$1" --help | grep -E '^  +-' | sed -E 's/^ +//; s/  .*//' |
		grep -oE '(^|[ ,])--?[A-Za-z0-9][A-Za-z0-9-]*' | tr -d ' ,' | sort
}
page_options() {
	awk '/^# OPTIONS/ { on = 1; next } /^# / { on = 0 } on && /^\*-/' "$1" |
		grep -oE '\*--?[A-Za-z0-9][A-Za-z0-9-]*\*' | tr -d '*' | sort
}
# The summary after "NAME - " in a page's NAME section.
page_summary() {
	awk '/^# NAME/ { on = 1; next } on && NF { sub(/^[^ ]+ - /, ""); print; exit }' "$1"
}
# The summary of command $2 in teosim(1)'s COMMANDS section.
main_summary() {
	awk -v name="*$2*" '/^# COMMANDS/ { on = 1; next } /^# / { on = 0 }
		on && $0 == name { getline; sub(/^\t/, ""); print; exit }' "$1"
}

printf '%s\n' "$commands" | {
	while IFS='	' read -r name summary; do
		page=$man/teosim-$name.1.scd
		if [ ! -f "$page" ]; then
			fail "$name: no man page $page"
			continue
		fi
		[ "$(page_summary "$page")" = "$summary" ] ||
			fail "$name: NAME '$(page_summary "$page")', teosim --help '$summary'"
		[ "$(main_summary "$man/teosim.1.scd" "$name")" = "$summary" ] ||
			fail "$name: teosim(1) COMMANDS '$(main_summary "$man/teosim.1.scd" "$name")'"
		want=$(help_options "$name" | tr '\n' ' ')
		got=$(page_options "$page" | tr '\n' ' ')
		if [ "$want" = "$got" ]; then
			echo "ok: $name: $summary; options $got"
		else
			fail "$name: --help has options '$want', the page '$got'"
		fi
	done
	for page in "$man"/teosim-*.1.scd; do
		name=${page##*/teosim-}
		name=${name%.1.scd}
		printf '%s\n' "$commands" | cut -f1 | grep -qx -- "$name" ||
			fail "$page: no command '$name' in teosim --help"
	done
	exit "$failures"
}
failures=$?
[ "$failures" -eq 0 ] || echo "$failures failures"
exit "$failures"
