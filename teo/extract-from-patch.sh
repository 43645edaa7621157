#!/bin/sh
# Writes the file that a patch creates, exactly as the patch creates it.
#
# usage: extract-from-patch.sh PATCH PATH OUTPUT
#   PATH is the file's path inside the tree (drivers/cpuidle/governors/teo.c).
#
# The patch must add PATH as a new file ("--- /dev/null") in one hunk; the
# hunk's line count is checked, so a truncated or edited patch fails here
# instead of yielding a different file.
set -eu
patch_file=$1 path=$2 out=$3

awk -v path="$path" -v patch_file="$patch_file" '
	function fail(msg) { print patch_file ": " msg > "/dev/stderr"; bad = 1; exit 1 }
	state == 0 && $0 == "--- /dev/null" { state = 1; next }
	state == 1 {
		state = 0
		if ($1 == "+++" && substr($2, length($2) - length(path) + 1) == path)
			state = 2
		next
	}
	state == 2 {
		if ($0 !~ /^@@ -0,0 \+1,[0-9]+ @@/)
			fail("line " NR ": expected the hunk that creates " path)
		split($3, range, ",")
		want = range[2] + 0
		state = 3
		next
	}
	state == 3 {
		if (got == want) { state = 4; next }
		if (substr($0, 1, 1) != "+")
			fail("line " NR ": hunk for " path " ends after " got " of " want " lines")
		print substr($0, 2)
		got++
		next
	}
	END {
		if (bad) exit 1
		if (state < 3) fail("creates no file " path)
		if (state == 3 && got != want)
			fail("hunk for " path " ends after " got " of " want " lines")
	}
' "$patch_file" > "$out.tmp" || { rm -f "$out.tmp"; exit 1; }
mv "$out.tmp" "$out"
