#!/bin/sh
# The version's patch series against the kernel's own style checker:
# scripts/checkpatch.pl --strict, run from the tree the series applies to.
# Every finding must be one that checkpatch-allowed lists (and README.md,
# "checkpatch", justifies); a listed one that is gone is reported, so that
# the list only shrinks.
#
# usage: kernel/checkpatch-test.sh   (KERNEL_VERSION=6.1 or 6.12, see lib.sh)
set -eu
. "$(dirname "$0")/lib.sh"

# The tree is prepared under the version's lock, as build-kernel.sh does.
lock_kernel
tree=$("$KDIR/prepare-tree.sh")
flock -u 9

series_dir=$(basename "$PATCH_DIR")
allowed=$KDIR/checkpatch-allowed
findings=$(mktemp)
trap 'rm -f "$findings"' EXIT
for p in $(series_patches); do
	# --terse: "PATCH:LINE: LEVEL:TYPE: message", one finding a line.
	(cd "$tree" && perl scripts/checkpatch.pl --strict --terse --show-types --no-summary \
		"$PATCH_DIR/$p") | sed -n "s|^$PATCH_DIR/\([^:]*\):\([0-9]*\): [A-Z]*:\([A-Z_]*\):.*|$series_dir/\1 \3 line \2|p" \
		>> "$findings" || true
done

status=0
while read -r patch type _ line; do
	if grep -qx "$patch $type" "$allowed"; then
		echo "allowed: $patch:$line: $type"
	else
		echo "FAIL: $patch:$line: $type is new (fix it, or justify it in checkpatch-allowed and README.md)"
		status=1
	fi
done < "$findings"
grep "^$series_dir/" "$allowed" | while read -r patch type; do
	grep -q "^$patch $type " "$findings" ||
		echo "note: $patch no longer has $type: remove it from checkpatch-allowed"
done
exit $status
