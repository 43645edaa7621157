#!/bin/sh
# teosim build-governor and governor modules: each way in (a file of a
# kernel tree, a tree, a built-in governor with a patch), the module's
# identity against the source compiled, the same decisions as the built-in
# governor from the same source, every command taking a module by path,
# each refusal (a patch that does not apply, what kshim lacks, an unknown
# API), and the CI recipe of examples/ci.
#
# usage: build-governor.sh TEOSIM SOURCE_ROOT GOVERNOR_SOURCES
# GOVERNOR_SOURCES is the build tree's teo/ (6.12/teo.c, ...).
set -u
teosim=$(realpath "$1")
root=$2
sources=$3
traces=$root/traces
example=$root/examples/patch

. "$(dirname "$0")/expect.sh"
expect_streams="err out"
sha() { sha256sum "$1" | cut -d' ' -f1; }
# The SHA-256 column of teosim governors for the governor named $2 (modules: $3...).
listed_sha() {
	name=$1
	shift
	"$teosim" governors "$@" | awk -v n="$name" '$1 == n { print $NF }'
}

# A kernel tree as Debian's 6.12 source has it: the top Makefile's version
# lines and the governors, unchanged.
tree=$work/linux
mkdir -p "$tree/drivers/cpuidle/governors"
cp "$sources"/6.12/*.c "$sources"/6.12/gov.h "$tree/drivers/cpuidle/governors/"
printf 'VERSION = 6\nPATCHLEVEL = 12\nSUBLEVEL = 118\nEXTRAVERSION =\n' > "$tree/Makefile"
cd "$work" || exit 1

# 1. A file of a kernel tree: API 6.12 from the Makefile; the module's
# SHA-256 is the file's; it decides as the built-in teo-6.12, on a trace
# and on a recorded call log.
expect 0 "teo-file.so: teo-file, API 6.12, from Linux 6.12.118 tree $tree, drivers/cpuidle/governors/teo.c" \
	"$teosim" build-governor --source "$tree/drivers/cpuidle/governors/teo.c" -o teo-file.so
[ "$(listed_sha teo-file ./teo-file.so)" = "$(sha "$tree/drivers/cpuidle/governors/teo.c")" ] ||
	{ echo "FAIL: teo-file.so does not carry its source's SHA-256"; failures=$((failures + 1)); }
"$teosim" run -g teo-6.12 -p skx -f csv "$traces/io-heavy.trace" > builtin.csv
"$teosim" run -g ./teo-file.so -p skx -f csv "$traces/io-heavy.trace" | sed 's/teo-file/teo-6.12/g' > module.csv
cmp -s builtin.csv module.csv ||
	{ echo "FAIL: the module's run differs from the built-in's"; failures=$((failures + 1)); }
expect 0 "decided differently: 0 " "$teosim" diff -g teo-6.12,./teo-file.so -p skx "$traces/example.trace"
"$teosim" random-calls --selects 20000 --seed 5 > calls.log
"$teosim" replay -g teo-6.12 calls.log > builtin.decisions
expect 0 "" "$teosim" replay -g ./teo-file.so calls.log
# The same decisions, under a header that names each governor.
tail -n +2 builtin.decisions > builtin.body
tail -n +2 "$work/out" | cmp -s builtin.body - && [ "$(grep -c '^decision ' builtin.body)" = 20000 ] ||
	{ echo "FAIL: the module's replay differs from the built-in's"; failures=$((failures + 1)); }
expect 0 "teo-file" "$teosim" compare -j 2 -g teo-6.1,./teo-file.so -p skx "$traces/ipi-pingpong.trace"

# 2. A kernel tree: its teo, menu and ladder, named after the tree.
expect 0 "ladder-linux.so: ladder-linux, API 6.12" "$teosim" build-governor --kernel-tree "$tree" -o mods
for g in teo menu ladder; do
	[ "$(listed_sha "$g-linux" "mods/$g-linux.so")" = "$(sha "$tree/drivers/cpuidle/governors/$g.c")" ] ||
		{ echo "FAIL: mods/$g-linux.so: SHA-256"; failures=$((failures + 1)); }
done
expect 0 "decided differently: 0 " "$teosim" diff -g menu-6.12,mods/menu-linux.so -p skx "$traces/io-heavy.trace"

# 3. A built-in governor and a patch: the file compiled is teo-6.12's
# patched independently; the decisions change; the example unit test
# passes with the module and fails with teo-6.12.
expect 0 "teo-tick-half.so: teo-tick-half, API 6.12, from teo-6.12 + teo-tick-half.patch" \
	"$teosim" build-governor --base teo-6.12 --patch "$example/teo-tick-half.patch" -o teo-tick-half.so
mkdir patched && cp -r "$tree/drivers" patched/
patch -s -p1 -d patched < "$example/teo-tick-half.patch"
[ "$(listed_sha teo-tick-half ./teo-tick-half.so)" = "$(sha patched/drivers/cpuidle/governors/teo.c)" ] ||
	{ echo "FAIL: teo-tick-half.so does not carry the patched source's SHA-256"; failures=$((failures + 1)); }
expect 1 "teo-6.12 vs teo-tick-half on .*example.trace" \
	"$teosim" diff -g teo-6.12,./teo-tick-half.so -p skx "$traces/example.trace"
expect 0 "1 tests: 1 passed" "$teosim" test -g ./teo-tick-half.so "$example/unit"
expect 1 "teo-6.12 decided state=2 stop_tick=1; the log recorded state=2 stop_tick=0" \
	"$teosim" test -g teo-6.12 "$example/unit"
expect 0 "teo-same.so: teo-same, API 6.12, from teo-6.12," "$teosim" build-governor --base teo-6.12 -o teo-same.so
expect 0 "" "$teosim" plot -g ./teo-same.so -p skx --plot figs "$traces/periodic-sweep.trace"

# 4. Refusals; none leaves an output behind or touches an existing one.
echo "kept" > kept.so
sed 's/^-\t    tick_intercept_sum > cpu_data->total \/ 2 + cpu_data->total \/ 8)/-\t    tick_intercept_sum > cpu_data->total \/ 4)/' \
	"$example/teo-tick-half.patch" > stale.patch
expect 1 "stale.patch does not apply:" "$teosim" build-governor --base teo-6.12 --patch stale.patch -o kept.so
expect 1 "drivers/cpuidle/governors/teo.c: hunk #1 @@ -474 +474 @@ does not apply" \
	"$teosim" build-governor --base teo-6.12 --patch stale.patch -o kept.so
expect 1 "not a unified diff" "$teosim" build-governor --base teo-6.12 --patch calls.log -o kept.so
expect 1 "no such built-in governor" "$teosim" build-governor --base teo-9.9 -o kept.so
expect 1 "--api 6.1: teo-6.12 is written for the 6.12 API" \
	"$teosim" build-governor --base teo-6.12 --api 6.1 -o kept.so

# What kshim lacks: a function, a field, a header, each at its line.
missing=$tree/drivers/cpuidle/governors/missing.c
cp "$tree/drivers/cpuidle/governors/ladder.c" "$missing"
line=$(grep -n '^static int ladder_select_state' "$missing" | cut -d: -f1)
sed -i "$((line + 3))a\\	tick_nohz_frobnicate(dev->cpu);\\n	dev->frobs++;" "$missing"
expect 1 "missing.c:$((line + 4)): uses the function tick_nohz_frobnicate(), which kshim's 6.12 API does not provide" \
	"$teosim" build-governor --source "$missing" -o kept.so
expect 1 "missing.c:$((line + 5)): uses the field frobs of struct cpuidle_device, which kshim's 6.12 API does not provide" \
	"$teosim" build-governor --source "$missing" -o kept.so
expect 1 "kshim provides the APIs of 4.20, 6.1 and 6.12" "$teosim" build-governor --source "$missing" -o kept.so
sed -i '1i #include <linux/frobnicate.h>' "$missing"
expect 1 "missing.c:1: uses the header <linux/frobnicate.h>" "$teosim" build-governor --source "$missing" -o kept.so
rm "$missing"

# An API kshim does not provide, or cannot tell: refused unless --api.
other=$work/linux-6.6
mkdir -p "$other/drivers/cpuidle/governors"
cp "$tree/drivers/cpuidle/governors/ladder.c" "$other/drivers/cpuidle/governors/"
printf 'VERSION = 6\nPATCHLEVEL = 6\nSUBLEVEL = 30\n' > "$other/Makefile"
expect 1 "is Linux 6.6.30, and kshim provides the APIs of 4.20, 6.1 and 6.12: give --api" \
	"$teosim" build-governor --source "$other/drivers/cpuidle/governors/ladder.c" -o kept.so
expect 0 "ladder-66.so: ladder-66, API 6.12, from Linux 6.6.30 tree" \
	"$teosim" build-governor --source "$other/drivers/cpuidle/governors/ladder.c" --api 6.12 -o ladder-66.so
printf 'VERSION = 6\nPATCHLEVEL = six\nSUBLEVEL = 30\n' > "$other/Makefile"
expect 1 "Makefile:2: PATCHLEVEL: 'six' is not a version number" \
	"$teosim" build-governor --source "$other/drivers/cpuidle/governors/ladder.c" -o kept.so
cp "$tree/drivers/cpuidle/governors/ladder.c" loose.c
expect 1 "loose.c: cannot tell which kernel API it was written for: no kernel tree above it" \
	"$teosim" build-governor --source loose.c -o kept.so
expect 1 "unknown kernel API '5.10': kshim provides 4.20, 6.1 and 6.12" \
	"$teosim" build-governor --source loose.c --api 5.10 -o kept.so
expect 1 "governor name 'teo-6.12' is taken" "$teosim" build-governor --base teo-6.12 --name teo-6.12 -o kept.so
expect 1 "governor name 'a b'" "$teosim" build-governor --base teo-6.12 --name 'a b' -o kept.so
expect 2 "give -o and one of" "$teosim" build-governor --base teo-6.12 --source loose.c -o kept.so
expect 2 "give -o and one of" "$teosim" build-governor --source loose.c --patch stale.patch -o kept.so
[ "$(cat kept.so)" = kept ] && [ "$(ls -A | grep -c '^kept\.so.')" = 0 ] ||
	{ echo "FAIL: a refused build touched kept.so or left a file beside it"; failures=$((failures + 1)); }

# Modules that do not load: not a module, missing, a second of one name.
expect 1 "kept.so: cannot load it" "$teosim" run -g ./kept.so -p skx "$traces/periodic-sweep.trace"
expect 1 "not a teosim governor module" "$teosim" governors "$(ldd "$(command -v sh)" | awk '/libc\.so/ { print $3 }')"
expect 1 "nothing.so: no such governor module" "$teosim" run -g ./nothing.so -p skx "$traces/periodic-sweep.trace"
cp teo-same.so teo-same-copy.so
expect 1 "its governor is named teo-same, as one already here is" \
	"$teosim" compare -g ./teo-same.so,./teo-same-copy.so -p skx "$traces/periodic-sweep.trace"

# 5. The CI recipe, in a kernel git tree of three commits: the example
# patch, then a change to no governor.  Against the commit before the
# patch, teo's decisions change (1); against the parent, nothing does (0).
(
	cd "$tree" && git init -q && git add -A &&
	git -c user.name=t -c user.email=t@t commit -qm base &&
	patch -s -p1 < "$example/teo-tick-half.patch" && git add -A &&
	git -c user.name=t -c user.email=t@t commit -qm tick-half &&
	echo "# a comment" >> Makefile && git add -A &&
	git -c user.name=t -c user.email=t@t commit -qm unrelated
) || { echo "FAIL: making the git tree"; failures=$((failures + 1)); }
recipe=$root/examples/ci/check-governors.sh
cd "$tree" || exit 1
expect 1 "teo-parent vs teo-this on .*io-heavy.trace" \
	env TEOSIM="$teosim" "$recipe" -r HEAD~2 "$traces/io-heavy.trace" "$traces/example.trace"
expect 1 "menu: source unchanged" \
	env TEOSIM="$teosim" "$recipe" -r HEAD~2 "$traces/io-heavy.trace"
expect 0 "ladder: source unchanged" env TEOSIM="$teosim" "$recipe" "$traces/io-heavy.trace"
expect 2 "" env TEOSIM="$teosim" "$recipe" -r no-such-rev "$traces/io-heavy.trace"

[ "$failures" -eq 0 ]
