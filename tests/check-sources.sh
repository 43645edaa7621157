#!/bin/sh
# The governors teosim compiled are the published files, byte for byte.
#
# usage: check-sources.sh TEOSIM SEED_PATCH TARBALL_6_1 TARBALL_6_12 GOVERNOR...
#
# GOVERNOR... are the governors the build found sources for: 'teosim
# governors' must list exactly those.  For each, the file is obtained again
# here by independent means (git apply of the seed patch, tar of the kernel
# tarballs) and its SHA-256 compared with the one teosim reports for the
# file it compiled.
set -eu
teosim=$1 patch_file=$2 tarball_61=$3 tarball_612=$4
shift 4

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$teosim" governors > "$work/list"
listed=$(tail -n +2 "$work/list" | cut -d' ' -f1 | tr '\n' ' ')
if [ "$listed" != "$* " ]; then
	echo "expected the governors $*; teosim lists $listed"
	exit 1
fi

mkdir "$work/v8" "$work/6.1" "$work/6.12"
case " $* " in *" teo-v8 "*)
	(cd "$work/v8" && git apply -p1 --include='drivers/cpuidle/governors/teo.c' "$patch_file") ;;
esac
for version in 6.1 6.12; do
	case " $* " in *" teo-$version "*) ;; *) continue ;; esac
	if [ "$version" = 6.1 ]; then tarball=$tarball_61; else tarball=$tarball_612; fi
	tar -xJf "$tarball" -C "$work/$version" --strip-components=1 --wildcards \
		'*/drivers/cpuidle/governors/teo.c' \
		'*/drivers/cpuidle/governors/menu.c' \
		'*/drivers/cpuidle/governors/ladder.c'
done

tail -n +2 "$work/list" | while read -r name api rest; do
	sha=${rest##* }
	path=$(printf '%s\n' "$rest" | awk '{ print $(NF - 1) }')
	case $name in
	teo-v8) dir=v8 ;;
	*-6.12) dir=6.12 ;;
	*-6.1) dir=6.1 ;;
	*) echo "unexpected governor $name"; exit 1 ;;
	esac
	original=$(sha256sum "$work/$dir/$path" | cut -d' ' -f1)
	if [ "$original" = "$sha" ]; then
		echo "ok: $name ($api) $path $sha"
	else
		echo "MISMATCH: $name: compiled $sha, original $original"
		exit 1
	fi
done
