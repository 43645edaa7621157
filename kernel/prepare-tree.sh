#!/bin/sh
# Prepare a patched Linux 6.1 tree for the teosim ground truth; print its path.
#
# usage: kernel/prepare-tree.sh
#
# The tree is $TEOSIM_CACHE/linux-6.1-HASH, HASH being the hash of the inputs
# (see kernel_hash in lib.sh); with KERNEL_FRAGMENT, linux-6.1-NAME-HASH.
# If it exists and is complete it is reused as it is; otherwise it is made
# from scratch:
#   1. extract $LINUX_TARBALL (Debian's linux-source-6.1),
#   2. apply kernel/patches/* in the order of kernel/patches/series,
#   3. write drivers/cpuidle/governors/teo-v8.c with teo/extract-from-patch.sh
#      from the TEO v8 posting, unchanged.
# Trees of the same variant with other hashes are removed (each is ~1.5 GB
# once built); other variants' trees are left alone.
set -eu
. "$(dirname "$0")/lib.sh"

[ -f "$LINUX_TARBALL" ] || die "no kernel source tarball $LINUX_TARBALL (apt-get install linux-source-6.1)"
mkdir -p "$TEOSIM_CACHE"

v8=$(mktemp)
trap 'rm -f "$v8"' EXIT
extract_v8 "$v8"
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
	patch -d "$tree" -p1 --batch --forward --quiet < "$KDIR/patches/$p" ||
		die "patch $p does not apply"
done

cp "$v8" "$tree/drivers/cpuidle/governors/teo-v8.c"
echo "$hash" > "$tree/.teosim-prepared"
echo "$tree"
