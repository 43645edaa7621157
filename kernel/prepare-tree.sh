#!/bin/sh
# Prepare a patched Linux tree for the teosim ground truth; print its path.
#
# usage: kernel/prepare-tree.sh      (KERNEL_VERSION=6.1 or 6.12, see lib.sh)
#
# The tree is $TEOSIM_CACHE/linux-VERSION-HASH, HASH being the hash of the
# inputs (see kernel_hash in lib.sh); with KERNEL_FRAGMENT,
# linux-VERSION-NAME-HASH.  If it exists and is complete it is reused as it
# is; otherwise it is made from scratch:
#   1. extract $LINUX_TARBALL (Debian's linux-source-VERSION),
#   2. apply the version's series (kernel/patches/ for 6.1,
#      kernel/patches-6.12/ for 6.12) in the order of its series file,
#   3. 6.1 only: write drivers/cpuidle/governors/teo-v8.c with
#      teo/extract-from-patch.sh from the TEO v8 posting, unchanged.
# Trees of the same variant with other hashes are removed (each is ~1.5 GB
# once built); other variants' trees are left alone.
set -eu
. "$(dirname "$0")/lib.sh"

[ -f "$LINUX_TARBALL" ] || die "no kernel source tarball $LINUX_TARBALL (apt-get install linux-source-$KERNEL_VERSION)"
mkdir -p "$TEOSIM_CACHE"

v8=$(mktemp)
trap 'rm -f "$v8"' EXIT
if [ "$KERNEL_HAS_V8" = 1 ]; then extract_v8 "$v8"; fi
hash=$(kernel_hash "$v8")
tree=$KERNEL_TREE_PREFIX$hash

if [ -f "$tree/.teosim-prepared" ]; then
	echo "$tree"
	exit 0
fi

for old in "$KERNEL_TREE_PREFIX"*; do
	[ -d "$old" ] && [ "$old" != "$tree" ] && is_own_tree "$old" && { say "removing old tree $old"; rm -rf "$old"; }
done

say "extracting $LINUX_TARBALL into $tree"
rm -rf "$tree"
mkdir -p "$tree"
tar -xf "$LINUX_TARBALL" -C "$tree" --strip-components=1

for p in $(series_patches); do
	say "applying $p"
	patch -d "$tree" -p1 --batch --forward --quiet < "$PATCH_DIR/$p" ||
		die "patch $p does not apply"
done

[ "$KERNEL_HAS_V8" = 0 ] || cp "$v8" "$tree/drivers/cpuidle/governors/teo-v8.c"
echo "$hash" > "$tree/.teosim-prepared"
echo "$tree"
